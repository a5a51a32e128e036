"""PyMC misclassification models (js.bayes): agreement with the exact posterior, results, errors.

Sampling is kept cheap: every fit runs 2 chains on one core, each distinct model graph is
compiled once per module (fixtures are module-scoped; refits of the same graph hit the
compile cache because the counts enter through pm.Data), and MCMC is compared with the exact
quadrature posterior by tolerances derived from the effective sample size, never by fixed draws.
"""

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pymc")
pytest.importorskip("arviz")

import judgestats as js
import judgestats.bayes as jb
from judgestats._validation import (
    ArgumentTypeError,
    CountError,
    JudgeStatsError,
    LabelError,
    MethodError,
    PriorError,
    SamplingWarning,
)
from judgestats.bayes.results import diagnose, summarise
from judgestats.multiclass import CategoryCounts, ConfusionMatrix, DistributionCorrection
from judgestats.posterior import theta_posterior

# Every test here compiles or samples a PyMC model, or needs a fixture that does: the slow tier
# (make test runs it, make test-fast leaves it out).
pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
SAMPLING = dict(chains=2, cores=1, tune=1000)
REF_TEST = js.JudgedCounts(positive=600, n=1000)
REF_CAL = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
WEAK = (js.JudgedCounts(positive=275, n=500), js.ConfusionCounts(tp=60, fn=40, tn=50, fp=50))
MIRROR = (js.JudgedCounts(positive=80, n=100), js.ConfusionCounts(tp=6, fn=4, tn=5, fp=5))
LABELS = ("win", "tie", "lose")
K3_COUNTS = [430, 380, 190]
K3_MATRIX = [[40, 6, 2], [8, 30, 5], [2, 4, 33]]  # rows = judge, columns = human


def theta_draws(res):
    return np.asarray(res.posterior["posterior"]["theta"]).reshape(-1)


def assert_agrees_with_exact(res, post, *, z=4.0):
    """MCMC mean and interval ends within z Monte Carlo standard errors of the exact values."""
    ess = min(res.diagnostics.min_ess_bulk, res.diagnostics.min_ess_tail)
    draws = theta_draws(res)
    assert res.estimate == pytest.approx(post.mean(), abs=z * draws.std() / math.sqrt(ess))
    level = res.confidence_level
    for q, got in (((1 - level) / 2, res.ci.low), ((1 + level) / 2, res.ci.high)):
        exact = post.quantile(q)
        dens = np.interp(exact, post.midpoints, post.density)
        se = math.sqrt(q * (1 - q) / ess) / max(dens, 1e-3)
        assert got == pytest.approx(exact, abs=z * se + 2e-3), (q, got, exact, se)


# ----------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def reference_fit():
    return jb.fit(REF_TEST, REF_CAL, draws=2500, random_seed=11, **SAMPLING)


@pytest.fixture(scope="module")
def k3_fit():
    # built from labels: one item per (judge, human) pair / judged test item
    judge, human = [], []
    for a, row in enumerate(K3_MATRIX):
        for b, count in enumerate(row):
            judge += [LABELS[a]] * count
            human += [LABELS[b]] * count
    test = CategoryCounts.from_labels(np.repeat(LABELS, K3_COUNTS), labels=LABELS)
    cal = ConfusionMatrix.from_labels(human=human, judge=judge, labels=LABELS)
    # PyMC's default numba backend, as the J = 4 alphabet model below and notebook 07's k = 3
    # fit: the Dirichlet models' compiled code is shared (the C backend compiled it again)
    return jb.fit(test, cal, draws=1000, random_seed=5, **SAMPLING)


# ----------------------------------------------------------------------------- binary model
def test_reference_fit_agrees_with_the_exact_posterior(reference_fit):
    res = reference_fit
    assert res.diagnostics.ok, res.diagnostics.problems()
    assert_agrees_with_exact(res, theta_posterior(REF_TEST, REF_CAL))
    # the issue's reference: mean 0.49965, 95% ETI (0.38423, 0.60508)
    assert res.estimate == pytest.approx(0.49965, abs=0.01)


@pytest.mark.skipif(importlib.util.find_spec("nutpie") is None, reason="nutpie not installed")
def test_nutpie_sampler_agrees_with_the_exact_posterior():
    res = jb.fit(REF_TEST, REF_CAL, sampler="nutpie", draws=2500, random_seed=11, **SAMPLING)
    assert res.sampler == "nutpie"
    assert res.diagnostics.ok, res.diagnostics.problems()
    assert_agrees_with_exact(res, theta_posterior(REF_TEST, REF_CAL))


@pytest.mark.parametrize(
    ("data", "priors"),
    [
        pytest.param(WEAK, None, id="weak judge q0+q1=1.1"),
        pytest.param(MIRROR, jb.Priors(better_than_chance=True), id="restricted q0+q1>1"),
    ],
)
def test_weak_judges_agree_with_the_exact_posterior(data, priors):
    test, cal = data
    # a curved posterior (m = 10 in the restricted case): smaller steps avoid divergences
    tight = {"target_accept": 0.95}
    res = jb.fit(
        test, cal, priors=priors, draws=2000, random_seed=3, sample_kwargs=tight, **SAMPLING
    )
    assert res.diagnostics.ok, res.diagnostics.problems()
    assert_agrees_with_exact(res, theta_posterior(test, cal, priors=priors))


def test_boundary_case_from_labels_agrees_with_the_exact_posterior():
    # θ near 0: p̂ = 0.03 with q̂0 = 0.97; the counts come from label arrays
    judge_test = np.r_[np.ones(30, bool), np.zeros(970, bool)]
    human = np.r_[np.ones(100, int), np.zeros(100, int)]
    judge = np.r_[np.ones(90, int), np.zeros(10, int), np.zeros(97, int), np.ones(3, int)]
    test = js.JudgedCounts.from_labels(judge_test)
    cal = js.ConfusionCounts.from_labels(human=human, judge=judge)
    assert (cal.tp, cal.fn, cal.tn, cal.fp) == (90, 10, 97, 3)
    # the posterior piles up at θ = 0 (a long tail in logit space): smaller steps
    tight = {"target_accept": 0.95}
    res = jb.fit(test, cal, draws=2000, random_seed=4, sample_kwargs=tight, **SAMPLING)
    assert res.diagnostics.ok, res.diagnostics.problems()
    post = theta_posterior(test, cal)
    assert_agrees_with_exact(res, post)
    hdi = res.credible_interval(0.95, "hdi")
    assert hdi.low == pytest.approx(0.0, abs=2e-3)  # the HDI reaches the boundary
    assert hdi.high == pytest.approx(post.interval(0.95, "hdi")[1], abs=6e-3)


def test_point_and_interval_options_follow_the_exact_ones(reference_fit):
    post = theta_posterior(REF_TEST, REF_CAL)
    tree = reference_fit.posterior
    med, lo, hi = summarise(tree, "theta", point="median", interval="hdi", level=0.9)
    assert med == pytest.approx(post.median(), abs=0.01)
    assert (lo, hi) == pytest.approx(post.interval(0.9, "hdi"), abs=0.015)
    mode, _, _ = summarise(tree, "theta", point="map", interval="eti", level=0.9)
    assert mode == pytest.approx(post.mode(), abs=0.03)


def test_result_has_the_correction_shape(reference_fit):
    res = reference_fit
    assert isinstance(res, js.Correction) and isinstance(res, jb.BayesianCorrection)
    assert res.method == "bayes-mcmc" and res.ci.method == "bayes-mcmc"
    assert (res.point, res.interval, res.sampler, res.confidence_level) == (
        "mean",
        "eti",
        "pymc",
        0.95,
    )
    assert res.naive == 0.6 and res.sensitivity == 0.9 and res.specificity == 0.7
    assert (res.n, res.m0, res.m1) == (1000, 100, 100) and not res.clipped
    low, high = res.ci
    assert low < res.estimate < high
    ds = res.to_xarray()
    assert list(ds["ci"].coords["ci_bound"].values) == ["lower", "upper"]
    assert ds.attrs["ci_kind"] == "eti" and ds.attrs["ci_prob"] == 0.95
    assert ds.attrs["sampler"] == "pymc" and ds.attrs["divergences"] == 0
    row = res.to_dataframe()
    assert len(row) == 1 and row.loc[0, "max_rhat"] < 1.01 and row.loc[0, "point"] == "mean"
    text = res.summary()
    assert "credible interval" in text and "2 chains × 2500 draws" in text
    assert repr(res).startswith("BayesianCorrection(estimate=")
    assert set(res.posterior["posterior"].data_vars) == {"theta", "sensitivity", "specificity"}
    table = res.posterior_summary()
    assert {"theta", "sensitivity", "specificity"} <= set(table.index)
    narrow = res.credible_interval(0.5)
    assert res.ci.low < narrow.low < narrow.high < res.ci.high and narrow.confidence_level == 0.5
    wald = res.confidence_interval(method="adjusted-wald")
    assert wald.method == "adjusted-wald"


def test_a_deliberately_bad_fit_warns():
    with pytest.warns(SamplingWarning, match="may be unreliable"):
        res = jb.fit(REF_TEST, REF_CAL, draws=20, tune=20, chains=2, cores=1, random_seed=1)
    assert not res.diagnostics.ok
    assert any("ESS" in p for p in res.diagnostics.problems())
    assert "note:" in res.summary()


def test_one_chain_skips_rhat_without_warnings():
    # backend="c" on the binary model, the cheapest to compile: the C backend's BLAS probe
    # warning is filtered (filterwarnings = error would fail the test on it)
    res = jb.fit(REF_TEST, REF_CAL, draws=1500, tune=500, chains=1, cores=1, random_seed=2,
                 backend="c")  # fmt: skip
    assert math.isnan(res.diagnostics.max_rhat) and res.diagnostics.chains == 1


# ----------------------------------------------------------------------------- k categories
def test_k3_fit_from_labels(k3_fit):
    res = k3_fit
    assert isinstance(res, DistributionCorrection)
    assert isinstance(res, jb.BayesianDistributionCorrection)
    assert res.diagnostics.ok, res.diagnostics.problems()
    assert res.labels == LABELS and res.k == 3
    assert sum(res.estimate.values()) == pytest.approx(1.0, abs=1e-9)
    for lab in LABELS:
        assert 0 <= res.ci[lab].low < res.estimate[lab] < res.ci[lab].high <= 1
    post = res.posterior["posterior"]
    assert list(post["theta"].coords["category"].values) == list(LABELS)
    assert post["confusion"].dims[-2:] == ("category", "judge_category")
    ds = res.to_xarray()
    assert ds.attrs["ci_kind"] == "eti" and ds.attrs["ci_prob"] == 0.95
    assert ds["ci"].dims == ("category", "ci_bound")
    assert res.covariance.shape == (3, 3)
    assert len(res.to_dataframe()) == 3
    assert "Dirichlet model" in res.summary()
    # close to the frequentist correction (flat priors, m = 130): within ~2 posterior sds
    freq = js.multiclass.correct_distribution(res.test, res.calibration)
    for i, lab in enumerate(LABELS):
        assert res.estimate[lab] == pytest.approx(
            freq.estimate[lab], abs=2 * math.sqrt(res.covariance[i, i])
        )


def test_k2_dirichlet_model_from_arrays_matches_the_exact_binary_posterior():
    # with flat priors the k = 2 Dirichlet model is the binary Beta model:
    # θ = P(human = 1), confusion row b = P(judge = · | human = b)
    counts = [400, 600]  # judge 0, judge 1 (positive = 600 of 1000)
    matrix = [[70, 10], [30, 90]]  # rows = judge (0, 1), columns = human (0, 1)
    res = jb.fit(counts, matrix, draws=2000, random_seed=8, **SAMPLING)
    assert res.labels == (0, 1)
    post = theta_posterior(REF_TEST, REF_CAL)
    ess = min(res.diagnostics.min_ess_bulk, res.diagnostics.min_ess_tail)
    draws = np.asarray(res.posterior["posterior"]["theta"].sel(category=1)).reshape(-1)
    assert res.estimate[1] == pytest.approx(post.mean(), abs=4 * draws.std() / math.sqrt(ess))
    for q, got in ((0.025, res.ci[1].low), (0.975, res.ci[1].high)):
        exact = post.quantile(q)
        se = math.sqrt(q * (1 - q) / ess) / np.interp(exact, post.midpoints, post.density)
        assert got == pytest.approx(exact, abs=4 * se + 2e-3)


def test_k_category_model_accepts_objects_and_arrays_alike():
    pm = pytest.importorskip("pymc")
    objects = jb.build_model(CategoryCounts(K3_COUNTS, LABELS), ConfusionMatrix(K3_MATRIX, LABELS))
    arrays = jb.build_model(K3_COUNTS, K3_MATRIX, labels=LABELS)
    for model in (objects, arrays):
        assert isinstance(model, pm.Model)
        assert model.coords["category"] == LABELS and model.coords["judge_category"] == LABELS
        assert np.array_equal(model["test_counts_observed"].get_value(), K3_COUNTS)
        assert np.array_equal(
            model["calibration_counts_observed"].get_value(), np.array(K3_MATRIX).T
        )
    default = jb.build_model(K3_COUNTS, K3_MATRIX)
    assert default.coords["category"] == (0, 1, 2)


def test_binary_model_is_extendable():
    pm = pytest.importorskip("pymc")
    model = jb.build_model(REF_TEST, REF_CAL)
    assert {"theta", "sensitivity", "specificity"} <= set(model.named_vars)
    assert {"positive", "tn", "tp"} <= {v.name for v in model.observed_RVs}
    with model:
        pm.Deterministic("youden", model["sensitivity"] + model["specificity"] - 1)
    assert "youden" in model.named_vars
    restricted = jb.build_model(REF_TEST, REF_CAL, priors=jb.Priors(better_than_chance=True))
    assert "specificity_offset" in restricted.named_vars
    assert "specificity_prior" in restricted.named_vars


# ----------------------------------------------------------------------------- bad input
def test_bad_input_is_refused_before_compiling():
    cal3 = ConfusionMatrix(K3_MATRIX, LABELS)
    with pytest.raises(PriorError, match=r"shape \(3,\)"):
        jb.fit(
            CategoryCounts(K3_COUNTS, LABELS), cal3, priors=jb.Priors(theta=jb.Dirichlet([1, 1]))
        )
    with pytest.raises(PriorError, match="binary model"):
        jb.fit(REF_TEST, REF_CAL, priors=jb.Priors(theta=jb.Dirichlet(1)))
    with pytest.raises(PriorError, match="> 0"):
        jb.Beta(1, 0)
    with pytest.raises(CountError, match=r"at least 2 categories"):
        jb.build_model([5], [[5]])
    with pytest.raises(LabelError, match="do not match"):
        jb.fit(CategoryCounts(K3_COUNTS, ("a", "b", "c")), cal3)
    with pytest.raises(LabelError, match="different order"):
        jb.fit(CategoryCounts(K3_COUNTS, ("tie", "win", "lose")), cal3)
    with pytest.raises(LabelError, match="do not match"):
        jb.fit(K3_COUNTS, cal3, labels=("a", "b", "c"))
    with pytest.raises(CountError, match="no calibration items with human label 'b'"):
        jb.fit([10, 10], [[4, 0], [3, 0]], labels=("a", "b"))
    with pytest.raises(CountError, match=r"k = 3"):
        jb.fit(K3_COUNTS, [[1, 2], [3, 4]])
    with pytest.raises(ArgumentTypeError, match="labels apply to k-category"):
        jb.fit(REF_TEST, REF_CAL, labels=("a", "b"))
    with pytest.raises(ArgumentTypeError, match="calibration must be a ConfusionCounts"):
        jb.fit(REF_TEST, cal3)
    with pytest.raises(JudgeStatsError, match="batch"):
        jb.fit(js.JudgedCounts(positive=[1, 2], n=10), REF_CAL)
    with pytest.raises(MethodError, match=r"sampler \('stan'\) must be one of"):
        jb.fit(REF_TEST, REF_CAL, sampler="stan")
    with pytest.raises(MethodError, match="point"):
        jb.fit(REF_TEST, REF_CAL, point="mode")
    with pytest.raises(MethodError, match="interval"):
        jb.fit(REF_TEST, REF_CAL, interval="hpd")
    with pytest.raises(js.errors.ConfidenceLevelError):
        jb.fit(REF_TEST, REF_CAL, confidence_level=95)
    with pytest.raises(ArgumentTypeError, match="priors must be a Priors"):
        jb.fit(REF_TEST, REF_CAL, priors=jb.Beta(1, 1))


def test_bad_sampling_arguments_are_named_errors():
    model = jb.build_model(REF_TEST, REF_CAL)
    with pytest.raises(JudgeStatsError, match="draws must be >= 1"):
        jb.sample(model, draws=0)
    with pytest.raises(ArgumentTypeError, match="chains must be an integer"):
        jb.sample(model, chains=2.5)
    with pytest.raises(ArgumentTypeError, match="random_seed"):
        jb.sample(model, random_seed="seven")
    with pytest.raises(MethodError, match="backend"):
        jb.sample(model, backend="jax")
    with pytest.raises(ArgumentTypeError, match=r"may not set \['draws'\]"):
        jb.sample(model, sample_kwargs={"draws": 5})
    with pytest.raises(ArgumentTypeError, match="progressbar"):
        jb.sample(model, progressbar="yes")
    # a misspelt option is named (fit and fit_stratified pass their **sampling on unchanged)
    with pytest.raises(ArgumentTypeError, match=r"unknown sampling option\(s\) \['draw'\]"):
        jb.fit(REF_TEST, REF_CAL, draw=10)
    with pytest.raises(ArgumentTypeError, match=r"\['target_accept'\]"):
        jb.fit_stratified({"a": REF_TEST}, {"a": REF_CAL}, target_accept=0.9)
    assert set(jb.SAMPLING_DEFAULTS) == set(jb.SamplingOptions.__annotations__)
    for missing in ("nutpie", "numpyro"):
        if importlib.util.find_spec(missing) is None:
            with pytest.raises(ImportError, match=f"pip install {missing}"):
                jb.fit(REF_TEST, REF_CAL, sampler=missing)


@pytest.mark.parametrize("design", ["random", "by-judge-label"])
def test_design_models_agree_with_the_exact_design_posterior(design):
    """PyMC's three-binomial model against the quadrature posterior (js.designs.posterior)."""
    from judgestats.designs.posterior import design_posterior_bounds, judge_conditional_cdf

    test, cal = js.JudgedCounts(600, 1000), js.ConfusionCounts(tp=45, fn=5, tn=35, fp=15)
    res = jb.fit(test, cal, design=design, draws=2000, random_seed=4, **SAMPLING)
    assert res.design == design
    names = {v.name for v in jb.build_model(test, cal, design=design).free_RVs}
    assert names == {"judge_rate", "ppv", "for_rate"}
    exact = design_posterior_bounds(test, cal, design, 0.95)
    ess = min(res.diagnostics.min_ess_bulk, res.diagnostics.min_ess_tail)
    draws = theta_draws(res)
    assert res.estimate == pytest.approx(float(exact.estimate), abs=4 * draws.std() / ess**0.5)
    for q, got, ref in ((0.025, res.ci.low, exact.low), (0.975, res.ci.high, exact.high)):
        # s.e. of a quantile: √(q(1 − q)/ESS)/density, the density from the exact CDF
        h = 1e-3
        cdf = judge_conditional_cdf(test, cal, design, [float(ref) - h, float(ref) + h])
        dens = float(cdf[1] - cdf[0]) / (2 * h)
        assert got == pytest.approx(float(ref), abs=4 * (q * (1 - q) / ess) ** 0.5 / dens + 1e-3)
    # the summary reports the design's parameters (it raised KeyError 'sensitivity' before)
    text = res.summary()
    assert f"design {design}" in text and "P(human 1 | judge 1)" in text
    ppv = float(res.posterior["posterior"]["ppv"].mean())
    assert f"posterior mean {ppv:.4f}  (45 of 60)" in text
    assert abs(ppv - 45.5 / 61) < 0.01  # Beta(45.5, 15.5) posterior mean under Jeffreys
    with pytest.raises(ArgumentTypeError, match="takes binary counts and no priors"):
        jb.build_model(test, cal, design=design, priors=js.priors.Priors())


def test_judge_alphabet_model_agrees_with_the_profile_likelihood():
    """J = 4 judge letters over K = 2 human categories: Dirichlet rows over the letters.

    With flat priors and n = 1000, m = 80 + 80 the posterior and the likelihood agree to
    first order: posterior mean within 0.01 of the maximum-likelihood θ̂ (its s.d. is 0.057)
    and ETI bounds within 0.02 of the profile-likelihood bounds.
    """
    from judgestats.multiclass import correct_distribution

    cal = ConfusionMatrix([[40, 2], [25, 8], [10, 20], [5, 50]], labels=["fail", "pass"],
                          judge_labels=[1, 2, 3, 4])  # fmt: skip
    test = CategoryCounts([300, 250, 250, 200], labels=[1, 2, 3, 4])
    model = jb.build_model(test, cal)
    assert list(model.coords["judge_category"]) == [1, 2, 3, 4]
    assert list(model.coords["category"]) == ["fail", "pass"]
    res = jb.fit(test, cal, draws=1000, random_seed=3, **SAMPLING)
    ref = correct_distribution(test, cal)
    assert res.estimate["pass"] == pytest.approx(ref.estimate["pass"], abs=0.01)
    assert res.ci["pass"].low == pytest.approx(ref.ci["pass"].low, abs=0.02)
    assert res.ci["pass"].high == pytest.approx(ref.ci["pass"].high, abs=0.02)
    assert res.calibration.judge_labels == (1, 2, 3, 4)
    assert "judge alphabet of J = 4" in res.summary()
    with pytest.raises(js.errors.PriorError, match=r"J = 4 judge labels × k = 2"):
        jb.fit(test, cal, priors=js.priors.Priors(confusion=js.priors.Dirichlet(np.ones((2, 2)))))


# ----------------------------------------------------------------------------- zero cells
def _zero_cell_data():
    """The issue's example, then the first 9 data sets of benchmarks/bench_bayes.py."""
    sys.path.insert(0, str(BENCH))
    try:
        from bench_bayes import ZERO_CELL_SEED, zero_cell_data
    finally:
        sys.path.remove(str(BENCH))
    issue = (js.JudgedCounts(positive=79, n=500), js.ConfusionCounts(tp=60, fn=0, tn=60, fp=0))
    return [(issue, 10054)] + [(zero_cell_data(i), ZERO_CELL_SEED + i) for i in range(9)]


def test_zero_cells_do_not_diverge_at_the_default_target_accept():
    """Issue 31 §3: a zero calibration cell or a test count of 0 or n.

    At PyMC's target_accept 0.8 the issue's example diverged (24 times in the issue, 48 here
    with 4 chains × 1000 draws, seed 10054), and 82 of 100 data sets with zero cells; at the
    default 0.995, 0 of 100 (benchmarks/results/bayes.md, "Zero cells", 4 chains × 1000
    draws). Here 10 of them at the default TARGET_ACCEPT and the default 1000 tuning steps, 2 chains
    × 500 draws to keep the test short. One built model is refitted through ``pm.set_data``
    with plain Python ints (an int container refused them before). Each posterior mean is
    within 4 Monte Carlo s.e. of the exact posterior's (the same model).
    """
    pm = pytest.importorskip("pymc")
    data = _zero_cell_data()
    model = jb.build_model(*data[0][0])
    divergent = []
    for (test, cal), seed in data:
        with model:
            pm.set_data({"n": test.n, "m0": cal.m0, "m1": cal.m1,
                         "positive_observed": test.positive, "tn_observed": cal.tn,
                         "tp_observed": cal.tp})  # fmt: skip
        tree = jb.sample(model, chains=2, draws=500, cores=1, random_seed=seed)
        d = diagnose(tree, ["theta", "sensitivity", "specificity"])
        if d.divergences:
            divergent.append(((test, cal), seed, d.divergences))
        draws = np.asarray(tree["posterior"]["theta"]).reshape(-1)
        ess = min(d.min_ess_bulk, d.min_ess_tail)
        exact = theta_posterior(test, cal).mean()
        assert draws.mean() == pytest.approx(exact, abs=4 * draws.std() / math.sqrt(ess))
    assert not divergent, divergent


def test_set_data_takes_plain_python_numbers():
    """Issue 31 §3: ``pm.set_data`` with a plain int failed ("Scalar(int32) cannot store …").

    The refilled model's log density equals the binomial and Beta log densities of the new
    counts (scipy), and its predictive draws stay integer.
    """
    pm = pytest.importorskip("pymc")
    stats = pytest.importorskip("scipy.stats")
    model = jb.build_model(REF_TEST, REF_CAL)
    with model:
        pm.set_data({"n": 500, "positive_observed": 79, "m0": 60, "tn_observed": 60.0,
                     "m1": np.int64(60), "tp_observed": 60})  # fmt: skip
    point = {"theta": 0.15, "specificity": 0.98, "sensitivity": 0.97}
    logp = model.compile_logp(jacobian=False)(model.initial_point() | {
        f"{k}_logodds__": float(np.log(v / (1 - v))) for k, v in point.items()
    })  # fmt: skip
    judged = 0.15 * 0.97 + 0.85 * 0.02
    want = (stats.binom.logpmf(79, 500, judged) + stats.binom.logpmf(60, 60, 0.98)
            + stats.binom.logpmf(60, 60, 0.97))  # flat Beta(1, 1) priors: log density 0
    assert logp == pytest.approx(want, rel=1e-12)
    with model:
        prior = pm.sample_prior_predictive(draws=5, random_seed=1)
    assert np.issubdtype(prior["prior_predictive"]["positive"].dtype, np.integer)
    design = jb.build_model(REF_TEST, REF_CAL, design="random")
    with design:
        pm.set_data({"n_judged": 1200, "judged_observed": 700, "k1": 120, "tp_observed": 90})
    assert float(design["judged_observed"].get_value()) == 700.0


def test_target_accept_defaults_and_can_be_set():
    from judgestats.bayes.fit import sampling_arguments

    assert sampling_arguments({})["target_accept"] == jb.TARGET_ACCEPT == 0.995
    tight = sampling_arguments({"sample_kwargs": {"target_accept": 0.8}})
    assert tight["target_accept"] == 0.8
    nuts = sampling_arguments({"sample_kwargs": {"nuts": {"target_accept": 0.9}}})
    assert "target_accept" not in nuts and nuts["nuts"] == {"target_accept": 0.9}


def test_progress_shows_pymcs_bar_when_interactive_and_progressbar_is_its_alias(monkeypatch):
    """Issue 38 §2: a fit takes 10-20 s (4 chains x 2000 steps on one core), 90 s pairwise."""
    from judgestats import progress as prog
    from judgestats.bayes.fit import sampling_arguments

    def shown(**options):
        kw = sampling_arguments(options)
        assert kw["quiet"] is not kw["progressbar"]  # PyMC's log messages go with its bar
        return kw["progressbar"]

    assert shown() is False  # under pytest: not interactive
    assert shown(progress=True) is True and shown(progress=False) is False
    assert shown(progress=True, progressbar=False) is False  # PyMC's own name wins when given
    monkeypatch.setattr(prog, "_interactive", lambda: True)
    assert shown() is True and shown(progress=False) is False
    # the option reaches every fit (refused by name before any sampling)
    for call in (lambda: jb.fit(REF_TEST, REF_CAL, progress="yes"),
                 lambda: jb.fit_stratified({"a": REF_TEST}, {"a": REF_CAL}, progress="yes")):  # fmt: skip
        with pytest.raises(ArgumentTypeError, match="progress must be None, True or False"):
            call()
