r"""How well does the judge agree with the humans: :func:`agreement` and its :class:`Agreement`.

The calibration set's judge × human table (rows = judge label, columns = human label, as in
:class:`~judgestats.ConfusionMatrix`) read as an agreement card:

* **always** the raw table and, per human class b and judge letter a, the rate
  P̂(judge = a | human = b) = c_ab / m_b with its Clopper–Pearson (exact) interval; for a
  judge that answers in the human categories the per-class agreement (recall) c_bb / m_b, which
  for two classes is the specificity q̂0 (class 0) and the sensitivity q̂1 (class 1) of the
  paper. Under the paper's design (``"by-human-label"``, m0/m1 fixed) and ``"random"`` they
  estimate the judge's rates; under ``"by-judge-label"`` they describe the calibration sample
  only (its items were drawn within judge labels);
* the **predictive** rates P(human = a | judge = a) (PPV for class 1, NPV for class 0), Cohen's
  κ and Gwet's AC1 depend on the human label mix. They are estimable from the calibration set
  when it samples that mix: PPV/NPV (Clopper–Pearson, the row of each judge letter a binomial)
  under ``"random"`` and ``"by-judge-label"``, κ and AC1 (delta method, below) under
  ``"random"`` only. Under the paper's design they depend on the chosen m0/m1: with a ``test``
  set they are *derived* through the corrected rate θ̂ (population table θ̂_b Ĉ[:, b]), and under
  ``"by-judge-label"`` through the judged mix π̂ (population table π̂_a R̂[a, :]), as point
  values without an interval; without a test set they are not given.

**κ and AC1 intervals** (``"random"``). κ = (p_a − p_e)/(1 − p_e) with p_a = Σ_k p_kk,
p_e = Σ_k r_k c_k (Cohen 1960); AC1 the same with p_e = Σ_k π_k(1 − π_k)/(K − 1),
π_k = (r_k + c_k)/2 (Gwet 2008). The interval is the delta method on the multinomial, on the
Fisher z = atanh scale: atanh(κ̂) ± z·se/(1 − κ̂²), with se² = [Σ p̃ g̃² − (Σ p̃ g̃)²]/m at
the table with :data:`PSEUDO_COUNT` added to every cell (p̃, and the gradient g̃ of the
coefficient there), mapped back by tanh. κ's interval is shown only when every human class and
every judge letter has at least :data:`MIN_KAPPA_MARGIN` calibration items: without the rule
coverage fell to 0.694 on two grids of 60 small random cells, with it the minimum was 0.934
(``benchmarks/results/agreement.md``, part B); AC1's is shown at every size measured (m >= 10,
min coverage 0.949). Neither is shown at ±1 (perfect agreement: no spread at the boundary).

**Repeated items** (counts built with ``cluster=``): each rate's design effect is the
sandwich (linearised) variance over items over its binomial variance
(:func:`judgestats.repeated.ratio_residuals`, with the module's 0/0 rule), and every interval
is the independent one at the effective size m / max(deff, 1): Clopper–Pearson at the
effective count and size (Dean & Pagano 2015), κ and AC1 with their variance times the design
effect of their linearisation over items. Where items repeat, a sandwich variance from G items
has about G − 1 degrees of freedom: κ and AC1 then use Student's t critical value, and the
Clopper–Pearson interval is taken at the level whose normal critical value is that t (with z
alone, cells of 20 items fell to 0.91 coverage).

References
----------
Clopper, C. J. & Pearson, E. S. (1934). Biometrika 26, 404–413.
Cohen, J. (1960). A coefficient of agreement for nominal scales. Educ. Psychol. Meas. 20, 37–46.
Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the presence of high
agreement. Br. J. Math. Stat. Psychol. 61, 29–48.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    StrataMismatchError,
    check_confidence_level,
)
from ..counts import ConfusionCounts, JudgedCounts
from ..counts.categories import CategoryCounts, ConfusionMatrix
from ..designs import DEFAULT_DESIGN, Design, JudgeConditionalDesign, RoganGladenDesign, as_design
from ..kernels import (
    clip_unit,
    clopper_pearson_bounds,
    rogan_gladen_raw,
    wilson_bounds,
    z_value,
)
from ..repeated import pooled_design_effects, ratio_residuals, t_critical
from ..results import ConfidenceInterval

__all__ = [
    "COEFFICIENTS",
    "MIN_KAPPA_MARGIN",
    "PSEUDO_COUNT",
    "Agreement",
    "AgreementRate",
    "agreement",
    "coefficient",
    "coefficient_bounds",
]

#: The chance-corrected agreement coefficients: Cohen's κ and Gwet's AC1.
COEFFICIENTS = ("kappa", "ac1")
#: κ's interval is shown only when every human class and judge letter has this many items.
MIN_KAPPA_MARGIN = 5
#: Added to every cell of the table where the coefficients' variance is evaluated.
PSEUDO_COUNT = 0.5
#: Interval method names.
EXACT = "clopper-pearson"
DELTA = "delta-atanh"


# ----------------------------------------------------------------------------- coefficients
def coefficient(p: Any, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """κ or AC1 of cell probabilities ``p`` (..., K, K) and its gradient ∂/∂p_ij (..., K, K).

    f = (p_a − p_e)/(1 − p_e), so ∂f = [∂p_a (1 − p_e) − ∂p_e (1 − p_a)]/(1 − p_e)²
    with ∂p_a/∂p_ij = [i = j] and ∂p_e/∂p_ij = c_i + r_j (κ; r, c the row and column
    margins) or [(1 − 2π_i) + (1 − 2π_j)]/(2(K − 1)) (AC1). NaN where p_e = 1.
    """
    p = np.asarray(p, dtype=float)
    k = p.shape[-1]
    r, c = p.sum(axis=-1), p.sum(axis=-2)
    pa = np.trace(p, axis1=-2, axis2=-1)
    if kind == "kappa":
        pe = (r * c).sum(axis=-1)
        dpe = c[..., :, None] + r[..., None, :]
    else:
        pi = (r + c) / 2.0
        pe = (pi * (1.0 - pi)).sum(axis=-1) / (k - 1)
        half = (1.0 - 2.0 * pi) / 2.0
        dpe = (half[..., :, None] + half[..., None, :]) / (k - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(pe < 1.0, (pa - pe) / (1.0 - pe), np.nan)
        e = (1.0 - pe)[..., None, None]
        grad = (np.eye(k) * e - dpe * (1.0 - pa)[..., None, None]) / e**2
    return value, grad


def coefficient_bounds(
    tables: Any, kind: str, confidence_level: Any, *, design_effect: Any = 1.0,
    df: float = np.inf,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """κ or AC1 of count tables (..., K, K) with the module's delta-atanh interval.

    Returns (estimate, low, high); NaN where the coefficient is undefined, and bounds NaN
    where it is ±1 (perfect agreement: the multinomial delta method has no spread there and
    the atanh scale would give the vacuous (−1, 1)). Repeated items:
    ``design_effect`` multiplies the variance and the critical value is Student's t with
    ``df`` (items − 1) degrees of freedom.
    """
    t = np.asarray(tables, dtype=float)
    k = t.shape[-1]
    m = t.sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        est, _ = coefficient(t / m[..., None, None], kind)
        pt = (t + PSEUDO_COUNT) / (m + PSEUDO_COUNT * k * k)[..., None, None]
        _, g = coefficient(pt, kind)
        var = ((pt * g * g).sum(axis=(-2, -1)) - (pt * g).sum(axis=(-2, -1)) ** 2) / m
        se = np.sqrt(np.maximum(var, 0.0) * np.asarray(design_effect, dtype=float))
        f = np.clip(est, -1.0 + 1e-9, 1.0 - 1e-9)
        half = t_critical(float(confidence_level), df) * se / (1.0 - f * f)
        low, high = np.tanh(np.arctanh(f) - half), np.tanh(np.arctanh(f) + half)
    bad = np.isnan(est) | (np.abs(est) >= 1.0 - 1e-12)
    return est, np.where(bad, np.nan, low), np.where(bad, np.nan, high)


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True)
class AgreementRate:
    """One agreement figure: its estimate, interval (or None) and what it rests on.

    Attributes
    ----------
    name : str
        E.g. ``"sensitivity"``, ``"PPV"``, ``"kappa"``, ``"P(judge='a' | human='b')"``.
    estimate : float
        The point value (NaN where undefined).
    ci : ConfidenceInterval or None
        None where the design does not make it estimable from the calibration set, or (κ)
        below :data:`MIN_KAPPA_MARGIN`; ``note`` says which.
    count, size : float
        Numerator and denominator rows (the table's m for κ and AC1).
    effective_size : float
        ``size`` over the design effect (repeated items; ``size`` otherwise).
    source : str
        ``"calibration"`` or ``"derived through θ̂"`` / ``"derived through π̂"``.
    note : str
        Why there is no interval, when there is none.
    """

    name: str
    estimate: float
    ci: ConfidenceInterval | None
    count: float
    size: float
    effective_size: float
    source: str = "calibration"
    note: str = ""

    def text(self, digits: int = 3, *, short: bool = False) -> str:
        """``0.900 [0.820, 0.951]`` (or the estimate and the note; ``short``: a word)."""
        if np.isnan(self.estimate):
            return "undefined"
        est = f"{self.estimate:.{digits}f}"
        if self.ci is None:
            word = self.source if self.source != "calibration" else "no interval"
            return f"{est} ({word if short else self.note or self.source})"
        return f"{est} [{self.ci.low:.{digits}f}, {self.ci.high:.{digits}f}]"


def _binary(kind: str, index: int, doc: str) -> Any:
    """Return a read-only :class:`AgreementRate` of a two-class card (``_binary_rate``)."""
    return property(lambda self: self._binary_rate(kind, index), doc=doc)


@dataclass(frozen=True, slots=True)
class Agreement:
    """How well a judge agrees with the humans on a calibration set (see :func:`agreement`).

    Attributes
    ----------
    counts : ndarray of int, shape (J, K)
        The judge × human table (rows = judge letter, columns = human category).
    labels, judge_labels : tuple
        The K human categories and the J judge letters.
    design : Design
        How the calibration items were chosen (:mod:`judgestats.designs`; a ``str``, its name).
    confidence_level : float
        Level of every interval.
    conditional : tuple of tuple of AgreementRate
        Row a, entry b: P(judge = a | human = b), Clopper–Pearson.
    recall : tuple of AgreementRate or None
        Per human class, P(judge = b | human = b) (square tables; for two classes
        specificity, sensitivity).
    precision : tuple of AgreementRate or None
        Per judge letter, P(human = a | judge = a) (NPV, PPV for two classes).
    sensitivity, specificity, ppv, npv : AgreementRate
        Two classes judged 0/1 (properties): q̂1 = P(judge = 1 | human = 1),
        q̂0 = P(judge = 0 | human = 0), P(human = 1 | judge = 1), P(human = 0 | judge = 0).
    kappa, ac1 : AgreementRate or None
        Cohen's κ and Gwet's AC1 (square tables).
    buys : str or None
        What the agreement buys the corrected rate (two classes;
        :func:`judgestats.plan.judge_vs_human`).
    regime : Regime or None
        The θ range where the calibrated judge beats human-only labelling (two classes).
    design_effects : dict or None
        Repeated items: each figure's design effect.
    items : int or None
        Repeated items: the calibration items (clusters).
    notes : tuple of str
        What is estimable under the design, and why a figure has no interval.
    strata : dict or None
        Per-stratum Agreements when ``calibration`` was a mapping (this one pools them).

    Examples
    --------
    Made by :func:`agreement`:

    >>> import judgestats as js
    >>> card = js.agreement(js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30), design="random",
    ...                     confidence_level=0.95)
    >>> card  # doctest: +NORMALIZE_WHITESPACE
    Agreement(specificity=0.700, sensitivity=0.900, NPV=0.875, PPV=0.750; m=200,
    design='random', confidence_level=0.95)
    >>> round(card.kappa.estimate, 3), card.kappa.ci  # doctest: +NORMALIZE_WHITESPACE
    (0.6, ConfidenceInterval(low=0.479551, high=0.698258, method='delta-atanh',
    confidence_level=0.95))
    """

    counts: np.ndarray
    labels: tuple
    judge_labels: tuple
    design: Design
    confidence_level: float
    conditional: tuple
    recall: tuple | None
    precision: tuple | None
    kappa: AgreementRate | None
    ac1: AgreementRate | None
    buys: str | None = None
    regime: Any = None
    design_effects: dict | None = None
    items: int | None = None
    notes: tuple[str, ...] = ()
    strata: dict | None = field(default=None)
    method: str = EXACT
    coefficient_method: str = DELTA

    @property
    def m(self) -> int:
        """Calibration rows."""
        return int(self.counts.sum())

    @property
    def binary(self) -> bool:
        """True for two human classes judged 0/1."""
        return self.counts.shape == (2, 2) and self.labels == self.judge_labels

    sensitivity = _binary("recall", 1, "q̂1 = P(judge = 1 | human = 1) (two classes).")
    specificity = _binary("recall", 0, "q̂0 = P(judge = 0 | human = 0) (two classes).")
    ppv = _binary("precision", 1, "P(human = 1 | judge = 1) (two classes).")
    npv = _binary("precision", 0, "P(human = 0 | judge = 0) (two classes).")

    def _binary_rate(self, kind: str, index: int) -> AgreementRate:
        rates = getattr(self, kind)
        if not self.binary or rates is None:
            raise ArgumentTypeError(
                "sensitivity, specificity, PPV and NPV are the two-class figures; this table "
                f"is {self.counts.shape[0]} × {self.counts.shape[1]}: use .recall / .precision"
            )
        return rates[index]

    def figures(self) -> list[AgreementRate]:
        """Every figure of the card, in the order the summary prints them."""
        out = list(self.recall or ()) + list(self.precision or ())
        out += [r for r in (self.kappa, self.ac1) if r is not None]
        if self.recall is None:
            out = [r for row in self.conditional for r in row] + out
        return out

    def to_dataframe(self) -> Any:
        """One tidy row per figure: name, estimate, ci_low, ci_high, count, size, source."""
        import pandas as pd

        return pd.DataFrame([
            {"figure": r.name, "estimate": r.estimate,
             "ci_low": None if r.ci is None else r.ci.low,
             "ci_high": None if r.ci is None else r.ci.high,
             "count": r.count, "size": r.size, "effective_size": r.effective_size,
             "source": r.source, "note": r.note, "design": self.design,
             "confidence_level": self.confidence_level} for r in self.figures()
        ])  # fmt: skip

    def summary(self) -> str:
        """Return the card as text: table, figures, what the agreement buys, notes."""
        from .card import summary_text

        return summary_text(self)

    def report(self, format: str = "markdown", *, figure: bool = True, digits: int = 3) -> str:
        """Render the card as ``"markdown"``, ``"latex"`` or ``"html"``."""
        from .card import report_text

        return report_text(self, format=format, figure=figure, digits=digits)

    def plot(self, ax: Any = None) -> Any:
        """Draw the judge × human table as a heat map with counts; returns the Axes."""
        from .card import heatmap

        return heatmap(self, ax=ax)

    def __repr__(self) -> str:
        shown = ", ".join(f"{r.name}={r.estimate:.3f}" for r in self.figures()[:4])
        return (
            f"Agreement({shown}; m={self.m}, design={self.design!r}, "
            f"confidence_level={self.confidence_level:g})"
        )


# ----------------------------------------------------------------------------- the table
#: ConfusionCounts' cluster fields (tp, fn, tn, fp) in the table's row-major order
#: (judge 0: tn, fn; judge 1: fp, tp).
_BINARY_ORDER = [2, 1, 3, 0]


@dataclass(frozen=True, slots=True)
class _Table:
    counts: np.ndarray  # (J, K)
    labels: tuple
    judge_labels: tuple
    totals: np.ndarray | None  # (G, J*K) item totals, or None (one row per item)


def _as_table(calibration: Any, name: str = "calibration") -> _Table:
    if isinstance(calibration, ConfusionCounts):
        if calibration.shape:
            raise ArgumentTypeError(
                f"{name} must hold one calibration set, got a batch of shape {calibration.shape}"
            )
        c = np.array([[calibration.tn, calibration.fn], [calibration.fp, calibration.tp]])
        cl = calibration.clusters
        totals = None if cl is None else cl.totals[:, _BINARY_ORDER]
        return _Table(c.astype(np.int64), (0, 1), (0, 1), totals)
    if isinstance(calibration, ConfusionMatrix):
        cl = calibration.clusters
        return _Table(np.asarray(calibration.counts, dtype=np.int64), tuple(calibration.labels),
                      tuple(calibration.judge_labels), None if cl is None else cl.totals)
    raise ArgumentTypeError(
        f"{name} must be a ConfusionCounts or a ConfusionMatrix (or a mapping of strata to "
        f"them), got {type(calibration).__name__}"
    )


def _pooled_table(tables: list[_Table], keys: list) -> _Table:
    """Add the strata's tables; items with one id across strata are one item."""
    first = tables[0]
    for key, t in zip(keys, tables, strict=True):
        if (t.labels, t.judge_labels) != (first.labels, first.judge_labels):
            raise StrataMismatchError(
                f"stratum {key!r} has labels {list(t.labels)} × {list(t.judge_labels)}, not "
                f"{list(first.labels)} × {list(first.judge_labels)} as stratum {keys[0]!r}"
            )
    counts = sum((t.counts for t in tables), np.zeros_like(first.counts))
    if all(t.totals is None for t in tables):
        return _Table(counts, first.labels, first.judge_labels, None)
    rows = [t.totals if t.totals is not None else _singletons(t.counts) for t in tables]
    return _Table(counts, first.labels, first.judge_labels, np.concatenate(rows))


def _singletons(counts: np.ndarray) -> np.ndarray:
    """One item per row: the unit vector of each cell, repeated by its count."""
    flat = counts.ravel()
    return np.repeat(np.eye(flat.size, dtype=np.int64), flat, axis=0)


# ----------------------------------------------------------------------------- rates
def _ratio_rates(table: _Table, num: np.ndarray, den: np.ndarray, level: float) -> list:
    """Rates num·c / den·c (masks (R, J·K)) with Clopper–Pearson at the effective size."""
    flat = table.counts.ravel().astype(float)
    k, m = num @ flat, den @ flat
    deff, levels = np.ones(k.shape), np.full(k.shape, level)
    if table.totals is not None:
        t = table.totals.astype(float)
        a, b = t @ num.T, t @ den.T
        rate, _, cross = ratio_residuals(a, b, np.ones(len(t)))
        items = (b > 0).sum(axis=0).astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            v_clu = items / (items - 1.0) * np.diag(cross)
            v_bin = rate * (1.0 - rate) / (m - 1.0)
        deff, pooled = pooled_design_effects(v_clu, v_bin, items, m)
        # no design effect defined: each item counts once (rows per item), an exact count of
        # items with no sandwich variance estimated, so no t correction (repeated's 0/0 rule)
        repeats = (b > 1).any(axis=0) & ~pooled.all()
        df = np.where(repeats, np.maximum(items - 1.0, 1.0), np.inf)
        levels = np.array([_t_level(level, d) for d in df])
    eff = m / np.maximum(deff, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        est = k / m
    low, high = clopper_pearson_bounds(est * eff, eff, levels)
    return [(float(e), float(lo), float(hi), float(kk), float(mm), float(ef), float(d))
            for e, lo, hi, kk, mm, ef, d in zip(est, low, high, k, m, eff, deff, strict=True)]


def _t_level(level: float, df: float) -> float:
    """Return the normal level whose two-sided critical value is Student's t with ``df``.

    A sandwich variance from G items has about G − 1 degrees of freedom
    (:mod:`judgestats.repeated`); the Clopper–Pearson interval at the effective size is taken
    at this level (``level`` itself where no item repeats, df = ∞).
    """
    if not np.isfinite(df):
        return level
    from scipy.special import ndtr  # lazy: keeps `import judgestats` light

    return float(2.0 * ndtr(t_critical(level, df)) - 1.0)


def _rate(name: str, row: tuple, level: float, note: str = "") -> AgreementRate:
    est, low, high, k, m, eff, _ = row
    ci = None
    if m > 0 and not note:
        ci = ConfidenceInterval(low, high, EXACT, level)
    elif m == 0:
        note = note or "no calibration items"
    return AgreementRate(name, est, ci, k, m, eff, "calibration", note)


def _masks(j: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Masks over the row-major J × K cells: each human class's column, each letter's row."""
    cells = np.arange(j * k)
    col = (cells[None, :] % k == np.arange(k)[:, None]).astype(float)
    row = (cells[None, :] // k == np.arange(j)[:, None]).astype(float)
    return col, row


def _coefficients(table: _Table, level: float) -> list:
    """κ and AC1 from the calibration table (``"random"``), with the shown-interval rule."""
    c = table.counts.astype(float)
    margins = min(c.sum(axis=0).min(), c.sum(axis=1).min())
    out = []
    for kind, name in (("kappa", "kappa"), ("ac1", "AC1")):
        deff, df = _coefficient_deff(table, kind) if table.totals is not None else (1.0, np.inf)
        est, low, high = coefficient_bounds(c, kind, level, design_effect=max(deff, 1.0), df=df)
        m = float(c.sum())
        note = ""
        if np.isnan(est):
            note = "undefined: every item in one category"
        elif np.isnan(low):
            note = ("no interval: perfect agreement on the calibration items (the delta method "
                    "has no spread at the boundary)")  # fmt: skip
        elif kind == "kappa" and margins < MIN_KAPPA_MARGIN:
            note = (f"no interval: a class or judge letter has {int(margins)} < "
                    f"{MIN_KAPPA_MARGIN} items (MIN_KAPPA_MARGIN)")  # fmt: skip
        ci = None if note else ConfidenceInterval(float(low), float(high), DELTA, level)
        out.append(AgreementRate(name, float(est), ci, float(np.trace(c)), m,
                                 m / max(deff, 1.0), "calibration", note))  # fmt: skip
    return out


def _coefficient_deff(table: _Table, kind: str) -> tuple[float, float]:
    """Design effect of κ or AC1 (sandwich variance of its linearisation over items), df."""
    t = np.asarray(table.totals, dtype=float)
    flat = table.counts.ravel().astype(float)
    m = flat.sum()
    _, g = coefficient((flat / m).reshape(table.counts.shape), kind)
    g = g.ravel()
    e = (t @ g - t.sum(axis=1) * ((flat / m) @ g)) / m  # each item's linearised residual
    items = float((t.sum(axis=1) > 0).sum())
    v_clu = items / (items - 1.0) * float(e @ e) if items > 1 else np.nan
    p = flat / m
    v_bin = (p @ g**2 - (p @ g) ** 2) / (m - 1.0) if m > 1 else np.nan
    deff, _ = pooled_design_effects(np.array([v_clu]), np.array([v_bin]), np.array([items]),
                                    np.array([m]))  # fmt: skip
    repeats = bool((t.sum(axis=1) > 1).any())
    return float(deff[0]), max(items - 1.0, 1.0) if repeats else np.inf


def _derived(table: _Table, mix: np.ndarray, design: Design) -> list:
    """PPV/NPV-style precision, κ and AC1 of the population table, point values only.

    Through the conditional the design transfers: P(judge | human) (``"by-human-label"``),
    P[a, b] = θ̂_b Ĉ[a, b], or P(human | judge) (:attr:`Design.predictive_estimable`,
    ``"by-judge-label"``), P[a, b] = π̂_a R̂[a, b].
    """
    c = table.counts.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        if design.predictive_estimable:
            pop = c / c.sum(axis=1)[:, None] * mix[:, None]
            source = "derived through π̂"
        else:
            pop = c / c.sum(axis=0) * mix[None, :]
            source = "derived through θ̂"
        pop = np.nan_to_num(pop)
        precision = np.diag(pop) / pop.sum(axis=1)
    note = "point value: depends on the test set's estimated mix, no interval"
    prec = [AgreementRate(_precision_name(table, a), float(precision[a]), None, np.nan, np.nan,
                          np.nan, source, note) for a in range(c.shape[0])]  # fmt: skip
    coef = [AgreementRate(name, float(coefficient(pop, kind)[0]), None, np.nan, np.nan,
                          np.nan, source, note)
            for kind, name in (("kappa", "kappa"), ("ac1", "AC1"))]  # fmt: skip
    return [prec, *coef]


def _precision_name(table: _Table, a: int) -> str:
    if table.counts.shape == (2, 2) and table.labels == (0, 1):
        return ("NPV", "PPV")[a]
    return f"P(human={table.labels[a]!r} | judge={table.labels[a]!r})"


def _recall_name(table: _Table, b: int) -> str:
    if table.counts.shape == (2, 2) and table.labels == (0, 1):
        return ("specificity", "sensitivity")[b]
    return f"P(judge={table.labels[b]!r} | human={table.labels[b]!r})"


# ----------------------------------------------------------------------------- the card
def agreement(
    calibration: Any,
    test: Any = None,
    *,
    design: str = DEFAULT_DESIGN,
    confidence_level: float = 0.95,
) -> Agreement:
    """How well the judge agrees with the humans: the agreement card of a calibration set.

    Parameters
    ----------
    calibration : ConfusionCounts, ConfusionMatrix or mapping of them
        The human × judge counts (binary, K categories or a judge alphabet; ``cluster=``
        counts give cluster-aware intervals). A mapping (stratum → counts) gives one card per
        stratum in ``strata`` and the card of the strata added together.
    test : JudgedCounts, CategoryCounts or mapping of them, optional
        The judged test set (per stratum, for a mapping). Under ``"by-human-label"`` it gives
        the corrected rate θ̂ (paper eq. (7), clipped; k categories
        :func:`judgestats.correct_distribution`) through which PPV/NPV, κ and AC1 are derived;
        under ``"by-judge-label"`` the judged mix π̂.
    design : str or Design, default "by-human-label"
        How the calibration items were chosen, one of :func:`judgestats.designs.design_names`
        (module docstring: what each makes estimable).
    confidence_level : float, default 0.95
        Level of every interval.

    Returns
    -------
    Agreement
        The table, the rates with their intervals, what the agreement buys, the notes.

    See Also
    --------
    judge_shift_test : Whether the judge's error rates moved between two samples.
    chance.judge_value : What the judge is worth over human labels alone.
    correct : Correct the judge's pass rate.

    Examples
    --------
    >>> import judgestats as js
    >>> card = js.agreement(js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30), design="random")
    >>> round(card.sensitivity.estimate, 2), round(card.ppv.estimate, 2)
    (0.9, 0.75)
    """
    design = as_design(design)
    level = float(check_confidence_level(confidence_level))
    if isinstance(calibration, Mapping):
        return _stratified(calibration, test, design, level)
    return _card(_as_table(calibration), test, design, level)


def _stratified(calibration: Mapping, test: Any, design: Design, level: float) -> Agreement:
    keys = list(calibration)
    if not keys:
        raise StrataMismatchError("calibration is an empty mapping: give at least one stratum")
    if test is not None and (not isinstance(test, Mapping) or set(test) != set(keys)):
        raise StrataMismatchError(
            f"test must be a mapping with the calibration's strata {keys!r}, got "
            f"{list(test) if isinstance(test, Mapping) else type(test).__name__}"
        )
    tables = [_as_table(calibration[k], f"calibration[{k!r}]") for k in keys]
    strata = {k: _card(t, None if test is None else test[k], design, level)
              for k, t in zip(keys, tables, strict=True)}  # fmt: skip
    pooled = _card(_pooled_table(tables, keys), None, design, level, test is not None)
    note = (f"pooled over {len(keys)} strata (their tables added; test sets are used per "
            "stratum only)")  # fmt: skip
    return replace(pooled, strata=strata, notes=(*pooled.notes, note))


def _card(table: _Table, test: Any, design: Design, level: float,
          tested: bool = False) -> Agreement:
    j, k = table.counts.shape
    col, row = _masks(j, k)
    cond = _ratio_rates(table, np.eye(j * k), col[np.arange(j * k) % k], level)
    names = [[f"P(judge={table.judge_labels[a]!r} | human={table.labels[b]!r})"
              for b in range(k)] for a in range(j)]  # fmt: skip
    conditional = tuple(tuple(_rate(names[a][b], cond[a * k + b], level) for b in range(k))
                        for a in range(j))  # fmt: skip
    square = table.labels == table.judge_labels
    recall = precision = kappa = ac1 = None
    notes = list(_design_notes(design, square, tested or test is not None))  # strata's tests
    deffs: dict[str, float] = {}
    if square:
        diag = np.eye(j * k)[[b * k + b for b in range(k)]]
        rec = _ratio_rates(table, diag, col, level)
        recall = tuple(_rate(_recall_name(table, b), rec[b], level) for b in range(k))
        deffs.update({r.name: rec[b][6] for b, r in enumerate(recall)})
        precision, kappa, ac1 = _mix_figures(table, test, design, level, diag, row, deffs)
    regime, buys = _buys(table, recall, test, design, level)
    totals = table.totals
    return Agreement(
        counts=table.counts, labels=table.labels, judge_labels=table.judge_labels,
        design=design, confidence_level=level, conditional=conditional, recall=recall,
        precision=precision, kappa=kappa, ac1=ac1, buys=buys, regime=regime,
        design_effects=None if totals is None else deffs,
        items=None if totals is None else int((totals.sum(axis=1) > 0).sum()),
        notes=tuple(notes),
    )  # fmt: skip


def _mix_figures(table, test, design, level, diag, row, deffs) -> tuple:
    """Precision (PPV/NPV), κ and AC1: from the calibration set, derived, or None.

    Precision is the calibration set's where P(human | judge) is estimable from it
    (:attr:`Design.predictive_estimable`); κ and AC1 where its items are a sample of the test
    population (:attr:`Design.calibration_samples_test`); otherwise, with a test set, they are
    derived through its mix.
    """
    k = table.counts.shape[1]
    precision = kappa = ac1 = None
    if design.predictive_estimable:
        pre = _ratio_rates(table, diag, row, level)
        precision = tuple(_rate(_precision_name(table, a), pre[a], level) for a in range(k))
        deffs.update({r.name: pre[a][6] for a, r in enumerate(precision)})
    if design.calibration_samples_test:
        kappa, ac1 = _coefficients(table, level)
    elif test is not None:
        prec, kappa, ac1 = _derived(table, _mix(table, test, design, level), design)
        precision = precision or tuple(prec)
    return precision, kappa, ac1


def _mix(table: _Table, test: Any, design: Design, level: float) -> np.ndarray:
    """π̂, the judged mix (:attr:`Design.predictive_estimable`), or θ̂, the corrected rate."""
    if table.counts.shape == (2, 2) and isinstance(test, JudgedCounts):
        if design.predictive_estimable:
            return np.array([1.0 - test.p_hat, test.p_hat])
        (tn, fn), (fp, tp) = table.counts.tolist()
        q0, q1 = tn / max(tn + fp, 1), tp / max(tp + fn, 1)
        theta, _ = clip_unit(rogan_gladen_raw(test.p_hat, q0, q1))  # NaN: judge at chance
        return np.array([1.0 - float(theta), float(theta)])
    if isinstance(test, CategoryCounts):
        if tuple(test.labels) != table.judge_labels:
            raise StrataMismatchError(
                f"test labels {list(test.labels)} must be the calibration's judge labels "
                f"{list(table.judge_labels)}, in that order"
            )
        if design.predictive_estimable:
            return np.asarray(test.p_hat, dtype=float)
        from ..multiclass import correct_distribution

        matrix = ConfusionMatrix(table.counts, table.labels)
        est = correct_distribution(test, matrix, confidence_level=level).estimate
        return np.array([est[b] for b in table.labels], dtype=float)
    raise ArgumentTypeError(
        "test must be a JudgedCounts (two classes) or a CategoryCounts (k categories), got "
        f"{type(test).__name__}"
    )


def _design_notes(design: Design, square: bool, has_test: bool) -> list[str]:
    """List what the design makes estimable, where the card gives less than every figure."""
    notes = []
    if not design.youden_estimable:
        notes.append(f"{design.words}: the rates per human class describe the calibration "
                     "sample only (drawn within judge labels), not the judge")
    if not square:
        notes.append("judge alphabet: no per-class agreement, PPV/NPV, kappa or AC1 (the "
                     "judge's letters are not the human categories)")
    elif not (has_test or design.calibration_samples_test):  # a mix is missing
        notes.append(
            f"{design.words}: kappa and AC1 need the judged mix; pass test="
            if design.predictive_estimable else
            f"{design.words} (m0/m1 fixed by design): PPV/NPV, kappa and AC1 depend on the "
            "chosen mix and are not given; pass test= to derive them through the corrected rate"
        )  # fmt: skip
    return notes


def _buys(table: _Table, recall: Any, test: Any, design: Design, level: float) -> tuple:
    """Say what the agreement buys (two classes): judge_vs_human's θ range and a width.

    Only where the per-class rates describe the judge (:attr:`Design.youden_estimable`); θ is
    the calibration's human rate where its items sample the test population, else 1/2, or the
    corrected rate of a test set. Repeated items: both widths are at the effective sizes
    (:func:`_effective_sizes`).
    """
    from ..plan import judge_vs_human

    if recall is None or table.counts.shape != (2, 2) or not design.youden_estimable:
        return None, None
    q0, q1 = recall[0].estimate, recall[1].estimate
    if np.isnan(q0 + q1):
        return None, None  # a human class without items: no rates to plan with
    if not (q0 + q1 > 1.0):
        return None, ("the judge is no better than chance on these items (sensitivity + "
                      "specificity <= 1): it buys the corrected rate nothing")  # fmt: skip
    m0, m1 = (int(v) for v in table.counts.sum(axis=0))
    regime = judge_vs_human(q0, q1, design=design)
    theta = m1 / (m0 + m1) if design.calibration_samples_test else 0.5
    if test is not None and isinstance(test, JudgedCounts):
        theta = float(np.clip((test.p_hat + q0 - 1.0) / (q0 + q1 - 1.0), 0.0, 1.0))
    p = theta * q1 + (1.0 - theta) * (1.0 - q0)
    n = None if test is None else getattr(test, "n", None)
    width_of, how, within = _WIDTHS[design.family]
    (e0, e1), humans, said = _effective_sizes(table, within, level)
    try:
        width = width_of(design, e0, e1, p=p, q0=q0, q1=q1, n=n, level=level)
    except JudgeStatsError:
        width = float("nan")
    lo, hi = wilson_bounds(theta * humans, humans, z_value(level))
    where = ("at no θ" if regime is None else
             f"for θ in [{regime.low:.2f}, {regime.high:.2f}]")  # fmt: skip
    text = (f"At θ = {theta:.2f}{'' if n is None else f' and n = {n}'}, these m0 = {m0}, "
            f"m1 = {m1} labels{said[0]} give the corrected rate a {level:.0%} interval "
            f"{width:.3f} wide ({how}"
            f"{', n → ∞' if n is None else ''}); the same {m0 + m1} human labels alone"
            f"{said[1]} give {float(hi - lo):.3f} (Wilson). The calibrated judge has lower "
            f"variance than human-only labelling {where} (plan.judge_vs_human, m → ∞{said[2]}).")
    return regime, text


def _effective_sizes(table: _Table, within: str, level: float) -> tuple:
    """(m0, m1) and m for :func:`_buys`, with words; repeated items: the effective sizes.

    Rows over the design effect (:func:`_ratio_rates`) of the estimator's two calibration
    rates (``within="human"``: q̂0, q̂1; ``"judge"``: NPV̂, PPV̂) and of the human rate.
    """
    m0, m1 = (float(v) for v in table.counts.sum(axis=0))
    if table.totals is None:
        return (m0, m1), m0 + m1, ("", "", "")
    col, row = _masks(2, 2)
    pair = _ratio_rates(table, np.eye(4)[[0, 3]], col if within == "human" else row, level)
    e0, e1 = pair[0][5], pair[1][5]
    humans = _ratio_rates(table, col[1:], np.ones((1, 4)), level)[0][5]
    items = int((table.totals.sum(axis=1) > 0).sum())
    a, b = ("m0", "m1") if within == "human" else ("k0", "k1")
    said = f" ({items} items: effective {a} = {e0:.0f}, {b} = {e1:.0f})"
    return (e0, e1), humans, (said, f" (effective {humans:.0f})", ", rows as items")


def _paper_width(design: Design, m0: int, m1: int, **at: Any) -> float:
    """Return the adjusted-Wald width at these m0 and m1 (Rogan–Gladen designs)."""
    from ..plan import interval_width

    return float(interval_width(m0, m1, p=at["p"], q0=at["q0"], q1=at["q1"], n=at["n"],
                                confidence_level=at["level"]))  # fmt: skip


def _conditional_width(design: Design, m0: int, m1: int, **at: Any) -> float:
    """Return the design's judge-conditional width with m0 + m1 calibration items."""
    from ..designs.plan import design_width, n_value

    width, _ = design_width(m0 + m1, p=at["p"], q0=at["q0"], q1=at["q1"], n=n_value(at["n"]),
                            z=z_value(at["level"]), design=design)  # fmt: skip
    return width


#: What the agreement buys, by the design's estimator family (:attr:`Design.family`): the
#: width of the corrected rate's interval with the calibration's labels, its words, and
#: within which labels the estimator's calibration rates are (their effective sizes).
_WIDTHS = {
    RoganGladenDesign.family: (_paper_width, "adjusted-Wald, plan.interval_width", "human"),
    JudgeConditionalDesign.family: (_conditional_width,
                                    "judge-conditional, designs.plan.design_width", "judge"),
}
