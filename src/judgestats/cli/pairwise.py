"""``judgestats pairwise``: a corrected leaderboard from a file of pairwise verdicts."""

from __future__ import annotations

import json
from typing import Any

from ..designs import RANDOM
from ..pairwise.leaderboard import designs, methods
from ..pairwise.prediction_powered import PREDICTIONS
from .inputs import _pandas
from .options import CLIError, _level, cli_words, renamed, warnings_as_lines


def pairwise_options(p: Any) -> None:
    """Add ``pairwise``'s options: the pairs file, its columns, the design and the estimator."""
    p.add_argument("pairs", help="the pairs: CSV, Parquet, JSON Lines or a JSON array")
    for name in ("model_a", "model_b", "judge", "human"):
        flag = name.replace("_", "-")
        p.add_argument(f"--{flag}", dest=name, default=name, metavar="COLUMN",
                       help=f"column of {name} (default {name})")  # fmt: skip
        renamed(p, f"--{flag}-column", f"--{flag}", name)
    p.add_argument("--position", dest="position", default=None, metavar="COLUMN",
                   help="column saying which model was shown first (a or b)")  # fmt: skip
    renamed(p, "--position-column", "--position", "position")
    p.add_argument("--cluster", default=None, metavar="COLUMN",
                   help="column of a cluster id (e.g. the prompt): rows sharing it are one "
                   "sampling unit (ppi only)")  # fmt: skip
    p.add_argument("--design", choices=designs(), default=str(RANDOM),
                   help="how the calibration pairs were chosen (default random)")  # fmt: skip
    p.add_argument("--method", choices=methods(), default=None,
                   help="ppi (default) or joint-mle (default under by-human-label)")  # fmt: skip
    p.add_argument("--prediction", choices=PREDICTIONS, default="judge-letter",
                   help="ppi's prediction of the human verdict (default judge-letter)")  # fmt: skip
    p.add_argument("--confidence-level", type=_level, default=0.95, help="default 0.95")
    p.add_argument("--seed", type=int, default=None, help="seed of the rank draws")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON instead of text")
    out.add_argument("--report", choices=("markdown", "latex", "html"), default=None,
                     help="print the leaderboard's report in this format instead of text "
                     "(html: a standalone page with the figure)")  # fmt: skip


def _read_pairs(args: Any) -> Any:
    """Read the pairs with the package's reader; name a human cell that stands for a missing one.

    Only an empty cell marks a pair without a human verdict: ``NA`` or ``NaN`` written in the
    human column is refused with what to do (a verdict called NA is no verdict).
    """
    from ..io import MISSING_WORDS, read_table

    _pandas()
    frame = read_table(args.pairs)
    if not len(frame):
        raise CLIError(f"{args.pairs} has a header but no pairs (no rows)")
    roles = (("--model-a", args.model_a), ("--model-b", args.model_b), ("--judge", args.judge),
             ("--human", args.human), ("--position", args.position),
             ("--cluster", args.cluster))  # fmt: skip
    missing = [f"{column!r} ({flag} names it)" for flag, column in roles
               if column is not None and column not in frame.columns]  # fmt: skip
    if missing:
        raise CLIError(f"{args.pairs} has no column {', '.join(missing)}; its columns are "
                       f"{list(frame.columns)}")  # fmt: skip
    if args.human in frame.columns:
        human = frame[args.human]
        words = human.map(lambda v: isinstance(v, str) and v.strip().lower() in MISSING_WORDS)
        if words.any():
            first = human[words].iloc[0]
            raise CLIError(
                f"{args.pairs}: the human column {args.human!r} holds {first!r} on "
                f"{int(words.sum())} row(s), a missing value in R's or pandas' words; only an "
                "empty cell marks a pair without a human verdict (so that no verdict is read "
                "from a word): empty those cells"
            )
    return frame


def run_pairwise(args: Any) -> str:
    """Run ``judgestats pairwise``; returns the text to print."""
    from ..pairwise.leaderboard import pairwise

    frame = _read_pairs(args)
    with warnings_as_lines():  # one line each, as the other commands say them
        board = pairwise(
            frame,
            model_a=args.model_a,
            model_b=args.model_b,
            judge=args.judge,
            human=args.human,
            position=args.position,
            cluster=args.cluster,
            design=args.design,
            method=args.method,
            prediction=args.prediction,
            confidence_level=args.confidence_level,
            rng=args.seed,
        )
    if args.report is not None:  # the notes' advice in the command's words, as on stderr
        return cli_words(board.report(args.report))
    if not args.json:
        return cli_words(board.summary()) + "\n"
    frame = board.to_dataframe()
    payload = {
        "estimator": board.estimator,
        "method": board.method,
        "interval": board.interval,
        "design": board.design,
        "confidence_level": board.confidence_level,
        "lambda": board.lam,
        "notes": list(board.notes),
        "rows": json.loads(frame.to_json(orient="records")),
    }
    return json.dumps(payload, indent=2) + "\n"

