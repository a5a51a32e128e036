r"""Exact posterior of the true rate θ in the binary misclassification model (no MCMC).

The model is the binary Bayesian twin of :func:`judgestats.bayes.build_model`::

    θ ~ Beta(aθ, bθ),   q0 ~ Beta(a0, b0),   q1 ~ Beta(a1, b1)
    positive ~ Bin(n, p) with p = θ q1 + (1 − θ)(1 − q0),   tn ~ Bin(m0, q0),   tp ~ Bin(m1, q1)

(optionally with the prior restricted to q0 + q1 > 1). The calibration counts turn the priors
of q0 and q1 into Beta posteriors and the test count is a Beta "density" in p, so with
x0 = 1 − q0 ~ Beta(fp + b0, tn + a0), x1 = q1 ~ Beta(tp + a1, fn + b1) and d_p the
Beta(positive + 1, n − positive + 1) density,

    π(θ | data) ∝ prior(θ) ∫∫ d_p((1 − θ) x0 + θ x1) d0(x0) d1(x1) [x0 < x1] dx0 dx1

(the bracket only with the restriction). This module computes that one-dimensional posterior
deterministically, vectorised over many data sets:

* **Inner integral.** The three densities are tied by x_p = (1 − θ) x0 + θ x1. For each θ the
  widest of them on the p scale (standard deviations sd_p, (1 − θ) sd0, θ sd1) is evaluated as
  a function and the other two are integrated by N-point Gauss–Jacobi rules (the Gauss rules of
  their Beta distributions, computed batched by Golub–Welsch). Evaluating the widest keeps the
  integrand smooth on the scale of the nodes, whether the test set or the calibration set
  dominates (the plain rule over q0, q1 breaks down when n ≫ m). A density with a jump at 0 or
  1 (a zero count under a flat prior: Beta(a, 1)) is evaluated only when no smooth one is at
  least half as wide, and then the Gauss cell that the jump cuts is weighted by the share of
  its probability on the inner side; the restriction's indicator is smoothed the same way.
  Data sets whose Beta parameters are all >= 3 use 12 nodes, the others 16.
* **θ grid.** The log posterior is evaluated on a coarse grid of [0, 1] plus points around the
  Rogan–Gladen estimate, to find the range that holds all but ~e⁻³⁰ of the mass; then on 161
  edges over that range, half spaced evenly and half at quantiles of the coarse posterior. In
  each cell the likelihood factor is interpolated log-linearly between the edges (exact for the
  exponential boundary layers that form at θ = 0 or 1) and multiplied by the cell's prior mass
  (the Beta prior integrated exactly). Mean, median, quantiles, the marginal posterior mode
  (parabolic refinement of the log density), equal-tailed and shortest (highest-density)
  intervals are then exact for this piecewise-exponential density.

Accuracy (interval ends against a finer computation and a brute-force 3-D rule) and speed are
measured by ``benchmarks/bench_bayes.py``; the tests check it against independent
computations.

The ``"bayes"`` interval method of :func:`judgestats.correct` uses it (options ``point``,
``interval``, ``priors``). It is defined for every valid data set, including judges no better
than chance (q̂0 + q̂1 <= 1), where the posterior is simply wide.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import (
    check_choice,
    check_confidence_level,
    check_instance,
    check_positive_int,
    check_rng,
    check_unclustered,
)
from .counts import ConfusionCounts, JudgedCounts
from .kernels import rogan_gladen_variance

__all__ = ["INTERVALS", "POINTS", "ThetaPosterior", "theta_posterior"]

#: Point summaries: posterior mean, median, and the mode of θ's marginal posterior.
POINTS = ("mean", "median", "map")
#: Credible intervals: equal-tailed, and highest-density (shortest with the given mass).
INTERVALS = ("eti", "hdi")

# Gauss–Jacobi nodes per integrated variable and coarse θ cells that locate the mass: for data
# sets whose six Beta parameters are all >= 3 (smooth densities), and for the others (a zero or
# single count with a flat prior puts a jump or a kink at 0 or 1 into a density)
_NODES_SMOOTH, _COARSE_SMOOTH = 12, 32
_NODES_EDGED, _COARSE_EDGED = 16, 64
_GRID = 160  # fine θ cells
_CUT = 30.0  # log-density drop below the maximum treated as no mass
_CHUNK = 400_000  # array elements per chunk of data sets (temporaries of a few MB)
_SMOOTH = 2.0  # Beta densities with min(a, b) < 2 have a jump (or a pole) at 0 or 1
_SMOOTH_SHARE = 0.5  # evaluate a smooth density if at least this share of the widest's width

# Form f evaluates density f (0: p, 1: x0, 2: x1) and integrates the other two by Gauss rules.
_FIRST = np.array([1, 0, 0])
_SECOND = np.array([2, 2, 1])


# ----------------------------------------------------------------------------- Gauss rules
def gauss_beta(alpha: Any, beta: Any, n_nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss rule of the Beta(alpha, beta) distribution on [0, 1], batched.

    Golub–Welsch on the Jacobi recurrence (Jacobi parameters β − 1, α − 1 mapped to [0, 1]).
    Returns nodes and weights of shape ``alpha.shape + (n_nodes,)``; weights sum to 1.
    """
    a_ = np.asarray(alpha, dtype=float)[..., None]
    b_ = np.asarray(beta, dtype=float)[..., None]
    ja, jb = b_ - 1.0, a_ - 1.0  # weight (1 − x)^ja (1 + x)^jb on [−1, 1]
    k = np.arange(n_nodes, dtype=float)
    s = 2.0 * k + ja + jb
    with np.errstate(divide="ignore", invalid="ignore"):
        diag = (jb * jb - ja * ja) / (s * (s + 2.0))
    diag[..., 0] = ((jb - ja) / (ja + jb + 2.0))[..., 0]
    k1 = np.arange(1, n_nodes, dtype=float)
    s1 = 2.0 * k1 + ja + jb
    with np.errstate(divide="ignore", invalid="ignore"):
        off2 = 4.0 * k1 * (k1 + ja) * (k1 + jb) * (k1 + ja + jb) / (s1 * s1 * (s1 + 1) * (s1 - 1))
    if n_nodes > 1:  # k = 1 with ja + jb = −1 is 0/0: use the cancelled form
        off2[..., 0] = (4.0 * (1 + ja) * (1 + jb) / ((2 + ja + jb) ** 2 * (3 + ja + jb)))[..., 0]
    jac = np.zeros((*diag.shape, n_nodes))
    i = np.arange(n_nodes)
    jac[..., i, i] = (1.0 + diag) / 2.0
    off = np.sqrt(off2) / 2.0
    jac[..., i[:-1], i[1:]] = off
    jac[..., i[1:], i[:-1]] = off
    nodes, vecs = np.linalg.eigh(jac)
    weights = vecs[..., 0, :] ** 2
    return np.clip(nodes, 0.0, 1.0), weights / weights.sum(axis=-1, keepdims=True)


def _log_beta_pdf(x: np.ndarray, a: Any, b: Any, lnb: Any) -> np.ndarray:
    inside = (x > 0.0) & (x < 1.0)
    xs = np.where(inside, x, 0.5)
    out = (a - 1.0) * np.log(xs) + (b - 1.0) * np.log1p(-xs) - lnb
    return np.where(inside, out, -np.inf)


def _smooth_log_pdf(x: np.ndarray, a: Any, b: Any, lnb: Any) -> np.ndarray:
    """Log Beta density for a, b >= 2 (in place on ``x``): no masks needed outside (0, 1).

    Clipping at 1e-300 makes the density ≤ e^-690 outside, i.e. zero for every purpose.
    """
    one_minus = 1.0 - x
    np.maximum(one_minus, 1e-300, out=one_minus)
    np.log(one_minus, out=one_minus)
    one_minus *= b - 1.0
    np.maximum(x, 1e-300, out=x)
    np.log(x, out=x)
    x *= a - 1.0
    x += one_minus
    x -= lnb
    return x


def _logsumexp(x: np.ndarray, axis: tuple[int, ...]) -> np.ndarray:
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(x - m), axis=axis)) + np.squeeze(m, axis=axis)


@dataclass(frozen=True, slots=True)
class _Densities:
    """Per-data-set Beta parameters of (x_p, x0, x1) with their Gauss rules, flattened batch."""

    a: np.ndarray  # (B, 3)
    b: np.ndarray
    lnb: np.ndarray
    sd: np.ndarray
    nodes: np.ndarray  # (B, 3, N)
    logw: np.ndarray
    cum: np.ndarray  # (B, 3, N): cumulative weights (upper end of each node's probability cell)
    bounds: np.ndarray  # (B, 3, N + 1): cell boundaries in x (0, midpoints between nodes, 1)
    logfrac: np.ndarray | None  # (B, 3, N, N): restriction factor per form, or None


def _densities(params: np.ndarray, n_nodes: int, restrict: bool) -> _Densities:
    from scipy.special import betainc, betaln

    a, b = params[:, 0::2], params[:, 1::2]  # columns: a_p, b_p, a0, b0, a1, b1
    s = a + b
    sd = np.sqrt(a * b / (s * s * (s + 1.0)))
    nodes, w = gauss_beta(a, b, n_nodes)
    with np.errstate(divide="ignore"):
        logw = np.log(w)
    logfrac = None
    if restrict:
        cum = np.cumsum(w, axis=-1)
        lo_cum = cum - w
        safe = np.where(w > 0, w, 1.0)

        def above(j: int, x: np.ndarray) -> np.ndarray:
            # share of the Gauss cells of variable j lying above x (B, N): [i, k] for node k
            f = betainc(a[:, j, None, None], b[:, j, None, None], x[:, :, None])
            return np.clip((cum[:, j, None, :] - f) / safe[:, j, None, :], 0.0, 1.0)

        def below(j: int, x: np.ndarray) -> np.ndarray:
            f = betainc(a[:, j, None, None], b[:, j, None, None], x[:, :, None])
            return np.clip((f - lo_cum[:, j, None, :]) / safe[:, j, None, :], 0.0, 1.0)

        frac = np.stack(
            [
                above(2, nodes[:, 1]),  # form 0: nodes (x0_i, x1_k), need x1 > x0
                above(2, nodes[:, 0]),  # form 1: nodes (xp_i, x1_k), need x1 > xp
                below(1, nodes[:, 0]),  # form 2: nodes (xp_i, x0_k), need x0 < xp
            ],
            axis=1,
        )
        with np.errstate(divide="ignore"):
            logfrac = np.log(frac)
    mids = (nodes[..., 1:] + nodes[..., :-1]) / 2.0
    bounds = np.concatenate(
        [np.zeros((*mids.shape[:-1], 1)), mids, np.ones((*mids.shape[:-1], 1))], -1
    )
    return _Densities(a, b, betaln(a, b), sd, nodes, logw, np.cumsum(w, axis=-1), bounds, logfrac)


def _edge_terms(z, u, v, node_a, d, rows, second, ev, edged) -> np.ndarray:
    """Log density terms where the evaluated Beta has a jump (or kink) at 0 or 1.

    The cut z = 0 or z = 1 runs through the node cloud; along the second node variable each
    Gauss cell is weighted by the probability share of its part where z stays in (0, 1) (Beta
    CDF), with the density taken at the node or, for a node beyond the cut, just inside it.
    """
    from scipy.special import betainc

    a_u = u[..., None] * node_a  # z = a_u + v·x_b: x_b where z = 0 and z = 1
    vv = v[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        at_zero, at_one = -a_u / vv, (1.0 - a_u) / vv
    low, high = np.where(vv > 0, at_zero, at_one), np.where(vv > 0, at_one, at_zero)
    inside = (a_u > 0.0) & (a_u < 1.0)
    low = np.where(vv == 0, np.where(inside, 0.0, 1.0), low)
    high = np.where(vv == 0, np.where(inside, 1.0, 0.0), high)
    a_b, b_b = d.a[rows, second][..., None], d.b[rows, second][..., None]
    f_low = betainc(a_b, b_b, np.clip(np.nan_to_num(low), 0.0, 1.0))
    f_high = betainc(a_b, b_b, np.clip(np.nan_to_num(high), 0.0, 1.0))
    cum_hi = d.cum[rows, second]
    w = np.diff(cum_hi, axis=-1, prepend=0.0)
    share = np.minimum(f_high[..., :, None], cum_hi[..., None, :]) - np.maximum(
        f_low[..., :, None], (cum_hi - w)[..., None, :]
    )
    share = np.clip(share / np.where(w > 0, w, 1.0)[..., None, :], 0.0, 1.0)
    # value: at the node when its cell lies inside, else mid-way along the cell's valid part
    bounds = d.bounds[rows, second]
    valid_lo = np.maximum(low[..., :, None], bounds[..., None, :-1])
    valid_hi = np.minimum(high[..., :, None], bounds[..., None, 1:])
    x_mid = u[..., None, None] * node_a[..., :, None] + vv[..., None] * (valid_lo + valid_hi) / 2
    z_rep = np.where(share >= 1.0 - 1e-12, z, np.clip(np.nan_to_num(x_mid), 1e-12, 1.0 - 1e-12))
    params = tuple(p[..., None, None] for p in ev)
    with np.errstate(divide="ignore"):
        smoothed = _log_beta_pdf(z_rep, *params) + np.log(share)
    return np.where(edged[..., None, None], smoothed, _log_beta_pdf(z, *params))


def _log_likelihood(theta: np.ndarray, d: _Densities) -> np.ndarray:
    """Log ∫∫ d_p((1 − θ)x0 + θx1) d0(x0) d1(x1) [...] for θ of shape (B, G)."""
    c0, c1 = 1.0 - theta, theta
    widths = np.stack(
        [np.broadcast_to(d.sd[:, :1], theta.shape), c0 * d.sd[:, 1:2], c1 * d.sd[:, 2:3]], -1
    )
    # evaluate the widest density, but prefer a smooth one (no jump or kink at 0 or 1 inside
    # the node cloud) when it is at least half as wide
    smooth = np.minimum(d.a, d.b) >= _SMOOTH
    top = widths.max(axis=-1, keepdims=True)
    score = np.where(
        smooth[:, None, :] & (widths >= _SMOOTH_SHARE * top), 2.0 * top + widths, widths
    )
    form = score.argmax(axis=-1)
    rows = np.arange(theta.shape[0])[:, None]
    first, second = _FIRST[form], _SECOND[form]
    node_a, node_b = d.nodes[rows, first], d.nodes[rows, second]
    logw = d.logw[rows, first][..., :, None] + d.logw[rows, second][..., None, :]
    is0, is1 = form == 0, form == 1
    with np.errstate(divide="ignore"):
        u = np.where(is0, c0, np.where(is1, 1.0 / c0, 1.0 / c1))
        v = np.where(is0, c1, np.where(is1, -c1 / c0, -c0 / c1))
        log_jac = np.where(is0, 0.0, np.where(is1, -np.log(c0), -np.log(c1)))
    z = u[..., None, None] * node_a[..., :, None] + v[..., None, None] * node_b[..., None, :]
    ev = (d.a[rows, form], d.b[rows, form], d.lnb[rows, form])
    edged = np.minimum(ev[0], ev[1]) < _SMOOTH  # a jump or a pole at 0 or 1
    if edged.any():
        terms = logw + _edge_terms(z, u, v, node_a, d, rows, second, ev, edged)
    else:
        terms = _smooth_log_pdf(z, *(p[..., None, None] for p in ev))
        terms += logw
    if d.logfrac is not None:
        terms = terms + d.logfrac[rows, form]
    return _logsumexp(terms, axis=(-2, -1)) + log_jac


def _log_prior_mass(edges: np.ndarray, a: float, b: float) -> np.ndarray:
    """Log of the Beta(a, b) prior mass of each cell between consecutive edges."""
    if a == 1.0 and b == 1.0:
        with np.errstate(divide="ignore"):
            return np.log(np.diff(edges, axis=-1))
    from scipy.special import betainc, betaincc

    lower = np.diff(betainc(a, b, edges), axis=-1)
    upper = -np.diff(betaincc(a, b, edges), axis=-1)  # less cancellation in the upper tail
    mass = np.where(edges[..., :-1] > a / (a + b), upper, lower)
    with np.errstate(divide="ignore"):
        return np.log(np.maximum(mass, 0.0))


def _log_mean_exp(x: np.ndarray) -> np.ndarray:
    """log((e^x − 1)/x): log of the mean of e^(x s) over s in [0, 1] (stable for all x)."""
    ax = np.abs(x)
    small = ax < 1e-6
    safe = np.where(small, 1.0, ax)
    with np.errstate(divide="ignore", over="ignore"):
        big = np.maximum(x, 0.0) + np.log(-np.expm1(-safe)) - np.log(safe)
    return np.where(small, x / 2.0, big)


def _loglinear(edges: np.ndarray, log_f: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cell log masses and slope × width of a density log-linear between its edge values."""
    top = log_f.max(axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    log_f = np.maximum(log_f - top, -700.0)  # a finite floor keeps the slopes finite
    h = np.diff(edges, axis=-1)
    x = np.where(h > 0, np.diff(log_f, axis=-1), 0.0)
    with np.errstate(divide="ignore"):
        log_h = np.log(h)
    return log_h + log_f[..., :-1] + _log_mean_exp(x), x


def _cells(edges: np.ndarray, log_lik: np.ndarray, prior: tuple[float, float]):
    """Cell log masses and slope × width from log ℓ at the edges.

    Within a cell ℓ is interpolated log-linearly (exact for the exponential boundary layers that
    form at θ = 0 or 1) and multiplied by the cell's exact prior mass.
    """
    log_mass, x = _loglinear(edges, log_lik)
    with np.errstate(divide="ignore"):
        log_h = np.log(np.diff(edges, axis=-1))
    return log_mass - log_h + _log_prior_mass(edges, *prior), x


def _search_points(params: np.ndarray, coarse: int) -> np.ndarray:
    """θ values that locate the posterior: a uniform grid plus points around the RG estimate."""
    pos, fail = params[:, 0] - 1.0, params[:, 1] - 1.0
    n = pos + fail
    fp, tn, tp, fn = params[:, 2], params[:, 3], params[:, 4], params[:, 5]
    p, q0, q1 = pos / n, tn / (tn + fp), tp / (tp + fn)
    with np.errstate(divide="ignore", invalid="ignore"):
        centre = np.clip((p + q0 - 1.0) / (q0 + q1 - 1.0), 0.0, 1.0)
        sd = np.sqrt(rogan_gladen_variance(p, q0, q1, n, tn + fp, tp + fn))
    ok = np.isfinite(centre) & np.isfinite(sd)
    centre = np.where(ok, centre, 0.5)
    sd = np.clip(np.where(ok, sd, 0.1), 1e-5, 0.5)
    # out to 12 sd, where a normal posterior has lost e^-72: the bracket of the mass (e^-30
    # below the top, ~7.7 sd) then comes from these points, not from the coarse uniform grid,
    # whatever the sample size (with only ±4 sd the fine grid spanned a coarse cell and the
    # interval came out too narrow by up to 3% at 10^8 judged items)
    steps = np.array([-12.0, -8.0, -6.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 6.0,
                      8.0, 12.0])  # fmt: skip
    local = centre[:, None] + sd[:, None] * steps
    uniform = np.broadcast_to(np.linspace(0.0, 1.0, coarse + 1), (params.shape[0], coarse + 1))
    return np.sort(np.concatenate([uniform, np.clip(local, 0.0, 1.0)], axis=-1), axis=-1)


def _grid_posterior(
    params: np.ndarray,
    prior: tuple[float, float],
    restrict: bool,
    n_nodes: int,
    grid: int,
    coarse: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edges (B, grid + 1), cell masses and log-density slopes (B, grid) for a flat batch."""
    d = _densities(params, n_nodes, restrict)
    size = params.shape[0]
    # 1. locate the mass: log posterior density at search points (prior kept finite at 0, 1)
    pts = _search_points(params, coarse)
    a, b = prior
    inner = np.clip(pts, 1e-9, 1.0 - 1e-9)
    lp = _log_likelihood(pts, d) + (a - 1.0) * np.log(inner) + (b - 1.0) * np.log1p(-inner)
    top = lp.max(axis=-1, keepdims=True)
    keep = lp >= top - _CUT
    keep[~np.isfinite(top[:, 0])] = True
    rows = np.arange(size)
    first = keep.argmax(axis=-1)
    last = pts.shape[1] - 1 - keep[:, ::-1].argmax(axis=-1)
    lo = pts[rows, np.maximum(first - 1, 0)]
    hi = pts[rows, np.minimum(last + 1, pts.shape[1] - 1)]
    lo, hi = np.where(hi > lo, lo, 0.0), np.where(hi > lo, hi, 1.0)
    # 2. the fine grid over [lo, hi]: half its edges uniform, half at quantiles of the pilot
    #    posterior from the search points (resolution where the mass is)
    pilot_mass, pilot_x = _loglinear(pts, lp)
    pilot = np.exp(pilot_mass - pilot_mass.max(axis=-1, keepdims=True))
    cdf = np.concatenate([np.zeros((size, 1)), np.cumsum(pilot, axis=-1)], axis=-1)
    cdf /= cdf[:, -1:]
    n_uniform = grid // 2
    n_mass = grid - n_uniform
    levels = np.broadcast_to(np.linspace(0.0, 1.0, n_mass + 2)[1:-1], (size, n_mass))
    at_mass = np.clip(_quantile(pts, cdf, pilot_x, levels), lo[:, None], hi[:, None])
    uniform = lo[:, None] + (hi - lo)[:, None] * np.linspace(0.0, 1.0, n_uniform + 1)
    uniform[:, -1] = hi
    edges = np.sort(np.concatenate([uniform, at_mass], axis=-1), axis=-1)
    log_mass, xh = _cells(edges, _log_likelihood(edges, d), prior)
    log_mass = log_mass - log_mass.max(axis=-1, keepdims=True)
    mass = np.exp(log_mass)
    h = np.diff(edges, axis=-1)
    slope = np.where(h > 0, xh / np.where(h > 0, h, 1.0), 0.0)
    return edges, mass / mass.sum(axis=-1, keepdims=True), slope


# ----------------------------------------------------------------------------- summaries
def _take(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    return np.take_along_axis(a, idx, axis=-1)


def _within(r: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Position s/h in a cell where the CDF of a density ∝ e^(x s/h) reaches the fraction r."""
    small = np.abs(x) < 1e-8
    xs = np.where(small, 1.0, x)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        neg = np.log1p(r * np.expm1(np.minimum(xs, 0.0))) / xs
        pos = 1.0 + np.log(r + (1.0 - r) * np.exp(-np.maximum(xs, 0.0))) / xs
    out = np.where(small, r, np.where(xs < 0, neg, pos))
    return np.clip(np.nan_to_num(out, nan=0.5), 0.0, 1.0)


def _quantile(edges, cdf, xh, q) -> np.ndarray:
    """Inverse CDF row by row: edges, cdf (B, G+1), xh = slope × width (B, G), q (B, K)."""
    size, width = cdf.shape
    offset = 2.0 * np.arange(size)[:, None]  # rows occupy disjoint ranges [2r, 2r + 1]
    flat = np.searchsorted((cdf + offset).ravel(), (q + offset).ravel(), side="left")
    idx = np.clip(flat.reshape(q.shape) - width * np.arange(size)[:, None], 1, width - 1)
    c_lo, c_hi = _take(cdf, idx - 1), _take(cdf, idx)
    e_lo, e_hi = _take(edges, idx - 1), _take(edges, idx)
    step = c_hi - c_lo
    r = np.clip(np.where(step > 0, (q - c_lo) / np.where(step > 0, step, 1.0), 0.0), 0.0, 1.0)
    return e_lo + _within(r, _take(xh, idx - 1)) * (e_hi - e_lo)


def _hdi(edges, cdf, xh, level) -> tuple[np.ndarray, np.ndarray]:
    """Shortest interval holding ``level`` (B,) of the mass: a coarse then finer searches."""
    span = 1.0 - level[:, None]
    rows = np.arange(level.shape[0])
    t = span * np.linspace(0.0, 1.0, 257)
    for _ in range(3):
        width = _quantile(edges, cdf, xh, t + level[:, None]) - _quantile(edges, cdf, xh, t)
        k = width.argmin(axis=-1)
        step = t[:, 1] - t[:, 0]
        start = np.clip(t[rows, k] - step, 0.0, span[:, 0])
        stop = np.clip(t[rows, k] + step, 0.0, span[:, 0])
        t = start[:, None] + (stop - start)[:, None] * np.linspace(0.0, 1.0, 33)
    width = _quantile(edges, cdf, xh, t + level[:, None]) - _quantile(edges, cdf, xh, t)
    best = t[rows, width.argmin(axis=-1)][:, None]
    low = _quantile(edges, cdf, xh, best)[:, 0]
    return low, _quantile(edges, cdf, xh, best + level[:, None])[:, 0]


def _cell_mean(xh: np.ndarray) -> np.ndarray:
    """Mean position s/h within a cell of density ∝ e^(x s/h)."""
    small = np.abs(xh) < 1e-4
    x = np.where(small, 1.0, xh)
    with np.errstate(over="ignore"):
        big = np.where(x > 0, 1.0 / -np.expm1(-x), np.exp(x) / np.expm1(x)) - 1.0 / x
    return np.where(small, 0.5 + xh / 12.0, big)


def _log_edge_density(mass: np.ndarray, h: np.ndarray, xh: np.ndarray) -> np.ndarray:
    """Log density at the edges (B, G+1): one-sided limits from the cells, averaged inside."""
    with np.errstate(divide="ignore"):
        log_m = np.where(h > 0, np.log(mass) - np.log(np.where(h > 0, h, 1.0)), -np.inf)
    left = log_m - _log_mean_exp(xh)  # density at the left end of each cell
    right = left + xh  # and at its right end
    inner = np.logaddexp(right[:, :-1], left[:, 1:]) - np.log(2.0)
    return np.concatenate([left[:, :1], inner, right[:, -1:]], axis=-1)


def _mode(edges, mass, xh) -> np.ndarray:
    """Mode of the piecewise-exponential density, refined by a parabola in the log density."""
    size, width = edges.shape
    rows = np.arange(size)
    logd = _log_edge_density(mass, np.diff(edges, axis=-1), xh)
    i = logd.argmax(axis=-1)
    c = np.clip(i, 1, width - 2)
    x0, x1, x2 = (edges[rows, c + s] for s in (-1, 0, 1))
    y0, y1, y2 = (logd[rows, c + s] for s in (-1, 0, 1))
    # vertex of the parabola through three (unequally spaced) points
    d01, d12 = (y1 - y0) / (x1 - x0), (y2 - y1) / (x2 - x1)
    curv = (d12 - d01) / (x2 - x0)
    with np.errstate(divide="ignore", invalid="ignore"):
        vertex = 0.5 * (x0 + x1) - d01 / (2.0 * curv)
    best = edges[rows, i]
    lo = edges[rows, np.maximum(i - 1, 0)]
    hi = edges[rows, np.minimum(i + 1, width - 1)]
    interior = (i > 0) & (i < width - 1)
    ok = interior & np.isfinite(vertex) & (curv < 0)
    return np.where(ok, np.clip(vertex, lo, hi), best)


def _as_out(x: np.ndarray, shape: tuple[int, ...]) -> Any:
    x = np.asarray(x).reshape(shape)
    return float(x) if x.ndim == 0 else x


@dataclass(frozen=True, slots=True)
class ThetaPosterior:
    """Posterior of θ on a grid of cells, for one data set or a batch (leading dims).

    Within a cell the density is exponential in θ (log-linear interpolation of the likelihood
    between the edges, times the cell's prior mass).

    Attributes
    ----------
    edges : ndarray, shape (..., G + 1)
        Cell edges (each data set has its own range, where its posterior has mass).
    mass : ndarray, shape (..., G)
        Posterior probability of each cell (sums to 1).
    slope : ndarray, shape (..., G)
        d log density / dθ within each cell.
    """

    edges: np.ndarray
    mass: np.ndarray
    slope: np.ndarray

    @property
    def shape(self) -> tuple[int, ...]:
        """Batch shape (``()`` for one data set)."""
        return self.mass.shape[:-1]

    @property
    def midpoints(self) -> np.ndarray:
        """Cell midpoints."""
        return (self.edges[..., :-1] + self.edges[..., 1:]) / 2.0

    @property
    def density(self) -> np.ndarray:
        """Posterior density at the cell midpoints."""
        h = np.diff(self.edges, axis=-1)
        return np.exp(np.log(self.mass / h) - _log_mean_exp(self.slope * h) + self.slope * h / 2)

    def _flat(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        edges = self.edges.reshape(-1, self.edges.shape[-1])
        mass = self.mass.reshape(-1, self.mass.shape[-1])
        xh = (self.slope * np.diff(self.edges, axis=-1)).reshape(mass.shape)
        cdf = np.concatenate([np.zeros((mass.shape[0], 1)), np.cumsum(mass, axis=-1)], axis=-1)
        cdf[:, -1] = 1.0
        return edges, mass, xh, cdf

    def _levels(self, confidence_level: Any) -> np.ndarray:
        level = check_confidence_level(confidence_level)
        return np.broadcast_to(np.asarray(level, dtype=float), self.shape).reshape(-1)

    def mean(self) -> Any:
        """Posterior mean of θ."""
        h = np.diff(self.edges, axis=-1)
        centre = self.edges[..., :-1] + _cell_mean(self.slope * h) * h
        return _as_out(np.sum(self.mass * centre, axis=-1), self.shape)

    def quantile(self, q: Any) -> Any:
        """Return posterior quantiles of θ; ``q`` broadcasts against the batch shape."""
        q = check_confidence_level(q, name="q")
        qq = np.broadcast_to(np.asarray(q, dtype=float), self.shape).reshape(-1, 1)
        edges, _, xh, cdf = self._flat()
        return _as_out(_quantile(edges, cdf, xh, qq)[:, 0], self.shape)

    def cdf(self, x: Any) -> Any:
        """Posterior probability that θ <= x; ``x`` broadcasts against the batch shape."""
        xx = np.broadcast_to(np.asarray(x, dtype=float), self.shape).reshape(-1, 1)
        edges, _, xh, cdf = self._flat()
        width = edges.shape[1]
        idx = np.clip(np.sum(edges <= xx, axis=-1, keepdims=True), 1, width - 1)
        lo, hi = _take(edges, idx - 1), _take(edges, idx)
        h = np.where(hi > lo, hi - lo, 1.0)
        s = np.clip((xx - lo) / h, 0.0, 1.0)
        x_cell = _take(xh, idx - 1)
        small = np.abs(x_cell) < 1e-8
        xs = np.where(small, 1.0, x_cell)
        neg = np.minimum(xs, 0.0)  # stable forms of (e^(x s) − 1)/(e^x − 1) for x < 0, x > 0
        pos = np.maximum(xs, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            below = np.expm1(neg * s) / np.expm1(neg)
            above = np.exp(pos * (s - 1.0)) * np.expm1(-pos * s) / np.expm1(-pos)
        share = np.where(small, s, np.where(xs < 0, below, above))
        share = np.clip(np.nan_to_num(share, nan=0.0), 0.0, 1.0)
        c_lo, c_hi = _take(cdf, idx - 1), _take(cdf, idx)
        out = c_lo + share * (c_hi - c_lo)
        out = np.where(xx < edges[:, :1], 0.0, np.where(xx >= edges[:, -1:], 1.0, out))
        return _as_out(out[:, 0], self.shape)

    def sample(self, size: int, rng: Any = None) -> np.ndarray:
        """Draw ``size`` independent values of θ (inverse CDF); shape ``(size, *self.shape)``."""
        size = check_positive_int("size", size, minimum=1)
        gen = check_rng(rng)
        edges, _, xh, cdf = self._flat()
        draws = _quantile(edges, cdf, xh, gen.random((edges.shape[0], size)))
        return np.moveaxis(draws.reshape(*self.shape, size), -1, 0)

    def median(self) -> Any:
        """Posterior median of θ."""
        return self.quantile(0.5)

    def mode(self) -> Any:
        """Mode of θ's marginal posterior (``point="map"``); 0 or 1 when on the boundary."""
        edges, mass, xh, _ = self._flat()
        return _as_out(_mode(edges, mass, xh), self.shape)

    def point(self, kind: str = "mean") -> Any:
        """Point summary: ``"mean"``, ``"median"`` or ``"map"`` (marginal posterior mode)."""
        kind = check_choice("point", kind, POINTS)
        return {"mean": self.mean, "median": self.median, "map": self.mode}[kind]()

    def interval(self, confidence_level: Any = 0.95, kind: str = "eti") -> tuple[Any, Any]:
        """Credible interval: ``"eti"`` (equal tails) or ``"hdi"`` (shortest with the mass).

        The shortest interval is the highest-density interval when the posterior is unimodal.
        """
        kind = check_choice("interval", kind, INTERVALS)
        level = self._levels(confidence_level)
        edges, _, xh, cdf = self._flat()
        if kind == "eti":
            tails = np.stack([(1.0 - level) / 2.0, (1.0 + level) / 2.0], axis=-1)
            q = _quantile(edges, cdf, xh, tails)
            low, high = q[:, 0], q[:, 1]
        else:
            low, high = _hdi(edges, cdf, xh, level)
        return _as_out(low, self.shape), _as_out(high, self.shape)


def _resolve_priors(priors: Any) -> Any:
    from .priors import Priors

    if priors is None:
        priors = Priors()
    check_instance("priors", priors, Priors)
    return priors.binary()


def theta_posterior(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    *,
    priors: Any = None,
    nodes: int | None = None,
    grid_size: int = _GRID,
) -> ThetaPosterior:
    """Exact posterior of θ given the test and calibration counts (batched, no MCMC).

    Parameters
    ----------
    test : JudgedCounts
        ``positive`` of ``n`` test items judged 1 (arrays allowed: a batch of data sets).
    calibration : ConfusionCounts
        Human-vs-judge counts (arrays allowed; broadcast against ``test``).
    priors : judgestats.bayes.Priors, optional
        Beta priors of θ, sensitivity and specificity and the ``better_than_chance``
        restriction; flat Beta(1, 1) priors by default.
    nodes : int, optional
        Gauss–Jacobi nodes per integrated variable. By default 12 for data sets whose Beta
        parameters (counts plus prior parameters) are all >= 3, and 16 for the others, whose
        densities have a jump or a kink at 0 or 1.
    grid_size : int, default 160
        Cells of the fine θ grid.

    Returns
    -------
    ThetaPosterior
        With ``mean()``, ``median()``, ``mode()``, ``quantile(q)``, ``interval(level, kind)``.

    Examples
    --------
    >>> import judgestats as js
    >>> post = theta_posterior(js.JudgedCounts(positive=600, n=1000),
    ...                        js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30))
    >>> round(post.mean(), 4)
    0.4997
    """
    check_instance("test", test, JudgedCounts)
    check_instance("calibration", calibration, ConfusionCounts)
    check_unclustered(
        "theta_posterior", "use js.correct (method 'adjusted-wald' or 'bootstrap'), which "
        "accounts for the repeats", test, calibration,
    )  # fmt: skip
    resolved = _resolve_priors(priors)
    if nodes is not None:
        nodes = check_positive_int("nodes", nodes, minimum=2)
    grid_size = check_positive_int("grid_size", grid_size, minimum=4)
    shape = np.broadcast_shapes(test.shape, calibration.shape)
    cols = [
        test.positive + 1.0,
        test.n - test.positive + 1.0,
        calibration.fp + resolved.specificity.b,  # x0 = 1 − q0
        calibration.tn + resolved.specificity.a,
        calibration.tp + resolved.sensitivity.a,  # x1 = q1
        calibration.fn + resolved.sensitivity.b,
    ]
    params = np.stack([np.broadcast_to(np.asarray(c, dtype=float), shape) for c in cols], -1)
    params = params.reshape(-1, 6)
    prior = (resolved.theta.a, resolved.theta.b)
    size = params.shape[0]
    edges = np.empty((size, grid_size + 1))
    mass = np.empty((size, grid_size))
    slope = np.empty((size, grid_size))
    smooth = params.min(axis=-1) >= 3.0
    for group, n_nodes, coarse in (
        (smooth, _NODES_SMOOTH, _COARSE_SMOOTH),
        (~smooth, _NODES_EDGED, _COARSE_EDGED),
    ):
        rows = np.flatnonzero(group)
        n_nodes = nodes or n_nodes
        chunk = max(1, _CHUNK // ((grid_size + coarse) * n_nodes * n_nodes))
        for start in range(0, rows.size, chunk):
            sl = rows[start : start + chunk]
            edges[sl], mass[sl], slope[sl] = _grid_posterior(
                params[sl], prior, resolved.better_than_chance, n_nodes, grid_size, coarse
            )
    return ThetaPosterior(
        edges=edges.reshape(*shape, grid_size + 1),
        mass=mass.reshape(*shape, grid_size),
        slope=slope.reshape(*shape, grid_size),
    )
