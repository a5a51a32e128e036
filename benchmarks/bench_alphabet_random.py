"""A judge alphabet under the random design: coverage with sparse letters (issue 39).

The judge-conditional estimator of a judge alphabet (``design="random"``, method
``"adjusted-delta"``, :func:`judgestats.designs.judge_conditional_distribution`) evaluates its
delta-method variance at pseudo-count rates. It used to add two pseudo-items to every letter's
row (R̃[j] = (c_j1 + 1)/(r_j + 2)): with the 2^J product letters of J judges that pulls the
interval's centre towards 1/2 by up to 2^J/m (m calibration items), and the jury benchmark
(benchmarks/results/jury_combine.md, Part A) measured 0.48 coverage at θ = 0.05 with four
judges. Now the binary case's four pseudo-items are spread over the letters (a = min(2, 4/J) a
row, J letters; J = 2 unchanged) and a letter without calibration items keeps the variance of
a rate anywhere in [0, 1] (:func:`judgestats.kernels.judge_conditional_categories`).

Simulation (seeded), the model of bench_jury_combine.py: J 0/1 judges on every row, judge j
right where √ρ·u + √(1 − ρ)·e_j < Φ⁻¹(accuracy_j) (u shared by a row's judges), a simple
random share of the rows labelled; the letters are the 2^J product letters. Cells:

* the jury benchmark's failing cells R9, R14, R15 (its seed 4039) and G5-5% (J = 5, θ = 0.3,
  ρ = 0.3, 2,000 rows, 5% labelled), with G2-50% and G3-20% where letters are dense;
* 12 cells drawn at random (seed 4043): J U{1, …, 5}, accuracies U(0.6, 0.95), ρ U(0, 0.6),
  θ U(0.02, 0.98), rows U[200, 3000], labelled share U(0.05, 0.5).

Part B, the same kernel with K human categories (J = K letters, the judge answering in the
humans' categories): 8 cells drawn at random (seed 4045), K U{3, 4}, θ ~ Dirichlet(2, …, 2),
judge accuracy U(0.6, 0.9) (errors spread evenly), rows U[200, 3000], labelled share
U(0.05, 0.5); the worst category's coverage is shown.

1,000 data sets a cell (seed 4044; --quick: 3 cells of Part A and 1 of Part B, 12 data sets
each); in Part A a data set without a labelled item of each human class is skipped.
Coverage: share of intervals that hold θ; width: mean width; "before" is the
two-pseudo-items-a-letter variance (the previous estimator, computed here for the comparison).
Run: python benchmarks/bench_alphabet_random.py [--quick]
"""

from __future__ import annotations

import time

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time
from bench_jury_combine import cells as jury_cells
from bench_jury_combine import draw_rows
from scipy.stats import norm

from judgestats.designs import judge_conditional_distribution

LEVEL = 0.95
Z = float(norm.ppf(0.5 + LEVEL / 2))
PICK = ("R9", "R14", "R15", "G5-5%", "G2-50%", "G3-20%")


def all_cells(quick: bool) -> list[dict]:
    """The jury benchmark's cells named in PICK, then 12 cells drawn at random (seed 4043)."""
    jury = {c["cell"]: c for c in jury_cells(20, False)}
    out = [jury[name] for name in PICK]
    gen = np.random.default_rng(4043)
    for i in range(12):
        j = int(gen.integers(1, 6))
        out.append({"cell": f"A{i}", "J": j, "acc": gen.uniform(0.6, 0.95, j),
                    "rho": gen.uniform(0, 0.6), "theta": gen.uniform(0.02, 0.98),
                    "rows": int(gen.integers(200, 3001)), "share": gen.uniform(0.05, 0.5),
                    "scores": False, "clustered": False})  # fmt: skip
    return [out[2], out[3], out[6]] if quick else out


def letter_counts(x: np.ndarray, human: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Test counts per product letter (2^J,) and the calibration letter × human matrix."""
    lab = ~np.isnan(human)
    code = (x.astype(int) * (2 ** np.arange(x.shape[1]))).sum(axis=1)
    size = 2 ** x.shape[1]
    cal = np.zeros((size, 2))
    np.add.at(cal, (code[lab], human[lab].astype(int)), 1.0)
    return np.bincount(code[~lab], minlength=size).astype(float), cal


def before(t: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The previous intervals of θ (K,): variance at (c_jk + 2/K)/(r_j + 2) for every letter j.

    ``t``: judged items per letter (test and calibration), ``c``: the calibration matrix.
    """
    k = c.shape[1]
    big_n = t.sum() + Z**2
    pi = (t + Z**2 / t.size) / big_n
    rows = c.sum(1) + 2.0
    r = (c + 2.0 / k) / rows[:, None]
    cov = r.T @ ((np.diag(pi) - np.outer(pi, pi)) / big_n) @ r
    for j in range(t.size):
        cov = cov + pi[j] ** 2 * (np.diag(r[j]) - np.outer(r[j], r[j])) / rows[j]
    plain = np.where(c.sum(1)[:, None] > 0, c / np.maximum(c.sum(1), 1)[:, None], 1.0 / k)
    est = (t / t.sum()) @ plain
    half = Z * np.sqrt(np.diag(cov))
    return (np.minimum(np.clip(pi @ r - half, 0, 1), est),
            np.maximum(np.clip(pi @ r + half, 0, 1), est))  # fmt: skip


def run_cell(c: dict, reps: int, gen: np.random.Generator) -> list:
    now, old, sparse = [], [], []
    for _ in range(reps):
        x, human, _, _ = draw_rows(gen, c)
        lab = ~np.isnan(human)
        if not lab.any() or human[lab].min() == human[lab].max():
            continue
        t, cal = letter_counts(x, human)
        _, low, high, _ = judge_conditional_distribution(t, cal, "random", LEVEL)
        now.append((low[1], high[1]))
        b_low, b_high = before(t + cal.sum(1), cal)
        old.append((b_low[1], b_high[1]))
        seen = (t + cal.sum(1)) > 0
        sparse.append(np.mean(cal.sum(1)[seen] < 10))
    th = c["theta"]
    a, b = np.array(now), np.array(old)

    def cover(v):
        return np.mean((v[:, 0] <= th) & (th <= v[:, 1]))

    w_now, w_old = np.mean(a[:, 1] - a[:, 0]), np.mean(b[:, 1] - b[:, 0])
    return [c["cell"], c["J"], 2 ** c["J"], f"{th:.2f}", f"{c['rho']:.2f}", c["rows"],
            f"{c['share']:.0%}", len(a), f"{np.mean(sparse):.2f}", f"{cover(a):.3f}",
            f"{cover(b):.3f}", f"{w_now:.4f}", f"{w_now / w_old:.3f}"]  # fmt: skip


def category_cells(quick: bool) -> list[dict]:
    """Part B: K human categories, a judge answering in them (J = K letters); seed 4045."""
    gen = np.random.default_rng(4045)
    out = []
    for i in range(8):
        k = int(gen.integers(3, 5))
        acc = gen.uniform(0.6, 0.9)
        conf = np.full((k, k), (1 - acc) / (k - 1)) + np.eye(k) * (acc - (1 - acc) / (k - 1))
        out.append({"cell": f"K{i}", "K": k, "theta": gen.dirichlet(np.full(k, 2.0)),
                    "conf": conf, "rows": int(gen.integers(200, 3001)),
                    "share": gen.uniform(0.05, 0.5)})  # fmt: skip
    return out[:1] if quick else out


def run_category_cell(c: dict, reps: int, gen: np.random.Generator) -> list:
    """Coverage of each category's interval (now and before), the worst category's shown."""
    k, th = c["K"], c["theta"]
    hit_now, hit_old, w_now, w_old = [], [], [], []
    for _ in range(reps):
        y = gen.choice(k, size=c["rows"], p=th)
        judge = (gen.random(c["rows"])[:, None] > np.cumsum(c["conf"][y], axis=1)).sum(axis=1)
        lab = gen.random(c["rows"]) < c["share"]
        if not lab.any():
            continue
        cal = np.zeros((k, k))
        np.add.at(cal, (judge[lab], y[lab]), 1.0)
        t = np.bincount(judge[~lab], minlength=k).astype(float)
        _, low, high, _ = judge_conditional_distribution(t, cal, "random", LEVEL)
        b_low, b_high = before(t + cal.sum(1), cal)
        hit_now.append((low <= th) & (th <= high))
        hit_old.append((b_low <= th) & (th <= b_high))
        w_now.append(high - low)
        w_old.append(b_high - b_low)
    now, old = np.mean(hit_now, axis=0), np.mean(hit_old, axis=0)
    return [c["cell"], k, " ".join(f"{v:.2f}" for v in th), f"{np.diag(c['conf'])[0]:.2f}",
            c["rows"], f"{c['share']:.0%}", len(hit_now), f"{now.min():.3f}",
            f"{old.min():.3f}", f"{np.mean(w_now) / np.mean(w_old):.3f}"]  # fmt: skip


def main() -> None:
    args = quick_parser(__doc__, "4 cells, 12 data sets each").parse_args()
    start = time.perf_counter()
    reps = 12 if args.quick else 1000
    gen = np.random.default_rng(4044)
    rows = [run_cell(c, reps, gen) for c in all_cells(args.quick)]
    head = ["cell", "J", "letters", "θ", "ρ", "rows", "labelled", "data sets",
            "letters under 10 items", "coverage", "coverage before", "width",
            "width ÷ before"]  # fmt: skip
    cov = np.array([float(r[9]) for r in rows])
    old = np.array([float(r[10]) for r in rows])
    dense = [r for r in rows if float(r[8]) == 0.0]
    summary = markdown_table(
        ["cells", "min coverage", "median coverage", "min coverage before",
         "dense cells (every letter ≥ 10 items)", "max width ÷ before, dense"],
        [[len(rows), f"{cov.min():.3f}", f"{np.median(cov):.3f}", f"{old.min():.3f}",
          len(dense), f"{max(float(r[12]) for r in dense):.3f}" if dense else "–"]],
    )  # fmt: skip
    part_b = [run_category_cell(c, reps, gen) for c in category_cells(args.quick)]
    head_b = ["cell", "K", "θ", "judge accuracy", "rows", "labelled", "data sets",
              "coverage, worst category", "before", "width ÷ before"]  # fmt: skip
    text = (__doc__.split("\n\n", 1)[1] + "\n\n## Summary\n\n" + summary
            + "\n\n## Part A: every cell\n\n" + markdown_table(head, rows)
            + "\n\n## Part B: K human categories, J = K letters\n\n"
            + markdown_table(head_b, part_b) + "\n\n"
            + run_time(time.perf_counter() - start, args.quick))  # fmt: skip
    name = "alphabet_random_quick" if args.quick else "alphabet_random"
    publish(name, "A judge alphabet under the random design: sparse letters", text,
            time.perf_counter() - start)  # fmt: skip


if __name__ == "__main__":
    main()
