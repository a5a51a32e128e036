"""Pairwise leaderboards: Bradley–Terry with ties, corrected for the judge's errors.

``js.pairwise(frame, ...)`` ranks models from pairwise judge verdicts with a human verdict on
a calibration subset: Davidson's (1970) model for the human verdicts, a confusion matrix for
the judge, fitted jointly by maximum likelihood, with intervals for every strength, every win
probability and every rank. The modules, bottom up:

* :mod:`~judgestats.pairwise.counting`: frames → counts per ordered pair of models;
* :mod:`~judgestats.pairwise.likelihood`: the model, its likelihood and its maximum;
* :mod:`~judgestats.pairwise.intervals`: Wald, delta-method and rank intervals;
* :mod:`~judgestats.pairwise.leaderboard`: :func:`pairwise` and its
  :class:`PairwiseLeaderboard`; :mod:`~judgestats.pairwise.tables` its table and text.
"""

from __future__ import annotations

from .counting import HUMAN_VERDICTS, JUDGE_VERDICTS, PairCounts, count_pairs, verdict_code
from .leaderboard import DESIGNS, INTERVALS, DavidsonFit, PairwiseLeaderboard, pairwise
from .likelihood import ELO_PER_LOGIT, davidson_probabilities

__all__ = [
    "DESIGNS",
    "ELO_PER_LOGIT",
    "HUMAN_VERDICTS",
    "INTERVALS",
    "JUDGE_VERDICTS",
    "DavidsonFit",
    "PairCounts",
    "PairwiseLeaderboard",
    "count_pairs",
    "davidson_probabilities",
    "pairwise",
    "verdict_code",
]
