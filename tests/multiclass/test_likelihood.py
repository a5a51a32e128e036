"""A judge alphabet of J letters over K human categories (issue: judge alphabets).

References: the binary profile-likelihood interval of :mod:`judgestats.likelihood` (an
independent, exact maximiser of the J = K = 2 case), direct numerical maximisation with
scipy.optimize (unconstrained softmax parametrisation), the closed form Ĉ⁻¹p̂ (J = K), and
seeded simulations.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.stats import chi2

import judgestats as js
from judgestats._validation import (
    ConfusedCategoriesError,
    CountError,
    LabelError,
    MethodError,
)
from judgestats.likelihood import profile_likelihood_bounds
from judgestats.multiclass import (
    CategoryCounts,
    ConfusionMatrix,
    correct_distribution,
    distribution_bounds,
)
from judgestats.multiclass.likelihood import (
    alphabet_loglik,
    alphabet_mle,
    alphabet_profile_bounds,
)

# a 5-point score judge against pass/fail: P(score | fail), P(score | pass) (columns)
SCORE_C = np.array([[0.40, 0.03], [0.30, 0.07], [0.15, 0.15], [0.10, 0.30], [0.05, 0.45]])


def _binary_sets(rng, size):
    theta = rng.uniform(0.05, 0.95, size)
    q0, q1 = rng.uniform(0.6, 0.98, size), rng.uniform(0.6, 0.98, size)
    n, m0, m1 = rng.integers(50, 3000, size), rng.integers(5, 200, size), rng.integers(5, 200, size)
    x = rng.binomial(n, theta * q1 + (1 - theta) * (1 - q0))
    tn, tp = rng.binomial(m0, q0), rng.binomial(m1, q1)
    return n, x, m0, m1, tn, tp


def _as_alphabet(n, x, m0, m1, tn, tp):
    test = np.stack([n - x, x], -1)
    cal = np.stack([np.stack([tn, m1 - tp], -1), np.stack([m0 - tn, tp], -1)], -2)
    return test, cal


@pytest.mark.parametrize("small_sample", [False, True])
def test_two_letters_two_categories_is_the_binary_profile_likelihood(small_sample):
    """J = K = 2: the EM profile equals likelihood.py's exact maximiser (100 data sets)."""
    n, x, m0, m1, tn, tp = _binary_sets(np.random.default_rng(11), 100)
    tn[:5], tp[5:10] = m0[:5], m1[5:10]  # zero calibration cells: boundary maximisers
    test, cal = _as_alphabet(n, x, m0, m1, tn, tp)
    low, high, est = alphabet_profile_bounds(test, cal, 0.95, small_sample=small_sample)
    ref_low, ref_high, ref_mle = profile_likelihood_bounds(
        js.JudgedCounts(x, n), js.ConfusionCounts(tp=tp, fn=m1 - tp, tn=tn, fp=m0 - tn), 0.95,
        small_sample=small_sample, boundary_rule=False,  # the alphabet's has no zero-count rule
    )  # fmt: skip
    np.testing.assert_allclose(est[:, 1], ref_mle, atol=1e-7)
    np.testing.assert_allclose(low[:, 1], ref_low, atol=1e-7)
    np.testing.assert_allclose(high[:, 1], ref_high, atol=1e-7)
    np.testing.assert_allclose(low[:, 0], 1 - ref_high, atol=1e-7)


def test_api_matches_correct_for_two_categories():
    """correct_distribution(method='profile-likelihood') = js.correct's, to 1e-7."""
    res = correct_distribution(
        CategoryCounts([600, 400]), ConfusionMatrix([[145, 10], [5, 140]]),
        method="profile-likelihood",
    )  # fmt: skip
    ref = js.correct(js.JudgedCounts(400, 1000), js.ConfusionCounts(tp=140, fn=10, tn=145, fp=5),
                     method="profile-likelihood")  # fmt: skip
    assert res.ci[1].low == pytest.approx(ref.ci.low, abs=1e-7)
    assert res.ci[1].high == pytest.approx(ref.ci.high, abs=1e-7)
    assert res.estimate[1] == pytest.approx(ref.estimate, abs=1e-7)


def _direct_mle(test, cal, fixed=None, seed=0):
    """Maximise ℓ by BFGS over softmax parameters from several starts (independent of EM)."""
    j, k = cal.shape
    rng = np.random.default_rng(seed)

    def unpack(z):
        if fixed is None:
            th = np.exp(np.append(z[: k - 1], 0.0))
            th /= th.sum()
            rest = z[k - 1 :]
        else:
            b, t = fixed
            other = np.exp(np.append(z[: k - 2], 0.0))
            th = np.insert(other / other.sum() * (1 - t), b, t)
            rest = z[k - 2 :]
        c = np.exp(np.vstack([rest.reshape(j - 1, k), np.zeros(k)]))
        return th, c / c.sum(0)

    size = (k - 1 if fixed is None else k - 2) + (j - 1) * k
    best = None
    for _ in range(6):
        r = minimize(lambda z: -alphabet_loglik(*unpack(z), test, cal), rng.normal(size=size),
                     method="BFGS", options={"gtol": 1e-9, "maxiter": 10000})  # fmt: skip
        best = r if best is None or r.fun < best.fun else best
    return unpack(best.x), -best.fun


@pytest.mark.parametrize("j,k", [(5, 2), (4, 3), (6, 3)])
def test_em_reaches_the_maximum_found_by_direct_optimisation(j, k):
    rng = np.random.default_rng(100 + j * k)
    c = rng.dirichlet(np.full(j, 0.7), size=k).T
    theta = rng.dirichlet(np.ones(k))
    test = rng.multinomial(3000, c @ theta)
    cal = np.stack([rng.multinomial(150, c[:, b]) for b in range(k)], -1)
    th, mat, value = alphabet_mle(test, cal)
    (th_ref, _), v_ref = _direct_mle(test, cal)
    assert value >= v_ref - 1e-7  # EM's maximum is at least as high as BFGS's
    np.testing.assert_allclose(th, th_ref, atol=2e-3)
    np.testing.assert_allclose(mat.sum(0), 1.0, atol=1e-12)
    assert value == pytest.approx(float(alphabet_loglik(th, mat, test, cal)), abs=1e-9)


def test_profile_bounds_sit_at_the_chi_square_cut_off():
    """At each bound, 2(ℓ̂ − ℓ_p) = χ²₁(0.95), ℓ_p from the independent optimiser."""
    rng = np.random.default_rng(5)
    test = rng.multinomial(2000, SCORE_C @ [0.7, 0.3])
    cal = np.stack([rng.multinomial(120, SCORE_C[:, b]) for b in range(2)], -1)
    low, high, est = alphabet_profile_bounds(test, cal, 0.95)
    _, top = _direct_mle(test, cal)
    for bound in (low[1], high[1]):
        _, v = _direct_mle(test, cal, fixed=(1, bound))
        assert 2 * (top - v) == pytest.approx(chi2.ppf(0.95, 1), abs=2e-4)
    assert low[1] < est[1] < high[1]


def test_square_alphabet_inside_the_simplex_is_the_inverse():
    test, cal = [430, 380, 190], [[80, 10, 2], [15, 70, 8], [5, 20, 90]]
    th, _, _ = alphabet_mle(test, cal)
    ref = np.linalg.solve(np.asarray(cal) / np.sum(cal, 0), np.asarray(test) / 1000)
    assert (ref > 0).all()
    np.testing.assert_allclose(th, ref, atol=1e-8)


def test_score_judge_coverage_fast_tier():
    """Profile-likelihood-t on a 5-letter score judge: 500 seeded data sets per cell.

    One s.e. of a coverage near 0.95 at 500 sets is 0.0097; the floor 0.915 is 3.5 s.e. below
    0.95 (the full tier, benchmarks/results/alphabets.md, asks >= 0.93 at 2,000 sets). Two of
    the four cells are drawn at random (θ, judge matrix).
    """
    rng = np.random.default_rng(2026)
    cells = [(0.3, SCORE_C), (0.8, SCORE_C)]
    for _ in range(2):
        cells.append((rng.uniform(0.1, 0.9), rng.dirichlet(np.ones(5), size=2).T))
    for theta, c in cells:
        p = c @ [1 - theta, theta]
        test = rng.multinomial(1000, p, size=500)
        cal = np.stack([rng.multinomial(100, c[:, b], size=500) for b in range(2)], -1)
        low, high, _ = alphabet_profile_bounds(test, cal, 0.95, small_sample=True)
        cover = np.mean((low[:, 1] <= theta) & (theta <= high[:, 1]))
        assert 0.915 <= cover <= 0.99, (theta, cover)


def test_invalid_verdicts_kept_as_a_letter_are_unbiased_and_dropping_them_is_not():
    """The judge fails to answer on 30% of true-pass items and 5% of true-fail items."""
    rng = np.random.default_rng(9)
    theta, reps = 0.4, 300
    # letters: fail, pass, invalid; columns: human fail, pass
    c = np.array([[0.85, 0.14], [0.10, 0.56], [0.05, 0.30]])
    test = rng.multinomial(2000, c @ [1 - theta, theta], size=reps)
    cal = np.stack([rng.multinomial(200, c[:, b], size=reps) for b in range(2)], -1)
    kept = alphabet_mle(test, cal)[0][:, 1]
    # dropping: the 2-letter data without the invalid letter, corrected as usual
    dropped = js.rogan_gladen(
        test[:, 1] / test[:, :2].sum(1),
        cal[:, 0, 0] / cal[:, :2, 0].sum(1),
        cal[:, 1, 1] / cal[:, :2, 1].sum(1),
    )
    se = kept.std() / np.sqrt(reps)
    assert abs(kept.mean() - theta) < 3 * se + 0.002
    # the valid verdicts over-represent fail items: θ among them is 0.4·0.7/(0.4·0.7+0.6·0.95)
    target = 0.4 * 0.7 / (0.4 * 0.7 + 0.6 * 0.95)
    assert abs(np.mean(dropped) - target) < 0.01
    assert np.mean(dropped) < theta - 0.05


def test_api_for_a_score_judge():
    cal = ConfusionMatrix([[40, 2], [25, 8], [10, 20], [5, 50]], labels=["fail", "pass"],
                          judge_labels=[1, 2, 3, 4])  # fmt: skip
    test = CategoryCounts([300, 250, 250, 200], labels=[1, 2, 3, 4])
    res = correct_distribution(test, cal)
    assert res.method == "profile-likelihood-t" and res.labels == ("fail", "pass")
    assert sum(res.estimate.values()) == pytest.approx(1.0)
    assert res.ci["pass"].low == pytest.approx(1 - res.ci["fail"].high, abs=1e-9)
    assert np.isnan(res.naive["pass"])  # no letter named "pass"
    assert "judge alphabet of J = 4 letters" in res.summary()
    ds = res.to_xarray()
    assert list(ds["judge_label"].values) == [1, 2, 3, 4]
    assert ds["confusion_matrix"].shape == (4, 2)
    boot = correct_distribution(test, cal, method="bootstrap", rng=1, n_resamples=400)
    assert boot.estimate == pytest.approx(res.estimate, abs=1e-9)
    assert abs(boot.ci["pass"].low - res.ci["pass"].low) < 0.04
    assert abs(boot.ci["pass"].high - res.ci["pass"].high) < 0.04
    # the random design: θ_k = Σ_a π̂_a P̂(human = k | letter a), π̂ from test + calibration
    with pytest.warns(js.DesignWarning, match="judge-label mix differs"):  # 0.26 vs 0.30 ...
        rnd = correct_distribution(test, cal, design="random")
    pooled = test.counts + cal.counts.sum(1)
    rows = cal.counts / cal.counts.sum(1, keepdims=True)
    assert rnd.estimate["pass"] == pytest.approx(float(pooled / pooled.sum() @ rows[:, 1]))


def test_tie_letter_naive_and_recall_use_the_letter_of_the_same_name():
    cal = ConfusionMatrix([[60, 15], [25, 20], [15, 65]], labels=["win", "lose"],
                          judge_labels=["win", "tie", "lose"])  # fmt: skip
    test = CategoryCounts([500, 200, 300], labels=["win", "tie", "lose"])
    res = correct_distribution(test, cal)
    assert res.naive == {"win": 0.5, "lose": 0.3}
    assert res.judge_recall == {"win": 0.6, "lose": 0.65}


def test_bad_alphabets_are_named_errors():
    with pytest.raises(CountError, match=r"J = 2 letters \['a', 'b'\] but the humans use K = 3"):
        ConfusionMatrix([[1, 2, 3], [4, 5, 6]], judge_labels=["a", "b"])
    cal = ConfusionMatrix([[40, 2], [25, 8], [0, 0], [5, 50]], labels=["fail", "pass"],
                          judge_labels=[1, 2, 3, 4])  # fmt: skip
    # a letter on no calibration item no longer refuses (issue 27 §3): its rates are unknown
    with pytest.warns(js.SparseLettersWarning, match=r"judge letter 3 is on 250 test items \(25"):
        wide = correct_distribution(CategoryCounts([300, 250, 250, 200], labels=[1, 2, 3, 4]), cal)
    assert wide.unseen_share == 0.25 and wide.ci["pass"].high - wide.ci["pass"].low > 0.25
    merged = cal.merge({3: "3-4", 4: "3-4"})
    assert merged.judge_labels == (1, 2, "3-4") and merged.counts[2].tolist() == [5, 50]
    test = CategoryCounts([300, 250, 250, 200], labels=[1, 2, 3, 4]).merge({3: "3-4", 4: "3-4"})
    assert test.counts.tolist() == [300, 250, 450]
    assert correct_distribution(test, merged).labels == ("fail", "pass")
    with pytest.raises(LabelError, match=r"in the test labels only: \[5\]"):
        correct_distribution(CategoryCounts([3, 4, 5, 6, 1], labels=[1, 2, 3, 4, 5]), cal)
    with pytest.raises(MethodError, match="'adjusted-delta' is not available for corrections with "
                       "a judge alphabet"):  # it inverts a square confusion matrix
        correct_distribution(test, merged, method="adjusted-delta")
    same = ConfusionMatrix([[30, 31], [30, 29], [40, 40]], labels=["fail", "pass"],
                           judge_labels=["x", "y", "z"])  # fmt: skip
    with pytest.raises(ConfusedCategoriesError, match="'fail' and 'pass'"):
        correct_distribution(CategoryCounts([10, 20, 30], labels=["x", "y", "z"]), same)
    with pytest.raises(CountError, match="fewer than 2 judge letters"):
        merged.merge({1: 0, 2: 0, "3-4": 0})


def test_from_labels_with_a_judge_alphabet():
    cal = ConfusionMatrix.from_labels(human=[0, 1, 1, 0, 1], judge=[1, 5, 4, 2, 5],
                                      judge_labels="observed")  # fmt: skip
    assert cal.judge_labels == (1, 2, 4, 5) and cal.labels == (0, 1)
    assert cal.counts.tolist() == [[1, 0], [1, 0], [0, 1], [0, 2]]
    declared = ConfusionMatrix.from_labels(human=[0, 1], judge=[1, 5],
                                           judge_labels=[1, 2, 3, 4, 5])  # fmt: skip
    assert declared.j == 5 and declared.counts.sum() == 2
    with pytest.raises(LabelError):
        ConfusionMatrix.from_labels(human=[0, 1], judge=[1, 6], judge_labels=[1, 2, 3, 4, 5])


# ----------------------------------------------------------------------------- rare letters
TWO_JUDGES = ["0|0", "0|1", "1|0", "1|1"]


def _two_judges_batch(gen, reps, items=3000, theta=0.4, labelled=0.1, agree=0.99):
    """Two binary judges that rarely disagree (letters "a|b"); a random share labelled.

    ``reps`` data sets drawn as arrays: test letter counts (reps, 4) and calibration counts
    (reps, 4, 2), rows the letters, columns the human class.
    """
    y = gen.random((reps, items)) < theta
    a = np.where(y, gen.random((reps, items)) < 0.85, gen.random((reps, items)) < 0.15)
    b = np.where(gen.random((reps, items)) < agree, a, ~a)
    code = 2 * a.astype(int) + b.astype(int)
    cal = gen.random((reps, items)) < labelled
    letter = code[..., None] == np.arange(4)  # (reps, items, 4)
    test = (letter & ~cal[..., None]).sum(axis=1)
    human = np.stack([~y, y], axis=-1) & cal[..., None]  # (reps, items, 2)
    return test, np.einsum("rij,rik->rjk", letter.astype(np.int64), human.astype(np.int64))


def test_a_letter_without_calibration_items_widens_instead_of_refusing():
    """Issue 27 §3: its items' rates are unknown in [0, 1]; the interval widens by its share."""
    test = CategoryCounts([1200, 9, 14, 1500], labels=TWO_JUDGES)
    cal = ConfusionMatrix([[120, 20], [3, 2], [0, 0], [25, 130]], labels=[0, 1],
                          judge_labels=TWO_JUDGES)  # fmt: skip
    with pytest.warns(js.SparseLettersWarning, match=r"'1\|0' is on 14 test items \(0\.5%\)"):
        res = correct_distribution(test, cal)
    share = 14 / 2723
    keep = [0, 1, 3]
    seen = correct_distribution(
        CategoryCounts([1200, 9, 1500], labels=[TWO_JUDGES[i] for i in keep]),
        ConfusionMatrix(np.asarray(cal.counts)[keep], labels=[0, 1],
                        judge_labels=[TWO_JUDGES[i] for i in keep]),
    )  # fmt: skip
    assert res.unseen_share == pytest.approx(share)
    for lab in (0, 1):
        low, high = seen.ci[lab]
        assert res.ci[lab].low == pytest.approx((1 - share) * low, abs=1e-12)
        assert res.ci[lab].high == pytest.approx((1 - share) * high + share, abs=1e-12)
        assert res.estimate[lab] == pytest.approx(seen.estimate[lab], abs=1e-12)
    assert res.test is test and "intervals widened" in res.summary()
    with pytest.warns(js.SparseLettersWarning):  # recomputed the same way
        assert res.confidence_interval(method="profile-likelihood")[1].high > seen.ci[1].high


@pytest.mark.slow
def test_rare_letters_cover_without_refusals():
    """Two judges, 10% of ~3000 items labelled: letters on no calibration item in 108 of 300
    splits (they raised CountError before); coverage 0.940 (asserted >= 0.92, s.e. 0.013; the
    per-split draws this test made before covered 0.967 with 112 such splits).

    The 300 splits are drawn as arrays with one Generator (:func:`_two_judges_batch`). Those
    with a letter on no calibration item go through correct_distribution one at a time (the
    path under test: no refusal, the interval widened by the letters' share); the others
    through its batched kernel, distribution_bounds with correct_distribution's method for a
    judge alphabet ("profile-likelihood-t"), in one call.
    """
    gen = np.random.default_rng(27)
    tests, cals = _two_judges_batch(gen, 300)
    unseen = ((cals.sum(axis=-1) == 0) & (tests > 0)).any(axis=-1)
    seen = distribution_bounds(tests[~unseen], cals[~unseen], method="profile-likelihood-t")
    hit = int(np.sum((seen.low[:, 1] <= 0.4) & (0.4 <= seen.high[:, 1])))
    for r in np.flatnonzero(unseen):
        test = CategoryCounts(tests[r], labels=TWO_JUDGES)
        cal = ConfusionMatrix(cals[r], labels=[0, 1], judge_labels=TWO_JUDGES)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = correct_distribution(test, cal)
        assert res.unseen_share > 0
        hit += res.ci[1].low <= 0.4 <= res.ci[1].high
        assert not [w for w in caught if issubclass(w.category, js.JudgeStatsError)]
    assert unseen.sum() >= 60 and hit / 300 >= 0.92
