"""Rebuild the bundled data files from the extracted source tables.

Usage::

    python -m judgestats.datasets._build SOURCE_DIR [--out OUT_DIR]

``SOURCE_DIR`` holds ``chatbot_arena_llm_judges/per_target.csv`` and
``nq301_qa_correctness/per_target.csv`` (see ``README.md`` in this directory for where those
come from). ``OUT_DIR`` defaults to this package directory. The script writes

* ``chatbot_arena.csv.xz`` -- one row per comparison: ``item_id``, ``model_a``, ``model_b``,
  ``human_winner``, ``judge_<judge>_winner`` for each judge. The long per-target table is a
  pure re-shaping of this (each comparison once per side), and ``human_win`` / ``judge_win``
  are derived from the labels, so neither is stored;
* ``nq301.csv.xz`` -- the NQ-301 per-target table, all columns, unchanged.

and checks, before and after writing, that the loaders reproduce the source tables exactly
(values, row order and the 0/1 columns). Output is deterministic (xz has no timestamps).
Only pandas is needed; nothing here runs when the loaders are used.
"""

from __future__ import annotations

import argparse
import lzma
import sys
from pathlib import Path

import pandas as pd

from . import (
    _ARENA_FILE,
    _NQ301_FILE,
    ARENA_JUDGES,
    _expand_arena,
    _judge_column,
    _read_arena_store,
    _read_nq301_store,
)

ARENA_DIR = "chatbot_arena_llm_judges"
NQ301_DIR = "nq301_qa_correctness"

# label of the model shown as A -> winner of the comparison (inverse of _SIDE_LABEL["a"])
_A_LABEL_TO_WINNER = {
    "win": "model_a",
    "lose": "model_b",
    "tie": "tie",
    "tie_bothbad": "tie (bothbad)",
}

_XZ = {"method": "xz", "preset": 9 | lzma.PRESET_EXTREME}


def _fail(message: str) -> None:
    raise SystemExit(f"build check failed: {message}")


def _to_csv_xz(df: pd.DataFrame, path: Path) -> None:
    df.to_csv(path, index=False, lineterminator="\n", compression=_XZ)


def build_arena(source: Path, out: Path) -> Path:
    """Write ``chatbot_arena.csv.xz`` from ``per_target.csv`` and check the round trip."""
    per_target = pd.read_csv(
        source / ARENA_DIR / "per_target.csv",
        dtype={"item_id": "int64", "human_win": "int64", "judge_win": "int64"},
        keep_default_na=False,
    )
    judges = tuple(sorted(per_target["judge_name"].unique()))
    if judges != ARENA_JUDGES:
        _fail(f"judges {judges} differ from ARENA_JUDGES {ARENA_JUDGES}")
    # the 0/1 columns are derived: win -> 1, anything else (lose, tie, tie_bothbad) -> 0
    for kind in ("human", "judge"):
        derived = (per_target[f"{kind}_label"] == "win").astype("int64")
        if not derived.equals(per_target[f"{kind}_win"]):
            _fail(f"{kind}_win is not (judge_label == 'win')")

    # one row per comparison, from the side where the target was shown as model A
    side_a = per_target[per_target["target_position"] == "a"]
    comparisons = (
        side_a[side_a["judge_name"] == judges[0]][
            ["item_id", "target_model", "opponent_model", "human_label"]
        ]
        .rename(columns={"target_model": "model_a", "opponent_model": "model_b"})
        .sort_values("item_id")
        .reset_index(drop=True)
    )
    comparisons["human_winner"] = comparisons.pop("human_label").map(_A_LABEL_TO_WINNER)
    for name in judges:
        verdicts = side_a[side_a["judge_name"] == name].set_index("item_id")["judge_label"]
        if not verdicts.index.is_unique:
            _fail(f"judge {name}: a comparison has two model-A rows")
        comparisons[_judge_column(name)] = (
            comparisons["item_id"].map(verdicts).map(_A_LABEL_TO_WINNER)
        )
    if comparisons.isna().any().any():
        _fail("unmapped label or comparison missing for a judge")

    # cross-check with the one-row-per-comparison file when it is there
    wide = source / ARENA_DIR / "comparisons.csv"
    if wide.exists():
        ref = pd.read_csv(wide, dtype={"item_id": "int64"}, keep_default_na=False)
        ref = ref.drop(columns="question_id").sort_values("item_id").reset_index(drop=True)
        pd.testing.assert_frame_equal(comparisons, ref[list(comparisons.columns)])

    path = out / _ARENA_FILE
    _to_csv_xz(comparisons, path)

    # round trip: the loader's expansion must give back per_target.csv exactly
    expected = per_target.rename(columns={"human_win": "human", "judge_win": "judge"})
    got = _expand_arena(_read_arena_store(path), ARENA_JUDGES)
    pd.testing.assert_frame_equal(got, expected.reset_index(drop=True))
    return path


def build_nq301(source: Path, out: Path) -> Path:
    """Write ``nq301.csv.xz`` (the per-target table, unchanged) and check the round trip."""
    table = _read_nq301_store(source / NQ301_DIR / "per_target.csv", compression=None)
    path = out / _NQ301_FILE
    _to_csv_xz(table, path)
    pd.testing.assert_frame_equal(_read_nq301_store(path), table)
    return path


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m judgestats.datasets._build", description=__doc__.splitlines()[0]
    )
    parser.add_argument("source", type=Path, help="directory with the two source folders")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent, help="output directory")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for build in (build_arena, build_nq301):
        path = build(args.source, args.out)
        print(f"{path}: {path.stat().st_size:,} bytes (round trip checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
