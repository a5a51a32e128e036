"""The judge against the human raters: percent agreement and Cohen's κ, pair by pair.

:func:`judge_agreement` sets the judge against each human rater and against the raters'
majority (:meth:`~judgestats.raters.Ratings.majority`, its tie rule named), and, beside them,
every pair of human raters, so that "the humans agree 0.84 with each other, the judge 0.76
with them" is read off one result. Each pair is compared on the items both labelled:

* **percent agreement** (the share of those items with the same label) with its
  Clopper–Pearson (exact) interval (:func:`judgestats.kernels.clopper_pearson_bounds`);
* **Cohen's κ** (Cohen 1960) with the delta-method interval on the atanh scale of
  :func:`judgestats.agreement.coefficient_bounds`, shown when every category has at least
  :data:`~judgestats.agreement.MIN_KAPPA_MARGIN` items on each side of the pair (the rule
  measured for the agreement card; otherwise ``kappa_ci`` is None and ``note`` says why).

Items are taken as independent draws (a random sample of items, every rating of an item once).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from .._validation import RatingsError, check_confidence_level, check_instance
from ..results import ConfidenceInterval
from .ratings import Ratings

__all__ = ["JudgeAgreement", "PairAgreement", "judge_agreement"]

EXACT = "clopper-pearson"
DELTA = "delta-atanh"


@dataclass(frozen=True, slots=True)
class PairAgreement:
    """Agreement of two raters on the items both labelled.

    Attributes
    ----------
    first, second : str or other label
        The two raters' names (``second`` may be ``"majority"``).
    n_items : int
        Items both labelled.
    table : numpy.ndarray
        (K × K) counts, rows the first rater's label, columns the second's.
    percent : float
        Share of those items with the same label.
    percent_ci : ConfidenceInterval or None
        Its Clopper–Pearson interval (None without items).
    kappa : float
        Cohen's κ (NaN where undefined).
    kappa_ci : ConfidenceInterval or None
        Its delta-method interval (atanh scale), or None (``note`` says why).
    note : str
        Why an interval is missing ("" when none is).

    Examples
    --------
    >>> from judgestats.raters import Ratings, judge_agreement
    >>> r = Ratings.from_matrix([[1], [0], [1], [0]], raters=["a1"], judge=[1, 0, 0, 0])
    >>> row = judge_agreement(r).rater("a1")
    >>> row.n_items, row.percent, round(row.kappa, 3)
    (4, 0.75, 0.5)
    >>> row.table.tolist()  # rows: the judge's label, columns: the rater's
    [[2, 1], [0, 1]]
    """

    first: Any
    second: Any
    n_items: int
    table: np.ndarray
    percent: float
    percent_ci: ConfidenceInterval | None
    kappa: float
    kappa_ci: ConfidenceInterval | None
    note: str = ""

    def text(self, digits: int = 3) -> str:
        """``first vs second: agreement 0.840 [..], kappa 0.650 [..] (n items)``."""
        def show(v: float, ci: ConfidenceInterval | None) -> str:
            inner = "" if ci is None else f" [{ci.low:.{digits}f}, {ci.high:.{digits}f}]"
            return f"{v:.{digits}f}{inner}"

        note = f"; {self.note}" if self.note else ""
        pct, kappa = show(self.percent, self.percent_ci), show(self.kappa, self.kappa_ci)
        return (f"{self.first} vs {self.second}: agreement {pct}, kappa {kappa} "
                f"({self.n_items} items{note})")  # fmt: skip


@dataclass(frozen=True, slots=True)
class JudgeAgreement:
    """The judge's agreement with each rater and with the majority, the raters' beside it.

    Attributes
    ----------
    judge : str
        The judge's name.
    with_raters : tuple of PairAgreement
        The judge against each human rater (``first`` is the judge).
    with_majority : PairAgreement
        The judge against the raters' majority (items whose majority is unresolved left out).
    between_raters : tuple of PairAgreement
        Every pair of human raters.
    ties : str
        The majority's tie rule (:meth:`~judgestats.raters.Ratings.majority`).
    unresolved : int
        Items whose majority was left unresolved by the tie rule.
    confidence_level : float
        Level of every interval.
    percent_method, kappa_method : str
        ``"clopper-pearson"`` and ``"delta-atanh"``.
    categories : tuple
        The order of the tables' rows and columns.

    Examples
    --------
    >>> from judgestats.raters import Ratings, judge_agreement
    >>> r = Ratings.from_matrix([[1, 1], [0, 0], [1, 0], [0, 1]], raters=["a1", "a2"],
    ...                         judge=[1, 0, 1, 1])
    >>> res = judge_agreement(r)
    >>> [row.percent for row in res.with_raters], res.between_raters[0].percent
    ([0.75, 0.75], 0.5)
    >>> res.unresolved, res.with_majority.n_items  # two ties left unresolved
    (2, 2)
    """

    judge: Any
    with_raters: tuple
    with_majority: PairAgreement
    between_raters: tuple
    ties: str
    unresolved: int
    confidence_level: float
    categories: tuple
    percent_method: str = EXACT
    kappa_method: str = DELTA

    def rater(self, name: Any) -> PairAgreement:
        """Return the judge's agreement with rater ``name``."""
        for row in self.with_raters:
            if row.second == name:
                return row
        raise RatingsError(f"no rater {name!r}; raters: {[r.second for r in self.with_raters]}")

    def summary(self) -> str:
        """Return the figures as text, one pair per line, with the methods that made them."""
        lines = [f"Judge {self.judge!r} against the human raters; {self.confidence_level:.0%} "
                 f"intervals: {self.percent_method} (agreement), {self.kappa_method} (kappa); "
                 f"majority ties: {self.ties!r} ({self.unresolved} unresolved items)."]  # fmt: skip
        lines += [f"  {r.text()}" for r in (*self.with_raters, self.with_majority)]
        lines += [f"  {r.text()}" for r in self.between_raters]
        return "\n".join(lines)


def _pair(first: Any, second: Any, a: np.ndarray, b: np.ndarray, k: int, level: float):
    from ..agreement.measures import MIN_KAPPA_MARGIN, coefficient_bounds
    from ..kernels import clopper_pearson_bounds

    both = (a >= 0) & (b >= 0)
    table = np.zeros((k, k), dtype=np.int64)
    np.add.at(table, (a[both], b[both]), 1)
    m = int(both.sum())
    if m == 0:
        return PairAgreement(first, second, 0, table, np.nan, None, np.nan, None,
                             "no item labelled by both")  # fmt: skip
    same = int(np.trace(table))
    low, high = clopper_pearson_bounds(same, m, level)
    pct_ci = ConfidenceInterval(float(low), float(high), EXACT, level)
    kappa, klow, khigh = (float(v) for v in coefficient_bounds(table, "kappa", level))
    margins = np.r_[table.sum(axis=0), table.sum(axis=1)]
    note = ""
    if margins.min() < MIN_KAPPA_MARGIN:
        note = f"kappa interval not shown: a category has < {MIN_KAPPA_MARGIN} items on one side"
    elif np.isnan(klow):
        note = "kappa interval not shown: kappa is undefined or ±1"
    kappa_ci = None if note else ConfidenceInterval(klow, khigh, DELTA, level)
    return PairAgreement(first, second, m, table, same / m, pct_ci, kappa, kappa_ci, note)


def judge_agreement(
    ratings: Ratings, *, judge: Any = None, ties: str = "none", rng: Any = None,
    confidence_level: float = 0.95,
) -> JudgeAgreement:  # fmt: skip
    """Measure the judge's agreement with each human rater and with their majority.

    Parameters
    ----------
    ratings : Ratings
        The ratings, with a judge (``Ratings(..., judge=...)``) or ``judge=`` naming one rater.
    judge : str, optional
        A rater to treat as the judge (by default the ratings' own judge).
    ties : str
        The majority's tie rule (:meth:`~judgestats.raters.Ratings.majority`): ``"none"``,
        ``"random"`` or the name of an adjudicating rater.
    rng : None, int or numpy.random.Generator
        Only for ``ties="random"``.
    confidence_level : float
        Level of every interval.

    Returns
    -------
    JudgeAgreement

    Examples
    --------
    >>> from judgestats.raters import Ratings, judge_agreement
    >>> r = Ratings.from_matrix([[1, 1], [0, 0], [1, 0], [0, 0]], raters=["a1", "a2"],
    ...                         judge=[1, 0, 1, 1])
    >>> res = judge_agreement(r, ties="a1")
    >>> res.rater("a1").percent, res.with_majority.percent
    (0.75, 0.75)
    """
    check_instance("ratings", ratings, Ratings)
    level = float(check_confidence_level(confidence_level))
    if judge is not None and judge != ratings.judge:
        ratings = ratings.with_judge(judge)
    if ratings.judge is None or ratings.judge_codes is None:
        raise RatingsError(
            "the ratings have no judge: build them with judge=... or pass judge= naming a rater"
        )
    k, jc, codes = len(ratings.categories), ratings.judge_codes, ratings.codes
    name = ratings.judge
    rows = tuple(_pair(name, r, jc, codes[:, i], k, level)
                 for i, r in enumerate(ratings.raters))  # fmt: skip
    maj = ratings.majority(ties, rng=rng)
    pairs = tuple(_pair(ratings.raters[i], ratings.raters[j], codes[:, i], codes[:, j], k,
                        level)
                  for i, j in combinations(range(ratings.n_raters), 2))  # fmt: skip
    with_majority = _pair(name, "majority", jc, maj.codes, k, level)
    return JudgeAgreement(name, rows, with_majority, pairs, maj.ties,
                          int((~maj.resolved).sum()), level, ratings.categories)  # fmt: skip
