"""Intervals of the Dawid–Skene fit: observed information, sandwich, item bootstrap.

**Parameters.** The model is written in unconstrained coordinates: the prevalence as
baseline logits ``η_j = log p_j − log p_b`` (``b`` its largest class), each confusion row
``π_r[c, ·]`` as baseline logits against its largest entry. A confusion entry on the
boundary (its expected count ``π_r[c, l] · Σ_i w_ic 1[r rated i]`` under ½) is held fixed:
its logit is −∞ at the maximum and it carries no information.

**Scores.** By Fisher's identity the score of item ``i`` is the posterior mean of the
complete-data score (Louis 1982): ``w_ij − p_j`` for the prevalence logit ``η_j`` and
``w_ic (1[y_ir = m] − π_r[c, m])`` (where ``r`` rated ``i``) for the logit of ``π_r[c, m]``.
The observed information ``I`` is minus the Jacobian of the summed score, by central
differences of that analytic score.

**Intervals** of a quantity ``g`` (a prevalence ``p_c``, a rater's accuracy
``Σ_c p_c π_r[c, c]``) are Wald intervals on the logit scale, ``expit(logit ĝ ± z se)``, with
``se²`` the delta method's ``∇ᵀ V ∇`` (gradient by central differences):

* ``"observed-information"``: ``V = I⁻¹``;
* ``"sandwich"``: ``V = I⁻¹ (Σ_i s_i s_iᵀ) I⁻¹`` (robust to a misspecified likelihood;
  items are the independent units, so a repeated item's ratings stay together);
* ``"bootstrap"``: items resampled with replacement (a multinomial weight per item, every
  replicate an EM fit started at the estimate, oriented like it), percentile interval.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import expit, logit
from scipy.stats import norm

from .latent_em import e_step, em_fit, orient, vote_shares

__all__ = ["Quantities", "bootstrap_bounds", "covariance", "profile_bounds", "wald_bounds"]

_STEP = 1e-5
_FLOOR = 0.5  # expected count under which a confusion entry is held on its boundary


@dataclass(frozen=True, slots=True)
class _Coordinates:
    """Which logits are free, and the fitted log-parameters they perturb."""

    log_p: np.ndarray  # (k,) baseline logits of the prevalence at the fit
    log_pi: np.ndarray  # (R, k, k) baseline logits of the rows (−inf on the boundary)
    free_p: np.ndarray  # (k,) bool
    free_pi: np.ndarray  # (R, k, k) bool

    @property
    def size(self) -> int:
        return int(self.free_p.sum() + self.free_pi.sum())

    def params(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Prevalence ``(k,)`` and confusion ``(R, k, k)`` at the free logits ``theta``."""
        log_p, log_pi = self.log_p.copy(), self.log_pi.copy()
        n_p = int(self.free_p.sum())
        log_p[self.free_p] = theta[:n_p]
        log_pi[self.free_pi] = theta[n_p:]
        p = np.exp(log_p - log_p.max())
        pi = np.exp(log_pi - log_pi.max(axis=2, keepdims=True))
        return p / p.sum(), pi / pi.sum(axis=2, keepdims=True)

    def theta(self) -> np.ndarray:
        return np.concatenate([self.log_p[self.free_p], self.log_pi[self.free_pi]])


def _coordinates(onehot, weights, prevalence, confusion, posterior) -> _Coordinates:
    n = weights.sum()
    p = np.clip(prevalence, 0.5 / n, None)  # a class at 0 keeps a finite logit
    p = p / p.sum()
    log_p = np.log(p) - np.log(p.max())
    free_p = np.ones_like(p, dtype=bool)
    free_p[np.argmax(p)] = False
    rated = onehot.sum(axis=2)  # (n, R): 1 where rated
    # the expected number of class-c items each rater rated
    exposure = np.einsum("ic,ir,i->rc", posterior, rated, weights)
    boundary = confusion * exposure[:, :, None] < _FLOOR
    base = confusion.argmax(axis=2)
    with np.errstate(divide="ignore"):
        log_pi = np.log(confusion) - np.log(confusion.max(axis=2, keepdims=True))
    log_pi[boundary] = -np.inf
    free_pi = ~boundary
    np.put_along_axis(free_pi, base[..., None], False, axis=2)
    np.put_along_axis(log_pi, base[..., None], 0.0, axis=2)
    return _Coordinates(log_p, log_pi, free_p, free_pi)


def _item_scores(coords: _Coordinates, onehot: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Each item's score in the free logits ``(n, d)`` (Fisher's identity, module doc)."""
    p, pi = coords.params(theta)
    n, r, k = onehot.shape
    post, _ = e_step(onehot.reshape(n, r * k), p[None], pi[None])
    w = post[0]
    score_p = w - p[None, :]
    rated = onehot.sum(axis=2)
    score_pi = w[:, None, :, None] * (
        onehot[:, :, None, :] - rated[:, :, None, None] * pi[None, :, :, :]
    )  # (n, R, k, k)
    return np.concatenate([score_p[:, coords.free_p], score_pi[:, coords.free_pi]], axis=1)


def _jacobian(fun: Any, theta: np.ndarray) -> np.ndarray:
    """Central-difference Jacobian of ``fun`` (vector → vector) at ``theta``: ``(m, d)``."""
    cols = []
    for j in range(theta.size):
        step = np.zeros_like(theta)
        step[j] = _STEP
        cols.append((fun(theta + step) - fun(theta - step)) / (2 * _STEP))
    return np.column_stack(cols)


@dataclass(frozen=True, slots=True)
class Quantities:
    """The reported quantities as functions of (prevalence, confusion): ``(k + R + R k,)``.

    Each class's prevalence, then each rater's accuracy ``Σ_c p_c π_r[c, c]``, then each
    rater's ``π_r[c, c]`` (rater by rater, class by class: for two classes its specificity
    and sensitivity).
    """

    @staticmethod
    def of(prevalence: np.ndarray, confusion: np.ndarray) -> np.ndarray:
        """Return the quantities at ``(prevalence, confusion)`` (batched over leading axes)."""
        diag = np.diagonal(confusion, axis1=-2, axis2=-1)  # (..., R, k)
        accuracy = (diag * prevalence[..., None, :]).sum(axis=-1)
        flat = diag.reshape(*diag.shape[:-2], -1)
        return np.concatenate([prevalence, accuracy, flat], axis=-1)


def covariance(onehot, weights, prevalence, confusion, posterior, *, sandwich: bool):
    """Covariance ``(m, m)`` of the quantities' logits (observed information or sandwich).

    ``onehot`` holds the distinct rating patterns and ``weights`` their counts; returns the
    covariance, or None when the information matrix is singular.
    """
    coords = _coordinates(onehot, weights, prevalence, confusion, posterior)
    theta = coords.theta()
    info = -_jacobian(lambda t: weights @ _item_scores(coords, onehot, t), theta)
    info = (info + info.T) / 2
    try:
        inv = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        return None
    if not np.all(np.isfinite(inv)) or np.any(np.diag(inv) <= 0):
        return None
    v = inv
    if sandwich:
        scores = _item_scores(coords, onehot, theta)
        v = inv @ (scores.T @ (weights[:, None] * scores)) @ inv

    def logits(t: np.ndarray) -> np.ndarray:
        q = np.clip(Quantities.of(*coords.params(t)), 1e-12, 1 - 1e-12)
        return logit(q)

    grad = _jacobian(logits, theta)
    return grad @ v @ grad.T


def wald_bounds(values: np.ndarray, cov: np.ndarray | None, level: float) -> np.ndarray:
    """``expit(logit ĝ ± z se)`` per quantity ``(m, 2)``; NaN rows where ``cov`` is None."""
    if cov is None:
        return np.full((values.size, 2), np.nan)
    z = norm.ppf(0.5 + level / 2)
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    centre = logit(np.clip(values, 1e-12, 1 - 1e-12))
    return np.column_stack([expit(centre - z * se), expit(centre + z * se)])


def bootstrap_bounds(onehot, inverse, prevalence, confusion, *, level, n_resamples, rng, tol,
                     max_iter):  # fmt: skip
    """Percentile bounds ``(m, 2)`` over items resampled, and the replicates not converged.

    ``onehot`` holds the distinct rating patterns and ``inverse`` each item's pattern: a
    replicate's weight of a pattern is how many of its items were drawn.
    """
    n, u = inverse.size, onehot.shape[0]
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=n_resamples).astype(float)
    index = inverse[None, :] + u * np.arange(n_resamples)[:, None]
    weights = np.bincount(index.ravel(), weights=counts.ravel(), minlength=n_resamples * u)
    weights = weights.reshape(n_resamples, u)
    start = (
        np.broadcast_to(prevalence, (n_resamples, *prevalence.shape)),
        np.broadcast_to(confusion, (n_resamples, *confusion.shape)),
    )
    fit = orient(em_fit(onehot, weights, start, tol=tol, max_iter=max_iter))
    values = Quantities.of(fit.prevalence, fit.confusion)  # (B, m)
    alpha = (1 - level) / 2
    bounds = np.quantile(values, [alpha, 1 - alpha], axis=0).T
    return bounds, int((~fit.converged).sum())


def _profile(onehot, counts, confusion, posterior0, c, values, *, tol, max_iter):
    """Return the profile log-likelihood of ``p_c`` at each of ``values`` ``(G,)``.

    EM with ``p_c`` held (:func:`~.latent_em.em_fit`'s ``fixed``) from the fit's confusion,
    and, given ``posterior0``, from those posteriors too; the higher maximum is kept.
    """
    g = values.size
    weights = np.broadcast_to(counts, (g, counts.size))
    k = confusion.shape[-1]
    rest = np.full((g, k), 1.0 / k)
    rest[:, c] = 0.0
    start_p = rest / rest.sum(axis=1, keepdims=True) * (1.0 - values[:, None])
    start_p[:, c] = values
    warm = em_fit(onehot, weights, (start_p, np.broadcast_to(confusion, (g, *confusion.shape))),
                  tol=tol, max_iter=max_iter, fixed=(c, values))  # fmt: skip
    if posterior0 is None:
        return warm.loglik
    cold = em_fit(onehot, weights, posterior0, tol=tol, max_iter=max_iter, fixed=(c, values))
    return np.maximum(warm.loglik, cold.loglik)


def _crossing(grid: np.ndarray, excess: np.ndarray, centre: int, step: int) -> float | None:
    """Walk from ``grid[centre]`` by ``step`` to the first ``excess > 0``; interpolate there.

    Returns None when the walk leaves the grid without crossing (the bound is the grid's end).
    """
    i = centre
    while 0 <= i + step < grid.size:
        if excess[i + step] > 0:
            a, b = excess[i], excess[i + step]
            return float(grid[i] + (grid[i + step] - grid[i]) * (-a) / (b - a))
        i += step
    return None


def profile_bounds(onehot, counts, prevalence, confusion, loglik, c, *, level, tol, max_iter,
                   points=41):  # fmt: skip
    """Profile-likelihood bounds ``(2,)`` of the prevalence ``p_c`` and the top log-likelihood.

    The interval is ``{v : 2 (ℓ̂ − max_{θ: p_c = v} ℓ(θ)) ≤ χ²₁(level)}`` (Wilks), the
    connected set around ``p̂_c``: ``points`` values evenly spaced on the logit scale over
    (0.001, 0.999) with ``p̂_c`` among them (EM from the fit and from the vote shares at
    each), then ``points // 2`` more inside each bracket of a crossing (EM from the fit), the
    bound interpolated linearly between the last value inside and the first outside; a side
    that never crosses is bounded by 0 or 1. ``onehot`` holds the distinct
    rating patterns and ``counts`` their counts.
    """
    from scipy.stats import chi2

    crit = chi2.ppf(level, 1) / 2.0
    start = vote_shares(onehot)
    p_hat = float(prevalence[c])
    grid = np.unique(np.append(expit(np.linspace(logit(1e-3), logit(1 - 1e-3), points)), p_hat))
    prof = _profile(onehot, counts, confusion, start, c, grid, tol=tol, max_iter=max_iter)
    top = max(float(loglik), float(prof.max()))
    centre = int(np.argmax(prof))
    bounds = [0.0, 1.0]
    for side, step in ((0, -1), (1, 1)):
        cross = _crossing(grid, top - prof - crit, centre, step)
        if cross is None:
            continue
        j = int(np.searchsorted(grid, cross))
        fine = np.linspace(grid[j - 1], grid[j], points // 2)
        fine_prof = _profile(onehot, counts, confusion, None, c, fine, tol=tol,
                             max_iter=max_iter)  # fmt: skip
        excess = top - fine_prof - crit
        inside = np.flatnonzero(excess <= 0)
        if inside.size == 0:  # the fine values all lie outside: the bracket's inner end
            bounds[side] = float(fine[-1] if side == 0 else fine[0])
            continue
        at = int(inside.min() if side == 0 else inside.max())
        hit = _crossing(fine, excess, at, step)
        bounds[side] = float(fine[at]) if hit is None else hit
    return np.array(bounds), top
