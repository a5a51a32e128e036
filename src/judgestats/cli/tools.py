"""``report --from TOOL PATH --labels FILE``: an eval tool's output joined with its human labels.

The tool's output is read by its reader (:mod:`judgestats.readers`), the labels by
:func:`judgestats.io.read_table`, and the two joined by :func:`judgestats.readers.join_labels`,
which counts every label and refuses those that match no judged row. What was read and how the
join went are the report's first lines, before any statistics.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

from .._validation import ColumnError, InvalidVerdictWarning, LabelError, VerdictError, listed
from .options import CLIError, cli_words, deprecated

#: The eval tools ``report --from TOOL PATH`` reads (:mod:`judgestats.readers`).
TOOLS = ("inspect", "lm-eval", "promptfoo", "deepeval", "mlflow")

#: The item column ``report --from`` adds when an item repeats within a model (epochs).
SAMPLE = "__judgestats_sample__"


def tool_options(rp: Any) -> None:
    """Add ``report``'s flags for an eval tool's output (``--from``, ``--labels``, ...)."""
    rp.add_argument("--inspect", metavar="LOGS",
                    help="Inspect AI eval logs (a directory or a .eval file) as the judged items "
                    "(the same as --from inspect LOGS)")  # fmt: skip
    rp.add_argument("--from", nargs=2, metavar=("TOOL", "PATH"), dest="from_tool",
                    help=f"an eval tool's output as the judged items; TOOL is one of "
                    f"{', '.join(TOOLS)} (guide: Reading eval tools' output)")  # fmt: skip
    rp.add_argument("--labels", metavar="FILE",
                    help="--from/--inspect: the human labels, with an item (or sample_id) "
                    "column (and model, task, epoch or scorer where they differ) and the "
                    "--human column")  # fmt: skip
    rp.add_argument("--scorer", help="--from/--inspect: the scorer (metric, assertion) that is "
                    "the judge, if the output has several")  # fmt: skip
    rp.add_argument("--map", action="append", default=[], metavar="VERDICT=0|1",
                    help="--from/--inspect: what a verdict other than 0/1 (or the tool's own "
                    "words, C/I for Inspect) counts as, e.g. --map P=0")  # fmt: skip
    rp.add_argument("--item", metavar="KEY",
                    help="--from mlflow: the item's id, a column of the results or a key of "
                    "each request (default trace_id); the labels' item column when it is not "
                    "called item")  # fmt: skip
    rp.add_argument("--model", action="append", default=[], metavar="OLD=NEW",
                    help="--from: rename a model before the join (an MLflow run id, a "
                    "provider's label); repeat for several")  # fmt: skip
    rp.add_argument("--runs", choices=("refuse", "apart"), default="refuse",
                    help="--from: two runs of one model that judged the same items are refused "
                    "(default) or kept as two models")  # fmt: skip
    rp.add_argument("--join-on", metavar="KEY[,KEY...]",
                    help="--from: the labels' columns to join on (default: those of model, task, "
                    "item, epoch, scorer they have); --join-on item applies each label to every "
                    "model's row of its item (labels of the items, not of one model's answers)")
    rp.add_argument("--unmatched", choices=("raise", "drop"), default="raise",
                    help="--from: a label matching no judged row is an error (default) or is "
                    "left out and counted")  # fmt: skip


def tool_reader(tool: str) -> Any:
    """Return the reader of ``--from TOOL`` (an unknown tool is an error naming the tools)."""
    from .. import readers

    found = {"inspect": readers.read_inspect, "lm-eval": readers.read_lm_eval,
             "promptfoo": readers.read_promptfoo, "deepeval": readers.read_deepeval,
             "mlflow": readers.read_mlflow}.get(tool)  # fmt: skip
    if found is None:
        raise CLIError(f"--from takes a TOOL among {', '.join(TOOLS)}, got {tool!r}")
    return found


def labels_file(args: Any) -> None:
    """Take the labels file from ``--labels``, or from the old ``--human FILE`` (with a note).

    With ``--from`` and no ``--labels``, ``--human`` is the old spelling of the labels file
    (the labels are required) when it names a file; else it is a column and ``--labels`` is
    missing, which the error says.
    """
    if args.labels is None and args.human is not None:
        if not Path(args.human).exists():
            raise CLIError(f"--from (--inspect) needs --labels FILE, the human labels (--human "
                           f"{args.human} names their column; no file {args.human} exists)")
        deprecated(args, "--human FILE is deprecated for the labels file: use --labels FILE "
                         "(--human names the human-label column, as in every command; the "
                         "old form works until judgestats 0.3)")  # fmt: skip
        args.labels, args.human = args.human, None


def _mapping(args: Any, letters: bool) -> dict:
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
    return mapping


def _read(args: Any, letters: bool) -> tuple[Any, list[str]]:
    """Return the tool's rows, and what the reader said (invalid verdicts) as report lines."""
    tool, path = args.from_tool
    options: dict[str, Any] = {"scorer": args.scorer, "mapping": _mapping(args, letters),
                               "verdicts": "letters" if letters else "0/1", "runs": args.runs}
    if args.item is not None and tool == "mlflow":
        options["item_key"] = args.item
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", InvalidVerdictWarning)
            items = tool_reader(tool)(path, **options)
    except ImportError as exc:  # an optional dependency (inspect-ai): one line, what to install
        raise CLIError(str(exc).splitlines()[0]) from exc
    except (ColumnError, VerdictError) as exc:  # the API's keywords as the command's flags
        raise CLIError(cli_words(str(exc))) from exc
    lines = [f"Judged rows: {len(items)} read from {tool} {path} ("
             f"{_count(items['model'].nunique(), 'model')}, "
             f"{_count(items['task'].nunique(), 'task')}; judge: {items['scorer'].iloc[0]})"
             if len(items) else f"Judged rows: none in {tool} {path}"]  # fmt: skip
    lines += [f"Verdicts: {getattr(w.message, 'facts', w.message)}" for w in caught
              if issubclass(w.category, InvalidVerdictWarning)]  # fmt: skip
    _check_some_verdicts(items, lines)
    return _renamed_models(items, args), lines


def _check_some_verdicts(items: Any, lines: list[str]) -> None:
    """Refuse a model none of whose rows has a verdict (every one the letter 'invalid')."""
    from ..alphabets.letters import INVALID

    if not len(items):
        return
    none = items["judge"].astype(str).eq(INVALID).groupby(items["model"].astype(str)).all()
    if none.any():
        models = [repr(m) for m in none[none].index]
        raise CLIError(f"no verdict at all for model(s) {listed(models)}: "
                       f"{lines[-1].removeprefix('Verdicts: ')}; nothing is left to correct "
                       "for them: rerun those, or read the output without them")  # fmt: skip


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _renamed_models(items: Any, args: Any) -> Any:
    names: dict[str, str] = {}
    for item in args.model:
        old, _, new = item.partition("=")
        if not old or not new:
            raise CLIError(f"--model takes OLD=NEW, got {item!r}")
        names[old] = new
    unknown = [old for old in names if old not in set(items["model"].astype(str))]
    if unknown:
        raise CLIError(f"--model names no model {unknown}; the models are "
                       f"{sorted(items['model'].astype(str).unique())}")  # fmt: skip
    if names:
        items = items.assign(model=items["model"].astype(str).replace(names))
    return items


def tool_frame(args: Any, letters: bool) -> tuple[Any, list[str]]:
    """Join an eval tool's output with its human labels: rows without a label are test rows.

    Returns the joined frame and the report's first lines (what was read, how the join went).
    """
    from ..io import read_table
    from ..readers import join_labels

    items, lines = _read(args, letters)
    try:
        labels = read_table(args.labels, labels={args.human_column: False})
        if args.item is not None and args.item in labels.columns and "item" not in labels:
            labels = labels.rename(columns={args.item: "item"})
        on = None if args.join_on is None else [k.strip() for k in args.join_on.split(",")]
        joined = join_labels(items, labels, human=args.human_column, unmatched=args.unmatched,
                             on=on)  # fmt: skip
    except (ColumnError, LabelError) as exc:
        text = f"{args.labels}: {cli_words(str(exc))}"
        if "an empty cell" in text and "on every row" in text:
            text += ("; a labels file lists the labelled rows only: drop the rows without a "
                     "label (the judged rows without one are the test rows)")
        named = re.search(r"name it with --human (\S+)$", text)
        if named:
            text += (f" (the labels file with --labels {args.labels}; the old --human-column "
                     f"{named[1]} works too)")
        raise CLIError(text) from exc
    frame = joined.frame
    # an item judged several times (epochs, scorers) in a model is one cluster (issue 27)
    if frame.duplicated(["model", "task", "item"]).any():
        frame[SAMPLE] = frame["task"].astype(str) + " / " + frame["item"].astype(str)
    return frame, [*lines, f"Human labels ({args.labels}): {joined.summary()}"]
