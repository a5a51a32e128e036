"""``correct_distribution()`` and its :class:`DistributionCorrection`.

One k-category data set corrected (paper eqs. (23) and
(24)): θ̂ = Ĉ⁻¹p̂ with the interval method chosen from the registry of
:mod:`.methods`, projected onto the simplex where Ĉ⁻¹p̂ has negative entries, refused where the
judge does not separate the categories (:mod:`.separation`); under the random and
by-judge-label designs, the judge-conditional estimator instead.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    ProjectedEstimateWarning,
    SamplingWarning,
    check_choice,
    check_conditioning,
    check_confidence_level,
    check_method,
    require_extra,
)
from ..alphabets.letters import SparseLettersWarning
from ..counts.categories import (
    CategoryCounts,
    ConfusionMatrix,
)
from ..designs import (
    DEFAULT_DESIGN,
    check_design,
    design_check_categories,
    judge_conditional_distribution,
    warn_if_implausible,
)
from ..repeated import ESTIMANDS, is_clustered
from ..results import ConfidenceInterval, Recomputable, Tabular, forward, note_lines
from .alphabet_clusters import clustered_alphabet_bounds
from .arrays import MAX_CONDITION, _simplex_ml
from .clustered import (
    check_clustered_call,
    clustered_design_bounds,
    clustered_distribution_bounds,
    column_design_effects,
)
from .likelihood import (
    alphabet_mle,
)
from .methods import DistributionBounds, _get_method
from .separation import SEPARATION_LEVEL, _check_letters, _check_pair

if TYPE_CHECKING:  # pragma: no cover
    import xarray as xr

__all__ = [
    "DistributionCorrection",
    "correct_distribution",
]


#: Entries of Ĉ⁻¹p̂ below −_SIMPLEX_TOL count as outside the simplex (smaller ones are rounding).
_SIMPLEX_TOL = 1e-12


# ----------------------------------------------------------------------------- one data set
def _interval_set(
    test: CategoryCounts,
    calibration: ConfusionMatrix,
    *,
    method: str,
    confidence_level: float,
    rng: Any,
    max_condition: float,
    stacklevel: int,
    **options: Any,
) -> tuple[dict[Any, ConfidenceInterval], DistributionBounds]:
    """Intervals for one validated data set; raises when undefined, warns on bad replicates."""
    level = check_confidence_level(confidence_level)
    spec, options = _get_method(method, dict(options))
    method = spec.name
    bounds = spec.func(
        np.asarray(test.counts),
        np.asarray(calibration.counts),
        confidence_level=level,
        rng=rng,
        max_condition=max_condition,
        **options,
    )
    if np.isnan(bounds.low).any() or np.isnan(bounds.high).any():
        kappa = np.inf if bounds.condition_number is None else float(bounds.condition_number)
        check_conditioning(
            kappa, max_condition, f"used by the {method!r} interval (after its adjustment)"
        )
        check_conditioning(np.inf, max_condition, f"in every {method!r} replicate")
    undefined = int(np.asarray(bounds.undefined))
    if bounds.n_resamples and undefined:
        warnings.warn(
            f"{undefined} of {bounds.n_resamples} bootstrap replicates were undefined (the "
            f"resampled confusion matrix had condition number above {max_condition:g}) and are "
            "excluded from the percentiles; the interval conditions on an invertible judge and "
            "may be too narrow",
            SamplingWarning,
            stacklevel=stacklevel,
        )
    cis = {
        label: ConfidenceInterval.from_bounds(bounds, method, level, i, undefined=undefined)
        for i, label in enumerate(calibration.labels)
    }
    return cis, bounds


#: Interval methods of the judge-conditional estimator (random and by-judge-label designs).
DESIGN_DISTRIBUTION_METHODS = ("adjusted-delta", "wald")


def _design_distribution(test, calibration, method, confidence_level, design, options):
    """:func:`correct_distribution` under the random or by-judge-label design."""
    _check_letters(test, calibration)
    method = DESIGN_DISTRIBUTION_METHODS[0] if method is None else method
    check_method(method, DESIGN_DISTRIBUTION_METHODS,
                 capability=f"k-category corrections with design={design!r}")  # fmt: skip
    if options:
        raise ArgumentTypeError(f"method {method!r} takes no options, got {sorted(options)}")
    level = check_confidence_level(confidence_level)
    est, low, high, cov = judge_conditional_distribution(
        test.counts, calibration.counts, design, level, adjusted=method == "adjusted-delta",
        labels=test.labels,
    )  # fmt: skip
    check = None
    if design == "random":
        check = design_check_categories(test.counts, calibration.counts)
        warn_if_implausible(check, stacklevel=4)
    cov.setflags(write=False)
    labels = calibration.labels
    ci = {
        lab: ConfidenceInterval(float(lo), float(hi), method, level)
        for lab, lo, hi in zip(labels, low, high, strict=True)
    }
    estimate = {lab: float(v) for lab, v in zip(labels, est, strict=True)}
    return DistributionCorrection(
        labels=labels, estimate=estimate, ci=ci, estimate_unconstrained=dict(estimate),
        projected=False, method=method, confidence_level=level, test=test,
        calibration=calibration, condition_number=float("nan"), max_condition=float("inf"),
        covariance=cov, design=design, design_check=check,
    )


def _unseen_letters(test: CategoryCounts, calibration: ConfusionMatrix) -> tuple | None:
    """Return the data without the judge letters on test items but on no calibration item.

    None when there are none (or the matrix is square: k categories, no alphabet). Such a
    letter says nothing about how it relates to the truth; :func:`_with_unseen` puts its
    items' rates anywhere in [0, 1]. A warning names the letters and their test share.
    """
    if not isinstance(calibration, ConfusionMatrix) or calibration.square:
        return None
    _check_letters(test, calibration)
    counts = np.asarray(test.counts)
    unseen = (np.asarray(calibration.judge_counts) == 0) & (counts > 0)
    if not unseen.any():
        return None
    keep = ~unseen & ((np.asarray(calibration.judge_counts) > 0) | (counts > 0))
    if keep.sum() < calibration.k:  # too few letters left to identify θ: refuse, naming one
        return None
    letters = [calibration.judge_labels[j] for j in np.flatnonzero(unseen)]
    share = counts[unseen].sum() / counts.sum()
    warnings.warn(
        f"judge letter{'s' if len(letters) > 1 else ''} {', '.join(map(repr, letters))} "
        f"{'are' if len(letters) > 1 else 'is'} on {int(counts[unseen].sum())} test items "
        f"({share:.1%}) but on no calibration item, so how the judge uses "
        f"{'them' if len(letters) > 1 else 'it'} for each human category is unknown: those items' "
        "rates are taken as anywhere in [0, 1], which widens each interval by up to "
        f"{share:.1%}; merge the letter into another (calibration.merge(...), test.merge(...)) "
        "or label items the judge gave it",
        SparseLettersWarning,
        stacklevel=4,
    )
    letters_kept = [calibration.judge_labels[j] for j in np.flatnonzero(keep)]
    sub_test = CategoryCounts(counts[keep], labels=letters_kept)
    sub_cal = ConfusionMatrix(np.asarray(calibration.counts)[keep], labels=calibration.labels,
                              judge_labels=letters_kept)  # fmt: skip
    return sub_test, sub_cal


def _with_unseen(seen: DistributionCorrection, test: Any, calibration: Any) -> Any:
    """Widen the seen letters' correction by the unseen letters' test share s.

    θ_k = (1 − s)·θ_k(seen) + s·θ_k(unseen) with θ_k(unseen) anywhere in [0, 1], so each
    interval becomes [(1 − s)·low, (1 − s)·high + s]; the point estimate stays the seen letters'
    (their items taken as alike), which lies inside.
    """
    counts = np.asarray(test.counts)
    share = 1.0 - float(seen.test.counts.sum()) / float(counts.sum())
    ci = {
        lab: ConfidenceInterval(
            (1 - share) * c.low, (1 - share) * c.high + share, c.method, c.confidence_level
        )
        for lab, c in seen.ci.items()
    }
    return replace(seen, ci=ci, test=test, calibration=calibration, unseen_share=share)


def _clustered_distribution(test, calibration, method, confidence_level, max_condition,
                            separation_level, estimand, options, rng=None,
                            design=DEFAULT_DESIGN):  # fmt: skip
    """:func:`correct_distribution` for counts built with ``cluster=`` (:mod:`.clustered`)."""
    method = check_clustered_call(test, calibration, method, design, estimand)
    allowed = ("n_resamples",) if method == "bootstrap" else ()
    if set(options) - set(allowed):
        takes = "n_resamples" if allowed else "no options"
        raise ArgumentTypeError(f"method {method!r} takes {takes}, got {sorted(options)}")
    level = check_confidence_level(confidence_level)
    if design != DEFAULT_DESIGN:
        return _clustered_design(test, calibration, method, level, design, estimand)
    _check_letters(test, calibration)
    if not calibration.square:
        return _clustered_alphabet(test, calibration, method, level, max_condition,
                                   separation_level, estimand, options, rng)  # fmt: skip
    deff = None
    if separation_level is not None:  # the separation test counts an item's rows by its deff
        deff = column_design_effects(test, calibration)
    max_condition = _check_pair(test, calibration, max_condition, separation_level, deff)
    bounds, summary, p, matrix = clustered_distribution_bounds(
        test, calibration, method=method, confidence_level=level, estimand=estimand,
        max_condition=max_condition, rng=rng, **options,
    )  # fmt: skip
    if np.isnan(bounds.low).any():
        check_conditioning(float(bounds.condition_number), max_condition,
                           f"used by the {method!r} interval (after its adjustment)")  # fmt: skip
    raw = np.linalg.solve(matrix, p)
    outside = bool((raw < -_SIMPLEX_TOL).any())
    est = _simplex_ml(p, matrix) if outside else np.clip(raw, 0.0, 1.0) / np.clip(raw, 0, 1).sum()
    if outside:
        warnings.warn(
            "the corrected distribution Ĉ⁻¹p̂ lies outside the probability simplex; the "
            "estimate reported is the constrained maximum-likelihood fit on the simplex "
            "(estimate_unconstrained keeps Ĉ⁻¹p̂)", ProjectedEstimateWarning, stacklevel=3,
        )  # fmt: skip
    cov = np.array(bounds.covariance, dtype=float)
    cov.setflags(write=False)
    labels = calibration.labels
    return DistributionCorrection(
        labels=labels, estimate={lab: float(v) for lab, v in zip(labels, est, strict=True)},
        ci={lab: ConfidenceInterval.from_bounds(bounds, method, level, i,
                                                undefined=int(np.asarray(bounds.undefined)))
            for i, lab in enumerate(labels)},
        estimate_unconstrained={lab: float(v) for lab, v in zip(labels, raw, strict=True)},
        projected=outside, method=method, confidence_level=level, test=test,
        calibration=calibration, condition_number=calibration.condition_number,
        max_condition=max_condition, covariance=cov, clusters=summary,
    )  # fmt: skip


def _clustered_alphabet(test, calibration, method, level, max_condition, separation_level,
                        estimand, options, rng):  # fmt: skip
    """Repeated items with a judge alphabet of its own (:mod:`.alphabet_clusters`)."""
    deff = None if separation_level is None else column_design_effects(test, calibration)
    max_condition = _check_pair(test, calibration, max_condition, separation_level, deff)
    bounds, summary = clustered_alphabet_bounds(
        test, calibration, method=method, confidence_level=level, estimand=estimand,
        max_condition=max_condition, rng=rng, **options,
    )  # fmt: skip
    labels = calibration.labels
    estimate = {lab: float(v) for lab, v in zip(labels, bounds.estimate, strict=True)}
    return DistributionCorrection(
        labels=labels, estimate=estimate,
        ci={lab: ConfidenceInterval.from_bounds(bounds, method, level, i,
                                                undefined=int(np.asarray(bounds.undefined)))
            for i, lab in enumerate(labels)},
        estimate_unconstrained=dict(estimate), projected=False, method=method,
        confidence_level=level, test=test, calibration=calibration,
        condition_number=calibration.condition_number, max_condition=max_condition,
        covariance=None, clusters=summary,
    )  # fmt: skip


def _clustered_design(test, calibration, method, level, design, estimand):
    """Correct repeated items under the random or by-judge-label design (:mod:`.clustered`)."""
    _check_letters(test, calibration)
    judge_conditional_distribution(test.counts, calibration.counts, design, level,
                                   labels=test.labels)  # the design's checks  # fmt: skip
    est, low, high, cov, summary = clustered_design_bounds(
        test, calibration, design=design, method=method, confidence_level=level,
        estimand=estimand)  # fmt: skip
    cov.setflags(write=False)
    labels = calibration.labels
    estimate = {lab: float(v) for lab, v in zip(labels, est, strict=True)}
    return DistributionCorrection(
        labels=labels, estimate=estimate,
        ci={lab: ConfidenceInterval(float(lo), float(hi), method, level)
            for lab, lo, hi in zip(labels, low, high, strict=True)},
        estimate_unconstrained=dict(estimate), projected=False, method=method,
        confidence_level=level, test=test, calibration=calibration,
        condition_number=float("nan"), max_condition=float("inf"), covariance=cov,
        design=design, clusters=summary,
    )  # fmt: skip


def correct_distribution(
    test: CategoryCounts,
    calibration: ConfusionMatrix,
    *,
    method: str | None = None,
    confidence_level: float = 0.95,
    rng: Any = None,
    max_condition: float = MAX_CONDITION,
    separation_level: float | None = SEPARATION_LEVEL,
    design: str = DEFAULT_DESIGN,
    estimand: str = "rows",
    **options: Any,
) -> DistributionCorrection:
    """Correct a judged category distribution for the judge's errors, with intervals.

    Computes θ̂ = Ĉ⁻¹p̂ (paper appendix, eq. (23)), with Ĉ[a, b] =
    #(judge = a, human = b)/#(human = b) from the calibration set (eq.
    (24)), and a per-category interval for the true distribution θ.
    For k = 2 the estimate equals :func:`judgestats.correct`'s Rogan–Gladen estimate.

    **A judge alphabet of its own** (J letters for K human categories, J > K: a 1–5 score
    against pass/fail, a tie or "invalid" letter, two judges' letter pairs; see
    :class:`ConfusionMatrix`'s ``judge_labels``): there is no inverse; the estimate is the
    joint maximum-likelihood θ̂ of the test letters ~ Mult(n, Cθ) and the calibration columns
    ~ Mult(m_b, C[:, b]) (:mod:`judgestats.multiclass.likelihood`), which uses every letter,
    lies on the simplex, and equals Ĉ⁻¹p̂ when J = K and that is a distribution. Methods
    ``"profile-likelihood-t"`` (the default there), ``"profile-likelihood"`` and
    ``"bootstrap"`` (refitted per replicate).

    Parameters
    ----------
    test : CategoryCounts
        Judged counts per category (per judge letter) on the test set.
    calibration : ConfusionMatrix
        Judge-by-human counts on the calibration set, whose judge labels are the test's
        labels **in the same order** (use ``.reorder(...)`` to align them).
    method : str, optional
        ``"adjusted-delta"`` (the default for a square matrix), ``"wald"``, ``"bootstrap"``,
        ``"profile-likelihood"`` or ``"profile-likelihood-t"`` (the default for a judge
        alphabet of its own) (or any name in :func:`distribution_methods`; ``"delta"``
        is the deprecated name of the first two):

        * ``"adjusted-delta"`` and ``"wald"``: θ̂ ± z·se per category, truncated to [0, 1],
          with the delta-method covariance A[Σ_p + Σ_b θ_b² Σ_b]Aᵀ, A = Ĉ⁻¹,
          Σ_p = (diag p − ppᵀ)/n and Σ_b = (diag c_b − c_b c_bᵀ)/m_b the multinomial
          covariances of p̂ and of column b of Ĉ (the columns are independent given the m_b).
          For k = 2 it is the paper's eq. (15).
          **Adjustment** (``"adjusted-delta"``, the default): like the paper's adjusted Wald
          interval, the formula is evaluated at p̃ = (counts + z²/k)/(n + z²) and at columns
          c̃_b = (counts_b + 2/k)/(m_b + 2), centred at θ̃ = C̃⁻¹p̃. For k = 2 these are exactly
          the paper's p̃, q̃0, q̃1 and standard error (the paper's extra centre shift dθ̃ is a
          binary-specific term and is not used). Why: the plain formula gives zero variance to
          any column of Ĉ with all its items in one cell, which happens whenever the judge is
          accurate and m_b is small; in simulation (benchmarks/results/multiclass.md) the plain
          interval then covers as little as 65% for a nominal 95%, the adjusted one at least
          0.960 per category on that grid (conservative for tiny m_b). That is not a floor: on
          cells drawn at random (issue 27: 73 category intervals) 11 covered below 0.95, the
          lowest 0.935. ``"wald"`` gives the plain interval, for comparison.
        * ``"bootstrap"``: parametric percentile bootstrap: p̂* ~ Mult(n, p̂)/n and each column
          ĉ_b* ~ Mult(m_b, ĉ_b)/m_b, θ̂* = Ĉ*⁻¹p̂*; option ``n_resamples`` (default 9999).
          Replicates whose Ĉ* exceeds ``max_condition`` are counted as undefined, excluded
          from the percentiles and reported (``ci[label].undefined``, ``SamplingWarning``).
          **Small calibration sets:** the percentile bootstrap resamples from Ĉ itself, so it
          inherits Ĉ's noise without widening for it; with about 20 calibration items per class
          it under-covers, where the adjusted delta interval covers but is wide (figures in the
          README). Prefer ``"adjusted-delta"`` there.
        * ``"profile-likelihood"``: {t : 2(ℓ̂ − ℓ_p(t)) <= χ²₁(level)} per category, with ℓ
          the joint log-likelihood above and ℓ_p(t) its maximum with θ_b = t (Wilks). For
          k = 2 and a square matrix it is :func:`judgestats.correct`'s
          ``"profile-likelihood"`` interval (the same numbers). ``"profile-likelihood-t"``
          (the default for a judge alphabet of its own) uses the cut-off t²_ν((1 + level)/2),
          ν = min_b m_b/(J − 1) − 1 — the calibration items per free parameter of a column of
          C, minus one; for J = 2 ``js.correct``'s ``"profile-likelihood-t"``. With many
          letters and few items per column the χ² cut-off covers as little as 0.89 (J = 10,
          50 items per class); the t cut-off at least 0.93 in every cell tried
          (benchmarks/results/alphabets.md).
    confidence_level : float, default 0.95
        Two-sided per-category level, strictly inside (0, 1); stored on the result. The
        intervals are marginal (one per category), not simultaneous.
    rng : None, int, SeedSequence or Generator
        Randomness for resampling methods.
    max_condition : float, default MAX_CONDITION (100)
        Largest accepted 2-norm condition number of Ĉ (see :data:`MAX_CONDITION` for the
        rationale); ``numpy.inf`` accepts any invertible Ĉ.
    separation_level : float or None, default SEPARATION_LEVEL (0.05)
        For k >= 3: significance level of the test, for each pair of human categories, that
        the judge labels both with the same distribution (:func:`confused_pairs`). A pair
        the test does not separate raises :class:`ConfusedCategoriesError` naming it: a judge
        that cannot tell two categories apart has a singular C, and sampling noise alone makes
        Ĉ invertible (κ(Ĉ) < 100 in most data sets). ``None`` skips the test. For k = 2 the
        binary rules apply instead (q̂0 + q̂1 > 1), exactly as :func:`judgestats.correct`;
        with a judge alphabet of its own the test runs for every K.
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How the calibration items were chosen (:mod:`judgestats.designs`). The other designs
        estimate θ_k = Σ_j P(judge = j) P(human = k | judge = j)
        (:func:`judgestats.designs.judge_conditional_distribution`): no inverse, always on the
        simplex, no conditioning or separation requirement, a true class may lack calibration
        items; methods ``"adjusted-delta"`` (pseudo-counts) and ``"wald"``.
    estimand : {"rows", "items"}, default "rows"
        With repeated items (counts built with ``cluster=``;
        :mod:`judgestats.multiclass.clustered`): the distribution over rows (each row
        weight 1: p̂ and Ĉ are the counts' own, θ_b the share of rows with human label b) or
        over items (each item weight 1, its rows 1/its rows each: θ_b the mean over items of
        the share of the item's rows with human label b, so an item whose raters disagree
        counts in each of their labels with its share). ``"adjusted-delta"`` and ``"wald"``
        then replace the multinomial covariances of p̂ and of each column of Ĉ by the
        sandwich over item totals (design effects, effective sizes, cross-covariances of
        components that share items) with a Welch–Satterthwaite t critical value, and
        ``res.clusters`` says what they did; under the random and by-judge-label designs the
        same for π̂ and the rows of R̂ (:mod:`judgestats.multiclass.clustered`);
        ``"bootstrap"`` (by-human-label) resamples whole items; the profile-likelihood methods
        of a square matrix refuse such counts (:class:`~judgestats.errors.ClusteredCountsError`).
        A judge alphabet of its own (J ≠ K letters, by-human-label) takes them with
        ``"profile-likelihood-t"`` (default) and ``"profile-likelihood"`` of the
        design-effect-scaled likelihood, or ``"bootstrap"`` (items resampled, the likelihood
        refitted per replicate) (:mod:`judgestats.multiclass.alphabet_clusters`). The
        separation test divides its G statistic by the pair's design effect (first-order
        Rao–Scott, :func:`~judgestats.multiclass.separation.confused_pairs`). Without clusters
        every row is an item and the two are the same.
    **options
        Method options: ``n_resamples`` for ``"bootstrap"``.

    Returns
    -------
    DistributionCorrection
        ``estimate`` (dict label → float, on the simplex), ``ci`` (dict label →
        ConfidenceInterval), ``naive``, ``estimate_unconstrained``, ``projected``,
        ``confusion_matrix``, ``summary()``, ``to_dataframe()``, ``to_xarray()``.

    Raises
    ------
    ArgumentTypeError
        If ``test``/``calibration`` are not CategoryCounts/ConfusionMatrix.
    LabelError
        If their labels differ (as sets or in order; the letters only on one side are named).
    CountError
        With a judge alphabet of its own: a letter on test items but on no calibration item
        (merge it: :meth:`ConfusionMatrix.merge`, :meth:`CategoryCounts.merge`).
    IllConditionedError
        If Ĉ is singular or its condition number exceeds ``max_condition`` (a
        :class:`NotInformativeError`); for k = 2, :class:`NotInformativeError` when
        q̂0 + q̂1 <= 1, exactly as :func:`judgestats.correct`.
    ConfusedCategoriesError
        (an :class:`IllConditionedError`) If the calibration set does not show that the judge
        separates some pair of human categories (see ``separation_level``).
    MethodError, ConfidenceLevelError
        On an unknown method or estimand, or a bad level.
    ClusteredCountsError
        (a :class:`MethodError`) Counts built with ``cluster=`` with a method that does not
        account for them: other than ``"adjusted-delta"``/``"wald"``/``"bootstrap"`` (square
        Ĉ), other than ``"profile-likelihood-t"``/``"profile-likelihood"``/``"bootstrap"``
        (a judge alphabet of its own), or a design they do not support.

    Warns
    -----
    ProjectedEstimateWarning
        When Ĉ⁻¹p̂ has a negative entry. The reported ``estimate`` is then the constrained
        maximum-likelihood fit: the θ on the simplex maximising the multinomial likelihood
        Σ_a n_a log (Ĉθ)_a of the judged test counts. It equals Ĉ⁻¹p̂ whenever that lies in the
        simplex, reduces to clipping for k = 2 (as :func:`judgestats.correct`), and weighs
        each category by how much the data say about it: a category the judge labels
        perfectly keeps its judged share, whereas the Euclidean projection would shift every
        positive entry by the same amount. In simulation it has 30–45% lower error than the
        Euclidean projection on data sets outside the simplex (benchmarks/results/
        multiclass.md). The intervals are not changed by the projection.
    SamplingWarning
        When bootstrap replicates were undefined.

    See Also
    --------
    correct : The binary (pass/fail) case.
    alphabets.groups.correct_alphabet : A judge alphabet wider than the human one.
    bayes.fit : The Bayesian model of the same counts.

    Examples
    --------
    >>> import judgestats.multiclass as mc
    >>> test = mc.CategoryCounts([43, 38, 19], labels=["a", "b", "c"])
    >>> cal = mc.ConfusionMatrix([[8, 1, 0], [2, 8, 2], [0, 1, 8]], labels=["a", "b", "c"])
    >>> res = mc.correct_distribution(test, cal)
    >>> {k: round(v, 6) for k, v in res.estimate.items()}
    {'a': 0.5, 'b': 0.3, 'c': 0.2}
    """
    design = check_design(design)
    if is_clustered(test, calibration):
        check_clustered_call(test, calibration, method, design, estimand)
        return _clustered_distribution(test, calibration, method, confidence_level,
                                       max_condition, separation_level, estimand, options, rng,
                                       design)
    check_choice("estimand", estimand, ESTIMANDS)  # without clusters every row is an item
    if design != DEFAULT_DESIGN:
        return _design_distribution(test, calibration, method, confidence_level, design, options)
    unseen = _unseen_letters(test, calibration)
    if unseen is not None:
        seen = correct_distribution(
            *unseen, method=method, confidence_level=confidence_level, rng=rng,
            max_condition=max_condition, separation_level=separation_level, **options,
        )  # fmt: skip
        return _with_unseen(seen, test, calibration)
    max_condition = _check_pair(test, calibration, max_condition, separation_level)
    if method is None:
        method = "adjusted-delta" if calibration.square else "profile-likelihood-t"
    spec, options = _get_method(method, dict(options))
    method = spec.name
    cis, bounds = _interval_set(
        test,
        calibration,
        method=method,
        confidence_level=confidence_level,
        rng=rng,
        max_condition=max_condition,
        stacklevel=3,
        **options,
    )
    matrix, p = calibration.matrix, test.p_hat
    if calibration.square:
        raw = np.linalg.solve(matrix, p)
    else:  # no inverse: the joint maximum-likelihood estimate, on the simplex by construction
        raw = alphabet_mle(test.counts, calibration.counts)[0]
    outside = bool((raw < -_SIMPLEX_TOL).any())
    if bounds.estimate is not None:  # the method's own point estimate (e.g. posterior mean)
        est = np.asarray(bounds.estimate, dtype=float)
    elif outside:
        est = _simplex_ml(p, matrix)
    else:
        est = np.clip(raw, 0.0, 1.0)
        est = est / est.sum()
    if outside:
        shown = ", ".join(
            f"{lab!r}: {v:.4g}" for lab, v in zip(calibration.labels, raw, strict=True)
        )
        warnings.warn(
            f"the corrected distribution Ĉ⁻¹p̂ = {{{shown}}} lies outside the probability "
            "simplex; the estimate reported is the constrained maximum-likelihood fit on the "
            "simplex (estimate_unconstrained keeps Ĉ⁻¹p̂)",
            ProjectedEstimateWarning,
            stacklevel=2,
        )
    cov = None if bounds.covariance is None else np.array(bounds.covariance, dtype=float)
    if cov is not None:
        cov.setflags(write=False)
    labels = calibration.labels
    return DistributionCorrection(
        labels=labels,
        estimate={lab: float(v) for lab, v in zip(labels, est, strict=True)},
        ci=cis,
        estimate_unconstrained={lab: float(v) for lab, v in zip(labels, raw, strict=True)},
        projected=outside,
        method=method,
        confidence_level=cis[labels[0]].confidence_level,
        test=test,
        calibration=calibration,
        condition_number=calibration.condition_number,
        max_condition=max_condition,
        covariance=cov,
    )


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True, eq=False)
class DistributionCorrection(Tabular, Recomputable):
    """A corrected k-category distribution with per-category intervals.

    Returned by :func:`judgestats.multiclass.correct_distribution` (paper appendix "Extension
    to Evaluations with More Than Two Categories": θ̂ = Ĉ⁻¹p̂).

    Attributes
    ----------
    labels : tuple
        The k categories, in order; every dict below is keyed by them in this order.
    estimate : dict
        Corrected probability of each category. On the simplex: Ĉ⁻¹p̂ when that is a
        distribution, else its constrained maximum-likelihood fit (``projected`` is True).
    ci : dict of ConfidenceInterval
        Per-category (marginal) interval from ``method`` at ``confidence_level``, truncated
        to [0, 1]; ``low, high = res.ci[label]`` unpacks one.
    estimate_unconstrained : dict
        Ĉ⁻¹p̂ itself (sums to one; may have negative entries).
    projected : bool
        True when Ĉ⁻¹p̂ left the simplex (a ``ProjectedEstimateWarning`` was issued).
    method, confidence_level
        How ``ci`` was computed.
    test : CategoryCounts
        Judged test counts per category.
    calibration : ConfusionMatrix
        Judge-by-human calibration counts (rows = judge label, columns = human label).
    condition_number : float
        2-norm condition number of Ĉ; ``max_condition`` is the threshold it passed.
    covariance : ndarray or None
        k × k covariance of the estimate used by the method (for ``"adjusted-delta"``, the
        delta-method covariance at the adjusted values; for ``"bootstrap"``, that of the
        replicates); lets one build intervals for contrasts such as win − lose.
    clusters : CategoryClusterSummary or None
        With repeated items: the estimand, items, each component's (p̂, the columns of Ĉ)
        design effect and effective size, and each category's t degrees of freedom
        (:class:`judgestats.multiclass.clustered.CategoryClusterSummary`); None otherwise.
    unseen_share : float
        Test share of judge letters that no calibration item has (0 when every letter was
        seen): their items' rates are unknown in [0, 1], so each interval is the seen letters'
        one widened to [(1 − s)·low, (1 − s)·high + s] and the estimate is the seen letters'.
    """

    kind: ClassVar[str] = "distribution"

    labels: tuple
    estimate: dict
    ci: dict
    estimate_unconstrained: dict
    projected: bool
    method: str
    confidence_level: float
    test: Any
    calibration: Any
    condition_number: float
    max_condition: float
    covariance: Any = None
    design: str = DEFAULT_DESIGN
    design_check: Any = None
    #: test share of the judge letters without calibration items (their rates unknown in
    #: [0, 1]; every interval is widened by up to this share)
    unseen_share: float = 0.0
    #: with repeated items (counts built with ``cluster=``): what the clusters did
    clusters: Any = None

    # -- derived fields ------------------------------------------------------------------
    @property
    def k(self) -> int:
        """Number of categories."""
        return len(self.labels)

    def _by_letter(self, values: Any) -> dict:
        """Per human category, the value of the judge letter with the same label (else NaN)."""
        letters = self.calibration.judge_labels
        vals = list(values)
        return {
            lab: float(vals[letters.index(lab)]) if lab in letters else float("nan")
            for lab in self.labels
        }

    @property
    def naive(self) -> dict:
        """p̂: the judged category distribution, uncorrected.

        With a judge alphabet of its own, the share of the judge letter that carries the
        category's label (NaN for a category no letter is named after, e.g. scores 1–5
        against pass/fail).
        """
        return self._by_letter(self.test.p_hat.tolist())

    @property
    def confusion_matrix(self) -> Any:
        """Ĉ[a, b] = P̂(judge = a | human = b), k × k ndarray (rows = judge, columns = human)."""
        return self.calibration.matrix

    @property
    def judge_recall(self) -> dict:
        """Ĉ[b, b]: how often the judge gives true category b its own label.

        NaN for a true class without calibration items (possible under the random and
        by-judge-label designs, whose estimate does not need it).
        """
        cal = self.calibration
        out = {}
        for b, lab in enumerate(self.labels):
            a = cal.judge_labels.index(lab) if lab in cal.judge_labels else -1
            m_b = int(cal.human_counts[b])
            out[lab] = cal.counts[a, b] / m_b if a >= 0 and m_b > 0 else float("nan")
        return out

    @property
    def human_counts(self) -> dict:
        """Calibration items per true (human) category, m_b."""
        return dict(zip(self.labels, self.calibration.human_counts.tolist(), strict=True))

    n = forward("test.n", "Test-set size.")
    m = forward("calibration.m", "Calibration-set size.")

    # -- recomputation -------------------------------------------------------------------
    default_method = "adjusted-delta"

    def _recompute(self, method: str, level: float, rng: Any, options: dict) -> Any:
        if self.clusters is not None:
            return _clustered_distribution(
                self.test, self.calibration, method, level, self.max_condition, None,
                self.clusters.estimand, options, rng, self.design,
            ).ci  # fmt: skip
        if self.design != DEFAULT_DESIGN:
            return _design_distribution(self.test, self.calibration, method, level, self.design,
                                        options).ci  # fmt: skip
        if self.unseen_share:  # letters without calibration items: widen the seen ones' interval
            return correct_distribution(
                self.test, self.calibration, method=method, confidence_level=level, rng=rng,
                max_condition=self.max_condition, **options,
            ).ci  # fmt: skip
        max_condition = _check_pair(self.test, self.calibration, self.max_condition)
        return _interval_set(
            self.test, self.calibration, method=method, confidence_level=level, rng=rng,
            max_condition=max_condition, stacklevel=4, **options,
        )[0]  # fmt: skip

    # -- presentation --------------------------------------------------------------------
    def _rows(self) -> list[dict[str, Any]]:
        naive, recall, m_b = self.naive, self.judge_recall, self.human_counts
        judged = self._by_letter(self.test.counts.tolist())
        return [
            {
                "category": lab,
                "estimate": self.estimate[lab],
                "ci_low": self.ci[lab].low,
                "ci_high": self.ci[lab].high,
                "naive": naive[lab],
                "estimate_unconstrained": self.estimate_unconstrained[lab],
                "judge_recall": recall[lab],
                "test_judged": judged[lab],
                "calibration_human": m_b[lab],
                "method": self.method,
                "confidence_level": self.confidence_level,
                "n": self.n,
                "m": self.m,
                "projected": self.projected,
                "condition_number": self.condition_number,
                "design": self.design,
                **({} if self.clusters is None else {
                    "estimand": self.clusters.estimand,
                    "t_df": self.clusters.df[i],
                    "design_effect_p": self.clusters.design_effect[0],
                    "design_effect_column": self.clusters.design_effect[i + 1],
                }),  # repeated items: what the clusters did to this category's interval
            }
            for i, lab in enumerate(self.labels)
        ]

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict (JSON-serialisable): the per-category rows and the matrix."""
        return {
            "labels": list(self.labels),
            "rows": self._rows(),
            "confusion_counts": self.calibration.counts.tolist(),
            "judge_labels": list(self.calibration.judge_labels),
            "method": self.method,
            "confidence_level": self.confidence_level,
            "projected": self.projected,
            "condition_number": self.condition_number,
            "design": self.design,
        }

    def _records(self) -> list[dict[str, Any]]:
        return self._rows()

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset in ArviZ's interval layout.

        Variables ``estimate``, ``estimate_unconstrained``, ``naive``, ``judge_recall`` (dim
        ``category``), ``ci`` (dims ``category``, ``ci_bound = ["lower", "upper"]``) and
        ``confusion_matrix`` (dims ``judge_label``, ``human_label``; by-human-label design),
        ``calibration_counts`` (same dims; every design); attrs ``design``, ``ci_kind`` (the
        method), ``ci_prob`` (the level), ``projected``, ``condition_number``, ``n``, ``m``.
        """
        require_extra("xarray", "to_xarray()")
        import xarray as xr

        labs = list(self.labels)
        ds = xr.Dataset(
            {
                "estimate": ("category", [self.estimate[v] for v in labs]),
                "estimate_unconstrained": (
                    "category",
                    [self.estimate_unconstrained[v] for v in labs],
                ),
                "naive": ("category", list(self.naive.values())),
                "judge_recall": ("category", list(self.judge_recall.values())),
                "ci": (
                    ("category", "ci_bound"),
                    [[self.ci[v].low, self.ci[v].high] for v in labs],
                ),
                "calibration_counts": (("judge_label", "human_label"), self.calibration.counts),
                **({} if self.design != DEFAULT_DESIGN else {
                    "confusion_matrix": (("judge_label", "human_label"), self.confusion_matrix)
                }),  # Ĉ needs every true class, which the other designs do not
            },
            coords={
                "category": labs,
                "ci_bound": ["lower", "upper"],
                "judge_label": list(self.calibration.judge_labels),
                "human_label": labs,
            },
        )
        ds.attrs.update(
            ci_kind=self.method,
            ci_prob=self.confidence_level,
            design=self.design,
            projected=int(self.projected),
            condition_number=self.condition_number,
            n=self.n,
            m=self.m,
        )
        return ds

    def summary(self) -> str:
        """Return a short human-readable report (one line per category)."""
        lvl = f"{100 * self.confidence_level:g}%"
        width = max(8, *(len(str(v)) for v in self.labels))
        naive, recall, m_b = self.naive, self.judge_recall, self.human_counts
        how = "Ĉ⁻¹p̂" if self.design == DEFAULT_DESIGN else (
            f"judge-conditional, design {self.design}"
        )
        if not self.calibration.square:
            fit = "joint maximum likelihood" if self.design == DEFAULT_DESIGN else how
            how = f"judge alphabet of J = {self.calibration.j} letters, {fit}"
        lines = [
            f"Corrected distribution over k = {self.k} categories ({how}), {lvl} intervals "
            f"by {self.method}",
            f"  {'category':<{width}}  corrected  [ lower,  upper]   naive  judge recall (m_b)",
        ]
        for v in self.labels:
            ci = self.ci[v]
            nv = "     –" if np.isnan(naive[v]) else f"{naive[v]:.4f}"
            rc = "    –" if np.isnan(recall[v]) else f"{recall[v]:.3f}"
            lines.append(
                f"  {v!s:<{width}}  {self.estimate[v]:9.4f}  [{ci.low:.4f}, {ci.high:.4f}]"
                f"  {nv}  {rc} ({m_b[v]})"
            )
        unit = "items" if self.clusters is None else "rows"
        lines.append(
            f"  test {unit} n = {self.n}; calibration {unit} m = {self.m}"
            + ("" if self.design != DEFAULT_DESIGN else
               f"; condition number of Ĉ ({self.calibration.j} × {self.k}) = "
               f"{self.condition_number:.3g}")
        )  # fmt: skip
        if self.projected:
            raw = ", ".join(f"{v!s} {self.estimate_unconstrained[v]:.4f}" for v in self.labels)
            lines.append(
                f"  note: Ĉ⁻¹p̂ = ({raw}) lies outside the simplex; the estimate is its "
                "constrained maximum-likelihood fit"
            )
        if self.clusters is not None:
            lines += self.clusters.lines()
        first = self.ci[self.labels[0]]
        lines += note_lines(
            first.undefined_note(),
            self.unseen_share > 0 and f"{self.unseen_share:.1%} of the test items have judge "
            "letters no calibration item has: intervals widened by up to that share",
        )  # fmt: skip
        return "\n".join(lines)

    def _estimates_text(self) -> str:
        return ", ".join(
            f"{v!r}: {self.estimate[v]:.4f} [{self.ci[v].low:.4f}, {self.ci[v].high:.4f}]"
            for v in self.labels
        )

    def __repr__(self) -> str:
        est = self._estimates_text()
        return (
            f"DistributionCorrection({{{est}}}, method={self.method!r}, "
            f"confidence_level={self.confidence_level:g}, n={self.n}, m={self.m}"
            + (", projected=True" if self.projected else "")
            + ")"
        )
