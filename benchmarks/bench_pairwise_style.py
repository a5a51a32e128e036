"""Pairwise leaderboards with a jury and style control (issue 39): coverage and width.

Simulation. Each cell draws K model strengths (evenly spaced on [−s, s], sum zero) and, per
model, a style level (its answers' mean length, standardised; correlation ρ with the strength:
strong models write longer answers); n pairs of two distinct models at random (the first
named shown first); m controls: the length difference (the two models' style levels' difference
plus N(0, 1) noise) and, with m = 2, a markdown difference (N(0, 1), independent of the models).
Human verdicts follow Davidson's model with tie parameter ν and the strength difference shifted
by δᵀx (δ = (δ_1, δ_2)). A jury of J judges: each copies the human verdict with probability
``acc``, and otherwise picks the longer answer with probability 0.7 (a judge that likes
length: its errors depend on the controls) or says a letter at random. Human verdicts are kept
on a random share r of the pairs (design "random"). Per data set the leaderboard's row path is
fitted twice: ``js.pairwise(..., prediction=[the J judges], control=[...])`` (the cross-fitted
stacking and the prediction-powered fit with controls, :mod:`judgestats.pairwise.row_powered`)
and the same equation at λ = 0 (the human votes alone with controls: Chatbot Arena's style
control, without the judge). Per cell: coverage of the 95% intervals of the net-of-style
strengths (pooled over models, and the worst model), of each control coefficient, the mean
width of the strengths' intervals against the human-only style-controlled fit's, λ, the mean
error of δ̂_1, and the pooled coverage of the net strengths by the fit *without* control
(the row path with the jury, no ``control=``: what a style confound does to an uncontrolled
leaderboard). 8 cells on a grid and 8 drawn at random (seed 3931: K on 4–15, n on 1.5k–15k, r
on 5–30% with n r ≥ 25 K, J on 1–3, acc, ν, s, ρ, m, δ at random); 200 data sets per cell
(each cell its own stream spawned from seed 3931; --quick: 3 cells, 6 data sets).

Real data. The bundled Chatbot Arena pairs (26,919 comparisons of 20 models, two judges:
GPT-4-0125-preview and GPT-3.5-turbo-0125; no length or style columns, so no control). The
truth is Davidson's fit to *all* human votes. 100 random splits (seed 3930; --quick: 2) keep
the human vote on a random 10% of the pairs; each is fitted with the prediction from GPT-4's
letter alone (the default, on counts), from GPT-3.5's, and from both (a jury, cross-fitted
stacking). Per prediction: coverage of the truth by the 95% strength intervals per model (min
and median over the 20), the mean width against the human-only fit on the same split, λ.

Writes benchmarks/results/pairwise_style.md.
Run: python benchmarks/bench_pairwise_style.py [--quick]  (two worker processes)
"""

from __future__ import annotations

import multiprocessing
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # two worker processes on two cores

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time

from judgestats.datasets import load_arena_pairs
from judgestats.pairwise.counting import verdict_code
from judgestats.pairwise.prediction_powered import fit_prediction_powered
from judgestats.pairwise.predictor import cross_fitted_prediction
from judgestats.pairwise.row_powered import fit_row_powered
from judgestats.pairwise.rows import PairRows

REPS = 200
Z = 1.959963984540054
SEED_REAL, SEED_SIM = 3930, 3931


def _rows(models, first, second, human, members, controls, labelled) -> PairRows:
    h = np.where(labelled, human, -1)
    return PairRows(models, first, second, members[:, 0], h, None, members,
                    (), np.zeros((first.size, 0)), controls, 3)  # fmt: skip


def _fit(rows, rng, *, lam=None, controls=True):
    # at λ = 0 the prediction plays no part (the human votes alone): none is fitted
    f = (
        np.zeros((rows.first.size, 3))
        if lam == 0.0
        else cross_fitted_prediction(rows, False, rng)[0]
    )
    inverse_pi = np.full(rows.first.size, rows.first.size / rows.labelled.sum())
    x = rows.controls if controls else None
    names = tuple(f"c{i}" for i in range(rows.controls.shape[1])) if controls else ()
    return fit_row_powered(rows.first, rows.second, rows.human, f, inverse_pi,
                           models=rows.models, controls=x, control_names=names,
                           lam=lam)  # fmt: skip


# ----------------------------------------------------------------------------------- simulation
def simulate(rng, cell):
    k, n = cell["K"], cell["n"]
    beta = np.linspace(-cell["s"], cell["s"], k)
    beta -= beta.mean()
    own = rng.normal(size=k)
    style = cell["rho"] * beta / beta.std() + np.sqrt(1 - cell["rho"] ** 2) * own
    first = rng.integers(0, k, n)
    second = (first + rng.integers(1, k, n)) % k
    x = [style[first] - style[second] + rng.normal(size=n)]
    if cell["m"] == 2:
        x.append(rng.normal(size=n))
    controls = np.column_stack(x)
    d = beta[first] - beta[second] + controls @ np.asarray(cell["delta"][: cell["m"]])
    w = np.stack([np.exp(d / 2), np.full(n, cell["nu"]), np.exp(-d / 2)], axis=1)
    human = (rng.random(n)[:, None] > np.cumsum(w / w.sum(axis=1, keepdims=True), 1)).sum(1)
    longer = np.where(controls[:, 0] > 0, 0, 2)
    members = []
    for _ in range(cell["J"]):
        other = np.where(rng.random(n) < 0.7, longer, rng.integers(0, 3, n))
        members.append(np.where(rng.random(n) < cell["acc"], human, other))
    labelled = rng.random(n) < cell["r"]
    models = tuple(f"m{i}" for i in range(k))
    rows = _rows(models, first, second, human, np.column_stack(members), controls, labelled)
    return rows, beta


def _run_cell(cell, reps, rng):
    m = cell["m"]
    hit_b, hit_d, hit_free, ratio, lam, err = [], [], [], [], [], []
    for _ in range(reps):
        rows, beta = simulate(rng, cell)
        try:
            fit = _fit(rows, rng)
            own = _fit(rows, rng, lam=0.0)
            free = _fit(rows, rng, controls=False)
        except ValueError:  # a model that never wins on a small data set: skipped, counted
            continue
        se = np.sqrt(np.diag(fit.strength_covariance())[: cell["K"]])
        hit_b.append(np.abs(fit.strength - beta) <= Z * se)
        se_d = np.sqrt(np.diag(fit.control_covariance))
        hit_d.append(np.abs(fit.control_coefficient - np.asarray(cell["delta"][:m])) <= Z * se_d)
        se_own = np.sqrt(np.diag(own.strength_covariance())[: cell["K"]])
        ratio.append(se.mean() / se_own.mean())
        se_free = np.sqrt(np.diag(free.strength_covariance())[: cell["K"]])
        hit_free.append(np.abs(free.strength - beta) <= Z * se_free)
        lam.append(fit.lam)
        err.append(fit.control_coefficient[0] - cell["delta"][0])
    hit_b, hit_d = np.array(hit_b), np.array(hit_d)
    return {
        "sets": len(hit_b), "pooled": hit_b.mean(), "worst": hit_b.mean(axis=0).min(),
        "delta": hit_d.mean(axis=0), "ratio": np.mean(ratio), "lam": np.mean(lam),
        "bias": np.mean(err), "free": np.mean(hit_free),
    }  # fmt: skip


def _grid_cells(quick: bool) -> list[dict]:
    cells = []
    for k, n, r in ((5, 2000, 0.2), (10, 10000, 0.1)):
        for j, acc in ((1, 0.6), (3, 0.5)):
            for m, delta in ((1, (0.4, 0.0)), (2, (0.4, -0.3))):
                cells.append({"source": "grid", "K": k, "n": n, "r": r, "J": j, "acc": acc,
                              "nu": 0.6, "s": 1.0, "rho": 0.6, "m": m,
                              "delta": delta})  # fmt: skip
    return [cells[0], cells[3], cells[6]] if quick else cells


def _random_cells(rng, count: int) -> list[dict]:
    cells = []
    while len(cells) < count:
        k, n, r = int(rng.integers(4, 16)), int(rng.integers(1500, 15001)), rng.uniform(0.05, 0.3)
        if n * r < 25 * k:
            continue
        m = int(rng.integers(1, 3))
        cells.append({"source": "random", "K": k, "n": n, "r": round(r, 3),
                      "J": int(rng.integers(1, 4)), "acc": round(rng.uniform(0.3, 0.8), 2),
                      "nu": round(rng.uniform(0.3, 1.2), 2), "s": round(rng.uniform(0.5, 1.5), 2),
                      "rho": round(rng.uniform(0.0, 0.8), 2), "m": m,
                      "delta": tuple(np.round(rng.uniform(-0.8, 0.8, 2), 2))})  # fmt: skip
    return cells


def _cell_job(job: tuple) -> dict:
    cell, reps, seed = job
    return _run_cell(cell, reps, np.random.default_rng(seed))


def simulation(quick: bool, pool) -> list:
    reps = 6 if quick else REPS
    cells = _grid_cells(quick) + (
        [] if quick else _random_cells(np.random.default_rng(SEED_SIM), 8)
    )
    seeds = np.random.SeedSequence(SEED_SIM).spawn(len(cells))
    results = pool.map(_cell_job, [(c, reps, s) for c, s in zip(cells, seeds, strict=True)])
    return list(zip(cells, results, strict=True))


# ------------------------------------------------------------------------------------ real data
def _arena():
    frame = load_arena_pairs()
    models = tuple(sorted(set(frame["model_a"]) | set(frame["model_b"])))
    index = {m: i for i, m in enumerate(models)}
    first = frame["model_a"].map(index).to_numpy()
    second = frame["model_b"].map(index).to_numpy()
    codes = {c: np.array([verdict_code(v) for v in frame[c]]) for c in
             ("human", "judge_gpt-4", "judge_gpt-3.5")}  # fmt: skip
    return models, first, second, codes


def _interval_width(fit) -> tuple[np.ndarray, np.ndarray]:
    se = np.sqrt(np.diag(fit.strength_covariance())[: fit.strength.size])
    return np.column_stack([fit.strength - Z * se, fit.strength + Z * se]), 2 * Z * se


def real_data(splits: int) -> list:
    from judgestats.pairwise.counting import PairCounts  # counts of the letter fits

    rng = np.random.default_rng(SEED_REAL)
    models, first, second, codes = _arena()
    human = codes["human"]
    none = np.zeros((first.size, 0))
    every = _rows(models, first, second, human, human[:, None], none, np.ones(first.size, bool))
    truth = _fit(every, rng, lam=0.0, controls=False).strength
    k = len(models)
    predictions = {"GPT-4 letter": ["judge_gpt-4"], "GPT-3.5 letter": ["judge_gpt-3.5"],
                   "jury GPT-4 + GPT-3.5 (stacked)": ["judge_gpt-4", "judge_gpt-3.5"]}  # fmt: skip
    out: dict = {name: {"hit": [], "ratio": [], "lam": []} for name in predictions}
    for _ in range(splits):
        keep = rng.random(first.size) < 0.10
        members = {c: codes[c] for c in ("judge_gpt-4", "judge_gpt-3.5")}
        for name, cols in predictions.items():
            rows = _rows(models, first, second, human,
                         np.column_stack([members[c] for c in cols]), none, keep)  # fmt: skip
            if len(cols) == 1:  # the default: on counts, the letter's calibration distribution
                fit = fit_prediction_powered(_counts(PairCounts, models, rows, k))
            else:
                fit = _fit(rows, rng, controls=False)
            own = _fit(rows, rng, lam=0.0, controls=False)
            ci, width = _interval_width(fit)
            out[name]["hit"].append((ci[:, 0] <= truth) & (truth <= ci[:, 1]))
            out[name]["ratio"].append(width.mean() / _interval_width(own)[1].mean())
            out[name]["lam"].append(fit.lam)
    table = []
    for name, r in out.items():
        cover = np.mean(r["hit"], axis=0)
        table.append([name, splits, f"{cover.min():.3f}", f"{np.median(cover):.3f}",
                      f"{np.mean(r['ratio']):.3f}", f"{np.mean(r['lam']):.3f}"])  # fmt: skip
    return table


def _counts(cls, models, rows, k):
    """The rows' counts per ordered pair (judge letter = the one member; human where labelled)."""
    key = rows.first * k + rows.second
    uniq, pair = np.unique(key, return_inverse=True)
    p, lab = uniq.size, rows.labelled
    judged = np.bincount(pair[~lab] * 3 + rows.judge[~lab], minlength=p * 3).reshape(p, 3)
    cell = (pair[lab] * 3 + rows.judge[lab]) * 3 + rows.human[lab]
    labelled = np.bincount(cell, minlength=p * 9).reshape(p, 3, 3)
    return cls(models, uniq // k, uniq % k, judged, labelled, ("a", "tie", "b"))


# ------------------------------------------------------------------------------------------ main
def main() -> None:
    args = quick_parser(__doc__.splitlines()[0], "3 cells x 6 data sets, 2 splits").parse_args()
    start = time.time()
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        real_job = pool.apply_async(real_data, (2 if args.quick else 100,))
        summary = simulation(args.quick, pool)
        real = real_job.get()
    body = _text(real, summary, args.quick)
    print(body)
    publish("pairwise_style" + ("_quick" if args.quick else ""),
            "Pairwise leaderboards with a jury and style control", body,
            time.time() - start)  # fmt: skip
    print(run_time(time.time() - start, args.quick))


def _text(real, summary, quick) -> str:
    body = __doc__.split("Writes")[0].split("\n", 2)[2] + "\n## Simulation\n\n"
    pooled = min(res["pooled"] for _, res in summary)
    worst = min(res["worst"] for _, res in summary)
    delta = min(float(res["delta"].min()) for _, res in summary)
    body += (
        f"{len(summary)} cells ({sum(c['source'] == 'random' for c, _ in summary)} drawn at "
        f"random): pooled coverage of the net strengths >= {pooled:.3f} in every cell, worst "
        f"model >= {worst:.3f}; every control coefficient's coverage >= {delta:.3f}.\n\n"
    )
    rows = []
    for c, res in summary:
        rows.append([c["source"], c["K"], f"{c['n']:,}", c["r"], c["J"], c["acc"], c["nu"],
                     c["s"], c["rho"], c["m"], ", ".join(f"{d:g}" for d in c["delta"][: c["m"]]),
                     res["sets"], f"{res['pooled']:.3f}", f"{res['worst']:.3f}",
                     " / ".join(f"{v:.3f}" for v in res["delta"]), f"{res['ratio']:.3f}",
                     f"{res['lam']:.2f}", f"{res['bias']:+.3f}", f"{res['free']:.3f}"])  # fmt: skip
    body += markdown_table(
        ["cells", "K", "n", "r", "J", "acc", "ν", "s", "ρ", "m", "δ", "data sets",
         "strength coverage", "worst model", "δ coverage", "width / human-only (controlled)",
         "λ", "mean error δ̂_1", "coverage without control"], rows)  # fmt: skip
    body += "\n\n## Real data: Chatbot Arena (no style columns: the jury only)\n\n"
    body += markdown_table(
        ["prediction", "splits", "coverage min", "coverage median", "width / human-only", "λ"],
        real,
    )
    if quick:
        body += "\n\n(--quick: few data sets and splits; the figures are noisy.)"
    return body + "\n"


if __name__ == "__main__":
    main()
