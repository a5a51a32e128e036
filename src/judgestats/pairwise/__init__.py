"""Pairwise leaderboards: Bradley–Terry with ties, corrected for the judge's errors.

``js.pairwise(frame, ...)`` ranks models from pairwise judge verdicts with a human verdict on
a calibration subset: Davidson's (1970) model for the human verdicts, with intervals for
every strength, every win probability and every rank. By default the strengths solve a
prediction-powered estimating equation, valid whatever the judge does; a joint fit of the
strengths and the judge's confusion matrix is an option. The modules, bottom up:

* :mod:`~judgestats.pairwise.counting`: frames → counts per ordered pair of models;
* :mod:`~judgestats.pairwise.likelihood`: the model, its likelihood and its maximum;
* :mod:`~judgestats.pairwise.prediction_powered`: the prediction-powered (PPI++) fit;
* :mod:`~judgestats.pairwise.rows`, :mod:`~judgestats.pairwise.predictor`,
  :mod:`~judgestats.pairwise.row_powered`, :mod:`~judgestats.pairwise.row_fit`: the row path
  (a jury or judge probabilities through ``prediction=``, ``covariates=``, ``control=``);
* :mod:`~judgestats.pairwise.independence`: a test of the joint model's assumption;
* :mod:`~judgestats.pairwise.intervals`: Wald, delta-method and rank intervals;
* :mod:`~judgestats.pairwise.leaderboard`: :func:`pairwise` and its
  :class:`PairwiseLeaderboard`; :mod:`~judgestats.pairwise.tables` its table and text,
  :mod:`~judgestats.pairwise.figure` its figure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._lazy import face

if TYPE_CHECKING:  # loaded on first use (``import judgestats`` imports this face only)
    from .counting import HUMAN_VERDICTS, JUDGE_VERDICTS, PairCounts, count_pairs, verdict_code
    from .independence import IndependenceTest, independence_test
    from .leaderboard import (
        DEPENDENCE_LEVEL,
        INTERVALS,
        DavidsonFit,
        PairwiseLeaderboard,
        pairwise,
    )
    from .likelihood import ELO_PER_LOGIT, davidson_probabilities
    from .prediction_powered import PREDICTIONS

__all__ = [
    "DEPENDENCE_LEVEL",
    "ELO_PER_LOGIT",
    "HUMAN_VERDICTS",
    "INTERVALS",
    "JUDGE_VERDICTS",
    "PREDICTIONS",
    "DavidsonFit",
    "IndependenceTest",
    "PairCounts",
    "PairwiseLeaderboard",
    "count_pairs",
    "davidson_probabilities",
    "independence_test",
    "pairwise",
    "verdict_code",
]

_NAMES = {
    "pairwise.counting": (
        "HUMAN_VERDICTS", "JUDGE_VERDICTS", "PairCounts", "count_pairs", "verdict_code"),
    "pairwise.independence": ("IndependenceTest", "independence_test"),
    "pairwise.leaderboard": ("DEPENDENCE_LEVEL", "INTERVALS", "DavidsonFit", "PairwiseLeaderboard",
                             "pairwise"),
    "pairwise.likelihood": ("ELO_PER_LOGIT", "davidson_probabilities"),
    "pairwise.prediction_powered": ("PREDICTIONS",),
}  # fmt: skip

_MODULES = (
    "pairwise.counting", "pairwise.figure", "pairwise.independence", "pairwise.intervals",
    "pairwise.leaderboard", "pairwise.likelihood", "pairwise.prediction_powered",
    "pairwise.tables", "pairwise.capability_rows", "pairwise.rows", "pairwise.predictor",
    "pairwise.row_powered", "pairwise.row_fit",
)  # fmt: skip

_face_getattr, __dir__ = face(__name__, names=_NAMES, modules=_MODULES, shown=__all__)


def __getattr__(name: str) -> Any:
    if name in ("DESIGNS", "METHODS"):  # the capability table's pairwise rows now (deprecated)
        from .capability_rows import deprecated

        return deprecated(__name__, name)
    return _face_getattr(name)
