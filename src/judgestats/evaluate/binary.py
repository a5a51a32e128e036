"""0/1 judge labels: every group of a leaderboard's counts corrected under one spec.

Each group's counts (a :class:`~judgestats.frames.GroupCounts`, counted from a frame or given)
are corrected by :func:`judgestats.correct.correct_spec` (with strata,
:func:`judgestats.strata.stratified_correction`). The deterministic methods that are slow one
group at a time (the profile likelihoods, profile-map, the hull, the two ``"auto"`` compares)
run for every group in one batched call first (:func:`judgestats.intervals.spec_bounds`), and
``rank=True`` ranks the corrected groups jointly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import JudgeStatsError, check_group_sizes, check_positive_int, check_rng
from ..compare import Ranking
from ..correct import Correction, correct_spec
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import Design
from ..frames import GroupCounts, counts_of, named_counts, sort_keys
from ..intervals import HULL, bounds_at, implementation, spec_bounds
from ..spec import AUTO, EstimationSpec
from ..strata import StratifiedCorrection, stratum_pairs
from ..strata.stratified import stratified_correction
from .evaluation import Evaluation
from .per_group import correct_each, corrected, group_key
from .tables import _rank

__all__ = ["BATCHED", "STRATUM_OPTIONS", "evaluate_binary", "rate_options"]

#: Options of a stratified correction beside its interval method's (``evaluate(**options)``).
STRATUM_OPTIONS = ("weights", "min_per_class", "merge")

#: Methods whose bounds :func:`evaluate_binary` computes for every group in one batched call
#: (each group's correction then takes its own): deterministic, and slow one group at a time.
#: ``"auto"`` gets adjusted-Wald's and profile-map's, the two it compares.
BATCHED = {
    "profile-likelihood": ("profile-likelihood",),
    "profile-likelihood-t": ("profile-likelihood-t",),
    "profile-map": ("profile-map",),
    HULL: ("adjusted-wald", "profile-map"),
    AUTO: ("adjusted-wald", "profile-map"),
}


def rate_options(design: Design, method: str) -> tuple[str, ...]:
    """Return the options an interval method of a rate takes (its implementation's)."""
    return implementation(design, method).options


def _stratum_key(key: tuple, k: int) -> Any:
    rest = key[k:]
    return rest[0] if len(rest) == 1 else rest


def _per_group(counts: GroupCounts) -> tuple[dict, dict]:
    """Group → stratum (None without strata) → cell counts, and the same of the items.

    The items (with ``cluster=``): group → stratum → (item ids, their cell counts).
    """
    k, stratified = len(counts.by), bool(counts.strata)
    per_group: dict[Any, dict] = {}
    per_items: dict[Any, dict] = {}
    for key, c in counts.counts.items():
        stratum = _stratum_key(key, k) if stratified else None
        per_group.setdefault(group_key(key, k), {})[stratum] = c
        if counts.clusters is not None:
            per_items.setdefault(group_key(key, k), {})[stratum] = counts.clusters[key]
    return per_group, per_items


def _correct_one(spec: EstimationSpec, cells: dict, label: str, split: Any, *, gen: Any,
                 items: dict | None, known: dict | None,
                 strata_options: dict) -> Correction | StratifiedCorrection:  # fmt: skip
    """Correction of one group: ``cells`` maps stratum (or None) → cell counts.

    ``items``: the group's per-item cell counts when items repeat (``cluster=``), per stratum
    as ``cells`` is. ``known``: the group's bounds computed beforehand (:func:`_batched_bounds`).
    """
    total = sum(cells.values())
    check_group_sizes(
        label, n=int(total[0] + total[1]), m0=int(total[2] + total[3]),
        m1=int(total[4] + total[5]), split=split, both_classes=spec.design.needs_both_classes,
    )  # fmt: skip
    if list(cells) == [None]:
        test, cal = counts_of(total, None if items is None else items[None])
        return correct_spec(spec, test, cal, rng=gen, known=known)
    tests, cals = stratum_pairs(cells, items)  # an item in two strata: StrataMismatchError
    return stratified_correction(spec, tests, cals, rng=gen, **strata_options)


def _batched_bounds(spec: EstimationSpec, per_group: dict, groups: list) -> dict:
    """Return group → {method: bounds} for the groups a batched call can serve, else {}.

    Only methods of :data:`BATCHED` whose batched methods the spec's path has, without method
    options or repeated items; only unstratified groups with test rows and both human classes
    (the rest are corrected, and refused, one at a time as before). The bounds are those the
    correction would compute itself: every method here is computed independently per data set.
    """
    batched = BATCHED.get(spec.method)
    if batched is None or spec.options or spec.repeated or not set(batched) <= set(spec.methods):
        return {}
    cells = {g: per_group[g][None] for g in groups if list(per_group[g]) == [None]}
    ready = [g for g, c in cells.items()
             if c[0] + c[1] > 0 and c[2] + c[3] > 0 and c[4] + c[5] > 0]  # fmt: skip
    if len(ready) < 2:
        return {}
    c = np.array([cells[g] for g in ready], dtype=np.int64).T  # cell codes, as named_counts
    test = JudgedCounts(positive=c[1], n=c[0] + c[1])
    cal = ConfusionCounts(tp=c[5], fn=c[4], tn=c[2], fp=c[3])
    batch = {m: spec_bounds(spec.with_method(m), test, cal) for m in batched}
    return {g: {m: bounds_at(b, i) for m, b in batch.items()} for i, g in enumerate(ready)}


def _rank_groups(spec: EstimationSpec, corrections: dict, groups: list, *, size: int,
                 gen: Any) -> Ranking:  # fmt: skip
    """Rank the corrected groups jointly (``rank=True``): the ranking method follows the spec.

    The bootstrap, unless the design's estimator divides by Youden's J and the interval method
    answers without a judge better than chance (profile likelihood, posterior): the bootstrap
    needs every judge better than chance there, so those rank by the exact posterior.
    """
    if len(groups) < 2:
        raise JudgeStatsError(
            f"rank=True needs at least two groups, got {len(groups)} ({groups!r})"
        )
    size = check_positive_int("rank_resamples", size, minimum=100)
    weak_judge = spec.design.divides_by_youden and not implementation(
        spec.design, HULL if spec.is_auto else spec.method).requires_informative  # fmt: skip
    return _rank(corrections, groups, method="bayes" if weak_judge else "bootstrap", size=size,
                 level=spec.confidence_level, rng=gen, design=spec.design)  # fmt: skip


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


def evaluate_binary(
    counts: GroupCounts, spec: EstimationSpec, *, rank: bool, rank_resamples: int, rng: Any,
    errors: str, progress: bool | None, stacklevel: int, strata_options: dict,
) -> Evaluation:  # fmt: skip
    """Correct every group of 0/1 counts under ``spec`` (a rate, or a pooled rate); see evaluate.

    ``strata_options``: the stratified correction's own (:data:`STRATUM_OPTIONS`);
    ``stacklevel``: where the re-issued warnings point, as seen from this function's caller.
    """
    gen = check_rng(rng)
    if rank and counts.strata:
        raise JudgeStatsError(
            "rank=True needs unstratified corrections (one calibration set per group); "
            "drop strata= or rank the groups yourself"
        )
    per_group, per_items = _per_group(counts)
    groups = sort_keys(list(per_group))
    if not groups:
        raise JudgeStatsError("the frame has no rows: nothing to evaluate")
    known = _batched_bounds(spec, per_group, groups)

    def correct_group(g: Any, label: str) -> Correction | StratifiedCorrection:
        return _correct_one(spec, per_group[g], label, counts.split, gen=gen,
                            items=per_items.get(g), known=known.get(g),
                            strata_options=strata_options)  # fmt: skip

    corrections, issued, marked = correct_each(counts.by, groups, correct_group, errors=errors,
                                               stacklevel=stacklevel + 1,
                                               progress=progress)  # fmt: skip
    groups = corrected(counts.by, groups, corrections, marked)
    ranking, ranking_error = None, None
    if rank:
        try:
            ranking = _rank_groups(spec, corrections, groups, size=rank_resamples, gen=gen)
        except JudgeStatsError as exc:
            if errors != "mark":
                raise
            ranking_error = f"{type(exc).__name__}: {exc}"
    return Evaluation(
        groups=tuple(groups), corrections=corrections, by=counts.by,
        strata=counts.strata or None, method=spec.method,
        confidence_level=spec.confidence_level, judge=counts.judge, human=counts.human,
        split=counts.split, engine=counts.engine, warnings=issued, ranking=ranking,
        design=spec.design, marked=marked,
        marked_counts={g: _count_rows(per_group[g], counts.strata) for g in marked},
        ranking_error=ranking_error,
    )  # fmt: skip
