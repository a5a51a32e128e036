"""evaluate() with a numeric judge score: the routing rule, every engine, the refusals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats.errors import ArgumentTypeError, MethodError


def _frame(seed=0, n=2400):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < np.repeat([0.3, 0.6], n // 2)
    s = 1 / (1 + np.exp(-(2 * (2 * y - 1) + rng.normal(0, 1.5, n))))
    human = np.where(rng.random(n) < 0.25, y, np.nan)
    return pd.DataFrame({"model": np.repeat(["b", "a"], n // 2), "judge": s, "human": human,
                         "item": np.arange(n) // 2})


def test_each_group_is_correct_scores_of_its_rows_in_sorted_order():
    df = _frame()
    ev = js.evaluate(df, design="random", rng=7, calibrator="logistic", folds=4)
    gen = np.random.default_rng(7)
    assert ev.groups == ("a", "b") and ev.method == "wald" and ev.design == "random"
    for g in ev.groups:
        rows = df[df.model == g]
        direct = js.scores.correct_scores(rows.judge.to_numpy(), rows.human.to_numpy(),
                                          calibrator="logistic", folds=4, rng=gen)
        res = ev[g]
        assert (res.estimate, res.ci.low, res.ci.high) == (direct.estimate, direct.ci.low,
                                                           direct.ci.high)
        assert res.n == int(rows.human.isna().sum()) and res.m0 + res.m1 == res.n_labelled


def test_a_float_column_not_all_binary_is_a_score_on_every_engine():
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    df = _frame(1)
    base = js.evaluate(df, design="random", rng=3, cluster="item")
    assert isinstance(base["a"], js.scores.ScoreCorrection) and base["a"].items is not None
    frames = {"polars": pl.from_pandas(df), "duckdb": duckdb.sql("select * from df")}
    for engine, frame in frames.items():
        ev = js.evaluate(frame, design="random", rng=3, cluster="item")
        assert ev.engine == engine
        for g in ev.groups:
            assert ev[g].estimate == base[g].estimate and ev[g].ci == base[g].ci


def test_letters_stay_letters_and_ambiguous_input_is_refused():
    df = _frame(2)
    df["letter"] = (df.judge > 0.5).astype(float)  # a float column of 0/1: a letter
    ev = js.evaluate(df, judge="letter", design="random")
    assert isinstance(ev["a"], js.Correction)
    with pytest.raises(ArgumentTypeError, match="holds only 0/1 values: a letter"):
        js.evaluate(df, judge="letter", design="random", calibrator="isotonic")
    with pytest.raises(MethodError, match="declare score bins"):
        js.evaluate(df, design="by-human-label", calibrator="isotonic")
    with pytest.raises(js.errors.GroupLabelError):  # other designs: labels outside 0/1, as before
        js.evaluate(df, design="by-human-label")
    with pytest.raises(ArgumentTypeError, match="rank, strata are not available"):
        js.evaluate(df.assign(s=1), design="random", strata="s", rank=True,
                    calibrator="isotonic")
    with pytest.raises(ArgumentTypeError, match="unexpected option"):
        js.evaluate(df, design="random", n_resamples=10)
    with pytest.raises(ArgumentTypeError, match="unknown option"):
        js.evaluate(df, design="random", calibrator="isotonic", n_resamples=10)


def test_bins_with_a_calibrator_are_the_fallback_letters():
    df = _frame(3, n=400)  # about 50 labelled rows per group: the fallback answers
    ev = js.evaluate(df, design="random", calibrator="isotonic", bins=[0, 0.5, 1], rng=0)
    assert all(ev[g].fallback.startswith("score bins as letters") for g in ev.groups)
    assert all(ev[g].n_labelled < 100 and ev[g].method == "adjusted-delta" for g in ev.groups)


def test_what_a_score_evaluation_lacks_yet_is_refused_by_name():
    ev = js.evaluate(_frame(4, n=1200), design="random", rng=0)
    assert "model" in ev.to_dataframe().columns and "wald" in ev.summary()
    for call in (ev.report, ev.counts_dataframe, ev.plot, ev.rank, ev.to_xarray):
        with pytest.raises(ArgumentTypeError, match="not available yet for an evaluation of a "
                                                    "judge score"):
            call()


# ----------------------------------------------------------------------------- covariates
def _covariate_frame(seed=0, n=3000):
    rng = np.random.default_rng(seed)
    df = _frame(seed, n)
    df["kind"] = rng.choice(["chat", "code"], n)
    df["length"] = rng.integers(10, 900, n)
    df["letter"] = (df.judge > 0.5).astype(int)
    return df


def test_covariates_under_random_enter_each_groups_predictor_on_every_engine():
    """Each group is correct_scores(covariates=) of its rows in sorted order; polars and
    DuckDB give pandas' numbers; a 0/1 judge column takes covariates too."""
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    df = _covariate_frame()
    ev = js.evaluate(df, judge="letter", design="random", covariates=["kind", "length"], rng=3)
    gen = np.random.default_rng(3)
    for g in ev.groups:
        rows = df[df.model == g]
        direct = js.scores.correct_scores(
            rows.letter.to_numpy(), rows.human.to_numpy(), rng=gen,
            covariates={"kind": rows.kind.to_numpy(), "length": rows.length.to_numpy()})
        assert ev[g].covariates_used_as == "predictor"
        assert (ev[g].estimate, ev[g].ci.low) == (direct.estimate, direct.ci.low)
    for other in (pl.from_pandas(df), duckdb.from_df(df)):
        again = js.evaluate(other, judge="letter", design="random", covariates=["kind", "length"],
                            rng=3)
        assert [again[g].estimate for g in again.groups] == [ev[g].estimate for g in ev.groups]


def test_covariates_under_by_human_label_are_strata():
    df = _covariate_frame(1)
    df["human"] = np.where(df.human.isna(), np.nan, df.human)
    ev = js.evaluate(df, judge="letter", covariates="kind")
    ref = js.evaluate(df, judge="letter", strata="kind")
    assert ev.strata == ("kind",)
    assert [ev[g].estimate for g in ev.groups] == [ref[g].estimate for g in ref.groups]
    with pytest.raises(ArgumentTypeError, match="covariate column 'judge' is"):
        js.evaluate(df, judge="letter", covariates=["kind", "judge"])
    with pytest.raises(ArgumentTypeError, match="covariates must be a column name"):
        js.evaluate(df, judge="letter", covariates=3)
    from judgestats.frames import group_counts

    counts = group_counts(df, judge="letter", by="model")
    with pytest.raises(ArgumentTypeError, match="covariates= needs the frame's rows"):
        js.evaluate(counts, covariates=["kind"], design="random")
    with pytest.raises(ArgumentTypeError, match="covariates= is not available with rater="):
        js.evaluate(df, judge="letter", covariates=["kind"], rater="kind", cluster="item")
