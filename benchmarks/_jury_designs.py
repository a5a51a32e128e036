"""A jury against each of its judges alone under all three designs (bench_jury_combine.py, E–F).

Each design's calibration items are drawn as that design prescribes, with the same number of
labels m for the jury and for each judge alone:

* ``"random"``: a simple random sample of m items; the jury is ``correct_combined``'s default
  there (the stack), each judge alone ``js.correct(design="random", method="adjusted-wald")``;
  the reference is the human rate over every item (π̂ comes from every item).
* ``"by-human-label"``: m/2 items of each human class (all of a class if it has fewer); the
  jury is the default there (the minimum-variance jury), each judge alone adjusted-Wald
  (eq. (8)); the reference is the human rate over the unlabelled (test) items, which is what
  the design's estimator describes (its p̂ is the test set's).
* ``"by-judge-label"``: the jury's m items drawn within the judges' product letters, m/L of
  each of the L letters present (all of a letter if it has fewer, the rest spread over the
  others); each judge alone gets its own m items drawn within its two letters the same way.
  The jury is the default there (the judge-conditional estimator over the product letters,
  ``"adjusted-delta"``), each judge alone ``js.correct(design="by-judge-label",
  method="adjusted-wald")``. Beside it, the jury on the first judge's own draw (its letters
  are unions of product letters, so within each product letter that draw is still a random
  sample of the letter's items): the same labels as that judge alone. The reference is the
  human rate over the draw's unlabelled items.

Width ratios are ratios of mean widths over the splits (data sets); "better" is, in each split,
the judge alone whose interval is the narrower. A split where an interval is undefined (a judge
with q̂0 + q̂1 <= 1 under the paper's design; a product letter of the test set with no
calibration item under by-judge-label) is left out of that interval's figures and counted.
"""

from __future__ import annotations

import warnings

import numpy as np
from _common import markdown_table
from _jury_common import (
    ARENA_JUDGES,
    ARENA_NAMES,
    LEVEL,
    NQ_JUDGES,
    NQ_NAMES,
    arena_frame,
    letter_probs,
    nq_frame,
)

import judgestats as js
from judgestats.jury import correct_combined

DESIGNS = ("random", "by-human-label", "by-judge-label")


def balanced(sizes, m):
    """m labels over strata of ``sizes``: equal shares, a stratum's share capped at its size.

    The level L is the largest with Σ min(size, L) <= m; what is left goes one each to the
    strata larger than L, in their order.
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    m = min(int(m), int(sizes.sum()))
    level = 0
    while np.minimum(sizes, level + 1).sum() <= m and level < sizes.max():
        level += 1
    k = np.minimum(sizes, level)
    for s in np.flatnonzero(sizes > level)[: m - int(k.sum())]:
        k[s] += 1
    return k


def draw_within(gen, strata, m):
    """A mask of m items drawn within ``strata`` (labels), balanced over the strata present."""
    _, inverse = np.unique(strata, return_inverse=True)
    k = balanced(np.bincount(inverse), m)
    lab = np.zeros(len(strata), dtype=bool)
    for s, take in enumerate(k):
        lab[gen.choice(np.flatnonzero(inverse == s), int(take), replace=False)] = True
    return lab


def _alone(x, y, lab, design):
    """One judge alone (0/1 column x) by ``js.correct``: (low, high), or None if undefined."""
    test = js.JudgedCounts(int(x[~lab].sum()), int((~lab).sum()))
    cal = js.ConfusionCounts.from_labels(human=y[lab], judge=x[lab])
    with warnings.catch_warnings():  # its weak-calibration and clipping warnings: not measured
        warnings.simplefilter("ignore")
        try:
            ci = js.correct(test, cal, design=design, method="adjusted-wald",
                            confidence_level=LEVEL).ci  # fmt: skip
        except js.JudgeStatsError:
            return None
    return ci.low, ci.high


def _jury(x, y, lab, design, gen):
    """The jury by ``correct_combined``'s default for the design: ((low, high) or None, warned)."""
    human = np.where(lab, y.astype(float), np.nan)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            ci = correct_combined(x, human, design=design, rng=gen, confidence_level=LEVEL).ci
        except js.JudgeStatsError:
            return None, bool(seen)
    return (ci.low, ci.high), bool(seen)


def _record(store, key, ci, theta):
    store.setdefault(key, []).append(
        (np.nan, np.nan) if ci is None else (float(ci[0] <= theta <= ci[1]), ci[1] - ci[0]))


def design_split(x, y, m, design, gen):
    """One split under ``design``: {"jury": (covered, width), j: ..., "warned": …}."""
    out: dict = {}
    judges = x.shape[1]
    if design == "random":
        lab = np.zeros(len(y), dtype=bool)
        lab[gen.choice(len(y), m, replace=False)] = True
        draws = {"jury": lab, **{j: lab for j in range(judges)}}
        theta = {k: y.mean() for k in draws}
    elif design == "by-human-label":
        lab = draw_within(gen, y, m)
        draws = {"jury": lab, **{j: lab for j in range(judges)}}
        theta = {k: y[~lab].mean() for k in draws}
    else:
        letters = x @ (2 ** np.arange(judges - 1, -1, -1))
        draws = {"jury": draw_within(gen, letters, m),
                 **{j: draw_within(gen, x[:, j], m) for j in range(judges)}}  # fmt: skip
        draws["designated"] = draws[0]
        theta = {k: y[~v].mean() for k, v in draws.items()}
    for key, lab in draws.items():
        if key in ("jury", "designated"):
            ci, warned = _jury(x, y, lab, design, gen)
            out["warned" if key == "jury" else "warned designated"] = [warned]
        else:
            ci = _alone(x[:, key], y, lab, design)
        _record(out, key, ci, theta[key])
    if design == "by-judge-label":
        cal = np.bincount(x[draws["jury"]] @ (2 ** np.arange(judges - 1, -1, -1)))
        out["smallest"] = [int(cal[cal > 0].min())]
    return out


def _figures(res, judges):
    """Coverage and mean width of every key, and the jury's ratios (see the module)."""
    skip = ("warned", "warned designated", "smallest")
    arr = {k: np.array(v, dtype=float) for k, v in res.items() if k not in skip}
    cov = {k: np.nanmean(v[:, 0]) for k, v in arr.items()}
    wid = {k: np.nanmean(v[:, 1]) for k, v in arr.items()}
    members = np.stack([arr[j][:, 1] for j in range(judges)], 1)
    ok = np.isfinite(arr["jury"][:, 1]) & np.isfinite(members).any(1)
    better = np.nanmin(np.where(np.isfinite(members), members, np.inf)[ok], 1)
    return {
        "cov": cov, "wid": wid, "better": arr["jury"][ok, 1].mean() / better.mean(),
        "undefined": np.mean(~np.isfinite(arr["jury"][:, 1])),
        "warned": np.mean(res["warned"]), "smallest": np.median(res.get("smallest", [np.nan])),
        "warned designated": np.mean(res.get("warned designated", [np.nan])),
    }  # fmt: skip


def f3(v, digits=3):
    return "–" if v is None or not np.isfinite(v) else f"{v:.{digits}f}"


def real_designs(frame, cols, names, data, *, shares, splits, seed, targets=None):
    """Rows of the real-data table: per target, labelled share and design (see the module)."""
    gen = np.random.default_rng(seed)
    rows = []
    for target, g in list(frame.groupby("target_model", sort=True))[:targets]:
        x = g[list(cols)].to_numpy(int)
        y = g["human"].to_numpy(int)
        for share in shares:
            m = round(share * len(y))
            for design in DESIGNS:
                res: dict = {}
                for _ in range(splits):
                    for k, v in design_split(x, y, m, design, gen).items():
                        res.setdefault(k, []).extend(v)
                fig = _figures(res, len(cols))
                cov, wid = fig["cov"], fig["wid"]
                same = (f3(wid["designated"] / wid[0]), f2(cov["designated"])) \
                    if design == "by-judge-label" else ("–", "–")  # fmt: skip
                rows.append([
                    data, target, f"{share:.0%}", m, design, f"{y.mean():.3f}", f2(cov["jury"]),
                    *(f2(cov[j]) for j in range(len(cols))),
                    *(f3(wid["jury"] / wid[j]) for j in range(len(cols))),
                    f3(fig["better"]), *same, f2(fig["warned"]), f2(fig["warned designated"]),
                    f2(fig["undefined"]),
                    f3(fig["smallest"], 0),
                ])  # fmt: skip
    head = ["data", "target", "labelled", "m", "design", "θ (all items)", "coverage jury",
            *(f"coverage {n}" for n in names), *(f"jury ÷ {n}" for n in names),
            "jury ÷ better", f"jury on {names[0]}'s draw ÷ {names[0]}",
            f"coverage jury on {names[0]}'s draw", "jury warned share",
            f"jury on {names[0]}'s draw warned share", "jury undefined share",
            "smallest letter's labels (median)"]  # fmt: skip
    return head, rows


def f2(v):
    return f3(v, 2)


def design_summary(tables):
    """Per data, design and share: the median and max over targets of jury ÷ better, min cover."""
    out = []
    for head, rows in tables:
        col = {h: i for i, h in enumerate(head)}
        keys = dict.fromkeys((r[0], r[4], r[2]) for r in rows)
        for data, design, share in keys:
            sel = [r for r in rows if (r[0], r[4], r[2]) == (data, design, share)]
            ratio = np.array([float(r[col["jury ÷ better"]]) for r in sel if
                              r[col["jury ÷ better"]] != "–"])  # fmt: skip
            cover = [float(r[col["coverage jury"]]) for r in sel if r[col["coverage jury"]] != "–"]
            out.append([data, design, share, len(sel), f"{min(cover):.2f}",
                        f3(np.median(ratio)), f3(ratio.max()),
                        f"{np.mean(ratio <= 1.02):.2f}"])  # fmt: skip
    head = ["data", "design", "labelled", "targets", "min coverage jury",
            "jury ÷ better: median", "jury ÷ better: max", "share of targets ≤ 1.02"]
    return markdown_table(head, out)


def part_e(quick):
    """Part E: Arena and NQ-301 under all three designs; (summary, Arena table, NQ table)."""
    splits = 3 if quick else 100
    shares = (0.3,) if quick else (0.2, 0.3, 0.6)
    arena = real_designs(arena_frame(), ARENA_JUDGES, ARENA_NAMES, "Arena", shares=shares,
                         splits=splits, seed=4043, targets=1 if quick else None)  # fmt: skip
    nq = real_designs(nq_frame(), NQ_JUDGES, NQ_NAMES, "NQ-301", shares=shares, splits=splits,
                      seed=4044, targets=1 if quick else None)  # fmt: skip
    return (design_summary([arena, nq]), markdown_table(*arena), markdown_table(*nq))


# ----------------------------------------------------------------------------- simulation
SIM_ACC = (0.9, 0.8, 0.75, 0.7, 0.65)


def sim_cells(count, quick):
    """By-judge-label cells: random ones (seed 4045) and a grid (J × labelled share)."""
    gen = np.random.default_rng(4045)
    out = []
    for i in range(count):
        judges = int(gen.integers(2, 6))
        out.append({"cell": f"J{i}", "J": judges, "acc": gen.uniform(0.6, 0.95, judges),
                    "rho": gen.uniform(0, 0.6), "theta": gen.uniform(0.05, 0.95),
                    "rows": int(gen.integers(300, 3001)),
                    "share": gen.uniform(0.05, 0.5)})  # fmt: skip
    grid = [(j, s) for j in (2, 3, 5) for s in (0.05, 0.2, 0.5)]
    for j, s in grid[4:5] if quick else grid:
        out.append({"cell": f"JG{j}-{s:.0%}", "J": j, "acc": np.array(SIM_ACC[:j]), "rho": 0.3,
                    "theta": 0.3, "rows": 2000, "share": s})  # fmt: skip
    return out


def sim_population(gen, c, p0, p1):
    """One population of ``rows`` items: their product letters' verdicts x (rows, J) and y."""
    y = gen.random(c["rows"]) < c["theta"]
    cells = len(p0)
    letter = np.where(y, gen.choice(cells, c["rows"], p=p1), gen.choice(cells, c["rows"], p=p0))
    bits = (letter[:, None] >> np.arange(c["J"] - 1, -1, -1)[None, :]) & 1
    return bits.astype(int), y.astype(int)


def part_f(quick):
    """Part F: by-judge-label, simulated cells; the cells' table and the bands' summary."""
    gen = np.random.default_rng(4046)
    reps = 10 if quick else 200
    rows = []
    for c in sim_cells(1 if quick else 20, quick):
        p0, p1 = letter_probs(c["acc"], c["acc"], c["rho"], gen)
        res: dict = {}
        m = round(c["share"] * c["rows"])
        for _ in range(reps):
            x, y = sim_population(gen, c, p0, p1)
            for k, v in design_split(x, y, m, "by-judge-label", gen).items():
                res.setdefault(k, []).extend(v)
        fig = _figures(res, c["J"])
        best = min(range(c["J"]), key=lambda j: fig["wid"][j])
        rows.append([c["cell"], c["J"], f"{c['theta']:.2f}", f"{c['rho']:.2f}", c["rows"], m,
                     f3(fig["smallest"], 0), f3(fig["cov"]["jury"]),
                     f3(min(fig["cov"][j] for j in range(c["J"]))), f3(fig["better"]),
                     f3(fig["wid"]["jury"] / fig["wid"][best]),
                     f3(fig["wid"]["designated"] / fig["wid"][0]),
                     f3(fig["cov"]["designated"]), f2(fig["warned"]),
                     f2(fig["warned designated"]), f2(fig["undefined"])])  # fmt: skip
    head = ["cell", "J", "θ", "ρ", "rows", "m", "smallest letter's labels (median)",
            "coverage jury", "min coverage of a judge alone", "jury ÷ better",
            "jury ÷ the judge narrowest on average", "jury on judge 1's draw ÷ judge 1",
            "coverage jury on judge 1's draw", "jury warned share",
            "jury on judge 1's draw warned share", "jury undefined share"]
    return sim_bands(rows), markdown_table(head, rows)


def sim_bands(rows):
    """Part F by the smallest letter's labels: below 50, 50 or more, all."""
    out = []
    for name, keep in (("fewer than 50", lambda s: s < 50), ("50 or more", lambda s: s >= 50),
                       ("all", lambda s: True)):  # fmt: skip
        sel = [r for r in rows if r[6] != "–" and keep(float(r[6]))]
        if not sel:
            continue
        cov = [float(r[7]) for r in sel if r[7] != "–"]
        ratio = np.array([float(r[9]) for r in sel if r[9] != "–"])
        same = np.array([float(r[11]) for r in sel if r[11] != "–"])
        out.append([name, len(sel), f3(min(cov)), f3(np.median(ratio)), f3(ratio.max()),
                    f3(np.median(same)) if same.size else "–",
                    f3(same.max()) if same.size else "–"])  # fmt: skip
    head = ["smallest letter's labels", "cells", "min coverage jury", "jury ÷ better: median",
            "jury ÷ better: max", "jury on judge 1's draw ÷ judge 1: median",
            "jury on judge 1's draw ÷ judge 1: max"]  # fmt: skip
    return markdown_table(head, out)
