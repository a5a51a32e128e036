"""``judgestats next-batch`` and ``judgestats monitor``: labelling in rounds from files.

The items file is the judged pool (one row per judged row); the labels so far are either its
own ``human`` column or one or more ``--labels`` files, each a round written by ``next-batch``
with the ``human`` column filled in.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..sequential.monitor import DESIGNS, ESTIMANDS
from ..sequential.selection import STRATEGY_NAMES
from .inputs import _read_table
from .options import CLIError, _level

_COMMON_HELP = {
    "item": "item id column (default item; rows sharing an id are one item's judged rows)",
    "judge": "judge verdict column (0/1 or letters; default judge)",
    "human": "human label column of the labels so far (default human)",
}


def _common(p: Any) -> None:
    p.add_argument("items", help="the judged pool: CSV, Parquet or JSON Lines")
    p.add_argument(
        "--labels", nargs="+", default=[], metavar="FILE",
        help="label files so far (rounds written by next-batch, human filled in)",
    )  # fmt: skip
    for name, text in _COMMON_HELP.items():
        p.add_argument(f"--{name}", default=name, help=text)
    p.add_argument("--by", nargs="+", default=None, metavar="COLUMN",
                   help="group columns: one sequence per group (e.g. model)")  # fmt: skip
    p.add_argument("--strata", nargs="+", default=None, metavar="COLUMN",
                   help="covariate strata: sampling cells are letters within strata")  # fmt: skip
    p.add_argument("--target-width", type=float, default=None,
                   help="stop once every group's interval is at most this wide")  # fmt: skip
    p.add_argument("--confidence-level", type=_level, default=0.95, help="default 0.95")


def next_batch_options(nb: Any) -> None:
    """Add ``next-batch``'s options: the pool, the labels so far, the budget and strategy."""
    _common(nb)
    nb.add_argument("--budget", type=int, required=True, help="items to draw per group")
    nb.add_argument(
        "--strategy", choices=STRATEGY_NAMES, default="uniform",
        help="uniform (design random) or by-judge-label (Neyman across letters)",
    )  # fmt: skip
    nb.add_argument("--seed", type=int, default=None, help="seed of the draws (reproducible)")
    nb.add_argument("--out", default=None, help="write the rows here (CSV; default stdout)")


def monitor_options(mo: Any) -> None:
    """Add ``monitor``'s options: the pool, the labels so far, the design and estimand."""
    _common(mo)
    mo.add_argument(
        "--design", choices=DESIGNS, required=True,
        help="how the labelled items were chosen (by-human-label cannot happen)",
    )  # fmt: skip
    mo.add_argument("--estimand", choices=ESTIMANDS, default="items",
                    help="the pool's rate over items (default) or over judged rows")  # fmt: skip
    mo.add_argument("--seed", type=int, default=None,
                    help="orders labels given without a draw order (design random)")  # fmt: skip
    mo.add_argument("--json", action="store_true", help="print JSON instead of text")


def _frame(args: Any) -> Any:
    """Return the pool with the labels so far attached (from its own column or --labels files)."""
    import pandas as pd

    pool = _read_table(args.items, {args.human: True})
    if not args.labels:
        return pool
    if args.human in pool.columns:
        raise CLIError(
            f"the items file already has a {args.human!r} column; give the labels either "
            "there or in --labels files, not both"
        )
    parts = [_read_table(path, {args.human: False}) for path in args.labels]
    labels = pd.concat(parts, ignore_index=True)
    keys = [*(args.by or []), args.item]
    missing = [c for c in keys if c not in labels.columns]
    if missing:
        raise CLIError(f"the --labels files lack the column(s) {missing}")
    keep = [c for c in labels.columns if c in {*keys, args.human, "round", "draw",
                                                  "inclusion_probability"}]  # fmt: skip
    return pool.merge(labels[keep], on=keys, how="left")


def _options(args: Any) -> dict:
    return {"item": args.item, "judge": args.judge, "human": args.human, "by": args.by,
            "strata": args.strata, "confidence_level": args.confidence_level,
            "target_width": args.target_width}  # fmt: skip


def _next_batch(args: Any) -> str:
    from ..sequential.selection import next_batch

    out = next_batch(_frame(args), budget=args.budget, strategy=args.strategy, rng=args.seed,
                     **_options(args))  # fmt: skip
    out = out.assign(**{args.human: ""})
    if args.out:
        try:
            out.to_csv(args.out, index=False)
        except OSError as exc:
            raise CLIError(f"cannot write {args.out}: {exc.strerror}") from exc
        return f"wrote {len(out)} items to label to {args.out}\n"
    return out.to_csv(index=False)


def _monitor(args: Any) -> str:
    from ..sequential.selection import replay

    mon = replay(_frame(args), design=args.design, estimand=args.estimand, rng=args.seed,
                 **_options(args))  # fmt: skip
    if not args.json:
        return mon.summary() + "\n"
    rows = [{"group": None if k == () else k, "low": ci.low, "high": ci.high,
             "width": ci.width, "labels": mon.labels[k]}
            for k, ci in mon.intervals.items()]  # fmt: skip
    return json.dumps({"method": "betting confidence sequence", "design": args.design,
                       "estimand": args.estimand, "confidence_level": args.confidence_level,
                       "target_width": args.target_width, "should_stop": mon.should_stop,
                       "groups": rows}, indent=2, default=str) + "\n"  # fmt: skip


def run_next_batch(args: Any) -> str:
    """Run ``judgestats next-batch``; returns the rows to label (or the path written)."""
    _check_items(args)
    return _next_batch(args)


def run_monitor(args: Any) -> str:
    """Run ``judgestats monitor``; returns each group's interval (text or JSON)."""
    _check_items(args)
    return _monitor(args)


def _check_items(args: Any) -> None:
    if not Path(args.items).exists():
        raise CLIError(f"no such file: {args.items}")
