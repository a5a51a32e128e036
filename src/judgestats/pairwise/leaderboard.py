"""``pairwise()``: a leaderboard from pairwise judge verdicts, corrected for the judge's errors.

The strengths of Davidson's Bradley–Terry model with ties are fitted jointly with the judge's
confusion matrix (:mod:`judgestats.pairwise.likelihood`) from the judge's verdicts on every
pair and the human verdicts on a calibration subset; beside them, the two fits people make
today: the naive one (the judge's verdicts taken as human) and the human-only one (the
calibration pairs alone).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Unpack

import numpy as np

from .._validation import (
    ClusteredCountsError,
    JudgeDependenceWarning,
    MethodError,
    check_choice,
    check_positive_int,
    check_rng,
)
from ..designs import RANDOM, Design
from ..results import Reportable
from ..spec import EstimationSpec, resolve_spec
from .capability_rows import JUDGE, TARGET, deprecated, designs, methods
from .counting import (
    HUMAN_VERDICTS,
    PairColumns,
    PairCounts,
    _components,
    check_pairs,
    count_pairs,
    pair_columns,
)
from .independence import IndependenceTest, independence_test
from .intervals import (
    normal_quantile,
    rank_summary,
    ranks_of,
    resample_pairs,
    strength_intervals,
    win_probabilities,
)
from .likelihood import ELO_PER_LOGIT, JointFit, fit_joint
from .prediction_powered import PredictionPoweredFit, fit_prediction_powered
from .row_fit import control_fields, row_path_fit, row_request_of

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    import xarray as xr

__all__ = ["INTERVALS", "DavidsonFit", "PairwiseLeaderboard", "designs", "methods", "pairwise"]

#: Covariances behind the Wald intervals (``interval=``).
INTERVALS = ("sandwich", "observed-information")

#: p-value below which ``method="joint-mle"`` warns (:class:`~judgestats.JudgeDependenceWarning`).
DEPENDENCE_LEVEL = 0.01


def __getattr__(name: str) -> tuple[str, ...]:
    return deprecated(__name__, name)


@dataclass(frozen=True, slots=True)
class DavidsonFit:
    """A plain Davidson (1970) fit, shown beside the corrected leaderboard.

    Attributes
    ----------
    source : str
        ``"judge"`` (the judge's verdicts on every pair taken as human: the naive leaderboard)
        or ``"human"`` (the human verdicts of the calibration pairs only).
    models : tuple of str
    strength : ndarray, shape (K,)
        Log strengths (sum zero).
    ci : ndarray, shape (K, 2)
        Sandwich Wald intervals of the strengths at ``confidence_level``.
    tie : float
        Davidson's ν.
    n : int
        Number of pairs fitted.
    confidence_level : float
    """

    source: str
    models: tuple
    strength: np.ndarray
    ci: np.ndarray
    tie: float
    n: int
    confidence_level: float

    @property
    def elo(self) -> np.ndarray:
        """Strengths on the Elo scale (``400/ln 10`` per unit; sum zero)."""
        return ELO_PER_LOGIT * self.strength


@dataclass(frozen=True, slots=True)
class PairwiseLeaderboard(Reportable):
    """A leaderboard from pairwise judge verdicts, corrected for the judge's errors.

    Made by :func:`pairwise`. Arrays follow ``models`` (sorted names); ``order`` is the
    point ranking, strongest first.

    Attributes
    ----------
    models : tuple of str
    strength, strength_se : ndarray, shape (K,)
        Log strengths ``β`` (``Σ β = 0``; ``β_i − β_j`` = log odds that a human prefers i to
        j, ties aside) and their standard errors.
    strength_ci : ndarray, shape (K, 2)
        Wald intervals of ``β`` at ``confidence_level`` (lower, upper).
    elo, elo_ci : ndarray
        The same on the Elo scale (``× 400/ln 10``; centred at 0).
    tie, tie_ci : float, ndarray (2,)
        Davidson's ν and its interval.
    confusion : ndarray, shape (J, 3)
        The judge's confusion, ``P(judge letter | human verdict)`` (rows ``judge_labels``,
        columns a/tie/b in the order shown).
    win_probability, win_probability_ci : ndarray, shapes (K, K) and (K, K, 2)
        ``P(a human prefers i to j)`` and its delta-method interval (diagonal NaN).
    rank : ndarray of int, shape (K,)
        Point rank, 1 = strongest.
    rank_set : ndarray of int, shape (K, 2)
        Best and worst rank of each model; all K sets hold the true ranks at once with
        probability ≥ ``confidence_level`` (see ``rank_method``).
    rank_probabilities : ndarray, shape (K, K)
        ``[i, r]`` = P(model i has rank r + 1) over the draws of ``rank_method``.
    naive, human_only : DavidsonFit or None
        The judge's verdicts taken as human, and the calibration pairs' human verdicts alone
        (None where it cannot be fitted: see ``notes``).
    method : str
        ``"ppi"`` (prediction-powered estimating equation) or ``"joint-mle"`` (the joint
        confusion model); see :func:`pairwise`.
    estimator, interval, rank_method, design, confusion_kind : str
        What was fitted, the covariance behind the intervals, how the ranks were drawn, how
        the calibration pairs were chosen, how the confusion was parametrised (``"empirical"``
        under ``"ppi"``: the calibration pairs' table, shown but not used by the estimator).
    lam : float or None
        PPI++'s power-tuning weight ``λ`` (0: human verdicts only; 1: plain PPI); None for
        ``"joint-mle"``.
    prediction : str or None
        The prediction of the human verdict behind ``"ppi"``: a name of ``PREDICTIONS``, or
        the cross-fitted stacking of the columns ``predictors`` and ``covariates``.
    independence : IndependenceTest
        The test, on the calibration pairs, of the joint model's conditional independence
        (:func:`~judgestats.pairwise.independence_test`).
    confidence_level : float
    n_judged, n_labelled : int
        Pairs without and with a human verdict.
    covariance : ndarray, shape (K + 1, K + 1)
        Covariance of ``(β_1, …, β_K, log ν)`` (``interval``).
    converged : bool
        The optimiser's gradient vanished (max |score| / pairs < 1e-6).
    notes : tuple of str
        What to know when reading the result.
    cluster : str or None
        The column whose values are the sampling units (``cluster=``); None: every row is one.
    n_clusters : int or None
        Number of clusters with ``cluster=``.
    predictors, covariates : tuple of str
        The ``prediction=`` columns (jury members, judge probabilities) and the
        ``covariates=`` columns behind the prediction (empty: the judge letter alone).
    controls : tuple of str
        The ``control=`` columns; with them ``strength`` is net of the controls.
    control_coefficient, control_se : ndarray, shape (m,), or None
        Each control's effect ``δ`` (log-odds of the first-named model winning per unit of
        ``model_a``'s minus ``model_b``'s value) and its standard error; None without controls.
    control_ci : ndarray, shape (m, 2), or None
        Wald intervals of ``δ`` at ``confidence_level``.

    Examples
    --------
    Made by :func:`judgestats.pairwise`; its strengths, intervals and ranks are arrays in the
    order of ``models``:

    >>> import numpy as np
    >>> import pandas as pd
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> pairs = pd.DataFrame({"model_a": np.repeat(["x", "y", "x"], 200),
    ...                       "model_b": np.repeat(["y", "z", "z"], 200)})
    >>> u, p_a = rng.random(600), np.repeat([0.6, 0.6, 0.75], 200)
    >>> human = np.where(u < 0.9 * p_a, "a", np.where(u < 0.9 * p_a + 0.1, "tie", "b"))
    >>> pairs["judge"] = np.where(rng.random(600) < 0.8, human, "tie")
    >>> pairs["human"] = np.where(rng.random(600) < 0.25, human, None)
    >>> board = js.pairwise(pairs, design="random", confidence_level=0.95, rng=0)
    >>> board.models, board.confidence_level
    (('x', 'y', 'z'), 0.95)
    >>> board.strength_ci.round(3)
    array([[ 0.184,  0.531],
           [-0.082,  0.282],
           [-0.649, -0.266]])
    """

    kind: ClassVar[str] = "pairwise-leaderboard"

    models: tuple
    strength: np.ndarray
    strength_se: np.ndarray
    strength_ci: np.ndarray
    tie: float
    tie_ci: np.ndarray
    confusion: np.ndarray
    judge_labels: tuple
    win_probability: np.ndarray
    win_probability_ci: np.ndarray
    rank: np.ndarray
    rank_set: np.ndarray
    rank_probabilities: np.ndarray
    naive: DavidsonFit | None
    human_only: DavidsonFit | None
    method: str
    estimator: str
    interval: str
    rank_method: str
    design: str
    confusion_kind: str
    lam: float | None
    prediction: str | None
    independence: IndependenceTest
    confidence_level: float
    n_judged: int
    n_labelled: int
    covariance: np.ndarray
    converged: bool
    notes: tuple
    cluster: str | None
    n_clusters: int | None
    # the row path's (keyword-only with defaults, so that subclasses may add fields)
    predictors: tuple = field(default=(), kw_only=True)
    covariates: tuple = field(default=(), kw_only=True)
    controls: tuple = field(default=(), kw_only=True)
    control_coefficient: np.ndarray | None = field(default=None, kw_only=True)
    control_se: np.ndarray | None = field(default=None, kw_only=True)
    control_ci: np.ndarray | None = field(default=None, kw_only=True)

    @property
    def elo(self) -> np.ndarray:
        """Strengths on the Elo scale (``400/ln 10`` per unit of log strength; sum zero)."""
        return ELO_PER_LOGIT * self.strength

    @property
    def elo_ci(self) -> np.ndarray:
        """Intervals of the strengths on the Elo scale."""
        return ELO_PER_LOGIT * self.strength_ci

    @property
    def order(self) -> tuple:
        """Models by point rank, strongest first."""
        return tuple(self.models[i] for i in np.argsort(self.rank))

    def prob_win(self, a: str, b: str) -> float:
        """P(a human prefers model ``a`` to model ``b``) (a tie counts as neither)."""
        return float(self.win_probability[self.models.index(a), self.models.index(b)])

    def to_dataframe(self) -> pd.DataFrame:
        """One row per model, strongest first: rank, rank set, strengths, Elo, naive, human-only."""
        from .tables import leaderboard_frame

        return leaderboard_frame(self)

    def to_xarray(self) -> xr.Dataset:
        """Return the leaderboard as an xarray Dataset (ArviZ's ``ci_bound`` layout).

        See :func:`~judgestats.pairwise.tables.leaderboard_xarray` for the variables.
        """
        from .tables import leaderboard_xarray

        return leaderboard_xarray(self)

    def plot(self, *, ax: Any = None, scale: str = "elo", show_fits: bool = True) -> Any:
        """Draw the strengths with intervals and rank sets, and the P(rank = r) heat map.

        See :func:`~judgestats.pairwise.figure.plot_pairwise` (``ax``: None or a pair of
        Axes); returns the strengths panel's Axes, as every plot of the package does.
        """
        from .figure import plot_pairwise

        return plot_pairwise(self, ax=ax, scale=scale, show_fits=show_fits)

    def summary(self) -> str:
        """Return the leaderboard as text, naming the estimator, the intervals and the design."""
        from .tables import leaderboard_summary

        return leaderboard_summary(self)

    def __repr__(self) -> str:
        top = ", ".join(f"{m}" for m in self.order[:3])
        return (
            f"PairwiseLeaderboard({len(self.models)} models, top: {top}; method={self.method!r}, "
            f"design={self.design!r}, interval={self.interval!r}, "
            f"confidence_level={self.confidence_level})"
        )


_IDENTITY = np.eye(3)


def _plain_fit(source: str, counts: PairCounts, confidence_level: float) -> DavidsonFit:
    """Davidson's model on verdicts taken as human (confusion fixed to the identity)."""
    fit = fit_joint(counts, confusion=_IDENTITY)
    strength = fit.strength
    _, ci = strength_intervals(strength, fit.strength_covariance("sandwich"), confidence_level)
    return DavidsonFit(source, fit.models, strength, ci, fit.tie, fit.n, confidence_level)


def _as_verdicts(counts: PairCounts, judged: np.ndarray) -> PairCounts:
    """Return ``counts`` with ``judged`` (P × 3 verdicts) as its only, unlabelled, pairs."""
    empty = np.zeros((judged.shape[0], 3, 3), dtype=np.int64)
    return PairCounts(counts.models, counts.first, counts.second, judged, empty, HUMAN_VERDICTS)


def _naive_fit(counts: PairCounts, confidence_level: float, notes: list) -> DavidsonFit | None:
    if counts.judge_labels != HUMAN_VERDICTS:
        notes.append("naive: not fitted (the judge's alphabet is not a/tie/b)")
        return None
    verdicts = counts.judged + counts.labelled.sum(axis=2)
    return _plain_fit("judge", _as_verdicts(counts, verdicts), confidence_level)


def _human_fit(
    counts: PairCounts, confidence_level: float, design: Design, notes: list
) -> DavidsonFit | None:
    if not design.strengths_from_labels:
        notes.append("human-only: not fitted (pairs chosen by their human verdict are biased)")
        return None
    verdicts = counts.labelled.sum(axis=1)
    keep = verdicts.sum(axis=1) > 0
    parts = _components(len(counts.models), counts.first[keep], counts.second[keep])
    if len(parts) > 1:
        notes.append("human-only: not fitted (the calibration pairs do not connect every model)")
        return None
    sub = PairCounts(
        counts.models,
        counts.first[keep],
        counts.second[keep],
        verdicts[keep],
        np.zeros((int(keep.sum()), 3, 3), dtype=np.int64),
        HUMAN_VERDICTS,
    )
    try:
        return _plain_fit("human", sub, confidence_level)
    except ValueError as exc:  # e.g. a singular information on very few pairs
        notes.append(f"human-only: not fitted ({exc})")
        return None


@dataclass(frozen=True, slots=True)
class _Options:
    """What :func:`pairwise` was asked for besides the spec, validated."""

    spec: EstimationSpec
    prediction: str
    confusion: Any
    interval: str
    bootstrap: int
    rng: np.random.Generator
    cluster: str | None

    @property
    def level(self) -> float:
        return float(self.spec.confidence_level)


def _joint_fit(counts: PairCounts, options: _Options, start: Any = None) -> JointFit:
    """Fit the joint confusion model (the calibration pairs used as the design allows)."""
    return fit_joint(
        counts,
        confusion=options.confusion,
        strengths_from_labels=options.spec.design.strengths_from_labels,
        start=start,
    )


def _ppi_fit(counts: PairCounts, options: _Options, start: Any = None) -> PredictionPoweredFit:
    """Fit the prediction-powered equation (``start`` unused: Newton needs none)."""
    joint = _joint_fit(counts, options) if options.prediction == "confusion" else None
    return fit_prediction_powered(
        counts, design=options.spec.design, prediction=options.prediction, joint=joint
    )


@dataclass(frozen=True, slots=True)
class _Estimator:
    """The implementation of a ``method=`` of the capability table's pairwise rows."""

    #: what results call it
    estimator: str
    #: the ``interval=`` covariances it has
    covariances: tuple[str, ...]
    #: ``fit(counts, options, start)``
    fit: Callable[..., JointFit | PredictionPoweredFit]
    #: the prediction-powered equation (λ, a prediction, the calibration pairs' own confusion)
    prediction_powered: bool = False


#: The implementations; which of them a design allows is the capability table's.
IMPLEMENTATIONS = {
    "ppi": _Estimator(
        "Davidson Bradley-Terry with ties, prediction-powered (PPI++) estimating equation",
        INTERVALS[:1], _ppi_fit, prediction_powered=True,
    ),
    "joint-mle": _Estimator(
        "Davidson Bradley-Terry with ties, judge confusion, joint maximum likelihood",
        INTERVALS, _joint_fit,
    ),
}  # fmt: skip


def _fit(counts: PairCounts, options: _Options, start: Any = None) -> Any:
    """Fit the spec's method (:data:`IMPLEMENTATIONS`)."""
    return IMPLEMENTATIONS[options.spec.method].fit(counts, options, start)


def _ranks(fit: Any, cov: np.ndarray, options: _Options, counts: PairCounts, notes: list):
    """Rank sets and rank probabilities (:func:`~judgestats.pairwise.intervals.rank_summary`)."""

    def refit(rng: np.random.Generator) -> np.ndarray:
        return _fit(resample_pairs(counts, rng), options, start=fit.theta).strength

    sets, probs, rank_method, failed = rank_summary(
        fit.strength, cov, options.level, options.rng, options.bootstrap, refit
    )
    if failed:
        notes.append(f"bootstrap: {failed} of {options.bootstrap} refits failed and were left out")
    return sets, probs, rank_method


def pairwise(
    frame: Any,
    *,
    confidence_level: float = 0.95,
    design: str = RANDOM,
    method: str | None = None,
    prediction: Any = "judge-letter",
    confusion: Any = "general",
    interval: str = "sandwich",
    bootstrap: int = 0,
    rng: Any = None,
    cluster: str | None = None,
    covariates: Any = None,
    control: Any = None,
    **columns: Unpack[PairColumns],
) -> PairwiseLeaderboard:
    """Rank models from pairwise judge verdicts, corrected for the judge's errors.

    The human verdict on a pair follows Davidson's (1970) Bradley–Terry model with ties. By
    default (``method="ppi"``) its strengths solve the prediction-powered (PPI++) estimating
    equation (:mod:`judgestats.pairwise.prediction_powered`): the judge's verdicts on every
    pair predict the human verdict, and the calibration pairs correct the prediction's error,
    so the estimate is consistent and its sandwich intervals valid *whatever the judge does*,
    as long as the calibration pairs were drawn at random (or at random within judge
    letters). ``method="joint-mle"`` instead fits a judge confusion matrix jointly with the
    strengths by maximum likelihood (:mod:`judgestats.pairwise.likelihood`): narrower when its
    assumption holds -- the judge's letter depends on the pair only through the human
    verdict -- and biased when it fails, which it does on the Chatbot Arena data (a
    :class:`~judgestats.JudgeDependenceWarning` fires when the calibration pairs reject it,
    :func:`~judgestats.pairwise.independence_test`). Every model gets a strength with an
    interval (sum-to-zero log strengths, also on the Elo scale), every pair a win probability
    with an interval, and ranks come with probabilities and simultaneous rank sets
    (:mod:`judgestats.pairwise.intervals`).

    Parameters
    ----------
    frame : data frame
        One row per comparison, of any engine narwhals reads (pandas, polars, pyarrow,
        DuckDB, ...); counted on the engine (:func:`~judgestats.pairwise.count_pairs`).
    confidence_level : float, default 0.95
        Level of every interval and of the rank sets' simultaneous guarantee; stored.
    design : {"random", "by-judge-label", "by-human-label"}, default "random"
        How the calibration pairs were chosen. ``"random"`` (a random subset of the pairs)
        and ``"by-judge-label"`` (random within judge verdicts; ``"ppi"`` weights each
        calibration pair by the inverse of its letter's labelled share, the joint likelihood
        is unchanged). Under ``"by-human-label"`` (pairs chosen by their *human* outcome,
        e.g. a set with as many ties as wins) their human verdicts would bias the strengths:
        ``"ppi"`` is refused, and ``"joint-mle"`` (the default there) uses the calibration
        pairs for the judge's confusion only, the strengths coming from the judged pairs
        through the confusion model (valid only under its assumption); no human-only fit is
        shown.
    method : {"ppi", "joint-mle"}, optional
        The estimator (above); default the capability table's for the design
        (:mod:`judgestats.designs.capabilities`): ``"ppi"``, or ``"joint-mle"`` under
        ``design="by-human-label"``.
    prediction : {"judge-letter", "confusion"}, column name, mapping or list, default "judge-letter"
        ``"ppi"``'s prediction of the human verdict: the calibration pairs' distribution of
        the human verdict given the judge's letter (in the order shown), or the joint
        confusion model's posterior given the letter and the pair.
        (:mod:`judgestats.pairwise.prediction_powered`). Or columns: a text column of a/tie/b
        verdicts (a jury member), a numeric column of P(``model_a`` wins), a mapping
        ``{"a": col, "tie": col[, "b": col]}`` of a judge's verdict distribution, or a list
        of these (a jury); they are stacked into one prediction per row by a cross-fitted
        multinomial logistic regression on the calibration pairs
        (:mod:`judgestats.pairwise.predictor`). ``judge=`` still sets the letters of
        ``design="by-judge-label"`` and the naive fit.
    covariates : str or list of str, optional
        Pair-level columns (numbers, or text read as categories) that enter the prediction
        only: the strengths stay the human-vote Davidson strengths, the intervals narrow when
        the covariates predict the human verdict (and do not widen when they do not).
    control : str or list of str, optional
        Style control: numeric columns of ``model_a``'s value minus ``model_b``'s (e.g. the
        answers' length difference). The model shifts each pair's strength difference by
        ``δᵀ x``; the strengths are then *net of style* and each control's ``δ`` is reported
        with its interval (``control_coefficient``, ``control_ci``), both fitted on the human
        verdicts with the judge's help (:mod:`judgestats.pairwise.row_powered`).
    confusion : {"general", "symmetric"} or array_like, default "general"
        The joint model's confusion (``"joint-mle"``, or ``prediction="confusion"``):
        ``"general"``: a free J × 3 confusion in the order shown (a judge that prefers the
        first answer is expressible); ``"symmetric"``: swap-symmetric (no position bias;
        a/tie/b judges); a J × 3 matrix: the confusion is known and held fixed.
    interval : {"sandwich", "observed-information"}, default "sandwich"
        Covariance behind the Wald intervals: the sandwich ``I⁻¹ (Σ s sᵀ) I⁻¹`` or ``I⁻¹``
        (``"joint-mle"`` only; ``"ppi"`` is always a sandwich).
    bootstrap : int, default 0
        Bootstrap replicates (pairs resampled within unlabelled and calibration pairs, each
        refitted) for ``P(rank = r)`` and the rank sets (percentiles at ``α/(2K)`` and
        ``1 − α/(2K)``: Bonferroni over the K models). 0: rank probabilities from 4,000
        normal draws of the strengths, rank sets from the pairwise differences' intervals
        (Bonferroni over the ``K(K−1)/2`` pairs).
    rng : int or numpy.random.Generator, optional
        Seed of the rank draws.
    cluster : str, optional
        Column of a cluster id (e.g. the prompt): rows sharing it -- the same prompt judged
        several times, several human votes on one prompt -- are one sampling unit, and
        ``"ppi"``'s sandwich sums each cluster's score before the middle matrix
        (:mod:`judgestats.pairwise.prediction_powered`, "Clusters"). Rows are assumed labelled
        with the design's probability independently of other clusters (whole clusters, or
        rows within clusters, at random). ``"ppi"`` only, without ``bootstrap``; the naive and
        human-only fits shown beside still count rows.
    **columns
        The frame's columns, by keyword (:class:`~judgestats.pairwise.counting.PairColumns`,
        under Other Parameters).

    Other Parameters
    ----------------
    model_a, model_b : str, default "model_a", "model_b"
        Columns naming the two models compared.
    judge : str, default "judge"
        Column of the judge's verdict: ``"a"``/``"model_a"``, ``"b"``/``"model_b"`` or a tie
        (any text starting with ``"tie"``), or letters of ``judge_labels``.
    human : str, default "human"
        Column of the human verdict, missing on pairs without one; all tie kinds (``"tie"``,
        ``"tie (bothbad)"``, …) are merged into one tie
        (:mod:`judgestats.pairwise.counting`).
    position : str, optional
        Column saying which model the judge saw first (``"a"`` or ``"b"``); without it,
        ``model_a`` was shown first on every pair.
    judge_labels : sequence of str, optional
        The judge's own alphabet (rows of its J × 3 confusion), instead of a/tie/b.

    Returns
    -------
    PairwiseLeaderboard

    Raises
    ------
    ColumnError
        A named column is missing.
    SelfComparisonError
        A pair compares a model with itself.
    VerdictError
        A judge, human or position value outside its alphabet.
    CalibrationOnlyModelError, DisconnectedComparisonsError
        A model occurs only in calibration pairs; the comparison graph is disconnected.
    CountError
        A human verdict (a, tie or b) never occurs among the calibration pairs.
    NotInformativeError
        The data do not determine every strength and the confusion.
    MethodError
        ``method="ppi"`` with ``design="by-human-label"`` or ``interval="observed-information"``
        (the capability table's pairwise rows say what each design allows).
    ClusteredCountsError
        ``cluster=`` with ``method="joint-mle"`` or ``bootstrap`` (both count rows as pairs).
    TypeError
        A keyword that is neither an argument nor a column of :class:`PairColumns`.

    Warns
    -----
    JudgeDependenceWarning
        ``method="joint-mle"`` and the calibration pairs reject its conditional independence
        (p < ``DEPENDENCE_LEVEL`` = 0.01).

    See Also
    --------
    pairwise.independence_test : Whether judge and human verdicts are dependent.
    bayes.fit_pairwise : The Bayesian pairwise model.
    compare.rank : Rank groups of pass/fail verdicts.

    References
    ----------
    R. R. Davidson, "On extending the Bradley–Terry model to accommodate ties in paired
    comparison experiments", JASA 65 (1970) 317–328. R. A. Bradley and M. E. Terry, "Rank
    analysis of incomplete block designs I", Biometrika 39 (1952) 324–345. H. White, "Maximum
    likelihood estimation of misspecified models", Econometrica 50 (1982) 1–25 (sandwich).
    A. N. Angelopoulos, J. C. Duchi, T. Zrnic, "PPI++: Efficient prediction-powered
    inference", arXiv:2311.01453 (2023).

    Examples
    --------
    Three models compared in 600 pairs; the humans saw a quarter of them, and the judge turns a
    fifth of its verdicts into ties:

    >>> import numpy as np
    >>> import pandas as pd
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> pairs = pd.DataFrame({"model_a": np.repeat(["x", "y", "x"], 200),
    ...                       "model_b": np.repeat(["y", "z", "z"], 200)})
    >>> u, p_a = rng.random(600), np.repeat([0.6, 0.6, 0.75], 200)  # how often model_a wins
    >>> human = np.where(u < 0.9 * p_a, "a", np.where(u < 0.9 * p_a + 0.1, "tie", "b"))
    >>> pairs["judge"] = np.where(rng.random(600) < 0.8, human, "tie")
    >>> pairs["human"] = np.where(rng.random(600) < 0.25, human, None)
    >>> board = js.pairwise(pairs, design="random", confidence_level=0.95, rng=0)
    >>> board  # doctest: +NORMALIZE_WHITESPACE
    PairwiseLeaderboard(3 models, top: x, y, z; method='ppi', design='random',
    interval='sandwich', confidence_level=0.95)
    >>> cols = ["model", "rank", "strength", "strength_lower", "strength_upper", "naive_strength"]
    >>> print(board.to_dataframe()[cols].round(3))
      model  rank  strength  strength_lower  strength_upper  naive_strength
    0     x     1     0.358           0.184           0.531           0.415
    1     y     2     0.100          -0.082           0.282          -0.010
    2     z     3    -0.458          -0.649          -0.266          -0.406
    """
    names = pair_columns(columns, "pairwise")
    spec = _spec(design, method, confidence_level, clustered=cluster is not None)
    check_choice("interval", interval, INTERVALS)
    covariances = IMPLEMENTATIONS[spec.method].covariances
    if interval not in covariances:
        raise MethodError(
            f"method={spec.method!r} has {' or '.join(covariances)} intervals only, got "
            f"interval={interval!r}"
        )
    if cluster is not None and bootstrap:
        raise ClusteredCountsError(
            f"cluster={cluster!r} is handled by method={spec.method!r} without bootstrap only; "
            f"got bootstrap={bootstrap!r} (its refits treat every row as an independent pair)"
        )
    if isinstance(confusion, str):
        check_choice("confusion", confusion, ("general", "symmetric"))
    reps = 0 if bootstrap == 0 else check_positive_int("bootstrap", bootstrap)
    powered = IMPLEMENTATIONS[spec.method].prediction_powered
    request = row_request_of(frame, prediction, covariates, control, spec.method, reps,
                             prediction_powered=powered)  # fmt: skip
    options = _Options(spec, prediction, confusion, interval, reps, check_rng(rng), cluster)
    counts = count_pairs(frame, cluster=cluster, **names)
    check_pairs(
        counts,
        strengths_from_labels=spec.design.strengths_from_labels,
        confusion_known=not isinstance(confusion, str),
    )
    if request is None:
        return _leaderboard(_fit(counts, options), counts, options)
    fit = row_path_fit(frame, names, counts, request, design=spec.design, cluster=cluster,
                       rng=options.rng)  # fmt: skip
    return _leaderboard(fit, counts, options, request)


def _spec(design: Any, method: Any, confidence_level: Any, *, clustered: bool) -> EstimationSpec:
    """Resolve the design, method and level against the capability table's pairwise rows.

    The design's row first (a method the design refuses is a :class:`MethodError`, and no
    method gives the design's default), then, with ``cluster=``, the repeated items' row
    (a method that models every row as a pair is a :class:`ClusteredCountsError`).
    """
    spec = resolve_spec(judge=JUDGE, target=TARGET, design=design, method=method,
                        confidence_level=confidence_level, method_optional=True)  # fmt: skip
    if not clustered:
        return spec
    return resolve_spec(judge=JUDGE, target=TARGET, design=spec.design, method=spec.method,
                        confidence_level=spec.confidence_level, repeated=True)  # fmt: skip


def _method_notes(fit: Any, counts: PairCounts, options: _Options, notes: list) -> IndependenceTest:
    """Add notes on the method; run the independence test (warning under joint-mle)."""
    test = independence_test(counts)
    if IMPLEMENTATIONS[options.spec.method].prediction_powered:
        notes.append(
            f"prediction-powered: lambda = {fit.lam:.3f} (0 = human verdicts only, 1 = plain "
            f"PPI); prediction {fit.prediction!r}; valid whatever the judge does when the "
            "calibration pairs are random (within judge letters under 'by-judge-label')"
        )
        return test
    if not options.spec.design.strengths_from_labels:
        notes.append(
            "strengths from the judged pairs; calibration pairs used for the confusion only"
        )
    if test.pvalue < DEPENDENCE_LEVEL:
        message = (
            "the judge's verdict depends on the models beyond the human verdict on the "
            f"calibration pairs (conditional-independence test p = {test.pvalue:.2g}, X2 = "
            f"{test.statistic[0]:.1f}/{test.statistic[1]:.1f} on {test.df[0]}/{test.df[1]} df): "
            "the joint confusion model is misspecified and its strengths biased; "
            "use method='ppi'"
        )
        notes.append(message)
        warnings.warn(message, JudgeDependenceWarning, stacklevel=4)
    return test


def _leaderboard(
    fit: Any, counts: PairCounts, options: _Options, request: Any = None
) -> PairwiseLeaderboard:
    level, spec = options.level, options.spec
    notes: list[str] = []
    test = _method_notes(fit, counts, options, notes)
    extra = control_fields(fit, level, notes, request)
    cov = fit.strength_covariance("sandwich" if options.interval == "sandwich" else "observed")
    strength = fit.strength
    se, ci = strength_intervals(strength, cov, level)
    k = strength.size
    log_tie = float(np.log(fit.tie))
    tie_half = float(normal_quantile(level) * np.sqrt(max(cov[k, k], 0.0)))
    win, win_ci = win_probabilities(strength, log_tie, cov, level)
    sets, probs, rank_method = _ranks(fit, cov, options, counts, notes)
    if counts.clusters is not None:
        notes.append(
            f"clustered: the {counts.n_clusters} values of {options.cluster!r} are the "
            "sampling units (cluster-robust sandwich); the naive and human-only fits count rows"
        )
    if not fit.converged:
        notes.append("the optimiser stopped before the score vanished: check the fit")
    kind = options.confusion if isinstance(options.confusion, str) else "fixed"
    implementation = IMPLEMENTATIONS[spec.method]
    ppi = implementation.prediction_powered
    return PairwiseLeaderboard(
        models=fit.models,
        strength=strength,
        strength_se=se,
        strength_ci=ci,
        tie=fit.tie,
        tie_ci=np.exp([log_tie - tie_half, log_tie + tie_half]),
        confusion=fit.confusion,
        judge_labels=counts.judge_labels,
        win_probability=win,
        win_probability_ci=win_ci,
        rank=ranks_of(strength),
        rank_set=sets,
        rank_probabilities=probs,
        naive=_naive_fit(counts, level, notes),
        human_only=_human_fit(counts, level, spec.design, notes),
        method=spec.method,
        estimator=implementation.estimator,
        interval="sandwich" if ppi else options.interval,
        rank_method=rank_method,
        design=spec.design,
        confusion_kind="empirical" if ppi else kind,
        lam=fit.lam if ppi else None,
        prediction=fit.prediction if ppi else None,
        independence=test,
        confidence_level=level,
        n_judged=counts.n_judged,
        n_labelled=counts.n_labelled,
        covariance=cov,
        converged=fit.converged,
        notes=tuple(notes),
        cluster=options.cluster,
        n_clusters=counts.n_clusters,
        **extra,
    )
