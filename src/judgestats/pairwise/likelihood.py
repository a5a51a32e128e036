"""Davidson's Bradley–Terry model with ties, seen through the judge's confusion matrix.

The model
---------
Model ``k`` has a strength ``β_k`` (log scale, ``Σ_k β_k = 0``). On a pair shown as (``i``
first, ``j`` second) the *human* verdict follows Davidson (1970):

    P(i wins) = π_i / D,   P(tie) = ν √(π_i π_j) / D,   P(j wins) = π_j / D,
    π_k = exp(β_k),        D = π_i + π_j + ν √(π_i π_j),

that is, with ``d = β_i − β_j``, the softmax of ``(d/2, log ν, −d/2)``. Davidson rather than
Rao–Kupper because its tie probability is a smooth term of the same softmax (the likelihood is
concave in ``(β, log ν)`` for human verdicts), ``log(P(i wins)/P(j wins)) = β_i − β_j``
exactly as in plain Bradley–Terry (so strengths read on the usual Elo scale,
``Elo = 400/ln 10 × β``), and ties that carry information: a tie is most likely between
equals, and ``ν`` is fitted, not fixed. The *judge's* verdict ``j`` (a row of its alphabet)
given the human verdict ``h`` is ``C[j, h]``; the judge letter of a pair without a human
verdict has the mixture probability ``Σ_h C[j, h] P(h)``.

Every count is in the order the pair was shown (:mod:`judgestats.pairwise.counting`), so a
``"general"`` confusion (each column a free distribution over the judge's letters) expresses
a judge that prefers the first answer it reads: ``C[a, b]`` (says first, human preferred
second) may differ from ``C[b, a]``. ``"symmetric"`` (a/tie/b judges only) imposes swap
symmetry, ``C[j, h] = C[swap j, swap h]`` with ``swap`` exchanging a and b: the judge
treats an answer the same whichever position it is shown in (5 → 3 free parameters).

The likelihood
--------------
Pairs without a human verdict add ``log Σ_h C[j, h] P(h)``; calibration pairs add
``log P(h) + log C[j, h]`` when they were drawn at random or within judge verdicts (the
selection then depends on observed values only and does not enter the likelihood), and only
``log C[j, h]`` when they were chosen by their human verdict (``strengths_from_labels=False``):
their human verdicts then say nothing about the strengths.

Identifiability. The judged-only part is unchanged by the swap ``β → −β`` with the a and b
columns of ``C`` exchanged (label switching); the calibration pairs, which tie each column of
``C`` to a named human verdict, break it, and the fit starts from the calibration table so it
climbs the right mode. The strengths are then identified when the comparison graph is
connected and every human verdict occurs among the calibration pairs
(:func:`~judgestats.pairwise.counting.check_pairs`); when the judged-only pairs are to carry
them (the by-human-label design) the confusion must also separate the human verdicts (full
column rank), else only the calibration pairs inform the strengths.

Estimation: the joint maximum of the log likelihood over ``(β, log ν, C)`` by L-BFGS-B with
its analytic gradient, finished by Newton steps on the numerical Hessian of that gradient.
Confusion logits are bounded in ``[−LOGIT_BOUND, LOGIT_BOUND]`` (a judge letter never seen
under a human verdict has probability ``→ 0``); a parameter that ends on its bound is held
there and left out of the information matrix.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import NotInformativeError, VerdictError
from .counting import PairCounts

__all__ = [
    "ELO_PER_LOGIT",
    "LOGIT_BOUND",
    "ConfusionModel",
    "JointFit",
    "confusion_model",
    "davidson_probabilities",
    "fit_joint",
]

#: Elo points per unit of log strength: ``400 / ln 10`` (a difference of 400 Elo is odds 10:1).
ELO_PER_LOGIT: float = 400.0 / float(np.log(10.0))

#: Bound on the judge's confusion logits and on ``|log ν|`` (probabilities ``≈ e^−15``).
LOGIT_BOUND: float = 15.0

_DL_DD = np.array([0.5, 0.0, -0.5])  # d(logits)/d(β_first − β_second)
_DL_DNU = np.array([0.0, 1.0, 0.0])  # d(logits)/d(log ν)


def davidson_probabilities(difference, tie) -> np.ndarray:
    """Davidson's (1970) verdict probabilities (first wins, tie, second wins).

    Parameters
    ----------
    difference : array_like
        ``β_first − β_second``, the difference of log strengths.
    tie : array_like
        Davidson's tie parameter ``ν > 0``.

    Returns
    -------
    ndarray
        ``(e^{d/2}, ν, e^{−d/2}) / (e^{d/2} + ν + e^{−d/2})``, of shape
        ``np.broadcast_shapes(np.shape(difference), np.shape(tie)) + (3,)``.

    References
    ----------
    R. R. Davidson, "On extending the Bradley–Terry model to accommodate ties in paired
    comparison experiments", JASA 65 (1970) 317–328.

    Examples
    --------
    >>> davidson_probabilities(0.0, 1.0).round(4).tolist()
    [0.3333, 0.3333, 0.3333]
    """
    d, nu = np.broadcast_arrays(np.asarray(difference, float), np.asarray(tie, float))
    logits = np.stack([d / 2.0, np.log(nu), -d / 2.0], axis=-1)
    logits -= logits.max(axis=-1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=-1, keepdims=True)


@dataclass(frozen=True, slots=True, eq=False)
class ConfusionModel:
    """How the judge's confusion matrix ``C`` (J letters × 3 human verdicts) is parametrised.

    ``kind`` is ``"general"``, ``"symmetric"`` or ``"fixed"`` (``C`` known: ``fixed``);
    ``basis`` maps the free parameters to the matrix of logits (flattened row-major), each
    column of ``C`` the softmax of its logits.
    """

    kind: str
    basis: np.ndarray
    fixed: np.ndarray | None
    n_judge: int

    @property
    def size(self) -> int:
        """Number of free parameters."""
        return int(self.basis.shape[1])

    def matrix(self, eta: np.ndarray) -> np.ndarray:
        """Return ``C`` (J × 3, columns summing to 1) at the free parameters ``eta``."""
        if self.fixed is not None:
            return self.fixed
        logits = (self.basis @ eta).reshape(self.n_judge, 3)
        logits = logits - logits.max(axis=0, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=0, keepdims=True)

    def start(self, table: np.ndarray) -> np.ndarray:
        """Free parameters matching the calibration table (each cell + 0.5) by least squares."""
        if self.size == 0:
            return np.zeros(0)
        logc = np.log(table + 0.5)
        reference = (self.basis == 0).all(axis=1).reshape(self.n_judge, 3)
        for h in range(3):  # the reference letters of each column have logit 0
            logc[:, h] -= logc[reference[:, h], h].mean()
        eta, *_ = np.linalg.lstsq(self.basis, logc.ravel(), rcond=None)
        return np.clip(eta, -LOGIT_BOUND + 1, LOGIT_BOUND - 1)


def _basis(groups: list[list[tuple[int, int]]], n_judge: int) -> np.ndarray:
    basis = np.zeros((n_judge * 3, len(groups)))
    for g, cells in enumerate(groups):
        for j, h in cells:
            basis[j * 3 + h, g] = 1.0
    return basis


def _symmetric_groups(table: np.ndarray) -> list[list[tuple[int, int]]]:
    """Tied cells of a swap-symmetric 3×3 confusion, minus one reference group per column."""
    column_a = [[(0, 0), (2, 2)], [(1, 0), (1, 2)], [(2, 0), (0, 2)]]
    column_tie = [[(0, 1), (2, 1)], [(1, 1)]]
    groups = []
    for family in (column_a, column_tie):
        mean = [np.mean([table[j, h] for j, h in cells]) for cells in family]
        ref = int(np.argmax(mean))
        groups += [cells for k, cells in enumerate(family) if k != ref]
    return groups


def confusion_model(kind, table: np.ndarray, *, judge_labels: tuple) -> ConfusionModel:
    """Build the parametrisation of ``C`` for ``kind`` from the calibration table (J × 3).

    ``kind`` is ``"general"``, ``"symmetric"`` (only for the a/tie/b alphabet) or a known
    J × 3 matrix whose columns sum to 1. The reference letter of each column (logit 0) is the
    one the calibration pairs saw most often under that human verdict.
    """
    n_judge = table.shape[0]
    if not isinstance(kind, str):
        fixed = np.asarray(kind, dtype=float)
        if fixed.shape != (n_judge, 3) or (fixed < 0).any():
            raise VerdictError(
                f"confusion as a matrix must be non-negative of shape ({n_judge}, 3) (judge "
                f"letters x human verdicts a/tie/b), got shape {fixed.shape}"
            )
        if not np.allclose(fixed.sum(axis=0), 1.0):
            raise VerdictError(f"confusion's columns must sum to 1, got {fixed.sum(axis=0)}")
        return ConfusionModel("fixed", np.zeros((n_judge * 3, 0)), fixed, n_judge)
    if kind == "symmetric":
        if judge_labels != ("a", "tie", "b"):
            raise VerdictError(
                "confusion='symmetric' needs the a/tie/b judge alphabet (its swap exchanges "
                f"a and b); got judge_labels {judge_labels!r}"
            )
        return ConfusionModel(kind, _basis(_symmetric_groups(table), 3), None, 3)
    ref = np.argmax(table, axis=0)
    groups = [[(j, h)] for h in range(3) for j in range(n_judge) if j != ref[h]]
    return ConfusionModel(kind, _basis(groups, n_judge), None, n_judge)


@dataclass(frozen=True, slots=True, eq=False)
class _Cells:
    """The non-empty cells of a :class:`PairCounts`, one row each (human −1: unlabelled)."""

    first: np.ndarray
    second: np.ndarray
    judge: np.ndarray
    human: np.ndarray
    count: np.ndarray


def _cells(counts: PairCounts) -> _Cells:
    p, j = np.nonzero(counts.judged)
    pl, jl, hl = np.nonzero(counts.labelled)
    pair = np.concatenate([p, pl])
    return _Cells(
        first=counts.first[pair],
        second=counts.second[pair],
        judge=np.concatenate([j, jl]),
        human=np.concatenate([np.full(p.size, -1), hl]),
        count=np.concatenate([counts.judged[p, j], counts.labelled[pl, jl, hl]]).astype(float),
    )


def _strength_basis(k: int) -> np.ndarray:
    """``Z`` (K × K−1): ``β = Z γ`` has ``Σ β = 0`` (``β_K = −Σ γ``)."""
    return np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])


def _cell_terms(theta, cells: _Cells, k: int, conf: ConfusionModel, from_labels: bool):
    """Log likelihood of one observation in each cell and its score (cells × parameters)."""
    z = _strength_basis(k)
    beta = z @ theta[: k - 1]
    probs = davidson_probabilities(beta[cells.first] - beta[cells.second], np.exp(theta[k - 1]))
    c = conf.matrix(theta[k:])
    abar = (probs[:, 0] - probs[:, 2]) / 2.0
    onehot_j = np.eye(conf.n_judge)[cells.judge]
    u = cells.human < 0
    h = np.where(u, 0, cells.human)
    # pairs without a human verdict: the mixture sum_h C[j, h] P(h)
    w = c[cells.judge] * probs
    q = w.sum(axis=1)
    wq = w / q[:, None]
    sd_u = (wq * (_DL_DD - abar[:, None])).sum(axis=1)
    snu_u = (wq * (_DL_DNU - probs[:, 1:2])).sum(axis=1)
    scale = np.where(u, 0.0, 1.0 if from_labels else 0.0)  # strengths from calibration pairs?
    rows = np.arange(h.size)
    loglik = np.where(u, np.log(q), scale * np.log(probs[rows, h]))
    sd = np.where(u, sd_u, scale * (_DL_DD[h] - abar))
    snu = np.where(u, snu_u, scale * (_DL_DNU[h] - probs[:, 1]))
    parts = [sd[:, None] * (z[cells.first] - z[cells.second]), snu[:, None]]
    if conf.size:
        loglik = loglik + np.where(u, 0.0, np.log(c[cells.judge, h]))
        weight = np.where(u[:, None], wq, np.eye(3)[h])  # (cells, 3 human verdicts)
        s_logits = weight[:, None, :] * (onehot_j[:, :, None] - c[None, :, :])
        parts.append(s_logits.reshape(h.size, -1) @ conf.basis)
    return loglik, np.hstack(parts)


@dataclass(frozen=True, slots=True, eq=False)
class JointFit:
    """The joint maximum likelihood fit of :func:`fit_joint` (internal to the leaderboard).

    ``theta`` = (γ, log ν, confusion parameters) with strengths ``β = Z γ``; ``free`` marks
    the parameters not held on a bound; ``information`` is the observed information and
    ``meat`` the sum over observations of score × scoreᵀ, both over the free parameters.
    """

    models: tuple
    theta: np.ndarray
    free: np.ndarray
    loglik: float
    information: np.ndarray
    meat: np.ndarray
    confusion_model: ConfusionModel
    converged: bool
    n: int

    @property
    def strength(self) -> np.ndarray:
        """Log strengths ``β`` (sum zero), in ``models`` order."""
        k = len(self.models)
        return _strength_basis(k) @ self.theta[: k - 1]

    @property
    def tie(self) -> float:
        """Davidson's ``ν``."""
        return float(np.exp(self.theta[len(self.models) - 1]))

    @property
    def confusion(self) -> np.ndarray:
        """The judge's confusion matrix ``C`` (J × 3)."""
        return self.confusion_model.matrix(self.theta[len(self.models) :])

    def covariance(self, kind: str = "sandwich") -> np.ndarray:
        """Covariance of ``theta``: sandwich or inverse information (zero for held parameters)."""
        inv = np.linalg.inv(self.information)
        cov_free = inv @ self.meat @ inv if kind == "sandwich" else inv
        cov = np.zeros((self.theta.size, self.theta.size))
        cov[np.ix_(self.free, self.free)] = cov_free
        return cov

    def strength_covariance(self, kind: str = "sandwich") -> np.ndarray:
        """Covariance of ``(β_1, …, β_K, log ν)``."""
        k = len(self.models)
        jac = np.zeros((k + 1, self.theta.size))
        jac[:k, : k - 1] = _strength_basis(k)
        jac[k, k - 1] = 1.0
        return jac @ self.covariance(kind) @ jac.T


def _hessian(gradient, theta: np.ndarray, free: np.ndarray, step: float = 1e-5) -> np.ndarray:
    """Central differences of the analytic gradient over the free parameters (symmetrised)."""
    idx = np.flatnonzero(free)
    out = np.empty((idx.size, idx.size))
    for col, i in enumerate(idx):
        up, down = theta.copy(), theta.copy()
        up[i] += step
        down[i] -= step
        out[:, col] = (gradient(up)[idx] - gradient(down)[idx]) / (2.0 * step)
    return (out + out.T) / 2.0


def _polish(objective, theta: np.ndarray, free: np.ndarray, steps: int = 20) -> np.ndarray:
    """Newton steps on the free parameters (halved until the objective does not rise)."""
    idx = np.flatnonzero(free)
    value, grad = objective(theta)
    for _ in range(steps):
        if np.max(np.abs(grad[idx]), initial=0.0) < 1e-13:
            break
        hess = _hessian(lambda t: objective(t)[1], theta, free)
        try:
            step = np.linalg.solve(hess, grad[idx])
        except np.linalg.LinAlgError:
            break
        if not np.all(np.isfinite(step)):
            break
        for _ in range(30):
            trial = theta.copy()
            trial[idx] -= step
            t_value, t_grad = objective(trial)
            if t_value <= value + 1e-15:
                break
            step = step / 2.0
        else:
            break
        theta, value, grad = trial, t_value, t_grad
        if np.max(np.abs(step)) < 1e-12:
            break
    return theta


def _tie_start(counts: PairCounts) -> float:
    """``log ν`` at which equal models tie as often as the calibration pairs' humans did."""
    table = counts.confusion_table().sum(axis=0)
    share = (table[1] + 0.5) / (table.sum() + 1.5)
    return float(np.log(2.0 * share / (1.0 - share)))


def fit_joint(
    counts: PairCounts,
    *,
    confusion="general",
    strengths_from_labels: bool = True,
    start: np.ndarray | None = None,
) -> JointFit:
    """Maximise the joint likelihood of the module docstring over ``(β, log ν, C)``.

    Parameters
    ----------
    counts : PairCounts
        Checked counts (:func:`~judgestats.pairwise.counting.check_pairs`).
    confusion : {"general", "symmetric"} or array_like, shape (J, 3)
        How the judge's confusion is parametrised, or the known matrix.
    strengths_from_labels : bool
        Whether the calibration pairs' human verdicts inform the strengths (False when the
        pairs were chosen by their human verdict).
    start : ndarray, optional
        Starting ``theta`` (e.g. the full fit's, for a bootstrap refit); by default equal
        strengths, the calibration pairs' tie share and their confusion table.

    Returns
    -------
    JointFit

    Raises
    ------
    NotInformativeError
        The observed information is singular at the maximum: some strength or confusion
        entry is not determined by the data.
    """
    from scipy.optimize import minimize

    k = len(counts.models)
    conf = confusion_model(confusion, counts.confusion_table(), judge_labels=counts.judge_labels)
    cells = _cells(counts)
    total = float(cells.count.sum())

    def objective(theta):
        loglik, scores = _cell_terms(theta, cells, k, conf, strengths_from_labels)
        return -(cells.count @ loglik) / total, -(cells.count @ scores) / total

    if start is None:
        table = counts.confusion_table()
        start = np.concatenate([np.zeros(k - 1), [_tie_start(counts)], conf.start(table)])
    bounds = [(None, None)] * (k - 1) + [(-LOGIT_BOUND, LOGIT_BOUND)] * (1 + conf.size)
    options = {"maxiter": 10_000, "gtol": 1e-10, "ftol": 1e-15}
    res = minimize(objective, start, jac=True, method="L-BFGS-B", bounds=bounds, options=options)
    held = np.zeros(start.size, dtype=bool)
    held[k - 1 :] = np.abs(res.x[k - 1 :]) > LOGIT_BOUND - 1e-6
    free = ~held
    theta = _polish(objective, res.x, free)
    value, grad = objective(theta)
    information = total * _hessian(lambda t: objective(t)[1], theta, free)
    _, scores = _cell_terms(theta, cells, k, conf, strengths_from_labels)
    s = scores[:, free]
    meat = (s * cells.count[:, None]).T @ s
    if not np.all(np.isfinite(information)) or np.linalg.cond(information) > 1e12:
        raise NotInformativeError(
            "the joint likelihood is flat in some direction at its maximum (observed "
            "information singular): the data do not determine every strength and the "
            "judge's confusion; label more pairs or use confusion='symmetric'"
        )
    converged = bool(np.max(np.abs(grad[free])) < 1e-6)
    return JointFit(
        counts.models, theta, free, -value * total, information, meat, conf, converged, int(total)
    )
