"""``fit_raters()``: the Bayesian twin of the Dawid–Skene latent-class model.

The likelihood is :func:`judgestats.raters.dawid_skene`'s: item ``i`` has a latent class ``c``
with probability ``p_c``, and rater ``r`` (the judge among them) labels it ``l`` with
probability ``π_r[c, l]``, independently given the class. The latent class is marginalised
out, one sum over classes per item (``logsumexp``), so NUTS samples continuous parameters only::

    log L = Σ_i log Σ_c exp(log p_c + Σ_r Σ_l 1[y_ir = l] log π_r[c, l])

Priors: ``p ~ Dirichlet(prevalence_concentration)`` (two classes: a Beta) and every confusion
row ``π_r[c, ·] ~ Dirichlet`` with ``confusion_prior = (diagonal, off-diagonal)``
concentrations (default ``(2, 1)``: a rater is more likely right than wrong, which also keeps
the sampler away from the mirror image where every class is renamed). With
``pooling="partial"`` the rows share a population: ``π_r[c, ·] ~ Dirichlet(κ_c μ_c)``, with
``μ_c ~ Dirichlet(confusion_prior)`` and ``κ_c ~ Gamma(2, 0.1)`` (raters borrow strength from
one another; a judge unlike the humans is shrunk towards them less as ``κ_c`` falls).
The chains start at the EM estimate (oriented as in :mod:`judgestats.raters.latent_em`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Unpack

import numpy as np

from .._validation import PriorError, check_choice, check_concentration
from ..raters.latent_class import (
    LatentClassFit,
    check_ratings,
    fit_codes,
)
from ..raters.latent_em import e_step, one_hot, patterns
from ..results import ConfidenceInterval
from .fit import SamplingOptions, sample_checked, sampling_arguments, summary_options
from .results import SAMPLE_DIMS, SamplingDiagnostics

__all__ = [
    "MODEL_DEFAULTS",
    "POOLINGS",
    "BayesianLatentClassFit",
    "RatersModelOptions",
    "build_raters_model",
    "fit_raters",
]

#: How the raters' confusion rows are tied (``pooling=``).
POOLINGS = ("none", "partial")
METHOD = "bayes-mcmc"
_ESTIMATOR = "Dawid-Skene latent class model, posterior {} (PyMC)"


class RatersModelOptions(SamplingOptions, total=False):
    """The model's keywords of :func:`fit_raters` (defaults :data:`MODEL_DEFAULTS`) and NUTS's.

    ``pooling`` ({"none", "partial"}); ``prevalence_concentration`` (float > 0, every
    Dirichlet parameter of ``p``); ``confusion_prior`` (pair of floats > 0: the Dirichlet
    concentration of a row's diagonal entry and of each off-diagonal entry).
    """

    pooling: str
    prevalence_concentration: float
    confusion_prior: tuple[float, float]


#: The one home of the model's defaults.
MODEL_DEFAULTS: dict[str, Any] = {
    "pooling": "none",
    "prevalence_concentration": 1.0,
    "confusion_prior": (2.0, 1.0),
}


def _model_options(keywords: Mapping[str, Any]) -> dict[str, Any]:
    given = {**MODEL_DEFAULTS, **keywords}
    prior = given["confusion_prior"]
    if np.ndim(prior) != 1 or len(prior) != 2:
        raise PriorError(f"confusion_prior must be a pair (diagonal, off-diagonal), got {prior!r}")
    conc = given["prevalence_concentration"]
    if np.ndim(conc):
        raise PriorError(f"prevalence_concentration must be a scalar, got {conc!r}")
    return {
        "pooling": check_choice("pooling", given["pooling"], POOLINGS),
        "prevalence_concentration": float(check_concentration("prevalence_concentration", conc)),
        "confusion_prior": tuple(float(v) for v in check_concentration("confusion_prior", prior)),
    }


def _row_prior(k: int, prior: tuple[float, float]) -> np.ndarray:
    diag, off = prior
    return np.where(np.eye(k, dtype=bool), diag, off)


def _confusion(pm: Any, n_raters: int, k: int, options: dict) -> Any:
    dims = ("rater", "latent_class", "label")
    base = _row_prior(k, options["confusion_prior"])
    if options["pooling"] == "none":
        return pm.Dirichlet("confusion", a=np.broadcast_to(base, (n_raters, k, k)), dims=dims)
    mean = pm.Dirichlet("confusion_mean", a=base, dims=("latent_class", "label"))
    kappa = pm.Gamma("confusion_concentration", alpha=2.0, beta=0.1, dims="latent_class")
    alpha = (kappa[:, None] * mean)[None, :, :] * np.ones((n_raters, 1, 1))
    return pm.Dirichlet("confusion", a=alpha, dims=dims)


def _model(unique: np.ndarray, counts: np.ndarray, raters: tuple, categories: tuple,
           options: dict) -> Any:  # fmt: skip
    """Return the model on the distinct rating patterns ``unique``, seen ``counts`` times."""
    import pymc as pm
    import pytensor.tensor as pt

    u, r = unique.shape
    k = len(categories)
    coords = {"pattern": np.arange(u), "rater": list(raters), "latent_class": list(categories),
              "label": list(categories), "rater_label": np.arange(r * k)}  # fmt: skip
    with pm.Model(coords=coords) as model:
        ratings = pm.Data("ratings", one_hot(unique, k).reshape(u, r * k),
                          dims=("pattern", "rater_label"))  # fmt: skip
        weight = pm.Data("pattern_count", counts.astype(float), dims="pattern")
        prevalence = pm.Dirichlet(
            "prevalence", a=np.full(k, options["prevalence_concentration"]), dims="latent_class"
        )
        confusion = _confusion(pm, r, k, options)
        log_pi = pt.log(confusion).dimshuffle(0, 2, 1).reshape((r * k, k))  # (rater·label, c)
        joint = pt.log(prevalence)[None, :] + pt.dot(ratings, log_pi)  # (pattern, c)
        pm.Potential("ratings_given_class", (weight * pt.logsumexp(joint, axis=1)).sum())
        diag = pt.diagonal(confusion, axis1=1, axis2=2)  # (rater, c)
        pm.Deterministic("accuracy", (diag * prevalence[None, :]).sum(axis=1), dims="rater")
    return model


def _split(options: Mapping[str, Any]) -> tuple[dict, dict]:
    model = {k: v for k, v in options.items() if k in MODEL_DEFAULTS}
    return model, {k: v for k, v in options.items() if k not in MODEL_DEFAULTS}


def build_raters_model(
    ratings: Any,
    *,
    raters: Any = None,
    categories: Any = None,
    judge: str | None = None,
    **options: Any,
) -> Any:
    """Build the unsampled PyMC model of :func:`fit_raters` (see the module docstring).

    Parameters
    ----------
    ratings, raters, categories, judge
        The ratings (a :class:`~judgestats.raters.Ratings` or a code matrix), as in
        :func:`judgestats.raters.dawid_skene`.
    **options
        The model's keywords: ``pooling``, ``prevalence_concentration``, ``confusion_prior``
        (:data:`MODEL_DEFAULTS`).

    Returns
    -------
    pymc.Model
        Coordinates ``pattern`` (the distinct rows of the code matrix), ``rater``,
        ``latent_class``, ``label``; free variables
        ``prevalence`` (``latent_class``) and ``confusion`` (``rater`` × ``latent_class`` ×
        ``label``), with ``pooling="partial"`` also ``confusion_mean`` and
        ``confusion_concentration``; deterministic ``accuracy`` (``rater``); data ``ratings``
        (``pattern`` × ``rater_label``: each pattern's one-hot ratings, rater-major) and
        ``pattern_count`` (``pattern``: how many items have it), which :func:`pymc.set_data`
        can replace (counts of the same patterns from another data set reuse the compiled
        sampler).

    Raises
    ------
    UnidentifiableModelError
        Fewer than three raters or shared items, as in ``dawid_skene``.
    PriorError
        A concentration that is not finite and positive.

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> import judgestats.bayes
    >>> codes = np.array([[1, 1, 1], [1, 1, 0], [0, 0, 0], [0, 1, 0]] * 5)
    >>> model = js.bayes.build_raters_model(codes, raters=["ann", "bob", "gpt"])  # doctest: +SKIP
    >>> model.coords["rater"]  # doctest: +SKIP
    ('ann', 'bob', 'gpt')
    """
    model_options, rest = _split(options)
    if rest:
        raise TypeError(f"build_raters_model() got an unexpected keyword argument "
                        f"{next(iter(rest))!r}")  # fmt: skip
    checked = _model_options(model_options)
    arr, names, categories, _ = check_ratings(ratings, raters, categories, judge)
    unique, _, counts = patterns(arr)
    return _model(unique, counts, names, categories, checked)


@dataclass(frozen=True, slots=True)
class BayesianLatentClassFit(LatentClassFit):
    """A :class:`~judgestats.raters.LatentClassFit` from the posterior (``fit_raters``).

    The fields are those of the EM fit, from the draws: ``estimate``, ``prevalence`` and
    ``accuracy`` (the posterior ``point``), their credible intervals (``interval`` at
    ``confidence_level``), ``confusion`` (posterior mean) and ``posterior`` (each item's class
    probabilities averaged over the draws: ``class_probabilities``); ``loglik`` and
    ``iterations`` are the EM start's.

    Attributes
    ----------
    posterior : xarray.DataTree
        PyMC's draws (``prevalence``, ``confusion``, ``accuracy``; the pooled model's
        population too).
    point : {"mean", "median", "map"}
    interval : {"eti", "hdi"}
    sampler : str
    diagnostics : SamplingDiagnostics
    priors : dict
        ``pooling``, ``prevalence_concentration``, ``confusion_prior``.

    Examples
    --------
    Made by :func:`judgestats.bayes.fit_raters`. Sampling compiles a model (a minute the first
    time), so this example is not run by the test suite (``tests/bayes/test_raters.py`` fits
    the model):

    >>> import numpy as np
    >>> import judgestats as js
    >>> import judgestats.bayes
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.random(400) < 0.3
    >>> right = rng.random((400, 4)) < [0.9, 0.85, 0.8, 0.65]
    >>> codes = np.where(right, truth[:, None], ~truth[:, None]).astype(int)
    >>> res = js.bayes.fit_raters(codes, judge="rater3", random_seed=1,  # doctest: +SKIP
    ...                           cores=1)
    >>> res.ci  # doctest: +SKIP
    """

    posterior: Any = None
    point: str = "mean"
    interval: str = "eti"
    sampler: str = "pymc"
    diagnostics: SamplingDiagnostics | None = None
    priors: dict | None = None

    def __repr__(self) -> str:
        low, high = self.ci
        return (
            f"BayesianLatentClassFit(estimate={self.estimate:.6g}, ci=[{low:.6g}, {high:.6g}], "
            f"reference='latent', point={self.point!r}, interval={self.interval!r}, "
            f"confidence_level={self.confidence_level}, {self.n_items} items, "
            f"raters={list(self.raters)!r}, judge={self.judge!r}; "
            f"{self.diagnostics.describe() if self.diagnostics else ''})"
        )


def _item_posterior(tree: Any, ratings: np.ndarray, k: int, max_draws: int = 400) -> np.ndarray:
    """Each item's class probabilities averaged over (up to ``max_draws``) posterior draws."""
    post = tree["posterior"]
    p = np.asarray(post["prevalence"].transpose(*SAMPLE_DIMS, "latent_class").values)
    pi = np.asarray(post["confusion"].transpose(*SAMPLE_DIMS, "rater", "latent_class",
                                                "label").values)  # fmt: skip
    p, pi = p.reshape(-1, k), pi.reshape(-1, *pi.shape[2:])
    keep = np.linspace(0, p.shape[0] - 1, min(max_draws, p.shape[0])).astype(int)
    w, _ = e_step(ratings, p[keep], pi[keep])
    return w.mean(axis=0)


def fit_raters(
    ratings: Any,
    *,
    raters: Any = None,
    categories: Any = None,
    judge: str | None = None,
    positive: Any = None,
    confidence_level: float = 0.95,
    point: str = "mean",
    interval: str = "eti",
    **options: Unpack[RatersModelOptions],
) -> BayesianLatentClassFit:
    """Fit the Bayesian Dawid–Skene model by NUTS: the latent prevalence and each rater's errors.

    The posterior twin of :func:`judgestats.raters.dawid_skene` (module docstring): the same
    likelihood with Dirichlet priors, the latent class summed out. Where the model holds and
    the data are informative its posterior mean agrees with the EM estimate within a fraction of
    a standard error; its calibration is checked by simulation-based calibration
    (``tests/bayes/test_raters.py``, ``benchmarks/results/raters_latent.md``).

    Parameters
    ----------
    ratings, raters, categories, judge, positive
        The ratings (a :class:`~judgestats.raters.Ratings` or a code matrix) and the class of
        interest, as in :func:`judgestats.raters.dawid_skene`.
    confidence_level : float, default 0.95
        Mass of every credible interval; stored.
    point : {"mean", "median", "map"}, default "mean"
        Posterior summary reported as ``estimate``, ``prevalence`` and ``accuracy``.
    interval : {"eti", "hdi"}, default "eti"
        Kind of the credible intervals (ArviZ).
    **options
        The model's keywords (``pooling``, ``prevalence_concentration``, ``confusion_prior``;
        :data:`MODEL_DEFAULTS`) and how to run NUTS (``draws``, ``tune``, ``chains``,
        ``cores``, ``random_seed``, ``sampler``, ``backend``, ``progress``, ``sample_kwargs``:
        :class:`~judgestats.bayes.fit.SamplingOptions`).

    Returns
    -------
    BayesianLatentClassFit

    Raises
    ------
    UnidentifiableModelError
        Fewer than three raters, or fewer than ten items rated by three or more.
    PriorError
        A concentration that is not finite and positive.

    Warns
    -----
    SamplingWarning
        r_hat > 1.01, ESS < 400 or divergences.

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> import judgestats.bayes
    >>> codes = np.array([[1, 1, 1], [1, 1, 0], [0, 0, 0], [0, 1, 0]] * 10)
    >>> res = js.bayes.fit_raters(codes, random_seed=1, cores=1)  # doctest: +SKIP
    >>> res.ci  # doctest: +SKIP
    """
    level, point, interval = summary_options(confidence_level, point, interval)
    model_options, sampling = _split(options)
    checked = _model_options(model_options)
    kwargs = sampling_arguments(sampling)
    arr, names, categories, judge = check_ratings(ratings, raters, categories, judge)
    positive = categories[-1] if positive is None else positive
    if positive not in categories:
        raise PriorError(f"positive must be one of the categories {list(categories)!r}, "
                         f"got {positive!r}")  # fmt: skip
    k = len(categories)
    em = fit_codes(arr, k, tol=1e-7, max_iter=5000)
    unique, inverse, counts = patterns(arr)
    start = {"prevalence": np.clip(em.prevalence[0], 0.01, None),
             "confusion": np.clip(em.confusion[0], 0.01, None)}  # fmt: skip
    start = {name: v / v.sum(axis=-1, keepdims=True) for name, v in start.items()}
    kwargs = {**kwargs, "initvals": start}
    free = ["prevalence", "confusion"] + (
        ["confusion_mean", "confusion_concentration"] if checked["pooling"] == "partial" else []
    )
    tree, diagnostics = sample_checked(
        _model(unique, counts, names, categories, checked), free,
        "try sample_kwargs={'target_accept': 0.999} or pooling='none'", kwargs, stacklevel=2,
    )  # fmt: skip
    return _result(tree, arr, em, diagnostics, {"inverse": inverse, "unique": unique,
        "names": names, "categories": categories, "judge": judge, "positive": positive,
        "level": level, "point": point, "interval": interval,
        "sampler": kwargs["nuts_sampler"], "priors": checked})  # fmt: skip


def _result(tree, arr, em, diagnostics, how) -> BayesianLatentClassFit:
    from .results import summarise

    level, categories = how["level"], how["categories"]
    summary = {"point": how["point"], "interval": how["interval"], "level": level}
    prevalence, p_low, p_high = summarise(tree, "prevalence", **summary)
    accuracy, a_low, a_high = summarise(tree, "accuracy", **summary)
    c = categories.index(how["positive"])
    k = len(categories)
    notes = [] if diagnostics.ok else [
        "the MCMC fit may be unreliable: " + "; ".join(diagnostics.problems())]
    confusion = tree["posterior"]["confusion"].mean(dim=list(SAMPLE_DIMS))
    return BayesianLatentClassFit(
        estimate=float(prevalence[c]),
        ci=ConfidenceInterval(low=float(p_low[c]), high=float(p_high[c]),
                              method=f"{METHOD} ({how['interval']})", confidence_level=level),
        prevalence=prevalence, prevalence_ci=np.column_stack([p_low, p_high]),
        confusion=np.asarray(confusion.transpose("rater", "latent_class", "label").values),
        accuracy=accuracy, accuracy_ci=np.column_stack([a_low, a_high]),
        class_probabilities=_item_posterior(
            tree, one_hot(how["unique"], k).reshape(how["unique"].shape[0], -1), k
        )[how["inverse"]],
        raters=how["names"], categories=categories, positive=how["positive"],
        judge=how["judge"], method=METHOD, confidence_level=level, n_items=arr.shape[0],
        n_ratings=int((arr >= 0).sum()), loglik=float(em.loglik[0]),
        iterations=em.iterations, converged=diagnostics.ok, notes=tuple(notes),
        estimator=_ESTIMATOR.format(how["point"]), posterior=tree, point=how["point"],
        interval=how["interval"], sampler=how["sampler"], diagnostics=diagnostics,
        priors=dict(how["priors"]),
    )  # fmt: skip
