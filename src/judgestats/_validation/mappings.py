"""Checks of mappings keyed by model or by stratum.

The same keys on both sides, weights that form a mix, strata with enough calibration items.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .arguments import _numeric_array, _show, check_instance
from .errors import (
    ArgumentTypeError,
    JudgeStatsError,
    ModelKeyError,
    SparseStratumError,
    StrataMismatchError,
    WeightsError,
)

__all__ = [
    "check_model_keys",
    "check_model_mapping",
    "check_same_strata",
    "check_sparse_strata",
    "check_strata_mapping",
    "check_weights",
]


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
