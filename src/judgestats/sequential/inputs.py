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
    "COVARIATE_BINS", "JURY_COMBINES", "MIXED", "SCORE_BINS", "STACK_CELLS", "PoolItems",
    "check_jury", "check_score_bins", "counts_batch", "counts_pool", "frame_batch", "frame_pool",
    "is_score", "jury_rank", "normal_scores", "score_cells",
]  # fmt: skip

#: the cell of an item whose repeated verdicts disagree (its own cell: the design stays valid)
MIXED = "mixed"
#: quantile bins of a numeric judge score in the pool: the cells whose labelled rates are the
#: monitor's predictor (benchmarks/results/sequential_scores.md measures 10 and 20)
SCORE_BINS = 10
#: pool-quantile bins of a numeric covariate column (a length, a position), so it becomes
#: strata fixed before any label
COVARIATE_BINS = 4
#: how a jury's members make the cells (:func:`frame_pool`): bins of their mean pool rank, or
#: their product letters within those bins (benchmarks/results/sequential_jury.md)
JURY_COMBINES = ("stack", "mean", "letters")
#: about the most cells of a stacked jury's crossed member bins and covariate levels (each
#: score gets max(2, ⌊(200 / levels)^(1/J)⌋) pool-quantile bins; a 0/1 member its two letters)
STACK_CELLS = 200


@dataclass(frozen=True, slots=True)
class PoolItems:
    """One group's items: ids, cell index, weight (rows per item), cell names, score or not.

    ``scored``: the cells are bins of a numeric judge score or of a jury (:func:`score_cells`),
    smoothed over their neighbours; ``parent``: with cells that split those bins further
    (covariate strata, a jury's letters), each cell's bin (indices in the bins' order);
    ``features``: a jury's stack, each cell's feature row (:mod:`.stacking`).
    """

    items: np.ndarray
    cell: np.ndarray
    rows: np.ndarray
    cells: tuple
    scored: bool = False
    parent: np.ndarray | None = None
    features: np.ndarray | None = None


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


def score_cells(scores: np.ndarray, bins: int, what: str = "score") -> list[str]:
    """Each item's score bin among ``bins`` quantile bins of the group's item scores.

    The edges are quantiles of the pool's scores alone (no human label enters), so the cells
    are fixed before the first label; tied quantiles merge bins. A bin is named by its lower
    edge (``"score >= 0.42"``; the lowest ``"score < e1"``).
    """
    inner = np.unique(np.quantile(scores, np.linspace(0.0, 1.0, bins + 1)[1:-1]))
    inner = inner[inner > scores.min()]
    code = np.searchsorted(inner, scores, side="right")
    names = [f"bin 000: {what} < {inner[0]:.4g}" if inner.size else f"bin 000: {what}"]
    names += [f"bin {k + 1:03d}: {what} >= {e:.4g}" for k, e in enumerate(inner)]
    return [names[c] for c in code.tolist()]


def check_score_bins(score_bins: Any) -> int:
    """Return ``score_bins`` checked: an int from 2 to 100."""
    if (isinstance(score_bins, bool) or not isinstance(score_bins, int | np.integer)
            or not 2 <= score_bins <= 100):  # fmt: skip
        raise ArgumentTypeError(f"score_bins must be an integer from 2 to 100, got {score_bins!r}")
    return int(score_bins)


def check_jury(judge: Any, combine: Any) -> tuple[tuple[str, ...], str]:
    """Return (the judge column(s), the jury's combine) checked; one name is a single judge.

    A list names a jury of two or more judges (0/1 letters or numeric scores); ``combine`` is
    one of :data:`JURY_COMBINES` (None: ``"stack"``, the measured default) and needs a jury.
    """
    if isinstance(judge, str):
        if combine is not None:
            raise ArgumentTypeError(
                f"combine={combine!r} combines several judges: give judge=[...] (two or more "
                f"columns), got judge={judge!r}"
            )
        return (judge,), "score"
    names = check_column_names("judge", judge)
    if len(names) < 2:
        raise ArgumentTypeError(
            f"a jury needs two or more judge columns, got judge={list(names)!r}; give one "
            "judge as judge='name'"
        )
    if combine is None:
        return names, "stack"
    if combine not in JURY_COMBINES:
        raise ArgumentTypeError(
            f"combine must be one of {list(JURY_COMBINES)} while labelling, got {combine!r}"
        )
    return names, str(combine)


def jury_rank(columns: np.ndarray) -> np.ndarray:
    """Each item's mean over the judges of its pool rank in (0, 1] (ties: their mean rank).

    Ranks put judges on one scale (a probability beside a 1–10 rating) using the pool alone;
    for 0/1 judges the mean rank orders the items by their yes votes, whatever each judge's
    rate (the two letters' mean ranks differ by exactly 1/2).
    """
    from scipy.stats import rankdata

    return np.mean(rankdata(columns, axis=0) / columns.shape[0], axis=1)


def normal_scores(values: np.ndarray) -> np.ndarray:
    """Φ⁻¹ of each value's pool rank, (rank − 1/2)/n (ties: their mean rank): the pool alone."""
    from scipy.stats import norm, rankdata

    return norm.ppf((rankdata(values) - 0.5) / values.size)


def _stack_cells(means: np.ndarray, cov: list[tuple[list, np.ndarray]]) -> tuple[list, Any]:
    """(each item's cell key, each item's feature row) of a stacked jury.

    The cell crosses the members' pool-quantile bins and the covariate levels (L of them):
    max(2, ⌊(:data:`STACK_CELLS` / L)^(1/J)⌋) bins per score; the features are 1, the members'
    :func:`normal_scores` and the covariates'.
    """
    levels = np.prod([len(set(lv)) for lv, _ in cov]) if cov else 1
    per = max(2, int((STACK_CELLS / levels) ** (1.0 / means.shape[1])))
    parts = [score_cells(c, per) if is_score(c) else (c >= 0.5).astype(int).tolist()
             for c in means.T]  # fmt: skip
    parts += [levels for levels, _ in cov]
    feats = [np.ones(means.shape[0]), *(normal_scores(c) for c in means.T)]
    feats += [col for _, cols in cov for col in cols.T]
    return list(zip(*parts, strict=True)), np.column_stack(feats)


def _covariate_stack(g: Any, col: str) -> tuple[list, np.ndarray]:
    """Return (each item's covariate level, its feature columns).

    A float's feature is its normal score; a category's, its indicators (first level out).
    """
    levels = _covariate_levels(g, col)
    first = g[col].first()
    if first.dtype.kind == "f":
        return levels, normal_scores(g[col].mean().to_numpy(float))[:, None]
    values = first.to_numpy()
    names = sorted(set(values.tolist()), key=repr)[1:]
    return levels, np.column_stack([values == v for v in names] or [np.zeros(values.size)])


def _numeric(df: Any, col: str, what: str) -> np.ndarray:
    values = df[col].to_numpy()
    if values.dtype.kind == "b":
        return values.astype(float)
    if values.dtype.kind not in "iuf":
        raise ArgumentTypeError(
            f"{what} column {col!r} must be numeric (0/1 letters or a score), got "
            f"{values.dtype} (first value {values[0]!r})"
        )
    return values.astype(float)


def _covariate_levels(g: Any, col: str) -> list:
    """Return each item's covariate level: its category, or a float's pool-quantile bin."""
    first = g[col].first()
    if first.dtype.kind != "f":
        return first.tolist()
    return score_cells(g[col].mean().to_numpy(float), COVARIATE_BINS, what=col)


def _scored_cells(g: Any, judge: tuple[str, ...], combine: str, score_bins: int) -> tuple:
    """(each item's bin, each item's letters within it or None) of a score or a jury."""
    means = np.column_stack([g[j].mean().to_numpy(float) for j in judge])
    if len(judge) == 1:
        return score_cells(means[:, 0], score_bins), None
    bins = score_cells(jury_rank(means), score_bins, what="jury mean rank")
    if combine == "mean":
        return bins, None
    letters = np.empty_like(means, dtype=int)
    for k, col in enumerate(means.T):  # a 0/1 judge's letter, a score's half of the pool
        letters[:, k] = col >= (0.5 if not is_score(col) else np.median(col))
    return bins, ["".join(map(str, row)) for row in letters.tolist()]


def frame_pool(
    frame: Any, *, item: str | None, judge: Any, by: tuple[str, ...], strata: tuple[str, ...],
    score_bins: int = SCORE_BINS, covariates: tuple[str, ...] = (), combine: Any = None,
) -> dict[Any, PoolItems]:  # fmt: skip
    """Group → :class:`PoolItems` of a judged pool frame.

    An item's cell is its judge letter (within its strata), or :data:`MIXED` when its rows
    carry different letters. A numeric score (:func:`is_score`) is binned instead: an item's
    cell is the bin of its mean score among ``score_bins`` quantile bins of the group's pool
    (:func:`score_cells`). A jury (``judge`` a list) is binned by its members' mean pool rank
    (:func:`jury_rank`); with ``combine="letters"`` its members' letters split each bin.
    ``covariates`` are strata (a float column cut into :data:`COVARIATE_BINS` pool-quantile
    bins). Where the cells split the bins, each cell records its bin (``parent``). Rows
    without a verdict are refused.
    """
    members, combine = check_jury(judge, combine)
    item_cols = [item] if item else []
    cols = list(dict.fromkeys([*by, *item_cols, *members, *strata, *covariates]))
    df = _pandas(frame, cols)
    for j in members:
        if df[j].isna().any():
            row = int(np.flatnonzero(df[j].isna().to_numpy())[0])
            raise LabelError(
                f"the pool has a row without a judge verdict ({j!r} empty at row {row})"
            )
    for c in covariates:
        if df[c].isna().any():
            row = int(np.flatnonzero(df[c].isna().to_numpy())[0])
            raise LabelError(f"covariate {c!r} is empty at row {row}: a covariate is needed "
                             "on every row of the pool")  # fmt: skip
    if len(members) > 1:
        for j in members:
            df[j] = _numeric(df, j, "jury member")
    if item is None:
        df = df.assign(_item=np.arange(len(df)))
        item = "_item"
    scored = len(members) > 1 or is_score(df[members[0]].to_numpy())
    out = {}
    groups = df.groupby(list(by), sort=True, dropna=False) if by else [((), df)]
    for key, part in groups:
        g = part.groupby(item, sort=True)
        first = g.first()
        cell, names, parent, features = _group_cells(
            g, first, members, combine, strata, covariates, score_bins, scored
        )
        key = key if not by or len(by) > 1 else key[0] if isinstance(key, tuple) else key
        out[key] = PoolItems(first.index.to_numpy(), cell, g.size().to_numpy(float), names,
                             scored, parent, features)  # fmt: skip
    return out


def _group_cells(g: Any, first: Any, members: tuple, combine: str, strata: tuple,
                 covariates: tuple, score_bins: int, scored: bool) -> tuple:  # fmt: skip
    """(each item's cell, the cell names, each cell's bin or None, the cells' features or None)."""
    if combine == "stack":
        means = np.column_stack([g[j].mean().to_numpy(float) for j in members])
        cov = [(first[c].tolist(), np.zeros((len(first), 0))) for c in strata]
        keys, item_x = _stack_cells(means, cov + [_covariate_stack(g, c) for c in covariates])
        cell, names = _cell_names(keys, None)
        features = np.column_stack([np.bincount(cell, weights=col) for col in item_x.T])
        return cell, names, None, features / np.bincount(cell)[:, None]
    extra = [first[c].tolist() for c in strata] + [_covariate_levels(g, c) for c in covariates]
    if not scored:
        letter = first[members[0]].where(g[members[0]].nunique().to_numpy() == 1, MIXED)
        cell, names = _cell_names(letter.tolist(), extra or None)
        return cell, names, None, None
    bins, letters = _scored_cells(g, members, combine, score_bins)
    if letters is not None:
        extra.append(letters)
    keys = list(zip(bins, *extra, strict=True)) if extra else bins
    cell, names = _cell_names(keys, None)  # sorted by bin first: the score's order
    return cell, names, _parents(names) if extra else None, None


def _parents(names: tuple) -> np.ndarray | None:
    """Each cell's bin index (bins in the score's order), or None when no bin is split."""
    bins = sorted({n[0] for n in names})
    parent = np.array([bins.index(n[0]) for n in names])
    return None if len(bins) == len(names) else parent


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
