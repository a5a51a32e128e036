"""Paired arms (issue 39): two systems on the same items, a judge score or one jury (stack).

Reference values are independent computations in the tests: the PPI++ influence terms
u, v and φ = u + λ̂v written out from the linearisation (module docstring of
judgestats.compare.paired), the power tuning λ̂ = −Σuv/Σv² clipped to [0, 1], and the
rare-class variance with two pseudo-labels of each human class written out as augmented
arrays.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit

import judgestats as js
from judgestats.errors import ArgumentTypeError, LabelError, MethodError
from judgestats.jury.stack import cross_fit_stack
from judgestats.scores.calibration import cross_fit


def _paired(n: int, lab: int, gen: np.random.Generator, shift: float = 0.4):
    """Two systems on the same prompts: a shared difficulty, a score of each answer."""
    hard = gen.normal(0, 1, n)
    p_a, p_b = 1 / (1 + np.exp(-(shift - hard))), 1 / (1 + np.exp(hard))
    y_a, y_b = (gen.random(n) < p_a).astype(float), (gen.random(n) < p_b).astype(float)
    s_a = np.where(y_a == 1, 0.7, 0.3) + gen.normal(0, 0.2, n)
    s_b = np.where(y_b == 1, 0.7, 0.3) + gen.normal(0, 0.2, n)
    mask = np.zeros(n, bool)
    mask[gen.choice(n, lab, replace=False)] = True
    return s_a, s_b, np.where(mask, y_a, np.nan), np.where(mask, y_b, np.nan), p_a - p_b


def test_paired_variance_is_the_joint_influence_terms_written_out():
    """Var(Δ̂) = n/(n − 1)·Σ_i (φ_A,i − φ_B,i)² with each arm's φ written out here from the
    PPI++ linearisation (u_i = (y_i − ȳ)/n on labelled rows, v_i = (f̃_i − mean f̃)/N on
    unlabelled ones and −(f_i − mean f)/n on labelled ones; φ = u + λ̂ v)."""
    gen = np.random.default_rng(5)
    s_a, s_b, h_a, h_b, _ = _paired(1200, 300, gen)
    res = js.compare.paired_score_difference(s_a, s_b, h_a, h_b, rng=7)
    seed = int(np.random.default_rng(7).integers(2**63))
    lab = ~np.isnan(h_a)
    n, big_n = int(lab.sum()), int((~lab).sum())
    phis = []
    for s, h, lam in ((s_a, h_a, res.lam[0]), (s_b, h_b, res.lam[1])):
        fit = cross_fit(s[lab], h[lab], s[~lab], np.arange(n), calibrator="isotonic", folds=5,
                        bins=None, rng=np.random.default_rng(seed))  # fmt: skip
        phi = np.zeros(s.size)
        phi[lab] = (h[lab] - h[lab].mean()) / n - lam * (fit.labelled - fit.labelled.mean()) / n
        phi[~lab] = lam * (fit.unlabelled - fit.unlabelled.mean()) / big_n
        est = lam * fit.unlabelled.mean() + np.mean(h[lab] - lam * fit.labelled)
        phis.append((phi, est))
    (phi_a, est_a), (phi_b, est_b) = phis
    size = s_a.size
    assert res.estimate == pytest.approx(est_a - est_b, abs=1e-12)
    assert res.standard_error**2 == pytest.approx(
        size / (size - 1) * np.sum((phi_a - phi_b) ** 2), rel=1e-9)
    assert res.covariance == pytest.approx(size / (size - 1) * np.sum(phi_a * phi_b), rel=1e-9)
    assert res.covariance > 0  # the shared difficulty: paired is narrower than independent
    assert res.standard_error < np.sqrt(res.variance_a + res.variance_b)
    same = js.compare.paired_score_difference(s_a, s_a, h_a, h_a, rng=1)
    assert same.estimate == pytest.approx(0.0, abs=1e-12) and same.standard_error < 1e-9


def test_paired_coverage_fast_tier():
    """150 paired data sets (1,500 prompts, 300 labelled, isotonic), seed 2026: the paired 95%
    interval covers the true difference (of the rates the prompts were drawn with) at >= 0.91
    (s.e. 0.018) and is narrower than independent arms' in every one (shared difficulty).
    The study: benchmarks/results/compare_scores.md, part A."""
    gen = np.random.default_rng(2026)
    covered, narrower = 0, 0
    for _ in range(150):
        s_a, s_b, h_a, h_b, delta = _paired(1500, 300, gen)
        res = js.compare.paired_score_difference(s_a, s_b, h_a, h_b, rng=gen)
        covered += res.ci.low <= delta.mean() <= res.ci.high
        narrower += res.standard_error < np.sqrt(res.variance_a + res.variance_b)
    assert covered / 150 >= 0.91
    assert narrower == 150


def test_paired_with_repeated_items_and_named_errors():
    gen = np.random.default_rng(9)
    s_a, s_b, h_a, h_b, _ = _paired(1000, 400, gen)
    plain = js.compare.paired_score_difference(s_a, s_b, h_a, h_b, rng=0)
    ids = [f"{i:04d}" for i in range(1000)]  # ids sort as the rows: the same folds
    alone = js.compare.paired_score_difference(s_a, s_b, h_a, h_b, cluster=ids, rng=0)
    for key, value in plain.to_dict().items():  # one row per item: the unclustered numbers
        assert alone.to_dict()[key] == (pytest.approx(value, rel=1e-12)
                                        if isinstance(value, float) else value)  # fmt: skip
    pairs = js.compare.paired_score_difference(s_a, s_b, h_a, h_b,
                                               cluster=np.repeat(np.arange(500), 2), rng=0)
    assert pairs.pairing.startswith("paired") and 0 < pairs.standard_error < 0.1
    with pytest.raises(LabelError, match=r"the same labelled rows .* differ first at row"):
        js.compare.paired_score_difference(s_a, s_b, h_a, np.where(np.arange(1000) < 400, 1.0,
                                                                   np.nan))  # fmt: skip
    with pytest.raises(ArgumentTypeError, match=r"paired row by row .* 1000 and 999 rows"):
        js.compare.paired_score_difference(s_a, s_b[:-1], h_a, h_b)
    with pytest.raises(MethodError, match="differences of two judge scores are not available with design='by-human-label'"):
        js.compare.paired_score_difference(s_a, s_b, h_a, h_b, design="by-human-label")
    few = np.where(np.arange(1000) < 50, 1.0, np.nan)
    with pytest.raises(ArgumentTypeError, match=r"only 50 labelled items \(< 100\)"):
        js.compare.paired_score_difference(s_a, s_b, few, few)
    frame = pd.DataFrame({"a": s_a})
    assert js.compare.paired_score_difference(frame["a"], s_b, h_a, h_b, rng=0).names == (
        "A", "B")




# ----------------------------------------------------------------------------- helpers
def _influence(y, f_lab, f_unl, lab, lam=None):
    """Each row's PPI++ influence term φ = u + λv (every row its own item), written out, and
    the estimate; λ tuned as −Σuv/Σv² clipped to [0, 1] where not given."""
    n, big_n = int(lab.sum()), int((~lab).sum())
    u, v = np.zeros(lab.size), np.zeros(lab.size)
    u[lab] = (y - y.mean()) / n
    v[lab] = -(f_lab - f_lab.mean()) / n
    v[~lab] = (f_unl - f_unl.mean()) / big_n
    if lam is None:
        lam = float(np.clip(-(u @ v) / (v @ v), 0.0, 1.0))
    return u + lam * v, lam * f_unl.mean() + np.mean(y - lam * f_lab), lam


def _sandwich(phi):
    return phi.size / (phi.size - 1) * float(np.sum(phi**2))


def _jury_rows(n, lab, gen, theta=(0.5, 0.1), strengths=(1.8, 0.9, 0.4)):
    """Two systems' answers to n shared items (a shared difficulty), three 0/1 judges of
    unequal strength on each answer, the same ``lab`` random rows labelled for both."""
    hard = gen.normal(0, 1, n)
    ys = [(gen.random(n) < expit(t - hard)).astype(float) for t in theta]
    xs = []
    for y in ys:
        z = np.asarray(strengths) * (2 * y[:, None] - 1) + gen.normal(0, 1, (n, len(strengths)))
        xs.append((z > 0).astype(float))
    mask = np.zeros(n, bool)
    mask[gen.choice(n, lab, replace=False)] = True
    return xs, [np.where(mask, y, np.nan) for y in ys]


# ----------------------------------------------------------------------------- the jury
def test_a_paired_jury_of_one_judge_is_the_paired_score_difference():
    """The stack of one column is the score path's logistic calibrator (the same ridge, the
    same Newton): every number of the two results agrees to 1e-12, with and without
    repeated items."""
    gen = np.random.default_rng(11)
    s_a, s_b, h_a, h_b, _ = _paired(900, 250, gen)
    for cluster in (None, np.repeat(np.arange(450), 2)):
        one = js.compare.paired_score_difference(s_a, s_b, h_a, h_b, calibrator="logistic",
                                                 cluster=cluster, rng=4)  # fmt: skip
        jury = js.compare.paired_jury_difference([s_a], [s_b], h_a, h_b, cluster=cluster, rng=4)
        for key, value in one.to_dict().items():
            if isinstance(value, float):
                assert jury.to_dict()[key] == pytest.approx(value, abs=1e-12), key
        assert jury.lam == pytest.approx(one.lam, abs=1e-12)
        assert jury.sources == ("PredictionPoweredJury", "PredictionPoweredJury")


def test_paired_jury_variance_is_the_joint_influence_terms_written_out():
    """Three judges on both systems' answers: each system's stack cross-fitted on the same
    folds (jury.stack.cross_fit_stack, called here with the seed the function draws), φ
    written out (_influence); Var(Δ̂) = C/(C − 1)·Σ(φ_A − φ_B)², Cov = C/(C − 1)·Σφ_Aφ_B."""
    gen = np.random.default_rng(21)
    (x_a, x_b), (h_a, h_b) = _jury_rows(1000, 300, gen)
    res = js.compare.paired_jury_difference(x_a, x_b, h_a, h_b, rng=7)
    seed = int(np.random.default_rng(7).integers(2**63))
    lab = ~np.isnan(h_a)
    arms = []
    for x, h in ((x_a, h_a), (x_b, h_b)):
        fit = cross_fit_stack(x[lab], h[lab], x[~lab], np.arange(int(lab.sum())), folds=5,
                              rng=np.random.default_rng(seed))  # fmt: skip
        arms.append(_influence(h[lab], fit.labelled, fit.unlabelled, lab))
    (phi_a, est_a, lam_a), (phi_b, est_b, lam_b) = arms
    assert res.lam == pytest.approx((lam_a, lam_b), rel=1e-9)
    assert res.estimate == pytest.approx(est_a - est_b, abs=1e-12)
    assert res.standard_error**2 == pytest.approx(_sandwich(phi_a - phi_b), rel=1e-9)
    assert res.covariance == pytest.approx(phi_a.size / (phi_a.size - 1) * phi_a @ phi_b,
                                           rel=1e-9)  # fmt: skip
    assert res.variance_a == pytest.approx(_sandwich(phi_a), rel=1e-9)
    assert res.notes == ()  # 300 labels at θ = 0.5, 0.1·…: both classes ≥ 20 in both arms
    same = js.compare.paired_jury_difference(x_a, x_a, h_a, h_a, rng=1)
    assert same.estimate == pytest.approx(0.0, abs=1e-12) and same.standard_error < 1e-9


def test_paired_jury_coverage_and_width_fast_tier():
    """60 data sets (1,200 items, 300 labelled, three 0/1 judges, seed 2027): the paired 95%
    interval covers θ_A − θ_B (computed here from the rates the items were drawn with) at
    >= 0.88 (s.e. 0.028 at 0.95) and is narrower than the independent arms' in every data
    set (the shared difficulty). The study: benchmarks/results/compare_scores.md, part F."""
    gen = np.random.default_rng(2027)
    h = np.random.default_rng(0).normal(0, 1, 400_000)
    truth = float(np.mean(expit(0.5 - h) - expit(0.1 - h)))
    covered = narrower = 0
    for _ in range(60):
        (x_a, x_b), (h_a, h_b) = _jury_rows(1200, 300, gen)
        res = js.compare.paired_jury_difference(x_a, x_b, h_a, h_b, rng=gen)
        covered += res.ci.low <= truth <= res.ci.high
        narrower += res.standard_error < np.sqrt(res.variance_a + res.variance_b)
    assert covered / 60 >= 0.88 and narrower == 60


def test_paired_jury_takes_mappings_and_frames_and_refuses_by_name():
    gen = np.random.default_rng(3)
    (x_a, x_b), (h_a, h_b) = _jury_rows(600, 200, gen)
    names = ["gpt4", "small", "coin"]
    from_array = js.compare.paired_jury_difference(x_a, x_b, h_a, h_b, rng=0)
    frames = [pd.DataFrame(x, columns=names) for x in (x_a, x_b)]
    from_frame = js.compare.paired_jury_difference(*frames, h_a, h_b, rng=0)
    mappings = [dict(zip(names, x.T, strict=True)) for x in (x_a, x_b)]
    from_map = js.compare.paired_jury_difference(*mappings, h_a, h_b, rng=0)
    assert from_frame.estimate == from_map.estimate == from_array.estimate
    with pytest.raises(ArgumentTypeError, match=r"one jury's verdicts .* \('gpt4', 'small', "
                                                r"'coin'\) .* \('gpt4', 'small', 'other'\)"):
        js.compare.paired_jury_difference(frames[0], frames[1].rename(columns={"coin": "other"}),
                                          h_a, h_b)  # fmt: skip
    with pytest.raises(ArgumentTypeError, match=r"got 3 judges .* on 600 rows and 2 judges"):
        js.compare.paired_jury_difference(x_a, x_b[:, :2], h_a, h_b)
    broken = x_b.copy()
    broken[5, 1] = np.nan
    with pytest.raises(LabelError, match=r"judges_b: judge column 1 has a missing .* at row 5"):
        js.compare.paired_jury_difference(x_a, broken, h_a, h_b)
    with pytest.raises(MethodError, match="differences of two stacked juries are not available "
                                          "with design='by-human-label'"):
        js.compare.paired_jury_difference(x_a, x_b, h_a, h_b, design="by-human-label")
    few = np.where(np.arange(600) < 60, 1.0, np.nan)
    with pytest.raises(ArgumentTypeError, match=r"only 60 labelled items \(< 100\).*"
                                                "correct_combined"):
        js.compare.paired_jury_difference(x_a, x_b, few, few)
    with pytest.raises(LabelError, match="the same labelled rows"):
        js.compare.paired_jury_difference(x_a, x_b, h_a, np.where(np.isnan(h_a), 0.0, np.nan))
    with pytest.raises(ArgumentTypeError, match=r"scores_a has shape \(600, 3\).*"
                                                "paired_jury_difference"):
        js.compare.paired_score_difference(x_a, x_b, h_a, h_b)


# ----------------------------------------------------------------------------- rare class
def _pseudo_variance(y, f_lab, f_unl, lab, lam):
    """The arm's PPI++ variance with two labels of each human class added at the labelled
    rows' mean prediction, λ held, written out (every row and pseudo-row its own item)."""
    y_aug = np.r_[y, 1.0, 1.0, 0.0, 0.0]
    f_aug = np.r_[f_lab, np.full(4, f_lab.mean())]
    lab_aug = np.r_[lab, np.ones(4, bool)]
    phi, _, _ = _influence(y_aug, f_aug, f_unl, lab_aug, lam=lam)
    return _sandwich(phi)


def _rare_rows(n, lab, gen, theta=(0.04, 0.05)):
    hard = gen.normal(0, 1, n)
    ys = [(gen.random(n) < expit(np.log(t / (1 - t)) - 0.5 * hard)).astype(float)
          for t in theta]  # fmt: skip
    scores = [expit(2 * (2 * y - 1) + gen.normal(0, 1, n)) for y in ys]
    mask = np.zeros(n, bool)
    mask[gen.choice(n, lab, replace=False)] = True
    return scores, [np.where(mask, y, np.nan) for y in ys]


def test_rare_class_adds_each_rare_arms_pseudo_label_variance():
    """θ ≈ 0.04 and 0.05 with 150 labelled rows (fewer than 20 of human 1 in each arm): Var(Δ̂)
    = C/(C − 1)·Σ(φ_A − φ_B)² + Σ_arms max(0, V_pseudo − V), each arm's V and V_pseudo (two
    pseudo-labels of each class at the mean prediction, λ̂ held) written out here; the
    estimate is untouched and the result names the rare arms."""
    gen = np.random.default_rng(8)
    (s_a, s_b), (h_a, h_b) = _rare_rows(750, 150, gen)
    lab = ~np.isnan(h_a)
    assert max(h_a[lab].sum(), h_b[lab].sum()) < 20
    res = js.compare.paired_score_difference(s_a, s_b, h_a, h_b, rng=3)
    seed = int(np.random.default_rng(3).integers(2**63))
    phis, extra = [], 0.0
    for s, h in ((s_a, h_a), (s_b, h_b)):
        fit = cross_fit(s[lab], h[lab], s[~lab], np.arange(150), calibrator="isotonic", folds=5,
                        bins=None, rng=np.random.default_rng(seed))  # fmt: skip
        phi, est, lam = _influence(h[lab], fit.labelled, fit.unlabelled, lab)
        extra += max(0.0, _pseudo_variance(h[lab], fit.labelled, fit.unlabelled, lab, lam)
                     - _sandwich(phi))  # fmt: skip
        phis.append((phi, est))
    (phi_a, est_a), (phi_b, est_b) = phis
    assert extra > 0
    assert res.estimate == pytest.approx(est_a - est_b, abs=1e-12)
    assert res.standard_error**2 == pytest.approx(_sandwich(phi_a - phi_b) + extra, rel=1e-9)
    assert len(res.notes) == 2 and "A: a rare human class" in res.notes[0]
    assert "note: B: a rare human class" in res.summary()


def test_rare_class_coverage_fast_tier():
    """120 data sets at θ_A = θ_B = 0.05 (shared difficulty ρ = 1), 100 labelled rows of
    500, score expit(2(2y − 1) + N(0, 1)), seed 4040 — part E's worst cell: the adjusted
    interval covers the difference 0 at >= 0.92 (0.967 here; s.e. 0.016 at 0.97), where PPI++'s
    joint variance alone covered 0.867 on these data sets (0.897 over part E's 400)."""
    gen = np.random.default_rng(4040)
    from scipy.optimize import brentq

    x, w = np.polynomial.hermite_e.hermegauss(80)
    a = brentq(lambda c: float((w / w.sum()) @ expit(c - x)) - 0.05, -10, 10)
    covered = 0
    for _ in range(120):
        hard = gen.normal(0, 1, 500)
        ys = [(gen.random(500) < expit(a - hard)).astype(float) for _ in range(2)]
        s_a, s_b = (expit(2 * (2 * y - 1) + gen.normal(0, 1, 500)) for y in ys)
        lab = np.zeros(500, bool)
        lab[gen.choice(500, 100, replace=False)] = True
        res = js.compare.paired_score_difference(s_a, s_b, np.where(lab, ys[0], np.nan),
                                                 np.where(lab, ys[1], np.nan), rng=gen)  # fmt: skip
        covered += res.ci.low <= 0.0 <= res.ci.high
    assert covered / 120 >= 0.92
