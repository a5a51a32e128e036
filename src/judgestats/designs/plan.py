"""Planning per calibration design: expected widths, the by-judge-label split, which design.

"How should I sample my next 200 labels?" For a planned judged rate p (= π, the judge-positive
rate), judge rates (q0, q1) and test size n, each design's interval width is evaluated as if
the expected counts were observed (as :mod:`judgestats.plan` does for the paper's design):

* ``"by-human-label"``: the paper's adjusted-Wald width with m0 = m1 = m/2 (``"balanced"``) or
  the width-minimising split (``"optimal"``);
* ``"random"``: the judge-conditional adjusted-Wald width with k1 = m·p judge-1 and
  k0 = m·(1 − p) judge-0 calibration items and π from n + m judged items;
* ``"by-judge-label"``: the same with k1 + k0 = m chosen by the design: ``"balanced"``
  (m/2 each) or ``"optimal"``, the Neyman split k1 ∝ π·√(PPV(1 − PPV)),
  k0 ∝ (1 − π)·√(FOR(1 − FOR)), which minimises the calibration part of the variance
  (:func:`judge_allocation`); :func:`allocate_by_judge` estimates it from a pilot.

With θ = (p + q0 − 1)/(q0 + q1 − 1) (clipped), PPV = θ·q1/p and FOR = θ(1 − q1)/(1 − p). The
human labels alone (Wilson interval of m labelled items) are the baseline the random design
never loses to asymptotically.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    JudgeStatsError,
    check_budget,
    check_choice,
    check_confidence_level,
    check_informative,
    check_instance,
    check_open_unit,
    check_probability,
    check_sample_size,
)
from ..counts import ConfusionCounts
from ..kernels import (
    adjusted_wald_bounds,
    judge_conditional_bounds,
    rogan_gladen_raw,
    wilson_bounds,
    z_value,
)
from .estimator import DESIGNS

__all__ = [
    "DesignComparison",
    "JudgeAllocation",
    "allocate_by_judge",
    "compare_designs",
    "design_width",
    "judge_allocation",
]

_FINITE_N = 1e15  # n → ∞: the π term of the variance vanishes


def n_value(n: Any) -> float:
    """Validate a planned test-set size; None means n → ∞."""
    if n is None:
        return math.inf
    return float(check_sample_size("n", n, positive=True, allow_inf=True))


def judge_rates(q0: Any, q1: Any) -> tuple[float, float]:
    """Validate a planned judge: scalar specificity and sensitivity in (0, 1], q0 + q1 > 1."""
    q0 = check_open_unit("q0", q0, upper_closed=True)
    q1 = check_open_unit("q1", q1, upper_closed=True)
    check_informative(q0, q1)
    return q0, q1


def planning_inputs(p, q0, q1, n, confidence_level) -> tuple:
    """Validate scalar planning inputs: (p, q0, q1, n, level, z)."""
    p = float(check_probability("p", p))
    q0, q1 = judge_rates(q0, q1)
    level = check_confidence_level(confidence_level)
    if np.ndim(p) or np.ndim(level):
        raise JudgeStatsError("p and confidence_level must be scalars for planning")
    return p, q0, q1, n_value(n), float(level), z_value(level)


def _rates(p: float, q0: float, q1: float) -> tuple[float, float, float]:
    """(θ, PPV, FOR) implied by the judged rate p and the judge's (q0, q1)."""
    theta = float(np.clip(rogan_gladen_raw(p, q0, q1), 0.0, 1.0))
    ppv = theta * q1 / p if p > 0 else 0.5
    for_ = theta * (1.0 - q1) / (1.0 - p) if p < 1 else 0.5
    return theta, min(max(ppv, 0.0), 1.0), min(max(for_, 0.0), 1.0)


def judge_allocation(m: int, *, p: float, ppv: float, for_: float) -> tuple[int, int]:
    """Neyman split (k0, k1) of m by-judge-label items: k1 ∝ p·√(PPV(1 − PPV)).

    Each side gets at least one item; where both standard deviations vanish the split is even.
    """
    w1 = p * math.sqrt(ppv * (1.0 - ppv))
    w0 = (1.0 - p) * math.sqrt(for_ * (1.0 - for_))
    share = 0.5 if w0 + w1 == 0 else w1 / (w0 + w1)
    k1 = min(max(round(m * share), 1), m - 1)
    return m - k1, k1


def design_width(
    m: int, *, p: float, q0: float, q1: float, n: float, z: float, design: str,
    allocation: str = "balanced",
) -> tuple[float, tuple[int | None, int | None]]:  # fmt: skip
    """Return the expected interval width of ``design`` with m calibration items, and its split.

    The split is (m0, m1) by human label for ``"by-human-label"``, (k0, k1) by judge label
    for ``"by-judge-label"`` and (None, None) for ``"random"`` (the design fixes none).
    """
    split: tuple[int | None, int | None]
    if design == "by-human-label":
        if allocation == "balanced":
            m0, m1 = m // 2, m - m // 2
            low, high, _ = adjusted_wald_bounds(p, q0, q1, n, m0, m1, z)
            return float(high - low), (m0, m1)
        ones = np.arange(1, m)  # every split (m − m1, m1)
        low, high, _ = adjusted_wald_bounds(p, q0, q1, n, m - ones, ones, z)
        w = np.where(np.isnan(high - low), np.inf, high - low)
        i = int(np.argmin(w))
        return float(w[i]), (int(m - ones[i]), int(ones[i]))
    _, ppv, for_ = _rates(p, q0, q1)
    n = min(n, _FINITE_N)
    if design == "random":
        k1, k0, n_pi, split = m * p, m * (1.0 - p), n + m, (None, None)
    else:
        if allocation == "balanced":
            k0, k1 = m // 2, m - m // 2
        else:
            k0, k1 = judge_allocation(m, p=p, ppv=ppv, for_=for_)
        n_pi, split = n, (k0, k1)
    low, high = judge_conditional_bounds(p * n_pi, n_pi, ppv * k1, k1, for_ * k0, k0, z)
    return float(high - low), split


@dataclass(frozen=True, slots=True)
class JudgeAllocation:
    """A by-judge-label split: ``k0`` judge-0 and ``k1`` judge-1 items to label."""

    k0: int
    k1: int
    ppv: float
    for_: float

    @property
    def m(self) -> int:
        """Total budget k0 + k1."""
        return self.k0 + self.k1

    def __iter__(self):
        yield self.k0
        yield self.k1


def allocate_by_judge(m: int, *, p: float, pilot: ConfusionCounts) -> JudgeAllocation:
    """Split a by-judge-label budget from a pilot: the Neyman rule of :func:`judge_allocation`.

    PPV and FOR come from the pilot with one success and one failure added,
    PPṼ = (tp + 1)/(tp + fp + 2) and FOR̃ = (fn + 1)/(fn + tn + 2), so a pilot with no item of
    a judge label still gives a split. The returned totals include the pilot's items (each
    side gets at least as many as the pilot has).

    Parameters
    ----------
    m : int
        Total number of calibration items to label (pilot included), >= 2.
    p : float
        Judge-positive rate of the test pool, in (0, 1).
    pilot : ConfusionCounts
        A first batch of labelled items.

    Returns
    -------
    JudgeAllocation

    See Also
    --------
    plan.compare_designs : Compare the calibration designs.
    plan.allocate : Share the labels among strata.

    Examples
    --------
    >>> a = allocate_by_judge(200, p=0.3, pilot=ConfusionCounts(tp=9, fn=1, tn=8, fp=2))
    >>> tuple(a)
    (136, 64)
    """
    m = check_budget("m", m, minimum=2)
    p = check_open_unit("p", p)
    check_instance("pilot", pilot, ConfusionCounts)
    if pilot.shape:
        raise JudgeStatsError(f"pilot must be one calibration set, got shape {pilot.shape}")
    j1, j0 = int(pilot.tp + pilot.fp), int(pilot.fn + pilot.tn)
    if j1 + j0 > m:
        raise JudgeStatsError(f"m ({m}) must be at least the pilot's size {j1 + j0}")
    ppv, for_ = (pilot.tp + 1) / (j1 + 2), (pilot.fn + 1) / (j0 + 2)
    k1 = min(max(judge_allocation(m, p=p, ppv=ppv, for_=for_)[1], j1), m - j0)
    return JudgeAllocation(k0=m - k1, k1=k1, ppv=float(ppv), for_=float(for_))


@dataclass(frozen=True, slots=True)
class DesignComparison:
    """Expected interval widths of each design for one planned setting.

    ``rows``: one dict per (design, allocation) with ``design``, ``allocation``, ``split``
    (human-label (m0, m1), judge-label (k0, k1) or none) and ``width``; ``human_only`` the
    width of the human labels alone. :meth:`to_dataframe` tabulates them.
    """

    p: float
    q0: float
    q1: float
    n: float
    m: int
    confidence_level: float
    theta: float
    rows: tuple[dict[str, Any], ...]
    human_only: float

    @property
    def best(self) -> dict[str, Any]:
        """The row with the shortest expected interval."""
        return min(self.rows, key=lambda r: r["width"])

    def to_dataframe(self) -> Any:
        """One row per design and allocation, plus the human labels alone."""
        import pandas as pd

        rows = [*self.rows, {"design": "human labels only", "allocation": "-", "split": None,
                             "width": self.human_only}]  # fmt: skip
        return pd.DataFrame(rows)

    def summary(self) -> str:
        """Return the comparison as text, shortest first."""
        lvl = f"{100 * self.confidence_level:g}%"
        lines = [f"Expected {lvl} interval width with m = {self.m} calibration items "
                 f"(p = {self.p:.3g}, q0 = {self.q0:.3g}, q1 = {self.q1:.3g}, "
                 f"θ = {self.theta:.3f}, n = {self.n:g})"]  # fmt: skip
        for r in sorted(self.rows, key=lambda r: r["width"]):
            split = "" if r["split"] is None else f" {r['split']}"
            lines.append(f"  {r['design']:<15} {r['allocation']:<9}{split:<13} {r['width']:.4f}")
        lines.append(f"  {'human labels only':<38} {self.human_only:.4f}")
        return "\n".join(lines)


def compare_designs(
    *, p: float, q0: float, q1: float, m: int, n: Any = None, confidence_level: float = 0.95
) -> DesignComparison:
    """Compare the three designs' expected widths for one planned setting.

    Parameters
    ----------
    p : float
        Planned judged positive rate of the test set (the judge-positive rate π).
    q0, q1 : float
        The judge's specificity and sensitivity (q0 + q1 > 1).
    m : int
        Calibration items to label.
    n : int, float or None
        Test-set size; None means n → ∞.
    confidence_level : float, default 0.95
        Two-sided level.

    Returns
    -------
    DesignComparison

    See Also
    --------
    plan.allocate_by_judge : Share the labels by judge verdict.
    plan.calibration_size : Labels needed for a target width.
    designs.check_design : Check a design name.

    Examples
    --------
    >>> c = compare_designs(p=0.6, q0=0.75, q1=0.9, m=200, n=5000)
    >>> c.best["design"]
    'by-judge-label'
    """
    p, q0, q1, n, level, z = planning_inputs(p, q0, q1, n, confidence_level)
    m = check_budget("m", m, minimum=4)
    rows = []
    for design in DESIGNS:
        for allocation in ("balanced", "optimal") if design != "random" else ("-",):
            w, split = design_width(m, p=p, q0=q0, q1=q1, n=n, z=float(z), design=design,
                                    allocation=allocation if allocation != "-" else "balanced")
            rows.append({"design": design, "allocation": allocation,
                         "split": None if split[0] is None else split, "width": w})
    theta = _rates(p, q0, q1)[0]
    low, high = wilson_bounds(theta * m, m, z)
    return DesignComparison(p, q0, q1, n, m, level, theta, tuple(rows), float(high - low))


def check_plan_design(design: Any, allocation: str) -> str:
    """Validate a planning design and its allocation (random has none to choose)."""
    design = check_choice("design", design, DESIGNS)
    if design == "random" and allocation != "balanced":
        raise JudgeStatsError(
            "design='random' fixes no split (the labels fall where the sample puts them): "
            "leave allocation='balanced'"
        )
    return design
