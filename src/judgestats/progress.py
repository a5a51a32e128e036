"""Progress display for long work (simulation studies, split studies, leaderboards).

:func:`progress` wraps an iterable in a tqdm bar when someone is watching: ``progress=None``
(the default of every function that takes it) shows the bar only in an interactive terminal or
a Jupyter kernel, never under pytest or when ``CI`` is set, and only once the work has run for
about two seconds; ``True`` forces it, ``False`` silences it. tqdm is optional
(``judgestats[all]``); without it there is no bar.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterable
from typing import Any

from ._validation import ArgumentTypeError

__all__ = ["DELAY", "Counter", "counter", "progress", "shown", "wanted"]

#: Seconds of work before a bar appears (short calls stay quiet).
DELAY = 2.0


def _interactive() -> bool:
    if os.environ.get("CI") or os.environ.get("PYTEST_CURRENT_TEST"):
        return False
    if "ipykernel" in sys.modules:
        return True
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


def shown(progress: Any) -> bool:
    """Resolve a ``progress=`` argument (None, True or False): whether someone should see it.

    For a display that is not a tqdm bar (PyMC's own, in :mod:`judgestats.bayes`).
    """
    if progress is not None and not isinstance(progress, bool):
        raise ArgumentTypeError(f"progress must be None, True or False, got {progress!r}")
    return _interactive() if progress is None else progress


def wanted(progress: Any) -> bool:
    """Resolve a ``progress=`` argument (None, True or False) to whether a bar is shown."""
    return shown(progress) and importlib.util.find_spec("tqdm") is not None


def _tqdm() -> Any:
    if importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.auto import tqdm  # a widget in a notebook, text in a terminal
    else:  # tqdm.auto warns (TqdmWarning) in a notebook without ipywidgets; text bar instead
        from tqdm.std import tqdm
    return tqdm


def progress(iterable: Iterable, *, total: int | None = None, desc: str = "",
             enabled: Any = None) -> Iterable:  # fmt: skip
    """Return ``iterable`` wrapped in a tqdm bar when :func:`wanted`, else unchanged."""
    if not wanted(enabled):
        return iterable
    return _tqdm()(iterable, total=total, desc=desc, delay=DELAY, leave=False)


class Counter:
    """A bar advanced by hand (``update(k)``, then ``close()``); silent without a bar."""

    def __init__(self, bar: Any = None) -> None:
        self._bar = bar

    def update(self, k: int = 1) -> None:
        """Count ``k`` more units done."""
        if self._bar is not None:
            self._bar.update(k)

    def close(self) -> None:
        """Remove the bar."""
        if self._bar is not None:
            self._bar.close()


def counter(*, total: int, desc: str = "", enabled: Any = None) -> Counter:
    """Return a :class:`Counter` of ``total`` units, shown as a tqdm bar when :func:`wanted`.

    For work whose units finish inside one call (the cells of a simulated batch), where
    wrapping an iterable would only count the batches.
    """
    if not wanted(enabled):
        return Counter()
    return Counter(_tqdm()(total=total, desc=desc, delay=DELAY, leave=False))
