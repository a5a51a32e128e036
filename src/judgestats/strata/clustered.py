"""Stratified corrections of repeated items: clusters nested in strata, cluster-robust pool.

With counts built with ``cluster=`` (an item judged several times: epochs, raters, turns) in
the strata, every stratum's variance is the cluster-robust one of :mod:`judgestats.repeated`
(the sandwich over the stratum's items, at the effective sizes, with the correlations of
p̂_s, q̂0_s, q̂1_s where an item has rows in several of them), and the pool of
:mod:`judgestats.strata.pooled` is taken over those:

    Var = Σ_s w_s² Ṽ_s,clu  +  [weights = "test"] · Σ_s U_s (θ̃_s − Σ_t w_t θ̃_t)² / U²,

Ṽ_s,clu the bracket of the paper's eq. (8) at the stratum's effective sizes (ñ_s = n_s,eff + z²,
m̃_ys = m_ys,eff + 2) with the correlation terms (:func:`judgestats.repeated.combined_variance`),
and the mix term's U_s = Σ_{g in s} u_g², U = Σ_g u_g over the test items g, u_g the item's
test rows (``estimand="rows"``, w_s = rows_s / rows) or 1 (``estimand="items"``,
w_s = items_s / items): the sandwich of the test mix over items. With one row per item
U_s = n_s and U = n, the unclustered mix term. The centre is Σ_s w_s (θ̃_s + π_s dθ̃_s) as
without clusters; the critical value is Student's t with Welch–Satterthwaite degrees of freedom
over the rates whose items repeat (:func:`judgestats.repeated.combined_df`; the normal quantile
when no item repeats, so one row per item gives the unclustered interval). The term of the
test mix omits its covariance with the strata's p̂_s, which vanishes with equal rows per item.

``"bootstrap"`` (:func:`clustered_pool_bootstrap`) resamples whole items
(:func:`judgestats.repeated.arms_replicates`): each stratum's calibration items within their
human class; the test items of all strata together when the weights are the test mix (so the
mix is redrawn, as the unclustered stratified bootstrap redraws it) and within their stratum
for given weights; the percentile interval of clip(Σ_s w*_s θ*_s). With one row per item this
is the unclustered stratified parametric bootstrap in distribution.

An item with rows in two strata would correlate the strata; :func:`check_nested` refuses it.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._validation import (
    NotInformativeError,
    StrataMismatchError,
    WeakCalibrationWarning,
    check_informative,
)
from ..correct import Correction, correct_spec
from ..counts import ConfusionCounts, JudgedCounts
from ..kernels import g_statistic, percentile_nan_last, rogan_gladen_raw, wilson_bounds
from ..repeated import (
    ArmsClusters,
    arm_parts,
    arms_clusters,
    arms_replicates,
    combined_df,
    combined_variance,
    t_critical,
)
from ..results import ConfidenceInterval
from ..spec import EstimationSpec
from .diagnostics import HomogeneityTest, StrataDiagnostics, _chi2_sf
from .merge import _apply_merge
from .pooled import stratum_spec

__all__ = ["check_nested", "clustered_pool", "clustered_pool_bootstrap"]

def check_nested(tests: dict, cals: dict) -> None:
    """Raise :class:`StrataMismatchError` when an item id has rows in two strata."""
    home: dict[Any, tuple[Any, str]] = {}
    for name, mapping in (("tests", tests), ("calibrations", cals)):
        for s, counts in mapping.items():
            if counts.clusters is None:
                continue
            for i in counts.clusters.ids.tolist():
                first = home.setdefault(i, (s, f"{name}[{s!r}]"))
                if first[0] != s:
                    raise StrataMismatchError(
                        f"item id {i!r} has rows in {first[1]} and in {name}[{s!r}]: repeated "
                        "items must be nested in strata (every row of an item in one stratum); "
                        "stratify by an item-level covariate, or give the rows of different "
                        "strata different ids"
                    )


def clustered_corrections(spec: EstimationSpec, tests, cals, strata, *, stacklevel, gen=None):
    """Each stratum's cluster-aware correction (``spec``: pooled), warnings named by stratum."""
    out = {}
    each = stratum_spec(spec)
    for s in strata:
        c = cals[s]
        check_informative(c.specificity, c.sensitivity, what=f"in stratum {s!r}, q̂0 + q̂1")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out[s] = correct_spec(each, tests[s], c, rng=gen)
        for w_ in caught:  # per-stratum class sizes: the stratified result's own note
            if not issubclass(w_.category, WeakCalibrationWarning):
                warnings.warn(f"stratum {s!r}: {w_.message}", w_.category,
                              stacklevel=stacklevel + 1)  # fmt: skip
    return out


def mix_weights(tests: dict, strata: list, estimand: str) -> tuple[np.ndarray, tuple]:
    """w_s of the test mix and the mix term's (U_s / U², items; 0 with one row per item)."""
    u_sq, u_sum, items, repeats = [], [], 0, False
    for s in strata:
        t = tests[s]
        if t.clusters is None:
            sizes = np.ones(int(t.n))
        else:
            sizes = t.clusters.totals[:, 1].astype(float)
            repeats = repeats or bool((sizes > 1).any())
        u = sizes if estimand == "rows" else np.ones_like(sizes)
        u_sq.append(float(np.sum(u * u)))
        u_sum.append(float(np.sum(u)))
        items += sizes.size
    total = sum(u_sum)
    return np.array(u_sum) / total, (np.array(u_sq) / total**2, float(items if repeats else 0))


def clustered_pool(arms: ArmsClusters, weights, mix, *, method: str, level: float):
    """Pooled (estimate, low, high, design effect of θ̂) of nested clustered strata (module).

    ``weights``: w_s; ``mix``: None for fixed weights or (U_s / U², items) of the test mix.
    """
    sums, w = arms.summaries, np.asarray(weights, dtype=float)
    raw = np.array([float(rogan_gladen_raw(*s.rates)) for s in sums])
    estimate = float(np.sum(w * raw))
    mix_var = (lambda th: 0.0) if mix is None else (
        lambda th: float(np.sum(mix[0] * (th - np.sum(w * th)) ** 2)))  # fmt: skip
    extra = [] if mix is None else [(mix_var(raw), mix[1])]
    z = t_critical(level, combined_df(sums, w, extra=extra))
    parts = [arm_parts(s, z, adjusted=method == "adjusted-wald") for s in sums]
    var, per = combined_variance(parts, w, arms.correlation)
    theta = np.array([float(p["theta"]) for p in parts])
    shift = np.array([float(p["shift"]) for p in parts])
    share = per / var if var > 0 else np.zeros_like(per)  # π_s
    centre = float(np.sum(w * (theta + share * shift)))
    half = z * np.sqrt(max(var + mix_var(theta), 0.0))
    plain = [arm_parts(s, 0.0, adjusted=False) for s in sums]
    rows = [arm_parts(s, 0.0, adjusted=False, sizes=s.rows) for s in sums]
    n = np.array([s.rows[0] for s in sums])
    flat_mix = 0.0 if mix is None else float(np.sum(n / n.sum() ** 2 * (raw - estimate) ** 2))
    wide = combined_variance(plain, w, arms.correlation)[0] + mix_var(raw)
    narrow = combined_variance(rows, w, np.eye(3 * len(sums)))[0] + flat_mix
    deff = wide / narrow if narrow > 0 else float("nan")
    low, high = np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
    return estimate, float(low), float(high), float(deff)


def clustered_pool_bootstrap(spec: EstimationSpec, tests, cals, strata, fixed, *, reps, gen):
    """Percentile bootstrap of the pooled estimate over item resamples (module docstring).

    ``spec``: the pooled spec; ``fixed``: given weights (None: the test mix, redrawn).
    Returns (low, high, undefined):
    replicates where a stratum with weight > 0 has an undefined θ*_s (q0* + q1* <= 1) are
    left out of the percentiles and counted.
    """
    arms = [(tests[s], cals[s]) for s in strata]
    raw, rows = arms_replicates(arms, design=spec.design, estimand=spec.estimand, reps=reps,
                                gen=gen, pool_tests=fixed is None)  # fmt: skip
    if fixed is None:
        w = rows / rows.sum(axis=1, keepdims=True)
    else:
        w = np.broadcast_to(np.asarray(fixed, dtype=float), raw.shape)
    bad = ((w > 0) & np.isnan(raw)).any(axis=1)
    pooled = np.where(bad, np.nan, np.clip(np.sum(w * np.nan_to_num(raw), axis=1), 0.0, 1.0))
    pooled.sort()  # NaN last
    valid = np.asarray(np.count_nonzero(~bad))
    alpha = 1.0 - float(spec.confidence_level)
    low = percentile_nan_last(pooled[:, None], valid[None], alpha / 2.0)[0]
    high = percentile_nan_last(pooled[:, None], valid[None], 1.0 - alpha / 2.0)[0]
    return float(low), float(high), int(reps - valid)


def clustered_diagnostics(spec: EstimationSpec, tests, cals, strata, summaries, *, gen=None):
    """Return the strata diagnostics at the effective sizes (``spec``: the pooled spec).

    Wilson intervals and likelihood-ratio (G) tests on the effective counts q̂·m_eff (each
    stratum's counts deflated by its design effect, a first-order Rao–Scott correction), and
    the correction of all strata pooled (their items merged).
    """
    level = spec.confidence_level
    z = float(t_critical(level, float("inf")))
    eff = summaries
    cis: dict[str, dict] = {"specificity": {}, "sensitivity": {}}
    table = {}
    for s in strata:
        k = eff[s]
        (_, q0, q1), (_, m0, m1) = k.rates, k.effective
        table[s] = (q0 * m0, (1 - q0) * m0, q1 * m1, (1 - q1) * m1)
        for name, q, m in (("specificity", q0, m0), ("sensitivity", q1, m1)):
            lo, hi = wilson_bounds(q * m, m, z)
            cis[name][s] = ConfidenceInterval(float(lo), float(hi), "wilson", level)
    df = len(strata) - 1
    g0 = g_statistic([[table[s][0] for s in strata], [table[s][1] for s in strata]])
    g1 = g_statistic([[table[s][2] for s in strata], [table[s][3] for s in strata]])
    merged_t = _apply_merge(dict.fromkeys(strata, 0), tests, JudgedCounts)[0]
    merged_c = _apply_merge(dict.fromkeys(strata, 0), cals, ConfusionCounts)[0]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            unstratified: Correction | None = correct_spec(stratum_spec(spec), merged_t,
                                                           merged_c, rng=gen)  # fmt: skip
    except NotInformativeError:
        unstratified = None
    return StrataDiagnostics(
        specificity_ci=cis["specificity"], sensitivity_ci=cis["sensitivity"],
        specificity_test=HomogeneityTest("specificity", g0, df, _chi2_sf(g0, df)),
        sensitivity_test=HomogeneityTest("sensitivity", g1, df, _chi2_sf(g1, df)),
        joint_test=HomogeneityTest("both", g0 + g1, 2 * df, _chi2_sf(g0 + g1, 2 * df)),
        unstratified=unstratified,
        test_mix={s: tests[s].n / merged_t.n for s in strata},
        calibration_mix={s: cals[s].m / merged_c.m for s in strata},
    )  # fmt: skip


def pool_arms(tests: dict, cals: dict, strata: list, estimand: str) -> ArmsClusters:
    """Return the strata as arms of :func:`judgestats.repeated.arms_clusters`."""
    return arms_clusters([(tests[s], cals[s]) for s in strata], estimand)
