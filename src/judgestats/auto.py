"""``method="auto"``: the paper's adjusted-Wald interval, widened where it may miss.

The default of :func:`judgestats.correct`, :func:`judgestats.evaluate`, the CLI and the
reports under the paper's design (issue 38 §3); ``method="adjusted-wald"`` is the paper's
interval (eq. (8)) exactly, by name. ``res.method`` always names the method that answered,
``res.chosen_by`` why, and where auto answered with a wider interval ``res.paper_ci`` is the
paper's interval beside it (``chosen_by`` then begins "widened: "). Under the paper's design
(``"by-human-label"``) and one row per item, auto answers with
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
accurate judges.) With repeated items (``cluster=``) the same rule runs at the effective sizes
(rows over the design effect, :class:`judgestats.repeated.ClusterSummary`): the class sizes
are effective items, adjusted-Wald is the cluster-robust one, and profile-map is computed on
the effective counts (:meth:`~judgestats.repeated.ClusterSummary.effective_counts`; the
likelihood methods model independent rows); where it widens, no ``WeakCalibrationWarning``
either. Under the random and by-judge-label designs it answers with ``"adjusted-wald"`` (the
only interval method there that is measured to cover; ``"profile-map"`` exists only for the
paper's design). Chosen on ``benchmarks/results/warning_rules.md`` (250 random cells, 1,000
data sets each); measured as the default on a grid committed before the run
(``benchmarks/results/auto_default.md``, 160 cells of independent rows and 40 of repeated
items): see ``docs/guide/intervals.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import MethodError, NotInformativeError, check_informative
from .counts import ConfusionCounts, JudgedCounts
from .designs import DEFAULT_DESIGN
from .designs.capabilities import capability
from .intervals import (
    HULL,
    MIN_PER_CLASS,
    Bounds,
    check_bounds_defined,
    effective_profile_map,
    implementation,
    rate_spec,
    spec_bounds,
)
from .repeated import is_clustered
from .spec import AUTO, EstimationSpec

__all__ = ["AUTO", "BEYOND", "WIDENED", "beyond", "check_answerable", "choose", "choose_method",
           "refuse_as_paper", "still_answer", "widened_note", "widens"]

#: How ``chosen_by`` begins where auto answered with a wider interval than the paper's (the
#: result then carries the paper's interval beside, ``Correction.paper_ci``).
WIDENED = "widened: "

#: How far (share of the adjusted-Wald width) profile-map may reach outside adjusted-Wald
#: before auto answers with both (chosen among 0.05, 0.1 and 0.2 for profile-map alone on one
#: random grid; the answer with both checked on two: benchmarks/results/warning_rules.md).
BEYOND = 0.1


def widened_note(chosen_by: str, paper: str) -> str:
    """Say that auto widened the paper's interval, why, and what the paper's interval is.

    The one wording of the report's note and the command's (``judgestats correct``).

    Parameters
    ----------
    chosen_by : str
        The result's ``chosen_by`` (it begins with :data:`WIDENED`).
    paper : str
        The paper's adjusted-Wald interval as the caller writes it (``"0.12–0.89"``).

    Returns
    -------
    str
        ``"interval widened by method='auto' (why); the paper's adjusted-Wald interval is
        0.12–0.89"``.
    """
    return (f"interval widened by method='auto' ({chosen_by.removeprefix(WIDENED)}); the "
            f"paper's adjusted-Wald interval is {paper}")


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
            if method == "profile-map" and spec.repeated:  # at the effective counts
                known[method] = effective_profile_map(spec, known["adjusted-wald"].clusters)
            else:
                known[method] = spec_bounds(spec.with_method(method), test, calibration)
        return known[method]

    def answer(method: str, why: str) -> tuple[EstimationSpec, str]:
        return spec.with_method(method), why

    if HULL not in spec.methods:
        return answer("adjusted-wald", f"design={str(spec.design)!r}: adjusted-Wald is the "
                      "interval measured there")  # fmt: skip
    aw = bounds("adjusted-wald")
    refuse_as_paper(spec, calibration, aw)
    clusters = aw.clusters  # repeated items: the class sizes are effective items
    sizes = (calibration.m0, calibration.m1) if clusters is None else clusters.class_sizes
    m_min = min(sizes)
    pm = bounds("profile-map")  # the hull is built from the two (known_bounds)
    if m_min < MIN_PER_CLASS:
        cls = int(sizes[1] == m_min)
        what = (f"calibration items of human class {cls} ({m_min})" if clusters is None else
                f"effective items of human class {cls} ({m_min:.1f}; "
                f"{calibration.m1 if cls else calibration.m0} rows)")  # fmt: skip
        return answer(HULL, (
            f"{WIDENED}fewer than {MIN_PER_CLASS} {what}, where adjusted-Wald's coverage "
            "depends on the judge's true error rates"
        ))  # fmt: skip
    reach = float(beyond(aw, pm))
    if reach > BEYOND:
        return answer(HULL, (
            f"{WIDENED}the profile-map interval reaches {reach:.2f} of the adjusted-Wald width "
            f"outside it (> {BEYOND:g}): a weak or lopsided judge, where adjusted-Wald can miss"
        ))  # fmt: skip
    unit = "calibration items" if clusters is None else "effective items"
    smaller = f"{m_min}" if clusters is None else f"{m_min:.1f}"
    return answer("adjusted-wald", (
        f"at least {MIN_PER_CLASS} {unit} per human class ({smaller} in the smaller) "
        f"and the profile-map interval within {BEYOND:g} of the adjusted-Wald width of it"
    ))  # fmt: skip


def beyond(aw: Any, pm: Any) -> Any:
    """How far profile-map's interval reaches outside adjusted-Wald's, in adjusted-Wald widths.

    ``aw``, ``pm``: bounds of the same data sets (one or a batch).
    """
    a_lo, a_hi, p_lo, p_hi = (np.asarray(v, dtype=float) for v in (aw.low, aw.high, pm.low,
                                                                  pm.high))  # fmt: skip
    return np.maximum(a_lo - p_lo, p_hi - a_hi) / np.maximum(a_hi - a_lo, 1e-12)


def widens(calibration: Any, aw: Any, pm: Any) -> np.ndarray:
    """Where auto answers with the hull (:data:`HULL`) instead of adjusted-Wald (a batch).

    The rule of :func:`choose` on (possibly batched) counts of independent rows under the
    paper's design, for simulations (``benchmarks/bench_auto_default.py``); the refusals of
    :func:`refuse_as_paper` are not applied here.
    """
    m_min = np.minimum(calibration.m0, calibration.m1)
    return (m_min < MIN_PER_CLASS) | (beyond(aw, pm) > BEYOND)


def refuse_as_paper(spec: EstimationSpec, calibration: Any, aw: Any) -> None:
    """Raise :class:`NotInformativeError` where the paper's adjusted-Wald interval refuses.

    ``aw``: the data set's adjusted-Wald bounds. Auto keeps every refusal of the paper's
    interval: q̂0 + q̂1 <= 1, and an undefined interval (the adjusted q̃0 + q̃1 <= 1); it never
    answers there with profile-map's interval alone (which, near chance, is [0, 1] or close).
    """
    try:
        check_answerable(spec.with_method("adjusted-wald"), calibration, aw)
    except NotInformativeError as exc:
        advice = still_answer(spec)
        still = "" if advice in str(exc) else f"; {advice}"
        raise NotInformativeError(
            f"method='auto' refuses where the paper's adjusted-Wald interval does: {exc}{still}"
        ) from None


def still_answer(spec: EstimationSpec) -> str:
    """Say which interval methods still answer where the Rogan–Gladen ones refuse a chance judge.

    Those of the capability table's row for the spec's path (its design, repeated items or
    not) that need no judge better than chance (``requires_informative`` false), ``auto``
    aside (and the hull with profile-map where profile-map itself is named: at chance it is
    profile-map's interval). Under repeated items the likelihood methods are not on the path
    and are not named.
    """
    row = capability(spec.judge, spec.target, spec.design, spec.repeated)
    names = [m for m in row.methods if m != AUTO and _answers_at_chance(spec, m)]
    if "profile-map" in names and HULL in names:  # the hull is profile-map's interval there
        names.remove(HULL)
    if not names:
        return ("no interval method of this path answers a judge no better than chance; check "
                "the judge, or label more calibration items")  # fmt: skip
    quoted = [repr(m) for m in names]
    listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    verb = "answers" if len(names) == 1 else "answer"
    return f"method={listed} still {verb} (with a wide interval)"


def _answers_at_chance(spec: EstimationSpec, method: str) -> bool:
    """Whether a method answers a judge no better than chance on the spec's design."""
    try:
        return not implementation(spec.design, method).requires_informative
    except MethodError:  # no implementation for the design's estimator family
        return False


def check_answerable(spec: EstimationSpec, calibration: Any, bounds: Bounds | None = None) -> None:
    """Raise :class:`NotInformativeError` where the spec's method refuses one data set.

    A method that rests on the Rogan–Gladen ratio refuses q̂0 + q̂1 <= 1 (the judge no better
    than chance on the calibration set); any method refuses where its ``bounds`` (given) are
    undefined, e.g. adjusted-Wald where the adjusted q̃0 + q̃1 <= 1.
    """
    if implementation(spec.design, spec.method).requires_informative:
        try:
            check_informative(calibration.specificity, calibration.sensitivity, what="q̂0 + q̂1")
        except NotInformativeError as exc:
            raise NotInformativeError(f"{exc}; {still_answer(spec)}") from None
    if bounds is not None:
        check_bounds_defined(bounds, spec.method)
