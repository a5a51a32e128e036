"""The prediction-powered Davidson fit per row, with style controls (pairwise.row_powered)."""

from __future__ import annotations

import numpy as np
import pytest

import judgestats as js
from judgestats.pairwise.counting import PAIR_COLUMNS, count_pairs
from judgestats.pairwise.prediction_powered import (
    _letter_prediction,
    fit_prediction_powered,
    label_probabilities,
)
from judgestats.pairwise.predictor import cross_fitted_prediction
from judgestats.pairwise.row_powered import fit_row_powered
from judgestats.pairwise.rows import read_rows, row_request
from tests.pairwise._style_data import VERDICTS, style_pairs


def _rows(frame, cluster=None, **request):
    names = {**PAIR_COLUMNS, "position": "position" if "position" in frame else None}
    req = row_request(request.get("prediction"), request.get("covariates"),
                      request.get("control"), lambda c: c == "p_a")  # fmt: skip
    return read_rows(frame, names, req, cluster), req


@pytest.mark.parametrize("clustered", [False, True])
def test_with_the_judge_letter_prediction_the_row_fit_is_the_count_fit(clustered):
    # Independent computation: the count path (pseudo-counts per ordered pair) solves the same
    # equation when every row's prediction is its letter's calibration distribution.
    rng = np.random.default_rng(7)
    frame, _ = style_pairs(rng, n=2500, delta=0.0)
    frame["position"] = np.where(rng.random(len(frame)) < 0.5, "a", "b")
    frame["prompt"] = rng.integers(0, 600, len(frame))
    cluster = "prompt" if clustered else None
    counts = count_pairs(frame, position="position", cluster=cluster)
    ref = fit_prediction_powered(counts)
    rows, _ = _rows(frame, cluster)
    f = _letter_prediction(counts)[0][rows.judge]
    inverse_pi = 1.0 / label_probabilities(counts)[rows.judge]
    fit = fit_row_powered(rows.first, rows.second, rows.human, f, inverse_pi,
                          models=rows.models, units=rows.cluster)  # fmt: skip
    np.testing.assert_allclose(fit.strength, ref.strength, atol=1e-9)
    np.testing.assert_allclose(fit.lam, ref.lam, atol=1e-9)
    np.testing.assert_allclose(fit.strength_covariance(), ref.strength_covariance(), atol=1e-12)


def test_turning_every_pair_round_leaves_the_leaderboard_unchanged():
    # model_a <-> model_b with position "b": the same pairs shown the same way, so the verdicts,
    # P(a) and the control differences must be turned back exactly.
    frame, _ = style_pairs(np.random.default_rng(3), n=800)
    frame = frame.assign(p_a=np.round(frame["p_a"], 3))
    swap = {"a": "b", "b": "a", "tie": "tie"}
    turned = frame.assign(
        model_a=frame["model_b"], model_b=frame["model_a"], position="b",
        judge=frame["judge"].map(swap), j2=frame["j2"].map(swap), p_a=1.0 - frame["p_a"],
        len_diff=-frame["len_diff"], human=frame["human"].map(swap),
    )  # fmt: skip
    kw = {"prediction": ["judge", "j2", "p_a"], "control": "len_diff", "rng": 0}
    one = js.pairwise(frame, **kw)
    two = js.pairwise(turned, position="position", **kw)
    np.testing.assert_allclose(two.strength, one.strength, atol=1e-9)
    np.testing.assert_allclose(two.control_coefficient, one.control_coefficient, atol=1e-9)
    np.testing.assert_allclose(two.control_ci, one.control_ci, atol=1e-9)


def test_style_control_covers_the_coefficient_and_the_net_strengths():
    # Fast tier of benchmarks/bench_pairwise_style.py: 30 seeded data sets of 1,500 pairs (5
    # models, 20% labelled, jury of two, δ = 0.5 per sd of length difference).
    rng = np.random.default_rng(2026)
    hits_delta, hits_beta, estimates = [], [], []
    for _ in range(30):
        frame, beta = style_pairs(rng, n=1500)
        rows, req = _rows(frame, prediction=["judge", "j2"], control="len_diff")
        counts = count_pairs(frame)
        f, _ = cross_fitted_prediction(rows, False, rng)
        inverse_pi = np.full(rows.first.size, 1.0 / label_probabilities(counts)[0])
        fit = fit_row_powered(rows.first, rows.second, rows.human, f, inverse_pi,
                              models=rows.models, controls=rows.controls,
                              control_names=req.controls)  # fmt: skip
        z = 1.959964
        se_d = np.sqrt(fit.control_covariance[0, 0])
        hits_delta.append(abs(fit.control_coefficient[0] - 0.5) < z * se_d)
        se_b = np.sqrt(np.diag(fit.strength_covariance())[:5])
        hits_beta.extend(np.abs(fit.strength - beta) < z * se_b)
        estimates.append(fit.control_coefficient[0])
    assert np.mean(hits_delta) >= 0.85  # 95% nominal; 30 data sets (binomial sd 0.04)
    assert np.mean(hits_beta) >= 0.90  # 150 strengths pooled
    spread = np.std(estimates, ddof=1) / np.sqrt(len(estimates))
    assert abs(np.mean(estimates) - 0.5) < 3.0 * spread  # unbiased within 3 standard errors


def test_without_controls_the_control_fields_are_none_and_with_them_named():
    frame, _ = style_pairs(np.random.default_rng(5), n=2500)
    plain = js.pairwise(frame, covariates="noise", rng=0)
    assert plain.controls == () and plain.control_coefficient is None
    assert plain.covariates == ("noise",) and "covariates ['noise']" in plain.prediction
    styled = js.pairwise(frame, control=["len_diff", "noise"], rng=0)
    assert styled.controls == ("len_diff", "noise") and styled.control_ci.shape == (2, 2)
    assert styled.control_ci[0, 0] > 0.2 and styled.control_ci[1, 0] < 0 < styled.control_ci[1, 1]
    assert "Style controls (log-odds per unit of model_a minus b" in styled.summary()
    assert f"{styled.control_coefficient[0]:>8.3f}" in styled.summary()
    ds = styled.to_xarray()
    assert list(ds["control"].values) == ["len_diff", "noise"]
    np.testing.assert_allclose(ds["control_ci"].values, styled.control_ci)


def test_a_constant_control_is_refused_by_name():
    frame, _ = style_pairs(np.random.default_rng(5), n=600)
    with pytest.raises(js.errors.NotInformativeError, match="flat"):
        js.pairwise(frame.assign(flat=1.0), control="flat", rng=0)


def test_verdicts_are_the_simulators_alphabet():
    from judgestats.pairwise.counting import HUMAN_VERDICTS

    assert tuple(VERDICTS) == HUMAN_VERDICTS
