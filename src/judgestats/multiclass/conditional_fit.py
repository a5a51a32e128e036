"""The judge-conditional distribution over k categories (random and by-judge-label designs).

Where the calibration items are a random sample of the test population, or were sampled within
the judge's letters, P(human | judge) transfers to the test set: θ_k = Σ_j P(judge = j)
P(human = k | judge = j) (:func:`judgestats.designs.judge_conditional_distribution`), with no
inverse, always on the simplex, no conditioning or separation requirement, and a human class
may lack calibration items. Repeated items get the sandwich over item totals
(:func:`judgestats.multiclass.clustered.clustered_design_bounds`). Where the design says the
calibration items sample the test population
(:attr:`~judgestats.designs.Design.calibration_samples_test`), the judge-label mixes of the two
sets are compared (:class:`~judgestats.DesignWarning`).

:func:`fit` returns the fields of a :class:`~judgestats.multiclass.DistributionCorrection`;
:func:`intervals` recomputes its intervals.
"""

from __future__ import annotations

from typing import Any

from ..designs import design_check_categories, judge_conditional_distribution, warn_if_implausible
from ..results import ConfidenceInterval
from ..spec import EstimationSpec
from .clustered import clustered_design_bounds

__all__ = ["fit", "intervals"]

#: The interval methods' implementations: name → with the pseudo-counts (the capability table
#: says which the judge-conditional rows allow).
ADJUSTED = {"adjusted-delta": True, "wald": False}


def fit(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any = None,
    max_condition: Any = None, separation_level: Any = None, stacklevel: int = 2,
) -> dict[str, Any]:  # fmt: skip
    """Return the fields of a :class:`~judgestats.multiclass.DistributionCorrection` (module).

    ``rng``, ``max_condition`` and ``separation_level`` are not used (nothing is resampled,
    inverted or separated); ``stacklevel`` is the one a warning issued here takes to point at
    the user's call.
    """
    est, low, high, cov = judge_conditional_distribution(
        test.counts, calibration.counts, spec.design, spec.confidence_level,
        adjusted=ADJUSTED[spec.method], labels=test.labels,
    )  # the design's checks, and without repeated items its estimate and intervals
    extra: dict[str, Any] = {}
    if spec.repeated:
        est, low, high, cov, extra["clusters"] = clustered_design_bounds(spec, test, calibration)
    elif spec.design.calibration_samples_test:
        extra["design_check"] = design_check_categories(test.counts, calibration.counts)
        warn_if_implausible(extra["design_check"], stacklevel=stacklevel + 1)
    cov.setflags(write=False)
    labels = calibration.labels
    estimate = {lab: float(v) for lab, v in zip(labels, est, strict=True)}
    ci = {
        lab: ConfidenceInterval(float(lo), float(hi), spec.method, spec.confidence_level)
        for lab, lo, hi in zip(labels, low, high, strict=True)
    }
    return {
        "labels": labels, "estimate": estimate, "ci": ci,
        "estimate_unconstrained": dict(estimate), "projected": False, "method": spec.method,
        "confidence_level": spec.confidence_level, "test": test, "calibration": calibration,
        "condition_number": float("nan"), "max_condition": float("inf"), "covariance": cov,
        "design": spec.design, **extra,
    }  # fmt: skip


def intervals(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any = None,
    max_condition: Any = None, stacklevel: int = 2,
) -> dict[Any, ConfidenceInterval]:  # fmt: skip
    """Recompute the intervals under another spec (the fit again, with its design check)."""
    return fit(spec, test, calibration, stacklevel=stacklevel + 1)["ci"]
