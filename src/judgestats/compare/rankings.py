"""Leaderboards of judged models: :func:`rank` and its :class:`Ranking`.

Rank probabilities, pairwise P(θ_i > θ_j) and the expected Kendall τ of the point ranking
(:func:`kendall_tau`), from a joint parametric bootstrap or the joint posterior of the
misclassification model; :func:`plot_ranking` draws them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    MethodError,
    NotInformativeError,
    SamplingWarning,
    check_model_keys,
    check_model_mapping,
    check_positive_int,
    check_rng,
    require_extra,
    warn_deprecated,
)
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import DEFAULT_DESIGN, bootstrap_draws
from ..designs.posterior import posterior_draws
from ..estimators import clip_warned, rogan_gladen_counts
from ..repeated import arms_bootstrap, cluster_summary, is_clustered
from ..results import ConfidenceInterval, note_lines
from ..spec import EstimationSpec, resolve_spec
from .arms import (
    _arrays,
    _bootstrap_thetas,
    _require_informative,
    _single,
    joint_kernels,
    scalar_level,
    weighted_quantile,
)
from .draws import _effective_draws, _posterior_draws, _warn_low_ess

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "Ranking",
    "kendall_tau",
    "plot_ranking",
    "rank",
    "ranking_implementation",
]


# ============================================================================ ranking
def kendall_tau(truth: Any, estimates: Any) -> np.ndarray:
    """Kendall's τ-b between a reference ordering and estimates, vectorised over rows.

    Parameters
    ----------
    truth : array_like, shape (K,)
        Reference values (e.g. the human rates); ties allowed.
    estimates : array_like, shape (..., K)
        Estimates per row; rows with a NaN give NaN.

    Returns
    -------
    ndarray of shape (...)
        τ-b = (concordant − discordant) / √(pairs untied in truth · pairs untied in estimate);
        NaN where either has no untied pair.
    """
    t = np.asarray(truth, dtype=float)
    e = np.asarray(estimates, dtype=float)
    iu = np.triu_indices(t.shape[-1], k=1)
    st = np.sign(t[iu[0]] - t[iu[1]])
    se = np.sign(e[..., iu[0]] - e[..., iu[1]])
    num = np.sum(st * se, axis=-1)
    den = np.sqrt(np.count_nonzero(st) * np.sum(se != 0, axis=-1).astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return np.where(np.isnan(e).any(axis=-1), np.nan, out)


def _ranks_with_random_ties(theta: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """Rank positions 0 (best) .. K−1 per row; exact ties broken at random."""
    key = gen.random(theta.shape)
    order = np.lexsort((key, -theta), axis=-1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(theta.shape[-1])[None, :], axis=-1)
    return ranks


def _rank_arms(tests, cal_map, shared):
    models = tuple(tests)
    arms = [_arrays(tests[k], cal_map[k]) for k in models]
    if shared:
        return arms, [arms[0]], [0] * len(models)
    return arms, arms, list(range(len(models)))


def _rank_bootstrap(tests, cal_map, spec, reps, gen, *, shared, priors):
    """Joint bootstrap draws (R, K) of the clipped RG estimates, equal weights, RG points."""
    models = tuple(tests)
    for k in models if not shared else models[:1]:
        who = "calibrations" if shared else f"calibrations[{k!r}]"
        _require_informative(cal_map[k], who, adjusted=False)
    point = clip_warned([rogan_gladen_counts(tests[k], cal_map[k]) for k in models], stacklevel=4)
    arms, cals, groups = _rank_arms(tests, cal_map, shared)
    th = _bootstrap_thetas(arms, groups, cals, reps, gen)
    th = _drop_undefined(th, models, reps)
    kept = th.shape[0]
    return th, np.full(kept, 1.0 / kept), point, reps - kept, float(kept)


def _drop_undefined(th: np.ndarray, models: tuple, reps: int) -> np.ndarray:
    """Drop the replicates (rows) with an undefined model, warning how many; none left: error."""
    valid = ~np.isnan(th).any(axis=-1)
    undefined = int(reps - valid.sum())
    if undefined:
        warnings.warn(
            f"{undefined} of {reps} bootstrap replicates had an undefined estimate for some "
            "model (resampled q0* + q1* <= 1) and are excluded",
            SamplingWarning,
            stacklevel=4,
        )
    if not valid.any():
        raise NotInformativeError(
            "every bootstrap replicate was undefined (q0* + q1* <= 1 in some model): "
            f"{_worst_models(models, np.isnan(th).mean(axis=0))}"
        )
    return th[valid]


def _rank_clustered(tests, cal_map, spec, reps, gen, *, shared, priors):
    """Cluster bootstrap draws (R, K) of repeated items: whole items resampled jointly.

    :func:`judgestats.repeated.arms_bootstrap`: an item id in several models' counts (the same
    prompt judged for each, one shared calibration set) is drawn once for all of them. Each
    model's estimate must exist at its rates over the items (:meth:`Design.informative`, the
    judge better than chance where the estimator divides by q̂0 + q̂1 − 1) and pass the
    design's own checks of its counts (:meth:`Design.check_counts`).
    """
    design, estimand = spec.design, spec.estimand
    models = tuple(tests)
    arms = [(tests[k], cal_map[k]) for k in models]
    raw = []
    for k, (test, cal) in zip(models, arms, strict=True):
        rates = cluster_summary(test, cal, design, estimand).rates
        if not design.informative(rates):
            raise NotInformativeError(
                f"calibrations[{k!r}]: q̂0 + q̂1 = {rates[1] + rates[2]:.4g} <= 1 (over "
                f"{estimand}), the judge is no better than chance; no ranking is possible"
            )
        design.check_counts(test, cal)
        raw.append(float(design.estimate_from_rates(rates)))
    point = np.asarray(clip_warned(raw, stacklevel=4), dtype=float)
    th = arms_bootstrap(arms, design=design, estimand=estimand, reps=reps, gen=gen)
    th = _drop_undefined(th, models, reps)
    kept = th.shape[0]
    return th, np.full(kept, 1.0 / kept), point, reps - kept, float(kept)


def _worst_models(models: tuple, share: np.ndarray, shown: int = 5) -> str:
    """Name the models whose replicates are most often undefined, with their shares."""
    order = np.argsort(-share, kind="stable")
    worst = [i for i in order if share[i] > 0][:shown]
    text = ", ".join(f"{models[i]!r} in {100 * share[i]:.0f}% of replicates" for i in worst)
    more = int(np.sum(share > 0)) - len(worst)
    return (
        text
        + (f" and {more} more models" if more > 0 else "")
        + ("; their calibration sets cannot tell the judge from chance often enough to rank them")
    )


def _rank_posterior(tests, cal_map, spec, draws, gen, *, shared, priors):
    """Posterior draws (R, K) with their weights, posterior-mean points."""
    arms, cals, groups = _rank_arms(tests, cal_map, shared)
    th, w = _posterior_draws(arms, groups, cals, draws, gen, priors)
    effective = float(_effective_draws(w))
    _warn_low_ess(effective, draws, stacklevel=4)
    return th, w, np.sum(w[:, None] * th, axis=0), 0, effective


def _one_at_a_time(draw: Callable[..., np.ndarray], *, posterior: bool) -> Callable:
    """Draws (R, K) of each model's θ on its own under the spec's design, by ``draw``.

    The point is the posterior mean (``posterior``) or the design's estimate.
    """

    def ranked(tests, cal_map, spec, reps, gen, *, shared, priors):
        models, design = tuple(tests), spec.design
        th = np.concatenate([draw(tests[k], cal_map[k], design, reps, gen) for k in models],
                            axis=1)  # fmt: skip
        point = th.mean(axis=0) if posterior else np.array(
            [float(design.point(tests[k], cal_map[k])[0]) for k in models])  # fmt: skip
        return th, np.full(reps, 1.0 / reps), point, 0, float(reps)

    return ranked


#: How several models' θ are drawn, by method: jointly where the design's estimator family has
#: joint kernels (:func:`.arms.joint_kernels`; a shared calibration set, priors), else one model
#: at a time (a calibration set each, Jeffreys' priors), and over resampled items for repeated
#: items. Which methods a path allows is the capability table's.
_JOINT_DRAWS = {"bootstrap": _rank_bootstrap, "bayes": _rank_posterior}
_OWN_DRAWS = {"bootstrap": _one_at_a_time(bootstrap_draws, posterior=False),
              "bayes": _one_at_a_time(posterior_draws, posterior=True)}  # fmt: skip
_ITEM_DRAWS = {"bootstrap": _rank_clustered}


def ranking_implementation(spec: EstimationSpec) -> Callable[..., tuple]:
    """Return the draws of a resolved ranking spec (:data:`_JOINT_DRAWS` and its kin).

    ``draws(tests, calibrations, spec, reps, gen, *, shared, priors)`` returns the draws
    (R, K), their weights, the point estimates, the undefined replicates and the effective
    number of draws. Raises :class:`~judgestats.errors.MethodError` where there is none.
    """
    if spec.repeated:
        table = _ITEM_DRAWS
    else:
        table = _JOINT_DRAWS if joint_kernels(spec.design) else _OWN_DRAWS
    if spec.method not in table:
        raise MethodError(f"method {spec.method!r} has no implementation for rankings with "
                          f"design={str(spec.design)!r}")  # fmt: skip
    return table[spec.method]


def _rank_summary(th, w, point, level, gen) -> dict[str, Any]:
    """Rank probabilities, pairwise P(θ_i > θ_j), point order, Kendall τ and quantiles."""
    k = th.shape[-1]
    ranks = _ranks_with_random_ties(th, gen)
    rank_prob = np.stack([np.sum(w[:, None] * (ranks == r), axis=0) for r in range(k)], axis=1)
    gt = (th[:, :, None] > th[:, None, :]) + 0.5 * (th[:, :, None] == th[:, None, :])
    pairwise = np.einsum("r,rij->ij", w, gt)
    np.fill_diagonal(pairwise, np.nan)
    point_order = np.lexsort((np.arange(k), -point))
    point_rank = np.empty(k)
    point_rank[point_order] = np.arange(k)
    tau = kendall_tau(-point_rank, -ranks.astype(float))
    alpha = 1.0 - level
    return {
        "rank_probabilities": rank_prob,
        "pairwise": pairwise,
        "order": point_order,
        "kendall_tau": float(np.sum(w * tau)),
        "q": weighted_quantile(th, w[:, None], [alpha / 2.0, 1.0 - alpha / 2.0]),
    }


def rank(
    tests: Mapping[str, JudgedCounts],
    calibrations: Mapping[str, ConfusionCounts] | ConfusionCounts,
    *,
    method: str = "bootstrap",
    n_resamples: int = 10_000,
    draws: int = 10_000,
    confidence_level: float = 0.95,
    rng: Any = None,
    priors: Any = None,
    reps: int | None = None,
    design: str = DEFAULT_DESIGN,
    estimand: str = "rows",
) -> Ranking:
    """Rank judged models by their corrected rates, with rank probabilities.

    Draws the K corrected rates jointly — by a parametric bootstrap of every binomial count
    (``"bootstrap"``) or from the joint posterior (``"bayes"``, see :func:`difference`) —
    and summarises the ranking they induce.

    Parameters
    ----------
    tests : mapping of str to JudgedCounts
        Each model's judged test counts, keyed by model name.
    calibrations : mapping of str to ConfusionCounts, or one ConfusionCounts
        Each model's calibration counts (same keys as ``tests``), or one set shared by all
        models (then the resampled q's are shared across models in every draw).
    method : {"bootstrap", "bayes"}
        Joint resampling scheme (see :func:`difference`); with repeated items ``"bootstrap"``
        only (the capability table's ``ranking`` rows, :mod:`judgestats.designs.capabilities`).
    n_resamples : int, default 10000
        ``"bootstrap"``: joint bootstrap replicates.
    draws : int, default 10000
        ``"bayes"``: posterior draws.
    confidence_level : float, default 0.95
        Level of the per-model intervals (percentile or equal-tailed credible).
    rng : None, int, SeedSequence or Generator
        Source of randomness (draws and the random tie-breaking of equal draws).
    priors : judgestats.priors.Priors, optional
        ``"bayes"`` only: Beta priors (flat by default).
    reps : int, optional
        Deprecated: the old name of ``n_resamples`` (bootstrap) and ``draws`` (bayes).
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How each model's calibration items were chosen. Under the other designs (a
        calibration set per model) each model's judge-conditional θ is drawn independently:
        by its parametric bootstrap (``"bootstrap"``) or from its exact posterior with
        Jeffreys' priors (``"bayes"``).
    estimand : {"rows", "items"}, default "rows"
        With repeated items (counts built with ``cluster=``): each model's rate over rows or
        over items (:func:`judgestats.correct`). ``"bootstrap"`` then resamples whole items
        (:func:`judgestats.repeated.arms_bootstrap`) within strata of their roles (test rows of
        a model, calibration rows of a class, under every design): an item id in several
        models' counts (the same prompt judged for each, one shared calibration set) is drawn
        once for all of them, so their correlation through it is kept. ``"bayes"`` models
        independent rows and refuses such counts (:class:`~judgestats.errors.ClusteredCountsError`).
        What the ranking states: the per-model intervals are marginal percentile intervals
        (each covers its θ at about the level, measured in ``benchmarks/bench_repeated.py``),
        and the rank and pairwise probabilities are bootstrap frequencies of the ranking, not
        a joint confidence statement about all ranks at once.

    Returns
    -------
    Ranking
        ``estimate`` per model (clipped Rogan–Gladen θ̂ for ``"bootstrap"``, the posterior mean
        for ``"bayes"``), ``order`` (best first), ``rank_probabilities`` (rows = models in input
        order, columns = ranks 1..K; rows and columns each sum to 1), ``pairwise``
        (P(θ_i > θ_j), ties counted one half), ``expected_kendall_tau`` (mean τ between a
        drawn ranking and the point ranking), per-model ``ci``; ``plot()`` draws a leaderboard.

    Raises
    ------
    ArgumentTypeError
        If ``tests`` is not a mapping of JudgedCounts or a calibration is not ConfusionCounts.
    ModelKeyError
        If fewer than two models are given, or ``calibrations`` does not have exactly the keys
        of ``tests`` (a model without calibration set, or a calibration for an unknown model).
    NotInformativeError
        ``"bootstrap"`` only: a calibration set has q̂0 + q̂1 <= 1.
    MethodError
        If ``method`` is not ``"bootstrap"`` or ``"bayes"``.

    Warns
    -----
    SamplingWarning
        Bootstrap replicates with an undefined estimate (excluded, counted in ``undefined``),
        or a low effective sample of the posterior draws.

    See Also
    --------
    compare.difference : The gap between two groups.
    compare.plot_ranking : Draw a ranking with its intervals.
    pairwise : A leaderboard from pairwise verdicts.
    """
    tests = check_model_mapping("tests", tests, JudgedCounts, minimum=2)
    shared = isinstance(calibrations, ConfusionCounts)
    if shared:
        _single("calibrations", calibrations, ConfusionCounts)
        cal_map = dict.fromkeys(tests, calibrations)
    else:
        cal_map = check_model_mapping("calibrations", calibrations, ConfusionCounts)
        check_model_keys("tests", tests, "calibrations", cal_map)
    clustered = is_clustered(*tests.values(), *cal_map.values())
    spec = resolve_spec(judge="letter", target="ranking", design=design, method=method,
                        confidence_level=confidence_level, repeated=clustered,
                        estimand=estimand)  # fmt: skip
    method = spec.method
    if reps is not None:
        warn_deprecated("rank(reps=...)", "n_resamples= (bootstrap) or draws= (bayes)")
        n_resamples = draws = reps
    reps = check_positive_int(
        "n_resamples" if method == "bootstrap" else "draws",
        n_resamples if method == "bootstrap" else draws,
        minimum=100,
    )
    level = scalar_level(spec)
    if priors is not None and method != "bayes":
        raise ArgumentTypeError("priors= applies to method='bayes' only")
    gen = check_rng(rng)
    models = tuple(tests)
    if not joint_kernels(spec.design) and (shared or priors is not None):
        raise JudgeStatsError(
            f"design={str(spec.design)!r} ranks models with a calibration set each and "
            "Jeffreys' priors: a shared calibration set or priors= need design='by-human-label'"
        )
    th, w, point, undefined, effective = ranking_implementation(spec)(
        tests, cal_map, spec, reps, gen, shared=shared, priors=priors)  # fmt: skip
    summary = _rank_summary(th, w, point, level, gen)
    ci = {
        m: ConfidenceInterval(
            low=float(summary["q"][0, i]),
            high=float(max(summary["q"][0, i], summary["q"][1, i])),
            method=method,
            confidence_level=level,
            undefined=undefined if method == "bootstrap" else 0,
            n_resamples=reps if method == "bootstrap" else None,
        )
        for i, m in enumerate(models)
    }
    return Ranking(
        models=models, estimate={m: float(point[i]) for i, m in enumerate(models)},
        naive={m: float(tests[m].p_hat) for m in models}, ci=ci,
        order=tuple(models[i] for i in summary["order"]),
        rank_probabilities=summary["rank_probabilities"], pairwise=summary["pairwise"],
        expected_kendall_tau=summary["kendall_tau"], method=method, confidence_level=level,
        reps=reps, undefined=undefined, effective_draws=effective, shared_calibration=shared,
        design=spec.design, estimand=spec.estimand, clustered=clustered,
    )  # fmt: skip


# ============================================================================ plot
def plot_ranking(ranking: Ranking, *, ax: Any = None, show_naive: bool = True):
    """Leaderboard figure: corrected rates with intervals, best at the top.

    Each model gets its point estimate with its interval (from the ranking's draws), the naive
    judged rate p̂ as a hollow marker, and P(rank 1) in the label. matplotlib is imported here.
    Returns the Axes.
    """
    require_extra("matplotlib", "Ranking.plot()")
    import matplotlib.pyplot as plt

    if ax is None:
        height = 1.2 + 0.45 * len(ranking.models)
        _, ax = plt.subplots(figsize=(6.5, height), layout="constrained")
    from ..plots import interval_rows

    order = list(ranking.order)
    idx = {m: i for i, m in enumerate(ranking.models)}
    interval_rows(
        ax,
        [f"{m}  (P(rank 1) = {ranking.rank_probabilities[idx[m], 0]:.2f})" for m in order],
        [ranking.estimate[m] for m in order],
        [ranking.ci[m].low for m in order],
        [ranking.ci[m].high for m in order],
        level=f"{100 * ranking.confidence_level:g}%",
        naive=[ranking.naive[m] for m in order] if show_naive else None,
    )
    ax.set_xlabel("rate")
    ax.legend(loc="lower right", fontsize="small")
    ax.set_title(
        f"Ranking by corrected rate ({ranking.method}, expected Kendall τ "
        f"{ranking.expected_kendall_tau:.2f})"
    )
    return ax


def ranking_index(r: Ranking, model: Any) -> int:
    """Row of ``model`` in a :class:`Ranking`'s matrices (ModelKeyError if unknown)."""
    from .._validation import ModelKeyError

    if model not in r.models:
        raise ModelKeyError(f"model {model!r} is not ranked; models are {list(r.models)}")
    return r.models.index(model)


def ranking_expected_rank(r: Ranking) -> dict:
    """Return the expected rank (1 = best) of each model of a :class:`Ranking`."""
    k = len(r.models)
    er = np.asarray(r.rank_probabilities) @ np.arange(1, k + 1)
    return {m: float(er[i]) for i, m in enumerate(r.models)}


def ranking_frame(r: Ranking):
    """One row per model in point-ranking order (pandas DataFrame)."""
    require_extra("pandas", "Ranking.to_dataframe()")
    import pandas as pd

    er = ranking_expected_rank(r)
    rows = []
    for pos, m in enumerate(r.order, start=1):
        i = ranking_index(r, m)
        row = {
            "rank": pos,
            "model": m,
            "estimate": r.estimate[m],
            "ci_low": r.ci[m].low,
            "ci_high": r.ci[m].high,
            "naive": r.naive[m],
            "expected_rank": er[m],
        }
        for j in range(len(r.models)):
            row[f"p_rank_{j + 1}"] = float(r.rank_probabilities[i, j])
        row.update(method=r.method, confidence_level=r.confidence_level)
        rows.append(row)
    return pd.DataFrame(rows)


def ranking_pairwise_frame(r: Ranking):
    """P(θ_row > θ_column) as a labelled square DataFrame in point-ranking order."""
    require_extra("pandas", "Ranking.to_dataframe()")
    import pandas as pd

    idx = [ranking_index(r, m) for m in r.order]
    mat = np.asarray(r.pairwise)[np.ix_(idx, idx)]
    return pd.DataFrame(mat, index=list(r.order), columns=list(r.order))


def ranking_summary(r: Ranking) -> str:
    """Short text leaderboard of a :class:`Ranking`."""
    lvl = f"{100 * r.confidence_level:g}%"
    width = max(8, *(len(m) for m in r.models))
    cal = "one shared calibration set" if r.shared_calibration else "per-model calibration"
    er = ranking_expected_rank(r)
    how = f"{r.method} over items, mean over {r.estimand}" if r.clustered else r.method
    lines = [
        f"Ranking by corrected rate ({how}, {r.reps} draws, {cal}), {lvl} intervals",
        f"  rank  {'model':<{width}}  corrected  [ lower,  upper]   naive  P(rank 1)  E[rank]",
    ]
    for pos, m in enumerate(r.order, start=1):
        i = ranking_index(r, m)
        lines.append(
            f"  {pos:>4}  {m:<{width}}  {r.estimate[m]:9.4f}  [{r.ci[m].low:.4f}, "
            f"{r.ci[m].high:.4f}]  {r.naive[m]:.4f}  {r.rank_probabilities[i, 0]:9.3f}"
            f"  {er[m]:7.2f}"
        )
    lines.append(f"  expected Kendall τ to this ranking: {r.expected_kendall_tau:.3f}")
    lines += note_lines(r.undefined and f"{r.undefined} of {r.reps} bootstrap replicates undefined")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True, eq=False)
class Ranking:
    """Ranking of judged models by corrected rate, from :func:`judgestats.compare.rank`.

    Attributes
    ----------
    models : tuple of str
        Model names in input order; rows of the matrices below follow it.
    estimate, naive : dict
        Corrected rate (clipped Rogan–Gladen θ̂, or the posterior mean for ``"bayes"``) and the
        naive judged rate p̂ of each model.
    ci : dict of ConfidenceInterval
        Per-model interval from the joint draws (percentile / equal-tailed credible).
    order : tuple of str
        Point ranking by ``estimate``, best first (ties keep input order).
    rank_probabilities : ndarray, shape (K, K)
        ``[i, r]`` = P(model i is at rank r + 1); rows and columns each sum to 1.
    pairwise : ndarray, shape (K, K)
        ``[i, j]`` = P(θ_i > θ_j) (exact ties count one half; diagonal NaN).
    expected_kendall_tau : float
        Mean Kendall τ between a drawn ranking and the point ranking (1: the point ranking is
        certain).
    method, confidence_level, reps
        How the draws were made; ``undefined`` bootstrap replicates were excluded;
        ``effective_draws`` is the number of usable (for ``"bayes"``: effective
        importance-sampling) draws.
    shared_calibration : bool
        True when one calibration set served every model.
    design : str
        How the calibration items were chosen (:mod:`judgestats.designs`).
    estimand : {"rows", "items"}
        Each model's rate over rows or over items (repeated items; ``"rows"`` otherwise).
    clustered : bool
        True when the counts carried repeated items and the bootstrap resampled whole items.
    """

    kind: ClassVar[str] = "ranking"

    models: tuple
    estimate: dict
    naive: dict
    ci: dict
    order: tuple
    rank_probabilities: Any
    pairwise: Any
    expected_kendall_tau: float
    method: str
    confidence_level: float
    reps: int
    undefined: int
    effective_draws: float
    shared_calibration: bool
    design: str = DEFAULT_DESIGN
    estimand: str = "rows"
    clustered: bool = False

    def prob_greater(self, a: str, b: str) -> float:
        """P(θ_a > θ_b) for two ranked models."""
        return float(self.pairwise[ranking_index(self, a), ranking_index(self, b)])

    @property
    def expected_rank(self) -> dict:
        """Expected rank (1 = best) of each model."""
        return ranking_expected_rank(self)

    def to_dataframe(self) -> pd.DataFrame:
        """One row per model in point-ranking order: rank, estimate, ci, naive, P(rank r)."""
        return ranking_frame(self)

    def pairwise_dataframe(self) -> pd.DataFrame:
        """P(θ_row > θ_column) as a labelled square frame (point-ranking order)."""
        return ranking_pairwise_frame(self)

    def plot(self, *, ax: Any = None, show_naive: bool = True):
        """Leaderboard with P(rank 1) per model and intervals from the draws (returns the Axes)."""
        return plot_ranking(self, ax=ax, show_naive=show_naive)

    def summary(self) -> str:
        """Return the ranking as text: rates, intervals, rank probabilities, expected τ."""
        return ranking_summary(self)

    def __repr__(self) -> str:
        top = ", ".join(f"{m}={self.estimate[m]:.3f}" for m in self.order)
        return (
            f"Ranking({top}; method={self.method!r}, expected_kendall_tau="
            f"{self.expected_kendall_tau:.3f})"
        )
