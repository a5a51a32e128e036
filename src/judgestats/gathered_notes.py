"""Gather the notes that many groups of a report or summary share into one line each.

A report (or an :class:`~judgestats.evaluate.Evaluation`'s summary) of 20 models whose
calibration sets are all small used to state the same weak-calibration note 20 times, once
per model with its own counts. :func:`gather_notes` writes such a note once, naming the
groups it concerns and spanning the numbers that differ between them::

    models model-00, model-01, model-02, model-03, … (12): weak calibration: only 8–22
    positive and 13–26 negative human-labelled items (fewer than 100 per class)

Two notes are "the same" when they read alike once their numbers are set aside (their
template); each number of the gathered line is the range of the groups' values at that place
(one value when they agree), and an interval ``a–b`` that differs is given per group, named.
A number that names something ("human class 1", "judge label
0") is a word of the template, not spanned. A note shared by fewer than :data:`GATHER_AT`
groups keeps its own line per group, numbers and all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["GATHER_AT", "SHOWN_NAMES", "gather_notes", "named_groups"]

#: A note shared by at least this many groups is written once, naming them.
GATHER_AT = 3

#: How many groups a gathered note names before "…" when it concerns more than
#: ``SHOWN_NAMES + 2`` (fewer are all named); the count follows in parentheses.
SHOWN_NAMES = 4

# A number of a note: an integer, decimal or scientific literal standing on its own (not
# part of a word such as "profile-map", a quoted name or an identifier such as "model2"), and
# not a name: "human class 1", "judge label 0", "rank 1" name a class, a letter, a rank, so
# notes that differ there are different notes (class 0's and class 1's are not one range).
_NAMED = ("class", "label", "letter", "rank", "stratum", "round")
_NUM = r"(?<![\w.'\"])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w'\"]|\.\d)"
# An interval "0.28–0.60" is one value: its ends are not spanned apart (a range of lower ends
# beside a range of upper ends reads as one interval that no group has).
_VALUE = re.compile(
    "".join(f"(?<!{word} )" for word in _NAMED) + f"(?:(?P<pair>{_NUM}–{_NUM})|(?P<one>{_NUM}))"
)


def _template(text: str) -> tuple[str, tuple[str, ...], list[str]]:
    """Split a note into its words (each value replaced by ``{}``), the values' kinds and values.

    A value is a number (kind ``"one"``) or an interval written ``a–b`` (kind ``"pair"``).
    """
    found = list(_VALUE.finditer(text))
    kinds = tuple(m.lastgroup or "one" for m in found)
    words = _VALUE.sub("{}", text.replace("{", "{{").replace("}", "}}"))
    return words, kinds, [m.group(0) for m in found]


def _span(values: list[str]) -> str:
    """Return the range of one number over the groups: ``8–22``, ``-3.1 to -2.1``, or ``100``."""
    floats = [float(v) for v in values]
    low = values[floats.index(min(floats))]
    high = values[floats.index(max(floats))]
    if low == high:
        return low
    return f"{low} to {high}" if min(floats) < 0 else f"{low}–{high}"


def _each(values: list[str], labels: list[str]) -> str:
    """Return one interval over the groups: the interval, or each group's, named."""
    if len(set(values)) == 1:
        return values[0]
    return ", ".join(f"{v} ({label})" for v, label in zip(values, labels, strict=True))


def named_groups(labels: Sequence[str], noun: str) -> str:
    """Name the groups of one line: ``"models a, b, c, d, … (12)"`` (all of them up to six).

    Examples
    --------
    >>> from judgestats.gathered_notes import named_groups
    >>> named_groups(["a", "b", "c"], "models"), named_groups(list("abcdefg"), "groups")
    ('models a, b, c (3)', 'groups a, b, c, d, … (7)')
    """
    cut = len(labels) > SHOWN_NAMES + 2  # never hide only one or two names behind "…"
    shown = labels[:SHOWN_NAMES] if cut else labels
    more = ", …" if cut else ""
    return f"{noun} {', '.join(shown)}{more} ({len(labels)})"


def gather_notes(notes: Sequence[tuple[str, str]], *, noun: str = "groups") -> list[str]:
    """Write the notes of a report's groups, one line per note several groups share.

    Parameters
    ----------
    notes : sequence of (label, text)
        Each group's notes in report order: the group's label as it prints (the caller's
        :func:`~judgestats.results.shown_label`, shortened or not) and the note without it.
    noun : str, default "groups"
        What the groups are, in the plural ("models"), to name the groups of a gathered note.

    Returns
    -------
    list of str
        In the order of each note's first appearance: ``"label: text"`` for a note fewer than
        :data:`GATHER_AT` groups share, else one line ``"noun a, b, c, d, … (n): text"``
        whose numbers span the groups' values.

    Examples
    --------
    >>> from judgestats.gathered_notes import gather_notes
    >>> notes = [(m, f"weak calibration: only {k} positive human-labelled items")
    ...          for m, k in (("a", 12), ("b", 40), ("c", 9))] + [("d", "judge near chance")]
    >>> for line in gather_notes(notes, noun="models"):
    ...     print(line)
    models a, b, c (3): weak calibration: only 9–40 positive human-labelled items
    d: judge near chance
    """
    split = [(label, *_template(text)) for label, text in notes]
    members: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for i, (_, words, kinds, _values) in enumerate(split):
        members.setdefault((words, kinds), []).append(i)
    gathered: dict[tuple[str, tuple[str, ...]], str] = {}  # a shared note's key -> its line
    for key, rows in members.items():
        labels = list(dict.fromkeys(split[i][0] for i in rows))
        if len(labels) >= GATHER_AT:
            spans = [
                (_span if kind == "one" else _each)(
                    [split[i][3][j] for i in rows], *([] if kind == "one" else
                                                      [[split[i][0] for i in rows]]))
                for j, kind in enumerate(key[1])
            ]  # fmt: skip
            gathered[key] = f"{named_groups(labels, noun)}: {key[0].format(*spans)}"
    out: list[str] = []
    for i, (label, words, kinds, _values) in enumerate(split):
        if (words, kinds) not in gathered:
            out.append(f"{label}: {notes[i][1]}")
        elif members[(words, kinds)][0] == i:  # the shared note's line, where it first appears
            out.append(gathered[(words, kinds)])
    return out
