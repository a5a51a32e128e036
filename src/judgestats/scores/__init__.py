"""Numeric judge scores (issue 39): a score calibrated to the human label, then PPI++.

Its face re-exports :func:`correct_scores` and :class:`ScoreCorrection`
(:mod:`judgestats.scores.correction`). Loaded on first use (``js.scores``), not by
``import judgestats``. The modules: :mod:`.calibration` (the cross-fitted calibrators),
:mod:`.prediction_powered` (the PPI++ mean, its power tuning and its variance over items),
:mod:`.correction` (the entry, the small-sample fallback and the result).
"""

from __future__ import annotations

from .calibration import CALIBRATORS, DEFAULT_FOLDS
from .correction import MIN_SCORE_LABELS, ScoreCorrection, correct_scores

__all__ = [
    "CALIBRATORS",
    "DEFAULT_FOLDS",
    "MIN_SCORE_LABELS",
    "ScoreCorrection",
    "correct_scores",
]
