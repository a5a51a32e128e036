"""Core speed: vectorised adjusted-Wald interval, ratio to a per-call loop, import time.

Targets (issue #2): 10^6 intervals in < 0.5 s; >= 100x faster than calling the scalar function
per input; `import judgestats` < 0.3 s without pandas/xarray/matplotlib/pymc.
Run: python benchmarks/bench_core.py [--quick] [--loop-size N]  (default: loop over 10^6 inputs)
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import numpy as np
from _common import best_of, markdown_table, publish, quick_parser

import judgestats as js

N = 1_000_000


def inputs(rng: np.random.Generator, size: int):
    q0 = rng.uniform(0.6, 1.0, size)
    q1 = rng.uniform(0.6, 1.0, size)
    return (
        rng.uniform(0, 1, size),
        q0,
        q1,
        rng.integers(100, 5000, size),
        rng.integers(20, 500, size),
        rng.integers(20, 500, size),
    )


def import_time(runs: int = 7) -> tuple[float, list[str]]:
    code = (
        "import sys, time; t = time.perf_counter(); import judgestats; "
        "dt = time.perf_counter() - t; "
        "heavy = [m for m in ('pandas', 'xarray', 'matplotlib', 'pymc', 'arviz', 'scipy.stats') "
        "if m in sys.modules]; print(dt, ','.join(heavy))"
    )
    times, heavy = [], set()
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        dt, mods = [*out.stdout.split(), ""][:2]
        times.append(float(dt))
        heavy |= {m for m in mods.split(",") if m}
    return statistics.median(times), sorted(heavy)


def main() -> None:
    ap = quick_parser(__doc__, "loop over 20,000 inputs only")
    ap.add_argument("--loop-size", type=int, default=N, help="inputs for the per-call loop")
    args = ap.parse_args()
    if args.quick:
        args.loop_size = min(args.loop_size, 20_000)
    rng = np.random.default_rng(0)
    p, q0, q1, n, m0, m1 = inputs(rng, N)
    js.adjusted_wald_interval(
        p[:10], q0[:10], q1[:10], n[:10], m0[:10], m1[:10]
    )  # warm (lazy scipy)
    t_vec = best_of(lambda: js.adjusted_wald_interval(p, q0, q1, n, m0, m1), repeat=5)

    k = min(args.loop_size, N)
    lists = [a[:k].tolist() for a in (p, q0, q1, n, m0, m1)]
    t0 = time.perf_counter()
    loop = [js.adjusted_wald_interval(*a) for a in zip(*lists, strict=True)]
    t_loop = (time.perf_counter() - t0) * (N / k)
    low, _ = js.adjusted_wald_interval(p[:k], q0[:k], q1[:k], n[:k], m0[:k], m1[:k])
    assert np.allclose(low, [lo for lo, _ in loop], atol=0), "vectorised != loop"

    t_imp, heavy = import_time()
    rows = [
        (
            "vectorised adjusted_wald_interval, 10^6 inputs",
            f"{t_vec:.3f} s",
            "< 0.5 s",
            "yes" if t_vec < 0.5 else "NO",
        ),
        (
            f"per-call loop over the same inputs{'' if k == N else f' (timed on {k:,}, scaled)'}",
            f"{t_loop:.1f} s",
            "",
            "",
        ),
        (
            "speed-up vectorised / loop",
            f"{t_loop / t_vec:.0f}x",
            ">= 100x",
            "yes" if t_loop / t_vec >= 100 else "NO",
        ),
        (
            "`import judgestats` (median of 7 fresh processes)",
            f"{t_imp:.3f} s",
            "< 0.3 s",
            "yes" if t_imp < 0.3 else "NO",
        ),
        (
            "heavy modules loaded by the import",
            ", ".join(heavy) or "none",
            "none",
            "yes" if not heavy else "NO",
        ),
    ]
    table = markdown_table(["measure", "value", "target", "met"], rows)
    print(table)
    publish(
        "core",
        "Core speed (bench_core.py)",
        table + "\n\nInputs: p ~ U(0,1), "
        "q0, q1 ~ U(.6, 1), n in [100, 5000), m0, m1 in [20, 500), seed 0; the "
        "vectorised time is the best of 5 runs; vectorised and loop results "
        "are checked equal.",
    )


if __name__ == "__main__":
    main()
