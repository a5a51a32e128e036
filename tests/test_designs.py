"""Calibration designs (issue 17): the judge-conditional estimator, its intervals, its posterior.

Independent references: the random design's maximum-likelihood estimate found by a numerical
optimiser in the paper's parameterisation (θ, q0, q1), where the calibration cells are
multinomial with probabilities (θq1, θ(1 − q1), (1 − θ)(1 − q0), (1 − θ)q0); the posterior
against Monte Carlo draws of the three Beta posteriors; coverage by simulation with a seeded
Generator (the full tier is benchmarks/bench_designs.py).
"""

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize

import judgestats as js
from judgestats.designs import DESIGNS, design_check, design_counts, judge_conditional
from judgestats.designs.posterior import design_posterior_bounds, judge_conditional_cdf
from judgestats.intervals import compute_bounds, interval_methods
from judgestats.kernels import judge_conditional_parts

TEST = js.JudgedCounts(positive=600, n=1000)
CAL = js.ConfusionCounts(tp=145, fn=15, tn=135, fp=45)  # 340 items, 160 of them human-1


def _draw_random(theta, q0, q1, n, m, reps, rng):
    """Random design: every item's (human, judge) pair from the same population."""
    pi = theta * q1 + (1 - theta) * (1 - q0)
    x = rng.binomial(n, pi, reps)
    cells = rng.multinomial(m, [theta * q1, theta * (1 - q1), (1 - theta) * (1 - q0),
                                (1 - theta) * q0], reps)
    tp, fn, fp, tn = cells.T
    return js.JudgedCounts(x, n), js.ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp)


def _draw_by_judge(theta, q0, q1, n, k1, k0, reps, rng):
    """By-judge-label design: k1 judge-1 and k0 judge-0 items, human labels drawn given those."""
    pi = theta * q1 + (1 - theta) * (1 - q0)
    ppv, for_ = theta * q1 / pi, theta * (1 - q1) / (1 - pi)
    x = rng.binomial(n, pi, reps)
    tp, fn = rng.binomial(k1, ppv, reps), rng.binomial(k0, for_, reps)
    return js.JudgedCounts(x, n), js.ConfusionCounts(tp=tp, fn=fn, tn=k0 - fn, fp=k1 - tp)


# ----------------------------------------------------------------------------- estimator
def test_kernel_against_a_transcription_of_the_formula():
    x, n, tp, k1, fn, k0 = 640, 1340, 145, 190, 15, 150
    pi, ppv, fo = x / n, tp / k1, fn / k0
    var = (ppv - fo) ** 2 * pi * (1 - pi) / n + pi**2 * ppv * (1 - ppv) / k1 + (
        1 - pi
    ) ** 2 * fo * (1 - fo) / k0
    parts = judge_conditional_parts(x, n, tp, k1, fn, k0, 0.0, adjusted=False)
    assert parts["theta"] == pytest.approx(pi * ppv + (1 - pi) * fo, rel=1e-14)
    assert parts["var"] == pytest.approx(var, rel=1e-14)
    z = 1.959963984540054
    adj = judge_conditional_parts(x, n, tp, k1, fn, k0, z)
    pt, pp, pf = (x + z * z / 2) / (n + z * z), (tp + 1) / (k1 + 2), (fn + 1) / (k0 + 2)
    assert adj["theta"] == pytest.approx(pt * pp + (1 - pt) * pf, rel=1e-14)
    assert adj["var"] == pytest.approx(
        (pp - pf) ** 2 * pt * (1 - pt) / (n + z * z)
        + pt**2 * pp * (1 - pp) / (k1 + 2)
        + (1 - pt) ** 2 * pf * (1 - pf) / (k0 + 2),
        rel=1e-14,
    )


def test_design_counts_say_where_pi_comes_from():
    assert [float(a) for a in design_counts(TEST, CAL, "random")] == [790, 1340, 145, 190, 15, 150]
    assert [float(a) for a in design_counts(TEST, CAL, "by-judge-label")] == [
        600, 1000, 145, 190, 15, 150
    ]


def test_by_judge_label_estimate_is_the_papers_conditional_calibration_estimator():
    est, inexact = judge_conditional(TEST, CAL, "by-judge-label")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", js.LabelShiftWarning)
        assert float(est) == pytest.approx(js.estimators.conditional_calibration(TEST, CAL), rel=1e-14)
    assert not inexact


@pytest.mark.parametrize(
    "test, cal",
    [
        (TEST, CAL),
        (js.JudgedCounts(37, 500), js.ConfusionCounts(tp=3, fn=2, tn=40, fp=5)),
        (js.JudgedCounts(930, 1000), js.ConfusionCounts(tp=50, fn=1, tn=3, fp=6)),
    ],
)
def test_random_design_estimate_is_the_maximum_likelihood_estimate(test, cal):
    """Maximise the random design's likelihood in the paper's parameters (θ, q0, q1)."""
    x, n = test.positive, test.n
    tp, fn, tn, fp = cal.tp, cal.fn, cal.tn, cal.fp

    def nll(v):
        th, q0, q1 = 1 / (1 + np.exp(-v))
        pi = th * q1 + (1 - th) * (1 - q0)
        return -(
            x * np.log(pi) + (n - x) * np.log(1 - pi) + tp * np.log(th * q1)
            + fn * np.log(th * (1 - q1)) + fp * np.log((1 - th) * (1 - q0))
            + tn * np.log((1 - th) * q0)
        )  # fmt: skip

    best = min(
        (minimize(nll, s, method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12,
                                                         "maxiter": 20000})
         for s in ([0, 1, 1], [1, 2, 0.5], [-1, 0.5, 2])),
        key=lambda r: r.fun,
    )  # fmt: skip
    theta_mle = 1 / (1 + np.exp(-best.x[0]))
    est = js.correct(test, cal, design="random").estimate
    assert est == pytest.approx(theta_mle, abs=2e-6)


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


# ----------------------------------------------------------------------------- intervals
def test_random_design_is_shorter_than_the_papers_interval_and_the_human_labels_alone():
    paper = js.correct(TEST, CAL)
    rnd = js.correct(TEST, CAL, design="random")
    lo, hi = js.kernels.wilson_bounds(CAL.m1, CAL.m, 1.959963984540054)
    assert rnd.ci.width < 0.65 * paper.ci.width  # 0.089 vs 0.151 here
    assert rnd.ci.width < 0.9 * (hi - lo)  # human labels only: Wilson 0.105
    assert rnd.design == "random" and paper.design == "by-human-label"
    assert rnd.estimator.startswith("judge-conditional")


@pytest.mark.parametrize("design", ["random", "by-judge-label"])
@pytest.mark.parametrize("method", ["adjusted-wald", "wald", "bootstrap", "bayes"])
def test_every_design_method_answers_and_contains_its_estimate(design, method):
    res = js.correct(TEST, CAL, design=design, method=method, rng=1)
    assert 0 <= res.ci.low <= res.estimate <= res.ci.high <= 1
    assert res.design == design and res.method == method
    assert res.ci.width == pytest.approx(0.09, abs=0.015)  # delta-method width 0.089


def _cover(d, theta, method, design, **kw):
    b = compute_bounds(d[0], d[1], method=method, confidence_level=0.95, design=design, **kw)
    return np.mean((b.low <= theta) & (theta <= b.high))


@pytest.mark.parametrize(
    "theta, q0, q1, n, m",
    [  # a grid corner each (bench_designs.py has the full grid) and cells drawn at random
        (0.02, 0.99, 0.99, 100_000, 20),
        (0.5, 0.99, 0.6, 100_000, 20),
        (0.9, 0.55, 0.55, 200, 50),
        (0.3, 0.8, 0.9, 5000, 200),
        *[
            (round(t, 3), round(s - q, 3), round(q, 3), int(n), int(m))
            for t, s, q, n, m in zip(
                *np.random.default_rng(17).uniform(
                    [0.02, 1.1, 0.55, 200, 20], [0.98, 1.9, 0.95, 20_000, 1000], (3, 5)
                ).T,
                strict=True,
            )
            if s - q < 1
        ],
    ],
)
def test_random_design_adjusted_wald_covers(theta, q0, q1, n, m):
    # 2,000 data sets: Monte Carlo s.e. ≈ 0.005 at 0.95; the bar is 0.93 per cell
    d = _draw_random(theta, q0, q1, n, m, 2000, np.random.default_rng(5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert _cover(d, theta, "adjusted-wald", "random") >= 0.925


@pytest.mark.parametrize(
    "theta, q0, q1, n, k1, k0",
    [(0.02, 0.99, 0.6, 100_000, 40, 10), (0.5, 0.6, 0.99, 100_000, 25, 25),
     (0.7, 0.9, 0.8, 1000, 100, 100), (0.1, 0.95, 0.95, 500, 10, 40)],
)  # fmt: skip
def test_by_judge_label_adjusted_wald_covers(theta, q0, q1, n, k1, k0):
    d = _draw_by_judge(theta, q0, q1, n, k1, k0, 2000, np.random.default_rng(6))
    assert _cover(d, theta, "adjusted-wald", "by-judge-label") >= 0.925


@pytest.mark.parametrize(
    "theta, q0, q1, n, m", [(0.3, 0.7, 0.9, 2000, 60), (0.98, 0.8, 0.8, 10_000, 20)]
)
def test_bayes_covers_in_the_random_design(theta, q0, q1, n, m):
    # 300 data sets (the quadrature takes ~3 ms each): s.e. ≈ 0.013. The second cell is where
    # flat priors covered 0.66 (bench_designs.py): Jeffreys' priors, the default, 0.93
    d = _draw_random(theta, q0, q1, n, m, 300, np.random.default_rng(8))
    assert _cover(d, theta, "bayes", "random") >= 0.9


# ----------------------------------------------------------------------------- guard rails
def test_random_design_warns_when_the_calibration_set_is_not_a_random_sample():
    # calibration balanced by human label (the paper's design) on a test set with θ ≈ 0.1:
    # its judge-positive rate (0.53) is far from the test set's (0.17)
    test = js.JudgedCounts(170, 1000)
    cal = js.ConfusionCounts(tp=90, fn=10, tn=85, fp=15)
    check = design_check(test, cal)
    assert check.calibration_rate == pytest.approx(105 / 200)
    assert not check.plausible
    with pytest.warns(js.DesignWarning, match=r"design='random' not credible.*0\.525"):
        res = js.correct(test, cal, design="random")
    assert res.design_check is check or res.design_check.pvalue == pytest.approx(check.pvalue)
    # a random-looking calibration set passes silently (filterwarnings = error)
    assert js.correct(TEST, CAL, design="random").design_check.plausible


def test_bad_designs_are_named_errors():
    with pytest.raises(js.errors.MethodError, match=r"design \('rnd'\) must be one of 'by-human-label', "
                       r"'random' or 'by-judge-label'"):  # fmt: skip
        js.correct(TEST, CAL, design="rnd")
    with pytest.raises(js.errors.MethodError, match=r"method 'profile-map' is not available for "
                       r"corrections with design='random'; available: 'adjusted-wald'"):  # fmt: skip
        js.correct(TEST, CAL, design="random", method="profile-map")
    no_judge1 = js.ConfusionCounts(tp=0, fn=10, tn=40, fp=0)
    with pytest.raises(js.errors.CountError, match=r"no calibration item has judge label 1 \(tp \+ fp"):
        js.correct(TEST, no_judge1, design="by-judge-label")
    with pytest.raises(js.errors.ArgumentTypeError, match=r"interval='hdi' is not available"):
        js.correct(TEST, CAL, design="random", method="bayes", interval="hdi")


def test_random_design_with_a_missing_judge_class_answers_and_warns():
    cal = js.ConfusionCounts(tp=0, fn=1, tn=19, fp=0)  # no judge-1 item among 20
    with pytest.warns(js.WeakCalibrationWarning, match=r"no calibration item has judge label 1"):
        res = js.correct(js.JudgedCounts(12, 400), cal, design="random")
    assert 0 <= res.ci.low <= res.estimate <= res.ci.high < 0.3
    res = js.correct(js.JudgedCounts(12, 400), cal, design="random", method="bayes")
    assert res.ci.high < 0.35


def test_the_result_names_its_design_everywhere():
    res = js.correct(TEST, CAL, design="by-judge-label")
    assert "design by-judge-label" in res.summary()
    assert "P(human 1 | judge 1) 0.7632" in res.summary()
    assert res.to_dataframe().loc[0, "design"] == "by-judge-label"
    assert res.to_xarray().attrs["design"] == "by-judge-label"
    assert "design='by-judge-label'" in repr(res)
    # recomputing keeps the design
    ci = res.confidence_interval("wald")
    assert ci.width == pytest.approx(js.correct(TEST, CAL, design="by-judge-label",
                                                method="wald").ci.width)  # fmt: skip
    assert set(interval_methods("by-judge-label")) == {"adjusted-wald", "wald", "bootstrap",
                                                        "bayes"}  # fmt: skip
    assert DESIGNS[0] == "by-human-label"


# ----------------------------------------------------------------------------- leaderboards
def test_evaluate_and_cli_take_the_design(tmp_path, capsys):
    import json

    import pandas as pd

    from judgestats.cli import main

    rng = np.random.default_rng(3)
    rows = []
    for model, theta in (("a", 0.6), ("b", 0.05)):
        human = rng.random(600) < theta
        judge = np.where(human, rng.random(600) < 0.9, rng.random(600) < 0.2)
        label = np.where(np.arange(600) < 40, human.astype(float), np.nan)  # 40 random items
        rows.append(pd.DataFrame({"model": model, "judge": judge.astype(int), "human": label}))
    frame = pd.concat(rows, ignore_index=True)
    # model b's 40 labelled items hold no human-1 item (θ = 0.05: probability 0.95^40 = 0.13)
    frame.loc[(frame.model == "b") & frame.human.notna(), "human"] = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", js.WeakCalibrationWarning)
        with pytest.raises(js.errors.EmptyGroupError, match="declare design='random'"):
            js.evaluate(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", js.WeakCalibrationWarning)
        ev = js.evaluate(frame, design="random")
    assert ev.design == "random"
    for g in ("a", "b"):
        c = ev[g]
        assert c.design == "random"
        test = js.JudgedCounts.from_labels(frame[(frame.model == g) & frame.human.isna()].judge)
        cal = frame[(frame.model == g) & frame.human.notna()]
        cal = js.ConfusionCounts.from_labels(human=cal.human.astype(int), judge=cal.judge)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", js.WeakCalibrationWarning)
            assert c.ci.low == pytest.approx(js.correct(test, cal, design="random").ci.low)
    path = tmp_path / "items.csv"
    frame.to_csv(path, index=False)
    assert main(["correct", "--positive", "600", "--n", "1000", "--tp", "145", "--fn", "15",
                 "--tn", "135", "--fp", "45", "--design", "by-judge-label", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["design"] == "by-judge-label"
    assert out["rows"][0]["estimate"] == pytest.approx(
        js.correct(TEST, CAL, design="by-judge-label").estimate
    )
    assert main(["correct", "--example", "nq301"]) == 0
    text = capsys.readouterr().out
    assert "95% CI (random design)" in text and "design by-human-label beside design random" in text


# ----------------------------------------------------------------------------- planning
def test_compare_designs_widths_are_the_intervals_at_the_expected_counts():
    p, q0, q1, m, n = 0.6, 0.75, 0.9, 200, 5000
    c = js.plan.compare_designs(p=p, q0=q0, q1=q1, m=m, n=n)
    theta = (p + q0 - 1) / (q0 + q1 - 1)
    ppv, fo = theta * q1 / p, theta * (1 - q1) / (1 - p)
    z = 1.959963984540054
    # random: k1 = m·p judge-1 items, π from n + m judged items (independent transcription)
    k1, k0, npi = m * p, m * (1 - p), n + m
    pt = (p * npi + z * z / 2) / (npi + z * z)
    pp, pf = (ppv * k1 + 1) / (k1 + 2), (fo * k0 + 1) / (k0 + 2)
    var = (pp - pf) ** 2 * pt * (1 - pt) / (npi + z * z) + pt**2 * pp * (1 - pp) / (k1 + 2) + (
        1 - pt
    ) ** 2 * pf * (1 - pf) / (k0 + 2)
    row = next(r for r in c.rows if r["design"] == "random")
    assert row["width"] == pytest.approx(2 * z * np.sqrt(var), rel=1e-12)
    # the paper's design, balanced: js.plan.interval_width
    row = next(r for r in c.rows if r["design"] == "by-human-label" and r["allocation"] ==
               "balanced")  # fmt: skip
    assert row["width"] == pytest.approx(js.plan.interval_width(100, 100, p=p, q0=q0, q1=q1,
                                                                n=n))  # fmt: skip
    # the Neyman split of the by-judge-label design: k1 ∝ p·√(PPV(1 − PPV))
    w1, w0 = p * np.sqrt(ppv * (1 - ppv)), (1 - p) * np.sqrt(fo * (1 - fo))
    row = next(r for r in c.rows if r["design"] == "by-judge-label" and r["allocation"] ==
               "optimal")  # fmt: skip
    assert row["split"][1] == round(m * w1 / (w0 + w1))
    assert c.best["design"] in ("random", "by-judge-label")
    assert row["width"] < c.human_only < min(r["width"] for r in c.rows
                                             if r["design"] == "by-human-label")  # fmt: skip


def test_random_design_never_loses_to_the_human_labels_asymptotically():
    """Law of total variance: E[Var(Z | Ẑ)] <= Var(Z), on a grid of (θ, q0, q1)."""
    th, q0, q1 = np.meshgrid(np.linspace(0.01, 0.99, 25), np.linspace(0.3, 0.99, 15),
                             np.linspace(0.3, 0.99, 15), indexing="ij")  # fmt: skip
    pi = th * q1 + (1 - th) * (1 - q0)
    ppv, fo = th * q1 / pi, th * (1 - q1) / (1 - pi)
    calib_part = pi * ppv * (1 - ppv) + (1 - pi) * fo * (1 - fo)  # × 1/m
    assert np.all(calib_part <= th * (1 - th) + 1e-15)
    assert js.plan.judge_vs_human(0.7, 0.9, design="random") == js.plan.Regime(0.0, 1.0)
    assert js.plan.judge_vs_human(0.7, 0.9) is None  # the paper's design: humans win


@pytest.mark.parametrize("design, allocation", [("random", "balanced"),
                                                ("by-judge-label", "optimal")])  # fmt: skip
def test_calibration_size_per_design_is_the_smallest(design, allocation):
    kw = dict(p=0.6, q0=0.75, q1=0.9, n=5000)
    plan = js.plan.calibration_size(0.1, design=design, allocation=allocation, **kw)
    assert plan.width <= 0.1 and plan.design == design
    c = js.plan.compare_designs(m=plan.m - 1, **kw)
    w = next(r["width"] for r in c.rows if r["design"] == design and r["allocation"] in
             (allocation, "-"))  # fmt: skip
    assert w > 0.1  # one item fewer misses the target
    paper = js.plan.calibration_size(0.1, **kw)
    assert plan.m < 0.45 * paper.m  # 224 vs 594 here
    with pytest.raises(js.JudgeStatsError, match="design='random' fixes no split"):
        js.plan.calibration_size(0.1, design="random", allocation="optimal", **kw)


def test_allocate_by_judge_uses_the_pilot():
    pilot = js.ConfusionCounts(tp=9, fn=1, tn=8, fp=2)
    a = js.plan.allocate_by_judge(200, p=0.3, pilot=pilot)
    ppv, fo = 10 / 13, 2 / 11  # (tp + 1)/(tp + fp + 2), (fn + 1)/(fn + tn + 2)
    w1, w0 = 0.3 * np.sqrt(ppv * (1 - ppv)), 0.7 * np.sqrt(fo * (1 - fo))
    assert a.k1 == round(200 * w1 / (w0 + w1)) and a.k0 == 200 - a.k1
    with pytest.raises(js.JudgeStatsError, match="at least the pilot's size 20"):
        js.plan.allocate_by_judge(10, p=0.3, pilot=pilot)


def test_compare_difference_under_a_design_is_mover_of_the_design_intervals():
    a, ca = TEST, CAL
    b, cb = js.JudgedCounts(520, 1000), js.ConfusionCounts(tp=130, fn=20, tn=150, fp=40)
    res = js.compare.difference(a, ca, b, cb, design="random")
    ra, rb = (js.correct(t, c, design="random") for t, c in ((a, ca), (b, cb)))
    est = ra.estimate - rb.estimate
    # MOVER (Zou & Donner 2008) from the two design intervals, transcribed
    low = est - np.hypot(ra.estimate - ra.ci.low, rb.ci.high - rb.estimate)
    high = est + np.hypot(ra.ci.high - ra.estimate, rb.estimate - rb.ci.low)
    assert (res.estimate, res.ci.low, res.ci.high) == pytest.approx((est, low, high), abs=1e-12)
    assert res.calibration_design == "random" and res.design == "independent calibrations"
    paper = js.compare.difference(a, ca, b, cb)
    assert res.ci.width < 0.7 * paper.ci.width
    with pytest.raises(js.JudgeStatsError, match="a calibration set each"):
        js.compare.difference(a, ca, b, shared_calibration=True, design="random")


# ----------------------------------------------------------------------------- strata
def test_stratified_design_pools_the_strata_by_the_judged_items_mix():
    tests = {"short": js.JudgedCounts(180, 300), "long": js.JudgedCounts(560, 700)}
    cals = {"short": js.ConfusionCounts(tp=26, fn=4, tn=15, fp=5),
            "long": js.ConfusionCounts(tp=57, fn=3, tn=8, fp=2)}  # fmt: skip
    res = js.correct_stratified(tests, cals, design="random")
    # transcription: per stratum the pseudo-count parts, weights (n_s + m_s)/N, mix term
    z = 1.959963984540054
    th, var, est, size = [], [], [], []
    for s in ("short", "long"):
        t, c = tests[s], cals[s]
        x, n = t.positive + c.tp + c.fp, t.n + c.m
        k1, k0 = c.tp + c.fp, c.fn + c.tn
        p, a, b = (x + z * z / 2) / (n + z * z), (c.tp + 1) / (k1 + 2), (c.fn + 1) / (k0 + 2)
        th.append(p * a + (1 - p) * b)
        var.append((a - b) ** 2 * p * (1 - p) / (n + z * z) + p**2 * a * (1 - a) / (k1 + 2)
                   + (1 - p) ** 2 * b * (1 - b) / (k0 + 2))  # fmt: skip
        est.append(js.correct(t, c, design="random").estimate)
        size.append(n)
    w = np.array(size) / sum(size)
    th, var = np.array(th), np.array(var)
    mix = np.sum(w * (th - w @ th) ** 2) / sum(size)
    half = z * np.sqrt(np.sum(w**2 * var) + mix)
    assert res.estimate == pytest.approx(w @ np.array(est), rel=1e-12)
    assert (res.ci.low, res.ci.high) == pytest.approx((w @ th - half, w @ th + half), rel=1e-12)
    assert res.design == "random" and res["long"].design == "random"
    one = js.correct_stratified({"a": tests["short"]}, {"a": cals["short"]}, design="random")
    assert one.ci.low == pytest.approx(js.correct(tests["short"], cals["short"],
                                                  design="random").ci.low)  # fmt: skip
    with pytest.raises(js.JudgeStatsError, match="merge='auto'"):
        js.correct_stratified(tests, cals, design="random", merge="auto")
    with pytest.raises(js.errors.MethodError, match="not available for stratified corrections with"):
        js.correct_stratified(tests, cals, design="random", method="bootstrap")


def test_stratified_random_design_covers_when_the_judge_differs_by_stratum():
    # two strata: the judge is strict on one and lenient on the other; a random calibration
    # sample of the population; 1,000 data sets (MC s.e. ≈ 0.007)
    rng = np.random.default_rng(21)
    hit, reps = 0, 1000
    strata = [(0.6, 0.3, 0.95, 0.7), (0.4, 0.8, 0.7, 0.9)]  # (share, θ_s, q0_s, q1_s)
    theta = sum(w * t for w, t, _, _ in strata)
    for _ in range(reps):
        tests, cals = {}, {}
        for i, (share, t, q0, q1) in enumerate(strata):
            n, m = rng.binomial(3000, share), rng.binomial(150, share)
            (test,), (cal,) = (
                [js.JudgedCounts(rng.binomial(n, t * q1 + (1 - t) * (1 - q0)), n)],
                [js.ConfusionCounts(*rng.multinomial(
                    m, [t * q1, t * (1 - q1), (1 - t) * q0, (1 - t) * (1 - q0)]))],
            )  # fmt: skip
            tests[i], cals[i] = test, cal
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = js.correct_stratified(tests, cals, design="random")
        hit += r.ci.low <= theta <= r.ci.high
    assert hit / reps >= 0.93


def test_rank_under_a_design_draws_each_model_from_its_design():
    tests = {"a": TEST, "b": js.JudgedCounts(520, 1000), "c": js.JudgedCounts(300, 1000)}
    cals = {"a": CAL, "b": js.ConfusionCounts(tp=130, fn=20, tn=150, fp=40),
            "c": js.ConfusionCounts(tp=60, fn=20, tn=200, fp=40)}  # fmt: skip
    for method in ("bootstrap", "bayes"):
        r = js.compare.rank(tests, cals, design="random", method=method, n_resamples=4000,
                            draws=4000, rng=3)  # fmt: skip
        assert r.design == "random" and r.order == ("a", "b", "c")
        for k in tests:  # each model's interval from the draws ≈ its own design interval
            own = js.correct(tests[k], cals[k], design="random", method=method, rng=3)
            assert r.ci[k].low == pytest.approx(own.ci.low, abs=0.01)
            assert r.ci[k].high == pytest.approx(own.ci.high, abs=0.01)
        assert r.rank_probabilities[0, 0] > 0.8  # ≈ 0.90: a sits above b, far above c
    with pytest.raises(js.JudgeStatsError, match="a calibration set each"):
        js.compare.rank(tests, CAL, design="random")


# ----------------------------------------------------------------------------- k categories
def test_k_category_design_reduces_to_the_binary_one_at_k_2():
    from judgestats.multiclass import CategoryCounts, ConfusionMatrix

    t = CategoryCounts([400, 600], labels=[0, 1])  # judge 0 / judge 1 counts
    c = ConfusionMatrix([[CAL.tn, CAL.fn], [CAL.fp, CAL.tp]], labels=[0, 1])  # rows = judge
    for design in ("random", "by-judge-label"):
        res = js.correct_distribution(t, c, design=design)
        ref = js.correct(TEST, CAL, design=design)
        assert res.estimate[1] == pytest.approx(ref.estimate, rel=1e-12)
        assert (res.ci[1].low, res.ci[1].high) == pytest.approx((ref.ci.low, ref.ci.high),
                                                                rel=1e-12)  # fmt: skip
        assert res.design == design and res.to_xarray().attrs["design"] == design
        assert "judge-conditional, design" in res.summary()
        wald = res.confidence_interval("wald")[1]  # recomputed under the same design
        ref_wald = js.correct(TEST, CAL, design=design, method="wald").ci
        assert (wald.low, wald.high) == pytest.approx((ref_wald.low, ref_wald.high), rel=1e-12)


def test_k_category_design_takes_a_missing_human_class_and_refuses_a_missing_judge_letter():
    from judgestats.multiclass import CategoryCounts, ConfusionMatrix

    labels = ["win", "tie", "lose"]
    t = CategoryCounts([430, 380, 190], labels=labels)
    no_lose = ConfusionMatrix([[40, 6, 0], [8, 30, 0], [2, 4, 0]], labels=labels)  # no human lose
    with pytest.warns(js.DesignWarning):  # its judge mix (46/38/6) is no random sample's
        res = js.correct_distribution(t, no_lose, design="random")
    assert sum(res.estimate.values()) == pytest.approx(1.0)
    assert res.estimate["lose"] == 0.0 and res.ci["lose"].high > 0  # not a zero-width interval
    with pytest.raises(js.errors.CountError, match="no calibration items with human label 'lose'"):
        js.correct_distribution(t, no_lose)  # the paper's design needs every column
    no_tie_letter = ConfusionMatrix([[40, 6, 2], [0, 0, 0], [2, 4, 33]], labels=labels)
    with pytest.raises(js.errors.CountError, match="judge label 'tie' has none"):
        js.correct_distribution(t, no_tie_letter, design="by-judge-label")


def test_k_category_random_design_covers():
    # K = 3, random calibration samples of 150 from the population; 1,000 data sets
    rng = np.random.default_rng(33)
    theta = np.array([0.5, 0.3, 0.2])
    conf = np.array([[0.8, 0.15, 0.05], [0.2, 0.7, 0.1], [0.05, 0.15, 0.8]])  # P(judge|human)
    joint = theta[:, None] * conf  # (human, judge)
    pi = joint.sum(axis=0)
    from judgestats.multiclass import CategoryCounts, ConfusionMatrix

    hits = np.zeros(3)
    for _ in range(1000):
        t = CategoryCounts(rng.multinomial(2000, pi), labels=[0, 1, 2])
        cells = rng.multinomial(150, joint.ravel()).reshape(3, 3)  # (human, judge)
        with warnings.catch_warnings():  # the design check's 1% false alarms at α = 0.01
            warnings.simplefilter("ignore", js.DesignWarning)
            res = js.correct_distribution(t, ConfusionMatrix(cells.T, labels=[0, 1, 2]),
                                          design="random")  # fmt: skip
        hits += [res.ci[k].low <= theta[k] <= res.ci[k].high for k in range(3)]
    assert (hits / 1000 >= 0.93).all(), hits / 1000


def test_k_category_random_design_checks_the_judge_label_mix():
    from judgestats.designs import design_check_categories
    from judgestats.multiclass import CategoryCounts, ConfusionMatrix

    labels = ["win", "tie", "lose"]
    t = CategoryCounts([430, 380, 190], labels=labels)
    # calibration with a judge-label mix like the test set's: silent (filterwarnings = error)
    like = ConfusionMatrix([[40, 6, 2], [8, 30, 5], [2, 4, 13]], labels=labels)
    res = js.correct_distribution(t, like, design="random")
    assert res.design_check.plausible
    # chosen per human label, the judge's mix differs: DesignWarning
    skewed = ConfusionMatrix([[5, 2, 1], [3, 5, 2], [2, 3, 47]], labels=labels)
    check = design_check_categories(t.counts, skewed.counts)
    from scipy.stats import chi2_contingency

    table = np.array([t.counts, skewed.counts.sum(axis=1)])
    g, p, _, _ = chi2_contingency(table, lambda_="log-likelihood", correction=False)
    assert (check.z, check.pvalue) == pytest.approx((g, p), rel=1e-10)  # scipy's G test
    with pytest.warns(js.DesignWarning, match="judge-label mix differs"):
        js.correct_distribution(t, skewed, design="random")
