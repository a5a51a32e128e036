"""js.compare.rank and kendall_tau: rankings of corrected rates (issue #9)."""

import matplotlib

matplotlib.use("Agg")  # no display in CI; set before pyplot is imported

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats

import judgestats as js
from judgestats import compare
from judgestats._validation import ModelKeyError
from tests.compare.test_differences import CAL_A
from tests.designs.test_estimator import CAL, TEST


# ----------------------------------------------------------------------------- ranking
def _leaderboard():
    tests = {
        "alpha": js.JudgedCounts(positive=700, n=1000),
        "beta": js.JudgedCounts(positive=610, n=1000),
        "gamma": js.JudgedCounts(positive=600, n=1000),
        "delta": js.JudgedCounts(positive=300, n=1000),
    }
    cals = {
        "alpha": js.ConfusionCounts(tp=90, fn=10, tn=80, fp=20),
        "beta": js.ConfusionCounts(tp=85, fn=15, tn=70, fp=30),
        "gamma": js.ConfusionCounts(tp=92, fn=8, tn=85, fp=15),
        "delta": js.ConfusionCounts(tp=80, fn=20, tn=90, fp=10),
    }
    return tests, cals


@pytest.mark.parametrize("method", ["bootstrap", "bayes"])
def test_rank_probabilities_sum_to_one_per_model_and_per_rank(method):
    tests, cals = _leaderboard()
    r = compare.rank(tests, cals, method=method, n_resamples=4000, draws=4000, rng=1)
    p = r.rank_probabilities
    assert p.shape == (4, 4)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(p.sum(axis=0), 1.0, atol=1e-12)
    off = ~np.eye(4, dtype=bool)
    np.testing.assert_allclose((r.pairwise + r.pairwise.T)[off], 1.0, atol=1e-12)
    assert np.isnan(np.diag(r.pairwise)).all()
    assert r.order[0] == "alpha" and r.order[-1] == "delta"
    assert p[r.models.index("delta"), 3] > 0.99 and r.prob_greater("alpha", "delta") > 0.99
    assert -1 <= r.expected_kendall_tau <= 1
    assert sum(r.expected_rank.values()) == pytest.approx(10.0)
    for m in r.models:
        assert r.ci[m].low <= r.estimate[m] <= r.ci[m].high
    assert r.method == method and r.confidence_level == 0.95


def test_rank_is_reproducible_and_matches_corrected_estimates():
    tests, cals = _leaderboard()
    r1 = compare.rank(tests, cals, n_resamples=2000, rng=7)
    r2 = compare.rank(tests, cals, n_resamples=2000, rng=7)
    np.testing.assert_array_equal(r1.rank_probabilities, r2.rank_probabilities)
    for m in tests:
        assert r1.estimate[m] == pytest.approx(js.correct(tests[m], cals[m]).estimate, abs=1e-15)
        assert r1.naive[m] == tests[m].p_hat


def test_rank_with_one_shared_calibration_keeps_the_naive_order():
    tests, _ = _leaderboard()
    r = compare.rank(tests, CAL_A, n_resamples=2000, rng=0)
    assert r.shared_calibration
    assert list(r.order) == sorted(tests, key=lambda k: -tests[k].p_hat)


def test_kendall_tau_agrees_with_scipy(rng):
    truth = np.array([0.3, 0.5, 0.5, 0.9, 0.1, 0.7])
    est = rng.integers(0, 4, size=(20, 6)).astype(float)  # many ties
    ours = compare.kendall_tau(truth, est)
    for row, tau in zip(est, ours, strict=True):
        ref = stats.kendalltau(truth, row).statistic
        if np.isnan(ref):
            assert np.isnan(tau)
        else:
            assert tau == pytest.approx(ref, abs=1e-12)


def test_ranking_presentation_and_plot():
    tests, cals = _leaderboard()
    r = compare.rank(tests, cals, n_resamples=1000, rng=0)
    df = r.to_dataframe()
    assert list(df.model) == list(r.order) and {"p_rank_1", "p_rank_4", "ci_low"} <= set(df.columns)
    pw = r.pairwise_dataframe()
    assert list(pw.index) == list(r.order)
    assert "expected Kendall" in r.summary() and "Ranking(" in repr(r)
    ax = r.plot()
    assert len(ax.get_yticklabels()) == 4
    plt.close("all")
    with pytest.raises(ModelKeyError, match="'omega' is not ranked"):
        r.prob_greater("alpha", "omega")


def test_rank_warns_about_undefined_bootstrap_replicates():
    tests, cals = _leaderboard()
    cals = {**cals, "beta": js.ConfusionCounts(tp=7, fn=3, tn=6, fp=4)}
    with pytest.warns(js.SamplingWarning, match="undefined"):
        r = compare.rank(tests, cals, n_resamples=2000, rng=1)
    assert r.undefined > 0 and "undefined" in r.summary()


def test_rank_bad_input_raises_named_errors():
    tests, cals = _leaderboard()
    missing = {k: v for k, v in cals.items() if k != "gamma"}
    with pytest.raises(ModelKeyError, match=r"calibrations has no entry for \['gamma'\]"):
        compare.rank(tests, missing)
    with pytest.raises(ModelKeyError, match=r"entries \['omega'\] that are not in tests"):
        compare.rank(tests, {**cals, "omega": CAL_A})
    with pytest.raises(ModelKeyError, match="at least 2 models"):
        compare.rank({"alpha": tests["alpha"]}, {"alpha": cals["alpha"]})
    with pytest.raises(js.errors.ArgumentTypeError, match="tests must be a mapping"):
        compare.rank([tests["alpha"], tests["beta"]], cals)
    with pytest.raises(
        js.errors.ArgumentTypeError, match=r"calibrations\['beta'\] must be a ConfusionCounts"
    ):
        compare.rank(tests, {**cals, "beta": tests["beta"]})
    with pytest.raises(js.errors.MethodError, match="'bootstrap' or 'bayes'"):
        compare.rank(tests, cals, method="adjusted-wald")
    with pytest.raises(js.JudgeStatsError, match="n_resamples must be >= 100"):
        compare.rank(tests, cals, n_resamples=10)
    with pytest.warns(DeprecationWarning, match=r"rank\(reps=...\) is deprecated"):
        old = compare.rank(tests, cals, reps=500, rng=3)
    assert old == compare.rank(tests, cals, n_resamples=500, rng=3) or old.estimate == (
        compare.rank(tests, cals, n_resamples=500, rng=3).estimate
    )
    with pytest.raises(js.errors.NotInformativeError, match="gamma"):
        compare.rank(tests, {**cals, "gamma": js.ConfusionCounts(tp=5, fn=5, tn=5, fp=5)})
    with pytest.raises(js.errors.ArgumentTypeError, match="priors"):
        compare.rank(tests, cals, priors=object())


def test_rank_under_a_design_draws_each_model_from_its_design():
    tests = {"a": TEST, "b": js.JudgedCounts(520, 1000), "c": js.JudgedCounts(300, 1000)}
    cals = {"a": CAL, "b": js.ConfusionCounts(tp=130, fn=20, tn=150, fp=40),
            "c": js.ConfusionCounts(tp=60, fn=20, tn=200, fp=40)}  # fmt: skip
    for method in ("bootstrap", "bayes"):
        r = js.compare.rank(tests, cals, design="random", method=method, n_resamples=4000,
                            draws=4000, rng=3)  # fmt: skip
        assert r.design == "random" and r.order == ("a", "b", "c")
        for k in tests:  # each model's interval from the draws ≈ its own design interval
            own = js.correct(tests[k], cals[k], design="random", method=method, rng=3)
            assert r.ci[k].low == pytest.approx(own.ci.low, abs=0.01)
            assert r.ci[k].high == pytest.approx(own.ci.high, abs=0.01)
        assert r.rank_probabilities[0, 0] > 0.8  # ≈ 0.90: a sits above b, far above c
    with pytest.raises(js.JudgeStatsError, match="a calibration set each"):
        js.compare.rank(tests, CAL, design="random")
