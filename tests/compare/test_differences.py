"""js.compare.difference: differences of corrected rates (issue #9); rankings are tested in
test_rankings.py, repeated items in test_clustered.py.
"""

import dataclasses
import warnings

import matplotlib

matplotlib.use("Agg")  # no display in CI; set before pyplot is imported

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import judgestats as js
from judgestats import compare
from tests.designs.test_estimator import CAL, TEST

TA = js.JudgedCounts(positive=600, n=1000)
TB = js.JudgedCounts(positive=520, n=1000)
CAL_A = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
CAL_B = js.ConfusionCounts(tp=80, fn=20, tn=75, fp=25)


def _arms(test, cal):
    return compare._arrays(test, cal)


# ----------------------------------------------------------------------------- difference
def test_shared_difference_is_rescaled_naive_difference():
    res = compare.difference(TA, CAL_A, TB, shared_calibration=True)
    assert res.estimate == pytest.approx((0.60 - 0.52) / (0.7 + 0.9 - 1.0), abs=1e-12)
    assert res.naive == pytest.approx(0.08)
    assert res.shared_calibration and not res.paired and res.calibration_b is res.calibration_a
    assert res.method == "adjusted-wald" and res.confidence_level == 0.95
    assert res.ci.low < res.estimate < res.ci.high
    assert 0 < res.pvalue < 0.01 and res.prob_a_greater is None
    # passing the same calibration twice is the same as passing it once
    again = compare.difference(TA, CAL_A, TB, CAL_A, shared_calibration=True)
    assert (again.ci.low, again.ci.high) == (res.ci.low, res.ci.high)


@settings(max_examples=60, deadline=None)
@given(
    xa=st.integers(0, 200),
    xb=st.integers(0, 200),
    tp=st.integers(1, 50),
    fn=st.integers(0, 50),
    tn=st.integers(1, 50),
    fp=st.integers(0, 50),
)
def test_shared_calibration_cannot_flip_the_sign(xa, xb, tp, fn, tn, fp):
    cal = js.ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp)
    if cal.specificity + cal.sensitivity <= 1:
        return
    ta, tb = js.JudgedCounts(positive=xa, n=200), js.JudgedCounts(positive=xb, n=200)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", js.ClippedEstimateWarning)
        res = compare.difference(ta, cal, tb, shared_calibration=True, method="wald")
    naive_sign = np.sign(xa - xb)
    # clipping can only merge both estimates onto the same bound (difference 0)
    assert np.sign(res.estimate) in (naive_sign, 0.0)
    if np.sign(res.estimate) == 0:
        assert xa == xb or {res.estimate_a, res.estimate_b} <= {0.0, 1.0}
    # the interval's centre (the unclipped θ̂A − θ̂B) has the naive sign too
    centre = (res.ci.low + res.ci.high) / 2 if -1 < res.ci.low and res.ci.high < 1 else None
    if centre is not None and xa != xb:
        assert np.sign(centre) == naive_sign


def test_independent_adjusted_wald_combines_the_papers_per_model_intervals():
    # independent check against the core's eq. (ci): each interval is centre ± z·se
    res = compare.difference(TA, CAL_A, TB, CAL_B, confidence_level=0.9)
    halves, centres = [], []
    for t, c in ((TA, CAL_A), (TB, CAL_B)):
        lo, hi = js.adjusted_wald_interval(
            t.p_hat, c.specificity, c.sensitivity, t.n, c.m0, c.m1, confidence_level=0.9
        )
        assert 0 < lo < hi < 1  # untruncated, so the centre and half-width are recoverable
        centres.append((lo + hi) / 2)
        halves.append((hi - lo) / 2)
    centre = centres[0] - centres[1]
    half = np.hypot(*halves)
    assert res.ci.low == pytest.approx(centre - half, abs=1e-12)
    assert res.ci.high == pytest.approx(centre + half, abs=1e-12)
    z = stats.norm.ppf(0.95)
    assert res.standard_error == pytest.approx(half / z, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(centre) / (half / z)), rel=1e-10)
    assert res.estimate == pytest.approx(
        js.rogan_gladen(0.6, 0.7, 0.9) - js.rogan_gladen(0.52, 0.75, 0.8), abs=1e-12
    )


def test_shared_wald_matches_a_numerical_delta_method():
    res = compare.difference(TA, CAL_A, TB, shared_calibration=True, method="wald")
    pa, pb, q0, q1 = 0.6, 0.52, 0.7, 0.9
    var = np.array(
        [pa * (1 - pa) / 1000, pb * (1 - pb) / 1000, q0 * (1 - q0) / 100, q1 * (1 - q1) / 100]
    )

    def f(v):
        return (v[0] - v[1]) / (v[2] + v[3] - 1)

    x0, h = np.array([pa, pb, q0, q1]), 1e-6
    grad = np.array([(f(x0 + h * e) - f(x0 - h * e)) / (2 * h) for e in np.eye(4)])
    se = np.sqrt(np.sum(grad**2 * var))
    z = stats.norm.ppf(0.975)
    assert res.ci.low == pytest.approx(f(x0) - z * se, abs=1e-8)
    assert res.ci.high == pytest.approx(f(x0) + z * se, abs=1e-8)


def test_paired_labels_use_the_covariance_of_the_judge_labels(rng):
    n = 800
    a = rng.random(n) < 0.6
    b = np.where(rng.random(n) < 0.8, a, rng.random(n) < 0.5)  # strongly correlated with a
    paired = compare.difference(a, CAL_A, b, CAL_B)
    unpaired = compare.difference(a, CAL_A, b, CAL_B, paired=False)
    counts = compare.difference(
        js.JudgedCounts.from_labels(a), CAL_A, js.JudgedCounts.from_labels(b), CAL_B
    )
    assert paired.paired and not unpaired.paired and not counts.paired
    assert (unpaired.ci.low, unpaired.ci.high) == (counts.ci.low, counts.ci.high)
    assert paired.estimate == unpaired.estimate
    assert paired.ci.width < unpaired.ci.width
    n11, n10, n01, n00 = paired.pair_counts
    assert n11 + n10 + n01 + n00 == n and n11 == int(np.sum(a & b))
    # se² = independent se² − 2 Cov(p̃A, p̃B)/(D̃A D̃B), Cov = (n11/n − p̂A p̂B)/ñ
    z = stats.norm.ppf(0.975)
    cov = (n11 / n - a.mean() * b.mean()) / (n + z * z)
    dens = [(c.tn + 1) / (c.m0 + 2) + (c.tp + 1) / (c.m1 + 2) - 1 for c in (CAL_A, CAL_B)]
    expected = unpaired.standard_error**2 - 2 * cov / (dens[0] * dens[1])
    assert paired.standard_error**2 == pytest.approx(expected, rel=1e-12)
    # paired bootstrap works and is narrower than the unpaired one too
    pb = compare.difference(a, CAL_A, b, CAL_B, method="bootstrap", rng=1, n_resamples=4000)
    ub = compare.difference(
        a, CAL_A, b, CAL_B, method="bootstrap", rng=1, n_resamples=4000, paired=False
    )
    assert pb.ci.width < ub.ci.width


def test_public_difference_matches_the_batch_kernel():
    for shared, cal_b in ((False, CAL_B), (True, None)):
        res = compare.difference(TA, CAL_A, TB, cal_b, shared_calibration=shared)
        lo, hi, est = compare.difference_bounds_batch(
            _arms(TA, CAL_A),
            _arms(TB, cal_b or CAL_A),
            shared=shared,
            method="adjusted-wald",
            confidence_level=0.95,
        )
        assert (float(lo), float(hi)) == (res.ci.low, res.ci.high)
        assert float(est) == pytest.approx(res.estimate, abs=1e-15)


def _simulate(
    gen, reps, *, theta_a, theta_b, shared, q_a=(0.7, 0.9), q_b=(0.9, 0.7), n=1000, m=200
):
    q0a, q1a = q_a
    q0b, q1b = q_a if shared else q_b
    m0 = m1 = m // 2
    tn_a, tp_a = gen.binomial(m0, q0a, reps), gen.binomial(m1, q1a, reps)
    tn_b, tp_b = (
        (tn_a, tp_a) if shared else (gen.binomial(m0, q0b, reps), gen.binomial(m1, q1b, reps))
    )
    xa = gen.binomial(n, q1a * theta_a + (1 - q0a) * (1 - theta_a), reps)
    xb = gen.binomial(n, q1b * theta_b + (1 - q0b) * (1 - theta_b), reps)
    a = dict(x=xa, n=np.full(reps, n), tp=tp_a, fn=m1 - tp_a, tn=tn_a, fp=m0 - tn_a)
    b = dict(x=xb, n=np.full(reps, n), tp=tp_b, fn=m1 - tp_b, tn=tn_b, fp=m0 - tn_b)
    return a, b


@pytest.mark.parametrize("shared", [False, True])
@pytest.mark.parametrize(
    ("method", "reps", "inner", "tol"),
    [
        ("adjusted-wald", 4000, 0, 0.015),
        ("wald", 4000, 0, 0.015),
        ("bootstrap", 400, 500, 0.035),
        ("bayes", 250, 1000, 0.04),
    ],
)
def test_difference_interval_coverage_in_a_seeded_simulation(shared, method, reps, inner, tol):
    # ppi_py-style: coverage by simulation with a stated tolerance (binomial SE of the estimate
    # is 0.0034 for 4000 replications, 0.011 for 400, 0.014 for 250)
    gen = np.random.default_rng([9, shared, len(method)])
    theta_a, theta_b = 0.62, 0.45
    a, b = _simulate(gen, reps, theta_a=theta_a, theta_b=theta_b, shared=shared)
    lo, hi, _ = compare.difference_bounds_batch(
        a, b, shared=shared, method=method, confidence_level=0.95, reps=inner, rng=gen
    )
    ok = ~np.isnan(lo)
    assert ok.mean() > 0.99
    truth = theta_a - theta_b
    cover = np.mean((lo[ok] <= truth) & (truth <= hi[ok]))
    assert abs(cover - 0.95) < tol, cover


def test_bootstrap_difference_is_seeded_and_reports_resamples():
    r1 = compare.difference(TA, CAL_A, TB, CAL_B, method="bootstrap", rng=3, n_resamples=2000)
    r2 = compare.difference(TA, CAL_A, TB, CAL_B, method="bootstrap", rng=3, n_resamples=2000)
    assert (r1.ci.low, r1.ci.high, r1.pvalue) == (r2.ci.low, r2.ci.high, r2.pvalue)
    assert r1.ci.n_resamples == 2000 and r1.ci.undefined == 0
    aw = compare.difference(TA, CAL_A, TB, CAL_B)
    assert r1.ci.low == pytest.approx(aw.ci.low, abs=0.03)
    assert r1.ci.high == pytest.approx(aw.ci.high, abs=0.03)
    assert 0 < r1.pvalue <= 1


def test_bootstrap_difference_warns_about_undefined_replicates():
    weak = js.ConfusionCounts(tp=7, fn=3, tn=6, fp=4)
    with pytest.warns(js.SamplingWarning, match="undefined"):
        res = compare.difference(TA, weak, TB, CAL_B, method="bootstrap", rng=1, n_resamples=2000)
    assert res.ci.undefined > 0
    assert "undefined" in res.summary()


def test_bayes_difference_posterior_probability():
    res = compare.difference(
        TA, CAL_A, TB, shared_calibration=True, method="bayes", rng=0, draws=20000
    )
    assert res.pvalue is None and 0.99 < res.prob_a_greater <= 1
    assert res.ci.low < res.estimate < res.ci.high
    swapped = compare.difference(
        TB, CAL_A, TA, shared_calibration=True, method="bayes", rng=0, draws=20000
    )
    assert swapped.prob_a_greater == pytest.approx(1 - res.prob_a_greater, abs=0.005)
    same = compare.difference(TA, CAL_A, TA, CAL_A, method="bayes", rng=1, draws=20000)
    assert same.prob_a_greater == pytest.approx(0.5, abs=0.02)
    assert "posterior P" in res.summary()


def test_bayes_answers_for_a_judge_no_better_than_chance():
    chance = js.ConfusionCounts(tp=5, fn=5, tn=5, fp=5)
    with pytest.raises(js.errors.NotInformativeError, match="calibration_a"):
        compare.difference(TA, chance, TB, CAL_B)
    res = compare.difference(TA, chance, TB, CAL_B, method="bayes", rng=0, draws=5000)
    assert -1 <= res.ci.low < res.ci.high <= 1 and res.ci.width > 0.5


def _grid_posterior(x, n, tp, fn, tn, fp, grid=400, qgrid=300):
    """Brute-force marginal posterior of θ (flat priors): θ grid × (q0, q1) midpoint grid."""
    th = (np.arange(grid) + 0.5) / grid
    q = (np.arange(qgrid) + 0.5) / qgrid
    q0, q1 = np.meshgrid(q, q, indexing="ij")
    logq = tn * np.log(q0) + fp * np.log1p(-q0) + tp * np.log(q1) + fn * np.log1p(-q1)
    dens = np.empty(grid)
    for i, t in enumerate(th):
        p = t * q1 + (1 - t) * (1 - q0)
        ll = logq + x * np.log(p) + (n - x) * np.log1p(-p)
        dens[i] = np.exp(ll).sum()
    dens /= dens.sum()
    return th, np.cumsum(dens)


def test_bayes_sampler_matches_brute_force_posterior():
    # independent implementation (a deterministic grid), PyMC TestMatchesScipy-style
    x, n, tp, fn, tn, fp = 60, 100, 18, 2, 14, 6
    th_grid, cdf = _grid_posterior(x, n, tp, fn, tn, fp)
    arm = dict(
        x=np.array(x, float),
        n=np.array(n, float),
        tp=np.array(tp, float),
        fn=np.array(fn, float),
        tn=np.array(tn, float),
        fp=np.array(fp, float),
    )
    th, w = compare._posterior_draws([arm], [0], [arm], 60000, np.random.default_rng(4))
    q = compare.weighted_quantile(th[:, 0], w, [0.05, 0.5, 0.95])
    ref = np.interp([0.05, 0.5, 0.95], cdf, th_grid)
    np.testing.assert_allclose(q, ref, atol=0.006)
    if "bayes" in js.interval_methods():  # the registry's exact quadrature, when it is loaded
        from judgestats.intervals import compute_bounds

        b = compute_bounds(
            js.JudgedCounts(positive=x, n=n),
            js.ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp),
            method="bayes",
            confidence_level=0.9,
        )
        np.testing.assert_allclose([q[0], q[2]], [float(b.low), float(b.high)], atol=0.006)


def test_bayes_sampler_adapts_when_the_estimate_is_clipped():
    # p̂ = 0.95 is above most plausible sensitivities: few calibration-posterior draws fit
    arm = dict(
        x=np.array(950.0),
        n=np.array(1000.0),
        tp=np.array(40.0),
        fn=np.array(10.0),
        tn=np.array(45.0),
        fp=np.array(5.0),
    )
    th, w = compare._posterior_draws([arm], [0], [arm], 20000, np.random.default_rng(0))
    assert compare._effective_draws(w) > 2000
    assert 0.97 < np.sum(w * th[:, 0]) < 1.0


def test_mover_for_other_registered_methods():
    res = compare.difference(TA, CAL_A, TB, CAL_B, method="profile-likelihood")
    assert res.method == "profile-likelihood" and res.pvalue is None
    a = js.correct(TA, CAL_A, method="profile-likelihood")
    b = js.correct(TB, CAL_B, method="profile-likelihood")
    assert res.estimate == pytest.approx(a.estimate - b.estimate, abs=1e-9)
    low = res.estimate - np.hypot(a.estimate - a.ci.low, b.ci.high - b.estimate)
    assert res.ci.low == pytest.approx(low, abs=1e-12)
    with pytest.raises(js.errors.MethodError, match="shared calibration"):
        compare.difference(TA, CAL_A, TB, shared_calibration=True, method="profile-likelihood")


def test_difference_result_is_frozen_and_presentable():
    res = compare.difference(TA, CAL_A, TB, CAL_B, names=("model-x", "model-y"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.estimate = 0.0
    df = res.to_dataframe()
    assert len(df) == 1 and df.loc[0, "model_a"] == "model-x" and df.loc[0, "ci_low"] == res.ci.low
    assert "model-x − model-y" in res.summary() and "p-value" in res.summary()
    assert "Comparison(" in repr(res) and "independent calibrations" in repr(res)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(method="nope"), js.errors.MethodError, r"method 'nope' is not available for differences"),
        (dict(confidence_level=1.5), js.errors.ConfidenceLevelError, "1.5"),
        (dict(confidence_level=[0.9, 0.95]), js.errors.ArgumentTypeError, "scalar"),
        (dict(n_resamples=10), js.errors.ArgumentTypeError, "unexpected option"),
        (dict(method="bootstrap", draws=10), js.errors.ArgumentTypeError, "unexpected option"),
        (dict(names=("a",)), js.errors.ArgumentTypeError, "names"),
        (dict(shared_calibration="yes"), js.errors.ArgumentTypeError, "shared_calibration"),
    ],
)
def test_difference_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        compare.difference(TA, CAL_A, TB, CAL_B, **kwargs)


def test_warnings_point_at_the_caller():
    clipped = js.JudgedCounts(positive=100, n=1000)  # p̂ below 1 − q̂0: θ̂ clipped to 0
    with pytest.warns(js.ClippedEstimateWarning) as rec:
        compare.difference(clipped, CAL_A, TB, CAL_B)
    assert rec[0].filename == __file__
    with pytest.warns(js.ClippedEstimateWarning) as rec:
        compare.rank({"a": clipped, "b": TB}, {"a": CAL_A, "b": CAL_B}, n_resamples=200, rng=0)
    assert rec[0].filename == __file__


def test_difference_bad_data():
    with pytest.raises(js.JudgeStatsError, match="calibration_b is required"):
        compare.difference(TA, CAL_A, TB)
    with pytest.raises(js.JudgeStatsError, match="differs from calibration_a"):
        compare.difference(TA, CAL_A, TB, CAL_B, shared_calibration=True)
    with pytest.raises(js.errors.ArgumentTypeError, match="test_a must be a JudgedCounts"):
        compare.difference(0.6, CAL_A, TB, CAL_B)
    with pytest.raises(js.errors.ArgumentTypeError, match="test_b must be a JudgedCounts"):
        compare.difference(TA, CAL_A, CAL_B, CAL_B)
    with pytest.raises(js.errors.ArgumentTypeError, match="calibration_b must be a ConfusionCounts"):
        compare.difference(TA, CAL_A, TB, TB)
    with pytest.raises(js.errors.LabelError, match=r"0\.5"):
        compare.difference([0, 1, 0.5], CAL_A, [0, 1, 1], CAL_B)
    with pytest.raises(js.errors.LabelError, match="pair up"):
        compare.difference([0, 1, 1], CAL_A, [0, 1], CAL_B)
    with pytest.raises(js.errors.LabelError, match="paired=True"):
        compare.difference([0, 1, 1], CAL_A, TB, CAL_B, paired=True)
    with pytest.raises(js.JudgeStatsError, match="does not model paired"):
        compare.difference([0, 1, 1, 0], CAL_A, [1, 1, 0, 0], CAL_B, method="bayes")
    with pytest.raises(js.JudgeStatsError, match="batch"):
        compare.difference(js.JudgedCounts(positive=[1, 2], n=10), CAL_A, TB, CAL_B)


def test_shared_calibration_bayes_difference_is_the_posterior_mean_not_a_sampler_bias():
    """Issue 15: with 15 items per class the posterior mean overstates Δ; quadrature agrees.

    Independent computation: E[θ_A − θ_B | data] on a (q0, q1) midpoint grid with, per grid
    point, the exact θ-integrals of both binomial likelihoods on a θ grid (flat priors).
    """
    from scipy.stats import beta, binom

    cal = js.ConfusionCounts(tp=13, fn=2, tn=14, fp=1)
    ta, tb = js.JudgedCounts(560, 1000), js.JudgedCounts(400, 1000)
    g = (np.arange(160) + 0.5) / 160
    q0, q1 = np.meshgrid(g, g, indexing="ij")
    th = (np.arange(200) + 0.5) / 200
    logp = beta.logpdf(q0, 15, 2) + beta.logpdf(q1, 14, 3)
    means = []
    for t in (ta, tb):
        pi = th * q1[..., None] + (1 - th) * (1 - q0[..., None])
        ll = binom.logpmf(t.positive, t.n, pi)
        top = ll.max(axis=-1, keepdims=True)
        w = np.exp(ll - top)
        logp = logp + np.log(w.mean(axis=-1)) + top[..., 0]
        means.append((w * th).sum(-1) / w.sum(-1))
    post = np.exp(logp - logp.max())
    exact = float((post * (means[0] - means[1])).sum() / post.sum())
    res = compare.difference(ta, cal, tb, shared_calibration=True, method="bayes", rng=1,
                             draws=40000)
    assert res.estimate == pytest.approx(exact, abs=0.003)
    plug_in = compare.difference(ta, cal, tb, shared_calibration=True)
    assert plug_in.estimate == pytest.approx(0.2, abs=1e-12)  # (0.56 − 0.40)/(14/15 + 13/15 − 1)
    assert exact - plug_in.estimate > 0.04  # the documented inflation toward a weaker judge


def test_bayes_with_separate_calibrations_draws_the_exact_quadrature_posteriors():
    """Issue 16: 'bayes' means one posterior; compare draws it exactly by inverse CDF."""
    from judgestats.posterior import theta_posterior

    ta, ca = js.JudgedCounts(600, 1000), js.ConfusionCounts(tp=45, fn=5, tn=35, fp=15)
    tb, cb = js.JudgedCounts(500, 800), js.ConfusionCounts(tp=40, fn=10, tn=44, fp=6)
    pa, pb = theta_posterior(ta, ca), theta_posterior(tb, cb)
    res = compare.difference(ta, ca, tb, cb, method="bayes", rng=3, draws=40000)
    # θ_A, θ_B independent: E[Δ] = E[θ_A] − E[θ_B] exactly; MC s.e. of the mean ≈ 0.0006
    assert res.estimate == pytest.approx(pa.mean() - pb.mean(), abs=0.003)
    assert res.estimate_a == pytest.approx(pa.mean(), abs=0.002)
    # P(θ_A > θ_B) by numerical integration of the two exact posteriors
    grid = np.linspace(0, 1, 4001)
    dens_a = np.gradient(np.array([pa.cdf(x) for x in grid]), grid)
    prob = float(np.sum(dens_a * np.array([pb.cdf(x) for x in grid])) * (grid[1] - grid[0]))
    assert res.prob_a_greater == pytest.approx(prob, abs=0.01)
    draws = pa.sample(20000, rng=1)
    assert draws.shape == (20000,)
    np.testing.assert_allclose(
        np.quantile(draws, [0.05, 0.5, 0.95]), [pa.quantile(q) for q in (0.05, 0.5, 0.95)],
        atol=0.004,
    )


def test_cal_a_and_cal_b_are_deprecated_names_of_calibration_a_and_b():
    cal = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
    a, b = js.JudgedCounts(600, 1000), js.JudgedCounts(520, 1000)
    new = compare.difference(test_a=a, calibration_a=cal, test_b=b, calibration_b=cal)
    with (
        pytest.warns(DeprecationWarning, match=r"difference\(cal_a=...\) is deprecated"),
        pytest.warns(DeprecationWarning, match=r"difference\(cal_b=...\) is deprecated"),
    ):
        old = compare.difference(test_a=a, cal_a=cal, test_b=b, cal_b=cal)
    assert old.estimate == new.estimate and old.ci == new.ci
    with pytest.raises(js.errors.ArgumentTypeError, match="pass calibration_a= only"):
        compare.difference(a, cal, b, cal_a=cal)


def test_compare_difference_under_a_design_is_mover_of_the_design_intervals():
    a, ca = TEST, CAL
    b, cb = js.JudgedCounts(520, 1000), js.ConfusionCounts(tp=130, fn=20, tn=150, fp=40)
    res = js.compare.difference(a, ca, b, cb, design="random")
    ra, rb = (js.correct(t, c, design="random") for t, c in ((a, ca), (b, cb)))
    est = ra.estimate - rb.estimate
    # MOVER (Zou & Donner 2008) from the two design intervals, transcribed
    low = est - np.hypot(ra.estimate - ra.ci.low, rb.ci.high - rb.estimate)
    high = est + np.hypot(ra.ci.high - ra.estimate, rb.estimate - rb.ci.low)
    assert (res.estimate, res.ci.low, res.ci.high) == pytest.approx((est, low, high), abs=1e-12)
    assert res.calibration_design == "random" and res.design == "independent calibrations"
    paper = js.compare.difference(a, ca, b, cb)
    assert res.ci.width < 0.7 * paper.ci.width
    with pytest.raises(js.JudgeStatsError, match="a calibration set each"):
        js.compare.difference(a, ca, b, shared_calibration=True, design="random")


# ----------------------------------------------------------------------------- the spec
def test_every_method_of_the_table_has_an_implementation():
    """The capability table decides what a difference or a ranking allows; each method it lists
    has an implementation: a joint one (repeated items too, where the row has them), MOVER of
    the design's own interval of one model (a method of the rate path), or draws of θ."""
    from judgestats.compare.differences import difference_implementation
    from judgestats.compare.joint import JointMethod
    from judgestats.compare.rankings import ranking_implementation
    from judgestats.designs.capabilities import methods_for, rows
    from judgestats.spec import resolve_spec

    seen = set()
    for row in rows():
        if row.judge != "letter" or row.target not in ("difference", "ranking"):
            continue
        for name in row.designs:
            for repeated in (False, True) if row.repeated is None else (row.repeated,):
                for method in row.methods:
                    spec = resolve_spec(judge="letter", target=row.target, design=name,
                                        method=method, confidence_level=0.95,
                                        repeated=repeated)  # fmt: skip
                    seen.add((row.target, name, repeated, method))
                    if row.target == "ranking":
                        assert callable(ranking_implementation(spec))
                        continue
                    impl = difference_implementation(spec.design, method)
                    if isinstance(impl, JointMethod):
                        assert impl.repeated or not repeated
                    else:  # MOVER of the two models' intervals
                        assert method in methods_for("letter", "rate", spec.design, repeated)
    assert len({(t, d) for t, d, _, _ in seen}) == 6  # both targets under the three designs


def test_the_method_lists_of_old_warn_and_read_the_table():
    from judgestats.designs.capabilities import methods_for

    assert "DIFFERENCE_METHODS" not in compare.__all__ and "RANK_METHODS" not in compare.__all__
    with pytest.warns(DeprecationWarning, match=r"capabilities\.methods_for"):
        assert compare.DIFFERENCE_METHODS == ("adjusted-wald", "wald", "bootstrap", "bayes")
    with pytest.warns(DeprecationWarning, match=r"RANK_METHODS is deprecated"):
        assert compare.RANK_METHODS == methods_for("letter", "ranking", "by-human-label")
    with pytest.raises(AttributeError):
        compare.NO_SUCH_NAME  # noqa: B018


def test_results_record_the_design_object():
    res = compare.difference(TA, CAL_A, TB, CAL_B, design="random", method="wald")
    assert res.calibration_design is js.designs.RANDOM and res.calibration_design == "random"
    r = compare.rank({"a": TA, "b": TB}, {"a": CAL_A, "b": CAL_B}, design="random",
                     n_resamples=200, rng=0)  # fmt: skip
    assert r.design is js.designs.RANDOM
