"""Argument checks, error classes and warning classes.

Every public function validates through this module and nowhere else. The rules:

* validate *before* coercing (``np.asarray(labels, dtype=int)`` would silently turn 0.7 into 0);
* an error names the argument and echoes the bad value (scipy style);
* errors subclass :class:`JudgeStatsError` (a ``ValueError``); wrong types raise
  :class:`ArgumentTypeError`, which is both a ``JudgeStatsError`` and a ``TypeError``.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "ArgumentTypeError",
    "ClippedEstimateWarning",
    "ConfidenceLevelError",
    "CountError",
    "JudgeStatsError",
    "JudgeStatsWarning",
    "LabelError",
    "LabelShiftWarning",
    "MethodError",
    "NotInformativeError",
    "ProbabilityError",
    "SamplingWarning",
]


# --------------------------------------------------------------------------- errors
class JudgeStatsError(ValueError):
    """Base class of every judgestats error about a bad argument value."""


class ArgumentTypeError(JudgeStatsError, TypeError):
    """An argument has the wrong type (e.g. a string where a count is expected)."""


class CountError(JudgeStatsError):
    """A count is negative, fractional, NaN, or larger than its total."""


class LabelError(JudgeStatsError):
    """Labels are not 0/1/bool, are empty, or two label arrays differ in length."""


class ProbabilityError(JudgeStatsError):
    """A proportion or rate is outside [0, 1] or NaN."""


class ConfidenceLevelError(JudgeStatsError):
    """A confidence level is not strictly between 0 and 1."""


class MethodError(JudgeStatsError):
    """An unknown method name (the message lists the valid ones)."""


class NotInformativeError(JudgeStatsError):
    """The judge is no better than chance (q0 + q1 <= 1): no correction is possible."""


# --------------------------------------------------------------------------- warnings
class JudgeStatsWarning(UserWarning):
    """Base class of judgestats warnings."""


class ClippedEstimateWarning(JudgeStatsWarning):
    """The Rogan–Gladen estimate fell outside [0, 1] and was clipped."""


class LabelShiftWarning(JudgeStatsWarning):
    """The calibration set's human-positive rate differs from the corrected test rate.

    Rogan–Gladen stays valid under such label shift; estimators that assume the test and
    calibration distributions coincide (calibration-only, difference, conditional calibration)
    do not.
    """


class SamplingWarning(JudgeStatsWarning):
    """A resampling or sampling procedure had undefined replicates or poor diagnostics."""


# --------------------------------------------------------------------------- helpers
def _show(value: Any) -> str:
    """Short repr of a bad value for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _first_bad(arr: np.ndarray, bad: np.ndarray) -> str:
    """Describe the first offending element of an array argument."""
    idx = np.argwhere(bad)[0]
    where = tuple(int(i) for i in idx) if arr.ndim > 1 else int(idx[0]) if arr.ndim else None
    value = arr[tuple(idx)] if arr.ndim else arr[()]
    count = int(np.count_nonzero(bad))
    shown = _show(value.item() if hasattr(value, "item") else value)
    if arr.ndim == 0:
        return shown
    more = f" ({count} bad values in all)" if count > 1 else ""
    return f"{shown} at index {where}{more}"


def _is_real_number(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool | np.bool_)


def _numeric_array(name: str, value: Any) -> np.ndarray:
    """Return ``value`` as a float/int ndarray, refusing bools, strings, None and objects."""
    if isinstance(value, bool | np.bool_):
        raise ArgumentTypeError(f"{name} must be a number, not a bool ({value!r})")
    if _is_real_number(value):
        return np.asarray(value)
    if isinstance(value, str | bytes) or value is None:
        raise ArgumentTypeError(
            f"{name} must be a number or an array of numbers, got {_show(value)}"
        )
    try:
        arr = np.asarray(value)
    except Exception as exc:  # pragma: no cover - exotic inputs
        raise ArgumentTypeError(
            f"{name} must be array-like of numbers, got {_show(value)}"
        ) from exc
    if arr.dtype.kind not in "iuf":
        raise ArgumentTypeError(
            f"{name} must hold real numbers, got an array of dtype {arr.dtype} ({_show(value)})"
        )
    return arr


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


def check_probability(name: str, value: Any) -> Any:
    """Validate a probability (or array): real, not NaN, within [0, 1]. Returns float(s)."""
    arr = _numeric_array(name, value).astype(float, copy=False)
    bad = np.isnan(arr)
    if bad.any():
        raise ProbabilityError(
            f"{name} must be a probability in [0, 1], got NaN ({_first_bad(arr, bad)})"
        )
    bad = (arr < 0) | (arr > 1)
    if bad.any():
        raise ProbabilityError(
            f"{name} must be a probability in [0, 1], got {_first_bad(arr, bad)}"
        )
    return arr.item() if arr.ndim == 0 else arr


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


def check_confidence_level(value: Any, name: str = "confidence_level") -> Any:
    """Validate a confidence level (scalar or array) strictly inside (0, 1)."""
    arr = _numeric_array(name, value).astype(float, copy=False)
    bad = ~((arr > 0) & (arr < 1))  # also catches NaN
    if bad.any():
        raise ConfidenceLevelError(
            f"{name} must be strictly between 0 and 1 (e.g. 0.95), got {_first_bad(arr, bad)}"
        )
    return arr.item() if arr.ndim == 0 else arr


def check_positive_int(name: str, value: Any, *, minimum: int = 1) -> int:
    """Validate a scalar integer option such as ``n_resamples``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise ArgumentTypeError(f"{name} must be an integer, got {_show(value)}")
    if value < minimum:
        raise JudgeStatsError(f"{name} must be >= {minimum}, got {value!r}")
    return int(value)


def check_choice(name: str, value: Any, choices: Sequence[str]) -> str:
    """Validate a string option against a set of names (message lists the valid ones)."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} must be a string, got {_show(value)}")
    if value not in choices:
        opts = [repr(c) for c in choices]
        listed = opts[0] if len(opts) == 1 else ", ".join(opts[:-1]) + " or " + opts[-1]
        raise MethodError(f"{name} ({value!r}) must be one of {listed}")
    return value


def check_informative(q0: Any, q1: Any, *, what: str = "q0 + q1") -> None:
    """Raise :class:`NotInformativeError` where ``q0 + q1 <= 1`` (judge no better than chance)."""
    s = np.asarray(q0, dtype=float) + np.asarray(q1, dtype=float)
    bad = ~(s > 1)
    if bad.any():
        q0b, q1b = np.broadcast_arrays(np.asarray(q0, dtype=float), np.asarray(q1, dtype=float))
        i = tuple(np.argwhere(np.broadcast_to(bad, q0b.shape))[0]) if q0b.ndim else ()
        where = f" at index {i if len(i) > 1 else i[0]}" if i else ""
        raise NotInformativeError(
            f"{what} must exceed 1 for a correction to exist, got specificity {q0b[i]:.6g} + "
            f"sensitivity {q1b[i]:.6g} = {q0b[i] + q1b[i]:.6g}{where}: the judge is no better "
            "than chance on the calibration set, so its labels carry no information about the "
            "true rate"
        )


# --------------------------------------------------------------------------- labels
def check_labels(name: str, labels: Any) -> np.ndarray:
    """Validate binary labels and return them as a ``bool`` array.

    Accepted: a 1-D sequence/array/Series of bools or of the numbers 0 and 1 (ints or floats
    exactly equal to 0 or 1). Refused, naming the first offender: anything else (0.7, 2, NaN,
    None, strings), empty input, and arrays that are not 1-D.
    """
    if labels is None or isinstance(labels, str | bytes):
        raise ArgumentTypeError(
            f"{name} must be a 1-D array of 0/1 or bool labels, got {_show(labels)}"
        )
    if hasattr(labels, "to_numpy") and not isinstance(labels, np.ndarray):
        try:  # pandas / polars Series: keep missing values visible as objects
            arr = np.asarray(labels.to_numpy(), dtype=None)
        except Exception:  # pragma: no cover - exotic containers
            arr = np.asarray(list(labels), dtype=object)
    elif isinstance(labels, np.ndarray):
        arr = labels
    elif isinstance(labels, Iterable):
        items = list(labels)
        arr = np.empty(len(items), dtype=object)
        arr[:] = items
    else:
        raise ArgumentTypeError(
            f"{name} must be a 1-D array of 0/1 or bool labels, got {_show(labels)}"
        )
    if arr.ndim != 1:
        raise LabelError(f"{name} must be 1-D, got an array of shape {arr.shape}")
    if arr.size == 0:
        raise LabelError(f"{name} is empty: at least one label is needed")
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


def check_same_length(name_a: str, a: np.ndarray, name_b: str, b: np.ndarray) -> None:
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


def check_rng(rng: Any, name: str = "rng") -> np.random.Generator:
    """Turn ``None`` / an int seed / a SeedSequence / a Generator into a Generator.

    ``None`` draws fresh OS entropy (not a global RNG); anything else is a type error.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if (
        rng is None
        or isinstance(rng, np.random.SeedSequence)
        or (isinstance(rng, numbers.Integral) and not isinstance(rng, bool | np.bool_))
    ):
        if isinstance(rng, numbers.Integral) and rng < 0:
            raise JudgeStatsError(f"{name} seed must be non-negative, got {rng!r}")
        return np.random.default_rng(rng)
    raise ArgumentTypeError(
        f"{name} must be None, an int seed, a numpy SeedSequence or a numpy Generator, "
        f"got {_show(rng)}"
    )


def check_instance(name: str, value: Any, cls: type | tuple[type, ...]) -> Any:
    """Type check for structured arguments (counts objects, results)."""
    if not isinstance(value, cls):
        names = cls.__name__ if isinstance(cls, type) else " or ".join(c.__name__ for c in cls)
        raise ArgumentTypeError(
            f"{name} must be a {names}, got {type(value).__name__} ({_show(value)})"
        )
    return value


def broadcast(**arrays: Any) -> list[np.ndarray]:
    """Broadcast validated arrays together; a shape clash names every argument."""
    try:
        return list(np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in arrays.values())))
    except ValueError as exc:
        shapes = ", ".join(f"{k}{np.shape(v)}" for k, v in arrays.items())
        raise JudgeStatsError(f"arguments must broadcast together, got shapes {shapes}") from exc

# --------------------------------------------------------------------------- planning
class PlanningWarning(JudgeStatsWarning):
    """A planning rule met a boundary case (e.g. p̂ of 0 or 1) and applied its limit."""


def check_budget(name: str, value: Any, *, minimum: int) -> int:
    """Validate a scalar sample-size budget (an integer >= ``minimum``)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        if _is_real_number(value) and float(value).is_integer():
            value = int(value)
        else:
            raise ArgumentTypeError(f"{name} must be a whole number, got {_show(value)}")
    if value < minimum:
        raise CountError(f"{name} must be >= {minimum}, got {value!r}")
    return int(value)


def check_open_unit(name: str, value: Any, *, upper_closed: bool = False) -> float:
    """Validate a scalar in (0, 1) (or (0, 1] with ``upper_closed``)."""
    v = check_probability(name, value)
    if np.ndim(v):
        raise ArgumentTypeError(f"{name} must be a scalar, got an array of shape {np.shape(v)}")
    ok = 0 < v <= 1 if upper_closed else 0 < v < 1
    if not ok:
        rng = "(0, 1]" if upper_closed else "(0, 1)"
        raise ProbabilityError(f"{name} must be in {rng}, got {v!r}")
    return float(v)

