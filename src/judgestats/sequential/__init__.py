"""Human labels as a process: an anytime-valid interval while labelling in rounds.

:class:`Monitor` keeps a confidence sequence for a pool's human rate (binary judges, judge
alphabets, judge scores, juries, covariates, strata, groups, repeated rows) and proposes the
next items to label; :func:`judgestats.plan.next_batch` proposes them from a frame alone.
"""

from __future__ import annotations

from .betting import BettingSequence
from .monitor import DESIGNS, ESTIMANDS, METHOD, STRATEGIES, Monitor
from .replays import ReplayResult, replay_labelling
from .selection import next_batch, replay

__all__ = [
    "DESIGNS",
    "ESTIMANDS",
    "METHOD",
    "STRATEGIES",
    "BettingSequence",
    "Monitor",
    "ReplayResult",
    "next_batch",
    "replay",
    "replay_labelling",
]
