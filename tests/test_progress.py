"""progress=: None shows a bar only when someone watches; True and False force it."""

from __future__ import annotations

import pytest

from judgestats import progress as prog
from judgestats.errors import ArgumentTypeError


def test_none_follows_the_session_and_booleans_force(monkeypatch):
    assert prog.shown(None) is False  # under pytest (PYTEST_CURRENT_TEST is set)
    assert prog.shown(True) is True and prog.shown(False) is False
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setitem(__import__("sys").modules, "ipykernel", object())  # a notebook
    assert prog.shown(None) is True
    monkeypatch.setenv("CI", "1")
    assert prog.shown(None) is False
    for bad in ("yes", 1, 0.0):
        with pytest.raises(ArgumentTypeError, match=f"progress must be None, True or False, got {bad!r}"):
            prog.shown(bad)


def test_a_counter_without_a_bar_is_silent_and_with_one_counts(monkeypatch):
    seen: list[int] = []

    class Bar:
        def __init__(self, total, **kwargs):
            assert kwargs["delay"] == prog.DELAY == 2.0  # quiet for the first two seconds
            seen.append(total)

        def update(self, k):
            seen.append(k)

        def close(self):
            seen.append(-1)

    monkeypatch.setattr(prog, "_tqdm", lambda: Bar)
    quiet = prog.counter(total=3, enabled=False)
    quiet.update(2)
    quiet.close()
    assert seen == []
    monkeypatch.setattr(prog, "wanted", lambda enabled: bool(enabled))
    bar = prog.counter(total=3, enabled=True)
    bar.update(2)
    bar.close()
    assert seen == [3, 2, -1]
