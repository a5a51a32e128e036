"""The words of a report: one methods sentence and the notes in force.

:func:`methods_sentence` says what was estimated, by which estimator and interval method, under
which design, citing the source; :func:`report_notes` states the warnings in force (clipped
estimates, weak calibration by :data:`WEAK_CLASS_SIZE` and :data:`WEAK_YOUDEN`, label shift,
merged or heterogeneous strata, any warning issued while correcting), and a row carries them
as tags.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._validation import MethodError
from ..auto import widened_note
from ..designs import DEFAULT_DESIGN, Design, JudgeConditionalDesign, RoganGladenDesign
from ..designs.capabilities import ranking_draws
from ..gathered_notes import gather_notes
from ..intervals import MIN_PER_CLASS, implementation, interval_methods
from ..repeated import ClusterSummary
from ..results import group_label, shown_label, shows_point
from .judges import PPI_CITATION, score_how, score_notes, score_sentence
from .rows import (
    _capital,
    _check_text,
    _design_of,
    _fixed,
    _int_span,
    _interval_name,
    _kind,
    _Row,
    _row_of_correction,
    _row_of_stratified,
    _span,
    _tag,
)

__all__ = [
    "CITATION",
    "WEAK_CLASS_SIZE",
    "WEAK_YOUDEN",
    "methods_sentence",
    "report_notes",
]


#: The paper the correction and the adjusted-Wald interval follow.
CITATION = "Lee et al., 2026"


#: Fewer human-labelled items of a class than this is reported as weak calibration: the rule
#: of ``correct()``'s WeakCalibrationWarning (:data:`judgestats.correct.MIN_PER_CLASS`).
WEAK_CLASS_SIZE = MIN_PER_CLASS


#: A judge with sensitivity + specificity − 1 below this is reported as weak: the correction
#: divides by it, multiplying every sampling error by more than 1 / 0.3 ≈ 3.3.
WEAK_YOUDEN = 0.3


def _source(method: str, design: Design) -> str:
    """Cite a method's interval: the paper for its own, else the implementation's reference."""
    if method == _VOICES[design.family].own_interval:
        return CITATION
    if method in interval_methods(design):
        return implementation(design, method).reference_for(design) or CITATION
    return CITATION


#: warnings the report states in its own notes (once per group, not twice)
_SKIPPED_WARNINGS = ("ClippedEstimateWarning", "ProjectedEstimateWarning", "WeakCalibrationWarning")


def _row(label: str, r: Any) -> _Row:
    row = _row_of_stratified(label, r) if _kind(r) == "stratified" else _row_of_correction(label, r)
    row.clipped = bool(r.clipped)
    row.warnings = tuple(dict.fromkeys(_tag(note) for note in _notes_of(r, "")))
    return row


# ---------------------------------------------------------------------------- sentences
def _alphabet_how(letters: tuple, design: Design, whose: str = "the judge's alphabet") -> str:
    shown = ", ".join(str(v) for v in letters[:8]) + (", ..." if len(letters) > 8 else "")
    fit = _VOICES[design.family].alphabet.format(estimator=design.estimator, words=design.words)
    return f"{fit} over every letter of {whose} ({len(letters)} letters: {shown})"


def _alphabet_sentence(c: Any, subject: str, lvl: str, whose: str = "the judge's alphabet") -> str:
    """Describe a judge alphabet's rate: every letter used, on how many labels, which interval."""
    design = _design_of(c)
    naive = "" if math.isnan(c.naive) else (
        f"; the judge's uncorrected rate on {c.n} test items is {c.naive:.2f}"
    )
    return (
        f"{subject} is {c.estimate:.2f} ({lvl} CI {_fixed(c.ci.low, 2)}–{_fixed(c.ci.high, 2)}), "
        f"{_alphabet_how(c.letters, design, whose)} on {c.m0 + c.m1} human-labelled items ("
        f"{_named(design, '; ')}"
        f"{_interval_name(c.method, c.ci.n_resamples, plural=False)}; "
        f"{_source(c.method, design)}) on {c.n} test items{naive}."
    )


def _jury_how(c: Any) -> str:
    return (f"the minimum-variance combination of the Rogan–Gladen estimates of "
            f"{len(c.judges)} judges ({', '.join(c.judges)})")  # fmt: skip


def _combined_whose(c: Any) -> str:
    """Name a combined jury's letters: ``the 3 judges' mean (a, b, c; combine='mean')``."""
    what = "mean" if c.combine == "mean" else "product letters"
    return f"the {len(c.judges)} judges' {what} ({', '.join(c.judges)}; combine={c.combine!r})"


def _combined_how(c: Any) -> str:
    """How a jury combined by ``combine=`` was corrected: its inner fit, over its letters."""
    if _kind(c.inner) == "jury":
        return _jury_how(c.inner)
    return _alphabet_how(c.letters, _design_of(c), _combined_whose(c))


def _combined_sentence(c: Any, subject: str, lvl: str) -> str:
    """Describe a jury combined by ``combine=`` (its letters' fit: the inner result's sentence)."""
    if _kind(c.inner) == "jury":
        return _jury_sentence(c.inner, subject, lvl)
    return _alphabet_sentence(c.inner, subject, lvl, _combined_whose(c))


def _jury_sentence(c: Any, subject: str, lvl: str) -> str:
    """Describe a jury's rate: its judges, who carries the weight, which interval."""
    if c.weights is None:
        return _alphabet_sentence(c.fit, subject, lvl)
    lead = max(c.weights, key=c.weights.get)
    return (
        f"{subject} is {c.estimate:.2f} ({lvl} CI {_fixed(c.ci.low, 2)}–{_fixed(c.ci.high, 2)}), "
        f"{_jury_how(c)} ({lead} carries weight {c.weights[lead]:.2f}) on {c.m0 + c.m1} "
        f"human-labelled items ({_interval_name(c.method, None, plural=False)}) on {c.n} "
        "test items."
    )


def _named(design: Design, then: str) -> str:
    """Return the design's words where its family's sentence names it in its parentheses."""
    return design.words + then if _VOICES[design.family].names_design else ""


def _is(c: Any) -> str:
    """Say a correction's point estimate ("is 0.71"), or that there is none to say."""
    if shows_point(getattr(c, "sensitivity", None), getattr(c, "specificity", None)):
        return f"is {c.estimate:.2f}"
    return "has no point estimate, the judge being no better than chance on the calibration set"


def _correction_sentence(c: Any, metric: str, label: str | None) -> str:
    lvl = f"{100 * c.confidence_level:g}%"
    subject = _capital(metric) + (f" of {label}" if label else "")
    if _kind(c) == "alphabet":
        return _alphabet_sentence(c, subject, lvl)
    if _kind(c) == "jury":
        return _jury_sentence(c, subject, lvl)
    if _kind(c) == "combined-jury":
        return _combined_sentence(c, subject, lvl)
    if _kind(c) == "score-correction":
        return score_sentence(c, subject, lvl)
    design = _design_of(c)
    return _VOICES[design.family].sentence(c, subject, lvl, design)


def _paper_sentence(c: Any, subject: str, lvl: str, design: Design) -> str:
    """Describe a Rogan–Gladen correction: the judge's sensitivity and specificity, its source."""
    k = getattr(c, "clusters", None)
    cal = (f"{c.m0 + c.m1} human-labelled items" if k is None else
           f"{k.calibration_items} human-labelled items ({c.m0 + c.m1} rows)")  # fmt: skip
    test = f"{c.n} test items" if k is None else f"{k.test_items} test items ({c.n} rows)"
    return (
        f"{subject} {_is(c)} ({lvl} CI {_fixed(c.ci.low, 2)}–{_fixed(c.ci.high, 2)}), "
        f"corrected for the judge's sensitivity {c.sensitivity:.2f} and specificity "
        f"{c.specificity:.2f} estimated on {cal} ({design.words}; "
        f"{_interval_name(c.method, c.ci.n_resamples, plural=False)}{_auto(c)}{_repeats(k)}; "
        f"{_source(c.method, design)}); the judge's uncorrected rate on {test} is "
        f"{c.naive:.2f}."
    )


def _auto(c: Any) -> str:
    """Say that ``method="auto"`` chose the interval (the default under the paper's design)."""
    return ", chosen by method='auto'" if getattr(c, "chosen_by", None) else ""


def _item_summary(c: Any) -> tuple[int, float] | None:
    """(calibration items, design effect on θ̂) of a correction of repeated items, else None.

    A stratified correction's ``clusters`` is one summary per stratum (items summed, the
    pool's design effect).
    """
    k = getattr(c, "clusters", None)
    if k is None:
        return None
    if isinstance(k, dict):
        return sum(s.calibration_items for s in k.values()), float(c.design_effect)
    return k.calibration_items, k.theta_design_effect


def _repeats(k: Any, span: list[float] | None = None) -> str:
    """Clause saying the interval counts items, not rows, when items repeat."""
    if k is None:
        return ""
    return " counting repeated items once each" + _effect_words(
        [k.theta_design_effect] if span is None else list(span))


def _effect_words(effects: list[float]) -> str:
    """Say the design effects on θ̂'s variance where they are defined, and what below 1 means.

    Undefined (NaN: a rate of 0 or 1, too few items) is not printed as a number; a design
    effect below 1 (an item's rows pull the estimate in opposite directions, as when its test
    and calibration rows share its errors) is said to be one.
    """
    defined = [float(v) for v in effects if math.isfinite(v)]
    if not defined:
        return " (the design effect on the estimate's variance is undefined here)"
    where = " where defined" if len(defined) < len(effects) else ""
    below = ("; below 1: counted by item the estimate varies less than over as many "
             "independent rows, as when an item's test and calibration rows share its errors, "
             "which partly cancel in the estimate") if min(defined) < 1.0 else ""  # fmt: skip
    return (f", design effect {_span(defined, 2)} on the estimate's variance{where}{below}")


def _conditional_sentence(c: Any, subject: str, lvl: str, design: Design) -> str:
    """Describe a judge-conditional correction: how its items were drawn, its estimator, source."""
    k = c.calibration
    where = (
        "a random sample of the evaluated items, so the judge's labels of all "
        f"{c.n + k.m} items estimate how often it says 1"
        if design.calibration_samples_test
        else f"sampled within the judge's labels ({k.tp + k.fp} judged 1, {k.fn + k.tn} "
        "judged 0)"
    )
    return (
        f"{subject} {_is(c)} ({lvl} CI {_fixed(c.ci.low, 2)}–{_fixed(c.ci.high, 2)}), "
        f"estimated from how often the human agrees with each of the judge's verdicts on "
        f"{k.m} human-labelled items, {where} (judge-conditional estimator, {design.words}: "
        f"{design.reference}; {_interval_name(c.method, c.ci.n_resamples, plural=False)}); "
        f"the judge's uncorrected rate on {c.n} test items is {c.naive:.2f}."
    )


def _stratified_sentence(
    s: Any, metric: str, label: str | None, strata_name: str | None
) -> str:
    lvl = f"{100 * s.confidence_level:g}%"
    subject = _capital(metric) + (f" of {label}" if label else "")
    design = _design_of(s)
    return _VOICES[design.family].stratified(s, subject, lvl, strata_name, design)


def _conditional_stratified(
    s: Any, subject: str, lvl: str, strata_name: str | None, design: Design
) -> str:
    """Describe a judge-conditional correction within strata, pooled by the judged mix."""
    return (
        f"{subject} is {s.estimate:.2f} ({lvl} CI {_fixed(s.ci.low, 2)}–"
        f"{_fixed(s.ci.high, 2)}), estimated within each of the {s.k} strata by the "
        f"judge-conditional estimator of {design.words} ({design.reference}) on "
        f"{s.m0 + s.m1} human-labelled items and pooled by the stratum mix of the judged "
        f"items ({_interval_name(s.method, None, plural=False)} pooled over strata); the "
        f"judge's uncorrected rate on {s.n} test items is {s.naive:.2f}."
    )


def _paper_stratified(
    s: Any, subject: str, lvl: str, strata_name: str | None, design: Design
) -> str:
    """Describe a Rogan–Gladen correction within strata, pooled by the stratum mix."""
    cs = [s.corrections[k] for k in s.strata]
    of = f" of {strata_name}" if strata_name else ""
    mix = (
        "the test set's stratum mix" if s.weights_source == "test" else "the given stratum weights"
    )
    return (
        f"{subject} is {s.estimate:.2f} ({lvl} CI {_fixed(s.ci.low, 2)}–{_fixed(s.ci.high, 2)}), "
        f"corrected within each of the {s.k} strata{of} for the judge's sensitivity "
        f"({_span([c.sensitivity for c in cs], 2)} across strata) and specificity "
        f"({_span([c.specificity for c in cs], 2)}) estimated on {s.m0 + s.m1} human-labelled "
        f"items, and pooled by {mix} ({design.words}; "
        f"{_interval_name(s.method, s.ci.n_resamples, plural=False)} pooled over strata; "
        f"{CITATION}); the judge's uncorrected rate on {s.n} test items is {s.naive:.2f}."
    )


def _paper_how(ev: Any, design: Design, sens: str, spec: str, noun: str) -> str:
    """How an evaluation's groups were corrected: for the judge's rates (within strata)."""
    if ev.strata:
        return (f"corrected within each stratum of {_strata_name(ev)} for the judge's "
                f"sensitivity and specificity in that stratum (over all strata, sensitivity "
                f"{sens} and specificity {spec} across {noun})")  # fmt: skip
    return f"corrected for the judge's sensitivity ({sens} across {noun}) and specificity ({spec})"


def _conditional_how(ev: Any, design: Design, sens: str, spec: str, noun: str) -> str:
    """How an evaluation's groups were corrected: by the judge-conditional estimator."""
    return (f"estimated by the judge-conditional estimator of {design.words} from how often "
            "the human agrees with each of the judge's verdicts")  # fmt: skip


def _evaluation_sentence(ev: Any, metric: str, ranking: Any) -> str:
    if len(ev) == 1:
        g = ev.groups[0]
        return _single_sentence(ev.corrections[g], metric, group_label(g), _strata_name(ev))
    design = _design_of(ev)
    rows = [_row(group_label(g), ev.corrections[g]) for g in ev.groups]
    lvl = f"{100 * ev.confidence_level:g}%"
    noun = "models" if ev.dim == "model" else f"groups of {', '.join(ev.by)}"
    per = "model" if ev.dim == "model" else "group"
    first = ev.corrections[ev.groups[0]]
    stratified = bool(ev.strata)
    sens, spec = (_span([getattr(r, k) for r in rows], 2) for k in ("sensitivity", "specificity"))
    letters = [v for g in ev.groups for v in getattr(ev.corrections[g], "letters", ())]
    how = (
        _alphabet_how(tuple(dict.fromkeys(letters)), design)
        if _kind(first) == "alphabet"
        else _jury_how(first) if _kind(first) == "jury"
        else _combined_how(first) if _kind(first) == "combined-jury"
        else score_how(ev) if _kind(first) == "score-correction"
        else _VOICES[design.family].how(ev, design, sens, spec, noun)
    )
    pooled = f", and pooled by each {per}'s test mix" if stratified else ""
    where = " pooled over strata" if stratified else ""
    found = [_item_summary(ev.corrections[g]) for g in ev.groups]
    items = [k for k in found if k is not None]
    if len(items) == len(found):  # repeated items: count items, say the rows
        labelled = (f"{_int_span([k[0] for k in items])} human-labelled items "
                    f"per {per} ({sum(k[0] for k in items)} in all, "
                    f"{sum(r.m0 + r.m1 for r in rows)} rows)")  # fmt: skip
        where += _repeats(True, [k[1] for k in items])
    else:
        labelled = (f"{_int_span([r.m0 + r.m1 for r in rows])} human-labelled items per {per} "
                    f"({sum(r.m0 + r.m1 for r in rows)} in all)")  # fmt: skip
    if _VOICES[design.family].names_design:  # inside its parentheses
        labelled = f"{labelled[:-1]}; {design.words})"
    return (
        f"{_capital(metric)} of each of the {len(rows)} {noun} is {how}, estimated on "
        f"{labelled}{pooled}, with {lvl} "
        f"{_interval_name(ev.method, first.ci.n_resamples, plural=True)}{where} "
        f"({PPI_CITATION if _kind(first) == 'score-correction' else _source(ev.method, design)})"
        f"{_highest(rows, lvl, per, ranking)}."
    )


def _highest(rows: list[_Row], lvl: str, per: str, ranking: Any) -> str:
    """Say which estimate is highest, whether its interval singles it out, and P(rank 1)."""
    pointed = [r for r in rows if shows_point(r.sensitivity, r.specificity)] or rows
    best = max(pointed, key=lambda r: r.estimate)
    overlap = sum(1 for r in rows if r is not best and r.high >= best.low)
    name = shown_label(best.label)
    tail = (
        f"; the highest is {name} at {best.estimate:.2f} ({lvl} CI "
        if not overlap
        else f"; the highest point estimate is {name}'s, {best.estimate:.2f} ({lvl} CI "
    ) + f"{_fixed(best.low, 2)}–{_fixed(best.high, 2)})" + (
        f", but its interval overlaps those of {overlap} other {per}"
        f"{'s' if overlap > 1 else ''}, so these data do not single it out"
        if overlap
        else ""
    )
    if ranking is not None and best.label in ranking.models:
        i = ranking.models.index(best.label)
        draws = (
            f"{ranking.undefined} of {ranking.reps} draws undefined (a judge no better than "
            "chance) and left out" if ranking.undefined else f"{ranking.reps} draws"
        )
        tail += (
            f", ranked first with probability {ranking.rank_probabilities[i, 0]:.2f} "
            f"({ranking_draws(ranking.method)}; {draws})"
        )
    return tail


def _single_sentence(r, metric, label, strata_name) -> str:
    if _kind(r) == "stratified":
        return _stratified_sentence(r, metric, label, strata_name)
    return _correction_sentence(r, metric, label)


def _strata_name(ev: Any) -> str | None:
    return ", ".join(ev.strata) if ev.strata else None


def methods_sentence(
    result: Any,
    *,
    metric: str = "accuracy",
    label: str | None = None,
    strata_name: str | None = None,
) -> str:
    """One sentence stating what was estimated, how, and on how many human labels.

    For example "Accuracy is 0.71 (95% CI 0.65–0.77), corrected for the judge's sensitivity
    0.90 and specificity 0.70 estimated on 200 human-labelled items (design 'by-human-label';
    adjusted-Wald interval; Lee et al., 2026); the judge's uncorrected rate on 1000 test items
    is 0.66."

    Parameters
    ----------
    result : Correction, StratifiedCorrection or Evaluation
        What to describe.
    metric : str, default "accuracy"
        Name of the rate ("accuracy", "win rate", ...).
    label : str, optional
        Name of the model a single result belongs to.
    strata_name : str, optional
        Name of the stratum covariate of a :class:`StratifiedCorrection`.

    Examples
    --------
    >>> import judgestats as js
    >>> res = js.correct(js.JudgedCounts(positive=600, n=1000),
    ...                  js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
    ...                  method="adjusted-wald", confidence_level=0.95)
    >>> print(js.report.methods_sentence(res, metric="win rate"))  # doctest: +NORMALIZE_WHITESPACE
    Win rate is 0.50 (95% CI 0.42–0.58), corrected for the judge's sensitivity 0.90 and specificity
    0.70 estimated on 400 human-labelled items (design 'by-human-label'; adjusted-Wald interval; Lee
    et al., 2026); the judge's uncorrected rate on 1000 test items is 0.60.
    """
    _kind(result)
    _check_text("metric", metric)
    if _kind(result) == "evaluation":
        return _evaluation_sentence(result, metric, result.ranking)
    return _single_sentence(result, metric, label, strata_name)


# ---------------------------------------------------------------------------- notes
def _conditional_notes(c: Any, who: str) -> list[str]:
    """List the notes of a judge-conditional correction (design check, empty judge classes)."""
    notes = []
    d = c.design_check
    if d is not None and not d.plausible:
        notes.append(
            f"{who}the calibration items' judge-positive rate ({d.calibration_rate:.2f}) differs "
            f"from the test items' ({d.test_rate:.2f}, p = {d.pvalue:.2g}): they do not look like "
            f"a random sample, and design={str(DEFAULT_DESIGN)!r} stays valid"
        )
    k = c.calibration
    for label, size in (("1", k.tp + k.fp), ("0", k.fn + k.tn)):
        if size == 0:
            notes.append(f"{who}no calibration item has judge label {label}")
    chance = _judge_sentence(c)
    if chance:  # the humans-only interval is no wider than the corrected one
        notes.append(who + chance)
    if c.ci.undefined_note():
        notes.append(who + c.ci.undefined_note())
    return notes


def _judge_sentence(c: Any) -> str | None:
    """Return :meth:`judgestats.chance.JudgeValue.sentence` of a correction, if it has one."""
    judge = getattr(c, "judge", None)
    return None if judge is None else judge.sentence()


def _weak_calibration(c: Any, who: str, advice: str) -> list[str]:
    """Return the weak-calibration note (under WEAK_CLASS_SIZE items of a class), if due.

    With repeated items the rule counts effective items (rows over the design effect of q̂1
    and q̂0), as ``correct()``'s warning does.
    """
    k = getattr(c, "clusters", None)
    sizes, what = (c.m1, c.m0), "human-labelled items"
    if isinstance(k, ClusterSummary):
        sizes, what = k.class_sizes[::-1], "effective human-labelled items"
    small = [f"{int(size)} {cls}" for size, cls in zip(sizes, ("positive", "negative"),
                                                        strict=True) if size < WEAK_CLASS_SIZE]
    if not small:
        return []
    return [
        f"{who}weak calibration: only {' and '.join(small)} {what} (fewer than "
        f"{WEAK_CLASS_SIZE} per class){advice}"
    ]


def _correction_notes(c: Any, who: str) -> list[str]:
    return _VOICES[_design_of(c).family].notes(c, who)


def _paper_notes(c: Any, who: str) -> list[str]:
    """List the notes of a Rogan–Gladen correction: clipping, weak calibration and judge."""
    notes = _clipped(c, who, "Rogan–Gladen", ": the judged rate falls outside the range the "
                     "estimated error rates allow (often too few calibration items)")  # fmt: skip
    # the WeakCalibrationWarning of correct(), once (its message is skipped below)
    fix = "" if getattr(c, "clusters", None) is not None else " (method='profile-map' does not)"
    advice = (f"; the interval may under-cover{fix}"
              if _may_under_cover(c.method, _design_of(c)) else "")  # fmt: skip
    paper = getattr(c, "paper_ci", None)
    if paper is None:
        notes += _weak_calibration(c, who, advice)
    else:  # method="auto" widened the paper's interval: information, not a warning (issue 38)
        notes.append(who + widened_note(c.chosen_by, f"{_fixed(paper.low, 2)}–"
                                                     f"{_fixed(paper.high, 2)}"))
    youden = c.sensitivity + c.specificity - 1
    chance = _judge_sentence(c)
    if chance:  # Correction.judge: the Youden interval reaches 0
        notes.append(who + chance)
    elif youden < WEAK_YOUDEN:
        notes.append(
            f"{who}weak judge: sensitivity + specificity - 1 = {youden:.2f}, so the correction "
            f"multiplies sampling errors by {1 / youden:.1f}"
            if youden > 0
            else f"{who}the judge is no better than chance on the calibration set"
        )
    s = c.label_shift
    if s.shifted:
        notes.append(
            f"{who}label-mix difference: the calibration set's human-positive rate "
            f"({s.calibration_rate:.2f}) differs from the corrected test rate "
            f"({s.test_rate:.2f}; z = {s.z:.1f}); the Rogan–Gladen correction stays valid, "
            "but estimators that assume equal mixes (calibration-only, difference) would not"
        )
    if c.ci.undefined_note():
        notes.append(who + c.ci.undefined_note())
    return notes


def _may_under_cover(method: str, design: Design) -> bool:
    """Whether a method may under-cover on a small calibration set.

    That is, whether its implementation has the weak-calibration rule of
    :func:`judgestats.correct` (:attr:`judgestats.intervals.IntervalMethod.weak_rule`); a
    method without an implementation of its own is not known to hold.
    """
    try:
        return implementation(design, method).weak_rule is not None
    except MethodError:
        return True


def _clipped(r: Any, who: str, what: str, why: str = "") -> list[str]:
    """Return the note of an estimate clipped to [0, 1] (``what``: its estimator), if it was."""
    if not r.clipped:
        return []
    return [f"{who}the {what} estimate {r.estimate_unclipped:.3f} lies outside [0, 1] and is "
            f"reported as {r.estimate:g}{why}"]  # fmt: skip


def _stratified_notes(s: Any, who: str) -> list[str]:
    notes = _clipped(s, who, "pooled")
    clipped = [k for k in s.strata if s.corrections[k].clipped]
    if clipped:
        notes.append(
            f"{who}stratum estimates outside [0, 1] were clipped in their own rows "
            f"({', '.join(repr(k) for k in clipped)}); the pooled estimate uses the unclipped "
            "values"
        )
    weak = [k for k in s.strata if min(s.corrections[k].m0, s.corrections[k].m1) < WEAK_CLASS_SIZE]
    if weak and _VOICES[_design_of(s).family].weak_classes:
        which = ", ".join(repr(k) for k in weak)
        which = f"stratum {which} has" if len(weak) == 1 else f"strata {which} have"
        notes.append(
            f"{who}weak calibration: {which} fewer than {WEAK_CLASS_SIZE} human-labelled items "
            "of a class"
        )
    if s.merged:
        moves = ", ".join(f"{a!r} into {b!r}" for a, b in s.merged.items())
        notes.append(f"{who}strata were merged before correcting: {moves}")
    d = s.diagnostics
    if d is not None and s.k > 1 and d.joint_test.pvalue < 0.05:
        u = d.unstratified
        unstrat = "" if u is None else f"; the unstratified estimate would be {u.estimate:.3f}"
        notes.append(
            f"{who}the judge's error rates differ across strata (likelihood-ratio p = "
            f"{d.joint_test.pvalue:.2g}), so correcting within strata matters{unstrat}"
        )
    if s.ci.undefined_note():
        notes.append(who + s.ci.undefined_note())
    return notes


def _alphabet_notes(c: Any, who: str) -> list[str]:
    """List the notes of a judge alphabet's rate: weak calibration, undefined draws."""
    notes = _weak_calibration(c, who, "") if _VOICES[_design_of(c).family].weak_classes else []
    if c.ci.undefined_note():
        notes.append(who + c.ci.undefined_note())
    return notes


def _notes_of(r: Any, who: str) -> list[str]:
    if _kind(r) == "stratified":
        return _stratified_notes(r, who)
    if _kind(r) == "alphabet":
        return _alphabet_notes(r, who)
    if _kind(r) == "jury":
        return _alphabet_notes(r, who) + ([f"{who}fallback: {r.fallback}"] if r.fallback else [])
    if _kind(r) == "score-correction":
        return score_notes(r, who)
    if _kind(r) == "combined-jury":  # its letters' fit's notes, and the fallback it took
        notes = _notes_of(r.inner, who)
        said = not r.fallback or any(r.fallback in n for n in notes)
        return notes if said else [*notes, f"{who}fallback: {r.fallback}"]
    return _correction_notes(r, who)


def report_notes(result: Any) -> list[str]:
    """List the warnings in force for a result, one sentence each (empty if there are none).

    Clipping, weak calibration (see :data:`WEAK_CLASS_SIZE`, :data:`WEAK_YOUDEN`), a
    calibration label mix that differs from the corrected test rate, merged or heterogeneous
    strata, undefined bootstrap resamples, and for an :class:`Evaluation` every other
    warning issued while correcting a group. Each note of a group starts with its label; a
    note that :data:`~judgestats.gathered_notes.GATHER_AT` or more groups share is written
    once, naming them ("models a, b, c, d, … (12): weak calibration: only 8–22 positive …",
    its numbers spanning the groups' values; :func:`~judgestats.gathered_notes.gather_notes`).

    Parameters
    ----------
    result : Correction, StratifiedCorrection or Evaluation
        The result whose notes to list.

    Returns
    -------
    list of str
        One sentence per note, in the order the report prints them.

    Raises
    ------
    ArgumentTypeError
        A result that is none of the kinds a report renders.

    See Also
    --------
    report : The report, whose notes these are.

    Examples
    --------
    A judged rate below what the judge's false-positive rate allows: the estimate is clipped to
    0, and the notes say so (the warning it raised is silenced here to show the notes):

    >>> import warnings
    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", js.ClippedEstimateWarning)
    ...     res = js.correct(js.JudgedCounts(positive=250, n=1000), cal,
    ...                      method="adjusted-wald", confidence_level=0.95)
    >>> for note in js.report.report_notes(res):
    ...     print(note)  # doctest: +NORMALIZE_WHITESPACE
    the Rogan–Gladen estimate -0.083 lies outside [0, 1] and is reported as 0: the judged rate
    falls outside the range the estimated error rates allow (often too few calibration items)
    label-mix difference: the calibration set's human-positive rate (0.50) differs from the
    corrected test rate (-0.08; z = -8.6); the Rogan–Gladen correction stays valid, but
    estimators that assume equal mixes (calibration-only, difference) would not
    >>> js.report.report_notes(js.correct(js.JudgedCounts(positive=600, n=1000), cal,
    ...                                   method="adjusted-wald", confidence_level=0.95))
    []
    """
    _kind(result)
    if not _kind(result) == "evaluation":
        return _notes_of(result, "")

    per_group: list[tuple[str, str]] = []  # (label, note): gathered below
    for g in result.groups:
        label = shown_label(group_label(g))
        per_group += [(label, note) for note in _notes_of(result.corrections[g], "")]
        per_group += [
            (label, msg) for cat, msg in result.warnings.get(g, ()) if cat not in _SKIPPED_WARNINGS
        ]
    per_group += [(shown_label(group_label(g)), f"not corrected ({why})")
                  for g, why in getattr(result, "marked", {}).items()]  # fmt: skip
    notes = gather_notes(per_group, noun="models" if result.dim == "model" else "groups")
    if getattr(result, "ranking_error", None):
        notes.append(f"no ranking (P(rank 1)): {result.ranking_error}")
    return notes


# ---------------------------------------------------------------------------- voices
@dataclass(frozen=True, slots=True)
class _Voice:
    """How a report speaks of the corrections of one estimator family (:attr:`Design.family`).

    Attributes
    ----------
    sentence, stratified, how : callable
        The methods sentence of a correction and of a stratified correction, and how an
        evaluation's groups were corrected.
    notes : callable
        A correction's notes.
    names_design : bool
        The sentence names the design in its closing parentheses (the other family names it
        beside its estimator).
    weak_classes : bool
        The weak-calibration note applies (fewer than :data:`WEAK_CLASS_SIZE` human-labelled
        items of a class): the estimator rests on the judge's rates per human class.
    alphabet : str
        How a judge alphabet's rate is fitted (``{estimator}``, ``{words}``: the design's).
    own_interval : str or None
        The interval method the paper gives for the family, cited as the paper.
    """

    sentence: Callable[..., str]
    stratified: Callable[..., str]
    how: Callable[..., str]
    notes: Callable[..., list[str]]
    names_design: bool
    weak_classes: bool
    alphabet: str
    own_interval: str | None = None


_VOICES = {
    RoganGladenDesign.family: _Voice(
        _paper_sentence, _paper_stratified, _paper_how, _paper_notes, names_design=True,
        weak_classes=True, alphabet="corrected by joint maximum likelihood",
        own_interval="adjusted-wald",
    ),
    JudgeConditionalDesign.family: _Voice(
        _conditional_sentence, _conditional_stratified, _conditional_how, _conditional_notes,
        names_design=False, weak_classes=False,
        alphabet="estimated by the {estimator} estimator ({words})",
    ),
}  # fmt: skip
