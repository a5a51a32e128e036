"""The monitor with a judge score (issue 39): time-uniform coverage and the width it saves.

Each cell is a realised finite pool of N judged items, drawn once per cell with a seeded
Generator: y_i ~ Bern(θ) and a judge score s_i ~ N(d·y_i, 1) (d the score's separation; its
R² with the human label, Var(P(y = 1 | s))/θ(1 − θ), is computed on the pool and printed).
The letter-only monitor sees the judge's letter s > d/2 (two cells); the score monitor sees
the score's B quantile bins of the pool (judgestats.sequential.inputs.score_cells, the cells
Monitor.set_pool makes from a numeric judge column; B = 10 (the default) and 20). The
increment's prediction is learned only from the labels before the draw (predictable): for
letters each cell's labelled rate (shrunk by one item towards 1/2), for the score each bin's
labelled rate shrunk by 5 items towards the rate of the bin and its two neighbours (a running
smoother of the score, judgestats.sequential.pool.PoolState with smooth=True). The confidence
sequence is the package's betting one
(judgestats.sequential.replays.replay_labelling, 95%, default schedule). The estimand is the
pool's realised human rate.

A replay labels the pool one item at a time without replacement, 20 per round, "uniform" (every
unlabelled item equally likely, design="random") or "by-judge-label" (Neyman across the cells
from the labels before the round, floor 0.1), up to 1,000 labels (at most N/2); 300 replays
per cell, strategy and cells (--quick: 3 cells, 100 replays, 500 labels, B = 10 only).
Coverage is time-uniform: the pool's rate inside every interval up to the last label.

Grid: 9 cells (θ in {0.1, 0.3, 0.5} × d in {1, 2, 3}, N = 5,000) and 9 cells drawn at random
(seed 3911: θ ~ U(0.05, 0.95), d ~ U(0.5, 3.5), N log-uniform on 2,000–20,000).

Writes benchmarks/results/sequential_scores.md.
Run: python benchmarks/bench_sequential_scores.py [--quick]
"""

from __future__ import annotations

import itertools
import time

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time
from scipy.stats import norm

from judgestats.sequential.inputs import score_cells
from judgestats.sequential.replays import replay_labelling

LEVEL = 0.95
SEED = 3911
BATCH = 20
STRATEGIES = ("uniform", "by-judge-label")
LOOKS = (100, 250, 500, 1000)


def grid_cells() -> list[tuple[float, float, int]]:
    return [(t, d, 5000) for t, d in itertools.product((0.1, 0.3, 0.5), (1.0, 2.0, 3.0))]


def random_cells(count: int) -> list[tuple[float, float, int]]:
    gen = np.random.default_rng(SEED)
    return [(round(float(gen.uniform(0.05, 0.95)), 3), round(float(gen.uniform(0.5, 3.5)), 2),
             int(np.exp(gen.uniform(np.log(2000), np.log(20000)))))
            for _ in range(count)]  # fmt: skip


def build_pool(cell: tuple, seed: int) -> tuple[np.ndarray, np.ndarray, float]:
    """(scores, human labels, the score's R² with the label) of one realised pool."""
    theta, d, n = cell
    gen = np.random.default_rng(seed)
    y = (gen.random(n) < theta).astype(float)
    s = gen.normal(d * y, 1.0)
    like1, like0 = theta * norm.pdf(s - d), (1 - theta) * norm.pdf(s)
    post = like1 / (like1 + like0)
    return s, y, float(post.var() / (theta * (1 - theta)))


def cells_of(codes: list, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    _, index = np.unique(np.asarray(codes, dtype=object).astype(str), return_inverse=True)
    size = np.bincount(index).astype(float)
    return size, np.bincount(index, weights=y)


def run_cell(s, y, cell, bins, labels, reps, seed):
    letter = (s > cell[1] / 2).astype(int).tolist()
    configs = {"letter": cells_of(letter, y)}
    for b in bins:
        configs[f"score, {b} bins"] = cells_of(score_cells(s, b), y)
    out = {}
    for k, strategy in enumerate(STRATEGIES):
        for j, (name, (size, pos)) in enumerate(configs.items()):
            res = replay_labelling(size, pos, strategy=strategy, labels=labels, batch=BATCH,
                                   looks=LOOKS, reps=reps, confidence_level=LEVEL, fixed=False,
                                   rng=seed + 10 * k + j, progress=False,
                                   smooth=name != "letter")  # fmt: skip
            out[strategy, name] = res
    return out


def main() -> None:
    args = quick_parser(__doc__, "3 cells, 100 replays, 500 labels, 10 bins").parse_args()
    t0 = time.time()
    if args.quick:
        cells = [("grid", grid_cells()[4]), ("grid", grid_cells()[8])]
        cells += [("random", random_cells(1)[0])]
        reps, max_labels, bins = 100, 500, (10,)
    else:
        cells = [("grid", c) for c in grid_cells()] + [("random", c) for c in random_cells(9)]
        reps, max_labels, bins = 300, 1000, (10, 20)
    names = ["letter", *(f"score, {b} bins" for b in bins)]
    rows, found = [], []
    for i, (source, cell) in enumerate(cells):
        s, y, r2 = build_pool(cell, seed=20_000 + i)
        labels = min(max_labels, cell[2] // 2)
        res = run_cell(s, y, cell, bins, labels, reps, seed=1000 * i)
        found.append((source, cell, r2, res))
        for strategy, name in itertools.product(STRATEGIES, names):
            r = res[strategy, name]
            letter = res[strategy, "letter"].width.mean(axis=0)
            w = r.width.mean(axis=0)
            rows.append([source, f"{cell[0]:g}", f"{cell[1]:g}", cell[2], f"{r2:.2f}", strategy,
                         name, f"{r.covered.mean():.3f}",
                         *(f"{x:.4f}" for x in w), *(f"{x:.3f}" for x in w / letter)])  # fmt: skip
        print(source, cell, f"{time.time() - t0:.0f} s", flush=True)
    looks = found[0][3]["uniform", "letter"].looks.tolist()
    summary = []
    for strategy, name, source in itertools.product(STRATEGIES, names, ("grid", "random", "all")):
        part = [f for f in found if source in (f[0], "all")]
        cov = np.array([f[3][strategy, name].covered.mean() for f in part])
        ratio = np.array([f[3][strategy, name].width.mean(axis=0)[-1]
                          / f[3][strategy, "letter"].width.mean(axis=0)[-1]
                          for f in part])  # fmt: skip
        summary.append([strategy, name, source, len(part), f"{cov.min():.3f}", f"{cov.mean():.3f}",
                        int((cov < 0.94).sum()), f"{np.median(ratio):.3f}",
                        f"{ratio.min():.3f}–{ratio.max():.3f}"])  # fmt: skip
    by_r2 = []
    for name in names[1:]:
        for lo, hi in ((0.0, 0.3), (0.3, 0.6), (0.6, 1.01)):
            part = [f for f in found if lo <= f[2] < hi]
            if not part:
                continue
            ratio = [f[3]["uniform", name].width.mean(axis=0)[-1]
                     / f[3]["uniform", "letter"].width.mean(axis=0)[-1] for f in part]  # fmt: skip
            by_r2.append([name, f"{lo:g}–{min(hi, 1):g}", len(part), f"{np.median(ratio):.3f}",
                          f"{min(ratio):.3f}–{max(ratio):.3f}"])  # fmt: skip
    elapsed = time.time() - t0
    body = (
        __doc__.split("\n\n", 1)[1].rsplit("\n\nWrites", 1)[0]
        + f"\n\n## Time-uniform coverage and width against the letter-only monitor\n\n"
        f"{reps} replays per cell; the width ratio is the mean width at the last label "
        "(score monitor ÷ letter-only monitor, the same strategy), the median and range over "
        "the cells; 'cells < 0.94' counts cells whose coverage is below 0.94 (MC s.e. "
        f"{np.sqrt(0.95 * 0.05 / reps):.3f} at 0.95).\n\n"
    )
    body += markdown_table(
        ["strategy", "monitor", "cells", "count", "min coverage", "mean coverage",
         "cells < 0.94", "width ÷ letter: median", "width ÷ letter: range"], summary,
    )  # fmt: skip
    body += ("\n\n## By the score's R² with the human label (uniform draws)\n\n"
             "The width ratio at the last label, by the pool's R² of the score.\n\n")
    body += markdown_table(["monitor", "R²", "cells", "width ÷ letter: median",
                            "width ÷ letter: range"], by_r2)  # fmt: skip
    body += "\n\n## Every cell\n\n" + markdown_table(
        ["cells", "θ", "d", "items N", "R²", "strategy", "monitor", "coverage",
         *(f"width at {x}" for x in looks), *(f"÷ letter at {x}" for x in looks)], rows,
    )  # fmt: skip
    body += "\n\n" + run_time(elapsed, args.quick)
    publish("sequential_scores", "The monitor with a judge score", body, elapsed)


if __name__ == "__main__":
    main()
