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

**Rare class** (:func:`pseudo_label_variance`, ``fit_ppi(..., rare_adjust=True)``). With fewer
than :data:`RARE_CLASS_LABELS` labelled items of one human class (θ = 0.03–0.1 at 100–400
labels) the few minority labels, when they are well predicted, make Var_n(y − λf) too small
and the Wald interval undercovers (0.79–0.93). There the variance is the larger of PPI++'s
and PPI++'s with :data:`PSEUDO_LABELS` pseudo-labels of each human class added at the labelled
rows' mean prediction, λ held at λ̂ (Agresti & Coull's z²/2 ≈ 2 successes and 2 failures; the
estimate is untouched); with 20 or more of each class it is PPI++'s (the pseudo-labels would
cost 2–4% of the width at θ = 0.3–0.5 where the interval already covers). Measured in
``benchmarks/results/scores_rare.md``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

__all__ = ["PSEUDO_LABELS", "RARE_CLASS_LABELS", "PPIFit", "fit_ppi", "fit_ppi_columns",
           "pseudo_label_variance", "rare_class", "tuned_lambda"]

#: Pseudo-labels of each human class added, at the labelled rows' mean prediction, for the
#: rare-class variance (:func:`pseudo_label_variance`; Agresti–Coull's z²/2 ≈ 2 of each).
PSEUDO_LABELS = 2
#: The rare-class adjustment applies when a human class has fewer labelled items than this
#: (where PPI++'s Wald interval read below 0.93: ``benchmarks/results/scores_rare.md``).
RARE_CLASS_LABELS = 20


class PPIFit(NamedTuple):
    """θ̂ (unclipped), its variance, the λ used and the items counted.

    With several predictors (:func:`fit_ppi_columns`) ``lam`` is the last one's (the
    calibrated score's) and ``lams`` all of them; None with one predictor.
    """

    estimate: float
    variance: float
    lam: float
    items: int
    lams: tuple[float, ...] | None = None


def tuned_lambda(u: np.ndarray, v: np.ndarray) -> float:
    """λ minimising Σ (u + λ v)², clipped to [0, 1] (0 where v is all 0): PPI++'s tuning."""
    vv = float(np.sum(v * v))  # elementwise: a BLAS dot contends for threads on busy machines
    return float(np.clip(-float(np.sum(u * v)) / vv, 0.0, 1.0)) if vv > 0 else 0.0


def _item_sums(values: np.ndarray, items: np.ndarray, size: int) -> np.ndarray:
    return np.bincount(items, weights=values, minlength=size)


def fit_ppi(
    y: np.ndarray, f_lab: np.ndarray, f_unl: np.ndarray, *,
    items_lab: np.ndarray | None = None, items_unl: np.ndarray | None = None,
    lam: float | None = None, rare_adjust: bool = False,
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
    rare_adjust : bool
        Whether, when a human class has fewer than :data:`RARE_CLASS_LABELS` labelled items
        (:func:`rare_class`), the variance is the larger of PPI++'s and
        :func:`pseudo_label_variance`'s at the same λ (module docstring).
    """
    fit = _fit(y, f_lab, f_unl, items_lab, items_unl, lam)
    if not rare_adjust or not rare_class(y, items_lab if items_unl is not None else None):
        return fit
    pseudo = pseudo_label_variance(y, f_lab, f_unl, lam=fit.lam, items_lab=items_lab,
                                   items_unl=items_unl)  # fmt: skip
    return fit._replace(variance=max(fit.variance, pseudo))


def rare_class(y: np.ndarray, items_lab: np.ndarray | None = None) -> bool:
    """Whether a human class has fewer than :data:`RARE_CLASS_LABELS` labelled items.

    Counted in items of the labelled items' mean size (rows without ``items_lab``).
    """
    size = 1.0 if items_lab is None or not y.size else y.size / np.unique(items_lab).size
    fewest = min(float(np.sum(y == 1)), float(np.sum(y == 0))) / size
    return fewest < RARE_CLASS_LABELS


def pseudo_label_variance(
    y: np.ndarray, f_lab: np.ndarray, f_unl: np.ndarray, *, lam: Any,
    items_lab: np.ndarray | None = None, items_unl: np.ndarray | None = None,
) -> float:  # fmt: skip
    """PPI++'s variance with :data:`PSEUDO_LABELS` labels of each human class added.

    With 2-D predictors (n × p, :func:`fit_ppi_columns`) ``lam`` is the λ vector and each
    pseudo-label sits at every column's labelled mean.

    The pseudo-labels (k ones and k zeros) sit at the labelled rows' mean prediction, so a
    pseudo-label of the rare class is one the predictor misses: with few labels of a class the
    few that are well predicted understate Var(y − λf). Each pseudo-label is its own item, of
    the labelled items' mean size in rows (rounded; 1 row without items). λ is held at
    ``lam`` (the fit's λ̂). Arguments as :func:`fit_ppi`'s.

    Returns
    -------
    float
        The variance of the augmented arrays' PPI++ mean at ``lam``.
    """
    k = PSEUDO_LABELS
    size = 1
    if items_lab is not None and items_unl is not None and y.size:
        size = max(1, round(y.size / np.unique(items_lab).size))
    y_aug = np.r_[y, np.repeat([1.0, 0.0], k * size)]
    if f_lab.ndim == 2:  # several predictors (fit_ppi_columns): each at its column's mean
        fill = f_lab.mean(axis=0) if f_lab.size else np.zeros(f_lab.shape[1])
        f_aug = np.vstack([f_lab, np.tile(fill, (2 * k * size, 1))])
    else:
        f_aug = np.r_[f_lab, np.full(2 * k * size, f_lab.mean() if f_lab.size else 0.0)]
    lab_aug = None
    if items_lab is not None and items_unl is not None:
        top = int(max(items_lab.max(initial=-1), items_unl.max(initial=-1))) + 1
        lab_aug = np.r_[items_lab, np.repeat(np.arange(top, top + 2 * k), size)]
    if f_lab.ndim == 2:
        return fit_ppi_columns(y_aug, f_aug, f_unl, items_lab=lab_aug,
                               items_unl=None if lab_aug is None else items_unl,
                               lam=np.asarray(lam, dtype=float)).variance  # fmt: skip
    if lab_aug is None:
        return _fit_rows(y_aug, f_aug, f_unl, float(lam)).variance
    return _fit(y_aug, f_aug, f_unl, lab_aug, items_unl, float(lam)).variance


def fit_ppi_columns(
    y: np.ndarray, g_lab: np.ndarray, g_unl: np.ndarray, *,
    items_lab: np.ndarray | None = None, items_unl: np.ndarray | None = None,
    lam: np.ndarray | None = None, rare_adjust: bool = False,
) -> PPIFit:  # fmt: skip
    """PPI++ with p predictors side by side (columns of ``g``) and a vector λ.

    For predictors g_1 … g_p fixed before the labels are seen, with the labelled rows a random
    sample of the rows,

        θ̂(λ) = ȳ_n + Σ_j λ_j (mean_N g̃_j − mean_n g_j)

    is unbiased for θ at every λ ∈ R^p (the multiple control-variate form of PPI++; with one
    column it is :func:`fit_ppi`'s θ̂(λ)). Linearised, θ̂ − θ ≈ Σ_c (u_c + V_c λ) over items
    c, with u_c as in the module docstring and V_cj that docstring's v_c for column j, so
    Var(θ̂) = C/(C − 1) · ‖u + Vλ‖² (the same sandwich). λ̂ = argmin ‖u + Vλ‖² (least
    squares, p × p), with the last column's λ held at 0 where the minimiser puts it below 0
    (the others re-tuned without it): the last column is the cross-fitted calibration, and a
    negative λ̂ there feeds on the cross-fit's own anti-correlation between a held-out label
    and its fold's fit, not on the score (its interval read 0.975–0.994× its own spread in
    ``benchmarks/results/scores_two.md``). The other columns are not clipped.

    :func:`judgestats.scores.correct_scores` with ``threshold=`` uses it with the raw letter
    1{s > threshold} beside the calibrated score: the letter needs no fitting (the regression
    of y on a binary letter is saturated, so its λ̂ makes θ̂ the letter's post-stratified
    estimator when the score says nothing more), so a score that carries nothing beyond its
    letter costs no cross-fitting noise (measured there: at most 1.011× the letter's width
    against 1.041× with the score alone, 100–300 labels).

    Parameters
    ----------
    y : ndarray
        Labelled rows' human labels (0/1).
    g_lab, g_unl : ndarray
        The predictors at the labelled (n × p) and unlabelled (N × p) rows.
    items_lab, items_unl, rare_adjust
        As :func:`fit_ppi`'s (the pseudo-labels sit at each column's labelled mean).
    lam : ndarray, optional
        A fixed λ vector; None tunes it.

    Returns
    -------
    PPIFit
        ``lam`` the last column's λ, ``lams`` every column's.
    """
    n, big_n = y.size, g_unl.shape[0]
    p = g_lab.shape[1]
    clustered = items_lab is not None and items_unl is not None
    il = items_lab if items_lab is not None and clustered else np.arange(n)
    iu = items_unl if items_unl is not None and clustered else n + np.arange(big_n)
    u, v, c = _influence(y, g_lab, g_unl, il, iu)
    if lam is None:
        lam = np.zeros(p)
        if big_n:
            lam = -np.linalg.lstsq(v, u, rcond=None)[0]
            if lam[-1] < 0:
                lam = np.r_[-np.linalg.lstsq(v[:, :-1], u, rcond=None)[0], 0.0]
    mean_unl = g_unl.mean(axis=0) if big_n else np.zeros(p)
    estimate = float(y.mean() + (mean_unl - g_lab.mean(axis=0)) @ lam)
    resid = u + v @ lam
    variance = float(np.sum(resid * resid)) * c / max(c - 1, 1)
    fit = PPIFit(estimate, variance, float(lam[-1]), c, tuple(float(x) for x in lam))
    if rare_adjust and rare_class(y, items_lab if clustered else None):
        pseudo = pseudo_label_variance(y, g_lab, g_unl, lam=lam,
                                       items_lab=items_lab if clustered else None,
                                       items_unl=items_unl if clustered else None)  # fmt: skip
        fit = fit._replace(variance=max(variance, pseudo))
    return fit


def _fit(
    y: np.ndarray, f_lab: np.ndarray, f_unl: np.ndarray, items_lab: np.ndarray | None,
    items_unl: np.ndarray | None, lam: float | None,
) -> PPIFit:  # fmt: skip
    """:func:`fit_ppi` without the rare-class adjustment."""
    big_n = f_unl.size
    if items_lab is None or items_unl is None:
        return _fit_rows(y, f_lab, f_unl, lam)
    u, v, c = _influence(y, f_lab, f_unl, items_lab, items_unl)
    if lam is None:
        lam = tuned_lambda(u, v) if big_n else 0.0
    mean_unl = float(f_unl.mean()) if big_n else 0.0
    estimate = lam * mean_unl + float(np.mean(y - lam * f_lab))
    resid = u + lam * v
    variance = float(np.sum(resid * resid)) * c / max(c - 1, 1)
    return PPIFit(estimate, variance, float(lam), c)


def _influence(
    y: np.ndarray, f_lab: np.ndarray, f_unl: np.ndarray, items_lab: np.ndarray,
    items_unl: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, int]:  # fmt: skip
    """Return u_c and v_c (module docstring) of the C items present, and C.

    With 2-D predictors (:func:`fit_ppi_columns`) v has one column per predictor.
    """
    n, big_n = y.size, f_unl.shape[0]
    size = int(max(items_lab.max(initial=-1), items_unl.max(initial=-1))) + 1
    u = _item_sums((y - y.mean()) / n, items_lab, size)

    def column(lab: np.ndarray, unl: np.ndarray) -> np.ndarray:
        v = -_item_sums((lab - lab.mean()) / n, items_lab, size)
        if big_n:
            v = v + _item_sums((unl - unl.mean()) / big_n, items_unl, size)
        return v

    v = column(f_lab, f_unl) if f_lab.ndim == 1 else np.column_stack(
        [column(f_lab[:, j], f_unl[:, j]) for j in range(f_lab.shape[1])])
    present = np.zeros(size, dtype=bool)
    present[items_lab] = True
    present[items_unl] = True
    return u[present], v[present], int(present.sum())


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
