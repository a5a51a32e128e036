"""js.evaluate: grouped counts on each real engine, corrections per group, named errors.

The same frame goes through pandas, polars (eager and lazy), pyarrow, DuckDB and Dask (and
PySpark when it is installed); counts and results must be identical, and equal to an
independent count made here with numpy and ``ConfusionCounts.from_labels``.
"""

import os
import shutil
import sys
import warnings

import matplotlib

matplotlib.use("Agg")  # no display in CI; set before pyplot is imported


import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats._validation import (
    ColumnError,
    EmptyGroupError,
    GroupError,
    GroupLabelError,
    StrataMismatchError,
)
from judgestats.cli import main
from judgestats.compare import rank
from judgestats.evaluate import Evaluation, GroupCounts, evaluate, evaluate_counts, group_counts
from judgestats.strata import correct_stratified, stratified_counts

MODELS = ("alpha", "beta", "gamma", "delta")


def make_frame(rng, n=24000, cal_share=0.3):  # >= 100 calibration items per class, group
    model = rng.choice(MODELS, n)
    theta = np.select([model == m for m in MODELS], [0.3, 0.5, 0.65, 0.8])
    length = rng.choice(["short", "long"], n)
    human = (rng.random(n) < theta).astype(int)
    q0 = np.where(length == "long", 0.65, 0.85)
    q1 = 0.9
    judge = np.where(human == 1, rng.random(n) < q1, rng.random(n) >= q0).astype(int)
    is_cal = rng.random(n) < cal_share
    return pd.DataFrame(
        {
            "model": model,
            "length": length,
            "judge": judge,
            "human": np.where(is_cal, human, np.nan),  # NaN = not human-labelled
            "truth": human,
            "split": np.where(is_cal, "calibration", "test"),
        }
    )


@pytest.fixture(scope="module")
def frame():
    return make_frame(np.random.default_rng(20261122))


def _dask(df):
    dd = pytest.importorskip("dask.dataframe")
    with warnings.catch_warnings():
        # narwhals' notice that Dask support moves to a separate package (not published)
        warnings.filterwarnings("ignore", message="Dask support is moving", category=FutureWarning)
        return dd.from_pandas(df, npartitions=3)


def _java() -> bool:
    return shutil.which("java") is not None or bool(os.environ.get("JAVA_HOME"))


def spark_session():
    """A local Spark session on the loopback interface (skips without PySpark or Java)."""
    pytest.importorskip(
        "pyspark",
        reason="PySpark is optional (not in the dev extra): "
        "pip install -r benchmarks/requirements-spark.txt",
    )
    if not _java():
        pytest.skip("PySpark needs a Java runtime: apt-get install default-jre-headless")
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # Python workers: this interpreter
    spark = (
        SparkSession.builder.master("local[1]")
        .appName("judgestats-test")
        .config("spark.driver.bindAddress", "127.0.0.1")  # loopback only
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


_SPARK_TYPES = {"b": "boolean", "i": "long", "u": "long", "f": "double"}


def _spark(df):
    spark = spark_session()
    # plain records (not pandas: PySpark warns about pandas >= 3 when converting); NaN is null
    records = [
        {k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in row.items()}
        for row in df.to_dict("records")
    ]
    schema = ", ".join(f"{c} {_SPARK_TYPES.get(t.kind, 'string')}" for c, t in df.dtypes.items())
    return spark.createDataFrame(records, schema=schema)


def to_engine(df, engine, tmp_path=None):
    if engine == "pandas":
        return df
    if engine == "pyarrow":
        import pyarrow as pa

        return pa.Table.from_pandas(df, preserve_index=False)
    if engine == "polars":
        import polars as pl

        return pl.from_pandas(df)
    if engine == "polars-lazy":
        import polars as pl

        return pl.from_pandas(df).lazy()
    if engine == "duckdb":
        import duckdb

        return duckdb.from_df(df)
    if engine == "dask":
        return _dask(df)
    if engine == "pyspark":
        return _spark(df)
    raise AssertionError(engine)


ENGINES = ["pandas", "pyarrow", "polars", "polars-lazy", "duckdb", "dask", "pyspark"]


def reference(df, split=False):
    """Independent per-model counts and corrections (numpy + from_labels)."""
    out = {}
    for m in sorted(df["model"].unique()):
        sub = df[df["model"] == m]
        cal = (sub["split"] == "calibration") if split else sub["human"].notna()
        human = sub["truth"] if split else sub["human"]
        test = js.JudgedCounts.from_labels(sub.loc[~cal, "judge"].to_numpy())
        calib = js.ConfusionCounts.from_labels(
            human=human[cal].to_numpy().astype(int), judge=sub.loc[cal, "judge"].to_numpy()
        )
        out[m] = (test, calib)
    return out


# ============================================================================ engines agree
@pytest.fixture(scope="module")
def pandas_result(frame):
    return evaluate(frame.drop(columns=["truth", "split"]))


@pytest.mark.parametrize("engine", ENGINES)
def test_engines_give_identical_counts_and_results(frame, pandas_result, engine):
    native = to_engine(frame.drop(columns=["truth", "split"]), engine)
    ev = evaluate(native)
    assert isinstance(ev, Evaluation)
    assert ev.engine == ("polars" if engine == "polars-lazy" else engine)
    assert ev.groups == tuple(sorted(MODELS))
    pd.testing.assert_frame_equal(ev.counts_dataframe(), pandas_result.counts_dataframe())
    pd.testing.assert_frame_equal(ev.to_dataframe(), pandas_result.to_dataframe())
    ref = reference(frame)
    for m in MODELS:
        test, cal = ref[m]
        assert ev[m].test == test and ev[m].calibration == cal
        direct = js.correct(test, cal)
        assert ev[m].estimate == direct.estimate
        assert (ev[m].ci.low, ev[m].ci.high) == (direct.ci.low, direct.ci.high)


@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb", "dask"])
def test_engines_agree_with_split_column_strata_and_bootstrap(frame, engine):
    df = frame.assign(human=frame["truth"]).drop(columns=["truth"])  # every row has a label
    ev = evaluate(
        to_engine(df, engine),
        split="split",
        strata="length",
        method="bootstrap",
        n_resamples=500,
        rng=7,
    )
    base = evaluate(df, split="split", strata="length", method="bootstrap", n_resamples=500, rng=7)
    pd.testing.assert_frame_equal(ev.counts_dataframe(), base.counts_dataframe())
    pd.testing.assert_frame_equal(ev.to_dataframe(), base.to_dataframe())
    # independently: stratified_counts + correct_stratified per model, same generator order
    gen = np.random.default_rng(7)
    for m in sorted(MODELS):
        sub = df[df["model"] == m]
        tests, cals = stratified_counts(sub, by="length", split="split")
        res = correct_stratified(tests, cals, method="bootstrap", n_resamples=500, rng=gen)
        assert ev[m].estimate == res.estimate
        assert (ev[m].ci.low, ev[m].ci.high) == (res.ci.low, res.ci.high)


def test_split_column_hides_test_rows_human_labels(frame):
    df = frame.assign(human=frame["truth"]).drop(columns=["truth"])
    ev = evaluate(df, split="split")
    ref = reference(frame, split=True)
    for m in MODELS:
        assert ev[m].test == ref[m][0] and ev[m].calibration == ref[m][1]


def test_lazy_parquet_scans_match(frame, tmp_path):
    import duckdb
    import polars as pl

    path = tmp_path / "items.parquet"
    frame.drop(columns=["truth", "split"]).to_parquet(path)
    a = evaluate(pl.scan_parquet(path))
    b = evaluate(duckdb.read_parquet(str(path)))
    pd.testing.assert_frame_equal(a.to_dataframe(), b.to_dataframe())
    ref = reference(frame)
    assert all(a[m].calibration == ref[m][1] for m in MODELS)


def test_spark_parquet_scan_matches_polars(frame, tmp_path):
    """A Parquet file read by a local Spark session counts as polars counts its scan."""
    spark = spark_session()
    import polars as pl

    path = tmp_path / "items.parquet"
    frame.drop(columns=["truth"]).to_parquet(path)
    for options in ({}, {"split": "split", "strata": "length"}):
        ev = evaluate(spark.read.parquet(str(path)), **options)
        base = evaluate(pl.scan_parquet(path), **options)
        assert ev.engine == "pyspark"
        pd.testing.assert_frame_equal(ev.counts_dataframe(), base.counts_dataframe())
        pd.testing.assert_frame_equal(ev.to_dataframe(), base.to_dataframe())
    assert sum(ev[m].n for m in MODELS) == int((frame["split"] == "test").sum())


def test_bool_and_nullable_labels(frame):
    import polars as pl

    df = frame.drop(columns=["truth", "split"])
    typed = df.assign(
        judge=df["judge"].astype(bool), human=df["human"].astype("Int8")
    )  # pandas nullable ints: <NA> marks the test rows
    a, b = evaluate(typed), evaluate(pl.from_pandas(typed))
    base = evaluate(df)
    pd.testing.assert_frame_equal(a.to_dataframe(), base.to_dataframe())
    pd.testing.assert_frame_equal(b.to_dataframe(), base.to_dataframe())


def test_several_by_columns_and_multi_dim_xarray(frame):
    df = frame.drop(columns=["truth", "split"])
    ev = evaluate(df, by=("model", "length"))
    assert len(ev) == 8 and ev.dim == "group"
    key = ("alpha", "long")
    sub = df[(df.model == "alpha") & (df.length == "long")]
    cal = sub["human"].notna()
    assert ev[key].calibration == js.ConfusionCounts.from_labels(
        human=sub.loc[cal, "human"].astype(int), judge=sub.loc[cal, "judge"]
    )
    assert ev["alpha / long"] is ev[key]
    ds = ev.to_xarray()
    assert ds["ci"].dims == ("group", "ci_bound")
    assert list(ds["model"].values[:2]) == ["alpha", "alpha"]
    assert list(ds["length"].values[:2]) == ["long", "short"]
    with pytest.raises(KeyError, match="no group 'zeta'"):
        ev["zeta"]


def test_to_xarray_and_dataframe_layout(pandas_result):
    ev = pandas_result
    ds = ev.to_xarray()
    assert ds["ci"].dims == ("model", "ci_bound")
    assert list(ds["ci_bound"].values) == ["lower", "upper"]
    # the default under the paper's design (issue 38 §3); each group names what answered
    assert ds.attrs["ci_kind"] == "auto" and ds.attrs["ci_prob"] == 0.95
    assert {ev[m].method for m in MODELS} <= {"adjusted-wald", "adjusted-wald+profile-map"}
    for m in MODELS:
        assert ds["estimate"].sel(model=m).item() == ev[m].estimate
        assert ds["ci"].sel(model=m, ci_bound="upper").item() == ev[m].ci.high
        assert ds["m1"].sel(model=m).item() == ev[m].m1
    df = ev.to_dataframe()
    assert list(df.columns[:2]) == ["model", "estimate"] and len(df) == 4
    assert "alpha" in ev.summary() and "auto" in repr(ev)


def test_rank_matches_compare_rank(frame):
    df = frame.drop(columns=["truth", "split"])
    ev = evaluate(df, rank=True, rng=3, confidence_level=0.9)
    assert ev.confidence_level == 0.9
    gen = np.random.default_rng(3)
    ref = reference(frame)
    expected = rank(
        {m: ref[m][0] for m in sorted(MODELS)},
        {m: ref[m][1] for m in sorted(MODELS)},
        n_resamples=10_000,
        confidence_level=0.9,
        rng=gen,
    )
    np.testing.assert_array_equal(ev.ranking.rank_probabilities, expected.rank_probabilities)
    again = evaluate(to_engine(df, "duckdb"), rank=True, rng=3, confidence_level=0.9)
    np.testing.assert_array_equal(again.ranking.pairwise, ev.ranking.pairwise)
    assert ev.rank(n_resamples=200, rng=0).order[0] == "delta"


def test_plot_draws_every_group(pandas_result):
    ax = pandas_result.plot()
    try:
        labels = [t.get_text() for t in ax.get_yticklabels()]
        top = labels[int(np.argmax(ax.get_yticks()))]
        assert top.startswith("delta")  # best corrected rate at the top
        assert len(ax.lines) >= 1 and ax.get_xlim() == (-0.02, 1.02)
        assert sorted(x.split()[0] for x in labels) == sorted(MODELS)
    finally:
        plt.close("all")


def test_counts_add_up_chunk_by_chunk(frame):
    df = frame.drop(columns=["truth", "split"])
    whole = group_counts(df, strata="length")
    parts = group_counts(df.iloc[:1500], strata="length") + group_counts(
        df.iloc[1500:], strata="length"
    )
    assert isinstance(parts, GroupCounts) and parts.groups == whole.groups
    pd.testing.assert_frame_equal(parts.to_dataframe(), whole.to_dataframe())
    a, b = evaluate(parts), evaluate(df, strata="length")
    pd.testing.assert_frame_equal(a.to_dataframe(), b.to_dataframe())
    # the deprecated evaluate_counts still answers, with a DeprecationWarning naming evaluate
    with pytest.warns(DeprecationWarning, match=r"use js\.evaluate\(counts"):
        old = evaluate_counts(parts, confidence_level=0.9)
    assert old.confidence_level == 0.9
    pd.testing.assert_frame_equal(
        old.to_dataframe(), evaluate(df, strata="length", confidence_level=0.9).to_dataframe()
    )
    # columns were chosen when the counts were made: a column argument beside them is an error
    with pytest.raises(js.errors.ArgumentTypeError, match="by, strata apply to a frame"):
        evaluate(parts, by="other", strata="length")
    with pytest.raises(js.JudgeStatsError, match="different columns"):
        whole + group_counts(df)


@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb", "dask"])
def test_at_most_nine_count_rows_per_group_reach_python(engine, monkeypatch):
    """The engine hands back one row per (group, cell code), however many distinct labels.

    Two groups hold every one of the nine cells; 1,000 rows per group carry distinct bad
    judge values (2, 3, ...), so the table of distinct (model, judge, human, split) values has
    over 2,000 rows, but the grouped count that reaches Python has 2 × 9.
    """
    import judgestats.frames as frames

    cells = pd.DataFrame(  # one row per cell code 0..8 (module docstring of frames)
        {
            "judge": [0, 1, 0, 1, 0, 1, 2, 1, 1],
            "human": [np.nan, np.nan, 0, 0, 1, 1, 1, 0.5, 1],
            "split": ["test"] * 2 + ["calibration"] * 6 + ["train"],
        }
    )
    bad = pd.DataFrame({"judge": np.arange(2, 1002), "human": np.nan, "split": "test"})
    df = pd.concat([cells, bad] * 2, ignore_index=True)
    df.insert(0, "model", ["a"] * (len(df) // 2) + ["b"] * (len(df) // 2))
    df["judge"] = df["judge"].astype(float)
    assert df.groupby(["model", "judge", "human", "split"], dropna=False).ngroups > 2000
    seen = []
    collect = frames._collect

    def spy(nw, frame):
        out = collect(nw, frame)
        seen.append(len(out.rows()))
        return out

    monkeypatch.setattr(frames, "_collect", spy)
    with pytest.raises(GroupLabelError, match=r"model='a': 1001 rows with other values \(from 2"):
        evaluate(to_engine(df, engine), split="split")
    # the count (2 groups × 9 codes), then the error path's query (3 bad codes per group)
    assert seen == [18, 6]


@pytest.mark.parametrize(
    ("values", "mixed"),
    [
        (["a", "b"], False),
        ([1, 2], False),
        ([1, 2.5], False),
        ([True, False], False),
        ([1, True], True),
        ([7, "7"], True),
        ([1.0, True], True),
        (["a", b"a"], True),
    ],
)
def test_pandas_object_key_columns_mixing_value_types_are_refused(values, mixed):
    model = pd.Series(values * 3, dtype=object)
    df = pd.DataFrame({"model": model, "judge": [1, 0, 1] * len(values), "human": np.nan})
    if mixed:
        with pytest.raises(ColumnError, match="group column 'model' mixes value types"):
            group_counts(df)
    else:  # one group per distinct value, each with its 3 test rows
        counts = group_counts(df)
        assert len(counts.groups) == 2 and all(c[:2].sum() == 3 for c in counts.counts.values())


# ============================================================================ warnings
def test_group_warnings_are_reissued_with_the_group_and_kept():
    # 'low': q̂1 = 1, q̂0 = 2/3 and no test item judged 1, so θ̂ = (0 + 2/3 − 1)/(2/3) < 0
    df = pd.DataFrame(
        {
            "model": ["ok"] * 8 + ["low"] * 9,
            "judge": [1, 0, 1, 0, 1, 0, 1, 1, *(1, 1, 1, 0, 0, 1, 0, 0, 0)],
            "human": [1, 0, 1, 0, None, None, None, None, *(1, 1, 1, 0, 0, 0, None, None, None)],
        }
    )
    with (
        pytest.warns(js.WeakCalibrationWarning, match="group model='(ok|low)': only [23]"),
        pytest.warns(js.ClippedEstimateWarning, match="group model='low'"),
    ):
        ev = evaluate(df, method="adjusted-wald")  # the paper's interval's warnings
    assert ev["low"].clipped and ev["low"].estimate_unclipped == pytest.approx(-0.5)
    assert not ev["ok"].clipped
    assert sorted(cat for cat, _ in ev.warnings["low"]) == [
        "ClippedEstimateWarning",
        "WeakCalibrationWarning",
    ]
    assert [cat for cat, _ in ev.warnings["ok"]] == ["WeakCalibrationWarning"]  # 2 + 2 items


# ============================================================================ errors
@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb", "dask"])
def test_missing_columns_are_all_named(frame, engine):
    native = to_engine(frame.drop(columns=["truth", "split"]), engine)
    with pytest.raises(ColumnError, match=r"lacks 3 columns: 'verdict' \(judge=\), 'gold' "):
        evaluate(native, judge="verdict", human="gold", by=("model", "task"))


@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb", "dask", "pyspark"])
def test_labels_outside_01_name_the_group_and_value(engine):
    df = pd.DataFrame(
        {
            "model": ["a"] * 5 + ["b"] * 5,
            "judge": [1, 0, 1, 0, 1, 1, 0, 1, 7, 1],
            "human": [1, 0, None, None, None, 1, 0, None, None, None],
        }
    )
    with pytest.raises(
        GroupLabelError,
        match=r"judge column .* group model='b': 1 row with "
        r"other values \(7\)",
    ) as info:
        evaluate(to_engine(df, engine))
    assert "model='a'" not in str(info.value)
    df2 = df.assign(judge=[1, 0, 1, 0, 1, 1, 0, 1, 0, 1], human=[1, 0.5, *[None] * 8])
    with pytest.raises(
        GroupLabelError,
        match=r"group model='a': 1 calibration row with other "
        r"values \(0.5\)",
    ):
        evaluate(to_engine(df2, engine))


def test_missing_judge_label_and_bad_split_values():
    df = pd.DataFrame(
        {
            "model": ["a"] * 6,
            "judge": [1, 0, None, 0, 1, 1],
            "human": [1, 0, 1, 0, 1, 1],
            "split": ["calibration", "calibration", "test", "test", "train", "test"],
        }
    )
    with pytest.raises(GroupLabelError, match="1 row without a judge label"):
        evaluate(df, split="split")
    with pytest.raises(
        GroupLabelError, match=r"split column .* 1 row with other values \('train'\)"
    ):
        evaluate(df.assign(judge=[1, 0, 1, 0, 1, 1]), split="split")
    with pytest.raises(GroupLabelError, match="1 calibration row without a human label"):
        evaluate(
            df.assign(judge=[1, 0, 1, 0, 1, 1], human=[1, None, 1, 0, 1, 1], split="calibration"),
            split="split",
        )


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_groups_without_calibration_or_test_rows(engine):
    # two calibration items per group: WeakCalibrationWarning, not the subject here
    warnings.simplefilter("ignore", js.WeakCalibrationWarning)  # undone by pytest after the test
    base = {"model": ["a"] * 4 + ["b"] * 4, "judge": [1, 0, 1, 0] * 2}
    no_cal = pd.DataFrame({**base, "human": [1, 0, None, None] + [None] * 4})
    with pytest.raises(EmptyGroupError, match="group model='b' has no calibration rows"):
        evaluate(to_engine(no_cal, engine))
    no_test = pd.DataFrame({**base, "human": [1, 0, None, None, 1, 0, 1, 0]})
    with pytest.raises(EmptyGroupError, match="group model='b' has no test rows"):
        evaluate(to_engine(no_test, engine))
    one_class = pd.DataFrame({**base, "human": [1, 0, None, None, 1, 1, None, None]})
    with pytest.raises(EmptyGroupError, match="model='b' has 2 calibration rows but none with"):
        evaluate(to_engine(one_class, engine))
    assert issubclass(EmptyGroupError, GroupError) and issubclass(EmptyGroupError, js.errors.CountError)


def test_correction_errors_name_the_group(frame):
    df = frame.drop(columns=["truth", "split"])
    df = df[~((df.model == "beta") & (df.length == "long") & df.human.notna())]
    with pytest.raises(StrataMismatchError, match="in group model='beta'"):
        evaluate(df, strata="length")
    coin = pd.DataFrame(
        {"model": ["x"] * 6, "judge": [1, 0, 0, 1, 1, 0], "human": [1, 1, 0, 0, None, None]}
    )
    with pytest.raises(js.errors.NotInformativeError, match="in group model='x'"):
        evaluate(coin)


def test_bad_arguments_fail_before_the_data_are_read(frame):
    df = frame.drop(columns=["truth", "split"])
    with pytest.raises(js.errors.MethodError, match="method"):
        evaluate(df, method="exact")
    with pytest.raises(js.errors.ArgumentTypeError, match="n_resample"):
        evaluate(df, method="bootstrap", n_resample=100)
    with pytest.raises(js.errors.MethodError):
        evaluate(df, strata="length", method="bayes")
    with pytest.raises(js.errors.ConfidenceLevelError):
        evaluate(df, confidence_level=95)
    with pytest.raises(js.JudgeStatsError, match="both judge and by"):
        evaluate(df, by="judge")
    with pytest.raises(js.errors.ArgumentTypeError, match="by must be"):
        evaluate(df, by=())
    with pytest.raises(js.errors.ArgumentTypeError, match="frame must be a data frame"):
        evaluate([[1, 0, 1]])
    with pytest.raises(ColumnError, match="judge column 'judge' must hold 0/1"):
        evaluate(df.assign(judge=df.judge.map({0: "no", 1: "yes"})))
    with pytest.raises(ColumnError, match="'model' on 1 row"):
        evaluate(df.assign(model=df.model.where(df.index != 5, None)))
    with pytest.raises(js.JudgeStatsError, match="rank=True needs unstratified"):
        evaluate(df, strata="length", rank=True)


def test_dask_distributed_cluster_gives_the_pandas_result(frame, pandas_result):
    """Issue 19: the grouped count runs on a LocalCluster of two worker processes."""
    distributed = pytest.importorskip("distributed")
    native = _dask(frame.drop(columns=["truth", "split"]))
    with warnings.catch_warnings():
        # the cluster's own start-up notices (ports, dashboard, process spawning)
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", ResourceWarning)
        warnings.simplefilter("ignore", UserWarning)
        with (
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as cluster,
            distributed.Client(cluster) as client,
        ):  # fmt: skip
            assert len(client.scheduler_info()["workers"]) == 2
            ev = evaluate(native)
    pd.testing.assert_frame_equal(ev.counts_dataframe(), pandas_result.counts_dataframe())
    pd.testing.assert_frame_equal(ev.to_dataframe(), pandas_result.to_dataframe())


# ----------------------------------------------------------------------------- issue 31 §1
def test_marked_groups_keep_their_counts_so_every_row_is_accounted_for(marked_frame):
    frame = marked_frame
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = js.evaluate(frame, errors="mark")
    table = ev.to_dataframe().set_index("model")
    direct = frame.groupby("model").agg(n=("human", lambda h: int(h.isna().sum())),
                                        m=("human", lambda h: int(h.notna().sum())))  # fmt: skip
    for model in ("good", "no-cal", "one-class"):  # numbers, not NaN, for the marked groups too
        row = table.loc[model]
        assert row["n"] == direct.loc[model, "n"]
        assert row["m0"] + row["m1"] == direct.loc[model, "m"]
    assert table.loc["no-cal", ["n", "m0", "m1"]].tolist() == [500, 0, 0]
    assert table.loc["one-class", ["n", "m0", "m1"]].tolist() == [350, 0, 150]
    sub = frame[frame.model == "one-class"]
    cal = sub[sub.human.notna()]
    assert table.loc["one-class", "positive"] == int(sub[sub.human.isna()].judge.sum())
    assert table.loc["one-class", "tp"] == int(cal.judge.sum())
    counts = ev.counts_dataframe()
    assert counts[["n", "tp", "fn", "tn", "fp"]].to_numpy().sum() == len(frame) == 1500
    assert counts.set_index("model")["marked"].notna().to_dict() == {
        "good": False, "no-cal": True, "one-class": True}  # fmt: skip
    rows_line = ("Rows: 1500 counted: 350 test and 150 calibration rows in the 1 corrected "
                 "group; 1000 rows in the 2 groups not corrected.")  # fmt: skip
    assert rows_line in ev.summary()
    assert rows_line in ev.report("markdown") and rows_line in ev.report("html", figure=False)


def _near_chance_frame(groups=120, seed=1):
    """Many groups whose judges are barely better than chance on 30 calibration items each."""
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(groups):
        human = rng.integers(0, 2, 60)
        judge = np.where(rng.random(60) < 0.66, human, 1 - human)
        label = np.where(np.arange(60) < 30, human.astype(float), np.nan)
        rows.append(pd.DataFrame({"model": f"g{k:03d}", "judge": judge, "human": label}))
    return pd.concat(rows, ignore_index=True)


def test_rank_honours_errors_mark_and_names_the_groups(tmp_path, capsys):
    frame = _near_chance_frame()
    AW = "adjusted-wald"  # the bootstrap ranking of the paper's estimates (auto's is another)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(js.errors.NotInformativeError, match=r"every bootstrap replicate was "
                           r"undefined \(q0\* \+ q1\* <= 1 in some model\): 'g\d+' in \d+% of "
                           r"replicates"):  # fmt: skip
            js.evaluate(frame, rank=True, rng=0, rank_resamples=1000, errors="mark",
                        method=AW).rank(rng=0, n_resamples=1000)  # fmt: skip
        ev = js.evaluate(frame, rank=True, rng=0, rank_resamples=1000, errors="mark", method=AW)
    assert ev.ranking is None
    assert ev.ranking_error.startswith("NotInformativeError: every bootstrap replicate was "
                                       "undefined")  # fmt: skip
    assert "no ranking: NotInformativeError" in ev.summary()
    text = ev.report("markdown")
    assert "- no ranking (P(rank 1)): NotInformativeError: every bootstrap" in text
    assert "P(rank 1) |" not in text  # no column of a ranking that was not made
    # errors="raise" keeps raising
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(js.JudgeStatsError):
            js.evaluate(frame, rank=True, rng=0, rank_resamples=1000, method=AW)
    path = tmp_path / "items.csv"
    frame.to_csv(path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["report", str(path), "--rank", "--method", AW]) == 0
    out = capsys.readouterr().out
    assert "- no ranking (P(rank 1)): NotInformativeError" in out and "Rows: 7200 counted" in out


# ----------------------------------------------------------------------------- guard rail
def _items_frame(gen, items, k, *, correlated):
    import pandas as pd

    if correlated:  # an item's rows share its truth and its judge propensity
        y = np.repeat(gen.random(items) < 0.5, k)
        mu = np.where(y[::k], 0.85, 0.15)
        prop = np.repeat(gen.beta(mu * 1.0, (1 - mu) * 1.0), k)  # rho = 0.5
        judge = gen.random(items * k) < prop
    else:  # every row its own draw: the ids repeat, the rows are independent
        y = gen.random(items * k) < 0.5
        judge = np.where(y, gen.random(items * k) < 0.85, gen.random(items * k) < 0.15)
    labelled = np.repeat(gen.random(items) < 0.3, k)
    return pd.DataFrame({"model": "m", "sample_id": np.repeat(np.arange(items), k),
                         "judge": judge.astype(int),
                         "human": np.where(labelled, y.astype(float), np.nan)})  # fmt: skip


def _warned(frame, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ev = js.evaluate(frame, **kwargs)
    found = [w for w in caught if issubclass(w.category, js.RepeatedItemsWarning)]
    return ev, found


@pytest.mark.parametrize(("items", "k"), [(60, 2), (200, 5), (1000, 10)])
def test_the_guard_rail_is_silent_where_repeats_carry_no_correlation(items, k):
    """≤ 5% of frames warn where the rows are independent (measured: 0 of 300 per cell)."""
    gen = np.random.default_rng(items + k)
    warned = sum(bool(_warned(_items_frame(gen, items, k, correlated=False))[1])
                 for _ in range(60))  # fmt: skip
    assert warned <= 3


def test_the_guard_rail_names_the_column_where_repeats_matter():
    gen = np.random.default_rng(8)
    frame = _items_frame(gen, 300, 5, correlated=True)
    ev, found = _warned(frame)
    assert len(found) == 1
    text = str(found[0].message)
    assert "'sample_id'" in text and "cluster='sample_id'" in text and "design effect" in text
    assert ev["m"].clusters is None  # the corrections count rows, as asked
    clustered, found = _warned(frame, cluster="sample_id")
    assert not found and clustered["m"].ci.high - clustered["m"].ci.low > ev["m"].ci.high - ev[
        "m"].ci.low  # fmt: skip
    unique = frame.assign(sample_id=np.arange(len(frame)))  # every row its own item
    assert not _warned(unique)[1]


def test_the_guard_rail_reads_the_readers_item_column():
    """``item`` (every eval-tool reader's item column) is an item column like ``sample_id``."""
    gen = np.random.default_rng(8)
    frame = _items_frame(gen, 300, 5, correlated=True).rename(columns={"sample_id": "item"})
    _, found = _warned(frame)
    assert len(found) == 1 and "cluster='item'" in str(found[0].message)
    assert not _warned(frame, cluster="item")[1]
    assert not _warned(frame.rename(columns={"item": "prompt"}))[1]  # not an item column


def test_a_readers_frame_whose_items_repeat_across_models_only_does_not_warn():
    """lm-eval's fixture: 30 items judged once per model (ids repeat across the 2 models only)."""
    from pathlib import Path

    frame = js.readers.read_lm_eval(Path(__file__).parents[1] / "data" / "readers" / "lm_eval",
                                    scorer="judge_correct")  # fmt: skip
    frame["human"] = np.where(frame["item"].astype(str).str[-1].isin(list("02468")),
                              frame["judge"], np.nan).astype(float)  # fmt: skip
    frame.loc[frame.index[::7], "human"] = 1 - frame.loc[frame.index[::7], "human"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", js.WeakCalibrationWarning)
        ev, found = _warned(frame)
    assert not found and len(ev) == 2


def test_the_batched_methods_are_read_against_the_table():
    """evaluate batches a method where the spec's path has every method it runs, no more."""
    from judgestats.designs.capabilities import methods_for
    from judgestats.evaluate.binary import BATCHED
    from judgestats.intervals import implementation

    paper = methods_for("letter", "rate", "by-human-label")
    assert all(m in paper and set(b) <= set(paper) for m, b in BATCHED.items())
    for design in js.designs.design_names():
        methods = methods_for("letter", "rate", design)
        for batched in BATCHED.values():
            for m in set(batched) & set(methods):
                implementation(js.designs.as_design(design), m)


def test_rank_under_a_judge_conditional_design_with_auto_ranks_by_the_bootstrap():
    df = make_frame(np.random.default_rng(3), n=4000)
    ev = js.evaluate(df, design="random", method="auto", rank=True, rank_resamples=200, rng=1)
    assert ev.ranking.method == "bootstrap" and ev.design == "random"
    paper = js.evaluate(df, method="profile-map", rank=True, rank_resamples=200, rng=1)
    assert paper.ranking.method == "bayes"


def test_evaluate_resolves_one_spec_before_reading_the_frame():
    """Method, level, options and repeated items are refused before any column is read."""
    with pytest.raises(js.errors.MethodError, match="stratified corrections with design='random'"):
        js.evaluate(object(), strata="length", design="random", method="bootstrap")
    with pytest.raises(js.errors.ClusteredCountsError, match="design='random'"):
        js.evaluate(object(), strata="length", design="random", cluster="item")
    with pytest.raises(js.errors.ClusteredCountsError, match="cluster="):
        js.evaluate(object(), method="profile-likelihood", cluster="item")
    with pytest.raises(js.errors.ArgumentTypeError, match="unexpected option"):
        js.evaluate(object(), strata="length", n_resamples=10)


def test_every_method_of_evaluates_paths_has_its_options_and_implementation():
    """The rate, pooled-rate and judge-alphabet rows: each method's options are known."""
    from judgestats.designs.capabilities import rows
    from judgestats.evaluate import groups

    paths = {(p.judge, p.target): p for p in (groups._RATE, groups._POOLED, groups._LETTERS)}
    for row in rows():
        path = paths.get((row.judge, row.target))
        for name in row.designs if path is not None else ():
            for method in row.methods:
                if method != "auto":  # resolved per group (judgestats.auto), no options
                    assert isinstance(path.options_of(js.designs.as_design(name), method), tuple)


def test_the_guard_rail_warns_where_the_design_effect_is_undefined():
    """Issue 38, third tour §3: promptfoo's repeat.json, 6 items × 3 identical epochs, every
    test row judged 0 and the judge perfect: θ̂'s variance is 0 with rows and with items, so the
    design effect is undefined. ``evaluate`` was silent with a raw numpy RuntimeWarning
    ('invalid value encountered in scalar divide'); now the rows' agreement decides and the
    warning says the effect is undefined; with ``cluster=`` no numpy warning either."""
    frame = pd.DataFrame({"model": "model-b", "item": np.repeat(np.arange(6), 3),
                          "judge": np.repeat([1, 0, 1, 0, 0, 0], 3),
                          "human": np.repeat([1.0, 0.0, 1.0, 0.0, np.nan, np.nan], 3)})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        js.evaluate(frame, by="model", method="adjusted-wald")
        js.evaluate(frame, by="model", method="adjusted-wald", cluster="item")
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    found = [str(w.message) for w in caught if issubclass(w.category, js.RepeatedItemsWarning)]
    assert len(found) == 1 and "undefined" in found[0] and "cluster='item'" in found[0]
