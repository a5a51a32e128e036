"""Maximum likelihood for a judge alphabet of J letters over K human categories (J >= K).

A judge that scores 1–5, says win/tie/lose or sometimes answers nothing usable speaks an
alphabet of J letters while the humans use K categories. The paper's model (its appendix,
eqs. (23) and (24), and for K = 2 eq.
(13)) carries over with a J × K confusion matrix C[a, b] = P(judge = a |
human = b) — the same on test and calibration items — under the by-human-label design::

    test letters               n ~ Mult(n, Cθ)
    calibration, human = b     x[:, b] ~ Mult(m_b, C[:, b])

θ over the K categories is identified when C has rank K. When J = K and Ĉ⁻¹p̂ lies on the
simplex the maximum-likelihood estimate is that inverse (the model is saturated); when J > K
the test letters over-determine θ, the test data inform C too, and there is no closed form.

:func:`alphabet_mle` maximises the joint log-likelihood

    ℓ(θ, C) = Σ_a n_a log (Cθ)_a + Σ_a Σ_b x_ab log C_ab

over θ on the simplex and column-stochastic C by EM (the true category of each test item is
the missing datum; Dempster, Laird & Rubin, 1977), accelerated by SQUAREM (Varadhan & Roland,
2008, scheme S3, with a monotone safeguard), batched over leading axes. Each EM step never
decreases ℓ, keeps θ on the simplex and C's columns on theirs, and with one θ_b held fixed it
maximises the profile likelihood instead. ℓ can have a second, lower local maximum in θ
(typically at the other edge), so EM runs from several starts (the uniform θ and one near
each vertex) and keeps the highest. :func:`alphabet_profile_bounds` inverts the
likelihood-ratio test per category (Wilks), :func:`alphabet_bootstrap_bounds` is the
parametric percentile bootstrap from the fitted model. Both are vectorised over data sets.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..kernels import percentile_nan_last

__all__ = [
    "alphabet_bootstrap_bounds",
    "alphabet_loglik",
    "alphabet_mle",
    "alphabet_profile_bounds",
]

_TOL = 1e-11  # convergence: largest change of any parameter in one accelerated step
#: The profile's fits (θ_b fixed): ℓ's error is quadratic in the parameters' error, so 1e-8
#: moves 2(ℓ̂ − ℓ_p) by far less than the bisection's resolution
_PROFILE_TOL = 1e-8
_MAX_ITER = 5000  # accelerated steps (each three EM maps)
_HALVINGS = 12  # SQUAREM step-length halvings towards the plain EM step
_GRID = 8  # profile values on each side of θ̂_b before the bisection (a step <= 1/8)
#: the grid's fits only bracket the bounds (EM's ℓ is a lower bound of ℓ_p, off by far less
#: than the cut-off's scale); the bisection's fits use _PROFILE_TOL
_GRID_TOL = 1e-6
_BISECT = 31  # bisection steps of each profile bound within a grid step (2^-34 < 1e-10)
_FLOOR = 1e-4  # warm starts: smallest value of a cell of θ or C (>> _GRID_TOL: see _warm)
_VERTEX = 0.02  # the vertex starts of alphabet_mle: θ_b = 1 − _VERTEX


def _xlogy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x·log y with 0·log 0 = 0 and x·log 0 = −inf for x > 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x > 0, x * np.log(np.where(y > 0, y, 1.0)), 0.0) + np.where(
            (x > 0) & (y <= 0), -np.inf, 0.0
        )


def alphabet_loglik(theta: Any, matrix: Any, test: Any, calibration: Any) -> np.ndarray:
    """Joint log-likelihood ℓ(θ, C) (without the multinomial coefficients), batched.

    Parameters
    ----------
    theta : array_like, shape (..., K)
        Distribution over the K human categories.
    matrix : array_like, shape (..., J, K)
        Column-stochastic C[a, b] = P(judge = a | human = b).
    test : array_like, shape (..., J)
        Judged test items per letter.
    calibration : array_like, shape (..., J, K)
        Calibration counts, rows = judge letter, columns = human category.
    """
    theta, matrix = np.asarray(theta, float), np.asarray(matrix, float)
    p = np.einsum("...ab,...b->...a", matrix, theta)
    return _xlogy(np.asarray(test, float), p).sum(-1) + _xlogy(
        np.asarray(calibration, float), matrix
    ).sum((-2, -1))


def _em_map(theta, matrix, test, cal, m, fixed):
    """One EM step; ``fixed`` = (b, t) holds θ_b = t (profile) or None."""
    joint = matrix * theta[..., None, :]  # (..., J, K): P(letter a, human b)
    p = joint.sum(-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(p > 0, test[..., None] * joint / p, 0.0)  # expected test cells
    wb = w.sum(-2)  # (..., K) expected test items per human category
    if fixed is None:
        new_theta = wb / np.maximum(wb.sum(-1, keepdims=True), 1e-300)
    else:
        b, t = fixed
        rest = wb.copy()
        rest[..., b] = 0.0
        total = rest.sum(-1, keepdims=True)
        k = theta.shape[-1]
        even = np.full_like(rest, 1.0 / max(k - 1, 1))
        even[..., b] = 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.where(total > 0, rest / total, even)
        new_theta = share * (1.0 - t[..., None])
        new_theta[..., b] = t
    den = m + wb  # (..., K)
    with np.errstate(divide="ignore", invalid="ignore"):
        new_matrix = np.where(den[..., None, :] > 0, (cal + w) / den[..., None, :], matrix)
    return new_theta, new_matrix


def _start(test, cal):
    """Interior start: smoothed column rates and the uniform θ."""
    j, k = cal.shape[-2:]
    matrix = (cal + 0.5) / (cal.sum(-2, keepdims=True) + 0.5 * j)
    theta = np.full((*np.broadcast_shapes(test.shape[:-1], cal.shape[:-2]), k), 1.0 / k)
    return theta, np.broadcast_to(matrix, (*theta.shape[:-1], j, k)).copy()


def _starts(test, cal, fixed):
    """Stack the default start and one near each vertex of θ's simplex on a new first axis.

    ℓ can have a local maximum besides the global one (typically at the other edge of θ); EM
    climbs to the one whose basin holds its start. A start with θ_b = 1 − _VERTEX near each
    vertex b (the rest shared evenly), C the smoothed calibration rates, puts a start in the
    basin of a maximum at or near each vertex. With θ_b fixed the vertex b is left out, and
    for K = 2 (θ then fully fixed, ℓ concave in C) the one default start is enough.
    """
    theta, matrix = _start(test, cal)
    k = theta.shape[-1]
    free = [b for b in range(k) if fixed is None or b != fixed[0]]
    if len(free) < 2:
        return theta[None], matrix[None]
    vertices = np.full((len(free), k), _VERTEX / (k - 1))
    vertices[np.arange(len(free)), free] = 1.0 - _VERTEX
    thetas = np.concatenate([theta[None], np.broadcast_to(
        vertices.reshape(len(free), *(1,) * (theta.ndim - 1), k), (len(free), *theta.shape)
    )])  # fmt: skip
    return thetas, np.broadcast_to(matrix, (len(free) + 1, *matrix.shape))


def _squarem(theta, matrix, test, cal, fixed, tol=_TOL, max_iter=_MAX_ITER):
    """SQUAREM-accelerated EM from (theta, matrix); each data set stops when converged.

    A data set has converged when one accelerated step changes no parameter by more than
    ``tol``. An extrapolation that leaves the simplex is pulled back towards the plain EM
    step by halving α + 1 (up to ``_HALVINGS`` times), which keeps the acceleration for
    cells of C converging to 0 (a calibration count of 0). Only the data sets still running
    are computed.
    """
    shape, k = theta.shape[:-1], theta.shape[-1]
    j = matrix.shape[-2]
    theta = theta.reshape(-1, k).copy()
    matrix = matrix.reshape(-1, j, k).copy()
    test = np.broadcast_to(test, (*shape, j)).reshape(-1, j)
    cal = np.broadcast_to(cal, (*shape, j, k)).reshape(-1, j, k)
    t_fix = None if fixed is None else np.broadcast_to(fixed[1], shape).reshape(-1)
    value = alphabet_loglik(theta, matrix, test, cal)
    idx = np.arange(theta.shape[0])
    for _ in range(max_iter):
        if idx.size == 0:
            break
        th, mx, tt, cc = theta[idx], matrix[idx], test[idx], cal[idx]
        fx = None if fixed is None else (fixed[0], t_fix[idx])
        m = cc.sum(-2)
        t1, c1 = _em_map(th, mx, tt, cc, m, fx)
        t2, c2 = _em_map(t1, c1, tt, cc, m, fx)
        r = np.concatenate([t1 - th, (c1 - mx).reshape(idx.size, -1)], -1)
        v = np.concatenate([t2 - 2 * t1 + th, (c2 - 2 * c1 + mx).reshape(idx.size, -1)], -1)
        rn, vn = np.sqrt((r**2).sum(-1)), np.sqrt((v**2).sum(-1))
        with np.errstate(divide="ignore", invalid="ignore"):
            alpha = np.minimum(np.where(vn > 0, -rn / vn, -1.0), -1.0)[:, None]
        for _ in range(_HALVINGS):  # an infeasible step moves α halfway to −1 (plain EM)
            te = th - 2 * alpha * (t1 - th) + alpha**2 * (t2 - 2 * t1 + th)
            a2 = alpha[..., None]
            ce = mx - 2 * a2 * (c1 - mx) + a2**2 * (c2 - 2 * c1 + mx)
            feasible = (te >= 0).all(-1) & (ce >= 0).all((-2, -1))
            if feasible.all():
                break
            alpha = np.where(feasible[:, None], alpha, 0.5 * (alpha - 1.0))
        te = np.where(feasible[:, None], te, t2)
        ce = np.where(feasible[:, None, None], ce, c2)
        t3, c3 = _em_map(te, ce, tt, cc, m, fx)
        v3 = alphabet_loglik(t3, c3, tt, cc)
        v2 = alphabet_loglik(t2, c2, tt, cc)
        worse = ~(v3 >= v2)  # the safeguard: never below two plain EM steps
        t3 = np.where(worse[:, None], t2, t3)
        c3 = np.where(worse[:, None, None], c2, c3)
        v3 = np.where(worse, v2, v3)
        change = np.maximum(np.abs(t3 - th).max(-1), np.abs(c3 - mx).reshape(idx.size, -1).max(-1))
        theta[idx], matrix[idx], value[idx] = t3, c3, v3
        idx = idx[change > tol]
    return theta.reshape(*shape, k), matrix.reshape(*shape, j, k), value.reshape(shape)


def alphabet_mle(
    test: Any, calibration: Any, *, fixed: tuple[int, Any] | None = None, start: Any = None,
    tol: float = _TOL,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Joint maximum-likelihood (θ̂, Ĉ) and ℓ at the maximum, batched over leading axes.

    Parameters
    ----------
    test : array_like of int, shape (..., J)
        Judged test items per letter.
    calibration : array_like of int, shape (..., J, K)
        Calibration counts (rows = letter, columns = human category); every column needs an
        item (by-human-label design).
    fixed : (int, array_like), optional
        ``(b, t)`` maximises over the rest with θ_b = t held fixed (the profile likelihood).
    start : (theta, matrix), optional
        Starting values (e.g. a nearby solution), one EM run from there. By default EM runs
        from the uniform θ and from a θ near each vertex of the simplex (C: the smoothed
        calibration rates) and keeps the highest maximum: ℓ can have a second, lower local
        maximum, e.g. at the other edge of θ (benchmarks/bench_alphabet_width.py found 144 of
        51,715 data sets where the uniform start alone stopped there).
    tol : float
        Convergence: the largest change of any parameter in one accelerated step.

    Returns
    -------
    theta : ndarray, shape (..., K)
    matrix : ndarray, shape (..., J, K)
    loglik : ndarray, shape (...)
        ℓ(θ̂, Ĉ) of :func:`alphabet_loglik`.
    """
    test = np.asarray(test, dtype=float)
    cal = np.asarray(calibration, dtype=float)
    if start is None:  # several starts on a new first axis; the highest maximum is kept
        theta, matrix = _starts(test, cal, fixed)
    else:
        theta, matrix = (np.array(s, float)[None] for s in start)
    shape = theta.shape[1:-1]
    if fixed is not None:
        b, t = fixed
        t = np.broadcast_to(np.asarray(t, dtype=float), shape).copy()
        rest = np.delete(theta, b, axis=-1)
        total = rest.sum(-1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            rest = np.where(total > 0, rest / total, 1.0 / max(rest.shape[-1], 1))
        theta = np.insert(rest * (1.0 - t[..., None]), b, t, axis=-1)
        fixed = (b, np.broadcast_to(t, theta.shape[:-1]))
    test = np.broadcast_to(test, (*theta.shape[:-1], test.shape[-1]))
    cal = np.broadcast_to(cal, (*theta.shape[:-1], *cal.shape[-2:]))
    theta, matrix, value = _squarem(theta, matrix, test, cal, fixed, tol=tol)
    best = np.argmax(np.where(np.isnan(value), -np.inf, value), axis=0)[None]
    return (
        np.take_along_axis(theta, best[..., None], 0)[0],
        np.take_along_axis(matrix, best[..., None, None], 0)[0],
        np.take_along_axis(value, best, 0)[0],
    )


def _critical(level: float, df_t: Any = None) -> Any:
    from scipy.stats import chi2, t  # lazy

    if df_t is None:
        return float(chi2.ppf(level, 1))
    return t.ppf((1.0 + level) / 2.0, np.maximum(df_t, 1)) ** 2


def _warm(theta: np.ndarray, matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Warm start from a fit: lift every cell to at least _FLOOR, then renormalise.

    EM keeps an exact 0 at 0 (and a 1e-24 nearly so); lifted, a cell the new θ needs can
    grow, geometrically, within a few steps. The floor is well above the fits' tolerances
    (_GRID_TOL, _PROFILE_TOL): a cell lifted only to about the tolerance changes by less than
    it in the first steps and EM stops there (floor 1e-8 at tolerance 1e-8, J = K = 2 with a
    calibration cell of 0: 2(ℓ̂ − ℓ_p) came out 4.82 for 3.31; floor 1e-6 at tolerance 1e-6,
    bench_alphabet_width B20 #704: 5.69 for 5.01, and a bound 0.005 inside).
    """
    theta = np.maximum(theta, _FLOOR)
    matrix = np.maximum(matrix, _FLOOR)
    return theta / theta.sum(-1, keepdims=True), matrix / matrix.sum(-2, keepdims=True)


def _profile_grid(test, cal, b, end, fit):
    """ℓ_p(t) and warm starts at _GRID points t from θ̂_b to ``end`` (the last is the end).

    Each fit is warm-started from the previous one. With K > 2 a fit with θ_b fixed can have
    a local maximum (θ's other cells and C are free), so the grid is also swept back from the
    end (there from the default starts of :func:`alphabet_mle`) and the higher fit kept.
    """
    theta_hat, matrix_hat = fit
    steps = np.linspace(1.0 / _GRID, 1.0, _GRID)[:, None]
    ts = theta_hat[..., b].reshape(1, -1) + (end - theta_hat[..., b].reshape(1, -1)) * steps
    ts = ts.reshape(_GRID, *theta_hat.shape[:-1])
    values, states, state = [], [], _warm(theta_hat, matrix_hat)
    for t in ts:
        th, mx, v = alphabet_mle(test, cal, fixed=(b, t), start=state, tol=_GRID_TOL)
        state = _warm(th, mx)
        values.append(v)
        states.append(state)
    if theta_hat.shape[-1] > 2:
        state = None
        for g in range(_GRID - 1, -1, -1):
            th, mx, v = alphabet_mle(test, cal, fixed=(b, ts[g]), start=state, tol=_GRID_TOL)
            better = v > values[g]
            values[g] = np.where(better, v, values[g])
            states[g] = tuple(
                np.where(better.reshape(*better.shape, *(1,) * (new.ndim - better.ndim)), new, old)
                for new, old in zip(_warm(th, mx), states[g], strict=True)
            )
            state = states[g]
    return ts, np.stack(values), states


def _profile_bound(test, cal, b, end, fit, top, crit):
    """Find the outermost t between θ̂_b and ``end`` with 2(ℓ̂ − ℓ_p(t)) <= crit, batched.

    ℓ_p need not be unimodal in t (ℓ can have two local maxima, and the set {t : 2(ℓ̂ − ℓ_p(t))
    <= crit} two pieces): ℓ_p is evaluated on a grid from θ̂_b to the end (``_profile_grid``),
    and the crossing just beyond the outermost grid point inside the set is bisected. The
    bound is that of the smallest interval holding the whole set, to a grid step's accuracy:
    a piece that holds no grid point (narrower than a step), or only grid points within EM's
    error (_GRID_TOL) of the cut-off, can be missed.
    """
    ts, values, states = _profile_grid(test, cal, b, end, fit)
    inside = 2.0 * (top - values) <= crit  # (_GRID, ...)
    # index into θ̂_b (0) and the grid (1 .. _GRID) of the outermost point inside
    last = np.where(inside.any(0), _GRID - np.argmax(inside[::-1], 0), 0)[None]
    ts = np.concatenate([fit[0][..., b][None], ts])
    near = np.take_along_axis(ts, last, 0)[0]
    far = np.take_along_axis(ts, np.minimum(last + 1, _GRID), 0)[0]
    th_all = np.stack([_warm(*fit)[0]] + [th for th, _ in states])
    mx_all = np.stack([_warm(*fit)[1]] + [mx for _, mx in states])
    state = (
        np.take_along_axis(th_all, last[..., None], 0)[0],
        np.take_along_axis(mx_all, last[..., None, None], 0)[0],
    )
    for _ in range(_BISECT):
        mid = 0.5 * (near + far)
        th, mx, v = alphabet_mle(test, cal, fixed=(b, mid), start=state, tol=_PROFILE_TOL)
        accept = 2.0 * (top - v) <= crit
        near = np.where(accept, mid, near)
        far = np.where(accept, far, mid)
        state = _warm(th, mx)
    return np.where(last[0] == _GRID, end, near)


def alphabet_profile_bounds(
    test: Any, calibration: Any, confidence_level: float, *, small_sample: bool = False,
    only: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Profile-likelihood interval of each θ_b: {t : 2(ℓ̂ − ℓ_p(t)) <= cut-off}, batched.

    ℓ_p(t) = max of ℓ over θ with θ_b = t and over C (Wilks: the cut-off is χ²₁(level)). With
    ``small_sample`` the cut-off is t²_ν((1 + level)/2), the square of a Student-t quantile,
    with ν = min_b m_b/(J − 1) − 1: the calibration items per free parameter of a column of C,
    minus one. For J = 2 it is :func:`judgestats.likelihood.profile_likelihood_bounds`'s
    ``"profile-likelihood-t"`` (ν = min(m0, m1) − 1). Why: with many letters and few items per
    column the χ² cut-off gives intervals about 20% too short (coverage 0.86–0.89 at J = 10,
    50 items per class, benchmarks/results/alphabets.md); the t cut-off covers 0.95–0.97 there
    and tends to χ² as the columns fill.

    The profile need not be unimodal in t: ℓ can have a second local maximum (typically at
    the other edge of θ_b; benchmarks/bench_alphabet_width.py), and the set of t inside the
    cut-off can then be two pieces. Each bound is the outermost t of the set on its side of
    θ̂_b: ℓ_p on a grid of _GRID points from θ̂_b to 0 or 1, each fit warm-started from its
    neighbour, then bisection of the crossing beyond the outermost grid point inside (the
    interval is the smallest one holding the whole set).

    ``only``: profile category ``only`` alone (the other bounds are NaN; for K = 2 both
    categories, as always).

    Returns
    -------
    low, high, estimate : ndarray, shape (..., K)
    """
    test = np.asarray(test, dtype=float)
    cal = np.asarray(calibration, dtype=float)
    theta_hat, matrix_hat, top = alphabet_mle(test, cal)
    shape, k = theta_hat.shape[:-1], theta_hat.shape[-1]
    j = cal.shape[-2]
    # items per free parameter of a calibration column, minus one (J = 2: min_b m_b − 1)
    df_t = (cal.sum(-2).min(-1) / (j - 1) - 1.0) if small_sample else None
    crit = np.broadcast_to(_critical(confidence_level, df_t), shape)
    low = np.full_like(theta_hat, np.nan)
    high = np.full_like(theta_hat, np.nan)
    for b in (range(k) if only is None else (only,)) if k > 2 else (0,):
        for side, out in ((0.0, low), (1.0, high)):
            out[..., b] = _profile_bound(
                test, cal, b, np.full(shape, side), (theta_hat, matrix_hat), top, crit
            )
    if k == 2:  # θ_0 = 1 − θ_1 and its profile is the same function
        low[..., 1], high[..., 1] = 1.0 - high[..., 0], 1.0 - low[..., 0]
    return low, high, theta_hat


def alphabet_bootstrap_bounds(
    test: Any,
    calibration: Any,
    confidence_level: float,
    *,
    n_resamples: int = 999,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Parametric percentile bootstrap of θ̂ from the fitted model (one data set).

    Replicates: test letters ~ Mult(n, Ĉθ̂), calibration column b ~ Mult(m_b, Ĉ[:, b]); each
    replicate refitted by :func:`alphabet_mle`. Returns (low, high, estimate), shape (K,).
    """
    test = np.asarray(test, dtype=np.int64)
    cal = np.asarray(calibration, dtype=np.int64)
    theta, matrix, _ = alphabet_mle(test, cal)
    p = np.clip(matrix @ theta, 0.0, None)
    t_star = rng.multinomial(int(test.sum()), p / p.sum(), size=n_resamples)
    m = cal.sum(0)
    cols = [rng.multinomial(int(m[b]), matrix[:, b], size=n_resamples) for b in range(m.size)]
    c_star = np.stack(cols, axis=-1)  # (R, J, K)
    th_star, _, _ = alphabet_mle(t_star, c_star)
    alpha = 1.0 - confidence_level
    draws = np.sort(th_star, axis=0)
    valid = np.full(theta.shape, n_resamples)
    low = percentile_nan_last(draws, valid, alpha / 2)
    high = percentile_nan_last(draws, valid, 1.0 - alpha / 2)
    return low, high, theta
