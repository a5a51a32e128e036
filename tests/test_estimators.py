import warnings

import numpy as np
import pytest

import judgestats as js
from judgestats.estimators import ESTIMATORS, RAW_ESTIMATORS


def test_rogan_gladen_paper_formula():
    # eq. (7) by hand: (0.6 + 0.7 - 1) / (0.7 + 0.9 - 1) = 0.3 / 0.6
    assert js.rogan_gladen(0.6, 0.7, 0.9) == pytest.approx(0.5, abs=1e-15)
    assert isinstance(js.rogan_gladen(0.6, 0.7, 0.9), float)


def test_rogan_gladen_inverts_the_expected_judged_rate():
    # E[p] = (q0 + q1 - 1) theta + 1 - q0 (paper eq. (13))
    theta = np.linspace(0, 1, 11)
    q0, q1 = 0.7, 0.9
    p = (q0 + q1 - 1) * theta + 1 - q0
    np.testing.assert_allclose(js.rogan_gladen(p, q0, q1), theta, atol=1e-14)


def test_perfect_judge_returns_p():
    p = np.linspace(0, 1, 7)
    np.testing.assert_allclose(js.rogan_gladen(p, 1.0, 1.0), p, atol=0)


def test_five_estimators_by_hand():
    test = js.JudgedCounts(positive=450, n=1000)
    cal = js.ConfusionCounts(tp=72, fn=8, tn=84, fp=36)  # m1=80, m0=120, m=200
    p = 0.45
    assert js.estimators.naive(test) == p
    assert js.estimators.calibration_only(test, cal) == pytest.approx(80 / 200)
    assert js.estimators.prediction_powered(test, cal) == pytest.approx(p + (80 - 108) / 200)
    with pytest.warns(DeprecationWarning, match="js.estimators.prediction_powered"):
        assert js.estimators.difference(test, cal) == js.estimators.prediction_powered(test, cal)
    ppv, for_ = 72 / 108, 8 / 92
    assert js.estimators.conditional_calibration(test, cal) == pytest.approx(ppv * p + for_ * (1 - p))
    assert js.estimators.misclassification_adjusted(test, cal) == pytest.approx(
        (p + 0.7 - 1) / (0.7 + 0.9 - 1)
    )
    assert (
        set(ESTIMATORS)
        == set(RAW_ESTIMATORS)
        == {
            "naive",
            "calibration_only",
            "prediction_powered",
            "conditional_calibration",
            "misclassification_adjusted",
        }
    )


def test_misclassification_adjusted_equals_confusion_matrix_inverse():
    # paper appendix "Equivalence": first component of C^-1 (p, 1-p)
    test = js.JudgedCounts(positive=380, n=1000)
    cal = js.ConfusionCounts(tp=85, fn=15, tn=66, fp=34)
    q1, q0 = 0.85, 0.66
    c = np.array([[q1, 1 - q0], [1 - q1, q0]])
    theta = np.linalg.solve(c, [0.38, 0.62])
    assert js.estimators.misclassification_adjusted(test, cal) == pytest.approx(theta[0], abs=1e-14)
    assert theta.sum() == pytest.approx(1.0)


def test_conditional_calibration_undefined_when_judge_never_says_one():
    test = js.JudgedCounts(positive=10, n=100)
    cal = js.ConfusionCounts(tp=0, fn=20, tn=30, fp=0)
    with pytest.raises(js.errors.CountError, match=r"tp \+ fp = 0"):
        js.estimators.conditional_calibration(test, cal)


def test_estimators_warn_under_label_shift_but_rg_does_not():
    # calibration mix 20% positives, test's corrected rate 0.7
    test = js.JudgedCounts(positive=700, n=1000)
    cal = js.ConfusionCounts(tp=36, fn=4, tn=128, fp=32)  # q1 = .9, q0 = .8, m1/m = .2
    for f in (js.estimators.calibration_only, js.estimators.prediction_powered, js.estimators.conditional_calibration):
        with pytest.warns(js.LabelShiftWarning, match=f"{f.__name__} is biased"):
            f(test, cal)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        js.estimators.misclassification_adjusted(test, cal)
        js.estimators.naive(test, cal)
    diag = js.label_shift_test(test, cal)
    assert diag.calibration_rate == 0.2
    assert diag.test_rate == pytest.approx((0.7 + 0.8 - 1) / 0.7)
    assert diag.shifted and diag.z > 3


def test_no_label_shift_no_warning():
    test = js.JudgedCounts(positive=540, n=1000)
    cal = js.ConfusionCounts(tp=90, fn=10, tn=80, fp=20)  # RG = (0.54+0.8-1)/0.7 = 0.486
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        js.estimators.prediction_powered(test, cal)
    assert not js.label_shift_test(test, cal).shifted


def test_label_shift_z_by_hand():
    test = js.JudgedCounts(positive=600, n=1000)
    cal = js.ConfusionCounts(tp=54, fn=6, tn=112, fp=28)  # q1=.9, q0=.8, m1=60, m0=140
    th = (0.6 + 0.8 - 1) / 0.7
    var_p = (0.6 * 0.4 / 1000 + (1 - th) ** 2 * 0.8 * 0.2 / 140 + th**2 * 0.9 * 0.1 / 60) / 0.49
    var_q = 0.3 * 0.7 / 200
    z = (th - 0.3) / np.sqrt(var_p + var_q)
    diag = js.label_shift_test(test, cal)
    assert diag.z == pytest.approx(z, rel=1e-12)
    from statistics import NormalDist

    assert diag.pvalue == pytest.approx(2 * NormalDist().cdf(-abs(z)), rel=1e-9)


def test_estimator_bias_under_label_shift_by_simulation(rng):
    """Paper Figure 8, fast tier: theta_P = 0.5, theta_Q = 0.25, q0=.7, q1=.9.

    Expected biases (exact for the linear estimators): calibration-only theta_Q - theta_P =
    -0.25; difference (2 - q0 - q1)(theta_Q - theta_P) = 0.4 * -0.25 = -0.1; RG ~ 0.
    """
    reps, n, m = 4000, 1000, 200
    theta_p, theta_q, q0, q1 = 0.5, 0.25, 0.7, 0.9
    p = q1 * theta_p + (1 - q0) * (1 - theta_p)
    m1 = rng.binomial(m, theta_q, reps)
    m0 = m - m1
    tp = rng.binomial(m1, q1)
    tn = rng.binomial(m0, q0)
    test = js.JudgedCounts(positive=rng.binomial(n, p, reps), n=n)
    cal = js.ConfusionCounts(tp=tp, fn=m1 - tp, tn=tn, fp=m0 - tn)
    est = {k: f(test, cal) for k, f in RAW_ESTIMATORS.items()}
    se = {k: np.nanstd(v) / np.sqrt(reps) for k, v in est.items()}
    bias = {k: np.nanmean(v) - theta_p for k, v in est.items()}
    assert bias["calibration_only"] == pytest.approx(-0.25, abs=4 * se["calibration_only"])
    assert bias["prediction_powered"] == pytest.approx(-0.10, abs=4 * se["prediction_powered"])
    assert bias["naive"] == pytest.approx(p - theta_p, abs=4 * se["naive"])  # +0.1
    assert bias["conditional_calibration"] < -0.05  # biased toward theta_Q
    assert abs(bias["misclassification_adjusted"]) < 0.01  # RG: small-sample bias only
