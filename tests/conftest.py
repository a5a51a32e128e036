import shutil

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A seeded Generator per test (no global RNG)."""
    return np.random.default_rng(20261122)


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
