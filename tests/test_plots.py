import matplotlib

matplotlib.use("Agg")  # no display in CI; set before pyplot is imported

import matplotlib.pyplot as plt
import numpy as np
import pytest

from judgestats import plan, plots, simulate


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_width_vs_calibration_size_draws_balanced_and_adaptive_curves():
    ax = plots.width_vs_calibration_size(p_values=(0.3, 0.9), m_max=400)
    lines = ax.get_lines()
    assert len(lines) == 4
    bal = lines[0]
    m, w = bal.get_data()
    k = m // 2
    np.testing.assert_allclose(w, plan.interval_width(k, k, p=0.3, q0=0.7, q1=0.9))
    assert [ln.get_linestyle() for ln in lines] == ["--", "-", "--", "-"]
    # adaptive is not wider than balanced once m >= 30 (paper Figure size-and-ci-length); for
    # tiny m the rule's approximation (q~ near 1) fails and it can be wider
    big = m >= 30
    assert np.all(lines[1].get_data()[1][big] <= w[big] + 1e-12)
    assert np.any(lines[1].get_data()[1][big] < w[big] - 0.01)


def test_judge_regime_map_background_and_points():
    ax = plots.judge_regime_map(judges={"a": (0.95, 0.97), "b": (0.7, 0.9)}, resolution=51)
    mesh = ax.collections[0]
    arr = np.asarray(mesh.get_array()).reshape(51, 51)
    q = np.linspace(0.5, 1.0, 51)
    j, i = 45, 48  # q0 = q[45], q1 = q[48]
    r = plan.judge_vs_human(q[j], q[i])
    assert arr[i, j] == pytest.approx(0.0 if r is None else r.width, abs=1e-12)
    assert [t.get_text() for t in ax.texts] == ["a", "b"]


def test_coverage_and_bias_plots():
    ds = simulate.coverage(
        theta=[0.2, 0.5],
        q0=0.8,
        q1=0.9,
        n=500,
        m0=50,
        m1=50,
        reps=200,
        methods=["adjusted-wald", "naive-wilson"],
        rng=0,
    )
    ax = plots.coverage_plot(ds)
    assert len(ax.get_lines()) == 3  # two methods + the nominal line
    np.testing.assert_allclose(ax.get_lines()[0].get_data()[1], ds.coverage.values[0])
    eb = simulate.estimator_bias(reps=200, theta_calibration=[0.3, 0.5, 0.7], rng=0)
    ax = plots.estimator_bias_plot(eb)
    assert len(ax.get_lines()) == 6  # five estimators + zero line
