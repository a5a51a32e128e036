"""The alternative annotator test (raters/alternative.py; Calderon, Reichart & Dror, ACL 2025).

References: the leave-one-out advantage indicators counted item by item in the test, the
p-values against scipy's ``ttest_1samp(d, ε, alternative="less")`` (an independent
implementation of the one-sided t-test), the Benjamini–Yekutieli step-up rule written from
its definition (Benjamini & Yekutieli 2001, Theorem 1.3: reject the k* smallest p-values,
k* = max{k : p_(k) <= k α / (m Σ_{i<=m} 1/i)}). Simulations (seeded): a judge exchangeable
with the raters, with ε = 0 (H0 true at its boundary: ω must stay near or below α) and
ε = 0.2 (ω near 1), and a clearly worse judge (ω = 0).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import ttest_1samp

from judgestats.errors import RatingsError, TooFewSharedItemsError
from judgestats.raters import AltTestResult, Ratings, alt_test
from judgestats.raters.alternative import MIN_ITEMS, benjamini_yekutieli


def _panel(gen, n, raters, rater_acc, judge_acc, k=2, missing=0.0):
    truth = gen.integers(0, k, n)

    def label(acc):
        wrong = (truth + gen.integers(1, k, n)) % k
        out = np.where(gen.random(n) < acc, truth, wrong).astype(float)
        out[gen.random(n) < missing] = np.nan
        return out

    humans = np.column_stack([label(rater_acc) for _ in range(raters)])
    humans[np.isnan(humans).all(axis=1), 0] = truth[np.isnan(humans).all(axis=1)]
    return Ratings.from_matrix(humans, judge=label(judge_acc))


def wins_by_items(humans: np.ndarray, judge: np.ndarray, j: int) -> tuple[list, list]:
    """W^f and W^h of rater j, item by item (accuracy against the other raters)."""
    wf, wh = [], []
    for i in range(humans.shape[0]):
        others = [humans[i, k] for k in range(humans.shape[1]) if k != j and humans[i, k] >= 0]
        if humans[i, j] < 0 or judge[i] < 0 or not others:
            continue
        s_f = np.mean([judge[i] == o for o in others])
        s_h = np.mean([humans[i, j] == o for o in others])
        wf.append(float(s_f >= s_h))
        wh.append(float(s_h >= s_f))
    return wf, wh


def by_reference(p: np.ndarray, alpha: float) -> np.ndarray:
    m = p.size
    c = sum(1 / i for i in range(1, m + 1))
    order = np.argsort(p)
    ok = [k for k in range(1, m + 1) if p[order[k - 1]] <= k * alpha / (m * c)]
    rejected = np.zeros(m, bool)
    rejected[order[: max(ok, default=0)]] = True
    return rejected


@pytest.mark.parametrize("seed", range(4))
def test_statistics_match_an_item_by_item_count_and_scipy(seed):
    gen = np.random.default_rng(seed)
    r = _panel(gen, 80, int(gen.integers(3, 6)), 0.8, 0.75, k=3, missing=0.2)
    eps = float(gen.choice([0.0, 0.1, 0.15, 0.2]))
    res = alt_test(r, epsilon=eps, alpha=0.05)
    assert isinstance(res, AltTestResult) and res.epsilon == eps and res.alpha == 0.05
    for j in range(r.n_raters):
        wf, wh = wins_by_items(r.codes, r.judge_codes, j)
        assert res.n_items[j] == len(wf)
        assert res.judge_advantage[j] == pytest.approx(np.mean(wf))
        assert res.rater_advantage[j] == pytest.approx(np.mean(wh))
        d = np.array(wh) - np.array(wf)
        expected = ttest_1samp(d, eps, alternative="less").pvalue
        assert res.pvalues[j] == pytest.approx(expected, rel=1e-9)
    np.testing.assert_array_equal(res.rejected, by_reference(res.pvalues, 0.05))
    assert res.winning_rate == pytest.approx(res.rejected.mean())
    assert res.passed == (res.winning_rate >= 0.5)
    assert res.advantage_probability == pytest.approx(res.judge_advantage.mean())


def test_benjamini_yekutieli_against_the_step_up_rule():
    gen = np.random.default_rng(11)
    for _ in range(200):
        p = gen.random(int(gen.integers(1, 9))) ** 3
        np.testing.assert_array_equal(benjamini_yekutieli(p) <= 0.05, by_reference(p, 0.05))


def test_simulated_exchangeable_and_worse_judges():
    """Cells (seeded): 3 raters of accuracy 0.85, binary labels, 150 items, 40 data sets each."""
    gen = np.random.default_rng(2025)
    cells = {
        ("as good", 0.0): (0.85, []), ("as good", 0.2): (0.85, []), ("worse", 0.1): (0.6, []),
    }  # fmt: skip
    for (_, eps), (acc, out) in cells.items():
        for _ in range(40):
            out.append(alt_test(_panel(gen, 150, 3, 0.85, acc), epsilon=eps).winning_rate)
    # H0 at its boundary (ε = 0): ω near 0 (0.008 in 200 data sets, benchmarks/)
    assert np.mean(cells["as good", 0.0][1]) <= 0.05
    # ε = 0.2 grants the tie: ω near 1 (1.000 in 200 data sets; ε = 0.1 needs more items:
    # 0.78 at 150 items, 0.97 at 300, benchmarks/results/raters_agreement.md)
    assert np.mean(cells["as good", 0.2][1]) >= 0.95
    assert max(cells["worse", 0.1][1]) == 0.0  # a clearly worse judge never wins


def test_two_raters_are_allowed_with_a_note():
    res = alt_test(_panel(np.random.default_rng(3), 60, 2, 0.9, 0.9), epsilon=0.2)
    assert res.winning_rate in (0.0, 0.5, 1.0) and "only 2 human raters" in res.notes[0]
    assert "left out 0" in res.summary() and "note: only 2" in res.summary()


def test_too_few_shared_items_is_refused_by_name():
    r = _panel(np.random.default_rng(4), MIN_ITEMS + 5, 3, 0.9, 0.9)
    codes = r.codes.copy()
    codes[10:, 2] = -1  # rater 2 labels only 10 items
    short = Ratings(codes, r.items, r.raters, r.categories, judge="judge",
                    judge_codes=r.judge_codes.copy())  # fmt: skip
    with pytest.raises(TooFewSharedItemsError, match=r"at least 30 items per rater.*2 \(10 items\)"):
        alt_test(short)
    with pytest.raises(RatingsError, match="at least 2 human raters"):
        alt_test(Ratings.from_matrix(np.ones((40, 1)), judge=np.ones(40)))
    with pytest.raises(RatingsError, match="no judge"):
        alt_test(Ratings.from_matrix(np.ones((40, 2))))
    with pytest.raises(Exception, match="epsilon"):
        alt_test(r, epsilon=1.5)
