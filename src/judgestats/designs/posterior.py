r"""Exact posterior of θ under the random and by-judge-label designs (no MCMC).

Under these designs the likelihood is three independent binomials (:mod:`judgestats.designs`):
π = P(judge = 1) from x of n_π judged items, PPV from tp of k1, FOR from fn of k0. With
independent Beta(a, b) priors the posteriors are Beta(x + a, n_π − x + b),
Beta(tp + a, fp + b) and Beta(fn + a, tn + b), and θ = π·PPV + (1 − π)·FOR. The default is
Jeffreys' prior, a = b = 1/2: a conditional rate estimated from a handful of items (PPV or FOR
when θ is near 0 or 1) is pulled hard toward 1/2 by a flat prior, and the credible interval
misses (coverage 0.66 with flat priors against 0.93 with Jeffreys' at θ = 0.98, judge
(0.8, 0.8), m = 20; benchmarks/results/designs.md measures the grid). Its distribution
function is a two-dimensional integral of a Beta distribution function,

    P(θ <= t) = E[ F_PPV((t − (1 − π)·FOR)/π) ]     (and the two other forms),

taken by Gauss–Jacobi rules (:func:`judgestats.posterior.gauss_beta`) over the two variables
that spread θ least, with the one that spreads θ most (standard deviation times its
coefficient) evaluated exactly by its regularised incomplete Beta function, so the integrand
is smooth on the scale of the nodes. Quantiles are found by bisection on that distribution
function; the mean is exact, E[θ] = E[π]E[PPV] + (1 − E[π])E[FOR]. The interval is
equal-tailed; point summaries are the posterior mean or median. Vectorised over data sets.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import ArgumentTypeError, check_choice
from ..kernels import Bounds
from ..posterior import gauss_beta
from .estimator import design_counts

__all__ = [
    "DESIGN_POINTS",
    "JEFFREYS",
    "design_posterior_bounds",
    "judge_conditional_cdf",
    "posterior_draws",
]

#: Point summaries of the design posterior.
DESIGN_POINTS = ("mean", "median")
#: Jeffreys' prior Beta(1/2, 1/2), the default of π, PPV and FOR.
JEFFREYS = (0.5, 0.5)
_NODES = 16
_BISECT = 36


def _beta_params(x, n_pi, tp, k1, fn, k0, prior: tuple[float, float]) -> list[np.ndarray]:
    a, b = prior
    return [x + a, n_pi - x + b, tp + a, k1 - tp + b, fn + a, k0 - fn + b]


def _sd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    s = a + b
    return np.sqrt(a * b / (s * s * (s + 1.0)))


class _Forms:
    """Nodes and weights of the form each data set uses, and its distribution function."""

    def __init__(self, params: list[np.ndarray], n_nodes: int) -> None:
        api, bpi, a1, b1, a0, b0 = params
        self.params = params
        mean_pi, mean1, mean0 = api / (api + bpi), a1 / (a1 + b1), a0 / (a0 + b0)
        sd_pi, sd1, sd0 = _sd(api, bpi), _sd(a1, b1), _sd(a0, b0)
        spread = np.stack([
            np.abs(mean1 - mean0) * sd_pi,  # form 0: π evaluated, (PPV, FOR) integrated
            mean_pi * sd1,  # form 1: PPV evaluated, (π, FOR) integrated
            (1.0 - mean_pi) * sd0,  # form 2: FOR evaluated, (π, PPV) integrated
        ])  # fmt: skip
        self.form = np.argmax(spread, axis=0)
        self.mean = mean_pi * mean1 + (1.0 - mean_pi) * mean0
        # a bracket of the mass: the delta-method sd, with room (quantiles come by bisection)
        self.sd = np.sqrt(np.sum(spread**2, axis=0))
        self.nodes = [gauss_beta(a, b, n_nodes) for a, b in ((api, bpi), (a1, b1), (a0, b0))]

    def cdf(self, t: np.ndarray) -> np.ndarray:
        """P(θ <= t) per data set; ``t`` has shape (k, batch)."""
        out = np.empty(t.shape)
        for form in (0, 1, 2):
            idx = np.flatnonzero(self.form == form)
            if idx.size:
                out[:, idx] = self._cdf_form(form, idx, t[:, idx])
        return out

    def _cdf_form(self, form: int, idx: np.ndarray, t: np.ndarray) -> np.ndarray:
        from scipy.special import betainc  # lazy

        (xp, wp), (x1, w1), (x0, w0) = ((x[idx], w[idx]) for x, w in self.nodes)
        a, b = (self.params[2 * form][idx], self.params[2 * form + 1][idx])
        tt = t[..., None, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            if form == 0:  # θ = FOR + π(PPV − FOR)
                d = x1[:, :, None] - x0[:, None, :]
                f = betainc(a[:, None, None], b[:, None, None],
                            np.clip((tt - x0[:, None, :]) / d, 0.0, 1.0))  # fmt: skip
                f = np.where(d > 0, f, np.where(d < 0, 1.0 - f, tt >= x0[:, None, :]))
                wi, wj = w1, w0
            elif form == 1:  # PPV = (θ − (1 − π)·FOR)/π
                u = (tt - (1.0 - xp[:, :, None]) * x0[:, None, :]) / xp[:, :, None]
                f = betainc(a[:, None, None], b[:, None, None], np.clip(u, 0.0, 1.0))
                wi, wj = wp, w0
            else:  # FOR = (θ − π·PPV)/(1 − π)
                u = (tt - xp[:, :, None] * x1[:, None, :]) / (1.0 - xp[:, :, None])
                f = betainc(a[:, None, None], b[:, None, None], np.clip(u, 0.0, 1.0))
                wi, wj = wp, w1
        return np.einsum("...bij,bi,bj->...b", f, wi, wj)

    def quantile(self, probs: np.ndarray) -> np.ndarray:
        """Quantiles per data set by bisection; ``probs`` has shape (k, batch)."""
        lo = np.broadcast_to(np.clip(self.mean - 12.0 * self.sd, 0.0, 1.0), probs.shape)
        hi = np.broadcast_to(np.clip(self.mean + 12.0 * self.sd, 0.0, 1.0), probs.shape)
        # widen to [0, 1] where the bracket misses (heavy tails of tiny samples)
        lo = np.where(self.cdf(lo) > probs, 0.0, lo)
        hi = np.where(self.cdf(hi) < probs, 1.0, hi)
        for _ in range(_BISECT):
            mid = 0.5 * (lo + hi)
            below = self.cdf(mid) < probs
            lo = np.where(below, mid, lo)
            hi = np.where(below, hi, mid)
        return 0.5 * (lo + hi)


def _forms(test, calibration, design, prior, n_nodes=_NODES) -> tuple[_Forms, tuple[int, ...]]:
    counts = design_counts(test, calibration, design)
    shape = np.shape(counts[0])
    x, n_pi, tp, k1, fn, k0 = (np.reshape(c, -1) for c in counts)
    return _Forms(_beta_params(x, n_pi, tp, k1, fn, k0, prior), n_nodes), shape


def judge_conditional_cdf(test, calibration, design: str, t: Any, *, prior=JEFFREYS) -> Any:
    """Posterior P(θ <= t) under ``design`` (Jeffreys' Beta(1/2, 1/2) priors by default).

    ``t`` broadcasts against the batch shape of the counts; extra leading axes of ``t`` give
    several points per data set.
    """
    forms, shape = _forms(test, calibration, design, prior)
    t = np.asarray(t, dtype=float)
    full = np.broadcast_shapes(t.shape, shape)
    lead = full[: len(full) - len(shape)]
    tt = np.broadcast_to(t, full).reshape(int(np.prod(lead)), -1)
    return forms.cdf(tt).reshape(full)


def posterior_draws(test, calibration, design: str, draws: int, gen: Any,
                    prior: Any = JEFFREYS) -> np.ndarray:  # fmt: skip
    """Exact (Monte Carlo) draws of θ from the design posterior, shape (draws, batch)."""
    x, n_pi, tp, k1, fn, k0 = (np.reshape(c, -1) for c in design_counts(test, calibration, design))
    a, b = (float(v) for v in prior)
    api, bpi, a1, b1, a0, b0 = _beta_params(x, n_pi, tp, k1, fn, k0, (a, b))
    size = (draws, api.size)
    pi = gen.beta(api, bpi, size)
    return pi * gen.beta(a1, b1, size) + (1.0 - pi) * gen.beta(a0, b0, size)


def design_posterior_bounds(
    test, calibration, design: str, confidence_level: Any, *, point: str = "mean",
    interval: str = "eti", prior: Any = JEFFREYS,
) -> Bounds:  # fmt: skip
    """Equal-tailed credible interval and the posterior mean or median, batched."""
    point = check_choice("point", point, DESIGN_POINTS)
    if interval != "eti":
        raise ArgumentTypeError(
            f"interval={interval!r} is not available for design={design!r}: its posterior "
            "gives equal-tailed intervals (interval='eti')"
        )
    a, b = (float(v) for v in prior)
    if not (a > 0 and b > 0):
        raise ArgumentTypeError(f"prior must be two positive Beta parameters, got {prior!r}")
    forms, shape = _forms(test, calibration, design, (a, b))
    alpha = 1.0 - np.broadcast_to(np.asarray(confidence_level, float), shape).reshape(-1)
    probs = np.stack([alpha / 2.0, 1.0 - alpha / 2.0, np.full(alpha.shape, 0.5)])
    low, high, median = forms.quantile(probs)
    est = forms.mean if point == "mean" else median
    return Bounds(low.reshape(shape), high.reshape(shape), np.zeros(shape, dtype=np.int64),
                  estimate=est.reshape(shape))  # fmt: skip
