"""Cross-fitted prediction of the human verdict from a jury, judge probabilities and covariates.

The prediction ``f_i`` of :mod:`~judgestats.pairwise.row_powered` is a multinomial logistic
regression (a stacking of every judge into one distribution over first wins / tie / second
wins) of the human verdict on the row's features, in the order shown:

* each jury member's letter (indicators of "first wins" and "tie"; and of "silent" when the
  member is missing on some rows), or the ``judge=`` letters when no ``prediction=`` columns
  are given;
* each judge probability's ``log(P(first)/P(second))`` and, when it has ties,
  ``logit P(tie)`` (shares clipped to [0.001, 0.999]);
* the covariates (numbers; categories as indicators) and the control differences (a control
  predicts the human verdict too; it enters the model besides).

Features are standardised on all rows; the slopes carry a ridge penalty of
:data:`RIDGE` (in standardised units, against the labelled rows' log likelihood) so that a
small calibration set or many useless covariates do not overfit. The regression is
*cross-fitted* (Zrnic and Candès 2024): the labelled rows are dealt into :data:`FOLDS` folds
(whole clusters with ``cluster=``; :func:`judgestats.scores.calibration.fold_ids`), each
labelled row is predicted by the fit on the other folds, and each unlabelled row by the mean
of the fold fits. The prediction-powered equation is unbiased whatever ``f`` is; a better
``f`` narrows the interval, and power tuning keeps a useless one from widening it.
"""

from __future__ import annotations

import numpy as np

from ..scores.calibration import fold_ids
from .row_powered import fit_softmax
from .rows import PairRows

__all__ = ["FOLDS", "RIDGE", "cross_fitted_prediction", "features"]

#: Folds of the cross-fit.
FOLDS = 5

#: Ridge weight on each standardised slope of the stacking regression.
RIDGE = 1.0

_EPS = 1e-3


def _indicators(codes: np.ndarray, levels: int) -> np.ndarray:
    return (codes[:, None] == np.arange(levels)[None, :]).astype(float)


def features(rows: PairRows, letters: bool) -> np.ndarray:
    """Return the stacking features (rows × q; constant columns dropped, no intercept)."""
    blocks = [rows.covariates, rows.controls]
    if letters:
        blocks.append(_indicators(rows.judge, rows.n_judge_letters))
    for m in range(rows.members.shape[1]):
        blocks.append(_indicators(rows.members[:, m], 2))
        if (rows.members[:, m] < 0).any():
            blocks.append((rows.members[:, m] < 0).astype(float)[:, None])
    for dist in rows.distributions:
        share = np.clip(dist, _EPS, 1.0 - _EPS)
        blocks.append(np.log(share[:, [0]] / share[:, [2]]))
        if dist[:, 1].any():
            blocks.append(np.log(share[:, [1]] / (1.0 - share[:, [1]])))
    x = np.hstack(blocks)
    return x[:, x.std(axis=0) > 1e-12]


def _design(x: np.ndarray) -> np.ndarray:
    """``L_i`` of the stacking regression: logits (x̃ w_first, x̃ w_tie, 0), x̃ = (1, x)."""
    x1 = np.hstack([np.ones((x.shape[0], 1)), x])
    q = x1.shape[1]
    jac = np.zeros((x.shape[0], 3, 2 * q))
    jac[:, 0, :q] = x1
    jac[:, 1, q:] = x1
    return jac


def _fit_predict(x_fit, y_fit, x_new) -> np.ndarray:
    q = x_fit.shape[1] + 1
    rho = np.full(2 * q, RIDGE)
    rho[[0, q]] = 0.0  # intercepts free
    outcomes = np.eye(3)[y_fit]
    theta = fit_softmax(_design(x_fit), outcomes, penalty=rho).theta
    logits = _design(x_new) @ theta
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def cross_fitted_prediction(
    rows: PairRows, letters: bool, rng: np.random.Generator
) -> tuple[np.ndarray, int]:
    """``f`` (rows × 3) by the cross-fitted stacking regression; and the number of folds.

    Each labelled row is predicted out of fold, each unlabelled row by the folds' mean
    (module docstring); ``rng`` deals the folds.
    """
    x = features(rows, letters)
    if x.shape[1]:
        x = (x - x.mean(axis=0)) / x.std(axis=0)
    lab = rows.labelled
    items = rows.cluster[lab] if rows.cluster is not None else np.flatnonzero(lab)
    fold, k = fold_ids(items, FOLDS, rng)
    x_lab, y_lab, x_unl = x[lab], rows.human[lab], x[~lab]
    out = np.empty((lab.size, 3))
    out_lab = np.empty((x_lab.shape[0], 3))
    avg = np.zeros((x_unl.shape[0], 3))
    for j in range(k):
        held = fold == j
        both = _fit_predict(x_lab[~held], y_lab[~held], np.vstack([x_lab[held], x_unl]))
        out_lab[held] = both[: int(held.sum())]
        avg += both[int(held.sum()) :] / k
    out[lab], out[~lab] = out_lab, avg
    return out, k
