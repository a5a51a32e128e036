import json

import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats.cli import main
from judgestats.datasets import ARENA_TARGETS, load_chatbot_arena


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_counts_mode_table_and_json(capsys):
    code, out, _ = run(
        capsys,
        "correct",
        "--positive",
        "600",
        "--n",
        "1000",
        "--tp",
        "90",
        "--fn",
        "10",
        "--tn",
        "70",
        "--fp",
        "30",
    )
    assert code == 0 and "[0.3935, 0.6033]" in out and "0.5000" in out
    code, out, _ = run(
        capsys,
        "correct",
        "--positive",
        "600",
        "--n",
        "1000",
        "--tp",
        "90",
        "--fn",
        "10",
        "--tn",
        "70",
        "--fp",
        "30",
        "--json",
        "--confidence-level",
        "0.9",
    )
    payload = json.loads(out)
    row = payload["rows"][0]
    lo, hi = js.adjusted_wald_interval(0.6, 0.7, 0.9, 1000, 100, 100, confidence_level=0.9)
    assert payload["confidence_level"] == 0.9
    assert row["ci_low"] == pytest.approx(lo, abs=1e-15) and row["ci_high"] == pytest.approx(
        hi, abs=1e-15
    )


@pytest.fixture
def files(tmp_path, rng):
    n, m = 3000, 400
    model = rng.choice(["a", "b"], n + m)
    human = (rng.random(n + m) < np.where(model == "a", 0.3, 0.6)).astype(int)
    judge = np.where(human == 1, rng.random(n + m) < 0.9, rng.random(n + m) < 0.25).astype(int)
    test = pd.DataFrame({"model": model[:n], "verdict": judge[:n]})
    cal = pd.DataFrame({"model": model[n:], "verdict": judge[n:], "gold": human[n:]})
    test.to_csv(tmp_path / "test.csv", index=False)
    cal.to_parquet(tmp_path / "cal.parquet")
    return tmp_path, test, cal


def test_file_mode_csv_and_parquet_matches_api(capsys, files):
    path, test, cal = files
    code, out, _ = run(
        capsys,
        "correct",
        "--test",
        str(path / "test.csv"),
        "--calibration",
        str(path / "cal.parquet"),
        "--judge-column",
        "verdict",
        "--human-column",
        "gold",
        "--json",
    )
    assert code == 0
    row = json.loads(out)["rows"][0]
    res = js.correct(
        js.JudgedCounts.from_frame(test, judge="verdict"),
        js.ConfusionCounts.from_frame(cal, human="gold", judge="verdict"),
    )
    assert row["estimate"] == pytest.approx(res.estimate, abs=1e-15)
    assert row["ci_low"] == pytest.approx(res.ci.low, abs=1e-15)


@pytest.mark.filterwarnings("ignore::judgestats.WeakCalibrationWarning")  # not the subject
def test_file_mode_by_group(capsys, files):
    path, test, cal = files
    code, out, _ = run(
        capsys,
        "correct",
        "--test",
        str(path / "test.csv"),
        "--calibration",
        str(path / "cal.parquet"),
        "--judge-column",
        "verdict",
        "--human-column",
        "gold",
        "--by",
        "model",
        "--json",
    )
    assert code == 0
    rows = {r["group"]: r for r in json.loads(out)["rows"]}
    assert set(rows) == {"a", "b"}
    sub_t, sub_c = test[test.model == "b"], cal[cal.model == "b"]
    res = js.correct(
        js.JudgedCounts.from_frame(sub_t, judge="verdict"),
        js.ConfusionCounts.from_frame(sub_c, human="gold", judge="verdict"),
    )
    assert rows["b"]["estimate"] == pytest.approx(res.estimate, abs=1e-15)


@pytest.mark.parametrize(
    "argv_tail",
    [
        ["--test", "missing.csv", "--calibration", "missing.csv"],
        ["--positive", "600", "--n", "1000"],
        [
            "--positive",
            "600",
            "--n",
            "1000",
            "--tp",
            "5",
            "--fn",
            "5",
            "--tn",
            "4",
            "--fp",
            "6",
        ],  # q0+q1 = .9
        [
            "--positive",
            "2000",
            "--n",
            "1000",
            "--tp",
            "90",
            "--fn",
            "10",
            "--tn",
            "70",
            "--fp",
            "30",
        ],
    ],
)
def test_errors_are_one_line_and_exit_2(capsys, argv_tail):
    code, out, err = run(capsys, "correct", *argv_tail)
    assert code == 2 and out == ""
    assert err.startswith("judgestats: error: ") and err.count("\n") == 1


def test_bad_column_exit_2(capsys, files):
    path, _, _ = files
    code, _, err = run(
        capsys,
        "correct",
        "--test",
        str(path / "test.csv"),
        "--calibration",
        str(path / "cal.parquet"),
    )
    assert code == 2 and "has no column 'judge'" in err


def test_bad_option_value_is_one_line_exit_2(capsys):
    assert main(["correct", "--example", "chatbot-arena", "--confidence-level", "1.5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "must be strictly between 0 and 1, got 1.5" in err


def test_example_chatbot_arena_reproducible_split(capsys):
    code, out, _ = run(capsys, "correct", "--example", "chatbot-arena", "--json", "--seed", "3")
    assert code == 0
    rows = json.loads(out)["rows"]
    assert [r["group"] for r in rows] == list(ARENA_TARGETS)
    frame = load_chatbot_arena(judge="gpt-4")
    rng = np.random.default_rng(3)
    for r in rows:
        sub = frame[frame.target_model == r["group"]]
        k = round(0.1 * len(sub))
        is_cal = np.zeros(len(sub), bool)
        is_cal[rng.permutation(len(sub))[:k]] = True
        assert r["human_rate"] == pytest.approx(sub["human"].mean(), abs=1e-15)
        assert r["naive"] == pytest.approx(sub["judge"].to_numpy()[~is_cal].mean(), abs=1e-15)
        assert r["m0"] + r["m1"] == k and r["n"] == len(sub) - k
        assert 0 <= r["ci_low"] <= r["ci_high"] <= 1 and 0 <= r["estimate"] <= 1


# ----------------------------------------------------------------------------- issue 31 §1
def test_rows_not_used_say_why_in_the_text_output(capsys, tmp_path):
    rng = np.random.default_rng(2)
    pd.DataFrame({"model": np.repeat(["a", "b"], 50), "judge": rng.integers(0, 2, 100)}).to_csv(
        tmp_path / "t.csv", index=False)  # fmt: skip
    human = rng.integers(0, 2, 90)
    judge = np.where(rng.random(90) < 0.85, human, 1 - human)
    pd.DataFrame({"model": np.repeat(["a", "b", "calonly"], 30), "judge": judge,
                  "human": human}).to_csv(tmp_path / "c.csv", index=False)  # fmt: skip
    argv = ["correct", "--test", str(tmp_path / "t.csv"), "--calibration", str(tmp_path / "c.csv"),
            "--by", "model"]  # fmt: skip
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert out.splitlines()[-1] == (
        "input rows: test file rows 100, calibration file rows 90, used as test 100, used as "
        "calibration 60, not used 30 (model='calonly': 30 calibration rows, no test rows)"
    )
    code, out, _ = run(capsys, *argv, "--json")  # JSON keeps its numbers (and the row's reason)
    payload = json.loads(out)
    assert payload["input_rows"]["not used"] == 30
    assert payload["rows"][-1]["error"] == "no test rows; its 30 calibration rows are not used"


def test_a_closed_pipe_ends_the_command_quietly():
    """``judgestats ... | head -3``: the reader stops early; no BrokenPipeError traceback."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "judgestats.cli", "correct", "--example",
                             "nq301"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    proc.stdout.close()  # before the command writes a line: its first write meets a closed pipe
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 141
    assert err == ""


def test_example_explains_the_noisy_point_of_the_papers_design(capsys):
    # issue 31: `make demo` shows points far from the human rate and a miss; one sentence says why
    code, out, _ = run(capsys, "correct", "--example", "chatbot-arena", "--json")
    payload = json.loads(out)
    rows = payload["rows"]
    worst = max(rows, key=lambda r: abs(r["estimate"] - r["human_rate"]))
    missed = [r["group"] for r in rows if not r["covered"]]
    note = payload["note"]
    assert f"here {worst['group']} {worst['estimate']:.4f} against {worst['human_rate']:.4f}" in note
    assert f"missed here on {len(missed)} of {len(rows)}: {', '.join(missed)}" in note
    assert all(r["random_covered"] for r in rows) and "use it only when yours are" in note
    code, text, _ = run(capsys, "correct", "--example", "chatbot-arena")
    assert code == 0 and " ".join(text.split()).endswith(" ".join(note.split()))
    code, out, _ = run(capsys, "correct", "--example", "chatbot-arena", "--json", "--design",
                       "random")  # fmt: skip
    assert code == 0 and "note" not in json.loads(out)  # nothing to explain when random is the design shown


def test_the_command_resolves_one_spec_for_every_group(capsys, files, monkeypatch):
    """Issue 37: ``--design`` and ``--method`` are resolved once, not once per group.

    A method the design does not allow is the capability table's error at once (exit 2), not
    an error row per group; without ``--method`` the row's default is used and said.
    """
    import importlib

    command, api = (importlib.import_module(f"judgestats.{m}") for m in ("cli.correct", "correct"))

    path, _, _ = files
    argv = ["correct", "--test", str(path / "test.csv"), "--calibration",
            str(path / "cal.parquet"), "--judge-column", "verdict", "--human-column", "gold",
            "--by", "model"]  # fmt: skip
    calls = []
    monkeypatch.setattr(command, "resolve_spec",
                        lambda **kw: calls.append(kw) or js.spec.resolve_spec(**kw))  # fmt: skip
    monkeypatch.setattr(api, "correction_spec", None)  # no per-group resolution
    code, out, _ = run(capsys, *argv, "--design", "random", "--json")
    payload = json.loads(out)
    assert code == 0 and len(calls) == 1 and len(payload["rows"]) == 2
    assert payload["method"] == "adjusted-wald" and payload["design"] == "random"
    code, out, err = run(capsys, *argv, "--design", "by-judge-label", "--method", "profile-map")
    assert code == 2 and out == "" and len(calls) == 2
    assert ("method 'profile-map' is not available for corrections with --design "
            "by-judge-label; available: 'adjusted-wald'") in err


def _repeated(tmp_path):
    """300 items judged 3 times each (epochs), the item's verdicts correlated; the first 100
    items are the calibration file, the rest the test file; two models."""
    g = np.random.default_rng(3838)
    item = np.repeat(np.arange(300), 3)
    human = np.repeat(g.integers(0, 2, 300), 3)
    sticky = np.repeat(g.random(300) < 0.8, 3)  # an item the judge gets right every epoch
    judge = np.where(sticky, human, g.integers(0, 2, 900))
    frame = pd.DataFrame({"model": np.where(item % 2, "a", "b"), "item": item, "judge": judge,
                          "human": human})  # fmt: skip
    test, cal = frame[frame["item"] >= 100], frame[frame["item"] < 100]
    test.drop(columns="human").to_csv(tmp_path / "test.csv", index=False)
    cal.to_csv(tmp_path / "cal.csv", index=False)
    return str(tmp_path / "test.csv"), str(tmp_path / "cal.csv"), test, cal


@pytest.mark.filterwarnings("ignore::judgestats.WeakCalibrationWarning")  # not the subject
def test_file_mode_cluster_counts_items_once_as_the_api(capsys, tmp_path):
    """Issue 38 §2 (one CLI vocabulary): ``correct --cluster`` counts repeated items as the API's
    clustered counts do; without it the rows count as items and the interval is shorter."""
    test_path, cal_path, test, cal = _repeated(tmp_path)
    files = ["correct", "--test", test_path, "--calibration", cal_path, "--design",
             "by-human-label", "--method", "adjusted-wald", "--json"]  # fmt: skip
    code, out, err = run(capsys, *files, "--cluster", "item")
    assert code == 0, err
    row = json.loads(out)["rows"][0]
    res = js.correct(js.JudgedCounts.from_frame(test, cluster="item"),
                     js.ConfusionCounts.from_frame(cal, cluster="item"),
                     design="by-human-label", method="adjusted-wald")  # fmt: skip
    assert row["estimate"] == pytest.approx(res.estimate, abs=1e-12)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((res.ci.low, res.ci.high), abs=1e-12)
    code, out, _ = run(capsys, *files)
    rows_as_items = json.loads(out)["rows"][0]
    assert rows_as_items["estimate"] == pytest.approx(row["estimate"], abs=1e-12)
    assert (rows_as_items["ci_high"] - rows_as_items["ci_low"]) < 0.9 * (row["ci_high"]
                                                                         - row["ci_low"])
    # by model: each group's clustered counts, as js.correct on that model's rows
    code, out, err = run(capsys, *files, "--cluster", "item", "--by", "model")
    assert code == 0, err
    for r in json.loads(out)["rows"]:
        t, c = test[test["model"] == r["group"]], cal[cal["model"] == r["group"]]
        one = js.correct(js.JudgedCounts.from_frame(t, cluster="item"),
                         js.ConfusionCounts.from_frame(c, cluster="item"),
                         design="by-human-label", method="adjusted-wald")  # fmt: skip
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((one.ci.low, one.ci.high), abs=1e-12)
    code, _, err = run(capsys, *files[:-1], "--cluster", "nosuch")
    assert code == 2 and "--test file has no column 'nosuch'" in err


_WIDE = ["correct", "--positive", "60", "--n", "100", "--tp", "9", "--fn", "1", "--tn", "7",
         "--fp", "3"]  # fmt: skip


def test_auto_names_the_method_that_answered_and_the_papers_interval_beside(capsys):
    """Tour of issue 38: ``correct`` under the default ``--method auto`` printed the widened
    interval alone. m1 = 10 < 100, so auto answers with the hull of adjusted-Wald and
    profile-map (``js.correct``'s ``method`` and ``chosen_by``); the table and the JSON name
    that method and give the paper's eq. (8) interval beside (``js.adjusted_wald_interval``
    on p̂ = 0.6, q̂0 = 0.7, q̂1 = 0.9, n = 100, m0 = m1 = 10: [0.1196, 0.8910])."""
    res = js.correct(js.JudgedCounts(positive=60, n=100),
                     js.ConfusionCounts(tp=9, fn=1, tn=7, fp=3))  # fmt: skip
    low, high = js.adjusted_wald_interval(0.6, 0.7, 0.9, 100, 10, 10)
    assert (res.paper_ci.low, res.paper_ci.high) == pytest.approx((low, high), abs=1e-12)
    assert (round(low, 4), round(high, 4)) == (0.1196, 0.8910)
    assert res.method == "adjusted-wald+profile-map" and res.chosen_by.startswith("widened: ")
    code, out, err = run(capsys, *_WIDE)
    assert code == 0, err
    assert "adjusted-wald+profile-map" in out and "[0.0000, 1.0000]" in out
    assert "paper's CI (adjusted-wald)" in out and "[0.1196, 0.8910]" in out
    assert ("interval widened by --method auto (fewer than 100 calibration items of human "
            "class 1 (10)") in out and "the paper's adjusted-Wald interval is 0.1196–0.8910" in out
    code, out, err = run(capsys, *_WIDE, "--json")
    row = json.loads(out)["rows"][0]
    assert code == 0 and row["method"] == res.method and row["chosen_by"] == res.chosen_by
    assert row["estimator"] == res.estimator == "marginal posterior mode (flat priors)"
    assert (row["paper_ci_low"], row["paper_ci_high"]) == pytest.approx((low, high), abs=1e-12)
    # a method given by name answered as asked: no column for it, no paper's interval
    code, out, _ = run(capsys, *_WIDE, "--method", "adjusted-wald")
    assert code == 0 and "paper's CI" not in out and "[0.1196, 0.8910]" in out
    assert "adjusted-wald+profile-map" not in out


@pytest.mark.filterwarnings("ignore::judgestats.WeakCalibrationWarning")  # not the subject
def test_auto_by_model_and_example_name_the_method_and_the_papers_interval(capsys, tmp_path):
    """The same in file mode by model and in ``--example nq301`` (README: the paper's interval
    beside design random): every row names its method, and each widened row's paper's
    interval is ``js.correct``'s ``paper_ci`` on that model's counts."""
    g = np.random.default_rng(38)
    human = g.integers(0, 2, 460)
    judge = np.where(g.random(460) < 0.8, human, 1 - human)
    model = np.where(np.arange(460) % 2, "a", "b")
    frame = pd.DataFrame({"model": model, "judge": judge, "human": human})
    frame.iloc[:400][["model", "judge"]].to_csv(tmp_path / "t.csv", index=False)
    frame.iloc[400:].to_csv(tmp_path / "c.csv", index=False)
    code, out, err = run(capsys, "correct", "--test", str(tmp_path / "t.csv"), "--calibration",
                         str(tmp_path / "c.csv"), "--by", "model", "--json")  # fmt: skip
    assert code == 0, err
    for r in json.loads(out)["rows"]:
        sub = frame[frame["model"] == r["group"]]
        one = js.correct(js.JudgedCounts.from_labels(sub["judge"].iloc[:200]),
                         js.ConfusionCounts.from_labels(human=sub["human"].iloc[200:],
                                                        judge=sub["judge"].iloc[200:]))
        assert r["method"] == one.method == "adjusted-wald+profile-map"  # 30 items per model
        assert (r["paper_ci_low"], r["paper_ci_high"]) == pytest.approx(
            (one.paper_ci.low, one.paper_ci.high), abs=1e-12)
    code, out, err = run(capsys, "correct", "--example", "nq301")
    assert code == 0, err
    assert "paper's CI (adjusted-wald)" in out and "95% CI (random design)" in out
    assert "groups ANCE+_FiD, Contriever_FiD, DPR, EMDR2, … (12): interval widened by " in out


@pytest.mark.filterwarnings("ignore::judgestats.WeakCalibrationWarning")  # not the subject
def test_file_mode_by_model_warns_of_repeated_items_as_evaluate(capsys, tmp_path):
    """Tour of issue 38: ``correct --by model`` on items judged 3 times each (no --cluster)
    said nothing, where ``js.evaluate`` on the same rows warns ``RepeatedItemsWarning`` (its
    design effect up to 2.34, in model 'a'). The command says the same on stderr, with the
    flag; its intervals are unchanged (rows as asked)."""
    test_path, cal_path, test, cal = _repeated(tmp_path)
    frame = pd.concat([test.assign(human=np.nan), cal], ignore_index=True)
    with pytest.warns(js.RepeatedItemsWarning) as caught:
        ev = js.evaluate(frame, judge="judge", human="human", by="model",
                         method="adjusted-wald")  # fmt: skip
    api = next(str(w.message) for w in caught if w.category is js.RepeatedItemsWarning)
    assert "too short in 2 of 2 groups (design effect on the estimate's variance up to 2.34, " \
           "in model='a'); pass cluster='item'" in api
    code, out, err = run(capsys, "correct", "--test", test_path, "--calibration", cal_path,
                         "--by", "model", "--method", "adjusted-wald", "--json")  # fmt: skip
    assert code == 0, err
    assert err == f"warning: {api} (--cluster item)\n"  # as ``report`` says it
    for r in json.loads(out)["rows"]:
        one = ev[r["group"]]
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((one.ci.low, one.ci.high), abs=1e-12)


@pytest.mark.parametrize("by", [[], ["--by", "model"]])
def test_a_test_file_with_a_header_and_no_rows_is_one_line_exit_2(capsys, tmp_path, by):
    """Tour of issue 38: ``correct --test`` of a header-only file ``--by model`` printed a table
    of dashes (every group "no test rows") and exited 0; without ``--by`` it exited 2. Both
    now exit 2 with one line naming the file; a header-only calibration file too."""
    (tmp_path / "t.csv").write_text("model,judge\n")
    (tmp_path / "c.csv").write_text("model,judge,human\na,1,1\na,0,0\nb,1,1\n")
    (tmp_path / "t1.csv").write_text("model,judge\na,1\n")
    (tmp_path / "c0.csv").write_text("model,judge,human\n")
    for test, cal, which in (("t.csv", "c.csv", "--test"), ("t1.csv", "c0.csv", "--calibration")):
        code, out, err = run(capsys, "correct", "--test", str(tmp_path / test), "--calibration",
                             str(tmp_path / cal), *by)  # fmt: skip
        assert code == 2 and out == "" and err.count("\n") == 1
        assert f"the {which} file {tmp_path / (test if which == '--test' else cal)} has no " \
               "rows (a header only)" in err


# ------------------------------------------------------------ issue 38, second tour (fix-correct)
def _nq_files(tmp_path, *, copies=1):
    """NQ-301 (bundled) with a seeded 20% calibration split per model, ``item`` the question;
    the calibration file holds every calibration row ``copies`` times."""
    frame = js.datasets.load_nq301().rename(columns={"target_model": "model"})
    frame = frame.assign(item=frame.groupby("model").cumcount())[["model", "item", "judge",
                                                                  "human"]]  # fmt: skip
    g = np.random.default_rng(38)
    is_cal = g.random(len(frame)) < 0.2
    test, cal = frame[~is_cal], frame[is_cal]
    test.drop(columns="human").to_csv(tmp_path / "test.csv", index=False)
    pd.concat([cal] * copies).to_csv(tmp_path / "cal.csv", index=False)
    return str(tmp_path / "test.csv"), str(tmp_path / "cal.csv"), test, cal


@pytest.mark.filterwarnings("ignore::judgestats.WeakCalibrationWarning")  # not the subject
def test_duplicated_calibration_rows_warn_with_and_without_by(capsys, tmp_path):
    """Second tour of issue 38: every calibration row twice (NQ-301, about 60 calibration
    items per model) gave no RepeatedItemsWarning and intervals about 26% narrower: a design
    effect of about 1.8 on θ̂ is under the noise bound 1 + 2.5·√(2/(G − 1)) at G ≈ 21. The
    rows agree beyond chance (every copy is alike), so the rule warns; the original file
    (each row once) stays silent; without --by too."""
    test_path, cal_path, _, _ = _nq_files(tmp_path, copies=2)
    for by in (["--by", "model"], []):
        code, _, err = run(capsys, "correct", "--test", test_path, "--calibration", cal_path,
                           *by)  # fmt: skip
        assert code == 0, err
        line = [x for x in err.splitlines() if x.startswith("warning:")]
        assert len(line) == 1 and "column 'item' identifies items that repeat" in line[0]
        assert line[0].endswith("pass cluster='item' (--cluster item)")
        assert "__judgestats" not in err
    once_test, once_cal, test, cal = _nq_files(tmp_path, copies=1)
    code, _, err = run(capsys, "correct", "--test", once_test, "--calibration", once_cal,
                       "--by", "model")  # fmt: skip
    assert code == 0 and err == ""
    # without --by the 12 models' answers to one question share its id: a true clustering
    # (design effect 1.37 measured), so each answer gets an id of its own for the silent case
    for df, path in ((test, once_test), (cal, once_cal)):
        df.assign(item=df["model"] + "/" + df["item"].astype(str)).drop(
            columns=[c for c in ("human",) if path == once_test]).to_csv(path, index=False)
    code, _, err = run(capsys, "correct", "--test", once_test, "--calibration", once_cal)
    assert code == 0 and err == ""


@pytest.mark.filterwarnings("ignore::judgestats.WeakCalibrationWarning")  # not the subject
def test_correct_without_by_checks_repeated_items(capsys, tmp_path):
    """Second tour of issue 38: ``correct`` without --by checked no repeats; it now warns as
    ``js.evaluate`` does on the same rows (one group), and counts the same numbers as before."""
    test_path, cal_path, test, cal = _repeated(tmp_path)
    code, out, err = run(capsys, "correct", "--test", test_path, "--calibration", cal_path,
                         "--method", "adjusted-wald", "--json")  # fmt: skip
    assert code == 0, err
    assert err.startswith("warning: column 'item' identifies items that repeat")
    assert err.rstrip().endswith("pass cluster='item' (--cluster item)")
    row = json.loads(out)["rows"][0]
    res = js.correct(js.JudgedCounts.from_labels(test["judge"].to_numpy()),
                     js.ConfusionCounts.from_labels(human=cal["human"].to_numpy(),
                                                    judge=cal["judge"].to_numpy()),
                     method="adjusted-wald")  # fmt: skip
    assert (row["n"], row["estimate"]) == (600, pytest.approx(res.estimate, abs=1e-12))
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((res.ci.low, res.ci.high), abs=1e-12)


@pytest.mark.parametrize("by", [[], ["--by", "model"]])
def test_the_same_file_as_test_and_calibration_counts_labelled_rows_once(capsys, tmp_path, by):
    """Second tour of issue 38: ``correct --test F --calibration F`` counted F's labelled rows
    as test rows too (n 3561 instead of 2841). Test rows are now the rows without a human
    label (``report``'s rule); n and the estimate match an independent count (pandas masks
    and js.correct), and one line on stderr says so."""
    frame = js.datasets.load_nq301().rename(columns={"target_model": "model"})[
        ["model", "judge", "human"]]
    g = np.random.default_rng(2)
    frame = frame.assign(human=np.where(g.random(len(frame)) < 0.2, frame["human"], np.nan))
    path = str(tmp_path / "f.csv")
    frame.to_csv(path, index=False)
    code, out, err = run(capsys, "correct", "--test", path, "--calibration", path, *by, "--json")
    assert code == 0, err
    labelled = frame["human"].notna()
    assert err.count("\n") == 1 and f"note: {int(labelled.sum())} rows of the --test file " \
        "carry a human label ('human')" in err
    rows = json.loads(out)["rows"]
    parts = [(None, frame)] if not by else list(frame.groupby("model"))
    assert len(rows) == len(parts)
    for r, (_, sub) in zip(rows, parts, strict=True):
        t, c = sub[sub["human"].isna()], sub[sub["human"].notna()]
        res = js.correct(js.JudgedCounts(int(t["judge"].sum()), len(t)),
                         js.ConfusionCounts.from_labels(human=c["human"].astype(int).to_numpy(),
                                                        judge=c["judge"].to_numpy()))  # fmt: skip
        assert r["n"] == len(t) and r["estimate"] == pytest.approx(res.estimate, abs=1e-12)
    if not by:
        assert rows[0]["n"] == int((~labelled).sum())


def test_a_test_file_with_labelled_rows_not_in_the_calibration_file_says_so(capsys, tmp_path):
    (tmp_path / "t.csv").write_text("judge,human\n1,\n0,\n1,1\n1,\n")
    (tmp_path / "c.csv").write_text("judge,human\n1,1\n0,0\n1,1\n0,1\n1,0\n0,0\n")
    code, out, err = run(capsys, "correct", "--test", str(tmp_path / "t.csv"), "--calibration",
                         str(tmp_path / "c.csv"), "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["rows"][0]["n"] == 3
    assert err == ("note: 1 rows of the --test file carry a human label ('human'): they are "
                   "calibration rows, not test rows (as report splits a file), and are not "
                   "counted as test rows; only the --calibration file's rows calibrate\n")


def test_the_text_table_names_the_estimator(capsys):
    """Second tour of issue 38: the text output named the interval method, not the estimator
    (the result's ``.estimator``, as ``report`` names it)."""
    code, out, _ = run(capsys, "correct", "--positive", "600", "--n", "1000", "--tp", "90",
                       "--fn", "10", "--tn", "70", "--fp", "30")  # fmt: skip
    est = js.correct(js.JudgedCounts(600, 1000), js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30))
    assert code == 0 and f"corrected ({est.estimator})" in out and est.estimator == "Rogan–Gladen"
    code, out, _ = run(capsys, "correct", "--positive", "600", "--n", "1000", "--tp", "90",
                       "--fn", "10", "--tn", "70", "--fp", "30", "--design", "random")  # fmt: skip
    est = js.correct(js.JudgedCounts(600, 1000), js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30),
                     design="random")  # fmt: skip
    assert code == 0 and f"corrected ({est.estimator})" in out


def test_group_names_that_differ_only_in_case_are_hinted(capsys, tmp_path):
    """Second tour of issue 38: 'GPT-4' in the test file and 'gpt-4' in the calibration file
    were two unmatched groups without a hint; both messages now name the case-only twin."""
    (tmp_path / "t.csv").write_text("model,judge\nGPT-4,1\nGPT-4,0\n")
    (tmp_path / "c.csv").write_text("model,judge,human\ngpt-4,1,1\ngpt-4,0,0\n")
    code, _, err = run(capsys, "correct", "--test", str(tmp_path / "t.csv"), "--calibration",
                       str(tmp_path / "c.csv"), "--by", "model")  # fmt: skip
    assert code == 2 and err.count("\n") == 1
    assert "group model='GPT-4' has test rows but no calibration rows (the calibration rows " \
           "have 'gpt-4', which differs only in case" in err


def test_a_bad_label_names_its_file_in_correct_and_report(tmp_path, capsys):
    """Third tour of issue 38: ``correct --test t.csv --calibration badcal.csv`` and ``report
    badcal.csv`` said "column 'human' must hold 0/1 ... got 'maybe' on line 2" without the
    file (``agreement`` named it). The reader (``io.read_table``) names it, for every
    command and for the API: the error names the file that holds the bad cell."""
    test = tmp_path / "t.csv"
    test.write_text("model,item,judge\na,1,0\na,2,1\n")
    bad = tmp_path / "badcal.csv"
    bad.write_text("model,item,judge,human\na,1,1,maybe\na,2,0,0\n")
    badtest = tmp_path / "badtest.csv"
    badtest.write_text("model,item,judge\na,1,sure\na,2,1\n")
    good = tmp_path / "cal.csv"
    good.write_text("model,item,judge,human\na,1,1,1\na,2,0,0\n")
    for argv, path in ((("correct", "--test", str(test), "--calibration", str(bad)), bad),
                       (("correct", "--test", str(badtest), "--calibration", str(good)), badtest),
                       (("report", str(bad)), bad), (("agreement", str(bad)), bad)):
        code, _, err = run(capsys, *argv)
        assert code == 2 and err.count("\n") == 1, err
        assert f"{path}: column" in err and "line 2" in err, err
    with pytest.raises(js.errors.LabelError, match=r"badcal\.csv: column 'human'"):
        js.io.read_table(bad, labels={"judge": False, "human": True})


def test_an_empty_item_cell_with_cluster_names_its_file(tmp_path, capsys):
    """Third tour of issue 38: ``correct --test niT.csv --calibration niC.csv --cluster item``
    with two empty item cells said "group columns have missing values: 'item' ..." naming
    neither the file nor the role. It names both."""
    test = tmp_path / "niT.csv"
    test.write_text("model,item,judge\na,1,1\na,,0\na,,1\na,2,0\n")
    cal = tmp_path / "niC.csv"
    cal.write_text("model,item,judge,human\na,5,1,1\na,6,0,0\n")
    code, _, err = run(capsys, "correct", "--test", str(test), "--calibration", str(cal),
                       "--cluster", "item")  # fmt: skip
    assert code == 2 and err.count("\n") == 1, err
    assert f"the --test file {test}: the cluster column has missing values: 'item' on 2 row(s)" \
        in err
    assert "every row needs an item id" in err and "group" not in err
