"""Hierarchical (partially pooled) Bayesian correction over strata of a covariate ξ.

The Bayesian twin of :func:`judgestats.strata.correct_stratified`. Per stratum s the judge's
specificity q0_s and sensitivity q1_s and the true rate θ_s enter the paper's likelihood
(test and calibration binomials, as in :func:`judgestats.bayes.build_model`)::

    positive_s ~ Binomial(n_s, θ_s q1_s + (1 − θ_s)(1 − q0_s))
    tn_s ~ Binomial(m0_s, q0_s),     tp_s ~ Binomial(m1_s, q1_s),     θ_s ~ Beta(aθ, bθ)

and the strata share information about the judge according to ``pooling``:

``"partial"`` (default)
    logit(q0_s) = μ0 + σ0 z0_s, logit(q1_s) = μ1 + σ1 z1_s, z ~ Normal(0, 1) (non-centred),
    μ ~ Normal(location_mean, location_sd), σ ~ HalfNormal(scale_sd) (:class:`HyperPriors`):
    Gelman & Carpenter's hierarchical sensitivity/specificity model. A stratum with few
    calibration items borrows strength from the others, in proportion to how alike the
    strata look.
``"none"``
    q0_s ~ Beta(a0, b0), q1_s ~ Beta(a1, b1) independently: every stratum is its own binary
    model (:func:`judgestats.bayes.fit` per stratum, except for the shared mix below).
``"complete"``
    One q0 and one q1 for all strata (Beta priors): the judge is assumed to behave alike in
    every stratum; only θ_s differs.

The pooled rate is the deterministic ``theta_pooled`` = Σ_s w_s θ_s. With ``weights="test"``
the mix is the population's stratum mix w ~ Dirichlet(1, …, 1), informed by the observed test
stratum sizes n_s ~ Multinomial(n, w) (so its sampling uncertainty is in the interval, as the
mix term of the frequentist delta method); fixed weights (a target population's mix) enter as
data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

import numpy as np

from .._validation import (
    PriorError,
    check_choice,
    check_instance,
    check_same_strata,
    check_strata_mapping,
    check_unclustered,
    check_weights,
)
from ..chance import judge_value
from ..correct import Correction
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import BY_HUMAN_LABEL
from ..label_shift import label_shift_test
from ..priors import HyperPriors, Priors
from ..results import ConfidenceInterval, stratum_coord
from .fit import SamplingOptions, sample_checked, sampling_arguments, summary_options
from .results import BayesianStratifiedCorrection, summarise

__all__ = [
    "POOLINGS",
    "STRATIFIED_DEFAULTS",
    "FitStratifiedOptions",
    "StratifiedModelOptions",
    "build_stratified_model",
    "fit_stratified",
]

#: How the strata share the judge's error rates.
POOLINGS = ("partial", "none", "complete")
METHOD = "bayes-mcmc"
_RATES = (("specificity", "tn", "m0"), ("sensitivity", "tp", "m1"))


class StratifiedModelOptions(TypedDict, total=False):
    """The keywords of :func:`build_stratified_model` (and of :func:`fit_stratified`).

    Defaults in :data:`STRATIFIED_DEFAULTS`; :func:`fit_stratified` says what each means.

    ``pooling`` ({"partial", "none", "complete"}): how the strata share the judge's rates.
    ``weights`` ("test" or mapping stratum → float): the strata's mix.
    ``priors`` (Priors or None): the Beta priors. ``hyperpriors`` (HyperPriors or None): the
    hyperpriors of the partially pooled logits.
    """

    pooling: str
    weights: Any
    priors: Priors | None
    hyperpriors: HyperPriors | None


class FitStratifiedOptions(StratifiedModelOptions, SamplingOptions, total=False):
    """The keywords of :func:`fit_stratified`: the model's and how to run NUTS.

    :class:`StratifiedModelOptions` and :class:`~judgestats.bayes.fit.SamplingOptions`.
    """


#: The one home of the stratified model's defaults (see :class:`StratifiedModelOptions`).
STRATIFIED_DEFAULTS: StratifiedModelOptions = {
    "pooling": "partial",
    "weights": "test",
    "priors": None,
    "hyperpriors": None,
}


@dataclass(frozen=True, slots=True)
class _Inputs:
    """The stratified model's inputs, validated."""

    tests: dict
    cals: dict
    strata: tuple
    pooling: str
    fixed: dict | None
    priors: Priors
    binary: Any
    hyper: HyperPriors


def _inputs(tests: Any, calibrations: Any, keywords: Mapping[str, Any]) -> _Inputs:
    """Validate the data and the model's keywords (defaults filled in)."""
    given: dict[str, Any] = {**STRATIFIED_DEFAULTS, **keywords}
    weights, pooling, priors = given["weights"], given["pooling"], given["priors"]
    tests = check_strata_mapping("tests", tests, JudgedCounts)
    cals = check_strata_mapping("calibrations", calibrations, ConfusionCounts)
    check_unclustered(
        "js.bayes.fit_stratified", "an item random effect is not modelled yet: correct each "
        "stratum with js.correct, which accounts for the repeats", *tests.values(), *cals.values(),
    )  # fmt: skip
    check_same_strata("tests", tests, "calibrations", cals)
    strata = tuple(tests)
    pooling = check_choice("pooling", pooling, POOLINGS)
    if isinstance(weights, str):
        check_choice("weights", weights, ("test",))
        fixed = None
    else:
        fixed = check_weights("weights", weights, strata)
    priors = Priors() if priors is None else check_instance("priors", priors, Priors)
    binary = priors.binary()
    if binary.better_than_chance:
        raise PriorError(
            "better_than_chance is not available for stratified models: with partial pooling "
            "the judge's rates are logit-normal, not Beta; restrict the hyperpriors instead "
            "(HyperPriors(location_mean=...)) or fit strata one by one with js.bayes.fit"
        )
    hyper = given["hyperpriors"]
    hyper = HyperPriors() if hyper is None else check_instance("hyperpriors", hyper, HyperPriors)
    return _Inputs(tests, cals, strata, pooling, fixed, priors, binary, hyper)


def _split(options: Mapping[str, Any]) -> tuple[dict, dict]:
    """Split keywords into the model's (:data:`STRATIFIED_DEFAULTS`) and the rest (NUTS's)."""
    model = {k: v for k, v in options.items() if k in STRATIFIED_DEFAULTS}
    return model, {k: v for k, v in options.items() if k not in STRATIFIED_DEFAULTS}


def free_variables(pooling: str, k: int, weights_given: bool) -> list[str]:
    """Names of the model's free (sampled) variables, for diagnostics."""
    out = ["theta"]
    for name, _, _ in _RATES:
        if pooling == "partial":
            out += [f"{name}_mu", f"{name}_sigma", f"{name}_z"]
        elif pooling == "none":
            out.append(name)
        else:
            out.append(f"{name}_shared")
    if not weights_given and k > 1:
        out.append("mix")
    return out


def build_stratified_model(
    tests: Any, calibrations: Any, **options: Unpack[StratifiedModelOptions]
) -> Any:
    """Build the unsampled stratified PyMC model (see the module docstring).

    Parameters
    ----------
    tests, calibrations
        As in :func:`fit_stratified`.
    **options
        :class:`StratifiedModelOptions`, as in :func:`fit_stratified`: ``pooling``,
        ``weights``, ``priors``, ``hyperpriors``.

    Returns
    -------
    pymc.Model
        Coordinate ``stratum``; free variables ``theta`` (dim stratum), the rate parameters
        of the pooling (``specificity_mu``/``_sigma``/``_z``…, ``specificity``, or
        ``specificity_shared``) and ``mix`` (``weights="test"``, more than one stratum);
        deterministics ``specificity``, ``sensitivity`` (dim stratum) and ``theta_pooled``;
        data ``n``, ``m0``, ``m1``, ``positive_observed``, ``tn_observed``, ``tp_observed``
        (dim stratum), which :func:`pymc.set_data` can replace.

    Examples
    --------
    >>> import judgestats as js
    >>> tests = {"short": js.JudgedCounts(180, 300), "long": js.JudgedCounts(560, 700)}
    >>> cals = {"short": js.ConfusionCounts(tp=126, fn=14, tn=55, fp=15),
    ...         "long": js.ConfusionCounts(tp=6, fn=1, tn=3, fp=2)}
    >>> model = js.bayes.build_stratified_model(tests, cals, pooling="partial")
    >>> model.coords["stratum"]
    ('short', 'long')
    """
    model, rest = _split(options)
    if rest:
        name = next(iter(rest))
        raise TypeError(f"build_stratified_model() got an unexpected keyword argument {name!r}")
    return _model(_inputs(tests, calibrations, model))


def _model(inputs: _Inputs) -> Any:
    import pymc as pm
    import pytensor.tensor as pt

    tests, cals, strata, pooling = inputs.tests, inputs.cals, inputs.strata, inputs.pooling
    fixed, binary, hyper = inputs.fixed, inputs.binary, inputs.hyper
    k = len(strata)
    data = {
        "n": [tests[s].n for s in strata],
        "positive_observed": [tests[s].positive for s in strata],
        "m0": [cals[s].m0 for s in strata],
        "m1": [cals[s].m1 for s in strata],
        "tn_observed": [cals[s].tn for s in strata],
        "tp_observed": [cals[s].tp for s in strata],
    }
    with pm.Model(coords={"stratum": stratum_coord(strata)}) as model:
        d = {
            key: pm.Data(key, np.asarray(v, dtype=np.int64), dims="stratum")
            for key, v in data.items()
        }
        theta = pm.Beta("theta", alpha=binary.theta.a, beta=binary.theta.b, dims="stratum")
        rates = {}
        for name, _, _ in _RATES:
            prior = getattr(binary, name)
            if pooling == "partial":
                mu = pm.Normal(f"{name}_mu", mu=hyper.location_mean, sigma=hyper.location_sd)
                sigma = pm.HalfNormal(f"{name}_sigma", sigma=hyper.scale_sd)
                z = pm.Normal(f"{name}_z", mu=0.0, sigma=1.0, dims="stratum")
                rate = pm.Deterministic(name, pm.math.invlogit(mu + sigma * z), dims="stratum")
            elif pooling == "none":
                rate = pm.Beta(name, alpha=prior.a, beta=prior.b, dims="stratum")
            else:
                shared = pm.Beta(f"{name}_shared", alpha=prior.a, beta=prior.b)
                rate = pm.Deterministic(name, shared * pt.ones(k), dims="stratum")
            rates[name] = rate
        q0, q1 = rates["specificity"], rates["sensitivity"]
        judged = theta * q1 + (1.0 - theta) * (1.0 - q0)
        pm.Binomial(
            "positive", n=d["n"], p=judged, observed=d["positive_observed"], dims="stratum"
        )
        pm.Binomial("tn", n=d["m0"], p=q0, observed=d["tn_observed"], dims="stratum")
        pm.Binomial("tp", n=d["m1"], p=q1, observed=d["tp_observed"], dims="stratum")
        if fixed is not None:
            mix = pm.Data("weights", np.array([fixed[s] for s in strata]), dims="stratum")
        elif k == 1:
            mix = pt.ones(1)
        else:
            mix = pm.Dirichlet("mix", a=np.ones(k), dims="stratum")
            pm.Multinomial(
                "stratum_n", n=int(sum(data["n"])), p=mix, observed=data["n"], dims="stratum"
            )
        pm.Deterministic("theta_pooled", (mix * theta).sum())
    return model


def fit_stratified(
    tests: Any,
    calibrations: Any,
    *,
    confidence_level: float = 0.95,
    point: str = "mean",
    interval: str = "eti",
    **options: Unpack[FitStratifiedOptions],
) -> BayesianStratifiedCorrection:
    """Fit the stratified Bayesian misclassification model and pool θ over the strata.

    The Bayesian counterpart of :func:`judgestats.strata.correct_stratified` (paper,
    "Limitations and Future Work", item 2: one confusion matrix per stratum, aggregate by the
    stratum mix), with the judge's stratum-level error rates partially pooled (see
    :mod:`judgestats.bayes.hierarchical`). Unlike the frequentist path it needs no minimum
    number of calibration items per stratum and class, and never fails on a stratum whose
    q̂0 + q̂1 <= 1: such a stratum gets a wide posterior, narrowed by what the other strata
    say about the judge.

    Parameters
    ----------
    tests : mapping stratum → JudgedCounts
        Judged test counts per stratum (:func:`judgestats.strata.stratified_counts` builds
        both mappings from a labelled frame).
    calibrations : mapping stratum → ConfusionCounts
        Human-vs-judge calibration counts per stratum; the same strata as ``tests``.
    confidence_level : float, default 0.95
        Mass of the credible intervals; stored on the result.
    point : {"mean", "median", "map"}, default "mean"
        Posterior summary reported as the estimates (per stratum and pooled).
    interval : {"eti", "hdi"}, default "eti"
        Equal-tailed or highest-density credible intervals.
    **options
        Keywords (:class:`FitStratifiedOptions`, under Other Parameters): the model's and how
        to run NUTS.

    Other Parameters
    ----------------
    pooling : {"partial", "none", "complete"}, default "partial"
        How the strata share the judge's specificity and sensitivity: hierarchical
        logit-normal, independent Betas, or one shared pair.
    weights : "test" or mapping stratum → float, default "test"
        ``"test"``: the population mix is unknown, w ~ Dirichlet(1), with the test stratum
        sizes as multinomial data; a mapping gives fixed weights (>= 0, summing to 1).
    priors : Priors, optional
        ``theta`` (prior of every θ_s) and, for ``"none"``/``"complete"``, the Beta priors of
        sensitivity and specificity. Flat by default.
    hyperpriors : HyperPriors, optional
        Hyperpriors of the partially pooled logits (default Normal(0, 1.5) locations,
        HalfNormal(1) scales).
    draws, tune, chains, cores, random_seed, sampler, backend, progress, sample_kwargs : Any
        How to run NUTS: the :class:`~judgestats.bayes.fit.SamplingOptions` of
        :func:`judgestats.bayes.fit`; NUTS's ``target_accept`` is
        :data:`~judgestats.bayes.TARGET_ACCEPT`, 0.995, as there (hierarchical scales with few
        strata need small steps near σ = 0 as much as zero cells do); pass
        ``sample_kwargs={"target_accept": ...}`` to change it.

    Returns
    -------
    BayesianStratifiedCorrection
        A :class:`~judgestats.strata.StratifiedCorrection` (per-stratum ``Correction``s
        from θ_s, pooled ``estimate`` and ``ci`` from ``theta_pooled``, ``weights``,
        frequentist ``diagnostics`` of the calibration counts) plus ``posterior``,
        ``pooling`` and ``sampling`` (convergence diagnostics).

    Raises
    ------
    StrataMismatchError
        If the strata of ``tests`` and ``calibrations`` (or ``weights``) differ.
    WeightsError
        If fixed weights are negative or do not sum to 1.
    ArgumentTypeError, MethodError, PriorError, ConfidenceLevelError
        On invalid arguments (checked before anything is compiled).

    Warns
    -----
    SamplingWarning
        When r_hat > 1.01, ESS < 400 or there are divergences.

    Examples
    --------
    MCMC takes a while, so this example is not run by the test suite
    (tests/bayes/test_hierarchical.py checks the fits):

    >>> import judgestats as js
    >>> tests = {"short": js.JudgedCounts(180, 300), "long": js.JudgedCounts(560, 700)}
    >>> cals = {"short": js.ConfusionCounts(tp=126, fn=14, tn=55, fp=15),
    ...         "long": js.ConfusionCounts(tp=6, fn=1, tn=3, fp=2)}
    >>> res = js.bayes.fit_stratified(tests, cals, random_seed=1)  # doctest: +SKIP
    >>> res.estimate, res.ci, res["long"].ci  # doctest: +SKIP
    """
    level, point, interval = summary_options(confidence_level, point, interval)
    model, sampling = _split(options)
    inputs = _inputs(tests, calibrations, model)
    kwargs = sampling_arguments(sampling)
    tree, diagnostics = sample_checked(
        _model(inputs),
        free_variables(inputs.pooling, len(inputs.strata), inputs.fixed is not None),
        "try sample_kwargs={'target_accept': 0.999} or a smaller HyperPriors(scale_sd=...)",
        kwargs,
        stacklevel=3,
    )
    summary = {"level": level, "point": point, "interval": interval,
               "sampler": kwargs["nuts_sampler"], "sampling": diagnostics}  # fmt: skip
    return _result(inputs, tree, summary)


def _result(inputs: _Inputs, tree: Any, summary: dict) -> BayesianStratifiedCorrection:
    from ..strata.diagnostics import _diagnostics
    from ..strata.pooled import pooled_spec

    tests, cals, strata, fixed = inputs.tests, inputs.cals, inputs.strata, inputs.fixed
    level, point, interval = summary["level"], summary["point"], summary["interval"]
    est, low, high = summarise(tree, "theta", point=point, interval=interval, level=level)
    corrections = {}
    for i, s in enumerate(strata):
        ci_s = ConfidenceInterval(float(low[i]), float(high[i]), METHOD, level)
        corrections[s] = Correction(
            estimate=float(est[i]),
            ci=ci_s,
            estimate_unclipped=float(est[i]),
            clipped=False,
            method=METHOD,
            confidence_level=level,
            test=tests[s],
            calibration=cals[s],
            label_shift=label_shift_test(tests[s], cals[s]),
            estimator=f"posterior {point} (PyMC)",
            # the stratified model is the paper's (Rogan–Gladen per stratum)
            judge=judge_value(cals[s], ci_s, design=BY_HUMAN_LABEL, confidence_level=level),
        )
    pest, plow, phigh = summarise(tree, "theta_pooled", point=point, interval=interval,
                                  level=level)
    if fixed is None:
        n_total = sum(tests[s].n for s in strata)
        w = {s: tests[s].n / n_total for s in strata}
    else:
        w = dict(fixed)
    diagnostics = _diagnostics(
        tests, cals, strata, spec=pooled_spec(method="adjusted-wald", confidence_level=level),
        gen=np.random.default_rng(0),
    )
    return BayesianStratifiedCorrection(
        strata=tuple(strata), corrections=corrections, estimate=float(pest),
        ci=ConfidenceInterval(float(plow), float(phigh), METHOD, level),
        estimate_unclipped=float(pest), clipped=False, weights=w,
        weights_source="test" if fixed is None else "given", method=METHOD,
        confidence_level=level, merged={}, diagnostics=diagnostics, min_per_class=None,
        posterior=tree, pooling=inputs.pooling, point=point, interval=interval,
        sampler=summary["sampler"], sampling=summary["sampling"], priors=inputs.priors,
        hyperpriors=inputs.hyper,
    )  # fmt: skip
