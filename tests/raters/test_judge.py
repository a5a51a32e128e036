"""The judge against each rater and the majority (raters/judge.py).

References: percent agreement and Cohen's (1960) κ counted item by item in the test; the
exact interval against scipy's Clopper–Pearson (``binomtest(...).proportion_ci("exact")``);
the κ interval is :func:`judgestats.agreement.coefficient_bounds` (its coverage is measured in
benchmarks/results/agreement.md), checked here on the pair's own table.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

from judgestats.agreement import coefficient_bounds
from judgestats.errors import RatingsError
from judgestats.raters import JudgeAgreement, Ratings, judge_agreement


def cohen_by_items(a: list, b: list) -> tuple[float, float]:
    """(percent agreement, Cohen's κ) of two label lists, item by item."""
    n = len(a)
    po = sum(x == y for x, y in zip(a, b, strict=True)) / n
    cats = set(a) | set(b)
    pe = sum((a.count(c) / n) * (b.count(c) / n) for c in cats)
    return po, (po - pe) / (1 - pe)


def _data(seed: int, n: int = 120):
    gen = np.random.default_rng(seed)
    truth = gen.integers(0, 3, n)

    def rater(acc, missing):
        lab = np.where(gen.random(n) < acc, truth, gen.integers(0, 3, n)).astype(float)
        lab[gen.random(n) < missing] = np.nan
        return lab

    humans = np.column_stack([rater(0.85, 0.1), rater(0.8, 0.2), rater(0.75, 0.0)])
    return humans, rater(0.7, 0.05)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_pair_matches_an_item_by_item_count(seed):
    humans, judge = _data(seed)
    res = judge_agreement(Ratings.from_matrix(humans, raters=["a", "b", "c"], judge=judge))
    assert isinstance(res, JudgeAgreement) and res.judge == "judge"
    for i, name in enumerate("abc"):
        both = ~np.isnan(humans[:, i]) & ~np.isnan(judge)
        po, kappa = cohen_by_items(list(judge[both]), list(humans[both, i]))
        row = res.rater(name)
        assert row.n_items == both.sum()
        assert row.percent == pytest.approx(po, abs=1e-12)
        assert row.kappa == pytest.approx(kappa, abs=1e-12)
        exact = binomtest(round(po * both.sum()), int(both.sum())).proportion_ci(0.95, "exact")
        assert (row.percent_ci.low, row.percent_ci.high) == (
            pytest.approx(exact.low, abs=1e-9), pytest.approx(exact.high, abs=1e-9))  # fmt: skip
        _, low, high = coefficient_bounds(row.table, "kappa", 0.95)
        assert (row.kappa_ci.low, row.kappa_ci.high) == (pytest.approx(low), pytest.approx(high))
        assert row.kappa_ci.method == "delta-atanh" and row.percent_ci.method == "clopper-pearson"
    assert [(p.first, p.second) for p in res.between_raters] == [("a", "b"), ("a", "c"),
                                                                  ("b", "c")]  # fmt: skip
    both = ~np.isnan(humans[:, 0]) & ~np.isnan(humans[:, 1])
    po, kappa = cohen_by_items(list(humans[both, 0]), list(humans[both, 1]))
    assert res.between_raters[0].kappa == pytest.approx(kappa, abs=1e-12)


def test_majority_row_uses_the_tie_rule():
    humans = np.array([[1, 1], [0, 0], [1, 0], [0, 1]] * 10, dtype=float)
    judge = np.array([1, 0, 1, 1] * 10, dtype=float)
    r = Ratings.from_matrix(humans, raters=["a1", "a2"], judge=judge)
    none = judge_agreement(r)
    assert none.unresolved == 20 and none.with_majority.n_items == 20  # the ties left out
    assert none.with_majority.percent == 1.0
    adjudicated = judge_agreement(r, ties="a1")  # a1 settles: majority = a1's label
    assert adjudicated.with_majority.percent == adjudicated.rater("a1").percent == 0.75
    assert adjudicated.ties == "a1" and adjudicated.unresolved == 0
    assert "majority ties: 'a1'" in adjudicated.summary()


def test_small_margins_hide_the_kappa_interval_and_say_why():
    r = Ratings.from_matrix([[1, 1], [1, 1], [0, 1], [1, 1]], judge=[1, 1, 0, 1])
    row = judge_agreement(r).rater(0)
    assert row.kappa_ci is None and "kappa interval not shown" in row.note


def test_refusals():
    r = Ratings.from_matrix([[1, 1], [0, 1]])
    with pytest.raises(RatingsError, match="no judge"):
        judge_agreement(r)
    assert judge_agreement(r, judge=0).judge == 0  # a rater named as the judge
    with pytest.raises(RatingsError, match="no rater 'x'"):
        judge_agreement(r, judge=0).rater("x")


def test_pandalm_annotators_match_the_published_kappas():
    """PandaLM (Wang et al., ICLR 2024; the repository's README): Cohen's κ between its three
    annotators 0.85, 0.88, 0.86 (two decimals), on benchmarks/data/pandalm_raters.csv.xz."""
    from pathlib import Path

    import pandas as pd

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "pandalm_raters.csv.xz"
    data = pd.read_csv(path)
    r = Ratings.from_wide(data, raters=["human_annotator1", "human_annotator2",
                                        "human_annotator3"], judge="judge_gpt35")  # fmt: skip
    res = judge_agreement(r)
    kappas = [p.kappa for p in res.between_raters]
    np.testing.assert_allclose(kappas, [0.85, 0.88, 0.86], atol=0.005)
    assert res.rater("human_annotator1").n_items == 974  # 25 unparsable gpt-3.5 verdicts
