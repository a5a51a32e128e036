"""The judge's bias along a covariate, against the human label: a difference of error rates.

A judge is *biased* along a covariate X (an answer's length, its position in the prompt) when,
at the same human verdict, its verdict depends on X. A judge that says 1 more often for long
answers is not biased if long answers are better: the comparison holds the human label fixed.
For a two-level X (first/second, long/short) the effect is the human-class-standardised
difference in the judge's positive rate,

    Δ = Σ_h w_h [P(J = 1 | H = h, X = 1) − P(J = 1 | H = h, X = 0)],   w_h = n_h / n,

over the labelled rows (h = 0, 1; w the human classes' shares; a Mantel–Haenszel-style
standardised risk difference, Rothman, Greenland & Lash, *Modern Epidemiology* 3rd ed., ch. 15).
Δ = 0.05 reads "at the same human verdict, the judge says 1 five points more often when X = 1".
A numeric covariate with more than two values is split at a declared threshold, or at its
median over the labelled rows (X = 1: above it), a split on X alone, so Δ = 0 still holds
without bias.

**Interval and p-value.** Each rate takes one pseudo-success and one pseudo-failure (Agresti &
Caffo 2000, "Simple and effective confidence intervals for proportions and differences of
proportions result from adding two successes and two failures"), so a judge right 98% of the
time in a small cell does not get a zero-width interval; the Wald interval and z-test are
centred on the adjusted Δ̃ with variance Σ_h w_h² [p̃_1(1 − p̃_1)/(n_{h1} + 2) + p̃_0(1 −
p̃_0)/(n_{h0} + 2)]. With repeated items (``cluster=``: both orders of one pair, several
answers to one prompt) that variance is multiplied by the design effect of the unadjusted Δ̂,
its cluster-robust variance (Σ_c u_c² · C/(C − 1) over the C items, u_c the item's share of
the linearised Δ̂) over its independent-rows one, floored at 1. The size and power of the test
are measured in ``benchmarks/results/judge_bias.md``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Effect", "standardised_difference"]


class Effect(NamedTuple):
    """Δ̂ (unadjusted), the adjusted Δ̃ the interval is centred on, its variance, its counts."""

    effect: float
    adjusted: float
    variance: float
    n: int
    n_high: int
    n_low: int
    items: int | None


def _cluster_design_effect(
    j: np.ndarray, h: np.ndarray, x: np.ndarray, items: np.ndarray, w: dict, cells: dict,
) -> float:  # fmt: skip
    """Cluster-robust over independent-rows variance of the unadjusted Δ̂ (≥ 1)."""
    u = np.zeros(j.size)
    for (hv, xv), (rows, rate) in cells.items():
        sign = 1.0 if xv == 1 else -1.0
        u[rows] = sign * w[hv] * (j[rows] - rate) / rows.size
    _, codes = np.unique(items, return_inverse=True)
    per_item = np.bincount(codes, weights=u)
    c = per_item.size
    robust = float(np.sum(per_item * per_item)) * c / max(c - 1, 1)
    independent = float(np.sum(u * u)) * j.size / max(j.size - 1, 1)
    return max(robust / independent, 1.0) if independent > 0 else 1.0


def standardised_difference(
    j: np.ndarray, h: np.ndarray, x: np.ndarray, items: np.ndarray | None = None,
) -> Effect:  # fmt: skip
    """Δ̂ = Σ_h w_h [P̂(J=1 | h, X=1) − P̂(J=1 | h, X=0)] and its variance (module docstring).

    ``j``, ``h``, ``x``: 0/1 arrays over the labelled rows; ``items``: item codes or None.
    Every (h, x) cell of a human class present must hold a row (the caller refuses otherwise).
    """
    w, cells = {}, {}
    raw = adj = var = 0.0
    for hv in np.unique(h).tolist():  # a human class without rows has weight 0
        in_h = h == hv
        w[hv] = float(in_h.mean())
        rates, adjusted = {}, {}
        for xv in (0, 1):
            rows = np.flatnonzero(in_h & (x == xv))
            ones = float(j[rows].sum())
            rates[xv] = ones / rows.size
            adjusted[xv] = (ones + 1.0) / (rows.size + 2.0)
            var += w[hv] ** 2 * adjusted[xv] * (1 - adjusted[xv]) / (rows.size + 2.0)
            cells[(hv, xv)] = (rows, rates[xv])
        raw += w[hv] * (rates[1] - rates[0])
        adj += w[hv] * (adjusted[1] - adjusted[0])
    n_items = None
    if items is not None:
        var *= _cluster_design_effect(j, h, x, items, w, cells)
        n_items = int(np.unique(items).size)
    return Effect(raw, adj, var, int(j.size), int(x.sum()), int(j.size - x.sum()), n_items)
