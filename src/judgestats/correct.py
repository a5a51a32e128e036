"""``correct()``: judged test counts + calibration counts → corrected rate with an interval."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import (
    JudgeStatsError,
    check_confidence_level,
    check_informative,
    check_instance,
)
from .counts import ConfusionCounts, JudgedCounts
from .estimators import _warn_clipped, rogan_gladen_raw
from .intervals import (
    check_bounds_defined,
    compute_bounds,
    get_method,
    warn_undefined_replicates,
)
from .results import ConfidenceInterval, Correction
from .shift import label_shift_test

__all__ = ["correct", "interval_for"]


def _check_single(test: Any, calibration: Any) -> None:
    check_instance("test", test, JudgedCounts)
    check_instance("calibration", calibration, ConfusionCounts)
    for name, obj in (("test", test), ("calibration", calibration)):
        if obj.shape:
            raise JudgeStatsError(
                f"{name} holds a batch of shape {obj.shape}; correct() takes one data set "
                "(use the vectorised primitives or js.simulate for batches)"
            )


def interval_for(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    *,
    method: str,
    confidence_level: float,
    rng: Any = None,
    stacklevel: int = 2,
    **options: Any,
) -> ConfidenceInterval:
    """Interval for one data set by a registered method (validated, warns, never NaN)."""
    return _interval_and_point(
        test,
        calibration,
        method=method,
        confidence_level=confidence_level,
        rng=rng,
        stacklevel=stacklevel + 1,
        **options,
    )[0]


def _interval_and_point(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    *,
    method: str,
    confidence_level: float,
    rng: Any = None,
    stacklevel: int = 2,
    **options: Any,
) -> tuple[ConfidenceInterval, float | None]:
    _check_single(test, calibration)
    if get_method(method).requires_informative:
        check_informative(calibration.specificity, calibration.sensitivity, what="q̂0 + q̂1")
    level = check_confidence_level(confidence_level)
    bounds = compute_bounds(
        test, calibration, method=method, confidence_level=level, rng=rng, **options
    )
    check_bounds_defined(bounds, method)
    warn_undefined_replicates(bounds, stacklevel=stacklevel + 1)
    ci = ConfidenceInterval(
        low=float(bounds.low),
        high=float(bounds.high),
        method=method,
        confidence_level=level,
        undefined=int(np.asarray(bounds.undefined)),
        n_resamples=bounds.n_resamples,
    )
    return ci, (None if bounds.estimate is None else float(bounds.estimate))


def correct(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    *,
    method: str = "adjusted-wald",
    confidence_level: float = 0.95,
    rng: Any = None,
    **options: Any,
) -> Correction:
    """Correct a judged rate for the judge's errors and give an interval for the true rate.

    Computes the Rogan–Gladen estimate θ̂ = (p̂ + q̂0 − 1)/(q̂0 + q̂1 − 1) (paper eq.
    point-estimator), clipped to [0, 1], and an interval that accounts for the test and the
    calibration sample (default: the paper's adjusted-Wald interval, eq. ci). A method that
    comes with its own point estimate (a posterior summary, for instance) reports that instead
    of θ̂; ``res.method`` says which method produced both.

    Parameters
    ----------
    test : JudgedCounts
        Judge labels on the test set (``positive`` of ``n`` judged 1).
    calibration : ConfusionCounts
        Human-vs-judge counts on the calibration set (both human classes present).
    method : str, default "adjusted-wald"
        Interval method: ``"adjusted-wald"`` (paper), ``"wald"``, ``"bootstrap"`` or any name in
        :func:`judgestats.interval_methods`.
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    rng : None, int, SeedSequence or Generator
        Randomness for resampling methods (ignored by the closed forms).
    **options
        Method options, e.g. ``n_resamples=9999`` for ``"bootstrap"``.

    Returns
    -------
    Correction

    Raises
    ------
    ArgumentTypeError
        If ``test``/``calibration`` are not counts objects.
    NotInformativeError
        If q̂0 + q̂1 <= 1 (the judge is no better than chance on the calibration set, so the
        Rogan–Gladen estimate does not exist) and the method needs it; likelihood-based methods
        (``"profile-likelihood"``) still answer, with a wide interval.
    MethodError, ConfidenceLevelError
        On an unknown method or a bad level.

    Warns
    -----
    ClippedEstimateWarning
        When θ̂ falls outside [0, 1] (``clipped=True`` on the result).
    SamplingWarning
        When bootstrap replicates were undefined (counted on ``ci.undefined``).

    Examples
    --------
    >>> import judgestats as js
    >>> res = js.correct(js.JudgedCounts(positive=600, n=1000),
    ...                  js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30))
    >>> round(res.estimate, 4)
    0.5
    """
    ci, point = _interval_and_point(
        test,
        calibration,
        method=method,
        confidence_level=confidence_level,
        rng=rng,
        stacklevel=3,
        **options,
    )
    if point is None:  # the Rogan–Gladen estimate, clipped (paper eq. point-estimator)
        raw = float(rogan_gladen_raw(test.p_hat, calibration.specificity, calibration.sensitivity))
        _warn_clipped(np.asarray(raw), stacklevel=3)
    else:  # the method's own point estimate (an MLE or a posterior summary), in [0, 1]
        raw = point
    return Correction(
        estimate=float(np.clip(raw, 0.0, 1.0)),
        ci=ci,
        estimate_unclipped=raw,
        clipped=bool(raw < 0 or raw > 1),
        method=method,
        confidence_level=ci.confidence_level,
        test=test,
        calibration=calibration,
        label_shift=label_shift_test(test, calibration),
    )
