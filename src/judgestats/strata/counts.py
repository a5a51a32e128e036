"""Strata counted from a frame: test and calibration counts per stratum on the frame's own engine.

:func:`stratified_counts` is the one path from a frame with a stratum column to the
per-stratum counts :func:`judgestats.correct_stratified` takes (through
:func:`judgestats.frames.group_counts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    LabelError,
    check_sparse_strata,
)
from ..counts import ConfusionCounts, JudgedCounts
from ..frames import counts_of, group_counts, named_counts, sort_keys

if TYPE_CHECKING:  # pragma: no cover
    pass
from .merge import _resolve_merge

__all__ = [
    "stratified_counts",
]


# ============================================================================ from a frame
def _plain(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def stratified_counts(
    frame: Any,
    *,
    by: str | tuple[str, ...],
    judge: str = "judge",
    human: str = "human",
    split: str | None = None,
    merge: Any = None,
) -> tuple[dict[Any, JudgedCounts], dict[Any, ConfusionCounts]]:
    """Build the per-stratum test and calibration counts of a labelled data frame.

    Parameters
    ----------
    frame : data frame
        One row per item, with a 0/1 (or bool) judge label, a human label and the stratum
        column(s); any engine :func:`judgestats.evaluate` reads (counted by
        :func:`judgestats.frames.group_counts`, the package's one frame-to-counts path).
    by : str or tuple of str
        Column(s) defining the strata; with several columns a stratum is a tuple of values.
        A missing value is an error.
    judge, human : str
        Label columns. The judge label is required on every row.
    split : str, optional
        Column whose values are ``"test"`` or ``"calibration"``. Without it, rows whose human
        label is present (not missing) are calibration items and the rest are test items.
        With it, test rows' human labels are ignored (a hidden truth, as in a benchmark).
    merge : mapping stratum → stratum, optional
        Relabel strata before counting (binning, or merging a sparse stratum into another);
        keys that name no stratum of this frame are ignored.

    Returns
    -------
    (tests, calibrations) : tuple of dict
        stratum → :class:`JudgedCounts` for strata with test items and stratum →
        :class:`ConfusionCounts` for strata with calibration items, in sorted stratum order.
        A stratum present in only one of them is kept there (so
        :func:`correct_stratified` reports it).

    Raises
    ------
    SparseStratumError
        If a stratum's calibration items all have the same human label (its confusion matrix
        cannot be estimated): merge it with ``merge=``.
    ColumnError, GroupLabelError
        On a missing column, a missing stratum value, bad labels or a bad split value (as
        :func:`judgestats.frames.group_counts`).
    LabelError
        When there are no test rows or no calibration rows.

    Examples
    --------
    Rows with a human label are calibration rows, the others test rows, per stratum:

    >>> import pandas as pd
    >>> import judgestats as js
    >>> frame = pd.DataFrame({"length": ["short"] * 4 + ["long"] * 4,
    ...                       "judge": [1, 0, 1, 0, 1, 1, 1, 0],
    ...                       "human": [1, 0, None, None, 1, 0, None, None]})
    >>> tests, cals = js.strata.stratified_counts(frame, by="length")
    >>> tests["long"], cals["long"]
    (JudgedCounts(positive=1, n=2), ConfusionCounts(tp=1, fn=0, tn=0, fp=1))
    """
    cols = (by,) if isinstance(by, str) else tuple(by) if isinstance(by, list | tuple) else None
    if not cols or not all(isinstance(c, str) for c in cols):
        raise ArgumentTypeError(f"by must be a column name or a tuple of names, got {by!r}")
    counted = group_counts(frame, judge=judge, human=human, by=cols, split=split)
    cells: dict[Any, np.ndarray] = {}
    labels = [key[0] if len(cols) == 1 else key for key in counted.counts]
    mapping = _resolve_merge(merge, labels) if merge is not None else {}
    for label, c in zip(labels, counted.counts.values(), strict=True):
        stratum = mapping.get(label, label)
        cells[stratum] = cells[stratum] + c if stratum in cells else c.copy()
    named = {s: named_counts(cells[s]) for s in sort_keys(list(cells))}
    if not any(c["tp"] + c["fn"] + c["tn"] + c["fp"] for c in named.values()):
        raise LabelError("no calibration rows: no row has a human label (or split='calibration')")
    if not any(c["n"] for c in named.values()):
        how = "every row has a human label" if split is None else "every row is 'calibration'"
        raise LabelError(
            f"no test rows: {how}; pass split= (a column of 'test'/'calibration') to say which "
            "rows form the test set"
        )
    return stratum_pairs({s: cells[s] for s in named})


def stratum_pairs(cells: dict[Any, np.ndarray], items: dict | None = None) -> tuple[dict, dict]:
    """Per-stratum test and calibration counts of cell-code arrays (frames module docstring).

    ``items``: stratum → (item ids, their cell counts) when items repeat (``cluster=``): the
    counts then keep each stratum's item totals (:func:`judgestats.frames.counts_of`).
    A stratum with calibration items of one human class only raises
    :class:`SparseStratumError`; a stratum without test (calibration) rows is left out of the
    tests (calibrations).
    """
    named = {s: named_counts(c) for s, c in cells.items()}
    present = {
        s: (c["tn"] + c["fp"], c["tp"] + c["fn"])
        for s, c in named.items()
        if c["tp"] + c["fn"] + c["tn"] + c["fp"]
    }
    check_sparse_strata(
        present, 1, fix="merge each such stratum into another with merge={stratum: other}"
    )
    pairs = {s: counts_of(c, None if items is None else items[s]) for s, c in cells.items()}
    tests = {s: test for s, (test, _) in pairs.items() if test is not None}
    cals = {s: cal for s, (_, cal) in pairs.items() if cal is not None}
    return tests, cals
