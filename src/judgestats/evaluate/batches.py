"""Calibration batches of a leaderboard: ``evaluate(..., batch=)``.

A frame's calibration rows may come from several labelling rounds (last quarter's, today's;
an older and a newer judge version). With ``batch="column"`` each group's calibration rows are
counted per batch too (a second grouped count, of calibration rows only, on the frame's own
engine), the latest batch (the last in sorted order of the column's values) is compared with
the earlier ones pooled by :func:`judgestats.judge_shift_test`, and the group's result keeps
the test (``Evaluation.judge_shift``). The corrections use every batch (``batch_choice="pool"``,
the default: the numbers are those without ``batch=``) or the latest batch only
(``"latest"``); the test never chooses (``benchmarks/results/judge_shift.md``: pooling after a
non-significant pre-test loses coverage at moderate shifts). Where the test rejects, a
:class:`~judgestats.JudgeShiftWarning` names the group, the rate that moved and the choice.
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Any

import numpy as np

from .._validation import (
    JudgeShiftWarning,
    JudgeStatsError,
    check_choice,
    check_frame_columns,
    check_instance,
    check_missing_keys,
    describe_group,
)
from ..counts import ConfusionCounts
from ..counts.clusters import merged_totals
from ..designs import Design
from ..frames import GroupCounts, counts_of, group_counts, open_frame
from ..judge_shift import JudgeShiftDiagnostic, _batch_order, judge_shift_test
from ..spec import EstimationSpec
from .binary import evaluate_binary
from .evaluation import Evaluation

__all__ = [
    "BATCH_CHOICES",
    "check_batch_call",
    "count_batches",
    "evaluate_batches",
    "with_judge_shift",
]

#: Which calibration batches the corrections use (``evaluate(batch_choice=)``).
BATCH_CHOICES = ("pool", "latest")
_CAL = slice(2, 6)  # the calibration cell codes (frames module docstring)


def check_batch_call(batch: Any, batch_choice: str, *, counted: bool, letters: bool,
                     strata: Any) -> None:  # fmt: skip
    """Refuse what ``batch=`` cannot do yet, before the data are read."""
    check_choice("batch_choice", batch_choice, BATCH_CHOICES)
    if batch is None:
        if batch_choice != "pool":
            raise JudgeStatsError("batch_choice= needs batch= (the column of calibration batches)")
        return
    check_instance("batch", batch, str)
    for given, what in ((counted, "GroupCounts (count the batches as a group column)"),
                        (letters, "a judge alphabet (compare its batches with "
                                  "js.judge_shift_test on their ConfusionMatrix)"),
                        (strata is not None, "strata= (evaluate each stratum as a group)")):
        if given:
            raise JudgeStatsError(f"batch= is not available with {what}")


def _calibration_rows(frame: Any, *, judge: str, human: str, split: str | None) -> Any:
    """Return the frame's calibration rows (a narwhals frame, lazy where the frame is)."""
    from ..frames import _narwhals  # the one narwhals import of the package

    nw = _narwhals()
    nf = open_frame(nw, frame, (), (judge, human))
    if split is not None:
        return nf.filter((nw.col(split) == "calibration").fill_null(False))
    column = nw.col(human)
    present = ~column.is_null()
    if nf.collect_schema()[human].is_float():
        present = present & ~column.is_nan()
    return nf.filter(present)


def _check_batch_cells(cal: Any, batch: str) -> None:
    """Every calibration row needs a batch: the error names the batch column, not a group's."""
    from ..frames import _collect, _narwhals

    nw = _narwhals()
    gaps = _collect(nw, cal.select(nw.col(batch).is_null().sum())).item()
    check_missing_keys({batch: int(gaps)}, {batch: "batch"})


def evaluate_batches(frame: Any, counts: GroupCounts, spec: EstimationSpec, *, batch: str,
                     choice: str, rng: Any, stacklevel: int, **binary: Any) -> Evaluation:
    """``evaluate(batch=)``: test each group's calibration batches, correct, keep the tests.

    ``counts``: the frame's counts (every batch; their ``cluster`` column counts the batches'
    items too); ``binary``: the rest of :func:`judgestats.evaluate.binary.evaluate_binary`'s
    arguments.
    """
    counts, shifts, notes, set_aside = count_batches(
        frame, counts, batch=batch, choice=choice, cluster=counts.cluster,
        confidence_level=spec.confidence_level, design=spec.design, rng=rng,
        stacklevel=stacklevel + 1,
    )  # fmt: skip
    ev = evaluate_binary(counts, spec, rng=rng, stacklevel=stacklevel + 1, **binary)
    return with_judge_shift(ev, shifts, notes, batch, choice, set_aside)


def count_batches(frame: Any, counts: GroupCounts, *, batch: str, choice: str, cluster: Any,
                  confidence_level: float, design: Design, rng: Any,
                  stacklevel: int) -> tuple[GroupCounts, dict, dict, dict]:  # fmt: skip
    """Count each group's calibration batches, test the latest against the rest; pick the rows.

    Returns the counts to correct (the latest batch's calibration rows with ``"latest"``),
    group → :class:`~judgestats.JudgeShiftDiagnostic` (or a str saying why there is no test:
    one batch, a batch without some human class), group → the warning issued, if any, and
    (with ``"latest"``) group → {earlier batch: its calibration rows set aside}.
    """
    cal = _calibration_rows(frame, judge=counts.judge, human=counts.human, split=counts.split)
    check_frame_columns(cal.collect_schema().names(), {"batch": (batch,)})  # not "(by=)"
    _check_batch_cells(cal, batch)
    per = group_counts(cal, judge=counts.judge, human=counts.human, by=(*counts.by, batch),
                       split=counts.split, cluster=cluster)  # fmt: skip
    k = len(counts.by)
    keys: dict[tuple, list] = {}
    for key in per.counts:
        keys.setdefault(key[:k], []).append(key)
    shifts: dict[Any, Any] = {}
    notes: dict[Any, str] = {}
    latest: dict[tuple, tuple] = {}
    for g, found in keys.items():
        order = _batch_order([key[k] for key in found])  # natural: 'b2' before 'b10'
        latest[g] = (*g, order[-1])
        group = g[0] if k == 1 else g
        label = describe_group(counts.by, group)
        shifts[group] = _group_test(per, [(*g, b) for b in order], confidence_level, design,
                                    rng)  # fmt: skip
        shift = shifts[group]
        if isinstance(shift, JudgeShiftDiagnostic) and shift.shifted:
            notes[group] = _words(shift, batch, order, choice)
            warnings.warn(f"group {label}: {notes[group]}", JudgeShiftWarning,
                          stacklevel=stacklevel)  # fmt: skip
    if choice != "latest":
        return counts, shifts, notes, {}
    set_aside = {(g[0] if k == 1 else g): {key[k]: int(per.counts[key][_CAL].sum())
                                           for key in found if key != latest[g]}
                 for g, found in keys.items()}  # fmt: skip
    return _latest_counts(counts, per, latest), shifts, notes, set_aside


def _group_test(per: GroupCounts, keys: list, level: float, design: Design, rng: Any) -> Any:
    """One group's test: the latest batch (last key) against the earlier ones pooled."""
    if len(keys) < 2:
        return f"one calibration batch ({keys[0][-1]!r}): nothing to compare"
    cals = []
    for key in keys:
        items = None if per.clusters is None else per.clusters[key]
        cals.append(counts_of(per.counts[key], items)[1])
    earlier = _pooled(cals[:-1])
    try:
        shift = judge_shift_test(earlier, cals[-1], confidence_level=level, design=design,
                                 rng=rng)  # fmt: skip
    except JudgeStatsError as exc:
        return f"no test: {exc}"
    return replace(shift, batches=tuple(key[-1] for key in keys))  # which batches were compared


def _pooled(cals: list) -> ConfusionCounts:
    """Calibration counts of several batches added (an item in two batches adds up)."""
    if len(cals) == 1:
        return cals[0]
    fields = ("tp", "fn", "tn", "fp")
    sums = {f: int(sum(getattr(c, f) for c in cals)) for f in fields}
    return ConfusionCounts(**sums, clusters=merged_totals(cals, fields))


def _words(shift: JudgeShiftDiagnostic, batch: str, order: list, choice: str) -> str:
    moved = shift.moved or shift.changes
    worst = max(moved, key=lambda r: abs(r.change))
    pct = f"{100 * shift.confidence_level:g}%"
    used = ("the corrections pool every batch; batch_choice='latest' uses the latest only"
            if choice == "pool" else "the corrections use the latest batch only")  # fmt: skip
    return (
        f"the judge's confusion matrix differs between calibration batch {order[-1]!r} of "
        f"{batch!r} and the earlier ones ({shift.test} test, p = {shift.pvalue:.3g}); "
        f"{worst.rate} moved {worst.change:+.3f} ({pct} interval [{worst.ci.low:+.3f}, "
        f"{worst.ci.high:+.3f}]); {used} (result.judge_shift; help(js.JudgeShiftWarning))"
    )


def _latest_counts(counts: GroupCounts, per: GroupCounts, latest: dict) -> GroupCounts:
    """Return the counts with each group's calibration cells (and items) from its latest batch."""
    cells: dict[tuple, np.ndarray] = {}
    clusters: dict[tuple, tuple] | None = None if counts.clusters is None else {}
    for key, c in counts.counts.items():
        new = c.copy()
        new[_CAL] = per.counts[latest[key]][_CAL] if key in latest else 0
        cells[key] = new
        if clusters is not None and counts.clusters is not None:
            batch_items = per.clusters.get(latest.get(key)) if per.clusters else None
            clusters[key] = _latest_items(counts.clusters[key], batch_items)
    return replace(counts, counts=cells, clusters=clusters)


def _latest_items(items: tuple, batch_items: tuple | None) -> tuple:
    """Return a group's per-item cells with the calibration cells of one batch's items only."""
    ids, per = items
    per = per.copy()
    per[:, _CAL] = 0
    if batch_items is not None:
        index = {v: i for i, v in enumerate(ids.tolist())}
        for v, row in zip(batch_items[0].tolist(), batch_items[1], strict=True):
            per[index[v], _CAL] += row[_CAL]  # every calibration item is among the group's
    keep = per.sum(axis=1) > 0
    out = np.empty(int(keep.sum()), dtype=object)
    out[:] = [v for v, k in zip(ids.tolist(), keep, strict=True) if k]
    return out, per[keep]


def with_judge_shift(evaluation: Any, shifts: dict, notes: dict, batch: str, choice: str,
                     set_aside: dict) -> Any:  # fmt: skip
    """Return the evaluation with its groups' tests, warnings and rows ``"latest"`` set aside.

    ``notes``: group → the warning issued (kept for the report); ``set_aside``: group →
    {earlier batch: its calibration rows}, left out of the corrections by ``"latest"``.
    """
    issued = dict(evaluation.warnings)
    for g, text in notes.items():
        if g in issued:
            issued[g] = (*issued[g], ("JudgeShiftWarning", text))
    return replace(evaluation, warnings=issued, batch=batch, batch_choice=choice,
                   judge_shift=shifts, set_aside=set_aside)  # fmt: skip
