"""What a prediction-powered result counts: the rows, the labels, and what the judge buys.

:class:`PredictionPoweredCounts` is the one home of the properties that
:class:`~judgestats.scores.ScoreCorrection` (a judge score) and
:class:`~judgestats.jury.CombinedJuryCorrection` (a jury's stack or mean) both derive from
their stored counts and variance: the unlabelled rows ``n`` and the labelled rows of human
label 0 ``m0`` (the names a :class:`~judgestats.Correction` gives its test and calibration
rows), ``effective_labels`` and ``width_ratio``.
"""

from __future__ import annotations

import numpy as np

from ..results import effective_labels

__all__ = ["PredictionPoweredCounts"]


class PredictionPoweredCounts:
    """The counts a prediction-powered result derives from its stored fields (a mixin).

    The result holds ``n_labelled``, ``n_unlabelled``, ``m1``, ``estimate``, ``variance`` and
    ``humans_only_variance``; the mixin adds no storage (empty ``__slots__``).
    """

    __slots__ = ()

    n_labelled: int
    n_unlabelled: int
    m1: int
    estimate: float
    variance: float
    humans_only_variance: float | None

    @property
    def n(self) -> int:
        """Unlabelled rows (a ``Correction``'s test rows)."""
        return self.n_unlabelled

    @property
    def m0(self) -> int:
        """Labelled rows with human label 0."""
        return self.n_labelled - self.m1

    @property
    def effective_labels(self) -> float | None:
        """θ̂(1 − θ̂)/Var(θ̂): the human labels alone that would give the same precision.

        ``variance`` is the one the interval rests on (PPI++'s, summed over items with
        ``cluster=``, so the figure counts independent items); under a fallback the variance
        its interval's width implies.
        """
        return effective_labels(self.estimate, self.variance)

    @property
    def width_ratio(self) -> float | None:
        """√(Var(θ̂)/Var(ȳ)): the interval's width over the human labels alone's (Wald)."""
        h = self.humans_only_variance
        return None if not h else float(np.sqrt(self.variance / h))
