"""Checks of label arrays.

Binary human and judge labels, k-category labels and their alphabets, score bins and invalid
verdicts.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .arguments import _first_bad, _show, check_instance
from .errors import ArgumentTypeError, JudgeStatsError, LabelError

__all__ = [
    "binary_value",
    "check_bins",
    "check_category_labels",
    "check_category_values",
    "check_cluster_ids",
    "check_columns",
    "check_covariates",
    "check_in_categories",
    "check_invalid",
    "check_labels",
    "check_labels_match",
    "check_same_length",
    "check_single",
    "is_missing",
]


# --------------------------------------------------------------------------- labels
def _label_array(name: str, values: Any, what: str) -> np.ndarray:
    """Return the labels as a non-empty 1-D numpy array (objects where mixed), unvalidated."""
    if values is None or isinstance(values, str | bytes):
        raise ArgumentTypeError(f"{name} must be a 1-D array of {what}, got {_show(values)}")
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):
        try:  # pandas / polars Series: keep missing values visible as objects
            arr = np.asarray(values.to_numpy(), dtype=None)
        except Exception:  # pragma: no cover - exotic containers
            arr = np.asarray(list(values), dtype=object)
    elif isinstance(values, np.ndarray):
        arr = values
    elif isinstance(values, Iterable):
        items = list(values)
        arr = np.empty(len(items), dtype=object)
        arr[:] = items
    else:
        raise ArgumentTypeError(f"{name} must be a 1-D array of {what}, got {_show(values)}")
    if arr.ndim != 1:
        raise LabelError(f"{name} must be 1-D, got an array of shape {arr.shape}")
    if arr.size == 0:
        raise LabelError(f"{name} is empty: at least one label is needed")
    return arr


def check_single(name: str, obj: Any, cls: type, *, batch_hint: str) -> None:
    """``obj`` is a ``cls`` holding one data set (not a batch); ``batch_hint`` says what to use."""
    check_instance(name, obj, cls)
    if obj.shape:
        raise JudgeStatsError(
            f"{name} holds a batch of shape {obj.shape}; {batch_hint}"
        )


def check_labels(name: str, labels: Any) -> np.ndarray:
    """Validate binary labels and return them as a ``bool`` array.

    Accepted: a 1-D sequence/array/Series of bools or of the numbers 0 and 1 (ints or floats
    exactly equal to 0 or 1). Refused, naming the first offender: anything else (0.7, 2, NaN,
    None, strings), empty input, and arrays that are not 1-D.
    """
    arr = _label_array(name, labels, "0/1 or bool labels")
    kind = arr.dtype.kind
    if kind == "b":
        return arr.astype(bool, copy=False)
    if kind in "iuf":
        bad = ~((arr == 0) | (arr == 1))  # NaN compares False -> bad
        if bad.any():
            raise LabelError(f"{name} must contain only 0/1 or bool, got {_first_bad(arr, bad)}")
        return arr == 1
    if kind == "O":
        ok = np.fromiter((_is_binary_scalar(v) for v in arr), dtype=bool, count=arr.size)
        if not ok.all():
            raise LabelError(f"{name} must contain only 0/1 or bool, got {_first_bad(arr, ~ok)}")
        return np.fromiter((bool(v) for v in arr), dtype=bool, count=arr.size)
    raise LabelError(
        f"{name} must contain only 0/1 or bool, got dtype {arr.dtype} (first value {_show(arr[0])})"
    )


def _is_binary_scalar(v: Any) -> bool:
    if isinstance(v, bool | np.bool_):
        return True
    if isinstance(v, numbers.Real):
        return v == 0 or v == 1
    return False


def check_same_length(name_a: str, a: Any, name_b: str, b: Any) -> None:
    """Two label arrays must pair up item by item."""
    if len(a) != len(b):
        raise LabelError(
            f"{name_a} has {len(a)} labels but {name_b} has {len(b)}: they must pair up"
        )


def check_columns(frame: Any, columns: dict[str, str]) -> None:
    """Check that a data frame has the named columns (``{argument: column}``)."""
    have = list(getattr(frame, "columns", []))
    if not hasattr(frame, "columns"):
        raise ArgumentTypeError(
            f"frame must be a data frame with columns, got {type(frame).__name__}"
        )
    for arg, col in columns.items():
        if col not in have:
            raise LabelError(f"{arg} column {col!r} is not in the frame; columns are {have}")


def check_category_labels(name: str, labels: Any, k: int) -> tuple[Any, ...]:
    """Validate category labels: ``k`` distinct scalars (str, int, ...). Returns a tuple."""
    if labels is None or isinstance(labels, str | bytes) or not isinstance(labels, Iterable):
        raise ArgumentTypeError(
            f"{name} must be a sequence of {k} category labels, got {_show(labels)}"
        )
    items = tuple(v.item() if isinstance(v, np.generic) else v for v in labels)
    if len(items) != k:
        raise LabelError(f"{name} must hold k = {k} labels, got {len(items)}: {_show(items)}")
    if len(set(items)) != k:
        dup = next(v for v in items if items.count(v) > 1)
        raise LabelError(f"{name} must be distinct, got {dup!r} more than once in {_show(items)}")
    return items


def check_labels_match(name_a: str, a: Sequence[Any], name_b: str, b: Sequence[Any]) -> None:
    """Two label sets that index the same categories must be equal, in the same order."""
    if tuple(a) != tuple(b):
        only_a = [v for v in a if v not in b]
        only_b = [v for v in b if v not in a]
        if not (only_a or only_b):
            hint = " (same labels in a different order: reorder one of them)"
        else:
            hint = "".join([
                f"; in the {name_a} only: {only_a!r}" if only_a else "",
                f"; in the {name_b} only: {only_b!r}" if only_b else "",
            ])  # fmt: skip
        raise LabelError(f"{name_a} {list(a)!r} do not match {name_b} {list(b)!r}{hint}")


def check_bins(bins: Any) -> np.ndarray:
    """Validate ``bins=``: at least two finite, strictly increasing edges (as floats)."""
    try:
        edges = np.asarray(bins, dtype=float)
    except (TypeError, ValueError):
        edges = np.asarray([])
    if (edges.ndim != 1 or edges.size < 2 or not np.all(np.isfinite(edges))
            or np.any(np.diff(edges) <= 0)):  # fmt: skip
        raise ArgumentTypeError(f"bins must be at least two increasing edges, got {bins!r}")
    return edges


def check_invalid(invalid: Any) -> list[Any] | None:
    """Validate ``invalid=``: None or a list, tuple or set of outputs (not a bare string)."""
    if invalid is None:
        return None
    if not isinstance(invalid, list | tuple | set | frozenset):
        raise ArgumentTypeError(
            f"invalid must be a list of judge outputs, e.g. invalid=[None, 'refused'], got "
            f"{invalid!r}"
        )
    return list(invalid)


def binary_value(value: Any) -> int | None:
    """Return a 0/1 label as an int (booleans, 0/1 numbers), or None for any other value."""
    if isinstance(value, bool | np.bool_):
        return int(value)
    if isinstance(value, numbers.Real) and value in (0, 1):
        return 1 if value == 1 else 0
    return None


def check_category_values(name: str, values: Any) -> list[Any]:
    """Validate observed category labels (one per item) and return them as a Python list.

    Accepted: a non-empty 1-D sequence/array/Series of scalars (str, int, float, bool).
    Refused, naming the first offender: missing values (None, NaN), nested containers, empty
    input and arrays that are not 1-D. Whether each value is a *declared* category is checked
    by :func:`check_in_categories`.
    """
    arr = _label_array(name, values, "category labels")
    items = arr.tolist()
    for i, v in enumerate(items):
        if not _is_category_scalar(v):
            missing = (
                v is None
                or type(v).__name__ in ("NAType", "NaTType")
                or (isinstance(v, float) and v != v)
            )
            what = "a missing value" if missing else "not a finite scalar label"
            raise LabelError(
                f"{name} must hold category labels, got {_show(v)} ({what}) at index {i}"
            )
    return items


def _is_category_scalar(v: Any) -> bool:
    if isinstance(v, str | bool | numbers.Integral):
        return True
    return isinstance(v, numbers.Real) and bool(np.isfinite(float(v)))


def check_in_categories(name: str, values: list[Any], categories: Sequence[Any]) -> np.ndarray:
    """Encode validated labels as codes 0..k−1 of ``categories``; a label outside them raises."""
    code = {c: i for i, c in enumerate(categories)}
    out = np.fromiter((code.get(v, -1) for v in values), dtype=np.int64, count=len(values))
    bad = out < 0
    if bad.any():
        i = int(np.argmax(bad))
        more = f" ({int(bad.sum())} such values in all)" if bad.sum() > 1 else ""
        raise LabelError(
            f"{name} contains {values[i]!r} at index {i}{more}, which is not among the declared "
            f"labels {list(categories)!r}"
        )
    return out


def is_missing(v: Any) -> bool:
    """Return True for None, a float NaN (numpy's included) or pandas' NA (without pandas)."""
    na = type(v).__name__ in ("NAType", "NaTType")
    return v is None or na or (isinstance(v, float) and v != v)


def check_cluster_ids(name: str, ids: Any, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Validate the item (cluster) id of each of ``size`` rows; return (ids, code per row).

    Any hashable values are ids (numbers, strings, tuples); rows with equal ids are repeats of
    one item. Refused, naming the first offender: a missing id (None, NaN, pandas' NA), an
    unhashable one, and a length other than ``size``. ``ids`` holds each distinct id once, in
    order of first appearance; ``code[i]`` is row i's index into it.
    """
    arr = _label_array(name, ids, "item ids (one per row)")
    if arr.ndim != 1:
        raise LabelError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.size != size:
        raise LabelError(f"{name} has {arr.size} ids for {size} rows; give one id per row")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        bad = _first_bad(arr, np.isnan(arr))
        raise LabelError(f"{name} must not contain missing ids, got {bad}")
    if arr.dtype.kind in "biufUS":  # no missing value possible beyond NaN: vectorised
        values, first, inverse = np.unique(arr, return_index=True, return_inverse=True)
        order = np.argsort(first)  # ids in order of first appearance
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        unique = np.empty(values.size, dtype=object)
        unique[:] = values[order].tolist()
        return unique, rank[inverse.reshape(-1)]
    index: dict[Any, int] = {}
    code = np.empty(arr.size, dtype=np.int64)
    for i, v in enumerate(arr.tolist()):
        if is_missing(v):
            raise LabelError(f"{name} must not contain missing ids, got {_show(v)} (row {i})")
        try:
            code[i] = index.setdefault(v, len(index))
        except TypeError:
            raise LabelError(f"{name} must hold hashable ids, got {_show(v)} (row {i})") from None
    unique = np.empty(len(index), dtype=object)
    unique[:] = list(index)
    return unique, code



# --------------------------------------------------------------------------- covariates
def _covariate_column(name: str, values: Any, size: int) -> np.ndarray:
    col = np.asarray(values.to_numpy() if hasattr(values, "to_numpy") else values)
    if col.ndim != 1 or col.shape[0] != size:
        raise ArgumentTypeError(
            f"covariate {name!r} must be 1-D with one value per row ({size}), got shape "
            f"{col.shape}"
        )
    if col.dtype.kind == "f":
        missing = np.flatnonzero(np.isnan(col))
    elif col.dtype.kind == "O":
        try:  # elementwise in C; pandas' NA has no truth value: then the loop
            missing = np.flatnonzero(np.asarray((col == None) | (col != col), dtype=bool))  # noqa: E711
        except TypeError:
            missing = np.flatnonzero([is_missing(v) for v in col])
    else:
        missing = np.empty(0, dtype=np.int64)
    if missing.size:
        raise LabelError(
            f"covariate {name!r} has {missing.size} missing value(s) (first at index "
            f"{missing[0]}): a covariate is needed on every row"
        )
    if col.dtype.kind == "f" and not np.all(np.isfinite(col)):
        first = int(np.flatnonzero(~np.isfinite(col))[0])
        raise LabelError(f"covariate {name!r} has an infinite value at index {first}")
    return col


def check_covariates(covariates: Any, size: int) -> dict[str, np.ndarray] | None:
    """Validate ``covariates=``: a name → 1-D column mapping, one value per row, none missing.

    Accepts None, a mapping (a dict, a pandas data frame) of names to columns, a polars data
    frame (its ``columns``), or an array: 1-D (one covariate, named ``"covariate"``) or 2-D
    rows × p (named ``"covariate_0"`` …). A column of numbers is a number, any other column
    (strings, booleans, objects) a category.
    """
    if covariates is None:
        return None
    if isinstance(covariates, str | bytes):
        raise ArgumentTypeError(
            f"covariates must be an array, a matrix or a mapping of name to column, got "
            f"{covariates!r}"
        )
    if hasattr(covariates, "items") or hasattr(covariates, "columns"):
        names = list(covariates.keys() if hasattr(covariates, "keys") else covariates.columns)
        cols = {str(k): _covariate_column(str(k), covariates[k], size) for k in names}
    else:
        arr = np.asarray(covariates)
        if arr.ndim == 1:
            cols = {"covariate": _covariate_column("covariate", arr, size)}
        elif arr.ndim == 2:
            cols = {f"covariate_{j}": _covariate_column(f"covariate_{j}", arr[:, j], size)
                    for j in range(arr.shape[1])}  # fmt: skip
        else:
            raise ArgumentTypeError(
                f"covariates must be 1-D or 2-D (rows × covariates), got shape {arr.shape}"
            )
    if not cols:
        raise ArgumentTypeError("covariates is empty: give at least one column, or None")
    return cols
