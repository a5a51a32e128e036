"""Prediction-powered Davidson fit from rows: a prediction per row, and style controls.

The model with controls
-----------------------
Each row ``i`` compares the model shown first, ``s``, with the one shown second, ``t``, and
carries ``m`` control differences ``x_i`` (``s``'s value minus ``t``'s: the length of the two
answers, their markdown headers, ...). The human verdict follows Davidson's model
(:mod:`judgestats.pairwise.likelihood`) with the strength difference shifted by the controls,

    η_i = β_s − β_t + x_iᵀ δ,   P_i = softmax(η_i/2, log ν, −η_i/2),

so ``β`` are the strengths *net of style* (two models whose answers differ in length only
have equal β when the humans' preference is all length) and ``δ_c`` the log-odds of winning per
unit of control ``c``. Without controls (``m = 0``) this is the model of
:mod:`~judgestats.pairwise.prediction_powered`. The logits are linear in
``θ = (γ, log ν, δ)`` (``β = Z γ``, sum zero): ``ℓ_i = L_i θ`` with ``L_i`` a 3 × (K + m)
matrix, so the fit is a multinomial logit with design ``L_i``.

The estimating equation
-----------------------
As in :mod:`~judgestats.pairwise.prediction_powered`, with the score ``ψ_i(y; θ) = L_iᵀ (y −
P_i(θ))`` linear in the one-hot human verdict ``y``, a per-row prediction ``f_i`` of the human
verdict's distribution, the labelled indicator ``R_i`` and its probability ``π_i``,

    Σ_i [λ ψ_i(f_i; θ) + (R_i / π_i) (ψ_i(y_i; θ) − λ ψ_i(f_i; θ))] = 0,

unbiased at the true θ for any ``f`` fixed given the row (Angelopoulos, Duchi and Zrnic 2023):
here ``f`` comes from the judges' letters, probabilities and covariates
(:mod:`~judgestats.pairwise.predictor`), cross-fitted so that a labelled row's prediction never
saw its own human verdict (Zrnic and Candès 2024). It is the maximum of the concave
``Σ_i Σ_h Y_ih log P_ih(θ)`` with pseudo-outcomes ``Y_i = λ f_i + (R_i/π_i)(y_i − λ f_i)``
(row weight ``λ + (1 − λ) R_i/π_i ≥ 0``), found by Newton's method (:func:`fit_softmax`).

Variance: the sandwich ``H⁻¹ (Σ_u g_u g_uᵀ) H⁻¹`` over the sampling units ``u`` (rows, or
clusters with ``cluster=``: each cluster's row scores summed, Liang and Zeger 1986), with
``g = a + λ b``, ``a_i = (R_i/π_i) L_iᵀ (y_i − P_i)``, ``b_i = (1 − R_i/π_i) L_iᵀ (f_i − P_i)``;
``λ`` minimises the summed variance of the strengths and the (standardised) control
coefficients, clipped to [0, 1], at a pilot fit with λ = 1 (PPI++ power tuning). Controls are
standardised for the fit and their coefficients returned on the columns' own scale.

References
----------
A. N. Angelopoulos, J. C. Duchi, T. Zrnic, "PPI++: Efficient prediction-powered inference",
arXiv:2311.01453 (2023). T. Zrnic, E. J. Candès, "Cross-prediction-powered inference", PNAS
121 (2024). W.-L. Chiang et al., "Chatbot Arena", ICML 2024, and LMSYS, "Does style matter?"
(2024), for style control by Bradley–Terry with controls (fitted there on human votes alone).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import NotInformativeError
from .prediction_powered import PredictionPoweredFit

__all__ = ["RowPoweredFit", "SoftmaxFit", "fit_row_powered", "fit_softmax", "row_jacobians"]

_DL_DD = np.array([0.5, 0.0, -0.5])
_DL_DNU = np.array([0.0, 1.0, 0.0])


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@dataclass(frozen=True, slots=True, eq=False)
class SoftmaxFit:
    """The maximum of :func:`fit_softmax`: ``theta``, the negative Hessian, Newton's record."""

    theta: np.ndarray
    hessian: np.ndarray
    converged: bool
    iterations: int


def fit_softmax(
    jac: np.ndarray,
    outcomes: np.ndarray,
    *,
    penalty: np.ndarray | None = None,
    start: np.ndarray | None = None,
) -> SoftmaxFit:
    """Maximise ``Σ_i Σ_h Y_ih log softmax(L_i θ)_h − ½ Σ_k ρ_k θ_k²`` by Newton's method.

    Parameters
    ----------
    jac : ndarray, shape (N, 3, p)
        The rows' designs ``L_i`` (logits ``L_i θ``).
    outcomes : ndarray, shape (N, 3)
        (Pseudo-)outcomes ``Y_i``, each row's total ``≥ 0``.
    penalty : ndarray, shape (p,), optional
        Ridge weights ``ρ`` (0: none).
    start : ndarray, shape (p,), optional
        Where Newton starts (default zero).

    Returns
    -------
    SoftmaxFit
        With ``hessian`` = ``Σ_i w_i L_iᵀ (diag P_i − P_i P_iᵀ) L_i + diag ρ``.

    Raises
    ------
    NotInformativeError
        The Hessian is singular (a parameter not determined) or the maximum is not finite.
    """
    p = jac.shape[2]
    weight = outcomes.sum(axis=1)
    rho = np.zeros(p) if penalty is None else penalty
    theta = np.zeros(p) if start is None else start.astype(float).copy()

    def value(t: np.ndarray) -> float:
        logits = jac @ t
        top = logits.max(axis=1, keepdims=True)
        log_p = logits - top - np.log(np.exp(logits - top).sum(axis=1, keepdims=True))
        return float((outcomes * log_p).sum() - 0.5 * (rho * t * t).sum())

    def hessian(probs: np.ndarray) -> np.ndarray:
        # Σ_i w_i L_iᵀ (diag P_i − P_i P_iᵀ) L_i by einsum: on a busy machine a threaded BLAS
        # product of this (3N × p)ᵀ (3N × p) shape was 50 times slower
        cov = probs[:, :, None] * (np.eye(3)[None] - probs[:, None, :])
        inner = np.matmul(cov * weight[:, None, None], jac)
        return np.einsum("ncp,ncq->pq", jac, inner) + np.diag(rho)

    current, converged, steps = value(theta), False, 0
    for steps in range(1, 101):  # noqa: B007 - reported
        probs = _softmax(jac @ theta)
        grad = jac.reshape(-1, p).T @ (outcomes - weight[:, None] * probs).ravel() - rho * theta
        try:
            delta = np.linalg.solve(hessian(probs), grad)
        except np.linalg.LinAlgError as exc:
            raise NotInformativeError(
                "the fit's information is singular: some strength or control coefficient is "
                "not determined (a model that always wins or loses, a constant control, or "
                "too few pairs)"
            ) from exc
        scale = 1.0
        while scale > 1e-8:
            trial_value = value(theta + scale * delta)
            if trial_value >= current - 1e-12 * abs(current):
                break
            scale /= 2.0
        theta, current = theta + scale * delta, trial_value
        if np.max(np.abs(scale * delta)) < 1e-10:
            converged = True
            break
    hess = hessian(_softmax(jac @ theta))
    if not np.all(np.isfinite(theta)) or np.linalg.cond(hess) > 1e12:
        raise NotInformativeError(
            "the fit has no finite maximum (a strength, the tie parameter or a control "
            "coefficient runs off): some model always wins or loses, or a control separates "
            "the verdicts"
        )
    return SoftmaxFit(theta, hess, converged, steps)


def row_jacobians(first: np.ndarray, second: np.ndarray, controls: np.ndarray, k: int):
    """``L_i`` per row, shape (N, 3, K + m): θ = (γ_1..γ_{K−1}, log ν, δ_1..δ_m)."""
    z = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])
    x = np.hstack([z[first] - z[second], np.zeros((first.size, 1)), controls])
    jac = _DL_DD[None, :, None] * x[:, None, :]
    jac[:, :, k - 1] = _DL_DNU[None, :]
    return jac


@dataclass(frozen=True, slots=True, eq=False)
class RowPoweredFit(PredictionPoweredFit):
    """The prediction-powered Davidson fit with controls of :func:`fit_row_powered`.

    As :class:`~judgestats.pairwise.prediction_powered.PredictionPoweredFit` (``strength`` net
    of the controls), with ``theta`` = (γ, log ν, standardised δ) and ``theta_covariance`` its
    sandwich; ``controls`` the control columns and ``control_scale`` their standard deviations;
    ``prediction`` names the prediction; ``confusion`` is the calibration rows'
    ``P(judge letter | human verdict)`` (descriptive).
    """

    controls: tuple
    control_scale: np.ndarray

    @property
    def control_coefficient(self) -> np.ndarray:
        """``δ``: log-odds of winning per unit of each control (its column's scale)."""
        return self.theta[len(self.models) :] / self.control_scale

    @property
    def control_covariance(self) -> np.ndarray:
        """Covariance of ``δ`` on the columns' scale."""
        k = len(self.models)
        return self.theta_covariance[k:, k:] / np.outer(self.control_scale, self.control_scale)


def _unit_sums(values: np.ndarray, units: np.ndarray | None) -> np.ndarray:
    if units is None:
        return values
    out = np.zeros((int(units.max()) + 1, values.shape[1]))
    np.add.at(out, units, values)
    return out


def _sandwich(jac, theta, hessian, f, y, inverse_w, units, k, lam):
    """Covariance of θ̂ at ``lam`` and the λ minimising the strengths' and controls' variance."""
    probs = _softmax(jac @ theta)
    a = inverse_w[:, None] * (y - probs)  # zero on unlabelled rows (y = P there is not used)
    b = (1.0 - inverse_w)[:, None] * (f - probs)
    a_u = _unit_sums(np.einsum("ncp,nc->np", jac, a), units)
    b_u = _unit_sums(np.einsum("ncp,nc->np", jac, b), units)
    cross = a_u.T @ b_u
    meat = [a_u.T @ a_u, cross + cross.T, b_u.T @ b_u]
    inv = np.linalg.inv(hessian)
    p = theta.size
    t = np.zeros((p, p))  # β = Z γ (rows :K), then the controls (log ν left out)
    t[:k, : k - 1] = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])
    t[k:, k:] = np.eye(p - k)
    trace = [float(np.trace(t @ inv @ m @ inv @ t.T)) for m in meat]
    best = -trace[1] / (2.0 * trace[2]) if trace[2] > 0 else 0.0
    cov = inv @ (meat[0] + lam * meat[1] + lam**2 * meat[2]) @ inv
    return cov, float(np.clip(best, 0.0, 1.0))


def fit_row_powered(
    first: np.ndarray,
    second: np.ndarray,
    human: np.ndarray,
    f: np.ndarray,
    inverse_pi: np.ndarray,
    *,
    models: tuple,
    controls: np.ndarray | None = None,
    control_names: tuple = (),
    units: np.ndarray | None = None,
    lam: float | None = None,
    prediction: str = "stacked",
    confusion: np.ndarray | None = None,
) -> RowPoweredFit:
    """Solve the prediction-powered Davidson equation with controls (module docstring).

    Parameters
    ----------
    first, second : ndarray of int, shape (N,)
        Models shown first and second (indices into ``models``).
    human : ndarray of int, shape (N,)
        Human verdict (0 first wins, 1 tie, 2 second wins; −1 none).
    f : ndarray, shape (N, 3)
        Each row's prediction of the human verdict's distribution.
    inverse_pi : ndarray, shape (N,)
        ``1/π_i``, the inverse of the row's probability of carrying a human verdict.
    models : tuple of str
        The models' names (``first`` and ``second`` index them).
    controls : ndarray, shape (N, m), optional
        Control differences (first minus second).
    control_names : tuple of str
        The controls' names (in messages and on the result).
    units : ndarray of int, shape (N,), optional
        Cluster code of each row (the sandwich's sampling units); None: rows.
    lam : float in [0, 1], optional
        Fixed power-tuning weight; by default the variance-minimising ``λ*``.
    prediction : str
        The prediction's name, stored.
    confusion : ndarray, optional
        The calibration rows' ``P(judge letter | human verdict)``, stored (descriptive).

    Returns
    -------
    RowPoweredFit

    Raises
    ------
    NotInformativeError
        A constant control, or a strength or coefficient the data do not determine.
    """
    k = len(models)
    x = np.zeros((first.size, 0)) if controls is None else np.asarray(controls, float)
    scale = x.std(axis=0)
    if (scale == 0).any():
        flat = [control_names[c] for c in np.flatnonzero(scale == 0)]
        raise NotInformativeError(f"control(s) {flat} take one value on every pair")
    jac = row_jacobians(first, second, x / np.where(scale > 0, scale, 1.0), k)
    labelled = human >= 0
    y = np.zeros((first.size, 3))
    y[labelled, human[labelled]] = 1.0
    inverse_w = np.where(labelled, inverse_pi, 0.0)

    def solve(weight: float, start=None) -> SoftmaxFit:
        pseudo = weight * f + inverse_w[:, None] * (y - weight * f)
        return fit_softmax(jac, pseudo, start=start)

    chosen = 1.0 if lam is None else float(lam)
    fit = solve(chosen)
    cov, best = _sandwich(jac, fit.theta, fit.hessian, f, y, inverse_w, units, k, chosen)
    if lam is None and abs(best - chosen) > 1e-9:
        chosen = best
        fit = solve(chosen, start=fit.theta)
        cov, _ = _sandwich(jac, fit.theta, fit.hessian, f, y, inverse_w, units, k, chosen)
    conf = np.zeros((1, 3)) if confusion is None else confusion
    return RowPoweredFit(models, fit.theta, cov, chosen, prediction, conf, fit.converged,
                         int(first.size), tuple(control_names), scale)  # fmt: skip
