r"""A jury stacked into one predictor: cross-fitted logistic regression on every judge's column.

``combine="stack"`` (issue 39). J judges' columns x = (x_1, …, x_J) (0/1 letters as indicators,
scores as numbers) predict the human label y by the logistic model

    P(y = 1 | x) = 1 / (1 + exp(−(a + Σ_j b_j x_j))),

fitted by maximum likelihood (Newton on the columns standardised, with a small ridge on the
slopes so that a fold whose labels a judge separates, or two identical judges, stay finite).
One coefficient per judge: five judges are five numbers, not 2⁵ = 32 product letters each
needing calibration items. The model need not hold: its prediction f(x) only enters the
prediction-powered mean (:mod:`judgestats.scores.prediction_powered`), which is unbiased for
θ = P(y = 1) under a random calibration sample whatever f is, provided f is fixed before the
labels it is averaged over are seen. Hence cross-fitting (Zrnic & Candès 2024), folds by item
(:func:`judgestats.scores.calibration.fold_ids`, all rows of one ``cluster=`` id in one fold):
each labelled row is predicted by the model fitted on the other folds, each unlabelled row by
the folds' average.

Only under ``design="random"``: the paper's design samples the calibration items *on the
human label* (m0 and m1 fixed), so the labelled rows' P(y | x) is not the population's (its
intercept carries m1/m0, not θ) and the mean of y over them is not θ; under
``"by-judge-label"`` they are sampled on a judge's letter, and their mean of y is not θ
either. The capability table's ``"stack"`` row holds the random design only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..scores.calibration import fold_ids

__all__ = ["RIDGE", "StackFit", "cross_fit_stack", "fit_logistic", "predict_logistic"]

#: Ridge penalty on the slopes (the columns standardised), times the labelled rows: keeps a
#: separable fold or two identical judges finite, and moves a 100-label fit by < 1e-3 per
#: coefficient where the fit is finite.
RIDGE = 1e-3


class StackFit(NamedTuple):
    """The stacked predictor, cross-fitted, and the coefficients of the fit on every label."""

    labelled: np.ndarray
    unlabelled: np.ndarray
    folds: int
    intercept: float
    coefficients: np.ndarray


def fit_logistic(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fit P(y = 1 | x) by penalised maximum likelihood (module docstring).

    Parameters
    ----------
    x : ndarray, shape (n, J)
        The judges' columns of the labelled rows.
    y : ndarray, shape (n,)
        The human labels, 0/1.

    Returns
    -------
    (beta, centre, scale)
        ``beta`` (J + 1,): the intercept and slopes on the standardised columns
        (x − centre)/scale; a constant column has scale 1 and its slope held at 0.

    Examples
    --------
    >>> import numpy as np
    >>> from judgestats.jury.stack import fit_logistic, predict_logistic
    >>> x = np.array([[0, 0], [1, 0], [0, 1], [1, 1]] * 25, dtype=float)
    >>> y = np.array([0, 0, 1, 1] * 25, dtype=float)
    >>> model = fit_logistic(x, y)
    >>> predict_logistic(model, np.array([[0.0, 0.0], [0.0, 1.0]])).round(2).tolist()
    [0.01, 0.99]
    """
    centre = x.mean(axis=0)
    spread = x.std(axis=0)
    scale = np.where(spread > 0, spread, 1.0)
    design = np.column_stack([np.ones(x.shape[0]), (x - centre) / scale])
    penalty = np.diag([0.0, *np.where(spread > 0, RIDGE * x.shape[0], 1e12)])
    beta = np.zeros(design.shape[1])
    for _ in range(50):  # Newton on the penalised log-likelihood (concave)
        p = 1.0 / (1.0 + np.exp(-(design @ beta)))
        grad = design.T @ (y - p) - penalty @ beta
        hess = (design * (p * (1.0 - p))[:, None]).T @ design + penalty
        step = np.linalg.solve(hess + 1e-10 * np.eye(beta.size), grad)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta, centre, scale


def predict_logistic(model: tuple[np.ndarray, np.ndarray, np.ndarray], x: np.ndarray) -> np.ndarray:
    """P(y = 1 | x) under a :func:`fit_logistic` model, for rows x (n, J)."""
    beta, centre, scale = model
    return 1.0 / (1.0 + np.exp(-(beta[0] + ((x - centre) / scale) @ beta[1:])))


def cross_fit_stack(
    x_lab: np.ndarray, y: np.ndarray, x_unl: np.ndarray, items: np.ndarray, *,
    folds: int, rng: np.random.Generator,
) -> StackFit:  # fmt: skip
    """Cross-fit the stacked predictor (module docstring); coefficients on the columns' units.

    Parameters
    ----------
    x_lab, x_unl : ndarray, shape (n, J) and (N, J)
        The judges' columns of the labelled and the unlabelled rows.
    y : ndarray, shape (n,)
        The labelled rows' human labels.
    items : ndarray, shape (n,)
        The item of each labelled row (folds keep an item's rows together).
    folds : int
        Folds (at most one per item).
    rng : Generator
        Deals the items to folds.

    Returns
    -------
    StackFit
        ``labelled``: each labelled row's out-of-fold prediction; ``unlabelled``: the folds'
        average; ``intercept`` and ``coefficients`` (J,): the fit on every labelled row, in
        log-odds per unit of each judge's column (for a 0/1 judge: the log odds ratio of
        human 1 when it says 1, the other judges held) — which judge carries the weight.

    Examples
    --------
    >>> import numpy as np
    >>> from judgestats.jury.stack import cross_fit_stack
    >>> gen = np.random.default_rng(0)
    >>> y = (gen.random(400) < 0.4).astype(float)
    >>> x = np.column_stack([np.where(gen.random(400) < 0.9, y, 1 - y),
    ...                      gen.integers(0, 2, 400)]).astype(float)  # a good judge, a coin
    >>> fit = cross_fit_stack(x[:200], y[:200], x[200:], np.arange(200), folds=5, rng=gen)
    >>> fit.folds, bool(fit.coefficients[0] > 3 > abs(fit.coefficients[1]))
    (5, True)
    """
    fold, k = fold_ids(items, folds, rng)
    out = np.empty(y.size, dtype=float)
    avg = np.zeros(x_unl.shape[0], dtype=float)
    for j in range(k):
        held = fold == j
        model = fit_logistic(x_lab[~held], y[~held])
        out[held] = predict_logistic(model, x_lab[held])
        avg += predict_logistic(model, x_unl) / k
    beta, centre, scale = fit_logistic(x_lab, y)
    slopes = beta[1:] / scale
    intercept = float(beta[0] - np.sum(slopes * centre))
    return StackFit(out, avg, k, intercept, slopes)
