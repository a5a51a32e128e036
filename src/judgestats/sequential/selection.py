"""From a frame alone: replay the labels so far, and choose the next items to label.

A frame that holds the judged pool and the human labels collected so far (with the ``round``,
``draw`` and ``inclusion_probability`` columns :func:`next_batch` wrote) is all the state a
labelling process needs: :func:`replay` rebuilds the :class:`~judgestats.sequential.Monitor`
round by round, and :func:`next_batch` asks it for the next round.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_choice, check_rng
from .._validation.errors import SequentialError
from .inputs import SCORE_BINS, _pandas, check_names
from .monitor import Monitor, sequence_designs
from .pool import FLOOR, STRATEGY_NAMES, UNIFORM

__all__ = ["STRATEGY_NAMES", "next_batch", "replay"]


def _check_design(labelled: Any, mon: Monitor) -> None:
    """Refuse labels drawn by :func:`next_batch` under another design than the monitor's.

    Their inclusion probabilities are that design's draws: replayed under another, the
    intervals would not hold. The ``strategy`` column :func:`next_batch` wrote says which.
    """
    if "strategy" not in labelled.columns:
        return
    drawn = labelled["strategy"].where(labelled["strategy"].notna(), mon.strategy).astype(str)
    other = drawn != mon.strategy
    if other.any():
        theirs = drawn[other].iloc[0]
        design = next((str(d) for d in sequence_designs() if d.draw_strategy == theirs), theirs)
        where = (f"round(s) {sorted(set(labelled.loc[other, 'round'].tolist()))}"
                 if "round" in labelled.columns else f"{int(other.sum())} labels")  # fmt: skip
        raise SequentialError(
            f"{where} were drawn under design={design!r} (next_batch's strategy {theirs!r}), "
            f"but this monitor's design is {str(mon.design)!r}: its intervals hold only for "
            f"its own draws; replay them under design={design!r}"
        )


def _rounds(labelled: Any, mon: Monitor) -> list[Any]:
    """Split the labelled rows into rounds, each in draw order."""
    _check_design(labelled, mon)
    if "round" not in labelled.columns:
        return [labelled] if len(labelled) else []
    unplaced = labelled[labelled["round"].isna()]
    if len(unplaced) and mon.strategy != UNIFORM:
        raise SequentialError(
            f"{len(unplaced)} labelled rows have no round; under design={str(mon.design)!r} "
            "every label needs the round, draw and inclusion probability next_batch wrote"
        )
    out = [unplaced] if len(unplaced) else []
    placed = labelled[labelled["round"].notna()]
    order = ["round", "draw"] if "draw" in placed.columns else ["round"]
    placed = placed.sort_values(order, kind="stable")
    out += [part for _, part in placed.groupby("round", sort=True)]
    return out


def replay(
    frame: Any, *, design: str, item: str | None = "item", judge: Any = "judge",
    human: str = "human", by: Any = None, strata: Any = None, confidence_level: float = 0.95,
    target_width: float | None = None, estimand: str = "items", floor: float = FLOOR,
    simultaneous: bool = False, rng: Any = None, score_bins: int = SCORE_BINS,
    covariates: Any = None, combine: str | None = None,
) -> Monitor:  # fmt: skip
    """Rebuild the :class:`Monitor` of a labelling process from one frame.

    Parameters
    ----------
    frame : data frame (any engine)
        The judged pool, one row per judged row; ``human`` filled on the rows labelled so far
        (empty elsewhere); under ``"by-judge-label"`` also ``round``, ``draw`` and
        ``inclusion_probability`` on those rows, as :func:`next_batch` wrote them (with its
        ``strategy`` column, labels drawn under another design are refused).
    design, confidence_level, target_width, estimand, floor, simultaneous, rng
        As :class:`Monitor`.
    item, judge, human, by, strata
        Column names (``by`` and ``strata`` one or several); ``judge`` may be a numeric
        judge score or a list of judge columns, a jury (:meth:`Monitor.set_pool`).
    score_bins : int, default 10
        Bins of a numeric judge score, as :meth:`Monitor.set_pool`.
    covariates, combine
        A jury's combination and the covariates, as :meth:`Monitor.set_pool`.

    Returns
    -------
    Monitor
        One look per round, in round order.

    Examples
    --------
    The labels so far live in the pool's frame; ``replay`` rebuilds the monitor from it:

    >>> import numpy as np
    >>> import pandas as pd
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> judge = (rng.random(1000) < 0.4).astype(int)
    >>> truth = np.where(judge == 1, rng.random(1000) < 0.85, rng.random(1000) < 0.1)
    >>> pool = pd.DataFrame({"item": range(1000), "judge": judge,
    ...                      "human": np.where(np.arange(1000) < 200, truth, np.nan)})  # 200 labels
    >>> monitor = js.sequential.replay(pool, design="random", confidence_level=0.95, rng=0)
    >>> monitor.interval  # doctest: +NORMALIZE_WHITESPACE
    ConfidenceInterval(low=0.320809, high=0.464747, method='betting confidence sequence',
    confidence_level=0.95)
    """
    mon = Monitor(design=design, confidence_level=confidence_level, target_width=target_width,
                  estimand=estimand, floor=floor, simultaneous=simultaneous, rng=rng)  # fmt: skip
    mon.set_pool(frame, item=item, judge=judge, by=by, strata=strata, score_bins=score_bins,
                 covariates=covariates, combine=combine)  # fmt: skip
    by_cols = list(check_names("by", by))
    present = _columns(frame)
    if human not in present:  # nothing labelled yet
        return mon
    cols = [*by_cols, item, human] if item else [*by_cols, human]
    extra: list[str] = [c for c in ("round", "draw", "inclusion_probability") if c in present]
    drawn = ["strategy"] if "strategy" in present else []
    df = _pandas(frame, list(dict.fromkeys([*cols, *extra, *drawn])))
    if item is None:
        df = df.assign(_item=np.arange(len(df)))
        item = "_item"
    labelled = _numeric(df[df[human].notna()], extra)
    prob = "inclusion_probability" if "inclusion_probability" in df.columns else None
    for part in _rounds(labelled, mon):
        has_prob = prob is not None and part[prob].notna().all()
        mon.update(part, item=item, human=human, inclusion_probability=prob if has_prob else None)
    return mon


def _numeric(df: Any, columns: list[str]) -> Any:
    """Round, draw and probability columns as numbers (a CSV reader may give text)."""
    import pandas as pd

    out = df.copy()
    for c in columns:
        values = pd.to_numeric(out[c].replace("", np.nan), errors="coerce")
        bad = values.isna() & out[c].notna() & (out[c] != "")
        if bad.any():
            raise SequentialError(
                f"column {c!r} must hold numbers, got {out[c][bad].iloc[0]!r}"
            )
        out[c] = values
    return out


def _columns(frame: Any) -> list[str]:
    from ..frames import _narwhals

    return list(_narwhals().from_native(frame).columns)


def next_batch(
    frame: Any, *, budget: int, strategy: str = UNIFORM, rng: Any = None,
    item: str | None = "item", judge: Any = "judge", human: str = "human", by: Any = None,
    strata: Any = None, confidence_level: float = 0.95, target_width: float | None = None,
    floor: float = FLOOR, score_bins: int = SCORE_BINS, covariates: Any = None,
    combine: str | None = None,
) -> Any:  # fmt: skip
    """Draw the items to send to humans next, each with its inclusion probability.

    Parameters
    ----------
    frame : data frame (any engine)
        The judged pool with the labels so far (see :func:`replay`).
    budget : int
        Items to draw per group (groups already narrower than ``target_width`` get none).
    strategy : {"uniform", "by-judge-label"}
        ``"uniform"``: every unlabelled item equally likely (design ``"random"``).
        ``"by-judge-label"``: within judge letters (and strata) by Neyman allocation from the
        labels so far, q_j ∝ R_j σ̂_j, with a ``floor`` share spread uniformly so no letter
        starves.
    rng : None, int or numpy Generator
        The draws (an int seed makes them reproducible; it is written in the ``seed`` column).
    item, judge, human, by, strata, confidence_level, target_width, floor, score_bins
        As :func:`replay`.
    covariates, combine
        As :func:`replay` (a jury, covariates beside a score).

    Returns
    -------
    pandas.DataFrame
        In draw order: the ``by`` columns, ``item``, ``round``, ``draw``,
        ``inclusion_probability``, ``strategy`` and ``seed``. Fill ``human`` on those rows of
        the frame (keeping these columns) and call :func:`replay` or :func:`next_batch` again.

    See Also
    --------
    plan.labelling_plan : The whole labelling plan.
    sequential.Monitor : Follow the interval as labels arrive.

    Examples
    --------
    The first round of a pool of 1,000 judged items: 50 items drawn within judge letters:

    >>> import pandas as pd
    >>> import judgestats as js
    >>> pool = pd.DataFrame({"item": range(1000), "judge": [1] * 300 + [0] * 700, "human": None})
    >>> batch = js.plan.next_batch(pool, budget=50, strategy="by-judge-label", rng=1)
    >>> len(batch), list(batch.columns)
    (50, ['item', 'round', 'draw', 'inclusion_probability', 'strategy', 'seed'])
    >>> batch["inclusion_probability"].round(4).unique()
    array([0.001 , 0.0011])
    """
    strategy = check_choice("strategy", strategy, STRATEGY_NAMES)
    seed = rng if isinstance(rng, int | np.integer) and not isinstance(rng, bool) else None
    gen = check_rng(rng)
    design = next(d for d in sequence_designs() if d.draw_strategy == strategy)
    mon = replay(frame, design=design, item=item, judge=judge, human=human, by=by,
                 strata=strata, confidence_level=confidence_level, target_width=target_width,
                 floor=floor, rng=gen, score_bins=score_bins, covariates=covariates,
                 combine=combine)  # fmt: skip
    out = mon.next_batch(budget, rng=gen)
    return out.assign(strategy=strategy, seed=seed)
