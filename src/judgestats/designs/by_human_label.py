"""The paper's design: calibration items chosen within the human-label classes.

The calibration set's human-label mix is fixed by the design (m0 and m1 chosen, e.g. by the
paper's Algorithm 1) or simply unknown, so only P(judge | human) transfers to the test set:
the estimator is Rogan–Gladen's (paper eq. (7)), which needs both human classes and a judge
better than chance (q̂0 + q̂1 > 1), and stays valid under label shift.
"""

from __future__ import annotations

from .base import RoganGladenDesign

__all__ = ["ByHumanLabel"]


class ByHumanLabel(RoganGladenDesign):
    """``design="by-human-label"``: the paper's, and the default where the design is unknown."""

    __slots__ = ()

    name = "by-human-label"
    estimator = "Rogan–Gladen"
    reference = "Lee et al. (2026), eq. (7); Rogan & Gladen (1978)"
    needs_both_classes = True
    robust_to_label_shift = True
    is_default = True

    # -- pairwise
    strengths_from_labels = False
