"""The pairwise leaderboard's report: the controls' table and the predictors used (issue 39)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import judgestats as js
from tests.pairwise._style_data import style_pairs


@pytest.fixture(scope="module")
def boards():
    frame, _ = style_pairs(np.random.default_rng(3940), n=1500, delta=0.8)
    styled = js.pairwise(frame, prediction=["judge", "j2"], covariates=["noise"],
                         control=["len_diff"], rng=0)  # fmt: skip
    plain = js.pairwise(frame, rng=0)
    return styled, plain


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+\.\d+", text)]


def test_markdown_report_has_the_controls_table_with_the_apis_numbers(boards):
    """The controls' row: coefficient, SE and interval equal the result's (to the 3 printed
    digits: reference the API's control_coefficient/control_se/control_ci)."""
    board, _ = boards
    text = board.report("markdown", digits=3)
    row = next(line for line in text.splitlines() if line.startswith("| len_diff"))
    coef, se, lo, hi = _numbers(row)
    assert coef == pytest.approx(board.control_coefficient[0], abs=5e-4)
    assert se == pytest.approx(board.control_se[0], abs=5e-4)
    assert (lo, hi) == pytest.approx(tuple(board.control_ci[0]), abs=5e-4)
    assert 0.4 < coef < 1.2  # the simulated style effect is 0.8
    assert "| control | coefficient | SE | interval |" in text
    assert "Prediction of the human verdict: judge, j2, with covariates noise" in text
    assert "the strengths are net of len_diff" in text


@pytest.mark.parametrize("fmt", ["latex", "html"])
def test_latex_and_html_reports_carry_the_controls_and_predictors(boards, fmt):
    board, _ = boards
    text = board.report(fmt, digits=4, figure=False)
    assert f"{board.control_coefficient[0]:.4f}" in text
    lo, hi = board.control_ci[0]
    assert f"[{lo:.4f}, {hi:.4f}]" in text
    assert "net of len\\_diff" in text if fmt == "latex" else "net of len_diff" in text
    assert "judge, j2" in text


def test_judge_letter_report_has_no_controls_section(boards):
    """Without the row path the report is as it was: no controls table, no predictor line."""
    _, plain = boards
    for fmt in ("markdown", "latex", "html"):
        text = plain.report(fmt, figure=False)
        assert "coefficient" not in text and "Prediction of the human verdict" not in text
