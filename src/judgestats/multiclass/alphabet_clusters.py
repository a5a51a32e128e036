r"""Repeated items with a judge alphabet of its own (J ≠ K letters): cluster-aware intervals.

A judge that answers in J letters of its own (a 1–5 score, a/tie/b, …) for K human categories
has no inverse Ĉ⁻¹: :func:`judgestats.correct_distribution` fits θ and the J × K matrix C
jointly by maximum likelihood (:mod:`judgestats.multiclass.likelihood`: test letters
~ Mult(n, Cθ), calibration column b ~ Mult(m_b, C[:, b])) and inverts the likelihood-ratio
test per category. With repeated items the rows are not independent draws of those
multinomials; this module gives the likelihood methods and the bootstrap versions that
account for it.

**The design-effect-scaled likelihood** (``"profile-likelihood-t"``, the alphabet's default,
and ``"profile-likelihood"``). The K + 1 multinomial components x̂_i ∈ {p̂, ĉ_1, …, ĉ_K} (p̂
the J-letter distribution of the test rows, ĉ_b that of the human-b calibration rows) have
the sandwich covariance over item totals S_i of :mod:`judgestats.multiclass.clustered` where
independent rows would give Σ_i = (diag x̂_i − x̂_i x̂_iᵀ)/(R_i − 1) (R_i rows). What matters
for θ̂_b is the direction in which a component moves it: to first order θ̂ moves with p̂ as
L = (ĈᵀWĈ)⁻¹ĈᵀW, W = diag(1/π̂), π̂ = Ĉθ̂ (the multinomial least-squares inverse of Ĉ; for
J = K it is Ĉ⁻¹), and with ĉ_b as −θ̂_b L. Category b's design effect of component i is
therefore d_i^(b) = v_bᵀ S_i v_b / v_bᵀ Σ_i v_b, v_b = row b of L: the trace design effect of
:mod:`judgestats.multiclass.clustered` would average over directions, and understates p̂'s
along θ's, because every row of a test item shares its human class (measured on the first
grid cell of benchmarks/results/repeated_categories.md, the same 200 data sets: coverage
0.895 with the trace design effects, 0.960 with these).
Where the ratio is undefined (0/0) the component's trace design effect with its rule is
used; values within 1e-12 of 1, or below 1, are 1 (rows never count as more than items).
Category b's likelihood is then that of each component's counts divided by d_i^(b) (the
item-weighted counts under ``estimand="items"``): each component's log-likelihood divided by
its design effect, a first-order Rao–Scott correction (Rao & Scott 1981) whose curvature
along v_b is the component's cluster-robust variance. Its profile interval inverts the
likelihood-ratio test with the unclustered cut-off (χ²₁, or t²_ν with ν = min_b m̃_b/(J − 1) −
1 at the scaled column sizes m̃_b). For K = 2 both categories share one direction and one
run. The point estimate is the maximum-likelihood θ̂ of the counts under the estimand
(unscaled); an interval that misses it by the scaling's small shift is widened to hold it.
With one row per item S_i = Σ_i, every d_i^(b) = 1, and estimate and interval are the
unclustered ones. What it does not carry: the covariances between components through items
with rows in several of them (an item with test and calibration rows; raters of one item who
give different human labels). The item bootstrap keeps them.

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

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_positive_int, check_rng
from ..designs import DEFAULT_DESIGN
from .clustered import CategoryClusterSummary, _sizes, category_moments, item_bootstrap_bounds
from .likelihood import alphabet_mle, alphabet_profile_bounds
from .methods import DistributionBounds, table_lists

if TYPE_CHECKING:  # pragma: no cover
    from ..spec import EstimationSpec

__all__ = ["alphabet_design_effects", "clustered_alphabet_bounds"]


#: The lists of methods this module held, now the capability table's rows.
__getattr__ = table_lists(__name__, {
    "ALPHABET_CLUSTER_METHODS": ("alphabet", DEFAULT_DESIGN, True),
})  # fmt: skip


def _directions(test: np.ndarray, cal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """θ̂ and L = (ĈᵀWĈ)⁻¹ĈᵀW, W = diag(1/π̂), π̂ = Ĉθ̂: row b is how θ̂_b moves with p̂."""
    theta, matrix, _ = alphabet_mle(test, cal)
    pi = matrix @ theta
    w = np.where(pi > 0, 1.0 / np.where(pi > 0, pi, 1.0), 0.0)
    gram = matrix.T @ (w[:, None] * matrix)
    return theta, np.linalg.pinv(gram) @ (matrix.T * w[None, :])


def alphabet_design_effects(test: Any, calibration: Any, estimand: str) -> dict[str, Any]:
    """Each category's design effects of the K + 1 components along its direction (module).

    Returns ``deff`` (K, K + 1): d_i^(b) = v_bᵀ S_i v_b / v_bᵀ Σ_i v_b, v_b = row b of L
    (:func:`_directions`, at the counts under the estimand), S_i the sandwich over item
    totals and Σ_i = (diag x̂_i − x̂_i x̂_iᵀ)/(R_i − 1); the component's trace design effect
    (:mod:`judgestats.multiclass.clustered`, with its 0/0 rule) where that ratio is undefined;
    values within 1e-12 of 1 or below are 1. Also ``rate``, ``rows``, ``theta`` (the fit to
    the counts under the estimand), the moments ``m`` and the trace design effects ``trace``.
    """
    m = category_moments(test, calibration, estimand)
    trace, pooled, _, _ = _sizes(m)
    rate, rows = np.nan_to_num(m["rate"]), m["rows"]
    if estimand == "rows":
        t, c = np.asarray(test.counts, dtype=float), np.asarray(calibration.counts, dtype=float)
    else:
        t, c = rate[0] * rows[0], (rate[1:] * rows[1:, None]).T
    theta, lin = _directions(t, c)
    with np.errstate(divide="ignore", invalid="ignore"):
        multi = (np.einsum("ia,ac->iac", rate, np.eye(rate.shape[1]))
                 - np.einsum("ia,ic->iac", rate, rate)) / (rows - 1.0)[:, None, None]
        num = np.einsum("ba,iac,bc->bi", lin, np.nan_to_num(m["sandwich"]), lin)
        den = np.einsum("ba,iac,bc->bi", lin, np.nan_to_num(multi), lin)
        deff = np.where((den > 0) & ~pooled[None, :] & (m["items"] >= 2)[None, :],
                        num / den, trace[None, :])  # fmt: skip
    deff = np.where(np.nan_to_num(deff, nan=1.0) <= 1.0 + 1e-12, 1.0, deff)
    return {"deff": deff, "trace": trace, "pooled": pooled, "rate": rate, "rows": rows,
            "theta": theta, "m": m, "counts": (t, c)}  # fmt: skip


def clustered_alphabet_bounds(
    spec: EstimationSpec, test: Any, calibration: Any, *, max_condition: float, rng: Any = None,
) -> tuple[DistributionBounds, CategoryClusterSummary]:  # fmt: skip
    """Cluster-aware bounds and estimate of a judge alphabet's θ (see module).

    The spec's method (a method of the capability table's row of judge alphabets with
    repeated items), level, estimand and options. The likelihood methods profile each
    category b at the counts scaled by its design effects (one run for K = 2, whose two
    categories share them); ``"bootstrap"`` resamples items. The estimate is the fit to the
    counts under the estimand (the unscaled maximum likelihood under ``"rows"``); an
    interval that misses it by the scaling's shift is widened to hold it. Returns the bounds
    (``estimate`` set) and the :class:`~judgestats.multiclass.clustered.CategoryClusterSummary`
    (design effects and effective sizes: category 0's for K = 2, the largest over the
    categories otherwise; ``df``: the t cut-off's ν per category, ∞ for χ² and the bootstrap).
    """
    method, confidence_level, estimand = spec.method, spec.confidence_level, spec.estimand
    d = alphabet_design_effects(test, calibration, estimand)
    m, deff, (t, c) = d["m"], d["deff"], d["counts"]
    k = c.shape[1]
    if method == "bootstrap":
        reps = check_positive_int("n_resamples", spec.options.get("n_resamples", 9999), minimum=2)
        bounds = item_bootstrap_bounds(test, calibration, confidence_level=confidence_level,
                                       estimand=estimand, max_condition=max_condition,
                                       reps=reps, gen=check_rng(rng))  # fmt: skip
        df = np.full(k, np.inf)
    else:
        low, high, df = np.full(k, np.nan), np.full(k, np.nan), np.full(k, np.inf)
        for b in range(k if k > 2 else 1):
            t_b, c_b = t / deff[b, 0], c / deff[b, None, 1:]
            lo, hi, _ = alphabet_profile_bounds(
                t_b, c_b, confidence_level, small_sample=method == "profile-likelihood-t",
                only=b)  # fmt: skip
            span = range(k) if k == 2 else (b,)
            low[span], high[span] = lo[span], hi[span]
            if method == "profile-likelihood-t":
                df[span] = c_b.sum(axis=0).min() / (c.shape[0] - 1) - 1.0
        if (m["rows"][1:] == 0).any():  # a human class without calibration rows
            low[:], high[:] = np.nan, np.nan
        est = d["theta"]
        bounds = DistributionBounds(np.minimum(low, est), np.maximum(high, est),
                                    np.zeros((), dtype=np.int64), estimate=est)  # fmt: skip
    shown = deff[0] if k == 2 else deff.max(axis=0)
    summary = CategoryClusterSummary(
        estimand=estimand, items=m["n_items"], test_items=m["test_items"],
        calibration_items=m["calibration_items"],
        components=("p", *(f"C[:, {lab!r}]" for lab in calibration.labels)),
        rows=tuple(m["rows"].tolist()), items_per_component=tuple(m["items"].tolist()),
        design_effect=tuple(shown.tolist()),
        effective=tuple((m["rows"] / np.maximum(shown, 1.0)).tolist()),
        pooled=tuple(bool(v) for v in d["pooled"]), df=tuple(float(v) for v in df),
    )  # fmt: skip
    return bounds, summary
