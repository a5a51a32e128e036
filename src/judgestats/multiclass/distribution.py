"""``correct_distribution()`` and its :class:`DistributionCorrection`.

One k-category data set corrected (paper eqs. (23) and (24)). The entry point resolves its
spec once (:func:`.methods.distribution_spec`: the design, the interval method against the
capability table, the level, repeated items and the estimand); the spec's estimator family and
repeated items choose the module that computes the fit: θ̂ = Ĉ⁻¹p̂ (or a judge alphabet's joint
maximum likelihood) under the by-human-label design, of independent rows
(:mod:`.confusion_fit`) or of repeated items (:mod:`.confusion_clusters`); the judge-conditional
estimator under the random and by-judge-label designs (:mod:`.conditional_fit`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .._validation import require_extra
from ..counts.categories import (
    CategoryCounts,
    ConfusionMatrix,
)
from ..designs import (
    DEFAULT_DESIGN,
    RANDOM,
    Design,
    JudgeConditionalDesign,
    RoganGladenDesign,
    as_design,
)
from ..results import Recomputable, Tabular, forward, note_lines
from ..spec import EstimationSpec
from . import conditional_fit, confusion_clusters, confusion_fit
from .arrays import MAX_CONDITION
from .methods import distribution_spec, table_lists
from .separation import SEPARATION_LEVEL, _check_letters

if TYPE_CHECKING:  # pragma: no cover
    import xarray as xr

__all__ = [
    "DistributionCorrection",
    "correct_distribution",
    "correct_distribution_spec",
]


#: The fit and the recomputed intervals of each path: (estimator family
#: (:attr:`judgestats.designs.Design.family`), repeated items) → the module that computes them.
_PATHS: dict[tuple[str, bool], Any] = {
    (RoganGladenDesign.family, False): confusion_fit,
    (RoganGladenDesign.family, True): confusion_clusters,
    (JudgeConditionalDesign.family, False): conditional_fit,
    (JudgeConditionalDesign.family, True): conditional_fit,
}


def correct_distribution(
    test: CategoryCounts,
    calibration: ConfusionMatrix,
    *,
    method: str | None = None,
    confidence_level: float = 0.95,
    rng: Any = None,
    max_condition: float = MAX_CONDITION,
    separation_level: float | None = SEPARATION_LEVEL,
    design: str = DEFAULT_DESIGN,
    estimand: str = "rows",
    **options: Any,
) -> DistributionCorrection:
    """Correct a judged category distribution for the judge's errors, with intervals.

    Computes θ̂ = Ĉ⁻¹p̂ (paper appendix, eq. (23)), with Ĉ[a, b] =
    #(judge = a, human = b)/#(human = b) from the calibration set (eq.
    (24)), and a per-category interval for the true distribution θ.
    For k = 2 the estimate equals :func:`judgestats.correct`'s Rogan–Gladen estimate.

    **A judge alphabet of its own** (J letters for K human categories, J > K: a 1–5 score
    against pass/fail, a tie or "invalid" letter, two judges' letter pairs; see
    :class:`ConfusionMatrix`'s ``judge_labels``): there is no inverse; the estimate is the
    joint maximum-likelihood θ̂ of the test letters ~ Mult(n, Cθ) and the calibration columns
    ~ Mult(m_b, C[:, b]) (:mod:`judgestats.multiclass.likelihood`), which uses every letter,
    lies on the simplex, and equals Ĉ⁻¹p̂ when J = K and that is a distribution. Methods
    ``"profile-likelihood-t"`` (the default there), ``"profile-likelihood"`` and
    ``"bootstrap"`` (refitted per replicate).

    Parameters
    ----------
    test : CategoryCounts
        Judged counts per category (per judge letter) on the test set.
    calibration : ConfusionMatrix
        Judge-by-human counts on the calibration set, whose judge labels are the test's
        labels **in the same order** (use ``.reorder(...)`` to align them).
    method : str, optional
        ``"adjusted-delta"`` (the default for a square matrix), ``"wald"``, ``"bootstrap"``,
        ``"profile-likelihood"`` or ``"profile-likelihood-t"`` (the default for a judge
        alphabet of its own), or a method added with :func:`register_distribution_method`
        (the capability table, :mod:`judgestats.designs.capabilities`, lists the methods of
        each design, judge alphabet and repeated items; ``"delta"`` is the deprecated name of
        the first two):

        * ``"adjusted-delta"`` and ``"wald"``: θ̂ ± z·se per category, truncated to [0, 1],
          with the delta-method covariance A[Σ_p + Σ_b θ_b² Σ_b]Aᵀ, A = Ĉ⁻¹,
          Σ_p = (diag p − ppᵀ)/n and Σ_b = (diag c_b − c_b c_bᵀ)/m_b the multinomial
          covariances of p̂ and of column b of Ĉ (the columns are independent given the m_b).
          For k = 2 it is the paper's eq. (15).
          **Adjustment** (``"adjusted-delta"``, the default): like the paper's adjusted Wald
          interval, the formula is evaluated at p̃ = (counts + z²/k)/(n + z²) and at columns
          c̃_b = (counts_b + 2/k)/(m_b + 2), centred at θ̃ = C̃⁻¹p̃. For k = 2 these are exactly
          the paper's p̃, q̃0, q̃1 and standard error (the paper's extra centre shift dθ̃ is a
          binary-specific term and is not used). Why: the plain formula gives zero variance to
          any column of Ĉ with all its items in one cell, which happens whenever the judge is
          accurate and m_b is small; in simulation (benchmarks/results/multiclass.md) the plain
          interval then covers as little as 65% for a nominal 95%, the adjusted one at least
          0.960 per category on that grid (conservative for tiny m_b). That is not a floor: on
          cells drawn at random (issue 27: 73 category intervals) 11 covered below 0.95, the
          lowest 0.935. ``"wald"`` gives the plain interval, for comparison.
        * ``"bootstrap"``: parametric percentile bootstrap: p̂* ~ Mult(n, p̂)/n and each column
          ĉ_b* ~ Mult(m_b, ĉ_b)/m_b, θ̂* = Ĉ*⁻¹p̂*; option ``n_resamples`` (default 9999).
          Replicates whose Ĉ* exceeds ``max_condition`` are counted as undefined, excluded
          from the percentiles and reported (``ci[label].undefined``, ``SamplingWarning``).
          **Small calibration sets:** the percentile bootstrap resamples from Ĉ itself, so it
          inherits Ĉ's noise without widening for it; with about 20 calibration items per class
          it under-covers, where the adjusted delta interval covers but is wide (figures in the
          README). Prefer ``"adjusted-delta"`` there.
        * ``"profile-likelihood"``: {t : 2(ℓ̂ − ℓ_p(t)) <= χ²₁(level)} per category, with ℓ
          the joint log-likelihood above and ℓ_p(t) its maximum with θ_b = t (Wilks). For
          k = 2 and a square matrix it is :func:`judgestats.correct`'s
          ``"profile-likelihood"`` interval (the same numbers). ``"profile-likelihood-t"``
          (the default for a judge alphabet of its own) uses the cut-off t²_ν((1 + level)/2),
          ν = min_b m_b/(J − 1) − 1 — the calibration items per free parameter of a column of
          C, minus one; for J = 2 ``js.correct``'s ``"profile-likelihood-t"``. With many
          letters and few items per column the χ² cut-off covers as little as 0.89 (J = 10,
          50 items per class); the t cut-off at least 0.93 in every cell tried
          (benchmarks/results/alphabets.md).
    confidence_level : float, default 0.95
        Two-sided per-category level, strictly inside (0, 1); stored on the result. The
        intervals are marginal (one per category), not simultaneous.
    rng : None, int, SeedSequence or Generator
        Randomness for resampling methods.
    max_condition : float, default MAX_CONDITION (100)
        Largest accepted 2-norm condition number of Ĉ (see :data:`MAX_CONDITION` for the
        rationale); ``numpy.inf`` accepts any invertible Ĉ.
    separation_level : float or None, default SEPARATION_LEVEL (0.05)
        For k >= 3: significance level of the test, for each pair of human categories, that
        the judge labels both with the same distribution (:func:`confused_pairs`). A pair
        the test does not separate raises :class:`ConfusedCategoriesError` naming it: a judge
        that cannot tell two categories apart has a singular C, and sampling noise alone makes
        Ĉ invertible (κ(Ĉ) < 100 in most data sets). ``None`` skips the test. For k = 2 the
        binary rules apply instead (q̂0 + q̂1 > 1), exactly as :func:`judgestats.correct`;
        with a judge alphabet of its own the test runs for every K.
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How the calibration items were chosen (:mod:`judgestats.designs`). The other designs
        estimate θ_k = Σ_j P(judge = j) P(human = k | judge = j)
        (:func:`judgestats.designs.judge_conditional_distribution`): no inverse, always on the
        simplex, no conditioning or separation requirement, a true class may lack calibration
        items; methods ``"adjusted-delta"`` (pseudo-counts) and ``"wald"``.
    estimand : {"rows", "items"}, default "rows"
        With repeated items (counts built with ``cluster=``;
        :mod:`judgestats.multiclass.clustered`): the distribution over rows (each row
        weight 1: p̂ and Ĉ are the counts' own, θ_b the share of rows with human label b) or
        over items (each item weight 1, its rows 1/its rows each: θ_b the mean over items of
        the share of the item's rows with human label b, so an item whose raters disagree
        counts in each of their labels with its share). ``"adjusted-delta"`` and ``"wald"``
        then replace the multinomial covariances of p̂ and of each column of Ĉ by the
        sandwich over item totals (design effects, effective sizes, cross-covariances of
        components that share items) with a Welch–Satterthwaite t critical value, and
        ``res.clusters`` says what they did; under the random and by-judge-label designs the
        same for π̂ and the rows of R̂ (:mod:`judgestats.multiclass.clustered`);
        ``"bootstrap"`` (by-human-label) resamples whole items; the profile-likelihood methods
        of a square matrix refuse such counts (:class:`~judgestats.errors.ClusteredCountsError`).
        A judge alphabet of its own (J ≠ K letters, by-human-label) takes them with
        ``"profile-likelihood-t"`` (default) and ``"profile-likelihood"`` of the
        design-effect-scaled likelihood, or ``"bootstrap"`` (items resampled, the likelihood
        refitted per replicate) (:mod:`judgestats.multiclass.alphabet_clusters`). The
        separation test divides its G statistic by the pair's design effect (first-order
        Rao–Scott, :func:`~judgestats.multiclass.separation.confused_pairs`). Without clusters
        every row is an item and the two are the same.
    **options
        Method options: ``n_resamples`` for ``"bootstrap"``.

    Returns
    -------
    DistributionCorrection
        ``estimate`` (dict label → float, on the simplex), ``ci`` (dict label →
        ConfidenceInterval), ``naive``, ``estimate_unconstrained``, ``projected``,
        ``confusion_matrix``, ``summary()``, ``to_dataframe()``, ``to_xarray()``.

    Raises
    ------
    ArgumentTypeError
        If ``test``/``calibration`` are not CategoryCounts/ConfusionMatrix.
    LabelError
        If their labels differ (as sets or in order; the letters only on one side are named).
    CountError
        With a judge alphabet of its own: a letter on test items but on no calibration item
        (merge it: :meth:`ConfusionMatrix.merge`, :meth:`CategoryCounts.merge`).
    IllConditionedError
        If Ĉ is singular or its condition number exceeds ``max_condition`` (a
        :class:`NotInformativeError`); for k = 2, :class:`NotInformativeError` when
        q̂0 + q̂1 <= 1, exactly as :func:`judgestats.correct`.
    ConfusedCategoriesError
        (an :class:`IllConditionedError`) If the calibration set does not show that the judge
        separates some pair of human categories (see ``separation_level``).
    MethodError, ConfidenceLevelError
        On an unknown method or estimand, or a bad level.
    ClusteredCountsError
        (a :class:`MethodError`) Counts built with ``cluster=`` with a method that does not
        account for them: other than ``"adjusted-delta"``/``"wald"``/``"bootstrap"`` (square
        Ĉ), other than ``"profile-likelihood-t"``/``"profile-likelihood"``/``"bootstrap"``
        (a judge alphabet of its own), or a design they do not support.

    Warns
    -----
    ProjectedEstimateWarning
        When Ĉ⁻¹p̂ has a negative entry. The reported ``estimate`` is then the constrained
        maximum-likelihood fit: the θ on the simplex maximising the multinomial likelihood
        Σ_a n_a log (Ĉθ)_a of the judged test counts. It equals Ĉ⁻¹p̂ whenever that lies in the
        simplex, reduces to clipping for k = 2 (as :func:`judgestats.correct`), and weighs
        each category by how much the data say about it: a category the judge labels
        perfectly keeps its judged share, whereas the Euclidean projection would shift every
        positive entry by the same amount. In simulation it has 30–45% lower error than the
        Euclidean projection on data sets outside the simplex (benchmarks/results/
        multiclass.md). The intervals are not changed by the projection.
    SamplingWarning
        When bootstrap replicates were undefined.

    See Also
    --------
    correct : The binary (pass/fail) case.
    alphabets.groups.correct_alphabet : A judge alphabet wider than the human one.
    bayes.fit : The Bayesian model of the same counts.

    Examples
    --------
    >>> import judgestats.multiclass as mc
    >>> test = mc.CategoryCounts([43, 38, 19], labels=["a", "b", "c"])
    >>> cal = mc.ConfusionMatrix([[8, 1, 0], [2, 8, 2], [0, 1, 8]], labels=["a", "b", "c"])
    >>> res = mc.correct_distribution(test, cal)
    >>> {k: round(v, 6) for k, v in res.estimate.items()}
    {'a': 0.5, 'b': 0.3, 'c': 0.2}
    """
    _check_letters(test, calibration)
    spec = distribution_spec(test, calibration, method=method, confidence_level=confidence_level,
                             design=design, estimand=estimand, options=options)  # fmt: skip
    return correct_distribution_spec(spec, test, calibration, rng=rng,
                                     max_condition=max_condition,
                                     separation_level=separation_level, stacklevel=3)  # fmt: skip


def correct_distribution_spec(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any = None,
    max_condition: Any = MAX_CONDITION, separation_level: Any = SEPARATION_LEVEL,
    stacklevel: int = 2,
) -> DistributionCorrection:  # fmt: skip
    """:func:`correct_distribution` of validated counts under a resolved spec.

    The spec's design family and repeated items choose the path that computes it:
    :mod:`.confusion_fit` (by human label, independent rows), :mod:`.confusion_clusters` (by
    human label, repeated items) and :mod:`.conditional_fit` (the judge-conditional designs).
    ``stacklevel`` is the one a warning takes to point at the caller of this function's caller.
    """
    path = _PATHS[spec.design.family, spec.repeated]
    return DistributionCorrection(**path.fit(
        spec, test, calibration, rng=rng, max_condition=max_condition,
        separation_level=separation_level, stacklevel=stacklevel + 1,
    ))  # fmt: skip


#: The lists of methods this module held, now the capability table's rows.
__getattr__ = table_lists(__name__, {
    "DESIGN_DISTRIBUTION_METHODS": ("categories", RANDOM, False),  # the judge-conditional row
})  # fmt: skip


# ----------------------------------------------------------------------------- result
#: How the summary names each estimator family's fit (:attr:`judgestats.designs.Design.family`):
#: (one judge letter per category, a judge alphabet of its own).
_FIT_WORDS = {
    RoganGladenDesign.family: ("Ĉ⁻¹p̂", "joint maximum likelihood"),
    JudgeConditionalDesign.family: ("judge-conditional, design {design}",) * 2,
}


@dataclass(frozen=True, slots=True, eq=False)
class DistributionCorrection(Tabular, Recomputable):
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
        k × k covariance of the estimate used by the method (for ``"adjusted-delta"``, the
        delta-method covariance at the adjusted values; for ``"bootstrap"``, that of the
        replicates); lets one build intervals for contrasts such as win − lose.
    clusters : CategoryClusterSummary or None
        With repeated items: the estimand, items, each component's (p̂, the columns of Ĉ)
        design effect and effective size, and each category's t degrees of freedom
        (:class:`judgestats.multiclass.clustered.CategoryClusterSummary`); None otherwise.
    unseen_share : float
        Test share of judge letters that no calibration item has (0 when every letter was
        seen): their items' rates are unknown in [0, 1], so each interval is the seen letters'
        one widened to [(1 − s)·low, (1 − s)·high + s] and the estimate is the seen letters'.

    Examples
    --------
    Made by :func:`judgestats.correct_distribution`; a win / tie / lose judge:

    >>> import judgestats as js
    >>> labels = ["win", "tie", "lose"]
    >>> res = js.correct_distribution(js.CategoryCounts([430, 380, 190], labels=labels),
    ...                               js.ConfusionMatrix([[80, 10, 5], [15, 70, 10], [5, 20, 85]],
    ...                                                  labels=labels),
    ...                               confidence_level=0.95)
    >>> print(res.summary())
    Corrected distribution over k = 3 categories (Ĉ⁻¹p̂), 95% intervals by adjusted-delta
      category  corrected  [ lower,  upper]   naive  judge recall (m_b)
      win          0.4782  [0.4002, 0.5602]  0.4300  0.800 (100)
      tie          0.4268  [0.3221, 0.5337]  0.3800  0.700 (100)
      lose         0.0950  [0.0210, 0.1628]  0.1900  0.850 (100)
      test items n = 1000; calibration items m = 300; condition number of Ĉ (3 × 3) = 1.75
    """

    kind: ClassVar[str] = "distribution"

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
    design: Design = DEFAULT_DESIGN
    design_check: Any = None
    #: test share of the judge letters without calibration items (their rates unknown in
    #: [0, 1]; every interval is widened by up to this share)
    unseen_share: float = 0.0
    #: with repeated items (counts built with ``cluster=``): what the clusters did
    clusters: Any = None

    def __post_init__(self) -> None:
        # the registered Design of a name, so that the presentation asks the design itself
        object.__setattr__(self, "design", as_design(self.design))

    # -- derived fields ------------------------------------------------------------------
    @property
    def k(self) -> int:
        """Number of categories."""
        return len(self.labels)

    def _by_letter(self, values: Any) -> dict:
        """Per human category, the value of the judge letter with the same label (else NaN)."""
        letters = self.calibration.judge_labels
        vals = list(values)
        return {
            lab: float(vals[letters.index(lab)]) if lab in letters else float("nan")
            for lab in self.labels
        }

    @property
    def naive(self) -> dict:
        """p̂: the judged category distribution, uncorrected.

        With a judge alphabet of its own, the share of the judge letter that carries the
        category's label (NaN for a category no letter is named after, e.g. scores 1–5
        against pass/fail).
        """
        return self._by_letter(self.test.p_hat.tolist())

    @property
    def confusion_matrix(self) -> Any:
        """Ĉ[a, b] = P̂(judge = a | human = b), k × k ndarray (rows = judge, columns = human)."""
        return self.calibration.matrix

    @property
    def judge_recall(self) -> dict:
        """Ĉ[b, b]: how often the judge gives true category b its own label.

        NaN for a true class without calibration items (possible under the random and
        by-judge-label designs, whose estimate does not need it).
        """
        cal = self.calibration
        out = {}
        for b, lab in enumerate(self.labels):
            a = cal.judge_labels.index(lab) if lab in cal.judge_labels else -1
            m_b = int(cal.human_counts[b])
            out[lab] = cal.counts[a, b] / m_b if a >= 0 and m_b > 0 else float("nan")
        return out

    @property
    def human_counts(self) -> dict:
        """Calibration items per true (human) category, m_b."""
        return dict(zip(self.labels, self.calibration.human_counts.tolist(), strict=True))

    n = forward("test.n", "Test-set size.")
    m = forward("calibration.m", "Calibration-set size.")

    # -- recomputation -------------------------------------------------------------------
    default_method = "adjusted-delta"

    def _recompute(self, method: str, level: float, rng: Any, options: dict) -> Any:
        estimand = "rows" if self.clusters is None else self.clusters.estimand
        spec = distribution_spec(self.test, self.calibration, method=method,
                                 confidence_level=level, design=self.design, estimand=estimand,
                                 options=options)  # fmt: skip
        return _PATHS[spec.design.family, spec.repeated].intervals(
            spec, self.test, self.calibration, rng=rng, max_condition=self.max_condition,
            stacklevel=4,
        )  # fmt: skip

    # -- presentation --------------------------------------------------------------------
    def _rows(self) -> list[dict[str, Any]]:
        naive, recall, m_b = self.naive, self.judge_recall, self.human_counts
        judged = self._by_letter(self.test.counts.tolist())
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
                "design": self.design,
                **({} if self.clusters is None else {
                    "estimand": self.clusters.estimand,
                    "t_df": self.clusters.df[i],
                    "design_effect_p": self.clusters.design_effect[0],
                    "design_effect_column": self.clusters.design_effect[i + 1],
                }),  # repeated items: what the clusters did to this category's interval
            }
            for i, lab in enumerate(self.labels)
        ]

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict (JSON-serialisable): the per-category rows and the matrix."""
        return {
            "labels": list(self.labels),
            "rows": self._rows(),
            "confusion_counts": self.calibration.counts.tolist(),
            "judge_labels": list(self.calibration.judge_labels),
            "method": self.method,
            "confidence_level": self.confidence_level,
            "projected": self.projected,
            "condition_number": self.condition_number,
            "design": self.design,
        }

    def _records(self) -> list[dict[str, Any]]:
        return self._rows()

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset in ArviZ's interval layout.

        Variables ``estimate``, ``estimate_unconstrained``, ``naive``, ``judge_recall`` (dim
        ``category``), ``ci`` (dims ``category``, ``ci_bound = ["lower", "upper"]``) and
        ``confusion_matrix`` (dims ``judge_label``, ``human_label``; by-human-label design),
        ``calibration_counts`` (same dims; every design); attrs ``design``, ``ci_kind`` (the
        method), ``ci_prob`` (the level), ``projected``, ``condition_number``, ``n``, ``m``.
        """
        require_extra("xarray", "to_xarray()")
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
                "calibration_counts": (("judge_label", "human_label"), self.calibration.counts),
                **({} if not self.design.needs_both_classes else {
                    "confusion_matrix": (("judge_label", "human_label"), self.confusion_matrix)
                }),  # Ĉ needs every true class, which only such a design has
            },
            coords={
                "category": labs,
                "ci_bound": ["lower", "upper"],
                "judge_label": list(self.calibration.judge_labels),
                "human_label": labs,
            },
        )
        ds.attrs.update(
            ci_kind=self.method,
            ci_prob=self.confidence_level,
            design=self.design,
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
        design = self.design
        how = _FIT_WORDS[design.family][not self.calibration.square].format(design=design)
        if not self.calibration.square:
            how = f"judge alphabet of J = {self.calibration.j} letters, {how}"
        lines = [
            f"Corrected distribution over k = {self.k} categories ({how}), {lvl} intervals "
            f"by {self.method}",
            f"  {'category':<{width}}  corrected  [ lower,  upper]   naive  judge recall (m_b)",
        ]
        for v in self.labels:
            ci = self.ci[v]
            nv = "     –" if np.isnan(naive[v]) else f"{naive[v]:.4f}"
            rc = "    –" if np.isnan(recall[v]) else f"{recall[v]:.3f}"
            lines.append(
                f"  {v!s:<{width}}  {self.estimate[v]:9.4f}  [{ci.low:.4f}, {ci.high:.4f}]"
                f"  {nv}  {rc} ({m_b[v]})"
            )
        unit = "items" if self.clusters is None else "rows"
        lines.append(
            f"  test {unit} n = {self.n}; calibration {unit} m = {self.m}"
            + ("" if not design.divides_by_youden else  # k categories: the estimator inverts Ĉ
               f"; condition number of Ĉ ({self.calibration.j} × {self.k}) = "
               f"{self.condition_number:.3g}")
        )  # fmt: skip
        if self.projected:
            raw = ", ".join(f"{v!s} {self.estimate_unconstrained[v]:.4f}" for v in self.labels)
            lines.append(
                f"  note: Ĉ⁻¹p̂ = ({raw}) lies outside the simplex; the estimate is its "
                "constrained maximum-likelihood fit"
            )
        if self.clusters is not None:
            lines += self.clusters.lines()
        first = self.ci[self.labels[0]]
        lines += note_lines(
            first.undefined_note(),
            self.unseen_share > 0 and f"{self.unseen_share:.1%} of the test items have judge "
            "letters no calibration item has: intervals widened by up to that share",
        )  # fmt: skip
        return "\n".join(lines)

    def _estimates_text(self) -> str:
        return ", ".join(
            f"{v!r}: {self.estimate[v]:.4f} [{self.ci[v].low:.4f}, {self.ci[v].high:.4f}]"
            for v in self.labels
        )

    def __repr__(self) -> str:
        est = self._estimates_text()
        return (
            f"DistributionCorrection({{{est}}}, method={self.method!r}, "
            f"confidence_level={self.confidence_level:g}, n={self.n}, m={self.m}"
            + (", projected=True" if self.projected else "")
            + ")"
        )
