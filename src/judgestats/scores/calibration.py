"""Cross-fitted calibration of a numeric judge score s to the binary human label y.

A calibrator maps a score (a probability, a logit, a 1–10 rating) to an estimate of
P(y = 1 | s), fitted on labelled rows. Three, each a pair of small functions (fit on arrays,
predict on arrays) in :data:`CALIBRATORS`:

* ``"isotonic"`` (default): the non-decreasing step function of s closest to y in least
  squares (the pool-adjacent-violators fit, :func:`scipy.optimize.isotonic_regression`),
  as cje-eval calibrates judge scores; it assumes a higher score means "more likely 1" and
  nothing else. A score between two fitted scores takes the value of the one below it.
* ``"binned"``: the human-positive rate within each bin of ``bins=`` (edges declared before
  labelling, the convention of :func:`judgestats.judge_letters`); an empty bin takes the
  fold's overall rate.
* ``"logistic"``: P(y = 1 | s) = 1/(1 + exp(−(a + b s))) by maximum likelihood (Newton, a
  small ridge on b so that separable folds stay finite). With ``covariates=``
  (:mod:`judgestats.scores.covariates`) s is a matrix, the score and the encoded covariates
  side by side, and b a vector (the same ridge on each standardised column); each fold keeps
  the nested model (the score; and the covariates; and their products with it) with the
  lowest BIC on its training rows: the only calibrator that takes covariates.

Cross-fitting (Zrnic & Candès 2024, "Cross-prediction-powered inference"): the labelled
items are split into K folds *by item* (all rows of one ``cluster=`` id in one fold, so the
cluster-robust variance of :mod:`judgestats.scores.prediction_powered` stays valid); each
labelled row is predicted by the calibrator fitted on the other K − 1 folds, and every
unlabelled row by the average of the K calibrators (Zrnic & Candès's choice: it uses the same
K fits as the labelled rows, so the two means share one predictor's law; the calibrator
fitted on every label instead gave the same coverage and width within 0.5% on the
benchmark's cells, ``benchmarks/results/scores.md``, part 3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

__all__ = ["CALIBRATORS", "DEFAULT_FOLDS", "CrossFit", "cross_fit", "fold_ids"]

#: Folds of the cross-fit. Five is Zrnic & Candès's and scikit-learn's default: each
#: calibrator sees 80% of the labels, and the K fits' average on the unlabelled rows is
#: stable; with fewer labelled items than folds, one fold per item.
DEFAULT_FOLDS = 5


# ----------------------------------------------------------------------------- isotonic
def _fit_isotonic(s: np.ndarray, y: np.ndarray, bins: Any) -> tuple[np.ndarray, np.ndarray]:
    from scipy.optimize import isotonic_regression

    xs, inverse = np.unique(s, return_inverse=True)
    weights = np.bincount(inverse).astype(float)
    means = np.bincount(inverse, weights=y) / weights
    fitted = isotonic_regression(means, weights=weights, increasing=True).x
    return xs, np.asarray(fitted, dtype=float)


def _predict_isotonic(model: tuple[np.ndarray, np.ndarray], s: np.ndarray) -> np.ndarray:
    xs, fitted = model
    at = np.clip(np.searchsorted(xs, s, side="right") - 1, 0, xs.size - 1)
    return fitted[at]


# ----------------------------------------------------------------------------- binned
def bin_codes(s: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bin index of each score: [e_j, e_{j+1}), the last bin closed (as judge_letters)."""
    return np.clip(np.searchsorted(edges, s, side="right") - 1, 0, edges.size - 2)


def _fit_binned(s: np.ndarray, y: np.ndarray, bins: Any) -> tuple[np.ndarray, np.ndarray]:
    edges = np.asarray(bins, dtype=float)
    codes = bin_codes(s, edges)
    k = edges.size - 1
    count = np.bincount(codes, minlength=k).astype(float)
    pos = np.bincount(codes, weights=y, minlength=k)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(count > 0, pos / count, y.mean())
    return edges, rate


def _predict_binned(model: tuple[np.ndarray, np.ndarray], s: np.ndarray) -> np.ndarray:
    edges, rate = model
    return rate[bin_codes(s, edges)]


# ----------------------------------------------------------------------------- logistic
#: Ridge penalty on the slope of the logistic calibrator (on the standardised score): keeps a
#: fold whose labels a threshold separates finite, and moves a fit of 100 labels by < 1e-3.
_RIDGE = 1e-3


def _sigmoid(eta: np.ndarray) -> np.ndarray:
    """1/(1 + exp(−η)), in place on ``eta`` (a fresh array the caller gives away)."""
    np.negative(eta, out=eta)
    np.exp(eta, out=eta)
    eta += 1.0
    return np.reciprocal(eta, out=eta)


def _newton(x: np.ndarray, y: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Maximise K ridge-penalised logistic log-likelihoods at once (intercepts unpenalised).

    ``x``: (K, n, columns), set j's rows first and zero rows after its ``rows[j]`` (a zero
    row adds exactly nothing to a gradient or a Hessian); ``y``: (K, n). Each set runs its own
    Newton steps until its largest step is below 1e-10, then stays where it is: the K fits
    are the K separate fits (to rounding), one numpy call each for all of them. Each starts
    at 0 (Newton has no line search: started at a nested model's optimum instead, a fold of
    a 0/1 letter with a category diverged where the start at 0 converges).
    """
    sets, _, p_cols = x.shape
    beta = np.zeros((sets, p_cols))
    ridge = _RIDGE * rows[:, None] * np.ones(p_cols)
    ridge[:, 0] = 0.0
    diag = np.arange(p_cols)
    xt = np.ascontiguousarray(x.transpose(0, 2, 1))
    active = np.ones(sets, dtype=bool)
    for _ in range(50):  # Newton on the penalised log-likelihood (concave)
        p = _sigmoid((x @ beta[:, :, None])[:, :, 0])
        grad = (xt @ (y - p)[:, :, None])[:, :, 0] - ridge * beta
        hess = (xt * (p * (1.0 - p))[:, None, :]) @ x
        hess[:, diag, diag] += ridge
        hess[:, diag, diag] += 1e-10
        step = np.linalg.solve(hess, grad[:, :, None])[:, :, 0]
        step[~active] = 0.0
        beta = beta + step
        active &= np.max(np.abs(step), axis=1) >= 1e-10
        if not active.any():
            break
    return beta


def _fit_logistic_sets(feats: list[np.ndarray], ys: list[np.ndarray]) -> list[tuple]:
    """Ridge logistic regressions of each ``ys[j]`` on the columns of ``feats[j]``, at once.

    Each column is standardised on its set; the intercept is not penalised. With covariates
    the columns are [score, the p covariate columns, their p products with the score]
    (:mod:`judgestats.scores.covariates`): the three nested models (the score; and the
    covariates; and the products) are fitted and the one with the lowest BIC on the set's
    rows kept (the dropped columns' coefficients 0). The
    choice sees only the set's rows, so the cross-fit's out-of-fold predictions stay
    independent of their own labels. Returns (coefficients, centre, scale) per set.
    """
    sets, cols = len(feats), feats[0].shape[1]
    rows = np.array([f.shape[0] for f in feats])
    x = np.zeros((sets, int(rows.max()), cols + 1))
    y = np.zeros((sets, int(rows.max())))
    scaling = []
    for j, f in enumerate(feats):
        centre, scale = f.mean(axis=0), f.std(axis=0)
        scale[scale == 0] = 1.0
        scaling.append((centre, scale))
        x[j, : rows[j], 0] = 1.0
        x[j, : rows[j], 1:] = (f - centre) / scale
        y[j, : rows[j]] = ys[j]
    if cols == 1:
        beta = _newton(x, y, rows)
        return [(beta[j], *scaling[j]) for j in range(sets)]
    p = (cols - 1) // 2
    real = np.arange(x.shape[1])[None, :] < rows[:, None]
    best = np.full(sets, np.inf)
    chosen = np.zeros((sets, cols + 1))
    for k in (1, 1 + p, 1 + 2 * p):
        beta = _newton(x[:, :, : k + 1], y, rows)
        eta = (x[:, :, : k + 1] @ beta[:, :, None])[:, :, 0]
        loglik = np.where(real, y * eta - np.logaddexp(0.0, eta), 0.0).sum(axis=1)
        bic = -2.0 * loglik + (k + 1) * np.log(rows)
        better = bic < best
        best[better] = bic[better]
        chosen[better] = np.pad(beta[better], ((0, 0), (0, cols - k)))
    return [(chosen[j], *scaling[j]) for j in range(sets)]


def _fit_logistic(s: np.ndarray, y: np.ndarray, bins: Any) -> tuple[np.ndarray, ...]:
    """Ridge logistic regression of y on the columns of s (:func:`_fit_logistic_sets`)."""
    return _fit_logistic_sets([s.reshape(s.shape[0], -1)], [y])[0]


def _fit_logistic_folds(s: np.ndarray, y: np.ndarray, fold: np.ndarray, k: int,
                        bins: Any) -> list:  # fmt: skip
    """Fit the K out-of-fold logistic models (fold j's on the other folds' rows) at once."""
    feats = s.reshape(s.shape[0], -1)
    return _fit_logistic_sets([feats[fold != j] for j in range(k)],
                              [y[fold != j] for j in range(k)])  # fmt: skip


def _predict_logistic(model: tuple[np.ndarray, ...], s: np.ndarray) -> np.ndarray:
    beta, centre, scale = model
    feats = s.reshape(s.shape[0], -1)
    return 1.0 / (1.0 + np.exp(-(beta[0] + ((feats - centre) / scale) @ beta[1:])))


def _average_logistic(models: list, s: np.ndarray) -> np.ndarray:
    """Average the K logistic fits' predictions at s (as K calls of the prediction would).

    Each fit's standardisation is folded into its coefficients, so the K linear predictors
    are one product of s with a (columns × K) matrix, then one pass of the sigmoid: the
    same K probabilities averaged (to rounding), not a logistic of averaged coefficients.
    The product is an ``einsum`` (numpy's own loop): a BLAS product of 5·10^4 rows starts
    threads, which wait for a core on a busy machine (4× slower on 2 shared cores).
    """
    feats = np.ascontiguousarray(s.reshape(s.shape[0], -1).T)  # columns × rows
    coef = np.column_stack([beta[1:] / scale for beta, _, scale in models])
    const = np.array([beta[0] - float((centre / scale) @ beta[1:])
                      for beta, centre, scale in models])  # fmt: skip
    eta = np.einsum("ji,jk->ki", feats, coef)  # K × rows
    eta += const[:, None]
    return _sigmoid(eta).mean(axis=0)


class Calibrator(NamedTuple):
    """A calibrator: ``fit(s, y, bins) → model`` and ``predict(model, s) → P(y = 1 | s)``.

    ``knots(model)``: for a step function of the score (isotonic, binned), the scores where it
    may step (its value is constant from one knot to the next, and below the first); None for
    a smooth calibrator. ``average(models, s)``: the K models' mean prediction at s in one
    pass, where the calibrator has one (logistic); None: K calls of ``predict``.
    ``fit_folds(s, y, fold, k, bins)``: the K out-of-fold fits at once (the list
    ``[fit(s[fold != j], y[fold != j], bins) for j in range(k)]``), where the calibrator has
    it (logistic); None: K calls of ``fit``.
    """

    fit: Callable[[np.ndarray, np.ndarray, Any], Any]
    predict: Callable[[Any, np.ndarray], np.ndarray]
    description: str
    knots: Callable[[Any], np.ndarray] | None = None
    average: Callable[[list, np.ndarray], np.ndarray] | None = None
    fit_folds: Callable[[np.ndarray, np.ndarray, np.ndarray, int, Any], list] | None = None


#: The calibrators by name (the ``calibrator=`` values).
CALIBRATORS = {
    "isotonic": Calibrator(_fit_isotonic, _predict_isotonic, "isotonic regression",
                           lambda model: model[0]),
    "binned": Calibrator(_fit_binned, _predict_binned, "binned (declared bins)",
                         lambda model: model[0][:-1]),
    "logistic": Calibrator(_fit_logistic, _predict_logistic, "logistic regression",
                           average=_average_logistic, fit_folds=_fit_logistic_folds),
}


def step_values(knots: np.ndarray, values: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Evaluate a step function (``values[i]`` from ``knots[i]`` on; ``values[0]`` below) at s.

    One sort of s and a search of the few knots in it, instead of a search of every s in the
    knots (5× slower on 5·10^4 scores and 2,000 knots: each search a cache miss).
    """
    order = np.argsort(s)  # ties share one value, so any order of them gives the same output
    cuts = np.searchsorted(s[order], knots[1:], side="left")
    counts = np.diff(np.concatenate(([0], cuts, [s.size])))
    out = np.empty(s.size, dtype=float)
    out[order] = np.repeat(values, counts)
    return out


def _averaged_steps(cal: Calibrator, models: list, s_unl: np.ndarray) -> np.ndarray:
    """Average the K step-function calibrators at s_unl, as one step function (exact)."""
    assert cal.knots is not None
    knots = np.unique(np.concatenate([cal.knots(m) for m in models]))
    values = np.mean([cal.predict(m, knots) for m in models], axis=0)
    return step_values(knots, values, s_unl)


# ----------------------------------------------------------------------------- cross-fit
def fold_ids(items: np.ndarray, folds: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """Fold of each labelled row, the items (``items``: an item id per row) dealt at random.

    Returns (fold per row, number of folds): min(``folds``, distinct items).
    """
    unique, inverse = np.unique(items, return_inverse=True)
    k = int(min(folds, unique.size))
    order = rng.permutation(unique.size)
    item_fold = np.empty(unique.size, dtype=np.int64)
    item_fold[order] = np.arange(unique.size) % k
    return item_fold[inverse], k


class CrossFit(NamedTuple):
    """Cross-fitted predictions: each labelled row out of fold, each unlabelled row averaged."""

    labelled: np.ndarray
    unlabelled: np.ndarray
    folds: int


def cross_fit(
    s_lab: np.ndarray, y: np.ndarray, s_unl: np.ndarray, items: np.ndarray, *,
    calibrator: str, folds: int, bins: Any, rng: np.random.Generator,
    unlabelled: str = "average",
) -> CrossFit:  # fmt: skip
    """Cross-fit ``calibrator`` (module docstring): out-of-fold and averaged predictions.

    ``items``: the item id of each labelled row (the row's index without ``cluster=``).
    ``unlabelled``: ``"average"`` (the K fits' mean, the default) or ``"full"`` (one fit on
    every labelled row), compared in ``benchmarks/results/scores.md``.
    """
    cal = CALIBRATORS[calibrator]
    fold, k = fold_ids(items, folds, rng)
    out = np.empty(s_lab.shape[0], dtype=float)
    models = cal.fit_folds(s_lab, y, fold, k, bins) if cal.fit_folds is not None \
        else [cal.fit(s_lab[fold != j], y[fold != j], bins) for j in range(k)]
    for j in range(k):
        held = fold == j
        out[held] = cal.predict(models[j], s_lab[held])
    if cal.knots is not None and s_unl.size:
        avg = _averaged_steps(cal, models, s_unl)
    elif cal.average is not None and s_unl.size:
        avg = cal.average(models, s_unl)
    else:
        avg = np.mean([cal.predict(m, s_unl) for m in models], axis=0) if s_unl.size \
            else np.zeros(0)
    if unlabelled == "full":
        avg = cal.predict(cal.fit(s_lab, y, bins), s_unl)
    return CrossFit(np.clip(out, 0.0, 1.0), np.clip(avg, 0.0, 1.0), k)
