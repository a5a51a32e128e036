"""Binary counts: judged test counts and the calibration confusion counts.

Notation (the paper's): the test set has ``n`` items judged only by the LLM, ``positive`` of
them judged correct, so p̂ = positive / n. The calibration set has items labelled by a human
(z) and by the judge (ẑ): ``tp`` = #(z=1, ẑ=1), ``fn`` = #(z=1, ẑ=0), ``tn`` = #(z=0, ẑ=0),
``fp`` = #(z=0, ẑ=1); m1 = tp + fn, m0 = tn + fp, sensitivity q̂1 = tp/m1, specificity
q̂0 = tn/m0.

Counts are validated on construction. Each field may be a scalar or an integer array (a batch
of data sets, broadcast together), which is how the simulation and bootstrap code evaluate
thousands of data sets at once; :func:`judgestats.correct` takes one data set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    CountError,
    LabelError,
    check_choice,
    check_cluster_ids,
    check_columns,
    check_count,
    check_count_le,
    check_labels,
    check_same_length,
    listed,
)
from .clusters import ClusterTotals, check_totals

__all__ = [
    "ConfusionCounts",
    "JudgedCounts",
]

#: How :meth:`ConfusionCounts.from_ratings` turns several ratings of an item into rows.
RATING_RULES = ("each", "majority")
#: The fields of each counts class's per-item totals (:class:`~.clusters.ClusterTotals`).
JUDGED_FIELDS = ("positive", "n")
CONFUSION_FIELDS = ("tp", "fn", "tn", "fp")


def _broadcast_shape(**fields: Any) -> tuple[int, ...]:
    try:
        return np.broadcast_shapes(*(np.shape(v) for v in fields.values()))
    except ValueError as exc:
        shapes = ", ".join(f"{k}{np.shape(v)}" for k, v in fields.items())
        raise CountError(f"count arrays must broadcast together, got shapes {shapes}") from exc


def _rate(num: Any, den: Any) -> Any:
    out = np.true_divide(num, den)
    return float(out) if np.ndim(out) == 0 else out


def _fields_equal(a: Any, b: Any, names: tuple[str, ...]) -> bool:
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in names)


@dataclass(frozen=True, slots=True, eq=False)
class JudgedCounts:
    """Judge labels on the test set: ``positive`` of ``n`` items judged correct.

    Parameters
    ----------
    positive : int or array of int
        Number of test items the judge labelled 1 (correct).
    n : int or array of int
        Number of test items (>= 1).
    clusters : ClusterTotals, optional
        Each item's counts when items repeat (rows = verdicts, several per item); made by
        :meth:`from_labels` with ``cluster=``. ``positive`` and ``n`` then count rows.

    Examples
    --------
    >>> import judgestats as js
    >>> js.JudgedCounts(positive=600, n=1000).p_hat
    0.6
    """

    positive: Any
    n: Any
    clusters: ClusterTotals | None = None

    def __repr__(self) -> str:
        more = "" if self.clusters is None else f", clusters={self.clusters.size} items"
        return f"JudgedCounts(positive={self.positive!r}, n={self.n!r}{more})"

    def __post_init__(self) -> None:
        positive = check_count("positive", self.positive)
        n = check_count("n", self.n, minimum=1)
        shape = _broadcast_shape(positive=positive, n=n)
        check_count_le("positive", positive, "n", n)
        object.__setattr__(self, "positive", positive)
        object.__setattr__(self, "n", n)
        sums = {"positive": positive, "n": n}
        check_totals("JudgedCounts", self.clusters, JUDGED_FIELDS, sums, shape)

    @classmethod
    def from_labels(cls, labels: Any, *, cluster: Any = None) -> JudgedCounts:
        """Count judge labels (0/1 or bool; anything else raises :class:`LabelError`).

        ``cluster``: the item id of each row, when items repeat (epochs, several answers to one
        prompt, turns of one conversation). Rows with one id are one item: the counts keep
        each item's totals and the corrections account for the repeats (design effect).
        Rows are paired by position: two pandas Series whose indexes differ (as sets or in
        order) raise :class:`LabelError`; align them first (``.loc``, ``reset_index``).
        """
        _check_aligned(labels=labels, cluster=cluster)
        z = check_labels("judge labels", labels)
        clusters = None
        if cluster is not None:
            clusters = ClusterTotals.from_rows("cluster", cluster, {"positive": z, "n": z | ~z})
        return cls(positive=int(z.sum()), n=int(z.size), clusters=clusters)

    @property
    def clustered(self) -> bool:
        """True when the counts carry per-item totals (rows may repeat an item)."""
        return self.clusters is not None

    @classmethod
    def from_frame(
        cls, frame: Any, *, judge: str = "judge", cluster: str | None = None
    ) -> JudgedCounts:
        """Count the judge column of a data frame (pandas or anything with ``columns``).

        ``cluster``: the column of each row's item id, when items repeat (as ``cluster=`` of
        :meth:`from_labels`).
        """
        check_columns(frame, {"judge": judge, **({} if cluster is None else {"cluster": cluster})})
        z = check_labels(f"judge column {judge!r}", frame[judge])
        clusters = None if cluster is None else ClusterTotals.from_rows(
            f"cluster column {cluster!r}", frame[cluster], {"positive": z, "n": z | ~z})
        return cls(positive=int(z.sum()), n=int(z.size), clusters=clusters)

    @property
    def p_hat(self) -> Any:
        """Naive judged rate p̂ = positive / n (paper eq. (3))."""
        return _rate(self.positive, self.n)

    @property
    def shape(self) -> tuple[int, ...]:
        """Batch shape (``()`` for a single data set)."""
        return _broadcast_shape(positive=self.positive, n=self.n)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JudgedCounts):
            return NotImplemented
        return _fields_equal(self, other, ("positive", "n")) and self.clusters == other.clusters

    def __hash__(self) -> int:
        if self.shape:
            raise TypeError("batched JudgedCounts are not hashable")
        return hash((JudgedCounts, self.positive, self.n))


@dataclass(frozen=True, slots=True, eq=False)
class ConfusionCounts:
    """Human-vs-judge counts on the calibration set.

    Parameters
    ----------
    tp, fn, tn, fp : int or array of int
        Items with (human, judge) = (1, 1), (1, 0), (0, 0), (0, 1); at least one item. A
        calibration set with one human class is valid (the random and by-judge-label designs
        use it), but its sensitivity or specificity cannot be estimated: those properties, and
        every by-human-label correction, raise :class:`CountError` (:meth:`check_both_classes`).
    clusters : ClusterTotals, optional
        Each item's counts when items repeat; made by :meth:`from_labels` with ``cluster=``.

    Examples
    --------
    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
    >>> cal.sensitivity, cal.specificity
    (0.9, 0.7)
    """

    tp: Any
    fn: Any
    tn: Any
    fp: Any
    clusters: ClusterTotals | None = None

    def __repr__(self) -> str:
        more = "" if self.clusters is None else f", clusters={self.clusters.size} items"
        cells = ", ".join(f"{k}={getattr(self, k)!r}" for k in CONFUSION_FIELDS)
        return f"ConfusionCounts({cells}{more})"

    def __post_init__(self) -> None:
        vals = {k: check_count(k, getattr(self, k)) for k in CONFUSION_FIELDS}
        shape = _broadcast_shape(**vals)
        for k, v in vals.items():
            object.__setattr__(self, k, v)
        check_totals("ConfusionCounts", self.clusters, CONFUSION_FIELDS, vals, shape)
        empty = np.asarray(self.m) == 0
        if empty.any():
            raise CountError(
                "the calibration set is empty (tp + fn + tn + fp = 0"
                + (f" at index {int(np.argwhere(empty)[0][0])}" if empty.ndim else "")
                + ")"
            )

    def check_both_classes(self) -> None:
        """Raise :class:`CountError` unless both human classes have calibration items.

        Sensitivity and specificity, and so the Rogan–Gladen estimate of the by-human-label
        design, need both; the random and by-judge-label designs do not.
        """
        for cls_name, total, parts in (("1", self.m1, "tp + fn"), ("0", self.m0, "tn + fp")):
            empty = np.asarray(total) == 0
            if empty.any():
                raise CountError(
                    f"the calibration set has no human label {cls_name} items ({parts} = 0"
                    + (f" at index {int(np.argwhere(empty)[0][0])}" if empty.ndim else "")
                    + "): both classes are needed to estimate sensitivity and specificity "
                    "(design='by-human-label'); design='random' or 'by-judge-label' need not"
                )

    @classmethod
    def from_labels(cls, *, human: Any, judge: Any, cluster: Any = None) -> ConfusionCounts:
        """Cross-tabulate paired human and judge labels (0/1 or bool).

        ``cluster``: the item id of each row, when items repeat (epochs, several raters of one
        item, turns of one conversation); the human label may differ within an item. The counts
        then keep each item's totals and the corrections account for the repeats.

        Rows are paired by position, never by a pandas index: ``human``, ``judge`` and
        ``cluster`` given as pandas Series whose indexes differ (as sets or in order) raise
        :class:`LabelError`; align them first (``judge.loc[human.index]``, or
        ``reset_index(drop=True)`` on each when position is meant). Equal indexes, arrays and
        lists pair as they are.
        """
        _check_aligned(human=human, judge=judge, cluster=cluster)
        h = check_labels("human labels", human)
        j = check_labels("judge labels", judge)
        check_same_length("human labels", h, "judge labels", j)
        cells = {"tp": h & j, "fn": h & ~j, "tn": ~h & ~j, "fp": ~h & j}
        clusters = None
        if cluster is not None:
            clusters = ClusterTotals.from_rows("cluster", cluster, cells)
        return cls(**{k: int(np.count_nonzero(v)) for k, v in cells.items()}, clusters=clusters)

    @property
    def clustered(self) -> bool:
        """True when the counts carry per-item totals (rows may repeat an item)."""
        return self.clusters is not None

    @classmethod
    def from_ratings(
        cls, *, human: Any, judge: Any, item: Any, rule: str = "each"
    ) -> ConfusionCounts:
        """Calibration counts from several human ratings of each item (one row per rating).

        ``rule="each"``: every rating is a row of its item's cluster, exactly
        ``from_labels(human=, judge=, cluster=item)``; corrected with ``estimand="items"`` the
        rate is the mean over items of the share of raters who say 1, with ``"rows"`` the mean
        over ratings. ``rule="majority"``: one row per item, labelled by the majority of its
        ratings, so the rate is the share of items whose raters' majority says 1; the judge's
        verdict must be the item's (the same on its rows), and an item whose ratings tie (as
        many 1s as 0s) has no majority and is left out of the calibration set.
        """
        check_choice("rule", rule, RATING_RULES)
        _check_aligned(human=human, judge=judge, item=item)
        if rule == "each":
            return cls.from_labels(human=human, judge=judge, cluster=item)
        h = check_labels("human labels", human)
        j = check_labels("judge labels", judge)
        check_same_length("human labels", h, "judge labels", j)
        ids, code = check_cluster_ids("item", item, h.size)
        ones = np.bincount(code, h, minlength=ids.size)
        ratings = np.bincount(code, minlength=ids.size)
        said = np.bincount(code, j, minlength=ids.size)
        mixed = (said > 0) & (said < ratings)
        if mixed.any():
            raise LabelError(
                f"rule='majority' needs the judge's verdict of an item on each of its rows, but "
                f"item {ids[int(np.argmax(mixed))]!r} has both; use rule='each'"
            )
        keep = 2 * ones != ratings  # a tie has no majority
        label, verdict = (2 * ones > ratings)[keep], (said > 0)[keep]
        return cls.from_labels(human=label, judge=verdict)

    @classmethod
    def from_frame(
        cls, frame: Any, *, human: str = "human", judge: str = "judge", cluster: str | None = None
    ) -> ConfusionCounts:
        """Cross-tabulate the human and judge columns of a data frame.

        ``cluster``: the column of each row's item id, when items repeat (as ``cluster=`` of
        :meth:`from_labels`).
        """
        extra = {} if cluster is None else {"cluster": cluster}
        check_columns(frame, {"human": human, "judge": judge, **extra})
        ids = None if cluster is None else _cluster_column(frame, cluster)
        return cls.from_labels(
            human=_column(frame, human, "human"), judge=_column(frame, judge, "judge"),
            cluster=ids,
        )

    @property
    def m0(self) -> Any:
        """Calibration items with human label 0 (tn + fp)."""
        return self.tn + self.fp

    @property
    def m1(self) -> Any:
        """Calibration items with human label 1 (tp + fn)."""
        return self.tp + self.fn

    @property
    def m(self) -> Any:
        """Calibration set size m0 + m1."""
        return self.m0 + self.m1

    @property
    def sensitivity(self) -> Any:
        """q̂1 = tp / m1: P(judge = 1 | human = 1) (needs both human classes)."""
        self.check_both_classes()
        return _rate(self.tp, self.m1)

    @property
    def specificity(self) -> Any:
        """q̂0 = tn / m0: P(judge = 0 | human = 0) (needs both human classes)."""
        self.check_both_classes()
        return _rate(self.tn, self.m0)

    @property
    def has_both_classes(self) -> bool:
        """True when every data set has items of both human classes."""
        return bool(np.all((np.asarray(self.m0) > 0) & (np.asarray(self.m1) > 0)))

    @property
    def human_positive_rate(self) -> Any:
        """m1 / m: the calibration set's true (human) positive rate, E_Q[Z]."""
        return _rate(self.m1, self.m)

    @property
    def judge_positive_rate(self) -> Any:
        """(tp + fp) / m: the calibration set's judged positive rate, E_Q[Ẑ]."""
        return _rate(self.tp + self.fp, self.m)

    @property
    def shape(self) -> tuple[int, ...]:
        """Batch shape (``()`` for a single calibration set)."""
        return _broadcast_shape(tp=self.tp, fn=self.fn, tn=self.tn, fp=self.fp)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfusionCounts):
            return NotImplemented
        return _fields_equal(self, other, CONFUSION_FIELDS) and self.clusters == other.clusters

    def __hash__(self) -> int:
        if self.shape:
            raise TypeError("batched ConfusionCounts are not hashable")
        return hash((ConfusionCounts, self.tp, self.fn, self.tn, self.fp))


def _column(frame: Any, column: str, role: str) -> Any:
    return check_labels(f"{role} column {column!r}", frame[column])


def _cluster_column(frame: Any, column: str) -> np.ndarray:
    """Return the item id of each row of a frame's ``column``, checked (errors name it)."""
    ids, code = check_cluster_ids(f"cluster column {column!r}", frame[column], len(frame[column]))
    return ids[code]


def _check_aligned(**named: Any) -> None:
    """Refuse pandas Series whose indexes differ: their rows would be paired by position.

    ``named``: argument name → value; values that are not indexed (arrays, lists, None) are
    paired by position as they are.
    """
    indexed = {k: v.index for k, v in named.items() if _index(v) is not None}
    if len(indexed) < 2:
        return
    (first, index), *others = indexed.items()
    for name, other in others:
        if not index.equals(other):
            shown = {k: "[" + listed([repr(x) for x in i[:5].tolist()], total=len(i)) + "]"
                     for k, i in ((first, index), (name, other))}  # fmt: skip
            raise LabelError(
                f"{first} and {name} are pandas Series with different indexes ({first}: "
                f"{shown[first]}; {name}: {shown[name]}): their rows would be paired by "
                f"position, not by index; align them first ({name}.loc[{first}.index], or "
                ".reset_index(drop=True) on both when position is meant)"
            )


def _index(value: Any) -> Any:
    """Return a pandas Series' index (an attribute, not a list's ``index`` method), else None."""
    index = getattr(value, "index", None)
    return None if index is None or callable(index) or not hasattr(index, "equals") else index
