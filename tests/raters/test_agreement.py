"""Inter-rater agreement (raters/agreement.py): Krippendorff's α and Fleiss' κ.

Reference values: Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", sections A
(two observers, binary data: α = 0.095) and C (four observers, missing values: α = 0.743
nominal; the same data with the ordinal metric, his section E: α = 0.815); Fleiss (1971),
"Measuring nominal scale agreement among many raters", Table 1 (30 patients, 6 raters each, 5
diagnoses: κ = 0.430). And plain loop-based implementations of the textbook formulas below
(pairs of values counted one by one), on random data with missing values.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import norm

from judgestats.errors import LabelError, RatingsError
from judgestats.raters import Ratings, fleiss_kappa, krippendorff_alpha

NAN = np.nan
# Krippendorff (2011) section C: observers A-D (rows) by units 1-12 (columns); NAN = no value.
KRIPPENDORFF_C = np.array([
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
]).T  # fmt: skip
# Krippendorff (2011) section A: two observers, ten units, binary values.
KRIPPENDORFF_A = np.array([[0, 1, 0, 0, 0, 0, 0, 0, 1, 0], [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]]).T
# Fleiss (1971) Table 1, one row per patient: the six raters' diagnoses (1-5), as distributed
# with R's irr package (`diagnoses`); kappam.fleiss gives 0.4302445, Fleiss printed 0.430.
FLEISS_1971 = np.array([
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
])  # fmt: skip


# ----------------------------------------------------------------- slow textbook references
def alpha_by_pairs(data: np.ndarray, values: list, metric: str) -> float:
    """Krippendorff's α counted pair by pair (2011, eqs. for o_ck, n_c, D_o/D_e), loops only."""
    o = {(c, k): 0.0 for c in values for k in values}
    for unit in data:
        present = [v for v in unit if not np.isnan(v)]
        if len(present) < 2:
            continue
        for i, j in itertools.permutations(range(len(present)), 2):
            o[present[i], present[j]] += 1.0 / (len(present) - 1)
    n_c = {c: sum(o[c, k] for k in values) for c in values}
    n = sum(n_c.values())

    def d2(c, k):
        if metric == "nominal":
            return float(c != k)
        lo, hi = sorted((values.index(c), values.index(k)))
        return (sum(n_c[values[g]] for g in range(lo, hi + 1)) - (n_c[c] + n_c[k]) / 2) ** 2

    d_o = sum(o[c, k] * d2(c, k) for c in values for k in values) / n
    d_e = sum(n_c[c] * n_c[k] * d2(c, k) for c in values for k in values) / (n * (n - 1))
    return 1.0 - d_o / d_e


def fleiss_by_items(data: np.ndarray, values: list) -> float:
    """Fleiss' κ in Gwet's form for missing ratings (module docstring), item by item."""
    pa, n2, share, n1 = 0.0, 0, {v: 0.0 for v in values}, 0
    for unit in data:
        present = [v for v in unit if not np.isnan(v)]
        r = len(present)
        if r >= 1:
            n1 += 1
            for v in values:
                share[v] += present.count(v) / r
        if r >= 2:
            n2 += 1
            pa += sum(present.count(v) * (present.count(v) - 1) for v in values) / (r * (r - 1))
    pa /= n2
    pe = sum((share[v] / n1) ** 2 for v in values)
    return (pa - pe) / (1 - pe)


def _random_data(seed: int, items: int, raters: int, k: int, missing: float) -> np.ndarray:
    gen = np.random.default_rng(seed)
    truth = gen.integers(0, k, items)
    data = np.where(gen.random((items, raters)) < 0.7, truth[:, None],
                    gen.integers(0, k, (items, raters))).astype(float)  # fmt: skip
    data[gen.random((items, raters)) < missing] = NAN
    empty = np.isnan(data).all(axis=1)
    data[empty, 0] = truth[empty]  # every item keeps at least one value
    return data


# ----------------------------------------------------------------- published values
def test_krippendorff_2011_worked_examples():
    r = Ratings.from_matrix(KRIPPENDORFF_C, ordinal=True)
    assert krippendorff_alpha(r, n_boot=100, rng=0).estimate == pytest.approx(0.743, abs=5e-4)
    ordinal = krippendorff_alpha(r, metric="ordinal", n_boot=100, rng=0)
    assert ordinal.estimate == pytest.approx(0.815, abs=5e-4)
    assert ordinal.n_items == 11 and ordinal.n_ratings == 40  # unit 12 is not pairable
    binary = krippendorff_alpha(Ratings.from_matrix(KRIPPENDORFF_A), n_boot=100, rng=0)
    assert binary.estimate == pytest.approx(0.095, abs=5e-4)


def test_fleiss_1971_table_1():
    res = fleiss_kappa(Ratings.from_matrix(FLEISS_1971), n_boot=200, rng=0)
    assert res.estimate == pytest.approx(0.4302445, abs=1e-7)
    assert res.n_items == 30 and res.n_raters == 6 and res.measure == "fleiss-kappa"


# ----------------------------------------------------------------- the loop references
@pytest.mark.parametrize("seed", range(6))
def test_alpha_and_kappa_match_the_loop_references_on_random_data(seed):
    gen = np.random.default_rng(100 + seed)
    items, raters, k = int(gen.integers(8, 40)), int(gen.integers(2, 6)), int(gen.integers(2, 5))
    data = _random_data(seed, items, raters, k, missing=float(gen.uniform(0, 0.5)))
    values = sorted({v for v in data.ravel() if not np.isnan(v)})
    r = Ratings.from_matrix(data, ordinal=True)
    for metric in ("nominal", "ordinal"):
        got = krippendorff_alpha(r, metric=metric, n_boot=100, rng=0).estimate
        assert got == pytest.approx(alpha_by_pairs(data, values, metric), abs=1e-12)
    got = fleiss_kappa(r, n_boot=100, rng=0).estimate
    assert got == pytest.approx(fleiss_by_items(data, values), abs=1e-12)


def test_the_judge_in_or_out():
    data = _random_data(1, 30, 3, 2, 0.2)
    judge = np.where(np.isnan(data[:, 0]), 1.0, 1.0 - data[:, 0])  # contradicts rater 0
    r = Ratings.from_matrix(data, judge=judge)
    out = krippendorff_alpha(r, n_boot=100, rng=0)
    inside = krippendorff_alpha(r, include_judge=True, n_boot=100, rng=0)
    values = sorted({v for v in data.ravel() if not np.isnan(v)})
    assert out.estimate == pytest.approx(alpha_by_pairs(data, values, "nominal"))
    both = np.column_stack([data, judge])
    assert inside.estimate == pytest.approx(alpha_by_pairs(both, values, "nominal"))
    assert inside.judge_included and inside.raters[-1] == "judge" and inside.n_raters == 4
    # rater 0 as the judge: the ratings' own judge goes back among the raters
    assert fleiss_kappa(r, judge=0, n_boot=100, rng=0).raters == (1, 2, "judge")


# ----------------------------------------------------------------- the interval
def test_bootstrap_interval_is_seeded_and_named():
    r = Ratings.from_matrix(FLEISS_1971)
    a = krippendorff_alpha(r, n_boot=400, rng=5, confidence_level=0.9)
    b = krippendorff_alpha(r, n_boot=400, rng=5, confidence_level=0.9)
    assert (a.ci.low, a.ci.high) == (b.ci.low, b.ci.high)
    assert a.ci.low < a.estimate < a.ci.high and a.ci.n_resamples == 400
    assert a.ci.method == a.interval_method == "cluster-bootstrap-bca"
    assert a.confidence_level == 0.9 == a.ci.confidence_level
    assert "krippendorff-alpha (nominal) = 0.4" in a.summary()


def test_bootstrap_matches_a_loop_resample():
    """The weighted-sum bootstrap equals α recomputed on resampled items (same draws)."""
    data = _random_data(3, 25, 4, 3, 0.3)
    r = Ratings.from_matrix(data)
    counts = r.counts()
    pairable = np.flatnonzero(counts.sum(axis=1) >= 2)
    res = krippendorff_alpha(r, n_boot=100, interval="percentile", rng=np.random.default_rng(9))
    gen = np.random.default_rng(9)
    draws = gen.integers(0, pairable.size, size=(100, pairable.size))
    values = sorted({v for v in data.ravel() if not np.isnan(v)})
    boot = np.array([alpha_by_pairs(data[pairable[d]], values, "nominal") for d in draws])
    low, high = np.quantile(boot, [0.025, 0.975])
    assert (res.ci.low, res.ci.high) == (pytest.approx(low), pytest.approx(high))
    # BCa (Efron 1987; Efron & Tibshirani 1993, eqs. 14.9-14.15): bias correction from the
    # share of resamples below the estimate, acceleration from the item jackknife
    bca = krippendorff_alpha(r, n_boot=100, rng=np.random.default_rng(9))
    est = alpha_by_pairs(data[pairable], values, "nominal")
    z0 = norm.ppf((np.sum(boot < est) + 0.5 * np.sum(boot == est)) / boot.size)
    jack = np.array([alpha_by_pairs(np.delete(data[pairable], i, axis=0), values, "nominal")
                     for i in range(pairable.size)])  # fmt: skip
    d = jack.mean() - jack
    a = np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)
    z = norm.ppf([0.025, 0.975])
    probs = norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))
    low, high = np.quantile(boot, probs)
    assert (bca.ci.low, bca.ci.high) == (pytest.approx(low), pytest.approx(high))
    assert bca.interval_method == "cluster-bootstrap-bca"


def test_fleiss_bca_jackknife_matches_a_loop():
    from judgestats.raters.agreement import _fleiss_of_sums, _fleiss_parts

    data = _random_data(4, 20, 3, 3, 0.3)
    values = sorted({v for v in data.ravel() if not np.isnan(v)})
    counts = Ratings.from_matrix(data).counts()
    loop = [fleiss_by_items(np.delete(data, i, axis=0), values) for i in range(data.shape[0])]
    parts = _fleiss_parts(counts)
    np.testing.assert_allclose(_fleiss_of_sums(parts.sum(axis=0) - parts), loop, atol=1e-12)


def test_coverage_fast_tier():
    """95% interval of α covers the α of the population of items (seeded; 3 raters)."""
    gen = np.random.default_rng(2026)
    truth_gen = _random_data(77, 20000, 3, 2, 0.0)
    target = krippendorff_alpha(Ratings.from_matrix(truth_gen), n_boot=100, rng=0).estimate
    hits = []
    for _ in range(60):
        rows = truth_gen[gen.integers(0, truth_gen.shape[0], 80)]
        ci = krippendorff_alpha(Ratings.from_matrix(rows), n_boot=300, rng=gen).ci
        hits.append(ci.low <= target <= ci.high)
    assert np.mean(hits) >= 0.85  # 60 draws: the full tier is in benchmarks/


def test_refusals():
    r = Ratings.from_matrix(KRIPPENDORFF_A)
    with pytest.raises(RatingsError, match="metric='ordinal' needs ordered categories"):
        krippendorff_alpha(r, metric="ordinal")
    with pytest.raises(Exception, match="metric"):
        krippendorff_alpha(r, metric="interval")
    with pytest.raises(Exception, match="ratings must be a Ratings"):
        fleiss_kappa(KRIPPENDORFF_A)


# ----------------------------------------------------------------- cluster= (items in clusters)
def _clustered(gen, n_clusters, size, n_raters=3):
    """Ratings of items nested in clusters (several answers to one question): a cluster's
    items share their true label (90%) and the raters' accuracy (0.95 on an easy cluster,
    0.65 on a hard one); the raters label each item independently given those."""
    easy = gen.random(n_clusters) < 0.5
    truth_c = gen.random(n_clusters) < 0.5
    truth = np.where(gen.random((n_clusters, size)) < 0.9, truth_c[:, None],
                     ~truth_c[:, None]).ravel()  # fmt: skip
    accuracy = np.repeat(np.where(easy, 0.95, 0.65), size)
    right = gen.random((truth.size, n_raters)) < accuracy[:, None]
    labels = np.where(right, truth[:, None], ~truth[:, None]).astype(float)
    return labels, np.repeat(np.arange(n_clusters), size)


def test_cluster_resamples_whole_clusters():
    # one cluster per item is the item bootstrap (the same draws, the same interval); the
    # mapping form names the same clusters as the sequence form
    data = _random_data(5, 60, 3, 3, 0.2)
    r = Ratings.from_matrix(data)
    for fn in (krippendorff_alpha, fleiss_kappa):
        plain, single = fn(r, rng=3), fn(r, rng=3, cluster=np.arange(r.n_items))
        assert (single.ci.low, single.ci.high) == (plain.ci.low, plain.ci.high)
        # the units resampled: α's pairable items, κ's rated items
        rated = int((r.counts().sum(axis=1) > 0).sum())
        units = single.n_items if fn is krippendorff_alpha else rated
        assert plain.n_clusters is None and single.n_clusters == units
        ids = np.arange(r.n_items) // 4
        by_seq = fn(r, rng=3, cluster=ids)
        by_map = fn(r, rng=3, cluster=dict(zip(r.items, ids, strict=True)))
        assert by_seq.estimate == plain.estimate  # the point estimate does not change
        assert (by_map.ci.low, by_map.ci.high) == (by_seq.ci.low, by_seq.ci.high)
        assert by_seq.n_clusters == 15 and "of 15 clusters" in by_seq.summary()


def test_cluster_errors_name_the_argument():
    r = Ratings.from_matrix(_random_data(5, 20, 3, 2, 0.0))
    with pytest.raises(LabelError, match="cluster has 19 ids for 20 rows"):
        krippendorff_alpha(r, cluster=np.arange(19))
    with pytest.raises(LabelError, match="cluster must not contain missing ids"):
        fleiss_kappa(r, cluster=[None] * 20)
    with pytest.raises(LabelError, match="no cluster for 1 of the 20 items"):
        fleiss_kappa(r, cluster={item: 0 for item in r.items[:-1]})


def test_clustered_interval_is_wider_and_covers():
    """Items in clusters of 6 that agree alike: resampling clusters covers, items do not.

    Target: the coefficient on 40,000 clusters of the same process (a large sample; the
    coefficients' formulas are checked against the published examples above). 150 data sets of 30 clusters (180 items), percentile intervals of 200
    resamples (Monte Carlo s.e. of a coverage of 0.95: 0.018).
    """
    from judgestats.raters.agreement import (
        _fleiss_of_sums,
        _fleiss_parts,
        alpha_of_coincidences,
        item_coincidences,
    )

    gen = np.random.default_rng(4100)
    big, _ = _clustered(gen, 40000, 6)
    ones = big.sum(axis=1)
    counts = np.column_stack([big.shape[1] - ones, ones])  # every item rated by all three
    targets = {
        krippendorff_alpha: alpha_of_coincidences(item_coincidences(counts).sum(0), "nominal"),
        fleiss_kappa: _fleiss_of_sums(_fleiss_parts(counts).sum(axis=0)),
    }
    hits = {(fn, c): [] for fn in targets for c in (False, True)}
    width = {key: [] for key in hits}
    for _ in range(150):
        labels, ids = _clustered(gen, 30, 6)
        r = Ratings.from_matrix(labels)
        for fn, target in targets.items():
            for c in (False, True):
                ci = fn(r, n_boot=200, interval="percentile", rng=gen,
                        cluster=ids if c else None).ci  # fmt: skip
                hits[fn, c].append(ci.low <= target <= ci.high)
                width[fn, c].append(ci.high - ci.low)
    for fn in targets:
        assert np.mean(hits[fn, True]) >= 0.90, fn.__name__
        assert np.mean(hits[fn, False]) <= 0.85, fn.__name__  # the items' bootstrap misses
        assert np.mean(width[fn, True]) >= 1.3 * np.mean(width[fn, False]), fn.__name__
