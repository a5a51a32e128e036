"""judgestats: honest LLM-as-a-judge numbers.

Correct a judge's raw positive rate for its errors (Rogan–Gladen), with intervals that account
for both the test and the calibration sample (the adjusted-Wald interval of Lang & Reiczigel as
specified in "How to Correctly Report LLM-as-a-Judge Evaluations", ICML 2026).

Heavy dependencies (pandas, xarray, matplotlib, pymc) are imported only where used; submodules
such as ``judgestats.datasets`` load on first access.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import likelihood as _likelihood  # noqa: F401  (registers "profile-likelihood")
from ._validation import (
    ArgumentTypeError,
    ClippedEstimateWarning,
    ConfidenceLevelError,
    CountError,
    IllConditionedError,
    JudgeStatsError,
    JudgeStatsWarning,
    LabelError,
    LabelShiftWarning,
    MethodError,
    NotInformativeError,
    PlanningWarning,
    PriorError,
    ProbabilityError,
    ProjectedEstimateWarning,
    SamplingWarning,
)
from .correct import correct
from .counts import ConfusionCounts, JudgedCounts
from .estimators import (
    calibration_only,
    conditional_calibration,
    difference,
    misclassification_adjusted,
    naive,
    rogan_gladen,
)
from .intervals import (
    adjusted_wald_interval,
    interval_methods,
    rogan_gladen_variance,
    wald_interval,
)
from .multiclass import CategoryCounts, ConfusionMatrix, correct_distribution
from .results import ConfidenceInterval, Correction, DistributionCorrection
from .shift import LabelShiftDiagnostic, label_shift_test

__version__ = "0.1.0"

__all__ = [
    "ArgumentTypeError",
    "CategoryCounts",
    "ClippedEstimateWarning",
    "ConfidenceInterval",
    "ConfidenceLevelError",
    "ConfusionCounts",
    "ConfusionMatrix",
    "Correction",
    "CountError",
    "DistributionCorrection",
    "IllConditionedError",
    "JudgeStatsError",
    "JudgeStatsWarning",
    "JudgedCounts",
    "LabelError",
    "LabelShiftDiagnostic",
    "LabelShiftWarning",
    "MethodError",
    "NotInformativeError",
    "PlanningWarning",
    "PriorError",
    "ProbabilityError",
    "ProjectedEstimateWarning",
    "SamplingWarning",
    "__version__",
    "adjusted_wald_interval",
    "calibration_only",
    "conditional_calibration",
    "correct",
    "correct_distribution",
    "datasets",
    "difference",
    "estimators",
    "interval_methods",
    "intervals",
    "label_shift_test",
    "misclassification_adjusted",
    "naive",
    "plan",
    "plots",
    "rogan_gladen",
    "rogan_gladen_variance",
    "simulate",
    "wald_interval",
]

_LAZY_SUBMODULES = {"datasets", "estimators", "intervals", "cli", "plan", "plots", "simulate"}


def __getattr__(name: str) -> Any:
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'judgestats' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _LAZY_SUBMODULES)
