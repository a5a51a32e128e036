"""Profile-likelihood interval: checked against an independent scipy optimisation."""

import numpy as np
import pytest
from scipy.optimize import brentq, minimize, minimize_scalar
from scipy.stats import binom, chi2

import judgestats as js
from judgestats.intervals import compute_bounds
from judgestats.simulate import draw


def loglik(theta, q0, q1, x, n, tn, fp, tp, fn):
    pi = theta * q1 + (1 - theta) * (1 - q0)
    return binom.logpmf(x, n, pi) + binom.logpmf(tn, tn + fp, q0) + binom.logpmf(tp, tp + fn, q1)


def scipy_profile(theta, counts):
    """Maximise over (q0, q1) in logit space with Nelder-Mead from two starts."""
    _, _, tn, fp, tp, fn = counts
    lg = lambda k, m: np.log((k + 0.5) / (m - k + 0.5))  # noqa: E731
    best = -np.inf
    for s0, s1 in [(0.0, 0.0), (lg(tn, tn + fp), lg(tp, tp + fn))]:
        f = lambda u: -loglik(theta, 1 / (1 + np.exp(-u[0])), 1 / (1 + np.exp(-u[1])), *counts)  # noqa: E731
        r = minimize(
            f,
            [s0, s1],
            method="Nelder-Mead",
            options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 4000},
        )
        best = max(best, -r.fun)
    return best


def scipy_interval(counts, level=0.95):
    grid = np.linspace(0, 1, 26)
    prof = np.array([scipy_profile(t, counts) for t in grid])
    k = int(np.argmax(prof))
    bracket = (grid[max(k - 1, 0)], grid[min(k + 1, grid.size - 1)])
    opt = minimize_scalar(
        lambda t: -scipy_profile(t, counts),
        bounds=bracket,
        method="bounded",
        options={"xatol": 1e-8},
    )
    lmax = max(prof.max(), -opt.fun)
    cut = chi2.ppf(level, 1) / 2
    f = lambda t: lmax - scipy_profile(t, counts) - cut  # noqa: E731
    acc = np.flatnonzero(lmax - prof <= cut)
    i, j = acc[0], acc[-1]
    low = 0.0 if i == 0 else brentq(f, grid[i - 1], grid[i], xtol=1e-9)
    high = 1.0 if j == grid.size - 1 else brentq(f, grid[j], grid[j + 1], xtol=1e-9)
    return low, high


@pytest.mark.parametrize(
    "counts",
    [
        # x, n, tn, fp, tp, fn
        (600, 1000, 70, 30, 90, 10),
        (120, 500, 40, 10, 18, 2),  # theta near 0.15
        (30, 1000, 95, 5, 90, 10),  # RG < 0: boundary at 0
        (520, 1000, 12, 8, 13, 7),  # weak judge, small m
    ],
)
def test_profile_interval_matches_scipy(counts):
    x, n, tn, fp, tp, fn = counts
    res = js.correct(
        js.JudgedCounts(x, n),
        js.ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp),
        method="profile-likelihood",
    )
    low, high = scipy_interval(counts)
    assert res.ci.low == pytest.approx(low, abs=2e-4)
    assert res.ci.high == pytest.approx(high, abs=2e-4)
    assert res.ci.low <= res.estimate <= res.ci.high


def test_mle_is_clipped_rogan_gladen_when_defined():
    test = js.JudgedCounts(positive=np.array([100, 450, 700, 990]), n=1000)
    cal = js.ConfusionCounts(tp=85, fn=15, tn=80, fp=20)
    b = compute_bounds(test, cal, method="profile-likelihood", confidence_level=0.95)
    rg = np.clip((test.p_hat + 0.8 - 1) / (0.8 + 0.85 - 1), 0, 1)
    np.testing.assert_allclose(b.estimate, rg, atol=1e-12)


def test_answers_when_judge_is_not_informative():
    """q0 + q1 <= 1 on the calibration set: RG is undefined, the likelihood still answers."""
    test = js.JudgedCounts(positive=400, n=1000)
    cal = js.ConfusionCounts(tp=9, fn=11, tn=10, fp=10)  # q0 + q1 = 0.95
    with pytest.raises(js.NotInformativeError):
        js.correct(test, cal)
    res = js.correct(test, cal, method="profile-likelihood")
    assert 0 <= res.ci.low <= res.estimate <= res.ci.high <= 1
    assert res.ci.width > 0.5  # honest: the data say little
    counts = (400, 1000, 10, 10, 9, 11)
    grid = np.linspace(0, 1, 201)
    prof = [js.likelihood.profile_loglik(t, *counts) for t in grid]
    assert res.estimate == pytest.approx(grid[int(np.argmax(prof))], abs=0.01)


def test_label_swap_symmetry():
    t = js.JudgedCounts(positive=380, n=900)
    c = js.ConfusionCounts(tp=70, fn=15, tn=60, fp=25)
    r = js.correct(t, c, method="profile-likelihood")
    s = js.correct(
        js.JudgedCounts(positive=520, n=900),
        js.ConfusionCounts(tp=60, fn=25, tn=70, fp=15),
        method="profile-likelihood",
    )
    assert s.estimate == pytest.approx(1 - r.estimate, abs=1e-9)
    assert (s.ci.low, s.ci.high) == pytest.approx((1 - r.ci.high, 1 - r.ci.low), abs=1e-6)


@pytest.mark.parametrize("theta", [0.05, 0.5, 0.9])
def test_profile_coverage_paper_setting(theta):
    sim = draw(theta=theta, q0=0.7, q1=0.9, n=1000, m0=100, m1=100, reps=2000, rng=5)
    b = compute_bounds(
        sim.test, sim.calibration, method="profile-likelihood", confidence_level=0.95
    )
    assert not np.isnan(b.low).any()
    cover = np.mean((b.low <= theta) & (theta <= b.high))
    assert 0.93 <= cover <= 0.975  # s.e. 0.005 at R = 2000


def test_never_undefined_for_weak_judges_with_tiny_calibration():
    sim = draw(theta=0.3, q0=0.55, q1=0.55, n=500, m0=5, m1=5, reps=1000, rng=6)
    b = compute_bounds(sim.test, sim.calibration, method="profile-likelihood", confidence_level=0.9)
    assert np.isfinite(b.low).all() and np.isfinite(b.high).all() and np.isfinite(b.estimate).all()
    assert np.all((0 <= b.low) & (b.low <= b.estimate) & (b.estimate <= b.high) & (b.high <= 1))


# ----------------------------------------------------------------------------- small-sample cut
def test_small_sample_cutoff_is_the_squared_t_quantile():
    from scipy.stats import f

    from judgestats.likelihood import critical_value

    # independent: F(1, ν) quantile at the level = t²_ν((1 + level)/2); ν = min(m0, m1) − 1
    assert critical_value(0.95, 20) == pytest.approx(f.ppf(0.95, 1, 19), rel=1e-10)
    assert critical_value(0.95, 20) == pytest.approx(4.3807496, abs=1e-6)
    assert critical_value(0.90, 6) == pytest.approx(f.ppf(0.90, 1, 5), rel=1e-10)
    assert critical_value(0.95, 1) == pytest.approx(f.ppf(0.95, 1, 1), rel=1e-10)  # ν >= 1
    assert critical_value(0.95) == pytest.approx(chi2.ppf(0.95, 1), rel=1e-12)
    assert critical_value(0.95, 10**7) == pytest.approx(chi2.ppf(0.95, 1), rel=1e-5)


def test_t_version_contains_the_chi2_interval_and_shares_its_estimate(rng):
    d = draw(theta=0.3, q0=0.75, q1=0.85, n=500, m0=12, m1=30, reps=200, rng=rng)
    plain = compute_bounds(d.test, d.calibration, method="profile-likelihood", confidence_level=0.95)
    t = compute_bounds(d.test, d.calibration, method="profile-likelihood-t", confidence_level=0.95)
    np.testing.assert_array_equal(plain.estimate, t.estimate)
    assert np.all(t.low <= plain.low + 1e-9) and np.all(t.high >= plain.high - 1e-9)
    assert np.mean(t.high - t.low) > np.mean(plain.high - plain.low)
    # a large calibration set: the cut-offs (and intervals) nearly agree
    big = draw(theta=0.3, q0=0.75, q1=0.85, n=500, m0=5000, m1=5000, reps=20, rng=rng)
    a = compute_bounds(big.test, big.calibration, method="profile-likelihood", confidence_level=0.95)
    b = compute_bounds(
        big.test, big.calibration, method="profile-likelihood-t", confidence_level=0.95
    )
    np.testing.assert_allclose(b.high - b.low, a.high - a.low, rtol=2e-3)


def test_t_version_repairs_coverage_with_ten_items_per_class():
    # cell of the weak-judge study (q0 = 0.5, q1 = 0.9, m = 10 per class, θ = 0.5, n = 1000):
    # the χ²₁ cut-off covers ≈ 0.84, the t cut-off ≈ 0.90 (2,000 reps: s.e. ≈ 0.007)
    gen = np.random.default_rng(20261122)
    d = draw(theta=0.5, q0=0.5, q1=0.9, n=1000, m0=10, m1=10, reps=2000, rng=gen)
    cover = {}
    for method in ("profile-likelihood", "profile-likelihood-t"):
        b = compute_bounds(d.test, d.calibration, method=method, confidence_level=0.95)
        cover[method] = float(np.mean((b.low <= 0.5) & (0.5 <= b.high)))
    assert cover["profile-likelihood"] < 0.87
    assert cover["profile-likelihood-t"] > 0.88
    assert cover["profile-likelihood-t"] - cover["profile-likelihood"] > 0.03
