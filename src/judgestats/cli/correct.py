"""``judgestats correct``: corrected rates from counts, label files or a bundled example."""

from __future__ import annotations

from typing import Any

from .inputs import _rows_from_counts, _rows_from_example, _rows_from_files
from .options import _COUNT_HELP, EXAMPLES, CLIError, _check_flags, _shared_options


def _correct_parser(sub: Any) -> None:
    c = sub.add_parser(
        "correct",
        help="bias-corrected rate with a confidence interval",
        description="Correct an LLM judge's positive rate for its errors (Rogan-Gladen) with an "
        "interval that accounts for the test and calibration samples.",
    )
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
    c.add_argument("--by", metavar="COLUMN", help="correct each group of this column separately")
    _shared_options(c, what="the")
    c.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _run_correct(args) -> tuple[str, list[dict]]:
    files = args.test is not None or args.calibration is not None
    counts = any(getattr(args, k) is not None for k in ("positive", "n", "tp", "fn", "tn", "fp"))
    modes = sum([files, counts, args.example is not None])
    if modes != 1:
        raise CLIError(
            "give exactly one data source: --test/--calibration files, counts, or --example"
        )
    if args.example:
        allowed = ("calibration_fraction",) + (("judge",) if args.example == "chatbot-arena"
                                               else ())  # fmt: skip
        _check_flags(args, f"--example {args.example}", allowed)
        return _rows_from_example(args)
    if counts:
        _check_flags(args, "count mode (--positive --n --tp --fn --tn --fp)", ())
        return _rows_from_counts(args)
    if args.test is None or args.calibration is None:
        raise CLIError("file mode needs both --test and --calibration")
    _check_flags(args, "--test/--calibration files", ("by", "judge_column", "human_column"))
    return _rows_from_files(args)
