"""Prediction-powered Davidson fit: valid whatever the judge does, when the labels are random.

The estimating equation
-----------------------
Write ``ψ_p(y; θ)`` for the score of one pair ``p`` (shown as ``i`` first, ``j`` second) under
Davidson's model (:mod:`judgestats.pairwise.likelihood`), with ``y`` the one-hot human verdict
(a, tie, b) and ``θ = (γ, log ν)``, ``β = Z γ`` (sum zero). With ``ℓ = (d/2, log ν, −d/2)`` the
softmax logits and ``L_p = ∂ℓ/∂θ`` (3 × K),

    ψ_p(y; θ) = L_pᵀ (y − P_p(θ)),

*linear in y*: a prediction ``f`` of the human verdict's distribution can stand in for ``y``
and the error it makes is corrected on the calibration pairs. Every pair ``i`` (all ``N``,
the calibration pairs included) has the judge's letter and hence a prediction ``f_i``; the
calibration pairs (``R_i = 1``) also have ``y_i``, drawn with probability ``π_i`` (``n/N``
under ``design="random"``, ``n_j/N_j`` within judge letter ``j`` under
``design="by-judge-label"``). The prediction-powered (PPI++) estimating equation of
Angelopoulos, Duchi and Zrnic (2023), with inverse-probability weights,

    Σ_i g_i(θ) = 0,   g_i(θ) = λ ψ_i(f_i; θ) + (R_i / π_i) [ψ_i(y_i; θ) − λ ψ_i(f_i; θ)],

has mean zero at the true ``θ`` for *any* fixed ``f`` and ``λ``: ``E[R_i/π_i | i] = 1``
cancels the prediction terms, whether or not the judge's errors depend on the models, the
position or anything else. Nothing about the judge is assumed; a better ``f`` only narrows
the interval. ``λ = 0`` is the human-only fit (reweighted), ``λ = 1`` plain PPI.

Because ``ψ`` is linear in ``y``, ``Σ g_i`` is the Davidson score of *pseudo-counts*
``Y_p = Σ_{i∈p} [λ f_i + (R_i/π_i)(y_i − λ f_i)]`` (a 3-vector per pair, some entries
possibly negative) and its Jacobian ``−Σ_p w_p L_pᵀ (diag P_p − P_p P_pᵀ) L_p`` with
``w_p = Σ_{i∈p} [λ + (1 − λ) R_i/π_i] ≥ 0`` does not depend on the outcomes: for
``0 ≤ λ ≤ 1`` the equation is the maximum of a concave function, solved by Newton's method.

Variance and power tuning
-------------------------
Sandwich: ``Cov θ̂ = H⁻¹ (Σ_i g_i g_iᵀ) H⁻¹`` with ``H`` the Jacobian above (the pairs
independent, each labelled independently with probability ``π_i``; with a fixed number of
labels per judge letter this is conservative). Writing ``g_i = a_i + λ b_i`` with
``a_i = (R_i/π_i) L_iᵀ(y_i − P)`` and ``b_i = (1 − R_i/π_i) L_iᵀ(f_i − P)``, the sum of the
strengths' variances is a quadratic in ``λ``; its minimiser (PPI++ power tuning, here for the
trace of the strengths' covariance)

    λ* = − tr(T H⁻¹ S_ab H⁻¹ Tᵀ) / tr(T H⁻¹ S_bb H⁻¹ Tᵀ),   S_ab = Σ (a bᵀ + b aᵀ)/2,

is computed at a pilot fit (``λ = 1``), clipped to ``[0, 1]`` and the equation solved again.

Clusters
--------
With ``cluster=`` (rows sharing a prompt: the same pair judged several times, several human
votes on one prompt) the clusters, not the rows, are the independent units: each cluster's
rows' score parts are summed, ``A_c = Σ_{i∈c} a_i``, ``B_c = Σ_{i∈c} b_i``, and the middle
of the sandwich is ``Σ_c (A_c + λ B_c)(A_c + λ B_c)ᵀ`` (the cluster-robust sandwich of Liang
and Zeger 1986). The equation is unchanged; ``λ*`` is tuned on this middle, so the estimate
moves only through ``λ``. It
assumes the clusters independent and every row labelled with the same probability
``π_i`` as above independently of the other clusters -- whole clusters labelled at random,
or rows labelled at random within clusters; a cluster may hold labelled and unlabelled rows.
With one row per cluster the sandwich is the one above.

The prediction
--------------
``prediction="judge-letter"`` (default): ``f`` = the calibration pairs' distribution of the
human verdict given the judge's letter (in the order shown, so a judge's position bias is
in it), each cell + 0.5. It is estimated from the calibration pairs themselves: a few
numbers, whose error multiplies the difference of the all-pairs and calibration means of
``ψ(f)``, a product of two ``O(n^{-1/2})`` terms; the estimate's first-order behaviour is
that of a fixed ``f``. ``prediction="confusion"``: ``f`` ∝ ``Ĉ[j, h] P_β̃(h | pair)``, the
posterior of the human verdict under the joint confusion model at its fit (Ĉ, β̃) -- still
valid when that model is wrong, only less narrow.

References
----------
A. N. Angelopoulos, J. C. Duchi, T. Zrnic, "PPI++: Efficient prediction-powered inference",
arXiv:2311.01453 (2023). A. N. Angelopoulos, S. Bates, C. Fannjiang, M. I. Jordan,
T. Zrnic, "Prediction-powered inference", Science 382 (2023). I. Chatzi, E. Straitouri,
S. Thejaswi, M. Gomez-Rodriguez, "Prediction-powered ranking of large language models",
NeurIPS 2024, arXiv:2402.17826. K.-Y. Liang, S. L. Zeger, "Longitudinal data analysis using
generalized linear models", Biometrika 73 (1986) 13–22.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import CountError, NotInformativeError
from ..designs import RANDOM, as_design
from .counting import PairCounts
from .likelihood import davidson_probabilities

__all__ = [
    "PREDICTIONS",
    "DavidsonNewton",
    "PredictionPoweredFit",
    "fit_davidson",
    "fit_prediction_powered",
    "label_probabilities",
]

#: How the human verdict is predicted from the judge's letter (``prediction=``).
PREDICTIONS = ("judge-letter", "confusion")

_DL_DD = np.array([0.5, 0.0, -0.5])
_DL_DNU = np.array([0.0, 1.0, 0.0])


def _jacobians(counts: PairCounts) -> np.ndarray:
    """``L_p = ∂ℓ/∂θ`` per ordered pair, shape (P, 3, K): θ = (γ_1..γ_{K−1}, log ν)."""
    k = len(counts.models)
    z = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])
    dz = z[counts.first] - z[counts.second]  # (P, K−1)
    jac = np.zeros((dz.shape[0], 3, k))
    jac[:, :, : k - 1] = _DL_DD[None, :, None] * dz[:, None, :]
    jac[:, :, k - 1] = _DL_DNU[None, :]
    return jac


def _quadratic(jac: np.ndarray, middle: np.ndarray, weight=None) -> np.ndarray:
    """``Σ_p w_p L_pᵀ M_p L_p`` for ``jac`` (P, 3, K) and ``middle`` (P, 3, 3), by BLAS."""
    inner = np.matmul(middle, jac)  # (P, 3, K)
    left = jac if weight is None else jac * weight[:, None, None]
    k = jac.shape[2]
    return left.reshape(-1, k).T @ inner.reshape(-1, k)


def _probabilities(theta: np.ndarray, counts: PairCounts) -> np.ndarray:
    k = len(counts.models)
    beta = np.append(theta[: k - 1], -theta[: k - 1].sum())
    return davidson_probabilities(beta[counts.first] - beta[counts.second], np.exp(theta[k - 1]))


@dataclass(frozen=True, slots=True, eq=False)
class DavidsonNewton:
    """The maximum of ``Σ_p Σ_h Y_ph log P_ph(θ)`` found by :func:`fit_davidson`.

    ``theta`` = (γ, log ν); ``hessian`` = ``Σ_p w_p L_pᵀ (diag P_p − P_p P_pᵀ) L_p`` (the
    negative Jacobian of the score, ``w_p = Σ_h Y_ph``); ``iterations`` Newton steps taken.
    """

    theta: np.ndarray
    hessian: np.ndarray
    converged: bool
    iterations: int


def fit_davidson(
    counts: PairCounts, outcomes: np.ndarray, *, start: np.ndarray | None = None
) -> DavidsonNewton:
    """Newton's method for Davidson's model on (pseudo-)counts ``outcomes`` (P × 3, a/tie/b).

    With ordinary counts this is the plain Davidson maximum likelihood fit; with the
    pseudo-counts of the module docstring it solves the prediction-powered equation. Steps
    are halved while the objective falls (it is concave when every pair's total is ≥ 0).

    Raises
    ------
    NotInformativeError
        The Hessian is singular (a strength or ν not determined), or no maximum was found.
    """
    k = len(counts.models)
    jac = _jacobians(counts)
    weight = outcomes.sum(axis=1)
    theta = np.zeros(k) if start is None else start.astype(float).copy()
    if start is None:
        share = (outcomes[:, 1].sum() + 0.5) / (weight.sum() + 1.5)
        theta[k - 1] = np.log(max(2.0 * share / (1.0 - share), 1e-6))

    def value(t: np.ndarray) -> float:
        probs = _probabilities(t, counts)
        return float((outcomes * np.log(np.clip(probs, 1e-300, None))).sum())

    current, converged, step_count = value(theta), False, 0
    for step_count in range(1, 101):  # noqa: B007 - reported as iterations
        probs = _probabilities(theta, counts)
        resid = outcomes - weight[:, None] * probs
        grad = jac.reshape(-1, k).T @ resid.ravel()
        cov = probs[:, :, None] * (np.eye(3)[None] - probs[:, None, :])  # diag P − P Pᵀ
        hess = _quadratic(jac, cov, weight)
        try:
            delta = np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError as exc:
            raise NotInformativeError(
                "the Davidson fit's information is singular: some strength is not determined "
                "(a model that always wins or always loses, or too few pairs)"
            ) from exc
        scale = 1.0
        while scale > 1e-8:
            trial = theta + scale * delta
            trial_value = value(trial)
            if trial_value >= current - 1e-12 * abs(current):
                break
            scale /= 2.0
        theta, current = trial, trial_value
        if np.max(np.abs(scale * delta)) < 1e-10:
            converged = True
            break
    probs = _probabilities(theta, counts)
    cov = probs[:, :, None] * (np.eye(3)[None] - probs[:, None, :])
    hess = _quadratic(jac, cov, weight)
    if not np.all(np.isfinite(theta)) or np.linalg.cond(hess) > 1e12:
        raise NotInformativeError(
            "the Davidson fit has no finite maximum (a strength or the tie parameter runs "
            "off): some model always wins or always loses on the pairs given"
        )
    return DavidsonNewton(theta, hess, converged, step_count)


def label_probabilities(counts: PairCounts, design: Any = RANDOM) -> np.ndarray:
    """Probability ``π_j`` that a pair with judge letter ``j`` carries a human verdict.

    One random sample of the pairs (``design="random"``): ``n / N`` for every letter;
    sampled within judge letters (``"by-judge-label"``, :attr:`Design.sampled_within
    <judgestats.designs.Design>`): ``n_j / N_j``.

    Raises
    ------
    CountError
        Within judge letters, a judge letter that occurs but has no calibration pair.
    """
    design = as_design(design)
    n_all = counts.judged.sum(axis=0) + counts.labelled.sum(axis=(0, 2))
    n_lab = counts.labelled.sum(axis=(0, 2))
    if design.sampled_within is None:
        return np.full(n_all.size, counts.n_labelled / max(int(n_all.sum()), 1))
    empty = (n_all > 0) & (n_lab == 0)
    if empty.any():
        letters = [counts.judge_labels[j] for j in np.flatnonzero(empty)]
        raise CountError(
            f"design={str(design)!r} needs calibration pairs within every judge letter; "
            f"none has the judge letter(s) {letters!r} (label some, or merge letters)"
        )
    return np.where(n_all > 0, n_lab / np.maximum(n_all, 1), 1.0)


def _letter_prediction(counts: PairCounts) -> np.ndarray:
    """``f[p, j]`` = P(human verdict | judge letter j) on the calibration pairs (+0.5)."""
    table = counts.confusion_table() + 0.5
    f = table / table.sum(axis=1, keepdims=True)
    return np.broadcast_to(f, (*counts.judged.shape, 3))


def _confusion_prediction(counts: PairCounts, strength, tie, confusion) -> np.ndarray:
    """``f[p, j] ∝ C[j, h] P(h | pair p)``: the joint model's posterior of the human verdict."""
    probs = davidson_probabilities(strength[counts.first] - strength[counts.second], tie)
    post = confusion[None, :, :] * probs[:, None, :]
    return post / post.sum(axis=2, keepdims=True)


@dataclass(frozen=True, slots=True, eq=False)
class PredictionPoweredFit:
    """The prediction-powered Davidson fit of :func:`fit_prediction_powered`.

    ``theta`` = (γ, log ν) with strengths ``β = Z γ``; ``lam`` the power-tuning weight
    ``λ``; ``theta_covariance`` the sandwich ``H⁻¹ (Σ g gᵀ) H⁻¹``; ``confusion`` the
    calibration pairs' ``P(judge letter | human verdict)`` (descriptive: the estimator does not
    use it); ``prediction`` the name of the prediction used.
    """

    models: tuple
    theta: np.ndarray
    theta_covariance: np.ndarray
    lam: float
    prediction: str
    confusion: np.ndarray
    converged: bool
    n: int

    @property
    def strength(self) -> np.ndarray:
        """Log strengths ``β`` (sum zero), in ``models`` order."""
        k = len(self.models)
        return np.append(self.theta[: k - 1], -self.theta[: k - 1].sum())

    @property
    def tie(self) -> float:
        """Davidson's ``ν``."""
        return float(np.exp(self.theta[len(self.models) - 1]))

    def strength_covariance(self, kind: str = "sandwich") -> np.ndarray:
        """Covariance of ``(β_1, …, β_K, log ν)`` (the sandwich whatever ``kind``)."""
        k = len(self.models)
        jac = np.zeros((k + 1, k))
        jac[: k - 1, : k - 1] = np.eye(k - 1)
        jac[k - 1, : k - 1] = -1.0
        jac[k, k - 1] = 1.0
        return jac @ self.theta_covariance[:k, :k] @ jac.T  # (γ, log ν) lead θ


def _unit_terms(counts, theta, f, inverse_pi, jac):
    """Per-pair sums of a aᵀ, a bᵀ + b aᵀ, b bᵀ over its units, in outcome space (P, 3, 3)."""
    probs = _probabilities(theta, counts)
    fp = f - probs[:, None, :]  # (P, J, 3): f − P for each judge letter
    # unlabelled units: a = 0, b = f − P
    n_u = counts.judged.astype(float)
    s_bb = np.einsum("pj,pjc,pjd->pcd", n_u, fp, fp)
    # calibration units with (j, h): a = (e_h − P)/π_j, b = (1 − 1/π_j)(f − P)
    n_l = counts.labelled.astype(float)
    eh = np.eye(3)[None, None, :, :] - probs[:, None, None, :]  # (P, 1, H, 3)
    a = eh * inverse_pi[None, :, None, None]
    b = (fp * (1.0 - inverse_pi)[None, :, None])[:, :, None, :]
    b = np.broadcast_to(b, (*a.shape[:1], counts.judged.shape[1], *a.shape[2:]))
    a = np.broadcast_to(a, b.shape)
    s_aa = np.einsum("pjh,pjhc,pjhd->pcd", n_l, a, a)
    s_ab = np.einsum("pjh,pjhc,pjhd->pcd", n_l, a, b)
    s_bb = s_bb + np.einsum("pjh,pjhc,pjhd->pcd", n_l, b, b)
    return s_aa, s_ab + s_ab.transpose(0, 2, 1), s_bb


def _cluster_meat(counts, theta, f, inverse_pi, jac):
    """``Σ_c A_c A_cᵀ``, ``Σ_c (A_c B_cᵀ + B_c A_cᵀ)``, ``Σ_c B_c B_cᵀ`` over the clusters.

    ``A_c = Σ_{i∈c} L_iᵀ a_i`` and ``B_c = Σ_{i∈c} L_iᵀ b_i`` sum the rows' score parts (the
    ``a_i``, ``b_i`` of :func:`_unit_terms`) within each cluster before the outer products:
    the cluster-robust middle of the sandwich (Liang and Zeger 1986).
    """
    c, p, j, h, n = counts.clusters.T
    probs = _probabilities(theta, counts)
    fp = f[p, j] - probs[p]  # (R, 3)
    lab = h >= 0
    a = (np.eye(3)[np.clip(h, 0, 2)] - probs[p]) * (lab * inverse_pi[j] * n)[:, None]
    b = fp * (np.where(lab, 1.0 - inverse_pi[j], 1.0) * n)[:, None]
    size = int(c.max()) + 1
    a_c = np.zeros((size, jac.shape[2]))
    b_c = np.zeros_like(a_c)
    np.add.at(a_c, c, np.einsum("rck,rc->rk", jac[p], a))
    np.add.at(b_c, c, np.einsum("rck,rc->rk", jac[p], b))
    cross = a_c.T @ b_c
    return [a_c.T @ a_c, cross + cross.T, b_c.T @ b_c]


def _pseudo_counts(counts, f, inverse_pi, lam) -> np.ndarray:
    """``Y_p = Σ_{i∈p} [λ f_i + (R_i/π_i)(y_i − λ f_i)]``, shape (P, 3)."""
    n_all = counts.judged + counts.labelled.sum(axis=2)  # (P, J)
    y = np.einsum("pjh,j->ph", counts.labelled.astype(float), inverse_pi)
    f_lab = np.einsum("pjh,j,pjc->pc", counts.labelled.astype(float), inverse_pi, f)
    return lam * np.einsum("pj,pjc->pc", n_all.astype(float), f) + y - lam * f_lab


def _sandwich(counts, theta, hessian, f, inverse_pi, lam):
    """Covariance of θ̂ at ``lam`` and the λ minimising the strengths' total variance."""
    jac = _jacobians(counts)
    if counts.clusters is not None:
        meat = _cluster_meat(counts, theta, f, inverse_pi, jac)
    else:
        meat = [_quadratic(jac, s) for s in _unit_terms(counts, theta, f, inverse_pi, jac)]
    inv = np.linalg.inv(hessian)
    k = len(counts.models)
    t = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])  # β = T γ
    t = np.hstack([t, np.zeros((k, 1))])
    trace = [float(np.trace(t @ inv @ m @ inv @ t.T)) for m in meat]
    best = -trace[1] / (2.0 * trace[2]) if trace[2] > 0 else 0.0
    cov = inv @ (meat[0] + lam * meat[1] + lam**2 * meat[2]) @ inv
    return cov, float(np.clip(best, 0.0, 1.0))


def fit_prediction_powered(
    counts: PairCounts,
    *,
    design: Any = RANDOM,
    prediction: str = "judge-letter",
    lam: float | None = None,
    joint=None,
) -> PredictionPoweredFit:
    """Solve the prediction-powered Davidson equation of the module docstring.

    Parameters
    ----------
    counts : PairCounts
        Checked counts (:func:`~judgestats.pairwise.counting.check_pairs`).
    design : Design or {"random", "by-judge-label"}, default "random"
        How the calibration pairs were drawn (sets ``π``, :func:`label_probabilities`).
    prediction : {"judge-letter", "confusion"}
        The prediction ``f`` of the human verdict (module docstring).
    lam : float in [0, 1], optional
        Fixed power-tuning weight; by default the variance-minimising ``λ*``.
    joint : JointFit, optional
        The joint confusion fit whose posterior is ``f`` under ``prediction="confusion"``.

    Returns
    -------
    PredictionPoweredFit
    """
    inverse_pi = 1.0 / label_probabilities(counts, design)
    if prediction == "confusion":
        f = _confusion_prediction(counts, joint.strength, joint.tie, joint.confusion)
    else:
        f = _letter_prediction(counts)
    pilot_lam = 1.0 if lam is None else float(lam)
    fit = fit_davidson(counts, _pseudo_counts(counts, f, inverse_pi, pilot_lam))
    cov, best = _sandwich(counts, fit.theta, fit.hessian, f, inverse_pi, pilot_lam)
    chosen = pilot_lam
    if lam is None and abs(best - pilot_lam) > 1e-9:
        chosen = best
        fit = fit_davidson(counts, _pseudo_counts(counts, f, inverse_pi, chosen), start=fit.theta)
        cov, _ = _sandwich(counts, fit.theta, fit.hessian, f, inverse_pi, chosen)
    table = counts.confusion_table().astype(float)
    confusion = table / np.maximum(table.sum(axis=0, keepdims=True), 1.0)
    n = counts.n_judged + counts.n_labelled
    return PredictionPoweredFit(
        counts.models, fit.theta, cov, chosen, prediction, confusion, fit.converged, n
    )
