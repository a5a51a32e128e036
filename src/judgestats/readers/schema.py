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
judge     the verdict: 0/1, or a letter with ``verdicts="letters"``; ``"invalid"`` where none
score     the raw value the tool wrote (a letter, a number, a boolean)
========  =====================================================================================

followed by the tool's own columns, each prefixed by the tool's name (``lm_eval_filter``,
``promptfoo_reason``, ``deepeval_threshold``, ...), the run's id or time among them. An item
repeated over epochs (or judged by several scorers) is one cluster: pass ``cluster="item"`` to
:func:`judgestats.evaluate` (with ``by="model"`` and, across tasks, an item column that joins
task and item).

A row without a verdict (the provider failed, the metric errored, the test had no model-graded
assertion) is never a fail: its ``judge`` is the letter ``"invalid"``
(:data:`~judgestats.alphabets.INVALID`) and the reader warns
:class:`~judgestats.errors.InvalidVerdictWarning`, counting such rows by reason.
"""

from __future__ import annotations

import warnings
from typing import Any

from .._validation import (
    InvalidVerdictWarning,
    ToolOutputError,
    VerdictError,
    binary_value,
    check_choice,
    listed,
)
from ..alphabets.letters import INVALID

__all__ = ["COLUMNS", "RUNS", "as_verdict", "frame_of", "judge_values", "judged_frame"]

#: The columns every reader returns first, in this order (the tool's own columns follow).
COLUMNS = ("model", "task", "item", "epoch", "scorer", "judge", "score")

#: What a reader does with two runs of one model that judged the same items (``runs=``).
RUNS = ("refuse", "apart")

#: The key of one verdict: two rows sharing it would be read as one item's repeats.
_KEY = ("model", "task", "item", "epoch", "scorer")


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
        The raw values, one per row; :data:`~judgestats.alphabets.INVALID` where the tool
        gave none (a reader's missing or errored verdict), which stays the letter
        ``"invalid"`` unless ``mapping`` names it.
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
        With ``verdicts="0/1"``: values that are not verdicts; the message lists at most five
        (each with its number of rows), how many there are, and the ``mapping=`` to pass.
        With a ``mapping`` and values that are a scale (some value is no 0/1: a 1-5 rating),
        a value the mapping does not name (a rating of 1, that would be read as a pass); the
        message lists them (at most five, and how many there are).
        With ``"letters"``: a value that is no single letter (a list, a dict, a missing value).

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
    letters = check_choice("verdicts", verdicts, ("0/1", "letters")) == "letters"
    out: list[Any] = []
    unmapped: dict[str, int] = {}
    as_0_1: dict[str, int] = {}  # values read as 0/1 that neither mapping nor known names
    scale = False  # a value that is no 0/1 (a rating, a word): the values are a scale
    for v in values:
        if isinstance(v, str) and v == INVALID:
            out.append(_invalid_as(mapping))
        elif letters:
            if v is None or isinstance(v, list | dict) or (isinstance(v, float) and v != v):
                raise VerdictError(f"the verdict {v!r} is not one letter")
            out.append(mapping.get(v, v))
        else:
            judged = as_verdict(v, mapping, known)
            named = _names(mapping, v) or (isinstance(v, str) and v in known)
            scale = scale or binary_value(v) is None
            if judged is None:
                unmapped[repr(v)] = unmapped.get(repr(v), 0) + 1
            elif not named:
                as_0_1[repr(v)] = as_0_1.get(repr(v), 0) + 1
            out.append(judged)
    if unmapped:
        raise VerdictError(_unmapped_message(unmapped, as_0_1, known, unit))
    if mapping and scale and as_0_1:
        raise VerdictError(_unmapped_scale_message(as_0_1, unit))
    return out


def _names(mapping: dict, value: Any) -> bool:
    """Return whether ``mapping`` names ``value`` (an unhashable value: no)."""
    try:
        return value in mapping
    except TypeError:
        return False


def _unmapped_scale_message(as_0_1: dict[str, int], unit: str) -> str:
    """Say which values of a mapped scale the mapping leaves out (at most five, and the count)."""
    seen = listed([f"{v} ({k} {unit})" for v, k in as_0_1.items()])
    example = ", ".join(f"{v}: 0 or 1" for v in list(as_0_1)[:5])
    return (
        f"verdicts {seen} are not mapped: the verdicts are a scale (not only 0/1), so every "
        f"value needs its verdict (a rating of 1 is no pass); say what each counts as with "
        f"mapping=, e.g. mapping={{{example}}}"
    )


def _invalid_as(mapping: dict) -> Any:
    """Return what a row without a verdict becomes: the letter, or what ``mapping`` names."""
    return mapping.get(INVALID, mapping.get(None, INVALID))


def _unmapped_message(unmapped: dict, as_0_1: dict, known: dict, unit: str) -> str:
    """Say which values are no verdicts (at most five, and the count) and the mapping to pass.

    Such values make the verdicts a scale, so its values read as 0/1 (``as_0_1``: a rating of
    1) need a verdict too: the example names them, and the message says so.
    """
    seen = listed([f"{v} ({k} {unit})" for v, k in unmapped.items()])
    words = "/".join([*known, "booleans or 0/1"]) if known else "booleans or 0/1"
    example = ", ".join(f"{v}: 0 or 1" for v in [*unmapped, *as_0_1][:8])
    also = listed([f"{v} ({k} {unit})" for v, k in as_0_1.items()])
    return (
        f"verdicts {seen} are not {words}; say what each counts as with mapping=, e.g. "
        f"mapping={{{example}}} (or keep them as letters with verdicts='letters')"
        + (f"; the verdicts are a scale, so {also} need(s) a verdict too" if also else "")
    )


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
    runs: str = "refuse", verdict: str = "score", known: dict | None = None, unit: str = "rows",
) -> Any:  # fmt: skip
    """Return reader rows as the readers' frame, with the ``judge`` column from their verdicts.

    What every reader does last. A row whose ``_invalid`` key gives a reason (the tool wrote
    no verdict) becomes the letter ``"invalid"``, counted by reason in one
    :class:`~judgestats.errors.InvalidVerdictWarning`; :func:`judge_values` places the other
    rows' raw verdicts (the value under ``verdict``), refusing values it cannot place; then
    :func:`frame_of` (:data:`COLUMNS`, then the tool's ``extra`` columns; any other key of a
    row is left out). Last, two rows with one key (model, task, item, epoch, scorer) are
    refused: from two runs of one model (its ``_run`` key) unless ``runs="apart"``, which makes
    each run its own model (``"model-a (run 2026-01-05T10-00-00)"``).

    Parameters
    ----------
    rows : list of dict
        One per verdict: the :data:`COLUMNS` but ``judge``, the ``extra`` columns, and the
        private keys ``_run`` (the run's id or time) and ``_invalid`` (why there is no verdict).
    extra : tuple of str
        The tool's own columns, in order.
    mapping, verdicts, known, unit
        As :func:`judge_values` (every reader's ``mapping=`` and ``verdicts=``).
    verdict : str, default "score"
        The key of each row's raw verdict.
    runs : {"refuse", "apart"}, default "refuse"
        Every reader's ``runs=``: two runs of one model that judged the same items (a rerun,
        a second results file) are refused, naming the model and the runs (``"refuse"``), or
        kept as two models (``"apart"``); never merged into one item's repeats.
    """
    runs = check_choice("runs", runs, RUNS)
    for row in rows:
        value = row[verdict]
        if not row.get("_invalid") and (value is None or (isinstance(value, float)
                                                          and value != value)):  # fmt: skip
            row["_invalid"] = "no verdict"
    _warn_invalid(rows, unit, _invalid_as(dict(mapping or {})))
    raw = [INVALID if r.get("_invalid") else r[verdict] for r in rows]
    judged = judge_values(raw, mapping=mapping, verdicts=verdicts, known=known, unit=unit)
    for row, judge in zip(rows, judged, strict=True):
        row["judge"] = judge
    if runs == "apart":
        _runs_apart(rows)
    _check_keys(rows)
    return frame_of(rows, extra=extra)


def _where(row: dict) -> str:
    return f"{row['model']}/{row['item']}" + (f" epoch {row['epoch']}" if row["epoch"] != 1
                                              else "")  # fmt: skip


def _warn_invalid(rows: list[dict], unit: str, value: Any) -> None:
    """Warn once, counting the rows without a verdict by reason (at most five of each).

    ``value`` is what they become: the letter ``"invalid"``, or what ``mapping=`` names.
    """
    reasons: dict[str, list[str]] = {}
    for row in rows:
        if row.get("_invalid"):
            reasons.setdefault(str(row["_invalid"]), []).append(_where(row))
    if not reasons:
        return
    count = sum(len(w) for w in reasons.values())
    said = listed([f"{reason} ({len(where)} {unit}: {listed(where, limit=3)})"
                   for reason, where in reasons.items()], sep="; ")  # fmt: skip
    if value == INVALID:
        facts = f"{count} of {len(rows)} {unit} have no verdict ({said}): the letter 'invalid'"
        advice = ("never a fail; count it as a letter of the judge's alphabet "
                  "(js.evaluate(frame, invalid=['invalid']); judgestats report does), or rerun "
                  f"those {unit}")
    else:
        facts = f"{count} of {len(rows)} {unit} have no verdict ({said}): {value!r}"
        advice = "as mapping= says"
    warning = InvalidVerdictWarning(f"{facts}, {advice}")
    warning.facts = facts  # type: ignore[attr-defined]  # what a report shows
    warnings.warn(warning, stacklevel=4)


def _runs_apart(rows: list[dict]) -> None:
    """Name each run of a model that has several as its own model (``"m (run r)"``)."""
    seen: dict[Any, set] = {}
    for row in rows:
        seen.setdefault(row["model"], set()).add(row.get("_run"))
    for row in rows:
        if len(seen[row["model"]]) > 1:
            row["model"] = f"{row['model']} (run {row.get('_run')})"


def _check_keys(rows: list[dict]) -> None:
    """Refuse two verdicts with one key: a rerun of a model, or an item written twice."""
    first: dict[tuple, dict] = {}
    reruns: dict[tuple, set] = {}
    twice: list[str] = []
    for row in rows:
        key = tuple(str(row[k]) for k in _KEY)
        other = first.setdefault(key, row)
        if other is row:
            continue
        if other.get("_run") != row.get("_run"):
            reruns.setdefault((row["model"], row["task"]), set()).update(
                {str(other.get("_run")), str(row.get("_run"))})
        else:
            twice.append(_where(row))
    if reruns:
        said = listed([f"model {m!r} task {t!r}: runs {', '.join(sorted(r))}"
                       for (m, t), r in reruns.items()], sep="; ")  # fmt: skip
        raise ToolOutputError(
            f"the output holds several runs of one model that judged the same items ({said}): "
            "their verdicts would be read as repeats of one item. Read one run's files, or keep "
            "each run as its own model with runs='apart'"
        )
    if twice:
        raise ToolOutputError(
            f"the output holds {len(twice)} verdicts twice (model/item: {listed(twice)}) "
            "within one run: give each item a distinct id"
        )
