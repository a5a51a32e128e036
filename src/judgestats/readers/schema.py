"""The one schema every eval-tool reader returns, and the verdict rules they share.

Every reader of :mod:`judgestats.readers` (Inspect AI's included) returns a pandas DataFrame
with one row per (model, task, item, epoch, scorer) verdict and the columns :data:`COLUMNS`:

========  =====================================================================================
column    meaning
========  =====================================================================================
model     the model (or provider) whose answer was judged
task      the task / benchmark / eval the item belongs to
item      the item's id within its task, as text (join human labels on it)
epoch     the repeat of the item (1, 2, ...; 1 when the tool does not repeat items)
scorer    the judge's name: the scorer, metric or assertion that gave the verdict
judge     the verdict: 0/1, or a letter with ``verdicts="letters"``
score     the raw value the tool wrote (a letter, a number, a boolean)
========  =====================================================================================

followed by the tool's own columns, each prefixed by the tool's name (``lm_eval_filter``,
``promptfoo_reason``, ``deepeval_threshold``, ...). An item repeated over epochs (or judged
by several scorers) is one cluster: pass ``cluster="item"`` to :func:`judgestats.evaluate`
(with ``by="model"`` and, across tasks, an item column that joins task and item).
"""

from __future__ import annotations

from typing import Any

from .._validation import VerdictError, binary_value, check_choice

__all__ = ["COLUMNS", "as_verdict", "frame_of", "judge_values", "judged_frame"]

#: The columns every reader returns first, in this order (the tool's own columns follow).
COLUMNS = ("model", "task", "item", "epoch", "scorer", "judge", "score")


def as_verdict(value: Any, mapping: dict, known: dict) -> int | None:
    """Return a verdict as 0/1: the mapping first, then ``known`` (a tool's letters), then 0/1."""
    try:
        if value in mapping:
            return int(mapping[value])
        if isinstance(value, str) and value in known:
            return int(known[value])
    except TypeError:  # an unhashable value (a list, a dict): no verdict
        return None
    return binary_value(value)


def judge_values(
    values: list[Any], *, mapping: dict | None, verdicts: str, known: dict | None = None,
    unit: str = "rows",
) -> list[Any]:  # fmt: skip
    """Turn a tool's raw verdicts into the ``judge`` column, refusing values it cannot place.

    Parameters
    ----------
    values : list
        The raw values, one per row.
    mapping : dict or None
        Value → 0/1 (``verdicts="0/1"``) or value → letter (``verdicts="letters"``).
    verdicts : {"0/1", "letters"}
        ``"0/1"``: booleans, the numbers 0 and 1, ``known`` and ``mapping`` give the verdict;
        ``"letters"``: every value is a letter (renamed by ``mapping`` where it names it).
    known : dict, optional
        A tool's own verdict words that need no mapping (Inspect's ``{"C": 1, "I": 0}``).
    unit : str, default "rows"
        What a row is called in the error message (``"samples"`` for Inspect).

    Returns
    -------
    list
        One verdict per value.

    Raises
    ------
    VerdictError
        With ``verdicts="0/1"``: values that are not verdicts; the message lists each (with
        its number of rows) and the ``mapping=`` to pass. With ``"letters"``: a value that
        is no single letter (a list, a dict, a missing value).

    Examples
    --------
    Inspect's ``C``/``I`` need no mapping; a word the tool does not define must be mapped:

    >>> import judgestats as js
    >>> js.readers.judge_values(["C", "I", "C"], mapping=None, verdicts="0/1",
    ...                         known={"C": 1, "I": 0})
    [1, 0, 1]
    >>> js.readers.judge_values(["yes", "no", "maybe"], mapping={"maybe": 0}, verdicts="0/1",
    ...                         known={"yes": 1, "no": 0})
    [1, 0, 0]
    """
    mapping = dict(mapping or {})
    known = dict(known or {})
    if check_choice("verdicts", verdicts, ("0/1", "letters")) == "letters":
        out = []
        for v in values:
            if v is None or isinstance(v, list | dict) or (isinstance(v, float) and v != v):
                raise VerdictError(f"the verdict {v!r} is not one letter")
            out.append(mapping.get(v, v))
        return out
    judged = [as_verdict(v, mapping, known) for v in values]
    unmapped: dict[str, int] = {}
    read: dict[str, int] = {}
    for v, j in zip(values, judged, strict=True):
        counts = unmapped if j is None else read
        key = repr(v) if j is None or v in mapping else f"{v!r} as {j}"
        counts[key] = counts.get(key, 0) + 1
    if unmapped:
        seen = ", ".join(f"{v} ({k} {unit})" for v, k in unmapped.items())
        words = "/".join([*known, "booleans or 0/1"]) if known else "booleans or 0/1"
        example = ", ".join(f"{v}: 0 or 1" for v in unmapped)
        also = "; ".join(f"{v} ({k} {unit})" for v, k in read.items())
        raise VerdictError(
            f"verdicts {seen} are not {words}; say what each counts as with mapping=, e.g. "
            f"mapping={{{example}}} (or keep them as letters with verdicts='letters')"
            + (f"; read as verdicts: {also} (map them too if they are not)" if also else "")
        )
    return judged


def frame_of(rows: list[dict], extra: tuple[str, ...] = ()) -> Any:
    """Return reader rows as a DataFrame: :data:`COLUMNS`, then the tool's ``extra`` columns.

    ``item`` is text and ``epoch`` an integer, whatever the tool wrote.
    """
    import pandas as pd

    frame = pd.DataFrame(rows, columns=[*COLUMNS, *extra])
    frame["item"] = frame["item"].astype(str)
    frame["epoch"] = frame["epoch"].astype(int)
    return frame


def judged_frame(
    rows: list[dict], *, extra: tuple[str, ...], mapping: dict | None, verdicts: str,
    verdict: str = "score", known: dict | None = None, unit: str = "rows",
) -> Any:  # fmt: skip
    """Return reader rows as the readers' frame, with the ``judge`` column from their verdicts.

    What every reader does last: :func:`judge_values` on each row's raw verdict (the value under
    ``verdict``), refusing values it cannot place, then :func:`frame_of` (:data:`COLUMNS`, then
    the tool's ``extra`` columns; any other key of a row is left out).
    """
    judged = judge_values([r[verdict] for r in rows], mapping=mapping, verdicts=verdicts,
                          known=known, unit=unit)  # fmt: skip
    for row, judge in zip(rows, judged, strict=True):
        row["judge"] = judge
    return frame_of(rows, extra=extra)
