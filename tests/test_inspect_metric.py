"""The Inspect AI metric ``corrected_accuracy``: inside a real eval, and called directly.

The eval is Inspect's own (``mockllm/model``, a canned solver, a scorer returning each sample's
fixed verdict, in a subprocess as in tests/test_io_inspect.py); the reference is ``js.correct`` on
the counts tallied here from the same seeded verdicts and labels.
"""

from __future__ import annotations

import inspect
import json
import math
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.scorer import SampleScore, Score

import judgestats as js
from judgestats._validation import LabelError
from judgestats.inspect_metric import MetricUndefinedWarning, corrected_accuracy

WRITER = r"""
import json, sys
from inspect_ai import Task, eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Score, accuracy, scorer
from inspect_ai.solver import solver
from judgestats.inspect_metric import corrected_accuracy

log_dir, verdicts, humans = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
mapping = json.loads(sys.argv[4]) if len(sys.argv) > 4 else None

@solver
def canned():
    async def solve(state, generate):
        state.output = ModelOutput.from_content(model="mockllm/model", content="answer")
        return state
    return solve

@scorer(metrics=[accuracy(), corrected_accuracy(method="profile-map", mapping=mapping)])
def judge_verdict():
    async def score(state, target):
        if state.metadata["verdict"] == "raise":
            raise RuntimeError("the scorer broke")
        return Score(value=state.metadata["verdict"])
    return score

samples = [Sample(input=f"q{i}", target="x", id=f"q{i}", metadata={"verdict": v, "human": h})
           for i, (v, h) in enumerate(zip(verdicts, humans))]
log = inspect_eval(Task(dataset=samples, solver=canned(), scorer=judge_verdict(), name="qa"),
                   model="mockllm/model", log_dir=log_dir, display="none")[0]
print(json.dumps({"status": log.status, "metrics": {k: m.value for k, m in
                  (log.results.scores[0].metrics.items() if log.results else [])}}))
"""


def _run_eval(log_dir, verdicts, humans, mapping=None) -> dict:
    args = [sys.executable, "-c", WRITER, str(log_dir), json.dumps(verdicts), json.dumps(humans)]
    done = subprocess.run(args + ([json.dumps(mapping)] if mapping else []),
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_metric_inside_a_real_eval_equals_correct_on_the_same_counts(tmp_path):
    rng = np.random.default_rng(12)
    truth = rng.random(240) < 0.4
    judge = np.where(truth, rng.random(240) < 0.85, rng.random(240) < 0.25)
    labelled = np.arange(240) % 3 == 0  # 80 human labels
    verdicts = ["C" if j else "I" for j in judge]
    humans = [int(t) if lab else None for t, lab in zip(truth, labelled, strict=True)]
    out = _run_eval(tmp_path, verdicts, humans)
    assert out["status"] == "success"
    got = out["metrics"]
    ref = js.correct(
        js.JudgedCounts.from_labels(judge[~labelled].astype(int)),
        js.ConfusionCounts.from_labels(human=truth[labelled].astype(int),
                                       judge=judge[labelled].astype(int)),
        method="profile-map",
    )  # fmt: skip
    assert got["accuracy"] == pytest.approx(judge.mean(), abs=1e-12)  # Inspect's own, all samples
    for key, value in (("corrected", ref.estimate), ("ci_low", ref.ci.low),
                       ("ci_high", ref.ci.high), ("naive", ref.naive)):  # fmt: skip
        assert got[key] == pytest.approx(value, abs=1e-12), key
    assert (got["n"], got["m0"], got["m1"]) == (160, ref.m0, ref.m1)


def _score(value, human, i=0):
    return SampleScore(score=Score(value=value), sample_id=f"q{i}",
                       sample_metadata={} if human is None else {"human": human})  # fmt: skip


def test_direct_call_maps_verdicts_and_matches_correct():
    scores = [_score("C", 1, 0), _score("C", 1, 1), _score("P", 1, 2), _score("I", 0, 3),
              _score("I", 0, 4), _score("C", 0, 5)] * 20  # fmt: skip
    scores += [_score(v, None, i) for i, v in enumerate(["C", "I", "P", True, 0] * 40)]
    metric = corrected_accuracy(mapping={"P": 0}, method="profile-likelihood-t")
    value = metric(scores)
    ref = js.correct(js.JudgedCounts(positive=80, n=200),
                     js.ConfusionCounts(tp=40, fn=20, tn=40, fp=20), method="profile-likelihood-t")  # fmt: skip
    assert value["corrected"] == ref.estimate and value["naive"] == 80 / 200
    assert (value["ci_low"], value["ci_high"]) == (ref.ci.low, ref.ci.high)


def test_undefined_correction_is_nan_with_a_warning_and_bad_labels_are_errors():
    one_class = [_score("C", 1, i) for i in range(5)] + [_score("I", None, 9)]
    with pytest.warns(MetricUndefinedWarning, match="undefined on 6 samples.*human label 0"):
        value = corrected_accuracy()(one_class)
    assert all(math.isnan(v) for v in value.values())
    with pytest.warns(MetricUndefinedWarning, match="got 0 and 1"):
        corrected_accuracy()([_score("I", None, 9)])
    with pytest.raises(LabelError, match=r"sample 'q1': metadata\['human'\] must be 0/1"):
        corrected_accuracy()([_score("C", "yes", 1)])
    with pytest.raises(LabelError, match=r"unmapped verdict 0\.5.*Epochs\(n, 'mode'\)"):
        corrected_accuracy()([_score(0.5, None, 1)])
    with pytest.raises(js.errors.ConfidenceLevelError):
        corrected_accuracy(confidence_level=95)
    with pytest.raises(js.errors.MethodError):
        corrected_accuracy(method="exact")


def test_mapping_values_unhashable_scores_and_a_seeded_bootstrap():
    with pytest.raises(js.errors.ArgumentTypeError, match=r"mapping must send each verdict to 0 or 1"):
        corrected_accuracy(mapping={"P": 0.5})
    with pytest.raises(js.errors.ArgumentTypeError, match=r"mapping must send each verdict to 0 or 1"):
        corrected_accuracy(mapping={"P": "x"})
    with pytest.raises(LabelError, match=r"sample 'q3': the score value \[1, 0\] is not one"):
        corrected_accuracy()([_score([1, 0], None, 3)])
    scores = [_score("C", 1, i) for i in range(120)] + [_score("I", 1, i) for i in range(30)]
    scores += [_score("I", 0, i) for i in range(120)] + [_score("C", 0, i) for i in range(30)]
    scores += [_score("C" if i % 3 else "I", None, i) for i in range(600)]
    one = corrected_accuracy(method="bootstrap", random_seed=7)(scores)
    two = corrected_accuracy(method="bootstrap", random_seed=7)(scores)
    assert one == two and 0 < one["ci_low"] < one["corrected"] < one["ci_high"] < 1


@pytest.mark.slow
def test_partial_credit_mapped_by_its_letter_inside_a_one_epoch_eval(tmp_path):
    # Inspect's default reducer hands the metric 0.5 for "P" even with one epoch (issue 31):
    # mapping={"P": 0} must cover it. Reference: js.correct on the counts with P tallied as 0.
    rng = np.random.default_rng(31)
    truth = rng.random(150) < 0.5
    judge = np.where(truth, rng.choice(["C", "P", "I"], 150, p=[0.7, 0.2, 0.1]),
                     rng.choice(["C", "P", "I"], 150, p=[0.15, 0.15, 0.7]))  # fmt: skip
    labelled = np.arange(150) % 2 == 0
    humans = [int(t) if lab else None for t, lab in zip(truth, labelled, strict=True)]
    out = _run_eval(tmp_path, [str(v) for v in judge], humans, mapping={"P": 0})
    assert out["status"] == "success"
    as01 = (judge == "C").astype(int)
    ref = js.correct(js.JudgedCounts.from_labels(as01[~labelled]),
                     js.ConfusionCounts.from_labels(human=truth[labelled].astype(int),
                                                    judge=as01[labelled]),
                     method="profile-map")  # fmt: skip
    got = out["metrics"]
    assert got["accuracy"] == pytest.approx(np.mean([{"C": 1, "P": 0.5, "I": 0}[v] for v in judge]))
    for key, value in (("corrected", ref.estimate), ("ci_low", ref.ci.low),
                       ("ci_high", ref.ci.high), ("naive", ref.naive)):  # fmt: skip
        assert got[key] == pytest.approx(value, abs=1e-12), key


def test_a_log_whose_scorer_failed_names_the_sample_and_the_error(tmp_path):
    verdicts = ["C", "I", "raise", "C", "I", "C"] * 4
    humans = [1, 0, None, None, None, None] * 4
    out = _run_eval(tmp_path, verdicts, humans)
    assert out["status"] == "error"
    with pytest.raises(LabelError, match=r"sample 'q\d+' has no score: it ended in error "
                                         r"\(RuntimeError\('the scorer broke'\)\); the eval's "
                                         r"status is 'error'"):  # fmt: skip
        js.readers.read_inspect(tmp_path)


def test_reduced_letters_the_message_and_help():
    # what the metric receives inside an eval: Inspect's value_to_float of each letter
    scores = [_score(1.0, 1, 0), _score(0.5, 1, 1), _score(0.0, 0, 2), _score(0.5, 0, 3)] * 10
    scores += [_score(v, None, i) for i, v in enumerate([1.0, 0.5, 0.0, 0.0] * 25)]
    value = corrected_accuracy(mapping={"P": 1}, method="profile-map")(scores)
    ref = js.correct(js.JudgedCounts(positive=50, n=100),
                     js.ConfusionCounts(tp=20, fn=0, tn=10, fp=10), method="profile-map")  # fmt: skip
    assert (value["corrected"], value["ci_low"]) == (ref.estimate, ref.ci.low)
    with pytest.raises(LabelError, match=r"unmapped verdict 0\.5: .*score reducer.*even with "
                                         r"one epoch.*mapping=\{'P': 0\}"):  # fmt: skip
        corrected_accuracy()([_score(0.5, None, 1)])
    with pytest.raises(LabelError, match=r"sends 'N' to 1, but .* turns 'N' into 0\.0, which "
                                         r"counts as 0"):  # fmt: skip
        corrected_accuracy(mapping={"N": 1})
    with pytest.raises(LabelError, match=r"sends 'P' to 1, .* into 0\.5, which counts as 0"):
        corrected_accuracy(mapping={"P": 1, 0.5: 0})
    assert corrected_accuracy(mapping={"N": 0, "I": 0}) is not None  # both 0: no conflict
    assert "mapping : dict" in corrected_accuracy.__doc__
    assert "mapping" in inspect.signature(corrected_accuracy).parameters


def test_the_metric_resolves_its_spec_when_made():
    """Issue 37: design and method are checked once, against the capability table.

    ``method="auto"`` (a row's method without an implementation of its own) is taken, and a
    method the design does not allow is refused when the metric is made, not per call.
    """
    scores = [_score("C", 1, 0), _score("I", 1, 1), _score("I", 0, 2), _score("C", 0, 3),
              _score("C", 1, 4), _score("I", 0, 5)] * 20  # fmt: skip
    scores += [_score(v, None, i) for i, v in enumerate(["C", "I"] * 75)]
    value = corrected_accuracy(method="auto", design="random")(scores)
    ref = js.correct(js.JudgedCounts(positive=75, n=150),
                     js.ConfusionCounts(tp=40, fn=20, tn=40, fp=20), method="auto",
                     design="random")  # fmt: skip
    assert (value["ci_low"], value["ci_high"]) == (ref.ci.low, ref.ci.high)
    with pytest.raises(js.errors.MethodError, match="not available for corrections with "
                                                    "design='by-judge-label'"):  # fmt: skip
        corrected_accuracy(method="profile-map", design="by-judge-label")


def test_the_default_method_is_the_capability_tables():
    """Issue 38 §3: the metric's default interval is ``js.correct``'s (``auto`` under the paper's
    design), so an Inspect eval gets the interval that covers, not adjusted-Wald by name.

    30 + 30 labels: auto widens here (classes under 100 items), so the default differs from
    ``method="adjusted-wald"``, which stays one argument away.
    """
    scores = [_score("C", 1, 0), _score("C", 1, 1), _score("I", 1, 2), _score("I", 0, 3),
              _score("I", 0, 4), _score("C", 0, 5)] * 10  # fmt: skip
    scores += [_score(v, None, i) for i, v in enumerate(["C", "I"] * 75)]
    test, cal = js.JudgedCounts(positive=75, n=150), js.ConfusionCounts(tp=20, fn=10, tn=20, fp=10)
    ref = js.correct(test, cal)
    assert ref.method == "adjusted-wald+profile-map" and ref.paper_ci is not None  # auto widened
    value = corrected_accuracy()(scores)
    assert (value["corrected"], value["ci_low"], value["ci_high"]) == (
        ref.estimate, ref.ci.low, ref.ci.high)  # fmt: skip
    with pytest.warns(js.errors.WeakCalibrationWarning):
        paper = corrected_accuracy(method="adjusted-wald")(scores)
    assert (paper["ci_low"], paper["ci_high"]) == (ref.paper_ci.low, ref.paper_ci.high)
    assert value["ci_high"] - value["ci_low"] > paper["ci_high"] - paper["ci_low"]
    for design in ("random", "by-judge-label"):  # the other designs keep their own default
        other = corrected_accuracy(design=design)(scores)["ci_low"]
        assert other == js.correct(test, cal, design=design).ci.low
