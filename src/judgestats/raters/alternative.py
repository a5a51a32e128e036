r"""The alternative annotator test: can the judge replace one of the human raters.

Calderon, Reichart & Dror (2025), "The Alternative Annotator Test for LLM-as-a-Judge: How to
Statistically Justify Replacing Human Annotators with LLMs", ACL 2025 (arXiv:2501.10970),
written here from its description (leave one rater out, compare, test, control the false
discovery rate):

1. **Leave one rater out.** For each human rater j and each item i that j labelled (and the
   judge, and at least one other rater), the *alignment* of a label with the other raters is
   its accuracy against them, S(ℓ, i, j) = mean over the other raters k of [ℓ = h_k(i)]
   (the paper's scoring for categorical labels). The judge f wins item i when
   S(f(i)) ≥ S(h_j(i)), the rater wins when S(h_j(i)) ≥ S(f(i)) (a tie is a win for both):
   W^f_ij and W^h_ij. The **advantage probabilities** are ρ^f_j = mean_i W^f_ij and
   ρ^h_j = mean_i W^h_ij.
2. **Test**, one-sided, for each rater: H0: ρ^f_j ≤ ρ^h_j − ε against H1: ρ^f_j > ρ^h_j − ε,
   by the paired t-test of d_i = W^h_ij − W^f_ij (H0: mean d ≥ ε;
   t = (d̄ − ε)/(s_d/√n_j), p = P(T_{n_j−1} ≤ t); with s_d = 0, p = 0 when d̄ < ε, else 1).
   ε is the cost–benefit margin granted to the judge for being cheaper and faster: the paper's
   rules of thumb are ε = 0.2 for expert raters, 0.15 for skilled raters (students, trained
   workers) and 0.1 for crowd workers; the default here is the smallest and most demanding,
   :data:`DEFAULT_EPSILON` = 0.1 (pass ``epsilon=0.2`` for experts), to be chosen before
   looking at the result.
3. **Control** the false discovery rate over the m raters' hypotheses with the
   Benjamini–Yekutieli step-up procedure at level α (valid under any dependence: the
   hypotheses share items and raters).
4. The **winning rate** ω is the share of raters whose H0 is rejected; the judge **passes**
   (may replace a rater) when ω ≥ 0.5. The average advantage probability ρ = mean_j ρ^f_j
   compares judges.

**Requirements.** The paired t-test needs at least :data:`MIN_ITEMS` = 30 items per rater (the
paper: "to ensure the normality assumption of the t-test holds, you should have at least 30
instances"; 50–100 suffice in most of its cases): with fewer the test is refused with
:class:`~judgestats.errors.TooFewSharedItemsError`, which names the raters short of it. It
needs at least two human raters; the paper recommends three or more: with two, each rater is
compared with the other alone (no consensus to represent), ω can only be 0, 0.5 or 1, and the
result says so in ``notes``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    RatingsError,
    TooFewSharedItemsError,
    check_instance,
    check_open_unit,
    listed,
)
from .ratings import Ratings

__all__ = [
    "DEFAULT_EPSILON",
    "MIN_ITEMS",
    "PASS_RATE",
    "AltTestResult",
    "alt_test",
    "benjamini_yekutieli",
]

#: Default ε: the paper's rule of thumb for crowd workers, its most demanding.
DEFAULT_EPSILON = 0.1
#: Items each rater must share with the judge and another rater (the paper's t-test minimum).
MIN_ITEMS = 30
#: The judge passes when its winning rate is at least this.
PASS_RATE = 0.5


def benjamini_yekutieli(pvalues: Any) -> np.ndarray:
    """Benjamini–Yekutieli adjusted p-values (step-up, valid under any dependence).

    adj_(i) = min_{j ≥ i} min(1, m c(m) p_(j) / j) with c(m) = Σ_{l=1..m} 1/l, p sorted
    ascending (Benjamini & Yekutieli 2001, Theorem 1.3); a hypothesis is rejected at level
    α when its adjusted p-value is at most α.
    """
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    if m == 0:
        return p
    order = np.argsort(p)
    scaled = p[order] * m * np.sum(1.0 / np.arange(1, m + 1)) / np.arange(1, m + 1)
    adjusted = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    out = np.empty(m)
    out[order] = adjusted
    return out


@dataclass(frozen=True, slots=True)
class AltTestResult:
    """The alternative annotator test (module docstring) of one judge against human raters.

    Attributes
    ----------
    judge : str
        The judge.
    raters : tuple
        The human raters, each left out in turn.
    n_items : numpy.ndarray
        Items of each rater's comparison.
    judge_advantage, rater_advantage : numpy.ndarray
        ρ^f_j and ρ^h_j: the share of those items where the judge (the rater) aligns with the
        other raters at least as well as the rater (the judge).
    pvalues : numpy.ndarray
        One-sided paired t-test p-value of each rater's H0 (judge advantage ≤ −ε).
    adjusted_pvalues : numpy.ndarray
        Benjamini–Yekutieli adjusted p-values.
    rejected : numpy.ndarray
        Whether each H0 is rejected at level ``alpha``.
    winning_rate : float
        ω, the share of raters whose H0 is rejected.
    passed : bool
        ω ≥ 0.5: the judge may replace a rater.
    advantage_probability : float
        ρ, the mean of ``judge_advantage`` (compares judges).
    epsilon, alpha : float
        The margin and the false discovery rate level.
    scoring, test, correction : str
        ``"accuracy"``, ``"one-sided paired t-test"``, ``"benjamini-yekutieli"``.
    notes : tuple of str
        What the result cannot say (e.g. fewer than three raters).

    Examples
    --------
    A judge that copies the first rater, among three raters who agree on 40 items and split
    on 20: it never aligns worse with the others than the left-out rater does.

    >>> import numpy as np
    >>> from judgestats.raters import Ratings, alt_test
    >>> humans = np.array([[1, 1, 1]] * 40 + [[1, 0, 0]] * 10 + [[0, 1, 0]] * 10)
    >>> res = alt_test(Ratings.from_matrix(humans, judge=humans[:, 0]), epsilon=0.2)
    >>> res.n_items.tolist(), res.judge_advantage.round(3).tolist()
    ([60, 60, 60], [1.0, 1.0, 1.0])
    >>> res.rejected.tolist(), res.winning_rate, res.passed
    ([True, True, True], 1.0, True)
    """

    judge: str
    raters: tuple
    n_items: np.ndarray
    judge_advantage: np.ndarray
    rater_advantage: np.ndarray
    pvalues: np.ndarray
    adjusted_pvalues: np.ndarray
    rejected: np.ndarray
    winning_rate: float
    passed: bool
    advantage_probability: float
    epsilon: float
    alpha: float
    scoring: str = "accuracy"
    test: str = "one-sided paired t-test"
    correction: str = "benjamini-yekutieli"
    notes: tuple = ()

    def summary(self) -> str:
        """Return the test's verdict, its parameters and one line per rater."""
        verdict = "passes" if self.passed else "fails"
        lines = [
            f"Alternative annotator test: judge {self.judge!r} {verdict} (winning rate "
            f"{self.winning_rate:.2f}, needs >= {PASS_RATE}); epsilon = {self.epsilon}, "
            f"alpha = {self.alpha} ({self.correction}); {self.test} on {self.scoring}; "
            f"average advantage probability {self.advantage_probability:.3f}."
        ]
        for i, r in enumerate(self.raters):
            lines.append(
                f"  left out {r!r}: {self.n_items[i]} items, judge advantage "
                f"{self.judge_advantage[i]:.3f}, rater advantage {self.rater_advantage[i]:.3f}, "
                f"p = {self.pvalues[i]:.3g} (adjusted {self.adjusted_pvalues[i]:.3g})"
                f"{', rejected' if self.rejected[i] else ''}"
            )
        return "\n".join([*lines, *(f"note: {n}" for n in self.notes)])


def _wins(codes: np.ndarray, judge: np.ndarray, j: int) -> tuple[np.ndarray, np.ndarray]:
    """W^f and W^h of rater j on its items (module docstring, step 1)."""
    others = np.delete(codes, j, axis=1)
    n_other = (others >= 0).sum(axis=1)
    use = (codes[:, j] >= 0) & (judge >= 0) & (n_other > 0)
    o, n = others[use], n_other[use]
    s_judge = ((o == judge[use, None]) & (o >= 0)).sum(axis=1) / n
    s_rater = ((o == codes[use, j, None]) & (o >= 0)).sum(axis=1) / n
    return s_judge >= s_rater, s_rater >= s_judge


def _pvalue(d: np.ndarray, epsilon: float) -> float:
    """One-sided paired t-test of H0: mean d ≥ ε (module docstring, step 2)."""
    from scipy.stats import t as student_t

    mean, sd = float(d.mean()), float(d.std(ddof=1))
    if sd == 0.0:
        return 0.0 if mean < epsilon else 1.0
    return float(student_t.cdf((mean - epsilon) / (sd / np.sqrt(d.size)), d.size - 1))


def alt_test(
    ratings: Ratings, *, judge: Any = None, epsilon: float = DEFAULT_EPSILON,
    alpha: float = 0.05,
) -> AltTestResult:  # fmt: skip
    """Test whether the judge can replace a human rater (Calderon, Reichart & Dror 2025).

    Parameters
    ----------
    ratings : Ratings
        At least two human raters and a judge (``Ratings(..., judge=...)``).
    judge : str, optional
        A rater to treat as the judge (by default the ratings' own judge).
    epsilon : float
        The cost–benefit margin ε in [0, 1) (module docstring: 0.2 experts, 0.15 skilled,
        0.1 crowd workers, the default).
    alpha : float
        The false discovery rate level of the Benjamini–Yekutieli procedure.

    Returns
    -------
    AltTestResult

    Raises
    ------
    TooFewSharedItemsError
        A rater has fewer than :data:`MIN_ITEMS` items labelled by the judge and another rater.

    Examples
    --------
    >>> import numpy as np
    >>> from judgestats.raters import Ratings, alt_test
    >>> gen = np.random.default_rng(0)
    >>> truth = gen.integers(0, 2, 200)
    >>> noisy = lambda acc: np.where(gen.random(200) < acc, truth, 1 - truth)
    >>> r = Ratings.from_matrix(np.column_stack([noisy(0.85) for _ in range(3)]),
    ...                         judge=noisy(0.85))
    >>> res = alt_test(r, epsilon=0.1)
    >>> res.winning_rate, res.passed
    (1.0, True)
    """
    check_instance("ratings", ratings, Ratings)
    if judge is not None and judge != ratings.judge:
        ratings = ratings.with_judge(judge)
    if ratings.judge is None or ratings.judge_codes is None:
        raise RatingsError(
            "the ratings have no judge: build them with judge=... or pass judge= naming a rater"
        )
    if ratings.n_raters < 2:
        raise RatingsError(
            f"the alternative annotator test needs at least 2 human raters (3 or more "
            f"recommended), got {ratings.n_raters}: {list(ratings.raters)!r}"
        )
    eps = check_open_unit("epsilon", epsilon) if epsilon != 0 else 0.0
    level = check_open_unit("alpha", alpha)
    jc = ratings.judge_codes
    wins = [_wins(ratings.codes, jc, j) for j in range(ratings.n_raters)]
    n = np.array([wf.size for wf, _ in wins])
    short = [f"{ratings.raters[j]!r} ({n[j]} items)" for j in np.flatnonzero(n < MIN_ITEMS)]
    if short:
        raise TooFewSharedItemsError(
            f"the alternative annotator test needs at least {MIN_ITEMS} items per rater that "
            "the judge and at least one other rater also labelled (its paired t-test; "
            f"Calderon et al. 2025); short: {listed(short)}. Label more items with these raters"
        )
    p = np.array([_pvalue(wh.astype(float) - wf, eps) for wf, wh in wins])
    adj = benjamini_yekutieli(p)
    rejected = adj <= level
    omega = float(rejected.mean())
    notes = () if ratings.n_raters >= 3 else (
        "only 2 human raters: each is compared with the other alone (no group consensus), so "
        "the winning rate is 0, 0.5 or 1; the paper recommends at least 3 raters",)  # fmt: skip
    return AltTestResult(
        str(ratings.judge), ratings.raters, n, np.array([wf.mean() for wf, _ in wins]),
        np.array([wh.mean() for _, wh in wins]), p, adj, rejected, omega, omega >= PASS_RATE,
        float(np.mean([wf.mean() for wf, _ in wins])), float(eps), float(level), notes=notes,
    )
