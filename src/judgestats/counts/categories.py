"""k-category and judge-alphabet counts: :class:`CategoryCounts` and :class:`ConfusionMatrix`.

Paper appendix "Extension to Evaluations with More Than Two Categories". A
:class:`CategoryCounts` holds the judge's labels on the test set counted per category (or per
judge letter); a :class:`ConfusionMatrix` the calibration counts, rows = judge label (J letters),
columns = human label (K categories), J >= K. Both validate on construction and carry their
labels; :func:`merged_alphabet` and :func:`as_confusion_matrix` are the shared helpers of the
estimators and the Bayesian models.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    CountError,
    check_category_counts,
    check_category_labels,
    check_category_values,
    check_cluster_ids,
    check_columns,
    check_confusion_counts,
    check_count,
    check_in_categories,
    check_same_length,
)
from .binary import _check_aligned
from .clusters import ClusterTotals, check_totals

if TYPE_CHECKING:  # pragma: no cover
    pass

__all__ = [
    "CategoryCounts",
    "ConfusionMatrix",
    "as_confusion_matrix",
    "category_fields",
    "confusion_fields",
]


# ----------------------------------------------------------------------------- helpers
def _readonly(arr: np.ndarray) -> np.ndarray:
    arr = np.array(arr, dtype=np.int64)
    arr.setflags(write=False)
    return arr


def _declared_labels(labels: Any, k: int | None = None) -> tuple[Any, ...]:
    """Validate declared labels (k = their number unless given)."""
    if labels is None or isinstance(labels, str | bytes) or not isinstance(labels, Iterable):
        return check_category_labels("labels", labels, k or 0)  # raises ArgumentTypeError
    items = list(labels)
    return check_category_labels("labels", items, len(items) if k is None else k)


def _declared_letters(letters: Any, j: int | None = None) -> tuple[Any, ...]:
    """Validate a declared judge alphabet (J = its length unless given)."""
    if letters is None or isinstance(letters, str | bytes) or not isinstance(letters, Iterable):
        return check_category_labels("judge_labels", letters, j or 0)  # raises
    items = list(letters)
    return check_category_labels("judge_labels", items, len(items) if j is None else j)


def category_fields(k: int) -> tuple[str, ...]:
    """Per-item total fields of :class:`CategoryCounts`: ``"c0"``, …, one per category."""
    return tuple(f"c{a}" for a in range(k))


def confusion_fields(j: int, k: int) -> tuple[str, ...]:
    """Per-item total fields of :class:`ConfusionMatrix`: ``"c{a}_{b}"`` (judge a, human b).

    In row-major order: an item's totals reshaped to (J, K) are its own confusion counts.
    """
    return tuple(f"c{a}_{b}" for a in range(j) for b in range(k))


def _cluster_totals(ids: Any, code: np.ndarray, fields: tuple[str, ...],
                    name: str = "cluster") -> ClusterTotals:  # fmt: skip
    """Per-item counts of the field ``code`` of each row (items ``ids``, one per row)."""
    unique, item = check_cluster_ids(name, ids, code.size)
    totals = np.zeros((unique.size, len(fields)), dtype=np.int64)
    np.add.at(totals, (item, code), 1)
    return ClusterTotals(unique, totals, fields)


def _moved_totals(clusters: Any, index: np.ndarray, size: int, fields: tuple) -> Any:
    """Cluster totals with old field f added into new field ``index[f]`` (reorder, merge)."""
    if clusters is None:
        return None
    totals = np.zeros((clusters.size, size), dtype=np.int64)
    np.add.at(totals.T, np.asarray(index), clusters.totals.T)
    return ClusterTotals(clusters.ids, totals, fields)


def _infer_labels(*values: list[Any]) -> tuple[Any, ...]:
    """Observed labels, sorted when they are mutually orderable, else in order of appearance."""
    seen = list(dict.fromkeys(chain(*values)))
    try:
        return tuple(sorted(seen))
    except TypeError:
        return tuple(seen)


def _condition_number(matrix: np.ndarray) -> np.ndarray:
    """2-norm condition number over the last two axes (``inf``: numerically singular or NaN)."""
    finite = np.isfinite(matrix).all(axis=(-2, -1))
    safe = np.where(finite[..., None, None], matrix, np.eye(*matrix.shape[-2:]))
    sv = np.linalg.svd(safe, compute_uv=False)
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = sv[..., 0] / sv[..., -1]
    # beyond 1/eps the smallest singular value is rounding noise: numerically singular
    singular = ~np.isfinite(kappa) | (kappa * np.finfo(float).eps >= 1.0)
    return np.where(finite & ~singular, kappa, np.inf)


# ----------------------------------------------------------------------------- counts
@dataclass(frozen=True, slots=True, eq=False)
class CategoryCounts:
    """Judge labels on the test set, counted per category (one data set).

    Parameters
    ----------
    counts : array_like of int, shape (k,)
        Number of test items the judge put in each category (k >= 2, total n >= 1).
    labels : sequence, optional
        The k category labels, in the order of ``counts`` (default ``0, …, k − 1``).
    clusters : ClusterTotals, optional
        Each item's count vector when items repeat (rows = verdicts, several per item: epochs,
        several answers to one prompt); made by :meth:`from_labels` with ``cluster=``, fields
        :func:`category_fields`. ``counts`` then count rows, and
        :func:`judgestats.correct_distribution` accounts for the repeats
        (:mod:`judgestats.multiclass.clustered`).

    Examples
    --------
    >>> import judgestats as js
    >>> test = js.CategoryCounts([430, 380, 190], labels=["win", "tie", "lose"])
    >>> test.n, test.p_hat.tolist()
    (1000, [0.43, 0.38, 0.19])
    """

    counts: Any
    labels: Any = None
    clusters: ClusterTotals | None = None

    def __post_init__(self) -> None:
        counts = check_category_counts("counts", self.counts)
        k = counts.size
        labels = tuple(range(k)) if self.labels is None else _declared_labels(self.labels, k)
        if counts.sum() == 0:
            check_count("n (total of counts)", 0, minimum=1)  # raises CountError
        fields = category_fields(k)
        sums = dict(zip(fields, counts.tolist(), strict=True))
        check_totals("CategoryCounts", self.clusters, fields, sums, ())
        object.__setattr__(self, "counts", _readonly(counts))
        object.__setattr__(self, "labels", labels)

    @classmethod
    def from_labels(cls, judge: Any, labels: Any = None, *, cluster: Any = None) -> CategoryCounts:
        """Count the judge's label per test row.

        Parameters
        ----------
        judge : 1-D array_like
            One label per test row (str, int, ...; missing values are refused).
        labels : sequence, optional
            The declared categories, in the order wanted. A label outside them raises
            :class:`LabelError`. By default the observed labels, sorted: declare them when
            the judge may not have used every category.
        cluster : 1-D array_like, optional
            The item id of each row, when items repeat (epochs, several answers to one prompt,
            turns of one conversation): rows with one id are one item, and the counts keep
            each item's count vector (``clusters``). A length other than ``judge``'s or a
            missing id raises :class:`LabelError`.

        Examples
        --------
        >>> import judgestats as js
        >>> test = js.CategoryCounts.from_labels(["a", "b", "a", "c"], cluster=[1, 1, 2, 2])
        >>> test.counts.tolist(), test.clusters.totals.tolist()
        ([2, 1, 1], [[1, 1, 0], [1, 0, 1]])
        """
        _check_aligned(judge=judge, cluster=cluster)
        values = check_category_values("judge labels", judge)
        cats = _infer_labels(values) if labels is None else _declared_labels(labels)
        codes = check_in_categories("judge labels", values, cats)
        clusters = None
        if cluster is not None:
            clusters = _cluster_totals(cluster, np.asarray(codes), category_fields(len(cats)))
        return cls(np.bincount(codes, minlength=len(cats)), cats, clusters)

    @property
    def clustered(self) -> bool:
        """True when the counts carry per-item totals (rows may repeat an item)."""
        return self.clusters is not None

    @classmethod
    def from_frame(
        cls, frame: Any, *, judge: str = "judge", labels: Any = None, cluster: str | None = None,
    ) -> CategoryCounts:  # fmt: skip
        """Count the judge column of a data frame (see :meth:`from_labels`).

        ``cluster``: the column of each row's item id, when items repeat (as ``cluster=`` of
        :meth:`from_labels`).
        """
        check_columns(frame, {"judge": judge, **({} if cluster is None else {"cluster": cluster})})
        values = check_category_values(f"judge column {judge!r}", frame[judge])
        cats = _infer_labels(values) if labels is None else _declared_labels(labels)
        codes = np.asarray(check_in_categories(f"judge column {judge!r}", values, cats))
        clusters = None if cluster is None else _cluster_totals(
            frame[cluster], codes, category_fields(len(cats)), f"cluster column {cluster!r}")
        return cls(np.bincount(codes, minlength=len(cats)), cats, clusters)

    @property
    def k(self) -> int:
        """Number of categories."""
        return int(self.counts.size)

    @property
    def n(self) -> int:
        """Test-set size."""
        return int(self.counts.sum())

    @property
    def p_hat(self) -> np.ndarray:
        """Judged category distribution p̂ = counts / n (the naive estimate)."""
        return self.counts / self.counts.sum()

    def reorder(self, labels: Any) -> CategoryCounts:
        """Return the same counts with the categories in the order of ``labels``."""
        new = _declared_labels(labels, self.k)
        idx = check_in_categories("labels", list(new), self.labels)
        where = np.argsort(idx)  # old category f goes to new position where[f]
        clusters = _moved_totals(self.clusters, where, self.k, category_fields(self.k))
        return CategoryCounts(self.counts[idx], new, clusters)

    def merge(self, letters: Any) -> CategoryCounts:
        """Merge judge letters (``letters`` maps old → new; see :meth:`ConfusionMatrix.merge`)."""
        alphabet, index = merged_alphabet(self.labels, letters)
        fields = category_fields(len(alphabet))
        return CategoryCounts(np.bincount(index, self.counts, len(alphabet)).astype(int), alphabet,
                              _moved_totals(self.clusters, index, len(alphabet), fields))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CategoryCounts):
            return NotImplemented
        return (self.labels == other.labels and np.array_equal(self.counts, other.counts)
                and self.clusters == other.clusters)

    def __hash__(self) -> int:
        return hash((CategoryCounts, self.labels, tuple(self.counts.tolist())))

    def __repr__(self) -> str:
        pairs = ", ".join(f"{lab!r}: {c}" for lab, c in zip(self.labels, self.counts, strict=True))
        more = "" if self.clusters is None else f", clusters={self.clusters.size} items"
        return f"CategoryCounts({{{pairs}}}, n={self.n}{more})"


@dataclass(frozen=True, slots=True, eq=False)
class ConfusionMatrix:
    """Human-vs-judge counts on the calibration set, J × K (one data set).

    Parameters
    ----------
    counts : array_like of int, shape (J, K)
        ``counts[a, b]`` = number of calibration items the judge put in category (letter) a
        whose human (true) category is b: **rows = judge label, columns = human label**. A
        true class without calibration items leaves its column of Ĉ undefined: ``matrix``
        and every by-human-label correction raise :class:`CountError` (the random and
        by-judge-label designs do not need it).
    labels : sequence, optional
        The K human category labels (default ``0, …, K − 1``); without ``judge_labels`` they
        label the rows too and the matrix must be square.
    judge_labels : sequence, optional
        The judge's alphabet of J >= K letters, in row order, when the judge does not answer
        in the humans' categories: a 1–5 score against pass/fail, win/tie/lose against
        win/not-win, an "invalid" letter for unparseable verdicts, the letter pairs of two
        judges. θ over the K human categories is identified when C has rank K, and every
        letter is used (:func:`correct_distribution`).

    Examples
    --------
    >>> import judgestats as js
    >>> cal = js.ConfusionMatrix([[8, 1, 0], [2, 8, 2], [0, 1, 8]], labels=["a", "b", "c"])
    >>> cal.matrix[:, 0].tolist(), cal.human_counts.tolist()
    ([0.8, 0.2, 0.0], [10, 10, 10])
    >>> score = js.ConfusionMatrix([[40, 2], [25, 8], [10, 20], [5, 50]], labels=["fail", "pass"],
    ...                         judge_labels=[1, 2, 3, 4])
    >>> score.j, score.k, score.matrix[:, 1].tolist()
    (4, 2, [0.025, 0.1, 0.25, 0.625])
    """

    counts: Any
    labels: Any = None
    judge_labels: Any = None
    clusters: ClusterTotals | None = None

    def __post_init__(self) -> None:
        arr = np.asarray(check_count("counts", self.counts))
        if self.judge_labels is None:
            square = arr.ndim == 2 and arr.shape[0] == arr.shape[1]
            k = arr.shape[0] if square else -1
            if square:
                check_category_counts("counts", arr.sum(axis=0))  # k >= 2
            labels = None
            if square:
                labels = (
                    tuple(range(k)) if self.labels is None else _declared_labels(self.labels, k)
                )
            arr = check_confusion_counts("counts", arr, k, labels, every_column=False)
            letters = labels
        else:
            if arr.ndim != 2:
                raise CountError(f"counts must be a J×K matrix of counts, got shape {arr.shape}")
            j, k = arr.shape
            check_category_counts("counts", arr.sum(axis=0))  # K >= 2
            letters = _declared_letters(self.judge_labels, j)
            if j < k:
                raise CountError(
                    f"the judge alphabet has J = {j} letters {list(letters)!r} but the humans "
                    f"use K = {k} categories: θ over K categories is not identified from fewer "
                    "judge letters; merge human categories or give the judge more letters"
                )
            labels = tuple(range(k)) if self.labels is None else _declared_labels(self.labels, k)
            arr = check_confusion_counts("counts", arr, k, labels, every_column=False, letters=j)
        fields = confusion_fields(*arr.shape)
        sums = dict(zip(fields, arr.ravel().tolist(), strict=True))
        check_totals("ConfusionMatrix", self.clusters, fields, sums, ())
        object.__setattr__(self, "counts", _readonly(arr))
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "judge_labels", letters)

    @classmethod
    def from_labels(
        cls, *, human: Any, judge: Any, labels: Any = None, judge_labels: Any = None,
        cluster: Any = None,
    ) -> ConfusionMatrix:  # fmt: skip
        """Cross-tabulate paired human and judge labels (one pair per calibration row).

        Parameters
        ----------
        human, judge : 1-D array_like
            The true and the judge category of each calibration row (equal lengths).
        labels : sequence, optional
            The declared categories, in the order wanted; by default the union of the observed
            human and judge labels, sorted (the human labels only, with ``judge_labels``). A
            label outside them raises :class:`LabelError`.
        judge_labels : sequence or "observed", optional
            The judge's own alphabet (rows), when it differs from the human categories;
            ``"observed"`` takes the judge's observed letters, sorted.
        cluster : 1-D array_like, optional
            The item id of each row, when items repeat (epochs of one human-labelled item,
            several human raters of one item): the counts keep each item's J × K counts
            (``clusters``). An item's rows may carry different human labels (raters who
            disagree); see ``estimand`` of :func:`judgestats.correct_distribution`. A length
            other than ``human``'s or a missing id raises :class:`LabelError`.

        Notes
        -----
        Rows are paired by position: pandas Series whose indexes differ (as sets or in order)
        raise :class:`LabelError`; align them first (``.loc``, ``reset_index``).
        """
        _check_aligned(human=human, judge=judge, cluster=cluster)
        return cls._tabulate(human, judge, labels, "human labels", "judge labels", judge_labels,
                             None if cluster is None else (cluster, "cluster"))  # fmt: skip

    @classmethod
    def from_sklearn(cls, cm: Any, *, labels: Any = None) -> ConfusionMatrix:
        """Build from scikit-learn's ``confusion_matrix(y_true, y_pred)`` (transposed here).

        scikit-learn puts the true (human) class on the **rows** and the prediction (judge) on
        the columns; this class the other way round (rows = judge, columns = human), so the
        matrix is transposed. Pass the ``labels`` you passed to scikit-learn, in that order.

        Examples
        --------
        >>> cm = [[8, 2, 0], [1, 8, 1], [0, 2, 8]]  # sklearn: rows = human, columns = judge
        >>> import judgestats as js
        >>> js.ConfusionMatrix.from_sklearn(cm, labels=["a", "b", "c"]).counts[:, 0].tolist()
        [8, 2, 0]
        """
        arr = np.asarray(check_count("cm", cm))
        if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
            raise CountError(f"cm must be a square matrix of counts, got shape {arr.shape}")
        return cls(arr.T, labels)

    @classmethod
    def from_frame(
        cls, frame: Any, *, human: str = "human", judge: str = "judge", labels: Any = None,
        judge_labels: Any = None, cluster: str | None = None,
    ) -> ConfusionMatrix:  # fmt: skip
        """Cross-tabulate the human and judge columns of a data frame (see :meth:`from_labels`).

        ``cluster``: the column of each row's item id, when items repeat (as ``cluster=`` of
        :meth:`from_labels`).
        """
        extra = {} if cluster is None else {"cluster": cluster}
        check_columns(frame, {"human": human, "judge": judge, **extra})
        return cls._tabulate(
            frame[human], frame[judge], labels, f"human column {human!r}",
            f"judge column {judge!r}", judge_labels,
            None if cluster is None else (frame[cluster], f"cluster column {cluster!r}"),
        )  # fmt: skip

    @classmethod
    def _tabulate(
        cls, human: Any, judge: Any, labels: Any, h_name: str, j_name: str, letters: Any = None,
        cluster: Any = None,
    ) -> ConfusionMatrix:  # fmt: skip
        h = check_category_values(h_name, human)
        j = check_category_values(j_name, judge)
        check_same_length(h_name, h, j_name, j)
        if letters is None:
            cats = _infer_labels(h, j) if labels is None else _declared_labels(labels)
            alphabet = cats
        else:
            cats = _infer_labels(h) if labels is None else _declared_labels(labels)
            alphabet = (
                _infer_labels(j) if isinstance(letters, str) and letters == "observed"
                else _declared_letters(letters)
            )  # fmt: skip
        hc = check_in_categories(h_name, h, cats)
        jc = check_in_categories(j_name, j, alphabet)
        k = len(cats)
        code = np.asarray(jc) * k + np.asarray(hc)
        counts = np.bincount(code, minlength=len(alphabet) * k).reshape(-1, k)
        clusters = None
        if cluster is not None:  # (ids, their argument's name)
            clusters = _cluster_totals(cluster[0], code, confusion_fields(len(alphabet), k),
                                       cluster[1])  # fmt: skip
        return cls(counts, cats, judge_labels=None if letters is None else alphabet,
                   clusters=clusters)

    @property
    def k(self) -> int:
        """Number of human categories K (columns)."""
        return int(self.counts.shape[1])

    @property
    def j(self) -> int:
        """Number of judge letters J (rows); J = K when the judge uses the human categories."""
        return int(self.counts.shape[0])

    @property
    def square(self) -> bool:
        """True when the judge's alphabet is the human categories (same labels, same order)."""
        return self.judge_labels == self.labels

    def judge_labels_at(self, mask: Any) -> tuple:
        """Return the judge letters where ``mask`` (one entry per letter) is True, in order."""
        return tuple(lab for lab, keep in zip(self.judge_labels, mask, strict=True) if keep)

    @property
    def m(self) -> int:
        """Calibration-set size."""
        return int(self.counts.sum())

    @property
    def human_counts(self) -> np.ndarray:
        """Calibration items per true (human) category, m_b (column sums)."""
        return self.counts.sum(axis=0)

    @property
    def judge_counts(self) -> np.ndarray:
        """Calibration items per judge category (row sums)."""
        return self.counts.sum(axis=1)

    @property
    def matrix(self) -> np.ndarray:
        """Ĉ[a, b] = P̂(judge = a | human = b) (paper eq. (24)).

        Raises :class:`CountError` when a true class has no calibration item.
        """
        check_confusion_counts("counts", self.counts, self.k, self.labels, letters=self.j)
        return self.counts / self.human_counts

    @property
    def condition_number(self) -> float:
        """2-norm condition number of Ĉ (``inf`` if singular).

        Compare :data:`judgestats.multiclass.MAX_CONDITION`.
        """
        return float(_condition_number(self.matrix))

    def reorder(self, labels: Any = None, *, judge_labels: Any = None) -> ConfusionMatrix:
        """Return the same counts with columns (and rows) in the order of ``labels``.

        A square matrix reorders rows and columns together. With a judge alphabet of its own,
        ``labels`` orders the columns (human categories) and ``judge_labels`` the rows.
        """
        cols = np.arange(self.k)
        new = self.labels
        if labels is not None:
            new = _declared_labels(labels, self.k)
            cols = check_in_categories("labels", list(new), self.labels)
        if self.square:
            if judge_labels is not None:
                raise ArgumentTypeError(
                    "judge_labels= reorders the rows of a judge alphabet of its own; this "
                    "matrix's rows are the human categories (use labels=)"
                )
            clusters = self._moved(cols, cols, self.j)
            return ConfusionMatrix(self.counts[np.ix_(cols, cols)], new, clusters=clusters)
        rows = np.arange(self.j)
        letters = self.judge_labels
        if judge_labels is not None:
            letters = _declared_letters(judge_labels, self.j)
            rows = check_in_categories("judge_labels", list(letters), self.judge_labels)
        return ConfusionMatrix(self.counts[np.ix_(rows, cols)], new, judge_labels=letters,
                               clusters=self._moved(rows, cols, self.j))  # fmt: skip

    def _moved(self, rows: Any, cols: Any, j: int, merged: bool = False) -> Any:
        """Cluster totals with the rows and columns taken (or, ``merged``, sent) as given."""
        if merged:  # old row a goes to new row rows[a]
            to_row, to_col = np.asarray(rows), np.arange(self.k)
        else:  # new row i is old row rows[i]
            to_row, to_col = np.argsort(rows), np.argsort(cols)
        index = (to_row[:, None] * self.k + to_col[None, :]).ravel()
        return _moved_totals(self.clusters, index, j * self.k, confusion_fields(j, self.k))

    def merge(self, letters: Any) -> ConfusionMatrix:
        """Merge judge letters: ``letters`` maps an old letter to its new one.

        For a sparse letter (few calibration items, or none while the test set has it), e.g.
        ``cal.merge({"invalid": 0})`` folds invalid verdicts into letter 0 and
        ``cal.merge({4: "4-5", 5: "4-5"})`` pools two scores. Letters not named keep their
        place; new letters follow in order of first appearance. Use
        :meth:`CategoryCounts.merge` with the same mapping on the test counts.
        """
        alphabet, index = merged_alphabet(self.judge_labels, letters)
        counts = np.zeros((len(alphabet), self.k), dtype=np.int64)
        np.add.at(counts, index, self.counts)
        clusters = self._moved(index, None, len(alphabet), merged=True)
        return ConfusionMatrix(counts, self.labels,
                               judge_labels=None if alphabet == self.labels else alphabet,
                               clusters=clusters)  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        return (
            self.labels == other.labels
            and self.judge_labels == other.judge_labels
            and np.array_equal(self.counts, other.counts)
            and self.clusters == other.clusters
        )

    def __hash__(self) -> int:
        return hash(
            (ConfusionMatrix, self.labels, self.judge_labels, tuple(self.counts.ravel().tolist()))
        )

    def __repr__(self) -> str:
        letters = "" if self.square else f", judge_labels={list(self.judge_labels)!r}"
        more = "" if self.clusters is None else f", clusters={self.clusters.size} items"
        return (
            f"ConfusionMatrix({self.counts.tolist()}, labels={list(self.labels)!r}{letters}, "
            f"m={self.m}{more}; rows = judge label, columns = human label)"
        )


def merged_alphabet(alphabet: tuple, letters: Any) -> tuple[tuple, np.ndarray]:
    """Return the alphabet after merging (old → new letter) and each old letter's new row."""
    if not isinstance(letters, dict) or not letters:
        raise ArgumentTypeError(
            f"letters must be a non-empty dict mapping old judge letters to new ones, got "
            f"{letters!r}"
        )
    check_in_categories("letters (keys)", list(letters), alphabet)
    new = [letters.get(a, a) for a in alphabet]
    merged = tuple(dict.fromkeys(new))
    if len(merged) < 2:
        raise CountError(f"merging {letters!r} leaves fewer than 2 judge letters")
    return merged, np.array([merged.index(v) for v in new])


def as_confusion_matrix(
    calibration: Any, name: str = "calibration", k: int | None = None, labels: Any = None
) -> tuple[np.ndarray, tuple | None]:
    """Calibration count matrix (rows = judge, columns = human) and its own labels (or None).

    ``labels`` only names the categories in error messages about plain arrays.
    """
    own = None
    values = calibration
    if isinstance(calibration, ConfusionMatrix):
        values = calibration.counts
        size = int(np.shape(values)[0]) if np.ndim(values) == 2 else 0
        own = check_category_labels(f"{name} labels", calibration.labels, size)
    if k is None:
        k = int(np.shape(values)[0]) if np.ndim(values) == 2 else -1
    shown = own if own is not None else labels
    if shown is not None and len(shown) != k:
        shown = None
    return check_confusion_counts(name, values, k, shown), own
