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

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    ClusteredCountsError,
    JudgeStatsError,
    LabelError,
    MethodError,
    NotInformativeError,
    SamplingWarning,
    check_bool,
    check_choice,
    check_method,
    check_positive_int,
    check_rng,
    check_same_length,
    take_renamed,
)
from .._validation.arguments import _show
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import DEFAULT_DESIGN, check_design
from ..estimators import clip_warned, rogan_gladen_counts
from ..intervals import compute_bounds, get_method, interval_methods
from ..kernels import z_value
from ..repeated import ESTIMANDS, ClusterSummary, is_clustered
from ..results import ConfidenceInterval, Tabular, note_lines
from .arms import (
    _CHUNK,
    _DEFAULT_DRAWS,
    _arrays,
    _bootstrap_thetas,
    _check_options,
    _clipped_rg,
    _delta_kernel,
    _require_informative,
    _scalar_level,
    _single,
    _test_arg,
    weighted_quantile,
)
from .clustered import (
    clustered_bootstrap_draws,
    clustered_difference,
    refuse_method,
    share_items,
)
from .draws import _effective_draws, _posterior_draws, _warn_low_ess

if TYPE_CHECKING:  # pragma: no cover
    pass

__all__ = [
    "DIFFERENCE_METHODS",
    "Comparison",
    "difference",
    "difference_bounds_batch",
]


#: Methods with a joint treatment of shared calibrations and paired items in :func:`difference`.
DIFFERENCE_METHODS = ("adjusted-wald", "wald", "bootstrap", "bayes")


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
        only for independent calibrations and unpaired tests.
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
    >>> res = difference(js.JudgedCounts(positive=600, n=1000), cal,
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
    if check_design(design) != DEFAULT_DESIGN:
        if shared or is_paired:
            raise JudgeStatsError(
                f"design={design!r} compares models with a calibration set each (their "
                "intervals are combined by MOVER); a shared calibration set or paired items "
                "need design='by-human-label'"
            )
        get_method(method, design)  # names the methods the design has
    else:
        registered = interval_methods()
        check_method(
            method, tuple(dict.fromkeys((*DIFFERENCE_METHODS, *registered))),
            capability="differences",
        )  # fmt: skip
    level = _scalar_level(confidence_level)

    common = {
        "test_a": ta,
        "test_b": tb,
        "calibration_a": cal_a,
        "calibration_b": cal_b,
        "shared_calibration": shared,
        "paired": is_paired,
        "pair_counts": pair_counts,
        "method": method,
        "confidence_level": level,
        "names": names,
        "naive": float(ta.p_hat - tb.p_hat),
        "calibration_design": design,
        "estimand": check_choice("estimand", estimand, ESTIMANDS),
    }
    if design != DEFAULT_DESIGN:
        if is_clustered(ta, tb, cal_a, cal_b) and share_items(common):
            raise ClusteredCountsError(
                f"design={design!r} combines the two models' intervals by MOVER, which needs "
                "independent data, but an item id has rows in both models' counts; use "
                "design='by-human-label' with method 'adjusted-wald' or 'wald'"
            )
        return _difference_mover(common, rng, options)
    return _difference_by(method, common, rng, options)


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


def _difference_by(method: str, common: dict, rng: Any, options: dict) -> Comparison:
    """Dispatch a validated difference to its method."""
    if method in ("adjusted-wald", "wald"):
        _check_options(method, options, ())
        return _difference_delta(common, adjusted=method == "adjusted-wald")
    if method != "bootstrap" and is_clustered(*(common[k] for k in (
            "test_a", "test_b", "calibration_a", "calibration_b"))):  # fmt: skip
        refuse_method(method)
    if method == "bootstrap":
        _check_options(method, options, ("n_resamples",))
        reps = check_positive_int("n_resamples", options.get("n_resamples", 9999), minimum=2)
        return _difference_bootstrap(common, reps, check_rng(rng))
    if method == "bayes":
        _check_options(method, options, ("draws", "priors"))
        if common["paired"]:
            raise JudgeStatsError(
                "method='bayes' does not model paired test items; use 'adjusted-wald' or "
                "'bootstrap' for paired labels, or paired=False to treat the tests as independent"
            )
        draws = check_positive_int("draws", options.get("draws", _DEFAULT_DRAWS), minimum=100)
        return _difference_bayes(common, draws, check_rng(rng), options.get("priors"))
    if common["shared_calibration"] or common["paired"]:
        design = "a shared calibration set" if common["shared_calibration"] else "paired items"
        opts = ", ".join(repr(m) for m in DIFFERENCE_METHODS)
        raise MethodError(
            f"method ({method!r}) combines two independent intervals (MOVER) and cannot be used "
            f"with {design}; use one of {opts}"
        )
    return _difference_mover(common, rng, options)


def _per_model_estimates(c: dict, stacklevel: int = 4) -> tuple[float, float]:
    raw = [rogan_gladen_counts(c[f"test_{s}"], c[f"calibration_{s}"]) for s in "ab"]
    est = clip_warned(raw, stacklevel=stacklevel)
    return float(est[0]), float(est[1])


def _interval(low: float, high: float, c: dict, **extra: Any) -> ConfidenceInterval:
    low, high = float(np.clip(low, -1.0, 1.0)), float(np.clip(high, -1.0, 1.0))
    return ConfidenceInterval(
        low=low,
        high=max(low, high),
        method=c["method"],
        confidence_level=c["confidence_level"],
        **extra,
    )


def _difference_delta(c: dict, *, adjusted: bool) -> Comparison:
    from scipy.special import ndtr

    if is_clustered(c["test_a"], c["test_b"], c["calibration_a"], c["calibration_b"]):
        k = clustered_difference(c, adjusted=adjusted, stacklevel=6)
        half = k["z"] * k["se"]
        return Comparison(
            estimate=k["estimate_a"] - k["estimate_b"],
            ci=_interval(k["centre"] - half, k["centre"] + half, c), estimate_a=k["estimate_a"],
            estimate_b=k["estimate_b"], pvalue=k["pvalue"], prob_a_greater=None,
            standard_error=k["se"], clusters=k["clusters"], t_df=k["df"], **c,
        )  # fmt: skip
    _require_informative(c["calibration_a"], "calibration_a", adjusted=adjusted)
    if not c["shared_calibration"]:
        _require_informative(c["calibration_b"], "calibration_b", adjusted=adjusted)
    ea, eb = _per_model_estimates(c, stacklevel=6)
    z = float(z_value(c["confidence_level"]))
    a = _arrays(c["test_a"], c["calibration_a"])
    b = _arrays(c["test_b"], c["calibration_b"])
    n11 = None if c["pair_counts"] is None else float(c["pair_counts"][0])
    centre, se = _delta_kernel(
        a, b, z=z, adjusted=adjusted, shared=c["shared_calibration"], pair_n11=n11
    )
    centre, se = float(centre), float(se)
    if se > 0:
        pvalue = float(2.0 * ndtr(-abs(centre) / se))
    else:
        pvalue = 1.0 if centre == 0 else 0.0
    return Comparison(
        estimate=ea - eb,
        ci=_interval(centre - z * se, centre + z * se, c),
        estimate_a=ea,
        estimate_b=eb,
        pvalue=pvalue,
        prob_a_greater=None,
        standard_error=se,
        **c,
    )


def _difference_bootstrap(c: dict, reps: int, gen: np.random.Generator) -> Comparison:
    if is_clustered(c["test_a"], c["test_b"], c["calibration_a"], c["calibration_b"]):
        k = clustered_bootstrap_draws(c, reps, gen, stacklevel=6)
        return _bootstrap_comparison(c, k["delta"], k["estimate_a"], k["estimate_b"], reps,
                                     clusters=k["clusters"])  # fmt: skip
    _require_informative(c["calibration_a"], "calibration_a", adjusted=False)
    if not c["shared_calibration"]:
        _require_informative(c["calibration_b"], "calibration_b", adjusted=False)
    ea, eb = _per_model_estimates(c, stacklevel=6)
    a = _arrays(c["test_a"], c["calibration_a"])
    b = _arrays(c["test_b"], c["calibration_b"])
    cals = [a] if c["shared_calibration"] else [a, b]
    groups = [0, 0] if c["shared_calibration"] else [0, 1]
    th = _bootstrap_thetas([a, b], groups, cals, reps, gen, pairs=c["pair_counts"])
    return _bootstrap_comparison(c, th[..., 0] - th[..., 1], ea, eb, reps)


def _bootstrap_comparison(c: dict, delta: np.ndarray, ea: float, eb: float, reps: int,
                          **extra: Any) -> Comparison:  # fmt: skip
    """Percentile interval and bootstrap p-value of the replicates ``delta`` (NaN undefined)."""
    valid = ~np.isnan(delta)
    undefined = int(reps - valid.sum())
    if undefined:
        warnings.warn(
            f"{undefined} of {reps} bootstrap replicates were undefined (resampled q0* + q1* <= "
            "1, judge no better than chance) and are excluded; the interval conditions on an "
            "informative judge and may be too narrow",
            SamplingWarning,
            stacklevel=5,
        )
    d = delta[valid]
    if d.size == 0:
        raise NotInformativeError("every bootstrap replicate was undefined (q0* + q1* <= 1)")
    alpha = 1.0 - c["confidence_level"]
    low, high = np.quantile(d, [alpha / 2.0, 1.0 - alpha / 2.0])
    below, above = np.count_nonzero(d <= 0), np.count_nonzero(d >= 0)
    pvalue = min(1.0, 2.0 * (1.0 + min(below, above)) / (1.0 + d.size))
    ci = _interval(low, high, c, undefined=undefined, n_resamples=reps)
    return Comparison(
        estimate=ea - eb,
        ci=ci,
        estimate_a=ea,
        estimate_b=eb,
        pvalue=pvalue,
        prob_a_greater=None,
        standard_error=float(np.std(d, ddof=1)) if d.size > 1 else None,
        **extra,
        **c,
    )


def _difference_bayes(c: dict, draws: int, gen: np.random.Generator, priors: Any) -> Comparison:
    a = _arrays(c["test_a"], c["calibration_a"])
    b = _arrays(c["test_b"], c["calibration_b"])
    cals = [a] if c["shared_calibration"] else [a, b]
    groups = [0, 0] if c["shared_calibration"] else [0, 1]
    th, w = _posterior_draws([a, b], groups, cals, draws, gen, priors)
    _warn_low_ess(float(_effective_draws(w)), draws, stacklevel=5)
    delta = th[:, 0] - th[:, 1]
    alpha = 1.0 - c["confidence_level"]
    low, high = weighted_quantile(delta, w, [alpha / 2.0, 1.0 - alpha / 2.0])
    prob = float(np.sum(w * ((delta > 0) + 0.5 * (delta == 0))))
    ea, eb = float(np.sum(w * th[:, 0])), float(np.sum(w * th[:, 1]))
    sd = float(np.sqrt(np.sum(w * (delta - (ea - eb)) ** 2)))
    return Comparison(
        estimate=ea - eb,
        ci=_interval(float(low), float(high), c),
        estimate_a=ea,
        estimate_b=eb,
        pvalue=None,
        prob_a_greater=prob,
        standard_error=sd,
        **c,
    )


def _difference_mover(c: dict, rng: Any, options: dict[str, Any]) -> Comparison:
    method, design = c["method"], c["calibration_design"]
    spec = get_method(method, design)
    gen = check_rng(rng)
    points, bounds = [], []
    for side in ("a", "b"):
        test, cal = c[f"test_{side}"], c[f"calibration_{side}"]
        if spec.requires_informative:
            _require_informative(cal, f"cal_{side}", adjusted=False)
        bnd = compute_bounds(
            test, cal, method=method, confidence_level=c["confidence_level"], rng=gen,
            design=design, estimand=c["estimand"], **options,
        )  # fmt: skip
        if np.isnan(bnd.low).any() or np.isnan(bnd.high).any():
            raise NotInformativeError(
                f"the {method!r} interval of model {c['names'][side == 'b']!r} is undefined for "
                "these counts (judge no better than chance after the method's adjustment)"
            )
        if bnd.estimate is None:
            points.append(float(clip_warned(rogan_gladen_counts(test, cal), stacklevel=5)))
        else:
            points.append(float(bnd.estimate))
        bounds.append((float(bnd.low), float(bnd.high)))
    (la, ua), (lb, ub) = bounds
    ea, eb = points
    est = ea - eb
    low = est - np.hypot(ea - la, ub - eb)
    high = est + np.hypot(ua - ea, eb - lb)
    return Comparison(
        estimate=est,
        ci=_interval(low, high, c),
        estimate_a=ea,
        estimate_b=eb,
        pvalue=None,
        prob_a_greater=None,
        standard_error=None,
        **c,
    )


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


# ============================================================================ batches
def difference_bounds_batch(
    a: dict[str, Any],
    b: dict[str, Any],
    *,
    shared: bool,
    method: str,
    confidence_level: float,
    pairs: tuple[Any, Any, Any, Any] | None = None,
    reps: int = 2000,
    rng: Any = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference intervals for a batch of data sets (no validation; for simulation studies).

    ``a`` and ``b`` map ``x, n, tp, fn, tn, fp`` to arrays of one batch shape (with ``shared``,
    ``b``'s calibration entries are ignored); ``pairs`` = (n11, n10, n01, n00) arrays for paired
    test items. ``method`` is one of :data:`DIFFERENCE_METHODS`; ``reps`` is the number of
    bootstrap replicates or posterior draws. Returns (low, high, estimate) arrays, NaN where the
    interval is undefined (a calibration set with q̂0 + q̂1 <= 1 for the frequentist methods).
    The same kernels as :func:`difference` (which adds validation, warnings and the result).
    """
    check_method(method, DIFFERENCE_METHODS, capability="batched differences")
    a = {k: np.asarray(v, dtype=float) for k, v in a.items()}
    b = {k: np.asarray(v, dtype=float) for k, v in b.items()}
    if shared:
        b = {**b, **{k: a[k] for k in ("tp", "fn", "tn", "fp")}}
    level = float(confidence_level)
    alpha = 1.0 - level
    n11 = None if pairs is None else np.asarray(pairs[0], dtype=float)

    def informative(c):
        with np.errstate(divide="ignore", invalid="ignore"):
            return c["tn"] / (c["tn"] + c["fp"]) + c["tp"] / (c["tp"] + c["fn"]) > 1.0

    ok = informative(a) & informative(b)
    est = _clipped_rg(a) - _clipped_rg(b)
    if method in ("adjusted-wald", "wald"):
        z = float(z_value(level))
        centre, se = _delta_kernel(
            a, b, z=z, adjusted=method == "adjusted-wald", shared=shared, pair_n11=n11
        )
        low, high = centre - z * se, centre + z * se
    else:
        gen = check_rng(rng)
        groups = [0, 0] if shared else [0, 1]
        shape = np.broadcast_shapes(*(np.shape(v) for v in (*a.values(), *b.values())))
        a = {k: np.broadcast_to(v, shape) for k, v in a.items()}
        b = {k: np.broadcast_to(v, shape) for k, v in b.items()}
        size = int(np.prod(shape))
        low, high = np.empty(size), np.empty(size)
        est = np.broadcast_to(est, shape).reshape(-1).copy()
        chunk = max(1, _CHUNK // (4 * reps))
        flat = [{k: v.reshape(-1) for k, v in d.items()} for d in (a, b)]
        pflat = None if pairs is None else [np.broadcast_to(p, shape).reshape(-1) for p in pairs]
        for s in range(0, size, chunk):
            sl = slice(s, min(s + chunk, size))
            ca, cb = ({k: v[sl] for k, v in d.items()} for d in flat)
            cals_s = [ca] if shared else [ca, cb]
            if method == "bootstrap":
                pp = None if pflat is None else tuple(p[sl] for p in pflat)
                with np.errstate(divide="ignore", invalid="ignore"):
                    th = _bootstrap_thetas([ca, cb], groups, cals_s, reps, gen, pairs=pp)
                d = th[..., 0] - th[..., 1]
                q = np.full((2, d.shape[1]), np.nan)
                has = ~np.isnan(d).all(axis=0)
                if has.any():
                    q[:, has] = np.nanquantile(d[:, has], [alpha / 2, 1 - alpha / 2], axis=0)
            else:
                th, w = _posterior_draws([ca, cb], groups, cals_s, reps, gen)
                d = th[..., 0] - th[..., 1]
                q = weighted_quantile(d, w, [alpha / 2, 1 - alpha / 2])
                est[sl] = np.sum(w * d, axis=0)
            low[sl], high[sl] = q[0], q[1]
        low, high, est = (v.reshape(shape) for v in (low, high, est))
    if method != "bayes":
        low, high = np.where(ok, low, np.nan), np.where(ok, high, np.nan)
    return np.clip(low, -1.0, 1.0), np.clip(high, -1.0, 1.0), est


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
