"""Shared helpers for the benchmark scripts: command line, timing, Markdown tables and output.

Every script builds its tables with :func:`markdown_table`, saves its figures with
:func:`save_figure` and writes its results file with :func:`write_markdown` (or
:func:`publish`), so the results files share one table format that the test suite parses
(tests/project/test_benchmarks.py).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

#: Where results go: benchmarks/results, or $JUDGESTATS_RESULTS_DIR (the test suite's quick runs
#: write to a temporary folder so they never overwrite the committed full-mode results).
RESULTS = Path(
    os.environ.get("JUDGESTATS_RESULTS_DIR") or Path(__file__).resolve().parent / "results"
)


#: The paper's Monte Carlo grid (appendix): judges (q0, q1) and calibration sizes m = m0 + m1.
PAPER_JUDGES = [(0.7, 0.9), (0.9, 0.7), (0.7, 0.7), (0.9, 0.9)]
PAPER_BUDGETS = [200, 500]


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


def wall_and_cpu(fn: Callable[[], object]) -> tuple[float, float]:
    """One call's wall time and its process CPU time (every thread of the process), seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def quick_parser(description: str | None, quick_help: str) -> argparse.ArgumentParser:
    """The scripts' command line: ``--quick`` (the small run the test suite makes)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--quick", action="store_true", help=quick_help)
    return ap


def _md_row(cells: Iterable[object]) -> str:
    # a bare "|" inside a cell would start a new column: escape it (an escaped one stays)
    return "| " + " | ".join(re.sub(r"(?<!\\)\|", r"\\|", str(c)) for c in cells) + " |"


def markdown_table(header: Sequence[object], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table: the header row, a ``|---|`` separator and one line per row.

    Cells are written with ``str`` (a ``|`` in a cell is escaped as ``\\|``): format numbers
    before (``f"{x:.3f}"``). No trailing newline.
    """
    lines = [_md_row(header), "|" + "---|" * len(header)]
    lines += [_md_row(row) for row in rows]
    return "\n".join(lines)


def save_figure(fig: Any, name: str, dpi: int = 110) -> Path:
    """Save a matplotlib figure as ``RESULTS/<name>``, close it and return the path."""
    import matplotlib.pyplot as plt

    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / name
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


def run_time(elapsed: float, quick: bool) -> str:
    """The closing line of a results file: ``Run time: 12.3 s`` (`` (--quick)``)."""
    return f"Run time: {elapsed:.1f} s" + (" (--quick)" if quick else "")


def write_markdown(name: str, title: str, body: str) -> Path:
    """Write ``benchmarks/results/<name>.md`` and return its path."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.md"
    path.write_text(f"# {title}\n\nMeasured on: {machine()}\n\n{body.rstrip()}\n")
    return path


def publish(name: str, title: str, body: str, elapsed: float | None = None) -> Path:
    """:func:`write_markdown`, then say where (and, given ``elapsed``, in how long)."""
    path = write_markdown(name, title, body)
    print(f"wrote {path}" + ("" if elapsed is None else f" in {elapsed:.1f} s"), flush=True)
    return path
