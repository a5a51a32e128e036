"""``judgestats plan``: how many human labels of each kind, and whether a judge is worth them."""

from __future__ import annotations

import json
import warnings
from typing import Any

from ..counts import ConfusionCounts
from .options import CLIError, _level, _need, design_option


def plan_options(pl: Any) -> None:
    """Add ``plan``'s options: the planned judge and test set, and the mode's flags."""
    pl.add_argument("--width", type=float, help="target full interval width, e.g. 0.1")
    pl.add_argument("--p", type=float, help="(expected) judged positive rate on the test set")
    pl.add_argument("--q0", type=float, help="judge specificity")
    pl.add_argument("--q1", type=float, help="judge sensitivity")
    pl.add_argument("--n", type=float, help="test-set size (default: infinite)")
    pl.add_argument("--allocation", choices=("balanced", "optimal"), default="balanced")
    pl.add_argument("--max-m", type=int, default=1_000_000, metavar="M",
                    help="--width mode: the largest m searched (default 1000000)")  # fmt: skip
    pl.add_argument("--confidence-level", type=_level, default=0.95, help="default 0.95")
    pl.add_argument("--pilot", metavar="TP,FN,TN,FP", help="pilot counts for Algorithm 1")
    pl.add_argument("--m", type=int, help="total calibration budget (Algorithm 1 / regime)")
    pl.add_argument("--regime", action="store_true", help="judge-vs-human theta range")
    pl.add_argument(
        "--compare", action="store_true",
        help="expected widths of the three calibration designs for --m items (with --p --q0 --q1)",
    )
    design_option(
        pl, "--width mode: how the calibration items will be chosen (default by-human-label)"
    )
    pl.add_argument("--delta", type=float, default=0.05, help="--regime with --m: failure prob.")
    pl.add_argument("--json", action="store_true", help="print JSON instead of text")


def run_plan(args: Any) -> str:
    """Run ``judgestats plan``; returns the text (or JSON) to print."""
    out = _plan(args)
    return (json.dumps(out, indent=2) if args.json else _plan_text(out)) + "\n"


def _plan(args) -> dict:
    from .. import plan

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
        said = [str(w.message) for w in caught] + _at_chance(pilot)
        if said:
            out["warnings"] = said
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
        out = {"mode": "regime", "q0": args.q0, "q1": args.q1, "m": args.m,
               "low": None if r is None else r.low, "high": None if r is None else r.high}
        if args.m is not None:  # the exact (m → ∞) range beside the finite-m bound's
            r = plan.judge_vs_human(args.q0, args.q1)
            out.update(delta=args.delta, exact_low=None if r is None else r.low,
                       exact_high=None if r is None else r.high)  # fmt: skip
        return out
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
        max_m=args.max_m,
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


def _at_chance(pilot: ConfusionCounts) -> list[str]:
    """Say so where the pilot's judge is no better than chance (q̂0 + q̂1 <= 1); else nothing."""
    q0, q1 = float(pilot.specificity), float(pilot.sensitivity)
    if q0 + q1 > 1:
        return []
    return [f"the pilot's judge is no better than chance (specificity {q0:.3g} + sensitivity "
            f"{q1:.3g} = {q0 + q1:.3g} <= 1): its labels carry no information about the true "
            "rate, so no split of the budget makes a corrected rate informative; check the "
            "judge before labelling more"]  # fmt: skip


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
        return _regime_text(out)
    n = "infinite" if out["n"] is None else f"{out['n']:g}"
    if out["m0"] is not None:  # the design fixes the split by human label
        split = f"m0 = {out['m0']}, m1 = {out['m1']}"
    elif out["judge0"] is not None:  # ... or by judge label
        split = f"{out['judge0']} judge-0 and {out['judge1']} judge-1 items"
    else:  # or none: the labels fall where the sample puts them
        split = "a random sample"
    return (
        f"smallest calibration set for a {100 * out['confidence_level']:g}% interval of width "
        f"<= {out['target_width']:g} (design {out['design']}, {out['allocation']} split, "
        f"n = {n}): m = {out['m']} ({split}), width {out['width']:.4f}"
    )


def _regime_text(out: dict) -> str:
    """Say the regime: the exact (m → ∞) range, or with ``--m`` what the finite-m bound shows.

    The finite-m condition is sufficient, not necessary: where it holds for no theta, the
    bound fails, which does not make human-only labelling better; the exact range says that.
    """
    judge = f"q0 = {out['q0']:g}, q1 = {out['q1']:g}"
    if out["m"] is None:
        if out["low"] is None:
            return (f"no theta qualifies: with {judge} human-only labelling has the lower "
                    "variance everywhere (m -> infinity, exact condition)")  # fmt: skip
        return (f"calibrated judge beats human-only labels for theta in "
                f"[{out['low']:.4f}, {out['high']:.4f}]")  # fmt: skip
    sure = f"with probability >= {1 - out['delta']:g} (m = {out['m']}, delta = {out['delta']:g})"
    if out["exact_low"] is None:
        exact = (f"the exact condition (m -> infinity) holds for no theta either: with {judge} "
                 "human-only labelling has the lower variance everywhere")  # fmt: skip
    else:
        exact = (f"as m grows the judge wins for theta in [{out['exact_low']:.4f}, "
                 f"{out['exact_high']:.4f}] (exact condition, m -> infinity)")  # fmt: skip
    if out["low"] is None:
        return (f"no theta is certified {sure}: the conservative finite-m bound fails for "
                f"every theta, which does not say human-only labelling is better; {exact}")
    return (f"calibrated judge beats human-only labels for theta in [{out['low']:.4f}, "
            f"{out['high']:.4f}] {sure}; {exact}")
