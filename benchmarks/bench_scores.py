"""Numeric judge scores under design="random" (issue 39): coverage and width of js.scores.

``js.scores.correct_scores`` calibrates a judge score to the human label by 5-fold
cross-fitting (isotonic) and answers with the PPI++ mean and its Wald interval (cluster-robust
with ``cluster=``); below 100 labelled items it takes the fallback declared in advance (here
``threshold=0.5``: the letter through ``js.correct(design="random")``). The issue asks:

* coverage >= 0.93 in every cell, on cells drawn at random (score noise, 5–50% labelled,
  30–3,000 labels, clustered items);
* the width against (a) the random-design letter estimator (``js.correct(design="random")``,
  its default adjusted-Wald interval, on the letter s > 0.5) and (b) the human labels alone
  (the Wald interval of the labelled rows' mean, cluster-robust over items);
* the done-criterion: with >= 100 labels, a score that carries nothing beyond its letter gives
  an interval at most 2% wider than the letter alone (the ratio's distribution over cells).

Two kinds of score, half the cells each:

* ``informative``: s = logistic(a·(2y − 1) + ε), ε ~ N(0, σ²), a ~ U(0.5, 2.5), σ ~ U(0.3, 3):
  the score carries more than its letter s > 0.5;
* ``letter only``: the letter L is right with probability c ~ U(0.7, 0.95) (the same for both
  classes), s = L + ε, ε ~ N(0, σ²), σ ~ U(0.05, 1): given L the score is independent of y, so
  it carries nothing beyond the letter.

The grid (seed 3902, drawn before any result was looked at): 40 cells, θ ~ U(0.05, 0.7);
labels n ~ log-U(30, 3,000) items; labelled share ~ U(0.05, 0.5) (N = n / share items in
all); a third of the cells clustered (k ~ U{2, ..., 5} rows per item, y constant within an
item, the score's noise drawn per row; the labelled items' rows all labelled). The truth is
the generating θ. 200 data sets per cell (quick: 8 cells, 30 data sets). At 200 data sets a
coverage of 0.95 reads below 0.93 in about 10% of cells by chance (s.e. 0.015), so every cell
read below 0.93 is re-run on 1,000 fresh data sets (s.e. 0.007; seed [3902, 1000 + cell]), and
the claim is on the re-run.

Part 2, real data: NQ-301 with the BEM answer-equivalence probability as the judge's score
(``benchmarks/data/nq301_jury.csv``: 3,561 answers of 12 QA systems, every one with its final
human verdict; the letter is BEM's own ``judge_bem``). 100 random splits per labelled share
(seed 3903): a random 5%, 10%, 20% or 40% of the rows keep their human label; the truth is
the human rate over all rows. Pooled (one rate over the 3,561 rows) and per system
(``js.evaluate(..., by="target_model", design="random")`` at 40%: about 120 labels each).
The truth is a finite population's rate and the labelled rows are part of it, so the intervals
(made for the rate the rows are drawn from) over-cover as the labelled share grows: read the
widths there, not the coverage.

Writes benchmarks/results/scores.md.
Run: python benchmarks/bench_scores.py [--quick]
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from _common import markdown_table, publish, quick_parser
from _scores_data import draw_scores, letter_correction

import judgestats as js
from judgestats.kernels import z_value

SEED = 3902
Z = float(z_value(0.95))


def grid(quick: bool, seed: int = SEED) -> list[dict]:
    """The cells, drawn once from ``seed`` (SEED: the recorded grid)."""
    rng = np.random.default_rng(seed)
    cells = []
    for i in range(8 if quick else 40):
        informative = i % 2 == 0
        cells.append({
            "kind": "informative" if informative else "letter only",
            "theta": float(rng.uniform(0.05, 0.7)),
            "n_lab": int(np.exp(rng.uniform(np.log(30), np.log(3000)))),
            "share": float(rng.uniform(0.05, 0.5)),
            "k": int(rng.integers(2, 6)) if i % 3 == 2 else 1,
            "a": float(rng.uniform(0.5, 2.5)),
            "sigma": float(rng.uniform(0.3, 3.0) if informative else rng.uniform(0.05, 1.0)),
            "acc": float(rng.uniform(0.7, 0.95)),
        })  # fmt: skip
    return cells


def draw(cell: dict, rng: np.random.Generator) -> tuple:
    """One data set: scores, human labels (NaN unlabelled), item ids, letters (_scores_data)."""
    s, y, labelled, items = draw_scores(cell, rng)
    human = np.where(labelled, y.astype(float), np.nan)
    return s, human, items, labelled, (s > 0.5).astype(int)


def run_cell(cell: dict, reps: int, seed: int, base: int = SEED) -> dict:
    """Coverage and mean widths of the score, the letter and the humans alone in one cell."""
    rng = np.random.default_rng([base, seed])
    hit = {"score": 0, "letter": 0, "humans": 0}
    width = {"score": [], "letter": [], "humans": []}
    lam, worth, fallback = [], [], 0
    for r in range(reps):
        s, human, items, lab, letter = draw(cell, rng)
        cluster = items if cell["k"] > 1 else None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # measured, not shown: coverage is the statement
            res = js.scores.correct_scores(s, human, cluster=cluster, threshold=0.5, rng=r)
            let = letter_correction(letter, human[lab], lab, cluster)
        y = human[lab]
        if res.humans_only_variance is not None:
            h_half = Z * np.sqrt(res.humans_only_variance)
        else:  # fallback: the humans-only Wald interval computed here
            from judgestats.scores.prediction_powered import humans_only_variance

            h_half = Z * np.sqrt(humans_only_variance(y, None if cluster is None else items[lab]))
        theta = cell["theta"]
        for name, (lo, hi) in (("score", res.ci), ("letter", let.ci),
                               ("humans", (y.mean() - h_half, y.mean() + h_half))):  # fmt: skip
            hit[name] += lo <= theta <= hi
            width[name].append(min(hi, 1) - max(lo, 0))
        fallback += res.fallback is not None
        if res.lam is not None:
            lam.append(res.lam)
        if res.effective_labels is not None:
            worth.append(res.effective_labels / cell["n_lab"])
    out = {f"cover_{k}": v / reps for k, v in hit.items()}
    out |= {f"width_{k}": float(np.mean(v)) for k, v in width.items()}
    out |= {"lam": float(np.median(lam)) if lam else float("nan"),
            "worth": float(np.median(worth)) if worth else float("nan"),
            "fallback": fallback / reps}  # fmt: skip
    return out


def _row(cell: dict, res: dict) -> list:
    return [
        cell["kind"], f"{cell['theta']:.2f}", cell["n_lab"], f"{cell['share']:.2f}", cell["k"],
        f"{cell['sigma']:.2f}", f"{res['cover_score']:.3f}", f"{res['cover_letter']:.3f}",
        f"{res['cover_humans']:.3f}", f"{res['width_score'] / res['width_letter']:.3f}",
        f"{res['width_score'] / res['width_humans']:.3f}", f"{res['lam']:.2f}",
        f"{res['worth']:.2f}", f"{res['fallback']:.2f}",
    ]  # fmt: skip


def summary(cells: list, results: list, again: dict) -> str:
    """The claims, each over the cells it is about (``again``: cell → its re-run's coverage)."""
    lines = []
    cover = [again.get(i, r["cover_score"]) for i, r in enumerate(results)]
    first = [r["cover_score"] for r in results]
    lines.append(f"- coverage of the score's interval over all {len(cells)} cells: min "
                 f"{min(cover):.3f} (median {np.median(cover):.3f}), cells below 0.93 after the "
                 f"re-runs: {sum(c < 0.93 for c in cover)} (first run: min {min(first):.3f}, "
                 f"{sum(c < 0.93 for c in first)} below 0.93, re-run below)")  # fmt: skip
    for kind in ("informative", "letter only"):
        sel = [(c, r) for c, r in zip(cells, results, strict=True)
               if c["kind"] == kind and c["n_lab"] >= 100]  # fmt: skip
        if not sel:
            continue
        ratio = np.array([r["width_score"] / r["width_letter"] for _, r in sel])
        humans = np.array([r["width_score"] / r["width_humans"] for _, r in sel])
        lines.append(
            f"- {kind}, cells with >= 100 labels ({len(sel)}): width ÷ letter estimator's "
            f"median {np.median(ratio):.3f} (min {ratio.min():.3f}, max {ratio.max():.3f}; "
            f"cells above 1.015: {int(np.sum(ratio > 1.015))}, above 1.02: "
            f"{int(np.sum(ratio > 1.02))}); width ÷ humans alone median "
            f"{np.median(humans):.3f} (min {humans.min():.3f}, max {humans.max():.3f})"
        )
    return "\n".join(lines)


def real_data(quick: bool) -> str:
    """Part 2: NQ-301's BEM score, random splits, pooled and per system."""
    import pandas as pd

    from judgestats.scores.prediction_powered import humans_only_variance

    data = pd.read_csv(Path(__file__).parent / "data" / "nq301_jury.csv")
    s, y = data.bem_score.to_numpy(float), data.human.to_numpy(float)
    letter = data.judge_bem.to_numpy(int)
    truth = float(y.mean())
    rng = np.random.default_rng(3903)
    splits = 20 if quick else 100
    rows = []
    for share in (0.05, 0.10, 0.20, 0.40):
        hit, width = {"score": 0, "letter": 0, "humans": 0}, {"score": [], "letter": [],
                                                              "humans": []}  # fmt: skip
        for r in range(splits):
            lab = rng.random(y.size) < share
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = js.scores.correct_scores(s, np.where(lab, y, np.nan), threshold=0.5, rng=r)
                let = letter_correction(letter, y[lab], lab)
            half = Z * np.sqrt(humans_only_variance(y[lab]))
            for name, (lo, hi) in (("score", res.ci), ("letter", let.ci),
                                   ("humans", (y[lab].mean() - half, y[lab].mean() + half))):
                hit[name] += lo <= truth <= hi
                width[name].append(min(hi, 1) - max(lo, 0))
        rows.append([f"{share:.0%}", f"{int(share * y.size)}"]
                    + [f"{hit[k] / splits:.2f}" for k in hit]
                    + [f"{np.mean(width['score']) / np.mean(width[k]):.3f}"
                       for k in ("letter", "humans")])  # fmt: skip
    pooled = markdown_table(["labelled", "≈ labels", "cover score", "cover letter",
                             "cover humans", "width ÷ letter", "width ÷ humans"], rows)
    return pooled + "\n\n" + per_system(data, rng, splits)


def per_system(data: Any, rng: np.random.Generator, splits: int) -> str:
    """Per system at 40% labelled: coverage and the width ratios, by js.evaluate."""
    truth = data.groupby("target_model").human.mean()
    hit: dict = {}
    ratio: dict = {}
    for r in range(splits // 2):
        lab = rng.random(len(data)) < 0.4
        frame = data.assign(score=data.bem_score,
                            human=np.where(lab, data.human.astype(float), np.nan))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ev = js.evaluate(frame, judge="score", by="target_model", design="random",
                             calibrator="isotonic", threshold=0.5, rng=r)  # fmt: skip
            lev = js.evaluate(frame, judge="judge_bem", by="target_model", design="random")
        for g in ev.groups:
            res = ev[g]
            hit[g] = hit.get(g, 0) + (res.ci.low <= truth[g] <= res.ci.high)
            ratio.setdefault(g, []).append(res.ci.width / lev[g].ci.width)
    rows = [[g, f"{hit[g] / (splits // 2):.2f}", f"{np.mean(ratio[g]):.3f}"] for g in sorted(hit)]
    return (f"Per system, 40% labelled, {splits // 2} splits:\n\n"
            + markdown_table(["system", "cover score", "width ÷ letter (mean)"], rows))


def unlabelled_choice(cells: list, quick: bool) -> str:
    """Part 3: the unlabelled rows by the average of the K fits or by one fit on every label."""
    from judgestats.scores.calibration import cross_fit
    from judgestats.scores.prediction_powered import fit_ppi

    reps = 20 if quick else 200
    rows, pooled = [], {"average": [], "full": []}
    for i, cell in enumerate(cells):
        if cell["n_lab"] < 100 or cell["k"] > 1:
            continue
        rng = np.random.default_rng([SEED, 2000 + i])
        hit = {"average": 0, "full": 0}
        width: dict = {"average": [], "full": []}
        for _ in range(reps):
            s, human, _, lab, _ = draw(cell, rng)
            seed = int(rng.integers(2**31))
            for how in hit:
                fit = cross_fit(s[lab], human[lab], s[~lab], np.flatnonzero(lab),
                                calibrator="isotonic", folds=5, bins=None,
                                rng=np.random.default_rng(seed), unlabelled=how)  # fmt: skip
                ppi = fit_ppi(human[lab], fit.labelled, fit.unlabelled)
                half = Z * np.sqrt(ppi.variance)
                hit[how] += ppi.estimate - half <= cell["theta"] <= ppi.estimate + half
                width[how].append(2 * half)
        for how in hit:
            pooled[how].append(hit[how] / reps)
        rows.append([i, cell["kind"], cell["n_lab"], f"{hit['average'] / reps:.3f}",
                     f"{hit['full'] / reps:.3f}",
                     f"{np.mean(width['full']) / np.mean(width['average']):.4f}"])  # fmt: skip
    total = len(rows) * reps
    words = "; ".join(
        f"{how}: {np.mean(v):.3f} (s.e. {np.sqrt(np.mean(v) * (1 - np.mean(v)) / total):.4f})"
        for how, v in pooled.items()
    )
    return markdown_table(["cell", "score", "labels", "cover average", "cover full",
                           "width full ÷ average"], rows) + (
        f"\n\nPooled coverage over these {len(rows)} cells ({total:,} data sets), {words}."
    )  # fmt: skip


def run_grid(cells: list, reps: int, quick: bool, base: int) -> tuple[list, dict, str]:
    """Every cell, then the cells read below 0.93 re-run: (results, re-run coverage, table)."""
    results = []
    for i, cell in enumerate(cells):
        results.append(run_cell(cell, reps, i, base))
        print(i, _row(cell, results[-1]), flush=True)
    rechecks, covered = [], {}
    for i, (cell, res) in enumerate(zip(cells, results, strict=True)):
        if res["cover_score"] < 0.93:
            again = run_cell(cell, 100 if quick else 1000, 1000 + i, base)
            covered[i] = again["cover_score"]
            rechecks.append([i, f"{res['cover_score']:.3f}", f"{again['cover_score']:.3f}",
                             f"{again['cover_letter']:.3f}", f"{again['cover_humans']:.3f}"])
            print("recheck", rechecks[-1], flush=True)
    recheck = markdown_table(["cell", "cover score (first run)", "cover score (re-run)",
                              "cover letter (re-run)", "cover humans (re-run)"],
                             rechecks) if rechecks else "No cell read below 0.93."
    return results, covered, recheck


HEAD = ["score", "θ", "labels (items)", "labelled share", "rows/item", "σ", "cover score",
        "cover letter", "cover humans", "width ÷ letter", "width ÷ humans", "median λ̂",
        "effective labels ÷ labels", "fallback share"]  # fmt: skip


def fresh_seed(seed: int, quick: bool) -> None:
    """``--seed``: the grid alone, its cells drawn from another seed (parts 2–3 do not use it)."""
    start = time.perf_counter()
    reps = 30 if quick else 200
    cells = grid(quick, seed)
    results, covered, recheck = run_grid(cells, reps, quick, seed)
    table = markdown_table(HEAD, [_row(c, r) for c, r in zip(cells, results, strict=True)])
    body = f"""Run: `python benchmarks/bench_scores.py --seed {seed}{' --quick' if quick else ''}`.

The grid of `bench_scores.py` (benchmarks/results/scores.md, seed {SEED}) with its cells and
data sets drawn from seed {seed} instead: the same distributions, {len(cells)} other cells,
{reps} data sets each (re-runs of cells read below 0.93: 1,000 data sets, seed [{seed},
1000 + cell]). Parts 2 and 3 of scores.md do not depend on the grid's seed and are not re-run.

## Claims

{summary(cells, results, covered)}

## Cells read below 0.93, re-run on fresh data sets

{recheck}

## Every cell (seed {seed}; cells numbered from 0)

{table}
"""
    publish(f"scores_seed{seed}" + ("_quick" if quick else ""),
            f"Judge scores (issue 39): the grid at seed {seed}", body,
            time.perf_counter() - start)  # fmt: skip


def margin_cell(cell: dict, reps: int, seed: list) -> dict:
    """Mean widths, on the same data sets: the score path; PPI++ with the letter itself as the
    predictor (the calibrator "binned" at 0.5), with and without the rare-class variance; the
    letter estimator."""
    from judgestats.scores.calibration import cross_fit
    from judgestats.scores.prediction_powered import fit_ppi

    rng = np.random.default_rng(seed)
    width: dict[str, list] = {"score": [], "letter_ppi": [], "letter_ppi_plain": [], "letter": []}
    for r in range(reps):
        s, human, _, lab, letter = draw(cell, rng)
        y = human[lab]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # measured, not shown
            res = js.scores.correct_scores(s, human, threshold=0.5, rng=r)
            let = letter_correction(letter, y, lab)
        fit = cross_fit(s[lab], y, s[~lab], np.arange(y.size), calibrator="binned", folds=5,
                        bins=[-np.inf, 0.5, np.inf], rng=np.random.default_rng(r))  # fmt: skip
        for name, adjust in (("letter_ppi", True), ("letter_ppi_plain", False)):
            ppi = fit_ppi(y, fit.labelled, fit.unlabelled, rare_adjust=adjust)
            half = Z * np.sqrt(ppi.variance)
            width[name].append(min(ppi.estimate + half, 1) - max(ppi.estimate - half, 0))
        width["score"].append(min(res.ci.high, 1) - max(res.ci.low, 0))
        width["letter"].append(min(let.ci.high, 1) - max(let.ci.low, 0))
    return {k: float(np.mean(v)) for k, v in width.items()}


def margin(quick: bool) -> None:
    """``--margin``: where a letter-only score's width above the letter estimator's comes from."""
    start = time.perf_counter()
    reps = 20 if quick else 300
    rows, parts = [], []
    for seed in (SEED, 3921):
        cells = [(i, c) for i, c in enumerate(grid(False, seed))
                 if c["kind"] == "letter only" and c["n_lab"] >= 100 and c["k"] == 1]  # fmt: skip
        for i, cell in cells[:2] if quick else cells:
            w = margin_cell(cell, reps, [seed, 3000 + i])
            ratio = {k: w[k] / w["letter"] for k in w}
            parts.append((ratio["score"] - ratio["letter_ppi"], ratio["letter_ppi"] - 1))
            rows.append([seed, i, f"{cell['theta']:.2f}", cell["n_lab"], f"{cell['sigma']:.2f}",
                         f"{ratio['score']:.3f}", f"{ratio['letter_ppi']:.3f}",
                         f"{ratio['letter_ppi_plain']:.3f}"])  # fmt: skip
            print(rows[-1], flush=True)
    score = np.array([float(r[5]) for r in rows])
    table = markdown_table(["seed", "cell", "θ", "labels", "σ", "score ÷ letter",
                            "letter as predictor ÷ letter",
                            "letter as predictor, no rare-class variance ÷ letter"], rows)
    body = f"""Run: `python benchmarks/bench_scores.py --margin{' --quick' if quick else ''}`.

The ≤ 2% rule of issue 39 on the letter-only cells with ≥ 100 labels (one row per item) of
both grids
([seed {SEED}](scores.md) and [seed 3921](scores_seed3921.md)), {reps} fresh data sets per
cell (seed [grid seed, 3000 + cell]): the mean width of the score path (isotonic, 5 folds,
PPI++), of PPI++ with the letter itself as its predictor (``calibrator="binned"``, bins
[−∞, 0.5, ∞]: the same estimator with nothing within a letter to fit), with and without the
rare-class variance, each over the letter estimator's (``js.correct(design="random")``).
"score − letter as predictor" is what the isotonic fit of within-letter noise costs;
"letter as predictor − 1" what PPI++'s Wald interval (and its rare-class variance below 20
labels of a class) costs against the letter estimator's adjusted Wald.

- {len(rows)} cells: score ÷ letter median {np.median(score):.3f}, max {score.max():.3f}
  (above 1.015: {int(np.sum(score > 1.015))}, above 1.02: {int(np.sum(score > 1.02))})
- the isotonic fit of noise: median {np.median([p[0] for p in parts]):+.3f}, max
  {max(p[0] for p in parts):+.3f}; PPI++ against the letter estimator with the letter as
  predictor: median {np.median([p[1] for p in parts]):+.3f}, max {max(p[1] for p in parts):+.3f}

{table}
"""
    publish("scores_margin" + ("_quick" if quick else ""),
            "Judge scores: the ≤ 2% rule's margin (issue 39)", body,
            time.perf_counter() - start)  # fmt: skip


def main() -> None:
    ap = quick_parser(__doc__.splitlines()[0], "8 cells, 30 data sets")
    ap.add_argument("--seed", type=int, default=SEED,
                    help=f"draw the grid's cells from another seed (grid only; default {SEED})")
    ap.add_argument("--margin", action="store_true",
                    help="the <= 2%% rule's margin on the letter-only cells (scores_margin.md)")
    args = ap.parse_args()
    if args.margin:
        margin(args.quick)
        return
    if args.seed != SEED:
        fresh_seed(args.seed, args.quick)
        return
    start = time.perf_counter()
    reps = 30 if args.quick else 200
    cells = grid(args.quick)
    results, covered, recheck = run_grid(cells, reps, args.quick, SEED)
    real = real_data(args.quick)
    choice = unlabelled_choice(cells, args.quick)
    table = markdown_table(HEAD, [_row(c, r) for c, r in zip(cells, results, strict=True)])
    body = f"""Run: `python benchmarks/bench_scores.py{' --quick' if args.quick else ''}`.

{__doc__.split(chr(10) + chr(10), 1)[1].rsplit("Writes", 1)[0].strip()}

{reps} data sets per cell (Monte Carlo s.e. of a coverage near 0.95: {np.sqrt(.95*.05/reps):.4f}).
Widths are mean widths over the cell's data sets; "width ÷ letter" is the score's over the
letter estimator's, "width ÷ humans" over the humans-only Wald interval's; "effective labels ÷
labels" the median of the score's `effective_labels` over the labelled items; "fallback share"
the data sets answered by the fallback (fewer than 100 labelled items: the letter at
threshold 0.5, the letter estimator itself).

## Claims

{summary(cells, results, covered)}

## Cells read below 0.93, re-run on fresh data sets

{recheck}

## Real data: NQ-301 with BEM's probability (seed 3903)

{real}

## The unlabelled rows: the K fits' average or one fit on every label

Part 3: the cells of independent rows with >= 100 labels, 200 fresh data sets each (seed
[3902, 2000 + cell]; the same folds for both), isotonic calibration, the PPI++ interval with
the unlabelled rows predicted by the average of the 5 out-of-fold calibrators (the default)
or by one calibrator fitted on every label.

{choice}

## Every cell (seed {SEED}; cells numbered from 0)

{table}
"""
    publish("scores" if not args.quick else "scores_quick", "Judge scores (issue 39)", body,
            time.perf_counter() - start)  # fmt: skip


if __name__ == "__main__":
    main()
