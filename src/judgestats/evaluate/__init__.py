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
    from .evaluation import Evaluation
    from .groups import evaluate, evaluate_counts

__all__ = [
    "Evaluation",
    "GroupCounts",
    "evaluate",
    "evaluate_counts",
    "group_counts",
]

_NAMES = {
    "frames": ("GroupCounts", "group_counts"),
    "evaluate.evaluation": ("Evaluation",),
    "evaluate.groups": ("evaluate", "evaluate_counts"),
}

_MODULES = (
    "evaluate.batches", "evaluate.binary", "evaluate.counting", "evaluate.evaluation",
    "evaluate.groups", "evaluate.letters", "evaluate.per_group", "evaluate.tables",
)  # fmt: skip

__getattr__, __dir__ = face(__name__, names=_NAMES, modules=_MODULES, shown=__all__)
