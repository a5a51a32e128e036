"""``fit_pairwise()``: the Bayesian twin of ``js.pairwise(..., method="joint-mle")``.

The model is the joint model of :mod:`judgestats.pairwise.likelihood` with priors, fitted by
NUTS. For the ordered pair ``p`` (model ``first`` shown first, ``second`` second) the human
verdict ``h`` ∈ (a, tie, b) follows Davidson's (1970) Bradley–Terry model with ties::

    P(h | p) = softmax(d_p / 2, log ν, −d_p / 2),    d_p = β_first − β_second

and the judge's letter ``j`` given the human verdict the confusion ``C[j, h]`` (J letters × 3,
in the order shown, so that a judge preferring the first answer it reads is expressible):

* calibration pairs (a human verdict): ``log P(h | p) + log C[j, h]``;
* judge-only pairs: ``log Σ_h C[j, h] P(h | p)``.

Priors: ``β ~ ZeroSumNormal(strength_sd)`` (sum-to-zero strengths: every model gets a
posterior), ``log ν ~ Normal(0, tie_sd)`` and, for each human verdict ``h``, the column
``C[:, h] ~ Dirichlet(confusion_concentration)`` ("Dirichlet rows" of the judge's confusion
read as P(judge letter | human verdict)). With ``confusion="symmetric"`` (a/tie/b judges) the
confusion is swap-symmetric (no position bias): ``C[:, b]`` is ``C[:, a]`` reversed and
``C[a, tie] = C[b, tie]``. The likelihood enters as :func:`pymc.Potential` terms on the counts
(:class:`~judgestats.pairwise.PairCounts`).

Like ``method="joint-mle"`` it assumes that **the judge's letter depends on the pair only
through the human verdict**. On the Chatbot Arena data that fails (see
``benchmarks/results/pairwise.md``: the joint-mle intervals covered the all-human truth for 2
of 20 models with GPT-4 as judge), and this posterior is concentrated in the same wrong place:
:func:`fit_pairwise` runs the same conditional-independence test on the calibration pairs and
warns (:class:`~judgestats.JudgeDependenceWarning`) when it rejects. ``js.pairwise``'s default
``method="ppi"`` does not need the assumption.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Unpack

import numpy as np

from .._validation import (
    JudgeDependenceWarning,
    PriorError,
    VerdictError,
    check_choice,
    check_concentration,
)
from ..designs import RANDOM, as_design
from ..pairwise.counting import (
    HUMAN_VERDICTS,
    PAIR_COLUMNS,
    PairColumns,
    PairCounts,
    check_pairs,
    count_pairs,
)
from ..pairwise.independence import independence_test
from ..pairwise.intervals import rank_probabilities, ranks_of
from ..pairwise.leaderboard import DEPENDENCE_LEVEL, PairwiseLeaderboard, _human_fit, _naive_fit
from .fit import SamplingOptions, sample_checked, sampling_arguments, summary_options
from .results import SAMPLE_DIMS, SamplingDiagnostics

__all__ = [
    "CONFUSIONS",
    "MODEL_DEFAULTS",
    "BayesianPairwiseLeaderboard",
    "FitPairwiseOptions",
    "PairwiseModelOptions",
    "build_pairwise_model",
    "fit_pairwise",
]

#: How the judge's confusion is parametrised (``confusion=``).
CONFUSIONS = ("general", "symmetric")
METHOD = "bayes-mcmc"
_ESTIMATOR = "Davidson Bradley-Terry with ties, Dirichlet judge confusion, posterior {} (PyMC)"


class PairwiseModelOptions(PairColumns, total=False):
    """The keywords of :func:`build_pairwise_model` (and of :func:`fit_pairwise`).

    The frame's columns (:class:`~judgestats.pairwise.counting.PairColumns`: ``model_a``,
    ``model_b``, ``judge``, ``human``, ``position``, ``judge_labels``) and the model's; the
    defaults are :data:`MODEL_DEFAULTS`.

    ``design`` ({"random", "by-judge-label", "by-human-label"}): how the calibration pairs
    were chosen; under ``"by-human-label"`` their human verdicts inform the confusion only.
    ``confusion`` ({"general", "symmetric"}): a free J × 3 confusion in the order shown, or the
    swap-symmetric one. ``strength_sd`` (float): scale of the strengths' ZeroSumNormal prior.
    ``tie_sd`` (float): scale of the Normal(0, ·) prior of ``log ν``.
    ``confusion_concentration`` (float): every Dirichlet parameter of the confusion's columns.
    """

    design: str
    confusion: str
    strength_sd: float
    tie_sd: float
    confusion_concentration: float


class FitPairwiseOptions(PairwiseModelOptions, SamplingOptions, total=False):
    """The keywords of :func:`fit_pairwise`: the model's and how to run NUTS.

    :class:`PairwiseModelOptions` and :class:`~judgestats.bayes.fit.SamplingOptions`.
    """


#: The one home of the model's defaults (see :class:`PairwiseModelOptions`).
MODEL_DEFAULTS: dict[str, Any] = {
    **PAIR_COLUMNS,
    "design": RANDOM,
    "confusion": "general",
    "strength_sd": 2.0,
    "tie_sd": 2.0,
    "confusion_concentration": 1.0,
}


def _confusion(pm: Any, pt: Any, kind: str, n_judge: int, concentration: float) -> Any:
    """Return the J × 3 confusion ``C`` (columns: human a, tie, b) with its Dirichlet priors."""
    if kind == "general":
        cols = pm.Dirichlet(
            "confusion_columns", a=np.full((3, n_judge), concentration),
            dims=("human_verdict", "judge_label"),
        )  # fmt: skip
        return pm.Deterministic("confusion", cols.T, dims=("judge_label", "human_verdict"))
    col_a = pm.Dirichlet("confusion_a", a=np.full(3, concentration), dims="judge_label")
    stay = pm.Beta("confusion_tie_stays", alpha=concentration, beta=concentration)
    col_tie = pt.stack([(1.0 - stay) / 2.0, stay, (1.0 - stay) / 2.0])
    matrix = pt.stack([col_a, col_tie, col_a[::-1]], axis=1)
    return pm.Deterministic("confusion", matrix, dims=("judge_label", "human_verdict"))


def _model(counts: PairCounts, options: dict) -> Any:
    import pymc as pm
    import pytensor.tensor as pt

    coords = {
        "model": list(counts.models),
        "opponent": list(counts.models),
        "judge_label": [str(v) for v in counts.judge_labels],
        "human_verdict": list(HUMAN_VERDICTS),
        "pair": [f"{counts.models[f]} | {counts.models[s]}"
                 for f, s in zip(counts.first, counts.second, strict=True)],
    }  # fmt: skip
    with pm.Model(coords=coords) as model:
        # counts as data: pymc.set_data swaps in another data set of the same pairs (and
        # the compiled sampler is reused)
        judged = pm.Data("judged", counts.judged.astype(float), dims=("pair", "judge_label"))
        humans = pm.Data("human_verdict_counts", counts.labelled.sum(axis=1).astype(float),
                         dims=("pair", "human_verdict"))  # fmt: skip
        table = pm.Data("confusion_counts", counts.confusion_table().astype(float),
                        dims=("judge_label", "human_verdict"))  # fmt: skip
        beta = pm.ZeroSumNormal("strength", sigma=options["strength_sd"], dims="model")
        log_tie = pm.Normal("log_tie", mu=0.0, sigma=options["tie_sd"])
        pm.Deterministic("tie", pt.exp(log_tie))
        conf = _confusion(pm, pt, options["confusion"], len(counts.judge_labels),
                          options["confusion_concentration"])  # fmt: skip
        diff = beta[:, None] - beta[None, :]  # P(i beats j), Davidson's: the a-share
        pm.Deterministic("win_probability", pt.exp(diff / 2.0) / (
            pt.exp(diff / 2.0) + pt.exp(log_tie) + pt.exp(-diff / 2.0)),
            dims=("model", "opponent"))  # fmt: skip
        d = beta[counts.first] - beta[counts.second]
        logits = pt.stack([d / 2.0, pt.ones_like(d) * log_tie, -d / 2.0], axis=1)
        log_p = logits - pt.logsumexp(logits, axis=1, keepdims=True)  # P(h | pair), logs
        # judge-only pairs: log Σ_h C[j, h] P(h | pair)
        mix = pt.logsumexp(log_p[:, None, :] + pt.log(conf)[None, :, :], axis=2)
        pm.Potential("judge_only_pairs", (judged * mix).sum())
        if options["strengths_from_labels"]:
            pm.Potential("human_verdicts", (humans * log_p).sum())
        pm.Potential("judge_given_human", (table * pt.log(conf)).sum())
    return model


def _free(kind: str) -> list[str]:
    conf = ["confusion_columns"] if kind == "general" else ["confusion_a", "confusion_tie_stays"]
    return ["strength", "log_tie", *conf]


def _scalar_prior(name: str, value: Any) -> float:
    checked = check_concentration(name, value)  # finite and > 0
    if np.ndim(checked):
        raise PriorError(f"{name} must be a scalar, got {value!r}")
    return float(checked)


def _options(keywords: Mapping[str, Any]) -> dict:
    """Return the model's options (validated, defaults filled in; the design resolved once)."""
    given = {**MODEL_DEFAULTS, **keywords}
    design = as_design(given["design"])
    return {
        "columns": {name: given[name] for name in PAIR_COLUMNS},
        "design": design,
        "confusion": check_choice("confusion", given["confusion"], CONFUSIONS),
        "strength_sd": _scalar_prior("strength_sd", given["strength_sd"]),
        "tie_sd": _scalar_prior("tie_sd", given["tie_sd"]),
        "confusion_concentration": _scalar_prior(
            "confusion_concentration", given["confusion_concentration"]
        ),
        "strengths_from_labels": design.strengths_from_labels,
    }


def _split(options: Mapping[str, Any]) -> tuple[dict, dict]:
    """Split keywords into the model's (:data:`MODEL_DEFAULTS`) and the rest (NUTS's)."""
    model = {k: v for k, v in options.items() if k in MODEL_DEFAULTS}
    rest = {k: v for k, v in options.items() if k not in MODEL_DEFAULTS}
    return model, rest


def _counts(frame: Any, options: dict) -> PairCounts:
    counts = count_pairs(frame, **options["columns"])
    check_pairs(counts, strengths_from_labels=options["strengths_from_labels"])
    if options["confusion"] == "symmetric" and counts.judge_labels != HUMAN_VERDICTS:
        raise VerdictError(
            "confusion='symmetric' needs the a/tie/b judge alphabet (its swap exchanges a and "
            f"b); got judge_labels {counts.judge_labels!r}"
        )
    return counts


def build_pairwise_model(frame: Any, **options: Unpack[PairwiseModelOptions]) -> Any:
    """Build the unsampled PyMC model of :func:`fit_pairwise` (see the module docstring).

    Parameters
    ----------
    frame : data frame
        The pairwise frame, as in :func:`judgestats.pairwise.pairwise`.
    **options
        :class:`PairwiseModelOptions`, as in :func:`fit_pairwise`: the frame's columns
        (``model_a``, ``model_b``, ``judge``, ``human``, ``position``, ``judge_labels``),
        ``design``, ``confusion``, ``strength_sd``, ``tie_sd``, ``confusion_concentration``.

    Returns
    -------
    pymc.Model
        Coordinates ``model``, ``judge_label``, ``human_verdict``; free variables
        ``strength`` (ZeroSumNormal, dim ``model``), ``log_tie`` and the confusion's
        (``confusion_columns``, or ``confusion_a`` and ``confusion_tie_stays``);
        deterministics ``tie``, ``confusion`` (``judge_label`` × ``human_verdict``) and
        ``win_probability`` (``model`` × ``opponent``); data ``judged`` (``pair`` ×
        ``judge_label``), ``human_verdict_counts`` (``pair`` × ``human_verdict``) and
        ``confusion_counts``, which :func:`pymc.set_data` can replace (the ordered pairs are
        the coordinate ``pair``, "first | second" in the order shown).

    Raises
    ------
    TypeError
        A keyword that is not among :class:`PairwiseModelOptions`.

    Examples
    --------
    >>> import pandas as pd
    >>> import judgestats as js
    >>> frame = pd.DataFrame({"model_a": ["x", "y", "z", "x"], "model_b": ["y", "z", "x", "z"],
    ...                       "judge": ["a", "b", "tie", "a"], "human": ["a", "tie", "b", None]})
    >>> js.bayes.build_pairwise_model(frame).coords["model"]  # doctest: +SKIP
    ('x', 'y', 'z')
    """
    model, rest = _split(options)
    if rest:
        name = next(iter(rest))
        raise TypeError(f"build_pairwise_model() got an unexpected keyword argument {name!r}")
    checked = _options(model)
    return _model(_counts(frame, checked), checked)


@dataclass(frozen=True, slots=True)
class BayesianPairwiseLeaderboard(PairwiseLeaderboard):
    """A :class:`~judgestats.pairwise.PairwiseLeaderboard` from the posterior (``fit_pairwise``).

    The table fields are those of the frequentist leaderboard, from the draws: ``strength``
    (posterior ``point``), ``strength_se`` (posterior sd), ``strength_ci``, ``tie_ci`` and
    ``win_probability_ci`` (``interval`` credible intervals at ``confidence_level``),
    ``confusion`` (posterior mean), ``rank_probabilities`` (the share of draws in which each
    model has each rank), ``rank_set`` (each model's ranks between the ``α/(2K)`` and
    ``1 − α/(2K)`` quantiles of its draws: Bonferroni over the K models, so all K sets hold
    at once with posterior probability ≥ ``confidence_level``), ``covariance`` (posterior
    covariance of ``(β, log ν)``); ``converged`` is ``diagnostics.ok``; ``lam`` and
    ``prediction`` are None. ``summary()``, ``to_dataframe()``, ``to_xarray()`` (attrs
    also the sampler and the diagnostics), ``plot()`` and ``report()`` are the leaderboard's.

    Attributes
    ----------
    posterior : xarray.DataTree
        PyMC's draws (``strength``, ``log_tie``, ``tie``, ``confusion``, ``win_probability``).
    point : {"mean", "median", "map"}
    sampler : str
    diagnostics : SamplingDiagnostics
        r_hat, ESS and divergences (a ``SamplingWarning`` was issued if they failed).
    priors : dict
        ``strength_sd``, ``tie_sd``, ``confusion_concentration`` and the confusion's kind.
    """

    posterior: Any
    point: str
    sampler: str
    diagnostics: SamplingDiagnostics
    priors: dict

    def to_xarray(self) -> Any:
        """As :meth:`PairwiseLeaderboard.to_xarray`, with the sampler and the diagnostics."""
        ds = PairwiseLeaderboard.to_xarray(self)
        ds.attrs.update(point=self.point, sampler=self.sampler, **self.diagnostics.as_dict())
        return ds

    def __repr__(self) -> str:
        top = ", ".join(self.order[:3])
        return (
            f"BayesianPairwiseLeaderboard({len(self.models)} models, top: {top}; "
            f"point={self.point!r}, interval={self.interval!r}, design={self.design!r}, "
            f"confidence_level={self.confidence_level}, sampler={self.sampler!r}; "
            f"{self.diagnostics.describe()})"
        )


def _draws(tree: Any, var: str, dims: tuple[str, ...]) -> np.ndarray:
    post = tree["posterior"][var].transpose(*SAMPLE_DIMS, *dims)
    values = np.asarray(post.values, dtype=float)
    return values.reshape(-1, *values.shape[2:])


def _rank_summary(strength: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Rank sets (Bonferroni over the K models' rank quantiles) and P(rank = r)."""
    k = strength.shape[1]
    ranks = ranks_of(strength)
    alpha = (1.0 - level) / (2.0 * k)
    low = np.quantile(ranks, alpha, axis=0, method="inverted_cdf")
    high = np.quantile(ranks, 1.0 - alpha, axis=0, method="inverted_cdf")
    return np.column_stack([low, high]).astype(np.int64), rank_probabilities(strength)


def fit_pairwise(
    frame: Any,
    *,
    confidence_level: float = 0.95,
    point: str = "mean",
    interval: str = "eti",
    **options: Unpack[FitPairwiseOptions],
) -> BayesianPairwiseLeaderboard:
    """Fit the Bayesian pairwise leaderboard by NUTS: strengths, ties and the judge's confusion.

    The posterior twin of ``js.pairwise(frame, method="joint-mle")`` (module docstring): the
    same likelihood, with priors; where the joint model holds, its posterior means agree with
    the joint maximum likelihood within a fraction of a standard error
    (``tests/bayes/test_pairwise.py``). It shares that fit's assumption, that the judge's
    letter depends on the pair only through the human verdict, and warns where the
    calibration pairs reject it.

    Parameters
    ----------
    frame : data frame
        The pairwise frame, as in :func:`judgestats.pairwise.pairwise`.
    confidence_level : float, default 0.95
        Mass of every credible interval and of the rank sets' joint guarantee; stored.
    point : {"mean", "median", "map"}, default "mean"
        Posterior summary reported as ``strength`` and ``tie``.
    interval : {"eti", "hdi"}, default "eti"
        Credible intervals of the strengths, ``ν`` and the win probabilities (ArviZ).
    **options
        Keywords (:class:`FitPairwiseOptions`, under Other Parameters): the frame's columns,
        the model's options and how to run NUTS.

    Other Parameters
    ----------------
    model_a, model_b, judge, human, position, judge_labels : str or None
        The frame's columns (:class:`~judgestats.pairwise.counting.PairColumns`), as in
        :func:`judgestats.pairwise.pairwise`.
    design : {"random", "by-judge-label", "by-human-label"}, default "random"
        How the calibration pairs were chosen; under ``"by-human-label"`` their human
        verdicts inform the confusion only (their likelihood term for the strengths is
        dropped), as in ``js.pairwise``.
    confusion : {"general", "symmetric"}, default "general"
        A free J × 3 confusion in the order shown (per position: a first-answer preference is
        expressible), or the swap-symmetric one (no position bias; a/tie/b judges).
    strength_sd : float, default 2.0
        Scale of the ZeroSumNormal prior of the log strengths.
    tie_sd : float, default 2.0
        Scale of the Normal(0, ·) prior of ``log ν``.
    confusion_concentration : float, default 1.0
        Every Dirichlet parameter of the confusion's columns (1: flat on each column).
    draws, tune, chains, cores, random_seed, sampler, backend, progress, sample_kwargs : Any
        How to run NUTS (:class:`~judgestats.bayes.fit.SamplingOptions`, as in
        :func:`judgestats.bayes.fit`); ``target_accept`` is
        :data:`~judgestats.bayes.TARGET_ACCEPT` unless ``sample_kwargs`` sets it.

    Returns
    -------
    BayesianPairwiseLeaderboard

    Raises
    ------
    ColumnError, SelfComparisonError, VerdictError, CalibrationOnlyModelError,
    DisconnectedComparisonsError, CountError
        Bad input, as in ``js.pairwise`` (checked before anything is compiled).
    PriorError
        A prior scale or concentration that is not a finite positive scalar.
    ArgumentTypeError
        A keyword that is neither the model's nor a sampling option (named).

    Warns
    -----
    JudgeDependenceWarning
        The calibration pairs reject the conditional independence the model assumes
        (p < ``DEPENDENCE_LEVEL``, :func:`~judgestats.pairwise.independence_test`).
    SamplingWarning
        r_hat > 1.01, ESS < 400 or divergences.

    Examples
    --------
    >>> import judgestats as js  # doctest: +SKIP
    >>> board = js.bayes.fit_pairwise(pairs, judge="judge_gpt-4", random_seed=1)  # doctest: +SKIP
    >>> board.rank_probabilities[:, 0]  # P(rank 1) of each model  # doctest: +SKIP
    """
    level, point, interval = summary_options(confidence_level, point, interval)
    model_options, sampling = _split(options)
    checked = _options(model_options)
    kwargs = sampling_arguments(sampling)
    counts = _counts(frame, checked)
    notes: list[str] = []
    test = independence_test(counts)
    if test.pvalue < DEPENDENCE_LEVEL:
        message = (
            "the judge's verdict depends on the models beyond the human verdict on the "
            f"calibration pairs (conditional-independence test p = {test.pvalue:.2g}): the "
            "model's confusion is misspecified and its strengths biased; use "
            "js.pairwise(method='ppi')"
        )
        notes.append(message)
        warnings.warn(message, JudgeDependenceWarning, stacklevel=2)
    tree, diagnostics = sample_checked(
        _model(counts, checked), _free(checked["confusion"]),
        "try sample_kwargs={'target_accept': 0.999} or a smaller strength_sd", kwargs,
        stacklevel=2,
    )  # fmt: skip
    summary = {"level": level, "point": point, "interval": interval, "notes": notes,
               "test": test, "sampler": kwargs["nuts_sampler"]}  # fmt: skip
    return _leaderboard(tree, counts, checked, summary, diagnostics)


def _leaderboard(tree, counts, options, summary, diagnostics) -> BayesianPairwiseLeaderboard:
    from .results import summarise

    level, point, notes = summary["level"], summary["point"], summary["notes"]
    how = {"point": point, "interval": summary["interval"], "level": level}
    strength, s_low, s_high = summarise(tree, "strength", **how)
    tie, t_low, t_high = summarise(tree, "tie", **how)
    win, w_low, w_high = summarise(tree, "win_probability", **how)
    draws = _draws(tree, "strength", ("model",))
    cov = np.cov(np.column_stack([draws, _draws(tree, "log_tie", ())]), rowvar=False)
    sets, probs = _rank_summary(draws, level)
    win_ci = np.stack([w_low, w_high], axis=-1)
    for arr in (win, win_ci):
        arr[np.diag_indices(len(counts.models))] = np.nan
    confusion = tree["posterior"]["confusion"].mean(dim=list(SAMPLE_DIMS))
    if not diagnostics.ok:
        notes.append("the MCMC fit may be unreliable: " + "; ".join(diagnostics.problems()))
    return BayesianPairwiseLeaderboard(
        models=counts.models, strength=strength, strength_se=draws.std(axis=0, ddof=1),
        strength_ci=np.column_stack([s_low, s_high]), tie=float(tie),
        tie_ci=np.array([float(t_low), float(t_high)]),
        confusion=np.asarray(confusion.transpose("judge_label", "human_verdict").values),
        judge_labels=counts.judge_labels, win_probability=win, win_probability_ci=win_ci,
        rank=ranks_of(strength), rank_set=sets, rank_probabilities=probs,
        naive=_naive_fit(counts, level, notes),
        human_only=_human_fit(counts, level, options["design"], notes),
        method=METHOD, estimator=_ESTIMATOR.format(point), interval=summary["interval"],
        rank_method="posterior draws", design=options["design"],
        confusion_kind=f"dirichlet, {options['confusion']}", lam=None, prediction=None,
        independence=summary["test"], confidence_level=level, n_judged=counts.n_judged,
        n_labelled=counts.n_labelled, covariance=cov, converged=diagnostics.ok,
        notes=tuple(notes), cluster=None, n_clusters=None, posterior=tree, point=point,
        sampler=summary["sampler"],
        diagnostics=diagnostics, priors={k: options[k] for k in (
            "strength_sd", "tie_sd", "confusion_concentration", "confusion")},
    )  # fmt: skip
