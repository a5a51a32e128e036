"""Interval bounds of the judge-conditional estimator under the random and by-judge-label designs.

The adjusted-Wald and Wald intervals from the three binomials of :func:`.estimator.design_counts`,
the parametric bootstrap, and the pooled interval over strata; as interval methods (the
``conditional_*`` functions and their weak-regime rules) they are registered by
:mod:`judgestats.intervals`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_positive_int, check_rng
from ..counts import ConfusionCounts, JudgedCounts
from ..kernels import (
    Bounds,
    draw_rate,
    judge_conditional_bounds,
    judge_conditional_parts,
    judge_conditional_raw,
    percentile_nan_last,
    z_value,
)
from .estimator import _conditional, design_counts, judge_conditional
from .posterior import design_posterior_bounds


# ----------------------------------------------------------------------------- intervals
def _parts_bounds(test, calibration, design, confidence_level, *, adjusted: bool) -> Bounds:
    x, n_pi, tp, k1, fn, k0 = design_counts(test, calibration, design)
    est, _ = judge_conditional(test, calibration, design)
    z = z_value(confidence_level)
    low, high = judge_conditional_bounds(x, n_pi, tp, k1, fn, k0, z, adjusted=adjusted)
    if adjusted:  # the add-one interval must hold its own (add-one where inexact) estimate
        low, high = np.minimum(low, est), np.maximum(high, est)
    return Bounds(low, high, np.zeros(np.shape(low), dtype=np.int64), estimate=est)


def adjusted_wald_bounds(test, calibration, design, confidence_level) -> Bounds:
    """θ̃ ± z·se with pseudo-counts (:func:`judgestats.kernels.judge_conditional_parts`)."""
    return _parts_bounds(test, calibration, design, confidence_level, adjusted=True)


def wald_bounds(test, calibration, design, confidence_level) -> Bounds:
    """θ̂ ± z·se at the plain estimates (NaN where a judge class has no calibration item)."""
    out = _parts_bounds(test, calibration, design, confidence_level, adjusted=False)
    no1, no0 = _conditional(design).missing_classes(test, calibration)
    bad = no1 | no0
    return out._replace(low=np.where(bad, np.nan, out.low), high=np.where(bad, np.nan, out.high))


def _bootstrap_parts(test, calibration, design) -> list[np.ndarray]:
    """Flat (π̂, PPV̂, FOR̂, n_π, k1, k0) with the 1/2 rate (and one item) of an empty class."""
    x, n, tp, k1, fn, k0 = design_counts(test, calibration, design)
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = [x / n, np.where(k1 > 0, tp / k1, 0.5), np.where(k0 > 0, fn / k0, 0.5)]
    return [np.reshape(a, -1) for a in (*rates, n, np.maximum(k1, 1), np.maximum(k0, 1))]


def _bootstrap_thetas(parts: list[np.ndarray], reps: int, gen: np.random.Generator):
    """θ* of ``reps`` parametric-bootstrap draws of the three binomials: (reps, batch)."""
    pi, ppv, fo, nn, kk1, kk0 = parts
    draws = [draw_rate(gen, r, s, (reps, pi.size))
             for r, s in ((pi, nn), (ppv, kk1), (fo, kk0))]  # fmt: skip
    return judge_conditional_raw(*draws)


def bootstrap_draws(test, calibration, design, reps: int, gen: np.random.Generator):
    """Parametric-bootstrap draws θ* of the judge-conditional estimate, shape (reps, batch)."""
    return _bootstrap_thetas(_bootstrap_parts(test, calibration, design), reps, gen)


def bootstrap_bounds(
    test, calibration, design, confidence_level, *, rng: Any = None, n_resamples: int = 9999
) -> Bounds:
    """Parametric percentile bootstrap of the three binomials (π, PPV, FOR).

    A judge class without calibration items is resampled at rate 1/2 (as it enters
    :func:`judge_conditional`), so no replicate is undefined.
    """
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    gen = check_rng(rng)
    est, _ = judge_conditional(test, calibration, design)
    flat = _bootstrap_parts(test, calibration, design)
    shape = np.shape(est)
    alpha = 1.0 - np.broadcast_to(np.asarray(confidence_level, float), shape).reshape(-1)
    size = flat[0].size
    low, high = np.empty(size), np.empty(size)
    chunk = max(1, 4_000_000 // n_resamples)
    for start in range(0, size, chunk):
        sl = slice(start, min(start + chunk, size))
        th = np.sort(_bootstrap_thetas([a[sl] for a in flat], n_resamples, gen), axis=0)
        valid = np.full(th.shape[1], n_resamples)
        low[sl] = percentile_nan_last(th, valid, alpha[sl] / 2.0)
        high[sl] = percentile_nan_last(th, valid, 1.0 - alpha[sl] / 2.0)
    return Bounds(low.reshape(shape), high.reshape(shape), np.zeros(shape, dtype=np.int64),
                  n_resamples, estimate=est)  # fmt: skip


# ----------------------------------------------------------------------------- strata
def stratified_bounds(
    test: JudgedCounts, calibration: ConfusionCounts, weights: Any, design: str,
    confidence_level: float, *, adjusted: bool = True,
) -> tuple[float, float, float]:  # fmt: skip
    """Pooled judge-conditional estimate and interval over strata (strata on the last axis).

    θ̂ = Σ_s w_s θ̂_s with each stratum's judge-conditional θ̂_s. ``weights=None`` estimates
    the mix from the judged items, w_s = N_s/N (N_s = n_s + m_s under ``"random"``, n_s under
    ``"by-judge-label"``), and adds its sampling variance; given weights are fixed. With the
    per-stratum parts of :func:`judgestats.kernels.judge_conditional_parts`,

        Var = Σ_s w_s² V_s + [mix estimated] Σ_s w_s (θ_s − Σ_t w_t θ_t)² / N,

    the interval is Σ_s w_s θ_s ± z·√Var (θ_s the pseudo-count estimates when ``adjusted``),
    truncated to [0, 1] and widened to hold θ̂. Returns (θ̂, low, high).
    """
    x, n_pi, tp, k1, fn, k0 = design_counts(test, calibration, design)
    z = float(z_value(confidence_level))
    parts = judge_conditional_parts(x, n_pi, tp, k1, fn, k0, z, adjusted=adjusted)
    est_s, _ = judge_conditional(test, calibration, design)
    if weights is None:
        w = n_pi / n_pi.sum()
        mix = np.sum(w * (parts["theta"] - np.sum(w * parts["theta"])) ** 2) / n_pi.sum()
    else:
        w, mix = np.asarray(weights, dtype=float), 0.0
    centre = float(np.sum(w * parts["theta"]))
    half = z * float(np.sqrt(np.sum(w**2 * parts["var"]) + mix))
    est = float(np.sum(w * est_s))
    low = min(max(centre - half, 0.0), est)
    high = max(min(centre + half, 1.0), est)
    return est, low, high


# ----------------------------------------------------------------------------- as interval methods
# The implementations :mod:`judgestats.intervals` registers for the judge-conditional family (the
# signature of an interval method, with the design whose π̂ they use) and their weak-regime rules.
def conditional_adjusted_wald(test, calibration, *, confidence_level, design, rng=None) -> Bounds:
    """``method="adjusted-wald"`` of the judge-conditional family (:func:`adjusted_wald_bounds`)."""
    return adjusted_wald_bounds(test, calibration, design, confidence_level)


def conditional_wald(test, calibration, *, confidence_level, design, rng=None) -> Bounds:
    """``method="wald"`` of the judge-conditional family (:func:`wald_bounds`)."""
    return wald_bounds(test, calibration, design, confidence_level)


def conditional_bootstrap(
    test, calibration, *, confidence_level, design, rng=None, n_resamples: int = 9999
) -> Bounds:
    """``method="bootstrap"`` of the judge-conditional family (:func:`bootstrap_bounds`)."""
    return bootstrap_bounds(
        test, calibration, design, confidence_level, rng=rng, n_resamples=n_resamples
    )


def conditional_bayes(
    test, calibration, *, confidence_level, design, rng=None, point: str = "mean",
    interval: str = "eti", prior: Any = (0.5, 0.5),
) -> Bounds:  # fmt: skip
    """``method="bayes"``: the exact posterior under the design (:mod:`.posterior`)."""
    return design_posterior_bounds(
        test, calibration, design, confidence_level, point=point, interval=interval,
        prior=prior,
    )


def judge_class_missing(calibration: ConfusionCounts, test: Any, design: Any) -> np.ndarray:
    """Mask a judge class with weight in π̂ but no calibration item (its rate enters as 1/2)."""
    if test is None:
        k1 = np.asarray(calibration.tp + calibration.fp)
        k0 = np.asarray(calibration.fn + calibration.tn)
        return (k1 == 0) | (k0 == 0)
    return judge_conditional(test, calibration, design)[1]


def conditional_degenerate(calibration: ConfusionCounts, test: Any, design: Any) -> np.ndarray:
    """Mask the plug-in rule: π̂, PPV̂ or FOR̂ equal to 0 or 1, or a judge class missing."""
    c = calibration
    out = judge_class_missing(c, test, design)
    for a in (c.tp, c.fp, c.fn, c.tn):
        out = out | (np.asarray(a) == 0)
    if test is not None:
        x, n = np.asarray(test.positive), np.asarray(test.n)
        out = out | (x == 0) | (x == n)
    return out
