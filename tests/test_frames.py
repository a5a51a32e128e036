"""Frames counted per group and item on their own engine (judgestats.frames, issue 27 §1):
``cluster=`` on pandas, polars and DuckDB gives the counts built by hand; chunks add up.
"""

import warnings

import numpy as np
import pytest

import judgestats as js


# ----------------------------------------------------------------------------- frames
def _frame(seed=0, items=150, k=4):
    import pandas as pd

    gen = np.random.default_rng(seed)
    parts = []
    for model in ("m1", "m2"):
        y = np.repeat(gen.random(items) < 0.5, k)
        prop = gen.beta(2, 2, items) * 0.3 + np.where(y[::k], 0.6, 0.1)
        judge = gen.random(items * k) < np.repeat(prop, k)
        labelled = np.repeat(gen.random(items) < 0.35, k)
        parts.append(pd.DataFrame({
            "model": model, "item": np.repeat([f"{model}-{i}" for i in range(items)], k),
            "judge": judge.astype(int), "human": np.where(labelled, y.astype(float), np.nan),
        }))  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def _direct(frame, model, **kwargs):
    d = frame[frame.model == model]
    t, c = d[d.human.isna()], d[d.human.notna()]
    return js.correct(
        js.JudgedCounts.from_labels(t.judge.to_numpy(), cluster=t.item.to_numpy()),
        js.ConfusionCounts.from_labels(human=c.human.to_numpy().astype(int),
                                       judge=c.judge.to_numpy(), cluster=c.item.to_numpy()),
        **kwargs,
    )  # fmt: skip


@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb"])
def test_evaluate_counts_items_on_the_engine(engine):
    frame = _frame()
    native = frame
    if engine == "polars":
        pl = pytest.importorskip("polars")
        native = pl.from_pandas(frame).lazy()
    elif engine == "duckdb":
        duckdb = pytest.importorskip("duckdb")
        native = duckdb.connect().from_df(frame)
    with pytest.warns(js.WeakCalibrationWarning, match="effective items"):  # m1's 84 human-0 items (issue 38: counted as effective items)
        ev = js.evaluate(native, cluster="item", estimand="items", method="adjusted-wald")
    for model in ("m1", "m2"):
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            ref = _direct(frame, model, estimand="items", method="adjusted-wald")
        assert (ev[model].ci.low, ev[model].ci.high) == pytest.approx(
            (ref.ci.low, ref.ci.high), abs=1e-12)
        assert ev[model].clusters.items == 150 and ev[model].clusters.design_effect[0] > 1.3
    assert "design_effect_p" in ev.to_dataframe().columns


def test_grouped_item_counts_add_over_chunks_and_refuse_what_is_not_written():
    frame = _frame(1)
    with pytest.warns(js.WeakCalibrationWarning, match="effective items"):
        whole = js.evaluate(frame, cluster="item", method="adjusted-wald")
    from judgestats.evaluate import group_counts

    halves = group_counts(frame.iloc[:500], cluster="item")
    halves = halves + group_counts(frame.iloc[500:], cluster="item")
    with pytest.warns(js.WeakCalibrationWarning, match="effective items"):
        chunked = js.evaluate(halves, method="adjusted-wald")
    assert chunked["m1"].ci == whole["m1"].ci and chunked["m2"].ci == whole["m2"].ci
    # strata= with cluster=: tests/strata/test_counts.py
    with pytest.raises(js.errors.ColumnError, match="cluster="):
        js.evaluate(frame, cluster="sample")
    bad = frame.assign(item=frame["item"].where(frame.index != 3, None))
    with pytest.raises(js.errors.ColumnError, match="item"):
        js.evaluate(bad, cluster="item")
