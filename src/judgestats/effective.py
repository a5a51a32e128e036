"""What a judge buys: the variance a rate's interval rests on, and the labels it is worth.

``effective_labels`` = θ̂(1 − θ̂)/Var(θ̂) (issue 39) is the number of human labels alone (a
simple random sample, each label a Bernoulli draw) that would estimate θ as precisely as the
result does. :func:`interval_variance` says which Var(θ̂): the delta-method variance an
``"adjusted-wald"`` or ``"wald"`` interval is built on, else the variance the interval's
width implies. Loaded on first use (by the results' ``effective_labels`` properties), so
``import judgestats`` does not load it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .designs import DEFAULT_DESIGN, JudgeConditionalDesign, RoganGladenDesign, as_design
from .kernels import delta_parts, delta_se, judge_conditional_parts, z_value
from .results import ConfidenceInterval, effective_labels, width_variance

__all__ = ["DELTA_VARIANCE", "WIDTH_VARIANCE", "interval_variance", "labels_worth"]

#: Where :func:`interval_variance` took Var(θ̂) from.
DELTA_VARIANCE, WIDTH_VARIANCE = "delta method", "width-implied"


def _paper_variance(design: Any, test: Any, calibration: Any, z: float, adjusted: bool) -> float:
    """Return eq. (8)'s variance at p̃, q̃0, q̃1 (``adjusted``), else eq. (15)'s at p̂, q̂0, q̂1."""
    c = calibration
    rates = (test.p_hat, c.specificity, c.sensitivity, test.n, c.m0, c.m1)
    return float(delta_se(delta_parts(*rates, z, adjusted=adjusted)) ** 2)


def _conditional_variance(design: Any, test: Any, calibration: Any, z: float,
                          adjusted: bool) -> float:  # fmt: skip
    """Return the three binomials' delta-method variance (pseudo-counts if ``adjusted``)."""
    x, n_pi, tp, k1, fn, k0 = design.binomials(test, calibration)
    parts = judge_conditional_parts(x, n_pi, tp, k1, fn, k0, z, adjusted=adjusted)
    return float(parts["var"])


#: The delta-method variance each estimator family's (adjusted-)Wald interval rests on.
_DELTA_VARIANCES = {
    RoganGladenDesign.family: _paper_variance,
    JudgeConditionalDesign.family: _conditional_variance,
}


def interval_variance(
    test: Any, calibration: Any, ci: ConfidenceInterval, *,
    design: Any = DEFAULT_DESIGN, clusters: Any = None,
) -> tuple[float, str]:  # fmt: skip
    """Var(θ̂) that one data set's interval rests on, and where it was taken from.

    For ``"adjusted-wald"`` and ``"wald"`` of independent rows, the delta-method variance the
    interval is built on: under the paper's design eq. (8)'s at the adjusted p̃, q̃0, q̃1
    (eq. (15)'s at p̂, q̂0, q̂1 for ``"wald"``); under the judge-conditional designs the three
    binomials' (with Agresti–Caffo pseudo-counts for ``"adjusted-wald"``). Every other
    interval (profile likelihood, posterior, bootstrap, ``method="auto"``'s widened hull) and
    every interval of repeated items (its cluster-robust variance: the figure then counts
    independent items, not rows) gives the variance its width implies,
    ((upper − lower)/(2z))² (:func:`judgestats.results.width_variance`).

    Parameters
    ----------
    test, calibration : JudgedCounts, ConfusionCounts
        One data set's counts.
    ci : ConfidenceInterval
        Its interval (its method and level say which variance).
    design : str or Design, default "by-human-label"
        The calibration design.
    clusters : ClusterSummary, optional
        Repeated items: the width-implied variance of the cluster-robust interval.

    Returns
    -------
    (variance, source) : tuple of float and str
        ``source`` is ``"delta method"`` or ``"width-implied"``.

    Examples
    --------
    >>> import judgestats as js
    >>> from judgestats.effective import interval_variance
    >>> res = js.correct(js.JudgedCounts(positive=600, n=1000),
    ...                  js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
    ...                  method="adjusted-wald", confidence_level=0.95)
    >>> var, source = interval_variance(res.test, res.calibration, res.ci)
    >>> round(var, 6), source
    (0.001742, 'delta method')
    """
    design = as_design(design)
    if clusters is None and ci.method in ("adjusted-wald", "wald"):
        z = float(z_value(ci.confidence_level))
        var = _DELTA_VARIANCES[design.family](design, test, calibration, z,
                                              ci.method == "adjusted-wald")  # fmt: skip
        if np.isfinite(var) and var > 0.0:
            return var, DELTA_VARIANCE
    return width_variance(ci), WIDTH_VARIANCE


def labels_worth(result: Any) -> float | None:
    """``effective_labels`` of a binary rate result (a ``Correction``): θ̂(1 − θ̂)/Var(θ̂).

    Var(θ̂) from :func:`interval_variance` (the result's interval, method, design and
    repeated items); None where θ̂ is 0 or 1 or the variance is 0.
    """
    var, _ = interval_variance(result.test, result.calibration, result.ci,
                               design=result.design, clusters=result.clusters)  # fmt: skip
    return effective_labels(result.estimate, var)
