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
    """Notebook 06's figure: raw identifiers in the legend, and θ_P read from a stale attribute."""
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


# --- one kind of object (issue 38 §2: plots returned Axes, one a Figure) -------------------
def _plot_defs() -> set[str]:
    """Every plotting function or method defined in the package: its module and name."""
    import ast
    from pathlib import Path

    root = Path(plots.__file__).parent
    found = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and (
                node.name == "plot" or node.name.startswith("plot_") or node.name.endswith("_plot")
            ):  # fmt: skip
                found.add(f"{path.relative_to(root).with_suffix('')}.{node.name}".replace("/", "."))
    return found


def test_every_plot_of_the_package_returns_matplotlib_axes_and_draws_on_a_given_one():
    import pandas as pd
    from matplotlib.axes import Axes

    import judgestats as js
    from judgestats.pairwise.figure import plot_pairwise
    from tests.pairwise.test_leaderboard import simulate as pairs

    rng = np.random.default_rng(38)
    n = 1600  # 400 labelled items per model: no weak-calibration warning
    truth = rng.random(n) < 0.4
    frame = pd.DataFrame({
        "model": np.where(np.arange(n) % 2 == 0, "a", "b"),
        "judge": np.where(truth, rng.random(n) < 0.9, rng.random(n) < 0.1).astype(int),
        "human": np.where(rng.random(n) < 0.5, truth.astype(float), np.nan),
    })  # fmt: skip
    ev = js.evaluate(frame, rank=True, rank_resamples=200, rng=0, method="adjusted-wald")
    card = js.agreement(js.ConfusionCounts(tp=40, fn=5, tn=50, fp=5))
    mon = js.sequential.Monitor(design="random", rng=0).set_pool(
        pd.DataFrame({"item": np.arange(200), "judge": rng.integers(0, 2, 200)}), item="item")
    mon.update(mon.next_batch(40).assign(human=rng.integers(0, 2, 40)))
    board = js.pairwise(pairs(rng, np.array([0.5, 0.0, -0.5]), n=900, labelled=0.3), rng=0)
    cov = simulate.coverage(theta=[0.3], q0=0.8, q1=0.9, n=200, m0=30, m1=30, reps=50,
                            methods=["adjusted-wald"], rng=0, progress=False)  # fmt: skip
    bias = simulate.estimator_bias(reps=50, theta_calibration=[0.5], rng=0)
    calls = {  # name -> draw (ax=None: a new figure; else on the given Axes)
        "plots.coverage_plot": lambda ax: plots.coverage_plot(cov, ax=ax),
        "plots.estimator_bias_plot": lambda ax: plots.estimator_bias_plot(bias, ax=ax),
        "report.figure.plot_leaderboard": lambda ax: js.report.plot_leaderboard(ev, ax=ax),
        "evaluate.evaluation.plot": lambda ax: ev.plot(ax=ax),
        "compare.rankings.plot_ranking": lambda ax: js.compare.plot_ranking(ev.ranking, ax=ax),
        "compare.rankings.plot": lambda ax: ev.ranking.plot(ax=ax),
        "agreement.measures.plot": lambda ax: card.plot(ax=ax),
        "sequential.monitor.plot": lambda ax: mon.plot(ax=ax),
        "pairwise.leaderboard.plot": lambda ax: board.plot(ax=ax),
        "pairwise.figure.plot_pairwise": lambda ax: plot_pairwise(board, ax=ax),
    }
    assert set(calls) == _plot_defs()  # a new plot joins this test
    for name, draw in calls.items():
        new = draw(None)
        assert isinstance(new, Axes), (name, type(new))
        _, axes = plt.subplots(1, 2)
        given = tuple(axes) if name.startswith("pairwise.") else axes[0]
        assert draw(given) is axes[0], name
        plt.close("all")
    for draw in (plots.width_vs_calibration_size, plots.judge_regime_map,
                 lambda: plots.design_widths(p=0.3, q0=0.8, q1=0.9)):  # fmt: skip
        assert isinstance(draw(), Axes)
