"""Inspect AI logs (issue 19): real ``.eval`` logs written by Inspect itself, offline.

Inspect's ``mockllm/model`` with a canned solver (it sets the output without calling the model,
which would need a tokenizer download) and a scorer that returns each sample's fixed verdict.
Two models, two epochs; the human labels of a few samples are joined by ``sample_id``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("inspect_ai")

import judgestats as js
from judgestats.cli import main

N_SAMPLES = 60


#: Writes one log: Inspect runs in its own process (its event loop leaves unclosed streams that
#: pytest's warning filter would turn into errors here).
WRITER = r"""
import json, sys, warnings
from inspect_ai import Task, eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Score, Target, accuracy, scorer
from inspect_ai.solver import Generate, TaskState, solver

log_dir, tag, verdicts = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])

@solver
def canned():
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content(model="mockllm/model", content="answer")
        return state
    return solve

@scorer(metrics=[accuracy()])
def judge_verdict():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=state.metadata["verdict"])
    return score

samples = [Sample(input=f"question {i}", target="x", id=f"q{i}", metadata={"verdict": v})
           for i, v in enumerate(verdicts)]
task = Task(dataset=samples, solver=canned(), scorer=judge_verdict(), name=f"qa-{tag}")
inspect_eval(task, model="mockllm/model", log_dir=log_dir, display="none", epochs=2)
"""


def _write_logs(log_dir, model_tag: str, verdicts: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", WRITER, str(log_dir), model_tag, json.dumps(verdicts)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    rng = np.random.default_rng(4)
    log_dir = tmp_path_factory.mktemp("logs")
    verdicts = {}
    for tag in ("a", "b"):
        v = [str(x) for x in rng.choice(["C", "I", "P"], N_SAMPLES, p=[0.55, 0.35, 0.10])]
        _write_logs(log_dir, tag, v)
        verdicts[tag] = v
    return log_dir, verdicts


def test_read_inspect_gives_one_row_per_sample_and_epoch(logs):
    log_dir, verdicts = logs
    with pytest.raises(js.errors.LabelError, match=r"verdicts 'P' \(\d+ samples\).*mapping="):
        js.readers.read_inspect(log_dir)
    frame = js.readers.read_inspect(log_dir, mapping={"P": 0})
    # the readers' schema (issue 30), then the old sample_id column (equal to item) and the
    # run's id (issue 38: two runs of one model are told apart, never merged)
    assert list(frame.columns) == ["model", "task", "item", "epoch", "scorer", "judge", "score",
                                   "sample_id", "inspect_run_id"]  # fmt: skip
    assert (frame["item"] == frame["sample_id"]).all() and set(frame["scorer"]) == {"judge_verdict"}
    assert len(frame) == 2 * 2 * N_SAMPLES  # two logs, two epochs
    for tag, v in verdicts.items():
        part = frame[(frame.task == f"qa-{tag}") & (frame.epoch == 1)].set_index("sample_id")
        expect = [1 if x == "C" else 0 for x in v]
        assert [int(part.loc[f"q{i}", "judge"]) for i in range(N_SAMPLES)] == expect
        assert set(part["score"]) <= {"C", "I", "P"}
    with pytest.raises(js.errors.ColumnError, match="no scorer 'other'"):
        js.readers.read_inspect(log_dir, scorer="other")


def test_join_human_labels_and_evaluate(logs, tmp_path, capsys):
    log_dir, verdicts = logs
    rng = np.random.default_rng(5)
    # humans labelled 30 samples per task (both epochs share the label): the judge is right
    # on C/I 85% of the time
    rows = []
    for tag, v in verdicts.items():
        for i in range(30):
            judged = 1 if v[i] == "C" else 0
            rows.append({"task": f"qa-{tag}", "sample_id": f"q{i}",
                         "human": judged if rng.random() < 0.85 else 1 - judged})  # fmt: skip
    labels = pd.DataFrame(rows)
    frame = js.readers.read_inspect(log_dir, mapping={"P": 0})
    joined = frame.merge(labels, on=["task", "sample_id"], how="left")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = js.evaluate(joined, by="task", errors="mark")
    for tag in ("a", "b"):
        part = joined[joined.task == f"qa-{tag}"]
        test = js.JudgedCounts.from_labels(part[part.human.isna()].judge)
        cal = part[part.human.notna()]
        cal = js.ConfusionCounts.from_labels(human=cal.human.astype(int), judge=cal.judge)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = js.correct(test, cal)
        assert ev[f"qa-{tag}"].estimate == pytest.approx(ref.estimate)
    # the CLI path: report --inspect LOGS --human labels.csv
    labels.to_csv(tmp_path / "labels.csv", index=False)
    out = tmp_path / "r.md"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["report", "--inspect", str(log_dir), "--human", str(tmp_path / "labels.csv"),
                     "--map", "P=0", "--by", "task", "--out", str(out)])  # fmt: skip
    assert code == 0
    text = out.read_text()
    assert "| qa-a |" in text and "| qa-b |" in text
    assert main(["report", "--inspect", str(log_dir), "--human", str(tmp_path / "labels.csv"),
                 "--map", "P=maybe"]) == 2  # fmt: skip
    assert "--map takes VERDICT=0 or VERDICT=1" in capsys.readouterr().err


def test_inspect_verdicts_as_letters(logs, tmp_path, capsys):
    """C / P / I as a three-letter judge alphabet: nothing to map, partial credit kept."""
    log_dir, verdicts = logs
    frame = js.readers.read_inspect(log_dir, verdicts="letters")
    assert set(frame["judge"]) == {"C", "I", "P"} and (frame["judge"] == frame["score"]).all()
    renamed = js.readers.read_inspect(log_dir, verdicts="letters", mapping={"P": "partial"})
    assert set(renamed["judge"]) == {"C", "I", "partial"}
    with pytest.raises(js.errors.MethodError, match="verdicts"):
        js.readers.read_inspect(log_dir, verdicts="raw")
    rng = np.random.default_rng(6)
    rows = [{"task": f"qa-{tag}", "sample_id": f"q{i}",
             "human": int(v[i] == "C") if rng.random() < 0.85 else int(v[i] != "C")}
            for tag, v in verdicts.items() for i in range(40)]  # fmt: skip
    labels = pd.DataFrame(rows)
    labels.to_csv(tmp_path / "labels.csv", index=False)
    joined = frame.merge(labels, on=["task", "sample_id"], how="left")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = js.evaluate(joined, judge="judge", by="task", judge_labels="observed",
                         errors="mark")  # fmt: skip
        code = main(["report", "--inspect", str(log_dir), "--human", str(tmp_path / "labels.csv"),
                     "--letters", "--by", "task"])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "3 letters: C, I, P" in out
    assert ev.groups == ("qa-a", "qa-b") and not ev.marked
    for g in ev.groups:
        c = ev[g]
        assert f"| {g} | {c.n} | {c.estimate:.3f} | {c.ci.low:.3f}–{c.ci.high:.3f} |" in out


#: Five epochs of one task whose verdicts share a per-sample propensity (issue 27): the
#: verdicts of a sample's epochs are correlated, as when a model re-answers one question.
WRITER_EPOCHS = WRITER.replace(
    'return Score(value=state.metadata["verdict"])',
    'return Score(value="C" if rng.random() < state.metadata["p"] else "I")',
).replace(
    'metadata={"verdict": v})',
    'metadata={"p": v})',
).replace("epochs=2)", "epochs=5)").replace(
    "log_dir, tag, verdicts =",
    "import random\nrng = random.Random(27)\nlog_dir, tag, verdicts =",
)


@pytest.mark.slow
def test_report_inspect_counts_samples_not_epochs(tmp_path, capsys):
    """A 5-epoch log: ``report --inspect`` clusters on the sample (issue 27 §1)."""
    gen = np.random.default_rng(27)
    n_samples, labelled = 120, 40
    truth = gen.random(n_samples) < 0.5
    propensity = np.where(truth, gen.beta(4, 1, n_samples), gen.beta(1, 4, n_samples))
    log_dir = tmp_path / "logs"
    done = subprocess.run(
        [sys.executable, "-c", WRITER_EPOCHS, str(log_dir), "e", json.dumps(propensity.tolist())],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    labels = pd.DataFrame({"sample_id": [f"q{i}" for i in range(labelled)],
                           "human": truth[:labelled].astype(int)})  # fmt: skip
    labels.to_csv(tmp_path / "labels.csv", index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["report", "--inspect", str(log_dir), "--human", str(tmp_path / "labels.csv"),
                     "--by", "task"])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    frame = js.readers.read_inspect(log_dir)
    assert len(frame) == 5 * n_samples and frame["epoch"].nunique() == 5
    joined = frame.merge(labels, on="sample_id", how="left")
    test, cal = joined[joined.human.isna()], joined[joined.human.notna()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clustered = js.correct(
            js.JudgedCounts.from_labels(test.judge, cluster=test.sample_id),
            js.ConfusionCounts.from_labels(human=cal.human.astype(int), judge=cal.judge,
                                           cluster=cal.sample_id),
        )  # fmt: skip
        rows = js.correct(js.JudgedCounts.from_labels(test.judge),
                          js.ConfusionCounts.from_labels(human=cal.human.astype(int),
                                                         judge=cal.judge))  # fmt: skip
    # the readers' schema is ready for js.evaluate(cluster="item") (issue 30): the same interval
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = js.evaluate(joined, by="task", cluster="item")
    assert ev["qa-e"].estimate == pytest.approx(clustered.estimate)
    assert (ev["qa-e"].ci.low, ev["qa-e"].ci.high) == pytest.approx(
        (clustered.ci.low, clustered.ci.high))
    # the report's interval is the clustered one, wider than rows counted as items
    assert f"{clustered.ci.low:.3f}–{clustered.ci.high:.3f}" in out
    assert clustered.ci.high - clustered.ci.low > 1.2 * (rows.ci.high - rows.ci.low)
    # and it counts samples as items, naming the rows
    assert f"{labelled} human-labelled items ({5 * labelled} rows)" in out
    assert f"{n_samples - labelled} test items ({5 * (n_samples - labelled)} rows)" in out



#: One log whose sample q1 raises in the solver, in an eval told to go on (fail_on_error=False):
#: the eval finishes (status 'success') and q1 ends in error, without a score.
ERRORED = WRITER.replace(
    "        state.output = ModelOutput",
    "        if state.metadata['verdict'] == 'boom':\n"
    "            raise RuntimeError('provider timed out')\n"
    "        state.output = ModelOutput",
).replace('display="none", epochs=2)', 'display="none", epochs=1, fail_on_error=False)')


def test_a_sample_that_ended_in_error_is_invalid_and_a_rerun_is_refused(tmp_path):
    """Issue 38 §2: a sample of a finished eval that ended in error is the letter 'invalid'
    (counted, never a fail); two logs of one model's task (a rerun) are refused by name, not
    read as more epochs of each sample, or kept apart with runs='apart'."""
    verdicts = ["C", "boom", "I", "C"]
    done = subprocess.run([sys.executable, "-c", ERRORED, str(tmp_path), "a",
                           json.dumps(verdicts)], capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    with pytest.warns(js.errors.InvalidVerdictWarning,
                      match=r"1 of 4 samples have no verdict \(the sample ended in error "
                            r"\(RuntimeError\('provider timed out'\)\) \(1 samples: mockllm/model/q1\)\)"):
        frame = js.readers.read_inspect(tmp_path)
    assert list(frame["judge"]) == [1, "invalid", 0, 1]
    assert set(frame["scorer"]) == {"judge_verdict"}
    # the same eval again into the same folder: a rerun of the model's task
    again = subprocess.run([sys.executable, "-c", ERRORED, str(tmp_path), "a",
                            json.dumps(verdicts)], capture_output=True, text=True,
                           timeout=300)  # fmt: skip
    assert again.returncode == 0, again.stderr[-3000:]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", js.errors.InvalidVerdictWarning)
        with pytest.raises(js.errors.ToolOutputError,
                           match=r"several runs of one model .*model 'mockllm/model' task "
                                 r"'qa-a': runs .*runs='apart'"):
            js.readers.read_inspect(tmp_path)
        apart = js.readers.read_inspect(tmp_path, runs="apart")
    assert apart["model"].nunique() == 2 and len(apart) == 8
    assert (apart["epoch"] == 1).all()
