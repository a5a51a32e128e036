"""The release artefacts (issue 19): sdist and wheel build, pass twine, and the wheel works alone.

The wheel is installed into a fresh virtual environment (its dependencies come from the package
index, usually pip's cache) and ``judgestats correct --example chatbot-arena`` runs from a
folder outside the repository, so nothing of the checkout is on the path.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("build")

# Builds the sdist and wheel, installs the wheel into a fresh virtual environment: the slow tier.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def test_sdist_and_wheel_pass_twine_and_hold_the_data(dist):
    import judgestats

    wheels = list(dist.glob("*.whl"))
    sdists = list(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    assert judgestats.__version__ in wheels[0].name  # the version is written once
    check = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, [*wheels, *sdists])],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    names = zipfile.ZipFile(wheels[0]).namelist()
    for needed in ("judgestats/py.typed", "judgestats/datasets/chatbot_arena.csv.xz",
                   "judgestats/datasets/nq301.csv.xz", "judgestats/datasets/LICENSES.md",
                   "judgestats/datasets/README.md"):  # fmt: skip
        assert needed in names, needed
    assert not any(n.startswith(("tests/", "benchmarks/", "notebooks/")) for n in names)


def test_the_wheel_runs_the_example_from_a_fresh_environment(dist, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    (wheel,) = dist.glob("*.whl")
    install = subprocess.run(
        [str(py), "-m", "pip", "install", "--quiet", f"{wheel}[frames]"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr[-3000:]
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    run = subprocess.run(
        [str(env_dir / "bin" / "judgestats"), "correct", "--example", "chatbot-arena", "--json"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path, env=clean,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert '"alpaca-13b"' in run.stdout
    where = subprocess.run(
        [str(py), "-c", "import judgestats; print(judgestats.__file__)"],
        capture_output=True, text=True, cwd=tmp_path, env=clean,
    )  # fmt: skip
    assert str(env_dir) in where.stdout and str(ROOT) not in where.stdout
