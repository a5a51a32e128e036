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


def test_width_vs_calibration_size_draws_balanced_and_algorithm_1_curves():
    ax = plots.width_vs_calibration_size(p_values=(0.3, 0.9), m_max=400)
    lines = ax.get_lines()
    assert len(lines) == 4
    bal = lines[0]
    m, w = bal.get_data()
    k = m // 2
    np.testing.assert_allclose(w, plan.interval_width(k, k, p=0.3, q0=0.7, q1=0.9))
    assert [ln.get_linestyle() for ln in lines] == ["--", "-", "--", "-"]
    # one name per allocation (notebook 05, the plan API): the solid line is Algorithm 1's rule
    assert [ln.get_label() for ln in lines[:2]] == ["p̂ = 0.3, balanced", "p̂ = 0.3, Algorithm 1's rule"]
    # Algorithm 1's rule is not wider than balanced once m >= 30 (paper Figure 3); for
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


def test_estimator_bias_plot_divides_by_the_test_rate_and_names_estimators_in_words():
    """Notebook 08's (strata) figure: raw identifiers in the legend, and θ_P read from a stale attribute."""
    eb = simulate.estimator_bias(theta=0.4, reps=50, theta_calibration=[0.2, 0.6], rng=0)
    ax = plots.estimator_bias_plot(eb)
    np.testing.assert_allclose(ax.get_lines()[0].get_xdata(), [0.2 / 0.4, 0.6 / 0.4])
    names = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "misclassification-adjusted (Rogan–Gladen)" in names
    assert not any("_" in n for n in names)
    assert "θ_P = 0.4" in ax.get_xlabel()


def test_regime_map_labels_do_not_overlap_and_every_judge_is_on_the_axes():
    """Notebook 05's map: close judges' labels overprinted and q1 = 0.349 fell off the axes."""
    judges = {f"judge-{i}": (0.70 + 0.004 * i, 0.80 + 0.003 * i) for i in range(8)}
    judges["weak"] = (0.93, 0.349)
    fig, ax = plt.subplots(figsize=(6, 5))
    plots.judge_regime_map(judges=judges, resolution=41, ax=ax)
    from matplotlib.text import Text

    renderer = fig.canvas.get_renderer()
    boxes = [Text.get_window_extent(t, renderer) for t in ax.texts]  # text only, not leaders
    assert len(boxes) == len(judges)
    overlaps = sum(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
    assert overlaps == 0
    assert ax.get_ylim()[0] < 0.349


def test_coverage_plot_draws_the_monte_carlo_band():
    ds = simulate.coverage(theta=[0.2, 0.5], q0=0.8, q1=0.9, n=500, m0=50, m1=50, reps=400,
                           methods=["adjusted-wald"], rng=0)  # fmt: skip
    ax = plots.coverage_plot(ds)
    band = [p for p in ax.patches if "Monte Carlo" in p.get_label()]
    assert len(band) == 1
    box = band[0].get_bbox()  # axhspan: a rectangle in (axes x, data y)
    half = 2 * np.sqrt(0.95 * 0.05 / 400)  # ds.attrs["reps"] = 400
    assert box.y0 == pytest.approx(0.95 - half) and box.y1 == pytest.approx(0.95 + half)


def test_design_widths_lines_are_told_apart():
    ax = plots.design_widths(p=0.3, q0=0.8, q1=0.9, m_values=(50, 200))
    styles = {(ln.get_marker(), ln.get_linestyle()) for ln in ax.get_lines()[:3]}
    assert len(styles) == 3
