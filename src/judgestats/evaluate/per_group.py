"""Every group of a leaderboard corrected in turn: its warnings named, its errors raised or marked.

The loop each mode of :func:`judgestats.evaluate` shares (0/1 labels, a judge alphabet, with or
without calibration batches): a group's correction runs with its warnings recorded and
re-issued with the group named; an error names the group and stops (``errors="raise"``) or
keeps the group out with its reason (``errors="mark"``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from .._validation import GroupError, JudgeStatsError, describe_group, group_error, listed
from ..progress import progress as progress_bar

__all__ = ["ERRORS", "correct_each", "corrected", "group_key"]

#: What a group that cannot be corrected does (``evaluate(errors=)``).
ERRORS = ("raise", "mark")


def group_key(key: tuple, k: int) -> Any:
    """Return the group of a counted key: its first ``k`` values (the value itself for one)."""
    return key[0] if k == 1 else key[:k]


def correct_each(
    by: tuple, groups: list, correct_group: Callable[[Any, str], Any], *, errors: str,
    stacklevel: int, progress: bool | None,
) -> tuple[dict, dict, dict]:  # fmt: skip
    """Correct every group by ``correct_group(g, label)``.

    Returns group → correction, group → the warnings issued (class name, message), and
    group → why it was not corrected (``errors="mark"``). Warnings are re-issued with the
    group named, at ``stacklevel`` (that of the caller of this function's caller + 1).
    """
    corrections: dict[Any, Any] = {}
    issued: dict[Any, tuple] = {}
    marked: dict[Any, str] = {}
    for g in progress_bar(groups, total=len(groups), desc="groups", enabled=progress):
        label = describe_group(by, g)
        try:
            with warnings.catch_warnings(record=True) as caught:
                # local: each warning is re-issued below with the group named, and kept
                # on the result for the report
                warnings.simplefilter("always")
                corrections[g] = correct_group(g, label)
        except JudgeStatsError as exc:
            if errors == "mark":  # the group keeps a row with its reason; the rest go on
                marked[g] = f"{type(exc).__name__}: {exc}"
                continue
            if isinstance(exc, GroupError):  # names its group already
                raise
            raise group_error(exc, label) from exc
        issued[g] = tuple((w.category.__name__, str(w.message)) for w in caught)
        for w in caught:
            warnings.warn(f"group {label}: {w.message}", w.category, stacklevel=stacklevel)
    return corrections, issued, marked


def corrected(by: tuple, groups: list, corrections: dict, marked: dict) -> list:
    """Return the corrected groups, in order (an error when none could be)."""
    if marked and not corrections:
        alike: dict[str, list[str]] = {}  # one reason, the groups it stopped (at most five)
        for g, w in marked.items():
            alike.setdefault(str(w), []).append(describe_group(by, g))
        why = listed([f"{listed(names)}: {w}" for w, names in alike.items()], sep="; ")
        raise JudgeStatsError(f"no group could be corrected: {why}")
    return [g for g in groups if g in corrections]
