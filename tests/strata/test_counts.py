"""``js.evaluate(frame, strata=..., cluster=...)``: repeated items nested in strata (issue 27 §1).

The engine counts per (group, stratum, item); each group's strata go to
:func:`judgestats.correct_stratified` as clustered counts. Provenance: the same data counted
in the test by hand (numpy per stratum, ``from_labels(..., cluster=)``) and corrected by
``correct_stratified`` directly, on pandas, polars and DuckDB.
"""

from __future__ import annotations

import numpy as np
import pytest

import judgestats as js


def _frame(seed=0, items=300, k=4):
    """Two models, items judged k times, a stratum per item (its length class)."""
    import pandas as pd

    gen = np.random.default_rng(seed)
    parts = []
    for model in ("m1", "m2"):
        stratum = np.where(gen.random(items) < 0.4, "long", "short")
        y = gen.random(items) < np.where(stratum == "long", 0.3, 0.6)
        prop = gen.beta(2, 2, items) * 0.3 + np.where(y, 0.6, 0.1)
        judge = gen.random(items * k) < np.repeat(prop, k)
        labelled = np.repeat(gen.random(items) < 0.4, k)
        parts.append(pd.DataFrame({
            "model": model, "item": np.repeat([f"{model}-{i}" for i in range(items)], k),
            "length": np.repeat(stratum, k), "judge": judge.astype(int),
            "human": np.where(labelled, np.repeat(y, k).astype(float), np.nan),
        }))  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def _direct(frame, model, **kwargs):
    tests, cals = {}, {}
    for s, d in frame[frame.model == model].groupby("length"):
        t, c = d[d.human.isna()], d[d.human.notna()]
        tests[s] = js.JudgedCounts.from_labels(t.judge.to_numpy(), cluster=t.item.to_numpy())
        cals[s] = js.ConfusionCounts.from_labels(human=c.human.to_numpy().astype(int),
                                                 judge=c.judge.to_numpy(),
                                                 cluster=c.item.to_numpy())  # fmt: skip
    return js.correct_stratified(tests, cals, **kwargs)


def _native(frame, engine):
    if engine == "polars":
        pl = pytest.importorskip("polars")
        return pl.from_pandas(frame).lazy()
    if engine == "duckdb":
        duckdb = pytest.importorskip("duckdb")
        return duckdb.connect().from_df(frame)
    return frame


@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb"])
@pytest.mark.parametrize("estimand", ["rows", "items"])
def test_evaluate_strata_with_clusters_equals_correct_stratified(engine, estimand):
    frame = _frame()
    ev = js.evaluate(_native(frame, engine), strata="length", cluster="item", estimand=estimand)
    with pytest.warns(js.RepeatedItemsWarning, match="pass cluster='item'"):  # rows as items
        flat = js.evaluate(frame, strata="length")  # (their rows agree beyond chance)
    for model in ("m1", "m2"):
        ref = _direct(frame, model, estimand=estimand)
        res = ev[model]
        assert (res.estimate, res.ci.low, res.ci.high) == pytest.approx(
            (ref.estimate, ref.ci.low, ref.ci.high), abs=1e-12)
        assert res.design_effect == pytest.approx(ref.design_effect, abs=1e-12)
        assert res.design_effect > 1.2  # four rows per item sharing a propensity
        assert res.ci.width > flat[model].ci.width  # rows as items: too short


def test_evaluate_strata_with_clusters_bootstrap_and_one_row_per_item():
    frame = _frame(1, k=1)
    ev = js.evaluate(frame, strata="length", cluster="item")
    flat = js.evaluate(frame, strata="length")
    for model in ("m1", "m2"):  # one row per item: the unclustered pooled interval
        assert (ev[model].ci.low, ev[model].ci.high) == pytest.approx(
            (flat[model].ci.low, flat[model].ci.high), abs=1e-12)
    frame = _frame(2)
    boot = js.evaluate(frame, strata="length", cluster="item", method="bootstrap", rng=0,
                       n_resamples=999)  # fmt: skip
    ref = _direct(frame, "m1", method="bootstrap", rng=np.random.default_rng(0),
                  n_resamples=999)  # fmt: skip
    assert boot["m1"].ci.method == "bootstrap"
    assert abs(boot["m1"].ci.low - ref.ci.low) < 0.03  # same distribution, other draws


@pytest.mark.parametrize("engine", ["pandas", "polars"])
def test_an_item_in_two_strata_is_named(engine):
    frame = _frame(3)
    first = frame.index[frame.item == "m1-5"][0]
    other = "short" if frame.loc[first, "length"] == "long" else "long"
    frame.loc[first, "length"] = other
    with pytest.raises(js.errors.StrataMismatchError, match="'m1-5'"):
        js.evaluate(_native(frame, engine), strata="length", cluster="item")


def test_cli_report_with_strata_and_cluster(tmp_path, capsys):
    from judgestats.cli import main

    frame = _frame()
    path = tmp_path / "judged.csv"
    frame.to_csv(path, index=False)
    assert main(["report", str(path), "--strata", "length", "--cluster", "item"]) == 0
    out = capsys.readouterr().out
    ev = js.evaluate(frame, strata="length", cluster="item")
    items = sum(k.calibration_items for g in ev.groups for k in ev[g].clusters.values())
    assert f"({items} in all, " in out and "counting repeated items once each" in out
    low, high = ev["m1"].ci
    assert f"{low:.3f}–{high:.3f}" in out
