"""The judge-bias test (issue 39): its size, its power, and what it finds on real judges.

``js.bias.judge_bias`` estimates Δ = Σ_h w_h [P(J=1 | H=h, X=1) − P(J=1 | H=h, X=0)], the
judge's extra positive rate at X = 1 (the long answer, the one shown first) at the same human
label, with an Agresti–Caffo interval and z-test (cluster-robust with ``cluster=``). Claimed:
the 5% test's size is at most 0.05 plus Monte Carlo error where there is no bias, and its power
grows with the bias and the labels.

Part A, simulation (seed 3912, cells drawn before any result was looked at): 40 cells; labelled
rows n ~ log-U(100, 2,000); prevalence ~ U(0.1, 0.7); sensitivity and specificity ~ U(0.6,
0.97); the covariate's share of X = 1 ~ U(0.2, 0.8); a third of the cells pairs judged in both
orders (two rows per item, X = 1 in one; the judge's verdicts within a pair share a random item
effect: with probability ρ ~ U(0.3, 0.8) the second row copies the first's error). The bias δ
moves the judge's positive rate at X = 1 by +δ in both human classes (δ = 0, 0.03, 0.06,
0.10; capped inside (0, 1)), so the true Δ = δ. 400 data sets per cell and δ (quick: 5 cells,
δ 0 and 0.1, 60). Size: the rejection rate at δ = 0 (Monte Carlo s.e. 0.011 at 400); power:
the rejection rate at δ > 0; coverage: the share of intervals holding the true Δ.

Part B, real data (``benchmarks/data``): LLMBar (419 pairs with a curated gold label, five LLM
judges each asked in both orders): position, J = "picks output 1", X = "output 1 shown first",
both orders as two rows of one item (``cluster=``); length, X = "output 1 has more words", over
both orders. PandaLM (999 pairs, three annotators; the humans' verdict their majority, ties and
split votes left out; gpt-3.5 and PandaLM-7B shown each pair in one order): length, J = "picks
response 1" among the judge's non-tie verdicts, X = "response 1 has more words", clustered by
prompt; position by ``js.bias.position_bias`` (the judge's accuracy when the first response is
better minus when the second is), clustered by prompt.

Writes benchmarks/results/judge_bias.md (quick: judge_bias_quick.md).
Run: python benchmarks/bench_judge_bias.py [--quick]
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from _common import markdown_table, publish, quick_parser

import judgestats as js

SEED = 3912
DATA = Path(__file__).parent / "data"


def grid(quick: bool) -> list[dict]:
    """The cells, drawn once from SEED."""
    rng = np.random.default_rng(SEED)
    return [{
        "n": int(np.exp(rng.uniform(np.log(100), np.log(2000)))),
        "prev": float(rng.uniform(0.1, 0.7)), "sens": float(rng.uniform(0.6, 0.97)),
        "spec": float(rng.uniform(0.6, 0.97)), "share": float(rng.uniform(0.2, 0.8)),
        "paired": i % 3 == 2, "rho": float(rng.uniform(0.3, 0.8)),
    } for i in range(5 if quick else 40)]  # fmt: skip


def draw(cell: dict, delta: float, rng: np.random.Generator) -> tuple:
    """One data set: judge, human, covariate, items (None without pairs)."""
    if cell["paired"]:
        items = cell["n"] // 2
        h = np.repeat(rng.random(items) < cell["prev"], 2)
        x = np.tile([1.0, 0.0], items)
        if rng.random() < 0.5:
            x = 1 - x
        ids = np.repeat(np.arange(items), 2)
    else:
        h = rng.random(cell["n"]) < cell["prev"]
        x = (rng.random(cell["n"]) < cell["share"]).astype(float)
        ids = None
    p1 = np.where(h, cell["sens"], 1 - cell["spec"]) + delta * x
    p1 = np.clip(p1, 0.005, 0.995)
    u = rng.random(h.size)
    if ids is not None:  # the pair's second row copies the first's uniform with probability ρ
        copy = np.repeat(rng.random(h.size // 2) < cell["rho"], 2) & (np.arange(h.size) % 2 == 1)
        u = np.where(copy, np.repeat(u[::2], 2), u)
    return (u < p1).astype(float), h.astype(float), x, ids


def run_cell(cell: dict, delta: float, reps: int, seed: int) -> tuple[float, float]:
    """(rejection rate at 5%, coverage of the true Δ = δ)."""
    rng = np.random.default_rng([SEED, seed])
    rejects = covers = 0
    for _ in range(reps):
        j, h, x, ids = draw(cell, delta, rng)
        t = js.bias.judge_bias(judge=j, human=h, covariates={"x": x}, cluster=ids)["x"]
        rejects += t.pvalue < 0.05
        truth = float(np.sum([np.mean(h == c) * (np.clip(
            (cell["sens"] if c else 1 - cell["spec"]) + delta, 0.005, 0.995)
            - np.clip(cell["sens"] if c else 1 - cell["spec"], 0.005, 0.995)) for c in (0, 1)]))
        covers += t.ci.low <= truth <= t.ci.high
    return rejects / reps, covers / reps


def simulation(quick: bool) -> tuple[str, str, str]:
    cells = grid(quick)
    deltas = (0.0, 0.1) if quick else (0.0, 0.03, 0.06, 0.10)
    reps = 60 if quick else 400
    rows, size, power = [], [], {d: [] for d in deltas if d > 0}
    for i, cell in enumerate(cells):
        out = [run_cell(cell, d, reps, 100 * i + k) for k, d in enumerate(deltas)]
        size.append(out[0][0])
        for d, (rej, _) in zip(deltas, out, strict=True):
            if d > 0:
                power[d].append((cell["n"], rej))
        rows.append([i, cell["n"], f"{cell['prev']:.2f}", f"{cell['sens']:.2f}",
                     f"{cell['spec']:.2f}", "pairs" if cell["paired"] else f"{cell['share']:.2f}",
                     *[f"{rej:.3f}" for rej, _ in out], *[f"{cov:.3f}" for _, cov in out]])
        print(rows[-1], flush=True)
    se = np.sqrt(0.05 * 0.95 / reps)
    size = np.array(size)
    claims = (f"- size at δ = 0 over {len(cells)} cells: mean {size.mean():.3f} (pooled s.e. "
              f"{np.sqrt(0.05 * 0.95 / (reps * len(cells))):.4f}), max {size.max():.3f}; cells "
              f"above 0.05 + 2 s.e. ({0.05 + 2 * se:.3f}): {int(np.sum(size > 0.05 + 2 * se))} "
              f"(about {0.023 * len(cells):.1f} expected by chance)")  # fmt: skip
    bands = [(100, 300), (300, 800), (800, 2001)]
    ptable = markdown_table(["δ", *[f"n {a}–{b - 1}" for a, b in bands]], [
        [f"{d:.2f}", *[f"{np.mean([r for n, r in v if a <= n < b]):.2f}"
                       if any(a <= n < b for n, _ in v) else "–" for a, b in bands]]
        for d, v in power.items()])  # fmt: skip
    header = ["cell", "n", "prevalence", "sens", "spec", "X share",
              *[f"reject δ={d:g}" for d in deltas], *[f"cover δ={d:g}" for d in deltas]]
    return claims, ptable, markdown_table(header, rows)


def _llmbar(rows_out: list) -> None:
    import pandas as pd

    df = pd.read_csv(DATA / "llmbar_jury.csv.xz")
    item = df.subset + ":" + df.item_id.astype(str)
    for name in ("gpt4", "chatgpt", "llama2", "palm2", "falcon"):
        long = pd.DataFrame({
            "pick1": np.r_[df[f"judge_{name}_first"] == 1, df[f"judge_{name}_second"] == 1],
            "gold1": np.r_[df.label == 1, df.label == 1],
            "first": np.r_[np.ones(len(df)), np.zeros(len(df))],
            "longer1": np.r_[df.output1_words > df.output2_words,
                             df.output1_words > df.output2_words],
            "item": np.r_[item, item],
            "given": np.r_[df[f"judge_{name}_first"].notna(), df[f"judge_{name}_second"].notna()],
        })  # fmt: skip
        long = long[long.given]
        res = js.bias.judge_bias(long, judge="pick1", human="gold1",
                                 covariates=["first", "longer1"], cluster="item")
        for t in res.tests:
            what = "position (output 1 shown first)" if t.covariate == "first" \
                else "length (output 1 longer)"
            rows_out.append(["LLMBar", name, what, *_cells(t)])


def _pandalm(rows_out: list) -> None:
    import pandas as pd

    df = pd.read_csv(DATA / "pandalm_raters.csv.xz")
    votes = df[["human_annotator1", "human_annotator2", "human_annotator3"]].to_numpy()
    majority = np.array([np.bincount(v.astype(int), minlength=3).argmax()
                         if np.bincount(v.astype(int), minlength=3).max() >= 2 else -1
                         for v in votes])  # fmt: skip
    for name in ("gpt35", "pandalm7b"):
        j = df[f"judge_{name}"].to_numpy()
        keep = np.isin(majority, (1, 2)) & np.isin(j, (1, 2))
        res = js.bias.judge_bias(
            judge=(j[keep] == 1), human=(majority[keep] == 1),
            covariates={"longer1": (df.response1_words > df.response2_words).to_numpy()[keep]},
            cluster=df.prompt_id.to_numpy()[keep])  # fmt: skip
        rows_out.append(["PandaLM", name, "length (response 1 longer)", *_cells(res.tests[0])])
        human = np.where(np.isin(majority, (1, 2)), majority, 0)
        jj = np.where(np.isnan(j.astype(float)), 0, j)
        t = js.bias.position_bias(jj.astype(int), human, cluster=df.prompt_id.to_numpy())
        rows_out.append(["PandaLM", name, "position (one order: accuracy first − second)",
                         *_cells(t)])


def _cells(t) -> list:
    return [f"{t.effect:+.3f}", f"[{t.ci.low:+.3f}, {t.ci.high:+.3f}]", f"{t.pvalue:.2g}", t.n,
            "–" if t.items is None else t.items]


def main() -> None:
    args = quick_parser(__doc__.splitlines()[0], "5 cells, δ 0 and 0.1, 60 data sets").parse_args()
    start = time.perf_counter()
    claims, ptable, table = simulation(args.quick)
    real: list = []
    _llmbar(real)
    _pandalm(real)
    rtable = markdown_table(["data", "judge", "covariate", "Δ̂", "95% interval", "p", "rows",
                             "items"], real)  # fmt: skip
    body = f"""Run: `python benchmarks/bench_judge_bias.py{' --quick' if args.quick else ''}`.

{__doc__.split(chr(10) + chr(10), 1)[1].rsplit('Writes', 1)[0].strip()}

## Claims

{claims}

Power (the rejection rate at 5%, mean over the cells in each band of labelled rows):

{ptable}

## Real judges

Δ̂ > 0: at the same gold or human verdict, the judge picks output/response 1 more often when it
is shown first (position) or is the longer one (length); for the one-order position test, the
judge is more often right when the first response is the better one.

{rtable}

## Every cell (seed {SEED}; cells numbered from 0)

{table}
"""
    publish("judge_bias" if not args.quick else "judge_bias_quick",
            "Judge bias: length and position (issue 39)", body,
            elapsed=time.perf_counter() - start)  # fmt: skip


if __name__ == "__main__":
    main()
