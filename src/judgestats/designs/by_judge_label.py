"""The by-judge-label design: calibration items sampled within the judge's labels.

The calibration's judge labels were fixed by the design and say nothing about π = P(judge = 1),
so π̂ comes from the test set alone; the estimator is the judge-conditional θ̂ = π̂·PPV̂ +
(1 − π̂)·FOR̂. q̂0 and q̂1 are not estimable (the human classes were not sampled), and a judge
label the test set has but the calibration set lacks is a missing cell of the design.
"""

from __future__ import annotations

from typing import Any

from .base import JudgeConditionalDesign

__all__ = ["ByJudgeLabel"]


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

    # -- compare
    #: its calibration items were drawn within the judge's labels, which a random split of
    #: labelled items does not fix
    emulated_by_random_split = False
