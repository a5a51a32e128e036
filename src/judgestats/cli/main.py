"""The ``judgestats`` command's dispatcher: one parser with a sub-command each, and ``main()``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .._validation import JudgeStatsError
from .agreement import agreement_options, run_agreement
from .correct import correct_options, run_correct
from .options import CLIError, _Parser, cli_words
from .pairwise import pairwise_options, run_pairwise
from .plan import plan_options, run_plan
from .raters import raters_options, run_raters
from .report import report_options, run_report
from .sequential import monitor_options, next_batch_options, run_monitor, run_next_batch


@dataclass(frozen=True, slots=True)
class Command:
    """A sub-command: its name, help line and description, its options and what runs it.

    ``options(parser)`` adds the command's own flags to its sub-parser; ``run(args)`` returns
    the text to print (an error is a :class:`CLIError` or the API's named error, exit 2), which
    ``--out PATH`` (every command's) writes to a file instead, printing ``wrote(path, text)``.
    """

    name: str
    help: str
    description: str
    options: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], str]
    #: what ``--out PATH`` prints once the output is written there
    wrote: Callable[[str, str], str] = lambda path, text: f"wrote {path}\n"


#: The sub-commands of ``judgestats``, in the order ``--help`` lists them.
COMMANDS = (
    Command(
        "correct", "bias-corrected rate with a confidence interval",
        "Correct an LLM judge's positive rate for its errors (Rogan-Gladen) with an interval "
        "that accounts for the test and calibration samples.",
        correct_options, run_correct,
    ),
    Command(
        "plan",
        "how many human labels: calibration size, Algorithm 1 split, judge-vs-human regime",
        "Plan the calibration set. Modes: --width (smallest m for a target width), --pilot "
        "with --m and --p (the paper's Algorithm 1), --regime (theta range where the "
        "calibrated judge beats human-only labels).",
        plan_options, run_plan,
    ),
    Command(
        "report",
        "corrected rate of every model in one file, as a Markdown, LaTeX or HTML report",
        "Correct the judged rate of every group (model) of a file with one row per judged "
        "item: rows with a human label are the calibration set, rows without one the test set "
        "(or --split says which). Writes a table, a methods sentence and the warnings in "
        "force; HTML embeds the leaderboard figure.",
        report_options, run_report,
    ),
    Command(
        "next-batch", "the items to send to humans next, with their inclusion probabilities",
        "Draw the next round of items to label from the judged pool, given the labels so "
        "far. Writes the rows to label (item, round, draw, inclusion_probability, strategy, "
        "seed, and an empty human column to fill in).",
        next_batch_options, run_next_batch,
        lambda path, text: f"wrote {max(text.count(chr(10)) - 1, 0)} items to label to {path}\n",
    ),
    Command(
        "monitor",
        "the current anytime-valid interval from the labels so far, and whether to stop",
        "Replay the labels so far round by round and print each group's confidence-sequence "
        "interval (valid at every look), the labels used and whether the target width is "
        "reached.",
        monitor_options, run_monitor,
    ),
    Command(
        "agreement", "how well the judge agrees with the humans (rates, PPV/NPV, kappa, AC1)",
        "The judge-agreement card of a calibration file (one row per item with a human and a "
        "judge label): the judge x human table, per-class rates with exact (Clopper-Pearson) "
        "intervals, and PPV/NPV, Cohen's kappa and Gwet's AC1 where the design makes them "
        "estimable.",
        agreement_options, run_agreement,
    ),
    Command(
        "pairwise",
        "a leaderboard from pairwise judge verdicts, corrected with human-labelled pairs",
        "Fit Davidson's Bradley-Terry model with ties to pairwise verdicts: one row per "
        "comparison (model_a, model_b, the judge's verdict a/tie/b, and the human verdict on "
        "the calibration pairs, empty elsewhere). Prints the leaderboard with intervals, rank "
        "sets, and the naive and human-only fits beside it.",
        pairwise_options, run_pairwise,
    ),
    Command(
        "raters",
        "several human raters per item: their agreement, the alternative annotator test, the "
        "latent-class fit, and the rate against a chosen human reference",
        "A long file, one row per (item, rater) rating with the judge's label of the item. "
        "agreement: Krippendorff's alpha and Fleiss' kappa with intervals, the judge against "
        "each rater and the majority; alt-test: can the judge replace a rater; latent: "
        "Dawid-Skene with the judge as one more rater; correct: every group's rate against "
        "--reference rater (a single rater's label), majority or latent.",
        raters_options, run_raters,
    ),
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser (exposed for tests and docs): one sub-parser per command."""
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
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help, description=command.description)
        command.options(p)
        p.add_argument("--out", metavar="PATH", help="write the output to this file")
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
    command: Any = next(c for c in COMMANDS if c.name == args.command)
    try:
        text = command.run(args)
        if args.out:
            text = _write(args.out, text, command)
    except (CLIError, JudgeStatsError) as exc:  # one line: the error (notes wait for a run)
        return _fail(exc, as_json=getattr(args, "json", False))
    _notes(args)
    print(text, end="")
    return 0


def _notes(args: argparse.Namespace) -> None:
    """Print the run's notes (an old flag's deprecation) on stderr, one line each.

    Only after a run that succeeds: an error is one line, whatever the flags' spelling.
    """
    for note in getattr(args, "notes", None) or ():
        print(f"judgestats: note: {note}", file=sys.stderr)


def _write(path: str, text: str, command: Command) -> str:
    """Write a command's output to ``--out PATH``; return what to print instead."""
    try:
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    except OSError as exc:
        raise CLIError(f"cannot write {path}: {exc.strerror}") from exc
    return command.wrote(path, text)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
