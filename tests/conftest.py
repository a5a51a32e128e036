import shutil
import zlib
from pathlib import Path

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A seeded Generator per test (no global RNG)."""
    return np.random.default_rng(20261122)


@pytest.fixture
def marked_frame():
    """A leaderboard frame with two groups that cannot be corrected (issue 31 §1).

    500 rows each of models 'good', 'no-cal' (no human label at all) and 'one-class' (its 150
    human labels are all 1); the judge agrees with the human label on 85% of rows (seed 9).
    """
    import pandas as pd

    rng = np.random.default_rng(9)
    rows = []
    for model in ("good", "no-cal", "one-class"):
        human = rng.integers(0, 2, 500)
        judge = np.where(rng.random(500) < 0.85, human, 1 - human)
        label = np.where(np.arange(500) < 150, human.astype(float), np.nan)
        if model == "no-cal":
            label[:] = np.nan
        if model == "one-class":
            label = np.where(np.arange(500) < 150, 1.0, np.nan)
        rows.append(pd.DataFrame({"model": model, "judge": judge, "human": label}))
    return pd.concat(rows, ignore_index=True)


def chromium() -> str | None:
    """The headless Chromium binary (Debian package 'chromium'), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


#: skip marker for the tests that render pages in headless Chromium
needs_chromium = pytest.mark.skipif(
    chromium() is None,
    reason="headless Chromium is not installed (Debian package 'chromium'; .ci/run installs it "
    "when it runs as root with apt-get)",
)


def chromium_flags(profile_dir) -> list[str]:
    """Command line of a quiet, offline headless Chromium with its own profile folder."""
    return [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        f"--user-data-dir={profile_dir}",
        "--hide-scrollbars",
        "--virtual-time-budget=5000",
    ]


# tests/data/ holds fixtures and the scripts that made them with the real tools (which the suite
# does not install): --doctest-modules must not import those scripts
collect_ignore_glob = ["data/*"]


# ----------------------------------------------------------------------------- the slow tier
# `make test` runs every test; `make test-fast` (pytest -m "not slow") leaves out the slow tier:
# the tests that take more than about 5 s of one core. Most are marked where they are defined
# (@pytest.mark.slow, or pytestmark for a whole module); the two kinds below are marked here.
ROOT = Path(__file__).resolve().parent.parent

#: module-scoped fixtures that take more than 5 s to build: every test that requests one is in
#: the slow tier (else the fast tier would pay the build in whichever of them ran first)
SLOW_FIXTURES = {
    "tests/project/test_docs.py": {"site"},  # builds the site (~20 s) unless `make docs` just did
    "tests/test_io_inspect.py": {"logs"},  # runs Inspect AI evals in a subprocess (~8 s)
}

#: notebooks (run by nbmake) that take more than 5 s; 01, 02, 03 and 12 stay in the fast tier
SLOW_NOTEBOOKS = {
    "04_compare_interval_methods.ipynb", "05_planning.ipynb", "06_label_in_rounds.ipynb",
    "07_bayesian_models.ipynb", "08_strata_and_shift.ipynb", "09_more_than_two_grades.ipynb",
    "10_scores_ties_two_judges.ipynb", "11_corrected_leaderboard.ipynb",
}  # fmt: skip


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(item.path)
        where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else ""
        fixtures = SLOW_FIXTURES.get(where, set()) & set(getattr(item, "fixturenames", ()))
        if fixtures or (path.suffix == ".ipynb" and path.name in SLOW_NOTEBOOKS):
            item.add_marker(pytest.mark.slow)
    if hasattr(config, "workerinput"):  # an xdist worker: the slow groups first (below)
        _slow_groups_first(items)


# ----------------------------------------------------------------------------- the two workers
# `make test` runs `pytest -n 2 --dist loadfile --no-loadscope-reorder`, and with --dist loadfile
# the scheduler below hands out work in groups, in the order of the collection: every file is
# one group (as plain --dist loadfile does, so a module-scoped fixture is built once), except the
# files of SPLIT, which share no module-scoped fixture and are cut into several groups so that
# one file cannot keep a worker busy long after the other has finished
# (tests/project/test_benchmarks.py, one subprocess per benchmark script, was the longest file of
# the suite: benchmarks/results/test_durations.md). Each worker puts the groups with a slow test
# first, so the many short groups fill the end of both workers evenly (longest first). xdist's
# own --dist loadgroup cannot do this here: with pytest 9 it no longer tags the tests it groups.

#: files cut into groups: file -> number of groups (0: one group per test)
SPLIT = {
    "tests/project/test_benchmarks.py": 0,
    "tests/golden/test_golden.py": 4,
}


def _group(nodeid: str) -> str:
    """The group of a test: its file, or a part of it for the files of SPLIT."""
    where = nodeid.split("::", 1)[0]
    parts = SPLIT.get(where)
    if parts is None:
        return where
    if parts == 0:
        return nodeid
    return f"{where}:{zlib.crc32(nodeid.encode()) % parts}"


def _slow_groups_first(items: list) -> None:
    """Reorder ``items`` in place: the groups holding a slow test first, else collection order."""
    slow = {_group(i.nodeid) for i in items if i.get_closest_marker("slow")}
    items.sort(key=lambda i: _group(i.nodeid) not in slow)  # stable: a group's order is kept


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FileGroups(LoadScopeScheduling):
        """--dist loadfile with the files of SPLIT cut into several groups."""

        def _split_scope(self, nodeid: str) -> str:
            return _group(nodeid)

    return FileGroups(config, log)
