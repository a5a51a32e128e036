"""θ_A − θ_B of two judged models with an interval: :func:`difference` and its :class:`Comparison`.

Interval methods of :func:`difference`
--------------------------------------
``adjusted-wald`` (default)
    The paper's adjusted quantities (eq. (8): p̃ with n + z², q̃ with m + 2, centre θ̃ + dθ̃) for
    each model, combined by the delta method. Independent calibrations:
    Var = Var_A + Var_B (each the bracket of eq. (8) over (q̃0 + q̃1 − 1)²). Shared calibration:
    Var = [Var(p̃_A) + Var(p̃_B) − 2 Cov] / D̃² + (θ̃_A − θ̃_B)² (v0 + v1) / D̃², with
    D̃ = q̃0 + q̃1 − 1, v_j = q̃_j(1 − q̃_j)/m̃_j, centre (θ̃_A + dθ̃_A) − (θ̃_B + dθ̃_B)
    = (θ̃_A − θ̃_B)(1 + 2z²(v0 + v1)). Paired: Cov = (n11/n − p̂_A p̂_B)/ñ, the covariance of the
    paired judge labels (zero otherwise). The p-value is 2Φ(−|centre|/se).
``wald``
    The same delta method at the unadjusted estimates (eq. (15)), centred at θ̂_A − θ̂_B.
``bootstrap``
    Joint parametric percentile bootstrap: positive ~ Bin(n, p̂) per model (paired: the
    four-cell multinomial of the label pairs), tn ~ Bin(m0, q̂0), tp ~ Bin(m1, q̂1) per
    calibration set (drawn once when shared), Δ* = clip(θ̂*_A) − clip(θ̂*_B). Replicates with
    q0* + q1* <= 1 are counted and excluded, with a :class:`SamplingWarning`. p-value
    2·min{(1 + #Δ* <= 0), (1 + #Δ* >= 0)}/(1 + B), capped at 1.
``bayes``
    The posterior of the binomial misclassification model (θ_A, θ_B, q's ~ Beta priors, flat
    by default; ``priors=`` takes a :class:`judgestats.priors.Priors`), the model of
    ``correct(..., method="bayes")``. With a calibration set per model the θ's are independent
    a posteriori and each is drawn exactly from its quadrature posterior
    (:func:`judgestats.posterior.theta_posterior`, inverse CDF). With a shared calibration set
    the θ's are dependent through q0, q1 and the joint posterior is importance-sampled: q's
    from their Beta posteriors, then each p from its Beta(x + 1, n − x + 1) truncated to the
    range [1 − q0, q1] that θ ∈ [0, 1] allows, weighted by that range's mass / |q0 + q1 − 1|
    (the θ-likelihood's integral); its θ marginals are the quadrature posteriors up to Monte
    Carlo error. Reports the posterior mean of
    θ_A − θ_B, an equal-tailed credible interval and P(θ_A > θ_B). Defined for any judge,
    including q̂0 + q̂1 <= 1. Where the test data pull the q's far from their calibration
    posterior (a clipped estimate), the q proposal adapts: a defensive mixture of the
    calibration posterior and a Beta matched to the previous round's weighted draws. A low
    effective sample size warns (:class:`SamplingWarning`). Does not model paired test items.
    **Small shared calibration sets overstate |θ_A − θ_B|.** With one shared calibration the
    difference is (p_A − p_B)/(q0 + q1 − 1); the flat Beta(1, 1) priors pull the posterior of
    q0 and q1 toward 1/2, i.e. toward a weaker judge, and 1/(q0 + q1 − 1) is convex, so the
    posterior mean of the difference is larger in magnitude than the plug-in one. This is
    the posterior under those priors (importance sampling agrees with a direct quadrature of
    it), not a sampling error. Measured over 200 data sets (Δ = 0.2, q0 = q1 = 0.85,
    n = 1000): bias +0.067 with 15 calibration items per class, +0.018 with 50, +0.009 with
    150, while the adjusted-Wald estimate's bias was +0.011, +0.001, +0.005; the credible
    interval still covered. Use ``priors=`` (a past calibration) or ``"adjusted-wald"`` when
    the size of the difference matters and the calibration set is small.
any other registered method (e.g. ``profile-likelihood``)
    Independent, unpaired data only: the two per-model intervals from the registry combined by
    MOVER (Zou & Donner 2008): L = Δ̂ − √((θ̂_A − l_A)² + (u_B − θ̂_B)²),
    U = Δ̂ + √((u_A − θ̂_A)² + (θ̂_B − l_B)²). No p-value.

All difference intervals are truncated to [−1, 1], the range of θ_A − θ_B.

References
----------
Zou, G. Y. & Donner, A. (2008). Construction of confidence limits about effect measures: a
general approach. Statistics in Medicine 27, 1693–1702.
Lang, Z. & Reiczigel, J. (2014). Confidence limits for prevalence of disease adjusted for
estimated sensitivity and specificity. Preventive Veterinary Medicine 113, 13–22.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    ClusteredCountsError,
    JudgeStatsError,
    LabelError,
    MethodError,
    NotInformativeError,
    check_bool,
    check_rng,
    check_same_length,
    take_renamed,
)
from .._validation.arguments import _show
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import DEFAULT_DESIGN, Design, as_design
from ..estimators import clip_warned
from ..intervals import IntervalMethod, implementation, spec_bounds
from ..repeated import ClusterSummary, is_clustered
from ..results import ConfidenceInterval, Tabular, note_lines
from ..spec import EstimationSpec, resolve_spec
from .arms import (
    _require_informative,
    _single,
    _test_arg,
    difference_interval,
    joint_kernels,
    scalar_level,
)
from .clustered import share_items
from .joint import JOINT_METHODS, JointMethod, difference_bounds_batch

__all__ = [
    "Comparison",
    "difference",
    "difference_bounds_batch",
    "difference_spec",
]


# ============================================================================ difference
def difference(
    test_a: Any,
    calibration_a: ConfusionCounts | None = None,
    test_b: Any = None,
    calibration_b: ConfusionCounts | None = None,
    *,
    shared_calibration: bool = False,
    paired: bool | None = None,
    method: str = "adjusted-wald",
    confidence_level: float = 0.95,
    rng: Any = None,
    names: tuple[str, str] = ("A", "B"),
    design: str = DEFAULT_DESIGN,
    estimand: str = "rows",
    **options: Any,
) -> Comparison:
    """Difference θ_A − θ_B of two corrected rates, with an interval and a test.

    Each model's true rate is estimated by Rogan–Gladen, θ̂ = (p̂ + q̂0 − 1)/(q̂0 + q̂1 − 1)
    (paper eq. (7)), and the difference gets an interval that carries the
    uncertainty of both test sets and of the calibration set(s) (see the module docstring for
    each method's formula).

    With one **shared** calibration set the difference is
    θ_A − θ_B = (p_A − p_B)/(q0 + q1 − 1): for an informative judge (q0 + q1 > 1) the correction
    rescales the judged difference but **cannot flip its sign**, so the naive comparison already
    has the right direction; what the correction changes is the size of the difference and its
    interval. With separate calibrations (the judge behaves differently on each model's
    answers) the sign *can* flip — that is where naive comparisons mislead. For the same
    reason, with a shared calibration the test of θ_A = θ_B is (up to the q̂ term of the
    variance, which vanishes under the null) the naive test of p_A = p_B.

    Parameters
    ----------
    test_a, test_b : JudgedCounts or array_like of 0/1
        Each model's judged test set: counts, or the per-item judge labels. When both are label
        arrays of the same length they are taken as **paired** (the same prompts, in the same
        order) unless ``paired=False``.
    calibration_a, calibration_b : ConfusionCounts
        Calibration counts of each model. With ``shared_calibration=True`` pass the one set as
        ``calibration_a`` and leave ``calibration_b`` as None (or pass the same counts again).
        ``cal_a``/``cal_b`` are their deprecated names.
    shared_calibration : bool, default False
        One calibration set for both models (the judge's error rates do not depend on which
        model answered).
    paired : bool or None, default None
        None: paired exactly when both tests are label arrays. True: require paired labels.
        False: treat the two test sets as independent samples even if labels are given.
    method : str, default "adjusted-wald"
        ``"adjusted-wald"``, ``"wald"``, ``"bootstrap"``, ``"bayes"``, or another registered
        interval method (:func:`judgestats.interval_methods`) combined by MOVER — the latter
        only for independent calibrations and unpaired tests. The methods of each design, with
        and without repeated items, are the capability table's
        (:mod:`judgestats.designs.capabilities`, its ``difference`` rows).
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    rng : None, int, SeedSequence or Generator
        Randomness for ``"bootstrap"`` and ``"bayes"``.
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How each model's calibration items were chosen (:func:`judgestats.correct`). The other
        designs need a calibration set per model and unpaired tests: each model's interval
        under the design (any of its methods), combined by MOVER, with no p-value.
    names : (str, str), default ("A", "B")
        Labels of the two models in the summary and data frame.
    estimand : {"rows", "items"}, default "rows"
        With repeated items (counts built with ``cluster=``): each model's rate over rows or
        over items (:func:`judgestats.correct`). ``"adjusted-wald"`` and ``"wald"`` then take
        the delta method over both models' six rates at their effective sizes with their
        cluster-robust correlations (:mod:`judgestats.compare.clustered`): a shared
        calibration set and an item id in both models' data (the same prompt) enter through
        them. ``"bootstrap"`` resamples whole items of both models jointly (an item id in both
        models' data, or a shared calibration set, drawn once for both;
        :func:`judgestats.repeated.arms_replicates`). Other designs combine each model's
        cluster-aware interval by MOVER, when the models share no item. ``"bayes"`` and MOVER
        methods refuse clustered counts (:class:`~judgestats.errors.ClusteredCountsError`).
    **options
        ``n_resamples`` (bootstrap, default 9999); ``draws`` (bayes, default 20000) and
        ``priors`` (a :class:`judgestats.bayes.Priors`); a MOVER method's own options.

    Returns
    -------
    Comparison
        ``estimate`` (θ̂_A − θ̂_B of the clipped estimates; the posterior mean for ``"bayes"``),
        ``ci``, ``pvalue`` (two-sided, H0: θ_A = θ_B; None for ``"bayes"`` and MOVER),
        ``prob_a_greater`` (posterior P(θ_A > θ_B), ``"bayes"`` only), per-model estimates and
        the naive difference p̂_A − p̂_B.

    Raises
    ------
    ArgumentTypeError
        If a test is neither counts nor labels, or a calibration is not ConfusionCounts.
    LabelError
        If paired labels differ in length, or ``paired=True`` without two label arrays.
    NotInformativeError
        If q̂0 + q̂1 <= 1 for a calibration set and the method needs it (all but ``"bayes"``
        and likelihood-based registered methods).
    MethodError
        On an unknown method, or a MOVER method with a shared calibration or paired data.
    ClusteredCountsError
        With repeated items and a method that models independent rows (see ``estimand``).
    JudgeStatsError
        If ``calibration_b`` is missing without ``shared_calibration`` or differs from
        ``calibration_a`` with
        it, or ``"bayes"`` is asked for paired items.

    Warns
    -----
    ClippedEstimateWarning
        When a per-model θ̂ falls outside [0, 1].
    SamplingWarning
        Bootstrap replicates undefined, or a low effective sample in the posterior.

    See Also
    --------
    compare.rank : Rank many groups at once.
    correct : The corrected estimate of one group.
    evaluate : Correct every group of a table.

    Examples
    --------
    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
    >>> res = js.compare.difference(js.JudgedCounts(positive=600, n=1000), cal,
    ...                  js.JudgedCounts(positive=520, n=1000), shared_calibration=True)
    >>> round(res.estimate, 4)  # (0.60 − 0.52) / (0.7 + 0.9 − 1)
    0.1333
    """
    calibration_a = take_renamed(options, "cal_a", "calibration_a", calibration_a, "difference")
    calibration_b = take_renamed(options, "cal_b", "calibration_b", calibration_b, "difference")
    if calibration_a is None or test_b is None:
        raise ArgumentTypeError("difference() needs test_a, calibration_a and test_b")
    shared = check_bool("shared_calibration", shared_calibration)
    if paired is not None:
        paired = check_bool("paired", paired)
    ta, la = _test_arg("test_a", test_a)
    tb, lb = _test_arg("test_b", test_b)
    cal_a, cal_b = _two_calibrations(calibration_a, calibration_b, shared)
    is_paired, pair_counts = _pairing(la, lb, paired)
    if not (
        isinstance(names, tuple) and len(names) == 2 and all(isinstance(s, str) for s in names)
    ):
        raise ArgumentTypeError(f"names must be a tuple of two strings, got {_show(names)}")
    design = as_design(design)
    if (shared or is_paired) and not joint_kernels(design):
        raise JudgeStatsError(
            f"design={str(design)!r} compares models with a calibration set each (their "
            "intervals are combined by MOVER); a shared calibration set or paired items "
            "need design='by-human-label'"
        )
    spec = difference_spec(design=design, method=method, confidence_level=confidence_level,
                           repeated=is_clustered(ta, tb, cal_a, cal_b), estimand=estimand,
                           options=options)  # fmt: skip
    common = {
        "test_a": ta,
        "test_b": tb,
        "calibration_a": cal_a,
        "calibration_b": cal_b,
        "shared_calibration": shared,
        "paired": is_paired,
        "pair_counts": pair_counts,
        "method": spec.method,
        "confidence_level": scalar_level(spec),
        "names": names,
        "naive": float(ta.p_hat - tb.p_hat),
        "calibration_design": spec.design,
        "estimand": spec.estimand,
    }
    return Comparison(**_difference_by(spec, common, rng), **common)


def difference_spec(
    *, design: Any, method: Any, confidence_level: Any, repeated: bool = False,
    estimand: Any = "rows", options: Any = None,
) -> EstimationSpec:  # fmt: skip
    """Resolve the spec of θ_A − θ_B (:func:`difference`'s path), the method's options checked.

    The method must be in the capability table's row of differences under ``design``
    (:mod:`judgestats.designs.capabilities`); its options are those of its joint
    implementation (:data:`judgestats.compare.joint.JOINT_METHODS`) or, combined by MOVER, of
    the design's interval (:func:`judgestats.intervals.implementation`).
    """
    return resolve_spec(
        judge="letter", target="difference", design=design, method=method,
        confidence_level=confidence_level, repeated=repeated, estimand=estimand,
        options=options, options_of=lambda d, m: difference_implementation(d, m).options,
    )  # fmt: skip


def difference_implementation(design: Design, method: str) -> JointMethod | IntervalMethod:
    """Return the implementation of a difference method under a design.

    Its :class:`~judgestats.compare.joint.JointMethod` where the design's estimator family has
    joint kernels (:func:`.arms.joint_kernels`) and the method one; otherwise the design's
    interval of one model (:class:`judgestats.intervals.IntervalMethod`), the two combined by
    MOVER. Raises :class:`~judgestats.errors.MethodError` where neither exists.
    """
    joint = JOINT_METHODS.get(method) if joint_kernels(design) else None
    return joint if joint is not None else implementation(design, method)


def _two_calibrations(cal_a: Any, cal_b: Any, shared: bool) -> tuple[Any, Any]:
    _single("calibration_a", cal_a, ConfusionCounts)
    if shared:
        if cal_b is not None:
            _single("calibration_b", cal_b, ConfusionCounts)
            if cal_b != cal_a:
                raise JudgeStatsError(
                    f"shared_calibration=True but calibration_b ({_show(cal_b)}) differs from "
                    f"calibration_a ({_show(cal_a)}): pass the shared set once, as calibration_a"
                )
        return cal_a, cal_a
    if cal_b is None:
        raise JudgeStatsError(
            "calibration_b is required: pass model B's calibration counts, or "
            "shared_calibration=True when one calibration set serves both models"
        )
    _single("calibration_b", cal_b, ConfusionCounts)
    return cal_a, cal_b


def _pairing(la: Any, lb: Any, paired: bool | None) -> tuple[bool, tuple | None]:
    """Whether the tests are paired, and the four label-pair counts (n11, n10, n01, n00)."""
    both_labels = la is not None and lb is not None
    if paired is True and not both_labels:
        raise LabelError(
            "paired=True needs per-item judge labels for both test_a and test_b (arrays of 0/1 "
            "on the same prompts), got "
            + ("counts for test_a" if la is None else "counts for test_b")
        )
    is_paired = both_labels if paired is None else paired
    if not is_paired:
        return False, None
    check_same_length("test_a labels", la, "test_b labels", lb)
    return True, (
        int(np.count_nonzero(la & lb)),
        int(np.count_nonzero(la & ~lb)),
        int(np.count_nonzero(~la & lb)),
        int(np.count_nonzero(~la & ~lb)),
    )


def _difference_by(spec: EstimationSpec, c: dict, rng: Any) -> dict[str, Any]:
    """Run a resolved difference: its joint implementation, or MOVER of the two intervals."""
    impl = difference_implementation(spec.design, spec.method)
    if isinstance(impl, JointMethod):
        return impl.func(spec, c, rng)
    _check_independent(spec, c)
    return _difference_mover(spec, c, rng)


def _check_independent(spec: EstimationSpec, c: dict) -> None:
    """MOVER combines two independent intervals: refuse what makes the models' data dependent."""
    if c["shared_calibration"] or c["paired"]:  # (only the paper's family gets here)
        what = "a shared calibration set" if c["shared_calibration"] else "paired items"
        joint = ", ".join(repr(m) for m in spec.methods if m in JOINT_METHODS)
        raise MethodError(
            f"method ({spec.method!r}) combines two independent intervals (MOVER) and cannot be "
            f"used with {what}; use one of {joint}"
        )
    if spec.repeated and share_items(c):
        raise ClusteredCountsError(
            f"design={str(spec.design)!r} combines the two models' intervals by MOVER, which "
            "needs independent data, but an item id has rows in both models' counts; use "
            "design='by-human-label' with method 'adjusted-wald' or 'wald'"
        )


def _difference_mover(spec: EstimationSpec, c: dict, rng: Any) -> dict[str, Any]:
    """Each model's interval under the design, combined by MOVER (Zou & Donner 2008)."""
    requires_informative = implementation(spec.design, spec.method).requires_informative
    gen = check_rng(rng)
    points, bounds = [], []
    for side in ("a", "b"):
        test, cal = c[f"test_{side}"], c[f"calibration_{side}"]
        if requires_informative:
            _require_informative(cal, f"cal_{side}", adjusted=False)
        # the same design, method, level, estimand and options, for one model's rate
        rate = replace(spec, target="rate", repeated=is_clustered(test, cal))
        bnd = spec_bounds(rate, test, cal, gen)
        if np.isnan(bnd.low).any() or np.isnan(bnd.high).any():
            raise NotInformativeError(
                f"the {spec.method!r} interval of model {c['names'][side == 'b']!r} is undefined "
                "for these counts (judge no better than chance after the method's adjustment)"
            )
        if bnd.estimate is None:
            points.append(float(clip_warned(spec.design.point(test, cal)[0], stacklevel=5)))
        else:
            points.append(float(bnd.estimate))
        bounds.append((float(bnd.low), float(bnd.high)))
    (la, ua), (lb, ub) = bounds
    ea, eb = points
    est = ea - eb
    low = est - np.hypot(ea - la, ub - eb)
    high = est + np.hypot(ua - ea, eb - lb)
    return dict(estimate=est, ci=difference_interval(low, high, spec), estimate_a=ea,
                estimate_b=eb, pvalue=None, prob_a_greater=None, standard_error=None)  # fmt: skip


# ============================================================================ presentation
# (the result classes in results.py delegate here, so results.py stays small)
def comparison_row(c: Comparison) -> dict[str, Any]:
    """Tidy row of a :class:`Comparison` (plain Python values)."""
    a, b = c.names
    return {
        "model_a": a,
        "model_b": b,
        "estimate": c.estimate,
        "ci_low": c.ci.low,
        "ci_high": c.ci.high,
        "pvalue": c.pvalue,
        "prob_a_greater": c.prob_a_greater,
        "standard_error": c.standard_error,
        "estimate_a": c.estimate_a,
        "estimate_b": c.estimate_b,
        "naive": c.naive,
        "naive_a": float(c.test_a.p_hat),
        "naive_b": float(c.test_b.p_hat),
        "method": c.method,
        "confidence_level": c.confidence_level,
        "shared_calibration": c.shared_calibration,
        "paired": c.paired,
        "n_a": int(c.test_a.n),
        "n_b": int(c.test_b.n),
        "m_a": int(c.calibration_a.m),
        "m_b": int(c.calibration_b.m),
        **_cluster_record(c),
    }


def _cluster_record(c: Comparison) -> dict[str, Any]:
    """Repeated items: the estimand, items, design effects on θ̂_A and θ̂_B and the t df."""
    if c.clusters is None:
        return {}
    ka, kb = c.clusters
    return {"estimand": c.estimand, "items_a": ka.items, "items_b": kb.items,
            "design_effect_theta_a": ka.theta_design_effect,
            "design_effect_theta_b": kb.theta_design_effect, "t_df": c.t_df}  # fmt: skip


def comparison_summary(c: Comparison) -> str:
    """Short text report of a :class:`Comparison`."""
    a, b = c.names
    lvl = f"{100 * c.confidence_level:g}%"
    w = max(10, len(a), len(b))
    lines = [
        f"Difference of corrected rates {a} − {b} ({c.design}, calibration design "
        f"{c.calibration_design}), {lvl} interval by {c.method}",
        f"  corrected difference  {c.estimate:+.4f}  [{c.ci.low:+.4f}, {c.ci.high:+.4f}]",
        f"  {a:<{w}}  corrected {c.estimate_a:.4f}   naive {float(c.test_a.p_hat):.4f}",
        f"  {b:<{w}}  corrected {c.estimate_b:.4f}   naive {float(c.test_b.p_hat):.4f}",
        f"  naive difference      {c.naive:+.4f}",
    ]
    if c.clusters is not None:
        ka, kb = c.clusters
        df = f"; critical value t({c.t_df:.0f})" if np.isfinite(c.t_df) else ""
        lines.append(f"  repeated items        {ka.items} and {kb.items} items; estimand: mean "
                     f"over {c.estimand}; design effect on θ̂ {ka.theta_design_effect:.2f} and "
                     f"{kb.theta_design_effect:.2f}{df}")  # fmt: skip
    if c.pvalue is not None:
        lines.append(f"  two-sided p-value of θ_{a} = θ_{b}: {c.pvalue:.4g}")
    if c.prob_a_greater is not None:
        lines.append(f"  posterior P(θ_{a} > θ_{b}) = {c.prob_a_greater:.4f}")
    lines += note_lines(
        c.shared_calibration
        and "with one shared calibration the correction rescales the judged difference by "
        "1/(q0 + q1 − 1); it cannot flip its sign",
        c.ci.undefined_note(),
    )
    return "\n".join(lines)


def comparison_repr(c: Comparison) -> str:
    """Repr of a :class:`Comparison`."""
    if c.pvalue is not None:
        extra = f", pvalue={c.pvalue:.4g}"
    elif c.prob_a_greater is not None:
        extra = f", prob_a_greater={c.prob_a_greater:.4f}"
    else:
        extra = ""
    return (
        f"Comparison(estimate={c.estimate:+.4f}, ci=[{c.ci.low:+.4f}, {c.ci.high:+.4f}], "
        f"method={c.method!r}, confidence_level={c.confidence_level:g}{extra}, "
        f"design={c.design!r}, calibration_design={c.calibration_design!r})"
    )


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True, eq=False)
class Comparison(Tabular):
    """Difference θ_A − θ_B of two corrected rates, from :func:`judgestats.compare.difference`.

    Attributes
    ----------
    estimate : float
        θ̂_A − θ̂_B of the clipped Rogan–Gladen estimates (the posterior mean for ``"bayes"``).
    ci : ConfidenceInterval
        Interval for θ_A − θ_B from ``method`` at ``confidence_level``, truncated to [−1, 1].
    estimate_a, estimate_b : float
        The two corrected rates (posterior means for ``"bayes"``).
    naive : float
        p̂_A − p̂_B, the uncorrected judged difference.
    pvalue : float or None
        Two-sided p-value of H0: θ_A = θ_B (None for ``"bayes"`` and MOVER methods).
    prob_a_greater : float or None
        Posterior P(θ_A > θ_B) (``"bayes"`` only).
    standard_error : float or None
        Delta-method standard error (at the adjusted values for ``"adjusted-wald"``), the
        bootstrap or the posterior standard deviation; None for MOVER methods.
    test_a, test_b, calibration_a, calibration_b
        The data (``calibration_b is calibration_a`` when the calibration is shared).
    shared_calibration, paired : bool
        The design; ``pair_counts`` = (n11, n10, n01, n00) of the paired judge labels or None.
    method, confidence_level, names
        How the interval was computed, and the two models' labels.
    calibration_design : str
        How the calibration items were chosen (``design=`` of :func:`difference`,
        :mod:`judgestats.designs`); under ``"random"`` and ``"by-judge-label"`` each model's
        judge-conditional interval, combined by MOVER. (``design`` says how the two models
        share calibration and test items.)
    estimand : {"rows", "items"}
        With repeated items, each rate over rows or over items (``"rows"`` otherwise).
    clusters : (ClusterSummary, ClusterSummary) or None
        With repeated items: each model's items, design effects and effective sizes.
    t_df : float
        Degrees of freedom of the critical value (``inf``: the normal quantile).

    Examples
    --------
    Made by :func:`judgestats.compare.difference`:

    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60)
    >>> diff = js.compare.difference(js.JudgedCounts(positive=650, n=1000), cal,
    ...                              js.JudgedCounts(positive=600, n=1000), cal,
    ...                              shared_calibration=True, confidence_level=0.95,
    ...                              names=("a", "b"))
    >>> round(diff.estimate, 4), diff.ci, round(diff.pvalue, 3)  # doctest: +NORMALIZE_WHITESPACE
    (0.0833, ConfidenceInterval(low=0.0127917, high=0.156836, method='adjusted-wald',
    confidence_level=0.95), 0.021)
    """

    kind: ClassVar[str] = "comparison"

    estimate: float
    ci: ConfidenceInterval
    estimate_a: float
    estimate_b: float
    naive: float
    pvalue: float | None
    prob_a_greater: float | None
    standard_error: float | None
    test_a: JudgedCounts
    test_b: JudgedCounts
    calibration_a: ConfusionCounts
    calibration_b: ConfusionCounts
    shared_calibration: bool
    paired: bool
    pair_counts: tuple[int, int, int, int] | None
    method: str
    confidence_level: float
    names: tuple[str, str] = ("A", "B")
    calibration_design: str = DEFAULT_DESIGN
    estimand: str = "rows"
    clusters: tuple[ClusterSummary, ClusterSummary] | None = None
    t_df: float = float("inf")

    @property
    def design(self) -> str:
        """``"shared calibration"`` or ``"independent calibrations"``, plus paired items."""
        base = "shared calibration" if self.shared_calibration else "independent calibrations"
        return base + (", paired test items" if self.paired else "")

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict of the tidy row (JSON-serialisable)."""
        return comparison_row(self)

    def _records(self) -> list[dict[str, Any]]:
        return [self.to_dict()]

    def summary(self) -> str:
        """Return a short human-readable report."""
        return comparison_summary(self)

    def __repr__(self) -> str:
        return comparison_repr(self)
