"""Zero counts and the profile-likelihood intervals (issue 27 §3): before and after the ½ rule.

``profile-likelihood``, ``profile-likelihood-t`` and ``profile-map`` replace a zero count
(among x, n − x, tn, fp, tp, fn) by ½ for the interval (``js.likelihood.ZERO_CELL``;
before: the plain Wilks interval, ``boundary_rule=False``). Both are computed on the same
data sets (``js.simulate.draw``, seeded), with adjusted-Wald beside, at 95%:

* **issue**: the cells of issue 27 §3 (θ = .9861, q = (.9831, .9667), m = (59, 69),
  n = 9433; θ = .9909, q = (.9335, .968), m = (95, 64), n = 12236) and a perfect judge at
  θ = .005 (m = (20, 20), n = 500, where p̂ = 0 in 8% of data sets), 2,000 data sets each;
* **random**: 24 cells drawn at random (seed 273): θ ~ U(0.9, 0.999) or U(0.001, 0.1)
  alternately, q0 and q1 ~ U(0.95, 0.999) (accurate) or U(0.7, 0.9) (mediocre) alternately
  by pairs, m0, m1 uniform on 20..200, n log-uniform on [200, 20000]; 1,000 data sets each;
* **independent**: the 192 cells of bench_weak_judge's independent grid (issue 15's: θ in
  {.02, .1, .3, .6, .9, .98}, (q0, q1) in {(.95, .6), (.6, .95), (.75, .75), (.99, .99)},
  (m0, m1) in {(15, 60), (60, 15), (40, 40), (300, 300)}, n in {200, 5000}); 100 data sets
  each (s.e. of one cell's coverage near 0.95: 0.022; read the means and counts).

Run: python benchmarks/bench_profile_boundary.py [--quick]
"""

from __future__ import annotations

import time

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time

from judgestats.intervals import compute_bounds
from judgestats.likelihood import boundary_cells, profile_likelihood_bounds
from judgestats.posterior import theta_posterior
from judgestats.simulate import draw

LEVEL = 0.95
ISSUE = [(0.9861, 0.9831, 0.9667, 59, 69, 9433), (0.9909, 0.9335, 0.968, 95, 64, 12236),
         (0.005, 1.0, 1.0, 20, 20, 500)]  # fmt: skip
METHODS = ("profile-likelihood", "profile-likelihood-t", "profile-map")


def random_cells(k: int) -> list[tuple]:
    gen = np.random.default_rng(273)
    cells = []
    for i in range(k):
        theta = gen.uniform(0.9, 0.999) if i % 2 == 0 else gen.uniform(0.001, 0.1)
        lo, hi = (0.95, 0.999) if (i // 2) % 2 == 0 else (0.7, 0.9)
        q0, q1 = gen.uniform(lo, hi, 2)
        m0, m1 = gen.integers(20, 201, 2)
        n = int(np.exp(gen.uniform(np.log(200), np.log(20_000))))
        cells.append((round(theta, 4), round(q0, 4), round(q1, 4), int(m0), int(m1), n))
    return cells


def independent_cells() -> list[tuple]:
    return [(th, q0, q1, m0, m1, n) for th in (0.02, 0.1, 0.3, 0.6, 0.9, 0.98)
            for q0, q1 in ((0.95, 0.6), (0.6, 0.95), (0.75, 0.75), (0.99, 0.99))
            for m0, m1 in ((15, 60), (60, 15), (40, 40), (300, 300))
            for n in (200, 5000)]  # fmt: skip


def measure(cell: tuple, reps: int, seed: int) -> dict:
    """Coverage and mean length of each method before/after on one cell's data sets."""
    theta, q0, q1, m0, m1, n = cell
    d = draw(theta=theta, q0=q0, q1=q1, n=n, m0=m0, m1=m1, reps=reps, rng=seed)
    mode = np.asarray(theta_posterior(d.test, d.calibration).mode())
    aw = compute_bounds(d.test, d.calibration, method="adjusted-wald", confidence_level=LEVEL)
    out = {"zero": float(np.mean(boundary_cells(d.test, d.calibration)))}

    def stats(low, high):
        ok = np.isfinite(low)
        return (float(np.mean(((low <= theta) & (theta <= high))[ok])),
                float(np.mean((high - low)[ok])))  # fmt: skip

    out["adjusted-wald"] = stats(aw.low, aw.high)
    for rule, tag in ((False, "before"), (True, "after")):
        for small, name in ((False, "profile-likelihood"), (True, "profile-likelihood-t")):
            low, high, _ = profile_likelihood_bounds(
                d.test, d.calibration, LEVEL, small_sample=small, boundary_rule=rule
            )
            out[(name, tag)] = stats(low, high)
            if small:  # profile-map: the t interval widened to hold the posterior mode
                out[("profile-map", tag)] = stats(np.minimum(low, mode), np.maximum(high, mode))
    return out


def cell_table(cells, results) -> str:
    rows = []
    for c, r in zip(cells, results, strict=True):
        rows.append((
            f"{c[0]:g}", f"({c[1]:g}, {c[2]:g})", f"({c[3]}, {c[4]})", f"{c[5]:,}",
            f"{r['zero']:.2f}", f"{r['adjusted-wald'][0]:.3f}",
            *(f"{r[(m, 'before')][0]:.3f} → {r[(m, 'after')][0]:.3f}" for m in METHODS),
            f"{r[('profile-map', 'after')][1] / r[('profile-map', 'before')][1]:.3f}",
        ))  # fmt: skip
    head = ["θ", "(q0, q1)", "(m0, m1)", "n", "share with a zero count", "adjusted-wald",
            *(f"{m} before → after" for m in METHODS),
            "profile-map length after / before"]  # fmt: skip
    return markdown_table(head, rows)


def summary_rows(grid: str, results) -> list[tuple]:
    rows = []
    for m in (*METHODS, "adjusted-wald"):
        tags = ("before", "after") if m != "adjusted-wald" else (None,)
        for tag in tags:
            key = (m, tag) if tag else m
            cov = np.array([r[key][0] for r in results])
            length = np.array([r[key][1] for r in results])
            base = np.array([r[(m, "before")][1] if tag else r[key][1] for r in results])
            rows.append((grid, m, tag or "", f"{cov.min():.3f}", f"{cov.mean():.3f}",
                         f"{int(np.sum(cov < 0.93))}", f"{length.mean():.4f}",
                         f"{np.mean(length / base):.3f}"))  # fmt: skip
    return rows


def main() -> None:
    args = quick_parser(__doc__, "fewer cells and data sets").parse_args()
    start = time.perf_counter()
    plan = {
        "issue": (ISSUE, 200 if args.quick else 2000),
        "random": (random_cells(4 if args.quick else 24), 100 if args.quick else 1000),
        "independent": (independent_cells()[:: 16 if args.quick else 1],
                        50 if args.quick else 100),
    }
    results, body, summary = {}, [], []
    for grid, (cells, reps) in plan.items():
        results[grid] = [measure(c, reps, 1000 + i) for i, c in enumerate(cells)]
        summary += summary_rows(grid, results[grid])
        print(grid, f"{time.perf_counter() - start:.0f} s", flush=True)
    head = ["grid", "method", "rule", "min coverage", "mean coverage", "cells < 0.93",
            "mean length", "length / before (mean over cells)"]  # fmt: skip
    table = markdown_table(head, summary)
    print(table)
    sizes = ", ".join(f"{g}: {len(c)} cells x {r:,} data sets" for g, (c, r) in plan.items())
    body.append(f"95% intervals; {sizes}.\n\n### Summary\n\n{table}")
    for grid in ("issue", "random"):
        body.append(f"### {grid} cells\n\n" + cell_table(plan[grid][0], results[grid]))
    body.append(run_time(time.perf_counter() - start, args.quick))
    publish("profile_boundary", "Zero counts and the profile-likelihood intervals "
            "(bench_profile_boundary.py)", "\n\n".join(body) + "\n")


if __name__ == "__main__":
    main()
