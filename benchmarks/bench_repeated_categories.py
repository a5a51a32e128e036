"""Repeated items for k categories and strata (issue 27 §1): the item bootstrap and the designs.

**k categories.** N items, each with a human category h ~ θ and k rows; an item's judge
distribution is Dirichlet(C[:, h]·κ) with κ = 1/ρ − 1, so two rows of one item have intra-item
correlation ρ in each judge label's indicator (Dirichlet-multinomial). A random m of the items
are human-labelled (all their rows). Each data set is corrected by ``js.correct_distribution``
on counts built with ``cluster=``: ``"adjusted-delta"`` (the cluster-robust default),
``"bootstrap"`` (whole items resampled, 199 draws in --quick, 499 otherwise), and the random
and by-judge-label designs' cluster-aware ``"adjusted-delta"`` (random labelled items are
valid under both); and, for contrast, with the rows counted as items (``"adjusted-delta"``).
Reported: the smallest coverage over the K categories of each.

**Strata.** Two strata of N items each (θ 0.3 and 0.6, q0 = q1 = 0.85, k rows per item, judge
propensity Beta with intra-item correlation ρ, m labelled items per stratum), pooled by
``js.correct_stratified`` with the test mix as weights: the item bootstrap (``"bootstrap"``),
the cluster-robust ``"adjusted-wald"``, and the stratified bootstrap of rows as items.

**A judge alphabet of its own** (J letters for K human categories: a score). C[:, b] puts
the J letters of a scale around b's place on it (Gaussian weights of width ``spread``); an
item's letter distribution is Dirichlet(C[:, h]·κ), κ = 1/ρ − 1, k rows per item, a random m
of the N items labelled. Corrected by ``js.correct_distribution`` on counts built with
``cluster=``: the default ``"profile-likelihood-t"`` of the design-effect-scaled likelihood
(:mod:`judgestats.multiclass.alphabet_clusters`), the item ``"bootstrap"`` (199 draws in
--quick, 299 otherwise; the likelihood refitted per replicate), and the rows counted as items
(``"profile-likelihood-t"``). Reported: the smallest coverage over the K categories, and the
mean width of the default over the item bootstrap's (averaged over categories and data sets).
Grid: (J, K, k, ρ) in {(5, 2, 4, 0.3), (5, 2, 8, 0.6), (4, 3, 5, 0.5)}, N = 400, m = 150,
spread 0.9, and 3 cells drawn at random (seed 2715: K uniform on 2–3, J on K + 1–6, k on
2–10, ρ on (0.1, 0.8), N on 250–600, m on 100–N/2, spread on (0.6, 1.2), θ a
Dirichlet(2, …, 2) draw with entries at least 0.1 before renormalising). 200 data sets per cell
(--quick: 1 cell, 40 data sets).

Grid (k categories): K in {3, 4}, k in {3, 5, 10}, ρ in {0.3, 0.6} varied together (4 cells)
and 4 cells drawn at random (seed 2713: K uniform on 3–4, k on 2–10, ρ on (0.1, 0.8), N on
200–800, m on 60–N/2, θ a Dirichlet(2, …, 2) draw, C's diagonal on (0.6, 0.9)). Strata: 2 grid
cells and 2 drawn at random (k on 2–10, ρ on (0.1, 0.8), N on 300–800, m on 60–150). 300 data
sets per cell (--quick: 2 + 1 cells, 100 data sets).

Writes benchmarks/results/repeated_categories.md.
Run: python benchmarks/bench_repeated_categories.py [--quick]
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time
from bench_repeated import _beta

import judgestats as js


def _confusion(k: int, diagonal: float) -> np.ndarray:
    off = (1.0 - diagonal) / (k - 1)
    return np.full((k, k), off) + np.eye(k) * (diagonal - off)


def category_cells(count: int, seed: int = 2713) -> list[tuple[str, dict]]:
    out = [("grid", {"K": kk, "k": k, "rho": rho, "N": 400, "m": 100, "diag": 0.8,
                     "theta": tuple(np.round(np.linspace(1.5, 1, kk) / np.linspace(1.5, 1, kk)
                                             .sum(), 3))})
           for kk, k, rho in ((3, 3, 0.3), (3, 10, 0.6), (4, 5, 0.3), (4, 5, 0.6))]  # fmt: skip
    gen = np.random.default_rng(seed)
    for _ in range(count):
        kk = int(gen.integers(3, 5))
        n = int(gen.integers(200, 801))
        theta = gen.dirichlet(np.full(kk, 2.0))
        out.append(("random", {"K": kk, "k": int(gen.integers(2, 11)),
                               "rho": round(float(gen.uniform(0.1, 0.8)), 3), "N": n,
                               "m": int(gen.integers(60, n // 2 + 1)),
                               "diag": round(float(gen.uniform(0.6, 0.9)), 3),
                               "theta": tuple(np.round(theta / theta.sum(), 3))}))  # fmt: skip
    return out


def _draw_items(gen, c: np.ndarray, theta: np.ndarray, cell: dict):
    """N items with true class ~ θ, each judged k times: the item's letter probabilities are
    Dirichlet(column of c × κ), κ = 1/ρ − 1 (intra-item correlation ρ); a random m of the items
    labelled. Returns (letter per row, item id per row, human class per row, labelled row)."""
    k, n = cell["k"], cell["N"]
    kappa = 1.0 / cell["rho"] - 1.0
    h = gen.choice(c.shape[1], size=n, p=theta)
    probs = np.stack([gen.dirichlet(c[:, b] * kappa) for b in h])
    u = gen.random((n, k))
    letter = (u[..., None] > np.cumsum(probs, axis=1)[:, None, :-1]).sum(axis=2).ravel()
    ids, hr = np.repeat(np.arange(n), k), np.repeat(h, k)
    lab = np.repeat(np.isin(np.arange(n), gen.choice(n, cell["m"], replace=False)), k)
    return letter, ids, hr, lab


def category_data(gen, cell: dict):
    kk = cell["K"]
    theta = np.asarray(cell["theta"]) / np.sum(cell["theta"])
    c = _confusion(kk, cell["diag"])
    j, ids, hr, lab = _draw_items(gen, c, theta, cell)
    labels = list(range(kk))
    test = js.CategoryCounts.from_labels(j[~lab], labels=labels, cluster=ids[~lab])
    cal = js.ConfusionMatrix.from_labels(human=hr[lab], judge=j[lab], labels=labels,
                                         cluster=ids[lab])  # fmt: skip
    return test, cal, theta


def run_categories(cell: dict, reps: int, boot: int, seed: int) -> dict:
    gen = np.random.default_rng(seed)
    keys = ("aware", "boot", "random", "by-judge", "rows")
    hits = {key: np.zeros(cell["K"]) for key in keys}
    done = 0
    for _ in range(reps):
        test, cal, theta = category_data(gen, cell)
        flat = (js.CategoryCounts(test.counts), js.ConfusionMatrix(cal.counts))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fits = {
                    "aware": js.correct_distribution(test, cal, separation_level=None),
                    "boot": js.correct_distribution(test, cal, method="bootstrap", rng=gen,
                                                    n_resamples=boot, separation_level=None),
                    "random": js.correct_distribution(test, cal, design="random"),
                    "by-judge": js.correct_distribution(test, cal, design="by-judge-label"),
                    "rows": js.correct_distribution(*flat, separation_level=None),
                }  # fmt: skip
        except js.JudgeStatsError:  # a class without calibration items, an ill-conditioned Ĉ
            continue
        done += 1
        for key, res in fits.items():
            hits[key] += [res.ci[b].low <= theta[b] <= res.ci[b].high for b in range(cell["K"])]
    return {"done": done, **{key: float(v.min()) / max(done, 1) for key, v in hits.items()}}


def alphabet_cells(count: int, seed: int = 2715) -> list[tuple[str, dict]]:
    out = [("grid", {"J": j, "K": kk, "k": k, "rho": rho, "N": 400, "m": 150, "spread": 0.9,
                     "theta": tuple(np.round(np.linspace(1.5, 1, kk) / np.linspace(1.5, 1, kk)
                                             .sum(), 3))})
           for j, kk, k, rho in ((5, 2, 4, 0.3), (5, 2, 8, 0.6), (4, 3, 5, 0.5))]  # fmt: skip
    gen = np.random.default_rng(seed)
    for _ in range(count):
        kk = int(gen.integers(2, 4))
        n = int(gen.integers(250, 601))
        theta = gen.dirichlet(np.full(kk, 2.0))
        theta = np.clip(theta, 0.1, None)
        out.append(("random", {"J": int(gen.integers(kk + 1, 7)), "K": kk,
                               "k": int(gen.integers(2, 11)),
                               "rho": round(float(gen.uniform(0.1, 0.8)), 3), "N": n,
                               "m": int(gen.integers(100, n // 2 + 1)),
                               "spread": round(float(gen.uniform(0.6, 1.2)), 3),
                               "theta": tuple(np.round(theta / theta.sum(), 3))}))  # fmt: skip
    return out


def letter_matrix(j: int, kk: int, spread: float) -> np.ndarray:
    """C[:, b]: a score's J letters peaked at b's place on the scale, Gaussian of ``spread``."""
    loc = np.arange(kk) * (j - 1) / (kk - 1)
    c = np.exp(-((np.arange(j)[:, None] - loc[None, :]) ** 2) / (2 * spread**2))
    return c / c.sum(axis=0)


def alphabet_data(gen, cell: dict):
    j, kk = cell["J"], cell["K"]
    theta = np.asarray(cell["theta"]) / np.sum(cell["theta"])
    c = letter_matrix(j, kk, cell["spread"])
    letter, ids, hr, lab = _draw_items(gen, c, theta, cell)
    letters = [f"s{a}" for a in range(j)]
    names = np.array(letters)
    test = js.CategoryCounts.from_labels(names[letter[~lab]], labels=letters, cluster=ids[~lab])
    cal = js.ConfusionMatrix.from_labels(human=hr[lab], judge=names[letter[lab]],
                                         labels=list(range(kk)), judge_labels=letters,
                                         cluster=ids[lab])  # fmt: skip
    return test, cal, theta


def run_alphabet(cell: dict, reps: int, boot: int, seed: int) -> dict:
    gen = np.random.default_rng(seed)
    keys = ("aware", "boot", "rows")
    hits = {key: np.zeros(cell["K"]) for key in keys}
    width = {key: 0.0 for key in keys}
    done = 0
    for _ in range(reps):
        test, cal, theta = alphabet_data(gen, cell)
        flat = (js.CategoryCounts(test.counts, test.labels),
                js.ConfusionMatrix(cal.counts, cal.labels, judge_labels=cal.judge_labels))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fits = {
                    "aware": js.correct_distribution(test, cal, separation_level=None),
                    "boot": js.correct_distribution(test, cal, method="bootstrap", rng=gen,
                                                    n_resamples=boot, separation_level=None),
                    "rows": js.correct_distribution(*flat, separation_level=None),
                }  # fmt: skip
        except js.JudgeStatsError:  # a letter on test rows only, a class without items
            continue
        done += 1
        for key, res in fits.items():
            hits[key] += [res.ci[b].low <= theta[b] <= res.ci[b].high for b in range(cell["K"])]
            width[key] += float(np.mean([res.ci[b].width for b in range(cell["K"])]))
    out = {"done": done, **{key: float(v.min()) / max(done, 1) for key, v in hits.items()}}
    out["ratio"] = width["aware"] / max(width["boot"], 1e-300)
    return out


def strata_cells(count: int, seed: int = 2714) -> list[tuple[str, dict]]:
    out = [("grid", {"k": 5, "rho": 0.5, "N": 500, "m": 100}),
           ("grid", {"k": 10, "rho": 0.3, "N": 400, "m": 80})]
    gen = np.random.default_rng(seed)
    for _ in range(count):
        out.append(("random", {"k": int(gen.integers(2, 11)),
                               "rho": round(float(gen.uniform(0.1, 0.8)), 3),
                               "N": int(gen.integers(300, 801)),
                               "m": int(gen.integers(60, 151))}))  # fmt: skip
    return out


def strata_data(gen, cell: dict):
    tests, cals, n = {}, {}, {}
    k, rho = cell["k"], cell["rho"]
    for s, theta in (("a", 0.3), ("b", 0.6)):
        y = gen.random(cell["N"]) < theta
        prop = _beta(gen, np.where(y, 0.85, 0.15), rho)
        judge = (gen.random((cell["N"], k)) < prop[:, None]).reshape(-1)
        ids = np.array([f"{s}{i}" for i in range(cell["N"])], dtype=object)[
            np.repeat(np.arange(cell["N"]), k)]
        lab = np.repeat(np.isin(np.arange(cell["N"]), gen.choice(cell["N"], cell["m"],
                                                                 replace=False)), k)  # fmt: skip
        tests[s] = js.JudgedCounts.from_labels(judge[~lab], cluster=ids[~lab])
        cals[s] = js.ConfusionCounts.from_labels(human=np.repeat(y, k)[lab], judge=judge[lab],
                                                 cluster=ids[lab])  # fmt: skip
        n[s] = tests[s].n
    truth = (0.3 * n["a"] + 0.6 * n["b"]) / (n["a"] + n["b"])
    return tests, cals, truth


def _flat(c):
    if isinstance(c, js.JudgedCounts):
        return js.JudgedCounts(c.positive, c.n)
    return js.ConfusionCounts(tp=c.tp, fn=c.fn, tn=c.tn, fp=c.fp)


def run_strata(cell: dict, reps: int, boot: int, seed: int) -> dict:
    gen = np.random.default_rng(seed)
    hits = {"boot": 0, "aware": 0, "rows": 0}
    done = 0
    for _ in range(reps):
        tests, cals, truth = strata_data(gen, cell)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fits = {
                    "boot": js.correct_stratified(tests, cals, method="bootstrap", rng=gen,
                                                  n_resamples=boot),
                    "aware": js.correct_stratified(tests, cals),
                    "rows": js.correct_stratified({s: _flat(t) for s, t in tests.items()},
                                                  {s: _flat(c) for s, c in cals.items()},
                                                  method="bootstrap", rng=gen,
                                                  n_resamples=boot),
                }  # fmt: skip
        except js.JudgeStatsError:
            continue
        done += 1
        for key, res in fits.items():
            hits[key] += res.ci.low <= truth <= res.ci.high
    return {"done": done, **{key: v / max(done, 1) for key, v in hits.items()}}


def main() -> None:
    args = quick_parser(__doc__, "2 + 1 cells, 100 data sets, 199 bootstrap draws").parse_args()
    t0 = time.time()
    cat_cells, str_cells = category_cells(4), strata_cells(2)
    if args.quick:
        cat_cells, str_cells = [cat_cells[0], cat_cells[4]], str_cells[:1]
    reps, boot = (100, 199) if args.quick else (300, 499)
    rows = []
    for i, (source, cell) in enumerate(cat_cells):
        r = run_categories(cell, reps, boot, seed=9100 + i)
        rows.append([source, cell["K"], cell["k"], f"{cell['rho']:g}", cell["N"], cell["m"],
                     f"{cell['diag']:g}", " ".join(f"{v:g}" for v in cell["theta"]), r["done"],
                     *(f"{r[key]:.3f}" for key in ("aware", "boot", "random", "by-judge",
                                                   "rows"))])  # fmt: skip
        print(rows[-1], flush=True)
    letters = alphabet_cells(3)
    letters, a_reps, a_boot = (letters[:1], 40, 199) if args.quick else (letters, 200, 299)
    arows = []
    for i, (source, cell) in enumerate(letters):
        r = run_alphabet(cell, a_reps, a_boot, seed=9300 + i)
        arows.append([source, cell["J"], cell["K"], cell["k"], f"{cell['rho']:g}", cell["N"],
                      cell["m"], f"{cell['spread']:g}",
                      " ".join(f"{v:g}" for v in cell["theta"]), r["done"],
                      *(f"{r[key]:.3f}" for key in ("aware", "boot", "rows")),
                      f"{r['ratio']:.2f}"])  # fmt: skip
        print(arows[-1], flush=True)
    srows = []
    for i, (source, cell) in enumerate(str_cells):
        r = run_strata(cell, reps, boot, seed=9200 + i)
        srows.append([source, cell["k"], f"{cell['rho']:g}", cell["N"], cell["m"], r["done"],
                      f"{r['boot']:.3f}", f"{r['aware']:.3f}", f"{r['rows']:.3f}"])
        print(srows[-1], flush=True)
    body = __doc__.split("Writes")[0].strip()
    body += "\n\n## k categories: smallest coverage over the categories\n\n" + markdown_table(
        ["cells", "K", "rows per item k", "ρ", "items N", "labelled m", "C diagonal", "θ",
         "data sets", "adjusted-delta (clusters)", "item bootstrap", "random design (clusters)",
         "by-judge-label design (clusters)", "rows as items"], rows)  # fmt: skip
    body += ("\n\n## A judge alphabet of its own (J letters, K categories): smallest coverage "
             "over the categories\n\n") + markdown_table(
        ["cells", "letters J", "categories K", "rows per item k", "ρ", "items N", "labelled m",
         "spread", "θ", "data sets", "profile-likelihood-t (clusters)", "item bootstrap (refit)",
         "profile-likelihood-t, rows as items", "width / bootstrap's"], arows)  # fmt: skip
    body += "\n\n## Strata: coverage of the pooled rate\n\n" + markdown_table(
        ["cells", "rows per item k", "ρ", "items per stratum N", "labelled m", "data sets",
         "item bootstrap", "adjusted-wald (clusters)", "bootstrap of rows as items"], srows)
    body += "\n\n" + run_time(time.time() - t0, args.quick)
    publish("repeated_categories", "Repeated items: k categories and strata, item bootstrap",
            body, time.time() - t0)  # fmt: skip


if __name__ == "__main__":
    main()
