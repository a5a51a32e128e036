"""Batched Ĉ⁻¹p̂ (judgestats.multiclass.arrays): the simplex fit, which matrices invert, the batch
kernels against single data sets.
"""

import warnings

import numpy as np
import pytest

from judgestats._validation import (
    ArgumentTypeError,
    ClippedEstimateWarning,
    ConfusedCategoriesError,
    CountError,
    IllConditionedError,
    JudgeStatsError,
    NotInformativeError,
    ProjectedEstimateWarning,
)
from judgestats.multiclass import (
    MAX_CONDITION,
    CategoryCounts,
    ConfusionMatrix,
    DistributionBounds,
    _simplex_ml,
    correct_distribution,
    distribution_bounds,
    distribution_estimate,
)
from tests.multiclass.test_distribution import C3, CAL, CAL_COUNTS, LABELS, TEST, _simulate


# ----------------------------------------------------------------------------- simplex
def test_projection_is_the_constrained_ml_fit_hand_case():
    """Category a is judged perfectly, b/c are confused. Ĉ⁻¹p̂ = (.2, .9, −.1); the ML fit keeps
    a at its judged share .2 (the data pin it down) and gives (.2, .8, 0); the Euclidean
    projection would give (.15, .85, 0)."""
    test = CategoryCounts([20, 70, 10], labels=LABELS)
    cal = ConfusionMatrix([[50, 0, 0], [0, 40, 10], [0, 10, 40]], labels=LABELS)
    with pytest.warns(ProjectedEstimateWarning, match="outside the probability simplex") as rec:
        res = correct_distribution(test, cal)
    assert len(rec) == 1 and rec[0].filename == __file__  # stacklevel points at the caller
    assert res.projected
    assert list(res.estimate_unconstrained.values()) == pytest.approx([0.2, 0.9, -0.1], abs=1e-12)
    assert list(res.estimate.values()) == pytest.approx([0.2, 0.8, 0.0], abs=1e-9)
    assert sum(res.estimate.values()) == pytest.approx(1.0, abs=1e-12)
    assert "outside the simplex" in res.summary()
    # a projected estimate is a subclass of the binary clipping warning
    assert issubclass(ProjectedEstimateWarning, ClippedEstimateWarning)


def test_simplex_ml_satisfies_kkt_on_random_cases(rng):
    """Global-optimality certificate of the concave problem: ∂L/∂θ_b <= 1, = 1 on the support."""
    checked = 0
    while checked < 60:
        k = int(rng.integers(3, 7))
        C = 0.6 * np.eye(k) + 0.4 * rng.dirichlet(np.ones(k), size=k).T
        theta = rng.dirichlet(np.full(k, 0.4))
        mb = rng.integers(5, 40, size=k)
        Ch = np.stack([rng.multinomial(mb[b], C[:, b]) / mb[b] for b in range(k)], axis=1)
        p = rng.multinomial(200, C @ theta) / 200
        if np.linalg.cond(Ch) > 50 or (np.linalg.solve(Ch, p) >= 0).all():
            continue
        est = _simplex_ml(p, Ch)
        pos = p > 0
        grad = Ch[pos].T @ (p[pos] / (Ch[pos] @ est))
        assert est.min() >= 0 and est.sum() == pytest.approx(1, abs=1e-12)
        assert grad.max() <= 1 + 1e-8
        assert np.abs(grad[est > 1e-9] - 1).max() <= 1e-8
        checked += 1


def test_inside_the_simplex_nothing_is_projected_and_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = correct_distribution(TEST, CAL)
    assert not res.projected and res.estimate == pytest.approx(res.estimate_unconstrained)


# ----------------------------------------------------------------------------- conditioning
def test_singular_confusion_matrix_raises_named_error():
    cal = ConfusionMatrix([[5, 5, 0], [5, 5, 0], [0, 0, 10]], labels=LABELS)  # a, b identical
    assert cal.condition_number == np.inf
    with pytest.raises(IllConditionedError, match="singular") as exc:
        correct_distribution(TEST, cal)
    assert isinstance(exc.value, NotInformativeError) and "max_condition = 100" in str(exc.value)


def test_condition_threshold_is_documented_and_adjustable():
    assert MAX_CONDITION == 100
    # columns (.51, .49), (.49, .51) extended by a perfectly judged third class: κ = 50
    cal = ConfusionMatrix([[51, 49, 0], [49, 51, 0], [0, 0, 100]], labels=LABELS)
    assert cal.condition_number == pytest.approx(50, rel=1e-9)
    test = CategoryCounts([40, 40, 20], labels=LABELS)
    # 'a' and 'b' are confused (their columns do not differ significantly): the separation
    # test refuses; skipped here to reach the condition-number rule
    with pytest.raises(ConfusedCategoriesError, match="'a' and 'b'"):
        correct_distribution(test, cal)
    correct_distribution(test, cal, separation_level=None)  # passes the default threshold
    with pytest.raises(
        IllConditionedError, match=r"condition number 50 exceeds max_condition = 40"
    ):
        correct_distribution(test, cal, max_condition=40, separation_level=None)
    weaker = ConfusionMatrix([[501, 499, 0], [499, 501, 0], [0, 0, 100]], labels=LABELS)
    with pytest.raises(IllConditionedError, match="ill-conditioned: condition number 500"):
        correct_distribution(test, weaker, separation_level=None)
    res = correct_distribution(
        test, weaker, max_condition=np.inf, method="wald", separation_level=None
    )
    assert res.max_condition == np.inf and res.condition_number == pytest.approx(500)


@pytest.mark.parametrize("bad", [0.5, float("nan"), -3])
def test_bad_max_condition(bad):
    with pytest.raises(JudgeStatsError, match="max_condition"):
        correct_distribution(TEST, CAL, max_condition=bad)


def test_max_condition_type():
    with pytest.raises(ArgumentTypeError):
        correct_distribution(TEST, CAL, max_condition="big")


# ----------------------------------------------------------------------------- batch kernels
def test_batch_kernels_match_single_data_sets(rng):
    test, cal = _simulate(rng, C3, np.array([0.4, 0.4, 0.2]), 500, 90, 20)
    est = distribution_estimate(test, cal)
    b = distribution_bounds(test, cal, confidence_level=0.9)
    assert isinstance(b, DistributionBounds) and b.low.shape == (20, 3)
    for i in range(20):
        t = CategoryCounts(test[i], labels=LABELS)
        c = ConfusionMatrix(cal[i], labels=LABELS)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ProjectedEstimateWarning)
            one = correct_distribution(t, c, confidence_level=0.9)
        assert list(one.estimate_unconstrained.values()) == pytest.approx(est[i], abs=1e-12)
        assert [one.ci[v].low for v in LABELS] == pytest.approx(b.low[i], abs=1e-12)
        assert [one.ci[v].high for v in LABELS] == pytest.approx(b.high[i], abs=1e-12)


def test_batch_kernels_give_nan_for_undefined_data_sets():
    test = np.array([[43, 38, 19], [43, 38, 19]])
    cal = np.array([CAL_COUNTS, [[8, 1, 0], [2, 8, 0], [0, 1, 0]]])  # second: class c empty
    est = distribution_estimate(test, cal)
    assert not np.isnan(est[0]).any() and np.isnan(est[1]).all()
    b = distribution_bounds(test, cal, method="bootstrap", rng=0, n_resamples=50)
    assert not np.isnan(b.low[0]).any() and np.isnan(b.low[1]).all()
    with pytest.raises(CountError, match=r"shape \(\.\.\., 3, K\) with 2 <= K <= 3"):
        distribution_estimate(test, np.ones((2, 3, 4)))  # more human categories than letters
