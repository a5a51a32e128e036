"""Judge scores, juries and covariates on the command line (``correct`` and ``report``).

The flags (:func:`judge_options`) say how the judge column(s) are read: ``--judge a,b`` names
several judges (a jury under the paper's design, ``--combine`` as ``js.evaluate(combine=)``
takes it), ``--calibrator`` makes a numeric judge column a *score* (as does a column of
numbers not all 0/1 under ``--design random``: the API's rule), ``--bins``/``--threshold`` are
the score's small-sample fallback declared in advance and ``--covariates`` goes to
``js.evaluate(covariates=)``. ``correct`` with two files corrects them through
:func:`judgestats.evaluate` (:func:`rows_from_judges`), one row per group from each result's
``to_dict()``: the estimator, the calibrator, λ̂, the fallback, the effective labels and a
jury's weights. Every error is the API's, one line, exit 2.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

from .._validation import JudgeStatsError, LabelError
from ..results import group_label
from .options import CLIError, column_list

__all__ = [
    "check_judge_flags",
    "judge_keywords",
    "judge_options",
    "judges_given",
    "rows_from_judges",
    "to_score",
]

#: The calibrators of a judge score (:data:`judgestats.scores.calibration.CALIBRATORS`),
#: written out so that building the parser loads no estimator.
CALIBRATORS = ("isotonic", "binned", "logistic")


def _floats(text: str) -> tuple[float, ...]:
    """Read ``--bins 0.2,0.5,0.8`` (comma-separated numbers)."""
    import argparse

    try:
        return tuple(float(v) for v in text.split(",") if v.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, got {text!r}"
                                         ) from exc  # fmt: skip


def judge_options(p: Any) -> None:
    """Add the flags of judge scores, juries and covariates (``correct`` and ``report``)."""
    from ..evaluate.letters import COMBINE  # the API's list: a new combine is a new choice
    from ..jury.combined import DEFAULTS  # the measured default per design (one home)

    g = p.add_argument_group("judge scores, juries and covariates (FILE, --test/--calibration)")
    g.add_argument(
        "--combine", choices=COMBINE, default=None,
        help="several judges (--judge a,b): how their verdicts combine (js.evaluate(combine=)): "
        "'stack' a cross-fitted logistic regression on every judge in the prediction-powered "
        "mean (--design random only), 'mean' the judges' mean, 'letters' their product letters "
        "(0/1 judges under by-human-label: the minimum-variance jury). Default: the API's, "
        "measured per design: " + ", ".join(f"{v!r} under {k}" for k, v in DEFAULTS.items()),
    )  # fmt: skip
    g.add_argument(
        "--calibrator", choices=CALIBRATORS, default=None,
        help="the judge column is a numeric score (probability, logit, 1-10 rating), "
        "calibrated to the human label by cross-fitting, then the prediction-powered mean "
        "(--design random; a column of numbers not all 0/1 is a score there without this flag, "
        "calibrated by isotonic)",
    )  # fmt: skip
    g.add_argument("--bins", type=_floats, default=None, metavar="EDGES",
                   help="score bin edges declared before labelling (comma-separated): the "
                   "binned calibrator's bins and the letters of the fallback under 100 "
                   "labelled items")  # fmt: skip
    g.add_argument("--threshold", type=float, default=None, metavar="X",
                   help="a score's fallback under 100 labelled items: the letter score > X")
    g.add_argument("--folds", type=int, default=None, metavar="K",
                   help="a score's cross-fitting folds (default 5)")
    g.add_argument("--covariates", default=None, metavar="COLUMN[,COLUMN]",
                   help="covariate columns (length, position, category) passed to "
                   "js.evaluate(covariates=)")  # fmt: skip


def judges_given(args: Any) -> bool:
    """Whether ``correct`` corrects through ``js.evaluate``: several judges, or score flags."""
    several = len(column_list(args.judge_column or args.judge) or ()) > 1
    return several or args.combine is not None or any(
        getattr(args, k) is not None
        for k in ("calibrator", "bins", "threshold", "folds", "covariates"))  # fmt: skip


def judge_keywords(args: Any) -> dict[str, Any]:
    """``js.evaluate``'s keywords of the judge flags given (none of them: an empty dict)."""
    out: dict[str, Any] = {}
    if args.combine is not None:  # else the API's measured default for the design
        out["combine"] = args.combine
    for k in ("calibrator", "threshold", "folds"):
        if getattr(args, k) is not None:
            out[k] = getattr(args, k)
    if args.bins is not None:
        out["bins"] = list(args.bins)
    if args.covariates is not None:
        out["covariates"] = list(column_list(args.covariates) or ())
    return out


def to_score(frame: Any, column: str, path: str) -> Any:
    """Read a judge column of a pandas frame as numbers, else as 0/1 labels (named error).

    A CSV's cells are text: numbers become numbers (a score, or 0/1 letters); anything else
    is read as :func:`judgestats.io.parse_labels` reads labels, its error naming the line.
    """
    import pandas as pd

    from ..io import parse_labels

    if column not in frame.columns:
        return frame
    try:
        values = pd.to_numeric(frame[column])
    except (ValueError, TypeError):
        try:
            values = parse_labels(frame[column].tolist(), column, missing_ok=False)
        except LabelError as exc:
            raise LabelError(f"{path}: {exc}") from exc
    return frame.assign(**{column: values})


def _read(args: Any, judges: tuple, by: tuple) -> tuple[Any, Any]:
    """Return the test and calibration files, judge columns as numbers, every column checked.

    The same file twice: its labelled rows calibrate (``report``'s split of one file).
    """
    from .inputs import _read_table, _same_file

    group = by[0] if by else None
    test = _read_table(args.test, {args.human_column: True}, group)
    same = _same_file(args.test, args.calibration)
    cal = (test[test[args.human_column].notna()] if same and args.human_column in test.columns
           else _read_table(args.calibration, {args.human_column: False}, group))  # fmt: skip
    covariates = column_list(args.covariates) or ()
    extra = [*by, *covariates, *([args.cluster] if args.cluster else [])]
    for flag, path, df, cols in (("--test", args.test, test, [*judges, *extra]),
                                 ("--calibration", args.calibration, cal,
                                  [*judges, args.human_column, *extra])):  # fmt: skip
        if len(df) == 0:
            raise CLIError(f"the {flag} file {path} has no rows (a header only)")
        for c in cols:
            if c not in df.columns:
                raise CLIError(f"{flag} file has no column {c!r}; columns are {list(df.columns)}")
    for j in judges:
        test, cal = to_score(test, j, args.test), to_score(cal, j, args.calibration)
    return test, cal


def _frame(args: Any, judges: tuple, by: tuple) -> Any:
    """One frame of test rows (no human label) and calibration rows, with the counts said."""
    import pandas as pd

    from .inputs import _ALL, _ALL_VALUE, _same_file

    test, cal = _read(args, judges, by)
    args.accounting = {"test file rows": len(test), "calibration file rows": len(cal)}
    if args.human_column in test.columns:
        labelled = test[args.human_column].notna()
        if labelled.any():  # report's rule: a labelled row calibrates, it is no test row
            same = _same_file(args.test, args.calibration)
            sys.stderr.write(f"note: {int(labelled.sum())} rows of the --test file carry a human "
                             f"label ({args.human_column!r}): they are calibration rows, not "
                             "test rows" + (", and as the --calibration file (the same file) "
                                            "they calibrate\n" if same else "\n"))  # fmt: skip
        test = test[~labelled]
    cols = [*dict.fromkeys([*by, *judges, *(column_list(args.covariates) or ()),
                            *([args.cluster] if args.cluster else [])])]  # fmt: skip
    frame = pd.concat([test[cols].assign(**{args.human_column: float("nan")}),
                       cal[[*cols, args.human_column]]], ignore_index=True)  # fmt: skip
    if not by:
        frame[_ALL] = _ALL_VALUE
    args.accounting.update({"used as test": len(test), "used as calibration": len(cal)})
    return frame.astype({args.human_column: float})


def rows_from_judges(args: Any) -> tuple[str, list[dict]]:
    """``correct --test --calibration`` with a score, a jury or covariates: ``js.evaluate``.

    One row per group (its result's ``to_dict()``; a jury's ``weights`` as a mapping); a
    group that could not be corrected keeps a row with its error (``--by``); without ``--by``
    its error is the command's.
    """
    from ..evaluate import evaluate
    from .inputs import _ALL, _ALL_VALUE, _items, echo_guard_warnings

    if args.test is None or args.calibration is None:
        raise CLIError("file mode needs both --test and --calibration")
    judges = column_list(args.judge_column) or ("judge",)
    by = column_list(args.by) or ()
    frame = _frame(args, judges, by)
    pooled = f"{_ALL}={_ALL_VALUE!r}"  # correct's one group without --by: never named
    try:
        with warnings.catch_warnings(record=True) as caught:  # groups': their rows' notes
            warnings.simplefilter("always")
            ev = evaluate(frame, judge=judges[0] if len(judges) == 1 else list(judges),
                          human=args.human_column, by=by or (_ALL,), design=args.design,
                          method=args.method, confidence_level=args.confidence_level,
                          rng=args.seed, cluster=args.cluster,
                          errors="mark" if by else "raise", **judge_keywords(args))  # fmt: skip
    except JudgeStatsError as exc:
        if by:
            raise
        raise CLIError(str(exc).replace(f"in group {pooled}: ", "").replace(f", in {pooled}", ""),
                       type(exc).__name__) from exc  # fmt: skip
    echo_guard_warnings(caught, pooled=None if by else f", in {pooled}")
    args.method, args.design = ev.method, ev.design  # the table's header and JSON say them
    rows = [_row(g, ev, bool(by)) for g in ev.groups]
    rows += [{"group": group_label(g), "estimate": None, "ci_low": None, "ci_high": None,
              "error": why} for g, why in ev.marked.items()]  # fmt: skip
    args.judge_summary = _judge_summary(ev, judges, args)
    combine = args.judge_summary.get("combine")
    jury = "jury of " + ", ".join(judges) + ("" if combine in (None, "letters") else
                                             f" (combine {combine!r})")  # fmt: skip
    what = {"score": f"judge score {judges[0]!r}", "jury": jury,
            "letters": "the product letters of judges " + ", ".join(judges)}.get(
        args.judge_summary["kind"], f"judge {judges[0]!r}")  # fmt: skip
    where = f" by {', '.join(by)}" if by else f" corrected with calibration {args.calibration}"
    return f"{args.test}{where}; {what}{_items(args)}", rows


def _row(g: Any, ev: Any, grouped: bool) -> dict:
    """One group's row: its result's ``to_dict()``, the jury's weights, the warnings."""
    c = ev.corrections[g]
    row: dict[str, Any] = {"group": group_label(g)} if grouped else {}
    row.update(_jury_dict(c))
    issued = [msg for _, msg in ev.warnings.get(g, ())]
    if issued:
        row["warnings"] = issued
    return row


def _judge_summary(ev: Any, judges: tuple, args: Any) -> dict[str, Any]:
    """Return what the JSON says of the judge(s): kind, columns, calibrator or combine."""
    first: Any = next(iter(ev.corrections.values()), None)
    kind = getattr(type(first), "kind", None)
    combined = getattr(first, "combine", None)  # js.jury.correct_combined's result
    out: dict[str, Any] = {"columns": list(judges),
                           "kind": "jury" if combined else {
                               "score-correction": "score", "jury": "jury"}.get(
                               str(kind), "letters" if len(judges) > 1 else "letter")}
    if out["kind"] == "score" or str(kind) == "score-correction":
        out["calibrator"] = first.calibrator
    if len(judges) > 1:  # the combine that answered (None given: the design's default)
        out["combine"] = combined or args.combine or "letters"
    return out


def check_judge_flags(args: Any, mode: str) -> None:
    """Refuse the judge flags with a data source that has no judge columns (counts)."""
    given = [f"--{k}" for k in ("calibrator", "bins", "threshold", "folds", "covariates")
             if getattr(args, k, None) is not None]  # fmt: skip
    if getattr(args, "combine", None) not in (None, "letters"):  # letters: the one jury here
        given.append("--combine")
    if given:
        verb = "does" if len(given) == 1 else "do"
        raise CLIError(f"{', '.join(given)} {verb} not apply to {mode}")



def several_judges(args: Any) -> bool:
    """Whether ``--judge`` names several judges (comma-separated)."""
    return len(column_list(args.judge_column or args.judge) or ()) > 1


def rows_from_jury_example(args: Any) -> tuple[str, list[dict]]:
    """``correct --example chatbot-arena --judge gpt-4,gpt-3.5``: the bundled judges as a jury.

    Each target's calibration split is the single judge's (the same seeded draws, in the same
    order: both judges' rows are the same comparisons), so the jury's row reads beside either
    judge's ``--example chatbot-arena --judge NAME``. The jury's interval is
    :func:`judgestats.jury.correct_jury`'s (``--method``, default ``min-variance``) on the
    product letters; ``covered`` says whether it holds the human rate of all the target's rows.
    """
    import numpy as np

    from .. import datasets
    from ..jury import correct_jury
    from ..multiclass import CategoryCounts, ConfusionMatrix

    judges = column_list(args.judge) or ()
    frames = [datasets.load_chatbot_arena(judge=j) for j in judges]
    letters = np.array(["|".join(v) for v in zip(*(f["judge"].astype(int).astype(str)
                                                    for f in frames), strict=True)])
    alphabet = tuple("|".join(map(str, v)) for v in np.ndindex(*(2,) * len(judges)))
    base, rng, rows = frames[0], np.random.default_rng(args.seed), []
    for target in datasets.ARENA_TARGETS:
        mask = (base["target_model"] == target).to_numpy()
        human, said = base["human"].to_numpy()[mask], letters[mask]
        k = max(2, round(args.calibration_fraction * len(said)))
        is_cal = np.zeros(len(said), dtype=bool)
        is_cal[rng.permutation(len(said))[:k]] = True
        test = CategoryCounts.from_labels(said[~is_cal], labels=alphabet)
        cal = ConfusionMatrix.from_labels(human=human[is_cal], judge=said[is_cal], labels=(0, 1),
                                          judge_labels=alphabet)  # fmt: skip
        try:
            res = correct_jury(test, cal, judges=list(judges), method=args.method,
                               confidence_level=args.confidence_level, design=args.design)
        except JudgeStatsError as exc:
            rows.append({"group": target, "estimate": None, "ci_low": None, "ci_high": None,
                         "error": str(exc)})  # fmt: skip
            continue
        row = {"group": target, **_jury_dict(res), "human_rate": float(human.mean())}
        row["covered"] = bool(res.ci.low <= row["human_rate"] <= res.ci.high)
        rows.append(row)
    args.method = next((r["method"] for r in rows if r.get("method")), args.method)
    args.judge_summary = {"columns": list(judges), "kind": "jury", "combine": "letters"}
    pct = f"{100 * args.calibration_fraction:g}%"
    return (f"Chatbot Arena win rates, human votes vs the jury {', '.join(judges)}; random {pct} "
            f"calibration split per target (seed {args.seed}); design {args.design}", rows)


def _jury_dict(res: Any) -> dict:
    """Return a result's ``to_dict()``, a jury's weights (``weight[a]``) as one mapping.

    A stack's coefficients (``coefficient[a]``, log-odds) likewise become ``coefficients``.

    A NaN (a jury's naive rate: it has none) is None, so that ``--json`` prints valid JSON.
    """
    d = {k: None if isinstance(v, float) and v != v else v for k, v in res.to_dict().items()}
    weights = {k[7:-1]: d.pop(k) for k in list(d) if k.startswith("weight[")}
    if any(v is not None for v in weights.values()):
        d["weights"] = weights
    coefficients = {k[12:-1]: d.pop(k) for k in list(d) if k.startswith("coefficient[")}
    if coefficients:
        d["coefficients"], d["intercept"] = coefficients, res.intercept
    if getattr(res, "combine", None) == "mean" and getattr(res, "letters", ()):
        d["letters"] = [str(v) for v in res.letters]  # the J + 1 letters the alphabet fitted
    return d
