"""Every benchmark script runs in --quick mode and writes its results file (to a temp dir).

The speed and coverage figures themselves live in benchmarks/results/ (full mode); nothing
here asserts a timing.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCH.glob("bench_*.py"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_benchmark_quick_mode(script, tmp_path):
    env = {**os.environ, "JUDGESTATS_RESULTS_DIR": str(tmp_path), "MPLBACKEND": "Agg"}
    out = subprocess.run(
        [sys.executable, str(BENCH / script), "--quick"],
        cwd=BENCH,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    written = list(tmp_path.glob("*.md"))
    assert written, "no results file written"
    text = written[0].read_text()
    assert "Measured on:" in text and "|" in text
