"""Stratified correction: one confusion matrix per stratum of a covariate ξ, pooled by a mix.

The paper's Rogan–Gladen correction assumes the judge behaves alike on calibration and test
items given the true label, P_P(Ẑ | Z) = P_Q(Ẑ | Z). When the judge's error rates depend on a
covariate ξ (answer length, display position, prompt category) and the stratum mix of the
calibration set differs from the test set's, that assumption fails for the pooled data. Its
section "Limitations and Future Work" (item 2) names the fix implemented here: estimate the
confusion matrix P_Q(Ẑ | Z, ξ = s) within each stratum s, correct within each, aggregate.

Estimator
---------
With test counts (positive_s, n_s) and calibration counts (tp_s, fn_s, tn_s, fp_s) per
stratum, p̂_s = positive_s / n_s, q̂0_s = tn_s / m0_s, q̂1_s = tp_s / m1_s, the per-stratum
Rogan–Gladen estimate (paper eq. point-estimator) is θ̂_s = (p̂_s + q̂0_s − 1)/(q̂0_s + q̂1_s − 1)
and the pooled estimate

    θ̂ = clip(Σ_s w_s θ̂_s, 0, 1),       w_s = n_s / n  (``weights="test"``) or given.

The pooled value uses the *unclipped* θ̂_s: clipping each stratum before averaging biases the
pooled estimate towards the interior whenever a stratum's true rate is near 0 or 1 (by up to
−0.01 in benchmarks/results/strata.md, section C, where the unclipped pool's bias is at Monte
Carlo noise; clipping first has the somewhat smaller RMSE there). Each stratum's own
``Correction`` is clipped as usual and a ``ClippedEstimateWarning`` names the strata.

Intervals for the pooled θ (``method``)
---------------------------------------
``"adjusted-wald"`` (default)
    Delta method over independent strata, at the paper's adjusted quantities (eq. ci and
    adjusted:proportion) of every stratum: ñ_s = n_s + z², p̃_s = (n_s p̂_s + z²/2)/ñ_s,
    m̃_ys = m_ys + 2, q̃_ys = (m_ys q̂_ys + 1)/m̃_ys, θ̃_s = (p̃_s + q̃0_s − 1)/(q̃0_s + q̃1_s − 1),

        Ṽ_s = [p̃_s(1 − p̃_s)/ñ_s + (1 − θ̃_s)² q̃0_s(1 − q̃0_s)/m̃0_s + θ̃_s² q̃1_s(1 − q̃1_s)/m̃1_s]
              / (q̃0_s + q̃1_s − 1)²,
        Var = Σ_s w_s² Ṽ_s  +  [weights = "test"] · Σ_s w_s (θ̃_s − Σ_t w_t θ̃_t)² / n,
        centre = Σ_s w_s (θ̃_s + π_s dθ̃_s),      π_s = w_s² Ṽ_s / Σ_t w_t² Ṽ_t,

    and the interval is centre ± z √Var, truncated to [0, 1]; dθ̃_s is the paper's centre
    shift (eq. adjusted:ci:center) of stratum s. Carried over from the adjusted Wald: the
    pseudo-counts (z²/2 per test stratum, one success and one failure per calibration class
    and stratum) and the centre shift, the latter weighted by the stratum's share π_s of the
    pooled variance. The shift corrects the skewness of a single ratio; the skewness of a sum
    of independent strata is diluted, and adding the full per-stratum shifts over-corrects
    (coverage 0.941–0.948 against 0.951–0.954 with π_s in the stress scenarios of
    benchmarks/results/strata.md, section B). With one stratum π = 1 and the interval is
    exactly eq. (ci).
    The second variance term is the sampling variance of the test mix itself: with
    w_s = n_s / n estimated from a random test sample and a_s = 1/(q0_s + q1_s − 1),
    b_s = (q0_s − 1) a_s, θ̂ is the mean of the per-item values a_s ẑ + b_s, whose variance
    has a between-strata part Σ_s P(ξ = s) (θ_s − θ)²; with fixed, given
    weights (a target population's mix) it is absent. Without it coverage fell to 0.90 when
    the strata's rates differ a lot (θ_s = 0.05 and 0.95, same section).
``"wald"``
    The same without adjustments: Var = Σ w_s² Var(θ̂_s) with Var(θ̂_s) from paper eq. (var)
    at the unadjusted estimates, plus the mix term, centred at Σ w_s θ̂_s (for comparison).
``"bootstrap"``
    Stratified parametric percentile bootstrap: per replicate, positive*_s ~ Bin(n_s, p̂_s),
    tn*_s ~ Bin(m0_s, q̂0_s), tp*_s ~ Bin(m1_s, q̂1_s) in every stratum, θ* = clip(Σ w_s θ*_s);
    with ``weights="test"`` the stratum sizes are redrawn first, n* ~ Multinomial(n, n_s / n),
    and w*_s = n*_s / n. Replicates where a weighted stratum has q0* + q1* <= 1 are counted,
    excluded and reported (``SamplingWarning``), never dropped silently.

The per-stratum ``Correction`` objects carry the single-stratum interval of the same method
(``"adjusted-wald"``: the paper's eq. ci). All kernels are vectorised over batches of data
sets with the strata on the last axis (:func:`pooled_bounds`).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np

from . import kernels
from ._validation import (
    ArgumentTypeError,
    ClippedEstimateWarning,
    JudgeStatsError,
    LabelError,
    NotInformativeError,
    SamplingWarning,
    check_choice,
    check_confidence_level,
    check_informative,
    check_method,
    check_positive_int,
    check_rng,
    check_same_strata,
    check_sparse_strata,
    check_strata_mapping,
    check_weights,
)
from .correct import Correction, correct
from .counts import ConfusionCounts, JudgedCounts
from .designs import DEFAULT_DESIGN, check_design, design_counts, stratified_bounds
from .frames import counts_of, group_counts, named_counts, sort_keys
from .intervals import compute_bounds, warn_undefined_replicates
from .kernels import percentile_nan_last, rogan_gladen_raw, z_value
from .report import Reportable
from .results import ConfidenceInterval, Recomputable, Tabular, note_lines, rate_repr, stratum_coord

if TYPE_CHECKING:  # pragma: no cover
    import xarray as xr
from .shift import label_shift_test

__all__ = [
    "DEFAULT_MIN_PER_CLASS",
    "STRATIFIED_METHODS",
    "PooledBounds",
    "correct_stratified",
    "judge_homogeneity",
    "pooled_bounds",
    "stratified_counts",
]

#: Interval methods for the pooled θ.
STRATIFIED_METHODS: tuple[str, ...] = ("adjusted-wald", "wald", "bootstrap")

#: Default minimum number of calibration items of each human class in every stratum. Below
#: about ten, a stratum's q̂0 or q̂1 rests on a handful of items, the per-stratum delta method
#: is unreliable and q̂0 + q̂1 <= 1 becomes likely; pass a smaller value explicitly (or merge).
DEFAULT_MIN_PER_CLASS = 10

_OPTIONS = {"adjusted-wald": (), "wald": (), "bootstrap": ("n_resamples",)}


# ============================================================================ batch kernels
class PooledBounds(NamedTuple):
    """Batch output of :func:`pooled_bounds` (batch shape = counts shape without the strata)."""

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
    """
    check_method(method, STRATIFIED_METHODS, capability="stratified corrections")
    level = check_confidence_level(confidence_level)
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


# ============================================================================ merging strata
def _resolve_merge(merge: Any, known: list[Any]) -> dict[Any, Any]:
    """Validate a merge mapping and resolve chains (a → b → c gives a → c, b → c).

    Keys naming no stratum in ``known`` are left out, so that one mapping can serve many
    frames (a misspelt key leaves its sparse stratum unmerged, which is then reported).
    """
    if isinstance(merge, str | bytes) or not hasattr(merge, "items"):
        raise ArgumentTypeError(
            f"merge must be None, 'auto' or a mapping stratum -> stratum, got {merge!r}"
        )
    mapping = dict(merge.items())
    out = {}
    for key in mapping:
        seen, target = [key], mapping[key]
        while target in mapping and target != seen[-1]:
            if target in seen:
                raise JudgeStatsError(f"merge has a cycle: {' -> '.join(map(repr, seen))}")
            seen.append(target)
            target = mapping[target]
        if target != key and key in known:
            out[key] = target
    return out


def _auto_merge(cals: dict[Any, ConfusionCounts], min_per_class: int) -> dict[Any, Any]:
    """Map every sparse stratum to the non-sparse stratum with the most calibration items."""
    sparse = [s for s, c in cals.items() if min(c.m0, c.m1) < min_per_class]
    if not sparse:
        return {}
    dense = [s for s in cals if s not in sparse] or list(cals)
    target = max(dense, key=lambda s: cals[s].m)  # first of equals
    return {s: target for s in sparse if s != target}


def _apply_merge(mapping: dict[Any, Any], counts: dict[Any, Any], cls: type) -> dict[Any, Any]:
    groups: dict[Any, list[Any]] = {}
    for key, obj in counts.items():
        groups.setdefault(mapping.get(key, key), []).append(obj)
    fields = ("positive", "n") if cls is JudgedCounts else ("tp", "fn", "tn", "fp")
    return {
        key: objs[0]
        if len(objs) == 1
        else cls(**{f: int(sum(getattr(o, f) for o in objs)) for f in fields})
        for key, objs in groups.items()
    }


# ============================================================================ per stratum
def _stack(tests: dict, cals: dict, strata: list) -> tuple[JudgedCounts, ConfusionCounts]:
    t = JudgedCounts(
        positive=np.array([tests[s].positive for s in strata]),
        n=np.array([tests[s].n for s in strata]),
    )
    c = ConfusionCounts(
        **{f: np.array([getattr(cals[s], f) for s in strata]) for f in "tp fn tn fp".split()}
    )
    return t, c


def _corrections(
    tests: dict,
    cals: dict,
    strata: list,
    *,
    method: str,
    level: float,
    gen: np.random.Generator,
    options: dict,
    warn_stacklevel: int | None,
) -> dict[Any, Correction]:
    """Per-stratum ``Correction`` objects, computed as one batch (same numbers as ``correct``)."""
    for s in strata:
        c = cals[s]
        check_informative(c.specificity, c.sensitivity, what=f"in stratum {s!r}, q̂0 + q̂1")
    test_b, cal_b = _stack(tests, cals, strata)
    bounds = compute_bounds(
        test_b, cal_b, method=method, confidence_level=level, rng=gen, **options
    )
    bad = np.isnan(bounds.low) | np.isnan(bounds.high)
    if bad.any():
        s = strata[int(np.argmax(bad))]
        raise NotInformativeError(
            f"the {method!r} interval is undefined in stratum {s!r}: the judge is no better than "
            "chance there after the method's adjustment; merge the stratum into another"
        )
    raw = rogan_gladen_raw(test_b.p_hat, cal_b.specificity, cal_b.sensitivity)
    if warn_stacklevel is not None:
        warn_undefined_replicates(bounds, stacklevel=warn_stacklevel + 1)
        out = (raw < 0) | (raw > 1)
        if out.any():
            vals = ", ".join(f"{strata[i]!r}: {raw[i]:.4g}" for i in np.flatnonzero(out))
            warnings.warn(
                f"the Rogan–Gladen estimates of {int(out.sum())} of {len(strata)} strata lie "
                f"outside [0, 1] ({vals}) and were clipped in their stratum's Correction; the "
                "pooled estimate uses the unclipped values",
                ClippedEstimateWarning,
                stacklevel=warn_stacklevel + 1,
            )
    result = {}
    for i, s in enumerate(strata):
        r = float(raw[i])
        result[s] = Correction(
            estimate=float(np.clip(r, 0.0, 1.0)),
            ci=ConfidenceInterval.from_bounds(bounds, method, level, i),
            estimate_unclipped=r,
            clipped=bool(r < 0 or r > 1),
            method=method,
            confidence_level=level,
            test=tests[s],
            calibration=cals[s],
            estimator="Rogan–Gladen",
            label_shift=label_shift_test(tests[s], cals[s]),
        )
    return result


# ============================================================================ diagnostics
def _chi2_sf(statistic: float, df: int) -> float:
    from scipy.special import chdtrc  # lazy: keeps `import judgestats` light

    return float(chdtrc(df, statistic)) if df > 0 else math.nan


def judge_homogeneity(
    calibrations: Any,
) -> tuple[HomogeneityTest, HomogeneityTest, HomogeneityTest]:
    """Test whether the judge's specificity and sensitivity are equal across strata.

    Likelihood-ratio (G) tests on the calibration counts: for human class 0, the S × 2 table
    (stratum × judge right/wrong) of tn_s, fp_s; for class 1 that of tp_s, fn_s. Under equal
    rates G = 2 Σ O log(O/E) is approximately χ² with S − 1 df; the joint test adds both
    (2(S − 1) df).

    Parameters
    ----------
    calibrations : mapping stratum → ConfusionCounts
        Calibration counts per stratum.

    Returns
    -------
    (specificity, sensitivity, both) : tuple of HomogeneityTest
        A small p-value says the judge's error rates differ by stratum, so a single confusion
        matrix is wrong wherever the calibration mix differs from the test mix.
    """
    cals = check_strata_mapping("calibrations", calibrations, ConfusionCounts)
    c = list(cals.values())
    df = len(c) - 1
    g0 = kernels.g_statistic([[x.tn for x in c], [x.fp for x in c]])
    g1 = kernels.g_statistic([[x.tp for x in c], [x.fn for x in c]])
    return (
        HomogeneityTest("specificity", g0, df, _chi2_sf(g0, df)),
        HomogeneityTest("sensitivity", g1, df, _chi2_sf(g1, df)),
        HomogeneityTest("both", g0 + g1, 2 * df, _chi2_sf(g0 + g1, 2 * df)),
    )


def _diagnostics(tests, cals, strata, *, method, level, gen, options) -> StrataDiagnostics:
    z = float(z_value(level))
    t0, t1, tj = judge_homogeneity({s: cals[s] for s in strata})
    cis = {}
    for name, k_f, m_f in (("specificity", "tn", "m0"), ("sensitivity", "tp", "m1")):
        lo, hi = kernels.wilson_bounds(
            [getattr(cals[s], k_f) for s in strata], [getattr(cals[s], m_f) for s in strata], z
        )
        cis[name] = {
            s: ConfidenceInterval(float(lo[i]), float(hi[i]), "wilson", level)
            for i, s in enumerate(strata)
        }
    all_tests = _apply_merge(dict.fromkeys(strata, 0), tests, JudgedCounts)
    all_cals = _apply_merge(dict.fromkeys(strata, 0), cals, ConfusionCounts)
    try:
        unstratified = _corrections(
            all_tests,
            all_cals,
            [0],
            method=method,
            level=level,
            gen=gen,
            options=options,
            warn_stacklevel=None,
        )[0]
    except NotInformativeError:
        unstratified = None
    n, m = all_tests[0].n, all_cals[0].m
    return StrataDiagnostics(
        specificity_ci=cis["specificity"],
        sensitivity_ci=cis["sensitivity"],
        specificity_test=t0,
        sensitivity_test=t1,
        joint_test=tj,
        unstratified=unstratified,
        test_mix={s: tests[s].n / n for s in strata},
        calibration_mix={s: cals[s].m / m for s in strata},
    )


# ============================================================================ public entry
def _check_options(method: str, options: dict) -> None:
    unknown = sorted(set(options) - set(_OPTIONS[method]))
    if unknown:
        takes = ", ".join(_OPTIONS[method]) or "no options"
        raise ArgumentTypeError(
            f"method {method!r} got unexpected option(s) {unknown}; it takes {takes}"
        )


def _pooled_ci(test_b, cal_b, weights, *, method, level, gen, options, stacklevel):
    bounds = pooled_bounds(
        test_b, cal_b, weights=weights, method=method, confidence_level=level, rng=gen, **options
    )
    if np.isnan(bounds.low) or np.isnan(bounds.high):
        raise NotInformativeError(
            f"the pooled {method!r} interval is undefined: a stratum's judge is no better than "
            "chance after the method's adjustment; merge that stratum into another"
        )
    if bounds.n_resamples and int(bounds.undefined):
        warnings.warn(
            f"{int(bounds.undefined)} of {bounds.n_resamples} stratified bootstrap replicates "
            "were undefined (a stratum's resampled q0* + q1* <= 1) and are excluded from the "
            "percentiles; the interval conditions on an informative judge in every stratum",
            SamplingWarning,
            stacklevel=stacklevel + 1,
        )
    ci = ConfidenceInterval.from_bounds(bounds, method, level)
    return ci, float(bounds.estimate)


def _merged_strata(tests, cals, merge, min_per_class):
    """Apply ``merge`` (a mapping or ``"auto"``).

    Returns the tests, the calibrations, the merge map, and the strata as the caller named them
    (what weights given per stratum refer to).
    """
    known = list(tests) + [s for s in cals if s not in tests]
    merged: dict[Any, Any] = {}
    if isinstance(merge, str):
        check_choice("merge", merge, ("auto",))
    elif merge is not None:
        merged = _resolve_merge(merge, known)
        tests = _apply_merge(merged, tests, JudgedCounts)
        cals = _apply_merge(merged, cals, ConfusionCounts)
    check_same_strata("tests", tests, "calibrations", cals)
    pre = known if merge != "auto" else list(tests)
    if merge == "auto":
        merged = _auto_merge(cals, min_per_class)
        tests = _apply_merge(merged, tests, JudgedCounts)
        cals = _apply_merge(merged, cals, ConfusionCounts)
    return tests, cals, merged, pre


def _stratum_weights(weights, tests, strata, merged, pre):
    """(weights per stratum, fixed weight array or None for the test mix)."""
    if isinstance(weights, str):
        n_total = sum(tests[s].n for s in strata)
        return {s: tests[s].n / n_total for s in strata}, None
    keys = set(dict(weights.items())) if hasattr(weights, "items") else None
    if merged and keys == set(pre):
        given = check_weights("weights", weights, pre)
        w = dict.fromkeys(strata, 0.0)
        for key, value in given.items():
            w[merged.get(key, key)] += value
    else:
        w = check_weights("weights", weights, strata)
    return w, np.array([w[s] for s in strata])


def _design_stratified(tests, cals, weights, merge, method, confidence_level, design):
    """:func:`correct_stratified` under the random or by-judge-label design."""
    check_method(method, ("adjusted-wald", "wald"),
                 capability=f"stratified corrections with design={design!r}")  # fmt: skip
    level = check_confidence_level(confidence_level)
    if merge == "auto":
        raise JudgeStatsError(
            f"merge='auto' merges strata by human-class size, which design={design!r} does not "
            "need; pass a mapping stratum -> stratum"
        )
    tests, cals, merged, pre = _merged_strata(tests, cals, merge, 1)
    strata = list(tests)
    corrections = {}
    for s in strata:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            corrections[s] = correct(tests[s], cals[s], method=method, confidence_level=level,
                                     design=design)  # fmt: skip
        for w_ in caught:
            warnings.warn(f"stratum {s!r}: {w_.message}", w_.category, stacklevel=3)
    test_b, cal_b = _stack(tests, cals, strata)
    if isinstance(weights, str):
        check_choice("weights", weights, ("test",))
        fixed = None
    else:
        fixed = _stratum_weights(weights, tests, strata, merged, pre)[1]
    est, low, high = stratified_bounds(test_b, cal_b, fixed, design, level,
                                       adjusted=method == "adjusted-wald")  # fmt: skip
    n_pi = design_counts(test_b, cal_b, design)[1]
    w = n_pi / n_pi.sum() if fixed is None else fixed
    return StratifiedCorrection(
        strata=tuple(strata), corrections=corrections, estimate=est,
        ci=ConfidenceInterval(low, high, method, level), estimate_unclipped=est, clipped=False,
        weights={s: float(v) for s, v in zip(strata, w, strict=True)},
        weights_source="test" if fixed is None else "given", method=method,
        confidence_level=level, merged=merged, diagnostics=None, min_per_class=None,
        design=design,
    )  # fmt: skip


def correct_stratified(
    tests: Any,
    calibrations: Any,
    *,
    method: str = "adjusted-wald",
    confidence_level: float = 0.95,
    weights: Any = "test",
    min_per_class: int = DEFAULT_MIN_PER_CLASS,
    merge: Any = None,
    rng: Any = None,
    design: str = DEFAULT_DESIGN,
    **options: Any,
) -> StratifiedCorrection:
    """Correct a judged rate stratum by stratum and pool the corrections by a stratum mix.

    Estimates one confusion matrix per stratum of a covariate ξ, applies the Rogan–Gladen
    correction (paper eq. point-estimator) within each, and aggregates: θ̂ = Σ_s w_s θ̂_s
    (paper, "Limitations and Future Work", item 2). Use it when the judge's behaviour may
    depend on ξ and the calibration set's mix of ξ differs from the test set's. Formulas of
    the pooled intervals: module docstring of :mod:`judgestats.strata`.

    Parameters
    ----------
    tests : mapping stratum → JudgedCounts
        Judged test counts per stratum (every stratum with n_s >= 1).
    calibrations : mapping stratum → ConfusionCounts
        Human-vs-judge calibration counts per stratum; the same strata as ``tests``.
        :func:`stratified_counts` builds both mappings from a labelled data frame.
    method : {"adjusted-wald", "wald", "bootstrap"}, default "adjusted-wald"
        Interval for the pooled θ (and for each stratum's ``Correction``): the delta method
        over strata at the paper's adjusted quantities (eq. ci), the plain delta method
        (eq. var), or a stratified parametric bootstrap.
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    weights : "test" or mapping stratum → float, default "test"
        ``"test"``: w_s = n_s / n, the test set's own mix (its sampling variance enters the
        interval). A mapping gives fixed weights, e.g. a target population's mix: every
        stratum, each >= 0, summing to 1 (keys may name strata before or after merging).
    min_per_class : int, default 10
        Every stratum needs at least this many calibration items of each human class
        (m0_s and m1_s); otherwise :class:`SparseStratumError` is raised (or the stratum is
        merged, see ``merge``). Never dropped silently.
    merge : None, "auto" or mapping stratum → stratum
        Merge strata before correcting (their test and calibration counts are added). A
        mapping merges the named strata into others (new labels allowed; chains resolve;
        keys naming no stratum are ignored, so one mapping can serve many data sets);
        ``"auto"`` merges every stratum below ``min_per_class`` into the stratum with the
        most calibration items. For an ordered covariate, an explicit mapping to a neighbour
        is usually better. Merges are recorded in ``result.merged``.
    rng : None, int, SeedSequence or Generator
        Randomness for ``"bootstrap"``.
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How the calibration items were chosen (:mod:`judgestats.designs`). Under ``"random"``
        and ``"by-judge-label"`` each stratum gets the judge-conditional estimate and the pool
        :func:`judgestats.designs.stratified_bounds` (``"adjusted-wald"`` or ``"wald"``); the
        test mix comes from the judged items (test and calibration under ``"random"``), no
        class-size minimum applies (``merge`` takes a mapping) and there are no judge
        homogeneity diagnostics.
    **options
        ``n_resamples`` for ``"bootstrap"`` (default 9999).

    Returns
    -------
    StratifiedCorrection
        Per-stratum corrections, the pooled estimate and interval, the weights and
        diagnostics (per-stratum q̂0, q̂1 Wilson intervals, likelihood-ratio tests of equal
        judge behaviour across strata, and the unstratified correction beside the
        stratified one).

    Raises
    ------
    StrataMismatchError
        If a stratum is in ``tests`` but not in ``calibrations`` or vice versa (after
        merging), or ``weights`` does not cover exactly the strata.
    SparseStratumError
        If a stratum has fewer than ``min_per_class`` calibration items of a class.
    WeightsError
        If weights are negative, NaN or do not sum to 1.
    NotInformativeError
        If the judge is no better than chance within a stratum (q̂0_s + q̂1_s <= 1).
    ArgumentTypeError, MethodError, ConfidenceLevelError
        On wrong types, an unknown method or a bad level.

    Warns
    -----
    ClippedEstimateWarning
        When a stratum's θ̂_s lies outside [0, 1] (its ``Correction`` is clipped; the pooled
        estimate uses the unclipped value) or the pooled value does.
    SamplingWarning
        When bootstrap replicates were undefined.

    Examples
    --------
    >>> import judgestats as js
    >>> from judgestats.strata import correct_stratified
    >>> tests = {"short": js.JudgedCounts(positive=180, n=300),
    ...          "long": js.JudgedCounts(positive=560, n=700)}
    >>> cals = {"short": js.ConfusionCounts(tp=126, fn=14, tn=55, fp=15),
    ...         "long": js.ConfusionCounts(tp=57, fn=3, tn=18, fp=12)}
    >>> res = correct_stratified(tests, cals)
    >>> round(res.estimate, 4), round(res.unstratified.estimate, 4)
    (0.6778, 0.7287)
    """
    tests = check_strata_mapping("tests", tests, JudgedCounts)
    cals = check_strata_mapping("calibrations", calibrations, ConfusionCounts)
    if check_design(design) != DEFAULT_DESIGN:
        return _design_stratified(tests, cals, weights, merge, method, confidence_level, design)
    check_method(method, STRATIFIED_METHODS, capability="stratified corrections")
    _check_options(method, options)
    level = check_confidence_level(confidence_level)
    min_per_class = check_positive_int("min_per_class", min_per_class, minimum=1)
    if isinstance(weights, str):
        check_choice("weights", weights, ("test",))
    gen = check_rng(rng)

    tests, cals, merged, pre = _merged_strata(tests, cals, merge, min_per_class)
    strata = list(tests)
    check_sparse_strata({s: (cals[s].m0, cals[s].m1) for s in strata}, min_per_class)
    w, fixed = _stratum_weights(weights, tests, strata, merged, pre)

    corrections = _corrections(
        tests,
        cals,
        strata,
        method=method,
        level=level,
        gen=gen,
        options=options,
        warn_stacklevel=2,
    )
    test_b, cal_b = _stack(tests, cals, strata)
    ci, raw = _pooled_ci(
        test_b, cal_b, fixed, method=method, level=level, gen=gen, options=options, stacklevel=2
    )
    if raw < 0 or raw > 1:
        warnings.warn(
            f"the pooled estimate Σ w_s θ̂_s = {raw:.4g} lies outside [0, 1] and was clipped",
            ClippedEstimateWarning,
            stacklevel=2,
        )
    diagnostics = _diagnostics(
        tests, cals, strata, method=method, level=level, gen=gen, options=options
    )
    return StratifiedCorrection(
        strata=tuple(strata),
        corrections=corrections,
        estimate=float(np.clip(raw, 0.0, 1.0)),
        ci=ci,
        estimate_unclipped=raw,
        clipped=bool(raw < 0 or raw > 1),
        weights=w,
        weights_source="test" if fixed is None else "given",
        method=method,
        confidence_level=level,
        merged=merged,
        diagnostics=diagnostics,
        min_per_class=min_per_class,
    )


def pooled_interval_for(
    result: StratifiedCorrection,
    *,
    method: str,
    confidence_level: float,
    rng: Any = None,
    **options: Any,
) -> ConfidenceInterval:
    """Recompute the pooled interval of a :class:`StratifiedCorrection` by another method."""
    check_method(method, STRATIFIED_METHODS, capability="stratified corrections")
    _check_options(method, options)
    level = check_confidence_level(confidence_level)
    strata = list(result.strata)
    tests = {s: result.corrections[s].test for s in strata}
    cals = {s: result.corrections[s].calibration for s in strata}
    test_b, cal_b = _stack(tests, cals, strata)
    fixed = None if result.weights_source == "test" else [result.weights[s] for s in strata]
    return _pooled_ci(
        test_b,
        cal_b,
        fixed,
        method=method,
        level=level,
        gen=check_rng(rng),
        options=options,
        stacklevel=3,
    )[0]


# ============================================================================ from a frame
def _plain(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def stratified_counts(
    frame: Any,
    *,
    by: str | tuple[str, ...],
    judge: str = "judge",
    human: str = "human",
    split: str | None = None,
    merge: Any = None,
) -> tuple[dict[Any, JudgedCounts], dict[Any, ConfusionCounts]]:
    """Build the per-stratum test and calibration counts of a labelled data frame.

    Parameters
    ----------
    frame : data frame
        One row per item, with a 0/1 (or bool) judge label, a human label and the stratum
        column(s); any engine :func:`judgestats.evaluate` reads (counted by
        :func:`judgestats.frames.group_counts`, the package's one frame-to-counts path).
    by : str or tuple of str
        Column(s) defining the strata; with several columns a stratum is a tuple of values.
        A missing value is an error.
    judge, human : str
        Label columns. The judge label is required on every row.
    split : str, optional
        Column whose values are ``"test"`` or ``"calibration"``. Without it, rows whose human
        label is present (not missing) are calibration items and the rest are test items.
        With it, test rows' human labels are ignored (a hidden truth, as in a benchmark).
    merge : mapping stratum → stratum, optional
        Relabel strata before counting (binning, or merging a sparse stratum into another);
        keys that name no stratum of this frame are ignored.

    Returns
    -------
    (tests, calibrations) : tuple of dict
        stratum → :class:`JudgedCounts` for strata with test items and stratum →
        :class:`ConfusionCounts` for strata with calibration items, in sorted stratum order.
        A stratum present in only one of them is kept there (so
        :func:`correct_stratified` reports it).

    Raises
    ------
    SparseStratumError
        If a stratum's calibration items all have the same human label (its confusion matrix
        cannot be estimated): merge it with ``merge=``.
    ColumnError, GroupLabelError
        On a missing column, a missing stratum value, bad labels or a bad split value (as
        :func:`judgestats.frames.group_counts`).
    LabelError
        When there are no test rows or no calibration rows.
    """
    cols = (by,) if isinstance(by, str) else tuple(by) if isinstance(by, list | tuple) else None
    if not cols or not all(isinstance(c, str) for c in cols):
        raise ArgumentTypeError(f"by must be a column name or a tuple of names, got {by!r}")
    counted = group_counts(frame, judge=judge, human=human, by=cols, split=split)
    cells: dict[Any, np.ndarray] = {}
    labels = [key[0] if len(cols) == 1 else key for key in counted.counts]
    mapping = _resolve_merge(merge, labels) if merge is not None else {}
    for label, c in zip(labels, counted.counts.values(), strict=True):
        stratum = mapping.get(label, label)
        cells[stratum] = cells[stratum] + c if stratum in cells else c.copy()
    named = {s: named_counts(cells[s]) for s in sort_keys(list(cells))}
    if not any(c["tp"] + c["fn"] + c["tn"] + c["fp"] for c in named.values()):
        raise LabelError("no calibration rows: no row has a human label (or split='calibration')")
    if not any(c["n"] for c in named.values()):
        how = "every row has a human label" if split is None else "every row is 'calibration'"
        raise LabelError(
            f"no test rows: {how}; pass split= (a column of 'test'/'calibration') to say which "
            "rows form the test set"
        )
    return stratum_pairs({s: cells[s] for s in named})


def stratum_pairs(cells: dict[Any, np.ndarray]) -> tuple[dict, dict]:
    """Per-stratum test and calibration counts of cell-code arrays (frames module docstring).

    A stratum with calibration items of one human class only raises
    :class:`SparseStratumError`; a stratum without test (calibration) rows is left out of the
    tests (calibrations).
    """
    named = {s: named_counts(c) for s, c in cells.items()}
    present = {
        s: (c["tn"] + c["fp"], c["tp"] + c["fn"])
        for s, c in named.items()
        if c["tp"] + c["fn"] + c["tn"] + c["fp"]
    }
    check_sparse_strata(
        present, 1, fix="merge each such stratum into another with merge={stratum: other}"
    )
    pairs = {s: counts_of(c) for s, c in cells.items()}
    tests = {s: test for s, (test, _) in pairs.items() if test is not None}
    cals = {s: cal for s, (_, cal) in pairs.items() if cal is not None}
    return tests, cals


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True)
class HomogeneityTest:
    """Likelihood-ratio (G) test that one of the judge's error rates is equal in every stratum.

    For human class y (0: specificity q0, 1: sensitivity q1) the calibration items of that
    class form an S × 2 table (stratum × judge right/wrong). With O the observed and E the
    expected counts under one common rate, G = 2 Σ O log(O / E) is referred to χ² with S − 1
    degrees of freedom. ``rate="both"`` adds the two classes' statistics (2(S − 1) df; the
    classes hold disjoint items, so the two statistics are independent). The χ² reference is
    asymptotic: with few calibration items per stratum the p-value is rough.

    Attributes
    ----------
    rate : {"specificity", "sensitivity", "both"}
        Which rate is tested.
    statistic : float
        G (0 when every stratum has the same observed rate).
    df : int
        Degrees of freedom (0 with a single stratum, where ``pvalue`` is NaN).
    pvalue : float
        P(χ²_df >= G).
    """

    rate: str
    statistic: float
    df: int
    pvalue: float

    def __repr__(self) -> str:
        return (
            f"HomogeneityTest(rate={self.rate!r}, G={self.statistic:.4g}, df={self.df}, "
            f"pvalue={self.pvalue:.4g})"
        )


@dataclass(frozen=True, slots=True, eq=False)
class StrataDiagnostics:
    """Does stratifying matter? Per-stratum judge behaviour, tests and the unstratified answer.

    Attributes
    ----------
    specificity_ci, sensitivity_ci : dict of ConfidenceInterval
        Per stratum, Wilson score interval for q0 = P(judge 0 | human 0) and
        q1 = P(judge 1 | human 1) at the result's confidence level.
    specificity_test, sensitivity_test, joint_test : HomogeneityTest
        Likelihood-ratio tests of equal q0, equal q1, and both, across strata.
    unstratified : Correction or None
        One Rogan–Gladen correction with all strata pooled (one confusion matrix); None when
        the pooled judge is no better than chance. It is biased when the judge's error rates
        differ across strata *and* the calibration set's stratum mix within a human class
        differs from the test set's.
    test_mix, calibration_mix : dict
        Share of test items (n_s / n) and of calibration items (m_s / m) per stratum.
    """

    specificity_ci: dict
    sensitivity_ci: dict
    specificity_test: HomogeneityTest
    sensitivity_test: HomogeneityTest
    joint_test: HomogeneityTest
    unstratified: Correction | None
    test_mix: dict
    calibration_mix: dict


@dataclass(frozen=True, slots=True, eq=False)
class StratifiedCorrection(Tabular, Reportable, Recomputable):
    """A corrected rate pooled over strata of a covariate ξ, with per-stratum corrections.

    Returned by :func:`judgestats.strata.correct_stratified` (the paper's "Limitations and
    Future Work", item 2: one confusion matrix per stratum, bias adjustment within each, then
    aggregation by the test mix). The pooled rate is θ̂ = Σ_s w_s θ̂_s with the unclipped
    per-stratum Rogan–Gladen estimates θ̂_s, clipped to [0, 1] at the end. A Bayesian fit can
    return the same shape (per-stratum results with the ``Correction`` fields, pooled
    estimate, interval and weights; ``diagnostics`` may then be None).

    Attributes
    ----------
    strata : tuple
        Stratum labels in order (after merging); every dict below is keyed by them.
    corrections : dict of Correction
        Per-stratum correction (estimate clipped to [0, 1], interval by ``method``).
    estimate : float
        Pooled θ̂ in [0, 1].
    ci : ConfidenceInterval
        Interval for the pooled θ by ``method`` at ``confidence_level``.
    estimate_unclipped : float
        Σ_s w_s θ̂_s before the final clip; differs from ``estimate`` exactly when
        ``clipped`` is True.
    clipped : bool
        True when the pooled value fell outside [0, 1].
    weights : dict
        w_s (summing to 1).
    weights_source : {"test", "given"}
        ``"test"``: w_s = n_s / n, the test set's own stratum mix (a random quantity; its
        sampling variance is in the interval); ``"given"``: fixed weights such as a target
        population's mix.
    method, confidence_level
        How ``ci`` (and each stratum's interval) was computed.
    merged : dict
        Original stratum → the stratum it was merged into (empty if none).
    diagnostics : StrataDiagnostics or None
        Per-stratum q̂0, q̂1 intervals, tests of equal judge behaviour and the unstratified
        estimate.
    min_per_class : int or None
        Minimum calibration items per human class that every stratum had to reach.
    """

    kind: ClassVar[str] = "stratified"

    strata: tuple
    corrections: dict
    estimate: float
    ci: ConfidenceInterval
    estimate_unclipped: float
    clipped: bool
    weights: dict
    weights_source: str
    method: str
    confidence_level: float
    merged: dict
    diagnostics: StrataDiagnostics | None = None
    min_per_class: int | None = None
    design: str = DEFAULT_DESIGN

    # -- derived fields ------------------------------------------------------------------
    def __getitem__(self, stratum: Any) -> Correction:
        return self.corrections[stratum]

    @property
    def k(self) -> int:
        """Number of strata."""
        return len(self.strata)

    @property
    def naive(self) -> float:
        """Σ_s w_s p̂_s, the uncorrected judged rate under the same weights."""
        return float(sum(self.weights[s] * self.corrections[s].naive for s in self.strata))

    @property
    def n(self) -> int:
        """Test items over all strata."""
        return int(sum(self.corrections[s].n for s in self.strata))

    @property
    def m0(self) -> int:
        """Calibration items with human label 0, over all strata."""
        return int(sum(self.corrections[s].m0 for s in self.strata))

    @property
    def m1(self) -> int:
        """Calibration items with human label 1, over all strata."""
        return int(sum(self.corrections[s].m1 for s in self.strata))

    @property
    def unstratified(self) -> Correction | None:
        """The single-confusion-matrix correction of the pooled counts (from diagnostics)."""
        return None if self.diagnostics is None else self.diagnostics.unstratified

    @property
    def difference(self) -> float | None:
        """Stratified minus unstratified estimate (None without diagnostics)."""
        u = self.unstratified
        return None if u is None else self.estimate - u.estimate

    # -- recomputation -------------------------------------------------------------------
    def _recompute(self, method: str, level: float, rng: Any, options: dict) -> Any:
        return pooled_interval_for(
            self, method=method, confidence_level=level, rng=rng, **options
        )

    # -- presentation --------------------------------------------------------------------
    def _rows(self) -> list[dict[str, Any]]:
        d = self.diagnostics
        rows = []
        for s in self.strata:
            c = self.corrections[s]
            row = {"stratum": s, "kind": "stratum", "weight": self.weights[s]}
            row.update(c.to_dict())
            if d is not None:
                row["specificity_low"], row["specificity_high"] = d.specificity_ci[s]
                row["sensitivity_low"], row["sensitivity_high"] = d.sensitivity_ci[s]
                row["test_share"] = d.test_mix[s]
                row["calibration_share"] = d.calibration_mix[s]
            rows.append(row)
        pooled = {
            "stratum": "pooled",
            "kind": "pooled",
            "weight": 1.0,
            "estimate": self.estimate,
            "ci_low": self.ci.low,
            "ci_high": self.ci.high,
            "method": self.method,
            "confidence_level": self.confidence_level,
            "naive": self.naive,
            "n": self.n,
            "positive": int(sum(self.corrections[s].test.positive for s in self.strata)),
            "m0": self.m0,
            "m1": self.m1,
            **{
                f: int(sum(getattr(self.corrections[s].calibration, f) for s in self.strata))
                for f in ("tp", "fn", "tn", "fp")
            },
            "clipped": self.clipped,
            "estimate_unclipped": self.estimate_unclipped,
        }
        if d is not None:
            u = d.unstratified
            nan = float("nan")
            pooled.update(
                unstratified_estimate=nan if u is None else u.estimate,
                unstratified_ci_low=nan if u is None else u.ci.low,
                unstratified_ci_high=nan if u is None else u.ci.high,
                specificity_pvalue=d.specificity_test.pvalue,
                sensitivity_pvalue=d.sensitivity_test.pvalue,
                homogeneity_pvalue=d.joint_test.pvalue,
            )
        rows.append(pooled)
        return rows

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict (JSON-serialisable when the stratum labels are)."""

        def plain(v: Any) -> Any:
            return v.item() if hasattr(v, "item") else v

        return {
            "strata": list(self.strata),
            "rows": [{k: plain(v) for k, v in r.items()} for r in self._rows()],
            "weights_source": self.weights_source,
            "method": self.method,
            "confidence_level": self.confidence_level,
            "merged": dict(self.merged),
            "min_per_class": self.min_per_class,
        }

    def _records(self) -> list[dict[str, Any]]:
        return self.to_dict()["rows"]

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset in ArviZ's interval layout.

        Per-stratum variables (dim ``stratum``): ``estimate``, ``estimate_unclipped``,
        ``weight``, ``naive``, ``sensitivity``, ``specificity``, ``n``, ``m0``, ``m1`` and
        ``ci`` (dims ``stratum``, ``ci_bound = ["lower", "upper"]``), plus
        ``sensitivity_ci``/``specificity_ci`` with diagnostics. Pooled scalars
        ``pooled_estimate``, ``pooled_naive`` and ``pooled_ci`` (dim ``ci_bound``), and
        ``unstratified_estimate``/``unstratified_ci`` with diagnostics. Attrs: ``ci_kind``
        (the method), ``ci_prob`` (the level), ``weights_source``, ``clipped`` and the
        homogeneity p-values. Stratum labels that are not all str or all int become strings.
        """
        import xarray as xr

        ss = self.strata
        cs = [self.corrections[s] for s in ss]
        data: dict[str, Any] = {
            "estimate": ("stratum", [c.estimate for c in cs]),
            "estimate_unclipped": ("stratum", [c.estimate_unclipped for c in cs]),
            "weight": ("stratum", [self.weights[s] for s in ss]),
            "naive": ("stratum", [c.naive for c in cs]),
            "sensitivity": ("stratum", [c.sensitivity for c in cs]),
            "specificity": ("stratum", [c.specificity for c in cs]),
            "n": ("stratum", [c.n for c in cs]),
            "m0": ("stratum", [c.m0 for c in cs]),
            "m1": ("stratum", [c.m1 for c in cs]),
            "ci": (("stratum", "ci_bound"), [[c.ci.low, c.ci.high] for c in cs]),
            "pooled_estimate": self.estimate,
            "pooled_naive": self.naive,
            "pooled_ci": ("ci_bound", [self.ci.low, self.ci.high]),
        }
        attrs: dict[str, Any] = {
            "ci_kind": self.method,
            "ci_prob": self.confidence_level,
            "weights_source": self.weights_source,
            "clipped": int(self.clipped),
        }
        d = self.diagnostics
        if d is not None:
            data["specificity_ci"] = (
                ("stratum", "ci_bound"),
                [list(d.specificity_ci[s]) for s in ss],
            )
            data["sensitivity_ci"] = (
                ("stratum", "ci_bound"),
                [list(d.sensitivity_ci[s]) for s in ss],
            )
            if d.unstratified is not None:
                data["unstratified_estimate"] = d.unstratified.estimate
                data["unstratified_ci"] = ("ci_bound", list(d.unstratified.ci))
            attrs.update(
                specificity_pvalue=d.specificity_test.pvalue,
                sensitivity_pvalue=d.sensitivity_test.pvalue,
                homogeneity_pvalue=d.joint_test.pvalue,
            )
        coords = {"stratum": stratum_coord(ss), "ci_bound": ["lower", "upper"]}
        ds = xr.Dataset(data, coords=coords)
        ds.attrs.update(attrs)
        return ds

    def summary(self) -> str:
        """Return a short human-readable report: one line per stratum, pooled, diagnostics."""
        lvl = f"{100 * self.confidence_level:g}%"
        src = "given" if self.weights_source != "test" else (
            "mix of all judged items" if self.design == "random" else "test mix n_s/n"
        )
        width = max(12, *(len(str(s)) for s in self.strata))
        lines = [
            f"Stratified correction over {self.k} {'stratum' if self.k == 1 else 'strata'} "
            f"(weights: {src}), {lvl} intervals by {self.method}",
            f"  {'stratum':<{width}}  weight  corrected  [ lower,  upper]   naive  "
            "sens q̂1 (m1)   spec q̂0 (m0)",
        ]
        for s in self.strata:
            c = self.corrections[s]
            lines.append(
                f"  {s!s:<{width}}  {self.weights[s]:6.3f}  {c.estimate:9.4f}  "
                f"[{c.ci.low:.4f}, {c.ci.high:.4f}]  {c.naive:.4f}  "
                f"{c.sensitivity:.3f} ({c.m1:>4})  {c.specificity:.3f} ({c.m0:>4})"
            )
        lines.append(
            f"  {'pooled':<{width}}          {self.estimate:9.4f}  "
            f"[{self.ci.low:.4f}, {self.ci.high:.4f}]  {self.naive:.4f}"
        )
        d = self.diagnostics
        if d is not None:
            u = d.unstratified
            lines.append(
                f"  {'unstratified':<{width}}  (one confusion matrix: judge not informative)"
                if u is None
                else f"  {'unstratified':<{width}}          {u.estimate:9.4f}  "
                f"[{u.ci.low:.4f}, {u.ci.high:.4f}]  {u.naive:.4f}  "
                f"{u.sensitivity:.3f} ({u.m1:>4})  {u.specificity:.3f} ({u.m0:>4})"
            )
        if d is not None and self.k > 1:
            t0, t1, tj = d.specificity_test, d.sensitivity_test, d.joint_test
            lines += [
                "  equal judge behaviour across strata? likelihood-ratio tests:",
                f"    specificity G = {t0.statistic:.3g} (df {t0.df}, p = {t0.pvalue:.3g}); "
                f"sensitivity G = {t1.statistic:.3g} (df {t1.df}, p = {t1.pvalue:.3g}); "
                f"both p = {tj.pvalue:.3g}",
            ]
        if self.merged:
            moves = ", ".join(f"{a!r} -> {b!r}" for a, b in self.merged.items())
            lines.append(f"  merged strata: {moves}")
        vals = ", ".join(f"{s!r} {self.corrections[s].estimate_unclipped:.4f}"
                         for s in self.strata if self.corrections[s].clipped)  # fmt: skip
        lines += note_lines(
            vals and f"stratum estimates outside [0, 1] were clipped ({vals}); the pooled "
            "estimate uses the unclipped values",
            self.clipped and f"pooled θ̂ = {self.estimate_unclipped:.4f} was clipped to [0, 1]",
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return rate_repr(
            "StratifiedCorrection", estimate=self.estimate, ci=self.ci, strata=list(self.strata),
            method=self.method, confidence_level=self.confidence_level,
            weights_source=self.weights_source, clipped=self.clipped,
        )  # fmt: skip

