"""Whether a calibration set identifies θ: the judge must tell every pair of human categories apart.

:func:`confused_pairs` tests each pair of confusion-matrix columns for equality (G test);
the checks here refuse a data set whose judge letters, conditioning or separation do not allow
a correction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import (
    ConfusedCategoriesError,
    CountError,
    check_conditioning,
    check_informative,
    check_instance,
    check_labels_match,
    check_max_condition,
    check_probability,
)
from ..counts.categories import (
    CategoryCounts,
    ConfusionMatrix,
)
from ..kernels import g_statistic

if TYPE_CHECKING:  # pragma: no cover
    pass

__all__ = [
    "SEPARATION_LEVEL",
]


#: Default significance level of the test that the judge separates two human categories (see
#: :func:`confused_pairs`): a pair whose equality is not rejected at this level is refused.
SEPARATION_LEVEL: float = 0.05


def confused_pairs(
    calibration: ConfusionMatrix, level: float = SEPARATION_LEVEL, design_effects: Any = None
) -> list:
    """Pairs of human categories the calibration data cannot tell the judge separates.

    For each pair (a, b) of human categories, the likelihood-ratio (G) test of homogeneity of
    the 2 × J table of judge labels given human = a and given human = b: H0 "the judge labels
    items of the two categories with the same distribution", i.e. columns a and b of the
    confusion matrix C are equal, which makes C singular and θ unidentified. Sampling noise
    makes the estimate Ĉ of such a C invertible, often with a small condition number, so the
    condition number alone cannot catch it. The statistic G = 2 Σ O log(O/E) is referred to
    χ² with (judge labels seen in the pair − 1) degrees of freedom.

    With repeated items (counts built with ``cluster=``) the rows of one item are not
    independent and G, which counts rows, is too large: it is divided by the pair's design
    effect, the first-order Rao–Scott correction (Rao & Scott 1981, JASA 76, 221–230),
    d_ab = (m_a d_a + m_b d_b)/(m_a + m_b) over the two columns' design effects d_b of Ĉ
    (:mod:`judgestats.multiclass.clustered`: tr S / tr Σ, at least 1) and their rows m_b.

    Parameters
    ----------
    calibration : ConfusionMatrix
        The calibration counts.
    level : float, default SEPARATION_LEVEL (0.05)
        Significance level; a pair whose p-value is at least ``level`` is returned.
    design_effects : array_like of float, shape (k,), optional
        Each column's design effect when items repeat (None: every row an item).

    Returns
    -------
    list of (label_a, label_b, pvalue)
        Empty when every pair is separated.
    """
    from scipy.stats import chi2  # lazy

    counts = np.asarray(calibration.counts, dtype=float)
    labels = calibration.labels
    deff = (np.ones(calibration.k) if design_effects is None
            else np.maximum(np.nan_to_num(np.asarray(design_effects, dtype=float), nan=1.0), 1.0))
    rows = counts.sum(axis=0)
    out = []
    for a in range(calibration.k):
        for b in range(a + 1, calibration.k):
            table = counts[:, [a, b]]
            table = table[table.sum(axis=1) > 0]
            df = table.shape[0] - 1
            if df < 1:  # both columns put every item on the same judge label
                out.append((labels[a], labels[b], 1.0))
                continue
            pair = (rows[a] * deff[a] + rows[b] * deff[b]) / max(rows[a] + rows[b], 1.0)
            pvalue = float(chi2.sf(g_statistic(table) / pair, df))
            if pvalue >= level:
                out.append((labels[a], labels[b], pvalue))
    return out


def _check_separation(calibration: ConfusionMatrix, level: Any, design_effects: Any) -> None:
    if level is None or (calibration.k < 3 and calibration.square):
        return
    level = float(check_probability("separation_level", level))
    pairs = confused_pairs(calibration, level, design_effects)
    if pairs:
        shown = "; ".join(f"{a!r} and {b!r} (p = {p:.3g})" for a, b, p in pairs)
        raise ConfusedCategoriesError(
            f"the calibration set does not show that the judge tells these human categories "
            f"apart: {shown}. A test that the judge labels both with the same distribution "
            f"did not reject at separation_level = {level:g}"
            + ("" if design_effects is None else " (counting an item's repeats by their "
               "design effect)")
            + ", so θ may not be identified "
            "(the estimated confusion matrix is invertible only through sampling noise). "
            "Merge the categories, label more calibration items of them, or pass "
            "separation_level=None to skip this check"
        )


def _check_letters(test: Any, calibration: Any) -> None:
    """Types, and the test's judge letters equal to the calibration's (same order)."""
    check_instance("test", test, CategoryCounts)
    check_instance("calibration", calibration, ConfusionMatrix)
    if calibration.square:
        check_labels_match("test labels", test.labels, "calibration labels", calibration.labels)
    else:
        check_labels_match(
            "test labels", test.labels, "calibration judge_labels", calibration.judge_labels
        )


def _check_pair(
    test: Any, calibration: Any, max_condition: Any, separation_level: Any = None,
    design_effects: Any = None,
) -> float:
    """Check a test and calibration pair; ``design_effects``: Ĉ's columns' (repeated items)."""
    _check_letters(test, calibration)
    max_condition = check_max_condition(max_condition)
    matrix = calibration.matrix
    unseen = (calibration.judge_counts == 0) & (test.counts > 0)
    if unseen.any() and not calibration.square:
        a = int(np.argmax(unseen))
        letter = calibration.judge_labels[a]
        raise CountError(
            f"judge letter {letter!r} is on {int(test.counts[a])} test items but on no "
            "calibration item: how often the judge says it for each human category can only "
            "be learnt from human-labelled items, and none has it; merge it into another "
            "letter (e.g. "
            f"calibration.merge({{{letter!r}: ...}}) and test.merge(...)) or label items the "
            "judge gave it"
        )
    if calibration.k == 2 and calibration.square:
        check_informative(matrix[0, 0], matrix[1, 1], what="Ĉ[0, 0] + Ĉ[1, 1] (q̂0 + q̂1)")
    if not calibration.square:  # name the categories the judge's letters do not separate
        _check_separation(calibration, separation_level, design_effects)
    check_conditioning(calibration.condition_number, max_condition)
    if calibration.square:
        _check_separation(calibration, separation_level, design_effects)
    return max_condition
