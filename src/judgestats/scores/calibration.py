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


def _newton(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Maximise the ridge-penalised logistic log-likelihood (intercept unpenalised)."""
    p_cols = x.shape[1]
    beta = np.zeros(p_cols)
    penalty = np.diag([0.0] + [_RIDGE * x.shape[0]] * (p_cols - 1))
    for _ in range(50):  # Newton on the penalised log-likelihood (concave)
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        grad = x.T @ (y - p) - penalty @ beta
        hess = (x * (p * (1.0 - p))[:, None]).T @ x + penalty + 1e-10 * np.eye(p_cols)
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta


def _fit_logistic(s: np.ndarray, y: np.ndarray, bins: Any) -> tuple[np.ndarray, ...]:
    """Ridge logistic regression of y on the columns of s (a score, or score and covariates).

    Each column is standardised on the fold; the intercept is not penalised. With covariates
    s is [score, the p covariate columns, their p products with the score]
    (:mod:`judgestats.scores.covariates`): the three nested models (the score; and the
    covariates; and the products) are fitted and the one with the lowest BIC on these rows
    kept (the dropped columns' coefficients 0). The choice sees only the fold's training
    rows, so the cross-fit's out-of-fold predictions stay independent of their own labels.
    """
    feats = s.reshape(s.shape[0], -1)
    centre = feats.mean(axis=0)
    scale = feats.std(axis=0)
    scale[scale == 0] = 1.0
    x = np.column_stack([np.ones(feats.shape[0]), (feats - centre) / scale])
    if feats.shape[1] == 1:
        return _newton(x, y), centre, scale
    p = (feats.shape[1] - 1) // 2
    best: tuple[float, np.ndarray] | None = None
    for k in (1, 1 + p, 1 + 2 * p):
        beta = _newton(x[:, : k + 1], y)
        eta = x[:, : k + 1] @ beta
        bic = -2.0 * float(np.sum(y * eta - np.logaddexp(0.0, eta))) + (k + 1) * np.log(y.size)
        if best is None or bic < best[0]:
            best = (bic, np.concatenate([beta, np.zeros(feats.shape[1] - k)]))
    assert best is not None
    return best[1], centre, scale


def _predict_logistic(model: tuple[np.ndarray, ...], s: np.ndarray) -> np.ndarray:
    beta, centre, scale = model
    feats = s.reshape(s.shape[0], -1)
    return 1.0 / (1.0 + np.exp(-(beta[0] + ((feats - centre) / scale) @ beta[1:])))


class Calibrator(NamedTuple):
    """A calibrator: ``fit(s, y, bins) → model`` and ``predict(model, s) → P(y = 1 | s)``.

    ``knots(model)``: for a step function of the score (isotonic, binned), the scores where it
    may step (its value is constant from one knot to the next, and below the first); None for
    a smooth calibrator.
    """

    fit: Callable[[np.ndarray, np.ndarray, Any], Any]
    predict: Callable[[Any, np.ndarray], np.ndarray]
    description: str
    knots: Callable[[Any], np.ndarray] | None = None


#: The calibrators by name (the ``calibrator=`` values).
CALIBRATORS = {
    "isotonic": Calibrator(_fit_isotonic, _predict_isotonic, "isotonic regression",
                           lambda model: model[0]),
    "binned": Calibrator(_fit_binned, _predict_binned, "binned (declared bins)",
                         lambda model: model[0][:-1]),
    "logistic": Calibrator(_fit_logistic, _predict_logistic, "logistic regression"),
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
    models = []
    for j in range(k):
        held = fold == j
        models.append(cal.fit(s_lab[~held], y[~held], bins))
        out[held] = cal.predict(models[-1], s_lab[held])
    if cal.knots is not None and s_unl.size:
        avg = _averaged_steps(cal, models, s_unl)
    else:
        avg = np.mean([cal.predict(m, s_unl) for m in models], axis=0) if s_unl.size \
            else np.zeros(0)
    if unlabelled == "full":
        avg = cal.predict(cal.fit(s_lab, y, bins), s_unl)
    return CrossFit(np.clip(out, 0.0, 1.0), np.clip(avg, 0.0, 1.0), k)
