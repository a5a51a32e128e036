"""Golden outputs: every entry of ``cases.py`` gives what was recorded before the refactor.

Each entry is re-run and compared with ``tests/golden/data/*.json`` (recorded from e39e706):
floats to 1e-12 (relative and absolute), errors by class name, warnings by class names, text
line by line, a recorded dict key missing now is a change (a new key is not); see
:mod:`tests.golden.diff`. A failure names the entry and the path inside its value. To change
a recorded output on purpose, see :mod:`tests.golden.record` (re-record only the entries
affected, in a named commit that says why, listed in ``tests/golden/CHANGES.md``).

Runtime (1,151 entries, measured when recorded): ``pytest tests/golden`` pinned to one core
(``taskset -c 0``) took 32 s wall, 20 s of CPU, collection and start-up included; unpinned,
35-42 s wall and 22-26 s of CPU, on the development machine's 2 cores shared with other work
(load average 7-9). The slowest entries (k-category profile likelihoods, pairwise fits) take
about 0.5 s each.
"""

from __future__ import annotations

import pytest

from .cases import CASES
from .diff import entry_differences
from .harness import load, run

RECORDED = load()
NAMES = sorted(set(CASES) | set(RECORDED))


def test_every_entry_is_recorded_and_every_recording_has_an_entry():
    missing = sorted(set(CASES) - set(RECORDED))
    stale = sorted(set(RECORDED) - set(CASES))
    assert not missing, ("entries not recorded (python -m tests.golden.record --only NAME): "
                         f"{missing[:10]}")  # fmt: skip
    assert not stale, f"recorded entries no longer in cases.py (re-record to drop): {stale[:10]}"
    assert len(CASES) >= 300


@pytest.mark.parametrize("name", NAMES)
def test_golden(name):
    if name not in RECORDED:
        pytest.fail(f"{name!r} is not recorded: python -m tests.golden.record --only {name!r}",
                    pytrace=False)  # fmt: skip
    if name not in CASES:
        pytest.fail(f"{name!r} is recorded but not in cases.py: re-record to drop it",
                    pytrace=False)  # fmt: skip
    diffs = entry_differences(RECORDED[name], run(CASES[name]))
    if diffs:
        shown = "\n".join(diffs[:15]) + (f"\n... and {len(diffs) - 15} more" if len(diffs) > 15
                                         else "")  # fmt: skip
        pytest.fail(f"golden entry {name!r} changed:\n{shown}\n(if on purpose: python -m "
                    f"tests.golden.record --only {name!r}, and list it in "
                    "tests/golden/CHANGES.md)", pytrace=False)  # fmt: skip


def test_the_comparison_rules():
    """The comparator itself: tolerances, NaN, new keys, text by line, paths in messages."""
    from .diff import differences

    nan, inf = float("nan"), float("inf")
    assert differences(0.1 + 0.2, 0.3) == []
    assert differences(1.0, 1.0 + 1e-13) == [] and differences(0.0, 5e-13) == []
    assert differences(1.0, 1.0 + 1e-9)
    assert differences(nan, nan) == [] and differences(inf, inf) == []
    assert differences(inf, -inf) and differences(nan, 0.0) and differences(1.0, nan)
    assert differences(3, 3.0) == [] and differences(3, 4)
    assert differences(True, 1) and differences(None, 0.0) and differences("a", "b")
    assert differences({"a": 1}, {"a": 1, "new": 2}) == []  # new information is no change
    assert differences({"a": 1, "b": 2}, {"a": 1}) == ["value.b: recorded key missing now"]
    assert differences([1, 2], [1, 2, 3]) == ["value: recorded 2 elements, now 3"]
    rows = {"rows": [{"ci_low": 0.1}] * 3 + [{"ci_low": 0.2}]}
    moved = {"rows": [{"ci_low": 0.1}] * 3 + [{"ci_low": 0.25}]}
    assert differences(rows, moved)[0].startswith("value.rows[3].ci_low: recorded 0.2, now 0.25")
    text = differences("title\n  a 0.5\n  b 0.6", "title\n  a 0.5\n  b 0.7")
    assert text[0].startswith("value: line 3 differs") and "'  b 0.6'" in text[0]
    assert "line 3" in differences("a\nb", "a\nb\nc")[0]
