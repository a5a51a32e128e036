"""The content of a report before any format: title, methods sentence, rows and notes."""

from __future__ import annotations

from typing import Any

from .._validation import (
    ArgumentTypeError,
)
from ..evaluate.tables import rows_sentence
from ..results import group_label
from .agreement import agreement_section
from .judges import judge_sections
from .rows import (
    _check_text,
    _Content,
    _estimator_of,
    _kind,
    _Row,
    _row_of_correction,
    _row_of_stratified,
)
from .words import _row, methods_sentence, report_notes

#: The judge-shift section: its sentence, column names and cells.
_ShiftTable = tuple[str, list[str], list[list[str]]]


def _content(
    result, *, metric, title, label, strata_name, sort, reference=None, reference_name=None,
    inputs=(),
) -> _Content:
    ranking = None
    if _kind(result) == "evaluation":

        ranking = result.ranking
        rows = [_row(group_label(g), result.corrections[g]) for g in result.groups]
        if ranking is not None:
            for r in rows:
                if r.label in ranking.models:
                    r.p_rank1 = float(ranking.rank_probabilities[ranking.models.index(r.label), 0])
        if sort:
            rows.sort(key=lambda r: -r.estimate)
        header = result.dim
        by = ", ".join(result.by)
        default_title = f"Corrected {metric} by {by}"
        level = result.confidence_level
    elif _kind(result) == "stratified":
        rows = [_row_of_correction(str(s), result.corrections[s]) for s in result.strata]
        rows.append(_row_of_stratified("pooled", result))
        rows[-1].total = True
        header = strata_name or "stratum"
        default_title = f"Corrected {metric}" + (f" of {label}" if label else "")
        level = result.confidence_level
    else:
        rows = [_row_of_correction(label or "", result)]
        header = "model" if label else None
        default_title = f"Corrected {metric}" + (f" of {label}" if label else "")
        level = result.confidence_level
    return _Content(
        title=title or default_title,
        inputs=list(inputs),
        sentence=methods_sentence(result, metric=metric, label=label, strata_name=strata_name),
        label_header=header,
        level=level,
        rows=rows,
        notes=report_notes(result),
        ranked=ranking is not None,
        estimator=_estimator_of(result),
        reference_name=_with_reference(rows, reference, reference_name),
        rows_line=rows_sentence(result) if _kind(result) == "evaluation" else None,
        agreement=agreement_section(result, [r.label for r in rows]),
        judge_shift=judge_shift_table(result, [r.label for r in rows]),
        unit=_counted_unit(result),
        judges=judge_sections(result, [r.label for r in rows], header),
    )


def _counted_unit(result: Any) -> str:
    """Return what n, m0 and m1 count: ``"rows"`` where items repeat, else ``"items"``."""
    each = result.corrections.values() if _kind(result) == "evaluation" else [result]
    return "rows" if any(getattr(c, "clusters", None) is not None for c in each) else "items"


def judge_shift_table(result: Any, labels: list[str]) -> _ShiftTable | None:
    """Return the judge-shift section of an evaluation with ``batch=``: sentence, head, cells.

    One row per group (in the table's order, then the groups not corrected): the test of its
    latest calibration batch against the earlier ones (:func:`judgestats.judge_shift_test`), T,
    p, whether p < 1 − level, the rate that moved most with its interval, and the test's advice;
    a group without a test (one batch, a batch without some human class) says why. None
    without ``batch=``.
    """
    shifts = getattr(result, "judge_shift", None) if _kind(result) == "evaluation" else None
    if not shifts:
        return None
    by_label = {group_label(g): g for g in shifts}
    order = [by_label[x] for x in labels if x in by_label]
    order += [g for g in shifts if g not in order]
    level = result.confidence_level
    lvl = f"{100 * level:g}%"
    noun = "model" if result.dim == "model" else "group"
    head = [result.dim, "batches", "test", "T", "p", "shifted", "largest change",
            f"{lvl} interval", "advice"]  # fmt: skip
    cells = [[group_label(g), _batches_cell(shifts[g]), *_shift_cells(shifts[g])]
             for g in order]  # fmt: skip
    used = ("every batch" if result.batch_choice == "pool"
            else f"each {noun}'s latest batch only")  # fmt: skip
    sentence = (
        f"Each {noun}'s latest calibration batch of {result.batch!r} (in natural order: b9 "
        "before b10) tested against its earlier batches pooled (js.judge_shift_test; batches: "
        "the latest vs the earlier ones): T is the likelihood-ratio statistic, p its "
        f"p-value{_pvalue_words(shifts)}, shifted where p is below {1 - level:.2g}; the "
        "largest change is the judge's rate that moved most, with its interval; advice: pool, "
        f"latest or label more. The corrections use {used} (batch choice "
        f"{result.batch_choice!r})."
    )
    return sentence, head, cells


def _batches_cell(shift: Any) -> str:
    """Return the batches a test compared: ``10 vs 8, 9`` (``10 vs 1 … 9 (9)`` for many)."""
    names = [str(b) for b in getattr(shift, "batches", ())]
    if len(names) < 2:
        return "–"
    earlier = names[:-1]
    said = (", ".join(earlier) if len(earlier) <= 3
            else f"{earlier[0]} … {earlier[-1]} ({len(earlier)})")  # fmt: skip
    return f"{names[-1]} vs {said}"


def _pvalue_words(shifts: dict) -> str:
    """How the p-values were computed (the test with the largest Monte Carlo error), or ''."""
    drawn = [s for s in shifts.values() if getattr(s, "mc_error", None) is not None]
    if not drawn:
        return ""
    worst = max(drawn, key=lambda s: s.mc_error)
    return f" ({worst.pvalue_words(largest=len(drawn) > 1)})"


def _shift_cells(shift: Any) -> list[str]:
    """One group's cells after its label: its test, or why there is none."""
    if isinstance(shift, str):
        return ["–", "–", "–", "–", "–", "–", shift]
    worst = max(shift.changes, key=lambda r: abs(r.change))
    return [shift.test, f"{shift.statistic:.3f}", f"{shift.pvalue:.3g}",
            "yes" if shift.shifted else "no", f"{worst.rate} {worst.change:+.3f}",
            f"[{worst.ci.low:+.3f}, {worst.ci.high:+.3f}]", shift.recommendation]  # fmt: skip


def _with_reference(rows: list[_Row], reference: Any, name: str | None) -> str | None:
    """Attach known true rates (label → rate) to the rows; the column's name, or None."""
    if reference is None:
        return None
    if not hasattr(reference, "items"):
        raise ArgumentTypeError(f"reference must be a mapping label -> rate, got {reference!r}")
    values = {str(k): float(v) for k, v in reference.items()}
    for r in rows:
        r.reference = values.get(r.label)
    return _check_text("reference_name", name or "reference")
