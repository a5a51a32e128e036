import dataclasses
import warnings

import numpy as np
import pandas as pd
import pytest

import judgestats as js

TEST = js.JudgedCounts(positive=600, n=1000)
CAL = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)


def test_correct_default_is_paper_method_and_reference_value():
    res = js.correct(TEST, CAL)
    assert res.method == "adjusted-wald" and res.confidence_level == 0.95
    assert res.estimate == pytest.approx(0.5, abs=1e-15)
    # issue #2 reference: p=.6, q0=.7, q1=.9, n=1000, m0=m1=100
    assert res.ci.low == pytest.approx(0.3935389644723897, abs=1e-12)
    assert res.ci.high == pytest.approx(0.6032632459388532, abs=1e-12)
    low, high = res.ci
    assert (low, high) == (res.ci.low, res.ci.high)
    assert res.naive == 0.6 and res.sensitivity == 0.9 and res.specificity == 0.7
    assert (res.n, res.m0, res.m1) == (1000, 100, 100)
    assert res.clipped is False and res.calibration_rate == 0.5


def test_result_is_frozen():
    res = js.correct(TEST, CAL)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.estimate = 0.3
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.ci.low = 0.0


def test_confidence_interval_recomputes_by_another_method_and_level():
    res = js.correct(TEST, CAL)
    w = res.confidence_interval(method="wald", confidence_level=0.9)
    assert (w.method, w.confidence_level) == ("wald", 0.9)
    assert (w.low, w.high) == pytest.approx(
        js.wald_interval(0.6, 0.7, 0.9, 1000, 100, 100, confidence_level=0.9)
    )
    a = res.confidence_interval(confidence_level=0.99)
    assert a.width > res.ci.width
    b1 = res.confidence_interval(method="bootstrap", rng=3, n_resamples=2000)
    b2 = res.confidence_interval(method="bootstrap", rng=3, n_resamples=2000)
    assert b1 == b2 and b1.n_resamples == 2000 and b1.undefined == 0
    # bootstrap and adjusted-Wald agree to within Monte Carlo + method differences here
    assert b1.low == pytest.approx(res.ci.low, abs=0.02)
    assert b1.high == pytest.approx(res.ci.high, abs=0.02)


def test_correct_with_bootstrap_stores_method():
    res = js.correct(
        TEST,
        CAL,
        method="bootstrap",
        confidence_level=0.9,
        rng=np.random.default_rng(0),
        n_resamples=500,
    )
    assert res.method == "bootstrap" and res.ci.method == "bootstrap"
    assert res.confidence_level == 0.9 and res.ci.n_resamples == 500


def test_bootstrap_reports_undefined_replicates_and_warns():
    # weak judge with small m: some resamples have q0* + q1* <= 1
    test = js.JudgedCounts(positive=50, n=100)
    cal = js.ConfusionCounts(tp=7, fn=3, tn=6, fp=4)  # q0 + q1 = 1.3, m0 = m1 = 10
    with pytest.warns(js.SamplingWarning, match=r"of 3000 bootstrap replicates were undefined"):
        res = js.correct(test, cal, method="bootstrap", rng=1, n_resamples=3000)
    # independent count of undefined replicates with the same stream
    g = np.random.default_rng(1)
    g.binomial(100, 0.5, size=(3000, 1))
    q0s = g.binomial(10, 0.6, size=(3000, 1)) / 10
    q1s = g.binomial(10, 0.7, size=(3000, 1)) / 10
    assert res.ci.undefined == int(np.sum(q0s + q1s <= 1))
    assert res.ci.undefined > 0
    assert "undefined" in res.summary()


def test_to_dataframe_one_tidy_row():
    df = js.correct(TEST, CAL).to_dataframe()
    assert isinstance(df, pd.DataFrame) and len(df) == 1
    row = df.iloc[0]
    assert row["estimate"] == pytest.approx(0.5)
    assert row["ci_low"] == pytest.approx(0.3935389644723897, abs=1e-12)
    assert row["method"] == "adjusted-wald" and row["n"] == 1000 and row["tp"] == 90


def test_to_xarray_follows_arviz_layout():
    ds = js.correct(TEST, CAL, confidence_level=0.9).to_xarray()
    assert list(ds["ci"].dims) == ["ci_bound"]
    assert list(ds["ci_bound"].values) == ["lower", "upper"]
    assert ds.attrs["ci_kind"] == "adjusted-wald" and ds.attrs["ci_prob"] == 0.9
    lo, hi = js.adjusted_wald_interval(0.6, 0.7, 0.9, 1000, 100, 100, confidence_level=0.9)
    np.testing.assert_allclose(ds["ci"].values, [lo, hi], atol=1e-15)
    assert float(ds["estimate"]) == pytest.approx(0.5)


def test_summary_and_repr_mention_the_numbers():
    res = js.correct(TEST, CAL)
    text = res.summary()
    assert "0.5000" in text and "[0.3935, 0.6033]" in text and "adjusted-wald" in text
    assert "95%" in text
    r = repr(res)
    assert r.startswith("Correction(estimate=0.5000, ci=[0.3935, 0.6033]")


def test_correct_from_labels_end_to_end(rng):
    theta, q0, q1 = 0.3, 0.8, 0.9
    z_test = rng.random(20_000) < theta
    judge_test = np.where(z_test, rng.random(z_test.size) < q1, rng.random(z_test.size) > q0)
    z_cal = rng.random(2000) < theta
    judge_cal = np.where(z_cal, rng.random(z_cal.size) < q1, rng.random(z_cal.size) > q0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = js.correct(
            js.JudgedCounts.from_labels(judge_test),
            js.ConfusionCounts.from_labels(human=z_cal, judge=judge_cal),
        )
    assert res.ci.low < theta < res.ci.high
    assert abs(res.naive - theta) > 0.08  # naive is biased: E[p] = .7*.3 + .2 = .41
    assert res.estimate == pytest.approx(theta, abs=0.03)
