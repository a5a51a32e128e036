"""Monitor: an anytime-valid interval for a pool's human rate while humans label in rounds.

The estimand is the human rate over the fixed pool of judged items (each item weight 1, or
each of its rows weight 1), so the judge letters' shares in the pool are known exactly. Items
are labelled in rounds; each label feeds the prediction-powered Horvitz–Thompson increment of
:mod:`judgestats.sequential.pool`, and the increments feed a betting confidence sequence
(:mod:`judgestats.sequential.betting`). With probability >= ``confidence_level`` the pool's rate
is inside every interval the monitor ever shows, so stopping whenever it looks narrow enough is
safe. Per group; with ``simultaneous=True`` each of G groups runs at level 1 − α/G (Bonferroni),
so all groups' sequences hold at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    MethodError,
    check_choice,
    check_positive_int,
    check_probability,
    check_rng,
)
from .._validation.errors import SequentialError
from ..designs import Design, as_design
from ..designs.capabilities import capability, rows
from ..results import ConfidenceInterval, group_label
from ..spec import EstimationSpec, resolve_spec
from .betting import BettingSequence, bet, horizon
from .inputs import (
    SCORE_BINS,
    PoolItems,
    check_names,
    check_score_bins,
    counts_batch,
    counts_pool,
    frame_batch,
    frame_pool,
)
from .pool import FLOOR, UNIFORM, PoolState, cell_probabilities
from .stacking import REFIT

__all__ = ["DESIGNS", "ESTIMANDS", "METHOD", "STRATEGIES", "Monitor", "sequence_spec"]

#: the monitor's path in the capability table: a pass/fail judge, the pool's rate in rounds
JUDGE, TARGET = "letter", "rate-sequence"


def sequence_designs() -> tuple[Design, ...]:
    """Return the designs a labelling process can have: the capability table's, in its order."""
    found = (d for r in rows() if (r.judge, r.target) == (JUDGE, TARGET) for d in r.designs)
    return tuple(dict.fromkeys(as_design(d) for d in found))


#: the designs a labelling process can have (the capability table's), and the strategy that
#: draws each (``design.draw_strategy``)
DESIGNS = tuple(str(d) for d in sequence_designs())
STRATEGIES = {str(d): d.draw_strategy for d in sequence_designs()}
ESTIMANDS = ("items", "rows")
#: what the monitor's interval is, as results name their method
METHOD = "betting confidence sequence"
#: the implementation of each interval method of the monitor's rows of the capability table
#: (the table decides which a path offers)
SEQUENCES = {"betting": BettingSequence}
_RTOL = 1e-6


def sequence_spec(design: Any, confidence_level: Any, estimand: Any) -> EstimationSpec:
    """Resolve a labelling process's spec: its design, the betting sequence, level and estimand.

    Raises
    ------
    SequentialError
        A design no labelling process can have (its row of the capability table is missing:
        ``"by-human-label"`` chooses items within human labels, unknown before labelling).
    MethodError, ArgumentTypeError, ConfidenceLevelError
        An unknown design or estimand, or a bad level.
    """
    try:
        design = as_design(design)
    except MethodError:  # an unknown name: the error lists the designs labelling can have
        check_choice("design", design, [str(d) for d in sequence_designs()])
        raise
    try:
        capability(JUDGE, TARGET, design, False)
    except MethodError:
        why = ""
        if design.sampled_within == "human":
            why = (" (its items are chosen within human labels, and the human label is unknown "
                   "until an item is labelled)")  # fmt: skip
        use = " or ".join(repr(str(d)) for d in sequence_designs())
        raise SequentialError(
            f"design={str(design)!r} cannot happen while labelling{why}; use design={use}"
        ) from None
    return resolve_spec(judge=JUDGE, target=TARGET, design=design, method=None,
                        method_optional=True, confidence_level=confidence_level,
                        estimand=estimand)  # fmt: skip


@dataclass
class _Process:
    """One group's labelling process: its items, pool state and confidence sequence."""

    pool: PoolItems
    state: PoolState
    sequence: BettingSequence
    weight: np.ndarray
    index: dict = field(default_factory=dict)
    labelled: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    available: list = field(default_factory=list)  # per cell, the unlabelled positions
    slot: np.ndarray = field(default_factory=lambda: np.zeros(0, int))  # place in that list

    @classmethod
    def build(cls, pool: PoolItems, level: float, estimand: str, method: str) -> _Process:
        n_cells = len(pool.cells)
        weight = np.ones(pool.items.size)
        if estimand == "rows":
            weight = pool.rows * pool.items.size / pool.rows.sum()
        size = np.bincount(pool.cell, minlength=n_cells)
        wsum = np.bincount(pool.cell, weights=weight, minlength=n_cells)
        wmax = np.zeros(n_cells)
        np.maximum.at(wmax, pool.cell, weight)
        state = PoolState(size, wsum, wmax, pool.scored, pool.parent)
        proc = cls(pool, state, SEQUENCES[method](level), weight)
        proc.index = {k: i for i, k in enumerate(pool.items.tolist())}
        proc.labelled = np.zeros(pool.items.size, bool)
        proc.available = [np.flatnonzero(pool.cell == c).tolist() for c in range(n_cells)]
        proc.slot = np.zeros(pool.items.size, int)
        for members in proc.available:
            proc.slot[members] = np.arange(len(members))
        return proc

    def take(self, pos: int) -> None:
        """Mark ``pos`` labelled and drop it from its cell's unlabelled list (O(1))."""
        members = self.available[int(self.pool.cell[pos])]
        k, last = int(self.slot[pos]), members[-1]
        members[k] = last
        self.slot[last] = k
        members.pop()
        self.labelled[pos] = True


def _predictor_name(scored: bool, jury: bool, combine: Any, strata: bool, cells: int) -> str:
    """Name the monitor's predictor: what its cells are and how their rates are learned."""
    if not scored:
        return "the labelled rate of the judge's letter" + (" within strata" if strata else "")
    within = "; strata within bins, each shrunk towards its bin's rate" if strata else ""
    if not jury and strata:
        return (f"the labelled rate within the judge score's bin and stratum ({cells} cells), "
                "each shrunk towards its bin's rate")  # fmt: skip
    if not jury:
        return f"the labelled rate within the judge score's bin ({cells} pool-quantile bins)"
    if combine in (None, "stack"):
        cov = ", the covariates' levels and columns" if strata else ""
        return (f"the jury's logistic stack refit every {REFIT} labels, each of {cells} cells "
                f"(the members' crossed bins{cov}) shrunk towards it")  # fmt: skip
    if combine == "letters":
        return (f"the jury's letters within bins of its mean rank ({cells} cells), each shrunk "
                f"towards its bin's rate{within}")  # fmt: skip
    return f"the labelled rate within the jury's mean-rank bin ({cells} cells){within}"


class Monitor:
    """Label in rounds and watch an interval that stays valid however often you look.

    Parameters
    ----------
    design : {"random", "by-judge-label"}
        How the items to label are chosen: uniformly among the unlabelled items, or within
        judge letters with the probabilities :meth:`next_batch` fixes before each round (Neyman
        allocation with a uniform floor). Required: ``"by-human-label"`` (the package's default
        elsewhere) cannot happen while labelling, since the human label is unknown until an
        item is labelled, and is refused.
    confidence_level : float
        The probability that the pool's rate is inside *every* interval of the sequence.
    target_width : float, optional
        Stop once an interval is at most this wide (:attr:`should_stop`); the bets are tuned to
        be tightest near the number of labels this is expected to take.
    estimand : {"items", "rows"}
        The pool's human rate with each item weight 1, or each of its judged rows weight 1.
    tuned_for : int, optional
        The number of labels at which the sequence should be tightest (overrides the tuning
        from ``target_width``; without either, the bets follow Waudby-Smith & Ramdas's
        schedule, tight at no size in particular).
    floor : float
        Under ``"by-judge-label"``, the share of each draw spread uniformly over all unlabelled
        items.
    simultaneous : bool
        Hold for all groups at once (Bonferroni: each group at level 1 − α/G).
    rng : None, int or numpy Generator
        Orders a batch given without a draw order (design ``"random"`` only) and draws the
        items of :meth:`next_batch`.

    See Also
    --------
    sequential.replay : Replay a finished labelling run.
    plan.next_batch : Choose the next items to label.
    plan.calibration_size : Labels needed for a fixed-size study.

    Notes
    -----
    The guarantee (Ville's inequality on a betting martingale; Waudby-Smith & Ramdas 2024,
    JRSS-B 86(1)) needs the items to be drawn as the design says: under ``"random"`` every
    unlabelled item equally likely at each draw; under ``"by-judge-label"`` with the
    probabilities :meth:`next_batch` (or :func:`judgestats.plan.next_batch`) reports, which
    :meth:`update` checks. Looking after every label, every round or at any time chosen from
    the data so far keeps it.

    Examples
    --------
    A pool of 2,000 judged items, labelled 100 at a time until the interval is narrower than 0.15
    (the array ``human`` stands in for the people labelling):

    >>> import numpy as np
    >>> import pandas as pd
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> pool = pd.DataFrame({"item": range(2000), "judge": (rng.random(2000) < 0.4).astype(int)})
    >>> human = np.where(pool["judge"] == 1, rng.random(2000) < 0.85, rng.random(2000) < 0.1)
    >>> mon = js.sequential.Monitor(design="random", confidence_level=0.95, target_width=0.15,
    ...                             rng=1)
    >>> mon.set_pool(pool, item="item", judge="judge")
    Monitor(design='random', confidence_level=0.95, groups=1, looks=0)
    >>> while not mon.should_stop:
    ...     batch = mon.next_batch(100)
    ...     batch["human"] = human[batch["item"].to_numpy()].astype(int)
    ...     mon.update(batch)
    Monitor(design='random', confidence_level=0.95, groups=1, looks=1)
    Monitor(design='random', confidence_level=0.95, groups=1, looks=2)
    >>> print(mon.summary())  # doctest: +NORMALIZE_WHITESPACE
    betting confidence sequence (Waudby-Smith & Ramdas 2024) on the prediction-powered
    Horvitz–Thompson estimator; design 'random', estimand: the pool's human rate over items
      [0.3532, 0.4789] (width 0.1257) after 200 labels of 2000 items
    target width 0.15: stop
    Guarantee: with probability >= 95% the pool's rate is inside every interval at every look,
    per group; stopping at any look is safe.
    >>> print(f"{human.mean():.3f}")  # the pool's human rate, known here because it is simulated
    0.420
    """

    def __init__(
        self, *, design: str, confidence_level: float = 0.95, target_width: float | None = None,
        estimand: str = "items", tuned_for: int | None = None, floor: float = FLOOR,
        simultaneous: bool = False, rng: Any = None,
    ) -> None:  # fmt: skip
        self.spec = sequence_spec(design, confidence_level, estimand)
        self.design: Design = self.spec.design
        self.strategy = str(self.design.draw_strategy)
        self.confidence_level = float(self.spec.confidence_level)
        if target_width is not None:
            target_width = float(check_probability("target_width", target_width))
            if target_width <= 0:
                raise JudgeStatsError(f"target_width must be > 0, got {target_width!r}")
        self.target_width = target_width
        self.estimand = self.spec.estimand
        self.tuned_for = None if tuned_for is None else check_positive_int("tuned_for", tuned_for)
        self.floor = float(check_probability("floor", floor))
        if not isinstance(simultaneous, bool):
            raise ArgumentTypeError(f"simultaneous must be True or False, got {simultaneous!r}")
        self.simultaneous = simultaneous
        self._rng = check_rng(rng)
        self._groups: dict[Any, _Process] = {}
        self._columns: dict[str, Any] = {}
        self._history: list[dict] = []
        self._looks = 0
        self._from_counts = False
        #: True when the pool's judge column is a numeric score or a jury (cells: bins)
        self.scored = False
        #: what predicts each increment: the cells' labelled rates, learned before each draw
        #: (set by :meth:`set_pool`)
        self.predictor = "none (no pool yet)"

    # ------------------------------------------------------------------ the pool
    def set_pool(
        self, pool: Any, *, item: str | None = None, judge: Any = "judge", by: Any = None,
        strata: Any = None, score_bins: int = SCORE_BINS, covariates: Any = None,
        combine: str | None = None,
    ) -> Monitor:  # fmt: skip
        """Give the judged pool, once: a frame (any engine) or a :class:`~judgestats.JudgedCounts`.

        Parameters
        ----------
        pool : data frame or JudgedCounts
            One row per judged row (several rows of one item share its ``item`` id).
        item : str, optional
            The item id column (default: each row is an item).
        judge : str or list of str
            The verdict column (0/1 or a judge alphabet's letters), or a numeric judge score
            (a float column with a value other than 0 and 1: a probability, a logit, a 1–10
            rating). A score's cells are ``score_bins`` quantile bins of the pool's item
            scores (an item's mean score over its rows), fixed from the pool before any label;
            each bin's labelled rate, learned only from the labels before each draw, is the
            prediction of the increment (predictable, so the sequence stays valid).
            A list of two or more columns is a **jury** (0/1 letters or scores, mixed or
            not; ``combine`` says how its cells are made). :attr:`predictor` says which.
        by : str or list of str, optional
            Group columns: one sequence per group (a leaderboard labelled in rounds).
        strata : str or list of str, optional
            Covariate strata: the cells are letters within strata (sharper, same estimand).
            With a score (or a jury's ``"mean"``/``"letters"``), each stratum's score bin is
            shrunk towards the bin's rate over all strata (learned from the labels so far), so
            sparse cells cost little; with the stack, strata split its cells.
        score_bins : int, default 10
            Bins of a numeric judge score or of a jury (2 to 100; ignored for letters).
            Measured in ``benchmarks/results/sequential_scores.md``.
        covariates : str or list of str, optional
            Columns that predict the judge's errors (a length, a position, a category), named
            as :func:`judgestats.evaluate`'s. While labelling, the predictor *is* the cells'
            labelled rates, so covariates are strata: a category is a level, a float column is
            cut into 4 pool-quantile bins (no label enters). With a score, or a jury combined
            by ``"mean"`` or ``"letters"``, each cell is shrunk towards its score bin's rate,
            as with ``strata``; with the stack they split its cells and are columns of it.
            Measured in ``benchmarks/results/sequential_jury.md``.
        combine : {"stack", "mean", "letters"}, optional
            A jury's cells. ``"stack"`` (the default): the members' pool-quantile bins crossed
            (about 200 cells; :data:`~judgestats.sequential.inputs.STACK_CELLS`), each cell's
            labelled rate shrunk by 5 items towards a ridge logistic regression of the human
            label on the members' normal scores of pool rank, refit every 20 labels on the
            labels so far (:mod:`judgestats.sequential.stacking`). ``"mean"``: ``score_bins``
            bins of the members' mean pool rank (for 0/1 judges, their yes votes), smoothed as
            a score's bins are. ``"letters"``: the members' letters (a score's letter: its
            pool's upper half) within those bins, each shrunk towards its bin's rate. Every
            prediction is learned only from the labels before each draw, so each is valid;
            ``benchmarks/results/sequential_jury.md`` measured the stack the narrowest.
        """
        if self._groups:
            raise SequentialError("the pool is already set; make a new Monitor for a new pool")
        by_cols, strata_cols = check_names("by", by), check_names("strata", strata)
        cov_cols = check_names("covariates", covariates)
        if hasattr(pool, "tp") or hasattr(pool, "positive"):
            if by_cols or strata_cols or cov_cols or item is not None:
                raise ArgumentTypeError(
                    "a JudgedCounts pool takes no item=, by=, strata= or covariates="
                )
            groups, self._from_counts = counts_pool(pool), True
        else:
            groups = frame_pool(pool, item=item, judge=judge, by=by_cols, strata=strata_cols,
                                score_bins=check_score_bins(score_bins), covariates=cov_cols,
                                combine=combine)  # fmt: skip
        if not groups:
            raise SequentialError("the pool has no items")
        jury = not isinstance(judge, str) and not self._from_counts
        if any(p.scored for p in groups.values()):  # the table's row while labelling
            capability("jury" if jury else "score", TARGET, self.design, False)
        level = self.confidence_level
        if self.simultaneous:
            level = 1.0 - (1.0 - level) / len(groups)
        self._groups = {k: _Process.build(p, level, self.estimand, self.spec.method)
                        for k, p in groups.items()}  # fmt: skip
        self._columns = {"item": item, "by": by_cols}
        self.scored = any(p.scored for p in groups.values())
        cells = max(len(p.cells) for p in groups.values())
        self.predictor = _predictor_name(self.scored, jury, combine, bool(strata_cols or cov_cols),
                                         cells)  # fmt: skip
        return self

    def _require_pool(self) -> None:
        if not self._groups:
            raise SequentialError("set the judged pool first: monitor.set_pool(frame or counts)")

    # ------------------------------------------------------------------ labels
    def _label(self, proc: _Process, pos: int, value: float, prob: float | None,
               spread: np.ndarray) -> None:  # fmt: skip
        """Feed one labelled item (position ``pos`` in its group) to the sequence."""
        cell = int(proc.pool.cell[pos])
        state = proc.state
        q = cell_probabilities(state.remaining, spread, self.strategy, self.floor)
        expected = q[cell] / state.remaining[cell]
        if prob is not None and not np.isclose(prob, expected, rtol=_RTOL, atol=0.0):
            raise SequentialError(
                f"item {proc.pool.items[pos]!r}: inclusion probability {prob:.6g} does not match "
                f"the {self.strategy!r} strategy's {expected:.6g} at its draw; label the items in "
                "the order next_batch wrote them, one round per update"
            )
        w = float(proc.weight[pos])
        inc = state.increment(cell, w * value, q)
        seq = proc.sequence
        h = horizon(seq.draws + 1, inc.variance, seq.alpha, tuned_for=self.tuned_for,
                    target_width=self.target_width)  # fmt: skip
        lam = bet(seq.alpha, inc.variance, h)
        seq.add(inc.z, inc.lo, inc.hi, lam)
        state.record(cell, w * value, w)
        proc.take(pos)

    def update(
        self, batch: Any, *, item: str | None = None, human: str = "human",
        inclusion_probability: str | None = None,
    ) -> Monitor:  # fmt: skip
        """Add one round of newly labelled items and take a look.

        Parameters
        ----------
        batch : data frame or ConfusionCounts
            The round's labels, in the order the items were drawn (as :meth:`next_batch`
            writes them): ``item`` (and the pool's ``by`` columns) and ``human`` (0/1; several
            rows of one item are its raters, averaged). With a JudgedCounts pool, a
            :class:`~judgestats.ConfusionCounts` of the round's items (design ``"random"``).
        item : str, optional
            The item id column (default: the pool's).
        human : str
            The human label column.
        inclusion_probability : str, optional
            The column of each item's probability of being drawn at its draw. Required under
            ``"by-judge-label"`` (it is checked against the strategy); under ``"random"``
            without it the batch is put in random order first.
        """
        self._require_pool()
        if self.strategy != UNIFORM and inclusion_probability is None:
            raise SequentialError(
                f"design={str(self.design)!r} needs each item's inclusion probability: pass "
                "inclusion_probability='inclusion_probability' (the column next_batch writes)"
            )
        if self._from_counts:
            self._update_counts(batch)
        else:
            self._update_frame(batch, item, human, inclusion_probability)
        self._look()
        return self

    def _update_counts(self, batch: Any) -> None:
        if self.strategy != UNIFORM:
            raise SequentialError(
                "a ConfusionCounts batch carries no draw order or probabilities; under "
                f"design={str(self.design)!r} give a frame from next_batch"
            )
        proc = self._groups[()]
        cells, values = counts_batch(batch, self._rng)
        spread = proc.state.spread()
        for c, v in zip(cells.tolist(), values.tolist(), strict=True):
            if not proc.available[c]:
                raise SequentialError(
                    f"the batch labels more judge-{c} items than the pool has left unlabelled"
                )
            self._label(proc, proc.available[c][0], v, None, spread)

    def _update_frame(self, batch: Any, item: str | None, human: str, prob: str | None) -> None:
        item_col = item or self._columns["item"]
        if item_col is None:
            raise ArgumentTypeError("name the batch's item id column: item='...'")
        by = self._columns["by"]
        keys, values, probs = frame_batch(
            batch, item=item_col, human=human, by=by, probability=prob
        )
        found = [self._find(key, by) for key in keys]
        order = np.arange(len(keys))
        if probs is None:
            order = self._rng.permutation(len(keys))  # design "random": any order is a draw order
        # the by-judge-label allocation uses the labels before the round: freeze each σ̃_j
        spreads = {id(proc): proc.state.spread() for proc, _ in found}
        for k in order.tolist():
            proc, pos = found[k]
            p_k = None if probs is None else float(probs[k])
            self._label(proc, pos, float(values[k]), p_k, spreads[id(proc)])

    def _find(self, key: tuple, by: tuple) -> tuple[_Process, int]:
        group = key[: len(by)]
        group_key = () if not by else group[0] if len(by) == 1 else group
        proc = self._groups.get(group_key)
        if proc is None:
            raise SequentialError(f"the batch names group {group_key!r}, which is not in the pool")
        pos = proc.index.get(key[-1])
        if pos is None:
            raise SequentialError(
                f"the batch names item {key[-1]!r}{self._in(group_key)}, which is not in the pool"
            )
        if proc.labelled[pos]:
            raise SequentialError(
                f"item {key[-1]!r}{self._in(group_key)} is already labelled; an item enters "
                "once (several raters of one item belong in one batch)"
            )
        return proc, pos

    @staticmethod
    def _in(group_key: Any) -> str:
        return "" if group_key == () else f" of group {group_label(group_key)}"

    def _look(self) -> None:
        self._looks += 1
        for key, proc in self._groups.items():
            low, high = proc.sequence.interval()
            self._history.append({
                "look": self._looks, "group": key, "labels": int(proc.labelled.sum()),
                "estimate": proc.state.estimate(), "low": low, "high": high,
                "width": high - low,
            })  # fmt: skip

    # ------------------------------------------------------------------ answers
    def _current(self) -> dict[Any, dict]:
        rows: dict[Any, dict] = {}
        for row in self._history:
            rows[row["group"]] = row
        return rows

    @property
    def intervals(self) -> dict[Any, ConfidenceInterval]:
        """Group → the current interval (the running intersection of every look so far)."""
        self._require_pool()
        level = self.confidence_level
        now = self._current()
        return {
            k: ConfidenceInterval(now[k]["low"], now[k]["high"], METHOD, level)
            if k in now else ConfidenceInterval(0.0, 1.0, METHOD, level)
            for k in self._groups
        }  # fmt: skip

    @property
    def interval(self) -> ConfidenceInterval:
        """The current interval of a monitor with one group (see :attr:`intervals` for several)."""
        out = self.intervals
        if len(out) != 1:
            raise SequentialError(
                f"the monitor has {len(out)} groups; use .intervals (group → interval)"
            )
        return next(iter(out.values()))

    @property
    def should_stop(self) -> bool:
        """True once every group's interval is at most ``target_width`` wide."""
        if self.target_width is None:
            return False
        return all(ci.width <= self.target_width for ci in self.intervals.values())

    @property
    def labels(self) -> dict[Any, int]:
        """Group → items labelled so far."""
        return {k: int(p.labelled.sum()) for k, p in self._groups.items()}

    @property
    def history(self) -> Any:
        """Every look as tidy rows (a pandas DataFrame).

        Columns: look, group, labels, estimate, low, high, width (``estimate`` is the
        post-stratified estimate at that look; low/high the running interval).
        """
        import pandas as pd

        return pd.DataFrame(self._history, columns=[
            "look", "group", "labels", "estimate", "low", "high", "width"])  # fmt: skip

    def to_xarray(self) -> Any:
        """Every look as an xarray Dataset over (look, group).

        Variables ``labels``, ``estimate`` and ``ci`` (dim ``ci_bound = ["lower", "upper"]``,
        attrs ``ci_kind`` and ``ci_prob``, as ArviZ lays out intervals); a group that did not
        change at a look keeps its values from the look before.
        """
        import xarray as xr

        hist = self.history
        names = [("all" if k == () else group_label(k)) for k in self._groups]
        index = {k: i for i, k in enumerate(self._groups)}
        looks = np.arange(1, self._looks + 1)
        shape = (looks.size, len(names))
        cols = {c: np.full(shape, np.nan) for c in ("labels", "estimate", "low", "high")}
        for row in hist.itertuples(index=False):
            for c in cols:
                cols[c][row.look - 1, index[row.group]] = getattr(row, c)
        ci = np.stack([cols["low"], cols["high"]], axis=-1)
        coords = {"look": looks, "group": names, "ci_bound": ["lower", "upper"]}
        return xr.Dataset(
            {"labels": (("look", "group"), cols["labels"]),
             "estimate": (("look", "group"), cols["estimate"]),
             "ci": (("look", "group", "ci_bound"), ci)},
            coords=coords,
            attrs={"ci_kind": METHOD, "ci_prob": self.confidence_level, "design": str(self.design),
                   "estimand": self.estimand},
        )  # fmt: skip

    def summary(self) -> str:
        """Return the current intervals, the labels used, whether to stop, and the guarantee."""
        self._require_pool()
        pct = f"{self.confidence_level:.0%}"
        lines = [
            f"{METHOD} (Waudby-Smith & Ramdas 2024) on the prediction-powered Horvitz–Thompson "
            f"estimator; design {self.design!r}, estimand: the pool's human rate over "
            f"{self.estimand}",
        ]
        if self.scored:
            lines.append(f"  predictor: {self.predictor}, learned from the labels before each "
                         "draw")
        for k, ci in self.intervals.items():
            name = "" if k == () else f"{group_label(k)}: "
            lines.append(
                f"  {name}[{ci.low:.4f}, {ci.high:.4f}] (width {ci.width:.4f}) after "
                f"{self.labels[k]} labels of {self._groups[k].pool.items.size} items"
            )
        if self.target_width is not None:
            verdict = "stop" if self.should_stop else "keep labelling"
            lines.append(f"target width {self.target_width:g}: {verdict}")
        scope = (
            f"for all {len(self._groups)} groups at once (Bonferroni)"
            if self.simultaneous and len(self._groups) > 1 else "per group"
        )  # fmt: skip
        lines.append(
            f"Guarantee: with probability >= {pct} the pool's rate is inside every interval at "
            f"every look, {scope}; stopping at any look is safe."
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"Monitor(design={self.design!r}, confidence_level={self.confidence_level:g}, "
            f"groups={len(self._groups)}, looks={self._looks})"
        )

    def plot(self, ax: Any = None) -> Any:
        """Each group's interval against the labels used, look by look. Returns the Axes."""
        from .._validation import require_extra

        require_extra("matplotlib", "Monitor.plot()")
        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots(figsize=(6, 4), layout="constrained")
        hist = self.history
        for key, part in hist.groupby("group", sort=False) if len(hist) else []:
            line = ax.plot(part["labels"], part["estimate"], marker=".",
                           label=None if key == () else group_label(key))  # fmt: skip
            ax.fill_between(part["labels"], part["low"], part["high"], alpha=0.2,
                            color=line[0].get_color(), step="post")  # fmt: skip
        if self.target_width is not None:
            ax.set_title(f"target width {self.target_width:g}")
        ax.set_xlabel("items labelled")
        ax.set_ylabel(f"pool's human rate ({self.confidence_level:.0%} confidence sequence)")
        if len(self._groups) > 1:
            ax.legend()
        return ax

    # ------------------------------------------------------------------ the next round
    def next_batch(self, budget: int, *, rng: Any = None) -> Any:
        """Draw the items to label next, each with its inclusion probability.

        Parameters
        ----------
        budget : int
            Items per group (groups whose interval already meets ``target_width`` get none).
        rng : None, int or numpy Generator
            The draws (default: the monitor's own generator).

        Returns
        -------
        pandas.DataFrame
            In draw order: the ``by`` columns, ``item``, ``round``, ``draw`` and
            ``inclusion_probability`` (the item's probability of being drawn at its draw);
            label them and pass the frame to :meth:`update` unchanged plus a ``human`` column.
        """
        import pandas as pd

        self._require_pool()
        budget = check_positive_int("budget", budget)
        gen = self._rng if rng is None else check_rng(rng)
        rows: list[dict] = []
        done = self.intervals
        for key, proc in self._groups.items():
            if self.target_width is not None and done[key].width <= self.target_width:
                continue
            rows += self._draw(key, proc, budget, gen)
        return pd.DataFrame(rows, columns=[*self._by_names(), self._item_name(), "round",
                                           "draw", "inclusion_probability"])  # fmt: skip

    def _by_names(self) -> list[str]:
        return list(self._columns.get("by") or ())

    def _item_name(self) -> str:
        return self._columns.get("item") or "item"

    def _draw(self, key: Any, proc: _Process, budget: int, gen: np.random.Generator) -> list:
        spread = proc.state.spread()
        remaining = proc.state.remaining.copy()
        avail = [list(a) for a in proc.available]
        by = self._by_names()
        group = dict(zip(by, key if len(by) > 1 else (key,), strict=False)) if by else {}
        rows = []
        for d in range(min(budget, int(remaining.sum()))):
            q = cell_probabilities(remaining, spread, self.strategy, self.floor)
            cell = int(gen.choice(q.size, p=q))
            pos = avail[cell].pop(int(gen.integers(len(avail[cell]))))
            rows.append({
                **group, self._item_name(): proc.pool.items[pos], "round": self._looks + 1,
                "draw": d + 1, "inclusion_probability": q[cell] / remaining[cell],
            })  # fmt: skip
            remaining[cell] -= 1
        return rows
