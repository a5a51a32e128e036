"""Every formula in judgestats.kernels against an independent transcription or library.

The kernels are the one home of the paper's formulas (issue 16); each test recomputes the
quantity another way: scalar stdlib arithmetic, a numerical derivative, scipy or numpy.
"""

import math
from statistics import NormalDist

import numpy as np
import pytest
from scipy.stats import binom, chi2_contingency

from judgestats import kernels


def test_z_value_is_the_normal_quantile():
    for level in (0.5, 0.8, 0.9, 0.95, 0.99):
        assert kernels.z_value(level) == pytest.approx(NormalDist().inv_cdf(0.5 + level / 2))


def test_rogan_gladen_raw_and_clip_unit():
    # eq. (7) by hand; NaN where q0 + q1 <= 1
    assert kernels.rogan_gladen_raw(0.6, 0.7, 0.9) == pytest.approx((0.6 + 0.7 - 1) / 0.6)
    assert np.isnan(kernels.rogan_gladen_raw(0.6, 0.5, 0.5))
    clipped, out = kernels.clip_unit([-0.2, 0.3, 1.4, np.nan])
    np.testing.assert_array_equal(clipped[:3], [0.0, 0.3, 1.0])
    np.testing.assert_array_equal(out, [True, False, True, False])


def test_delta_variance_is_the_gradient_times_the_binomial_variances():
    """eq. (15) against a numerical gradient of the Rogan–Gladen ratio."""
    p, q0, q1, n, m0, m1 = 0.42, 0.81, 0.88, 700, 150, 90

    def rg(pp, a, b):
        return (pp + a - 1) / (a + b - 1)

    h = 1e-6
    grads = [
        (rg(p + h, q0, q1) - rg(p - h, q0, q1)) / (2 * h),
        (rg(p, q0 + h, q1) - rg(p, q0 - h, q1)) / (2 * h),
        (rg(p, q0, q1 + h) - rg(p, q0, q1 - h)) / (2 * h),
    ]
    variances = [p * (1 - p) / n, q0 * (1 - q0) / m0, q1 * (1 - q1) / m1]
    expected = sum(g * g * v for g, v in zip(grads, variances, strict=True))
    assert kernels.rogan_gladen_variance(p, q0, q1, n, m0, m1) == pytest.approx(expected, rel=1e-6)
    lo, hi = kernels.wald_bounds(p, q0, q1, n, m0, m1, 1.959963984540054)
    centre = rg(p, q0, q1)
    assert (lo, hi) == pytest.approx((centre - 1.96 * math.sqrt(expected),
                                      centre + 1.96 * math.sqrt(expected)), abs=1e-4)


def test_adjusted_parts_are_the_papers_add_two_quantities():
    z = 1.959963984540054
    parts = kernels.delta_parts(0.4, 0.7, 0.9, 1000, 200, 200, z)
    assert parts["p"] == pytest.approx((1000 * 0.4 + z * z / 2) / (1000 + z * z))
    assert parts["q0"] == pytest.approx((200 * 0.7 + 1) / 202)
    assert parts["q1"] == pytest.approx((200 * 0.9 + 1) / 202)
    th = (parts["p"] + parts["q0"] - 1) / (parts["q0"] + parts["q1"] - 1)
    assert parts["theta"] == pytest.approx(th)
    v0, v1 = parts["q0"] * (1 - parts["q0"]) / 202, parts["q1"] * (1 - parts["q1"]) / 202
    assert parts["shift"] == pytest.approx(2 * z * z * (-(1 - th) * v0 + th * v1))


def test_wilson_bounds_solve_the_score_equation():
    """The Wilson bounds are the two p with (k/m − p)² = z² p(1 − p)/m."""
    k, m, z = 37, 120, 1.644853626951472
    lo, hi = kernels.wilson_bounds(k, m, z)
    for p in (lo, hi):
        assert (k / m - p) ** 2 == pytest.approx(z * z * p * (1 - p) / m, rel=1e-9)
    assert lo < k / m < hi


def test_g_statistic_matches_scipy():
    table = np.array([[30, 5, 4], [6, 20, 17]])
    g, *_ = chi2_contingency(table, correction=False, lambda_="log-likelihood")
    assert kernels.g_statistic(table) == pytest.approx(g, rel=1e-12)


def test_draw_rates_are_binomial_rates():
    gen = np.random.default_rng(0)
    p_s, q0_s, q1_s = kernels.draw_rates(gen, 0.3, 0.8, 0.9, 500, 50, 40, (20000,))
    for draws, rate, size in ((p_s, 0.3, 500), (q0_s, 0.8, 50), (q1_s, 0.9, 40)):
        assert draws.mean() == pytest.approx(rate, abs=4 * math.sqrt(rate * (1 - rate) / size
                                                                     / 20000))
        assert draws.var() == pytest.approx(binom.var(size, rate) / size**2, rel=0.05)


def test_percentile_nan_last_is_numpy_linear_percentile():
    gen = np.random.default_rng(1)
    x = gen.normal(size=(101, 5))
    x[95:, 2] = np.nan  # a column with undefined replicates
    x.sort(axis=0)
    valid = np.sum(~np.isnan(x), axis=0)
    for q in (0.025, 0.5, 0.975):
        got = kernels.percentile_nan_last(x, valid, q)
        np.testing.assert_allclose(got, np.nanquantile(x, q, axis=0), rtol=1e-12)
