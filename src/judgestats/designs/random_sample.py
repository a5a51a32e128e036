"""The random design: the calibration items are a simple random sample of the test population.

Every judged item, test or calibration, carries a draw of the judge's label, so π̂ pools them
((positive + tp + fp)/(n + m), the maximum-likelihood estimate); the estimator is the
judge-conditional θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂. The humans-only estimate m1/m exists beside it,
and the calibration's judge-positive rate must match the test set's (:func:`.check.design_check`).
"""

from __future__ import annotations

from typing import Any

from .base import JudgeConditionalDesign

__all__ = ["RandomSample"]


class RandomSample(JudgeConditionalDesign):
    """``design="random"``: a simple random sample of the test population was labelled."""

    __slots__ = ()

    name = "random"
    estimator = "judge-conditional (π̂ from all judged items)"
    reference = (
        "Lee et al. (2026), estimator table row iv, with π from test and calibration items, "
        "the maximum-likelihood estimator of a random calibration sample"
    )
    cells = ("pi", "ppv", "for")
    youden_estimable = True
    calibration_samples_test = True
    allocations = ("-",)

    def pi_counts(self, x: Any, n: Any, k1: Any, k0: Any) -> tuple[Any, Any]:
        """Judged 1 and judged among test and calibration items."""
        return x + k1, n + k1 + k0

    # -- plan-sequential
    draw_strategy = "uniform"

    def plan_counts(
        self, m: int, *, p: float, ppv: float, for_: float, n: float, allocation: str
    ) -> tuple[Any, Any, float, tuple[int | None, int | None]]:
        """k1 = m·p judge-1 and k0 = m·(1 − p) judge-0 items expected; π from n + m; no split."""
        return m * (1.0 - p), m * p, n + m, (None, None)
