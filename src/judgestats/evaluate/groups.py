"""``evaluate()``: a whole leaderboard corrected, every group of a frame (or of its counts).

:func:`evaluate` validates what every mode shares, resolves the estimation spec once
(:mod:`judgestats.spec`; the path of the capability table by mode: a rate, a pooled rate over
strata, or a judge alphabet's distribution) and hands it to one function per mode:

* 0/1 judge labels of a frame, with or without strata: :func:`.counting.count_groups`, then
  :func:`.binary.evaluate_binary`;
* counts already made (a ``GroupCounts``): :func:`.binary.evaluate_binary`;
* calibration batches (``batch=``): :func:`.batches.evaluate_batches`;
* a judge alphabet: :func:`.letters.evaluate_letters`.

The frame's grouped count is :func:`judgestats.frames.group_counts` (one path for every frame
the package reads); each group is then corrected (:mod:`.per_group`), errors raised or marked
per group, into an :class:`~judgestats.Evaluation` (:mod:`.evaluation`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .._validation import (
    ArgumentTypeError,
    ClusteredCountsError,
    check_choice,
    check_instance,
    check_rng,
    warn_deprecated,
)
from ..designs import DEFAULT_DESIGN
from ..frames import GroupCounts
from ..spec import EstimationSpec, resolve_spec
from ..strata.pooled import pooled_options
from .batches import check_batch_call, evaluate_batches
from .binary import STRATUM_OPTIONS, evaluate_binary, rate_options
from .counting import count_groups
from .evaluation import Evaluation
from .juries import combined_wanted, evaluate_combined
from .letters import (
    LETTER_OPTIONS,
    check_letters_call,
    evaluate_letters,
    jury_wanted,
    letter_options,
    letters_wanted,
)
from .per_group import ERRORS
from .scores import SCORE_OPTIONS, covariate_role, evaluate_scores, score_wanted, takes_scores

__all__ = [
    "Evaluation",
    "evaluate",
    "evaluate_counts",
]


class _Path(NamedTuple):
    """A mode's row of the capability table, its methods' options and its own beside them."""

    judge: str
    target: str
    options_of: Callable[[Any, str], tuple[str, ...]]
    own: tuple[str, ...]


_RATE = _Path("letter", "rate", rate_options, ())
_POOLED = _Path("letter", "pooled-rate", pooled_options, STRATUM_OPTIONS)
_LETTERS = _Path("alphabet", "distribution", letter_options, LETTER_OPTIONS)
_JURY = _Path("jury", "rate", letter_options, LETTER_OPTIONS)


def _resolve(path: _Path, *, design: Any, method: Any, confidence_level: Any, estimand: Any,
             repeated: bool, options: dict) -> tuple[EstimationSpec, dict]:  # fmt: skip
    """Resolve every group's spec on ``path`` once: the spec, and the path's own options.

    ``method`` None gives the capability table's default; the options the method takes go
    into the spec (checked against it), those of the path's correction beside it are returned.
    """
    own = {k: v for k, v in options.items() if k in path.own}
    spec = resolve_spec(
        judge=path.judge, target=path.target, design=design, method=method,
        confidence_level=confidence_level, repeated=repeated, estimand=estimand,
        options={k: v for k, v in options.items() if k not in own},
        options_of=path.options_of, method_optional=True,
    )  # fmt: skip
    return spec, own


def _alphabet_methods(design: Any) -> tuple[str, ...]:
    """Return the judge alphabet's methods under ``design`` (none where it has no row)."""
    from ..designs import as_design
    from ..designs.capabilities import rows

    return tuple(m for r in rows() if r.matches("alphabet", "distribution", as_design(design),
                                                False) for m in r.methods)  # fmt: skip


def evaluate_counts(counts: GroupCounts, **kwargs: Any) -> Evaluation:
    """Correct every group of a :class:`GroupCounts` (deprecated: ``js.evaluate(counts)``).

    :func:`evaluate` takes the counts in place of a frame, with the same arguments.
    """
    warn_deprecated("judgestats.evaluate.evaluate_counts(counts, ...)", "js.evaluate(counts, ...)")
    check_instance("counts", counts, GroupCounts)
    return evaluate(counts, **kwargs)


def _frame_arguments_unset(**given: Any) -> None:
    """Refuse column arguments beside a :class:`GroupCounts`: its columns were chosen."""
    import inspect

    defaults = inspect.signature(evaluate).parameters
    changed = sorted(k for k, v in given.items() if v != defaults[k].default)
    if changed:
        raise ArgumentTypeError(
            f"{', '.join(changed)} appl{'ies' if len(changed) == 1 else 'y'} to a frame: "
            "GroupCounts were counted with their columns already (see group_counts)"
        )


def evaluate(
    frame: Any,
    *,
    judge: str | list[str] = "judge",
    human: str = "human",
    by: Any = ("model",),
    strata: Any = None,
    split: str | None = None,
    method: str | None = None,
    confidence_level: float = 0.95,
    rank: bool = False,
    rank_resamples: int = 10_000,
    rng: Any = None,
    design: str = DEFAULT_DESIGN,
    errors: str = "raise",
    progress: bool | None = None,
    judge_labels: Any = None,
    bins: Any = None,
    invalid: Any = None,
    cluster: str | None = None,
    estimand: str = "rows",
    batch: str | None = None,
    batch_choice: str = "pool",
    combine: str | None = None,
    calibrator: str | None = None,
    covariates: Any = None,
    rater: str | None = None,
    reference: str | None = None,
    **options: Any,
) -> Evaluation:
    """Correct the judged rate of every group of a frame, counting on the frame's own engine.

    Rows with a human label form each group's calibration set and rows without one its test
    set (or an explicit ``split=`` column says which is which). One grouped count runs on the
    frame's engine — no rows are collected into Python — and each group is then corrected by
    :func:`judgestats.correct` (or, with ``strata``, :func:`judgestats.correct_stratified`),
    under one estimation spec resolved before the frame is read.

    Parameters
    ----------
    frame : data frame or GroupCounts
        pandas, polars (eager or lazy), pyarrow table, DuckDB relation, Dask or PySpark data
        frame, or a narwhals frame: one row per judged item. Or the frame's counts from
        :func:`group_counts` (summed over chunks or files), with no column arguments.
    judge : str or list of str, default "judge"
        Column of the judge's labels: 0/1 (numbers) or booleans, on every row. A list of
        columns (several judges), or ``judge_labels=``/``bins=``/``invalid=``, makes it a
        *judge alphabet*: any values (a 1–5 score, win/tie/lose, an ``"invalid"`` letter,
        the pairs ``"1|0"`` of two judges), each group's rate then being the joint
        maximum-likelihood estimate over every letter
        (:func:`judgestats.alphabets.groups.correct_alphabet`; one
        :class:`~judgestats.AlphabetCorrection` per group).
    human : str, default "human"
        Column of the human labels, 0/1 or booleans. Without ``split``, a missing value (null,
        or NaN in a float column) marks a test row.
    by : str or tuple of str, default ("model",)
        Group column(s): one correction per distinct value (tuple of values for several).
    strata : str or tuple of str, optional
        Stratum column(s) within each group: a stratified correction per group (one
        confusion matrix per stratum, pooled by the test mix; see
        :func:`judgestats.correct_stratified`).
    split : str, optional
        Column of ``'test'``/``'calibration'`` values; then test rows' human labels are
        ignored (a hidden truth, as in a benchmark) and calibration rows need one.
    method : str, optional
        Interval method, one of the capability table's row for the path
        (:mod:`judgestats.designs.capabilities`; its default where None): a rate per group
        without strata (:func:`judgestats.interval_methods`), a pooled rate with strata
        (``"adjusted-wald"``, ``"wald"``, ``"bootstrap"``), a judge alphabet's distribution
        with one. For 0/1 labels without strata the default is ``"auto"`` under
        ``design="by-human-label"`` (issue 38: :func:`judgestats.correct`'s choice per group,
        :mod:`judgestats.auto`; each group's ``method``, ``chosen_by`` and, where auto widened
        the paper's interval, ``paper_ci`` say which) and ``"adjusted-wald"`` under the other
        designs and with strata. With a judge alphabet ``"profile-likelihood-t"`` (the default
        there), ``"profile-likelihood"`` or ``"bootstrap"``; under the other designs
        ``"adjusted-delta"`` (their default) or ``"wald"``.
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    rank : bool, default False
        Also rank the groups jointly (parametric bootstrap over every count;
        :func:`judgestats.compare.rank`); stored as ``result.ranking``. Needs unstratified
        corrections and at least two groups. With ``cluster`` a bootstrap over whole items,
        an item id in several groups (the same prompt judged for each model) drawn once for
        all of them.
    rank_resamples : int, default 10000
        Bootstrap replicates of the ranking.
    rng : None, int, SeedSequence or Generator
        Randomness for resampling methods and the ranking; groups are corrected in sorted
        order, so a seed gives the same result on every engine.
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How each group's calibration rows were chosen (see :func:`judgestats.correct`). With
        ``"random"`` or ``"by-judge-label"`` a group's calibration rows may hold one human
        class. With strata, the other designs take "adjusted-wald" or "wald"; ``rank=True``
        ranks by each group's design bootstrap.
    errors : {"raise", "mark"}, default "raise"
        What a group that cannot be corrected does (no calibration rows, one human class, a
        judge no better than chance, ...): ``"raise"`` stops with the error, naming the
        group; ``"mark"`` keeps the group out of the corrections and records why in
        ``result.marked`` (tables, summaries and reports list it), so one bad group does not
        sink a leaderboard. The CLI's ``report`` marks.
    progress : bool or None, default None
        Show a progress bar over the groups (None: when interactive and the work takes more
        than two seconds; see :mod:`judgestats.progress`).
    judge_labels : "observed" or sequence, optional
        A judge alphabet's letters: ``"observed"`` (every letter seen; the default with
        several judge columns, ``bins=`` or ``invalid=``) or the letters expected (another
        value is an error). Each group uses the letters seen in it.
    bins, invalid
        A judge alphabet's score bins and invalid verdicts, as
        :func:`judgestats.judge_letters`.
    cluster : str, optional
        Column of the item each row judges, when items repeat (epochs, several answers to one
        prompt, turns, raters): the engine counts each item's cells too (at most groups ×
        items rows reach Python) and every interval accounts for the repeats (design effects,
        :mod:`judgestats.repeated`; methods ``"adjusted-wald"``, ``"wald"``, ``"bootstrap"``).
        With ``strata`` the engine counts per (group, stratum, item) (at most groups × strata
        × items rows) and each group's strata go to :func:`judgestats.correct_stratified` as
        clustered counts; an item with rows in two strata of a group raises
        :class:`~judgestats.errors.StrataMismatchError` naming it. Not yet with a judge alphabet.
    estimand : {"rows", "items"}, default "rows"
        With ``cluster``: the rate over rows (each verdict weight 1) or over items (each item
        weight 1); see :func:`judgestats.correct`.
    batch : str, optional
        Column of the calibration batch of each calibration row (labelling round, judge
        version; test rows need none). Each group's latest batch (last in sorted order) is
        compared with its earlier ones by :func:`judgestats.judge_shift_test`, kept in
        ``result.judge_shift`` (:mod:`judgestats.evaluate.batches`); where it rejects at
        1 − ``confidence_level``, :class:`~judgestats.JudgeShiftWarning`. Not with strata or a
        judge alphabet.
    batch_choice : {"pool", "latest"}, default "pool"
        With ``batch``: correct with every batch (the numbers without ``batch=``) or with each
        group's latest batch only. The test never chooses: pooling after a non-significant
        test loses coverage at moderate shifts (``benchmarks/results/judge_shift.md``).
    combine : {"letters", "stack", "mean"}, optional
        How several judge columns are combined (issue 39; :mod:`judgestats.jury.combined`).
        ``"letters"``: their product letters (``"1|0"``); two or more 0/1 judge columns
        under ``design="by-human-label"`` are then a jury
        (:func:`judgestats.jury.correct_jury`): by default ``method="min-variance"``, the
        members' Rogan–Gladen estimates combined with minimum-variance weights, never wider
        than the better judge's adjusted-Wald interval before truncation
        (``benchmarks/results/jury.md``; one :class:`~judgestats.jury.JuryCorrection` per
        group, with each judge's weight and agreement); a judge alphabet's method
        (``"profile-likelihood-t"``, …) keeps the joint fit of the letters. ``"stack"``: a
        cross-fitted logistic regression of the human label on every judge's column (0/1
        letters or scores) as one predictor, then PPI++ (``design="random"`` only; refused by
        name under the designs that sample on a label). ``"mean"``: the judges' mean (J + 1
        letters of 0/1 judges; a score under ``"random"``). ``"stack"`` and ``"mean"`` give
        one :class:`~judgestats.jury.CombinedJuryCorrection` per group (with the stack's
        coefficients, each judge's agreement and ``effective_labels``), take the options
        ``folds=`` and ``threshold=``, and ``bins=`` for a score jury's mean letters. Default:
        the measured one per design (:data:`judgestats.jury.DEFAULTS`: ``"letters"`` under
        ``"by-human-label"`` and ``"by-judge-label"``, ``"stack"`` under ``"random"``;
        ``benchmarks/results/jury_combine.md``).
    calibrator : {"isotonic", "binned", "logistic"}, optional
        The judge column is a numeric *score* (a probability, a logit, a 1–10 rating): each
        group's score is calibrated to the human label by cross-fitting and enters the
        prediction-powered mean with power tuning (:func:`judgestats.scores.correct_scores`,
        one :class:`~judgestats.scores.ScoreCorrection` per group), under
        ``design="random"`` only (the capability table's ``"score"`` row; under the other
        designs declare ``bins=``, a judge alphabet). Without ``calibrator=`` a judge column
        of floats not all 0/1 (and no ``bins``, ``judge_labels``, ``invalid``) is a score too,
        calibrated by ``"isotonic"``; ``calibrator=`` on a column of 0/1 values is refused.
        With a score, ``bins=`` are the small-sample fallback's letters (and the
        ``"binned"`` calibrator's bins), and the options ``folds=`` and ``threshold=`` are
        :func:`~judgestats.scores.correct_scores`'s; ``cluster=`` keeps an item's rows in one
        fold and sums the variance over items (:mod:`judgestats.evaluate.scores`).
    covariates : str or list of str, optional
        Columns of each row's covariates (an answer's length, its position, a category), whose
        role the design fixes (:mod:`judgestats.scores.covariates`). Under
        ``design="random"`` they enter the **predictor**: the judge column (a score, or 0/1
        letters) and the covariates in one cross-fitted logistic calibrator, then PPI++
        (:func:`judgestats.scores.correct_scores`; each group's ``covariates_used_as`` is
        ``"predictor"``). Under the other designs they are **strata** (as ``strata=``, added
        to any given; ``result.strata`` names them): a column of floats is refused by name
        there (bin it into a column before labelling).
    rater : str, optional
        Column of the human rater of each row, when several raters label an item: the frame
        is long (one row per rating; ``cluster=`` names the item, ``human`` the rater's 0/1
        label, ``judge`` the judge's label of the item; an item without a human label is a
        test item) and ``reference=`` says which human reference is estimated
        (:mod:`judgestats.evaluate.raters`; one
        :class:`~judgestats.evaluate.raters.RaterCorrection` per group, naming it).
    reference : {"rater", "majority", "latent"}, optional
        With ``rater=`` (default ``"rater"``): the rate of a single random rater's label
        (every rating a calibration row, items as clusters), of the raters' majority label
        (one row per item; options ``ties=`` — ``"random"`` by default, ``"none"`` or an
        adjudicating rater's name — and ``min_raters=``, default 2; items left out are named)
        or of the latent true class (Dawid–Skene with the judge as one more rater; methods
        ``"bootstrap"``, ``"sandwich"``, ``"observed-information"``; under ``design="random"``
        or ``"by-judge-label"``).
        ``reference="latent", method="bayes"``: its PyMC twin (``js.bayes.fit_raters``; the
        sampler's ``draws``, ``chains``, ... through ``**options``, seeded from ``rng``).
    **options
        Passed to the correction: interval options (``n_resamples``), with strata
        ``weights``, ``min_per_class``, ``merge``, and with a judge alphabet ``min_count``
        (a letter on fewer calibration items of a group warns, default 10).

    Returns
    -------
    Evaluation
        One :class:`Correction` (or :class:`StratifiedCorrection`) per group, with
        ``to_dataframe()``, ``to_xarray()``, ``plot()``, ``rank()`` and ``report()``.

    Raises
    ------
    ColumnError
        Missing columns (all named), label columns that are not boolean or numeric, or
        missing group values.
    GroupLabelError
        Labels outside 0/1 (or a bad split value) in some group: the message names the
        groups and echoes the values, counted by the engine.
    EmptyGroupError
        A group (or stratum) without test rows, without calibration rows, or whose
        calibration rows all have one human label.
    NotInformativeError, SparseStratumError, StrataMismatchError
        From a group's correction, with the group named.
    MethodError, ConfidenceLevelError, ArgumentTypeError
        On a bad method, level or option (checked before the data are touched).
    ClusteredCountsError
        ``cluster`` with a method or design whose row of the capability table has no
        repeated items (checked before the data are touched), or with a judge alphabet.

    Warns
    -----
    ClippedEstimateWarning, SamplingWarning
        From a group's correction, re-issued with the group named (and kept in
        ``result.warnings``).

    See Also
    --------
    correct : One group from its counts.
    compare.difference : The gap between two groups, with its interval.
    compare.rank : Rank the groups with simultaneous intervals.
    io.read_table : Read a CSV, JSON Lines or Parquet file of labels.

    Examples
    --------
    >>> import pandas as pd
    >>> import judgestats as js
    >>> frame = pd.DataFrame({
    ...     "model": ["a"] * 6 + ["b"] * 6,
    ...     "judge": [1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0],
    ...     "human": [1, 0, 0, 1, None, None, 1, 0, 1, 0, None, None],
    ... })
    >>> ev = js.evaluate(frame, method="profile-map")  # tiny calibration sets: profile-map
    >>> ev.groups
    ('a', 'b')
    """
    counted = isinstance(frame, GroupCounts)
    covariates, strata = _covariate_role(frame, locals())  # predictor or strata, by design
    if rater is not None or reference is not None:  # several human raters per item
        return _evaluate_raters(
            frame, judge=judge, human=human, by=by, rater=rater, reference=reference,
            cluster=cluster, design=design, method=method, confidence_level=confidence_level,
            estimand=estimand, rng=rng, errors=errors, progress=progress, options=options,
            unsupported={"strata": strata, "split": split, "batch": batch, "rank": rank,
                         "judge_labels": judge_labels, "bins": bins, "invalid": invalid,
                         "calibrator": calibrator, "GroupCounts": counted},
        )  # fmt: skip
    letters = letters_wanted(judge, judge_labels, bins, invalid)
    plain = not (letters or strata is not None or split is not None or batch is not None)
    auto = (calibrator is None and plain and not counted
            and takes_scores(design, cluster is not None))  # fmt: skip
    if auto:  # the letter path's spec first: a bad method or level before any row is read
        _resolve(_RATE, design=design, method=method, confidence_level=confidence_level,
                 estimand=estimand, repeated=cluster is not None,
                 options={k: v for k, v in options.items() if k not in SCORE_OPTIONS})  # fmt: skip
    if covariates is not None or ((auto or (calibrator is not None and not counted)) and (
            score_wanted(frame, judge=judge, calibrator=calibrator, letters=False))):  # fmt: skip
        return _evaluate_score(
            frame, judge=judge, human=human, by=by, design=design, cluster=cluster,
            covariates=covariates, confidence_level=confidence_level, bins=bins, rng=rng,
            errors=errors, progress=progress, calibrator=calibrator, options=options,
            unsupported={"strata": strata, "split": split, "batch": batch, "rank": rank,
                         "judge_labels": judge_labels, "invalid": invalid, "method": method,
                         "estimand": None if estimand == "rows" else estimand},  # rows only
        )  # fmt: skip
    if not counted and (chosen := combined_wanted(frame, judge, combine, design,
                                                  plain=judge_labels is None and invalid is None)):
        return _combined(frame, chosen, locals())  # a jury stacked or averaged (juries.py)
    check_batch_call(batch, batch_choice, counted=counted, strata=strata, letters=letters)
    if counted:
        _frame_arguments_unset(judge=judge, human=human, by=by, strata=strata, split=split,
                               cluster=cluster, judge_labels=judge_labels, bins=bins,
                               invalid=invalid)  # fmt: skip
    elif cluster is not None and letters and not jury_wanted(
        judge, judge_labels is None and bins is None and invalid is None, design, method,
        _alphabet_methods(design), repeated=True,
    ):  # fmt: skip
        raise ClusteredCountsError(
            "cluster= with a judge alphabet is not supported yet: evaluate with 0/1 judge labels"
            " (one column, or several: a jury)"
        )
    check_rng(rng)  # each mode then draws from its own generator of it
    common: dict[str, Any] = {"rng": rng, "progress": progress, "stacklevel": 3,
                              "errors": check_choice("errors", errors, ERRORS)}  # fmt: skip
    if letters:  # repeated items were refused above, but for a jury
        check_letters_call(strata=strata, rank=rank, options=options, combine=combine)
        where: dict[str, Any] = {"design": design, "confidence_level": confidence_level,
                                 "estimand": estimand, "repeated": cluster is not None,
                                 "options": options}  # fmt: skip
        plain = judge_labels is None and bins is None and invalid is None
        alphabet = None
        if jury_wanted(judge, plain, design, method, _alphabet_methods(design),
                       repeated=cluster is not None):  # fmt: skip
            spec, _ = _resolve(_JURY, method=method, **where)
            if method is None and cluster is None:  # judges not 0/1: the joint fit's default
                alphabet, _ = _resolve(_LETTERS, method=None, **where)
        else:
            spec, _ = _resolve(_LETTERS, method=method, **where)
        columns = {"judge": judge, "human": human, "by": by, "split": split, "bins": bins,
                   "judge_labels": "observed" if judge_labels is None else judge_labels,
                   "invalid": invalid, **({} if cluster is None else {"cluster": cluster})}
        return evaluate_letters(frame, spec, columns=columns, options=options, alphabet=alphabet,
                                **common)  # fmt: skip
    stratified = bool(frame.strata) if counted else strata is not None
    spec, own = _resolve(_POOLED if stratified else _RATE, design=design, method=method,
                         confidence_level=confidence_level, estimand=estimand,
                         repeated=frame.clusters is not None if counted else cluster is not None,
                         options=options)  # fmt: skip
    binary = {"rank": rank, "rank_resamples": rank_resamples, "strata_options": own, **common}
    if counted:
        return evaluate_binary(frame, spec, **binary)
    columns = {"judge": str(judge), "human": human, "by": by, "strata": strata, "split": split}
    counts = count_groups(frame, columns, cluster=cluster, design=spec.design)
    if batch is None:
        return evaluate_binary(counts, spec, **binary)
    return evaluate_batches(frame, counts, spec, batch=batch, choice=batch_choice, **binary)


def _covariate_role(frame: Any, given: dict) -> tuple[Any, Any]:
    """``covariates=`` routed from evaluate's arguments (:func:`.scores.covariate_role`)."""
    return covariate_role(frame, given["covariates"], strata=given["strata"],
                          design=given["design"], judge=given["judge"],
                          repeated=given["cluster"] is not None, rater=given["rater"])  # fmt: skip


def _combined(frame: Any, chosen: str, given: dict) -> Evaluation:
    """``evaluate`` of a jury stacked or averaged (:mod:`.juries`), from evaluate's arguments."""
    keys = ("judge", "human", "by", "cluster", "bins", "design", "method", "confidence_level",
            "options", "rng", "errors", "progress")  # fmt: skip
    refused = {k: given[k] for k in ("strata", "split", "batch", "rank")}
    refused["estimand"] = given["estimand"] != "rows" and given["estimand"]
    return evaluate_combined(frame, chosen, unsupported=refused, stacklevel=4,
                             **{k: given[k] for k in keys})  # fmt: skip


def _evaluate_score(frame: Any, *, unsupported: dict, options: dict, calibrator: Any,
                    **kw: Any) -> Evaluation:  # fmt: skip
    """``evaluate`` of a judge score column (:mod:`judgestats.evaluate.scores`)."""
    from ..scores.correction import score_spec  # on first use

    given = sorted(k for k, v in unsupported.items() if v not in (None, False))
    if given:
        raise ArgumentTypeError(
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} not available with a "
            f"judge score (column {kw['judge']!r}) yet: evaluate the score per group, or "
            "declare bins= for a judge alphabet"
        )
    extra = sorted(set(options) - set(SCORE_OPTIONS))
    if extra:
        raise ArgumentTypeError(f"unknown option(s) for a judge score: {', '.join(extra)}; "
                                f"it takes {', '.join(SCORE_OPTIONS)}")  # fmt: skip
    spec = score_spec(design=kw["design"], confidence_level=kw["confidence_level"],
                      repeated=kw["cluster"] is not None)  # fmt: skip
    by = kw["by"]
    by = (by,) if isinstance(by, str) else tuple(by)
    check_rng(kw["rng"])
    return evaluate_scores(
        frame, spec, rng=kw["rng"], progress=kw["progress"], stacklevel=4,
        errors=check_choice("errors", kw["errors"], ERRORS),
        columns={"judge": kw["judge"], "human": kw["human"], "by": by,
                 "cluster": kw["cluster"], "bins": kw["bins"], "covariates": kw["covariates"]},
        options={**options, "calibrator": calibrator},
    )  # fmt: skip


def _evaluate_raters(frame: Any, *, unsupported: dict, options: dict, **kw: Any) -> Evaluation:
    """``evaluate`` of several human raters per item (:mod:`judgestats.evaluate.raters`)."""
    from .raters import evaluate_raters, rater_spec  # on first use

    given = sorted(k for k, v in unsupported.items() if v not in (None, False))
    if given:
        raise ArgumentTypeError(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} not "
                                "available with rater= (several human raters) yet")  # fmt: skip
    if kw["rater"] is None or kw["cluster"] is None or not isinstance(kw["judge"], str):
        raise ArgumentTypeError(
            f"reference= needs rater= (the raters' column) and cluster= (the item's column) "
            f"and one judge column, got rater={kw['rater']!r}, cluster={kw['cluster']!r}, "
            f"judge={kw['judge']!r}"
        )
    reference = "rater" if kw["reference"] is None else kw["reference"]
    spec, own = rater_spec(reference, design=kw["design"], method=kw["method"],
                           confidence_level=kw["confidence_level"], estimand=kw["estimand"],
                           options=options)  # fmt: skip
    by = kw["by"]
    return evaluate_raters(
        frame, spec, reference=str(reference), own=own, rng=check_rng(kw["rng"]),
        errors=check_choice("errors", kw["errors"], ERRORS), progress=kw["progress"],
        stacklevel=4,
        columns={"judge": kw["judge"], "human": kw["human"], "rater": kw["rater"],
                 "cluster": kw["cluster"], "by": (by,) if isinstance(by, str) else tuple(by)},
    )  # fmt: skip
