"""How many labels to reach a width: the fixed-n plan, the monitor, and active selection.

For a pool whose judge letters j have shares π_j and human-positive rates r_j (σ_j² =
r_j(1 − r_j)), the stratified estimator of the pool's rate with n labels has variance
Σ_j π_j² σ_j² / n_j. Drawn uniformly (n_j ≈ π_j n) that is Σ_j π_j σ_j² / n; with Neyman's
allocation n_j ∝ π_j σ_j it is (Σ_j π_j σ_j)² / n (Cochran 1977, *Sampling Techniques*, §5.5),
so the fixed-n labels for a full width w are n₀ = (2z)² Σ π_j σ_j² / w² and (2z)² (Σ π_j σ_j)² / w²
(each then n₀ / (1 + n₀/N) in a pool of N items),
and Neyman's relative saving is 1 − (Σ π_j σ_j)² / Σ π_j σ_j². The monitor's labels are
measured by replaying labelling processes (:func:`~judgestats.sequential.replay_labelling`): an
interval valid at every look needs more labels than a fixed-n plan, which is valid only if
you look once, at the planned n.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    JudgeStatsError,
    check_confidence_level,
    check_positive_int,
    check_probability,
)
from ..kernels import z_value
from .pool import NEYMAN, UNIFORM
from .replays import replay_labelling

__all__ = ["LabellingPlan", "fixed_labels", "labelling_plan", "neyman_gain"]


def neyman_gain(shares: Any, rates: Any) -> float:
    """Return Neyman's relative saving 1 − (Σ π_j σ_j)² / Σ π_j σ_j² over uniform draws."""
    pi, sd = np.asarray(shares, float), np.sqrt(np.asarray(rates, float) * (1 - np.asarray(rates)))
    total = float((pi * sd * sd).sum())
    return 0.0 if total == 0 else 1.0 - float((pi * sd).sum()) ** 2 / total


def fixed_labels(
    shares: Any, rates: Any, width: float, confidence_level: float, pool_size: float
) -> tuple[int, int]:
    """Return the fixed-n labels for a full width, drawn uniformly and by Neyman allocation.

    n₀ = (2z)² Σ π_j σ_j² / w² and (2z)² (Σ π_j σ_j)² / w² (Cochran 1977, §5.5), each then
    n₀ / (1 + n₀ / N) in a pool of N items and at most N.
    """
    pi, r = np.asarray(shares, float), np.asarray(rates, float)
    sd = np.sqrt(r * (1 - r))
    z = float(z_value(confidence_level))
    n0 = (2 * z) ** 2 * np.array([(pi * sd * sd).sum(), (pi * sd).sum() ** 2]) / width**2
    uniform, neyman = (min(int(np.ceil(v)), int(pool_size)) for v in n0 / (1 + n0 / pool_size))
    return uniform, neyman


@dataclass(frozen=True, slots=True)
class LabellingPlan:
    """Labels to reach ``target_width``: fixed-n, the monitor, and the monitor with active draws.

    Attributes
    ----------
    fixed_uniform, fixed_neyman : int
        The fixed-n plan's labels (uniform draws; Neyman allocation), valid for one look at n.
    monitor_uniform, monitor_neyman : float
        Median labels the monitor needed over the replays (design ``"random"``;
        ``"by-judge-label"``), looking after every batch; NaN if fewer than half got there.
    monitor_uniform_p90, monitor_neyman_p90 : float
        Their 90th percentiles.
    neyman_gain : float
        The theoretical saving of Neyman allocation, 1 − (Σ π_j σ_j)² / Σ π_j σ_j².
    measured_saving : float
        1 − monitor_neyman / monitor_uniform.
    """

    target_width: float
    confidence_level: float
    pool_size: int
    fixed_uniform: int
    fixed_neyman: int
    monitor_uniform: float
    monitor_neyman: float
    monitor_uniform_p90: float
    monitor_neyman_p90: float
    neyman_gain: float
    measured_saving: float
    reps: int

    def summary(self) -> str:
        """Return the four plans side by side, with the theory beside the measured saving."""
        return "\n".join([
            f"labels to reach a {self.confidence_level:.0%} interval {self.target_width:g} "
            f"wide (pool of {self.pool_size} items)",
            f"  fixed-n, uniform:            {self.fixed_uniform:>7d}  (valid for one look)",
            f"  fixed-n, Neyman:             {self.fixed_neyman:>7d}  (valid for one look)",
            f"  monitor, uniform:            {self.monitor_uniform:>7.0f}  (90%: "
            f"{self.monitor_uniform_p90:.0f}; valid at every look)",
            f"  monitor, by-judge-label:     {self.monitor_neyman:>7.0f}  (90%: "
            f"{self.monitor_neyman_p90:.0f}; valid at every look)",
            f"Neyman's saving: theory {self.neyman_gain:.1%}, measured "
            f"{self.measured_saving:.1%} ({self.reps} replays)",
        ])  # fmt: skip


def _needed(res: Any) -> tuple[float, float]:
    x = res.labels_needed
    if np.mean(np.isnan(x)) > 0.5:
        return np.nan, np.nan
    x = np.where(np.isnan(x), np.inf, x)
    return float(np.median(x)), float(np.quantile(x, 0.9))


def labelling_plan(
    shares: Any, rates: Any, *, target_width: float, confidence_level: float = 0.95,
    pool_size: int = 20_000, batch: int = 20, reps: int = 200, max_labels: int | None = None,
    rng: Any = None, progress: bool | None = None,
) -> LabellingPlan:  # fmt: skip
    """Compare the labels needed for a target width by a fixed-n plan, the monitor and active draws.

    Parameters
    ----------
    shares : array_like
        π_j, the judge letters' shares of the pool (sum to 1).
    rates : array_like
        r_j, the expected human-positive rate among items with letter j (a pilot's, or a guess).
    target_width : float
        Full width of the interval to reach.
    confidence_level : float
        As everywhere.
    pool_size : int
        Items in the pool (the replays label a pool of this size).
    batch : int
        Labels per round (the monitor looks after each).
    reps : int
        Replays per strategy.
    max_labels : int, optional
        Labels at most per replay (default: the pool).
    rng : None, int or numpy Generator
        The replays' draws.
    progress : bool or None, default None
        Show a bar over each strategy's replayed labels (None: when interactive and they take
        more than two seconds; see :mod:`judgestats.progress`).

    Returns
    -------
    LabellingPlan

    See Also
    --------
    plan.next_batch : The next batch of items to label.
    sequential.Monitor : Follow the interval as labels arrive.
    """
    level = float(check_confidence_level(confidence_level))
    width = float(check_probability("target_width", target_width))
    if width <= 0:
        raise JudgeStatsError(f"target_width must be > 0, got {target_width!r}")
    pi = np.asarray(check_probability("shares", shares), float)
    r = np.asarray(check_probability("rates", rates), float)
    if pi.shape != r.shape or pi.ndim != 1 or abs(pi.sum() - 1) > 1e-6:
        raise JudgeStatsError(
            f"shares must be one share per letter summing to 1 and match rates, got {shares!r} "
            f"and {rates!r}"
        )
    n = check_positive_int("pool_size", pool_size)
    fixed_u, fixed_n = fixed_labels(pi, r, width, level, n)
    size = np.round(pi * n).astype(int)
    positive = np.round(size * r).astype(int)
    labels = int(size.sum()) if max_labels is None else max_labels
    runs = [
        _needed(replay_labelling(size, positive, strategy=s, labels=labels, batch=batch,
                                 looks=(), reps=reps, confidence_level=level, fixed=False,
                                 target_width=width, rng=rng, progress=progress))
        for s in (UNIFORM, NEYMAN)
    ]  # fmt: skip
    (mu, mu90), (mn, mn90) = runs
    return LabellingPlan(
        target_width=width, confidence_level=level, pool_size=int(size.sum()),
        fixed_uniform=fixed_u, fixed_neyman=fixed_n, monitor_uniform=mu,
        monitor_neyman=mn, monitor_uniform_p90=mu90, monitor_neyman_p90=mn90,
        neyman_gain=neyman_gain(pi, r), measured_saving=1.0 - mn / mu, reps=reps,
    )  # fmt: skip
