"""Does the judge help? Youden's J with its Agresti–Caffo interval, humans-only beside (issue 27 §2).

Reference values are independent computations in the tests (scipy's normal quantile, the
textbook formulas); coverage is measured by seeded simulation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import norm

import judgestats as js
from judgestats.chance import youden_interval

NEAR = js.ConfusionCounts(tp=55, fn=45, tn=56, fp=44)  # q̂1 = 0.55, q̂0 = 0.56, m = 100 each
GOOD = js.ConfusionCounts(tp=90, fn=10, tn=85, fp=15)  # q̂1 = 0.90, q̂0 = 0.85, m = 100 each


def _agresti_caffo(tn, m0, tp, m1, level):
    """J = q0 + q1 − 1 = q0 − (1 − q1): Agresti & Caffo (2000), one success and one failure added."""
    z = norm.ppf(0.5 + level / 2)
    a, b = (tn + 1) / (m0 + 2), (m1 - tp + 1) / (m1 + 2)  # specificity, false-negative rate
    half = z * math.sqrt(a * (1 - a) / (m0 + 2) + b * (1 - b) / (m1 + 2))
    return a - b - half, a - b + half


def _wilson(k, m, level):
    z = norm.ppf(0.5 + level / 2)
    centre = (k + z * z / 2) / (m + z * z)
    half = z / (m + z * z) * math.sqrt(k * (m - k) / m + z * z / 4)
    return centre - half, centre + half


@pytest.mark.parametrize("level", [0.9, 0.95])
def test_youden_interval_is_agresti_caffo(level):
    res = js.correct(js.JudgedCounts(500, 1000), NEAR, confidence_level=level)
    j = res.judge
    assert j.youden == pytest.approx(0.56 + 0.55 - 1, abs=1e-12)
    assert (j.youden_ci.low, j.youden_ci.high) == pytest.approx(
        _agresti_caffo(56, 100, 55, 100, level), abs=1e-12
    )
    assert j.youden_ci.method == "agresti-caffo" and j.confidence_level == level


def test_near_chance_judge_is_said_plainly():
    # the Youden interval [-0.029, 0.244] reaches 0: too close to chance to help
    res = js.correct(js.JudgedCounts(500, 1000), NEAR)
    assert res.judge.near_chance and res.judge.helps is False
    assert "too close to chance to help" in res.summary()
    assert res.to_dict()["judge_near_chance"] is True
    assert res.to_dict()["humans_only"] is None  # the paper's design: no humans-only estimate
    report = res.report()
    assert "too close to chance to help" in report


def test_informative_judge_says_nothing():
    res = js.correct(js.JudgedCounts(500, 1000), GOOD)
    low, _ = _agresti_caffo(85, 100, 90, 100, 0.95)
    assert res.judge.youden_ci.low == pytest.approx(low, abs=1e-12) and low > 0
    assert not res.judge.near_chance and res.judge.helps is True
    assert "chance to help" not in res.summary()
    assert res.judge.sentence() is None


def test_random_design_gives_humans_only_beside():
    res = js.correct(js.JudgedCounts(500, 1000), GOOD, design="random")
    h = res.judge.humans_only
    assert (h.low, h.high) == pytest.approx(_wilson(100, 200, 0.95), abs=1e-12)
    assert res.judge.humans_only_estimate == 0.5 and h.method == "wilson"
    # an accurate judge shortens the interval: it helps, and the summary shows both
    assert res.ci.high - res.ci.low < 0.8 * (h.high - h.low)
    assert res.judge.helps is True
    assert "humans only (Wilson)" in res.summary()


def test_random_design_near_chance_points_to_humans_only():
    res = js.correct(js.JudgedCounts(50, 100), NEAR, design="random")
    assert res.judge.near_chance and res.judge.helps is False
    text = res.judge.sentence()
    low, high = _wilson(100, 200, 0.95)
    assert "humans-only interval" in text and f"[{low:.4f}, {high:.4f}]" in text


def test_no_verdict_where_it_does_not_apply():
    res = js.correct(js.JudgedCounts(500, 1000), GOOD, design="by-judge-label")
    assert res.judge.helps is None and res.judge.youden is None and res.judge.humans_only is None
    ids = np.repeat(np.arange(300), 2)
    human = np.repeat(np.arange(300) % 2, 2)
    judge = np.where(np.arange(600) % 10 == 0, 1 - human, human)  # one row in ten flipped
    clustered = js.correct(
        js.JudgedCounts.from_labels(judge, cluster=ids),
        js.ConfusionCounts.from_labels(human=human, judge=judge, cluster=ids),
        method="wald",
    )
    # repeated items (issue 38): assessed at the effective sizes (rows over the design effect,
    # never more than the rows; here every item's two rows are in test and calibration alike)
    k = clustered.clusters
    m0, m1 = k.sizes["q0"], k.sizes["q1"]
    assert (m0, m1) == (300, 300) and clustered.judge.effective
    q0, q1 = k.values["q0"], k.values["q1"]
    low, high = _agresti_caffo(q0 * m0, m0, q1 * m1, m1, 0.95)
    assert (clustered.judge.youden_ci.low, clustered.judge.youden_ci.high) == pytest.approx(
        (low, high), abs=1e-12
    )
    assert "(effective sizes)" in clustered.summary()


def test_youden_interval_covers_on_random_cells():
    """Agresti–Caffo coverage of J on 40 random cells, 2,000 data sets each (s.e. ≈ 0.005).

    Grid (seed 27): q0, q1 ~ U(0.5, 0.99), m0, m1 log-uniform on [10, 500]. Agresti & Caffo
    report coverage near nominal down to 10 items per group; we require >= 0.93 everywhere.
    """
    gen = np.random.default_rng(27)
    worst = 1.0
    for _ in range(40):
        q0, q1 = gen.uniform(0.5, 0.99, size=2)
        m0, m1 = np.exp(gen.uniform(np.log(10), np.log(500), size=2)).astype(int)
        tn, tp = gen.binomial(m0, q0, 2000), gen.binomial(m1, q1, 2000)
        cal = js.ConfusionCounts(tp=tp, fn=m1 - tp, tn=tn, fp=m0 - tn)
        _, low, high = youden_interval(cal, 0.95)
        truth = q0 + q1 - 1
        worst = min(worst, float(np.mean((low <= truth) & (truth <= high))))
    assert worst >= 0.93, worst
