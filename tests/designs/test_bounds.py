"""Interval bounds of the judge-conditional estimator (judgestats.designs.bounds): widths, every
method, coverage by seeded simulation (binary, strata, k categories); the full tier is
benchmarks/bench_designs.py.
"""

import warnings

import numpy as np
import pytest

import judgestats as js
from judgestats.intervals import compute_bounds
from tests.designs.test_estimator import CAL, TEST


def _draw_random(theta, q0, q1, n, m, reps, rng):
    """Random design: every item's (human, judge) pair from the same population."""
    pi = theta * q1 + (1 - theta) * (1 - q0)
    x = rng.binomial(n, pi, reps)
    cells = rng.multinomial(m, [theta * q1, theta * (1 - q1), (1 - theta) * (1 - q0),
                                (1 - theta) * q0], reps)
    tp, fn, fp, tn = cells.T
    return js.JudgedCounts(x, n), js.ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp)


def _draw_by_judge(theta, q0, q1, n, k1, k0, reps, rng):
    """By-judge-label design: k1 judge-1 and k0 judge-0 items, human labels drawn given those."""
    pi = theta * q1 + (1 - theta) * (1 - q0)
    ppv, for_ = theta * q1 / pi, theta * (1 - q1) / (1 - pi)
    x = rng.binomial(n, pi, reps)
    tp, fn = rng.binomial(k1, ppv, reps), rng.binomial(k0, for_, reps)
    return js.JudgedCounts(x, n), js.ConfusionCounts(tp=tp, fn=fn, tn=k0 - fn, fp=k1 - tp)


# ----------------------------------------------------------------------------- intervals
def test_random_design_is_shorter_than_the_papers_interval_and_the_human_labels_alone():
    paper = js.correct(TEST, CAL)
    rnd = js.correct(TEST, CAL, design="random")
    lo, hi = js.kernels.wilson_bounds(CAL.m1, CAL.m, 1.959963984540054)
    assert rnd.ci.width < 0.65 * paper.ci.width  # 0.089 vs 0.151 here
    assert rnd.ci.width < 0.9 * (hi - lo)  # human labels only: Wilson 0.105
    assert rnd.design == "random" and paper.design == "by-human-label"
    assert rnd.estimator.startswith("judge-conditional")


@pytest.mark.parametrize("design", ["random", "by-judge-label"])
@pytest.mark.parametrize("method", ["adjusted-wald", "wald", "bootstrap", "bayes"])
def test_every_design_method_answers_and_contains_its_estimate(design, method):
    res = js.correct(TEST, CAL, design=design, method=method, rng=1)
    assert 0 <= res.ci.low <= res.estimate <= res.ci.high <= 1
    assert res.design == design and res.method == method
    assert res.ci.width == pytest.approx(0.09, abs=0.015)  # delta-method width 0.089


def _cover(d, theta, method, design, **kw):
    b = compute_bounds(d[0], d[1], method=method, confidence_level=0.95, design=design, **kw)
    return np.mean((b.low <= theta) & (theta <= b.high))


@pytest.mark.parametrize(
    "theta, q0, q1, n, m",
    [  # a grid corner each (bench_designs.py has the full grid) and cells drawn at random
        (0.02, 0.99, 0.99, 100_000, 20),
        (0.5, 0.99, 0.6, 100_000, 20),
        (0.9, 0.55, 0.55, 200, 50),
        (0.3, 0.8, 0.9, 5000, 200),
        *[
            (round(t, 3), round(s - q, 3), round(q, 3), int(n), int(m))
            for t, s, q, n, m in zip(
                *np.random.default_rng(17).uniform(
                    [0.02, 1.1, 0.55, 200, 20], [0.98, 1.9, 0.95, 20_000, 1000], (3, 5)
                ).T,
                strict=True,
            )
            if s - q < 1
        ],
    ],
)
def test_random_design_adjusted_wald_covers(theta, q0, q1, n, m):
    # 2,000 data sets: Monte Carlo s.e. ≈ 0.005 at 0.95; the bar is 0.93 per cell
    d = _draw_random(theta, q0, q1, n, m, 2000, np.random.default_rng(5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert _cover(d, theta, "adjusted-wald", "random") >= 0.925


@pytest.mark.parametrize(
    "theta, q0, q1, n, k1, k0",
    [(0.02, 0.99, 0.6, 100_000, 40, 10), (0.5, 0.6, 0.99, 100_000, 25, 25),
     (0.7, 0.9, 0.8, 1000, 100, 100), (0.1, 0.95, 0.95, 500, 10, 40)],
)  # fmt: skip
def test_by_judge_label_adjusted_wald_covers(theta, q0, q1, n, k1, k0):
    d = _draw_by_judge(theta, q0, q1, n, k1, k0, 2000, np.random.default_rng(6))
    assert _cover(d, theta, "adjusted-wald", "by-judge-label") >= 0.925


@pytest.mark.parametrize(
    "theta, q0, q1, n, m", [(0.3, 0.7, 0.9, 2000, 60), (0.98, 0.8, 0.8, 10_000, 20)]
)
def test_bayes_covers_in_the_random_design(theta, q0, q1, n, m):
    # 300 data sets (the quadrature takes ~3 ms each): s.e. ≈ 0.013. The second cell is where
    # flat priors covered 0.66 (bench_designs.py): Jeffreys' priors, the default, 0.93
    d = _draw_random(theta, q0, q1, n, m, 300, np.random.default_rng(8))
    assert _cover(d, theta, "bayes", "random") >= 0.9


# ----------------------------------------------------------------------------- strata
def test_stratified_design_pools_the_strata_by_the_judged_items_mix():
    tests = {"short": js.JudgedCounts(180, 300), "long": js.JudgedCounts(560, 700)}
    cals = {"short": js.ConfusionCounts(tp=26, fn=4, tn=15, fp=5),
            "long": js.ConfusionCounts(tp=57, fn=3, tn=8, fp=2)}  # fmt: skip
    res = js.correct_stratified(tests, cals, design="random")
    # transcription: per stratum the pseudo-count parts, weights (n_s + m_s)/N, mix term
    z = 1.959963984540054
    th, var, est, size = [], [], [], []
    for s in ("short", "long"):
        t, c = tests[s], cals[s]
        x, n = t.positive + c.tp + c.fp, t.n + c.m
        k1, k0 = c.tp + c.fp, c.fn + c.tn
        p, a, b = (x + z * z / 2) / (n + z * z), (c.tp + 1) / (k1 + 2), (c.fn + 1) / (k0 + 2)
        th.append(p * a + (1 - p) * b)
        var.append((a - b) ** 2 * p * (1 - p) / (n + z * z) + p**2 * a * (1 - a) / (k1 + 2)
                   + (1 - p) ** 2 * b * (1 - b) / (k0 + 2))  # fmt: skip
        est.append(js.correct(t, c, design="random").estimate)
        size.append(n)
    w = np.array(size) / sum(size)
    th, var = np.array(th), np.array(var)
    mix = np.sum(w * (th - w @ th) ** 2) / sum(size)
    half = z * np.sqrt(np.sum(w**2 * var) + mix)
    assert res.estimate == pytest.approx(w @ np.array(est), rel=1e-12)
    assert (res.ci.low, res.ci.high) == pytest.approx((w @ th - half, w @ th + half), rel=1e-12)
    assert res.design == "random" and res["long"].design == "random"
    one = js.correct_stratified({"a": tests["short"]}, {"a": cals["short"]}, design="random")
    assert one.ci.low == pytest.approx(js.correct(tests["short"], cals["short"],
                                                  design="random").ci.low)  # fmt: skip
    with pytest.raises(js.JudgeStatsError, match="merge='auto'"):
        js.correct_stratified(tests, cals, design="random", merge="auto")
    with pytest.raises(js.errors.MethodError, match="not available for stratified corrections with"):
        js.correct_stratified(tests, cals, design="random", method="bootstrap")


def test_stratified_random_design_covers_when_the_judge_differs_by_stratum():
    # two strata: the judge is strict on one and lenient on the other; a random calibration
    # sample of the population; 1,000 data sets (MC s.e. ≈ 0.007)
    rng = np.random.default_rng(21)
    hit, reps = 0, 1000
    strata = [(0.6, 0.3, 0.95, 0.7), (0.4, 0.8, 0.7, 0.9)]  # (share, θ_s, q0_s, q1_s)
    theta = sum(w * t for w, t, _, _ in strata)
    for _ in range(reps):
        tests, cals = {}, {}
        for i, (share, t, q0, q1) in enumerate(strata):
            n, m = rng.binomial(3000, share), rng.binomial(150, share)
            (test,), (cal,) = (
                [js.JudgedCounts(rng.binomial(n, t * q1 + (1 - t) * (1 - q0)), n)],
                [js.ConfusionCounts(*rng.multinomial(
                    m, [t * q1, t * (1 - q1), (1 - t) * q0, (1 - t) * (1 - q0)]))],
            )  # fmt: skip
            tests[i], cals[i] = test, cal
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = js.correct_stratified(tests, cals, design="random")
        hit += r.ci.low <= theta <= r.ci.high
    assert hit / reps >= 0.93


def test_k_category_random_design_covers():
    # K = 3, random calibration samples of 150 from the population; 1,000 data sets
    rng = np.random.default_rng(33)
    theta = np.array([0.5, 0.3, 0.2])
    conf = np.array([[0.8, 0.15, 0.05], [0.2, 0.7, 0.1], [0.05, 0.15, 0.8]])  # P(judge|human)
    joint = theta[:, None] * conf  # (human, judge)
    pi = joint.sum(axis=0)
    from judgestats.multiclass import CategoryCounts, ConfusionMatrix

    hits = np.zeros(3)
    for _ in range(1000):
        t = CategoryCounts(rng.multinomial(2000, pi), labels=[0, 1, 2])
        cells = rng.multinomial(150, joint.ravel()).reshape(3, 3)  # (human, judge)
        with warnings.catch_warnings():  # the design check's 1% false alarms at α = 0.01
            warnings.simplefilter("ignore", js.DesignWarning)
            res = js.correct_distribution(t, ConfusionMatrix(cells.T, labels=[0, 1, 2]),
                                          design="random")  # fmt: skip
        hits += [res.ci[k].low <= theta[k] <= res.ci[k].high for k in range(3)]
    assert (hits / 1000 >= 0.93).all(), hits / 1000
