"""Planning per calibration design (judgestats.designs.plan): widths at the expected counts, sizes,
the by-judge-label allocation.
"""

import numpy as np
import pytest

import judgestats as js


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
