"""Record the golden outputs, all of them or only the entries named, and print what changed.

Usage (from the repository root, with the project's virtual environment)::

    .venv/bin/python -m tests.golden.record                       # re-record every entry
    .venv/bin/python -m tests.golden.record --only NAME_OR_PREFIX [NAME_OR_PREFIX ...]
    .venv/bin/python -m tests.golden.record --check               # compare only, write nothing

``--only`` takes entry names or prefixes (``correct/random/`` re-records every entry under it);
the other entries keep their recorded outputs. A full record also drops the entries that are
no longer in ``cases.py``. The outputs live in ``tests/golden/data/<area>.json`` (one file per
first part of the names), first recorded from commit e39e706 (main before the refactor).

The rule: the golden test passes at every merge. A change that moves a recorded output on
purpose re-records **only the entries it affects** (``--only``), lists each in
``tests/golden/CHANGES.md`` (entry, what changed, why, commit) and lands in a commit of its
own whose message names the entries and says why. Never re-record everything to make the test
pass: a number that moved without a reason is the bug this test exists to catch.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .cases import CASES
from .diff import entry_differences
from .harness import load, run, save


def _selected(prefixes: Sequence[str] | None) -> list[str]:
    if not prefixes:
        return list(CASES)
    names = [n for n in CASES if any(n == p or n.startswith(p) for p in prefixes)]
    unknown = [p for p in prefixes if not any(n == p or n.startswith(p) for n in CASES)]
    if unknown:
        raise SystemExit(f"no golden entry is named or starts with: {', '.join(unknown)}")
    return names


def main(argv: Sequence[str] | None = None) -> int:
    """Re-record the entries (or check them with ``--check``); print every difference."""
    parser = argparse.ArgumentParser(prog="python -m tests.golden.record",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    parser.add_argument("--only", nargs="+", metavar="NAME_OR_PREFIX",
                        help="re-record only these entries (names or name prefixes)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the recorded outputs and write nothing")
    args = parser.parse_args(argv)
    recorded = load()
    names = _selected(args.only)
    new = dict(recorded)
    changed = 0
    for name in names:
        result = run(CASES[name])
        new[name] = result
        if name not in recorded:
            changed += 1
            print(f"new      {name}")
            continue
        diffs = entry_differences(recorded[name], result)
        if diffs:
            changed += 1
            print(f"changed  {name}")
            for line in diffs[:20]:
                print("    " + line.replace("\n", "\n    "))
            if len(diffs) > 20:
                print(f"    ... and {len(diffs) - 20} more differences")
    if args.only is None:
        for name in sorted(set(recorded) - set(CASES)):
            changed += 1
            print(f"removed  {name}")
            del new[name]
    print(f"{len(names)} entries run, {changed} new, changed or removed")
    if args.check:
        return 1 if changed else 0
    save(new)
    print(f"recorded {len(new)} entries in tests/golden/data/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
