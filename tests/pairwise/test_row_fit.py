"""The leaderboard's row path: covariates sharpen the prediction only (pairwise.row_fit)."""

from __future__ import annotations

import numpy as np

import judgestats as js
from tests.pairwise._style_data import style_pairs


def _width(board):
    return float(np.mean(board.strength_ci[:, 1] - board.strength_ci[:, 0]))


def test_useless_covariates_leave_the_strengths_and_widths_where_they_were():
    # Issue 39: useless covariates at most 2% wider. Measured (10 seeds, n = 2,000, in
    # development): mean ratio 1.009, largest 1.021; strengths move < 0.21 standard errors.
    ratios = []
    for seed in range(2):
        frame, _ = style_pairs(np.random.default_rng(seed), n=2000)
        base = js.pairwise(frame, rng=0)
        noisy = js.pairwise(frame, covariates=["noise", "cat"], rng=0)
        assert np.abs(noisy.strength - base.strength).max() < 0.3 * base.strength_se.min()
        ratios.append(_width(noisy) / _width(base))
    assert np.mean(ratios) <= 1.02


def test_an_informative_covariate_or_probability_narrows_the_intervals():
    # A weak judge (right 30% of the time beyond chance) and a length effect of 1.5 per sd:
    # the length difference and the judge's P(a) predict the human verdict beyond the letter.
    frame, _ = style_pairs(np.random.default_rng(1), n=2000, delta=1.5, accuracy=(0.3, 0.3))
    base = js.pairwise(frame, rng=0)
    covariate = js.pairwise(frame, covariates="len_diff", rng=0)
    probability = js.pairwise(frame, prediction=["judge", "p_a"], rng=0)
    assert _width(covariate) < 0.95 * _width(base)
    assert _width(probability) < 0.93 * _width(base)
    assert covariate.lam > base.lam


def test_a_jury_of_two_is_narrower_than_its_first_member():
    frame, _ = style_pairs(np.random.default_rng(2), n=2000)
    single = js.pairwise(frame, rng=0)
    jury = js.pairwise(frame, prediction=["judge", "j2"], rng=0)
    assert _width(jury) < 0.95 * _width(single)
    assert jury.predictors == ("judge", "j2") and jury.method == "ppi"
    assert jury.prediction == "cross-fitted stacking of judge, j2 (5 folds)"


def test_a_three_share_distribution_and_by_judge_label_work_on_the_row_path():
    rng = np.random.default_rng(6)
    frame, _ = style_pairs(rng, n=1500, rate=0.25)
    share = frame["p_a"].to_numpy() * 0.8
    frame = frame.assign(pa=share, pt=0.2 * np.ones(len(frame)), pb=1.0 - share - 0.2)
    board = js.pairwise(frame, prediction={"a": "pa", "tie": "pt", "b": "pb"}, rng=0,
                        design="by-judge-label")  # fmt: skip
    assert board.design == "by-judge-label" and board.predictors == ("pa", "pt", "pb")
    assert np.all(board.strength_ci[:, 0] < board.strength_ci[:, 1])
