"""The random design's guard rail: whether the calibration set is a random sample of the test set.

Under the random design the calibration items' judge-positive rate is, up to sampling noise,
the test set's; :func:`design_check` (binary) and :func:`design_check_categories` (k categories)
test it and :func:`warn_if_implausible` issues a :class:`~judgestats.DesignWarning` when the
test rejects at :data:`DESIGN_ALPHA`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import DesignWarning
from ..counts import ConfusionCounts, JudgedCounts
from ..kernels import (
    g_statistic,
)
from .base import count_arrays

__all__ = [
    "DESIGN_ALPHA",
    "DesignCheck",
    "design_check",
    "design_check_categories",
]


#: Two-sided level below which :func:`design_check` calls the random design implausible.
DESIGN_ALPHA = 0.01


# ----------------------------------------------------------------------------- guard rail
@dataclass(frozen=True, slots=True)
class DesignCheck:
    """Judge-positive rate of the calibration set beside the test set's, with a z-test.

    Under ``design="random"`` the two estimate the same π = P(judge = 1). ``pvalue`` is the
    two-sided p-value of the pooled two-proportion z-test; ``plausible`` is False below
    :data:`DESIGN_ALPHA`. For k categories (:func:`design_check_categories`) the rates are the
    judge-label distributions and ``z`` holds the G statistic of their homogeneity test.

    Examples
    --------
    Made by :func:`design_check`:

    >>> import judgestats as js
    >>> check = js.designs.design_check(js.JudgedCounts(positive=600, n=1000),
    ...                                 js.ConfusionCounts(tp=150, fn=20, tn=10, fp=20))
    >>> round(check.calibration_rate, 3), round(check.test_rate, 3), round(check.pvalue, 4)
    (0.85, 0.6, 0.0)
    """

    calibration_rate: Any
    test_rate: Any
    z: Any
    pvalue: Any

    @property
    def plausible(self) -> Any:
        """False where the two-sided p-value is below :data:`DESIGN_ALPHA`."""
        out = ~(np.asarray(self.pvalue) < DESIGN_ALPHA)
        return bool(out) if out.ndim == 0 else out


def design_check(
    test: JudgedCounts, calibration: ConfusionCounts, *, sizes: dict | None = None
) -> DesignCheck:
    """Test whether the calibration set's judge-positive rate is that of a random sample.

    Pooled two-proportion z-test of (tp + fp)/m against positive/n.

    Parameters
    ----------
    test : JudgedCounts
        Judged test counts: their judge-positive rate positive/n is the reference.
    calibration : ConfusionCounts
        Human-vs-judge calibration counts: their judge-positive rate is (tp + fp)/m.
    sizes : dict, optional
        With repeated items: effective sizes (:attr:`judgestats.repeated.ClusterSummary.sizes`)
        of the two rates, ``"p"`` and ``"calibration_judge"``, in place of n and m in the
        standard error (the rates stay those of the rows).

    Returns
    -------
    DesignCheck
        Both rates, the z statistic and its two-sided p-value.

    Examples
    --------
    A "random" calibration set whose judge-positive rate (0.85) is far from the test set's (0.60):
    it was hardly drawn from the same items.

    >>> import judgestats as js
    >>> check = js.designs.design_check(js.JudgedCounts(positive=600, n=1000),
    ...                                 js.ConfusionCounts(tp=150, fn=20, tn=10, fp=20))
    >>> check.pvalue < 0.001
    True
    """
    from scipy.special import ndtr  # lazy: keeps `import judgestats` light

    x, n, tp, fp, fn, tn = count_arrays(test, calibration)
    k1, m = tp + fp, tp + fp + fn + tn
    a, b = k1 / m, x / n
    pooled = (k1 + x) / (m + n)
    if sizes is not None:
        m, n = sizes["calibration_judge"], sizes["p"]
    se = np.sqrt(pooled * (1.0 - pooled) * (1.0 / m + 1.0 / n))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, (a - b) / se, 0.0)
    pvalue = 2.0 * ndtr(-np.abs(z))
    out = [float(v) if np.ndim(v) == 0 else v for v in (a, b, z, pvalue)]
    return DesignCheck(*out)


def design_check_categories(test_counts: Any, calibration_counts: Any) -> DesignCheck:
    """Test whether calibration and test share the judge-label mix (k-category design check).

    A likelihood-ratio (G) test of homogeneity of the two judge-label distributions
    (:func:`judgestats.kernels.g_statistic`), χ² with (letters used − 1) degrees of freedom.

    Examples
    --------
    Three judge letters: their shares in a calibration set balanced by design against the test set:

    >>> import judgestats as js
    >>> check = js.designs.design_check_categories([430, 380, 190],
    ...                                            [[30, 5, 5], [5, 30, 5], [5, 5, 30]])
    >>> check.test_rate.round(2), round(check.pvalue, 4)
    (array([0.43, 0.38, 0.19]), 0.002)
    """
    from scipy.stats import chi2  # lazy

    t = np.asarray(test_counts, dtype=float)
    c = np.asarray(calibration_counts, dtype=float).sum(axis=1)
    table = np.stack([t, c])
    used = table.sum(axis=0) > 0
    g = g_statistic(table[:, used])
    df = max(int(used.sum()) - 1, 1)
    return DesignCheck(c / c.sum(), t / t.sum(), g, float(chi2.sf(g, df)))


def warn_if_implausible(check: DesignCheck, *, stacklevel: int = 3) -> None:
    """Warn :class:`DesignWarning` when the random design does not fit the judge-positive rates."""
    if not np.all(check.plausible):
        p = float(np.ravel(check.pvalue)[0])
        if np.size(check.calibration_rate) > 1 and np.ndim(check.pvalue) == 0:  # k categories
            what = "judge-label mix differs between calibration and test"
        else:
            cal, test = (float(np.ravel(v)[0]) for v in (check.calibration_rate, check.test_rate))
            what = f"judge-1 rate {cal:.3f} (calibration) vs {test:.3f} (test)"
        warnings.warn(
            f"design='random' not credible: {what}, p = {p:.1g}; help(js.DesignWarning)",
            DesignWarning,
            stacklevel=stacklevel,
        )
