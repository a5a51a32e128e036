"""Exact (quadrature) posterior of θ and the "bayes" interval method; declarative priors."""

import numpy as np
import pytest
from scipy import stats

import judgestats as js
from judgestats._validation import (
    ArgumentTypeError,
    CountError,
    MethodError,
    NotInformativeError,
    PriorError,
)
from judgestats.bayes import Beta, Dirichlet, Priors
from judgestats.intervals import compute_bounds, interval_methods
from judgestats.posterior import theta_posterior

REF_TEST = js.JudgedCounts(positive=600, n=1000)
REF_CAL = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)


def brute_force(
    pos,
    n,
    tp,
    fn,
    tn,
    fp,
    *,
    theta=(1, 1),
    spec=(1, 1),
    sens=(1, 1),
    restrict=False,
    k=200,
    g=2000,
    level=0.95,
):
    """Independent reference: 3-D midpoint rule over θ and the calibration posteriors.

    θ on g cell midpoints; q0, q1 on k midpoints in the quantile space of their Beta
    posteriors (each weight 1/k); the test likelihood evaluated directly. Returns the
    posterior mean and the (α/2, 0.5, 1 − α/2) quantiles.
    """
    u = (np.arange(k) + 0.5) / k
    q0 = stats.beta(tn + spec[0], fp + spec[1]).ppf(u)
    q1 = stats.beta(tp + sens[0], fn + sens[1]).ppf(u)
    th = (np.arange(g) + 0.5) / g
    ok = (q0[:, None] + q1[None, :] > 1) if restrict else np.ones((k, k), bool)
    logpost = np.empty(g)
    for i, t in enumerate(th):
        p = t * q1[None, :] + (1 - t) * (1 - q0[:, None])
        ll = np.where(ok, pos * np.log(p) + (n - pos) * np.log1p(-p), -np.inf)
        top = ll.max()
        logpost[i] = top + np.log(np.exp(ll - top).sum())
    logpost += stats.beta(*theta).logpdf(th)
    w = np.exp(logpost - logpost.max())
    w /= w.sum()
    cdf = np.concatenate([[0.0], np.cumsum(w)])
    q = np.interp([(1 - level) / 2, 0.5, (1 + level) / 2], cdf, np.linspace(0, 1, g + 1))
    return (w * th).sum(), q


CASES = {
    "reference": dict(pos=600, n=1000, tp=90, fn=10, tn=70, fp=30),
    "weak judge (q0 + q1 = 1.1)": dict(pos=275, n=500, tp=60, fn=40, tn=50, fp=50),
    "boundary (theta near 0)": dict(pos=30, n=1000, tp=90, fn=10, tn=97, fp=3),
    "informative priors": dict(
        pos=120, n=400, tp=45, fn=5, tn=40, fp=10, theta=(2, 5), sens=(20, 2)
    ),
    "restricted q0 + q1 > 1": dict(pos=80, n=100, tp=6, fn=4, tn=5, fp=5, restrict=True),
    "zero error count": dict(pos=50, n=200, tp=30, fn=0, tn=25, fp=5),
}


def counts(c):
    return (
        js.JudgedCounts(positive=c["pos"], n=c["n"]),
        js.ConfusionCounts(tp=c["tp"], fn=c["fn"], tn=c["tn"], fp=c["fp"]),
    )


def priors_of(c):
    return Priors(
        theta=Beta(*c.get("theta", (1, 1))),
        specificity=Beta(*c.get("spec", (1, 1))),
        sensitivity=Beta(*c.get("sens", (1, 1))),
        better_than_chance=c.get("restrict", False),
    )


# ----------------------------------------------------------------------------- reference
def test_reference_values_from_the_issue():
    # Beta(1,1) priors; issue 4 gives mean 0.49965 and the 95% ETI (0.38423, 0.60508) (5 digits)
    post = theta_posterior(REF_TEST, REF_CAL)
    assert post.mean() == pytest.approx(0.49965, abs=5e-5)
    low, high = post.interval(0.95, "eti")
    assert low == pytest.approx(0.38423, abs=1e-4)
    assert high == pytest.approx(0.60508, abs=1e-4)


def test_correct_with_method_bayes_reports_the_posterior():
    res = js.correct(REF_TEST, REF_CAL, method="bayes")
    assert res.method == "bayes" and res.ci.method == "bayes"
    assert res.confidence_level == 0.95
    assert res.ci.low == pytest.approx(0.38423, abs=1e-4)
    assert res.ci.high == pytest.approx(0.60508, abs=1e-4)
    point = js.correct(REF_TEST, REF_CAL, method="bayes", point="median").estimate
    post = theta_posterior(REF_TEST, REF_CAL)
    assert point == pytest.approx(post.median(), abs=1e-12)
    assert res.estimate == pytest.approx(post.mean(), abs=1e-12)  # the posterior mean
    hdi = js.correct(REF_TEST, REF_CAL, method="bayes", interval="hdi", point="map")
    assert (hdi.ci.low, hdi.ci.high) == pytest.approx(post.interval(0.95, "hdi"), abs=1e-12)
    assert "bayes" in interval_methods()


@pytest.mark.parametrize("name", list(CASES))
def test_matches_an_independent_brute_force_computation(name):
    c = CASES[name]
    test, cal = counts(c)
    post = theta_posterior(test, cal, priors=priors_of(c))
    keys = ("theta", "spec", "sens", "restrict")
    mean, (lo, med, hi) = brute_force(
        c["pos"], c["n"], c["tp"], c["fn"], c["tn"], c["fp"], **{k: c[k] for k in keys if k in c}
    )
    assert post.mean() == pytest.approx(mean, abs=1e-3)
    assert post.interval(0.95) == pytest.approx((lo, hi), abs=1e-3)
    assert post.median() == pytest.approx(med, abs=1e-3)


def test_default_resolution_agrees_with_a_high_resolution_run():
    rng = np.random.default_rng(4)
    size = 30
    m0, m1 = rng.integers(20, 400, size), rng.integers(20, 400, size)
    n = rng.choice([50, 1000, 100_000], size)
    tp, tn = rng.binomial(m1, 0.85), rng.binomial(m0, 0.75)
    test = js.JudgedCounts(positive=rng.binomial(n, rng.uniform(0.1, 0.9, size)), n=n)
    cal = js.ConfusionCounts(tp=tp, fn=m1 - tp, tn=tn, fp=m0 - tn)
    fast = theta_posterior(test, cal)
    slow = theta_posterior(test, cal, nodes=40, grid_size=1500)
    np.testing.assert_allclose(fast.interval(0.95), slow.interval(0.95), atol=1e-3)
    np.testing.assert_allclose(fast.mean(), slow.mean(), atol=1e-3)


# ----------------------------------------------------------------------------- batches
def test_batched_equals_one_data_set_at_a_time():
    pos = np.array([[600, 30, 275], [0, 1000, 500]])
    test = js.JudgedCounts(positive=pos, n=1000)
    cal = js.ConfusionCounts(tp=np.array([90, 60, 100]), fn=10, tn=np.array([70, 50, 97]), fp=3)
    post = theta_posterior(test, cal)
    low, high = post.interval(0.9, "hdi")
    mean, mode = post.mean(), post.mode()
    assert low.shape == (2, 3)
    for i in range(2):
        for j in range(3):
            one = theta_posterior(
                js.JudgedCounts(positive=int(pos[i, j]), n=1000),
                js.ConfusionCounts(tp=int(cal.tp[j]), fn=10, tn=int(cal.tn[j]), fp=3),
            )
            assert (low[i, j], high[i, j]) == pytest.approx(one.interval(0.9, "hdi"), abs=1e-12)
            assert mean[i, j] == pytest.approx(one.mean(), abs=1e-12)
            assert mode[i, j] == pytest.approx(one.mode(), abs=1e-12)


def test_registry_method_is_never_undefined_for_valid_counts(rng):
    size = 150
    m0, m1, n = rng.integers(1, 60, size), rng.integers(1, 60, size), rng.integers(1, 3000, size)
    test = js.JudgedCounts(positive=rng.integers(0, n + 1), n=n)
    tp, tn = rng.integers(0, m1 + 1), rng.integers(0, m0 + 1)  # includes q0 + q1 <= 1
    cal = js.ConfusionCounts(tp=tp, fn=m1 - tp, tn=tn, fp=m0 - tn)
    assert (cal.specificity + cal.sensitivity <= 1).any()
    level = rng.choice([0.5, 0.9, 0.95, 0.99], size)
    for interval, point in (("eti", "mean"), ("hdi", "map"), ("eti", "median")):
        b = compute_bounds(
            test, cal, method="bayes", confidence_level=level, interval=interval, point=point
        )
        assert np.isfinite(b.low).all() and np.isfinite(b.high).all()
        assert np.isfinite(b.estimate).all()
        assert ((0 <= b.low) & (b.low <= b.high) & (b.high <= 1)).all()
        assert ((0 <= b.estimate) & (b.estimate <= 1)).all()
        assert not b.undefined.any() and b.n_resamples is None


def test_weak_judge_gives_a_wide_interval_and_correct_answers_with_bayes():
    test = js.JudgedCounts(positive=260, n=500)
    cal = js.ConfusionCounts(tp=45, fn=55, tn=50, fp=50)  # q̂0 + q̂1 = 0.95
    b = compute_bounds(test, cal, method="bayes", confidence_level=0.95)
    assert float(b.high) - float(b.low) > 0.5
    with pytest.raises(NotInformativeError):  # the paper's interval needs an informative judge
        js.correct(test, cal)
    res = js.correct(test, cal, method="bayes")  # the posterior answers (wide)
    assert (res.ci.low, res.ci.high) == (float(b.low), float(b.high))
    assert res.estimate == pytest.approx(float(b.estimate), abs=1e-12)


# ----------------------------------------------------------------------------- summaries
def test_summaries_are_consistent():
    post = theta_posterior(js.JudgedCounts(positive=150, n=400), REF_CAL)
    for level in (0.5, 0.9, 0.99):
        lo, hi = post.interval(level, "eti")
        assert post.cdf(lo) == pytest.approx((1 - level) / 2, abs=1e-12)
        assert post.cdf(hi) == pytest.approx((1 + level) / 2, abs=1e-12)
        hlo, hhi = post.interval(level, "hdi")
        assert post.cdf(hhi) - post.cdf(hlo) == pytest.approx(level, abs=1e-9)
        assert hhi - hlo <= hi - lo + 1e-9  # the HDI is the shortest
    assert post.cdf(post.median()) == pytest.approx(0.5, abs=1e-12)
    assert post.point("median") == post.median()
    grid = post.midpoints
    assert post.mode() == pytest.approx(grid[np.argmax(post.density)], abs=2 * np.diff(grid).max())
    assert post.mass.sum() == pytest.approx(1.0)


def test_mode_and_hdi_sit_on_the_boundary_when_the_posterior_piles_up_there():
    post = theta_posterior(js.JudgedCounts(positive=10, n=1000), REF_CAL)  # p̂ < 1 − q̂0
    assert post.mode() == 0.0
    assert post.interval(0.95, "hdi")[0] == 0.0
    assert post.interval(0.95, "eti")[0] > 0.0


def test_confidence_level_broadcasts_over_the_batch():
    test = js.JudgedCounts(positive=np.array([600, 600]), n=1000)
    post = theta_posterior(test, REF_CAL)
    low, high = post.interval(np.array([0.8, 0.99]))
    one80, one99 = (theta_posterior(REF_TEST, REF_CAL).interval(lv) for lv in (0.8, 0.99))
    assert (low[0], high[0]) == pytest.approx(one80, abs=1e-12)
    assert (low[1], high[1]) == pytest.approx(one99, abs=1e-12)


# ----------------------------------------------------------------------------- priors
def test_past_calibration_as_prior_equals_pooling_the_counts():
    past = js.ConfusionCounts(tp=40, fn=8, tn=30, fp=12)
    with_prior = theta_posterior(REF_TEST, REF_CAL, priors=Priors.from_calibration(past))
    pooled = js.ConfusionCounts(tp=130, fn=18, tn=100, fp=42)
    assert with_prior.interval(0.95) == pytest.approx(
        theta_posterior(REF_TEST, pooled).interval(0.95), abs=1e-12
    )
    half = Priors.from_calibration(past, weight=0.5)
    assert half.sensitivity == Beta(21, 5) and half.specificity == Beta(16, 7)


def test_restriction_matters_only_when_the_judge_may_be_worse_than_chance():
    strong = Priors(better_than_chance=True)
    a = theta_posterior(REF_TEST, REF_CAL).interval(0.95)
    b = theta_posterior(REF_TEST, REF_CAL, priors=strong).interval(0.95)
    assert a == pytest.approx(b, abs=1e-4)
    # a weak judge (q̂1 = 0.6, q̂0 = 0.5): the restriction removes the mirrored explanation
    test, cal = js.JudgedCounts(positive=80, n=100), js.ConfusionCounts(tp=6, fn=4, tn=5, fp=5)
    wide = theta_posterior(test, cal).interval(0.95)
    narrow = theta_posterior(test, cal, priors=strong).interval(0.95)
    assert narrow[0] > wide[0] + 0.1
    assert narrow[1] - narrow[0] < wide[1] - wide[0] - 0.1


def test_prior_objects_validate():
    with pytest.raises(PriorError, match=r"Beta prior parameter a must be finite and > 0, got 0"):
        Beta(0, 1)
    with pytest.raises(PriorError, match="parameter b"):
        Beta(1, float("nan"))
    with pytest.raises(PriorError, match="-1"):
        Beta(1, -1)
    with pytest.raises(ArgumentTypeError):
        Beta("1", 1)
    with pytest.raises(PriorError):
        Dirichlet([1.0, 0.0, 2.0])
    with pytest.raises(ArgumentTypeError, match="theta prior"):
        Priors(theta=0.5)
    with pytest.raises(ArgumentTypeError, match="sensitivity prior"):
        Priors(sensitivity=Dirichlet(1))
    with pytest.raises(ArgumentTypeError, match="better_than_chance"):
        Priors(better_than_chance=1)
    with pytest.raises(PriorError, match="binary model"):
        Priors(theta=Dirichlet([1, 1])).binary()
    with pytest.raises(PriorError, match="k-category"):
        Priors(confusion=Dirichlet(1)).binary()
    with pytest.raises(PriorError, match=r"shape \(3,\)"):
        Priors(theta=Dirichlet([1, 1])).categorical(3)
    with pytest.raises(PriorError, match=r"shape \(3, 3\)"):
        Priors(confusion=Dirichlet(np.ones((2, 2)))).categorical(3)
    with pytest.raises(PriorError, match="binary model"):
        Priors(sensitivity=Beta(2, 1)).categorical(3)
    resolved = Priors(theta=Dirichlet([1, 2, 3])).categorical(3)
    assert resolved.theta.tolist() == [1, 2, 3] and resolved.confusion.shape == (3, 3)
    assert Priors() == Priors(theta=None) and hash(Priors(sensitivity=Beta(2, 1)))


def test_matrix_prior_from_a_past_confusion_matrix():
    past = [[8, 1, 0], [2, 8, 2], [0, 1, 8]]  # rows = judge, columns = human
    pri = Priors.from_calibration(past)
    assert np.array_equal(pri.categorical(3).confusion, 1 + np.array(past))
    with pytest.raises(CountError, match="no calibration items"):
        Priors.from_calibration([[1, 0], [1, 0]])


def test_bad_options_are_named_errors():
    with pytest.raises(MethodError, match=r"point \('mode'\) must be one of"):
        js.correct(REF_TEST, REF_CAL, method="bayes", point="mode")
    with pytest.raises(MethodError, match=r"interval \('hpd'\)"):
        js.correct(REF_TEST, REF_CAL, method="bayes", interval="hpd")
    with pytest.raises(ArgumentTypeError, match="priors must be a Priors"):
        js.correct(REF_TEST, REF_CAL, method="bayes", priors={"theta": (1, 1)})
    with pytest.raises(PriorError):
        js.correct(REF_TEST, REF_CAL, method="bayes", priors=Priors(theta=Dirichlet(1)))
    with pytest.raises(ArgumentTypeError, match="unexpected option"):
        js.correct(REF_TEST, REF_CAL, method="bayes", n_resamples=10)
    with pytest.raises(ArgumentTypeError):
        theta_posterior(REF_CAL, REF_TEST)
    with pytest.raises(js.JudgeStatsError, match="nodes"):
        theta_posterior(REF_TEST, REF_CAL, nodes=1)
