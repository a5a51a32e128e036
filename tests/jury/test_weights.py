"""The jury's kernel: the members' joint covariance, the minimum-variance weights, the interval.

References are independent computations in the tests: each member's adjusted-Wald variance
from the public ``js.adjusted_wald_interval`` (paper eq. (8)), the members' covariance from a
seeded Monte Carlo of their Rogan–Gladen estimates, weights in closed form for two members.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

import judgestats as js
from judgestats.jury.weights import (
    MIN_PER_CLASS,
    jury_bounds,
    letter_bits,
    member_moments,
    min_variance_weights,
)

Z = float(norm.ppf(0.975))


def letter_probs(sens, spec, rho, gen, draws=50_000):
    """P(letter | human 0), P(letter | human 1): errors correlated through a shared latent."""
    judges = len(sens)
    lat = np.sqrt(rho) * gen.standard_normal((draws, 1)) + np.sqrt(1 - rho) * gen.standard_normal(
        (draws, judges)
    )
    out = []
    for acc, human in ((np.asarray(spec), 0), (np.asarray(sens), 1)):
        right = lat < norm.ppf(acc)
        verdict = right if human == 1 else ~right
        out.append(np.bincount(verdict.astype(int) @ (2 ** np.arange(judges - 1, -1, -1)),
                               minlength=2**judges) / draws)  # fmt: skip
    return out


def draw(gen, p0, p1, theta, n, m0, m1, size):
    test = gen.multinomial(n, theta * p1 + (1 - theta) * p0, size=size)
    cal = np.stack([gen.multinomial(m0, p0, size=size), gen.multinomial(m1, p1, size=size)], -1)
    return test, cal


TEST = np.array([380, 70, 90, 460])  # letters 0|0, 0|1, 1|0, 1|1
CAL = np.array([[70, 4], [12, 6], [10, 8], [8, 82]])  # letters × human 0, 1


def test_letter_bits_are_numpy_ravel_order():
    bits = letter_bits(3)
    assert bits.shape == (8, 3)
    assert np.ravel_multi_index(bits.T, (2, 2, 2)).tolist() == list(range(8))


def test_each_member_variance_is_its_adjusted_wald_variance():
    # eq. (8) by the public function on each member's margins (an independent path)
    mm = member_moments(TEST, CAL, Z)
    margins = [((90 + 460) / 1000, (70 + 12) / 100, (8 + 82) / 100),  # judge 1: letters 1|·
               ((70 + 460) / 1000, (70 + 10) / 100, (6 + 82) / 100)]  # judge 2: letters ·|1
    for j, (p, q0, q1) in enumerate(margins):
        low, high = js.adjusted_wald_interval(p, q0, q1, 1000, 100, 100, confidence_level=0.95)
        assert 2 * Z * np.sqrt(mm["cov"][j, j]) == pytest.approx(high - low, rel=1e-9)
        assert (mm["p"][j], mm["q0"][j], mm["q1"][j]) == pytest.approx((p, q0, q1))


def test_covariance_matches_a_monte_carlo_of_the_members_estimates():
    # 20,000 seeded data sets of two correlated judges: the empirical covariance of their
    # Rogan–Gladen estimates against the delta method at the expected counts (z → 0: no
    # pseudo-counts); Monte Carlo s.e. of a variance about 1%, of the correlation about 0.005
    gen = np.random.default_rng(39)
    p0, p1 = letter_probs([0.85, 0.75], [0.8, 0.9], 0.4, gen)
    n, m0, m1, theta = 3000, 400, 400, 0.35
    test, cal = draw(gen, p0, p1, theta, n, m0, m1, 20_000)
    bits = letter_bits(2)
    p = test @ bits / n
    q1 = cal[..., 1] @ bits / m1
    q0 = 1 - cal[..., 0] @ bits / m0
    est = (p + q0 - 1) / (q0 + q1 - 1)
    empirical = np.cov(est.T)
    expected = member_moments(n * (theta * p1 + (1 - theta) * p0), np.stack([m0 * p0, m1 * p1], -1),
                              1e-9)["cov"]  # fmt: skip
    assert np.diag(empirical) == pytest.approx(np.diag(expected), rel=0.05)
    corr = lambda c: c[0, 1] / np.sqrt(c[0, 0] * c[1, 1])  # noqa: E731
    assert corr(empirical) == pytest.approx(corr(expected), abs=0.03)
    assert corr(expected) > 0.2  # the shared latent makes them covary


def test_weights_in_closed_form():
    # two members: w1 = (s2² − c)/(s1² + s2² − 2c)
    s1, s2, c = 1.0, 4.0, 0.5
    w = min_variance_weights(np.array([[s1, c], [c, s2]]))
    assert w.tolist() == pytest.approx([(s2 - c) / (s1 + s2 - 2 * c), (s1 - c) / (s1 + s2 - 2 * c)])
    # strongly correlated members of unequal variance: a negative weight unconstrained,
    # the better member alone on the simplex
    cov = np.array([[1.0, 1.8], [1.8, 4.0]])
    assert min_variance_weights(cov).tolist() == pytest.approx([2.2 / 1.4, -0.8 / 1.4])
    assert min_variance_weights(cov, nonnegative=True).tolist() == pytest.approx([1.0, 0.0])


def test_weights_of_identical_and_uninformative_members():
    same = min_variance_weights(np.full((2, 2), 0.3))  # singular: two identical judges
    assert same.tolist() == pytest.approx([0.5, 0.5])
    nan = min_variance_weights(np.array([[1.0, np.nan], [np.nan, np.nan]]))
    assert nan.tolist() == [1.0, 0.0]  # q̃0 + q̃1 <= 1 for the second: it carries nothing
    assert np.isnan(min_variance_weights(np.full((2, 2), np.nan))).all()


def test_never_wider_than_the_narrowest_member_before_truncation():
    gen = np.random.default_rng(7)
    p0, p1 = letter_probs([0.9, 0.7, 0.6], [0.7, 0.85, 0.65], 0.5, gen)
    test, cal = draw(gen, p0, p1, 0.5, 1500, 60, 80, 2000)
    b = jury_bounds(test, cal, Z)
    own = np.sqrt(np.diagonal(b["cov"], axis1=-2, axis2=-1))
    assert (b["se"] <= np.nanmin(own, axis=-1) * (1 + 1e-12)).all()
    assert b["weights"].sum(-1) == pytest.approx(np.ones(2000))
    assert (b["low"] <= b["high"]).all() and not b["fallback"].any()


def test_fallback_below_fifty_holds_the_better_member():
    gen = np.random.default_rng(8)
    p0, p1 = letter_probs([0.9, 0.7], [0.7, 0.85], 0.3, gen)
    test, cal = draw(gen, p0, p1, 0.4, 1000, MIN_PER_CLASS - 1, 200, 500)
    b = jury_bounds(test, cal, Z)
    rows = np.arange(500)
    assert b["fallback"].all()
    assert (b["low"] <= b["member_low"][rows, b["better"]] + 1e-12).all()
    assert (b["high"] >= b["member_high"][rows, b["better"]] - 1e-12).all()


CELLS = [  # (J, sens, spec, rho, theta, m0, m1, n): one grid cell, then cells drawn at random
    (2, (0.9, 0.75), (0.85, 0.8), 0.3, 0.2, 50, 50, 2000),
]
_gen = np.random.default_rng(2039)
for _ in range(3):
    _j = int(_gen.integers(2, 5))
    CELLS.append((_j, tuple(_gen.uniform(0.55, 0.98, _j)), tuple(_gen.uniform(0.55, 0.98, _j)),
                  float(_gen.uniform(0, 0.6)), float(_gen.uniform(0.05, 0.95)),
                  int(_gen.integers(50, 401)), int(_gen.integers(50, 401)),
                  int(_gen.integers(200, 5001))))  # fmt: skip


@pytest.mark.parametrize(("seed", "cell"), list(enumerate(CELLS)),
                         ids=[f"cell{i}" for i in range(len(CELLS))])  # fmt: skip
def test_coverage_fast_tier(seed, cell):
    # 600 data sets per cell (Monte Carlo s.e. 0.009): the full study's lowest cell with
    # >= 50 items per class is in benchmarks/results/jury.md; here >= 0.91 (0.93 − 2 s.e.)
    _, sens, spec, rho, theta, m0, m1, n = cell
    gen = np.random.default_rng(100 + seed)
    p0, p1 = letter_probs(sens, spec, rho, gen)
    test, cal = draw(gen, p0, p1, theta, n, m0, m1, 600)
    b = jury_bounds(test, cal, Z)
    assert np.mean((b["low"] <= theta) & (theta <= b["high"])) >= 0.91
    rows = np.arange(600)
    better = b["member_high"][rows, b["better"]] - b["member_low"][rows, b["better"]]
    assert np.mean(b["high"] - b["low"]) <= 1.02 * np.mean(better)


def test_asymptotically_the_oracle_minimum_variance():
    # at 10^6 items everywhere the estimated weights and variance are the oracle's
    gen = np.random.default_rng(11)
    p0, p1 = letter_probs([0.9, 0.7, 0.8], [0.75, 0.9, 0.7], 0.4, gen)
    test, cal = draw(gen, p0, p1, 0.3, 10**6, 10**6, 10**6, 1)
    b = jury_bounds(test, cal, Z)
    oracle = member_moments(10**6 * (0.3 * p1 + 0.7 * p0), np.stack([10**6 * p0, 10**6 * p1], -1),
                            Z)["cov"]  # fmt: skip
    w = min_variance_weights(oracle)
    assert b["weights"][0] == pytest.approx(w, abs=0.02)
    assert b["se"][0] == pytest.approx(np.sqrt(w @ oracle @ w), rel=0.01)
    assert b["se"][0] < np.sqrt(np.diag(oracle)).min()
