"""``report()``: a result rendered as a table, one methods sentence and the notes in force.

The entry point of the package: it checks the format, builds the content (:mod:`.content`) and
writes it with :mod:`.formats` (and :mod:`.figure` for HTML). Every result's ``report()``
method (:class:`judgestats.results.Reportable`) calls :func:`report`, found by name on first
use (:data:`judgestats.results.RENDERER`).
"""

from __future__ import annotations

from typing import Any

from .._validation import (
    ArgumentTypeError,
    check_bool,
    check_choice,
    check_positive_int,
)
from .content import _content
from .figure import _figure_png
from .formats import FIGURE_ROWS, _html, _latex, _markdown
from .pairwise import PAIRWISE_KIND, pairwise_report
from .rows import _check_text, _kind

__all__ = [
    "FORMATS",
    "report",
]


#: Output formats of :func:`report`.
FORMATS: tuple[str, ...] = ("markdown", "latex", "html")


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
    inputs: Any = (),
) -> str:
    """Render a result as a report: methods sentence, table, notes (and figure for HTML).

    Parameters
    ----------
    result : Correction, StratifiedCorrection, Evaluation or PairwiseLeaderboard
        What to report. An Evaluation gives one row per group, a StratifiedCorrection one row
        per stratum plus the pooled row, a Correction one row, a pairwise leaderboard one row
        per model by rank and its judge's confusion (:mod:`judgestats.report.pairwise`; only
        ``format``, ``title``, ``digits`` and ``figure`` apply to it).
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
        HTML: embed the leaderboard figure (:func:`plot_leaderboard`) as a PNG; an Evaluation
        of more than 60 groups gets none (a sentence says so) and a table that scrolls.
    reference : mapping, optional
        Known true rates by row label (e.g. the human rate of all rows of a bundled data set),
        shown as a column named ``reference_name`` and as black crosses in the figure.
    reference_name : str, default "human rate"
        The column's header.
    inputs : sequence of str, default ()
        Lines on where the rows came from, shown before any statistics (a join of human
        labels: :meth:`judgestats.readers.LabelJoin.summary`; a reader's invalid verdicts).

    Returns
    -------
    str
        The document (Markdown, a LaTeX fragment, or a standalone HTML page).

    Examples
    --------
    >>> import judgestats as js
    >>> res = js.correct(js.JudgedCounts(positive=600, n=1000),
    ...                  js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
    ...                  method="adjusted-wald", confidence_level=0.95)
    >>> text = js.report.report(res, "markdown", figure=False)
    >>> for line in text.splitlines()[:3]:
    ...     print(line)  # doctest: +NORMALIZE_WHITESPACE
    ## Corrected accuracy
    <BLANKLINE>
    Accuracy is 0.50 (95% CI 0.42–0.58), corrected for the judge's sensitivity 0.90 and specificity
    0.70 estimated on 400 human-labelled items (design 'by-human-label'; adjusted-Wald interval; Lee
    et al., 2026); the judge's uncorrected rate on 1000 test items is 0.60.
    >>> js.report.report(res, "html", figure=False).startswith("<!DOCTYPE html>")
    True
    """
    if getattr(type(result), "kind", None) == PAIRWISE_KIND:
        rate_only = {"metric": metric != "accuracy", "label": label is not None,
                     "strata_name": strata_name is not None, "sort": sort is not True,
                     "reference": reference is not None, "inputs": bool(inputs)}  # fmt: skip
        return _pairwise(result, format, title, digits, figure, rate_only)
    if getattr(result, "reference", None) is not None:  # evaluate(rater=): report/raters.py
        from .raters import rater_report

        return rater_report(result, format, digits=digits, title=title)
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
        inputs=[_check_text("inputs", line) for line in inputs],
    )  # fmt: skip
    if format == "markdown":
        return _markdown(content, digits)
    if format == "latex":
        return _latex(content, digits)
    ranking = result.ranking if _kind(result) == "evaluation" else None
    many = len(result) if _kind(result) == "evaluation" and len(result) > FIGURE_ROWS else None
    png = _figure_png(result, ranking=ranking, reference=reference) if figure and not many else None
    return _html(content, digits, png, left_out=many if figure else None)


def _pairwise(board: Any, format: str, title: Any, digits: Any, figure: Any,
              rate_only: dict) -> str:  # fmt: skip
    """Check the options that apply to a pairwise leaderboard and write its report."""
    given = [name for name, set_ in rate_only.items() if set_]
    if given:
        raise ArgumentTypeError(
            f"{', '.join(given)} apply to corrected rates, not to a pairwise leaderboard "
            "(its options are format, title, digits and figure)"
        )
    check_choice("format", format, FORMATS)
    if title is not None:
        _check_text("title", title)
    digits = check_positive_int("digits", digits, minimum=1)
    return pairwise_report(board, format, title=title, digits=digits,
                           figure=check_bool("figure", figure))  # fmt: skip

