"""The joint likelihood of test and calibration counts, and the profile-likelihood interval.

Model (the paper's, written as one likelihood)::

    positive ~ Bin(n, π),  π = θ·q1 + (1 − θ)(1 − q0)
    tn ~ Bin(m0, q0),      tp ~ Bin(m1, q1)

The profile log-likelihood ℓp(θ) = max over (q0, q1) of ℓ(θ, q0, q1) is computed exactly: for
fixed θ the stationary conditions give each q in closed form as a function of the slope
∂ℓ/∂π, which leaves one monotone equation in π, solved by bracketed Newton steps
(:func:`_maximise_q`); the maximiser is exact on the boundary q = 0 or 1 (zero calibration
cells). The interval is {θ ∈ [0, 1] : 2(ℓp(θ̂) − ℓp(θ)) <= χ²₁(level)} (Wilks), found on a θ
grid and each end refined by Newton's method on the likelihood-ratio equation with the
envelope-theorem derivative dℓp/dθ = g·(q0 + q1 − 1) (:func:`_solve_cut`; bisection where a
step would leave the grid cell). The point estimate is the maximum-likelihood θ̂ over [0, 1]: it
equals the clipped Rogan–Gladen estimate whenever that is defined, and it exists (possibly with
a very wide interval) when the judge looks no better than chance on the calibration set, where
Rogan–Gladen is undefined. Everything is vectorised over batches of data sets.

``"profile-likelihood-t"`` is the same interval with a small-calibration cut-off: χ²₁(level) is
replaced by t²_ν((1 + level)/2) with ν = min(m0, m1) − 1 (the square of a Student-t quantile,
i.e. F₁,ν), as a t interval replaces a z interval when a variance is estimated from ν degrees of
freedom. Wilks' χ²₁ is reached only as m → ∞. Measured coverage of both: README, "Which
interval method when".
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "ZERO_CELL",
    "boundary_cells",
    "critical_value",
    "profile_likelihood_bounds",
    "profile_loglik",
]

_EPS = 1e-12
_GRID = 33  # θ grid for locating the maximum and the accepted set
_NEWTON = 60  # safeguarded Newton steps of the 1-D stationary equation
_SOLVE = 60  # safeguarded Newton steps of each interval end (bisection when Newton strays)
_STEP_TOL = 1e-12  # stop once a step of θ is below this
#: what a zero count becomes for the interval (Haldane–Anscombe); see profile_likelihood_bounds
ZERO_CELL = 0.5


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


def _rate_at_slope(c, a, b):
    """Maximiser q of a·log q + b·log(1 − q) − c·q over [0, 1], with 1 − q and dq/dc.

    The stationary condition a/q − b/(1 − q) = c is the quadratic c q² − (c + a + b) q + a = 0,
    whose root in [0, 1] is q = 2a / (c + a + b + √((c + b − a)² + 4ab)) for c >= 0 (no
    cancellation) and, by the mirror q ↔ 1 − q, a ↔ b, c ↔ −c, 1 − q = 2b / (−c + a + b +
    √((−c + a − b)² + 4ab)) for c < 0. A zero count puts the maximiser on the boundary (q = 0
    when a = 0 and c >= −b), where it is exact, not clipped. ``dq/dc = −1/(a/q² + b/(1 − q)²)``
    inside (0, 1) and 0 where q sits on a boundary.
    """
    pos = c >= 0
    w = np.where(pos, a, b)  # the count on the side the root is computed from
    o = np.where(pos, b, a)
    cc = np.abs(c)
    den = cc + w + o + np.sqrt((cc + o - w) ** 2 + 4.0 * w * o)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(den > 0, 2.0 * w / den, 0.5)
    q = np.where(pos, r, 1.0 - r)
    omq = np.where(pos, 1.0 - r, r)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        info = np.where(a > 0, a / q**2, 0.0) + np.where(b > 0, b / omq**2, 0.0)
        locked = ((a == 0) & (q == 0)) | ((b == 0) & (omq == 0))
        slope = np.where((info > 0) & ~locked, 1.0 / info, 0.0)
    return q, omq, slope


def _maximise_q(theta, x, n, tn, fp, tp, fn, *, iters: int = _NEWTON, start=None):
    """Exact maximiser (q0, q1) of ℓ(θ, ·) at fixed θ, and ℓ there (arrays broadcast).

    With g = ∂ℓ/∂π = x/π − (n − x)/(1 − π), the stationary conditions decouple:
    q1 maximises tp·log q1 + fn·log(1 − q1) + θ·g·q1 and q0 maximises
    tn·log q0 + fp·log(1 − q0) − (1 − θ)·g·q0 (:func:`_rate_at_slope`, closed form). So the
    two-dimensional problem is the one-dimensional equation G(π) = θ·q1(g(π)) +
    (1 − θ)(1 − q0(g(π))) − π = 0, where G is strictly decreasing (G' <= −1), with its root
    bracketed by the judged rate x/n and the calibration-implied rate θ·q̂1 + (1 − θ)(1 − q̂0).
    It is solved by Newton's method kept inside the bracket (bisection otherwise), so the
    maximiser is exact on the boundary q = 0 or 1 too (zero calibration cells). ``start``: a
    guess of the root π (a warm start, used where it lies inside the bracket; the root found is
    the same, only fewer steps are taken).
    """
    arrays = np.broadcast_arrays(
        *(np.asarray(a, dtype=float) for a in (theta, x, n, tn, fp, tp, fn))
    )
    shape = arrays[0].shape
    theta, x, n, tn, fp, tp, fn = (a.reshape(-1) for a in arrays)
    p_hat = x / n
    with np.errstate(divide="ignore", invalid="ignore"):
        q0_hat = np.where(tn + fp > 0, tn / (tn + fp), 0.5)
        q1_hat = np.where(tp + fn > 0, tp / (tp + fn), 0.5)
    pi_cal = theta * q1_hat + (1.0 - theta) * (1.0 - q0_hat)
    lo = np.minimum(p_hat, pi_cal)
    hi = np.maximum(p_hat, pi_cal)

    def at(pi, k):
        """G, G' and (q0, q1) at π for the problems ``k``."""
        th, xx, nn = theta[k], x[k], n[k]
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(xx > 0, xx / pi, 0.0) - np.where(nn > xx, (nn - xx) / (1.0 - pi), 0.0)
            dh = -np.where(xx > 0, xx / pi**2, 0.0) - np.where(
                nn > xx, (nn - xx) / (1.0 - pi) ** 2, 0.0
            )
        q0, omq0, s0 = _rate_at_slope((1.0 - th) * g, tn[k], fp[k])
        q1, _, s1 = _rate_at_slope(-th * g, tp[k], fn[k])
        value = th * q1 + (1.0 - th) * omq0 - pi
        with np.errstate(invalid="ignore"):
            deriv = (th**2 * s1 + (1.0 - th) ** 2 * s0) * dh - 1.0
        return value, np.where(np.isfinite(deriv), deriv, -np.inf), q0, q1

    # start at the judged-rate end of the bracket, where g = 0 and G = π_cal − p̂ exactly
    pi = p_hat.copy()
    if start is not None:
        guess = np.broadcast_to(np.asarray(start, dtype=float), shape).reshape(-1)
        pi = np.where((guess > lo) & (guess < hi), guess, pi)
    everything = np.arange(pi.size)
    val, der, q0, q1 = at(pi, everything)
    # Newton's step is taken when it stays inside the bracket and is under half the step
    # before the last one (Press et al.'s rtsafe rule); else bisection. Where a q leaves its
    # bound G has a kink, and plain Newton can bounce across it for hundreds of steps.
    # Only the problems not yet solved are computed (k).
    k = np.flatnonzero(lo < hi)
    step = step_before = (hi - lo)[k]
    pk, vk, dk = pi[k], val[k], der[k]
    for _ in range(iters):
        if not k.size:
            break
        lk, hk = lo[k], hi[k]
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = pk - vk / dk
        fast = (newton > lk) & (newton < hk) & (np.abs(newton - pk) <= 0.5 * step_before)
        new = np.where(fast, newton, 0.5 * (lk + hk))
        step_before, step = step, np.abs(new - pk)
        val_n, der_n, q0_n, q1_n = at(new, k)
        pi[k], q0[k], q1[k] = new, q0_n, q1_n
        lo[k] = np.where(val_n >= 0, new, lk)
        hi[k] = np.where(val_n <= 0, new, hk)
        # G' <= −1, so |G(π)| bounds the distance to the root
        tol = 1e-13 * np.minimum(new, 1.0 - new) + 1e-300
        going = (np.abs(val_n) > tol) & (hi[k] - lo[k] > tol)
        k, step, step_before = k[going], step[going], step_before[going]
        pk, vk, dk = new[going], val_n[going], der_n[going]
    ll = _loglik(theta, q0, q1, x, n, tn, fp, tp, fn)
    return q0.reshape(shape), q1.reshape(shape), ll.reshape(shape)


def _solve_cut(inside, outside, level, data) -> np.ndarray:
    """Return the θ between ``inside`` and ``outside`` where ℓp(θ) = ``level`` (Newton).

    ``inside`` is accepted (ℓp >= level), ``outside`` rejected (or equal to ``inside`` at the
    edge of [0, 1], which is then the answer). The derivative is the envelope theorem's:
    dℓp/dθ = ∂ℓ/∂θ at the profiled (q0, q1) = g·(q0 + q1 − 1), g = ∂ℓ/∂π (:func:`_maximise_q`);
    a Newton step that leaves the bracket is replaced by bisection. Each profile is warm-started
    at the judged rate π implied by the previous θ's (q0, q1). Stops when the step is below
    :data:`_STEP_TOL` (the error after it is of the order of its square).
    """
    acc, rej = inside.copy(), outside.copy()
    t = inside.copy()
    k = np.flatnonzero(acc != rej)  # the ends still moving
    guess = None
    for _ in range(_SOLVE):
        if not k.size:
            break
        tk, ak, rk = t[k], acc[k], rej[k]
        sub = tuple(a[k] for a in data)
        q0, q1, ll = _maximise_q(tk, *sub, start=guess)
        f = level[k] - ll  # <= 0: accepted
        ak = np.where(f <= 0, tk, ak)
        rk = np.where(f <= 0, rk, tk)
        pi = tk * q1 + (1.0 - tk) * (1.0 - q0)
        x, n = sub[0], sub[1]
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(x > 0, x / pi, 0.0) - np.where(n > x, (n - x) / (1.0 - pi), 0.0)
            newton = tk + f / (g * (q0 + q1 - 1.0))
        inside_bracket = (newton - ak) * (newton - rk) < 0  # False for NaN too
        nxt = np.where(inside_bracket, newton, 0.5 * (ak + rk))
        acc[k], rej[k], t[k] = ak, rk, nxt
        going = (np.abs(nxt - tk) > _STEP_TOL) & (np.abs(ak - rk) > _STEP_TOL)
        guess = (nxt * q1 + (1.0 - nxt) * (1.0 - q0))[going]
        k = k[going]
    return t


def profile_loglik(theta: Any, x, n, tn, fp, tp, fn) -> np.ndarray:
    """Profile log-likelihood ℓp(θ) (maximised over q0, q1); broadcast over all arguments.

    The log-likelihood omits the binomial coefficients (constants in θ, q0, q1).
    """
    return _maximise_q(theta, x, n, tn, fp, tp, fn)[2]


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


def boundary_cells(test, calibration) -> np.ndarray:
    """Mask (batch shape) of the data sets with a zero count among p̂'s and q̂0's, q̂1's cells.

    There the interval is computed with :data:`ZERO_CELL` in place of each zero count (see
    :func:`profile_likelihood_bounds`); ``ci.widened`` reports it.
    """
    cells = _counts(test, calibration)
    x, n = cells[0], cells[1]
    shape = np.broadcast_shapes(test.shape, calibration.shape)
    zero = (x == 0) | (x == n)
    for c in cells[2:]:
        zero = zero | (c == 0)
    return zero.reshape(shape)


def profile_likelihood_bounds(
    test, calibration, confidence_level, *, small_sample: bool = False,
    boundary_rule: bool = True,
) -> tuple[np.ndarray, ...]:  # fmt: skip
    """(low, high, mle) arrays of the profile-likelihood interval for batched counts.

    ``small_sample=True`` uses :func:`critical_value` with ν = min(m0, m1) − 1. **Zero
    cells.** Where a count among x, n − x, tn, fp, tp, fn is 0, the binomial's maximum sits
    on the boundary and Wilks' approximation is poor: a zero count's likelihood-ratio bound
    is χ²₁(0.95)/2 ≈ 1.92 expected events against the exact 3.69 (Clopper–Pearson), so with
    accurate judges (fn = 0 in about 10% of calibration sets at q1 = 0.967, m1 = 69) θ's
    interval stopped short and covered 0.88–0.90. The interval is then computed with
    :data:`ZERO_CELL` = ½ in place of each zero count (Haldane–Anscombe; its bound is about
    3.4 events) and widened to hold the maximum-likelihood θ̂ of the counts themselves, which
    is the estimate returned. Other data sets are unchanged. ``boundary_rule=False`` gives
    the plain Wilks interval everywhere (for comparison). Measured in
    benchmarks/results/profile_boundary.md.
    """
    x, n, tn, fp, tp, fn = _counts(test, calibration)
    shape = np.broadcast_shapes(test.shape, calibration.shape)
    level = np.broadcast_to(np.asarray(confidence_level, float), shape).reshape(-1)
    cut = critical_value(level, np.minimum(tn + fp, tp + fn) if small_sample else None) / 2
    data = (x, n, tn, fp, tp, fn)
    low, high, mle = (np.empty(x.size) for _ in range(3))
    zero = boundary_cells(test, calibration).reshape(-1) & boundary_rule
    for k in (np.flatnonzero(~zero), np.flatnonzero(zero)):
        if not k.size:
            continue
        sub = tuple(a[k] for a in data)
        if zero[k[0]]:  # θ̂ of the counts; the interval with ½ for every zero count
            mle[k] = _mle(sub)
            xk, nx = (np.where(c == 0, ZERO_CELL, c) for c in (sub[0], sub[1] - sub[0]))
            cells = (np.where(c == 0, ZERO_CELL, c) for c in sub[2:])
            low[k], high[k], _ = _bounds((xk, xk + nx, *cells), cut[k], mle[k])
        else:
            low[k], high[k], mle[k] = _bounds(sub, cut[k])
    return low.reshape(shape), high.reshape(shape), mle.reshape(shape)


def _grid_profile(data) -> np.ndarray:
    """ℓp on the θ grid, (b, _GRID), for flat count arrays."""
    grid = np.linspace(0.0, 1.0, _GRID)
    return _maximise_q(grid[None, :], *(a[:, None] for a in data))[2]


def _mle(data, prof: np.ndarray | None = None) -> np.ndarray:
    """Return the maximum-likelihood θ̂ over [0, 1] of flat counts (``prof``: grid ℓp).

    The clipped Rogan–Gladen point where defined (the exact MLE); elsewhere a golden-section
    search around the best grid point.
    """
    x, n, tn, fp, tp, fn = data
    with np.errstate(divide="ignore", invalid="ignore"):
        q0h, q1h = tn / (tn + fp), tp / (tp + fn)
        rg = (x / n + q0h - 1.0) / (q0h + q1h - 1.0)
    mle = np.clip(np.where(np.isfinite(rg), rg, 0.5), 0.0, 1.0)
    todo = np.flatnonzero(~((q0h + q1h > 1.0) & np.isfinite(rg)))
    if todo.size:
        sub = tuple(a[todo] for a in data)
        grid = np.linspace(0.0, 1.0, _GRID)
        j = np.argmax(_grid_profile(sub) if prof is None else prof[todo], axis=1)
        lo_t = grid[np.maximum(j - 1, 0)]
        hi_t = grid[np.minimum(j + 1, _GRID - 1)]
        for _ in range(40):
            a_ = hi_t - 0.618 * (hi_t - lo_t)
            c_ = lo_t + 0.618 * (hi_t - lo_t)
            left = profile_loglik(a_, *sub) >= profile_loglik(c_, *sub)
            hi_t = np.where(left, c_, hi_t)
            lo_t = np.where(left, lo_t, a_)
        mle[todo] = (lo_t + hi_t) / 2
    return mle


def _bounds(data, cut, mle=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low, high, mle) of flat count arrays ``data`` = (x, n, tn, fp, tp, fn), cut-off/2.

    ``mle``: the point the interval must hold, when it is not these counts' own maximum.
    """
    grid = np.linspace(0.0, 1.0, _GRID)
    prof = _grid_profile(data)
    own = _mle(data, prof)
    mle = own if mle is None else mle
    lmax = np.maximum(_maximise_q(own, *data)[2], prof.max(axis=1))

    # the accepted set on the grid, then bisection between its outermost points and their
    # rejected neighbours
    accept = (lmax[:, None] - prof) <= cut[:, None]
    any_acc = accept.any(axis=1)
    first = np.argmax(accept, axis=1)
    last = _GRID - 1 - np.argmax(accept[:, ::-1], axis=1)
    low = np.minimum(np.where(any_acc, grid[first], own), own)
    high = np.maximum(np.where(any_acc, grid[last], own), own)
    step = 1.0 / (_GRID - 1)

    # both ends at once: between the outermost accepted grid point and its rejected neighbour
    b = low.size
    ends = _solve_cut(
        np.concatenate([low, high]),
        np.concatenate([np.maximum(low - step, 0.0), np.minimum(high + step, 1.0)]),
        np.tile(lmax - cut, 2),
        tuple(np.tile(a, 2) for a in data),
    )
    return np.minimum(ends[:b], mle), np.maximum(ends[b:], mle), mle
