"""Stratified correction (issue #6, frequentist part): Σ w_s θ̂_s exactness, reduction to
``correct`` with one stratum, a seeded simulation with a stratum-dependent judge and shifted
mixes, diagnostics against independent implementations, merging, frames and bad input.

Fast tier only; the full coverage study is benchmarks/bench_strata.py.
"""

import dataclasses
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest, chi2_contingency

import judgestats as js
from judgestats._validation import (
    ArgumentTypeError,
    ClippedEstimateWarning,
    ConfidenceLevelError,
    CountError,
    JudgeStatsError,
    LabelError,
    MethodError,
    NotInformativeError,
    ProbabilityError,
    SamplingWarning,
    SparseStratumError,
    StrataMismatchError,
    WeightsError,
)
from judgestats.simulate import draw
from judgestats.strata import (
    DEFAULT_MIN_PER_CLASS,
    HomogeneityTest,
    StrataDiagnostics,
    StratifiedCorrection,
    correct_stratified,
    judge_homogeneity,
    pooled_bounds,
    stratified_counts,
)

J, C = js.JudgedCounts, js.ConfusionCounts
TESTS = {"short": J(positive=180, n=300), "long": J(positive=560, n=700)}
CALS = {"short": C(tp=126, fn=14, tn=55, fp=15), "long": C(tp=57, fn=3, tn=18, fp=12)}


def _rg(test, cal):
    """Rogan–Gladen in exact rational arithmetic (independent of the package's kernels)."""
    p = Fraction(test.positive, test.n)
    q0, q1 = Fraction(cal.tn, cal.tn + cal.fp), Fraction(cal.tp, cal.tp + cal.fn)
    return (p + q0 - 1) / (q0 + q1 - 1)


# ----------------------------------------------------------------------------- the estimate
def test_pooled_estimate_is_the_test_weighted_sum_of_rogan_gladen_exactly():
    res = correct_stratified(TESTS, CALS)
    n = sum(t.n for t in TESTS.values())
    exact = sum(Fraction(TESTS[s].n, n) * _rg(TESTS[s], CALS[s]) for s in TESTS)
    assert res.estimate == pytest.approx(float(exact), abs=1e-15)
    assert res.estimate_unclipped == res.estimate and res.clipped is False
    assert res.weights == {"short": 0.3, "long": 0.7} and res.weights_source == "test"
    for s in TESTS:
        assert res[s].estimate == pytest.approx(float(_rg(TESTS[s], CALS[s])), abs=1e-15)
    assert res.naive == pytest.approx(740 / 1000, abs=1e-15)


def test_given_weights_pool_exactly():
    res = correct_stratified(TESTS, CALS, weights={"long": 0.25, "short": 0.75})
    exact = Fraction(3, 4) * _rg(TESTS["short"], CALS["short"]) + Fraction(1, 4) * _rg(
        TESTS["long"], CALS["long"]
    )
    assert res.estimate == pytest.approx(float(exact), abs=1e-15)
    assert res.weights_source == "given" and res.weights == {"short": 0.75, "long": 0.25}


@pytest.mark.parametrize("method", ["adjusted-wald", "wald", "bootstrap"])
@pytest.mark.parametrize("weights", ["test", {"only": 1.0}])
def test_one_stratum_reduces_to_correct(method, weights):
    test, cal = J(positive=600, n=1000), C(tp=90, fn=10, tn=70, fp=30)
    opts = {"n_resamples": 2000} if method == "bootstrap" else {}
    res = correct_stratified(
        {"only": test}, {"only": cal}, method=method, weights=weights, rng=5, **opts
    )
    ref = js.correct(test, cal, method=method, rng=5, **opts)
    assert res["only"] == ref  # the per-stratum Correction, field by field
    assert res.estimate == ref.estimate and res.unstratified.estimate == ref.estimate
    if method == "bootstrap":  # the pooled bootstrap uses its own replicates
        assert res.ci.low == pytest.approx(ref.ci.low, abs=0.015)
        assert res.ci.high == pytest.approx(ref.ci.high, abs=0.015)
    else:  # one stratum: π = 1, no mix term -> exactly the paper's eq. (8) / eq. (15)
        assert res.ci.low == pytest.approx(ref.ci.low, abs=1e-12)
        assert res.ci.high == pytest.approx(ref.ci.high, abs=1e-12)
    assert res.diagnostics.joint_test.df == 0 and np.isnan(res.diagnostics.joint_test.pvalue)
    assert "likelihood-ratio" not in res.summary()  # nothing to test with one stratum


def test_adjusted_wald_pooled_interval_hand_formula():
    """Module-docstring formula, written out independently for two strata."""
    res = correct_stratified(TESTS, CALS)
    z = 1.959963984540054
    z2 = z * z
    th, var, shift, w = [], [], [], []
    for s in ("short", "long"):
        t, c = TESTS[s], CALS[s]
        nt = t.n + z2
        pt = (t.positive + z2 / 2) / nt
        q0t, q1t = (c.tn + 1) / (c.m0 + 2), (c.tp + 1) / (c.m1 + 2)
        v0, v1 = q0t * (1 - q0t) / (c.m0 + 2), q1t * (1 - q1t) / (c.m1 + 2)
        den = q0t + q1t - 1
        t_s = (pt + q0t - 1) / den
        th.append(t_s)
        var.append((pt * (1 - pt) / nt + (1 - t_s) ** 2 * v0 + t_s**2 * v1) / den**2)
        shift.append(2 * z2 * (-(1 - t_s) * v0 + t_s * v1))
        w.append(t.n / 1000)
    contrib = [wi * wi * vi for wi, vi in zip(w, var, strict=True)]
    total = sum(contrib)
    centre = sum(
        wi * (ti + ci / total * di) for wi, ti, ci, di in zip(w, th, contrib, shift, strict=True)
    )
    bar = sum(wi * ti for wi, ti in zip(w, th, strict=True))
    total += sum(wi * (ti - bar) ** 2 for wi, ti in zip(w, th, strict=True)) / 1000
    half = z * total**0.5
    assert res.ci.low == pytest.approx(centre - half, abs=1e-12)
    assert res.ci.high == pytest.approx(centre + half, abs=1e-12)
    # given weights: no mix term
    fixed = correct_stratified(TESTS, CALS, weights={"short": 0.3, "long": 0.7})
    assert fixed.ci.width < res.ci.width


def test_plain_wald_uses_eq_var_per_stratum():
    res = correct_stratified(TESTS, CALS, method="wald", weights={"short": 0.5, "long": 0.5})
    var = sum(
        0.25
        * js.intervals.rogan_gladen_variance(
            TESTS[s].p_hat,
            CALS[s].specificity,
            CALS[s].sensitivity,
            TESTS[s].n,
            CALS[s].m0,
            CALS[s].m1,
        )
        for s in TESTS
    )
    half = 1.959963984540054 * var**0.5
    assert (res.ci.low, res.ci.high) == pytest.approx(
        (res.estimate - half, res.estimate + half), abs=1e-12
    )


# ----------------------------------------------------------------------------- simulation
def _simulate(reps, rng):
    """Judge differs by stratum; the test set is 70% long, the calibration set 30% long."""
    theta = np.array([0.6, 0.7])  # short, long
    q0 = np.array([0.85, 0.60])  # the judge is lenient on long answers
    q1 = np.array([0.90, 0.95])
    n = np.array([300, 700])
    m = np.array([420, 180])
    sim = draw(
        theta=theta, q0=q0, q1=q1, n=n, m0=m, m1=0, reps=reps, theta_calibration=theta, rng=rng
    )
    assert sim.valid.all()
    t, c = sim.test, sim.calibration
    test = J(positive=t.positive.T, n=np.broadcast_to(t.n, t.positive.shape).T)
    cal = C(tp=c.tp.T, fn=c.fn.T, tn=c.tn.T, fp=c.fp.T)
    return test, cal, float(n @ theta / n.sum())


@pytest.mark.parametrize("method", ["adjusted-wald", "wald"])
def test_simulation_stratified_unbiased_and_covers_where_unstratified_is_biased(method, rng):
    reps = 4000
    test, cal, truth = _simulate(reps, rng)
    b = pooled_bounds(test, cal, method=method, confidence_level=0.95)
    assert not np.isnan(b.low).any()
    bias = np.mean(np.clip(b.estimate, 0, 1)) - truth
    se = np.std(b.estimate) / np.sqrt(reps)
    # unstratified: one confusion matrix from the pooled counts
    sum_t = J(positive=test.positive.sum(-1), n=test.n.sum(-1))
    sum_c = C(tp=cal.tp.sum(-1), fn=cal.fn.sum(-1), tn=cal.tn.sum(-1), fp=cal.fp.sum(-1))
    raw_u = (sum_t.p_hat + sum_c.specificity - 1) / (sum_c.specificity + sum_c.sensitivity - 1)
    bias_u = np.mean(raw_u) - truth
    assert bias_u > 0.05  # the lenient long-answer judge is under-represented in calibration
    assert abs(bias) < max(3 * se, 0.005)
    coverage = np.mean((b.low <= truth) & (truth <= b.high))
    assert coverage >= 0.93
    # the unstratified adjusted-Wald interval misses far more often
    lo_u, hi_u = js.adjusted_wald_interval(
        sum_t.p_hat, sum_c.specificity, sum_c.sensitivity, sum_t.n, sum_c.m0, sum_c.m1
    )
    assert np.mean((lo_u <= truth) & (truth <= hi_u)) < 0.85


def test_simulation_bootstrap_coverage(rng):
    test, cal, truth = _simulate(1000, rng)  # coverage s.e. ~0.007 around ~0.95
    b = pooled_bounds(test, cal, method="bootstrap", rng=rng, n_resamples=400)
    assert np.mean((b.low <= truth) & (truth <= b.high)) >= 0.93
    assert (b.undefined == 0).all()


def test_batch_kernel_matches_single_data_sets(rng):
    test, cal, _ = _simulate(5, rng)
    b = pooled_bounds(test, cal, method="adjusted-wald")
    for i in range(5):
        tests = {s: J(positive=test.positive[i, k], n=test.n[i, k]) for k, s in enumerate("ab")}
        cals = {
            s: C(tp=cal.tp[i, k], fn=cal.fn[i, k], tn=cal.tn[i, k], fp=cal.fp[i, k])
            for k, s in enumerate("ab")
        }
        res = correct_stratified(tests, cals)
        assert (res.ci.low, res.ci.high) == pytest.approx((b.low[i], b.high[i]), abs=1e-14)
        assert res.estimate_unclipped == pytest.approx(b.estimate[i], abs=1e-14)


def test_batch_kernel_nan_where_a_weighted_stratum_is_not_informative():
    test = J(positive=np.array([[50, 50], [50, 50]]), n=100)
    cal = C(tp=np.array([[9, 9], [9, 2]]), fn=np.array([[1, 1], [1, 8]]), tn=8, fp=2)
    b = pooled_bounds(test, cal)
    assert np.isfinite(b.low[0]) and np.isnan(b.low[1]) and np.isnan(b.estimate[1])
    # ... unless that stratum has weight 0
    b = pooled_bounds(test, cal, weights=[1.0, 0.0])
    assert np.isfinite(b.low).all()
    with pytest.raises(JudgeStatsError, match="strata on the last axis"):
        pooled_bounds(J(positive=5, n=10), C(tp=9, fn=1, tn=8, fp=2))


# ----------------------------------------------------------------------------- clipping
def test_stratum_outside_unit_interval_is_clipped_in_its_correction_but_not_in_the_pool():
    tests = {"a": J(positive=99, n=100), "b": J(positive=40, n=100)}
    cals = {"a": C(tp=45, fn=5, tn=40, fp=10), "b": C(tp=45, fn=5, tn=40, fp=10)}
    with pytest.warns(ClippedEstimateWarning, match=r"1 of 2 strata .*'a': 1\.1.*unclipped"):
        res = correct_stratified(tests, cals)
    raw_a = float(_rg(tests["a"], cals["a"]))
    assert raw_a > 1 and res["a"].clipped and res["a"].estimate == 1.0
    assert res["a"].estimate_unclipped == pytest.approx(raw_a)
    expected = 0.5 * raw_a + 0.5 * float(_rg(tests["b"], cals["b"]))
    assert res.estimate == pytest.approx(expected) and res.clipped is False
    assert "were clipped" in res.summary() and "unclipped" in res.summary()


def test_stratum_interval_widened_at_the_boundary_says_so_as_correct_does():
    # p̂ = 0 in stratum a: the adjusted-Wald boundary rule replaces a collapsed interval, and
    # the stratum's interval carries widened=True exactly as js.correct's does for the same data
    tests = {"a": J(positive=0, n=200), "b": J(positive=100, n=200)}
    cals = {s: C(tp=95, fn=5, tn=95, fp=5) for s in "ab"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = correct_stratified(tests, cals)
        alone = js.correct(tests["a"], cals["a"])
    assert res["a"].ci == alone.ci and alone.ci.widened and res["a"].ci.low == 0.0
    assert not res["b"].ci.widened


def test_pooled_value_outside_unit_interval_is_clipped_with_a_warning():
    tests = {"a": J(positive=100, n=100), "b": J(positive=99, n=100)}
    cals = {"a": C(tp=45, fn=5, tn=40, fp=10), "b": C(tp=45, fn=5, tn=40, fp=10)}
    with pytest.warns(ClippedEstimateWarning) as record:
        res = correct_stratified(tests, cals)
    assert any("pooled" in str(w.message) for w in record)
    assert res.clipped and res.estimate == 1.0 and res.estimate_unclipped > 1
    assert 0 <= res.ci.low <= res.ci.high <= 1


# ----------------------------------------------------------------------------- diagnostics
def test_homogeneity_test_matches_scipy_g_test():
    spec, sens, both = judge_homogeneity(CALS)
    for test, table in (
        (spec, [[55, 15], [18, 12]]),
        (sens, [[126, 14], [57, 3]]),
    ):
        g, p, dof, _ = chi2_contingency(table, correction=False, lambda_="log-likelihood")
        assert test.statistic == pytest.approx(g, rel=1e-12)
        assert test.pvalue == pytest.approx(p, rel=1e-10) and test.df == dof == 1
    assert both.statistic == pytest.approx(spec.statistic + sens.statistic)
    assert both.df == 2 and isinstance(both, HomogeneityTest)
    # identical strata: G = 0, p = 1
    same = judge_homogeneity({"x": CALS["short"], "y": CALS["short"]})
    assert same[2].statistic == pytest.approx(0, abs=1e-12) and same[2].pvalue == pytest.approx(1)
    # a perfect judge everywhere (0 log 0 = 0)
    perfect = judge_homogeneity({"x": C(tp=5, fn=0, tn=5, fp=0), "y": C(tp=7, fn=0, tn=3, fp=0)})
    assert perfect[2].statistic == 0


def test_diagnostics_wilson_intervals_mixes_and_unstratified():
    res = correct_stratified(TESTS, CALS, confidence_level=0.9)
    d = res.diagnostics
    assert isinstance(d, StrataDiagnostics)
    for s in TESTS:
        ref = binomtest(CALS[s].tn, CALS[s].m0).proportion_ci(0.9, method="wilson")
        assert tuple(d.specificity_ci[s]) == pytest.approx((ref.low, ref.high), abs=1e-12)
        ref = binomtest(CALS[s].tp, CALS[s].m1).proportion_ci(0.9, method="wilson")
        assert tuple(d.sensitivity_ci[s]) == pytest.approx((ref.low, ref.high), abs=1e-12)
    assert d.test_mix == {"short": 0.3, "long": 0.7}
    assert d.calibration_mix == {"short": 0.7, "long": 0.3}
    pooled = js.correct(  # the stratified correction's own method, named
        J(positive=740, n=1000), C(tp=183, fn=17, tn=73, fp=27), confidence_level=0.9,
        method="adjusted-wald",
    )
    assert res.unstratified == pooled and res.difference == res.estimate - pooled.estimate


# ----------------------------------------------------------------------------- sparse strata
def test_sparse_stratum_is_an_error_by_default_listing_every_sparse_stratum():
    tests = {**TESTS, "huge": J(positive=5, n=10), "tiny": J(positive=1, n=3)}
    cals = {**CALS, "huge": C(tp=9, fn=1, tn=4, fp=1), "tiny": C(tp=2, fn=0, tn=1, fp=0)}
    with pytest.raises(
        SparseStratumError,
        match=r"2 of 4 strata .*'huge' \(m0 = 5, m1 = 10\), 'tiny' \(m0 = 1, m1 = 2\).*merge",
    ) as err:
        correct_stratified(tests, cals)
    assert isinstance(err.value, CountError) and isinstance(err.value, JudgeStatsError)
    assert DEFAULT_MIN_PER_CLASS == 10


def test_min_per_class_can_be_lowered_explicitly():
    tests = {**TESTS, "rare": J(positive=5, n=10)}
    cals = {**CALS, "rare": C(tp=5, fn=1, tn=4, fp=1)}
    res = correct_stratified(tests, cals, min_per_class=5)
    assert res.k == 3 and res.min_per_class == 5 and not res.merged
    with pytest.raises(JudgeStatsError, match="min_per_class must be >= 1"):
        correct_stratified(TESTS, CALS, min_per_class=0)


def test_merge_mapping_adds_counts_and_is_recorded():
    tests = {**TESTS, "rare": J(positive=5, n=10)}
    cals = {**CALS, "rare": C(tp=5, fn=1, tn=4, fp=1)}
    res = correct_stratified(tests, cals, merge={"rare": "long"})
    assert res.strata == ("short", "long") and res.merged == {"rare": "long"}
    assert res["long"].test == J(positive=565, n=710)
    assert res["long"].calibration == C(tp=62, fn=4, tn=22, fp=13)
    assert "merged strata: 'rare' -> 'long'" in res.summary()
    # binning into a new label; chains resolve
    res = correct_stratified(tests, cals, merge={"rare": "long", "long": "any", "short": "any"})
    assert res.strata == ("any",) and res.merged == {"rare": "any", "long": "any", "short": "any"}
    # weights keyed by the original strata are summed through the merge
    res = correct_stratified(
        tests, cals, merge={"rare": "long"}, weights={"short": 0.5, "long": 0.3, "rare": 0.2}
    )
    assert res.weights == {"short": 0.5, "long": 0.5}


def test_merge_auto_moves_sparse_strata_into_the_largest():
    tests = {**TESTS, "rare": J(positive=5, n=10)}
    cals = {**CALS, "rare": C(tp=5, fn=1, tn=4, fp=1)}
    res = correct_stratified(tests, cals, merge="auto")
    assert res.merged == {"rare": "short"} and res.strata == ("short", "long")
    assert res["short"].n == 310
    res = correct_stratified(TESTS, CALS, merge="auto")
    assert res.merged == {}
    # all strata sparse and still sparse when merged: error
    small = {"a": C(tp=3, fn=1, tn=2, fp=1), "b": C(tp=3, fn=1, tn=2, fp=1)}
    with pytest.raises(SparseStratumError):
        correct_stratified({"a": J(positive=1, n=2), "b": J(positive=1, n=2)}, small, merge="auto")


def test_bad_merge():
    # a key naming no stratum is ignored (one mapping serves many data sets); a misspelt
    # merge of a sparse stratum is then caught by the sparse check
    assert correct_stratified(TESTS, CALS, merge={"lng": "short"}).merged == {}
    tests = {**TESTS, "rare": J(positive=5, n=10)}
    cals = {**CALS, "rare": C(tp=5, fn=1, tn=4, fp=1)}
    with pytest.raises(SparseStratumError, match="'rare'"):
        correct_stratified(tests, cals, merge={"rar": "long"})
    with pytest.raises(JudgeStatsError, match="cycle"):
        correct_stratified(TESTS, CALS, merge={"long": "short", "short": "long"})
    with pytest.raises(MethodError, match=r"merge \('yes'\) must be one of 'auto'"):
        correct_stratified(TESTS, CALS, merge="yes")
    with pytest.raises(ArgumentTypeError, match="merge must be"):
        correct_stratified(TESTS, CALS, merge=3)


def test_not_informative_stratum_is_named():
    cals = {**CALS, "long": C(tp=30, fn=30, tn=15, fp=15)}
    with pytest.raises(NotInformativeError, match="in stratum 'long'"):
        correct_stratified(TESTS, cals)


def test_bootstrap_undefined_replicates_warn():
    tests = {"a": J(positive=50, n=100), "b": J(positive=50, n=100)}
    cals = {"a": C(tp=7, fn=3, tn=6, fp=4), "b": C(tp=90, fn=10, tn=80, fp=20)}
    with pytest.warns(SamplingWarning) as record:
        res = correct_stratified(
            tests, cals, method="bootstrap", min_per_class=5, rng=1, n_resamples=2000
        )
    assert any("stratified bootstrap" in str(w.message) for w in record)
    assert res.ci.undefined > 0 and res.ci.n_resamples == 2000


# ----------------------------------------------------------------------------- bad input
def test_strata_present_on_one_side_only():
    with pytest.raises(
        StrataMismatchError, match=r"\['long'\] are in tests but not in calibrations"
    ):
        correct_stratified(TESTS, {"short": CALS["short"]})
    with pytest.raises(
        StrataMismatchError, match=r"\['long'\] are in calibrations but not in tests"
    ):
        correct_stratified({"short": TESTS["short"]}, CALS)
    with pytest.raises(StrataMismatchError, match="empty"):
        correct_stratified({}, CALS)


@pytest.mark.parametrize(
    ("weights", "exc", "match"),
    [
        (
            {"short": -0.2, "long": 1.2},
            WeightsError,
            r"weights\['short'\] must be a finite number >= 0, got -0.2",
        ),
        ({"short": 0.5, "long": 0.6}, WeightsError, r"must sum to 1.*got sum 1.1"),
        ({"short": float("nan"), "long": 1.0}, WeightsError, "got nan"),
        ({"short": 1.0}, StrataMismatchError, r"\['long'\] are in the data but not in weights"),
        ({"short": 0.5, "long": 0.5, "x": 0.0}, StrataMismatchError, r"\['x'\] are in weights"),
        ({"short": "half", "long": 0.5}, ArgumentTypeError, r"weights\['short'\]"),
        ("calibration", MethodError, r"weights \('calibration'\) must be one of 'test'"),
        ([0.3, 0.7], ArgumentTypeError, "weights must be 'test' or a mapping"),
    ],
)
def test_bad_weights(weights, exc, match):
    with pytest.raises(exc, match=match):
        correct_stratified(TESTS, CALS, weights=weights)
    assert issubclass(WeightsError, ProbabilityError)


def test_bad_arguments():
    with pytest.raises(ArgumentTypeError, match="tests must be a mapping"):
        correct_stratified([TESTS["short"]], CALS)
    with pytest.raises(
        ArgumentTypeError, match=r"calibrations\['long'\] must be a ConfusionCounts"
    ):
        correct_stratified(TESTS, {**CALS, "long": TESTS["long"]})
    with pytest.raises(ArgumentTypeError, match=r"tests\['short'\] holds a batch"):
        correct_stratified({**TESTS, "short": J(positive=[1, 2], n=10)}, CALS)
    with pytest.raises(MethodError, match=r"method 'profile-likelihood' is not available for "
                       r"stratified corrections with design='by-human-label'; available: "
                       r"'adjusted-wald', 'wald' or 'bootstrap'"):  # fmt: skip
        correct_stratified(TESTS, CALS, method="profile-likelihood")
    with pytest.raises(ArgumentTypeError, match="unexpected option"):
        correct_stratified(TESTS, CALS, n_resamples=100)
    with pytest.raises(ConfidenceLevelError):
        correct_stratified(TESTS, CALS, confidence_level=95)
    with pytest.raises(ArgumentTypeError, match="rng"):
        correct_stratified(TESTS, CALS, rng="seed")


# ----------------------------------------------------------------------------- from a frame
def _frame():
    rows = []
    for stratum, (n_test, pos, tp, fn, tn, fp) in {
        "long": (7, 5, 3, 1, 2, 2),
        "short": (3, 1, 4, 0, 3, 1),
    }.items():
        rows += [(stratum, 1, None)] * pos + [(stratum, 0, None)] * (n_test - pos)
        rows += [(stratum, 1, 1)] * tp + [(stratum, 0, 1)] * fn
        rows += [(stratum, 0, 0)] * tn + [(stratum, 1, 0)] * fp
    return pd.DataFrame(rows, columns=["length", "judge", "human"])


def test_stratified_counts_missing_human_marks_test_items():
    tests, cals = stratified_counts(_frame(), by="length")
    assert list(tests) == ["long", "short"]
    assert tests == {"long": J(positive=5, n=7), "short": J(positive=1, n=3)}
    assert cals == {"long": C(tp=3, fn=1, tn=2, fp=2), "short": C(tp=4, fn=0, tn=3, fp=1)}
    res = correct_stratified(tests, cals, min_per_class=2)
    assert res.strata == ("long", "short")


def test_stratified_counts_split_column_and_several_by_columns():
    df = _frame()
    df["split"] = np.where(df.human.isna(), "test", "calibration")
    df["human"] = df.human.fillna(1)  # hidden truth on test rows is ignored
    df["pos"] = np.arange(len(df)) % 2
    tests, cals = stratified_counts(df, by="length", split="split")
    assert tests == {"long": J(positive=5, n=7), "short": J(positive=1, n=3)}
    tests2, cals2 = stratified_counts(df, by=("length", "pos"), split="split")
    assert set(tests2) <= {("long", 0), ("long", 1), ("short", 0), ("short", 1)}
    assert sum(t.n for t in tests2.values()) == 10
    assert sum(c.m for c in cals2.values()) == sum(c.m for c in cals.values())
    tests3, cals3 = stratified_counts(df, by="length", split="split", merge={"short": "long"})
    assert tests3 == {"long": J(positive=6, n=10)} and cals3["long"].m == 16


def test_stratified_counts_errors():
    df = _frame()
    one_class = df[~((df.length == "short") & (df.human == 0))]
    with pytest.raises(
        SparseStratumError, match=r"'short' \(m0 = 0, m1 = 4\).*merge=\{stratum: other\}"
    ):
        stratified_counts(one_class, by="length")
    # the errors of the package's one frame-to-counts path (js.frames.group_counts)
    with pytest.raises(LabelError, match="group columns have missing values: 'length' on 1 row"):
        stratified_counts(df.assign(length=[None, *list(df.length[1:])]), by="length")
    with pytest.raises(LabelError, match="no test rows"):
        stratified_counts(df.dropna(), by="length")
    with pytest.raises(LabelError, match="no calibration rows"):
        stratified_counts(df[df.human.isna()], by="length")
    with pytest.raises(
        LabelError, match=r"split column must hold 'test' or 'calibration'.*values \('cal'\)"
    ):
        stratified_counts(df.assign(split="cal"), by="length", split="split")
    with pytest.raises(LabelError, match=r"judge column must hold 0/1.*values \(0\.5\)"):
        stratified_counts(df.assign(judge=0.5), by="length")
    with pytest.raises(LabelError, match=r"human column must hold 0/1.*values \(2\.0\)"):
        stratified_counts(df.assign(human=df.human.replace(1, 2)), by="length")
    with pytest.raises(LabelError, match=r"the frame has no column 'size' \(by=\)"):
        stratified_counts(df, by="size")
    with pytest.raises(ArgumentTypeError, match="by must be a column name"):
        stratified_counts(df, by=3)


# ----------------------------------------------------------------------------- result object
def test_result_object_layout():
    res = correct_stratified(TESTS, CALS)
    assert isinstance(res, StratifiedCorrection)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.estimate = 0.5
    assert (res.n, res.m0, res.m1, res.k) == (1000, 100, 200, 2)
    low, high = res.ci
    assert 0 <= low <= res.estimate <= high <= 1
    df = res.to_dataframe()
    assert list(df.kind) == ["stratum", "stratum", "pooled"]
    assert list(df.stratum) == ["short", "long", "pooled"]
    assert df.estimate.iloc[-1] == res.estimate and df.tp.iloc[-1] == 183
    assert df.unstratified_estimate.iloc[-1] == res.unstratified.estimate
    ds = res.to_xarray()
    assert ds.ci.dims == ("stratum", "ci_bound") and list(ds.ci_bound.values) == ["lower", "upper"]
    assert list(ds.stratum.values) == ["short", "long"]
    assert ds.attrs["ci_kind"] == "adjusted-wald" and ds.attrs["ci_prob"] == 0.95
    assert float(ds.pooled_estimate) == res.estimate
    assert (
        ds.specificity_ci.sel(stratum="long", ci_bound="upper")
        == res.diagnostics.specificity_ci["long"].high
    )
    text = res.summary()
    for piece in ("pooled", "unstratified", "likelihood-ratio", "short", "long", "95%"):
        assert piece in text
    assert "StratifiedCorrection(estimate=" in repr(res)
    d = res.to_dict()
    assert d["rows"][-1]["stratum"] == "pooled" and d["merged"] == {}


def test_xarray_coordinates_for_tuple_labels():
    tests = {("a", 1): TESTS["short"], ("b", 2): TESTS["long"]}
    cals = {("a", 1): CALS["short"], ("b", 2): CALS["long"]}
    ds = correct_stratified(tests, cals).to_xarray()
    assert list(ds.stratum.values) == ["('a', 1)", "('b', 2)"]


def test_confidence_interval_recomputes_the_pooled_interval():
    res = correct_stratified(TESTS, CALS)
    w = res.confidence_interval(method="wald", confidence_level=0.9)
    ref = correct_stratified(TESTS, CALS, method="wald", confidence_level=0.9)
    assert w == ref.ci and w.method == "wald"
    assert res.confidence_interval() == res.ci
    b = res.confidence_interval(method="bootstrap", rng=2, n_resamples=3000)
    assert b == res.confidence_interval(method="bootstrap", rng=2, n_resamples=3000)
    assert b.low == pytest.approx(res.ci.low, abs=0.03) and b.high == pytest.approx(
        res.ci.high, abs=0.03
    )
    given = correct_stratified(TESTS, CALS, weights={"short": 0.3, "long": 0.7})
    assert given.confidence_interval() == given.ci


def test_every_pooled_method_of_the_capability_table_has_an_implementation():
    """The table decides what a stratified correction allows; each method has its pieces."""
    from judgestats.designs import as_design
    from judgestats.designs.capabilities import methods_for, rows
    from judgestats.intervals import implementation
    from judgestats.strata.pooled import pooled_options

    pooled = [r for r in rows() if (r.judge, r.target) == ("letter", "pooled-rate")]
    assert {d for r in pooled for d in r.designs} == set(js.designs.design_names())
    for row in pooled:
        for name in row.designs:
            design = as_design(name)
            for repeated in (False, True) if row.repeated is None else (row.repeated,):
                per_stratum = methods_for("letter", "rate", design, repeated)
                for method in row.methods:
                    assert isinstance(pooled_options(design, method), tuple)
                    assert method in per_stratum  # each stratum's own correction
                    implementation(design, method)


def test_stratified_methods_is_deprecated_and_read_from_the_table():
    import judgestats.strata as strata
    import judgestats.strata.pooled as pooled
    from judgestats.designs.capabilities import methods_for

    for module in (strata, pooled):
        with pytest.warns(DeprecationWarning, match=r"methods_for\('letter', 'pooled-rate'"):
            value = module.STRATIFIED_METHODS
        assert value == methods_for("letter", "pooled-rate", "by-human-label")
        assert "STRATIFIED_METHODS" not in module.__all__
    with pytest.raises(AttributeError):
        strata.NO_SUCH_NAME  # noqa: B018


def test_recomputing_a_judge_conditional_pool_stays_judge_conditional():
    res = correct_stratified(TESTS, CALS, design="random")
    assert res.confidence_interval() == res.ci
    again = res.confidence_interval(method="wald", confidence_level=0.9)
    assert again == correct_stratified(TESTS, CALS, design="random", method="wald",
                                       confidence_level=0.9).ci  # fmt: skip
    with pytest.raises(MethodError, match="design='random'"):
        res.confidence_interval(method="bootstrap")
