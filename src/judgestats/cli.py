"""The ``judgestats`` command.

``judgestats correct`` corrects a judged rate from files (CSV or Parquet), from counts, or on a
bundled example data set, and prints a table (or JSON with ``--json``). ``judgestats plan``
sizes and splits the calibration set. ``judgestats report`` corrects every model (group) of
one file of judged items and writes a Markdown, LaTeX or HTML report. Errors print one line
and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ._validation import ColumnError, GroupLabelError, JudgeStatsError, LabelError
from .correct import correct
from .counts import ConfusionCounts, JudgedCounts
from .designs import DEFAULT_DESIGN, DESIGNS
from .frames import counts_of, group_counts
from .intervals import interval_methods
from .results import display_width, pad, shorten

EXAMPLES = ("chatbot-arena", "nq301")


class CLIError(Exception):
    """A user-facing failure: printed as one line, exit status 2.

    ``kind`` names the underlying error class (for ``--json``), when there is one.
    """

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one-line :class:`CLIError` (JSON with ``--json``)."""

    def error(self, message: str):  # argparse's hook: raise instead of printing usage
        raise CLIError(f"{message} (see {self.prog} --help)", "UsageError")


# ----------------------------------------------------------------------------- I/O
def _pandas():
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise CLIError("reading files needs pandas: pip install 'judgestats[frames]'") from exc
    return pd


def _read_table(path: str, labels: dict[str, bool], group: str | None = None) -> Any:
    """Read a file with the package's reader (:func:`judgestats.io.read_table`)."""
    _pandas()
    from .io import read_table

    return read_table(path, labels=labels, group=group)


# ----------------------------------------------------------------------------- rows
def _row(
    label: str | None, test: JudgedCounts, cal: ConfusionCounts, args, design=None, **extra
) -> dict:
    row: dict[str, Any] = {"group": label} if label is not None else {}
    try:
        with warnings.catch_warnings(record=True) as caught:  # local: shown as table notes
            warnings.simplefilter("always")
            res = correct(
                test, cal, method=args.method, confidence_level=args.confidence_level,
                rng=args.seed, design=design or args.design,
            )  # fmt: skip
    except JudgeStatsError as exc:
        row.update(
            naive=test.p_hat,
            estimate=None,
            ci_low=None,
            ci_high=None,
            n=test.n,
            m0=cal.m0,
            m1=cal.m1,
            error=str(exc),
            error_type=type(exc).__name__,
        )
        row.update(extra)
        return row
    d = res.to_dict()
    row.update(
        {
            k: d[k]
            for k in (
                "naive",
                "estimate",
                "ci_low",
                "ci_high",
                "n",
                "m0",
                "m1",
                "sensitivity",
                "specificity",
                "clipped",
                "design",
            )
        }
    )
    row.update(extra)
    if caught:
        row["warnings"] = [str(w.message) for w in caught]
    return row


def _single(test: JudgedCounts, cal: ConfusionCounts, args) -> dict:
    row = _row(None, test, cal, args)
    if row.get("error"):
        raise CLIError(row["error"], row.get("error_type"))
    return row


def _rows_from_files(args) -> tuple[str, list[dict]]:
    test_df = _read_table(args.test, {args.judge_column: False}, args.by)
    cal_df = _read_table(args.calibration, {args.judge_column: False, args.human_column: False},
                         args.by)  # fmt: skip
    args.accounting = {"test file rows": len(test_df), "calibration file rows": len(cal_df)}
    for name, df, cols in (
        ("--test", test_df, [args.judge_column]),
        ("--calibration", cal_df, [args.judge_column, args.human_column]),
    ):
        for c in cols + ([args.by] if args.by else []):
            if c not in df.columns:
                raise CLIError(f"{name} file has no column {c!r}; columns are {list(df.columns)}")
    if not args.by:
        test = JudgedCounts.from_frame(test_df, judge=args.judge_column)
        cal = ConfusionCounts.from_frame(cal_df, human=args.human_column, judge=args.judge_column)
        args.accounting.update({"used as test": test.n, "used as calibration": cal.m,
                                "not used": 0})  # fmt: skip
        return f"{args.test} corrected with calibration {args.calibration}", [
            _single(test, cal, args)
        ]
    counted = group_counts(_stacked(test_df, cal_df, args), judge=args.judge_column,
                           human=args.human_column, by=(args.by,), split=_SPLIT)
    rows = []
    for key, cells in counted.counts.items():
        test_g, cal_g = counts_of(cells)
        if test_g is None:  # calibration rows only: listed, not silently left out
            if cal_g is not None:
                rows.append({"group": str(key[0]), "estimate": None, "ci_low": None,
                             "ci_high": None, "n": 0, "m0": cal_g.m0, "m1": cal_g.m1,
                             "error": f"no test rows; its {cal_g.m} calibration rows are not "
                             "used"})  # fmt: skip
            continue
        if cal_g is None:
            raise CLIError(f"group {args.by}={key[0]!r} has test rows but no calibration rows")
        rows.append(_row(str(key[0]), test_g, cal_g, args))
    used = [r for r in rows if r.get("n")]
    args.accounting.update({
        "used as test": int(sum(r["n"] for r in used)),
        "used as calibration": int(sum(r["m0"] + r["m1"] for r in used)),
        "not used": int(sum(r["m0"] + r["m1"] for r in rows if not r.get("n"))),
    })  # fmt: skip
    return f"{args.test} by {args.by}", rows


#: the split column the CLI adds when it stacks a test file and a calibration file
_SPLIT = "__judgestats_split__"


def _stacked(test_df: Any, cal_df: Any, args) -> Any:
    """One frame of test rows and calibration rows, told apart by a split column."""
    pd = _pandas()
    cols = [args.by, args.judge_column]
    test = test_df[cols].assign(**{args.human_column: float("nan"), _SPLIT: "test"})
    cal = cal_df[[*cols, args.human_column]].assign(**{_SPLIT: "calibration"})
    return pd.concat([test, cal], ignore_index=True)


def _rows_from_counts(args) -> tuple[str, list[dict]]:
    missing = [
        f"--{k}" for k in ("positive", "n", "tp", "fn", "tn", "fp") if getattr(args, k) is None
    ]
    if missing:
        raise CLIError(
            "count mode needs all of --positive --n --tp --fn --tn --fp; "
            f"missing {' '.join(missing)}"
        )
    test = JudgedCounts(positive=args.positive, n=args.n)
    cal = ConfusionCounts(tp=args.tp, fn=args.fn, tn=args.tn, fp=args.fp)
    return "corrected rate from counts", [_single(test, cal, args)]


def _rows_from_example(args) -> tuple[str, list[dict]]:
    from . import datasets

    if args.example == "chatbot-arena":
        frame = datasets.load_chatbot_arena(judge=args.judge)
        targets = datasets.ARENA_TARGETS
        what = f"Chatbot Arena win rates, human votes vs judge {frame['judge_name'].iloc[0]}"
    else:
        frame = datasets.load_nq301()
        targets = tuple(sorted(frame["target_model"].unique()))
        what = "NQ-301 QA accuracy, human correctness vs judge gpt-4"
    rng = np.random.default_rng(args.seed)
    rows = []
    for target in targets:
        sub = frame[frame["target_model"] == target]
        human = sub["human"].to_numpy()
        judge = sub["judge"].to_numpy()
        k = max(2, round(args.calibration_fraction * len(sub)))
        is_cal = np.zeros(len(sub), dtype=bool)
        is_cal[rng.permutation(len(sub))[:k]] = True
        test = JudgedCounts.from_labels(judge[~is_cal])
        cal = ConfusionCounts.from_labels(human=human[is_cal], judge=judge[is_cal])
        theta = float(human.mean())
        row = _row(target, test, cal, args, human_rate=theta)
        if row["ci_low"] is not None:
            row["covered"] = bool(row["ci_low"] <= theta <= row["ci_high"])
        if args.design != "random":  # the split is random: show what that design gives
            _random_design_columns(row, target, test, cal, args, theta)
        rows.append(row)
    pct = f"{100 * args.calibration_fraction:g}%"
    return (
        f"{what}; random {pct} calibration split per target (seed {args.seed}); "
        f"design {args.design}" + ("" if args.design == "random" else " beside design random"),
        rows,
    )


def _random_design_columns(row: dict, target, test, cal, args, theta: float) -> None:
    """Add the random design's interval beside the declared design's (the splits are random)."""
    other = _row(target, test, cal, args, design="random")
    if other.get("ci_low") is None:
        return
    row.update(
        random_estimate=other["estimate"],
        random_ci_low=other["ci_low"],
        random_ci_high=other["ci_high"],
        random_covered=bool(other["ci_low"] <= theta <= other["ci_high"]),
    )


# ----------------------------------------------------------------------------- output
def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return "-" if math.isnan(v) else f"{v:.4f}"
    return str(v)


def _table(title: str, rows: list[dict], args) -> str:
    lvl = f"{100 * args.confidence_level:g}%"
    cols = [
        ("group", "group"),
        ("naive", "naive p"),
        ("estimate", "corrected"),
        ("ci", f"{lvl} CI ({args.method}, {args.design})"),
        ("random_estimate", "corrected (random)"),
        ("random_ci", f"{lvl} CI (random design)"),
        ("human_rate", "human rate"),
        ("covered", "covered"),
        ("random_covered", "covered (random)"),
        ("n", "n"),
        ("m0", "m0"),
        ("m1", "m1"),
    ]
    cols = [
        c for c in cols
        if c[0] == "ci" or any(c[0] in r or c[0].replace("_ci", "_ci_low") in r for r in rows)
    ]  # fmt: skip
    cells = []
    for r in rows:  # long group names shortened here; --json keeps them whole
        cells.append([_ci_text(r, k[:-2]) if k.endswith("ci") else
                      shorten(_fmt(r.get(k))) if k == "group" else _fmt(r.get(k))
                      for k, _ in cols])  # fmt: skip
    widths = [max(display_width(h), *(display_width(c[i]) for c in cells))
              for i, (_, h) in enumerate(cols)]  # fmt: skip
    lines = [title, ""]
    lines.append("  ".join(pad(h, w) for (_, h), w in zip(cols, widths, strict=True)))
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(pad(c, w) for c, w in zip(cell, widths, strict=True)) for cell in cells]
    notes = [f"{r.get('group', 'result')}: {r['error']}" for r in rows if r.get("error")]
    notes += [f"{r.get('group', 'result')}: {w}" for r in rows for w in r.get("warnings", ())]
    if notes:
        lines += ["", *("note: " + n for n in notes)]
    return "\n".join(lines)


def _ci_text(row: dict, prefix: str) -> str:
    low, high = row.get(f"{prefix}ci_low"), row.get(f"{prefix}ci_high")
    return "-" if low is None else f"[{low:.4f}, {high:.4f}]"


# ----------------------------------------------------------------------------- parser
def _level(text: str) -> float:
    try:
        v = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from exc
    if not 0 < v < 1:
        raise argparse.ArgumentTypeError(f"must be strictly between 0 and 1, got {text}")
    return v


def _shared_options(p: argparse.ArgumentParser, *, what: str) -> None:
    """Options ``correct`` and ``report`` share: columns, method, level, seed, examples."""
    p.add_argument("--judge-column", default="judge", help="judge label column (default: judge)")
    p.add_argument("--human-column", default="human", help="human label column (default: human)")
    p.add_argument(
        "--method",
        default=None,
        choices=(*interval_methods(), "adjusted-delta"),
        help="interval method (default: adjusted-wald, the paper's; for judge letters in "
        "report, profile-likelihood-t, or adjusted-delta with --design random or "
        "by-judge-label)",
    )
    p.add_argument(
        "--design",
        default=DEFAULT_DESIGN,
        choices=DESIGNS,
        help="how the calibration items were chosen: by-human-label (the paper's; valid for "
        "any label mix, the default), random (a random sample of the test items) or "
        "by-judge-label (sampled within the judge's labels)",
    )
    p.add_argument("--confidence-level", type=_level, default=0.95, help="default 0.95")
    p.add_argument("--seed", type=int, default=0, help="seed for splits and resampling (default 0)")
    p.add_argument("--judge", default="gpt-4", help="--example chatbot-arena: gpt-4 or gpt-3.5")
    p.add_argument(
        "--calibration-fraction",
        type=_level,
        default=0.1,
        help=f"--example: share of {what} items used as the calibration set (default 0.1)",
    )


_COUNT_HELP = {
    "positive": "count mode: test items the judge labelled 1",
    "n": "count mode: test items in all",
    "tp": "count mode: calibration items with human 1 and judge 1",
    "fn": "count mode: calibration items with human 1 and judge 0",
    "tn": "count mode: calibration items with human 0 and judge 0",
    "fp": "count mode: calibration items with human 0 and judge 1",
}
#: Source-specific flags and their defaults: given with another data source they are an error.
_SOURCE_FLAGS = {
    "by": None, "judge": "gpt-4", "calibration_fraction": 0.1, "judge_column": "judge",
    "human_column": "human", "strata": None, "split": None, "engine": "pandas",
}  # fmt: skip


def _check_flags(args, mode: str, allowed: tuple[str, ...]) -> None:
    """Refuse flags that do not apply to the chosen data source (never ignore them)."""
    stray = [
        "--" + k.replace("_", "-") for k, default in _SOURCE_FLAGS.items()
        if hasattr(args, k) and k not in allowed and getattr(args, k) != default
    ]  # fmt: skip
    if stray:
        verb = "does" if len(stray) == 1 else "do"
        raise CLIError(f"{', '.join(stray)} {verb} not apply to {mode}")


def _correct_parser(sub: Any) -> None:
    c = sub.add_parser(
        "correct",
        help="bias-corrected rate with a confidence interval",
        description="Correct an LLM judge's positive rate for its errors (Rogan-Gladen) with an "
        "interval that accounts for the test and calibration samples.",
    )
    src = c.add_argument_group("data (one of: files, counts, --example)")
    src.add_argument("--test", metavar="FILE", help="test items with judge labels (CSV or Parquet)")
    src.add_argument(
        "--calibration", metavar="FILE", help="calibration items with human and judge labels"
    )
    src.add_argument("--example", choices=EXAMPLES, help="run on a bundled real data set")
    for k, what in _COUNT_HELP.items():
        src.add_argument(f"--{k}", type=int, metavar="N", help=what)
    c.add_argument("--by", metavar="COLUMN", help="correct each group of this column separately")
    _shared_options(c, what="the")
    c.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _plan_parser(sub: Any) -> None:
    pl = sub.add_parser(
        "plan",
        help="how many human labels: calibration size, Algorithm 1 split, judge-vs-human regime",
        description="Plan the calibration set. Modes: --width (smallest m for a target width), "
        "--pilot with --m and --p (the paper's Algorithm 1), --regime (theta range where the "
        "calibrated judge beats human-only labels).",
    )
    pl.add_argument("--width", type=float, help="target full interval width, e.g. 0.1")
    pl.add_argument("--p", type=float, help="(expected) judged positive rate on the test set")
    pl.add_argument("--q0", type=float, help="judge specificity")
    pl.add_argument("--q1", type=float, help="judge sensitivity")
    pl.add_argument("--n", type=float, help="test-set size (default: infinite)")
    pl.add_argument("--allocation", choices=("balanced", "optimal"), default="balanced")
    pl.add_argument("--confidence-level", type=_level, default=0.95, help="default 0.95")
    pl.add_argument("--pilot", metavar="TP,FN,TN,FP", help="pilot counts for Algorithm 1")
    pl.add_argument("--m", type=int, help="total calibration budget (Algorithm 1 / regime)")
    pl.add_argument("--regime", action="store_true", help="judge-vs-human theta range")
    pl.add_argument(
        "--compare", action="store_true",
        help="expected widths of the three calibration designs for --m items (with --p --q0 --q1)",
    )
    pl.add_argument(
        "--design", default=DEFAULT_DESIGN, choices=DESIGNS,
        help="--width mode: how the calibration items will be chosen (default by-human-label)",
    )
    pl.add_argument("--delta", type=float, default=0.05, help="--regime with --m: failure prob.")
    pl.add_argument("--json", action="store_true", help="print JSON instead of text")


def _report_parser(sub: Any) -> None:
    rp = sub.add_parser(
        "report",
        help="corrected rate of every model in one file, as a Markdown, LaTeX or HTML report",
        description="Correct the judged rate of every group (model) of a file with one row per "
        "judged item: rows with a human label are the calibration set, rows without one the "
        "test set (or --split says which). Writes a table, a methods sentence and the warnings "
        "in force; HTML embeds the leaderboard figure.",
    )
    rp.add_argument(
        "file", nargs="?", metavar="FILE", help="judged items (CSV, Parquet or JSON Lines)"
    )
    rp.add_argument("--inspect", metavar="LOGS",
                    help="Inspect AI eval logs (a directory or a .eval file) as the judged items")
    rp.add_argument("--human", metavar="FILE",
                    help="--inspect: human labels with a sample_id column (and model, epoch or "
                    "task where they differ) and the human column")  # fmt: skip
    rp.add_argument("--scorer", help="--inspect: the scorer that is the judge (if several)")
    rp.add_argument("--map", action="append", default=[], metavar="VERDICT=0|1",
                    help="--inspect: what a verdict other than C/I counts as, e.g. --map P=0")
    rp.add_argument("--example", choices=EXAMPLES, help="report on a bundled real data set")
    rp.add_argument(
        "--by", default="model", help="group column(s), comma-separated (default: model)"
    )
    rp.add_argument("--strata", help="stratum column(s) within each group, comma-separated")
    rp.add_argument("--split", help="column of 'test'/'calibration' (default: human label missing)")
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


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser (exposed for tests and docs)."""
    from . import __version__

    parser = _Parser(
        prog="judgestats",
        description="Honest LLM-as-a-judge numbers: correct a judge's positive rate for its "
        "errors with a small human-labelled calibration set, with an interval that accounts "
        "for both samples (correct); size the calibration set (plan); report a whole "
        "leaderboard (report).",
    )
    parser.add_argument("--version", action="version", version=f"judgestats {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _correct_parser(sub)
    _plan_parser(sub)
    _report_parser(sub)
    return parser


def _need(args, *names: str) -> None:
    missing = [f"--{k}" for k in names if getattr(args, k) is None]
    if missing:
        raise CLIError(f"this plan mode needs {' '.join(missing)}")


def _run_plan(args) -> dict:
    from . import plan

    if args.pilot is not None:
        _need(args, "m", "p")
        try:
            tp, fn, tn, fp = (int(v) for v in args.pilot.split(","))
        except ValueError as exc:
            raise CLIError(
                f"--pilot must be four integers TP,FN,TN,FP, got {args.pilot!r}"
            ) from exc
        pilot = ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp)
        with warnings.catch_warnings(record=True) as caught:  # local: reported in the output
            warnings.simplefilter("always")
            a = plan.allocate(args.m, p=args.p, pilot=pilot)
        out = {"mode": "algorithm1", "m": args.m, "m0": a.m0, "m1": a.m1, "kappa": a.kappa}
        if caught:
            out["warnings"] = [str(w.message) for w in caught]
        return out
    if args.compare:
        _need(args, "m", "p", "q0", "q1")
        c = plan.compare_designs(p=args.p, q0=args.q0, q1=args.q1, m=args.m, n=args.n,
                                 confidence_level=args.confidence_level)  # fmt: skip
        return {"mode": "compare", "rows": list(c.rows), "human_only": c.human_only,
                "theta": c.theta, "text": c.summary()}  # fmt: skip
    if args.regime:
        _need(args, "q0", "q1")
        r = plan.judge_vs_human(args.q0, args.q1, m=args.m, delta=args.delta)
        return {
            "mode": "regime",
            "q0": args.q0,
            "q1": args.q1,
            "m": args.m,
            "low": None if r is None else r.low,
            "high": None if r is None else r.high,
        }
    _need(args, "width", "p", "q0", "q1")
    res = plan.calibration_size(
        args.width,
        p=args.p,
        q0=args.q0,
        q1=args.q1,
        n=args.n,
        allocation=args.allocation,
        confidence_level=args.confidence_level,
        design=args.design,
    )
    return {
        "mode": "size",
        "design": res.design,
        "judge0": res.judge0,
        "judge1": res.judge1,
        "target_width": args.width,
        "m": res.m,
        "m0": res.m0,
        "m1": res.m1,
        "width": res.width,
        "allocation": res.allocation,
        "confidence_level": res.confidence_level,
        "n": args.n,
    }


def _plan_text(out: dict) -> str:
    if out["mode"] == "compare":
        return out["text"]
    if out["mode"] == "algorithm1":
        text = (
            f"Algorithm 1 allocation of m = {out['m']}: m0 = {out['m0']} human-0 items, "
            f"m1 = {out['m1']} human-1 items (pilot error ratio kappa = {out['kappa']:.4g})"
        )
        return "\n".join([text, *("note: " + w for w in out.get("warnings", ()))])
    if out["mode"] == "regime":
        if out["low"] is None:
            return (
                f"no theta qualifies: with q0 = {out['q0']:g}, q1 = {out['q1']:g} human-only "
                "labelling has the lower variance everywhere"
            )
        return (
            f"calibrated judge beats human-only labels for theta in "
            f"[{out['low']:.4f}, {out['high']:.4f}]"
        )
    n = "infinite" if out["n"] is None else f"{out['n']:g}"
    if out["design"] == "by-human-label":
        split = f"m0 = {out['m0']}, m1 = {out['m1']}"
    elif out["design"] == "by-judge-label":
        split = f"{out['judge0']} judge-0 and {out['judge1']} judge-1 items"
    else:
        split = "a random sample"
    return (
        f"smallest calibration set for a {100 * out['confidence_level']:g}% interval of width "
        f"<= {out['target_width']:g} (design {out['design']}, {out['allocation']} split, "
        f"n = {n}): m = {out['m']} ({split}), width {out['width']:.4f}"
    )


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
    """
    if engine == "pandas":
        by = _columns(args.by)
        judge = {} if letters else {args.judge_column: False}
        return _read_table(path, {**judge, args.human_column: True},
                           by[0] if by else None)  # fmt: skip
    from .io import check_header, sniff_format

    p = Path(path)
    kind = sniff_format(p)
    names = None if kind == "jsonl" else check_header(p, kind)  # duplicates refused here
    if kind == "jsonl":
        raise CLIError(f"--engine {engine} reads CSV and Parquet; {path} is JSON Lines "
                       "(use --engine pandas)")  # fmt: skip
    parquet = kind == "parquet"
    # group columns as text exactly as written ('NA', '007'); types inferred from every row, so
    # calibration rows after many test rows do not turn the human column into text
    text = [c for c in (*(_columns(args.by) or ()), *(_columns(args.strata) or ()), args.split)
            if c]  # fmt: skip
    missing = [c for c in text if names is not None and c not in names]
    if missing:
        raise CLIError(f"{path} has no column(s) {missing}; its columns are {names}")
    try:
        if engine == "polars":
            import polars as pl

            if parquet:
                return pl.scan_parquet(p)
            return pl.scan_csv(p, infer_schema_length=None,
                               schema_overrides=dict.fromkeys(text, pl.String))  # fmt: skip
        import duckdb

        if parquet:
            return duckdb.read_parquet(str(p))
        return duckdb.read_csv(str(p), sample_size=-1, dtype=dict.fromkeys(text, "VARCHAR"))
    except ImportError as exc:
        raise CLIError(f"--engine {engine} needs {engine}: pip install {engine}") from exc
    except Exception as exc:
        raise CLIError(f"cannot read {path}: {exc}".splitlines()[0]) from exc


def _example_frame(args) -> tuple[Any, str, str]:
    """Load a bundled data set with a seeded random calibration split per model.

    The human labels of the test rows are hidden (NaN).
    """
    from . import datasets

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


def _inspect_frame(args) -> Any:
    """Inspect logs joined with their human labels: rows without a label are test rows."""
    from .io import read_inspect_logs, read_table

    letters = args.letters or args.invalid is not None
    mapping: dict[str, Any] = {}
    for item in args.map:
        verdict, _, value = item.partition("=")
        if not verdict or (value not in ("0", "1") and not (letters and value)):
            raise CLIError(f"--map takes VERDICT=0 or VERDICT=1 (with --letters, VERDICT=LETTER), "
                           f"got {item!r}")  # fmt: skip
        mapping[verdict] = value if letters else int(value)
    items = read_inspect_logs(args.inspect, scorer=args.scorer, mapping=mapping,
                              verdicts="letters" if letters else "0/1")  # fmt: skip
    labels = read_table(args.human, labels={args.human_column: False})
    keys = [k for k in ("model", "task", "sample_id", "epoch") if k in labels.columns]
    if "sample_id" not in keys:
        raise CLIError(f"{args.human} needs a sample_id column; its columns are "
                       f"{list(labels.columns)}")  # fmt: skip
    labels = labels[[*keys, args.human_column]].astype({"sample_id": str})
    if "epoch" in keys:
        labels["epoch"] = labels["epoch"].astype(int)
    if labels.duplicated(keys).any():
        raise CLIError(f"{args.human} labels some ({', '.join(keys)}) twice")
    return items.merge(labels, on=keys, how="left", validate="many_to_one")


def _run_report(args) -> str:
    from .evaluate import evaluate
    from .report import report

    if sum(x is not None for x in (args.file, args.example, args.inspect)) != 1:
        raise CLIError("give exactly one data source: FILE, --example or --inspect")
    if (args.inspect is None) != (args.human is None):
        raise CLIError("--inspect and --human go together (logs and their human labels)")
    by: tuple[str, ...] | None
    if args.inspect:
        _check_flags(args, "--inspect", ("by", "human_column"))
        frame, title, metric = _inspect_frame(args), None, "accuracy"
        by, strata, split = _columns(args.by), None, None
        judge, human = "judge", args.human_column
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
                                      "human_column"))  # fmt: skip
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
        raise CLIError("--letters and --invalid apply to a FILE or --inspect logs")
    if args.method is None:
        args.method = "adjusted-wald"
    try:
        with warnings.catch_warnings(record=True):  # local: the report lists them as notes
            warnings.simplefilter("always")
            ev = evaluate(frame, judge=judge, human=human, by=by, strata=strata, split=split,
                          rank=args.rank, **_estimation(args))  # fmt: skip
            return report(
                ev, args.format, metric=args.metric or metric, title=args.title or title,
                reference=getattr(args, "reference", None),
                reference_name="human rate (all rows)",
            )  # fmt: skip
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

    ``errors="mark"``: one bad group must not sink the leaderboard.
    """
    return {"method": args.method, "confidence_level": args.confidence_level, "rng": args.seed,
            "design": args.design, "errors": "mark"}  # fmt: skip


def _report_letters(frame: Any, judges: tuple, args) -> str:
    """``report --letters``: every group's rate from a judge alphabet (js.evaluate's letters)."""
    from .evaluate import evaluate
    from .report import report

    if args.rank or args.strata:
        raise CLIError("--rank and --strata are not available with judge letters")
    invalid = None if args.invalid is None else [v for tok in args.invalid for v in _tokens(tok)]
    if args.engine == "pandas":  # CSV cells are text: scores that read as numbers are numbers
        frame = _numeric_letters(frame, judges)
    with warnings.catch_warnings(record=True):  # local: the report lists them as notes
        warnings.simplefilter("always")
        ev = evaluate(
            frame, judge=list(judges), human=args.human_column, by=_columns(args.by),
            split=args.split, invalid=invalid, **_estimation(args),
        )  # fmt: skip
        return report(ev, args.format, metric=args.metric or "accuracy", title=args.title)


def _fail(exc: Exception, *, as_json: bool) -> int:
    """Print an error as one line (JSON ``{error, type}`` with ``--json``); exit status 2."""
    if as_json:  # machine-readable, like the output it replaces
        kind = getattr(exc, "kind", None) or type(exc).__name__
        print(json.dumps({"error": str(exc), "type": kind}))
    else:
        print(f"judgestats: error: {exc}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``judgestats`` command; returns the exit status."""
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
        print(json.dumps(payload, indent=2))
    else:
        print(_table(title, rows, args))
        if accounting:
            print("input rows: " + ", ".join(f"{k} {v}" for k, v in accounting.items()))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
