"""Checks of counts.

Binary counts and sample sizes, k-category counts and confusion matrices, batches of them, and
the conditioning of an estimated confusion matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .arguments import _first_bad, _numeric_array
from .errors import ClusteredCountsError, CountError, IllConditionedError

__all__ = [
    "check_batched_category_counts",
    "check_category_counts",
    "check_conditioning",
    "check_confusion_counts",
    "check_count",
    "check_count_le",
    "check_sample_size",
    "check_unclustered",
]


# --------------------------------------------------------------------------- numbers
def check_count(name: str, value: Any, *, minimum: int = 0) -> Any:
    """Validate a count (or array of counts): integer-valued, finite, ``>= minimum``.

    Integer-valued floats (``600.0``) are accepted; ``600.5``, NaN, bools and strings are not.
    Returns a Python ``int`` for scalars and an ``int64`` array otherwise.
    """
    arr = _numeric_array(name, value)
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr)
        if bad.any():
            raise CountError(f"{name} must be a finite whole number, got {_first_bad(arr, bad)}")
        bad = arr != np.round(arr)
        if bad.any():
            raise CountError(f"{name} must be a whole number (a count), got {_first_bad(arr, bad)}")
    bad = arr < minimum
    if bad.any():
        what = "non-negative" if minimum == 0 else f">= {minimum}"
        raise CountError(f"{name} must be {what}, got {_first_bad(arr, bad)}")
    return int(arr) if arr.ndim == 0 else arr.astype(np.int64)


def check_count_le(name: str, value: Any, total_name: str, total: Any) -> None:
    """Check ``value <= total`` elementwise (both already validated counts)."""
    v, t = np.broadcast_arrays(np.asarray(value), np.asarray(total))
    bad = v > t
    if bad.any():
        i = tuple(np.argwhere(bad)[0])
        raise CountError(f"{name} ({v[i].item()}) cannot exceed {total_name} ({t[i].item()})")


def check_sample_size(name: str, value: Any, *, positive: bool, allow_inf: bool = False) -> Any:
    """Validate a sample size used in a formula: ``> 0`` (or ``>= 0``); optionally ``inf``."""
    arr = _numeric_array(name, value).astype(float, copy=False)
    bad = np.isnan(arr) | (arr == -np.inf)
    if not allow_inf:
        bad |= np.isinf(arr)
    if bad.any():
        what = "a finite number or inf" if allow_inf else "finite"
        raise CountError(f"{name} must be {what}, got {_first_bad(arr, bad)}")
    bad = arr <= 0 if positive else arr < 0
    if bad.any():
        rel = "> 0" if positive else ">= 0"
        raise CountError(f"{name} must be {rel}, got {_first_bad(arr, bad)}")
    return arr.item() if arr.ndim == 0 else arr


def check_category_counts(name: str, value: Any) -> np.ndarray:
    """Validate per-category counts: a 1-D vector of k >= 2 non-negative whole numbers."""
    arr = np.asarray(check_count(name, value))
    if arr.ndim != 1:
        raise CountError(
            f"{name} must be a 1-D vector of per-category counts, got shape {arr.shape}"
        )
    if arr.size < 2:
        raise CountError(f"{name} must have at least 2 categories (k >= 2), got k = {arr.size}")
    return arr.astype(np.int64)


def check_confusion_counts(
    name: str, value: Any, k: int, labels: Sequence[Any] | None = None, *,
    every_column: bool = True, letters: int | None = None,
) -> np.ndarray:  # fmt: skip
    """Validate a count matrix (rows = judge letter, columns = human label).

    Square k×k unless ``letters`` gives the judge alphabet's size J (then J×k, J >= k). With
    ``every_column`` (the by-human-label design) every column (true class) must hold at
    least one calibration item, or that class's judge behaviour cannot be estimated; without,
    the matrix needs one item in all.
    """
    arr = np.asarray(check_count(name, value))
    if letters is None:
        if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
            raise CountError(
                f"{name} must be a square k×k matrix of counts, got shape {arr.shape} (a judge "
                "alphabet other than the human categories needs judge_labels=)"
            )
        if arr.shape[0] != k:
            raise CountError(
                f"{name} is {arr.shape[0]}×{arr.shape[1]} but the test counts have k = {k} "
                "categories"
            )
    elif arr.ndim != 2 or arr.shape != (letters, k):
        raise CountError(
            f"{name} must be a J×K matrix of counts with J = {letters} judge letters (rows) "
            f"and K = {k} human categories (columns), got shape {arr.shape}"
        )
    if arr.sum() == 0:
        raise CountError(f"{name} holds no calibration item")
    empty = arr.sum(axis=0) == 0
    if every_column and empty.any():
        j = int(np.argmax(empty))
        label = repr(labels[j]) if labels is not None else f"at column {j}"
        raise CountError(
            f"{name} has no calibration items with human label {label} (its column sums to 0): "
            "every true class needs calibration items to estimate how the judge labels it"
        )
    return arr.astype(np.int64)


def check_conditioning(kappa: float, max_condition: float, what: str = "Ĉ") -> None:
    """Raise :class:`IllConditionedError` when a condition number exceeds ``max_condition``."""
    if not kappa <= max_condition:  # NaN and inf fail
        state = "singular" if not np.isfinite(kappa) or kappa > 1e15 else "ill-conditioned"
        raise IllConditionedError(
            f"the estimated confusion matrix {what} is {state}: condition number {kappa:.4g} "
            f"exceeds max_condition = {max_condition:g}. Inverting it would amplify the sampling "
            "noise of the calibration set beyond use (the judge's labels do not separate the "
            "true categories). Merge categories the judge confuses, collect more calibration "
            "items, or pass a larger max_condition"
        )


def check_batched_category_counts(test: Any, calibration: Any) -> tuple[np.ndarray, np.ndarray]:
    """Validate batches of counts: ``test`` (..., J) and ``calibration`` (..., J, K), J >= K.

    Whole non-negative numbers, K >= 2 (J = K: the judge uses the human categories), batch shapes
    that broadcast, every test vector with at least one item. Returns ``int64`` arrays.
    """
    t = np.asarray(check_count("test counts", test))
    c = np.asarray(check_count("calibration counts", calibration))
    if t.ndim < 1 or t.shape[-1] < 2:
        raise CountError(
            f"test counts must have shape (..., k) with k >= 2 categories, got shape {t.shape}"
        )
    j = t.shape[-1]
    if c.ndim < 2 or c.shape[-2] != j or not 2 <= c.shape[-1] <= j:
        raise CountError(
            f"calibration counts must have shape (..., {j}, K) with 2 <= K <= {j} to match the "
            f"test counts' {j} judge labels (rows = judge label), got shape {c.shape}"
        )
    try:
        np.broadcast_shapes(t.shape[:-1], c.shape[:-2])
    except ValueError as exc:
        raise CountError(
            f"batch shapes must broadcast, got test {t.shape[:-1]} and calibration {c.shape[:-2]}"
        ) from exc
    empty = t.sum(axis=-1) == 0
    if empty.any():
        i = tuple(int(x) for x in np.argwhere(empty)[0])
        raise CountError(f"test counts must hold at least one item, got n = 0 at batch index {i}")
    return t.astype(np.int64), c.astype(np.int64)


def check_unclustered(what: str, handles: str, *counts: Any) -> None:
    """Raise :class:`ClusteredCountsError` where rows would be counted as independent items.

    ``counts`` built with ``cluster=`` (repeated items) carry per-item totals; ``what`` names
    the function that would ignore them and ``handles`` says what accounts for them instead.
    """
    if any(getattr(c, "clusters", None) is not None for c in counts):
        raise ClusteredCountsError(
            f"{what} treats every row as an independent item, but these counts were built with "
            f"cluster= (repeated items); {handles}"
        )

