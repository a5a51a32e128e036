"""``evaluate()`` and its :class:`Evaluation`: every group of a frame (or of its counts) corrected.

The frame's grouped count is :func:`judgestats.frames.group_counts` (one path for every frame
the package reads); each group is then corrected by :func:`judgestats.correct` (with strata,
:func:`judgestats.correct_stratified`; with a judge alphabet,
:func:`judgestats.alphabets.groups.correct_alphabet`), errors raised or marked per group.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    ClusteredCountsError,
    GroupError,
    JudgeStatsError,
    RepeatedItemsWarning,
    check_choice,
    check_column_names,
    check_confidence_level,
    check_group_sizes,
    check_instance,
    check_method,
    check_option_names,
    check_positive_int,
    check_rng,
    describe_group,
    group_error,
    warn_deprecated,
)
from ..auto import AUTO
from ..compare import Ranking
from ..correct import Correction, correct_known
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import DEFAULT_DESIGN, check_design
from ..frames import (
    GroupCounts,
    counts_of,
    group_counts,
    named_counts,
    repeating_column,
    sort_keys,
)
from ..intervals import HULL, bounds_at, compute_bounds, get_method
from ..progress import progress as progress_bar
from ..repeated import ESTIMANDS, cluster_summary, repeats_matter
from ..results import Reportable, group_label
from ..strata import StratifiedCorrection, correct_stratified, stratum_pairs
from .batches import check_batch_call, count_batches, with_judge_shift
from .tables import (
    _rank,
    evaluation_counts_frame,
    evaluation_frame,
    evaluation_lookup,
    evaluation_rank,
    evaluation_summary,
    evaluation_xarray,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    import xarray as xr

    from ..alphabets.groups import AlphabetCorrection, LetterCounts

__all__ = [
    "Evaluation",
    "evaluate",
    "evaluate_counts",
]


#: What a group that cannot be corrected does (``evaluate(errors=)``).
ERRORS = ("raise", "mark")


_STRATIFIED_OPTIONS = {"adjusted-wald": (), "wald": (), "bootstrap": ("n_resamples",)}


# ============================================================================ corrections
def _check_method(method: str, stratified: bool, options: dict, design: str) -> None:
    check_design(design)
    if stratified:
        from ..strata import STRATIFIED_METHODS

        methods = STRATIFIED_METHODS if design == DEFAULT_DESIGN else ("adjusted-wald", "wald")
        check_method(method, methods, capability="stratified corrections"
                     + ("" if design == DEFAULT_DESIGN else f" with design={design!r}"))
        allowed = ("weights", "min_per_class", "merge", *_STRATIFIED_OPTIONS[method])
        check_option_names(f"stratified method {method!r}", options, allowed)
    elif method == AUTO:  # js.correct(method="auto") per group: adjusted-Wald or the hull
        check_option_names("method 'auto'", options, ())
    else:
        get_method(method, design)  # names the methods the design has
        check_option_names(f"method {method!r}", options, get_method(method, design).options)


def _group_key(key: tuple, k: int) -> Any:
    return key[0] if k == 1 else key[:k]


def _stratum_key(key: tuple, k: int) -> Any:
    rest = key[k:]
    return rest[0] if len(rest) == 1 else rest


def _correct_one(group_counts_, label, split, *, method, level, gen, options, design,
                 items=None, estimand="rows", known=None):  # fmt: skip
    """Correction of one group: ``group_counts_`` maps stratum (or None) → cell counts.

    ``items``: the group's per-item cell counts when items repeat (``cluster=``), per
    stratum (stratum → (ids, cell counts)) as ``group_counts_`` is. ``known``: the group's
    bounds computed beforehand (:func:`_batched_bounds`).
    """
    total = sum(group_counts_.values())
    check_group_sizes(
        label,
        n=int(total[0] + total[1]),
        m0=int(total[2] + total[3]),
        m1=int(total[4] + total[5]),
        split=split,
        both_classes=design == DEFAULT_DESIGN,
    )
    if list(group_counts_) == [None]:
        return correct_known(
            *counts_of(total, None if items is None else items[None]), known or {},
            method=method, confidence_level=level, rng=gen, design=design, estimand=estimand,
            **options,
        )  # fmt: skip
    tests, cals = stratum_pairs(group_counts_, items)  # an item in two strata: StrataMismatch
    clustered = {} if items is None else {"estimand": estimand}
    return correct_stratified(
        tests, cals, method=method, confidence_level=level, rng=gen, design=design,
        **clustered, **options,
    )  # fmt: skip


#: Methods whose bounds :func:`evaluate` computes for every group in one batched call (each
#: group's correction then takes its own): deterministic, and slow one group at a time.
#: ``"auto"`` gets adjusted-Wald's and profile-map's, the two it compares.
BATCHED = {
    "profile-likelihood": ("profile-likelihood",),
    "profile-likelihood-t": ("profile-likelihood-t",),
    "profile-map": ("profile-map",),
    HULL: ("adjusted-wald", "profile-map"),
    AUTO: ("adjusted-wald", "profile-map"),
}


def _batched_bounds(per_group: dict, groups: list, *, method: str, level: float,
                    design: str, options: dict, clustered: bool) -> dict:  # fmt: skip
    """Return group → {method: bounds} for the groups a batched call can serve, else {}.

    Only unstratified groups without repeated items, under the paper's design, without method
    options, with test rows and both human classes (the rest are corrected, and refused, one
    at a time as before). The bounds are those the correction would compute itself: every
    method here is computed independently per data set.
    """
    if method not in BATCHED or options or clustered or design != DEFAULT_DESIGN:
        return {}
    cells = {g: per_group[g][None] for g in groups if list(per_group[g]) == [None]}
    ready = [g for g, c in cells.items()
             if c[0] + c[1] > 0 and c[2] + c[3] > 0 and c[4] + c[5] > 0]  # fmt: skip
    if len(ready) < 2:
        return {}
    c = np.array([cells[g] for g in ready], dtype=np.int64).T  # cell codes, as named_counts
    test = JudgedCounts(positive=c[1], n=c[0] + c[1])
    cal = ConfusionCounts(tp=c[5], fn=c[4], tn=c[2], fp=c[3])
    batch = {m: compute_bounds(test, cal, method=m, confidence_level=level)
             for m in BATCHED[method]}  # fmt: skip
    return {g: {m: bounds_at(b, i) for m, b in batch.items()} for i, g in enumerate(ready)}


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


def _correct_groups(by, groups, correct_group, *, errors, stacklevel, progress):
    """Correct every group by ``correct_group(g, label)``.

    Warnings are re-issued with the group named; errors are raised or marked.
    """
    corrections: dict[Any, Any] = {}
    issued: dict[Any, tuple] = {}
    marked: dict[Any, str] = {}
    for g in progress_bar(groups, total=len(groups), desc="groups", enabled=progress):
        label = describe_group(by, g)
        try:
            with warnings.catch_warnings(record=True) as caught:
                # local: each warning is re-issued below with the group named, and kept
                # on the result for the report
                warnings.simplefilter("always")
                corrections[g] = correct_group(g, label)
        except JudgeStatsError as exc:
            if errors == "mark":  # the group keeps a row with its reason; the rest go on
                marked[g] = f"{type(exc).__name__}: {exc}"
                continue
            if isinstance(exc, GroupError):  # names its group already
                raise
            raise group_error(exc, label) from exc
        issued[g] = tuple((w.category.__name__, str(w.message)) for w in caught)
        for w in caught:
            warnings.warn(f"group {label}: {w.message}", w.category, stacklevel=stacklevel)
    return corrections, issued, marked


def _corrected(by: tuple, groups: list, corrections: dict, marked: dict) -> list:
    """Return the corrected groups, in order (an error when none could be)."""
    if marked and not corrections:
        why = "; ".join(f"{describe_group(by, g)}: {w}" for g, w in marked.items())
        raise JudgeStatsError(f"no group could be corrected: {why}")
    return [g for g in groups if g in corrections]


#: Columns that identify items: one whose values repeat within a group while ``cluster=`` is not
#: given is checked for correlated repeats (:class:`~judgestats.RepeatedItemsWarning`);
#: ``item`` is the item column of every reader's frame (:mod:`judgestats.readers`).
ITEM_COLUMNS = ("sample_id", "item_id", "question_id", "item")


def _counts_checking_repeats(frame: Any, columns: dict[str, Any], design: str) -> GroupCounts:
    """Count the frame; where an item column repeats, warn when the repeats widen θ̂'s interval.

    The guard rail of repeated items: with an :data:`ITEM_COLUMNS` column whose values repeat,
    the engine counts each item too, and :func:`judgestats.repeated.repeats_matter` decides per
    group; the returned counts leave the items out (the corrections count rows, as asked).
    """
    groups = check_column_names("by", columns["by"])
    strata = check_column_names("strata", columns["strata"], allow_none=True)
    taken = (columns["judge"], columns["human"], columns["split"], *groups, *strata)
    column = repeating_column(frame, ITEM_COLUMNS, taken)
    if column is None:
        return group_counts(frame, **columns)
    counts = group_counts(frame, **columns, cluster=column)
    items = counts.clusters or {}
    found = []
    for key, cells in counts.counts.items():
        test, cal = counts_of(cells, items[key])
        if test is None or cal is None or not (cal.has_both_classes or design != DEFAULT_DESIGN):
            continue
        summary = cluster_summary(test, cal, design, "rows")
        if repeats_matter(summary):
            found.append((summary.theta_design_effect, describe_group(groups + strata, key)))
    if found:
        effect, where = max(found)
        warnings.warn(
            f"column {column!r} identifies items that repeat, and cluster= was not given: the "
            f"intervals count rows as independent items and are too short in {len(found)} of "
            f"{len(counts.counts)} groups (design effect on the estimate's variance up to "
            f"{effect:.2f}, in {where}); pass cluster={column!r}",
            RepeatedItemsWarning,
            stacklevel=4,
        )
    return replace(counts, cluster=None, clusters=None)


def _check_repeated(counts: GroupCounts, *, estimand: str) -> None:
    """Repeated items (``cluster=``): what the leaderboard can do with them so far."""
    check_choice("estimand", estimand, ESTIMANDS)
    if counts.cluster is None:
        return


def _evaluate_counts(
    counts, *, method, confidence_level, rank, rank_resamples, rng, stacklevel, options, design,
    errors, progress=None, estimand="rows",
):  # fmt: skip
    stratified = bool(counts.strata)
    _check_method(method, stratified, options, design)
    level = check_confidence_level(confidence_level)
    gen = check_rng(rng)
    if rank and stratified:
        raise JudgeStatsError(
            "rank=True needs unstratified corrections (one calibration set per group); "
            "drop strata= or rank the groups yourself"
        )
    _check_repeated(counts, estimand=estimand)
    k = len(counts.by)
    per_group: dict[Any, dict] = {}
    per_items: dict[Any, dict] = {}  # with cluster=: group → stratum → (item ids, cell counts)
    for key, c in counts.counts.items():
        stratum = _stratum_key(key, k) if stratified else None
        per_group.setdefault(_group_key(key, k), {})[stratum] = c
        if counts.clusters is not None:
            per_items.setdefault(_group_key(key, k), {})[stratum] = counts.clusters[key]
    groups = sort_keys(list(per_group))
    if not groups:
        raise JudgeStatsError("the frame has no rows: nothing to evaluate")
    known = _batched_bounds(per_group, groups, method=method, level=level, design=design,
                            options=options, clustered=counts.clusters is not None)  # fmt: skip

    def correct_group(g: Any, label: str) -> Correction | StratifiedCorrection:
        items = per_items.get(g) if counts.clusters is not None else None
        return _correct_one(per_group[g], label, counts.split, method=method, level=level,
                            gen=gen, options=options, design=design, items=items,
                            estimand=estimand, known=known.get(g))  # fmt: skip

    corrections, issued, marked = _correct_groups(
        counts.by, groups, correct_group, errors=errors, stacklevel=stacklevel + 1,
        progress=progress,
    )  # fmt: skip
    groups = _corrected(counts.by, groups, corrections, marked)
    ranking, ranking_error = None, None
    if rank:
        try:
            ranking = _rank_groups(corrections, groups, method=method, size=rank_resamples,
                                   level=level, gen=gen, design=design)  # fmt: skip
        except JudgeStatsError as exc:
            if errors != "mark":
                raise
            ranking_error = f"{type(exc).__name__}: {exc}"
    return Evaluation(
        groups=tuple(groups),
        corrections=corrections,
        by=counts.by,
        strata=counts.strata or None,
        method=method,
        confidence_level=level,
        judge=counts.judge,
        human=counts.human,
        split=counts.split,
        engine=counts.engine,
        warnings=issued,
        ranking=ranking,
        design=design,
        marked=marked,
        marked_counts={g: _count_rows(per_group[g], counts.strata) for g in marked},
        ranking_error=ranking_error,
    )


def _rank_groups(corrections, groups, *, method, size, level, gen, design) -> Ranking:
    """Rank the corrected groups jointly (``rank=True``): the ranking method follows ``method``."""
    if len(groups) < 2:
        raise JudgeStatsError(
            f"rank=True needs at least two groups, got {len(groups)} ({groups!r})"
        )
    size = check_positive_int("rank_resamples", size, minimum=100)
    # the Rogan–Gladen bootstrap needs every judge better than chance; methods that answer
    # without (profile likelihood, posterior) rank by the exact posterior instead
    spec = get_method(HULL if method == AUTO else method, design)
    rank_method = ("bootstrap" if spec.requires_informative
                   or design != DEFAULT_DESIGN else "bayes")  # fmt: skip
    return _rank(corrections, groups, method=rank_method, size=size, level=level, rng=gen,
                 design=design)  # fmt: skip


def _count_rows(per_stratum: dict, strata: tuple) -> tuple[dict, ...]:
    """Return the counts of a group that was not corrected: a row per stratum (one without).

    ``per_stratum``: stratum (None without strata) → cell counts. Kept on the result so that a
    marked group's rows are still accounted for (``Evaluation.counts_dataframe``).
    """
    rows = []
    for stratum, cells in per_stratum.items():
        row: dict[str, Any] = {}
        if stratum is not None and strata:
            values = stratum if isinstance(stratum, tuple) and len(strata) > 1 else (stratum,)
            row.update(zip(strata, values, strict=True))
        row.update(named_counts(cells))
        rows.append(row)
    return tuple(rows)


def _evaluate_letters(counts: LetterCounts, *, method, level, rng, design, errors, progress,
                      stacklevel, options) -> Evaluation:  # fmt: skip
    """Correct every group of a judge alphabet's :class:`LetterCounts` (see :func:`evaluate`)."""
    from ..alphabets.groups import correct_alphabet  # loaded on first use: import stays light

    gen = check_rng(rng)
    k = len(counts.by)
    groups = [_group_key(key, k) for key in counts.groups]
    if not groups:
        raise JudgeStatsError("the frame has no rows: nothing to evaluate")
    keys = dict(zip(groups, counts.groups, strict=True))

    def correct_group(g: Any, label: str) -> AlphabetCorrection:
        m0, m1 = counts.calibration[keys[g]].sum(axis=0).tolist()
        check_group_sizes(label, n=int(counts.test[keys[g]].sum()), m0=m0, m1=m1,
                          split=counts.split, both_classes=design == DEFAULT_DESIGN)  # fmt: skip
        test, cal = counts.pair(keys[g])
        return correct_alphabet(test, cal, method=method, confidence_level=level, rng=gen,
                                design=design, **options)  # fmt: skip

    corrections, issued, marked = _correct_groups(
        counts.by, groups, correct_group, errors=errors, stacklevel=stacklevel + 1,
        progress=progress,
    )  # fmt: skip
    groups = _corrected(counts.by, groups, corrections, marked)
    return Evaluation(
        groups=tuple(groups), corrections=corrections, by=counts.by, strata=None, method=method,
        confidence_level=level, judge=", ".join(counts.judge), human=counts.human,
        split=counts.split, engine=counts.engine, warnings=issued, design=design, marked=marked,
        marked_counts={g: _letter_rows(counts, keys[g]) for g in marked},
    )  # fmt: skip


def _letter_rows(counts: LetterCounts, key: tuple) -> tuple[dict, ...]:
    """Return the letter counts of a group not corrected (as ``counts_dataframe`` has them)."""
    t, c = counts.test[key], counts.calibration[key]
    return tuple(
        {"letter": letter, "n": int(t[i]), "human_0": int(c[i][0]), "human_1": int(c[i][1])}
        for i, letter in enumerate(counts.alphabet) if t[i] or c[i].any()
    )  # fmt: skip


def _letters_wanted(judge: Any, judge_labels: Any, bins: Any, invalid: Any) -> bool:
    """Tell a judge alphabet: several judge columns, or judge_labels=, bins= or invalid=."""
    return not isinstance(judge, str) or any(v is not None for v in (judge_labels, bins, invalid))


def _check_letters_call(method: str, strata: Any, rank: bool, options: dict, design: str) -> None:
    from ..alphabets.groups import alphabet_methods

    where = "" if design == DEFAULT_DESIGN else f" with design={design!r}"
    check_method(method, alphabet_methods(design), capability=f"a judge alphabet{where}")
    if strata is not None:
        raise JudgeStatsError(
            "strata= is not available with a judge alphabet; evaluate each stratum as a group "
            "(by=[..., stratum column]) instead"
        )
    if rank:
        raise JudgeStatsError(
            "rank=True is not available with a judge alphabet; compare the groups' intervals"
        )
    extra = ("n_resamples",) if method == "bootstrap" else ()
    check_option_names(f"method {method!r}", options, ("min_count", *extra))
    if "min_count" in options:  # checked before the data are read, not once per group
        check_positive_int("min_count", options["min_count"], minimum=1)


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
    **options: Any,
) -> Evaluation:
    """Correct the judged rate of every group of a frame, counting on the frame's own engine.

    Rows with a human label form each group's calibration set and rows without one its test
    set (or an explicit ``split=`` column says which is which). One grouped count runs on the
    frame's engine — no rows are collected into Python — and each group is then corrected by
    :func:`judgestats.correct` (or, with ``strata``, :func:`judgestats.correct_stratified`).

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
        Interval method: any name in :func:`judgestats.interval_methods` (without strata) or
        ``"adjusted-wald"``, ``"wald"``, ``"bootstrap"`` (with strata); default
        ``"adjusted-wald"``. ``"auto"`` (without strata): :func:`judgestats.correct`'s choice
        per group (:mod:`judgestats.auto`), each group's ``method`` and ``chosen_by`` say
        which. With a judge alphabet ``"profile-likelihood-t"`` (the default
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
    check_batch_call(batch, batch_choice, counted=counted, strata=strata,
                     letters=_letters_wanted(judge, judge_labels, bins, invalid))  # fmt: skip
    if counted:
        _frame_arguments_unset(judge=judge, human=human, by=by, strata=strata, split=split,
                               cluster=cluster,
                               judge_labels=judge_labels, bins=bins, invalid=invalid)  # fmt: skip
    elif cluster is not None and _letters_wanted(judge, judge_labels, bins, invalid):
        raise ClusteredCountsError(
            "cluster= with a judge alphabet is not supported yet: evaluate with 0/1 judge labels"
        )
    elif _letters_wanted(judge, judge_labels, bins, invalid):
        from ..alphabets.groups import alphabet_methods, letter_counts

        check_design(design)
        method = alphabet_methods(design)[0] if method is None else method
        _check_letters_call(method, strata, rank, options, design)
        level = check_confidence_level(confidence_level)
        check_rng(rng)
        letters = letter_counts(
            frame, judge=judge, human=human, by=by, split=split,
            judge_labels="observed" if judge_labels is None else judge_labels, bins=bins,
            invalid=invalid,
        )  # fmt: skip
        return _evaluate_letters(
            letters, method=method, level=level, rng=rng, design=design,
            errors=check_choice("errors", errors, ERRORS), progress=progress, stacklevel=3,
            options=options,
        )  # fmt: skip
    method = "adjusted-wald" if method is None else method
    errors = check_choice("errors", errors, ERRORS)
    if counted:
        counts = frame
    else:
        _check_method(method, strata is not None, options, design)
        check_confidence_level(confidence_level)
        check_rng(rng)
        columns = {"judge": str(judge), "human": human, "by": by, "strata": strata, "split": split}
        if cluster is None:
            counts = _counts_checking_repeats(frame, columns, design)
        else:
            counts = group_counts(frame, **columns, cluster=cluster)
        if batch is not None:  # the calibration batches: judge_shift_test per group
            counts, shifts, notes = count_batches(
                frame, counts, batch=batch, choice=batch_choice, cluster=cluster,
                confidence_level=confidence_level, design=design, rng=rng, stacklevel=3,
            )  # fmt: skip
    ev = _evaluate_counts(
        counts, method=method, confidence_level=confidence_level, rank=rank,
        rank_resamples=rank_resamples, rng=rng, stacklevel=3, options=options, design=design,
        errors=errors, progress=progress, estimand=estimand,
    )  # fmt: skip
    return ev if batch is None else with_judge_shift(ev, shifts, notes, batch, batch_choice)


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True, eq=False)
class Evaluation(Reportable):
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
        Group → :class:`Correction` (or :class:`StratifiedCorrection`, or with a judge
        alphabet :class:`~judgestats.AlphabetCorrection`).
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
    design : str
        How the calibration rows were chosen (:mod:`judgestats.designs`).
    marked : dict
        With ``errors="mark"``: group → why it was not corrected (the error's class and
        message). Marked groups are not in ``groups``; tables, summaries and reports list them.
    marked_counts : dict
        With ``errors="mark"``: group → the counts of a group that was not corrected, as rows
        of :meth:`counts_dataframe` (per stratum, or per letter of a judge alphabet); with them
        the counts of every group add up to the rows counted.
    ranking_error : str or None
        With ``rank=True`` and ``errors="mark"``: why no ranking could be made (the error's
        class and message, naming the groups at fault), else None.
    batch, batch_choice : str or None
        With ``evaluate(batch=)``: the batch column and which batches the corrections used.
    judge_shift : dict
        With ``batch=``: group → :class:`~judgestats.JudgeShiftDiagnostic` (latest batch
        against the earlier ones), or a str saying why there is none (one batch, a batch
        without some human class).
    """

    kind: ClassVar[str] = "evaluation"

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
    design: str = DEFAULT_DESIGN
    marked: dict = field(default_factory=dict)
    marked_counts: dict = field(default_factory=dict)
    ranking_error: str | None = None
    batch: str | None = None
    batch_choice: str | None = None
    judge_shift: dict = field(default_factory=dict)

    # -- access --------------------------------------------------------------------------
    def __getitem__(self, group: Any) -> Correction | StratifiedCorrection:
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
        return group_label(group)

    # -- recomputation ------------------------------------------------------------------
    def rank(
        self,
        *,
        method: str = "bootstrap",
        n_resamples: int = 10_000,
        draws: int = 10_000,
        rng: Any = None,
        reps: int | None = None,
    ) -> Ranking:
        """Rank the groups jointly (:func:`judgestats.compare.rank` on their counts).

        Needs unstratified corrections and at least two groups; the level is the
        evaluation's ``confidence_level``. Models are named by :meth:`label`. ``n_resamples``
        (bootstrap) and ``draws`` (bayes) as in :func:`~judgestats.compare.rank`; ``reps`` is
        their deprecated name.
        """
        if reps is not None:
            warn_deprecated("Evaluation.rank(reps=...)", "n_resamples= or draws=")
            n_resamples = draws = reps
        size = n_resamples if method == "bootstrap" else draws
        return evaluation_rank(self, method=method, size=size, rng=rng)

    # -- presentation --------------------------------------------------------------------
    def to_dataframe(self) -> pd.DataFrame:
        """One tidy row per group: the ``by`` columns, then the correction's columns."""
        return evaluation_frame(self)

    def counts_dataframe(self) -> pd.DataFrame:
        """Return the counts the corrections used.

        One row per group, or group × stratum; with a judge alphabet one row per group and
        letter (``n`` test items, ``human_0``/``human_1`` calibration items). With
        ``errors="mark"`` the groups that were not corrected keep their rows, with the reason
        in a ``marked`` column, so the counts add up to every row counted.
        """
        return evaluation_counts_frame(self)

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset with dims (``dim``, ``ci_bound``) in ArviZ's layout.

        Variables ``estimate``, ``estimate_unclipped``, ``naive``, ``sensitivity``,
        ``specificity``, ``n``, ``m0``, ``m1``, ``clipped`` (dim ``dim``) and ``ci`` (dims
        ``dim``, ``ci_bound = ["lower", "upper"]``); attrs ``ci_kind``, ``ci_prob`` and the
        columns used. A judge alphabet has no ``sensitivity``/``specificity``.
        """
        return evaluation_xarray(self)

    def plot(self, *, ax: Any = None, show_naive: bool = True):
        """Leaderboard of the groups: corrected rates, their intervals, the naive rates (Axes)."""
        from ..report import plot_leaderboard

        return plot_leaderboard(self, ax=ax, show_naive=show_naive)

    def summary(self) -> str:
        """Return every group's corrected rate and interval as a text table, with warnings."""
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
