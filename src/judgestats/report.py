r"""Reports of corrected rates: a table, one methods sentence, the warnings in force, a figure.

The paper's point is *reporting*: a corrected rate is useful once it is written down with its
interval, the judge's estimated error rates and the calibration sizes they rest on, and the
caveats that apply. :func:`report` renders a :class:`~judgestats.Correction`, a
:class:`~judgestats.StratifiedCorrection` or an :class:`~judgestats.Evaluation` as

* ``"markdown"``: a methods paragraph, a pipe table and a list of notes;
* ``"latex"``: the paragraph and a ``booktabs`` table (``\usepackage{booktabs}``) with the
  notes below it;
* ``"html"``: a standalone page with the paragraph, the table, the notes and the leaderboard
  figure embedded as a PNG (matplotlib, imported here only).

The table has one row per model (group), stratum or result: n, the naive judged rate, the
corrected rate and its interval, the judge's sensitivity and specificity and the calibration
sizes m0 and m1. The notes state the warnings in force: clipped estimates, weak calibration
(fewer than :data:`WEAK_CLASS_SIZE` human-labelled items of a class, or a judge with
sensitivity + specificity − 1 below :data:`WEAK_YOUDEN`), a calibration label mix that differs
from the corrected test rate, merged or heterogeneous strata, and any warning issued while
correcting.
"""

from __future__ import annotations

import base64
import html
import io
import math
import textwrap
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._validation import (
    ArgumentTypeError,
    check_choice,
    check_positive_int,
)
from .designs import DEFAULT_DESIGN, ESTIMATOR, REFERENCE
from .intervals import MIN_PER_CLASS, get_method, interval_methods

__all__ = [
    "CITATION",
    "FORMATS",
    "WEAK_CLASS_SIZE",
    "WEAK_YOUDEN",
    "Reportable",
    "methods_sentence",
    "plot_leaderboard",
    "report",
    "report_notes",
]

#: Output formats of :func:`report`.
FORMATS: tuple[str, ...] = ("markdown", "latex", "html")

#: The paper the correction and the adjusted-Wald interval follow.
CITATION = "Lee et al., 2026"

#: Fewer human-labelled items of a class than this is reported as weak calibration: the rule
#: of ``correct()``'s WeakCalibrationWarning (:data:`judgestats.correct.MIN_PER_CLASS`).
WEAK_CLASS_SIZE = MIN_PER_CLASS

#: A judge with sensitivity + specificity − 1 below this is reported as weak: the correction
#: divides by it, multiplying every sampling error by more than 1 / 0.3 ≈ 3.3.
WEAK_YOUDEN = 0.3

_METHOD_NAMES = {
    "adjusted-wald": "adjusted-Wald",
    "wald": "Wald (delta-method)",
    "bootstrap": "parametric-bootstrap percentile",
    "bayes": "Bayesian credible",
    "profile-likelihood": "profile-likelihood",
    "profile-likelihood-t": "small-calibration (t cut-off) profile-likelihood",
    "profile-map": "profile-likelihood (t cut-off, widened to hold the posterior mode)",
}


def _source(method: str, design: str = DEFAULT_DESIGN) -> str:
    """Cite a method's interval: the paper for its own, else the registry entry's reference."""
    if method == "adjusted-wald" and design == DEFAULT_DESIGN:
        return CITATION
    if method in interval_methods(design):
        return get_method(method, design).reference or CITATION
    return CITATION


#: What a ranking's draws are, by its method.
_DRAWS = {
    "bootstrap": "a joint parametric bootstrap of the Rogan–Gladen estimates",
    "bayes": "draws from the exact joint posterior",
}
#: warnings the report states in its own notes (once per group, not twice)
_SKIPPED_WARNINGS = ("ClippedEstimateWarning", "ProjectedEstimateWarning", "WeakCalibrationWarning")


# ============================================================================ content
@dataclass
class _Row:
    label: str
    n: int
    naive: float
    estimate: float
    low: float
    high: float
    sensitivity: float
    specificity: float
    m0: int
    m1: int
    p_rank1: float | None = None
    reference: float | None = None  # a known true rate (the bundled examples' human rate)
    clipped: bool = False
    warnings: tuple[str, ...] = ()  # short tags of the row's notes (NOTE_TAGS)
    pooled: bool = False  # a stratified result's pooled values
    total: bool = False  # the pooled row below a StratifiedCorrection's strata


@dataclass
class _Content:
    title: str
    sentence: str
    label_header: str | None
    level: float
    rows: list[_Row]
    notes: list[str] = field(default_factory=list)
    ranked: bool = False
    estimator: str = "Rogan–Gladen"
    reference_name: str | None = None


class Reportable:
    """Mixin: ``report()`` renders the result with :func:`judgestats.report.report`."""

    __slots__ = ()

    def report(self, format: str = "markdown", **kwargs: Any) -> str:
        """Table plus methods sentence (``"markdown"``, ``"latex"`` or ``"html"``).

        See :func:`judgestats.report.report` for the keywords.
        """
        return report(self, format=format, **kwargs)


def group_label(group: Any) -> str:
    """Text label of a group: the value, or values joined by " / " for several columns."""
    return " / ".join(str(v) for v in group) if isinstance(group, tuple) else str(group)


#: the result kinds a report renders (each result class sets ``kind``)
_KINDS = ("correction", "stratified", "evaluation", "alphabet")


def _kind(result: Any) -> str:
    """``result.kind`` for the results a report renders; a clear error for anything else."""
    kind = getattr(type(result), "kind", None)
    if kind not in _KINDS:
        raise ArgumentTypeError(
            "result must be a Correction, StratifiedCorrection, AlphabetCorrection or "
            "Evaluation (or a Bayesian result of the same shape), got "
            f"{type(result).__name__}"
        )
    return kind


def _estimator_of(result: Any) -> str:
    """Name the point estimate shown in the result's 'corrected' column (its method's)."""
    if _kind(result) == "evaluation":
        found = {_estimator_of(result.corrections[g]) for g in result.groups}
        return " / ".join(sorted(found))
    if _kind(result) == "stratified":  # per stratum, pooled by the mix
        return ESTIMATOR[getattr(result, "design", DEFAULT_DESIGN)]
    return result.estimator


def _fixed(x: float, d: int) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def _span(values: list[float], d: int) -> str:
    lo, hi = _fixed(min(values), d), _fixed(max(values), d)
    return lo if lo == hi else f"{lo}–{hi}"


def _int_span(values: list[int]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _interval_name(method: str, n_resamples: int | None, *, plural: bool) -> str:
    name = _METHOD_NAMES.get(method, method)
    noun = "intervals" if plural else "interval"
    extra = f", {n_resamples} resamples" if method == "bootstrap" and n_resamples else ""
    return f"{name} {noun}{extra}"


def _row_of_correction(label: str, c: Any) -> _Row:
    return _Row(
        label,
        int(c.n),
        float(c.naive),
        c.estimate,
        c.ci.low,
        c.ci.high,
        math.nan if c.sensitivity is None else float(c.sensitivity),
        math.nan if c.specificity is None else float(c.specificity),
        int(c.m0),
        int(c.m1),
    )


def _pooled_counts(s: Any) -> dict[str, int]:
    cs = [s.corrections[k].calibration for k in s.strata]
    return {f: int(sum(getattr(c, f) for c in cs)) for f in ("tp", "fn", "tn", "fp")}


def _row_of_stratified(label: str, s: Any) -> _Row:
    t = _pooled_counts(s)
    return _Row(
        label,
        s.n,
        float(s.naive),
        s.estimate,
        s.ci.low,
        s.ci.high,
        t["tp"] / (t["tp"] + t["fn"]),
        t["tn"] / (t["tn"] + t["fp"]),
        s.m0,
        s.m1,
        pooled=True,
    )


def _row(label: str, r: Any) -> _Row:
    row = _row_of_stratified(label, r) if _kind(r) == "stratified" else _row_of_correction(label, r)
    row.clipped = bool(r.clipped)
    row.warnings = tuple(dict.fromkeys(_tag(note) for note in _notes_of(r, "")))
    return row


#: The short tag of each kind of note (a table's ``warning`` column), by how the note starts.
NOTE_TAGS = {
    "the Rogan–Gladen estimate": "clipped",
    "the pooled estimate": "clipped",
    "stratum estimates outside": "clipped stratum",
    "weak calibration": "weak calibration",
    "weak judge": "weak judge",
    "the judge is no better than chance": "judge at chance",
    "label-mix difference": "label shift",
    "the calibration items' judge-positive rate": "design check",
    "no calibration item has judge label": "empty judge class",
    "strata were merged": "merged strata",
    "the judge's error rates differ across strata": "strata differ",
}


#: Columns of text (left-aligned); the others hold numbers.
_TEXT_COLUMNS = ("label", "clipped", "warning")


def _tag(note: str) -> str:
    return next((tag for start, tag in NOTE_TAGS.items() if note.startswith(start)),
                "undefined draws")  # fmt: skip


# ---------------------------------------------------------------------------- sentences
def _alphabet_how(letters: tuple, design: str = DEFAULT_DESIGN) -> str:
    shown = ", ".join(str(v) for v in letters[:8]) + (", ..." if len(letters) > 8 else "")
    fit = ("corrected by joint maximum likelihood" if design == DEFAULT_DESIGN else
           f"estimated by the {ESTIMATOR[design]} estimator (design {design!r})")  # fmt: skip
    return f"{fit} over every letter of the judge's alphabet ({len(letters)} letters: {shown})"


def _alphabet_sentence(c: Any, subject: str, lvl: str) -> str:
    """Describe a judge alphabet's rate: every letter used, on how many labels, which interval."""
    naive = "" if math.isnan(c.naive) else (
        f"; the judge's uncorrected rate on {c.n} test items is {c.naive:.2f}"
    )
    return (
        f"{subject} is {c.estimate:.2f} ({lvl} CI {_fixed(c.ci.low, 2)}–{_fixed(c.ci.high, 2)}), "
        f"{_alphabet_how(c.letters, c.design)} on {c.m0 + c.m1} human-labelled items "
        f"({_interval_name(c.method, c.ci.n_resamples, plural=False)}; "
        f"{_source(c.method, c.design)}) on {c.n} test items{naive}."
    )


def _correction_sentence(c: Any, metric: str, label: str | None) -> str:
    lvl = f"{100 * c.confidence_level:g}%"
    subject = _capital(metric) + (f" of {label}" if label else "")
    if _kind(c) == "alphabet":
        return _alphabet_sentence(c, subject, lvl)
    if getattr(c, "design", DEFAULT_DESIGN) != DEFAULT_DESIGN:
        return _design_sentence(c, subject, lvl)
    return (
        f"{subject} is {c.estimate:.2f} ({lvl} CI {_fixed(c.ci.low, 2)}–{_fixed(c.ci.high, 2)}), "
        f"corrected for the judge's sensitivity {c.sensitivity:.2f} and specificity "
        f"{c.specificity:.2f} estimated on {c.m0 + c.m1} human-labelled items "
        f"({_interval_name(c.method, c.ci.n_resamples, plural=False)}; {_source(c.method)}); the "
        f"judge's uncorrected rate on {c.n} test items is {c.naive:.2f}."
    )


def _design_sentence(c: Any, subject: str, lvl: str) -> str:
    """Describe a random or by-judge-label correction: its estimator and its source."""
    k = c.calibration
    where = (
        "a random sample of the evaluated items, so the judge's labels of all "
        f"{c.n + k.m} items estimate how often it says 1"
        if c.design == "random"
        else f"sampled within the judge's labels ({k.tp + k.fp} judged 1, {k.fn + k.tn} "
        "judged 0)"
    )
    return (
        f"{subject} is {c.estimate:.2f} ({lvl} CI {_fixed(c.ci.low, 2)}–{_fixed(c.ci.high, 2)}), "
        f"estimated from how often the human agrees with each of the judge's verdicts on "
        f"{k.m} human-labelled items, {where} (judge-conditional estimator, design "
        f"{c.design!r}: {REFERENCE[c.design]}; "
        f"{_interval_name(c.method, c.ci.n_resamples, plural=False)}); the judge's "
        f"uncorrected rate on {c.n} test items is {c.naive:.2f}."
    )


def _stratified_sentence(
    s: Any, metric: str, label: str | None, strata_name: str | None
) -> str:
    lvl = f"{100 * s.confidence_level:g}%"
    subject = _capital(metric) + (f" of {label}" if label else "")
    cs = [s.corrections[k] for k in s.strata]
    if getattr(s, "design", DEFAULT_DESIGN) != DEFAULT_DESIGN:
        return (
            f"{subject} is {s.estimate:.2f} ({lvl} CI {_fixed(s.ci.low, 2)}–"
            f"{_fixed(s.ci.high, 2)}), estimated within each of the {s.k} strata by the "
            f"judge-conditional estimator of design {s.design!r} ({REFERENCE[s.design]}) on "
            f"{s.m0 + s.m1} human-labelled items and pooled by the stratum mix of the judged "
            f"items ({_interval_name(s.method, None, plural=False)} pooled over strata); the "
            f"judge's uncorrected rate on {s.n} test items is {s.naive:.2f}."
        )
    of = f" of {strata_name}" if strata_name else ""
    mix = (
        "the test set's stratum mix" if s.weights_source == "test" else "the given stratum weights"
    )
    return (
        f"{subject} is {s.estimate:.2f} ({lvl} CI {_fixed(s.ci.low, 2)}–{_fixed(s.ci.high, 2)}), "
        f"corrected within each of the {s.k} strata{of} for the judge's sensitivity "
        f"({_span([c.sensitivity for c in cs], 2)} across strata) and specificity "
        f"({_span([c.specificity for c in cs], 2)}) estimated on {s.m0 + s.m1} human-labelled "
        f"items, and pooled by {mix} "
        f"({_interval_name(s.method, s.ci.n_resamples, plural=False)} pooled over strata; "
        f"{CITATION}); the judge's uncorrected rate on {s.n} test items is {s.naive:.2f}."
    )


def _evaluation_sentence(ev: Any, metric: str, ranking: Any) -> str:

    if len(ev) == 1:
        g = ev.groups[0]
        return _single_sentence(ev.corrections[g], metric, group_label(g), _strata_name(ev))
    rows = [_row(group_label(g), ev.corrections[g]) for g in ev.groups]
    lvl = f"{100 * ev.confidence_level:g}%"
    noun = "models" if ev.dim == "model" else f"groups of {', '.join(ev.by)}"
    per = "model" if ev.dim == "model" else "group"
    first = ev.corrections[ev.groups[0]]
    stratified = bool(ev.strata)
    sens, spec = (_span([getattr(r, k) for r in rows], 2) for k in ("sensitivity", "specificity"))
    letters = [v for g in ev.groups for v in getattr(ev.corrections[g], "letters", ())]
    how = (
        _alphabet_how(tuple(dict.fromkeys(letters)), ev.design)
        if _kind(first) == "alphabet"
        else f"estimated by the judge-conditional estimator of design {ev.design!r} from how often "
        "the human agrees with each of the judge's verdicts"
        if getattr(ev, "design", DEFAULT_DESIGN) != DEFAULT_DESIGN
        else f"corrected within each stratum of {_strata_name(ev)} for the judge's sensitivity and "
        f"specificity in that stratum (over all strata, sensitivity {sens} and specificity "
        f"{spec} across {noun})"
        if stratified
        else f"corrected for the judge's sensitivity ({sens} across {noun}) and specificity "
        f"({spec})"
    )
    best = max(rows, key=lambda r: r.estimate)
    overlap = sum(1 for r in rows if r is not best and r.high >= best.low)
    tail = (
        f"; the highest is {best.label} at {best.estimate:.2f} ({lvl} CI "
        if not overlap
        else f"; the highest point estimate is {best.label}'s, {best.estimate:.2f} ({lvl} CI "
    ) + f"{_fixed(best.low, 2)}–{_fixed(best.high, 2)})" + (
        f", but its interval overlaps those of {overlap} other {per}"
        f"{'s' if overlap > 1 else ''}, so these data do not single it out"
        if overlap
        else ""
    )
    if ranking is not None and best.label in ranking.models:
        i = ranking.models.index(best.label)
        basis = _DRAWS.get(ranking.method, ranking.method)
        draws = (
            f"{ranking.undefined} of {ranking.reps} draws undefined (a judge no better than "
            "chance) and left out" if ranking.undefined else f"{ranking.reps} draws"
        )
        tail += (
            f", ranked first with probability {ranking.rank_probabilities[i, 0]:.2f} "
            f"({basis}; {draws})"
        )
    pooled = f", and pooled by each {per}'s test mix" if stratified else ""
    where = " pooled over strata" if stratified else ""
    return (
        f"{_capital(metric)} of each of the {len(rows)} {noun} is {how}, estimated on "
        f"{_int_span([r.m0 + r.m1 for r in rows])} human-labelled items per {per} "
        f"({sum(r.m0 + r.m1 for r in rows)} in all){pooled}, with {lvl} "
        f"{_interval_name(ev.method, first.ci.n_resamples, plural=True)}{where} "
        f"({_source(ev.method, getattr(ev, 'design', DEFAULT_DESIGN))}){tail}."
    )


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
    0.90 and specificity 0.70 estimated on 200 human-labelled items (adjusted-Wald interval;
    Lee et al., 2026); the judge's uncorrected rate on 1000 test items is 0.66."

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
    """
    _kind(result)
    _check_text("metric", metric)
    if _kind(result) == "evaluation":
        return _evaluation_sentence(result, metric, result.ranking)
    return _single_sentence(result, metric, label, strata_name)


# ---------------------------------------------------------------------------- notes
def _design_notes(c: Any, who: str) -> list[str]:
    """List the notes of a random or by-judge-label correction (design check, empty cells)."""
    notes = []
    d = c.design_check
    if d is not None and not d.plausible:
        notes.append(
            f"{who}the calibration items' judge-positive rate ({d.calibration_rate:.2f}) differs "
            f"from the test items' ({d.test_rate:.2f}, p = {d.pvalue:.2g}): they do not look like "
            "a random sample, and design='by-human-label' stays valid"
        )
    k = c.calibration
    for label, size in (("1", k.tp + k.fp), ("0", k.fn + k.tn)):
        if size == 0:
            notes.append(f"{who}no calibration item has judge label {label}")
    if c.ci.undefined_note():
        notes.append(who + c.ci.undefined_note())
    return notes


def _weak_calibration(c: Any, who: str, advice: str) -> list[str]:
    """Return the weak-calibration note (under WEAK_CLASS_SIZE items of a class), if due."""
    small = [f"{size} {cls}" for size, cls in ((c.m1, "positive"), (c.m0, "negative"))
             if size < WEAK_CLASS_SIZE]  # fmt: skip
    if not small:
        return []
    return [
        f"{who}weak calibration: only {' and '.join(small)} human-labelled items (fewer than "
        f"{WEAK_CLASS_SIZE} per class){advice}"
    ]


def _correction_notes(c: Any, who: str) -> list[str]:
    if getattr(c, "design", DEFAULT_DESIGN) != DEFAULT_DESIGN:
        return _design_notes(c, who)
    notes = []
    if c.clipped:
        notes.append(
            f"{who}the Rogan–Gladen estimate {c.estimate_unclipped:.3f} lies outside [0, 1] and "
            f"is reported as {c.estimate:g}: the judged rate falls outside the range the "
            "estimated error rates allow (often too few calibration items)"
        )
    # the WeakCalibrationWarning of correct(), once (its message is skipped below)
    safe = c.method in ("profile-map", "profile-likelihood-t", "bayes")
    advice = "" if safe else "; the interval may under-cover (method='profile-map' does not)"
    notes += _weak_calibration(c, who, advice)
    youden = c.sensitivity + c.specificity - 1
    if youden < WEAK_YOUDEN:
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


def _stratified_notes(s: Any, who: str) -> list[str]:
    notes = []
    if s.clipped:
        notes.append(
            f"{who}the pooled estimate {s.estimate_unclipped:.3f} lies outside [0, 1] and is "
            f"reported as {s.estimate:g}"
        )
    clipped = [k for k in s.strata if s.corrections[k].clipped]
    if clipped:
        notes.append(
            f"{who}stratum estimates outside [0, 1] were clipped in their own rows "
            f"({', '.join(repr(k) for k in clipped)}); the pooled estimate uses the unclipped "
            "values"
        )
    weak = [k for k in s.strata if min(s.corrections[k].m0, s.corrections[k].m1) < WEAK_CLASS_SIZE]
    if weak and getattr(s, "design", DEFAULT_DESIGN) == DEFAULT_DESIGN:
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
    notes = _weak_calibration(c, who, "") if c.design == DEFAULT_DESIGN else []
    if c.ci.undefined_note():
        notes.append(who + c.ci.undefined_note())
    return notes


def _notes_of(r: Any, who: str) -> list[str]:
    if _kind(r) == "stratified":
        return _stratified_notes(r, who)
    if _kind(r) == "alphabet":
        return _alphabet_notes(r, who)
    return _correction_notes(r, who)


def report_notes(result: Any) -> list[str]:
    """List the warnings in force for a result, one sentence each (empty if there are none).

    Clipping, weak calibration (see :data:`WEAK_CLASS_SIZE`, :data:`WEAK_YOUDEN`), a
    calibration label mix that differs from the corrected test rate, merged or heterogeneous
    strata, undefined bootstrap resamples, and for an :class:`Evaluation` every other
    warning issued while correcting a group. Each note of a group starts with its label.
    """
    _kind(result)
    if not _kind(result) == "evaluation":
        return _notes_of(result, "")

    notes = []
    for g in result.groups:
        who = f"{group_label(g)}: "
        notes += _notes_of(result.corrections[g], who)
        notes += [
            f"{who}{msg}" for cat, msg in result.warnings.get(g, ()) if cat not in _SKIPPED_WARNINGS
        ]
    notes += [f"{group_label(g)}: not corrected ({why})"
              for g, why in getattr(result, "marked", {}).items()]  # fmt: skip
    return notes


# ---------------------------------------------------------------------------- assembly
def _check_text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ArgumentTypeError(f"{name} must be a non-empty string, got {value!r}")
    return value


def _content(
    result, *, metric, title, label, strata_name, sort, reference=None, reference_name=None
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
        sentence=methods_sentence(result, metric=metric, label=label, strata_name=strata_name),
        label_header=header,
        level=level,
        rows=rows,
        notes=report_notes(result),
        ranked=ranking is not None,
        estimator=_estimator_of(result),
        reference_name=_with_reference(rows, reference, reference_name),
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


def _cells(c: _Content, d: int, dash: str) -> tuple[list[str], list[list[str]]]:
    """Header keys and the formatted cells of every row (``dash`` joins interval bounds)."""
    keys = (
        (["label"] if c.label_header else [])
        + [
            "n",
            "naive",
            "corrected",
            "ci",
            "sensitivity",
            "specificity",
            "m0",
            "m1",
        ]
        + (["p_rank1"] if c.ranked else [])
        + (["reference"] if c.reference_name else [])
        + (["clipped"] if any(r.clipped for r in c.rows) else [])
        + (["warning"] if any(r.warnings for r in c.rows) else [])
    )
    # a judge alphabet has no sensitivity/specificity (nor, for scores, a judged rate)
    empty = [k for k in ("naive", "sensitivity", "specificity")
             if all(math.isnan(getattr(r, k)) for r in c.rows)]  # fmt: skip
    keys = [k for k in keys if k not in empty]
    out = []
    for r in c.rows:
        values = {
            "label": r.label,
            "n": str(r.n),
            "naive": _fixed(r.naive, d),
            "corrected": _fixed(r.estimate, d),
            "ci": f"{_fixed(r.low, d)}{dash}{_fixed(r.high, d)}",
            "sensitivity": _fixed(r.sensitivity, d),
            "specificity": _fixed(r.specificity, d),
            "m0": str(r.m0),
            "m1": str(r.m1),
            "p_rank1": "" if r.p_rank1 is None else _fixed(r.p_rank1, d),
            "reference": "" if r.reference is None else _fixed(r.reference, d),
            "clipped": "yes" if r.clipped else "",
            "warning": "; ".join(r.warnings),
        }
        out.append([values[k] for k in keys])
    return keys, out


def _level_text(level: float) -> str:
    return f"{100 * level:g}%"


# ---------------------------------------------------------------------------- markdown
def _md_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _column_names(c: _Content) -> dict[str, str]:
    """Header text of each table column (shared by the Markdown and HTML tables)."""
    return {
        "label": c.label_header or "",
        "n": "n",
        "naive": "naive",
        "corrected": "corrected",
        "ci": f"{_level_text(c.level)} CI",
        "sensitivity": "sensitivity",
        "specificity": "specificity",
        "m0": "m0",
        "m1": "m1",
        "p_rank1": "P(rank 1)",
        "reference": c.reference_name or "",
        "clipped": "clipped",
        "warning": "warning",
    }


def _markdown(c: _Content, d: int) -> str:
    names = _column_names(c)
    keys, cells = _cells(c, d, "–")
    lines = [f"## {_md_escape(c.title)}", "", _md_escape(c.sentence), ""]
    lines.append("| " + " | ".join(names[k] for k in keys) + " |")
    lines.append("|" + "|".join(":---" if k in _TEXT_COLUMNS else "---:" for k in keys) + "|")
    lines += ["| " + " | ".join(_md_escape(v) for v in row) + " |" for row in cells]
    naive = "naive = judged rate; " if "naive" in keys else ""
    rates = ("sensitivity and specificity of the judge on " if "sensitivity" in keys else "")
    lines += [
        "",
        f"Columns: n test items; {naive}corrected = {c.estimator} estimate; {rates}m1 "
        "human-positive and m0 human-negative calibration items.",
    ]
    if c.notes:
        lines += ["", "**Notes**", ""] + [f"- {_md_escape(n)}" for n in c.notes]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- latex
_TEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "–": "--",
    "−": "$-$",
}


_TEX_MATH = {
    "θ": r"\theta", "π": r"\pi", "κ": r"\kappa", "Δ": r"\Delta", "χ": r"\chi", "ν": r"\nu",
    "α": r"\alpha", "≤": r"\le", "≥": r"\ge", "×": r"\times", "·": r"\cdot", "∞": r"\infty",
    "≈": r"\approx", "→": r"\to", "√": r"\surd",
}  # fmt: skip
_TEX_ACCENT = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0303": "~", "\u0302": "^"}


def _tex(text: str) -> str:
    """Escape text for pdflatex: specials, Greek and maths symbols, accents and hats (p̂).

    Anything else outside ASCII (CJK names, say) is kept as it is and needs xelatex/lualatex.
    """
    import unicodedata

    chars = unicodedata.normalize("NFD", text)
    out, i = [], 0
    while i < len(chars):
        ch = chars[i]
        nxt = chars[i + 1] if i + 1 < len(chars) else ""
        base = _TEX_MATH.get(ch, ch if ch.isascii() and ch.isalpha() else None)
        if nxt == "\u0302" and base is not None:  # a hat: θ̂, p̂, q̂0
            out.append(f"$\\hat{{{base}}}$")
            i += 2
            continue
        if nxt in _TEX_ACCENT and ch.isascii() and ch.isalpha():
            out.append(f"\\{_TEX_ACCENT[nxt]}{{{ch}}}")
            i += 2
            continue
        out.append(_TEX[ch] if ch in _TEX else f"${_TEX_MATH[ch]}$" if ch in _TEX_MATH else ch)
        i += 1
    return "".join(out)


def _latex(c: _Content, d: int) -> str:
    from . import __version__

    names = {
        "label": _tex(_capital(c.label_header or "")),
        "n": "$n$",
        "naive": r"Naive $\hat{p}$",
        "corrected": r"Corrected $\hat{\theta}$",
        "ci": f"{_tex(_level_text(c.level))} CI",
        "sensitivity": r"Sens.\ $\hat{q}_1$",
        "specificity": r"Spec.\ $\hat{q}_0$",
        "m0": "$m_0$",
        "m1": "$m_1$",
        "p_rank1": r"$P(\text{rank } 1)$",
        "reference": _tex(c.reference_name or ""),
        "clipped": "Clipped",
        "warning": "Warning",
    }
    keys, cells = _cells(c, d, "–")
    spec = "".join("l" if k in _TEXT_COLUMNS else "r" for k in keys)
    lines = [
        f"% judgestats {__version__} report; needs \\usepackage{{booktabs}} (and amsmath for "
        "P(rank 1))",
        _tex(c.sentence),
        "",
        r"\begin{table}[ht]",
        r"\centering",
        f"\\caption{{{_tex(c.title)}}}",
        f"\\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(names[k] for k in keys) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(_tex(v) for v in row) + r" \\" for row in cells]
    lines += [r"\bottomrule", r"\end{tabular}"]
    if c.notes:
        lines += [
            r"\par\smallskip",
            r"{\footnotesize Notes: "
            + " ".join(_tex(n if n.endswith(".") else n + ".") for n in c.notes)
            + r"\par}",
        ]
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- html
_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2em auto;
       max-width: 60em; color: #222; line-height: 1.45; }
p.methods { font-size: 1.05em; }
table.judgestats { border-collapse: collapse; margin: 1em 0; font-variant-numeric: tabular-nums; }
table.judgestats th, table.judgestats td { padding: 0.3em 0.8em; border-bottom: 1px solid #ddd;
                                          white-space: nowrap; }
h1 { font-size: 1.6em; }
table.judgestats th { border-bottom: 2px solid #444; text-align: right; }
table.judgestats td { text-align: right; }
table.judgestats th.label, table.judgestats td.label, table.judgestats td.clipped,
table.judgestats td.warning, table.judgestats th.clipped, table.judgestats th.warning {
  text-align: left; }
table.judgestats tr.pooled td { font-weight: 600; border-top: 2px solid #444; }
ul.notes li { margin: 0.2em 0; }
figure img { max-width: 100%; height: auto; }
footer { color: #777; font-size: 0.85em; margin-top: 2em; }
"""


def _figure_png(result: Any, *, ranking: Any, reference: Any = None) -> bytes:
    from matplotlib.figure import Figure  # lazy; no pyplot state, no GUI backend

    k = (
        len(result)
        if _kind(result) == "evaluation"
        else (result.k + 1 if _kind(result) == "stratified" else 1)
    )
    fig = Figure(figsize=(7.0, 1.4 + 0.4 * k), layout="constrained")
    ax = fig.subplots()
    plot_leaderboard(result, ax=ax, ranking=ranking, reference=reference)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    return buf.getvalue()


def _html(c: _Content, d: int, png: bytes | None) -> str:
    from . import __version__

    names = _column_names(c)
    tips = {
        "n": "judged test items",
        "naive": "the judge's uncorrected rate",
        "corrected": f"corrected rate ({c.estimator} estimate)",
        "sensitivity": "P(judge = 1 | human = 1) on the calibration set",
        "specificity": "P(judge = 0 | human = 0) on the calibration set",
        "m0": "human-negative calibration items",
        "m1": "human-positive calibration items",
    }
    esc = html.escape
    keys, cells = _cells(c, d, "–")
    head = "".join(
        f'<th class="{k}" scope="col"'
        + (f' title="{esc(tips[k])}"' if k in tips else "")
        + f">{esc(names[k])}</th>"
        for k in keys
    )
    body = []
    for r, row in zip(c.rows, cells, strict=True):
        cls = ' class="pooled"' if r.total else ""
        tds = "".join(f'<td class="{k}">{esc(v)}</td>' for k, v in zip(keys, row, strict=True))
        body.append(f"<tr{cls}>{tds}</tr>")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{esc(c.title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{esc(c.title)}</h1>",
        f'<p class="methods">{esc(c.sentence)}</p>',
        '<table class="judgestats">',
        f"<thead><tr>{head}</tr></thead>",
        "<tbody>",
        *body,
        "</tbody>",
        "</table>",
    ]
    if c.notes:
        parts += ["<h2>Notes</h2>", '<ul class="notes">']
        parts += [f"<li>{esc(n)}</li>" for n in c.notes]
        parts.append("</ul>")
    if png is not None:
        data = base64.b64encode(png).decode("ascii")
        parts += [
            '<figure class="leaderboard">',
            f'<img alt="{esc(c.title)}: corrected rates with {_level_text(c.level)} intervals" '
            f'src="data:image/png;base64,{data}">',
            "<figcaption>Corrected rate (filled) with its interval and the judge's naive rate "
            "(hollow)" + (f"; crosses: the {html.escape(c.reference_name)}" if c.reference_name
                          else "") + ".</figcaption>",
            "</figure>",
        ]
    parts += [f"<footer>judgestats {esc(__version__)}</footer>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def report(
    result: Any,
    format: str = "markdown",
    *,
    metric: str = "accuracy",
    title: str | None = None,
    digits: int = 3,
    label: str | None = None,
    strata_name: str | None = None,
    sort: bool = True,
    figure: bool = True,
    reference: Any = None,
    reference_name: str = "human rate",
) -> str:
    """Render a result as a report: methods sentence, table, notes (and figure for HTML).

    Parameters
    ----------
    result : Correction, StratifiedCorrection or Evaluation
        What to report. An Evaluation gives one row per group, a StratifiedCorrection one row
        per stratum plus the pooled row, a Correction one row.
    format : {"markdown", "latex", "html"}, default "markdown"
        Output format (see the module docstring).
    metric : str, default "accuracy"
        Name of the rate in the sentence and title ("accuracy", "win rate", ...).
    title : str, optional
        Title (default "Corrected <metric> by <group column>").
    digits : int, default 3
        Decimals in the table (the sentence uses 2).
    label : str, optional
        Name of the model a single Correction or StratifiedCorrection belongs to.
    strata_name : str, optional
        Name of a StratifiedCorrection's stratum covariate.
    sort : bool, default True
        Evaluation: order rows by corrected rate, best first (else by group).
    figure : bool, default True
        HTML: embed the leaderboard figure (:func:`plot_leaderboard`) as a PNG.
    reference : mapping, optional
        Known true rates by row label (e.g. the human rate of all rows of a bundled data set),
        shown as a column named ``reference_name`` and as black crosses in the figure.
    reference_name : str, default "human rate"
        The column's header.

    Returns
    -------
    str
        The document (Markdown, a LaTeX fragment, or a standalone HTML page).
    """
    _kind(result)
    check_choice("format", format, FORMATS)
    _check_text("metric", metric)
    if title is not None:
        _check_text("title", title)
    if label is not None:
        _check_text("label", label)
    digits = check_positive_int("digits", digits, minimum=1)
    content = _content(
        result, metric=metric, title=title, label=label, strata_name=strata_name, sort=sort,
        reference=reference, reference_name=reference_name,
    )  # fmt: skip
    if format == "markdown":
        return _markdown(content, digits)
    if format == "latex":
        return _latex(content, digits)
    ranking = result.ranking if _kind(result) == "evaluation" else None
    png = _figure_png(result, ranking=ranking, reference=reference) if figure else None
    return _html(content, digits, png)


# ============================================================================ figure
def plot_leaderboard(
    result: Any,
    *,
    ax: Any = None,
    show_naive: bool = True,
    ranking: Any = None,
    reference: Any = None,
):
    """Leaderboard figure: corrected rates with their intervals, best at the top.

    Every group of an :class:`Evaluation` (sorted by corrected rate), every stratum of a
    :class:`StratifiedCorrection` and its pooled rate, or the one :class:`Correction`: the
    corrected rate with the interval the result reports, and the judge's naive rate as a
    hollow marker. With a ``ranking`` (default: the Evaluation's own), the labels carry
    P(rank 1). ``reference`` (label → known true rate) adds black crosses. matplotlib is
    imported here; returns the Axes.
    """
    _kind(result)
    if ax is None:
        import matplotlib.pyplot as plt

        k = len(result) if _kind(result) == "evaluation" else 2
        _, ax = plt.subplots(figsize=(7.0, 1.4 + 0.4 * k), layout="constrained")
    content = _content(result, metric="rate", title=None, label=None, strata_name=None, sort=True,
                       reference=reference)  # fmt: skip
    rows = content.rows
    if ranking is None and _kind(result) == "evaluation":
        ranking = result.ranking
    if ranking is not None:
        for r in rows:
            if r.label in ranking.models:
                r.p_rank1 = float(ranking.rank_probabilities[ranking.models.index(r.label), 0])
    from .plots import interval_rows

    lvl = _level_text(content.level)
    labels = [
        (r.label or "estimate") + ("" if r.p_rank1 is None else f"  (P(rank 1) = {r.p_rank1:.2f})")
        for r in rows
    ]
    interval_rows(
        ax, labels, [r.estimate for r in rows], [r.low for r in rows], [r.high for r in rows],
        level=lvl, naive=[r.naive for r in rows] if show_naive and not all(
            math.isnan(r.naive) for r in rows) else None,  # a judge alphabet may have none
    )  # fmt: skip
    known = [(i, r.reference) for i, r in enumerate(rows) if r.reference is not None]
    if known:
        y = np.arange(len(rows))[::-1]
        ax.plot([v for _, v in known], [y[i] for i, _ in known], "kx", ms=8, mew=2,
                label="known true rate")  # fmt: skip
    ax.set_xlabel("rate")
    # the key below the axis label, in as many columns as fit (a long x label was cut at
    # 1280 px); placed in points below the axis, so it clears the label at any figure height
    from matplotlib.transforms import offset_copy

    below = offset_copy(ax.transAxes, fig=ax.figure, y=-34, units="points")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below, ncol=3,
              fontsize=8, frameon=False)  # fmt: skip
    ax.set_ylim(-0.7, len(rows) - 0.3)
    method = result.method
    title = f"Corrected rates with {lvl} intervals ({_METHOD_NAMES.get(method, method)})"
    # wrapped: a long method name was cut at the figure's edge
    ax.set_title(textwrap.fill(title, 64, break_on_hyphens=False))
    return ax
