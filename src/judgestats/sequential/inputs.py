"""Pools and batches for the monitor: from a frame (any engine) or from counts, to arrays.

A *pool* row is one judged row (an item's verdict; an item judged several times has several
rows sharing its id). A *batch* row is one human label of an item (several raters of one item:
several rows). Both are read once into plain arrays; only the monitor's bookkeeping follows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    LabelError,
    check_column_names,
    check_frame_columns,
    check_labels,
)
from .._validation.errors import SequentialError
from ..counts import ConfusionCounts, JudgedCounts

__all__ = [
    "MIXED", "SCORE_BINS", "PoolItems", "check_score_bins", "counts_batch", "counts_pool",
    "frame_batch", "frame_pool", "is_score", "score_cells",
]  # fmt: skip

#: the cell of an item whose repeated verdicts disagree (its own cell: the design stays valid)
MIXED = "mixed"
#: quantile bins of a numeric judge score in the pool: the cells whose labelled rates are the
#: monitor's predictor (benchmarks/results/sequential_scores.md measures 10 and 20)
SCORE_BINS = 10


@dataclass(frozen=True, slots=True)
class PoolItems:
    """One group's items: ids, cell index, weight (rows per item), cell names, score or not.

    ``scored``: the cells are bins of a numeric judge score (:func:`score_cells`).
    """

    items: np.ndarray
    cell: np.ndarray
    rows: np.ndarray
    cells: tuple
    scored: bool = False


def _pandas(frame: Any, columns: list[str]) -> Any:
    """Return the named columns of a frame of any engine as a pandas DataFrame."""
    from ..frames import _collect, _narwhals, open_frame

    nw = _narwhals()
    nf = open_frame(nw, frame, tuple(columns))
    check_frame_columns(nf.columns, {"columns": tuple(columns)})
    return _collect(nw, nf.select(columns)).to_pandas()


def _cell_names(letters: Any, strata: Any) -> tuple[np.ndarray, tuple]:
    keys = letters if strata is None else list(zip(*strata, letters, strict=True))
    names = sorted(set(keys), key=lambda k: (type(k).__name__, repr(k)))
    index = {k: i for i, k in enumerate(names)}
    return np.fromiter((index[k] for k in keys), dtype=int, count=len(keys)), tuple(names)


def is_score(values: Any) -> bool:
    """Whether a judge column is a numeric score: floats with a value other than 0 and 1."""
    v = np.asarray(values)
    if v.dtype.kind != "f":
        return False
    v = v[~np.isnan(v)]
    return bool(np.any((v != 0.0) & (v != 1.0)))


def score_cells(scores: np.ndarray, bins: int) -> list[str]:
    """Each item's score bin among ``bins`` quantile bins of the group's item scores.

    The edges are quantiles of the pool's scores alone (no human label enters), so the cells
    are fixed before the first label; tied quantiles merge bins. A bin is named by its lower
    edge (``"score >= 0.42"``; the lowest ``"score < e1"``).
    """
    inner = np.unique(np.quantile(scores, np.linspace(0.0, 1.0, bins + 1)[1:-1]))
    inner = inner[inner > scores.min()]
    code = np.searchsorted(inner, scores, side="right")
    names = [f"bin 000: score < {inner[0]:.4g}" if inner.size else "bin 000: score"]
    names += [f"bin {k + 1:03d}: score >= {e:.4g}" for k, e in enumerate(inner)]
    return [names[c] for c in code.tolist()]


def check_score_bins(score_bins: Any) -> int:
    """Return ``score_bins`` checked: an int from 2 to 100."""
    if (isinstance(score_bins, bool) or not isinstance(score_bins, int | np.integer)
            or not 2 <= score_bins <= 100):  # fmt: skip
        raise ArgumentTypeError(f"score_bins must be an integer from 2 to 100, got {score_bins!r}")
    return int(score_bins)


def frame_pool(
    frame: Any, *, item: str | None, judge: str, by: tuple[str, ...], strata: tuple[str, ...],
    score_bins: int = SCORE_BINS,
) -> dict[Any, PoolItems]:  # fmt: skip
    """Group → :class:`PoolItems` of a judged pool frame.

    An item's cell is its judge letter (within its strata), or :data:`MIXED` when its rows
    carry different letters. A numeric score (:func:`is_score`) is binned instead: an item's
    cell is the bin of its mean score among ``score_bins`` quantile bins of the group's pool
    (:func:`score_cells`). Rows without a verdict are refused.
    """
    item_cols = [item] if item else []
    cols = list(dict.fromkeys([*by, *item_cols, judge, *strata]))
    df = _pandas(frame, cols)
    if df[judge].isna().any():
        row = int(np.flatnonzero(df[judge].isna().to_numpy())[0])
        raise LabelError(
            f"the pool has a row without a judge verdict ({judge!r} empty at row {row})"
        )
    if item is None:
        df = df.assign(_item=np.arange(len(df)))
        item = "_item"
    scored = is_score(df[judge].to_numpy())
    if scored:
        import pandas as pd
    out = {}
    groups = df.groupby(list(by), sort=True, dropna=False) if by else [((), df)]
    for key, part in groups:
        g = part.groupby(item, sort=True)
        first = g.first()
        if scored:
            letter = pd.Series(score_cells(g[judge].mean().to_numpy(float), score_bins),
                               index=first.index)  # fmt: skip
        else:
            letter = first[judge].where(g[judge].nunique().to_numpy() == 1, MIXED)
        strata_values = [first[c].tolist() for c in strata] if strata else None
        cell, names = _cell_names(letter.tolist(), strata_values)
        key = key if not by or len(by) > 1 else key[0] if isinstance(key, tuple) else key
        out[key] = PoolItems(first.index.to_numpy(), cell, g.size().to_numpy(float), names,
                             scored)
    return out


def counts_pool(pool: Any) -> dict[Any, PoolItems]:
    """One group from :class:`~judgestats.JudgedCounts`: cells judge 0 and judge 1."""
    if not isinstance(pool, JudgedCounts):
        raise ArgumentTypeError(
            "pool must be a data frame or a JudgedCounts (the judged pool's counts), got "
            f"{type(pool).__name__}"
        )
    if pool.shape:
        raise SequentialError(f"pool holds a batch of shape {pool.shape}; pass one pool")
    n, pos = int(pool.n), int(pool.positive)
    cell = np.r_[np.zeros(n - pos, int), np.ones(pos, int)]
    return {(): PoolItems(np.arange(n), cell, np.ones(n), (0, 1))}


def frame_batch(
    batch: Any, *, item: str, human: str, by: tuple[str, ...], probability: str | None
) -> tuple[list[tuple], np.ndarray, np.ndarray | None]:
    """(group-and-item keys, human values, inclusion probabilities) of a batch, in row order.

    Several rows of one item (raters) become one labelled item whose value is their mean
    label, at the item's first row.
    """
    cols = list(dict.fromkeys([*by, item, human] + ([probability] if probability else [])))
    df = _pandas(batch, cols)
    if df[human].isna().any():
        row = int(np.flatnonzero(df[human].isna().to_numpy())[0])
        raise LabelError(
            f"the batch has a row without a human label ({human!r} empty at row {row})"
        )
    labels = check_labels(f"batch[{human!r}]", df[human].to_numpy()).astype(float)
    keys = list(zip(*(df[c].tolist() for c in [*by, item]), strict=True)) if len(df) else []
    first: dict[tuple, int] = {}
    total: dict[tuple, list[float]] = {}
    for k, key in enumerate(keys):
        first.setdefault(key, k)
        total.setdefault(key, []).append(labels[k])
    order = sorted(first, key=first.__getitem__)
    values = np.array([np.mean(total[key]) for key in order])
    probs = None
    if probability:
        p = df[probability].to_numpy(float)
        probs = np.array([p[first[key]] for key in order])
    return order, values, probs


def counts_batch(batch: Any, gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(judge cell, human value) per labelled item of a ConfusionCounts batch, in random order."""
    if not isinstance(batch, ConfusionCounts):
        raise ArgumentTypeError(
            "batch must be a data frame or, with a JudgedCounts pool, a ConfusionCounts of the "
            f"newly labelled items, got {type(batch).__name__}"
        )
    tp, fn, tn, fp = (int(getattr(batch, a)) for a in ("tp", "fn", "tn", "fp"))
    cell = np.r_[np.ones(tp, int), np.zeros(fn, int), np.zeros(tn, int), np.ones(fp, int)]
    value = np.r_[np.ones(tp + fn), np.zeros(tn + fp)]
    order = gen.permutation(cell.size)
    return cell[order], value[order]


def check_names(name: str, value: Any) -> tuple[str, ...]:
    """Column name(s) given as a string or a sequence of strings (None: none)."""
    return check_column_names(name, value, allow_none=True)
