"""Readers of eval tools' output (issue 30 §1): one schema, counts equal to a hand count.

The fixtures under tests/data/readers/ were written by the tools themselves, offline (a canned
model or provider and a fixed grader); tests/data/readers/README.md names each tool's version
and the command that made them. Each count the readers give is checked against a count of the
same file made here without the reader: the raw JSON parsed with ``json`` and, for the 0/1
verdicts, a regular expression over the file's text.
"""

from __future__ import annotations

import json
import re
import warnings
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

import judgestats as js
from judgestats.cli import main
from judgestats.readers import COLUMNS, read_deepeval, read_lm_eval, read_mlflow, read_promptfoo

DATA = Path(__file__).parents[1] / "data" / "readers"
LM_EVAL = DATA / "lm_eval"
PROMPTFOO = DATA / "promptfoo" / "results.json"


def _hand_count_lm_eval() -> dict[str, tuple[int, int]]:
    """(verdicts 1, rows) of judge_correct per model, by a regex over each samples file."""
    out = {}
    for path in sorted(LM_EVAL.glob("*/samples_*.jsonl")):
        text = path.read_text()
        out[path.parent.name] = (len(re.findall(r'"judge_correct": 1\b', text)),
                                 len(re.findall(r'"judge_correct": [01]\b', text)))  # fmt: skip
    return out


def test_lm_eval_counts_equal_a_hand_count():
    frame = read_lm_eval(LM_EVAL, scorer="judge_correct")
    assert tuple(frame.columns[: len(COLUMNS)]) == COLUMNS
    hand = _hand_count_lm_eval()
    assert set(hand) == {"dummy-a", "dummy-b"}  # two lm_eval runs, model_args pretrained=
    got = frame.groupby("model")["judge"].agg(["sum", "count"])
    for model, (ones, rows) in hand.items():
        assert rows == 30
        assert (int(got.loc[model, "sum"]), int(got.loc[model, "count"])) == (ones, rows)
    # and lm-eval's own aggregate (results_*.json: the mean of the metric, sample_len)
    for path in LM_EVAL.glob("*/results_*.json"):
        agg = json.loads(path.read_text())
        task = agg["results"]["judged_qa"]
        mean, n = task["judge_correct,none"], task["sample_len"]
        part = frame[frame["model"] == agg["model_name"]]
        assert len(part) == n and part["judge"].mean() == pytest.approx(mean, abs=1e-12)
    assert set(frame["task"]) == {"judged_qa"} and set(frame["scorer"]) == {"judge_correct"}
    assert (frame["epoch"] == 1).all() and set(frame["lm_eval_filter"]) == {"none"}
    # one row per document and model: the item is the doc_id, as text
    assert not frame.duplicated(["model", "item"]).any()
    assert sorted(frame["item"].unique(), key=int) == [str(i) for i in range(30)]


def test_lm_eval_a_samples_file_cut_short_is_refused_not_read_short(tmp_path):
    """A second tour (issue 38): a samples file missing its first line was read as 29 rows of
    dummy-a without a word, where the run's results file says 30 samples (``n-samples``)."""
    import shutil

    copy = tmp_path / "lm_eval"
    shutil.copytree(LM_EVAL, copy)
    samples = next((copy / "dummy-a").glob("samples_*.jsonl"))
    results = json.loads(next((copy / "dummy-a").glob("results_*.json")).read_text())
    assert results["n-samples"]["judged_qa"]["effective"] == 30  # what the run says it wrote
    lines = samples.read_text().splitlines(keepends=True)
    assert len(lines) == 30
    samples.write_text("".join(lines[1:]))
    with pytest.raises(js.errors.ToolOutputError,
                       match=r"holds 29 samples where results_.*\.json says 30 "
                             r"\(n-samples of 'judged_qa'\): the samples file is cut short"):  # fmt: skip
        read_lm_eval(copy, scorer="judge_correct")
    assert len(read_lm_eval(copy / "dummy-b", scorer="judge_correct")) == 30  # complete: read


def test_lm_eval_scorer_and_rating_mapping():
    with pytest.raises(js.errors.ColumnError, match=r"metrics \['judge_correct', 'judge_rating'\]"):
        read_lm_eval(LM_EVAL)
    with pytest.raises(js.errors.ColumnError, match="no metric 'bleu'"):
        read_lm_eval(LM_EVAL, scorer="bleu")
    with pytest.raises(js.errors.ColumnError, match="no filter 'strict'"):
        read_lm_eval(LM_EVAL, scorer="judge_rating,strict")
    # a 1-5 rating: the error lists every value seen, with its rows, and the mapping to pass
    with pytest.raises(js.errors.VerdictError) as info:
        read_lm_eval(LM_EVAL, scorer="judge_rating")
    message = str(info.value)
    records = [json.loads(line) for p in LM_EVAL.glob("*/samples_*.jsonl")
               for line in p.read_text().splitlines()]  # fmt: skip
    ratings = Counter(r["judge_rating"] for r in records)
    for value in (2, 3, 4, 5):
        assert f"{value} ({ratings[value]} rows)" in message
    # the rating 1 reads as 0/1, but the verdicts are a scale: it needs a verdict too
    assert "mapping={4: 0 or 1, 2: 0 or 1, 5: 0 or 1, 3: 0 or 1, 1: 0 or 1}" in message
    assert message.endswith(f"the verdicts are a scale, so 1 ({ratings[1]} rows) need(s) a "
                            "verdict too")  # fmt: skip
    frame = read_lm_eval(LM_EVAL, scorer="judge_rating",
                         mapping={1: 0, 2: 0, 3: 0, 4: 1, 5: 1})  # fmt: skip
    assert int(frame["judge"].sum()) == ratings[4] + ratings[5]
    letters = read_lm_eval(LM_EVAL, scorer="judge_rating", verdicts="letters")
    assert Counter(letters["judge"]) == ratings


def _hand_count_promptfoo() -> dict[str, tuple[int, int]]:
    """(llm-rubric passes, results) per provider label, from the JSON parsed here."""
    doc = json.loads(PROMPTFOO.read_text())
    out: dict[str, list[int]] = {}
    for result in doc["results"]["results"]:
        for comp in result["gradingResult"]["componentResults"]:
            if comp["assertion"]["type"] == "llm-rubric":
                tally = out.setdefault(result["provider"]["label"], [0, 0])
                tally[0] += comp["pass"] is True
                tally[1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def test_promptfoo_counts_equal_a_hand_count():
    frame = read_promptfoo(PROMPTFOO)  # the one model-graded assertion: llm-rubric
    assert tuple(frame.columns[: len(COLUMNS)]) == COLUMNS
    assert set(frame["scorer"]) == {"llm-rubric"}
    hand = _hand_count_promptfoo()
    assert set(hand) == {"model-a", "model-b"}
    got = frame.groupby("model")["judge"].agg(["sum", "count"])
    for model, (passes, rows) in hand.items():
        assert rows == 24
        assert (int(got.loc[model, "sum"]), int(got.loc[model, "count"])) == (passes, rows)
    # the grader's own words, per row: a pass scored 1 ("fixed verdict pass"), a fail 0
    assert (frame["score"] == frame["judge"]).all()
    assert (frame["promptfoo_reason"] == frame["judge"].map({1: "fixed verdict pass",
                                                              0: "fixed verdict fail"})).all()
    assert list(frame["promptfoo_description"][:2]) == ["q0", "q0"]
    # the other assertion, by name
    contains = read_promptfoo(PROMPTFOO, scorer="contains")
    assert len(contains) == 48 and contains["judge"].sum() == 48
    with pytest.raises(js.errors.ColumnError, match=r"no assertion 'factuality'; its "
                                                    r"assertions are \['llm-rubric', 'contains'\]"):
        read_promptfoo(PROMPTFOO, scorer="factuality")


def test_reader_errors_name_the_path_and_field(tmp_path):
    with pytest.raises(js.errors.ToolOutputError, match="promptfoo output not found"):
        read_promptfoo(tmp_path / "missing.json")
    (tmp_path / "other.json").write_text('{"rows": []}')
    with pytest.raises(js.errors.ToolOutputError, match="no field 'results'"):
        read_promptfoo(tmp_path / "other.json")
    with pytest.raises(js.errors.ToolOutputError, match=r"no lm-eval output \(samples_\*\.jsonl\)"):
        read_lm_eval(tmp_path)
    (tmp_path / "samples_t_2024-01-01T00-00-00.1.jsonl").write_text('{"doc_id": 0}\n')
    with pytest.raises(js.errors.ToolOutputError, match="no field 'metrics'"):
        read_lm_eval(tmp_path)
    with pytest.raises(js.errors.MethodError, match="verdicts"):
        read_lm_eval(LM_EVAL, scorer="judge_correct", verdicts="raw")


def _labels_and_reference(frame: pd.DataFrame, n_labelled: int, seed: int):
    """Human labels of the first items of each model (a fixed 85%-agreeing labeller), and the
    correction js.correct gives on the same split, for the report to match."""
    rng = pd.Series(range(len(frame))).sample(frac=1.0, random_state=seed).to_numpy()
    flip = set(rng[: len(frame) // 7].tolist())  # rows whose human label disagrees
    labelled = {(m, item) for m, part in frame.groupby("model")
                for item in list(dict.fromkeys(part["item"]))[:n_labelled]}  # first items seen
    rows = []
    for i, (_, r) in enumerate(frame.iterrows()):
        if (r["model"], r["item"]) in labelled:
            rows.append({"model": r["model"], "item": r["item"],
                         "human": int(r["judge"]) ^ (i in flip)})  # fmt: skip
    labels = pd.DataFrame(rows)
    joined = frame.merge(labels, on=["model", "item"], how="left")
    refs = {}
    for model, part in joined.groupby("model"):
        test, cal = part[part.human.isna()], part[part.human.notna()]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            refs[model] = js.correct(
                js.JudgedCounts.from_labels(test.judge),
                js.ConfusionCounts.from_labels(human=cal.human.astype(int), judge=cal.judge),
            )  # fmt: skip
    return labels, refs


@pytest.mark.parametrize(("tool", "path", "scorer"), [
    ("lm-eval", LM_EVAL, "judge_correct"),
    ("promptfoo", PROMPTFOO, "llm-rubric"),
    ("deepeval", DATA / "deepeval", "Correctness [GEval]"),
    ("mlflow", DATA / "mlflow", "correctness"),
])  # fmt: skip
def test_report_from_tool(tool, path, scorer, tmp_path):
    reader = {"lm-eval": read_lm_eval, "promptfoo": read_promptfoo,
              "deepeval": read_deepeval, "mlflow": read_mlflow}[tool]  # fmt: skip
    frame = reader(path, scorer=scorer)
    labels, refs = _labels_and_reference(frame, n_labelled=14, seed=30)
    labels.to_csv(tmp_path / "labels.csv", index=False)
    out = tmp_path / "r.md"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["report", "--from", tool, str(path), "--human", str(tmp_path / "labels.csv"),
                     "--scorer", scorer, "--out", str(out)])  # fmt: skip
    assert code == 0
    text = out.read_text()
    for model, ref in refs.items():
        row = next(line for line in text.splitlines() if line.startswith(f"| {model} |"))
        assert row.startswith(f"| {model} | {ref.n} |")
        assert f"| {ref.estimate:.3f} | {ref.ci.low:.3f}–{ref.ci.high:.3f} |" in row


def test_report_from_maps_numeric_verdicts(tmp_path, capsys):
    """--map 4=1 names lm-eval's number 4; without --map the error says which flags to give."""
    frame = read_lm_eval(LM_EVAL, scorer="judge_rating", mapping={1: 0, 2: 0, 3: 0, 4: 1, 5: 1})
    labels, refs = _labels_and_reference(frame, n_labelled=15, seed=31)
    labels.to_csv(tmp_path / "labels.csv", index=False)
    args = ["report", "--from", "lm-eval", str(LM_EVAL), "--human", str(tmp_path / "labels.csv"),
            "--scorer", "judge_rating"]  # fmt: skip
    assert main(args) == 2
    assert "e.g. --map 4=0|1 --map 2=0|1 --map 5=0|1 --map 3=0|1 --map 1=0|1 (or keep them as " \
           "letters with --letters)" in capsys.readouterr().err  # the values in file order
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main([*args, "--map", "1=0", "--map", "2=0", "--map", "3=0", "--map", "4=1",
                     "--map", "5=1"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    for model, ref in refs.items():
        row = next(line for line in out.splitlines() if line.startswith(f"| {model} |"))
        assert f"| {ref.estimate:.3f} | {ref.ci.low:.3f}–{ref.ci.high:.3f} |" in row


def test_report_from_refuses_an_unknown_tool(tmp_path, capsys):
    (tmp_path / "labels.csv").write_text("item,human\n0,1\n")
    code = main(["report", "--from", "ragas", str(PROMPTFOO), "--human",
                 str(tmp_path / "labels.csv")])  # fmt: skip
    assert code == 2
    assert "--from takes a TOOL among inspect, lm-eval, promptfoo" in capsys.readouterr().err


DEEPEVAL = DATA / "deepeval"


def test_deepeval_counts_equal_deepevals_own_tally():
    """DeepEval writes its own per-metric tally (``metricsScores``: passes, fails, scores)."""
    with pytest.raises(js.errors.ColumnError, match=r"metrics \['Correctness \[GEval\]', 'Conc"):
        read_deepeval(DEEPEVAL)
    frame = read_deepeval(DEEPEVAL, scorer="Correctness [GEval]")
    assert tuple(frame.columns[: len(COLUMNS)]) == COLUMNS
    assert set(frame["model"]) == {"model-a", "model-b"}
    for path in sorted(DEEPEVAL.glob("test_run_*.json")):
        doc = json.loads(path.read_text())
        model = doc["hyperparameters"]["model"]
        tally = next(m for m in doc["metricsScores"] if m["metric"] == "Correctness [GEval]")
        part = frame[frame["model"] == model]
        assert (int(part["judge"].sum()), len(part)) == (tally["passes"],
                                                         tally["passes"] + tally["fails"])
        assert list(part["score"]) == tally["scores"]
        # and a regex over the text: one '"success": true' per passed metric and per passed case
        text = path.read_text()
        passed_cases = sum(c["success"] for c in doc["testCases"])
        assert len(re.findall(r'"success": true', text)) == passed_cases + sum(
            m["passes"] for m in doc["metricsScores"])
    # success is score >= threshold: the verdict the judge's score gives
    assert ((frame["score"] >= frame["deepeval_threshold"]).astype(int) == frame["judge"]).all()
    assert list(frame["item"][:3]) == ["q0", "q1", "q2"]
    assert set(frame["deepeval_evaluation_model"]) == {"fixed-grader"}
    with pytest.raises(js.errors.ColumnError, match="no metric 'Faithfulness'"):
        read_deepeval(DEEPEVAL, scorer="Faithfulness")


MLFLOW = DATA / "mlflow"


def _hand_count_mlflow() -> dict[str, tuple[int, int]]:
    """("yes" verdicts, rows) per saved result table, by a regex over the file's text."""
    out = {}
    for path in sorted(MLFLOW.glob("result_df_*.json")):
        text = path.read_text()
        yes = len(re.findall(r'"correctness\\/value":"yes"', text))
        out[path.stem.removeprefix("result_df_")] = (
            yes, yes + len(re.findall(r'"correctness\\/value":"no"', text)))
    return out


def test_mlflow_counts_equal_a_hand_count():
    hand = _hand_count_mlflow()
    assert set(hand) == {"model-a", "model-b"}
    sources = {m: MLFLOW / f"result_df_{m}.json" for m in hand}
    frame = read_mlflow(sources, item_key="item_id")  # one scorer: correctness
    assert tuple(frame.columns[: len(COLUMNS)]) == COLUMNS
    got = frame.groupby("model")["judge"].agg(["sum", "count"])
    for model, (yes, rows) in hand.items():
        assert rows == 20
        assert (int(got.loc[model, "sum"]), int(got.loc[model, "count"])) == (yes, rows)
    assert set(frame["score"]) == {"yes", "no"} and set(frame["scorer"]) == {"correctness"}
    assert list(frame["item"][:3]) == ["q0", "q1", "q2"]
    assert set(frame["mlflow_source"]) == {"fixed-grader"}  # the judge's AssessmentSource
    # the same verdicts from the traces' assessments alone (search_traces' frame has no
    # <scorer>/value column), and from a frame rather than a file
    raw = pd.read_json(sources["model-a"], orient="records")
    bare = raw.drop(columns=[c for c in raw.columns if c.endswith(("/value", "/rationale"))])
    from_assessments = read_mlflow({"model-a": bare}, item_key="item_id")
    part = frame[frame["model"] == "model-a"].reset_index(drop=True)
    assert list(from_assessments["judge"]) == list(part["judge"])
    assert list(from_assessments["mlflow_rationale"]) == list(part["mlflow_rationale"])
    # without a dict the model is the MLflow run that evaluated it; the item the trace id
    by_run = read_mlflow(MLFLOW)
    assert by_run["model"].nunique() == 2 and by_run["item"].str.startswith("tr-").all()
    with pytest.raises(js.errors.ColumnError, match="no scorer 'safety'"):
        read_mlflow(MLFLOW, scorer="safety")
    with pytest.raises(js.errors.ToolOutputError, match="no 'case_id'"):
        read_mlflow(MLFLOW, item_key="case_id")


def test_report_from_needs_human_labels_and_one_source(tmp_path, capsys):
    (tmp_path / "labels.csv").write_text("item,human\n0,1\n")
    assert main(["report", "--from", "promptfoo", str(PROMPTFOO)]) == 2
    assert "--from (--inspect) and --labels go together" in capsys.readouterr().err
    assert main(["report", "--from", "promptfoo", str(PROMPTFOO), "--inspect", "logs",
                 "--human", str(tmp_path / "labels.csv")]) == 2  # fmt: skip
    assert "exactly one data source" in capsys.readouterr().err
    (tmp_path / "nolabel.csv").write_text("id,human\n0,1\n")
    assert main(["report", "--from", "promptfoo", str(PROMPTFOO), "--human",
                 str(tmp_path / "nolabel.csv")]) == 2  # fmt: skip
    assert "need an item (or sample_id) column" in capsys.readouterr().err


def test_promptfoo_repeats_are_epochs_of_one_item(tmp_path, capsys):
    """``promptfoo eval --repeat 3``: test k runs as testIdx 3k, 3k+1, 3k+2 (one item)."""
    path = DATA / "promptfoo" / "repeat.json"
    doc = json.loads(path.read_text())
    assert doc["runtimeOptions"]["repeat"] == 3
    frame = read_promptfoo(path)
    assert len(frame) == len(doc["results"]["results"]) == 2 * 6 * 3
    # every repeat of an item is the same test (promptfoo's own description, q<k>)
    assert (frame["promptfoo_description"] == "q" + frame["item"]).all()
    epochs = frame.groupby(["model", "item"])["epoch"].apply(lambda s: sorted(s))
    assert all(e == [1, 2, 3] for e in epochs)
    passes = Counter(r["provider"]["label"] for r in doc["results"]["results"]
                     for c in r["gradingResult"]["componentResults"]
                     if c["assertion"]["type"] == "llm-rubric" and c["pass"])  # fmt: skip
    assert frame.groupby("model")["judge"].sum().to_dict() == dict(passes)
    # the report counts items, not rows: items 1-4 of each model labelled (as the judge said)
    first = frame[(frame["epoch"] == 1) & frame["item"].isin(["1", "2", "3", "4"])]
    labels = first[["model", "item"]].assign(human=first["judge"].to_numpy())
    labels.to_csv(tmp_path / "labels.csv", index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["report", "--from", "promptfoo", str(path), "--human",
                     str(tmp_path / "labels.csv")])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    assert "4 human-labelled items per model (8 in all, 24 rows" in out
    assert "counting repeated items once each" in out


# ---------------------------------------------------------------- issue 38: no verdict, no fail
def _promptfoo_edited(tmp_path, edit) -> Path:
    """The promptfoo fixture with one hand edit (``edit(results)``), as a new file.

    The edits stand in for what promptfoo writes when a test lacks the assertion or the
    provider fails: the fixture itself is promptfoo's, untouched.
    """
    doc = json.loads(PROMPTFOO.read_text())
    edit(doc["results"]["results"])
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    return path


def _read_noting(reader, *args, **kwargs) -> tuple[pd.DataFrame, list[str]]:
    """Read, and return the frame with the messages of the reader's InvalidVerdictWarning.

    (Caught by the class's name, so that before issue 38, which added the class, a test fails
    on what the reader read, not on the missing class.)
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = reader(*args, **kwargs)
    return frame, [str(w.message) for w in caught
                   if w.category.__name__ == "InvalidVerdictWarning"]  # fmt: skip


def test_promptfoo_a_result_without_the_model_graded_assertion_is_invalid(tmp_path):
    """Issue 38 #3: drop the llm-rubric component of result 4 and its ``contains`` result was
    read as the judge's verdict (scorers {'llm-rubric': 47, 'contains': 1}), without a note."""

    def drop_rubric(results):
        grading = results[4]["gradingResult"]
        grading["componentResults"] = [c for c in grading["componentResults"]
                                       if c["assertion"]["type"] != "llm-rubric"]  # fmt: skip

    frame, said = _read_noting(read_promptfoo, _promptfoo_edited(tmp_path, drop_rubric))
    assert Counter(frame["scorer"]) == {"llm-rubric": 48}
    assert len(said) == 1 and said[0].startswith(
        "1 of 48 rows have no verdict (no llm-rubric result (1 rows: model-a/2)): the letter "
        "'invalid', never a fail")  # fmt: skip
    whole = read_promptfoo(PROMPTFOO)
    assert frame.loc[4, "judge"] == "invalid" and whole.loc[4, "judge"] == 1
    kept = frame.drop(index=4)
    assert list(kept["judge"]) == list(whole.drop(index=4)["judge"])
    pd.testing.assert_frame_equal(kept.drop(columns="judge"),
                                  whole.drop(index=4).drop(columns="judge"), check_dtype=False)
    # a test that never had the assertion says so; one whose provider failed says that
    def no_assertion(results):
        drop_rubric(results)
        results[4]["testCase"]["assert"] = [{"type": "contains", "value": "Answer"}]
        results[7].update(failureReason=2, error="API error 429: rate limit",
                          response={"error": "API error 429: rate limit"}, gradingResult=None)

    with pytest.warns(js.errors.InvalidVerdictWarning) as caught:
        frame = read_promptfoo(_promptfoo_edited(tmp_path, no_assertion))
    text = str(caught[0].message)
    assert "the test has no llm-rubric assertion (1 rows: model-a/2)" in text
    assert "the provider failed (API error 429: rate limit) (1 rows: model-a/3)" in text
    assert list(frame.loc[[4, 7], "judge"]) == ["invalid", "invalid"]


def test_promptfoo_picks_the_model_graded_assertion_by_type(tmp_path):
    def only_contains(results):
        for r in results:
            r["gradingResult"]["componentResults"] = [
                c for c in r["gradingResult"]["componentResults"]
                if c["assertion"]["type"] == "contains"]
            r["testCase"]["assert"] = [a for a in r["testCase"]["assert"]
                                       if a["type"] == "contains"]  # fmt: skip

    with pytest.raises(js.errors.ColumnError, match=r"has no model-graded assertion \(types "
                       r"answer-relevance, .*its assertions are \['contains'\]: name the "
                       r"judge's with scorer="):  # fmt: skip
        read_promptfoo(_promptfoo_edited(tmp_path, only_contains))
    assert read_promptfoo(_promptfoo_edited(tmp_path, only_contains), scorer="contains")[
        "judge"].sum() == 48


def _deepeval_edited(tmp_path, model: str, case: str, **metric) -> Path:
    """The DeepEval fixture with one metric result edited by hand (``metric``: its new fields),
    as DeepEval writes a metric that errored (``evaluate(..., ignore_errors=True)``)."""
    out = tmp_path / "deepeval"
    out.mkdir()
    for path in DEEPEVAL.glob("test_run_*.json"):
        doc = json.loads(path.read_text())
        if doc["hyperparameters"]["model"] == model:
            data = next(c for c in doc["testCases"] if c["name"] == case)["metricsData"]
            next(m for m in data if m["name"] == "Correctness [GEval]").update(metric)
        (out / path.name).write_text(json.dumps(doc))
    return out


def test_deepeval_an_errored_metric_is_invalid_never_a_fail(tmp_path, capsys):
    """Issue 38 #4: a metric that errored (score None, success False, error RateLimitError)
    was read as a fail (judge 0) without a warning."""
    path = _deepeval_edited(tmp_path, "model-a", "q3", score=None, success=False, reason=None,
                            error="RateLimitError")  # fmt: skip
    frame, said = _read_noting(read_deepeval, path, scorer="Correctness [GEval]")
    row = frame[(frame["model"] == "model-a") & (frame["item"] == "q3")].iloc[0]
    assert row["judge"] == "invalid" and row["deepeval_error"] == "RateLimitError"
    assert len(said) == 1 and said[0].startswith(
        "1 of 40 rows have no verdict (the metric errored (RateLimitError) (1 rows: "
        "model-a/q3))")  # fmt: skip
    assert row["score"] is None or row["score"] != row["score"]
    whole = read_deepeval(DEEPEVAL, scorer="Correctness [GEval]")
    others = (frame["model"] != "model-a") | (frame["item"] != "q3")
    assert list(frame.loc[others, "judge"]) == list(whole.loc[others, "judge"])
    # the report counts the letter: three letters, and the reader's count first
    labels = whole[whole["item"].isin([f"q{i}" for i in range(10)])][["model", "item", "judge"]]
    labels.rename(columns={"judge": "human"}).to_csv(tmp_path / "labels.csv", index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["report", "--from", "deepeval", str(path), "--labels",
                     str(tmp_path / "labels.csv"), "--scorer", "Correctness [GEval]"])
    out = capsys.readouterr().out
    assert code == 0
    assert ("Verdicts: 1 of 40 rows have no verdict (the metric errored (RateLimitError) (1 "
            "rows: model-a/q3)): the letter 'invalid'") in out
    assert "3 letters: 0, 1, invalid" in out


def test_a_rerun_of_one_model_is_refused_by_name_or_kept_apart(tmp_path):
    """Two lm-eval runs of dummy-a (two samples files of one task) were read as two epochs of
    every item; now they are refused, naming the model and both runs, or kept apart."""
    run = next((LM_EVAL / "dummy-a").glob("samples_*.jsonl"))
    twice = tmp_path / "out"
    (twice / "dummy-a").mkdir(parents=True)
    for path in (LM_EVAL / "dummy-a").iterdir():
        (twice / "dummy-a" / path.name).write_text(path.read_text())
    rerun = run.name.replace("2026-11-26T20-15-34.991945", "2026-11-27T09-00-00.000000")
    (twice / "dummy-a" / rerun).write_text(run.read_text())
    with pytest.raises(js.errors.ToolOutputError,
                       match=r"model 'dummy-a' task 'judged_qa': runs 2026-11-26T20-15-34\.991945,"
                             r" 2026-11-27T09-00-00\.000000\): .*runs='apart'"):  # fmt: skip
        read_lm_eval(twice, scorer="judge_correct")
    apart = read_lm_eval(twice, scorer="judge_correct", runs="apart")
    assert Counter(apart["model"]) == {"dummy-a (run 2026-11-26T20-15-34.991945)": 30,
                                       "dummy-a (run 2026-11-27T09-00-00.000000)": 30}
    assert (apart["epoch"] == 1).all() and not apart.duplicated(["model", "item"]).any()
    assert main(["report", "--from", "lm-eval", str(twice), "--labels", str(twice / "x.csv"),
                 "--scorer", "judge_correct"]) == 2


def test_mlflow_a_judge_that_errored_is_invalid(tmp_path):
    rows = json.loads((MLFLOW / "result_df_model-a.json").read_text())
    rows[2]["correctness/value"] = None
    judged = next(a for a in rows[2]["assessments"] if a["assessment_name"] == "correctness")
    judged["feedback"] = {"value": None, "error": {"error_code": "RATE_LIMIT",
                                                   "error_message": "429 Too Many Requests"}}
    (tmp_path / "a.json").write_text(json.dumps(rows))
    with pytest.warns(js.errors.InvalidVerdictWarning,
                      match=r"1 of 20 rows have no verdict \(the judge errored \(429 Too Many "
                            r"Requests\) \(1 rows: model-a/q2\)\)"):  # fmt: skip
        frame = read_mlflow({"model-a": tmp_path / "a.json"}, item_key="item_id")
    assert frame.loc[2, "judge"] == "invalid" and frame.loc[2, "item"] == "q2"


def test_inspect_a_sample_without_the_named_scorers_score_is_invalid():
    """A log with two scorers where one sample lacks the judge's score (its scorer failed on
    it): that sample is the letter 'invalid', not an error for the whole log; a scorer no
    sample has is still an error naming the log's scorers. (Hand-made stand-ins for Inspect's
    log objects: only the attributes the reader reads.)"""
    from types import SimpleNamespace as NS

    from judgestats.readers.inspect import _log_rows

    def sample(i, scores):
        return NS(id=f"q{i}", epoch=1, error=None,
                  scores={k: NS(value=v) for k, v in scores.items()})  # fmt: skip

    log = NS(status="success", eval=NS(model="m", task="t", run_id="r1"),
             samples=[sample(0, {"judge": "C", "exact": 1}), sample(1, {"exact": 0}),
                      sample(2, {"judge": "I", "exact": 0})])  # fmt: skip
    rows = _log_rows(log, "judge", "log.eval")
    assert [r["score"] for r in rows] == ["C", None, "I"]
    assert [r["_invalid"] for r in rows] == [None, "no judge score", None]
    assert all(r["scorer"] == "judge" for r in rows) and all("_missing" not in r for r in rows)
    with pytest.raises(js.errors.ColumnError, match=r"log\.eval has no scorer 'judg'; its "
                                                    r"scorers are \['exact', 'judge'\]"):
        _log_rows(log, "judg", "log.eval")


def test_an_empty_tool_file_is_said_to_hold_nothing_by_name(tmp_path, capsys):
    """Issue 38 tour: ``report --from lm-eval empty.csv`` said "empty.csv has metrics []".
    The error names the file and says it holds no samples (DeepEval: no test case with a
    metric, was "has metrics []" too), through the API and the command alike."""
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(js.errors.ColumnError, match=r"empty\.csv holds no samples with metrics"):
        read_lm_eval(empty)
    labels = tmp_path / "labels.csv"
    labels.write_text("item,human\n")
    assert main(["report", "--from", "lm-eval", str(empty), "--labels", str(labels)]) == 2
    err = capsys.readouterr().err
    assert f"{empty} holds no samples" in err and "[]" not in err
    run = tmp_path / "test_run_20260101_120000.json"
    cases = [{"name": "case-0", "metricsData": []}]  # a test case that no metric scored
    run.write_text(json.dumps({"hyperparameters": {"model": "gpt-a"}, "testCases": cases}))
    with pytest.raises(js.errors.ColumnError, match=r"holds no test cases with metrics"):
        read_deepeval(run)
