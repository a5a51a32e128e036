"""``correct()`` and its Correction: test + calibration counts → corrected rate, interval."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ._validation import (
    WeakCalibrationWarning,
    check_single,
    require_extra,
)
from .auto import check_answerable, choose
from .chance import JudgeValue, judge_value
from .counts import ConfusionCounts, JudgedCounts
from .designs import (
    DEFAULT_DESIGN,
    Design,
    DesignCheck,
    as_design,
    design_check,
    warn_if_implausible,
)
from .estimators import _warn_clipped, rogan_gladen_counts
from .intervals import (
    CONDITIONAL,
    MIN_PER_CLASS,
    PAPER,
    PLUG_IN_ADVICE,
    Bounds,
    check_bounds_defined,
    get_method,
    implementation,
    known_bounds,
    rate_spec,
    spec_bounds,
    warn_undefined_replicates,
    weak_calibration,
)
from .label_shift import LabelShiftDiagnostic, label_shift_test
from .repeated import ClusterSummary, is_clustered
from .results import (
    ConfidenceInterval,
    Recomputable,
    Reportable,
    Tabular,
    forward,
    note_lines,
    rate_repr,
)
from .spec import EstimationSpec

if TYPE_CHECKING:  # pragma: no cover
    import xarray as xr

__all__ = [
    "MIN_PER_CLASS",
    "Correction",
    "correct",
    "correct_known",
    "correct_spec",
    "correction_spec",
    "interval_for",
    "spec_interval",
    "weak_calibration",
    "weak_regime",
]

_DEPRECATED = {"WEAK_MIN_PER_CLASS": 10, "WEAK_SUM": 1.2}


def weak_regime(
    calibration: ConfusionCounts, method: str, test: Any = None, design: Any = DEFAULT_DESIGN,
    *, clusters: ClusterSummary | None = None,
) -> str | None:  # fmt: skip
    """Why ``method`` is in its weak regime for this data set, or None.

    The rule is the method's own (:func:`judgestats.intervals.weak_calibration`); this returns
    the message :func:`correct` warns with (one data set). With repeated items the class-size
    rule counts effective items (rows over the design effect), and the advice names what
    takes clustered counts.

    Parameters
    ----------
    calibration : ConfusionCounts
        The calibration counts (one data set).
    method : str
        A registered interval method.
    test : JudgedCounts, optional
        The test counts (for the p̂ ∈ {0, 1} rule of ``"wald"`` and ``"bootstrap"``).
    design : str or Design, default "by-human-label"
        The calibration design.
    clusters : ClusterSummary, optional
        With repeated items: the effective sizes (:class:`judgestats.repeated.ClusterSummary`).

    Returns
    -------
    str or None
        The reason and the method's advice, or None outside the weak regime.
    """
    design = as_design(design)
    spec = get_method(method, design)
    advice = spec.weak_advice if clusters is None else CLUSTERED_ADVICE.get(design.family)
    if advice is None:  # repeated items: the rule of the paper's estimator only (issue 38)
        return None
    if not bool(weak_calibration(calibration, method, test, design, clusters=clusters)):
        return None
    return _WEAK_REASONS[design.family](calibration, method, test, advice, clusters)


#: What the weak-calibration warning of repeated items advises, per estimator family (the
#: likelihood methods it names for independent rows refuse clustered counts). The
#: judge-conditional family has no rule for repeated items yet.
CLUSTERED_ADVICE = {PAPER: "label more items"}


def _paper_weak_reason(calibration: ConfusionCounts, method: str, test: Any, advice: str,
                       clusters: ClusterSummary | None = None) -> str:  # fmt: skip
    sizes = (calibration.m0, calibration.m1)
    if clusters is not None:
        sizes = clusters.class_sizes
    m_min = min(sizes)
    if m_min < MIN_PER_CLASS:
        cls = int(sizes[1] == m_min)
        if clusters is None:
            what = f"only {m_min} calibration items of human class {cls} (< {MIN_PER_CLASS})"
        else:  # rounded down: never "100 effective items (< 100)"
            rows = calibration.m1 if cls else calibration.m0
            what = (f"only {int(m_min)} effective items of human class {cls} "
                    f"({rows} rows, < {MIN_PER_CLASS})")  # fmt: skip
        return f"{what}: {method!r} may under-cover; {advice}"
    return (
        f"{_degenerate_what(calibration, test)}: the {method!r} interval collapses; "
        f"{PLUG_IN_ADVICE}"
    )


def _design_weak_reason(calibration: ConfusionCounts, method: str, test: Any, advice: str,
                        clusters: ClusterSummary | None = None) -> str:  # fmt: skip
    c = calibration
    for label, k in (("1", c.tp + c.fp), ("0", c.fn + c.tn)):
        if k == 0 and (test is None or test.positive not in ((0,) if label == "1" else (test.n,))):
            return (
                f"no calibration item has judge label {label}: P(human = 1 | judge = {label}) "
                f"is not estimable and enters as 1/2; {advice}"
            )
    cells = [f"{name} = 0" for name, v in (("tp", c.tp), ("fp", c.fp), ("fn", c.fn),
                                            ("tn", c.tn)) if v == 0]  # fmt: skip
    if test is not None and test.positive in (0, test.n):
        cells.append(f"p̂ = {test.p_hat:g}")
    return f"{', '.join(cells)}: the {method!r} interval collapses; {advice}"


#: The weak-regime message of each estimator family (:attr:`judgestats.designs.Design.family`).
_WEAK_REASONS = {PAPER: _paper_weak_reason, CONDITIONAL: _design_weak_reason}


def _degenerate_what(calibration: ConfusionCounts, test: Any) -> str:
    parts = []
    for name, k, m in (
        ("q̂0", calibration.tn, calibration.m0),
        ("q̂1", calibration.tp, calibration.m1),
    ):
        if k in (0, m):
            parts.append(f"{name} = {k / m:g} ({k} of {m})")
    if test is not None and test.positive in (0, test.n):
        parts.append(f"p̂ = {test.p_hat:g} ({test.positive} of {test.n})")
    return ", ".join(parts)


def __getattr__(name: str) -> Any:
    if name in _DEPRECATED:
        warnings.warn(
            f"judgestats.correct.{name} is deprecated: the rule 'fewer than 10 items of a class or "
            "q̂0 + q̂1 < 1.2' was replaced by a class-size rule (MIN_PER_CLASS); see "
            "weak_calibration()",
            DeprecationWarning,
            stacklevel=2,
        )
        return _DEPRECATED[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _check_single(test: Any, calibration: Any) -> None:
    hint = "correct() takes one data set (use the vectorised primitives or js.simulate)"
    check_single("test", test, JudgedCounts, batch_hint=hint)
    check_single("calibration", calibration, ConfusionCounts, batch_hint=hint)


def correction_spec(
    test: Any, calibration: Any, *, method: Any, confidence_level: Any,
    design: Any = DEFAULT_DESIGN, estimand: Any = "rows", options: Any = None,
) -> EstimationSpec:  # fmt: skip
    """Validate one data set and :func:`correct`'s arguments into its spec (once)."""
    _check_single(test, calibration)
    return rate_spec(method=method, confidence_level=confidence_level, design=design,
                     repeated=is_clustered(test, calibration), estimand=estimand,
                     options=options, method_optional=True)  # fmt: skip


def interval_for(test: JudgedCounts, calibration: ConfusionCounts, **kwargs: Any) -> Any:
    """Interval for one data set by a registered method (validated, warns, never NaN).

    Keywords as :func:`correct` (``method``, ``confidence_level``, ``rng``, ``design``,
    ``estimand``, method options) plus ``stacklevel`` for the warnings.
    """
    stacklevel = kwargs.pop("stacklevel", 2) + 1
    rng = kwargs.pop("rng", None)
    spec = correction_spec(
        test, calibration, method=kwargs.pop("method"),
        confidence_level=kwargs.pop("confidence_level"),
        design=kwargs.pop("design", DEFAULT_DESIGN), estimand=kwargs.pop("estimand", "rows"),
        options=kwargs,
    )  # fmt: skip
    return spec_interval(spec, test, calibration, rng=rng, stacklevel=stacklevel)[0]


def spec_interval(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any = None,
    known: Bounds | None = None, stacklevel: int = 2,
) -> tuple[ConfidenceInterval, Bounds]:  # fmt: skip
    """Return one data set's interval under a resolved spec, checked (``known``: its bounds)."""
    spec.design.check_counts(test, calibration)
    check_answerable(spec, calibration)
    bounds = known if known is not None else spec_bounds(spec, test, calibration, rng)
    check_bounds_defined(bounds, spec.method)
    warn_undefined_replicates(bounds, stacklevel=stacklevel + 1)
    return ConfidenceInterval.from_bounds(bounds, spec.method, spec.confidence_level), bounds


def correct(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    *,
    method: str | None = None,
    confidence_level: float = 0.95,
    rng: Any = None,
    design: str = DEFAULT_DESIGN,
    estimand: str = "rows",
    **options: Any,
) -> Correction:
    """Correct a judged rate for the judge's errors and give an interval for the true rate.

    Computes the Rogan–Gladen estimate θ̂ = (p̂ + q̂0 − 1)/(q̂0 + q̂1 − 1) (paper eq.
    (7)), clipped to [0, 1], and an interval that accounts for the test and the
    calibration sample (under the paper's design the default ``"auto"`` answers with the
    paper's adjusted-Wald interval, eq. (8), widened where it may miss). A method that
    comes with its own point estimate (a posterior summary, for instance) reports that instead
    of θ̂; ``res.method`` says which method produced both.

    Parameters
    ----------
    test : JudgedCounts
        Judge labels on the test set (``positive`` of ``n`` judged 1).
    calibration : ConfusionCounts
        Human-vs-judge counts on the calibration set (both human classes present).
    method : str, optional
        Interval method; None gives the capability table's default for the design
        (:mod:`judgestats.designs.capabilities`): ``"auto"`` under ``"by-human-label"``,
        ``"adjusted-wald"`` under the other designs. ``"adjusted-wald"`` (paper), ``"wald"``,
        ``"bootstrap"``,
        ``"profile-likelihood"``, ``"profile-likelihood-t"``, ``"profile-map"``, ``"bayes"`` or
        any name in :func:`judgestats.interval_methods` (the capability table,
        :mod:`judgestats.designs.capabilities`, lists which the design and repeated items
        allow). Which one when (m = calibration items of the smaller human class,
        s = q̂0 + q̂1; the measured coverage, length and RMSE of each choice are in the README,
        "Which interval method when"):

        ===========================  ==========================================================
        calibration set              method
        ===========================  ==========================================================
        any                          ``"auto"`` (default): adjusted-Wald, widened where it
                                     may miss (below)
        m >= 100                     ``"adjusted-wald"`` (the paper's, exactly)
        m < 100                      ``"profile-map"`` or ``"auto"``; named, adjusted-Wald
                                     warns ``WeakCalibrationWarning``: with so few items its
                                     coverage depends on the judge's true error rates
        s <= 1                       ``"profile-map"`` or ``"bayes"`` (the Rogan–Gladen
                                     methods raise ``NotInformativeError``)
        smallest point error         ``"bayes"`` with ``point="mean"`` or ``"median"``
        ===========================  ==========================================================

        ``"auto"`` answers with adjusted-Wald where a class has at least 100 items and
        profile-map's interval reaches no more than 0.1 of its width outside it, else with the
        hull of both, ``"adjusted-wald+profile-map"`` (:mod:`judgestats.auto`); it refuses
        what adjusted-Wald refuses, and with repeated items applies the same rule at the
        effective sizes (the cluster-robust adjusted-Wald interval, profile-map on the
        effective counts).
        ``res.method`` names the method that answered, ``res.chosen_by`` why, and
        ``res.paper_ci`` is the paper's interval where auto widened it. It takes no method
        options. On 160 random cells auto covered >= 0.93 everywhere, at a median 1.0x the
        adjusted-Wald width (``benchmarks/results/auto_default.md``).
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    rng : None, int, SeedSequence or Generator
        Randomness for resampling methods (ignored by the closed forms).
    design : {"by-human-label", "random", "by-judge-label"} or Design, default "by-human-label"
        How the calibration items were chosen (:mod:`judgestats.designs`). The default, the
        paper's, is valid whatever the calibration set's label mix and needs both human classes.
        ``"random"`` (a simple random sample of the test population) and ``"by-judge-label"``
        (sampled within the judge's labels) use the judge-conditional estimator
        θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂, which needs no q̂0 + q̂1 > 1 and is much shorter when the
        design holds; their methods are ``"adjusted-wald"``, ``"wald"``, ``"bootstrap"`` and
        ``"bayes"``. Under ``"random"`` a two-sample test of the judge-positive rates warns
        ``DesignWarning`` when the calibration set does not look like a random sample.
    estimand : {"rows", "items"}, default "rows"
        With repeated items (counts built with ``cluster=``): the rate over rows (each verdict
        weight 1) or over items (each item weight 1). The intervals then account for the
        repeats (:mod:`judgestats.repeated`: design effects, effective sizes; ``"adjusted-wald"``,
        ``"wald"`` and ``"bootstrap"``, which resamples items) and ``res.clusters`` says what
        they did. Without clusters every row is an item and the two are the same.
    **options
        Method options, e.g. ``n_resamples=9999`` for ``"bootstrap"``.

    Returns
    -------
    Correction

    Raises
    ------
    ArgumentTypeError
        If ``test``/``calibration`` are not counts objects.
    NotInformativeError
        If q̂0 + q̂1 <= 1 (the judge is no better than chance on the calibration set, so the
        Rogan–Gladen estimate does not exist) and the method needs it; likelihood-based methods
        (``"profile-likelihood"``) still answer, with a wide interval.
    MethodError, ConfidenceLevelError
        On an unknown method or a bad level.
    ClusteredCountsError
        When counts with repeated items meet a method that models independent rows (the
        likelihood and posterior methods).

    Warns
    -----
    WeakCalibrationWarning
        When the method is in its bad regime for this calibration set (see
        :func:`weak_regime`); the message names the method that does better there.
    ClippedEstimateWarning
        When θ̂ falls outside [0, 1] (``clipped=True`` on the result).
    SamplingWarning
        When bootstrap replicates were undefined (counted on ``ci.undefined``).

    See Also
    --------
    evaluate : The same correction for every group of a table.
    correct_distribution : Several categories instead of a pass/fail verdict.
    correct_stratified : One correction per stratum, combined with weights.
    plan.calibration_size : How many human labels a target interval width needs.
    bayes.fit : The Bayesian model of the same counts.

    Examples
    --------
    >>> import judgestats as js
    >>> res = js.correct(js.JudgedCounts(positive=600, n=1000),
    ...                  js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30))
    >>> round(res.estimate, 4)
    0.5
    """
    spec = correction_spec(test, calibration, method=method, confidence_level=confidence_level,
                           design=design, estimand=estimand, options=options)  # fmt: skip
    return correct_spec(spec, test, calibration, rng=rng, stacklevel=3)


def correct_known(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    known: dict[str, Bounds],
    *,
    method: str,
    confidence_level: float,
    rng: Any = None,
    design: Any = DEFAULT_DESIGN,
    estimand: str = "rows",
    stacklevel: int = 2,
    **options: Any,
) -> Correction:
    """:func:`correct`, answering with bounds already computed for this data set where known.

    ``known`` maps method names to this data set's bounds at ``confidence_level`` and
    ``design``, computed without method options (:func:`judgestats.intervals.known_bounds`).
    """
    spec = correction_spec(test, calibration, method=method, confidence_level=confidence_level,
                           design=design, estimand=estimand, options=options)  # fmt: skip
    return correct_spec(spec, test, calibration, rng=rng, known=known, stacklevel=stacklevel + 1)


def correct_spec(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any = None,
    known: dict[str, Bounds] | None = None, stacklevel: int = 2,
) -> Correction:  # fmt: skip
    """:func:`correct` of one validated data set under a resolved spec.

    ``known`` maps method names to this data set's bounds at the spec's level and design,
    computed without method options (:func:`judgestats.intervals.known_bounds`):
    :func:`judgestats.evaluate` computes every group's in one batched call, and ``"auto"``
    answers with the bounds its choice computed. Every check, warning and result field is
    :func:`correct`'s; only the interval method is not run a second time.
    """
    chosen = paper = None
    known = dict(known or {})
    if spec.is_auto:
        spec, chosen = choose(spec, test, calibration, known=known)
        if spec.method != "adjusted-wald":  # widened: the paper's interval beside
            paper = ConfidenceInterval.from_bounds(known["adjusted-wald"], "adjusted-wald",
                                                   spec.confidence_level)  # fmt: skip
    given = None if spec.options else known_bounds(known, spec.method)
    ci, bounds = spec_interval(spec, test, calibration, rng=rng, known=given,
                               stacklevel=stacklevel + 1)  # fmt: skip
    design, method = spec.design, spec.method
    point, clusters = bounds.estimate, bounds.clusters
    why = weak_regime(calibration, method, test, design, clusters=clusters)
    if why is not None:
        warnings.warn(why, WeakCalibrationWarning, stacklevel=stacklevel)
    sizes = None if clusters is None else clusters.sizes
    check = None
    if design.calibration_samples_test:
        check = design_check(test, calibration, sizes=sizes)
        warn_if_implausible(check, stacklevel=stacklevel + 1)
    if point is None or clusters is not None:  # Rogan–Gladen (paper eq. (7))
        raw = float(rogan_gladen_counts(test, calibration) if point is None else point)
        note = "; interval widened at the boundary" if ci.widened else ""
        _warn_clipped(np.asarray(raw), stacklevel=stacklevel + 1, note=note)
    else:  # the method's own point estimate (an MLE or a posterior summary), in [0, 1]
        raw = float(point)
    shift = None
    if calibration.has_both_classes:
        shift = label_shift_test(test, calibration, sizes=sizes)
    judge = judge_value(calibration, ci, design=design, confidence_level=ci.confidence_level,
                        clusters=clusters)  # fmt: skip
    return Correction(
        estimate=float(np.clip(raw, 0.0, 1.0)),
        ci=ci,
        estimate_unclipped=raw,
        clipped=bool(raw < 0 or raw > 1),
        method=method,
        confidence_level=ci.confidence_level,
        test=test,
        calibration=calibration,
        label_shift=shift,
        estimator=implementation(design, method).estimator_name(spec.options, design),
        design=design,
        design_check=check,
        clusters=clusters,
        judge=judge,
        chosen_by=chosen,
        paper_ci=paper,
    )


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True)
class Correction(Tabular, Reportable, Recomputable):
    """A bias-corrected rate θ̂ with its interval, from :func:`judgestats.correct`.

    Attributes
    ----------
    estimate : float
        The point estimate named by ``estimator``: by default the Rogan–Gladen θ̂ clipped to
        [0, 1] (paper eq. (7)).
    ci : ConfidenceInterval
        Interval from ``method`` at ``confidence_level``.
    estimate_unclipped : float
        θ̂ before clipping; differs from ``estimate`` exactly when ``clipped`` is True.
    clipped : bool
        True when θ̂ fell outside [0, 1] (a ``ClippedEstimateWarning`` was issued).
    method, confidence_level
        How ``ci`` was computed.
    test, calibration : JudgedCounts, ConfusionCounts
        The data (sufficient statistics).
    label_shift : LabelShiftDiagnostic or None
        Calibration human-positive rate beside the Rogan–Gladen θ̂ with a z-test of their
        difference (None when the calibration set has one human class, which the random and
        by-judge-label designs allow).
    estimator : str
        The point estimate ``estimate`` is: ``"Rogan–Gladen"`` for the Rogan–Gladen-based
        methods, ``"maximum likelihood"``, ``"marginal posterior mode (flat priors)"``,
        ``"posterior mean"``, the judge-conditional estimate of the random and by-judge-label
        designs ... (see :data:`judgestats.intervals.METHODS`).
    design : str
        How the calibration items were chosen (:mod:`judgestats.designs`).
    design_check : DesignCheck or None
        Under ``design="random"``: the calibration set's judge-positive rate beside the test
        set's, with a two-sample test (a ``DesignWarning`` was issued if implausible).
    clusters : ClusterSummary or None
        With repeated items (counts built with ``cluster=``): the estimand, the items, each
        rate's design effect and effective size (:class:`judgestats.repeated.ClusterSummary`);
        None when every row is its own item.
    judge : JudgeValue or None
        Whether the judge helps (:mod:`judgestats.chance`): q̂0 + q̂1 − 1 with its
        Agresti–Caffo interval, ``near_chance`` when that interval reaches 0, and under
        ``design="random"`` the humans-only (Wilson) interval beside; ``helps`` is False when
        the judge is too close to chance (paper's design) or does not shorten the interval
        (random design), and the summary says so. With repeated items both intervals are at
        the effective sizes.
    chosen_by : str or None
        With ``method="auto"``: why ``method`` was chosen (:mod:`judgestats.auto`); None when
        the method was named. Begins "widened: " where auto answered with a wider interval
        than the paper's.
    paper_ci : ConfidenceInterval or None
        Where ``method="auto"`` widened the interval: the paper's adjusted-Wald interval
        (eq. (8)) of the same data, shown beside; None otherwise.
    effective_labels : float or None
        θ̂(1 − θ̂)/Var(θ̂): the number of human labels alone (a random sample) that would
        give the same precision (issue 39). Var(θ̂) is the variance the interval rests on:
        the delta-method variance of ``"adjusted-wald"`` (eq. (8)'s) and ``"wald"`` (eq.
        (15)'s; the three binomials' under the judge-conditional designs), else the variance
        the interval's width implies, ((upper − lower)/(2z))²; with repeated items the
        cluster-robust interval's, so it counts independent items
        (:func:`judgestats.effective.interval_variance`). None where θ̂ is 0 or 1. The Kish
        sizes of ``clusters`` (``effective_pi``, ...) are another thing and keep their names.

    Examples
    --------
    Made by :func:`correct`; it names what it computed:

    >>> import judgestats as js
    >>> res = js.correct(js.JudgedCounts(positive=600, n=1000),
    ...                  js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
    ...                  method="adjusted-wald", confidence_level=0.95)
    >>> res  # doctest: +NORMALIZE_WHITESPACE
    Correction(estimate=0.5000, ci=[0.4170, 0.5806], method='adjusted-wald',
    estimator='Rogan–Gladen',
    design='by-human-label', confidence_level=0.95, naive=0.6000, n=1000, m0=200, m1=200)
    >>> round(res.estimate, 4), round(res.naive, 4), res.clipped
    (0.5, 0.6, False)
    """

    kind: ClassVar[str] = "correction"

    estimate: float
    ci: ConfidenceInterval
    estimate_unclipped: float
    clipped: bool
    method: str
    confidence_level: float
    test: JudgedCounts
    calibration: ConfusionCounts
    label_shift: LabelShiftDiagnostic | None
    estimator: str
    design: Design = field(default=DEFAULT_DESIGN, kw_only=True)
    design_check: DesignCheck | None = field(default=None, kw_only=True)
    clusters: ClusterSummary | None = field(default=None, kw_only=True)
    judge: JudgeValue | None = field(default=None, kw_only=True)
    chosen_by: str | None = field(default=None, kw_only=True)
    paper_ci: ConfidenceInterval | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        object.__setattr__(self, "design", as_design(self.design))  # a name given: its Design

    # -- derived fields (the contract's names) -----------------------------------------
    n = forward("test.n", "Test-set size (rows, when items repeat).")
    m0 = forward("calibration.m0", "Calibration items with human label 0.")
    m1 = forward("calibration.m1", "Calibration items with human label 1.")
    calibration_rate = forward(
        "calibration.human_positive_rate",
        "Human-positive rate of the calibration set, m1 / m (label-mix diagnostic).",
    )

    def _items_rate(self, cell: str) -> float | None:
        """Return the rate under ``estimand="items"`` (None for rows: the counts' own rates)."""
        k = self.clusters
        return None if k is None or k.estimand == "rows" else k.values[cell]

    @property
    def naive(self) -> float:
        """p̂ = positive / n, the uncorrected judged rate (the mean over items for "items")."""
        rate = self._items_rate("p")
        return self.test.p_hat if rate is None else rate

    @property
    def sensitivity(self) -> float | None:
        """q̂1 = tp / m1 (None when the calibration set has no human-1 item)."""
        c = self.calibration
        rate = self._items_rate("q1") if c.m1 else None
        return rate if rate is not None else (c.tp / c.m1 if c.m1 else None)

    @property
    def specificity(self) -> float | None:
        """q̂0 = tn / m0 (None when the calibration set has no human-0 item)."""
        c = self.calibration
        rate = self._items_rate("q0") if c.m0 else None
        return rate if rate is not None else (c.tn / c.m0 if c.m0 else None)

    @property
    def effective_labels(self) -> float | None:
        """θ̂(1 − θ̂)/Var(θ̂), the human labels alone worth as much (see the class docstring)."""
        from .effective import labels_worth  # on first use: not on the import path

        return labels_worth(self)

    # -- recomputation ---------------------------------------------------------------
    def _recompute(self, method: str, level: float, rng: Any, options: dict) -> Any:
        estimand = "rows" if self.clusters is None else self.clusters.estimand
        return interval_for(
            self.test, self.calibration, method=method, confidence_level=level, rng=rng,
            stacklevel=4, design=self.design, estimand=estimand, **options,
        )  # fmt: skip

    # -- presentation ----------------------------------------------------------------
    def _row(self) -> dict[str, Any]:
        t, c, s = self.test, self.calibration, self.label_shift
        return {
            "estimate": self.estimate,
            "ci_low": self.ci.low,
            "ci_high": self.ci.high,
            "estimator": self.estimator,
            "method": self.method,
            "design": self.design,
            "confidence_level": self.confidence_level,
            "naive": self.naive,
            "sensitivity": self.sensitivity,
            "specificity": self.specificity,
            "n": t.n,
            "positive": t.positive,
            "m0": c.m0,
            "m1": c.m1,
            "tp": c.tp,
            "fn": c.fn,
            "tn": c.tn,
            "fp": c.fp,
            "clipped": self.clipped,
            "estimate_unclipped": self.estimate_unclipped,
            "calibration_rate": self.calibration_rate,
            "label_shift_z": None if s is None else s.z,
            "label_shift_pvalue": None if s is None else s.pvalue,
            "design_check_pvalue": None if self.design_check is None else self.design_check.pvalue,
            "effective_labels": self.effective_labels,
            **({} if self.clusters is None else self.clusters.record()),
            **({} if self.judge is None else self.judge.record()),
            **({} if self.chosen_by is None else {"chosen_by": self.chosen_by}),
            **({} if self.paper_ci is None else {"paper_ci_low": self.paper_ci.low,
                                                 "paper_ci_high": self.paper_ci.high}),
        }  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict of the tidy row (JSON-serialisable)."""
        return {k: (v.item() if hasattr(v, "item") else v) for k, v in self._row().items()}

    def _records(self) -> list[dict[str, Any]]:
        return [self.to_dict()]

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset in ArviZ's interval layout.

        Variables ``estimate``, ``naive``, ``sensitivity``, ``specificity`` (scalars) and ``ci``
        with dim ``ci_bound = ["lower", "upper"]``; attrs ``ci_kind`` (the method) and
        ``ci_prob`` (the level), plus the counts. Where ``method="auto"`` chose: attr
        ``chosen_by`` (why), and where it widened the paper's interval a variable ``paper_ci``
        (dim ``ci_bound``), as in :meth:`to_dict`.
        """
        require_extra("xarray", "to_xarray()")
        import xarray as xr

        rates = {k: v for k in ("sensitivity", "specificity")
                 if (v := getattr(self, k)) is not None}  # fmt: skip
        ds = xr.Dataset(
            {
                "estimate": self.estimate,
                "naive": self.naive,
                **rates,
                "ci": ("ci_bound", [self.ci.low, self.ci.high]),
                **({} if self.paper_ci is None else
                   {"paper_ci": ("ci_bound", [self.paper_ci.low, self.paper_ci.high])}),
            },
            coords={"ci_bound": ["lower", "upper"]},
        )  # fmt: skip
        row = self.to_dict()
        ds.attrs.update(
            ci_kind=self.method,
            ci_prob=self.confidence_level,
            estimator=self.estimator,
            design=self.design,
            clipped=int(self.clipped),
            **{k: row[k] for k in ("n", "positive", "tp", "fn", "tn", "fp")},
            **({} if self.chosen_by is None else {"chosen_by": self.chosen_by}),
        )
        return ds

    def summary(self) -> str:
        """Return a short human-readable report."""
        lvl = f"{100 * self.confidence_level:g}%"
        t, s = self.test, self.label_shift
        lines = [
            f"Corrected rate ({self.estimator}), {lvl} interval by {self.method}, "
            f"design {self.design}",
            f"  corrected estimate   {self.estimate:.4f}  [{self.ci.low:.4f}, {self.ci.high:.4f}]",
            f"  naive judged rate    {self.naive:.4f}  ({t.positive} of {t.n} test "
            f"{'rows' if self.clusters else 'items'} judged 1)",
        ]
        lines += _rate_lines(self)
        lines += _worth_lines(self)
        lines += [] if self.clusters is None else self.clusters.lines()
        lines += [] if self.judge is None else self.judge.lines()
        if self.paper_ci is not None:
            lines.append(f"  paper's interval     [{self.paper_ci.low:.4f}, "
                         f"{self.paper_ci.high:.4f}]  (adjusted-wald, eq. (8))")  # fmt: skip
        shift = "" if s is None else f" (label-shift z = {s.z:.2f})"
        lines.append(f"  calibration human rate {self.calibration_rate:.4f}{shift}")
        d = self.design_check
        lines += note_lines(
            d is not None and not d.plausible
            and f"calibration judge-positive rate {d.calibration_rate:.3f} vs test "
            f"{d.test_rate:.3f} (p = {d.pvalue:.2g}): not a random sample of the test set",
            self.clipped and f"the {self.estimator} estimate {self.estimate_unclipped:.4f} was "
            "clipped to [0, 1]",
            s is not None and s.shifted and self.design.robust_to_label_shift
            and "calibration and test true rates differ; RG stays valid, estimators assuming "
            "equal mixes do not",
            self.ci.undefined_note(),
            self.ci.widened and self.method != "adjusted-wald"
            and "a count is 0 (p̂, q̂0 or q̂1 at 0 or 1): the interval was computed with ½ in "
            "its place, where the likelihood-ratio bound alone stops short",
            self.judge is not None and self.judge.sentence(),
            self.chosen_by and f"method='auto' chose {self.method!r}: {self.chosen_by}",
        )  # fmt: skip
        return "\n".join(lines)

    def __repr__(self) -> str:
        return rate_repr(
            "Correction", estimate=self.estimate, ci=self.ci, method=self.method,
            estimator=self.estimator, design=self.design, confidence_level=self.confidence_level,
            naive=self.naive, n=self.n, m0=self.m0, m1=self.m1, clipped=self.clipped,
        )  # fmt: skip



def _worth_lines(res: Correction) -> list[str]:
    """Say how many human labels alone the result is worth, beside those it used."""
    worth, c = res.effective_labels, res.calibration
    if worth is None:
        return []
    alone = "independent items' labels" if res.clusters else "human labels"
    used = f"{c.m0 + c.m1} calibration {'rows' if res.clusters else 'items'}"
    return [f"  effective labels     {worth:.0f}  ({alone} alone as precise; {used} used)"]


def _rate_lines(res: Correction) -> list[str]:
    """Describe the judge's rates behind the estimate (sensitivity/specificity, or PPV/FOR)."""
    unit = "items" if res.clusters is None else "rows"
    return _RATE_LINES[res.design.family](res, unit)


def _paper_rate_lines(res: Correction, unit: str) -> list[str]:
    c = res.calibration
    return [
        f"  judge sensitivity    {res.sensitivity:.4f}  ({c.tp} of m1 = {c.m1} human-1 {unit})",
        f"  judge specificity    {res.specificity:.4f}  ({c.tn} of m0 = {c.m0} human-0 {unit})",
    ]


def _conditional_rate_lines(res: Correction, unit: str) -> list[str]:
    c = res.calibration
    k1, k0 = c.tp + c.fp, c.fn + c.tn
    return [
        f"  P(human 1 | judge 1) {c.tp / k1:.4f}  ({c.tp} of {k1} judge-1 calibration {unit})"
        if k1 else "  P(human 1 | judge 1) unknown (no judge-1 calibration item)",
        f"  P(human 1 | judge 0) {c.fn / k0:.4f}  ({c.fn} of {k0} judge-0 calibration {unit})"
        if k0 else "  P(human 1 | judge 0) unknown (no judge-0 calibration item)",
    ]


#: The rates each estimator family rests on, as the summary describes them.
_RATE_LINES = {PAPER: _paper_rate_lines, CONDITIONAL: _conditional_rate_lines}
