"""A confidence sequence by betting: the one home of its formulas.

Let Z_1, Z_2, … be random variables whose conditional mean given the past is one unknown
number θ, with bounds ``lo_t <= Z_t <= hi_t`` fixed before Z_t is seen (predictable). For any
candidate m, the capital of a gambler who bets λ_t >= 0 on "the mean is above m",

    K⁺_t(m) = Π_{s<=t} (1 + λ_s (Z_s − m)),

is a nonnegative martingale when m = θ, provided ``1 + λ_s (Z_s − m) >= 0`` whatever Z_s turns
out to be. Ville's inequality then gives P(sup_t K⁺_t(θ) >= 2/α) <= α/2; likewise for
K⁻_t(m) = Π (1 − λ_s (Z_s − m)). So, with probability >= 1 − α, θ is in

    C_t = [max_s lo_s, min_s hi_s] ∩ {m : K⁺_t(m) < 2/α} ∩ {m : K⁻_t(m) < 2/α}

at *every* t at once (Waudby-Smith & Ramdas 2024, "Estimating means of bounded random variables
by betting", JRSS-B 86(1), §§3–4; two one-sided bets at α/2 each, their eq. (27) with a union
bound in place of the hedge). Because every λ_s does not depend on m, K⁺_t(m) falls and
K⁻_t(m) rises with m, so C_t is an interval and its ends are found by bisection; the running
intersection of the C_t is a confidence sequence too.

The bet (their "predictable plug-in", eq. (26), on the scale of each Z_t):

    λ_t = min( c / (hi_t − lo_t), sqrt( 2 log(2/α) / (σ_t² · h_t) ) ),

with σ_t² a predictable estimate of Var(Z_t | past), c = 1/2 (truncation, so that
``1 + λ (Z − m) >= 1 − c > 0`` for every m in [lo_t, hi_t]; outside it m ≠ θ) and h_t the
*horizon*: ``t log(1 + t)`` (their choice, tight at no time in particular) or a fixed number of
draws n*, which makes the sequence tightest near n* (at n* its half-width is about
sqrt(2 log(2/α)) σ / sqrt(n*), 1.39× the fixed-sample 1.96 σ / sqrt(n*) at 95%).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["TRUNCATION", "BettingSequence", "bet", "log_capital", "sequence_ends"]

#: c in λ_t <= c / (hi_t − lo_t): the capital never loses more than half of itself on one draw
TRUNCATION = 0.5
_BISECTIONS = 60
_SLACK = 1e-12


def bet(alpha: float, variance: Any, lo: Any, hi: Any, horizon: Any) -> Any:
    """Return the bet λ_t of the predictable plug-in (Waudby-Smith & Ramdas 2024, eq. 26).

    Parameters
    ----------
    alpha : float
        1 − confidence level.
    variance : float or ndarray
        Predictable estimate of Var(Z_t | past).
    lo, hi : float or ndarray
        Predictable bounds of Z_t.
    horizon : float or ndarray
        h_t: ``t log(1 + t)`` or the number of draws the sequence is tuned for.

    Returns
    -------
    float or ndarray
        λ_t >= 0, truncated at ``TRUNCATION / (hi − lo)`` (0 where ``hi <= lo``: nothing to
        learn from a draw whose value is known).
    """
    span = np.asarray(hi, dtype=float) - np.asarray(lo, dtype=float)
    lam = np.sqrt(2.0 * np.log(2.0 / alpha) / (np.maximum(variance, 1e-12) * horizon))
    with np.errstate(divide="ignore"):
        out = np.where(span > 0, np.minimum(TRUNCATION / span, lam), 0.0)
    return out.item() if out.ndim == 0 else out


def log_capital(z: Any, lam: Any, m: Any) -> tuple[Any, Any]:
    """(log K⁺_t(m), log K⁻_t(m)): the two bettors' log capital after the draws on the last axis.

    ``z`` and ``lam`` hold the draws (last axis) of one or many replays; ``m`` broadcasts
    against their leading axes.
    """
    dev = np.asarray(lam) * (np.asarray(z) - np.asarray(m)[..., None])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log1p(dev).sum(axis=-1), np.log1p(-dev).sum(axis=-1)


def sequence_ends(z: Any, lam: Any, a: Any, b: Any, alpha: float) -> tuple[Any, Any]:
    """Return the ends of C_t within [a, b] by bisection (draws on the last axis).

    The lower end is the least m that the bettor on "above m" does not reject (its capital
    falls with m), the upper end the greatest m the bettor on "below m" does not reject; each
    end is returned on the rejected side of the crossing (conservative).
    """
    level = np.log(2.0 / alpha)
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    ends = []
    for side in (0, 1):
        lo_m, hi_m = a.copy(), b.copy()
        start = log_capital(z, lam, a if side == 0 else b)[side] >= level
        for _ in range(_BISECTIONS):
            mid = 0.5 * (lo_m + hi_m)
            rej = log_capital(z, lam, mid)[side] >= level
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
    """

    confidence_level: float
    z: list[float] = field(default_factory=list)
    lam: list[float] = field(default_factory=list)
    low_bound: float = -np.inf  # max_s lo_s
    high_bound: float = np.inf  # min_s hi_s
    _running: tuple[float, float] = (-np.inf, np.inf)

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
        # the bounds are exact in exact arithmetic (the last item of a pool pins θ): keep
        # rounding from excluding the truth by widening them by _SLACK
        self.low_bound = max(self.low_bound, float(lo) - _SLACK)
        self.high_bound = min(self.high_bound, float(hi) + _SLACK)

    def interval(self, clip: tuple[float, float] = (0.0, 1.0)) -> tuple[float, float]:
        """Return the running intersection of the sequence's intervals, within ``clip``.

        Returns
        -------
        (low, high) : tuple of float
            ``clip`` itself before the first draw. The ends are conservative to ~1e-15
            (bisection keeps the rejected side outside).
        """
        a = max(clip[0], self.low_bound)
        b = min(clip[1], self.high_bound)
        if self.draws and a < b:
            low, high = (float(e) for e in sequence_ends(self.z, self.lam, a, b, self.alpha))
        else:
            low, high = a, b
        low, high = max(low, self._running[0]), min(high, self._running[1])
        if low > high:  # cannot happen for the truth; keep the output an interval
            mid = 0.5 * (low + high)
            low = high = mid
        self._running = (low, high)
        return low, high
