"""Grouped evaluation of a whole frame — many models, optional strata — on the frame's own engine.

An evaluation table has one row per judged item: the model (or any group) that produced it, the
judge's 0/1 label, a human 0/1 label where one exists, and covariates. The statistics need only
counts, so the O(rows) work is a single grouped count that runs where the data lives; the
corrections then run on the counts, one per group.

The counting is :func:`judgestats.frames.group_counts` (one path for every frame the package
reads); this module corrects the counts group by group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import face

if TYPE_CHECKING:  # loaded on first use (``import judgestats`` imports this face only)
    from ..frames import GroupCounts, group_counts
    from .groups import Evaluation, evaluate, evaluate_counts

__all__ = [
    "Evaluation",
    "GroupCounts",
    "evaluate",
    "evaluate_counts",
    "group_counts",
]

__getattr__, __dir__ = face(
    __name__,
    names={
        "frames": ("GroupCounts", "group_counts"),
        "evaluate.groups": ("Evaluation", "evaluate", "evaluate_counts"),
    },
    modules=("evaluate.batches", "evaluate.groups", "evaluate.tables"),
    shown=__all__,
)
