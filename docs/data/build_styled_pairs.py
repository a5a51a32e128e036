"""Build ``docs/data/styled_pairs.csv.gz``: the pairwise guide's style-control example as a file.

The frame of docs/guide/pairwise.md's "A jury, a judge's probabilities, covariates and style
control" example (simulated, seed 0: four models, 3,000 pairs, humans who like long answers,
a judge that picks the longer answer when it errs, 20% of the pairs with a human verdict), plus
a second judge ``judge2`` (right 70% of the time, else a random verdict; seed 1). Run from the
repository root::

    python docs/data/build_styled_pairs.py
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]


def build() -> pd.DataFrame:
    """Return the table: model_a, model_b, judge, judge2, length_diff, human (blank: none)."""
    rng = np.random.default_rng(0)  # the guide's example, line for line
    n, names = 3000, np.array(["x", "y", "z", "w"])
    a = rng.integers(0, 4, n)
    b = (a + rng.integers(1, 4, n)) % 4
    verbose = np.array([1.0, 0.0, -0.5, 0.5])
    length = verbose[a] - verbose[b] + rng.normal(size=n)
    beta = np.array([0.6, 0.2, -0.2, -0.6])
    d = beta[a] - beta[b] + 0.4 * length
    p = np.stack([np.exp(d / 2), np.full(n, 0.6), np.exp(-d / 2)], axis=1)
    cut = np.cumsum(p / p.sum(axis=1, keepdims=True), axis=1)
    human = np.array(["a", "tie", "b"])[(rng.random(n)[:, None] > cut).sum(axis=1)]
    judge = np.where(rng.random(n) < 0.6, human, np.where(length > 0, "a", "b"))
    labelled = rng.random(n) < 0.2
    g = np.random.default_rng(1)
    judge2 = np.where(g.random(n) < 0.7, human, np.array(["a", "tie", "b"])[g.integers(0, 3, n)])
    return pd.DataFrame({"model_a": names[a], "model_b": names[b], "judge": judge,
                         "judge2": judge2, "length_diff": length.round(4),
                         "human": np.where(labelled, human, None)})  # fmt: skip


def main() -> None:
    """Write the table gzip-compressed, byte for byte the same on every run (mtime 0)."""
    text = build().to_csv(index=False).encode("utf-8")
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0, filename="") as fh:
        fh.write(text)
    (ROOT / "docs" / "data" / "styled_pairs.csv.gz").write_bytes(buffer.getvalue())


if __name__ == "__main__":
    main()
