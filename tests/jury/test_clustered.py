"""The jury under repeated items (issue 39): the members' covariance over items.

References: the package's rule for repeated items (one row per item gives the independent
numbers exactly, as ``judgestats.repeated`` does for one judge); an independent computation
(k exact copies of every row carry the information of one row: the clustered jury on the
copies has the independent jury's standard error on the original, to within eq. (8)'s
pseudo-counts, O(z²/n)); and a seeded simulation of clustered data (items with 1–5 rows, a
shared item effect on the human label and on the judges' errors), fast tier: one grid cell and
two cells drawn at random, 200 data sets each (the full tier: benchmarks/bench_jury.py).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import judgestats as js
from judgestats.counts.clusters import ClusterTotals
from judgestats.errors import ArgumentTypeError, ClusteredCountsError, MethodError
from judgestats.jury import JuryCorrection, correct_jury, jury_items
from judgestats.jury.clustered import cluster_moments, clustered_jury_bounds
from judgestats.jury.weights import jury_bounds
from judgestats.kernels import z_value

Z = z_value(0.95)


def clustered_data(gen, *, sens, spec, theta, items, share, rho, item_sd, max_rows=5):
    """Per-item product-letter counts: items of 1..max_rows rows, a shared item effect.

    Row r of item g: human 1{a + item_sd·u_g + e_r > 0} (a set so that P(human = 1) = θ);
    judge j right where √ρ(√½ v_r + √½ w_g) + √(1 − ρ) e_rj < Φ⁻¹(accuracy) (sensitivity
    for human 1, specificity for human 0): errors correlated across judges within a row and
    across the rows of an item. A share of the items is labelled (all their rows).
    """
    judges = len(sens)
    size = gen.integers(1, max_rows + 1, items)
    g = np.repeat(np.arange(items), size)
    u, w = gen.standard_normal(items), gen.standard_normal(items)
    a = norm.ppf(theta) * np.sqrt(1 + item_sd**2)
    human = (a + item_sd * u[g] + gen.standard_normal(g.size) > 0).astype(int)
    shared = np.sqrt(0.5) * gen.standard_normal((g.size, 1)) + np.sqrt(0.5) * w[g][:, None]
    lat = np.sqrt(rho) * shared + np.sqrt(1 - rho) * gen.standard_normal((g.size, judges))
    acc = np.where(human[:, None] == 1, np.asarray(sens), np.asarray(spec))
    right = lat < norm.ppf(acc)
    verdict = np.where(human[:, None] == 1, right, ~right).astype(int)
    letter = verdict @ (2 ** np.arange(judges - 1, -1, -1))
    labelled = (gen.random(items) < share)[g]
    t = np.zeros((items, 2**judges), dtype=np.int64)
    c = np.zeros((items, 2**judges, 2), dtype=np.int64)
    np.add.at(t, (g[~labelled], letter[~labelled]), 1)
    np.add.at(c, (g[labelled], letter[labelled], human[labelled]), 1)
    return t, c


def singletons(test, cal):
    """Per-item arrays with one row per item from letter tables (test (L,), cal (L, 2))."""
    cells = len(test)
    t = np.repeat(np.eye(cells, dtype=np.int64), test, axis=0)
    rows = [np.repeat(np.eye(cells, dtype=np.int64), cal[:, k], axis=0) for k in (0, 1)]
    c = np.zeros((sum(len(r) for r in rows), cells, 2), dtype=np.int64)
    c[: len(rows[0]), :, 0], c[len(rows[0]) :, :, 1] = rows
    return (np.vstack([t, np.zeros((len(c), cells), np.int64)]),
            np.vstack([np.zeros((len(t), cells, 2), np.int64), c]))  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_row_per_item_gives_the_independent_jury_exactly(seed):
    gen = np.random.default_rng(seed)
    judges = int(gen.integers(2, 4))
    cells = 2**judges
    test = gen.multinomial(int(gen.integers(200, 2000)), gen.dirichlet(np.ones(cells)))
    cal = np.stack([gen.multinomial(int(gen.integers(30, 300)), gen.dirichlet(np.ones(cells)))
                    for _ in (0, 1)], axis=-1)  # fmt: skip
    cal[0, 0] += 40  # judges that agree with human 0 on some items
    cal[-1, 1] += 40
    alone = jury_bounds(test, cal, Z)
    items = clustered_jury_bounds(*singletons(test, cal), 0.95)
    assert items["df"] == np.inf
    for key in ("low", "high", "estimate", "se", "weights", "member_low", "member_high"):
        # to rounding (the members' bounds: centre ± z·√Σ̃_jj here, eq. (8)'s kernel there)
        np.testing.assert_allclose(items[key], alone[key], rtol=1e-12, atol=1e-15, err_msg=key)
    assert items["fallback"] == alone["fallback"]


def test_copies_of_every_row_carry_one_rows_information():
    # k = 3 copies of each item's row: V_clu is the independent covariance of the original n
    # rows; the clustered jury's se on the copies equals the independent jury's on the
    # original up to eq. (8)'s pseudo-counts (z²/n ≈ 0.4% here)
    test = np.array([380, 70, 90, 460])
    cal = np.array([[140, 8], [24, 12], [20, 16], [16, 164]])
    original = jury_bounds(test, cal, Z)
    t, c = singletons(test, cal)
    copies = clustered_jury_bounds(3 * t, 3 * c, 0.95)
    assert copies["se"] == pytest.approx(float(original["se"]), rel=0.01)
    assert copies["estimate"] == pytest.approx(float(original["estimate"]), abs=0.002)
    rows = jury_bounds(3 * test, 3 * cal, Z)  # rows as items: √3 too short
    assert float(rows["se"]) == pytest.approx(float(original["se"]) / np.sqrt(3), rel=0.01)


def test_repeats_never_narrow_and_never_wider_than_the_better_member():
    gen = np.random.default_rng(7)
    t, c = clustered_data(gen, sens=(0.9, 0.75, 0.7), spec=(0.85, 0.8, 0.75), theta=0.4,
                          items=300, share=0.4, rho=0.3, item_sd=1.5)  # fmt: skip
    mm = cluster_moments(t, c, Z)
    assert np.linalg.eigvalsh(mm["extra"]).min() >= -1e-15  # Δ is positive semidefinite
    b = clustered_jury_bounds(t, c, 0.95)
    flat = jury_bounds(t.sum(axis=0), c.sum(axis=0), Z)
    assert b["se"] >= flat["se"] - 1e-12
    assert b["se"] <= np.sqrt(np.diagonal(mm["cov"])).min() + 1e-12
    assert 1 < b["df"] < np.inf


def _coverage(cell, gen, reps):
    hit = np.empty(reps, dtype=bool)
    for r in range(reps):
        b = clustered_jury_bounds(*clustered_data(gen, **cell), 0.95)
        hit[r] = b["low"] <= cell["theta"] <= b["high"]
    return hit.mean()


def _random_cell(gen):
    judges = int(gen.integers(2, 4))
    return dict(sens=tuple(gen.uniform(0.65, 0.95, judges)),
                spec=tuple(gen.uniform(0.65, 0.95, judges)), theta=float(gen.uniform(0.1, 0.9)),
                items=int(gen.integers(150, 500)), share=float(gen.uniform(0.2, 0.5)),
                rho=float(gen.uniform(0, 0.6)), item_sd=float(gen.uniform(0.5, 2.0)))  # fmt: skip


def test_coverage_fast_tier():
    # one grid cell (as benchmarks/bench_jury.py's clustered grid) and two random cells (seed
    # 3939); 200 data sets each: coverage ≥ 0.91 (95% nominal; binomial SE ≈ 0.015)
    grid = dict(sens=(0.9, 0.75), spec=(0.85, 0.8), theta=0.3, items=300, share=0.3, rho=0.3,
                item_sd=1.5)  # fmt: skip
    gen = np.random.default_rng(3939)
    for cell in (grid, _random_cell(gen), _random_cell(gen)):
        assert _coverage(cell, gen, 200) >= 0.91, cell


def _frame(seed=5, items=240):
    gen = np.random.default_rng(seed)
    size = gen.integers(1, 6, items)
    g = np.repeat(np.arange(items), size)
    human = (gen.random(items) < 0.4)[g].astype(int)
    a = np.where(human == 1, gen.random(g.size) < 0.9, gen.random(g.size) < 0.15).astype(int)
    b = np.where(human == 1, gen.random(g.size) < 0.8, gen.random(g.size) < 0.25).astype(int)
    labelled = (gen.random(items) < 0.45)[g]
    return pd.DataFrame({"model": "m", "item": g, "a": a, "b": b,
                         "human": np.where(labelled, human, np.nan)})  # fmt: skip


def test_evaluate_with_cluster_is_the_counts_level_jury():
    frame = _frame()
    ev = js.evaluate(frame, judge=["a", "b"], cluster="item", confidence_level=0.9)
    res = ev.corrections["m"]
    assert isinstance(res, JuryCorrection) and res.items == frame.item.nunique()
    assert res.confidence_level == 0.9 and np.isfinite(res.t_df)
    lab = frame.human.notna()
    letters = (frame.a.astype(str) + "|" + frame.b.astype(str)).to_numpy()
    alphabet = sorted(set(letters))
    test = js.CategoryCounts.from_labels(letters[~lab], labels=alphabet,
                                         cluster=frame.item[~lab])  # fmt: skip
    cal = js.ConfusionMatrix.from_labels(human=frame.human[lab].astype(int), judge=letters[lab],
                                         labels=[0, 1], judge_labels=alphabet,
                                         cluster=frame.item[lab])  # fmt: skip
    alone = correct_jury(test, cal, judges=["a", "b"], confidence_level=0.9)
    assert (res.ci.low, res.ci.high) == (alone.ci.low, alone.ci.high)
    # the per-item arrays: every row once, items aligned across test and calibration
    t, c = jury_items(test, cal)
    assert t.sum() == (~lab).sum() and c.sum() == lab.sum() and len(t) == frame.item.nunique()
    # the repeats widen the interval over rows counted as items
    flat = js.evaluate(frame, judge=["a", "b"], confidence_level=0.9).corrections["m"]
    assert res.ci.high - res.ci.low > flat.ci.high - flat.ci.low


def test_evaluate_with_cluster_refuses_what_it_cannot_do():
    frame = _frame()
    with pytest.raises(ClusteredCountsError, match="'min-variance'"):
        js.evaluate(frame, judge=["a", "b"], cluster="item", method="bootstrap")
    with pytest.raises(ClusteredCountsError, match="judge alphabet"):
        js.evaluate(frame, judge=["a", "b"], cluster="item", design="random",
                    combine="letters")  # fmt: skip
    # the random design's default (combine="stack") takes repeated items: folds by item
    stacked = js.evaluate(frame, judge=["a", "b"], cluster="item", design="random", rng=0)
    assert stacked.corrections["m"].combine == "stack"
    assert stacked.corrections["m"].items == frame.item.nunique()


# ----------------------------------------------------------------------------- estimand="items"
# References: the definition (each item weight 1, shared by its rows: judgestats.repeated's
# item_weights, the single judge's rule), the single judge's own items-estimand rates
# (js.correct(..., estimand="items"), an independent path), and a seeded simulation where an
# item's rows depend on its label, so that the rate over items differs from the rate over rows.


@pytest.mark.parametrize("seed", [0, 1])
def test_items_estimand_with_one_row_per_item_is_the_rows_estimand(seed):
    gen = np.random.default_rng(seed)
    cells = 2 ** int(gen.integers(2, 4))
    test = gen.multinomial(int(gen.integers(200, 2000)), gen.dirichlet(np.ones(cells)))
    cal = np.stack([gen.multinomial(int(gen.integers(60, 300)), gen.dirichlet(np.ones(cells)))
                    for _ in (0, 1)], axis=-1)  # fmt: skip
    cal[0, 0] += 40
    cal[-1, 1] += 40
    alone = jury_bounds(test, cal, Z)
    items = clustered_jury_bounds(*singletons(test, cal), 0.95, estimand="items")
    for key in ("low", "high", "estimate", "se", "weights"):
        np.testing.assert_allclose(items[key], alone[key], rtol=1e-12, atol=1e-15, err_msg=key)


def test_items_estimand_with_equal_rows_per_item_is_the_rows_estimand():
    # every item 3 rows: the weights 1/3 are the same for all, so the two means agree (as
    # judgestats.repeated says of one judge)
    test, cal = np.array([380, 70, 90, 460]), np.array([[140, 8], [24, 12], [20, 16], [16, 164]])
    t, c = singletons(test, cal)
    rows = clustered_jury_bounds(3 * t, 3 * c, 0.95)
    items = clustered_jury_bounds(3 * t, 3 * c, 0.95, estimand="items")
    for key in ("low", "high", "estimate", "se", "df"):
        assert items[key] == pytest.approx(float(rows[key]), rel=1e-12), key


def test_items_estimand_ignores_how_many_rows_an_item_has():
    gen = np.random.default_rng(7)
    t, c = clustered_data(gen, sens=(0.9, 0.75, 0.7), spec=(0.85, 0.8, 0.75), theta=0.4,
                          items=300, share=0.4, rho=0.3, item_sd=1.5)  # fmt: skip
    some = np.arange(0, 300, 7)  # every row of these items three times
    t3, c3 = t.copy(), c.copy()
    t3[some] *= 3
    c3[some] *= 3
    before, after = (cluster_moments(a, b, Z, estimand="items") for a, b in ((t, c), (t3, c3)))
    for key in ("p", "q0", "q1"):  # the members' item-weighted rates: the estimand
        np.testing.assert_allclose(after[key], before[key], rtol=1e-12, err_msg=key)
    b0, b3 = (clustered_jury_bounds(a, b, 0.95, estimand="items") for a, b in ((t, c), (t3, c3)))
    # the jury's centre and bounds move by eq. (8)'s pseudo-counts only (O(z²/rows))
    for key in ("estimate", "low", "high"):
        assert b3[key] == pytest.approx(float(b0[key]), abs=0.002), key
    r0, r3 = (clustered_jury_bounds(a, b, 0.95) for a, b in ((t, c), (t3, c3)))
    assert abs(r3["estimate"] - r0["estimate"]) > 0.02  # the rows estimand does move


def test_items_estimand_members_are_the_single_judges_items_rates():
    gen = np.random.default_rng(11)
    t, c = clustered_data(gen, sens=(0.9, 0.7), spec=(0.8, 0.85), theta=0.4, items=500,
                          share=0.5, rho=0.3, item_sd=1.0)  # fmt: skip
    mm = cluster_moments(t, c, Z, estimand="items")
    ids = np.arange(len(t))
    for j, says in enumerate(([2, 3], [1, 3])):  # cells where judge j says 1 (judge 0 leads)
        no = [k for k in range(4) if k not in says]
        pos, n = t[:, says].sum(1), t.sum(1)
        tp, fn = c[:, says, 1].sum(1), c[:, no, 1].sum(1)
        tn, fp = c[:, no, 0].sum(1), c[:, says, 0].sum(1)
        on_t, on_c = n > 0, tp + fn + tn + fp > 0
        test = js.JudgedCounts(int(pos.sum()), int(n.sum()), clusters=ClusterTotals(
            ids[on_t], np.stack([pos, n], 1)[on_t], ("positive", "n")))  # fmt: skip
        cal = js.ConfusionCounts(tp=int(tp.sum()), fn=int(fn.sum()), tn=int(tn.sum()),
                                 fp=int(fp.sum()), clusters=ClusterTotals(
            ids[on_c], np.stack([tp, fn, tn, fp], 1)[on_c], ("tp", "fn", "tn", "fp")))  # fmt: skip
        one = js.correct(test, cal, method="adjusted-wald", estimand="items",
                         confidence_level=0.95)
        assert one.clusters.estimand == "items"
        p, q0, q1 = (one.clusters.values[k] for k in ("p", "q0", "q1"))
        assert (mm["p"][j], mm["q0"][j], mm["q1"][j]) == pytest.approx((p, q0, q1), rel=1e-12)


def _label_sized(gen, *, theta, items=300, share=0.35):
    """Per-item counts where an item of human 1 has 1–5 rows and one of human 0 a single row.

    The rate over items is θ; over rows it is 3θ/(3θ + 1 − θ). Two judges (sensitivity,
    specificity) = (0.85, 0.85) and (0.75, 0.8), errors shared by an item's rows (ρ = 0.4).
    """
    h = gen.random(items) < theta
    size = np.where(h, gen.integers(1, 6, items), 1)
    g = np.repeat(np.arange(items), size)
    shared = np.sqrt(0.4) * gen.standard_normal(items)[g][:, None]
    lat = shared + np.sqrt(0.6) * gen.standard_normal((g.size, 2))
    acc = np.where(h[g][:, None], [0.85, 0.75], [0.85, 0.8])
    right = lat < norm.ppf(acc)
    letter = np.where(h[g][:, None], right, ~right).astype(int) @ np.array([2, 1])
    labelled = (gen.random(items) < share)[g]
    t = np.zeros((items, 4), dtype=np.int64)
    c = np.zeros((items, 4, 2), dtype=np.int64)
    np.add.at(t, (g[~labelled], letter[~labelled]), 1)
    np.add.at(c, (g[labelled], letter[labelled], h[g][labelled].astype(int)), 1)
    return t, c


def test_items_estimand_covers_the_rate_over_items():
    # fast tier: one cell (seed 3943), 120 data sets: the items interval covers θ = 0.3 (the
    # rate over items) ≥ 0.90 (95% nominal; binomial SE ≈ 0.02); the rows interval aims at
    # the rate over rows, 0.5625, and misses θ
    gen = np.random.default_rng(3943)
    hit, miss = [], []
    for r in range(120):
        t, c = _label_sized(gen, theta=0.3)
        b = clustered_jury_bounds(t, c, 0.95, estimand="items")
        hit.append(b["low"] <= 0.3 <= b["high"])
        if r < 20:
            rows = clustered_jury_bounds(t, c, 0.95)
            miss.append(not rows["low"] <= 0.3 <= rows["high"])
    assert np.mean(hit) >= 0.90
    assert np.mean(miss) >= 0.9


def test_evaluate_jury_items_estimand():
    frame = _frame()
    res = js.evaluate(frame, judge=["a", "b"], cluster="item", estimand="items",
                      confidence_level=0.9).corrections["m"]  # fmt: skip
    assert isinstance(res, JuryCorrection) and res.estimand == "items"
    lab = frame.human.notna()
    letters = (frame.a.astype(str) + "|" + frame.b.astype(str)).to_numpy()
    alphabet = sorted(set(letters))
    test = js.CategoryCounts.from_labels(letters[~lab], labels=alphabet,
                                         cluster=frame.item[~lab])  # fmt: skip
    cal = js.ConfusionMatrix.from_labels(human=frame.human[lab].astype(int), judge=letters[lab],
                                         labels=[0, 1], judge_labels=alphabet,
                                         cluster=frame.item[lab])  # fmt: skip
    alone = correct_jury(test, cal, judges=["a", "b"], confidence_level=0.9, estimand="items")
    assert (res.ci.low, res.ci.high, res.estimate) == (alone.ci.low, alone.ci.high,
                                                       alone.estimate)  # fmt: skip
    rows = correct_jury(test, cal, judges=["a", "b"], confidence_level=0.9)
    assert rows.estimand == "rows" and res.estimate != rows.estimate
    assert res.to_dict()["estimand"] == "items" and "mean over items" in res.summary()
    flat = correct_jury(js.CategoryCounts(test.counts, labels=alphabet),
                        js.ConfusionMatrix(cal.counts, labels=[0, 1], judge_labels=alphabet),
                        estimand="items")  # no repeated items: every row an item
    assert flat.estimand is None and "estimand" not in flat.to_dict()


def test_items_estimand_named_errors():
    frame = _frame()
    with pytest.raises(MethodError, match=r"estimand \('item'\) must be one of"):
        js.evaluate(frame, judge=["a", "b"], cluster="item", estimand="item")
    with pytest.raises(ArgumentTypeError, match="estimand is not available with combine='stack'"):
        js.evaluate(frame, judge=["a", "b"], cluster="item", estimand="items", design="random",
                    combine="stack")  # fmt: skip
    with pytest.raises(ClusteredCountsError, match="'min-variance'"):
        js.evaluate(frame, judge=["a", "b"], cluster="item", estimand="items",
                    method="profile-likelihood-t")  # fmt: skip
