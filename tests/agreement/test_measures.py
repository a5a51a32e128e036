"""js.agreement's measures (agreement/measures.py): what the card says the labels buy."""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy.stats import norm

import judgestats as js


def _repeated(once_human: np.ndarray, once_judge: np.ndarray, epochs: int) -> tuple:
    """Every item judged ``epochs`` times with the same verdict: item ids, human, judge."""
    items = np.repeat(np.arange(once_human.size), epochs)
    return items, np.repeat(once_human, epochs), np.repeat(once_judge, epochs)


def _widths(buys: str) -> tuple[float, float]:
    """The two widths of the 'buys' sentence: the calibrated judge's, the humans' alone."""
    judge = float(re.search(r"interval (\d\.\d+) wide", buys).group(1))
    humans = float(re.search(r"alone(?: \([^)]*\))? give (\d\.\d+)", buys).group(1))
    return judge, humans


def _wilson_width(k: float, n: float, level: float = 0.95) -> float:
    """Wilson (1927) score interval's width, transcribed: 2 z √(p̂q̂/n + z²/4n²)/(1 + z²/n)."""
    z, p = norm.ppf(0.5 + level / 2), k / n
    return 2 * z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)


def test_buys_uses_effective_sizes_of_repeated_items():
    """Issue 38 tour: ``--cluster`` left the 'buys' sentence at the rows (0.042 for 2160 rows
    of 720 items × 3 epochs, as without it); it should say what the 720 items buy (~0.071).

    Every item repeated 3 times with one verdict: for a rate over the G items of one class,
    the sandwich variance r(1 − r)/(G − 1) over the binomial r(1 − r)/(3G − 1) is the design
    effect (3G − 1)/(G − 1), so the effective size is 3G(G − 1)/(3G − 1) (repeated.py's
    docstring); the widths at those sizes are plan.interval_width's and Wilson's.
    """
    rng = np.random.default_rng(38)
    human = (rng.random(720) < 0.47).astype(int)
    judge = np.where(rng.random(720) < np.where(human == 1, 0.9, 0.18), 1, 0)
    once = js.agreement(js.ConfusionCounts.from_labels(human=human, judge=judge))
    items, h3, j3 = _repeated(human, judge, 3)
    card = js.agreement(js.ConfusionCounts.from_labels(human=h3, judge=j3, cluster=items))
    g0, g1 = int((human == 0).sum()), int((human == 1).sum())
    m0, m1 = (3 * g * (g - 1) / (3 * g - 1) for g in (g0, g1))  # effective items per class
    q0, q1 = card.specificity.estimate, card.sensitivity.estimate
    expected = js.plan.interval_width(m0, m1, p=0.5 * q1 + 0.5 * (1 - q0), q0=q0, q1=q1)
    g = g0 + g1
    m = 3 * g * (g - 1) / (3 * g - 1)  # the human rate over all 720 items
    judge_w, humans_w = _widths(card.buys)
    assert judge_w == pytest.approx(expected, abs=5e-4)
    assert humans_w == pytest.approx(_wilson_width(0.5 * m, m), abs=5e-4)
    # and about what the 720 distinct items give, one row each
    once_judge, once_humans = _widths(once.buys)
    assert judge_w == pytest.approx(once_judge, abs=1.5e-3)
    assert humans_w == pytest.approx(once_humans, abs=1.5e-3)
    flat = js.agreement(js.ConfusionCounts.from_labels(human=h3, judge=j3))
    assert _widths(flat.buys)[0] < 0.6 * judge_w  # rows as items: ≈ 1/√3 as wide
    assert "2160 calibration rows" in card.buys or "720 items" in card.buys


def test_header_counts_items_not_rows_of_repeated_items():
    """The header said '2160 calibration items' for 720 items × 3 epochs."""
    human = np.array([0, 1] * 30)
    items, h3, j3 = _repeated(human, human, 3)
    card = js.agreement(js.ConfusionCounts.from_labels(human=h3, judge=j3, cluster=items))
    head = card.summary().splitlines()[0]
    assert "on 60 calibration items, 180 rows (design" in head
    assert "180 calibration items" not in head


def test_buys_sizes_are_the_corrections_effective_sizes():
    """Epochs whose verdicts vary independently within an item (the tour's rep_cal_uid.csv):
    q̂0, q̂1 keep about their rows (design effects ≈ 1, as ``js.correct`` finds from the same
    counts, repeated.cluster_summary), while the human labels alone are the items' only.
    """
    rng = np.random.default_rng(5)
    human = np.repeat((rng.random(300) < 0.5).astype(int), 3)
    judge = np.where(rng.random(human.size) < np.where(human == 1, 0.9, 0.2), 1, 0)
    cal = js.ConfusionCounts.from_labels(human=human, judge=judge,
                                         cluster=np.repeat(np.arange(300), 3))  # fmt: skip
    card = js.agreement(cal)
    test = js.JudgedCounts.from_labels(judge[:90], cluster=np.repeat(np.arange(30), 3))
    sizes = js.correct(test, cal, method="adjusted-wald").clusters.class_sizes
    said = re.search(r"effective m0 = (\d+), m1 = (\d+)", card.buys)
    assert (int(said[1]), int(said[2])) == tuple(round(s) for s in sizes)
    humans = float(re.search(r"alone \(effective (\d+)\)", card.buys).group(1))
    assert humans == pytest.approx(300 * 299 * 3 / (3 * 300 - 1), abs=0.5)  # deff (3G−1)/(G−1)


def test_pooled_card_asks_for_a_test_set_only_without_one():
    """Issue 38 tour: with a test set per stratum the pooled card still said 'pass test='."""
    cal = {"a": js.ConfusionCounts(tp=36, fn=4, tn=16, fp=4),
           "b": js.ConfusionCounts(tp=27, fn=3, tn=24, fp=6)}  # fmt: skip
    test = {"a": js.JudgedCounts(62, 100), "b": js.JudgedCounts(41, 100)}
    with_test = js.agreement(cal, test)
    assert not any("pass test=" in n for n in with_test.notes)
    assert with_test.strata["a"].ppv.source == "derived through θ̂"
    assert any("pass test=" in n for n in js.agreement(cal).notes)


def test_a_perfect_judge_on_identical_repeats_has_the_items_exact_interval():
    """Issue 38, third tour §5: 2 items per class × 3 identical epochs, perfect agreement. No
    rate's design effect is defined (every rate 0 or 1), so each item counts once (2 per
    class), an exact count with no sandwich variance estimated; the card showed
    '1.000 [0.000, 1.000]' (Student's t(1) level, ≈ 1). Clopper–Pearson of 2 of 2 at 95% is
    [0.025^(1/2), 1] = [0.1581, 1] (its lower bound (α/2)^(1/n) when x = n)."""
    items, h3, j3 = _repeated(np.array([0, 1, 0, 1]), np.array([0, 1, 0, 1]), 3)
    card = js.agreement(js.ConfusionCounts.from_labels(human=h3, judge=j3, cluster=items))
    for rate in (card.sensitivity, card.specificity):
        assert rate.estimate == 1.0
        assert (rate.ci.low, rate.ci.high) == pytest.approx((0.025 ** 0.5, 1.0), abs=1e-9)
