"""The output formats of a report: Markdown, LaTeX (booktabs) and a standalone HTML page.

Each takes the same content (the methods sentence, the rows, the notes) and writes it in its
format; escaping rules are each format's own.
"""

from __future__ import annotations

import base64
import html
import math

from .agreement import agreement_cells, agreement_sentence
from .rows import _TEXT_COLUMNS, _capital, _cells, _Content, _level_text


def _agreement_lead(c: _Content) -> bool:
    """Tell whether the agreement table starts with a label column (the report's, or rows)."""
    return bool(c.label_header) or (c.agreement is not None and len(c.agreement.rows) > 1)


def _agreement_spec(c: _Content, head: list[str]) -> str:
    lead = _agreement_lead(c)
    return "l" * lead + "r" * (len(head) - lead)


def _agreement_table(c: _Content, d: int) -> tuple[str, list[str], list[list[str]]] | None:
    """Return the agreement section's sentence, column names and cells, or None.

    The label column is left out when the report has none and the section one row.
    """
    s = c.agreement
    if s is None:
        return None
    head, cells = agreement_cells(s, d)
    if _agreement_lead(c):
        head = [c.label_header or "", *head]
    else:
        cells = [row[1:] for row in cells]
    return agreement_sentence(s, c.label_header), head, cells


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
    if c.rows_line:
        lines += ["", _md_escape(c.rows_line)]
    card = _agreement_table(c, d)
    if card is not None:
        sentence, head, cells = card
        lines += ["", "### Judge agreement", "", _md_escape(sentence), "",
                  "| " + " | ".join(_md_escape(h) for h in head) + " |",
                  "|" + "|".join(":---" if ch == "l" else "---:"
                                 for ch in _agreement_spec(c, head)) + "|"]  # fmt: skip
        lines += ["| " + " | ".join(_md_escape(v) for v in row) + " |" for row in cells]
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
    from .._version import __version__

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
    if c.rows_line:
        lines += [r"\par\smallskip", r"{\footnotesize " + _tex(c.rows_line) + r"\par}"]
    if c.notes:
        lines += [
            r"\par\smallskip",
            r"{\footnotesize Notes: "
            + " ".join(_tex(n if n.endswith(".") else n + ".") for n in c.notes)
            + r"\par}",
        ]
    lines.append(r"\end{table}")
    card = _agreement_table(c, d)
    if card is not None:
        sentence, head, cells = card
        lines += [
            "", r"\begin{table}[ht]", r"\centering", r"\caption{Judge agreement}",
            f"\\begin{{tabular}}{{{_agreement_spec(c, head)}}}",
            r"\toprule", " & ".join(_tex(h) for h in head) + r" \\", r"\midrule",
            *(" & ".join(_tex(v) for v in row) + r" \\" for row in cells),
            r"\bottomrule", r"\end{tabular}", r"\par\smallskip",
            r"{\footnotesize " + _tex(sentence) + r"\par}", r"\end{table}",
        ]  # fmt: skip
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- html
_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2em auto;
       max-width: 60em; padding: 0 1em; color: #222; line-height: 1.45;
       overflow-wrap: anywhere; }
div.table { overflow: auto; max-width: 100%; margin: 1em 0; }
div.table.tall { max-height: 70vh; border-bottom: 1px solid #ddd; }
div.table.tall thead th { position: sticky; top: 0; background: #fff; }
td.label span { display: inline-block; max-width: 22em; overflow: hidden;
                text-overflow: ellipsis; vertical-align: bottom; }
p.methods { font-size: 1.05em; }
table.judgestats { border-collapse: collapse; font-variant-numeric: tabular-nums; }
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


#: An HTML table with more rows than this scrolls inside the page, its header kept in view.
TALL_TABLE = 40


def _html_cell(key: str, value: str) -> str:
    """One table cell; a label is cut to the column with "…" and whole in its tooltip."""
    esc = html.escape
    if key == "label":
        return f'<td class="label" title="{esc(value)}"><span>{esc(value)}</span></td>'
    return f'<td class="{key}">{esc(value)}</td>'


#: The most groups an HTML report draws in its figure (more would be a figure hundreds of
#: inches tall and megabytes of PNG); the table lists every group whatever their number.
FIGURE_ROWS = 60


def _caption(c: _Content) -> str:
    """Caption of the figure: the markers it draws, and only those."""
    parts = ["Corrected rate (filled) with its interval"]
    if any(not math.isnan(r.naive) for r in c.rows):  # a judge alphabet may have no naive rate
        parts.append(" and the judge's naive rate (hollow)")
    if c.reference_name:
        parts.append(f"; crosses: the {html.escape(c.reference_name)}")
    return "".join(parts) + "."


def _html_agreement(c: _Content, d: int) -> list[str]:
    """Write the agreement section as HTML: a heading, its sentence and a lean table.

    No class per cell, so that thousands of groups stay small; a tall table scrolls.
    """
    card = _agreement_table(c, d)
    if card is None:
        return []
    esc = html.escape
    sentence, head, cells = card
    lead = _agreement_lead(c)
    label = ' class="label"'
    th = "".join(f'<th scope="col"{label if i == 0 and lead else ""}>{esc(h)}</th>'
                 for i, h in enumerate(head))  # fmt: skip
    body = ["<tr>" + "".join(_html_cell("label", v) if i == 0 and lead else f"<td>{esc(v)}</td>"
                             for i, v in enumerate(row)) + "</tr>" for row in cells]  # fmt: skip
    tall = len(cells) > TALL_TABLE
    return ['<h2 id="agreement">Judge agreement</h2>', f'<p class="agreement">{esc(sentence)}</p>',
            f'<div class="table{" tall" if tall else ""}">', '<table class="judgestats agreement">',
            f"<thead><tr>{th}</tr></thead>", "<tbody>", *body, "</tbody>", "</table>", "</div>"]


def _html(c: _Content, d: int, png: bytes | None, left_out: int | None = None) -> str:
    from .._version import __version__

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
        tds = "".join(_html_cell(k, v) for k, v in zip(keys, row, strict=True))
        body.append(f"<tr{cls}>{tds}</tr>")
    tall = len(c.rows) > TALL_TABLE
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
        *([f'<p class="size">{len(c.rows)} rows: the table scrolls, its header stays in view.</p>']
          if tall else []),
        f'<div class="table{" tall" if tall else ""}">',
        '<table class="judgestats">',
        f"<thead><tr>{head}</tr></thead>",
        "<tbody>",
        *body,
        "</tbody>",
        "</table>",
        "</div>",
    ]
    if c.rows_line:
        parts.append(f'<p class="rows">{esc(c.rows_line)}</p>')
    parts += _html_agreement(c, d)
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
            f"<figcaption>{_caption(c)}</figcaption>",
            "</figure>",
        ]
    elif left_out:
        parts.append(f'<p class="figure">No figure: {left_out} groups are more than one figure '
                     f"shows legibly (at most {FIGURE_ROWS}); the table lists them all.</p>")
    parts += [f"<footer>judgestats {esc(__version__)}</footer>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"
