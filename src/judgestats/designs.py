"""Calibration designs: how the calibration items were chosen, and the estimator each allows.

=====================  ======================================================  =====================
design                 the calibration items were ...                          estimator of θ
=====================  ======================================================  =====================
``"by-human-label"``   chosen within the human-label classes (m0, m1 fixed,    Rogan–Gladen (paper
                       e.g. the paper's Algorithm 1), or any set whose label   eq. point-estimator)
                       mix may differ from the test set's (the default)
``"random"``           a simple random sample of the test population ("we      judge-conditional,
                       had humans label 200 random items of our eval set")     π̂ from all judged
                                                                               items (maximum
                                                                               likelihood)
``"by-judge-label"``   sampled within the judge-label strata of the test       judge-conditional,
                       pool (e.g. 100 items the judge passed, 100 it failed)   π̂ from the test pool
=====================  ======================================================  =====================

The judge-conditional estimator is θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂ with π = P(judge = 1),
PPV = P(human = 1 | judge = 1) = tp/(tp + fp) and FOR = P(human = 1 | judge = 0) = fn/(fn + tn)
(the paper's conditional-calibration estimator, estimator table row iv,
:func:`judgestats.kernels.judge_conditional_raw`). Under the random design the judge's label of
every item, test or calibration, is a draw of Bin(1, π), so π̂ = (positive + tp + fp)/(n + m);
the likelihood then factorises into Bin(n + m, π) × Bin(k1, PPV) × Bin(k0, FOR) (k1 = tp + fp,
k0 = fn + tn), whose maximum is this θ̂. Under the by-judge-label design the calibration's judge
labels were fixed by the design and say nothing about π, so π̂ = positive/n. Neither needs
q̂0 + q̂1 > 1, nor both human classes in the calibration set. Both assume that P(human | judge)
is the same on the calibration and the test items; the by-human-label design assumes only that
P(judge | human) is, which is why it survives label shift (paper, "Robust estimation under
distribution shift") and stays the default where the design is unknown.

:func:`design_check` is the guard rail of the random design: a random sample of the test
population has, up to sampling noise, the test set's judge-positive rate; a two-sample test
says when it does not (:class:`~judgestats.DesignWarning`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import CountError, DesignWarning, check_choice, check_positive_int, check_rng
from .counts import ConfusionCounts, JudgedCounts
from .kernels import (
    Bounds,
    draw_rate,
    g_statistic,
    judge_conditional_bounds,
    judge_conditional_categories,
    judge_conditional_parts,
    judge_conditional_raw,
    percentile_nan_last,
    z_value,
)

__all__ = [
    "DEFAULT_DESIGN",
    "DESIGNS",
    "DESIGN_ALPHA",
    "DesignCheck",
    "check_design",
    "design_check",
    "design_check_categories",
    "design_counts",
    "judge_conditional",
]

#: The calibration designs, the paper's first.
DESIGNS = ("by-human-label", "random", "by-judge-label")
#: Used where the design is not stated: valid whatever the calibration set's label mix.
DEFAULT_DESIGN = "by-human-label"
#: Two-sided level below which :func:`design_check` calls the random design implausible.
DESIGN_ALPHA = 0.01

#: What each design's estimator is called in results and reports.
ESTIMATOR = {
    "by-human-label": "Rogan–Gladen",
    "random": "judge-conditional (π̂ from all judged items)",
    "by-judge-label": "judge-conditional (π̂ from the test set)",
}
#: What reports cite for each design's estimator.
REFERENCE = {
    "by-human-label": "Lee et al. (2026), eq. (point-estimator); Rogan & Gladen (1978)",
    "random": "Lee et al. (2026), estimator table row iv, with π from test and calibration "
    "items, the maximum-likelihood estimator of a random calibration sample",
    "by-judge-label": "Lee et al. (2026), estimator table row iv, conditional calibration",
}


def check_design(design: Any) -> str:
    """Validate a design name (the error lists the valid ones)."""
    return check_choice("design", design, DESIGNS)


def _arrays(test: JudgedCounts, cal: ConfusionCounts) -> list[np.ndarray]:
    shape = np.broadcast_shapes(test.shape, cal.shape)
    fields = (test.positive, test.n, cal.tp, cal.fp, cal.fn, cal.tn)
    return [np.broadcast_to(np.asarray(a, dtype=float), shape) for a in fields]


def design_counts(
    test: JudgedCounts, calibration: ConfusionCounts, design: str
) -> tuple[np.ndarray, ...]:
    """Return the three binomials of the judge-conditional estimator: (x, n_π, tp, k1, fn, k0).

    π = P(judge = 1) from ``x`` of ``n_π`` judged items (test and calibration items under
    ``"random"``, test items under ``"by-judge-label"``), PPV from ``tp`` of ``k1`` = tp + fp,
    FOR from ``fn`` of ``k0`` = fn + tn. Arrays of the batch shape.
    """
    x, n, tp, fp, fn, tn = _arrays(test, calibration)
    k1, k0 = tp + fp, fn + tn
    if design == "random":
        x, n = x + k1, n + k1 + k0
    elif design != "by-judge-label":
        raise ValueError(f"design {design!r} has no judge-conditional estimator")
    return x, n, tp, k1, fn, k0


def _missing_cells(x, n, k1, k0) -> tuple[np.ndarray, np.ndarray]:
    """Masks: no judge-1 (judge-0) calibration item although π̂ > 0 (π̂ < 1)."""
    return (k1 == 0) & (x > 0), (k0 == 0) & (x < n)


def judge_conditional(
    test: JudgedCounts, calibration: ConfusionCounts, design: str
) -> tuple[np.ndarray, np.ndarray]:
    """Judge-conditional θ̂ for (batched) counts, and the mask of data sets where it is inexact.

    θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂ (:func:`design_counts` says where π̂ comes from). Where a
    judge class that π̂ gives weight has no calibration item, its conditional rate is not
    estimable; it enters as 1/2 (the add-one estimate (0 + 1)/(0 + 2)) and the mask is True.
    ``design="by-judge-label"`` raises :class:`CountError` there instead: that design chose the
    calibration items per judge label, so an empty judge class is a missing cell of the design.
    """
    x, n, tp, k1, fn, k0 = design_counts(test, calibration, design)
    no1, no0 = _missing_cells(x, n, k1, k0)
    if design == "by-judge-label" and (no1.any() or no0.any()):
        cell = "1 (tp + fp = 0)" if no1.any() else "0 (fn + tn = 0)"
        raise CountError(
            f"design='by-judge-label' needs calibration items of every judge label the test "
            f"set has, but no calibration item has judge label {cell}: P(human = 1 | judge = "
            f"{cell[0]}) cannot be estimated; label some, or declare design='random' if the "
            "calibration items were a random sample"
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        ppv = np.where(k1 > 0, tp / k1, 0.5)
        for_ = np.where(k0 > 0, fn / k0, 0.5)
        pi = x / n
    return judge_conditional_raw(pi, ppv, for_), no1 | no0


# ----------------------------------------------------------------------------- guard rail
@dataclass(frozen=True, slots=True)
class DesignCheck:
    """Judge-positive rate of the calibration set beside the test set's, with a z-test.

    Under ``design="random"`` the two estimate the same π = P(judge = 1). ``pvalue`` is the
    two-sided p-value of the pooled two-proportion z-test; ``plausible`` is False below
    :data:`DESIGN_ALPHA`. For k categories (:func:`design_check_categories`) the rates are the
    judge-label distributions and ``z`` holds the G statistic of their homogeneity test.
    """

    calibration_rate: Any
    test_rate: Any
    z: Any
    pvalue: Any

    @property
    def plausible(self) -> Any:
        """False where the two-sided p-value is below :data:`DESIGN_ALPHA`."""
        out = ~(np.asarray(self.pvalue) < DESIGN_ALPHA)
        return bool(out) if out.ndim == 0 else out


def design_check(test: JudgedCounts, calibration: ConfusionCounts) -> DesignCheck:
    """Test whether the calibration set's judge-positive rate is that of a random sample.

    Pooled two-proportion z-test of (tp + fp)/m against positive/n.

    Parameters
    ----------
    test : JudgedCounts
        Judged test counts: their judge-positive rate positive/n is the reference.
    calibration : ConfusionCounts
        Human-vs-judge calibration counts: their judge-positive rate is (tp + fp)/m.

    Returns
    -------
    DesignCheck
        Both rates, the z statistic and its two-sided p-value.
    """
    from scipy.special import ndtr  # lazy: keeps `import judgestats` light

    x, n, tp, fp, fn, tn = _arrays(test, calibration)
    k1, m = tp + fp, tp + fp + fn + tn
    a, b = k1 / m, x / n
    pooled = (k1 + x) / (m + n)
    se = np.sqrt(pooled * (1.0 - pooled) * (1.0 / m + 1.0 / n))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, (a - b) / se, 0.0)
    pvalue = 2.0 * ndtr(-np.abs(z))
    out = [float(v) if np.ndim(v) == 0 else v for v in (a, b, z, pvalue)]
    return DesignCheck(*out)


def design_check_categories(test_counts: Any, calibration_counts: Any) -> DesignCheck:
    """Test whether calibration and test share the judge-label mix (k-category design check).

    A likelihood-ratio (G) test of homogeneity of the two judge-label distributions
    (:func:`judgestats.kernels.g_statistic`), χ² with (letters used − 1) degrees of freedom.
    """
    from scipy.stats import chi2  # lazy

    t = np.asarray(test_counts, dtype=float)
    c = np.asarray(calibration_counts, dtype=float).sum(axis=1)
    table = np.stack([t, c])
    used = table.sum(axis=0) > 0
    g = g_statistic(table[:, used])
    df = max(int(used.sum()) - 1, 1)
    return DesignCheck(c / c.sum(), t / t.sum(), g, float(chi2.sf(g, df)))


def warn_if_implausible(check: DesignCheck, *, stacklevel: int = 3) -> None:
    """Warn :class:`DesignWarning` when the random design does not fit the judge-positive rates."""
    if not np.all(check.plausible):
        p = float(np.ravel(check.pvalue)[0])
        if np.size(check.calibration_rate) > 1 and np.ndim(check.pvalue) == 0:  # k categories
            what = "judge-label mix differs between calibration and test"
        else:
            cal, test = (float(np.ravel(v)[0]) for v in (check.calibration_rate, check.test_rate))
            what = f"judge-1 rate {cal:.3f} (calibration) vs {test:.3f} (test)"
        warnings.warn(
            f"design='random' not credible: {what}, p = {p:.1g}; help(js.DesignWarning)",
            DesignWarning,
            stacklevel=stacklevel,
        )


# ----------------------------------------------------------------------------- intervals
def _parts_bounds(test, calibration, design, confidence_level, *, adjusted: bool) -> Bounds:
    x, n_pi, tp, k1, fn, k0 = design_counts(test, calibration, design)
    est, _ = judge_conditional(test, calibration, design)
    z = z_value(confidence_level)
    low, high = judge_conditional_bounds(x, n_pi, tp, k1, fn, k0, z, adjusted=adjusted)
    if adjusted:  # the add-one interval must hold its own (add-one where inexact) estimate
        low, high = np.minimum(low, est), np.maximum(high, est)
    return Bounds(low, high, np.zeros(np.shape(low), dtype=np.int64), estimate=est)


def adjusted_wald_bounds(test, calibration, design, confidence_level) -> Bounds:
    """θ̃ ± z·se with pseudo-counts (:func:`judgestats.kernels.judge_conditional_parts`)."""
    return _parts_bounds(test, calibration, design, confidence_level, adjusted=True)


def wald_bounds(test, calibration, design, confidence_level) -> Bounds:
    """θ̂ ± z·se at the plain estimates (NaN where a judge class has no calibration item)."""
    out = _parts_bounds(test, calibration, design, confidence_level, adjusted=False)
    x, n, _, k1, _, k0 = design_counts(test, calibration, design)
    no1, no0 = _missing_cells(x, n, k1, k0)
    bad = no1 | no0
    return out._replace(low=np.where(bad, np.nan, out.low), high=np.where(bad, np.nan, out.high))


def _bootstrap_parts(test, calibration, design) -> list[np.ndarray]:
    """Flat (π̂, PPV̂, FOR̂, n_π, k1, k0) with the 1/2 rate (and one item) of an empty class."""
    x, n, tp, k1, fn, k0 = design_counts(test, calibration, design)
    with np.errstate(divide="ignore", invalid="ignore"):
        rates = [x / n, np.where(k1 > 0, tp / k1, 0.5), np.where(k0 > 0, fn / k0, 0.5)]
    return [np.reshape(a, -1) for a in (*rates, n, np.maximum(k1, 1), np.maximum(k0, 1))]


def _bootstrap_thetas(parts: list[np.ndarray], reps: int, gen: np.random.Generator):
    """θ* of ``reps`` parametric-bootstrap draws of the three binomials: (reps, batch)."""
    pi, ppv, fo, nn, kk1, kk0 = parts
    draws = [draw_rate(gen, r, s, (reps, pi.size))
             for r, s in ((pi, nn), (ppv, kk1), (fo, kk0))]  # fmt: skip
    return judge_conditional_raw(*draws)


def bootstrap_draws(test, calibration, design, reps: int, gen: np.random.Generator):
    """Parametric-bootstrap draws θ* of the judge-conditional estimate, shape (reps, batch)."""
    return _bootstrap_thetas(_bootstrap_parts(test, calibration, design), reps, gen)


def bootstrap_bounds(
    test, calibration, design, confidence_level, *, rng: Any = None, n_resamples: int = 9999
) -> Bounds:
    """Parametric percentile bootstrap of the three binomials (π, PPV, FOR).

    A judge class without calibration items is resampled at rate 1/2 (as it enters
    :func:`judge_conditional`), so no replicate is undefined.
    """
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    gen = check_rng(rng)
    est, _ = judge_conditional(test, calibration, design)
    flat = _bootstrap_parts(test, calibration, design)
    shape = np.shape(est)
    alpha = 1.0 - np.broadcast_to(np.asarray(confidence_level, float), shape).reshape(-1)
    size = flat[0].size
    low, high = np.empty(size), np.empty(size)
    chunk = max(1, 4_000_000 // n_resamples)
    for start in range(0, size, chunk):
        sl = slice(start, min(start + chunk, size))
        th = np.sort(_bootstrap_thetas([a[sl] for a in flat], n_resamples, gen), axis=0)
        valid = np.full(th.shape[1], n_resamples)
        low[sl] = percentile_nan_last(th, valid, alpha[sl] / 2.0)
        high[sl] = percentile_nan_last(th, valid, 1.0 - alpha[sl] / 2.0)
    return Bounds(low.reshape(shape), high.reshape(shape), np.zeros(shape, dtype=np.int64),
                  n_resamples, estimate=est)  # fmt: skip



# ----------------------------------------------------------------------------- strata
def stratified_bounds(
    test: JudgedCounts, calibration: ConfusionCounts, weights: Any, design: str,
    confidence_level: float, *, adjusted: bool = True,
) -> tuple[float, float, float]:  # fmt: skip
    """Pooled judge-conditional estimate and interval over strata (strata on the last axis).

    θ̂ = Σ_s w_s θ̂_s with each stratum's judge-conditional θ̂_s. ``weights=None`` estimates
    the mix from the judged items, w_s = N_s/N (N_s = n_s + m_s under ``"random"``, n_s under
    ``"by-judge-label"``), and adds its sampling variance; given weights are fixed. With the
    per-stratum parts of :func:`judgestats.kernels.judge_conditional_parts`,

        Var = Σ_s w_s² V_s + [mix estimated] Σ_s w_s (θ_s − Σ_t w_t θ_t)² / N,

    the interval is Σ_s w_s θ_s ± z·√Var (θ_s the pseudo-count estimates when ``adjusted``),
    truncated to [0, 1] and widened to hold θ̂. Returns (θ̂, low, high).
    """
    x, n_pi, tp, k1, fn, k0 = design_counts(test, calibration, design)
    z = float(z_value(confidence_level))
    parts = judge_conditional_parts(x, n_pi, tp, k1, fn, k0, z, adjusted=adjusted)
    est_s, _ = judge_conditional(test, calibration, design)
    if weights is None:
        w = n_pi / n_pi.sum()
        mix = np.sum(w * (parts["theta"] - np.sum(w * parts["theta"])) ** 2) / n_pi.sum()
    else:
        w, mix = np.asarray(weights, dtype=float), 0.0
    centre = float(np.sum(w * parts["theta"]))
    half = z * float(np.sqrt(np.sum(w**2 * parts["var"]) + mix))
    est = float(np.sum(w * est_s))
    low = min(max(centre - half, 0.0), est)
    high = max(min(centre + half, 1.0), est)
    return est, low, high


# ----------------------------------------------------------------------------- k categories
def judge_conditional_distribution(
    test_counts: Any, calibration_counts: Any, design: str, confidence_level: float, *,
    adjusted: bool = True, labels: Any = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Judge-conditional distribution over K human categories, with per-category intervals.

    ``test_counts`` (J,) judged test items per judge letter, ``calibration_counts`` (J, K)
    rows = judge letter, columns = human category. π_j from the judged items (test and
    calibration under ``"random"``, test under ``"by-judge-label"``), R[j] = P̂(human | judge
    = j); θ̂ = Σ_j π̂_j R̂[j] (a judge letter with weight but no calibration item enters as
    uniform over the K categories; ``"by-judge-label"`` refuses it). The interval of category
    k is θ_k ± z·√Cov_kk at the pseudo-count values of
    :func:`judgestats.kernels.judge_conditional_categories` (``adjusted``), truncated to
    [0, 1] and widened to hold θ̂_k. Returns (θ̂, low, high, covariance).
    """
    t = np.asarray(test_counts, dtype=float)
    c = np.asarray(calibration_counts, dtype=float)
    if design == "random":
        t = t + c.sum(axis=1)
    rows = c.sum(axis=1)
    missing = (rows == 0) & (t > 0)
    if design == "by-judge-label" and missing.any():
        j = int(np.argmax(missing))
        name = repr(labels[j]) if labels is not None else str(j)
        raise CountError(
            f"design='by-judge-label' needs calibration items of every judge label the test "
            f"set has, but judge label {name} has none: P(human | judge = {name}) cannot be "
            "estimated; label some, or declare design='random'"
        )
    k = c.shape[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(rows[:, None] > 0, c / rows[:, None], 1.0 / k)
    est = (t / t.sum()) @ r
    z = float(z_value(confidence_level))
    centre, cov = judge_conditional_categories(t, c, z, adjusted=adjusted)
    half = z * np.sqrt(np.clip(np.diag(cov), 0.0, None))
    low = np.minimum(np.clip(centre - half, 0.0, 1.0), est)
    high = np.maximum(np.clip(centre + half, 0.0, 1.0), est)
    return est, low, high, cov
