"""The judge-agreement section of a report: each calibration set's card beside the corrected rate.

Issue 30 §2 ("in reports beside the corrected rates"): the agreement card
(:func:`judgestats.agreement`) of every group (stratum, result) in one table, compact enough for
thousands of groups: one row per group with the calibration size m, the judge × human table
written in a row (TP, FN, FP, TN for a 0/1 judge; each judge letter's human-1 and human-0 counts
for a judge alphabet) and, for a 0/1 judge, the sensitivity q̂1 and specificity q̂0 with their
Clopper–Pearson (exact) intervals, at the effective sizes where items repeat. Groups whose
calibration tables are all the same (a calibration set shared by every group) get one row. The
full card (PPV/NPV, κ, AC1 where the design makes them estimable, what the agreement buys) is
``js.agreement(result.calibration)``; the formats of :mod:`.formats` write this section.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._validation import JudgeStatsError
from ..designs import Design
from ..results import group_label
from .rows import _design_of, _kind


@dataclass
class AgreementRow:
    """One calibration set's card, as a report row."""

    label: str
    card: Any  # an Agreement, or None where js.agreement refused the table
    total: bool = False  # the pooled card below a StratifiedCorrection's strata


@dataclass
class AgreementSection:
    """The rows of the section and what its sentence states."""

    rows: list[AgreementRow]
    binary: bool  # a 0/1 judge: TP/FN/FP/TN and sensitivity/specificity columns
    level: float
    design: Design
    shared: int | None = None  # number of groups whose one shared table is the only row
    repeated: bool = False  # some card has fewer items than rows (effective sizes)
    strata_added: bool = False  # an Evaluation's groups with strata: their tables added


def _calibration(c: Any) -> Any:
    """Return one correction's calibration counts (a mapping of strata for a stratified one)."""
    if _kind(c) == "stratified":
        return {s: c.corrections[s].calibration for s in c.strata}
    if _kind(c) == "alphabet":
        return c.distribution.calibration
    if _kind(c) == "combined-jury":  # the table its fit rests on (the mean's J + 1 letters)
        return _calibration(c.inner)
    return c.calibration  # a jury's: its product letters × human


def _key(cal: Any) -> tuple:
    """Return what makes two calibration sets' cards equal: their tables and item totals."""
    if isinstance(cal, dict):
        return tuple((str(s), _key(v)) for s, v in cal.items())
    counts = getattr(cal, "counts", None)
    table = (counts.tobytes(), counts.shape, tuple(cal.labels), tuple(cal.judge_labels)) \
        if counts is not None else (cal.tp, cal.fn, cal.tn, cal.fp)
    cl = cal.clusters
    return (type(cal).__name__, table, None if cl is None else cl.totals.tobytes())


def agreement_section(result: Any, labels: list[str] | None = None) -> AgreementSection | None:
    """Build the agreement rows of a result (in the order of ``labels``, the table's rows).

    Parameters
    ----------
    result : Correction, StratifiedCorrection, AlphabetCorrection or Evaluation
        What the report shows.
    labels : list of str, optional
        The report table's row labels in their order (an Evaluation's groups, sorted).

    Returns
    -------
    AgreementSection or None
        None when the result carries no calibration counts.
    """
    from ..agreement import agreement

    design, level = _design_of(result), result.confidence_level
    kind = _kind(result)
    if kind == "evaluation":
        named = {group_label(g): _calibration(result.corrections[g]) for g in result.groups
                 if _kind(result.corrections[g]) != "score-correction"}  # no table: a score
        order = [lab for lab in (labels or list(named)) if lab in named]
        named = {lab: named[lab] for lab in order}
    elif kind == "stratified":
        named = {str(s): result.corrections[s].calibration for s in result.strata}
    elif kind == "score-correction":  # a score has no judge × human table
        named = {}
    else:
        named = {labels[0] if labels else "": _calibration(result)}
    cards: dict[tuple, Any] = {}

    def card_of(cal: Any) -> Any:
        key = _key(cal)
        if key not in cards:
            try:
                cards[key] = agreement(cal, design=design, confidence_level=level)
            except JudgeStatsError:  # a table the card refuses: the row says "–"
                cards[key] = None
        return cards[key]

    rows = [AgreementRow(lab, card_of(cal)) for lab, cal in named.items()]
    shared = None
    if kind == "evaluation" and len(rows) > 1 and len({_key(c) for c in named.values()}) == 1:
        shared, rows = len(rows), [AgreementRow(f"all {len(rows)} groups", rows[0].card)]
    if kind == "stratified":
        rows.append(AgreementRow("pooled", card_of(_calibration(result)), total=True))
    found = [r.card for r in rows if r.card is not None]
    if not found:
        return None
    return AgreementSection(
        rows=rows, binary=all(c.binary for c in found), level=level, design=design,
        shared=shared, repeated=any(c.items is not None and c.items < c.m for c in found),
        strata_added=kind == "evaluation" and bool(result.strata),
    )  # fmt: skip


def agreement_sentence(s: AgreementSection, header: str | None) -> str:
    """Say what the section's table holds, how its intervals were made, and what it rests on."""
    lvl = f"{100 * s.level:g}%"
    several = header and len(s.rows) > 1 and not s.shared
    where = f"each {header}'s calibration set" if several else "the calibration set"
    if s.binary:
        text = (f"Judge agreement with the humans on {where} (js.agreement): the judge × human "
                "table (TP judge 1 and human 1, FN judge 0 and human 1, FP judge 1 and human 0, "
                "TN judge 0 and human 0) and the judge's sensitivity and specificity with "
                f"{lvl} Clopper–Pearson (exact) intervals.")  # fmt: skip
    else:
        text = (f"Judge agreement with the humans on {where} (js.agreement): the judge × human "
                "table, each judge letter's count in every human class; "
                "js.agreement gives P(judge = a | human = b) with Clopper–Pearson intervals.")
    if s.strata_added:
        text += " Each row adds the tables of the group's strata."
    if s.repeated:
        text += " Items repeat: the intervals are taken at the effective sizes (design effects)."
    if not s.design.youden_estimable:  # the human classes were not sampled
        text += (f" Under the {str(s.design)!r} design these rates describe the calibration "
                 "sample only (its items were drawn within judge labels).")  # fmt: skip
    if s.shared:
        text += (f" All {s.shared} groups have the same calibration table (a shared "
                 "calibration set): one card for all.")  # fmt: skip
    return text


def agreement_cells(s: AgreementSection, d: int) -> tuple[list[str], list[list[str]]]:
    """Column names and the formatted cells of every row (the label first)."""
    lvl = f"{100 * s.level:g}%"
    if s.binary:
        head = ["m", "TP", "FN", "FP", "TN", f"sensitivity ({lvl} CI)",
                f"specificity ({lvl} CI)"]  # fmt: skip
    else:
        first = next(r.card for r in s.rows if r.card is not None)
        head = ["m", "judge letter: " + " / ".join(f"human {b}" for b in first.labels)]
    if s.repeated:
        head.insert(1, "items")
    out = []
    for r in s.rows:
        c = r.card
        if c is None:
            out.append([r.label, *("–" for _ in head)])
            continue
        cells = [str(c.m)] + ([str(c.items if c.items is not None else c.m)] if s.repeated else [])
        if s.binary:
            (tn, fn), (fp, tp) = c.counts.tolist()
            cells += [str(tp), str(fn), str(fp), str(tn), c.sensitivity.text(d, short=True),
                      c.specificity.text(d, short=True)]  # fmt: skip
        else:
            cells.append("; ".join(f"{a}: " + " / ".join(str(int(v)) for v in row)
                                   for a, row in zip(c.judge_labels, c.counts, strict=True)))
        out.append([r.label, *cells])
    return head, out
