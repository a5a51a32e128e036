"""``judgestats raters ACTION FILE``: several human raters per item, the judge beside them.

The file is long: one row per (item, rater) rating (``--item``, ``--rater``, ``--label``
columns) with the judge's label of the item (``--judge``); rows of test items (no human label)
may leave the rater and label empty. Actions:

* ``agreement`` — the raters' Krippendorff's α and Fleiss' κ with cluster-bootstrap intervals,
  and the judge's agreement (percent, Cohen's κ) with each rater and with the majority;
* ``alt-test`` — the alternative annotator test (Calderon et al. 2025);
* ``latent`` — the Dawid–Skene fit, the judge one more rater (``--method bayes``: its PyMC
  twin, :func:`judgestats.bayes.fit_raters`, with ``--draws``, ``--tune``, ``--chains``,
  ``--cores``, ``--interval``; the JSON carries R-hat and ESS; ``correct --reference latent
  --method bayes`` takes the same flags);
* ``correct`` — every group's corrected rate against ``--reference rater|majority|latent``
  (:func:`judgestats.evaluate` with ``rater=``).

Bad input ends with exit 2 and one line: the API's named error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .._validation import LabelError
from .inputs import _read_table
from .options import CLIError, _level, cli_words, column_list, design_option

#: The actions of ``judgestats raters``.
ACTIONS = ("agreement", "alt-test", "latent", "correct")


def raters_options(p: Any) -> None:
    """Add ``raters``' options: the action, the long file, its columns and each action's own."""
    p.add_argument("action", choices=ACTIONS, help="what to compute (see the description)")
    p.add_argument("file", help="one row per rating: CSV, Parquet, JSON Lines or a JSON array")
    for flag, default, what in (("--item", "item", "item id"), ("--rater", "rater", "rater"),
                                ("--label", "human", "the rater's label"),
                                ("--judge", "judge", "the judge's label of the item")):
        p.add_argument(flag, default=default, metavar="COLUMN",
                       help=f"column of the {what} (default {default})")  # fmt: skip
    p.add_argument("--by", metavar="COLUMN[,COLUMN]", default=None,
                   help="correct: one result per group of these columns")
    p.add_argument("--reference", choices=("rater", "majority", "latent"), default="rater",
                   help="correct: the human reference (default rater)")
    p.add_argument("--ties", default=None, metavar="RULE",
                   help="majority ties: random (default), none, or an adjudicating rater")
    p.add_argument("--min-raters", type=int, default=None, metavar="K",
                   help="majority: items with fewer raters are left out (default 2)")
    design_option(p, "correct: how the calibration items were chosen (default by-human-label)")
    p.add_argument("--method", default=None, help="interval method (the path's default); "
                   "latent: profile, bootstrap, sandwich, observed-information or bayes")
    for flag, what in (("--draws", "draws kept per chain"), ("--tune", "tuning steps per chain"),
                       ("--chains", "chains"), ("--cores", "processes to run the chains in")):
        p.add_argument(flag, type=int, default=None, metavar="N",
                       help=f"--method bayes: {what} (default js.bayes.SAMPLING_DEFAULTS)")
    p.add_argument("--interval", choices=("eti", "hdi"), default=None,
                   help="--method bayes: the credible interval's kind (default eti)")
    p.add_argument("--epsilon", type=float, default=0.1,
                   help="alt-test: the margin epsilon (default 0.1, crowd workers)")
    p.add_argument("--alpha", type=float, default=0.05, help="alt-test: FDR level")
    p.add_argument("--confidence-level", type=_level, default=0.95, help="default 0.95")
    p.add_argument("--seed", type=int, default=0, help="randomness of bootstraps and ties")
    p.add_argument("--format", choices=("text", "markdown", "latex", "html"), default="text",
                   help="correct: text (the summary, default) or the report with the raters' "
                   "agreement and the alternative annotator test beside the rates; agreement: "
                   "the pairs as a table")
    p.add_argument("--json", action="store_true", help="print JSON instead")


def _read(args: Any) -> Any:
    if not Path(args.file).exists():
        raise CLIError(f"no such file: {args.file}")
    by = list(column_list(args.by) or ())
    try:
        frame = _read_table(args.file, {args.label: True, args.judge: True},
                            by[0] if by else None)  # fmt: skip
    except LabelError as exc:
        raise CLIError(f"{args.file}: {exc}") from exc
    columns = [args.item, args.rater, args.label, args.judge, *by]
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise CLIError(f"{args.file} has no column(s) {missing}; columns are "
                       f"{list(frame.columns)}")  # fmt: skip
    if not len(frame):
        raise CLIError(f"{args.file} has a header but no rows")
    return frame


def _ratings(frame: Any, args: Any) -> Any:
    """Return the human ratings (rows with a label) and the judge's labels, as ``Ratings``."""
    from ..raters import Ratings

    rated = frame[frame[args.label].notna()]
    if not len(rated):
        raise CLIError(f"{args.file} has no human label in column {args.label!r}")
    return Ratings.from_long(rated, item=args.item, rater=args.rater, label=args.label,
                             judge=args.judge)  # fmt: skip


def _figure(res: Any) -> list:
    """Return a coefficient as [estimate, lower, upper] (None where there is no interval)."""
    low, high = (None, None) if res.ci is None else (res.ci.low, res.ci.high)
    return [res.estimate, low, high]


def _agreement(ratings: Any, args: Any) -> tuple[str, dict]:
    from ..raters import fleiss_kappa, judge_agreement, krippendorff_alpha

    level, seed = args.confidence_level, args.seed
    alpha = krippendorff_alpha(ratings, confidence_level=level, rng=seed)
    kappa = fleiss_kappa(ratings, confidence_level=level, rng=seed)
    judge = judge_agreement(ratings, ties=args.ties or "random", rng=seed,
                            confidence_level=level)  # fmt: skip
    text = "\n".join([alpha.summary(), kappa.summary(), judge.summary()])
    if args.format != "text":  # the agreement card's rater section as a table
        from ..agreement.card import rater_pairs
        from ..report.tables import html_table, latex_tabular, markdown_table

        head, rows = rater_pairs(judge)
        lines = {"markdown": lambda: markdown_table(head, rows),
                 "latex": lambda: latex_tabular(head, rows, "llrrrrr"),
                 "html": lambda: html_table(head, rows)}[args.format]()  # fmt: skip
        text = "\n".join([alpha.summary(), kappa.summary(), "", *lines])
    pairs = [*judge.with_raters, judge.with_majority, *judge.between_raters]
    payload = {
        "krippendorff_alpha": _figure(alpha),
        "fleiss_kappa": _figure(kappa),
        "pairs": [{"first": str(p.first), "second": str(p.second), "items": p.n_items,
                   "percent": p.percent, "kappa": p.kappa} for p in pairs],
    }  # fmt: skip
    return text, payload


def _alt_test(ratings: Any, args: Any) -> tuple[str, dict]:
    from ..raters import alt_test

    res = alt_test(ratings, epsilon=args.epsilon, alpha=args.alpha)
    payload = {"judge": res.judge, "passed": res.passed, "winning_rate": res.winning_rate,
               "raters": [str(r) for r in res.raters], "pvalues": res.pvalues.tolist(),
               "epsilon": res.epsilon, "alpha": res.alpha}  # fmt: skip
    return res.summary(), payload


def _sampling(args: Any) -> dict[str, Any]:
    """Return the sampler's options given on the command line (``--method bayes`` only)."""
    given = {k: v for k, v in (("draws", args.draws), ("tune", args.tune),
                                ("chains", args.chains), ("cores", args.cores),
                                ("interval", args.interval)) if v is not None}  # fmt: skip
    if given and args.method != "bayes":
        flags = ", ".join(f"--{k}" for k in given)
        raise CLIError(f"{flags} applies to --method bayes, got --method {args.method}")
    return given


def _latent(ratings: Any, args: Any) -> tuple[str, dict]:
    from ..raters import dawid_skene
    from ..raters.latent_class import LATENT_METHODS

    sampling = _sampling(args)
    fit: Any
    if args.method == "bayes":  # the PyMC twin (on first use)
        from ..bayes.raters import fit_raters

        fit = fit_raters(ratings, random_seed=args.seed, confidence_level=args.confidence_level,
                         **sampling)  # fmt: skip
    else:
        fit = dawid_skene(ratings, method=args.method or LATENT_METHODS[0], rng=args.seed,
                          confidence_level=args.confidence_level)  # fmt: skip
    d = getattr(fit, "diagnostics", None)
    payload = {"estimate": fit.estimate, "ci": [fit.ci.low, fit.ci.high], "method": fit.method,
               "reference": fit.reference, "raters": [str(r) for r in fit.raters],
               "accuracy": fit.accuracy.tolist(), "notes": list(fit.notes),
               "diagnostics": None if d is None else d.as_dict(),
               "interval": getattr(fit, "interval", None)}  # fmt: skip
    text = fit.summary() if d is None else (
        f"{fit.summary()}\nposterior {fit.interval} interval; sampler: {d.describe()}")
    return text, payload


def _correct(frame: Any, args: Any) -> tuple[str, dict]:
    from ..evaluate import evaluate

    by = column_list(args.by)
    if by is None:
        frame = frame.assign(all="all")
    own = {k: v for k, v in (("ties", args.ties), ("min_raters", args.min_raters))
           if v is not None}  # fmt: skip
    own.update(_sampling(args))
    ev = evaluate(frame, judge=args.judge, human=args.label, by=by or ("all",),
                  rater=args.rater, cluster=args.item, reference=args.reference,
                  design=args.design, method=args.method,
                  confidence_level=args.confidence_level, rng=args.seed, errors="mark",
                  **own)  # fmt: skip
    rows = ev.to_dataframe().to_dict(orient="records")
    payload = {"reference": args.reference, "design": str(ev.design),
               "rows": [{k: None if isinstance(v, float) and v != v else v
                         for k, v in r.items()} for r in rows]}  # fmt: skip
    if args.format != "text":
        from ..report.raters import rater_report

        return rater_report(ev, args.format, epsilon=args.epsilon, alpha=args.alpha,
                            rng=args.seed), payload  # fmt: skip
    return ev.summary(), payload


def run_raters(args: Any) -> str:
    """Run ``judgestats raters``; returns the text to print.

    The warnings of a run are kept (locally) and printed as the output's notes, once each.
    """
    import warnings

    frame = _read(args)
    with warnings.catch_warnings(record=True) as caught:  # local: shown as notes below
        warnings.simplefilter("always")
        if args.action == "correct":
            text, payload = _correct(frame, args)
        else:
            ratings = _ratings(frame, args)
            act = {"agreement": _agreement, "alt-test": _alt_test, "latent": _latent}
            text, payload = act[args.action](ratings, args)
    notes = list(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught
                               if str(w.message) not in text))  # fmt: skip
    if args.json:
        return json.dumps({**payload, "warnings": notes}, indent=2, default=str) + "\n"
    if args.format != "text" and args.action in ("correct", "agreement"):
        return cli_words(text)
    return cli_words("\n".join([text, *(f"warning: {n}" for n in notes)])) + "\n"
