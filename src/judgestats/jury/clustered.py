r"""A jury under repeated items: the members' joint covariance over items (issue 39).

When items repeat (several answers to one question, epochs, raters; ``cluster=``) the rows are
not independent and the members' covariance Σ̃ of :mod:`judgestats.jury.weights` (multinomial
over rows) is too small. Here the sampling units are the items. Over the 3J rates
r = (p_j, 1 − q0_j, q1_j)_j (each judge's share of verdict 1 among the test rows, the human-0
calibration rows and the human-1 calibration rows), each a ratio A/B of item totals, the
cluster-robust (sandwich) covariance over the G items is

    V_clu[a, b] = √(f_a f_b) Σ_g e_ga e_gb,   e_ga = (a_ga − r_a b_ga)/B_a,   f_a = G_a/(G_a − 1),

(G_a the items with rows in rate a's sample; the residuals of
:func:`judgestats.repeated.ratio_residuals`, the single judge's design effects and
correlations are made of the same), with the covariance between samples that share items (an
item with test and calibration rows, or calibration rows of both human classes). With every row
an independent item the same rates have V_bin = blockdiag(Cov_s(x)/(N_s − 1)) over the three
samples s (x the J verdicts of a row, N_s its rows); with one row per item V_clu = V_bin exactly.
The jury's covariance is the paper's adjusted one (eq. (8) on the joint table) plus the part the
clusters add,

    Σ̃_clu = Σ̃ + g Δ gᵀ,   Δ = PSD(V_clu − V_bin),

g the members' gradients (1, −(1 − θ_j), −θ_j)/D̃_j in (p_j, 1 − q0_j, q1_j), and PSD the
positive semidefinite part (negative eigenvalues set to 0, and those within rounding of 0:
repeats never narrow an interval, as the single judge's design effect is taken at least 1).
The weights, the centre, the rule that keeps the jury no wider than its better member and the
fallback are :func:`judgestats.jury.weights.combine`'s; the fallback's unit is the item: a human
class with fewer than :data:`~judgestats.jury.weights.MIN_PER_CLASS` calibration items. The
critical value is Student's t with Welch–Satterthwaite degrees of freedom over the three
samples (each sample's part wᵀΣ̃_s w, with items − 1 where its items repeat;
:func:`judgestats.repeated.welch_df`), the normal quantile when no item repeats: one row per
item gives the unclustered jury's numbers exactly.

``estimand="items"`` (the rate over items, each item weight 1 shared by its rows wherever they
lie, as the single judge's ``js.correct(..., estimand="items")``:
:func:`judgestats.repeated.item_weights`): every item total above is weighted by 1/(the item's
rows), each sample's letter table is its item-weighted shares times its rows (so eq. (8)'s
pseudo-counts and V_bin keep the rows, as the single judge's effective sizes do), and the
members' rates are then exactly the single judge's item-weighted ones. One row per item, or the
same rows per item, gives the rows estimand's numbers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..kernels import z_value
from ..repeated import item_weights, ratio_residuals, t_critical, welch_df
from .weights import _verdict_cov, combine, letter_bits, member_covariance, member_moments

__all__ = ["cluster_moments", "clustered_jury_bounds", "psd_part"]

#: Eigenvalues of V_clu − V_bin within this share of V_bin's largest are rounding (set to 0).
ROUNDING = 1e-9


def psd_part(matrix: Any, scale: float) -> np.ndarray:
    """Return the PSD part of a symmetric matrix: eigenvalues ≤ ROUNDING·scale set to 0.

    Examples
    --------
    >>> import numpy as np
    >>> from judgestats.jury.clustered import psd_part
    >>> psd_part(np.array([[1.0, 0.0], [0.0, -2.0]]), 1.0).tolist()
    [[1.0, 0.0], [0.0, 0.0]]
    """
    m = np.asarray(matrix, dtype=float)
    vals, vecs = np.linalg.eigh((m + m.T) / 2.0)
    vals = np.where(vals > ROUNDING * scale, vals, 0.0)
    return (vecs * vals) @ vecs.T


def _item_rates(test_items: np.ndarray, cal_items: np.ndarray,
                bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Item totals (G, 3J) of the rates' numerators (verdicts 1) and denominators (rows)."""
    judges = bits.shape[1]
    a = np.hstack([test_items @ bits, cal_items[:, :, 0] @ bits, cal_items[:, :, 1] @ bits])
    rows = [test_items.sum(axis=1), cal_items[:, :, 0].sum(axis=1), cal_items[:, :, 1].sum(axis=1)]
    b = np.hstack([np.repeat(r[:, None], judges, axis=1) for r in rows])
    return a.astype(float), b.astype(float)


def _weighted_tables(t: np.ndarray, c: np.ndarray,
                     estimand: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Item weights (G,) and the three samples' letter tables under the estimand.

    ``"rows"``: every row weight 1, the summed tables. ``"items"``: each row of item g weight
    1/(its rows in every sample) (:func:`judgestats.repeated.item_weights`, the single judge's
    rule); each sample's table is then its item-weighted letter shares times its rows, so the
    members' rates are the item-weighted ones and eq. (8)'s pseudo-counts and the binomial
    floor V_bin keep the rows as the single judge's effective sizes do.
    """
    w = item_weights(t.sum(axis=1) + c.sum(axis=(1, 2)), estimand)
    if estimand == "rows":
        return w, t.sum(axis=0).astype(float), c.sum(axis=0).astype(float)
    tables = []
    for x in (t, c[:, :, 0], c[:, :, 1]):
        weighted = w @ x
        total = weighted.sum()
        tables.append(weighted * (x.sum() / total) if total > 0 else weighted)
    return w, tables[0], np.stack(tables[1:], axis=-1)


def cluster_moments(test_items: Any, cal_items: Any, z: Any, *,
                    estimand: str = "rows") -> dict[str, np.ndarray]:  # fmt: skip
    """Return the members' moments of :func:`~judgestats.jury.weights.member_moments` over items.

    Parameters
    ----------
    test_items : array_like of int, shape (G, 2^J)
        Each item's test rows over the product letters.
    cal_items : array_like of int, shape (G, 2^J, 2)
        Each item's calibration rows: letters × human class (0, 1). Row g of both arrays is
        the same item (zeros where it has no such rows).
    z : float
        The normal quantile of the level (eq. (8)'s pseudo-counts).
    estimand : {"rows", "items"}, default "rows"
        The rate over rows (each row weight 1) or over items (each item weight 1, shared by
        its rows wherever they lie: :func:`judgestats.repeated.item_weights`). With one row
        per item, or the same rows per item, the two are the same numbers.

    Returns
    -------
    dict
        :func:`member_moments`' of the summed tables (under ``"items"`` the item-weighted
        ones), with ``extra`` (3J, 3J): Δ of the module;
        ``cov``: Σ̃_clu at the members' own θ̃_j; ``class_items`` (2,): items with calibration
        rows of human class 0, 1; ``sample_items`` (3,): items of the test and the two
        calibration samples where one of them has several rows there, else 0.

    Examples
    --------
    One row per item adds nothing (Δ = 0):

    >>> import numpy as np
    >>> from judgestats.jury.clustered import cluster_moments
    >>> t = np.repeat(np.eye(4, dtype=int), [38, 7, 9, 46], axis=0)
    >>> c = np.zeros((100, 4, 2), dtype=int)
    >>> c[np.arange(100), np.repeat([0, 1, 2, 3, 0, 1, 2, 3], [35, 6, 5, 4, 2, 3, 4, 41]),
    ...   np.repeat([0, 1], 50)] = 1
    >>> mm = cluster_moments(np.vstack([t, 0 * t]), np.vstack([0 * c, c]), 1.96)
    >>> float(np.abs(mm["extra"]).max())
    0.0
    """
    t = np.asarray(test_items, dtype=np.int64)
    c = np.asarray(cal_items, dtype=np.int64)
    cells = t.shape[-1]
    bits = letter_bits(cells.bit_length() - 1)
    w, t_table, c_table = _weighted_tables(t, c, estimand)
    mm = member_moments(t_table, c_table, z)
    a, b = _item_rates(t, c, bits)
    _, _, cross = ratio_residuals(a * w[:, None], b * w[:, None], np.ones(a.shape[0]))
    items = (b > 0).sum(axis=0).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(items >= 2, items / (items - 1.0), 0.0)
    v_clu = np.sqrt(f[:, None] * f[None, :]) * cross
    judges = bits.shape[1]
    v_bin = np.zeros_like(v_clu)
    for s, table in enumerate((t_table, c_table[:, 0], c_table[:, 1])):
        rows = table.sum()
        if rows >= 2:
            block = slice(s * judges, (s + 1) * judges)
            v_bin[block, block] = _verdict_cov(table, bits)[1] / (rows - 1.0)
    scale = float(np.max(np.diag(v_bin), initial=0.0)) or 1.0
    mm["extra"] = psd_part(v_clu - v_bin, scale)
    mm["cov"] = member_covariance(mm, mm["theta"])
    mm["class_items"] = np.array([(c[:, :, k].sum(axis=1) > 0).sum() for k in (0, 1)])
    repeats = [b[:, s * judges].max(initial=0) > 1 for s in range(3)]
    mm["sample_items"] = np.where(repeats, items[:: judges], 0.0)
    return mm


def _sample_covariances(mm: dict[str, np.ndarray]) -> np.ndarray:
    """Σ̃_s of each sample s (test, human-0 and human-1 calibration) at the members' θ̃: (3, J, J).

    wᵀ Σ̃_s w are the parts of the jury's variance whose degrees of freedom Welch–Satterthwaite
    weighs; computed once per data set, for every w asked (NaN entries as 0).
    """
    judges = mm["den"].shape[-1]
    zero = np.zeros((judges, judges))
    out = []
    for s, key in enumerate(("s_t", "s_0", "s_1")):
        block = np.zeros_like(mm["extra"])
        sl = slice(s * judges, (s + 1) * judges)
        block[sl, sl] = mm["extra"][sl, sl]
        one = {**{k: zero for k in ("s_t", "s_0", "s_1")}, key: mm[key], "den": mm["den"],
               "extra": block}  # fmt: skip
        cov = member_covariance(one, mm["theta"])
        out.append(np.where(np.isfinite(cov), cov, 0.0))
    return np.stack(out)


def _member_bounds(mm: dict[str, np.ndarray], crit: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each member's centre ± t·√Σ̃_clu,jj, truncated to [0, 1], with eq. (8)'s boundary rule.

    As :func:`judgestats.kernels.adjusted_wald_bounds` (``boundary="widen"``): an interval
    wholly below 0 (above 1) keeps its far bound at t times the standard error at θ = 0 (1).
    """
    sd = lambda th: np.sqrt(np.diagonal(member_covariance(mm, th)))  # noqa: E731
    half = crit * sd(mm["theta"])
    low, high = mm["centre"] - half, mm["centre"] + half
    high = np.where(high <= 0.0, crit * sd(np.zeros_like(half)), high)
    low = np.where(low >= 1.0, 1.0 - crit * sd(np.ones_like(half)), low)
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def clustered_jury_bounds(test_items: Any, cal_items: Any, confidence_level: float, *,
                          estimand: str = "rows") -> dict[str, Any]:  # fmt: skip
    """Return the jury's interval from one data set of per-item letter counts (see module).

    Parameters
    ----------
    test_items, cal_items
        As :func:`cluster_moments`.
    confidence_level : float
        Two-sided level.
    estimand : {"rows", "items"}, default "rows"
        As :func:`cluster_moments`.

    Returns
    -------
    dict
        As :func:`judgestats.jury.weights.jury_bounds`, with ``df`` (the jury's t degrees of
        freedom) and ``member_df``; each member's own interval (``member_low``/``member_high``)
        is its eq. (8) centre ± t·√Σ̃_clu,jj, truncated to [0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> from judgestats.jury.clustered import clustered_jury_bounds
    >>> gen = np.random.default_rng(1)
    >>> letters = gen.choice(4, size=(200, 3), p=[0.4, 0.1, 0.1, 0.4])  # 200 items, 3 rows
    >>> test = np.stack([np.bincount(r, minlength=4) for r in letters])
    >>> cal = np.zeros((120, 4, 2), dtype=int)
    >>> cal[np.arange(120), gen.choice(4, 120, p=[0.7, 0.1, 0.1, 0.1]), 0] = 1
    >>> cal[np.arange(120), gen.choice(4, 120, p=[0.1, 0.1, 0.1, 0.7]), 1] = 1
    >>> b = clustered_jury_bounds(np.vstack([test, np.zeros((120, 4), int)]),
    ...                           np.vstack([np.zeros((200, 4, 2), int), cal]), 0.95)
    >>> bool(b["low"] < b["estimate"] < b["high"]), bool(np.isfinite(b["df"]))
    (True, True)
    """
    z = z_value(confidence_level)
    mm = cluster_moments(test_items, cal_items, z, estimand=estimand)
    judges = mm["den"].shape[-1]
    covs = _sample_covariances(mm)

    def df_of(w: np.ndarray) -> float:
        v = np.where(np.isfinite(w), w, 0.0)
        return welch_df(np.einsum("j,sjk,k->s", v, covs, v), mm["sample_items"])

    member_df = np.array([df_of(e) for e in np.eye(judges)])
    crit = np.array([t_critical(confidence_level, d) for d in member_df])
    m_low, m_high = _member_bounds(mm, crit)
    seen: dict[str, float] = {}

    def critical(moments: dict, w: np.ndarray) -> float:
        seen["df"] = df_of(w)
        return t_critical(confidence_level, seen["df"])

    out = combine(mm, z, critical, m_low, m_high)
    return {**out, "df": seen["df"], "member_df": member_df}
