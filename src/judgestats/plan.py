"""Planning the human labels: how many, of which kind, and whether a judge is worth it.

* :func:`allocate` — the paper's Algorithm 1: split a calibration budget between human-0 and
  human-1 items from a small pilot.
* :func:`optimal_allocation` — the exact integer split minimising the adjusted-Wald width.
* :func:`calibration_size` — the smallest calibration set whose interval is no wider than a
  target.
* :func:`compare_alphabets` — how much each judge letter (a score's levels, a tie, a second
  judge) shortens the interval, against thresholds and single judges.
* :func:`judge_vs_human` — the θ range where a calibrated judge beats labelling the same number
  of items by hand (Proposition "variance region").

Widths are those of the reported adjusted-Wald interval (paper eq. (8), truncated to [0, 1]),
evaluated as if p̂ = p, q̂0 = q0 and q̂1 = q1 were observed; ``n=None`` means n → ∞ (no test-set
noise), the paper's planning setting.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    MethodError,
    PlanningWarning,
    check_budget,
    check_informative,
    check_instance,
    check_open_unit,
    check_probability,
    check_sample_size,
    pop_renamed,
)
from .alphabets.plan import AlphabetComparison, compare_alphabets
from .counts import ConfusionCounts
from .designs import BY_HUMAN_LABEL, DEFAULT_DESIGN, Design, as_design, design_names
from .designs.plan import (
    DesignComparison,
    JudgeAllocation,
    allocate_by_judge,
    check_allocation,
    compare_designs,
    judge_rates,
    plan_spec,
)
from .designs.plan import n_value as _n_value
from .designs.plan import planning_inputs as _scalar_inputs
from .kernels import adjusted_wald_bounds, z_value
from .sequential.planning import LabellingPlan, labelling_plan, neyman_gain
from .sequential.selection import next_batch

__all__ = [
    "Allocation",
    "AlphabetComparison",
    "CalibrationPlan",
    "DesignComparison",
    "JudgeAllocation",
    "LabellingPlan",
    "Regime",
    "allocate",
    "allocate_by_judge",
    "calibration_size",
    "compare_alphabets",
    "compare_designs",
    "interval_width",
    "judge_vs_human",
    "labelling_plan",
    "next_batch",
    "neyman_gain",
    "optimal_allocation",
]


@dataclass(frozen=True, slots=True)
class Allocation:
    """A split of the calibration budget: ``m0`` human-0 items and ``m1`` human-1 items.

    ``width`` is the adjusted-Wald width the split gives (set by :func:`optimal_allocation`);
    ``kappa`` the error ratio (1 − q̃0)/(1 − q̃1) used (set by :func:`allocate`).

    Examples
    --------
    Made by :func:`optimal_allocation` (with the width it gives) and :func:`allocate`; it unpacks
    as ``(m0, m1)``:

    >>> import judgestats as js
    >>> split = js.plan.optimal_allocation(200, p=0.3, q0=0.7, q1=0.9)
    >>> split.m, tuple(split), round(split.width, 4)
    (200, (177, 23), 0.1062)
    """

    m0: int
    m1: int
    width: float | None = None
    kappa: float | None = None

    @property
    def m(self) -> int:
        """Total budget m0 + m1."""
        return self.m0 + self.m1

    def __iter__(self):
        yield self.m0
        yield self.m1


@dataclass(frozen=True, slots=True)
class CalibrationPlan:
    """Smallest calibration set meeting a target width, and the width it gives.

    ``m0``, ``m1``: the split by human label (by-human-label design). Under
    ``design="by-judge-label"`` ``judge0``, ``judge1`` hold the split by judge label; under
    ``"random"`` the design fixes no split and all four are None.

    Examples
    --------
    Made by :func:`calibration_size`:

    >>> import judgestats as js
    >>> js.plan.calibration_size(0.1, p=0.3, q0=0.7, q1=0.9,
    ...                          confidence_level=0.95)  # doctest: +NORMALIZE_WHITESPACE
    CalibrationPlan(m=362, m0=181, m1=181, width=0.09994164510883667, allocation='balanced',
    confidence_level=0.95, design='by-human-label', judge0=None, judge1=None)
    """

    m: int
    m0: int | None
    m1: int | None
    width: float
    allocation: str
    confidence_level: float
    design: str = DEFAULT_DESIGN
    judge0: int | None = None
    judge1: int | None = None


@dataclass(frozen=True, slots=True)
class Regime:
    """θ range [low, high] where the calibrated judge has lower variance than human labels.

    Examples
    --------
    Made by :func:`judge_vs_human`:

    >>> import judgestats as js
    >>> regime = js.plan.judge_vs_human(0.95, 0.95, m=200)
    >>> regime, round(regime.width, 4)
    (Regime(low=0.1139, high=0.8861), 0.7722)
    """

    low: float
    high: float

    @property
    def width(self) -> float:
        """Length of the favourable θ range."""
        return self.high - self.low

    def __iter__(self):
        yield self.low
        yield self.high

    def __contains__(self, theta: float) -> bool:
        return self.low <= theta <= self.high


# ----------------------------------------------------------------------------- widths


def _width(p, q0, q1, n, m0, m1, z) -> np.ndarray:
    low, high, _ = adjusted_wald_bounds(p, q0, q1, n, m0, m1, z)
    return high - low


def interval_width(
    m0: Any, m1: Any, *, p: Any, q0: Any, q1: Any, n: Any = None, confidence_level: Any = 0.95
) -> Any:
    """Width of the adjusted-Wald interval (eq. (8), truncated) as if p, q0, q1 were observed.

    Vectorised over every argument; ``n=None`` means n → ∞. NaN where the adjusted judge is not
    informative (q̃0 + q̃1 <= 1, which happens only for tiny m).

    Examples
    --------
    The width of two calibration splits at once (arrays broadcast):

    >>> import judgestats as js
    >>> js.plan.interval_width([100, 200], [100, 200], p=0.3, q0=0.7, q1=0.9).round(4)
    array([0.13  , 0.0955])
    """
    p = check_probability("p", p)
    q0 = check_probability("q0", q0)
    q1 = check_probability("q1", q1)
    check_informative(q0, q1)
    m0 = check_sample_size("m0", m0, positive=False)
    m1 = check_sample_size("m1", m1, positive=False)
    spec = plan_spec(BY_HUMAN_LABEL, confidence_level, scalar=False)
    out = _width(p, q0, q1, _n_value(n), m0, m1, z_value(spec.confidence_level))
    return float(out) if np.ndim(out) == 0 else out


# ----------------------------------------------------------------------------- allocation
def allocate(
    m: int, *, p: float | None = None, pilot: ConfusionCounts | None = None, **renamed: Any
) -> Allocation:
    """Split a calibration budget between label types (the paper's Algorithm 1, exactly).

    With a pilot of m_pilot human-0 and m_pilot human-1 items:

    1. q̃0 = (tn + 1)/(m_pilot + 2), q̃1 = (tp + 1)/(m_pilot + 2);
    2. κ̂ = (1 − q̃0)/(1 − q̃1);
    3. m1* = round(m / (1 + (1/p̂ − 1)·√κ̂)) with Python's round (half to even);
    4. m1 = min(max(m1*, m_pilot), m − m_pilot), m0 = m − m1.

    The returned (m0, m1) are totals that include the pilot items.

    Parameters
    ----------
    m : int
        Total calibration budget (>= 2·m_pilot).
    p : float
        Judged positive rate p̂ on the test set, in [0, 1] (``p_hat`` is its deprecated name).
    pilot : ConfusionCounts
        The pilot calibration set; it must hold equally many human-0 and human-1 items.
    **renamed
        Deprecated keyword names (``p_hat``), accepted with a DeprecationWarning.

    Returns
    -------
    Allocation
        ``m0``, ``m1`` and the ``kappa`` used.

    See Also
    --------
    plan.calibration_size : The total number of labels.
    plan.optimal_allocation : The allocation formula itself.
    correct_stratified : The stratified correction the labels feed.

    Notes
    -----
    The add-one estimates keep q̃0, q̃1 strictly inside (0, 1), so κ̂ is always finite and
    positive (the q̃1 = 1 case of a raw estimate cannot arise). At the boundaries of p̂ the rule is
    taken to its limit and a :class:`PlanningWarning` is issued: p̂ = 0 gives 1/p̂ − 1 = ∞, so
    m1* = 0 and m1 = m_pilot (every extra label goes to the human-0 class); p̂ = 1 gives
    m1* = m and m1 = m − m_pilot.

    Examples
    --------
    >>> import judgestats as js
    >>> pilot = js.ConfusionCounts(tp=9, fn=1, tn=7, fp=3)
    >>> tuple(js.plan.allocate(200, p=0.4, pilot=pilot))
    (136, 64)
    """
    p = pop_renamed(renamed, {"p_hat": "p"}, "allocate").get("p", p)
    if p is None:
        raise ArgumentTypeError("allocate() needs p=, the judged positive rate p̂ of the test set")
    pc: ConfusionCounts = check_instance("pilot", pilot, ConfusionCounts)
    if pc.shape:
        raise JudgeStatsError(
            f"pilot must be one calibration set, got a batch of shape {pc.shape}"
        )
    if pc.m0 != pc.m1:
        raise JudgeStatsError(
            "pilot must hold equally many human-0 and human-1 items (m_pilot of each), got "
            f"m0 = {pc.m0} and m1 = {pc.m1}"
        )
    m_pilot = pc.m0
    m = check_budget("m", m, minimum=2)
    if 2 * m_pilot > m:
        raise JudgeStatsError(f"m ({m}) must be at least 2·m_pilot = {2 * m_pilot}")
    p_hat = float(check_probability("p", p))
    if np.ndim(p_hat):
        raise JudgeStatsError("p must be a scalar")
    q0_t = (pc.tn + 1) / (m_pilot + 2)
    q1_t = (pc.tp + 1) / (m_pilot + 2)
    kappa = (1 - q0_t) / (1 - q1_t)
    if p_hat == 0.0 or p_hat == 1.0:
        m1_star = 0 if p_hat == 0.0 else m
        ratio = "infinite" if p_hat == 0 else "0"
        warnings.warn(
            f"p = {p_hat:g}: Algorithm 1's ratio (1/p̂ − 1) is {ratio}; "
            f"taking the limit m1* = {m1_star} (then the pilot floor applies)",
            PlanningWarning,
            stacklevel=2,
        )
    else:
        m1_star = round(m / (1 + (1 / p_hat - 1) * math.sqrt(kappa)))
    m1 = min(max(m1_star, m_pilot), m - m_pilot)
    return Allocation(m0=m - m1, m1=m1, kappa=kappa)


def _check_floor(min_per_class: Any, m: int | None = None) -> int:
    floor = check_budget("min_per_class", min_per_class, minimum=1)
    if m is not None and m < 2 * floor:
        raise JudgeStatsError(
            f"m = {m} cannot give each human class min_per_class = {floor} items (needs m >= "
            f"{2 * floor})"
        )
    return floor


def optimal_allocation(
    m: int, *, p: float, q0: float, q1: float, n: Any = None, confidence_level: float = 0.95,
    min_per_class: int = 1,
) -> Allocation:  # fmt: skip
    """Exact integer split of ``m`` minimising the adjusted-Wald width.

    Searches every m1 in ``min_per_class`` … m − ``min_per_class`` (m0 = m − m1) and returns
    the one whose interval (eq. (8),
    truncated to [0, 1]) is narrowest, with that width. Compare the paper's Proposition
    (allocation), m̃0 ≈ (1/p̃ − 1)·√κ·m̃1 with κ = (1 − q̃0)/(1 − q̃1), which this search makes
    exact (the approximation is good when q0, q1 are close to 1).

    Parameters
    ----------
    m : int
        Total calibration budget (>= 2).
    p, q0, q1 : float
        Planned judged rate and judge specificity/sensitivity (q0 + q1 > 1).
    n : int, float or None
        Test-set size; None means n → ∞.
    confidence_level : float, default 0.95
        Two-sided level of the interval whose width is minimised.
    min_per_class : int, default 1
        Smallest number of items of each human class. The width-minimising split can be very
        lopsided (m0 = 7 of 80 at p = 0.9, q0 = 0.7, q1 = 0.9), and with fewer than
        ``js.correct``'s ``MIN_PER_CLASS`` (100) items of a class :func:`judgestats.correct`
        warns that the adjusted-Wald interval may under-cover (``WeakCalibrationWarning``):
        pass ``min_per_class=100`` to plan within that rule.

    Returns
    -------
    Allocation
        ``m0``, ``m1`` and ``width``.

    Examples
    --------
    >>> import judgestats as js
    >>> js.plan.optimal_allocation(200, p=0.3, q0=0.7, q1=0.9, confidence_level=0.95)
    Allocation(m0=177, m1=23, width=0.10620530114668836, kappa=None)
    """
    m = check_budget("m", m, minimum=2)
    floor = _check_floor(min_per_class, m)
    p, q0, q1, n = _scalar_inputs(p, q0, q1, n)
    spec = plan_spec(BY_HUMAN_LABEL, confidence_level)
    w, (m0, m1) = spec.design.plan_width(m, p=p, q0=q0, q1=q1, n=n, allocation="optimal",
                                         z=float(z_value(spec.confidence_level)), floor=floor)
    return Allocation(m0=int(m0 or 0), m1=int(m1 or 0), width=w)


# ----------------------------------------------------------------------------- size
def calibration_size(
    width: float,
    *,
    p: Any = None,
    q0: Any = None,
    q1: Any = None,
    n: Any = None,
    allocation: str = "balanced",
    confidence_level: Any = 0.95,
    max_m: int = 1_000_000,
    design: Any = DEFAULT_DESIGN,
    min_per_class: int = 1,
    pilot: Any = None,
    r2: Any = None,
    theta: Any = None,
) -> Any:
    """Smallest calibration set whose interval is no wider than ``width``.

    The interval (paper eq. (8), truncated to [0, 1], for the default design) is evaluated with
    p̂ = p, q̂0 = q0, q̂1 = q1 as if observed; under the other designs the judge-conditional
    adjusted-Wald interval at the expected counts (:mod:`judgestats.designs.plan`).

    For a judge that says more than a letter (issue 39), plan instead from ``pilot=`` (a
    :class:`~judgestats.scores.ScoreCorrection` or :class:`~judgestats.jury.JuryCorrection`)
    or from a score's declared quality (``r2=`` and ``theta=``): the PPI++ variance at the
    score's R², or the pilot's variance scaled as 1/m of its labelled part
    (:mod:`judgestats.source_plan`, whose :class:`~judgestats.source_plan.SourcePlan` states
    the assumptions).

    Parameters
    ----------
    width : float
        Target full width (high − low), in (0, 1).
    p, q0, q1 : float
        Planned judged rate and the judge's specificity/sensitivity (q0 + q1 > 1).
    n : int, float or None
        Test-set size; None means n → ∞ (calibration noise only).
    allocation : {"balanced", "optimal"}
        ``"balanced"``: m0 = m1 = m/2 (m even). ``"optimal"``: for each m the width-minimising
        split (:func:`optimal_allocation`). Under ``design="by-judge-label"`` the same by judge
        label (``"optimal"``: the Neyman split); ``design="random"`` takes ``"balanced"`` only.
    confidence_level : float, default 0.95
        Two-sided level of the planned interval.
    max_m : int
        Give up (with an error) beyond this total.
    design : {"by-human-label", "random", "by-judge-label"}
        How the calibration items will be chosen (:mod:`judgestats.designs`).
    min_per_class : int, default 1
        By-human-label design: smallest number of items of each human class (see
        :func:`optimal_allocation`); ``100`` plans within ``js.correct``'s
        ``WeakCalibrationWarning`` rule.
    pilot : ScoreCorrection, JuryCorrection or Correction, optional
        Plan from this pilot's result instead of (p, q0, q1): a score's implied R² and θ̂
        (``n`` then counts unlabelled rows, default the pilot's), or any result's effective
        labels per label, its variance scaled as 1/m (at ``confidence_level``, whatever the
        pilot's).
    r2, theta : float, optional
        A judge score's declared R² with the human label (in [0, 1]) and the rate θ: plan the
        PPI++ interval of :func:`judgestats.scores.correct_scores` (``n``: unlabelled rows,
        None for many).

    Returns
    -------
    CalibrationPlan or SourcePlan
        A :class:`~judgestats.source_plan.SourcePlan` with ``pilot=`` or ``r2=``.

    See Also
    --------
    plan.interval_width : The width a given number of labels gives.
    plan.allocate : Share the labels among strata.
    plan.compare_designs : Compare the calibration designs.
    sequential.Monitor : Label in batches until the interval is narrow enough.

    Notes
    -----
    The paper says that for p̂ = 0.3, q̂0 = 0.7, q̂1 = 0.9 (n → ∞) an interval shorter than 0.1
    "requires m ≈ 200" (its Figure 3, dashed = balanced). This planner gives
    m = 362 balanced (m0 = m1 = 181) and m = 226 with the optimal split (m0 = 202, m1 = 24).
    Here θ̂ = 0, so the interval is truncated at 0 and its width is its upper end. The paper's
    figure reads closest to the per-class size of the balanced design (181 ≈ 200) or to the
    optimal total.

    With finite n the width cannot fall below the test-set term 2z·√(p̃(1 − p̃)/ñ)/(q0 + q1 − 1)
    (roughly); a target below what m = ``max_m`` reaches raises :class:`JudgeStatsError`.

    Examples
    --------
    How many human labels for an interval 0.1 wide, when about 30% of the answers are correct and
    the judge's specificity and sensitivity are about 0.7 and 0.9 (the paper's adjusted-Wald width
    at n → ∞):

    >>> import judgestats as js
    >>> plan = js.plan.calibration_size(0.1, p=0.3, q0=0.7, q1=0.9, confidence_level=0.95)
    >>> plan.m, plan.m0, plan.m1, round(plan.width, 4)
    (362, 181, 181, 0.0999)
    >>> js.plan.calibration_size(0.1, p=0.3, q0=0.7, q1=0.9, n=2000).m  # 2,000 judged items
    414
    """
    if pilot is not None or r2 is not None or theta is not None:
        return _source_plan(width, p=p, q0=q0, q1=q1, n=n, confidence_level=confidence_level,
                            pilot=pilot, r2=r2, theta=theta)  # fmt: skip
    if p is None or q0 is None or q1 is None:
        raise ArgumentTypeError(
            "calibration_size needs p=, q0= and q1= (a letter judge), pilot= (a pilot result) "
            "or r2= and theta= (a judge score's declared quality)"
        )
    target = check_open_unit("width", width)
    p, q0, q1, n = _scalar_inputs(p, q0, q1, n)
    max_m = check_budget("max_m", max_m, minimum=4)
    floor = _check_floor(min_per_class)
    spec = plan_spec(design, confidence_level)
    design = spec.design
    allocation = check_allocation(design, allocation)
    by_human = design.sampled_within == "human"  # the split is (m0, m1), else (k0, k1) or none
    if floor > 1 and not by_human:
        raise JudgeStatsError(
            "min_per_class applies to a design that chooses the items within human labels "
            f"(the split m0, m1), not design={str(design)!r}"
        )
    z = float(z_value(spec.confidence_level))

    def best(m_total: int) -> tuple[Any, Any, float]:
        w, (a, b) = design.plan_width(m_total, p=p, q0=q0, q1=q1, n=n, z=z,
                                      allocation=allocation, floor=floor)  # fmt: skip
        return a, b, w

    step = 2 if by_human and allocation == "balanced" else 1  # m0 = m1: an even total
    hi = _smallest(best, target, step, max_m, n)
    a, b, w = best(hi)
    level = float(spec.confidence_level)
    if by_human:
        return CalibrationPlan(m=a + b, m0=a, m1=b, width=w, allocation=allocation,
                               confidence_level=level, design=design)  # fmt: skip
    return CalibrationPlan(m=hi, m0=None, m1=None, width=w, allocation=allocation,
                           confidence_level=level, design=design, judge0=a, judge1=b)  # fmt: skip


def _source_plan(width: Any, *, p: Any, q0: Any, q1: Any, n: Any, confidence_level: Any,
                 pilot: Any, r2: Any, theta: Any) -> Any:  # fmt: skip
    """Plan a judge score or a jury (:mod:`judgestats.source_plan`, loaded on first use)."""
    from .source_plan import plan_declared_score, plan_from_pilot

    if p is not None or q0 is not None or q1 is not None:
        raise ArgumentTypeError("give either p=, q0=, q1= (a letter judge) or pilot= / r2= "
                                "with theta=, not both")  # fmt: skip
    if pilot is not None:
        if r2 is not None or theta is not None:
            raise ArgumentTypeError("give pilot= or r2= with theta=, not both")
        return plan_from_pilot(width, pilot=pilot, n=n, confidence_level=confidence_level)
    if r2 is None or theta is None:
        raise ArgumentTypeError(f"a judge score's plan needs both r2= and theta=, got r2={r2!r}, "
                                f"theta={theta!r}")  # fmt: skip
    return plan_declared_score(width, theta=theta, r2=r2, n=n,
                               confidence_level=confidence_level)


def _smallest(best: Any, target: float, step: int, max_m: int, n: float) -> int:
    """Return the smallest total (a multiple of ``step``) whose width ``best(m)[2]`` <= target.

    Brackets by doubling, then bisects; the width is non-increasing in m (checked in tests).
    """
    top = max_m - max_m % step
    hi = 4
    while best(hi)[2] > target:
        if hi >= top:
            reached = best(top)[2]
            raise JudgeStatsError(
                f"width {target:g} is not reached with m <= max_m = {max_m} (width there: "
                f"{reached:.4g})"
                + ("; raise max_m" if math.isinf(n)
                   else f"; with n = {n:g} the test-set noise alone may exceed it")
            )
        hi = min(2 * hi, max_m)
        hi -= hi % step
    lo = 2
    if best(lo)[2] <= target:
        hi = lo
    while hi - lo > step:
        mid = (lo + hi) // 2
        mid -= mid % step
        if mid <= lo:
            break
        if best(mid)[2] <= target:
            hi = mid
        else:
            lo = mid
    return hi


# ----------------------------------------------------------------------------- regime
def _regime_infinite(q0: np.ndarray, q1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact m → ∞ region (paper eq. (34)), vectorised; NaN where empty."""
    d2 = (q0 + q1 - 1.0) ** 2
    delta = (q0 * (1 - q0) - q1 * (1 - q1)) / d2
    disc = (1 + delta) ** 2 / 4 - q0 * (1 - q0) / d2
    root = np.sqrt(np.where(disc >= 0, disc, np.nan))
    low = np.clip((1 + delta) / 2 - root, 0.0, 1.0)
    high = np.clip((1 + delta) / 2 + root, 0.0, 1.0)
    return low, high


def _sufficient_holds(theta, q0, q1, eps) -> np.ndarray:
    """Finite-m sufficient condition (paper eq. (16))."""
    with np.errstate(divide="ignore", invalid="ignore"):
        rhs = (
            (1 - theta) ** 2 * q0 * (1 - q0) / (1 - theta - eps)
            + theta**2 * q1 * (1 - q1) / (theta - eps)
        ) / (q0 + q1 - 1) ** 2
        ok = (eps < np.minimum(theta, 1 - theta)) & (theta * (1 - theta) >= rhs)
    return ok


def _regime_finite(q0, q1, eps, grid: int = 20_001) -> tuple[np.ndarray, np.ndarray]:
    theta = np.linspace(0.0, 1.0, grid)
    q0 = np.asarray(q0, dtype=float)[..., None]
    q1 = np.asarray(q1, dtype=float)[..., None]
    ok = _sufficient_holds(theta, q0, q1, eps)
    anyok = ok.any(axis=-1)
    first = np.argmax(ok, axis=-1)
    last = grid - 1 - np.argmax(ok[..., ::-1], axis=-1)
    low = np.where(anyok, theta[first], np.nan)
    high = np.where(anyok, theta[last], np.nan)
    return low, high


def judge_vs_human(
    q0: float, q1: float, *, m: int | None = None, delta: float = 0.05,
    design: Any = DEFAULT_DESIGN,
) -> Regime | None:  # fmt: skip
    """θ range where a calibrated judge has lower variance than human-only labelling.

    Compares the corrected estimator θ̂ (n → ∞ judged items, m calibration items) with the
    human-only estimate of m labelled test items (paper Proposition "variance region").

    * ``m=None`` (m → ∞): the exact condition θ ∈ [(1 + Δ)/2 ± √((1 + Δ)²/4 − q0(1 − q0)/d²)]
      with d = q0 + q1 − 1 and Δ = (q0(1 − q0) − q1(1 − q1))/d². For q0 = q1 = q it reduces to
      1/2 ± √(1/2 − 1/(4(2q − 1)²)).
    * finite ``m``: the sufficient condition θ(1 − θ) >= [(1 − θ)² q0(1 − q0)/(1 − θ − ε) +
      θ² q1(1 − q1)/(θ − ε)]/d² with ε = √(log(2/δ)/(2m)) and ε < min(θ, 1 − θ), which holds
      with probability >= 1 − δ; solved on a 20,001-point θ grid (ends accurate to 5e-5).

    Parameters
    ----------
    q0, q1 : float
        Judge specificity and sensitivity, in (0, 1], q0 + q1 > 1.
    m : int, optional
        Human-label budget; None for the m → ∞ condition.
    delta : float, default 0.05
        Failure probability of the finite-m bound.
    design : {"by-human-label", "random"}, default "by-human-label"
        ``"random"``: the calibration items are a random sample of the test items and the
        judge-conditional estimator uses their human labels and every judge label. Its
        asymptotic variance, (PPV − FOR)²π(1 − π)/(n + m) + [π·PPV(1 − PPV) +
        (1 − π)·FOR(1 − FOR)]/m, is never above the human labels' θ(1 − θ)/m (the variance
        of PPV/FOR given the judge label is at most the total variance): every θ qualifies
        and the result is [0, 1]. :func:`compare_designs` says by how much.

    Returns
    -------
    Regime or None
        None when no θ qualifies (e.g. q0 = 0.7, q1 = 0.9).

    See Also
    --------
    plan.calibration_size : Labels needed for a target width.
    chance.judge_value : What the judge is worth over human labels alone.

    Examples
    --------
    A judge right 95% of the time on both classes, checked against 200 human labels, beats labelling
    by hand when the true rate is between 0.11 and 0.89:

    >>> import judgestats as js
    >>> js.plan.judge_vs_human(0.95, 0.95, m=200)
    Regime(low=0.1139, high=0.8861)
    """
    q0, q1 = judge_rates(q0, q1)
    design = as_design(design)
    if design.calibration_samples_test:  # the judge-conditional estimator never loses
        return Regime(0.0, 1.0)
    if not design.divides_by_youden:
        raise MethodError(
            f"judge_vs_human compares human labels with a judge corrected through its "
            f"sensitivity and specificity, which design={str(design)!r} does not estimate; "
            f"the designs it takes: {', '.join(repr(str(d)) for d in _regime_designs())}"
        )
    if m is None:
        low, high = _regime_infinite(np.asarray(q0), np.asarray(q1))
    else:
        low, high = _regime_finite(q0, q1, _hoeffding_eps(m, delta))
    if np.isnan(low) or not high > low:
        return None
    return Regime(float(low), float(high))


def _regime_designs() -> list[Design]:
    """Return the designs :func:`judge_vs_human` takes (Rogan–Gladen's; random test samples)."""
    designs = (as_design(d) for d in design_names())
    return [d for d in designs if d.calibration_samples_test or d.divides_by_youden]


def _hoeffding_eps(m: Any, delta: Any) -> float:
    """ε = √(log(2/δ)/(2m)): with prob. >= 1 − δ the m labels' rate is within ε (Hoeffding)."""
    m = check_budget("m", m, minimum=1)
    return math.sqrt(math.log(2 / check_open_unit("delta", delta)) / (2 * m))


def regime_width_map(q0: Any, q1: Any, *, m: int | None = None, delta: float = 0.05) -> np.ndarray:
    """Width of the favourable θ range on a grid of (q0, q1) (0 where none), for the regime map."""
    q0 = np.asarray(check_probability("q0", q0), dtype=float)
    q1 = np.asarray(check_probability("q1", q1), dtype=float)
    q0, q1 = np.broadcast_arrays(q0, q1)
    good = q0 + q1 > 1
    q0s, q1s = np.where(good, q0, 1.0), np.where(good, q1, 1.0)
    if m is None:
        low, high = _regime_infinite(q0s, q1s)
    else:
        low, high = _regime_finite(q0s, q1s, _hoeffding_eps(m, delta), grid=2001)
    width = np.where(np.isnan(low) | ~good, 0.0, high - low)
    return np.where(good, width, 0.0)
