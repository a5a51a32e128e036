"""The calibration designs and the judge-conditional estimator each non-default design allows.

The design names (:data:`DESIGNS`, :data:`DEFAULT_DESIGN`), what each design's estimator is
called and cites (:data:`ESTIMATOR`, :data:`REFERENCE`), and the judge-conditional estimator
θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂ (paper, estimator table row iv) from a design's counts, binary
(:func:`judge_conditional`) and k-category (:func:`judge_conditional_distribution`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import CountError
from ..counts import ConfusionCounts, JudgedCounts
from ..kernels import judge_conditional_categories, z_value
from .base import Design, JudgeConditionalDesign, as_design, design_names, register_design
from .by_human_label import ByHumanLabel
from .by_judge_label import ByJudgeLabel
from .random_sample import RandomSample

__all__ = [
    "DEFAULT_DESIGN",
    "DESIGNS",
    "check_design",
    "design_counts",
    "judge_conditional",
]


#: The designs, one instance each, the paper's first (:func:`.base.as_design` looks them up).
BY_HUMAN_LABEL = register_design(ByHumanLabel)
RANDOM = register_design(RandomSample)
BY_JUDGE_LABEL = register_design(ByJudgeLabel)

#: The names of the built-in designs, the paper's first (:func:`.base.design_names` also
#: lists designs registered later).
DESIGNS = design_names()

#: Used where the design is not stated: valid whatever the calibration set's label mix.
DEFAULT_DESIGN = BY_HUMAN_LABEL

#: What each built-in design's estimator is called in results and reports (``design.estimator``).
ESTIMATOR = {str(d): d.estimator for d in (BY_HUMAN_LABEL, RANDOM, BY_JUDGE_LABEL)}

#: What reports cite for each built-in design's estimator (``design.reference``).
REFERENCE = {str(d): d.reference for d in (BY_HUMAN_LABEL, RANDOM, BY_JUDGE_LABEL)}


def check_design(design: Any) -> Design:
    """Validate a design (a name or a :class:`.base.Design`); the error lists the valid names.

    Examples
    --------
    >>> import judgestats as js
    >>> js.designs.check_design("random")
    'random'
    """
    return as_design(design)


def design_counts(
    test: JudgedCounts, calibration: ConfusionCounts, design: Any
) -> tuple[np.ndarray, ...]:
    """Return the three binomials of the judge-conditional estimator: (x, n_π, tp, k1, fn, k0).

    π = P(judge = 1) from ``x`` of ``n_π`` judged items (test and calibration items under
    ``"random"``, test items under ``"by-judge-label"``), PPV from ``tp`` of ``k1`` = tp + fp,
    FOR from ``fn`` of ``k0`` = fn + tn (:meth:`.base.JudgeConditionalDesign.binomials`).
    Arrays of the batch shape.

    Examples
    --------
    The binomial counts behind the judge-conditional estimator under ``design="random"``:

    >>> import judgestats as js
    >>> test = js.JudgedCounts(positive=600, n=1000)
    >>> cal = js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60)
    >>> counts = js.designs.design_counts(test, cal, "random")
    >>> [float(c) for c in counts]
    [840.0, 1400.0, 180.0, 240.0, 20.0, 160.0]
    """
    return _conditional(design).binomials(test, calibration)


def _conditional(design: Any) -> JudgeConditionalDesign:
    design = as_design(design)
    if not isinstance(design, JudgeConditionalDesign):
        raise ValueError(f"design {str(design)!r} has no judge-conditional estimator")
    return design


def judge_conditional(
    test: JudgedCounts, calibration: ConfusionCounts, design: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Judge-conditional θ̂ for (batched) counts, and the mask of data sets where it is inexact.

    θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂ (:func:`design_counts` says where π̂ comes from). Where a
    judge class that π̂ gives weight has no calibration item, its conditional rate is not
    estimable; it enters as 1/2 (the add-one estimate (0 + 1)/(0 + 2)) and the mask is True.
    ``design="by-judge-label"`` raises :class:`CountError` there instead: that design chose the
    calibration items per judge label, so an empty judge class is a missing cell of the design
    (:meth:`.base.JudgeConditionalDesign.point`).

    Examples
    --------
    >>> import judgestats as js
    >>> estimate, clipped = js.designs.judge_conditional(
    ...     js.JudgedCounts(positive=600, n=1000), js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
    ...     "random")
    >>> round(float(estimate), 4), bool(clipped)
    (0.5, False)
    """
    return _conditional(design).point(test, calibration)


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
    design = _conditional(design)
    c = np.asarray(calibration_counts, dtype=float)
    rows = c.sum(axis=1)
    t, _ = design.pi_counts(np.asarray(test_counts, dtype=float), 0.0, rows, 0.0)
    missing = (rows == 0) & (t > 0)
    if design.refuses_missing_judge_class and missing.any():
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
