"""Pairwise frames read row by row: a jury, judge probabilities, covariates and style controls.

:func:`judgestats.pairwise.pairwise` counts a frame per ordered pair of models
(:mod:`~judgestats.pairwise.counting`) when each pair's prediction of the human verdict is its
judge letter. A prediction that varies within a pair -- several judges' letters (a jury), a
judge's probability of "A wins", pair-level covariates -- and style controls need the rows
themselves; this module reads them, by the counting module's rules, in the order shown (pairs
shown ``b`` first are turned round: letters swapped, probabilities of a and b swapped, control
differences negated).

What each column may hold
-------------------------
* a jury member (``prediction=[...]`` entry naming a text column): a/tie/b verdicts by the
  counting module's rules, missing allowed (the member said nothing on that row);
* a judge probability (an entry naming a numeric column): P(``model_a`` wins) in [0, 1], or a
  mapping ``{"a": col, "tie": col[, "b": col]}`` of the verdict distribution (a missing share
  is one minus the others);
* a covariate (``covariates=``): numbers, or text read as categories (one indicator each);
* a control (``control=``): a number per row, ``model_a``'s value minus ``model_b``'s (e.g.
  the length difference of the two answers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    ColumnError,
    ProbabilityError,
    VerdictError,
    check_frame_columns,
)
from .counting import _SWAP, _codes, _judge_reader, _read_columns, verdict_code

__all__ = ["PairRows", "RowRequest", "read_rows"]

_SHARES = ("a", "tie", "b")


@dataclass(frozen=True, slots=True)
class RowRequest:
    """What the row path reads besides the pair columns (validated names).

    ``members``: the jury's verdict columns; ``probabilities``: per judge probability, the
    mapping of verdict (a/tie/b) to column; ``covariates``, ``controls``: column names;
    ``letters``: whether the ``judge=`` column's letters enter the predictor (no
    ``prediction=`` columns given).
    """

    members: tuple[str, ...]
    probabilities: tuple[tuple[tuple[str, str], ...], ...]
    covariates: tuple[str, ...]
    controls: tuple[str, ...]
    letters: bool

    @property
    def columns(self) -> tuple[str, ...]:
        """Every column the request reads, once."""
        shares = [c for p in self.probabilities for _, c in p]
        return tuple(dict.fromkeys([*self.members, *shares, *self.covariates, *self.controls]))

    @property
    def predictors(self) -> tuple[str, ...]:
        """The prediction's own columns (jury members and probabilities), in order given."""
        return tuple(dict.fromkeys([*self.members, *(c for p in self.probabilities for _, c in p)]))


@dataclass(frozen=True, slots=True, eq=False)
class PairRows:
    """A pairwise frame, one entry per row, in the order shown.

    ``first``, ``second``: model indices (into ``models``); ``judge``: the ``judge=`` letter;
    ``human``: the human verdict (0 first wins, 1 tie, 2 second wins; −1 none); ``cluster``:
    cluster codes or None; ``members``: (rows, members) verdict codes (−1 missing);
    ``distributions``: per judge probability, (rows, 3) shares (first, tie, second);
    ``covariates``: (rows, c) numbers (categories one-hot); ``controls``: (rows, m) differences
    first minus second.
    """

    models: tuple
    first: np.ndarray
    second: np.ndarray
    judge: np.ndarray
    human: np.ndarray
    cluster: np.ndarray | None
    members: np.ndarray
    distributions: tuple[np.ndarray, ...]
    covariates: np.ndarray
    controls: np.ndarray
    n_judge_letters: int

    @property
    def labelled(self) -> np.ndarray:
        """Rows with a human verdict."""
        return self.human >= 0


def _column_list(value: Any, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    items = (value,) if isinstance(value, str) else value
    if not isinstance(items, Sequence) or not all(isinstance(c, str) for c in items):
        raise ArgumentTypeError(f"{name} must be a column name or a list of them, got {value!r}")
    if len(set(items)) != len(items):
        raise ColumnError(f"{name} names a column more than once: {list(items)!r}")
    return tuple(items)


def _share_map(entry: Mapping) -> tuple[tuple[str, str], ...]:
    keys = set(entry)
    if "a" not in keys or not keys <= set(_SHARES) or len(keys) < 2:
        raise ArgumentTypeError(
            "a judge probability given as a mapping names the columns of P(a) and at least one "
            f"of P(tie), P(b): {{'a': col, 'tie': col[, 'b': col]}}; got {dict(entry)!r}"
        )
    for col in entry.values():
        if not isinstance(col, str):
            raise ArgumentTypeError(f"probability columns must be names, got {dict(entry)!r}")
    return tuple((k, entry[k]) for k in _SHARES if k in entry)


def row_request(prediction: Any, covariates: Any, control: Any, numeric: Any) -> RowRequest:
    """Sort ``prediction=``'s columns into jury members and probabilities (``numeric(col)``).

    Raises
    ------
    ArgumentTypeError
        An entry that is neither a column name nor a probability mapping.
    ColumnError
        A column named twice, or given both as a covariate and a control.
    """
    entries: list = []
    if prediction is not None:
        single = isinstance(prediction, str | Mapping)
        entries = [prediction] if single else list(prediction)
    members, probabilities = [], []
    for entry in entries:
        if isinstance(entry, Mapping):
            probabilities.append(_share_map(entry))
        elif isinstance(entry, str):
            if numeric(entry):
                probabilities.append((("a", entry),))
            else:
                members.append(entry)
        else:
            raise ArgumentTypeError(
                "prediction must name a verdict or probability column, a mapping "
                "{'a': col, 'tie': col[, 'b': col]}, or a list of these; got "
                f"{entry!r}"
            )
    covs, controls = _column_list(covariates, "covariates"), _column_list(control, "control")
    both = sorted(set(covs) & set(controls))
    if both:
        raise ColumnError(
            f"column(s) {both} given as both covariates= and control=: a covariate only sharpens "
            "the prediction, a control changes the strengths; choose one"
        )
    used = [*members, *(c for p in probabilities for _, c in p)]
    if len(set(used)) != len(used):
        raise ColumnError(f"prediction names a column more than once: {used!r}")
    return RowRequest(tuple(members), tuple(probabilities), covs, controls, not entries)


def _numbers(values: np.ndarray, column: str, what: str) -> np.ndarray:
    try:
        out = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"{what} column {column!r} must hold numbers") from None
    bad = ~np.isfinite(out)
    if bad.any():
        raise ProbabilityError(
            f"{what} column {column!r} has {int(bad.sum())} missing or infinite value(s) (row "
            f"{int(np.flatnonzero(bad)[0])}); give every row a number"
        )
    return out


def _distribution(data: dict, shares: tuple, turn: np.ndarray) -> np.ndarray:
    """Return the (rows, 3) shares (first, tie, second) of one judge probability."""
    given = {k: _numbers(data[c], c, "judge probability") for k, c in shares}
    cols = [c for _, c in shares]
    for k, c in shares:
        out = (given[k] < 0) | (given[k] > 1)
        if out.any():
            raise ProbabilityError(
                f"judge probability column {c!r} must be in [0, 1]; got "
                f"{given[k][out][0]!r} (row {int(np.flatnonzero(out)[0])})"
            )
    if len(shares) == 1:  # P(a) alone: a two-way judge, P(b) = 1 − P(a)
        given["tie"] = np.zeros_like(given["a"])
    missing = [k for k in _SHARES if k not in given]
    if missing:
        given[missing[0]] = 1.0 - np.sum(list(given.values()), axis=0)
    dist = np.column_stack([given[k] for k in _SHARES])
    if (dist < -1e-9).any() or (dist > 1 + 1e-9).any():
        raise ProbabilityError(
            f"the judge probabilities {cols!r} must be shares in [0, 1] of at most 1 in all"
        )
    dist = np.clip(dist, 0.0, None)
    total = dist.sum(axis=1, keepdims=True)
    if (np.abs(total - 1.0) > 1e-3).any():
        raise ProbabilityError(f"the judge probabilities {cols!r} must sum to 1 on every row")
    dist = dist / total
    return np.where(turn[:, None], dist[:, ::-1], dist)


def _covariates(data: dict, names: tuple) -> np.ndarray:
    """Numeric covariates as given; a text covariate becomes indicators (first level dropped)."""
    blocks = [np.zeros((len(data[next(iter(data))]) if data else 0, 0))]
    for c in names:
        values = data[c]
        if values.dtype.kind in "biuf":
            blocks.append(_numbers(values, c, "covariate")[:, None])
            continue
        levels, codes = np.unique(np.asarray(values, dtype=str), return_inverse=True)
        blocks.append((codes[:, None] == np.arange(1, levels.size)[None, :]).astype(float))
    return np.hstack(blocks)


def read_rows(
    frame: Any, names: Mapping[str, Any], request: RowRequest, cluster: str | None
) -> PairRows:
    """Read ``frame`` row by row (pair columns ``names``, plus ``request``'s), in the order shown.

    The frame has been counted (and its pair columns checked) by
    :func:`~judgestats.pairwise.count_pairs` already.

    Raises
    ------
    ColumnError
        A named column is missing.
    VerdictError, ProbabilityError, ArgumentTypeError
        A jury verdict, probability, covariate or control that cannot be read.
    """
    from ..frames import _engine_warnings, _narwhals, open_frame

    pair = [names["model_a"], names["model_b"]]
    pair += [names["position"]] if names["position"] is not None else []
    pair += [cluster] if cluster is not None else []
    pair += [names["judge"], names["human"]]
    wanted = list(dict.fromkeys([*pair, *request.columns]))
    nw = _narwhals()
    with _engine_warnings():
        nf = open_frame(nw, frame, ())
        roles = {"prediction": request.predictors, "covariates": request.covariates,
                 "control": request.controls}  # fmt: skip
        check_frame_columns(list(nf.columns), roles)
        picked = nf.select(*wanted)
        if isinstance(picked, nw.LazyFrame):
            picked = picked.collect()
        data = {c: picked[c].to_numpy() for c in wanted}
    columns = [data[c].tolist() for c in pair] + [[1] * len(data[pair[0]])]
    letters, judge_letter = _judge_reader(names["judge_labels"])
    decoded, _ = _read_columns(columns, names["position"] is not None, judge_letter,
                               cluster is not None)  # fmt: skip
    models, first, second, judge, human, _, cl = decoded
    place = {m: i for i, m in enumerate(models)}
    turn = first != np.array([place[str(v)] for v in columns[0]], dtype=np.int64)
    return PairRows(
        models, first, second, judge, human, cl, _members(data, request.members, turn),
        tuple(_distribution(data, p, turn) for p in request.probabilities),
        _covariates(data, request.covariates),
        np.column_stack([np.where(turn, -1.0, 1.0) * _numbers(data[c], c, "control")
                         for c in request.controls]) if request.controls else
        np.zeros((first.size, 0)),
        len(letters),
    )  # fmt: skip


def _members(data: dict, members: tuple, turn: np.ndarray) -> np.ndarray:
    """Jury verdict codes (rows, members), in the order shown; −1 where a member is silent."""
    out = np.full((turn.size, len(members)), -1, dtype=np.int64)
    for m, c in enumerate(members):
        codes = _codes(data[c].tolist(), verdict_code)
        if (codes < -1).any():
            bad = list(dict.fromkeys(data[c][codes < -1].tolist()))[:5]
            raise VerdictError(
                f"jury verdicts ({c!r}) must be 'a'/'model_a', 'b'/'model_b', a text starting "
                f"with 'tie', or missing; got {', '.join(map(repr, bad))}"
            )
        out[:, m] = np.where(turn & (codes >= 0), _SWAP[np.clip(codes, 0, 2)], codes)
    return out
