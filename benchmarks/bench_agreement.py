"""Coverage of the agreement card's intervals (js.agreement; issue 30 §2) on random cells.

A. Two classes, design "random" (the calibration items a simple random sample): 40 cells drawn
   at random (seed 3002): theta ~ U(0.02, 0.98), q0, q1 ~ U(0.5, 0.999), m from
   {10, 15, 20, 30, 50, 100, 200, 500}; 2,000 data sets per cell (300 with --quick).
   Sensitivity and specificity (Clopper-Pearson on the human class), PPV and NPV
   (Clopper-Pearson on the judge class), kappa and AC1 (delta method, atanh scale).
B. Kappa's shown-interval rule: min coverage when the interval is shown only with >= M items
   in every human class and judge letter, for several M, on two grids of 60 small random cells
   (seeds 3003, 3004; theta ~ U(0.02, 0.98), q0, q1 ~ U(0.5, 0.999), m from
   {10, 15, 20, 30, 50, 100}; 2,000 data sets per cell, 300 with --quick), and by m on A.
C. Two classes, design "by-human-label" (m0, m1 fixed): 30 cells, q0, q1 ~ U(0.5, 0.999),
   m0, m1 from {3, 5, 10, 20, 50, 200}: sensitivity and specificity.
D. Three categories, design "random": 30 cells, human mix ~ Dirichlet(1, 1, 1), each class's
   judge accuracy ~ U(0.5, 0.97) (the rest split at random), m from {15, 30, 60, 150, 400}.
E. Repeated items, two classes, design "random": 30 cells, theta ~ U(0.1, 0.9), each item's
   judge error rate ~ Beta with mean mu_h ~ U(0.03, 0.3) and concentration c in {1, 5}, items
   from {20, 40, 100}, rows per item from {2, 3, 5}; 1,000 data sets (100 with --quick) through
   js.agreement with cluster= (and without, rows counted as items, for comparison).

Coverage is over the data sets where the interval is shown (the rate's denominator > 0; kappa
and AC1 not at +-1, perfect agreement; kappa with the margin rule); a cell enters a minimum
when the interval is shown in >= 200 data sets (>= 50 in E and with --quick).
Run: python benchmarks/bench_agreement.py [--quick]
"""

from __future__ import annotations

import time

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time

import judgestats as js
from judgestats.agreement.measures import MIN_KAPPA_MARGIN, coefficient, coefficient_bounds
from judgestats.kernels import clopper_pearson_bounds

LEVEL = 0.95
THRESHOLDS = (0, 1, 2, 3, 4, 5, 6, 8, 10)


def _covers(low, high, truth, shown):
    ok = (low <= truth) & (truth <= high)
    return float(ok[shown].mean()) if shown.any() else float("nan"), int(shown.sum())


def _binary_cells(gen, cells):
    out = []
    for _ in range(cells):
        th, q0, q1 = gen.uniform(0.02, 0.98), gen.uniform(0.5, 0.999), gen.uniform(0.5, 0.999)
        m = int(gen.choice([10, 15, 20, 30, 50, 100, 200, 500]))
        out.append((th, q0, q1, m))
    return out


def _table_coverage(p, t, min_shown):
    """Coverage of every interval on count tables t (N, K, K) drawn from cell probabilities p."""
    res = {}
    k = p.shape[0]
    for b in range(k):  # per human class (column) and per judge letter (row)
        col, row = t[:, :, b].sum(1), t[:, b, :].sum(1)
        for name, den, truth in ((f"recall {b}", col, p[b, b] / p[:, b].sum()),
                                 (f"precision {b}", row, p[b, b] / p[b].sum())):  # fmt: skip
            low, high = clopper_pearson_bounds(t[:, b, b], den, LEVEL)
            res[name] = _covers(low, high, truth, den > 0)
    margin = np.minimum(t.sum(1).min(1), t.sum(2).min(1))
    for kind in ("kappa", "ac1"):
        truth = float(coefficient(p, kind)[0])
        _, low, high = coefficient_bounds(t, kind, LEVEL)
        defined = ~np.isnan(low)  # not shown where undefined or +-1 (perfect agreement)
        res[kind] = _covers(low, high, truth, defined & (margin >= MIN_KAPPA_MARGIN)
                            if kind == "kappa" else defined)  # fmt: skip
        if kind == "kappa":
            res["kappa by M"] = [_covers(low, high, truth, defined & (margin >= m))
                                 for m in THRESHOLDS]  # fmt: skip
    return res


def part_a(gen, reps, min_shown):
    rows, per_cell = [], []
    for th, q0, q1, m in _binary_cells(gen, 40):
        p = np.array([[(1 - th) * q0, th * (1 - q1)], [(1 - th) * (1 - q0), th * q1]])
        t = gen.multinomial(m, p.ravel(), size=reps).reshape(-1, 2, 2)
        res = _table_coverage(p, t, min_shown)
        per_cell.append((m, res))
        rows.append([f"{th:.2f}", f"{q0:.3f}", f"{q1:.3f}", m,
                     *(f"{res[k][0]:.3f} ({res[k][1]})" for k in
                       ("recall 1", "recall 0", "precision 1", "precision 0", "kappa", "ac1"))])
    return rows, per_cell


def _min(per_cell, key, min_shown):
    vals = [r[key] for _, r in per_cell if r[key][1] >= min_shown]
    return min(v[0] for v in vals), len(vals)


def part_b(per_cell, min_shown, reps):
    rows = []
    for i, m_rule in enumerate(THRESHOLDS):
        vals = [(mm, r["kappa by M"][i]) for mm, r in per_cell
                if r["kappa by M"][i][1] >= min_shown]  # fmt: skip
        cov = [v[0] for _, v in vals]
        worst = min(vals, key=lambda x: x[1][0])
        shown = np.mean([r["kappa by M"][i][1] / reps for _, r in per_cell])
        rows.append([m_rule, f"{min(cov):.3f}", worst[0], len(vals), f"{shown:.2f}"])
    by_m = []
    for m in sorted({mm for mm, _ in per_cell}):
        cells = [r for mm, r in per_cell if mm == m]
        for label, key, idx in (("kappa, no rule", "kappa by M", 0),
                                (f"kappa, M = {MIN_KAPPA_MARGIN}", "kappa", None),
                                ("AC1", "ac1", None)):  # fmt: skip
            vals = [r[key][idx] if idx is not None else r[key] for r in cells]
            vals = [v for v in vals if v[1] >= min_shown]
            by_m.append([m, label, len(cells), len(vals),
                         f"{min(v[0] for v in vals):.3f}" if vals else "–"])  # fmt: skip
    return rows, by_m


def part_b_grids(reps, min_shown):
    rows = []
    for seed in (3003, 3004):
        gen = np.random.default_rng(seed)
        found: dict[int, list] = {m_rule: [] for m_rule in THRESHOLDS}
        shown: dict[int, list] = {m_rule: [] for m_rule in THRESHOLDS}
        for _ in range(60):
            th, q0, q1 = gen.uniform(0.02, 0.98), gen.uniform(0.5, 0.999), gen.uniform(0.5, 0.999)
            m = int(gen.choice([10, 15, 20, 30, 50, 100]))
            p = np.array([[(1 - th) * q0, th * (1 - q1)], [(1 - th) * (1 - q0), th * q1]])
            t = gen.multinomial(m, p.ravel(), size=reps).reshape(-1, 2, 2)
            truth = float(coefficient(p, "kappa")[0])
            _, low, high = coefficient_bounds(t, "kappa", LEVEL)
            margin = np.minimum(t.sum(1).min(1), t.sum(2).min(1))
            for m_rule in THRESHOLDS:
                cov, n = _covers(low, high, truth, ~np.isnan(low) & (margin >= m_rule))
                shown[m_rule].append(n / reps)
                if n >= min_shown:
                    found[m_rule].append((cov, m, th))
        for m_rule in THRESHOLDS:
            cov, m, th = min(found[m_rule])
            rows.append([seed, m_rule, f"{cov:.3f}", m, f"{th:.2f}", len(found[m_rule]),
                         f"{np.mean(shown[m_rule]):.2f}"])  # fmt: skip
    return rows


def part_c(gen, reps):
    rows, worst = [], 1.0
    for _ in range(30):
        q0, q1 = gen.uniform(0.5, 0.999), gen.uniform(0.5, 0.999)
        m0, m1 = (int(gen.choice([3, 5, 10, 20, 50, 200])) for _ in range(2))
        lo1, hi1 = clopper_pearson_bounds(gen.binomial(m1, q1, reps), m1, LEVEL)
        lo0, hi0 = clopper_pearson_bounds(gen.binomial(m0, q0, reps), m0, LEVEL)
        c1 = float(((lo1 <= q1) & (q1 <= hi1)).mean())
        c0 = float(((lo0 <= q0) & (q0 <= hi0)).mean())
        worst = min(worst, c0, c1)
        rows.append([f"{q0:.3f}", f"{q1:.3f}", m0, m1, f"{c1:.3f}", f"{c0:.3f}"])
    return rows, worst


def part_d(gen, reps, min_shown):
    rows, per_cell = [], []
    for _ in range(30):
        mix = gen.dirichlet(np.ones(3))
        c = np.zeros((3, 3))
        for b in range(3):
            acc = gen.uniform(0.5, 0.97)
            c[b, b] = acc
            c[np.arange(3) != b, b] = (1 - acc) * gen.dirichlet(np.ones(2))
        p = c * mix[None, :]
        m = int(gen.choice([15, 30, 60, 150, 400]))
        t = gen.multinomial(m, p.ravel(), size=reps).reshape(-1, 3, 3)
        res = _table_coverage(p, t, min_shown)
        per_cell.append((m, res))
        rec = min((res[f"recall {b}"] for b in range(3)), key=lambda v: v[0])
        pre = min((res[f"precision {b}"] for b in range(3)), key=lambda v: v[0])
        rows.append([" ".join(f"{v:.2f}" for v in mix), m,
                     *(f"{v[0]:.3f} ({v[1]})" for v in (rec, pre, res["kappa"], res["ac1"]))])
    return rows, per_cell


def _clustered_data(gen, th, mu, conc, items, r):
    human = gen.random(items) < th
    mean = np.where(human, mu[1], mu[0])
    err = gen.beta(mean * conc, (1 - mean) * conc)
    wrong = gen.random((items, r)) < err[:, None]
    h = np.repeat(human, r)
    return h, np.where(wrong.ravel(), ~h, h), np.repeat(np.arange(items), r)


def part_e(gen, reps, min_shown):
    rows = []
    worst = {"cluster": {}, "rows as items": {}}
    for _ in range(30):
        th, mu = gen.uniform(0.1, 0.9), gen.uniform(0.03, 0.3, 2)
        conc = float(gen.choice([1, 5]))
        items, r = int(gen.choice([20, 40, 100])), int(gen.choice([2, 3, 5]))
        p = np.array([[(1 - th) * (1 - mu[0]), th * mu[1]], [(1 - th) * mu[0], th * (1 - mu[1])]])
        truth = {"sensitivity": 1 - mu[1], "specificity": 1 - mu[0],
                 "PPV": p[1, 1] / p[1].sum(), "NPV": p[0, 0] / p[0].sum(),
                 "kappa": float(coefficient(p, "kappa")[0]), "AC1": float(coefficient(p, "ac1")[0])}
        hits = {k: {n: [] for n in truth} for k in worst}
        for _ in range(reps):
            h, j, ids = _clustered_data(gen, th, mu, conc, items, r)
            for kind, cl in (("cluster", ids), ("rows as items", None)):
                card = js.agreement(js.ConfusionCounts.from_labels(human=h, judge=j, cluster=cl),
                                    design="random", confidence_level=LEVEL)  # fmt: skip
                for fig in card.figures():
                    if fig.name in truth and fig.ci is not None:
                        hits[kind][fig.name].append(fig.ci.low <= truth[fig.name] <= fig.ci.high)
        cov = {k: {n: (float(np.mean(v)) if v else float("nan"), len(v)) for n, v in d.items()}
               for k, d in hits.items()}  # fmt: skip
        for k in worst:
            for n, (c, s) in cov[k].items():
                if s >= min_shown:
                    worst[k][n] = min(worst[k].get(n, 1.0), c)
        rows.append([f"{th:.2f}", f"{mu[0]:.2f}/{mu[1]:.2f}", f"{conc:g}", items, r,
                     *(f"{cov['cluster'][n][0]:.3f}" for n in truth),
                     f"{min(cov['rows as items'][n][0] for n in truth):.3f}"])
    return rows, worst


def main() -> None:
    args = quick_parser(__doc__, "300 data sets per cell (100 in E)").parse_args()
    reps, reps_e = (300, 100) if args.quick else (2000, 1000)
    min_shown, min_e = (50, 50) if args.quick else (200, 50)
    gen = np.random.default_rng(3002)
    t0 = time.perf_counter()
    a_rows, a_cells = part_a(gen, reps, min_shown)
    _, by_m = part_b(a_cells, min_shown, reps)
    b_rows = part_b_grids(reps, min_shown)
    c_rows, c_worst = part_c(gen, reps)
    d_rows, d_cells = part_d(gen, reps, min_shown)
    e_rows, e_worst = part_e(gen, reps_e, min_e)
    elapsed = time.perf_counter() - t0
    summary = []
    for part, cells, keys in (("A (2 classes, random)", a_cells,
                               [("sensitivity", "recall 1"), ("specificity", "recall 0"),
                                ("PPV", "precision 1"), ("NPV", "precision 0"),
                                ("kappa", "kappa"), ("AC1", "ac1")]),
                              ("D (3 categories, random)", d_cells,
                               [("recall", "recall 0"), ("recall", "recall 1"),
                                ("recall", "recall 2"), ("precision", "precision 0"),
                                ("precision", "precision 1"), ("precision", "precision 2"),
                                ("kappa", "kappa"), ("AC1", "ac1")])):  # fmt: skip
        merged: dict[str, list] = {}
        for label, key in keys:
            v, n = _min(cells, key, min_shown)
            merged.setdefault(label, []).append((v, n))
        for label, vals in merged.items():
            summary.append([part, label, f"{min(v for v, _ in vals):.3f}",
                            min(n for _, n in vals), len(cells)])  # fmt: skip
    summary.append(["C (2 classes, by-human-label)", "sensitivity, specificity",
                    f"{c_worst:.3f}", 30, 30])  # fmt: skip
    for n, v in e_worst["cluster"].items():
        summary.append(["E (repeated items, cluster=)", n, f"{v:.3f}",
                        len(e_rows), len(e_rows)])  # fmt: skip
    summary.append(["E (rows counted as items)", "worst figure",
                    f"{min(e_worst['rows as items'].values()):.3f}", len(e_rows), len(e_rows)])
    text = markdown_table(["part", "interval", "min coverage", "cells in min", "cells"], summary)
    print(text)
    body = "\n\n".join([
        __doc__.split("Run:")[0].strip(),
        f"Nominal level {LEVEL}. MC standard error at 0.95: 0.005 with 2,000 data sets, 0.007 "
        "with 1,000.",
        "## Minimum coverage\n\n" + text,
        "## B. Kappa's shown-interval rule\n\nShown only with >= M items in every human class "
        "and judge letter; the card uses M = "
        f"{MIN_KAPPA_MARGIN} (MIN_KAPPA_MARGIN): the smallest M with min coverage >= 0.93 on "
        "both grids is 4; 5 keeps one item of margin.\n\n"
        + markdown_table(["grid seed", "M", "min coverage", "at m", "at theta", "cells in min",
                          "share shown"], b_rows),
        "By calibration size m (cells of A):\n\n"
        + markdown_table(["m", "interval", "cells", "cells in min", "min coverage"], by_m),
        "## A. Two classes, design random: coverage (data sets shown)\n\n"
        + markdown_table(["theta", "q0", "q1", "m", "sensitivity", "specificity", "PPV", "NPV",
                          "kappa", "AC1"], a_rows),
        "## C. By-human-label: sensitivity and specificity\n\n"
        + markdown_table(["q0", "q1", "m0", "m1", "sensitivity", "specificity"], c_rows),
        "## D. Three categories, design random (worst class / letter)\n\n"
        + markdown_table(["human mix", "m", "recall", "precision", "kappa", "AC1"], d_rows),
        "## E. Repeated items (js.agreement with cluster=)\n\n"
        + markdown_table(["theta", "mu0/mu1", "concentration", "items", "rows per item",
                          "sensitivity", "specificity", "PPV", "NPV", "kappa", "AC1",
                          "rows as items (worst)"], e_rows),
        run_time(elapsed, args.quick),
    ])  # fmt: skip
    publish("agreement", "Agreement card: interval coverage (bench_agreement.py)", body, elapsed)


if __name__ == "__main__":
    main()
