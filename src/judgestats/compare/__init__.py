"""Comparing and ranking judged models: θ_A − θ_B with an interval, and leaderboards.

"Reported improvements may reflect bias from judgment errors rather than genuine model gains"
(paper, introduction). A comparison of two judged models has to carry the uncertainty of both
corrections; a leaderboard has to say how sure each position is.

* :func:`difference` — θ_A − θ_B with an interval and a two-sided p-value (or, for
  ``method="bayes"``, the posterior probability P(θ_A > θ_B)), for three designs:

  - **independent calibrations** (one calibration set per model, the paper's per-target
    design): the two corrections' uncertainties add;
  - **one shared calibration set** (one judge whose error rates do not depend on the model):
    θ_A − θ_B = (p_A − p_B)/(q0 + q1 − 1), so the judge rescales the difference but cannot flip
    its sign; the shared q̂'s enter both estimates (delta method with their covariance);
  - **paired test items** (both models answered the same prompts and the caller passes the
    per-item judge labels): the covariance of the paired judge labels enters the test term.

* :func:`rank` — rank probabilities, pairwise P(θ_i > θ_j) and the expected Kendall τ of the
  point ranking, from a joint parametric bootstrap or the joint posterior of the
  misclassification model.

The package: :mod:`.differences` (θ_A − θ_B, its interval methods and :class:`Comparison`),
:mod:`.rankings` (rank probabilities and :class:`Ranking`), and the pieces both use,
:mod:`.arms` (one model's counts, the delta method and the joint bootstrap) and :mod:`.draws`
(posterior draws of the misclassification model).
"""

from __future__ import annotations

from .arms import _arrays as _arrays
from .arms import (
    weighted_quantile,
)
from .differences import (
    DIFFERENCE_METHODS,
    Comparison,
    difference,
    difference_bounds_batch,
)
from .draws import _effective_draws as _effective_draws
from .draws import _posterior_draws as _posterior_draws
from .rankings import (
    RANK_METHODS,
    Ranking,
    kendall_tau,
    plot_ranking,
    rank,
)

__all__ = [
    "DIFFERENCE_METHODS",
    "RANK_METHODS",
    "Comparison",
    "Ranking",
    "difference",
    "difference_bounds_batch",
    "kendall_tau",
    "plot_ranking",
    "rank",
    "weighted_quantile",
]
