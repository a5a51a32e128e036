"""``evaluate()`` with a jury combined by ``combine="stack"`` or ``"mean"`` (issue 39).

Several judge columns (0/1 letters or numeric scores) and ``combine="stack"`` or ``"mean"``
(or no ``combine=`` under a design whose measured default is one of them,
:data:`judgestats.jury.combined.DEFAULTS`): each group's rows go to
:func:`judgestats.jury.correct_combined` (loaded on first use). Both need every row's judge
columns (the stack fits a model on the labelled rows, the random design's mean is a score), so
the judge, human, group and cluster columns are collected from the engine once, as the score
path does (:mod:`judgestats.evaluate.scores`), and each group's rows are corrected in sorted
order. ``combine="letters"`` keeps the product letters' counting path
(:mod:`judgestats.evaluate.letters`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import ArgumentTypeError, JudgeStatsError, check_choice, check_rng
from .evaluation import Evaluation
from .per_group import ERRORS, correct_each, corrected

__all__ = ["JURY_OPTIONS", "combined_wanted", "evaluate_combined"]

#: The options of evaluate() a combined jury takes (correct_combined's).
JURY_OPTIONS = ("folds", "threshold")


def combined_wanted(frame: Any, judge: Any, combine: Any, design: Any, *,
                    plain: bool) -> str | None:  # fmt: skip
    """Return ``"stack"`` or ``"mean"`` when several judge columns go to the combined path.

    ``combine`` None is the design's measured default, taken where every judge column is
    numeric or boolean (the frame's schema; judge columns of other letters, such as
    ``"win"``/``"tie"``, stay a judge alphabet); ``plain``: no ``judge_labels``, ``invalid``
    (a judge alphabet's own letters, the letters path).
    """
    from ..jury.combined import COMBINES, default_combine

    if isinstance(judge, str) or not hasattr(judge, "__len__") or len(judge) < 2:
        return None
    chosen = default_combine(design) if combine is None else check_choice("combine", combine,
                                                                          COMBINES)  # fmt: skip
    if chosen == "letters" or not plain:
        return None
    return chosen if combine is not None or _numeric(frame, judge) else None


def _numeric(frame: Any, judge: Any) -> bool:
    """Whether every judge column of the frame is numeric or boolean (a missing one: False)."""
    from ..frames import _engine_warnings, _narwhals, open_frame

    nw = _narwhals()
    with _engine_warnings():
        schema = open_frame(nw, frame, ()).collect_schema()
    return all(str(j) in schema.names() and (schema[str(j)].is_numeric()
                                             or schema[str(j)] == nw.Boolean)
               for j in judge)  # fmt: skip


def evaluate_combined(
    frame: Any, combine: str, *, judge: Any, human: str, by: Any, cluster: str | None,
    bins: Any, design: Any, method: Any, confidence_level: float, options: dict,
    unsupported: dict, rng: Any, errors: str, progress: bool | None, stacklevel: int = 3,
) -> Evaluation:  # fmt: skip
    """Correct every group's jury with ``combine`` (module docstring).

    The columns as :func:`judgestats.evaluate` names them (``judge`` a list); ``unsupported``:
    the arguments of evaluate this path does not take (refused where given).
    """
    from ..jury.combined import correct_combined, stack_spec  # on first use
    from .scores import collect_columns

    given = sorted(k for k, v in unsupported.items() if v not in (None, False))
    if given:
        raise ArgumentTypeError(
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} not available with "
            f"combine={combine!r}: evaluate each stratum as a group, or use combine='letters'"
        )
    extra = sorted(set(options) - set(JURY_OPTIONS))
    if extra:
        raise ArgumentTypeError(
            f"unknown option(s) for combine={combine!r}: {', '.join(extra)}; it takes "
            f"{', '.join(JURY_OPTIONS)}"
        )
    if combine == "stack":  # refused by name before any row is read
        stack_spec(design=design, confidence_level=confidence_level,
                   repeated=cluster is not None)  # fmt: skip
    check_choice("errors", errors, ERRORS)
    gen = check_rng(rng)
    by = (by,) if isinstance(by, str) else tuple(by)
    judges = [str(j) for j in judge]
    data, engine, keys, inverse = collect_columns(
        frame, [*judges, human, *([cluster] if cluster else [])], by)
    if not keys:
        raise JudgeStatsError("the frame has no rows: nothing to evaluate")

    def correct_group(g: Any, label: str) -> Any:
        rows = inverse == keys.index(g)
        return correct_combined(
            {j: data[j][rows] for j in judges}, data[human][rows], combine=combine,
            cluster=None if cluster is None else data[cluster][rows], design=design,
            method=method, bins=bins, confidence_level=confidence_level, rng=gen,
            **options,
        )  # fmt: skip

    corrections, issued, marked = correct_each(by, keys, correct_group, errors=errors,
                                               stacklevel=stacklevel + 1,
                                               progress=progress)  # fmt: skip
    groups = corrected(by, keys, corrections, marked)
    first = corrections[groups[0]]
    return Evaluation(
        groups=tuple(groups), corrections=corrections, by=by, strata=None,
        method=first.method, confidence_level=float(np.float64(confidence_level)),
        judge=", ".join(judges), human=human, split=None, engine=engine, warnings=issued,
        design=first.design, marked=marked,
    )  # fmt: skip
