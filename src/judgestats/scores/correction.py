"""``correct_scores()`` and its ScoreCorrection: a numeric judge score → the true rate θ.

Under ``design="random"`` (the labelled rows a simple random sample of the rows) a numeric
judge score s is calibrated to the human label y by cross-fitting
(:mod:`judgestats.scores.calibration`) and enters the prediction-powered mean with power
tuning (:mod:`judgestats.scores.prediction_powered`). With fewer than
:data:`MIN_SCORE_LABELS` labelled items the calibration is too noisy to lean on, and a
fallback fixed in advance answers: the score binned into the letters the user declared
(``bins=``, :func:`judgestats.alphabets.groups.correct_alphabet`), or the judge's letter
at a declared ``threshold=`` (:func:`judgestats.correct` with ``design="random"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    MethodError,
    check_choice,
    check_rng,
)
from .._validation.labels import check_bins, check_covariates
from .._validation.scores import check_folds, check_human, check_items, check_scores
from ..estimators import clip_warned
from ..kernels import z_value
from ..results import (
    ConfidenceInterval,
    Tabular,
    note_lines,
    rate_repr,
    width_variance,
)
from ..spec import EstimationSpec, resolve_spec
from .calibration import CALIBRATORS, DEFAULT_FOLDS, cross_fit
from .counts import PredictionPoweredCounts
from .covariates import CodedCategory
from .prediction_powered import fit_ppi, fit_ppi_columns, humans_only_variance

__all__ = ["MIN_SCORE_LABELS", "ScoreCorrection", "correct_scores", "score_spec"]

#: Fewer labelled items than this and the score's calibration is not used: the fallback fixed
#: in advance answers (``bins=`` letters, or the letter at ``threshold=``). With 100 labels a
#: 5-fold isotonic fit sees 80 per fold; below, the calibrated predictor's noise and the
#: Wald interval's small-sample error are not measured to stay inside the letter's
#: (benchmarks/results/scores.md measures the cells above it).
MIN_SCORE_LABELS = 100

#: The estimator's name on the result (with the calibrator's).
ESTIMATOR = "prediction-powered (PPI++, power-tuned)"


def score_spec(*, design: Any, confidence_level: Any, repeated: bool) -> EstimationSpec:
    """Resolve a judge score's spec against the capability table (its ``"score"`` row).

    Under a design the row lacks, the table's refusal (:class:`MethodError`) says what to
    declare instead: score bins, the judge alphabet of the existing estimators.
    """
    try:
        return resolve_spec(judge="score", target="rate", design=design, method=None,
                            confidence_level=confidence_level, repeated=repeated,
                            method_optional=True)  # fmt: skip
    except MethodError as err:
        raise MethodError(
            f"{err}; under design={str(design)!r} declare score bins before labelling "
            "(bins=[...]: each bin a judge letter, the judge alphabet of js.evaluate and "
            "js.correct_alphabet), never bins chosen by looking at the labels"
        ) from None


# ----------------------------------------------------------------------------- inputs
#: The checks' old private names, kept for the modules that import them from here
#: (compare/sources.py, jury/combined.py, bayes/scores.py): one home, in _validation.scores.
_scores, _human, _items, _check_folds = check_scores, check_human, check_items, check_folds


def _covariate_columns(covariates: Any, size: int) -> dict[str, Any] | None:
    """Check ``covariates=`` (:func:`check_covariates`), a ``CodedCategory`` kept as it is.

    Its engine checked it: one code per row, none missing.
    """
    if not isinstance(covariates, dict) or not any(isinstance(v, CodedCategory)
                                                   for v in covariates.values()):  # fmt: skip
        return check_covariates(covariates, size)
    for name, col in covariates.items():
        if isinstance(col, CodedCategory) and col.codes.shape != (size,):
            raise ArgumentTypeError(
                f"covariate {name!r} must be 1-D with one value per row ({size}), got shape "
                f"{col.codes.shape}"
            )
    rest = {k: v for k, v in covariates.items() if not isinstance(v, CodedCategory)}
    checked = check_covariates(rest, size) if rest else {}
    assert checked is not None
    return {k: checked.get(k, v) for k, v in covariates.items()}


def _check_threshold(threshold: Any) -> float | None:
    if threshold is None:
        return None
    if (isinstance(threshold, bool) or not isinstance(threshold, int | float | np.number)
            or not np.isfinite(threshold)):  # fmt: skip
        raise ArgumentTypeError(f"threshold must be a finite number, got {threshold!r}")
    return float(threshold)


# ----------------------------------------------------------------------------- fallback
def _fallback(
    s: np.ndarray, y: np.ndarray, labelled: np.ndarray, items: Any, *,
    bins: Any, threshold: float | None, confidence_level: float,
) -> tuple[Any, str]:  # fmt: skip
    """Run the fallback fixed for fewer than MIN_SCORE_LABELS items: (its result, what)."""
    import judgestats as js

    n_items = int(np.unique(items[labelled]).size) if items is not None else int(labelled.sum())
    if bins is not None and items is None:
        from ..alphabets import alphabet_counts
        from ..alphabets.groups import correct_alphabet

        human = np.full(s.size, None, dtype=object)
        human[labelled] = y.astype(int)
        letters, table = alphabet_counts({"judge": s, "human": human}, judge="judge", bins=bins)
        alpha = correct_alphabet(letters, table, design="random",
                                 confidence_level=confidence_level)  # fmt: skip
        return alpha, f"score bins as letters ({n_items} labelled items < {MIN_SCORE_LABELS})"
    if threshold is not None:
        letter = (s > threshold).astype(int)
        cluster = None if items is None else items
        test = js.JudgedCounts.from_labels(letter[~labelled], cluster=None if cluster is None
                                           else cluster[~labelled])  # fmt: skip
        cal = js.ConfusionCounts.from_labels(
            human=y.astype(int), judge=letter[labelled],
            cluster=None if cluster is None else cluster[labelled],
        )
        res = js.correct(test, cal, design="random", confidence_level=confidence_level)
        return res, (f"the letter score > {threshold:g} ({n_items} labelled items < "
                     f"{MIN_SCORE_LABELS})")  # fmt: skip
    need = (
        "threshold= declared (the judge's letter score > threshold; with cluster= the score "
        "binned by bins= is not supported yet)"
        if items is not None
        else "bins= or threshold= declared (the score binned into letters, or the judge's "
        "letter score > threshold)"
    )
    raise ArgumentTypeError(
        f"only {n_items} labelled items (< {MIN_SCORE_LABELS}): a score's calibration is not "
        f"used below that, and the fallback fixed in advance needs {need}"
    )


# ----------------------------------------------------------------------------- entry
def correct_scores(
    scores: Any,
    human: Any,
    *,
    cluster: Any = None,
    calibrator: str | None = None,
    covariates: Any = None,
    covariate_bins: Any = None,
    folds: int = DEFAULT_FOLDS,
    bins: Any = None,
    threshold: float | None = None,
    confidence_level: float = 0.95,
    design: str = "random",
    rng: Any = None,
) -> ScoreCorrection:
    """Correct a rate from a numeric judge score and a random sample of human labels.

    θ = P(human = 1) over all rows. The score (a probability, a logit, a 1–10 rating; higher
    means "more likely 1" for the isotonic calibrator) is calibrated to the human label by
    K-fold cross-fitting on the labelled rows (:mod:`judgestats.scores.calibration`), and
    θ̂ = λ̂·mean_N f̃(s) + mean_n (y − λ̂ f(s)), the prediction-powered mean with power
    tuning (PPI++, Angelopoulos, Duchi & Zrnic 2023; cross-fitted as Zrnic & Candès 2024),
    with the Wald interval θ̂ ± z·√Var(θ̂), its variance summed over items
    (:mod:`judgestats.scores.prediction_powered`). θ̂ is clipped to [0, 1] with a
    ``ClippedEstimateWarning``. With fewer than :data:`MIN_SCORE_LABELS` (100) labelled items
    a fallback declared in advance answers instead, recorded in ``fallback``: ``bins=`` (the
    score's letters, the random design's judge-alphabet estimator) or ``threshold=`` (the
    letter score > threshold, :func:`judgestats.correct` with ``design="random"``).

    Parameters
    ----------
    scores : 1-D array_like of float
        The judge's score on every row (finite).
    human : 1-D array_like
        The human label, 0/1 or booleans, on the labelled rows and None or NaN on the others.
        The labelled rows must be a simple random sample of the rows (``design="random"``).
    cluster : 1-D array_like, optional
        The item each row judges, when items repeat: the folds keep an item's rows together
        and the variance sums over items (rows may be labelled or not within one item).
    calibrator : {"isotonic", "binned", "logistic"}, optional
        How the score is calibrated (:data:`judgestats.scores.calibration.CALIBRATORS`);
        ``"binned"`` needs ``bins=``. Default ``"isotonic"``, and ``"logistic"`` (the only
        one that takes them) with ``covariates=``.
    covariates : array_like (rows × p) or mapping name → column, optional
        Covariates of each row (an answer's length, its position, a category; a column of
        numbers is a number, any other a category), whose role the design fixes
        (:mod:`judgestats.scores.covariates`; recorded as ``covariates_used_as``). Under
        ``design="random"`` they enter the **predictor**: the score (or a 0/1 letter), the
        covariates and their products with the score side by side in one cross-fitted
        logistic calibrator (so a covariate can change how far the score is trusted, not only
        shift it), then the same PPI++ mean. Under ``"by-human-label"`` and
        ``"by-judge-label"`` they are **strata**: the judge must be a 0/1 letter, corrected
        stratum by stratum and pooled by the test mix (:func:`judgestats.correct_stratified`,
        its default interval; the result wraps it as ``stratified_result``). Not used by the
        small-sample fallback.
    covariate_bins : mapping name → edges, optional
        Under the strata designs, bin edges declared before labelling for a numeric covariate
        with more than :data:`~judgestats.scores.covariates.MAX_LEVELS` (10) values (refused
        without them); covariates with ``design="random"`` need none.
    folds : int, default 5
        Cross-fitting folds (at least 2; :data:`~judgestats.scores.calibration.DEFAULT_FOLDS`).
    bins : sequence of float, optional
        Score bin edges declared before labelling (as :func:`judgestats.judge_letters`): the
        ``"binned"`` calibrator's, and the letters of the small-sample fallback.
    threshold : float, optional
        The judge's letter is score > threshold: the small-sample fallback without ``bins``;
        with 100 or more labelled items (and no covariates) the letter is also a second
        control variate beside the calibrated score
        (:func:`~judgestats.scores.prediction_powered.fit_ppi_columns`), so a score that
        carries nothing beyond its letter costs no cross-fitting noise: at 100–300 labels
        at most 1.011× the letter's width (1.041× with the score alone), and informative
        scores 0.56 % narrower in median (``benchmarks/results/scores_two.md``, 28 cells).
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    design : str, default "random"
        ``"random"`` (the capability table's ``"score"`` row); another design is refused
        naming what to declare (score bins, a judge alphabet), except with ``covariates=``
        and a 0/1 judge (the covariates then strata).
    rng : None, int, SeedSequence or Generator
        Draws the folds.

    Returns
    -------
    ScoreCorrection

    Raises
    ------
    MethodError
        ``design`` other than ``"random"`` (with ``covariates=``: a judge not 0/1).
    ArgumentTypeError, LabelError
        Bad scores, labels, cluster ids, calibrator, folds, bins or threshold; fewer than 100
        labelled items with neither ``bins`` nor ``threshold`` declared.

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.3
    >>> s = 1 / (1 + np.exp(-(2.5 * (2 * y - 1) + rng.normal(0, 1.5, 2000))))
    >>> human = np.where(np.arange(2000) < 400, y, np.nan)
    >>> res = js.scores.correct_scores(s, human, rng=1)
    >>> res.n_labelled, res.fallback, round(res.estimate, 2)
    (400, None, 0.29)

    A covariate that tells where the judge errs (here: long answers make its score run
    high) enters the predictor under the random design:

    >>> length = rng.integers(50, 800, 2000)
    >>> s_long = np.clip(s + 0.25 * (length > 400), 0, 1)
    >>> res = js.scores.correct_scores(s_long, human, covariates={"length": length}, rng=1)
    >>> res.covariates_used_as, res.calibrator, res.covariates
    ('predictor', 'logistic', ('length',))
    """
    if covariates is not None and not _predictor_design(design, cluster is not None):
        return _covariates_as_strata(scores, human, cluster=cluster, covariates=covariates,
                                     covariate_bins=covariate_bins, design=design,
                                     confidence_level=confidence_level)  # fmt: skip
    spec = score_spec(design=design, confidence_level=confidence_level,
                      repeated=cluster is not None)  # fmt: skip
    s = check_scores(scores)
    y, labelled = check_human(human, s.size)
    items = check_items(cluster, s.size)
    cols = _covariate_columns(covariates, s.size)
    calibrator = _check_calibrator(calibrator, cols is not None)
    if covariate_bins is not None:
        raise ArgumentTypeError("covariate_bins= bins covariates used as strata; under "
                                f"design={str(spec.design)!r} they enter the predictor")
    folds = check_folds(folds)
    edges = None if bins is None else check_bins(bins)
    if calibrator == "binned" and edges is None:
        raise ArgumentTypeError("calibrator='binned' needs bins= (edges declared in advance)")
    threshold = _check_threshold(threshold)
    gen = check_rng(rng)
    n_items = int(labelled.sum()) if items is None else int(np.unique(items[labelled]).size)
    common = {"confidence_level": spec.confidence_level, "design": spec.design,
              "calibrator": calibrator, "n_labelled": int(labelled.sum()), "m1": int(y.sum()),
              "n_unlabelled": int((~labelled).sum()),
              "items": None if items is None else int(np.unique(items).size)}  # fmt: skip
    if n_items < MIN_SCORE_LABELS:
        res, what = _fallback(s, y, labelled, items, bins=edges, threshold=threshold,
                              confidence_level=spec.confidence_level)  # fmt: skip
        if cols is not None:
            what += "; covariates not used"
        return ScoreCorrection.from_fallback(res, what, naive=float(res.naive), **common)
    x_lab, x_unl = s[labelled], s[~labelled]
    if cols is not None:
        from .covariates import covariate_matrix, predictor_columns

        matrix, names = covariate_matrix(cols)
        x_lab = predictor_columns(x_lab, matrix[labelled])
        x_unl = predictor_columns(x_unl, matrix[~labelled], order="F")
        common.update(covariates_used_as="predictor", covariates=tuple(names))
    lab_items = np.arange(y.size) if items is None else items[labelled]
    fit = cross_fit(x_lab, y, x_unl, lab_items, calibrator=calibrator, folds=folds, bins=edges,
                    rng=gen)  # fmt: skip
    where: dict[str, Any] = {
        "items_lab": None if items is None else items[labelled],
        "items_unl": None if items is None else items[~labelled],
        "rare_adjust": True,
    }
    if threshold is None or cols is not None:
        ppi = fit_ppi(y, fit.labelled, fit.unlabelled, **where)
    else:  # the declared letter beside the calibrated score (fit_ppi_columns' docstring;
        # measured without covariates only: benchmarks/results/scores_two.md)
        letter = (s > threshold).astype(float)
        ppi = fit_ppi_columns(y, np.column_stack([letter[labelled], fit.labelled]),
                              np.column_stack([letter[~labelled], fit.unlabelled]), **where)
        common["threshold"] = threshold
    common["naive"] = float(fit.unlabelled.mean()) if fit.unlabelled.size else float("nan")
    return _result(ppi, fit.folds, y, items, labelled, common)


def _predictor_design(design: Any, repeated: bool) -> bool:
    """Whether the capability table's score row holds ``design`` (covariates: a predictor)."""
    from ..designs.capabilities import rows

    return any(r.matches("score", "rate", design, repeated) for r in rows())


def _check_calibrator(calibrator: Any, with_covariates: bool) -> str:
    if calibrator is None:
        return "logistic" if with_covariates else "isotonic"
    check_choice("calibrator", calibrator, tuple(CALIBRATORS))
    if with_covariates and calibrator != "logistic":
        raise ArgumentTypeError(
            f"calibrator={calibrator!r} calibrates the score alone; with covariates= the "
            "predictor is calibrator='logistic' (the default with covariates)"
        )
    return str(calibrator)


def _covariates_as_strata(
    scores: Any, human: Any, *, cluster: Any, covariates: Any, covariate_bins: Any,
    design: Any, confidence_level: float,
) -> ScoreCorrection:  # fmt: skip
    """Under a design the score row lacks, covariates are strata of a 0/1 judge's letter."""
    from .covariates import covariate_strata, stratified_letters

    s = check_scores(scores)
    bad = np.flatnonzero((s != 0) & (s != 1))
    if bad.size:
        raise MethodError(
            f"under design={str(design)!r} covariates= are strata of a 0/1 judge letter, and "
            f"scores holds {s[bad[0]]!r} (index {bad[0]}); declare score bins before "
            "labelling (bins=[...], a judge alphabet) or use design='random'"
        )
    y, labelled = check_human(human, s.size)
    items = check_items(cluster, s.size)
    cols = _covariate_columns(covariates, s.size)
    assert cols is not None
    strata = covariate_strata(cols, covariate_bins)
    res = stratified_letters(s.astype(int), y, labelled, strata, items=items, design=design,
                             confidence_level=confidence_level)  # fmt: skip
    return ScoreCorrection(
        estimate=float(res.estimate), ci=res.ci,
        estimate_unclipped=float(getattr(res, "estimate_unclipped", res.estimate)),
        clipped=bool(getattr(res, "clipped", False)), method=res.method,
        estimator=f"stratified ({res.design.estimator}), strata the covariates",
        confidence_level=res.confidence_level,
        design=res.design, calibrator="none", n_labelled=int(labelled.sum()),
        n_unlabelled=int((~labelled).sum()), m1=int(y.sum()), naive=float(res.naive),
        items=None if items is None else int(np.unique(items).size),
        variance=width_variance(res.ci), covariates_used_as="strata",
        covariates=tuple(cols), stratified_result=res,
    )  # fmt: skip


def _result(ppi: Any, folds: int, y: np.ndarray, items: Any, labelled: np.ndarray,
            common: dict) -> ScoreCorrection:  # fmt: skip
    threshold = common.pop("threshold", None)
    level = common["confidence_level"]
    half = float(z_value(level)) * np.sqrt(ppi.variance)
    low, high = max(ppi.estimate - half, 0.0), min(ppi.estimate + half, 1.0)
    ci = ConfidenceInterval(low=low, high=high, method="wald", confidence_level=level)
    estimate = float(clip_warned(ppi.estimate, stacklevel=4, estimator="PPI++"))
    humans = humans_only_variance(y, None if items is None else items[labelled])
    return ScoreCorrection(
        estimate=estimate, ci=ci, estimate_unclipped=ppi.estimate,
        clipped=bool(ppi.estimate < 0 or ppi.estimate > 1), method="wald",
        estimator=f"{ESTIMATOR}, cross-fitted {common['calibrator']} calibration"
        + ("" if threshold is None else f", the letter score > {threshold:g} beside it"),
        lam=ppi.lam, folds=folds, variance=ppi.variance, humans_only_variance=humans,
        lam_letter=None if ppi.lams is None else ppi.lams[0], **common,
    )


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True)
class ScoreCorrection(PredictionPoweredCounts, Tabular):
    """A rate corrected from a numeric judge score, from :func:`correct_scores`.

    Attributes
    ----------
    estimate : float
        θ̂ in [0, 1]: the PPI++ estimate (or the fallback's, named by ``estimator``).
    ci : ConfidenceInterval
        Its interval at ``confidence_level`` (``method``: ``"wald"`` for PPI++).
    estimate_unclipped : float
        θ̂ before clipping; ``clipped`` says whether it was outside [0, 1].
    clipped : bool
        True when θ̂ fell outside [0, 1] (a ``ClippedEstimateWarning`` was issued).
    method, estimator : str
        The interval method and the point estimator (with the calibrator's name).
    confidence_level : float
        Two-sided level of ``ci``.
    design : Design
        ``"random"``.
    calibrator : str
        ``"isotonic"``, ``"binned"`` or ``"logistic"`` (``"none"`` with covariates as strata).
    n_labelled, n_unlabelled : int
        Rows with and without a human label (``m0 + m1`` and ``n``, as a ``Correction``
        names its calibration and test rows).
    m1 : int
        Labelled rows with human label 1 (``m0`` the others).
    naive : float
        What the judge alone says: the calibrated score's mean over the unlabelled rows (the
        fallback's naive rate under a fallback); NaN with no unlabelled row.
    items : int or None
        With ``cluster=``: the items (the variance sums over them); None otherwise.
    lam : float or None
        The power-tuning λ̂ of the calibrated score (in [0, 1] alone: 0 the human labels
        alone, 1 plain PPI; ≥ 0 beside a letter); None under a fallback.
    lam_letter : float or None
        With ``threshold=`` declared (and PPI++ answering): the λ̂ of the letter
        1{score > threshold}, the second control variate beside the score
        (:func:`~judgestats.scores.prediction_powered.fit_ppi_columns`); None otherwise.
    folds : int or None
        Cross-fitting folds used; None under a fallback.
    variance : float
        Var(θ̂) the interval rests on (PPI++'s, summed over items; a fallback's: the variance
        its interval's width implies).
    humans_only_variance : float or None
        Var(ȳ) of the labelled rows alone (over items with ``cluster=``): what the judge's
        score is measured against. None under a fallback.
    fallback : str or None
        What answered with fewer than 100 labelled items (None: PPI++ did).
    fallback_result : Correction, AlphabetCorrection or None
        The fallback's own result.
    covariates_used_as : {"predictor", "strata"} or None
        With ``covariates=``: what they were (the random design's predictor, or strata under
        the other designs); None without covariates or under the fallback.
    covariates : tuple of str or None
        The covariate columns used (a category's as ``"name=level"`` under "predictor").
    stratified_result : StratifiedCorrection or None
        Under "strata", the stratified correction the estimate is.

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.5
    >>> s = np.where(y, 0.7, 0.3) + rng.normal(0, 0.2, 1000)
    >>> res = js.scores.correct_scores(s, np.where(np.arange(1000) < 300, y, None), rng=0)
    >>> res.method, res.calibrator, res.folds, 0.0 <= res.lam <= 1.0
    ('wald', 'isotonic', 5, True)
    """

    kind: ClassVar[str] = "score-correction"

    estimate: float
    ci: ConfidenceInterval
    estimate_unclipped: float
    clipped: bool
    method: str
    estimator: str
    confidence_level: float
    design: Any
    calibrator: str
    n_labelled: int
    n_unlabelled: int
    m1: int
    naive: float
    items: int | None
    variance: float
    lam: float | None = None
    folds: int | None = None
    humans_only_variance: float | None = None
    fallback: str | None = field(default=None, kw_only=True)
    fallback_result: Any = field(default=None, kw_only=True)
    lam_letter: float | None = field(default=None, kw_only=True)
    covariates_used_as: str | None = field(default=None, kw_only=True)
    covariates: tuple[str, ...] | None = field(default=None, kw_only=True)
    stratified_result: Any = field(default=None, kw_only=True)

    @classmethod
    def from_fallback(cls, res: Any, what: str, **common: Any) -> ScoreCorrection:
        """Wrap a fallback's result (its estimate, interval and names) with ``what`` it was."""
        return cls(estimate=float(res.estimate), ci=res.ci,
                   estimate_unclipped=float(getattr(res, "estimate_unclipped", res.estimate)),
                   clipped=bool(getattr(res, "clipped", False)), method=res.method,
                   estimator=str(res.estimator), variance=width_variance(res.ci),
                   fallback=what, fallback_result=res, **common)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict of the tidy row (JSON-serialisable)."""
        return {
            "estimate": self.estimate, "ci_low": self.ci.low, "ci_high": self.ci.high,
            "estimator": self.estimator, "method": self.method, "design": str(self.design),
            "confidence_level": self.confidence_level, "calibrator": self.calibrator,
            "lam": self.lam, "lam_letter": self.lam_letter, "folds": self.folds,
            "n_labelled": self.n_labelled,
            "n_unlabelled": self.n_unlabelled, "naive": self.naive, "n": self.n,
            "m0": self.m0, "m1": self.m1, "items": self.items,
            "effective_labels": self.effective_labels, "fallback": self.fallback,
            "clipped": self.clipped, "estimate_unclipped": self.estimate_unclipped,
            "covariates_used_as": self.covariates_used_as,
            "covariates": None if self.covariates is None else ", ".join(self.covariates),
        }  # fmt: skip

    def _records(self) -> list[dict[str, Any]]:
        return [self.to_dict()]

    def summary(self) -> str:
        """Return a short human-readable report."""
        lvl = f"{100 * self.confidence_level:g}%"
        unit = "rows" if self.items is not None else "items"
        lines = [
            f"Corrected rate ({self.estimator}), {lvl} interval by {self.method}, "
            f"design {self.design}",
            f"  corrected estimate   {self.estimate:.4f}  [{self.ci.low:.4f}, {self.ci.high:.4f}]",
            f"  labelled {unit}       {self.n_labelled}  (unlabelled {self.n_unlabelled}"
            + ("" if self.items is None else f"; {self.items} items") + ")",
        ]
        if self.lam is not None:
            lines.append(f"  power tuning λ̂      {self.lam:.3f}  ({self.folds} folds, "
                         f"{self.calibrator} calibration)")  # fmt: skip
        if self.lam_letter is not None:
            lines.append(f"  the letter's λ̂      {self.lam_letter:.3f}  (a second control "
                         "variate)")  # fmt: skip
        worth = self.effective_labels
        if worth is not None:
            alone = "independent items' labels" if self.items is not None else "human labels"
            lines.append(f"  effective labels     {worth:.0f}  ({alone} alone as precise)")
        lines += note_lines(
            self.fallback and f"fallback: {self.fallback}",
            self.covariates_used_as and (
                f"covariates ({', '.join(self.covariates or ())}) used as "
                f"{self.covariates_used_as}"),
            self.clipped and f"the estimate {self.estimate_unclipped:.4f} was clipped to [0, 1]",
        )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(self.summary())}</pre>"

    def __repr__(self) -> str:
        return rate_repr(
            "ScoreCorrection", estimate=self.estimate, ci=self.ci, method=self.method,
            estimator=self.estimator, design=self.design, confidence_level=self.confidence_level,
            n_labelled=self.n_labelled, clipped=self.clipped,
        )  # fmt: skip
