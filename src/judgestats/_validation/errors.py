"""The error and warning classes of judgestats, in one place.

Errors subclass :class:`JudgeStatsError` (a ``ValueError``); wrong types raise
:class:`ArgumentTypeError`, both a ``JudgeStatsError`` and a ``TypeError``. Warnings subclass
:class:`JudgeStatsWarning`.
"""

from __future__ import annotations

__all__ = [  # every public name, re-exported by the package
    "ArgumentTypeError",
    "CalibrationOnlyModelError",
    "ClippedEstimateWarning",
    "ClusteredCountsError",
    "ColumnError",
    "ComparisonGraphError",
    "ConfidenceLevelError",
    "ConfusedCategoriesError",
    "CountError",
    "DesignWarning",
    "DisconnectedComparisonsError",
    "DuplicateRatingError",
    "EmptyGroupError",
    "GroupError",
    "GroupLabelError",
    "IllConditionedError",
    "InvalidVerdictWarning",
    "JudgeDependenceWarning",
    "JudgeShiftWarning",
    "JudgeStatsError",
    "JudgeStatsWarning",
    "LabelError",
    "LabelShiftWarning",
    "LatentBoundaryWarning",
    "LookalikeGroupsWarning",
    "MethodError",
    "MetricUndefinedWarning",
    "ModelKeyError",
    "NotInformativeError",
    "PlanningWarning",
    "PriorError",
    "ProbabilityError",
    "ProjectedEstimateWarning",
    "RatingsError",
    "RepeatedItemsWarning",
    "SamplingWarning",
    "SelfComparisonError",
    "SequentialError",
    "SparseLettersWarning",
    "SparseStratumError",
    "StrataMismatchError",
    "TableError",
    "TooFewSharedItemsError",
    "ToolOutputError",
    "UnidentifiableModelError",
    "UnknownCategoryError",
    "UnratedItemError",
    "VerdictError",
    "WeakCalibrationWarning",
    "WeightsError",
]


# --------------------------------------------------------------------------- errors
class JudgeStatsError(ValueError):
    """Base class of every judgestats error about a bad argument value."""


class ArgumentTypeError(JudgeStatsError, TypeError):
    """An argument has the wrong type (e.g. a string where a count is expected)."""


class CountError(JudgeStatsError):
    """A count is negative, fractional, NaN, or larger than its total."""


class LabelError(JudgeStatsError):
    """Labels are not 0/1/bool, are empty, or two label arrays differ in length."""


class ProbabilityError(JudgeStatsError):
    """A proportion or rate is outside [0, 1] or NaN."""


class ConfidenceLevelError(JudgeStatsError):
    """A confidence level is not strictly between 0 and 1."""


class MethodError(JudgeStatsError):
    """An unknown method name (the message lists the valid ones)."""


class ClusteredCountsError(MethodError):
    """Clustered counts (repeated items) where rows would be treated as independent items.

    The message names the methods or functions that account for the clusters.
    """


class SequentialError(JudgeStatsError):
    """A labelling process the sequential monitor cannot use.

    An unknown item, an item labelled twice, a design that cannot happen while labelling
    (``"by-human-label"``), or a batch whose inclusion probabilities are missing or do not match
    the strategy that drew it.
    """


class NotInformativeError(JudgeStatsError):
    """The judge is no better than chance (q0 + q1 <= 1): no correction is possible."""


# --------------------------------------------------------------------------- warnings
class JudgeStatsWarning(UserWarning):
    """Base class of judgestats warnings."""


class ClippedEstimateWarning(JudgeStatsWarning):
    """The Rogan–Gladen estimate fell outside [0, 1] and was clipped.

    The judged rate p̂ lies outside the range [1 − q̂0, q̂1] that the estimated error rates
    allow, most often because the calibration set is small. The result keeps the unclipped
    value (``estimate_unclipped``) and sets ``clipped=True``. When the whole adjusted-Wald
    interval lay outside [0, 1] too, its far bound is z times the standard error at the
    boundary (``ci.widened``; see :func:`judgestats.adjusted_wald_interval`).
    """


class LabelShiftWarning(JudgeStatsWarning):
    """The calibration set's human-positive rate differs from the corrected test rate.

    Rogan–Gladen stays valid under such label shift; estimators that assume the test and
    calibration distributions coincide (calibration-only, difference, conditional calibration)
    do not.
    """


class JudgeShiftWarning(JudgeStatsWarning):
    """The judge's confusion matrix differs between calibration batches.

    Issued by :func:`judgestats.evaluate` with ``batch=`` when
    :func:`judgestats.judge_shift_test` rejects at level 1 − ``confidence_level`` for a group
    (under no shift it fires on at most that share of groups). Pooled calibration batches then
    describe a judge that no longer exists: use the latest batch
    (``batch_choice="latest"``) or label more items with today's judge. Pooling is not
    chosen by the test: ``benchmarks/results/judge_shift.md`` measured the coverage that such a
    pre-test rule loses.
    """


class SamplingWarning(JudgeStatsWarning):
    """A resampling or sampling procedure had undefined replicates or poor diagnostics."""


class DesignWarning(JudgeStatsWarning):
    """The declared calibration design does not fit the data.

    Issued when ``design="random"`` is declared but the calibration set's judge-positive rate
    differs from the test set's more than sampling noise allows
    (:func:`judgestats.designs.design_check`): the calibration items were then not a random
    sample of the test population, and ``design="by-human-label"`` stays valid.
    """


# --------------------------------------------------------------------------- planning
class PlanningWarning(JudgeStatsWarning):
    """A planning rule met a boundary case (e.g. p̂ of 0 or 1) and applied its limit."""


# ------------------------------------------------------------------ bayes: priors, k categories
class PriorError(JudgeStatsError):
    """A prior is invalid: a Beta/Dirichlet parameter <= 0, NaN or inf, or of the wrong shape."""


# ------------------------------------------------------------------ k categories: multiclass.py
class IllConditionedError(NotInformativeError):
    """The estimated k × k confusion matrix is singular or too ill-conditioned to invert.

    The k-category analogue of q̂0 + q̂1 <= 1 (for k = 2, det Ĉ = q̂0 + q̂1 − 1): the judge's
    labels do not determine the true category distribution well enough for a correction.
    """


class ConfusedCategoriesError(IllConditionedError):
    """The calibration data cannot tell that the judge separates two human categories.

    A test of "the judge labels items of human category a and of category b with the same
    distribution" (two equal columns of the confusion matrix, a singular C) did not reject:
    θ is then not identified, whatever the condition number of the noisy estimate Ĉ.
    """


class ProjectedEstimateWarning(ClippedEstimateWarning):
    """The k-category estimate Ĉ⁻¹p̂ fell outside the probability simplex and was projected."""


# ------------------------------------------------------------------ compare.py / experiments.py
class ModelKeyError(JudgeStatsError):
    """Per-model arguments do not line up: a model lacks a calibration set, or keys differ."""


# ------------------------------------------------------------------ strata: strata.py
class StrataMismatchError(JudgeStatsError):
    """Two arguments that must cover the same strata do not (tests, calibrations, weights)."""


class SparseStratumError(CountError):
    """A stratum has fewer calibration items of a human class than ``min_per_class``.

    Its sensitivity or specificity would rest on a handful of items (or none). Merge it into
    another stratum (``merge=``) or lower ``min_per_class`` explicitly; it is never dropped.
    """


class WeightsError(ProbabilityError):
    """Stratum weights are not a probability vector over the strata (negative, NaN, sum ≠ 1)."""


# ------------------------------------------------------------ grouped evaluation: evaluate.py
class ColumnError(LabelError):
    """A frame lacks a named column, a label column has the wrong type, or a key is missing.

    Raised for a column an argument names that the frame does not have, a label column that
    is neither boolean nor numeric, and a group or stratum column with missing values.
    """


class GroupError(JudgeStatsError):
    """One group of an evaluated frame cannot be corrected; the message names the group."""


class EmptyGroupError(GroupError, CountError):
    """A group (or a stratum of one) lacks test rows or calibration rows of a human class."""


class GroupLabelError(GroupError, LabelError):
    """A group's judge, human or split column holds values outside the allowed set."""


# ------------------------------------------------------------------ weak judge / small calibration
class WeakCalibrationWarning(JudgeStatsWarning):
    """The chosen interval method is in its bad regime for this calibration set.

    Issued by :func:`judgestats.correct` by each method's rule
    (:func:`judgestats.intervals.weak_calibration`): for the Rogan–Gladen-based intervals, fewer
    than ``MIN_PER_CLASS`` calibration items of a human class, or for the plug-in ones a rate
    of 0 or 1. The message names the method that does better there.

    Measured against issue 27's criteria on 250 random cells (grid seed 2711,
    ``benchmarks/results/warning_rules.md``): for adjusted-Wald it fires on 56% of data sets and
    on more than 5% of them in 113 of the 209 cells where adjusted-Wald covers >= 0.945, and in
    4 of 109 cells with >= 100 unwarned data sets those cover below 0.93 (worst 0.901: judges
    near chance with >= 100 items per class). No rule on one data set tried there meets both
    criteria; see the README, "Which interval method when".
    """


class LookalikeGroupsWarning(JudgeStatsWarning):
    """Two group names differ only in spaces or in how a character is encoded.

    ``"alpha "`` beside ``"alpha"``, or ``" 7"`` beside ``"7"``: group names are read exactly
    as written, so these are distinct groups (often a typo in the data). Issued once per
    count of a frame (:func:`judgestats.frames.group_counts`), naming the pairs; tables and
    reports print such names quoted (``'alpha '``) so that they can be told apart.
    """


class RepeatedItemsWarning(JudgeStatsWarning):
    """A column identifies items that repeat, their repeats are correlated, and no cluster= given.

    Issued by :func:`judgestats.evaluate` when a frame has an item column
    (``judgestats.evaluate.ITEM_COLUMNS``: ``sample_id``, ``item_id``, ``question_id``, or
    ``item``, the item column of the eval-tool readers' frames) whose values repeat within a
    group and the repeats' design effect on θ̂ is measurably above
    :data:`judgestats.repeated.REPEAT_BOUND`: the intervals, which count rows as items, are
    then too short. The message names the column to pass as ``cluster=``.
    """



# ------------------------------------------------------------ judge alphabets: alphabets/
class SparseLettersWarning(JudgeStatsWarning):
    """Some judge letters have few calibration items: their rows of Ĉ are noisy.

    A letter with few calibration items is estimated mostly from the test set (joint maximum
    likelihood) and a letter with none is refused; merging it with a neighbour
    (:meth:`ConfusionMatrix.merge` and :meth:`CategoryCounts.merge` with the same mapping)
    trades a little information for stability. :func:`judgestats.plan.compare_alphabets`
    shows what a merge costs.
    """


# ---------------------------------------------------- files and eval tools' output: io, readers/
class TableError(JudgeStatsError):
    """A file that cannot be read as a table (missing, a directory, not CSV/Parquet/JSON)."""


class ToolOutputError(JudgeStatsError):
    """A file or directory that is not the named eval tool's output (or lacks a needed field).

    Raised by the readers of :mod:`judgestats.readers`; the message names the path, the tool
    and the field it misses.
    """


class InvalidVerdictWarning(JudgeStatsWarning):
    """Some verdicts of an eval tool's output are missing: they are the judge letter ``"invalid"``.

    A reader of :mod:`judgestats.readers` found rows without a verdict (the provider failed, a
    metric errored, a test had no model-graded assertion, a sample ended in error) and gave
    them the letter ``"invalid"``, never a fail. The message counts them by reason and names
    the first rows. Count them as a letter of the judge's alphabet (``js.evaluate(frame,
    invalid=["invalid"])``; ``judgestats report`` does) or rerun those items; silence means
    every row has a verdict.
    """


class VerdictError(LabelError):
    """An eval tool's verdicts include values that are not 0/1 and that no ``mapping=`` names.

    The message lists every such value seen (with its number of rows) and the ``mapping=``
    to pass, e.g. ``mapping={'P': 0}``; ``verdicts="letters"`` keeps every value as a letter.
    :func:`judgestats.pairwise` raises it too, for a judge or human verdict outside its
    alphabet (the message echoes the values).
    """


# ------------------------------------------------------------------ pairwise leaderboards: pairwise
class SelfComparisonError(LabelError):
    """A pair compares a model with itself (``model_a == model_b``); the message names it."""


class ComparisonGraphError(JudgeStatsError):
    """The compared pairs do not determine every model's strength (base of the two below)."""


class CalibrationOnlyModelError(ComparisonGraphError):
    """A model appears only in human-labelled (calibration) pairs, never in a judged-only pair.

    The corrected leaderboard ranks the models the judge scored; a model seen only in the
    calibration pairs has no judged comparisons to correct (and, when the calibration pairs
    were chosen by their human verdict, no usable information on its strength at all).
    """


class DisconnectedComparisonsError(ComparisonGraphError):
    """The comparison graph falls apart: strengths in different parts cannot be compared.

    Bradley–Terry strengths are identified only up to one constant per connected part of the
    graph whose edges are the compared pairs; the message lists the parts.
    """


class JudgeDependenceWarning(JudgeStatsWarning):
    """The judge's verdict depends on the models beyond the human verdict (calibration pairs).

    Issued by :func:`judgestats.pairwise` with ``method="joint-mle"`` when the test of
    :func:`judgestats.pairwise.independence_test` rejects, at level 0.01, that the judge's
    letter given the human verdict is the same whichever model is shown first or second: the
    joint confusion model's conditional-independence assumption fails, its strengths are
    biased and its intervals too short; ``method="ppi"`` does not need the assumption.
    """


# ------------------------------------------------------------------ the Inspect metric
class MetricUndefinedWarning(JudgeStatsWarning):
    """The corrected accuracy is undefined on the samples given; its entries are NaN.

    Too few human-labelled samples (none, or one human class), no test sample, or a judge no
    better than chance on them (``method="profile-map"`` still answers there). Inspect also
    computes metrics on the samples scored so far, so this may appear during an eval and pass.
    """


# ------------------------------------------------------------------ several raters: raters/
class RatingsError(LabelError):
    """Ratings that cannot be read: an empty frame, a rater or judge that is not there, bad labels.

    Base of the ratings errors of :mod:`judgestats.raters` (the message names the argument and
    echoes the value).
    """


class DuplicateRatingError(RatingsError):
    """One rater labelled one item twice, with different labels; the message names both."""


class UnratedItemError(RatingsError):
    """An item has no rating at all (every label missing); the message lists such items."""


class UnknownCategoryError(RatingsError):
    """A label is not among the declared ``categories=``; the message lists the unknown labels."""


class TooFewSharedItemsError(JudgeStatsError):
    """A rater shares too few items with the judge and the other raters for the test asked.

    Raised by :func:`judgestats.raters.alt_test`: the alternative annotator test compares the
    judge with each left-out rater on the items that rater labelled, by a paired t-test that
    needs at least 30 such items per rater (Calderon et al. 2025, "How many instances should I
    annotate?"). The message names the raters, their number of items and the number needed.
    """


# ------------------------------------------------------------------ several raters: latent classes
class UnidentifiableModelError(JudgeStatsError):
    """The latent-class (Dawid–Skene) model is not identified by the raters given.

    A latent class seen through conditionally independent raters is identified only with at
    least three raters (the judge counts as one) whose ratings overlap on enough items
    (Dawid & Skene 1979; Goodman 1974; the general condition is Kruskal's, Allman, Matias &
    Rhodes 2009). :func:`judgestats.raters.dawid_skene` and :func:`judgestats.bayes.fit_raters`
    refuse fewer; the message says how many raters and shared items there are and how many are
    needed.
    """


class LatentBoundaryWarning(JudgeStatsWarning):
    """The latent-class fit sits on the boundary where the model stops being identified.

    Issued by :func:`judgestats.raters.dawid_skene` when fewer than three raters tell the
    latent classes apart (a rater at chance carries no information on the latent class) or
    when a latent class has an expected count under one item: the estimate and its interval
    then lean on the model's form rather than on the data.
    """
