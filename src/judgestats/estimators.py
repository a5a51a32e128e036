"""Point estimators of the true (human) rate θ on the test distribution P.

The five estimators of the paper's Table "estimator-comparison" (Section "Robust Estimation under
Distribution Shift"). Each differs in what it assumes is shared between the test distribution P
and the calibration distribution Q:

======================================  =====================================  ==================
estimator                               formula                                invariance assumed
======================================  =====================================  ==================
(i) :func:`naive`                       E_P[Ẑ]                                 P_P(Z) = P_P(Ẑ)
(ii) :func:`calibration_only`           E_Q[Z]                                 P_P(Z) = P_Q(Z)
(iii) :func:`prediction_powered` (PPI)  E_P[Ẑ] + E_Q[Z − Ẑ]                    P_P(Z−Ẑ) = P_Q(Z−Ẑ)
(iv) :func:`conditional_calibration`    P_Q(Z | Ẑ) E_P[Ẑ]                      P_P(Z|Ẑ) = P_Q(Z|Ẑ)
(v) :func:`misclassification_adjusted`  P_Q(Ẑ | Z)⁻¹ E_P[Ẑ] = Rogan–Gladen      P_P(Ẑ|Z) = P_Q(Ẑ|Z)
======================================  =====================================  ==================

Only (v) survives label shift (P_P(Z) ≠ P_Q(Z)) when the judge behaves the same given the true
label. (ii)–(iv) warn with :class:`LabelShiftWarning` when the calibration set's human-positive
rate differs significantly from the corrected test rate (see :func:`judgestats.label_shift_test`).

All functions are vectorised: counts objects may hold arrays (a batch of data sets).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ._validation import (
    ClippedEstimateWarning,
    CountError,
    broadcast,
    check_informative,
    check_instance,
    check_probability,
    warn_deprecated,
)
from .counts import ConfusionCounts, JudgedCounts
from .designs import BY_JUDGE_LABEL, design_counts
from .kernels import judge_conditional_parts, rogan_gladen_raw

__all__ = [
    "ESTIMATORS",
    "calibration_only",
    "conditional_calibration",
    "difference",
    "misclassification_adjusted",
    "naive",
    "prediction_powered",
    "rogan_gladen",
]


def _out(x: Any) -> Any:
    x = np.asarray(x, dtype=float)
    return float(x) if x.ndim == 0 else x


def _warn_clipped(raw: np.ndarray, stacklevel: int = 3, note: str = "",
                  estimator: str = "Rogan–Gladen") -> None:  # fmt: skip
    out = (raw < 0) | (raw > 1)
    if out.any():
        k = int(np.count_nonzero(out))
        first = float(raw[out].flat[0])
        msg = (
            f"{estimator} estimate {first:.4g} clipped to [0, 1]"
            if raw.ndim == 0
            else f"{k} of {raw.size} {estimator} estimates clipped to [0, 1] (first: {first:.4g})"
        )
        warnings.warn(
            msg + note + "; help(js.ClippedEstimateWarning)",
            ClippedEstimateWarning,
            stacklevel=stacklevel,
        )


# ----------------------------------------------------------------------------- primitives
def rogan_gladen(p: Any, q0: Any, q1: Any) -> Any:
    """Rogan–Gladen bias-corrected rate, clipped to [0, 1] (paper eq. (7)).

    θ̂ = (p̂ + q̂0 − 1) / (q̂0 + q̂1 − 1), then clipped to [0, 1].

    Parameters
    ----------
    p : float or array_like
        Judged positive rate p̂ on the test set.
    q0, q1 : float or array_like
        Specificity q̂0 = P(judge 0 | human 0) and sensitivity q̂1 = P(judge 1 | human 1).
        All arguments broadcast together.

    Returns
    -------
    float or ndarray
        θ̂ clipped to [0, 1] (a float when every argument is a scalar).

    Raises
    ------
    ProbabilityError
        If an argument is outside [0, 1] or NaN.
    NotInformativeError
        Where q0 + q1 <= 1: the judge is no better than chance.

    Warns
    -----
    ClippedEstimateWarning
        When an unclipped estimate lies outside [0, 1].

    Notes
    -----
    Assumes the judge's error rates given the true label are the same on the test and
    calibration distributions, P_P(Ẑ | Z) = P_Q(Ẑ | Z); it does *not* assume the true rates are
    equal, so it stays unbiased (for known q's) under label shift.

    Examples
    --------
    >>> import judgestats as js
    >>> round(js.rogan_gladen(0.6, 0.7, 0.9), 6)
    0.5
    """
    p = check_probability("p", p)
    q0 = check_probability("q0", q0)
    q1 = check_probability("q1", q1)
    p, q0, q1 = broadcast(p=p, q0=q0, q1=q1)
    check_informative(q0, q1)
    return _out(clip_warned(rogan_gladen_raw(p, q0, q1)))


# ----------------------------------------------------------------------------- counts-level
def _check_pair(test: Any, calibration: Any) -> tuple[JudgedCounts, ConfusionCounts]:
    check_instance("test", test, JudgedCounts)
    check_instance("calibration", calibration, ConfusionCounts)
    return test, calibration


def naive(test: JudgedCounts, calibration: ConfusionCounts | None = None) -> Any:
    """(i) Naive judged rate p̂ = E_P[Ẑ] (paper eq. (3)).

    Assumes the judge's positive rate equals the true rate on the test set, P_P(Z) = P_P(Ẑ):
    true only for a perfect judge or at the crossing point θ = (1 − q0)/(2 − q0 − q1).
    ``calibration`` is accepted (and ignored) so all five estimators share a signature.

    Examples
    --------
    >>> import judgestats as js
    >>> js.estimators.naive(js.JudgedCounts(positive=700, n=1000))
    0.7
    """
    check_instance("test", test, JudgedCounts)
    if calibration is not None:
        check_instance("calibration", calibration, ConfusionCounts)
    return _out(np.asarray(test.positive) / np.asarray(test.n))


def _calibration_only_raw(test: JudgedCounts, cal: ConfusionCounts) -> np.ndarray:
    return np.broadcast_to(
        np.asarray(cal.m1) / np.asarray(cal.m), np.broadcast_shapes(test.shape, cal.shape)
    )


def _difference_raw(test: JudgedCounts, cal: ConfusionCounts) -> np.ndarray:
    p = np.asarray(test.positive) / np.asarray(test.n)
    return p + (np.asarray(cal.fn) - np.asarray(cal.fp)) / np.asarray(cal.m)


def _conditional_raw(test: JudgedCounts, cal: ConfusionCounts) -> np.ndarray:
    """Judge-conditional θ̂ with π̂ = p̂ (the by-judge-label design); NaN where PPV or FOR is."""
    x, n, tp, k1, fn, k0 = design_counts(test, cal, BY_JUDGE_LABEL)
    return judge_conditional_parts(x, n, tp, k1, fn, k0, 0.0, adjusted=False)["theta"]


def rogan_gladen_counts(test: JudgedCounts, cal: ConfusionCounts) -> np.ndarray:
    """Unclipped Rogan–Gladen θ̂ from (batched) counts; NaN where q̂0 + q̂1 <= 1. No warning."""
    return rogan_gladen_raw(test.p_hat, cal.specificity, cal.sensitivity)


def clip_warned(raw: Any, stacklevel: int = 3, note: str = "",
                estimator: str = "Rogan–Gladen") -> np.ndarray:  # fmt: skip
    """θ̂ clipped to [0, 1], with a ClippedEstimateWarning (naming ``estimator``) if outside."""
    raw = np.asarray(raw, dtype=float)
    _warn_clipped(raw, stacklevel=stacklevel + 1, note=note, estimator=estimator)
    return np.clip(raw, 0.0, 1.0)


def _shift_warn(test: JudgedCounts, cal: ConfusionCounts, name: str) -> None:
    from .label_shift import warn_if_label_shift  # local: label_shift imports this module

    warn_if_label_shift(test, cal, estimator=name, stacklevel=4)


def calibration_only(test: JudgedCounts, calibration: ConfusionCounts) -> Any:
    """(ii) Calibration-only estimator E_Q[Z] = m1 / m: the human rate of the calibration set.

    Ignores the judge entirely. Assumes the true rates are equal, P_P(Z) = P_Q(Z), i.e. the
    calibration items are a random sample of the test distribution; biased by θ_Q − θ_P under
    label shift. Warns :class:`LabelShiftWarning` when the data contradict the assumption.

    Examples
    --------
    A calibration set drawn at random from the test items (its human mix is the test set's):

    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=120, fn=13, tn=47, fp=20)
    >>> round(js.estimators.calibration_only(js.JudgedCounts(positive=700, n=1000), cal), 4)
    0.665
    """
    test, calibration = _check_pair(test, calibration)
    _shift_warn(test, calibration, "calibration_only")
    return _out(_calibration_only_raw(test, calibration))


def prediction_powered(test: JudgedCounts, calibration: ConfusionCounts) -> Any:
    """(iii) Prediction-powered (difference) estimator, the point estimate of PPI.

    θ̂ = E_P[Ẑ] + E_Q[Z − Ẑ] = p̂ + (fn − fp)/m. Assumes the judge's mean error is the same on
    both distributions, P_P(Z − Ẑ) = P_Q(Z − Ẑ). That mean error is (2 − q0 − q1)θ − (1 − q0),
    which depends on θ, so under label shift the estimator's bias is (2 − q0 − q1)(θ_Q − θ_P):
    zero only for a perfect judge or no shift. Warns :class:`LabelShiftWarning` when the data
    contradict the assumption.

    Examples
    --------
    A calibration set drawn at random from the test items (its human mix is the test set's):

    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=120, fn=13, tn=47, fp=20)
    >>> round(js.estimators.prediction_powered(js.JudgedCounts(positive=700, n=1000), cal), 4)
    0.665
    """
    test, calibration = _check_pair(test, calibration)
    _shift_warn(test, calibration, "prediction_powered")
    return _out(_difference_raw(test, calibration))


def difference(test: JudgedCounts, calibration: ConfusionCounts) -> Any:
    """Estimate by :func:`prediction_powered` (deprecated name; compare.difference is θ_A − θ_B).

    Examples
    --------
    The old name warns and answers as :func:`prediction_powered`:

    >>> import warnings
    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=120, fn=13, tn=47, fp=20)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     estimate = js.estimators.difference(js.JudgedCounts(positive=700, n=1000), cal)
    >>> round(estimate, 4), caught[0].category.__name__
    (0.665, 'DeprecationWarning')
    """
    warn_deprecated("js.difference (the PPI estimator)", "js.estimators.prediction_powered")
    return prediction_powered(test, calibration)


def conditional_calibration(test: JudgedCounts, calibration: ConfusionCounts) -> Any:
    """(iv) Conditional-calibration estimator P_Q(Z | Ẑ) E_P[Ẑ].

    θ̂ = PPV·p̂ + FOR·(1 − p̂), with PPV = tp/(tp + fp) and false-omission rate FOR = fn/(fn + tn)
    estimated on the calibration set. Assumes P_P(Z | Ẑ) = P_Q(Z | Ẑ); by Bayes' rule these
    depend on P(Z), so label shift breaks it. Raises :class:`CountError` when the judge never
    (or always) says 1 on the calibration set, where PPV or FOR is undefined.

    Examples
    --------
    A calibration set drawn at random from the test items (its human mix is the test set's):

    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=120, fn=13, tn=47, fp=20)
    >>> round(js.estimators.conditional_calibration(js.JudgedCounts(positive=700, n=1000), cal), 4)
    0.665
    """
    test, calibration = _check_pair(test, calibration)
    raw = _conditional_raw(test, calibration)
    bad = np.isnan(raw)
    if bad.any():
        raise CountError(
            "conditional calibration needs calibration items the judge labelled 1 and items it "
            "labelled 0 (tp + fp >= 1 and tn + fn >= 1); got "
            f"tp + fp = {np.min(calibration.tp + calibration.fp)}, "
            f"tn + fn = {np.min(calibration.tn + calibration.fn)}"
        )
    _shift_warn(test, calibration, "conditional_calibration")
    return _out(raw)


def misclassification_adjusted(test: JudgedCounts, calibration: ConfusionCounts) -> Any:
    """(v) Misclassification-adjusted estimator P_Q(Ẑ | Z)⁻¹ E_P[Ẑ] = Rogan–Gladen, clipped.

    Identical to :func:`rogan_gladen` applied to p̂ = positive/n, q̂0 = tn/m0, q̂1 = tp/m1
    (paper appendix "Equivalence"). Assumes only that the judge's behaviour given the true label
    is shared, P_P(Ẑ | Z) = P_Q(Ẑ | Z): valid under label shift.

    Examples
    --------
    A calibration set balanced by human label (human rate 0.5) against a test set whose rate is
    higher: the estimate stays valid under that label shift (paper eq. (7)):

    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
    >>> test = js.JudgedCounts(positive=700, n=1000)
    >>> round(js.estimators.misclassification_adjusted(test, cal), 4)
    0.6667
    """
    test, calibration = _check_pair(test, calibration)
    check_informative(calibration.specificity, calibration.sensitivity, what="q̂0 + q̂1")
    return _out(clip_warned(rogan_gladen_counts(test, calibration)))


#: Name → estimator, all callable as ``f(test, calibration)``.
ESTIMATORS = {
    "naive": naive,
    "calibration_only": calibration_only,
    "prediction_powered": prediction_powered,
    "conditional_calibration": conditional_calibration,
    "misclassification_adjusted": misclassification_adjusted,
}

#: Name → unvalidated kernel returning raw floats (NaN where undefined), for simulation.
RAW_ESTIMATORS = {
    "naive": lambda t, c: np.broadcast_to(
        np.asarray(t.positive) / np.asarray(t.n), np.broadcast_shapes(t.shape, c.shape)
    ),
    "calibration_only": _calibration_only_raw,
    "prediction_powered": _difference_raw,
    "conditional_calibration": _conditional_raw,
    "misclassification_adjusted": lambda t, c: np.clip(rogan_gladen_counts(t, c), 0.0, 1.0),
}
