"""Pairwise leaderboards (issue 29): the prediction-powered fit on real and simulated pairs.

Real data. The bundled Chatbot Arena pairs (26,919 comparisons of 20 models, both judges:
GPT-4-0125-preview and GPT-3.5-turbo-0125). The truth is Davidson's fit to *all* human votes.
200 random splits (seed 2920; --quick: 12) keep the human vote on a random 10% of the pairs;
each split is fitted, on its counts, by ``js.pairwise``'s default estimator (prediction-powered,
``method="ppi"``), by the joint confusion model (``method="joint-mle"``; on the first 30
splits only, for its cost) and by the two plain Davidson fits ``js.pairwise`` reports beside
them: the naive one (judge verdicts on every pair taken as human) and the human-only one (the
10% calibration pairs; the PPI fit at λ = 0 is exactly it, with its sandwich). Per method:
the coverage of the truth by the 95% strength intervals per model (min and median over the
20 models), the mean interval width and its ratio to the human-only width on the same
split, Kendall's τ with the truth and the mean absolute strength error. The joint fit's
conditional-independence test (``independence_test``, the ``JudgeDependenceWarning`` rule) is
counted on every split.

Simulation. Each cell draws K model strengths (evenly spaced on [−s, s]), n pairs of two
distinct models at random (the first named shown first), human verdicts from Davidson's model
with tie parameter ν, and the judge's verdicts: with probability 1 − ω through a confusion
matrix with position bias ``pb`` (extra "first wins" calls) and tie habit ``th`` (its ties
scaled), and with probability ω from Davidson's model with the judge's own per-model biases
(N(0, τ²) added to the strengths) whatever the human said -- ω > 0 breaks conditional
independence. Calibration pairs: at random with rate r (design "random"), or within judge
letters (design "by-judge-label": the judge's ties labelled at 2.5 r, its a/b verdicts at 0.75
r). 16 cells on a grid and 16 drawn at random (seed 2921: K on 5–30, n on 2k–50k, r on 5–20%
with n r ≥ 12 K, ν, s, pb, th, ω, τ and the design at random); 500 data sets per cell (each cell
its own stream spawned from seed 2921; --quick: 4 cells, 25 data sets). Per cell: coverage of
the 95% PPI strength intervals (pooled over models and the worst model), of the win-probability
intervals (pooled over pairs), the rate at which the Bonferroni rank sets hold every true rank
at once (stated guarantee 0.95), the mean standard error against the human-only fit's on the
same data (under "by-judge-label" the human-only fit is the unweighted one of the over-sampled
calibration pairs, shown for scale only), λ, and (cells with ω = 0) the rate at which the joint
model's conditional-independence test (``independence_test``, p < 0.01) fires although it holds.
The joint confusion MLE is not run on the grid (its cost); the real data show it.

Speed. 50 models x 200k pairs (10% labelled): ``fit_prediction_powered`` on the counts
against a plain Davidson (Bradley–Terry with ties) Newton fit of the same counts, best of 5.

Writes benchmarks/results/pairwise.md.
Run: python benchmarks/bench_pairwise.py [--quick]  (two worker processes)
"""

from __future__ import annotations

import multiprocessing
import time

import numpy as np
from _common import best_of, markdown_table, publish, quick_parser, run_time
from scipy.stats import kendalltau

from judgestats.datasets import load_arena_pairs
from judgestats.pairwise import DEPENDENCE_LEVEL
from judgestats.pairwise.counting import PairCounts, check_pairs, verdict_code
from judgestats.pairwise.independence import independence_test
from judgestats.pairwise.intervals import rank_sets, ranks_of, win_probabilities
from judgestats.pairwise.likelihood import fit_joint
from judgestats.pairwise.prediction_powered import fit_davidson, fit_prediction_powered

LEVEL = 0.95
REPS = 500  # data sets per simulation cell (full run)
Z = 1.959963984540054
LETTERS = ("a", "tie", "b")
JUDGES = {"GPT-4": "judge_gpt-4", "GPT-3.5": "judge_gpt-3.5"}


def _strength(theta: np.ndarray, k: int) -> np.ndarray:
    return np.append(theta[: k - 1], -theta[: k - 1].sum())


def _counts(models, pair, first, second, judge, human, labelled) -> PairCounts:
    """Counts from per-row codes (pair index, judge and human letters, labelled mask)."""
    p = first.size
    judged = np.bincount(pair[~labelled] * 3 + judge[~labelled], minlength=p * 3)
    cell = (pair[labelled] * 3 + judge[labelled]) * 3 + human[labelled]
    lab = np.bincount(cell, minlength=p * 9)
    return PairCounts(models, first, second, judged.reshape(p, 3), lab.reshape(p, 3, 3), LETTERS)


# ------------------------------------------------------------------------------------ real data
def _truth(frame):
    models = tuple(sorted(set(frame["model_a"]) | set(frame["model_b"])))
    index = {m: i for i, m in enumerate(models)}
    k = len(models)
    key = frame["model_a"].map(index).to_numpy() * k + frame["model_b"].map(index).to_numpy()
    uniq, pair = np.unique(key, return_inverse=True)
    human = np.array([verdict_code(v) for v in frame["human"]])
    counts = _counts(models, pair, uniq // k, uniq % k, human, human, np.zeros(pair.size, bool))
    fit = fit_davidson(counts, counts.judged.astype(float))
    return models, _strength(fit.theta, k)


def _score(rows, name, strength, ci, truth, human_width):
    width = ci[:, 1] - ci[:, 0]
    rows.setdefault(name, {"hit": [], "width": [], "ratio": [], "tau": [], "err": []})
    r = rows[name]
    r["hit"].append((ci[:, 0] <= truth) & (truth <= ci[:, 1]))
    r["width"].append(width.mean())
    r["ratio"].append(width.mean() / human_width)
    r["tau"].append(kendalltau(strength, truth)[0])
    r["err"].append(np.abs(strength - truth).mean())


def _interval(fit) -> np.ndarray:
    se = np.sqrt(np.diag(fit.strength_covariance())[: fit.strength.size])
    return np.column_stack([fit.strength - Z * se, fit.strength + Z * se])


def _as_human(counts: PairCounts, verdicts: np.ndarray) -> PairCounts:
    """Counts whose every pair is 'labelled' with ``verdicts`` (P x 3): a plain Davidson fit
    with its sandwich is then the prediction-powered fit at λ = 0 with π = 1."""
    lab = np.zeros(counts.labelled.shape, dtype=np.int64)
    lab[:, 0, :] = verdicts
    return PairCounts(counts.models, counts.first, counts.second,
                      np.zeros_like(counts.judged), lab, LETTERS)  # fmt: skip


def real_data(splits: int, joint_splits: int, seed: int):
    rng = np.random.default_rng(seed)
    frame = load_arena_pairs()
    models, truth = _truth(frame)
    index = {m: i for i, m in enumerate(models)}
    k = len(models)
    key = frame["model_a"].map(index).to_numpy() * k + frame["model_b"].map(index).to_numpy()
    uniq, pair = np.unique(key, return_inverse=True)
    human = np.array([verdict_code(v) for v in frame["human"]])
    out, extra = [], []
    for label, column in JUDGES.items():
        judge = np.array([verdict_code(v) for v in frame[column]])
        rows: dict = {}
        fired, lams = 0, []
        for split in range(splits):
            keep = rng.random(pair.size) < 0.10
            counts = _counts(models, pair, uniq // k, uniq % k, judge, human, keep)
            check_pairs(counts, strengths_from_labels=True)
            ppi = fit_prediction_powered(counts)
            # the human-only fit: λ = 0 (the Davidson MLE of the calibration pairs, sandwich)
            own = fit_prediction_powered(counts, lam=0.0)
            naive_counts = counts.judged + counts.labelled.sum(axis=2)
            naive = fit_prediction_powered(_as_human(counts, naive_counts), lam=0.0)
            h_ci = _interval(own)
            hw = float((h_ci[:, 1] - h_ci[:, 0]).mean())
            _score(rows, "prediction-powered (ppi, default)", ppi.strength, _interval(ppi),
                   truth, hw)  # fmt: skip
            fired += independence_test(counts).pvalue < DEPENDENCE_LEVEL
            if split < joint_splits:
                joint = fit_joint(counts)
                _score(rows, f"joint confusion MLE (first {joint_splits} splits)",
                       joint.strength, _interval(joint), truth, hw)  # fmt: skip
            _score(rows, "naive judge BT", naive.strength, _interval(naive), truth, hw)
            _score(rows, "human-only BT (10%)", own.strength, h_ci, truth, hw)
            lams.append(ppi.lam)
        for name, r in rows.items():
            cover = np.mean(r["hit"], axis=0)
            out.append([label, name, f"{cover.min():.3f}", f"{np.median(cover):.3f}",
                        int((cover >= 0.9).sum()), f"{np.mean(r['width']):.3f}",
                        f"{np.mean(r['ratio']):.3f}", f"{np.mean(r['tau']):.3f}",
                        f"{np.mean(r['err']):.3f}"])  # fmt: skip
        extra.append([label, splits, f"{np.mean(lams):.3f}", f"{fired / splits:.3f}"])
    return out, extra


# ----------------------------------------------------------------------------------- simulation
def _davidson(rng, d, nu):
    w = np.stack([np.exp(d / 2), np.full(d.size, nu), np.exp(-d / 2)], axis=1)
    cum = np.cumsum(w / w.sum(axis=1, keepdims=True), axis=1)
    return (rng.random(d.size)[:, None] > cum).sum(axis=1)


def _judge_confusion(pb: float, th: float) -> np.ndarray:
    """Columns: human a / tie / b; a judge right 75% off ties, ``th`` x the ties, ``pb`` bias."""
    c = np.array([[0.75, 0.3, 0.12], [0.13, 0.4, 0.13], [0.12, 0.3, 0.75]])
    c[1] *= th
    c[0] += pb
    return c / c.sum(axis=0, keepdims=True)


def simulate(rng, cell, beta, bias):
    k, n = cell["K"], cell["n"]
    a = rng.integers(0, k, n)
    b = (a + rng.integers(1, k, n)) % k
    human = _davidson(rng, beta[a] - beta[b], cell["nu"])
    conf = _judge_confusion(cell["pb"], cell["th"])
    judge = (rng.random(n)[:, None] > np.cumsum(conf[:, human].T, axis=1)).sum(axis=1)
    own = rng.random(n) < cell["omega"]
    if own.any():
        biased = beta + bias
        judge[own] = _davidson(rng, biased[a[own]] - biased[b[own]], cell["nu"] * cell["th"])
    rate = np.full(n, cell["r"])
    if cell["design"] == "by-judge-label":
        rate = np.where(judge == 1, 2.5 * cell["r"], 0.75 * cell["r"])
    labelled = rng.random(n) < rate
    key = a * k + b
    uniq, pair = np.unique(key, return_inverse=True)
    models = tuple(f"m{i:02d}" for i in range(k))
    return _counts(models, pair, uniq // k, uniq % k, judge, human, labelled)


def _run_cell(cell, reps, rng):
    k = cell["K"]
    beta = np.linspace(cell["s"], -cell["s"], k)
    beta = beta - beta.mean()
    bias = rng.normal(0.0, cell["tau"], k)
    hits, win_hits, sets_ok, widths, ratio, lams, fired, failed = [], [], 0, [], [], [], 0, 0
    win_true = win_probabilities(beta, np.log(cell["nu"]), np.zeros((k + 1, k + 1)), LEVEL)[0]
    for _ in range(reps):
        counts = simulate(rng, cell, beta, bias)
        try:
            fit = fit_prediction_powered(counts, design=cell["design"])
            lab = counts.labelled.sum(axis=1).astype(float)
            human = fit_davidson(counts, lab)
        except ValueError:
            failed += 1
            continue
        cov = fit.strength_covariance()
        se = np.sqrt(np.diag(cov)[:k])
        hits.append(np.abs(fit.strength - beta) <= Z * se)
        _, win_ci = win_probabilities(fit.strength, np.log(fit.tie), cov, LEVEL)
        off = ~np.eye(k, dtype=bool)
        win_hits.append(((win_ci[..., 0] <= win_true) & (win_true <= win_ci[..., 1]))[off])
        sets = rank_sets(fit.strength, cov, LEVEL)
        true_rank = ranks_of(beta)
        sets_ok += bool(np.all((sets[:, 0] <= true_rank) & (true_rank <= sets[:, 1])))
        h_se = np.sqrt(np.diag(np.linalg.inv(human.hessian)))[: k - 1]
        widths.append(2 * Z * se.mean())
        ratio.append(se[: k - 1].mean() / h_se.mean())
        lams.append(fit.lam)
        if cell["omega"] == 0:
            fired += independence_test(counts).pvalue < DEPENDENCE_LEVEL
    done = reps - failed
    cover = np.mean(hits, axis=0)
    return {
        "pooled": cover.mean(), "worst": cover.min(), "win": np.mean(win_hits),
        "sets": sets_ok / done, "width": np.mean(widths), "ratio": np.mean(ratio),
        "lam": np.mean(lams), "warn": fired / done if cell["omega"] == 0 else None,
        "failed": failed, "done": done,
    }  # fmt: skip


def _grid_cells(quick: bool) -> list[dict]:
    fixed = []
    shapes = [(5, 2000, 0.20), (10, 10000, 0.10), (20, 20000, 0.05), (30, 50000, 0.05)]
    judges = [(0.0, 0.0, 1.0, 0.0), (0.25, 0.0, 0.5, 0.0), (0.1, 0.3, 1.5, 0.5),
              (0.15, 0.5, 0.7, 1.0)]  # (pb, omega, th, tau)  # fmt: skip
    for i, (k, n, r) in enumerate(shapes):
        for j, (pb, omega, th, tau) in enumerate(judges):
            design = "by-judge-label" if (i + j) % 2 else "random"
            fixed.append(dict(K=k, n=n, r=r, nu=0.6, s=1.0, pb=pb, th=th, omega=omega,
                              tau=tau, design=design, source="grid"))  # fmt: skip
    rng = np.random.default_rng(2921)
    drawn = []
    while len(drawn) < 16:
        k = int(rng.integers(5, 31))
        n = int(np.exp(rng.uniform(np.log(2000), np.log(50000))))
        r = float(rng.uniform(0.05, 0.20))
        if n * r < 12 * k:
            continue
        drawn.append(dict(K=k, n=n, r=round(r, 3), nu=round(float(rng.uniform(0.3, 1.2)), 2),
                          s=round(float(rng.uniform(0.5, 2.0)), 2),
                          pb=round(float(rng.uniform(0, 0.3)), 2),
                          th=round(float(rng.uniform(0.4, 1.6)), 2),
                          omega=round(float(rng.choice([0.0, rng.uniform(0.1, 0.6)])), 2),
                          tau=round(float(rng.uniform(0.2, 1.0)), 2),
                          design=str(rng.choice(["random", "by-judge-label"])),
                          source="random"))  # fmt: skip
    cells = fixed + drawn
    return [cells[0], cells[5], cells[16], cells[20]] if quick else cells


def _cell_job(job: tuple) -> dict:
    index, cell, reps = job
    seed = np.random.SeedSequence(2921).spawn(index + 1)[index]  # one stream per cell
    return _run_cell(cell, reps, np.random.default_rng(seed))


def simulation(quick: bool, pool) -> tuple[list, list]:
    reps = 25 if quick else REPS
    rows, summary = [], []
    cells = _grid_cells(quick)
    results = pool.map(_cell_job, [(i, c, reps) for i, c in enumerate(cells)], chunksize=1)
    for cell, res in zip(cells, results, strict=True):
        warn = "—" if res["warn"] is None else f"{res['warn']:.3f}"
        rows.append([cell["source"], cell["K"], f"{cell['n']:,}", f"{cell['r']:.3f}",
                     cell["design"], cell["nu"], cell["s"], cell["pb"], cell["th"],
                     cell["omega"], cell["tau"], res["done"], f"{res['pooled']:.3f}",
                     f"{res['worst']:.3f}", f"{res['win']:.3f}", f"{res['sets']:.3f}",
                     f"{res['ratio']:.3f}", f"{res['lam']:.2f}", warn])  # fmt: skip
        summary.append((cell, res))
    return rows, summary


def speed(rng: np.random.Generator):
    cell = dict(K=50, n=200_000, r=0.10, nu=0.6, s=1.5, pb=0.1, th=0.8, omega=0.3, tau=0.5,
                design="random")  # fmt: skip
    beta = np.linspace(1.5, -1.5, 50)
    counts = simulate(rng, cell, beta, rng.normal(0, 0.5, 50))
    plain = (counts.judged + counts.labelled.sum(axis=2)).astype(float)
    t_ppi = best_of(lambda: fit_prediction_powered(counts))
    t_bt = best_of(lambda: fit_davidson(counts, plain))
    return t_ppi, t_bt


def main() -> None:
    args = quick_parser(__doc__.splitlines()[0], "12 splits, 4 cells x 25 data sets").parse_args()
    start = time.time()
    # two processes (the machine's two cores): the real-data splits beside the simulation cells
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        real_job = pool.apply_async(real_data, (12 if args.quick else 200,
                                                3 if args.quick else 30, 2920))  # fmt: skip
        sim_rows, summary = simulation(args.quick, pool)
        real, extra = real_job.get()
    t_ppi, t_bt = speed(np.random.default_rng(2922))
    body = _text(real, extra, sim_rows, summary, (t_ppi, t_bt), args.quick)
    print(body)
    publish("pairwise", "Pairwise leaderboards: the prediction-powered fit", body,
            time.time() - start)  # fmt: skip
    print(run_time(time.time() - start, args.quick))


def _text(real, extra, sim_rows, summary, times, quick) -> str:
    worst = min(res["worst"] for _, res in summary)
    pooled = min(res["pooled"] for _, res in summary)
    ci_warn = [res["warn"] for cell, res in summary if res["warn"] is not None]
    body = __doc__.split("Writes")[0].split("\n", 2)[2] + "\n## Real data: Chatbot Arena\n\n"
    body += markdown_table(
        ["judge", "method", "coverage min", "coverage median", "models >= 0.90",
         "mean width", "width / human-only", "Kendall τ", "mean |error|"], real)  # fmt: skip
    body += "\n\n" + markdown_table(
        ["judge", "splits", "mean λ (ppi)", "JudgeDependenceWarning rate (joint-mle)"], extra
    )
    body += "\n\n## Simulation\n\n"
    body += (
        f"{len(summary)} cells ({sum(c['source'] == 'random' for c, _ in summary)} drawn at "
        f"random): pooled strength coverage >= {pooled:.3f} in every cell, worst model "
        f">= {worst:.3f}; conditional-independence warning on cells where it holds (ω = 0): "
        f"at most {max(ci_warn, default=float('nan')):.3f} of data sets.\n\n"
    )
    body += markdown_table(
        ["cells", "K", "n", "r", "design", "ν", "s", "pb", "th", "ω", "τ", "data sets",
         "strength coverage", "worst model", "win-prob coverage", "rank sets hold",
         "se / human-only se", "λ", "CI warning"], sim_rows)  # fmt: skip
    body += "\n\n## Speed\n\n" + markdown_table(
        ["fit (50 models, 200k pairs, 10% labelled)", "seconds", "ratio to plain BT"],
        [["prediction-powered (two Newton solves + sandwich)", f"{times[0]:.3f}",
          f"{times[0] / times[1]:.2f}"],
         ["plain Davidson BT, same counts", f"{times[1]:.3f}", "1.00"]])  # fmt: skip
    if quick:
        body += "\n\n(--quick: few splits and data sets; the figures are noisy.)"
    return body + "\n"


if __name__ == "__main__":
    main()
