"""``"profile-map"``: the posterior mode of θ with the small-calibration profile interval.

The method for weak judges and small calibration sets (see the README's "Which interval method
when" for its measured coverage). It combines two summaries of the same joint likelihood of
the paper's model (positive ~ Bin(n, θq1 + (1 − θ)(1 − q0)), tn ~ Bin(m0, q0),
tp ~ Bin(m1, q1)):

* **point**: the mode of θ's *marginal* posterior under flat Beta(1, 1) priors, q0 and q1
  integrated out (:func:`judgestats.posterior.theta_posterior`, exact quadrature). Integrating
  instead of maximising over the judge's rates keeps the estimate away from the ratio's
  blow-ups when q̂0 + q̂1 is close to 1;
* **interval**: the profile-likelihood interval with the cut-off t²_ν, ν = min(m0, m1) − 1
  (``"profile-likelihood-t"``; a zero count is replaced by ½ for it,
  :func:`judgestats.likelihood.profile_likelihood_bounds`). When the mode lies outside that
  interval (it can: the two summarise the likelihood differently), the interval is widened to
  reach it, so the reported interval always contains the estimate; coverage can only rise.

It never fails on valid counts, including q̂0 + q̂1 <= 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .counts import ConfusionCounts, JudgedCounts
from .likelihood import profile_likelihood_bounds
from .posterior import theta_posterior

__all__ = ["profile_map_bounds"]


def profile_map_bounds(
    test: JudgedCounts, calibration: ConfusionCounts, confidence_level: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low, high, mode) arrays for batched counts; see the module docstring."""
    low, high, _ = profile_likelihood_bounds(
        test, calibration, confidence_level, small_sample=True
    )
    mode = np.asarray(theta_posterior(test, calibration).mode(), dtype=float).reshape(low.shape)
    return np.minimum(low, mode), np.maximum(high, mode), mode
