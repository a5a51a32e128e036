"""The ``judgestats`` command's dispatcher: one parser with a sub-command each, and ``main()``."""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from .._validation import JudgeStatsError
from .agreement import _agreement_parser, run_agreement
from .correct import _correct_parser, _run_correct
from .options import CLIError, _Parser, cli_words
from .pairwise import _pairwise_parser, run_pairwise
from .plan import _plan_parser, _plan_text, _run_plan
from .report import _report_parser, _run_report
from .sequential import _sequential_parsers, run_sequential
from .table import _accounting, _table


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser (exposed for tests and docs)."""
    from .._version import __version__

    parser = _Parser(
        prog="judgestats",
        description="Honest LLM-as-a-judge numbers: correct a judge's positive rate for its "
        "errors with a small human-labelled calibration set, with an interval that accounts "
        "for both samples (correct); size the calibration set (plan); report a whole "
        "leaderboard (report); label in rounds with an interval valid at every look (next-batch, "
        "monitor); how well the judge agrees with the humans (agreement); rank models from "
        "pairwise verdicts (pairwise).",
    )
    parser.add_argument("--version", action="version", version=f"judgestats {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _correct_parser(sub)
    _plan_parser(sub)
    _report_parser(sub)
    _sequential_parsers(sub)
    _agreement_parser(sub)
    _pairwise_parser(sub)
    return parser


def _fail(exc: Exception, *, as_json: bool) -> int:
    """Print an error as one line (JSON ``{error, type}`` with ``--json``); exit status 2."""
    if as_json:  # machine-readable, like the output it replaces
        kind = getattr(exc, "kind", None) or type(exc).__name__
        print(json.dumps({"error": str(exc), "type": kind}))
    else:
        print(f"judgestats: error: {cli_words(str(exc))}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``judgestats`` command; returns the exit status.

    Output piped into a reader that stops early (``judgestats ... | head -3``) ends the
    command quietly, with the status of a process ended by SIGPIPE (141), not a traceback.
    """
    try:
        return _main(argv)
    except BrokenPipeError:
        # Python would flush stdout again at exit and fail a second time: point it at devnull
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


def _main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser.parse_args(argv)
    except CLIError as exc:
        return _fail(exc, as_json="--json" in argv)
    try:
        if args.command == "plan":
            out = _run_plan(args)
            print(json.dumps(out, indent=2) if args.json else _plan_text(out))
            return 0
        if args.command == "agreement":
            print(run_agreement(args), end="")
            return 0
        if args.command == "pairwise":
            print(run_pairwise(args), end="")
            return 0
        if args.command in ("next-batch", "monitor"):
            print(run_sequential(args), end="")
            return 0
        if args.command == "report":
            text = _run_report(args)
            if args.out:
                try:
                    Path(args.out).write_text(text, encoding="utf-8")
                except OSError as exc:
                    raise CLIError(f"cannot write {args.out}: {exc.strerror}") from exc
                print(f"wrote {args.out}")
            else:
                print(text, end="")
            return 0
        if args.method is None:
            args.method = "adjusted-wald"
        title, rows = _run_correct(args)
    except (CLIError, JudgeStatsError) as exc:
        return _fail(exc, as_json=getattr(args, "json", False))
    accounting = getattr(args, "accounting", None)
    if args.json:
        payload = {
            "title": title,
            "method": args.method,
            "design": args.design,
            "confidence_level": args.confidence_level,
            "rows": rows,
        }
        if accounting:
            payload["input_rows"] = accounting
        if note := getattr(args, "note", None):
            payload["note"] = note
        print(json.dumps(payload, indent=2))
    else:
        print(_table(title, rows, args))
        if accounting:
            print(_accounting(accounting, args))
        if note := getattr(args, "note", None):
            print(textwrap.fill(note, width=100))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
