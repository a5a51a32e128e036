"""The report of a pairwise leaderboard: methods sentence, ranked table, controls, confusion, notes.

A :class:`~judgestats.pairwise.PairwiseLeaderboard` (or its Bayesian twin) has no corrected
rate per row: its rows are models with a strength, an interval, a simultaneous rank set and
P(rank 1), beside the naive (judge taken as human) and human-only strengths. This module
writes them in the three formats of :func:`judgestats.report.report`, which calls it for
results whose ``kind`` is :data:`PAIRWISE_KIND`; the table writers are :mod:`.tables`' and the page
style :mod:`.formats`'.
"""

from __future__ import annotations

import base64
import html
import io
import math
from typing import Any

from ..pairwise.tables import leaderboard_rows
from .formats import _CSS
from .rows import _level_text
from .tables import html_table, latex_tabular, markdown_table, md_escape, tex

__all__ = ["PAIRWISE_KIND", "pairwise_report"]

#: ``kind`` of the results this module reports.
PAIRWISE_KIND = "pairwise-leaderboard"

_HEAD = ("rank", "rank set", "model", "strength", "interval", "Elo", "P(rank 1)", "naive",
         "human-only")  # fmt: skip
_TEXT = ("model",)


def _number(x: Any, d: int) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def _sentence(board: Any) -> str:
    level = _level_text(board.confidence_level)
    return (
        f"Strengths of {len(board.models)} models (log strengths, sum zero; Elo = 400/ln 10 "
        f"× strength) from {board.estimator}, on {board.n_judged} judge-only pairs and "
        f"{board.n_labelled} calibration pairs with a human verdict (design "
        f"'{board.design}'); {level} {board.interval} intervals; rank sets hold every model's "
        f"rank at once with probability ≥ {level} ({board.rank_method}); Davidson tie "
        f"parameter ν = {board.tie:.3f}."
    )


def _rows(board: Any, d: int, dash: str) -> list[list[str]]:
    out = []
    for r in leaderboard_rows(board):
        out.append([
            str(r["rank"]),
            f"{r['rank_best']}{dash}{r['rank_worst']}",
            str(r["model"]),
            _number(r["strength"], d),
            f"[{_number(r['strength_lower'], d)}, {_number(r['strength_upper'], d)}]",
            f"{r['elo']:.0f}",
            _number(r["p_rank_1"], d),
            _number(r["naive_strength"], d),
            _number(r["human_only_strength"], d),
        ])  # fmt: skip
    return out


def _confusion(board: Any, d: int) -> tuple[list[str], list[list[str]]]:
    head = ["judge letter / human", "a", "tie", "b"]
    pairs = zip(board.judge_labels, board.confusion, strict=True)
    rows = [[str(letter), *(_number(float(v), d) for v in values)] for letter, values in pairs]
    return head, rows


_CONTROL_HEAD = ("control", "coefficient", "SE", "interval")


def _inputs_line(board: Any) -> str | None:
    """Name the prediction's columns and the controls; None when the judge letter alone was used."""
    if not (board.predictors or board.covariates or board.controls):
        return None
    used = ", ".join(board.predictors) or "the judge letter"
    line = f"Prediction of the human verdict: {used}"
    if board.covariates:
        line += f", with covariates {', '.join(board.covariates)}"
    line += " (stacked by a cross-fitted multinomial logistic regression)."
    if board.controls:
        line += (
            f" Style control: the strengths are net of {', '.join(board.controls)} (each a "
            "value of model_a minus model_b; coefficient = change in the log-odds that model_a "
            "wins per unit; win probabilities at equal controls); the naive and human-only "
            "strengths have no controls."
        )
    return line


def _control_rows(board: Any, d: int) -> list[list[str]]:
    rows = zip(board.controls, board.control_coefficient, board.control_se, board.control_ci,
               strict=True)  # fmt: skip
    return [[str(name), _number(float(c), d), _number(float(se), d),
             f"[{_number(float(ci[0]), d)}, {_number(float(ci[1]), d)}]"]
            for name, c, se, ci in rows]  # fmt: skip


def _columns_line(board: Any) -> str:
    return (
        f"Columns: rank set simultaneous at {_level_text(board.confidence_level)}; strength "
        "and its interval from the corrected fit; naive = Davidson's fit to the judge's "
        "verdicts taken as human; human-only = Davidson's fit to the calibration pairs' human "
        "verdicts (– where not fitted). Judge confusion: P(judge letter | human verdict), "
        f"{board.confusion_kind}."
    )


def _markdown(board: Any, title: str, d: int) -> str:
    head, conf = _confusion(board, d)
    lines = [f"## {md_escape(title)}", "", md_escape(_sentence(board)), ""]
    lines += markdown_table(_HEAD, _rows(board, d, "–"), "".join("l" if h in _TEXT else "r"
                                                                 for h in _HEAD))  # fmt: skip
    lines += ["", md_escape(_columns_line(board)), ""]
    inputs = _inputs_line(board)
    if inputs is not None:
        lines += [md_escape(inputs), ""]
    if board.controls:
        lines += [*markdown_table(_CONTROL_HEAD, _control_rows(board, d), "lrrr"), ""]
    lines += markdown_table(head, conf, "l" + "r" * (len(head) - 1))
    if board.notes:
        lines += ["", "**Notes**", ""] + [f"- {md_escape(n)}" for n in board.notes]
    return "\n".join(lines) + "\n"


def _latex(board: Any, title: str, d: int) -> str:
    from .._version import __version__

    spec = "".join("l" if h in _TEXT else "r" for h in _HEAD)
    head, conf = _confusion(board, d)
    lines = [
        f"% judgestats {__version__} report; needs \\usepackage{{booktabs}}",
        tex(_sentence(board)),
        "",
        r"\begin{table}[ht]",
        r"\centering",
        f"\\caption{{{tex(title)}}}",
        *latex_tabular(_HEAD, _rows(board, d, "–"), spec),
        r"\par\smallskip",
    ]
    if board.controls:
        lines += [*latex_tabular(_CONTROL_HEAD, _control_rows(board, d), "lrrr"),
                  r"\par\smallskip"]  # fmt: skip
    lines += [
        *latex_tabular(head, conf, "lrrr"),
        r"\par\smallskip",
        r"{\footnotesize " + tex(_columns_line(board)) + r"\par}",
    ]
    inputs = _inputs_line(board)
    if inputs is not None:
        lines += [r"{\footnotesize " + tex(inputs) + r"\par}"]
    if board.notes:
        notes = " ".join(tex(n if n.endswith(".") else n + ".") for n in board.notes)
        lines += [r"{\footnotesize Notes: " + notes + r"\par}"]
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def _html_table(head: list[str], rows: list[list[str]]) -> str:
    return "".join(html_table(head, rows, table_class="judgestats", scroll="table",
                              th=lambda i, h: f'<th scope="col">{html.escape(h)}</th>'))


def _png(board: Any) -> str:
    import matplotlib.pyplot as plt

    fig = board.plot().figure  # plot() returns the strengths panel's Axes
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _html(board: Any, title: str, d: int, figure: bool) -> str:
    from .._version import __version__

    esc = html.escape
    head, conf = _confusion(board, d)
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f"<title>{esc(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
        f"<h1>{esc(title)}</h1>", f'<p class="methods">{esc(_sentence(board))}</p>',
        _html_table(list(_HEAD), _rows(board, d, "–")),
        f'<p class="columns">{esc(_columns_line(board))}</p>',
    ]  # fmt: skip
    inputs = _inputs_line(board)
    if inputs is not None:
        parts.append(f'<p class="columns">{esc(inputs)}</p>')
    if board.controls:
        parts += ["<h2>Style controls</h2>",
                  _html_table(list(_CONTROL_HEAD), _control_rows(board, d))]  # fmt: skip
    parts += ["<h2>Judge confusion</h2>", _html_table(head, conf)]
    if board.notes:
        parts += ["<h2>Notes</h2>", '<ul class="notes">']
        parts += [f"<li>{esc(n)}</li>" for n in board.notes] + ["</ul>"]
    if figure:
        alt = f"{title}: strengths with {_level_text(board.confidence_level)} intervals"
        parts += ['<figure class="leaderboard">',
                  f'<img alt="{esc(alt)}" src="data:image/png;base64,{_png(board)}">',
                  "<figcaption>Strengths with their intervals and rank sets (left); "
                  "P(rank = r) (right).</figcaption>", "</figure>"]  # fmt: skip
    parts += [f"<footer>judgestats {esc(__version__)}</footer>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def pairwise_report(board: Any, format: str, *, title: str | None, digits: int,
                    figure: bool) -> str:  # fmt: skip
    """Write a pairwise leaderboard as Markdown, a LaTeX fragment or a standalone HTML page.

    ``format``, ``title`` and ``digits`` are checked by :func:`judgestats.report.report`;
    the HTML page embeds the leaderboard's own figure (``board.plot()``) when ``figure``.
    """
    shown = title or "Pairwise leaderboard, corrected for the judge"
    if format == "markdown":
        return _markdown(board, shown, digits)
    if format == "latex":
        return _latex(board, shown, digits)
    return _html(board, shown, digits, figure)
