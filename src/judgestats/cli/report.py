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

from .._validation import (
    ColumnError,
    GroupLabelError,
    LabelError,
    LookalikeGroupsWarning,
    RepeatedItemsWarning,
    VerdictError,
)
from ..spec import ESTIMANDS
from .inputs import _read_table
from .options import EXAMPLES, CLIError, _check_flags, _shared_options, cli_words


def report_options(rp: Any) -> None:
    """Add ``report``'s options: the data source, groups, strata, repeats, batches, format."""
    rp.add_argument(
        "file", nargs="?", metavar="FILE",
        help="judged items: CSV, Parquet, JSON Lines or a JSON array of objects (told by the "
        "content); CSV and JSON may be gzip-compressed (items.csv.gz)",
    )  # fmt: skip
    _tool_options(rp)
    rp.add_argument("--example", choices=EXAMPLES, help="report on a bundled real data set")
    rp.add_argument(
        "--by", default="model", help="group column(s), comma-separated (default: model)"
    )
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
        "each model's latest batch is tested against its earlier ones (js.judge_shift_test) "
        "and the report notes where the judge moved",
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
    rp.add_argument("--out", metavar="PATH", help="write the report here (default: print it)")
    _shared_options(rp, what="each model's")
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


def _tool_options(rp: Any) -> None:
    """Add ``report``'s flags for an eval tool's output (``--from``, ``--inspect``, ...)."""
    rp.add_argument("--inspect", metavar="LOGS",
                    help="Inspect AI eval logs (a directory or a .eval file) as the judged items "
                    "(the same as --from inspect LOGS)")  # fmt: skip
    rp.add_argument("--from", nargs=2, metavar=("TOOL", "PATH"), dest="from_tool",
                    help=f"an eval tool's output as the judged items; TOOL is one of "
                    f"{', '.join(TOOLS)} (guide: Reading eval tools' output)")  # fmt: skip
    rp.add_argument("--human", metavar="FILE",
                    help="--from/--inspect: human labels with an item (or sample_id) column "
                    "(and model, task, epoch or scorer where they differ) and the human column")
    rp.add_argument("--scorer", help="--from/--inspect: the scorer (metric, assertion) that is "
                    "the judge, if the output has several")  # fmt: skip
    rp.add_argument("--map", action="append", default=[], metavar="VERDICT=0|1",
                    help="--from/--inspect: what a verdict other than 0/1 (or the tool's own "
                    "words, C/I for Inspect) counts as, e.g. --map P=0")  # fmt: skip


def _columns(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    cols = tuple(c.strip() for c in text.split(",") if c.strip())
    if not cols:
        raise CLIError(f"expected one or more column names, got {text!r}")
    return cols


def _scan(path: str, engine: str, args, *, letters: bool = False) -> Any:
    """Open a CSV or Parquet file with the chosen engine (lazily for polars and DuckDB).

    With ``letters`` the judge column(s) keep their values as written (CSV text): letters.
    Every engine reads the same rows: CSV lines with a wrong number of fields are refused and
    blank lines after the last row dropped (:func:`judgestats.io.check_rows`), and label
    columns an engine reads as text (``" 1 "``, ``TRUE`` beside ``1``) are read as
    :func:`judgestats.io.parse_labels` reads them.
    """
    by = _columns(args.by)
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
    text = [c for c in (*(by or ()), *(_columns(args.strata) or ()), args.split) if c]
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

    if args.example == "chatbot-arena":
        frame = datasets.load_chatbot_arena(judge=args.judge)
        frame = frame[frame["target_model"].isin(datasets.ARENA_TARGETS)]
        what = f"Chatbot Arena win rates: human votes vs judge {frame['judge_name'].iloc[0]}"
        metric = "win rate"
    else:
        frame = datasets.load_nq301()
        what = "NQ-301 answer accuracy: human correctness vs judge gpt-4"
        metric = "accuracy"
    rng = np.random.default_rng(args.seed)
    frame = frame.rename(columns={"target_model": "model"})[["model", "judge", "human"]]
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


#: The eval tools ``report --from TOOL PATH`` reads (:mod:`judgestats.readers`).
TOOLS = ("inspect", "lm-eval", "promptfoo", "deepeval", "mlflow")


def _tool_reader(tool: str) -> Any:
    from .. import readers

    found = {"inspect": readers.read_inspect, "lm-eval": readers.read_lm_eval,
             "promptfoo": readers.read_promptfoo, "deepeval": readers.read_deepeval,
             "mlflow": readers.read_mlflow,
             }.get(tool)  # fmt: skip
    if found is None:
        raise CLIError(f"--from takes a TOOL among {', '.join(TOOLS)}, got {tool!r}")
    return found


def _inspect_frame(args) -> Any:
    """Join an eval tool's output with its human labels: rows without a label are test rows."""
    from ..io import read_table

    letters = args.letters or args.invalid is not None
    mapping: dict[Any, Any] = {}
    for item in args.map:
        verdict, _, value = item.partition("=")
        if not verdict or (value not in ("0", "1") and not (letters and value)):
            raise CLIError(f"--map takes VERDICT=0 or VERDICT=1 (with --letters, VERDICT=LETTER), "
                           f"got {item!r}")  # fmt: skip
        mapping[verdict] = value if letters else int(value)
        for number in (int, float):  # --map 4=1 names the number 4 of a tool's JSON too
            try:
                mapping.setdefault(number(verdict), mapping[verdict])
            except ValueError:
                pass
    tool, path = args.from_tool
    try:
        items = _tool_reader(tool)(path, scorer=args.scorer, mapping=mapping,
                                   verdicts="letters" if letters else "0/1")  # fmt: skip
    except (ColumnError, VerdictError) as exc:  # the API's keywords as the command's flags
        text = str(exc).replace("with scorer=", "with --scorer NAME")
        hint = "; here: --map VALUE=0 or --map VALUE=1 for each value, or --letters"
        raise CLIError(text + (hint if isinstance(exc, VerdictError) else "")) from exc
    labels = read_table(args.human, labels={args.human_column: False})
    if "item" not in labels.columns and "sample_id" in labels.columns:
        labels = labels.rename(columns={"sample_id": "item"})
    keys = [k for k in ("model", "task", "item", "epoch", "scorer") if k in labels.columns]
    if "item" not in keys:
        raise CLIError(f"{args.human} needs an item (or sample_id) column; its columns are "
                       f"{list(labels.columns)}")  # fmt: skip
    labels = labels[[*keys, args.human_column]].astype({"item": str})
    if "epoch" in keys:
        labels["epoch"] = labels["epoch"].astype(int)
    if labels.duplicated(keys).any():
        raise CLIError(f"{args.human} labels some ({', '.join(keys)}) twice")
    # an item judged several times (epochs, scorers) in a model is one cluster (issue 27)
    if items.duplicated(["model", "task", "item"]).any():
        items[_SAMPLE] = items["task"].astype(str) + " / " + items["item"].astype(str)
    return items.merge(labels, on=keys, how="left", validate="many_to_one")


#: The item column ``report --inspect`` adds when a log has several epochs.
_SAMPLE = "__judgestats_sample__"


def run_report(args: Any) -> str:
    """Run ``judgestats report``; returns the report (or, with ``--out``, the path written)."""
    text = _report(args)
    if not args.out:
        return text
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CLIError(f"cannot write {args.out}: {exc.strerror}") from exc
    return f"wrote {args.out}\n"


def _report(args) -> str:
    from ..evaluate import evaluate
    from ..report import report

    if args.inspect is not None and args.from_tool is None:
        args.from_tool = ("inspect", args.inspect)
    elif args.inspect is not None:
        raise CLIError("give exactly one data source: FILE, --example or --from (--inspect)")
    if sum(x is not None for x in (args.file, args.example, args.from_tool)) != 1:
        raise CLIError("give exactly one data source: FILE, --example or --from (--inspect)")
    if (args.from_tool is None) != (args.human is None):
        raise CLIError("--from (--inspect) and --human go together (the tool's output and its "
                       "human labels)")  # fmt: skip
    by: tuple[str, ...] | None
    if args.from_tool:
        _check_flags(args, f"--from {args.from_tool[0]}", ("by", "human_column"))
        frame, title, metric = _inspect_frame(args), None, "accuracy"
        by, strata, split = _columns(args.by), None, None
        judge, human = "judge", args.human_column
        args.cluster = _SAMPLE if _SAMPLE in frame.columns else None
        if args.letters or args.invalid is not None:  # verdicts (C, P, I, ...) as letters
            return _report_letters(frame, ("judge",), args)
    elif args.example:
        allowed = ("calibration_fraction", "by") + (("judge",) if args.example == "chatbot-arena"
                                                      else ())  # fmt: skip
        _check_flags(args, f"--example {args.example}", allowed)
        if args.by != "model":
            raise CLIError(f"--by does not apply to --example {args.example} (its groups are "
                           "the models)")  # fmt: skip
        frame, title, metric = _example_frame(args)
        by, judge, human, strata, split = ("model",), "judge", "human", None, None
    else:
        _check_flags(args, "a FILE", ("by", "strata", "split", "engine", "judge_column",
                                      "human_column", "cluster", "batch"))  # fmt: skip
        judges = _columns(args.judge_column) or ()
        letters = args.letters or args.invalid is not None or len(judges) > 1
        try:
            frame = _scan(args.file, args.engine, args, letters=letters)
        except LabelError as exc:
            if letters or f"column {args.judge_column!r}" not in str(exc):
                raise
            raise CLIError(f"{exc}; if the judge's outputs are letters of their own (a score, "
                           "win/tie/lose), add --letters") from exc  # fmt: skip
        title, metric = None, "accuracy"
        by, strata, split = _columns(args.by), _columns(args.strata), args.split
        judge, human = args.judge_column, args.human_column
        if letters:
            return _report_letters(frame, judges, args)
    if args.letters or args.invalid is not None:
        raise CLIError("--letters and --invalid apply to a FILE or --from (--inspect)")
    try:
        with warnings.catch_warnings(record=True) as caught:  # the report lists them as notes
            warnings.simplefilter("always")
            ev = evaluate(frame, judge=judge, human=human, by=by, strata=strata, split=split,
                          rank=args.rank, **_estimation(args))  # fmt: skip
            for w in caught:  # not a group's: the frame's guard rails speak here
                if issubclass(w.category, RepeatedItemsWarning):
                    column = str(w.message).split("'")[1]
                    sys.stderr.write(f"warning: {w.message} (--cluster {column})\n")
                elif issubclass(w.category, LookalikeGroupsWarning):
                    sys.stderr.write(f"warning: {w.message}\n")
            return cli_words(report(
                ev, args.format, metric=args.metric or metric, title=args.title or title,
                reference=getattr(args, "reference", None),
                reference_name="human rate (all rows)",
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

    '' is an empty cell; '-1' is both the text and the number (pandas reads a CSV as text,
    polars and DuckDB as numbers).
    """
    if token == "":
        return [None]
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
    return out


def _report_letters(frame: Any, judges: tuple, args) -> str:
    """``report --letters``: every group's rate from a judge alphabet (js.evaluate's letters)."""
    from ..evaluate import evaluate
    from ..report import report

    if args.rank or args.strata:
        raise CLIError("--rank and --strata are not available with judge letters")
    if getattr(args, "cluster", None) is not None:
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
            frame, judge=list(judges), human=args.human_column, by=_columns(args.by),
            split=args.split, invalid=invalid, **_estimation(args),
        )  # fmt: skip
        return cli_words(report(ev, args.format, metric=args.metric or "accuracy",
                                title=args.title))  # fmt: skip
