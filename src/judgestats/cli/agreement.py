"""``judgestats agreement FILE``: the judge-agreement card of a calibration file."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from .._validation import LabelError
from .inputs import _read_table
from .options import CLIError, _level, cli_words, column_list, design_option, renamed

#: Output formats of the command (text is the card's summary).
_FORMATS = ("text", "markdown", "latex", "html")


def agreement_options(p: Any) -> None:
    """Add ``agreement``'s options: the calibration file, its columns, design, test and format."""
    p.add_argument("file", help="calibration items: CSV, Parquet, JSON Lines or a JSON array")
    p.add_argument("--judge", dest="judge_column", default="judge", metavar="COLUMN",
                   help="judge label column (default judge)")  # fmt: skip
    p.add_argument("--human", dest="human_column", default="human", metavar="COLUMN",
                   help="human label column (default human)")  # fmt: skip
    renamed(p, "--judge-column", "--judge", "judge_column")
    renamed(p, "--human-column", "--human", "human_column")
    p.add_argument("--categories", action="store_true",
                   help="labels are categories (any values), not 0/1")  # fmt: skip
    p.add_argument("--judge-letters", action="store_true",
                   help="with --categories: the judge has its own alphabet (its observed "
                   "letters), e.g. scores 1-5 against pass/fail")  # fmt: skip
    design_option(p, "how the calibration items were chosen (default by-human-label)")
    p.add_argument("--test", metavar="FILE", default=None,
                   help="judged test items: PPV/NPV, kappa and AC1 derived through the "
                   "corrected rate (by-human-label) or the judged mix (by-judge-label)")
    p.add_argument("--by", metavar="COLUMN[,COLUMN]", default=None,
                   help="one card per stratum of these columns (comma-separated)")
    p.add_argument("--cluster", metavar="COLUMN", default=None,
                   help="item id column: rows sharing an id are one item (repeated items)")
    p.add_argument("--confidence-level", type=_level, default=0.95, help="default 0.95")
    p.add_argument("--format", choices=_FORMATS, default="text", help="default text")
    p.add_argument("--json", action="store_true", help="print JSON instead")


def _counts(frame: Any, args: Any, *, test: bool = False) -> Any:
    from ..counts import ConfusionCounts, JudgedCounts
    from ..counts.categories import CategoryCounts, ConfusionMatrix

    judge = frame[args.judge_column]
    if test:
        if args.categories:
            return CategoryCounts.from_labels(judge)
        return JudgedCounts.from_labels(judge)
    human = frame[args.human_column]
    cluster = None if args.cluster is None else frame[args.cluster]
    if args.categories:
        return ConfusionMatrix.from_labels(human=human, judge=judge, cluster=cluster,
                                           judge_labels="observed" if args.judge_letters
                                           else None)  # fmt: skip
    return ConfusionCounts.from_labels(human=human, judge=judge, cluster=cluster)


def _read(path: str, args: Any, columns: list[str]) -> Any:
    if not Path(path).exists():
        raise CLIError(f"no such file: {path}")
    labels = {} if args.categories else {c: False for c in columns[:2]}
    by = list(column_list(args.by) or ())
    try:
        frame = _read_table(path, labels, by[0] if by else None)
    except LabelError as exc:  # a bad label cell: say which file holds it
        raise CLIError(str(exc) if path in str(exc) else f"{path}: {exc}") from exc
    if not len(frame):
        raise CLIError(f"{path} has a header but no rows")
    missing = [c for c in columns + by if c not in frame.columns]
    if missing:
        raise CLIError(f"{path} has no column(s) {missing}; columns are {list(frame.columns)}")
    empty = [c for c in by if frame[c].isna().any()]
    if empty:
        raise CLIError(f"{path} has rows without a --by value in {empty} (an empty cell): "
                       "every row needs one; fill them or drop the rows")  # fmt: skip
    return frame


def run_agreement(args: Any) -> str:
    """Run ``judgestats agreement``; returns the text to print (or the path written)."""
    from ..agreement import agreement

    if args.judge_letters and not args.categories:
        raise CLIError("--judge-letters needs --categories")
    cols = [args.judge_column, args.human_column] + ([args.cluster] if args.cluster else [])
    frame = _read(args.file, args, cols)
    test_frame = None if args.test is None else _read(args.test, args, [args.judge_column])
    by = column_list(args.by)
    if by:
        cal: Any = {_label(k, by): _counts(g, args) for k, g in frame.groupby(list(by), sort=True)}
        test: Any = None if test_frame is None else {
            _label(k, by): _counts(g, args, test=True) for k, g in test_frame.groupby(list(by))}
    else:
        cal = _counts(frame, args)
        test = None if test_frame is None else _counts(test_frame, args, test=True)
    _warn_repeated_items(frame, args, by)
    card = _in_cli_words(agreement(cal, test, design=args.design,
                                   confidence_level=args.confidence_level))  # fmt: skip
    if args.json:
        text = json.dumps(_payload(card), indent=2, default=str) + "\n"
    elif args.format == "text":
        text = cli_words(card.summary()) + "\n"
    else:
        text = cli_words(card.report(args.format))
    return text


def _warn_repeated_items(frame: Any, args: Any, by: Any) -> None:
    """Warn on stderr where an item column repeats, --cluster is not given, and it matters.

    The guard rail of ``evaluate`` (:func:`judgestats.evaluate.counting.count_groups`), on the
    calibration rows alone: per stratum (``--by``), the calibration counted per item and
    :func:`judgestats.repeated.repeats_matter` on the design effect of θ̂'s calibration part,
    a test set of 10⁶ rows without repeats at the calibration's judged rate (n → ∞, as the
    card's "buys" sentence), and on the items' rows agreeing beyond chance.
    """
    if args.cluster is not None or args.categories:
        return
    from ..counts import ConfusionCounts, JudgedCounts
    from ..designs import as_design
    from ..evaluate.counting import ITEM_COLUMNS
    from ..frames import repeating_column
    from ..repeated import cluster_summary, repeats_matter

    column = repeating_column(frame, ITEM_COLUMNS,
                              (args.judge_column, args.human_column, *(by or ())))  # fmt: skip
    if column is None:
        return
    design, found = as_design(args.design), []
    groups = frame.groupby(list(by), sort=True) if by else [(None, frame)]
    for key, g in groups:
        human, judge = g[args.human_column].to_numpy(int), g[args.judge_column].to_numpy(int)
        cal = ConfusionCounts.from_labels(human=human, judge=judge, cluster=g[column].to_numpy())
        if design.needs_both_classes and not cal.has_both_classes:
            continue
        n = 1_000_000
        test = JudgedCounts(round(n * (cal.tp + cal.fp) / cal.m), n)
        totals = cal.clusters
        assert totals is not None  # counted with cluster=
        cells = np.zeros((totals.size, 9), dtype=np.int64)
        cells[:, 2:6] = totals.totals[:, [totals.fields.index(f) for f in ("tn", "fp", "fn", "tp")]]
        summary = cluster_summary(test, cal, design, "rows")
        if repeats_matter(summary, cells):
            found.append((summary.theta_design_effect,
                          "" if key is None else f", in {','.join(by)}={_label(key, by)!r}"))
    if found:
        effect, where = max(found, key=lambda f: (f[0] == f[0], f[0] if f[0] == f[0] else 0.0))
        size = f"up to {effect:.2f}" if effect == effect else "undefined (every rate 0 or 1)"
        sys.stderr.write(
            f"warning: column {column!r} identifies items that repeat, and --cluster was not "
            f"given: the intervals count rows as independent items and are too short (design "
            f"effect on the corrected rate's variance {size}{where}); pass --cluster {column}\n"
        )


def _in_cli_words(card: Any) -> Any:
    """Return the card with its notes' advice in the command's words (``--test FILE``)."""
    from dataclasses import replace

    def said(c: Any) -> Any:
        return replace(c, notes=tuple(n.replace("pass test=", "pass --test FILE")
                                      for n in c.notes))  # fmt: skip

    strata = None if card.strata is None else {k: said(s) for k, s in card.strata.items()}
    return replace(said(card), strata=strata)


def _label(key: Any, by: tuple[str, ...]) -> str:
    """Return a stratum's label: its value, or its values joined by " / " (several columns)."""
    from ..results import group_label

    return group_label(key if len(by) > 1 else key[0] if isinstance(key, tuple) else key)


def _records(card: Any) -> list[dict]:
    """Return the card's figures as JSON-ready rows (NaN as null)."""
    rows = card.to_dataframe().to_dict(orient="records")
    return [{k: None if isinstance(v, float) and v != v else v for k, v in r.items()}
            for r in rows]  # fmt: skip


def _payload(card: Any) -> dict:
    rows = _records(card)
    return {"design": card.design, "confidence_level": card.confidence_level,
            "labels": list(card.labels), "judge_labels": list(card.judge_labels),
            "counts": card.counts.tolist(), "figures": rows, "buys": card.buys,
            "notes": list(card.notes),
            "strata": None if card.strata is None else {
                k: _records(s) for k, s in card.strata.items()}}
