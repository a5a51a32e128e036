"""Coverage, length and bias of every interval method: the paper's Monte Carlo study.

Grid (paper Figure 5 and appendix): theta in {0, .05, ..., 1}, (q0, q1) in
{(.7,.9), (.9,.7), (.7,.7), (.9,.9)}, m in {200, 500} (m0 = m1 = m/2), n = 1000, 10,000
replications; methods: every registered interval method plus the naive p̂ Wilson interval.
Writes benchmarks/results/coverage.md and coverage.png.
Run: python benchmarks/bench_coverage.py [--quick]
"""

from __future__ import annotations

import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import xarray as xr
from _common import PAPER_BUDGETS as BUDGETS
from _common import PAPER_JUDGES as JUDGES
from _common import markdown_table, publish, quick_parser, run_time, save_figure

from judgestats import interval_methods, plots
from judgestats.simulate import coverage

FAST = ["adjusted-wald", "wald", "naive-wilson"]


def simulate(theta: np.ndarray, reps: int, slow_reps: int, slow: list[str], options: dict):
    """The coverage data set of every method per (q0, q1, m)."""
    data = {}
    for j, (q0, q1) in enumerate(JUDGES):
        for k, m in enumerate(BUDGETS):
            kw = dict(theta=theta, q0=q0, q1=q1, n=1000, m0=m // 2, m1=m // 2)
            a = coverage(**kw, reps=reps, methods=FAST, rng=np.random.default_rng([7, j, k]))
            b = coverage(
                **kw,
                reps=slow_reps,
                methods=slow,
                method_options=options,
                rng=np.random.default_rng([8, j, k]),
            )
            data[(q0, q1, m)] = xr.concat([a, b], dim="method", combine_attrs="drop_conflicts")
    return data


def summary_table(data: dict, methods: list[str]) -> str:
    rows = []
    for (q0, q1, m), ds in data.items():
        for mth in methods:
            s = ds.sel({"method": mth})
            rows.append(
                [
                    q0,
                    q1,
                    m,
                    mth,
                    f"{float(s.coverage.min()):.3f}",
                    f"{float(s.coverage.mean()):.3f}",
                    f"{float(s.coverage.max()):.3f}",
                    f"{float(s.mean_length.mean()):.4f}",
                    f"{float(np.abs(s.bias).max()):.4f}",
                    f"{float(s.undefined.max()):.4f}",
                ]
            )
    header = ["q0", "q1", "m", "method", "coverage min", "coverage mean", "coverage max",
              "mean length", "max abs bias", "undefined (max)"]  # fmt: skip
    return markdown_table(header, rows)


def by_theta_table(paper, theta: np.ndarray, methods: list[str]) -> str:
    rows = [
        [
            f"{th:.2f}",
            *(f"{float(paper.coverage.sel({'method': m}).values[i]):.3f}" for m in methods),
        ]
        for i, th in enumerate(theta)
    ]
    return markdown_table(["theta", *(f"{m} coverage" for m in methods)], rows)


def figure(paper) -> None:
    fig, axes = plt.subplots(1, 3, figsize=(15, 4), layout="constrained")
    plots.coverage_plot(paper, variable="coverage", ax=axes[0])
    plots.coverage_plot(paper, variable="mean_length", ax=axes[1])
    plots.coverage_plot(paper, variable="bias", ax=axes[2])
    axes[0].set_ylim(0.85, 1.0)
    fig.suptitle("q0 = 0.7, q1 = 0.9, n = 1000, m0 = m1 = 100")
    save_figure(fig, "coverage.png")


def main() -> None:
    args = quick_parser(__doc__, "500 replications (30 for the slower methods), 6 theta values")
    args = args.parse_args()
    reps = 500 if args.quick else 10_000
    # resampling / optimisation / quadrature methods; --quick runs them only to see them run
    # (the test suite checks the fast methods' coverage), so 30 replications
    slow_reps = 30 if args.quick else 2_000
    theta = np.linspace(0, 1, 6 if args.quick else 21)
    slow = [m for m in interval_methods() if m not in FAST]
    methods = FAST + slow
    options = {"bootstrap": {"n_resamples": 200 if args.quick else 1000}}
    t0 = time.perf_counter()
    data = simulate(theta, reps, slow_reps, slow, options)
    elapsed = time.perf_counter() - t0
    summary = summary_table(data, methods)
    paper = data[(0.7, 0.9, 200)]
    print(summary)
    figure(paper)
    body = (
        f"{reps:,} replications per point for {', '.join(FAST)}; {slow_reps:,} for "
        f"{', '.join(slow)} (slower per data set); theta on {theta.size} points in [0, 1]; "
        "n = 1000; "
        f"bootstrap with {options['bootstrap']['n_resamples']} resamples; 95% level. Coverage is "
        "the share of defined replications whose interval contains theta; 'undefined' is the "
        "share with no interval (q̂0 + q̂1 <= 1), counted separately. Monte Carlo s.e. of a "
        f"coverage near 0.95: {np.sqrt(0.95 * 0.05 / reps):.4f} "
        f"({np.sqrt(0.95 * 0.05 / slow_reps):.4f} for the slower methods). "
        "The naive interval (Wilson for p̂) covers theta only near the crossing point "
        "theta = (1 - q0)/(2 - q0 - q1). The 'bayes' rows use the exact posterior's defaults "
        "(posterior mean, equal-tailed interval): an equal-tailed interval of a continuous "
        "posterior never contains theta = 0 or 1 exactly, so its coverage there is 0 by "
        "construction (its minimum in the table); the highest-density option (interval='hdi') "
        "can reach the boundary.\n\n"
        f"{summary}\n\n## Paper setting (q0 = .7, q1 = .9, m = 200), coverage by theta\n\n"
        + by_theta_table(paper, theta, methods)
        + f"\n\n![coverage](coverage.png)\n\n{run_time(elapsed, args.quick)}\n"
    )
    publish("coverage", "Interval coverage (bench_coverage.py)", body, elapsed)


if __name__ == "__main__":
    main()
