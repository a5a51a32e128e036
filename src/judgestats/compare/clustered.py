"""θ_A − θ_B of repeated items: the cluster-robust delta method over both models' rates.

With counts built with ``cluster=`` the six rates (p̂_A, q̂0_A, q̂1_A, p̂_B, q̂0_B, q̂1_B) are
each a ratio of totals over items, and an item may carry rows of several of them: epochs of
one prompt (p̂), a prompt judged for both models (p̂_A and p̂_B), a human-labelled prompt with
unlabelled epochs (p̂ and a q̂), one calibration set shared by both models (q̂_A ≡ q̂_B). Their
correlations over the items (:func:`judgestats.repeated.arms_clusters`, the sandwich) enter
the delta method of Δ = θ_A − θ_B with gradient (1, 1 − θ_A, −θ_A)/D_A for model A's rates and
−(1, 1 − θ_B, −θ_B)/D_B for B's (D = q0 + q1 − 1):

    Var(Δ) = uᵀ R u,   u_j = g_j √V_j,   V_j = r̃_j(1 − r̃_j)/ñ_j,

R the rates' correlations and ñ_j the effective size (``"adjusted-wald"``: eq. (8)'s adjusted
r̃ at ñ = n_eff + z², m_eff + 2; ``"wald"``: eq. (15)'s plain ones at n_eff, m_eff),
:func:`judgestats.repeated.combined_variance`. The centre is (θ̃_A + dθ̃_A) − (θ̃_B + dθ̃_B) as
without clusters, and the critical value is Student's t with Welch–Satterthwaite degrees of
freedom over the rates whose items repeat (a shared calibration set's rates counted once),
:func:`judgestats.repeated.combined_df`. With one row per item and no id in both models' data
R is the identity (a shared calibration set: 1 between its two copies) and the interval is the
unclustered one (independent calibrations: Var_A + Var_B; shared: the paper's shared form).
An id in both models' tests is the same prompt: its covariance is the clustered analogue of
paired labels.

``"bootstrap"`` (:func:`clustered_bootstrap_draws`) resamples the two models' items jointly
(:func:`judgestats.repeated.arms_bootstrap`): the percentile interval of θ*_A − θ*_B and the
bootstrap p-value, as without clusters.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from .._validation import NotInformativeError
from ..counts.clusters import joint_arms
from ..designs import Design
from ..estimators import clip_warned
from ..repeated import (
    arm_parts,
    arms_bootstrap,
    arms_clusters,
    cluster_summary,
    combined_df,
    combined_variance,
    t_critical,
)
from ..spec import EstimationSpec

__all__ = ["clustered_bootstrap_draws", "clustered_difference", "share_items"]


def share_items(c: dict) -> bool:
    """Whether the two models' data have an item in common (or share the calibration set)."""
    if c["shared_calibration"]:
        return True
    arms = [(c["test_a"], c["calibration_a"]), (c["test_b"], c["calibration_b"])]
    rows = joint_arms(arms).rows
    return bool(((rows[:, :6].sum(axis=1) > 0) & (rows[:, 6:].sum(axis=1) > 0)).any())


def _two_arms(c: dict) -> list[tuple[Any, Any]]:
    """Return the two models' (test, calibration) arms; equal unclustered sets kept apart."""
    cal_b = c["calibration_b"]
    if not c["shared_calibration"] and cal_b is c["calibration_a"] and cal_b.clusters is None:
        cal_b = replace(cal_b)  # separate sets that happen to be equal: not the same items
    return [(c["test_a"], c["calibration_a"]), (c["test_b"], cal_b)]


def _require_informative_arms(design: Design, summaries: Any, estimand: str) -> None:
    for name, s in zip(("calibration_a", "calibration_b"), summaries, strict=True):
        if not design.informative(s.rates):
            raise NotInformativeError(
                f"{name}: q̂0 + q̂1 = {s.rates[1] + s.rates[2]:.4g} <= 1 (over {estimand}), "
                "the judge is no better than chance; no correction is possible"
            )


def _estimates(design: Design, summaries: Any, stacklevel: int) -> tuple[float, float]:
    """Return the two models' clipped estimates at their rates (warning where clipped)."""
    raw = [float(design.estimate_from_rates(s.rates)) for s in summaries]
    ea, eb = (float(v) for v in clip_warned(raw, stacklevel=stacklevel + 1))
    return ea, eb


def clustered_bootstrap_draws(spec: EstimationSpec, c: dict, reps: int, gen: Any, *,
                              stacklevel: int) -> dict:  # fmt: skip
    """Cluster bootstrap of Δ = θ_A − θ_B: whole items resampled jointly for both models.

    :func:`judgestats.repeated.arms_bootstrap` over the two arms (an item id in both models'
    data, or a shared calibration set, is drawn once for both); ``"delta"`` (reps,) with NaN
    where a replicate is undefined, and the clipped per-model estimates under the estimand.
    """
    design, estimand = spec.design, spec.estimand
    arms = _two_arms(c)
    summaries = [cluster_summary(t, k, design, estimand) for t, k in arms]
    _require_informative_arms(design, summaries, estimand)
    ea, eb = _estimates(design, summaries, stacklevel + 1)
    th = arms_bootstrap(arms, design=design, estimand=estimand, reps=reps, gen=gen)
    return {"delta": th[:, 0] - th[:, 1], "estimate_a": ea, "estimate_b": eb,
            "clusters": tuple(summaries)}  # fmt: skip


def clustered_difference(spec: EstimationSpec, c: dict, *, adjusted: bool,
                         stacklevel: int) -> dict[str, Any]:  # fmt: skip
    """Centre, standard error, critical value, df, estimates and summaries of a clustered Δ."""
    from scipy.special import ndtr, stdtr

    arms = arms_clusters(_two_arms(c), spec.estimand)
    sa, sb = arms.summaries
    _require_informative_arms(spec.design, (sa, sb), spec.estimand)
    coef = (1.0, -1.0)
    df = combined_df(arms.summaries, coef, (0, 0) if c["shared_calibration"] else (0, 1))
    z = t_critical(spec.confidence_level, df)
    parts = [arm_parts(s, z, adjusted=adjusted) for s in (sa, sb)]
    var = combined_variance(parts, coef, arms.correlation)[0]
    pa, pb = parts
    centre = float((pa["theta"] + pa["shift"]) - (pb["theta"] + pb["shift"]))
    if not np.isfinite(centre):
        raise NotInformativeError(
            "the adjusted q̃0 + q̃1 <= 1 for a calibration set: the interval is undefined; use "
            "method='wald'"
        )
    se = float(np.sqrt(max(var, 0.0)))
    ea, eb = _estimates(spec.design, (sa, sb), stacklevel + 1)
    if se > 0:
        tail = ndtr(-abs(centre) / se) if not np.isfinite(df) else stdtr(df, -abs(centre) / se)
        pvalue = float(2.0 * tail)
    else:
        pvalue = 1.0 if centre == 0 else 0.0
    return {"centre": centre, "se": se, "z": z, "df": df, "estimate_a": ea, "estimate_b": eb,
            "pvalue": pvalue, "clusters": (sa, sb)}  # fmt: skip

