"""CLI: ``report --from TOOL PATH --labels FILE`` (cli/tools.py), the seams of issue 38.

The human labels are joined to the tool's rows by :func:`judgestats.readers.join_labels`: every
label is counted (read, matched, unmatched) and the count is the report's first line; a label
that matches no judged row is an error unless ``--unmatched drop``. The reproductions of issue
38 §1 (bad ones #1, #7 and #8) are the first tests, as the issue wrote them.
"""

from __future__ import annotations

import sys
import tomllib
import warnings
from pathlib import Path

import pandas as pd

from judgestats.cli import main
from judgestats.readers import read_lm_eval

DATA = Path(__file__).parents[1] / "data" / "readers"
LM_EVAL = DATA / "lm_eval"
ROOT = Path(__file__).parents[2]


def _labels(extra: int = 0) -> pd.DataFrame:
    """Issue 38 #1: labels for the lm-eval fixture's items < 20, the judge as the human, plus
    ``extra`` rows for items of dummy-a that do not exist (100, 101, ...)."""
    frame = read_lm_eval(LM_EVAL, scorer="judge_correct")
    labels = frame[frame["item"].astype(int) < 20][["model", "item", "judge"]]
    labels = labels.rename(columns={"judge": "human"})
    ghosts = pd.DataFrame({"model": "dummy-a", "item": [str(100 + i) for i in range(extra)],
                           "human": [i % 2 for i in range(extra)]})  # fmt: skip
    return pd.concat([labels, ghosts], ignore_index=True)


def _report(tmp_path, capsys, labels: pd.DataFrame, *flags: str) -> tuple[int, str, str]:
    """Run the issue's command (--human FILE, the old spelling of --labels FILE)."""
    path = tmp_path / "labels.csv"
    labels.to_csv(path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the weak-calibration note of 20 labels per model
        code = main(["report", "--from", "lm-eval", str(LM_EVAL), "--human", str(path),
                     "--scorer", "judge_correct", *flags])  # fmt: skip
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_labels_that_match_no_item_are_an_error_not_dropped(tmp_path, capsys):
    """Issue 38 #1: five labels of items that do not exist gave byte-identical output (exit 0,
    'Rows: 60 counted'); now they are an error naming them, unless --unmatched drop."""
    code, good, _ = _report(tmp_path, capsys, _labels())
    assert code == 0
    code, out, err = _report(tmp_path, capsys, _labels(extra=5))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err  # the error alone, in one line
    assert ("45 labels read, 40 matched, 5 match no judged row (model, item: dummy-a/100, "
            "dummy-a/101, dummy-a/102, dummy-a/103, dummy-a/104)") in err
    assert "--unmatched drop" in err
    # allowed: the report says so first, and its statistics are the 40 labels' (the same)
    code, dropped, _ = _report(tmp_path, capsys, _labels(extra=5), "--unmatched", "drop")
    assert code == 0 and dropped != good
    line = next(x for x in dropped.splitlines() if x.startswith("Human labels"))
    assert line.endswith("45 labels read, 40 matched, 5 unmatched (first: dummy-a/100, "
                         "dummy-a/101, dummy-a/102, ... (5 in all); left out); 40 of 60 judged "
                         "rows labelled (joined on model, item)")  # fmt: skip
    stats = dropped.index("Accuracy of each")
    assert dropped.index("Human labels") < stats and good.index("Human labels") < stats
    assert dropped[stats:] == good[good.index("Accuracy of each"):]
    assert "Rows: 60 counted: 20 test and 40 calibration rows" in dropped


def test_the_join_is_the_reports_first_line_in_every_format(tmp_path, capsys):
    for fmt, first in (("markdown", "Judged rows: 60 read from lm-eval"),
                       ("latex", "Judged rows: 60 read from lm-eval"),
                       ("html", '<p class="inputs">Judged rows: 60 read from lm-eval')):
        code, out, _ = _report(tmp_path, capsys, _labels(), "--format", fmt)
        assert code == 0
        assert first in out and out.index(first) < out.index("Human labels")
        assert out.index("Human labels") < out.index("Accuracy of each")
        assert "40 labels read, 40 matched; 40 of 60 judged rows labelled" in out


def test_a_case_or_number_mismatch_is_named_as_such(tmp_path, capsys):
    labels = _labels()
    labels.loc[0, "model"] = "DUMMY-A"
    labels.loc[1, "item"] = "00" + labels.loc[1, "item"]
    code, _, err = _report(tmp_path, capsys, labels)
    assert code == 2
    assert "model 'DUMMY-A' is 'dummy-a' in the judged rows (they differ in case)" in err
    item = labels.loc[1, "item"]
    assert (f"item {item!r} is {item.lstrip('0')!r} in the judged rows (the same number "
            "written another way") in err


def test_a_label_column_of_another_name_names_the_flag(tmp_path, capsys):
    """Issue 38 #7: a label column named 'label' was a KeyError (exit 1) naming no flag."""
    code, out, err = _report(tmp_path, capsys, _labels().rename(columns={"human": "label"}))
    assert code == 2 and out == "" and "Traceback" not in err
    assert "no human-label column 'human'" in err and "['model', 'item', 'label']" in err
    assert "--human label" in err and "--human-column" in err
    labels = tmp_path / "named.csv"
    _labels().rename(columns={"human": "label"}).to_csv(labels, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["report", "--from", "lm-eval", str(LM_EVAL), "--labels", str(labels),
                     "--human", "label", "--scorer", "judge_correct"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0 and "40 labels read, 40 matched" in out and err == ""


def test_report_inspect_without_inspect_ai_says_what_to_install(tmp_path, capsys, monkeypatch):
    """Issue 38 #8: without inspect-ai, ``report --inspect`` was an ImportError traceback."""
    monkeypatch.setitem(sys.modules, "inspect_ai", None)  # import inspect_ai: ImportError
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)
    (tmp_path / "labels.csv").write_text("item,human\nq0,1\n")
    code = main(["report", "--inspect", str(tmp_path), "--human", str(tmp_path / "labels.csv")])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.splitlines()[-1] == ('judgestats: error: reading Inspect logs needs inspect-ai: '
                                    'pip install "judgestats[inspect]"')


def _extra(extras: dict, name: str) -> set[str]:
    """The packages an extra installs, its judgestats[...] references followed."""
    out: set[str] = set()
    for req in extras[name]:
        if req.startswith("judgestats["):
            for part in req[len("judgestats["):].split("]")[0].split(","):
                out |= {f"judgestats[{part}]"} | _extra(extras, part)
        else:
            out.add(req.split(">")[0].split("=")[0].split("[")[0])
    return out


def test_the_all_extra_installs_inspect_ai():
    """Issue 38 #8: ``pip install "judgestats[all]"`` did not install inspect-ai."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert "inspect-ai" in _extra(extras, "all") and "inspect-ai" in _extra(extras, "inspect")


MLFLOW = DATA / "mlflow"


def test_mlflow_runs_and_items_are_named_from_the_command_line(tmp_path, capsys):
    """Issue 38 §2: a folder of MLflow results names each model by its run id and each item by
    its trace id; --item and --model name them as the labels do."""
    import judgestats as js

    frame = js.readers.read_mlflow(MLFLOW, item_key="item_id")
    runs = sorted(frame["model"].unique())
    assert len(runs) == 2 and all(len(r) == 32 for r in runs)  # MLflow run ids
    run_a = js.readers.read_mlflow(MLFLOW / "result_df_model-a.json", item_key="item_id")[
        "model"].iloc[0]
    run_b = next(r for r in runs if r != run_a)
    labels = tmp_path / "labels.csv"
    pd.DataFrame({"model": ["model-a"] * 5 + ["model-b"] * 5,
                  "item": [f"q{i}" for i in range(5)] * 2,
                  "human": [1, 0, 0, 1, 1, 1, 1, 0, 0, 1]}).to_csv(labels, index=False)
    args = ["report", "--from", "mlflow", str(MLFLOW), "--labels", str(labels)]
    assert main(args) == 2  # trace ids and run ids: no label matches, and the error shows them
    err = capsys.readouterr().err
    assert "10 labels read, 0 matched" in err and "the judged rows' keys are like" in err
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main([*args, "--item", "item_id", "--model", f"{run_a}=model-a", "--model",
                     f"{run_b}=model-b"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "Human labels" in out and "10 labels read, 10 matched; 10 of 40 judged rows" in out
    assert "model-a" in out and run_a not in out.split("Human labels")[1]
    assert main([*args, "--item", "item_id", "--model", "nosuch=x"]) == 2
    assert "--model names no model ['nosuch']" in capsys.readouterr().err


def test_a_label_row_without_a_label_says_to_drop_it(tmp_path, capsys):
    labels = _labels()
    labels["human"] = labels["human"].astype(object)
    labels.loc[3, "human"] = None  # an empty cell in the CSV
    code, out, err = _report(tmp_path, capsys, labels)
    assert code == 2 and out == ""
    assert "got an empty cell on line 5" in err
    assert "a labels file lists the labelled rows only: drop the rows without a label" in err


def test_from_with_a_human_column_but_no_labels_file_says_what_is_missing(capsys):
    assert main(["report", "--from", "lm-eval", str(LM_EVAL), "--human", "verdict",
                 "--scorer", "judge_correct"]) == 2  # fmt: skip
    assert capsys.readouterr().err == (
        "judgestats: error: --from (--inspect) needs --labels FILE, the human labels (--human "
        "verdict names their column; no file verdict exists)\n")


def test_a_model_without_any_verdict_is_named_not_a_count_error(tmp_path, capsys):
    """Found on the tour: every DeepEval metric of model-b errored (a rate limit); the report
    said 'CountError: counts must have at least 2 categories'. It names the model and why."""
    import json

    out = tmp_path / "deepeval"
    out.mkdir()
    for path in (DATA / "deepeval").glob("test_run_*.json"):
        doc = json.loads(path.read_text())
        if doc["hyperparameters"]["model"] == "model-b":
            for case in doc["testCases"]:
                for metric in case["metricsData"]:
                    metric.update(score=None, success=False, error="RateLimitError")
        (out / path.name).write_text(json.dumps(doc))
    labels = tmp_path / "labels.csv"
    pd.DataFrame({"model": "model-a", "item": [f"q{i}" for i in range(8)],
                  "human": [1, 0] * 4}).to_csv(labels, index=False)  # fmt: skip
    assert main(["report", "--from", "deepeval", str(out), "--labels", str(labels), "--scorer",
                 "Correctness [GEval]"]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "CountError" not in err
    assert err.startswith("judgestats: error: no verdict at all for model(s) 'model-b': 20 of 40 "
                          "rows have no verdict (the metric errored (RateLimitError) (20 rows: "
                          "model-b/q0")


def test_a_rating_the_maps_leave_out_is_refused_in_flags(tmp_path, capsys):
    """Tour finding 1: --map 5=1 --map 4=1 --map 3=0 --map 2=0 read the 11 ratings of 1 as
    passes, with no note; the error names --map (not mapping=) and --letters (not verdicts=)."""
    labels = _labels()
    code, out, err = _report(tmp_path, capsys, labels, "--scorer", "judge_rating", "--map", "5=1",
                             "--map", "4=1", "--map", "3=0", "--map", "2=0")  # fmt: skip
    assert (code, out) == (2, "")
    assert err.strip().endswith(
        "verdicts 1 (11 rows) are not mapped: the verdicts are a scale (not only 0/1), so every "
        "value needs its verdict (a rating of 1 is no pass); say what each counts as with "
        "--map VALUE=0|1, e.g. --map 1=0|1")  # fmt: skip
    assert len(err.strip().splitlines()) == 1
    code, out, err = _report(tmp_path, capsys, labels, "--scorer", "judge_rating")
    assert code == 2 and "mapping" not in err and "verdicts=" not in err
    assert "e.g. --map 4=0|1 --map 2=0|1 --map 5=0|1 --map 3=0|1 --map 1=0|1 (or keep them " \
           "as letters with --letters); the verdicts are a scale, so 1 (11 rows) need(s) a " \
           "verdict too" in err  # the values in the order of the files


def test_labels_without_a_model_column_name_the_flag_that_shares_them(tmp_path, capsys):
    """Tour finding 3: labels made for dummy-a's answers, without a model column, were applied
    to dummy-b too ("20 labels read, 20 matched; 40 of 60 judged rows labelled")."""
    labels = _labels()
    labels = labels[labels["model"] == "dummy-a"].drop(columns="model")
    assert len(labels) == 20
    code, out, err = _report(tmp_path, capsys, labels)
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert "the labels have no model column and 20 of 20 match rows of several models" in err
    assert err.strip().endswith("add a model column to the labels, or, if a label is the item's "
                                "whatever the model, say so with --join-on item")  # fmt: skip
    code, out, err = _report(tmp_path, capsys, labels, "--join-on", "item")
    assert code == 0
    assert ("20 labels read, 20 matched; 40 of 60 judged rows labelled (joined on item; 20 "
            "labels applied to several models' rows)") in out
    assert main(["report", "--example", "chatbot-arena", "--join-on", "item"]) == 2
    assert "--join-on apply to --from (--inspect) only" in capsys.readouterr().err
