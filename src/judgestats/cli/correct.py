"""``judgestats correct``: corrected rates from counts, label files or a bundled example."""

from __future__ import annotations

import json
import textwrap
from typing import Any

from .._validation import LabelError
from ..evaluate.scores import takes_scores
from ..spec import EstimationSpec, resolve_spec
from .inputs import _rows_from_counts, _rows_from_example, _rows_from_files
from .judges import (
    check_judge_flags,
    judge_options,
    judges_given,
    rows_from_judges,
    rows_from_jury_example,
    several_judges,
)
from .options import _COUNT_HELP, EXAMPLES, CLIError, _check_flags, _shared_options, label_columns
from .table import _accounting, _table, rows_csv


def correct_options(c: Any) -> None:
    """Add ``correct``'s options: one data source (files, counts, an example) and the method."""
    src = c.add_argument_group("data (one of: files, counts, --example)")
    src.add_argument(
        "--test", metavar="FILE",
        help="test items with judge labels (CSV, Parquet, JSON Lines or a JSON array; CSV and "
        "JSON may be gzip-compressed)",
    )  # fmt: skip
    src.add_argument(
        "--calibration", metavar="FILE", help="calibration items with human and judge labels"
    )
    src.add_argument("--example", choices=EXAMPLES, help="run on a bundled real data set")
    for k, what in _COUNT_HELP.items():
        src.add_argument(f"--{k}", type=int, metavar="N", help=what)
    c.add_argument("--by", metavar="COLUMN[,COLUMN]",
                   help="correct each group of these columns (comma-separated) separately")
    c.add_argument("--cluster", metavar="COLUMN",
                   help="files: item id column of both files; rows sharing an id are one item "
                   "(repeated items: epochs, several scorers), counted once each")  # fmt: skip
    _shared_options(c, what="the")
    judge_options(c)
    out = c.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON instead of a table")
    out.add_argument("--csv", action="store_true",
                     help="print the rows as CSV (one column per field: the estimator, method, "
                     "design, calibrator, effective labels, a jury's weight[NAME], ...)")


def correction_spec(args: Any) -> EstimationSpec:
    """Resolve ``--design``, ``--method`` and ``--confidence-level`` once (the API's errors).

    No ``--method`` gives the capability table's default for the design.
    """
    return resolve_spec(judge="letter", target="rate", design=args.design, method=args.method,
                        confidence_level=args.confidence_level, method_optional=True,
                        repeated=getattr(args, "cluster", None) is not None)  # fmt: skip


def _rows(args: Any) -> tuple[str, list[dict]]:
    files = args.test is not None or args.calibration is not None
    counts = any(getattr(args, k) is not None for k in ("positive", "n", "tp", "fn", "tn", "fp"))
    modes = sum([files, counts, args.example is not None])
    if modes != 1:
        raise CLIError(
            "give exactly one data source: --test/--calibration files, counts, or --example"
        )
    if files and judges_given(args):  # several judges, a score's flags: js.evaluate decides
        return _judged_files(args)
    if args.example == "chatbot-arena" and several_judges(args):  # the bundled two: a jury
        _check_flags(args, f"--example {args.example}", ("calibration_fraction", "judge"))
        check_judge_flags(args, f"--example {args.example}")
        return rows_from_jury_example(args)
    spec = correction_spec(args)
    args.method, args.design = spec.method, spec.design  # the table's header and JSON say them
    if args.example:
        check_judge_flags(args, f"--example {args.example}")
        allowed = ("calibration_fraction",) + (("judge",) if args.example == "chatbot-arena"
                                               else ())  # fmt: skip
        _check_flags(args, f"--example {args.example}", allowed)
        label_columns(args, example=True)
        return _rows_from_example(args, spec)
    if counts:
        _check_flags(args, "count mode (--positive --n --tp --fn --tn --fp)", ())
        check_judge_flags(args, "count mode (--positive --n --tp --fn --tn --fp)")
        return _rows_from_counts(args, spec)
    if args.test is None or args.calibration is None:
        raise CLIError("file mode needs both --test and --calibration")
    _check_flags(args, _FILES, _FILE_FLAGS)
    label_columns(args, example=False)
    try:
        return _rows_from_files(args, spec)
    except LabelError as exc:  # a judge column of numbers not all 0/1: a score, where allowed
        if f"column {args.judge_column!r}" not in str(exc):
            raise
        if not takes_scores(spec.design, args.cluster is not None):
            raise CLIError(f"{exc}; if the judge's outputs are a numeric score: --design random "
                           "(the prediction-powered mean), or score bins declared before "
                           "labelling (--bins EDGES)", "LabelError") from exc  # fmt: skip
        args.method = args.method_given  # the score's spec is evaluate's to resolve
        return _judged_files(args)


_FILES = "--test/--calibration files"
_FILE_FLAGS = ("by", "judge", "judge_column", "human", "human_column", "cluster")


def _judged_files(args: Any) -> tuple[str, list[dict]]:
    """Two files with a judge score, several judges or covariates: ``js.evaluate``'s rows."""
    _check_flags(args, _FILES, _FILE_FLAGS)
    label_columns(args, example=False)
    return rows_from_judges(args)


def run_correct(args: Any) -> str:
    """Run ``judgestats correct``; returns the table (or JSON) to print."""
    args.method_given = args.method
    title, rows = _rows(args)
    accounting = getattr(args, "accounting", None)
    note = getattr(args, "note", None)
    if args.json:
        payload = {"title": title, "method": args.method, "design": args.design,
                   "confidence_level": args.confidence_level, "rows": rows}  # fmt: skip
        if accounting:
            payload["input_rows"] = accounting
        if note:
            payload["note"] = note
        if getattr(args, "judge_summary", None):
            payload["judge"] = args.judge_summary
        return json.dumps(payload, indent=2) + "\n"
    if getattr(args, "csv", False):
        return rows_csv(rows, args)
    parts = [_table(title, rows, args)]
    if accounting:
        parts.append(_accounting(accounting, args))
    if note:
        parts.append(textwrap.fill(note, width=100))
    return "\n".join(parts) + "\n"
