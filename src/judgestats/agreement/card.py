"""An :class:`~judgestats.agreement.Agreement` written out: text, reports, heat map.

The card's own faces (the corrected-rate reports of :mod:`judgestats.report` show a compact row
of it per group, :mod:`judgestats.report.agreement`): the judge × human table, every figure with
its interval and the method that made it, the sentence on what the agreement buys and the notes.
Its Markdown, LaTeX and HTML tables are the report's (:mod:`judgestats.report.tables`, the
faces' layer, reached from :meth:`Agreement.report` on first use); matplotlib is imported only
to draw.
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any

import numpy as np

from .._validation import check_choice, check_positive_int
from ..report.tables import html_table, latex_tabular, markdown_table, tex

__all__ = ["FORMATS", "heatmap", "rater_pairs", "report_text", "summary_text"]

#: Output formats of :meth:`Agreement.report`.
FORMATS = ("markdown", "latex", "html")


def _methods(card: Any) -> str:
    lvl = f"{card.confidence_level:.0%}"
    size = f"{card.m} calibration items" if card.items is None else (
        f"{card.items} calibration items, {card.m} rows")
    text = (f"Judge–human agreement on {size} (design {card.design!r}); "
            f"{lvl} intervals: Clopper–Pearson (exact) for rates")  # fmt: skip
    if any(r is not None and r.ci is not None for r in (card.kappa, card.ac1)):
        text += (", delta method on the multinomial (atanh scale, 0.5 added per cell) for "
                 "kappa and AC1")  # fmt: skip
    if card.items is not None:
        text += "; repeated items: intervals at the effective sizes (design effects)"
    return text + "."


def _table_rows(card: Any) -> tuple[list[str], list[list[str]]]:
    head = ["judge \\ human", *(str(b) for b in card.labels)]
    rows = [[str(a), *(str(int(v)) for v in card.counts[i])]
            for i, a in enumerate(card.judge_labels)]  # fmt: skip
    return head, rows


def summary_text(card: Any) -> str:
    """Write the card as plain text."""
    head, rows = _table_rows(card)
    width = max(len(c) for r in [head, *rows] for c in r) + 2
    lines = [_methods(card), "", "".join(c.rjust(width) for c in head)]
    lines += ["".join(c.rjust(width) for c in r) for r in rows]
    lines.append("")
    for r in card.figures():
        lines.append(f"  {r.name:<28} {r.text()}")
    if card.buys:
        lines += ["", card.buys]
    if card.strata:
        lines.append("")
        for key, s in card.strata.items():
            lines.append(f"  stratum {key}: m = {s.m}; {_shown(s.figures())}")
    lines += [f"note: {n}" for n in card.notes]
    return "\n".join(lines)


def _shown(figures: list) -> str:
    """Write a stratum's figures in one line; those derived through one mix name it once."""
    parts, derived, source = [], [], ""
    for r in figures:
        if r.ci is None and r.source != "calibration" and not np.isnan(r.estimate):
            derived.append(f"{r.name} {r.estimate:.3f}")
            source = r.source
        else:
            parts.append(f"{r.name} {r.text(short=True)}")
    if derived:
        parts.append(", ".join(derived) + f" ({source}, no interval)")
    return "; ".join(parts)


def report_text(card: Any, *, format: str, figure: bool, digits: int) -> str:
    """Write the card as Markdown, a LaTeX fragment (booktabs) or a standalone HTML page."""
    check_choice("format", format, FORMATS)
    d = check_positive_int("digits", digits, minimum=1)
    head, rows = _table_rows(card)
    figs = [(r.name, f"{r.estimate:.{d}f}", "–" if r.ci is None else
             f"[{r.ci.low:.{d}f}, {r.ci.high:.{d}f}]",
             r.ci.method if r.ci else (r.note or r.source)) for r in card.figures()]  # fmt: skip
    fig_head = ["figure", "estimate", f"{card.confidence_level:.0%} interval", "method / note"]
    paras = [_methods(card), *([card.buys] if card.buys else [])]
    tables = [(head, rows), (fig_head, [list(f) for f in figs]), *_strata_table(card, d)]
    if format == "markdown":
        out = [*paras, *("\n".join(markdown_table(h, r)) for h, r in tables)]
        return "\n\n".join(out) + "\n\n" + "\n".join(f"- {n}" for n in card.notes) + "\n"
    if format == "latex":
        return "\n\n".join([*(tex(p) for p in paras), *(_latex(h, r) for h, r in tables),
                            *(tex(n) for n in card.notes)]) + "\n"  # fmt: skip
    img = ""
    if figure:
        img = f'<img alt="judge × human table" src="data:image/png;base64,{_png(card)}">'
    body = "".join(f"<p>{html.escape(p)}</p>" for p in paras)
    body += "".join(html_table(*tables[0])) + img
    body += "".join(part for h, r in tables[1:] for part in html_table(h, r))
    body += "".join(f"<p>Note: {html.escape(n)}</p>" for n in card.notes)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Judge agreement</title>"
            f"</head><body>{body}</body></html>\n")  # fmt: skip


def _strata_table(card: Any, d: int) -> list[tuple[list[str], list[list[str]]]]:
    """One row per stratum: m and every figure with its interval (none without strata)."""
    if not card.strata:
        return []
    first = next(iter(card.strata.values()))
    head = ["stratum", "m", *(r.name for r in first.figures())]
    rows = [[str(k), str(s.m), *(r.text(d, short=True) for r in s.figures())]
            for k, s in card.strata.items()]  # fmt: skip
    return [(head, rows)]


def _latex(head: list[str], rows: list[list[str]]) -> str:
    return "\n".join(latex_tabular(head, rows, "l" + "r" * (len(head) - 1)))


def _png(card: Any) -> str:
    import matplotlib.pyplot as plt

    j, k = card.counts.shape
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * k, 1.0 + 0.7 * j), layout="constrained")
    heatmap(card, ax=ax)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def heatmap(card: Any, ax: Any = None) -> Any:
    """Heat map of the judge × human table, coloured by the share of each human class."""
    from .._validation import require_extra

    require_extra("matplotlib", "plotting")
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4), layout="constrained")
    c = card.counts.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.nan_to_num(c / c.sum(axis=0))
    ax.imshow(share, cmap="Blues", vmin=0.0, vmax=1.0, aspect="auto")
    for (a, b), v in np.ndenumerate(card.counts):
        ax.text(b, a, f"{int(v)}", ha="center", va="center",
                color="white" if share[a, b] > 0.6 else "black")  # fmt: skip
    ax.set_xticks(range(c.shape[1]), [str(v) for v in card.labels])
    ax.set_yticks(range(c.shape[0]), [str(v) for v in card.judge_labels])
    ax.set_xlabel("human label")
    ax.set_ylabel("judge label")
    ax.set_title(f"judge × human, m = {card.m} (colour: share of the human class)", fontsize=9)
    return ax


# ---------------------------------------------------------------------------- several raters
def rater_pairs(judged: Any, digits: int = 3) -> tuple[list[str], list[list[str]]]:
    """Return the judge's agreement with each rater and the majority, the raters' beside it.

    The card's rater section (issue 40): one row per pair of a
    :class:`~judgestats.raters.JudgeAgreement` — the judge against each human rater, against
    the raters' majority, then every pair of human raters — with the items both labelled, the
    percent agreement and its Clopper–Pearson interval, Cohen's κ and its delta-method
    interval (or why it has none). Written by the report's table writers
    (:func:`judgestats.report.tables.markdown_table`, ...).

    Parameters
    ----------
    judged : JudgeAgreement
        From :func:`judgestats.raters.judge_agreement`.
    digits : int
        Decimals of the figures.

    Returns
    -------
    head, rows : list of str, list of list of str

    Examples
    --------
    >>> from judgestats.agreement.card import rater_pairs
    >>> from judgestats.raters import Ratings, judge_agreement
    >>> r = Ratings.from_matrix([[1, 1], [0, 0], [1, 0], [0, 0]], raters=["a1", "a2"],
    ...                         judge=[1, 0, 1, 1])
    >>> head, rows = rater_pairs(judge_agreement(r, ties="a1"))
    >>> head[:4], rows[0][:4]
    (['first', 'second', 'items', 'agreement'], ['judge', 'a1', '4', '0.750'])
    """
    d = check_positive_int("digits", digits)

    def interval(ci: Any) -> str:
        return "–" if ci is None else f"[{ci.low:.{d}f}, {ci.high:.{d}f}]"

    head = ["first", "second", "items", "agreement",
            f"{judged.confidence_level:.0%} interval", "kappa", "kappa interval"]  # fmt: skip
    rows = []
    for p in (*judged.with_raters, judged.with_majority, *judged.between_raters):
        pct = "–" if p.n_items == 0 else f"{p.percent:.{d}f}"
        kappa = "–" if p.kappa != p.kappa else f"{p.kappa:.{d}f}"
        rows.append([str(p.first), str(p.second), str(p.n_items), pct, interval(p.percent_ci),
                     kappa, interval(p.kappa_ci) if p.kappa_ci is not None else
                     (p.note or "–")])  # fmt: skip
    return head, rows
