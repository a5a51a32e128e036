"""The shared pieces of every result: :class:`ConfidenceInterval` and small formatting helpers.

Each result class lives beside the function that makes it (scipy's habit):
:class:`~judgestats.correct.Correction` with :func:`judgestats.correct`,
:class:`~judgestats.multiclass.DistributionCorrection` with
:func:`judgestats.correct_distribution`, :class:`~judgestats.strata.StratifiedCorrection` with
:func:`judgestats.correct_stratified`, :class:`~judgestats.compare.Comparison` and
:class:`~judgestats.compare.Ranking` with :mod:`judgestats.compare`,
:class:`~judgestats.evaluate.Evaluation` with :func:`judgestats.evaluate`,
:class:`~judgestats.experiments.SplitStudy` with :func:`judgestats.experiments.split_study`.
They are re-exported at the top level (``js.Correction``, ...). Importing them from this module
still works but is deprecated.
"""

from __future__ import annotations

import importlib
import numbers
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import require_extra

__all__ = [
    "ConfidenceInterval",
    "Recomputable",
    "Reportable",
    "Tabular",
    "effective_labels",
    "forward",
    "group_label",
    "note_lines",
    "rate_repr",
    "stratum_coord",
    "width_variance",
]


@dataclass(frozen=True, slots=True)
class ConfidenceInterval:
    """A two-sided interval ``[low, high]`` with the method and level that produced it.

    ``low, high = ci`` unpacks it. For the bootstrap, ``n_resamples`` is the number of
    replicates and ``undefined`` how many of them had no estimate (judge not informative in the
    resample); those are excluded from the percentiles and a ``SamplingWarning`` is issued.

    Examples
    --------
    Every result's ``ci``; it unpacks as ``(low, high)`` and names its method and level:

    >>> import judgestats as js
    >>> res = js.correct(js.JudgedCounts(positive=600, n=1000),
    ...                  js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
    ...                  method="adjusted-wald", confidence_level=0.95)
    >>> res.ci
    ConfidenceInterval(low=0.416996, high=0.580598, method='adjusted-wald', confidence_level=0.95)
    >>> low, high = res.ci
    >>> round(high - low, 4)
    0.1636
    """

    low: float
    high: float
    method: str
    confidence_level: float
    undefined: int = 0
    n_resamples: int | None = None
    #: True when a boundary rule made the interval: adjusted-Wald's when truncation would have
    #: collapsed it to the single point 0 or 1 (see :func:`judgestats.adjusted_wald_interval`),
    #: the profile-likelihood methods' when a count was 0 (computed with ½ in its place, which
    #: widens it or moves it; see :func:`judgestats.likelihood.profile_likelihood_bounds`)
    widened: bool = False

    def __iter__(self):
        yield self.low
        yield self.high

    @classmethod
    def from_bounds(
        cls, bounds: Any, method: str, confidence_level: float, index: Any = (), *,
        undefined: Any = None,
    ) -> ConfidenceInterval:  # fmt: skip
        """Return the interval at ``index`` of an interval method's (batched) bounds.

        ``bounds`` holds arrays ``low``, ``high``, ``undefined`` (replicates without an
        estimate) and perhaps ``widened``, and ``n_resamples``; ``undefined=`` overrides the
        count where the method keeps it per data set rather than per interval.
        """
        widened = getattr(bounds, "widened", None)
        count = np.asarray(bounds.undefined)[index] if undefined is None else undefined
        return cls(
            low=float(np.asarray(bounds.low)[index]),
            high=float(np.asarray(bounds.high)[index]),
            method=method,
            confidence_level=confidence_level,
            undefined=int(count),
            n_resamples=bounds.n_resamples,
            widened=bool(widened is not None and np.asarray(widened)[index].any()),
        )

    def undefined_note(self) -> str | None:
        """Return "k of B bootstrap replicates were undefined ..." when any were, else None."""
        if not (self.n_resamples and self.undefined):
            return None
        return (
            f"{self.undefined} of {self.n_resamples} bootstrap replicates were undefined (no "
            "estimate) and left out of the interval"
        )

    @property
    def width(self) -> float:
        """Width ``high − low``."""
        return self.high - self.low

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high

    def __repr__(self) -> str:
        extra = f", undefined={self.undefined}/{self.n_resamples}" if self.n_resamples else ""
        extra += ", widened=True" if self.widened else ""
        return (
            f"ConfidenceInterval(low={self.low:.6g}, high={self.high:.6g}, "
            f"method={self.method!r}, confidence_level={self.confidence_level:g}{extra})"
        )


def width_variance(ci: ConfidenceInterval) -> float:
    """Var(θ̂) implied by an interval's width: ((upper − lower)/(2z))², z = Φ⁻¹(1 − α/2).

    The variance of a normal-theory interval of the same width at the same level; for an
    interval with no variance of its own (a profile-likelihood interval, a posterior's, a
    bootstrap percentile interval, ``method="auto"``'s widened hull) it is the variance that
    interval implies. For θ̂ ± z·se it is se² exactly, wherever [0, 1] did not truncate it.

    Examples
    --------
    >>> import judgestats as js
    >>> ci = js.ConfidenceInterval(low=0.4, high=0.6, method="wald", confidence_level=0.95)
    >>> round(js.results.width_variance(ci), 6)  # ((0.2)/(2 · 1.959964))²
    0.002603
    """
    from .kernels import z_value  # on first use: results stays at the bottom of the layers

    z = float(z_value(ci.confidence_level))
    return ((ci.high - ci.low) / (2.0 * z)) ** 2


def effective_labels(estimate: float, variance: float) -> float | None:
    """θ̂(1 − θ̂)/Var(θ̂): the human labels alone that would give the same precision.

    A simple random sample of ``n`` human labels estimates θ with variance θ(1 − θ)/n, so a
    result whose θ̂ has variance Var(θ̂) is worth θ̂(1 − θ̂)/Var(θ̂) human labels ("this
    judge makes your 300 labels worth 540"). Issue 39's definition; it does not replace the
    Kish sizes ``effective_pi`` / ``effective_ppv`` of repeated items. None where θ̂ is 0 or
    1 (no binomial variance to compare with) or the variance is not positive and finite.

    Examples
    --------
    >>> import judgestats as js
    >>> round(js.results.effective_labels(0.5, 0.25 / 540), 6)
    540.0
    """
    theta, var = float(estimate), float(variance)
    if not (0.0 < theta < 1.0 and np.isfinite(var) and var > 0.0):
        return None
    return theta * (1.0 - theta) / var


#: Longest group label a text table prints; longer ones are shortened in the middle (the full
#: labels stay in JSON, data frames and xarray).
LABEL_WIDTH = 32


def display_width(text: str) -> int:
    """Terminal columns of a text: East Asian wide and full-width characters take two."""
    import unicodedata

    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def pad(text: str, width: int) -> str:
    """Left-justify ``text`` to ``width`` terminal columns (CJK-aware :func:`display_width`)."""
    return text + " " * max(0, width - display_width(text))


def shorten(text: str, width: int = LABEL_WIDTH) -> str:
    """Shorten a label to at most ``width`` columns, keeping its start and end around "…"."""
    if display_width(text) <= width:
        return text
    head, tail = "", ""
    for ch in text:  # the first half of the room
        if display_width(head + ch) > (width - 1) // 2:
            break
        head += ch
    for ch in reversed(text):
        if display_width(head + "…" + ch + tail) > width:
            break
        tail = ch + tail
    return head + "…" + tail


def rate_repr(name: str, **fields: Any) -> str:
    """Return the repr of a result with one rate: ``name(estimate=0.5000, ci=[0.39, 0.60], …)``.

    Values print by kind, in the order given: a :class:`ConfidenceInterval` as
    ``[low, high]``, ``confidence_level`` with ``:g``, other floats with 4 decimals, strings
    and sequences as their repr, other values with ``str``. ``True`` flags print, ``False`` and
    ``None`` are left out.
    """
    parts = []
    for key, value in fields.items():
        if value is None or (isinstance(value, bool | np.bool_) and not value):
            continue  # a flag that is off
        if isinstance(value, ConfidenceInterval):
            text = f"[{value.low:.4f}, {value.high:.4f}]"
        elif key == "confidence_level":
            text = f"{value:g}"
        elif isinstance(value, float):
            text = f"{value:.4f}"
        elif isinstance(value, str | list | tuple):
            text = repr(value)
        else:
            text = str(value)
        parts.append(f"{key}={text}")
    return f"{name}({', '.join(parts)})"


def note_lines(*notes: Any) -> list[str]:
    """Return ``"  note: …"`` summary lines for the notes that apply (falsy ones are skipped).

    Write each note as ``condition and "text"``, so a summary lists its notes in one call.
    """
    return [f"  note: {note}" for note in notes if note]


def stratum_coord(labels: tuple) -> list:
    """Stratum labels usable as an xarray coordinate (strings unless all str or all int)."""
    if all(isinstance(v, str) for v in labels) or all(
        isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in labels
    ):
        return list(labels)
    return [str(v) for v in labels]


def forward(path: str, doc: str, *, index: Any = None, cast: Any = None) -> property:
    """Make a read-only property returning ``self.<path>`` (a dotted path), documented by doc.

    With ``index`` it returns ``self.<path>[index]``, with ``cast`` ``cast(...)`` of that.
    """
    first, *rest = path.split(".")

    def get(self: Any) -> Any:
        value = getattr(self, first)
        for name in rest:
            value = getattr(value, name)
        if index is not None:
            value = value[index]
        return value if cast is None else cast(value)

    return property(get, doc=doc)


class Tabular:
    """Mixin: ``to_dataframe()`` from the result's ``_records()`` (one dict per row)."""

    __slots__ = ()

    def _records(self) -> list[dict[str, Any]]:  # pragma: no cover - every result defines it
        raise NotImplementedError

    def to_dataframe(self) -> Any:
        """Tidy rows (a pandas DataFrame); the class docstring lists the columns."""
        require_extra("pandas", "to_dataframe()")
        import pandas as pd

        return pd.DataFrame(self._records())


class Recomputable:
    """Mixin: ``confidence_interval()`` recomputes the interval(s) by another method or level.

    A result sets ``default_method`` and implements ``_recompute(method, level, rng, options)``.
    """

    __slots__ = ()
    default_method: str = "adjusted-wald"

    def confidence_interval(
        self, method: str | None = None, confidence_level: float = 0.95, *, rng: Any = None,
        **options: Any,
    ) -> Any:  # fmt: skip
        """Recompute the interval for the same data by another method or level.

        Parameters
        ----------
        method : str, optional
            An interval method the result's function takes (default: ``default_method``).
        confidence_level : float, default 0.95
            Two-sided level, strictly inside (0, 1).
        rng : None, int, SeedSequence or Generator
            For resampling methods.
        **options
            Method options, e.g. ``n_resamples`` for ``"bootstrap"``.

        Returns
        -------
        ConfidenceInterval, or a dict label → ConfidenceInterval for k categories.
        """
        return self._recompute(method or self.default_method, confidence_level, rng, options)

    def _recompute(self, method: str, level: float, rng: Any, options: dict) -> Any:
        raise NotImplementedError  # pragma: no cover - every result defines it


#: Result classes that moved beside their functions: name -> module.
_MOVED = {
    "Correction": "correct",
    "DistributionCorrection": "multiclass",
    "Comparison": "compare",
    "Ranking": "compare",
    "SplitStudy": "experiments",
    "HomogeneityTest": "strata",
    "StrataDiagnostics": "strata",
    "StratifiedCorrection": "strata",
    "Evaluation": "evaluate",
}


def __getattr__(name: str) -> Any:
    # Deprecated paths. The import happens by name at attribute access, only for old code, so
    # this module never depends on the modules that depend on it.
    if name == "_stratum_coord":
        return stratum_coord
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    home = f"judgestats.{_MOVED[name]}"
    msg = f"judgestats.results.{name} moved: use js.{name} or {home}.{name}"
    warnings.warn(msg, DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(home), name)


def shown_label(label: str) -> str:
    """Print a group label so that look-alikes differ: quoted when spaces or encoding hide it.

    ``"alpha "`` prints as ``'alpha '`` and ``" 7"`` as ``' 7'`` (Python's repr), as does a
    label holding a character other than a plain space that prints blank or not at all (a
    tab, a non-breaking space, a control character); any other label prints as it is.
    """
    import unicodedata

    hidden = (
        label != label.strip()
        or any(
            (ch.isspace() and ch != " ") or unicodedata.category(ch) in ("Cc", "Cf") for ch in label
        )
        or unicodedata.normalize("NFKC", label) != label
    )
    return repr(label) if hidden else label


def lookalike_labels(labels: Any) -> list[tuple[str, ...]]:
    """Find distinct labels that print alike: equal once spaces and encoding are ignored."""
    import unicodedata

    seen: dict[str, list[str]] = {}
    for label in dict.fromkeys(labels):
        key = " ".join(unicodedata.normalize("NFKC", label).split())
        seen.setdefault(key, []).append(label)
    return [tuple(v) for v in seen.values() if len(v) > 1]


def shows_point(sensitivity: Any, specificity: Any) -> bool:
    """Tell whether a corrected rate has a point estimate worth printing.

    Not where the judge is no better than chance on the calibration set (q̂0 + q̂1 <= 1, a
    judge that always says 1 among them): no correction exists there, and the methods that
    still answer give an interval (often [0, 1]) around a point that says nothing (a boundary,
    or the prior's middle). Tables and reports then print no point; the result's fields keep
    their values. True where the rates are unknown (a judge alphabet).
    """
    if sensitivity is None or specificity is None:
        return True
    youden = float(sensitivity) + float(specificity) - 1.0
    return not youden <= 0.0  # NaN (no rates): shown


def group_label(group: Any) -> str:
    """Text label of a group: the value, or values joined by " / " for several columns."""
    return " / ".join(str(v) for v in group) if isinstance(group, tuple) else str(group)


#: Where :meth:`Reportable.report` finds the function that writes the report:
#: :func:`judgestats.report.report`, imported by its module's name on first use. Results sit
#: below the report in the layers, so they name it instead of importing it (no import edge,
#: no cycle), and ``import judgestats`` does not load the report package.
RENDERER = ("judgestats.report", "report")


class Reportable:
    """Mixin: ``report()`` renders the result with :func:`judgestats.report.report`.

    Examples
    --------
    Every result that mixes it in renders itself (Markdown, LaTeX or HTML):

    >>> import judgestats as js
    >>> res = js.correct(js.JudgedCounts(positive=600, n=1000),
    ...                  js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
    ...                  method="adjusted-wald", confidence_level=0.95)
    >>> isinstance(res, js.report.Reportable)
    True
    >>> res.report("markdown", figure=False).splitlines()[0]
    '## Corrected accuracy'
    """

    __slots__ = ()

    def report(self, format: str = "markdown", **kwargs: Any) -> str:
        """Table plus methods sentence (``"markdown"``, ``"latex"`` or ``"html"``).

        See :func:`judgestats.report.report` for the keywords.
        """
        module, name = RENDERER
        return getattr(importlib.import_module(module), name)(self, format=format, **kwargs)
