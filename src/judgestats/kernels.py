"""The paper's formulas, each written once: pure numpy on arrays of rates and counts.

Every other module calls these; none validates (the public entry points do). Notation as in the
paper: p̂ = positive/n on the test set, q̂0 = tn/m0 (specificity) and q̂1 = tp/m1 (sensitivity)
on the calibration set, z = Φ⁻¹(1 − α/2).

======================================  ============================================================
function                                formula
======================================  ============================================================
:func:`rogan_gladen_raw`                eq. (7): θ̂ = (p̂ + q̂0 − 1)/(q̂0 + q̂1 − 1),
                                        unclipped
:func:`delta_parts`                     eq. (15) at p̂, q̂ (plain) or eq. (8)'s adjusted p̃, q̃0, q̃1,
                                        θ̃, dθ̃
:func:`rogan_gladen_variance`           eq. (var): Var(θ̂) by the delta method
:func:`adjusted_wald_bounds`            eq. (8), truncated to [0, 1], with the documented boundary
                                        rule
:func:`wald_bounds`                     θ̂ ± z·√Var(θ̂)
:func:`wilson_bounds`                   Wilson score interval of one binomial proportion
:func:`draw_rates`                      the three-binomial parametric bootstrap draw (p*, q0*, q1*)
:func:`g_statistic`                     likelihood-ratio (G) statistic of a two-way table of counts
                                        (or of a stack of tables)
:func:`newcombe_bounds`                 Newcombe's hybrid score interval for a difference of two
                                        proportions (from two Wilson intervals)
:func:`percentile_nan_last`             linear-interpolation percentile of sorted draws (NaN last)
:func:`judge_conditional_raw`           θ = π·PPV + (1 − π)·FOR, the paper's conditional-calibration
                                        estimator (estimator table, row iv) with π from the judged
                                        items
:func:`judge_conditional_parts`         its delta-method variance, plain or with pseudo-counts
:func:`judge_conditional_bounds`        θ̃ ± z·se with the pseudo-counts (the random and
                                        by-judge-label designs' "adjusted-wald" interval), truncated
                                        to [0, 1]
:func:`judge_conditional_categories`    the same for K human categories and J judge letters: θ = Rᵀπ
                                        with R[j] = P(human | judge = j), and its covariance
======================================  ============================================================

The judge-conditional formulas take three binomials: π = P(judge = 1) from ``x`` of ``n_pi``
judged items, PPV = P(human = 1 | judge = 1) from ``tp`` of ``k1`` = tp + fp calibration items
the judge labelled 1, and FOR = P(human = 1 | judge = 0) from ``fn`` of ``k0`` = fn + tn.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

__all__ = [
    "BOUNDARY_RULES",
    "Bounds",
    "adjusted_wald_bounds",
    "clip_unit",
    "clopper_pearson_bounds",
    "delta_parts",
    "delta_se",
    "draw_rate",
    "draw_rates",
    "g_statistic",
    "judge_conditional_bounds",
    "judge_conditional_categories",
    "judge_conditional_parts",
    "judge_conditional_raw",
    "newcombe_bounds",
    "percentile_nan_last",
    "rogan_gladen_raw",
    "rogan_gladen_variance",
    "wald_bounds",
    "wilson_bounds",
    "z_value",
]

#: What the adjusted-Wald interval does when it lies entirely outside [0, 1].
BOUNDARY_RULES = ("widen", "truncate")


class Bounds(NamedTuple):
    """Batch output of an interval method: bounds and undefined-replicate counts.

    Examples
    --------
    What :func:`judgestats.intervals.compute_bounds` (and every interval method) returns, one entry
    per data set:

    >>> import judgestats as js
    >>> bounds = js.intervals.compute_bounds(js.JudgedCounts(positive=600, n=1000),
    ...                                      js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
    ...                                      method="wald", confidence_level=0.95)
    >>> bounds._fields[:4], round(float(bounds.low), 4), round(float(bounds.high), 4)
    (('low', 'high', 'undefined', 'n_resamples'), 0.419, 0.581)
    """

    low: np.ndarray
    high: np.ndarray
    undefined: np.ndarray  # per data set: bootstrap replicates with no estimate (0 otherwise)
    n_resamples: int | None = None
    #: A method that comes with its own point estimate (e.g. a posterior mean) sets it here;
    #: ``None`` means the point estimate is the clipped Rogan–Gladen θ̂.
    estimate: np.ndarray | None = None
    #: per data set: True where a boundary rule replaced a collapsed (zero-width) interval
    widened: np.ndarray | None = None
    #: repeated items: what the clusters did (a :class:`judgestats.repeated.ClusterSummary`)
    clusters: Any = None


def z_value(confidence_level: Any) -> Any:
    """Two-sided normal quantile z = Φ⁻¹(1 − α/2) with α = 1 − confidence_level.

    Examples
    --------
    >>> import judgestats as js
    >>> round(float(js.intervals.z_value(0.95)), 4)
    1.96
    >>> js.intervals.z_value([0.9, 0.99]).round(4)
    array([1.6449, 2.5758])
    """
    from scipy.special import ndtri  # lazy: keeps `import judgestats` light

    return ndtri(1.0 - (1.0 - np.asarray(confidence_level, dtype=float)) / 2.0)


def rogan_gladen_raw(p: Any, q0: Any, q1: Any) -> np.ndarray:
    """Unclipped θ̂ = (p + q0 − 1)/(q0 + q1 − 1) (eq. (7)); NaN where q0 + q1 <= 1."""
    p, q0, q1 = (np.asarray(a, dtype=float) for a in (p, q0, q1))
    den = q0 + q1 - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, (p + q0 - 1.0) / den, np.nan)


def clip_unit(raw: Any) -> tuple[np.ndarray, np.ndarray]:
    """(θ̂ clipped to [0, 1], mask of the entries that were outside); NaN stays NaN."""
    raw = np.asarray(raw, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.clip(raw, 0.0, 1.0), (raw < 0.0) | (raw > 1.0)


def delta_parts(p, q0, q1, n, m0, m1, z, *, adjusted: bool = True) -> dict[str, np.ndarray]:
    """Pieces of the delta-method interval for θ on arrays (``n`` may be ``inf``).

    ``adjusted=True``: eq. (8)'s adjusted quantities (Lang & Reiczigel's "add two successes and
    two failures"): ñ = n + z², p̃ = (n p̂ + z²/2)/ñ, m̃ = m + 2, q̃0 = (m0 q̂0 + 1)/m̃0,
    q̃1 = (m1 q̂1 + 1)/m̃1, θ̃ = (p̃ + q̃0 − 1)/(q̃0 + q̃1 − 1) and the centre shift
    dθ̃ = 2z²(−(1 − θ̃) v0 + θ̃ v1) (as printed in the paper: not divided by the denominator²).
    ``adjusted=False``: the same pieces at p̂, q̂0, q̂1, n, m (eq. (15)), with no shift.

    Returns a dict with ``p``, ``n`` (ñ or n; a placeholder 1 where n = inf), ``var_p``
    (= p(1 − p)/n, 0 where n = inf), ``q0``, ``q1``, ``v0`` = q0(1 − q0)/m0,
    ``v1`` = q1(1 − q1)/m1, ``den`` = q0 + q1 − 1 (NaN where <= 0), ``theta`` and ``shift``.
    """
    p, q0, q1, n, m0, m1, z = (np.asarray(a, dtype=float) for a in (p, q0, q1, n, m0, m1, z))
    finite = np.isfinite(n)
    nf = np.where(finite, n, 1.0)  # placeholder where n = inf (test noise vanishes)
    with np.errstate(divide="ignore", invalid="ignore"):
        if adjusted:
            z2 = z * z
            n_e = nf + z2
            p = np.where(finite, (nf * p + z2 / 2.0) / n_e, p)
            m0_e, m1_e = m0 + 2.0, m1 + 2.0
            q0 = (m0 * q0 + 1.0) / m0_e
            q1 = (m1 * q1 + 1.0) / m1_e
        else:
            n_e, m0_e, m1_e = nf, m0, m1
        var_p = np.where(finite, p * (1.0 - p) / n_e, 0.0)
        den = q0 + q1 - 1.0
        den = np.where(den > 0, den, np.nan)
        theta = (p + q0 - 1.0) / den
        v0 = q0 * (1.0 - q0) / m0_e
        v1 = q1 * (1.0 - q1) / m1_e
        shift = 2.0 * z * z * (-(1.0 - theta) * v0 + theta * v1) if adjusted else 0.0 * theta
    return {
        "p": p, "n": n_e, "var_p": var_p, "q0": q0, "q1": q1, "v0": v0, "v1": v1,
        "den": den, "theta": theta, "shift": shift,
    }  # fmt: skip


def delta_se(parts: dict[str, np.ndarray], theta: Any = None, corr: Any = None) -> np.ndarray:
    """√[Var(p) + (1 − θ)² v0 + θ² v1]/den: the standard error of eqs. (15)/(8) at ``theta``.

    ``parts`` from :func:`delta_parts`; ``theta`` defaults to its θ (θ̃ or θ̂). ``corr``: the
    correlations (r_p0, r_p1, r_01) of p̂, q̂0, q̂1 when they share sampling units (repeated
    items whose rows fall in several cells, :mod:`judgestats.repeated`); the gradient of θ is
    (1, 1 − θ, −θ)/den, so the bracket gains 2(1 − θ) r_p0 √(Var(p) v0) − 2θ r_p1 √(Var(p) v1)
    − 2θ(1 − θ) r_01 √(v0 v1). ``None``: independent samples (the paper's case).
    """
    th = parts["theta"] if theta is None else theta
    var = parts["var_p"] + (1.0 - th) ** 2 * parts["v0"] + th**2 * parts["v1"]
    if corr is not None:
        var = var + _cross(((1.0, parts["var_p"]), (1.0 - th, parts["v0"]), (-th, parts["v1"])),
                           corr)  # fmt: skip
    return np.sqrt(np.maximum(var, 0.0)) / parts["den"]


def _cross(terms: Any, corr: Any) -> Any:
    """Σ_{a<b} 2 g_a g_b r_ab √(V_a V_b) over three (gradient, variance) terms; r = (01, 02, 12)."""
    (ga, va), (gb, vb), (gc, vc) = terms
    r_ab, r_ac, r_bc = corr
    return 2.0 * (
        ga * gb * r_ab * np.sqrt(va * vb)
        + ga * gc * r_ac * np.sqrt(va * vc)
        + gb * gc * r_bc * np.sqrt(vb * vc)
    )


def rogan_gladen_variance(p, q0, q1, n, m0, m1) -> np.ndarray:
    """Delta-method Var(θ̂) of eq. (15) at the unclipped θ̂; NaN where q0 + q1 <= 1."""
    parts = delta_parts(p, q0, q1, n, m0, m1, 0.0, adjusted=False)
    return delta_se(parts) ** 2


def adjusted_wald_bounds(
    p, q0, q1, n, m0, m1, z, *, boundary: str = "widen", corr: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Eq. (8) truncated to [0, 1]: (low, high, widened); NaN where q̃0 + q̃1 <= 1.

    The interval is θ̃ + dθ̃ ± z·se. When it lies entirely below 0 (or above 1), truncation
    would leave the single point 0 (or 1), an interval of zero width from finite samples.
    ``boundary="widen"`` then replaces the far bound by z times the standard error at that
    boundary, √(Var(p̃) + v0)/D̃ at θ = 0 and √(Var(p̃) + v1)/D̃ at θ = 1, and flags the data
    set in ``widened``; ``boundary="truncate"`` keeps the paper's truncation. ``corr`` as in
    :func:`delta_se` (repeated items; ``n``, ``m0``, ``m1`` are then effective sizes).
    """
    a = delta_parts(p, q0, q1, n, m0, m1, z)
    z = np.asarray(z, dtype=float)
    half = z * delta_se(a, corr=corr)
    centre = a["theta"] + a["shift"]
    low, high = centre - half, centre + half
    widened = np.zeros(np.shape(low), dtype=bool)
    if boundary == "widen":
        below, above = high <= 0.0, low >= 1.0
        high = np.where(below, z * delta_se(a, 0.0, corr), high)
        low = np.where(above, 1.0 - z * delta_se(a, 1.0, corr), low)
        widened = below | above
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0), widened


def wald_bounds(p, q0, q1, n, m0, m1, z, *, corr: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """θ̂ ± z·√Var(θ̂) (eq. (15)) at the unclipped θ̂, truncated to [0, 1]; NaN where q0 + q1 <= 1.

    ``corr`` as in :func:`delta_se`.
    """
    parts = delta_parts(p, q0, q1, n, m0, m1, z, adjusted=False)
    half = np.asarray(z, dtype=float) * delta_se(parts, corr=corr)
    return np.clip(parts["theta"] - half, 0.0, 1.0), np.clip(parts["theta"] + half, 0.0, 1.0)


def wilson_bounds(k: Any, m: Any, z: Any) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a proportion k/m: (k + z²/2 ± z√(k(m − k)/m + z²/4))/(m + z²).

    The interval of a rate seen directly, ignoring any judge error: the human labels alone
    (what ``res.judge`` compares with under ``design="random"``) or the naive judged rate (the
    ``"naive-wilson"`` contrast of :func:`judgestats.experiments.split_study`). Wilson (1927).

    Parameters
    ----------
    k, m : array_like
        Successes and trials (broadcast together); m > 0.
    z : array_like
        Two-sided normal critical value, e.g. 1.959964 for 95%
        (:func:`judgestats.intervals.z_value`).

    Returns
    -------
    bounds : tuple of numpy.ndarray
        (low, high), clipped to [0, 1]; NaN where m = 0.

    Examples
    --------
    >>> low, high = wilson_bounds(30, 100, 1.959964)
    >>> round(float(low), 4), round(float(high), 4)
    (0.2189, 0.3958)
    """
    k, m, z = (np.asarray(a, dtype=float) for a in (k, m, z))
    z2 = z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        centre = (k + z2 / 2.0) / (m + z2)
        half = z / (m + z2) * np.sqrt(k * (m - k) / m + z2 / 4.0)
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def clopper_pearson_bounds(k: Any, m: Any, confidence_level: Any) -> tuple[np.ndarray, np.ndarray]:
    """Clopper–Pearson (exact) interval for a proportion k/m, α = 1 − confidence_level.

    low = B⁻¹(α/2; k, m − k + 1) (0 where k = 0), high = B⁻¹(1 − α/2; k + 1, m − k) (1 where
    k = m), B⁻¹ the beta quantile (Clopper & Pearson 1934). ``k`` and ``m`` may be fractional
    (a count and size at an effective sample size); NaN where m <= 0.
    """
    from scipy.special import betaincinv  # lazy: keeps `import judgestats` light

    k, m, level = (np.asarray(a, dtype=float) for a in (k, m, confidence_level))
    alpha = 1.0 - level
    ok = m > 0
    k = np.clip(k, 0.0, np.where(ok, m, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        low = np.where(k > 0, betaincinv(np.maximum(k, 1e-300), m - k + 1.0, alpha / 2.0), 0.0)
        high = np.where(k < m, betaincinv(k + 1.0, np.maximum(m - k, 1e-300), 1.0 - alpha / 2.0),
                        1.0)  # fmt: skip
    return np.where(ok, low, np.nan), np.where(ok, high, np.nan)


def draw_rate(gen: np.random.Generator, rate, size_n, size) -> np.ndarray:
    """Bin(size_n, rate)/size_n drawn with output shape ``size`` (the batch shape last)."""
    size_n = np.asarray(size_n, dtype=float)
    return gen.binomial(size_n.astype(np.int64), rate, size=size) / size_n


def draw_rates(gen: np.random.Generator, p, q0, q1, n, m0, m1, size) -> tuple[np.ndarray, ...]:
    """One parametric-bootstrap draw of the three binomials, as rates.

    positive* ~ Bin(n, p), tn* ~ Bin(m0, q0), tp* ~ Bin(m1, q1); returns (p*, q0*, q1*) of
    shape ``size`` (the batch shape last). Counts are integers stored as floats.
    """
    return draw_rate(gen, p, n, size), draw_rate(gen, q0, m0, size), draw_rate(gen, q1, m1, size)


def g_statistic(table: Any) -> Any:
    """Likelihood-ratio (G) statistic 2 Σ O log(O/E) of a two-way table of counts.

    E is the independence expectation from the margins; rows or columns with a zero total
    contribute nothing. Refer it to χ² with (rows − 1)(columns − 1) degrees of freedom,
    counting only rows and columns with a positive total. ``table`` may be a stack of tables
    (..., R, C): then one statistic per table (an array); a single table gives a float.
    """
    table = np.asarray(table, dtype=float)
    total = table.sum(axis=(-2, -1), keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = table.sum(axis=-1, keepdims=True) * table.sum(axis=-2, keepdims=True) / total
        terms = np.where(table > 0, table * np.log(table / expected), 0.0)
    g = np.maximum(0.0, 2.0 * terms.sum(axis=(-2, -1)))
    return float(g) if g.ndim == 0 else g


def newcombe_bounds(k1: Any, m1: Any, k2: Any, m2: Any, z: Any) -> tuple[np.ndarray, np.ndarray]:
    """Newcombe's hybrid score interval for the difference of two proportions p1 − p2.

    With Wilson intervals (l_i, u_i) of p̂_i = k_i/m_i (:func:`wilson_bounds`) and
    d = p̂1 − p̂2: L = d − √((p̂1 − l1)² + (u2 − p̂2)²), U = d + √((u1 − p̂1)² + (p̂2 − l2)²)
    (Newcombe 1998, Statistics in Medicine 17, 873–890, method 10). ``k`` and ``m`` may be
    effective (non-integer) counts. NaN where m1 or m2 is 0.
    """
    k1, m1, k2, m2 = (np.asarray(a, dtype=float) for a in (k1, m1, k2, m2))
    l1, u1 = wilson_bounds(k1, m1, z)
    l2, u2 = wilson_bounds(k2, m2, z)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p2 = k1 / m1, k2 / m2
    d = p1 - p2
    low = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return low, high


def percentile_nan_last(sorted_draws: np.ndarray, valid: np.ndarray, prob: Any) -> np.ndarray:
    """Linear-interpolation percentile along axis 0 of sorted draws whose NaNs sort last."""
    pos = (np.maximum(valid, 1) - 1) * np.asarray(prob, dtype=float)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, np.maximum(valid - 1, 0))
    frac = pos - lo
    a = np.take_along_axis(sorted_draws, lo[None], axis=0)[0]
    b = np.take_along_axis(sorted_draws, hi[None], axis=0)[0]
    out = a + (b - a) * frac
    return np.where(valid > 0, out, np.nan)


# ----------------------------------------------------------------------------- designs
def judge_conditional_raw(pi: Any, ppv: Any, for_: Any) -> np.ndarray:
    """θ = π·PPV + (1 − π)·FOR (law of total probability over the judge's label)."""
    pi, ppv, for_ = (np.asarray(a, dtype=float) for a in (pi, ppv, for_))
    return pi * ppv + (1.0 - pi) * for_


def judge_conditional_parts(x, n_pi, tp, k1, fn, k0, z, *, adjusted: bool = True, corr=None):
    """θ and its delta-method variance from the three binomials (π, PPV, FOR); arrays broadcast.

    Var(θ̂) = (PPV − FOR)² π(1 − π)/n_π + π² PPV(1 − PPV)/k1 + (1 − π)² FOR(1 − FOR)/k0.
    ``adjusted=True`` evaluates it at pseudo-count estimates: π̃ = (x + z²/2)/(n_π + z²)
    (Wilson's centre, ñ_π = n_π + z²) and PPṼ = (tp + 1)/(k1 + 2), FOR̃ = (fn + 1)/(k0 + 2)
    (one success and one failure added, k̃ = k + 2), as Agresti & Caffo (2000) do for sums of
    proportions; they keep the variance positive when a count is 0 or k, and a judge class
    with no calibration items contributes PPṼ = 1/2 with the variance of 2 pseudo-items.
    ``adjusted=False`` is the plain form at π̂ = x/n_π, PPV̂ = tp/k1, FOR̂ = fn/k0 (NaN where
    a denominator is 0). ``corr``: the correlations (r_π,PPV, r_π,FOR, r_PPV,FOR) of the three
    rates when they share sampling units (repeated items, :mod:`judgestats.repeated`), added
    with the gradient (PPV − FOR, π, 1 − π); ``None``: independent (the likelihood factorises).

    Returns a dict with ``pi``, ``ppv``, ``for`` (the rates used), ``theta`` and ``var``.
    """
    x, n_pi, tp, k1, fn, k0, z = (
        np.asarray(a, dtype=float) for a in (x, n_pi, tp, k1, fn, k0, z)
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        if adjusted:
            z2 = z * z
            n_pi, k1, k0 = n_pi + z2, k1 + 2.0, k0 + 2.0
            x, tp, fn = x + z2 / 2.0, tp + 1.0, fn + 1.0
        pi, ppv, for_ = x / n_pi, tp / k1, fn / k0
        v_pi, v_ppv = pi * (1.0 - pi) / n_pi, ppv * (1.0 - ppv) / k1
        v_for = for_ * (1.0 - for_) / k0
        var = (ppv - for_) ** 2 * v_pi + pi**2 * v_ppv + (1.0 - pi) ** 2 * v_for
        if corr is not None:
            var = var + _cross(((ppv - for_, v_pi), (pi, v_ppv), (1.0 - pi, v_for)), corr)
    return {"pi": pi, "ppv": ppv, "for": for_, "theta": judge_conditional_raw(pi, ppv, for_),
            "var": var}  # fmt: skip


def judge_conditional_bounds(x, n_pi, tp, k1, fn, k0, z, *, adjusted: bool = True, corr=None):
    """θ ± z·√Var from :func:`judge_conditional_parts`, truncated to [0, 1]: (low, high)."""
    parts = judge_conditional_parts(x, n_pi, tp, k1, fn, k0, z, adjusted=adjusted, corr=corr)
    half = np.asarray(z, dtype=float) * np.sqrt(np.maximum(parts["var"], 0.0))
    return np.clip(parts["theta"] - half, 0.0, 1.0), np.clip(parts["theta"] + half, 0.0, 1.0)


def judge_conditional_categories(t: Any, c: Any, z: Any, *, adjusted: bool = True):
    """θ = Σ_j π_j R[j] over K human categories and its delta-method covariance.

    ``t`` (J,): judged items per judge letter, from which π_j = t_j/N; ``c`` (J, K):
    calibration counts, rows = judge letter, columns = human category, R[j, k] = c_jk/r_j
    with r_j = Σ_k c_jk. Cov(θ̂) = Rᵀ Σ_π R + Σ_j π_j² Σ_j with Σ_π = (diag π − ππᵀ)/N and
    Σ_j = (diag R[j] − R[j]R[j]ᵀ)/r_j (multinomials, independent given the judge letters).
    ``adjusted=True`` evaluates it at π̃_j = (t_j + z²/J)/(N + z²) and
    R̃[j, k] = (c_jk + a/K)/(r_j + a) with a = min(2, 4/J): the binary case's four
    pseudo-items of the conditional rates (two per judge class, Agresti & Caffo 2000) spread
    over the J letters, so for J = K = 2 exactly :func:`judge_conditional_parts`. Two per
    letter instead would pull θ̃ towards 1/K by up to J/m (m calibration items): with 2^J
    product letters the interval missed a rare rate on one side (0.48 coverage at θ = 0.05,
    16 letters; benchmarks/results/alphabet_random.md). Σ_j's denominator is at least 1, so
    a letter with no calibration item adds π_j²/4 per category (a rate anywhere in [0, 1]),
    R̃[j] uniform. ``adjusted=False``: plain estimates (NaN rows where r_j = 0). Returns
    (θ (K,), covariance (K, K)).
    """
    t, c = np.asarray(t, dtype=float), np.asarray(c, dtype=float)
    n_letters, k = c.shape
    z2 = float(z) ** 2 if adjusted else 0.0
    big_n = t.sum() + z2
    pi = (t + z2 / n_letters) / big_n
    a = min(2.0, 4.0 / n_letters) if adjusted else 0.0
    rows = c.sum(axis=1) + a
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (c + a / k) / rows[:, None]
        if adjusted:
            rows = np.maximum(rows, 1.0)
        cov_pi = (np.diag(pi) - np.outer(pi, pi)) / big_n
        cov = r.T @ cov_pi @ r
        for j in range(n_letters):
            cov = cov + pi[j] ** 2 * (np.diag(r[j]) - np.outer(r[j], r[j])) / rows[j]
    return pi @ r, cov
