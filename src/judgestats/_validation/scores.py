"""Checks of a numeric judge score's inputs: the scores, the human labels, item ids, folds.

Used by :func:`judgestats.scores.correct_scores` and the paths that take a judge score
(the jury's stack, ``js.compare``'s score sources, the Bayesian score model). Not loaded by
``import judgestats`` (its face does not import it): ``from .._validation.scores import ...``
on first use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import ArgumentTypeError, LabelError

__all__ = ["check_folds", "check_human", "check_items", "check_scores"]


def check_scores(scores: Any) -> np.ndarray:
    """Return ``scores`` as a non-empty 1-D float array with a finite value on every row.

    Raises
    ------
    ArgumentTypeError
        Not numbers, or not 1-D, or empty.
    LabelError
        A missing (NaN) or infinite score, naming the first index.
    """
    try:
        s = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentTypeError(
            f"scores must be a 1-D sequence of numbers, got {type(scores).__name__}"
        ) from None
    if s.ndim != 1 or s.size == 0:
        raise ArgumentTypeError(f"scores must be a non-empty 1-D sequence, got shape {s.shape}")
    bad = np.flatnonzero(~np.isfinite(s))
    if bad.size:
        raise LabelError(
            f"scores has {bad.size} missing or infinite value(s) (first at index {bad[0]}: "
            f"{s[bad[0]]!r}); a score is needed on every row"
        )
    return s


def check_human(human: Any, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (the 0/1 labels of the labelled rows, the mask of labelled rows).

    ``human`` holds 0/1 or booleans on labelled rows and None or NaN on the others, one entry
    per score (``size``).
    """
    try:
        values = np.asarray(human, dtype=float)  # None → NaN, booleans → 0/1
    except (TypeError, ValueError):
        raw = np.asarray(human, dtype=object).ravel()
        first = next(v for v in raw if not isinstance(v, int | float | bool | np.number)
                     and v is not None)  # fmt: skip
        raise LabelError(
            f"human labels must be 0/1 or booleans (None or NaN on unlabelled rows), got "
            f"{first!r}"
        ) from None
    if values.ndim != 1 or values.size != size:
        raise ArgumentTypeError(
            f"human must be 1-D with one entry per score ({size}), got shape {values.shape}"
        )
    labelled = ~np.isnan(values)
    bad = np.flatnonzero(labelled & (values != 0) & (values != 1))
    if bad.size:
        raise LabelError(
            f"human labels must be 0/1 or booleans (None or NaN on unlabelled rows), got "
            f"{values[bad[0]]!r} at index {bad[0]}"
        )
    return values[labelled], labelled


def check_items(cluster: Any, size: int) -> np.ndarray | None:
    """Return the item code (0 … C − 1, ids sorted as strings) of each row; None without.

    ``cluster``: the item each of the ``size`` rows judges; no id may be missing.
    """
    if cluster is None:
        return None
    ids = np.asarray(cluster, dtype=object)
    if ids.ndim != 1 or ids.size != size:
        raise ArgumentTypeError(
            f"cluster must be 1-D with one item id per score ({size}), got shape {ids.shape}"
        )
    if any(v is None or (isinstance(v, float) and np.isnan(v)) for v in ids):
        raise LabelError("cluster has missing item ids: every row needs the item it judges")
    _, codes = np.unique(ids.astype(str), return_inverse=True)
    return codes.astype(np.int64)


def check_folds(folds: Any) -> int:
    """Return ``folds`` (the cross-fit's folds) as an int, refusing anything but an int >= 2."""
    if isinstance(folds, bool) or not isinstance(folds, int | np.integer) or folds < 2:
        raise ArgumentTypeError(f"folds must be an integer >= 2, got {folds!r}")
    return int(folds)
