"""Frame → counts: the grouped count of test and calibration cells on the frame's own engine.

The statistics need only counts, so the O(rows) work is a single grouped count that runs where
the data lives (:func:`group_counts`); :func:`judgestats.evaluate` and
:func:`judgestats.strata.stratified_counts` correct the counts.

How rows are counted
--------------------
Every row has a small integer *cell code*:

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

The code is a function of a row's label values, so the engine counts in two stages
(:func:`_cell_counts`): first its own grouped count of the distinct (group columns, stratum
columns, judge, human[, split]) values — the one pass over every row, the query one would
write by hand — then, on that small table, the code of each distinct value and the sum of
the counts per (group columns, stratum columns, code). Only this last table reaches Python:
at most 9 rows per group and stratum (8 without ``split=``, 6 when every label is valid),
whatever the number of items. Rows with codes 6–8 are never corrected: their presence raises
:class:`~judgestats._validation.GroupLabelError` naming the groups (a second, filtered
grouped query, run only then, fetches the offending values to echo). Without ``split=``, a
row whose human label is missing (null, or NaN in a float column) is a test row and every
other row a calibration row. Label columns must be boolean or numeric (checked on the
schema, before any row is read).

Engines
-------
The frame goes through narwhals (the dataframe-agnostic layer, ``judgestats[frames]``):
pandas, polars (eager or lazy; lazy frames are collected with polars' streaming engine),
pyarrow tables and, lazily, DuckDB relations, Dask and PySpark data frames. Lazy frames stay
lazy until the grouped count is collected, so a Parquet scan is never loaded whole.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    check_column_names,
    check_distinct_roles,
    check_frame_columns,
    check_group_labels,
    check_instance,
    check_label_kind,
    check_missing_keys,
    check_one_key_type,
    check_split_kind,
    check_unique_columns,
    describe_group,
    is_missing,
)
from .counts import ConfusionCounts, JudgedCounts
from .counts.clusters import ClusterTotals
from .results import group_label, lookalike_labels

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["N_CODES", "GroupCounts", "counts_of", "group_counts", "named_counts", "sort_keys"]

#: Number of cell codes (module docstring).
N_CODES = 9
_BAD_JUDGE, _BAD_HUMAN, _BAD_SPLIT = 6, 7, 8
_CODE = "__judgestats_code__"
_COUNT = "__judgestats_rows__"


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


def _label_exprs(nw: Any, column: str, kind: str) -> tuple[Any, Any]:
    """(is 1, is 0) expressions of a label column; never null (Kleene-safe).

    A missing value (null, or NaN in a float column) is neither: NaN compares unequal to
    both, and a null comparison is filled with False.
    """
    c = nw.col(column)
    if kind == "bool":
        return c.fill_null(False), (~c).fill_null(False)
    return (c == 1).fill_null(False), (c == 0).fill_null(False)


def _present(nw: Any, column: str, kind: str) -> Any:
    """Expression: the label is there (not null, and not NaN in a float column)."""
    c = nw.col(column)
    present = ~c.is_null()
    return present & ~c.is_nan() if kind == "float" else present


def _code_expr(nw: Any, *, judge: str, human: str, split: str | None, kinds: dict) -> Any:
    """Build the cell code of every row (module docstring) as an Int8 expression.

    The count applies it to the distinct (keys, labels) rows of the first stage
    (:func:`_cell_counts`), not to every row; only the error path (:func:`_label_problems`)
    codes every row. It is kept small all the same: narwhals builds it afresh for each call.
    """
    j1, j0 = _label_exprs(nw, judge, kinds["judge"])
    h1, h0 = _label_exprs(nw, human, kinds["human"])
    i8 = nw.Int8
    if split is None:
        is_cal = _present(nw, human, kinds["human"])
    else:
        s = nw.col(split)
        is_cal = (s == "calibration").fill_null(False)
        is_test = (s == "test").fill_null(False)
    # test rows: the judge label (0, 1); calibration rows: 2 + 2 × human + judge (2 to 5)
    valid = j1.cast(i8) + is_cal.cast(i8) * (h1.cast(i8) * 2 + 2)
    code = (
        nw.when(~(j1 | j0))
        .then(_BAD_JUDGE)
        .otherwise(nw.when(is_cal & ~(h1 | h0)).then(_BAD_HUMAN).otherwise(valid))
    )
    if split is not None:
        code = nw.when(~(is_cal | is_test)).then(_BAD_SPLIT).otherwise(code)
    return code.cast(i8).alias(_CODE)


def _cell_counts(nw: Any, frame: Any, keys: tuple, spec: dict) -> Any:
    """Count a frame's cells: a lazy table of (keys, cell code, rows), not yet collected.

    Two stages, both on the frame's engine. The first is the engine's own grouped count of
    the distinct (keys, judge, human[, split]) values: the only pass over every row, the same
    query a user would write by hand, with no per-row expression. The second codes each of
    its rows (:func:`_code_expr`) and adds the counts per (keys, code), so at most
    ``N_CODES`` rows per group and stratum leave the engine. Coding the distinct values
    instead of every row gives the same counts: the code is a function of the label values.
    """
    labels = (spec["judge"], spec["human"]) + (() if spec["split"] is None else (spec["split"],))
    first = frame.group_by(*keys, *labels).agg(nw.len().alias(_COUNT))
    if first.implementation == nw.Implementation.DASK:
        native = first.to_native()
        # Dask's grouped result is one partition (its default split_out=1): the second stage
        # runs as one pandas task on it, which costs Dask a fraction of the graph that the
        # same narwhals expressions build on a Dask frame (about 0.1 s per call)
        if native.npartitions == 1:
            import pandas as pd

            empty = pd.DataFrame({c: pd.Series(dtype=t) for c, t in native.dtypes.items()})
            meta = _pandas_cell_counts(empty, keys, spec)
            return nw.from_native(native.map_partitions(_pandas_cell_counts, keys, spec, meta=meta))
    return _coded_counts(nw, first, keys, spec)


def _coded_counts(nw: Any, first: Any, keys: tuple, spec: dict) -> Any:
    """Second stage: code each first-stage row, add the row counts per (keys, code)."""
    code = _code_expr(nw, **spec)
    return first.with_columns(code).group_by(*keys, _CODE).agg(nw.col(_COUNT).sum())


def _pandas_cell_counts(first: Any, keys: tuple, spec: dict) -> Any:
    """Run the second stage on a pandas partition (Dask's map_partitions; picklable)."""
    nw = _narwhals()
    return _coded_counts(nw, nw.from_native(first), keys, spec).to_native()


def _collect(nw: Any, frame: Any) -> Any:
    if isinstance(frame, nw.LazyFrame):
        if frame.implementation == nw.Implementation.POLARS:
            return frame.collect(engine="streaming")  # bounded memory on a Parquet scan
        return frame.collect()
    return frame


def _plain(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def sort_keys(keys: list[Any]) -> list[Any]:
    """Sorted group keys (mixed types: by type name, then repr)."""
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
    cluster : str or None
        The item column when items repeat (``cluster=``), else None.
    clusters : dict or None
        With ``cluster``: (by values..., strata values...) → (item ids, int64 array of shape
        (items, ``N_CODES``)), each item's cell counts (in order of the ids).
    """

    by: tuple
    strata: tuple
    counts: dict
    judge: str
    human: str
    split: str | None
    engine: str
    cluster: str | None = None
    clusters: dict | None = None

    def __add__(self, other: GroupCounts) -> GroupCounts:
        """Add the counts of two chunks of one data set (same columns)."""
        check_instance("other", other, GroupCounts)
        mine = (self.by, self.strata, self.judge, self.human, self.split, self.cluster)
        theirs = (other.by, other.strata, other.judge, other.human, other.split, other.cluster)
        if mine != theirs:
            raise JudgeStatsError(
                f"cannot add counts of different columns: {mine!r} and {theirs!r}"
            )
        total = {k: v.copy() for k, v in self.counts.items()}
        for k, v in other.counts.items():
            total[k] = total[k] + v if k in total else v.copy()
        engine = self.engine if self.engine == other.engine else f"{self.engine}+{other.engine}"
        keys = sort_keys(list(total))
        clusters = None
        if self.clusters is not None and other.clusters is not None:
            clusters = {k: _add_items(self.clusters.get(k), other.clusters.get(k)) for k in keys}
        return GroupCounts(
            self.by,
            self.strata,
            {k: total[k] for k in keys},
            self.judge,
            self.human,
            self.split,
            engine,
            self.cluster,
            clusters,
        )

    @property
    def groups(self) -> tuple:
        """Group labels in sorted order (a value, or a tuple for several ``by`` columns)."""
        k = len(self.by)
        labels = dict.fromkeys(key[:k] if k > 1 else key[0] for key in self.counts)
        return tuple(sort_keys(list(labels)))

    def to_dataframe(self) -> pd.DataFrame:
        """One row per (group, stratum): the key columns, then n, positive, tp, fn, tn, fp."""
        import pandas as pd

        rows = []
        for key, c in self.counts.items():
            row = dict(zip(self.by + self.strata, key, strict=True))
            row.update(named_counts(c))
            rows.append(row)
        return pd.DataFrame(rows)


def _add_items(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """Per-item cell counts of two chunks added (an item in both adds up)."""
    if a is None or b is None:
        return a if b is None else b
    index = {v: i for i, v in enumerate(a[0].tolist())}
    extra = [v for v in b[0].tolist() if v not in index]
    ids = np.empty(len(index) + len(extra), dtype=object)
    ids[:] = a[0].tolist() + extra
    index.update({v: len(a[0]) + i for i, v in enumerate(extra)})
    totals = np.zeros((ids.size, N_CODES), dtype=np.int64)
    totals[: len(a[0])] += a[1]
    np.add.at(totals, [index[v] for v in b[0].tolist()], b[1])
    return ids, totals


def named_counts(c: np.ndarray) -> dict[str, int]:
    """n, positive, tp, fn, tn, fp of one cell-code array."""
    return {
        "n": int(c[0] + c[1]),
        "positive": int(c[1]),
        "tp": int(c[5]),
        "fn": int(c[4]),
        "tn": int(c[2]),
        "fp": int(c[3]),
    }


#: ``pandas.api.types.infer_dtype`` answers (missing values skipped) that mean one kind of
#: key value for :func:`~judgestats._validation.check_one_key_type`: all strings, all bytes,
#: all booleans, or all numbers (``bool`` excluded: pandas calls 1 and True "mixed-integer").
_ONE_KIND = frozenset(
    ("string", "bytes", "boolean", "integer", "floating", "mixed-integer-float", "decimal",
     "complex", "empty")
)  # fmt: skip


def _check_native_columns(frame: Any, keys: tuple) -> None:
    """Before the engine sees it: no duplicate column names; pandas object keys of one type.

    pandas and pyarrow allow duplicate names (the other engines refuse them themselves).
    """
    module = type(frame).__module__
    if module.startswith("pyarrow"):
        check_unique_columns(list(getattr(frame, "column_names", [])))
    if not module.startswith("pandas"):
        return
    from pandas.api.types import infer_dtype

    names = list(frame.columns)
    check_unique_columns(names)
    for c in keys:  # object columns can mix Python types that the engine would merge
        # pandas' compiled type scan first: a column of one kind needs no Python loop
        if c in names and frame[c].dtype == object and infer_dtype(frame[c]) not in _ONE_KIND:
            check_one_key_type(c, list({(type(v), v): v for v in frame[c]}.values()))


def _typed_labels(frame: Any, labels: tuple) -> Any:
    """Type pandas object label columns of booleans (or integers) with gaps as polars does.

    ``[True, False, None]`` is an object column in pandas but a Boolean column in polars and
    DuckDB: every engine then reads it alike (missing values stay missing). Other object
    columns are left to the schema check, which refuses them.
    """
    from pandas.api.types import infer_dtype

    fixes = {}
    for c in labels:
        if c in frame.columns and frame[c].dtype == object:
            kind = infer_dtype(frame[c], skipna=True)
            if kind in ("boolean", "integer"):
                fixes[c] = frame[c].astype("boolean" if kind == "boolean" else "Int64")
    return frame.assign(**fixes) if fixes else frame


def open_frame(nw: Any, frame: Any, keys: tuple, labels: tuple = ()) -> Any:
    """Return the narwhals frame of a user's frame (checked: an engine's frame, clean keys).

    ``labels``: the label columns, typed alike on every engine (:func:`_typed_labels`).
    """
    _check_native_columns(frame, keys)
    if type(frame).__module__.startswith("pandas") and labels:
        frame = _typed_labels(frame, labels)
    try:
        nf = nw.from_native(frame)
    except TypeError as exc:
        raise ArgumentTypeError(
            "frame must be a data frame of a supported engine (pandas, polars, pyarrow, "
            f"DuckDB, Dask, PySpark, ...), got {type(frame).__name__}"
        ) from exc
    if not isinstance(nf, nw.DataFrame | nw.LazyFrame):
        raise ArgumentTypeError(f"frame must be a data frame, got {type(frame).__name__}")
    return nf


def _schema_kinds(
    nw: Any, frame: Any, *, judge, human, split, by, strata, cluster=()
) -> dict[str, str]:
    schema = frame.collect_schema()
    check_frame_columns(
        list(schema.names()),
        {
            "judge": (judge,),
            "human": (human,),
            "split": () if split is None else (split,),
            "by": by,
            "strata": strata,
            "cluster": cluster,
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
    cluster: str | None = None,
) -> GroupCounts:
    """Count a frame's test and calibration cells per group (and stratum) on its own engine.

    The counting half of :func:`evaluate`; see it for the arguments. Useful on its own to
    count a data set chunk by chunk (``GroupCounts`` add up with ``+``) before
    ``js.evaluate(counts)``. With ``cluster=`` (the item column, when items repeat) the engine
    counts the cells per item too: at most groups × items × ``N_CODES`` rows reach Python.

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
    if cluster is not None:
        check_instance("cluster", cluster, str)
    item_cols = () if cluster is None else (cluster,)
    check_distinct_roles(
        {
            "judge": (judge,),
            "human": (human,),
            "split": () if split is None else (split,),
            "by": by_cols,
            "strata": strata_cols,
            "cluster": item_cols,
        }
    )
    nw = _narwhals()
    with _engine_warnings():
        nf = open_frame(nw, frame, by_cols + strata_cols + item_cols, (judge, human))
        kinds = _schema_kinds(
            nw, nf, judge=judge, human=human, split=split, by=by_cols, strata=strata_cols,
            cluster=item_cols,
        )  # fmt: skip
        keys = by_cols + strata_cols
        spec: dict[str, Any] = {"judge": judge, "human": human, "split": split, "kinds": kinds}
        rows = _collect(nw, _cell_counts(nw, nf, keys + item_cols, spec)).rows()
        engine = _engine_name(nw, nf)

        counts: dict[tuple, np.ndarray] = {}
        items: dict[tuple, dict] = {}
        missing = dict.fromkeys(keys + item_cols, 0)
        bad: dict[tuple, set] = {}
        width = len(keys) + len(item_cols)
        for row in rows:
            full = tuple(_plain(v) for v in row[:width])
            key = full[: len(keys)]
            cell, rows_in_cell = int(row[width]), int(row[width + 1])
            gaps = [c for c, v in zip(keys + item_cols, full, strict=True) if is_missing(v)]
            if gaps:
                for c in gaps:
                    missing[c] += rows_in_cell
                continue
            if cell >= _BAD_JUDGE:
                bad.setdefault(key[: len(by_cols)], set()).add(cell)
            counts.setdefault(key, np.zeros(N_CODES, dtype=np.int64))[cell] += rows_in_cell
            if item_cols:
                per_item = items.setdefault(key, {})
                per_item.setdefault(full[-1], np.zeros(N_CODES, dtype=np.int64))[cell] += (
                    rows_in_cell
                )
        check_missing_keys(missing, {**dict.fromkeys(strata_cols, "strata"),
                                     **dict.fromkeys(item_cols, "cluster")})  # fmt: skip
        if bad:
            pairs = [(g, c) for g in sort_keys(list(bad)) for c in sorted(bad[g])]
            check_group_labels(
                _label_problems(
                    nw,
                    nf,
                    _code_expr(nw, **spec),
                    pairs,
                    by=by_cols,
                    judge=judge,
                    human=human,
                    split=split,
                    kinds=kinds,
                )
            )
    ordered = {k: counts[k] for k in sort_keys(list(counts))}
    _warn_lookalikes(by_cols, [key[: len(by_cols)] for key in ordered])
    clusters = None
    if cluster is not None:
        clusters = {k: _item_arrays(items[k]) for k in ordered}
    return GroupCounts(by_cols, strata_cols, ordered, judge, human, split, engine, cluster,
                       clusters)  # fmt: skip


def _warn_lookalikes(by: tuple, keys: list[tuple]) -> None:
    """Warn once when group names differ only in spaces or encoding (``"alpha "``, ``"alpha"``)."""
    from ._validation import LookalikeGroupsWarning

    labels = [group_label(k if len(by) > 1 else k[0]) for k in keys]
    pairs = lookalike_labels(labels)
    if pairs:
        shown = "; ".join(" and ".join(repr(v) for v in p) for p in pairs[:5])
        more = f" (and {len(pairs) - 5} more)" if len(pairs) > 5 else ""
        warnings.warn(
            f"group names that differ only in spaces or encoding are distinct groups: {shown}"
            f"{more}; tables print them quoted. If they are one group, clean the "
            f"{', '.join(by)} column first",
            LookalikeGroupsWarning,
            stacklevel=4,
        )


def _item_arrays(per_item: dict) -> tuple[np.ndarray, np.ndarray]:
    ids = np.empty(len(per_item), dtype=object)
    ids[:] = list(per_item)
    return ids, np.stack(list(per_item.values()))


def counts_of(
    cells: np.ndarray, items: tuple | None = None
) -> tuple[JudgedCounts | None, ConfusionCounts | None]:
    """Return the counts objects of one cell-code array: (test or None, calibration or None).

    None where the group (or stratum) has no test rows, or no calibration rows. ``items``:
    (item ids, their cell counts) from :attr:`GroupCounts.clusters`, for counts of repeated
    items (each keeps its items' totals).
    """
    c = named_counts(cells)
    test_items = cal_items = None
    if items is not None:
        ids, per = items
        t_rows, c_rows = per[:, 0] + per[:, 1] > 0, per[:, 2:6].sum(axis=1) > 0
        test_items = ClusterTotals(ids[t_rows], np.stack([per[t_rows, 1], per[t_rows, 0]
                                                          + per[t_rows, 1]], axis=1),
                                   ("positive", "n"))  # fmt: skip
        cal_items = ClusterTotals(ids[c_rows], per[c_rows][:, [5, 4, 2, 3]],
                                  ("tp", "fn", "tn", "fp"))  # fmt: skip
    test = JudgedCounts(c["positive"], c["n"], clusters=test_items) if c["n"] else None
    has_cal = c["tp"] + c["fn"] + c["tn"] + c["fp"] > 0
    cal = (ConfusionCounts(tp=c["tp"], fn=c["fn"], tn=c["tn"], fp=c["fp"], clusters=cal_items)
           if has_cal else None)  # fmt: skip
    return test, cal


def repeating_column(frame: Any, candidates: tuple[str, ...], taken: tuple[str, ...]) -> str | None:
    """Return the first of ``candidates`` in the frame (in no other role) whose values repeat.

    One query on the frame's engine (the column's distinct values against its rows); None when
    no candidate is there or its values are all distinct.
    """
    nw = _narwhals()
    with _engine_warnings():
        nf = open_frame(nw, frame, ())
        names = list(nf.collect_schema().names())
        found = [c for c in candidates if c in names and c not in taken]
        if not found:
            return None
        c = found[0]
        out = _collect(nw, nf.select(nw.col(c).n_unique().alias("distinct"),
                                     nw.len().alias("rows"))).rows()  # fmt: skip
    distinct, rows = (int(v) for v in out[0])
    return c if distinct < rows else None

