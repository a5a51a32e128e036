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
sizes m0 and m1. Beside it, a judge-agreement table (:mod:`.agreement`) gives each group's judge
× human table and the judge's sensitivity and specificity with Clopper–Pearson intervals
(:func:`judgestats.agreement`; one row when every group shares one table). The notes state the
warnings in force: clipped estimates, weak calibration (fewer than :data:`WEAK_CLASS_SIZE`
human-labelled items of a class, or a judge with sensitivity + specificity − 1 below
:data:`WEAK_YOUDEN`), a calibration label mix that differs from the corrected test rate, merged
or heterogeneous strata, and any warning issued while correcting.
"""

from __future__ import annotations

from ..results import Reportable
from ..results import group_label as group_label
from .figure import (
    plot_leaderboard,
)
from .render import (
    FORMATS,
    report,
)
from .words import (
    CITATION,
    WEAK_CLASS_SIZE,
    WEAK_YOUDEN,
    methods_sentence,
    report_notes,
)

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
