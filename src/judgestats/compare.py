r"""Comparing and ranking judged models: θ_A − θ_B with an interval, and leaderboards.

"Reported improvements may reflect bias from judgment errors rather than genuine model gains"
(paper, introduction). A comparison of two judged models has to carry the uncertainty of both
corrections; a leaderboard has to say how sure each position is.

* :func:`difference` — θ_A − θ_B with an interval and a two-sided p-value (or, for
  ``method="bayes"``, the posterior probability P(θ_A > θ_B)), for three designs:

  - **independent calibrations** (one calibration set per model, the paper's per-target
    design): the two corrections' uncertainties add;
  - **one shared calibration set** (one judge whose error rates do not depend on the model):
    θ_A − θ_B = (p_A − p_B)/(q0 + q1 − 1), so the judge rescales the difference but cannot flip
    its sign; the shared q̂'s enter both estimates (delta method with their covariance);
  - **paired test items** (both models answered the same prompts and the caller passes the
    per-item judge labels): the covariance of the paired judge labels enters the test term.

* :func:`rank` — rank probabilities, pairwise P(θ_i > θ_j) and the expected Kendall τ of the
  point ranking, from a joint parametric bootstrap or the joint posterior of the
  misclassification model.

Interval methods of :func:`difference`
--------------------------------------
``adjusted-wald`` (default)
    The paper's adjusted quantities (eq. ci: p̃ with n + z², q̃ with m + 2, centre θ̃ + dθ̃) for
    each model, combined by the delta method. Independent calibrations:
    Var = Var_A + Var_B (each the bracket of eq. ci over (q̃0 + q̃1 − 1)²). Shared calibration:
    Var = [Var(p̃_A) + Var(p̃_B) − 2 Cov] / D̃² + (θ̃_A − θ̃_B)² (v0 + v1) / D̃², with
    D̃ = q̃0 + q̃1 − 1, v_j = q̃_j(1 − q̃_j)/m̃_j, centre (θ̃_A + dθ̃_A) − (θ̃_B + dθ̃_B)
    = (θ̃_A − θ̃_B)(1 + 2z²(v0 + v1)). Paired: Cov = (n11/n − p̂_A p̂_B)/ñ, the covariance of the
    paired judge labels (zero otherwise). The p-value is 2Φ(−|centre|/se).
``wald``
    The same delta method at the unadjusted estimates (eq. var), centred at θ̂_A − θ̂_B.
``bootstrap``
    Joint parametric percentile bootstrap: positive ~ Bin(n, p̂) per model (paired: the
    four-cell multinomial of the label pairs), tn ~ Bin(m0, q̂0), tp ~ Bin(m1, q̂1) per
    calibration set (drawn once when shared), Δ* = clip(θ̂*_A) − clip(θ̂*_B). Replicates with
    q0* + q1* <= 1 are counted and excluded, with a :class:`SamplingWarning`. p-value
    2·min{(1 + #Δ* <= 0), (1 + #Δ* >= 0)}/(1 + B), capped at 1.
``bayes``
    The posterior of the binomial misclassification model (θ_A, θ_B, q's ~ Beta priors, flat
    by default; ``priors=`` takes a :class:`judgestats.Priors`), the model of
    ``correct(..., method="bayes")``. With a calibration set per model the θ's are independent
    a posteriori and each is drawn exactly from its quadrature posterior
    (:func:`judgestats.posterior.theta_posterior`, inverse CDF). With a shared calibration set
    the θ's are dependent through q0, q1 and the joint posterior is importance-sampled: q's
    from their Beta posteriors, then each p from its Beta(x + 1, n − x + 1) truncated to the
    range [1 − q0, q1] that θ ∈ [0, 1] allows, weighted by that range's mass / |q0 + q1 − 1|
    (the θ-likelihood's integral); its θ marginals are the quadrature posteriors up to Monte
    Carlo error. Reports the posterior mean of
    θ_A − θ_B, an equal-tailed credible interval and P(θ_A > θ_B). Defined for any judge,
    including q̂0 + q̂1 <= 1. Where the test data pull the q's far from their calibration
    posterior (a clipped estimate), the q proposal adapts: a defensive mixture of the
    calibration posterior and a Beta matched to the previous round's weighted draws. A low
    effective sample size warns (:class:`SamplingWarning`). Does not model paired test items.
    **Small shared calibration sets overstate |θ_A − θ_B|.** With one shared calibration the
    difference is (p_A − p_B)/(q0 + q1 − 1); the flat Beta(1, 1) priors pull the posterior of
    q0 and q1 toward 1/2, i.e. toward a weaker judge, and 1/(q0 + q1 − 1) is convex, so the
    posterior mean of the difference is larger in magnitude than the plug-in one. This is
    the posterior under those priors (importance sampling agrees with a direct quadrature of
    it), not a sampling error. Measured over 200 data sets (Δ = 0.2, q0 = q1 = 0.85,
    n = 1000): bias +0.067 with 15 calibration items per class, +0.018 with 50, +0.009 with
    150, while the adjusted-Wald estimate's bias was +0.011, +0.001, +0.005; the credible
    interval still covered. Use ``priors=`` (a past calibration) or ``"adjusted-wald"`` when
    the size of the difference matters and the calibration set is small.
any other registered method (e.g. ``profile-likelihood``)
    Independent, unpaired data only: the two per-model intervals from the registry combined by
    MOVER (Zou & Donner 2008): L = Δ̂ − √((θ̂_A − l_A)² + (u_B − θ̂_B)²),
    U = Δ̂ + √((u_A − θ̂_A)² + (θ̂_B − l_B)²). No p-value.

All difference intervals are truncated to [−1, 1], the range of θ_A − θ_B.

References
----------
Zou, G. Y. & Donner, A. (2008). Construction of confidence limits about effect measures: a
general approach. Statistics in Medicine 27, 1693–1702.
Lang, Z. & Reiczigel, J. (2014). Confidence limits for prevalence of disease adjusted for
estimated sensitivity and specificity. Preventive Veterinary Medicine 113, 13–22.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from . import kernels
from ._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    LabelError,
    MethodError,
    NotInformativeError,
    SamplingWarning,
    _show,
    check_bool,
    check_confidence_level,
    check_informative,
    check_instance,
    check_labels,
    check_method,
    check_model_keys,
    check_model_mapping,
    check_positive_int,
    check_rng,
    check_same_length,
    take_renamed,
    warn_deprecated,
)
from .counts import ConfusionCounts, JudgedCounts
from .designs import DEFAULT_DESIGN, check_design
from .estimators import clip_warned, rogan_gladen_counts
from .intervals import compute_bounds, get_method, interval_methods
from .kernels import rogan_gladen_raw, z_value
from .posterior import theta_posterior
from .results import ConfidenceInterval, Tabular, note_lines

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "DIFFERENCE_METHODS",
    "RANK_METHODS",
    "Comparison",
    "Ranking",
    "difference",
    "difference_bounds_batch",
    "kendall_tau",
    "plot_ranking",
    "rank",
    "weighted_quantile",
]

#: Methods with a joint treatment of shared calibrations and paired items in :func:`difference`.
DIFFERENCE_METHODS = ("adjusted-wald", "wald", "bootstrap", "bayes")
#: Methods of :func:`rank`.
RANK_METHODS = ("bootstrap", "bayes")

_DEFAULT_DRAWS = 20_000
_CHUNK = 4_000_000  # array elements per resampled array
_DEFENSIVE = 0.1  # share of the calibration posterior in an adapted q proposal
_ADAPT = 4  # at most this many adaptation rounds of the posterior sampler
_ADAPT_BELOW = 0.3  # adapt where the effective sample is below this share of the draws


# ============================================================================ small helpers
def _single(name: str, obj: Any, cls: type) -> Any:
    check_instance(name, obj, cls)
    if obj.shape:
        raise JudgeStatsError(
            f"{name} holds a batch of shape {obj.shape}; one data set is expected here"
        )
    return obj


def _test_arg(name: str, value: Any) -> tuple[JudgedCounts, np.ndarray | None]:
    """Return a test argument as counts, plus its per-item labels when labels were given."""
    if isinstance(value, JudgedCounts):
        return _single(name, value, JudgedCounts), None
    if isinstance(value, ConfusionCounts) or (
        np.ndim(value) == 0 and not hasattr(value, "__len__")
    ):
        raise ArgumentTypeError(
            f"{name} must be a JudgedCounts or a 1-D array of 0/1 judge labels, got "
            f"{type(value).__name__} ({_show(value)})"
        )
    labels = check_labels(f"{name} labels", value)
    return JudgedCounts(positive=int(labels.sum()), n=int(labels.size)), labels


def _arrays(test: JudgedCounts, cal: ConfusionCounts) -> dict[str, np.ndarray]:
    return {
        "x": np.asarray(test.positive, dtype=float),
        "n": np.asarray(test.n, dtype=float),
        "tp": np.asarray(cal.tp, dtype=float),
        "fn": np.asarray(cal.fn, dtype=float),
        "tn": np.asarray(cal.tn, dtype=float),
        "fp": np.asarray(cal.fp, dtype=float),
    }


def _clipped_rg(arm: dict[str, np.ndarray]) -> np.ndarray:
    """Clipped Rogan–Gladen θ̂ of an arm dict (x, n, tn, fp, tp, fn); no warning."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p, q0 = arm["x"] / arm["n"], arm["tn"] / (arm["tn"] + arm["fp"])
        q1 = arm["tp"] / (arm["tp"] + arm["fn"])
    return np.clip(rogan_gladen_raw(p, q0, q1), 0.0, 1.0)


def _check_options(method: str, options: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        takes = ", ".join(allowed) if allowed else "no options"
        raise ArgumentTypeError(
            f"method {method!r} got unexpected option(s) {unknown}; it takes {takes}"
        )


def _scalar_level(confidence_level: Any) -> float:
    level = check_confidence_level(confidence_level)
    if np.ndim(level):
        raise ArgumentTypeError(
            f"confidence_level must be a scalar here, got an array of shape {np.shape(level)}"
        )
    return float(level)


def _require_informative(cal: ConfusionCounts, who: str, *, adjusted: bool) -> None:
    check_informative(cal.specificity, cal.sensitivity, what=f"{who}: q̂0 + q̂1")
    if adjusted:
        q0t = (cal.tn + 1) / (cal.m0 + 2)
        q1t = (cal.tp + 1) / (cal.m1 + 2)
        check_informative(q0t, q1t, what=f"{who}: the adjusted q̃0 + q̃1")


def weighted_quantile(values: np.ndarray, weights: np.ndarray | None, probs: Any) -> np.ndarray:
    """Quantiles along axis 0 of ``values`` with (optional) weights; NaN values are ignored.

    Linear interpolation of the weighted empirical CDF at the mid-points of the sorted values'
    weights (Hazen's rule for equal weights). ``values`` has shape (R, ...), ``weights`` (R, ...)
    or None; returns shape ``(len(probs), ...)``.
    """
    v = np.asarray(values, dtype=float)
    w = np.ones_like(v) if weights is None else np.broadcast_to(weights, v.shape).astype(float)
    w = np.where(np.isnan(v), 0.0, w)
    order = np.argsort(np.where(np.isnan(v), np.inf, v), axis=0)
    vs = np.take_along_axis(v, order, axis=0)
    ws = np.take_along_axis(w, order, axis=0)
    total = ws.sum(axis=0)
    cum = (np.cumsum(ws, axis=0) - ws / 2.0) / np.where(total > 0, total, 1.0)
    probs = np.atleast_1d(np.asarray(probs, dtype=float))
    out = np.empty((probs.size, *v.shape[1:]))
    flat_v = vs.reshape(vs.shape[0], -1)
    flat_c = cum.reshape(cum.shape[0], -1)
    flat_w = ws.reshape(ws.shape[0], -1)
    for j in range(flat_v.shape[1]):
        keep = flat_w[:, j] > 0
        if not keep.any():
            out.reshape(probs.size, -1)[:, j] = np.nan
            continue
        out.reshape(probs.size, -1)[:, j] = np.interp(probs, flat_c[keep, j], flat_v[keep, j])
    return out


# ============================================================================ delta methods
def _delta_parts(a: dict[str, np.ndarray], z: Any, adjusted: bool) -> dict[str, np.ndarray]:
    """Per-model pieces of eq. (ci) (adjusted) or eq. (var) (plain), from counts."""
    x, n, tp, fn, tn, fp = (a[k] for k in ("x", "n", "tp", "fn", "tn", "fp"))
    m0, m1 = tn + fp, tp + fn
    with np.errstate(divide="ignore", invalid="ignore"):
        parts = kernels.delta_parts(x / n, tn / m0, tp / m1, n, m0, m1, z, adjusted=adjusted)
    parts["centre"] = parts["theta"] + parts["shift"]
    return parts


def _delta_kernel(a, b, *, z, adjusted: bool, shared: bool, pair_n11=None):
    """Centre and standard error of θ_A − θ_B by the delta method (arrays broadcast)."""
    pa, pb = _delta_parts(a, z, adjusted), _delta_parts(b, z, adjusted)
    if pair_n11 is None:
        cov = 0.0
    else:  # sample covariance of the paired judge labels, over the same (adjusted) size
        n = a["n"]
        cov = (pair_n11 / n - (a["x"] / n) * (b["x"] / n)) / pa["n"]
    centre = pa["centre"] - pb["centre"]
    if shared:
        d, diff = pa["den"], pa["theta"] - pb["theta"]
        var_p = pa["var_p"] + pb["var_p"] - 2.0 * cov
        var = var_p / d**2 + diff**2 * (pa["v0"] + pa["v1"]) / d**2
    else:
        var_a, var_b = kernels.delta_se(pa) ** 2, kernels.delta_se(pb) ** 2
        var = var_a + var_b - 2.0 * cov / (pa["den"] * pb["den"])
    return centre, np.sqrt(np.maximum(var, 0.0))


# ============================================================================ bootstrap
def _bootstrap_thetas(arms, groups, cals, reps: int, gen, pairs=None) -> np.ndarray:
    """Joint parametric bootstrap of clipped Rogan–Gladen estimates.

    ``arms``: list of dicts with ``x``, ``n`` (arrays of batch shape); ``groups[k]``: index of the
    calibration of arm k in ``cals`` (dicts with tp, fn, tn, fp). ``pairs``: optional
    (n11, n10, n01, n00) arrays for arms 0 and 1 (paired test items). Returns (reps, ..., K)
    with NaN where a replicate's calibration had q0* + q1* <= 1.
    """
    shape = np.broadcast_shapes(*(np.shape(a["x"]) for a in arms))
    size = (reps, *shape)
    q0s, q1s = [], []
    for c in cals:
        m0, m1 = c["tn"] + c["fp"], c["tp"] + c["fn"]
        q0s.append(kernels.draw_rate(gen, c["tn"] / m0, m0, size))
        q1s.append(kernels.draw_rate(gen, c["tp"] / m1, m1, size))
    ps = []
    if pairs is not None:
        n11, n10, n01, n00 = (np.asarray(v, dtype=float) for v in pairs)
        n = n11 + n10 + n01 + n00
        pvals = np.stack([n11, n10, n01, n00], axis=-1) / n[..., None]
        cells = gen.multinomial(n.astype(np.int64), pvals, size=size)
        ps.append((cells[..., 0] + cells[..., 1]) / n)
        ps.append((cells[..., 0] + cells[..., 2]) / n)
    for a in arms[len(ps) :]:
        ps.append(kernels.draw_rate(gen, a["x"] / a["n"], a["n"], size))
    out = np.empty((*size, len(arms)))
    for k, p in enumerate(ps):
        g = groups[k]
        out[..., k] = np.clip(rogan_gladen_raw(p, q0s[g], q1s[g]), 0.0, 1.0)
    return out


# ============================================================================ posterior draws
def _resolve_priors(priors: Any):
    if priors is None:
        return (1.0, 1.0), (1.0, 1.0), (1.0, 1.0), False
    from .priors import Priors

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


# ============================================================================ difference
def difference(
    test_a: Any,
    calibration_a: ConfusionCounts | None = None,
    test_b: Any = None,
    calibration_b: ConfusionCounts | None = None,
    *,
    shared_calibration: bool = False,
    paired: bool | None = None,
    method: str = "adjusted-wald",
    confidence_level: float = 0.95,
    rng: Any = None,
    names: tuple[str, str] = ("A", "B"),
    design: str = DEFAULT_DESIGN,
    **options: Any,
) -> Comparison:
    """Difference θ_A − θ_B of two corrected rates, with an interval and a test.

    Each model's true rate is estimated by Rogan–Gladen, θ̂ = (p̂ + q̂0 − 1)/(q̂0 + q̂1 − 1)
    (paper eq. point-estimator), and the difference gets an interval that carries the
    uncertainty of both test sets and of the calibration set(s) (see the module docstring for
    each method's formula).

    With one **shared** calibration set the difference is
    θ_A − θ_B = (p_A − p_B)/(q0 + q1 − 1): for an informative judge (q0 + q1 > 1) the correction
    rescales the judged difference but **cannot flip its sign**, so the naive comparison already
    has the right direction; what the correction changes is the size of the difference and its
    interval. With separate calibrations (the judge behaves differently on each model's
    answers) the sign *can* flip — that is where naive comparisons mislead. For the same
    reason, with a shared calibration the test of θ_A = θ_B is (up to the q̂ term of the
    variance, which vanishes under the null) the naive test of p_A = p_B.

    Parameters
    ----------
    test_a, test_b : JudgedCounts or array_like of 0/1
        Each model's judged test set: counts, or the per-item judge labels. When both are label
        arrays of the same length they are taken as **paired** (the same prompts, in the same
        order) unless ``paired=False``.
    calibration_a, calibration_b : ConfusionCounts
        Calibration counts of each model. With ``shared_calibration=True`` pass the one set as
        ``calibration_a`` and leave ``calibration_b`` as None (or pass the same counts again).
        ``cal_a``/``cal_b`` are their deprecated names.
    shared_calibration : bool, default False
        One calibration set for both models (the judge's error rates do not depend on which
        model answered).
    paired : bool or None, default None
        None: paired exactly when both tests are label arrays. True: require paired labels.
        False: treat the two test sets as independent samples even if labels are given.
    method : str, default "adjusted-wald"
        ``"adjusted-wald"``, ``"wald"``, ``"bootstrap"``, ``"bayes"``, or another registered
        interval method (:func:`judgestats.interval_methods`) combined by MOVER — the latter
        only for independent calibrations and unpaired tests.
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    rng : None, int, SeedSequence or Generator
        Randomness for ``"bootstrap"`` and ``"bayes"``.
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How each model's calibration items were chosen (:func:`judgestats.correct`). The other
        designs need a calibration set per model and unpaired tests: each model's interval
        under the design (any of its methods), combined by MOVER, with no p-value.
    names : (str, str), default ("A", "B")
        Labels of the two models in the summary and data frame.
    **options
        ``n_resamples`` (bootstrap, default 9999); ``draws`` (bayes, default 20000) and
        ``priors`` (a :class:`judgestats.bayes.Priors`); a MOVER method's own options.

    Returns
    -------
    Comparison
        ``estimate`` (θ̂_A − θ̂_B of the clipped estimates; the posterior mean for ``"bayes"``),
        ``ci``, ``pvalue`` (two-sided, H0: θ_A = θ_B; None for ``"bayes"`` and MOVER),
        ``prob_a_greater`` (posterior P(θ_A > θ_B), ``"bayes"`` only), per-model estimates and
        the naive difference p̂_A − p̂_B.

    Raises
    ------
    ArgumentTypeError
        If a test is neither counts nor labels, or a calibration is not ConfusionCounts.
    LabelError
        If paired labels differ in length, or ``paired=True`` without two label arrays.
    NotInformativeError
        If q̂0 + q̂1 <= 1 for a calibration set and the method needs it (all but ``"bayes"``
        and likelihood-based registered methods).
    MethodError
        On an unknown method, or a MOVER method with a shared calibration or paired data.
    JudgeStatsError
        If ``calibration_b`` is missing without ``shared_calibration`` or differs from
        ``calibration_a`` with
        it, or ``"bayes"`` is asked for paired items.

    Warns
    -----
    ClippedEstimateWarning
        When a per-model θ̂ falls outside [0, 1].
    SamplingWarning
        Bootstrap replicates undefined, or a low effective sample in the posterior.

    Examples
    --------
    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
    >>> res = difference(js.JudgedCounts(positive=600, n=1000), cal,
    ...                  js.JudgedCounts(positive=520, n=1000), shared_calibration=True)
    >>> round(res.estimate, 4)  # (0.60 − 0.52) / (0.7 + 0.9 − 1)
    0.1333
    """
    calibration_a = take_renamed(options, "cal_a", "calibration_a", calibration_a, "difference")
    calibration_b = take_renamed(options, "cal_b", "calibration_b", calibration_b, "difference")
    if calibration_a is None or test_b is None:
        raise ArgumentTypeError("difference() needs test_a, calibration_a and test_b")
    shared = check_bool("shared_calibration", shared_calibration)
    if paired is not None:
        paired = check_bool("paired", paired)
    ta, la = _test_arg("test_a", test_a)
    tb, lb = _test_arg("test_b", test_b)
    cal_a, cal_b = _two_calibrations(calibration_a, calibration_b, shared)
    is_paired, pair_counts = _pairing(la, lb, paired)
    if not (
        isinstance(names, tuple) and len(names) == 2 and all(isinstance(s, str) for s in names)
    ):
        raise ArgumentTypeError(f"names must be a tuple of two strings, got {_show(names)}")
    if check_design(design) != DEFAULT_DESIGN:
        if shared or is_paired:
            raise JudgeStatsError(
                f"design={design!r} compares models with a calibration set each (their "
                "intervals are combined by MOVER); a shared calibration set or paired items "
                "need design='by-human-label'"
            )
        get_method(method, design)  # names the methods the design has
    else:
        registered = interval_methods()
        check_method(
            method, tuple(dict.fromkeys((*DIFFERENCE_METHODS, *registered))),
            capability="differences",
        )  # fmt: skip
    level = _scalar_level(confidence_level)

    common = {
        "test_a": ta,
        "test_b": tb,
        "calibration_a": cal_a,
        "calibration_b": cal_b,
        "shared_calibration": shared,
        "paired": is_paired,
        "pair_counts": pair_counts,
        "method": method,
        "confidence_level": level,
        "names": names,
        "naive": float(ta.p_hat - tb.p_hat),
        "calibration_design": design,
    }
    if design != DEFAULT_DESIGN:
        return _difference_mover(common, rng, options)
    return _difference_by(method, common, rng, options)


def _two_calibrations(cal_a: Any, cal_b: Any, shared: bool) -> tuple[Any, Any]:
    _single("calibration_a", cal_a, ConfusionCounts)
    if shared:
        if cal_b is not None:
            _single("calibration_b", cal_b, ConfusionCounts)
            if cal_b != cal_a:
                raise JudgeStatsError(
                    f"shared_calibration=True but calibration_b ({_show(cal_b)}) differs from "
                    f"calibration_a ({_show(cal_a)}): pass the shared set once, as calibration_a"
                )
        return cal_a, cal_a
    if cal_b is None:
        raise JudgeStatsError(
            "calibration_b is required: pass model B's calibration counts, or "
            "shared_calibration=True when one calibration set serves both models"
        )
    _single("calibration_b", cal_b, ConfusionCounts)
    return cal_a, cal_b


def _pairing(la: Any, lb: Any, paired: bool | None) -> tuple[bool, tuple | None]:
    """Whether the tests are paired, and the four label-pair counts (n11, n10, n01, n00)."""
    both_labels = la is not None and lb is not None
    if paired is True and not both_labels:
        raise LabelError(
            "paired=True needs per-item judge labels for both test_a and test_b (arrays of 0/1 "
            "on the same prompts), got "
            + ("counts for test_a" if la is None else "counts for test_b")
        )
    is_paired = both_labels if paired is None else paired
    if not is_paired:
        return False, None
    check_same_length("test_a labels", la, "test_b labels", lb)
    return True, (
        int(np.count_nonzero(la & lb)),
        int(np.count_nonzero(la & ~lb)),
        int(np.count_nonzero(~la & lb)),
        int(np.count_nonzero(~la & ~lb)),
    )


def _difference_by(method: str, common: dict, rng: Any, options: dict) -> Comparison:
    """Dispatch a validated difference to its method."""
    if method in ("adjusted-wald", "wald"):
        _check_options(method, options, ())
        return _difference_delta(common, adjusted=method == "adjusted-wald")
    if method == "bootstrap":
        _check_options(method, options, ("n_resamples",))
        reps = check_positive_int("n_resamples", options.get("n_resamples", 9999), minimum=2)
        return _difference_bootstrap(common, reps, check_rng(rng))
    if method == "bayes":
        _check_options(method, options, ("draws", "priors"))
        if common["paired"]:
            raise JudgeStatsError(
                "method='bayes' does not model paired test items; use 'adjusted-wald' or "
                "'bootstrap' for paired labels, or paired=False to treat the tests as independent"
            )
        draws = check_positive_int("draws", options.get("draws", _DEFAULT_DRAWS), minimum=100)
        return _difference_bayes(common, draws, check_rng(rng), options.get("priors"))
    if common["shared_calibration"] or common["paired"]:
        design = "a shared calibration set" if common["shared_calibration"] else "paired items"
        opts = ", ".join(repr(m) for m in DIFFERENCE_METHODS)
        raise MethodError(
            f"method ({method!r}) combines two independent intervals (MOVER) and cannot be used "
            f"with {design}; use one of {opts}"
        )
    return _difference_mover(common, rng, options)


def _per_model_estimates(c: dict, stacklevel: int = 4) -> tuple[float, float]:
    raw = [rogan_gladen_counts(c[f"test_{s}"], c[f"calibration_{s}"]) for s in "ab"]
    est = clip_warned(raw, stacklevel=stacklevel)
    return float(est[0]), float(est[1])


def _interval(low: float, high: float, c: dict, **extra: Any) -> ConfidenceInterval:
    low, high = float(np.clip(low, -1.0, 1.0)), float(np.clip(high, -1.0, 1.0))
    return ConfidenceInterval(
        low=low,
        high=max(low, high),
        method=c["method"],
        confidence_level=c["confidence_level"],
        **extra,
    )


def _difference_delta(c: dict, *, adjusted: bool) -> Comparison:
    from scipy.special import ndtr

    _require_informative(c["calibration_a"], "calibration_a", adjusted=adjusted)
    if not c["shared_calibration"]:
        _require_informative(c["calibration_b"], "calibration_b", adjusted=adjusted)
    ea, eb = _per_model_estimates(c, stacklevel=6)
    z = float(z_value(c["confidence_level"]))
    a = _arrays(c["test_a"], c["calibration_a"])
    b = _arrays(c["test_b"], c["calibration_b"])
    n11 = None if c["pair_counts"] is None else float(c["pair_counts"][0])
    centre, se = _delta_kernel(
        a, b, z=z, adjusted=adjusted, shared=c["shared_calibration"], pair_n11=n11
    )
    centre, se = float(centre), float(se)
    if se > 0:
        pvalue = float(2.0 * ndtr(-abs(centre) / se))
    else:
        pvalue = 1.0 if centre == 0 else 0.0
    return Comparison(
        estimate=ea - eb,
        ci=_interval(centre - z * se, centre + z * se, c),
        estimate_a=ea,
        estimate_b=eb,
        pvalue=pvalue,
        prob_a_greater=None,
        standard_error=se,
        **c,
    )


def _difference_bootstrap(c: dict, reps: int, gen: np.random.Generator) -> Comparison:
    _require_informative(c["calibration_a"], "calibration_a", adjusted=False)
    if not c["shared_calibration"]:
        _require_informative(c["calibration_b"], "calibration_b", adjusted=False)
    ea, eb = _per_model_estimates(c, stacklevel=6)
    a = _arrays(c["test_a"], c["calibration_a"])
    b = _arrays(c["test_b"], c["calibration_b"])
    cals = [a] if c["shared_calibration"] else [a, b]
    groups = [0, 0] if c["shared_calibration"] else [0, 1]
    th = _bootstrap_thetas([a, b], groups, cals, reps, gen, pairs=c["pair_counts"])
    delta = th[..., 0] - th[..., 1]
    valid = ~np.isnan(delta)
    undefined = int(reps - valid.sum())
    if undefined:
        warnings.warn(
            f"{undefined} of {reps} bootstrap replicates were undefined (resampled q0* + q1* <= "
            "1, judge no better than chance) and are excluded; the interval conditions on an "
            "informative judge and may be too narrow",
            SamplingWarning,
            stacklevel=4,
        )
    d = delta[valid]
    if d.size == 0:
        raise NotInformativeError("every bootstrap replicate was undefined (q0* + q1* <= 1)")
    alpha = 1.0 - c["confidence_level"]
    low, high = np.quantile(d, [alpha / 2.0, 1.0 - alpha / 2.0])
    below, above = np.count_nonzero(d <= 0), np.count_nonzero(d >= 0)
    pvalue = min(1.0, 2.0 * (1.0 + min(below, above)) / (1.0 + d.size))
    ci = _interval(low, high, c, undefined=undefined, n_resamples=reps)
    return Comparison(
        estimate=ea - eb,
        ci=ci,
        estimate_a=ea,
        estimate_b=eb,
        pvalue=pvalue,
        prob_a_greater=None,
        standard_error=float(np.std(d, ddof=1)) if d.size > 1 else None,
        **c,
    )


def _difference_bayes(c: dict, draws: int, gen: np.random.Generator, priors: Any) -> Comparison:
    a = _arrays(c["test_a"], c["calibration_a"])
    b = _arrays(c["test_b"], c["calibration_b"])
    cals = [a] if c["shared_calibration"] else [a, b]
    groups = [0, 0] if c["shared_calibration"] else [0, 1]
    th, w = _posterior_draws([a, b], groups, cals, draws, gen, priors)
    _warn_low_ess(float(_effective_draws(w)), draws, stacklevel=5)
    delta = th[:, 0] - th[:, 1]
    alpha = 1.0 - c["confidence_level"]
    low, high = weighted_quantile(delta, w, [alpha / 2.0, 1.0 - alpha / 2.0])
    prob = float(np.sum(w * ((delta > 0) + 0.5 * (delta == 0))))
    ea, eb = float(np.sum(w * th[:, 0])), float(np.sum(w * th[:, 1]))
    sd = float(np.sqrt(np.sum(w * (delta - (ea - eb)) ** 2)))
    return Comparison(
        estimate=ea - eb,
        ci=_interval(float(low), float(high), c),
        estimate_a=ea,
        estimate_b=eb,
        pvalue=None,
        prob_a_greater=prob,
        standard_error=sd,
        **c,
    )


def _difference_mover(c: dict, rng: Any, options: dict[str, Any]) -> Comparison:
    method, design = c["method"], c["calibration_design"]
    spec = get_method(method, design)
    gen = check_rng(rng)
    points, bounds = [], []
    for side in ("a", "b"):
        test, cal = c[f"test_{side}"], c[f"calibration_{side}"]
        if spec.requires_informative:
            _require_informative(cal, f"cal_{side}", adjusted=False)
        bnd = compute_bounds(
            test, cal, method=method, confidence_level=c["confidence_level"], rng=gen,
            design=design, **options,
        )  # fmt: skip
        if np.isnan(bnd.low).any() or np.isnan(bnd.high).any():
            raise NotInformativeError(
                f"the {method!r} interval of model {c['names'][side == 'b']!r} is undefined for "
                "these counts (judge no better than chance after the method's adjustment)"
            )
        if bnd.estimate is None:
            points.append(float(clip_warned(rogan_gladen_counts(test, cal), stacklevel=5)))
        else:
            points.append(float(bnd.estimate))
        bounds.append((float(bnd.low), float(bnd.high)))
    (la, ua), (lb, ub) = bounds
    ea, eb = points
    est = ea - eb
    low = est - np.hypot(ea - la, ub - eb)
    high = est + np.hypot(ua - ea, eb - lb)
    return Comparison(
        estimate=est,
        ci=_interval(low, high, c),
        estimate_a=ea,
        estimate_b=eb,
        pvalue=None,
        prob_a_greater=None,
        standard_error=None,
        **c,
    )


# ============================================================================ ranking
def kendall_tau(truth: Any, estimates: Any) -> np.ndarray:
    """Kendall's τ-b between a reference ordering and estimates, vectorised over rows.

    Parameters
    ----------
    truth : array_like, shape (K,)
        Reference values (e.g. the human rates); ties allowed.
    estimates : array_like, shape (..., K)
        Estimates per row; rows with a NaN give NaN.

    Returns
    -------
    ndarray of shape (...)
        τ-b = (concordant − discordant) / √(pairs untied in truth · pairs untied in estimate);
        NaN where either has no untied pair.
    """
    t = np.asarray(truth, dtype=float)
    e = np.asarray(estimates, dtype=float)
    iu = np.triu_indices(t.shape[-1], k=1)
    st = np.sign(t[iu[0]] - t[iu[1]])
    se = np.sign(e[..., iu[0]] - e[..., iu[1]])
    num = np.sum(st * se, axis=-1)
    den = np.sqrt(np.count_nonzero(st) * np.sum(se != 0, axis=-1).astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return np.where(np.isnan(e).any(axis=-1), np.nan, out)


def _ranks_with_random_ties(theta: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """Rank positions 0 (best) .. K−1 per row; exact ties broken at random."""
    key = gen.random(theta.shape)
    order = np.lexsort((key, -theta), axis=-1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(theta.shape[-1])[None, :], axis=-1)
    return ranks


def _rank_arms(tests, cal_map, shared):
    models = tuple(tests)
    arms = [_arrays(tests[k], cal_map[k]) for k in models]
    if shared:
        return arms, [arms[0]], [0] * len(models)
    return arms, arms, list(range(len(models)))


def _rank_bootstrap(tests, cal_map, shared, reps, gen):
    """Joint bootstrap draws (R, K) of the clipped RG estimates, equal weights, RG points."""
    models = tuple(tests)
    for k in models if not shared else models[:1]:
        who = "calibrations" if shared else f"calibrations[{k!r}]"
        _require_informative(cal_map[k], who, adjusted=False)
    point = clip_warned([rogan_gladen_counts(tests[k], cal_map[k]) for k in models], stacklevel=4)
    arms, cals, groups = _rank_arms(tests, cal_map, shared)
    th = _bootstrap_thetas(arms, groups, cals, reps, gen)
    valid = ~np.isnan(th).any(axis=-1)
    undefined = int(reps - valid.sum())
    if undefined:
        warnings.warn(
            f"{undefined} of {reps} bootstrap replicates had an undefined estimate for some "
            "model (resampled q0* + q1* <= 1) and are excluded",
            SamplingWarning,
            stacklevel=3,
        )
    if not valid.any():
        raise NotInformativeError("every bootstrap replicate was undefined (q0* + q1* <= 1)")
    th = th[valid]
    return th, np.full(th.shape[0], 1.0 / th.shape[0]), point, undefined, float(th.shape[0])


def _rank_posterior(tests, cal_map, shared, draws, gen, priors):
    """Posterior draws (R, K) with their weights, posterior-mean points."""
    arms, cals, groups = _rank_arms(tests, cal_map, shared)
    th, w = _posterior_draws(arms, groups, cals, draws, gen, priors)
    effective = float(_effective_draws(w))
    _warn_low_ess(effective, draws, stacklevel=4)
    return th, w, np.sum(w[:, None] * th, axis=0), 0, effective


def _rank_design(tests, cal_map, design, method, reps, gen):
    """Independent draws (R, K) of each model's judge-conditional θ under ``design``."""
    from .design_posterior import posterior_draws
    from .designs import bootstrap_draws, judge_conditional

    models = tuple(tests)
    draw = bootstrap_draws if method == "bootstrap" else posterior_draws
    th = np.concatenate([draw(tests[k], cal_map[k], design, reps, gen) for k in models], axis=1)
    point = (
        np.array([float(judge_conditional(tests[k], cal_map[k], design)[0]) for k in models])
        if method == "bootstrap" else th.mean(axis=0)
    )  # fmt: skip
    return th, np.full(reps, 1.0 / reps), point, 0, float(reps)


def _rank_summary(th, w, point, level, gen) -> dict[str, Any]:
    """Rank probabilities, pairwise P(θ_i > θ_j), point order, Kendall τ and quantiles."""
    k = th.shape[-1]
    ranks = _ranks_with_random_ties(th, gen)
    rank_prob = np.stack([np.sum(w[:, None] * (ranks == r), axis=0) for r in range(k)], axis=1)
    gt = (th[:, :, None] > th[:, None, :]) + 0.5 * (th[:, :, None] == th[:, None, :])
    pairwise = np.einsum("r,rij->ij", w, gt)
    np.fill_diagonal(pairwise, np.nan)
    point_order = np.lexsort((np.arange(k), -point))
    point_rank = np.empty(k)
    point_rank[point_order] = np.arange(k)
    tau = kendall_tau(-point_rank, -ranks.astype(float))
    alpha = 1.0 - level
    return {
        "rank_probabilities": rank_prob,
        "pairwise": pairwise,
        "order": point_order,
        "kendall_tau": float(np.sum(w * tau)),
        "q": weighted_quantile(th, w[:, None], [alpha / 2.0, 1.0 - alpha / 2.0]),
    }


def rank(
    tests: Mapping[str, JudgedCounts],
    calibrations: Mapping[str, ConfusionCounts] | ConfusionCounts,
    *,
    method: str = "bootstrap",
    n_resamples: int = 10_000,
    draws: int = 10_000,
    confidence_level: float = 0.95,
    rng: Any = None,
    priors: Any = None,
    reps: int | None = None,
    design: str = DEFAULT_DESIGN,
) -> Ranking:
    """Rank judged models by their corrected rates, with rank probabilities.

    Draws the K corrected rates jointly — by a parametric bootstrap of every binomial count
    (``"bootstrap"``) or from the joint posterior (``"bayes"``, see :func:`difference`) —
    and summarises the ranking they induce.

    Parameters
    ----------
    tests : mapping of str to JudgedCounts
        Each model's judged test counts, keyed by model name.
    calibrations : mapping of str to ConfusionCounts, or one ConfusionCounts
        Each model's calibration counts (same keys as ``tests``), or one set shared by all
        models (then the resampled q's are shared across models in every draw).
    method : {"bootstrap", "bayes"}
        Joint resampling scheme (see :func:`difference`).
    n_resamples : int, default 10000
        ``"bootstrap"``: joint bootstrap replicates.
    draws : int, default 10000
        ``"bayes"``: posterior draws.
    confidence_level : float, default 0.95
        Level of the per-model intervals (percentile or equal-tailed credible).
    rng : None, int, SeedSequence or Generator
        Source of randomness (draws and the random tie-breaking of equal draws).
    priors : judgestats.Priors, optional
        ``"bayes"`` only: Beta priors (flat by default).
    reps : int, optional
        Deprecated: the old name of ``n_resamples`` (bootstrap) and ``draws`` (bayes).
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How each model's calibration items were chosen. Under the other designs (a
        calibration set per model) each model's judge-conditional θ is drawn independently:
        by its parametric bootstrap (``"bootstrap"``) or from its exact posterior with
        Jeffreys' priors (``"bayes"``).

    Returns
    -------
    Ranking
        ``estimate`` per model (clipped Rogan–Gladen θ̂ for ``"bootstrap"``, the posterior mean
        for ``"bayes"``), ``order`` (best first), ``rank_probabilities`` (rows = models in input
        order, columns = ranks 1..K; rows and columns each sum to 1), ``pairwise``
        (P(θ_i > θ_j), ties counted one half), ``expected_kendall_tau`` (mean τ between a
        drawn ranking and the point ranking), per-model ``ci``; ``plot()`` draws a leaderboard.

    Raises
    ------
    ArgumentTypeError
        If ``tests`` is not a mapping of JudgedCounts or a calibration is not ConfusionCounts.
    ModelKeyError
        If fewer than two models are given, or ``calibrations`` does not have exactly the keys
        of ``tests`` (a model without calibration set, or a calibration for an unknown model).
    NotInformativeError
        ``"bootstrap"`` only: a calibration set has q̂0 + q̂1 <= 1.
    MethodError
        If ``method`` is not ``"bootstrap"`` or ``"bayes"``.

    Warns
    -----
    SamplingWarning
        Bootstrap replicates with an undefined estimate (excluded, counted in ``undefined``),
        or a low effective sample of the posterior draws.
    """
    tests = check_model_mapping("tests", tests, JudgedCounts, minimum=2)
    shared = isinstance(calibrations, ConfusionCounts)
    if shared:
        _single("calibrations", calibrations, ConfusionCounts)
        cal_map = dict.fromkeys(tests, calibrations)
    else:
        cal_map = check_model_mapping("calibrations", calibrations, ConfusionCounts)
        check_model_keys("tests", tests, "calibrations", cal_map)
    check_method(method, RANK_METHODS, capability="rankings")
    if reps is not None:
        warn_deprecated("rank(reps=...)", "n_resamples= (bootstrap) or draws= (bayes)")
        n_resamples = draws = reps
    reps = check_positive_int(
        "n_resamples" if method == "bootstrap" else "draws",
        n_resamples if method == "bootstrap" else draws,
        minimum=100,
    )
    level = _scalar_level(confidence_level)
    if priors is not None and method != "bayes":
        raise ArgumentTypeError("priors= applies to method='bayes' only")
    gen = check_rng(rng)
    models = tuple(tests)
    if check_design(design) != DEFAULT_DESIGN:
        if shared or priors is not None:
            raise JudgeStatsError(
                f"design={design!r} ranks models with a calibration set each and Jeffreys' "
                "priors: a shared calibration set or priors= need design='by-human-label'"
            )
        th, w, point, undefined, effective = _rank_design(tests, cal_map, design, method,
                                                          reps, gen)  # fmt: skip
    elif method == "bootstrap":
        th, w, point, undefined, effective = _rank_bootstrap(tests, cal_map, shared, reps, gen)
    else:
        th, w, point, undefined, effective = _rank_posterior(
            tests, cal_map, shared, reps, gen, priors
        )
    summary = _rank_summary(th, w, point, level, gen)
    ci = {
        m: ConfidenceInterval(
            low=float(summary["q"][0, i]),
            high=float(max(summary["q"][0, i], summary["q"][1, i])),
            method=method,
            confidence_level=level,
            undefined=undefined if method == "bootstrap" else 0,
            n_resamples=reps if method == "bootstrap" else None,
        )
        for i, m in enumerate(models)
    }
    return Ranking(
        models=models,
        estimate={m: float(point[i]) for i, m in enumerate(models)},
        naive={m: float(tests[m].p_hat) for m in models},
        ci=ci,
        order=tuple(models[i] for i in summary["order"]),
        rank_probabilities=summary["rank_probabilities"],
        pairwise=summary["pairwise"],
        expected_kendall_tau=summary["kendall_tau"],
        method=method,
        confidence_level=level,
        reps=reps,
        undefined=undefined,
        effective_draws=effective,
        shared_calibration=shared,
        design=design,
    )


# ============================================================================ plot
def plot_ranking(ranking: Ranking, *, ax: Any = None, show_naive: bool = True):
    """Leaderboard figure: corrected rates with intervals, best at the top.

    Each model gets its point estimate with its interval (from the ranking's draws), the naive
    judged rate p̂ as a hollow marker, and P(rank 1) in the label. matplotlib is imported here.
    Returns the Axes.
    """
    import matplotlib.pyplot as plt

    if ax is None:
        height = 1.2 + 0.45 * len(ranking.models)
        _, ax = plt.subplots(figsize=(6.5, height), layout="constrained")
    from .plots import interval_rows

    order = list(ranking.order)
    idx = {m: i for i, m in enumerate(ranking.models)}
    interval_rows(
        ax,
        [f"{m}  (P(rank 1) = {ranking.rank_probabilities[idx[m], 0]:.2f})" for m in order],
        [ranking.estimate[m] for m in order],
        [ranking.ci[m].low for m in order],
        [ranking.ci[m].high for m in order],
        level=f"{100 * ranking.confidence_level:g}%",
        naive=[ranking.naive[m] for m in order] if show_naive else None,
    )
    ax.set_xlabel("rate")
    ax.legend(loc="lower right", fontsize="small")
    ax.set_title(
        f"Ranking by corrected rate ({ranking.method}, expected Kendall τ "
        f"{ranking.expected_kendall_tau:.2f})"
    )
    return ax


# ============================================================================ presentation
# (the result classes in results.py delegate here, so results.py stays small)
def comparison_row(c: Comparison) -> dict[str, Any]:
    """Tidy row of a :class:`Comparison` (plain Python values)."""
    a, b = c.names
    return {
        "model_a": a,
        "model_b": b,
        "estimate": c.estimate,
        "ci_low": c.ci.low,
        "ci_high": c.ci.high,
        "pvalue": c.pvalue,
        "prob_a_greater": c.prob_a_greater,
        "standard_error": c.standard_error,
        "estimate_a": c.estimate_a,
        "estimate_b": c.estimate_b,
        "naive": c.naive,
        "naive_a": float(c.test_a.p_hat),
        "naive_b": float(c.test_b.p_hat),
        "method": c.method,
        "confidence_level": c.confidence_level,
        "shared_calibration": c.shared_calibration,
        "paired": c.paired,
        "n_a": int(c.test_a.n),
        "n_b": int(c.test_b.n),
        "m_a": int(c.calibration_a.m),
        "m_b": int(c.calibration_b.m),
    }


def comparison_summary(c: Comparison) -> str:
    """Short text report of a :class:`Comparison`."""
    a, b = c.names
    lvl = f"{100 * c.confidence_level:g}%"
    w = max(10, len(a), len(b))
    lines = [
        f"Difference of corrected rates {a} − {b} ({c.design}, calibration design "
        f"{c.calibration_design}), {lvl} interval by {c.method}",
        f"  corrected difference  {c.estimate:+.4f}  [{c.ci.low:+.4f}, {c.ci.high:+.4f}]",
        f"  {a:<{w}}  corrected {c.estimate_a:.4f}   naive {float(c.test_a.p_hat):.4f}",
        f"  {b:<{w}}  corrected {c.estimate_b:.4f}   naive {float(c.test_b.p_hat):.4f}",
        f"  naive difference      {c.naive:+.4f}",
    ]
    if c.pvalue is not None:
        lines.append(f"  two-sided p-value of θ_{a} = θ_{b}: {c.pvalue:.4g}")
    if c.prob_a_greater is not None:
        lines.append(f"  posterior P(θ_{a} > θ_{b}) = {c.prob_a_greater:.4f}")
    lines += note_lines(
        c.shared_calibration
        and "with one shared calibration the correction rescales the judged difference by "
        "1/(q0 + q1 − 1); it cannot flip its sign",
        c.ci.undefined_note(),
    )
    return "\n".join(lines)


def comparison_repr(c: Comparison) -> str:
    """Repr of a :class:`Comparison`."""
    if c.pvalue is not None:
        extra = f", pvalue={c.pvalue:.4g}"
    elif c.prob_a_greater is not None:
        extra = f", prob_a_greater={c.prob_a_greater:.4f}"
    else:
        extra = ""
    return (
        f"Comparison(estimate={c.estimate:+.4f}, ci=[{c.ci.low:+.4f}, {c.ci.high:+.4f}], "
        f"method={c.method!r}, confidence_level={c.confidence_level:g}{extra}, "
        f"design={c.design!r}, calibration_design={c.calibration_design!r})"
    )


def ranking_index(r: Ranking, model: Any) -> int:
    """Row of ``model`` in a :class:`Ranking`'s matrices (ModelKeyError if unknown)."""
    from ._validation import ModelKeyError

    if model not in r.models:
        raise ModelKeyError(f"model {model!r} is not ranked; models are {list(r.models)}")
    return r.models.index(model)


def ranking_expected_rank(r: Ranking) -> dict:
    """Return the expected rank (1 = best) of each model of a :class:`Ranking`."""
    k = len(r.models)
    er = np.asarray(r.rank_probabilities) @ np.arange(1, k + 1)
    return {m: float(er[i]) for i, m in enumerate(r.models)}


def ranking_frame(r: Ranking):
    """One row per model in point-ranking order (pandas DataFrame)."""
    import pandas as pd

    er = ranking_expected_rank(r)
    rows = []
    for pos, m in enumerate(r.order, start=1):
        i = ranking_index(r, m)
        row = {
            "rank": pos,
            "model": m,
            "estimate": r.estimate[m],
            "ci_low": r.ci[m].low,
            "ci_high": r.ci[m].high,
            "naive": r.naive[m],
            "expected_rank": er[m],
        }
        for j in range(len(r.models)):
            row[f"p_rank_{j + 1}"] = float(r.rank_probabilities[i, j])
        row.update(method=r.method, confidence_level=r.confidence_level)
        rows.append(row)
    return pd.DataFrame(rows)


def ranking_pairwise_frame(r: Ranking):
    """P(θ_row > θ_column) as a labelled square DataFrame in point-ranking order."""
    import pandas as pd

    idx = [ranking_index(r, m) for m in r.order]
    mat = np.asarray(r.pairwise)[np.ix_(idx, idx)]
    return pd.DataFrame(mat, index=list(r.order), columns=list(r.order))


def ranking_summary(r: Ranking) -> str:
    """Short text leaderboard of a :class:`Ranking`."""
    lvl = f"{100 * r.confidence_level:g}%"
    width = max(8, *(len(m) for m in r.models))
    cal = "one shared calibration set" if r.shared_calibration else "per-model calibration"
    er = ranking_expected_rank(r)
    lines = [
        f"Ranking by corrected rate ({r.method}, {r.reps} draws, {cal}), {lvl} intervals",
        f"  rank  {'model':<{width}}  corrected  [ lower,  upper]   naive  P(rank 1)  E[rank]",
    ]
    for pos, m in enumerate(r.order, start=1):
        i = ranking_index(r, m)
        lines.append(
            f"  {pos:>4}  {m:<{width}}  {r.estimate[m]:9.4f}  [{r.ci[m].low:.4f}, "
            f"{r.ci[m].high:.4f}]  {r.naive[m]:.4f}  {r.rank_probabilities[i, 0]:9.3f}"
            f"  {er[m]:7.2f}"
        )
    lines.append(f"  expected Kendall τ to this ranking: {r.expected_kendall_tau:.3f}")
    lines += note_lines(r.undefined and f"{r.undefined} of {r.reps} bootstrap replicates undefined")
    return "\n".join(lines)


# ============================================================================ batches
def difference_bounds_batch(
    a: dict[str, Any],
    b: dict[str, Any],
    *,
    shared: bool,
    method: str,
    confidence_level: float,
    pairs: tuple[Any, Any, Any, Any] | None = None,
    reps: int = 2000,
    rng: Any = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference intervals for a batch of data sets (no validation; for simulation studies).

    ``a`` and ``b`` map ``x, n, tp, fn, tn, fp`` to arrays of one batch shape (with ``shared``,
    ``b``'s calibration entries are ignored); ``pairs`` = (n11, n10, n01, n00) arrays for paired
    test items. ``method`` is one of :data:`DIFFERENCE_METHODS`; ``reps`` is the number of
    bootstrap replicates or posterior draws. Returns (low, high, estimate) arrays, NaN where the
    interval is undefined (a calibration set with q̂0 + q̂1 <= 1 for the frequentist methods).
    The same kernels as :func:`difference` (which adds validation, warnings and the result).
    """
    check_method(method, DIFFERENCE_METHODS, capability="batched differences")
    a = {k: np.asarray(v, dtype=float) for k, v in a.items()}
    b = {k: np.asarray(v, dtype=float) for k, v in b.items()}
    if shared:
        b = {**b, **{k: a[k] for k in ("tp", "fn", "tn", "fp")}}
    level = float(confidence_level)
    alpha = 1.0 - level
    n11 = None if pairs is None else np.asarray(pairs[0], dtype=float)

    def informative(c):
        with np.errstate(divide="ignore", invalid="ignore"):
            return c["tn"] / (c["tn"] + c["fp"]) + c["tp"] / (c["tp"] + c["fn"]) > 1.0

    ok = informative(a) & informative(b)
    est = _clipped_rg(a) - _clipped_rg(b)
    if method in ("adjusted-wald", "wald"):
        z = float(z_value(level))
        centre, se = _delta_kernel(
            a, b, z=z, adjusted=method == "adjusted-wald", shared=shared, pair_n11=n11
        )
        low, high = centre - z * se, centre + z * se
    else:
        gen = check_rng(rng)
        groups = [0, 0] if shared else [0, 1]
        shape = np.broadcast_shapes(*(np.shape(v) for v in (*a.values(), *b.values())))
        a = {k: np.broadcast_to(v, shape) for k, v in a.items()}
        b = {k: np.broadcast_to(v, shape) for k, v in b.items()}
        size = int(np.prod(shape))
        low, high = np.empty(size), np.empty(size)
        est = np.broadcast_to(est, shape).reshape(-1).copy()
        chunk = max(1, _CHUNK // (4 * reps))
        flat = [{k: v.reshape(-1) for k, v in d.items()} for d in (a, b)]
        pflat = None if pairs is None else [np.broadcast_to(p, shape).reshape(-1) for p in pairs]
        for s in range(0, size, chunk):
            sl = slice(s, min(s + chunk, size))
            ca, cb = ({k: v[sl] for k, v in d.items()} for d in flat)
            cals_s = [ca] if shared else [ca, cb]
            if method == "bootstrap":
                pp = None if pflat is None else tuple(p[sl] for p in pflat)
                with np.errstate(divide="ignore", invalid="ignore"):
                    th = _bootstrap_thetas([ca, cb], groups, cals_s, reps, gen, pairs=pp)
                d = th[..., 0] - th[..., 1]
                q = np.full((2, d.shape[1]), np.nan)
                has = ~np.isnan(d).all(axis=0)
                if has.any():
                    q[:, has] = np.nanquantile(d[:, has], [alpha / 2, 1 - alpha / 2], axis=0)
            else:
                th, w = _posterior_draws([ca, cb], groups, cals_s, reps, gen)
                d = th[..., 0] - th[..., 1]
                q = weighted_quantile(d, w, [alpha / 2, 1 - alpha / 2])
                est[sl] = np.sum(w * d, axis=0)
            low[sl], high[sl] = q[0], q[1]
        low, high, est = (v.reshape(shape) for v in (low, high, est))
    if method != "bayes":
        low, high = np.where(ok, low, np.nan), np.where(ok, high, np.nan)
    return np.clip(low, -1.0, 1.0), np.clip(high, -1.0, 1.0), est


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True, eq=False)
class Comparison(Tabular):
    """Difference θ_A − θ_B of two corrected rates, from :func:`judgestats.compare.difference`.

    Attributes
    ----------
    estimate : float
        θ̂_A − θ̂_B of the clipped Rogan–Gladen estimates (the posterior mean for ``"bayes"``).
    ci : ConfidenceInterval
        Interval for θ_A − θ_B from ``method`` at ``confidence_level``, truncated to [−1, 1].
    estimate_a, estimate_b : float
        The two corrected rates (posterior means for ``"bayes"``).
    naive : float
        p̂_A − p̂_B, the uncorrected judged difference.
    pvalue : float or None
        Two-sided p-value of H0: θ_A = θ_B (None for ``"bayes"`` and MOVER methods).
    prob_a_greater : float or None
        Posterior P(θ_A > θ_B) (``"bayes"`` only).
    standard_error : float or None
        Delta-method standard error (at the adjusted values for ``"adjusted-wald"``), the
        bootstrap or the posterior standard deviation; None for MOVER methods.
    test_a, test_b, calibration_a, calibration_b
        The data (``calibration_b is calibration_a`` when the calibration is shared).
    shared_calibration, paired : bool
        The design; ``pair_counts`` = (n11, n10, n01, n00) of the paired judge labels or None.
    method, confidence_level, names
        How the interval was computed, and the two models' labels.
    calibration_design : str
        How the calibration items were chosen (``design=`` of :func:`difference`,
        :mod:`judgestats.designs`); under ``"random"`` and ``"by-judge-label"`` each model's
        judge-conditional interval, combined by MOVER. (``design`` says how the two models
        share calibration and test items.)
    """

    kind: ClassVar[str] = "comparison"

    estimate: float
    ci: ConfidenceInterval
    estimate_a: float
    estimate_b: float
    naive: float
    pvalue: float | None
    prob_a_greater: float | None
    standard_error: float | None
    test_a: JudgedCounts
    test_b: JudgedCounts
    calibration_a: ConfusionCounts
    calibration_b: ConfusionCounts
    shared_calibration: bool
    paired: bool
    pair_counts: tuple[int, int, int, int] | None
    method: str
    confidence_level: float
    names: tuple[str, str] = ("A", "B")
    calibration_design: str = DEFAULT_DESIGN

    @property
    def design(self) -> str:
        """``"shared calibration"`` or ``"independent calibrations"``, plus paired items."""
        base = "shared calibration" if self.shared_calibration else "independent calibrations"
        return base + (", paired test items" if self.paired else "")

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict of the tidy row (JSON-serialisable)."""
        return comparison_row(self)

    def _records(self) -> list[dict[str, Any]]:
        return [self.to_dict()]

    def summary(self) -> str:
        """Return a short human-readable report."""
        return comparison_summary(self)

    def __repr__(self) -> str:
        return comparison_repr(self)


@dataclass(frozen=True, slots=True, eq=False)
class Ranking:
    """Ranking of judged models by corrected rate, from :func:`judgestats.compare.rank`.

    Attributes
    ----------
    models : tuple of str
        Model names in input order; rows of the matrices below follow it.
    estimate, naive : dict
        Corrected rate (clipped Rogan–Gladen θ̂, or the posterior mean for ``"bayes"``) and the
        naive judged rate p̂ of each model.
    ci : dict of ConfidenceInterval
        Per-model interval from the joint draws (percentile / equal-tailed credible).
    order : tuple of str
        Point ranking by ``estimate``, best first (ties keep input order).
    rank_probabilities : ndarray, shape (K, K)
        ``[i, r]`` = P(model i is at rank r + 1); rows and columns each sum to 1.
    pairwise : ndarray, shape (K, K)
        ``[i, j]`` = P(θ_i > θ_j) (exact ties count one half; diagonal NaN).
    expected_kendall_tau : float
        Mean Kendall τ between a drawn ranking and the point ranking (1: the point ranking is
        certain).
    method, confidence_level, reps
        How the draws were made; ``undefined`` bootstrap replicates were excluded;
        ``effective_draws`` is the number of usable (for ``"bayes"``: effective
        importance-sampling) draws.
    shared_calibration : bool
        True when one calibration set served every model.
    design : str
        How the calibration items were chosen (:mod:`judgestats.designs`).
    """

    kind: ClassVar[str] = "ranking"

    models: tuple
    estimate: dict
    naive: dict
    ci: dict
    order: tuple
    rank_probabilities: Any
    pairwise: Any
    expected_kendall_tau: float
    method: str
    confidence_level: float
    reps: int
    undefined: int
    effective_draws: float
    shared_calibration: bool
    design: str = DEFAULT_DESIGN

    def prob_greater(self, a: str, b: str) -> float:
        """P(θ_a > θ_b) for two ranked models."""
        return float(self.pairwise[ranking_index(self, a), ranking_index(self, b)])

    @property
    def expected_rank(self) -> dict:
        """Expected rank (1 = best) of each model."""
        return ranking_expected_rank(self)

    def to_dataframe(self) -> pd.DataFrame:
        """One row per model in point-ranking order: rank, estimate, ci, naive, P(rank r)."""
        return ranking_frame(self)

    def pairwise_dataframe(self) -> pd.DataFrame:
        """P(θ_row > θ_column) as a labelled square frame (point-ranking order)."""
        return ranking_pairwise_frame(self)

    def plot(self, *, ax: Any = None, show_naive: bool = True):
        """Leaderboard with P(rank 1) per model and intervals from the draws (returns the Axes)."""
        return plot_ranking(self, ax=ax, show_naive=show_naive)

    def summary(self) -> str:
        """Return the ranking as text: rates, intervals, rank probabilities, expected τ."""
        return ranking_summary(self)

    def __repr__(self) -> str:
        top = ", ".join(f"{m}={self.estimate[m]:.3f}" for m in self.order)
        return (
            f"Ranking({top}; method={self.method!r}, expected_kendall_tau="
            f"{self.expected_kendall_tau:.3f})"
        )

