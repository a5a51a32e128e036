"""The monitor with a jury and with covariates (issue 39): time-uniform coverage and width.

Each pool is a realised finite pool of N judged items, drawn once with a seeded Generator.
Items come in clusters (a prompt's answers; c items each) with a shared effect u ~ N(0, 0.5²)
on the human logit and v ~ N(0, 0.5²) on every judge's score. An item has a length x ~ N(0, 1)
and a category k in {a, b, c}; its human label is y ~ Bern(sigmoid(logit θ + u + 0.3 x)).
Judge j's score is d_j y + b (x + [k = a]) + v + sqrt(ρ) e + sqrt(1 − ρ) e_j (e shared by the
jury: correlated judges; b the judges' length and category bias, so the covariates predict
where the judge errs); a "letter" judge reports only s_j > d_j / 2.

Cells are built by judgestats.sequential.inputs.frame_pool from the pool frame, as
Monitor.set_pool builds them, and replayed with judgestats.sequential.replays.replay_labelling
(95%, default schedule; one item per draw without replacement, 20 per round, up to 1,000
labels):

- best member: each member alone (a score's 10 smoothed bins, or its letter), the narrowest at
  the last label (chosen after the fact: an oracle no monitor has);
- letters, unsmoothed: the members' letters (scores cut at d_j / 2) as product cells, each
  cell's rate shrunk by one item towards 1/2 (what judge='a', strata=[the others' letters]
  gives without this change);
- jury mean: combine="mean": 10 bins of the members' mean pool rank
  (for 0/1 judges, their yes votes), smoothed over neighbouring bins;
- jury letters: combine="letters": the members' letters within those bins, each cell shrunk
  by 5 items towards its bin's rate;
- jury stack: combine="stack" (the default): the members' pool-quantile bins crossed (about
  200 cells), each cell's rate shrunk by 5 items towards a ridge logistic regression of the
  label on the members' normal scores, refit every 20 labels on the labels so far;
- jury stack + covariates: covariates=["length", "category"]: their levels split the cells
  (length cut into 4 pool-quantile bins) and enter the stack as columns;
- jury mean + covariates: the same covariates as strata within the mean's bins, each cell
  shrunk towards its bin's rate;
- score + covariates: the jury's strongest score member (largest d_j) alone with the same
  covariates as strata within its 10 bins, each cell shrunk towards its bin's rate, beside that
  score alone (pools with a score member).

"uniform" draws (design="random") for all; "by-judge-label" (Neyman across the cells, floor
0.1) for the stack with and without covariates. Coverage is time-uniform: the pool's rate
inside every interval up to the last label.

Grid: 4 pools (J in {2, 5} × all scores or all letters; θ = 0.3, d_j evenly spaced on 1–2.5,
ρ = 0.3, b = 0.8, c = 5, N = 10,000) and 12 pools drawn at random (seed 3939: J in 2–5, each
member a score or a letter with probability 1/2, d_j ~ U(0.5, 3), ρ ~ U(0, 0.7),
θ ~ U(0.05, 0.95), b ~ U(0, 1.5), c in 1–10, N log-uniform on 5,000–50,000). 250 replays
per pool and monitor (--quick: 1 grid pool, 60 replays, 300 labels, uniform only, the
members, the letters and the stack).

Writes benchmarks/results/sequential_jury.md.
Run: python benchmarks/bench_sequential_jury.py [--quick]
"""

from __future__ import annotations

import itertools
import time

import numpy as np
import pandas as pd
from _common import markdown_table, publish, quick_parser, run_time

from judgestats.sequential.inputs import frame_pool
from judgestats.sequential.replays import replay_labelling

LEVEL = 0.95
SEED = 3939
BATCH = 20
LOOKS = (100, 300, 1000)
NEYMAN = ("jury stack", "jury stack + covariates")
QUICK = ("letters, unsmoothed", "jury stack", "jury stack + covariates")


def grid_pools() -> list[dict]:
    out = []
    for size, kind in itertools.product((2, 5), ("score", "letter")):
        out.append({"theta": 0.3, "d": np.linspace(1.0, 2.5, size).round(2).tolist(),
                    "kinds": [kind] * size, "rho": 0.3, "bias": 0.8, "cluster": 5,
                    "n": 10_000})  # fmt: skip
    return out


def random_pools(count: int) -> list[dict]:
    gen = np.random.default_rng(SEED)
    out = []
    for _ in range(count):
        size = int(gen.integers(2, 6))
        out.append({
            "theta": round(float(gen.uniform(0.05, 0.95)), 3),
            "d": gen.uniform(0.5, 3.0, size).round(2).tolist(),
            "kinds": ["score" if k else "letter" for k in (gen.random(size) < 0.5)],
            "rho": round(float(gen.uniform(0.0, 0.7)), 2),
            "bias": round(float(gen.uniform(0.0, 1.5)), 2),
            "cluster": int(gen.integers(1, 11)),
            "n": int(np.exp(gen.uniform(np.log(5000), np.log(50000)))),
        })  # fmt: skip
    return out


def build_pool(spec: dict, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """(the pool frame: item, members m0.., length, category; the human labels y)."""
    gen = np.random.default_rng(seed)
    n = spec["n"]
    cluster = np.arange(n) // spec["cluster"]
    u, v = (gen.normal(0.0, 0.5, cluster[-1] + 1)[cluster] for _ in range(2))
    x = gen.normal(size=n)
    cat = gen.choice(np.array(["a", "b", "c"]), n)
    logit = np.log(spec["theta"] / (1 - spec["theta"])) + u + 0.3 * x
    y = (gen.random(n) < 1 / (1 + np.exp(-logit))).astype(float)
    shared = gen.normal(size=n)
    frame = {"item": np.arange(n), "length": x, "category": cat}
    rho = spec["rho"]
    for j, (d, kind) in enumerate(zip(spec["d"], spec["kinds"], strict=True)):
        s = (d * y + spec["bias"] * (x + (cat == "a")) + v + np.sqrt(rho) * shared
             + np.sqrt(1 - rho) * gen.normal(size=n))  # fmt: skip
        frame[f"m{j}"] = s if kind == "score" else (s > d / 2).astype(int)
    return pd.DataFrame(frame), y


def cells(frame: pd.DataFrame, y: np.ndarray, **kw) -> tuple:
    """(size, positive, smooth, parent, features) of the monitor's cells for one set_pool."""
    pool = frame_pool(frame, item="item", by=(), strata=kw.pop("strata", ()), **kw)[()]
    y_items = y[pool.items.astype(int)]
    size = np.bincount(pool.cell, minlength=len(pool.cells)).astype(float)
    pos = np.bincount(pool.cell, weights=y_items, minlength=len(pool.cells))
    return size, pos, pool.scored, pool.parent, pool.features


def configs(frame: pd.DataFrame, y: np.ndarray, spec: dict) -> dict[str, tuple]:
    members = [f"m{j}" for j in range(len(spec["d"]))]
    letters = frame.assign(**{m: (frame[m] > d / 2).astype(int) if k == "score" else frame[m]
                              for m, d, k in zip(members, spec["d"], spec["kinds"],
                                                 strict=True)})  # fmt: skip
    out = {f"member {m}": cells(frame, y, judge=m) for m in members}
    out["letters, unsmoothed"] = cells(letters, y, judge=members[0], strata=tuple(members[1:]))
    out["jury stack"] = cells(frame, y, judge=members)
    out["jury mean"] = cells(frame, y, judge=members, combine="mean")
    out["jury letters"] = cells(frame, y, judge=members, combine="letters")
    cov = ("length", "category")
    out["jury stack + covariates"] = cells(frame, y, judge=members, covariates=cov)
    out["jury mean + covariates"] = cells(frame, y, judge=members, combine="mean", covariates=cov)
    strong = max((m for m, k in zip(members, spec["kinds"], strict=True) if k == "score"),
                 key=lambda m: spec["d"][int(m[1:])], default=None)  # fmt: skip
    if strong is not None:  # one score beside the covariates: strata within its bins
        out[f"strongest score ({strong}) + covariates"] = cells(frame, y, judge=strong,
                                                               covariates=cov)  # fmt: skip
    return out


def run_pool(frame, y, spec, labels, reps, seed, neyman):
    out = {}
    for j, (name, (size, pos, smooth, parent, x)) in enumerate(configs(frame, y, spec).items()):
        if not neyman and name not in QUICK and not name.startswith("member "):
            continue  # --quick: the members, the letters and the stack
        for k, strategy in enumerate(("uniform", "by-judge-label")):
            if strategy != "uniform" and (not neyman or name not in NEYMAN):
                continue
            out[strategy, name] = size.size, replay_labelling(
                size, pos, strategy=strategy, labels=labels, batch=BATCH, looks=LOOKS, reps=reps,
                confidence_level=LEVEL, fixed=False, rng=seed + 100 * k + j, progress=False,
                smooth=smooth, parent=parent, features=x,
            )  # fmt: skip
    return out


def describe(spec: dict) -> str:
    kinds = "".join("s" if k == "score" else "l" for k in spec["kinds"])
    return (f"J={len(kinds)} ({kinds}), d={'/'.join(f'{d:g}' for d in spec['d'])}, "
            f"θ={spec['theta']:g}, ρ={spec['rho']:g}, b={spec['bias']:g}, c={spec['cluster']}, "
            f"N={spec['n']}")  # fmt: skip


def pool_rows(source: str, spec: dict, res: dict) -> tuple[list, dict]:
    """The pool's rows of the every-pool table, and its width ratios at each look."""
    uni = {name: r for (s, name), (_, r) in res.items() if s == "uniform"}
    members = [n for n in uni if n.startswith("member ")]
    best = min(members, key=lambda n: uni[n].width.mean(axis=0)[-1])
    base = {"best": uni[best].width.mean(axis=0),
            "letters": uni["letters, unsmoothed"].width.mean(axis=0)}
    rows, ratios = [], {}
    for (strategy, name), (n_cells, r) in res.items():
        if name.startswith("member ") and name != best:
            continue
        w = r.width.mean(axis=0)
        label = f"best member ({name[7:]})" if name == best else name
        short = "strongest score + covariates" if name.startswith("strongest score ") else label
        ratios[strategy, short if name != best else "best member"] = {
            "best": w / base["best"], "letters": w / base["letters"], "cov": r.covered.mean()}
        rows.append([source, describe(spec), strategy, label, n_cells, f"{r.covered.mean():.3f}",
                     *(f"{x:.4f}" for x in w), *(f"{x:.3f}" for x in w / base["best"]),
                     *(f"{x:.3f}" for x in w / base["letters"])])  # fmt: skip
    return rows, ratios


def covariate_rows(found_cov: list, looks: list) -> list:
    """Per pool with a score member: that score with covariates ÷ the score alone."""
    return [[desc, name, *(f"{x:.3f}" for x in ratio)] for desc, name, ratio in found_cov]


def score_covariates(spec: dict, res: dict) -> list:
    out = []
    for (strategy, name), (_, r) in res.items():
        if strategy == "uniform" and name.startswith("strongest score "):
            alone = res["uniform", f"member {name.split()[2][1:-1]}"][1]
            out.append((describe(spec), name,
                        r.width.mean(axis=0) / alone.width.mean(axis=0)))  # fmt: skip
    return out


def summary_rows(found: list, looks: list) -> list:
    out = []
    keys = dict.fromkeys(k for _, ratios in found for k in ratios)
    for (strategy, name), source in itertools.product(keys, ("grid", "random", "all")):
        part = [r[strategy, name] for s, r in found if source in (s, "all") and (strategy, name)
                in r]  # fmt: skip
        if not part:
            continue
        cov = np.array([p["cov"] for p in part])
        row = [strategy, name, source, len(part), f"{cov.min():.3f}", int((cov < 0.93).sum())]
        for base in ("best", "letters"):
            ratio = np.array([p[base] for p in part])
            row += [f"{np.median(ratio[:, k]):.3f}" for k in range(len(looks))]
            row.append(f"{ratio[:, -1].min():.3f}–{ratio[:, -1].max():.3f}")
        out.append(row)
    return out


def main() -> None:
    args = quick_parser(__doc__, "1 grid pool, 60 replays, 300 labels, uniform only").parse_args()
    t0 = time.time()
    if args.quick:
        pools, reps, max_labels, neyman = [("grid", grid_pools()[0])], 60, 300, False
    else:
        pools = [("grid", p) for p in grid_pools()] + [("random", p) for p in random_pools(12)]
        reps, max_labels, neyman = 250, 1000, True
    rows, found, found_cov = [], [], []
    for i, (source, spec) in enumerate(pools):
        frame, y = build_pool(spec, seed=30_000 + i)
        res = run_pool(frame, y, spec, min(max_labels, spec["n"] // 2), reps, 1000 * i, neyman)
        part, ratios = pool_rows(source, spec, res)
        rows += part
        found.append((source, ratios))
        found_cov += score_covariates(spec, res)
        print(source, describe(spec), f"{time.time() - t0:.0f} s", flush=True)
    looks = [x for x in LOOKS if x <= max_labels]
    elapsed = time.time() - t0
    body = (
        __doc__.split("\n\n", 1)[1].rsplit("\n\nWrites", 1)[0]
        + f"\n\n## Time-uniform coverage and width\n\n{reps} replays per pool; the width ratios "
        "are of mean widths at each look (the monitor ÷ the best member alone, and ÷ the "
        "members' letters unsmoothed, the same strategy), their median over the pools, and "
        "their range at the last look; "
        "'pools < 0.93' counts pools whose time-uniform coverage is below 0.93 (MC s.e. "
        f"{np.sqrt(0.95 * 0.05 / reps):.3f} at 0.95).\n\n"
    )
    body += markdown_table(
        ["strategy", "monitor", "pools", "count", "min coverage", "pools < 0.93",
         *(f"÷ best member at {x}" for x in looks), f"÷ best member at {looks[-1]}: range",
         *(f"÷ letters at {x}" for x in looks), f"÷ letters at {looks[-1]}: range"],
        summary_rows(found, looks),
    )  # fmt: skip
    if found_cov:
        body += ("\n\n## One score with covariates (uniform draws)\n\nThe strongest score "
                 "member's width with the covariates as strata within its bins ÷ its width "
                 "alone, per pool with a score member.\n\n")
        body += markdown_table(["pool", "monitor", *(f"÷ score alone at {x}" for x in looks)],
                               covariate_rows(found_cov, looks))  # fmt: skip
    body += "\n\n## Every pool\n\n" + markdown_table(
        ["pools", "pool", "strategy", "monitor", "cells", "coverage",
         *(f"width at {x}" for x in looks), *(f"÷ best at {x}" for x in looks),
         *(f"÷ letters at {x}" for x in looks)], rows,
    )  # fmt: skip
    body += "\n\n" + run_time(elapsed, args.quick)
    publish("sequential_jury", "The monitor with a jury and with covariates", body, elapsed)


if __name__ == "__main__":
    main()
