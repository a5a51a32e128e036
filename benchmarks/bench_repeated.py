"""Repeated items (issue 27 §1): coverage and width of the cluster-aware intervals.

Each item has a true label y ~ Bern(θ) and k verdicts. Its judge propensity is Beta with mean
q1 (y = 1) or 1 − q0 (y = 0) and intra-item correlation ρ, so its k verdicts share it; a random
m of the N items are human-labelled (all their rows are calibration rows, the others test
rows). Three kinds of labels:

* **constant**: every row of an item carries the item's label (epochs of one fixed answer);
* **raters**: the judge's verdict is the item's (repeated on its k rows) and each row's human
  label is a rater's own draw from the item's share s ~ Beta(θ, ρ) (several raters disagree);
* **epochs**: each row is a new answer: its truth is a draw from the item's share s and its
  verdict follows the judge's Beta propensity for that truth (the item's difficulty is shared).

The estimand is the rate over rows (equal k: the rate over items), whose expectation is θ.
Every data set is analysed three ways under each design's own estimator (the paper's
by-human-label design, and design="random", which these random labelled items also are): the
cluster-aware adjusted-Wald interval (``js.correct(..., method="adjusted-wald")`` on counts built
with ``cluster=``; the default before ``auto`` became it under by-human-label, issue 38 §3),
the cluster bootstrap (items resampled within the design's strata) and, for contrast, the
rows counted as independent items (what every interval did before).

Grid: the five cells of issue 27, 16 cells on a grid (k in {2, 3, 5, 10}, ρ in {.1, .3, .6,
.9}, θ, q0 + q1 and the kinds of labels varied together) and 20 cells drawn at random (seed
2711: k uniform on 2–10, ρ on (0.1, 0.9), θ on (0.05, 0.95), q0 + q1 on (1.2, 1.9) split
uniformly between q0 and q1, N on 200–3000 items, m such that each human class has >= 20
labelled items in expectation, the kind of labels at random): of the 40 cells with repeats,
half drawn at random. Each cell under both designs, 1,000 data sets each (--quick: 8 cells,
150 data sets, 199 bootstrap draws).

Writes benchmarks/results/repeated.md.
Run: python benchmarks/bench_repeated.py [--quick]
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time

import judgestats as js
from judgestats.counts.clusters import ClusterTotals

LEVEL = 0.95
DESIGNS = ("by-human-label", "random")
ISSUE_CELLS = [  # (θ, q0, q1, N, m, k, ρ, labels): issue 27's table
    (0.5, 0.85, 0.85, 2000, 200, 1, 0.0, "constant"),
    (0.5, 0.85, 0.85, 2000, 200, 5, 0.5, "constant"),
    (0.5, 0.85, 0.85, 2000, 200, 5, 0.8, "constant"),
    (0.3, 0.9, 0.8, 1000, 300, 3, 0.6, "constant"),
    (0.5, 0.85, 0.85, 400, 100, 10, 0.8, "constant"),
]


def grid_cells() -> list[tuple]:
    kinds = ("constant", "raters", "epochs", "constant")
    out = []
    for i, (k, rho) in enumerate([(k, r) for k in (2, 3, 5, 10) for r in (0.1, 0.3, 0.6, 0.9)]):
        theta = (0.1, 0.3, 0.5, 0.8)[i % 4]
        q0, q1 = ((0.8, 0.7), (0.9, 0.9), (0.65, 0.6), (0.95, 0.8))[(i // 4 + i) % 4]
        m = int(max(120, np.ceil(25 / min(theta, 1 - theta))))
        out.append((theta, q0, q1, 1500, m, k, rho, kinds[(i + i // 4) % 4]))
    return out


def random_cells(count: int, seed: int = 2711) -> list[tuple]:
    gen = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        theta = float(gen.uniform(0.05, 0.95))
        total = float(gen.uniform(1.2, 1.9))
        q0 = float(gen.uniform(max(total - 1.0, 0.2), min(1.0, total - 0.2)))
        q1 = total - q0
        items = int(np.exp(gen.uniform(np.log(200), np.log(3000))))
        m = int(min(items // 2, max(np.ceil(20 / min(theta, 1 - theta)), gen.integers(60, 400))))
        k = int(gen.integers(2, 11))
        rho = float(gen.uniform(0.1, 0.9))
        out.append((round(theta, 3), round(q0, 3), round(q1, 3), items, m, k, round(rho, 3),
                    str(gen.choice(["constant", "raters", "epochs"]))))  # fmt: skip
    return out


def _beta(gen, mean, rho, size=None):
    if rho <= 0:
        return np.broadcast_to(mean, size if size is not None else np.shape(mean)).astype(float)
    return gen.beta(mean * (1 - rho) / rho, (1 - mean) * (1 - rho) / rho, size)


def draw(gen, theta, q0, q1, items, m, k, rho, labels):
    """Per-row arrays (human, judge, item id, labelled) of one data set."""
    if labels == "constant":
        y = np.repeat(gen.random(items) < theta, k)
        prop = _beta(gen, np.where(y[::k], q1, 1 - q0), rho)
        judge = gen.random(items * k) < np.repeat(prop, k)
    else:
        share = np.repeat(_beta(gen, theta, rho, items), k)
        y = gen.random(items * k) < share
        if labels == "raters":  # the item's one verdict, right as often as the judge is
            major = share[::k] >= 0.5
            say = np.where(major, gen.random(items) < q1, gen.random(items) >= q0)
            judge = np.repeat(say, k)
        else:  # epochs: each row's verdict from the judge's propensity for that row's truth
            p1, p0 = _beta(gen, q1, rho, items), _beta(gen, 1 - q0, rho, items)
            judge = gen.random(items * k) < np.where(y, np.repeat(p1, k), np.repeat(p0, k))
    labelled = np.zeros(items, bool)
    labelled[gen.choice(items, m, replace=False)] = True
    return y, judge, np.repeat(np.arange(items), k), np.repeat(labelled, k)


def counts(y, judge, ids, labelled, clustered: bool):
    """Test and calibration counts, with per-item totals when ``clustered``."""
    t, c = ~labelled, labelled
    cells = {"tp": y[c] & judge[c], "fn": y[c] & ~judge[c],
             "tn": ~y[c] & ~judge[c], "fp": ~y[c] & judge[c]}  # fmt: skip
    sums = {k: int(v.sum()) for k, v in cells.items()}
    if not clustered:
        return js.JudgedCounts(int(judge[t].sum()), int(t.sum())), js.ConfusionCounts(**sums)
    tid, inv = np.unique(ids[t], return_inverse=True)
    tot = np.stack([np.bincount(inv, judge[t]), np.bincount(inv)], axis=1).astype(np.int64)
    test = js.JudgedCounts(int(judge[t].sum()), int(t.sum()),
                           clusters=ClusterTotals(tid, tot, ("positive", "n")))  # fmt: skip
    cid, inv = np.unique(ids[c], return_inverse=True)
    ctot = np.stack([np.bincount(inv, v) for v in cells.values()], axis=1).astype(np.int64)
    cal = js.ConfusionCounts(**sums, clusters=ClusterTotals(cid + 10**9, ctot,
                                                            ("tp", "fn", "tn", "fp")))  # fmt: skip
    return test, cal


def run_cell(cell, design, reps, boot, seed):
    gen = np.random.default_rng(seed)
    theta = cell[0]
    hits = {"aware": 0, "boot": 0, "rows": 0}
    width = {"aware": [], "boot": [], "rows": []}
    done = 0
    for _ in range(reps):
        data = draw(gen, *cell)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ct, cc = counts(*data, clustered=True)
                ft, fc = counts(*data, clustered=False)
                res = {
                    # the paper's interval by name: the default under by-human-label is now
                    # auto (issue 38 §3), measured in bench_auto_default.py
                    "aware": js.correct(ct, cc, design=design, method="adjusted-wald"),
                    "boot": js.correct(ct, cc, design=design, method="bootstrap",
                                       n_resamples=boot, rng=gen),
                    "rows": js.correct(ft, fc, design=design, method="adjusted-wald"),
                }  # fmt: skip
        except js.JudgeStatsError:  # a calibration set without a class (by-human-label)
            continue
        done += 1
        for key, r in res.items():
            hits[key] += r.ci.low <= theta <= r.ci.high
            width[key].append(r.ci.high - r.ci.low)
    return {
        "done": done,
        **{f"cov_{k}": hits[k] / max(done, 1) for k in hits},
        **{f"w_{k}": float(np.mean(width[k])) for k in width},
    }


GUARD_CELLS = [(40, 2), (60, 10), (100, 3), (150, 2), (300, 5), (1000, 10), (2000, 3)]


def guard_frame(gen, items: int, k: int, rho: float):
    """A frame with a repeating ``sample_id``: rows independent (rho = 0) or sharing the item's
    truth and judge propensity (rho > 0)."""
    import pandas as pd

    if rho == 0:
        y = gen.random(items * k) < 0.5
        judge = np.where(y, gen.random(items * k) < 0.85, gen.random(items * k) < 0.15)
    else:
        y = np.repeat(gen.random(items) < 0.5, k)
        prop = np.repeat(_beta(gen, np.where(y[::k], 0.85, 0.15), rho), k)
        judge = gen.random(items * k) < prop
    labelled = np.repeat(gen.random(items) < 0.3, k)
    return pd.DataFrame({"model": "m", "sample_id": np.repeat(np.arange(items), k),
                         "judge": judge.astype(int),
                         "human": np.where(labelled, y.astype(float), np.nan)})  # fmt: skip


def guard_rate(items: int, k: int, rho: float, frames: int, seed: int) -> tuple[float, int]:
    """Share of frames on which js.evaluate warns RepeatedItemsWarning (and frames analysed)."""
    gen = np.random.default_rng(seed)
    warned = done = 0
    for _ in range(frames):
        frame = guard_frame(gen, items, k, rho)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                js.evaluate(frame, errors="mark")
            except js.JudgeStatsError:  # no group correctable (tiny calibration sets)
                continue
        done += 1
        warned += any(issubclass(w.category, js.RepeatedItemsWarning) for w in caught)
    return warned / max(done, 1), done


def main() -> None:
    args = quick_parser(__doc__, "8 cells, 150 data sets, 199 bootstrap draws").parse_args()
    t0 = time.time()
    if args.quick:
        cells = [("issue", c) for c in ISSUE_CELLS[2:]] + [("random", c) for c in random_cells(3)]
        reps, boot = 150, 199
    else:
        cells = ([("issue", c) for c in ISSUE_CELLS] + [("grid", c) for c in grid_cells()]
                 + [("random", c) for c in random_cells(20)])  # fmt: skip
        reps, boot = 1000, 499
    rows, summary = [], {d: [] for d in DESIGNS}
    for i, (source, cell) in enumerate(cells):
        for design in DESIGNS:
            r = run_cell(cell, design, reps, boot, seed=1000 * i + DESIGNS.index(design))
            summary[design].append((source, cell, r))
            theta, q0, q1, items, m, k, rho, labels = cell
            rows.append([
                source, design, f"{theta:g}", f"{q0:g}", f"{q1:g}", items, m, k, f"{rho:g}",
                labels, r["done"], f"{r['cov_aware']:.3f}", f"{r['cov_boot']:.3f}",
                f"{r['cov_rows']:.3f}", f"{r['w_aware'] / r['w_boot']:.2f}",
                f"{r['w_aware']:.4f}",
            ])  # fmt: skip
            print(rows[-1], flush=True)
    head = ["cells", "design", "θ", "q0", "q1", "items N", "labelled m", "k", "ρ", "labels",
            "data sets", "coverage cluster-aware", "coverage cluster bootstrap",
            "coverage rows as items", "width ÷ bootstrap", "mean width"]  # fmt: skip
    worst = []
    for design in DESIGNS:
        for source in ("issue", "grid", "random"):
            rs = [r for s, c, r in summary[design] if s == source and c[5] > 1]
            if not rs:
                continue
            worst.append([
                design, source, len(rs), f"{min(r['cov_aware'] for r in rs):.3f}",
                f"{np.mean([r['cov_aware'] for r in rs]):.3f}",
                f"{max(r['w_aware'] / r['w_boot'] for r in rs):.2f}",
                f"{min(r['cov_rows'] for r in rs):.3f}",
            ])  # fmt: skip
    body = __doc__.split("Writes")[0].strip() + "\n\n## Summary (cells with k > 1)\n\n"
    body += markdown_table(
        ["design", "cells", "count", "min coverage cluster-aware", "mean coverage cluster-aware",
         "max width ÷ cluster bootstrap", "min coverage rows as items"], worst,
    )  # fmt: skip
    body += "\n\n## Every cell\n\n" + markdown_table(head, rows)
    frames = 30 if args.quick else 300
    guard = []
    for j, (items, k) in enumerate(GUARD_CELLS[:3] if args.quick else GUARD_CELLS):
        quiet, n0 = guard_rate(items, k, 0.0, frames, seed=50 + j)
        loud, n1 = guard_rate(items, k, 0.5, frames, seed=90 + j)
        guard.append([items, k, n0, f"{quiet:.3f}", n1, f"{loud:.3f}"])
        print(guard[-1], flush=True)
    body += (
        "\n\n## Guard rail: js.evaluate without cluster= on a frame whose sample_id repeats\n\n"
        "Share of frames that warn RepeatedItemsWarning: where every row is an independent draw "
        "(the ids repeat, the rows do not correlate) and where an item's rows share its truth "
        "and judge propensity (ρ = 0.5); θ = 0.5, q0 = q1 = 0.85, 30% of the items labelled.\n\n"
        + markdown_table(["items", "rows per item k", "frames (uncorrelated)",
                          "warned (uncorrelated)", "frames (correlated)", "warned (correlated)"],
                         guard)
    )  # fmt: skip
    body += "\n\n" + run_time(time.time() - t0, args.quick)
    publish("repeated", "Repeated items: coverage of the cluster-aware intervals", body,
            time.time() - t0)  # fmt: skip


if __name__ == "__main__":
    main()
