"""``correct()``: judged test counts + calibration counts → corrected rate with an interval."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ._validation import (
    JudgeStatsError,
    NotInformativeError,
    WeakCalibrationWarning,
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

__all__ = ["WEAK_MIN_PER_CLASS", "WEAK_SUM", "correct", "interval_for", "weak_regime"]

#: ``correct()`` warns (WeakCalibrationWarning) for the Rogan–Gladen-based methods when a human
#: class has fewer calibration items than this, or q̂0 + q̂1 is below WEAK_SUM.
WEAK_MIN_PER_CLASS = 10
WEAK_SUM = 1.2
#: the methods that rest on the Rogan–Gladen ratio (undefined when q̂0 + q̂1 <= 1)
_RG_METHODS = ("adjusted-wald", "wald", "bootstrap")
_EVIDENCE = "benchmarks/results/weak_judge.md"


def weak_regime(calibration: ConfusionCounts, method: str) -> str | None:
    """Why ``method`` is in its bad regime for this calibration set, or None.

    The rules and their numbers come from the weak-judge study of issue #10
    (benchmarks/results/weak_judge.md: 250 simulated cells × 1,000 data sets; 24 real targets ×
    100 splits at 10% and 5% calibration):

    * Rogan–Gladen-based methods (adjusted-Wald, Wald, bootstrap) when
      min(m0, m1) < WEAK_MIN_PER_CLASS or q̂0 + q̂1 < WEAK_SUM: there θ̂ is undefined in up to
      63% of data sets (true q0 + q1 = 1.05, m = 5 per class), adjusted-Wald covered as little
      as 0.70 (true q0 + q1 <= 1.2, m <= 20) and the RMSE of θ̂ reached 0.55.
      ``"profile-map"`` answered every data set, covered >= 0.90 in all 250 cells and passed
      the real-data bar on 24 of 24 targets at both calibration fractions.
    * ``"profile-likelihood"`` (χ²₁ cut-off) when min(m0, m1) < WEAK_MIN_PER_CLASS: its
      coverage fell to 0.83 (m = 5 per class) and 0.85 (m = 10); the t cut-off of
      ``"profile-likelihood-t"`` / ``"profile-map"`` covered >= 0.90 there.

    Parameters
    ----------
    calibration : ConfusionCounts
        The calibration counts (one data set).
    method : str
        A registered interval method.

    Returns
    -------
    str or None
        The reason, with the numbers and the better method, or None outside the bad regime.
    """
    m_min = min(calibration.m0, calibration.m1)
    qsum = calibration.specificity + calibration.sensitivity
    few = m_min < WEAK_MIN_PER_CLASS
    cls = int(calibration.m1 == m_min)
    if method in _RG_METHODS and (few or qsum < WEAK_SUM):
        what = (
            f"only {m_min} calibration items of human class {cls}"
            if few
            else f"a weak judge on the calibration set (q̂0 + q̂1 = {qsum:.3f} < {WEAK_SUM})"
        )
        return (
            f"{what}: here the Rogan–Gladen-based {method!r} interval is unreliable (in "
            f"simulation with m < {WEAK_MIN_PER_CLASS} per class or q0 + q1 <= {WEAK_SUM} the "
            "estimate was undefined in up to 63% of data sets, adjusted-Wald coverage fell to "
            f"0.70 and the RMSE of θ̂ reached 0.55; {_EVIDENCE}); use method='profile-map', "
            "which always answers, kept coverage >= 0.90 in every simulated cell and passed "
            "all 24 real targets"
        )
    if method == "profile-likelihood" and few:
        return (
            f"only {m_min} calibration items of human class {cls}: the χ²₁ cut-off of "
            "'profile-likelihood' is too small here (coverage down to 0.83 with m = 5–10 per "
            f"class in {_EVIDENCE}); use method='profile-map' or 'profile-likelihood-t' "
            "(t cut-off, coverage >= 0.90 there)"
        )
    return None


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
        try:
            check_informative(calibration.specificity, calibration.sensitivity, what="q̂0 + q̂1")
        except NotInformativeError as exc:
            raise NotInformativeError(
                f"{exc}; method='profile-map', 'profile-likelihood-t' or 'bayes' still answer "
                "(with a wide interval)"
            ) from None
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
        Interval method: ``"adjusted-wald"`` (paper), ``"wald"``, ``"bootstrap"``,
        ``"profile-likelihood"``, ``"profile-likelihood-t"``, ``"profile-map"``, ``"bayes"`` or
        any name in :func:`judgestats.interval_methods`. Which one when (m = calibration items
        of the smaller human class, s = q̂0 + q̂1; evidence in benchmarks/results/weak_judge.md):

        ======================  =============================  ================================
        calibration set         method                         evidence (simulation; real data)
        ======================  =============================  ================================
        m >= 10 and s >= 1.2    ``"adjusted-wald"`` (default)  coverage >= 0.92 in every
                                                               observed (m, s) bin; 23 of 24
                                                               real targets pass
        m < 10 or s < 1.2       ``"profile-map"``              never undefined; coverage
        (WeakCalibration-                                      >= 0.90 in all 250 cells,
        Warning)                                               >= 0.937 where q0 + q1 >= 1.2
                                                               and m >= 20; 24 of 24 targets
        s <= 1                  ``"profile-map"`` or           Rogan–Gladen undefined; these
                                ``"bayes"``                    always answer
        smallest point error    ``"bayes"`` (posterior mean    lowest RMSE (mean over θ) in
                                or median)                     all 50 (q0, q1, m) settings
        ======================  =============================  ================================
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
    WeakCalibrationWarning
        When the method is in its bad regime for this calibration set (see
        :func:`weak_regime`); the message names the method that does better there.
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
    why = weak_regime(calibration, method)
    if why is not None:
        warnings.warn(why, WeakCalibrationWarning, stacklevel=2)
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
