"""CLI: ``judgestats pairwise`` (issue 29): the command gives js.pairwise's numbers."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats.cli import main


def _pairs(tmp_path):
    g = np.random.default_rng(2930)
    n, beta = 3000, np.array([0.6, 0.1, -0.7])
    a = g.integers(0, 3, n)
    b = (a + g.integers(1, 3, n)) % 3
    d = beta[a] - beta[b]
    w = np.stack([np.exp(d / 2), np.full(n, 0.6), np.exp(-d / 2)], 1)
    human = (g.random(n)[:, None] > np.cumsum(w / w.sum(1, keepdims=True), 1)).sum(1)
    judge = np.where(g.random(n) < 0.7, human, g.integers(0, 3, n))
    names = np.array(["model_a", "tie", "model_b"], dtype=object)
    frame = pd.DataFrame({"model_a": [f"m{i}" for i in a], "model_b": [f"m{i}" for i in b],
                          "verdict": names[judge],
                          "human": np.where(g.random(n) < 0.15, names[human], None)})  # fmt: skip
    path = tmp_path / "pairs.csv"
    frame.to_csv(path, index=False)
    return frame, str(path)


def test_pairwise_command_matches_the_function(tmp_path, capsys):
    frame, path = _pairs(tmp_path)
    assert main(["pairwise", path, "--judge-column", "verdict", "--json", "--seed", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    board = js.pairwise(frame, judge="verdict", rng=0)
    assert out["method"] == "ppi" and out["design"] == "random"
    got = {r["model"]: r["strength"] for r in out["rows"]}
    for m, s in zip(board.models, board.strength, strict=True):
        assert abs(got[m] - s) < 1e-9  # to_json keeps 10 significant digits
    assert main(["pairwise", path, "--judge-column", "verdict"]) == 0
    assert "prediction-powered" in capsys.readouterr().out
    assert main(["pairwise", path, "--judge-column", "verdict", "--report", "latex",
                 "--seed", "0"]) == 0  # fmt: skip
    assert capsys.readouterr().out == board.report("latex")


def test_pairwise_command_errors_are_one_line(tmp_path, capsys):
    _, path = _pairs(tmp_path)
    assert main(["pairwise", path]) == 2  # no 'judge' column
    assert "judge" in capsys.readouterr().err
    assert main(["pairwise", path, "--judge-column", "verdict", "--method", "ppi",
                 "--design", "by-human-label"]) == 2  # fmt: skip
    assert "by-human-label" in capsys.readouterr().err


def test_pairwise_command_cluster_column(tmp_path, capsys):
    frame, _ = _pairs(tmp_path)
    frame["prompt"] = np.arange(len(frame)) // 3  # three rows per prompt
    path = tmp_path / "clustered.csv"
    frame.to_csv(path, index=False)
    args = ["pairwise", str(path), "--judge-column", "verdict", "--cluster", "prompt"]
    assert main([*args, "--json", "--seed", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    board = js.pairwise(pd.read_csv(path, dtype=str), judge="verdict", cluster="prompt", rng=0)
    assert board.n_clusters == 1000
    got = {r["model"]: r["strength"] for r in out["rows"]}
    for m, s in zip(board.models, board.strength, strict=True):
        assert abs(got[m] - s) < 1e-9
    assert any("sampling units" in note for note in out["notes"])
    assert main([*args, "--method", "joint-mle"]) != 0  # ClusteredCountsError, one line


def test_pairwise_on_an_empty_file_is_one_line_not_a_traceback(tmp_path, capsys):
    """Issue 38 #6: ``judgestats pairwise`` on an empty file was a pandas traceback (EmptyDataError,
    exit 1); a file with a header and no pairs is named as such too."""
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert main(["pairwise", str(empty)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert err == f"judgestats: error: {empty} is empty\n"
    header = tmp_path / "header.csv"
    header.write_text("model_a,model_b,judge,human\n")
    assert main(["pairwise", str(header)]) == 2
    assert capsys.readouterr().err == (f"judgestats: error: {header} has a header but no pairs "
                                       "(no rows)\n")  # fmt: skip


def test_pairwise_na_in_the_human_column_is_named(tmp_path, capsys):
    """A human cell written NA (R's missing value) was read by pandas as missing, silently; it is
    now refused with what to do, since only an empty cell marks a pair without a verdict."""
    frame, _ = _pairs(tmp_path)
    frame["human"] = frame["human"].astype(object).where(frame["human"].notna(), "")
    frame.loc[[3, 8], "human"] = "NA"
    path = tmp_path / "na.csv"
    frame.to_csv(path, index=False)
    assert main(["pairwise", str(path), "--judge", "verdict"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "the human column 'human' holds 'NA' on 2 row(s), a missing value in R's" in err
    assert "empty those cells" in err


def test_a_missing_column_is_named_by_its_argument_in_each_interface(tmp_path, capsys):
    """Issue 38 tour: a cluster column the pairs lack gave "the frame has no column 'prompt'
    (columns=)" from the API and the CLI alike. The API names its keyword (``cluster=``), the
    command the file and its flag (``--cluster``); the same for ``--position``."""
    frame, path = _pairs(tmp_path)
    try:
        js.pairwise(frame, judge="verdict", cluster="prompt", rng=0)
    except js.errors.ColumnError as exc:
        said = str(exc)
    assert "'prompt' (cluster=)" in said and "columns=" not in said
    for flag in ("--cluster", "--position"):
        assert main(["pairwise", path, "--judge", "verdict", flag, "prompt"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"judgestats: error: {path} has no column 'prompt' ({flag} names")
        assert "=)" not in err and len(err.splitlines()) == 1


def test_a_warning_is_one_line_in_cli_words(tmp_path, capsys):
    """Issue 38 tour: ``pairwise --method joint-mle`` printed its ``JudgeDependenceWarning``
    the way Python shows a warning, with the file, line and source line of the call. Now one
    line, ``warning: ...``, with the command's flag (``--method ppi``), as the other commands
    print theirs; the same numbers as the API."""
    frame, path = _pairs(tmp_path)
    g = np.random.default_rng(3038)  # a judge that favours m0 on 35% of its pairs, whatever
    a, b = frame["model_a"] == "m0", frame["model_b"] == "m0"  # the human said
    flip = (a | b) & (g.random(len(frame)) < 0.35)
    frame.loc[flip, "verdict"] = np.where(a[flip], "model_a", "model_b")
    frame.to_csv(path, index=False)
    with pytest.warns(js.JudgeDependenceWarning):
        board = js.pairwise(frame, judge="verdict", method="joint-mle", rng=0)
    assert main(["pairwise", path, "--judge", "verdict", "--method", "joint-mle", "--seed", "0",
                 "--json"]) == 0  # fmt: skip
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: the judge's verdict depends")
    assert lines[0].endswith("use --method ppi") and ".py:" not in captured.err
    got = {r["model"]: r["strength"] for r in json.loads(captured.out)["rows"]}
    assert all(abs(got[m] - s) < 1e-9 for m, s in zip(board.models, board.strength, strict=True))


def test_the_table_note_says_the_flag_as_the_warning_does(tmp_path, capsys):
    """Third tour of issue 38: with ``--method joint-mle`` the stderr warning said "use --method
    ppi" while the table's note below said "use method='ppi'". The printed summary and the
    ``--report`` are in the command's words (``cli.options.cli_words``); the API keeps its own."""
    frame, path = _pairs(tmp_path)
    g = np.random.default_rng(3038)  # the judge of the test above, which favours m0
    a, b = frame["model_a"] == "m0", frame["model_b"] == "m0"
    flip = (a | b) & (g.random(len(frame)) < 0.35)
    frame.loc[flip, "verdict"] = np.where(a[flip], "model_a", "model_b")
    frame.to_csv(path, index=False)
    with pytest.warns(js.JudgeDependenceWarning):
        board = js.pairwise(frame, judge="verdict", method="joint-mle", rng=0)
    assert any("method='ppi'" in n for n in board.notes)
    for extra in ((), ("--report", "markdown")):
        assert main(["pairwise", path, "--judge", "verdict", "--method", "joint-mle", "--seed",
                     "0", *extra]) == 0  # fmt: skip
        out = capsys.readouterr().out
        assert "use --method ppi" in out and "method='ppi'" not in out


def _style_file(tmp_path):
    """A seeded frame with a jury (judge, j2), a probability p_a, covariates and a style column."""
    from tests.pairwise._style_data import style_pairs

    frame, _ = style_pairs(np.random.default_rng(3939), n=1000, delta=0.8)
    frame["p_tie"] = np.clip(0.9 - frame["p_a"], 0.0, 0.3)
    path = tmp_path / "style.csv"
    frame.to_csv(path, index=False)
    return pd.read_csv(path), str(path)


_STYLE = {  # the command's flags -> js.pairwise's keywords (issue 39's options)
    "jury-control": (["--prediction", "judge,j2", "--control", "len_diff"],
                     {"prediction": ["judge", "j2"], "control": ["len_diff"]}),
    "probability-covariates": (["--prediction", "p_a", "--covariates", "noise,cat"],
                               {"prediction": "p_a", "covariates": ["noise", "cat"]}),
    "distribution-jury-controls": (
        ["--prediction", "j2,a=p_a,tie=p_tie", "--control", "len_diff,noise"],
        {"prediction": ["j2", {"a": "p_a", "tie": "p_tie"}], "control": ["len_diff", "noise"]}),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(_STYLE))
def test_pairwise_command_options_give_the_functions_numbers(tmp_path, capsys, case):
    """Issue 39: --prediction COL,COL / a probability column / a=COL,tie=COL, --covariates and
    --control reach js.pairwise; the JSON and CSV carry its strengths, predictors, covariates
    and each control's coefficient, SE and interval to 1e-12 (reference: the API on the same
    file, same seed)."""
    frame, path = _style_file(tmp_path)
    flags, kw = _STYLE[case]
    board = js.pairwise(frame, rng=0, **kw)
    assert main(["pairwise", path, *flags, "--seed", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["predictors"] == list(board.predictors) and out["covariates"] == list(
        board.covariates)
    assert out["estimator"] == board.estimator and out["notes"] == list(board.notes)
    got = {r["model"]: r for r in out["rows"]}
    for i, m in enumerate(board.models):
        assert abs(got[m]["strength"] - board.strength[i]) < 1e-12
        assert abs(got[m]["strength_upper"] - board.strength_ci[i, 1]) < 1e-12
    assert [c["control"] for c in out["controls"]] == list(board.controls)
    for j, c in enumerate(out["controls"]):
        assert abs(c["coefficient"] - board.control_coefficient[j]) < 1e-12
        assert abs(c["se"] - board.control_se[j]) < 1e-12
        assert abs(c["lower"] - board.control_ci[j, 0]) < 1e-12
        assert abs(c["upper"] - board.control_ci[j, 1]) < 1e-12
    assert main(["pairwise", path, *flags, "--seed", "0", "--csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out), keep_default_na=False)
    order = [board.models.index(m) for m in table["model"]]
    assert np.abs(table["strength"].to_numpy(float) - board.strength[order]).max() < 1e-12
    assert set(table["predictors"]) == {"; ".join(board.predictors)}
    assert set(table["covariates"]) == {"; ".join(board.covariates)}
    for j, name in enumerate(board.controls):
        assert abs(table[f"control[{name}]"].iloc[0] - board.control_coefficient[j]) < 1e-12
        assert abs(table[f"control[{name}]_lower"].iloc[0] - board.control_ci[j, 0]) < 1e-12
    assert main(["pairwise", path, *flags, "--seed", "0"]) == 0
    text = capsys.readouterr().out
    assert text == board.summary() + "\n"  # the summary lists the controls with their interval
    assert main(["pairwise", path, *flags, "--seed", "0", "--report", "markdown"]) == 0
    assert capsys.readouterr().out == board.report("markdown")


def test_pairwise_command_judge_letter_prediction_has_empty_fields(tmp_path, capsys):
    """Without the new options the JSON names no predictors, covariates or controls, and its
    rows keep every digit (they were rounded to 10 significant digits)."""
    frame, path = _style_file(tmp_path)
    board = js.pairwise(frame, rng=0)
    assert main(["pairwise", path, "--seed", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["predictors"], out["covariates"], out["controls"]) == ([], [], [])
    got = {r["model"]: r["strength"] for r in out["rows"]}
    assert all(got[m] == s for m, s in zip(board.models, board.strength, strict=True))


@pytest.mark.parametrize(("flags", "error"), [
    (["--control", "nope"], js.errors.ColumnError),
    (["--prediction", "judge,missing"], js.errors.ColumnError),
    (["--prediction", "a=p_a,x=p_tie"], js.errors.ArgumentTypeError),
    (["--control", "len_diff", "--covariates", "len_diff"], js.errors.ColumnError),
    (["--control", "cat"], js.errors.JudgeStatsError),
    (["--prediction", "j2", "--method", "joint-mle"], js.errors.MethodError),
])  # fmt: skip
def test_pairwise_command_bad_options_are_the_apis_error_in_one_line(tmp_path, capsys, flags,
                                                                      error):  # fmt: skip
    """Bad --prediction/--covariates/--control: exit 2, one line, the message js.pairwise raises."""
    from judgestats.cli.options import cli_words
    from judgestats.cli.pairwise import _columns, _prediction

    frame, path = _style_file(tmp_path)
    args = dict(zip(flags[::2], flags[1::2], strict=True))
    kw = {"prediction": _prediction(args.get("--prediction", "judge-letter"), frame.columns),
          "covariates": _columns(args.get("--covariates"), frame.columns),
          "control": _columns(args.get("--control"), frame.columns),
          "method": args.get("--method")}  # fmt: skip
    with pytest.raises(error) as raised:
        js.pairwise(frame, rng=0, **kw)
    assert main(["pairwise", path, *flags]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err == f"judgestats: error: {cli_words(str(raised.value))}\n"


def test_prediction_flag_is_read_as_the_api_reads_it():
    """--prediction's forms: a name, a column (kept whole even with a comma), a jury, a
    distribution, a jury with a distribution."""
    from judgestats.cli.pairwise import _columns, _prediction

    cols = ["judge", "j2", "p_a", "p_tie", "odd,name"]
    assert _prediction("judge-letter", cols) == "judge-letter"
    assert _prediction("odd,name", cols) == "odd,name"
    assert _prediction("p_a", cols) == "p_a"
    assert _prediction("judge, j2", cols) == ["judge", "j2"]
    assert _prediction("a=p_a,tie=p_tie", cols) == {"a": "p_a", "tie": "p_tie"}
    assert _prediction("judge,a=p_a,b=p_tie", cols) == ["judge", {"a": "p_a", "b": "p_tie"}]
    assert _columns(None, cols) is None
    assert _columns("odd,name", cols) == ["odd,name"]
    assert _columns("noise, cat", cols) == ["noise", "cat"]


def test_the_guides_jury_example_says_what_the_command_prints(capsys):
    """docs/guide/pairwise.md's CLI example (docs/data/styled_pairs.csv.gz): the jury's length
    interval [0.223, 0.509] against [0.208, 0.539] with the judge alone, strength intervals
    0.84-0.88x as wide, z and w ranked apart (the page's numbers, from these two runs)."""
    from pathlib import Path

    path = str(Path(__file__).resolve().parents[2] / "docs" / "data" / "styled_pairs.csv.gz")
    runs = []
    for flags in (["--prediction", "judge,judge2"], []):
        assert main(["pairwise", path, *flags, "--control", "length_diff", "--seed", "0",
                     "--json"]) == 0  # fmt: skip
        runs.append(json.loads(capsys.readouterr().out))
    jury, alone = runs
    assert [round(jury["controls"][0][k], 3) for k in ("lower", "upper")] == [0.223, 0.509]
    assert [round(alone["controls"][0][k], 3) for k in ("lower", "upper")] == [0.208, 0.539]
    width = {r["model"]: r["strength_upper"] - r["strength_lower"] for r in alone["rows"]}
    ratios = [(r["strength_upper"] - r["strength_lower"]) / width[r["model"]]
              for r in jury["rows"]]  # fmt: skip
    assert 0.835 <= min(ratios) and max(ratios) < 0.885
    sets = {r["model"]: (r["rank_best"], r["rank_worst"]) for r in jury["rows"]}
    assert sets["z"] == (3, 3) and sets["w"] == (4, 4)
    assert {r["model"]: (r["rank_best"], r["rank_worst"]) for r in alone["rows"]}["z"] == (3, 4)
