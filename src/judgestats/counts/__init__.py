"""Sufficient statistics: the counts every correction starts from.

:mod:`.binary` holds the paper's two: :class:`JudgedCounts` (the test set's judged positives)
and :class:`ConfusionCounts` (the calibration set's human × judge table).
:mod:`.categories` holds their k-category and judge-alphabet forms, :class:`CategoryCounts` and
:class:`ConfusionMatrix` (J judge letters × K human categories), which
:mod:`judgestats.multiclass` re-exports. Counts are validated on construction and hold no
estimator.
"""

from __future__ import annotations

from .binary import (
    ConfusionCounts,
    JudgedCounts,
)

__all__ = [
    "ConfusionCounts",
    "JudgedCounts",
]
