"""The "profile-map" method: posterior mode + small-calibration profile-likelihood interval."""

import numpy as np
import pytest

import judgestats as js
from judgestats.intervals import compute_bounds
from judgestats.posterior import theta_posterior
from judgestats.profile_map import profile_map_bounds
from judgestats.simulate import draw


def test_estimate_is_the_marginal_posterior_mode_and_the_interval_contains_it(rng):
    d = draw(theta=0.3, q0=0.6, q1=0.65, n=800, m0=8, m1=12, reps=300, rng=rng)
    b = compute_bounds(d.test, d.calibration, method="profile-map", confidence_level=0.95)
    t = compute_bounds(d.test, d.calibration, method="profile-likelihood-t", confidence_level=0.95)
    mode = theta_posterior(d.test, d.calibration).mode()
    np.testing.assert_allclose(b.estimate, mode, rtol=0, atol=0)
    assert np.all(b.low <= b.estimate) and np.all(b.estimate <= b.high)
    # the t-cut profile interval, widened only where the mode lies outside it
    assert np.all(b.low <= t.low) and np.all(b.high >= t.high)
    widened = (b.low < t.low) | (b.high > t.high)
    outside = (mode < t.low) | (mode > t.high)
    np.testing.assert_array_equal(widened, outside)
    assert np.all(np.isfinite(b.low) & np.isfinite(b.high))  # never undefined
    assert np.all((0 <= b.low) & (b.high <= 1))


def test_answers_when_the_judge_looks_no_better_than_chance():
    test = js.JudgedCounts(positive=400, n=1000)
    cal = js.ConfusionCounts(tp=5, fn=5, tn=5, fp=5)  # q̂0 + q̂1 = 1
    res = js.correct(test, cal, method="profile-map")
    assert res.method == "profile-map" and res.confidence_level == 0.95
    assert 0 <= res.ci.low <= res.estimate <= res.ci.high <= 1
    assert res.estimate == pytest.approx(float(theta_posterior(test, cal).mode()), abs=1e-12)


def test_single_data_set_equals_the_batch(rng):
    d = draw(theta=0.7, q0=0.8, q1=0.75, n=500, m0=15, m1=15, reps=5, rng=rng)
    low, high, mode = profile_map_bounds(d.test, d.calibration, 0.9)
    for i in range(5):
        one = js.correct(
            js.JudgedCounts(int(d.test.positive[i]), 500),
            js.ConfusionCounts(
                tp=int(d.calibration.tp[i]),
                fn=int(d.calibration.fn[i]),
                tn=int(d.calibration.tn[i]),
                fp=int(d.calibration.fp[i]),
            ),
            method="profile-map",
            confidence_level=0.9,
        )
        assert (one.ci.low, one.ci.high, one.estimate) == pytest.approx(
            (low[i], high[i], mode[i]), abs=1e-9
        )


def test_coverage_in_a_weak_small_cell_is_at_least_the_profile_t_coverage():
    # q0 = q1 = 0.6 (q0 + q1 = 1.2), 20 items per class, θ = 0.2: fast tier of the
    # weak-judge study; 1,000 reps (s.e. ≈ 0.007 near 0.95)
    gen = np.random.default_rng(7)
    d = draw(theta=0.2, q0=0.6, q1=0.6, n=1000, m0=20, m1=20, reps=1000, rng=gen)
    cover = {}
    for method in ("profile-likelihood-t", "profile-map"):
        b = compute_bounds(d.test, d.calibration, method=method, confidence_level=0.95)
        cover[method] = float(np.mean((b.low <= 0.2) & (0.2 <= b.high)))
    assert cover["profile-map"] >= cover["profile-likelihood-t"]
    assert cover["profile-map"] >= 0.93
