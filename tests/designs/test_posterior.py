"""The exact posterior under the random and by-judge-label designs (judgestats.designs.posterior),
against Monte Carlo draws of the three Beta posteriors.
"""

import numpy as np
import pytest

import judgestats as js
from judgestats.designs import design_counts
from judgestats.designs.posterior import design_posterior_bounds, judge_conditional_cdf
from tests.designs.test_estimator import CAL, TEST


# ----------------------------------------------------------------------------- posterior
@pytest.mark.parametrize("design", ["random", "by-judge-label"])
@pytest.mark.parametrize(
    "test, cal",
    [
        (TEST, CAL),
        (js.JudgedCounts(5, 200), js.ConfusionCounts(tp=0, fn=0, tn=19, fp=1)),  # one class
        (js.JudgedCounts(90_000, 100_000), js.ConfusionCounts(tp=15, fn=2, tn=2, fp=1)),
        (js.JudgedCounts(30, 100_000), js.ConfusionCounts(tp=3, fn=40, tn=400, fp=1)),
    ],
)
def test_posterior_quantiles_match_monte_carlo(test, cal, design):
    b = design_posterior_bounds(test, cal, design, 0.95, point="median")
    x, n, tp, k1, fn, k0 = (float(a) for a in design_counts(test, cal, design))
    rng = np.random.default_rng(2026)
    draws = 1_000_000
    a = 0.5  # Jeffreys' prior, the default
    pi = rng.beta(x + a, n - x + a, draws)
    th = pi * rng.beta(tp + a, k1 - tp + a, draws) + (1 - pi) * rng.beta(fn + a, k0 - fn + a,
                                                                         draws)  # fmt: skip
    # Monte Carlo s.e. of a 2.5% quantile at 10^6 draws: ≈ 0.016 sd(θ); 5 s.e. allowed
    tol = 5 * 0.016 * th.std()
    q = np.quantile(th, [0.025, 0.975, 0.5])
    np.testing.assert_allclose([b.low, b.high, b.estimate], q, atol=tol)
    mean = design_posterior_bounds(test, cal, design, 0.95, point="mean").estimate
    assert mean == pytest.approx(th.mean(), abs=5 * th.std() / np.sqrt(draws))
    # the distribution function at its own quantiles
    np.testing.assert_allclose(
        judge_conditional_cdf(test, cal, design, [b.low, b.high]), [0.025, 0.975], atol=1e-9
    )


def test_posterior_is_batched():
    tests = js.JudgedCounts([600, 5], [1000, 200])
    cals = js.ConfusionCounts(tp=[145, 0], fn=[15, 0], tn=[135, 19], fp=[45, 1])
    batch = design_posterior_bounds(tests, cals, "random", 0.9)
    for i in range(2):
        one = design_posterior_bounds(
            js.JudgedCounts(tests.positive[i], tests.n[i]),
            js.ConfusionCounts(tp=cals.tp[i], fn=cals.fn[i], tn=cals.tn[i], fp=cals.fp[i]),
            "random", 0.9,
        )  # fmt: skip
        assert batch.low[i] == pytest.approx(float(one.low), abs=1e-12)
        assert batch.high[i] == pytest.approx(float(one.high), abs=1e-12)
