r"""Exact posterior of θ under the random and by-judge-label designs (no MCMC).

Under these designs the likelihood is three independent binomials (:mod:`judgestats.designs`):
π = P(judge = 1) from x of n_π judged items, PPV from tp of k1, FOR from fn of k0. With
independent Beta priors (flat by default) the posteriors are Beta(x + a, n_π − x + b),
Beta(tp + a, fp + b) and Beta(fn + a, tn + b), and θ = π·PPV + (1 − π)·FOR. Its distribution
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

from ._validation import ArgumentTypeError, check_choice
from .designs import design_counts
from .kernels import Bounds
from .posterior import gauss_beta

__all__ = ["DESIGN_POINTS", "design_posterior_bounds", "judge_conditional_cdf"]

#: Point summaries of the design posterior.
DESIGN_POINTS = ("mean", "median")
_NODES = 20
_BISECT = 44


def _beta_params(x, n_pi, tp, k1, fn, k0, prior: tuple[float, float]) -> list[np.ndarray]:
    a, b = prior
    return [x + a, n_pi - x + b, tp + a, k1 - tp + b, fn + a, k0 - fn + b]


def _sd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    s = a + b
    return np.sqrt(a * b / (s * s * (s + 1.0)))


class _Forms:
    """Nodes and weights for the three forms, and which form each data set uses."""

    def __init__(self, params: list[np.ndarray], n_nodes: int) -> None:
        from scipy.special import betainc  # lazy

        self.betainc = betainc
        api, bpi, a1, b1, a0, b0 = params
        self.params = params
        mean_pi, mean1, mean0 = api / (api + bpi), a1 / (a1 + b1), a0 / (a0 + b0)
        spread = np.stack([
            np.abs(mean1 - mean0) * _sd(api, bpi),  # form 0: π evaluated
            mean_pi * _sd(a1, b1),  # form 1: PPV evaluated
            (1.0 - mean_pi) * _sd(a0, b0),  # form 2: FOR evaluated
        ])  # fmt: skip
        self.form = np.argmax(spread, axis=0)
        self.mean = mean_pi * mean1 + (1.0 - mean_pi) * mean0
        self.nodes = [gauss_beta(a, b, n_nodes) for a, b in ((api, bpi), (a1, b1), (a0, b0))]

    def cdf(self, t: np.ndarray) -> np.ndarray:
        """P(θ <= t) per data set; ``t`` has shape (..., batch)."""
        (xp, wp), (x1, w1), (x0, w0) = self.nodes  # each (batch, N)
        api, bpi, a1, b1, a0, b0 = self.params
        tt = t[..., None, None]
        inc = self.betainc
        with np.errstate(divide="ignore", invalid="ignore"):
            # form 0: θ = FOR + π(PPV − FOR), π evaluated, (PPV, FOR) integrated
            d = x1[:, :, None] - x0[:, None, :]
            u = (tt - x0[:, None, :]) / d
            f0 = inc(api[:, None, None], bpi[:, None, None], np.clip(u, 0.0, 1.0))
            f0 = np.where(d > 0, f0, np.where(d < 0, 1.0 - f0, tt >= x0[:, None, :]))
            c0 = np.einsum("...bij,bi,bj->...b", f0, w1, w0)
            # form 1: PPV evaluated, (π, FOR) integrated
            u = (tt - (1.0 - xp[:, :, None]) * x0[:, None, :]) / xp[:, :, None]
            f1 = inc(a1[:, None, None], b1[:, None, None], np.clip(u, 0.0, 1.0))
            c1 = np.einsum("...bij,bi,bj->...b", f1, wp, w0)
            # form 2: FOR evaluated, (π, PPV) integrated
            u = (tt - xp[:, :, None] * x1[:, None, :]) / (1.0 - xp[:, :, None])
            f2 = inc(a0[:, None, None], b0[:, None, None], np.clip(u, 0.0, 1.0))
            c2 = np.einsum("...bij,bi,bj->...b", f2, wp, w1)
        return np.choose(self.form, [c0, c1, c2])

    def quantile(self, probs: np.ndarray) -> np.ndarray:
        """Quantiles per data set by bisection; ``probs`` has shape (k, batch)."""
        lo = np.zeros(probs.shape)
        hi = np.ones(probs.shape)
        for _ in range(_BISECT):
            mid = 0.5 * (lo + hi)
            below = self.cdf(mid) < probs
            lo = np.where(below, mid, lo)
            hi = np.where(below, hi, mid)
        return 0.5 * (lo + hi)


def _forms(test, calibration, design, prior, n_nodes=_NODES) -> tuple[_Forms, tuple[int, ...]]:
    counts = design_counts(test, calibration, design)
    shape = np.shape(counts[0])
    flat = [np.reshape(c, -1) for c in counts]
    return _Forms(_beta_params(*flat, prior), n_nodes), shape


def judge_conditional_cdf(test, calibration, design: str, t: Any, *, prior=(1.0, 1.0)) -> Any:
    """Posterior P(θ <= t) under ``design`` (flat Beta priors on π, PPV and FOR by default).

    ``t`` broadcasts against the batch shape of the counts; extra leading axes of ``t`` give
    several points per data set.
    """
    forms, shape = _forms(test, calibration, design, prior)
    t = np.asarray(t, dtype=float)
    full = np.broadcast_shapes(t.shape, shape)
    lead = full[: len(full) - len(shape)]
    tt = np.broadcast_to(t, full).reshape(int(np.prod(lead)), -1)
    return forms.cdf(tt).reshape(full)


def design_posterior_bounds(
    test, calibration, design: str, confidence_level: Any, *, point: str = "mean",
    interval: str = "eti", prior: Any = (1.0, 1.0),
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
