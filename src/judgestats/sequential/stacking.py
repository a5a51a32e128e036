"""A jury's logistic stack, refit on the labels seen so far: the monitor's predictor.

The pool's items are split into fixed cells (the members' pool-quantile bins, crossed, and
covariate levels; :func:`judgestats.sequential.inputs.frame_pool`), each with a feature row x_j
computed from the pool alone (the members' normal scores of their pool ranks, covariates). The
stack is a ridge-penalised logistic regression of the human label on x_j, fitted to the
labelled items' cell sums (the likelihood of a binomial per cell),

    maximise  Σ_j [ S_j η_j − n_j log(1 + e^{η_j}) ] − (λ/2) Σ_k β_k²,   η_j = x_j β,

by Newton's method (to 1e-10), warm-started from the last fit and refit every :data:`REFIT`
labels (the fit uses only labels before the draw it serves, so the increments stay predictable
and the sequence stays valid). A cell's prediction is its labelled rate shrunk by a few items
towards the stack's (:class:`judgestats.sequential.pool.PoolState`), so a cell with many labels
follows its own rate and a cell with none follows the stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["REFIT", "RIDGE", "Stack"]

#: labels between refits of the stack
REFIT = 20
#: λ, the ridge penalty on every coefficient (the intercept's too: it is 0 before any label)
RIDGE = 1.0
_NEWTON = 50  # at most this many Newton steps per refit, warm-started from the last fit
_CONVERGED = 1e-10  # stop once no coefficient moves more than this


@dataclass
class Stack:
    """The stack of one pool (or of many replays at once, on the leading axes).

    Parameters
    ----------
    features : ndarray
        (cells, p): each cell's feature row, its first column 1 (the intercept).
    """

    features: np.ndarray
    beta: Any = None
    fitted_at: int = field(default=-1)
    _rates: Any = None

    def __post_init__(self) -> None:
        self.features = np.asarray(self.features, dtype=float)

    def rates(self, successes: np.ndarray, trials: np.ndarray) -> np.ndarray:
        """Return the stack's rate per cell, refit when :data:`REFIT` more labels arrived.

        ``successes`` and ``trials`` are the cells' labelled sums and counts (cells on the last
        axis; leading axes are replays, which all hold the same number of labels).
        """
        labels = round(float(np.asarray(trials).sum(axis=-1).flat[0]))
        block = labels // REFIT
        if self._rates is None or block != self.fitted_at:
            self._fit(successes, trials)
            self.fitted_at = block
            self._rates = 1.0 / (1.0 + np.exp(-(self.beta @ self.features.T)))
        return self._rates

    def _fit(self, s: np.ndarray, n: np.ndarray) -> None:
        x = self.features
        p = x.shape[1]
        if self.beta is None:
            self.beta = np.zeros((*s.shape[:-1], p))
        penalty = RIDGE * np.eye(p)
        for _ in range(_NEWTON):  # the penalised likelihood is strictly concave: Newton converges
            mu = 1.0 / (1.0 + np.exp(-(self.beta @ x.T)))
            grad = (s - n * mu) @ x - RIDGE * self.beta
            hess = np.einsum("...c,cp,cq->...pq", n * mu * (1.0 - mu), x, x) + penalty
            step = np.linalg.solve(hess, grad[..., None])[..., 0]
            self.beta = self.beta + step
            if np.max(np.abs(step)) < _CONVERGED:
                break
