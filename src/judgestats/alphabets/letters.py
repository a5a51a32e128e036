"""Build a judge alphabet from data: scores, binned scores, invalid verdicts, several judges.

Real judges rarely answer in the humans' categories. This module turns the judge's raw
outputs into letters without throwing any away, and counts them:

* :func:`judge_letters` — one letter per item: a score kept as it is (``1``–``5``), binned
  with explicit ``bins`` edges (``"[1, 3)"``), an ``invalid`` letter for unparseable replies
  and refusals (never dropped: dropping them biases the estimate whenever they depend on the
  true label), or the pair ``"a|b"`` of two judges' letters (a product alphabet).
* :func:`alphabet_counts` — the test counts per letter (:class:`CategoryCounts`) and the
  calibration letter-by-human matrix (:class:`ConfusionMatrix` with ``judge_labels``) from
  one table, rows with a human label being calibration items; a
  :class:`SparseLettersWarning` names letters with few calibration items and how to merge
  them (:meth:`ConfusionMatrix.merge`).

The estimate and its intervals are :func:`judgestats.multiclass.correct_distribution`; what
each letter buys is :func:`judgestats.plan.compare_alphabets`.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    ColumnError,
    LabelError,
    SparseLettersWarning,
    check_bins,
    check_category_values,
    check_columns,
    check_invalid,
    check_positive_int,
    check_same_length,
)
from ..counts.categories import CategoryCounts, ConfusionMatrix

__all__ = [
    "INVALID",
    "SparseLettersWarning",
    "alphabet_counts",
    "judge_letters",
]

#: The letter given to invalid verdicts (``judge_letters(invalid=...)``).
INVALID = "invalid"


def _missing(v: Any) -> bool:
    return (
        v is None
        or type(v).__name__ in ("NAType", "NaTType")
        or (isinstance(v, float) and math.isnan(v))
    )


def _as_values(name: str, values: Any) -> list[Any]:
    """Return raw judge outputs as a list of Python objects (missing values kept)."""
    if isinstance(values, str | bytes) or not hasattr(values, "__len__"):
        raise ArgumentTypeError(f"{name} must be a 1-D sequence of judge outputs, got {values!r}")
    arr = np.asarray(values, dtype=object)
    if arr.ndim != 1 or arr.size == 0:
        raise ArgumentTypeError(f"{name} must be a non-empty 1-D sequence, got shape {arr.shape}")
    return [v.item() if isinstance(v, np.generic) else v for v in arr.tolist()]


def _bin_label(lo: float, hi: float, last: bool) -> str:
    return f"[{lo:g}, {hi:g}]" if last else f"[{lo:g}, {hi:g})"


#: Bin codes of :func:`bin_letter` besides 0 … len(edges) − 2: outside the bins, invalid.
OUTSIDE, INVALID_CODE = -1, -2


def keeps_missing(invalid: list[Any] | None) -> bool:
    """Tell whether ``invalid=`` lists a missing value, so missing outputs become 'invalid'."""
    return invalid is not None and any(_missing(v) for v in invalid)


def _missing_letter(keep: bool, name: str, where: str) -> str:
    """Return the letter of a missing output: 'invalid' if ``invalid=`` lists it, else refuse."""
    if keep:
        return INVALID
    raise LabelError(
        f"{name} has a missing value {where}: pass invalid=[None, ...] to keep missing "
        "verdicts as the letter 'invalid' (dropping them biases the estimate when they "
        "depend on the true label)"
    )


def bin_letter(code: Any, edges: np.ndarray, invalid_missing: bool, name: str, where: str) -> Any:
    """Return the letter of a bin code computed on an engine (None or NaN: a missing value)."""
    if _missing(code):
        return _missing_letter(invalid_missing, name, where)
    if code == INVALID_CODE:
        return INVALID
    if code == OUTSIDE:
        raise LabelError(
            f"{name} has values {where} outside the bins [{edges[0]:g}, {edges[-1]:g}]"
        )
    j = int(code)
    return _bin_label(edges[j], edges[j + 1], j == edges.size - 2)


def _letters_of(
    name: str, values: list[Any], bins: Any, invalid: Any, where: Any = None
) -> list[Any]:
    """Letters of one judge's outputs; ``where(i)`` says where item i is (default: its index)."""
    at = where or (lambda i: f"at index {i}")
    invalid = check_invalid(invalid)
    bad = set() if invalid is None else {v for v in _as_values("invalid", invalid)
                                         if not _missing(v)}  # fmt: skip
    invalid_missing = keeps_missing(invalid)
    edges = None if bins is None else check_bins(bins)
    out: list[Any] = []
    for i, v in enumerate(values):
        if _missing(v):
            out.append(_missing_letter(invalid_missing, name, at(i)))
            continue
        if not isinstance(v, list | dict | tuple) and v in bad:
            out.append(INVALID)
            continue
        if edges is None:
            out.append(v)
            continue
        if not isinstance(v, numbers.Real) or isinstance(v, bool):
            raise LabelError(
                f"{name} value {v!r} {at(i)} is not a number to bin; list it in invalid= "
                "to keep it as the letter 'invalid'"
            )
        x = float(v)
        if not edges[0] <= x <= edges[-1]:
            raise LabelError(
                f"{name} value {v!r} {at(i)} lies outside the bins [{edges[0]:g}, "
                f"{edges[-1]:g}]"
            )
        j = min(int(np.searchsorted(edges, x, side="right")) - 1, edges.size - 2)
        out.append(_bin_label(edges[j], edges[j + 1], j == edges.size - 2))
    check_category_values(name, out)  # scalars only (no nested containers)
    return out


def judge_letters(
    *judges: Any, bins: Any = None, invalid: Sequence[Any] | None = None, sep: str = "|"
) -> list[Any]:
    """Map raw judge outputs to letters, one per item; nothing is dropped.

    Parameters
    ----------
    *judges : 1-D array_like
        One judge's outputs per item (scores, verdicts, booleans); with two or more judges
        (equal lengths) the letter is the tuple of their letters joined by ``sep``, e.g.
        ``"1|0"``: a product alphabet that keeps what each judge says.
    bins : sequence of float, optional
        Increasing edges for numeric scores: a score x becomes the label of its bin
        ``"[lo, hi)"`` (the last bin closed, ``"[lo, hi]"``). Applied to every judge.
    invalid : sequence, optional
        Outputs that are not verdicts (``None``/NaN, ``"refused"``, ``-1``, ...): each
        becomes the letter ``"invalid"`` (:data:`INVALID`). Without it a missing value is a
        :class:`LabelError`.
    sep : str, default "|"
        Separator of the letters of several judges.

    Returns
    -------
    list
        The letters, in item order (strings for bins, invalid and several judges; otherwise
        the values themselves).

    Examples
    --------
    >>> import judgestats as js
    >>> js.judge_letters([5, 3, None, 1], invalid=[None])
    [5, 3, 'invalid', 1]
    >>> js.judge_letters([1, 0, 1], ["win", "tie", "lose"])
    ['1|win', '0|tie', '1|lose']
    >>> js.judge_letters([1.5, 4.0, 9.9], bins=[0, 5, 10])
    ['[0, 5)', '[0, 5)', '[5, 10]']
    """
    if not judges:
        raise ArgumentTypeError("judge_letters needs at least one column of judge outputs")
    names = ["judge"] if len(judges) == 1 else [f"judge {i + 1}" for i in range(len(judges))]
    columns = [_as_values(nm, j) for nm, j in zip(names, judges, strict=True)]
    for nm, col in zip(names[1:], columns[1:], strict=True):
        check_same_length(names[0], columns[0], nm, col)
    letters = [_letters_of(nm, col, bins, invalid) for nm, col in zip(names, columns, strict=True)]
    if len(letters) == 1:
        return letters[0]
    if not isinstance(sep, str) or not sep:
        raise ArgumentTypeError(f"sep must be a non-empty string, got {sep!r}")
    return [sep.join(str(v) for v in row) for row in zip(*letters, strict=True)]


def _letter_order(v: Any) -> tuple:
    """Sort key of a letter: numbers (and text that reads as one, "10") by value, then text."""
    try:
        x = float(v) if isinstance(v, int | float) else float(str(v))
    except ValueError:
        x = math.nan
    if math.isnan(x):  # text, and "nan", which has no place among numbers
        return (1, 0.0, str(v))
    return (0, x, "" if isinstance(v, int | float) else str(v))


def _sorted_alphabet(letters: list[Any]) -> tuple[Any, ...]:
    seen = list(dict.fromkeys(letters))
    rest = sorted((v for v in seen if v != INVALID), key=_letter_order)
    return tuple(rest + ([INVALID] if INVALID in seen else []))


def alphabet_counts(
    frame: Any,
    *,
    judge: str | Sequence[str],
    human: str = "human",
    labels: Any = None,
    bins: Any = None,
    invalid: Sequence[Any] | None = None,
    min_count: int = 10,
) -> tuple[CategoryCounts, ConfusionMatrix]:
    """Count a table's judge letters: test counts and the calibration letter × human matrix.

    Rows with a human label are calibration items, rows without one (null) test items, as in
    :func:`judgestats.evaluate`. The letters are :func:`judge_letters` of the ``judge``
    column(s); the alphabet is every letter seen on any row (sorted; ``"invalid"`` last).

    Parameters
    ----------
    frame : pandas.DataFrame or mapping of columns
        One row per judged item.
    judge : str or list of str
        The judge column, or several (a product alphabet ``"a|b"``).
    human : str, default "human"
        The human label column (any categories; null on test rows).
    labels : sequence, optional
        The human categories, in the order wanted (default: observed, sorted).
    bins, invalid
        As :func:`judge_letters`.
    min_count : int, default 10
        A letter on fewer calibration items triggers :class:`SparseLettersWarning` (with a
        merge suggestion); a letter on test items but no calibration item is refused by
        :func:`judgestats.multiclass.correct_distribution`.

    Returns
    -------
    (CategoryCounts, ConfusionMatrix)
        ``test`` over the alphabet, ``calibration`` with ``judge_labels`` = the alphabet.

    Examples
    --------
    >>> import judgestats as js
    >>> rows = {"score": [5, 4, 1, 2, 3, 5, 1, 3, 4],
    ...         "human": [1, 1, 0, 0, 0, None, None, None, None]}
    >>> test, cal = js.alphabet_counts(rows, judge="score", min_count=1)
    >>> test.labels, test.counts.tolist(), cal.counts.tolist()
    ((1, 2, 3, 4, 5), [1, 0, 1, 1, 1], [[1, 0], [1, 0], [1, 0], [0, 1], [0, 1]])
    """
    cols = [judge] if isinstance(judge, str) else list(judge)
    if not cols or not all(isinstance(c, str) for c in cols):
        raise ArgumentTypeError(f"judge must be a column name or a list of them, got {judge!r}")
    roles = {**{f"judge {i + 1}": c for i, c in enumerate(cols)}, "human": human}
    if isinstance(frame, Mapping):  # a dict of columns
        missing = [f"{role} column {c!r}" for role, c in roles.items() if c not in frame]
        if missing:
            raise ColumnError(f"frame has no {', '.join(missing)}; it has {list(frame)!r}")
    else:
        check_columns(frame, roles)
    min_count = check_positive_int("min_count", min_count, minimum=1)
    letters = judge_letters(*(frame[c] for c in cols), bins=bins, invalid=invalid)
    human_values = _as_values(f"human column {human!r}", frame[human])
    check_same_length("judge letters", letters, f"human column {human!r}", human_values)
    is_cal = [not _missing(v) for v in human_values]
    if not any(is_cal):
        raise LabelError(f"human column {human!r} has no label: there is no calibration item")
    alphabet = _sorted_alphabet(letters)
    test_letters = [a for a, c in zip(letters, is_cal, strict=True) if not c]
    if not test_letters:
        raise LabelError(f"every row has a human label in {human!r}: there is no test item")
    test = CategoryCounts.from_labels(test_letters, labels=alphabet)
    cal = ConfusionMatrix.from_labels(
        human=[h for h, c in zip(human_values, is_cal, strict=True) if c],
        judge=[a for a, c in zip(letters, is_cal, strict=True) if c],
        labels=labels, judge_labels=alphabet,
    )  # fmt: skip
    warn_sparse_letters(cal, min_count, stacklevel=3)
    return test, cal


def warn_sparse_letters(calibration: ConfusionMatrix, min_count: int, stacklevel: int = 2) -> None:
    """Warn (:class:`SparseLettersWarning`) about letters on fewer than ``min_count`` items.

    ``stacklevel`` as :func:`warnings.warn` counts it from here (2: this function's caller).
    """
    sparse = [(a, int(n)) for a, n in zip(calibration.judge_labels, calibration.judge_counts,
                                          strict=True) if n < min_count]  # fmt: skip
    if sparse:
        shown = ", ".join(f"{a!r} ({n})" for a, n in sparse)
        warnings.warn(
            f"judge letters with fewer than {min_count} calibration items: {shown}; merge them "
            "(cal.merge({...}), test.merge({...})) or label more; help(js.SparseLettersWarning)",
            SparseLettersWarning,
            stacklevel=stacklevel,
        )
