"""Repeated items with a judge alphabet of its own (J ≠ K letters): issue 27 §1.

The design-effect-scaled likelihood (``"profile-likelihood-t"``, ``"profile-likelihood"``) and
the item bootstrap of :mod:`judgestats.multiclass.alphabet_clusters`. Provenance: the identity
(one row per item) against the unclustered methods of the same data; the design effects
against an independent computation in the test (tr of the sandwich over item totals /
tr of the multinomial covariance); coverage by a seeded simulation.
"""

from __future__ import annotations

import numpy as np
import pytest

import judgestats as js
from judgestats.multiclass import distribution_bounds

LETTERS = ["1", "2", "3", "4", "5"]
LABELS = ["fail", "pass"]
#: P(letter | human class), columns fail, pass: a 1-5 score that leans with the truth.
SCORE = np.array([[0.40, 0.05], [0.30, 0.10], [0.15, 0.15], [0.10, 0.30], [0.05, 0.40]])


def _items(gen, classes, rows, conc):
    """Each item's judge letters: its own letter distribution ~ Dirichlet(conc · C[:, h])."""
    share = np.array([gen.dirichlet(conc * SCORE[:, h]) for h in classes])
    counts = np.array([gen.multinomial(rows, s) for s in share])
    item = np.repeat(np.arange(classes.size), rows)
    letter = np.concatenate([np.repeat(np.arange(5), c) for c in counts])
    return item, letter


def _data(gen, theta=0.6, n_test=150, m=(40, 40), rows=4, conc=2.0):
    """Test items from the population; calibration items by human label (m0, m1)."""
    t_item, t_letter = _items(gen, (gen.random(n_test) < theta).astype(int), rows, conc)
    cal_h = np.repeat([0, 1], m)
    c_item, c_letter = _items(gen, cal_h, rows, conc)
    human = np.repeat(cal_h, rows)
    letters = np.array(LETTERS)
    test = js.CategoryCounts.from_labels(letters[t_letter], labels=LETTERS, cluster=t_item)
    cal = js.ConfusionMatrix.from_labels(
        human=np.array(LABELS)[human], judge=letters[c_letter], labels=LABELS,
        judge_labels=LETTERS, cluster=c_item + 10**6)
    return test, cal


def _flat(test, cal):
    return (js.CategoryCounts(test.counts, LETTERS),
            js.ConfusionMatrix(cal.counts, LABELS, judge_labels=LETTERS))


@pytest.mark.parametrize("method", ["profile-likelihood-t", "profile-likelihood"])
def test_one_row_per_item_is_the_unclustered_interval(method):
    test, cal = _data(np.random.default_rng(1), rows=1)
    res = js.correct_distribution(test, cal, method=method)
    flat = js.correct_distribution(*_flat(test, cal), method=method)
    assert res.clusters is not None and res.method == method
    assert res.clusters.design_effect == pytest.approx((1.0,) * 3, abs=1e-12)
    for lab in LABELS:
        assert res.ci[lab].low == pytest.approx(flat.ci[lab].low, abs=1e-12)
        assert res.ci[lab].high == pytest.approx(flat.ci[lab].high, abs=1e-12)
        assert res.estimate[lab] == pytest.approx(flat.estimate[lab], abs=1e-12)
    items = js.correct_distribution(test, cal, method=method, estimand="items")
    assert items.ci["pass"].low == pytest.approx(flat.ci["pass"].low, abs=1e-9)


def _sandwich_and_multinomial(tot):
    """S = G/(G − 1) Σ_g e_g e_gᵀ, e_g = (a_g − x̂ b_g)/R, and Σ = (diag x̂ − x̂x̂ᵀ)/(R − 1)."""
    rows = tot.sum()
    x = tot.sum(axis=0) / rows
    e = (tot - np.outer(tot.sum(axis=1), x)) / rows
    g = tot.shape[0]
    return g / (g - 1) * e.T @ e, (np.diag(x) - np.outer(x, x)) / (rows - 1)


def test_design_effects_along_the_estimate_scale_the_likelihood():
    from judgestats.multiclass.likelihood import alphabet_mle, alphabet_profile_bounds

    test, cal = _data(np.random.default_rng(2), rows=5, conc=1.0)
    res = js.correct_distribution(test, cal)
    assert res.method == "profile-likelihood-t"
    # independent: the direction in which p̂ moves θ̂_pass, v = row of (CᵀWC)⁻¹CᵀW,
    # W = diag(1/Cθ), then d = vᵀSv / vᵀΣv over the test items' letter totals
    theta, c, _ = alphabet_mle(test.counts, cal.counts)
    w = np.diag(1.0 / (c @ theta))
    v = (np.linalg.inv(c.T @ w @ c) @ c.T @ w)[1]
    s, sigma = _sandwich_and_multinomial(test.clusters.totals.astype(float))
    d = (v @ s @ v) / (v @ sigma @ v)
    assert res.clusters.design_effect[0] == pytest.approx(d, rel=1e-8)
    trace = np.trace(s) / np.trace(sigma)
    assert d > trace > 1.5  # every row of an item shares its human class: θ's direction
    # the scaled likelihood: the unclustered profile at counts / d_i
    shrink = np.asarray(res.clusters.design_effect)
    low, high, _ = alphabet_profile_bounds(test.counts / shrink[0], cal.counts / shrink[1:],
                                           0.95, small_sample=True)
    assert res.ci["pass"].low == pytest.approx(min(low[1], res.estimate["pass"]), abs=1e-12)
    assert res.ci["pass"].high == pytest.approx(max(high[1], res.estimate["pass"]), abs=1e-12)
    assert res.estimate["pass"] == pytest.approx(theta[1], abs=1e-12)  # the unscaled fit
    flat = js.correct_distribution(*_flat(test, cal))
    assert res.ci["pass"].width > 1.2 * flat.ci["pass"].width
    assert "design effects" in res.summary()


def test_refusals_name_the_methods_that_handle_clusters():
    test, cal = _data(np.random.default_rng(3))
    for method in ("wald", "adjusted-delta"):
        with pytest.raises(js.errors.ClusteredCountsError, match=r"'profile-likelihood-t'.*'bootstrap'"):
            js.correct_distribution(test, cal, method=method)
    with pytest.raises(js.errors.ClusteredCountsError, match="by-human-label"):
        js.correct_distribution(test, cal, design="random")


def _coverage(seed, reps, **kw):
    """Coverage of θ_pass by the cluster-aware likelihood, rows counted as items and the item
    bootstrap, over ``reps`` data sets drawn first from one Generator. Rows as items: one
    batched distribution_bounds call (correct_distribution's kernel, its default method for a
    judge alphabet); the clustered counts hold one data set each, so one call per data set."""
    gen = np.random.default_rng(seed)
    theta = kw.get("theta", 0.6)
    data = [_data(gen, **kw) for _ in range(reps)]
    rows = distribution_bounds(np.stack([t.counts for t, _ in data]),
                               np.stack([c.counts for _, c in data]),
                               method="profile-likelihood-t")  # fmt: skip
    p = LABELS.index("pass")
    hit = {"cluster": 0, "bootstrap": 0,
           "rows": int(np.sum((rows.low[:, p] <= theta) & (theta <= rows.high[:, p])))}  # fmt: skip
    for test, cal in data:
        for key, res in (
            ("cluster", js.correct_distribution(test, cal)),
            ("bootstrap", js.correct_distribution(test, cal, method="bootstrap", rng=gen,
                                                  n_resamples=300)),
        ):
            hit[key] += res.ci["pass"].low <= theta <= res.ci["pass"].high
    return {k: v / reps for k, v in hit.items()}


@pytest.mark.slow
def test_seeded_coverage_cluster_aware_against_rows_as_items():
    # 4 rows per item, Dirichlet concentration 2 (intra-item correlation 1/3), 150 test items,
    # 40 + 40 calibration items, θ = 0.6; 100 data sets, bootstrap 300 replicates. Measured at
    # seed 7: cluster-aware 0.94, item bootstrap 0.92, rows as items 0.80 (0.95, 0.95 and 0.82
    # when each data set's bootstrap drew between the draws of the data; more cells:
    # benchmarks/results/repeated_categories.md)
    cov = _coverage(7, 100)
    assert cov["cluster"] >= 0.91
    assert cov["bootstrap"] >= 0.89
    assert cov["rows"] <= 0.88


def test_three_categories_one_row_per_item_is_the_unclustered_interval():
    gen = np.random.default_rng(5)
    lean = np.array([[0.6, 0.2, 0.1], [0.2, 0.5, 0.2], [0.1, 0.2, 0.5], [0.1, 0.1, 0.2]])
    h = gen.choice(3, size=240, p=[0.4, 0.35, 0.25])
    letter = np.array([gen.choice(4, p=lean[:, b]) for b in h])
    names = ["w", "x", "y", "z"]
    lab = np.arange(240) < 140
    test = js.CategoryCounts.from_labels(np.array(names)[letter[~lab]], labels=names,
                                         cluster=np.arange(240)[~lab])
    cal = js.ConfusionMatrix.from_labels(human=h[lab], judge=np.array(names)[letter[lab]],
                                         labels=[0, 1, 2], judge_labels=names,
                                         cluster=np.arange(240)[lab])
    res = js.correct_distribution(test, cal, separation_level=None)
    flat = js.correct_distribution(
        js.CategoryCounts(test.counts, names),
        js.ConfusionMatrix(cal.counts, [0, 1, 2], judge_labels=names), separation_level=None)
    for b in range(3):
        assert (res.ci[b].low, res.ci[b].high, res.estimate[b]) == pytest.approx(
            (flat.ci[b].low, flat.ci[b].high, flat.estimate[b]), abs=1e-12)
