"""How much each judge letter buys: expected widths of a full alphabet against its merges.

A score judge can be thresholded, a tie letter folded into "not win", a second judge dropped;
each throws information away. The asymptotic covariance of the joint maximum-likelihood θ̂
(:mod:`judgestats.multiclass.likelihood`) is the inverse Fisher information of the model

    test letters ~ Mult(n, Cθ),    calibration column b ~ Mult(m_b, C[:, b])

(by-human-label design), so the expected interval width of every alphabet — the full one,
each threshold of an ordered score, each judge of a product alphabet ``"a|b"`` alone, or any
merge the user names — can be compared for the same θ, C, n and m before paying for a second
judge or more calibration labels. For J = K = 2 the variance is the paper's eq. (15).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    CountError,
    MethodError,
    check_instance,
    check_sample_size,
)
from ..counts.categories import CategoryCounts, ConfusionMatrix, merged_alphabet
from ..designs import DEFAULT_DESIGN
from ..kernels import z_value
from ..multiclass.likelihood import alphabet_mle
from ..multiclass.methods import ALPHABET, CATEGORIES, DISTRIBUTION
from ..spec import EstimationSpec, resolve_spec

__all__ = ["AlphabetComparison", "alphabet_covariance", "compare_alphabets"]


def alphabet_covariance(theta: Any, matrix: Any, n: float, m: Any) -> np.ndarray:
    """Asymptotic covariance of θ̂ (K × K): the θ block of the inverse Fisher information.

    Parameters
    ----------
    theta : array_like, shape (K,)
        Distribution over the human categories.
    matrix : array_like, shape (J, K)
        Column-stochastic C[a, b] = P(judge = a | human = b). Cells equal to 0 are held at
        0 (a letter the judge never gives to that category carries no parameter).
    n : float
        Test items.
    m : array_like, shape (K,)
        Calibration items per human category (by-human-label design).

    Returns
    -------
    ndarray, shape (K, K)
        Singular when the letters do not identify θ (C of rank < K): then ``inf`` on the
        diagonal.
    """
    theta = np.asarray(theta, dtype=float)
    c = np.asarray(matrix, dtype=float)
    m = np.asarray(m, dtype=float)
    j, k = c.shape
    p = c @ theta
    # parameters: θ_0..θ_{K-2}, then per column the positive cells except its last positive
    free = []
    for b in range(k):
        pos = np.flatnonzero(c[:, b] > 0)
        free += [(a, b, int(pos[-1])) for a in pos[:-1]]
    size = k - 1 + len(free)
    d_test = np.zeros((j, size))
    d_test[:, : k - 1] = c[:, : k - 1] - c[:, [k - 1]]
    d_cal = np.zeros((k, j, size))
    for i, (a, b, ref) in enumerate(free, start=k - 1):
        d_test[a, i] += theta[b]
        d_test[ref, i] -= theta[b]
        d_cal[b, a, i], d_cal[b, ref, i] = 1.0, -1.0
    seen = p > 0
    info = n * (d_test[seen].T / p[seen]) @ d_test[seen]
    for b in range(k):
        cells = c[:, b] > 0
        info += m[b] * (d_cal[b, cells].T / c[cells, b]) @ d_cal[b, cells]
    lift = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])  # θ_K = 1 − Σ others
    try:
        block = np.linalg.inv(info)[: k - 1, : k - 1]
    except np.linalg.LinAlgError:
        return np.full((k, k), np.inf)
    if np.linalg.cond(info) * np.finfo(float).eps >= 1.0:
        return np.full((k, k), np.inf)
    return lift @ block @ lift.T


@dataclass(frozen=True, slots=True)
class AlphabetComparison:
    """Expected interval widths of a judge alphabet and of its merges (one setting).

    ``rows``: one dict per alphabet with ``alphabet`` (its name), ``letters`` (J),
    ``width`` (dict category → expected width 2·q·√Var θ̂_b) and ``ratio`` (the mean width
    over the full alphabet's; above 1 means the merge loses information). ``best_threshold``
    names the shortest threshold row (ordered scores, K = 2) or is None.

    Examples
    --------
    Made by :func:`compare_alphabets`: a 1–5 score against its best fixed threshold:

    >>> import judgestats as js
    >>> cal = js.ConfusionMatrix([[60, 5], [50, 10], [25, 25], [10, 50], [5, 60]],
    ...                          labels=[0, 1], judge_labels=[1, 2, 3, 4, 5])
    >>> res = js.plan.compare_alphabets(cal, n=3000, theta=[0.3, 0.7], m=[150, 150])
    >>> [(row["alphabet"], round(row["ratio"], 3)) for row in res.rows[:3]]
    [('all letters', 1.0), ('threshold: score >= 2', 1.402), ('threshold: score >= 3', 1.045)]
    """

    labels: tuple
    theta: tuple
    n: float
    m: tuple
    confidence_level: float
    rows: tuple[dict[str, Any], ...]
    best_threshold: str | None

    def to_dataframe(self) -> Any:
        """One row per alphabet and human category."""
        import pandas as pd

        records = [
            {"alphabet": r["alphabet"], "letters": r["letters"], "category": lab,
             "width": r["width"][lab], "ratio": r["ratio"]}
            for r in self.rows
            for lab in self.labels
        ]  # fmt: skip
        return pd.DataFrame(records)

    def summary(self) -> str:
        """Return the comparison as text: widths per category and the ratio to the full set."""
        lvl = f"{100 * self.confidence_level:g}%"
        w = max(8, *(len(r["alphabet"]) for r in self.rows))
        pairs = zip(self.labels, self.theta, strict=True)
        theta = ", ".join(f"{lab!r}: {t:.3f}" for lab, t in pairs)
        lines = [
            f"Expected {lvl} interval width (joint maximum likelihood, by-human-label design) "
            f"at θ = ({theta}), n = {self.n:g}, m per category = {list(self.m)}",
            "  " + f"{'alphabet':<{w}} {'J':>3}  " + "  ".join(f"{lab!s:>8}" for lab in self.labels)
            + "   × full",
        ]  # fmt: skip
        for r in self.rows:
            best = "  (best threshold)" if r["alphabet"] == self.best_threshold else ""
            widths = "  ".join(f"{r['width'][lab]:8.4f}" for lab in self.labels)
            lines.append(
                f"  {r['alphabet']:<{w}} {r['letters']:>3}  {widths}   {r['ratio']:.3f}{best}"
            )
        return "\n".join(lines)


def _is_ordered(letters: tuple) -> bool:
    return all(
        isinstance(v, numbers.Real) and not isinstance(v, bool) for v in letters
    ) and len(letters) > 2


def _automatic_merges(letters: tuple, k: int) -> dict[str, dict]:
    """Thresholds of an ordered score (K = 2) and single judges of a product alphabet."""
    out: dict[str, dict] = {}
    if k == 2 and _is_ordered(letters):
        ranked = sorted(letters)
        for cut in ranked[1:]:
            out[f"threshold: score >= {cut:g}"] = {v: int(v >= cut) for v in letters}
    if all(isinstance(v, str) and v.count("|") == 1 for v in letters):
        parts = [v.split("|") for v in letters]
        for i in (0, 1):
            out[f"judge {i + 1} alone"] = {
                v: p[i] for v, p in zip(letters, parts, strict=True)
            }
    return out


def _z_cutoff(level: float, j: int, m: Any) -> float:
    """Return the normal quantile: χ²₁'s cut-off of the profile likelihood, as a half-width."""
    return float(z_value(level))


def _t_cutoff(level: float, j: int, m: Any) -> float:
    """Return the t quantile, ν = min_b m_b/(J − 1) − 1 (at least 1): the small-sample cut-off."""
    from scipy.stats import t as student_t  # lazy

    nu = max(float(np.min(m)) / (j - 1) - 1.0, 1.0)
    return float(student_t.ppf((1.0 + level) / 2.0, nu))


#: The cut-off of each interval method whose width is planned (name → ``cutoff(level, J, m)``);
#: which methods a judge alphabet allows is the capability table's.
_CUTOFFS = {"profile-likelihood": _z_cutoff, "profile-likelihood-t": _t_cutoff}


def _cutoff(spec: EstimationSpec) -> Any:
    """Return the planned method's cut-off; refuse a method without one (a resampling)."""
    if spec.method not in _CUTOFFS:
        raise MethodError(
            f"compare_alphabets plans the widths of the likelihood intervals (a cut-off times "
            f"the expected standard error), but method {spec.method!r} has no cut-off; use "
            + " or ".join(repr(m) for m in _CUTOFFS)
        )
    return _CUTOFFS[spec.method]


def compare_alphabets(
    calibration: ConfusionMatrix,
    *,
    n: float,
    theta: Any = None,
    test: CategoryCounts | None = None,
    m: Any = None,
    merges: dict[str, dict] | None = None,
    confidence_level: float = 0.95,
    method: str = "profile-likelihood-t",
) -> AlphabetComparison:
    """Compare the expected interval width of the full judge alphabet with its merges.

    C is estimated once, from the full alphabet, with half a pseudo-count per cell, (x_ab +
    1/2)/(m_b + J/2), so that a letter unseen for a category still carries its small
    probability; a merge adds up its rows (so a merge never has more information than the full
    alphabet). The widths are 2·q·√Var θ̂_b with Var from :func:`alphabet_covariance` and q
    the cut-off of ``method``: z for ``"profile-likelihood"``, and for
    ``"profile-likelihood-t"`` (the default of :func:`judgestats.correct_distribution` for a
    judge alphabet) the t quantile with ν = min_b m_b/(J − 1) − 1, which grows with the
    number of letters J. With few calibration items per letter this penalty can outweigh what
    the extra letters carry, and a merge then has a ratio below 1. Expected, not simulated
    (simulated widths and coverage: benchmarks/results/alphabets.md).

    Parameters
    ----------
    calibration : ConfusionMatrix
        A pilot calibration set with the judge's alphabet (``judge_labels``).
    n : float
        Planned test items.
    theta : array_like, optional
        Planned distribution over the human categories. By default the maximum-likelihood
        estimate from ``test`` and ``calibration``; one of the two is needed.
    test : CategoryCounts, optional
        Judged test counts, used only to estimate ``theta``.
    m : array_like, optional
        Planned calibration items per human category (default: the pilot's).
    merges : dict, optional
        Named merges to compare, each a mapping old letter → new letter (as
        :meth:`ConfusionMatrix.merge`). Added automatically: every threshold of an ordered
        numeric score when K = 2 (letters >= the cut become human category 1, the others
        0), and each judge alone (``"judge 1 alone"``: the first letter of each pair) when
        the letters are pairs ``"a|b"`` of two judges.
    confidence_level : float, default 0.95
        Two-sided level of the widths; stored on the result.
    method : {"profile-likelihood-t", "profile-likelihood"}
        Which interval's cut-off the widths use (see above).

    Returns
    -------
    AlphabetComparison
        ``summary()``, ``to_dataframe()``, ``rows``, ``best_threshold``.

    See Also
    --------
    alphabets.groups.correct_alphabet : Correct with a judge alphabet wider than the human one.
    plan.calibration_size : Labels needed for a target width.

    Examples
    --------
    >>> import judgestats as js
    >>> cal = js.ConfusionMatrix([[60, 5], [50, 10], [25, 25], [10, 50], [5, 60]],
    ...                       labels=[0, 1], judge_labels=[1, 2, 3, 4, 5])
    >>> res = js.plan.compare_alphabets(cal, n=3000, theta=[0.3, 0.7], m=[150, 150])
    >>> res.best_threshold, round(res.rows[2]["ratio"], 3)  # the best cut is 4.5% wider
    ('threshold: score >= 3', 1.045)
    """
    check_instance("calibration", calibration, ConfusionMatrix)
    spec = resolve_spec(
        judge=CATEGORIES if calibration.square else ALPHABET, target=DISTRIBUTION,
        design=DEFAULT_DESIGN, method=method, confidence_level=confidence_level,
    )  # fmt: skip
    cutoff = _cutoff(spec)
    level = spec.confidence_level
    n = float(check_sample_size("n", n, positive=True))
    k = calibration.k
    if theta is None:
        if test is None:
            raise ArgumentTypeError("compare_alphabets needs theta= (planned) or test= counts")
        check_instance("test", test, CategoryCounts)
        theta = alphabet_mle(test.counts, calibration.counts)[0]
    theta = np.asarray(theta, dtype=float)
    if theta.shape != (k,) or (theta < 0).any() or abs(theta.sum() - 1) > 1e-9:
        raise CountError(f"theta must be a distribution over the {k} human categories, got {theta}")
    m_plan = calibration.human_counts if m is None else np.asarray(m, dtype=float)
    if np.shape(m_plan) != (k,) or (np.asarray(m_plan) <= 0).any():
        raise CountError(f"m must give a positive count for each of the {k} categories, got {m}")
    alphabets = {"all letters": None, **_automatic_merges(calibration.judge_labels, k),
                 **(merges or {})}  # fmt: skip
    counts = np.asarray(calibration.counts, dtype=float)
    c_full = (counts + 0.5) / (counts.sum(0) + 0.5 * calibration.j)
    rows: list[dict[str, Any]] = []
    for name, mapping in alphabets.items():
        c = c_full
        if mapping is not None:
            letters, index = merged_alphabet(calibration.judge_labels, mapping)
            c = np.zeros((len(letters), k))
            np.add.at(c, index, c_full)
        j = c.shape[0]
        q = cutoff(level, j, m_plan)
        cov = alphabet_covariance(theta, c, n, m_plan)
        width = 2 * q * np.sqrt(np.clip(np.diag(cov), 0.0, None))
        per = dict(zip(calibration.labels, width.tolist(), strict=True))
        rows.append({"alphabet": name, "letters": j, "width": per})
    full = float(np.mean(list(rows[0]["width"].values())))
    for r in rows:
        r["ratio"] = float(np.mean(list(r["width"].values()))) / full
    thresholds = [r for r in rows if r["alphabet"].startswith("threshold")]
    best: str | None = None
    if thresholds:
        best = str(min(thresholds, key=lambda r: float(r["ratio"]))["alphabet"])
    return AlphabetComparison(
        labels=calibration.labels, theta=tuple(theta.tolist()), n=n,
        m=tuple(np.asarray(m_plan).tolist()), confidence_level=level, rows=tuple(rows),
        best_threshold=best,
    )  # fmt: skip
