"""Comparing a golden entry's new output with the recorded one.

The rules (issue: "floats compare to 1e-12; errors compare by class; text compares line by
line"): floats with ``math.isclose(rel_tol=1e-12, abs_tol=1e-12)``, NaN equal to NaN and an
infinity to the same infinity (an int and a float compare as numbers); bools, None and
strings exactly, a string of several lines line by line (the message names the first line that
differs); every recorded dict key must be present with an equal value (a new key is new
information, not a change); lists of equal length, element by element; the error class names
equal; the warning class names equal. Each difference names its path in the value, e.g.
``value.rows[3].ci_low``.
"""

from __future__ import annotations

import math
from typing import Any

REL_TOL = ABS_TOL = 1e-12


def _number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _floats_equal(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)


def _text(path: str, old: str, new: str) -> list[str]:
    a, b = old.split("\n"), new.split("\n")
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return [f"{path}: line {i + 1} differs\n  recorded: {x!r}\n  now:      {y!r}"]
    if len(a) != len(b):
        longer, which = (a, "recorded") if len(a) > len(b) else (b, "now")
        extra = longer[min(len(a), len(b))]
        return [f"{path}: {len(a)} lines recorded, {len(b)} now; first extra line ({which}), "
                f"line {min(len(a), len(b)) + 1}: {extra!r}"]  # fmt: skip
    return []


def differences(old: Any, new: Any, path: str = "value") -> list[str]:
    """Every difference between a recorded value and a new one, each naming its path."""
    if _number(old) and _number(new):
        if isinstance(old, int) and isinstance(new, int):
            return [] if old == new else [f"{path}: recorded {old!r}, now {new!r}"]
        if _floats_equal(float(old), float(new)):
            return []
        return [f"{path}: recorded {old!r}, now {new!r} (difference {float(new) - float(old):.3g})"]
    if type(old) is not type(new):
        return [f"{path}: recorded {type(old).__name__} {_short(old)}, now "
                f"{type(new).__name__} {_short(new)}"]  # fmt: skip
    if isinstance(old, str):
        if old == new:
            return []
        if "\n" in old or "\n" in new:
            return _text(path, old, new)
        return [f"{path}: recorded {old!r}, now {new!r}"]
    if isinstance(old, dict):
        out = []
        for key, value in old.items():
            where = f"{path}.{key}" if key.isidentifier() else f"{path}[{key!r}]"
            if key not in new:
                out.append(f"{where}: recorded key missing now")
            else:
                out += differences(value, new[key], where)
        return out
    if isinstance(old, list):
        if len(old) != len(new):
            return [f"{path}: recorded {len(old)} elements, now {len(new)}"]
        out = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            out += differences(a, b, f"{path}[{i}]")
        return out
    return [] if old == new else [f"{path}: recorded {old!r}, now {new!r}"]


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def entry_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Differences of a whole entry: its error class, its warnings and its value."""
    out = []
    if old["error"] != new["error"]:
        out.append(f"error: recorded {old['error']!r}, now {new['error']!r}")
    if old["warnings"] != new["warnings"]:
        out.append(f"warnings: recorded {old['warnings']}, now {new['warnings']}")
    if old["error"] is None and new["error"] is None:
        out += differences(old["value"], new["value"])
    return out
