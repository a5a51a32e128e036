"""Many labelling processes at once: the monitor's formulas on arrays of replays.

Used to measure the confidence sequence (time-uniform coverage, width at given labels, labels
to reach a width) and to plan with it. A replay labels a fixed pool whose cells hold
``size[j]`` items, ``positive[j]`` of them human-positive; a draw from cell j is positive with
probability (positives left) / (items left), which is drawing an item uniformly without
replacement. Items weigh 1 (the items estimand).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    check_choice,
    check_confidence_level,
    check_positive_int,
    check_rng,
)
from ..kernels import z_value
from ..progress import counter
from .betting import bet, horizon, log_capital, sequence_ends
from .pool import FLOOR, STRATEGY_NAMES, UNIFORM, PoolState, cell_probabilities

__all__ = ["ReplayResult", "replay_labelling"]


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What :func:`replay_labelling` measured over its replays.

    Attributes
    ----------
    theta : float
        The pool's human rate (the estimand).
    covered : ndarray of bool
        Per replay: the rate inside every interval up to the last label (time-uniform).
    looks : ndarray of int
        The label counts at which widths were taken.
    width : ndarray
        (replays, looks): the interval's width at each look.
    covered_fixed : ndarray of bool or None
        Per replay, for the fixed-sample comparator peeked at every look: inside at every look.
    width_fixed : ndarray or None
        (replays, looks): the fixed-sample comparator's width.
    labels_needed : ndarray or None
        With ``target_width``: per replay, the labels after which the running interval (checked
        after every batch) was first at most that wide; NaN where it never was.

    Examples
    --------
    Made by :func:`replay_labelling`:

    >>> import judgestats as js
    >>> result = js.sequential.replay_labelling([1200, 800], [120, 680], labels=200,
    ...                                         looks=(100, 200), reps=20, rng=0)
    >>> result.looks.tolist(), result.covered.shape, result.width.shape
    ([100, 200], (20,), (20, 2))
    """

    theta: float
    covered: np.ndarray
    looks: np.ndarray
    width: np.ndarray
    covered_fixed: np.ndarray | None
    width_fixed: np.ndarray | None
    labels_needed: np.ndarray | None = None


def _fixed_width(state: PoolState, z_crit: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the fixed-sample stratified Wald interval (finite population) at the labels.

    θ̂ = Σ_j π_j r̂_j with the letters' pool shares π_j known; variance Σ_j π_j² r̂_j(1 − r̂_j)
    (1 − n_j/N_j)/(n_j − 1): what a team computes when it ignores that it looks repeatedly.
    """
    n, size = state.labelled_n, state.size
    pi = size / size.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(n > 0, state.labelled_sum / n, 0.5)
        var = np.where(n > 1, r * (1 - r) / (n - 1) * (1 - n / size), 0.25)
    est = (pi * r).sum(axis=-1)
    half = z_crit * np.sqrt((pi * pi * var).sum(axis=-1))
    return est - half, est + half, est


def _parent(parent: Any, size: np.ndarray) -> np.ndarray | None:
    """``parent`` checked: one bin index >= 0 per cell, or None."""
    if parent is None:
        return None
    out = np.asarray(parent)
    if out.shape != size.shape or out.dtype.kind not in "iu" or out.min() < 0:
        raise ArgumentTypeError(
            f"parent must hold one bin index >= 0 per cell ({size.size}), got {parent!r}"
        )
    return out


def replay_labelling(
    size: Any, positive: Any, *, strategy: str = UNIFORM, labels: int = 2000,
    batch: int = 20, looks: Any = (100, 500, 2000), reps: int = 1000,
    confidence_level: float = 0.95, tuned_for: int | None = None, floor: float = FLOOR,
    fixed: bool = True, target_width: float | None = None, rng: Any = None,
    progress: bool | None = None, smooth: bool = False, parent: Any = None,
    features: Any = None,
) -> ReplayResult:  # fmt: skip
    """Replay ``reps`` labelling processes of one pool and measure the confidence sequence.

    Parameters
    ----------
    size, positive : array_like of int
        Items and human-positive items per cell (judge letter) of the pool.
    strategy : {"uniform", "by-judge-label"}
        How each draw is made (as :func:`judgestats.plan.next_batch`).
    labels : int
        Items labelled per replay (at most the pool's size).
    batch : int
        Items per round: the by-judge-label allocation is refreshed between rounds, and the
        fixed-sample comparator is looked at after each round.
    looks : sequence of int
        Label counts at which widths are recorded.
    reps : int
        Replays.
    confidence_level, tuned_for, floor
        As :class:`~judgestats.sequential.Monitor`.
    fixed : bool
        Also run the fixed-sample stratified Wald interval, peeked at after every round.
    target_width : float, optional
        Tune the bets to this width, as :class:`~judgestats.sequential.Monitor` does, and record
        the labels each replay needs to reach it (costs a look per batch).
    rng : None, int or numpy Generator
        The draws.
    smooth : bool, default False
        The cells are bins of a judge score in the score's order: the monitor's score
        predictor (:class:`~judgestats.sequential.pool.PoolState` ``smooth``).
    parent : array_like of int, optional
        With ``smooth``: each cell's score bin, when cells split the bins (covariate strata,
        a jury's letters): the monitor's shrinkage of each cell towards its bin
        (:class:`~judgestats.sequential.pool.PoolState` ``parent``).
    features : array_like, optional
        With ``smooth``: (cells, p) feature rows of a jury's logistic stack, refit on each
        replay's labels so far (:class:`~judgestats.sequential.pool.PoolState` ``features``).
    progress : bool or None, default None
        Show a bar over the labels (None: when interactive and the replays take more than two
        seconds, as the defaults' 1,000 replays of 2,000 labels do, about 3 s; see
        :mod:`judgestats.progress`).

    Returns
    -------
    ReplayResult

    Examples
    --------
    Replays of a pool of two judge letters (1,200 and 800 items, 120 and 680 of them
    human-positive), labelled uniformly 20 at a time:

    >>> import judgestats as js
    >>> result = js.sequential.replay_labelling([1200, 800], [120, 680], labels=500,
    ...                                         looks=(100, 500), reps=50, confidence_level=0.95,
    ...                                         rng=0)
    >>> round(result.theta, 3), float(result.covered.mean()), result.width.mean(axis=0).round(3)
    (0.4, 0.98, array([0.201, 0.084]))
    """
    strategy = check_choice("strategy", strategy, STRATEGY_NAMES)
    level = float(check_confidence_level(confidence_level))
    reps, batch = check_positive_int("reps", reps), check_positive_int("batch", batch)
    gen = check_rng(rng)
    size = np.asarray(size, float)
    positive = np.asarray(positive, float)
    labels = min(check_positive_int("labels", labels), int(size.sum()))
    sizes = np.tile(size, (reps, 1))
    state = PoolState(sizes, sizes.copy(), np.ones_like(sizes), bool(smooth),
                      _parent(parent, size), features)  # fmt: skip
    left_pos = np.tile(positive, (reps, 1))
    theta, alpha = float(positive.sum() / size.sum()), 1.0 - level
    z_crit = float(z_value(level))
    zs, lams = np.zeros((reps, labels)), np.zeros((reps, labels))
    los, his = np.zeros((reps, labels)), np.zeros((reps, labels))
    log_up, log_down = np.zeros(reps), np.zeros(reps)
    threshold = np.log(2.0 / alpha)
    covered = np.ones(reps, bool)
    covered_fixed = np.ones(reps, bool)
    look_list = sorted(x for x in set(np.atleast_1d(looks).tolist()) if x <= labels)
    width = np.full((reps, len(look_list)), np.nan)
    width_fixed = np.full((reps, len(look_list)), np.nan)
    lo_run, hi_run = np.full(reps, -np.inf), np.full(reps, np.inf)
    rows = np.arange(reps)
    needed = np.full(reps, np.nan)
    run_low, run_high = np.zeros(reps), np.ones(reps)
    spread = state.spread()
    bar = counter(total=labels, desc="labels", enabled=progress)  # advanced per label
    for t in range(labels):
        bar.update()
        if t % batch == 0:
            spread = state.spread()
        q = cell_probabilities(state.remaining, spread, strategy, floor)
        u = gen.random(reps)[:, None]
        cell = np.minimum((np.cumsum(q, axis=-1) < u).sum(axis=-1), size.size - 1)
        rem_c = state.remaining[rows, cell]
        y = (gen.random(reps) * rem_c < left_pos[rows, cell]).astype(float)
        inc = state.increment(cell, y, q)
        h = horizon(t + 1, inc.variance, alpha, tuned_for=tuned_for, target_width=target_width)
        lam = bet(alpha, inc.variance, h)
        zs[:, t], lams[:, t], los[:, t], his[:, t] = inc.z, lam, inc.lo, inc.hi
        lo_run, hi_run = np.maximum(lo_run, inc.lo), np.minimum(hi_run, inc.hi)
        up, down = log_capital(inc.z[:, None], np.asarray(lam)[:, None], inc.lo[:, None],
                               inc.hi[:, None], np.full(reps, theta))  # fmt: skip
        log_up, log_down = log_up + up, log_down + down
        covered &= (log_up < threshold) & (log_down < threshold)
        state.record(cell, y, 1.0)
        left_pos[rows, cell] -= y
        done = t + 1
        if fixed and (done % batch == 0 or done == labels):
            flo, fhi, _ = _fixed_width(state, z_crit)
            covered_fixed &= (flo <= theta) & (theta <= fhi)
        if target_width is not None and (done % batch == 0 or done == labels):
            todo = np.isnan(needed)
            if todo.any():
                a, b = np.maximum(lo_run[todo], 0.0), np.minimum(hi_run[todo], 1.0)
                low, high = sequence_ends(zs[todo, :done], lams[todo, :done], los[todo, :done],
                                          his[todo, :done], a, b, alpha)  # fmt: skip
                run_low[todo] = np.maximum(run_low[todo], low)
                run_high[todo] = np.minimum(run_high[todo], high)
                reached = todo & (run_high - run_low <= target_width)
                needed[reached] = done
            if not np.isnan(needed).any() and not fixed and done >= max(look_list, default=0):
                break  # every replay got there: nothing left to measure
        if done in look_list:
            k = look_list.index(done)
            a, b = np.maximum(lo_run, 0.0), np.minimum(hi_run, 1.0)
            low, high = sequence_ends(zs[:, :done], lams[:, :done], los[:, :done],
                                      his[:, :done], a, b, alpha)  # fmt: skip
            width[:, k] = high - low
            if fixed:
                flo, fhi, _ = _fixed_width(state, z_crit)
                width_fixed[:, k] = fhi - flo
    bar.close()
    out_needed = needed if target_width is not None else None
    if not fixed:
        return ReplayResult(theta, covered, np.array(look_list), width, None, None, out_needed)
    return ReplayResult(theta, covered, np.array(look_list), width, covered_fixed, width_fixed,
                        out_needed)  # fmt: skip
