import shutil

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
