"""θ_A − θ_B of results from any source of judge information: scores, juries, letters.

:func:`judgestats.compare.difference` compares two models from their counts under the
paper's model. A judge score (:func:`judgestats.scores.correct_scores`, PPI++) or a jury
(:func:`judgestats.jury.correct_jury`) gives a rate with its own variance; this module
compares such results, and mixes of them with a :class:`~judgestats.Correction`.

**Independent arms** (:func:`difference_of`): the two rates rest on disjoint data (a
calibration set and a test set each), so Var(θ̂_A − θ̂_B) = Var(θ̂_A) + Var(θ̂_B), each arm's
variance its own (PPI++'s, summed over items, for a score; the variance a correction's interval
rests on, θ̂(1 − θ̂)/``effective_labels``, :func:`judgestats.effective.interval_variance`; the
variance its interval's width implies for the others, :func:`judgestats.results.width_variance`),
and the interval is
Wald: Δ̂ ± z·√Var, with the p-value 2Φ(−|Δ̂|/se).

**Paired arms** (:func:`~judgestats.compare.paired.paired_score_difference`,
:func:`~judgestats.compare.paired.paired_jury_difference`, in :mod:`.paired`): two systems
answered the same prompts, one judge or one jury judged both answers, and humans labelled both
answers on the same rows; the difference's variance is the joint one over items, made with
:class:`ResultDifference` from this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    check_rng,
)
from ..kernels import z_value
from ..results import ConfidenceInterval, Tabular, note_lines, width_variance

__all__ = ["ResultDifference", "difference_of", "rank_of", "shared_jury_difference"]

INDEPENDENT = "independent arms (variances added)"
PAIRED = "paired arms (joint influence terms over items)"


def _arm_variance(name: str, res: Any) -> float:
    """Var(θ̂) of one arm: its own ``variance`` where it has one, else its interval's."""
    ci = getattr(res, "ci", None)
    if not isinstance(ci, ConfidenceInterval) or not hasattr(res, "estimate"):
        raise ArgumentTypeError(
            f"{name} must be a result with a rate and its interval (a Correction, "
            f"ScoreCorrection or JuryCorrection), got {type(res).__name__}"
        )
    own = getattr(res, "variance", None)
    if isinstance(own, float) and np.isfinite(own) and own >= 0:
        return own
    worth = getattr(res, "effective_labels", None)  # θ̂(1 − θ̂)/Var(θ̂): the variance it rests on
    if isinstance(worth, float) and worth > 0:
        theta = float(res.estimate)
        return theta * (1.0 - theta) / worth
    return width_variance(ci)


def _check_names(names: Any) -> tuple[str, str]:
    if not (isinstance(names, tuple) and len(names) == 2
            and all(isinstance(s, str) for s in names)):  # fmt: skip
        raise ArgumentTypeError(f"names must be a tuple of two strings, got {names!r}")
    return names


def _wald(estimate: float, variance: float, level: float) -> tuple[ConfidenceInterval, float,
                                                                    float]:  # fmt: skip
    from scipy.stats import norm

    se = float(np.sqrt(max(variance, 0.0)))
    half = float(z_value(level)) * se
    ci = ConfidenceInterval(max(estimate - half, -1.0), min(estimate + half, 1.0), "wald", level)
    pvalue = float(2.0 * norm.sf(abs(estimate) / se)) if se > 0 else float(estimate == 0.0)
    return ci, se, pvalue


def difference_of(result_a: Any, result_b: Any, *,
                  names: tuple[str, str] = ("A", "B")) -> ResultDifference:  # fmt: skip
    """θ_A − θ_B of two results on independent data: a score's, a jury's or a correction's.

    Var(θ̂_A − θ̂_B) = Var(θ̂_A) + Var(θ̂_B) (module docstring): the arms must share no
    labelled or judged row (a calibration set and a test set each). For two score arms on
    the same prompts with the same labelled rows use
    :func:`~judgestats.compare.paired.paired_score_difference` (a jury's:
    :func:`~judgestats.compare.paired.paired_jury_difference`); for two
    letter judges' counts, :func:`judgestats.compare.difference` (shared calibration, paired
    items).

    Parameters
    ----------
    result_a, result_b : Correction, ScoreCorrection or JuryCorrection
        The two rates, at the same ``confidence_level`` (the difference's level).
    names : (str, str), default ("A", "B")
        Labels of the two arms.

    Returns
    -------
    ResultDifference
        ``pairing`` = ``"independent arms (variances added)"``.

    Raises
    ------
    ArgumentTypeError
        An argument that is not a result with a rate and its interval, or bad ``names``.
    JudgeStatsError
        The two results at different confidence levels.

    Examples
    --------
    A judge score's rate (PPI++) against a letter judge's correction of another model:

    >>> import numpy as np
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.6
    >>> s = np.where(y, 0.7, 0.3) + rng.normal(0, 0.2, 2000)
    >>> a = js.scores.correct_scores(s, np.where(np.arange(2000) < 400, y, np.nan), rng=1)
    >>> b = js.correct(js.JudgedCounts(positive=480, n=1000),
    ...                js.ConfusionCounts(tp=85, fn=15, tn=80, fp=20))
    >>> diff = js.compare.difference_of(a, b, names=("score", "letter"))
    >>> diff.pairing, round(diff.estimate, 3), diff.ci.method
    ('independent arms (variances added)', 0.164, 'wald')
    """
    names = _check_names(names)
    var_a, var_b = _arm_variance("result_a", result_a), _arm_variance("result_b", result_b)
    level_a = float(result_a.confidence_level)
    if not np.isclose(level_a, float(result_b.confidence_level)):
        raise JudgeStatsError(
            f"the two results have different confidence levels ({level_a:g} and "
            f"{float(result_b.confidence_level):g}); correct both at the level of the difference"
        )
    est_a, est_b = float(result_a.estimate), float(result_b.estimate)
    ci, se, pvalue = _wald(est_a - est_b, var_a + var_b, level_a)
    return ResultDifference(
        estimate=est_a - est_b, ci=ci, standard_error=se, pvalue=pvalue, estimate_a=est_a,
        estimate_b=est_b, variance_a=var_a, variance_b=var_b, covariance=0.0,
        pairing=INDEPENDENT, names=names, confidence_level=level_a,
        sources=(type(result_a).__name__, type(result_b).__name__),
    )  # fmt: skip


def shared_jury_difference(
    test_a: Any, test_b: Any, calibration: Any, *, judges: Any = None,
    names: tuple[str, str] = ("A", "B"), confidence_level: float = 0.95,
) -> ResultDifference:  # fmt: skip
    """θ_A − θ_B of two systems judged by one jury with one shared calibration set.

    Each system's rate is :func:`judgestats.jury.correct_jury`'s (the paper's design, the
    members' minimum-variance weights w_A, w_B); the two share the calibration counts, so the
    members' q̃'s enter both: Var(Δ̂) = w_Aᵀ Σ̃_A w_A + w_Bᵀ Σ̃_B w_B − 2 w_Aᵀ C w_B with
    C_jk = [(1 − θ̃_A,j)(1 − θ̃_B,k) S⁰_jk + θ̃_A,j θ̃_B,k S¹_jk]/(D̃_j D̃_k), the
    calibration part of :mod:`judgestats.jury.weights`' Σ̃ with one gradient from each system
    (the test sets are independent). Where a human class has fewer than 50 items the jury's
    interval is its fallback's, and the difference takes each arm's variance from its
    interval and adds them (independent arms: wider, since the shared calibration makes the
    two estimates covary positively).

    Parameters
    ----------
    test_a, test_b : CategoryCounts
        Each system's test counts over the product letters (``"1|0"``), independent items.
    calibration : ConfusionMatrix
        The one calibration set, letters × human (0, 1).
    judges : sequence of str, optional
        The members' names.
    names : (str, str), default ("A", "B")
        Labels of the two systems.
    confidence_level : float, default 0.95
        Two-sided level; stored on the result.

    Returns
    -------
    ResultDifference
        ``pairing`` names the shared calibration (or the fallback's independent arms).

    Raises
    ------
    ClusteredCountsError
        Counts with repeated items (the shared-calibration covariance models independent
        rows).
    LabelError, MethodError
        As :func:`judgestats.jury.correct_jury`.

    Examples
    --------
    >>> import judgestats as js
    >>> letters = ["0|0", "0|1", "1|0", "1|1"]
    >>> cal = js.ConfusionMatrix([[70, 4], [12, 6], [10, 8], [8, 82]], labels=[0, 1],
    ...                          judge_labels=letters)
    >>> a = js.CategoryCounts([380, 70, 90, 460], labels=letters)
    >>> b = js.CategoryCounts([450, 70, 90, 390], labels=letters)
    >>> diff = js.compare.shared_jury_difference(a, b, cal)
    >>> diff.pairing, diff.covariance > 0
    ('one shared jury calibration (joint delta method)', True)
    """
    from .._validation import ClusteredCountsError
    from ..jury import correct_jury, jury_cells
    from ..jury.weights import jury_bounds

    names = _check_names(names)
    if any(x.clusters is not None for x in (test_a, test_b, calibration)):
        raise ClusteredCountsError(
            "shared_jury_difference models independent rows; with repeated items compare the "
            "two juries' results with compare.difference_of (independent arms)"
        )
    res_a = correct_jury(test_a, calibration, judges=judges, confidence_level=confidence_level)
    res_b = correct_jury(test_b, calibration, judges=judges, confidence_level=confidence_level)
    level = float(res_a.confidence_level)
    z = float(z_value(level))
    (t_a, cal), (t_b, _) = jury_cells(test_a, calibration), jury_cells(test_b, calibration)
    b_a, b_b = jury_bounds(t_a, cal, z), jury_bounds(t_b, cal, z)
    estimate = res_a.estimate - res_b.estimate
    if res_a.fallback or res_b.fallback:
        var_a, var_b = width_variance(res_a.ci), width_variance(res_b.ci)
        cov, pairing = 0.0, f"{INDEPENDENT}: the jury's fallback under 50 items per class"
    else:
        var_a, var_b = float(b_a["se"]) ** 2, float(b_b["se"]) ** 2
        den = b_a["den"]
        g = [((1 - b["theta"]) / den, -b["theta"] / den) for b in (b_a, b_b)]
        cross = (np.outer(g[0][0], g[1][0]) * b_a["s_0"] + np.outer(g[0][1], g[1][1]) * b_a["s_1"])
        cov = float(b_a["weights"] @ np.where(np.isfinite(cross), cross, 0.0) @ b_b["weights"])
        pairing = "one shared jury calibration (joint delta method)"
    ci, se, pvalue = _wald(estimate, var_a + var_b - 2 * cov, level)
    return ResultDifference(
        estimate=estimate, ci=ci, standard_error=se, pvalue=pvalue, estimate_a=res_a.estimate,
        estimate_b=res_b.estimate, variance_a=var_a, variance_b=var_b, covariance=cov,
        pairing=pairing, names=names, confidence_level=level,
        sources=("JuryCorrection", "JuryCorrection"),
    )  # fmt: skip


def rank_of(results: Any, *, draws: int = 10_000, rng: Any = None) -> Any:
    """Rank results from any source (scores, juries, letters), the arms independent.

    Each θ_i is drawn from N(θ̂_i, Var(θ̂_i)) with each result's own variance (as
    :func:`difference_of`), independently, and the draws give the rank probabilities, the
    pairwise P(θ_i > θ_j) and the expected Kendall τ of the point ranking, the face of
    :func:`judgestats.compare.rank` (its ``ci`` are the results' own intervals).

    Parameters
    ----------
    results : mapping of str to Correction, ScoreCorrection or JuryCorrection
        Two or more results on separate data, at one confidence level.
    draws : int, default 10000
        Normal draws (at least 100).
    rng : None, int, SeedSequence or Generator
        The draws.

    Returns
    -------
    Ranking
        ``method`` = ``"normal draws (independent arms)"``.

    Raises
    ------
    ArgumentTypeError
        Not a mapping of two or more results, or too few draws.
    JudgeStatsError
        Results at different confidence levels.

    Examples
    --------
    >>> import judgestats as js
    >>> cal = js.ConfusionCounts(tp=90, fn=10, tn=80, fp=20)
    >>> results = {name: js.correct(js.JudgedCounts(positive=k, n=1000), cal)
    ...            for name, k in (("a", 650), ("b", 600), ("c", 450))}
    >>> ranking = js.compare.rank_of(results, rng=0)
    >>> ranking.order, round(ranking.prob_greater("a", "c"), 3)
    (('a', 'b', 'c'), 1.0)
    """
    from collections.abc import Mapping

    from .._validation import check_positive_int
    from .rankings import Ranking, _rank_summary

    if not isinstance(results, Mapping) or len(results) < 2:
        raise ArgumentTypeError(
            "results must be a mapping of two or more names to results, got "
            f"{type(results).__name__}" + (f" of {len(results)}" if isinstance(results, Mapping)
                                           else "")
        )  # fmt: skip
    names = tuple(str(k) for k in results)
    arms = list(results.values())
    var = np.array([_arm_variance(f"results[{k!r}]", r) for k, r in zip(names, arms, strict=True)])
    levels = sorted({float(r.confidence_level) for r in arms})
    if len(levels) > 1:
        raise JudgeStatsError(f"the results have different confidence levels {levels}; "
                              "correct all at one level")  # fmt: skip
    draws = check_positive_int("draws", draws, minimum=100)
    gen = check_rng(rng)
    point = np.array([float(r.estimate) for r in arms])
    th = point + gen.standard_normal((draws, point.size)) * np.sqrt(var)
    summary = _rank_summary(th, np.full(draws, 1.0 / draws), point, levels[0], gen)
    designs = {str(getattr(r, "design", "")) for r in arms}
    return Ranking(
        models=names, estimate=dict(zip(names, point.tolist(), strict=True)),
        naive={n: float(getattr(r, "naive", np.nan)) for n, r in zip(names, arms, strict=True)},
        ci={n: r.ci for n, r in zip(names, arms, strict=True)},
        order=tuple(names[i] for i in summary["order"]),
        rank_probabilities=summary["rank_probabilities"], pairwise=summary["pairwise"],
        expected_kendall_tau=summary["kendall_tau"], method="normal draws (independent arms)",
        confidence_level=levels[0], reps=draws, undefined=0, effective_draws=float(draws),
        shared_calibration=False,
        design=designs.pop() if len(designs) == 1 else "mixed designs",
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class ResultDifference(Tabular):
    """θ_A − θ_B of two results (:func:`difference_of`, :mod:`.paired`'s paired differences).

    Attributes
    ----------
    estimate : float
        θ̂_A − θ̂_B.
    ci : ConfidenceInterval
        Wald interval Δ̂ ± z·se at ``confidence_level``, truncated to [−1, 1].
    standard_error : float
        √Var(θ̂_A − θ̂_B).
    pvalue : float
        Two-sided p-value of H0: θ_A = θ_B, 2Φ(−|Δ̂|/se).
    estimate_a, estimate_b : float
        The two rates (unclipped PPI++ estimates on the paired path).
    variance_a, variance_b : float
        Each arm's Var(θ̂).
    covariance : float
        Cov(θ̂_A, θ̂_B): 0 for independent arms; the paired items' for paired arms.
    pairing : str
        Which variance: independent arms (variances added) or paired arms (joint influence
        terms over items).
    names : (str, str)
        The arms' labels.
    confidence_level : float
        Two-sided level of ``ci``.
    sources : (str, str)
        Each arm's kind of result (``"ScoreCorrection"``, ``"JuryCorrection"``,
        ``"Correction"``, …).
    lam : (float, float) or None
        The paired arms' power-tuning λ̂_A, λ̂_B; None for independent arms.
    notes : tuple of str
        What widened the variance beyond the pairing's (a paired arm's rare human class);
        empty where nothing did.

    Examples
    --------
    Made by :func:`difference_of`, :func:`shared_jury_difference` or :mod:`.paired`'s
    ``paired_score_difference`` and ``paired_jury_difference``:

    >>> import judgestats as js
    >>> a = js.correct(js.JudgedCounts(positive=600, n=1000),
    ...                js.ConfusionCounts(tp=90, fn=10, tn=80, fp=20))
    >>> b = js.correct(js.JudgedCounts(positive=500, n=1000),
    ...                js.ConfusionCounts(tp=90, fn=10, tn=80, fp=20))
    >>> d = js.compare.difference_of(a, b)
    >>> round(d.estimate, 4), d.covariance  # (0.6 + 0.8 − 1)/0.7 − (0.5 + 0.8 − 1)/0.7
    (0.1429, 0.0)
    """

    kind: ClassVar[str] = "result-difference"

    estimate: float
    ci: ConfidenceInterval
    standard_error: float
    pvalue: float
    estimate_a: float
    estimate_b: float
    variance_a: float
    variance_b: float
    covariance: float
    pairing: str
    names: tuple[str, str]
    confidence_level: float
    sources: tuple[str, str]
    lam: tuple[float, float] | None = None
    notes: tuple[str, ...] = ()

    @property
    def method(self) -> str:
        """The interval method: ``"wald"``."""
        return self.ci.method

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict of the tidy row (JSON-serialisable)."""
        return {
            "estimate": self.estimate, "ci_low": self.ci.low, "ci_high": self.ci.high,
            "method": self.method, "confidence_level": self.confidence_level,
            "standard_error": self.standard_error, "pvalue": self.pvalue,
            "name_a": self.names[0], "name_b": self.names[1], "estimate_a": self.estimate_a,
            "estimate_b": self.estimate_b, "covariance": self.covariance,
            "pairing": self.pairing, "source_a": self.sources[0], "source_b": self.sources[1],
        }  # fmt: skip

    def _records(self) -> list[dict[str, Any]]:
        return [self.to_dict()]

    def summary(self) -> str:
        """Short text: the difference, its interval, the p-value and how the arms pair."""
        a, b = self.names
        lines = [
            f"θ_{a} − θ_{b} = {self.estimate:.4f}  [{self.ci.low:.4f}, {self.ci.high:.4f}] "
            f"({self.confidence_level:.0%}, wald), p = {self.pvalue:.3g}",
            f"  {a}: {self.estimate_a:.4f} ({self.sources[0]}), {b}: {self.estimate_b:.4f} "
            f"({self.sources[1]})",
            f"  variance: {self.pairing}; covariance {self.covariance:.3g}",
            *note_lines(*self.notes),
        ]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"ResultDifference(estimate={self.estimate:.6g}, ci={self.ci!r}, "
                f"pairing={self.pairing!r}, names={self.names!r})")  # fmt: skip
