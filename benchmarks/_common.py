"""Shared helpers for the benchmark scripts: machine line, timing, Markdown output."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

#: Where results go: benchmarks/results, or $JUDGESTATS_RESULTS_DIR (the test suite's quick runs
#: write to a temporary folder so they never overwrite the committed full-mode results).
RESULTS = Path(
    os.environ.get("JUDGESTATS_RESULTS_DIR") or Path(__file__).resolve().parent / "results"
)


def machine() -> str:
    """One line describing where the numbers were measured."""
    return (
        f"Python {platform.python_version()}, numpy {np.__version__}, "
        f"{os.cpu_count()} CPUs, {platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    """Minimum wall time of ``repeat`` calls (seconds)."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def write_markdown(name: str, title: str, body: str) -> Path:
    """Write ``benchmarks/results/<name>.md`` and return its path."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.md"
    path.write_text(f"# {title}\n\nMeasured on: {machine()}\n\n{body.rstrip()}\n")
    return path
