"""Bias of the five estimators of the paper's Table under label shift (Figure 8).

theta_P = 0.5 (test), theta_Q in [0.25, 0.75] (calibration, classes drawn at random),
q0 = 0.7, q1 = 0.9, n = 1000, m = 200, 10,000 replications.
Writes benchmarks/results/shift.md and shift.png.
Run: python benchmarks/bench_shift.py [--quick]
"""

from __future__ import annotations

import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from _common import markdown_table, publish, quick_parser, run_time, save_figure

from judgestats import plots
from judgestats.simulate import estimator_bias


def bias_table(ds) -> str:
    names = list(ds.estimator.values)
    rows = [
        [f"{t:.2f}", *(f"{float(ds.bias.sel(estimator=e).values[i]):+.4f}" for e in names)]
        for i, t in enumerate(ds.theta_calibration.values)
    ]
    return markdown_table(["theta_Q", *names], rows)


def main() -> None:
    args = quick_parser(__doc__, "1,000 replications").parse_args()
    reps = 1_000 if args.quick else 10_000
    t0 = time.perf_counter()
    ds = estimator_bias(theta_calibration=np.linspace(0.25, 0.75, 11), reps=reps, rng=2026)
    elapsed = time.perf_counter() - t0
    theory = (
        "Theory for the linear estimators: naive bias = (q0 + q1 - 1) theta_P + 1 - q0 - "
        "theta_P = +0.100; calibration-only bias = theta_Q - theta_P; difference (PPI) bias "
        "= (2 - q0 - q1)(theta_Q - theta_P) = 0.4 (theta_Q - 0.5)."
    )
    table = bias_table(ds)
    print(table)
    fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
    plots.estimator_bias_plot(ds, ax=ax)
    save_figure(fig, "shift.png")
    se = float(ds.sd.max()) / np.sqrt(reps)
    body = (
        f"{reps:,} replications per point; theta_P = 0.5, q0 = 0.7, q1 = 0.9, n = 1000, m = 200 "
        f"(calibration classes drawn with P(Z=1) = theta_Q). Mean bias against theta_P; Monte "
        f"Carlo s.e. <= {se:.4f}. Undefined replications (max over the table): "
        f"{float(ds.undefined.max()):.4f}.\n\n{theory}\n\n{table}\n\n![shift](shift.png)\n\n"
        f"{run_time(elapsed, args.quick)}\n"
    )
    publish("shift", "Estimators under label shift (bench_shift.py)", body)


if __name__ == "__main__":
    main()
