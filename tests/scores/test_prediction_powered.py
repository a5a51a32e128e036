"""The PPI++ mean, its λ and its variance, against the formulas written out here."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from judgestats.scores.prediction_powered import (
    PSEUDO_LABELS,
    RARE_CLASS_LABELS,
    fit_ppi,
    fit_ppi_columns,
    humans_only_variance,
    pseudo_label_variance,
    rare_class,
)


def _data(seed=0, n=150, big_n=600):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(float)
    f = np.clip(0.4 + 0.35 * (y - 0.4) + rng.normal(0, 0.1, n), 0, 1)
    f_unl = np.clip(0.4 + rng.normal(0, 0.2, big_n), 0, 1)
    return y, f, f_unl


def _hand_variance(y, f, f_unl, lam):
    """Var_n(y − λf)/n + λ² Var_N(f̃)/N (PPI++, Angelopoulos et al. 2023), with the package's
    (n + N)/(n + N − 1) small-sample factor and 1/n, 1/N moments."""
    n, big_n = y.size, f_unl.size
    r = (y - y.mean()) - lam * (f - f.mean())
    c = n + big_n
    return (r @ r / n**2 + lam**2 * np.sum((f_unl - f_unl.mean()) ** 2) / big_n**2) * c / (c - 1)


def test_estimate_and_variance_at_a_fixed_lambda():
    y, f, f_unl = _data()
    fit = fit_ppi(y, f, f_unl, lam=0.6)
    assert fit.estimate == pytest.approx(0.6 * f_unl.mean() + np.mean(y - 0.6 * f))
    assert fit.variance == pytest.approx(_hand_variance(y, f, f_unl, 0.6), rel=1e-12)


def test_tuned_lambda_minimises_the_variance():
    y, f, f_unl = _data(1)
    fit = fit_ppi(y, f, f_unl)
    best = minimize_scalar(lambda lam: _hand_variance(y, f, f_unl, lam), bounds=(0, 1),
                           method="bounded", options={"xatol": 1e-10}).x
    assert fit.lam == pytest.approx(best, abs=1e-6)
    assert fit.variance <= _hand_variance(y, f, f_unl, 0.0)  # never worse than humans alone


def test_lambda_is_zero_for_a_useless_predictor_and_without_unlabelled_rows():
    y, _, _ = _data(2)
    rng = np.random.default_rng(7)
    noise = rng.random(y.size)
    fit = fit_ppi(y, noise, rng.random(600))
    assert fit.lam < 0.3
    assert fit_ppi(y, noise, np.empty(0)).lam == 0.0
    assert fit_ppi(y, noise, np.empty(0)).estimate == pytest.approx(y.mean())


def test_cluster_robust_variance_is_the_sum_over_items():
    y, f, f_unl = _data(3, n=120, big_n=240)
    items_lab = np.repeat(np.arange(40), 3)  # labelled rows in items 0..39
    items_unl = np.repeat(np.arange(20, 100), 3)  # items 20..39 hold both kinds of rows
    fit = fit_ppi(y, f, f_unl, items_lab=items_lab, items_unl=items_unl, lam=0.5)
    psi = {}
    for i, item in enumerate(items_lab):
        psi[item] = psi.get(item, 0.0) + ((y[i] - y.mean()) - 0.5 * (f[i] - f.mean())) / y.size
    for i, item in enumerate(items_unl):
        psi[item] = psi.get(item, 0.0) + 0.5 * (f_unl[i] - f_unl.mean()) / f_unl.size
    c = len(psi)
    assert c == 100 and fit.items == 100
    hand = sum(v * v for v in psi.values()) * c / (c - 1)
    assert fit.variance == pytest.approx(hand, rel=1e-12)


def test_humans_only_variance_is_the_sample_variance_of_the_mean():
    y, _, _ = _data(4)
    n = y.size
    assert humans_only_variance(y) == pytest.approx(np.var(y) / (n - 1))


def _augmented(y, f, size=1):
    """y, f with two 1s and two 0s (each ``size`` rows) at the labelled mean prediction."""
    return np.r_[y, np.repeat([1.0, 0.0], 2 * size)], np.r_[f, np.full(4 * size, f.mean())]


def test_rare_adjusted_variance_is_ppi_on_the_augmented_arrays():
    """With fewer than 20 labelled positives the adjusted variance is PPI++'s on y, f with two
    1s and two 0s appended at the labelled mean prediction, λ held at the fit's λ̂ (written out
    here with the PPI++ formula), when larger than PPI++'s own; the estimate and λ are
    untouched. With 20 or more of each class it is PPI++'s own, exactly."""
    rng = np.random.default_rng(11)
    n, big_n = 150, 600
    y = (rng.random(n) < 0.05).astype(float)  # a rare class: about 7 positives
    assert 0 < y.sum() < RARE_CLASS_LABELS == 20
    f = np.clip(0.05 + 0.6 * y + rng.normal(0, 0.03, n), 0, 1)
    f_unl = np.clip(0.05 + rng.normal(0, 0.1, big_n), 0, 1)
    plain, adjusted = fit_ppi(y, f, f_unl), fit_ppi(y, f, f_unl, rare_adjust=True)
    assert PSEUDO_LABELS == 2
    hand = _hand_variance(*_augmented(y, f), f_unl, plain.lam)
    assert pseudo_label_variance(y, f, f_unl, lam=plain.lam) == pytest.approx(hand, rel=1e-12)
    assert hand > 1.5 * plain.variance  # the rare cell: the pseudo-labels widen it
    assert adjusted.variance == pytest.approx(hand, rel=1e-12)
    assert (adjusted.estimate, adjusted.lam) == (plain.estimate, plain.lam)
    # a common class (about 60 positives of 150): PPI++'s own variance
    y, f, f_unl = _data(5)
    assert min(y.sum(), (1 - y).sum()) >= 20 and not rare_class(y)
    assert fit_ppi(y, f, f_unl, rare_adjust=True) == fit_ppi(y, f, f_unl)


def test_rare_class_counts_the_smaller_class_in_items():
    y = np.r_[np.ones(19), np.zeros(200)]
    assert rare_class(y) and not rare_class(np.r_[y, 1.0])
    # 3 rows per item: 57 positive rows are 19 items, 60 are 20
    assert rare_class(np.repeat(y, 3), np.repeat(np.arange(219), 3))
    y20 = np.r_[np.ones(20), np.zeros(200)]
    assert not rare_class(np.repeat(y20, 3), np.repeat(np.arange(220), 3))


def test_rare_adjusted_variance_with_items_adds_four_items_of_the_mean_size():
    """With cluster=, the pseudo-labels are four new items of the sandwich, each of the
    labelled items' mean size (3 rows here): the sum over items written out, C + 4 items."""
    y, f, f_unl = _data(6, n=120, big_n=240)
    items_lab = np.repeat(np.arange(40), 3)
    items_unl = np.repeat(np.arange(20, 100), 3)
    lam = 0.5
    got = pseudo_label_variance(y, f, f_unl, lam=lam, items_lab=items_lab, items_unl=items_unl)
    y_aug, f_aug = _augmented(y, f, size=3)
    lab_aug = np.r_[items_lab, np.repeat(np.arange(100, 104), 3)]
    psi: dict = {}
    for i, item in enumerate(lab_aug):
        r = (y_aug[i] - y_aug.mean()) - lam * (f_aug[i] - f_aug.mean())
        psi[item] = psi.get(item, 0.0) + r / y_aug.size
    for i, item in enumerate(items_unl):
        psi[item] = psi.get(item, 0.0) + lam * (f_unl[i] - f_unl.mean()) / f_unl.size
    c = len(psi)
    assert c == 104
    assert got == pytest.approx(sum(v * v for v in psi.values()) * c / (c - 1), rel=1e-12)


def test_columns_with_one_predictor_are_fit_ppi():
    """fit_ppi_columns' vector form with one column is the scalar PPI++ (fixed λ, and tuned
    where the scalar λ̂ falls inside (0, 1)), on rows and on items."""
    rng = np.random.default_rng(0)
    y = (rng.random(120) < 0.3).astype(float)
    f, f_unl = 0.15 * y + 0.85 * rng.random(120), 0.05 + 0.85 * rng.random(600)
    for items in (None, (rng.integers(0, 200, y.size), rng.integers(150, 400, f_unl.size))):
        kw = {} if items is None else {"items_lab": items[0], "items_unl": items[1]}
        for lam in (0.3, None):
            ref = fit_ppi(y, f, f_unl, lam=lam, **kw)
            got = fit_ppi_columns(y, f[:, None], f_unl[:, None],
                                  lam=None if lam is None else np.array([lam]), **kw)
            assert 0 < ref.lam < 1
            assert (got.estimate, got.variance, got.lam, got.items) == pytest.approx(
                (ref.estimate, ref.variance, ref.lam, ref.items), rel=1e-12)


def test_columns_lambda_is_least_squares_with_the_last_held_nonnegative():
    """Two columns: λ̂ minimises ‖u + Vλ‖² (the variance at λ, evaluated here on a grid of
    the letter's λ with the score's re-tuned), and a score of pure noise beside its letter
    gets λ̂ ≥ 0 (held at 0 where the minimiser is negative)."""
    rng = np.random.default_rng(5)
    y = (rng.random(400) < 0.3).astype(float)
    letter = np.where(rng.random(400) < 0.85, y, 1 - y)
    letter_unl = (rng.random(3000) < 0.35).astype(float)
    noise, noise_unl = rng.random(400), rng.random(3000)
    g, g_unl = np.c_[letter, noise], np.c_[letter_unl, noise_unl]
    fit = fit_ppi_columns(y, g, g_unl)
    assert fit.lam >= 0 and fit.lams is not None and fit.lams[-1] == fit.lam
    grid = [fit_ppi_columns(y, g, g_unl, lam=np.array([a, fit.lam])).variance
            for a in np.linspace(fit.lams[0] - 0.2, fit.lams[0] + 0.2, 41)]
    assert fit.variance == pytest.approx(min(grid), rel=1e-9)
    # the letter alone (one column) gives the same λ̂ for the letter where the noise gets 0
    if fit.lam == 0.0:
        alone = fit_ppi_columns(y, letter[:, None], letter_unl[:, None])
        assert fit.lams[0] == pytest.approx(alone.lams[0], rel=1e-12)
