"""The repeated-items guard rail with rows that agree beyond chance (issue 38, second tour).

``js.evaluate`` (and ``judgestats correct``/``report``, which call it through
:func:`judgestats.evaluate.counting.count_groups`) warns ``RepeatedItemsWarning`` where an item
column repeats and :func:`judgestats.repeated.repeats_matter` holds: the design effect on θ̂
is above 1.2 and either above its noise under uncorrelated repeats, 1 + 2.5·√(2/(G − 1)), or
the items' rows agree beyond chance (:func:`judgestats.repeated.repeats_agree`, a 1% one-sided
test). The second tour found every calibration row twice (NQ-301, about 60 calibration items
per model) unwarned: a design effect of about 1.8 under a noise bound of 1.79 at G ≈ 21.

Measured, each data set one frame of one group through ``js.evaluate``:

* **false alarms**: independent rows whose ids repeat (every row its own draw: truth
  Bern(θ), judge with sensitivity q1 and specificity q0; an item's rows all labelled or all
  not, share 0.3): the share of data sets warned (claim: <= 5% in every cell);
* **duplicated calibration rows**: items judged once, the labelled items' rows written twice
  (the tour's file): the share warned. The rule never warns at a design effect <= 1.2 (the
  interval at most √1.2 ≈ 1.1 times too short), so the share is below 1 where the test set's
  noise dominates θ̂'s variance (many test items, an accurate judge);
* **the bundled data sets** (NQ-301 and Chatbot Arena by target model, ``item_id`` kept, a
  seeded 20% calibration split per model, 20 seeds): whether any warns.

Grid: items G in {40, 100, 400} x rows per item k in {2, 3, 5} at θ = 0.4, q0 = 0.8, q1 = 0.85,
and 12 cells drawn at random (seed 3838: G on 30–500, k on 2–6, θ on (0.05, 0.95), q0 and q1
on (0.6, 0.97)). 200 data sets per cell (--quick: 4 grid and 4 random cells, 30).

Writes benchmarks/results/repeat_agreement.md.
Run: python benchmarks/bench_repeat_agreement.py [--quick]
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
from _common import markdown_table, publish, quick_parser, run_time

import judgestats as js


def cells(quick: bool) -> list[tuple]:
    grid = [(g, k, 0.4, 0.8, 0.85) for g in (40, 100, 400) for k in (2, 3, 5)]
    gen = np.random.default_rng(3838)
    drawn = [(int(gen.integers(30, 501)), int(gen.integers(2, 7)), float(gen.uniform(0.05, 0.95)),
              float(gen.uniform(0.6, 0.97)), float(gen.uniform(0.6, 0.97))) for _ in range(12)]
    return (grid[::2][:4] + drawn[:4]) if quick else grid + drawn


def frame(gen, cell, *, duplicated: bool) -> pd.DataFrame:
    """One group's rows: independent rows with repeated ids, or duplicated calibration rows."""
    g, k, theta, q0, q1 = cell
    labelled = gen.random(g) < 0.3
    if duplicated:  # each item judged once; a labelled item's row written twice
        reps = np.where(labelled, 2, 1)
    else:
        reps = np.full(g, k)
    item = np.repeat(np.arange(g), reps)
    lab = np.repeat(labelled, reps)
    if duplicated:
        y1 = gen.random(g) < theta
        j1 = np.where(y1, gen.random(g) < q1, gen.random(g) >= q0)
        y, judge = np.repeat(y1, reps), np.repeat(j1, reps)
    else:
        y = gen.random(len(item)) < theta
        judge = np.where(y, gen.random(len(item)) < q1, gen.random(len(item)) >= q0)
    return pd.DataFrame({"model": "m", "item_id": item, "judge": judge.astype(int),
                         "human": np.where(lab, y.astype(float), np.nan)})


def warned(df: pd.DataFrame, by: str = "model") -> bool:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:  # the guard rail speaks while counting, before any group is corrected
            js.evaluate(df, by=by, method="adjusted-wald", errors="mark")
        except js.JudgeStatsError:
            pass
    return any(issubclass(w.category, js.RepeatedItemsWarning) for w in caught)


def bundled(seeds: int) -> list[list]:
    out = []
    for name, load in (("nq301", js.datasets.load_nq301),
                       ("chatbot-arena", js.datasets.load_chatbot_arena)):
        full = load()[["item_id", "target_model", "judge", "human"]].astype({"human": float})
        hits = 0
        for s in range(seeds):
            gen = np.random.default_rng(s)
            df = full.copy()
            df.loc[gen.random(len(df)) >= 0.2, "human"] = np.nan
            hits += warned(df, by="target_model")
        out.append([name, seeds, hits])
    return out


def main() -> None:
    args = quick_parser(__doc__, "4 + 4 cells, 30 data sets").parse_args()
    reps = 30 if args.quick else 200
    t0 = time.time()
    rows = []
    for i, cell in enumerate(cells(args.quick)):
        gen = np.random.default_rng(1000 + i)
        indep = sum(warned(frame(gen, cell, duplicated=False)) for _ in range(reps)) / reps
        dup = sum(warned(frame(gen, cell, duplicated=True)) for _ in range(reps)) / reps
        g, k, theta, q0, q1 = cell
        rows.append([("grid" if i < (4 if args.quick else 9) else "random"), g, k,
                     f"{theta:.2f}", f"{q0:.2f}", f"{q1:.2f}", reps, f"{indep:.3f}",
                     f"{dup:.3f}"])
    table = markdown_table(["cell", "items G", "rows/item k", "θ", "q0", "q1", "data sets",
                            "warned (independent rows)", "warned (calibration rows twice)"],
                           rows)
    data = markdown_table(["data set (20% split, item_id kept)", "seeds", "warned"],
                          bundled(5 if args.quick else 20))
    body = (f"{__doc__.split('Writes')[0]}\n## Independent rows and duplicated calibration rows"
            f"\n\n{table}\n\n## Bundled data sets by target model\n\n{data}\n\n"
            f"{run_time(time.time() - t0, args.quick)}\n")
    print(body)
    publish("repeat_agreement", "Repeated items: rows that agree beyond chance", body)


if __name__ == "__main__":
    main()
