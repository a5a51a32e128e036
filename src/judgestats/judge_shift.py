"""Judge shift: whether the judge's confusion matrix is the same in two calibration batches.

A calibration set labelled last quarter, or with an older judge version, may no longer describe
today's judge. :func:`judge_shift_test` compares an earlier batch ``a`` with the latest batch
``b`` (the companion of :func:`judgestats.label_shift_test`, which compares the human rates of
the calibration and test sets). Under the paper's by-human-label design the items per human
class are fixed, so what can move is each column of the confusion matrix,
C[·, k] = P(judge | human = k) (paper eq. (24); for two classes its columns
are (q0, 1 − q0) and (1 − q1, q1), eq. (point-estimator)).

**The test** (null: every column is the same in both batches). For each human class k the
2 × J table (batch × judge letter) of its items gives a likelihood-ratio statistic G_k
(:func:`judgestats.kernels.g_statistic`); the statistic is T = Σ_k G_k. Its null distribution
is taken conditionally on each class's margins (the batch sizes and the letters' totals), so
no rate has to be estimated and the size holds at every sample size:

* ``"exact"`` (binary judge, J = 2, one row per item): each class's table has a
  hypergeometric null distribution; T's distribution is their exact convolution.
* ``"permutation"`` (J ≥ 3 letters): Monte Carlo, each class's batch-a letter counts drawn
  from the multivariate hypergeometric distribution (the permutations of batch labels over
  that class's items); p = (1 + #{T* ≥ T}) / (n_resamples + 1), exact in level for any
  number of draws.
* ``"cluster permutation"`` (repeated items, ``cluster=``): batch labels are permuted over
  whole items, within strata of items that carry the same human classes (items all of class 0,
  all of class 1, mixed), so an item's rows move together and the test allows any correlation
  within an item. It assumes the items of one stratum exchangeable between batches under the
  null (same distribution of repeats per item). An item must lie in one batch.

**How much each rate moved**: the change after − before of each rate with Newcombe's hybrid
score interval (:func:`judgestats.kernels.newcombe_bounds`); with repeated items at the
effective sizes (rows / design effect, :mod:`judgestats.repeated`). Intervals are pointwise at
``confidence_level``.

**The choice it implies** (``recommendation``): ``"latest"`` when the test rejects at level
1 − ``confidence_level`` (the earlier batch describes another judge); ``"pool"`` when it does
not and every rate's interval lies within ± ``tolerance``; ``"label more"`` otherwise (no
change detected, but the batches are too small to rule out one that matters). It is advice:
nothing pools automatically. ``benchmarks/results/judge_shift.md`` measures why: pooling after
a non-significant pre-test loses coverage of the corrected rate at moderate shifts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ._validation import (
    ArgumentTypeError,
    CountError,
    check_choice,
    check_confidence_level,
    check_positive_int,
    check_probability,
    check_rng,
)
from .counts import ConfusionCounts
from .counts.categories import ConfusionMatrix
from .designs import DEFAULT_DESIGN, Design, as_design, design_names
from .kernels import g_statistic, newcombe_bounds, z_value
from .repeated import pooled_design_effects, ratio_residuals
from .results import ConfidenceInterval

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "JUDGE_SHIFT_RECOMMENDATIONS",
    "JudgeShiftDiagnostic",
    "RateShift",
    "judge_shift_test",
]

def _batch_order(names: list[Any]) -> list[Any]:
    """Batch names, earliest first: text in natural order (``'b2'`` before ``'b10'``).

    A text is compared run by run, its digit runs by value (``'round-9'`` < ``'round-10'``;
    ``'2025-1'`` < ``'2025-2'``); other values (numbers, dates) in their own order. The last
    is the latest batch, the one :func:`judge_shift_test` compares with the earlier ones.
    """
    import re

    if not all(isinstance(n, str) for n in names):
        from .frames import sort_keys

        return sort_keys(list(names))
    runs = [re.split(r"(\d+)", n) for n in names]
    keys = [tuple((0, int(r), r) if r.isdigit() else (1, 0, r) for r in run if r) for run in runs]
    return [n for _, n in sorted(zip(keys, names, strict=True))]


#: The choices a :class:`JudgeShiftDiagnostic` may recommend.
JUDGE_SHIFT_RECOMMENDATIONS = ("pool", "latest", "label more")
#: Relative tolerance for ties of the statistic (T* >= T counts values equal up to rounding).
_TIE = 1e-9
#: Permutations per block (memory: block × items floats).
_BLOCK = 512


# ----------------------------------------------------------------------------- inputs
@dataclass(frozen=True, slots=True)
class _Batch:
    """One batch: (J, K) totals, and per-item (G, J, K) counts with ids when items repeat."""

    total: np.ndarray
    items: np.ndarray | None
    ids: list | None


def _binary_batch(cal: ConfusionCounts) -> _Batch:
    if cal.shape:
        raise CountError(
            f"judge_shift_test compares two calibration sets, got a batch of shape {cal.shape}"
        )
    total = np.array([[cal.tn, cal.fn], [cal.fp, cal.tp]], dtype=np.int64)
    if cal.clusters is None:
        return _Batch(total, None, None)
    t = cal.clusters.totals  # fields tp, fn, tn, fp
    items = np.stack([t[:, [2, 1]], t[:, [3, 0]]], axis=1)  # (G, judge, human)
    return _Batch(total, items, cal.clusters.ids.tolist())


def _matrix_batch(cal: ConfusionMatrix) -> _Batch:
    total = np.asarray(cal.counts, dtype=np.int64)
    if cal.clusters is None:
        return _Batch(total, None, None)
    return _Batch(total, cal.clusters.totals.reshape(-1, cal.j, cal.k), cal.clusters.ids.tolist())


def _batches(cal_a: Any, cal_b: Any) -> tuple[_Batch, _Batch, tuple, tuple, bool]:
    """Both batches as arrays, the human labels, the judge letters, and whether binary."""
    kinds = (ConfusionCounts, ConfusionMatrix)
    for name, cal in (("calibration_a", cal_a), ("calibration_b", cal_b)):
        if not isinstance(cal, kinds):
            raise ArgumentTypeError(
                f"{name} must be a ConfusionCounts or a ConfusionMatrix, got {type(cal).__name__}"
            )
    if type(cal_a) is not type(cal_b):
        raise ArgumentTypeError(
            "calibration_a and calibration_b must be counts of one kind, got "
            f"{type(cal_a).__name__} and {type(cal_b).__name__}"
        )
    if isinstance(cal_a, ConfusionCounts):
        return _binary_batch(cal_a), _binary_batch(cal_b), (0, 1), (0, 1), True
    if (cal_a.labels, cal_a.judge_labels) != (cal_b.labels, cal_b.judge_labels):
        if set(cal_a.labels) != set(cal_b.labels) or set(cal_a.judge_labels) != set(
            cal_b.judge_labels
        ):
            raise CountError(
                f"calibration_a (labels {list(cal_a.labels)!r}, judge_labels "
                f"{list(cal_a.judge_labels)!r}) and calibration_b (labels "
                f"{list(cal_b.labels)!r}, judge_labels {list(cal_b.judge_labels)!r}) must "
                "count the same categories and judge letters"
            )
        cal_b = (cal_b.reorder(cal_a.labels) if cal_a.square
                 else cal_b.reorder(cal_a.labels, judge_labels=cal_a.judge_labels))  # fmt: skip
    return _matrix_batch(cal_a), _matrix_batch(cal_b), cal_a.labels, cal_a.judge_labels, False


def _check_classes(a: _Batch, b: _Batch, labels: tuple) -> None:
    for name, batch in (("calibration_a", a), ("calibration_b", b)):
        empty = np.flatnonzero(batch.total.sum(axis=0) == 0)
        if empty.size:
            raise CountError(
                f"{name} has no items of human class {labels[int(empty[0])]!r}: the judge's "
                "column P(judge | human) of that class cannot be compared between batches"
            )


def _singletons(total: np.ndarray) -> np.ndarray:
    """One item per row: each cell's unit matrix, repeated by its count (G, J, K)."""
    j, k = total.shape
    cells = np.repeat(np.arange(j * k), total.ravel())
    items = np.zeros((cells.size, j * k), dtype=np.int64)
    items[np.arange(cells.size), cells] = 1
    return items.reshape(-1, j, k)


# ----------------------------------------------------------------------------- statistics
def _class_statistics(sum_a: np.ndarray, total: np.ndarray) -> np.ndarray:
    """G of each class's 2 × J table (batch × letter): (..., K) from batch-a sums (..., J, K)."""
    sum_b = total - sum_a
    tables = np.stack([sum_a, sum_b], axis=-3)  # (..., 2, J, K)
    return g_statistic(np.moveaxis(tables, -1, -3))  # tables (..., K, 2, J)


def _hypergeometric_pmf(x: np.ndarray, size: int, marked: int, drawn: int) -> np.ndarray:
    """P(X = x) = C(marked, x) C(size − marked, drawn − x) / C(size, drawn), by log-gamma."""
    from scipy.special import gammaln  # lazy: keeps `import judgestats` light

    def log_choose(n: Any, k: Any) -> Any:
        return gammaln(n + 1.0) - gammaln(k + 1.0) - gammaln(n - k + 1.0)

    x = np.asarray(x, dtype=float)
    log_p = (log_choose(marked, x) + log_choose(size - marked, drawn - x)
             - log_choose(size, drawn))  # fmt: skip
    return np.exp(log_p)


def _exact_test(a: np.ndarray, total: np.ndarray) -> tuple[float, float, np.ndarray]:
    """Exact conditional test (J = 2): the classes' hypergeometric laws of G, convolved."""
    observed = _class_statistics(a, total)
    t_obs = float(observed.sum())
    cut = t_obs * (1 - _TIE) - _TIE
    laws, class_p = [], []
    for k in range(total.shape[1]):
        na, size, r = int(a[:, k].sum()), int(total[:, k].sum()), int(total[0, k])
        x = np.arange(max(0, r - (size - na)), min(na, r) + 1)
        pmf = _hypergeometric_pmf(x, size, r, na)
        sums = np.zeros((x.size, 2, total.shape[1]), dtype=np.int64)
        sums[:, 0, k], sums[:, 1, k] = x, na - x
        g = _class_statistics(sums, total)[:, k]
        class_p.append(min(1.0, float(pmf[g >= observed[k] * (1 - _TIE) - _TIE].sum())))
        laws.append((g, pmf))
    dist_g, dist_p = np.zeros(1), np.ones(1)
    for g, pmf in laws[:-1]:  # every class but the last, convolved outright
        dist_g = (dist_g[:, None] + g[None, :]).ravel()
        dist_p = (dist_p[:, None] * pmf[None, :]).ravel()
    g_last, p_last = laws[-1]
    order = np.argsort(g_last)
    tail = np.cumsum(p_last[order][::-1])[::-1]  # tail[i] = P(G_last >= sorted g[i])
    tail = np.append(tail, 0.0)
    first = np.searchsorted(g_last[order], cut - dist_g, side="left")
    pvalue = float(dist_p @ tail[first])
    return t_obs, min(1.0, pvalue), np.array(class_p)


def _permutation_draws(a: np.ndarray, total: np.ndarray, reps: int, gen) -> np.ndarray:
    """Batch-a sums (reps, J, K): each class's letters drawn by the multivariate hypergeometric."""
    out = np.empty((reps, *total.shape), dtype=np.int64)
    for k in range(total.shape[1]):
        out[:, :, k] = gen.multivariate_hypergeometric(total[:, k], int(a[:, k].sum()), size=reps)
    return out


def _cluster_draws(items: np.ndarray, in_a: np.ndarray, reps: int, gen) -> np.ndarray:
    """Batch-a sums (reps, J, K) with batch labels permuted over items within their strata."""
    pattern = items.sum(axis=1) > 0  # (G, K): the human classes an item carries
    _, stratum = np.unique(pattern, axis=0, return_inverse=True)
    flat = items.reshape(items.shape[0], -1).astype(float)
    labels = np.empty((reps, in_a.size))
    for s in np.unique(stratum):
        idx = np.flatnonzero(stratum.reshape(-1) == s)
        labels[:, idx] = gen.permuted(np.tile(in_a[idx], (reps, 1)), axis=1)
    return np.rint(labels @ flat).astype(np.int64).reshape(reps, *items.shape[1:])


def _monte_carlo_test(a, total, reps, gen, items=None, in_a=None):
    """Monte Carlo conditional test: (T, p, per-class p) from ``reps`` permutations."""
    observed = _class_statistics(a, total)
    t_obs = float(observed.sum())
    above, class_above, done = 0, np.zeros(total.shape[1]), 0
    while done < reps:
        size = min(_BLOCK, reps - done)
        if items is None:
            sums = _permutation_draws(a, total, size, gen)
        else:
            sums = _cluster_draws(items, in_a, size, gen)
        g = _class_statistics(sums, total)
        above += int((g.sum(axis=1) >= t_obs * (1 - _TIE) - _TIE).sum())
        class_above += (g >= observed * (1 - _TIE) - _TIE).sum(axis=0)
        done += size
    return t_obs, (1 + above) / (reps + 1), (1 + class_above) / (reps + 1)


# ----------------------------------------------------------------------------- changes
def _effective(batch: _Batch) -> tuple[np.ndarray, np.ndarray]:
    """Each rate's (J, K) estimate and effective size (rows / design effect, at least 1)."""
    total = batch.total.astype(float)
    rows = np.broadcast_to(total.sum(axis=0), total.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = total / rows
    if batch.items is None:
        return rate, rows.copy()
    g, j, k = batch.items.shape
    num = batch.items.reshape(g, j * k).astype(float)
    per_class = batch.items.sum(axis=1)  # (G, K): each item's rows of each human class
    den = np.broadcast_to(per_class[:, None, :], (g, j, k)).reshape(g, j * k).astype(float)
    _, _, cross = ratio_residuals(num, den, np.ones(g))
    items = (den > 0).sum(axis=0).astype(float)
    flat_rate, flat_rows = rate.ravel(), rows.ravel()
    with np.errstate(divide="ignore", invalid="ignore"):
        v_clu = items / (items - 1.0) * np.diag(cross)
        v_bin = flat_rate * (1.0 - flat_rate) / (flat_rows - 1.0)
    deff, _ = pooled_design_effects(v_clu, v_bin, items, flat_rows)
    return rate, (flat_rows / np.maximum(deff, 1.0)).reshape(j, k)


def _changes(a, b, labels, letters, binary, level) -> tuple[RateShift, ...]:
    z = float(z_value(level))
    (ra, ea), (rb, eb) = _effective(a), _effective(b)
    low, high = newcombe_bounds(rb * eb, eb, ra * ea, ea, z)
    cells = [(0, 0, "specificity"), (1, 1, "sensitivity")] if binary else [
        (i, c, f"P(judge={letters[i]!r} | human={labels[c]!r})")
        for c in range(len(labels)) for i in range(len(letters))
    ]  # fmt: skip
    method = "newcombe" if a.items is None and b.items is None else "newcombe-effective"
    return tuple(
        RateShift(name, labels[c], letters[i], float(ra[i, c]), float(rb[i, c]),
                  float(rb[i, c] - ra[i, c]),
                  ConfidenceInterval(float(low[i, c]), float(high[i, c]), method, level),
                  (int(a.total[:, c].sum()), int(b.total[:, c].sum())))
        for i, c, name in cells
    )  # fmt: skip


def _recommend(pvalue: float, changes: tuple, level: float, tolerance: float) -> tuple[str, str]:
    alpha = 1.0 - level
    pct = f"{100 * level:g}%"
    if pvalue < alpha:
        moved = [r for r in changes if r.moved] or list(changes)
        worst = max(moved, key=lambda r: abs(r.change))
        return "latest", (
            f"the judge's confusion matrix differs between the batches (p = {pvalue:.3g} < "
            f"{alpha:g}; {worst.rate} moved {worst.change:+.3f}, {pct} interval "
            f"[{worst.ci.low:+.3f}, {worst.ci.high:+.3f}]): the earlier batch describes "
            "another judge; correct with the latest batch, or label more with today's judge"
        )
    wide = [r for r in changes if r.ci.low < -tolerance or r.ci.high > tolerance]
    if not wide:
        return "pool", (
            f"no change detected (p = {pvalue:.3g}) and every rate's change lies within "
            f"±{tolerance:g} ({pct} intervals): pooling the batches gains precision at little risk"
        )
    worst = max(wide, key=lambda r: r.ci.high - r.ci.low)
    return "label more", (
        f"no change detected (p = {pvalue:.3g}), but the batches are too small to rule out a "
        f"change beyond ±{tolerance:g} ({worst.rate}: {pct} interval [{worst.ci.low:+.3f}, "
        f"{worst.ci.high:+.3f}]): label more items with today's judge, or choose yourself "
        "(pooling risks a bias, the latest batch alone gives a wider interval)"
    )


# ----------------------------------------------------------------------------- entry point
def judge_shift_test(
    calibration_a: Any,
    calibration_b: Any,
    *,
    confidence_level: float = 0.95,
    tolerance: float = 0.05,
    design: str = DEFAULT_DESIGN,
    n_resamples: int = 4999,
    rng: Any = None,
) -> JudgeShiftDiagnostic:
    """Test whether the judge's confusion matrix is the same in two calibration batches.

    Parameters
    ----------
    calibration_a, calibration_b : ConfusionCounts or ConfusionMatrix
        The earlier batch and the latest one (both of one kind; a judge alphabet's J × K
        matrices with the same letters and categories). With ``cluster=`` counts (repeated
        items) the test permutes whole items; an item must lie in one batch.
    confidence_level : float, default 0.95
        Level of the rate-change intervals; the test decides at 1 − ``confidence_level``.
    tolerance : float, default 0.05
        A change of a rate P(judge | human) smaller than this does not matter to you: the
        recommendation is ``"pool"`` only when every rate's interval lies within ± tolerance.
    design : str or Design, default "by-human-label"
        How the calibration items were chosen: a design whose per-class rates are estimable
        (:attr:`judgestats.designs.Design.youden_estimable`: ``"by-human-label"``,
        ``"random"``), each human class's items a sample of that class. Under
        ``"by-judge-label"`` the columns P(judge | human) are not sampled, and it is refused.
    n_resamples : int, default 4999
        Monte Carlo permutations (J ≥ 3 letters, or repeated items); the binary test of
        one row per item is exact and uses none.
    rng : None, int, SeedSequence or Generator
        Randomness of the permutations. With None (as scipy's ``permutation_test``) a Monte
        Carlo p-value is drawn afresh on each call and differs between calls by about its
        standard error (``mc_error``); the result and its summary say so (``seeded``). Pass a
        seed to repeat it.

    Returns
    -------
    JudgeShiftDiagnostic
        ``statistic`` T = Σ_k G_k, ``pvalue``, ``test`` (which reference distribution),
        ``class_pvalues`` (the same test per human class), ``changes`` (each rate before,
        after, the change and its interval) and ``recommendation`` with its ``reason``.

    Raises
    ------
    ArgumentTypeError
        Inputs of another kind, or of two kinds.
    CountError
        A batch without items of some human class, categories that differ, a batch of data
        sets, or an item in both batches.

    See Also
    --------
    label_shift_test : Whether the calibration sample looks like the test sample.
    agreement : Agreement of judge and human beyond chance.
    correct : Correct the judge's pass rate.

    Examples
    --------
    >>> import judgestats as js
    >>> old = js.ConfusionCounts(tp=180, fn=20, tn=170, fp=30)
    >>> new = js.ConfusionCounts(tp=150, fn=50, tn=172, fp=28)
    >>> shift = js.judge_shift_test(old, new)
    >>> shift.test, shift.recommendation, round(shift.changes[1].change, 2)
    ('exact', 'latest', -0.15)
    """
    level = float(check_confidence_level(confidence_level))
    tolerance = float(check_probability("tolerance", tolerance))
    design = _shift_design(design)
    reps = check_positive_int("n_resamples", n_resamples, minimum=99)
    gen = check_rng(rng)
    a, b, labels, letters, binary = _batches(calibration_a, calibration_b)
    _check_classes(a, b, labels)
    total = a.total + b.total
    clustered = a.items is not None or b.items is not None
    if clustered:
        items, in_a = _pooled_items(a, b)
        stat, pvalue, class_p = _monte_carlo_test(a.total, total, reps, gen, items, in_a)
        test, used = "cluster permutation", reps
    elif total.shape[0] == 2:
        stat, pvalue, class_p = _exact_test(a.total, total)
        test, used = "exact", None
    else:
        stat, pvalue, class_p = _monte_carlo_test(a.total, total, reps, gen)
        test, used = "permutation", reps
    changes = _changes(a, b, labels, letters, binary, level)
    recommendation, reason = _recommend(pvalue, changes, level, tolerance)
    df = int(sum(max(int((total[:, k] > 0).sum()) - 1, 0) for k in range(total.shape[1])))
    return JudgeShiftDiagnostic(
        statistic=stat, pvalue=float(pvalue), df=df, test=test, n_resamples=used,
        class_pvalues={labels[k]: float(p) for k, p in enumerate(class_p)}, changes=changes,
        recommendation=recommendation, reason=reason, confidence_level=level,
        tolerance=tolerance, design=design, clustered=clustered, seeded=rng is not None,
    )  # fmt: skip


def _shift_design(design: Any) -> Design:
    """Return the registered design, if its human classes' items sample each class's column.

    Raises
    ------
    MethodError
        An unknown design, or one whose columns P(judge | human) are not estimable
        (:attr:`~judgestats.designs.Design.youden_estimable`); the message lists the designs
        the test takes.
    """
    design = as_design(design)
    if not design.youden_estimable:  # refused as an unknown name is, listing those it takes
        check_choice("design", str(design),
                     [d for d in design_names() if as_design(d).youden_estimable])  # fmt: skip
    return design


def _pooled_items(a: _Batch, b: _Batch) -> tuple[np.ndarray, np.ndarray]:
    """Both batches' items (G, J, K) and whether each is in batch a; ids must not repeat."""
    if a.ids is not None and b.ids is not None:
        both = set(a.ids) & set(b.ids)
        if both:
            raise CountError(
                f"{len(both)} item ids are in both batches (e.g. {sorted(map(repr, both))[0]}): "
                "the test permutes whole items between batches, so an item must lie in one; "
                "re-judged items need a paired comparison"
            )
    ia = a.items if a.items is not None else _singletons(a.total)
    ib = b.items if b.items is not None else _singletons(b.total)
    in_a = np.concatenate([np.ones(len(ia)), np.zeros(len(ib))])
    return np.concatenate([ia, ib]), in_a


# ----------------------------------------------------------------------------- results
@dataclass(frozen=True, slots=True)
class RateShift:
    """How much one rate P(judge | human) moved from the earlier batch to the latest.

    Attributes
    ----------
    rate : str
        ``"specificity"`` (q0 = P(judge 0 | human 0)), ``"sensitivity"`` (q1), or for a
        J × K matrix ``"P(judge=a | human=b)"``.
    human, judge
        The human class and the judge letter of the rate.
    before, after, change : float
        The rate in batch a, in batch b, and after − before.
    ci : ConfidenceInterval
        Newcombe's hybrid score interval of the change (``method="newcombe"``; with repeated
        items ``"newcombe-effective"``, at the effective sizes).
    sizes : tuple of int
        The human class's rows in batch a and in batch b.
    """

    rate: str
    human: Any
    judge: Any
    before: float
    after: float
    change: float
    ci: ConfidenceInterval
    sizes: tuple[int, int]

    @property
    def moved(self) -> bool:
        """True when the change's interval excludes 0."""
        return bool(self.ci.low > 0.0 or self.ci.high < 0.0)


@dataclass(frozen=True, slots=True, eq=False)
class JudgeShiftDiagnostic:
    """Whether the judge's confusion matrix moved between two calibration batches.

    Attributes
    ----------
    statistic : float
        T = Σ_k G_k, the likelihood-ratio statistics of the human classes' batch × letter
        tables.
    pvalue : float
        Its conditional p-value (``test``).
    df : int
        Degrees of freedom of T's χ² approximation (not used for the p-value; for reference).
    test : {"exact", "permutation", "cluster permutation"}
        The reference distribution (module :mod:`judgestats.judge_shift`).
    n_resamples : int or None
        Monte Carlo permutations (None for the exact test).
    class_pvalues : dict
        Human class → p-value of the same test on that class's column alone.
    changes : tuple of RateShift
        Each rate before and after, its change and interval.
    recommendation : {"pool", "latest", "label more"}
        The choice the test and the intervals imply (advice: nothing pools automatically).
    reason : str
        Why, in one sentence.
    confidence_level, tolerance, design
        As passed.
    clustered : bool
        True when items repeat (the cluster permutation test).
    seeded : bool
        False when a Monte Carlo p-value was drawn without a seed (``rng=None``): another call
        gives another value, within about ``mc_error``.
    batches : tuple
        The batch names when :func:`judgestats.evaluate` ran the test (``batch=``): the earlier
        ones, pooled, then the latest, in the order they were compared; else empty.

    Examples
    --------
    Made by :func:`judge_shift_test`: last quarter's calibration against this week's, the judge's
    sensitivity fell:

    >>> import judgestats as js
    >>> old = js.ConfusionCounts(tp=180, fn=20, tn=170, fp=30)
    >>> new = js.ConfusionCounts(tp=150, fn=50, tn=172, fp=28)
    >>> shift = js.judge_shift_test(old, new, confidence_level=0.95, rng=0)
    >>> shift.recommendation, [m.rate for m in shift.moved], round(shift.pvalue, 5)
    ('latest', ['sensitivity'], 0.00036)
    """

    statistic: float
    pvalue: float
    df: int
    test: str
    n_resamples: int | None
    class_pvalues: dict
    changes: tuple
    recommendation: str
    reason: str
    confidence_level: float
    tolerance: float
    design: Design
    clustered: bool = False
    seeded: bool = True
    batches: tuple = ()

    @property
    def shifted(self) -> bool:
        """True where the p-value is below 1 − ``confidence_level``."""
        return bool(self.pvalue < 1.0 - self.confidence_level)

    @property
    def moved(self) -> tuple[RateShift, ...]:
        """The rates whose change's interval excludes 0."""
        return tuple(r for r in self.changes if r.moved)

    @property
    def mc_error(self) -> float | None:
        """Monte Carlo standard error of ``pvalue``, √(p(1 − p)/n_resamples); None if exact."""
        if self.n_resamples is None:
            return None
        return float(np.sqrt(self.pvalue * (1.0 - self.pvalue) / self.n_resamples))

    def pvalue_words(self, *, largest: bool = False) -> str:
        """Say how the p-value was computed: exact, or Monte Carlo with its error and seed.

        ``largest``: the error is the largest of several tests' (a report's table of groups).
        """
        if self.n_resamples is None:
            return "exact conditional p-value"
        said = (f"Monte Carlo p-value of {self.n_resamples} permutations, standard error "
                f"{'up to ' if largest else ''}{self.mc_error:.2g}")  # fmt: skip
        if not self.seeded:
            said += ("; drawn without a seed (rng=None): another call gives another value, "
                     "pass rng= to repeat it")
        return said

    def to_dataframe(self) -> pd.DataFrame:
        """One row per rate: before, after, change, ci_low, ci_high, moved, sizes."""
        import pandas as pd

        return pd.DataFrame([
            {"rate": r.rate, "human": r.human, "judge": r.judge, "before": r.before,
             "after": r.after, "change": r.change, "ci_low": r.ci.low, "ci_high": r.ci.high,
             "moved": r.moved, "m_before": r.sizes[0], "m_after": r.sizes[1]}
            for r in self.changes
        ])  # fmt: skip

    def summary(self) -> str:
        """Return the test, each rate's change with its interval and the recommendation, as text."""
        pct = f"{100 * self.confidence_level:g}%"
        lines = [
            f"Judge shift ({self.test} test, design {self.design!r}): T = {self.statistic:.3f}, "
            f"p = {self.pvalue:.4g} ({self.pvalue_words()})",
            f"{'rate':<34} {'before':>7} {'after':>7} {'change':>7}  {pct} interval",
        ]
        for r in self.changes:
            lines.append(f"{r.rate:<34} {r.before:7.3f} {r.after:7.3f} {r.change:+7.3f}  "
                         f"[{r.ci.low:+.3f}, {r.ci.high:+.3f}]{'  *' if r.moved else ''}")
        lines += [f"recommendation: {self.recommendation}", f"  {self.reason}"]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"JudgeShiftDiagnostic(test={self.test!r}, statistic={self.statistic:.4g}, "
            f"pvalue={self.pvalue:.4g}, recommendation={self.recommendation!r}, "
            f"moved={[r.rate for r in self.moved]!r})"
        )
