"""The judge sections of a report: a judge score's calibration, and a jury's members.

A rate corrected from a numeric judge score (:class:`~judgestats.scores.ScoreCorrection`,
``kind == "score-correction"``) is described by its estimator (the prediction-powered mean with
power tuning, PPI++), and the section *Judge score* lists per group the calibrator, the folds,
the power tuning λ̂, the fallback taken with fewer than 100 labelled items, and what the judge
buys: ``effective_labels`` = θ̂(1 − θ̂)/Var(θ̂), the human labels alone that would give the same
precision ("these 279 labels are worth 540"). A jury (:class:`~judgestats.jury.JuryCorrection`)
gets the section *Jury*: one row per group and judge with its weight, its estimate and
adjusted-Wald interval alone, and its agreement with the human label (sensitivity and
specificity with Clopper–Pearson intervals, :func:`judgestats.agreement`). A jury combined by
``combine=`` (:class:`~judgestats.jury.CombinedJuryCorrection`) gets a *Jury* section naming
its combine and each judge's weight in it: the stack's log-odds coefficients, the letters'
minimum-variance weights, the mean's J + 1 letters and the alphabet fitted on them. The formats of
:mod:`.formats` write each section as a heading, a sentence and a table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .._validation import JudgeStatsError
from ..results import group_label
from .rows import _fixed, _interval_name, _kind

__all__ = ["JudgeSection", "judge_sections", "score_how", "score_notes", "score_sentence"]

#: The reference of the prediction-powered mean with power tuning (cross-fitted).
PPI_CITATION = "Angelopoulos, Duchi & Zrnic, 2023; cross-fitted as Zrnic & Candès, 2024"


@dataclass(frozen=True, slots=True)
class JudgeSection:
    """A section of a report below the table: heading, anchor, sentence, columns, cells."""

    title: str
    anchor: str
    sentence: str
    head: list[str]
    cells: list[list[str]]
    spec: str  # one letter per column: "l" text, "r" numbers


def _worth(c: Any) -> str:
    """Say what a result's labels are worth (``effective_labels``), or '–' where undefined."""
    worth = getattr(c, "effective_labels", None)
    return "–" if worth is None or not math.isfinite(worth) else f"{worth:.0f}"


def _whose(header: str, label: str) -> str:
    """Name a group's labels in a sentence: ``model y's`` (``the`` for a single result)."""
    return f"{header} {label}'s" if header else "the"


def _calibration_words(c: Any) -> str:
    """How a score was calibrated: ``isotonic, 5 folds`` (or the fallback's estimator)."""
    if c.fallback is not None:
        return f"fallback: {c.fallback}"
    return f"cross-fitted {c.calibrator} calibration in {c.folds} folds, power tuning λ̂ {c.lam:.2f}"


def score_sentence(c: Any, subject: str, lvl: str) -> str:
    """Describe one rate corrected from a judge score: its estimator, labels, what they buy."""
    naive = "" if math.isnan(c.naive) else (
        f"; the judge's calibrated score averages {c.naive:.2f} on the {c.n} unlabelled items")
    return (
        f"{subject} is {c.estimate:.2f} ({lvl} CI {_fixed(c.ci.low, 2)}–{_fixed(c.ci.high, 2)}), "
        f"the prediction-powered mean of the judge's score ({_calibration_words(c)}) on "
        f"{c.n_labelled} human-labelled items, a random sample ({c.design.words}; "
        f"{_interval_name(c.method, None, plural=False)}; {PPI_CITATION}); these "
        f"{c.n_labelled} labels are worth {_worth(c)} human labels alone{naive}."
    )


def score_how(ev: Any) -> str:
    """How an evaluation's groups were corrected from a judge score (its methods sentence)."""
    calibrators = sorted({ev.corrections[g].calibrator for g in ev.groups})
    fell = sum(ev.corrections[g].fallback is not None for g in ev.groups)
    back = (f" ({fell} of {len(ev.groups)} with fewer than 100 labelled items by the fallback "
            "declared in advance)") if fell else ""  # fmt: skip
    first = ev.corrections[ev.groups[0]]
    judges = getattr(first, "judges", None)  # a jury's predictor (js.jury.correct_combined)
    what = (f"the judge's score {ev.judge!r}" if judges is None else
            f"the jury's predictor (combine={first.combine!r} of {', '.join(judges)})")  # fmt: skip
    return (f"the prediction-powered mean of {what}, calibrated to the "
            f"human label by cross-fitted {' / '.join(calibrators)} regression, with power "
            f"tuning{back}")  # fmt: skip


def score_notes(c: Any, who: str) -> list[str]:
    """List a score correction's notes: its fallback and a clipped estimate."""
    notes = [f"{who}fallback: {c.fallback}"] if c.fallback else []
    if c.clipped:
        notes.append(f"{who}the prediction-powered estimate {c.estimate_unclipped:.3f} lies "
                     f"outside [0, 1] and is reported as {c.estimate:g}")  # fmt: skip
    return notes


def _named(result: Any, labels: list[str] | None) -> dict[str, Any]:
    """Label → correction of a result (an evaluation's groups in the table's order)."""
    if _kind(result) != "evaluation":
        return {(labels or [""])[0]: result}
    named = {group_label(g): result.corrections[g] for g in result.groups}
    order = [lab for lab in (labels or list(named)) if lab in named]
    return {lab: named[lab] for lab in order}


def _section(title: str, anchor: str, sentence: str, head: list[str], cells: list[list[str]],
             header: str, spec: str) -> JudgeSection:  # fmt: skip
    """Return a section; a single result's (``header`` empty) drops the label column."""
    if not header:
        head, cells = head[1:], [row[1:] for row in cells]
    return JudgeSection(title, anchor, sentence, head, cells, ("l" if header else "") + spec)


def _fallback_words(named: dict[str, Any]) -> str:
    """Name the juries answered by their fallback fixed in advance ('' where none was)."""
    fell = [f"{lab or 'the jury'}: {c.fallback}" for lab, c in named.items() if c.fallback]
    return " Fallback fixed in advance: " + "; ".join(fell) + "." if fell else ""


def _member_cards(c: Any) -> dict[str, Any]:
    """Return a jury's agreement cards by member (js.agreement); {} where one is refused."""
    try:
        return c.agreement()
    except JudgeStatsError:  # a member's table the card refuses: its cells say "–"
        return {}


def _agree_cells(card: Any, d: int) -> list[str]:
    """Return a member's sensitivity and specificity cells ('–' without a binary card)."""
    if card is None or not card.binary:
        return ["–", "–"]
    return [card.sensitivity.text(d, short=True), card.specificity.text(d, short=True)]


def _score_section(named: dict[str, Any], header: str, lvl: str) -> JudgeSection:
    """Return the *Judge score* section: each group's calibration, fallback and effective labels."""
    head = [header, "labelled", "calibrator", "folds", "λ̂", "fallback", "effective labels",
            "width / labels alone"]  # fmt: skip
    cells = []
    for label, c in named.items():
        ratio = c.width_ratio
        cells.append([label, str(c.n_labelled), "–" if c.fallback else c.calibrator,
                      "–" if c.folds is None else str(c.folds),
                      "–" if c.lam is None else f"{c.lam:.2f}", c.fallback or "–", _worth(c),
                      "–" if ratio is None else f"{ratio:.2f}"])  # fmt: skip
    best = max(named.items(), key=lambda kv: kv[1].n_labelled)
    sentence = (
        "The judge's score enters each rate through a calibration to the human label fitted "
        "on the other folds of the labelled items (cross-fitting; folds keep an item's rows "
        "together) and the prediction-powered mean with power tuning: λ̂ = 0 is the human "
        "labels alone, 1 the plain prediction-powered mean. Effective labels = θ̂(1 − θ̂)/"
        "Var(θ̂), the human labels alone that would give the same precision (here "
        f"{_whose(header, best[0])} {best[1].n_labelled} labels are worth {_worth(best[1])}); "
        "width / "
        f"labels alone is the {lvl} interval's width over the labelled items' own. With fewer "
        "than 100 labelled items the fallback declared in advance answers (score bins as "
        "judge letters, or the letter at a threshold), named in its column."
    )
    return _section("Judge score", "judge-score", sentence, head, cells, header, "rlrrlrr")


def _jury_cells(label: str, c: Any, d: int) -> list[list[str]]:
    """One row per member of a jury: weight, alone, agreement with the human label."""
    cards = _member_cards(c)
    rows = []
    for name in c.judges:
        ci = c.member_ci[name]
        weight = "–" if c.weights is None else f"{c.weights[name]:.{d}f}"
        rows.append([label, name + (" (better)" if name == c.better else ""), weight,
                     _fixed(c.member_estimate[name], d),
                     f"{_fixed(ci.low, d)}–{_fixed(ci.high, d)}",
                     *_agree_cells(cards.get(name), d)])  # fmt: skip
    return rows


def _jury_section(named: dict[str, Any], header: str, lvl: str, d: int) -> JudgeSection:
    """Return the *Jury* section: every group's members, weights and agreement with the humans."""
    head = [header, "judge", "weight", "alone", f"{lvl} CI alone", f"sensitivity ({lvl} CI)",
            f"specificity ({lvl} CI)"]  # fmt: skip
    cells = [row for label, c in named.items() for row in _jury_cells(label, c, d)]
    first = next(iter(named.values()))
    worth = [c for c in named.values() if getattr(c, "effective_labels", None) is not None]
    buys = (" Effective labels (the human labels alone as precise as the jury's rate): "
            + "; ".join(f"{_whose(header, lab)} {c.m0 + c.m1} labels are worth {_worth(c)}"
                        for lab, c in named.items() if c in worth) + "."
            if worth else "")  # fmt: skip
    sentence = (
        f"Each jury combines {len(first.judges)} judges' Rogan–Gladen estimates with "
        "minimum-variance weights (sum 1; the judge with the largest weight carries the jury); "
        f"alone: each judge's own estimate and {lvl} adjusted-Wald interval (eq. (8)), the "
        "better one (narrowest alone) marked; sensitivity and specificity: each judge's "
        f"agreement with the human label on the calibration set (js.agreement, {lvl} "
        f"Clopper–Pearson intervals).{buys}"
    ) + _fallback_words(named)
    return _section("Jury", "jury", sentence, head, cells, header, "lrrrrr")


def _combined_cells(label: str, c: Any, d: int) -> list[list[str]]:
    """One row per member of a combined jury: its coefficient or weight, its agreement."""
    cards = _member_cards(c)
    pull = c.coefficients if c.coefficients is not None else c.weights
    if pull is None and c.combine == "mean":  # the mean: every judge counts 1/J
        pull = dict.fromkeys(c.judges, 1 / len(c.judges))
    lead = None if not pull or len(set(pull.values())) == 1 else max(pull, key=pull.get)
    rows = []
    for name in c.judges:
        rows.append([label, name + (" (carries the weight)" if name == lead else ""),
                     c.combine, "–" if pull is None else f"{pull[name]:+.{d}f}"
                     if c.coefficients is not None else f"{pull[name]:.{d}f}",
                     *_agree_cells(cards.get(name), d)])  # fmt: skip
    if c.coefficients is not None and c.intercept is not None:
        rows.append([label, "(intercept)", c.combine, f"{c.intercept:+.{d}f}", "–", "–"])
    return rows


def _combined_words(c: Any) -> str:
    """Say how one combined jury's judges became one source (its ``combine``)."""
    if c.combine == "stack" and c.coefficients is not None:
        return ("combine='stack': a logistic regression of the human label on every judge's "
                "column, cross-fitted by item, enters the prediction-powered mean; a judge's "
                "coefficient is its log-odds per unit of its column, the largest carries the "
                "weight")  # fmt: skip
    if c.combine == "mean" and not c.letters:
        return ("combine='mean': the judges' mean (each judge's weight 1/J) is a score, "
                "calibrated and entered in the prediction-powered mean")
    if c.weights is not None:  # the paper's design: the jury of the product letters
        return ("combine='letters': the judges' Rogan–Gladen estimates combined with "
                "minimum-variance weights (sum 1), the largest carries the weight")
    if c.letters and _kind(c) == "combined-jury":
        what = "mean" if c.combine == "mean" else "product letters"
        return (f"combine={c.combine!r}: the judges' {what} as {len(c.letters)} letters ("
                f"{', '.join(map(str, c.letters[:8]))}{', …' if len(c.letters) > 8 else ''}), "
                f"fitted as a judge alphabet ({c.estimator}; its judge × human table is in "
                "Judge agreement)")  # fmt: skip
    return f"combine={c.combine!r}: {c.estimator}"


def _combined_section(named: dict[str, Any], header: str, lvl: str, d: int) -> JudgeSection:
    """Return the *Jury* section of juries combined by ``combine=`` (stack, mean, letters)."""
    first = next(iter(named.values()))
    pull = "coefficient (log-odds)" if first.coefficients is not None else "weight"
    head = [header, "judge", "combine", pull, f"sensitivity ({lvl} CI)",
            f"specificity ({lvl} CI)"]  # fmt: skip
    cells = [row for label, c in named.items() for row in _combined_cells(label, c, d)]
    ways = list(dict.fromkeys(_combined_words(c) for c in named.values()))
    worth = "; ".join(f"{_whose(header, lab)} {c.n_labelled} labels are worth {_worth(c)}"
                      for lab, c in named.items())  # fmt: skip
    sentence = (
        f"Each jury combines {len(first.judges)} judges ({'; '.join(ways)}); sensitivity and "
        "specificity: each judge's agreement with the human label on the calibration set "
        f"(js.agreement, {lvl} Clopper–Pearson intervals; – for a score judge). Effective "
        f"labels (the human labels alone as precise as the jury's rate): {worth}."
    ) + _fallback_words(named)
    return _section("Jury", "jury", sentence, head, cells, header, "llrrr")


def judge_sections(result: Any, labels: list[str] | None, header: str | None,
                   d: int = 3) -> list[JudgeSection]:  # fmt: skip
    """Return the judge sections of a result: *Judge score* and *Jury*, where they apply.

    Parameters
    ----------
    result : Correction, Evaluation or another result a report renders
        What the report shows.
    labels : list of str, optional
        The report table's row labels in their order.
    header : str or None
        The table's label column (an evaluation's ``dim``), None for a single result.
    d : int, default 3
        Decimals of the weights, estimates and intervals.
    """
    if _kind(result) not in ("evaluation", "score-correction", "jury", "combined-jury"):
        return []
    named = _named(result, labels)
    lvl = f"{100 * result.confidence_level:g}%"
    out = []
    scores = {k: c for k, c in named.items() if _kind(c) == "score-correction"}
    if scores:
        out.append(_score_section(scores, header or "", lvl))
    juries = {k: c for k, c in named.items() if _kind(c) == "jury" and c.weights is not None}
    if juries:
        out.append(_jury_section(juries, header or "", lvl, d))
    combined = {k: c for k, c in named.items() if hasattr(c, "combine") and hasattr(c, "judges")}
    if combined:  # a jury of correct_combined (js.jury.CombinedJuryCorrection): who weighs
        out.append(_combined_section(combined, header or "", lvl, d))
    return out

