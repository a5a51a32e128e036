"""Repeated items for k categories (issue 27 §1): the sandwich covariance of Ĉ⁻¹p̂ over item totals,
the item bootstrap, the designs, the separation test's design effects.
"""

import warnings
import zlib

import numpy as np
import pytest

import judgestats as js
from judgestats._validation import (
    ArgumentTypeError,
    CountError,
    IllConditionedError,
    LabelError,
    MethodError,
)

# ----------------------------------------------------------------------------- repeated items
_REP_CASES = [
    ([43, 38, 19], [[8, 1, 0], [2, 8, 2], [0, 1, 8]]),
    ([120, 60, 20], [[30, 2, 0], [0, 25, 3], [0, 3, 17]]),  # a column of Ĉ with a zero cell
    ([50, 20, 20, 10], [[20, 2, 1, 0], [1, 15, 2, 1], [1, 2, 18, 1], [0, 1, 1, 12]]),
    ([60, 40], [[40, 6], [10, 44]]),  # k = 2
    ([5, 40, 55], [[30, 0, 0], [0, 25, 0], [0, 0, 20]]),  # a perfect judge: every column degenerate
]


def _rows(counts, matrix):
    """Test judge labels and calibration (human, judge) pairs, one row per item."""
    counts, matrix = np.asarray(counts), np.asarray(matrix)
    k = counts.size
    t = np.repeat(np.arange(k), counts)
    j, h = np.divmod(np.repeat(np.arange(k * k), matrix.ravel()), k)
    return t, h, j


def _clustered(t, h, j, t_ids, c_ids, k):
    labels = list(range(k))
    return (js.CategoryCounts.from_labels(t, labels=labels, cluster=t_ids),
            js.ConfusionMatrix.from_labels(human=h, judge=j, labels=labels, cluster=c_ids))


@pytest.mark.parametrize("case", range(len(_REP_CASES)))
@pytest.mark.parametrize("method", ["adjusted-delta", "wald"])
@pytest.mark.parametrize("which", ["both", "test", "calibration"])
@pytest.mark.parametrize("estimand", ["rows", "items"])
def test_one_row_per_item_gives_the_unclustered_distribution_interval(case, method, which,
                                                                      estimand):
    counts, matrix = _REP_CASES[case]
    k = len(counts)
    test, cal = js.CategoryCounts(counts), js.ConfusionMatrix(matrix)
    t, h, j = _rows(counts, matrix)
    ct, cc = _clustered(t, h, j, np.arange(t.size), [f"c{i}" for i in range(h.size)], k)
    ct, cc = (ct if which != "calibration" else test), (cc if which != "test" else cal)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = js.correct_distribution(test, cal, method=method)
        got = js.correct_distribution(ct, cc, method=method, estimand=estimand)
    assert got.clusters is not None and got.clusters.df == (np.inf,) * k
    assert got.clusters.design_effect == pytest.approx((1.0,) * (k + 1), abs=1e-12)
    for lab in ref.labels:
        assert abs(got.ci[lab].low - ref.ci[lab].low) <= 1e-12
        assert abs(got.ci[lab].high - ref.ci[lab].high) <= 1e-12
        assert abs(got.estimate[lab] - ref.estimate[lab]) <= 1e-12
    np.testing.assert_allclose(got.covariance, ref.covariance, rtol=0, atol=1e-12)
    assert got.projected == ref.projected


def test_one_row_per_item_refuses_what_the_unclustered_correction_refuses():
    test, cal = js.CategoryCounts([50, 50, 50]), js.ConfusionMatrix([[10, 10, 0], [10, 10, 0],
                                                                     [0, 0, 20]])
    t, h, j = _rows(test.counts, cal.counts)
    ct, cc = _clustered(t, h, j, np.arange(t.size), np.arange(h.size) + 10**6, 3)
    with pytest.raises(IllConditionedError):
        js.correct_distribution(test, cal)
    with pytest.raises(IllConditionedError):
        js.correct_distribution(ct, cc)


def _repeated_data(gen, n_items=200, m_items=30, reps=5, icc=0.5):
    """k = 3, ``reps`` rows per item; an item's judge distribution ~ Dirichlet(C[:, b]·κ).

    Two rows of one item then have intra-item correlation 1/(κ + 1) = ``icc`` in each judge
    label's indicator (Dirichlet-multinomial), on top of sharing the item's human label.
    """
    kappa = 1.0 / icc - 1.0
    h_test = gen.choice(3, size=n_items, p=_REP_THETA)
    h_cal = np.repeat(np.arange(3), m_items)

    def judge(h):
        probs = gen.dirichlet(np.ones(3), size=h.size) * 0  # shape only
        for b in range(3):
            sel = h == b
            probs[sel] = gen.dirichlet(_REP_C[:, b] * kappa, size=int(sel.sum()))
        u = gen.random((h.size, reps))
        return (u[..., None] > np.cumsum(probs, axis=1)[:, None, :-1]).sum(axis=2).ravel()

    t_ids = np.repeat(np.arange(n_items), reps)
    c_ids = np.repeat(np.arange(h_cal.size), reps) + 10**6
    return judge(h_test), t_ids, np.repeat(h_cal, reps), judge(h_cal), c_ids


_REP_THETA = np.array([0.5, 0.3, 0.2])


_REP_C = np.array([[0.8, 0.1, 0.05], [0.15, 0.8, 0.15], [0.05, 0.1, 0.8]])


def test_clustered_interval_covers_where_rows_as_items_do_not():
    """k = 3, 5 rows per item, intra-item correlation 0.5, 300 data sets (seeded)."""
    gen = np.random.default_rng(2711)
    sets, hits = 300, np.zeros((3, 3))
    for _ in range(sets):
        t, t_ids, h, j, c_ids = _repeated_data(gen)
        ct, cc = _clustered(t, h, j, t_ids, c_ids, 3)
        flat = (js.CategoryCounts(ct.counts), js.ConfusionMatrix(cc.counts))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits = (js.correct_distribution(ct, cc), js.correct_distribution(ct, cc, method="wald"),
                    js.correct_distribution(*flat))
        for row, res in zip(hits, fits, strict=True):
            row += [res.ci[b].low <= _REP_THETA[b] <= res.ci[b].high for b in range(3)]
    cover = hits / sets
    se = np.sqrt(0.95 * 0.05 / sets)  # 0.0126
    assert (cover[0] >= 0.95 - 2 * se).all(), cover  # adjusted-delta with clusters
    assert (cover[1] >= 0.95 - 2.5 * se).all(), cover  # wald with clusters
    assert (cover[2] < 0.95 - 5 * se).all(), cover  # rows counted as items


def test_k2_design_effects_are_the_binary_ones():
    gen = np.random.default_rng(5)
    item = np.repeat(np.arange(80), 4)
    truth = np.repeat(gen.random(80) < 0.5, 4)
    judge = gen.random(320) < np.where(truth, 0.8, 0.25) + np.repeat(gen.normal(0, 0.1, 80), 4)
    lab = item < 40
    with pytest.warns(js.WeakCalibrationWarning, match="effective items"):
        binary = js.correct(js.JudgedCounts.from_labels(judge[~lab], cluster=item[~lab]),
                            js.ConfusionCounts.from_labels(human=truth[lab], judge=judge[lab],
                                                           cluster=item[lab]),
                            method="adjusted-wald")  # the paper's, named: Rogan–Gladen θ̂
    ct, cc = _clustered(judge[~lab].astype(int), truth[lab].astype(int), judge[lab].astype(int),
                        item[~lab], item[lab], 2)
    res = js.correct_distribution(ct, cc, method="wald")
    # components (p̂, column 0 = specificity side, column 1 = sensitivity side) = (p, q0, q1)
    assert res.clusters.design_effect == pytest.approx(binary.clusters.design_effect, rel=1e-12)
    assert res.clusters.effective == pytest.approx(binary.clusters.effective, rel=1e-12)
    assert res.estimate[1] == pytest.approx(binary.estimate, abs=1e-12)


def test_items_estimand_weighs_each_item_once():
    # test items with 1, 2 and 3 rows; calibration one row per item
    t = np.array([0, 1, 1, 0, 2, 2])
    t_ids = np.array([0, 1, 1, 2, 2, 2])
    cal = js.ConfusionMatrix([[8, 1, 0], [2, 8, 2], [0, 1, 8]])
    test = js.CategoryCounts.from_labels(t, labels=[0, 1, 2], cluster=t_ids)
    res = js.correct_distribution(test, cal, estimand="items", separation_level=None)
    p_items = (np.array([1, 0, 0]) + np.array([0, 1, 0]) + np.array([1, 0, 2]) / 3) / 3
    want = np.linalg.solve(cal.matrix, p_items)
    assert list(res.estimate_unconstrained.values()) == pytest.approx(want, abs=1e-12)
    rows = js.correct_distribution(test, cal, separation_level=None)
    assert list(rows.estimate_unconstrained.values()) == pytest.approx(
        np.linalg.solve(cal.matrix, test.p_hat), abs=1e-12)


def test_raters_who_disagree_split_an_item_over_columns():
    # item 7 has two rows with human labels 0 and 1: under "items" it counts ½ in each column
    human = np.array([0, 0, 1, 1, 2, 2, 0, 1] * 5)
    judge = np.array([0, 1, 1, 1, 2, 2, 0, 0] * 5)
    ids = np.repeat(np.arange(20), 2)
    cc = js.ConfusionMatrix.from_labels(human=human, judge=judge, labels=[0, 1, 2], cluster=ids)
    test = js.CategoryCounts([40, 35, 25])
    res = js.correct_distribution(test, cc, estimand="items", separation_level=None)
    assert res.clusters.items == 100 + 20 and res.clusters.calibration_items == 20
    assert all(np.isfinite(res.ci[b].low) for b in range(3))
    assert res.confidence_interval("wald")[0] == js.correct_distribution(
        test, cc, estimand="items", separation_level=None, method="wald").ci[0]


def test_clustered_counts_refuse_methods_that_count_rows_as_items():
    t, h, j = _rows([43, 38, 19], [[8, 1, 0], [2, 8, 2], [0, 1, 8]])
    ct, cc = _clustered(t, h, j, np.arange(t.size) // 2, np.arange(h.size) // 2 + 10**6, 3)
    for method in ("profile-likelihood", "profile-likelihood-t"):
        with pytest.raises(js.errors.ClusteredCountsError, match=r"'adjusted-delta'.*'bootstrap'"):
            js.correct_distribution(ct, cc, method=method)
    with pytest.raises(js.errors.ClusteredCountsError, match="by-human-label"):
        js.correct_distribution(ct, cc, design="random", method="bootstrap")
    with pytest.raises(js.errors.ClusteredCountsError, match="correct_distribution"):
        js.bayes.build_model(ct, cc)
    res = js.correct_distribution(ct, cc)
    boot = res.confidence_interval("bootstrap", rng=0, n_resamples=500)
    assert all(b.method == "bootstrap" and b.n_resamples == 500 for b in boot.values())
    with pytest.raises(js.errors.ClusteredCountsError, match="profile"):
        res.confidence_interval("profile-likelihood")
    with pytest.raises(MethodError, match="estimand"):
        js.correct_distribution(ct, cc, estimand="people")
    with pytest.raises(ArgumentTypeError, match="no options"):
        js.correct_distribution(ct, cc, n_resamples=99)
    score = js.ConfusionMatrix.from_labels(human=h, judge=j + 10 * (j == 2) * (np.arange(j.size) % 2),
                                           labels=[0, 1, 2], judge_labels="observed",
                                           cluster=np.arange(h.size) // 2)
    letters = js.CategoryCounts.from_labels(np.r_[t, 12], labels=score.judge_labels)
    with pytest.raises(js.errors.ClusteredCountsError, match=r"judge alphabet.*'profile-likelihood-t'"):
        js.correct_distribution(letters, score, method="wald")  # alphabets: test_alphabet_clusters.py


def test_cluster_ids_are_validated():
    with pytest.raises(LabelError, match="cluster has 3 ids for 4 rows"):
        js.CategoryCounts.from_labels(["a", "b", "a", "c"], cluster=[1, 1, 2])
    with pytest.raises(LabelError, match="cluster"):
        js.ConfusionMatrix.from_labels(human=[0, 1], judge=[0, 1], cluster=[1, None])
    good = js.CategoryCounts.from_labels([0, 1, 1], cluster=["x", "x", "y"])
    with pytest.raises(CountError, match="sum to"):
        js.CategoryCounts([2, 2], clusters=good.clusters)
    with pytest.raises(ArgumentTypeError, match="ClusterTotals"):
        js.ConfusionMatrix([[2, 0], [0, 1]], clusters=[[1, 0, 0, 1]])


def test_reorder_and_merge_carry_the_clusters():
    test = js.CategoryCounts.from_labels(list("abacc"), cluster=[1, 1, 2, 2, 3])
    back = test.reorder(["c", "b", "a"]).reorder(["a", "b", "c"])
    assert back == test and back.clusters.totals.tolist() == [[1, 1, 0], [1, 0, 1], [0, 0, 1]]
    assert test.merge({"c": "b"}).clusters.totals.tolist() == [[1, 1], [1, 1], [0, 1]]
    cal = js.ConfusionMatrix.from_labels(human=list("abcab"), judge=list("abccb"),
                                         cluster=[1, 1, 2, 2, 3])
    back = cal.reorder(["b", "c", "a"]).reorder(["a", "b", "c"])
    assert back == cal
    moved = cal.reorder(["c", "a", "b"])
    per_item = moved.clusters.totals.reshape(-1, 3, 3)
    np.testing.assert_array_equal(per_item.sum(axis=0), moved.counts)
    assert per_item[2].tolist() == [[0, 0, 0], [0, 0, 0], [0, 0, 1]]  # item 3: judge b, human b


def test_from_frame_with_a_cluster_column_is_from_labels_with_cluster():
    """``from_frame(cluster=col)`` builds the counts ``from_labels(cluster=)`` builds; with one
    row per item the correction is the unclustered one to 1e-12 (the coverage of these counts is
    test_clustered_interval_covers_where_rows_as_items_do_not's)."""
    pd = pytest.importorskip("pandas")
    gen = np.random.default_rng(2711)
    t, t_ids, h, j, c_ids = _repeated_data(gen, n_items=60, m_items=10)
    frame_t = pd.DataFrame({"judge": t, "item": t_ids})
    frame_c = pd.DataFrame({"human": h, "judge": j, "item": c_ids})
    ct, cc = _clustered(t, h, j, t_ids, c_ids, 3)
    assert js.CategoryCounts.from_frame(frame_t, labels=[0, 1, 2], cluster="item") == ct
    assert js.ConfusionMatrix.from_frame(frame_c, labels=[0, 1, 2], cluster="item") == cc
    counts, matrix = _REP_CASES[0]
    t, h, j = _rows(counts, matrix)
    one_t = js.CategoryCounts.from_frame(pd.DataFrame({"judge": t, "item": np.arange(t.size)}),
                                         labels=[0, 1, 2], cluster="item")
    one_c = js.ConfusionMatrix.from_frame(
        pd.DataFrame({"human": h, "judge": j, "item": np.arange(h.size) + 10**6}),
        labels=[0, 1, 2], cluster="item")
    ref = js.correct_distribution(js.CategoryCounts(counts), js.ConfusionMatrix(matrix))
    got = js.correct_distribution(one_t, one_c)
    for lab in ref.labels:
        assert abs(got.ci[lab].low - ref.ci[lab].low) <= 1e-12
        assert abs(got.ci[lab].high - ref.ci[lab].high) <= 1e-12
    with pytest.raises(LabelError, match="cluster column 'item' must not contain missing"):
        js.ConfusionMatrix.from_frame(frame_c.assign(item=np.where(c_ids == c_ids[0], np.nan,
                                                                   c_ids)), cluster="item")
    with pytest.raises(LabelError, match="cluster column 'sample'"):
        js.CategoryCounts.from_frame(frame_t, cluster="sample")
    binary = pd.DataFrame({"judge": [1, 0, 1], "human": [1, 0, 0], "item": ["a", "a", "b"]})
    assert js.JudgedCounts.from_frame(binary, cluster="item") == js.JudgedCounts.from_labels(
        binary.judge, cluster=binary.item)
    assert js.ConfusionCounts.from_frame(binary, cluster="item") == (
        js.ConfusionCounts.from_labels(human=binary.human, judge=binary.judge,
                                       cluster=binary.item))


def test_separation_test_counts_an_items_repeats_by_its_design_effect():
    """Columns 1 and 2 of C equal (θ unidentified), 12 calibration items per human class, each
    judged 6 times with intra-item correlation 0.6 (Dirichlet-multinomial, as _repeated_data).

    Counting rows as items the G test rejects "columns equal" (lets the data through) in far
    more than 5% of 300 seeded data sets; divided by the design effect (first-order Rao–Scott)
    it stays near the level (<= 0.05 + 3 s.e. ≈ 0.088). Measured here: 152 of 300 (0.507)
    counting rows, 14 of 300 (0.047) with the design effect. One row per item: unchanged.
    """
    from judgestats.multiclass.clustered import column_design_effects
    from judgestats.multiclass.separation import confused_pairs

    gen = np.random.default_rng(27113)
    c = np.array([[0.8, 0.1, 0.1], [0.1, 0.6, 0.6], [0.1, 0.3, 0.3]])
    kappa, reps, m, sets = 1.0 / 0.6 - 1.0, 6, 12, 300
    passed = {"rows": 0, "items": 0}
    for _ in range(sets):
        h = np.repeat(np.arange(3), m)
        probs = np.stack([gen.dirichlet(c[:, b] * kappa) for b in h])
        u = gen.random((h.size, reps))
        j = (u[..., None] > np.cumsum(probs, axis=1)[:, None, :-1]).sum(axis=2).ravel()
        ids = np.repeat(np.arange(h.size), reps)
        cc = js.ConfusionMatrix.from_labels(human=np.repeat(h, reps), judge=j,
                                            labels=[0, 1, 2], cluster=ids)  # fmt: skip
        ct = js.CategoryCounts([50, 30, 20])
        deff = column_design_effects(ct, cc)
        flat = js.ConfusionMatrix(cc.counts)
        passed["rows"] += not any({a, b} == {1, 2} for a, b, _ in confused_pairs(flat))
        passed["items"] += not any({a, b} == {1, 2} for a, b, _ in confused_pairs(cc, 0.05,
                                                                                 deff))
    assert passed["rows"] / sets > 0.15, passed
    assert passed["items"] / sets <= 0.088, passed
    _, h, j = _rows(*_REP_CASES[0])
    one = js.ConfusionMatrix.from_labels(human=h, judge=j, labels=[0, 1, 2],
                                         cluster=np.arange(h.size))  # fmt: skip
    deff = column_design_effects(js.CategoryCounts(_REP_CASES[0][0]), one)
    assert deff == pytest.approx(np.ones(3), abs=1e-12)
    assert confused_pairs(one, 0.5, deff) == confused_pairs(js.ConfusionMatrix(one.counts), 0.5)


@pytest.mark.parametrize("case", [1, 2])
def test_one_row_per_item_item_bootstrap_is_the_parametric_bootstrap(case):
    """One row per item: resampling items (test items; calibration items within their human
    class) is the parametric multinomial bootstrap in distribution. 20,000 draws each; the
    tolerance 0.008 is about 3 Monte Carlo s.e. of a 2.5% percentile here."""
    counts, matrix = _REP_CASES[case]
    t, h, j = _rows(counts, matrix)
    ct, cc = _clustered(t, h, j, np.arange(t.size), np.arange(h.size) + 10**6, len(counts))
    ref = js.correct_distribution(js.CategoryCounts(counts), js.ConfusionMatrix(matrix),
                                  method="bootstrap", rng=1, n_resamples=20000)  # fmt: skip
    got = js.correct_distribution(ct, cc, method="bootstrap", rng=2, n_resamples=20000)
    for lab in ref.labels:
        assert got.ci[lab].low == pytest.approx(ref.ci[lab].low, abs=0.008)
        assert got.ci[lab].high == pytest.approx(ref.ci[lab].high, abs=0.008)
        assert abs(got.estimate[lab] - ref.estimate[lab]) <= 1e-12
    assert got.ci[ref.labels[0]].n_resamples == 20000 and got.clusters is not None


def test_item_bootstrap_covers_where_rows_as_items_do_not():
    """k = 3, 5 rows per item, intra-item correlation 0.5, 300 data sets (seeded), 400 item
    resamples each: every category's coverage >= 0.95 − 3 s.e. (0.912); the parametric
    bootstrap of the same data with rows counted as items stays below 0.95 − 5 s.e."""
    gen = np.random.default_rng(27114)
    sets, hits = 300, np.zeros((2, 3))
    for _ in range(sets):
        t, t_ids, h, j, c_ids = _repeated_data(gen)
        ct, cc = _clustered(t, h, j, t_ids, c_ids, 3)
        flat = (js.CategoryCounts(ct.counts), js.ConfusionMatrix(cc.counts))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits = (js.correct_distribution(ct, cc, method="bootstrap", rng=gen,
                                            n_resamples=400),
                    js.correct_distribution(*flat, method="bootstrap", rng=gen,
                                            n_resamples=400))  # fmt: skip
        for row, res in zip(hits, fits, strict=True):
            row += [res.ci[b].low <= _REP_THETA[b] <= res.ci[b].high for b in range(3)]
    cover = hits / sets
    se = np.sqrt(0.95 * 0.05 / sets)
    assert (cover[0] >= 0.95 - 3 * se).all(), cover
    assert (cover[1] < 0.95 - 5 * se).all(), cover


@pytest.mark.parametrize("design", ["random", "by-judge-label"])
@pytest.mark.parametrize("method", ["adjusted-delta", "wald"])
def test_designs_with_one_row_per_item_give_the_unclustered_interval(design, method):
    worst = 0.0
    for counts, matrix in _REP_CASES:
        t, h, j = _rows(counts, matrix)
        ct, cc = _clustered(t, h, j, np.arange(t.size), np.arange(h.size) + 10**6, len(counts))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the random design's plausibility check
            ref = js.correct_distribution(js.CategoryCounts(counts), js.ConfusionMatrix(matrix),
                                          method=method, design=design)  # fmt: skip
        got = js.correct_distribution(ct, cc, method=method, design=design)
        assert got.design == design and got.clusters.df == (np.inf,) * len(counts)
        worst = max(worst, *(max(abs(got.ci[b].low - ref.ci[b].low),
                                 abs(got.ci[b].high - ref.ci[b].high),
                                 abs(got.estimate[b] - ref.estimate[b])) for b in ref.labels))
    assert worst <= 1e-12


@pytest.mark.parametrize("design", ["random", "by-judge-label"])
def test_designs_with_repeated_items_cover(design):
    """k = 3, 300 items of 5 rows (intra-item correlation 0.5), 80 random items labelled, 300
    seeded data sets: the cluster-aware default covers every category >= 0.95 − 3 s.e.
    (0.912); counting rows as items stays below 0.95 − 5 s.e. in some category. Measured
    here: random 0.943–0.973 (rows as items 0.640–0.703), by-judge-label 0.940–0.963
    (0.667–0.693); without the components' cross-covariances it was 0.920–0.957."""
    gen = np.random.default_rng(zlib.crc32(repr(("k-design", design)).encode()))
    kappa, reps, items, m, sets = 1.0 / 0.5 - 1.0, 5, 300, 80, 300
    hits = np.zeros((2, 3))
    for _ in range(sets):
        h = gen.choice(3, size=items, p=_REP_THETA)
        probs = np.stack([gen.dirichlet(_REP_C[:, b] * kappa) for b in h])
        u = gen.random((items, reps))
        j = (u[..., None] > np.cumsum(probs, axis=1)[:, None, :-1]).sum(axis=2).ravel()
        ids, hr = np.repeat(np.arange(items), reps), np.repeat(h, reps)
        lab = np.repeat(np.isin(np.arange(items), gen.choice(items, m, replace=False)), reps)
        ct, cc = _clustered(j[~lab], hr[lab], j[lab], ids[~lab], ids[lab], 3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits = (js.correct_distribution(ct, cc, design=design),
                    js.correct_distribution(js.CategoryCounts(ct.counts),
                                            js.ConfusionMatrix(cc.counts), design=design))
        for row, res in zip(hits, fits, strict=True):
            row += [res.ci[b].low <= _REP_THETA[b] <= res.ci[b].high for b in range(3)]
    cover = hits / sets
    se = np.sqrt(0.95 * 0.05 / sets)
    assert (cover[0] >= 0.95 - 3 * se).all(), cover
    assert (cover[1] < 0.95 - 5 * se).any(), cover
