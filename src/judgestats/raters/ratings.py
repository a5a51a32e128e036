"""Several raters per item: the :class:`Ratings` container and the raters' :class:`Majority`.

A :class:`Ratings` holds the labels that several raters gave to a set of items, each rater's
labels possibly missing on some items: an (items × raters) integer code matrix (−1 where a
rater did not label an item; code c is ``categories[c]``), the labels of the items, the raters
and the categories (in their declared order; ordinal when ``ordinal=True``), and an optional
**judge**: one more rater, kept apart by name so that every function of :mod:`judgestats.raters`
can include it with the humans or set it against them.

Build one from a frame of any engine that narwhals reads (pandas, polars, pyarrow, DuckDB,
...) in **long form** (one row per rating: ``item, rater, label`` columns;
:meth:`Ratings.from_long`) or **wide form** (one row per item, one column per rater;
:meth:`Ratings.from_wide`), or from an array (:meth:`Ratings.from_matrix`). Refused by name:
an empty frame (:class:`~judgestats.errors.RatingsError`), an (item, rater) pair rated twice
with different labels (:class:`~judgestats.errors.DuplicateRatingError`; identical repeats
count once), an item without any rating (:class:`~judgestats.errors.UnratedItemError`) and a
label outside the declared categories (:class:`~judgestats.errors.UnknownCategoryError`).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    DuplicateRatingError,
    RatingsError,
    UnknownCategoryError,
    UnratedItemError,
    check_bool,
    check_column_names,
    check_frame_columns,
    check_rng,
    is_missing,
    listed,
)

__all__ = ["TIES", "Majority", "Ratings"]

#: The tie rules of :meth:`Ratings.majority` (or the name of a rater: the adjudicator).
TIES = ("none", "random")


def _plain(v: Any) -> Any:
    """Return a label as a plain Python scalar (numpy unwrapped; integral floats as int)."""
    v = v.item() if isinstance(v, np.generic) else v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _is_label(v: Any) -> bool:
    if isinstance(v, str | bool | numbers.Integral):
        return True
    return isinstance(v, numbers.Real) and bool(np.isfinite(float(v)))


def _sorted(values: Sequence[Any]) -> list[Any]:
    try:
        return sorted(values)
    except TypeError:  # mixed types: a deterministic order all the same
        return sorted(values, key=lambda v: (type(v).__name__, repr(v)))


def _categories(labels: list[Any], categories: Any, ordinal: bool) -> tuple[Any, ...]:
    """Return the declared categories (checked), or the sorted distinct labels."""
    if categories is None:
        found = _sorted(list(dict.fromkeys(labels)))
        if ordinal and any(isinstance(v, str) for v in found):
            raise RatingsError(
                f"ordinal=True with text labels {listed([repr(v) for v in found])} needs their "
                "order: pass categories=[...] from lowest to highest"
            )
        return tuple(found)
    if isinstance(categories, str) or not isinstance(categories, Sequence | np.ndarray):
        raise ArgumentTypeError(
            f"categories must be a sequence of labels, got {type(categories).__name__} "
            f"({categories!r})"
        )
    cats = [_plain(c) for c in categories]
    bad = [c for c in cats if not _is_label(c)]
    if bad:
        raise RatingsError(f"categories must be labels (str, int, float, bool), got {bad[0]!r}")
    if len(set(cats)) != len(cats) or len(cats) < 2:
        raise RatingsError(f"categories must hold at least 2 distinct labels, got {cats!r}")
    return tuple(cats)


def _encode(
    items: list[Any], raters: list[Any], labels: list[Any], *, categories: Any, ordinal: bool
) -> tuple[np.ndarray, tuple, tuple, tuple]:
    """(codes, items, raters, categories) of rating triples; missing labels are dropped.

    Items and raters keep their order of first appearance. Checks: a label that is not a
    scalar, one outside the declared categories, an (item, rater) pair with two different
    labels, an item whose every label is missing, no rating at all.
    """
    if not items:
        raise RatingsError("the ratings are empty: the frame has no rows")
    item_ids = {v: i for i, v in enumerate(dict.fromkeys(items))}
    rater_ids = {v: i for i, v in enumerate(dict.fromkeys(raters))}
    keep = [i for i, v in enumerate(labels) if not is_missing(v)]
    for i in keep:
        if not _is_label(labels[i]):
            raise RatingsError(
                f"labels must be scalars (str, int, float, bool), got {labels[i]!r} for item "
                f"{items[i]!r}, rater {raters[i]!r}"
            )
    values = [_plain(labels[i]) for i in keep]
    cats = _categories(values, categories, ordinal)
    code_of = {c: j for j, c in enumerate(cats)}
    unknown = [v for v in values if v not in code_of]
    if unknown:
        raise UnknownCategoryError(
            f"labels {listed(sorted({repr(v) for v in unknown}))} are not among the declared "
            f"categories {list(cats)!r} ({len(unknown)} ratings); add them to categories= or "
            "recode them"
        )
    codes = np.full((len(item_ids), len(rater_ids)), -1, dtype=np.int64)
    for i, v in zip(keep, values, strict=True):
        row, col, c = item_ids[items[i]], rater_ids[raters[i]], code_of[v]
        if codes[row, col] not in (-1, c):
            raise DuplicateRatingError(
                f"item {items[i]!r} is rated twice by rater {raters[i]!r}, with different "
                f"labels {cats[codes[row, col]]!r} and {v!r}; keep one rating per (item, rater)"
            )
        codes[row, col] = c
    unrated = np.flatnonzero((codes < 0).all(axis=1))
    if unrated.size:
        names = list(item_ids)
        raise UnratedItemError(
            f"{unrated.size} item(s) have no rating (every label missing): "
            f"{listed([repr(names[i]) for i in unrated])}; drop them or label them"
        )
    return codes, tuple(item_ids), tuple(rater_ids), cats


def _columns(frame: Any, columns: list[str]) -> dict[str, list[Any]]:
    """Return the named columns of a frame of any engine as Python lists (lazy: collected)."""
    from ..frames import _collect, _narwhals, open_frame

    nw = _narwhals()
    nf = open_frame(nw, frame, tuple(columns))
    check_frame_columns(list(nf.collect_schema().names()), {"columns": tuple(columns)})
    df = _collect(nw, nf.select(columns))
    return {c: df.get_column(c).to_list() for c in columns}


def _frame_names(frame: Any) -> list[str]:
    from ..frames import _narwhals, open_frame

    nw = _narwhals()
    return list(open_frame(nw, frame, ()).collect_schema().names())


# ============================================================================ the majority
@dataclass(frozen=True, slots=True, eq=False)
class Majority:
    """The raters' majority label of every item, and how its ties were settled.

    Attributes
    ----------
    codes : numpy.ndarray
        Category code of each item's majority (−1 where it is unresolved: a tie that the rule
        does not settle, or no rater labelled the item).
    tied : numpy.ndarray
        True where the most frequent label was shared by two or more categories.
    categories : tuple
        The category of each code.
    ties : str
        The tie rule: ``"none"`` (ties stay unresolved), ``"random"`` (a tied category drawn
        at random) or the name of the adjudicating rater.
    raters : tuple
        The raters whose votes were counted.

    Examples
    --------
    Two annotators disagree on the second answer; a third, the adjudicator, settles it:

    >>> from judgestats.raters import Ratings
    >>> r = Ratings.from_matrix([[1, 1, None], [1, 0, 0]], raters=["a1", "a2", "a3"])
    >>> r.majority().labels, r.majority(ties="a3").labels
    ([1, 0], [1, 0])
    >>> two = Ratings.from_matrix([[1, 1], [1, 0]], raters=["a1", "a2"])
    >>> m = two.majority()
    >>> m.labels, m.tied.tolist(), m.resolved.tolist()
    ([1, None], [False, True], [True, False])
    """

    codes: np.ndarray
    tied: np.ndarray
    categories: tuple
    ties: str
    raters: tuple

    @property
    def resolved(self) -> np.ndarray:
        """True where the item has a majority label."""
        return self.codes >= 0

    @property
    def labels(self) -> list[Any]:
        """Each item's majority label (None where unresolved)."""
        return [self.categories[c] if c >= 0 else None for c in self.codes.tolist()]

    def __repr__(self) -> str:
        return (
            f"Majority(items={self.codes.size}, tied={int(self.tied.sum())}, "
            f"unresolved={int((self.codes < 0).sum())}, ties={self.ties!r})"
        )


# ============================================================================ the container
@dataclass(frozen=True, slots=True, eq=False)
class Ratings:
    """The labels several raters gave to a set of items (module docstring).

    Build it with :meth:`from_long`, :meth:`from_wide` or :meth:`from_matrix`.

    Attributes
    ----------
    codes : numpy.ndarray
        (items × raters) category codes of the human raters' labels, −1 where missing
        (read-only; :attr:`matrix` is the same array).
    items, raters, categories : tuple
        The labels of the rows, columns and codes of ``codes``.
    ordinal : bool
        Whether the categories are ordered (lowest first).
    judge : str or None
        The judge's name, kept apart from the raters.
    judge_codes : numpy.ndarray or None
        The judge's category code on each item (−1 where it gave none).

    Examples
    --------
    >>> import pandas as pd
    >>> from judgestats.raters import Ratings
    >>> frame = pd.DataFrame({"a1": [1, 0, 1, 1], "a2": [1, 0, 0, None],
    ...                       "gpt": [1, 0, 1, 0]})
    >>> r = Ratings.from_wide(frame, judge="gpt")
    >>> r
    Ratings(items=4, raters=('a1', 'a2'), categories=(0, 1), ratings=7, judge='gpt')
    >>> r.matrix
    array([[ 1,  1],
           [ 0,  0],
           [ 1,  0],
           [ 1, -1]])
    >>> r.majority().labels
    [1, 0, None, 1]
    """

    codes: np.ndarray
    items: tuple
    raters: tuple
    categories: tuple
    ordinal: bool = False
    judge: str | None = None
    judge_codes: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.codes.setflags(write=False)
        if self.judge_codes is not None:
            self.judge_codes.setflags(write=False)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_long(
        cls, frame: Any, *, item: str = "item", rater: str = "rater", label: str = "label",
        judge: str | None = None, categories: Any = None, ordinal: bool = False,
    ) -> Ratings:  # fmt: skip
        """Ratings from a long frame: one row per (item, rater) rating.

        Parameters
        ----------
        frame : data frame
            pandas, polars (eager or lazy), pyarrow, DuckDB, ... with the columns below.
        item, rater, label : str
            The columns holding the item id, the rater's name and the label. A row whose label
            is missing (null, NaN) is no rating.
        judge : str, optional
            The judge: either the name of one of the raters in ``rater`` (its rows are the
            judge's labels), or a column of the frame holding the judge's label of the row's
            item (one value per item).
        categories : sequence, optional
            The categories in their order (lowest first for ordinal labels); by default the
            sorted distinct labels.
        ordinal : bool
            Whether the categories are ordered (Krippendorff's ordinal metric uses it).

        Returns
        -------
        Ratings
        """
        check_bool("ordinal", ordinal)
        cols = check_column_names("item, rater, label", [item, rater, label])
        extra = judge if judge is not None and judge in _frame_names(frame) else None
        data = _columns(frame, list(dict.fromkeys([*cols, *([extra] if extra else [])])))
        items, raters, labels = list(data[item]), list(data[rater]), list(data[label])
        if extra is not None:
            if extra in set(raters):
                raise RatingsError(
                    f"judge={extra!r} is both a column and a rater's name; rename one of them"
                )
            items += data[item]
            raters += [extra] * len(data[item])
            labels += data[extra]
        return cls._build(items, raters, labels, judge=judge, categories=categories,
                          ordinal=ordinal)  # fmt: skip

    @classmethod
    def from_wide(
        cls, frame: Any, *, raters: Sequence[str] | None = None, item: str | None = None,
        judge: str | None = None, categories: Any = None, ordinal: bool = False,
    ) -> Ratings:  # fmt: skip
        """Ratings from a wide frame: one row per item, one column per rater.

        Parameters
        ----------
        frame : data frame
            pandas, polars (eager or lazy), pyarrow, DuckDB, ...
        raters : sequence of str, optional
            The raters' columns (a missing value: no rating); by default every column but
            ``item`` and ``judge``.
        item : str, optional
            The column of item ids (rows with the same id are one item); by default the row
            number.
        judge : str, optional
            The judge's column.
        categories, ordinal
            As in :meth:`from_long`.

        Returns
        -------
        Ratings
        """
        check_bool("ordinal", ordinal)
        names = _frame_names(frame)
        keys = [c for c in (item, judge) if c is not None]
        if raters is None:
            raters = [c for c in names if c not in keys]
        cols = list(check_column_names("raters", list(raters)))
        if not cols:
            raise RatingsError("raters must name at least one rater column")
        data = _columns(frame, list(dict.fromkeys([*keys, *cols])))
        n = len(data[cols[0]])
        ids = data[item] if item is not None else list(range(n))
        rated = [c for c in cols if c != judge] + ([judge] if judge is not None else [])
        triples = [(i, r, v) for r in rated for i, v in zip(ids, data[r], strict=True)]
        items, who, labels = (list(t) for t in zip(*triples, strict=True)) if n else ([],) * 3
        return cls._build(items, who, labels, judge=judge, categories=categories,
                          ordinal=ordinal)  # fmt: skip

    @classmethod
    def from_matrix(
        cls, labels: Any, *, raters: Sequence[Any] | None = None,
        items: Sequence[Any] | None = None, judge: Any = None, judge_name: str = "judge",
        categories: Any = None, ordinal: bool = False,
    ) -> Ratings:  # fmt: skip
        """Ratings from an (items × raters) array of labels (None or NaN where missing).

        Parameters
        ----------
        labels : array-like
            2-D, one row per item and one column per rater.
        raters, items : sequence, optional
            Their names (default: 0, 1, ...).
        judge : array-like, optional
            The judge's label of each item (None or NaN where missing).
        judge_name : str
            The judge's name.
        categories, ordinal
            As in :meth:`from_long`.

        Returns
        -------
        Ratings
        """
        arr = np.asarray(labels, dtype=object)
        if arr.ndim != 2:
            raise RatingsError(f"labels must be 2-D (items × raters), got shape {arr.shape}")
        n, r = arr.shape
        rater_names = list(range(r)) if raters is None else list(raters)
        ids = list(range(n)) if items is None else list(items)
        if len(rater_names) != r or len(ids) != n:
            raise RatingsError(
                f"labels has shape {arr.shape}, but {len(ids)} item and {len(rater_names)} "
                "rater names were given"
            )
        triples = [(ids[i], rater_names[j], arr[i, j]) for j in range(r) for i in range(n)]
        if judge is not None:
            if judge_name in rater_names:
                raise RatingsError(
                    f"judge_name={judge_name!r} is also a rater's name; give the judge another"
                )
            jv = np.asarray(judge, dtype=object).reshape(-1)
            if jv.size != n:
                raise RatingsError(f"judge has {jv.size} labels for {n} items")
            triples += [(ids[i], judge_name, jv[i]) for i in range(n)]
        it, who, lab = (list(t) for t in zip(*triples, strict=True)) if triples else ([],) * 3
        return cls._build(it, who, lab, judge=judge_name if judge is not None else None,
                          categories=categories, ordinal=ordinal)  # fmt: skip

    @classmethod
    def _build(cls, items, raters, labels, *, judge, categories, ordinal) -> Ratings:
        codes, item_ids, rater_ids, cats = _encode(
            items, raters, labels, categories=categories, ordinal=ordinal
        )
        out = cls(codes, item_ids, rater_ids, cats, bool(ordinal))
        return out if judge is None else out.with_judge(judge)

    # ------------------------------------------------------------------ views
    @property
    def matrix(self) -> np.ndarray:
        """(items × raters) category codes of the human raters, −1 where missing."""
        return self.codes

    @property
    def n_items(self) -> int:
        """Number of items."""
        return int(self.codes.shape[0])

    @property
    def n_raters(self) -> int:
        """Number of raters (the judge not counted)."""
        return int(self.codes.shape[1])

    def all_codes(self, include_judge: bool = False) -> np.ndarray:
        """Return the code matrix, with the judge as its last column when ``include_judge``."""
        if not check_bool("include_judge", include_judge) or self.judge_codes is None:
            return self.codes
        return np.column_stack([self.codes, self.judge_codes])

    def counts(self, include_judge: bool = False) -> np.ndarray:
        """(items × categories) number of ratings of each category on each item.

        Parameters
        ----------
        include_judge : bool
            Count the judge's label as one more rating.
        """
        codes = self.all_codes(include_judge)
        k = len(self.categories)
        return (codes[:, :, None] == np.arange(k)).sum(axis=1)

    def with_judge(self, name: Any) -> Ratings:
        """Return these ratings with rater ``name`` as the judge, or (None) the judge as a rater.

        A judge already set goes back among the raters first; ``with_judge(None)`` treats the
        judge as one more rater (its name last among the raters).
        """
        codes, raters = self.codes, self.raters
        if self.judge is not None and self.judge_codes is not None:
            codes = np.column_stack([codes, self.judge_codes])
            raters = (*raters, self.judge)
        if name is None:
            return Ratings(codes.copy(), self.items, raters, self.categories, self.ordinal)
        if name not in raters:
            raise RatingsError(
                f"judge={name!r} is not one of the raters {listed([repr(r) for r in raters])}"
            )
        j = raters.index(name)
        keep = [i for i in range(len(raters)) if i != j]
        return Ratings(codes[:, keep].copy(), self.items, tuple(raters[i] for i in keep),
                       self.categories, self.ordinal, judge=name,
                       judge_codes=codes[:, j].copy())  # fmt: skip

    def select(self, items: Any) -> Ratings:
        """Return the ratings of some items only (a boolean mask or integer positions).

        Items left without any rating are dropped (they carry no information).
        """
        idx = np.arange(self.n_items)[np.asarray(items)]
        codes = self.codes[idx]
        jc = None if self.judge_codes is None else self.judge_codes[idx]
        rated = (codes >= 0).any(axis=1) | (jc >= 0 if jc is not None else False)
        idx, codes = idx[rated], codes[rated]
        return Ratings(codes.copy(), tuple(self.items[i] for i in idx), self.raters,
                       self.categories, self.ordinal, judge=self.judge,
                       judge_codes=None if jc is None else jc[rated].copy())  # fmt: skip

    def majority(
        self, ties: str = "none", *, rng: Any = None, include_judge: bool = False
    ) -> Majority:
        """Each item's most frequent label among the raters, with a rule for ties.

        Parameters
        ----------
        ties : str
            What a tie between two or more most frequent labels gives: ``"none"`` — the item
            stays unresolved (code −1, ``Majority.resolved`` False), never a made-up label;
            ``"random"`` — one of the tied labels drawn with ``rng``; or the name of a rater,
            the **adjudicator**: its label settles the tie (its vote also counts like any
            other; where it did not label a tied item, the item stays unresolved). E.g. the
            NQ-301 set's third annotator labelled the answers the first two disagreed on.
        rng : None, int or numpy.random.Generator
            Only for ``ties="random"``.
        include_judge : bool
            Count the judge's vote too.

        Returns
        -------
        Majority
        """
        counts = self.counts(include_judge)
        top = counts.max(axis=1, keepdims=True)
        best = (counts == top) & (top > 0)
        tied = best.sum(axis=1) > 1
        codes = np.where(tied | (top[:, 0] == 0), -1, best.argmax(axis=1))
        voters = self.raters + ((self.judge,) if include_judge and self.judge else ())
        if ties == "random":
            gen = check_rng(rng)
            score = np.where(best, gen.random(best.shape), -1.0)
            codes = np.where(tied, score.argmax(axis=1), codes)
        elif ties != "none":
            codes = self._adjudicate(ties, codes, tied)
        return Majority(codes, tied, self.categories, str(ties), voters)

    def _adjudicate(self, name: Any, codes: np.ndarray, tied: np.ndarray) -> np.ndarray:
        all_raters = self.raters + ((self.judge,) if self.judge is not None else ())
        if not isinstance(name, str) or name not in all_raters:
            raise RatingsError(
                f"ties must be one of {list(TIES)!r} or the name of a rater (the adjudicator), "
                f"got {name!r}; raters: {listed([repr(r) for r in all_raters])}"
            )
        said = self.all_codes(True)[:, all_raters.index(name)]
        return np.where(tied & (said >= 0), said, codes)

    def decode(self, codes: Any) -> list[Any]:
        """Return the category labels of codes (None for −1)."""
        return [self.categories[c] if c >= 0 else None for c in np.asarray(codes).tolist()]

    def __repr__(self) -> str:
        judge = "" if self.judge is None else f", judge={self.judge!r}"
        return (
            f"Ratings(items={self.n_items}, raters={self.raters!r}, "
            f"categories={self.categories!r}, ratings={int((self.codes >= 0).sum())}{judge})"
        )
