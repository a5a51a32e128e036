"""Grouped evaluation of a whole frame — many models, optional strata — on the frame's own engine.

An evaluation table has one row per judged item: the model (or any group) that produced it, the
judge's 0/1 label, a human 0/1 label where one exists, and covariates. The statistics need only
counts, so the O(rows) work is a single grouped count that runs where the data lives; the
corrections then run on the counts, one per group.

How rows are counted
--------------------
Every row gets a small integer *cell code*, computed by the engine:

====  ==========================================================
code  row
====  ==========================================================
0, 1  test row, judge label 0 / 1 (counts ``n`` and ``positive``)
2, 3  calibration row, human 0, judge 0 / 1 (``tn``, ``fp``)
4, 5  calibration row, human 1, judge 0 / 1 (``fn``, ``tp``)
6     judge label missing or not 0/1
7     calibration row whose human label is not 0/1 (or, with ``split=``, missing)
8     ``split=`` value missing or not ``'test'``/``'calibration'``
====  ==========================================================

and the engine returns ``len()`` per (group columns, stratum columns, code): a table of at most
9 × groups × strata rows, whatever the number of items. Rows with codes 6–8 are never
corrected: their presence raises :class:`~judgestats._validation.GroupLabelError` naming the
groups (a second, filtered grouped query fetches the offending values to echo). Without
``split=``, a row whose human label is missing (null, or NaN in a float column) is a test
row and every other row a calibration row. Label columns must be boolean or numeric (checked
on the schema, before any row is read).

Engines
-------
The frame goes through narwhals (the dataframe-agnostic layer, ``judgestats[frames]``):
pandas, polars (eager or lazy; lazy frames are collected with polars' streaming engine),
pyarrow tables and, lazily, DuckDB relations, Dask and PySpark data frames. Lazy frames stay
lazy until the grouped count is collected, so a Parquet scan is never loaded whole.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ._validation import (
    ArgumentTypeError,
    GroupError,
    JudgeStatsError,
    check_column_names,
    check_confidence_level,
    check_distinct_roles,
    check_frame_columns,
    check_group_labels,
    check_group_sizes,
    check_instance,
    check_label_kind,
    check_method,
    check_missing_keys,
    check_option_names,
    check_rng,
    check_sparse_strata,
    check_split_kind,
    describe_group,
    group_error,
)
from .compare import Ranking
from .correct import Correction, correct
from .counts import ConfusionCounts, JudgedCounts
from .intervals import get_method, interval_methods
from .strata import StratifiedCorrection

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    import xarray as xr

__all__ = ["Evaluation", "GroupCounts", "evaluate", "evaluate_counts", "group_counts"]

#: Number of cell codes (module docstring).
N_CODES = 9
_BAD_JUDGE, _BAD_HUMAN, _BAD_SPLIT = 6, 7, 8
_CODE = "__judgestats_code__"
_COUNT = "__judgestats_rows__"
_STRATIFIED_OPTIONS = {"adjusted-wald": (), "wald": (), "bootstrap": ("n_resamples",)}


# ============================================================================ engine access
def _narwhals():
    try:
        import narwhals as nw
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "judgestats.evaluate needs narwhals (the dataframe-agnostic layer): "
            "pip install 'judgestats[frames]'"
        ) from exc
    return nw


@contextmanager
def _engine_warnings() -> Iterator[None]:
    """Silence one known engine warning while judgestats talks to the engine.

    narwhals 2.2x issues a ``FutureWarning`` for every Dask frame ("Dask support is moving out
    of Narwhals and into the separate `narwhals-dask` package"). It concerns narwhals'
    packaging, not the user's data or call, and that package is not published yet, so a
    judgestats user can do nothing about it. Only that message is ignored, only here; every
    other warning passes.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Dask support is moving", category=FutureWarning)
        yield


def _kind(nw: Any, dtype: Any) -> str:
    """Classify a narwhals dtype: "bool", "int" (any non-float number), "float", "str", other."""
    if dtype == nw.Boolean:
        return "bool"
    if dtype.is_float():
        return "float"
    if dtype.is_numeric():
        return "int"
    if dtype == nw.String or isinstance(dtype, nw.Categorical | nw.Enum):
        return "str"
    return "other"


def _label_exprs(nw: Any, column: str, kind: str) -> tuple[Any, Any, Any]:
    """(present, is 1, is 0) expressions of a label column; never null (Kleene-safe)."""
    c = nw.col(column)
    present = ~c.is_null()
    if kind == "float":
        present = present & ~c.is_nan()
    if kind == "bool":
        return present, present & c, present & ~c
    return present, present & (c == 1), present & (c == 0)


def _code_expr(nw: Any, *, judge: str, human: str, split: str | None, kinds: dict) -> Any:
    """Build the cell code of every row (module docstring) as an Int8 expression."""
    _, j1, j0 = _label_exprs(nw, judge, kinds["judge"])
    h_present, h1, h0 = _label_exprs(nw, human, kinds["human"])
    i8 = nw.Int8
    if split is None:
        is_cal = h_present
        is_test = ~h_present
    else:
        s = nw.col(split)
        is_cal = ~s.is_null() & (s == "calibration")
        is_test = ~s.is_null() & (s == "test")
    valid = nw.when(is_cal).then(2 + 2 * h1.cast(i8) + j1.cast(i8)).otherwise(j1.cast(i8))
    code = (
        nw.when(~(j1 | j0))
        .then(_BAD_JUDGE)
        .otherwise(nw.when(is_cal & ~(h1 | h0)).then(_BAD_HUMAN).otherwise(valid))
    )
    if split is not None:
        code = nw.when(~(is_cal | is_test)).then(_BAD_SPLIT).otherwise(code)
    return code.cast(i8).alias(_CODE)


def _collect(nw: Any, frame: Any) -> Any:
    if isinstance(frame, nw.LazyFrame):
        if frame.implementation == nw.Implementation.POLARS:
            return frame.collect(engine="streaming")  # bounded memory on a Parquet scan
        return frame.collect()
    return frame


def _plain(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def _is_missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float):
        return math.isnan(v)
    return type(v).__name__ in ("NAType", "NaTType")


def _sort_keys(keys: list[Any]) -> list[Any]:
    try:
        return sorted(keys)
    except TypeError:  # mixed types: a deterministic order all the same
        return sorted(keys, key=lambda k: (type(k).__name__, repr(k)))


def _engine_name(nw: Any, frame: Any) -> str:
    impl = frame.implementation
    return impl.name.lower() if impl != nw.Implementation.UNKNOWN else type(frame).__name__


# ============================================================================ grouped counts
@dataclass(frozen=True, slots=True, eq=False)
class GroupCounts:
    """Grouped cell counts of a frame: the sufficient statistics of every group and stratum.

    Attributes
    ----------
    by, strata : tuple of str
        Group and stratum columns (``strata`` is ``()`` without strata).
    counts : dict
        (by values..., strata values...) → int64 array of the ``N_CODES`` cell counts
        (module docstring), in sorted key order.
    judge, human, split : str, str, str or None
        The columns counted.
    engine : str
        The engine that computed them.
    """

    by: tuple
    strata: tuple
    counts: dict
    judge: str
    human: str
    split: str | None
    engine: str

    def __add__(self, other: GroupCounts) -> GroupCounts:
        """Add the counts of two chunks of one data set (same columns)."""
        check_instance("other", other, GroupCounts)
        mine = (self.by, self.strata, self.judge, self.human, self.split)
        theirs = (other.by, other.strata, other.judge, other.human, other.split)
        if mine != theirs:
            raise JudgeStatsError(
                f"cannot add counts of different columns: {mine!r} and {theirs!r}"
            )
        total = {k: v.copy() for k, v in self.counts.items()}
        for k, v in other.counts.items():
            total[k] = total[k] + v if k in total else v.copy()
        engine = self.engine if self.engine == other.engine else f"{self.engine}+{other.engine}"
        keys = _sort_keys(list(total))
        return GroupCounts(
            self.by,
            self.strata,
            {k: total[k] for k in keys},
            self.judge,
            self.human,
            self.split,
            engine,
        )

    @property
    def groups(self) -> tuple:
        """Group labels in sorted order (a value, or a tuple for several ``by`` columns)."""
        k = len(self.by)
        labels = dict.fromkeys(key[:k] if k > 1 else key[0] for key in self.counts)
        return tuple(_sort_keys(list(labels)))

    def to_dataframe(self) -> pd.DataFrame:
        """One row per (group, stratum): the key columns, then n, positive, tp, fn, tn, fp."""
        import pandas as pd

        rows = []
        for key, c in self.counts.items():
            row = dict(zip(self.by + self.strata, key, strict=True))
            row.update(_named(c))
            rows.append(row)
        return pd.DataFrame(rows)


def _named(c: np.ndarray) -> dict[str, int]:
    return {
        "n": int(c[0] + c[1]),
        "positive": int(c[1]),
        "tp": int(c[5]),
        "fn": int(c[4]),
        "tn": int(c[2]),
        "fp": int(c[3]),
    }


def _schema_kinds(nw: Any, frame: Any, *, judge, human, split, by, strata) -> dict[str, str]:
    schema = frame.collect_schema()
    check_frame_columns(
        list(schema.names()),
        {
            "judge": (judge,),
            "human": (human,),
            "split": () if split is None else (split,),
            "by": by,
            "strata": strata,
        },
    )
    kinds = {"judge": _kind(nw, schema[judge]), "human": _kind(nw, schema[human])}
    check_label_kind("judge", judge, kinds["judge"], str(schema[judge]))
    check_label_kind("human", human, kinds["human"], str(schema[human]))
    if split is not None:
        kinds["split"] = _kind(nw, schema[split])
        check_split_kind(split, kinds["split"], str(schema[split]))
    return kinds


def _rows(k: int, what: str) -> str:
    return f"{k} {what}" + ("" if k == 1 else "s")


def _label_problems(nw, frame, code, bad_groups, *, by, judge, human, split, kinds):
    """Second, filtered grouped query (error path only): echo the offending values."""
    aggs = [nw.len().alias(_COUNT)]
    roles = [("judge", judge), ("human", human)] + ([("split", split)] if split else [])
    for role, col in roles:
        aggs.append(nw.col(col).count().alias(f"{role}__present"))
        if kinds[role] != "bool":
            aggs += [
                nw.col(col).min().alias(f"{role}__min"),
                nw.col(col).max().alias(f"{role}__max"),
            ]
    out = _collect(
        nw,
        frame.with_columns(code)
        .filter(nw.col(_CODE) >= _BAD_JUDGE)
        .group_by(*by, _CODE)
        .agg(*aggs),
    )
    found: dict[tuple, dict] = {}
    for row in out.rows(named=True):
        key = tuple(_plain(row[c]) for c in by)
        found[(key, int(row[_CODE]))] = row
    problems = []
    role_of = {_BAD_JUDGE: "judge", _BAD_HUMAN: "human", _BAD_SPLIT: "split"}
    for key, code_value in bad_groups:
        role = role_of[code_value]
        row = found.get((key, code_value))
        label = describe_group(by, key)
        if row is None:  # pragma: no cover - the two queries saw different data
            problems.append((label, role, "rows with bad values"))
            continue
        rows, present = int(row[_COUNT]), int(row[f"{role}__present"])
        parts = []
        where = "calibration row" if role == "human" else "row"
        if present:
            lo, hi = _plain(row.get(f"{role}__min")), _plain(row.get(f"{role}__max"))
            span = ""
            if lo is not None and lo == hi:
                span = f" ({lo!r})"
            elif lo is not None:
                span = f" (from {lo!r} to {hi!r})"
            parts.append(f"{_rows(present, where)} with other values{span}")
        if rows - present:
            what = "a split value" if role == "split" else f"a {role} label"
            parts.append(f"{_rows(rows - present, where)} without {what}")
        problems.append((label, role, " and ".join(parts)))
    order = {"judge": 0, "split": 1, "human": 2}
    problems.sort(key=lambda p: order[p[1]])
    return problems


def group_counts(
    frame: Any,
    *,
    judge: str = "judge",
    human: str = "human",
    by: Any = ("model",),
    strata: Any = None,
    split: str | None = None,
) -> GroupCounts:
    """Count a frame's test and calibration cells per group (and stratum) on its own engine.

    The counting half of :func:`evaluate`; see it for the arguments. Useful on its own to
    count a data set chunk by chunk (``GroupCounts`` add up with ``+``) before
    :func:`evaluate_counts`.

    Returns
    -------
    GroupCounts

    Raises
    ------
    ColumnError
        A named column is missing (all missing ones are named), a label column is not
        boolean or numeric, the split column does not hold strings, or a group or stratum
        column has missing values.
    GroupLabelError
        A group has judge labels outside 0/1 (or missing), calibration rows whose human label
        is not 0/1, or split values other than ``'test'``/``'calibration'``; the message names
        the groups and echoes the values.
    """
    by_cols = check_column_names("by", by)
    strata_cols = check_column_names("strata", strata, allow_none=True)
    check_instance("judge", judge, str)
    check_instance("human", human, str)
    if split is not None:
        check_instance("split", split, str)
    check_distinct_roles(
        {
            "judge": (judge,),
            "human": (human,),
            "split": () if split is None else (split,),
            "by": by_cols,
            "strata": strata_cols,
        }
    )
    nw = _narwhals()
    with _engine_warnings():
        try:
            nf = nw.from_native(frame)
        except TypeError as exc:
            raise ArgumentTypeError(
                "frame must be a data frame of a supported engine (pandas, polars, pyarrow, "
                f"DuckDB, Dask, PySpark, ...), got {type(frame).__name__}"
            ) from exc
        if not isinstance(nf, nw.DataFrame | nw.LazyFrame):
            raise ArgumentTypeError(f"frame must be a data frame, got {type(frame).__name__}")
        kinds = _schema_kinds(
            nw, nf, judge=judge, human=human, split=split, by=by_cols, strata=strata_cols
        )
        keys = by_cols + strata_cols
        code = _code_expr(nw, judge=judge, human=human, split=split, kinds=kinds)
        grouped = nf.with_columns(code).group_by(*keys, _CODE).agg(nw.len().alias(_COUNT))
        rows = _collect(nw, grouped).rows()
        engine = _engine_name(nw, nf)

        counts: dict[tuple, np.ndarray] = {}
        missing = dict.fromkeys(keys, 0)
        bad: dict[tuple, set] = {}
        for row in rows:
            key = tuple(_plain(v) for v in row[: len(keys)])
            cell, rows_in_cell = int(row[len(keys)]), int(row[len(keys) + 1])
            gaps = [c for c, v in zip(keys, key, strict=True) if _is_missing(v)]
            if gaps:
                for c in gaps:
                    missing[c] += rows_in_cell
                continue
            if cell >= _BAD_JUDGE:
                bad.setdefault(key[: len(by_cols)], set()).add(cell)
            counts.setdefault(key, np.zeros(N_CODES, dtype=np.int64))[cell] += rows_in_cell
        check_missing_keys(missing)
        if bad:
            pairs = [(g, c) for g in _sort_keys(list(bad)) for c in sorted(bad[g])]
            check_group_labels(
                _label_problems(
                    nw,
                    nf,
                    code,
                    pairs,
                    by=by_cols,
                    judge=judge,
                    human=human,
                    split=split,
                    kinds=kinds,
                )
            )
    ordered = {k: counts[k] for k in _sort_keys(list(counts))}
    return GroupCounts(by_cols, strata_cols, ordered, judge, human, split, engine)


# ============================================================================ corrections
def _check_method(method: str, stratified: bool, options: dict) -> None:
    if stratified:
        from .strata import STRATIFIED_METHODS

        check_method(method, STRATIFIED_METHODS, capability="stratified corrections")
        allowed = ("weights", "min_per_class", "merge", *_STRATIFIED_OPTIONS[method])
        check_option_names(f"stratified method {method!r}", options, allowed)
    else:
        check_method(method, interval_methods(), capability="corrections")
        check_option_names(f"method {method!r}", options, get_method(method).options)


def _group_key(key: tuple, k: int) -> Any:
    return key[0] if k == 1 else key[:k]


def _stratum_key(key: tuple, k: int) -> Any:
    rest = key[k:]
    return rest[0] if len(rest) == 1 else rest


def _correct_one(group_counts_, label, split, *, method, level, gen, options):
    """Correction of one group: ``group_counts_`` maps stratum (or None) → cell counts."""
    total = sum(group_counts_.values())
    check_group_sizes(
        label,
        n=int(total[0] + total[1]),
        m0=int(total[2] + total[3]),
        m1=int(total[4] + total[5]),
        split=split,
    )
    if list(group_counts_) == [None]:
        c = _named(total)
        return correct(
            JudgedCounts(positive=c["positive"], n=c["n"]),
            ConfusionCounts(tp=c["tp"], fn=c["fn"], tn=c["tn"], fp=c["fp"]),
            method=method,
            confidence_level=level,
            rng=gen,
            **options,
        )
    from .strata import correct_stratified

    named = {s: _named(c) for s, c in group_counts_.items()}
    present = {
        s: (c["tn"] + c["fp"], c["tp"] + c["fn"])
        for s, c in named.items()
        if c["tp"] + c["fn"] + c["tn"] + c["fp"]
    }
    check_sparse_strata(
        present, 1, fix="merge each such stratum into another (merge={stratum: other})"
    )
    tests = {s: JudgedCounts(positive=c["positive"], n=c["n"]) for s, c in named.items() if c["n"]}
    cals = {
        s: ConfusionCounts(tp=c["tp"], fn=c["fn"], tn=c["tn"], fp=c["fp"])
        for s, c in named.items()
        if s in present
    }
    return correct_stratified(
        tests, cals, method=method, confidence_level=level, rng=gen, **options
    )


def evaluate_counts(
    counts: GroupCounts,
    *,
    method: str = "adjusted-wald",
    confidence_level: float = 0.95,
    rank: bool = False,
    rng: Any = None,
    **options: Any,
) -> Evaluation:
    """Correct every group of a :class:`GroupCounts` (the second half of :func:`evaluate`).

    Arguments and result as in :func:`evaluate`.
    """
    check_instance("counts", counts, GroupCounts)
    return _evaluate_counts(
        counts,
        method=method,
        confidence_level=confidence_level,
        rank=rank,
        rng=rng,
        stacklevel=3,
        options=options,
    )


def _evaluate_counts(counts, *, method, confidence_level, rank, rng, stacklevel, options):
    stratified = bool(counts.strata)
    _check_method(method, stratified, options)
    level = check_confidence_level(confidence_level)
    gen = check_rng(rng)
    if rank and stratified:
        raise JudgeStatsError(
            "rank=True needs unstratified corrections (one calibration set per group); "
            "drop strata= or rank the groups yourself"
        )
    k = len(counts.by)
    per_group: dict[Any, dict] = {}
    for key, c in counts.counts.items():
        stratum = _stratum_key(key, k) if stratified else None
        per_group.setdefault(_group_key(key, k), {})[stratum] = c
    groups = _sort_keys(list(per_group))
    if not groups:
        raise JudgeStatsError("the frame has no rows: nothing to evaluate")
    corrections: dict[Any, Correction | StratifiedCorrection] = {}
    issued: dict[Any, tuple] = {}
    for g in groups:
        label = describe_group(counts.by, g)
        try:
            with warnings.catch_warnings(record=True) as caught:
                # local: each warning is re-issued below with the group named, and kept
                # on the result for the report
                warnings.simplefilter("always")
                corrections[g] = _correct_one(
                    per_group[g],
                    label,
                    counts.split,
                    method=method,
                    level=level,
                    gen=gen,
                    options=options,
                )
        except GroupError:  # names its group already
            raise
        except JudgeStatsError as exc:
            raise group_error(exc, label) from exc
        issued[g] = tuple((w.category.__name__, str(w.message)) for w in caught)
        for w in caught:
            warnings.warn(f"group {label}: {w.message}", w.category, stacklevel=stacklevel)
    ranking = None
    if rank:
        if len(groups) < 2:
            raise JudgeStatsError(
                f"rank=True needs at least two groups, got {len(groups)} ({groups!r})"
            )
        ranking = _rank(corrections, groups, method="bootstrap", reps=10_000, level=level, rng=gen)
    return Evaluation(
        groups=tuple(groups),
        corrections=corrections,
        by=counts.by,
        strata=counts.strata or None,
        method=method,
        confidence_level=level,
        judge=counts.judge,
        human=counts.human,
        split=counts.split,
        engine=counts.engine,
        warnings=issued,
        ranking=ranking,
    )


def evaluate(
    frame: Any,
    *,
    judge: str = "judge",
    human: str = "human",
    by: Any = ("model",),
    strata: Any = None,
    split: str | None = None,
    method: str = "adjusted-wald",
    confidence_level: float = 0.95,
    rank: bool = False,
    rng: Any = None,
    **options: Any,
) -> Evaluation:
    """Correct the judged rate of every group of a frame, counting on the frame's own engine.

    Rows with a human label form each group's calibration set and rows without one its test
    set (or an explicit ``split=`` column says which is which). One grouped count runs on the
    frame's engine — no rows are collected into Python — and each group is then corrected by
    :func:`judgestats.correct` (or, with ``strata``, :func:`judgestats.correct_stratified`).

    Parameters
    ----------
    frame : data frame
        pandas, polars (eager or lazy), pyarrow table, DuckDB relation, Dask or PySpark data
        frame, or a narwhals frame: one row per judged item.
    judge : str, default "judge"
        Column of the judge's labels: 0/1 (numbers) or booleans, on every row.
    human : str, default "human"
        Column of the human labels, 0/1 or booleans. Without ``split``, a missing value (null,
        or NaN in a float column) marks a test row.
    by : str or tuple of str, default ("model",)
        Group column(s): one correction per distinct value (tuple of values for several).
    strata : str or tuple of str, optional
        Stratum column(s) within each group: a stratified correction per group (one
        confusion matrix per stratum, pooled by the test mix; see
        :func:`judgestats.correct_stratified`).
    split : str, optional
        Column of ``'test'``/``'calibration'`` values; then test rows' human labels are
        ignored (a hidden truth, as in a benchmark) and calibration rows need one.
    method : str, default "adjusted-wald"
        Interval method: any name in :func:`judgestats.interval_methods` (without strata) or
        ``"adjusted-wald"``, ``"wald"``, ``"bootstrap"`` (with strata).
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    rank : bool, default False
        Also rank the groups jointly (parametric bootstrap over every count, 10,000 draws;
        :func:`judgestats.compare.rank`); stored as ``result.ranking``. Needs unstratified
        corrections and at least two groups.
    rng : None, int, SeedSequence or Generator
        Randomness for resampling methods and the ranking; groups are corrected in sorted
        order, so a seed gives the same result on every engine.
    **options
        Passed to the correction: interval options (``n_resamples``), and with strata
        ``weights``, ``min_per_class``, ``merge``.

    Returns
    -------
    Evaluation
        One :class:`Correction` (or :class:`StratifiedCorrection`) per group, with
        ``to_dataframe()``, ``to_xarray()``, ``plot()``, ``rank()`` and ``report()``.

    Raises
    ------
    ColumnError
        Missing columns (all named), label columns that are not boolean or numeric, or
        missing group values.
    GroupLabelError
        Labels outside 0/1 (or a bad split value) in some group: the message names the
        groups and echoes the values, counted by the engine.
    EmptyGroupError
        A group (or stratum) without test rows, without calibration rows, or whose
        calibration rows all have one human label.
    NotInformativeError, SparseStratumError, StrataMismatchError
        From a group's correction, with the group named.
    MethodError, ConfidenceLevelError, ArgumentTypeError
        On a bad method, level or option (checked before the data are touched).

    Warns
    -----
    ClippedEstimateWarning, SamplingWarning
        From a group's correction, re-issued with the group named (and kept in
        ``result.warnings``).

    Examples
    --------
    >>> import pandas as pd
    >>> import judgestats as js
    >>> frame = pd.DataFrame({
    ...     "model": ["a"] * 6 + ["b"] * 6,
    ...     "judge": [1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0],
    ...     "human": [1, 0, 0, 1, None, None, 1, 0, 1, 0, None, None],
    ... })
    >>> ev = js.evaluate(frame)
    >>> ev.groups
    ('a', 'b')
    """
    _check_method(method, strata is not None, options)
    check_confidence_level(confidence_level)
    check_rng(rng)
    counts = group_counts(frame, judge=judge, human=human, by=by, strata=strata, split=split)
    return _evaluate_counts(
        counts,
        method=method,
        confidence_level=confidence_level,
        rank=rank,
        rng=rng,
        stacklevel=3,
        options=options,
    )


# ============================================================================ presentation
# (Evaluation in results.py delegates here, so results.py stays small)
def group_label(group: Any) -> str:
    """Text label of a group: the value, or values joined by " / " for several columns."""
    return " / ".join(str(v) for v in group) if isinstance(group, tuple) else str(group)


def evaluation_lookup(ev: Evaluation, group: Any) -> Correction | StratifiedCorrection:
    """``ev[group]``: by group value (tuple for several columns) or by its text label."""
    if group in ev.corrections:
        return ev.corrections[group]
    for g in ev.groups:
        if group_label(g) == group:
            return ev.corrections[g]
    shown = [group_label(g) for g in ev.groups[:10]]
    raise KeyError(f"no group {group!r}; groups are {shown}{' ...' if len(ev) > 10 else ''}")


def _rank(corrections, groups, *, method, reps, level, rng) -> Ranking:
    from .compare import rank

    if any(isinstance(corrections[g], StratifiedCorrection) for g in groups):
        raise JudgeStatsError("ranking needs unstratified corrections (evaluate without strata=)")
    tests = {group_label(g): corrections[g].test for g in groups}
    cals = {group_label(g): corrections[g].calibration for g in groups}
    return rank(tests, cals, method=method, reps=reps, confidence_level=level, rng=rng)


def evaluation_rank(ev: Evaluation, *, method: str, reps: int, rng: Any) -> Ranking:
    """Joint ranking of an :class:`Evaluation`'s groups (models named by their labels)."""
    return _rank(
        ev.corrections, ev.groups, method=method, reps=reps, level=ev.confidence_level, rng=rng
    )


def _stratified_row(r: StratifiedCorrection) -> dict[str, Any]:
    cs = [r.corrections[s] for s in r.strata]
    tot = {f: int(sum(getattr(c.calibration, f) for c in cs)) for f in ("tp", "fn", "tn", "fp")}
    return {
        "estimate": r.estimate,
        "ci_low": r.ci.low,
        "ci_high": r.ci.high,
        "method": r.method,
        "confidence_level": r.confidence_level,
        "naive": r.naive,
        "sensitivity": tot["tp"] / (tot["tp"] + tot["fn"]),
        "specificity": tot["tn"] / (tot["tn"] + tot["fp"]),
        "n": r.n,
        "positive": int(sum(c.test.positive for c in cs)),
        "m0": r.m0,
        "m1": r.m1,
        **tot,
        "clipped": r.clipped,
        "estimate_unclipped": r.estimate_unclipped,
        "strata": r.k,
        "weights_source": r.weights_source,
    }


def result_row(c: Correction | StratifiedCorrection) -> dict[str, Any]:
    """Tidy row of one group's result.

    For a stratified result: the pooled values, with the calibration sensitivity and
    specificity of the counts summed over strata.
    """
    return _stratified_row(c) if isinstance(c, StratifiedCorrection) else c.to_dict()


def _by_values(ev: Evaluation, g: Any) -> dict[str, Any]:
    values = g if len(ev.by) > 1 else (g,)
    return dict(zip(ev.by, values, strict=True))


def evaluation_frame(ev: Evaluation) -> pd.DataFrame:
    """One tidy row per group (pandas DataFrame)."""
    import pandas as pd

    return pd.DataFrame([{**_by_values(ev, g), **result_row(ev.corrections[g])} for g in ev.groups])


def evaluation_counts_frame(ev: Evaluation) -> pd.DataFrame:
    """Count table behind every correction: one row per group (and stratum, after merging)."""
    import pandas as pd

    rows = []
    for g in ev.groups:
        c = ev.corrections[g]
        parts = (
            [(s, c.corrections[s]) for s in c.strata]
            if isinstance(c, StratifiedCorrection)
            else [(None, c)]
        )
        for s, part in parts:
            row = _by_values(ev, g)
            if s is not None:
                values = s if isinstance(s, tuple) and len(ev.strata) > 1 else (s,)
                row.update(zip(ev.strata, values, strict=True))
            t, cal = part.test, part.calibration
            row.update(n=t.n, positive=t.positive, tp=cal.tp, fn=cal.fn, tn=cal.tn, fp=cal.fp)
            rows.append(row)
    return pd.DataFrame(rows)


def evaluation_xarray(ev: Evaluation) -> xr.Dataset:
    """Build the Dataset of :meth:`Evaluation.to_xarray` (dims ``ev.dim``, ``ci_bound``)."""
    import xarray as xr

    dim = ev.dim
    rows = [result_row(ev.corrections[g]) for g in ev.groups]
    names = ("estimate", "estimate_unclipped", "naive", "sensitivity", "specificity")
    data: dict[str, Any] = {k: (dim, [float(r[k]) for r in rows]) for k in names}
    data.update({k: (dim, [int(r[k]) for r in rows]) for k in ("n", "m0", "m1")})
    data["clipped"] = (dim, [bool(r["clipped"]) for r in rows])
    data["ci"] = ((dim, "ci_bound"), [[r["ci_low"], r["ci_high"]] for r in rows])
    coords: dict[str, Any] = {"ci_bound": ["lower", "upper"]}
    if len(ev.by) == 1:
        coords[dim] = list(ev.groups)
    else:
        coords[dim] = [group_label(g) for g in ev.groups]
        for i, col in enumerate(ev.by):
            coords[col] = (dim, [g[i] for g in ev.groups])
    ds = xr.Dataset(data, coords=coords)
    ds.attrs.update(
        ci_kind=ev.method,
        ci_prob=ev.confidence_level,
        by=", ".join(ev.by),
        strata=", ".join(ev.strata or ()),
        judge=ev.judge,
        human=ev.human,
        split=ev.split or "",
        engine=ev.engine,
    )
    return ds


def evaluation_summary(ev: Evaluation) -> str:
    """Short text leaderboard of an :class:`Evaluation` (best corrected rate first)."""
    lvl = f"{100 * ev.confidence_level:g}%"
    labels = {g: group_label(g) for g in ev.groups}
    width = max(8, *(len(v) for v in labels.values()))
    strata = f", stratified by {', '.join(ev.strata)}" if ev.strata else ""
    lines = [
        f"Corrected rates of {len(ev)} groups by {', '.join(ev.by)}{strata} ({ev.engine} "
        f"counts), {lvl} intervals by {ev.method}",
        f"  {ev.dim:<{width}}  corrected  [ lower,  upper]   naive        n     m0     m1",
    ]
    order = sorted(ev.groups, key=lambda g: -ev.corrections[g].estimate)
    for g in order:
        c = ev.corrections[g]
        lines.append(
            f"  {labels[g]:<{width}}  {c.estimate:9.4f}  [{c.ci.low:.4f}, {c.ci.high:.4f}]  "
            f"{c.naive:.4f}  {c.n:>7}  {c.m0:>5}  {c.m1:>5}"
        )
    notes = [(g, msg) for g in ev.groups for _, msg in ev.warnings.get(g, ())]
    lines += [f"  note: {labels[g]}: {msg}" for g, msg in notes]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True, eq=False)
class Evaluation:
    """Corrected rates of every group of a frame, from :func:`judgestats.evaluate`.

    One :class:`Correction` per group (or one :class:`StratifiedCorrection` per group when
    ``strata`` were given), all computed from grouped counts that the frame's own engine
    produced. The presentation helpers live in :mod:`judgestats.evaluate` and
    :mod:`judgestats.report`; this class delegates to them.

    Attributes
    ----------
    groups : tuple
        Group labels in sorted order: the value of the ``by`` column, or a tuple of values
        when ``by`` names several columns. Every dict below is keyed by them.
    corrections : dict
        Group → :class:`Correction` (or :class:`StratifiedCorrection`).
    by : tuple of str
        The group column(s).
    strata : tuple of str or None
        The stratum column(s) within each group, or None.
    method, confidence_level
        How every interval was computed.
    judge, human, split : str, str, str or None
        The label columns and the split column (None: a missing human label marks a test
        row).
    engine : str
        The engine that computed the grouped counts (``"polars"``, ``"duckdb"``, ...).
    warnings : dict
        Group → tuple of ``(warning class name, message)`` issued while correcting that group
        (they were also re-issued, naming the group). Reports list them.
    ranking : Ranking or None
        Joint ranking of the groups (``evaluate(..., rank=True)``), else None.
    """

    kind: ClassVar[str] = "evaluation"

    groups: tuple
    corrections: dict
    by: tuple
    strata: tuple | None
    method: str
    confidence_level: float
    judge: str
    human: str
    split: str | None
    engine: str
    warnings: dict
    ranking: Ranking | None = None

    # -- access --------------------------------------------------------------------------
    def __getitem__(self, group: Any) -> Correction | StratifiedCorrection:

        return evaluation_lookup(self, group)

    def __len__(self) -> int:
        return len(self.groups)

    def __iter__(self):
        return iter(self.groups)

    @property
    def dim(self) -> str:
        """Name of the group dimension: the ``by`` column, or ``"group"`` for several."""
        return self.by[0] if len(self.by) == 1 else "group"

    @property
    def estimate(self) -> dict:
        """Group → corrected estimate."""
        return {g: self.corrections[g].estimate for g in self.groups}

    def label(self, group: Any) -> str:
        """Text label of a group (``"a / x"`` for several ``by`` columns)."""
        return group_label(group)

    # -- recomputation ------------------------------------------------------------------
    def rank(self, *, method: str = "bootstrap", reps: int = 10_000, rng: Any = None) -> Ranking:
        """Rank the groups jointly (:func:`judgestats.compare.rank` on their counts).

        Needs unstratified corrections and at least two groups; the level is the
        evaluation's ``confidence_level``. Models are named by :meth:`label`.
        """
        return evaluation_rank(self, method=method, reps=reps, rng=rng)

    # -- presentation --------------------------------------------------------------------
    def to_dataframe(self) -> pd.DataFrame:
        """One tidy row per group: the ``by`` columns, then the correction's columns."""
        return evaluation_frame(self)

    def counts_dataframe(self) -> pd.DataFrame:
        """Return the counts the corrections used (one row per group, or group × stratum)."""
        return evaluation_counts_frame(self)

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset with dims (``dim``, ``ci_bound``) in ArviZ's layout.

        Variables ``estimate``, ``estimate_unclipped``, ``naive``, ``sensitivity``,
        ``specificity``, ``n``, ``m0``, ``m1``, ``clipped`` (dim ``dim``) and ``ci`` (dims
        ``dim``, ``ci_bound = ["lower", "upper"]``); attrs ``ci_kind``, ``ci_prob`` and the
        columns used.
        """
        return evaluation_xarray(self)

    def plot(self, *, ax: Any = None, show_naive: bool = True):
        """Leaderboard: corrected rates with intervals, best at the top (returns the Axes)."""
        from .report import plot_leaderboard

        return plot_leaderboard(self, ax=ax, show_naive=show_naive)

    def report(self, format: str = "markdown", **kw: Any) -> str:
        """Table, methods sentence and notes (HTML: with the figure); see ``report.report``."""
        from .report import report

        return report(self, format=format, **kw)

    def summary(self) -> str:
        """Return a short human-readable leaderboard."""
        return evaluation_summary(self)

    def __repr__(self) -> str:
        top = ", ".join(
            f"{self.label(g)}={self.corrections[g].estimate:.3f}" for g in self.groups[:6]
        )
        more = f", ... ({len(self.groups)} groups)" if len(self.groups) > 6 else ""
        return (
            f"Evaluation({top}{more}; by={list(self.by)!r}, method={self.method!r}, "
            f"confidence_level={self.confidence_level:g}, engine={self.engine!r})"
        )

