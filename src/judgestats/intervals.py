"""Confidence intervals for the corrected rate θ: every method, in one explicit registry.

=============================  ==============================================================
name                           method (point estimate it reports)
=============================  ==============================================================
``adjusted-wald``              the paper's interval (eq. (8)): Lang & Reiczigel's adjusted
                               Wald with p̃, q̃0, q̃1 ("add two successes and two failures")
                               and the centre shift dθ̃ (Rogan–Gladen θ̂)
``wald``                       plain delta-method Wald interval θ̂ ± z·√Var(θ̂), Var from
                               eq. (15) at the unadjusted estimates (Rogan–Gladen θ̂)
``bootstrap``                  parametric percentile bootstrap of the three binomials;
                               undefined replicates (q0* + q1* <= 1) are counted and
                               reported (Rogan–Gladen)
``profile-likelihood``         inverted likelihood-ratio test in the joint binomial model, q0
                               and q1 profiled out, ½ in place of a zero count
                               (:mod:`judgestats.likelihood`; maximum likelihood)
``profile-likelihood-t``       the same with the small-calibration cut-off t²(min(m0, m1) − 1)
``profile-map``                the profile-likelihood-t interval widened to contain the
                               marginal posterior mode of θ under flat priors
                               (:mod:`judgestats.profile_map`)
``adjusted-wald+profile-map``  the smallest interval containing both of those (profile-map's
                               mode); ``method="auto"`` answers with it where adjusted-Wald
                               may miss (:mod:`judgestats.auto`)
``bayes``                      exact posterior of θ by quadrature (:mod:`judgestats.posterior`);
                               equal-tailed or highest-density interval, posterior
                               mean/median/mode
=============================  ==============================================================

:data:`METHODS` lists them with what each needs and reports (:class:`IntervalMethod`): whether
it needs q̂0 + q̂1 > 1, its point estimate, its reference, and its weak-regime rule (when
:func:`judgestats.correct` warns ``WeakCalibrationWarning``) with the advice it gives. Every
method is vectorised over batches of data sets (counts objects holding arrays). Intervals lie
in [0, 1] and lower <= upper always holds. Where a method needs an informative judge and a data
set has q̂0 + q̂1 <= 1, the batch functions return NaN bounds (the public entry points raise
:class:`NotInformativeError` instead). :func:`register_interval_method` adds a user's method.

References
----------
Lang, Z. & Reiczigel, J. (2014). Confidence limits for prevalence of disease adjusted for
estimated sensitivity and specificity. Preventive Veterinary Medicine 113, 13–22.
Agresti, A. & Coull, B. A. (1998). Approximate is better than "exact" for interval estimation of
binomial proportions. The American Statistician 52, 119–126.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import kernels
from ._validation import (
    ArgumentTypeError,
    MethodError,
    NotInformativeError,
    SamplingWarning,
    broadcast,
    check_choice,
    check_confidence_level,
    check_informative,
    check_positive_int,
    check_probability,
    check_rng,
    check_sample_size,
)
from .counts import ConfusionCounts, JudgedCounts
from .designs import (
    DEFAULT_DESIGN,
    DESIGNS,
    JudgeConditionalDesign,
    RoganGladenDesign,
    as_design,
)
from .designs.bounds import (
    conditional_adjusted_wald,
    conditional_bayes,
    conditional_bootstrap,
    conditional_degenerate,
    conditional_wald,
    judge_class_missing,
)
from .designs.capabilities import add_method, methods_for
from .designs.capabilities import check_method as check_table
from .kernels import (
    BOUNDARY_RULES,
    Bounds,
    adjusted_wald_bounds,
    percentile_nan_last,
    rogan_gladen_raw,
    wald_bounds,
    z_value,
)
from .likelihood import boundary_cells, profile_likelihood_bounds
from .posterior import INTERVALS, POINTS, theta_posterior
from .profile_map import profile_map_bounds
from .repeated import clustered_bounds, is_clustered
from .spec import AUTO, EstimationSpec, resolve_spec

__all__ = [
    "DESIGNS",
    "HULL",
    "METHODS",
    "MIN_PER_CLASS",
    "NAIVE",
    "Bounds",
    "IntervalMethod",
    "adjusted_wald_interval",
    "bounds_at",
    "compute_bounds",
    "effective_profile_map",
    "get_method",
    "hull_bounds",
    "implementation",
    "interval_methods",
    "known_bounds",
    "rate_spec",
    "register_interval_method",
    "rogan_gladen_variance",
    "spec_bounds",
    "wald_interval",
    "weak_calibration",
    "z_value",
]

#: ``correct()`` warns (WeakCalibrationWarning) for the Rogan–Gladen-based interval methods when
#: a human class has fewer calibration items than this. The rule looks only at the class sizes,
#: never at how good the judge looks (q̂0, q̂1): a rule on the observed error rates lets through
#: exactly the calibration sets on which a weak judge happened to look good, and those are the
#: sets where the interval misses. Its measured coverage: README, "Which interval method when";
#: the rule against issue 27's two criteria, beside every alternative tried:
#: benchmarks/results/warning_rules.md.
MIN_PER_CLASS = 100


#: The estimator families the implementations are for (:attr:`judgestats.designs.Design.family`).
PAPER, CONDITIONAL = RoganGladenDesign.family, JudgeConditionalDesign.family

#: The method that holds both adjusted-Wald's and profile-map's interval (``method="auto"``
#: answers with it where adjusted-Wald may miss: :mod:`judgestats.auto`).
HULL = "adjusted-wald+profile-map"

#: The contrast "method" of simulation and split studies: the naive judged rate p̂ with its
#: Wilson interval, which ignores the judge's errors. Not a correction, so not registered for
#: :func:`judgestats.correct`.
NAIVE = "naive-wilson"


def naive_bounds(test: JudgedCounts, confidence_level: Any) -> Bounds:
    """:data:`NAIVE` on (batched) counts: Wilson bounds of p̂, with p̂ as the estimate."""
    low, high = kernels.wilson_bounds(test.positive, test.n, z_value(confidence_level))
    p = np.asarray(test.positive, dtype=float) / np.asarray(test.n, dtype=float)
    return Bounds(low, high, _none_undefined(low), estimate=p)


def _out(x: np.ndarray) -> Any:
    return float(x) if np.ndim(x) == 0 else x


# ----------------------------------------------------------------------------- primitives
def _validated(p, q0, q1, n, m0, m1, *, m_positive: bool) -> list[np.ndarray]:
    p = check_probability("p", p)
    q0 = check_probability("q0", q0)
    q1 = check_probability("q1", q1)
    n = check_sample_size("n", n, positive=True, allow_inf=True)
    m0 = check_sample_size("m0", m0, positive=m_positive)
    m1 = check_sample_size("m1", m1, positive=m_positive)
    return broadcast(p=p, q0=q0, q1=q1, n=n, m0=m0, m1=m1)


def adjusted_wald_interval(
    p: Any,
    q0: Any,
    q1: Any,
    n: Any,
    m0: Any,
    m1: Any,
    *,
    confidence_level: Any = 0.95,
    boundary: str = "widen",
) -> tuple[Any, Any]:
    """Adjusted-Wald interval for θ, exactly as the paper's eq. (8).

    With z = Φ⁻¹(1 − α/2), ñ = n + z², m̃0 = m0 + 2, m̃1 = m1 + 2,
    p̃ = (n p̂ + z²/2)/(n + z²), q̃0 = (m0 q̂0 + 1)/(m0 + 2), q̃1 = (m1 q̂1 + 1)/(m1 + 2),
    θ̃ = (p̃ + q̃0 − 1)/(q̃0 + q̃1 − 1) and
    dθ̃ = 2z²(−(1 − θ̃) q̃0(1 − q̃0)/m̃0 + θ̃ q̃1(1 − q̃1)/m̃1), the interval is

        θ̃ + dθ̃ ± z √[(p̃(1−p̃)/ñ + (1−θ̃)² q̃0(1−q̃0)/m̃0 + θ̃² q̃1(1−q̃1)/m̃1)] / (q̃0 + q̃1 − 1),

    truncated to [0, 1]. As printed in the paper, dθ̃ is *not* divided by (q̃0 + q̃1 − 1)².

    **Boundary rule.** When the whole interval lies below 0 (or above 1), the truncation leaves
    a single point, [0, 0] (or [1, 1]), which no finite sample supports. With the default
    ``boundary="widen"`` the far bound is then z times eq. (8)'s standard error evaluated at
    the boundary, z·√(p̃(1−p̃)/ñ + q̃0(1−q̃0)/m̃0)/(q̃0 + q̃1 − 1) for θ = 0 (q̃1 in place of
    q̃0 for θ = 1). It changes only those data sets; everywhere else the interval is the
    paper's, digit for digit. ``boundary="truncate"`` gives the paper's truncation always.

    Parameters
    ----------
    p : float or array_like
        Judged positive rate p̂ on the test set.
    q0, q1 : float or array_like
        Calibration specificity q̂0 and sensitivity q̂1.
    n : float or array_like
        Test-set size (> 0); ``numpy.inf`` gives the n → ∞ limit (no test-set noise, p̃ = p̂).
    m0, m1 : float or array_like
        Calibration items with human label 0 and 1 (>= 0).
    confidence_level : float or array_like, default 0.95
        Two-sided level 1 − α, strictly inside (0, 1).
    boundary : {"widen", "truncate"}, default "widen"
        What to do when the interval lies entirely outside [0, 1] (see above).

    Returns
    -------
    (low, high) : tuple of float or ndarray
        Broadcast over all arguments; floats when every argument is a scalar.

    Raises
    ------
    ProbabilityError, CountError, ConfidenceLevelError
        On out-of-range arguments (NaN included).
    NotInformativeError
        Where q̂0 + q̂1 <= 1 or q̃0 + q̃1 <= 1 (the judge is no better than chance).

    References
    ----------
    Paper eqs. (8) and (11); Lang & Reiczigel (2014).

    Examples
    --------
    >>> import judgestats as js
    >>> lo, hi = js.adjusted_wald_interval(0.4, 0.7, 0.9, 1000, 200, 200)
    >>> round(lo, 6), round(hi, 6)
    (0.056351, 0.262733)
    """
    p, q0, q1, n, m0, m1 = _validated(p, q0, q1, n, m0, m1, m_positive=False)
    cl = check_confidence_level(confidence_level)
    check_choice("boundary", boundary, BOUNDARY_RULES)
    check_informative(q0, q1, what="q̂0 + q̂1")
    q0_t, q1_t = (m0 * q0 + 1) / (m0 + 2), (m1 * q1 + 1) / (m1 + 2)
    check_informative(q0_t, q1_t, what="the adjusted q̃0 + q̃1")
    low, high, _ = adjusted_wald_bounds(p, q0, q1, n, m0, m1, z_value(cl), boundary=boundary)
    return _out(low), _out(high)


def wald_interval(
    p: Any, q0: Any, q1: Any, n: Any, m0: Any, m1: Any, *, confidence_level: Any = 0.95
) -> tuple[Any, Any]:
    """Plain delta-method (Wald) interval θ̂ ± z √Var(θ̂), Var from paper eq. (15).

    Centred at the unclipped Rogan–Gladen θ̂ with the unadjusted p̂, q̂0, q̂1; truncated to
    [0, 1]. It degenerates (zero width) when p̂, q̂0, q̂1 are all 0 or 1 and under-covers for
    small calibration sets: use it to compare, not to report. Arguments as in
    :func:`adjusted_wald_interval` (here m0, m1 must be > 0).

    Examples
    --------
    >>> import judgestats as js
    >>> low, high = js.intervals.wald_interval(0.6, 0.7, 0.9, 1000, 200, 200, confidence_level=0.95)
    >>> round(float(low), 4), round(float(high), 4)
    (0.419, 0.581)
    """
    p, q0, q1, n, m0, m1 = _validated(p, q0, q1, n, m0, m1, m_positive=True)
    cl = check_confidence_level(confidence_level)
    check_informative(q0, q1, what="q̂0 + q̂1")
    low, high = wald_bounds(p, q0, q1, n, m0, m1, z_value(cl))
    return _out(low), _out(high)


def rogan_gladen_variance(p: Any, q0: Any, q1: Any, n: Any, m0: Any, m1: Any) -> Any:
    """Asymptotic variance of θ̂ by the delta method (paper eq. (15)).

    Var(θ̂) = [p̂(1−p̂)/n + (1−θ̂)² q̂0(1−q̂0)/m0 + θ̂² q̂1(1−q̂1)/m1] / (q̂0 + q̂1 − 1)², with the
    unclipped θ̂; ``n = inf`` drops the test-set term.

    Examples
    --------
    The delta-method variance of θ̂ (paper eq. (15)) at p̂ = 0.6, q̂0 = 0.7, q̂1 = 0.9:

    >>> import judgestats as js
    >>> round(float(js.intervals.rogan_gladen_variance(0.6, 0.7, 0.9, 1000, 200, 200)), 6)
    0.001708
    """
    p, q0, q1, n, m0, m1 = _validated(p, q0, q1, n, m0, m1, m_positive=True)
    check_informative(q0, q1, what="q̂0 + q̂1")
    return _out(kernels.rogan_gladen_variance(p, q0, q1, n, m0, m1))


# ----------------------------------------------------------------------------- weak regimes
def _small_class(calibration: ConfusionCounts, test: Any = None, design: Any = None) -> np.ndarray:
    """min(m0, m1) < MIN_PER_CLASS (batch mask)."""
    return np.minimum(np.asarray(calibration.m0), np.asarray(calibration.m1)) < MIN_PER_CLASS


def _degenerate(calibration: ConfusionCounts, test: Any = None, design: Any = None) -> np.ndarray:
    """q̂0 or q̂1 in {0, 1}, or (``test`` given) p̂ in {0, 1} (batch mask)."""
    c = calibration
    cells = [np.asarray(a) for a in (c.tn, c.fp, c.tp, c.fn)]
    out = np.zeros(np.broadcast_shapes(*(a.shape for a in cells)), dtype=bool)
    for a in cells:
        out = out | (a == 0)
    if test is not None:
        x, n = np.asarray(test.positive), np.asarray(test.n)
        out = out | (x == 0) | (x == n)
    return out


def _small_or_degenerate(
    calibration: ConfusionCounts, test: Any = None, design: Any = None
) -> np.ndarray:
    return _small_class(calibration) | _degenerate(calibration, test)


# ----------------------------------------------------------------------------- methods
def _rates(test: JudgedCounts, cal: ConfusionCounts) -> list[np.ndarray]:
    shape = np.broadcast_shapes(test.shape, cal.shape)
    arrays = (test.p_hat, cal.specificity, cal.sensitivity, test.n, cal.m0, cal.m1)
    return [np.broadcast_to(np.asarray(a, dtype=float), shape) for a in arrays]


def _mask_uninformative(q0, q1, low, high) -> tuple[np.ndarray, np.ndarray]:
    ok = q0 + q1 > 1.0
    return np.where(ok, low, np.nan), np.where(ok, high, np.nan)


def _none_undefined(low: np.ndarray) -> np.ndarray:
    return np.zeros(np.shape(low), dtype=np.int64)


def _adjusted_wald_method(
    test, calibration, *, confidence_level, rng=None, boundary: str = "widen"
) -> Bounds:
    check_choice("boundary", boundary, BOUNDARY_RULES)
    p, q0, q1, n, m0, m1 = _rates(test, calibration)
    low, high, widened = adjusted_wald_bounds(
        p, q0, q1, n, m0, m1, z_value(confidence_level), boundary=boundary
    )
    low, high = _mask_uninformative(q0, q1, low, high)
    return Bounds(low, high, _none_undefined(low), widened=widened)


def _wald_method(test, calibration, *, confidence_level, rng=None) -> Bounds:
    p, q0, q1, n, m0, m1 = _rates(test, calibration)
    low, high = wald_bounds(p, q0, q1, n, m0, m1, z_value(confidence_level))
    return Bounds(low, high, _none_undefined(low))


def _bootstrap_method(
    test, calibration, *, confidence_level, rng=None, n_resamples: int = 9999
) -> Bounds:
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    gen = check_rng(rng)
    p, q0, q1, n, m0, m1 = _rates(test, calibration)
    shape = p.shape
    flat = [a.reshape(-1) for a in (p, q0, q1, n, m0, m1)]
    size = flat[0].size
    alpha = 1.0 - np.broadcast_to(np.asarray(confidence_level, dtype=float), shape).reshape(-1)
    low, high = np.empty(size), np.empty(size)
    undefined = np.empty(size, dtype=np.int64)
    chunk = max(1, 4_000_000 // n_resamples)  # bound memory: ~32 MB per resampled array
    for start in range(0, size, chunk):
        sl = slice(start, min(start + chunk, size))
        pp, qq0, qq1, nn, mm0, mm1 = (a[sl] for a in flat)
        draws = kernels.draw_rates(gen, pp, qq0, qq1, nn, mm0, mm1, (n_resamples, pp.size))
        th = np.clip(rogan_gladen_raw(*draws), 0.0, 1.0)
        valid = np.count_nonzero(~np.isnan(th), axis=0)
        th.sort(axis=0)  # NaN last
        a = alpha[sl]
        low[sl] = percentile_nan_last(th, valid, a / 2.0)
        high[sl] = percentile_nan_last(th, valid, 1.0 - a / 2.0)
        undefined[sl] = n_resamples - valid
    low, high = _mask_uninformative(q0.reshape(-1), q1.reshape(-1), low, high)
    return Bounds(low.reshape(shape), high.reshape(shape), undefined.reshape(shape), n_resamples)


def _profile_method(test, calibration, *, confidence_level, rng=None) -> Bounds:
    low, high, mle = profile_likelihood_bounds(test, calibration, confidence_level)
    widened = boundary_cells(test, calibration)  # the zero-cell rule
    return Bounds(low, high, _none_undefined(low), estimate=mle, widened=widened)


def _profile_t_method(test, calibration, *, confidence_level, rng=None) -> Bounds:
    low, high, mle = profile_likelihood_bounds(
        test, calibration, confidence_level, small_sample=True
    )
    widened = boundary_cells(test, calibration)
    return Bounds(low, high, _none_undefined(low), estimate=mle, widened=widened)


def _profile_map_method(test, calibration, *, confidence_level, rng=None) -> Bounds:
    low, high, mode = profile_map_bounds(test, calibration, confidence_level)
    widened = boundary_cells(test, calibration)
    return Bounds(low, high, _none_undefined(low), estimate=mode, widened=widened)


def _hull_method(test, calibration, *, confidence_level, rng=None) -> Bounds:
    """Return the smallest interval holding adjusted-Wald's and profile-map's (with PM's mode)."""
    aw = _adjusted_wald_method(test, calibration, confidence_level=confidence_level)
    pm = _profile_map_method(test, calibration, confidence_level=confidence_level)
    return hull_bounds(aw, pm)


def hull_bounds(aw: Bounds, pm: Bounds) -> Bounds:
    """:data:`HULL` from the adjusted-Wald and profile-map bounds of the same data sets.

    Examples
    --------
    The smallest interval holding both the adjusted-Wald and the profile-map interval
    (``"adjusted-wald+profile-map"``):

    >>> import judgestats as js
    >>> test = js.JudgedCounts(positive=600, n=1000)
    >>> cal = js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60)
    >>> aw = js.intervals.compute_bounds(test, cal, method="adjusted-wald", confidence_level=0.95)
    >>> pm = js.intervals.compute_bounds(test, cal, method="profile-map", confidence_level=0.95)
    >>> hull = js.intervals.hull_bounds(aw, pm)
    >>> [(round(float(b.low), 4), round(float(b.high), 4)) for b in (aw, pm, hull)]
    [(0.417, 0.5806), (0.4134, 0.5796), (0.4134, 0.5806)]
    """
    low, high = np.fmin(aw.low, pm.low), np.fmax(aw.high, pm.high)  # AW may be NaN: PM's
    flags = [np.asarray(b.widened) for b in (aw, pm) if b.widened is not None]
    widened = np.logical_or.reduce(flags) if flags else None
    return aw._replace(low=low, high=high, estimate=pm.estimate, widened=widened)  # clusters


def effective_profile_map(spec: EstimationSpec, clusters: Any) -> Bounds:
    """Profile-map on ``clusters.effective_counts()`` (repeated items: ``repeated.py``).

    What ``method="auto"`` hulls with the cluster-robust adjusted-Wald interval where it widens
    an interval of repeated items (:meth:`judgestats.repeated.ClusterSummary.effective_counts`).

    Examples
    --------
    Every calibration item judged and labelled twice (two identical rows):

    >>> import judgestats as js
    >>> h = [0] * 60 + [1] * 40
    >>> j = [0] * 48 + [1] * 12 + [1] * 34 + [0] * 6
    >>> cal = js.ConfusionCounts.from_labels(human=h * 2, judge=j * 2,
    ...                                      cluster=list(range(100)) * 2)
    >>> test = js.JudgedCounts.from_labels([1] * 150 + [0] * 150, cluster=range(100, 400))
    >>> res = js.correct(test, cal, confidence_level=0.95)
    >>> res.clusters.effective_counts()
    (JudgedCounts(positive=150, n=300), ConfusionCounts(tp=33, fn=6, tn=47, fp=12))
    >>> spec = js.intervals.rate_spec(method="profile-map", confidence_level=0.95)
    >>> b = js.intervals.effective_profile_map(spec, res.clusters)
    >>> round(float(b.low), 4), round(float(b.high), 4)
    (0.2976, 0.6323)
    """
    pm = _profile_map_method(*clusters.effective_counts(), confidence_level=spec.confidence_level)
    return pm._replace(clusters=clusters)


def bounds_at(bounds: Bounds, index: Any) -> Bounds:
    """Return the bounds of the data set(s) at ``index`` of a batch (every per-set array).

    Examples
    --------
    Two data sets in one batch; the bounds of the second:

    >>> import numpy as np
    >>> import judgestats as js
    >>> test = js.JudgedCounts(positive=np.array([600, 700]), n=np.array([1000, 1000]))
    >>> cal = js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60)
    >>> bounds = js.intervals.compute_bounds(test, cal, method="adjusted-wald",
    ...                                      confidence_level=0.95)
    >>> second = js.intervals.bounds_at(bounds, 1)
    >>> round(float(second.low), 4), round(float(second.high), 4)
    (0.5925, 0.7444)
    """
    def take(a: Any) -> Any:
        return None if a is None else np.asarray(a)[index]

    return bounds._replace(
        low=take(bounds.low), high=take(bounds.high), undefined=take(bounds.undefined),
        estimate=take(bounds.estimate), widened=take(bounds.widened),
    )  # fmt: skip


def known_bounds(known: dict[str, Bounds], method: str) -> Bounds | None:
    """Return ``method``'s bounds from ones already computed for the same data, or None.

    ``known`` maps method names to bounds computed at the same level and design without
    method options (:func:`judgestats.auto.choose_method` records the two it compares;
    :func:`judgestats.evaluate` computes every group's in one batch); :data:`HULL` is built
    from adjusted-Wald's and profile-map's.

    Examples
    --------
    >>> import judgestats as js
    >>> test = js.JudgedCounts(positive=600, n=1000)
    >>> cal = js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60)
    >>> known = {m: js.intervals.compute_bounds(test, cal, method=m, confidence_level=0.95)
    ...          for m in ("adjusted-wald", "profile-map")}
    >>> hull = js.intervals.known_bounds(known, "adjusted-wald+profile-map")
    >>> round(float(hull.low), 4), round(float(hull.high), 4)
    (0.4134, 0.5806)
    >>> js.intervals.known_bounds(known, "wald") is None
    True
    """
    if method in known:
        return known[method]
    if method == HULL and "adjusted-wald" in known and "profile-map" in known:
        return hull_bounds(known["adjusted-wald"], known["profile-map"])
    return None


def _bayes_method(
    test,
    calibration,
    *,
    confidence_level,
    rng=None,
    point: str = "mean",
    interval: str = "eti",
    priors: Any = None,
) -> Bounds:
    """Credible interval and point summary from :func:`theta_posterior` (never undefined)."""
    point = check_choice("point", point, POINTS)
    interval = check_choice("interval", interval, INTERVALS)
    post = theta_posterior(test, calibration, priors=priors)
    low, high = (np.asarray(v, dtype=float) for v in post.interval(confidence_level, interval))
    estimate = np.asarray(post.point(point), dtype=float)
    return Bounds(low, high, _none_undefined(low), estimate=estimate)


# ----------------------------------------------------------------------------- designs
# The same interval ideas for the judge-conditional estimator (the random and by-judge-label
# designs): their implementations and weak-regime rules are in :mod:`judgestats.designs.bounds`.
_DESIGN_ADVICE = "use method='adjusted-wald' or 'bayes'"
_MISSING_ADVICE = (
    "label calibration items of both judge labels, or use method='bayes' (its interval "
    "spans that rate's whole range)"
)
_CONDITIONAL_REF = "{design_reference}"


def _conditional_methods() -> tuple[IntervalMethod, ...]:
    common = {"requires_informative": False, "family": CONDITIONAL}
    return (
        _method(
            "adjusted-wald", conditional_adjusted_wald,
            "delta-method interval of the judge-conditional θ with pseudo-counts (one success "
            "and one failure added to PPV and FOR, Wilson's z²/2 to π)",
            estimator="{design_estimator}",
            reference=f"{_CONDITIONAL_REF}; Agresti & Caffo (2000) pseudo-counts",
            weak_rule=judge_class_missing, weak_advice=_MISSING_ADVICE, **common,
        ),
        _method(
            "wald", conditional_wald,
            "delta-method Wald interval of the judge-conditional θ at the plain estimates",
            estimator="{design_estimator}", reference=f"{_CONDITIONAL_REF} (delta method)",
            weak_rule=conditional_degenerate, weak_advice=_DESIGN_ADVICE, **common,
        ),
        _method(
            "bootstrap", conditional_bootstrap,
            "parametric percentile bootstrap of the three binomials (π, PPV, FOR)",
            estimator="{design_estimator}",
            reference=f"{_CONDITIONAL_REF}; parametric percentile bootstrap",
            weak_rule=conditional_degenerate, weak_advice=_DESIGN_ADVICE, **common,
        ),
        _method(
            "bayes", conditional_bayes,
            "exact posterior of θ = π·PPV + (1 − π)·FOR under independent Beta priors "
            "(Jeffreys' Beta(1/2, 1/2) by default), equal-tailed credible interval, by quadrature",
            estimator="posterior {point} (Beta priors on π, PPV, FOR)",
            reference=f"{_CONDITIONAL_REF}; exact Beta posteriors by quadrature", **common,
        ),
    )  # fmt: skip


# ----------------------------------------------------------------------------- registry
_PAPER = "Lee et al. (2026), eq. (8); Lang & Reiczigel (2014)"
_PROFILE = "profile likelihood (Wilks' theorem; e.g. Pawitan, In All Likelihood, 2001)"
_BAYES = "exact Bayesian posterior of the misclassification model (Beta priors), by quadrature"
_TO_PROFILE_MAP = "use method='profile-map'"
#: what the plug-in methods' warning says when an estimated rate is 0 or 1
PLUG_IN_ADVICE = "use method='adjusted-wald' or 'profile-map'"


@dataclass(frozen=True, slots=True)
class IntervalMethod:
    """An interval method's implementation, and what it needs and reports.

    ``func(test, calibration, *, confidence_level, rng, **options) -> Bounds`` on (batched)
    counts (the judge-conditional family's also take ``design``); ``options`` are the keyword
    arguments beyond those. ``requires_informative``: the method is undefined when
    q̂0 + q̂1 <= 1 (it rests on the Rogan–Gladen ratio). ``estimator`` names the point estimate
    reported with it (``{point}`` is filled from the options, ``{design_estimator}`` from the
    design). ``reference`` is what reports cite. ``weak_rule(calibration, test, design)``
    returns the batch mask where :func:`judgestats.correct` warns ``WeakCalibrationWarning``
    (None: never), and ``weak_advice`` what the warning recommends. ``family`` is the
    estimator family it implements (:attr:`judgestats.designs.Design.family`): the same name in
    another family is another entry, the same interval idea applied to that estimator. Which
    methods a path allows is the capability table's (:mod:`judgestats.designs.capabilities`).

    Examples
    --------
    Made by :func:`register_interval_method`; :func:`get_method` looks one up:

    >>> import judgestats as js
    >>> method = js.intervals.get_method("profile-map")
    >>> method.name, method.requires_informative
    ('profile-map', False)
    """

    name: str
    func: Callable[..., Bounds]
    description: str
    options: tuple[str, ...]
    requires_informative: bool = True
    estimator: str = "Rogan–Gladen"
    reference: str = ""
    weak_rule: Callable[..., np.ndarray] | None = None
    weak_advice: str = ""
    family: str = PAPER

    def estimator_name(self, options: Any = None, design: Any = DEFAULT_DESIGN) -> str:
        """Return the point estimate's name, with the method's option values filled in."""
        params = inspect.signature(self.func).parameters
        values = {k: p.default for k, p in params.items() if k in self.options}
        values.update(options or {})
        return self.estimator.format(design_estimator=design.estimator, **values)

    def reference_for(self, design: Any = DEFAULT_DESIGN) -> str:
        """Return what reports cite for the method, with the design's reference filled in."""
        return self.reference.format(design_reference=design.reference)

    def run(self, test: Any, calibration: Any, *, design: Any, confidence_level: Any,
            rng: Any = None, **options: Any) -> Bounds:  # fmt: skip
        """Call the implementation (with the design where its family needs one)."""
        if self.family == CONDITIONAL:
            options["design"] = design
        return self.func(test, calibration, confidence_level=confidence_level, rng=rng,
                         **options)  # fmt: skip


_STANDARD = ("test", "calibration", "confidence_level", "rng", "design")


def _options_of(func: Callable[..., Bounds]) -> tuple[str, ...]:
    params = inspect.signature(func).parameters
    return tuple(k for k in params if k not in _STANDARD)


def _method(name: str, func: Callable[..., Bounds], description: str, **meta: Any):
    return IntervalMethod(name, func, description, _options_of(func), **meta)


#: Every built-in interval method implementation, in one place.
METHODS: tuple[IntervalMethod, ...] = (
    _method(
        "adjusted-wald", _adjusted_wald_method,
        "paper eq. (8): Lang & Reiczigel adjusted Wald", reference=_PAPER,
        weak_rule=_small_class, weak_advice=_TO_PROFILE_MAP,
    ),
    _method(
        "wald", _wald_method, "delta-method Wald at the unadjusted estimates (eq. (15))",
        reference="Lee et al. (2026), eq. (15) (delta method)",
        weak_rule=_small_or_degenerate, weak_advice=_TO_PROFILE_MAP,
    ),
    _method(
        "bootstrap", _bootstrap_method,
        "parametric percentile bootstrap of the three binomials",
        reference="parametric percentile bootstrap (Efron & Tibshirani, 1993)",
        weak_rule=_small_or_degenerate, weak_advice=_TO_PROFILE_MAP,
    ),
    _method(
        "profile-likelihood", _profile_method,
        "inverted likelihood-ratio test for θ in the joint model, q0 and q1 profiled out",
        requires_informative=False, estimator="maximum likelihood", reference=_PROFILE,
        weak_rule=_small_class,
        weak_advice="use method='profile-likelihood-t' or 'profile-map'",
    ),
    _method(
        "profile-likelihood-t", _profile_t_method,
        "profile likelihood with the small-calibration cut-off t²(min(m0, m1) − 1) in place "
        "of χ²₁",
        requires_informative=False, estimator="maximum likelihood", reference=_PROFILE,
    ),
    _method(
        "profile-map", _profile_map_method,
        "marginal posterior mode of θ (flat priors) with the small-calibration "
        "profile-likelihood interval (t cut-off), widened to contain the mode",
        requires_informative=False, estimator="marginal posterior mode (flat priors)",
        reference=f"{_PROFILE}; mode of the {_BAYES}",
    ),
    _method(
        HULL, _hull_method,
        "the smallest interval containing the adjusted-Wald and the profile-map intervals "
        "(what method='auto' answers with where adjusted-Wald may miss)",
        requires_informative=False, estimator="marginal posterior mode (flat priors)",
        reference=f"{_PAPER}; {_PROFILE}",
    ),
    _method(
        "bayes", _bayes_method,
        "exact posterior of θ under Beta priors (quadrature, no MCMC): equal-tailed or "
        "highest-density credible interval with the posterior mean, median or mode",
        requires_informative=False, estimator="posterior {point}", reference=_BAYES,
    ),
    # the same interval ideas for the judge-conditional estimator of the other designs
    *_conditional_methods(),
)  # fmt: skip

_REGISTRY: dict[tuple[str, str], IntervalMethod] = {(m.family, m.name): m for m in METHODS}


def register_interval_method(
    name: str, description: str, *, requires_informative: bool = True, **meta: Any
) -> Callable:
    """Register a user's counts-level interval function under ``name`` (decorator).

    The function takes ``(test, calibration, *, confidence_level, rng, **options)`` and returns
    :class:`Bounds`. ``requires_informative=False`` marks a method that answers even when the
    judge looks no better than chance (q̂0 + q̂1 <= 1); the others get NaN bounds there and
    :func:`judgestats.correct` raises :class:`NotInformativeError` before calling them. Further
    keywords are :class:`IntervalMethod` fields (``estimator``, ``reference``, ``weak_rule``,
    ``weak_advice``). The built-in methods cannot be replaced. The method joins the capability
    table's rows of corrections and differences under the paper's design, independent rows.

    Examples
    --------
    The built-in methods cannot be replaced:

    >>> import judgestats as js
    >>> try:
    ...     @js.intervals.register_interval_method("wald", "my Wald interval")
    ...     def my_wald(test, calibration, *, confidence_level, rng=None, **options):
    ...         pass
    ... except js.errors.ArgumentTypeError as error:
    ...     print(error)
    'wald' is a built-in interval method and cannot be replaced

    A method of your own under a new name. It is not run by the test suite: registering changes
    the method registry of the whole process, which the suite's other tests enumerate.

    >>> @js.intervals.register_interval_method("plain-wald", "Wald at the raw estimates",
    ...                                        estimator="Rogan–Gladen")  # doctest: +SKIP
    ... def plain_wald(test, calibration, *, confidence_level, rng=None, **options):
    ...     p, q0, q1 = test.p_hat, calibration.specificity, calibration.sensitivity
    ...     m0, m1 = calibration.m0, calibration.m1
    ...     low, high = js.intervals.wald_interval(p, q0, q1, test.n, m0, m1,
    ...                                            confidence_level=confidence_level)
    ...     return js.intervals.Bounds(low, high, undefined=0)
    >>> js.correct(js.JudgedCounts(positive=600, n=1000),  # doctest: +SKIP
    ...            js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60), method="plain-wald").ci
    ConfidenceInterval(low=0.418991, high=0.581009, method='plain-wald', confidence_level=0.95)
    """
    if name in {m.name for m in METHODS} or name == AUTO:
        raise ArgumentTypeError(f"{name!r} is a built-in interval method and cannot be replaced")

    def deco(func: Callable[..., Bounds]) -> Callable[..., Bounds]:
        _REGISTRY[(PAPER, name)] = _method(
            name, func, description, requires_informative=requires_informative, **meta
        )
        for target in ("rate", "difference"):
            add_method(name, judge="letter", target=target, design=DEFAULT_DESIGN,
                       repeated=False)  # fmt: skip
        return func

    return deco


def interval_methods(design: Any = DEFAULT_DESIGN) -> tuple[str, ...]:
    """Names of the interval methods of ``js.correct`` under ``design`` (built-ins first).

    ``"auto"`` (a choice between them per data set) is not listed.

    Examples
    --------
    >>> import judgestats as js
    >>> js.intervals.interval_methods("random")
    ('adjusted-wald', 'wald', 'bootstrap', 'bayes')
    """
    return tuple(m for m in methods_for("letter", "rate", as_design(design)) if m != AUTO)


def implementation(design: Any, method: str) -> IntervalMethod:
    """Return a method's implementation for a design's estimator family (validated elsewhere).

    Examples
    --------
    >>> import judgestats as js
    >>> method = js.intervals.implementation(js.designs.as_design("random"), "adjusted-wald")
    >>> method.name, method.estimator
    ('adjusted-wald', '{design_estimator}')
    """
    try:
        return _REGISTRY[(design.family, method)]
    except KeyError:
        raise MethodError(
            f"method {method!r} has no implementation for design={str(design)!r}"
        ) from None


def get_method(method: str, design: Any = DEFAULT_DESIGN) -> IntervalMethod:
    """Look up a method of ``js.correct`` for a design; an unknown name lists the valid ones.

    Examples
    --------
    >>> import judgestats as js
    >>> method = js.intervals.get_method("adjusted-wald")
    >>> method.name, method.estimator, method.requires_informative
    ('adjusted-wald', 'Rogan–Gladen', True)
    """
    design = as_design(design)
    check_table(method, judge="letter", target="rate", design=design)
    return implementation(design, method)


def rate_spec(
    *, method: Any, confidence_level: Any, design: Any = DEFAULT_DESIGN, repeated: bool = False,
    estimand: Any = "rows", options: Any = None, method_optional: bool = False,
) -> EstimationSpec:  # fmt: skip
    """Resolve the spec of a corrected rate (``js.correct``'s path), options checked.

    ``method_optional``: ``method=None`` gives the capability table's default for the path.

    Examples
    --------
    >>> import judgestats as js
    >>> spec = js.intervals.rate_spec(method="adjusted-wald", confidence_level=0.95)
    >>> spec.design, spec.method, spec.confidence_level
    ('by-human-label', 'adjusted-wald', 0.95)
    """
    return resolve_spec(
        judge="letter", target="rate", design=design, method=method,
        confidence_level=confidence_level, repeated=repeated, estimand=estimand,
        options=options, options_of=lambda d, m: implementation(d, m).options,
        method_optional=method_optional,
    )  # fmt: skip


def weak_calibration(
    calibration: ConfusionCounts, method: str, test: Any = None, design: Any = DEFAULT_DESIGN,
    *, clusters: Any = None,
) -> np.ndarray:  # fmt: skip
    """Boolean mask (batch shape) of the data sets where ``method`` is in its weak regime.

    The rule is the method's own (:attr:`IntervalMethod.weak_rule`):

    * ``"adjusted-wald"``: min(m0, m1) < :data:`MIN_PER_CLASS`;
    * ``"wald"``, ``"bootstrap"``: the same, or q̂0 or q̂1 equal to 0 or 1, or (``test`` given)
      p̂ equal to 0 or 1, where their variance (resampling distribution) treats that rate as
      known and the interval collapses;
    * ``"profile-likelihood"`` (χ²₁ cut-off): min(m0, m1) < :data:`MIN_PER_CLASS`;
    * ``"profile-likelihood-t"``, ``"profile-map"``, ``"bayes"``: never.

    Under the random and by-judge-label designs, ``"adjusted-wald"`` warns where a judge class
    that π̂ gives weight has no calibration item (its conditional rate enters as 1/2),
    ``"wald"`` and ``"bootstrap"`` also where π̂, PPV̂ or FOR̂ is 0 or 1; ``"bayes"`` never.

    Parameters
    ----------
    calibration : ConfusionCounts
        Calibration counts (one data set or a batch).
    method : str
        A registered interval method.
    test : JudgedCounts, optional
        The test counts, for the p̂ ∈ {0, 1} part of the plug-in rule.
    design : str or Design, default "by-human-label"
        The calibration design (:mod:`judgestats.designs`).
    clusters : ClusterSummary, optional
        With repeated items (one data set): the class-size rule counts the effective items of
        each human class (``clusters.sizes["q0"]``, ``["q1"]``: rows over the design effect).

    Examples
    --------
    Fewer than 100 calibration items in a class is the regime where adjusted-Wald may under-cover:

    >>> import judgestats as js
    >>> bool(js.intervals.weak_calibration(js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
    ...                                    "adjusted-wald"))
    False
    >>> bool(js.intervals.weak_calibration(js.ConfusionCounts(tp=45, fn=5, tn=35, fp=15),
    ...                                    "adjusted-wald"))
    True
    """
    design = as_design(design)
    spec = get_method(method, design)
    counts: Any = calibration if clusters is None else clusters.by_effective_items(calibration)
    shape = np.broadcast_shapes(np.shape(counts.m0), np.shape(counts.m1))
    if spec.weak_rule is None:
        return np.zeros(shape, dtype=bool)
    return np.broadcast_to(spec.weak_rule(counts, test, design), shape)


def spec_bounds(spec: EstimationSpec, test: Any, calibration: Any, rng: Any = None) -> Bounds:
    """Run a resolved spec's method on (possibly batched) counts; NaN where not informative.

    The design's implementation of the method (:func:`implementation`); counts with repeated
    items go to the cluster-robust intervals of :mod:`judgestats.repeated`. ``"auto"`` must be
    resolved per data set first (:mod:`judgestats.auto`).

    Examples
    --------
    >>> import judgestats as js
    >>> spec = js.intervals.rate_spec(method="wald", confidence_level=0.95)
    >>> bounds = js.intervals.spec_bounds(spec, js.JudgedCounts(positive=600, n=1000),
    ...                                   js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60))
    >>> round(float(bounds.low), 4), round(float(bounds.high), 4)
    (0.419, 0.581)
    """
    if spec.is_auto:
        raise MethodError("method='auto' chooses per data set: resolve it (judgestats.auto) first")
    if spec.design.needs_both_classes:
        calibration.check_both_classes()
    if spec.repeated and spec.method == HULL:  # the cluster-robust AW, profile-map at n_eff
        aw = clustered_bounds(spec.with_method("adjusted-wald"), test, calibration, rng)
        return hull_bounds(aw, effective_profile_map(spec, aw.clusters))
    if spec.repeated:
        return clustered_bounds(spec, test, calibration, rng)
    return implementation(spec.design, spec.method).run(
        test, calibration, design=spec.design, confidence_level=spec.confidence_level, rng=rng,
        **spec.options,
    )  # fmt: skip


def compute_bounds(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    *,
    method: str,
    confidence_level: Any,
    rng: Any = None,
    design: Any = DEFAULT_DESIGN,
    estimand: str = "rows",
    **options: Any,
) -> Bounds:
    """Run a method on (possibly batched) counts; NaN where not informative.

    Resolves the spec (:func:`rate_spec`) and calls :func:`spec_bounds`: ``design`` picks the
    method's implementation for how the calibration items were chosen
    (:mod:`judgestats.designs`; the by-human-label design needs both human classes), and counts
    with repeated items (built with ``cluster=``) go to the cluster-robust intervals of
    :mod:`judgestats.repeated`, for the mean over ``estimand`` (``"rows"`` or ``"items"``).

    Examples
    --------
    >>> import judgestats as js
    >>> bounds = js.intervals.compute_bounds(js.JudgedCounts(positive=600, n=1000),
    ...                                      js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
    ...                                      method="adjusted-wald", confidence_level=0.95)
    >>> round(float(bounds.low), 4), round(float(bounds.high), 4), int(bounds.undefined)
    (0.417, 0.5806, 0)
    """
    spec = rate_spec(method=method, confidence_level=confidence_level, design=design,
                     repeated=is_clustered(test, calibration), estimand=estimand,
                     options=options)  # fmt: skip
    return spec_bounds(spec, test, calibration, rng)


def warn_undefined_replicates(bounds: Bounds, stacklevel: int = 3) -> None:
    """Warn (SamplingWarning) when a bootstrap had replicates with q0* + q1* <= 1."""
    undefined = np.asarray(bounds.undefined)
    if bounds.n_resamples and undefined.any():
        total = int(undefined.max())
        warnings.warn(
            f"{total} of {bounds.n_resamples} bootstrap replicates undefined (q0* + q1* <= 1), "
            "excluded: the interval may be too narrow",
            SamplingWarning,
            stacklevel=stacklevel,
        )


def check_bounds_defined(bounds: Bounds, method: str) -> None:
    """Raise when a single-data-set interval could not be computed."""
    if np.isnan(bounds.low).any() or np.isnan(bounds.high).any():
        raise NotInformativeError(
            f"the {method!r} interval is undefined for these counts: the judge is no better than "
            "chance after the method's adjustment"
        )
