"""``judgestats correct`` and ``report`` with a judge score, a jury or covariates (issue 39)."""

import json

import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def _frame(n: int = 2400, labelled: float = 0.25, seed: int = 5) -> pd.DataFrame:
    """Two models; a probability-like score; two 0/1 judges; a length covariate."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    score = 1 / (1 + np.exp(-(2 * (2 * y - 1) + rng.normal(0, 1.5, n))))
    a = np.where(y, rng.random(n) < 0.9, rng.random(n) < 0.2).astype(int)
    b = np.where(y, rng.random(n) < 0.8, rng.random(n) < 0.3).astype(int)
    return pd.DataFrame({
        "model": np.where(np.arange(n) % 2 == 0, "x", "y"), "score": score.round(6), "a": a,
        "b": b, "length": rng.integers(10, 500, n),
        "human": np.where(rng.random(n) < labelled, y.astype(float), np.nan),
    })  # fmt: skip


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("judges")
    f = _frame()
    f.to_csv(d / "items.csv", index=False)
    f[f["human"].isna()].drop(columns="human").to_csv(d / "test.csv", index=False)
    f[f["human"].notna()].astype({"human": int}).to_csv(d / "cal.csv", index=False)
    return d, f


def test_correct_score_file_matches_correct_scores(capsys, files):
    d, f = files
    code, out, _ = run(capsys, "correct", "--test", d / "test.csv", "--calibration",
                       d / "cal.csv", "--judge", "score", "--design", "random", "--by", "model",
                       "--calibrator", "logistic", "--json", "--seed", "3")  # fmt: skip
    assert code == 0
    payload = json.loads(out)
    assert payload["method"] == "wald" and payload["design"] == "random"
    assert payload["judge"] == {"columns": ["score"], "kind": "score", "calibrator": "logistic"}
    # the same numbers as the API's correct_scores on each model's rows (test rows, then
    # calibration rows, as the command stacks them), drawn from one generator in group order
    gen = np.random.default_rng(3)
    for row in payload["rows"]:
        g = f[f["model"] == row["group"]]
        g = pd.concat([g[g["human"].isna()], g[g["human"].notna()]])
        res = js.scores.correct_scores(g["score"].to_numpy(), g["human"].to_numpy(),
                                       calibrator="logistic", design="random", rng=gen)
        assert row["estimate"] == pytest.approx(res.estimate, abs=1e-12)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((res.ci.low, res.ci.high),
                                                                abs=1e-12)  # fmt: skip
        assert row["effective_labels"] == pytest.approx(res.effective_labels, rel=1e-12)
        assert row["calibrator"] == "logistic" and row["fallback"] is None
        assert "prediction-powered" in row["estimator"]


def test_correct_score_table_names_calibrator_lambda_and_effective_labels(capsys, files):
    d, _ = files
    code, out, err = run(capsys, "correct", "--test", d / "test.csv", "--calibration",
                         d / "cal.csv", "--judge", "score", "--design", "random")  # fmt: skip
    assert code == 0 and err == ""
    head = out.splitlines()[2]
    for name in ("corrected (prediction-powered (PPI++, power-tuned), cross-fitted isotonic "
                 "calibration)", "95% CI (wald, random)", "calibrator", "λ̂",
                 "effective labels"):  # fmt: skip
        assert name in head
    assert "judge score 'score'" in out.splitlines()[0]


def test_correct_score_fallback_is_a_note(capsys, files):
    d, f = files
    cal = f[f["human"].notna()].head(40).astype({"human": int})
    cal.to_csv(d / "cal40.csv", index=False)
    code, out, _ = run(capsys, "correct", "--test", d / "test.csv", "--calibration",
                       d / "cal40.csv", "--judge", "score", "--design", "random",
                       "--threshold", "0.5")  # fmt: skip
    assert code == 0
    assert "note: result: fallback: the letter score > 0.5 (40 labelled items < 100)" in out


def test_correct_jury_weights_match_correct_jury(capsys, files):
    d, f = files
    code, out, _ = run(capsys, "correct", "--test", d / "test.csv", "--calibration",
                       d / "cal.csv", "--judge", "a,b", "--by", "model", "--json")  # fmt: skip
    assert code == 0
    payload = json.loads(out)
    assert payload["method"] == "min-variance" and payload["judge"]["kind"] == "jury"
    ev = js.evaluate(f, judge=["a", "b"], design="by-human-label")
    for row in payload["rows"]:
        res = ev.corrections[row["group"]]
        assert row["weights"] == pytest.approx(res.weights, abs=1e-12)
        assert row["estimate"] == pytest.approx(res.estimate, abs=1e-12)
        assert sum(row["weights"].values()) == pytest.approx(1.0, abs=1e-12)
    code, out, _ = run(capsys, "correct", "--test", d / "test.csv", "--calibration",
                       d / "cal.csv", "--judge", "a,b", "--by", "model")  # fmt: skip
    assert code == 0 and "jury of a, b" in out.splitlines()[0] and "a 0." in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--judge", "score"], "if the judge's outputs are a numeric score: --design random"),
    (["--judge", "a,nope"], "--test file has no column 'nope'"),
    (["--judge", "score", "--design", "by-human-label", "--calibrator", "isotonic"],
     "corrections of a numeric judge score are not available with --design by-human-label"),
    (["--judge", "a,b", "--combine", "average"], "argument --combine: invalid choice"),
    (["--judge", "score", "--design", "random", "--bins", "0.5,x"], "expected numbers"),
])  # fmt: skip
def test_correct_judge_errors_are_one_line(capsys, files, argv, message):
    d, _ = files
    code, out, err = run(capsys, "correct", "--test", d / "test.csv", "--calibration",
                         d / "cal.csv", *argv)  # fmt: skip
    assert code == 2 and out == "" and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_judge_flags_do_not_apply_to_counts(capsys):
    code, _, err = run(capsys, "correct", "--positive", "5", "--n", "10", "--tp", "4", "--fn",
                       "1", "--tn", "4", "--fp", "1", "--calibrator", "isotonic")  # fmt: skip
    assert code == 2 and "--calibrator does not apply to count mode" in err


def test_correct_covariates_pass_through(capsys, files):
    d, _ = files
    code, out, err = run(capsys, "correct", "--test", d / "test.csv", "--calibration",
                         d / "cal.csv", "--judge", "score", "--design", "random",
                         "--covariates", "length", "--json")  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["rows"][0]["estimate"] is not None


def test_covariates_under_the_paper_design_refuse_a_float_column_in_one_line(capsys, files):
    d, _ = files
    code, _, err = run(capsys, "correct", "--test", d / "test.csv", "--calibration",
                       d / "cal.csv", "--judge", "score", "--bins", "0,0.5,1",
                       "--covariates", "score")  # fmt: skip
    assert code == 2 and "covariate column 'score'" in err and err.count("\n") == 1


@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb"])
def test_report_score_and_jury_alike_on_every_engine(capsys, files, engine):
    pytest.importorskip(engine)
    d, f = files
    code, out, _ = run(capsys, "report", d / "items.csv", "--judge", "score", "--design",
                       "random", "--engine", engine, "--seed", "2")  # fmt: skip
    assert code == 0 and "### Judge score" in out
    ev = js.evaluate(f, judge="score", design="random", rng=2)
    c = ev.corrections["x"]
    assert f"| x | {c.n_labelled} | isotonic | 5 | {c.lam:.2f} | – | " in out
    code, out, _ = run(capsys, "report", d / "items.csv", "--judge", "a,b", "--engine", engine)
    assert code == 0 and "### Jury" in out
    res = js.evaluate(f, judge=["a", "b"], design="by-human-label").corrections["y"]
    assert f"| y | a{' (better)' if res.better == 'a' else ''} | {res.weights['a']:.3f} |" in out


def test_report_jury_counts_repeated_items(capsys, files, tmp_path):
    _, f = files
    rep = f.assign(item=np.arange(len(f)) // 4)  # two rows of each model per item
    rep.to_csv(tmp_path / "rep.csv", index=False)
    code, out, _ = run(capsys, "report", tmp_path / "rep.csv", "--judge", "a,b", "--cluster",
                       "item")  # fmt: skip
    assert code == 0, out
    res = js.evaluate(rep, judge=["a", "b"], cluster="item").corrections["x"]
    assert res.items is not None and f"{res.weights['a']:.3f}" in out.split("### Jury")[1]
    code, _, err = run(capsys, "report", tmp_path / "rep.csv", "--judge", "a,b", "--letters",
                       "--cluster", "item")  # fmt: skip
    assert code == 2 and "--cluster is not available with judge letters yet" in err


def test_correct_example_jury_uses_each_judges_split(capsys):
    code, out, _ = run(capsys, "correct", "--example", "chatbot-arena", "--judge",
                       "gpt-4,gpt-3.5", "--calibration-fraction", "0.3", "--json")  # fmt: skip
    assert code == 0
    jury = json.loads(out)
    code, out, _ = run(capsys, "correct", "--example", "chatbot-arena", "--judge", "gpt-4",
                       "--calibration-fraction", "0.3", "--method", "adjusted-wald", "--json")
    alone = {r["group"]: r for r in json.loads(out)["rows"]}
    assert jury["method"] == "min-variance" and jury["judge"]["kind"] == "jury"
    for row in jury["rows"]:
        single = alone[row["group"]]  # the same seeded split: the same test and calibration
        assert (row["n"], row["m0"], row["m1"]) == (single["n"], single["m0"], single["m1"])
        assert row["human_rate"] == single["human_rate"]
        assert sum(row["weights"].values()) == pytest.approx(1.0, abs=1e-12)
        assert row["covered"] == (row["ci_low"] <= row["human_rate"] <= row["ci_high"])
        inside = all(0 < r[k] < 1 for r in (row, single) for k in ("ci_low", "ci_high"))
        if row["fallback"] is None and inside:  # never wider than the better member alone
            assert row["ci_high"] - row["ci_low"] <= single["ci_high"] - single["ci_low"] + 1e-9


def test_correct_csv_names_estimator_calibrator_and_weights(capsys, files):
    d, _ = files
    argv = ["correct", "--test", d / "test.csv", "--calibration", d / "cal.csv", "--by", "model"]
    code, out, _ = run(capsys, *argv, "--judge", "a,b", "--csv")
    assert code == 0
    import io

    table = pd.read_csv(io.StringIO(out))
    code, js_out, _ = run(capsys, *argv, "--judge", "a,b", "--json")
    rows = json.loads(js_out)["rows"]
    assert list(table["group"]) == [r["group"] for r in rows]
    for (_, csv_row), row in zip(table.iterrows(), rows, strict=True):
        assert csv_row["estimate"] == pytest.approx(row["estimate"], rel=1e-15)
        assert csv_row["weight[a]"] == pytest.approx(row["weights"]["a"], rel=1e-15)
        assert csv_row["method"] == "min-variance" and "minimum-variance" in csv_row["estimator"]
    code, out, _ = run(capsys, *argv, "--judge", "score", "--design", "random", "--csv")
    table = pd.read_csv(io.StringIO(out))
    assert code == 0 and set(table["calibrator"]) == {"isotonic"}
    assert {"effective_labels", "lam", "fallback", "estimator"} <= set(table.columns)
    code, out, _ = run(capsys, *argv, "--judge", "a,b", "--csv", "--json")  # JSON's error
    assert code == 2 and json.loads(out)["type"] == "UsageError"
    assert "not allowed with argument --csv" in json.loads(out)["error"]


def test_a_score_without_its_fallback_is_refused_in_the_commands_words(capsys, files):
    d, f = files
    f[f["human"].notna()].head(40).astype({"human": int}).to_csv(d / "cal40b.csv", index=False)
    code, out, err = run(capsys, "correct", "--test", d / "test.csv", "--calibration",
                         d / "cal40b.csv", "--judge", "score", "--design", "random")  # fmt: skip
    assert code == 2 and out == ""
    assert err.startswith("judgestats: error: only 40 labelled items (< 100)")
    assert "--bins or --threshold" in err and "__judgestats" not in err


def test_estimand_items_with_a_score_is_refused_not_ignored(capsys, files, tmp_path):
    _, f = files
    rep = f.assign(item=np.arange(len(f)) // 3)
    with pytest.raises(js.errors.ArgumentTypeError, match="estimand"):
        js.evaluate(rep, judge="score", design="random", cluster="item", estimand="items")
    rep.to_csv(tmp_path / "rep.csv", index=False)
    code, _, err = run(capsys, "report", tmp_path / "rep.csv", "--judge", "score", "--design",
                       "random", "--cluster", "item", "--estimand", "items")  # fmt: skip
    assert code == 2 and "estimand is not available with a judge score" in err
    assert err.count("\n") == 1
