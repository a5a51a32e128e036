"""``evaluate()`` with a numeric judge score: every group's score calibrated, then PPI++.

When the judge column is a score (:func:`score_wanted`) each group goes to
:func:`judgestats.scores.correct_scores` (loaded on first use). The rule, decided before any
group is corrected:

* ``calibrator=`` given: a score (whatever the column's type);
* else, under a design the capability table's ``"score"`` row holds (``"random"``) and with
  no ``bins=``, ``judge_labels=``, ``invalid=`` (a judge alphabet, as before), ``strata=``,
  ``split=`` or ``batch=``: a column of floats whose values are not all 0/1 (missing values
  aside) is a score. The engine answers that with one aggregate over the judge column, run
  only for a float column and after the letter path's spec is resolved (a bad method or level
  is refused before any row is read); an integer or boolean column stays a letter (a 1–10
  integer rating is a score with ``calibrator=``, or an alphabet with ``bins=``). Under the
  other designs such a column is what it was: labels outside 0/1, refused naming the values;
* ``calibrator=`` on a column that holds only 0/1 values is refused by name (a letter, not a
  score: ambiguous).

A score needs each group's labelled rows' scores and its unlabelled scores' calibrated mean, so
the judge, human, cluster and covariate columns are collected from the engine (narwhals; a lazy
frame is collected once), one group column's keys coded by the engine, and each group's rows
(one slice of a radix sort of the codes) are corrected in sorted order.

``covariates=[cols]`` (:func:`covariate_role`): under a design the ``"score"`` row holds they go
to each group's :func:`~judgestats.scores.correct_scores` (the predictor); under the others they
are added to ``strata=`` for the letter path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import ArgumentTypeError, JudgeStatsError, check_rng
from ..frames import GroupCounts, _engine_name, _engine_warnings, _narwhals, open_frame
from .evaluation import Evaluation
from .per_group import correct_each, corrected

__all__ = ["SCORE_OPTIONS", "collect_columns", "covariate_role", "evaluate_scores", "group_codes",
           "score_wanted", "takes_scores"]

#: The options of evaluate() that only a judge score takes.
SCORE_OPTIONS = ("calibrator", "folds", "threshold")


def _non_binary(nw: Any, nf: Any, judge: str) -> bool:
    """Whether a float column holds a value other than 0 and 1 (NaN and null aside)."""
    c = nw.col(judge)
    odd = (~c.is_in([0.0, 1.0]) & ~c.is_nan()).fill_null(False)
    out = nf.select(odd.sum().alias("odd"))
    if isinstance(out, nw.LazyFrame):
        out = out.collect()
    return bool(out["odd"].to_numpy()[0] > 0)


def takes_scores(design: Any, repeated: bool) -> bool:
    """Whether the capability table has a ``"score"`` row for this design (no error if not)."""
    from ..designs.capabilities import rows

    return any(r.matches("score", "rate", design, repeated) for r in rows())


def score_wanted(frame: Any, *, judge: Any, calibrator: Any, letters: bool) -> bool:
    """Tell whether ``evaluate`` reads the judge column as a score (module docstring)."""
    if calibrator is None and (letters or not isinstance(judge, str)):
        return False
    if not isinstance(judge, str):
        raise ArgumentTypeError(
            f"calibrator= takes one judge score column, got judge={judge!r}"
        )
    nw = _narwhals()
    with _engine_warnings():
        nf = open_frame(nw, frame, ())
        schema = nf.collect_schema()
        if judge not in schema.names() or not schema[judge].is_numeric():
            return False if calibrator is None else _not_numeric(judge, schema)
        binary = not (schema[judge].is_float() and _non_binary(nw, nf, judge))
    if binary and calibrator is not None and schema[judge].is_float():
        raise ArgumentTypeError(
            f"judge column {judge!r} holds only 0/1 values: a letter, not a score; drop "
            f"calibrator={calibrator!r} (or give the score itself)"
        )
    return calibrator is not None or not binary


def covariate_role(frame: Any, covariates: Any, *, strata: Any, design: Any, judge: Any,
                   repeated: bool, rater: Any = None) -> tuple[list[str] | None, Any]:  # fmt: skip
    """Route ``covariates=``: (columns for the predictor, or None; the strata to use).

    Under a design the capability table's ``"score"`` row holds (``"random"``) the covariates
    enter the predictor (:mod:`judgestats.scores.covariates`); under the others they are
    strata, added to ``strata``, and a column of floats is refused by name (strata need
    declared levels: bin it into a column before labelling). None gives (None, ``strata``).
    """
    if covariates is None:
        return None, strata
    if rater is not None:
        raise ArgumentTypeError("covariates= is not available with rater= yet: evaluate the "
                                "raters' reference without covariates")  # fmt: skip
    cols = [covariates] if isinstance(covariates, str) else covariates
    if not isinstance(cols, list | tuple) or not cols or not all(isinstance(c, str)
                                                                for c in cols):  # fmt: skip
        raise ArgumentTypeError(
            f"covariates must be a column name or a list of column names, got {covariates!r}"
        )
    if isinstance(frame, GroupCounts):
        raise ArgumentTypeError("covariates= needs the frame's rows, not its GroupCounts")
    if takes_scores(design, repeated):
        if not isinstance(judge, str):
            raise ArgumentTypeError(
                f"covariates= under design={str(design)!r} enter one judge column's predictor, "
                f"got judge={judge!r}"
            )
        return list(cols), strata
    nw = _narwhals()
    with _engine_warnings():
        schema = open_frame(nw, frame, ()).collect_schema()
    for c in cols:
        if c in schema.names() and schema[c].is_float():
            raise ArgumentTypeError(
                f"covariate column {c!r} is {schema[c]}: under design={str(design)!r} "
                "covariates are strata, so bin it into a column of declared levels before "
                "labelling, or use design='random', where covariates enter the predictor"
            )
    given = () if strata is None else ((strata,) if isinstance(strata, str) else tuple(strata))
    return None, (*given, *cols)


def _not_numeric(judge: str, schema: Any) -> bool:
    what = "is missing" if judge not in schema.names() else f"is {schema[judge]}, not numeric"
    raise ArgumentTypeError(f"judge score column {judge!r} {what}")


def collect_columns(frame: Any, names: list[str], by: tuple,
             categories: tuple = ()) -> tuple[dict, str, list, np.ndarray]:  # fmt: skip
    """Collect the named columns once: (numpy arrays, engine, sorted group keys, group codes).

    With one group column the engine maps each key to its code (``replace_strict``), so 10^6
    strings never become Python objects; with several, the keys are tuples built in Python.
    Each of ``categories`` (covariate columns among ``names``) that holds strings and no
    missing value is coded by the engine the same way (:func:`_category_codes`).
    """
    nw = _narwhals()
    with _engine_warnings():
        nf = open_frame(nw, frame, ())
        engine = _engine_name(nw, nf)
        picked = nf.select(*dict.fromkeys([*by, *names]))
        if isinstance(picked, nw.LazyFrame):
            picked = picked.collect()
        coded = {c: _category_codes(nw, picked[c]) for c in categories}
        data = {c: coded.get(c) or picked[c].to_numpy() for c in dict.fromkeys(names)}
        if len(by) == 1 and picked[by[0]].null_count() == 0:
            return (data, engine, *_engine_codes(nw, picked[by[0]]))
        data.update({c: picked[c].to_numpy() for c in by})
    keys, inverse = group_codes(data, by)
    return data, engine, keys, inverse


def _category_codes(nw: Any, col: Any) -> Any:
    """Code a string column without missing values on the engine (a ``CodedCategory``).

    None for any other column (numbers; booleans; a pandas object column that holds anything
    but strings; a column with a missing value): it reaches ``correct_scores`` as its values,
    checked and encoded there, as before. Both ways give the same matrix
    (:func:`judgestats.scores.covariates.covariate_matrix`): the levels sorted as strings.
    """
    from ..scores.covariates import CodedCategory

    if col.dtype != nw.String or col.null_count() > 0:
        return None
    native = col.to_native()
    if getattr(native, "dtype", None) is np.dtype(object):
        import pandas as pd

        if pd.api.types.infer_dtype(native, skipna=False) != "string":
            return None
    levels, codes = _engine_codes(nw, col)
    return CodedCategory(codes, np.asarray([str(v) for v in levels]))


def group_codes(data: dict, by: tuple) -> tuple[list, np.ndarray]:
    """Sorted group keys and each row's group index."""
    if len(by) == 1:
        try:  # pandas' hash factorisation: O(rows), where sorting 10^6 strings takes seconds
            import pandas as pd

            codes, values = pd.factorize(data[by[0]], sort=True)
        except ImportError:  # pragma: no cover - pandas is there with the frames extra
            values, codes = np.unique(data[by[0]], return_inverse=True)
        return [k.item() if hasattr(k, "item") else k for k in values], np.asarray(codes)
    rows = list(zip(*(data[c].tolist() for c in by), strict=True))
    tuples = sorted(set(rows))
    index = {k: i for i, k in enumerate(tuples)}
    return tuples, np.array([index[r] for r in rows])


#: The old private names (a module that imported them keeps working).
_columns, _groups = collect_columns, group_codes


def _engine_codes(nw: Any, key: Any) -> tuple[list, np.ndarray]:
    """Sorted keys of one group column and each row's code, computed by the engine."""
    native = key.to_native()
    if type(native).__module__.startswith("pandas"):
        import pandas as pd

        codes, uniques = pd.factorize(native, sort=True)  # pandas' hash table: O(rows)
        return [k.item() if hasattr(k, "item") else k for k in uniques], np.asarray(codes)
    keys = sorted(key.unique().to_list())
    codes = key.replace_strict(keys, list(range(len(keys))), return_dtype=nw.Int32)
    return keys, np.asarray(codes.to_numpy())


def evaluate_scores(
    frame: Any, spec: Any, *, columns: dict, options: dict, rng: Any, errors: str,
    progress: bool | None, stacklevel: int,
) -> Evaluation:  # fmt: skip
    """Correct every group's judge score under ``spec`` (the capability table's score row).

    ``columns``: ``judge``, ``human``, ``by`` (a tuple), ``cluster`` (or None) and ``bins``;
    ``options``: ``calibrator``, ``folds``, ``threshold`` as :func:`correct_scores` takes them.
    """
    from ..scores import correct_scores  # on first use: `import judgestats` stays light

    by, judge, human, cluster = (columns[k] for k in ("by", "judge", "human", "cluster"))
    covs = list(columns.get("covariates") or ())
    own = {judge, human, cluster, *by}
    data, engine, keys, inverse = collect_columns(
        frame, [judge, human, *([cluster] if cluster else []), *covs], by,
        categories=tuple(c for c in dict.fromkeys(covs) if c not in own))
    if not keys:
        raise JudgeStatsError("the frame has no rows: nothing to evaluate")
    gen = check_rng(rng)
    small = inverse.astype(np.int16) if len(keys) < 2**15 else inverse  # radix sort: O(rows)
    order = np.argsort(small, kind="stable")  # each group's rows one slice, in row order
    bounds = np.searchsorted(inverse[order], np.arange(len(keys) + 1))
    position = {g: i for i, g in enumerate(keys)}

    def column(name: str, i: int) -> Any:
        rows = order[bounds[i]:bounds[i + 1]]
        col = data[name]
        return col.take(rows) if hasattr(col, "take") and not isinstance(col, np.ndarray) \
            else col[rows]

    def correct_group(g: Any, label: str) -> Any:
        i = position[g]
        return correct_scores(
            column(judge, i), column(human, i),
            cluster=None if cluster is None else column(cluster, i), bins=columns["bins"],
            covariates={c: column(c, i) for c in covs} if covs else None,
            confidence_level=spec.confidence_level, design=spec.design, rng=gen, **options,
        )  # fmt: skip

    corrections, issued, marked = correct_each(by, keys, correct_group, errors=errors,
                                               stacklevel=stacklevel + 1,
                                               progress=progress)  # fmt: skip
    groups = corrected(by, keys, corrections, marked)
    return Evaluation(
        groups=tuple(groups), corrections=corrections, by=by, strata=None, method=spec.method,
        confidence_level=spec.confidence_level, judge=judge, human=human, split=None,
        engine=engine, warnings=issued, design=spec.design, marked=marked,
    )  # fmt: skip
