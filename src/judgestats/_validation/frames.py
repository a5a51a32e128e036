"""Checks of a frame's columns and groups.

Column names and roles, label kinds, key types, the groups' labels and sizes, and the errors
that name a group.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

from .arguments import _show
from .errors import (
    ArgumentTypeError,
    ColumnError,
    EmptyGroupError,
    GroupLabelError,
    JudgeStatsError,
)

__all__ = [
    "check_column_names",
    "check_distinct_roles",
    "check_frame_columns",
    "check_group_labels",
    "check_group_sizes",
    "check_label_kind",
    "check_missing_keys",
    "check_one_key_type",
    "check_split_kind",
    "check_unique_columns",
    "describe_group",
    "group_error",
]


def check_column_names(name: str, value: Any, *, allow_none: bool = False) -> tuple[str, ...]:
    """Validate ``by=``/``strata=``: a column name or a non-empty sequence of distinct names.

    Returns a tuple of names (``()`` for ``None`` when ``allow_none``).
    """
    if value is None and allow_none:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
        dup = sorted({v for v in value if list(value).count(v) > 1})
        if dup:
            raise JudgeStatsError(f"{name} names column(s) {dup} more than once: {value!r}")
        return tuple(value)
    what = "a column name, a non-empty tuple of names" + (" or None" if allow_none else "")
    raise ArgumentTypeError(f"{name} must be {what}, got {_show(value)}")


def check_distinct_roles(roles: dict[str, tuple[str, ...]]) -> None:
    """Check that a column plays one role only (a label column is not also a group column)."""
    seen: dict[str, str] = {}
    for role, cols in roles.items():
        for c in cols:
            if c in seen:
                raise JudgeStatsError(
                    f"column {c!r} is given as both {seen[c]} and {role}; each column plays "
                    "one role"
                )
            seen[c] = role


def check_frame_columns(available: Sequence[str], columns: dict[str, tuple[str, ...]]) -> None:
    """Every named column must exist; the message names *all* missing ones and their role.

    ``columns`` maps an argument (``"judge"``, ``"by"``, ...) to the column names it gives.
    """
    have = list(available)
    missing = [(arg, c) for arg, cols in columns.items() for c in cols if c not in have]
    if missing:
        listed = ", ".join(f"{c!r} ({arg}=)" for arg, c in missing)
        shown = have if len(have) <= 30 else [*have[:30], "..."]
        raise ColumnError(
            f"the frame has no column {listed}; its columns are {shown}"
            if len(missing) == 1
            else f"the frame lacks {len(missing)} columns: {listed}; its columns are {shown}"
        )


def check_label_kind(arg: str, column: str, kind: str, dtype: str) -> None:
    """Check that a label column is boolean or numeric (``kind``: "bool", "int", "float", ...).

    Checked on the frame's schema, before any row is read.
    """
    if kind not in ("bool", "int", "float"):
        hint = (
            "its values are text (such as 'yes', '1' as a string, or no values at all): "
            "convert it to 0/1 numbers or booleans first"
            if kind == "str"
            else "a column of mixed Python objects (True, 1, 'x', ...) has no single type: "
            "convert it to 0/1 numbers or booleans first"
            if kind == "object" or dtype == "Object"
            else "convert it first (for example map 'yes'/'no' to 1/0)"
        )
        raise ColumnError(
            f"{arg} column {column!r} must hold 0/1 numbers or booleans, got dtype {dtype}; "
            f"{hint}"
        )


def check_unique_columns(columns: Sequence[Any], where: str = "the frame") -> None:
    """Refuse duplicate column names (an engine would silently use one of them)."""
    seen: set = set()
    dup = []
    for c in columns:
        if c in seen:
            dup.append(c)
        seen.add(c)
    if dup:
        raise ColumnError(
            f"{where} has duplicate column name(s) {sorted(set(map(str, dup)))}: which one is "
            "meant is ambiguous; rename them"
        )


def check_one_key_type(column: str, values: Sequence[Any]) -> None:
    """Refuse a group column whose values mix Python types that compare or print alike.

    True == 1 (so an engine merges the groups) and 7 / '7' print the same; a key column must
    hold one type of value.
    """
    kinds = sorted({"bool" if isinstance(v, bool | np.bool_) else "number"
                    if isinstance(v, numbers.Number) else type(v).__name__
                    for v in values if v is not None and v == v})  # fmt: skip
    if len(kinds) > 1:
        raise ColumnError(
            f"group column {column!r} mixes value types ({', '.join(kinds)}): values such as "
            "True and 1, or 7 and '7', would merge or look alike; make the column one type"
        )


def check_split_kind(column: str, kind: str, dtype: str) -> None:
    """Check that the ``split=`` column holds strings (``'test'`` / ``'calibration'``)."""
    if kind != "str":
        raise ColumnError(
            f"split column {column!r} must hold the strings 'test' and 'calibration', "
            f"got dtype {dtype}"
        )


def describe_group(names: Sequence[str], key: Any) -> str:
    """``model='b'`` or ``model='b', task='qa'`` for error messages and report notes."""
    values = key if isinstance(key, tuple) else (key,)
    return ", ".join(f"{n}={v!r}" for n, v in zip(names, values, strict=True))


def _listed_groups(groups: Sequence[str], limit: int = 5) -> str:
    head = "; ".join(groups[:limit])
    return head + (f"; and {len(groups) - limit} more" if len(groups) > limit else "")


#: What a row needs in a column of each role, and the role's name (a missing-value error's words).
_KEY_ROLES = {"group": ("group columns have", "a group"),
              "strata": ("strata columns have", "a stratum"),
              "cluster": ("the cluster column has", "an item id"),
              "batch": ("the batch column has", "a batch")}


def check_missing_keys(missing: dict[str, int], roles: dict[str, str] | None = None) -> None:
    """Key columns must have a value on every row (``missing``: column → rows without one).

    ``roles`` says each column's role (``"group"``, the default, ``"strata"``, ``"cluster"``
    or ``"batch"``): the error names it (a cluster column's empty cell is a missing item id).
    """
    bad = {c: k for c, k in missing.items() if k}
    if bad:
        said: dict[str, list[str]] = {}
        for c, k in bad.items():
            said.setdefault((roles or {}).get(c, "group"), []).append(f"{c!r} on {k} row(s)")
        parts = [f"{_KEY_ROLES[r][0]} missing values: {', '.join(cols)}; every row needs "
                 f"{_KEY_ROLES[r][1]}" for r, cols in said.items()]  # fmt: skip
        raise ColumnError(f"{'; '.join(parts)} (fill the value or drop the rows yourself)")


def check_group_labels(problems: Sequence[tuple[str, str, str]]) -> None:
    """Raise :class:`GroupLabelError` for label values outside their allowed set.

    ``problems`` holds (group description, column role, what was found) in group order; the
    message names the first groups and how many there are in all.
    """
    if problems:
        first_role = problems[0][1]
        rows = [f"group {g}: {what}" for g, role, what in problems if role == first_role]
        others = sorted({role for _, role, _ in problems if role != first_role})
        more = f" (the {', '.join(others)} column(s) have bad values too)" if others else ""
        allowed = {
            "judge": "0/1 or bool on every row",
            "human": "0/1 or bool on calibration rows (a missing human label marks a test row "
            "unless split= is given)",
            "split": "'test' or 'calibration' on every row",
        }[first_role]
        raise GroupLabelError(
            f"the {first_role} column must hold {allowed}; {len(rows)} group(s) do not: "
            f"{_listed_groups(rows)}{more}"
        )


def check_group_sizes(
    group: str, *, n: int, m0: int, m1: int, split: str | None, where: str = "group",
    both_classes: bool = True,
) -> None:  # fmt: skip
    """Check that a group (or stratum) has test rows and calibration rows (of both classes).

    ``split`` is the split column, or None when a missing human label marks a test row.
    ``both_classes=False`` (the random and by-judge-label designs) accepts one human class.
    """
    if split is None:
        test_rows, cal_rows = "rows without a human label", "rows with a human label"
    else:
        test_rows = f"rows with {split} = 'test'"
        cal_rows = f"rows with {split} = 'calibration'"
    if n == 0:
        raise EmptyGroupError(
            f"{where} {group} has no test rows ({test_rows}); every group needs judged test items"
        )
    if m0 + m1 == 0:
        raise EmptyGroupError(
            f"{where} {group} has no calibration rows ({cal_rows}); every group needs "
            "human-labelled items to estimate the judge's errors"
        )
    for cls_name, size, rate in ((0, m0, "specificity"), (1, m1, "sensitivity")):
        if size == 0 and both_classes:
            raise EmptyGroupError(
                f"{where} {group} has {m0 + m1} calibration rows but none with human label "
                f"{cls_name}: the judge's {rate} cannot be estimated there (label more items, "
                "merge the group into another, or declare design='random' if the calibration "
                "rows are a random sample)"
            )


def group_error(exc: JudgeStatsError, group: str) -> JudgeStatsError:
    """Return the same error, of the same class, naming the group it arose in first."""
    return type(exc)(f"in group {group}: {exc}")
