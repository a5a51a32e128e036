"""judgestats: honest LLM-as-a-judge numbers.

Correct a judge's raw positive rate for its errors (Rogan–Gladen), with intervals that account
for both the test and the calibration sample (the adjusted-Wald interval of Lang & Reiczigel as
specified in "How to Correctly Report LLM-as-a-Judge Evaluations", ICML 2026).

Heavy dependencies (pandas, xarray, matplotlib, pymc) are imported only where used; the
subpackages and the names below the paper's core (``js.evaluate``, ``js.pairwise``,
``js.correct_distribution``, ...) load on first use. Errors and warnings live in
:mod:`judgestats.errors`; the top level keeps their base classes and the warnings users filter.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ._lazy import MovedModules, face
from ._validation import (
    ClippedEstimateWarning,
    DesignWarning,
    JudgeDependenceWarning,
    JudgeShiftWarning,
    JudgeStatsError,
    JudgeStatsWarning,
    LabelShiftWarning,
    ProjectedEstimateWarning,
    RepeatedItemsWarning,
    SamplingWarning,
    SparseLettersWarning,
    WeakCalibrationWarning,
)
from ._version import __version__
from .correct import Correction, correct
from .counts import ConfusionCounts, JudgedCounts
from .estimators import rogan_gladen
from .intervals import adjusted_wald_interval, interval_methods
from .label_shift import LabelShiftDiagnostic, label_shift_test
from .results import ConfidenceInterval

if TYPE_CHECKING:  # loaded on first use (_NAMES below lists the same names)
    from .agreement import Agreement, agreement
    from .alphabets import alphabet_counts, judge_letters
    from .alphabets.groups import AlphabetCorrection
    from .compare import Comparison, Ranking
    from .counts.categories import CategoryCounts, ConfusionMatrix
    from .evaluate import Evaluation, evaluate
    from .judge_shift import JudgeShiftDiagnostic, judge_shift_test
    from .jury import correct_jury
    from .multiclass import DistributionCorrection, correct_distribution
    from .pairwise import PairwiseLeaderboard, pairwise
    from .strata import StratifiedCorrection, correct_stratified

__all__ = [
    "Agreement",
    "AlphabetCorrection",
    "CategoryCounts",
    "ClippedEstimateWarning",
    "Comparison",
    "ConfidenceInterval",
    "ConfusionCounts",
    "ConfusionMatrix",
    "Correction",
    "DesignWarning",
    "DistributionCorrection",
    "Evaluation",
    "JudgeDependenceWarning",
    "JudgeShiftDiagnostic",
    "JudgeShiftWarning",
    "JudgeStatsError",
    "JudgeStatsWarning",
    "JudgedCounts",
    "LabelShiftDiagnostic",
    "LabelShiftWarning",
    "PairwiseLeaderboard",
    "ProjectedEstimateWarning",
    "Ranking",
    "RepeatedItemsWarning",
    "SamplingWarning",
    "SparseLettersWarning",
    "StratifiedCorrection",
    "WeakCalibrationWarning",
    "__version__",
    "adjusted_wald_interval",
    "agreement",
    "alphabet_counts",
    "alphabets",
    "compare",
    "correct",
    "correct_distribution",
    "correct_jury",
    "correct_stratified",
    "datasets",
    "designs",
    "errors",
    "estimators",
    "evaluate",
    "experiments",
    "interval_methods",
    "intervals",
    "io",
    "judge_letters",
    "judge_shift_test",
    "label_shift_test",
    "pairwise",
    "plan",
    "plots",
    "raters",
    "readers",
    "report",
    "rogan_gladen",
    "sequential",
    "simulate",
    "strata",
]

#: Names loaded on first use, by the module that holds them.
_NAMES = {
    "agreement": ("Agreement", "agreement"),
    "alphabets": ("alphabet_counts", "judge_letters"),
    "alphabets.groups": ("AlphabetCorrection",),
    "compare": ("Comparison", "Ranking"),
    "counts.categories": ("CategoryCounts", "ConfusionMatrix"),
    "evaluate": ("Evaluation", "evaluate"),
    "judge_shift": ("JudgeShiftDiagnostic", "judge_shift_test"),
    "jury": ("correct_jury",),
    "multiclass": ("DistributionCorrection", "correct_distribution"),
    "pairwise": ("PairwiseLeaderboard", "pairwise"),
    "strata": ("StratifiedCorrection", "correct_stratified"),
}

#: Subpackages and modules shown at the top level, loaded on first use.
_MODULES = (
    "alphabets", "bayes", "cli", "compare", "datasets", "designs", "errors", "estimators",
    "experiments", "intervals", "io", "jury", "kernels", "multiclass", "plan", "plots", "priors",
    "raters", "readers", "report", "sequential", "simulate", "strata", "scores",
    "bias",
)  # fmt: skip

#: Errors and warnings that were at the top level up to 0.1 (now in js.errors only).
_MOVED_ERRORS = (
    "ArgumentTypeError", "CalibrationOnlyModelError", "ClusteredCountsError", "ColumnError",
    "ComparisonGraphError", "ConfidenceLevelError", "ConfusedCategoriesError", "CountError",
    "DisconnectedComparisonsError", "EmptyGroupError", "GroupError", "GroupLabelError",
    "IllConditionedError", "LabelError", "LookalikeGroupsWarning", "MethodError",
    "ModelKeyError", "NotInformativeError", "PlanningWarning", "PriorError", "ProbabilityError",
    "SelfComparisonError", "SequentialError", "SparseStratumError", "StrataMismatchError",
    "ToolOutputError", "VerdictError", "WeightsError",
)  # fmt: skip

#: The paper's other point estimators, at the top level up to 0.1 (now in js.estimators only).
_MOVED_ESTIMATORS = (
    "calibration_only", "conditional_calibration", "misclassification_adjusted", "naive",
    "prediction_powered",
)  # fmt: skip

#: Old top-level names → their new homes: each still works, with a DeprecationWarning (issue 37).
_MOVED = {
    **{name: f"errors:{name}" for name in _MOVED_ERRORS},
    **{name: f"estimators:{name}" for name in _MOVED_ESTIMATORS},
    "difference": "estimators:prediction_powered",
    "rogan_gladen_variance": "intervals:rogan_gladen_variance",
    "wald_interval": "intervals:wald_interval",
    "Priors": "priors:Priors",
    "SplitStudy": "experiments:SplitStudy",
}

#: Old module paths → their new homes: ``import judgestats.shift`` and ``js.shift`` still work,
#: with a DeprecationWarning (the first five were modules that only re-exported, issue 37).
_MOVED_MODULES = {
    "alphabet_groups": "alphabets.groups",
    "alphabet_likelihood": "multiclass.likelihood",
    "alphabet_plan": "alphabets.plan",
    "design_plan": "designs.plan",
    "design_posterior": "designs.posterior",
    "agreement_card": "agreement.card",
    "judge_agreement": "agreement.measures",
    "shift": "label_shift",
}
_MOVED |= _MOVED_MODULES
MovedModules.install(_MOVED_MODULES)

# js.agreement, js.evaluate and js.pairwise are functions named like their subpackages. The
# subpackages are imported here (their faces load nothing), so that importing one of their
# modules later cannot set the package over the function; the functions load on first use.
for _package in ("agreement", "evaluate", "pairwise"):
    importlib.import_module(f"{__name__}.{_package}")
    del globals()[_package]

__getattr__, __dir__ = face(
    __name__, names=_NAMES, modules=_MODULES, moved=_MOVED, shown=[*__all__, *_MODULES]
)
