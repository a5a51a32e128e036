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

* :func:`difference_of` and :func:`paired_score_difference` — θ_A − θ_B of results from
  judge scores, juries or letters (:mod:`.sources`): independent arms by their variances,
  paired score arms by their joint influence terms (:mod:`.paired`, with
  :func:`paired_jury_difference` for one jury on both systems' answers); :func:`rank_of`
  ranks such results.

* :func:`rank` — rank probabilities, pairwise P(θ_i > θ_j) and the expected Kendall τ of the
  point ranking, from a joint parametric bootstrap or the joint posterior of the
  misclassification model.

Which interval methods each design allows, for differences and rankings, with and without
repeated items, is the capability table's (:mod:`judgestats.designs.capabilities`); each entry
point resolves its arguments once into an :class:`~judgestats.spec.EstimationSpec`.

The package: :mod:`.differences` (θ_A − θ_B, MOVER and :class:`Comparison`), :mod:`.joint` (the
joint methods of θ_A − θ_B, one data set or a batch), :mod:`.rankings` (rank probabilities and
:class:`Ranking`), and the pieces they use, :mod:`.arms` (one model's counts, the delta method
and the joint bootstrap), :mod:`.clustered` (repeated items of both models) and :mod:`.draws`
(posterior draws of the misclassification model).
"""

from __future__ import annotations

from typing import Any

from .._validation import warn_deprecated
from ..designs import DEFAULT_DESIGN
from ..designs.capabilities import methods_for
from .arms import _arrays as _arrays
from .arms import (
    weighted_quantile,
)
from .differences import (
    Comparison,
    difference,
    difference_bounds_batch,
)
from .draws import _effective_draws as _effective_draws
from .draws import _posterior_draws as _posterior_draws
from .joint import JOINT_METHODS
from .paired import paired_jury_difference, paired_score_difference
from .rankings import (
    Ranking,
    kendall_tau,
    plot_ranking,
    rank,
)
from .sources import (
    ResultDifference,
    difference_of,
    rank_of,
    shared_jury_difference,
)

__all__ = [
    "Comparison",
    "Ranking",
    "ResultDifference",
    "difference",
    "difference_bounds_batch",
    "difference_of",
    "kendall_tau",
    "paired_jury_difference",
    "paired_score_difference",
    "plot_ranking",
    "rank",
    "rank_of",
    "shared_jury_difference",
    "weighted_quantile",
]


def __getattr__(name: str) -> Any:
    """Return a method list of old, read from the capability table (``DeprecationWarning``)."""
    if name == "DIFFERENCE_METHODS":  # the methods with a joint treatment
        warn_deprecated(f"judgestats.compare.{name}",
                        "judgestats.designs.capabilities.methods_for('letter', 'difference', "
                        "design)")  # fmt: skip
        return tuple(m for m in methods_for("letter", "difference", DEFAULT_DESIGN)
                     if m in JOINT_METHODS)  # fmt: skip
    if name == "RANK_METHODS":
        warn_deprecated(f"judgestats.compare.{name}",
                        "judgestats.designs.capabilities.methods_for('letter', 'ranking', design)")
        return methods_for("letter", "ranking", DEFAULT_DESIGN)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
