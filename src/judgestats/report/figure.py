"""The figure of a report: the leaderboard plot (matplotlib, imported only when drawn).

:func:`plot_leaderboard` draws each model's corrected rate and interval beside its naive rate;
the HTML report embeds it as a PNG.
"""

from __future__ import annotations

import io
import math
import textwrap
from typing import Any

import numpy as np

from .._validation import require_extra
from ..designs.capabilities import method_words
from ..results import shorten, shows_point
from .content import _content
from .rows import _kind, _level_text

__all__ = [
    "plot_leaderboard",
]


def _figure_png(result: Any, *, ranking: Any, reference: Any = None) -> bytes:
    require_extra("matplotlib", "the HTML report's figure")
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


# ============================================================================ figure
def plot_leaderboard(
    result: Any,
    *,
    ax: Any = None,
    show_naive: bool = True,
    ranking: Any = None,
    reference: Any = None,
    sort: bool = True,
):
    """Leaderboard figure: corrected rates with their intervals, best at the top.

    Every group of an :class:`Evaluation` (sorted by corrected rate), every stratum of a
    :class:`StratifiedCorrection` and its pooled rate, or the one :class:`Correction`: the
    corrected rate with the interval the result reports, and the judge's naive rate as a
    hollow marker. With a ``ranking`` (default: the Evaluation's own), the labels carry
    P(rank 1). ``reference`` (label → known true rate) adds black crosses. ``sort=False``
    keeps the groups' own order, top to bottom (two panels side by side then share their
    rows). matplotlib is imported here; returns the Axes.
    """
    _kind(result)
    if ax is None:
        require_extra("matplotlib", "plot_leaderboard")
        import matplotlib.pyplot as plt

        k = len(result) if _kind(result) == "evaluation" else 2
        _, ax = plt.subplots(figsize=(7.0, 1.4 + 0.4 * k), layout="constrained")
    content = _content(result, metric="rate", title=None, label=None, strata_name=None, sort=sort,
                       reference=reference)  # fmt: skip
    rows = content.rows
    if ranking is None and _kind(result) == "evaluation":
        ranking = result.ranking
    if ranking is not None:
        for r in rows:
            if r.label in ranking.models:
                r.p_rank1 = float(ranking.rank_probabilities[ranking.models.index(r.label), 0])
    from ..plots import interval_rows

    lvl = _level_text(content.level)
    labels = [  # long names shortened (a 300-character name squeezed the plot to nothing)
        shorten(r.label or "estimate", 40)
        + ("" if r.p_rank1 is None else f"  (P(rank 1) = {r.p_rank1:.2f})")
        for r in rows
    ]
    interval_rows(
        ax, labels,
        [r.estimate if shows_point(r.sensitivity, r.specificity) else math.nan for r in rows],
        [r.low for r in rows], [r.high for r in rows],
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
    title = f"Corrected rates with {lvl} intervals ({method_words(method)})"
    # wrapped: a long method name was cut at the figure's edge (50: the title is centred over
    # the axes, which long group labels push right)
    ax.set_title(textwrap.fill(title, 50, break_on_hyphens=False))
    return ax
