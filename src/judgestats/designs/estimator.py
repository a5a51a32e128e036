"""The calibration designs and the judge-conditional estimator each non-default design allows.

The design names (:data:`DESIGNS`, :data:`DEFAULT_DESIGN`), what each design's estimator is
called and cites (:data:`ESTIMATOR`, :data:`REFERENCE`), and the judge-conditional estimator
θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂ (paper, estimator table row iv) from a design's counts, binary
(:func:`judge_conditional`) and k-category (:func:`judge_conditional_distribution`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import CountError, check_choice
from ..counts import ConfusionCounts, JudgedCounts
from ..kernels import (
    judge_conditional_categories,
    judge_conditional_raw,
    z_value,
)

__all__ = [
    "DEFAULT_DESIGN",
    "DESIGNS",
    "check_design",
    "design_counts",
    "judge_conditional",
]


#: The calibration designs, the paper's first.
DESIGNS = ("by-human-label", "random", "by-judge-label")


#: Used where the design is not stated: valid whatever the calibration set's label mix.
DEFAULT_DESIGN = "by-human-label"


#: What each design's estimator is called in results and reports.
ESTIMATOR = {
    "by-human-label": "Rogan–Gladen",
    "random": "judge-conditional (π̂ from all judged items)",
    "by-judge-label": "judge-conditional (π̂ from the test set)",
}


#: What reports cite for each design's estimator.
REFERENCE = {
    "by-human-label": "Lee et al. (2026), eq. (7); Rogan & Gladen (1978)",
    "random": "Lee et al. (2026), estimator table row iv, with π from test and calibration "
    "items, the maximum-likelihood estimator of a random calibration sample",
    "by-judge-label": "Lee et al. (2026), estimator table row iv, conditional calibration",
}


def check_design(design: Any) -> str:
    """Validate a design name (the error lists the valid ones)."""
    return check_choice("design", design, DESIGNS)


def _arrays(test: JudgedCounts, cal: ConfusionCounts) -> list[np.ndarray]:
    shape = np.broadcast_shapes(test.shape, cal.shape)
    fields = (test.positive, test.n, cal.tp, cal.fp, cal.fn, cal.tn)
    return [np.broadcast_to(np.asarray(a, dtype=float), shape) for a in fields]


def design_counts(
    test: JudgedCounts, calibration: ConfusionCounts, design: str
) -> tuple[np.ndarray, ...]:
    """Return the three binomials of the judge-conditional estimator: (x, n_π, tp, k1, fn, k0).

    π = P(judge = 1) from ``x`` of ``n_π`` judged items (test and calibration items under
    ``"random"``, test items under ``"by-judge-label"``), PPV from ``tp`` of ``k1`` = tp + fp,
    FOR from ``fn`` of ``k0`` = fn + tn. Arrays of the batch shape.
    """
    x, n, tp, fp, fn, tn = _arrays(test, calibration)
    k1, k0 = tp + fp, fn + tn
    if design == "random":
        x, n = x + k1, n + k1 + k0
    elif design != "by-judge-label":
        raise ValueError(f"design {design!r} has no judge-conditional estimator")
    return x, n, tp, k1, fn, k0


def _missing_cells(x, n, k1, k0) -> tuple[np.ndarray, np.ndarray]:
    """Masks: no judge-1 (judge-0) calibration item although π̂ > 0 (π̂ < 1)."""
    return (k1 == 0) & (x > 0), (k0 == 0) & (x < n)


def judge_conditional(
    test: JudgedCounts, calibration: ConfusionCounts, design: str
) -> tuple[np.ndarray, np.ndarray]:
    """Judge-conditional θ̂ for (batched) counts, and the mask of data sets where it is inexact.

    θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂ (:func:`design_counts` says where π̂ comes from). Where a
    judge class that π̂ gives weight has no calibration item, its conditional rate is not
    estimable; it enters as 1/2 (the add-one estimate (0 + 1)/(0 + 2)) and the mask is True.
    ``design="by-judge-label"`` raises :class:`CountError` there instead: that design chose the
    calibration items per judge label, so an empty judge class is a missing cell of the design.
    """
    x, n, tp, k1, fn, k0 = design_counts(test, calibration, design)
    no1, no0 = _missing_cells(x, n, k1, k0)
    if design == "by-judge-label" and (no1.any() or no0.any()):
        cell = "1 (tp + fp = 0)" if no1.any() else "0 (fn + tn = 0)"
        raise CountError(
            f"design='by-judge-label' needs calibration items of every judge label the test "
            f"set has, but no calibration item has judge label {cell}: P(human = 1 | judge = "
            f"{cell[0]}) cannot be estimated; label some, or declare design='random' if the "
            "calibration items were a random sample"
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        ppv = np.where(k1 > 0, tp / k1, 0.5)
        for_ = np.where(k0 > 0, fn / k0, 0.5)
        pi = x / n
    return judge_conditional_raw(pi, ppv, for_), no1 | no0


# ----------------------------------------------------------------------------- k categories
def judge_conditional_distribution(
    test_counts: Any, calibration_counts: Any, design: str, confidence_level: float, *,
    adjusted: bool = True, labels: Any = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Judge-conditional distribution over K human categories, with per-category intervals.

    ``test_counts`` (J,) judged test items per judge letter, ``calibration_counts`` (J, K)
    rows = judge letter, columns = human category. π_j from the judged items (test and
    calibration under ``"random"``, test under ``"by-judge-label"``), R[j] = P̂(human | judge
    = j); θ̂ = Σ_j π̂_j R̂[j] (a judge letter with weight but no calibration item enters as
    uniform over the K categories; ``"by-judge-label"`` refuses it). The interval of category
    k is θ_k ± z·√Cov_kk at the pseudo-count values of
    :func:`judgestats.kernels.judge_conditional_categories` (``adjusted``), truncated to
    [0, 1] and widened to hold θ̂_k. Returns (θ̂, low, high, covariance).
    """
    t = np.asarray(test_counts, dtype=float)
    c = np.asarray(calibration_counts, dtype=float)
    if design == "random":
        t = t + c.sum(axis=1)
    rows = c.sum(axis=1)
    missing = (rows == 0) & (t > 0)
    if design == "by-judge-label" and missing.any():
        j = int(np.argmax(missing))
        name = repr(labels[j]) if labels is not None else str(j)
        raise CountError(
            f"design='by-judge-label' needs calibration items of every judge label the test "
            f"set has, but judge label {name} has none: P(human | judge = {name}) cannot be "
            "estimated; label some, or declare design='random'"
        )
    k = c.shape[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(rows[:, None] > 0, c / rows[:, None], 1.0 / k)
    est = (t / t.sum()) @ r
    z = float(z_value(confidence_level))
    centre, cov = judge_conditional_categories(t, c, z, adjusted=adjusted)
    half = z * np.sqrt(np.clip(np.diag(cov), 0.0, None))
    low = np.minimum(np.clip(centre - half, 0.0, 1.0), est)
    high = np.maximum(np.clip(centre + half, 0.0, 1.0), est)
    return est, low, high, cov
