"""The k-category correction through the judge's confusion matrix, repeated items.

Counts built with ``cluster=`` under the by-human-label design (the Rogan–Gladen family): for a
square matrix θ̂ = Ĉ⁻¹p̂ with the sandwich covariance over item totals
(:func:`judgestats.multiclass.clustered.clustered_distribution_bounds`; the item bootstrap), for
a judge alphabet of its own the design-effect-scaled likelihood or the item bootstrap
(:func:`judgestats.multiclass.alphabet_clusters.clustered_alphabet_bounds`). The separation test
counts an item's rows by its design effect.

:func:`fit` returns the fields of a :class:`~judgestats.multiclass.DistributionCorrection`;
:func:`intervals` recomputes its intervals.
"""

from __future__ import annotations

import warnings
from typing import Any, cast

import numpy as np

from .._validation import ProjectedEstimateWarning, check_conditioning
from ..results import ConfidenceInterval
from ..spec import EstimationSpec
from .alphabet_clusters import clustered_alphabet_bounds
from .arrays import _simplex_ml
from .clustered import clustered_distribution_bounds, column_design_effects
from .confusion_fit import SIMPLEX_TOL
from .methods import DistributionBounds
from .separation import _check_pair

__all__ = ["fit", "intervals"]


def fit(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any, max_condition: Any,
    separation_level: Any, stacklevel: int,
) -> dict[str, Any]:  # fmt: skip
    """Return the fields of a :class:`~judgestats.multiclass.DistributionCorrection` (module).

    ``stacklevel`` is the one a warning issued here takes to point at the user's call.
    """
    deff = None  # the separation test counts an item's rows by its design effect
    if separation_level is not None:
        deff = column_design_effects(test, calibration)
    max_condition = _check_pair(test, calibration, max_condition, separation_level, deff)
    if not calibration.square:
        return _alphabet(spec, test, calibration, rng=rng, max_condition=max_condition)
    bounds, summary, p, matrix = clustered_distribution_bounds(
        spec, test, calibration, max_condition=max_condition, rng=rng
    )
    if np.isnan(bounds.low).any():
        what = f"used by the {spec.method!r} interval (after its adjustment)"
        check_conditioning(float(np.asarray(bounds.condition_number)), max_condition, what)
    raw = np.linalg.solve(matrix, p)
    outside = bool((raw < -SIMPLEX_TOL).any())
    est = _simplex_ml(p, matrix) if outside else np.clip(raw, 0.0, 1.0) / np.clip(raw, 0, 1).sum()
    if outside:
        warnings.warn(
            "the corrected distribution Ĉ⁻¹p̂ lies outside the probability simplex; the "
            "estimate reported is the constrained maximum-likelihood fit on the simplex "
            "(estimate_unconstrained keeps Ĉ⁻¹p̂)", ProjectedEstimateWarning,
            stacklevel=stacklevel,
        )  # fmt: skip
    cov = np.array(bounds.covariance, dtype=float)
    cov.setflags(write=False)
    labels = calibration.labels
    return {
        **_fields(spec, test, calibration, bounds, max_condition),
        "estimate": {lab: float(v) for lab, v in zip(labels, est, strict=True)},
        "estimate_unconstrained": {lab: float(v) for lab, v in zip(labels, raw, strict=True)},
        "projected": outside, "covariance": cov, "clusters": summary,
    }  # fmt: skip


def intervals(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any, max_condition: Any,
    stacklevel: int,
) -> dict[Any, ConfidenceInterval]:  # fmt: skip
    """Recompute the intervals under another spec (the fit again, its separation test passed)."""
    return fit(spec, test, calibration, rng=rng, max_condition=max_condition,
               separation_level=None, stacklevel=stacklevel + 1)["ci"]  # fmt: skip


def _alphabet(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any, max_condition: float
) -> dict[str, Any]:
    """Repeated items with a judge alphabet of its own (:mod:`.alphabet_clusters`)."""
    bounds, summary = clustered_alphabet_bounds(
        spec, test, calibration, max_condition=max_condition, rng=rng
    )
    fitted = cast(np.ndarray, bounds.estimate)  # the alphabet's methods set their estimate
    estimate = {lab: float(v) for lab, v in zip(calibration.labels, fitted, strict=True)}
    return {
        **_fields(spec, test, calibration, bounds, max_condition), "estimate": estimate,
        "estimate_unconstrained": dict(estimate), "projected": False, "covariance": None,
        "clusters": summary,
    }  # fmt: skip


def _fields(
    spec: EstimationSpec, test: Any, calibration: Any, bounds: DistributionBounds,
    max_condition: float,
) -> dict[str, Any]:  # fmt: skip
    """Return the fields both shapes share: the intervals, the spec's, the counts, the matrix."""
    undefined = int(np.asarray(bounds.undefined))
    return {
        "labels": calibration.labels,
        "ci": {lab: ConfidenceInterval.from_bounds(bounds, spec.method, spec.confidence_level,
                                                   i, undefined=undefined)
               for i, lab in enumerate(calibration.labels)},
        "method": spec.method, "confidence_level": spec.confidence_level, "test": test,
        "calibration": calibration, "condition_number": calibration.condition_number,
        "max_condition": max_condition, "design": spec.design,
    }  # fmt: skip
