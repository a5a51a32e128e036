r"""Repeated items: design effects, effective sizes and cluster-robust intervals.

An item judged several times (Inspect AI epochs, several sampled answers to one prompt, the
turns of one conversation, several human raters) gives rows that are not independent: they
share the item's difficulty, and often its human label. Counting them as independent items
makes every interval too short (issue 27 measured coverage 0.43–0.88 at 95%). Counts built with
``cluster=`` keep each item's totals (:mod:`judgestats.counts.clusters`); this module turns them
into the corrections' intervals.

**The estimand.** ``estimand="rows"`` (default) estimates the rate over rows, each verdict
weight 1 (p̂ = positive/n as for unclustered counts); ``estimand="items"`` the rate over items,
each item weight 1 (an item's rows share its weight, so p̂ is the mean over items of each
item's judged share, and a human label that varies within an item, several raters or epochs,
counts as the item's share of label 1). With the same number of rows per item the two agree.

**Design effects.** Each estimator rests on three rates, each a ratio of two totals over rows:
(p̂, q̂0, q̂1) for the Rogan–Gladen estimator of the paper's by-human-label design, and (π̂, PPV̂,
FOR̂) for the judge-conditional estimator of the random and by-judge-label designs
(:mod:`judgestats.designs`). For a rate r = A/B with item totals (a_g, b_g), the linearised
(sandwich) variance over the G items with b_g > 0 is

    V_clu = G/(G − 1) · Σ_g (a_g − r b_g)² / B²,

and its design effect is deff = V_clu / [r(1 − r)/(R − 1)], R the rate's rows. With one row per
item deff = 1 exactly. The effective size is R / max(deff, 1): rows never carry more information
than independent rows (a design effect below 1, negatively correlated repeats, is not used to
narrow an interval). Two rates that share items (the human label varies within an item, an item
has test and calibration rows, or, under the random design, every calibration item) are
correlated: r_jk = Σ_g e_gj e_gk / √(Σ e_gj² Σ e_gk²) with e_gj = (a_gj − r_j b_gj)/B_j.

**0/0.** Where a rate's design effect is undefined (the rate is 0 or 1, fewer than two items or
two rows) it is the pooled design effect of the estimator's other rates,
Σ V_clu / Σ [r(1 − r)/(R − 1)] over those with a defined one, and where none is defined the
rate's rows per item R/G (every item counts once: an exact count of items, so the critical
value is the normal one, not Student's t of a sandwich variance that was not estimated).
A rate whose rows are all one item's borrows the pooled design effect, a guess that a
:class:`~judgestats.RepeatedItemsWarning` names (one item's variance is not estimable).

**Intervals** (``method=``): ``"adjusted-wald"`` is the paper's eq. (8) (or, under the random
and by-judge-label designs, their pseudo-count interval) evaluated at the effective sizes, with
the correlations' terms in the delta-method variance (:func:`judgestats.kernels.delta_se`),
and Student's t critical value with Welch–Satterthwaite degrees of freedom over the rates
whose items repeat (items − 1 each: a sandwich variance from G items is estimated with about
G − 1 degrees of freedom). For one row per item every rate's df is infinite and the interval
is the unclustered one to rounding. ``"wald"`` is the same at the
plain estimates. ``"bootstrap"`` resamples whole items with replacement, within strata that
follow the design (test items; calibration items by human class, by judge class or together;
items with rows in several of these) and is the parametric bootstrap when every item has one
row. The likelihood and posterior methods model independent rows and refuse clustered counts
(:class:`~judgestats.errors.ClusteredCountsError`).

References
----------
Kish, L. (1965). Survey Sampling, ch. 8 (design effect, effective sample size).
Liang, K.-Y. & Zeger, S. L. (1986). Longitudinal data analysis using generalized linear models.
Biometrika 73, 13–22 (the sandwich variance over clusters).
Dean, N. & Pagano, M. (2015). Evaluating confidence interval methods for binomial proportions in
clustered surveys. Journal of Survey Statistics and Methodology 3, 484–503 (adjusted intervals
at the effective sample size).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import (
    MethodError,
    RepeatedItemsWarning,
    check_choice,
    check_positive_int,
    check_rng,
)
from .counts import ConfusionCounts, JudgedCounts
from .counts.clusters import JointClusters, joint_arms, joint_clusters
from .designs import BY_HUMAN_LABEL, Design
from .kernels import (
    BOUNDARY_RULES,
    Bounds,
    delta_parts,
    percentile_nan_last,
    z_value,
)

__all__ = [
    "ESTIMANDS",
    "REPEAT_BOUND",
    "ArmsClusters",
    "ClusterSummary",
    "arm_parts",
    "arms_bootstrap",
    "arms_clusters",
    "arms_replicates",
    "cluster_summary",
    "clustered_bounds",
    "combined_df",
    "combined_variance",
    "is_clustered",
    "item_weights",
    "pooled_design_effects",
    "ratio_residuals",
    "repeats_agree",
    "resample_totals",
    "t_critical",
    "welch_df",
]

#: What a clustered correction estimates: the rate over rows or over items.
ESTIMANDS = ("rows", "items")
#: The guard rail's bound on the design effect of θ̂ (:func:`repeats_matter`): above it,
#: counting rows as items makes the interval more than √1.2 ≈ 1.1 times too short.
REPEAT_BOUND = 1.2

# Each rate as (numerator, denominator) coefficients over an item's counts (x, n, tp, fn, tn, fp).
_CELLS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "p": ((1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0)),  # judged 1 among test rows
    "q0": ((0, 0, 0, 0, 1, 0), (0, 0, 0, 0, 1, 1)),  # specificity
    "q1": ((0, 0, 1, 0, 0, 0), (0, 0, 1, 1, 0, 0)),  # sensitivity
    "pi": ((1, 0, 1, 0, 0, 1), (0, 1, 1, 1, 1, 1)),  # judged 1 among test + calibration rows
    "ppv": ((0, 0, 1, 0, 0, 0), (0, 0, 1, 0, 0, 1)),  # human 1 among judge-1 calibration rows
    "for": ((0, 0, 0, 1, 0, 0), (0, 0, 0, 1, 1, 0)),  # human 1 among judge-0 calibration rows
    "calibration_judge": ((0, 0, 1, 0, 0, 1), (0, 0, 1, 1, 1, 1)),  # the design check's rate
    "calibration_human": ((0, 0, 1, 1, 0, 0), (0, 0, 1, 1, 1, 1)),  # the label-shift rate
}
_NAMES = tuple(_CELLS)
_NUM = np.array([_CELLS[c][0] for c in _NAMES], dtype=float).T  # (6, C)
_DEN = np.array([_CELLS[c][1] for c in _NAMES], dtype=float).T



def is_clustered(*counts: Any) -> bool:
    """Return True when any of the counts objects carries per-item totals."""
    return any(getattr(c, "clusters", None) is not None for c in counts)


# ----------------------------------------------------------------------------- summary
@dataclass(frozen=True, slots=True)
class ClusterSummary:
    """What the repeated items did to a correction.

    Attributes
    ----------
    estimand : {"rows", "items"}
        The rate over rows (each verdict weight 1) or over items (each item weight 1).
    items, test_items, calibration_items : int
        Items (clusters) in all, with test rows, with calibration rows.
    cells : tuple of str
        The estimator's three rates: ``("p", "q0", "q1")`` (by-human-label) or
        ``("pi", "ppv", "for")`` / ``("p", "ppv", "for")`` (random / by-judge-label).
    rates, rows : tuple of float
        Each rate under the estimand, and its rows.
    design_effect : tuple of float
        Each rate's design effect V_clu / V_binomial (the pooled one where undefined).
    effective : tuple of float
        Each rate's effective size, rows / max(design effect, 1).
    correlation : tuple of float
        Correlations of the three rates' estimates, pairs (0, 1), (0, 2), (1, 2).
    pooled : tuple of bool
        Rates whose design effect is the pooled (or rows-per-item) one: 0/0 otherwise.
    theta_design_effect : float
        Var(θ̂) with the clusters over Var(θ̂) with every row an independent item (plain
        estimates, delta method): how much the repeats widen the interval, squared.
    sizes : dict
        Effective size of every rate this module knows (the diagnostics use two more:
        ``"calibration_judge"`` and ``"calibration_human"``).
    values : dict
        Every rate this module knows under the estimand (``"p"``, ``"q0"``, ``"q1"``, ...).
    repeats : tuple of float
        Items behind each rate where some item has several rows (0 where every item has one).
    df : float
        Degrees of freedom of the interval's critical value (Welch–Satterthwaite over the rates
        whose items repeat, each with items − 1; ``inf``, the normal quantile, when no item has
        more than one row in any rate, or when no rate's design effect is defined: then each
        item counts once, no variance is estimated from the items, and the interval is the
        binomial one over items).
    """

    estimand: str
    items: int
    test_items: int
    calibration_items: int
    cells: tuple[str, ...]
    rates: tuple[float, ...]
    rows: tuple[float, ...]
    design_effect: tuple[float, ...]
    effective: tuple[float, ...]
    correlation: tuple[float, ...]
    pooled: tuple[bool, ...]
    theta_design_effect: float
    sizes: dict[str, float]
    values: dict[str, float]
    df: float = float("inf")
    repeats: tuple[float, ...] = (0.0, 0.0, 0.0)

    @property
    def effective_items(self) -> float:
        """Effective number of test items: the first rate's effective size (p̂ or π̂)."""
        return self.effective[0]

    @property
    def class_sizes(self) -> tuple[float, float]:
        """Effective calibration items of human class 0 and 1 (rows over q̂0's, q̂1's deff).

        Rounded to 9 decimals, so that one row per item gives the rows exactly.
        """
        return round(self.sizes["q0"], 9), round(self.sizes["q1"], 9)

    def by_effective_items(self, calibration: Any) -> Any:
        """Return the calibration counts with m0, m1 the effective items of each human class.

        A weak-regime rule's view of them (:func:`judgestats.intervals.weak_calibration`):
        its class-size rule counts items, not rows; every other field is the counts' own.
        """
        return _EffectiveClasses(calibration, *self.class_sizes)

    def effective_counts(self) -> tuple[JudgedCounts, ConfusionCounts]:
        """Return the counts of independent rows that carry the information of these repeats.

        For the paper's rates (p̂, q̂0, q̂1) only. Each rate's effective size, rounded to a whole
        number (at least 1), with the rate's estimate under the estimand kept to within half
        a count: n* = round(n_eff), positive* = round(p̂ n*); m0* = round(m0_eff),
        tn* = round(q̂0 m0*), fp* = m0* − tn*; m1* = round(m1_eff), tp* = round(q̂1 m1*),
        fn* = m1* − tp* (n_eff, m0_eff, m1_eff the effective sizes, rows over the design
        effect, :attr:`effective`). Whole numbers, because the likelihood methods are defined
        on counts; with one row per item they are the counts themselves. What
        ``method="auto"`` gives the ``"profile-map"`` interval with repeated items
        (:func:`judgestats.intervals.effective_profile_map`).
        """
        if self.cells != ("p", "q0", "q1"):
            raise MethodError(f"effective counts are of the paper's rates (p, q0, q1), not "
                              f"{self.cells}")
        (p, q0, q1), sizes = self.rates, self.effective
        n, m0, m1 = (max(1, int(np.round(s))) for s in sizes)
        tn, tp = int(np.round(q0 * m0)), int(np.round(q1 * m1))
        test = JudgedCounts(int(np.round(p * n)), n)
        return test, ConfusionCounts(tp=tp, fn=m1 - tp, tn=tn, fp=m0 - tn)

    def record(self) -> dict[str, Any]:
        """Flat fields for a result's tidy row: estimand, items, design effects, sizes."""
        out: dict[str, Any] = {"estimand": self.estimand, "items": self.items,
                               "test_items": self.test_items,
                               "calibration_items": self.calibration_items}  # fmt: skip
        for c, d, e in zip(self.cells, self.design_effect, self.effective, strict=True):
            out[f"design_effect_{c}"] = d
            out[f"effective_{c}"] = e
        out["design_effect_theta"] = self.theta_design_effect
        out["t_df"] = self.df
        return out

    def lines(self) -> list[str]:
        """Summary lines: items, design effects and effective sizes."""
        names = {"p": "p̂", "q0": "q̂0", "q1": "q̂1", "pi": "π̂", "ppv": "PPV̂", "for": "FOR̂"}
        cells = ", ".join(
            f"{names[c]} {d:.2f}{' (pooled)' if pl else ''} ({r:g} rows → {e:.0f})"
            for c, d, r, e, pl in zip(self.cells, self.design_effect, self.rows,
                                      self.effective, self.pooled, strict=True)
        )  # fmt: skip
        return [
            f"  repeated items       {self.items} items ({self.test_items} with test rows, "
            f"{self.calibration_items} with calibration rows); estimand: mean over "
            f"{'items' if self.estimand == 'items' else 'rows'}",
            f"  design effects       {cells}; on θ̂ {self.theta_design_effect:.2f}"
            + (f"; critical value t({self.df:.0f})" if np.isfinite(self.df) else ""),
        ]


@dataclass(frozen=True)
class _EffectiveClasses:
    """Calibration counts whose m0, m1 are effective items (``by_effective_items``)."""

    counts: Any
    m0: float
    m1: float

    def __getattr__(self, name: str) -> Any:
        return getattr(self.counts, name)


def item_weights(size: Any, estimand: str) -> np.ndarray:
    """Each item's row weight: 1 (``"rows"``) or 1 / its rows ``size`` (``"items"``; 0 if none).

    Under ``"items"`` an item's rows share its weight 1, wherever they lie (test rows,
    calibration rows, several human labels).
    """
    size = np.asarray(size, dtype=float)
    if estimand == "rows":
        return np.ones(size.shape)
    return np.where(size > 0, 1.0 / np.maximum(size, 1.0), 0.0)


def _weights(rows: np.ndarray, estimand: str) -> np.ndarray:
    """Each distinct item's row weight in one arm: 1 (rows) or 1 / its rows there (items)."""
    return item_weights(rows[:, 1] + rows[:, 2:6].sum(axis=1), estimand)


def ratio_residuals(a: Any, b: Any, weight: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratio rates r = A/B over items and each item's linearised residual (a_g − r b_g)/B.

    ``a``, ``b`` (U, C): item totals of each rate's numerator and denominator (already
    weighted by the estimand); ``weight`` (U,): how many items have that row. Returns the
    rates (C,), the residuals e (U, C) (0 for a rate with B = 0) and the cross-moments
    Σ_g e_g e_gᵀ (C, C), of which G/(G − 1) times the diagonal is the sandwich variance
    V_clu of the module docstring.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    w = np.asarray(weight, dtype=float)
    total_a, total_b = w @ a, w @ b
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = total_a / total_b
        e = np.where(total_b > 0, (a - np.nan_to_num(rate) * b) / total_b, 0.0)
    return rate, e, (e * w[:, None]).T @ e


def _moments(joint: JointClusters, estimand: str) -> dict[str, np.ndarray]:
    """Per rate: rate, rows, items, sandwich variance V_clu; cross-moments of the residuals.

    With several arms (:func:`~judgestats.counts.clusters.joint_arms`) the rates are arm
    by arm (arm k's rate c at column k·C + c) and ``cross`` spans them all.
    """
    w = joint.weight.astype(float)
    a_parts, b_parts, den_parts = [], [], []
    for k in range(joint.rows.shape[1] // 6):
        rows = joint.rows[:, 6 * k : 6 * k + 6].astype(float)
        scale = _weights(rows, estimand)[:, None]
        a_parts.append(rows @ _NUM * scale)  # (U, C) item totals, weighted
        b_parts.append(rows @ _DEN * scale)
        den_parts.append(rows @ _DEN)
    a, b, den = np.hstack(a_parts), np.hstack(b_parts), np.hstack(den_parts)
    rate, _, cross = ratio_residuals(a, b, w)
    items = w @ (den > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        v_clu = items / (items - 1.0) * np.diag(cross)
    return {"rate": rate, "rows": w @ den, "items": items, "v_clu": v_clu,
            "cross": cross}  # fmt: skip


def _design_effects(m: dict[str, np.ndarray], idx: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Design effect of each rate in ``idx`` and whether it is the pooled (0/0) one."""
    rate, rows, items, v_clu = (m[k][idx] for k in ("rate", "rows", "items", "v_clu"))
    with np.errstate(divide="ignore", invalid="ignore"):
        v_bin = rate * (1.0 - rate) / (rows - 1.0)
    return pooled_design_effects(v_clu, v_bin, items, rows)


def pooled_design_effects(v_clu: Any, v_bin: Any, items: Any, rows: Any) -> tuple[Any, Any]:
    """Design effects V_clu / V_bin, with the module's 0/0 rule; and which are pooled.

    ``v_clu``: each estimate's sandwich variance; ``v_bin``: its variance with every row an
    independent item (denominator rows − 1, so that one row per item gives exactly 1);
    ``items``, ``rows``: its items and rows. Undefined where fewer than two items or rows or
    V_bin = 0: there the pooled Σ V_clu / Σ V_bin of the defined ones, else rows / items.
    """
    v_clu, v_bin = np.asarray(v_clu, dtype=float), np.asarray(v_bin, dtype=float)
    items, rows = np.asarray(items, dtype=float), np.asarray(rows, dtype=float)
    ok = (items >= 2) & (rows >= 2) & (v_bin > 0) & np.isfinite(v_clu)
    with np.errstate(divide="ignore", invalid="ignore"):
        deff = np.where(ok, v_clu / v_bin, np.nan)
    if not ok.all():
        if ok.any():
            fill = v_clu[ok].sum() / v_bin[ok].sum()
        else:  # nothing to pool: every item counts once
            fill = np.where(items > 0, rows / np.maximum(items, 1.0), 1.0)
        deff = np.where(ok, deff, fill)
    return deff, ~ok


def _correlations(cross: np.ndarray, idx: list[int]) -> tuple[float, float, float]:
    c = cross[np.ix_(idx, idx)]
    d = np.sqrt(np.diag(c))
    out = []
    for i, j in ((0, 1), (0, 2), (1, 2)):
        out.append(float(c[i, j] / (d[i] * d[j])) if d[i] > 0 and d[j] > 0 else 0.0)
    return out[0], out[1], out[2]


def cluster_summary(test: Any, calibration: Any, design: Design, estimand: str) -> ClusterSummary:
    """Design effects, effective sizes and correlations of a design's rates (see module)."""
    estimand = check_choice("estimand", estimand, ESTIMANDS)
    joint = joint_clusters(test, calibration)
    m = _moments(joint, estimand)
    cells = design.cells
    idx = [_NAMES.index(c) for c in cells]
    deff, pooled = _design_effects(m, idx)
    per_item = joint.rows @ _DEN[:, idx]
    repeated = (per_item > 1).any(axis=0)  # a rate with an item's repeats
    all_deff, _ = _design_effects(m, list(range(len(_NAMES))))
    sizes = dict(zip(_NAMES, (m["rows"] / np.maximum(all_deff, 1.0)).tolist(), strict=True))
    for c, d in zip(cells, deff, strict=True):  # the estimator's own rule for its three
        sizes[c] = float(m["rows"][_NAMES.index(c)] / max(d, 1.0))
    effective = tuple(sizes[c] for c in cells)
    corr = _correlations(m["cross"], idx)
    rows = joint.rows
    has_test, has_cal = rows[:, 1] > 0, rows[:, 2:].sum(axis=1) > 0
    return ClusterSummary(
        estimand=estimand, items=joint.items,
        test_items=int(joint.weight[has_test].sum()),
        calibration_items=int(joint.weight[has_cal].sum()),
        cells=cells, rates=tuple(float(v) for v in m["rate"][idx]),
        rows=tuple(float(v) for v in m["rows"][idx]),
        design_effect=tuple(float(v) for v in deff), effective=effective, correlation=corr,
        pooled=tuple(bool(v) for v in pooled),
        theta_design_effect=_theta_design_effect(design, m["rate"][idx], m["rows"][idx],
                                                 effective, corr),
        sizes=sizes, values=dict(zip(_NAMES, m["rate"].tolist(), strict=True)),
        df=_satterthwaite(design, m["rate"][idx], effective, m["items"][idx],
                          repeated & ~(pooled.all())),
        repeats=tuple(float(v) for v in np.where(repeated, m["items"][idx], 0.0)),
    )  # fmt: skip


def _satterthwaite(design, rates, effective, items, repeated) -> float:
    """Welch–Satterthwaite df of Var(θ̂) = Σ g_j² V_j: rates with repeats have items − 1."""
    grad, var = _df_terms(design, rates, effective)
    return welch_df(grad**2 * var, np.where(repeated, np.asarray(items, dtype=float), 0.0))


def _df_terms(design, rates, effective) -> tuple[np.ndarray, np.ndarray]:
    """Gradient of θ in the design's three rates and their variances r(1 − r)/effective size."""
    r = np.nan_to_num(np.asarray(rates, dtype=float), nan=0.5)
    grad = design.rate_gradient(rates)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.nan_to_num(r * (1.0 - r) / np.asarray(effective, dtype=float))
    return grad, var


def welch_df(parts: Any, items: Any) -> float:
    """Welch–Satterthwaite df of a sum of variance parts.

    ``items`` > 0 where a part's items repeat (df items − 1), 0 where it is binomial (df ∞);
    ``inf`` when nothing repeats.
    """
    parts, items = np.nan_to_num(np.asarray(parts, dtype=float)), np.asarray(items, dtype=float)
    repeated = items > 0
    if not repeated.any() or parts.sum() <= 0:
        return float("inf")
    dfs = np.maximum(items - 1.0, 1.0)
    # a rate with no rows (an empty judge class: its rate guessed) has an unbounded part; the
    # sums then overflow to inf, which is the limit: df inf where that part is binomial
    with np.errstate(over="ignore", invalid="ignore"):
        den = np.sum(np.where(repeated, parts**2 / dfs, 0.0))
        return float(parts.sum() ** 2 / den) if den > 0 else float("inf")  # repeats carry nothing


def t_critical(confidence_level: float, df: float) -> float:
    """Return the two-sided critical value: Student's t with ``df`` (normal where infinite)."""
    if not np.isfinite(df):
        return float(z_value(confidence_level))
    from scipy.special import stdtrit  # lazy: keeps `import judgestats` light

    return float(stdtrit(df, 1.0 - (1.0 - float(confidence_level)) / 2.0))


def _theta_design_effect(design, rates, rows, effective, corr) -> float:
    """Var(θ̂) with clusters / Var(θ̂) with independent rows, delta method at plain rates."""
    with np.errstate(divide="ignore", invalid="ignore"):  # 0/0: every rate at 0 or 1
        ratio = design.variance_at(rates, effective, corr) / design.variance_at(rates, rows)
    return float(ratio) if np.isfinite(ratio) else float("nan")


# ----------------------------------------------------------------------------- intervals
def clustered_bounds(spec: Any, test: Any, calibration: Any, rng: Any = None) -> Bounds:
    """Interval of one clustered data set by the spec's method (module docstring); NaN if undefined.

    ``spec``: a resolved :class:`~judgestats.spec.EstimationSpec` whose method accounts for the
    repeats (the capability table's row for repeated items). The returned
    :class:`~judgestats.kernels.Bounds` carry the estimate (unclipped) and the
    :class:`ClusterSummary` (``clusters``).
    """
    design, options = spec.design, dict(spec.options)
    design.check_counts(test, calibration)
    summary = cluster_summary(test, calibration, design, spec.estimand)
    _warn_one_item(summary)
    est = design.estimate_from_rates(summary.rates)
    if spec.method == "bootstrap":
        return _cluster_bootstrap(test, calibration, spec, rng, est, summary, **options)
    boundary = check_choice("boundary", options.pop("boundary", "widen"), BOUNDARY_RULES)
    z = t_critical(spec.confidence_level, summary.df)
    low, high, widened = design.bounds_at(summary.rates, summary.effective, z, method=spec.method,
                                          corr=summary.correlation, boundary=boundary)  # fmt: skip
    if not design.informative(summary.rates):
        low = high = np.asarray(np.nan)
    return Bounds(np.asarray(low), np.asarray(high), np.zeros((), dtype=np.int64),
                  estimate=np.asarray(est), widened=np.asarray(widened),
                  clusters=summary)  # fmt: skip


def _warn_one_item(summary: ClusterSummary) -> None:
    """Say where a rate's rows are all one item's: its sandwich variance is not estimable.

    Its design effect is then the pooled one of the other rates (module docstring, 0/0), which
    treats the item's rows as that correlated as the other rates' items: a guess, said here.
    """
    names = {"p": "test", "pi": "test and calibration", "q0": "human-0 calibration",
             "q1": "human-1 calibration", "ppv": "judge-1 calibration",
             "for": "judge-0 calibration"}  # fmt: skip
    parts = zip(summary.cells, summary.repeats, summary.rows, summary.design_effect, strict=True)
    one = [(c, r, d) for c, g, r, d in parts if g == 1]
    if not one or all(summary.pooled):  # none borrowed: each item counts once, no guess
        return
    said = "; ".join(f"the {r:g} {names[c]} rows are one item, so its design effect (taken "
                     f"as {d:.2f}, borrowed from the other rates) cannot be estimated and "
                     f"they count as {r / max(d, 1.0):.0f} effective items" for c, r, d in one)
    warnings.warn(f"{said}: the interval holds only if that item's rows are nearly "
                  "independent; a cluster-robust variance needs at least 2 items",
                  RepeatedItemsWarning, stacklevel=4)  # fmt: skip


# ----------------------------------------------------------------------------- several arms
@dataclass(frozen=True, slots=True)
class ArmsClusters:
    """Several by-human-label corrections (arms) whose rows may share items.

    ``summaries``: each arm's :class:`ClusterSummary` (what :func:`cluster_summary` gives for
    that arm alone, so each arm's estimate and effective sizes are those of ``js.correct``);
    ``correlation``: (3K, 3K) correlations of the arms' rates (p̂_k, q̂0_k, q̂1_k) over the
    items, r_ij = Σ_g e_gi e_gj / √(Σ e_gi² Σ e_gj²) (module docstring), 0 across arms that
    share no item, 1 between two arms' copies of one shared calibration set.
    """

    summaries: tuple[ClusterSummary, ...]
    correlation: np.ndarray


def arms_clusters(arms: Any, estimand: str) -> ArmsClusters:
    """Cluster summaries and rate correlations of (test, calibration) arms (by-human-label)."""
    arms = list(arms)
    summaries = tuple(cluster_summary(t, c, BY_HUMAN_LABEL, estimand) for t, c in arms)
    m = _moments(joint_arms(arms), estimand)
    cells = [_NAMES.index(c) for c in BY_HUMAN_LABEL.cells]
    idx = [k * len(_NAMES) + c for k in range(len(arms)) for c in cells]
    cross = m["cross"][np.ix_(idx, idx)]
    sd = np.sqrt(np.diag(cross))
    with np.errstate(divide="ignore", invalid="ignore"):
        corr = np.where(np.outer(sd, sd) > 0, cross / np.outer(sd, sd), 0.0)
    np.fill_diagonal(corr, 1.0)
    return ArmsClusters(summaries, corr)


def arm_parts(summary: ClusterSummary, z: Any, *, adjusted: bool, sizes: Any = None) -> dict:
    """:func:`~judgestats.kernels.delta_parts` of one arm at its rates and effective sizes.

    ``sizes`` replaces the effective sizes (e.g. ``summary.rows``: rows as independent items).
    """
    p, q0, q1 = summary.rates
    n, m0, m1 = summary.effective if sizes is None else sizes
    return delta_parts(p, q0, q1, n, m0, m1, z, adjusted=adjusted)


def combined_variance(parts: Any, coef: Any, correlation: Any) -> tuple[float, np.ndarray]:
    """Delta-method Var(Σ_k c_k θ_k) of several arms with correlated rates; and each arm's.

    ``parts``: each arm's :func:`judgestats.kernels.delta_parts` (eq. (8)'s adjusted quantities
    or eq. (15)'s plain ones, at the effective sizes); θ_k's gradient is (1, 1 − θ_k, −θ_k)/D_k
    (D_k = q0_k + q1_k − 1), so with u = (c_k g_kj √V_kj) the variance is uᵀ R u, R the rates'
    correlations (:class:`ArmsClusters`). Within one arm this is :func:`~judgestats.kernels.
    delta_se` with its ``corr``; with R = I it is Σ_k c_k² Var(θ̂_k) (independent arms).
    """
    u = np.concatenate([
        c * np.array([1.0, 1.0 - p["theta"], -p["theta"]]) / p["den"]
        * np.sqrt(np.array([p["var_p"], p["v0"], p["v1"]], dtype=float))
        for p, c in zip(parts, coef, strict=True)
    ])  # fmt: skip
    cov = u[:, None] * np.asarray(correlation, dtype=float) * u[None, :]
    k = len(parts)
    per_arm = np.array([cov[3 * i : 3 * i + 3, 3 * i : 3 * i + 3].sum() for i in range(k)])
    return float(cov.sum()), per_arm


def combined_df(summaries: Any, coef: Any, calibrations: Any = None, extra: Any = ()) -> float:
    """Welch–Satterthwaite df of Var(Σ_k c_k θ̂_k) over the arms' rates whose items repeat.

    Each rate contributes (c_k g_kj)² V_kj at the plain rates and effective sizes, with items − 1
    degrees of freedom where its items repeat; ``calibrations[k]`` labels arm k's calibration
    set, and arms with one label share it (their q̂ terms add before squaring). ``extra``:
    further (variance, items) parts, items 0 for a binomial part. ``inf`` when nothing repeats.
    """
    labels = list(range(len(summaries))) if calibrations is None else list(calibrations)
    parts, items = [], []
    shared: dict[Any, list] = {}
    for s, c, label in zip(summaries, coef, labels, strict=True):
        grad, var = _df_terms(BY_HUMAN_LABEL, s.rates, s.effective)
        parts.append((c * grad[0]) ** 2 * var[0])
        items.append(s.repeats[0])
        slot = shared.setdefault(label, [np.zeros(2), var[1:], np.asarray(s.repeats[1:])])
        slot[0] = slot[0] + c * grad[1:]
    for g, var, reps in shared.values():
        parts += list(g**2 * var)
        items += list(reps)
    for var, n in extra:
        parts.append(var)
        items.append(n)
    return welch_df(parts, items)


# ----------------------------------------------------------------------------- bootstrap
def _arm_strata(rows: np.ndarray, design: Design) -> np.ndarray:
    """Return each item's resampling stratum in one arm (−1: no row there).

    Test items; calibration items by the design's class; items with test and calibration rows.
    """
    test, cal = rows[:, 1] > 0, rows[:, 2:].sum(axis=1) > 0
    one, zero = design.calibration_classes(rows)
    sub = np.where(one & zero, 2, np.where(one, 1, 0))
    return np.where(test & cal, 6, np.where(cal, 2 + sub, np.where(test, 0, -1)))


def _strata(rows: np.ndarray, design: Design, pool_tests: bool = False) -> np.ndarray:
    """Return each distinct item's resampling stratum over K arms (rows (U, 6K)).

    Items whose role (:func:`_arm_strata`) is the same in every arm form one stratum, numbered
    in sorted order (for one arm: the strata of test items, calibration classes and both).
    ``pool_tests``: items with only test rows form one stratum whatever their arm (strata of
    one population whose test mix is random).
    """
    codes = np.stack([_arm_strata(rows[:, 6 * k : 6 * k + 6], design)
                      for k in range(rows.shape[1] // 6)], axis=1)  # fmt: skip
    if pool_tests:
        codes[(codes <= 0).all(axis=1)] = -2
    return np.unique(codes, axis=0, return_inverse=True)[1].reshape(-1)


def _replicate_totals(joint: JointClusters, estimand: str, design: Design, reps: int, gen,
                      pool_tests: bool = False) -> np.ndarray:  # fmt: skip
    """Item totals (x, n, tp, fn, tn, fp) of each arm in ``reps`` resamples: (reps, K, 6).

    K = arms of ``joint`` (:func:`~judgestats.counts.clusters.joint_arms`), each item's rows
    weighted by the estimand; a resampled item brings its rows in every arm, so arms that share
    items (a shared calibration set, a prompt judged for several models) share its draw.
    """
    arms = joint.rows.shape[1] // 6
    scale = np.concatenate([np.repeat(_weights(joint.rows[:, 6 * k : 6 * k + 6], estimand), 6)
                            .reshape(-1, 6) for k in range(arms)], axis=1)  # fmt: skip
    rows = joint.rows.astype(float) * scale
    strata = _strata(joint.rows, design, pool_tests)
    return resample_totals(rows, joint.weight, strata, reps, gen).reshape(reps, arms, 6)


def resample_totals(rows: Any, weight: Any, strata: Any, reps: int, gen: Any) -> np.ndarray:
    """Column totals of ``reps`` stratified item resamples: shape (reps, F).

    ``rows`` (U, F): distinct items' (weighted) counts; ``weight`` (U,): how many items have
    each; ``strata`` (U,): resampling stratum. Each stratum's items are drawn with replacement,
    as many as it has (a multinomial over its distinct rows), in sorted stratum order.
    """
    rows, weight = np.asarray(rows, dtype=float), np.asarray(weight)
    totals = np.zeros((reps, rows.shape[1]))
    for h in np.unique(strata):
        sel = strata == h
        w = weight[sel]
        chunk = max(1, 2_000_000 // max(1, int(sel.sum())))
        for start in range(0, reps, chunk):
            k = min(chunk, reps - start)
            draws = gen.multinomial(int(w.sum()), w / w.sum(), size=k)
            totals[start : start + k] += draws @ rows[sel]
    return totals


def arms_replicates(arms: Any, *, design: Design, estimand: str, reps: int, gen: Any,
                    pool_tests: bool = False) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Unclipped estimates and test rows of K arms in ``reps`` joint item resamples.

    Whole items are drawn with replacement within strata (:func:`_strata`: an item's role in
    every arm, e.g. test items of model A, calibration items of human class 1, items with test
    rows for A and B), so items shared by several arms move together and each stratum keeps its
    size; ``pool_tests``: the items with only test rows are one stratum, so each arm's test
    rows vary (a stratified correction's test mix). Counts without clusters enter as one item
    per row: then every stratum is one binomial (multinomial) count and the draws are the
    parametric bootstrap in distribution. Returns θ* (reps, K), NaN where undefined
    (q0* + q1* <= 1), and the test rows (weighted by the estimand) (reps, K).
    """
    totals = _replicate_totals(joint_arms(arms), estimand, design, reps, gen, pool_tests)
    idx = [_NAMES.index(c) for c in design.cells]
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = np.moveaxis(totals @ _NUM[:, idx] / (totals @ _DEN[:, idx]), -1, 0)
        return design.estimate_from_rates(rates), totals[..., 1]


def arms_bootstrap(
    arms: Any, *, design: Design, estimand: str, reps: int, gen: Any
) -> np.ndarray:
    """Clipped estimates of K (test, calibration) arms in ``reps`` joint item resamples.

    :func:`arms_replicates` (strata of the items' roles), clipped to [0, 1]; shape (reps, K),
    NaN where a replicate's estimate is undefined (q0* + q1* <= 1).
    """
    raw = arms_replicates(arms, design=design, estimand=estimand, reps=reps, gen=gen)[0]
    with np.errstate(invalid="ignore"):
        return np.clip(raw, 0.0, 1.0)


def _cluster_bootstrap(test, calibration, spec, rng, est, summary,
                       n_resamples: int = 9999) -> Bounds:  # fmt: skip
    """Percentile interval of the clipped estimate over item resamples (undefined counted)."""
    reps = check_positive_int("n_resamples", n_resamples, minimum=2)
    gen = check_rng(rng)
    theta = arms_bootstrap([(test, calibration)], design=spec.design, estimand=spec.estimand,
                           reps=reps, gen=gen)[:, 0]
    theta = np.sort(theta)  # NaN (undefined) last
    valid = np.asarray(np.count_nonzero(~np.isnan(theta)))
    alpha = 1.0 - float(spec.confidence_level)
    low = percentile_nan_last(theta[:, None], valid[None], alpha / 2.0)[0]
    high = percentile_nan_last(theta[:, None], valid[None], 1.0 - alpha / 2.0)[0]
    if not spec.design.informative(summary.rates):
        low = high = np.asarray(np.nan)
    return Bounds(np.asarray(low), np.asarray(high), np.asarray(reps - valid), reps,
                  estimate=np.asarray(est), clusters=summary)  # fmt: skip


def repeats_matter(summary: ClusterSummary, items: Any = None) -> bool:
    """Whether counting rows as items would make the interval measurably too short.

    True when the design effect on θ̂ exceeds :data:`REPEAT_BOUND` and is measurably due to
    correlated repeats: either it exceeds its sampling noise under uncorrelated repeats,
    1 + 2.5·√(2/(G − 1)) with G the fewest items behind a rate whose rows repeat (a design
    effect estimated from G items has a standard deviation of about √(2/(G − 1)) when the
    repeats carry no correlation), or, given the group's per-item cell counts ``items``, the
    items' rows agree beyond chance (:func:`repeats_agree`: duplicated rows, which a design
    effect from some twenty items cannot tell from noise). With no repeated rows: False.
    Where the design effect on θ̂ is undefined (0/0: every rate at 0 or 1, so θ̂'s variance is
    0 with rows or items) it cannot be measured, and the rows' agreement alone decides
    (False without ``items``).
    """
    reps = [g for g in summary.repeats if g > 0]
    if not reps:
        return False
    noise = 1.0 + 2.5 * np.sqrt(2.0 / max(min(reps) - 1.0, 1.0))
    effect = summary.theta_design_effect
    if not np.isfinite(effect):  # undefined (0/0): only the rows' agreement can tell
        return bool(items is not None and repeats_agree(items))
    if effect <= REPEAT_BOUND:
        return False
    return bool(effect > noise or (items is not None and repeats_agree(items)))


#: One-sided z of :func:`repeats_agree` (a 1% test of agreement beyond chance).
AGREEMENT_Z = 2.326


def repeats_agree(items: Any) -> bool:
    """Whether an item's rows carry the same labels more often than independent rows would.

    ``items``: per-item cell counts, shape (items, ≥ 6), columns as
    :data:`judgestats.frames.N_CODES` (0–1 a test row judged 0/1, 2–5 a calibration row's tn,
    fp, fn, tp). In each part (test, calibration) an item with k ≥ 2 rows is *alike* when they
    all fall in one cell; with independent rows this has probability Σ_c π_c^k, π the part's
    cell shares. The count of alike items X against its expectation E = Σ P_i under
    independence, z = (X − E)/√Σ P_i(1 − P_i), is a 1% one-sided test (z > :data:`AGREEMENT_Z`).
    Duplicated rows are alike in every item.

    Examples
    --------
    Thirty calibration items, each row written twice (tn, fp, fn or tp twice over):

    >>> import numpy as np
    >>> from judgestats.repeated import repeats_agree
    >>> per = np.zeros((30, 9), dtype=int)
    >>> per[np.arange(30), 2 + np.arange(30) % 4] = 2
    >>> repeats_agree(per)
    True
    """
    per = np.asarray(items, dtype=float)
    alike = expected = variance = 0.0
    for cols in ((0, 1), (2, 3, 4, 5)):
        part = per[:, cols]
        k = part.sum(axis=1)
        rep = k >= 2
        if not rep.any() or part.sum() == 0:
            continue
        share = part.sum(axis=0) / part.sum()
        prob = (share[None, :] ** k[rep, None]).sum(axis=1)
        alike += float(((part[rep] == k[rep, None]).any(axis=1)).sum())
        expected += float(prob.sum())
        variance += float((prob * (1.0 - prob)).sum())
    if variance <= 0.0:
        return False
    return bool((alike - expected) / np.sqrt(variance) > AGREEMENT_Z)
