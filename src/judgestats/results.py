"""Result objects (frozen dataclasses) returned by the corrections."""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .counts import ConfusionCounts, JudgedCounts
from .shift import LabelShiftDiagnostic

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    import xarray as xr

__all__ = ["ConfidenceInterval", "Correction"]


@dataclass(frozen=True, slots=True)
class ConfidenceInterval:
    """A two-sided interval ``[low, high]`` with the method and level that produced it.

    ``low, high = ci`` unpacks it. For the bootstrap, ``n_resamples`` is the number of
    replicates and ``undefined`` how many of them had no estimate (judge not informative in the
    resample); those are excluded from the percentiles and a ``SamplingWarning`` is issued.
    """

    low: float
    high: float
    method: str
    confidence_level: float
    undefined: int = 0
    n_resamples: int | None = None
    #: True when a boundary rule replaced an interval that truncation would have collapsed to
    #: the single point 0 or 1 (see :func:`judgestats.adjusted_wald_interval`)
    widened: bool = False

    def __iter__(self):
        yield self.low
        yield self.high

    @property
    def width(self) -> float:
        """Width ``high − low``."""
        return self.high - self.low

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high

    def __repr__(self) -> str:
        extra = f", undefined={self.undefined}/{self.n_resamples}" if self.n_resamples else ""
        extra += ", widened=True" if self.widened else ""
        return (
            f"ConfidenceInterval(low={self.low:.6g}, high={self.high:.6g}, "
            f"method={self.method!r}, confidence_level={self.confidence_level:g}{extra})"
        )


@dataclass(frozen=True, slots=True)
class Correction:
    """A bias-corrected rate θ̂ with its interval, from :func:`judgestats.correct`.

    Attributes
    ----------
    estimate : float
        Rogan–Gladen θ̂ clipped to [0, 1] (paper eq. point-estimator).
    ci : ConfidenceInterval
        Interval from ``method`` at ``confidence_level``.
    estimate_unclipped : float
        θ̂ before clipping; differs from ``estimate`` exactly when ``clipped`` is True.
    clipped : bool
        True when θ̂ fell outside [0, 1] (a ``ClippedEstimateWarning`` was issued).
    method, confidence_level
        How ``ci`` was computed.
    test, calibration : JudgedCounts, ConfusionCounts
        The data (sufficient statistics).
    label_shift : LabelShiftDiagnostic
        Calibration human-positive rate beside θ̂ with a z-test of their difference.
    """

    estimate: float
    ci: ConfidenceInterval
    estimate_unclipped: float
    clipped: bool
    method: str
    confidence_level: float
    test: JudgedCounts
    calibration: ConfusionCounts
    label_shift: LabelShiftDiagnostic

    # -- derived fields (the contract's names) -----------------------------------------
    @property
    def naive(self) -> float:
        """p̂ = positive / n, the uncorrected judged rate."""
        return self.test.p_hat

    @property
    def sensitivity(self) -> float:
        """q̂1 = tp / m1."""
        return self.calibration.sensitivity

    @property
    def specificity(self) -> float:
        """q̂0 = tn / m0."""
        return self.calibration.specificity

    @property
    def n(self) -> int:
        """Test-set size."""
        return self.test.n

    @property
    def m0(self) -> int:
        """Calibration items with human label 0."""
        return self.calibration.m0

    @property
    def m1(self) -> int:
        """Calibration items with human label 1."""
        return self.calibration.m1

    @property
    def calibration_rate(self) -> float:
        """Human-positive rate of the calibration set, m1 / m (label-mix diagnostic)."""
        return self.label_shift.calibration_rate

    # -- recomputation ---------------------------------------------------------------
    def confidence_interval(
        self,
        method: str = "adjusted-wald",
        confidence_level: float = 0.95,
        *,
        rng: Any = None,
        **options: Any,
    ) -> ConfidenceInterval:
        """Recompute the interval for the same data by another method or level.

        Parameters
        ----------
        method : str, default "adjusted-wald"
            Any name in :func:`judgestats.interval_methods`.
        confidence_level : float, default 0.95
            Two-sided level, strictly inside (0, 1).
        rng : None, int, SeedSequence or Generator
            For resampling methods.
        **options
            Method options, e.g. ``n_resamples`` for ``"bootstrap"``.
        """
        from .correct import interval_for

        return interval_for(
            self.test,
            self.calibration,
            method=method,
            confidence_level=confidence_level,
            rng=rng,
            stacklevel=3,
            **options,
        )

    # -- presentation ----------------------------------------------------------------
    def _row(self) -> dict[str, Any]:
        t, c = self.test, self.calibration
        return {
            "estimate": self.estimate,
            "ci_low": self.ci.low,
            "ci_high": self.ci.high,
            "method": self.method,
            "confidence_level": self.confidence_level,
            "naive": self.naive,
            "sensitivity": self.sensitivity,
            "specificity": self.specificity,
            "n": t.n,
            "positive": t.positive,
            "m0": c.m0,
            "m1": c.m1,
            "tp": c.tp,
            "fn": c.fn,
            "tn": c.tn,
            "fp": c.fp,
            "clipped": self.clipped,
            "estimate_unclipped": self.estimate_unclipped,
            "calibration_rate": self.label_shift.calibration_rate,
            "label_shift_z": self.label_shift.z,
            "label_shift_pvalue": self.label_shift.pvalue,
        }

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict of the tidy row (JSON-serialisable)."""
        return {k: (v.item() if hasattr(v, "item") else v) for k, v in self._row().items()}

    def report(self, format: str = "markdown", **kwargs: Any) -> str:
        """Table plus methods sentence (``"markdown"``, ``"latex"`` or ``"html"``).

        See :func:`judgestats.report.report`.
        """
        from .report import report

        return report(self, format=format, **kwargs)

    def to_dataframe(self) -> pd.DataFrame:
        """One tidy row (pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame([self.to_dict()])

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset in ArviZ's interval layout.

        Variables ``estimate``, ``naive``, ``sensitivity``, ``specificity`` (scalars) and ``ci``
        with dim ``ci_bound = ["lower", "upper"]``; attrs ``ci_kind`` (the method) and
        ``ci_prob`` (the level), plus the counts.
        """
        import xarray as xr

        ds = xr.Dataset(
            {
                "estimate": self.estimate,
                "naive": self.naive,
                "sensitivity": self.sensitivity,
                "specificity": self.specificity,
                "ci": ("ci_bound", [self.ci.low, self.ci.high]),
            },
            coords={"ci_bound": ["lower", "upper"]},
        )
        row = self.to_dict()
        ds.attrs.update(
            ci_kind=self.method,
            ci_prob=self.confidence_level,
            clipped=int(self.clipped),
            **{k: row[k] for k in ("n", "positive", "tp", "fn", "tn", "fp")},
        )
        return ds

    def summary(self) -> str:
        """Return a short human-readable report."""
        lvl = f"{100 * self.confidence_level:g}%"
        t, c, s = self.test, self.calibration, self.label_shift
        lines = [
            f"Corrected rate (Rogan–Gladen), {lvl} interval by {self.method}",
            f"  corrected estimate   {self.estimate:.4f}  [{self.ci.low:.4f}, {self.ci.high:.4f}]",
            f"  naive judged rate    {self.naive:.4f}  ({t.positive} of {t.n} test items judged 1)",
            f"  judge sensitivity    {self.sensitivity:.4f}  ({c.tp} of m1 = {c.m1} human-1 items)",
            f"  judge specificity    {self.specificity:.4f}  ({c.tn} of m0 = {c.m0} human-0 items)",
            f"  calibration human rate {s.calibration_rate:.4f} (label-shift z = {s.z:.2f})",
        ]
        if self.clipped:
            lines.append(f"  note: θ̂ = {self.estimate_unclipped:.4f} was clipped to [0, 1]")
        if s.shifted:
            lines.append(
                "  note: calibration and test true rates differ; RG stays valid, "
                "estimators assuming equal mixes do not"
            )
        if self.ci.n_resamples and self.ci.undefined:
            lines.append(
                f"  note: {self.ci.undefined} of {self.ci.n_resamples} bootstrap replicates "
                "undefined"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"Correction(estimate={self.estimate:.4f}, ci=[{self.ci.low:.4f}, {self.ci.high:.4f}], "
            f"method={self.method!r}, confidence_level={self.confidence_level:g}, "
            f"naive={self.naive:.4f}, n={self.n}, m0={self.m0}, m1={self.m1}"
            + (", clipped=True" if self.clipped else "")
            + ")"
        )


# ------------------------------------------------------------------ k categories (multiclass.py)
@dataclass(frozen=True, slots=True, eq=False)
class DistributionCorrection:
    """A corrected k-category distribution with per-category intervals.

    Returned by :func:`judgestats.multiclass.correct_distribution` (paper appendix "Extension
    to Evaluations with More Than Two Categories": θ̂ = Ĉ⁻¹p̂).

    Attributes
    ----------
    labels : tuple
        The k categories, in order; every dict below is keyed by them in this order.
    estimate : dict
        Corrected probability of each category. On the simplex: Ĉ⁻¹p̂ when that is a
        distribution, else its constrained maximum-likelihood fit (``projected`` is True).
    ci : dict of ConfidenceInterval
        Per-category (marginal) interval from ``method`` at ``confidence_level``, truncated
        to [0, 1]; ``low, high = res.ci[label]`` unpacks one.
    estimate_unconstrained : dict
        Ĉ⁻¹p̂ itself (sums to one; may have negative entries).
    projected : bool
        True when Ĉ⁻¹p̂ left the simplex (a ``ProjectedEstimateWarning`` was issued).
    method, confidence_level
        How ``ci`` was computed.
    test : CategoryCounts
        Judged test counts per category.
    calibration : ConfusionMatrix
        Judge-by-human calibration counts (rows = judge label, columns = human label).
    condition_number : float
        2-norm condition number of Ĉ; ``max_condition`` is the threshold it passed.
    covariance : ndarray or None
        k × k covariance of the estimate used by the method (for ``"delta"``, the
        delta-method covariance at the adjusted values; for ``"bootstrap"``, that of the
        replicates); lets one build intervals for contrasts such as win − lose.
    """

    labels: tuple
    estimate: dict
    ci: dict
    estimate_unconstrained: dict
    projected: bool
    method: str
    confidence_level: float
    test: Any
    calibration: Any
    condition_number: float
    max_condition: float
    covariance: Any = None

    # -- derived fields ------------------------------------------------------------------
    @property
    def k(self) -> int:
        """Number of categories."""
        return len(self.labels)

    @property
    def naive(self) -> dict:
        """p̂: the judged category distribution, uncorrected."""
        return dict(zip(self.labels, self.test.p_hat.tolist(), strict=True))

    @property
    def confusion_matrix(self) -> Any:
        """Ĉ[a, b] = P̂(judge = a | human = b), k × k ndarray (rows = judge, columns = human)."""
        return self.calibration.matrix

    @property
    def judge_recall(self) -> dict:
        """Ĉ[b, b]: how often the judge gives true category b its own label."""
        return dict(zip(self.labels, self.calibration.matrix.diagonal().tolist(), strict=True))

    @property
    def human_counts(self) -> dict:
        """Calibration items per true (human) category, m_b."""
        return dict(zip(self.labels, self.calibration.human_counts.tolist(), strict=True))

    @property
    def n(self) -> int:
        """Test-set size."""
        return self.test.n

    @property
    def m(self) -> int:
        """Calibration-set size."""
        return self.calibration.m

    # -- recomputation -------------------------------------------------------------------
    def confidence_interval(
        self,
        method: str = "delta",
        confidence_level: float = 0.95,
        *,
        rng: Any = None,
        **options: Any,
    ) -> dict:
        """Recompute the per-category intervals by another method or level.

        Returns a dict label → :class:`ConfidenceInterval`; ``max_condition`` is the one the
        result was computed with. Options as in ``correct_distribution`` (``adjust``,
        ``n_resamples``).
        """
        from .multiclass import interval_set_for

        return interval_set_for(
            self.test,
            self.calibration,
            method=method,
            confidence_level=confidence_level,
            rng=rng,
            max_condition=self.max_condition,
            stacklevel=3,
            **options,
        )

    # -- presentation --------------------------------------------------------------------
    def _rows(self) -> list[dict[str, Any]]:
        naive, recall, m_b = self.naive, self.judge_recall, self.human_counts
        judged = dict(zip(self.labels, self.test.counts.tolist(), strict=True))
        return [
            {
                "category": lab,
                "estimate": self.estimate[lab],
                "ci_low": self.ci[lab].low,
                "ci_high": self.ci[lab].high,
                "naive": naive[lab],
                "estimate_unconstrained": self.estimate_unconstrained[lab],
                "judge_recall": recall[lab],
                "test_judged": judged[lab],
                "calibration_human": m_b[lab],
                "method": self.method,
                "confidence_level": self.confidence_level,
                "n": self.n,
                "m": self.m,
                "projected": self.projected,
                "condition_number": self.condition_number,
            }
            for lab in self.labels
        ]

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict (JSON-serialisable): the per-category rows and the matrix."""
        return {
            "labels": list(self.labels),
            "rows": self._rows(),
            "confusion_counts": self.calibration.counts.tolist(),
            "method": self.method,
            "confidence_level": self.confidence_level,
            "projected": self.projected,
            "condition_number": self.condition_number,
        }

    def to_dataframe(self) -> pd.DataFrame:
        """One tidy row per category (pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame(self._rows())

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset in ArviZ's interval layout.

        Variables ``estimate``, ``estimate_unconstrained``, ``naive``, ``judge_recall`` (dim
        ``category``), ``ci`` (dims ``category``, ``ci_bound = ["lower", "upper"]``) and
        ``confusion_matrix`` (dims ``judge_label``, ``human_label``); attrs ``ci_kind`` (the
        method), ``ci_prob`` (the level), ``projected``, ``condition_number``, ``n``, ``m``.
        """
        import xarray as xr

        labs = list(self.labels)
        ds = xr.Dataset(
            {
                "estimate": ("category", [self.estimate[v] for v in labs]),
                "estimate_unconstrained": (
                    "category",
                    [self.estimate_unconstrained[v] for v in labs],
                ),
                "naive": ("category", list(self.naive.values())),
                "judge_recall": ("category", list(self.judge_recall.values())),
                "ci": (
                    ("category", "ci_bound"),
                    [[self.ci[v].low, self.ci[v].high] for v in labs],
                ),
                "confusion_matrix": (("judge_label", "human_label"), self.confusion_matrix),
            },
            coords={
                "category": labs,
                "ci_bound": ["lower", "upper"],
                "judge_label": labs,
                "human_label": labs,
            },
        )
        ds.attrs.update(
            ci_kind=self.method,
            ci_prob=self.confidence_level,
            projected=int(self.projected),
            condition_number=self.condition_number,
            n=self.n,
            m=self.m,
        )
        return ds

    def summary(self) -> str:
        """Return a short human-readable report (one line per category)."""
        lvl = f"{100 * self.confidence_level:g}%"
        width = max(8, *(len(str(v)) for v in self.labels))
        naive, recall, m_b = self.naive, self.judge_recall, self.human_counts
        lines = [
            f"Corrected distribution over k = {self.k} categories (Ĉ⁻¹p̂), {lvl} intervals "
            f"by {self.method}",
            f"  {'category':<{width}}  corrected  [ lower,  upper]   naive  judge recall (m_b)",
        ]
        for v in self.labels:
            ci = self.ci[v]
            lines.append(
                f"  {v!s:<{width}}  {self.estimate[v]:9.4f}  [{ci.low:.4f}, {ci.high:.4f}]"
                f"  {naive[v]:.4f}  {recall[v]:.3f} ({m_b[v]})"
            )
        lines.append(
            f"  test items n = {self.n}; calibration items m = {self.m}; condition number of "
            f"Ĉ = {self.condition_number:.3g}"
        )
        if self.projected:
            raw = ", ".join(f"{v!s} {self.estimate_unconstrained[v]:.4f}" for v in self.labels)
            lines.append(
                f"  note: Ĉ⁻¹p̂ = ({raw}) lies outside the simplex; the estimate is its "
                "constrained maximum-likelihood fit"
            )
        first = self.ci[self.labels[0]]
        if first.n_resamples and first.undefined:
            lines.append(
                f"  note: {first.undefined} of {first.n_resamples} bootstrap replicates undefined"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        est = ", ".join(
            f"{v!r}: {self.estimate[v]:.4f} [{self.ci[v].low:.4f}, {self.ci[v].high:.4f}]"
            for v in self.labels
        )
        return (
            f"DistributionCorrection({{{est}}}, method={self.method!r}, "
            f"confidence_level={self.confidence_level:g}, n={self.n}, m={self.m}"
            + (", projected=True" if self.projected else "")
            + ")"
        )


__all__ += ["DistributionCorrection"]


# ------------------------------------------------------------------ comparisons (compare.py)
@dataclass(frozen=True, slots=True, eq=False)
class Comparison:
    """Difference θ_A − θ_B of two corrected rates, from :func:`judgestats.compare.difference`.

    Attributes
    ----------
    estimate : float
        θ̂_A − θ̂_B of the clipped Rogan–Gladen estimates (the posterior mean for ``"bayes"``).
    ci : ConfidenceInterval
        Interval for θ_A − θ_B from ``method`` at ``confidence_level``, truncated to [−1, 1].
    estimate_a, estimate_b : float
        The two corrected rates (posterior means for ``"bayes"``).
    naive : float
        p̂_A − p̂_B, the uncorrected judged difference.
    pvalue : float or None
        Two-sided p-value of H0: θ_A = θ_B (None for ``"bayes"`` and MOVER methods).
    prob_a_greater : float or None
        Posterior P(θ_A > θ_B) (``"bayes"`` only).
    standard_error : float or None
        Delta-method standard error (at the adjusted values for ``"adjusted-wald"``), the
        bootstrap or the posterior standard deviation; None for MOVER methods.
    test_a, test_b, calibration_a, calibration_b
        The data (``calibration_b is calibration_a`` when the calibration is shared).
    shared_calibration, paired : bool
        The design; ``pair_counts`` = (n11, n10, n01, n00) of the paired judge labels or None.
    method, confidence_level, names
        How the interval was computed, and the two models' labels.
    """

    estimate: float
    ci: ConfidenceInterval
    estimate_a: float
    estimate_b: float
    naive: float
    pvalue: float | None
    prob_a_greater: float | None
    standard_error: float | None
    test_a: JudgedCounts
    test_b: JudgedCounts
    calibration_a: ConfusionCounts
    calibration_b: ConfusionCounts
    shared_calibration: bool
    paired: bool
    pair_counts: tuple[int, int, int, int] | None
    method: str
    confidence_level: float
    names: tuple[str, str] = ("A", "B")

    @property
    def design(self) -> str:
        """``"shared calibration"`` or ``"independent calibrations"``, plus paired items."""
        base = "shared calibration" if self.shared_calibration else "independent calibrations"
        return base + (", paired test items" if self.paired else "")

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict of the tidy row (JSON-serialisable)."""
        from .compare import comparison_row

        return comparison_row(self)

    def to_dataframe(self) -> pd.DataFrame:
        """One tidy row (pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame([self.to_dict()])

    def summary(self) -> str:
        """Return a short human-readable report."""
        from .compare import comparison_summary

        return comparison_summary(self)

    def __repr__(self) -> str:
        from .compare import comparison_repr

        return comparison_repr(self)


@dataclass(frozen=True, slots=True, eq=False)
class Ranking:
    """Ranking of judged models by corrected rate, from :func:`judgestats.compare.rank`.

    Attributes
    ----------
    models : tuple of str
        Model names in input order; rows of the matrices below follow it.
    estimate, naive : dict
        Corrected rate (clipped Rogan–Gladen θ̂, or the posterior mean for ``"bayes"``) and the
        naive judged rate p̂ of each model.
    ci : dict of ConfidenceInterval
        Per-model interval from the joint draws (percentile / equal-tailed credible).
    order : tuple of str
        Point ranking by ``estimate``, best first (ties keep input order).
    rank_probabilities : ndarray, shape (K, K)
        ``[i, r]`` = P(model i is at rank r + 1); rows and columns each sum to 1.
    pairwise : ndarray, shape (K, K)
        ``[i, j]`` = P(θ_i > θ_j) (exact ties count one half; diagonal NaN).
    expected_kendall_tau : float
        Mean Kendall τ between a drawn ranking and the point ranking (1: the point ranking is
        certain).
    method, confidence_level, reps
        How the draws were made; ``undefined`` bootstrap replicates were excluded;
        ``effective_draws`` is the number of usable (for ``"bayes"``: effective
        importance-sampling) draws.
    shared_calibration : bool
        True when one calibration set served every model.
    """

    models: tuple
    estimate: dict
    naive: dict
    ci: dict
    order: tuple
    rank_probabilities: Any
    pairwise: Any
    expected_kendall_tau: float
    method: str
    confidence_level: float
    reps: int
    undefined: int
    effective_draws: float
    shared_calibration: bool

    def prob_greater(self, a: str, b: str) -> float:
        """P(θ_a > θ_b) for two ranked models."""
        from .compare import ranking_index

        return float(self.pairwise[ranking_index(self, a), ranking_index(self, b)])

    @property
    def expected_rank(self) -> dict:
        """Expected rank (1 = best) of each model."""
        from .compare import ranking_expected_rank

        return ranking_expected_rank(self)

    def to_dataframe(self) -> pd.DataFrame:
        """One row per model in point-ranking order: rank, estimate, ci, naive, P(rank r)."""
        from .compare import ranking_frame

        return ranking_frame(self)

    def pairwise_dataframe(self) -> pd.DataFrame:
        """P(θ_row > θ_column) as a labelled square frame (point-ranking order)."""
        from .compare import ranking_pairwise_frame

        return ranking_pairwise_frame(self)

    def plot(self, *, ax: Any = None, show_naive: bool = True):
        """Leaderboard: corrected rates with intervals, best at the top (returns the Axes)."""
        from .compare import plot_ranking

        return plot_ranking(self, ax=ax, show_naive=show_naive)

    def summary(self) -> str:
        """Return a short human-readable leaderboard."""
        from .compare import ranking_summary

        return ranking_summary(self)

    def __repr__(self) -> str:
        top = ", ".join(f"{m}={self.estimate[m]:.3f}" for m in self.order)
        return (
            f"Ranking({top}; method={self.method!r}, expected_kendall_tau="
            f"{self.expected_kendall_tau:.3f})"
        )


# ------------------------------------------------------------------ split studies (experiments.py)
@dataclass(frozen=True, slots=True, eq=False)
class SplitStudy:
    """Repeated random test/calibration splits of real labelled data, per target model.

    Returned by :func:`judgestats.experiments.split_study`: a frozen record of every split's
    numbers (so any further summary can be computed) with table methods. The tables are pandas
    DataFrames and ``to_xarray()`` gives every per-split array; pandas and xarray are imported
    only by those methods.

    Attributes
    ----------
    label : str
        Free text naming the data.
    targets, methods : tuple of str
        Target models (axis ``target``) and interval methods (axis ``method``).
    calibration_fraction, confidence_level : float
        Share of each target's rows used for calibration; interval level.
    splits : int
        Number of random splits (axis ``split``).
    rows, calibration_size : ndarray, shape (T,)
        Rows per target and the calibration size m per target.
    theta_full : ndarray, shape (T,)
        Human rate on all rows of the target (the truth in the paper's study).
    theta_test : ndarray, shape (S, T)
        Human rate on the test part of each split.
    naive, corrected : ndarray, shape (S, T)
        p̂ on the test part, and the clipped Rogan–Gladen θ̂ (NaN where undefined).
    informative : ndarray of bool, shape (S, T)
        Both human classes in the calibration part and q̂0 + q̂1 > 1 (θ̂ defined).
    low, high, point : ndarray, shape (M, S, T)
        Each method's interval (NaN where undefined) and point estimate (θ̂, or the method's
        own, such as a posterior mean; p̂ for ``"naive-wilson"``).
    own_point : tuple of bool
        Per method: True when ``point`` is the method's own estimate rather than θ̂.
    counts : ndarray of int, shape (S, T, 6)
        Test positive, test n, tp, fn, tn, fp of every split.
    """

    label: str
    targets: tuple
    methods: tuple
    calibration_fraction: float
    confidence_level: float
    splits: int
    rows: Any
    calibration_size: Any
    theta_full: Any
    theta_test: Any
    naive: Any
    corrected: Any
    informative: Any
    low: Any
    high: Any
    point: Any
    own_point: tuple
    counts: Any

    def bias_table(self) -> pd.DataFrame:
        """Per target: mean bias and RMSE of p̂ and θ̂ against the full-data human rate."""
        from .experiments import bias_table

        return bias_table(self)

    def coverage_table(self) -> pd.DataFrame:
        """Per (target, method): coverage (full-data and test-part truth), length, undefined."""
        from .experiments import coverage_table

        return coverage_table(self)

    def ranking_table(self) -> pd.DataFrame:
        """Ranking recovery (Kendall τ, exact recovery) against the human ranking."""
        from .experiments import ranking_table

        return ranking_table(self)

    def to_dataframe(self) -> pd.DataFrame:
        """Tidy table, one row per (target, method): coverage table joined with the bias table."""
        return self.coverage_table().merge(self.bias_table(), on="target", how="left")

    def to_xarray(self) -> xr.Dataset:
        """Every per-split array as an xarray Dataset (dims method, split, target, ci_bound)."""
        from .experiments import study_to_xarray

        return study_to_xarray(self)

    def summary(self) -> str:
        """Return a short text report: bias, coverage per method, ranking recovery."""
        from .experiments import study_summary

        return study_summary(self)

    def __repr__(self) -> str:
        return (
            f"SplitStudy({self.label or 'data'}: targets={len(self.targets)}, "
            f"splits={self.splits}, calibration_fraction={self.calibration_fraction:g}, "
            f"methods={list(self.methods)})"
        )


__all__ += ["Comparison", "Ranking", "SplitStudy"]


# ------------------------------------------------------------------ strata (strata.py)
def _stratum_coord(labels: tuple) -> list:
    """Stratum labels usable as an xarray coordinate (strings unless all str or all int)."""
    if all(isinstance(v, str) for v in labels) or all(
        isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in labels
    ):
        return list(labels)
    return [str(v) for v in labels]


@dataclass(frozen=True, slots=True)
class HomogeneityTest:
    """Likelihood-ratio (G) test that one of the judge's error rates is equal in every stratum.

    For human class y (0: specificity q0, 1: sensitivity q1) the calibration items of that
    class form an S × 2 table (stratum × judge right/wrong). With O the observed and E the
    expected counts under one common rate, G = 2 Σ O log(O / E) is referred to χ² with S − 1
    degrees of freedom. ``rate="both"`` adds the two classes' statistics (2(S − 1) df; the
    classes hold disjoint items, so the two statistics are independent). The χ² reference is
    asymptotic: with few calibration items per stratum the p-value is rough.

    Attributes
    ----------
    rate : {"specificity", "sensitivity", "both"}
        Which rate is tested.
    statistic : float
        G (0 when every stratum has the same observed rate).
    df : int
        Degrees of freedom (0 with a single stratum, where ``pvalue`` is NaN).
    pvalue : float
        P(χ²_df >= G).
    """

    rate: str
    statistic: float
    df: int
    pvalue: float

    def __repr__(self) -> str:
        return (
            f"HomogeneityTest(rate={self.rate!r}, G={self.statistic:.4g}, df={self.df}, "
            f"pvalue={self.pvalue:.4g})"
        )


@dataclass(frozen=True, slots=True, eq=False)
class StrataDiagnostics:
    """Does stratifying matter? Per-stratum judge behaviour, tests and the unstratified answer.

    Attributes
    ----------
    specificity_ci, sensitivity_ci : dict of ConfidenceInterval
        Per stratum, Wilson score interval for q0 = P(judge 0 | human 0) and
        q1 = P(judge 1 | human 1) at the result's confidence level.
    specificity_test, sensitivity_test, joint_test : HomogeneityTest
        Likelihood-ratio tests of equal q0, equal q1, and both, across strata.
    unstratified : Correction or None
        One Rogan–Gladen correction with all strata pooled (one confusion matrix); None when
        the pooled judge is no better than chance. It is biased when the judge's error rates
        differ across strata *and* the calibration set's stratum mix within a human class
        differs from the test set's.
    test_mix, calibration_mix : dict
        Share of test items (n_s / n) and of calibration items (m_s / m) per stratum.
    """

    specificity_ci: dict
    sensitivity_ci: dict
    specificity_test: HomogeneityTest
    sensitivity_test: HomogeneityTest
    joint_test: HomogeneityTest
    unstratified: Correction | None
    test_mix: dict
    calibration_mix: dict


@dataclass(frozen=True, slots=True, eq=False)
class StratifiedCorrection:
    """A corrected rate pooled over strata of a covariate ξ, with per-stratum corrections.

    Returned by :func:`judgestats.strata.correct_stratified` (the paper's "Limitations and
    Future Work", item 2: one confusion matrix per stratum, bias adjustment within each, then
    aggregation by the test mix). The pooled rate is θ̂ = Σ_s w_s θ̂_s with the unclipped
    per-stratum Rogan–Gladen estimates θ̂_s, clipped to [0, 1] at the end. A Bayesian fit can
    return the same shape (per-stratum results with the ``Correction`` fields, pooled
    estimate, interval and weights; ``diagnostics`` may then be None).

    Attributes
    ----------
    strata : tuple
        Stratum labels in order (after merging); every dict below is keyed by them.
    corrections : dict of Correction
        Per-stratum correction (estimate clipped to [0, 1], interval by ``method``).
    estimate : float
        Pooled θ̂ in [0, 1].
    ci : ConfidenceInterval
        Interval for the pooled θ by ``method`` at ``confidence_level``.
    estimate_unclipped : float
        Σ_s w_s θ̂_s before the final clip; differs from ``estimate`` exactly when
        ``clipped`` is True.
    clipped : bool
        True when the pooled value fell outside [0, 1].
    weights : dict
        w_s (summing to 1).
    weights_source : {"test", "given"}
        ``"test"``: w_s = n_s / n, the test set's own stratum mix (a random quantity; its
        sampling variance is in the interval); ``"given"``: fixed weights such as a target
        population's mix.
    method, confidence_level
        How ``ci`` (and each stratum's interval) was computed.
    merged : dict
        Original stratum → the stratum it was merged into (empty if none).
    diagnostics : StrataDiagnostics or None
        Per-stratum q̂0, q̂1 intervals, tests of equal judge behaviour and the unstratified
        estimate.
    min_per_class : int or None
        Minimum calibration items per human class that every stratum had to reach.
    """

    strata: tuple
    corrections: dict
    estimate: float
    ci: ConfidenceInterval
    estimate_unclipped: float
    clipped: bool
    weights: dict
    weights_source: str
    method: str
    confidence_level: float
    merged: dict
    diagnostics: StrataDiagnostics | None = None
    min_per_class: int | None = None

    # -- derived fields ------------------------------------------------------------------
    def __getitem__(self, stratum: Any) -> Correction:
        return self.corrections[stratum]

    @property
    def k(self) -> int:
        """Number of strata."""
        return len(self.strata)

    @property
    def naive(self) -> float:
        """Σ_s w_s p̂_s, the uncorrected judged rate under the same weights."""
        return float(sum(self.weights[s] * self.corrections[s].naive for s in self.strata))

    @property
    def n(self) -> int:
        """Test items over all strata."""
        return int(sum(self.corrections[s].n for s in self.strata))

    @property
    def m0(self) -> int:
        """Calibration items with human label 0, over all strata."""
        return int(sum(self.corrections[s].m0 for s in self.strata))

    @property
    def m1(self) -> int:
        """Calibration items with human label 1, over all strata."""
        return int(sum(self.corrections[s].m1 for s in self.strata))

    @property
    def unstratified(self) -> Correction | None:
        """The single-confusion-matrix correction of the pooled counts (from diagnostics)."""
        return None if self.diagnostics is None else self.diagnostics.unstratified

    @property
    def difference(self) -> float | None:
        """Stratified minus unstratified estimate (None without diagnostics)."""
        u = self.unstratified
        return None if u is None else self.estimate - u.estimate

    # -- recomputation -------------------------------------------------------------------
    def confidence_interval(
        self,
        method: str = "adjusted-wald",
        confidence_level: float = 0.95,
        *,
        rng: Any = None,
        **options: Any,
    ) -> ConfidenceInterval:
        """Recompute the pooled interval for the same data and weights by another method.

        Parameters
        ----------
        method : {"adjusted-wald", "wald", "bootstrap"}
            See :func:`judgestats.strata.correct_stratified`.
        confidence_level : float, default 0.95
            Two-sided level, strictly inside (0, 1).
        rng : None, int, SeedSequence or Generator
            For ``"bootstrap"``.
        **options
            ``n_resamples`` for ``"bootstrap"``.
        """
        from .strata import pooled_interval_for

        return pooled_interval_for(
            self, method=method, confidence_level=confidence_level, rng=rng, **options
        )

    # -- presentation --------------------------------------------------------------------
    def _rows(self) -> list[dict[str, Any]]:
        d = self.diagnostics
        rows = []
        for s in self.strata:
            c = self.corrections[s]
            row = {"stratum": s, "kind": "stratum", "weight": self.weights[s]}
            row.update(c.to_dict())
            if d is not None:
                row["specificity_low"], row["specificity_high"] = d.specificity_ci[s]
                row["sensitivity_low"], row["sensitivity_high"] = d.sensitivity_ci[s]
                row["test_share"] = d.test_mix[s]
                row["calibration_share"] = d.calibration_mix[s]
            rows.append(row)
        pooled = {
            "stratum": "pooled",
            "kind": "pooled",
            "weight": 1.0,
            "estimate": self.estimate,
            "ci_low": self.ci.low,
            "ci_high": self.ci.high,
            "method": self.method,
            "confidence_level": self.confidence_level,
            "naive": self.naive,
            "n": self.n,
            "positive": int(sum(self.corrections[s].test.positive for s in self.strata)),
            "m0": self.m0,
            "m1": self.m1,
            **{
                f: int(sum(getattr(self.corrections[s].calibration, f) for s in self.strata))
                for f in ("tp", "fn", "tn", "fp")
            },
            "clipped": self.clipped,
            "estimate_unclipped": self.estimate_unclipped,
        }
        if d is not None:
            u = d.unstratified
            nan = float("nan")
            pooled.update(
                unstratified_estimate=nan if u is None else u.estimate,
                unstratified_ci_low=nan if u is None else u.ci.low,
                unstratified_ci_high=nan if u is None else u.ci.high,
                specificity_pvalue=d.specificity_test.pvalue,
                sensitivity_pvalue=d.sensitivity_test.pvalue,
                homogeneity_pvalue=d.joint_test.pvalue,
            )
        rows.append(pooled)
        return rows

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict (JSON-serialisable when the stratum labels are)."""

        def plain(v: Any) -> Any:
            return v.item() if hasattr(v, "item") else v

        return {
            "strata": list(self.strata),
            "rows": [{k: plain(v) for k, v in r.items()} for r in self._rows()],
            "weights_source": self.weights_source,
            "method": self.method,
            "confidence_level": self.confidence_level,
            "merged": dict(self.merged),
            "min_per_class": self.min_per_class,
        }

    def report(self, format: str = "markdown", **kwargs: Any) -> str:
        """Table plus methods sentence (see :func:`judgestats.report.report`)."""
        from .report import report

        return report(self, format=format, **kwargs)

    def to_dataframe(self) -> pd.DataFrame:
        """One tidy row per stratum plus a ``"pooled"`` row (``kind`` tells them apart).

        Stratum rows carry the per-stratum :class:`Correction` columns, the weight and (with
        diagnostics) the q̂0/q̂1 intervals and mixes; the pooled row carries the pooled
        estimate and interval, the unstratified estimate and the homogeneity p-values.
        Columns a row does not have are NaN.
        """
        import pandas as pd

        return pd.DataFrame(self.to_dict()["rows"])

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset in ArviZ's interval layout.

        Per-stratum variables (dim ``stratum``): ``estimate``, ``estimate_unclipped``,
        ``weight``, ``naive``, ``sensitivity``, ``specificity``, ``n``, ``m0``, ``m1`` and
        ``ci`` (dims ``stratum``, ``ci_bound = ["lower", "upper"]``), plus
        ``sensitivity_ci``/``specificity_ci`` with diagnostics. Pooled scalars
        ``pooled_estimate``, ``pooled_naive`` and ``pooled_ci`` (dim ``ci_bound``), and
        ``unstratified_estimate``/``unstratified_ci`` with diagnostics. Attrs: ``ci_kind``
        (the method), ``ci_prob`` (the level), ``weights_source``, ``clipped`` and the
        homogeneity p-values. Stratum labels that are not all str or all int become strings.
        """
        import xarray as xr

        ss = self.strata
        cs = [self.corrections[s] for s in ss]
        data: dict[str, Any] = {
            "estimate": ("stratum", [c.estimate for c in cs]),
            "estimate_unclipped": ("stratum", [c.estimate_unclipped for c in cs]),
            "weight": ("stratum", [self.weights[s] for s in ss]),
            "naive": ("stratum", [c.naive for c in cs]),
            "sensitivity": ("stratum", [c.sensitivity for c in cs]),
            "specificity": ("stratum", [c.specificity for c in cs]),
            "n": ("stratum", [c.n for c in cs]),
            "m0": ("stratum", [c.m0 for c in cs]),
            "m1": ("stratum", [c.m1 for c in cs]),
            "ci": (("stratum", "ci_bound"), [[c.ci.low, c.ci.high] for c in cs]),
            "pooled_estimate": self.estimate,
            "pooled_naive": self.naive,
            "pooled_ci": ("ci_bound", [self.ci.low, self.ci.high]),
        }
        attrs: dict[str, Any] = {
            "ci_kind": self.method,
            "ci_prob": self.confidence_level,
            "weights_source": self.weights_source,
            "clipped": int(self.clipped),
        }
        d = self.diagnostics
        if d is not None:
            data["specificity_ci"] = (
                ("stratum", "ci_bound"),
                [list(d.specificity_ci[s]) for s in ss],
            )
            data["sensitivity_ci"] = (
                ("stratum", "ci_bound"),
                [list(d.sensitivity_ci[s]) for s in ss],
            )
            if d.unstratified is not None:
                data["unstratified_estimate"] = d.unstratified.estimate
                data["unstratified_ci"] = ("ci_bound", list(d.unstratified.ci))
            attrs.update(
                specificity_pvalue=d.specificity_test.pvalue,
                sensitivity_pvalue=d.sensitivity_test.pvalue,
                homogeneity_pvalue=d.joint_test.pvalue,
            )
        coords = {"stratum": _stratum_coord(ss), "ci_bound": ["lower", "upper"]}
        ds = xr.Dataset(data, coords=coords)
        ds.attrs.update(attrs)
        return ds

    def summary(self) -> str:
        """Return a short human-readable report: one line per stratum, pooled, diagnostics."""
        lvl = f"{100 * self.confidence_level:g}%"
        src = "test mix n_s/n" if self.weights_source == "test" else "given"
        width = max(12, *(len(str(s)) for s in self.strata))
        lines = [
            f"Stratified correction over {self.k} {'stratum' if self.k == 1 else 'strata'} "
            f"(weights: {src}), {lvl} intervals by {self.method}",
            f"  {'stratum':<{width}}  weight  corrected  [ lower,  upper]   naive  "
            "sens q̂1 (m1)   spec q̂0 (m0)",
        ]
        for s in self.strata:
            c = self.corrections[s]
            lines.append(
                f"  {s!s:<{width}}  {self.weights[s]:6.3f}  {c.estimate:9.4f}  "
                f"[{c.ci.low:.4f}, {c.ci.high:.4f}]  {c.naive:.4f}  "
                f"{c.sensitivity:.3f} ({c.m1:>4})  {c.specificity:.3f} ({c.m0:>4})"
            )
        lines.append(
            f"  {'pooled':<{width}}          {self.estimate:9.4f}  "
            f"[{self.ci.low:.4f}, {self.ci.high:.4f}]  {self.naive:.4f}"
        )
        d = self.diagnostics
        if d is not None:
            u = d.unstratified
            lines.append(
                f"  {'unstratified':<{width}}  (one confusion matrix: judge not informative)"
                if u is None
                else f"  {'unstratified':<{width}}          {u.estimate:9.4f}  "
                f"[{u.ci.low:.4f}, {u.ci.high:.4f}]  {u.naive:.4f}  "
                f"{u.sensitivity:.3f} ({u.m1:>4})  {u.specificity:.3f} ({u.m0:>4})"
            )
        if d is not None and self.k > 1:
            t0, t1, tj = d.specificity_test, d.sensitivity_test, d.joint_test
            lines += [
                "  equal judge behaviour across strata? likelihood-ratio tests:",
                f"    specificity G = {t0.statistic:.3g} (df {t0.df}, p = {t0.pvalue:.3g}); "
                f"sensitivity G = {t1.statistic:.3g} (df {t1.df}, p = {t1.pvalue:.3g}); "
                f"both p = {tj.pvalue:.3g}",
            ]
        if self.merged:
            moves = ", ".join(f"{a!r} -> {b!r}" for a, b in self.merged.items())
            lines.append(f"  merged strata: {moves}")
        clipped = [s for s in self.strata if self.corrections[s].clipped]
        if clipped:
            vals = ", ".join(f"{s!r} {self.corrections[s].estimate_unclipped:.4f}" for s in clipped)
            lines.append(
                f"  note: stratum estimates outside [0, 1] were clipped ({vals}); the pooled "
                "estimate uses the unclipped values"
            )
        if self.clipped:
            lines.append(f"  note: pooled θ̂ = {self.estimate_unclipped:.4f} was clipped to [0, 1]")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"StratifiedCorrection(estimate={self.estimate:.4f}, ci=[{self.ci.low:.4f}, "
            f"{self.ci.high:.4f}], strata={list(self.strata)!r}, method={self.method!r}, "
            f"confidence_level={self.confidence_level:g}, weights_source="
            f"{self.weights_source!r}" + (", clipped=True" if self.clipped else "") + ")"
        )


__all__ += ["HomogeneityTest", "StrataDiagnostics", "StratifiedCorrection"]


# ------------------------------------------------------------ grouped evaluation (evaluate.py)
@dataclass(frozen=True, slots=True, eq=False)
class Evaluation:
    """Corrected rates of every group of a frame, from :func:`judgestats.evaluate`.

    One :class:`Correction` per group (or one :class:`StratifiedCorrection` per group when
    ``strata`` were given), all computed from grouped counts that the frame's own engine
    produced. The presentation helpers live in :mod:`judgestats.evaluate` and
    :mod:`judgestats.report`; this class delegates to them.

    Attributes
    ----------
    groups : tuple
        Group labels in sorted order: the value of the ``by`` column, or a tuple of values
        when ``by`` names several columns. Every dict below is keyed by them.
    corrections : dict
        Group → :class:`Correction` (or :class:`StratifiedCorrection`).
    by : tuple of str
        The group column(s).
    strata : tuple of str or None
        The stratum column(s) within each group, or None.
    method, confidence_level
        How every interval was computed.
    judge, human, split : str, str, str or None
        The label columns and the split column (None: a missing human label marks a test
        row).
    engine : str
        The engine that computed the grouped counts (``"polars"``, ``"duckdb"``, ...).
    warnings : dict
        Group → tuple of ``(warning class name, message)`` issued while correcting that group
        (they were also re-issued, naming the group). Reports list them.
    ranking : Ranking or None
        Joint ranking of the groups (``evaluate(..., rank=True)``), else None.
    """

    groups: tuple
    corrections: dict
    by: tuple
    strata: tuple | None
    method: str
    confidence_level: float
    judge: str
    human: str
    split: str | None
    engine: str
    warnings: dict
    ranking: Ranking | None = None

    # -- access --------------------------------------------------------------------------
    def __getitem__(self, group: Any) -> Correction | StratifiedCorrection:
        from .evaluate import evaluation_lookup

        return evaluation_lookup(self, group)

    def __len__(self) -> int:
        return len(self.groups)

    def __iter__(self):
        return iter(self.groups)

    @property
    def dim(self) -> str:
        """Name of the group dimension: the ``by`` column, or ``"group"`` for several."""
        return self.by[0] if len(self.by) == 1 else "group"

    @property
    def estimate(self) -> dict:
        """Group → corrected estimate."""
        return {g: self.corrections[g].estimate for g in self.groups}

    def label(self, group: Any) -> str:
        """Text label of a group (``"a / x"`` for several ``by`` columns)."""
        from .evaluate import group_label

        return group_label(group)

    # -- recomputation ------------------------------------------------------------------
    def rank(self, *, method: str = "bootstrap", reps: int = 10_000, rng: Any = None) -> Ranking:
        """Rank the groups jointly (:func:`judgestats.compare.rank` on their counts).

        Needs unstratified corrections and at least two groups; the level is the
        evaluation's ``confidence_level``. Models are named by :meth:`label`.
        """
        from .evaluate import evaluation_rank

        return evaluation_rank(self, method=method, reps=reps, rng=rng)

    # -- presentation --------------------------------------------------------------------
    def to_dataframe(self) -> pd.DataFrame:
        """One tidy row per group: the ``by`` columns, then the correction's columns."""
        from .evaluate import evaluation_frame

        return evaluation_frame(self)

    def counts_dataframe(self) -> pd.DataFrame:
        """Return the counts the corrections used (one row per group, or group × stratum)."""
        from .evaluate import evaluation_counts_frame

        return evaluation_counts_frame(self)

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset with dims (``dim``, ``ci_bound``) in ArviZ's layout.

        Variables ``estimate``, ``estimate_unclipped``, ``naive``, ``sensitivity``,
        ``specificity``, ``n``, ``m0``, ``m1``, ``clipped`` (dim ``dim``) and ``ci`` (dims
        ``dim``, ``ci_bound = ["lower", "upper"]``); attrs ``ci_kind``, ``ci_prob`` and the
        columns used.
        """
        from .evaluate import evaluation_xarray

        return evaluation_xarray(self)

    def plot(self, *, ax: Any = None, show_naive: bool = True):
        """Leaderboard: corrected rates with intervals, best at the top (returns the Axes)."""
        from .report import plot_leaderboard

        return plot_leaderboard(self, ax=ax, show_naive=show_naive)

    def report(self, format: str = "markdown", **kw: Any) -> str:
        """Table, methods sentence and notes (HTML: with the figure); see ``report.report``."""
        from .report import report

        return report(self, format=format, **kw)

    def summary(self) -> str:
        """Return a short human-readable leaderboard."""
        from .evaluate import evaluation_summary

        return evaluation_summary(self)

    def __repr__(self) -> str:
        top = ", ".join(
            f"{self.label(g)}={self.corrections[g].estimate:.3f}" for g in self.groups[:6]
        )
        more = f", ... ({len(self.groups)} groups)" if len(self.groups) > 6 else ""
        return (
            f"Evaluation({top}{more}; by={list(self.by)!r}, method={self.method!r}, "
            f"confidence_level={self.confidence_level:g}, engine={self.engine!r})"
        )


__all__ += ["Evaluation"]
