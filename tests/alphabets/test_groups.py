"""js.evaluate with a judge alphabet: a score column, an invalid letter, two judges, per group.

Reference values are independent computations in the test: each group's rows are counted
with pandas boolean masks and ``js.alphabet_counts`` (no engine, no grouped count), corrected
by ``js.correct_distribution``; at two letters the rate must equal ``js.correct``'s own
profile-likelihood-t interval (the binary exact path, issue 15).
"""

import warnings

import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats._validation import GroupLabelError, JudgeStatsError, LabelError, MethodError
from tests.evaluate.test_groups import to_engine

SCORES = (1, 2, 3, 4, 5)


def _score_frame(seed=0, n=1500, m=300, thetas=(("a", 0.3), ("b", 0.6)), invalid=0.0):
    """A 1-5 score judge on two models; ``m`` random calibration rows per model."""
    rng = np.random.default_rng(seed)
    parts = []
    for model, theta in thetas:
        truth = rng.random(n) < theta
        p1, p0 = [0.05, 0.1, 0.15, 0.3, 0.4], [0.4, 0.3, 0.15, 0.1, 0.05]
        score = np.where(truth, rng.choice(SCORES, n, p=p1), rng.choice(SCORES, n, p=p0))
        score = score.astype(float)
        if invalid:  # refusals depend on the truth: 3x more often on true-1 items
            score[rng.random(n) < np.where(truth, 3 * invalid, invalid)] = np.nan
        human = np.full(n, np.nan)
        idx = rng.choice(n, m, replace=False)
        human[idx] = truth[idx]
        parts.append(pd.DataFrame({"model": model, "score": score, "human": human,
                                   "truth": truth.astype(int)}))  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def _direct(df, model, judge, **kw):
    sub = df[df["model"] == model]
    test, cal = js.alphabet_counts(sub, judge=judge, human="human", min_count=1, **kw)
    return js.correct_distribution(test, cal, method="profile-likelihood-t")


@pytest.mark.parametrize("engine", ["pandas", "pyarrow", "polars", "polars-lazy", "duckdb", "dask"])
def test_score_judge_per_group_equals_the_direct_fit(engine):
    df = _score_frame()
    ev = js.evaluate(to_engine(df.drop(columns="truth"), engine), judge="score",
                     judge_labels="observed")  # fmt: skip
    assert ev.groups == ("a", "b") and ev.method == "profile-likelihood-t"
    for g in ev.groups:
        ref = _direct(df, g, "score")
        got = ev[g]
        assert isinstance(got, js.AlphabetCorrection)
        assert got.letters == (1.0, 2.0, 3.0, 4.0, 5.0)
        np.testing.assert_allclose(
            [got.estimate, got.ci.low, got.ci.high],
            [ref.estimate[1], ref.ci[1].low, ref.ci[1].high], rtol=0, atol=1e-12,
        )  # fmt: skip
        assert (got.m0 + got.m1, got.n) == (300, 1200)
        assert np.isnan(got.naive)  # a score's "1" is no verdict 1
    # the truth of these data: inside each interval (seeded; the fit is unbiased)
    for g in ev.groups:
        truth = df.loc[df.model == g, "truth"].mean()
        assert ev[g].ci.low <= truth <= ev[g].ci.high


def test_two_letters_are_the_binary_profile_likelihood_t():
    df = _score_frame(seed=1)
    df["verdict"] = (df["score"] >= 4).astype(int)
    ev = js.evaluate(df.drop(columns=["truth", "score"]), judge="verdict", judge_labels=[0, 1])
    binary = js.evaluate(df.drop(columns=["truth", "score"]), judge="verdict",
                         method="profile-likelihood-t")  # fmt: skip
    for g in ev.groups:
        a, b = ev[g], binary[g]
        np.testing.assert_allclose([a.estimate, a.ci.low, a.ci.high],
                                   [b.estimate, b.ci.low, b.ci.high], atol=1e-7)  # fmt: skip
        assert a.naive == pytest.approx(b.naive, abs=1e-15)  # letters 0/1: the judged rate


def test_invalid_verdicts_are_a_letter_and_missing_ones_are_named_without_it():
    df = _score_frame(seed=2, invalid=0.05)
    with pytest.raises(GroupLabelError, match=r"missing value in group model='a'.*invalid="):
        js.evaluate(df.drop(columns="truth"), judge="score", judge_labels="observed")
    ev = js.evaluate(df.drop(columns="truth"), judge="score", invalid=[None])
    assert ev["a"].letters[-1] == js.alphabets.INVALID and len(ev["a"].letters) == 6
    ref = _direct(df, "a", "score", invalid=[None])
    assert ev["a"].estimate == pytest.approx(ref.estimate[1], abs=1e-12)
    counts = ev.counts_dataframe()
    assert list(counts.columns) == ["model", "letter", "n", "human_0", "human_1"]
    per_model = counts.groupby("model")[["n", "human_0", "human_1"]].sum()
    assert per_model.loc["a"].tolist() == [1200, ev["a"].m0, ev["a"].m1]


def test_two_judges_make_the_product_alphabet_and_split_hides_test_labels():
    df = _score_frame(seed=3)
    rng = np.random.default_rng(3)
    df["second"] = np.where(rng.random(len(df)) < 0.8, df["truth"], 1 - df["truth"])
    df["split"] = np.where(df["human"].notna(), "calibration", "test")
    df["human"] = df["truth"]  # the split column decides; test rows' labels are ignored
    ev = js.evaluate(df.drop(columns="truth"), judge=["score", "second"], split="split")
    assert ev.judge == "score, second"
    g = ev["b"]
    assert all("|" in str(v) for v in g.letters) and len(g.letters) == 10
    sub = df[df.model == "b"].copy()
    sub["human"] = sub["human"].where(sub["split"] == "calibration")
    test, cal = js.alphabet_counts(sub, judge=["score", "second"], human="human", min_count=1)
    ref = js.correct_distribution(test, cal)
    assert g.estimate == pytest.approx(ref.estimate[1], abs=1e-12)
    assert g.ci.high == pytest.approx(ref.ci[1].high, abs=1e-12)


def test_bad_calls_are_named_errors():
    df = _score_frame(seed=5).drop(columns="truth")
    with pytest.raises(MethodError, match="not available for corrections with a judge alphabet"):
        js.evaluate(df, judge="score", judge_labels="observed", method="adjusted-wald")
    with pytest.raises(JudgeStatsError, match="strata= is not available with a judge alphabet"):
        js.evaluate(df.assign(s=1), judge=["score"], strata="s")
    with pytest.raises(JudgeStatsError, match="rank=True is not available"):
        js.evaluate(df, judge=["score"], rank=True)
    with pytest.raises(LabelError, match=r"letters not in judge_labels: \[5\.0\]"):
        js.evaluate(df, judge="score", judge_labels=[1, 2, 3, 4])
    bad = df.copy()
    bad.loc[bad.index[(bad.model == "b") & bad.human.notna()][:3], "human"] = 2
    with pytest.raises(GroupLabelError, match=r"group model='b': 3 rows of 2\.0"):
        js.evaluate(bad, judge=["score"])
    with pytest.raises(js.errors.ColumnError, match="'nope'"):
        js.evaluate(df, judge=["score", "nope"])


def test_a_group_without_calibration_rows_is_marked():
    df = _score_frame(seed=6, thetas=(("a", 0.3), ("b", 0.5), ("c", 0.7)))
    df.loc[df.model == "c", "human"] = np.nan
    df = df.drop(columns="truth")
    with pytest.raises(js.errors.EmptyGroupError, match="model='c'"):
        js.evaluate(df, judge=["score"])
    ev = js.evaluate(df, judge=["score"], errors="mark")
    assert ev.groups == ("a", "b") and "EmptyGroupError" in ev.marked["c"]
    assert "c: not corrected" in ev.summary().replace("not corrected: c", "c: not corrected")


def test_sparse_letters_warn_naming_the_group():
    df = _score_frame(seed=7, m=40).drop(columns="truth")
    with pytest.warns(js.SparseLettersWarning) as caught:
        ev = js.evaluate(df, judge="score", judge_labels="observed")
    messages = sorted(str(w.message) for w in caught)
    assert [m[:35] for m in messages] == [f"group model='{g}': judge letters with" for g in "ab"]
    assert ev.warnings["a"][0][0] == "SparseLettersWarning"  # kept for the report


def test_random_design_takes_the_judge_conditional_methods():
    df = _score_frame(seed=9).drop(columns="truth")
    ev = js.evaluate(df, judge="score", judge_labels="observed", design="random")
    assert ev.method == "adjusted-delta" and ev["a"].design == "random"
    sub = df[df.model == "a"]
    test, cal = js.alphabet_counts(sub, judge="score", human="human", min_count=1)
    ref = js.correct_distribution(test, cal, design="random")
    assert ev["a"].ci.low == pytest.approx(ref.ci[1].low, abs=1e-12)
    assert "judge-conditional" in ev["a"].estimator
    with pytest.raises(MethodError, match="judge alphabet with design='random'"):
        js.evaluate(df, judge="score", judge_labels="observed", design="random",
                    method="profile-likelihood-t")  # fmt: skip


@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb"])
def test_numeric_scores_are_binned_on_the_engine(engine):
    """Continuous scores with bins=: the engine sends bin codes, not every distinct score.

    Reference: the same rows binned in Python by js.alphabet_counts (its own path).
    """
    rng = np.random.default_rng(10)
    n = 4000
    truth = rng.random(n) < 0.4
    score = np.clip(np.where(truth, rng.normal(3.8, 0.8, n), rng.normal(2.4, 0.8, n)), 1, 5)
    score[rng.random(n) < 0.02] = -1  # a refusal code
    score[rng.random(n) < 0.02] = np.nan
    human = np.where(rng.random(n) < 0.15, truth.astype(float), np.nan)
    df = pd.DataFrame({"model": rng.choice(["a", "b"], n), "score": score, "human": human})
    frame = to_engine(df, engine)
    if engine == "polars":  # a missing score is null there, as the engines store it
        frame = frame.fill_nan(None)
    ev = js.evaluate(frame, judge="score", bins=[1, 2, 3, 4, 5], invalid=[None, -1], min_count=1)
    for g in ("a", "b"):
        test, cal = js.alphabet_counts(df[df.model == g], judge="score", bins=[1, 2, 3, 4, 5],
                                       invalid=[None, -1], min_count=1)  # fmt: skip
        assert ev[g].letters == test.labels == ("[1, 2)", "[2, 3)", "[3, 4)", "[4, 5]", "invalid")
        np.testing.assert_array_equal(ev[g].distribution.calibration.counts, cal.counts)
        assert ev[g].estimate == pytest.approx(
            js.correct_distribution(test, cal).estimate[1], abs=1e-12
        )
    with pytest.raises(GroupLabelError, match=r"values in group model='a' outside the bins"):
        js.evaluate(to_engine(df.assign(score=df.score * 2), engine), judge="score",
                    bins=[1, 2, 3, 4, 5], invalid=[None, -1])  # fmt: skip
    with pytest.raises(GroupLabelError, match="missing value in group"):
        js.evaluate(frame, judge="score", bins=[1, 2, 3, 4, 5], invalid=[-1])


# ----------------------------------------------------------------------------- review findings
def test_float32_and_integer_scores_bin_like_every_other_engine():
    pl = pytest.importorskip("polars")
    rng = np.random.default_rng(13)
    n = 2000
    score = np.round(rng.random(n), 1)  # values on the edges 0.3 and 0.7 too
    human = np.where(rng.random(n) < 0.3, (rng.random(n) < score).astype(float), np.nan)
    # the same float32 scores on pandas and polars: every engine compares them with the edges
    # in double precision (a float32 0.7 is 0.69999999, below the edge 0.7), as pandas did
    # while polars compared in single precision
    df = pd.DataFrame({"model": "a", "score": score.astype(np.float32), "human": human})
    ref = js.evaluate(df, judge="score", bins=[0, 0.3, 0.7, 1], min_count=1)["a"]
    f32 = pl.from_pandas(df)
    assert f32.schema["score"] == pl.Float32
    got = js.evaluate(f32, judge="score", bins=[0, 0.3, 0.7, 1], min_count=1)["a"]
    np.testing.assert_array_equal(got.distribution.calibration.counts,
                                  ref.distribution.calibration.counts)  # fmt: skip
    np.testing.assert_array_equal(got.distribution.test.counts, ref.distribution.test.counts)
    ints = pl.DataFrame({"model": ["a"] * 8, "score": [1, 5, -1, 3, 1, 5, -1, 3],
                         "human": [0, 1, 1, 0, None, None, None, None]})  # fmt: skip
    counts = js.alphabets.groups.letter_counts(ints, judge="score", bins=[1, 3, 5], invalid=[-1])
    assert counts.alphabet == ("[1, 3)", "[3, 5]", "invalid")


def test_bad_bins_judge_and_invalid_arguments_are_named():
    df = _score_frame(seed=14).drop(columns="truth")
    with pytest.raises(js.errors.ArgumentTypeError, match="bins must be at least two increasing edges"):
        js.evaluate(df, judge="score", bins=[1, np.nan, 5])
    with pytest.raises(js.errors.ArgumentTypeError, match="judge must be a column name"):
        js.evaluate(df, judge=5, judge_labels="observed")
    with pytest.raises(js.errors.ArgumentTypeError, match="invalid must be a list"):
        js.evaluate(df, judge="score", invalid="refused")
    with pytest.raises(js.JudgeStatsError, match="min_count must be >= 1, got 0"):
        js.evaluate(df, judge="score", judge_labels="observed", min_count=0, errors="mark")


def test_decimal_scores_split_missing_labels_and_nan_letters():
    duckdb = pytest.importorskip("duckdb")
    df = _score_frame(seed=15).drop(columns="truth")
    rel = duckdb.from_df(df).project("model, CAST(score AS DECIMAL(4, 1)) AS score, human")
    ev = js.evaluate(rel, judge="score", judge_labels="observed")
    assert ev["a"].letters == (1, 2, 3, 4, 5)
    assert ev["a"].estimate == pytest.approx(
        js.evaluate(df, judge="score", judge_labels="observed")["a"].estimate, abs=1e-12
    )
    bad = df.assign(split=np.where(df.human.notna() | (np.arange(len(df)) % 50 == 0),
                                   "calibration", "test"))  # fmt: skip
    with pytest.raises(GroupLabelError, match=r"group model='a': \d+ rows of None;"):
        js.evaluate(bad, judge="score", judge_labels="observed", split="split")
    assert js.alphabets._sorted_alphabet(["2", "nan", "1"]) == ("1", "2", "nan")
    assert js.alphabets._sorted_alphabet(["nan", "2", "1"]) == ("1", "2", "nan")


def test_a_marked_group_of_letters_keeps_its_letter_counts():
    """Issue 31 §1: errors="mark" keeps a judge alphabet's group counts too (every row counted)."""
    rng = np.random.default_rng(0)
    h = rng.integers(0, 2, 600)
    j = np.where(h == 1, rng.choice(["A", "B", "C"], 600, p=[0.7, 0.2, 0.1]),
                 rng.choice(["A", "B", "C"], 600, p=[0.1, 0.3, 0.6]))  # fmt: skip
    model = np.repeat(["x", "y", "z"], 200)
    label = np.where((np.arange(600) % 200 < 80) & (model != "z"), h.astype(float), np.nan)
    frame = pd.DataFrame({"model": model, "judge": j, "human": label})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = js.evaluate(frame, judge_labels="observed", errors="mark")
    assert ev.groups == ("x", "y") and set(ev.marked) == {"z"}
    z = ev.counts_dataframe().query("model == 'z'")
    assert (
        dict(zip(z["letter"], z["n"], strict=True))
        == frame[model == "z"].judge.value_counts().to_dict()
    )
    assert (z[["human_0", "human_1"]].to_numpy() == 0).all() and z["marked"].notna().all()
    assert ev.counts_dataframe()[["n", "human_0", "human_1"]].to_numpy().sum() == 600
    assert ev.to_dataframe().set_index("model").loc["z", ["n", "m0", "m1"]].tolist() == [200, 0, 0]


def test_letter_counts_keep_each_items_counts_with_cluster():
    # counted by hand: item 1 has two test rows (1|0, 1|1), item 2 a test row and a labelled
    # row, item 3 a labelled row; the item totals sum to the group's counts
    from judgestats.alphabets.groups import letter_counts
    from judgestats.errors import ColumnError

    frame = pd.DataFrame({"model": "m", "item": [1, 1, 2, 2, 3], "a": [1, 1, 0, 0, 1],
                          "b": [0, 1, 1, 1, 1], "human": [None, None, None, 1, 0]})  # fmt: skip
    counts = letter_counts(frame, judge=["a", "b"], cluster="item")
    test, cal = counts.pair(("m",))
    assert test.labels == ("0|1", "1|0", "1|1")
    assert test.clusters.ids.tolist() == [1, 2]
    assert test.clusters.totals.tolist() == [[0, 1, 1], [1, 0, 0]]
    assert cal.clusters.ids.tolist() == [2, 3]
    assert cal.clusters.totals.tolist() == [[0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0]]
    with pytest.raises(ColumnError, match="missing item id"):
        letter_counts(frame.assign(item=[1, None, 2, 2, 3]), judge=["a", "b"], cluster="item")
