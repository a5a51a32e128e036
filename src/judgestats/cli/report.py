"""``judgestats report``: a whole leaderboard from a table, an example or Inspect AI logs.

Reads the frame (or Inspect logs joined with human labels), runs :func:`judgestats.evaluate`
with the command's estimation options (a judge alphabet with ``--letters``) and writes
:func:`judgestats.report.report`'s Markdown, LaTeX or HTML.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from .._validation import ColumnError, GroupLabelError, LabelError
from ..alphabets.letters import INVALID
from ..evaluate.scores import takes_scores
from ..spec import ESTIMANDS
from .inputs import _read_table, echo_guard_warnings
from .judges import judge_keywords, judge_options, to_score
from .options import (
    EXAMPLES,
    CLIError,
    _check_flags,
    _shared_options,
    cli_words,
    column_list,
    label_columns,
)
from .tools import SAMPLE, labels_file, tool_frame, tool_options, tool_reader


def report_options(rp: Any) -> None:
    """Add ``report``'s options: the data source, groups, strata, repeats, batches, format."""
    rp.add_argument(
        "file", nargs="?", metavar="FILE",
        help="judged items: CSV, Parquet, JSON Lines or a JSON array of objects (told by the "
        "content); CSV and JSON may be gzip-compressed (items.csv.gz)",
    )  # fmt: skip
    tool_options(rp)
    rp.add_argument("--example", choices=EXAMPLES, help="report on a bundled real data set")
    rp.add_argument("--by", default="model", metavar="COLUMN[,COLUMN]",
                    help="group column(s), comma-separated (default: model)")
    rp.add_argument("--strata", help="stratum column(s) within each group, comma-separated")
    rp.add_argument("--split", help="column of 'test'/'calibration' (default: human label missing)")
    rp.add_argument(
        "--cluster", metavar="COLUMN",
        help="FILE: column of the item each row judges, when items repeat (epochs, several "
        "answers per prompt, turns, raters): intervals then count items, not rows. --inspect "
        "logs with several epochs are clustered on the sample without it",
    )  # fmt: skip
    rp.add_argument(
        "--batch", metavar="COLUMN",
        help="FILE: column of each calibration row's batch (labelling round, judge version): "
        "each model's latest batch is tested against its earlier ones (js.judge_shift_test); "
        "the report shows each test (p, advice) and notes where the judge moved",
    )  # fmt: skip
    rp.add_argument(
        "--batch-choice", choices=("pool", "latest"), default="pool",
        help="with --batch: correct with every batch (default) or each model's latest only",
    )  # fmt: skip
    rp.add_argument(
        "--estimand", choices=ESTIMANDS, default="rows",
        help="with repeated items: the rate over rows (each verdict weight 1, the default) or "
        "over items (each item weight 1)",
    )  # fmt: skip
    rp.add_argument(
        "--engine",
        choices=("pandas", "polars", "duckdb"),
        default="pandas",
        help="engine that reads the file and counts the groups (default: pandas)",
    )
    rp.add_argument(
        "--format",
        choices=("markdown", "latex", "html"),
        default="markdown",
        help="default: markdown",
    )
    _shared_options(rp, what="each model's")
    judge_options(rp)
    rp.add_argument("--metric", help="name of the rate (default: accuracy; win rate for arena)")
    rp.add_argument("--title", help="report title")
    rp.add_argument("--rank", action="store_true", help="add P(rank 1) from a joint bootstrap")
    rp.add_argument(
        "--letters", action="store_true",
        help="FILE: the judge column holds letters of its own (a 1-5 score, win/tie/lose), "
        "every one used by joint maximum likelihood; implied by several --judge-column names "
        "(comma-separated: two judges' letter pairs) and by --invalid. --inspect: every "
        "verdict (C, P, I, ...) is a letter, none needs --map",
    )  # fmt: skip
    rp.add_argument(
        "--invalid", action="append", default=None, metavar="VALUE",
        help="FILE: a judge output that is no verdict (refused, unparseable) and becomes the "
        "letter 'invalid', never dropped; '' is an empty cell; repeat for several",
    )  # fmt: skip


def _scan(path: str, engine: str, args, *, letters: bool = False) -> Any:
    """Open a CSV or Parquet file with the chosen engine (lazily for polars and DuckDB).

    With ``letters`` the judge column(s) keep their values as written (CSV text): letters.
    Every engine reads the same rows: CSV lines with a wrong number of fields are refused and
    blank lines after the last row dropped (:func:`judgestats.io.check_rows`), and label
    columns an engine reads as text (``" 1 "``, ``TRUE`` beside ``1``) are read as
    :func:`judgestats.io.parse_labels` reads them.
    """
    by = column_list(args.by)
    labels = {} if letters else {args.judge_column: False}
    labels[args.human_column] = True
    if engine == "pandas":
        return _read_table(path, labels, by[0] if by else None)
    from ..io import check_header, check_rows, sniff_format

    p = Path(path)
    kind = sniff_format(p)
    if kind in ("jsonl", "json"):
        raise CLIError(f"--engine {engine} reads CSV and Parquet; {path} is JSON "
                       "(use --engine pandas)")  # fmt: skip
    names = check_header(p, kind)  # duplicates refused here
    trailing = check_rows(p) if kind == "csv" else 0
    # group columns as text exactly as written ('NA', '007'); types inferred from every row, so
    # calibration rows after many test rows do not turn the human column into text
    text = [c for c in (*(by or ()), *(column_list(args.strata) or ()), args.split) if c]
    missing = [c for c in text if c not in names]
    if missing:
        raise CLIError(f"{path} has no column(s) {missing}; its columns are {names}")
    try:
        frame = _engine_frame(p, engine, kind, text)
    except ImportError as exc:
        raise CLIError(f"--engine {engine} needs {engine}: pip install {engine}") from exc
    except Exception as exc:
        raise CLIError(f"cannot read {path}: {exc}".splitlines()[0]) from exc
    return _same_rows(frame, p, names, labels, trailing=trailing, group=by[0] if by else None)


def _engine_frame(p: Path, engine: str, kind: str, text: list[str]) -> Any:
    """Open the file as a polars LazyFrame or a DuckDB relation, ``text`` columns as strings."""
    from ..io import is_gzip

    gz = is_gzip(p)
    if engine == "polars":
        import polars as pl

        if kind == "parquet":
            return pl.scan_parquet(p)
        types = dict.fromkeys(text, pl.String)
        if gz:  # polars scans plain files only; a compressed one is read whole
            return pl.read_csv(p, infer_schema_length=None, schema_overrides=types).lazy()
        return pl.scan_csv(p, infer_schema_length=None, schema_overrides=types)
    import duckdb

    if kind == "parquet":
        return duckdb.read_parquet(str(p))
    return duckdb.read_csv(str(p), sample_size=-1, dtype=dict.fromkeys(text, "VARCHAR"),
                           compression="gzip" if gz else "none")  # fmt: skip


def _same_rows(frame: Any, p: Path, names: list, labels: dict, *, trailing: int, group) -> Any:
    """Make the engine's frame read what pandas reads: no trailing blank rows, labels parsed.

    A label column the engine read as text is converted by :func:`judgestats.io.parse_labels`'
    rules (in the engine); a value outside them is the pandas reader's error, naming its line.
    """
    import narwhals as nw

    from ..io import _FALSE, _TRUE, parse_labels, read_table

    nf = nw.from_native(frame)
    if trailing:  # blank lines after the last row: only rows whose every cell is empty
        nf = nf.filter(~nw.all_horizontal(*(nw.col(c).is_null() for c in names),
                                          ignore_nulls=False))  # fmt: skip
    schema = nf.collect_schema()
    for column, missing_ok in labels.items():
        if column not in schema or schema[column] != nw.String:
            continue
        seen = nf.select(nw.col(column)).unique().collect().get_column(column).to_list()
        try:
            parse_labels(seen, column, missing_ok=missing_ok)
        except LabelError:
            read_table(p, labels={column: missing_ok}, group=group)  # names the line
            raise
        x = nw.col(column).str.strip_chars().str.to_lowercase()
        one, zero = nw.lit(1, nw.Int8), nw.lit(0, nw.Int8)
        value = nw.when(x.is_in(sorted(_TRUE))).then(one).otherwise(
            nw.when(x.is_in(sorted(_FALSE))).then(zero))  # fmt: skip
        nf = nf.with_columns(value.alias(column))
    return nf.to_native()


def _example_frame(args) -> tuple[Any, str, str]:
    """Load a bundled data set with a seeded random calibration split per model.

    The human labels of the test rows are hidden (NaN).
    """
    from .. import datasets

    judges = column_list(args.judge) or ()
    if args.example == "chatbot-arena" and len(judges) > 1:  # the bundled two: a jury
        frame = _arena_jury(judges)
        what = f"Chatbot Arena win rates: human votes vs the jury {', '.join(judges)}"
        metric = "win rate"
    elif args.example == "chatbot-arena":
        frame = datasets.load_chatbot_arena(judge=args.judge)
        frame = frame[frame["target_model"].isin(datasets.ARENA_TARGETS)]
        what = f"Chatbot Arena win rates: human votes vs judge {frame['judge_name'].iloc[0]}"
        metric = "win rate"
    else:
        frame = datasets.load_nq301()
        what = "NQ-301 answer accuracy: human correctness vs judge gpt-4"
        metric = "accuracy"
    rng = np.random.default_rng(args.seed)
    frame = frame.rename(columns={"target_model": "model"})[
        ["model", *(judges if len(judges) > 1 else ("judge",)), "human"]]
    truth = frame.groupby("model")["human"].mean()
    frame = frame.reset_index(drop=True).astype({"human": float})
    for _, idx in frame.groupby("model", sort=True).groups.items():
        rows = np.asarray(idx)
        k = max(2, round(args.calibration_fraction * len(rows)))
        test_rows = rows[rng.permutation(len(rows))[k:]]
        frame.loc[test_rows, "human"] = np.nan
    pct = f"{100 * args.calibration_fraction:g}%"
    args.reference = {str(k): float(v) for k, v in truth.items()}  # all rows: the known truth
    return frame, f"{what} (random {pct} calibration split per model, seed {args.seed})", metric


def _arena_jury(judges: tuple) -> Any:
    """Return the bundled Arena votes, one 0/1 column per judge (the same comparisons)."""
    from .. import datasets

    frames = [datasets.load_chatbot_arena(judge=j) for j in judges]
    frame = frames[0].drop(columns=["judge"]).assign(
        **{j: f["judge"].to_numpy() for j, f in zip(judges, frames, strict=True)})
    return frame[frame["target_model"].isin(datasets.ARENA_TARGETS)]


def run_report(args: Any) -> str:
    """Run ``judgestats report``; returns the report (``--out`` writes it: cli.main)."""
    return _report(args)


def _one_source(args: Any) -> None:
    """Refuse anything but exactly one data source; ``--inspect LOGS`` is ``--from inspect``."""
    if args.inspect is not None and args.from_tool is None:
        args.from_tool = ("inspect", args.inspect)
    elif args.inspect is not None:
        raise CLIError("give exactly one data source: FILE, --example or --from (--inspect)")
    if sum(x is not None for x in (args.file, args.example, args.from_tool)) != 1:
        raise CLIError("give exactly one data source: FILE, --example or --from (--inspect)")
    if args.from_tool is not None:
        tool_reader(args.from_tool[0])  # an unknown tool first: nothing else matters then
        labels_file(args)
    if (args.from_tool is None) != (args.labels is None):
        raise CLIError("--from (--inspect) and --labels go together (the tool's output and its "
                       "human labels)")  # fmt: skip
    _tool_flags(args)


#: What a data source gives ``report``: the frame, its title and metric, the columns by role
#: (by, judge, human, strata, split) and the lines on where the rows came from.
_Source = tuple[Any, Any, str, Any, Any, str, Any, Any, list[str]]


def _from_tool(args: Any) -> _Source | str:
    """Return the source of ``--from TOOL PATH --labels FILE``: rows joined with labels."""
    _check_flags(args, f"--from {args.from_tool[0]}", ("by", "human", "human_column"))
    label_columns(args, example=False)
    letters = args.letters or args.invalid is not None
    frame, inputs = tool_frame(args, letters)
    args.cluster = SAMPLE if SAMPLE in frame.columns else None
    if not letters and frame["judge"].astype(str).eq(INVALID).any():
        args.invalid = [INVALID]  # rows without a verdict: their own letter, not a fail
    if args.letters or args.invalid is not None:  # verdicts (C, P, I, ...) as letters
        return _report_letters(frame, ("judge",), args, inputs)
    return (frame, None, "accuracy", column_list(args.by), "judge", args.human_column, None, None,
            inputs)  # fmt: skip


def _from_example(args: Any) -> _Source:
    """Return the source of ``--example NAME``: a bundled real data set, by model."""
    allowed = ("calibration_fraction", "by") + (("judge",) if args.example == "chatbot-arena"
                                                  else ())  # fmt: skip
    _check_flags(args, f"--example {args.example}", allowed)
    label_columns(args, example=True)
    if args.by != "model":
        raise CLIError(f"--by does not apply to --example {args.example} (its groups are "
                       "the models)")  # fmt: skip
    frame, title, metric = _example_frame(args)
    judges = column_list(args.judge) or ()
    judge = list(judges) if args.example == "chatbot-arena" and len(judges) > 1 else "judge"
    return frame, title, metric, ("model",), judge, "human", None, None, []


def _from_file(args: Any) -> _Source | str:
    """Return the source of a FILE of judged rows (human labels where there are)."""
    _check_flags(args, "a FILE", ("by", "strata", "split", "engine", "judge", "judge_column",
                                  "human", "human_column", "cluster", "batch"))  # fmt: skip
    label_columns(args, example=False)
    judges = column_list(args.judge_column) or ()
    letters = args.letters or args.invalid is not None or len(judges) > 1
    # a score (--calibrator, or numbers not all 0/1 under --design random): pandas reads the
    # judge column as written, then as numbers; polars and DuckDB keep a numeric column's type
    score = not letters and args.engine == "pandas" and (
        args.calibrator is not None or takes_scores(args.design, args.cluster is not None))
    try:
        frame = _scan(args.file, args.engine, args, letters=letters or score)
    except LabelError as exc:
        if letters or f"column {args.judge_column!r}" not in str(exc):
            raise
        raise CLIError(f"{exc}; if the judge's outputs are letters of their own (a score, "
                       "win/tie/lose), add --letters; a numeric score: --design random (the "
                       "prediction-powered mean)") from exc  # fmt: skip
    if score:
        frame = to_score(frame, args.judge_column, args.file)
    if letters:
        return _report_letters(frame, judges, args)
    return (frame, None, "accuracy", column_list(args.by), args.judge_column, args.human_column,
            column_list(args.strata), args.split, [])  # fmt: skip


def _report(args) -> str:
    from ..evaluate import evaluate
    from ..report import report

    _one_source(args)
    source = (_from_tool if args.from_tool else _from_example if args.example
              else _from_file)(args)  # fmt: skip
    if isinstance(source, str):
        return source
    frame, title, metric, by, judge, human, strata, split, inputs = source
    if args.letters or args.invalid is not None:
        raise CLIError("--letters and --invalid apply to a FILE or --from (--inspect)")
    try:
        with warnings.catch_warnings(record=True) as caught:  # the report lists them as notes
            warnings.simplefilter("always")
            ev = evaluate(frame, judge=judge, human=human, by=by, strata=strata, split=split,
                          rank=args.rank, **_estimation(args), **judge_keywords(args))  # fmt: skip
            echo_guard_warnings(caught)  # not a group's: the frame's guard rails speak here
            return cli_words(report(
                ev, args.format, metric=args.metric or metric, title=args.title or title,
                reference=getattr(args, "reference", None),
                reference_name="human rate (all rows)", inputs=inputs,
            ))  # fmt: skip
    except ImportError as exc:
        raise CLIError(f"{exc}".splitlines()[0]) from exc
    except (ColumnError, GroupLabelError) as exc:  # a score read as 0/1 labels
        if args.file is None or "judge column" not in str(exc):
            raise
        raise CLIError(f"{exc}; if the judge's outputs are letters of their own (a score, "
                       "win/tie/lose), add --letters") from exc  # fmt: skip


def _tokens(token: str) -> list[Any]:
    """Return an ``--invalid`` value as the engines may hold it.

    '' is an empty cell (and a JSON file's empty string); '-1' is both the text and the number
    (pandas reads a CSV as text, polars and DuckDB as numbers).
    """
    if token == "":
        return [None, ""]
    try:
        number = float(token)
    except ValueError:
        return [token]
    return [token, int(number) if number.is_integer() else number]


def _numeric_letters(frame: Any, judges: tuple) -> Any:
    """Judge columns of text whose every value reads as a number become numbers (pandas)."""
    import pandas as pd

    out = frame.copy()
    for c in judges:
        if c in out.columns and (out[c].dtype == object or pd.api.types.is_string_dtype(out[c])):
            try:
                out[c] = pd.to_numeric(out[c])
            except (ValueError, TypeError):
                continue  # letters of text ('win', 'refused'): kept as written
    return out


def _estimation(args) -> dict[str, Any]:
    """``js.evaluate``'s estimation options from ``report``'s flags (both report paths).

    ``errors="mark"``: one bad group must not sink the leaderboard. No ``--method`` leaves
    ``method=None``: evaluate resolves its spec once, with the capability table's default for
    the path (a 0/1 judge's rate, pooled over strata, or a judge alphabet's).
    """
    out = {"method": args.method, "confidence_level": args.confidence_level, "rng": args.seed,
           "design": args.design, "errors": "mark"}  # fmt: skip
    if getattr(args, "cluster", None) is not None:  # repeated items (report, not letters)
        out.update(cluster=args.cluster, estimand=args.estimand)
    if getattr(args, "batch", None) is not None:  # calibration batches (js.judge_shift_test)
        out.update(batch=args.batch, batch_choice=args.batch_choice)
    elif getattr(args, "batch_choice", "pool") != "pool":  # never ignored without a word
        raise CLIError("--batch-choice needs --batch COLUMN (the column of each calibration "
                       "row's batch)")  # fmt: skip
    return out


def _tool_flags(args: Any) -> None:
    """Refuse the flags of ``--from`` given with another data source."""
    given = [flag for flag, value, default in (
        ("--labels", args.labels, None), ("--scorer", args.scorer, None), ("--map", args.map, []),
        ("--item", args.item, None), ("--model", args.model, []), ("--runs", args.runs, "refuse"),
        ("--unmatched", args.unmatched, "raise"), ("--join-on", args.join_on, None))
        if value != default]  # fmt: skip
    if args.from_tool is None and given:
        raise CLIError(f"{', '.join(given)} apply to --from (--inspect) only")


def _report_letters(frame: Any, judges: tuple, args, inputs: Any = ()) -> str:
    """``report --letters``: every group's rate from a judge alphabet (js.evaluate's letters)."""
    from ..evaluate import evaluate
    from ..report import report

    if args.rank or args.strata:
        raise CLIError("--rank and --strata are not available with judge letters")
    jury = len(judges) > 1 and not args.letters and args.invalid is None
    if getattr(args, "cluster", None) is not None and not jury:  # a jury counts items
        if args.from_tool is None:
            raise CLIError("--cluster is not available with judge letters yet")
        sys.stderr.write(
            "note: the logs have several epochs per sample, but judge letters do not account "
            "for repeated items yet: their intervals count every epoch as an item and are too "
            "short; use 0/1 verdicts (--map) for intervals that count samples\n"
        )
        args.cluster = None
    invalid = None if args.invalid is None else [v for tok in args.invalid for v in _tokens(tok)]
    if args.engine == "pandas":  # CSV cells are text: scores that read as numbers are numbers
        frame = _numeric_letters(frame, judges)
    with warnings.catch_warnings(record=True):  # local: the report lists them as notes
        warnings.simplefilter("always")
        ev = evaluate(
            frame, judge=list(judges), human=args.human_column, by=column_list(args.by),
            split=args.split, invalid=invalid, **_estimation(args), **judge_keywords(args),
        )  # fmt: skip
        return cli_words(report(ev, args.format, metric=args.metric or "accuracy",
                                title=args.title, inputs=inputs))  # fmt: skip
