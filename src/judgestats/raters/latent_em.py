"""The Dawid–Skene latent-class model fitted by EM, batched over weighted data sets.

The model (Dawid & Skene 1979): item ``i`` has a latent true class ``z_i ∈ {0, …, k−1}``
with ``P(z_i = c) = p_c``; given ``z_i = c``, rater ``r`` gives label ``l`` with probability
``π_r[c, l]`` (rows = true class, columns = the rater's label), independently of the other
raters (conditional independence). A missing rating is skipped (missing at random). The
marginal likelihood of item ``i`` is ``Σ_c p_c Π_r π_r[c, y_ir]``.

EM: the E-step computes each item's posterior class probabilities ``w_ic``; the M-step sets
``p_c = Σ_i w_ic / n`` and ``π_r[c, l] = Σ_i w_ic 1[y_ir = l] / Σ_i w_ic 1[r rated i]``.
Everything here is batched over ``B`` weight vectors (``weights[b, i]`` = how often item ``i``
is in data set ``b``), so the item bootstrap is ``B`` weighted fits at once.

Start: the raters' vote shares per item (Dawid & Skene's own start, a "soft" majority vote;
a tie is split evenly). Orientation (label switching): the latent class ``c`` is named after
the label ``σ(c)`` that maximises the raters' summed agreement ``Σ_r Σ_c π_r[c, σ(c)]``
(an assignment problem); with two classes this says the raters' mean Youden's J is ≥ 0, i.e.
the raters, taken together, are better than chance.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from itertools import permutations

import numpy as np

__all__ = ["LOG_FLOOR", "EMFit", "em_fit", "one_hot", "orient", "patterns", "vote_shares"]

#: Floor of a probability inside a logarithm (a zero confusion entry stays a zero).
LOG_FLOOR = 1e-300


@dataclass(frozen=True, slots=True)
class EMFit:
    """EM's answer for ``B`` data sets.

    Prevalence ``(B, k)``, confusion ``(B, R, k, k)``, posterior ``(B, n, k)``,
    log-likelihood ``(B,)``, iterations and convergence ``(B,)``.
    """

    prevalence: np.ndarray
    confusion: np.ndarray
    posterior: np.ndarray
    loglik: np.ndarray
    iterations: int
    converged: np.ndarray


def patterns(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the distinct rows of a code matrix ``(U, R)``, each item's row and the counts.

    Items with the same ratings have the same posterior: EM, the scores and the bootstrap run
    on the ``U`` patterns weighted by their counts (``U`` ≤ 3^R for two classes, and far
    fewer in practice), not on the ``n`` items.
    """
    unique, inverse, counts = np.unique(codes, axis=0, return_inverse=True, return_counts=True)
    return unique, inverse.reshape(-1), counts.astype(float)


def one_hot(codes: np.ndarray, k: int) -> np.ndarray:
    """Return the ``(n, R, k)`` indicator of each rating (all zero where it is missing, −1)."""
    out = np.zeros((*codes.shape, k))
    i, r = np.nonzero(codes >= 0)
    out[i, r, codes[i, r]] = 1.0
    return out


def vote_shares(onehot: np.ndarray) -> np.ndarray:
    """Each item's share of votes per class ``(n, k)``: EM's start (ties split evenly)."""
    votes = onehot.sum(axis=1)
    return votes / votes.sum(axis=1, keepdims=True)


def _log_joint(onehot2: np.ndarray, log_p: np.ndarray, log_pi: np.ndarray) -> np.ndarray:
    """``log p_c + Σ_r log π_r[c, y_ir]`` as ``(B, n, k)``; ``onehot2`` is ``(n, R·k)``."""
    b, r, k, _ = log_pi.shape
    stacked = log_pi.transpose(0, 1, 3, 2).reshape(b, r * k, k)  # rows (rater, label)
    return log_p[:, None, :] + onehot2 @ stacked


def e_step(onehot2: np.ndarray, prevalence: np.ndarray, confusion: np.ndarray):
    """Posterior class probabilities ``(B, n, k)`` and each item's log-likelihood ``(B, n)``."""
    joint = _log_joint(
        onehot2,
        np.log(np.maximum(prevalence, LOG_FLOOR)),
        np.log(np.maximum(confusion, LOG_FLOOR)),
    )
    classes = [joint[..., c] for c in range(joint.shape[2])]  # k is small: loop, not reduce
    top = reduce(np.maximum, classes)
    item = top + np.log(reduce(np.add, [np.exp(c - top) for c in classes]))
    return np.exp(joint - item[..., None]), item


def _hold(prevalence: np.ndarray, fixed: tuple[int, np.ndarray] | None) -> np.ndarray:
    """Set class ``c``'s prevalence to ``values`` ``(B,)``, the others scaled to fill the rest.

    The maximiser of ``Σ_j W_j log p_j`` subject to ``p_c = v`` (the profile likelihood's
    constrained M-step): ``p_j ∝ W_j`` for ``j ≠ c``, summing to ``1 − v``.
    """
    if fixed is None:
        return prevalence
    c, values = fixed
    k = prevalence.shape[1]
    total = prevalence.sum(axis=1) - prevalence[:, c]  # the other classes' weight
    scale = (1.0 - values) / np.where(total > 0, total, 1.0)
    out = np.where((total > 0)[:, None], prevalence * scale[:, None],
                   ((1.0 - values) / (k - 1))[:, None])  # fmt: skip
    out[:, c] = values
    return out


def m_step(onehot2, posterior, weights, previous, fixed=None):
    """Weighted maximisation: prevalence ``(B, k)`` and confusion ``(B, R, k, k)``.

    A confusion row with no weight (a rater with no rated item of a class in a resample)
    keeps its previous value. ``fixed = (c, values (B,))`` holds class ``c``'s prevalence at
    ``values`` (:func:`_hold`; the profile likelihood).
    """
    b, _, k = posterior.shape
    weighted = posterior * weights[..., None]
    prevalence = _hold(weighted.sum(axis=1) / weights.sum(axis=1, keepdims=True), fixed)
    num = (weighted.transpose(0, 2, 1) @ onehot2).reshape(b, k, -1, k).transpose(0, 2, 1, 3)
    den = num.sum(axis=3, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        confusion = np.where(den > 0, num / np.where(den > 0, den, 1.0), previous)
    return prevalence, confusion


def _step(onehot2, prevalence, confusion, weights, fixed=None):
    """One EM step: the new parameters and the log-likelihood at the old ones ``(B,)``."""
    post, item = e_step(onehot2, prevalence, confusion)
    new_p, new_pi = m_step(onehot2, post, weights, confusion, fixed)
    return new_p, new_pi, (item * weights).sum(axis=1)


def _flat(p: np.ndarray, pi: np.ndarray) -> np.ndarray:
    return np.concatenate([p, pi.reshape(p.shape[0], -1)], axis=1)


def _squarem(onehot2, start, first, weights, loglik, fixed=None):
    """SQUAREM's extrapolation (Varadhan & Roland 2008, scheme S3) from one EM step on.

    From ``θ0`` and ``θ1 = EM(θ0)``: ``θ2 = EM(θ1)``, ``r = θ1 − θ0``, ``v = θ2 − θ1 − r``,
    ``α = min(−‖r‖/‖v‖, −1)``, ``θ' = θ0 − 2αr + α²v``, and one EM step from ``θ'``. A data
    set whose ``θ'`` leaves the simplex or lowers the likelihood below ``θ0``'s keeps ``θ2``
    (plain EM): the fixed point is EM's, reached in far fewer iterations.
    """
    p0, pi0 = start
    p1, pi1 = first
    p2, pi2, _ = _step(onehot2, p1, pi1, weights, fixed)
    x0, x1, x2 = _flat(p0, pi0), _flat(p1, pi1), _flat(p2, pi2)
    r, v = x1 - x0, x2 - 2 * x1 + x0
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = -np.sqrt((r * r).sum(axis=1) / (v * v).sum(axis=1))
    alpha = np.minimum(np.nan_to_num(alpha, nan=-1.0, neginf=-1.0), -1.0)[:, None]
    x = x0 - 2 * alpha * r + alpha * alpha * v
    k = p0.shape[1]
    ok = ((x >= 0) & (x <= 1)).all(axis=1)
    p3, pi3 = x[:, :k], x[:, k:].reshape(pi0.shape)
    p4, pi4, extrapolated = _step(onehot2, np.where(ok[:, None], p3, p2),
                                  np.where(ok[:, None, None, None], pi3, pi2), weights,
                                  fixed)  # fmt: skip
    ok &= extrapolated >= loglik
    return np.where(ok[:, None], p4, p2), np.where(ok[:, None, None, None], pi4, pi2)


def em_fit(
    onehot: np.ndarray,
    weights: np.ndarray,
    start: tuple[np.ndarray, np.ndarray] | np.ndarray,
    *,
    tol: float,
    max_iter: int,
    fixed: tuple[int, np.ndarray] | None = None,
) -> EMFit:
    """Run EM on ``B`` weighted copies of one code matrix.

    Parameters
    ----------
    onehot : ndarray, shape (n, R, k)
        :func:`one_hot` of the code matrix.
    weights : ndarray, shape (B, n)
        Each data set's weight of each item (1 for the data as observed; bootstrap counts).
    start : ndarray (n, k) or tuple of ndarrays
        Initial posteriors (e.g. :func:`vote_shares`: EM begins with an M-step), or the
        parameters ``(prevalence (B, k), confusion (B, R, k, k))`` to begin with an E-step.
    tol : float
        A data set stops when none of its prevalence or confusion entries moves by more than
        ``tol`` in one iteration, or its log-likelihood rises by less than ``tol / 1000``.
    max_iter : int
        Iteration cap; ``converged`` is False for the data sets still moving then.
    fixed : tuple (int, ndarray of shape (B,)), optional
        ``(c, values)``: hold class ``c``'s prevalence at ``values[b]`` in data set ``b``
        (the constrained maximum of the profile likelihood; a tuple ``start`` should carry
        these values already).
    """
    n, r, k = onehot.shape
    onehot2 = onehot.reshape(n, r * k)
    b = weights.shape[0]
    if isinstance(start, tuple):
        prevalence, confusion = (np.array(a, dtype=float) for a in start)  # copies
    else:
        post = np.broadcast_to(start, (b, n, k))
        prevalence, confusion = m_step(onehot2, post, weights, np.full((b, r, k, k), 1.0 / k),
                                       fixed)
    moving = np.ones(b, dtype=bool)  # only the data sets still moving are iterated
    last = np.full(b, -np.inf)
    iterations = 0
    for iterations in range(1, max_iter + 1):  # noqa: B007 (the count is returned)
        idx = np.flatnonzero(moving)
        p, pi, w = prevalence[idx], confusion[idx], weights[idx]
        held = None if fixed is None else (fixed[0], fixed[1][idx])
        p1, pi1, loglik = _step(onehot2, p, pi, w, held)
        step = np.maximum(
            np.abs(p1 - p).max(axis=1), np.abs(pi1 - pi).reshape(idx.size, -1).max(axis=1)
        )
        prevalence[idx], confusion[idx] = _squarem(onehot2, (p, pi), (p1, pi1), w, loglik,
                                                   held)
        # stop on an EM step under tol, or a log-likelihood that no longer rises (a parameter
        # creeping to its boundary moves by more than tol for thousands of iterations)
        moving[idx] = (step > tol) & (loglik - last[idx] > tol * 1e-3)
        last[idx] = loglik
        if not moving.any():
            break
    post, item = e_step(onehot2, prevalence, confusion)
    loglik = (item * weights).sum(axis=1)
    return EMFit(prevalence, confusion, post, loglik, iterations, ~moving)


def _assignment(agreement: np.ndarray) -> np.ndarray:
    """Return the permutation σ (latent class c → label σ(c)) maximising Σ agreement[c, σ(c)]."""
    k = agreement.shape[0]
    if k <= 6:
        best = max(permutations(range(k)), key=lambda s: agreement[range(k), s].sum())
        return np.asarray(best)
    from scipy.optimize import linear_sum_assignment

    _, cols = linear_sum_assignment(-agreement)
    return cols


def orient(fit: EMFit) -> EMFit:
    """Rename each data set's latent classes so the raters agree with them most (module doc)."""
    prevalence = fit.prevalence.copy()
    confusion = fit.confusion.copy()
    posterior = fit.posterior.copy()
    for b in range(prevalence.shape[0]):
        sigma = _assignment(fit.confusion[b].sum(axis=0))
        if np.array_equal(sigma, np.arange(len(sigma))):
            continue
        prevalence[b, sigma] = fit.prevalence[b]
        confusion[b][:, sigma, :] = fit.confusion[b]
        posterior[b][:, sigma] = fit.posterior[b]
    return EMFit(prevalence, confusion, posterior, fit.loglik, fit.iterations, fit.converged)
