"""Checks of scalar arguments.

Probabilities, confidence levels, sizes, choices, method names, RNGs, types, and renamed or
deprecated keywords.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .errors import (
    ArgumentTypeError,
    ConfidenceLevelError,
    CountError,
    JudgeStatsError,
    MethodError,
    NotInformativeError,
    PriorError,
    ProbabilityError,
)

__all__ = [
    "broadcast",
    "check_bool",
    "check_budget",
    "check_choice",
    "check_concentration",
    "check_concentration_shape",
    "check_confidence_level",
    "check_informative",
    "check_instance",
    "check_max_condition",
    "check_method",
    "check_open_unit",
    "check_option_names",
    "check_positive_int",
    "check_probability",
    "check_rng",
    "listed",
    "pop_renamed",
    "take_renamed",
    "warn_deprecated",
]


# --------------------------------------------------------------------------- helpers
def listed(examples: Sequence[str], *, total: int | None = None, limit: int = 5,
           sep: str = ", ") -> str:  # fmt: skip
    """Return at most ``limit`` examples for an error message, with the count when cut.

    ``total`` is how many there are in all (default: ``len(examples)``), for a caller that
    kept only the first ones: ``"a, b, c, d, e, ... (12 in all)"``.
    """
    shown = list(examples)[:limit]
    total = len(examples) if total is None else total
    return sep.join(shown) + (f"{sep}... ({total} in all)" if total > len(shown) else "")


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


def check_max_condition(value: Any, name: str = "max_condition") -> float:
    """Validate a condition-number threshold: a real number >= 1 (``inf`` disables it)."""
    arr = _numeric_array(name, value).astype(float, copy=False)
    if arr.ndim != 0:
        raise ArgumentTypeError(f"{name} must be a scalar, got shape {arr.shape}")
    v = float(arr)
    if not v >= 1:  # also catches NaN; a condition number is never below 1
        raise JudgeStatsError(f"{name} must be >= 1 (or inf), got {v!r}")
    return v


def check_option_names(what: str, options: dict[str, Any], allowed: Sequence[str]) -> None:
    """Options passed through ``**options`` must be ones ``what`` takes (checked up front)."""
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        takes = ", ".join(allowed) if allowed else "no options"
        raise ArgumentTypeError(f"{what} got unexpected option(s) {unknown}; it takes {takes}")
