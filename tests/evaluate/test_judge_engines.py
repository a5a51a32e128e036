"""``evaluate`` with a judge score and with a jury: the same numbers on every engine (issue 39).

The score path collects its columns from the engine (``evaluate.scores.collect_columns``, narwhals);
the jury path counts product letters on the engine (``evaluate.letters``). Each engine's
result is compared with pandas' and with the array-level estimator run on the group's rows
(``correct_scores``; ``correct_jury`` on counts made here with numpy), not with a recorded
number.
"""

import numpy as np
import pandas as pd
import pytest

import judgestats as js

ENGINES = ["pandas", "pyarrow", "polars", "polars-lazy", "duckdb"]


def _frame(seed: int = 11, n: int = 2400) -> pd.DataFrame:
    """Three groups; a score and two 0/1 judges of one hidden label; 30% labelled."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    score = 1 / (1 + np.exp(-(1.8 * (2 * y - 1) + rng.normal(0, 1.4, n))))
    a = np.where(y, rng.random(n) < 0.88, rng.random(n) < 0.15).astype(np.int64)
    b = np.where(y, rng.random(n) < 0.75, rng.random(n) < 0.25).astype(np.int64)
    return pd.DataFrame({"model": np.array(["m1", "m2", "m3"])[np.arange(n) % 3],
                         "score": score, "a": a, "b": b,
                         "human": np.where(rng.random(n) < 0.3, y.astype(float), np.nan)})


def _native(df: pd.DataFrame, engine: str):
    if engine == "pandas":
        return df
    if engine == "pyarrow":
        pa = pytest.importorskip("pyarrow")
        return pa.Table.from_pandas(df, preserve_index=False)
    if engine.startswith("polars"):
        pl = pytest.importorskip("polars")
        return pl.from_pandas(df).lazy() if engine == "polars-lazy" else pl.from_pandas(df)
    duckdb = pytest.importorskip("duckdb")
    return duckdb.from_df(df)


@pytest.fixture(scope="module")
def frame():
    return _frame()


@pytest.fixture(scope="module")
def pandas_scores(frame):
    return js.evaluate(frame, judge="score", design="random", rng=4)


@pytest.fixture(scope="module")
def pandas_jury(frame):
    return js.evaluate(frame, judge=["a", "b"], design="by-human-label", confidence_level=0.9)


@pytest.mark.parametrize("engine", ENGINES)
def test_score_path_gives_the_same_numbers_on_every_engine(frame, pandas_scores, engine):
    ev = js.evaluate(_native(frame, engine), judge="score", design="random", rng=4)
    assert ev.engine == ("polars" if engine == "polars-lazy" else engine)
    assert ev.groups == pandas_scores.groups == ("m1", "m2", "m3")
    for g in ev.groups:
        assert ev[g].to_dict() == pandas_scores[g].to_dict()


def test_score_path_is_correct_scores_of_each_groups_rows(frame, pandas_scores):
    gen = np.random.default_rng(4)  # evaluate draws each group's folds in sorted order
    for g in pandas_scores.groups:
        rows = frame[frame["model"] == g]
        direct = js.scores.correct_scores(rows["score"].to_numpy(), rows["human"].to_numpy(),
                                          design="random", rng=gen)  # fmt: skip
        res = pandas_scores[g]
        assert (res.estimate, res.ci.low, res.ci.high) == (direct.estimate, direct.ci.low,
                                                           direct.ci.high)  # fmt: skip
        assert res.effective_labels == pytest.approx(
            res.estimate * (1 - res.estimate) / res.variance, rel=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_jury_gives_the_same_numbers_on_every_engine(frame, pandas_jury, engine):
    ev = js.evaluate(_native(frame, engine), judge=["a", "b"], design="by-human-label",
                     confidence_level=0.9)  # fmt: skip
    assert ev.engine == ("polars" if engine == "polars-lazy" else engine)
    for g in ev.groups:
        assert ev[g].to_dict() == pandas_jury[g].to_dict()
        assert ev[g].weights == pandas_jury[g].weights


def test_jury_is_correct_jury_of_counts_made_with_numpy(frame, pandas_jury):
    for g in pandas_jury.groups:
        rows = frame[frame["model"] == g]
        lab = rows["human"].notna().to_numpy()
        letters = np.char.add(np.char.add(rows["a"].to_numpy().astype(str), "|"),
                              rows["b"].to_numpy().astype(str))  # fmt: skip
        alphabet = ("0|0", "0|1", "1|0", "1|1")
        test = js.multiclass.CategoryCounts([int((letters[~lab] == x).sum()) for x in alphabet],
                                            labels=alphabet)  # fmt: skip
        human = rows["human"].to_numpy()[lab]
        cal = js.multiclass.ConfusionMatrix(
            [[int(((letters[lab] == x) & (human == k)).sum()) for k in (0, 1)]
             for x in alphabet], labels=(0, 1), judge_labels=alphabet)  # fmt: skip
        direct = js.correct_jury(test, cal, judges=["a", "b"], confidence_level=0.9)
        res = pandas_jury[g]
        assert res.estimate == pytest.approx(direct.estimate, abs=1e-14)
        assert (res.ci.low, res.ci.high) == pytest.approx((direct.ci.low, direct.ci.high),
                                                          abs=1e-14)  # fmt: skip
        assert res.weights == pytest.approx(direct.weights, abs=1e-14)
