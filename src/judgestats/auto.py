"""``method="auto"``: the paper's adjusted-Wald interval, or ``"profile-map"`` where it is safer.

An opt-in choice for :func:`judgestats.correct`; the default stays the paper's adjusted-Wald
interval (eq. ci), and ``res.method`` always names the method that answered. Under the paper's
design (``"by-human-label"``) and one row per item, auto answers with ``"profile-map"`` when

* a human class has fewer than :data:`judgestats.intervals.MIN_PER_CLASS` calibration items
  (where :func:`judgestats.correct` warns ``WeakCalibrationWarning`` for adjusted-Wald), or
* the profile-map interval reaches outside the adjusted-Wald one by more than
  :data:`BEYOND` of the adjusted-Wald width (a lopsided or near-chance judge, where the
  adjusted-Wald interval is centred too close to the Rogan–Gladen θ̂), or
* adjusted-Wald is undefined (q̃0 + q̃1 <= 1),

and with the adjusted-Wald interval otherwise. Under the random and by-judge-label designs and
with repeated items it answers with ``"adjusted-wald"`` (the only interval method there that
is measured to cover; ``"profile-map"`` exists only for the paper's design and independent
rows). Measured in ``benchmarks/results/warning_rules.md`` (250 random cells, 1,000 data sets
each): see the README, "Which interval method when".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .counts import ConfusionCounts, JudgedCounts
from .designs import DEFAULT_DESIGN
from .intervals import MIN_PER_CLASS, compute_bounds
from .repeated import is_clustered

__all__ = ["AUTO", "BEYOND", "choose_method", "resolve"]

#: The method name that asks for the choice.
AUTO = "auto"
#: How far (share of the adjusted-Wald width) profile-map may reach outside adjusted-Wald.
BEYOND = 0.2


def choose_method(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    *,
    confidence_level: float,
    design: str = DEFAULT_DESIGN,
) -> tuple[str, str]:
    """Return the method ``method="auto"`` answers with, and why.

    Parameters
    ----------
    test, calibration : JudgedCounts, ConfusionCounts
        One data set.
    confidence_level : float
        The level of both intervals compared.
    design : str, default "by-human-label"
        The calibration design.

    Returns
    -------
    (str, str)
        The registered method and a sentence saying why it was chosen.
    """
    if design != DEFAULT_DESIGN or is_clustered(test, calibration):
        what = "repeated items" if design == DEFAULT_DESIGN else f"design={design!r}"
        return "adjusted-wald", f"{what}: adjusted-Wald is the interval measured there"
    m_min = min(calibration.m0, calibration.m1)
    if m_min < MIN_PER_CLASS:
        return "profile-map", (
            f"a human class has {m_min} calibration items (< {MIN_PER_CLASS}), where "
            "adjusted-Wald's coverage depends on the judge's true error rates"
        )
    aw = compute_bounds(test, calibration, method="adjusted-wald",
                        confidence_level=confidence_level)  # fmt: skip
    low, high = float(aw.low), float(aw.high)
    if not np.isfinite(low):
        return "profile-map", "adjusted-Wald is undefined (q̃0 + q̃1 <= 1)"
    pm = compute_bounds(test, calibration, method="profile-map",
                        confidence_level=confidence_level)  # fmt: skip
    reach = max(low - float(pm.low), float(pm.high) - high) / max(high - low, 1e-12)
    if reach > BEYOND:
        return "profile-map", (
            f"the profile-map interval reaches {reach:.2f} of the adjusted-Wald width outside "
            f"it (> {BEYOND}): a weak or lopsided judge, where adjusted-Wald can miss"
        )
    return "adjusted-wald", (
        f"at least {MIN_PER_CLASS} calibration items per human class ({m_min} in the smaller) "
        f"and profile-map within {BEYOND} of the adjusted-Wald width"
    )


def resolve(method: str, test: Any, calibration: Any, **kwargs: Any) -> tuple[str, str | None]:
    """Return ``(method, None)``, or for :data:`AUTO` the chosen method and why."""
    if method != AUTO:
        return method, None
    return choose_method(test, calibration, **kwargs)
