"""Simulation-engine speed (issue #7): the paper's coverage setting, three ways.

21 theta x 10,000 replications, n = 1000, m0 = m1 = 100, adjusted-Wald, 95%:
(a) js.simulate.coverage; (b) a plain vectorised numpy transcription of the same computation
(here, not in the package); (c) the scalar public interval called per replication in a Python
loop (timed on a subset and scaled). Targets: (a) within 2x of (b); (a) >= 100x faster than (c).
Also the peak memory of a 2,000,000-replication run (chunked).
Run: python benchmarks/bench_speed.py [--quick]
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
from _common import best_of, markdown_table, publish, quick_parser

import judgestats as js
from judgestats.simulate import coverage

THETA = np.linspace(0, 1, 21)
Q0, Q1, N, M0, M1 = 0.7, 0.9, 1000, 100, 100


def transcription(reps: int, seed: int) -> np.ndarray:
    """Plain numpy: draw counts, eq. (8), coverage per theta."""
    rng = np.random.default_rng(seed)
    th = THETA[:, None]
    p = Q1 * th + (1 - Q0) * (1 - th)
    pos = rng.binomial(N, np.broadcast_to(p, (21, reps)))
    tn = rng.binomial(M0, Q0, size=(21, reps))
    tp = rng.binomial(M1, Q1, size=(21, reps))
    z = 1.959963984540054
    z2 = z * z
    ph, q0, q1 = pos / N, tn / M0, tp / M1
    pt = (N * ph + z2 / 2) / (N + z2)
    a0, a1 = (M0 * q0 + 1) / (M0 + 2), (M1 * q1 + 1) / (M1 + 2)
    den = a0 + a1 - 1
    t = (pt + a0 - 1) / den
    v0, v1 = a0 * (1 - a0) / (M0 + 2), a1 * (1 - a1) / (M1 + 2)
    c = t + 2 * z2 * (-(1 - t) * v0 + t * v1)
    se = np.sqrt(pt * (1 - pt) / (N + z2) + (1 - t) ** 2 * v0 + t**2 * v1) / den
    lo, hi = np.clip(c - z * se, 0, 1), np.clip(c + z * se, 0, 1)
    ok = q0 + q1 > 1
    return np.where(ok, (lo <= th) & (th <= hi), False).sum(axis=1) / ok.sum(axis=1)


def loop(reps: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    cover = np.zeros(21)
    for i, th in enumerate(THETA):
        p = Q1 * th + (1 - Q0) * (1 - th)
        pos = rng.binomial(N, p, reps)
        tn = rng.binomial(M0, Q0, reps)
        tp = rng.binomial(M1, Q1, reps)
        hit = 0
        for a, b, c in zip(pos.tolist(), tn.tolist(), tp.tolist(), strict=True):
            lo, hi = js.adjusted_wald_interval(a / N, b / M0, c / M1, N, M0, M1)
            hit += lo <= th <= hi
        cover[i] = hit / reps
    return cover


def peak_memory(reps: int) -> float:
    code = (
        "import numpy as np\n"
        "from judgestats.simulate import coverage\n"
        f"coverage(theta=0.5, q0={Q0}, q1={Q1}, n={N}, m0={M0}, m1={M1}, reps={reps}, rng=0)\n"
        "hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')][0]\n"
        "print(int(hwm.split()[1]) / 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    args = quick_parser(__doc__, "fewer repeats, smaller loop subset").parse_args()
    reps = 10_000
    repeat = 2 if args.quick else 5
    engine = lambda: coverage(theta=THETA, q0=Q0, q1=Q1, n=N, m0=M0, m1=M1, reps=reps, rng=1)  # noqa: E731
    engine()  # warm-up (lazy imports)
    t_engine = best_of(engine, repeat)
    t_plain = best_of(lambda: transcription(reps, 1), repeat)
    sub = 100 if args.quick else 1000
    t0 = time.perf_counter()
    loop(sub, 1)
    t_loop = (time.perf_counter() - t0) * reps / sub
    # the engine and the transcription agree in distribution (different streams):
    c_eng = engine().coverage.values.ravel()
    c_pl = transcription(reps, 2)
    agree = float(np.max(np.abs(c_eng - c_pl)))
    big = 10_000_000 if not args.quick else 400_000
    mem_small = peak_memory(10_000)
    mem_big = peak_memory(big)
    rows = [
        ("engine: js.simulate.coverage (21 x 10,000)", f"{t_engine * 1000:.0f} ms", ""),
        ("plain vectorised numpy transcription", f"{t_plain * 1000:.0f} ms", ""),
        (
            "engine / transcription",
            f"{t_engine / t_plain:.2f}x",
            "<= 2x: " + ("met" if t_engine / t_plain <= 2 else "NOT met"),
        ),
        (f"per-call loop (timed on {sub:,} reps per theta, scaled)", f"{t_loop:.1f} s", ""),
        (
            "loop / engine",
            f"{t_loop / t_engine:.0f}x",
            ">= 100x: " + ("met" if t_loop / t_engine >= 100 else "NOT met"),
        ),
        (
            "max |coverage difference| engine vs transcription",
            f"{agree:.4f}",
            "Monte Carlo noise (s.e. ~0.003)",
        ),
        ("peak RSS, 10,000 reps at one theta", f"{mem_small:.0f} MB", ""),
        (
            f"peak RSS, {big:,} reps at one theta ({-(-big // 2_000_000)} chunk(s) of <= 2e6)",
            f"{mem_big:.0f} MB",
            "bounded by chunking",
        ),
    ]
    table = markdown_table(["measure", "value", "target"], rows)
    print(table)
    publish(
        "speed",
        "Simulation engine speed (bench_speed.py)",
        table + ("\n\n(--quick)" if args.quick else "") + "\n",
    )


if __name__ == "__main__":
    main()
