"""The tables of an Evaluation (judgestats.evaluate.tables): its summary's lines.

Reference values: each group's own Correction (``ev[group].chosen_by``), and the counts the
frames below are built from.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import judgestats as js


def _frame(sizes: dict[str, int]) -> pd.DataFrame:
    """Per model ``m`` human-positive and ``m`` human-negative calibration rows, 400 test rows.

    The judge agrees with the human on 9 of every 10 calibration rows of each class (q0 = q1 =
    0.9); 240 of the 400 test rows are judged positive.
    """
    parts = []
    for model, m in sizes.items():
        human = np.repeat([1.0, 0.0], m)
        agree = (np.arange(2 * m) % 10) != 0
        judge = np.where(agree, human, 1 - human).astype(int)
        test = (np.arange(400) < 240).astype(int)
        parts.append(pd.DataFrame({"model": model, "human": np.r_[human, np.full(400, np.nan)],
                                   "judge": np.r_[judge, test]}))  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def test_summary_names_the_groups_auto_widened():
    """Tour finding: the summary said 'by auto' without saying which groups were widened.

    Models 's1', 's2' have 40 calibration items per class (fewer than 100: auto widens), 'big'
    150 (the paper's adjusted-Wald interval stands).
    """
    ev = js.evaluate(_frame({"big": 150, "s1": 40, "s2": 40}), method="auto")
    widened = [g for g in ev.groups if (ev[g].chosen_by or "").startswith("widened")]
    assert widened == ["s1", "s2"]
    assert ev["s1"].paper_ci is not None and ev["big"].paper_ci is None
    line = ("  auto widened the intervals of models s1, s2 (2) of 3: ev[group].chosen_by says "
            "why, ev[group].paper_ci is the paper's adjusted-Wald interval")
    assert line in ev.summary().splitlines()
    with pytest.warns(js.WeakCalibrationWarning):
        plain = js.evaluate(_frame({"big": 150, "s1": 40}), method="adjusted-wald")
    assert "auto widened" not in plain.summary()


def test_a_one_column_group_is_found_by_its_tuple_too():
    """Third tour of issue 38: ``ev["b"]`` worked and ``ev[("b",)]`` (a pandas groupby key of
    one column given as a tuple) raised KeyError. Both give the group's Correction; a tuple
    naming no group is still a KeyError listing the groups."""
    rows = [("a", j, h) for j, h in [(1, 1)] * 30 + [(0, 0)] * 25 + [(1, 0)] * 5]
    rows += [("b", j, h) for j, h in [(1, 1)] * 20 + [(0, 0)] * 30 + [(0, 1)] * 10]
    rows += [(m, j, None) for m in "ab" for j in [1] * 40 + [0] * 60]
    frame = pd.DataFrame(rows, columns=["model", "judge", "human"])
    ev = js.evaluate(frame, by="model")
    assert ev[("b",)] is ev["b"] and ev[("a",)] is ev["a"]
    assert ev["b"].estimate != ev["a"].estimate
    with pytest.raises(KeyError, match=r"no group \('c',\); groups are"):
        ev[("c",)]
