"""Does the judge's verdict depend on the models beyond the human verdict? A test on the labels.

The joint confusion model (:mod:`judgestats.pairwise.likelihood`) assumes that the judge's
letter given the human verdict has one distribution ``C[·, h]`` for every pair: the letter
depends on the pair only through the human vote. On the calibration pairs that is testable:
within each human verdict ``h``, the judge's letters must be homogeneous across the model
shown first, and across the model shown second. Each is Pearson's test of homogeneity of an
(models × judge letters) table per ``h``,

    X² = Σ_h Σ_{m, j} (n_{mjh} − n_{m·h} n_{·jh} / n_{··h})² / (n_{m·h} n_{·jh} / n_{··h}),

on the rows (models) with at least ``MIN_ROW`` calibration pairs under ``h`` and the letters
seen under ``h``, with ``Σ_h (rows_h − 1)(letters_h − 1)`` degrees of freedom. The reported
p-value is twice the smaller of the two (Bonferroni over first/second). A small p-value says
the assumption fails; a large one does not prove it holds (the test has no power against a
dependence on anything but the models' names, e.g. the prompt).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .counting import PairCounts

__all__ = ["MIN_ROW", "IndependenceTest", "independence_test"]

#: Fewest calibration pairs under a human verdict for a model's row to enter the test.
MIN_ROW: int = 10


@dataclass(frozen=True, slots=True)
class IndependenceTest:
    """Result of :func:`independence_test`.

    Attributes
    ----------
    statistic : tuple of float
        Pearson's X² across the model shown first, and across the model shown second.
    df : tuple of int
        Their degrees of freedom.
    pvalue : float
        ``min(1, 2 × min(p_first, p_second))``: Bonferroni over the two tests (NaN when
        neither has a degree of freedom).
    """

    statistic: tuple
    df: tuple
    pvalue: float


def _homogeneity(table: np.ndarray) -> tuple[float, int]:
    """Pearson's X² and df summed over human verdicts; ``table`` is (models, letters, verdicts)."""
    stat, df = 0.0, 0
    for h in range(table.shape[2]):
        sub = table[:, :, h].astype(float)
        sub = sub[sub.sum(axis=1) >= MIN_ROW]
        sub = sub[:, sub.sum(axis=0) > 0]
        if sub.shape[0] < 2 or sub.shape[1] < 2:
            continue
        expected = sub.sum(axis=1, keepdims=True) * sub.sum(axis=0, keepdims=True) / sub.sum()
        stat += float(((sub - expected) ** 2 / expected).sum())
        df += (sub.shape[0] - 1) * (sub.shape[1] - 1)
    return stat, df


def independence_test(counts: PairCounts) -> IndependenceTest:
    """Test, on the calibration pairs, that the judge's letter depends on the pair only via h.

    Parameters
    ----------
    counts : PairCounts
        Counts of a pairwise frame (only the calibration pairs are used).

    Returns
    -------
    IndependenceTest

    Examples
    --------
    >>> import numpy as np
    >>> from judgestats.pairwise import PairCounts
    >>> labelled = np.zeros((2, 3, 3), dtype=int)
    >>> labelled[0, :, 0] = [40, 5, 5]     # x first, human a: the judge mostly says a
    >>> labelled[1, :, 0] = [5, 5, 40]     # y first, human a: the judge mostly says b
    >>> counts = PairCounts(("x", "y"), np.array([0, 1]), np.array([1, 0]),
    ...                     np.zeros((2, 3), dtype=int), labelled, ("a", "tie", "b"))
    >>> independence_test(counts).pvalue < 1e-10
    True
    """
    from scipy.stats import chi2

    k = len(counts.models)
    stats, dfs, pvalues = [], [], []
    for side in (counts.first, counts.second):
        table = np.zeros((k, *counts.labelled.shape[1:]), dtype=np.int64)
        np.add.at(table, side, counts.labelled)
        stat, df = _homogeneity(table)
        stats.append(stat)
        dfs.append(df)
        pvalues.append(float(chi2.sf(stat, df)) if df > 0 else np.nan)
    finite = [p for p in pvalues if np.isfinite(p)]
    pvalue = min(1.0, 2.0 * min(finite)) if finite else float("nan")
    return IndependenceTest(tuple(stats), tuple(dfs), pvalue)
