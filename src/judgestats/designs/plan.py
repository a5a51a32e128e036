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
    check_informative,
    check_instance,
    check_open_unit,
    check_probability,
    check_sample_size,
)
from ..counts import ConfusionCounts
from ..kernels import wilson_bounds, z_value
from ..spec import EstimationSpec, resolve_spec
from .base import Design, JudgeConditionalDesign, as_design
from .by_judge_label import judge_allocation
from .estimator import DESIGNS

__all__ = [
    "DesignComparison",
    "JudgeAllocation",
    "allocate_by_judge",
    "compare_designs",
    "design_width",
    "judge_allocation",
]

#: The interval every plan evaluates: the design's adjusted-Wald interval at the expected counts.
PLANNED_METHOD = "adjusted-wald"
#: How a plan may split its calibration budget (a design lists those it allows in
#: ``design.allocations``; ``"balanced"`` is also what a design that fixes no split takes).
ALLOCATIONS = ("balanced", "optimal")
#: The allocation of a design that fixes no split (``design.allocations``).
NO_SPLIT = "-"


def plan_spec(design: Any, confidence_level: Any, *, scalar: bool = True) -> EstimationSpec:
    """Resolve the spec of the correction a plan is for: a pass/fail judge's rate, adjusted-Wald.

    ``scalar=False`` lets the level be an array (:func:`judgestats.plan.interval_width`).

    Raises
    ------
    MethodError
        An unknown design (the message lists the registered ones).
    ConfidenceLevelError
        A level outside (0, 1).
    JudgeStatsError
        A level that is not a scalar (plans are for one level).
    """
    spec = resolve_spec(judge="letter", target="rate", design=design, method=PLANNED_METHOD,
                        confidence_level=confidence_level)  # fmt: skip
    if scalar and np.ndim(spec.confidence_level):
        raise JudgeStatsError("confidence_level must be a scalar for planning")
    return spec


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


def planning_inputs(p: Any, q0: Any, q1: Any, n: Any) -> tuple[float, float, float, float]:
    """Validate scalar planning inputs: (p, q0, q1, n)."""
    p = float(check_probability("p", p))
    q0, q1 = judge_rates(q0, q1)
    if np.ndim(p):
        raise JudgeStatsError("p must be a scalar for planning")
    return p, q0, q1, n_value(n)


def check_allocation(design: Design, allocation: Any) -> str:
    """Validate a plan's allocation for a design (one that fixes no split takes ``"balanced"``)."""
    allocation = check_choice("allocation", allocation, ALLOCATIONS)
    if allocation != ALLOCATIONS[0] and allocation not in design.allocations:
        if NO_SPLIT in design.allocations:
            raise JudgeStatsError(
                f"design={str(design)!r} fixes no split (the labels fall where the sample puts "
                f"them): leave allocation={ALLOCATIONS[0]!r}"
            )
        raise JudgeStatsError(
            f"allocation={allocation!r} is not a split design={str(design)!r} can choose; it "
            f"takes {', '.join(map(repr, design.allocations))}"
        )
    return allocation


def design_width(
    m: int, *, p: float, q0: float, q1: float, n: float, z: float, design: Any,
    allocation: str = "balanced",
) -> tuple[float, tuple[int | None, int | None]]:  # fmt: skip
    """Return the expected interval width of ``design`` with m calibration items, and its split.

    The split is (m0, m1) by human label for ``"by-human-label"``, (k0, k1) by judge label
    for ``"by-judge-label"`` and (None, None) for ``"random"`` (the design fixes none): the
    design's own :meth:`~judgestats.designs.Design.plan_width`.
    """
    return as_design(design).plan_width(m, p=p, q0=q0, q1=q1, n=n, z=z, allocation=allocation)


@dataclass(frozen=True, slots=True)
class JudgeAllocation:
    """A by-judge-label split: ``k0`` judge-0 and ``k1`` judge-1 items to label.

    Examples
    --------
    Made by :func:`judgestats.plan.allocate_by_judge`:

    >>> import judgestats as js
    >>> js.plan.allocate_by_judge(200, p=0.3, pilot=js.ConfusionCounts(tp=9, fn=1, tn=8, fp=2))
    JudgeAllocation(k0=136, k1=64, ppv=0.7692307692307693, for_=0.18181818181818182)
    """

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
    >>> import judgestats as js
    >>> pilot = js.ConfusionCounts(tp=9, fn=1, tn=8, fp=2)
    >>> a = js.plan.allocate_by_judge(200, p=0.3, pilot=pilot)
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

    Examples
    --------
    Made by :func:`judgestats.plan.compare_designs`:

    >>> import judgestats as js
    >>> comparison = js.plan.compare_designs(p=0.6, q0=0.75, q1=0.9, m=200, n=5000)
    >>> for row in comparison.rows[:3]:
    ...     print(row["design"], row["allocation"], round(row["width"], 4))
    by-human-label balanced 0.1646
    by-human-label optimal 0.1642
    random - 0.1057
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
    >>> import judgestats as js
    >>> c = js.plan.compare_designs(p=0.6, q0=0.75, q1=0.9, m=200, n=5000)
    >>> c.best["design"]
    'by-judge-label'
    """
    p, q0, q1, n = planning_inputs(p, q0, q1, n)
    m = check_budget("m", m, minimum=4)
    specs = [plan_spec(design, confidence_level) for design in DESIGNS]
    level = float(specs[0].confidence_level)
    z = float(z_value(level))
    rows = []
    for spec in specs:
        for allocation in spec.design.allocations:
            w, split = spec.design.plan_width(m, p=p, q0=q0, q1=q1, n=n, z=z,
                                              allocation=allocation)  # fmt: skip
            rows.append({"design": spec.design, "allocation": allocation,
                         "split": None if split[0] is None else split, "width": w})
    theta = JudgeConditionalDesign.plan_rates(p, q0, q1)[0]
    low, high = wilson_bounds(theta * m, m, z)
    return DesignComparison(p, q0, q1, n, m, level, theta, tuple(rows), float(high - low))

