"""Fast-tier coverage of the interval methods by seeded simulation (full tier: benchmarks/).

The paper's Monte Carlo setting (q0 = .7, q1 = .9, n = 1000, m0 = m1 = 100): the adjusted-Wald
interval should cover close to 95% across theta (paper Figure 5(b)). With R = 4000
replications the Monte Carlo standard error of a coverage near .95 is sqrt(.95*.05/4000) = .0034;
we accept [.935, .975] (about 4.5 s.e. below and the method's known mild over-coverage above).
"""

import numpy as np
import pytest

import judgestats as js
from judgestats.intervals import compute_bounds


def simulate(rng, theta, q0, q1, n, m0, m1, reps):
    p = q1 * theta + (1 - q0) * (1 - theta)
    tp = rng.binomial(m1, q1, reps)
    tn = rng.binomial(m0, q0, reps)
    test = js.JudgedCounts(positive=rng.binomial(n, p, reps), n=n)
    cal = js.ConfusionCounts(tp=tp, fn=m1 - tp, tn=tn, fp=m0 - tn)
    return test, cal


@pytest.mark.parametrize("theta", [0.1, 0.3, 0.5, 0.7, 0.9])
def test_adjusted_wald_coverage_paper_setting(rng, theta):
    test, cal = simulate(rng, theta, 0.7, 0.9, 1000, 100, 100, 4000)
    b = compute_bounds(test, cal, method="adjusted-wald", confidence_level=0.95)
    assert not np.isnan(b.low).any()
    cover = np.mean((b.low <= theta) & (theta <= b.high))
    assert 0.935 <= cover <= 0.975, cover


def test_naive_interval_fails_where_adjusted_wald_holds(rng):
    """At theta = .1 the judge's p = .28: the naive Wald interval for p never contains theta."""
    theta = 0.1
    test, cal = simulate(rng, theta, 0.7, 0.9, 1000, 100, 100, 2000)
    p = test.p_hat
    half = 1.959964 * np.sqrt(p * (1 - p) / 1000)
    naive_cover = np.mean((p - half <= theta) & (theta <= p + half))
    b = compute_bounds(test, cal, method="adjusted-wald", confidence_level=0.95)
    assert naive_cover < 0.01
    assert np.mean((b.low <= theta) & (theta <= b.high)) > 0.93


def test_wald_undercovers_relative_to_adjusted_for_small_m(rng):
    """Small calibration set (m0 = m1 = 20), theta near 0: plain Wald under-covers."""
    theta = 0.05
    test, cal = simulate(rng, theta, 0.85, 0.85, 1000, 20, 20, 4000)
    aw = compute_bounds(test, cal, method="adjusted-wald", confidence_level=0.95)
    wd = compute_bounds(test, cal, method="wald", confidence_level=0.95)
    ok = ~np.isnan(wd.low)
    c_aw = np.mean((aw.low[ok] <= theta) & (theta <= aw.high[ok]))
    c_wd = np.mean((wd.low[ok] <= theta) & (theta <= wd.high[ok]))
    assert c_wd < 0.93 < c_aw
