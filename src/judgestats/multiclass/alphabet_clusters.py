r"""Repeated items with a judge alphabet of its own (J ≠ K letters): cluster-aware intervals.

A judge that answers in J letters of its own (a 1–5 score, a/tie/b, …) for K human categories
has no inverse Ĉ⁻¹: :func:`judgestats.correct_distribution` fits θ and the J × K matrix C
jointly by maximum likelihood (:mod:`judgestats.multiclass.likelihood`: test letters
~ Mult(n, Cθ), calibration column b ~ Mult(m_b, C[:, b])) and inverts the likelihood-ratio
test per category. With repeated items the rows are not independent draws of those
multinomials; this module gives the likelihood methods and the bootstrap versions that
account for it.

**The design-effect-scaled likelihood** (``"profile-likelihood-t"``, the alphabet's default,
and ``"profile-likelihood"``). Each of the K + 1 multinomial components x̂_i ∈ {p̂, ĉ_1, …,
ĉ_K} (p̂ the J-letter distribution of the test rows, ĉ_b that of the human-b calibration rows)
gets the design effect of :mod:`judgestats.multiclass.clustered`, d_i = tr S_ii / tr Σ_i:
the sandwich over item totals against the multinomial covariance of its R_i rows (exactly 1
with one row per item; the pooled rule where 0/0), and the effective size R_i / max(d_i, 1).
The likelihood is then the one of the effective counts, x̂_i · R_i / max(d_i, 1) (under
``estimand="rows"`` the counts divided by max(d_i, 1)): each component's log-likelihood
divided by its design effect, a first-order Rao–Scott correction (Rao & Scott 1981), whose
curvature at the maximum is the component's cluster-robust information. The profile interval
of each θ_b inverts the likelihood-ratio test of that likelihood with the unclustered cut-off
(χ²₁, or t²_ν with ν = min_b m̃_b/(J − 1) − 1 at the effective column sizes m̃_b). The point
estimate is that likelihood's maximum (a weighted maximum-likelihood estimate, consistent for
θ as the unweighted one is). With one row per item every d_i = 1, the counts are unchanged,
and estimate and interval are the unclustered ones exactly. What it does not carry: the
covariances between components through items with rows in several of them (an item with test
and calibration rows; raters of one item who give different human labels). The item
bootstrap keeps them.

**The item bootstrap** (``"bootstrap"``): whole items resampled within their roles
(:func:`judgestats.multiclass.clustered.item_bootstrap_bounds`), the joint likelihood refitted
per replicate, percentile bounds.

The judge-letter-conditional ``"adjusted-delta"`` and ``"wald"`` invert Ĉ and stay square-only,
as without clusters.

References
----------
Rao, J. N. K. & Scott, A. J. (1981). JASA 76, 221–230 (design-effect-corrected tests).
Kish, L. (1965). Survey Sampling, ch. 8 (design effect, effective sample size).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_positive_int, check_rng
from .clustered import CategoryClusterSummary, _sizes, category_moments, item_bootstrap_bounds
from .methods import DistributionBounds, _get_method

__all__ = ["ALPHABET_CLUSTER_METHODS", "alphabet_effective_counts", "clustered_alphabet_bounds"]

#: The judge-alphabet (J ≠ K) interval methods that account for repeated items; the first is
#: the default.
ALPHABET_CLUSTER_METHODS = ("profile-likelihood-t", "profile-likelihood", "bootstrap")


def alphabet_effective_counts(
    test: Any, calibration: Any, estimand: str
) -> tuple[np.ndarray, np.ndarray, dict[str, Any], tuple[np.ndarray, ...]]:
    """Return the design-effect-scaled test (J,) and calibration (J, K) counts (see module).

    Returns them with :func:`~judgestats.multiclass.clustered.category_moments`' moments and
    the components' (design effects, pooled mask, effective sizes). Under ``"rows"`` each
    component's counts are divided by max(d_i, 1), so with one row per item they are the
    counts themselves, bit for bit.
    """
    m = category_moments(test, calibration, estimand)
    deff, pooled, effective, _ = _sizes(m)
    shrink = np.maximum(np.nan_to_num(deff, nan=1.0), 1.0)
    if estimand == "rows":
        t_eff = np.asarray(test.counts, dtype=float) / shrink[0]
        c_eff = np.asarray(calibration.counts, dtype=float) / shrink[None, 1:]
    else:  # the item-weighted rates at the effective sizes
        rate = np.nan_to_num(m["rate"])
        t_eff = rate[0] * effective[0]
        c_eff = (rate[1:] * effective[1:, None]).T
    return t_eff, c_eff, m, (deff, pooled, effective)


def clustered_alphabet_bounds(
    test: Any, calibration: Any, *, method: str, confidence_level: float, estimand: str,
    max_condition: float, rng: Any = None, n_resamples: int = 9999,
) -> tuple[DistributionBounds, CategoryClusterSummary]:  # fmt: skip
    """Cluster-aware bounds and estimate of a judge alphabet's θ (see module).

    ``method``: one of :data:`ALPHABET_CLUSTER_METHODS`. The likelihood methods run the
    registered unclustered method at the design-effect-scaled counts; ``"bootstrap"``
    resamples items. Returns the bounds (``estimate`` set) and the
    :class:`~judgestats.multiclass.clustered.CategoryClusterSummary` (``df``: the t cut-off's
    ν per category, ∞ for χ² and the bootstrap).
    """
    t_eff, c_eff, m, (deff, pooled, effective) = alphabet_effective_counts(
        test, calibration, estimand)  # fmt: skip
    j, k = c_eff.shape
    if method == "bootstrap":
        reps = check_positive_int("n_resamples", n_resamples, minimum=2)
        bounds = item_bootstrap_bounds(test, calibration, confidence_level=confidence_level,
                                       estimand=estimand, max_condition=max_condition,
                                       reps=reps, gen=check_rng(rng))  # fmt: skip
        df = float("inf")
    else:
        spec, _ = _get_method(method, {})
        bounds = spec.func(t_eff, c_eff, confidence_level=confidence_level,
                           max_condition=max_condition)  # fmt: skip
        df = (float(c_eff.sum(axis=0).min() / (j - 1) - 1.0)
              if method == "profile-likelihood-t" else float("inf"))  # fmt: skip
    summary = CategoryClusterSummary(
        estimand=estimand, items=m["n_items"], test_items=m["test_items"],
        calibration_items=m["calibration_items"],
        components=("p", *(f"C[:, {lab!r}]" for lab in calibration.labels)),
        rows=tuple(m["rows"].tolist()), items_per_component=tuple(m["items"].tolist()),
        design_effect=tuple(deff.tolist()), effective=tuple(effective.tolist()),
        pooled=tuple(bool(v) for v in pooled), df=(df,) * k,
    )  # fmt: skip
    return bounds, summary
