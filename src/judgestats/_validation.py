"""Argument checks, error classes and warning classes.

Every public function validates through this module and nowhere else. The rules:

* validate *before* coercing (``np.asarray(labels, dtype=int)`` would silently turn 0.7 into 0);
* an error names the argument and echoes the bad value (scipy style);
* errors subclass :class:`JudgeStatsError` (a ``ValueError``); wrong types raise
  :class:`ArgumentTypeError`, which is both a ``JudgeStatsError`` and a ``TypeError``.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "ArgumentTypeError",
    "ClippedEstimateWarning",
    "ConfidenceLevelError",
    "CountError",
    "DesignWarning",
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
    """The Rogan–Gladen estimate fell outside [0, 1] and was clipped.

    The judged rate p̂ lies outside the range [1 − q̂0, q̂1] that the estimated error rates
    allow, most often because the calibration set is small. The result keeps the unclipped
    value (``estimate_unclipped``) and sets ``clipped=True``. When the whole adjusted-Wald
    interval lay outside [0, 1] too, its far bound is z times the standard error at the
    boundary (``ci.widened``; see :func:`judgestats.adjusted_wald_interval`).
    """


class LabelShiftWarning(JudgeStatsWarning):
    """The calibration set's human-positive rate differs from the corrected test rate.

    Rogan–Gladen stays valid under such label shift; estimators that assume the test and
    calibration distributions coincide (calibration-only, difference, conditional calibration)
    do not.
    """


class SamplingWarning(JudgeStatsWarning):
    """A resampling or sampling procedure had undefined replicates or poor diagnostics."""


class DesignWarning(JudgeStatsWarning):
    """The declared calibration design does not fit the data.

    Issued when ``design="random"`` is declared but the calibration set's judge-positive rate
    differs from the test set's more than sampling noise allows
    (:func:`judgestats.designs.design_check`): the calibration items were then not a random
    sample of the test population, and ``design="by-human-label"`` stays valid.
    """


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


def warn_deprecated(old: str, new: str, stacklevel: int = 3) -> None:
    """DeprecationWarning: ``old`` still works, ``new`` is the name to use.

    Python's default filter shows it once per calling line.
    """
    warnings.warn(f"{old} is deprecated; use {new}", DeprecationWarning, stacklevel=stacklevel)


def take_renamed(options: dict, old: str, new: str, value: Any, where: str) -> Any:
    """Return the value of a renamed keyword.

    That is ``value`` (passed by the new name ``new``), or the one passed by the deprecated name
    ``old`` (popped from ``options``, with a DeprecationWarning).
    """
    if old not in options:
        return value
    if value is not None:
        raise ArgumentTypeError(f"{where}() got {old}= and {new}=; pass {new}= only")
    warn_deprecated(f"{where}({old}=...)", f"{new}=", stacklevel=4)
    return options.pop(old)


def pop_renamed(extra: dict, renames: dict[str, str], where: str) -> dict[str, Any]:
    """Return the values passed under deprecated keyword names, by their new names.

    ``extra`` holds a function's leftover keywords; each deprecated name found there warns
    (DeprecationWarning) and moves to its new name. Any other leftover keyword is an error, as
    Python would raise for an unknown keyword.
    """
    out = {}
    for old, new in renames.items():
        if old in extra:
            warn_deprecated(f"{where}({old}=...)", f"{new}=", stacklevel=4)
            out[new] = extra.pop(old)
    if extra:
        raise ArgumentTypeError(f"{where}() got unexpected keyword argument(s) {sorted(extra)}")
    return out


def _listed(names: Sequence[str]) -> str:
    opts = [repr(c) for c in names]
    return opts[0] if len(opts) == 1 else ", ".join(opts[:-1]) + " or " + opts[-1]


def check_method(method: Any, available: Sequence[str], *, capability: str) -> str:
    """Validate an interval-method name for one capability.

    The same name means the same interval everywhere; the error says the method is not available
    for this capability and lists those that are.
    """
    if not isinstance(method, str):
        raise ArgumentTypeError(f"method must be a string, got {_show(method)}")
    if method not in available:
        raise MethodError(
            f"method {method!r} is not available for {capability}; the methods there are "
            f"{_listed(available)}"
        )
    return method


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
        if isinstance(rng, numbers.Integral):
            if rng < 0:
                raise JudgeStatsError(f"{name} seed must be non-negative, got {rng!r}")
            return np.random.default_rng(int(rng))
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


# ------------------------------------------------------------------ bayes: priors, k categories
class PriorError(JudgeStatsError):
    """A prior is invalid: a Beta/Dirichlet parameter <= 0, NaN or inf, or of the wrong shape."""


def check_concentration(name: str, value: Any) -> Any:
    """Validate Beta/Dirichlet parameters: real, finite and > 0 (scalar or array).

    Returns a float for scalars and a float ndarray otherwise.
    """
    arr = _numeric_array(name, value).astype(float, copy=False)
    bad = ~(np.isfinite(arr) & (arr > 0))  # NaN fails both
    if bad.any():
        raise PriorError(f"{name} must be finite and > 0, got {_first_bad(arr, bad)}")
    return arr.item() if arr.ndim == 0 else arr


def check_concentration_shape(name: str, value: Any, shape: tuple[int, ...], why: str) -> None:
    """Check that a Dirichlet concentration has ``shape`` (``why`` names its source)."""
    if np.shape(value) != shape:
        raise PriorError(f"{name} must have shape {shape} ({why}), got shape {np.shape(value)}")


def check_bool(name: str, value: Any) -> bool:
    """Validate a flag: a Python or numpy bool (not 0/1, not a string)."""
    if not isinstance(value, bool | np.bool_):
        raise ArgumentTypeError(f"{name} must be True or False, got {_show(value)}")
    return bool(value)


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


# ------------------------------------------------------------------ k categories: multiclass.py
class IllConditionedError(NotInformativeError):
    """The estimated k × k confusion matrix is singular or too ill-conditioned to invert.

    The k-category analogue of q̂0 + q̂1 <= 1 (for k = 2, det Ĉ = q̂0 + q̂1 − 1): the judge's
    labels do not determine the true category distribution well enough for a correction.
    """


class ConfusedCategoriesError(IllConditionedError):
    """The calibration data cannot tell that the judge separates two human categories.

    A test of "the judge labels items of human category a and of category b with the same
    distribution" (two equal columns of the confusion matrix, a singular C) did not reject:
    θ is then not identified, whatever the condition number of the noisy estimate Ĉ.
    """


class ProjectedEstimateWarning(ClippedEstimateWarning):
    """The k-category estimate Ĉ⁻¹p̂ fell outside the probability simplex and was projected."""


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


def check_max_condition(value: Any, name: str = "max_condition") -> float:
    """Validate a condition-number threshold: a real number >= 1 (``inf`` disables it)."""
    arr = _numeric_array(name, value).astype(float, copy=False)
    if arr.ndim != 0:
        raise ArgumentTypeError(f"{name} must be a scalar, got shape {arr.shape}")
    v = float(arr)
    if not v >= 1:  # also catches NaN; a condition number is never below 1
        raise JudgeStatsError(f"{name} must be >= 1 (or inf), got {v!r}")
    return v


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


# ------------------------------------------------------------------ compare.py / experiments.py
class ModelKeyError(JudgeStatsError):
    """Per-model arguments do not line up: a model lacks a calibration set, or keys differ."""


def check_model_mapping(name: str, value: Any, cls: type, *, minimum: int = 1) -> dict[str, Any]:
    """Validate a mapping ``model name -> counts object`` and return it as a plain dict.

    Keys must be strings; every value an instance of ``cls`` holding one data set (not a
    batch); at least ``minimum`` entries.
    """
    from collections.abc import Mapping

    if not isinstance(value, Mapping):
        raise ArgumentTypeError(
            f"{name} must be a mapping from model name to {cls.__name__}, "
            f"got {type(value).__name__} ({_show(value)})"
        )
    if len(value) < minimum:
        raise ModelKeyError(f"{name} must hold at least {minimum} models, got {len(value)}")
    out: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise ArgumentTypeError(f"{name} keys must be model names (str), got {key!r}")
        check_instance(f"{name}[{key!r}]", item, cls)
        if getattr(item, "shape", ()):
            raise JudgeStatsError(
                f"{name}[{key!r}] holds a batch of shape {item.shape}; one data set per model "
                "is expected"
            )
        out[key] = item
    return out


def _only_in(a: Any, b: Any) -> list[Any]:
    """Keys of ``a`` that ``b`` lacks, in ``a``'s order."""
    b = list(b)
    return [k for k in a if k not in b]


def check_model_keys(name_a: str, a: Any, name_b: str, b: Any) -> None:
    """Two per-model mappings must name the same models (the message lists the differences)."""
    missing, extra = _only_in(a, b), _only_in(b, a)
    if missing or extra:
        parts = [f"{name_b} has no entry for {missing!r}"] if missing else []
        parts += [f"{name_b} has entries {extra!r} that are not in {name_a}"] if extra else []
        raise ModelKeyError(
            "; ".join(parts) + f": every model in {name_a} needs exactly one {name_b} entry"
        )


# ------------------------------------------------------------------ strata: strata.py
class StrataMismatchError(JudgeStatsError):
    """Two arguments that must cover the same strata do not (tests, calibrations, weights)."""


class SparseStratumError(CountError):
    """A stratum has fewer calibration items of a human class than ``min_per_class``.

    Its sensitivity or specificity would rest on a handful of items (or none). Merge it into
    another stratum (``merge=``) or lower ``min_per_class`` explicitly; it is never dropped.
    """


class WeightsError(ProbabilityError):
    """Stratum weights are not a probability vector over the strata (negative, NaN, sum ≠ 1)."""


def check_strata_mapping(name: str, value: Any, cls: type) -> dict[Any, Any]:
    """Validate a non-empty mapping stratum → ``cls`` instance holding one data set each.

    Accepts a dict or anything with ``items()`` (a pandas Series of counts objects, say) and
    returns a plain dict in the mapping's order.
    """
    if isinstance(value, str | bytes) or not hasattr(value, "items"):
        raise ArgumentTypeError(
            f"{name} must be a mapping stratum -> {cls.__name__}, got {type(value).__name__} "
            f"({_show(value)})"
        )
    out = dict(value.items())
    if not out:
        raise StrataMismatchError(f"{name} is empty: at least one stratum is needed")
    for key, obj in out.items():
        check_instance(f"{name}[{key!r}]", obj, cls)
        if getattr(obj, "shape", ()):
            raise ArgumentTypeError(
                f"{name}[{key!r}] holds a batch of shape {obj.shape}; each stratum takes one "
                "data set"
            )
    return out


def check_same_strata(
    name_a: str,
    a: Iterable[Any],
    name_b: str,
    b: Iterable[Any],
    *,
    why: str = "every stratum needs judged test items and calibration items (merge a stratum "
    "into another with merge={stratum: other})",
) -> None:
    """Two collections of strata must name the same strata (order aside); ``why`` explains."""
    only_a, only_b = _only_in(a, b), _only_in(b, a)
    if only_a or only_b:
        parts = [f"strata {_show(only_a)} are in {name_a} but not in {name_b}"] if only_a else []
        parts += [f"strata {_show(only_b)} are in {name_b} but not in {name_a}"] if only_b else []
        raise StrataMismatchError("; ".join(parts) + ": " + why)


def check_weights(name: str, value: Any, strata: Sequence[Any], *, atol: float = 1e-8) -> dict:
    """Validate stratum weights: a mapping over exactly ``strata`` of reals >= 0 summing to 1.

    Returns a dict stratum → float in the order of ``strata``.
    """
    if isinstance(value, str | bytes) or not hasattr(value, "items"):
        raise ArgumentTypeError(
            f"{name} must be 'test' or a mapping stratum -> weight, got {_show(value)}"
        )
    given = dict(value.items())
    check_same_strata(
        name, given, "the data", strata, why="give every stratum a weight (0 is allowed)"
    )
    out = {}
    for key in strata:
        arr = _numeric_array(f"{name}[{key!r}]", given[key])
        if arr.ndim != 0:
            raise ArgumentTypeError(f"{name}[{key!r}] must be a number, got shape {arr.shape}")
        w = float(arr)
        if not (np.isfinite(w) and w >= 0):
            raise WeightsError(f"{name}[{key!r}] must be a finite number >= 0, got {w!r}")
        out[key] = w
    total = float(sum(out.values()))
    if not abs(total - 1.0) <= atol:
        raise WeightsError(
            f"{name} must sum to 1 (a stratum mix), got sum {total!r} from {_show(out)}; "
            "divide by the sum if they are relative sizes"
        )
    return out


def check_sparse_strata(
    counts: dict[Any, tuple[int, int]],
    min_per_class: int,
    *,
    fix: str = "merge the sparse strata into neighbours (merge={stratum: other} or "
    "merge='auto') or lower min_per_class explicitly",
) -> None:
    """Raise :class:`SparseStratumError` listing every stratum with m0 or m1 < ``min_per_class``.

    ``counts`` maps stratum → (m0, m1), its calibration items with human label 0 and 1;
    ``fix`` is the remedy the message proposes.
    """
    sparse = {k: v for k, v in counts.items() if min(v) < min_per_class}
    if sparse:
        listed = ", ".join(f"{k!r} (m0 = {m0}, m1 = {m1})" for k, (m0, m1) in sparse.items())
        raise SparseStratumError(
            f"{len(sparse)} of {len(counts)} strata have fewer than {min_per_class} calibration "
            f"item(s) of a human class: {listed}. A stratum's sensitivity and specificity need "
            f"items of both classes; {fix}"
        )


__all__ += ["SparseStratumError", "StrataMismatchError", "WeightsError"]


# ------------------------------------------------------------ grouped evaluation: evaluate.py
class ColumnError(LabelError):
    """A frame lacks a named column, a label column has the wrong type, or a key is missing.

    Raised for a column an argument names that the frame does not have, a label column that
    is neither boolean nor numeric, and a group or stratum column with missing values.
    """


class GroupError(JudgeStatsError):
    """One group of an evaluated frame cannot be corrected; the message names the group."""


class EmptyGroupError(GroupError, CountError):
    """A group (or a stratum of one) lacks test rows or calibration rows of a human class."""


class GroupLabelError(GroupError, LabelError):
    """A group's judge, human or split column holds values outside the allowed set."""


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
            "an engine reads a column with no values (or only empty cells) as text: fill it, "
            "or pass it as numbers"
            if kind == "str"
            else "a column of mixed Python objects (True, 1, None, ...) has no single type"
            if kind == "object"
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


def check_missing_keys(missing: dict[str, int]) -> None:
    """Group/strata columns must have a value on every row (``missing``: column → rows)."""
    bad = {c: k for c, k in missing.items() if k}
    if bad:
        listed = ", ".join(f"{c!r} on {k} row(s)" for c, k in bad.items())
        raise ColumnError(
            f"group columns have missing values: {listed}; every row needs a group (fill the "
            "value or drop the rows yourself)"
        )


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


def check_option_names(what: str, options: dict[str, Any], allowed: Sequence[str]) -> None:
    """Options passed through ``**options`` must be ones ``what`` takes (checked up front)."""
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        takes = ", ".join(allowed) if allowed else "no options"
        raise ArgumentTypeError(f"{what} got unexpected option(s) {unknown}; it takes {takes}")


def group_error(exc: JudgeStatsError, group: str) -> JudgeStatsError:
    """Return the same error, of the same class, naming the group it arose in first."""
    return type(exc)(f"in group {group}: {exc}")


__all__ += ["ColumnError", "EmptyGroupError", "GroupError", "GroupLabelError"]
__all__ += ["check_one_key_type", "check_unique_columns"]


# ------------------------------------------------------------------ weak judge / small calibration
class WeakCalibrationWarning(JudgeStatsWarning):
    """The chosen interval method is in its bad regime for this calibration set.

    Issued by :func:`judgestats.correct` by each method's rule
    (:func:`judgestats.intervals.weak_calibration`): for the Rogan–Gladen-based intervals, fewer
    than ``MIN_PER_CLASS`` calibration items of a human class, or for the plug-in ones a rate
    of 0 or 1. The message names the method that does better there.
    """
