"""Intervals of a pairwise leaderboard: strengths, win probabilities, ranks and rank sets.

* Strengths: Wald intervals ``β̂_k ± z σ̂_k`` from the sandwich covariance
  ``I⁻¹ (Σ s sᵀ) I⁻¹`` (``I`` the observed information, ``s`` each pair's score), or from
  ``I⁻¹`` alone; on the Elo scale the same interval times ``400/ln 10``.
* Win probabilities ``P(i beats j)`` (Davidson's, a tie counting as neither): the delta
  method on the logit of the probability, mapped back (so the interval stays in (0, 1)).
* Rank sets with a simultaneous guarantee: every difference ``β_i − β_j`` gets a two-sided
  interval at level ``1 − α / (K(K−1)/2)`` (Bonferroni over the pairs); model ``k``'s set
  runs from 1 + the number of models surely above it to K − the number surely below it. When
  every pairwise interval covers (probability ≥ ``1 − α`` asymptotically, by Bonferroni),
  every model's true rank lies in its set, all at once.
* ``P(rank = r)``: the share of draws in which a model has rank ``r``: draws of the strengths
  from their normal approximation, or from a bootstrap of the pairs (each pair a cluster,
  resampled within the unlabelled and within the calibration pairs) refitted each time.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .counting import PairCounts
from .likelihood import davidson_probabilities

__all__ = [
    "normal_quantile",
    "rank_probabilities",
    "rank_sets",
    "rank_summary",
    "ranks_of",
    "resample_pairs",
    "strength_intervals",
    "win_probabilities",
]


def normal_quantile(confidence_level: float, tests: int = 1) -> float:
    """Two-sided standard-normal quantile at level ``1 − (1 − confidence_level) / tests``."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(1.0 - (1.0 - confidence_level) / (2.0 * tests))


def strength_intervals(strength, covariance, confidence_level: float):
    """Wald intervals of the strengths: (standard errors, (K, 2) array of bounds)."""
    se = np.sqrt(np.clip(np.diag(covariance)[: strength.size], 0.0, None))
    z = normal_quantile(confidence_level)
    return se, np.column_stack([strength - z * se, strength + z * se])


def win_probabilities(strength, log_tie: float, covariance, confidence_level: float):
    """``P(i beats j)`` (K × K, NaN diagonal) and its delta-method interval (K × K × 2).

    ``covariance`` is that of ``(β_1, …, β_K, log ν)``.
    """
    k = strength.size
    d = strength[:, None] - strength[None, :]
    probs = davidson_probabilities(d, np.exp(log_tie))
    p = probs[..., 0]
    abar = (probs[..., 0] - probs[..., 2]) / 2.0
    # d logit(p) / d d and / d log ν, with d p / d ℓ = p (δ − p) for the softmax logits ℓ
    g_d = (0.5 - abar) / (1.0 - p)
    g_nu = -probs[..., 1] / (1.0 - p)
    z = normal_quantile(confidence_level)
    # gradient e_i g_d − e_j g_d + e_ν g_ν: its quadratic form in the covariance, for all (i, j)
    var_b = np.diag(covariance)[:k]
    var_d = var_b[:, None] + var_b[None, :] - 2.0 * covariance[:k, :k]
    cov_nu = covariance[:k, k]
    var = (g_d**2 * var_d + 2.0 * g_d * g_nu * (cov_nu[:, None] - cov_nu[None, :])
           + g_nu**2 * covariance[k, k])  # fmt: skip
    se = np.sqrt(np.clip(var, 0.0, None))
    with np.errstate(divide="ignore"):
        logit = np.log(p / (1.0 - p))
    low = 1.0 / (1.0 + np.exp(-(logit - z * se)))
    high = 1.0 / (1.0 + np.exp(-(logit + z * se)))
    np.fill_diagonal(low, np.nan)
    np.fill_diagonal(high, np.nan)
    np.fill_diagonal(p, np.nan)
    return p, np.stack([low, high], axis=-1)


def ranks_of(strength) -> np.ndarray:
    """Rank of each model, 1 = strongest (exact ties: the order given)."""
    strength = np.asarray(strength)
    order = np.argsort(-strength, axis=-1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, strength.shape[-1] + 1), axis=-1)
    return ranks


def rank_sets(strength, covariance, confidence_level: float) -> np.ndarray:
    """Simultaneous rank sets (K × 2: best and worst rank) by Bonferroni over the pairs."""
    k = strength.size
    z = normal_quantile(confidence_level, tests=max(k * (k - 1) // 2, 1))
    var = np.diag(covariance)[:k]
    cov = covariance[:k, :k]
    se = np.sqrt(np.clip(var[:, None] + var[None, :] - 2.0 * cov, 0.0, None))
    diff = strength[:, None] - strength[None, :]
    above = diff - z * se > 0  # [i, j]: i surely stronger than j
    np.fill_diagonal(above, False)
    best = 1 + above.sum(axis=0)
    worst = k - above.sum(axis=1)
    return np.column_stack([best, worst])


def rank_probabilities(draws) -> np.ndarray:
    """``[i, r]`` = share of the strength draws (rows) in which model i has rank r + 1."""
    draws = np.asarray(draws)
    k = draws.shape[1]
    ranks = ranks_of(draws) - 1
    out = np.zeros((k, k))
    for i in range(k):
        out[i] = np.bincount(ranks[:, i], minlength=k) / draws.shape[0]
    return out


def resample_pairs(counts: PairCounts, rng: np.random.Generator) -> PairCounts:
    """Draw the pairs again with replacement, within the unlabelled and the calibration pairs."""
    judged = rng.multinomial(counts.n_judged, (counts.judged / counts.n_judged).ravel())
    lab = counts.labelled
    labelled = rng.multinomial(counts.n_labelled, (lab / counts.n_labelled).ravel())
    return PairCounts(
        counts.models,
        counts.first,
        counts.second,
        judged.reshape(counts.judged.shape),
        labelled.reshape(lab.shape),
        counts.judge_labels,
    )


def rank_summary(
    strength: np.ndarray,
    cov: np.ndarray,
    level: float,
    rng: np.random.Generator,
    reps: int,
    refit: Callable[[np.random.Generator], np.ndarray],
) -> tuple[np.ndarray, np.ndarray, str, int]:
    """Rank sets, ``P(rank = r)``, how they were drawn, and the number of failed refits.

    ``reps = 0``: 4,000 normal draws of the strengths (``cov``'s leading K × K block) and the
    Bonferroni rank sets of :func:`rank_sets`; otherwise ``reps`` bootstrap refits
    (``refit(rng)`` returns the strengths of one resample, or raises ``ValueError``) and rank
    sets from their percentiles at ``α/(2K)`` and ``1 − α/(2K)`` (Bonferroni over the models).
    """
    if not reps:
        draws = rng.multivariate_normal(strength, cov[:-1, :-1], size=4000, method="eigh")
        return rank_sets(strength, cov, level), rank_probabilities(draws), "normal", 0
    kept, failed = [], 0
    for _ in range(reps):
        try:
            kept.append(refit(rng))
        except ValueError:
            failed += 1
    draws = np.array(kept)
    k = strength.size
    ranks = ranks_of(draws)
    tail = (1.0 - level) / (2.0 * k)
    sets = np.column_stack(
        [
            np.floor(np.quantile(ranks, tail, axis=0, method="inverted_cdf")),
            np.ceil(np.quantile(ranks, 1.0 - tail, axis=0, method="inverted_cdf")),
        ]
    ).astype(int)
    return sets, rank_probabilities(draws), "bootstrap", failed
