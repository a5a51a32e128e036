"""The joint likelihood of test and calibration counts, and the profile-likelihood interval.

Model (the paper's, written as one likelihood)::

    positive ~ Bin(n, π),  π = θ·q1 + (1 − θ)(1 − q0)
    tn ~ Bin(m0, q0),      tp ~ Bin(m1, q1)

The profile log-likelihood ℓp(θ) = max over (q0, q1) of ℓ(θ, q0, q1) is computed by a damped
Newton method: for fixed θ, π is linear in (q0, q1), so ℓ(θ, ·) is concave and the maximiser is
unique. The interval is {θ ∈ [0, 1] : 2(ℓp(θ̂) − ℓp(θ)) <= χ²₁(level)} (Wilks), found on a θ grid
and refined by bisection. The point estimate is the maximum-likelihood θ̂ over [0, 1]: it equals
the clipped Rogan–Gladen estimate whenever that is defined, and it exists (possibly with a very
wide interval) when the judge looks no better than chance on the calibration set, where
Rogan–Gladen is undefined. Everything is vectorised over batches of data sets.

``"profile-likelihood-t"`` is the same interval with a small-calibration cut-off: χ²₁(level) is
replaced by t²_ν((1 + level)/2) with ν = min(m0, m1) − 1 (the square of a Student-t quantile,
i.e. F₁,ν), as a t interval replaces a z interval when a variance is estimated from ν degrees of
freedom. Wilks' χ²₁ is reached only as m → ∞; in benchmarks/results/weak_judge.md (250 cells,
minimum coverage over θ) the plain version falls to 0.832 at m = 5 per class and to 0.922 at
m = 20, the t version stays >= 0.900 in every cell and >= 0.937 where q0 + q1 >= 1.2 and
m >= 20.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .intervals import Bounds, register_interval_method

__all__ = ["critical_value", "profile_likelihood_bounds", "profile_loglik"]

_EPS = 1e-12
_GRID = 33  # θ grid for locating the maximum and the accepted set
_NEWTON = 30
_BISECT = 32


def _xlogy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(
            x > 0, x * np.log(np.where(y > 0, y, 1.0)) + np.where(y > 0, 0.0, -np.inf), 0.0
        )


def _loglik(theta, q0, q1, x, n, tn, fp, tp, fn) -> np.ndarray:
    pi = theta * q1 + (1.0 - theta) * (1.0 - q0)
    return (
        _xlogy(x, pi)
        + _xlogy(n - x, 1.0 - pi)
        + _xlogy(tn, q0)
        + _xlogy(fp, 1.0 - q0)
        + _xlogy(tp, q1)
        + _xlogy(fn, 1.0 - q1)
    )


def _maximise_q(theta, q0, q1, x, n, tn, fp, tp, fn, iters: int = _NEWTON):
    """Damped Newton ascent in (q0, q1) at fixed θ (all arrays broadcast together)."""
    lo, hi = _EPS, 1.0 - _EPS
    cur = _loglik(theta, q0, q1, x, n, tn, fp, tp, fn)
    for _ in range(iters):
        pi = np.clip(theta * q1 + (1.0 - theta) * (1.0 - q0), _EPS, 1.0 - _EPS)
        g = x / pi - (n - x) / (1.0 - pi)
        h = -x / pi**2 - (n - x) / (1.0 - pi) ** 2
        a, b = -(1.0 - theta), theta  # dπ/dq0, dπ/dq1
        g0 = g * a + tn / q0 - fp / (1.0 - q0)
        g1 = g * b + tp / q1 - fn / (1.0 - q1)
        h00 = h * a * a - tn / q0**2 - fp / (1.0 - q0) ** 2
        h11 = h * b * b - tp / q1**2 - fn / (1.0 - q1) ** 2
        h01 = h * a * b
        det = h00 * h11 - h01 * h01
        ok = det > 0  # negative definite (h00 < 0) -> Newton step; else gradient step
        with np.errstate(divide="ignore", invalid="ignore"):
            s0 = np.where(ok, -(h11 * g0 - h01 * g1) / det, g0 * 1e-3)
            s1 = np.where(ok, -(h00 * g1 - h01 * g0) / det, g1 * 1e-3)
        s0 = np.nan_to_num(s0)
        s1 = np.nan_to_num(s1)
        step = np.ones_like(cur)
        improved = np.zeros(cur.shape, dtype=bool)
        new0, new1, new = q0, q1, cur
        for _ in range(12):  # backtracking: keep inside (0, 1) and never decrease ℓ
            c0 = np.clip(q0 + step * s0, lo, hi)
            c1 = np.clip(q1 + step * s1, lo, hi)
            val = _loglik(theta, c0, c1, x, n, tn, fp, tp, fn)
            take = ~improved & (val >= cur)
            new0 = np.where(take, c0, new0)
            new1 = np.where(take, c1, new1)
            new = np.where(take, val, new)
            improved |= take
            if improved.all():
                break
            step = np.where(improved, step, step * 0.5)
        done = np.all(np.abs(new - cur) < 1e-13)
        q0, q1, cur = new0, new1, new
        if done:
            break
    return q0, q1, cur


def _start(tn, fp, tp, fn) -> tuple[np.ndarray, np.ndarray]:
    """Return starting (q0, q1): the calibration estimates, pulled slightly inside (0, 1)."""
    q0 = np.clip((tn + 0.5) / (tn + fp + 1.0), 0.01, 0.99)
    q1 = np.clip((tp + 0.5) / (tp + fn + 1.0), 0.01, 0.99)
    return q0, q1


def profile_loglik(theta: Any, x, n, tn, fp, tp, fn) -> np.ndarray:
    """Profile log-likelihood ℓp(θ) (maximised over q0, q1); broadcast over all arguments."""
    arrays = np.broadcast_arrays(
        *(np.asarray(a, dtype=float) for a in (theta, x, n, tn, fp, tp, fn))
    )
    theta, x, n, tn, fp, tp, fn = arrays
    q0, q1 = _start(tn, fp, tp, fn)
    return _maximise_q(theta, q0, q1, x, n, tn, fp, tp, fn)[2]


def _counts(test, cal) -> list[np.ndarray]:
    shape = np.broadcast_shapes(test.shape, cal.shape)
    arrays = (test.positive, test.n, cal.tn, cal.fp, cal.tp, cal.fn)
    return [np.broadcast_to(np.asarray(a, dtype=float), shape).reshape(-1) for a in arrays]


def critical_value(confidence_level: Any, m_min: Any = None) -> np.ndarray:
    """Cut-off c of the likelihood-ratio statistic 2(ℓp(θ̂) − ℓp(θ)) <= c.

    χ²₁(level) (Wilks) when ``m_min`` is None; otherwise the small-calibration version
    t²_{ν}((1 + level)/2) = F_{1,ν}(level) with ν = max(min(m0, m1) − 1, 1), which tends to
    χ²₁ as the calibration set grows (ν = 19: 4.38 against 3.84 at 95%).
    """
    from scipy.stats import chi2, t  # lazy

    level = np.asarray(confidence_level, dtype=float)
    if m_min is None:
        return chi2.ppf(level, 1)
    nu = np.maximum(np.asarray(m_min, dtype=float) - 1.0, 1.0)
    return t.ppf((1.0 + level) / 2.0, nu) ** 2


def profile_likelihood_bounds(
    test, calibration, confidence_level, *, small_sample: bool = False
) -> tuple[np.ndarray, ...]:
    """(low, high, mle) arrays of the profile-likelihood interval for batched counts.

    ``small_sample=True`` uses :func:`critical_value` with ν = min(m0, m1) − 1.
    """
    x, n, tn, fp, tp, fn = _counts(test, calibration)
    shape = np.broadcast_shapes(test.shape, calibration.shape)
    level = np.broadcast_to(np.asarray(confidence_level, float), shape).reshape(-1)
    cut = critical_value(level, np.minimum(tn + fp, tp + fn) if small_sample else None) / 2
    grid = np.linspace(0.0, 1.0, _GRID)
    col = (slice(None), None)
    data = (x, n, tn, fp, tp, fn)
    q0s, q1s = _start(tn, fp, tp, fn)
    prof = _maximise_q(grid[None, :], q0s[col], q1s[col], *(a[col] for a in data))[2]  # (b, G)

    # the maximum: the clipped Rogan–Gladen point where defined (the exact MLE over [0, 1]);
    # elsewhere a golden-section search around the best grid point
    with np.errstate(divide="ignore", invalid="ignore"):
        q0h, q1h = tn / (tn + fp), tp / (tp + fn)
        rg = (x / n + q0h - 1.0) / (q0h + q1h - 1.0)
    mle = np.clip(np.where(np.isfinite(rg), rg, 0.5), 0.0, 1.0)
    todo = np.flatnonzero(~((q0h + q1h > 1.0) & np.isfinite(rg)))
    if todo.size:
        sub = tuple(a[todo] for a in data)
        j = np.argmax(prof[todo], axis=1)
        lo_t = grid[np.maximum(j - 1, 0)]
        hi_t = grid[np.minimum(j + 1, _GRID - 1)]
        for _ in range(40):
            a_ = hi_t - 0.618 * (hi_t - lo_t)
            c_ = lo_t + 0.618 * (hi_t - lo_t)
            left = profile_loglik(a_, *sub) >= profile_loglik(c_, *sub)
            hi_t = np.where(left, c_, hi_t)
            lo_t = np.where(left, lo_t, a_)
        mle[todo] = (lo_t + hi_t) / 2
    q0m, q1m, lmax = _maximise_q(mle, q0s, q1s, *data)
    lmax = np.maximum(lmax, prof.max(axis=1))

    # the accepted set on the grid, then bisection between its outermost points and their
    # rejected neighbours (warm-started Newton: the profile's q's move little between steps)
    accept = (lmax[:, None] - prof) <= cut[:, None]
    any_acc = accept.any(axis=1)
    first = np.argmax(accept, axis=1)
    last = _GRID - 1 - np.argmax(accept[:, ::-1], axis=1)
    low = np.minimum(np.where(any_acc, grid[first], mle), mle)
    high = np.maximum(np.where(any_acc, grid[last], mle), mle)
    step = 1.0 / (_GRID - 1)

    def refine(inside, outside):
        q0, q1 = q0m, q1m
        for _ in range(_BISECT):
            mid = (inside + outside) / 2
            q0, q1, ll = _maximise_q(mid, q0, q1, *data, iters=8)
            ok = (lmax - ll) <= cut
            inside = np.where(ok, mid, inside)
            outside = np.where(ok, outside, mid)
        return inside

    low = refine(low, np.maximum(low - step, 0.0))
    high = refine(high, np.minimum(high + step, 1.0))
    return low.reshape(shape), high.reshape(shape), mle.reshape(shape)


@register_interval_method(
    "profile-likelihood",
    "inverted likelihood-ratio test for θ in the joint model, q0 and q1 profiled out",
    requires_informative=False,
)
def _profile_method(test, calibration, *, confidence_level, rng=None) -> Bounds:
    low, high, mle = profile_likelihood_bounds(test, calibration, confidence_level)
    return Bounds(low, high, np.zeros(low.shape, dtype=np.int64), estimate=mle)


@register_interval_method(
    "profile-likelihood-t",
    "profile likelihood with the small-calibration cut-off t²(min(m0, m1) − 1) in place of χ²₁",
    requires_informative=False,
)
def _profile_t_method(test, calibration, *, confidence_level, rng=None) -> Bounds:
    low, high, mle = profile_likelihood_bounds(
        test, calibration, confidence_level, small_sample=True
    )
    return Bounds(low, high, np.zeros(low.shape, dtype=np.int64), estimate=mle)
