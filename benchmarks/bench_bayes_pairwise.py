"""The Bayesian pairwise leaderboard against the joint MLE, where the joint model holds (issue 29).

``js.bayes.fit_pairwise`` is the posterior twin of ``js.pairwise(method="joint-mle")``: the
same likelihood with weak priors (strength sd 2, log ν sd 2, flat Dirichlet columns). Each data
set draws n pairs of two distinct models at random (the first named shown first), the human
verdict from Davidson's model (tie ν = 0.6) with centred strengths β, and the judge's letter
from a confusion that depends on the pair only through the human verdict (the model both fits
assume); a share r of the pairs keeps its human verdict (design "random"). Cells:

  grid A    K = 4, β = (−0.8, −0.2, 0.3, 0.7), n = 2000, r = 25%, a judge preferring the first
            answer and under-calling ties (tests/pairwise/test_leaderboard.BIASED);
  grid B    K = 6, β evenly on [−1, 1], n = 4000, r = 15%, a swap-symmetric judge
            (tests/pairwise/test_leaderboard.SYMMETRIC);
  random    K on 3–8, β evenly on [−s, s] with s on 0.5–1.5, n on 1500–5000, r on 10–30%, the
            confusion a Dirichlet draw around BIASED (seed 2933).

Per cell, 20 data sets (seed 2934 + cell; --quick: grid A, 2 data sets, 500 draws): NUTS with
2 chains × 1000 draws (1000 tuning) on one core; the MLE with observed-information standard
errors. Shown: the largest |posterior mean − MLE| / SE over the strengths and log ν (median and
maximum over the data sets), the range of posterior sd / SE over the strengths, the coverage
of the true strengths by the 95% equal-tailed credible intervals and by the MLE's 95% Wald
intervals (pooled over models and data sets), and the data sets whose sampling diagnostics all
passed (r_hat ≤ 1.01, ESS ≥ 400, no divergence).

Run: python benchmarks/bench_bayes_pairwise.py [--quick]   (full: 60 fits, about 15 min)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time

import judgestats as js

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.pairwise.test_leaderboard import BIASED, SYMMETRIC, simulate

SEED = 2934
TIE = 0.6


def cells(quick: bool) -> list[dict]:
    grid = [
        {"name": "grid A", "beta": np.array([-0.8, -0.2, 0.3, 0.7]), "n": 2000, "r": 0.25,
         "confusion": BIASED},
        {"name": "grid B", "beta": np.linspace(-1.0, 1.0, 6), "n": 4000, "r": 0.15,
         "confusion": SYMMETRIC},
    ]  # fmt: skip
    if quick:
        return grid[:1]
    rng = np.random.default_rng(2933)
    k, s = int(rng.integers(3, 9)), float(rng.uniform(0.5, 1.5))
    confusion = np.column_stack([rng.dirichlet(60 * BIASED[:, h]) for h in range(3)])
    n, r = int(rng.integers(1500, 5001)), float(rng.uniform(0.10, 0.30))
    grid.append({"name": "random", "beta": np.linspace(-s, s, k), "n": n, "r": r,
                 "confusion": confusion})  # fmt: skip
    return grid


def one(cell: dict, rng: np.random.Generator, draws: int) -> dict:
    frame = simulate(rng, cell["beta"], n=cell["n"], labelled=cell["r"], tie=TIE,
                     confusion=cell["confusion"])  # fmt: skip
    mle = js.pairwise(frame, method="joint-mle", interval="observed-information", rng=0)
    post = js.bayes.fit_pairwise(frame, random_seed=int(rng.integers(2**31)), chains=2,
                                 cores=1, draws=draws, tune=1000)  # fmt: skip
    k = len(mle.models)
    se = np.sqrt(np.diag(mle.covariance))
    log_tie = float(np.log(post.posterior["posterior"]["tie"]).mean())
    gap = np.abs(np.append(post.strength - mle.strength, log_tie - np.log(mle.tie))) / se
    truth = cell["beta"] - cell["beta"].mean()  # models m0..m{K-1} sort as their indices
    order = np.argsort([f"m{i}" for i in range(k)])
    truth = truth[order]
    return {
        "gap": float(gap.max()),
        "sd_ratio": post.strength_se / se[:k],
        "eti": (post.strength_ci[:, 0] <= truth) & (truth <= post.strength_ci[:, 1]),
        "wald": (mle.strength_ci[:, 0] <= truth) & (truth <= mle.strength_ci[:, 1]),
        "ok": post.diagnostics.ok,
    }


def main() -> None:
    args = quick_parser(__doc__.splitlines()[0], "grid A, 2 data sets").parse_args()
    start = time.time()
    reps, draws = (2, 500) if args.quick else (20, 1000)
    rows = []
    for i, cell in enumerate(cells(args.quick)):
        rng = np.random.default_rng(SEED + i)
        t = time.time()
        res = [one(cell, rng, draws) for _ in range(reps)]
        gaps = [r["gap"] for r in res]
        ratios = np.concatenate([r["sd_ratio"] for r in res])
        rows.append([
            cell["name"], str(cell["beta"].size), str(cell["n"]), f"{cell['r']:.2f}", str(reps),
            f"{np.median(gaps):.3f}", f"{max(gaps):.3f}",
            f"{ratios.min():.3f}–{ratios.max():.3f}",
            f"{np.mean(np.concatenate([r['eti'] for r in res])):.3f}",
            f"{np.mean(np.concatenate([r['wald'] for r in res])):.3f}",
            f"{sum(r['ok'] for r in res)}/{reps}", f"{(time.time() - t) / reps:.1f}",
        ])  # fmt: skip
        print(rows[-1], flush=True)
    header = ["cell", "K", "n", "labelled", "data sets", "median max |Δ|/SE", "max |Δ|/SE",
              "sd / SE", "ETI coverage", "Wald coverage", "diagnostics ok",
              "s per data set"]  # fmt: skip
    body = __doc__.split("Run:")[0].split("\n", 2)[2] + "\n## Posterior against MLE\n\n"
    body += markdown_table(header, rows) + "\n\n" + run_time(time.time() - start, args.quick)
    print(body)
    publish("bayes_pairwise", "Bayesian pairwise leaderboard against the joint MLE", body,
            time.time() - start)  # fmt: skip


if __name__ == "__main__":
    main()
