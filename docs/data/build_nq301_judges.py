"""Build ``docs/data/nq301_judges.csv.gz``: the CLI guide's worked example of scores and juries.

From ``benchmarks/data/nq301_jury.csv`` (NQ-301 with three judges; derived from
ehsk/OpenQA-eval, MIT licence, ``benchmarks/data/LICENSES/ehsk-OpenQA-eval.txt``): one row per
(system, question) with the three judges' 0/1 verdicts, BEM's probability and the final human
verdict, kept on a seeded random 40% of each system's rows (the calibration rows; blank on the
others, the test rows). Run from the repository root::

    python docs/data/build_nq301_judges.py
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
SEED, SHARE = 39, 0.4


def build() -> pd.DataFrame:
    """Return the table: model, item, gpt4, instructgpt, bem, bem_score, human."""
    src = pd.read_csv(ROOT / "benchmarks" / "data" / "nq301_jury.csv")
    out = pd.DataFrame({"model": src["target_model"], "item": src["item_id"],
                        "gpt4": src["judge_gpt4"], "instructgpt": src["judge_instructgpt"],
                        "bem": src["judge_bem"], "bem_score": src["bem_score"].round(4),
                        "human": src["human"].astype("Int64")})  # fmt: skip
    rng = np.random.default_rng(SEED)
    keep = np.zeros(len(out), dtype=bool)
    for _, rows in out.groupby("model", sort=True).indices.items():
        keep[rows[rng.permutation(len(rows))[: round(SHARE * len(rows))]]] = True
    out.loc[~keep, "human"] = pd.NA
    return out


def main() -> None:
    """Write the table gzip-compressed, byte for byte the same on every run (mtime 0)."""
    text = build().to_csv(index=False).encode("utf-8")
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, filename="") as fh:
        fh.write(text)
    (ROOT / "docs" / "data" / "nq301_judges.csv.gz").write_bytes(buffer.getvalue())


if __name__ == "__main__":
    main()
