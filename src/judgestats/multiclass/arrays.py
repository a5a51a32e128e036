"""Array-level kernels of the k-category correction: θ̂ = Ĉ⁻¹p̂ for batches of data sets.

Paper eq. (23). Which matrices may be inverted (condition number at most
``MAX_CONDITION``; for k = 2 also q̂0 + q̂1 > 1), the batched solve, the judged rates, the
multinomial covariance, and the maximum-likelihood fit on the probability simplex used when
Ĉ⁻¹p̂ has negative entries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import (
    check_batched_category_counts,
    check_max_condition,
)
from ..counts.categories import (
    _condition_number,
)
from .likelihood import (
    alphabet_mle,
)

if TYPE_CHECKING:  # pragma: no cover
    pass

__all__ = [
    "MAX_CONDITION",
    "distribution_estimate",
]


#: Default ceiling on the 2-norm condition number κ(Ĉ) = σ_max/σ_min of the estimated
#: confusion matrix. The expansion (Ĉ)⁻¹ = Σ_j (−C⁻¹ΔC)^j C⁻¹ behind both the consistency of
#: θ̂ and the delta method is only guaranteed when κ(C)·‖ΔC‖/‖C‖ < 1; a calibration column of
#: m_b items has relative sampling error of order 1/√m_b ≥ 0.01 for any m_b <= 10,000, so
#: κ > 100 breaks the guarantee for every realistic calibration set. For k = 2 with equal
#: error rates, κ = 1/(q0 + q1 − 1): the threshold refuses judges with Youden J < 0.01.
MAX_CONDITION: float = 100.0


def _usable(matrix: np.ndarray, max_condition: float) -> tuple[np.ndarray, np.ndarray]:
    """Mask of matrices that may be inverted (κ <= max_condition; for k = 2 also det > 0)."""
    kappa = _condition_number(matrix)
    ok = kappa <= max_condition
    if matrix.shape[-1] == 2:  # the binary rule: q0 + q1 > 1 (judge better than chance)
        with np.errstate(invalid="ignore"):
            ok &= (matrix[..., 0, 0] + matrix[..., 1, 1]) > 1.0
    return ok, kappa


def _solve(matrix: np.ndarray, p: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Batched θ = C⁻¹p, NaN where not ``ok``."""
    k = matrix.shape[-1]
    safe = np.where(ok[..., None, None], matrix, np.eye(k))
    theta = np.linalg.solve(safe, p[..., None])[..., 0]
    return np.where(ok[..., None], theta, np.nan)


def _rates(test: np.ndarray, cal: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """p̂ (..., k), Ĉ (..., k, k) (NaN columns where a class is empty), column sizes m_b."""
    n = test.sum(axis=-1, keepdims=True)
    mb = cal.sum(axis=-2)
    with np.errstate(divide="ignore", invalid="ignore"):
        matrix = cal / mb[..., None, :]
    return test / n, matrix, mb


def _broadcast_batch(test: np.ndarray, cal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k = test.shape[-1]
    shape = np.broadcast_shapes(test.shape[:-1], cal.shape[:-2])
    return np.broadcast_to(test, (*shape, k)), np.broadcast_to(cal, (*shape, k, k))


def _simplex_ml(w: np.ndarray, matrix: np.ndarray, *, max_iter: int = 500) -> np.ndarray:
    """Maximise L(θ) = Σ_a w_a log (Cθ)_a over the probability simplex.

    ``w`` are the judged proportions p̂ (>= 0, summing to 1) and ``matrix`` an invertible Ĉ.
    Active-set projected Newton: Newton steps on the current face {θ_b = 0 for fixed b,
    Σθ = 1} with a backtracking line search that keeps θ >= 0; a variable that reaches 0 is
    fixed, and a fixed variable is released when its gradient exceeds the face's multiplier.
    At the optimum the KKT conditions read ∂L/∂θ_b = 1 on the support and <= 1 off it (because
    Σ_b θ_b ∂L/∂θ_b = Σ_a w_a = 1), a certificate the tests check.
    """
    keep = w > 0
    w = w[keep] / w[keep].sum()
    c = matrix[keep]
    k = c.shape[1]

    def loglik(t: np.ndarray) -> float:
        q = c @ t
        return float(w @ np.log(q)) if (q > 0).all() else -np.inf

    theta = np.full(k, 1.0 / k)  # interior start: every row of an invertible Ĉ has mass
    free = np.ones(k, dtype=bool)
    value = loglik(theta)
    for _ in range(max_iter):
        q = c @ theta
        grad = c.T @ (w / q)
        hess = (c.T * (w / q**2)) @ c  # minus the Hessian of L (positive semidefinite)
        idx = np.flatnonzero(free)
        nf = idx.size
        kkt = np.zeros((nf + 1, nf + 1))
        kkt[:nf, :nf] = hess[np.ix_(idx, idx)]
        kkt[:nf, nf] = kkt[nf, :nf] = 1.0
        sol = np.linalg.lstsq(kkt, np.append(grad[idx], 0.0), rcond=None)[0]
        step = np.zeros(k)
        step[idx] = sol[:nf]
        pgrad = np.zeros(k)
        pgrad[idx] = grad[idx] - grad[idx].mean()  # gradient projected on the face
        if np.abs(pgrad).max() <= 1e-12:  # stationary on this face: KKT check
            fixed = np.flatnonzero(~free)
            if fixed.size and grad[fixed].max() > grad[idx].mean() + 1e-12:
                free[fixed[np.argmax(grad[fixed])]] = True
                continue
            break
        if not np.isfinite(step).all() or grad @ step <= 1e-3 * (grad @ pgrad):
            step = pgrad  # Newton direction unusable (flat directions): gradient ascent
        slope = float(grad @ step)
        neg = step < 0
        ratios = np.full(k, np.inf)
        ratios[neg] = theta[neg] / -step[neg]
        j = int(np.argmin(ratios))
        s_max = ratios[j]
        s = min(1.0, s_max)
        while s > 1e-16:
            trial = np.maximum(theta + s * step, 0.0)
            trial_value = loglik(trial)
            if trial_value >= value + 1e-4 * s * slope:
                break
            s *= 0.5
        else:
            break  # no ascent possible at machine precision
        if s == s_max:  # walked onto the face θ_j = 0
            trial[j] = 0.0
            free[j] = False
        theta = trial / trial.sum()
        value = loglik(theta)
    return theta


# ----------------------------------------------------------------------------- methods
def _multinomial_cov(prob: np.ndarray, size: np.ndarray) -> np.ndarray:
    """(diag(π) − ππᵀ)/size over the last axis of ``prob``."""
    eye = np.eye(prob.shape[-1])
    outer = prob[..., :, None] * prob[..., None, :]
    return (prob[..., :, None] * eye - outer) / size[..., None, None]


# ----------------------------------------------------------------------------- array level
def distribution_estimate(
    test_counts: Any, calibration_counts: Any, *, max_condition: float = MAX_CONDITION
) -> np.ndarray:
    """Unconstrained θ̂ = Ĉ⁻¹p̂ for a batch of data sets (paper eq. (23)).

    Parameters
    ----------
    test_counts : array_like of int, shape (..., k)
        Judged counts per category of each test set.
    calibration_counts : array_like of int, shape (..., k, k)
        Calibration counts, rows = judge label, columns = human label. Batch shapes broadcast.
    max_condition : float, default MAX_CONDITION
        Data sets whose Ĉ has a larger condition number (or an empty column, or for k = 2
        q̂0 + q̂1 <= 1) get NaN.

    Returns
    -------
    ndarray, shape (..., k)
        Sums to one; entries may be negative (use :func:`correct_distribution` for one data
        set with projection, warnings and errors). For a judge alphabet (calibration counts
        of shape (..., J, K), J > K) there is no inverse: the joint maximum-likelihood
        estimate of :func:`judgestats.multiclass.likelihood.alphabet_mle`, on the simplex.
    """
    t, c = check_batched_category_counts(test_counts, calibration_counts)
    max_condition = check_max_condition(max_condition)
    if c.shape[-2] != c.shape[-1]:  # a judge alphabet: the joint maximum likelihood
        empty = (c.sum(axis=-2) == 0).any(axis=-1)
        return np.where(empty[..., None], np.nan, alphabet_mle(t, c)[0])
    t, c = _broadcast_batch(t, c)
    p, matrix, _ = _rates(t, c)
    ok, _ = _usable(matrix, max_condition)
    return _solve(matrix, p, ok)
