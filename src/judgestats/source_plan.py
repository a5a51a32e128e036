"""Human labels for a target width when the judge says more than a letter: a score or a jury.

:func:`judgestats.plan.calibration_size` plans a letter judge from (p, q0, q1). A numeric
judge score (:func:`judgestats.scores.correct_scores`, PPI++ under ``design="random"``) or a
jury (:func:`judgestats.jury.correct_jury`) is planned here, two ways:

**Declared quality of a score** (``r2=``, ``theta=``). With m labelled rows, N unlabelled
ones and a calibrated predictor f (E[y | f] = f, what the cross-fit estimates) whose R² with
the human label is R² = Var(f)/Var(y), the PPI++ variance at the best λ = N/(N + m) is

    Var(θ̂) = θ(1 − θ)/m · [1 − R² N/(N + m)]

(Var(y − λf)/m + λ² Var(f)/N with Cov(y, f) = Var(f), minimised over λ; Angelopoulos, Duchi
& Zrnic 2023, PPI++) for the oracle calibration. The cross-fitted isotonic calibration learns f
from (K − 1)/K of the m labels, and its error adds to the bracket about

    κ(R²) · (m (K − 1)/K)^(−2/3),   κ(R²) = 0.8 · min(1, 4R²)

(isotonic regression's rate; κ the envelope measured over θ = 0.3, scores N(d·y, 1) with
d = 0.7–4 (R² 0.10–0.93), m = 150 and 400, 150 data sets each: the excess was 0.38–0.97 times
(0.8m)^(−2/3), largest at R² ≈ 0.5; it vanishes at R² = 0, where power tuning sets λ̂ ≈ 0).
The plan is the smallest m with 2z·√Var(θ̂) <= width, found by bisection (the variance falls
as m grows). R² = 0 is the human labels alone: m = ⌈4z²θ(1 − θ)/width²⌉.

**A pilot result** (``pilot=``): a :class:`~judgestats.scores.ScoreCorrection` gives θ̂ and
its implied R² (the bracket above set equal to Var(θ̂)/Var(ȳ) at the pilot's m_p, N_p and
solved for R²), then plans as declared. Any other result (a jury, a score's fallback, a
letter correction) is planned by its effective labels (its own ``effective_labels``, or
θ̂(1 − θ̂) over the variance its interval's width implies): the variance of the labelled part
scales as 1/m, so m = m_p·Var_p/Var_target, i.e. θ̂(1 − θ̂)/(e·Var_target) with
e = effective_labels/m_p the judge's worth per label. For a jury (the paper's design) this
holds while the test set is large beside the calibration set (the test term ignored; the
plan is optimistic by it otherwise), and keeps the pilot's human-class split.

The planned width is the expected one (the plug-in at the planning values): about half of
the studies of that size come out narrower (measured in
``benchmarks/results/compare_scores.md``, part B).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ._validation import ArgumentTypeError, JudgeStatsError, check_confidence_level
from .kernels import z_value

__all__ = [
    "LEARNING", "SourcePlan", "implied_r2", "learning_loss", "plan_declared_score",
    "plan_from_pilot", "score_variance",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class SourcePlan:
    """Human labels for a target width from a judge score or a jury, with its assumptions.

    Attributes
    ----------
    m : int
        Human labels to collect (labelled rows; for a jury, calibration items).
    width : float
        The planned (expected) full width at ``m``.
    target : float
        The width asked for.
    source : str
        What was planned: ``"score (declared R²)"``, ``"score (pilot)"``, or a pilot result's
        kind by its effective labels (``"jury (pilot, effective labels)"``, …).
    theta : float
        The rate the plan assumes.
    r2 : float or None
        The score's R² with the human label (declared, or implied by the pilot); None when
        planned by effective labels.
    effective_per_label : float
        The judge's worth per human label at ``m``: effective labels / m (1 = human labels
        alone).
    unlabelled : float
        Judged rows without a label the plan assumes (``inf``: many).
    confidence_level : float
        Two-sided level of the planned interval.
    assumptions : tuple of str
        What the plan rests on, in words.

    Examples
    --------
    Made by :func:`judgestats.plan.calibration_size` with ``r2=`` or ``pilot=``:

    >>> import judgestats as js
    >>> plan = js.plan.calibration_size(0.1, r2=0.5, theta=0.3, confidence_level=0.95)
    >>> plan.m, plan.source  # (1 − 0.5)·4·1.96²·0.21/0.1² = 161.3 for the oracle calibration
    (172, 'score (declared R²)')
    """

    m: int
    width: float
    target: float
    source: str
    theta: float
    r2: float | None
    effective_per_label: float
    unlabelled: float
    confidence_level: float
    assumptions: tuple[str, ...]

    def summary(self) -> str:
        """Return the labels to collect, the width they give, and the assumptions."""
        lines = [
            f"{self.m} human labels for a {self.confidence_level:.0%} interval "
            f"{self.width:.4f} wide (target {self.target:g}; {self.source})",
            f"  each label worth {self.effective_per_label:.2f} human labels alone",
        ]
        lines += [f"  assumes: {a}" for a in self.assumptions]
        return "\n".join(lines)


def _unit(name: str, value: Any, *, closed: bool = False) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or not ((0.0 <= value <= 1.0) if closed else (0.0 < value < 1.0)):
        span = "[0, 1]" if closed else "(0, 1)"
        raise ArgumentTypeError(f"{name} must be a number in {span}, got {value!r}")
    return float(value)


def _unlabelled(value: Any) -> float:
    if value is None:
        return math.inf
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ArgumentTypeError(f"n must be a positive number of unlabelled rows or None, got "
                                f"{value!r}")  # fmt: skip
    return float(value)


#: κ's ceiling in the cross-fit's learning loss κ(R²)·(m(K − 1)/K)^(−2/3) (module docstring)
LEARNING = 0.8


def learning_loss(m: float, r2: float, folds: int = 5) -> float:
    """κ(R²)·(m(K − 1)/K)^(−2/3): the cross-fitted isotonic calibration's excess (docstring)."""
    return LEARNING * min(1.0, 4.0 * r2) * (m * (folds - 1) / folds) ** (-2.0 / 3.0)


def score_variance(m: float, theta: float, r2: float, big_n: float) -> float:
    """θ(1 − θ)/m · [1 − R² N/(N + m) + learning loss], widened where a class is rare.

    PPI++'s variance (module docstring), plus the expected cost of the rare-class variance of
    :func:`judgestats.scores.prediction_powered.fit_ppi` (``rare_adjust``): with fewer than
    :data:`~judgestats.scores.prediction_powered.RARE_CLASS_LABELS` labels of the rarer class,
    :data:`~judgestats.scores.prediction_powered.PSEUDO_LABELS` = k labels of each class are
    added at the mean prediction ≈ θ, whose residuals y − θ add k[(1 − θ)² + θ²] to the
    labelled part's sum of squares m·θ(1 − θ)[1 − R²(2λ − λ²) + learning loss] over
    (m + 2k)² instead of m² (λ = N/(N + m)); the plan adds the excess over PPI++'s times the
    binomial probability that the rarer class has fewer than that many labels in m.
    """
    from scipy.stats import binom

    from .scores.prediction_powered import PSEUDO_LABELS, RARE_CLASS_LABELS

    share = 1.0 if math.isinf(big_n) else big_n / (big_n + m)
    pq, loss = theta * (1.0 - theta), learning_loss(m, r2)
    base = pq / m * (1.0 - r2 * share + loss)
    gated = float(binom.cdf(RARE_CLASS_LABELS - 1, m, min(theta, 1.0 - theta)))
    if gated < 1e-6:
        return base
    k = PSEUDO_LABELS
    labelled = m * pq * (1.0 - r2 * (2.0 * share - share * share) + loss)
    pseudo = (labelled + k * ((1.0 - theta) ** 2 + theta**2)) / (m + 2 * k) ** 2
    adjusted = pseudo + (base - labelled / (m * m))  # the unlabelled part unchanged
    return base + gated * max(0.0, adjusted - base)


def _labels_for(target: float, z: float, theta: float, r2: float, big_n: float) -> int:
    """Smallest m >= 2 whose planned width is at most ``target`` (doubling, then bisection)."""
    def wide(m: int) -> bool:
        return 2.0 * z * math.sqrt(score_variance(m, theta, r2, big_n)) > target

    lo, hi = 1, 2
    while wide(hi):
        lo, hi = hi, 2 * hi
        if hi > 10**8:
            raise JudgeStatsError(f"width {target:g} needs more than 10^8 labels")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if wide(mid) else (lo, mid)
    return hi


def plan_declared_score(target: float, *, theta: float, r2: float, n: Any = None,
                        confidence_level: float = 0.95,
                        source: str = "score (declared R²)") -> SourcePlan:  # fmt: skip
    """Labels for a PPI++ interval ``target`` wide from a score's declared R² (module docstring).

    Called by :func:`judgestats.plan.calibration_size` with ``r2=`` and ``theta=``.
    """
    from .scores.correction import MIN_SCORE_LABELS
    from .scores.prediction_powered import RARE_CLASS_LABELS

    target = _unit("width", target)
    theta, r2 = _unit("theta", theta), _unit("r2", r2, closed=True)
    big_n = _unlabelled(n)
    level = float(check_confidence_level(confidence_level))
    z = float(z_value(level))
    m = _labels_for(target, z, theta, r2, big_n)
    floor = m < MIN_SCORE_LABELS
    m = max(m, MIN_SCORE_LABELS)
    var = score_variance(m, theta, r2, big_n)
    assumptions = [
        "design='random': the labelled rows a simple random sample of the judged rows",
        f"the score's calibrated R² with the human label is {r2:.3g}; the cross-fitted isotonic "
        "calibration's learning loss as measured (module docstring)",
        f"θ = {theta:.3g}; " + ("many unlabelled rows (N → ∞)" if math.isinf(big_n)
                                else f"{big_n:g} unlabelled rows"),
        "the planned width is the expected one: about half of such studies come out narrower",
    ]  # fmt: skip
    if m * min(theta, 1.0 - theta) < 2 * RARE_CLASS_LABELS:
        assumptions.append(f"about {m * min(theta, 1.0 - theta):.0f} labels of the rarer class: "
                           f"correct_scores widens its variance below {RARE_CLASS_LABELS} of a "
                           "class (its rare-class variance), planned at its binomial chance")
    if floor:
        assumptions.append(f"raised to {MIN_SCORE_LABELS} labels: below that correct_scores "
                           "does not use the score's calibration (its fallback answers)")
    return SourcePlan(m=m, width=2.0 * z * math.sqrt(var), target=target, source=source,
                      theta=theta, r2=r2, effective_per_label=theta * (1 - theta) / var / m,
                      unlabelled=big_n, confidence_level=level,
                      assumptions=tuple(assumptions))  # fmt: skip


def implied_r2(ratio: float, m: int, big_n: float) -> float:
    """R² solving Var(θ̂)/Var(ȳ) = 1 − R² N/(N + m) + learning loss at the pilot's m, N."""
    if big_n <= 0 or ratio >= 1.0:
        return 0.0
    share = big_n / (big_n + m)

    def excess(r2: float) -> float:
        return 1.0 - r2 * share + learning_loss(m, r2) - ratio

    if excess(1.0) >= 0:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(60):  # bisection: the bracket falls in R² past 4R² = 1's kink
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if excess(mid) > 0 else (lo, mid)
    return 0.5 * (lo + hi)


def _pilot_labels(pilot: Any) -> int:
    labelled = getattr(pilot, "n_labelled", None)
    if labelled is None:
        labelled = int(pilot.m0) + int(pilot.m1)
    return int(labelled)


def _effective(pilot: Any) -> float | None:
    """Return the pilot's effective labels: its own, or θ̂(1 − θ̂) over its interval's variance."""
    from .results import ConfidenceInterval, effective_labels, width_variance

    own = getattr(pilot, "effective_labels", None)
    if isinstance(own, float):
        return own
    ci = getattr(pilot, "ci", None)
    if not isinstance(ci, ConfidenceInterval) or not hasattr(pilot, "confidence_level"):
        return None
    return effective_labels(float(pilot.estimate), width_variance(ci))


def plan_from_pilot(target: float, *, pilot: Any, n: Any = None,
                    confidence_level: float | None = None) -> SourcePlan:  # fmt: skip
    """Labels for an interval ``target`` wide from a pilot result (module docstring).

    Called by :func:`judgestats.plan.calibration_size` with ``pilot=``; the level defaults to
    the pilot's.
    """
    effective = _effective(pilot)
    if effective is None:
        raise ArgumentTypeError(
            "pilot must be a result with a rate and its interval (a ScoreCorrection, "
            f"JuryCorrection or Correction) with 0 < θ̂ < 1, got {type(pilot).__name__}"
            + (f" with θ̂ = {pilot.estimate:.3g}" if hasattr(pilot, "estimate") else "")
        )
    level = pilot.confidence_level if confidence_level is None else confidence_level
    theta = min(max(float(pilot.estimate), 1e-6), 1 - 1e-6)
    m_p = _pilot_labels(pilot)
    humans = getattr(pilot, "humans_only_variance", None)
    if humans and getattr(pilot, "lam", None) is not None:  # a PPI++ score: its implied R²
        n_p = float(pilot.n_unlabelled)
        r2 = implied_r2(float(pilot.variance) / float(humans), m_p, n_p)
        big_n = n_p if n is None else n
        return plan_declared_score(target, theta=theta, r2=r2, n=big_n,
                                   confidence_level=level, source="score (pilot)")  # fmt: skip
    return _plan_scaled(target, pilot, float(effective), m_p, theta, level)


def _plan_scaled(target: float, pilot: Any, effective: float, m_p: int, theta: float,
                 level: Any) -> SourcePlan:  # fmt: skip
    target = _unit("width", target)
    level = float(check_confidence_level(level))
    z = float(z_value(level))
    per_label = effective / m_p
    var_target = (target / (2.0 * z)) ** 2
    m = max(math.ceil(theta * (1.0 - theta) / (per_label * var_target) - 1e-9), 2)
    if m > 10_000_000:
        raise JudgeStatsError(f"width {target:g} needs more than 10^7 labels at this pilot's "
                              f"worth per label ({per_label:.3g})")  # fmt: skip
    kind = type(pilot).__name__.replace("Correction", "").lower() or "correction"
    var = theta * (1.0 - theta) / (per_label * m)
    assumptions = (
        f"the pilot's variance of the labelled part scales as 1/m ({m_p} labels, worth "
        f"{per_label:.3g} each)",
        "the test set is large beside the calibration set (its term ignored: optimistic "
        "otherwise)",
        "the pilot's human-class split kept, θ as the pilot's estimate",
        "the planned width is the expected one: about half of such studies come out narrower",
    )
    return SourcePlan(m=m, width=2.0 * z * math.sqrt(var), target=target,
                      source=f"{kind or 'correction'} (pilot, effective labels)", theta=theta,
                      r2=None, effective_per_label=per_label, unlabelled=math.inf,
                      confidence_level=level, assumptions=assumptions)  # fmt: skip
