"""``method="auto"``: the paper's adjusted-Wald interval, widened where it may miss.

An opt-in choice for :func:`judgestats.correct`; the default stays the paper's adjusted-Wald
interval (eq. (8)), and ``res.method`` always names the method that answered. Under the paper's
design (``"by-human-label"``) and one row per item, auto answers with
``"adjusted-wald+profile-map"`` (:data:`judgestats.intervals.HULL`: the smallest interval that
holds both the adjusted-Wald and the ``"profile-map"`` interval) when

* a human class has fewer than :data:`judgestats.intervals.MIN_PER_CLASS` calibration items
  (where :func:`judgestats.correct` warns ``WeakCalibrationWarning`` for adjusted-Wald), or
* the profile-map interval reaches outside the adjusted-Wald one by more than :data:`BEYOND`
  = 0.1 of the adjusted-Wald width (typically a weak or lopsided judge, where the
  adjusted-Wald interval is centred too close to the Rogan–Gladen θ̂),

and with the adjusted-Wald interval otherwise. It refuses what adjusted-Wald refuses
(:class:`~judgestats.errors.NotInformativeError` where q̂0 + q̂1 <= 1 or the adjusted
q̃0 + q̃1 <= 1): it never answers with profile-map's interval alone. Where it answers with
both, it misses θ only where both miss: neither profile-map alone (0.891 in its worst cell of
a second random grid, θ near 0.1 or 0.9 with a class under 100 items, where adjusted-Wald
covered 0.96–0.997) nor adjusted-Wald alone (0.79) covers everywhere. (A tolerance of 0 would
answer with both almost everywhere: the two intervals differ by a hair on one side even for
accurate judges.) Under
the random and by-judge-label designs and with repeated items it answers with
``"adjusted-wald"`` (the only interval method there that is measured to cover;
``"profile-map"`` exists only for the paper's design and independent rows). Measured in
``benchmarks/results/warning_rules.md`` (250 random cells, 1,000 data sets each): see the
README, "Which interval method when".
"""

from __future__ import annotations

from typing import Any

from ._validation import NotInformativeError
from .counts import ConfusionCounts, JudgedCounts
from .designs import DEFAULT_DESIGN
from .intervals import (
    HULL,
    MIN_PER_CLASS,
    STILL_ANSWER,
    check_answerable,
    rate_spec,
    spec_bounds,
)
from .repeated import is_clustered
from .spec import AUTO, EstimationSpec

__all__ = ["AUTO", "BEYOND", "choose", "choose_method", "refuse_as_paper"]

#: How far (share of the adjusted-Wald width) profile-map may reach outside adjusted-Wald
#: before auto answers with both (chosen among 0.05, 0.1 and 0.2 for profile-map alone on one
#: random grid; the answer with both checked on two: benchmarks/results/warning_rules.md).
BEYOND = 0.1


def choose_method(
    test: JudgedCounts,
    calibration: ConfusionCounts,
    *,
    confidence_level: float,
    design: Any = DEFAULT_DESIGN,
) -> tuple[str, str]:
    """Return the method ``method="auto"`` answers with, and why.

    Parameters
    ----------
    test, calibration : JudgedCounts, ConfusionCounts
        One data set.
    confidence_level : float
        The level of both intervals compared.
    design : str or Design, default "by-human-label"
        The calibration design.

    Returns
    -------
    (str, str)
        The registered method and a sentence saying why it was chosen.
    """
    spec = rate_spec(method=AUTO, confidence_level=confidence_level, design=design,
                     repeated=is_clustered(test, calibration))  # fmt: skip
    chosen, why = choose(spec, test, calibration, known={})
    return chosen.method, why


def choose(
    spec: EstimationSpec, test: Any, calibration: Any, *, known: dict
) -> tuple[EstimationSpec, str]:
    """Resolve a spec whose method is ``"auto"`` for one data set: the spec answering, and why.

    ``known``: method name → bounds of this data set at this level (see
    :func:`judgestats.intervals.known_bounds`); the ones the choice computes are added to it,
    so the caller answers with them and a method is computed once. Where the path has no
    :data:`~judgestats.intervals.HULL` (another design, repeated items: the capability table),
    auto answers with adjusted-Wald, the interval measured there.
    """

    def bounds(method: str) -> Any:
        if method not in known:
            known[method] = spec_bounds(spec.with_method(method), test, calibration)
        return known[method]

    def answer(method: str, why: str) -> tuple[EstimationSpec, str]:
        return spec.with_method(method), why

    if HULL not in spec.methods:
        what = "repeated items" if spec.design.is_default else f"design={str(spec.design)!r}"
        return answer("adjusted-wald", f"{what}: adjusted-Wald is the interval measured there")
    aw = bounds("adjusted-wald")
    refuse_as_paper(spec, calibration, aw)
    m_min = min(calibration.m0, calibration.m1)
    pm = bounds("profile-map")  # the hull is built from the two (known_bounds)
    if m_min < MIN_PER_CLASS:
        return answer(HULL, (
            f"a human class has {m_min} calibration items (< {MIN_PER_CLASS}), where "
            "adjusted-Wald's coverage depends on the judge's true error rates"
        ))  # fmt: skip
    low, high = float(aw.low), float(aw.high)
    reach = max(low - float(pm.low), float(pm.high) - high) / max(high - low, 1e-12)
    if reach > BEYOND:
        return answer(HULL, (
            f"the profile-map interval reaches {reach:.2f} of the adjusted-Wald width outside "
            f"it (> {BEYOND:g}): a weak or lopsided judge, where adjusted-Wald can miss"
        ))  # fmt: skip
    return answer("adjusted-wald", (
        f"at least {MIN_PER_CLASS} calibration items per human class ({m_min} in the smaller) "
        f"and the profile-map interval within {BEYOND:g} of the adjusted-Wald width of it"
    ))  # fmt: skip


def refuse_as_paper(spec: EstimationSpec, calibration: Any, aw: Any) -> None:
    """Raise :class:`NotInformativeError` where the paper's adjusted-Wald interval refuses.

    ``aw``: the data set's adjusted-Wald bounds. Auto keeps every refusal of the paper's
    interval: q̂0 + q̂1 <= 1, and an undefined interval (the adjusted q̃0 + q̃1 <= 1); it never
    answers there with profile-map's interval alone (which, near chance, is [0, 1] or close).
    """
    try:
        check_answerable(spec.with_method("adjusted-wald"), calibration, aw)
    except NotInformativeError as exc:
        still = "" if STILL_ANSWER in str(exc) else f"; {STILL_ANSWER}"
        raise NotInformativeError(
            f"method='auto' refuses where the paper's adjusted-Wald interval does: {exc}{still}"
        ) from None
