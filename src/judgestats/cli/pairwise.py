"""``judgestats pairwise``: a corrected leaderboard from a file of pairwise verdicts."""

from __future__ import annotations

import json
import math
from typing import Any

from ..designs import RANDOM
from ..pairwise.leaderboard import designs, methods
from ..pairwise.prediction_powered import PREDICTIONS
from ..pairwise.tables import leaderboard_rows
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
    p.add_argument("--prediction", default="judge-letter", metavar="WHAT",
                   help=f"ppi's prediction of the human verdict: {' or '.join(PREDICTIONS)} "
                   "(default judge-letter), a column (a/tie/b verdicts, or a number: "
                   "P(model_a wins)), a jury COL,COL,..., or a judge's verdict distribution "
                   "a=COL,tie=COL[,b=COL]")  # fmt: skip
    p.add_argument("--covariates", default=None, metavar="COL[,COL]",
                   help="pair-level columns that sharpen the prediction only (numbers, or text "
                   "read as categories); the strengths stay the human-vote strengths")  # fmt: skip
    p.add_argument("--control", default=None, metavar="COL[,COL]",
                   help="style control: numeric columns of model_a's value minus model_b's; "
                   "the strengths are net of them (each control's coefficient and interval "
                   "shown)")  # fmt: skip
    p.add_argument("--confidence-level", type=_level, default=0.95, help="default 0.95")
    p.add_argument("--seed", type=int, default=None, help="seed of the rank draws")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON instead of text")
    out.add_argument("--csv", action="store_true",
                     help="print CSV: a row per model; the fit, predictors, covariates and each "
                     "control's control[NAME] coefficient and interval as columns")  # fmt: skip
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


def _columns(value: str | None, columns: Any) -> list[str] | None:
    """Split ``COL[,COL]`` (a name that is itself a column is kept whole)."""
    if value is None:
        return None
    return [value] if value in columns else [c.strip() for c in value.split(",")]


def _prediction(value: str, columns: Any) -> Any:
    """Read ``--prediction``: a name, a column, a jury ``COL,COL`` or ``a=COL,tie=COL[,b=COL]``.

    Entries ``KEY=COL`` make one verdict distribution (the API checks its keys); the others are
    columns. The API's own errors name a missing column or a bad key.
    """
    if value in PREDICTIONS or value in columns or ("," not in value and "=" not in value):
        return value
    entries = [e.strip() for e in value.split(",")]
    shares = dict(e.split("=", 1) for e in entries if "=" in e)
    plain = [e for e in entries if "=" not in e]
    if not shares:
        return plain[0] if len(plain) == 1 else plain
    return dict(shares) if not plain else [*plain, dict(shares)]


def _numbers(frame: Any, named: list) -> None:
    """Read as numbers the named columns whose every filled cell is one (the file's text).

    A probability, a control or a numeric covariate arrives as text from a CSV; verdict and
    category columns stay text (the API then says what it expected of each).
    """
    import pandas as pd

    def names(value: Any) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [v for v in value.values() if isinstance(v, str)]
        return [n for v in value or () for n in names(v)]

    for column in dict.fromkeys(n for value in named for n in names(value)):
        if column not in frame.columns or pd.api.types.is_numeric_dtype(frame[column]):
            continue
        cells = frame[column].astype(object)
        text = cells.where(cells.notna() & (cells.astype(str).str.strip() != ""))
        values = pd.to_numeric(text, errors="coerce")
        if values.notna().sum() == text.notna().sum() and values.notna().any():
            frame[column] = values.astype(float)


def run_pairwise(args: Any) -> str:
    """Run ``judgestats pairwise``; returns the text to print."""
    from ..pairwise.leaderboard import pairwise

    frame = _read_pairs(args)
    prediction = _prediction(args.prediction, frame.columns)
    covariates = _columns(args.covariates, frame.columns)
    control = _columns(args.control, frame.columns)
    _numbers(frame, [prediction, covariates, control])
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
            prediction=prediction,
            covariates=covariates,
            control=control,
            confidence_level=args.confidence_level,
            rng=args.seed,
        )
    if args.report is not None:  # the notes' advice in the command's words, as on stderr
        return cli_words(board.report(args.report))
    if args.csv:
        return _csv(board)
    if not args.json:
        return cli_words(board.summary()) + "\n"
    payload = {
        "estimator": board.estimator,
        "method": board.method,
        "interval": board.interval,
        "design": board.design,
        "confidence_level": board.confidence_level,
        "lambda": board.lam,
        "predictors": list(board.predictors),
        "covariates": list(board.covariates),
        "controls": _control_rows(board),
        "notes": list(board.notes),
        "rows": [_finite(r) for r in leaderboard_rows(board)],
    }
    return json.dumps(payload, indent=2) + "\n"


def _finite(row: dict) -> dict:
    """Return ``row`` with NaN (a fit not made) as None: JSON has no NaN."""
    return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in row.items()}


def _control_rows(board: Any) -> list[dict]:
    """Each style control's coefficient, standard error and interval (empty without)."""
    if not board.controls:
        return []
    rows = zip(board.controls, board.control_coefficient, board.control_se, board.control_ci,
               strict=True)  # fmt: skip
    return [{"control": str(name), "coefficient": float(coef), "se": float(se),
             "lower": float(ci[0]), "upper": float(ci[1])}
            for name, coef, se, ci in rows]  # fmt: skip


def _csv(board: Any) -> str:
    """Return CSV: a row per model; the fit and each control's coefficient and interval."""
    import csv
    import io

    fit = {"estimator": board.estimator, "method": board.method, "interval": board.interval,
           "design": board.design, "confidence_level": board.confidence_level,
           "predictors": "; ".join(board.predictors),
           "covariates": "; ".join(board.covariates)}  # fmt: skip
    for c in _control_rows(board):
        name = c.pop("control")
        fit.update({f"control[{name}]{'' if k == 'coefficient' else '_' + k}": v
                    for k, v in c.items()})  # fmt: skip
    rows = [{**_finite(r), **fit} for r in leaderboard_rows(board)]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
