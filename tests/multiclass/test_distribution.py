"""k-category correction (issue #5): reference values, k = 2 = binary, permutation, coverage,
bad calls of correct_distribution and its result object. The counts' constructors are tested in
tests/counts/test_categories.py; the simplex fit, conditioning and batch kernels in
test_arrays.py, the separation test in test_separation.py, repeated items in test_clustered.py.

Fast tier only (a few seconds); the full coverage study is benchmarks/bench_multiclass.py.
"""

import dataclasses
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy.special import ndtri

import judgestats as js
from judgestats._validation import (
    ArgumentTypeError,
    ClippedEstimateWarning,
    ConfidenceLevelError,
    ConfusedCategoriesError,
    CountError,
    LabelError,
    MethodError,
    NotInformativeError,
    ProjectedEstimateWarning,
    SamplingWarning,
)
from judgestats.multiclass import (
    CategoryCounts,
    ConfusionMatrix,
    DistributionCorrection,
    correct_distribution,
    distribution_bounds,
)

Z95 = float(ndtri(0.975))
LABELS = ("a", "b", "c")
# hand case: Ĉ columns (.8, .2, 0), (.1, .8, .1), (0, .2, .8); θ = (.5, .3, .2) -> p = (.43, .38, .19)
CAL_COUNTS = [[8, 1, 0], [2, 8, 2], [0, 1, 8]]
TEST_COUNTS = [43, 38, 19]
TEST = CategoryCounts(TEST_COUNTS, labels=LABELS)
CAL = ConfusionMatrix(CAL_COUNTS, labels=LABELS)
CAL_BIG = ConfusionMatrix(np.array(CAL_COUNTS) * 10, labels=LABELS)  # m = 300


# ----------------------------------------------------------------------------- exact reference
def _frac_inverse(m):
    """Gauss–Jordan inverse in exact rational arithmetic (independent of numpy.linalg)."""
    k = len(m)
    a = [
        [Fraction(x) for x in row] + [Fraction(int(i == j)) for j in range(k)]
        for i, row in enumerate(m)
    ]
    for col in range(k):
        piv = next(r for r in range(col, k) if a[r][col] != 0)
        a[col], a[piv] = a[piv], a[col]
        d = a[col][col]
        a[col] = [x / d for x in a[col]]
        for r in range(k):
            if r != col and a[r][col] != 0:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[k:] for row in a]


def _exact_delta(test_counts, cal_counts):
    """θ̂ and the plain delta-method variances, written out with explicit sums over indices."""
    k = len(test_counts)
    n = sum(test_counts)
    p = [Fraction(c, n) for c in test_counts]
    m = [sum(cal_counts[a][b] for a in range(k)) for b in range(k)]
    C = [[Fraction(cal_counts[a][b], m[b]) for b in range(k)] for a in range(k)]
    A = _frac_inverse(C)
    theta = [sum(A[i][a] * p[a] for a in range(k)) for i in range(k)]

    def mcov(prob, size, a, c):
        return (prob[a] * (a == c) - prob[a] * prob[c]) / size

    var = []
    for i in range(k):
        v = Fraction(0)
        for a in range(k):
            for c in range(k):
                s = mcov(p, n, a, c)
                for b in range(k):
                    col = [C[x][b] for x in range(k)]
                    s += theta[b] ** 2 * mcov(col, m[b], a, c)
                v += A[i][a] * s * A[i][c]
        var.append(v)
    return theta, var


def test_hand_computable_3x3_estimate_and_plain_delta_interval():
    theta, var = _exact_delta(TEST_COUNTS, CAL_COUNTS)
    assert theta == [Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)]  # exact by construction
    res = correct_distribution(TEST, CAL, method="wald")
    assert res.labels == LABELS and not res.projected
    for lab, th, v in zip(LABELS, theta, var, strict=True):
        assert res.estimate[lab] == pytest.approx(float(th), abs=1e-14)
        half = Z95 * float(v) ** 0.5
        assert res.ci[lab].low == pytest.approx(max(0.0, float(th) - half), abs=1e-12)
        assert res.ci[lab].high == pytest.approx(min(1.0, float(th) + half), abs=1e-12)
    # the covariance's diagonal is the exact variance; rows sum to zero (θ̂ sums to one)
    assert np.diag(res.covariance) == pytest.approx([float(v) for v in var], rel=1e-12)
    assert np.abs(res.covariance.sum(axis=1)).max() < 1e-15
    assert res.naive == {"a": 0.43, "b": 0.38, "c": 0.19}
    assert res.confusion_matrix[:, 0].tolist() == [0.8, 0.2, 0.0]


def test_adjusted_delta_is_plain_delta_at_pseudo_counts():
    """adjust=True evaluates the same formula at counts + z²/k (test) and + 2/k (each column)."""
    res = correct_distribution(TEST, CAL)  # default: adjusted
    z2 = Z95**2
    t = np.array(TEST_COUNTS) + z2 / 3
    c = np.array(CAL_COUNTS) + 2 / 3
    p = t / t.sum()
    C = c / c.sum(axis=0)
    th = np.linalg.solve(C, p)
    A = np.linalg.inv(C)
    S = (np.diag(p) - np.outer(p, p)) / t.sum()
    for b in range(3):
        S += th[b] ** 2 * (np.diag(C[:, b]) - np.outer(C[:, b], C[:, b])) / c[:, b].sum()
    se = np.sqrt(np.diag(A @ S @ A.T))
    assert [res.ci[v].low for v in LABELS] == pytest.approx(np.clip(th - Z95 * se, 0, 1), abs=1e-12)
    assert [res.ci[v].high for v in LABELS] == pytest.approx(
        np.clip(th + Z95 * se, 0, 1), abs=1e-12
    )
    # point estimate is still the unadjusted Ĉ⁻¹p̂
    assert res.estimate["a"] == pytest.approx(0.5, abs=1e-14)


# ----------------------------------------------------------------------------- k = 2 = binary
def _binary_pair(positive, n, tp, fn, tn, fp):
    test = CategoryCounts([n - positive, positive], labels=(0, 1))
    cal = ConfusionMatrix([[tn, fn], [fp, tp]], labels=(0, 1))  # rows judge 0/1, cols human 0/1
    return (
        test,
        cal,
        js.JudgedCounts(positive=positive, n=n),
        js.ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp),
    )


@pytest.mark.parametrize(
    "counts",
    [(600, 1000, 90, 10, 70, 30), (120, 400, 40, 12, 150, 25), (333, 500, 17, 3, 60, 9)],
)
def test_k2_matches_binary_rogan_gladen_and_intervals(counts):
    test, cal, jt, jc = _binary_pair(*counts)
    with warnings.catch_warnings():  # the third set has 20 items of a class (not the subject)
        warnings.simplefilter("ignore", js.WeakCalibrationWarning)
        b = js.correct(jt, jc, method="adjusted-wald")  # Rogan–Gladen's θ̂ (auto may widen)
    res = correct_distribution(test, cal, method="wald")
    assert res.estimate[1] == pytest.approx(b.estimate, abs=1e-12)
    assert res.estimate[0] == pytest.approx(1 - b.estimate, abs=1e-12)
    assert res.estimate_unconstrained[1] == pytest.approx(b.estimate_unclipped, abs=1e-12)
    # plain delta for class 1 is the paper's eq. (15) Wald interval
    p, q0, q1 = jt.p_hat, jc.specificity, jc.sensitivity
    wl, wh = js.intervals.wald_interval(p, q0, q1, jt.n, jc.m0, jc.m1)
    assert (res.ci[1].low, res.ci[1].high) == pytest.approx((wl, wh), abs=1e-12)
    # adjusted delta: the paper's p̃, q̃0, q̃1, θ̃ and standard error; only dθ̃ is not applied
    adj = correct_distribution(test, cal)
    n, m0, m1, z2 = jt.n, jc.m0, jc.m1, Z95**2
    pt = (n * p + z2 / 2) / (n + z2)
    q0t, q1t = (m0 * q0 + 1) / (m0 + 2), (m1 * q1 + 1) / (m1 + 2)
    tht = (pt + q0t - 1) / (q0t + q1t - 1)
    v0, v1 = q0t * (1 - q0t) / (m0 + 2), q1t * (1 - q1t) / (m1 + 2)
    se = np.sqrt(pt * (1 - pt) / (n + z2) + (1 - tht) ** 2 * v0 + tht**2 * v1) / (q0t + q1t - 1)
    assert adj.ci[1].low == pytest.approx(max(0, tht - Z95 * se), abs=1e-12)
    assert adj.ci[1].high == pytest.approx(min(1, tht + Z95 * se), abs=1e-12)
    al, ah = js.adjusted_wald_interval(p, q0, q1, n, m0, m1)
    d_theta = 2 * z2 * (-(1 - tht) * v0 + tht * v1)
    if 0 < al and ah < 1:
        assert ah - al == pytest.approx(adj.ci[1].high - adj.ci[1].low, abs=1e-12)
        assert (al + ah) / 2 - (adj.ci[1].low + adj.ci[1].high) / 2 == pytest.approx(
            d_theta, abs=1e-12
        )


def test_k2_clipped_case_agrees_with_binary_clipping():
    # p̂ = .15 < 1 − q̂0 = .3: Rogan–Gladen is negative and clipped to 0
    test, cal, jt, jc = _binary_pair(150, 1000, 90, 10, 70, 30)
    with pytest.warns(ClippedEstimateWarning):
        b = js.correct(jt, jc)
    with pytest.warns(ProjectedEstimateWarning, match="outside the probability simplex"):
        res = correct_distribution(test, cal)
    assert res.projected and b.clipped
    assert res.estimate[1] == pytest.approx(b.estimate, abs=1e-9) and b.estimate == 0.0
    assert res.estimate_unconstrained[1] == pytest.approx(b.estimate_unclipped, abs=1e-12)


def test_k2_not_informative_judge_is_refused_like_binary():
    test, cal, jt, jc = _binary_pair(50, 100, 40, 60, 55, 45)  # q0 + q1 = .95
    with pytest.raises(NotInformativeError):
        js.correct(jt, jc)
    with pytest.raises(NotInformativeError, match=r"q̂0 \+ q̂1"):
        correct_distribution(test, cal)


# ----------------------------------------------------------------------------- permutation
@pytest.mark.parametrize("order", [("c", "a", "b"), ("b", "c", "a"), ("c", "b", "a")])
@pytest.mark.parametrize("adjust", [True, False])
def test_permuting_categories_permutes_output(order, adjust):
    method = "adjusted-delta" if adjust else "wald"
    base = correct_distribution(TEST, CAL, method=method)
    perm = correct_distribution(TEST.reorder(order), CAL.reorder(order), method=method)
    assert perm.labels == order
    idx = [LABELS.index(v) for v in order]
    for v in order:
        assert perm.estimate[v] == pytest.approx(base.estimate[v], abs=1e-13)
        assert perm.ci[v].low == pytest.approx(base.ci[v].low, abs=1e-13)
        assert perm.ci[v].high == pytest.approx(base.ci[v].high, abs=1e-13)
        assert perm.naive[v] == base.naive[v]
    assert perm.covariance == pytest.approx(base.covariance[np.ix_(idx, idx)], abs=1e-14)
    assert perm.confusion_matrix == pytest.approx(base.confusion_matrix[np.ix_(idx, idx)])


def test_permutation_of_a_projected_estimate():
    test = CategoryCounts([20, 70, 10], labels=LABELS)
    cal = ConfusionMatrix([[50, 0, 0], [0, 40, 10], [0, 10, 40]], labels=LABELS)
    with pytest.warns(ProjectedEstimateWarning):
        base = correct_distribution(test, cal)
    with pytest.warns(ProjectedEstimateWarning):
        perm = correct_distribution(test.reorder(("c", "a", "b")), cal.reorder(("c", "a", "b")))
    for v in LABELS:
        assert perm.estimate[v] == pytest.approx(base.estimate[v], abs=1e-10)


# ----------------------------------------------------------------------------- coverage (fast)
def _simulate(rng, C, theta, n, m, reps):
    k = len(theta)
    test = rng.multinomial(n, C @ theta, size=reps)
    mb = rng.multinomial(m, theta, size=reps)
    cal = np.stack([rng.multinomial(mb[:, b], C[:, b]) for b in range(k)], axis=-1)
    return test, cal


C3 = np.array([[0.80, 0.15, 0.05], [0.15, 0.70, 0.15], [0.05, 0.15, 0.80]])


@pytest.mark.parametrize("theta", [(0.5, 0.3, 0.2), (0.1, 0.3, 0.6)])
def test_delta_coverage_three_classes(rng, theta):
    """R = 3000 seeded replications: s.e. of a coverage near .95 is .004; require >= .93."""
    theta = np.array(theta)
    test, cal = _simulate(rng, C3, theta, 1000, 300, 3000)
    b = distribution_bounds(test, cal, method="adjusted-delta")
    ok = ~np.isnan(b.low).any(axis=-1)
    assert ok.mean() > 0.99
    cover = ((b.low[ok] <= theta) & (theta <= b.high[ok])).mean(axis=0)
    assert (cover >= 0.93).all(), cover
    assert (cover <= 0.99).all(), cover
    assert (b.low <= b.high)[ok].all() and (b.low[ok] >= 0).all() and (b.high[ok] <= 1).all()


def test_plain_delta_undercovers_where_adjusted_holds(rng):
    """Accurate judge, small calibration set: columns of Ĉ often have all items on the diagonal,
    so the plain delta gives them zero variance; the adjusted interval keeps its level."""
    C = np.array([[0.95, 0.025, 0.025], [0.025, 0.95, 0.025], [0.025, 0.025, 0.95]])
    theta = np.array([0.05, 0.15, 0.8])
    test, cal = _simulate(rng, C, theta, 1000, 30, 3000)
    keep = (cal.sum(axis=-2) > 0).all(axis=-1)
    test, cal = test[keep], cal[keep]
    plain = distribution_bounds(test, cal, method="wald")
    adj = distribution_bounds(test, cal)
    ok = ~np.isnan(plain.low).any(-1) & ~np.isnan(adj.low).any(-1)
    c_plain = ((plain.low[ok] <= theta) & (theta <= plain.high[ok])).mean(0)
    c_adj = ((adj.low[ok] <= theta) & (theta <= adj.high[ok])).mean(0)
    assert c_plain.min() < 0.85 and c_adj.min() >= 0.95


def test_bootstrap_coverage_three_classes(rng):
    theta = np.array([0.5, 0.3, 0.2])
    test, cal = _simulate(rng, C3, theta, 1000, 300, 300)
    b = distribution_bounds(test, cal, method="bootstrap", rng=rng, n_resamples=400)
    assert b.n_resamples == 400 and b.undefined.shape == (300,)
    cover = ((b.low <= theta) & (theta <= b.high)).mean(axis=0)
    assert (cover >= 0.90).all(), cover  # 300 reps: s.e. .0126


# ----------------------------------------------------------------------------- bad input
def test_label_sets_differ_between_test_and_calibration():
    test = CategoryCounts([5, 5, 5], labels=["a", "b", "d"])
    with pytest.raises(LabelError, match="do not match"):
        correct_distribution(test, CAL)


def test_same_labels_in_another_order_need_reorder():
    test = CategoryCounts([19, 43, 38], labels=["c", "a", "b"])
    with pytest.raises(LabelError, match="different order"):
        correct_distribution(test, CAL)
    res = correct_distribution(test.reorder(LABELS), CAL)
    assert res.estimate["a"] == pytest.approx(0.5)


def test_true_class_without_calibration_items():
    # valid counts (the random and by-judge-label designs use them), but no Ĉ and no
    # by-human-label correction
    cal = ConfusionMatrix([[8, 1, 0], [2, 8, 0], [0, 1, 0]], labels=LABELS)
    with pytest.raises(CountError, match="no calibration items with human label 'c'"):
        _ = cal.matrix
    with pytest.raises(CountError, match="no calibration items with human label 'c'"):
        correct_distribution(CategoryCounts([40, 40, 20], labels=LABELS), cal)
    cal = ConfusionMatrix.from_labels(human=["a", "b", "a"], judge=["a", "c", "b"], labels=LABELS)
    with pytest.raises(CountError, match="no calibration items with human label 'c'"):
        _ = cal.condition_number
    with pytest.raises(CountError, match="holds no calibration item"):
        ConfusionMatrix([[0, 0], [0, 0]])


def test_wrong_types_and_options():
    with pytest.raises(ArgumentTypeError, match="test must be a CategoryCounts"):
        correct_distribution([43, 38, 19], CAL)
    with pytest.raises(ArgumentTypeError, match="calibration must be a ConfusionMatrix"):
        correct_distribution(TEST, js.ConfusionCounts(tp=1, fn=1, tn=1, fp=1))
    with pytest.raises(
        MethodError,
        match=r"method 'bayes' is not available for k-category corrections with "
        r"design='by-human-label'; available: 'adjusted-delta', 'wald', 'bootstrap', "
        r"'profile-likelihood' or 'profile-likelihood-t'",
    ):
        correct_distribution(TEST, CAL, method="bayes")
    with pytest.raises(MethodError, match=r"unexpected option\(s\) \['n_resamples'\]; it takes no"):
        correct_distribution(TEST, CAL, n_resamples=10)
    with (
        pytest.raises(ArgumentTypeError, match="adjust must be True or False"),
        pytest.warns(DeprecationWarning),
    ):
        correct_distribution(TEST, CAL, method="delta", adjust=1)


def test_delta_is_the_deprecated_name_of_adjusted_delta_and_wald():
    with pytest.warns(DeprecationWarning, match="'delta' is now 'adjusted-delta'"):
        old = correct_distribution(TEST, CAL_BIG, method="delta")
    assert old.method == "adjusted-delta"
    assert old.ci == correct_distribution(TEST, CAL_BIG).ci
    with pytest.warns(DeprecationWarning, match="method='wald'"):
        plain = correct_distribution(TEST, CAL_BIG, adjust=False)
    assert plain.method == "wald"
    assert plain.ci == correct_distribution(TEST, CAL_BIG, method="wald").ci
    with pytest.raises(ConfidenceLevelError):
        correct_distribution(TEST, CAL, confidence_level=95)
    with pytest.warns(DeprecationWarning, match="methods_for"):
        old = js.multiclass.distribution_methods()
    assert old == js.designs.capabilities.methods_for("categories", "distribution",
                                                      "by-human-label") == (
        "adjusted-delta", "wald", "bootstrap", "profile-likelihood", "profile-likelihood-t"
    )  # fmt: skip


# ----------------------------------------------------------------------------- result object
def test_result_object_layout():
    res = correct_distribution(TEST, CAL, confidence_level=0.9)
    assert isinstance(res, DistributionCorrection)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.method = "x"
    assert (
        res.method == "adjusted-delta"
        and res.confidence_level == 0.9
        and res.ci["a"].confidence_level == 0.9
    )
    low, high = res.ci["b"]
    assert 0 <= low <= high <= 1
    assert (res.n, res.m, res.k) == (100, 30, 3)
    assert res.human_counts == {"a": 10, "b": 10, "c": 10}
    assert res.judge_recall == pytest.approx({"a": 0.8, "b": 0.8, "c": 0.8})
    df = res.to_dataframe()
    assert df["category"].tolist() == list(LABELS) and len(df) == 3
    assert {"estimate", "ci_low", "ci_high", "naive", "method", "confidence_level"} <= set(
        df.columns
    )
    ds = res.to_xarray()
    assert ds["ci"].dims == ("category", "ci_bound")
    assert ds["ci_bound"].values.tolist() == ["lower", "upper"]
    assert ds.attrs["ci_kind"] == "adjusted-delta" and ds.attrs["ci_prob"] == 0.9
    assert ds["confusion_matrix"].sel(judge_label="b", human_label="a").item() == pytest.approx(0.2)
    assert ds["estimate"].sel(category="a").item() == pytest.approx(0.5)
    text = res.summary()
    assert "90% intervals by adjusted-delta" in text and all(v in text for v in LABELS)
    assert "DistributionCorrection(" in repr(res)
    assert res.to_dict()["labels"] == list(LABELS)


def test_confidence_interval_recomputes():
    res = correct_distribution(TEST, CAL_BIG)
    plain = res.confidence_interval("wald", 0.95)
    assert plain == correct_distribution(TEST, CAL_BIG, method="wald").ci
    wide = res.confidence_interval(confidence_level=0.99)
    assert all(wide[v].width >= res.ci[v].width for v in LABELS)
    b1 = res.confidence_interval("bootstrap", rng=5, n_resamples=500)
    b2 = res.confidence_interval("bootstrap", rng=np.random.default_rng(5), n_resamples=500)
    assert b1 == b2 and b1["a"].n_resamples == 500 and b1["a"].method == "bootstrap"


def test_bootstrap_result_and_undefined_replicates_warn():
    res = correct_distribution(TEST, CAL_BIG, method="bootstrap", rng=1, n_resamples=800)
    assert res.method == "bootstrap" and res.ci["a"].n_resamples == 800
    assert res.covariance.shape == (3, 3)
    assert all(0 <= res.ci[v].low <= res.ci[v].high <= 1 for v in LABELS)
    # a weak judge on few items: some resampled matrices are singular or too ill-conditioned
    cal = ConfusionMatrix([[3, 1, 1], [1, 3, 1], [1, 1, 3]], labels=LABELS)
    test = CategoryCounts([40, 35, 25], labels=LABELS)
    with pytest.raises(ConfusedCategoriesError):  # 5 items per class cannot show separation
        correct_distribution(test, cal, method="bootstrap", rng=2, n_resamples=2000)
    with pytest.warns(SamplingWarning, match=r"of 2000 bootstrap replicates were undefined"):
        res = correct_distribution(
            test, cal, method="bootstrap", rng=2, n_resamples=2000, separation_level=None
        )
    assert 0 < res.ci["a"].undefined < 2000
    assert "undefined" in res.summary()


# ----------------------------------------------------------------------------- capability table
def _table_data(alphabet, repeated):
    """A k = 3 data set (or a 4-letter alphabet for 2 categories), repeated items or not."""
    gen = np.random.default_rng(37)
    k, j = (2, 4) if alphabet else (3, 3)
    human = gen.integers(0, k, 600)
    noise = gen.integers(0, j, 600)
    judge = np.where(gen.random(600) < 0.75, human * (j // k), noise)  # mostly the right letter
    lab = np.arange(600) < 240
    ids = np.arange(600) // 2 if repeated else None
    test = js.CategoryCounts.from_labels(judge[~lab], labels=list(range(j)),
                                         cluster=None if ids is None else ids[~lab])  # fmt: skip
    cal = js.ConfusionMatrix.from_labels(
        human=human[lab], judge=judge[lab], labels=list(range(k)), judge_labels=list(range(j)),
        cluster=None if ids is None else ids[lab])  # fmt: skip
    return test, cal


def test_every_method_of_the_k_category_rows_of_the_capability_table_has_an_implementation():
    """Issue 37: the table decides what each path allows; each of its methods must run there."""
    from judgestats.designs.capabilities import rows

    ran = set()
    for row in rows():
        if row.target != "distribution":
            continue
        for repeated in ((False, True) if row.repeated is None else (row.repeated,)):
            test, cal = _table_data(row.judge == "alphabet", repeated)
            for design in row.designs:
                for method in row.methods:
                    kw = {"n_resamples": 50} if method == "bootstrap" else {}
                    res = correct_distribution(test, cal, method=method, design=design, rng=0,
                                               separation_level=None, **kw)  # fmt: skip
                    assert res.method == method and res.design == design
                    assert (res.clusters is not None) == repeated
                    assert all(0 <= ci.low <= ci.high <= 1 for ci in res.ci.values())
                    ran.add((row.judge, design, repeated, method))
    assert len(ran) == 26  # 5 + 3 + 2·2·2 (k categories), 3·2 + 2·2 (a judge alphabet)


def test_the_spec_is_resolved_once_with_the_tables_default_and_named_errors():
    test, cal = _table_data(alphabet=True, repeated=False)
    assert correct_distribution(test, cal).method == "profile-likelihood-t"  # the row's default
    assert correct_distribution(test, cal, design="random").method == "adjusted-delta"
    assert correct_distribution(TEST, CAL).method == "adjusted-delta"
    with pytest.raises(MethodError, match="design"):
        correct_distribution(TEST, CAL, design="stratified")
    with pytest.raises(ArgumentTypeError, match="method must be a string"):
        correct_distribution(TEST, CAL, method=3)
    with pytest.raises(ArgumentTypeError, match="takes no options"):
        correct_distribution(TEST, CAL, design="random", n_resamples=9)
    for name, module in (("DESIGN_DISTRIBUTION_METHODS", "judgestats.multiclass"),
                         ("CATEGORY_CLUSTER_METHODS", "judgestats.multiclass.clustered"),
                         ("ALPHABET_CLUSTER_METHODS", "judgestats.multiclass.alphabet_clusters"),
                         ("ALPHABET_METHODS", "judgestats.alphabets.groups")):  # fmt: skip
        import importlib

        mod = importlib.import_module(module)
        with pytest.warns(DeprecationWarning, match="methods_for"):
            assert isinstance(getattr(mod, name), tuple)
        assert name not in mod.__all__


def test_letters_unseen_in_calibration_leave_the_categories_path():
    """A judge letter no calibration item has is dropped before the path is chosen (issue 37).

    The seen letters are the human categories, so the default and the methods are those of k
    categories (adjusted-delta), as before the estimation spec; the interval is the seen
    letters' one widened by the unseen letter's test share s: [(1 − s)·low, (1 − s)·high + s].
    """
    cal = ConfusionMatrix([[40, 8], [10, 42], [0, 0]], labels=[0, 1], judge_labels=[0, 1, "x"])
    test = CategoryCounts([300, 400, 20], labels=[0, 1, "x"])
    seen = correct_distribution(CategoryCounts([300, 400], labels=[0, 1]),
                                ConfusionMatrix([[40, 8], [10, 42]], labels=[0, 1]))
    s = 20 / 720
    for method in (None, "adjusted-delta", "profile-likelihood-t"):
        with pytest.warns(Warning, match="on no calibration item"):  # SparseLettersWarning
            res = correct_distribution(test, cal, method=method)
        assert res.method == (method or "adjusted-delta")
    with pytest.warns(Warning, match="on no calibration item"):
        res = correct_distribution(test, cal)
    for lab in (0, 1):
        assert res.ci[lab].low == pytest.approx((1 - s) * seen.ci[lab].low, abs=1e-12)
        assert res.ci[lab].high == pytest.approx((1 - s) * seen.ci[lab].high + s, abs=1e-12)
