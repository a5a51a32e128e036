"""``correct_jury`` and the jury path of ``js.evaluate``: names, members, errors, routing.

References: each member alone is ``js.correct(..., method="adjusted-wald")`` on its own
margins (the paper's eq. (8) by the package's binary path, an independent computation); the
J × K methods are ``correct_alphabet``'s (what ``evaluate`` gave before the jury).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats.alphabets.groups import AlphabetCorrection, correct_alphabet
from judgestats.errors import (
    ArgumentTypeError,
    ClusteredCountsError,
    LabelError,
    MethodError,
)
from judgestats.jury import JuryCorrection, correct_jury, jury_bounds, jury_cells

LETTERS = ["0|0", "0|1", "1|0", "1|1"]
TEST = js.CategoryCounts([380, 70, 90, 460], labels=LETTERS)
CAL = js.ConfusionMatrix([[70, 4], [12, 6], [10, 8], [8, 82]], labels=[0, 1],
                         judge_labels=LETTERS)  # fmt: skip


def test_counts_level_result_names_what_it_computed():
    res = correct_jury(TEST, CAL, judges=["gpt4", "gpt35"], confidence_level=0.9)
    b = jury_bounds(*jury_cells(TEST, CAL), 1.6448536269514722)
    assert (res.ci.low, res.ci.high) == pytest.approx((float(b["low"]), float(b["high"])))
    assert res.method == "min-variance" == res.ci.method and res.confidence_level == 0.9
    assert res.design == "by-human-label" and res.fallback is None
    assert sum(res.weights.values()) == pytest.approx(1.0)
    assert (res.n, res.m0, res.m1) == (1000, 100, 100)
    assert "minimum-variance" in res.estimator and "gpt4: weight" in res.summary()
    row = res.to_dict()
    assert row["weight[gpt4]"] == res.weights["gpt4"] and row["better"] == res.better


def test_each_member_alone_is_js_correct_adjusted_wald():
    res = correct_jury(TEST, CAL, judges=["a", "b"])
    margins = {"a": (550, js.ConfusionCounts(tp=90, fn=10, tn=82, fp=18)),
               "b": (530, js.ConfusionCounts(tp=88, fn=12, tn=80, fp=20))}  # fmt: skip
    for name, (positive, cal) in margins.items():
        alone = js.correct(js.JudgedCounts(positive=positive, n=1000), cal,
                           method="adjusted-wald")  # fmt: skip
        assert (res.member_ci[name].low, res.member_ci[name].high) == pytest.approx(
            (alone.ci.low, alone.ci.high), abs=1e-12
        )
        card = res.agreement()[name]
        assert card.sensitivity.estimate == pytest.approx(cal.tp / 100)
        assert card.specificity.estimate == pytest.approx(cal.tn / 100)
    width = res.ci.high - res.ci.low
    assert width < min(c.high - c.low for c in res.member_ci.values())


def test_joint_fit_by_name_is_correct_alphabet():
    res = correct_jury(TEST, CAL, method="profile-likelihood-t")
    fit = correct_alphabet(TEST, CAL, method="profile-likelihood-t")
    assert (res.estimate, res.ci.low, res.ci.high) == (fit.estimate, fit.ci.low, fit.ci.high)
    assert res.weights is None and res.fit is not None


def test_fallback_is_recorded():
    small = js.ConfusionMatrix([[20, 2], [5, 3], [5, 4], [4, 31]], labels=[0, 1],
                               judge_labels=LETTERS)  # fmt: skip
    res = correct_jury(TEST, small, judges=["a", "b"])
    assert res.fallback is not None and "fewer than 50" in res.fallback
    better = res.member_ci[res.better]
    assert res.ci.low <= better.low and res.ci.high >= better.high


def test_bad_input_gets_named_errors():
    with pytest.raises(MethodError, match="available: 'min-variance'"):
        correct_jury(TEST, CAL, method="wald")
    with pytest.raises(MethodError, match="juries of judges are not available"):
        correct_jury(TEST, CAL, design="random")
    with pytest.raises(ArgumentTypeError, match="judges must be 2 distinct names"):
        correct_jury(TEST, CAL, judges=["a"])
    with pytest.raises(ArgumentTypeError, match="takes no options"):
        correct_jury(TEST, CAL, n_resamples=10)
    score = ["1|x", "0|1"]
    with pytest.raises(LabelError, match="'1\\|x' is not a product of 0/1 verdicts"):
        correct_jury(js.CategoryCounts([3, 4], labels=score),
                     js.ConfusionMatrix([[1, 2], [3, 4]], labels=[0, 1], judge_labels=score))
    one = ["0", "1"]
    with pytest.raises(ArgumentTypeError, match="2 to 10 judges, got 1"):
        correct_jury(js.CategoryCounts([3, 4], labels=one),
                     js.ConfusionMatrix([[1, 2], [3, 4]], labels=[0, 1], judge_labels=one))


def _frame(seed=0, rows=3000, labelled=600):
    gen = np.random.default_rng(seed)
    human = gen.random(rows) < 0.6
    a = np.where(human, gen.random(rows) < 0.9, gen.random(rows) < 0.2)
    b = np.where(human, gen.random(rows) < 0.8, gen.random(rows) < 0.3)
    return pd.DataFrame({"model": np.where(np.arange(rows) % 2, "x", "y"), "a": a.astype(int),
                         "b": b.astype(int), "score": gen.integers(1, 4, rows),
                         "human": np.where(np.arange(rows) < labelled, human, np.nan)})  # fmt: skip


def test_evaluate_two_binary_judges_is_a_jury():
    frame = _frame()
    ev = js.evaluate(frame, judge=["a", "b"])
    assert ev.method == "min-variance"
    res = ev.corrections["x"]
    assert isinstance(res, JuryCorrection) and res.judges == ("a", "b")
    assert "weight[a]" in ev.to_dataframe().columns
    # the same numbers as the counts-level function on the group's letters
    sub = frame[frame.model == "x"]
    lab = sub.human.notna()
    letters = sub.a.astype(str) + "|" + sub.b.astype(str)
    test = js.CategoryCounts([int((letters[~lab] == v).sum()) for v in LETTERS], labels=LETTERS)
    cal = js.ConfusionMatrix([[int(((letters[lab] == v) & (sub.human[lab] == h)).sum())
                               for h in (0, 1)] for v in LETTERS], labels=[0, 1],
                             judge_labels=LETTERS)  # fmt: skip
    alone = correct_jury(test, cal, judges=["a", "b"])
    assert (res.ci.low, res.ci.high) == pytest.approx((alone.ci.low, alone.ci.high))


def test_evaluate_keeps_the_joint_fit_where_asked_or_where_judges_are_not_binary():
    frame = _frame()
    fit = js.evaluate(frame, judge=["a", "b"], method="profile-likelihood-t")
    assert isinstance(fit.corrections["x"], AlphabetCorrection)
    scores = js.evaluate(frame, judge=["a", "score"])  # a 1–3 score: letters, as before
    assert isinstance(scores.corrections["x"], AlphabetCorrection)
    assert scores.method == "profile-likelihood-t"
    other = js.evaluate(frame, judge=["a", "b"], design="random", combine="letters")
    assert isinstance(other.corrections["x"], AlphabetCorrection)
    with pytest.raises(LabelError, match="combines 0/1 judges"):
        js.evaluate(frame, judge=["a", "score"], method="min-variance")
    with pytest.raises(MethodError, match="combine \\('vote'\\) must be one of 'letters'"):
        js.evaluate(frame, judge=["a", "b"], combine="vote")
    with pytest.raises(ArgumentTypeError, match="combine='mean' takes the judge columns"):
        js.evaluate(frame, judge=["a", "b"], combine="mean", invalid=[None])
    # repeated items: a jury of 0/1 judges only (tests/jury/test_clustered.py), no J × K fit
    with pytest.raises(ClusteredCountsError, match="profile-likelihood-t"):
        js.evaluate(frame.assign(item=0), judge=["a", "b"], cluster="item",
                    method="profile-likelihood-t")  # fmt: skip
    with pytest.raises(ClusteredCountsError, match="other than 0/1"):
        js.evaluate(frame.assign(item=0), judge=["a", "score"], cluster="item")
