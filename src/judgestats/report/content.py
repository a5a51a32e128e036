"""The content of a report before any format: title, methods sentence, rows and notes."""

from __future__ import annotations

from typing import Any

from .._validation import (
    ArgumentTypeError,
)
from ..evaluate.tables import rows_sentence
from ..results import group_label
from .agreement import agreement_section
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
    )


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
