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

from ._validation import (
    ArgumentTypeError,
    CalibrationOnlyModelError,
    ClippedEstimateWarning,
    ClusteredCountsError,
    ColumnError,
    ComparisonGraphError,
    ConfidenceLevelError,
    ConfusedCategoriesError,
    CountError,
    DesignWarning,
    DisconnectedComparisonsError,
    EmptyGroupError,
    GroupError,
    GroupLabelError,
    IllConditionedError,
    JudgeDependenceWarning,
    JudgeShiftWarning,
    JudgeStatsError,
    JudgeStatsWarning,
    LabelError,
    LabelShiftWarning,
    LookalikeGroupsWarning,
    MethodError,
    ModelKeyError,
    NotInformativeError,
    PlanningWarning,
    PriorError,
    ProbabilityError,
    ProjectedEstimateWarning,
    RepeatedItemsWarning,
    SamplingWarning,
    SelfComparisonError,
    SequentialError,
    SparseStratumError,
    StrataMismatchError,
    ToolOutputError,
    VerdictError,
    WeakCalibrationWarning,
    WeightsError,
)
from ._version import __version__
from .correct import Correction, correct
from .counts import ConfusionCounts, JudgedCounts
from .estimators import (
    calibration_only,
    conditional_calibration,
    difference,
    misclassification_adjusted,
    naive,
    prediction_powered,
    rogan_gladen,
)
from .evaluate import Evaluation, evaluate
from .intervals import (
    adjusted_wald_interval,
    interval_methods,
    rogan_gladen_variance,
    wald_interval,
)
from .judge_shift import JudgeShiftDiagnostic, judge_shift_test

# the function js.pairwise shares its name with the subpackage: imported here (numpy only)
# so that importing judgestats.pairwise.* later can never rebind js.pairwise to the module
from .pairwise import PairwiseLeaderboard, pairwise
from .results import ConfidenceInterval
from .shift import LabelShiftDiagnostic, label_shift_test

__all__ = [
    "Agreement",
    "AlphabetCorrection",
    "ArgumentTypeError",
    "CalibrationOnlyModelError",
    "CategoryCounts",
    "ClippedEstimateWarning",
    "ClusteredCountsError",
    "ColumnError",
    "Comparison",
    "ComparisonGraphError",
    "ConfidenceInterval",
    "ConfidenceLevelError",
    "ConfusedCategoriesError",
    "ConfusionCounts",
    "ConfusionMatrix",
    "Correction",
    "CountError",
    "DesignWarning",
    "DisconnectedComparisonsError",
    "DistributionCorrection",
    "EmptyGroupError",
    "Evaluation",
    "GroupError",
    "GroupLabelError",
    "IllConditionedError",
    "JudgeDependenceWarning",
    "JudgeShiftDiagnostic",
    "JudgeShiftWarning",
    "JudgeStatsError",
    "JudgeStatsWarning",
    "JudgedCounts",
    "LabelError",
    "LabelShiftDiagnostic",
    "LabelShiftWarning",
    "LookalikeGroupsWarning",
    "MethodError",
    "ModelKeyError",
    "NotInformativeError",
    "PairwiseLeaderboard",
    "PlanningWarning",
    "PriorError",
    "Priors",
    "ProbabilityError",
    "ProjectedEstimateWarning",
    "Ranking",
    "RepeatedItemsWarning",
    "SamplingWarning",
    "SelfComparisonError",
    "SequentialError",
    "SparseLettersWarning",
    "SparseStratumError",
    "SplitStudy",
    "StrataMismatchError",
    "StratifiedCorrection",
    "ToolOutputError",
    "VerdictError",
    "WeakCalibrationWarning",
    "WeightsError",
    "__version__",
    "adjusted_wald_interval",
    "agreement",
    "alphabet_counts",
    "alphabet_groups",
    "alphabets",
    "calibration_only",
    "compare",
    "conditional_calibration",
    "correct",
    "correct_distribution",
    "correct_stratified",
    "datasets",
    "designs",
    "difference",
    "estimators",
    "evaluate",
    "experiments",
    "interval_methods",
    "intervals",
    "io",
    "judge_letters",
    "judge_shift_test",
    "label_shift_test",
    "misclassification_adjusted",
    "naive",
    "pairwise",
    "plan",
    "plots",
    "prediction_powered",
    "readers",
    "report",
    "rogan_gladen",
    "rogan_gladen_variance",
    "sequential",
    "simulate",
    "strata",
    "wald_interval",
]

_LAZY_SUBMODULES = {
    "alphabet_groups",
    "alphabets",
    "bayes",
    "cli",
    "designs",
    "io",
    "multiclass",
    "compare",
    "kernels",
    "priors",
    "datasets",
    "estimators",
    "experiments",
    "intervals",
    "plan",
    "plots",
    "prediction_powered",
    "readers",
    "report",
    "sequential",
    "simulate",
    "strata",
}


#: Public names defined in submodules that load on first use (keeps the import light).
_LAZY_ATTRIBUTES = {
    "Agreement": "judge_agreement",
    "agreement": "judge_agreement",
    "Comparison": "compare",
    "DistributionCorrection": "multiclass",
    "Priors": "priors",
    "Ranking": "compare",
    "SplitStudy": "experiments",
    "StratifiedCorrection": "strata",
    "CategoryCounts": "multiclass",
    "ConfusionMatrix": "multiclass",
    "correct_distribution": "multiclass",
    "correct_stratified": "strata",
    "AlphabetCorrection": "alphabets.groups",
    "SparseLettersWarning": "alphabets",
    "alphabet_counts": "alphabets",
    "judge_letters": "alphabets",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY_ATTRIBUTES:
        module = importlib.import_module(f".{_LAZY_ATTRIBUTES[name]}", __name__)
        return getattr(module, name)
    raise AttributeError(f"module 'judgestats' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _LAZY_SUBMODULES | set(_LAZY_ATTRIBUTES))
