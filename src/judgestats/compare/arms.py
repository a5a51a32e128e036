"""What differences and rankings share: arms of counts, checks, the delta method, the bootstrap.

An arm is one judged model's test counts with its calibration counts, as arrays. The delta-method
centre and standard error of θ_A − θ_B (paper eqs. (8) and (15) per model, combined), the joint
parametric bootstrap of clipped Rogan–Gladen estimates, and the weighted quantile used for
intervals from weighted draws. These kernels treat several models jointly under the estimator
families :func:`joint_kernels` names.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import kernels
from .._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    check_informative,
    check_instance,
    check_labels,
)
from .._validation.arguments import _show
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import Design
from ..intervals import CONDITIONAL, PAPER
from ..kernels import rogan_gladen_raw
from ..results import ConfidenceInterval
from ..spec import EstimationSpec

__all__ = [
    "difference_interval",
    "joint_kernels",
    "scalar_level",
    "weighted_quantile",
]


_DEFAULT_DRAWS = 20_000


_CHUNK = 4_000_000  # array elements per resampled array

#: Whether the kernels here treat several models of an estimator family
#: (:attr:`judgestats.designs.Design.family`) jointly; see :func:`joint_kernels`.
_JOINT_FAMILIES = {PAPER: True, CONDITIONAL: False}


def joint_kernels(design: Design) -> bool:
    """Whether several models' estimates under ``design`` are treated jointly here.

    True for the Rogan–Gladen family (the paper's sensitivity and specificity): the delta
    method, the bootstrap and the posterior of this package carry a calibration set shared by
    several models, paired test items and priors on the rates. False (the judge-conditional
    family): each model needs a calibration set of its own, and the models' intervals or draws
    are combined as independent (MOVER, one model at a time).
    """
    return _JOINT_FAMILIES.get(design.family, False)


# ============================================================================ small helpers
def _single(name: str, obj: Any, cls: type) -> Any:
    check_instance(name, obj, cls)
    if obj.shape:
        raise JudgeStatsError(
            f"{name} holds a batch of shape {obj.shape}; one data set is expected here"
        )
    return obj


def _test_arg(name: str, value: Any) -> tuple[JudgedCounts, np.ndarray | None]:
    """Return a test argument as counts, plus its per-item labels when labels were given."""
    if isinstance(value, JudgedCounts):
        return _single(name, value, JudgedCounts), None
    if isinstance(value, ConfusionCounts) or (
        np.ndim(value) == 0 and not hasattr(value, "__len__")
    ):
        raise ArgumentTypeError(
            f"{name} must be a JudgedCounts or a 1-D array of 0/1 judge labels, got "
            f"{type(value).__name__} ({_show(value)})"
        )
    labels = check_labels(f"{name} labels", value)
    return JudgedCounts(positive=int(labels.sum()), n=int(labels.size)), labels


def _arrays(test: JudgedCounts, cal: ConfusionCounts) -> dict[str, np.ndarray]:
    return {
        "x": np.asarray(test.positive, dtype=float),
        "n": np.asarray(test.n, dtype=float),
        "tp": np.asarray(cal.tp, dtype=float),
        "fn": np.asarray(cal.fn, dtype=float),
        "tn": np.asarray(cal.tn, dtype=float),
        "fp": np.asarray(cal.fp, dtype=float),
    }


def _clipped_rg(arm: dict[str, np.ndarray]) -> np.ndarray:
    """Clipped Rogan–Gladen θ̂ of an arm dict (x, n, tn, fp, tp, fn); no warning."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p, q0 = arm["x"] / arm["n"], arm["tn"] / (arm["tn"] + arm["fp"])
        q1 = arm["tp"] / (arm["tp"] + arm["fn"])
    return np.clip(rogan_gladen_raw(p, q0, q1), 0.0, 1.0)


def scalar_level(spec: EstimationSpec) -> float:
    """Return the resolved level as a float: a comparison takes one level (not an array)."""
    if np.ndim(spec.confidence_level):
        raise ArgumentTypeError(
            "confidence_level must be a scalar here, got an array of shape "
            f"{np.shape(spec.confidence_level)}"
        )
    return float(spec.confidence_level)


def difference_interval(low: float, high: float, spec: EstimationSpec,
                        **extra: Any) -> ConfidenceInterval:  # fmt: skip
    """Return the interval of θ_A − θ_B, truncated to [−1, 1] (its range), by the spec's method."""
    low, high = float(np.clip(low, -1.0, 1.0)), float(np.clip(high, -1.0, 1.0))
    return ConfidenceInterval(low=low, high=max(low, high), method=spec.method,
                              confidence_level=float(spec.confidence_level), **extra)  # fmt: skip


def _require_informative(cal: ConfusionCounts, who: str, *, adjusted: bool) -> None:
    check_informative(cal.specificity, cal.sensitivity, what=f"{who}: q̂0 + q̂1")
    if adjusted:
        q0t = (cal.tn + 1) / (cal.m0 + 2)
        q1t = (cal.tp + 1) / (cal.m1 + 2)
        check_informative(q0t, q1t, what=f"{who}: the adjusted q̃0 + q̃1")


def weighted_quantile(values: np.ndarray, weights: np.ndarray | None, probs: Any) -> np.ndarray:
    """Quantiles along axis 0 of ``values`` with (optional) weights; NaN values are ignored.

    Linear interpolation of the weighted empirical CDF at the mid-points of the sorted values'
    weights (Hazen's rule for equal weights). ``values`` has shape (R, ...), ``weights`` (R, ...)
    or None; returns shape ``(len(probs), ...)``.

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> values = np.array([1.0, 2.0, 3.0, 4.0])
    >>> js.compare.weighted_quantile(values, None, [0.25, 0.5])
    array([1.5, 2.5])
    >>> js.compare.weighted_quantile(values, np.array([1.0, 1.0, 1.0, 5.0]), [0.5])  # 4 weighs most
    array([3.5])
    """
    v = np.asarray(values, dtype=float)
    w = np.ones_like(v) if weights is None else np.broadcast_to(weights, v.shape).astype(float)
    w = np.where(np.isnan(v), 0.0, w)
    order = np.argsort(np.where(np.isnan(v), np.inf, v), axis=0)
    vs = np.take_along_axis(v, order, axis=0)
    ws = np.take_along_axis(w, order, axis=0)
    total = ws.sum(axis=0)
    cum = (np.cumsum(ws, axis=0) - ws / 2.0) / np.where(total > 0, total, 1.0)
    probs = np.atleast_1d(np.asarray(probs, dtype=float))
    out = np.empty((probs.size, *v.shape[1:]))
    flat_v = vs.reshape(vs.shape[0], -1)
    flat_c = cum.reshape(cum.shape[0], -1)
    flat_w = ws.reshape(ws.shape[0], -1)
    for j in range(flat_v.shape[1]):
        keep = flat_w[:, j] > 0
        if not keep.any():
            out.reshape(probs.size, -1)[:, j] = np.nan
            continue
        out.reshape(probs.size, -1)[:, j] = np.interp(probs, flat_c[keep, j], flat_v[keep, j])
    return out


# ============================================================================ delta methods
def _delta_parts(a: dict[str, np.ndarray], z: Any, adjusted: bool) -> dict[str, np.ndarray]:
    """Per-model pieces of eq. (8) (adjusted) or eq. (15) (plain), from counts."""
    x, n, tp, fn, tn, fp = (a[k] for k in ("x", "n", "tp", "fn", "tn", "fp"))
    m0, m1 = tn + fp, tp + fn
    with np.errstate(divide="ignore", invalid="ignore"):
        parts = kernels.delta_parts(x / n, tn / m0, tp / m1, n, m0, m1, z, adjusted=adjusted)
    parts["centre"] = parts["theta"] + parts["shift"]
    return parts


def _delta_kernel(a, b, *, z, adjusted: bool, shared: bool, pair_n11=None):
    """Centre and standard error of θ_A − θ_B by the delta method (arrays broadcast)."""
    pa, pb = _delta_parts(a, z, adjusted), _delta_parts(b, z, adjusted)
    if pair_n11 is None:
        cov = 0.0
    else:  # sample covariance of the paired judge labels, over the same (adjusted) size
        n = a["n"]
        cov = (pair_n11 / n - (a["x"] / n) * (b["x"] / n)) / pa["n"]
    centre = pa["centre"] - pb["centre"]
    if shared:
        d, diff = pa["den"], pa["theta"] - pb["theta"]
        var_p = pa["var_p"] + pb["var_p"] - 2.0 * cov
        var = var_p / d**2 + diff**2 * (pa["v0"] + pa["v1"]) / d**2
    else:
        var_a, var_b = kernels.delta_se(pa) ** 2, kernels.delta_se(pb) ** 2
        var = var_a + var_b - 2.0 * cov / (pa["den"] * pb["den"])
    return centre, np.sqrt(np.maximum(var, 0.0))


# ============================================================================ bootstrap
def _bootstrap_thetas(arms, groups, cals, reps: int, gen, pairs=None) -> np.ndarray:
    """Joint parametric bootstrap of clipped Rogan–Gladen estimates.

    ``arms``: list of dicts with ``x``, ``n`` (arrays of batch shape); ``groups[k]``: index of the
    calibration of arm k in ``cals`` (dicts with tp, fn, tn, fp). ``pairs``: optional
    (n11, n10, n01, n00) arrays for arms 0 and 1 (paired test items). Returns (reps, ..., K)
    with NaN where a replicate's calibration had q0* + q1* <= 1.
    """
    shape = np.broadcast_shapes(*(np.shape(a["x"]) for a in arms))
    size = (reps, *shape)
    q0s, q1s = [], []
    for c in cals:
        m0, m1 = c["tn"] + c["fp"], c["tp"] + c["fn"]
        q0s.append(kernels.draw_rate(gen, c["tn"] / m0, m0, size))
        q1s.append(kernels.draw_rate(gen, c["tp"] / m1, m1, size))
    ps = []
    if pairs is not None:
        n11, n10, n01, n00 = (np.asarray(v, dtype=float) for v in pairs)
        n = n11 + n10 + n01 + n00
        pvals = np.stack([n11, n10, n01, n00], axis=-1) / n[..., None]
        cells = gen.multinomial(n.astype(np.int64), pvals, size=size)
        ps.append((cells[..., 0] + cells[..., 1]) / n)
        ps.append((cells[..., 0] + cells[..., 2]) / n)
    for a in arms[len(ps) :]:
        ps.append(kernels.draw_rate(gen, a["x"] / a["n"], a["n"], size))
    out = np.empty((*size, len(arms)))
    for k, p in enumerate(ps):
        g = groups[k]
        out[..., k] = np.clip(rogan_gladen_raw(p, q0s[g], q1s[g]), 0.0, 1.0)
    return out
