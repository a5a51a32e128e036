import numpy as np
import pytest
from scipy.stats import binom

import judgestats as js
from judgestats import simulate
from judgestats.intervals import z_value


def test_draw_shapes_and_moments():
    sim = simulate.draw(
        theta=np.array([0.2, 0.6]), q0=0.7, q1=0.9, n=1000, m0=80, m1=120, reps=20_000, rng=3
    )
    assert sim.test.shape == (2, 20_000) and sim.calibration.shape == (2, 20_000)
    p = 0.9 * np.array([0.2, 0.6]) + 0.3 * np.array([0.8, 0.4])
    se = np.sqrt(p * (1 - p) / 1000 / 20_000)
    assert np.all(np.abs(sim.test.p_hat.mean(axis=1) - p) <= 5 * se)
    assert np.all(sim.calibration.m0 == 80) and np.all(sim.calibration.m1 == 120)
    assert sim.calibration.specificity.mean() == pytest.approx(
        0.7, abs=5 * np.sqrt(0.21 / 80 / 40_000)
    )


def test_draw_label_shift_randomises_the_class_split():
    sim = simulate.draw(
        theta=0.5, q0=0.7, q1=0.9, n=100, m0=100, m1=100, reps=20_000, theta_calibration=0.25, rng=4
    )
    m1 = sim.calibration.m1
    assert np.all(sim.calibration.m == 200)
    assert m1.mean() == pytest.approx(50, abs=5 * np.sqrt(200 * 0.25 * 0.75 / 20_000))
    assert m1.var() == pytest.approx(200 * 0.25 * 0.75, rel=0.05)


def test_draw_algorithm1_allocation_sums_and_floors():
    sim = simulate.draw(
        theta=np.linspace(0, 1, 5),
        q0=0.7,
        q1=0.9,
        n=1000,
        m0=100,
        m1=100,
        reps=2000,
        allocation="algorithm1",
        pilot=10,
        rng=5,
    )
    cal = sim.calibration
    assert np.all(cal.m == 200) and cal.m0.min() >= 10 and cal.m1.min() >= 10
    # at theta = 0 the judged rate p = 0.3 is small: most of the budget goes to human-0 items
    assert np.median(cal.m0[0]) > 150


def test_seeds_reproduce_and_differ():
    kw = dict(
        theta=[0.2, 0.5],
        q0=0.8,
        q1=0.85,
        n=500,
        m0=50,
        m1=50,
        reps=500,
        methods=["adjusted-wald", "bootstrap"],
        method_options={"bootstrap": {"n_resamples": 200}},
    )
    a = simulate.coverage(**kw, rng=11)
    b = simulate.coverage(**kw, rng=11)
    c = simulate.coverage(**kw, rng=12)
    assert a.equals(b)
    assert not a.equals(c)


def test_coverage_dims_coords_and_attrs():
    ds = simulate.coverage(
        theta=[0.1, 0.5, 0.9],
        q0=[0.7, 0.9],
        q1=0.9,
        n=1000,
        m0=100,
        m1=100,
        reps=300,
        methods=("adjusted-wald", "wald", "naive-wilson"),
        rng=0,
    )
    assert ds.coverage.dims == ("method", "theta", "q0")
    assert ds.coverage.shape == (3, 3, 2)
    assert list(ds.method.values) == ["adjusted-wald", "wald", "naive-wilson"]
    for v in ("coverage", "mean_length", "bias", "rmse", "undefined"):
        assert v in ds
    assert (
        ds.attrs["reps"] == 300 and ds.attrs["confidence_level"] == 0.95 and ds.attrs["n"] == 1000
    )


def test_engine_coverage_matches_exact_binomial_computation():
    """Perfect judge (q0 = q1 = 1): the naive Wilson interval's exact coverage is computable.

    Exact: sum over k of Bin(k; n, theta) * 1{theta in Wilson(k)}. The engine's Monte Carlo
    estimate must agree within 4 binomial standard errors.
    """
    n, theta, reps = 40, 0.3, 40_000
    k = np.arange(n + 1)
    z = z_value(0.95)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    exact = binom.pmf(k, n, theta)[(centre - half <= theta) & (theta <= centre + half)].sum()
    ds = simulate.coverage(
        theta=theta, q0=1.0, q1=1.0, n=n, m0=10, m1=10, reps=reps, methods="naive-wilson", rng=2
    )
    got = float(ds.coverage.squeeze())
    assert got == pytest.approx(exact, abs=4 * np.sqrt(exact * (1 - exact) / reps))


def test_undefined_replications_are_counted_not_dropped():
    kw = dict(theta=0.5, q0=0.6, q1=0.6, n=200, m0=10, m1=10, reps=3000)
    ds = simulate.coverage(**kw, methods=["adjusted-wald", "wald"], rng=8)
    sim = simulate.draw(**kw, rng=8)  # the same stream draws the same data first
    expected = np.mean(sim.calibration.specificity + sim.calibration.sensitivity <= 1)
    assert expected > 0.1
    np.testing.assert_allclose(ds.undefined.values.ravel(), expected, atol=1e-12)


def test_estimator_bias_paper_setting_matches_theory():
    ds = simulate.estimator_bias(reps=4000, rng=9)
    tq = ds.theta_calibration.values
    sd = ds.sd / np.sqrt(4000)
    # naive: (q0 + q1 - 1) theta_P + 1 - q0 - theta_P = 0.1 regardless of theta_Q
    np.testing.assert_allclose(
        ds.bias.sel(estimator="naive"), 0.1, atol=float(5 * sd.sel(estimator="naive").max())
    )
    np.testing.assert_allclose(
        ds.bias.sel(estimator="calibration_only"),
        tq - 0.5,
        atol=float(5 * sd.sel(estimator="calibration_only").max()),
    )
    np.testing.assert_allclose(
        ds.bias.sel(estimator="prediction_powered"),
        0.4 * (tq - 0.5),
        atol=float(5 * sd.sel(estimator="prediction_powered").max()),
    )
    assert np.all(np.abs(ds.bias.sel(estimator="misclassification_adjusted")) < 0.01)
    cc = ds.bias.sel(estimator="conditional_calibration").values
    assert cc[0] < -0.05 and cc[-1] > 0.05  # follows theta_Q
    assert float(ds.undefined.max()) == 0.0


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"reps": 0}, js.errors.CountError, r"reps must be >= 1"),
        ({"q0": 1.3}, js.errors.ProbabilityError, r"q0 must be a probability"),
        (
            {"theta": [0.2, 1.2]},
            js.errors.ProbabilityError,
            r"theta must be a probability.*1\.2 at index 1",
        ),
        ({"methods": ["exact"]}, js.errors.MethodError, r"method 'exact' is not available for simul"),
        ({"methods": []}, js.JudgeStatsError, r"at least one method"),
        ({"theta": [[0.1, 0.2]]}, js.JudgeStatsError, r"1-D array to sweep"),
        ({"allocation": "greedy"}, js.errors.MethodError, r"allocation"),
        ({"n": 0}, js.errors.CountError, r"n must be >= 1"),
    ],
)
def test_coverage_bad_input(kwargs, error, match):
    args = dict(theta=0.5, q0=0.7, q1=0.9, n=100, m0=20, m1=20, reps=10) | kwargs
    with pytest.raises(error, match=match):
        simulate.coverage(**args)


# ----------------------------------------------------------------------------- k categories
C3 = np.array([[0.8, 0.15, 0.05], [0.15, 0.7, 0.15], [0.05, 0.15, 0.8]])  # columns sum to 1


def test_draw_categories_moments_and_layout():
    theta = np.array([0.2, 0.5, 0.3])
    sim = simulate.draw_categories(theta=theta, confusion=C3, n=1000, m=300, reps=20_000, rng=1)
    assert sim.test.shape == (20_000, 3) and sim.calibration.shape == (20_000, 3, 3)
    assert np.all(sim.test.sum(axis=1) == 1000) and np.all(sim.calibration.sum(axis=(1, 2)) == 300)
    p = C3 @ theta
    se = np.sqrt(p * (1 - p) / 1000 / 20_000)
    assert np.all(np.abs(sim.test.mean(axis=0) / 1000 - p) <= 5 * se)
    # calibration columns are true classes: their totals follow theta, their rows C[:, b]
    cols = sim.calibration.sum(axis=1)
    assert np.all(np.abs(cols.mean(axis=0) / 300 - theta) <= 0.005)
    pooled = sim.calibration.sum(axis=0) / sim.calibration.sum(axis=(0, 1))
    np.testing.assert_allclose(pooled, C3, atol=0.005)


def test_draw_categories_stratified_calibration_and_shift():
    sim = simulate.draw_categories(
        theta=[0.2, 0.5, 0.3], confusion=C3, n=100, m=[40, 50, 60], reps=50, rng=2
    )
    np.testing.assert_array_equal(sim.calibration.sum(axis=1), np.tile([40, 50, 60], (50, 1)))
    shifted = simulate.draw_categories(
        theta=[0.2, 0.5, 0.3],
        confusion=C3,
        n=100,
        m=600,
        theta_calibration=[0.6, 0.2, 0.2],
        reps=4000,
        rng=3,
    )
    assert shifted.calibration.sum(axis=1)[:, 0].mean() / 600 == pytest.approx(0.6, abs=0.005)


def test_multiclass_delta_coverage_on_engine_data():
    from judgestats.multiclass import distribution_bounds

    theta = np.array([0.25, 0.35, 0.4])
    sim = simulate.draw_categories(
        theta=theta, confusion=C3, n=1000, m=[100, 100, 100], reps=2000, rng=4
    )
    b = distribution_bounds(sim.test, sim.calibration, method="adjusted-delta", confidence_level=0.95)
    ok = ~np.isnan(b.low).any(axis=-1)
    cover = ((b.low <= theta) & (theta <= b.high))[ok].mean(axis=0)
    assert np.all(cover >= 0.93), cover


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"confusion": [[0.8, 0.3], [0.2, 0.8]]}, r"column 1 sums to 1\.1"),
        ({"confusion": np.ones((2, 3)) / 2}, r"k x k matrix"),
        ({"theta": [0.5, 0.6]}, r"theta must be a distribution"),
        ({"m": [10, 10, 10]}, r"per-class sizes"),
    ],
)
def test_draw_categories_bad_input(kwargs, match):
    args = dict(theta=[0.5, 0.5], confusion=[[0.8, 0.3], [0.2, 0.7]], n=10, m=10, reps=2) | kwargs
    with pytest.raises(js.JudgeStatsError, match=match):
        simulate.draw_categories(**args)


# ----------------------------------------------------------------------------- strata
def test_draw_strata_covariate_shift_biases_pooling_but_not_stratifying():
    """Judge worse on long answers; test 70% long, calibration 30% long (issue 6 scenario)."""
    theta, q0, q1 = np.array([0.6, 0.4]), np.array([0.9, 0.65]), np.array([0.9, 0.75])
    sim = simulate.draw_strata(
        theta=theta,
        q0=q0,
        q1=q1,
        test_mix=[0.3, 0.7],
        calibration_mix=[0.7, 0.3],
        n=5000,
        m=2000,
        reps=2000,
        rng=5,
    )
    assert sim.valid.all() and sim.theta == pytest.approx(0.3 * 0.6 + 0.7 * 0.4)
    t, c = sim.tests, sim.calibrations
    per = (t.p_hat + c.specificity - 1) / (c.specificity + c.sensitivity - 1)
    stratified = (per * t.n).sum(axis=1) / t.n.sum(axis=1)
    pooled_p = t.positive.sum(axis=1) / t.n.sum(axis=1)
    q0u = c.tn.sum(axis=1) / c.m0.sum(axis=1)
    q1u = c.tp.sum(axis=1) / c.m1.sum(axis=1)
    unstratified = (pooled_p + q0u - 1) / (q0u + q1u - 1)
    se = stratified.std() / np.sqrt(2000)
    assert abs(stratified.mean() - sim.theta) < 4 * se + 0.002
    assert unstratified.mean() - sim.theta > 0.03  # biased by the calibration's stratum mix


def test_draw_strata_bad_input():
    with pytest.raises(js.JudgeStatsError, match=r"test_mix must sum to 1"):
        simulate.draw_strata(
            theta=[0.5, 0.5],
            q0=[0.8, 0.8],
            q1=[0.8, 0.8],
            test_mix=[0.5, 0.6],
            calibration_mix=[0.5, 0.5],
            n=10,
            m=10,
            reps=2,
        )
    with pytest.raises(js.JudgeStatsError, match=r"equal length"):
        simulate.draw_strata(
            theta=[0.5, 0.5],
            q0=[0.8],
            q1=[0.8, 0.8],
            test_mix=[0.5, 0.5],
            calibration_mix=[0.5, 0.5],
            n=10,
            m=10,
            reps=2,
        )


def test_coverage_progress_counts_every_cell_and_keeps_the_numbers(monkeypatch):
    """Issue 31 §2: the bar sat at 0/1 while one batch of cells ran, then jumped."""
    from judgestats import progress as prog

    updates: list[int] = []

    class Bar:  # records what tqdm would be told
        def __init__(self, total, **kwargs):
            self.total = total

        def update(self, k):
            updates.append(k)

        def close(self):
            updates.append(0)

    monkeypatch.setattr(prog, "_tqdm", lambda: Bar)
    monkeypatch.setattr(prog, "wanted", lambda enabled: bool(enabled))
    kw = dict(theta=[0.1, 0.5, 0.9], q0=[0.8, 0.95], q1=0.9, n=300, m0=30, m1=40, reps=200,
              methods=("adjusted-wald", "bootstrap", "profile-likelihood"),
              method_options={"bootstrap": {"n_resamples": 100}})  # fmt: skip
    shown = js.simulate.coverage(**kw, rng=7, progress=True)
    # six cells fit in one batch of draws; the bar still moves at every step of whole cells
    # (2,000 data sets a step: 10 cells of 200; here all 6), and closes
    assert updates == [6, 0]
    monkeypatch.setattr(simulate, "_STEP_ELEMENTS", 200)  # one cell of 200 data sets a step
    updates.clear()
    stepped = js.simulate.coverage(**kw, rng=7, progress=True)
    assert updates == [1] * 6 + [0]
    quiet = js.simulate.coverage(**kw, rng=7, progress=False)
    for v in ("coverage", "mean_length", "bias", "rmse", "undefined"):
        np.testing.assert_array_equal(shown[v].values, quiet[v].values)
        np.testing.assert_allclose(stepped[v].values, quiet[v].values, rtol=0, atol=1e-12)


def test_study_methods_are_the_capability_table_row_but_auto():
    """A study runs the rate path's methods of its design (each with its implementation) and
    the naive contrast; 'auto' chooses per data set and is refused."""
    from judgestats.designs import DESIGNS, as_design
    from judgestats.designs.capabilities import methods_for
    from judgestats.intervals import NAIVE, implementation

    for name in DESIGNS:
        design = as_design(name)
        methods, specs = simulate.study_specs(None, design=design, confidence_level=0.9,
                                              method_options=None, capability="tests")  # fmt: skip
        assert methods == (*(m for m in methods_for("letter", "rate", design) if m != "auto"),
                           NAIVE)  # fmt: skip
        for method, spec in zip(methods, specs, strict=True):
            assert (spec is None) == (method == NAIVE)
            if spec is not None:
                assert spec.design is design and spec.confidence_level == 0.9
                assert implementation(design, method).name == method
    args = dict(theta=0.5, q0=0.7, q1=0.9, n=100, m0=20, m1=20, reps=10)
    with pytest.raises(js.errors.MethodError, match="'auto' is not available for simulations"):
        simulate.coverage(**args, methods=("auto",))
    with pytest.raises(js.errors.ArgumentTypeError, match="unexpected option"):
        simulate.coverage(**args, methods=("wald",), method_options={"wald": {"n_resamples": 9}})
