"""Repeated items nested in strata (issue 27 §1): the cluster-robust pool, its item bootstrap
and diagnostics (judgestats.strata.clustered).

Reference values: the unclustered pool of js.correct_stratified (one row per item must give its
interval to 1e-12 and its bootstrap in distribution), and coverage measured here by simulation
(issue 27's simulation, tests/test_repeated.py's ``draw``).
"""

import warnings
import zlib

import numpy as np
import pytest

import judgestats as js
from judgestats.strata import pooled_bounds
from tests.test_repeated import (
    STRATA,
    _one_row_each,
    _tagged,
    clustered_at,
    draw,
    draw_batch,
)


# ----------------------------------------------------------------------------- cluster-robust pool
@pytest.mark.parametrize("method", ["adjusted-wald", "wald"])
@pytest.mark.parametrize("weights", ["test", {"short": 0.2, "long": 0.5, "other": 0.3}])
@pytest.mark.parametrize("which", ["all", "some"])
def test_stratified_with_one_row_per_item_is_the_unclustered_pool(method, weights, which):
    tests = {s: t for s, (t, _) in STRATA.items()}
    cals = {s: c for s, (_, c) in STRATA.items()}
    ct, cc = dict(tests), dict(cals)
    for s in STRATA if which == "all" else ["long"]:
        ct[s], cc[s] = _one_row_each(tests[s], cals[s], s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = js.correct_stratified(tests, cals, method=method, weights=weights)
        got = js.correct_stratified(ct, cc, method=method, weights=weights)
    assert abs(got.ci.low - ref.ci.low) <= 1e-12 and abs(got.ci.high - ref.ci.high) <= 1e-12
    assert abs(got.estimate_unclipped - ref.estimate_unclipped) <= 1e-12
    assert got.weights == pytest.approx(ref.weights, abs=1e-15)
    for s in STRATA:
        assert abs(got[s].ci.low - ref[s].ci.low) <= 1e-12
        assert abs(got[s].ci.high - ref[s].ci.high) <= 1e-12
    u, v = got.unstratified, ref.unstratified
    assert abs(u.ci.low - v.ci.low) <= 1e-12 and abs(u.ci.high - v.ci.high) <= 1e-12
    assert got.diagnostics.joint_test.statistic == pytest.approx(
        ref.diagnostics.joint_test.statistic, rel=1e-12)
    assert got.design_effect == pytest.approx(1.0, abs=1e-12)
    assert got.clusters is not None and ref.clusters is None


def _pool_truth(tests, weights):
    """The pooled rate :func:`_two_strata` targets: θ = 0.3 and 0.6 in the strata, mixed by the
    drawn test rows (``weights="test"``, the estimand) or equally (given weights 0.5/0.5)."""
    if weights == "test":
        n = {s: t.n for s, t in tests.items()}
        return (0.3 * n["a"] + 0.6 * n["b"]) / (n["a"] + n["b"])
    return 0.45


def _two_strata(gen, k=5, rho=0.5):
    tests, cals = {}, {}
    for s, theta in (("a", 0.3), ("b", 0.6)):
        test, cal = draw(gen, theta, 0.85, 0.85, 500, 100, k, rho)
        tests[s], cals[s] = _tagged(test, s), _tagged(cal, s)
    return tests, cals


def _two_strata_batch(gen, reps, k=5, rho=0.5):
    """``reps`` data sets of :func:`_two_strata` drawn as arrays (:func:`draw_batch`).

    Returns a function giving data set r as clustered counts per stratum (item ids 0–499 in
    'a', 1000–1499 in 'b': disjoint, as ``_tagged`` makes them), the data sets' test counts
    per stratum (batched, for :func:`_pool_truth`), and the data sets with rows counted as
    items as batched counts of shape (reps, 2), strata on the last axis (the layout of
    :func:`judgestats.strata.pooled_bounds`).
    """
    cells = {s: draw_batch(gen, reps, theta, 0.85, 0.85, 500, 100, k, rho)
             for s, theta in (("a", 0.3), ("b", 0.6))}  # fmt: skip

    def clustered(r):
        pairs = {s: clustered_at(c, r, offset=1000 * i) for i, (s, c) in enumerate(cells.items())}
        return {s: t for s, (t, _) in pairs.items()}, {s: c for s, (_, c) in pairs.items()}

    x, n, tp, fn, tn, fp = np.moveaxis(np.stack([c.sum(axis=1) for c in cells.values()], 1), -1, 0)
    per_stratum = {s: js.JudgedCounts(x[:, i], n[:, i]) for i, s in enumerate(cells)}
    return clustered, per_stratum, (js.JudgedCounts(x, n), js.ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp))


@pytest.mark.parametrize("weights", ["test", {"a": 0.5, "b": 0.5}])
def test_cluster_aware_stratified_interval_covers(weights):
    """400 data sets of two strata (500 items, 100 labelled, k = 5 verdicts, ρ = 0.5).

    Binomial s.e. of a coverage of 0.95 over 400 data sets: 0.011; the cluster-aware pool must
    reach 0.95 − 3 s.e. ≈ 0.917 (as the single-correction test above), the pool of rows as items
    must not reach 0.90. Over 1,500 data sets (seed 7) the cluster-aware pool covered 0.949
    (test mix) and 0.948 (given weights), rows as items 0.728 and 0.725. With weights="test"
    the truth is the mix of the drawn test rows (the estimand).

    The data sets are drawn as arrays (:func:`_two_strata_batch`, one seeded Generator); the
    rows-as-items pool is one batched :func:`judgestats.strata.pooled_bounds` call (the pool
    correct_stratified reports), the cluster-aware pool one correct_stratified call per data
    set (clustered counts hold one data set each). These draws cover 0.965 (test mix) and 0.938
    (given weights), rows as items 0.725 and 0.710.
    """
    gen = np.random.default_rng(zlib.crc32(repr(("strata", weights)).encode()))
    reps = 400
    clustered, per_stratum, (test_b, cal_b) = _two_strata_batch(gen, reps)
    truth = np.broadcast_to(_pool_truth(per_stratum, weights), reps)
    fixed = None if weights == "test" else [weights["a"], weights["b"]]
    flat = pooled_bounds(test_b, cal_b, weights=fixed)  # adjusted-wald, 0.95
    assert not np.isnan(flat.low).any()  # correct_stratified would raise
    hit = 0
    for r in range(reps):
        tests, cals = clustered(r)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = js.correct_stratified(tests, cals, weights=weights)
        hit += res.ci.low <= truth[r] <= res.ci.high
    assert hit / reps >= 0.917
    assert np.mean((flat.low <= truth) & (truth <= flat.high)) <= 0.90


def test_stratified_result_reports_the_repeats_and_recomputes_with_them():
    gen = np.random.default_rng(21)
    tests, cals = _two_strata(gen)
    res = js.correct_stratified(tests, cals)
    assert res.design_effect > 1.5 and set(res.clusters) == {"a", "b"}
    assert res.clusters["a"].design_effect[0] > 1.5 and res.estimand == "rows"
    assert "design effect on pooled θ̂" in res.summary()
    pooled = res.to_dict()["rows"][-1]
    assert pooled["design_effect_theta"] == res.design_effect and pooled["estimand"] == "rows"
    assert res.confidence_interval(method="wald") == js.correct_stratified(
        tests, cals, method="wald").ci
    for s in ("a", "b"):  # each stratum is js.correct's cluster-aware correction
        with warnings.catch_warnings(record=True) as caught:  # a stratum's own class sizes
            warnings.simplefilter("always")
            assert res[s].ci == js.correct(tests[s], cals[s], method="adjusted-wald").ci
        assert {w.category for w in caught} <= {js.WeakCalibrationWarning}
    items = js.correct_stratified(tests, cals, estimand="items")  # k rows per item: the same
    assert items.estimate == pytest.approx(res.estimate) and items.estimand == "items"


def test_stratified_items_estimand_weights_items():
    test_a = js.JudgedCounts.from_labels([1, 1, 1, 0], cluster=[0, 0, 0, 1])  # 2 items, 4 rows
    test_b = js.JudgedCounts.from_labels([0, 1], cluster=[2, 3])
    cal = js.ConfusionCounts(tp=40, fn=10, tn=45, fp=5)
    cal_b = js.ConfusionCounts(tp=41, fn=9, tn=44, fp=6)
    tests, cals = {"a": test_a, "b": test_b}, {"a": cal, "b": cal_b}
    rows = js.correct_stratified(tests, cals)
    items = js.correct_stratified(tests, cals, estimand="items")
    assert rows.weights == pytest.approx({"a": 4 / 6, "b": 2 / 6})
    assert items.weights == pytest.approx({"a": 0.5, "b": 0.5})
    assert items["a"].naive == pytest.approx(0.5)  # items 0 (3 of 3) and 1 (0 of 1)


def test_an_item_in_two_strata_is_a_named_error():
    gen = np.random.default_rng(2)
    tests, cals = _two_strata(gen)
    first = tests["a"].clusters.ids[0]
    cals["b"] = js.ConfusionCounts.from_labels(human=[1, 0, 1], judge=[1, 0, 0],
                                               cluster=[first, first, ("b", -1)])  # fmt: skip
    with pytest.raises(js.errors.StrataMismatchError, match=rf"item id \('a', {first[1]}\) has rows "
                       r"in tests\['a'\] and in calibrations\['b'\]"):  # fmt: skip
        js.correct_stratified(tests, cals, min_per_class=1)
    assert issubclass(js.errors.StrataMismatchError, ValueError)


def test_stratified_refuses_what_has_no_cluster_aware_pool():
    gen = np.random.default_rng(6)
    tests, cals = _two_strata(gen)
    with pytest.raises(js.errors.ClusteredCountsError, match="design='random' treat every row"):
        js.correct_stratified(tests, cals, design="random")
    with pytest.raises(js.JudgeStatsError, match="estimand"):
        js.correct_stratified(tests, cals, estimand="verdicts")
    res = js.correct_stratified(tests, cals)
    boot = res.confidence_interval(method="bootstrap", rng=0, n_resamples=2000)
    assert boot.method == "bootstrap" and boot.n_resamples == 2000
    # 500 items per stratum: the item bootstrap and the cluster-robust pool agree within 0.02
    assert (boot.low, boot.high) == pytest.approx((res.ci.low, res.ci.high), abs=0.02)


def test_merged_clustered_strata_keep_their_items():
    gen = np.random.default_rng(12)
    tests, cals = _two_strata(gen)
    tests["c"], cals["c"] = STRATA["other"]  # counted without items: one row each
    res = js.correct_stratified(tests, cals, merge={"c": "b"})
    assert res.strata == ("a", "b") and res.merged == {"c": "b"}
    merged = res["b"].test
    assert merged.n == tests["b"].n + 250 and merged.clusters.size == 500 + 250 - 100 + 0
    assert res.clusters["b"].items == res.clusters["b"].test_items + 100 + 95


# ----------------------------------------------------------------------------- item bootstrap
@pytest.mark.parametrize("weights", ["test", {"short": 0.2, "long": 0.5, "other": 0.3}])
def test_stratified_bootstrap_with_one_row_per_item_is_the_parametric_one(weights):
    """One row per item: the item bootstrap is the stratified parametric bootstrap (test mix
    redrawn for weights="test") in distribution; 20,000 draws each, tolerance ~3 MC s.e."""
    tests = {s: t for s, (t, _) in STRATA.items()}
    cals = {s: c for s, (_, c) in STRATA.items()}
    ct, cc = {}, {}
    for s in STRATA:
        ct[s], cc[s] = _one_row_each(tests[s], cals[s], s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = js.correct_stratified(tests, cals, method="bootstrap", weights=weights, rng=1,
                                    n_resamples=20000)  # fmt: skip
        got = js.correct_stratified(ct, cc, method="bootstrap", weights=weights, rng=2,
                                    n_resamples=20000)  # fmt: skip
    assert abs(got.estimate_unclipped - ref.estimate_unclipped) <= 1e-12
    assert got.ci.low == pytest.approx(ref.ci.low, abs=0.006)
    assert got.ci.high == pytest.approx(ref.ci.high, abs=0.006)
    assert got.ci.n_resamples == 20000 and got.clusters is not None
    for s in STRATA:
        assert got[s].ci.method == "bootstrap"


@pytest.mark.slow
@pytest.mark.parametrize("weights", ["test", {"a": 0.5, "b": 0.5}])
def test_stratified_item_bootstrap_covers(weights):
    """300 data sets of two strata (500 items, 100 labelled, k = 5, ρ = 0.5), 400 resamples.

    The item bootstrap of the pool must cover >= 0.91 (0.95 − 3 s.e.); the unclustered
    stratified bootstrap (rows as items) must stay below 0.90 on the same data. Drawn as
    arrays (:func:`_two_strata_batch`); the rows-as-items bootstrap is one batched
    :func:`judgestats.strata.pooled_bounds` call, the item bootstrap one correct_stratified
    call per data set. These draws cover 0.967 (test mix) and 0.950 (given weights), rows as
    items 0.747 and 0.693.
    """
    gen = np.random.default_rng(zlib.crc32(repr(("strata-boot", weights)).encode()))
    reps = 300
    clustered, per_stratum, (test_b, cal_b) = _two_strata_batch(gen, reps)
    truth = np.broadcast_to(_pool_truth(per_stratum, weights), reps)
    fixed = None if weights == "test" else [weights["a"], weights["b"]]
    flat = pooled_bounds(test_b, cal_b, weights=fixed, method="bootstrap", rng=gen,
                         n_resamples=400)  # fmt: skip
    assert not np.isnan(flat.low).any()
    hit = 0
    for r in range(reps):
        tests, cals = clustered(r)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = js.correct_stratified(tests, cals, weights=weights, method="bootstrap",
                                        rng=gen, n_resamples=400)  # fmt: skip
        hit += res.ci.low <= truth[r] <= res.ci.high
    assert hit / reps >= 0.91
    assert np.mean((flat.low <= truth) & (truth <= flat.high)) <= 0.90
