"""One reader for every file (issue 18): nothing lost, nothing guessed, every row accounted for.

The property test writes random frames (group names chosen to trip type inference: 'NA',
'007', '7', 'null', 'True', spaces) to CSV, Parquet and JSON Lines, reads them back with
js.io.read_table and counts them with js.frames.group_counts; the counts must equal a direct
count of the Python lists the frame was built from.
"""

import json
import warnings
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import judgestats as js
from judgestats.cli import main
from judgestats.frames import group_counts
from judgestats.io import TableError, read_table, sniff_format

NAMES = ["NA", "007", "7", "null", "True", "n/a", " x", "None", "nan", "a,b", "é"]


def _write(frame: pd.DataFrame, path, kind: str) -> None:
    if kind == "csv":
        frame.to_csv(path, index=False)
    elif kind == "parquet":
        frame.to_parquet(path, index=False)
    else:
        with open(path, "w") as fh:
            for rec in frame.to_dict(orient="records"):
                rec = {k: (None if isinstance(v, float) and np.isnan(v) else v)
                       for k, v in rec.items()}  # fmt: skip
                fh.write(json.dumps(rec) + "\n")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.lists(
        st.tuples(st.sampled_from(NAMES), st.booleans(), st.sampled_from([None, 0, 1])),
        min_size=1, max_size=60,
    ),
    kind=st.sampled_from(["csv", "parquet", "jsonl"]),
)  # fmt: skip
def test_counts_after_a_round_trip_equal_a_direct_count(tmp_path, rows, kind):
    frame = pd.DataFrame(
        {"model": [r[0] for r in rows], "judge": [int(r[1]) for r in rows],
         "human": [np.nan if r[2] is None else float(r[2]) for r in rows]}
    )  # fmt: skip
    path = tmp_path / f"items.{ 'txt' if kind == 'jsonl' else kind}"  # suffix need not say it
    _write(frame, path, kind)
    back = read_table(path, labels={"judge": False, "human": True})
    assert len(back) == len(rows)
    assert list(back["model"]) == [r[0] for r in rows]  # names exactly as written
    counted = group_counts(back, by="model").counts
    direct = Counter()
    for name, j, h in rows:
        direct[(name, "test" if h is None else "cal", j, h)] += 1
    for name in {r[0] for r in rows}:
        cells = counted[(name,)]
        # cell codes of GroupCounts (js.frames): test judge 0/1, human 0 with judge 0/1,
        # human 1 with judge 0/1
        expect = [direct[(name, "test", 0, None)], direct[(name, "test", 1, None)],
                  direct[(name, "cal", 0, 0)], direct[(name, "cal", 1, 0)],
                  direct[(name, "cal", 0, 1)], direct[(name, "cal", 1, 1)]]  # fmt: skip
        assert list(cells[:6]) == expect, (name, list(cells), expect)
        assert not cells[6:].any()  # codes 6-8: bad labels, none here


def test_group_names_that_type_inference_would_lose_stay_distinct(tmp_path, capsys):
    rng = np.random.default_rng(0)
    test = pd.DataFrame({"model": np.repeat(["NA", "007", "7"], 200),
                         "judge": rng.integers(0, 2, 600)})  # fmt: skip
    human = rng.integers(0, 2, 360)
    judge = np.where(rng.random(360) < 0.85, human, 1 - human)
    cal = pd.DataFrame({"model": np.repeat(["NA", "007", "7", "calonly"], 90), "judge": judge,
                        "human": human})  # fmt: skip
    test.to_csv(tmp_path / "test.csv", index=False)
    cal.to_csv(tmp_path / "cal.csv", index=False)
    args = ["correct", "--test", str(tmp_path / "test.csv"), "--calibration",
            str(tmp_path / "cal.csv"), "--by", "model", "--json"]  # fmt: skip
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    groups = {r["group"]: r for r in out["rows"]}
    assert set(groups) == {"NA", "007", "7", "calonly"}
    assert groups["NA"]["n"] == 200 and groups["007"]["n"] == 200 and groups["7"]["n"] == 200
    assert groups["calonly"]["error"] == "no test rows; its 90 calibration rows are not used"
    assert out["input_rows"] == {"test file rows": 600, "calibration file rows": 360,
                                 "used as test": 600, "used as calibration": 270,
                                 "not used": 90}  # fmt: skip
    # the same numbers as a direct computation for group '007'
    sub, csub = test[test.model == "007"], cal[cal.model == "007"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = js.correct(js.JudgedCounts.from_labels(sub.judge),
                         js.ConfusionCounts.from_labels(human=csub.human, judge=csub.judge))
    assert groups["007"]["estimate"] == pytest.approx(ref.estimate)


@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb"])
def test_report_engines_read_groups_as_written_and_late_calibration_rows(tmp_path, engine):
    pytest.importorskip(engine)
    rng = np.random.default_rng(1)
    rows = [("NA", int(j), "") for j in rng.integers(0, 2, 600)]
    rows += [("007", int(j), "") for j in rng.integers(0, 2, 600)]
    for name in ("NA", "007"):  # calibration rows only after 1,200 test rows
        h = rng.integers(0, 2, 150)
        rows += [(name, int(x if rng.random() < 0.9 else 1 - x), int(x)) for x in h]
    path = tmp_path / "items.csv"
    pd.DataFrame(rows, columns=["model", "judge", "human"]).to_csv(path, index=False)
    out = tmp_path / "r.md"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["report", str(path), "--engine", engine, "--out", str(out)]) == 0
    text = out.read_text()
    assert "| NA | 600 |" in text and "| 007 | 600 |" in text


def test_bad_files_get_their_own_messages(tmp_path, capsys):
    (tmp_path / "dup.csv").write_text("model,judge,judge\na,1,0\n")
    (tmp_path / "blob.bin").write_bytes(bytes(range(256)))
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "labels.csv").write_text("judge,human\n1,1\nyes,0\n0,1\n")
    cases = [
        (tmp_path / "dup.csv", r"duplicate column name\(s\) \['judge'\]"),
        (tmp_path, r"is a directory, not a table file"),
        (tmp_path / "nope.csv", r"file not found"),
        (tmp_path / "labels.csv", r"column 'judge' must hold 0/1"),
        (tmp_path / "blob.bin", r"is not a table file"),
        (tmp_path / "empty.csv", r"is empty"),
    ]
    for path, match in cases:
        with pytest.raises(js.JudgeStatsError, match=match):
            read_table(path, labels={"judge": False})
        if path.name == "labels.csv":
            continue  # its calibration labels are checked too: the message differs
        assert main(["correct", "--test", str(path), "--calibration", str(path)]) == 2
        assert "judgestats: error:" in capsys.readouterr().err
    with pytest.raises(js.errors.LabelError, match=r"column 'judge' must hold 0/1.*'yes' on line 3"):
        read_table(tmp_path / "labels.csv", labels={"judge": False})
    with pytest.raises(js.errors.LabelError, match=r"on every row; got an empty cell on line 2"):
        (tmp_path / "gap.csv").write_text("judge,human\n1,\n0,1\n")
        read_table(tmp_path / "gap.csv", labels={"human": False})
    assert issubclass(TableError, js.JudgeStatsError)


def test_formats_are_told_by_content_and_labels_parsed(tmp_path):
    frame = pd.DataFrame({"model": ["a", "b"], "judge": [True, False], "human": [1.0, None]})
    frame.to_parquet(tmp_path / "items.csv", index=False)  # a Parquet file named .csv
    assert sniff_format(tmp_path / "items.csv") == "parquet"
    back = read_table(tmp_path / "items.csv", labels={"judge": False, "human": True})
    assert list(back["judge"]) == [1.0, 0.0] and back["human"].isna().tolist() == [False, True]
    (tmp_path / "t.csv").write_text("judge\nTRUE\n false \n1\n0\n")
    assert list(read_table(tmp_path / "t.csv", labels={"judge": False})["judge"]) == [1, 0, 1, 0]
    (tmp_path / "x.jsonl").write_text('{"judge": true}\n{"judge": 0}\n')
    assert sniff_format(tmp_path / "x.jsonl") == "jsonl"
    assert list(read_table(tmp_path / "x.jsonl", labels={"judge": False})["judge"]) == [1, 0]
    (tmp_path / "d.jsonl").write_text('{"judge": 1, "judge": 0}\n')
    with pytest.raises(js.errors.ColumnError, match="duplicate"):
        read_table(tmp_path / "d.jsonl")


def test_json_errors_are_json(tmp_path, capsys):
    (tmp_path / "dup.csv").write_text("model,judge,judge\na,1,0\n")
    code = main(["correct", "--test", str(tmp_path / "dup.csv"), "--calibration",
                 str(tmp_path / "dup.csv"), "--json"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 2
    assert json.loads(out) == {
        "error": f"{tmp_path / 'dup.csv'} has duplicate column name(s) ['judge']: which one is "
        "meant is ambiguous; rename them",
        "type": "ColumnError",
    }


def test_reports_cite_each_method_and_do_not_crown_an_overlapping_leader():
    rng = np.random.default_rng(4)
    rows = []
    for model, theta in (("a", 0.55), ("b", 0.5)):  # close rates: the intervals overlap
        human = rng.random(800) < theta
        judge = np.where(human, rng.random(800) < 0.9, rng.random(800) < 0.15)
        label = np.where(np.arange(800) < 240, human.astype(float), np.nan)
        rows.append(pd.DataFrame({"model": model, "judge": judge.astype(int), "human": label}))
    frame = pd.concat(rows, ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paper = js.evaluate(frame).report("markdown")
        pmap = js.evaluate(frame, method="profile-map").report("markdown")
    assert "(Lee et al., 2026)" in paper  # the paper's own interval
    assert "profile likelihood (Wilks' theorem" in pmap and "(Lee et al., 2026)" not in pmap
    assert "the highest point estimate is" in paper and "do not single it out" in paper


def test_one_bad_group_does_not_sink_a_leaderboard(tmp_path, marked_frame):
    frame = marked_frame
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", js.WeakCalibrationWarning)
        with pytest.raises(js.errors.EmptyGroupError, match="no-cal"):
            js.evaluate(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = js.evaluate(frame, errors="mark")
    assert ev.groups == ("good",)
    assert set(ev.marked) == {"no-cal", "one-class"}
    assert ev.marked["no-cal"].startswith("EmptyGroupError: group model='no-cal' has no "
                                          "calibration rows")  # fmt: skip
    table = ev.to_dataframe()
    assert table.set_index("model").loc["one-class", "marked"].startswith("EmptyGroupError")
    assert "not corrected: no-cal" in ev.summary()
    assert "no-cal: not corrected (EmptyGroupError" in ev.report("markdown")
    path = tmp_path / "items.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "r.md"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["report", str(path), "--out", str(out)]) == 0  # the CLI marks
    assert "one-class: not corrected" in out.read_text()
    with pytest.raises(js.errors.MethodError, match="errors"):
        js.evaluate(frame, errors="ignore")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["correct", "--positive", "600", "--n", "1000", "--tp", "90", "--fn", "10", "--tn",
          "70", "--fp", "30", "--by", "model"], "--by does not apply to count mode"),
        (["correct", "--example", "nq301", "--judge", "gpt-3.5"],
         "--judge does not apply to --example nq301"),
        (["report", "--example", "nq301", "--engine", "polars", "--split", "s"],
         "--split, --engine do not apply to --example nq301"),
    ],
)  # fmt: skip
def test_flags_that_do_not_apply_are_errors(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_warnings_are_one_short_line():
    """Issue 18: a warning is one line of at most 120 characters; help(js.<Warning>) has more."""
    cal_small = js.ConfusionCounts(tp=5, fn=1, tn=4, fp=2)
    cases = [
        lambda: js.correct(js.JudgedCounts(100, 1000), js.ConfusionCounts(tp=90, fn=10, tn=70,
                                                                           fp=30),
                           method="adjusted-wald"),  # clipped
        lambda: js.correct(js.JudgedCounts(600, 1000), cal_small,
                           method="adjusted-wald"),  # weak calibration
        lambda: js.correct(  # weak calibration of repeated items (issue 38): effective items
            js.JudgedCounts.from_labels([1] * 300 + [0] * 300, cluster=range(600)),
            js.ConfusionCounts.from_labels(human=[0] * 400 + [1] * 100, judge=[0] * 360
                                           + [1] * 40 + ([1] * 40 + [0] * 10) * 2,
                                           cluster=list(range(200)) * 2 + list(range(500, 550)) * 2),
            method="adjusted-wald"),  # named: the default auto widens there instead
        lambda: js.correct(js.JudgedCounts(600, 1000), cal_small, method="bootstrap", rng=0),
        lambda: js.correct(js.JudgedCounts(170, 1000), js.ConfusionCounts(tp=90, fn=10, tn=85,
                                                                           fp=15), design="random"),
        lambda: js.estimators.calibration_only(js.JudgedCounts(100, 1000),
                                    js.ConfusionCounts(tp=900, fn=100, tn=90, fp=10)),
    ]  # fmt: skip
    seen = set()
    for case in cases:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            case()
        assert caught
        for w in caught:
            text = str(w.message)
            seen.add(w.category.__name__)
            assert "\n" not in text and len(text) <= 120, (w.category.__name__, len(text), text)
    assert {"ClippedEstimateWarning", "WeakCalibrationWarning", "SamplingWarning",
            "DesignWarning", "LabelShiftWarning"} <= seen  # fmt: skip


def test_progress_bars_show_when_asked_and_stay_silent_in_tests(capsys, monkeypatch):
    from judgestats import progress as prog

    pytest.importorskip("tqdm")
    assert prog.wanted(None) is False  # under pytest (and with CI set) never by default
    assert prog.wanted(False) is False and prog.wanted(True) is True
    with pytest.raises(js.errors.ArgumentTypeError, match="progress must be None, True or False"):
        prog.wanted("yes")
    monkeypatch.setattr(prog, "DELAY", 0.0)
    js.simulate.coverage(theta=[0.2, 0.5], q0=0.8, q1=0.9, n=500, m0=50, m1=50, reps=50,
                         rng=0, progress=True)  # fmt: skip
    assert "cells" in capsys.readouterr().err
    js.simulate.coverage(theta=[0.2, 0.5], q0=0.8, q1=0.9, n=500, m0=50, m1=50, reps=50,
                         rng=0, progress=False)  # fmt: skip
    assert capsys.readouterr().err == ""


def test_long_and_wide_group_names_in_tables(tmp_path, capsys):
    from judgestats.results import display_width, shorten

    long_name = "a-model-name-that-goes-on-" + "and-on-" * 8
    names = [long_name, "模型甲", "b"]
    rng = np.random.default_rng(5)
    test = pd.DataFrame({"model": np.repeat(names, 200), "judge": rng.integers(0, 2, 600)})
    human = rng.integers(0, 2, 360)
    cal = pd.DataFrame({"model": np.repeat(names, 120), "human": human,
                        "judge": np.where(rng.random(360) < 0.9, human, 1 - human)})  # fmt: skip
    test.to_csv(tmp_path / "t.csv", index=False)
    cal.to_csv(tmp_path / "c.csv", index=False)
    base = ["correct", "--test", str(tmp_path / "t.csv"), "--calibration", str(tmp_path / "c.csv"),
            "--by", "model"]  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(base) == 0
        text = capsys.readouterr().out
        assert main([*base, "--json"]) == 0
        rows = json.loads(capsys.readouterr().out)["rows"]
    assert long_name in {r["group"] for r in rows}  # JSON keeps the full name
    table = [line for line in text.splitlines() if line.startswith(("b ", "模型甲", "a-model"))]
    assert any(line.startswith(shorten(long_name) + " ") for line in table)  # notes keep it whole
    starts = {display_width(line[: line.index("0.")]) for line in table}  # naive column
    assert len(table) == 3 and len(starts) == 1  # the CJK row lines up with the others


def test_label_errors_name_the_line_and_the_group(tmp_path, capsys):
    (tmp_path / "items.csv").write_text("model,judge,human\na,1,\nb,1,\nb,yes,\nb,0,1\n")
    assert main(["report", str(tmp_path / "items.csv")]) == 2
    err = capsys.readouterr().err
    assert "got 'yes' on line 4 (model='b')" in err  # the file's line, not the row in group b


# ----------------------------------------------------------------------------- the tour's finds
def test_tour_finds_no_longer_pass_silently(tmp_path, capsys):
    """The 45-input tour's silent wrong answers: each is now an error or the right answer."""
    # a blank line inside a one-column file is a row with an empty cell, not nothing
    (tmp_path / "t.csv").write_text("judge\n1\n1\n\n0\n1\n")
    with pytest.raises(js.errors.LabelError, match="an empty cell on line 4"):
        read_table(tmp_path / "t.csv", labels={"judge": False})
    (tmp_path / "trail.csv").write_text("judge\n1\n0\n\n\n")  # trailing blank lines: no rows
    assert len(read_table(tmp_path / "trail.csv", labels={"judge": False})) == 2
    # duplicate columns on every engine
    (tmp_path / "dup.csv").write_text("model,judge,human,judge\na,1,,0\na,1,1,1\na,0,0,0\n")
    for engine in ("polars", "duckdb"):
        assert main(["report", str(tmp_path / "dup.csv"), "--engine", engine]) == 2
        assert "duplicate column name(s) ['judge']" in capsys.readouterr().err
    frame = pd.DataFrame([["a", 1, 1.0]], columns=["model", "judge", "judge"])
    with pytest.raises(js.errors.ColumnError, match="duplicate column"):
        js.evaluate(frame)
    # group keys 1 and True would merge (JSON Lines and pandas object columns)
    (tmp_path / "m.jsonl").write_text('{"model": 1, "judge": 1, "human": null}\n'
                                      '{"model": true, "judge": 0, "human": null}\n')  # fmt: skip
    with pytest.raises(js.errors.ColumnError, match="mixes value types"):
        read_table(tmp_path / "m.jsonl", labels={"judge": False, "human": True})
    mixed = pd.DataFrame({"model": [1, 1, True, True], "judge": [1, 0, 1, 0],
                          "human": [1.0, None, 0.0, None]})  # fmt: skip
    with pytest.raises(js.errors.ColumnError, match="mixes value types"):
        js.evaluate(mixed)
    # pandas' nullable NA is an empty cell
    g = pd.DataFrame({"judge": [1, 0, 1], "human": pd.array([1, None, 0], dtype="Int64")})
    g.to_parquet(tmp_path / "n.parquet")
    human = read_table(tmp_path / "n.parquet", labels={"human": True})["human"]
    assert human.isna().tolist() == [False, True, False]
    # --json: argparse errors are JSON too, and keep the error's class
    assert main(["correct", "--method", "foo", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["type"] == "UsageError"
    assert main(["correct", "--positive", "6", "--n", "10", "--tp", "5", "--fn", "5", "--tn",
                 "5", "--fp", "5", "--json"]) == 2  # fmt: skip
    assert json.loads(capsys.readouterr().out)["type"] == "NotInformativeError"


def test_bayes_interval_keeps_its_width_at_huge_counts():
    """The tour: at 10^8 judged items the quadrature grid spanned a coarse cell (-3%)."""
    widths = []
    for s in (1_000, 100_000):
        t = js.JudgedCounts(600 * s, 1000 * s)
        c = js.ConfusionCounts(tp=90 * s, fn=10 * s, tn=70 * s, fp=30 * s)
        widths.append(js.correct(t, c, method="bayes").ci.width * np.sqrt(s))
    # the delta-method width times √s is 0.2056 at both sizes (Bernstein–von Mises)
    assert widths == pytest.approx([0.2056, 0.2056], rel=0.003)


# ----------------------------------------------------------------------------- issue 31 §1
ENGINES = ["pandas", "polars", "duckdb"]


def _report(path, engine, capsys):
    """``judgestats report PATH --engine ENGINE``: (exit status, stdout, stderr)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["report", str(path), "--engine", engine])
    out = capsys.readouterr()
    return code, out.out, out.err


def _items(seed: int = 3, n: int = 40) -> list[tuple[str, int, int | None]]:
    """Two models, n rows each, the first half human-labelled; the judge agrees 85% of the time."""
    rng = np.random.default_rng(seed)
    rows = []
    for m in ("a", "b"):
        for i in range(n):
            h = int(rng.integers(0, 2))
            j = h if rng.random() < 0.85 else 1 - h
            rows.append((m, j, h if i < n // 2 else None))
    return rows


def _csv(rows, cell=str) -> str:
    return "model,judge,human\n" + "".join(
        f"{m},{cell(j)},{'' if h is None else cell(h)}\n" for m, j, h in rows
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_a_line_with_too_few_or_too_many_fields_is_refused_naming_it(tmp_path, capsys, engine):
    pytest.importorskip(engine)
    text = _csv(_items()).splitlines(keepends=True)
    (tmp_path / "short.csv").write_text("".join([*text[:5], "delta,0\n", *text[5:]]))
    (tmp_path / "long.csv").write_text("".join([*text[:3], "a,1,1,1\n", *text[3:]]))
    code, out, err = _report(tmp_path / "short.csv", engine, capsys)
    assert code == 2 and out == ""
    assert "short.csv line 6 has 2 field(s) where the header has 3 column(s): 'delta,0'" in err
    code, out, err = _report(tmp_path / "long.csv", engine, capsys)
    assert code == 2 and "long.csv line 4 has 4 field(s)" in err
    with pytest.raises(TableError, match="line 6 has 2 field"):
        read_table(tmp_path / "short.csv")


@pytest.mark.parametrize("engine", ENGINES)
def test_engines_read_the_same_rows_from_untidy_csv(tmp_path, capsys, engine):
    """' 1 ' labels, TRUE/False, trailing blank lines or empty cells: one answer on every engine."""
    pytest.importorskip(engine)
    rows = _items()
    files = {
        "plain.csv": _csv(rows),
        "spaces.csv": _csv(rows, lambda v: f" {v} "),
        "words.csv": _csv(rows, lambda v: ["False", "TRUE"][v]),
        "trailing.csv": _csv(rows) + "\n\n",
        "empty_cells.csv": _csv(rows) + ",,\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    code, expected, _ = _report(tmp_path / "plain.csv", "pandas", capsys)
    assert code == 0 and "| a | 20 |" in expected and "| b | 20 |" in expected
    for name in files:
        code, out, err = _report(tmp_path / name, engine, capsys)
        assert (code, err) == (0, ""), (name, err)
        assert out == expected, name
    # a blank line between rows: refused on every engine, naming it
    text = _csv(rows).splitlines(keepends=True)
    (tmp_path / "inner.csv").write_text("".join([*text[:4], "\n", *text[4:]]))
    code, _, err = _report(tmp_path / "inner.csv", engine, capsys)
    assert code == 2 and "inner.csv line 5 is blank (or only empty cells) between rows" in err
    # a bad label: the pandas reader's message, with its line, on every engine
    (tmp_path / "bad.csv").write_text("model,judge,human\na, 1 ,\na,yes,1\nb,1,0\n")
    code, _, err = _report(tmp_path / "bad.csv", engine, capsys)
    assert code == 2 and "got 'yes' on line 3 (model='a')" in err


@pytest.mark.parametrize("engine", ENGINES)
def test_gzip_files_are_read_on_every_engine(tmp_path, capsys, engine):
    import gzip

    pytest.importorskip(engine)
    text = _csv(_items())
    (tmp_path / "items.csv").write_text(text)
    (tmp_path / "items.csv.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "named.csv").write_bytes(gzip.compress(text.encode()))  # suffix need not say it
    _, expected, _ = _report(tmp_path / "items.csv", engine, capsys)
    for name in ("items.csv.gz", "named.csv"):
        assert _report(tmp_path / name, engine, capsys) == (0, expected, "")
    pd.DataFrame({"judge": [1, 0]}).to_parquet(tmp_path / "p.parquet")
    (tmp_path / "p.parquet.gz").write_bytes(gzip.compress((tmp_path / "p.parquet").read_bytes()))
    with pytest.raises(TableError, match="is gzip-compressed Parquet: decompress it first"):
        read_table(tmp_path / "p.parquet.gz")


def test_a_json_array_is_read_like_json_lines(tmp_path, capsys):
    records = [{"model": m, "judge": j, "human": h} for m, j, h in _items()]
    (tmp_path / "items.json").write_text(json.dumps(records, indent=2))
    (tmp_path / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert sniff_format(tmp_path / "items.json") == "json"
    a = read_table(tmp_path / "items.json", labels={"judge": False, "human": True})
    b = read_table(tmp_path / "items.jsonl", labels={"judge": False, "human": True})
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 80 and int(a["human"].notna().sum()) == 40
    assert _report(tmp_path / "items.json", "pandas", capsys)[1] == _report(
        tmp_path / "items.jsonl", "pandas", capsys)[1]  # fmt: skip
    (tmp_path / "nested.json").write_text('[{"judge": 1}, [0]]')
    with pytest.raises(TableError, match=r"item 2 of the JSON array is not a JSON object: \[0\]"):
        read_table(tmp_path / "nested.json")
    (tmp_path / "bad.json").write_text('[{"judge": 1}, {"judge": "yes"}]')
    with pytest.raises(js.errors.LabelError, match="got 'yes' on item 2"):
        read_table(tmp_path / "bad.json", labels={"judge": False})
    code, _, err = _report(tmp_path / "items.json", "polars", capsys)
    assert code == 2 and "is JSON (use --engine pandas)" in err


def test_pandas_object_labels_of_booleans_with_gaps_agree_with_polars_and_duckdb():
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    rows = _items(seed=5, n=60)
    frame = pd.DataFrame({"model": [r[0] for r in rows], "judge": [bool(r[1]) for r in rows],
                          "human": [None if r[2] is None else bool(r[2]) for r in rows]})  # fmt: skip
    assert frame["human"].dtype == object
    frames = {"pandas": frame, "polars": pl.from_pandas(frame)}
    frames["duckdb"] = duckdb.from_arrow(frames["polars"].to_arrow())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {k: js.evaluate(f).to_dataframe() for k, f in frames.items()}
    assert out["pandas"]["n"].tolist() == [30, 30]
    for k in ("polars", "duckdb"):
        cols = ["model", "estimate", "ci_low", "ci_high", "n", "m0", "m1"]
        pd.testing.assert_frame_equal(out["pandas"][cols], out[k][cols], check_dtype=False)
    # text in a label column: the message says so, without blaming an empty column
    texts = frame.assign(judge=frame["judge"].map({True: "yes", False: "no"}))
    with pytest.raises(js.errors.ColumnError, match=r"its values are text \(such as 'yes'") as info:
        js.evaluate(pl.from_pandas(texts))
    assert "no values (or only empty cells)" not in str(info.value)


def test_the_old_reader_name_warns_naming_its_new_home():
    """Issue 37: js.io.read_inspect_logs moved to js.readers.read_inspect (one minor release)."""
    with pytest.warns(DeprecationWarning, match="js.io.read_inspect_logs is deprecated; use "
                      "js.readers.read_inspect$"):  # fmt: skip
        reader = js.io.read_inspect_logs
    assert reader is js.readers.read_inspect
    with pytest.warns(DeprecationWarning, match="use js.readers.INSPECT_VERDICTS$"):
        assert js.io.INSPECT_VERDICTS is js.readers.INSPECT_VERDICTS
    assert "read_inspect_logs" not in js.io.__all__


# ------------------------------------------------------------------ issue 38: files that mislead
@pytest.mark.parametrize(("sep", "name"), [(";", "semicolons"), ("\t", "tabs")])
def test_a_semicolon_or_tab_file_is_named_as_such(tmp_path, capsys, sep, name):
    """A spreadsheet's 'CSV' separated by semicolons (or tabs) read as one column and the error
    said 'no column judge'; it now says what the file is and how to convert it."""
    path = tmp_path / "items.csv"
    path.write_text(sep.join(["model", "judge", "human"]) + "\n" + sep.join(["a", "1", "0"]) + "\n")
    with pytest.raises(TableError, match=rf"separated by {name}, not commas: its header"):
        read_table(path)
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"separated by {name}, not commas" in err
    assert f"sep={sep!r}" in err


def test_na_words_and_empty_json_strings_in_labels_say_what_they_are(tmp_path):
    """'NA' in a human cell and "" in JSON are not missing labels (only an empty cell or null
    is): the error names them as what they are and says what to do."""
    (tmp_path / "na.csv").write_text("model,judge,human\na,1,NA\na,0,\na,1,1\n")
    with pytest.raises(js.errors.LabelError) as caught:
        read_table(tmp_path / "na.csv", labels={"judge": False, "human": True})
    text = str(caught.value)
    assert "got 'NA' on line 2; 'NA' is a missing value in R's or pandas' words" in text
    assert "empty those cells to mark unlabelled rows" in text
    rows = [{"model": "a", "judge": 1, "human": ""}, {"model": "a", "judge": 0, "human": None}]
    (tmp_path / "e.json").write_text(json.dumps(rows))
    with pytest.raises(js.errors.LabelError, match=r"got '' on item 1; '' is an empty string, "
                                                   r"not a missing value: write null"):
        read_table(tmp_path / "e.json", labels={"judge": False, "human": True})
    # a judge column needs a value on every row: the advice is the letter 'invalid' instead
    (tmp_path / "j.csv").write_text("model,judge,human\na,NaN,1\na,0,0\n")
    with pytest.raises(js.errors.LabelError, match=r"needs a value on every row: drop those rows "
                                                   r"\(if they are a judge's missing verdicts, "
                                                   r"keep them as its letter 'invalid': report "
                                                   r"--invalid NaN\)"):
        read_table(tmp_path / "j.csv", labels={"judge": False, "human": True})


def test_an_error_lists_at_most_five_bad_values_and_their_count(tmp_path):
    lines = ["model,judge,human"] + [f"a,{v},1" for v in ("yes", "no", "2", "3", "4", "5", "6")]
    (tmp_path / "many.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(js.errors.LabelError) as caught:
        read_table(tmp_path / "many.csv", labels={"judge": False, "human": True})
    text = str(caught.value)
    assert "got 'yes' on line 2, 'no' on line 3, '2' on line 4, '3' on line 5, '4' on line 6, " \
           "... (7 in all)" in text
    assert "'5'" not in text
