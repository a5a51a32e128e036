"""Issue 27 §1: the cluster bootstrap of repeated items in rankings, differences and strata.

Reference values: the unclustered joint parametric bootstrap of js.compare.rank,
js.compare.difference and js.correct_stratified (one row per item must give the same draws in
distribution, and the same point estimates to 1e-12), and coverage measured here by simulation
(issue 27's simulation, tests/test_repeated.py's ``draw``).
"""

import warnings
import zlib

import numpy as np
import pytest

import judgestats as js

from .test_repeated import (
    STRATA,
    _flat,
    _frame,
    _one_row_each,
    _pool_truth,
    _tagged,
    _two_strata,
    draw,
)

MODELS = {
    "a": (js.JudgedCounts(180, 300), js.ConfusionCounts(tp=126, fn=14, tn=55, fp=15)),
    "b": (js.JudgedCounts(560, 700), js.ConfusionCounts(tp=57, fn=3, tn=18, fp=12)),
    "c": (js.JudgedCounts(140, 250), js.ConfusionCounts(tp=40, fn=6, tn=60, fp=9)),
}


# ----------------------------------------------------------------------------- identity
@pytest.mark.parametrize("shared", [False, True])
def test_rank_with_one_row_per_item_is_the_parametric_bootstrap(shared):
    """One row per item: the cluster bootstrap is the joint parametric bootstrap in distribution.

    20,000 draws each: a percentile's Monte Carlo s.e. is below 0.002 here, a rank
    probability's below 0.0035; the tolerances are about 3 s.e.
    """
    tests = {k: t for k, (t, _) in MODELS.items()}
    cals = MODELS["a"][1] if shared else {k: c for k, (_, c) in MODELS.items()}
    ct, cc = {}, {}
    for k, (t, c) in MODELS.items():
        ct[k], cc[k] = _one_row_each(t, c, k)
    cc = cc["a"] if shared else cc
    ref = js.compare.rank(tests, cals, n_resamples=20000, rng=1)
    got = js.compare.rank(ct, cc, n_resamples=20000, rng=2)
    assert got.clustered and not ref.clustered
    for k in MODELS:
        assert abs(got.estimate[k] - ref.estimate[k]) <= 1e-12
        assert got.ci[k].low == pytest.approx(ref.ci[k].low, abs=0.007)
        assert got.ci[k].high == pytest.approx(ref.ci[k].high, abs=0.007)
    assert np.allclose(got.rank_probabilities, ref.rank_probabilities, atol=0.012)
    assert np.allclose(got.pairwise, ref.pairwise, atol=0.012, equal_nan=True)
    assert got.order == ref.order
    assert "over items" in got.summary()


@pytest.mark.parametrize("shared", [False, True])
def test_bootstrap_difference_with_one_row_per_item_is_the_parametric_one(shared):
    (ta, ca), (tb, cb) = MODELS["a"], MODELS["c"]
    xa, ya = _one_row_each(ta, ca, "a")
    xb, yb = _one_row_each(tb, cb, "b")
    ref = js.compare.difference(ta, ca, tb, None if shared else cb, shared_calibration=shared,
                                method="bootstrap", rng=1, n_resamples=20000)  # fmt: skip
    got = js.compare.difference(xa, ya, xb, None if shared else yb, shared_calibration=shared,
                                method="bootstrap", rng=2, n_resamples=20000)  # fmt: skip
    assert abs(got.estimate - ref.estimate) <= 1e-12 and got.clusters is not None
    assert got.ci.low == pytest.approx(ref.ci.low, abs=0.008)
    assert got.ci.high == pytest.approx(ref.ci.high, abs=0.008)
    assert got.standard_error == pytest.approx(ref.standard_error, rel=0.03)


def test_shared_items_move_together_in_the_cluster_bootstrap():
    """A prompt judged for both models (one id) is drawn once for both: the two models'
    bootstrap rates correlate as their item totals do (the sandwich's correlation), and a
    shared calibration set gives a difference whose spread is the delta method's."""
    gen = np.random.default_rng(14)
    items, k = 600, 4
    ease = gen.beta(1, 1, items)
    judge_a = gen.random((items, k)) < ease[:, None]
    judge_b = gen.random((items, k)) < np.clip(ease[:, None] - 0.1, 0, 1)
    ids = np.repeat(np.arange(items), k)
    ta = js.JudgedCounts.from_labels(judge_a.reshape(-1), cluster=ids)
    tb = js.JudgedCounts.from_labels(judge_b.reshape(-1), cluster=ids)
    cal = js.ConfusionCounts(tp=180, fn=20, tn=170, fp=30)
    both = js.compare.difference(ta, cal, tb, shared_calibration=True, method="bootstrap",
                                 rng=3, n_resamples=4000)  # fmt: skip
    apart = js.compare.difference(ta, cal, _tagged(tb, "b"), shared_calibration=True,
                                  method="bootstrap", rng=3, n_resamples=4000)  # fmt: skip
    delta = js.compare.difference(ta, cal, tb, shared_calibration=True)
    assert both.standard_error < 0.6 * apart.standard_error
    # the bootstrap s.e. against the cluster-robust delta method's (Wald) s.e.: within 10%
    wald = js.compare.difference(ta, cal, tb, shared_calibration=True, method="wald")
    assert both.standard_error == pytest.approx(wald.standard_error, rel=0.10)
    assert both.ci.low < delta.estimate < both.ci.high
    ranking = js.compare.rank({"a": ta, "b": tb}, cal, rng=4, n_resamples=4000)
    assert ranking.prob_greater("a", "b") > 0.99  # B's judged rate is 0.1 lower on every prompt


def test_rank_refuses_and_checks_clustered_counts():
    gen = np.random.default_rng(4)
    test, cal = draw(gen, 0.5, 0.85, 0.85, 400, 100, 3, 0.5)
    with pytest.raises(js.errors.ClusteredCountsError, match=r"rankings .*repeated items: 'bootstrap'"):
        js.compare.rank({"a": test, "b": test}, {"a": cal, "b": cal}, method="bayes")
    with pytest.raises(js.JudgeStatsError, match="estimand"):
        js.compare.rank({"a": test, "b": test}, cal, estimand="verdicts")
    chance = js.ConfusionCounts.from_labels(human=[1, 1, 0, 0], judge=[1, 0, 1, 0],
                                            cluster=[1, 1, 2, 2])  # fmt: skip
    with pytest.raises(js.errors.NotInformativeError, match="calibrations\\['b'\\]"):
        js.compare.rank({"a": test, "b": test}, {"a": cal, "b": chance})
    for design in ("random", "by-judge-label"):
        r = js.compare.rank({"a": test, "b": _tagged(test, "b")}, {"a": cal, "b": _tagged(cal, "b")},
                            design=design, rng=0, n_resamples=500)  # fmt: skip
        one = js.correct(test, cal, design=design)
        assert r.estimate["a"] == pytest.approx(one.estimate, abs=1e-12) and r.design == design
    items = js.compare.rank({"a": test, "b": _tagged(test, "b")}, cal, estimand="items", rng=0,
                            n_resamples=500)  # fmt: skip
    assert items.estimand == "items"
    assert items.estimate["a"] == pytest.approx(js.correct(test, cal, estimand="items").estimate)


def test_evaluate_ranks_repeated_items():
    frame = _frame(3)
    ev = js.evaluate(frame, cluster="item", rank=True, rank_resamples=2000, rng=0)
    r = ev.ranking
    assert r.clustered and r.method == "bootstrap"
    for model in ("m1", "m2"):
        assert r.estimate[model] == pytest.approx(ev[model].estimate, abs=1e-12)
    direct = js.compare.rank({m: ev[m].test for m in ("m1", "m2")},
                             {m: ev[m].calibration for m in ("m1", "m2")}, rng=0,
                             n_resamples=2000)  # fmt: skip
    assert np.allclose(direct.pairwise, r.pairwise, equal_nan=True)
    again = ev.rank(rng=0)
    assert again.clustered
    items = js.evaluate(frame, cluster="item", rank=True, rank_resamples=500, rng=0,
                        estimand="items")  # fmt: skip
    assert items.ranking.estimand == "items"


# ----------------------------------------------------------------------------- coverage
THETAS = {"a": 0.3, "b": 0.45, "c": 0.6}


@pytest.mark.parametrize("shared", [False, True])
def test_ranking_intervals_cover_where_rows_as_items_did_not(shared):
    """300 leaderboards of three models (300 items each, 60 labelled, k = 5, ρ = 0.6).

    Each model's interval from the ranking's draws must cover its θ in >= 0.91 of the data
    sets (0.95 − 3 s.e. at 300); the same ranking with rows counted as items must not reach
    0.88 (issue 27's defect, on the same data). Shared: model a's calibration serves all.
    """
    gen = np.random.default_rng(zlib.crc32(repr(("rank", shared)).encode()))
    reps = 300
    hit = {k: 0 for k in THETAS}
    flat_hit = dict(hit)
    for _ in range(reps):
        tests, cals = {}, {}
        for k, theta in THETAS.items():
            t, c = draw(gen, theta, 0.85, 0.85, 300, 60, 5, 0.6)
            tests[k], cals[k] = _tagged(t, k), _tagged(c, k)
        cal = cals["a"] if shared else cals
        flat_cal = _flat(cals["a"]) if shared else {k: _flat(c) for k, c in cals.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = js.compare.rank(tests, cal, n_resamples=400, rng=gen)
            f = js.compare.rank({k: _flat(t) for k, t in tests.items()}, flat_cal,
                                n_resamples=400, rng=gen)  # fmt: skip
        for k, theta in THETAS.items():
            hit[k] += r.ci[k].low <= theta <= r.ci[k].high
            flat_hit[k] += f.ci[k].low <= theta <= f.ci[k].high
    assert min(hit.values()) / reps >= 0.91, hit
    assert max(flat_hit.values()) / reps <= 0.88, flat_hit


def test_bootstrap_difference_covers_with_prompts_shared_by_both_models():
    """300 differences of two models judged on the same 400 prompts (ids), k = 4, ρ = 0.5.

    A prompt's latent u sets both models' truths (y_A = u < 0.35, y_B = u < 0.55: strongly
    correlated); 80 prompts are human-labelled for both models (separate calibrations sharing
    their items). Δ = −0.2. The cluster bootstrap must cover >= 0.91 (0.95 − 3 s.e.).
    """
    gen = np.random.default_rng(zlib.crc32(b"difference-bootstrap-shared-prompts"))
    reps, hit, wald_hit = 300, 0, 0
    items, k, rho = 400, 4, 0.5
    ids = np.repeat(np.arange(items), k)
    for _ in range(reps):
        u = gen.random(items)
        labelled = np.zeros(items, bool)
        labelled[gen.choice(items, 80, replace=False)] = True
        lab = np.repeat(labelled, k)
        counts = []
        for theta in (0.35, 0.55):
            y = u < theta
            mu = np.where(y, 0.85, 0.15)
            prop = gen.beta(mu * (1 - rho) / rho, (1 - mu) * (1 - rho) / rho)
            judge = (gen.random((items, k)) < prop[:, None]).reshape(-1)
            human = np.repeat(y, k)
            counts.append((js.JudgedCounts.from_labels(judge[~lab], cluster=ids[~lab]),
                           js.ConfusionCounts.from_labels(human=human[lab], judge=judge[lab],
                                                          cluster=ids[lab])))  # fmt: skip
        (ta, ca), (tb, cb) = counts
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = js.compare.difference(ta, ca, tb, cb, method="bootstrap", rng=gen,
                                        n_resamples=400)  # fmt: skip
            wald = js.compare.difference(ta, ca, tb, cb)
        hit += res.ci.low <= -0.2 <= res.ci.high
        wald_hit += wald.ci.low <= -0.2 <= wald.ci.high
    assert hit / reps >= 0.91
    assert wald_hit / reps >= 0.91  # the delta method on the same data, for comparison


# ----------------------------------------------------------------------------- strata
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


@pytest.mark.parametrize("weights", ["test", {"a": 0.5, "b": 0.5}])
def test_stratified_item_bootstrap_covers(weights):
    """300 data sets of two strata (500 items, 100 labelled, k = 5, ρ = 0.5), 400 resamples.

    The item bootstrap of the pool must cover >= 0.91 (0.95 − 3 s.e.); the unclustered
    stratified bootstrap (rows as items) must stay below 0.90 on the same data.
    """
    gen = np.random.default_rng(zlib.crc32(repr(("strata-boot", weights)).encode()))
    reps, hit, flat_hit = 300, 0, 0
    for _ in range(reps):
        tests, cals = _two_strata(gen)
        truth = _pool_truth(tests, weights)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = js.correct_stratified(tests, cals, weights=weights, method="bootstrap",
                                        rng=gen, n_resamples=400)  # fmt: skip
            flat = js.correct_stratified({s: _flat(t) for s, t in tests.items()},
                                         {s: _flat(c) for s, c in cals.items()}, weights=weights,
                                         method="bootstrap", rng=gen, n_resamples=400)  # fmt: skip
        hit += res.ci.low <= truth <= res.ci.high
        flat_hit += flat.ci.low <= truth <= flat.ci.high
    assert hit / reps >= 0.91
    assert flat_hit / reps <= 0.90
