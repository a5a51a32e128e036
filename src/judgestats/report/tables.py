"""The table writers of every report: Markdown, LaTeX (booktabs) and HTML, each with its escaping.

One family for the corrected-rate report (:mod:`.formats`), the pairwise leaderboard's
(:mod:`.pairwise`) and the agreement card (:mod:`judgestats.agreement.card`). A table is a
header row and rows of text cells; each writer escapes the cells for its format and returns the
table's lines (Markdown, LaTeX) or parts (HTML), which the caller places in its document.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Callable, Sequence

__all__ = ["html_table", "latex_tabular", "markdown_table", "md_escape", "tex"]

Cells = Sequence[str]


# ---------------------------------------------------------------------------- markdown
def md_escape(text: str) -> str:
    """Escape text for Markdown: backslashes and pipes (table cells), line breaks."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def markdown_table(head: Cells, rows: Sequence[Cells], align: str | None = None) -> list[str]:
    """Return the lines of a pipe table.

    Parameters
    ----------
    head, rows : sequences of str
        The header cells and the rows' cells (escaped here).
    align : str, optional
        One letter per column, ``"l"`` (left) or ``"r"`` (right); None leaves them unaligned.
    """

    def line(cells: Cells) -> str:
        return "| " + " | ".join(md_escape(c) for c in cells) + " |"

    rules = [":---" if a == "l" else "---:" for a in align] if align else ["---"] * len(head)
    return [line(head), "|" + "|".join(rules) + "|", *(line(r) for r in rows)]


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
    "≈": r"\approx", "→": r"\to", "√": r"\surd", "λ": r"\lambda",
}  # fmt: skip


_TEX_ACCENT = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0303": "~", "\u0302": "^"}


def tex(text: str) -> str:
    """Escape text for pdflatex: specials, Greek and maths symbols, accents and hats (p̂).

    Anything else outside ASCII (CJK names, say) is kept as it is and needs xelatex/lualatex.
    """
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


def latex_tabular(head: Cells, rows: Sequence[Cells], spec: str, *, tex_head: bool = False
                  ) -> list[str]:  # fmt: skip
    r"""Return the lines of a booktabs ``tabular`` (``\usepackage{booktabs}``).

    Parameters
    ----------
    head, rows : sequences of str
        The header cells and the rows' cells; the cells are escaped (:func:`tex`), the header
        too unless ``tex_head`` (it is LaTeX already, e.g. ``$\hat{p}$``).
    spec : str
        The column specification (``"lrr"``).
    tex_head : bool, default False
        Whether the header cells are written in LaTeX already.
    """
    shown = list(head) if tex_head else [tex(h) for h in head]
    return [f"\\begin{{tabular}}{{{spec}}}", r"\toprule", " & ".join(shown) + r" \\", r"\midrule",
            *(" & ".join(tex(c) for c in r) + r" \\" for r in rows),
            r"\bottomrule", r"\end{tabular}"]  # fmt: skip


# ---------------------------------------------------------------------------- html
def _th(column: int, text: str) -> str:
    return f"<th>{html.escape(text)}</th>"


def _td(column: int, text: str) -> str:
    return f"<td>{html.escape(text)}</td>"


def html_table(
    head: Cells,
    rows: Sequence[Cells],
    *,
    table_class: str | None = None,
    scroll: str | None = None,
    th: Callable[[int, str], str] = _th,
    td: Callable[[int, str], str] = _td,
    tr: Sequence[str] | None = None,
) -> list[str]:
    """Return an HTML table as its parts: join them with newlines (a page) or with nothing.

    Parameters
    ----------
    head, rows : sequences of str
        The header cells and the rows' cells.
    table_class : str, optional
        The table's ``class``.
    scroll : str, optional
        The ``class`` of a ``<div>`` around the table (``"table"``: it scrolls sideways).
    th, td : callable, optional
        ``f(column, text)`` → a header cell and a body cell, escaped (default: plain ``<th>``
        and ``<td>``).
    tr : sequence of str, optional
        Each row's attributes (``' class="pooled"'``), one per row.
    """
    table = "<table>" if table_class is None else f'<table class="{table_class}">'
    cells = "".join(th(k, h) for k, h in enumerate(head))
    body = [f"<tr{'' if tr is None else tr[i]}>" + "".join(td(k, c) for k, c in enumerate(row))
            + "</tr>" for i, row in enumerate(rows)]  # fmt: skip
    parts = [table, f"<thead><tr>{cells}</tr></thead>", "<tbody>", *body, "</tbody>", "</table>"]
    return parts if scroll is None else [f'<div class="{scroll}">', *parts, "</div>"]
