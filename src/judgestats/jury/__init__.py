"""Juries: two to ten 0/1 judges on the same items, under the paper's design (issue 39).

:func:`correct_jury` combines the members' Rogan–Gladen estimates with minimum-variance weights
(:mod:`judgestats.jury.weights`, the array-level kernel; :mod:`judgestats.jury.correction`,
the counts-level entry and its :class:`JuryCorrection`). ``js.evaluate(frame, judge=[...])``
reaches it for two or more 0/1 judge columns under ``design="by-human-label"``.

:func:`correct_combined` (:mod:`judgestats.jury.combined`) takes the judges' columns (0/1
letters or scores) and ``combine="stack"`` (cross-fitted logistic stacking,
:mod:`judgestats.jury.stack`, then PPI++; the random design), ``"mean"`` (the judges' J + 1
letters, or their mean score) or ``"letters"``; ``js.evaluate(frame, judge=[...],
combine=...)`` reaches it per group.
"""

from __future__ import annotations

from .combined import (
    COMBINES,
    DEFAULTS,
    CombinedJuryCorrection,
    PredictionPoweredJury,
    correct_combined,
)
from .correction import JuryCorrection, correct_jury, jury_cells, jury_items
from .weights import jury_bounds, member_moments, min_variance_weights

__all__ = [
    "COMBINES",
    "DEFAULTS",
    "CombinedJuryCorrection",
    "JuryCorrection",
    "PredictionPoweredJury",
    "correct_combined",
    "correct_jury",
    "jury_bounds",
    "jury_cells",
    "jury_items",
    "member_moments",
    "min_variance_weights",
]
