"""``correct_stratified()`` and its :class:`StratifiedCorrection`.

One Rogan–Gladen correction per stratum (paper eq. (7)), pooled by the stratum mix
with an interval from :mod:`.pooled`; under the random and by-judge-label designs the
judge-conditional estimator per stratum instead.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .._validation import (
    ClippedEstimateWarning,
    JudgeStatsError,
    NotInformativeError,
    SamplingWarning,
    check_choice,
    check_positive_int,
    check_rng,
    check_sparse_strata,
    check_strata_mapping,
    check_weights,
    require_extra,
)
from ..correct import Correction, correct_spec
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import DEFAULT_DESIGN, as_design, stratified_bounds
from ..intervals import CONDITIONAL, PAPER
from ..repeated import ClusterSummary, is_clustered
from ..results import (
    ConfidenceInterval,
    Recomputable,
    Reportable,
    Tabular,
    effective_labels,
    note_lines,
    rate_repr,
    stratum_coord,
    width_variance,
)
from ..spec import EstimationSpec

if TYPE_CHECKING:  # pragma: no cover
    import xarray as xr
from .clustered import (
    check_nested,
    clustered_corrections,
    clustered_diagnostics,
    clustered_pool,
    clustered_pool_bootstrap,
    mix_weights,
    pool_arms,
)
from .corrections import _corrections, _stack
from .diagnostics import StrataDiagnostics, _diagnostics
from .merge import _merged_strata, class_sizes
from .pooled import pooled_spec, spec_pooled_bounds, stratum_spec

__all__ = [
    "DEFAULT_MIN_PER_CLASS",
    "correct_stratified",
    "stratified_correction",
]


#: Default minimum number of calibration items of each human class in every stratum. Below
#: about ten, a stratum's q̂0 or q̂1 rests on a handful of items, the per-stratum delta method
#: is unreliable and q̂0 + q̂1 <= 1 becomes likely; pass a smaller value explicitly (or merge).
DEFAULT_MIN_PER_CLASS = 10


# ============================================================================ public entry
def _pooled_ci(spec, test_b, cal_b, weights, gen, stacklevel):
    """Pooled interval and unclipped estimate of the Rogan–Gladen family (no repeated items)."""
    bounds = spec_pooled_bounds(spec, test_b, cal_b, weights=weights, rng=gen)
    if np.isnan(bounds.low) or np.isnan(bounds.high):
        raise NotInformativeError(
            f"the pooled {spec.method!r} interval is undefined: a stratum's judge is no better "
            "than chance after the method's adjustment; merge that stratum into another"
        )
    if bounds.n_resamples and int(bounds.undefined):
        warnings.warn(
            f"{int(bounds.undefined)} of {bounds.n_resamples} stratified bootstrap replicates "
            "were undefined (a stratum's resampled q0* + q1* <= 1) and are excluded from the "
            "percentiles; the interval conditions on an informative judge in every stratum",
            SamplingWarning,
            stacklevel=stacklevel + 1,
        )
    ci = ConfidenceInterval.from_bounds(bounds, spec.method, spec.confidence_level)
    return ci, float(bounds.estimate)


def _stratum_weights(weights, tests, strata, merged, pre):
    """(weights per stratum, fixed weight array or None for the test mix)."""
    if isinstance(weights, str):
        n_total = sum(tests[s].n for s in strata)
        return {s: tests[s].n / n_total for s in strata}, None
    keys = set(dict(weights.items())) if hasattr(weights, "items") else None
    if merged and keys == set(pre):
        given = check_weights("weights", weights, pre)
        w = dict.fromkeys(strata, 0.0)
        for key, value in given.items():
            w[merged.get(key, key)] += value
    else:
        w = check_weights("weights", weights, strata)
    return w, np.array([w[s] for s in strata])


def _conditional_pool(spec, tests, cals, strata, fixed):
    """(interval, estimate, weights) of the judge-conditional pool over strata.

    :func:`judgestats.designs.stratified_bounds`; the test mix is that of the judged items
    behind π̂ (:meth:`judgestats.designs.JudgeConditionalDesign.binomials`).
    """
    test_b, cal_b = _stack(tests, cals, strata)
    level = spec.confidence_level
    est, low, high = stratified_bounds(test_b, cal_b, fixed, spec.design, level,
                                       adjusted=spec.method == "adjusted-wald")  # fmt: skip
    n_pi = spec.design.binomials(test_b, cal_b)[1]
    w = n_pi / n_pi.sum() if fixed is None else fixed
    return ConfidenceInterval(low, high, spec.method, level), est, w


def _conditional_stratified(spec, tests, cals, *, weights, min_per_class, merge, gen,
                            stacklevel) -> StratifiedCorrection:  # fmt: skip
    """:func:`correct_stratified` of the judge-conditional family (random, by-judge-label)."""
    if merge == "auto":
        raise JudgeStatsError(
            f"merge='auto' merges strata by human-class size, which {spec.design.words} does "
            "not need; pass a mapping stratum -> stratum"
        )
    tests, cals, merged, pre = _merged_strata(tests, cals, merge, 1)
    strata = list(tests)
    each = stratum_spec(spec)
    corrections = {}
    for s in strata:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            corrections[s] = correct_spec(each, tests[s], cals[s])
        for w_ in caught:
            warnings.warn(f"stratum {s!r}: {w_.message}", w_.category, stacklevel=stacklevel + 1)
    fixed = None if isinstance(weights, str) else _stratum_weights(weights, tests, strata,
                                                                   merged, pre)[1]  # fmt: skip
    ci, est, w = _conditional_pool(spec, tests, cals, strata, fixed)
    return StratifiedCorrection(
        strata=tuple(strata), corrections=corrections, estimate=est, ci=ci,
        estimate_unclipped=est, clipped=False,
        weights={s: float(v) for s, v in zip(strata, w, strict=True)},
        weights_source="test" if fixed is None else "given", method=spec.method,
        confidence_level=spec.confidence_level, merged=merged, diagnostics=None,
        min_per_class=None, design=spec.design,
    )  # fmt: skip


def _clustered_stratified(spec, tests, cals, strata, fixed, *, merged, min_per_class, gen,
                          stacklevel) -> StratifiedCorrection:  # fmt: skip
    """:func:`correct_stratified` of repeated items (:mod:`judgestats.strata.clustered`)."""
    ci, raw, deff, summaries = _clustered_ci(spec, tests, cals, strata, fixed, gen,
                                             stacklevel + 1)  # fmt: skip
    corrections = clustered_corrections(spec, tests, cals, strata, stacklevel=stacklevel + 1,
                                        gen=gen)  # fmt: skip
    w = mix_weights(tests, strata, spec.estimand)[0] if fixed is None else fixed
    if raw < 0 or raw > 1:
        warnings.warn(
            f"the pooled estimate Σ w_s θ̂_s = {raw:.4g} lies outside [0, 1] and was clipped",
            ClippedEstimateWarning,
            stacklevel=stacklevel + 1,
        )
    diagnostics = clustered_diagnostics(spec, tests, cals, strata, summaries, gen=gen)
    return StratifiedCorrection(
        strata=tuple(strata), corrections=corrections, estimate=float(np.clip(raw, 0.0, 1.0)),
        ci=ci, estimate_unclipped=raw, clipped=bool(raw < 0 or raw > 1),
        weights={s: float(v) for s, v in zip(strata, w, strict=True)},
        weights_source="test" if fixed is None else "given", method=spec.method,
        confidence_level=spec.confidence_level, merged=merged, diagnostics=diagnostics,
        min_per_class=min_per_class, design=spec.design, estimand=spec.estimand,
        clusters=summaries, design_effect=deff,
    )  # fmt: skip


def _clustered_ci(spec, tests, cals, strata, fixed, gen=None, stacklevel=3):
    """Pool clustered strata: interval, unclipped estimate, design effect, summaries.

    The summaries are each stratum's :class:`~judgestats.repeated.ClusterSummary`.
    """
    method, level = spec.method, spec.confidence_level
    w, mix = mix_weights(tests, strata, spec.estimand)
    if fixed is not None:
        w, mix = np.asarray(fixed, dtype=float), None
    arms = pool_arms(tests, cals, strata, spec.estimand)
    closed = "wald" if method == "bootstrap" else method
    raw, low, high, deff = clustered_pool(arms, w, mix, method=closed, level=level)
    extra: dict[str, Any] = {}
    if method == "bootstrap":
        reps = check_positive_int("n_resamples", spec.options.get("n_resamples", 9999),
                                  minimum=2)  # fmt: skip
        low, high, undefined = clustered_pool_bootstrap(spec, tests, cals, strata, fixed,
                                                        reps=reps, gen=check_rng(gen))  # fmt: skip
        extra = {"undefined": undefined, "n_resamples": reps}
        if undefined:
            warnings.warn(
                f"{undefined} of {reps} stratified bootstrap replicates were undefined (a "
                "stratum's resampled q0* + q1* <= 1) and are excluded from the percentiles",
                SamplingWarning, stacklevel=stacklevel + 1,
            )  # fmt: skip
    if np.isnan(low) or np.isnan(high):
        raise NotInformativeError(
            f"the pooled {method!r} interval is undefined: a stratum's judge is no better than "
            "chance after the method's adjustment; merge that stratum into another"
        )
    summaries = dict(zip(strata, arms.summaries, strict=True))
    return ConfidenceInterval(low, high, method, level, **extra), raw, deff, summaries


def _rogan_gladen_stratified(spec, tests, cals, *, weights, min_per_class, merge, gen,
                             stacklevel) -> StratifiedCorrection:  # fmt: skip
    """:func:`correct_stratified` of the Rogan–Gladen family (the by-human-label design)."""
    min_per_class = check_positive_int("min_per_class", min_per_class, minimum=1)
    if spec.repeated:
        check_nested(tests, cals)
    tests, cals, merged, pre = _merged_strata(tests, cals, merge, min_per_class)
    strata = list(tests)
    check_sparse_strata({s: class_sizes(cals[s]) for s in strata}, min_per_class)
    w, fixed = _stratum_weights(weights, tests, strata, merged, pre)
    if spec.repeated:
        return _clustered_stratified(spec, tests, cals, strata, fixed, merged=merged,
                                     min_per_class=min_per_class, gen=gen,
                                     stacklevel=stacklevel + 1)  # fmt: skip
    corrections = _corrections(tests, cals, strata, spec=spec, gen=gen,
                               warn_stacklevel=stacklevel + 1)  # fmt: skip
    test_b, cal_b = _stack(tests, cals, strata)
    ci, raw = _pooled_ci(spec, test_b, cal_b, fixed, gen, stacklevel + 1)
    if raw < 0 or raw > 1:
        warnings.warn(
            f"the pooled estimate Σ w_s θ̂_s = {raw:.4g} lies outside [0, 1] and was clipped",
            ClippedEstimateWarning,
            stacklevel=stacklevel + 1,
        )
    return StratifiedCorrection(
        strata=tuple(strata), corrections=corrections, estimate=float(np.clip(raw, 0.0, 1.0)),
        ci=ci, estimate_unclipped=raw, clipped=bool(raw < 0 or raw > 1), weights=w,
        weights_source="test" if fixed is None else "given", method=spec.method,
        confidence_level=spec.confidence_level, merged=merged,
        diagnostics=_diagnostics(tests, cals, strata, spec=spec, gen=gen),
        min_per_class=min_per_class, design=spec.design,
    )  # fmt: skip


#: :func:`correct_stratified` per estimator family (:attr:`judgestats.designs.Design.family`).
_STRATIFIED = {PAPER: _rogan_gladen_stratified, CONDITIONAL: _conditional_stratified}


def stratified_correction(
    spec: EstimationSpec, tests: dict, cals: dict, *, weights: Any = "test",
    min_per_class: int = DEFAULT_MIN_PER_CLASS, merge: Any = None, rng: Any = None,
    stacklevel: int = 2,
) -> StratifiedCorrection:  # fmt: skip
    """:func:`correct_stratified` of validated strata under a resolved pooled spec.

    ``spec`` comes from :func:`judgestats.strata.pooled.pooled_spec`; ``tests`` and ``cals``
    are plain dicts stratum → counts of one data set each. :func:`judgestats.evaluate` calls it
    for every stratified group.
    """
    if isinstance(weights, str):
        check_choice("weights", weights, ("test",))
    return _STRATIFIED[spec.design.family](
        spec, tests, cals, weights=weights, min_per_class=min_per_class, merge=merge,
        gen=check_rng(rng), stacklevel=stacklevel + 1,
    )  # fmt: skip


def correct_stratified(
    tests: Any,
    calibrations: Any,
    *,
    method: str = "adjusted-wald",
    confidence_level: float = 0.95,
    weights: Any = "test",
    min_per_class: int = DEFAULT_MIN_PER_CLASS,
    merge: Any = None,
    rng: Any = None,
    design: str = DEFAULT_DESIGN,
    estimand: str = "rows",
    **options: Any,
) -> StratifiedCorrection:
    """Correct a judged rate stratum by stratum and pool the corrections by a stratum mix.

    Estimates one confusion matrix per stratum of a covariate ξ, applies the Rogan–Gladen
    correction (paper eq. (7)) within each, and aggregates: θ̂ = Σ_s w_s θ̂_s
    (paper, "Limitations and Future Work", item 2). Use it when the judge's behaviour may
    depend on ξ and the calibration set's mix of ξ differs from the test set's. Formulas of
    the pooled intervals: module docstring of :mod:`judgestats.strata`.

    Parameters
    ----------
    tests : mapping stratum → JudgedCounts
        Judged test counts per stratum (every stratum with n_s >= 1).
    calibrations : mapping stratum → ConfusionCounts
        Human-vs-judge calibration counts per stratum; the same strata as ``tests``.
        :func:`stratified_counts` builds both mappings from a labelled data frame.
    method : {"adjusted-wald", "wald", "bootstrap"}, default "adjusted-wald"
        Interval for the pooled θ (and for each stratum's ``Correction``): the delta method
        over strata at the paper's adjusted quantities (eq. (8)), the plain delta method
        (eq. (15)), or a stratified parametric bootstrap.
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    weights : "test" or mapping stratum → float, default "test"
        ``"test"``: w_s = n_s / n, the test set's own mix (its sampling variance enters the
        interval). A mapping gives fixed weights, e.g. a target population's mix: every
        stratum, each >= 0, summing to 1 (keys may name strata before or after merging).
    min_per_class : int, default 10
        Every stratum needs at least this many calibration items of each human class
        (m0_s and m1_s); otherwise :class:`SparseStratumError` is raised (or the stratum is
        merged, see ``merge``). Never dropped silently.
    merge : None, "auto" or mapping stratum → stratum
        Merge strata before correcting (their test and calibration counts are added). A
        mapping merges the named strata into others (new labels allowed; chains resolve;
        keys naming no stratum are ignored, so one mapping can serve many data sets);
        ``"auto"`` merges every stratum below ``min_per_class`` into the stratum with the
        most calibration items. For an ordered covariate, an explicit mapping to a neighbour
        is usually better. Merges are recorded in ``result.merged``.
    rng : None, int, SeedSequence or Generator
        Randomness for ``"bootstrap"``.
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How the calibration items were chosen (:mod:`judgestats.designs`). Under ``"random"``
        and ``"by-judge-label"`` each stratum gets the judge-conditional estimate and the pool
        :func:`judgestats.designs.stratified_bounds` (``"adjusted-wald"`` or ``"wald"``); the
        test mix comes from the judged items (test and calibration under ``"random"``), no
        class-size minimum applies (``merge`` takes a mapping) and there are no judge
        homogeneity diagnostics.
    estimand : {"rows", "items"}, default "rows"
        With repeated items (counts built with ``cluster=``, an item judged several times):
        the rate over rows or over items (:func:`judgestats.correct`). Each stratum's variance
        is then the cluster-robust one of :mod:`judgestats.repeated` (the sandwich over its
        items, at the effective sizes of the paper's eq. (8)), pooled as in
        :mod:`judgestats.strata.clustered`; ``weights="test"`` is the stratum's share of test
        rows (``"rows"``) or of test items (``"items"``). Items must be nested in strata, and
        ``min_per_class`` then counts items. ``"adjusted-wald"``, ``"wald"`` and
        ``"bootstrap"`` (whole items resampled: calibration items within stratum and human
        class, test items across strata for the test mix, within stratum for given weights),
        under ``design="by-human-label"``. ``result.clusters`` and ``result.design_effect`` say
        what the repeats did. Without clusters every row is an item and the two agree.
    **options
        ``n_resamples`` for ``"bootstrap"`` (default 9999).

    Returns
    -------
    StratifiedCorrection
        Per-stratum corrections, the pooled estimate and interval, the weights and
        diagnostics (per-stratum q̂0, q̂1 Wilson intervals, likelihood-ratio tests of equal
        judge behaviour across strata, and the unstratified correction beside the
        stratified one).

    Raises
    ------
    StrataMismatchError
        If a stratum is in ``tests`` but not in ``calibrations`` or vice versa (after
        merging), ``weights`` does not cover exactly the strata, or an item id (``cluster=``)
        has rows in two strata.
    ClusteredCountsError
        With repeated items and another ``design``.
    SparseStratumError
        If a stratum has fewer than ``min_per_class`` calibration items of a class.
    WeightsError
        If weights are negative, NaN or do not sum to 1.
    NotInformativeError
        If the judge is no better than chance within a stratum (q̂0_s + q̂1_s <= 1).
    ArgumentTypeError, MethodError, ConfidenceLevelError
        On wrong types, an unknown method or a bad level.

    Warns
    -----
    ClippedEstimateWarning
        When a stratum's θ̂_s lies outside [0, 1] (its ``Correction`` is clipped; the pooled
        estimate uses the unclipped value) or the pooled value does.
    SamplingWarning
        When bootstrap replicates were undefined.

    See Also
    --------
    correct : One unstratified correction.
    strata.judge_homogeneity : Whether the judge's error rates differ across strata.
    plan.allocate : How to share the human labels among the strata.
    bayes.fit_stratified : The Bayesian stratified model.

    Examples
    --------
    >>> import judgestats as js
    >>> from judgestats.strata import correct_stratified
    >>> tests = {"short": js.JudgedCounts(positive=180, n=300),
    ...          "long": js.JudgedCounts(positive=560, n=700)}
    >>> cals = {"short": js.ConfusionCounts(tp=126, fn=14, tn=55, fp=15),
    ...         "long": js.ConfusionCounts(tp=57, fn=3, tn=18, fp=12)}
    >>> res = correct_stratified(tests, cals)
    >>> round(res.estimate, 4), round(res.unstratified.estimate, 4)
    (0.6778, 0.7287)
    """
    tests = check_strata_mapping("tests", tests, JudgedCounts)
    cals = check_strata_mapping("calibrations", calibrations, ConfusionCounts)
    spec = pooled_spec(method=method, confidence_level=confidence_level, design=design,
                       repeated=is_clustered(*tests.values(), *cals.values()),
                       estimand=estimand, options=options)  # fmt: skip
    return stratified_correction(spec, tests, cals, weights=weights, min_per_class=min_per_class,
                                 merge=merge, rng=rng, stacklevel=2)  # fmt: skip


def _rogan_gladen_ci(spec, tests, cals, strata, fixed, gen):
    if spec.repeated:
        return _clustered_ci(spec, tests, cals, strata, fixed, gen, stacklevel=4)[0]
    test_b, cal_b = _stack(tests, cals, strata)
    return _pooled_ci(spec, test_b, cal_b, fixed, gen, stacklevel=4)[0]


def _conditional_ci(spec, tests, cals, strata, fixed, gen):
    return _conditional_pool(spec, tests, cals, strata, fixed)[0]


#: The pooled interval per estimator family, for :meth:`StratifiedCorrection.confidence_interval`.
_POOLED_CI = {PAPER: _rogan_gladen_ci, CONDITIONAL: _conditional_ci}


def pooled_interval_for(
    result: StratifiedCorrection,
    *,
    method: str,
    confidence_level: float,
    rng: Any = None,
    **options: Any,
) -> ConfidenceInterval:
    """Recompute the pooled interval of a :class:`StratifiedCorrection` by another method."""
    spec = pooled_spec(method=method, confidence_level=confidence_level, design=result.design,
                       repeated=result.clusters is not None, estimand=result.estimand,
                       options=options)  # fmt: skip
    strata = list(result.strata)
    tests = {s: result.corrections[s].test for s in strata}
    cals = {s: result.corrections[s].calibration for s in strata}
    fixed = None if result.weights_source == "test" else [result.weights[s] for s in strata]
    return _POOLED_CI[spec.design.family](spec, tests, cals, strata, fixed, check_rng(rng))


@dataclass(frozen=True, slots=True, eq=False)
class StratifiedCorrection(Tabular, Reportable, Recomputable):
    """A corrected rate pooled over strata of a covariate ξ, with per-stratum corrections.

    Returned by :func:`judgestats.strata.correct_stratified` (the paper's "Limitations and
    Future Work", item 2: one confusion matrix per stratum, bias adjustment within each, then
    aggregation by the test mix). The pooled rate is θ̂ = Σ_s w_s θ̂_s with the unclipped
    per-stratum Rogan–Gladen estimates θ̂_s, clipped to [0, 1] at the end. A Bayesian fit can
    return the same shape (per-stratum results with the ``Correction`` fields, pooled
    estimate, interval and weights; ``diagnostics`` may then be None).

    Attributes
    ----------
    strata : tuple
        Stratum labels in order (after merging); every dict below is keyed by them.
    corrections : dict of Correction
        Per-stratum correction (estimate clipped to [0, 1], interval by ``method``).
    estimate : float
        Pooled θ̂ in [0, 1].
    ci : ConfidenceInterval
        Interval for the pooled θ by ``method`` at ``confidence_level``.
    estimate_unclipped : float
        Σ_s w_s θ̂_s before the final clip; differs from ``estimate`` exactly when
        ``clipped`` is True.
    clipped : bool
        True when the pooled value fell outside [0, 1].
    weights : dict
        w_s (summing to 1).
    weights_source : {"test", "given"}
        ``"test"``: w_s = n_s / n, the test set's own stratum mix (a random quantity; its
        sampling variance is in the interval); ``"given"``: fixed weights such as a target
        population's mix.
    method, confidence_level
        How ``ci`` (and each stratum's interval) was computed.
    merged : dict
        Original stratum → the stratum it was merged into (empty if none).
    diagnostics : StrataDiagnostics or None
        Per-stratum q̂0, q̂1 intervals, tests of equal judge behaviour and the unstratified
        estimate.
    min_per_class : int or None
        Minimum calibration items per human class that every stratum had to reach.
    estimand : {"rows", "items"}
        With repeated items, the rate over rows or over items (``"rows"`` otherwise).
    clusters : dict of ClusterSummary or None
        With repeated items: each stratum's items, design effects and effective sizes
        (:class:`judgestats.repeated.ClusterSummary`); None without.
    design_effect : float or None
        With repeated items: Var(θ̂) of the pool with the clusters over Var(θ̂) with every row
        an independent item (plain delta method, test-mix term included).

    Examples
    --------
    Made by :func:`judgestats.correct_stratified`; a judge that is laxer on long answers:

    >>> import judgestats as js
    >>> tests = {"short": js.JudgedCounts(positive=600, n=1000),
    ...          "long": js.JudgedCounts(positive=800, n=1000)}
    >>> cals = {"short": js.ConfusionCounts(tp=180, fn=20, tn=160, fp=40),
    ...         "long": js.ConfusionCounts(tp=190, fn=10, tn=120, fp=80)}
    >>> res = js.correct_stratified(tests, cals, method="adjusted-wald", confidence_level=0.95)
    >>> round(res.estimate, 4), res.ci  # doctest: +NORMALIZE_WHITESPACE
    (0.6494, ConfidenceInterval(low=0.602842, high=0.699249, method='adjusted-wald',
    confidence_level=0.95))
    >>> {stratum: round(c.estimate, 4) for stratum, c in res.corrections.items()}
    {'short': 0.5714, 'long': 0.7273}
    """

    kind: ClassVar[str] = "stratified"

    strata: tuple
    corrections: dict
    estimate: float
    ci: ConfidenceInterval
    estimate_unclipped: float
    clipped: bool
    weights: dict
    weights_source: str
    method: str
    confidence_level: float
    merged: dict
    diagnostics: StrataDiagnostics | None = None
    min_per_class: int | None = None
    design: str = DEFAULT_DESIGN
    estimand: str = "rows"
    clusters: dict[Any, ClusterSummary] | None = None
    design_effect: float | None = None

    # -- derived fields ------------------------------------------------------------------
    def __getitem__(self, stratum: Any) -> Correction:
        return self.corrections[stratum]

    @property
    def k(self) -> int:
        """Number of strata."""
        return len(self.strata)

    @property
    def naive(self) -> float:
        """Σ_s w_s p̂_s, the uncorrected judged rate under the same weights."""
        return float(sum(self.weights[s] * self.corrections[s].naive for s in self.strata))

    @property
    def n(self) -> int:
        """Test items over all strata."""
        return int(sum(self.corrections[s].n for s in self.strata))

    @property
    def m0(self) -> int:
        """Calibration items with human label 0, over all strata."""
        return int(sum(self.corrections[s].m0 for s in self.strata))

    @property
    def m1(self) -> int:
        """Calibration items with human label 1, over all strata."""
        return int(sum(self.corrections[s].m1 for s in self.strata))

    @property
    def effective_labels(self) -> float | None:
        """θ̂(1 − θ̂)/Var(θ̂) of the pooled rate: the human labels alone worth as much.

        Var(θ̂) is the variance the pooled interval's width implies, ((upper − lower)/(2z))²
        (:func:`judgestats.results.width_variance`: the pooled interval has no single
        variance accessor; with repeated items it is cluster-robust, so the figure counts
        independent items). None where θ̂ is 0 or 1. Each stratum's is
        ``res[stratum].effective_labels``.
        """
        return effective_labels(self.estimate, width_variance(self.ci))

    @property
    def unstratified(self) -> Correction | None:
        """The single-confusion-matrix correction of the pooled counts (from diagnostics)."""
        return None if self.diagnostics is None else self.diagnostics.unstratified

    @property
    def difference(self) -> float | None:
        """Stratified minus unstratified estimate (None without diagnostics)."""
        u = self.unstratified
        return None if u is None else self.estimate - u.estimate

    # -- recomputation -------------------------------------------------------------------
    def _recompute(self, method: str, level: float, rng: Any, options: dict) -> Any:
        return pooled_interval_for(
            self, method=method, confidence_level=level, rng=rng, **options
        )

    # -- presentation --------------------------------------------------------------------
    def _rows(self) -> list[dict[str, Any]]:
        d = self.diagnostics
        rows = []
        for s in self.strata:
            c = self.corrections[s]
            row = {"stratum": s, "kind": "stratum", "weight": self.weights[s]}
            row.update(c.to_dict())
            if d is not None:
                row["specificity_low"], row["specificity_high"] = d.specificity_ci[s]
                row["sensitivity_low"], row["sensitivity_high"] = d.sensitivity_ci[s]
                row["test_share"] = d.test_mix[s]
                row["calibration_share"] = d.calibration_mix[s]
            rows.append(row)
        pooled = {
            "stratum": "pooled",
            "kind": "pooled",
            "weight": 1.0,
            "estimate": self.estimate,
            "ci_low": self.ci.low,
            "ci_high": self.ci.high,
            "method": self.method,
            "confidence_level": self.confidence_level,
            "naive": self.naive,
            "n": self.n,
            "positive": int(sum(self.corrections[s].test.positive for s in self.strata)),
            "m0": self.m0,
            "m1": self.m1,
            **{
                f: int(sum(getattr(self.corrections[s].calibration, f) for s in self.strata))
                for f in ("tp", "fn", "tn", "fp")
            },
            "clipped": self.clipped,
            "estimate_unclipped": self.estimate_unclipped,
        }
        if self.clusters is not None:
            pooled.update(estimand=self.estimand, design_effect_theta=self.design_effect,
                          items=sum(k.items for k in self.clusters.values()))  # fmt: skip
        if d is not None:
            u = d.unstratified
            nan = float("nan")
            pooled.update(
                unstratified_estimate=nan if u is None else u.estimate,
                unstratified_ci_low=nan if u is None else u.ci.low,
                unstratified_ci_high=nan if u is None else u.ci.high,
                specificity_pvalue=d.specificity_test.pvalue,
                sensitivity_pvalue=d.sensitivity_test.pvalue,
                homogeneity_pvalue=d.joint_test.pvalue,
            )
        rows.append(pooled)
        return rows

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict (JSON-serialisable when the stratum labels are)."""

        def plain(v: Any) -> Any:
            return v.item() if hasattr(v, "item") else v

        return {
            "strata": list(self.strata),
            "rows": [{k: plain(v) for k, v in r.items()} for r in self._rows()],
            "weights_source": self.weights_source,
            "method": self.method,
            "confidence_level": self.confidence_level,
            "merged": dict(self.merged),
            "min_per_class": self.min_per_class,
        }

    def _records(self) -> list[dict[str, Any]]:
        return self.to_dict()["rows"]

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset in ArviZ's interval layout.

        Per-stratum variables (dim ``stratum``): ``estimate``, ``estimate_unclipped``,
        ``weight``, ``naive``, ``sensitivity``, ``specificity``, ``n``, ``m0``, ``m1`` and
        ``ci`` (dims ``stratum``, ``ci_bound = ["lower", "upper"]``), plus
        ``sensitivity_ci``/``specificity_ci`` with diagnostics. Pooled scalars
        ``pooled_estimate``, ``pooled_naive`` and ``pooled_ci`` (dim ``ci_bound``), and
        ``unstratified_estimate``/``unstratified_ci`` with diagnostics. Attrs: ``ci_kind``
        (the method), ``ci_prob`` (the level), ``weights_source``, ``clipped`` and the
        homogeneity p-values. Stratum labels that are not all str or all int become strings.
        """
        require_extra("xarray", "to_xarray()")
        import xarray as xr

        ss = self.strata
        cs = [self.corrections[s] for s in ss]
        data: dict[str, Any] = {
            "estimate": ("stratum", [c.estimate for c in cs]),
            "estimate_unclipped": ("stratum", [c.estimate_unclipped for c in cs]),
            "weight": ("stratum", [self.weights[s] for s in ss]),
            "naive": ("stratum", [c.naive for c in cs]),
            "sensitivity": ("stratum", [c.sensitivity for c in cs]),
            "specificity": ("stratum", [c.specificity for c in cs]),
            "n": ("stratum", [c.n for c in cs]),
            "m0": ("stratum", [c.m0 for c in cs]),
            "m1": ("stratum", [c.m1 for c in cs]),
            "ci": (("stratum", "ci_bound"), [[c.ci.low, c.ci.high] for c in cs]),
            "pooled_estimate": self.estimate,
            "pooled_naive": self.naive,
            "pooled_ci": ("ci_bound", [self.ci.low, self.ci.high]),
        }
        attrs: dict[str, Any] = {
            "ci_kind": self.method,
            "ci_prob": self.confidence_level,
            "weights_source": self.weights_source,
            "clipped": int(self.clipped),
        }
        d = self.diagnostics
        if d is not None:
            data["specificity_ci"] = (
                ("stratum", "ci_bound"),
                [list(d.specificity_ci[s]) for s in ss],
            )
            data["sensitivity_ci"] = (
                ("stratum", "ci_bound"),
                [list(d.sensitivity_ci[s]) for s in ss],
            )
            if d.unstratified is not None:
                data["unstratified_estimate"] = d.unstratified.estimate
                data["unstratified_ci"] = ("ci_bound", list(d.unstratified.ci))
            attrs.update(
                specificity_pvalue=d.specificity_test.pvalue,
                sensitivity_pvalue=d.sensitivity_test.pvalue,
                homogeneity_pvalue=d.joint_test.pvalue,
            )
        coords = {"stratum": stratum_coord(ss), "ci_bound": ["lower", "upper"]}
        ds = xr.Dataset(data, coords=coords)
        ds.attrs.update(attrs)
        return ds

    def summary(self) -> str:
        """Return a short human-readable report: one line per stratum, pooled, diagnostics."""
        lvl = f"{100 * self.confidence_level:g}%"
        src = "given" if self.weights_source != "test" else (
            "mix of all judged items" if as_design(self.design).calibration_samples_test
            else "test mix n_s/n"
        )
        width = max(12, *(len(str(s)) for s in self.strata))
        lines = [
            f"Stratified correction over {self.k} {'stratum' if self.k == 1 else 'strata'} "
            f"(weights: {src}), {lvl} intervals by {self.method}",
            f"  {'stratum':<{width}}  weight  corrected  [ lower,  upper]   naive  "
            "sens q̂1 (m1)   spec q̂0 (m0)",
        ]
        for s in self.strata:
            c = self.corrections[s]
            lines.append(
                f"  {s!s:<{width}}  {self.weights[s]:6.3f}  {c.estimate:9.4f}  "
                f"[{c.ci.low:.4f}, {c.ci.high:.4f}]  {c.naive:.4f}  "
                f"{c.sensitivity:.3f} ({c.m1:>4})  {c.specificity:.3f} ({c.m0:>4})"
            )
        lines.append(
            f"  {'pooled':<{width}}          {self.estimate:9.4f}  "
            f"[{self.ci.low:.4f}, {self.ci.high:.4f}]  {self.naive:.4f}"
        )
        lines += self._cluster_lines()
        d = self.diagnostics
        if d is not None:
            u = d.unstratified
            lines.append(
                f"  {'unstratified':<{width}}  (one confusion matrix: judge not informative)"
                if u is None
                else f"  {'unstratified':<{width}}          {u.estimate:9.4f}  "
                f"[{u.ci.low:.4f}, {u.ci.high:.4f}]  {u.naive:.4f}  "
                f"{u.sensitivity:.3f} ({u.m1:>4})  {u.specificity:.3f} ({u.m0:>4})"
            )
        if d is not None and self.k > 1:
            t0, t1, tj = d.specificity_test, d.sensitivity_test, d.joint_test
            lines += [
                "  equal judge behaviour across strata? likelihood-ratio tests:",
                f"    specificity G = {t0.statistic:.3g} (df {t0.df}, p = {t0.pvalue:.3g}); "
                f"sensitivity G = {t1.statistic:.3g} (df {t1.df}, p = {t1.pvalue:.3g}); "
                f"both p = {tj.pvalue:.3g}",
            ]
        if self.merged:
            moves = ", ".join(f"{a!r} -> {b!r}" for a, b in self.merged.items())
            lines.append(f"  merged strata: {moves}")
        vals = ", ".join(f"{s!r} {self.corrections[s].estimate_unclipped:.4f}"
                         for s in self.strata if self.corrections[s].clipped)  # fmt: skip
        lines += note_lines(
            vals and f"stratum estimates outside [0, 1] were clipped ({vals}); the pooled "
            "estimate uses the unclipped values",
            self.clipped and f"pooled θ̂ = {self.estimate_unclipped:.4f} was clipped to [0, 1]",
        )
        return "\n".join(lines)

    def _cluster_lines(self) -> list[str]:
        """Repeated items: the estimand and the design effects on θ̂ (pooled, per stratum)."""
        if self.clusters is None:
            return []
        per = ", ".join(f"{s!r} {k.theta_design_effect:.2f}" for s, k in self.clusters.items())
        items = sum(k.items for k in self.clusters.values())
        return [f"  repeated items       {items} items; estimand: mean over {self.estimand}; "
                f"design effect on pooled θ̂ {self.design_effect:.2f} (strata: {per})"]  # fmt: skip

    def __repr__(self) -> str:
        return rate_repr(
            "StratifiedCorrection", estimate=self.estimate, ci=self.ci, strata=list(self.strata),
            method=self.method, confidence_level=self.confidence_level,
            weights_source=self.weights_source, clipped=self.clipped,
        )  # fmt: skip
