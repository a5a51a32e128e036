"""Result objects (frozen dataclasses) returned by the corrections."""

from __future__ import annotations

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
