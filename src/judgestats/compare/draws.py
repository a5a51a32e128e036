"""Posterior draws of θ for several judged models, exact or importance-sampled.

With a calibration set per model each θ is drawn exactly from its quadrature posterior; with a
shared calibration set the joint posterior is importance-sampled with an adaptive defensive
proposal for the q's (see :func:`judgestats.compare.difference`, method ``"bayes"``).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import (
    JudgeStatsError,
    SamplingWarning,
    check_instance,
)
from ..counts import ConfusionCounts, JudgedCounts
from ..posterior import theta_posterior

if TYPE_CHECKING:  # pragma: no cover
    pass

_DEFENSIVE = 0.1  # share of the calibration posterior in an adapted q proposal


_ADAPT = 4  # at most this many adaptation rounds of the posterior sampler


_ADAPT_BELOW = 0.3  # adapt where the effective sample is below this share of the draws


# ============================================================================ posterior draws
def _resolve_priors(priors: Any):
    if priors is None:
        return (1.0, 1.0), (1.0, 1.0), (1.0, 1.0), False
    from ..priors import Priors

    check_instance("priors", priors, Priors)
    b = priors.binary()
    return (
        (b.theta.a, b.theta.b),
        (b.specificity.a, b.specificity.b),
        (b.sensitivity.a, b.sensitivity.b),
        b.better_than_chance,
    )


def _log_beta_pdf(x: np.ndarray, a: Any, b: Any) -> np.ndarray:
    from scipy.special import betaln

    x = np.clip(x, 1e-300, 1.0 - 1e-16)
    return (a - 1.0) * np.log(x) + (b - 1.0) * np.log1p(-x) - betaln(a, b)


def _is_round(arms, groups, base, prop, draws, gen, ath, bth, restrict):
    """One importance-sampling round; returns θ (draws, ..., K) and log weights (draws, ...).

    ``base[g]`` / ``prop[g]``: Beta parameters (a0, b0, a1, b1) of q0, q1 for calibration g
    under the calibration posterior and under the adapted proposal. q's are drawn from the
    defensive mixture ``_DEFENSIVE · base + (1 − _DEFENSIVE) · prop``.
    """
    from scipy.special import betainc, betaincinv, betaln

    shape = np.broadcast_shapes(*(np.shape(a["x"]) for a in arms))
    size = (draws, *shape)
    logw = np.zeros(size)
    q0s, q1s = [], []
    for bg, pg in zip(base, prop, strict=True):
        adapted = not all(np.array_equal(u, v) for u, v in zip(bg, pg, strict=True))
        pick = gen.random(size) < _DEFENSIVE if adapted else None
        qq = []
        for j in (0, 1):
            ab, bb_ = bg[2 * j], bg[2 * j + 1]
            if not adapted:
                qq.append(gen.beta(ab, bb_, size=size))
                continue
            ap, bp = pg[2 * j], pg[2 * j + 1]
            q = np.where(pick, gen.beta(ab, bb_, size=size), gen.beta(ap, bp, size=size))
            lb, lp = _log_beta_pdf(q, ab, bb_), _log_beta_pdf(q, ap, bp)
            mix = np.logaddexp(np.log(_DEFENSIVE) + lb, np.log1p(-_DEFENSIVE) + lp)
            logw += lb - mix
            qq.append(q)
        q0s.append(qq[0])
        q1s.append(qq[1])
    thetas = np.empty((*size, len(arms)))
    for k, arm in enumerate(arms):
        q0, q1 = q0s[groups[k]], q1s[groups[k]]
        d = q0 + q1 - 1.0
        lo, hi = np.minimum(1.0 - q0, q1), np.maximum(1.0 - q0, q1)
        aa, bb = arm["x"] + 1.0, arm["n"] - arm["x"] + 1.0
        # When the whole range lies above the Beta mean, reflect p -> 1 − p (Beta(b, a) on
        # [1 − hi, 1 − lo]) so that the CDF differences are taken in the accurate lower tail.
        upper = lo > aa / (aa + bb)
        ra, rb = np.where(upper, bb, aa), np.where(upper, aa, bb)
        rlo, rhi = np.where(upper, 1.0 - hi, lo), np.where(upper, 1.0 - lo, hi)
        flo = betainc(ra, rb, rlo)
        mass = betainc(ra, rb, rhi) - flo
        ok = (mass > 0) & (np.abs(d) > 1e-12)
        u = gen.random(size)
        with np.errstate(divide="ignore", invalid="ignore"):
            y = betaincinv(ra, rb, np.clip(flo + u * mass, 0.0, 1.0))
            p = np.where(upper, 1.0 - y, y)
            th = np.clip((p - (1.0 - q0)) / d, 0.0, 1.0)
            logw += np.where(ok, np.log(np.where(ok, mass, 1.0)) - np.log(np.abs(d)), -np.inf)
        if (ath, bth) != (1.0, 1.0):
            with np.errstate(divide="ignore"):
                logw += (ath - 1.0) * np.log(th) + (bth - 1.0) * np.log1p(-th) - betaln(ath, bth)
        thetas[..., k] = np.where(ok, th, 0.5)
    if restrict:
        for g in range(len(base)):
            logw = np.where(q0s[g] + q1s[g] > 1.0, logw, -np.inf)
    return thetas, np.where(np.isnan(logw), -np.inf, logw), q0s, q1s


def _normalise(logw: np.ndarray) -> np.ndarray:
    top = np.max(logw, axis=0, keepdims=True)
    w = np.exp(logw - np.where(np.isfinite(top), top, 0.0))
    total = w.sum(axis=0, keepdims=True)
    return w / np.where(total > 0, total, 1.0)


def _moment_beta(q: np.ndarray, w: np.ndarray, a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """Beta matched to the weighted mean of ``q`` and twice its weighted variance.

    The variance is floored at 5% of the Beta(a, b) variance (the calibration posterior) so a
    few dominant draws cannot collapse the proposal.
    """
    mu = np.clip(np.sum(w * q, axis=0), 1e-6, 1.0 - 1e-6)
    var = 2.0 * np.sum(w * (q - mu) ** 2, axis=0)
    base_var = a * b / ((a + b) ** 2 * (a + b + 1.0))
    var = np.clip(np.maximum(var, 0.05 * base_var), 1e-12, 0.5 * mu * (1.0 - mu))
    kappa = mu * (1.0 - mu) / var - 1.0
    return mu * kappa, (1.0 - mu) * kappa


def _posterior_draws(arms, groups, cals, draws: int, gen, priors: Any = None):
    """Draws from the joint posterior of θ_1..θ_K; ``(θ (draws, ..., K), weights (draws, ...))``.

    Every arm with its own calibration set: the θ_k are independent a posteriori and each is
    drawn exactly from its quadrature posterior (:func:`judgestats.posterior.theta_posterior`,
    inverse CDF; equal weights), the same posterior as ``correct(..., method="bayes")``.
    Otherwise (a calibration set shared by several arms) :func:`_importance_draws`.
    """
    if len(set(groups)) == len(arms):
        th = np.stack(
            [_exact_draws(arm, cals[g], draws, gen, priors) for arm, g in zip(arms, groups,
                                                                                strict=True)],
            axis=-1,
        )
        return th, np.full(th.shape[:-1], 1.0 / draws)
    return _importance_draws(arms, groups, cals, draws, gen, priors)


def _exact_draws(arm, cal, draws: int, gen, priors: Any) -> np.ndarray:
    test = JudgedCounts(positive=arm["x"].astype(np.int64), n=arm["n"].astype(np.int64))
    c = ConfusionCounts(
        tp=cal["tp"].astype(np.int64), fn=cal["fn"].astype(np.int64),
        tn=cal["tn"].astype(np.int64), fp=cal["fp"].astype(np.int64),
    )  # fmt: skip
    return theta_posterior(test, c, priors=priors).sample(draws, gen)


def _importance_draws(arms, groups, cals, draws: int, gen, priors: Any = None):
    """Importance-sampled joint posterior of θ_1..θ_K for calibrations shared between arms.

    Returns θ of shape (draws, ..., K) and normalised weights of shape (draws, ...). See the
    module docstring ("bayes"): q's from their calibration posteriors, p_k ~ Beta(x + 1,
    n − x + 1) truncated to the range θ ∈ [0, 1] allows, weight Π_k mass_k / |q0 + q1 − 1| ·
    πθ(θ_k). Where the test data pull the q's away from their calibration posterior (a clipped
    estimate, where few draws fit), the q proposal is adapted: up to ``_ADAPT`` more rounds
    draw q from a defensive mixture of the calibration posterior and a Beta matched to the
    previous round's weighted draws, with the matching density ratio in the weight.
    """
    (ath, bth), (a0, b0), (a1, b1), restrict = _resolve_priors(priors)
    base: list[tuple[Any, ...]] = [
        tuple(np.asarray(v, dtype=float) for v in (c["tn"] + a0, c["fp"] + b0, c["tp"] + a1,
                                                   c["fn"] + b1))
        for c in cals
    ]  # fmt: skip
    prop = list(base)
    for round_ in range(_ADAPT + 1):
        th, logw, q0s, q1s = _is_round(arms, groups, base, prop, draws, gen, ath, bth, restrict)
        w = _normalise(logw)
        need = (_effective_draws(w) < _ADAPT_BELOW * draws) & np.isfinite(logw).any(axis=0)
        if round_ == _ADAPT or not np.any(need):
            break
        new = []
        for g, bg in enumerate(base):
            a0p, b0p = _moment_beta(q0s[g], w, bg[0], bg[1])
            a1p, b1p = _moment_beta(q1s[g], w, bg[2], bg[3])
            pg = prop[g]
            new.append(
                tuple(
                    np.where(need, fresh, np.broadcast_to(old, need.shape))
                    for fresh, old in zip((a0p, b0p, a1p, b1p), pg, strict=True)
                )
            )
        prop = new
    if not np.all(np.isfinite(logw).any(axis=0)):
        raise JudgeStatsError(
            "the posterior could not be sampled: every draw had zero weight (the data are "
            "incompatible with the prior restriction)"
        )
    return th, w


def _effective_draws(w: np.ndarray) -> np.ndarray:
    return 1.0 / np.sum(w**2, axis=0)


def _warn_low_ess(ess: float, draws: int, stacklevel: int) -> None:
    if ess < 0.1 * draws:
        warnings.warn(
            f"importance sampling of the posterior kept an effective sample of only {ess:.0f} of "
            f"{draws} draws; increase draws= for stable tail probabilities",
            SamplingWarning,
            stacklevel=stacklevel,
        )
