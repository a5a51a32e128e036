"""Label-shift diagnostic: does the calibration set's true rate differ from the test's.

The Rogan–Gladen correction stays valid when the calibration set's human-positive rate θ_Q
differs from the test rate θ_P (it assumes only that the judge's behaviour given the true label
is shared). The estimators that assume P = Q (calibration-only, difference, conditional
calibration) do not. This module compares θ̂_P (Rogan–Gladen, unclipped) with θ̂_Q = m1/m by a
Wald z-statistic

    z = (θ̂_P − θ̂_Q) / √(Var(θ̂_P) + θ̂_Q(1 − θ̂_Q)/m),

with Var(θ̂_P) from paper eq. (15). The two are treated as independent (a conservative
simplification: they share the calibration counts).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import LabelShiftWarning, check_instance
from .counts import ConfusionCounts, JudgedCounts
from .kernels import rogan_gladen_raw, rogan_gladen_variance

__all__ = ["LABEL_SHIFT_ALPHA", "LabelShiftDiagnostic", "label_shift_test"]

#: Two-sided level below which the mixes are said to differ (and estimators (ii)–(iv) warn).
LABEL_SHIFT_ALPHA = 0.01


@dataclass(frozen=True, slots=True)
class LabelShiftDiagnostic:
    """Calibration human-positive rate beside the corrected test rate, with a z-test.

    Examples
    --------
    Made by :func:`label_shift_test`:

    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
    >>> shift = js.label_shift_test(js.JudgedCounts(positive=700, n=1000), cal)
    >>> round(shift.pvalue, 4)
    0.0054
    """

    calibration_rate: Any
    test_rate: Any
    z: Any
    pvalue: Any

    @property
    def shifted(self) -> Any:
        """True where the two-sided p-value is below :data:`LABEL_SHIFT_ALPHA`."""
        out = np.asarray(self.pvalue) < LABEL_SHIFT_ALPHA
        return bool(out) if out.ndim == 0 else out


def _diagnostic_arrays(
    test: JudgedCounts, cal: ConfusionCounts, sizes: dict | None = None
) -> tuple[np.ndarray, ...]:
    from scipy.special import ndtr  # lazy import keeps `import judgestats` light

    p, q0, q1 = test.p_hat, cal.specificity, cal.sensitivity
    theta_p = rogan_gladen_raw(p, q0, q1)
    theta_q = np.asarray(cal.human_positive_rate, dtype=float)
    n, m0, m1, m = test.n, cal.m0, cal.m1, cal.m
    if sizes is not None:  # repeated items: effective sizes
        n, m0, m1, m = (sizes[k] for k in ("p", "q0", "q1", "calibration_human"))
    var = rogan_gladen_variance(p, q0, q1, n, m0, m1)
    var = var + theta_q * (1.0 - theta_q) / np.asarray(m, dtype=float)
    diff = theta_p - theta_q
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(var > 0, diff / np.sqrt(var), np.where(diff == 0, 0.0, np.sign(diff) * np.inf))
    z = np.where(np.isnan(theta_p), np.nan, z)
    pvalue = 2.0 * ndtr(-np.abs(z))
    return tuple(np.broadcast_arrays(theta_q, theta_p, z, pvalue))


def label_shift_test(
    test: JudgedCounts, calibration: ConfusionCounts, *, sizes: dict | None = None
) -> LabelShiftDiagnostic:
    """Compare the calibration set's human-positive rate with the corrected test rate.

    Parameters
    ----------
    test : JudgedCounts
        Judged test counts, corrected by Rogan–Gladen.
    calibration : ConfusionCounts
        Human-vs-judge calibration counts: their human-positive rate is m1/m.
    sizes : dict, optional
        With repeated items: the effective sizes of ``"p"``, ``"q0"``, ``"q1"`` and
        ``"calibration_human"`` (:attr:`judgestats.repeated.ClusterSummary.sizes`) in place
        of n, m0, m1 and m in the variances.

    Returns
    -------
    LabelShiftDiagnostic
        ``calibration_rate`` (m1/m), ``test_rate`` (unclipped Rogan–Gladen θ̂; NaN when the
        judge is not informative), ``z`` and the two-sided normal ``pvalue``.

    See Also
    --------
    judge_shift_test : Whether the judge's error rates moved.
    correct : Correct the judge's pass rate.

    Examples
    --------
    A calibration set balanced by human label (rate 0.5) against a test set whose corrected rate
    is 0.667: the mixes differ, which the Rogan–Gladen correction survives and the estimators that
    assume equal mixes do not:

    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
    >>> shift = js.label_shift_test(js.JudgedCounts(positive=700, n=1000), cal)
    >>> round(shift.calibration_rate, 3), round(shift.test_rate, 3), round(shift.z, 2)
    (0.5, 0.667, 2.78)
    >>> round(shift.pvalue, 4)
    0.0054
    """
    check_instance("test", test, JudgedCounts)
    check_instance("calibration", calibration, ConfusionCounts)
    arrays = _diagnostic_arrays(test, calibration, sizes)
    out = [float(a) if np.ndim(a) == 0 else a for a in arrays]
    return LabelShiftDiagnostic(*out)


def warn_if_label_shift(
    test: JudgedCounts, calibration: ConfusionCounts, *, estimator: str, stacklevel: int = 3
) -> None:
    """Warn :class:`LabelShiftWarning` for an estimator that assumes P = Q."""
    theta_q, theta_p, _, pvalue = _diagnostic_arrays(test, calibration)
    shifted = (pvalue < LABEL_SHIFT_ALPHA).reshape(-1)
    if shifted.any():
        i = int(np.argmax(shifted))
        tq, tp = theta_q.reshape(-1)[i], theta_p.reshape(-1)[i]
        where = f" in {int(shifted.sum())} of {shifted.size} data sets" if pvalue.ndim else ""
        warnings.warn(
            f"label shift: human rate {tq:.3f} (calibration) vs {tp:.3f} (test){where}; "
            f"{estimator} is biased; help(js.LabelShiftWarning)",
            LabelShiftWarning,
            stacklevel=stacklevel,
        )
