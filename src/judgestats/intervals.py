"""Confidence intervals for the corrected rate θ, registered by name.

=================  ===========================================================================
name               method
=================  ===========================================================================
``adjusted-wald``  the paper's interval (eq. ci): Lang & Reiczigel's adjusted Wald interval with
                   p̃, q̃0, q̃1 ("add two successes and two failures") and the centre shift dθ̃.
``wald``           plain delta-method Wald interval θ̂ ± z·√Var(θ̂) with Var from eq. (var),
                   evaluated at the unadjusted estimates (known to under-cover for small m).
``bootstrap``      parametric percentile bootstrap: resample the three binomials
                   (positive ~ Bin(n, p̂), tn ~ Bin(m0, q̂0), tp ~ Bin(m1, q̂1)), recompute the
                   clipped Rogan–Gladen estimate; undefined replicates (q0* + q1* <= 1) are
                   counted and reported, never dropped silently.
=================  ===========================================================================

Every method is vectorised over batches of data sets (counts objects holding arrays). Intervals
are truncated to [0, 1]; lower <= upper always holds. Where the judge is not informative on a
data set (q̂0 + q̂1 <= 1) the batch functions return NaN bounds (the public entry points raise
:class:`NotInformativeError` instead).

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
from typing import Any, NamedTuple

import numpy as np

from ._validation import (
    ArgumentTypeError,
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
from .estimators import rogan_gladen_raw

__all__ = [
    "IntervalMethod",
    "adjusted_wald_interval",
    "interval_methods",
    "rogan_gladen_variance",
    "wald_interval",
]


def z_value(confidence_level: Any) -> Any:
    """Two-sided normal quantile z = Φ⁻¹(1 − α/2) with α = 1 − confidence_level."""
    from scipy.special import ndtri  # lazy: keeps `import judgestats` light

    return ndtri(1.0 - (1.0 - np.asarray(confidence_level, dtype=float)) / 2.0)


#: what the adjusted-Wald interval does when it lies entirely outside [0, 1]
BOUNDARY_RULES = ("widen", "truncate")


def _out(x: np.ndarray) -> Any:
    return float(x) if np.ndim(x) == 0 else x


# ----------------------------------------------------------------------------- kernels
def adjusted_wald_parts(p, q0, q1, n, m0, m1, z) -> dict[str, np.ndarray]:
    """Compute the paper's adjusted quantities (eq. ci, adjusted:proportion) on validated arrays.

    Returns ñ, p̃, Var(p̃) = p̃(1 − p̃)/ñ, q̃0, q̃1, v0 = q̃0(1 − q̃0)/m̃0, v1 = q̃1(1 − q̃1)/m̃1,
    the denominator D̃ = q̃0 + q̃1 − 1 (NaN where <= 0), θ̃ and the centre shift dθ̃. ``n`` may
    be ``inf`` (no test noise: p̃ = p̂, Var(p̃) = 0).
    """
    p, q0, q1, n, m0, m1, z = (np.asarray(a, dtype=float) for a in (p, q0, q1, n, m0, m1, z))
    z2 = z * z
    finite = np.isfinite(n)
    nf = np.where(finite, n, 1.0)  # placeholder where n = inf (test noise vanishes)
    n_t = nf + z2  # ñ = n + z²
    p_t = np.where(finite, (nf * p + z2 / 2.0) / n_t, p)  # p̃
    var_p = np.where(finite, p_t * (1.0 - p_t) / n_t, 0.0)
    m0_t, m1_t = m0 + 2.0, m1 + 2.0  # m̃ = m + 2
    q0_t = (m0 * q0 + 1.0) / m0_t  # q̃0
    q1_t = (m1 * q1 + 1.0) / m1_t  # q̃1
    den = q0_t + q1_t - 1.0
    den = np.where(den > 0, den, np.nan)
    th = (p_t + q0_t - 1.0) / den  # θ̃
    v0 = q0_t * (1.0 - q0_t) / m0_t
    v1 = q1_t * (1.0 - q1_t) / m1_t
    d_th = 2.0 * z2 * (-(1.0 - th) * v0 + th * v1)  # dθ̃ (as in the paper: not divided by den²)
    return {
        "p": p_t, "var_p": var_p, "q0": q0_t, "q1": q1_t, "v0": v0, "v1": v1,
        "den": den, "theta": th, "shift": d_th,
    }


def adjusted_wald_bounds(
    p, q0, q1, n, m0, m1, z, *, boundary: str = "widen"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Paper eq. (ci) on validated arrays: (low, high, widened); NaN where q̃0 + q̃1 <= 1.

    The interval θ̃ + dθ̃ ± z·se is truncated to [0, 1]. When it lies entirely below 0 (or
    above 1), truncation would leave the single point 0 (or 1), an interval of zero width from
    finite samples. ``boundary="widen"`` (the default) then replaces the far bound by z times
    the adjusted standard error at that boundary, √(Var(p̃) + v0)/D̃ at θ = 0 and
    √(Var(p̃) + v1)/D̃ at θ = 1 (eq. ci's standard error evaluated at θ = 0 or 1), and flags
    the data set in ``widened``; ``boundary="truncate"`` keeps the paper's truncation.
    """
    a = adjusted_wald_parts(p, q0, q1, n, m0, m1, z)
    z = np.asarray(z, dtype=float)
    th, den, var_p, v0, v1 = a["theta"], a["den"], a["var_p"], a["v0"], a["v1"]
    se = np.sqrt(var_p + (1.0 - th) ** 2 * v0 + th**2 * v1) / den
    centre = th + a["shift"]
    low, high = centre - z * se, centre + z * se
    below, above = high <= 0.0, low >= 1.0
    widened = np.zeros(np.shape(low), dtype=bool)
    if boundary == "widen":
        high = np.where(below, z * np.sqrt(var_p + v0) / den, high)
        low = np.where(above, 1.0 - z * np.sqrt(var_p + v1) / den, low)
        widened = below | above
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0), widened


def rogan_gladen_variance_raw(p, q0, q1, n, m0, m1) -> np.ndarray:
    """Delta-method Var(θ̂) of paper eq. (var) at the unclipped θ̂; NaN where q0 + q1 <= 1."""
    p, q0, q1, n, m0, m1 = (np.asarray(a, dtype=float) for a in (p, q0, q1, n, m0, m1))
    th = rogan_gladen_raw(p, q0, q1)
    with np.errstate(divide="ignore", invalid="ignore"):
        var_p = np.where(np.isfinite(n), p * (1.0 - p) / n, 0.0)
        num = var_p + (1.0 - th) ** 2 * q0 * (1.0 - q0) / m0 + th**2 * q1 * (1.0 - q1) / m1
        return num / (q0 + q1 - 1.0) ** 2


def wald_bounds(p, q0, q1, n, m0, m1, z) -> tuple[np.ndarray, np.ndarray]:
    """θ̂ ± z √Var(θ̂) (eq. var), truncated to [0, 1]; NaN where q0 + q1 <= 1."""
    th = rogan_gladen_raw(p, q0, q1)
    half = np.asarray(z, dtype=float) * np.sqrt(rogan_gladen_variance_raw(p, q0, q1, n, m0, m1))
    return np.clip(th - half, 0.0, 1.0), np.clip(th + half, 0.0, 1.0)


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
    """Adjusted-Wald interval for θ, exactly as the paper's eq. (ci).

    With z = Φ⁻¹(1 − α/2), ñ = n + z², m̃0 = m0 + 2, m̃1 = m1 + 2,
    p̃ = (n p̂ + z²/2)/(n + z²), q̃0 = (m0 q̂0 + 1)/(m0 + 2), q̃1 = (m1 q̂1 + 1)/(m1 + 2),
    θ̃ = (p̃ + q̃0 − 1)/(q̃0 + q̃1 − 1) and
    dθ̃ = 2z²(−(1 − θ̃) q̃0(1 − q̃0)/m̃0 + θ̃ q̃1(1 − q̃1)/m̃1), the interval is

        θ̃ + dθ̃ ± z √[(p̃(1−p̃)/ñ + (1−θ̃)² q̃0(1−q̃0)/m̃0 + θ̃² q̃1(1−q̃1)/m̃1)] / (q̃0 + q̃1 − 1),

    truncated to [0, 1]. As printed in the paper, dθ̃ is *not* divided by (q̃0 + q̃1 − 1)².

    **Boundary rule.** When the whole interval lies below 0 (or above 1), the truncation leaves
    a single point, [0, 0] (or [1, 1]), which no finite sample supports. With the default
    ``boundary="widen"`` the far bound is then z times eq. (ci)'s standard error evaluated at
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
    Paper eq. (ci) and (adjusted:proportion); Lang & Reiczigel (2014).

    Examples
    --------
    >>> lo, hi = adjusted_wald_interval(0.4, 0.7, 0.9, 1000, 200, 200)
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
    """Plain delta-method (Wald) interval θ̂ ± z √Var(θ̂), Var from paper eq. (var).

    Centred at the unclipped Rogan–Gladen θ̂ with the unadjusted p̂, q̂0, q̂1; truncated to
    [0, 1]. It degenerates (zero width) when p̂, q̂0, q̂1 are all 0 or 1 and under-covers for
    small calibration sets: use it to compare, not to report. Arguments as in
    :func:`adjusted_wald_interval` (here m0, m1 must be > 0).
    """
    p, q0, q1, n, m0, m1 = _validated(p, q0, q1, n, m0, m1, m_positive=True)
    cl = check_confidence_level(confidence_level)
    check_informative(q0, q1, what="q̂0 + q̂1")
    low, high = wald_bounds(p, q0, q1, n, m0, m1, z_value(cl))
    return _out(low), _out(high)


def rogan_gladen_variance(p: Any, q0: Any, q1: Any, n: Any, m0: Any, m1: Any) -> Any:
    """Asymptotic variance of θ̂ by the delta method (paper eq. var).

    Var(θ̂) = [p̂(1−p̂)/n + (1−θ̂)² q̂0(1−q̂0)/m0 + θ̂² q̂1(1−q̂1)/m1] / (q̂0 + q̂1 − 1)², with the
    unclipped θ̂; ``n = inf`` drops the test-set term.
    """
    p, q0, q1, n, m0, m1 = _validated(p, q0, q1, n, m0, m1, m_positive=True)
    check_informative(q0, q1, what="q̂0 + q̂1")
    return _out(rogan_gladen_variance_raw(p, q0, q1, n, m0, m1))


# ----------------------------------------------------------------------------- registry
class Bounds(NamedTuple):
    """Batch output of an interval method: bounds and undefined-replicate counts."""

    low: np.ndarray
    high: np.ndarray
    undefined: np.ndarray  # per data set: bootstrap replicates with no estimate (0 otherwise)
    n_resamples: int | None = None
    #: A method that comes with its own point estimate (e.g. a posterior mean) sets it here;
    #: ``None`` means the point estimate is the clipped Rogan–Gladen θ̂.
    estimate: np.ndarray | None = None
    #: per data set: True where a boundary rule replaced a collapsed (zero-width) interval
    widened: np.ndarray | None = None


@dataclass(frozen=True, slots=True)
class IntervalMethod:
    """A registered interval method, ``func(test, calibration, *, confidence_level, rng, **o)``."""

    name: str
    func: Callable[..., Bounds]
    description: str
    options: tuple[str, ...]
    #: False for methods that answer even when q̂0 + q̂1 <= 1 (likelihood-based ones).
    requires_informative: bool = True


_REGISTRY: dict[str, IntervalMethod] = {}


def register_interval_method(
    name: str, description: str, *, requires_informative: bool = True
) -> Callable:
    """Register a counts-level interval function under ``name`` (decorator).

    ``requires_informative=False`` marks a method that gives an estimate and an interval even
    when the judge looks no better than chance (q̂0 + q̂1 <= 1); the others get NaN bounds there
    and :func:`judgestats.correct` raises :class:`NotInformativeError` before calling them.
    """

    def deco(func: Callable[..., Bounds]) -> Callable[..., Bounds]:
        params = inspect.signature(func).parameters
        opts = tuple(
            k for k in params if k not in ("test", "calibration", "confidence_level", "rng")
        )
        _REGISTRY[name] = IntervalMethod(name, func, description, opts, requires_informative)
        return func

    return deco


def interval_methods() -> tuple[str, ...]:
    """Names of the registered interval methods."""
    return tuple(_REGISTRY)


def get_method(method: str) -> IntervalMethod:
    """Look up a registered method; an unknown name lists the valid ones."""
    check_choice("method", method, tuple(_REGISTRY))
    return _REGISTRY[method]


def compute_bounds(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    *,
    method: str,
    confidence_level: Any,
    rng: Any = None,
    **options: Any,
) -> Bounds:
    """Run a registered method on (possibly batched) counts; NaN where not informative."""
    spec = get_method(method)
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        takes = ", ".join(spec.options) if spec.options else "no options"
        raise ArgumentTypeError(
            f"method {method!r} got unexpected option(s) {unknown}; it takes {takes}"
        )
    cl = check_confidence_level(confidence_level)
    return spec.func(test, calibration, confidence_level=cl, rng=rng, **options)


def _rates(test: JudgedCounts, cal: ConfusionCounts) -> list[np.ndarray]:
    shape = np.broadcast_shapes(test.shape, cal.shape)
    arrays = (test.p_hat, cal.specificity, cal.sensitivity, test.n, cal.m0, cal.m1)
    return [np.broadcast_to(np.asarray(a, dtype=float), shape) for a in arrays]


def _mask_uninformative(q0, q1, low, high) -> tuple[np.ndarray, np.ndarray]:
    ok = q0 + q1 > 1.0
    return np.where(ok, low, np.nan), np.where(ok, high, np.nan)


@register_interval_method("adjusted-wald", "paper eq. (ci): Lang & Reiczigel adjusted Wald")
def _adjusted_wald_method(
    test, calibration, *, confidence_level, rng=None, boundary: str = "widen"
) -> Bounds:
    check_choice("boundary", boundary, BOUNDARY_RULES)
    p, q0, q1, n, m0, m1 = _rates(test, calibration)
    low, high, widened = adjusted_wald_bounds(
        p, q0, q1, n, m0, m1, z_value(confidence_level), boundary=boundary
    )
    low, high = _mask_uninformative(q0, q1, low, high)
    return Bounds(low, high, np.zeros(low.shape, dtype=np.int64), widened=widened)


@register_interval_method("wald", "delta-method Wald at the unadjusted estimates (eq. var)")
def _wald_method(test, calibration, *, confidence_level, rng=None) -> Bounds:
    p, q0, q1, n, m0, m1 = _rates(test, calibration)
    low, high = wald_bounds(p, q0, q1, n, m0, m1, z_value(confidence_level))
    return Bounds(low, high, np.zeros(low.shape, dtype=np.int64))


def _percentile_nan_last(sorted_draws: np.ndarray, valid: np.ndarray, prob: Any) -> np.ndarray:
    """Linear-interpolation percentile along axis 0 of sorted draws whose NaNs sort last."""
    pos = (np.maximum(valid, 1) - 1) * np.asarray(prob, dtype=float)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, np.maximum(valid - 1, 0))
    frac = pos - lo
    a = np.take_along_axis(sorted_draws, lo[None], axis=0)[0]
    b = np.take_along_axis(sorted_draws, hi[None], axis=0)[0]
    out = a + (b - a) * frac
    return np.where(valid > 0, out, np.nan)


@register_interval_method("bootstrap", "parametric percentile bootstrap of the three binomials")
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
    low = np.empty(size)
    high = np.empty(size)
    undefined = np.empty(size, dtype=np.int64)
    chunk = max(1, 4_000_000 // n_resamples)  # bound memory: ~32 MB per resampled array
    for start in range(0, size, chunk):
        sl = slice(start, min(start + chunk, size))
        pp, qq0, qq1, nn, mm0, mm1 = (a[sl] for a in flat)
        k = (n_resamples, pp.size)
        ni, m0i, m1i = (a.astype(np.int64) for a in (nn, mm0, mm1))
        p_s = gen.binomial(ni, pp, size=k) / nn
        q0_s = gen.binomial(m0i, qq0, size=k) / mm0
        q1_s = gen.binomial(m1i, qq1, size=k) / mm1
        th = np.clip(rogan_gladen_raw(p_s, q0_s, q1_s), 0.0, 1.0)
        valid = np.count_nonzero(~np.isnan(th), axis=0)
        th.sort(axis=0)  # NaN last
        a = alpha[sl]
        low[sl] = _percentile_nan_last(th, valid, a / 2.0)
        high[sl] = _percentile_nan_last(th, valid, 1.0 - a / 2.0)
        undefined[sl] = n_resamples - valid
    low, high = _mask_uninformative(q0.reshape(-1), q1.reshape(-1), low, high)
    return Bounds(low.reshape(shape), high.reshape(shape), undefined.reshape(shape), n_resamples)


def warn_undefined_replicates(bounds: Bounds, stacklevel: int = 3) -> None:
    """Warn (SamplingWarning) when a bootstrap had replicates with q0* + q1* <= 1."""
    undefined = np.asarray(bounds.undefined)
    if bounds.n_resamples and undefined.any():
        total = int(undefined.max())
        warnings.warn(
            f"{total} of {bounds.n_resamples} bootstrap replicates were undefined (resampled "
            "q0* + q1* <= 1, judge no better than chance) and are excluded from the percentiles; "
            "the interval conditions on an informative judge and may be too narrow",
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


from . import posterior as _posterior  # noqa: E402,F401  (registers "bayes")
