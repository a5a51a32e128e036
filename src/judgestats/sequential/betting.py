"""A confidence sequence by betting: the one home of its formulas.

Let Z_1, Z_2, … be random variables whose conditional mean given the past is one unknown
number θ, with bounds ``lo_t <= Z_t <= hi_t`` fixed before Z_t is seen (predictable); then θ is
in [lo_t, hi_t] too. For any candidate m, the capital of a gambler who bets λ⁺_t(m) >= 0 on
"the mean is above m",

    K⁺_t(m) = Π_{s<=t} (1 + λ⁺_s(m) (Z_s − m)),

is a nonnegative martingale when m = θ, provided ``1 + λ⁺_s(m) (Z_s − m) >= 0`` whatever Z_s
turns out to be. Ville's inequality then gives P(sup_t K⁺_t(θ) >= 2/α) <= α/2; likewise for
K⁻_t(m) = Π (1 − λ⁻_s(m) (Z_s − m)). So, with probability >= 1 − α, θ is in

    C_t = [max_s lo_s, min_s hi_s] ∩ {m : K⁺_t(m) < 2/α} ∩ {m : K⁻_t(m) < 2/α}

at *every* t at once (Waudby-Smith & Ramdas 2024, "Estimating means of bounded random variables
by betting", JRSS-B 86(1), §§3–4; two one-sided bets at α/2 each, a union bound in place of
their hedge).

The bets (their "predictable plug-in", eq. (26), on the scale of each Z_t, truncated as they
do):

    λ̃_t = sqrt( 2 log(2/α) / (σ_t² · h_t) ),
    λ⁺_t(m) = min( λ̃_t, c / (m − lo_t) ),   λ⁻_t(m) = min( λ̃_t, c / (hi_t − m) ),

with σ_t² a predictable estimate of Var(Z_t | past), c = 1/2 (so a draw never costs a bettor
more than half of their capital: the factor is >= 1 − c for every Z_t in [lo_t, hi_t]) and h_t
the *horizon*: ``t log(1 + t)`` (their choice, tight at no time in particular; here with
t >= 30) or a number of
draws n*, which makes the sequence tightest near n* (at n* its half-width is about
sqrt(2 log(2/α)) σ / sqrt(n*), 1.39× the fixed-sample 1.96 σ / sqrt(n*) at 95%). The
truncation depends on m only through the distance to the bound the bettor can lose towards, so
it is loose for the skewed Z_t of a rare outcome drawn with a small probability (a small loss
towards lo, a rare large gain towards hi), where a truncation by hi − lo would starve the bet.

Each factor of K⁺_t(m) falls as m rises (for the truncated bet,
1 + c (Z − m)/(m − lo) = 1 − c + c (Z − lo)/(m − lo)), and each factor of K⁻_t(m) rises, so
C_t is an interval and its ends are found by bisection; the running intersection of the C_t is
a confidence sequence too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "EARLIEST", "TRUNCATION", "BettingSequence", "bet", "horizon", "log_capital",
    "sequence_ends",
]

#: c in λ⁺ <= c / (m − lo), λ⁻ <= c / (hi − m): a draw never costs more than half the capital
TRUNCATION = 0.5
_BISECTIONS = 60
_TOLERANCE = 1e-10
_SLACK = 1e-12
#: the least t in the default horizon t log(1 + t)
EARLIEST = 30


def bet(alpha: float, variance: Any, horizon: Any) -> Any:
    """Return the untruncated bet λ̃_t of the predictable plug-in (Waudby-Smith & Ramdas, eq. 26).

    Parameters
    ----------
    alpha : float
        1 − confidence level.
    variance : float or ndarray
        Predictable estimate of Var(Z_t | past) (0: a draw whose value is known bets 0).
    horizon : float or ndarray
        h_t (:func:`horizon`).

    Returns
    -------
    float or ndarray
        λ̃_t >= 0; :func:`log_capital` truncates it for each candidate m.
    """
    var = np.asarray(variance, dtype=float)
    with np.errstate(divide="ignore"):
        out = np.where(var > 0, np.sqrt(2.0 * np.log(2.0 / alpha) / (np.maximum(var, 1e-300)
                                                                      * horizon)), 0.0)  # fmt: skip
    return out.item() if out.ndim == 0 else out


def horizon(
    t: int, variance: Any, alpha: float, *, tuned_for: float | None = None,
    target_width: float | None = None,
) -> Any:  # fmt: skip
    """Return h_t, the horizon of draw ``t``'s bet (see the module docstring).

    ``tuned_for`` draws when given; else, with a ``target_width`` w, the draws at which a
    sequence tuned there is expected to be w wide, 8 log(2/α) σ_t² / w² (from the half-width
    sqrt(2 log(2/α) σ² / n)), re-estimated at every draw from the predictable σ_t²; else
    Waudby-Smith & Ramdas's ``t log(1 + t)`` with t at least :data:`EARLIEST` (the first
    draws bet as if at draw 30: on one pool, θ = 0.3 and q = (0.85, 0.8), 300 replays, that
    narrowed the interval at 100, 500 and 2,000 labels by 2–5% against t itself).
    """
    if tuned_for is not None:
        return float(tuned_for)
    if target_width is not None:
        return np.maximum(8.0 * np.log(2.0 / alpha) * np.asarray(variance) / target_width**2, 1.0)
    t = np.maximum(t, EARLIEST)
    return t * np.log1p(t)


def _log_side(z: Any, lam: Any, lo: Any, hi: Any, m: Any, side: int) -> Any:
    """Return log K⁺_t(m) (side 0) or log K⁻_t(m) (side 1) after the draws on the last axis."""
    m = np.asarray(m, dtype=float)[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        if side == 0:
            bet_ = np.minimum(lam, np.where(m > lo, TRUNCATION / (m - lo), np.inf))
            return np.log1p(bet_ * (z - m)).sum(axis=-1)
        bet_ = np.minimum(lam, np.where(hi > m, TRUNCATION / (hi - m), np.inf))
        return np.log1p(-bet_ * (z - m)).sum(axis=-1)


def log_capital(z: Any, lam: Any, lo: Any, hi: Any, m: Any) -> tuple[Any, Any]:
    """Return (log K⁺_t(m), log K⁻_t(m)) after the draws on the last axis.

    ``z``, ``lam`` (the untruncated bets λ̃), ``lo`` and ``hi`` hold the draws (last axis) of one
    or many replays; ``m`` broadcasts against their leading axes and must lie in
    [max lo, min hi].
    """
    z, lam, lo, hi = (np.asarray(v, dtype=float) for v in (z, lam, lo, hi))
    return _log_side(z, lam, lo, hi, m, 0), _log_side(z, lam, lo, hi, m, 1)


def sequence_ends(
    z: Any, lam: Any, lo: Any, hi: Any, a: Any, b: Any, alpha: float
) -> tuple[Any, Any]:
    """Return the ends of C_t within [a, b] by bisection (draws on the last axis).

    The lower end is the least m that the bettor on "above m" does not reject (its capital
    falls with m), the upper end the greatest m the bettor on "below m" does not reject; each
    end is returned on the rejected side of the crossing (conservative), once the bracket is
    narrower than 1e-10 or after at most 60 halvings.
    """
    z, lam, lo, hi = (np.asarray(v, dtype=float) for v in (z, lam, lo, hi))
    level = np.log(2.0 / alpha)
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    ends = []
    for side in (0, 1):
        lo_m, hi_m = a.copy(), b.copy()
        start = _log_side(z, lam, lo, hi, a if side == 0 else b, side) >= level
        for _ in range(_BISECTIONS):
            if np.all(hi_m - lo_m < _TOLERANCE):
                break
            mid = 0.5 * (lo_m + hi_m)
            rej = _log_side(z, lam, lo, hi, mid, side) >= level
            if side == 0:
                lo_m, hi_m = np.where(rej, mid, lo_m), np.where(rej, hi_m, mid)
            else:
                lo_m, hi_m = np.where(rej, lo_m, mid), np.where(rej, mid, hi_m)
        ends.append(np.where(start, lo_m if side == 0 else hi_m, a if side == 0 else b))
    return ends[0], ends[1]


@dataclass
class BettingSequence:
    """The running state of one confidence sequence (two one-sided betting processes).

    Parameters
    ----------
    confidence_level : float
        1 − α: the probability that θ is inside every interval of the sequence.

    Notes
    -----
    :meth:`add` records one draw (its Z, its predictable bounds and the bet placed before it);
    :meth:`interval` returns the running intersection of the intervals at every look so far.
    A look costs one bisection over the draws so far (O(t) per step).

    Examples
    --------
    Fifty draws of a rate's unbiased terms Z in [0, 1] (here plain 0/1 labels, mean 0.3), each
    with a fixed bet of 0.5 on either side; the interval narrows as they arrive:

    >>> import numpy as np
    >>> import judgestats as js
    >>> seq = js.sequential.BettingSequence(confidence_level=0.95)
    >>> seq.interval()
    (0.0, 1.0)
    >>> for z in (np.random.default_rng(0).random(50) < 0.3):
    ...     seq.add(float(z), 0.0, 1.0, 0.5)
    >>> low, high = seq.interval()
    >>> round(low, 3), round(high, 3)
    (0.051, 0.443)
    """

    confidence_level: float
    z: list[float] = field(default_factory=list)
    lam: list[float] = field(default_factory=list)
    lo: list[float] = field(default_factory=list)
    hi: list[float] = field(default_factory=list)
    low_bound: float = -np.inf  # max_s lo_s
    high_bound: float = np.inf  # min_s hi_s
    _running: tuple[float, float] = (-np.inf, np.inf)
    _seen: int = -1  # draws at the last look

    @property
    def alpha(self) -> float:
        """α = 1 − confidence level."""
        return 1.0 - self.confidence_level

    @property
    def draws(self) -> int:
        """Draws recorded so far."""
        return len(self.z)

    def add(self, z: float, lo: float, hi: float, lam: float) -> None:
        """Record a draw: its value ``z`` in ``[lo, hi]`` and the bet ``lam`` placed before it."""
        self.z.append(float(z))
        self.lam.append(float(lam))
        self.lo.append(float(lo))
        self.hi.append(float(hi))
        # the bounds are exact in exact arithmetic (the last item of a pool pins θ): keep
        # rounding from excluding the truth by widening them by _SLACK
        self.low_bound = max(self.low_bound, float(lo) - _SLACK)
        self.high_bound = min(self.high_bound, float(hi) + _SLACK)

    def interval(self) -> tuple[float, float]:
        """Return the running intersection of the sequence's intervals, within [0, 1].

        Returns
        -------
        (low, high) : tuple of float
            [0, 1] itself before the first draw. The ends are conservative to 1e-10
            (bisection keeps the rejected side outside).
        """
        if self._seen == self.draws:  # nothing new since the last look
            return self._running
        self._seen = self.draws
        # the running intersection cannot widen: search only inside the last interval
        a = max(0.0, self.low_bound, self._running[0])
        b = min(1.0, self.high_bound, self._running[1])
        if self.draws and a < b:
            low, high = (float(e) for e in sequence_ends(
                self.z, self.lam, self.lo, self.hi, a, b, self.alpha
            ))
        else:
            low, high = a, b
        low, high = max(low, self._running[0]), min(high, self._running[1])
        if low > high:  # cannot happen for the truth; keep the output an interval
            mid = 0.5 * (low + high)
            low = high = mid
        self._running = (low, high)
        return low, high
