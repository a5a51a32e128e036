"""The table of a report: one row per model, stratum or result, and the cells it shows.

A result is read by its ``kind`` (``"correction"``, ``"stratified"``, ``"evaluation"``,
``"alphabet"``) into rows of n, the naive rate, the corrected rate and its interval, the
judge's error rates and the calibration sizes, with the short tags of each row's notes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .._validation import (
    ArgumentTypeError,
)
from ..designs import DEFAULT_DESIGN, Design, as_design
from ..designs.capabilities import method_words
from ..results import shown_label, shows_point


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
    rows_line: str | None = None  # an Evaluation's: where every counted row went
    agreement: Any = None  # the judge-agreement section (.agreement.AgreementSection) or None
    inputs: list[str] = field(default_factory=list)  # where the rows came from, before the rest
    judge_shift: Any = None  # with batch=: the judge-shift section (sentence, head, cells)
    unit: str = "items"  # what n, m0 and m1 count: "rows" where items repeat (cluster=)
    judges: list = field(default_factory=list)  # a judge score's and a jury's sections (.judges)


#: the result kinds a report renders (each result class sets ``kind``)
_KINDS = ("correction", "stratified", "evaluation", "alphabet", "jury", "score-correction",
          "combined-jury")


def _kind(result: Any) -> str:
    """``result.kind`` for the results a report renders; a clear error for anything else."""
    kind = getattr(type(result), "kind", None)
    if kind not in _KINDS:
        raise ArgumentTypeError(
            "result must be a Correction, StratifiedCorrection, AlphabetCorrection, "
            "JuryCorrection, CombinedJuryCorrection, ScoreCorrection or Evaluation (or a "
            "Bayesian result of the same "
            "shape), got "
            f"{type(result).__name__}"
        )
    return kind


def _design_of(result: Any) -> Design:
    """Return the registered :class:`~judgestats.designs.Design` of a result."""
    return as_design(getattr(result, "design", DEFAULT_DESIGN))


def _estimator_of(result: Any) -> str:
    """Name the point estimate shown in the result's 'corrected' column (its method's)."""
    if _kind(result) == "evaluation":
        found = {_estimator_of(result.corrections[g]) for g in result.groups}
        return " / ".join(sorted(found))
    if _kind(result) == "stratified":  # per stratum, pooled by the mix
        return _design_of(result).estimator
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
    name = method_words(method)
    noun = "intervals" if plural else "interval"
    extra = f", {n_resamples} resamples" if method == "bootstrap" and n_resamples else ""
    if " of " in name:  # a phrase, not a kind of interval: a jury's combination
        return f"{noun} of the {name}{extra}"
    return f"{name} {noun}{extra}"


def _rate(value: Any) -> float:
    return math.nan if value is None else float(value)


def _row_of_correction(label: str, c: Any) -> _Row:
    return _Row(
        label,
        int(c.n),
        float(c.naive),
        c.estimate,
        c.ci.low,
        c.ci.high,
        _rate(getattr(c, "sensitivity", None)),  # none for a jury or a judge score
        _rate(getattr(c, "specificity", None)),
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


#: The short tag of each kind of note (a table's ``warning`` column), by how the note starts.
NOTE_TAGS = {
    "the Rogan–Gladen estimate": "clipped",
    "the pooled estimate": "clipped",
    "stratum estimates outside": "clipped stratum",
    "weak calibration": "weak calibration",
    "interval widened by method='auto'": "widened (auto)",
    "weak judge": "weak judge",
    "the judge is no better than chance": "judge at chance",
    "the judge is too close to chance": "judge near chance",
    "the judge does not shorten the interval": "judge does not help",
    "label-mix difference": "label shift",
    "the calibration items' judge-positive rate": "design check",
    "no calibration item has judge label": "empty judge class",
    "strata were merged": "merged strata",
    "the judge's error rates differ across strata": "strata differ",
    "the prediction-powered estimate": "clipped",
    "fallback": "fallback",
}


#: Columns of text (left-aligned); the others hold numbers.
_TEXT_COLUMNS = ("label", "clipped", "warning")


def _tag(note: str) -> str:
    return next((tag for start, tag in NOTE_TAGS.items() if note.startswith(start)),
                "undefined draws")  # fmt: skip


# ---------------------------------------------------------------------------- assembly
def _check_text(name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ArgumentTypeError(f"{name} must be a non-empty string, got {value!r}")
    return value


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
            "label": shown_label(r.label),
            "n": str(r.n),
            "naive": _fixed(r.naive, d),
            "corrected": _fixed(r.estimate, d)
            if shows_point(r.sensitivity, r.specificity)
            else "–",
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
