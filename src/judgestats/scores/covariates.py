"""Covariates of a judged row (length, position, category): a predictor or strata, by design.

``covariates=`` on :func:`judgestats.scores.correct_scores` (and ``js.evaluate``) take one of two
roles, fixed by the calibration design (recorded on the result as ``covariates_used_as``):

* ``design="random"``: **the predictor.** The labelled rows are a simple random sample, so any
  predictor fitted by cross-fitting keeps the prediction-powered mean unbiased
  (:mod:`judgestats.scores.prediction_powered`). The score (or the 0/1 letter) and the
  covariates enter one logistic calibrator side by side (:func:`covariate_matrix`: a number
  is one standardised column, a category one 0/1 column per level but the first), fitted in
  the same folds as the score alone. A covariate that carries nothing costs its fitted noise,
  which the power tuning λ̂ keeps small (``benchmarks/results/scores.md``, part 4).
* ``design="by-human-label"`` or ``"by-judge-label"``: **strata.** The labelled rows were
  sampled on a label, so a predictor fitted on them is not the population's; the covariates
  define strata instead (:func:`covariate_strata`), each with its own confusion matrix, pooled
  by the test mix (:func:`judgestats.correct_stratified`, paper "Limitations and Future Work",
  item 2). The judge must then be a 0/1 letter, and a covariate with more than
  :data:`MAX_LEVELS` values (a length, a continuous score) needs bins declared in advance
  (``covariate_bins=``); it is refused by name otherwise.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

import numpy as np

from .._validation import ArgumentTypeError, LabelError
from .._validation.labels import check_bins
from .calibration import bin_codes

__all__ = ["MAX_LEVELS", "CodedCategory", "covariate_matrix", "covariate_strata",
           "predictor_columns", "stratified_letters"]

#: A covariate used as strata with more distinct values than this needs declared bins
#: (``covariate_bins=``): ten strata already need ten calibration sets of both classes.
MAX_LEVELS = 10


def _is_number(col: np.ndarray) -> bool:
    return col.dtype.kind in "iuf"


def _factorize(col: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted levels (as strings) of a category column and each row's code."""
    try:  # pandas' hash table: 20× faster than sorting 10^5 Python strings
        import pandas as pd

        codes, uniques = pd.factorize(col.astype(str) if col.dtype.kind != "O" else col,
                                      sort=True)  # fmt: skip
        levels = np.asarray([str(u) for u in uniques])
        if np.all(levels[:-1] < levels[1:]):  # the same sorted order as the strings'
            return levels, np.asarray(codes)
    except (ImportError, TypeError):  # pragma: no cover - pandas is in the frames extra
        pass
    return np.unique(col.astype(str), return_inverse=True)


class CodedCategory(NamedTuple):
    """A category column already coded, by the frame's engine, for many rows at once.

    ``codes``: each row's index into ``levels``, the column's distinct strings in sorted order
    (``js.evaluate`` codes a string covariate once on pandas, polars or DuckDB, as it codes the
    group keys, and hands each group its rows' codes; no missing value, the engine checked).
    :func:`covariate_matrix` encodes it as it encodes the strings themselves.
    """

    codes: np.ndarray
    levels: np.ndarray

    def take(self, rows: np.ndarray) -> CodedCategory:
        """Return the same column at ``rows`` (an index array)."""
        return CodedCategory(self.codes[rows], self.levels)

    def present(self) -> tuple[np.ndarray, np.ndarray]:
        """Return the levels these rows hold (sorted) and each row's code among them."""
        count = np.bincount(self.codes, minlength=self.levels.size)
        held = count > 0
        return self.levels[held], (np.cumsum(held) - 1)[self.codes]

    def strings(self) -> np.ndarray:
        """Return the column as its strings (an object array)."""
        return self.levels.astype(object)[self.codes]


def covariate_matrix(cols: dict[str, Any]) -> tuple[np.ndarray, list[str]]:
    """Encode the covariates as a float matrix (rows × columns) and name each column.

    A column of numbers is one column (standardised later, per fold, by the calibrator); any
    other column (strings, booleans, objects; or a :class:`CodedCategory`) is a category: one
    0/1 column per level except the first in sorted order (``"name=level"``).
    """
    blocks, names = [], []
    for name, col in cols.items():
        if isinstance(col, CodedCategory):
            levels, codes = col.present()
        elif _is_number(col):
            if np.all(col == col[0]):
                continue  # one value: nothing to say
            blocks.append(col.astype(float)[:, None])
            names.append(name)
            continue
        else:
            levels, codes = _factorize(col)
        if levels.size < 2:
            continue  # one level: nothing to say
        blocks.append((codes[:, None] == np.arange(1, levels.size)[None, :]).astype(float))
        names.extend(f"{name}={lev}" for lev in levels[1:])
    if not blocks:
        first = next(iter(cols.values()))
        rows = (first.codes if isinstance(first, CodedCategory) else first).shape[0]
        return np.empty((rows, 0)), []
    return np.hstack(blocks), names


def predictor_columns(s: np.ndarray, matrix: np.ndarray,
                      order: Literal["C", "F"] = "C") -> np.ndarray:  # fmt: skip
    """Lay out the logistic calibrator's columns: [score, covariates, their products with it].

    ``order="F"`` lays each column out contiguously (the calibrator's averaged prediction reads
    the unlabelled rows column by column); the values are the same either way.
    """
    p = matrix.shape[1]
    out = np.empty((s.size, 1 + 2 * p), order=order)
    out[:, 0] = s
    out[:, 1 : 1 + p] = matrix
    np.multiply(s[:, None], matrix, out=out[:, 1 + p :])
    return out


def _bin_label(edges: np.ndarray, code: int) -> str:
    close = "]" if code == edges.size - 2 else ")"
    return f"[{edges[code]:g}, {edges[code + 1]:g}{close}"


def covariate_strata(cols: dict[str, np.ndarray], bins: Any = None) -> np.ndarray:
    """Return each row's stratum (a label, or a tuple of labels with several covariates).

    ``bins``: a mapping covariate name → edges declared before labelling (the convention of
    :func:`judgestats.judge_letters`: [e_j, e_{j+1}), the last bin closed). A numeric covariate
    with more than :data:`MAX_LEVELS` distinct values and no bins is refused by name.
    """
    bins = {} if bins is None else dict(bins)
    cols = {k: v.strings() if isinstance(v, CodedCategory) else v for k, v in cols.items()}
    unknown = sorted(set(bins) - set(cols))
    if unknown:
        raise ArgumentTypeError(
            f"covariate_bins names {unknown} that are not covariates (have {sorted(cols)})"
        )
    labels = []
    for name, col in cols.items():
        if name in bins:
            if not _is_number(col):
                raise ArgumentTypeError(f"covariate_bins[{name!r}]: {name!r} is not numeric")
            edges = check_bins(bins[name])
            outside = (col < edges[0]) | (col > edges[-1])
            if outside.any():
                first = int(np.flatnonzero(outside)[0])
                raise LabelError(
                    f"covariate {name!r} value {col[first]!r} (index {first}) is outside its "
                    f"declared bins [{edges[0]:g}, {edges[-1]:g}]"
                )
            codes = bin_codes(col.astype(float), edges)
            labels.append(np.array([_bin_label(edges, c) for c in range(edges.size - 1)],
                                   dtype=object)[codes])  # fmt: skip
            continue
        if _is_number(col) and np.unique(col).size > MAX_LEVELS:
            raise ArgumentTypeError(
                f"covariate {name!r} has {np.unique(col).size} distinct values (> {MAX_LEVELS}):"
                " under this design covariates are strata, so declare its bins before "
                f"labelling (covariate_bins={{{name!r}: [edges]}}), or use design='random', "
                "where covariates enter the predictor"
            )
        labels.append(col.astype(object))
    if len(labels) == 1:
        return labels[0]
    out = np.empty(labels[0].size, dtype=object)
    out[:] = list(zip(*labels, strict=True))
    return out


def stratified_letters(
    letter: np.ndarray, y: np.ndarray, labelled: np.ndarray, strata: np.ndarray, *,
    items: np.ndarray | None, design: Any, confidence_level: float,
) -> Any:  # fmt: skip
    """Correct a 0/1 judge's rate stratified by ``strata`` (:func:`judgestats.correct_stratified`).

    ``letter``: the judge's 0/1 label on every row; ``y``: the human labels of the
    ``labelled`` rows; ``items``: item codes with repeated items (clustered counts).
    """
    import judgestats as js

    tests, cals = {}, {}
    keys = sorted(set(strata.tolist()), key=repr)
    for key in keys:
        row = np.array([v == key for v in strata.tolist()]) if isinstance(key, tuple) \
            else strata == key
        test, cal = row & ~labelled, row[labelled]
        tests[key] = js.JudgedCounts.from_labels(
            letter[test], cluster=None if items is None else items[test])
        cals[key] = js.ConfusionCounts.from_labels(
            human=y[cal].astype(int), judge=letter[labelled][cal],
            cluster=None if items is None else items[labelled][cal])  # fmt: skip
    return js.correct_stratified(tests, cals, design=design, confidence_level=confidence_level)
