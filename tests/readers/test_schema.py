"""readers.schema: the verdict rules every reader shares (issue 38, the seams)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import judgestats as js
from judgestats.readers import judge_values, read_lm_eval

LM_EVAL = Path(__file__).parents[1] / "data" / "readers" / "lm_eval"


def _ratings() -> Counter:
    """The lm-eval fixture's 1-5 ratings, counted from the JSON Lines parsed here."""
    records = [json.loads(line) for p in LM_EVAL.glob("*/samples_*.jsonl")
               for line in p.read_text().splitlines()]  # fmt: skip
    return Counter(r["judge_rating"] for r in records)


def test_a_rating_the_mapping_leaves_out_is_refused_not_read_as_a_pass():
    """Tour finding 1: mapping 5, 4 -> 1 and 3, 2 -> 0 read the 11 ratings of 1 as passes."""
    ratings = _ratings()
    assert ratings[1] == 11 and sum(ratings.values()) == 60  # the fixture, counted by hand
    with pytest.raises(js.errors.VerdictError) as info:
        read_lm_eval(LM_EVAL, scorer="judge_rating", mapping={5: 1, 4: 1, 3: 0, 2: 0})
    assert str(info.value) == (
        "verdicts 1 (11 rows) are not mapped: the verdicts are a scale (not only 0/1), so every "
        "value needs its verdict (a rating of 1 is no pass); say what each counts as with "
        "mapping=, e.g. mapping={1: 0 or 1}")  # fmt: skip
    # the whole scale mapped: passes are the ratings 4 and 5 (14 + 13 in the hand count)
    frame = read_lm_eval(LM_EVAL, scorer="judge_rating", mapping={5: 1, 4: 1, 3: 0, 2: 0, 1: 0})
    assert int(frame["judge"].sum()) == ratings[4] + ratings[5]


def test_the_0_1_values_of_a_mapped_scale_are_refused_and_0_1_verdicts_stay():
    values = [0, 0.5, 1, 1, True]
    with pytest.raises(js.errors.VerdictError, match=r"^verdicts 0 \(1 rows\), 1 \(2 rows\), "
                       r"True \(1 rows\) are not mapped"):  # fmt: skip
        judge_values(values, mapping={0.5: 0}, verdicts="0/1")
    assert judge_values(values, mapping={0.5: 0, 0: 0, 1: 1}, verdicts="0/1") == [0, 0, 1, 1, 1]
    # 0/1 verdicts with a mapping of other words stay 0/1; so do a tool's own words
    assert judge_values([0, 1, True], mapping={"P": 0}, verdicts="0/1") == [0, 1, 1]
    assert judge_values(["C", "I", "P"], mapping={"P": 0}, verdicts="0/1",
                        known={"C": 1, "I": 0}) == [1, 0, 0]  # fmt: skip
