"""Labelling as a process on the bundled real data, and the monitor's speed (issue 28).

**Replays.** Each pool is one model's judged answers: Chatbot Arena with GPT-4's three letters
(win / tie / lose; human: the model won), 20 models, 829–4,767 answers each; NQ-301 with the
GPT-4 judge (binary; human: correct), 12 systems, 273–300 answers each. The human labels are
revealed in a random order, as a labelling team would collect them, 100 replays per pool and
strategy, a look after every 20 labels. Per pool and target width: the labels a fixed-n plan
needs (Cochran's formulas with the pool's own letter shares and human rates: an oracle plan,
valid for one look at n), the median labels the monitor needs drawing uniformly
(design="random") and within judge letters (design="by-judge-label": Neyman with a 10%
uniform floor), its time-uniform coverage, and Neyman's theoretical saving
1 − (Σ π_j σ_j)² / Σ π_j σ_j² beside the measured one. Targets each pool can reach: 0.12 and
0.08 on Arena, 0.2 and 0.15 on NQ (the estimand is the pool's rate, known exactly once every
answer is labelled). Coverage is time-uniform up to the labels at which the last replay reached
the target; with 100 replays its Monte Carlo s.e. is 0.022 at 0.95, so over 128 pool × target ×
strategy figures a lowest one near 0.91 is what chance gives (the 1,000-replay grid of
``sequential.md`` is the coverage study).

**Speed.** A 100,000-item leaderboard of 20 groups (pandas, a binary judge): counting it on
the engine (``group_counts``, what ``js.evaluate`` does) against the monitor's ``set_pool``
(once) and an ``update`` of one round (20 labels per group, with the look that follows), early
and after 1,000 labels per group.

Writes benchmarks/results/sequential_data.md.
Run: python benchmarks/bench_sequential_data.py [--quick]
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from _common import best_of, markdown_table, publish, quick_parser, run_time

import judgestats as js
from judgestats.frames import group_counts
from judgestats.sequential.planning import fixed_labels, neyman_gain
from judgestats.sequential.replays import replay_labelling

SEED = 2028


def pools(quick: bool) -> list[tuple[str, str, np.ndarray, np.ndarray, tuple[float, float]]]:
    """(data set, model, size per letter, positives per letter, targets)."""
    arena = js.datasets.load_chatbot_arena(judge="gpt-4")
    nq = js.datasets.load_nq301()
    out = []
    for name, part in arena.groupby("target_model", sort=True):
        g = part.groupby("judge_label")["human"]
        out.append(("Arena", name, g.size().to_numpy(), g.sum().to_numpy(), (0.12, 0.08)))
    for name, part in nq.groupby("target_model", sort=True):
        g = part.groupby("judge")["human"]
        out.append(("NQ", name, g.size().to_numpy(), g.sum().to_numpy(), (0.2, 0.15)))
    return [out[0], out[5], out[-1]] if quick else out


def replay_rows(entries: list, reps: int) -> list[list]:
    rows = []
    for k, (data, name, size, positive, targets) in enumerate(entries):
        shares, rates = size / size.sum(), positive / size
        gain = neyman_gain(shares, rates)
        for target in targets:
            fixed, _ = fixed_labels(shares, rates, target, 0.95, size.sum())
            got = {}
            for strategy in ("uniform", "by-judge-label"):
                r = replay_labelling(size, positive, strategy=strategy, labels=int(size.sum()),
                                     looks=(), reps=reps, fixed=False, target_width=target,
                                     rng=SEED + k)  # fmt: skip
                got[strategy] = (float(np.nanmedian(r.labels_needed)), r.covered.mean())
            (mu, cu), (mn, cn) = got["uniform"], got["by-judge-label"]
            rows.append([data, name, int(size.sum()), len(size), target, fixed, f"{mu:.0f}",
                         f"{mn:.0f}", f"{mu / fixed:.2f}", f"{gain:.1%}", f"{1 - mn / mu:.1%}",
                         f"{min(cu, cn):.2f}"])  # fmt: skip
            print(rows[-1], flush=True)
    return rows


def summary_rows(rows: list[list]) -> list[list]:
    df = pd.DataFrame(rows, columns=["data", "model", "N", "letters", "target", "fixed",
                                     "mu", "mn", "ratio", "gain", "saving", "cov"])  # fmt: skip
    out = []
    for (data, target), part in df.groupby(["data", "target"], sort=False):
        ratio = part["ratio"].astype(float)
        gain = part["gain"].str.rstrip("%").astype(float)
        saving = part["saving"].str.rstrip("%").astype(float)
        cov = part["cov"].astype(float)
        out.append([data, target, len(part), f"{ratio.median():.2f} ({ratio.min():.2f}–"
                    f"{ratio.max():.2f})", f"{gain.median():.1f}% ({gain.min():.1f}–"
                    f"{gain.max():.1f}%)", f"{saving.median():.1f}% ({saving.min():.1f}–"
                    f"{saving.max():.1f}%)", f"{cov.min():.2f}"])  # fmt: skip
    return out


def speed_rows(quick: bool) -> list[list]:
    g = np.random.default_rng(0)
    n, groups = (20_000, 20) if quick else (100_000, 20)
    frame = pd.DataFrame({"model": g.integers(0, groups, n).astype(str), "item": np.arange(n),
                          "judge": g.integers(0, 2, n)})  # fmt: skip
    truth = (g.random(n) < 0.3).astype(int)
    counting = best_of(lambda: group_counts(frame.assign(human=np.nan), judge="judge",
                                            human="human", by=("model",)), repeat=3)  # fmt: skip
    mon = js.sequential.Monitor(design="by-judge-label", rng=0)
    start = time.perf_counter()
    mon.set_pool(frame, item="item", by="model")
    setting = time.perf_counter() - start

    def one_round() -> float:
        batch = mon.next_batch(20)
        batch["human"] = truth[batch["item"].to_numpy()]
        t0 = time.perf_counter()
        mon.update(batch, inclusion_probability="inclusion_probability")
        return time.perf_counter() - t0

    early = min(one_round() for _ in range(3))
    later = 47 if not quick else 17  # stay well inside each group's pool (n / groups items)
    for _ in range(later):
        one_round()
    late = min(one_round() for _ in range(3))
    return [
        ["count the pool on the engine (group_counts)", f"{counting:.3f}", "1.0"],
        ["Monitor.set_pool (once)", f"{setting:.3f}", f"{setting / counting:.1f}"],
        ["Monitor.update, round 1–3 (400 labels)", f"{early:.3f}", f"{early / counting:.1f}"],
        [f"Monitor.update, round {later + 4}–{later + 6} (400 labels)", f"{late:.3f}",
         f"{late / counting:.1f}"],
    ], n, groups


def main() -> None:
    args = quick_parser(__doc__, "3 pools, 20 replays, a 20,000-item speed frame").parse_args()
    start = time.time()
    reps = 20 if args.quick else 100
    rows = replay_rows(pools(args.quick), reps)
    speed, n, groups = speed_rows(args.quick)
    body = __doc__.split("\n\n", 1)[1].rsplit("\n\nWrites", 1)[0] + "\n\n"
    body += f"Replays per pool and strategy: {reps}; seed {SEED} + the pool's index.\n\n"
    body += "## Summary\n\n"
    body += "Medians over pools (range in brackets); coverage: the lowest over pools and both "
    body += "strategies.\n\n"
    body += markdown_table(
        ["data", "target width", "pools", "monitor ÷ fixed-n labels (uniform)",
         "Neyman gain (theory)", "labels saved by-judge-label (measured)",
         "min time-uniform coverage"], summary_rows(rows),
    )  # fmt: skip
    body += "\n\n## Every pool\n\n"
    body += markdown_table(
        ["data", "model", "items", "letters", "target width", "fixed-n (oracle)",
         "monitor uniform", "monitor by-judge-label", "monitor ÷ fixed-n", "Neyman gain",
         "saved", "time-uniform coverage (min of both)"], rows,
    )  # fmt: skip
    body += f"\n\n## Speed ({n:,} items, {groups} groups, pandas)\n\n"
    body += markdown_table(["step", "seconds", "÷ counting"], speed)
    body += "\n\n" + run_time(time.time() - start, args.quick) + "\n"
    publish("sequential_data", "Labelling in rounds on the bundled data, and speed", body,
            time.time() - start)  # fmt: skip


if __name__ == "__main__":
    main()
