"""Judge alphabets per group: count each group's letters on the frame's engine, correct its rate.

``js.evaluate(frame, judge=["gpt4", "claude"])`` (two judges: the product letters ``"1|0"``)
and ``js.evaluate(frame, judge="score", judge_labels="observed")`` (a 1–5 score, a
win/tie/lose verdict, an ``"invalid"`` letter) run here. The O(rows) work is the engine's
own grouped count of the distinct (group, judge columns, human[, split]) values — the first
stage of :func:`judgestats.frames.group_counts` — so only a few rows per group and letter
reach Python. Each group then has a test vector over its letters and a J × 2 calibration
matrix (letters × human 0/1), and its rate θ = P(human = 1) is the joint maximum-likelihood
estimate of :func:`judgestats.multiclass.correct_distribution` (every letter used; the paper's
appendix model with a judge alphabet of its own), with its profile-likelihood interval.

:class:`AlphabetCorrection` is one group's result: the rate and interval of the human
category 1, and the whole :class:`~judgestats.multiclass.DistributionCorrection` behind it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    ColumnError,
    GroupLabelError,
    LabelError,
    binary_value,
    check_bins,
    check_column_names,
    check_distinct_roles,
    check_frame_columns,
    check_group_labels,
    check_invalid,
    check_label_kind,
    check_missing_keys,
    check_positive_int,
    check_split_kind,
    describe_group,
)
from ..counts.categories import CategoryCounts, ConfusionMatrix
from ..designs import DEFAULT_DESIGN, RoganGladenDesign, as_design
from ..designs.capabilities import capability
from ..frames import (
    _COUNT,
    _collect,
    _engine_name,
    _engine_warnings,
    _kind,
    _narwhals,
    _plain,
    _rows,
    open_frame,
    sort_keys,
)
from ..multiclass.arrays import MAX_CONDITION
from ..multiclass.distribution import (
    DistributionCorrection,
    correct_distribution_spec,
)
from ..multiclass.methods import ALPHABET, DISTRIBUTION, distribution_spec, table_lists
from ..multiclass.separation import SEPARATION_LEVEL, _check_letters
from ..results import ConfidenceInterval, Reportable, forward, rate_repr
from .letters import (
    INVALID,
    INVALID_CODE,
    OUTSIDE,
    _letters_of,
    _missing,
    _sorted_alphabet,
    bin_letter,
    keeps_missing,
    warn_sparse_letters,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "AlphabetCorrection",
    "LetterCounts",
    "alphabet_methods",
    "correct_alphabet",
    "letter_counts",
]


def alphabet_methods(design: Any = DEFAULT_DESIGN) -> tuple[str, ...]:
    """Interval methods of a judge alphabet's rate under ``design``, the default first.

    The capability table's row of judge alphabets with independent rows
    (:func:`judgestats.designs.capabilities.capability`).
    """
    row = capability(ALPHABET, DISTRIBUTION, as_design(design), False)
    return (row.default, *(m for m in row.methods if m != row.default))


#: The list of methods this module held, now the capability table's row.
__getattr__ = table_lists(__name__, {"ALPHABET_METHODS": ("alphabet", DEFAULT_DESIGN, False)})


#: The human categories of a rate: 0 and 1 (booleans read as 0/1).
HUMAN_LABELS = (0, 1)


# ============================================================================ counts
@dataclass(frozen=True, slots=True, eq=False)
class LetterCounts:
    """Per group, the judge letters of the test rows and the letter × human calibration counts.

    Attributes
    ----------
    by : tuple of str
        Group columns.
    judge : tuple of str
        The judge column(s); several make the product letters ``"a|b"``.
    human, split : str, str or None
        The human label column and the split column.
    engine : str
        The engine that counted.
    alphabet : tuple
        Every letter seen on any row (sorted; ``"invalid"`` last), or the ``judge_labels``
        given.
    test : dict
        Group key (tuple of ``by`` values) → int64 array over ``alphabet``.
    calibration : dict
        Group key → int64 array of shape (len(alphabet), 2): rows letters, columns human 0, 1.
    clusters : dict or None
        With ``cluster=``: group key → {item id: (test (len(alphabet),), calibration
        (len(alphabet), 2))}, each item's own counts; :meth:`pair` then gives clustered counts.
    """

    by: tuple
    judge: tuple
    human: str
    split: str | None
    engine: str
    alphabet: tuple
    test: dict
    calibration: dict
    clusters: dict | None = None

    @property
    def groups(self) -> tuple:
        """Group keys (tuples of ``by`` values) in sorted order."""
        return tuple(self.test)

    def pair(self, key: tuple) -> tuple[CategoryCounts, ConfusionMatrix]:
        """One group's (test, calibration) counts over the letters seen in that group."""
        t, c = self.test[key], self.calibration[key]
        seen = [i for i in range(len(self.alphabet)) if t[i] or c[i].any()]
        letters = tuple(self.alphabet[i] for i in seen)
        if self.clusters is None:
            return (
                CategoryCounts(t[seen], labels=letters),
                ConfusionMatrix(c[seen], labels=HUMAN_LABELS, judge_labels=letters),
            )
        from ..counts.categories import category_fields, confusion_fields
        from ..counts.clusters import ClusterTotals

        items = self.clusters[key]
        ids = list(items)
        it = np.array([items[i][0][seen] for i in ids], dtype=np.int64).reshape(len(ids), -1)
        ic = np.array([items[i][1][seen] for i in ids], dtype=np.int64).reshape(len(ids), -1)
        t_on, c_on = it.any(axis=1), ic.any(axis=1)
        pick = lambda on: [i for i, keep in zip(ids, on, strict=True) if keep]  # noqa: E731
        return (
            CategoryCounts(t[seen], labels=letters, clusters=ClusterTotals(
                pick(t_on), it[t_on], category_fields(len(seen)))),
            ConfusionMatrix(c[seen], labels=HUMAN_LABELS, judge_labels=letters,
                            clusters=ClusterTotals(pick(c_on), ic[c_on],
                                                   confusion_fields(len(seen), 2))),
        )  # fmt: skip

    def to_dataframe(self) -> pd.DataFrame:
        """One row per group and letter: ``test``, ``human_0``, ``human_1`` counts."""
        import pandas as pd

        rows = []
        for key in self.groups:
            for i, letter in enumerate(self.alphabet):
                t, c = self.test[key][i], self.calibration[key][i]
                if t or c.any():
                    row = dict(zip(self.by, key, strict=True))
                    row.update(letter=letter, test=int(t), human_0=int(c[0]), human_1=int(c[1]))
                    rows.append(row)
        return pd.DataFrame(rows)


def _add(bad: dict, where: tuple, value: Any, rows: int) -> None:
    value = None if _missing(value) else value  # NaN != NaN: one key for every missing value
    values = bad.setdefault(where, {})
    values[value] = values.get(value, 0) + rows


def _check_schema(nw, nf, *, judge, human, split, by) -> None:
    schema = nf.collect_schema()
    roles = {"judge": judge, "human": (human,), "split": () if split is None else (split,),
             "by": by}  # fmt: skip
    check_frame_columns(list(schema.names()), roles)
    check_label_kind("human", human, _kind(nw, schema[human]), str(schema[human]))
    if split is not None:
        check_split_kind(split, _kind(nw, schema[split]), str(schema[split]))


def _bin_expr(nw: Any, column: str, edges: np.ndarray, invalid: Any) -> Any:
    """Engine expression: the bin code of a numeric judge column (null where missing).

    Codes 0 … len(edges) − 2 (the last bin closed), ``OUTSIDE`` and ``INVALID_CODE`` for the
    numbers listed in ``invalid``: binning on the engine sends a few codes per group to Python
    instead of every distinct score.
    """
    # compared as float64 on every engine: polars compares a Float32 column with the edge
    # cast down to float32 (0.7f32 fell in the bin above 0.7), and refuses float is_in on ints
    c = nw.col(column).cast(nw.Float64)
    code = nw.lit(edges.size - 2)
    for j in range(edges.size - 3, -1, -1):
        code = nw.when(c < float(edges[j + 1])).then(j).otherwise(code)
    code = nw.when((c >= float(edges[0])) & (c <= float(edges[-1]))).then(code).otherwise(OUTSIDE)
    numbers = [float(v) for v in (invalid or ()) if isinstance(v, int | float)
               and not isinstance(v, bool) and not _missing(v)]  # fmt: skip
    if numbers:
        code = nw.when(c.is_in(numbers)).then(INVALID_CODE).otherwise(code)
    missing = c.is_null() | c.is_nan()
    # float codes: pandas has no null in an int64 column (a missing value is NaN there)
    return nw.when(~missing).then(code).cast(nw.Float64).alias(column)


def _scalar(v: Any) -> Any:
    """Return a judge value as Python sees it.

    Numpy scalars unwrapped; a Decimal (DuckDB and Spark DECIMAL columns) as an int when
    whole, else a float.
    """
    v = _plain(v)
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    return v


def _numeric_columns(nw: Any, nf: Any, cols: tuple) -> dict[str, str]:
    """Return the judge columns an engine can bin: column → "int" or "float"."""
    schema = nf.collect_schema()
    kinds = {c: _kind(nw, schema[c]) for c in cols}
    return {c: kind for c, kind in kinds.items() if kind in ("int", "float")}


def _letters(rows, keys, cols, *, bins, invalid, edges=None, coded=()) -> list[Any]:
    """Return the letter of every distinct row (errors name the offending value's group).

    The ``coded`` columns hold the engine's bin codes (:func:`_bin_expr` with the checked
    ``edges``); the others their values, binned here when ``bins`` is given (text or mixed
    columns).
    """
    k = len(keys)

    def where(i: int) -> str:
        return f"in group {describe_group(keys, tuple(rows[i][:k]))}"

    ok = keeps_missing(invalid)
    per_column = []
    for j, c in enumerate(cols):
        name = f"judge column {c!r}"
        if c in coded:
            per_column.append([bin_letter(_plain(r[k + j]), edges, ok, name, where(i))
                               for i, r in enumerate(rows)])  # fmt: skip
        else:
            values = [_scalar(r[k + j]) for r in rows]
            per_column.append(_letters_of(name, values, bins, invalid, where))
    if len(cols) == 1:
        return per_column[0]
    return ["|".join(str(v) for v in row) for row in zip(*per_column, strict=True)]


def _check_alphabet(letters: list[Any], judge_labels: Any) -> tuple:
    if isinstance(judge_labels, str) and judge_labels == "observed":
        return _sorted_alphabet(letters)
    if isinstance(judge_labels, str) or not hasattr(judge_labels, "__iter__"):
        raise ArgumentTypeError(
            f"judge_labels must be 'observed' or a sequence of letters, got {judge_labels!r}"
        )
    given = tuple(judge_labels)
    if len(set(given)) != len(given) or len(given) < 2:
        raise ArgumentTypeError(f"judge_labels must be two or more distinct letters, got {given!r}")
    unknown = [v for v in dict.fromkeys(letters) if v not in given]
    if unknown:
        raise LabelError(
            f"the judge column(s) hold letters not in judge_labels: {unknown!r}; the letters "
            f"are {given!r} (list them, or pass judge_labels='observed')"
        )
    return given


def letter_counts(
    frame: Any,
    *,
    judge: Any,
    human: str = "human",
    by: Any = ("model",),
    split: str | None = None,
    judge_labels: Any = "observed",
    bins: Any = None,
    invalid: Any = None,
    cluster: str | None = None,
) -> LetterCounts:
    """Count a frame's judge letters per group on its own engine (:func:`judgestats.evaluate`).

    Parameters
    ----------
    frame : data frame
        Any engine :func:`judgestats.evaluate` reads; one row per judged item.
    judge : str or sequence of str
        The judge column (any values: scores, verdicts, booleans), or several (letters
        ``"a|b"``).
    human, by, split
        As :func:`judgestats.evaluate`; the human label is 0/1 or boolean.
    judge_labels : "observed" or sequence, default "observed"
        The alphabet: every letter seen (sorted, ``"invalid"`` last), or the letters given (a
        letter outside them is an error).
    bins, invalid
        As :func:`judgestats.judge_letters` (applied to every judge column). A numeric judge
        column is binned on the engine, so a continuous score sends a few bin codes per group
        to Python, not every distinct score (measured in ``benchmarks/bench_letters.py``).
        Scores meet the edges in double precision on every engine (a float32 0.7 is
        0.69999999, below an edge at 0.7).
    cluster : str, optional
        The column of each row's item id, when items repeat: the counts keep each item's own
        (``clusters``).

    Returns
    -------
    LetterCounts

    Raises
    ------
    ColumnError
        A missing column, a human column that is not boolean or numeric, a split column
        without strings, or a group column with missing values.
    GroupLabelError
        A missing judge value (without ``invalid=``), a calibration row's human label
        outside 0/1, or a split value other than ``'test'``/``'calibration'``, naming the
        groups.
    """
    by_cols = check_column_names("by", by)
    cols = check_column_names("judge", judge)
    invalid = check_invalid(invalid)
    edges = None if bins is None else check_bins(bins)
    check_distinct_roles({"judge": cols, "human": (human,),
                          "split": () if split is None else (split,), "by": by_cols,
                          "cluster": () if cluster is None else (cluster,)})  # fmt: skip
    nw = _narwhals()
    with _engine_warnings():
        nf = open_frame(nw, frame, by_cols, (human,))
        _check_schema(nw, nf, judge=cols, human=human, split=split, by=by_cols)
        coded: dict[str, str] = {}
        if edges is not None:  # numeric scores binned where the data live (few codes per group)
            coded = _numeric_columns(nw, nf, cols)
            if coded:
                nf = nf.with_columns(*(_bin_expr(nw, c, edges, invalid) for c in coded))
        labels = (*cols, human) + (() if split is None else (split,))
        labels += () if cluster is None else (cluster,)
        first = nf.group_by(*by_cols, *labels).agg(nw.len().alias(_COUNT))
        rows = _collect(nw, first).rows()
        engine = _engine_name(nw, nf)
    k, r = len(by_cols), len(cols)
    rank = {g: i for i, g in enumerate(sort_keys(list({tuple(row[:k]) for row in rows})))}
    rows = sorted(rows, key=lambda row: rank[tuple(row[:k])])  # errors name the first group
    missing = dict.fromkeys(by_cols, 0)
    for row in rows:
        for c, v in zip(by_cols, row[:k], strict=True):
            if _missing(_plain(v)):
                missing[c] += int(row[-1])
    check_missing_keys(missing)
    try:
        letters = _letters(rows, by_cols, cols, bins=bins, invalid=invalid, edges=edges,
                           coded=coded)  # fmt: skip
    except LabelError as exc:
        raise GroupLabelError(str(exc)) from exc
    alphabet = _check_alphabet(letters, judge_labels)
    index = {a: i for i, a in enumerate(alphabet)}
    test: dict[tuple, np.ndarray] = {}
    cal: dict[tuple, np.ndarray] = {}
    bad: dict[tuple, dict] = {}  # (group, role) → value → rows
    items: dict[tuple, dict] | None = None if cluster is None else {}
    for row, letter in zip(rows, letters, strict=True):
        key = tuple(_plain(v) for v in row[:k])
        h, count = _plain(row[k + r]), int(row[-1])
        test.setdefault(key, np.zeros(len(alphabet), dtype=np.int64))
        cal.setdefault(key, np.zeros((len(alphabet), 2), dtype=np.int64))
        t_item, c_item = _item_counts(items, key, cluster, row, len(alphabet))
        if split is not None:
            s = _plain(row[k + r + 1])
            if s not in ("test", "calibration"):
                _add(bad, (key, "split"), s, count)
                continue
            is_cal = s == "calibration"
        else:
            is_cal = not _missing(h)
        if not is_cal:
            test[key][index[letter]] += count
            if t_item is not None:
                t_item[index[letter]] += count
        elif (value := binary_value(h)) is None:
            _add(bad, (key, "human"), h, count)
        else:
            cal[key][index[letter], value] += count
            if c_item is not None:
                c_item[index[letter], value] += count
    check_group_labels([
        (describe_group(by_cols, key), role,
         ", ".join(f"{_rows(n, 'row')} of {v!r}" for v, n in bad[key, role].items()))
        for role in ("split", "human") for key in sort_keys([g for g, r in bad if r == role])
    ])  # fmt: skip
    order = sort_keys(list(test))
    return LetterCounts(
        by_cols, cols, human, split, engine, alphabet,
        {g: test[g] for g in order}, {g: cal[g] for g in order},
        None if items is None else {g: items[g] for g in order},
    )  # fmt: skip


def _item_counts(items: dict | None, key: tuple, cluster: Any, row: Any, size: int) -> tuple:
    """Return the (test, calibration) counts of a row's item (None, None without cluster=).

    The item id is the row's next-to-last value (before the count); a missing one is an error.
    """
    if items is None:
        return None, None
    item = _plain(row[-2])
    if _missing(item):
        raise ColumnError(f"cluster column {cluster!r} has a missing item id")
    group = items.setdefault(key, {})
    if item not in group:
        group[item] = (np.zeros(size, dtype=np.int64), np.zeros((size, 2), dtype=np.int64))
    return group[item]


# ============================================================================ correction
def correct_alphabet(
    test: CategoryCounts,
    calibration: ConfusionMatrix,
    *,
    method: str | None = None,
    confidence_level: float = 0.95,
    rng: Any = None,
    design: str = DEFAULT_DESIGN,
    min_count: int = 10,
    **options: Any,
) -> AlphabetCorrection:
    """Correct the rate θ = P(human = 1) of a judge alphabet's test letters.

    The joint maximum-likelihood θ̂ of :func:`judgestats.multiclass.correct_distribution`
    (test letters ~ Mult(n, Cθ), calibration columns ~ Mult(m_b, C[:, b]); paper appendix,
    multi-category model, with J letters for the K = 2 human categories) and its interval for
    the category 1.

    Parameters
    ----------
    test : CategoryCounts
        Test counts over the judge letters.
    calibration : ConfusionMatrix
        Letters × human (0, 1) counts, ``judge_labels`` = the test's letters.
    method : str, optional
        Interval method, one of the capability table's for a judge alphabet under the design
        (:func:`alphabet_methods`): by default ``"profile-likelihood-t"`` (also
        ``"profile-likelihood"``, ``"bootstrap"``); under the random and by-judge-label
        designs ``"adjusted-delta"`` (or ``"wald"``), the judge-conditional estimator's.
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1).
    rng : None, int, SeedSequence or Generator
        Randomness of ``"bootstrap"``.
    design : str, default "by-human-label"
        How the calibration items were chosen (:mod:`judgestats.designs`).
    min_count : int, default 10
        A letter on fewer calibration items triggers :class:`SparseLettersWarning`.
    **options
        Interval options (``n_resamples`` for the bootstrap).

    Returns
    -------
    AlphabetCorrection
    """
    if tuple(calibration.labels) != HUMAN_LABELS:
        raise LabelError(
            f"a rate needs the human categories (0, 1), got {tuple(calibration.labels)!r}; use "
            "judgestats.correct_distribution for other categories"
        )
    min_count = check_positive_int("min_count", min_count, minimum=1)
    _check_letters(test, calibration)
    spec = distribution_spec(test, calibration, method=method, confidence_level=confidence_level,
                             design=design, options=options)  # fmt: skip
    warn_sparse_letters(calibration, min_count, stacklevel=3)
    return AlphabetCorrection(correct_distribution_spec(
        spec, test, calibration, rng=rng, max_condition=MAX_CONDITION,
        separation_level=SEPARATION_LEVEL, stacklevel=3,
    ))  # fmt: skip


#: The point estimate of a judge alphabet, where its estimator family fits one of its own
#: (:attr:`judgestats.designs.Design.family`); the other families' is the design's estimator.
_ESTIMATORS = {RoganGladenDesign.family: "joint maximum likelihood"}


@dataclass(frozen=True, slots=True, eq=False)
class AlphabetCorrection(Reportable):
    """A rate corrected from a judge alphabet (:func:`correct_alphabet`; per group of evaluate).

    The properties give what a :class:`~judgestats.Correction` gives for a binary judge:
    ``estimate`` and ``ci`` (of θ = P(human = 1)), ``method``, ``confidence_level``,
    ``design``, ``n``, ``m0``, ``m1``, ``naive`` (the share of letter 1 when the letters are 0,
    1 and perhaps ``"invalid"``; else NaN), ``letters`` and ``estimator``.
    ``sensitivity`` and ``specificity`` are None: a judge alphabet has a column of letter
    rates per human class instead (``distribution.confusion_matrix``). ``report()`` renders it
    (:func:`judgestats.report.report`).

    Attributes
    ----------
    distribution : DistributionCorrection
        The whole fit: θ̂ over human 0 and 1, the letters' matrix, both intervals.

    Examples
    --------
    What :func:`judgestats.evaluate` gives a group whose judge answers with letters of its own
    (here a 1–5 score against the humans' pass/fail), every letter used by joint maximum
    likelihood:

    >>> import numpy as np
    >>> import pandas as pd
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> human = rng.random(3000) < 0.6
    >>> score = np.where(human, rng.choice([1, 2, 3, 4, 5], 3000, p=[0.05, 0.1, 0.2, 0.3, 0.35]),
    ...                  rng.choice([1, 2, 3, 4, 5], 3000, p=[0.35, 0.3, 0.2, 0.1, 0.05]))
    >>> frame = pd.DataFrame({"model": "a", "score": score,
    ...                       "human": np.where(np.arange(3000) < 600, human, np.nan)})
    >>> ev = js.evaluate(frame, judge="score", judge_labels="observed", confidence_level=0.95)
    >>> res = ev.corrections["a"]
    >>> res  # doctest: +NORMALIZE_WHITESPACE
    AlphabetCorrection(estimate=0.6562, ci=[0.5886, 0.7236], method='profile-likelihood-t',
    letters=[1, 2, 3, 4, 5], confidence_level=0.95, design='by-human-label', n=2400, m0=255,
    m1=345)
    >>> round(float(human[600:].mean()), 3)  # the test rows' human rate, known here
    0.615
    """

    kind: ClassVar[str] = "alphabet"
    distribution: DistributionCorrection

    @property
    def estimate(self) -> float:
        """θ̂ = P̂(human = 1), the joint maximum-likelihood estimate."""
        return float(self.distribution.estimate[1])

    @property
    def ci(self) -> ConfidenceInterval:
        """Interval for θ at ``confidence_level``."""
        return self.distribution.ci[1]

    method = forward("distribution.method", "Interval method.")
    confidence_level = forward("distribution.confidence_level", "Two-sided level of ``ci``.")
    design = forward("distribution.design", "How the calibration items were chosen.")
    n = forward("distribution.n", "Test items.")

    m0 = forward("distribution.human_counts", "Calibration items of human label 0.", index=0,
                 cast=int)  # fmt: skip
    m1 = forward("distribution.human_counts", "Calibration items of human label 1.", index=1,
                 cast=int)  # fmt: skip

    @property
    def naive(self) -> float:
        """The judge's own rate: the share of test items with letter 1, or NaN.

        Defined only when the letters are the human categories 0 and 1, with at most an
        ``"invalid"`` letter besides (counted in the denominator); a score's ``1`` or a pair
        of two judges' letters is no verdict "1", so NaN there.
        """
        if not {0, 1} <= set(self.letters) <= {0, 1, INVALID}:
            return float("nan")
        return float(self.distribution.naive[1])

    @property
    def letters(self) -> tuple:
        """The judge alphabet of this result."""
        return tuple(self.distribution.calibration.judge_labels)

    @property
    def estimator(self) -> str:
        """Name of the point estimate."""
        design = self.distribution.design
        base = _ESTIMATORS.get(design.family, design.estimator)
        return f"{base} over {len(self.letters)} judge letters"

    sensitivity = None
    specificity = None
    clipped = False

    @property
    def estimate_unclipped(self) -> float:
        """The estimate (a maximum-likelihood estimate on [0, 1] is never clipped)."""
        return self.estimate

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python row (JSON-serialisable), as :meth:`Correction.to_dict` for a rate."""
        return {
            "estimate": self.estimate,
            "ci_low": self.ci.low,
            "ci_high": self.ci.high,
            "method": self.method,
            "estimator": self.estimator,
            "design": self.design,
            "confidence_level": self.confidence_level,
            "naive": self.naive,
            "n": self.n,
            "m0": self.m0,
            "m1": self.m1,
            "letters": len(self.letters),
            "alphabet": ", ".join(str(v) for v in self.letters),
            "clipped": False,
            "estimate_unclipped": self.estimate,
        }

    def summary(self) -> str:
        """Return the fit's per-category report (:meth:`DistributionCorrection.summary`)."""
        return self.distribution.summary()

    def __repr__(self) -> str:
        return rate_repr(
            "AlphabetCorrection", estimate=self.estimate, ci=self.ci, method=self.method,
            letters=list(self.letters), confidence_level=self.confidence_level,
            design=self.design, n=self.n, m0=self.m0, m1=self.m1,
        )  # fmt: skip

