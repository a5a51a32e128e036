"""The stacked jury's logistic fit and its cross-fit (``judgestats.jury.stack``).

References: the penalised fit against scipy's general minimiser of the same penalised negative
log-likelihood (an independent computation); the planted-coefficient fit against the
coefficients that generated the data (tolerance from the Fisher information at n = 20,000).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from judgestats.jury.stack import RIDGE, cross_fit_stack, fit_logistic, predict_logistic


def _penalised_nll(beta, design, y, penalty):
    eta = design @ beta
    return float(np.sum(np.logaddexp(0.0, eta) - y * eta) + 0.5 * beta @ penalty @ beta)


def test_fit_is_the_penalised_maximum_likelihood():
    gen = np.random.default_rng(11)
    x = np.column_stack([gen.integers(0, 2, 300), gen.integers(0, 2, 300),
                         gen.normal(0, 2, 300)]).astype(float)  # fmt: skip
    eta = -0.5 + 1.5 * x[:, 0] + 0.7 * x[:, 1] + 0.4 * x[:, 2]
    y = (gen.random(300) < 1 / (1 + np.exp(-eta))).astype(float)
    beta, centre, scale = fit_logistic(x, y)
    design = np.column_stack([np.ones(300), (x - centre) / scale])
    penalty = np.diag([0.0, *[RIDGE * 300] * 3])
    ref = minimize(_penalised_nll, np.zeros(4), args=(design, y, penalty), method="BFGS",
                   options={"gtol": 1e-9})  # fmt: skip
    assert beta == pytest.approx(ref.x, abs=1e-4)


def test_planted_coefficients_are_recovered():
    gen = np.random.default_rng(12)
    n = 20_000
    x = gen.integers(0, 2, (n, 2)).astype(float)
    y = (gen.random(n) < 1 / (1 + np.exp(-(-1.0 + 2.0 * x[:, 0] + 0.5 * x[:, 1])))).astype(float)
    fit = cross_fit_stack(x[:10_000], y[:10_000], x[10_000:], np.arange(10_000), folds=5,
                          rng=gen)  # fmt: skip
    # s.e. of each coefficient at n = 10,000 is about 0.05: 4 s.e.
    assert fit.intercept == pytest.approx(-1.0, abs=0.2)
    assert fit.coefficients == pytest.approx([2.0, 0.5], abs=0.2)
    # the unlabelled rows' predictions are the five folds' average, near the truth
    truth = 1 / (1 + np.exp(-(-1.0 + x[10_000:] @ np.array([2.0, 0.5]))))
    assert np.abs(fit.unlabelled - truth).max() < 0.05


def test_separable_and_identical_judges_stay_finite():
    y = np.array([0, 1] * 50, dtype=float)
    x = np.column_stack([y, y])  # two identical judges that separate the labels
    model = fit_logistic(x, y)
    p = predict_logistic(model, x)
    assert np.all(np.isfinite(model[0]))
    assert model[0][1] == pytest.approx(model[0][2])  # the ridge splits the weight evenly
    assert np.all((p[y == 1] > 0.9) & (p[y == 1] <= 1.0)) and np.all(p[y == 0] < 0.1)
    constant = np.column_stack([y, np.ones(100)])  # a judge that always says 1
    assert fit_logistic(constant, y)[0][2] == 0.0
