"""Judge alphabets against thresholds: does the full alphabet's interval beat a binary cut?

A judge speaks J ordered letters against a binary human label (by-human-label calibration,
m0 and m1 items per class). Each data set is analysed three ways, all at 95%:

* **full alphabet**: ``js.multiclass.correct_distribution``'s default for a judge alphabet,
  ``"profile-likelihood-t"`` (cut-off t²(ν), ν = min_b m_b/(J − 1) − 1), with its rule for
  letters seen on test items but on no calibration item (their items' rates anywhere in
  [0, 1]); computed by the batched kernel ``distribution_bounds`` where every letter is seen
  and by ``correct_distribution`` itself otherwise (with ``separation_level=None``: the
  interval, not the gate that refuses a judge the calibration set does not show separating
  the classes);
* **post-hoc best threshold**: each of the J − 1 cuts "letter >= s" collapses the alphabet to
  a binary judge, analysed by ``js.correct``'s ``"profile-likelihood-t"`` (ν = min(m0, m1) −
  1); the shortest of the J − 1 intervals of each data set is kept — the cut a user picks
  after seeing the data;
* **fixed best cut**: the one cut whose asymptotic variance at the true C
  (``alphabet_covariance``) is smallest, fixed before the data (an oracle choice, which
  favours the threshold).

Width ratio: mean width of a threshold interval ÷ mean width of the full alphabet's, per cell
(above 1: the full alphabet is shorter). An undefined interval counts as [0, 1].

Grid: cells drawn at random, grid A (30 cells, seed 2027) and grid B (24 cells, seed 2028).
Per cell: J from {3, 4, 5, 8}; half the cells ("dirichlet") each class's letter probabilities
Dirichlet(0.6, ..., 0.6), the letters then sorted by their true likelihood ratio; half
("latent") a latent score N(0, 1) for class 0 and N(d, 1) for class 1, d ~ U(0.5, 2.5), cut at
J − 1 points drawn uniformly on [−1.5, d + 1.5]; m0, m1 each log-uniform on [30, 500];
θ = P(human = 1) ~ U(0.05, 0.95); n test items log-uniform on [300, 10^4]. 1,000 data sets
per cell (--quick: 150 data sets in 6 cells of grid A, two per band of calibration items per
letter: A1 and A11 below 10, A0 and A24 from 10 to 30, A4 and A27 from 30; the band's cheaper
cells, chosen for the test suite's time, A11 being the study's lowest post-hoc coverage).

Writes benchmarks/results/alphabet_width.md.
Run: python benchmarks/bench_alphabet_width.py [--quick]
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time
from scipy.stats import norm

import judgestats as js
import judgestats.multiclass as mc
from judgestats.alphabets.plan import alphabet_covariance
from judgestats.intervals import compute_bounds

LEVEL = 0.95
METHOD = "profile-likelihood-t"
GRIDS = {"A": (2027, 30), "B": (2028, 24)}
QUICK_CELLS = ("A", (0, 1, 4, 11, 24, 27))
BANDS = [("< 10", 0.0, 10.0), ("10–30", 10.0, 30.0), ("≥ 30", 30.0, np.inf),
         ("≥ 10", 10.0, np.inf)]  # fmt: skip


# ----------------------------------------------------------------------------- the cells
def draw_cell(gen: np.random.Generator) -> dict:
    """One random cell: alphabet size, confusion matrix C (J × 2), m, θ and n."""
    j = int(gen.choice([3, 4, 5, 8]))
    if gen.random() < 0.5:
        kind = "dirichlet"
        c = gen.dirichlet(np.full(j, 0.6), size=2).T  # column b: P(letter | human = b)
        c = c[np.argsort(c[:, 1] / np.maximum(c[:, 0], 1e-300))]  # ordered by likelihood ratio
    else:
        kind = "latent"
        d = float(gen.uniform(0.5, 2.5))
        edges = np.concatenate([[-np.inf], np.sort(gen.uniform(-1.5, d + 1.5, j - 1)), [np.inf]])
        c = np.diff(norm.cdf(edges[:, None] - np.array([0.0, d])), axis=0)
    m = np.exp(gen.uniform(np.log(30), np.log(500), size=2)).astype(int)
    theta = float(gen.uniform(0.05, 0.95))
    n = int(np.exp(gen.uniform(np.log(300), np.log(1e4))))
    return {"j": j, "kind": kind, "c": c, "m": m, "theta": theta, "n": n}


def grid(name: str) -> tuple[list[dict], list[np.random.SeedSequence]]:
    """A grid's cells and one seed per cell for its data sets."""
    seed, count = GRIDS[name]
    gen = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    cells = [draw_cell(gen) for _ in range(count)]
    return cells, np.random.SeedSequence(seed + 1).spawn(count)


def per_letter(cell: dict) -> float:
    """Calibration items per free parameter of a column of C: min_b m_b/(J − 1)."""
    return float(cell["m"].min()) / (cell["j"] - 1)


def fixed_cut(cell: dict) -> int:
    """The cut s (threshold "letter >= s") of smallest asymptotic variance at the true C."""
    c, theta = cell["c"], cell["theta"]

    def var(s: int) -> float:
        two = np.stack([c[:s].sum(0), c[s:].sum(0)])
        return float(alphabet_covariance([1 - theta, theta], two, cell["n"], cell["m"])[1, 1])

    return min(range(1, cell["j"]), key=var)


# ----------------------------------------------------------------------------- the analyses
def simulate(gen: np.random.Generator, cell: dict, reps: int) -> tuple[np.ndarray, np.ndarray]:
    """Test letters (reps, J) and calibration counts (reps, J, 2) of ``reps`` data sets."""
    c, theta = cell["c"], cell["theta"]
    test = gen.multinomial(cell["n"], c @ [1 - theta, theta], size=reps)
    cal = np.stack([gen.multinomial(int(cell["m"][b]), c[:, b], size=reps) for b in (0, 1)], -1)
    return test, cal


def full_alphabet(test: np.ndarray, cal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The full alphabet's default interval of θ (human = 1) per data set."""
    reps, j = test.shape
    low, high = np.zeros(reps), np.ones(reps)
    unseen = ((cal.sum(-1) == 0) & (test > 0)).any(-1)
    seen = np.flatnonzero(~unseen)
    if seen.size:
        b = mc.distribution_bounds(test[seen], cal[seen], method=METHOD, confidence_level=LEVEL)
        low[seen], high[seen] = b.low[:, 1], b.high[:, 1]
    letters = list(range(j))
    for r in np.flatnonzero(unseen):  # the package's rule for unseen letters, one data set
        t = mc.CategoryCounts(test[r], labels=letters)
        cm = mc.ConfusionMatrix(cal[r], labels=[0, 1], judge_labels=letters)
        try:
            ci = mc.correct_distribution(t, cm, confidence_level=LEVEL,
                                         separation_level=None).ci[1]  # fmt: skip
        except js.JudgeStatsError:  # fewer than two letters seen: θ not identified
            continue  # [0, 1]
        low[r], high[r] = ci.low, ci.high
    return low, high


def thresholds(test: np.ndarray, cal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """js.correct's profile-likelihood-t interval of each cut: (reps, J − 1) low and high."""
    reps, j = test.shape
    low, high = np.zeros((reps, j - 1)), np.ones((reps, j - 1))
    for s in range(1, j):
        below, above = cal[:, :s].sum(1), cal[:, s:].sum(1)  # (reps, 2): judge 0 / judge 1
        b = compute_bounds(
            js.JudgedCounts(test[:, s:].sum(1), test.sum(1)),
            js.ConfusionCounts(tp=above[:, 1], fn=below[:, 1], tn=below[:, 0], fp=above[:, 0]),
            method=METHOD, confidence_level=LEVEL,
        )  # fmt: skip
        ok = np.isfinite(b.low) & np.isfinite(b.high)  # undefined: [0, 1]
        low[ok, s - 1], high[ok, s - 1] = np.asarray(b.low)[ok], np.asarray(b.high)[ok]
    return low, high


def run_cell(cell: dict, reps: int, seed: np.random.SeedSequence) -> dict:
    test, cal = simulate(np.random.default_rng(seed), cell, reps)
    theta = cell["theta"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sparse letters, weak calibration: measured here
        full = full_alphabet(test, cal)
        tlow, thigh = thresholds(test, cal)
    rows = np.arange(reps)
    pick = np.argmin(thigh - tlow, axis=1)  # the shortest cut of each data set
    cut = fixed_cut(cell)
    out = {"cut": cut}
    for key, (lo, hi) in {"full": full, "posthoc": (tlow[rows, pick], thigh[rows, pick]),
                          "fixed": (tlow[:, cut - 1], thigh[:, cut - 1])}.items():  # fmt: skip
        out[f"cov_{key}"] = float(np.mean((lo <= theta + 1e-9) & (theta - 1e-9 <= hi)))
        out[f"w_{key}"] = float(np.mean(hi - lo))
    out["r_posthoc"] = out["w_posthoc"] / out["w_full"]
    out["r_fixed"] = out["w_fixed"] / out["w_full"]
    return out


# ----------------------------------------------------------------------------- the tables
def _range(x: list[float]) -> str:
    return f"{min(x):.2f}–{max(x):.2f}"


def summary_rows(results: list[tuple[str, dict, dict]]) -> list[list]:
    groups = [("all", lambda g, c: True)]
    groups += [(f"grid {name}", lambda g, c, name=name: g == name) for name in GRIDS]
    groups += [(f"min m/(J−1) {lab}", lambda g, c, lo=lo, hi=hi: lo <= per_letter(c) < hi)
               for lab, lo, hi in BANDS]  # fmt: skip
    out = []
    for label, keep in groups:
        rs = [r for g, c, r in results if keep(g, c)]
        if not rs:
            continue
        post, fix = [r["r_posthoc"] for r in rs], [r["r_fixed"] for r in rs]
        row = [label, len(rs), f"{np.median(post):.2f}", _range(post), f"{np.median(fix):.2f}",
               _range(fix), f"{np.mean(np.array(fix) > 1):.2f}"]  # fmt: skip
        for key in ("full", "posthoc", "fixed"):
            cov = np.array([r[f"cov_{key}"] for r in rs])
            row += [f"{cov.min():.3f}", int((cov < 0.93).sum())]
        out.append(row)
    return out


SUMMARY_HEAD = ["cells", "count", "post-hoc ÷ full: median", "post-hoc ÷ full: range",
                "fixed cut ÷ full: median", "fixed cut ÷ full: range",
                "share full shorter (fixed cut)", "min coverage full", "< 0.93 full",
                "min coverage post-hoc", "< 0.93 post-hoc", "min coverage fixed cut",
                "< 0.93 fixed cut"]  # fmt: skip
CELL_HEAD = ["cell", "J", "kind", "m0", "m1", "θ", "n", "min m/(J−1)", "fixed cut s",
             "post-hoc ÷ full", "fixed cut ÷ full", "width full", "coverage full",
             "coverage post-hoc", "coverage fixed cut"]  # fmt: skip


def main() -> None:
    args = quick_parser(__doc__, "6 cells of grid A, 150 data sets").parse_args()
    t0 = time.time()
    reps = 150 if args.quick else 1000
    todo = []
    for name in GRIDS:
        cells, seeds = grid(name)
        picks = QUICK_CELLS[1] if args.quick else range(len(cells))
        if args.quick and name != QUICK_CELLS[0]:
            continue
        todo += [(name, i, cells[i], seeds[i]) for i in picks]
    results, rows = [], []
    for name, i, cell, seed in todo:
        t = time.time()
        r = run_cell(cell, reps, seed)
        results.append((name, cell, r))
        rows.append([
            f"{name}{i}", cell["j"], cell["kind"], int(cell["m"][0]), int(cell["m"][1]),
            f"{cell['theta']:.3f}", cell["n"], f"{per_letter(cell):.1f}", r["cut"],
            f"{r['r_posthoc']:.3f}", f"{r['r_fixed']:.3f}", f"{r['w_full']:.4f}",
            f"{r['cov_full']:.3f}", f"{r['cov_posthoc']:.3f}", f"{r['cov_fixed']:.3f}",
        ])  # fmt: skip
        print(rows[-1], f"{time.time() - t:.1f} s", flush=True)
    summary = summary_rows(results)
    print(markdown_table(SUMMARY_HEAD, summary), flush=True)
    body = __doc__.split("Writes")[0].strip()
    body += f"\n\n## Summary ({reps:,} data sets per cell)\n\n"
    body += (
        "Width ratios: median and range over the cells; share of cells where the fixed cut's "
        "interval is wider than the full alphabet's. Coverage: the lowest cell and the number of "
        "cells below 0.93, per interval. Bands by calibration items per free parameter of a "
        "column of C, min_b m_b/(J − 1) (the last row joins the two upper bands).\n\n"
    )
    body += markdown_table(SUMMARY_HEAD, summary)
    body += "\n\n## Every cell\n\n" + markdown_table(CELL_HEAD, rows)
    body += "\n\n" + run_time(time.time() - t0, args.quick)
    publish("alphabet_width", "Judge alphabets against thresholds: width and coverage", body,
            time.time() - t0)  # fmt: skip


if __name__ == "__main__":
    main()
