r"""A jury's minimum-variance combination of its members' Rogan–Gladen estimates, on arrays.

J binary judges verdict the same items. Their joint verdicts are the product letters
l ∈ {0, 1}^J (cell index ``np.ravel_multi_index(bits, (2,) * J)``: judge 0 is the most
significant bit). Test: counts T over the 2^J letters (n items); calibration (the paper's design,
m0 and m1 fixed): counts C[l, b] of letter l among the items of human class b.

Each judge j alone gives the paper's adjusted quantities (eq. (8)) p̃_j, q̃0_j, q̃1_j, its
estimate θ̃_j + dθ̃_j and its adjusted-Wald variance (:func:`judgestats.kernels.delta_parts`,
the one home of those formulas). The members share their items, so their estimates covary; by the
delta method (gradient (1, 1 − θ_j, −θ_j)/D_j in (p_j, q0_j, q1_j), eq. (15)) and the
multinomial covariance of the judges' 0/1 verdicts within each of the three independent samples,

    Σ_jk = [S^t_jk + (1 − θ_j)(1 − θ_k) S^0_jk + θ_j θ_k S^1_jk] / (D_j D_k),

with S^t = Cov(x)/ñ over the test items, S^b = Cov(x | human b)/m̃_b over the calibration items
of class b (x the vector of the J verdicts). The paper's adjustment is applied to the joint
table: z²/2^J pseudo-items in every test cell and 2/2^J in every calibration cell of each class,
so each judge's margins are exactly eq. (8)'s (z²/2 successes and failures in the test set, one
success and one failure per calibration class) and Σ̃_jj is exactly judge j's adjusted-Wald
variance. The combination θ̃_w = Σ_j w_j θ̃_j with w = Σ̃⁻¹1/(1ᵀΣ̃⁻¹1) has variance
1/(1ᵀΣ̃⁻¹1) ≤ min_j Σ̃_jj (w = e_j is feasible): before truncation to [0, 1] its interval is never
wider than the better member's adjusted-Wald interval.

``nonnegative=True`` keeps the weights on the simplex (w_j ≥ 0, Σ w_j = 1): the minimum over the
subsets of judges of the unconstrained minimum with all weights non-negative (every subset is
tried; J ≤ 10). e_j is still feasible, so the bound holds.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from ..kernels import adjusted_wald_bounds, delta_parts

__all__ = [
    "MAX_JUDGES",
    "MIN_PER_CLASS",
    "ROUNDS",
    "combine",
    "jury_bounds",
    "letter_bits",
    "member_covariance",
    "member_moments",
    "min_variance_weights",
]

#: The most judges a jury may hold (2^10 letters; every subset of the simplex fit is tried).
MAX_JUDGES = 10


def letter_bits(judges: int) -> np.ndarray:
    """Return the (2^J, J) 0/1 verdicts of every product letter, judge 0 the leading bit.

    Examples
    --------
    >>> from judgestats.jury.weights import letter_bits
    >>> letter_bits(2).tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1]]
    """
    cells = np.arange(2**judges)[:, None]
    return ((cells >> np.arange(judges - 1, -1, -1)[None, :]) & 1).astype(np.int64)


def _verdict_cov(counts: np.ndarray, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and covariance of the J verdicts under cell counts (..., L): ((..., J), (..., J, J))."""
    total = counts.sum(axis=-1, keepdims=True)
    share = counts / total
    mean = share @ bits
    second = np.einsum("...l,lj,lk->...jk", share, bits, bits)
    return mean, second - mean[..., :, None] * mean[..., None, :]


def member_moments(test: Any, calibration: Any, z: Any) -> dict[str, np.ndarray]:
    """Each member's adjusted-Wald pieces and the members' joint covariance Σ̃ (see module).

    Parameters
    ----------
    test : array_like, shape (..., 2^J)
        Test counts over the product letters.
    calibration : array_like, shape (..., 2^J, 2)
        Calibration counts: letters × human class (0, 1).
    z : float
        The normal quantile of the level (eq. (8)'s pseudo-counts depend on it).

    Returns
    -------
    dict
        ``centre`` (..., J): θ̃_j + dθ̃_j; ``theta`` (..., J): θ̃_j; ``den``: D̃_j = q̃0_j +
        q̃1_j − 1 (NaN where ≤ 0); ``cov`` (..., J, J): Σ̃ at the members' own θ̃_j (NaN rows
        where D̃_j is); ``s_t``, ``s_0``, ``s_1`` (..., J, J): the verdicts' covariances
        over ñ, m̃0, m̃1 (:func:`member_covariance`); ``p``, ``q0``, ``q1`` (..., J): the
        members' unadjusted rates p̂, q̂0, q̂1; ``n``, ``m0``, ``m1`` (...): the sizes.

    Examples
    --------
    Each member's variance on the diagonal is its adjusted-Wald variance (eq. (8)):

    >>> import numpy as np
    >>> import judgestats as js
    >>> from judgestats.jury.weights import member_moments
    >>> test = [380, 70, 90, 460]  # letters 0|0, 0|1, 1|0, 1|1
    >>> cal = [[70, 4], [12, 6], [10, 8], [8, 82]]  # letters × human 0, 1
    >>> mm = member_moments(test, cal, 1.959964)
    >>> low, high = js.adjusted_wald_interval(0.55, 0.82, 0.90, 1000, 100, 100)
    >>> bool(np.isclose(2 * 1.959964 * np.sqrt(mm["cov"][0, 0]), high - low))
    True
    """
    t = np.asarray(test, dtype=float)
    c = np.asarray(calibration, dtype=float)
    cells = t.shape[-1]
    judges = cells.bit_length() - 1
    bits = letter_bits(judges)
    n, m0, m1 = t.sum(axis=-1), c[..., 0].sum(axis=-1), c[..., 1].sum(axis=-1)
    z2 = float(z) ** 2
    p, _ = _verdict_cov(t, bits)
    q1, _ = _verdict_cov(c[..., 1], bits)
    r0, _ = _verdict_cov(c[..., 0], bits)
    parts = delta_parts(p, 1.0 - r0, q1, n[..., None], m0[..., None], m1[..., None], z)
    # eq. (8) on the joint table: each judge's margins get exactly the paper's pseudo-counts
    _, s_t = _verdict_cov(t + z2 / cells, bits)
    _, s_0 = _verdict_cov(c[..., 0] + 2.0 / cells, bits)
    _, s_1 = _verdict_cov(c[..., 1] + 2.0 / cells, bits)
    moments = {
        "centre": parts["theta"] + parts["shift"], "theta": parts["theta"], "den": parts["den"],
        "s_t": s_t / (n + z2)[..., None, None], "s_0": s_0 / (m0 + 2.0)[..., None, None],
        "s_1": s_1 / (m1 + 2.0)[..., None, None], "p": p, "q0": 1.0 - r0, "q1": q1,
        "n": n, "m0": m0, "m1": m1,
    }  # fmt: skip
    moments["cov"] = member_covariance(moments, parts["theta"])
    return moments


def member_covariance(moments: dict[str, np.ndarray], theta: Any) -> np.ndarray:
    """Σ̃ of the module's formula with the members' gradients taken at ``theta``.

    ``theta`` (..., J) or (..., 1): each member's θ̃_j (then Σ̃_jj is its adjusted-Wald
    variance, eq. (8)) or one θ for every member (the jury's: its weights then do not lean on
    the members whose estimate happens to sit where their variance is small). With repeated
    items ``moments["extra"]`` (3J × 3J, :func:`judgestats.jury.clustered.cluster_moments`)
    adds gᵀ Δ g over the rates (p_j, 1 − q0_j, q1_j) of every member.

    Examples
    --------
    >>> import numpy as np
    >>> from judgestats.jury.weights import member_covariance, member_moments
    >>> mm = member_moments([380, 70, 90, 460], [[70, 4], [12, 6], [10, 8], [8, 82]], 1.96)
    >>> member_covariance(mm, [0.5]).shape
    (2, 2)
    """
    th = np.asarray(theta, dtype=float)
    den = moments["den"]
    g0, g1 = (1.0 - th) / den, -th / den
    outer = lambda a, b: a[..., :, None] * b[..., None, :]  # noqa: E731
    cov = (outer(1.0 / den, 1.0 / den) * moments["s_t"] + outer(g0, g0) * moments["s_0"]
           + outer(g1, g1) * moments["s_1"])  # fmt: skip
    if "extra" in moments:  # repeated items: the clusters' covariance of (p, 1 − q0, q1)
        judges = den.shape[-1]
        shape = np.broadcast_shapes(den.shape, g0.shape)
        grad = np.zeros((*shape, 3 * judges))
        idx = np.arange(judges)
        for block, g in enumerate((1.0 / den, -g0, g1)):  # ∂θ_j/∂(p_j, 1 − q0_j, q1_j)
            grad[..., idx, block * judges + idx] = np.broadcast_to(g, shape)
        extra = np.where(np.isfinite(grad), grad, 0.0) @ moments["extra"]
        cov = cov + np.einsum("...ja,...ka->...jk", extra,
                              np.where(np.isfinite(grad), grad, 0.0))  # fmt: skip
    return cov


def _unconstrained(cov: np.ndarray) -> np.ndarray:
    """Return w = Σ⁻¹1/(1ᵀΣ⁻¹1) on (..., J, J); a singular Σ (identical judges): pseudo-inverse."""
    sol = np.einsum("...jk,...k->...j", np.linalg.pinv(cov), np.ones(cov.shape[:-1]))
    total = sol.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return sol / total


def min_variance_weights(cov: Any, *, nonnegative: bool = False) -> np.ndarray:
    """Weights w minimising wᵀΣw subject to Σ w_j = 1 (and w ≥ 0 with ``nonnegative``).

    Parameters
    ----------
    cov : array_like, shape (..., J, J)
        The members' covariance Σ̃ (:func:`member_moments`); a member whose row is NaN
        (q̃0 + q̃1 <= 1) gets weight 0; NaN weights where every member's is.
    nonnegative : bool, default False
        Keep every weight ≥ 0: the best of every subset's unconstrained weights that are all
        non-negative (a single judge's e_j is one of them).

    Returns
    -------
    ndarray, shape (..., J)

    Examples
    --------
    Two independent judges of variances 1 and 3 weigh 3/4 and 1/4:

    >>> import numpy as np
    >>> from judgestats.jury.weights import min_variance_weights
    >>> min_variance_weights(np.diag([1.0, 3.0])).round(3).tolist()
    [0.75, 0.25]
    """
    cov = np.asarray(cov, dtype=float)
    judges = cov.shape[-1]
    # a member with q̃0 + q̃1 <= 1 (NaN row) estimates nothing: weight 0, the others decide
    out = ~np.isfinite(np.diagonal(cov, axis1=-2, axis2=-1))
    bad = out.all(axis=-1)
    drop = out[..., :, None] | out[..., None, :]
    big = np.where(out, 1e12, 0.0)
    safe = np.where(drop, 0.0, cov) + big[..., :, None] * np.eye(judges)
    if not nonnegative:
        w = _unconstrained(safe)
    else:
        best_var = np.full(safe.shape[:-2], np.inf)
        w = np.zeros(safe.shape[:-1])
        for size in range(1, judges + 1):
            for subset in combinations(range(judges), size):
                idx = np.array(subset)
                ws = _unconstrained(safe[..., idx[:, None], idx[None, :]])
                var = np.einsum("...j,...jk,...k->...", ws, safe[..., idx[:, None], idx[None, :]],
                                ws)  # fmt: skip
                ok = (ws >= -1e-12).all(axis=-1) & (var < best_var - 1e-15)
                full = np.zeros(safe.shape[:-1])
                full[..., idx] = np.clip(ws, 0.0, None)
                w = np.where(ok[..., None], full, w)
                best_var = np.where(ok, var, best_var)
    w = np.where(out, 0.0, w)
    with np.errstate(invalid="ignore", divide="ignore"):  # 0/0 where every member is out
        w = w / w.sum(axis=-1, keepdims=True)
    return np.where(bad[..., None], np.nan, w)


#: Fewer calibration items than this in a human class: the jury's interval is widened to hold
#: the better member's adjusted-Wald interval (the fallback fixed in advance; issue 39).
MIN_PER_CLASS = 50
#: Rounds of the common-θ weights (θ̄ → Σ̃(θ̄) → w → θ̄); the third changes θ̄ by < 1e-6.
ROUNDS = 3


def jury_bounds(test: Any, calibration: Any, z: Any) -> dict[str, np.ndarray]:
    """Return the jury's interval from arrays of product-letter counts (see the module).

    The weights are the minimum-variance weights of Σ̃ with every member's gradient taken at
    one θ̄ (:data:`ROUNDS` rounds from the members' mean θ̃): weights that follow each member's
    own θ̃_j lean on the members whose estimate sits where its variance is small, and cover
    0.895 where these cover 0.922 (``benchmarks/results/jury.md``). The centre is
    Σ_j w_j (θ̃_j + dθ̃_j) (each member's eq. (8) centre), the standard error the larger of
    √(wᵀΣ̃(θ̄)w) and √(wᵀΣ̃(θ̃)w), the interval truncated to [0, 1]; where that standard error
    exceeds a member's own adjusted-Wald one (Σ̃_jj at θ̃_j), the weights are that member's
    alone (e_j), so the interval is never wider than the narrowest member's before truncation.
    Where a human class has
    fewer than :data:`MIN_PER_CLASS` items the interval is the hull with the better member's
    adjusted-Wald interval (``fallback`` True).

    Parameters
    ----------
    test : array_like, shape (..., 2^J)
        Test counts over the product letters.
    calibration : array_like, shape (..., 2^J, 2)
        Calibration counts: letters × human class (0, 1).
    z : float
        Normal quantile of the level.

    Returns
    -------
    dict
        ``low``, ``high``, ``estimate`` (the centre, clipped), ``se``, ``weights`` (..., J),
        ``better`` (index of the member with the narrowest adjusted-Wald interval),
        ``member_low``/``member_high`` (..., J), ``fallback`` (bool), and the moments of
        :func:`member_moments`.

    Examples
    --------
    Vectorised over data sets (here two: the second with 40 items in human class 1 takes the
    fallback):

    >>> from judgestats.jury.weights import jury_bounds
    >>> b = jury_bounds([[380, 70, 90, 460], [380, 70, 90, 460]],
    ...                 [[[70, 4], [12, 6], [10, 8], [8, 82]],
    ...                  [[70, 2], [12, 2], [10, 4], [8, 32]]], 1.96)
    >>> b["fallback"].tolist(), b["weights"].shape
    ([False, True], (2, 2))
    """
    mm = member_moments(test, calibration, z)
    m_low, m_high, _ = adjusted_wald_bounds(
        mm["p"], mm["q0"], mm["q1"], mm["n"][..., None], mm["m0"][..., None],
        mm["m1"][..., None], z,
    )  # fmt: skip
    return combine(mm, z, None, m_low, m_high)


def combine(mm: dict[str, np.ndarray], z: Any, critical: Any, m_low: Any,
            m_high: Any) -> dict[str, np.ndarray]:  # fmt: skip
    """Return the jury's weights, centre and interval from the members' moments (jury_bounds).

    ``critical``: None (the normal quantile ``z``) or a function of (moments, weights) giving
    the critical value of the jury's interval (Student's t under repeated items,
    :mod:`judgestats.jury.clustered`); ``m_low``, ``m_high`` (..., J): each member's own
    interval, the better of which the fallback holds. ``mm["class_items"]`` (..., 2), when
    present, counts the fallback's units (items under repeated items), else ``m0``, ``m1``.
    """
    ok = np.isfinite(mm["den"])
    theta = np.where(ok, mm["theta"], 0.0)
    count = ok.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        common = theta.sum(axis=-1) / count
        for _ in range(ROUNDS):
            w = min_variance_weights(member_covariance(mm, np.clip(common, 0, 1)[..., None]))
            common = (np.where(ok, w, 0.0) * theta).sum(axis=-1)
    at_common = member_covariance(mm, np.clip(common, 0, 1)[..., None])
    w = np.where(ok, w, 0.0)
    quad = lambda s: np.einsum("...j,...jk,...k->...", w, np.where(np.isfinite(s), s, 0.0), w)  # noqa: E731
    se = np.sqrt(np.maximum(quad(at_common), quad(mm["cov"])))
    own = np.sqrt(np.where(ok, np.diagonal(mm["cov"], axis1=-2, axis2=-1), np.inf))
    alone = se > own.min(axis=-1)  # never wider than the better member alone: then it is
    single = np.eye(own.shape[-1])[np.argmin(own, axis=-1)]
    w = np.where(alone[..., None], single, w)
    se = np.where(alone, own.min(axis=-1), se)
    centre = (w * np.where(ok, mm["centre"], 0.0)).sum(axis=-1)
    zf = float(z) if critical is None else np.asarray(critical(mm, w), dtype=float)
    low, high = np.clip(centre - zf * se, 0.0, 1.0), np.clip(centre + zf * se, 0.0, 1.0)
    width = np.where(np.isfinite(m_high - m_low), m_high - m_low, np.inf)
    better = np.argmin(width, axis=-1)
    b_low = np.take_along_axis(m_low, better[..., None], axis=-1)[..., 0]
    b_high = np.take_along_axis(m_high, better[..., None], axis=-1)[..., 0]
    sizes = mm.get("class_items", np.stack([mm["m0"], mm["m1"]], axis=-1))
    fallback = sizes.min(axis=-1) < MIN_PER_CLASS
    low = np.where(fallback, np.fmin(low, b_low), low)
    high = np.where(fallback, np.fmax(high, b_high), high)
    none = count == 0
    return {
        **mm, "low": np.where(none, np.nan, low), "high": np.where(none, np.nan, high),
        "estimate": np.where(none, np.nan, np.clip(centre, 0.0, 1.0)), "se": se,
        "weights": w, "better": better, "member_low": m_low, "member_high": m_high,
        "fallback": fallback, "critical": zf,
    }  # fmt: skip
