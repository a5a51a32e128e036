"""Pairwise leaderboards (issue 29, first step): js.pairwise and its pieces.

Provenance of the numbers checked here:

* identity agreement: with the judge's confusion held at the identity, js.pairwise's strengths
  and tie parameter equal a Davidson (1970) MLE written below from the paper's equations in
  its own parametrisation (π form, β_0 = 0, BFGS on an analytic gradient), to 1e-6;
* coverage: seeded simulations in this file (data drawn from Davidson's model and a judge
  confusion); each cell's coverage of the true strengths by 95% sandwich intervals, pooled
  over models, must be >= 0.9 (200 data sets per cell: a Monte Carlo standard error of about
  0.007 on pooled coverage near 0.95);
* named errors: each of the issue's four kinds of bad input.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize

import judgestats as js
from judgestats.pairwise.counting import check_pairs, count_pairs
from judgestats.pairwise.intervals import rank_probabilities, rank_sets, strength_intervals
from judgestats.pairwise.likelihood import fit_joint

VERDICTS = np.array(["a", "tie", "b"], dtype=object)
#: a judge that prefers the answer shown first and under-calls ties (columns: human a/tie/b)
BIASED = np.array([[0.85, 0.35, 0.25], [0.07, 0.45, 0.08], [0.08, 0.20, 0.67]])
SYMMETRIC = np.array([[0.80, 0.15, 0.10], [0.10, 0.70, 0.10], [0.10, 0.15, 0.80]])


def simulate(rng, beta, *, n, labelled, tie=0.6, confusion=BIASED):
    """Pairs of distinct models at random; human verdicts by Davidson; judge by ``confusion``."""
    k = beta.size
    a = rng.integers(0, k, n)
    b = (a + rng.integers(1, k, n)) % k
    d = beta[a] - beta[b]
    w = np.stack([np.exp(d / 2), np.full(n, tie), np.exp(-d / 2)], axis=1)
    human = (rng.random(n)[:, None] > np.cumsum(w / w.sum(1, keepdims=True), 1)).sum(1)
    judge = (rng.random(n)[:, None] > np.cumsum(confusion[:, human].T, 1)).sum(1)
    shown = rng.random(n) < labelled
    return pd.DataFrame(
        {
            "model_a": [f"m{i}" for i in a],
            "model_b": [f"m{i}" for i in b],
            "judge": VERDICTS[judge],
            "human": np.where(shown, VERDICTS[human], None),
        }
    )


def davidson_mle(first, second, outcome, k):
    """Davidson's MLE from his likelihood, written independently: (β centred, ν).

    P(i wins) = π_i / D, P(tie) = ν √(π_i π_j) / D, P(j wins) = π_j / D,
    D = π_i + π_j + ν √(π_i π_j), π = exp(β), β_0 = 0 during the fit.
    """

    def negloglik(x):
        beta = np.concatenate([[0.0], x[: k - 1]])
        nu = np.exp(x[k - 1])
        bi, bj = beta[first], beta[second]
        terms = np.stack([np.exp(bi), nu * np.exp((bi + bj) / 2), np.exp(bj)], axis=1)
        den = terms.sum(1)
        ll = np.log(terms[np.arange(first.size), outcome]) - np.log(den)
        share = terms / den[:, None]
        g_beta = np.zeros(k)
        own_i = np.array([1.0, 0.5, 0.0])[outcome] - (share[:, 0] + share[:, 1] / 2)
        own_j = np.array([0.0, 0.5, 1.0])[outcome] - (share[:, 2] + share[:, 1] / 2)
        np.add.at(g_beta, first, own_i)
        np.add.at(g_beta, second, own_j)
        g_nu = (outcome == 1).sum() - share[:, 1].sum()
        return -ll.sum(), -np.concatenate([g_beta[1:], [g_nu]])

    res = minimize(negloglik, np.zeros(k), jac=True, method="BFGS", options={"gtol": 1e-11})
    beta = np.concatenate([[0.0], res.x[: k - 1]])
    return beta - beta.mean(), float(np.exp(res.x[k - 1]))


def test_identity_confusion_equals_an_independent_davidson_mle():
    rng = np.random.default_rng(2901)
    beta = np.array([0.9, 0.4, 0.0, -0.3, -1.0])
    frame = simulate(rng, beta, n=1500, labelled=0.2)
    board = js.pairwise(frame, method="joint-mle", confusion=np.eye(3), rng=0)
    # with C = I a judged pair's letter is a human verdict: every pair is one Davidson outcome
    verdict = frame["human"].where(frame["human"].notna(), frame["judge"])
    index = {m: i for i, m in enumerate(board.models)}
    first = frame["model_a"].map(index).to_numpy()
    second = frame["model_b"].map(index).to_numpy()
    outcome = verdict.map({"a": 0, "tie": 1, "b": 2}).to_numpy()
    expected, tie = davidson_mle(first, second, outcome, len(index))
    assert np.max(np.abs(board.strength - expected)) < 1e-6
    assert abs(board.tie - tie) < 1e-6
    assert board.confusion_kind == "fixed" and board.converged
    # the naive fit is the same model on the judge's verdicts of every pair
    outcome_j = frame["judge"].map({"a": 0, "tie": 1, "b": 2}).to_numpy()
    naive, _ = davidson_mle(first, second, outcome_j, len(index))
    assert np.max(np.abs(board.naive.strength - naive)) < 1e-6


def _coverage(rng, beta, reps, **cell):
    hits = np.zeros(beta.size)
    for _ in range(reps):
        counts = count_pairs(simulate(rng, beta, **cell))
        check_pairs(counts, strengths_from_labels=True)
        fit = fit_joint(counts)
        _, ci = strength_intervals(fit.strength, fit.strength_covariance(), 0.95)
        order = [int(m[1:]) for m in counts.models]
        hits += (ci[:, 0] <= beta[order]) & (beta[order] <= ci[:, 1])
    return hits / reps


@pytest.mark.slow
@pytest.mark.parametrize(
    ("k", "n", "labelled", "confusion"),
    [(5, 2000, 0.10, BIASED), (8, 4000, 0.05, BIASED), (6, 3000, 0.20, SYMMETRIC)],
)
def test_strength_intervals_cover(k, n, labelled, confusion):
    rng = np.random.default_rng(2902 + k)
    beta = np.linspace(1.0, -1.0, k)
    coverage = _coverage(rng, beta, 200, n=n, labelled=labelled, confusion=confusion)
    assert coverage.mean() >= 0.9
    assert coverage.min() >= 0.85  # every model: 200 data sets, SE ≈ 0.015 near 0.95


def test_leaderboard_fields_and_table():
    rng = np.random.default_rng(2903)
    frame = simulate(rng, np.array([0.8, 0.2, -0.2, -0.8]), n=2000, labelled=0.15)
    board = js.pairwise(frame, confidence_level=0.9, rng=1)
    assert isinstance(board, js.PairwiseLeaderboard)
    assert board.confidence_level == 0.9 and board.design == "random"
    assert board.interval == "sandwich" and board.rank_method == "normal"
    assert abs(board.strength.sum()) < 1e-9
    assert np.all(board.strength_ci[:, 0] < board.strength) and np.all(
        board.strength < board.strength_ci[:, 1]
    )
    np.testing.assert_allclose(board.elo, board.strength * 400 / np.log(10))
    np.testing.assert_allclose(board.confusion.sum(axis=0), 1.0)
    np.testing.assert_allclose(board.rank_probabilities.sum(axis=0), 1.0)
    np.testing.assert_allclose(board.rank_probabilities.sum(axis=1), 1.0)
    assert np.all(board.rank_set[:, 0] <= board.rank) and np.all(board.rank <= board.rank_set[:, 1])
    p = board.prob_win("m0", "m3")
    low, high = board.win_probability_ci[board.models.index("m0"), board.models.index("m3")]
    assert low < p < high
    frame_out = board.to_dataframe()
    assert list(frame_out["model"]) == list(board.order)
    assert frame_out.attrs["interval"] == "sandwich"
    text = board.summary()
    assert "Davidson" in text and "design 'random'" in text and "90%" in text


def test_rank_sets_and_probabilities_from_their_definitions():
    strength = np.array([1.0, 0.0, -0.05])
    cov = np.diag([0.01, 0.01, 0.01])
    # z for 3 pairs at 95%: Φ⁻¹(1 − 0.05/6) = 2.394; 1 vs the others: 1.0/√0.02 = 7.07 > z;
    # 0.0 vs −0.05: 0.05/0.1414 = 0.35 < z, so the last two share ranks 2–3
    np.testing.assert_array_equal(rank_sets(strength, cov, 0.95), [[1, 1], [2, 3], [2, 3]])
    draws = np.array([[1.0, 0.0, -1.0], [1.0, -1.0, 0.0]])
    np.testing.assert_allclose(rank_probabilities(draws), [[1, 0, 0], [0, 0.5, 0.5], [0, 0.5, 0.5]])


def test_by_human_label_uses_the_calibration_pairs_for_the_confusion_only():
    rng = np.random.default_rng(2904)
    frame = simulate(rng, np.array([0.5, 0.0, -0.5]), n=1500, labelled=0.2)
    board = js.pairwise(frame, design="by-human-label", rng=0)
    assert board.method == "joint-mle"
    assert board.human_only is None and board.design == "by-human-label"
    assert any("confusion only" in note for note in board.notes)


def test_human_tie_kinds_merge_and_positions_turn_pairs_round():
    frame = pd.DataFrame(
        {
            "model_a": ["x", "y", "x", "y"],
            "model_b": ["y", "x", "y", "x"],
            "judge": ["model_a", "a", "Tie", "b"],
            "human": ["tie (bothbad)", None, "tie", None],
            "shown_first": ["a", "b", "a", "b"],
        }
    )
    counts = count_pairs(frame, position="shown_first")
    # every pair shown x first: (x, y) only; rows 2 and 4 turned round (a <-> b)
    assert counts.models == ("x", "y")
    np.testing.assert_array_equal(counts.first, [0])
    np.testing.assert_array_equal(counts.judged, [[1, 0, 1]])
    np.testing.assert_array_equal(counts.labelled[0].sum(axis=0), [0, 2, 0])


def _frame(**columns):
    base = {"model_a": ["x", "y", "z", "x"], "model_b": ["y", "z", "x", "z"]}
    base.update(judge=["a", "b", "tie", "a"], human=[None, None, None, "a"])
    base.update(columns)
    return pd.DataFrame(base)


def test_named_errors():
    with pytest.raises(js.errors.SelfComparisonError, match="model_a and model_b"):
        js.pairwise(_frame(model_b=["y", "z", "z", "z"]))
    with pytest.raises(js.errors.VerdictError, match="'maybe'"):
        js.pairwise(_frame(judge=["a", "maybe", "tie", "a"]))
    with pytest.raises(js.errors.VerdictError, match="'draw'"):
        js.pairwise(_frame(human=[None, None, "draw", "a"]))
    only_labelled = pd.concat(
        [
            _frame(),
            pd.DataFrame({"model_a": ["w"], "model_b": ["x"], "judge": ["a"], "human": ["b"]}),
        ]
    )
    with pytest.raises(js.errors.CalibrationOnlyModelError, match="'w'"):
        js.pairwise(only_labelled)
    apart = pd.DataFrame(
        {"model_a": ["x", "u"], "model_b": ["y", "v"], "judge": ["a", "b"], "human": [None, None]}
    )
    with pytest.raises(js.errors.DisconnectedComparisonsError, match="2 separate parts"):
        js.pairwise(apart)
    with pytest.raises(js.errors.CountError, match="'tie'"):
        js.pairwise(_frame(human=["b", None, None, "a"]))
    with pytest.raises(js.errors.MethodError, match="design"):
        js.pairwise(_frame(), design="stratified")
    with pytest.raises(js.errors.ConfidenceLevelError):
        js.pairwise(_frame(), confidence_level=95)


# ------------------------------------------------------------------ prediction-powered (issue 29)
# Provenance: the PPI++ estimating equation of judgestats.pairwise.prediction_powered (after
# Angelopoulos, Duchi and Zrnic 2023), recomputed below row by row from its definition,
# g_i = λ ψ_i(f_i) + (R_i/π_i)[ψ_i(y_i) − λ ψ_i(f_i)], with ψ the Davidson score; the module
# aggregates it into pseudo-counts per pair, which these checks do not use.
from judgestats.pairwise.prediction_powered import (  # noqa: E402
    _letter_prediction,
    fit_prediction_powered,
)


def favouring(rng, beta, *, n, labelled, favoured=0, share=0.35, tie=0.6):
    """A judge that follows BIASED but, on any pair with model ``favoured``, says it wins with
    probability ``share`` whatever the human said: its letter depends on the pair beyond the
    human verdict (conditional independence fails)."""
    frame = simulate(rng, beta, n=n, labelled=labelled, tie=tie)
    a = frame["model_a"].str[1:].astype(int).to_numpy()
    b = frame["model_b"].str[1:].astype(int).to_numpy()
    flip = ((a == favoured) | (b == favoured)) & (rng.random(n) < share)
    frame.loc[flip, "judge"] = np.where(a[flip] == favoured, "a", "b")
    return frame


def _row_equation(frame, board, lam, inverse_pi):
    """Σ_i g_i(θ̂) from the rows, and Σ_i g_i g_iᵀ (over θ = (γ, log ν))."""
    index = {m: i for i, m in enumerate(board.models)}
    k = len(index)
    first = frame["model_a"].map(index).to_numpy()
    second = frame["model_b"].map(index).to_numpy()
    code = {"a": 0, "tie": 1, "b": 2}
    j = frame["judge"].map(code).to_numpy()
    lab = frame["human"].notna().to_numpy()
    h = frame["human"].map(code).fillna(0).astype(int).to_numpy()
    counts = count_pairs(frame)
    f = _letter_prediction(counts)[0][j]  # the same for every pair: P(h | judge letter)
    d = board.strength[first] - board.strength[second]
    w = np.stack([np.exp(d / 2), np.full(d.size, board.tie), np.exp(-d / 2)], 1)
    p = w / w.sum(1, keepdims=True)
    z = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])
    dz = z[first] - z[second]

    def psi(y):  # Davidson's score of one pair, rows × (K−1 + 1)
        return np.hstack([(((y[:, 0] - y[:, 2]) / 2) - (p[:, 0] - p[:, 2]) / 2)[:, None] * dz,
                          (y[:, 1] - p[:, 1])[:, None]])  # fmt: skip

    y = np.eye(3)[h]
    g = lam * psi(f) + (lab / inverse_pi ** -1)[:, None] * (psi(y) - lam * psi(f))
    return g.sum(0), g.T @ g, g


@pytest.mark.parametrize("lam", [0.0, 0.4, 1.0])
def test_ppi_solves_its_equation_row_by_row(lam):
    rng = np.random.default_rng(2910)
    frame = favouring(rng, np.array([0.6, 0.2, -0.1, -0.7]), n=3000, labelled=0.15)
    counts = count_pairs(frame)
    fit = fit_prediction_powered(counts, lam=lam)
    board = type("B", (), {"models": fit.models, "strength": fit.strength, "tie": fit.tie})
    inverse_pi = 3000 / frame["human"].notna().sum()
    total, meat, _ = _row_equation(frame, board, lam, inverse_pi)
    assert np.max(np.abs(total)) < 1e-7 * 3000
    # the sandwich's meat: (θ covariance) = H⁻¹ meat H⁻¹ with H the Jacobian, so
    # H cov H = meat; H by central differences of the row equation would need refits: check
    # instead that cov is H⁻¹ meat H⁻¹ for the module's H, i.e. meat = H cov H
    from judgestats.pairwise.prediction_powered import _pseudo_counts, fit_davidson

    f = _letter_prediction(counts)
    pi = np.full(3, 1 / inverse_pi)
    hess = fit_davidson(counts, _pseudo_counts(counts, f, 1 / pi, lam), start=fit.theta).hessian
    np.testing.assert_allclose(hess @ fit.theta_covariance @ hess, meat, rtol=1e-6, atol=1e-8)


def test_ppi_at_lambda_zero_is_the_human_only_davidson_mle():
    rng = np.random.default_rng(2911)
    frame = simulate(rng, np.array([0.9, 0.4, 0.0, -0.3, -1.0]), n=4000, labelled=0.2)
    fit = fit_prediction_powered(count_pairs(frame), lam=0.0)
    lab = frame[frame["human"].notna()]
    index = {m: i for i, m in enumerate(fit.models)}
    outcome = lab["human"].map({"a": 0, "tie": 1, "b": 2}).to_numpy()
    expected, tie = davidson_mle(
        lab["model_a"].map(index).to_numpy(), lab["model_b"].map(index).to_numpy(), outcome, 5
    )
    assert np.max(np.abs(fit.strength - expected)) < 1e-7
    assert abs(fit.tie - tie) < 1e-7


def test_power_tuning_minimises_the_strengths_total_variance():
    rng = np.random.default_rng(2912)
    frame = simulate(rng, np.linspace(1, -1, 6), n=6000, labelled=0.1)
    counts = count_pairs(frame)
    tuned = fit_prediction_powered(counts)

    def total(fit):
        return np.trace(fit.strength_covariance()[:6, :6])

    assert 0.0 < tuned.lam <= 1.0
    for lam in (0.0, 0.5 * tuned.lam, min(1.0, 1.5 * tuned.lam), 1.0):
        assert total(tuned) <= total(fit_prediction_powered(counts, lam=lam)) * (1 + 1e-3)


def _ppi_coverage(rng, beta, reps, **cell):
    hits, joint_hits = np.zeros(beta.size), np.zeros(beta.size)
    for _ in range(reps):
        counts = count_pairs(favouring(rng, beta, **cell))
        order = [int(m[1:]) for m in counts.models]
        fit = fit_prediction_powered(counts)
        _, ci = strength_intervals(fit.strength, fit.strength_covariance(), 0.95)
        hits += (ci[:, 0] <= beta[order]) & (beta[order] <= ci[:, 1])
        joint = fit_joint(counts)
        _, ci = strength_intervals(joint.strength, joint.strength_covariance(), 0.95)
        joint_hits += (ci[:, 0] <= beta[order]) & (beta[order] <= ci[:, 1])
    return hits / reps, joint_hits / reps


def test_ppi_covers_when_the_judge_favours_a_model_and_the_joint_fit_does_not():
    # 100 seeded data sets: the judge says model 0 wins on 35% of its pairs whatever the human
    # said. Monte Carlo s.e. of a per-model coverage near 0.95: 0.022
    rng = np.random.default_rng(2913)
    beta = np.array([0.5, 0.2, 0.0, -0.2, -0.5])
    ppi, joint = _ppi_coverage(rng, beta, 100, n=4000, labelled=0.1)
    assert ppi.min() >= 0.88 and ppi.mean() >= 0.92
    assert joint[0] < 0.5  # the favoured model's joint-MLE interval misses its strength


def test_ppi_by_judge_label_weights_keep_it_unbiased():
    rng = np.random.default_rng(2914)
    beta = np.array([0.5, 0.2, 0.0, -0.2, -0.5])
    hits = np.zeros(5)
    for _ in range(60):
        frame = favouring(rng, beta, n=4000, labelled=1.0)
        keep = rng.random(len(frame)) < np.where(frame["judge"] == "tie", 0.5, 0.08)
        frame["human"] = frame["human"].where(keep)
        counts = count_pairs(frame)
        fit = fit_prediction_powered(counts, design="by-judge-label")
        _, ci = strength_intervals(fit.strength, fit.strength_covariance(), 0.95)
        order = [int(m[1:]) for m in counts.models]
        hits += (ci[:, 0] <= beta[order]) & (beta[order] <= ci[:, 1])
    assert hits.min() / 60 >= 0.85  # s.e. 0.028 near 0.95


def test_joint_mle_warns_when_the_judge_depends_on_the_models():
    rng = np.random.default_rng(2915)
    beta = np.array([0.5, 0.2, 0.0, -0.2, -0.5])
    frame = favouring(rng, beta, n=6000, labelled=0.2)
    with pytest.warns(js.JudgeDependenceWarning, match="conditional-independence"):
        board = js.pairwise(frame, method="joint-mle", rng=0)
    assert board.independence.pvalue < 0.01
    ppi = js.pairwise(frame, rng=0)  # no warning under ppi (filterwarnings=error)
    assert ppi.method == "ppi" and ppi.lam is not None and ppi.independence.pvalue < 0.01
    fine = js.pairwise(simulate(rng, beta, n=6000, labelled=0.2), method="joint-mle", rng=0)
    assert fine.independence.pvalue > 0.01


def test_ppi_named_errors():
    frame = simulate(np.random.default_rng(2916), np.array([0.3, 0.0, -0.3]), n=600, labelled=0.2)
    with pytest.raises(js.errors.MethodError, match="by-human-label"):
        js.pairwise(frame, method="ppi", design="by-human-label")
    with pytest.raises(js.errors.MethodError, match="sandwich"):
        js.pairwise(frame, interval="observed-information")
    frame.loc[frame["judge"] == "tie", "human"] = None
    with pytest.raises(js.errors.CountError, match="by-judge-label"):
        js.pairwise(frame, design="by-judge-label")


def test_plot_draws_the_strengths_and_the_rank_heat_map():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(2917)
    board = js.pairwise(simulate(rng, np.array([0.6, 0.0, -0.6]), n=1500, labelled=0.2), rng=0)
    left = board.plot()  # the strengths panel's Axes, as every plot returns (issue 38)
    fig = left.figure
    right = fig.axes[1]
    # the corrected points are the Elo strengths, strongest at the top (largest y)
    order = np.argsort(board.rank)
    np.testing.assert_allclose(left.lines[0].get_xdata(), board.elo[order])
    np.testing.assert_allclose(right.images[0].get_array(), board.rank_probabilities[order])
    plt.close(fig)
    with pytest.raises(js.errors.MethodError, match="scale"):
        board.plot(scale="percent")


# --- clusters (issue 29: repeated votes on one prompt are one sampling unit) ---------------
#
# Provenance: with one row per cluster the clustered sandwich is today's, to 1e-12; with
# clusters, H cov H equals Σ_c G_c G_cᵀ with G_c the sum over the cluster's rows of the row
# equation g_i written out in _row_equation (the cluster-robust sandwich, Liang and Zeger
# 1986); coverage by a seeded simulation with a per-prompt shared random shift, its truth the
# population Davidson fit of the shift-averaged verdict probabilities (Gauss-Hermite, 40 nodes).


@pytest.mark.parametrize(
    ("engine", "design"), [("pandas", "random"), ("polars", "random"), ("pandas", "by-judge-label")]
)
def test_one_row_per_cluster_is_the_unclustered_fit(engine, design):
    rng = np.random.default_rng(2920)
    frame = favouring(rng, np.array([0.6, 0.2, -0.1, -0.7]), n=2000, labelled=0.2)
    frame["prompt"] = [f"p{i}" for i in range(len(frame))]
    frame["shown"] = np.where(rng.random(len(frame)) < 0.5, "a", "b")
    plain = js.pairwise(frame, position="shown", design=design, rng=0)
    if engine == "polars":
        pl = pytest.importorskip("polars")
        frame = pl.from_pandas(frame)
    board = js.pairwise(frame, position="shown", cluster="prompt", design=design, rng=0)
    np.testing.assert_allclose(board.strength, plain.strength, rtol=0, atol=1e-12)
    np.testing.assert_allclose(board.covariance, plain.covariance, rtol=0, atol=1e-12)
    assert abs(board.lam - plain.lam) < 1e-12
    assert board.cluster == "prompt" and board.n_clusters == 2000
    assert any("sampling units" in note for note in board.notes)


def test_clustered_sandwich_sums_each_clusters_row_scores():
    rng = np.random.default_rng(2921)
    frame = favouring(rng, np.array([0.6, 0.2, -0.1, -0.7]), n=3000, labelled=0.15)
    cluster = rng.integers(0, 700, len(frame))  # clusters span pairs, labelled and not
    frame["prompt"] = cluster
    board = js.pairwise(frame, cluster="prompt", rng=0)
    plain = fit_prediction_powered(count_pairs(frame), lam=board.lam)  # same equation at λ
    np.testing.assert_allclose(board.strength, plain.strength, rtol=0, atol=1e-10)
    counts = count_pairs(frame, cluster="prompt")
    fit = fit_prediction_powered(counts)
    inverse_pi = 3000 / frame["human"].notna().sum()
    _, row_meat, g = _row_equation(frame, board, fit.lam, inverse_pi)
    sums = np.zeros((700, g.shape[1]))
    np.add.at(sums, cluster, g)
    from judgestats.pairwise.prediction_powered import _pseudo_counts, fit_davidson

    f = _letter_prediction(counts)
    pseudo = _pseudo_counts(counts, f, np.full(3, inverse_pi), fit.lam)
    hess = fit_davidson(counts, pseudo, start=fit.theta).hessian
    np.testing.assert_allclose(hess @ fit.theta_covariance @ hess, sums.T @ sums, rtol=1e-6,
                               atol=1e-8)  # fmt: skip
    assert not np.allclose(sums.T @ sums, row_meat, rtol=1e-2)  # the clusters matter here


_BETA3, _NU3 = np.array([0.4, 0.0, -0.4]), 0.6
_FIRST3, _SECOND3 = np.array([0, 0, 1]), np.array([1, 2, 2])


def _shifted_truth(sd):
    """Population strengths: the Davidson fit of E_u P(d + u), u ~ N(0, sd²), per pair."""
    from judgestats.pairwise.counting import PairCounts
    from judgestats.pairwise.likelihood import davidson_probabilities
    from judgestats.pairwise.prediction_powered import fit_davidson

    x, w = np.polynomial.hermite_e.hermegauss(40)
    d = _BETA3[_FIRST3] - _BETA3[_SECOND3]
    pbar = sum(wi * davidson_probabilities(d + sd * xi, _NU3) for xi, wi in zip(x, w / w.sum(), strict=True))
    empty = PairCounts(("m0", "m1", "m2"), _FIRST3, _SECOND3, np.zeros((3, 3), int),
                       np.zeros((3, 3, 3), int), ("a", "tie", "b"))  # fmt: skip
    theta = fit_davidson(empty, pbar).theta
    return np.append(theta[:2], -theta[:2].sum())


def _prompts(rng, *, clusters, k, sd, share):
    """``clusters`` prompts, each one pair judged ``k`` times; the prompt's shift u_c of the
    strength difference is seen by humans and judge; whole prompts labelled with ``share``."""
    from judgestats.pairwise.counting import PairCounts
    from judgestats.pairwise.likelihood import davidson_probabilities

    pair, u = rng.integers(0, 3, clusters), rng.normal(0.0, sd, clusters)
    rows = np.repeat(np.arange(clusters), k)
    d = ((_BETA3[_FIRST3] - _BETA3[_SECOND3])[pair] + u)[rows]
    human = (rng.random(d.size)[:, None] > np.cumsum(davidson_probabilities(d, _NU3), 1)).sum(1)
    other = rng.random(d.size)[:, None] > np.cumsum(davidson_probabilities(d + 0.3, _NU3), 1)
    judge = np.where(rng.random(d.size) < 0.7, human, other.sum(1))
    human = np.where((rng.random(clusters) < share)[rows], human, -1)
    p, u_ = pair[rows], human < 0
    judged, labelled = np.zeros((3, 3), int), np.zeros((3, 3, 3), int)
    np.add.at(judged, (p[u_], judge[u_]), 1)
    np.add.at(labelled, (p[~u_], judge[~u_], human[~u_]), 1)
    units = np.column_stack([rows, p, judge, human, np.ones_like(p)])
    parts = (("m0", "m1", "m2"), _FIRST3, _SECOND3, judged, labelled, ("a", "tie", "b"))
    return PairCounts(*parts), PairCounts(*parts, units)


def test_clusters_restore_coverage_when_prompts_are_judged_repeatedly():
    # 400 data sets of 150 prompts (one pair each, judged k = 6 times: 900 rows), shared
    # prompt shift sd 1.5, 30% of prompts labelled; 95% intervals of the three strengths
    rng = np.random.default_rng(2922)
    truth, z = _shifted_truth(1.5), 1.959963984540054
    hits = np.zeros((2, 3))
    for _ in range(400):
        for i, counts in enumerate(_prompts(rng, clusters=150, k=6, sd=1.5, share=0.3)):
            fit = fit_prediction_powered(counts)
            se = np.sqrt(np.diag(fit.strength_covariance())[:3])
            hits[i] += np.abs(fit.strength - truth) <= z * se
    rows, clustered = hits.mean(axis=1) / 400
    assert rows < 0.90  # rows as pairs: too narrow
    assert 0.93 <= clustered <= 0.97  # Monte Carlo SE about 0.007


def test_cluster_named_errors():
    rng = np.random.default_rng(2923)
    frame = simulate(rng, np.array([0.5, 0.0, -0.5]), n=600, labelled=0.3)
    frame["prompt"] = rng.integers(0, 200, len(frame)).astype(float)
    with pytest.raises(js.errors.ClusteredCountsError, match=r"'joint-mle'.*available.*'ppi'"):
        js.pairwise(frame, cluster="prompt", method="joint-mle")
    # a method the design refuses is refused as such, before the repeated items
    with pytest.raises(js.errors.MethodError, match="by-human-label"):
        js.pairwise(frame, cluster="prompt", method="ppi", design="by-human-label")
    with pytest.raises(js.errors.ClusteredCountsError, match="by-human-label"):
        js.pairwise(frame, cluster="prompt", design="by-human-label")
    with pytest.raises(js.errors.ClusteredCountsError, match="bootstrap"):
        js.pairwise(frame, cluster="prompt", bootstrap=20)
    with pytest.raises(js.errors.ColumnError, match="'nope'"):
        js.pairwise(frame, cluster="nope")
    frame.loc[3, "prompt"] = np.nan
    with pytest.raises(js.errors.ColumnError, match="cluster ids"):
        js.pairwise(frame, cluster="prompt")


# --- the estimation spec (issue 37): the capability table decides, the designs say why ----------


def test_every_method_of_the_table_pairwise_rows_has_an_implementation():
    from judgestats.designs.capabilities import rows
    from judgestats.pairwise.leaderboard import IMPLEMENTATIONS, INTERVALS

    pairs = [r for r in rows() if (r.judge, r.target) == ("pairs", "strengths")]
    assert pairs and {m for r in pairs for m in r.methods} <= set(IMPLEMENTATIONS)
    assert {r.repeated for r in pairs} == {False, True}
    for implementation in IMPLEMENTATIONS.values():
        assert set(implementation.covariances) <= set(INTERVALS)


def test_the_default_method_is_the_table_row_default_per_design():
    from judgestats.designs.capabilities import capability

    frame = simulate(np.random.default_rng(2931), np.array([0.4, 0.0, -0.4]), n=900, labelled=0.3)
    for design in js.designs.design_names():
        board = js.pairwise(frame, design=design, rng=0)
        assert board.method == capability("pairs", "strengths", design, False).default
        assert board.design == design and isinstance(board.design, js.designs.Design)
        # a design whose calibration pairs were chosen by their human verdict: no human-only fit
        assert (board.human_only is not None) == js.designs.as_design(design).strengths_from_labels


def test_the_old_method_lists_warn_and_come_from_the_table():
    import importlib

    from judgestats.designs.capabilities import methods_for

    package = importlib.import_module("judgestats.pairwise")
    module = importlib.import_module("judgestats.pairwise.leaderboard")
    for where in (package, module):
        with pytest.warns(DeprecationWarning, match="methods_for"):
            assert where.METHODS == methods_for("pairs", "strengths", "random")
        with pytest.warns(DeprecationWarning, match="capability table"):
            assert set(where.DESIGNS) == set(js.designs.design_names())
        assert "METHODS" not in where.__all__ and "DESIGNS" not in where.__all__
    with pytest.raises(AttributeError, match="NOPE"):
        _ = package.NOPE


def test_the_column_keywords_stay_keywords():
    frame = simulate(np.random.default_rng(2932), np.array([0.3, 0.0, -0.3]), n=600, labelled=0.3)
    renamed = frame.rename(columns={"judge": "verdict", "model_a": "left"})
    counts = count_pairs(renamed, judge="verdict", model_a="left")
    board = js.pairwise(renamed, judge="verdict", model_a="left", rng=0)
    assert counts.n_judged == count_pairs(frame).n_judged == board.n_judged
    np.testing.assert_array_equal(board.strength, js.pairwise(frame, rng=0).strength)
    with pytest.raises(TypeError, match="unexpected keyword argument 'judges'"):
        js.pairwise(frame, judges="verdict")
    with pytest.raises(TypeError, match="count_pairs"):
        count_pairs(frame, left="left")
