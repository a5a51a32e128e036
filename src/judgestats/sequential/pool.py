"""The judged pool of one group while its items are labelled: the estimator each draw feeds.

The pool is N judged items split into cells j (the judge's letter, or the letter within a
stratum) of known sizes N_j. Item i carries a human value v_i in [0, 1] (its label, or the mean
of its raters' labels) and a weight w_i (1, or k_i N / K to weight each of its k_i rows); the
estimand is the pool's human rate θ = Σ_i w_i v_i / N, known exactly once every item is
labelled. Items are labelled one draw at a time without replacement: draw t picks cell J with a
probability q_J fixed before the draw and an item uniformly among J's R_J unlabelled items
(inclusion probability q_J / R_J). With S_j the labelled sum of y = w v in cell j and f_j a
prediction of an unlabelled y in j made before the draw,

    Z_t = [ Σ_j (S_j + R_j f_j) + R_J (y − f_J) / q_J ] / N

has conditional mean exactly θ (Horvitz–Thompson on the unlabelled remainder, with the
prediction as a control variate: the prediction-powered form of Zrnic & Candès 2024, "Active
statistical inference", ICML, written for sampling without replacement from a finite pool). Its
bounds follow from 0 <= y <= w_max,j, and its variance is about Σ_j R_j² σ_j² / (q_j N²),
which the allocation q_j ∝ R_j σ_j (Neyman) minimises. These Z_t feed
:class:`~judgestats.sequential.betting.BettingSequence`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..designs import BY_JUDGE_LABEL, RANDOM
from .stacking import Stack

__all__ = [
    "FLOOR", "NEYMAN", "SMOOTHING", "STRATEGY_NAMES", "UNIFORM", "Increment", "PoolState",
    "cell_probabilities",
]  # fmt: skip

#: share of every draw's probability spread uniformly over the unlabelled items under the
#: by-judge-label strategy (so no cell starves while its estimate is poor)
FLOOR = 0.1

#: the prior weight, in labelled items, of a score bin's neighbours in its prediction
#: (benchmarks/results/sequential_scores.md: with 10 bins, narrower than the letter-only
#: monitor from 100 labels on where the score carries more than its letter)
SMOOTHING = 5.0

#: every unlabelled item equally likely: the draws of the random design (its ``draw_strategy``)
UNIFORM = str(RANDOM.draw_strategy)
#: Neyman allocation across judge letters with a uniform floor: the by-judge-label design's
NEYMAN = str(BY_JUDGE_LABEL.draw_strategy)
#: the strategies a labelling process draws by
STRATEGY_NAMES = (UNIFORM, NEYMAN)


@dataclass(frozen=True, slots=True)
class Increment:
    """One draw's Z_t with its predictable bounds and variance estimate (arrays over replays)."""

    z: Any
    lo: Any
    hi: Any
    variance: Any


def _at(a: np.ndarray, cell: Any) -> np.ndarray:
    """Return ``a[..., cell]`` per leading index (cell an int, or an int array over the replays)."""
    return np.take_along_axis(a, np.asarray(cell)[..., None], axis=-1)[..., 0]


def _bump(a: np.ndarray, cell: Any, value: Any) -> None:
    """Add ``value`` to ``a[..., cell]`` per leading index."""
    if a.ndim == 1:
        a[cell] += value
    else:
        a[np.arange(a.shape[0]), cell] += value


def _neighbours(v: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Each bin's labelled rate (sum v over n labels) shrunk towards it and its two neighbours'.

    The neighbours' pooled rate is (sum + 1/2) / (labels + 1); the bin's own is shrunk towards
    it by :data:`SMOOTHING` labels. Bins on the last axis, in the score's order.
    """
    zero = np.zeros_like(v[..., :1])
    pad_v, pad_n = (np.concatenate([zero, a, zero], axis=-1) for a in (v, n))
    near_v = pad_v[..., :-2] + pad_v[..., 1:-1] + pad_v[..., 2:]
    near_n = pad_n[..., :-2] + pad_n[..., 1:-1] + pad_n[..., 2:]
    near = (near_v + 0.5) / (near_n + 1.0)
    return (v + SMOOTHING * near) / (n + SMOOTHING)


@dataclass
class PoolState:
    """The labelling state of one group's pool (cells, remaining items, labelled sums).

    Every array has the cells on its last axis; leading axes, when present, are independent
    replays (the benchmark runs many labelling processes at once through the same formulas).

    Parameters
    ----------
    size : ndarray of int
        N_j, items per cell.
    weight_sum, weight_max : ndarray of float
        Σ w_i and max w_i per cell (both equal ``size`` and 1 when each item weighs 1).
    smooth : bool
        The cells are bins of a judge score in the score's order: each cell's prediction and
        variance estimate borrow from its neighbours (:meth:`prediction`).
    parent : ndarray of int, optional
        With ``smooth``: each cell's bin, when the cells split the bins further (covariate
        strata, a jury's letters within its bins). The bins, in the score's order, are
        smoothed over their neighbours, and each cell is shrunk towards its bin's rate.
    features : ndarray, optional
        With ``smooth``: (cells, p) feature rows of a jury's logistic stack, refit on the
        labels so far (:class:`~judgestats.sequential.stacking.Stack`); each cell is shrunk
        towards the stack's rate (in place of its neighbours').
    """

    size: np.ndarray
    weight_sum: np.ndarray
    weight_max: np.ndarray
    smooth: bool = False
    parent: Any = None
    features: Any = None

    def __post_init__(self) -> None:
        self.size = np.asarray(self.size, dtype=float)
        self.weight_sum = np.asarray(self.weight_sum, dtype=float)
        self.weight_max = np.asarray(self.weight_max, dtype=float)
        self.remaining = self.size.copy()
        self.weight_left = self.weight_sum.copy()
        self.labelled_sum = np.zeros_like(self.size)
        self.labelled_n = np.zeros_like(self.size)
        self._member = None  # cells × bins, one 1 per row: sums a cell array into its bins
        if self.parent is not None:
            self.parent = np.asarray(self.parent, dtype=int)
            self._member = np.eye(int(self.parent.max()) + 1)[self.parent]
        self._stack = None if self.features is None else Stack(self.features)

    @property
    def total(self) -> Any:
        """N, the pool's items."""
        return self.size.sum(axis=-1)

    def _mean_weight(self) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.remaining > 0, self.weight_left / self.remaining, 1.0)

    def prediction(self) -> np.ndarray:
        """f_j: a labelled cell's mean y, shrunk towards half its mean weight by one item.

        With ``smooth`` (score bins): shrunk instead by :data:`SMOOTHING` items towards the
        labelled rate of the cell and its two neighbours (a running smoother of the score,
        learned from the labels so far), so a bin with few labels leans on the bins beside it.
        With ``parent`` (cells within bins): each bin's rate is that smoother over the bins'
        pooled labels, and each cell's rate is its own shrunk by :data:`SMOOTHING` items
        towards its bin's. With ``features`` (a jury's stack): shrunk by :data:`SMOOTHING`
        items towards the stack's rate. Every step is a function of the labels so far
        (predictable).
        """
        w = self._mean_weight()
        if self.smooth:
            return self._smoothed() * w
        return (self.labelled_sum + 0.5 * w) / (self.labelled_n + 1.0)

    def _smoothed(self) -> np.ndarray:
        """Each cell's human rate (on the 0–1 scale): its bin's neighbours, then its bin's."""
        v = self.labelled_sum / self._mean_weight()
        if self._stack is not None:
            stack = self._stack.rates(v, self.labelled_n)
            return (v + SMOOTHING * stack) / (self.labelled_n + SMOOTHING)
        if self._member is None:
            return _neighbours(v, self.labelled_n)
        bins = _neighbours(v @ self._member, self.labelled_n @ self._member)
        return (v + SMOOTHING * bins[..., self.parent]) / (self.labelled_n + SMOOTHING)

    def spread(self) -> np.ndarray:
        """σ̃_j², a variance estimate of y in cell j kept away from 0 (one item of each kind).

        With ``smooth``: r(1 − r) at the smoothed rate r of :meth:`prediction`, kept above
        1/(4(n + 4)) with n the labels so far.
        """
        w = self._mean_weight()
        if self.smooth:
            r = self._smoothed()
            least = 0.25 / (self.labelled_n.sum(axis=-1, keepdims=True) + 4.0)
            return w * w * np.clip(r * (1.0 - r), least, 0.25)
        r = (self.labelled_sum / w + 1.0) / (self.labelled_n + 2.0)
        return w * w * np.clip(r * (1.0 - r), 0.0, 0.25)

    def estimate(self) -> Any:
        """Return the post-stratified estimate of θ: labelled cells at their mean, others at w̄/2."""
        w = self._mean_weight()
        seen = self.labelled_n > 0
        mean = np.where(seen, self.labelled_sum / np.maximum(self.labelled_n, 1), 0.5 * w)
        return (self.labelled_sum + self.remaining * mean).sum(axis=-1) / self.total

    def increment(self, cell: Any, y: Any, q: np.ndarray) -> Increment:
        """Z_t for labelling one item of ``cell`` with value ``y`` drawn with cell probabilities q.

        The bounds and the variance use only what was known before the draw.
        """
        n, f, rem = self.total, self.prediction(), self.remaining
        live = rem > 0
        known = (self.labelled_sum + rem * f).sum(axis=-1) / n
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.where(live, rem / (q * np.asarray(n)[..., None]), 0.0)
        lo = known + np.min(np.where(live, -scale * f, np.inf), axis=-1)
        hi = known + np.max(np.where(live, scale * (self.weight_max - f), -np.inf), axis=-1)
        variance = np.sum(np.where(live, scale * scale * q * self.spread(), 0.0), axis=-1)
        z = known + _at(scale, cell) * (y - _at(f, cell))
        return Increment(z=z, lo=lo, hi=hi, variance=variance)

    def record(self, cell: Any, y: Any, weight: Any) -> None:
        """Move one item of ``cell`` (value y = w v, weight w) from unlabelled to labelled."""
        _bump(self.remaining, cell, -1.0)
        _bump(self.weight_left, cell, -np.asarray(weight, dtype=float))
        _bump(self.labelled_sum, cell, y)
        _bump(self.labelled_n, cell, 1.0)


def cell_probabilities(
    remaining: np.ndarray, spread: np.ndarray, strategy: str, floor: float = FLOOR
) -> np.ndarray:
    """q_j, the probability that the next draw comes from cell j.

    Parameters
    ----------
    remaining : ndarray
        R_j, unlabelled items per cell now.
    spread : ndarray
        σ̃_j² from the labels before the round (:meth:`PoolState.spread`), fixed for the round.
    strategy : {"uniform", "by-judge-label"}
        ``"uniform"``: q_j = R_j / R (every unlabelled item equally likely).
        ``"by-judge-label"``: Neyman allocation q_j ∝ R_j σ̃_j mixed with the uniform one,
        q = (1 − floor) q_Neyman + floor q_uniform, so that every cell keeps a share.
    floor : float
        The uniform share under ``"by-judge-label"``.
    """
    uniform = remaining / remaining.sum(axis=-1, keepdims=True)
    if strategy == UNIFORM:
        return uniform
    ney = remaining * np.sqrt(spread)
    total = ney.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        ney = np.where(total > 0, ney / total, uniform)
    return (1.0 - floor) * ney + floor * uniform
