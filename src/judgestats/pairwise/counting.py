"""Pairwise frames → counts per ordered pair of models and verdict (the sufficient statistics).

A pairwise frame has one row per comparison: the two models, the judge's verdict, optionally
the position (which model the judge saw first) and, on the calibration pairs only, the human
verdict. Everything the pairwise model needs is a count per *ordered* pair of models (the
model shown first, the model shown second):

* ``judged[p, j]``: unlabelled pairs (no human verdict) on which the judge said letter ``j``;
* ``labelled[p, j, h]``: calibration pairs with judge letter ``j`` and human verdict ``h``.

The one pass over the rows is the engine's own grouped count of the distinct (model_a,
model_b[, position], judge, human) values (through narwhals, as :func:`judgestats.evaluate`
counts); only that small table reaches Python, where the verdicts are read by the rules below.

Verdict rules
-------------
Verdicts name the model of the ``model_a`` or ``model_b`` column (not the screen position):

* ``"a"`` or ``"model_a"`` → a wins; ``"b"`` or ``"model_b"`` → b wins (any case, spaces
  stripped);
* a tie is any text that starts with ``"tie"``: ``"tie"``, ``"tie (bothbad)"``,
  ``"tie_bothbad"``, … **All human tie kinds are merged into one tie.** Davidson's model has
  one tie outcome; "both good" and "both bad" ties both say the two answers were judged
  equal, and the difference between them is about absolute quality, which a comparison
  model of relative strength does not have.
* A missing human verdict (``None``, NaN) marks a pair without a human label; any other
  value is an error (:class:`~judgestats.errors.VerdictError`).

With ``judge_labels=`` the judge's verdicts are letters of its own alphabet (e.g. ``"A>>B"``,
``"A>B"``, ``"A=B"``, …), taken as written; the human verdicts still follow the rules above.

Position
--------
Without ``position=`` every pair is taken as shown with ``model_a`` first (as in Chatbot
Arena). With it, the column says which model the judge saw first (``"a"``/``"model_a"`` or
``"b"``/``"model_b"``); pairs shown ``b`` first are turned round (models and a/b verdicts
swapped), so that every count is in the order shown and a judge's preference for the first
answer it reads is one and the same term of its confusion matrix for every pair.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

import numpy as np

from .._validation import (
    ArgumentTypeError,
    CalibrationOnlyModelError,
    ColumnError,
    CountError,
    DisconnectedComparisonsError,
    SelfComparisonError,
    VerdictError,
    check_distinct_roles,
    check_frame_columns,
    check_instance,
)

__all__ = [
    "HUMAN_VERDICTS",
    "JUDGE_VERDICTS",
    "PAIR_COLUMNS",
    "PairColumns",
    "PairCounts",
    "check_pairs",
    "count_pairs",
    "pair_columns",
    "verdict_code",
]

#: The human verdicts, in the order of the confusion matrix's columns (first shown wins, tie,
#: second shown wins).
HUMAN_VERDICTS: tuple[str, ...] = ("a", "tie", "b")

#: The judge's verdicts when no ``judge_labels`` are given (rows of the confusion matrix).
JUDGE_VERDICTS: tuple[str, ...] = HUMAN_VERDICTS



class PairColumns(TypedDict, total=False):
    """The columns of a pairwise frame: keywords of every function that reads one.

    :func:`count_pairs`, :func:`judgestats.pairwise.pairwise`,
    :func:`judgestats.bayes.build_pairwise_model` and :func:`judgestats.bayes.fit_pairwise`
    take them as keyword arguments; the defaults are :data:`PAIR_COLUMNS`.

    ``model_a``, ``model_b`` (str): the columns naming the two models compared.
    ``judge`` (str): the judge's verdict (``"a"``/``"model_a"``, ``"b"``/``"model_b"`` or a
    tie, or letters of ``judge_labels``).
    ``human`` (str): the human verdict, missing on pairs without one.
    ``position`` (str or None): which model the judge saw first (``"a"`` or ``"b"``); None:
    ``model_a`` on every pair.
    ``judge_labels`` (sequence of str or None): the judge's own alphabet instead of a/tie/b.
    """

    model_a: str
    model_b: str
    judge: str
    human: str
    position: str | None
    judge_labels: Sequence[str] | None


#: The one home of the column defaults (see :class:`PairColumns`).
PAIR_COLUMNS: PairColumns = {
    "model_a": "model_a",
    "model_b": "model_b",
    "judge": "judge",
    "human": "human",
    "position": None,
    "judge_labels": None,
}


def pair_columns(keywords: Mapping[str, Any], function: str) -> PairColumns:
    """Return the :class:`PairColumns` a function was called with, defaults filled in.

    Raises
    ------
    TypeError
        A keyword that names no column, as Python says it for ``function``.
    """
    unknown = [name for name in keywords if name not in PAIR_COLUMNS]
    if unknown:
        raise TypeError(f"{function}() got an unexpected keyword argument {unknown[0]!r}")
    columns = PAIR_COLUMNS.copy()
    columns.update(keywords)  # type: ignore[typeddict-item]
    return columns


_A_NAMES = frozenset({"a", "model_a"})
_B_NAMES = frozenset({"b", "model_b"})
_SWAP = np.array([2, 1, 0])  # a <-> b, tie stays
_SHOW = 5  # bad values echoed in a message


def verdict_code(value: Any) -> int | None:
    """Read one a/tie/b verdict by the module's rules: 0 (a), 1 (tie), 2 (b), None if unknown.

    Examples
    --------
    >>> [verdict_code(v) for v in ("model_a", "Tie (bothbad)", "B", "draw")]
    [0, 1, 2, None]
    """
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    if text in _A_NAMES:
        return 0
    if text in _B_NAMES:
        return 2
    if text.startswith("tie"):
        return 1
    return None


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return type(value).__name__ in ("NAType", "NaTType")


@dataclass(frozen=True, slots=True, eq=False)
class PairCounts:
    """Counts of a pairwise frame per ordered pair of models (shown first, shown second).

    Attributes
    ----------
    models : tuple of str
        The models, sorted; ``first`` and ``second`` index into it.
    first, second : ndarray of int, shape (P,)
        The ordered pairs that occur (the model shown first, the model shown second).
    judged : ndarray of int, shape (P, J)
        Pairs without a human verdict, by judge letter (rows of ``judge_labels``).
    labelled : ndarray of int, shape (P, J, 3)
        Calibration pairs by judge letter and human verdict (``HUMAN_VERDICTS`` order).
    judge_labels : tuple of str
        The judge's alphabet (``JUDGE_VERDICTS`` unless ``judge_labels=`` was given).
    clusters : ndarray of int, shape (R, 5), or None
        With ``cluster=``: one row per distinct (cluster, ordered pair, judge letter, human
        verdict) -- the cluster's code, the pair's index into ``first``, the letter, the
        verdict (−1 without one) and the number of rows; None when every row is its own unit.
    """

    models: tuple
    first: np.ndarray
    second: np.ndarray
    judged: np.ndarray
    labelled: np.ndarray
    judge_labels: tuple
    clusters: np.ndarray | None = None

    @property
    def n_clusters(self) -> int | None:
        """Number of clusters (sampling units) with ``cluster=``, else None."""
        return None if self.clusters is None else int(np.unique(self.clusters[:, 0]).size)

    @property
    def n_judged(self) -> int:
        """Number of pairs without a human verdict."""
        return int(self.judged.sum())

    @property
    def n_labelled(self) -> int:
        """Number of calibration pairs (with a human verdict)."""
        return int(self.labelled.sum())

    def confusion_table(self) -> np.ndarray:
        """Judge letter × human verdict counts over every calibration pair, shape (J, 3)."""
        return self.labelled.sum(axis=0)


def _judge_reader(judge_labels: Sequence[str] | None):
    """Return (alphabet, function value -> letter index or None)."""
    if judge_labels is None:
        return JUDGE_VERDICTS, verdict_code
    if isinstance(judge_labels, str) or not isinstance(judge_labels, Sequence):
        raise ArgumentTypeError(
            f"judge_labels must be a sequence of the judge's letters, got {judge_labels!r}"
        )
    letters = tuple(judge_labels)
    if len(set(letters)) != len(letters) or len(letters) < 2:
        raise VerdictError(f"judge_labels must hold at least two distinct letters, got {letters!r}")
    index = {v: i for i, v in enumerate(letters)}
    return letters, index.get


def _grouped_columns(frame: Any, roles: dict[str, str]) -> list[list]:
    """Return the engine's grouped count of the distinct values of ``roles``' columns.

    ``roles`` maps each argument (``"model_a"``, ``"judge"``, ...) to its column, in the order
    read; a column the frame lacks is named with its argument. The last list holds the rows of
    each distinct combination.
    """
    columns = tuple(roles.values())
    from ..frames import _collect, _engine_warnings, _narwhals, open_frame

    nw = _narwhals()
    with _engine_warnings():
        nf = open_frame(nw, frame, columns[:2])
        check_frame_columns(list(nf.columns), {arg: (c,) for arg, c in roles.items()})
        grouped = nf.group_by(*columns, drop_null_keys=False).agg(nw.len().alias("__rows__"))
        table = _collect(nw, grouped)
        return [table.get_column(c).to_list() for c in (*columns, "__rows__")]


def _decode(values: list, read) -> list:
    """``read`` applied to each value, computed once per distinct value (a dict lookup each)."""
    table = {v: read(v) for v in dict.fromkeys(values)}
    return [table[v] for v in values]


def _bad(values: list, what: str, allowed: str) -> VerdictError:
    shown = ", ".join(repr(v) for v in values[:_SHOW])
    more = f" (and {len(values) - _SHOW} more)" if len(values) > _SHOW else ""
    return VerdictError(f"{what} must be {allowed}; got {shown}{more}")


_BAD = -9  # a value outside its alphabet


def _codes(values: list, read) -> np.ndarray:
    """Integer codes of ``values`` by ``read`` (missing −1, unreadable ``_BAD``)."""

    def code(v: Any) -> int:
        if _is_missing(v):
            return -1
        c = read(v)
        return _BAD if c is None else int(c)

    return np.array(_decode(values, code), dtype=np.int64).reshape(len(values))


def _cluster_codes(values: list) -> np.ndarray:
    """Integer codes of the cluster ids (order of first appearance; missing −1)."""
    place = {v: i for i, v in enumerate(v for v in dict.fromkeys(values) if not _is_missing(v))}
    return np.array(_decode(values, lambda v: place.get(v, -1)), dtype=np.int64).reshape(-1)


def _read_columns(columns: list[list], has_position: bool, judge_letter, has_cluster=False):
    """Decode the grouped count (vectorised over its distinct rows), in the order shown.

    Returns (models, first, second, judge index, human index or −1, rows, cluster code or
    None) for the readable rows, and the bad values by kind (``self``, ``judge``, ``human``,
    ``position``, ``cluster``).
    """
    a_vals, b_vals = columns[0], columns[1]
    pos_vals = columns[2] if has_position else ["a"] * len(a_vals)
    j_vals, h_vals, rows = columns[-3], columns[-2], np.asarray(columns[-1], dtype=np.int64)
    names = {v: str(v) for v in dict.fromkeys(a_vals + b_vals) if not _is_missing(v)}
    models = tuple(sorted(set(names.values())))
    place = {name: i for i, name in enumerate(models)}
    index = {v: place[name] for v, name in names.items()}
    a = np.array(_decode(a_vals, lambda v: index.get(v, -1)), dtype=np.int64).reshape(-1)
    b = np.array(_decode(b_vals, lambda v: index.get(v, -1)), dtype=np.int64).reshape(-1)
    self_ = (a == b) | (a < 0) | (b < 0)
    j, h = _codes(j_vals, judge_letter), _codes(h_vals, verdict_code)
    pos = _codes(pos_vals, lambda v: verdict_code(v) if isinstance(v, str) else None)
    ok = ~self_
    bad_j, bad_h, bad_p = ok & (j < 0), ok & (h == _BAD), ok & ~np.isin(pos, (0, 2))
    bad = {
        "self": [(a_vals[i], b_vals[i]) for i in np.flatnonzero(self_)],
        "judge": [j_vals[i] for i in np.flatnonzero(bad_j)],
        "human": [h_vals[i] for i in np.flatnonzero(bad_h)],
        "position": [pos_vals[i] for i in np.flatnonzero(bad_p)],
    }
    cl = _cluster_codes(columns[-4]) if has_cluster else np.zeros(a.size, dtype=np.int64)
    bad["cluster"] = [columns[-4][i] for i in np.flatnonzero(ok & (cl < 0))]
    keep = ok & ~bad_j & ~bad_h & ~bad_p & (cl >= 0)
    a, b, j, h, pos, rows = a[keep], b[keep], j[keep], h[keep], pos[keep], rows[keep]
    turn = pos == 2  # shown b first: turn the pair round
    first, second = np.where(turn, b, a), np.where(turn, a, b)
    h = np.where(turn & (h >= 0), _SWAP[np.clip(h, 0, 2)], h)
    j = np.where(turn, _SWAP[np.clip(j, 0, 2)], j)  # position= needs the a/tie/b alphabet
    return (models, first, second, j, h, rows, cl[keep] if has_cluster else None), bad


def _raise_bad(bad: dict, names: dict) -> None:
    if bad["self"]:
        a, b = bad["self"][0]
        raise SelfComparisonError(
            f"{names['model_a']} and {names['model_b']} must name two different models on "
            f"every pair; got {len(bad['self'])} distinct pair(s) such as ({a!r}, {b!r})"
        )
    if bad["judge"]:
        raise _bad(bad["judge"], f"judge verdicts ({names['judge']!r})", names["judge_allowed"])
    if bad["human"]:
        raise _bad(
            bad["human"],
            f"human verdicts ({names['human']!r})",
            "'a'/'model_a', 'b'/'model_b', a text starting with 'tie', or missing",
        )
    if bad["position"]:
        raise _bad(
            bad["position"],
            f"positions ({names['position']!r})",
            "'a'/'model_a' or 'b'/'model_b' (the model shown first)",
        )
    if bad["cluster"]:
        raise ColumnError(
            f"cluster ids ({names['cluster']!r}) must not be missing; {len(bad['cluster'])} "
            "distinct row group(s) have none (give every row its cluster, e.g. its prompt)"
        )


def count_pairs(
    frame: Any, *, cluster: str | None = None, **columns: Unpack[PairColumns]
) -> PairCounts:
    """Count a pairwise frame per ordered pair of models, on the frame's own engine.

    The counting half of :func:`judgestats.pairwise.pairwise`; see it (and this module's
    docstring for how verdicts and positions are read) for the arguments: the frame's columns
    (:class:`PairColumns`: ``model_a``, ``model_b``, ``judge``, ``human``, ``position``,
    ``judge_labels``) and ``cluster``. With ``cluster=`` the cluster column joins the
    engine's grouped count and the counts carry ``clusters``.

    Returns
    -------
    PairCounts

    Raises
    ------
    ColumnError
        A named column is missing.
    SelfComparisonError
        A pair has ``model_a == model_b`` (or a missing model name).
    VerdictError
        A verdict or position outside its alphabet (the values are echoed).
    """
    names: dict[str, Any] = {**pair_columns(columns, "count_pairs"), "cluster": cluster}
    for name in ("model_a", "model_b", "judge", "human"):
        check_instance(name, names[name], str)
    position, judge_labels = names["position"], names["judge_labels"]
    read = {"model_a": names["model_a"], "model_b": names["model_b"]}
    if position is not None:
        check_instance("position", position, str)
        read["position"] = position
    if cluster is not None:
        check_instance("cluster", cluster, str)
        read["cluster"] = cluster
    read.update(judge=names["judge"], human=names["human"])
    check_distinct_roles({arg: (c,) for arg, c in read.items()})
    letters, judge_letter = _judge_reader(judge_labels)
    if position is not None and judge_labels is not None:
        raise VerdictError(
            "position= with judge_labels= needs to know which letter each letter becomes when "
            "the pair is turned round; not supported yet (give a/tie/b judge verdicts)"
        )
    names["judge_allowed"] = (
        "'a'/'model_a', 'b'/'model_b' or a text starting with 'tie'"
        if judge_labels is None
        else f"one of judge_labels {letters!r}"
    )
    decoded, bad = _read_columns(
        _grouped_columns(frame, read), position is not None, judge_letter, cluster is not None
    )
    _raise_bad(bad, names)
    return _assemble(decoded, letters)


def _assemble(decoded: tuple, letters: tuple) -> PairCounts:
    """Turn decoded columns into the count arrays (ordered pairs sorted)."""
    models, first, second, j, h, rows, cl = decoded
    k = len(models)
    pair, where = np.unique(first * k + second, return_inverse=True)
    judged = np.zeros((pair.size, len(letters)), dtype=np.int64)
    labelled = np.zeros((pair.size, len(letters), len(HUMAN_VERDICTS)), dtype=np.int64)
    u = h < 0
    np.add.at(judged, (where[u], j[u]), rows[u])
    np.add.at(labelled, (where[~u], j[~u], h[~u]), rows[~u])
    units = None if cl is None else np.column_stack([cl, where, j, h, rows]).astype(np.int64)
    return PairCounts(
        models, (pair // max(k, 1)).astype(np.int64), (pair % max(k, 1)).astype(np.int64),
        judged, labelled, letters, units,
    )  # fmt: skip


def _components(n: int, first: np.ndarray, second: np.ndarray) -> list[list[int]]:
    """Return the connected parts of the graph on ``n`` nodes with edges (first, second)."""
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in zip(first.tolist(), second.tolist(), strict=True):
        parent[root(a)] = root(b)
    parts: dict[int, list[int]] = {}
    for i in range(n):
        parts.setdefault(root(i), []).append(i)
    return sorted(parts.values(), key=lambda part: (-len(part), part))


def check_pairs(
    counts: PairCounts, *, strengths_from_labels: bool, confusion_known: bool = False
) -> None:
    """Raise a named error unless the pairs determine every strength and the judge's confusion.

    Every model must occur in a pair without a human verdict
    (:class:`~judgestats.errors.CalibrationOnlyModelError`); the graph of the pairs that inform
    the strengths (every pair, or with ``strengths_from_labels=False`` the unlabelled pairs only)
    must be connected (:class:`~judgestats.errors.DisconnectedComparisonsError`); every human
    verdict (a, tie, b) must occur among the calibration pairs
    (:class:`~judgestats.errors.CountError`), else its column of the confusion matrix is not
    estimable (not checked when ``confusion_known``).
    """
    models = counts.models
    judged_pair = counts.judged.sum(axis=1) > 0
    seen = np.zeros(len(models), dtype=bool)
    seen[counts.first[judged_pair]] = True
    seen[counts.second[judged_pair]] = True
    if not seen.all():
        missing = [models[i] for i in np.flatnonzero(~seen)]
        raise CalibrationOnlyModelError(
            f"model(s) {missing[:_SHOW]!r} occur only in human-labelled pairs; every model "
            "must have pairs the judge alone scored (drop it, or add its judged pairs)"
        )
    use = np.ones_like(judged_pair) if strengths_from_labels else judged_pair
    parts = _components(len(models), counts.first[use], counts.second[use])
    if len(parts) > 1:
        shown = "; ".join(
            "{"
            + ", ".join(repr(models[i]) for i in part[:_SHOW])
            + (", ...}" if len(part) > _SHOW else "}")
            for part in parts[:_SHOW]
        )
        raise DisconnectedComparisonsError(
            f"the comparison graph has {len(parts)} separate parts ({shown}): no pair links "
            "them, so their strengths cannot be put on one scale; fit each part on its own "
            "or add pairs across them"
        )
    present = counts.confusion_table().sum(axis=0)
    if not confusion_known and (present == 0).any():
        absent = [HUMAN_VERDICTS[h] for h in np.flatnonzero(present == 0)]
        raise CountError(
            f"no calibration pair has the human verdict(s) {absent!r}: that column of the "
            "judge's confusion matrix cannot be estimated (label more pairs)"
        )
