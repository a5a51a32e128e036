"""Merging strata too sparse to calibrate: declared merges and the automatic rule.

A stratum with fewer than ``min_per_class`` calibration items of a human class is merged into
its neighbour (``merge="auto"``) or as the caller declared; the merged strata's counts add.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    check_choice,
    check_same_strata,
)
from ..counts import ConfusionCounts, JudgedCounts
from ..counts.clusters import merged_totals

if TYPE_CHECKING:  # pragma: no cover
    pass

# ============================================================================ merging strata
def _resolve_merge(merge: Any, known: list[Any]) -> dict[Any, Any]:
    """Validate a merge mapping and resolve chains (a → b → c gives a → c, b → c).

    Keys naming no stratum in ``known`` are left out, so that one mapping can serve many
    frames (a misspelt key leaves its sparse stratum unmerged, which is then reported).
    """
    if isinstance(merge, str | bytes) or not hasattr(merge, "items"):
        raise ArgumentTypeError(
            f"merge must be None, 'auto' or a mapping stratum -> stratum, got {merge!r}"
        )
    mapping = dict(merge.items())
    out = {}
    for key in mapping:
        seen, target = [key], mapping[key]
        while target in mapping and target != seen[-1]:
            if target in seen:
                raise JudgeStatsError(f"merge has a cycle: {' -> '.join(map(repr, seen))}")
            seen.append(target)
            target = mapping[target]
        if target != key and key in known:
            out[key] = target
    return out


def class_sizes(cal: ConfusionCounts) -> tuple[int, int]:
    """Return the calibration items of human class 0 and 1, (m0, m1).

    With repeated items (counts built with ``cluster=``) the items with rows of that class,
    however many rows each has.
    """
    if cal.clusters is None:
        return int(cal.m0), int(cal.m1)
    t = cal.clusters.totals  # fields tp, fn, tn, fp
    return int(np.count_nonzero(t[:, 2] + t[:, 3])), int(np.count_nonzero(t[:, 0] + t[:, 1]))


def _auto_merge(cals: dict[Any, ConfusionCounts], min_per_class: int) -> dict[Any, Any]:
    """Map every sparse stratum to the non-sparse stratum with the most calibration items."""
    sparse = [s for s, c in cals.items() if min(class_sizes(c)) < min_per_class]
    if not sparse:
        return {}
    dense = [s for s in cals if s not in sparse] or list(cals)
    target = max(dense, key=lambda s: cals[s].m)  # first of equals
    return {s: target for s in sparse if s != target}


def _apply_merge(mapping: dict[Any, Any], counts: dict[Any, Any], cls: type) -> dict[Any, Any]:
    groups: dict[Any, list[Any]] = {}
    for key, obj in counts.items():
        groups.setdefault(mapping.get(key, key), []).append(obj)
    fields = ("positive", "n") if cls is JudgedCounts else ("tp", "fn", "tn", "fp")
    out = {}
    for key, objs in groups.items():
        sums = {f: int(sum(getattr(o, f) for o in objs)) for f in fields}
        out[key] = objs[0] if len(objs) == 1 else cls(**sums, clusters=merged_totals(objs, fields))
    return out


def _merged_strata(tests, cals, merge, min_per_class):
    """Apply ``merge`` (a mapping or ``"auto"``).

    Returns the tests, the calibrations, the merge map, and the strata as the caller named them
    (what weights given per stratum refer to).
    """
    known = list(tests) + [s for s in cals if s not in tests]
    merged: dict[Any, Any] = {}
    if isinstance(merge, str):
        check_choice("merge", merge, ("auto",))
    elif merge is not None:
        merged = _resolve_merge(merge, known)
        tests = _apply_merge(merged, tests, JudgedCounts)
        cals = _apply_merge(merged, cals, ConfusionCounts)
    check_same_strata("tests", tests, "calibrations", cals)
    pre = known if merge != "auto" else list(tests)
    if merge == "auto":
        merged = _auto_merge(cals, min_per_class)
        tests = _apply_merge(merged, tests, JudgedCounts)
        cals = _apply_merge(merged, cals, ConfusionCounts)
    return tests, cals, merged, pre
