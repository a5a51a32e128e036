"""Reading a command's input into rows: counts given as flags, label files, the bundled examples.

Every path counts through :func:`judgestats.frames.group_counts` (the one path from a frame
to counts; files by group through ``evaluate``'s own counting, which warns of repeated items
as :func:`judgestats.evaluate` does); a row is one model's test and calibration counts.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np

from .._validation import (
    JudgeStatsError,
    LookalikeGroupsWarning,
    RepeatedItemsWarning,
    check_missing_keys,
)
from ..correct import correct_spec
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import RANDOM
from ..evaluate.counting import ITEM_COLUMNS, count_groups
from ..frames import counts_of
from ..results import group_label
from ..spec import EstimationSpec, resolve_spec
from .options import CLIError, column_list


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
    from ..io import read_table

    return read_table(path, labels=labels, group=group)


# ----------------------------------------------------------------------------- rows
def _row(
    label: str | None, test: JudgedCounts, cal: ConfusionCounts, args, spec: EstimationSpec,
    **extra,
) -> dict:
    """One model's corrected rate under the command's spec (or its error, as the row's)."""
    row: dict[str, Any] = {"group": label} if label is not None else {}
    try:
        with warnings.catch_warnings(record=True) as caught:  # local: shown as table notes
            warnings.simplefilter("always")
            res = correct_spec(spec, test, cal, rng=args.seed)
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
                "method",  # the method that answered (auto names its choice)
                "estimator",
            )
        }
    )
    row.update({k: d[k] for k in ("chosen_by", "paper_ci_low", "paper_ci_high") if k in d})
    row.update(extra)
    if caught:
        row["warnings"] = [str(w.message) for w in caught]
    return row


def _single(test: JudgedCounts, cal: ConfusionCounts, args, spec: EstimationSpec) -> dict:
    row = _row(None, test, cal, args, spec)
    if row.get("error"):
        raise CLIError(row["error"], row.get("error_type"))
    return row


def _rows_from_files(args, spec: EstimationSpec) -> tuple[str, list[dict]]:
    by = column_list(args.by) or ()
    test_df = _read_table(args.test, {args.judge_column: False, args.human_column: True},
                          by[0] if by else None)  # fmt: skip
    same = _same_file(args.test, args.calibration)  # report's split: labelled rows calibrate
    cal_df = (test_df[test_df[args.human_column].notna()]
              if same and args.human_column in test_df.columns else
              _read_table(args.calibration, {args.judge_column: False,
                                             args.human_column: False},
                          by[0] if by else None))  # fmt: skip
    for flag, path, df in (("--test", args.test, test_df), ("--calibration", args.calibration,
                                                            cal_df)):  # fmt: skip
        if len(df) == 0:  # never a table of dashes, with or without --by
            raise CLIError(f"the {flag} file {path} has no rows (a header only)")
    args.accounting = {"test file rows": len(test_df), "calibration file rows": len(cal_df)}
    for name, df, cols in (
        ("--test", test_df, [args.judge_column]),
        ("--calibration", cal_df, [args.judge_column, args.human_column]),
    ):
        for c in [*cols, *by, *([args.cluster] if args.cluster else [])]:
            if c not in df.columns:
                raise CLIError(f"{name} file has no column {c!r}; columns are {list(df.columns)}")
        _check_item_ids(df, args, name)
    if args.cluster and not same:
        _check_cluster_spelling(test_df[args.cluster], cal_df[args.cluster], args.cluster)
    test_df = _test_rows(test_df, args, same)
    stacked = _stacked(test_df, cal_df, args, by or (_ALL,))
    with warnings.catch_warnings(record=True) as caught:  # one line each, as the CLI's own
        warnings.simplefilter("always", LookalikeGroupsWarning)
        warnings.simplefilter("always", RepeatedItemsWarning)
        counted = count_groups(stacked, {"judge": args.judge_column, "human": args.human_column,
                                         "by": by or (_ALL,), "strata": None, "split": _SPLIT},
                               cluster=args.cluster, design=spec.design)  # fmt: skip
    echo_guard_warnings(caught, pooled=f", in {_ALL}={_ALL_VALUE!r}" if not by else None)
    if not by:
        test, cal = counts_of(*_only_group(counted))
        if test is None or cal is None:
            raise CLIError(f"the --test file {args.test} has no rows without a human label "
                           f"({args.human_column!r}): nothing to correct")  # fmt: skip
        args.accounting.update({"used as test": test.n, "used as calibration": cal.m,
                                "not used": 0})  # fmt: skip
        return f"{args.test} corrected with calibration {args.calibration}{_items(args)}", [
            _single(test, cal, args, spec)
        ]
    rows = _group_rows(counted, by, args, spec)
    used = [r for r in rows if r.get("n")]
    args.not_used = [f"{_group(by, r['group'])}: {r['m0'] + r['m1']} calibration rows, no test "
                     "rows" for r in rows if not r.get("n")]  # fmt: skip
    args.accounting.update({
        "used as test": int(sum(r["n"] for r in used)),
        "used as calibration": int(sum(r["m0"] + r["m1"] for r in used)),
        "not used": int(sum(r["m0"] + r["m1"] for r in rows if not r.get("n"))),
    })  # fmt: skip
    return f"{args.test} by {', '.join(by)}{_items(args)}", rows


#: At most this many calibration ids without a test twin are checked for a near miss (a
#: spelling that differs between two files is usually the whole column's, so the first show it).
_NEAR_MISS_CHECKED = 200


def _check_cluster_spelling(test_ids: Any, cal_ids: Any, column: str) -> None:
    """Refuse item ids that the two files write differently (``--cluster``), as the join does.

    An item id of the calibration file that is not in the test file but is one of its ids
    written another way (case, spaces, ``0.0`` for ``0``: the rule of
    :func:`judgestats.readers.join_labels`) would count as a different item; the error names
    the first such id and its twin.
    """
    from ..readers.join import _near_miss, _text

    judged = {_text(v) for v in test_ids.dropna().tolist()}
    unmatched = [i for i in dict.fromkeys(_text(v) for v in cal_ids.dropna().tolist())
                 if i not in judged][:_NEAR_MISS_CHECKED]  # fmt: skip
    for value in unmatched:
        miss = _near_miss(value, judged)
        if miss is not None:
            raise CLIError(f"--cluster {column}: item {value!r} of the calibration file is "
                           f"{miss[0]!r} in the test file ({miss[1]}), so its rows would count "
                           "as another item; write the ids alike in both files", "LabelError")
    return None


#: the one group of ``correct`` without ``--by`` (the stacked files counted as one group)
_ALL, _ALL_VALUE = "__judgestats_all__", "all"


def _only_group(counted: Any) -> tuple[Any, Any]:
    """Return the cells (and, with --cluster, items) of ``correct``'s one group without --by."""
    ((key, cells),) = counted.counts.items()
    return cells, (counted.clusters or {}).get(key)


def echo_guard_warnings(caught: Any, *, pooled: str | None = None) -> None:
    """Write the frame's guard rails on stderr, one line each (``correct`` and ``report``).

    A :class:`~judgestats.RepeatedItemsWarning` gets the flag that counts the items
    (``--cluster COLUMN``); ``pooled``: the name of ``correct``'s one group without ``--by``,
    left out of the line. Other warnings are left to the caller.
    """
    for w in caught:
        text = str(w.message)
        if issubclass(w.category, RepeatedItemsWarning):
            text = text.replace(pooled, "") if pooled else text
            flag = f" (--cluster {text.split(chr(39))[1]})" if "pass cluster=" in text else ""
            sys.stderr.write(f"warning: {text}{flag}\n")
        elif issubclass(w.category, LookalikeGroupsWarning):
            sys.stderr.write(f"warning: {text}\n")


def _test_rows(test_df: Any, args, same: bool) -> Any:
    """Return the test file's rows without a human label: a labelled row is a calibration row.

    ``report``'s rule (a row whose human label is missing is a test row, the others
    calibration rows): the test file's labelled rows are not counted again as test rows. Where
    they are, one line on stderr says so, and whether the calibration file holds them.
    """
    if args.human_column not in test_df.columns:
        return test_df
    labelled = test_df[args.human_column].notna()
    k = int(labelled.sum())
    if k == 0:
        return test_df
    sys.stderr.write(
        f"note: {k} rows of the --test file carry a human label ({args.human_column!r}): they "
        "are calibration rows, not test rows (as report splits a file), and "
        + ("as the --calibration file (the same file) they calibrate\n" if same else
           "are not counted as test rows; only the --calibration file's rows calibrate\n")
    )  # fmt: skip
    args.accounting["labelled rows of the test file (not test)"] = k
    return test_df[~labelled]


def _check_item_ids(df: Any, args, flag: str) -> None:
    """Refuse an empty ``--cluster`` cell (a missing item id), naming the file holding it."""
    if args.cluster:
        try:
            check_missing_keys({args.cluster: int(df[args.cluster].isna().sum())},
                               {args.cluster: "cluster"})  # fmt: skip
        except JudgeStatsError as exc:
            path = args.test if flag == "--test" else args.calibration
            raise CLIError(f"the {flag} file {path}: {exc}") from exc


def _same_file(a: str, b: str) -> bool:
    from pathlib import Path

    try:
        return Path(a).resolve() == Path(b).resolve() or Path(a).samefile(b)
    except OSError:
        return False


def _items(args) -> str:
    """Say, in a table's title, that rows sharing an item were counted as one (``--cluster``)."""
    return "" if not args.cluster else (f"; rows sharing an item ({args.cluster}) count as one "
                                        "item (repeated items)")  # fmt: skip


def _group(by: tuple[str, ...], label: str) -> str:
    """Name a group in a message: ``model='a'``, or ``model, task='a / x'``."""
    return f"{', '.join(by)}={label!r}"


def _group_rows(counted: Any, by: tuple[str, ...], args, spec: EstimationSpec) -> list[dict]:
    """One row per group: its correction, or why its calibration rows are not used."""
    rows = []
    items = counted.clusters or {}  # with --cluster: each group's items and their cells
    for key, cells in counted.counts.items():
        label = group_label(key if len(by) > 1 else key[0])
        test_g, cal_g = counts_of(cells, items.get(key))
        if test_g is None:  # calibration rows only: listed, not silently left out
            if cal_g is not None:
                rows.append({"group": label, "estimate": None, "ci_low": None,
                             "ci_high": None, "n": 0, "m0": cal_g.m0, "m1": cal_g.m1,
                             "error": f"no test rows; its {cal_g.m} calibration rows are not "
                             f"used{_case_twin(key, counted.counts, 'test')}"})  # fmt: skip
            continue
        if cal_g is None:
            raise CLIError(f"group {_group(by, label)} has test rows but no calibration rows"
                           f"{_case_twin(key, counted.counts, 'calibration')}")  # fmt: skip
        rows.append(_row(label, test_g, cal_g, args, spec))
    return rows


def _case_twin(key: tuple, counts: dict, other: str) -> str:
    """Name the groups whose names differ from ``key``'s in case only (matched exactly)."""
    fold = tuple(str(v).casefold() for v in key)
    twins = [k for k in counts if k != key and tuple(str(v).casefold() for v in k) == fold]
    if not twins:
        return ""
    names = ", ".join(repr(group_label(k if len(k) > 1 else k[0])) for k in twins)
    return (f" (the {other} rows have {names}, which differs only in case: group names are "
            "matched exactly; write them alike in both files)")


#: the split column the CLI adds when it stacks a test file and a calibration file
_SPLIT = "__judgestats_split__"


def _stacked(test_df: Any, cal_df: Any, args, by: tuple[str, ...]) -> Any:
    """One frame of test rows and calibration rows, told apart by a split column."""
    pd = _pandas()
    items = [] if args.cluster else [  # for the repeated-items check, where every row has one
        c for c in ITEM_COLUMNS if all(c in df.columns and not df[c].isna().any()
                                       for df in (test_df, cal_df))][:1]  # fmt: skip
    if _ALL in by:  # correct without --by: the files are one group
        test_df, cal_df = (df.assign(**{_ALL: _ALL_VALUE}) for df in (test_df, cal_df))
    cols = [*by, *([args.cluster] if args.cluster else items), args.judge_column]
    test = test_df[cols].assign(**{args.human_column: float("nan"), _SPLIT: "test"})
    cal = cal_df[[*cols, args.human_column]].assign(**{_SPLIT: "calibration"})
    return pd.concat([test, cal], ignore_index=True)


def _rows_from_counts(args, spec: EstimationSpec) -> tuple[str, list[dict]]:
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
    return "corrected rate from counts", [_single(test, cal, args, spec)]


def _rows_from_example(args, spec: EstimationSpec) -> tuple[str, list[dict]]:
    """Every model of a bundled data set, with a seeded random calibration split each.

    The splits are random samples, so where the declared design is another, the random
    design's interval is shown beside its own (where the method is available there).
    """
    from .. import datasets

    if args.example == "chatbot-arena":
        frame = datasets.load_chatbot_arena(judge=args.judge)
        targets = datasets.ARENA_TARGETS
        what = f"Chatbot Arena win rates, human votes vs judge {frame['judge_name'].iloc[0]}"
    else:
        frame = datasets.load_nq301()
        targets = tuple(sorted(frame["target_model"].unique()))
        what = "NQ-301 QA accuracy, human correctness vs judge gpt-4"
    rng = np.random.default_rng(args.seed)
    beside = not spec.design.calibration_samples_test  # the split is random: show that design
    random_spec = _random_spec(spec) if beside else None
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
        row = _row(target, test, cal, args, spec, human_rate=theta)
        if row["ci_low"] is not None:
            row["covered"] = bool(row["ci_low"] <= theta <= row["ci_high"])
        if random_spec is not None:
            _random_design_columns(row, target, test, cal, args, theta, random_spec)
        rows.append(row)
    pct = f"{100 * args.calibration_fraction:g}%"
    if beside:
        args.note = _example_note(rows, pct)
    return (
        f"{what}; random {pct} calibration split per target (seed {args.seed}); "
        f"design {spec.design}" + (f" beside design {RANDOM}" if beside else ""),
        rows,
    )


def _random_spec(spec: EstimationSpec) -> EstimationSpec | None:
    """Return the random design's spec with the same method (None: it has not the method)."""
    try:
        return resolve_spec(judge=spec.judge, target=spec.target, design=RANDOM,
                            method=spec.method, confidence_level=spec.confidence_level)
    except JudgeStatsError:
        return None


def _example_note(rows: list[dict], pct: str) -> str | None:
    """One sentence on why the paper's design looks worse than the naive rate in the example."""
    done = [r for r in rows if r.get("estimate") is not None]
    if not done:
        return None
    worst = max(done, key=lambda r: abs(r["estimate"] - r["human_rate"]))
    missed = [r["group"] for r in done if r.get("covered") is False]
    miss = f" (missed here on {len(missed)} of {len(done)}: {', '.join(missed)})"
    return (
        f"why: with {pct} calibration the paper's design (by-human-label) gives a noisy point, "
        f"usually further from the human rate than the naive p (here {worst['group']} "
        f"{worst['estimate']:.4f} against {worst['human_rate']:.4f}), with an interval wide "
        f"enough to hold the human rate at the stated level{miss if missed else ''}; design "
        "random is closer and shorter because these calibration items are a random sample of "
        "each model's items: use it "
        "only when yours are (README: 'How did you sample your calibration set?')"
    )


def _random_design_columns(
    row: dict, target, test, cal, args, theta: float, spec: EstimationSpec
) -> None:
    """Add the random design's interval beside the declared design's (the splits are random)."""
    other = _row(target, test, cal, args, spec)
    if other.get("ci_low") is None:
        return
    row.update(
        random_estimate=other["estimate"],
        random_ci_low=other["ci_low"],
        random_ci_high=other["ci_high"],
        random_covered=bool(other["ci_low"] <= theta <= other["ci_high"]),
    )
