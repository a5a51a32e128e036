"""Building a judge alphabet from data (judgestats.alphabets.letters): scores, bins, invalid
verdicts, two judges' product alphabet.
"""

from __future__ import annotations

import numpy as np
import pytest

import judgestats as js
from judgestats._validation import LabelError
from judgestats.multiclass import correct_distribution


# ----------------------------------------------------------------------------- builders
def test_judge_letters_keep_every_verdict():
    assert js.judge_letters([5, 3, None, 1], invalid=[None]) == [5, 3, "invalid", 1]
    assert js.judge_letters(["A", "refused", "B"], invalid=["refused"]) == ["A", "invalid", "B"]
    assert js.judge_letters([1, 0, 1], ["win", "tie", "lose"]) == ["1|win", "0|tie", "1|lose"]
    assert js.judge_letters([0, 4.99, 5, 10], bins=[0, 5, 10]) == [
        "[0, 5)", "[0, 5)", "[5, 10]", "[5, 10]"
    ]
    with pytest.raises(LabelError, match="missing value at index 1: pass invalid="):
        js.judge_letters([1, None])
    with pytest.raises(LabelError, match="outside the bins"):
        js.judge_letters([11], bins=[0, 5, 10])
    with pytest.raises(LabelError, match="'n/a' at index 0 is not a number to bin"):
        js.judge_letters(["n/a"], bins=[0, 5, 10])
    with pytest.raises(js.errors.ArgumentTypeError, match="increasing edges"):
        js.judge_letters([1], bins=[5, 0])


def test_alphabet_counts_from_a_table():
    rows = {
        "score": [5, 4, 1, 2, 5, 1, 3, 4, None, 5],
        "human": ["pass", "pass", "fail", "fail", None, None, None, None, "pass", None],
    }
    with pytest.warns(js.SparseLettersWarning, match=r"1 \(1\), 2 \(1\), 3 \(0\), 4 \(1\)"):
        test, cal = js.alphabet_counts(rows, judge="score", invalid=[None], min_count=2)
    assert test.labels == (1, 2, 3, 4, 5, "invalid")
    assert test.counts.tolist() == [1, 0, 1, 1, 2, 0]  # test rows: 5, 1, 3, 4, 5
    assert cal.labels == ("fail", "pass")
    assert cal.counts.tolist() == [[1, 0], [1, 0], [0, 0], [0, 1], [0, 1], [0, 1]]
    with pytest.raises(LabelError, match="no calibration item"):
        js.alphabet_counts({"score": [1, 2], "human": [None, None]}, judge="score")


def test_two_judges_product_alphabet_on_arena_runs_end_to_end():
    d = js.datasets.load_chatbot_arena("all")
    wide = d.pivot_table(index=["item_id", "target_model"], columns="judge_name",
                         values="judge_label", aggfunc="first").reset_index()  # fmt: skip
    human = d[d.judge_name == "gpt-4-0125-preview"][["item_id", "target_model", "human"]]
    wide = wide.merge(human, on=["item_id", "target_model"])
    v = wide[wide.target_model == "vicuna-13b"].copy()
    cal_rows = np.random.default_rng(0).random(len(v)) < 0.1
    v["h"] = np.where(cal_rows, v["human"], None)
    with pytest.warns(js.SparseLettersWarning):
        test, cal = js.alphabet_counts(
            v, judge=["gpt-4-0125-preview", "gpt-3.5-turbo-0125"], human="h"
        )
    assert all("|" in a for a in test.labels) and cal.j == len(test.labels) == 8
    merge = {"tie|tie": "tie|win", "win|tie": "win|lose"}
    res = correct_distribution(test.merge(merge), cal.merge(merge), design="random")
    truth = float(v["human"].mean())
    assert res.ci[1].low <= truth <= res.ci[1].high
    comp = js.plan.compare_alphabets(cal.merge(merge), n=test.n, test=test.merge(merge),
                                     method="profile-likelihood")  # fmt: skip
    names = [r["alphabet"] for r in comp.rows]
    assert names == ["all letters", "judge 1 alone", "judge 2 alone"]
    # at the same cut-off merging never helps (rows of one smoothed C are added up) ...
    assert all(r["ratio"] >= 1 - 1e-12 for r in comp.rows)
    # ... and GPT-3.5 adds little given GPT-4: dropping it costs about 2% at the same cut-off; with the default's small-sample cut-off (ν falls with the number of letters)
    # the two are within 1% (measured over six targets, benchmarks/results/alphabets.md:
    # mean length 0.311 with GPT-4's three letters, 0.351 with the six)
    assert 1 < comp.rows[1]["ratio"] < 1.03
    default = js.plan.compare_alphabets(cal.merge(merge), n=test.n, test=test.merge(merge))
    assert abs(default.rows[1]["ratio"] - 1) < 0.01
    assert default.rows[1]["ratio"] < comp.rows[1]["ratio"]
