"""The pooled θ of a stratified correction and its interval methods, vectorised over batches.

Intervals for the pooled θ (``method``)
---------------------------------------
``"adjusted-wald"`` (default)
    Delta method over independent strata, at the paper's adjusted quantities (eqs. (8) and
    (11)) of every stratum: ñ_s = n_s + z², p̃_s = (n_s p̂_s + z²/2)/ñ_s,
    m̃_ys = m_ys + 2, q̃_ys = (m_ys q̂_ys + 1)/m̃_ys, θ̃_s = (p̃_s + q̃0_s − 1)/(q̃0_s + q̃1_s − 1),

        Ṽ_s = [p̃_s(1 − p̃_s)/ñ_s + (1 − θ̃_s)² q̃0_s(1 − q̃0_s)/m̃0_s + θ̃_s² q̃1_s(1 − q̃1_s)/m̃1_s]
              / (q̃0_s + q̃1_s − 1)²,
        Var = Σ_s w_s² Ṽ_s  +  [weights = "test"] · Σ_s w_s (θ̃_s − Σ_t w_t θ̃_t)² / n,
        centre = Σ_s w_s (θ̃_s + π_s dθ̃_s),      π_s = w_s² Ṽ_s / Σ_t w_t² Ṽ_t,

    and the interval is centre ± z √Var, truncated to [0, 1]; dθ̃_s is the paper's centre
    shift (eq. (12)) of stratum s. Carried over from the adjusted Wald: the
    pseudo-counts (z²/2 per test stratum, one success and one failure per calibration class
    and stratum) and the centre shift, the latter weighted by the stratum's share π_s of the
    pooled variance. The shift corrects the skewness of a single ratio; the skewness of a sum
    of independent strata is diluted, and adding the full per-stratum shifts over-corrects
    (coverage 0.941–0.948 against 0.951–0.954 with π_s in the stress scenarios of
    benchmarks/results/strata.md, section B). With one stratum π = 1 and the interval is
    exactly eq. (8).
    The second variance term is the sampling variance of the test mix itself: with
    w_s = n_s / n estimated from a random test sample and a_s = 1/(q0_s + q1_s − 1),
    b_s = (q0_s − 1) a_s, θ̂ is the mean of the per-item values a_s ẑ + b_s, whose variance
    has a between-strata part Σ_s P(ξ = s) (θ_s − θ)²; with fixed, given
    weights (a target population's mix) it is absent. Without it coverage fell to 0.90 when
    the strata's rates differ a lot (θ_s = 0.05 and 0.95, same section).
``"wald"``
    The same without adjustments: Var = Σ w_s² Var(θ̂_s) with Var(θ̂_s) from paper eq. (15)
    at the unadjusted estimates, plus the mix term, centred at Σ w_s θ̂_s (for comparison).
``"bootstrap"``
    Stratified parametric percentile bootstrap: per replicate, positive*_s ~ Bin(n_s, p̂_s),
    tn*_s ~ Bin(m0_s, q̂0_s), tp*_s ~ Bin(m1_s, q̂1_s) in every stratum, θ* = clip(Σ w_s θ*_s);
    with ``weights="test"`` the stratum sizes are redrawn first, n* ~ Multinomial(n, n_s / n),
    and w*_s = n*_s / n. Replicates where a weighted stratum has q0* + q1* <= 1 are counted,
    excluded and reported (``SamplingWarning``), never dropped silently.

The per-stratum ``Correction`` objects carry the single-stratum interval of the same method
(``"adjusted-wald"``: the paper's eq. (8)). All kernels are vectorised over batches of data
sets with the strata on the last axis (:func:`pooled_bounds`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np

from .. import kernels
from .._validation import (
    JudgeStatsError,
    check_positive_int,
    check_rng,
    warn_deprecated,
)
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import BY_HUMAN_LABEL, DEFAULT_DESIGN, Design
from ..designs.capabilities import methods_for
from ..intervals import CONDITIONAL, PAPER
from ..kernels import percentile_nan_last, rogan_gladen_raw, z_value
from ..spec import EstimationSpec, resolve_spec

__all__ = [
    "PooledBounds",
    "pooled_bounds",
    "pooled_options",
    "pooled_spec",
    "spec_pooled_bounds",
    "stratum_spec",
]


#: The pooled interval implementations of each estimator family (:attr:`Design.family`):
#: method → the options it takes. Which methods a design allows is the capability table's
#: (``judge="letter"``, ``target="pooled-rate"``); every method there has an entry here.
_OPTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    PAPER: {"adjusted-wald": (), "wald": (), "bootstrap": ("n_resamples",)},
    CONDITIONAL: {"adjusted-wald": (), "wald": ()},
}


def pooled_options(design: Design, method: str) -> tuple[str, ...]:
    """Return the options the pooled interval ``method`` takes under ``design``."""
    return _OPTIONS[design.family][method]


def pooled_spec(
    *, method: Any, confidence_level: Any, design: Any = DEFAULT_DESIGN, repeated: bool = False,
    estimand: Any = "rows", options: Any = None, method_optional: bool = False,
) -> EstimationSpec:  # fmt: skip
    """Resolve the spec of a pooled rate over strata (``js.correct_stratified``'s path)."""
    return resolve_spec(
        judge="letter", target="pooled-rate", design=design, method=method,
        confidence_level=confidence_level, repeated=repeated, estimand=estimand,
        options=options, options_of=pooled_options, method_optional=method_optional,
    )  # fmt: skip


def stratum_spec(spec: EstimationSpec) -> EstimationSpec:
    """Return the spec of one stratum's own correction under a pooled spec.

    The same design, method, level, repeated items and options on the rate path: every
    method of a pooled-rate row of the capability table is a method of the rate row
    (``tests/test_strata.py`` checks it).
    """
    return replace(spec, target="rate")


def deprecated_methods(stacklevel: int = 3) -> tuple[str, ...]:
    """Return the value of the removed ``STRATIFIED_METHODS``, with its DeprecationWarning."""
    warn_deprecated("judgestats.strata.STRATIFIED_METHODS",
                    "judgestats.designs.capabilities.methods_for('letter', 'pooled-rate', "
                    "design)", stacklevel=stacklevel + 1)  # fmt: skip
    return methods_for("letter", "pooled-rate", DEFAULT_DESIGN)


def __getattr__(name: str) -> Any:
    if name == "STRATIFIED_METHODS":
        return deprecated_methods()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ============================================================================ batch kernels
class PooledBounds(NamedTuple):
    """Batch output of :func:`pooled_bounds` (batch shape = counts shape without the strata).

    Examples
    --------
    Made by :func:`pooled_bounds`:

    >>> import numpy as np
    >>> import judgestats as js
    >>> test = js.JudgedCounts(positive=np.array([600, 800]), n=np.array([1000, 1000]))
    >>> cal = js.ConfusionCounts(tp=np.array([180, 190]), fn=np.array([20, 10]),
    ...                          tn=np.array([160, 120]), fp=np.array([40, 80]))
    >>> bounds = js.strata.pooled_bounds(test, cal, method="wald", confidence_level=0.95)
    >>> bounds._fields
    ('estimate', 'low', 'high', 'undefined', 'n_resamples')
    """

    estimate: np.ndarray  # Σ_s w_s θ̂_s with unclipped θ̂_s; NaN where a stratum is undefined
    low: np.ndarray
    high: np.ndarray
    undefined: np.ndarray  # bootstrap replicates without an estimate (0 for closed forms)
    n_resamples: int | None = None


def _stratum_arrays(test: JudgedCounts, cal: ConfusionCounts) -> list[np.ndarray]:
    shape = np.broadcast_shapes(test.shape, cal.shape)
    if not shape:
        raise JudgeStatsError(
            "pooled_bounds needs counts with the strata on the last axis, got scalar counts"
        )
    arrays = (test.p_hat, cal.specificity, cal.sensitivity, test.n, cal.m0, cal.m1)
    return [np.broadcast_to(np.asarray(a, dtype=float), shape) for a in arrays]


def _sum_last(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Σ_s w_s x_s over the last axis, with zero-weight strata contributing exactly 0."""
    return np.where(w > 0, w * x, 0.0).sum(axis=-1)


def _delta_bounds(p, q0, q1, n, m0, m1, w, z, *, adjusted: bool, mix: bool):
    """Pooled delta-method bounds (module docstring); NaN where a weighted stratum is undefined."""
    zs = np.asarray(z, dtype=float)[..., None]
    parts = kernels.delta_parts(p, q0, q1, n, m0, m1, zs, adjusted=adjusted)  # per stratum
    th, shift_s = parts["theta"], parts["shift"]  # θ̃_s and dθ̃_s (or θ̂_s and 0)
    var_s = kernels.delta_se(parts) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        contrib = np.where(w > 0, w * w * var_s, 0.0)
        var = contrib.sum(axis=-1)
        share = np.where(var[..., None] > 0, contrib / var[..., None], 0.0)  # π_s
        centre = _sum_last(th + share * shift_s, w)
        if mix:
            bar = _sum_last(th, w)
            var = var + _sum_last((th - bar[..., None]) ** 2, w) / n.sum(axis=-1)
        half = np.asarray(z, dtype=float) * np.sqrt(var)
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def _bootstrap_bounds(p, q0, q1, n, m0, m1, w, level, gen, n_resamples: int, *, mix: bool):
    batch, k = p.shape[:-1], p.shape[-1]
    flat = [a.reshape(-1, k) for a in (p, q0, q1, n, m0, m1, w)]
    size = flat[0].shape[0]
    alpha = 1.0 - np.broadcast_to(np.asarray(level, dtype=float), batch).reshape(-1)
    low, high = np.empty(size), np.empty(size)
    undefined = np.empty(size, dtype=np.int64)
    chunk = max(1, 4_000_000 // (n_resamples * k))
    for start in range(0, size, chunk):
        sl = slice(start, min(start + chunk, size))
        pp, qq0, qq1, nn, mm0, mm1, ww = (a[sl] for a in flat)
        shape = (n_resamples, pp.shape[0], k)
        if mix:  # redraw the test mix: n* ~ Multinomial(n, n_s / n)
            total = nn.astype(np.int64).sum(axis=-1)
            n_star = gen.multinomial(total, nn / total[:, None], size=shape[:2])
            pos = gen.binomial(n_star, pp)
            p_s = pos / np.maximum(n_star, 1)
            w_s = n_star / total[:, None]
        else:
            p_s = kernels.draw_rate(gen, pp, nn, shape)
            w_s = np.broadcast_to(ww, shape)
        q0_s = kernels.draw_rate(gen, qq0, mm0, shape)
        q1_s = kernels.draw_rate(gen, qq1, mm1, shape)
        th_s = rogan_gladen_raw(p_s, q0_s, q1_s)
        bad = ((w_s > 0) & np.isnan(th_s)).any(axis=-1)
        th = np.where(bad, np.nan, np.clip(_sum_last(th_s, w_s), 0.0, 1.0))
        valid = np.count_nonzero(~bad, axis=0)
        th.sort(axis=0)  # NaN last
        a = alpha[sl]
        low[sl] = percentile_nan_last(th, valid, a / 2.0)
        high[sl] = percentile_nan_last(th, valid, 1.0 - a / 2.0)
        undefined[sl] = n_resamples - valid
    return low.reshape(batch), high.reshape(batch), undefined.reshape(batch)


def pooled_bounds(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    *,
    weights: Any = None,
    method: str = "adjusted-wald",
    confidence_level: Any = 0.95,
    rng: Any = None,
    n_resamples: int = 9999,
) -> PooledBounds:
    """Pooled estimate and interval for batches of stratified data sets (strata on the last axis).

    The batch workhorse behind :func:`correct_stratified` and the simulation studies:
    ``test`` and ``calibration`` hold integer arrays of shape (..., S). Counts are validated
    by their classes; ``weights`` are not (use :func:`correct_stratified` for checked input).

    Parameters
    ----------
    test : JudgedCounts
        Batched test counts, strata on the last axis (every n_s >= 1).
    calibration : ConfusionCounts
        Batched calibration counts, strata on the last axis.
    weights : None or array_like, optional
        Fixed stratum weights broadcastable to (..., S), each row summing to 1. ``None``
        (default) uses the test mix w_s = n_s / n and adds its sampling variance.
    method : {"adjusted-wald", "wald", "bootstrap"}
        See the module docstring.
    confidence_level : float or array_like
        Two-sided level(s), broadcastable to the batch shape.
    rng : None, int, SeedSequence or Generator
        For ``"bootstrap"``.
    n_resamples : int, default 9999
        Bootstrap replicates.

    Returns
    -------
    PooledBounds
        ``estimate`` (Σ w_s θ̂_s, unclipped), ``low``, ``high`` (truncated to [0, 1]),
        ``undefined`` (bootstrap replicates without an estimate), each of the batch shape.
        Where a stratum with positive weight has q̂0 + q̂1 <= 1 (or the adjusted q̃0 + q̃1 <= 1)
        every output is NaN.

    Examples
    --------
    The pooled rate's interval from stratum counts held in arrays (one entry per stratum), weighted
    by the test mix:

    >>> import numpy as np
    >>> import judgestats as js
    >>> test = js.JudgedCounts(positive=np.array([600, 800]), n=np.array([1000, 1000]))
    >>> cal = js.ConfusionCounts(tp=np.array([180, 190]), fn=np.array([20, 10]),
    ...                          tn=np.array([160, 120]), fp=np.array([40, 80]))
    >>> bounds = js.strata.pooled_bounds(test, cal, method="adjusted-wald", confidence_level=0.95)
    >>> round(float(bounds.estimate), 4), round(float(bounds.low), 4), round(float(bounds.high), 4)
    (0.6494, 0.6028, 0.6992)
    """
    spec = pooled_spec(method=method, confidence_level=confidence_level, design=BY_HUMAN_LABEL)
    return spec_pooled_bounds(spec, test, calibration, weights=weights, rng=rng,
                              n_resamples=n_resamples)  # fmt: skip


def spec_pooled_bounds(
    spec: EstimationSpec, test: JudgedCounts, calibration: ConfusionCounts, *,
    weights: Any = None, rng: Any = None, n_resamples: int | None = None,
) -> PooledBounds:  # fmt: skip
    """:func:`pooled_bounds` under a resolved pooled spec of the Rogan–Gladen family.

    ``n_resamples``: the bootstrap's replicates (default: the spec's option, else 9999).
    """
    method, level = spec.method, spec.confidence_level
    if n_resamples is None:
        n_resamples = spec.options.get("n_resamples", 9999)
    p, q0, q1, n, m0, m1 = _stratum_arrays(test, calibration)
    mix = weights is None
    w = n / n.sum(axis=-1, keepdims=True) if mix else np.broadcast_to(weights, p.shape)
    w = np.asarray(w, dtype=float)
    raw = rogan_gladen_raw(p, q0, q1)
    informative = ~((w > 0) & ~(q0 + q1 > 1.0)).any(axis=-1)
    estimate = np.where(informative, _sum_last(np.nan_to_num(raw), w), np.nan)
    reps = None
    if method == "bootstrap":
        reps = check_positive_int("n_resamples", n_resamples, minimum=2)
        gen = check_rng(rng)
        low, high, undefined = _bootstrap_bounds(p, q0, q1, n, m0, m1, w, level, gen, reps, mix=mix)
    else:
        low, high = _delta_bounds(
            p, q0, q1, n, m0, m1, w, z_value(level), adjusted=method == "adjusted-wald", mix=mix
        )
        undefined = np.zeros(estimate.shape, dtype=np.int64)
    low = np.where(informative, low, np.nan)
    high = np.where(informative, high, np.nan)
    return PooledBounds(estimate, low, high, undefined, reps)
