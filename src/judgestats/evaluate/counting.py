"""A leaderboard's frame counted per group on its engine, with the guard rail of repeated items.

:func:`judgestats.frames.group_counts` counts the 0/1 labels of every group (and stratum); with
``cluster=`` it counts each item's cells too. Without it, a column of :data:`ITEM_COLUMNS`
whose values repeat is counted per item as well, and where the repeats widen a group's
interval a :class:`~judgestats.RepeatedItemsWarning` says to pass ``cluster=``.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

from .._validation import RepeatedItemsWarning, check_column_names, describe_group
from ..designs import Design
from ..frames import GroupCounts, counts_of, group_counts, repeating_column
from ..repeated import cluster_summary, repeats_matter

__all__ = ["ITEM_COLUMNS", "count_groups"]

#: Columns that identify items: one whose values repeat within a group while ``cluster=`` is not
#: given is checked for correlated repeats (:class:`~judgestats.RepeatedItemsWarning`);
#: ``item`` is the item column of every reader's frame (:mod:`judgestats.readers`).
ITEM_COLUMNS = ("sample_id", "item_id", "question_id", "item")


def count_groups(frame: Any, columns: dict[str, Any], *, cluster: str | None,
                 design: Design) -> GroupCounts:  # fmt: skip
    """Count the frame's groups (``columns``: judge, human, by, strata, split).

    With ``cluster`` the counts keep each item's cells. Without it, where an item column
    repeats, warn when the repeats widen θ̂'s interval under ``design``: the engine counts each
    item too, :func:`judgestats.repeated.repeats_matter` decides per group (design effect and
    rows that agree beyond chance), and the returned
    counts leave the items out (the corrections count rows, as asked).
    """
    if cluster is not None:
        return group_counts(frame, **columns, cluster=cluster)
    groups = check_column_names("by", columns["by"])
    strata = check_column_names("strata", columns["strata"], allow_none=True)
    taken = (columns["judge"], columns["human"], columns["split"], *groups, *strata)
    column = repeating_column(frame, ITEM_COLUMNS, taken)
    if column is None:
        return group_counts(frame, **columns)
    counts = group_counts(frame, **columns, cluster=column)
    items = counts.clusters or {}
    found = []
    for key, cells in counts.counts.items():
        test, cal = counts_of(cells, items[key])
        if test is None or cal is None or (design.needs_both_classes
                                           and not cal.has_both_classes):  # fmt: skip
            continue
        summary = cluster_summary(test, cal, design, "rows")
        if repeats_matter(summary, items[key][1]):
            found.append((summary.theta_design_effect, describe_group(groups + strata, key)))
    if found:
        effect, where = max(found, key=lambda f: (f[0] == f[0], f[0] if f[0] == f[0] else 0.0))
        size = (f"design effect on the estimate's variance up to {effect:.2f}" if effect == effect
                else "design effect on the estimate's variance undefined, every rate 0 or 1, "
                "but the items' rows agree beyond chance, so they may not be independent")
        warnings.warn(
            f"column {column!r} identifies items that repeat, and cluster= was not given: the "
            f"intervals count rows as independent items and are too short in {len(found)} of "
            f"{len(counts.counts)} groups ({size}, in {where}); pass cluster={column!r}",
            RepeatedItemsWarning,
            stacklevel=3,  # evaluate's caller
        )
    return replace(counts, cluster=None, clusters=None)
