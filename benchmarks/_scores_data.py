"""The data sets of the judge-score benchmarks (bench_scores.py, bench_scores_rare.py): one home.

A cell (a dict) fixes θ, the labelled items ``n_lab`` and their share of all items, the rows
per item ``k`` and the kind of score: ``"informative"``, s = logistic(a·(2y − 1) + ε),
ε ~ N(0, σ²); or ``"letter only"``, the letter right with probability ``acc`` for both
classes and s = letter + N(0, σ²), so that given the letter the score carries nothing about y.
The labelled items are a simple random sample of the items, all of an item's rows labelled.
"""

from __future__ import annotations

import numpy as np


def draw_scores(cell: dict, rng: np.random.Generator) -> tuple:
    """One data set: (scores, 0/1 truth per row, labelled mask, item id per row)."""
    n_items = max(int(cell["n_lab"] / cell["share"]), cell["n_lab"] + 1)
    k = cell["k"]
    y = np.repeat(rng.random(n_items) < cell["theta"], k)
    rows = y.size
    if cell["kind"] == "informative":
        s = 1 / (1 + np.exp(-(cell["a"] * (2 * y - 1) + rng.normal(0, cell["sigma"], rows))))
    else:
        letter = np.where(rng.random(rows) < cell["acc"], y, ~y)
        s = letter + rng.normal(0, cell["sigma"], rows)
    chosen = rng.choice(n_items, cell["n_lab"], replace=False)
    labelled = np.zeros(rows, dtype=bool)
    labelled[(chosen[:, None] * k + np.arange(k)).ravel()] = True
    return s, y, labelled, np.repeat(np.arange(n_items), k)


def letter_correction(letter: np.ndarray, y: np.ndarray, labelled: np.ndarray,
                      items: np.ndarray | None = None):  # fmt: skip
    """The random-design letter estimator the score benchmarks compare against.

    ``js.correct(design="random")`` with its default interval, on the 0/1 ``letter`` of every
    row: the unlabelled rows its test counts, the labelled ones (human labels ``y``, 0/1) its
    calibration table; ``items``: each row's item id (clustered counts), or None.
    """
    import judgestats as js

    cl_t, cl_c = (None, None) if items is None else (items[~labelled], items[labelled])
    return js.correct(js.JudgedCounts.from_labels(letter[~labelled], cluster=cl_t),
                      js.ConfusionCounts.from_labels(human=np.asarray(y).astype(int),
                                                     judge=letter[labelled], cluster=cl_c),
                      design="random")  # fmt: skip
