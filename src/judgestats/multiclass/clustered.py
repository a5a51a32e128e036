r"""Repeated items for k categories: the cluster-robust delta-method intervals of Ĉ⁻¹p̂.

Counts built with ``cluster=`` (:meth:`~judgestats.CategoryCounts.from_labels`,
:meth:`~judgestats.ConfusionMatrix.from_labels`) keep each item's count vector; this module
turns them into :func:`judgestats.correct_distribution`'s ``"adjusted-delta"`` and ``"wald"``
intervals, as :mod:`judgestats.repeated` does for two categories (whose helpers it uses).

**The estimand.** ``estimand="rows"`` (default): each row weight 1, so p̂ = counts/n and
Ĉ[a, b] = #(judge a, human b)/#(human b) over rows, exactly the unclustered estimates, and θ_b
is the share of rows whose human label is b. ``estimand="items"``: each item weight 1, its
rows (test and calibration rows together) weight 1/(its rows) each: p̂_a is the mean over test
items of the item's share of judge label a, Ĉ[:, b] the judge-label distribution of human-b
rows with those weights, and θ_b the mean over items of the item's share of rows with human
label b. An item whose rows carry different human labels (raters who disagree) therefore
counts in each of its labels' columns with its share, and its truth is that mix. With the
same number of rows per item the two estimands agree.

**The covariance.** θ̂ = Ĉ⁻¹p̂ (paper eq. (23)) is linearised as in the
unclustered method, dθ = A(dp̂ − Σ_b θ_b dĉ_b), A = Ĉ⁻¹. Each of the k + 1 components
x̂_i ∈ {p̂, ĉ_1, …, ĉ_k} is a ratio of item totals, with residual vectors
e_gi = (a_gi − x̂_i b_gi)/B_i over the items g (:func:`judgestats.repeated.ratio_residuals`);
its sandwich covariance is S_ii = G_i/(G_i − 1) Σ_g e_gi e_giᵀ, where the unclustered method
has the multinomial Σ_i = (diag x̂_i − x̂_i x̂_iᵀ)/R_i (R_i its rows, G_i its items). Its design
effect is d_i = tr S_ii / tr[(diag x̂_i − x̂_i x̂_iᵀ)/(R_i − 1)] (exactly 1 with one row per
item; the 0/0 rule of :func:`judgestats.repeated.pooled_design_effects` where undefined) and
its effective size R_i / max(d_i, 1). The sandwich is rescaled to that size,
f_i S_ii with f_i = (R_i − 1)/R_i · max(d_i, 1)/d_i (trace that of the multinomial covariance
at the effective size: rows never count as more than independent items), and the middle matrix
of the delta method is

    M = Σ_g u_g u_gᵀ,   u_g = Σ_i w_i √(f_i G_i/(G_i − 1)) e_gi,   w = (1, −θ_1, …, −θ_k),

which keeps the cross-covariances of components that share items (an item with test and
calibration rows; raters of one item who give different human labels). Cov(θ̂) = A M Aᵀ.
``"wald"`` uses it at the plain estimates; ``"adjusted-delta"`` adds the unclustered method's
pseudo-counts at the effective sizes (p̃ = (p̂ R_e + z²/k)/(R_e + z²), c̃_b = (ĉ_b R_e + 2/k)/
(R_e + 2), centre θ̃ = C̃⁻¹p̃, A = C̃⁻¹) and replaces each component's multinomial part by the
adjusted one: M + Σ_i w_i² [Σ(x̃_i, R_e,i + a_i) − Σ(x̂_i, R_e,i)]. For k = 2 every block's
variance is then the binary case's at its effective size. With one row per item every
d_i = 1, M is the unclustered middle matrix and the intervals are the unclustered ones.

**Critical value.** Per category, Student's t with the Welch–Satterthwaite degrees of freedom
(:func:`judgestats.repeated.welch_df`) of Var(θ̂_a) = Σ_i w_i² (A Σ_i Aᵀ)_aa over the
components whose items repeat (G_i − 1 each; ∞ where every item has one row there); the
normal quantile when nothing repeats. The pseudo-counts use the normal z, as unclustered.

References
----------
Liang, K.-Y. & Zeger, S. L. (1986). Biometrika 73, 13–22 (the sandwich variance over clusters).
Kish, L. (1965). Survey Sampling, ch. 8 (design effect, effective sample size).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import (
    check_positive_int,
    check_rng,
)
from ..designs import DEFAULT_DESIGN, Design, JudgeConditionalDesign, RoganGladenDesign
from ..kernels import judge_conditional_categories, percentile_nan_last, z_value
from ..repeated import (
    item_weights,
    pooled_design_effects,
    ratio_residuals,
    resample_totals,
    t_critical,
    welch_df,
)
from .arrays import _multinomial_cov, _solve, _usable
from .likelihood import alphabet_mle
from .methods import DistributionBounds, table_lists

if TYPE_CHECKING:  # pragma: no cover
    from ..spec import EstimationSpec

__all__ = [
    "CategoryClusterSummary",
    "category_moments",
    "clustered_design_bounds",
    "clustered_distribution_bounds",
    "column_design_effects",
    "item_bootstrap_bounds",
]

@dataclass(frozen=True, slots=True)
class CategoryClusterSummary:
    """What the repeated items did to a k-category correction.

    Attributes
    ----------
    estimand : {"rows", "items"}
        The distribution over rows (each row weight 1) or over items (each item weight 1).
    items, test_items, calibration_items : int
        Items (clusters) in all, with test rows, with calibration rows.
    components : tuple of str
        ``"p"`` (the judged distribution) and one name per column of Ĉ, ``"C[:, label]"``.
    rows, items_per_component : tuple of float
        Each component's rows and items.
    design_effect, effective : tuple of float
        Each component's design effect tr S / tr Σ_multinomial and effective size
        rows / max(design effect, 1).
    pooled : tuple of bool
        Components whose design effect is the pooled (or rows-per-item) one: 0/0 otherwise.
    df : tuple of float
        Per category, the degrees of freedom of its t critical value (``inf``: normal).
    """

    estimand: str
    items: int
    test_items: int
    calibration_items: int
    components: tuple[str, ...]
    rows: tuple[float, ...]
    items_per_component: tuple[float, ...]
    design_effect: tuple[float, ...]
    effective: tuple[float, ...]
    pooled: tuple[bool, ...]
    df: tuple[float, ...]

    def lines(self) -> list[str]:
        """Summary lines: items, design effects and effective sizes, critical values."""
        cells = ", ".join(
            f"{c} {d:.2f}{' (pooled)' if pl else ''} ({r:g} rows → {e:.0f})"
            for c, d, r, e, pl in zip(self.components, self.design_effect, self.rows,
                                      self.effective, self.pooled, strict=True)
        )  # fmt: skip
        finite = [d for d in self.df if np.isfinite(d)]
        span = f"{min(finite):.0f}–{max(finite):.0f}" if finite else ""
        if finite and f"{min(finite):.0f}" == f"{max(finite):.0f}":
            span = f"{min(finite):.0f}"
        crit = f"; critical values t({span})" if finite else ""
        return [
            f"  repeated items       {self.items} items ({self.test_items} with test rows, "
            f"{self.calibration_items} with calibration rows); estimand: mean over "
            f"{self.estimand}",
            f"  design effects       {cells}{crit}",
        ]


# ----------------------------------------------------------------------------- item table
def _item_table(test: Any, calibration: Any) -> tuple[np.ndarray, np.ndarray]:
    """One row per item: its J test counts then its J × K calibration counts (row-major).

    An id on both sides is one item; a side without clusters enters as one item per row.
    Identical rows are merged; returns (rows (U, k + k²), weight (U,): items per row).
    """
    k = len(test.counts)  # J judge letters (= k but for a judge alphabet of its own)
    width = k + np.asarray(calibration.counts).size
    index: dict[Any, int] = {}
    blocks: list[tuple[np.ndarray, int, np.ndarray]] = []
    parts: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    for obj, start in ((test, 0), (calibration, k)):
        if obj.clusters is not None:
            ids = [index.setdefault(i, len(index)) for i in obj.clusters.ids.tolist()]
            blocks.append((np.array(ids, dtype=np.int64), start, obj.clusters.totals))
    if blocks:
        table = np.zeros((len(index), width), dtype=np.int64)
        for rows, start, totals in blocks:
            table[rows, start : start + totals.shape[1]] += totals
        parts.append(table)
        weights.append(np.ones(len(index), dtype=np.int64))
    for obj, start in ((test, 0), (calibration, k)):
        if obj.clusters is None:
            counts = np.asarray(obj.counts, dtype=np.int64).ravel()
            unit = np.zeros((counts.size, width), dtype=np.int64)
            unit[np.arange(counts.size), start + np.arange(counts.size)] = 1
            parts.append(unit[counts > 0])
            weights.append(counts[counts > 0])
    unique, inverse = np.unique(np.concatenate(parts), axis=0, return_inverse=True)
    merged = np.bincount(inverse.reshape(-1), weights=np.concatenate(weights),
                         minlength=len(unique))  # fmt: skip
    return unique, merged.astype(np.int64)


def _columns(t: np.ndarray, c: np.ndarray, design: Design) -> tuple[np.ndarray, np.ndarray]:
    """p̂'s letters, and component b + 1 = column b of Ĉ (J letters): P(judge | human)."""
    return t, np.swapaxes(c, 1, 2)


def _rows(t: np.ndarray, c: np.ndarray, design: Any) -> tuple[Any, Any]:
    """π̂'s judged letters, and component j + 1 = row R̂[j] = P̂(human | judge = j).

    The judged letters behind π̂ are the design's (:meth:`~.JudgeConditionalDesign.pi_counts`).
    """
    return design.pi_counts(t, 0.0, c.sum(axis=2), 0.0)[0], c


#: The components each estimator family rests on (:attr:`judgestats.designs.Design.family`).
_COMPONENTS: dict[str, Callable[..., tuple[Any, Any]]] = {
    RoganGladenDesign.family: _columns,
    JudgeConditionalDesign.family: _rows,
}


def category_moments(test: Any, calibration: Any, estimand: str,
                     design: Design = DEFAULT_DESIGN) -> dict[str, Any]:  # fmt: skip
    """Components' rates, residuals, rows, items and sandwich covariances (see module).

    By human label: component 0 is p̂, component b + 1 column b of Ĉ. Under the random and
    by-judge-label designs: component 0 is π̂ (judge letters among the test rows, and the
    calibration rows under ``"random"``), component j + 1 row R̂[j] = P̂(human | judge = j)
    (:mod:`judgestats.designs`). Returns ``rate`` (k + 1, k), ``e`` (U, k + 1, k) item
    residuals, ``weight`` (U,), ``rows``, ``items``, ``repeated`` (k + 1,), ``sandwich``
    (k + 1, k, k) = G/(G − 1) Σ_g e_g e_gᵀ, and the item counts.
    """
    table, weight = _item_table(test, calibration)
    j, k = np.asarray(calibration.counts).shape  # J letters (J = k without an alphabet)
    t = table[:, :j].astype(float)
    c = table[:, j:].reshape(-1, j, k).astype(float)  # (U, judge a, human b)
    first, parts = _COMPONENTS[design.family](t, c, design)
    size, width = parts.shape[1] + 1, parts.shape[2]  # components, and each one's length
    den = np.concatenate([first.sum(axis=1)[:, None], parts.sum(axis=2)], axis=1)
    scale = item_weights(t.sum(axis=1) + c.sum(axis=(1, 2)), estimand)[:, None]
    num = np.concatenate([first, parts.reshape(-1, (size - 1) * width)], axis=1)
    rate, e, _ = ratio_residuals(num * scale, np.repeat(den, width, axis=1) * scale, weight)
    e = e.reshape(-1, size, width)
    items = weight @ (den > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(items >= 2, items / (items - 1.0), np.nan)
    sandwich = factor[:, None, None] * np.einsum("g,gia,gic->iac", weight, e, e)
    return {
        "rate": rate.reshape(size, width), "e": e, "weight": weight, "rows": weight @ den,
        "items": items, "repeated": ((den > 1) & (weight[:, None] > 0)).any(axis=0),
        "sandwich": sandwich, "n_items": int(weight.sum()),
        "test_items": int(weight[den[:, 0] > 0].sum()),
        "calibration_items": int(weight[den[:, 1:].sum(axis=1) > 0].sum()),
    }  # fmt: skip


def _sizes(m: dict[str, Any]) -> tuple[np.ndarray, ...]:
    """Design effects, pooled mask, effective sizes and sandwich scales √(f G/(G − 1))."""
    rate, rows, items = m["rate"], m["rows"], m["items"]
    v_clu = np.einsum("iaa->i", m["sandwich"])
    with np.errstate(divide="ignore", invalid="ignore"):
        v_bin = (1.0 - np.nansum(rate**2, axis=1)) / (rows - 1.0)
    deff, pooled = pooled_design_effects(v_clu, v_bin, items, rows)
    effective = rows / np.maximum(deff, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = (rows - 1.0) / rows * np.maximum(deff, 1.0) / deff
        scale = np.where(pooled, 0.0, np.sqrt(f * items / (items - 1.0)))
    return deff, pooled, effective, np.nan_to_num(scale)


def column_design_effects(test: Any, calibration: Any) -> np.ndarray:
    """Design effect d_b of each column of Ĉ over rows (the module's tr S / tr Σ), shape (k,)."""
    return _sizes(category_moments(test, calibration, "rows"))[0][1:]


# ----------------------------------------------------------------------------- intervals
def item_bootstrap_bounds(test: Any, calibration: Any, *, confidence_level: float,
                          estimand: str, max_condition: float, reps: int,
                          gen: Any) -> DistributionBounds:  # fmt: skip
    """Percentile bounds of θ* over item resamples (``"bootstrap"``, see module).

    Whole items are drawn with replacement (:func:`judgestats.repeated.resample_totals`)
    within strata of their roles: test items; calibration items by the set of human classes
    among their rows; items with both. θ* = C*⁻¹p* for k categories; with a judge alphabet of
    its own (J ≠ K letters) each replicate's totals are refitted by maximum likelihood
    (:func:`judgestats.multiclass.likelihood.alphabet_mle`, weighted totals under
    ``estimand="items"``). With one row per item this is the parametric bootstrap (test
    counts multinomial, each column of Ĉ multinomial) in distribution. Replicates whose C* is
    not usable are left out and counted in ``undefined``; the alphabet's ``estimate`` is the
    fit to the observed totals.
    """
    table, weight = _item_table(test, calibration)
    j, k = np.asarray(calibration.counts).shape
    c = table[:, j:].reshape(-1, j, k)
    role = np.concatenate([table[:, :j].sum(axis=1, keepdims=True) > 0, c.sum(axis=1) > 0],
                          axis=1)  # fmt: skip
    strata = np.unique(role, axis=0, return_inverse=True)[1].reshape(-1)
    scale = item_weights(table.sum(axis=1), estimand)[:, None]
    totals = resample_totals(table * scale, weight, strata, reps, gen)
    estimate = None
    if j != k:  # a judge alphabet of its own: refit the joint likelihood per replicate
        observed = (table * scale * weight[:, None]).sum(axis=0)
        estimate = alphabet_mle(observed[:j], observed[j:].reshape(j, k))[0]
        theta = alphabet_mle(totals[:, :j], totals[:, j:].reshape(-1, j, k))[0]
        good = np.isfinite(theta).all(axis=1)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            p_star = totals[:, :k] / totals[:, :k].sum(axis=1, keepdims=True)
            c_star = totals[:, k:].reshape(-1, k, k)
            c_star = c_star / c_star.sum(axis=1, keepdims=True)
        good = np.isfinite(c_star).all(axis=(1, 2))
        good[good] = _usable(c_star[good], max_condition)[0]
        theta = _solve(np.nan_to_num(c_star), p_star, good)
    theta = np.where(good[:, None], theta, np.nan)
    theta.sort(axis=0)  # NaN (undefined replicates) last
    valid = np.broadcast_to(np.count_nonzero(good), (k,))
    alpha = 1.0 - float(confidence_level)
    low = np.clip(percentile_nan_last(theta, valid, alpha / 2.0), 0.0, 1.0)
    high = np.clip(percentile_nan_last(theta, valid, 1.0 - alpha / 2.0), 0.0, 1.0)
    return DistributionBounds(low, high, np.asarray(reps - int(valid[0])), reps,
                              estimate=estimate)  # fmt: skip


def clustered_distribution_bounds(
    spec: EstimationSpec, test: Any, calibration: Any, *, max_condition: float, rng: Any = None,
) -> tuple[DistributionBounds, CategoryClusterSummary, np.ndarray, np.ndarray]:  # fmt: skip
    """Cluster-robust ``"adjusted-delta"``, ``"wald"`` or ``"bootstrap"`` bounds (see module).

    The spec's method, level, estimand and options (``n_resamples`` of the bootstrap). Returns
    the bounds (NaN where Ĉ, or the adjusted C̃, is not usable or a true class has no
    calibration rows), the :class:`CategoryClusterSummary`, and p̂ and Ĉ under the estimand.
    ``"bootstrap"`` (:func:`item_bootstrap_bounds`) keeps the delta method's covariance.
    """
    level, estimand, method = spec.confidence_level, spec.estimand, spec.method
    boot, method = method == "bootstrap", "wald" if method == "bootstrap" else method
    m = category_moments(test, calibration, estimand)
    deff, pooled, effective, scale = _sizes(m)
    k = m["rate"].shape[1]
    plain = np.nan_to_num(m["rate"])  # (k + 1, k): p̂, then each column of Ĉ
    x, size = plain, effective
    if method == "adjusted-delta":  # the unclustered pseudo-counts at the effective sizes
        z = float(z_value(level))
        extra = np.concatenate([[z * z], np.full(k, 2.0)])
        x = (plain * effective[:, None] + extra[:, None] / k) / (effective + extra)[:, None]
        size = effective + extra
    usable, kappa = _usable(x[1:].T, max_condition)
    ok = bool(usable) and bool((m["rows"][1:] > 0).all())
    inv = np.linalg.inv(x[1:].T if ok else np.eye(k))
    theta = inv @ x[0]
    w = np.concatenate([[1.0], -theta])
    u = np.einsum("gia,i->ga", m["e"], w * scale)
    middle = (u * m["weight"][:, None]).T @ u  # Σ_g u_g u_gᵀ, cross-components included
    own = scale[:, None, None] ** 2 * np.einsum("g,gia,gic->iac", m["weight"], m["e"], m["e"])
    with np.errstate(divide="ignore", invalid="ignore"):
        binomial = np.nan_to_num(_multinomial_cov(plain, effective))
        blocks = own + pooled[:, None, None] * binomial  # each component's covariance
        if method == "adjusted-delta":
            blocks = blocks + np.nan_to_num(_multinomial_cov(x, size)) - binomial
    middle = middle + np.einsum("i,iac->ac", w**2, blocks - own)
    cov = inv @ middle @ inv.T
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    parts = np.clip(w[:, None] ** 2 * np.einsum("ab,ibc,ac->ia", inv, blocks, inv), 0.0, None)
    repeats = np.where(m["repeated"], m["items"], 0.0)
    df = tuple(welch_df(parts[:, a], repeats) for a in range(k))
    crit = np.array([t_critical(level, d) for d in df])
    nan = np.full(k, np.nan)
    low = np.clip(theta - crit * se, 0.0, 1.0) if ok else nan
    high = np.clip(theta + crit * se, 0.0, 1.0) if ok else nan
    bounds = DistributionBounds(low, high, np.zeros((), dtype=np.int64),
                                covariance=cov if ok else np.full((k, k), np.nan),
                                condition_number=np.asarray(kappa))  # fmt: skip
    if boot and ok:
        reps = check_positive_int("n_resamples", spec.options.get("n_resamples", 9999), minimum=2)
        drawn = item_bootstrap_bounds(test, calibration, confidence_level=level,
                                      estimand=estimand, max_condition=max_condition,
                                      reps=reps, gen=check_rng(rng))  # fmt: skip
        bounds = bounds._replace(low=drawn.low, high=drawn.high, undefined=drawn.undefined,
                                 n_resamples=reps)  # fmt: skip
    labels = calibration.labels
    summary = CategoryClusterSummary(
        estimand=estimand, items=m["n_items"], test_items=m["test_items"],
        calibration_items=m["calibration_items"],
        components=("p", *(f"C[:, {lab!r}]" for lab in labels)),
        rows=tuple(m["rows"].tolist()), items_per_component=tuple(m["items"].tolist()),
        design_effect=tuple(deff.tolist()), effective=tuple(effective.tolist()),
        pooled=tuple(bool(v) for v in pooled), df=df,
    )  # fmt: skip
    return bounds, summary, m["rate"][0], m["rate"][1:].T


def clustered_design_bounds(spec: EstimationSpec, test: Any, calibration: Any) -> tuple:
    """θ̂ = Σ_j π̂_j R̂[j] of repeated items under the random or by-judge-label design.

    π̂ and each row R̂[j] are ratios of item totals (:func:`category_moments` with the design);
    each gets its design effect tr S / tr Σ and effective size as in the module, and
    :func:`judgestats.kernels.judge_conditional_categories` runs at the effective counts
    (π̂ ñ_π, R̂[j] ñ_j; ``"adjusted-delta"`` adds its pseudo-counts there). Its independent
    multinomial parts are replaced by the sandwich Σ_g u_g u_gᵀ, u_g = R̂ᵀ e_g0 + Σ_j π̂_j e_gj
    (rescaled as in the module), which keeps the components' cross-covariances (an item whose
    rows the judge gives several letters puts its human label in several rows of R̂), with a
    Student t critical value per category (Welch–Satterthwaite over the repeated components).
    With one row per item every design effect is 1 and the interval is the unclustered one.
    The spec's design, method (``"adjusted-delta"``: with the pseudo-counts), level and
    estimand. Returns (θ̂, low, high, covariance, :class:`CategoryClusterSummary`).
    """
    level, estimand = spec.confidence_level, spec.estimand
    m = category_moments(test, calibration, estimand, spec.design)
    deff, pooled, effective, scale = _sizes(m)
    k = m["rate"].shape[1]
    rate = m["rate"]
    r_hat = np.where(m["rows"][1:, None] > 0, np.nan_to_num(rate[1:]), 1.0 / k)
    pi = np.nan_to_num(rate[0])
    est = pi @ r_hat
    z = float(z_value(level))
    t_eff = pi * effective[0]
    c_eff = np.nan_to_num(rate[1:]) * effective[1:, None]
    adjusted = spec.method == "adjusted-delta"
    centre, cov = judge_conditional_categories(t_eff, c_eff, z, adjusted=adjusted)
    # the sandwich over items, with the components' cross-covariances (an item's rows judged
    # with several letters share its human label): u_g = s_0 R̂ᵀ e_g0 + Σ_j s_j π̂_j e_gj
    e = m["e"] * scale[None, :, None]
    u = e[:, 0] @ r_hat + np.einsum("j,gjb->gb", pi, e[:, 1:])
    middle = (u * m["weight"][:, None]).T @ u
    with np.errstate(divide="ignore", invalid="ignore"):
        blocks = np.nan_to_num(_multinomial_cov(np.nan_to_num(rate), effective))
    parts_of = np.concatenate([[r_hat.T @ blocks[0] @ r_hat],
                               pi[:, None, None] ** 2 * blocks[1:]])  # fmt: skip
    plain_cov = parts_of.sum(axis=0)  # the kernel's plain covariance at the effective sizes
    undefined = np.einsum("i,iac->ac", pooled.astype(float), parts_of)  # 0/0: binomial part
    cov = middle + undefined + (cov - plain_cov)  # + the pseudo-counts' adjustment
    parts = np.einsum("iaa->ia", parts_of)  # each component's share of Var(θ̂_b)
    repeats = np.where(m["repeated"], m["items"], 0.0)
    df = tuple(welch_df(parts[:, b], repeats) for b in range(k))
    crit = np.array([t_critical(level, d) for d in df])
    half = crit * np.sqrt(np.clip(np.diag(cov), 0.0, None))
    low = np.minimum(np.clip(centre - half, 0.0, 1.0), est)
    high = np.maximum(np.clip(centre + half, 0.0, 1.0), est)
    summary = CategoryClusterSummary(
        estimand=estimand, items=m["n_items"], test_items=m["test_items"],
        calibration_items=m["calibration_items"],
        components=("π", *(f"R[{lab!r}]" for lab in calibration.labels)),
        rows=tuple(m["rows"].tolist()), items_per_component=tuple(m["items"].tolist()),
        design_effect=tuple(deff.tolist()), effective=tuple(effective.tolist()),
        pooled=tuple(bool(v) for v in pooled), df=df,
    )  # fmt: skip
    return est, low, high, cov, summary


#: The lists of methods this module held, now the capability table's rows.
__getattr__ = table_lists(__name__, {
    "CATEGORY_CLUSTER_METHODS": ("categories", DEFAULT_DESIGN, True),
})  # fmt: skip
