"""The by-judge-label design: calibration items sampled within the judge's labels.

The calibration's judge labels were fixed by the design and say nothing about π = P(judge = 1),
so π̂ comes from the test set alone; the estimator is the judge-conditional θ̂ = π̂·PPV̂ +
(1 − π̂)·FOR̂. q̂0 and q̂1 are not estimable (the human classes were not sampled), and a judge
label the test set has but the calibration set lacks is a missing cell of the design.
"""

from __future__ import annotations

import math
from typing import Any

from .base import JudgeConditionalDesign

__all__ = ["ByJudgeLabel", "judge_allocation"]


class ByJudgeLabel(JudgeConditionalDesign):
    """``design="by-judge-label"``: e.g. 100 items the judge passed and 100 it failed."""

    __slots__ = ()

    name = "by-judge-label"
    estimator = "judge-conditional (π̂ from the test set)"
    reference = "Lee et al. (2026), estimator table row iv, conditional calibration"
    cells = ("p", "ppv", "for")
    refuses_missing_judge_class = True
    sampled_within = "judge"

    def pi_counts(self, x: Any, n: Any, k1: Any, k0: Any) -> tuple[Any, Any]:
        """Judged 1 and judged among the test items."""
        return x, n

    # -- plan-sequential
    draw_strategy = "by-judge-label"

    def plan_counts(
        self, m: int, *, p: float, ppv: float, for_: float, n: float, allocation: str
    ) -> tuple[Any, Any, float, tuple[int | None, int | None]]:
        """(k0, k1) chosen: m/2 each (``"balanced"``) or the Neyman split; π from the test items."""
        if allocation == "balanced":
            k0, k1 = m // 2, m - m // 2
        else:
            k0, k1 = judge_allocation(m, p=p, ppv=ppv, for_=for_)
        return k0, k1, n, (k0, k1)

    # -- compare
    #: its calibration items were drawn within the judge's labels, which a random split of
    #: labelled items does not fix
    emulated_by_random_split = False


def judge_allocation(m: int, *, p: float, ppv: float, for_: float) -> tuple[int, int]:
    """Neyman split (k0, k1) of m by-judge-label items: k1 ∝ p·√(PPV(1 − PPV)).

    Each side gets at least one item; where both standard deviations vanish the split is even.
    """
    w1 = p * math.sqrt(ppv * (1.0 - ppv))
    w0 = (1.0 - p) * math.sqrt(for_ * (1.0 - for_))
    share = 0.5 if w0 + w1 == 0 else w1 / (w0 + w1)
    k1 = min(max(round(m * share), 1), m - 1)
    return m - k1, k1
