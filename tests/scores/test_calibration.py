"""The cross-fitted calibrators, each against an independent computation written here."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from judgestats.scores.calibration import CALIBRATORS, cross_fit, fold_ids


def _pava(x, y):
    """Pool-adjacent-violators by hand (means of y over sorted x, ties pooled first)."""
    xs = np.unique(x)
    blocks = [[float(y[x == v].sum()), float((x == v).sum())] for v in xs]
    out = []  # stack of [sum, weight, n_values]
    for s, w in blocks:
        out.append([s, w, 1])
        while len(out) > 1 and out[-2][0] / out[-2][1] > out[-1][0] / out[-1][1]:
            s2, w2, k2 = out.pop()
            out[-1][0] += s2
            out[-1][1] += w2
            out[-1][2] += k2
    return xs, np.concatenate([[s / w] * k for s, w, k in out])


def test_isotonic_is_the_pool_adjacent_violators_fit_and_a_step_function():
    rng = np.random.default_rng(1)
    s = np.round(rng.random(60), 1)  # ties on purpose
    y = (rng.random(60) < s).astype(float)
    iso = CALIBRATORS["isotonic"]
    model = iso.fit(s, y, None)
    xs, fitted = _pava(s, y)
    np.testing.assert_allclose(model[1], fitted, atol=1e-12)
    # between fitted scores the value of the one below; outside, the end values
    new = np.array([-1.0, xs[0], (xs[2] + xs[3]) / 2, 2.0])
    np.testing.assert_allclose(iso.predict(model, new), [fitted[0], fitted[0], fitted[2],
                                                         fitted[-1]])


def test_binned_is_the_rate_within_each_declared_bin():
    s = np.array([0.1, 0.2, 0.3, 0.6, 0.7, 0.95, 1.0])
    y = np.array([0, 0, 1, 1, 0, 1, 1], dtype=float)
    binned = CALIBRATORS["binned"]
    model = binned.fit(s, y, np.array([0.0, 0.5, 0.9, 1.0]))
    np.testing.assert_allclose(model[1], [1 / 3, 1 / 2, 1.0])  # last bin closed: 1.0 is in it
    empty = binned.fit(s[:3], y[:3], np.array([0.0, 0.5, 1.0]))
    assert empty[1][1] == pytest.approx(1 / 3)  # an empty bin takes the fold's rate


def test_logistic_maximises_the_penalised_likelihood():
    rng = np.random.default_rng(2)
    s = rng.normal(3.0, 2.0, 300)
    y = (rng.random(300) < 1 / (1 + np.exp(-(s - 3.0)))).astype(float)
    log = CALIBRATORS["logistic"]
    model = log.fit(s, y, None)
    t = (s - s.mean()) / s.std()

    def loss(b):  # the same penalty (1e-3 · n · slope² / 2), minimised by a general optimiser
        eta = b[0] + b[1] * t
        return -np.sum(y * eta - np.logaddexp(0, eta)) + 0.5e-3 * s.size * b[1] ** 2

    best = minimize(loss, np.zeros(2), method="BFGS", options={"gtol": 1e-10}).x
    np.testing.assert_allclose(model[0], best, atol=1e-5)
    p = log.predict(model, np.array([3.0]))
    assert p[0] == pytest.approx(1 / (1 + np.exp(-(best[0] + best[1] * (3.0 - s.mean()) / s.std()))))


def test_folds_keep_an_items_rows_together_and_are_balanced():
    items = np.repeat(np.arange(23), 3)
    fold, k = fold_ids(items, 5, np.random.default_rng(0))
    assert k == 5
    for item in range(23):
        assert np.unique(fold[items == item]).size == 1
    per_fold = np.bincount(fold) // 3
    assert per_fold.max() - per_fold.min() <= 1


def test_a_labelled_row_is_predicted_without_its_own_fold():
    rng = np.random.default_rng(3)
    s = rng.random(200)
    y = (rng.random(200) < s).astype(float)
    items = np.arange(200)
    a = cross_fit(s, y, s[:5], items, calibrator="isotonic", folds=5, bins=None,
                  rng=np.random.default_rng(9))
    fold, _ = fold_ids(items, 5, np.random.default_rng(9))
    flipped = np.where(fold == 0, 1 - y, y)  # change the labels of fold 0 only
    b = cross_fit(s, flipped, s[:5], items, calibrator="isotonic", folds=5, bins=None,
                  rng=np.random.default_rng(9))
    np.testing.assert_array_equal(a.labelled[fold == 0], b.labelled[fold == 0])
    assert not np.array_equal(a.labelled[fold != 0], b.labelled[fold != 0])


def _newton_one(x, y):
    """One ridge-logistic fit as the calibrator made it before its folds were batched: 2-D
    arrays, Newton from 0 until the largest step is below 1e-10 (the reference, in the test)."""
    beta = np.zeros(x.shape[1])
    penalty = np.diag([0.0] + [1e-3 * x.shape[0]] * (x.shape[1] - 1))
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        hess = (x * (p * (1 - p))[:, None]).T @ x + penalty + 1e-10 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, x.T @ (y - p) - penalty @ beta)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta


def test_the_folds_fitted_at_once_are_the_folds_fitted_one_by_one():
    """The K out-of-fold logistic fits share one batched Newton (folds of unequal sizes, padded
    with zero rows): each equals its own fit on its rows (the 2-D reference above, with the
    fold's standardisation) to 1e-12; with covariates, each keeps the same nested model."""
    from judgestats.scores.calibration import _fit_logistic_folds

    rng = np.random.default_rng(3930)
    n = 503  # folds of 101 and 100 rows
    y = (rng.random(n) < 0.3).astype(float)
    s = 1 / (1 + np.exp(-(2 * (2 * y - 1) + rng.normal(0, 1.5, n))))
    m = np.column_stack([rng.integers(0, 2, n), rng.normal(size=n) + 0.8 * y])
    feats = np.column_stack([s, m, s[:, None] * m])
    fold = np.arange(n) % 5
    for cols in (feats[:, :1], feats):
        models = _fit_logistic_folds(cols, y, fold, 5, None)
        for j, (beta, centre, scale) in enumerate(models):
            f = cols[fold != j]
            np.testing.assert_allclose(centre, f.mean(axis=0), rtol=1e-14)
            x = np.column_stack([np.ones(f.shape[0]), (f - centre) / scale])
            if cols.shape[1] == 1:
                np.testing.assert_allclose(beta, _newton_one(x, y[fold != j]), atol=1e-12)
                continue
            kept = np.flatnonzero(beta != 0)
            assert kept.size in (2, 4, 6) and np.array_equal(kept, np.arange(kept.size))
            ref = _newton_one(x[:, : kept.size], y[fold != j])
            np.testing.assert_allclose(beta[: kept.size], ref, atol=1e-12)


def test_the_averaged_logistic_prediction_is_the_mean_of_the_k_predictions():
    """The unlabelled rows' prediction: the K fits' probabilities averaged (not a logistic of
    averaged coefficients), computed as one product; equal to K separate predictions to 1e-12."""
    from judgestats.scores.calibration import _average_logistic

    rng = np.random.default_rng(3931)
    cal = CALIBRATORS["logistic"]
    y = (rng.random(400) < 0.4).astype(float)
    x = np.column_stack([y + rng.normal(0, 1, 400), rng.normal(size=400)])
    models = [cal.fit(x[j::4], y[j::4], None) for j in range(4)]
    new = rng.normal(size=(1000, 2)) * 3
    each = np.mean([cal.predict(mod, new) for mod in models], axis=0)
    np.testing.assert_allclose(_average_logistic(models, new), each, rtol=0, atol=1e-12)
    np.testing.assert_allclose(_average_logistic(models, np.asfortranarray(new)), each,
                               rtol=0, atol=1e-12)  # fmt: skip
    coef = np.mean([mod[0] for mod in models], axis=0)  # averaging coefficients differs
    assert not np.allclose(cal.predict((coef, *models[0][1:]), new), each, atol=1e-6)
