"""The output formats of a report: Markdown, LaTeX (booktabs) and a standalone HTML page.

Each takes the same content (the methods sentence, the rows, the notes) and writes it in its
format; escaping rules are each format's own.
"""

from __future__ import annotations

import base64
import html
import math
from typing import Any

from .agreement import agreement_cells, agreement_sentence
from .rows import _TEXT_COLUMNS, _capital, _cells, _Content, _level_text
from .tables import html_table, latex_tabular, markdown_table, md_escape, tex


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


#: The judge-shift section (``evaluate(batch=)``): its heading and its columns' alignment
#: (label, test, T, p, shifted, largest change, interval, advice).
_SHIFT_TITLE = "Judge shift between calibration batches"
_SHIFT_SPEC = "lllrrllrl"  # group, batches, test, T, p, shifted, change, interval, advice


# ---------------------------------------------------------------------------- markdown
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


def _unit_words(c: _Content) -> str:
    """Where items repeat, say that the counts are rows and the intervals count items."""
    return (" (items repeat: these count rows; the intervals count each item once)"
            if c.unit == "rows" else "")  # fmt: skip


def _estimate_words(estimator: str) -> str:
    """Say the corrected column's estimate: ``Rogan–Gladen estimate`` (a jury's says its own)."""
    return estimator if estimator.endswith(("estimate", "estimates")) else f"{estimator} estimate"


def _markdown(c: _Content, d: int) -> str:
    names = _column_names(c)
    keys, cells = _cells(c, d, "–")
    lines = [f"## {md_escape(c.title)}", ""]
    lines += [part for line in c.inputs for part in (md_escape(line), "")]
    lines += [md_escape(c.sentence), ""]
    align = "".join("l" if k in _TEXT_COLUMNS else "r" for k in keys)
    lines += markdown_table([names[k] for k in keys], cells, align)
    naive = "naive = judged rate; " if "naive" in keys else ""
    rates = ("sensitivity and specificity of the judge on " if "sensitivity" in keys else "")
    lines += [
        "",
        f"Columns: n test {c.unit}; {naive}corrected = {_estimate_words(c.estimator)}; {rates}m1 "
        f"human-positive and m0 human-negative calibration {c.unit}{_unit_words(c)}.",
    ]
    if c.rows_line:
        lines += ["", md_escape(c.rows_line)]
    card = _agreement_table(c, d)
    if card is not None:
        sentence, head, cells = card
        lines += ["", "### Judge agreement", "", md_escape(sentence), ""]
        lines += markdown_table(head, cells, _agreement_spec(c, head))
    for sec in c.judges:  # a judge score's, a jury's (.judges)
        lines += ["", f"### {sec.title}", "", md_escape(sec.sentence), ""]
        lines += markdown_table(sec.head, sec.cells, sec.spec)
    if c.judge_shift is not None:
        sentence, head, cells = c.judge_shift
        lines += ["", f"### {_SHIFT_TITLE}", "", md_escape(sentence), ""]
        lines += markdown_table(head, cells, _SHIFT_SPEC)
    if c.notes:
        lines += ["", "**Notes**", ""] + [f"- {md_escape(n)}" for n in c.notes]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- latex
def _latex(c: _Content, d: int) -> str:
    from .._version import __version__

    names = {
        "label": tex(_capital(c.label_header or "")),
        "n": "$n$",
        "naive": r"Naive $\hat{p}$",
        "corrected": r"Corrected $\hat{\theta}$",
        "ci": f"{tex(_level_text(c.level))} CI",
        "sensitivity": r"Sens.\ $\hat{q}_1$",
        "specificity": r"Spec.\ $\hat{q}_0$",
        "m0": "$m_0$",
        "m1": "$m_1$",
        "p_rank1": r"$P(\text{rank } 1)$",
        "reference": tex(c.reference_name or ""),
        "clipped": "Clipped",
        "warning": "Warning",
    }
    keys, cells = _cells(c, d, "–")
    spec = "".join("l" if k in _TEXT_COLUMNS else "r" for k in keys)
    lines = [
        f"% judgestats {__version__} report; needs \\usepackage{{booktabs}} (and amsmath for "
        "P(rank 1))",
        *[tex(line) + r"\par" for line in c.inputs],
        tex(c.sentence),
        "",
        r"\begin{table}[ht]",
        r"\centering",
        f"\\caption{{{tex(c.title)}}}",
        *latex_tabular([names[k] for k in keys], cells, spec, tex_head=True),
    ]
    if c.rows_line:
        lines += [r"\par\smallskip", r"{\footnotesize " + tex(c.rows_line) + r"\par}"]
    if c.notes:
        lines += [
            r"\par\smallskip",
            r"{\footnotesize Notes: "
            + " ".join(tex(n if n.endswith(".") else n + ".") for n in c.notes)
            + r"\par}",
        ]
    lines.append(r"\end{table}")
    card = _agreement_table(c, d)
    if card is not None:
        sentence, head, cells = card
        lines += [
            "", r"\begin{table}[ht]", r"\centering", r"\caption{Judge agreement}",
            *latex_tabular(head, cells, _agreement_spec(c, head)), r"\par\smallskip",
            r"{\footnotesize " + tex(sentence) + r"\par}", r"\end{table}",
        ]  # fmt: skip
    for sec in c.judges:
        lines += [
            "", r"\begin{table}[ht]", r"\centering", f"\\caption{{{tex(sec.title)}}}",
            *latex_tabular(sec.head, sec.cells, sec.spec), r"\par\smallskip",
            r"{\footnotesize " + tex(sec.sentence) + r"\par}", r"\end{table}",
        ]  # fmt: skip
    if c.judge_shift is not None:
        sentence, head, cells = c.judge_shift
        lines += [
            "", r"\begin{table}[ht]", r"\centering", f"\\caption{{{_SHIFT_TITLE}}}",
            *latex_tabular(head, cells, _SHIFT_SPEC), r"\par\smallskip",
            r"{\footnotesize " + tex(sentence) + r"\par}", r"\end{table}",
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

    def th(i: int, h: str) -> str:
        label = ' class="label"' if i == 0 and lead else ""
        return f'<th scope="col"{label}>{esc(h)}</th>'

    def td(i: int, v: str) -> str:
        return _html_cell("label", v) if i == 0 and lead else f"<td>{esc(v)}</td>"

    scroll = "table tall" if len(cells) > TALL_TABLE else "table"
    return ['<h2 id="agreement">Judge agreement</h2>', f'<p class="agreement">{esc(sentence)}</p>',
            *html_table(head, cells, table_class="judgestats agreement", scroll=scroll, th=th,
                        td=td)]  # fmt: skip


_LEFT = ' style="text-align: left"'


def _html_section(sec: Any) -> list[str]:
    """Write a judge section (:mod:`.judges`): heading, sentence, table (text cells left)."""
    esc = html.escape

    def th(i: int, h: str) -> str:
        return f'<th scope="col"{_LEFT if sec.spec[i] == "l" else ""}>{esc(h)}</th>'

    def td(i: int, v: str) -> str:
        return f'<td{_LEFT if sec.spec[i] == "l" else ""}>{esc(v)}</td>'

    return [f'<h2 id="{sec.anchor}">{esc(sec.title)}</h2>',
            f'<p class="{sec.anchor}">{esc(sec.sentence)}</p>',
            *html_table(sec.head, sec.cells, table_class=f"judgestats {sec.anchor}",
                        scroll="table tall" if len(sec.cells) > TALL_TABLE else "table",
                        th=th, td=td)]  # fmt: skip


def _html(c: _Content, d: int, png: bytes | None, left_out: int | None = None) -> str:
    from .._version import __version__

    names = _column_names(c)
    tips = {
        "n": f"judged test {c.unit}",
        "naive": "the judge's uncorrected rate",
        "corrected": f"corrected rate ({_estimate_words(c.estimator)})",
        "sensitivity": "P(judge = 1 | human = 1) on the calibration set",
        "specificity": "P(judge = 0 | human = 0) on the calibration set",
        "m0": f"human-negative calibration {c.unit}",
        "m1": f"human-positive calibration {c.unit}",
    }
    esc = html.escape
    keys, cells = _cells(c, d, "–")

    def th(i: int, name: str) -> str:
        tip = f' title="{esc(tips[keys[i]])}"' if keys[i] in tips else ""
        return f'<th class="{keys[i]}" scope="col"{tip}>{esc(name)}</th>'

    tall = len(c.rows) > TALL_TABLE
    table = html_table([names[k] for k in keys], cells, table_class="judgestats",
                       scroll="table tall" if tall else "table", th=th,
                       td=lambda i, v: _html_cell(keys[i], v),
                       tr=[' class="pooled"' if r.total else "" for r in c.rows])  # fmt: skip
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
        *[f'<p class="inputs">{esc(line)}</p>' for line in c.inputs],
        f'<p class="methods">{esc(c.sentence)}</p>',
        *([f'<p class="size">{len(c.rows)} rows: the table scrolls, its header stays in view.</p>']
          if tall else []),
        *table,
    ]
    if c.rows_line:
        parts.append(f'<p class="rows">{esc(c.rows_line)}</p>')
    parts += _html_agreement(c, d)
    for sec in c.judges:
        parts += _html_section(sec)
    if c.judge_shift is not None:
        sentence, head, cells = c.judge_shift
        parts += ['<h2 id="judge-shift">' + _SHIFT_TITLE + "</h2>",
                  f'<p class="judge-shift">{esc(sentence)}</p>',
                  *html_table(head, cells, table_class="judgestats judge-shift",
                              scroll="table tall" if len(cells) > TALL_TABLE else "table")]
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
