"""``judgestats next-batch`` and ``judgestats monitor``: labelling in rounds from files.

The items file is the judged pool (one row per judged row); the labels so far are either its
own ``human`` column or one or more ``--labels`` files, each a round written by ``next-batch``
with the ``human`` column filled in.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from .._validation import ColumnError, LabelError, listed
from ..sequential.monitor import DESIGNS, ESTIMANDS, STRATEGIES
from ..sequential.selection import STRATEGY_NAMES
from .inputs import _read_table
from .options import (
    CLIError,
    _level,
    cli_words,
    column_list,
    columns_option,
    deprecated,
    spaced_columns,
)

_COMMON_HELP = {
    "item": "item id column (default item; rows sharing an id are one item's judged rows)",
    "judge": "judge verdict column (0/1 or letters; default judge)",
    "human": "human label column of the labels so far (default human)",
}

#: The columns of a round that next-batch writes and the monitor replays (and its seed).
_ROUND = ("round", "draw", "inclusion_probability", "strategy", "seed")


def _common(p: Any) -> None:
    p.add_argument("items", help="the judged pool: CSV, Parquet or JSON Lines")
    p.add_argument(
        "--labels", nargs="+", default=[], metavar="FILE",
        help="label files so far (rounds written by next-batch, human filled in)",
    )  # fmt: skip
    for name, text in _COMMON_HELP.items():
        p.add_argument(f"--{name}", default=name, metavar="COLUMN", help=text)
    columns_option(p, "--by", "group columns, comma-separated: one sequence per group "
                              "(e.g. model)")  # fmt: skip
    columns_option(p, "--strata", "covariate strata, comma-separated: sampling cells are "
                                  "letters within strata")  # fmt: skip
    p.add_argument("--target-width", type=float, default=None,
                   help="stop once every group's interval is at most this wide")  # fmt: skip
    p.add_argument("--confidence-level", type=_level, default=0.95, help="default 0.95")


def next_batch_options(nb: Any) -> None:
    """Add ``next-batch``'s options: the pool, the labels so far, the budget and design."""
    _common(nb)
    nb.add_argument("--budget", type=int, required=True, help="items to draw per group")
    nb.add_argument(
        "--design", choices=DESIGNS, default=None,
        help="how to draw: random (every unlabelled item equally likely, the default) or "
        "by-judge-label (within judge letters, Neyman allocation); give the monitor the same",
    )  # fmt: skip
    nb.add_argument("--strategy", choices=STRATEGY_NAMES, default=None, help=argparse.SUPPRESS)
    nb.add_argument("--seed", type=int, default=None, help="seed of the draws (reproducible)")


def monitor_options(mo: Any) -> None:
    """Add ``monitor``'s options: the pool, the labels so far, the design and estimand."""
    _common(mo)
    mo.add_argument(
        "--design", choices=DESIGNS, required=True,
        help="how the labelled items were chosen: the next-batch --design that drew them "
        "(by-human-label cannot happen)",
    )  # fmt: skip
    mo.add_argument("--estimand", choices=ESTIMANDS, default="items",
                    help="the pool's rate over items (default) or over judged rows")  # fmt: skip
    mo.add_argument("--seed", type=int, default=None,
                    help="orders labels given without a draw order (design random)")  # fmt: skip
    mo.add_argument("--json", action="store_true", help="print JSON instead of text")


def _frame(args: Any) -> Any:
    """Return the pool with the labels so far attached (from its own column or --labels files).

    The labels are joined by :func:`judgestats.readers.join_labels` on the group columns and
    the item: a label that names no item of the pool is an error naming it (the API's
    ``Monitor.update`` refuses it too); the join's sentence is kept for the output.
    """
    import pandas as pd

    from ..readers.join import UNMATCHED_ADVICE, join_labels

    pool = _read_table(args.items, {args.human: True})
    if len(pool) == 0:  # the API's words (Monitor.set_pool), with or without --by
        raise CLIError(f"the pool has no items: {args.items} has a header and no rows")
    if not args.labels:
        return pool
    if args.human in pool.columns:
        raise CLIError(
            f"the items file already has a {args.human!r} column; give the labels either "
            "there or in --labels files, not both"
        )
    parts = [_read_table(path, {args.human: False}) for path in args.labels]
    labels = pd.concat(parts, ignore_index=True)
    keys = [*(column_list(args.by) or ()), args.item]
    missing = [c for c in keys if c not in labels.columns]
    if missing:
        raise CLIError(f"the --labels files lack the column(s) {missing}")
    _check_labelled_once(parts, keys)
    try:
        joined = join_labels(pool, labels, human=args.human, on=keys, duplicates="keep",
                             carry=_ROUND)  # fmt: skip
    except ColumnError as exc:  # the API's keyword as the command's flag
        raise CLIError(cli_words(str(exc))) from exc
    except LabelError as exc:
        files = " ".join(args.labels)  # which files, beside the flag (several may be given)
        raise CLIError(re.sub(r"(\d+ labels?) read", lambda m: f"{m[1]} read from --labels "
                              f"{files}", str(exc)).replace(
            UNMATCHED_ADVICE, "every label must name an item of the pool (--item names its "
            "column)")) from exc  # fmt: skip
    args.join = f"labels: {joined.summary()}"
    return joined.frame


def _check_labelled_once(parts: list, keys: list[str]) -> None:
    """Refuse an item labelled in two ``--labels`` files (or one file given twice).

    ``Monitor.update`` refuses an item labelled again; several raters of one item are rows of
    one round's file (kept, as the join keeps them).
    """
    import pandas as pd

    each = pd.concat([p[keys].astype(str).drop_duplicates() for p in parts], ignore_index=True)
    again = each[each.duplicated(keep="first")].drop_duplicates()
    if len(again):
        shown = ["/".join(r) for r in again.to_numpy().tolist()]
        many = "items are" if len(shown) > 1 else "item is"
        raise CLIError(f"{len(shown)} {many} labelled in more than one --labels file: "
                       f"{listed(shown)}; each item is labelled once (an item enters once: "
                       "several raters of one item belong in one round's file)")  # fmt: skip


def _options(args: Any) -> dict:
    return {"item": args.item, "judge": args.judge, "human": args.human,
            "by": column_list(args.by), "strata": column_list(args.strata),
            "confidence_level": args.confidence_level,
            "target_width": args.target_width}  # fmt: skip


def _next_batch(args: Any) -> str:
    from ..sequential.selection import next_batch

    strategy = STRATEGIES[args.design]
    if strategy is None:  # a design no draw can have (the labels are chosen by their class)
        raise CLIError(f"--design {args.design} has no draws next-batch can make")
    out = next_batch(_frame(args), budget=args.budget, strategy=strategy, rng=args.seed,
                     **_options(args))  # fmt: skip
    if getattr(args, "join", None):  # the rows to label are CSV: the join is said on stderr
        sys.stderr.write(f"{args.join}\n")
    if len(out) == 0:  # never a header-only file without a word
        met = (f"every group's interval is already at most {args.target_width:g} wide "
               "(--target-width) or all its items are labelled" if args.target_width is not None
               else "every item of the pool is labelled")  # fmt: skip
        sys.stderr.write(f"nothing to label: {met}\n")
    return out.assign(**{args.human: ""}).to_csv(index=False)


def _monitor(args: Any) -> str:
    from ..sequential.selection import replay

    mon = replay(_frame(args), design=args.design, estimand=args.estimand, rng=args.seed,
                 **_options(args))  # fmt: skip
    join = getattr(args, "join", None)
    if not args.json:
        return (f"{join}\n" if join else "") + mon.summary() + "\n"
    rows = [{"group": None if k == () else k, "low": ci.low, "high": ci.high,
             "width": ci.width, "labels": mon.labels[k]}
            for k, ci in mon.intervals.items()]  # fmt: skip
    return json.dumps({"method": "betting confidence sequence", "design": args.design,
                       "estimand": args.estimand, "confidence_level": args.confidence_level,
                       "target_width": args.target_width, "should_stop": mon.should_stop,
                       "labels": join, "groups": rows}, indent=2, default=str) + "\n"  # fmt: skip


def run_next_batch(args: Any) -> str:
    """Run ``judgestats next-batch``; returns the rows to label (CSV)."""
    _check_items(args)
    if args.strategy is not None:  # the old flag: its strategy is a design's draws
        design = next(d for d, s in STRATEGIES.items() if s == args.strategy)
        if args.design not in (None, design):
            raise CLIError(f"--strategy {args.strategy} draws under --design {design}, not "
                           f"--design {args.design}: give --design alone")  # fmt: skip
        deprecated(args, f"--strategy {args.strategy} is deprecated: use --design {design} (the "
                         "old flag works until judgestats 0.3)")  # fmt: skip
        args.design = design
    args.design = args.design or "random"
    return _next_batch(args)


def run_monitor(args: Any) -> str:
    """Run ``judgestats monitor``; returns each group's interval (text or JSON)."""
    _check_items(args)
    return _monitor(args)


def _check_items(args: Any) -> None:
    spaced_columns(args, "--by", "--strata")
    if not Path(args.items).exists():
        raise CLIError(f"no such file: {args.items}")
