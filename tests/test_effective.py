"""effective_labels = θ̂(1 − θ̂)/Var(θ̂) on every rate result (issue 39), against hand computations.

Each reference variance is computed here from its formula (paper eq. (8); the judge-conditional
three binomials with Agresti–Caffo pseudo-counts; the width of the interval), not read back from
the package's own kernels.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import judgestats as js
from judgestats.effective import interval_variance

Z95 = 1.959963984540054  # Φ⁻¹(0.975)
TEST = js.JudgedCounts(positive=600, n=1000)
CAL = js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60)


def _eq8_variance(x, n, tp, fn, tn, fp, z):
    """Eq. (8)'s variance written out: adjusted p̃, q̃0, q̃1, at θ̃."""
    m0, m1 = tn + fp, tp + fn
    n_t = n + z * z
    p = (x + z * z / 2) / n_t
    q0, q1 = (tn + 1) / (m0 + 2), (tp + 1) / (m1 + 2)
    den = q0 + q1 - 1
    theta = (p + q0 - 1) / den
    bracket = p * (1 - p) / n_t + (1 - theta) ** 2 * q0 * (1 - q0) / (m0 + 2) \
        + theta**2 * q1 * (1 - q1) / (m1 + 2)
    return bracket / den**2


def test_adjusted_wald_uses_eq8_variance():
    res = js.correct(TEST, CAL, method="adjusted-wald", confidence_level=0.95)
    var = _eq8_variance(600, 1000, 180, 20, 140, 60, Z95)
    assert res.effective_labels == pytest.approx(0.5 * 0.5 / var, rel=1e-9)
    # the interval is θ̃ + dθ̃ ± z·se, untruncated here: its half-width is z·√var
    assert (res.ci.high - res.ci.low) / 2 == pytest.approx(Z95 * math.sqrt(var), rel=1e-9)
    assert interval_variance(res.test, res.calibration, res.ci)[1] == "delta method"


def test_wald_uses_eq15_variance():
    res = js.correct(TEST, CAL, method="wald", confidence_level=0.9)
    p, q0, q1 = 0.6, 0.7, 0.9
    theta = (p + q0 - 1) / (q0 + q1 - 1)
    var = (p * (1 - p) / 1000 + (1 - theta) ** 2 * q0 * (1 - q0) / 200
           + theta**2 * q1 * (1 - q1) / 200) / (q0 + q1 - 1) ** 2
    assert res.effective_labels == pytest.approx(theta * (1 - theta) / var, rel=1e-9)


def test_random_design_uses_the_three_binomials_with_pseudo_counts():
    res = js.correct(TEST, CAL, design="random", method="adjusted-wald", confidence_level=0.95)
    z2 = Z95**2
    # π from all judged items (the test's and the calibration's), PPV and FOR from the
    # calibration's judge classes; Agresti–Caffo: x + z²/2 of n + z², one success and failure
    x, n = 600 + 240, 1000 + 400
    pi = (x + z2 / 2) / (n + z2)
    ppv, fo = (180 + 1) / (240 + 2), (20 + 1) / (160 + 2)
    var = ((ppv - fo) ** 2 * pi * (1 - pi) / (n + z2) + pi**2 * ppv * (1 - ppv) / 242
           + (1 - pi) ** 2 * fo * (1 - fo) / 162)
    est = res.estimate
    assert res.effective_labels == pytest.approx(est * (1 - est) / var, rel=1e-9)
    # a judge this good makes 400 labels worth more than 400 (the "300 worth 540")
    assert res.effective_labels > 400


def test_an_interval_without_a_variance_gives_the_width_implied_one():
    res = js.correct(TEST, js.ConfusionCounts(tp=45, fn=5, tn=35, fp=15),
                     method="profile-map", confidence_level=0.95)
    var = ((res.ci.high - res.ci.low) / (2 * Z95)) ** 2
    est = res.estimate
    assert res.effective_labels == pytest.approx(est * (1 - est) / var, rel=1e-9)
    assert interval_variance(res.test, res.calibration, res.ci)[1] == "width-implied"


def test_repeated_items_count_independent_items():
    rng = np.random.default_rng(5)
    items = np.repeat(np.arange(150), 4)
    truth = np.repeat(rng.random(150) < 0.4, 4).astype(int)
    judge = np.where(rng.random(600) < 0.85, truth, 1 - truth)
    cal_rows = np.arange(600) < 240
    test = js.JudgedCounts.from_labels(judge[~cal_rows], cluster=items[~cal_rows])
    cal = js.ConfusionCounts.from_labels(human=truth[cal_rows], judge=judge[cal_rows],
                                         cluster=items[cal_rows])
    res = js.correct(test, cal, method="adjusted-wald", confidence_level=0.95)
    var = ((res.ci.high - res.ci.low) / (2 * Z95)) ** 2
    assert res.effective_labels == pytest.approx(res.estimate * (1 - res.estimate) / var)
    # four identical rows per item: worth no more than the 60 calibration items' labels
    # would be with a perfect judge, far below the 240 rows
    assert res.effective_labels < 240


def test_summary_and_dict_show_it_and_none_at_the_boundary():
    res = js.correct(TEST, CAL, method="adjusted-wald", confidence_level=0.95)
    assert f"effective labels     {res.effective_labels:.0f}" in res.summary()
    assert res.to_dict()["effective_labels"] == pytest.approx(res.effective_labels)
    assert js.results.effective_labels(0.0, 0.01) is None
    assert js.results.effective_labels(0.3, 0.0) is None


def test_evaluate_rows_and_the_stratified_pool_have_it():
    import pandas as pd

    rng = np.random.default_rng(3)
    truth = rng.random(2400) < 0.5
    judge = np.where(rng.random(2400) < 0.8, truth, ~truth).astype(int)
    human = np.where(np.arange(2400) % 2 == 0, truth.astype(float), np.nan)
    frame = pd.DataFrame({"model": np.repeat(["a", "b"], 1200), "judge": judge, "human": human})
    ev = js.evaluate(frame, method="adjusted-wald")
    for group in ev.groups:
        c, k = ev[group], ev[group].calibration
        var = _eq8_variance(c.test.positive, c.test.n, k.tp, k.fn, k.tn, k.fp, Z95)
        assert c.effective_labels == pytest.approx(c.estimate * (1 - c.estimate) / var)
    tests = {"a": js.JudgedCounts(positive=600, n=1000), "b": js.JudgedCounts(positive=800, n=1000)}
    cals = {"a": js.ConfusionCounts(tp=180, fn=20, tn=160, fp=40),
            "b": js.ConfusionCounts(tp=190, fn=10, tn=120, fp=80)}
    st = js.correct_stratified(tests, cals, method="adjusted-wald", confidence_level=0.95)
    var = ((st.ci.high - st.ci.low) / (2 * Z95)) ** 2
    assert st.effective_labels == pytest.approx(st.estimate * (1 - st.estimate) / var)
