"""The prediction-powered mean of a binary label with power tuning (PPI++), on arrays.

Under ``design="random"`` the labelled rows are a random sample of the rows, so for any
predictor f fixed before the labels are seen (here: cross-fitted, :mod:`.calibration`)

    θ̂(λ) = λ · mean_N f̃(s) + mean_n (y − λ f(s))

is unbiased for θ = P(y = 1) at every λ (Angelopoulos, Duchi & Zrnic 2023, "PPI++: Efficient
Prediction-Powered Inference", the mean estimand; the first mean over the N unlabelled rows,
the second over the n labelled ones). λ = 0 is the human labels alone, λ = 1 plain PPI.

**Variance, by item.** Linearised, θ̂ − θ ≈ Σ_c (u_c + λ v_c) over items c (every row its own
item without ``cluster=``), with

    u_c = Σ_{labelled i ∈ c} (y_i − ȳ)/n,
    v_c = Σ_{unlabelled i ∈ c} (f̃_i − mean f̃)/N − Σ_{labelled i ∈ c} (f_i − mean f)/n,

so Var(θ̂) = C/(C − 1) · Σ_c (u_c + λ v_c)² over the C items (the cluster-robust sandwich of
Liang & Zeger 1986, with the small-sample factor; an item may hold labelled and unlabelled
rows). Without clusters it is Var_n(y − λf)/n + λ² Var_N(f̃)/N, PPI++'s. It is a quadratic
in λ; its minimiser λ̂ = −Σ u_c v_c / Σ v_c², clipped to [0, 1] (PPI++'s power tuning,
:func:`tuned_lambda`; the prediction-powered Davidson fit of
:mod:`judgestats.pairwise.prediction_powered` tunes its λ the same way, on its sandwich's
trace), is plugged in. The interval is θ̂ ± z·√Var(θ̂) (Wald), on the unclipped θ̂.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

__all__ = ["PPIFit", "fit_ppi", "tuned_lambda"]


class PPIFit(NamedTuple):
    """θ̂ (unclipped), its variance, the λ used and the items counted."""

    estimate: float
    variance: float
    lam: float
    items: int


def tuned_lambda(u: np.ndarray, v: np.ndarray) -> float:
    """λ minimising Σ (u + λ v)², clipped to [0, 1] (0 where v is all 0): PPI++'s tuning."""
    vv = float(np.sum(v * v))  # elementwise: a BLAS dot contends for threads on busy machines
    return float(np.clip(-float(np.sum(u * v)) / vv, 0.0, 1.0)) if vv > 0 else 0.0


def _item_sums(values: np.ndarray, items: np.ndarray, size: int) -> np.ndarray:
    return np.bincount(items, weights=values, minlength=size)


def fit_ppi(
    y: np.ndarray, f_lab: np.ndarray, f_unl: np.ndarray, *,
    items_lab: np.ndarray | None = None, items_unl: np.ndarray | None = None,
    lam: float | None = None,
) -> PPIFit:  # fmt: skip
    """Return the PPI++ estimate and its (cluster-robust) variance (module docstring).

    Parameters
    ----------
    y, f_lab : ndarray
        Labelled rows: human label (0/1) and the out-of-fold prediction.
    f_unl : ndarray
        Unlabelled rows: the prediction (may be empty: the human labels alone).
    items_lab, items_unl : ndarray of int, optional
        Item codes 0 … C − 1 of each row (one code space for both); None: every row its own
        item.
    lam : float, optional
        A fixed λ; None tunes it.
    """
    n, big_n = y.size, f_unl.size
    if items_lab is None or items_unl is None:
        return _fit_rows(y, f_lab, f_unl, lam)
    size = int(max(items_lab.max(initial=-1), items_unl.max(initial=-1))) + 1
    u = _item_sums((y - y.mean()) / n, items_lab, size)
    v = -_item_sums((f_lab - f_lab.mean()) / n, items_lab, size)
    if big_n:
        v = v + _item_sums((f_unl - f_unl.mean()) / big_n, items_unl, size)
    present = np.zeros(size, dtype=bool)
    present[items_lab] = True
    present[items_unl] = True
    u, v = u[present], v[present]
    c = int(present.sum())
    if lam is None:
        lam = tuned_lambda(u, v) if big_n else 0.0
    mean_unl = float(f_unl.mean()) if big_n else 0.0
    estimate = lam * mean_unl + float(np.mean(y - lam * f_lab))
    resid = u + lam * v
    variance = float(np.sum(resid * resid)) * c / max(c - 1, 1)
    return PPIFit(estimate, variance, float(lam), c)


def _fit_rows(y: np.ndarray, f_lab: np.ndarray, f_unl: np.ndarray, lam: float | None) -> PPIFit:
    """:func:`fit_ppi` with every row its own item: the same sums without a pass over items."""
    n, big_n = y.size, f_unl.size
    u = (y - y.mean()) / n
    v_lab = -(f_lab - f_lab.mean()) / n
    v_unl = (f_unl - f_unl.mean()) / big_n if big_n else np.zeros(0)
    vv_unl = float(np.sum(v_unl * v_unl))
    if lam is None:
        vv = float(np.sum(v_lab * v_lab)) + vv_unl
        lam = float(np.clip(-float(np.sum(u * v_lab)) / vv, 0.0, 1.0)) if vv > 0 and big_n \
            else 0.0
    mean_unl = float(f_unl.mean()) if big_n else 0.0
    estimate = lam * mean_unl + float(np.mean(y - lam * f_lab))
    resid = u + lam * v_lab
    c = n + big_n
    variance = (float(np.sum(resid * resid)) + lam * lam * vv_unl) * c / max(c - 1, 1)
    return PPIFit(estimate, variance, float(lam), c)


def humans_only_variance(y: np.ndarray, items: Any = None) -> float:
    """Var(ȳ) of the human labels alone (cluster-robust with ``items``): the λ = 0 case."""
    empty = np.empty(0)
    return fit_ppi(y, np.zeros_like(y, dtype=float), empty, items_lab=items,
                   items_unl=None if items is None else empty.astype(np.int64),
                   lam=0.0).variance  # fmt: skip
