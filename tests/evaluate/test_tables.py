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
