"""js.agreement: the judge-agreement card (issue 30 §2)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

import judgestats as js
from judgestats.agreement.measures import (
    MIN_KAPPA_MARGIN,
    coefficient,
    coefficient_bounds,
)
from judgestats.kernels import clopper_pearson_bounds

CAL = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)


def test_clopper_pearson_matches_scipy_binomtest():
    # independent implementation: scipy's binomtest(...).proportion_ci(method="exact")
    for k, m in [(0, 7), (3, 10), (10, 10), (57, 200)]:
        ref = binomtest(k, m).proportion_ci(0.9, method="exact")
        low, high = clopper_pearson_bounds(k, m, 0.9)
        assert low == pytest.approx(ref.low, abs=1e-12)
        assert high == pytest.approx(ref.high, abs=1e-12)


def test_binary_rates_and_intervals():
    card = js.agreement(CAL, design="random", confidence_level=0.95)
    assert card.sensitivity.estimate == pytest.approx(0.9)
    assert card.specificity.estimate == pytest.approx(0.7)
    assert card.ppv.estimate == pytest.approx(90 / 120)
    assert card.npv.estimate == pytest.approx(70 / 80)
    ref = binomtest(90, 100).proportion_ci(0.95, method="exact")
    assert card.sensitivity.ci.low == pytest.approx(ref.low, abs=1e-12)
    ref = binomtest(90, 120).proportion_ci(0.95, method="exact")
    assert card.ppv.ci.high == pytest.approx(ref.high, abs=1e-12)
    # Cohen's kappa by hand: pa = 160/200, pe = (80·100 + 120·100)/200² = 0.5
    assert card.kappa.estimate == pytest.approx((0.8 - 0.5) / 0.5)
    # Gwet's AC1: π = ((80 + 100)/2, (120 + 100)/2)/200 = (0.45, 0.55); pe = 2·0.45·0.55
    pe = 2 * 0.45 * 0.55
    assert card.ac1.estimate == pytest.approx((0.8 - pe) / (1 - pe))
    assert card.kappa.ci.low < card.kappa.estimate < card.kappa.ci.high
    assert card.counts.tolist() == [[70, 10], [30, 90]]


def test_coefficient_gradient_matches_finite_differences():
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.ones(9)).reshape(3, 3)
    for kind in ("kappa", "ac1"):
        _, g = coefficient(p, kind)
        h = 1e-6
        for i in range(3):
            for j in range(3):
                dp = np.zeros((3, 3))
                dp[i, j] = h
                num = (coefficient(p + dp, kind)[0] - coefficient(p - dp, kind)[0]) / (2 * h)
                assert g[i, j] == pytest.approx(num, rel=1e-5, abs=1e-8)


def test_design_decides_what_is_shown():
    paper = js.agreement(CAL)  # by-human-label: m0/m1 fixed, no PPV/kappa
    assert paper.precision is None and paper.kappa is None and paper.ac1 is None
    assert any("m0/m1" in n for n in paper.notes)
    derived = js.agreement(CAL, js.JudgedCounts(positive=600, n=1000))
    # θ̂ = (0.6 + 0.7 − 1)/(0.7 + 0.9 − 1) = 0.5: population PPV = 0.9·0.5/(0.9·0.5 + 0.3·0.5)
    assert derived.ppv.estimate == pytest.approx(0.75)
    assert derived.ppv.ci is None and "θ̂" in derived.ppv.source
    byjudge = js.agreement(CAL, design="by-judge-label")
    assert byjudge.ppv.ci is not None and byjudge.kappa is None


def test_kappa_interval_hidden_below_minimum_margin():
    small = js.ConfusionCounts(tp=20, fn=2, tn=MIN_KAPPA_MARGIN - 2, fp=1)
    card = js.agreement(small, design="random")
    assert card.kappa.ci is None and "MIN_KAPPA_MARGIN" in card.kappa.note
    assert card.ac1.ci is not None


def test_k_categories_and_alphabet():
    cm = js.ConfusionMatrix([[8, 1, 0], [2, 8, 2], [0, 1, 8]], labels=["a", "b", "c"])
    card = js.agreement(cm, design="random")
    assert [r.estimate for r in card.recall] == pytest.approx([0.8, 0.8, 0.8])
    est, _, _ = coefficient_bounds(cm.counts, "kappa", 0.95)
    assert card.kappa.estimate == pytest.approx(float(est))
    alpha = js.ConfusionMatrix([[40, 2], [25, 8], [10, 20], [5, 50]], labels=["fail", "pass"],
                               judge_labels=[1, 2, 3, 4])  # fmt: skip
    card = js.agreement(alpha)
    assert card.recall is None and card.kappa is None
    assert card.conditional[3][1].estimate == pytest.approx(50 / 80)


def test_strata_pool_and_per_stratum():
    cals = {"x": js.ConfusionCounts(tp=40, fn=5, tn=30, fp=10),
            "y": js.ConfusionCounts(tp=50, fn=5, tn=40, fp=20)}  # fmt: skip
    card = js.agreement(cals, design="random")
    assert set(card.strata) == {"x", "y"}
    assert card.counts.tolist() == [[70, 10], [30, 90]]
    assert card.strata["x"].sensitivity.estimate == pytest.approx(40 / 45)


def test_clusters_widen_and_singletons_agree():
    rng = np.random.default_rng(7)
    items = np.repeat(np.arange(60), 4)
    human = np.repeat(rng.random(60) < 0.5, 4)
    judge = np.where(rng.random(items.size) < 0.85, human, ~human)
    judge = np.where(np.repeat(rng.random(60) < 0.2, 4), ~human, judge)  # item-level errors
    flat = js.agreement(js.ConfusionCounts.from_labels(human=human, judge=judge), design="random")
    clu = js.agreement(js.ConfusionCounts.from_labels(human=human, judge=judge, cluster=items),
                       design="random")  # fmt: skip
    assert clu.sensitivity.estimate == pytest.approx(flat.sensitivity.estimate)
    assert clu.sensitivity.ci.width > flat.sensitivity.ci.width
    assert clu.kappa.ci.width > flat.kappa.ci.width
    one = js.agreement(js.ConfusionCounts.from_labels(human=human, judge=judge,
                                                      cluster=np.arange(items.size)),
                       design="random")  # fmt: skip
    assert one.sensitivity.ci.low == pytest.approx(flat.sensitivity.ci.low, abs=1e-12)


def test_bad_input_names_the_argument():
    with pytest.raises(js.errors.ArgumentTypeError, match="calibration"):
        js.agreement([[1, 2], [3, 4]])
    with pytest.raises(js.errors.CountError, match="empty"):
        js.agreement(js.ConfusionCounts(tp=0, fn=0, tn=0, fp=0))
    with pytest.raises(js.errors.MethodError):
        js.agreement(CAL, design="nope")
    with pytest.raises(js.errors.ConfidenceLevelError):
        js.agreement(CAL, confidence_level=1.5)
    with pytest.raises(js.errors.StrataMismatchError):
        js.agreement({})
    with pytest.raises(js.errors.ArgumentTypeError, match="two-class"):
        _ = js.agreement(js.ConfusionMatrix([[8, 1, 0], [2, 8, 2], [0, 1, 8]])).sensitivity


def test_reports_and_figure(tmp_path):
    card = js.agreement(CAL, design="random")
    md = card.report()
    assert "| kappa |" in md and "clopper-pearson" in md and "judge_vs_human" in md
    latex = card.report("latex")
    assert r"\toprule" in latex
    # issue 37: the card writes its tables with the report's writers, escaping as they do for
    # pdflatex (θ, →, ∞ and the en dash are not left for a Unicode engine)
    assert r"Judge--human agreement" in latex and r"At $\theta$ = 0.50" in latex
    assert not {"θ", "→", "∞", "–"} & set(latex)
    assert "| judge \\\\ human | 0 | 1 |" in md  # a backslash escaped, as in the reports
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    page = card.report("html")
    assert page.startswith("<!DOCTYPE html>") and "data:image/png;base64," in page
    ax = card.plot()
    assert [t.get_text() for t in ax.texts] == ["70", "10", "30", "90"]
    import matplotlib.pyplot as plt

    plt.close("all")


def test_coverage_fast_tier():
    # random cells (seeded), random design: CP for rates, delta-atanh for kappa and AC1
    rng = np.random.default_rng(30)
    worst = {"sens": 1.0, "ppv": 1.0, "kappa": 1.0, "ac1": 1.0}
    for _ in range(6):
        th, q0, q1 = rng.uniform(0.1, 0.9), rng.uniform(0.6, 0.98), rng.uniform(0.6, 0.98)
        m = int(rng.choice([30, 60, 150]))
        p = np.array([[(1 - th) * q0, th * (1 - q1)], [(1 - th) * (1 - q0), th * q1]])
        t = rng.multinomial(m, p.ravel(), size=400).reshape(-1, 2, 2)
        low, high = clopper_pearson_bounds(t[:, 1, 1], t[:, :, 1].sum(1), 0.95)
        ok = t[:, :, 1].sum(1) > 0
        worst["sens"] = min(worst["sens"], np.mean(((low <= q1) & (q1 <= high))[ok]))
        ppv = p[1, 1] / p[1].sum()
        low, high = clopper_pearson_bounds(t[:, 1, 1], t[:, 1].sum(1), 0.95)
        ok = t[:, 1].sum(1) > 0
        worst["ppv"] = min(worst["ppv"], np.mean(((low <= ppv) & (ppv <= high))[ok]))
        margin = np.minimum(t.sum(1).min(1), t.sum(2).min(1)) >= MIN_KAPPA_MARGIN
        for kind in ("kappa", "ac1"):
            truth = coefficient(p, kind)[0]
            _, low, high = coefficient_bounds(t, kind, 0.95)
            shown = margin if kind == "kappa" else np.ones(len(t), bool)
            worst[kind] = min(worst[kind], np.mean(((low <= truth) & (truth <= high))[shown]))
    assert min(worst.values()) >= 0.90, worst  # 400 data sets: MC s.e. ≈ 0.011 at 0.95


def test_cli_agreement(tmp_path, capsys):
    import json

    from judgestats.cli import main

    pytest.importorskip("pandas")
    rows = ["human,judge,item,model"]
    cells = [(1, 1, 90), (1, 0, 10), (0, 0, 70), (0, 1, 30)]
    i = 0
    for h, j, count in cells:
        for _ in range(count):
            rows.append(f"{h},{j},{i // 2},{'ab'[i % 2]}")
            i += 1
    path = tmp_path / "cal.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["agreement", str(path), "--design", "random", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["counts"] == [[70, 10], [30, 90]]
    figs = {f["figure"]: f for f in out["figures"]}
    ref = binomtest(90, 120).proportion_ci(0.95, method="exact")
    assert figs["PPV"]["ci_low"] == pytest.approx(ref.low, abs=1e-12)
    assert main(["agreement", str(path), "--by", "model", "--cluster", "item"]) == 0
    text = capsys.readouterr().out
    assert "stratum a" in text and "repeated items" in text
    assert main(["agreement", str(tmp_path / "missing.csv")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_perfect_agreement_has_no_vacuous_interval():
    card = js.agreement(js.ConfusionCounts(tp=12, fn=0, tn=9, fp=0), design="random")
    assert card.kappa.estimate == 1.0 and card.ac1.estimate == 1.0
    assert card.kappa.ci is None and "perfect agreement" in card.kappa.note
    assert card.ac1.ci is None
    one_class = js.agreement(js.ConfusionCounts(tp=10, fn=0, tn=0, fp=0), design="random")
    assert np.isnan(one_class.specificity.estimate) and one_class.specificity.ci is None
    assert one_class.buys is None


@pytest.fixture
def toy_random(monkeypatch):
    """The toy random-sample design of tests/designs/test_new_design.py, registered for a test."""
    from judgestats.designs import base, register_design
    from tests.designs.test_new_design import StratifiedRandom

    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    return register_design(StratifiedRandom)


def test_the_card_asks_the_design_not_its_name(toy_random):
    """Issue 37: a design the card has never heard of gets what its attributes make estimable.

    The toy is a random sample of the test population (``calibration_samples_test``, P(human |
    judge) estimable): its card is the random design's, figure by figure, and what it buys.
    """
    test = js.JudgedCounts(positive=600, n=1000)
    card = js.agreement(CAL, test, design="stratified-random")
    ref = js.agreement(CAL, test, design="random")
    assert card.design is toy_random and card.kappa.ci is not None and card.ppv.ci is not None
    assert [(r.name, r.estimate, r.ci) for r in card.figures()] == [
        (r.name, r.estimate, r.ci) for r in ref.figures()
    ]
    assert card.buys == ref.buys and "judge-conditional" in card.buys
    assert "design 'stratified-random'" in card.summary()


def test_each_designs_notes_follow_its_attributes():
    """Which figures a design gives, and the note that says why, read from its attributes."""
    for design in js.designs.design_names():
        d = js.designs.as_design(design)
        card = js.agreement(CAL, design=design)
        ppv = card.precision[1] if card.precision else None  # PPV from the calibration set
        assert (ppv is not None and ppv.ci is not None) == d.predictive_estimable
        assert (card.kappa is not None) == d.calibration_samples_test
        assert (card.buys is not None) == d.youden_estimable
        assert any("describe the calibration sample only" in n
                   for n in card.notes) == (not d.youden_estimable)  # fmt: skip
        assert card.design is d
