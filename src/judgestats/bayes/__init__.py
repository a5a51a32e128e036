"""Bayesian twin of the correction: PyMC misclassification models (optional extra ``bayes``).

* :func:`build_model` — the unsampled ``pymc.Model`` (binary Beta model or k-category
  Dirichlet model) with coords/dims, for users to extend (strata, hierarchical priors).
* :func:`fit` — sample it (NUTS via PyMC, nutpie or numpyro) and return a
  :class:`BayesianCorrection` / :class:`BayesianDistributionCorrection`: the core result
  shapes plus ``.posterior`` (xarray DataTree) and sampling diagnostics, warning with
  :class:`~judgestats.SamplingWarning` when r_hat > 1.01, ESS < 400 or any divergence.
* :func:`fit_stratified` / :func:`build_stratified_model` — covariate strata with the judge's
  rates partially pooled across strata (hierarchical), none or completely pooled; returns a
  :class:`BayesianStratifiedCorrection` shaped like ``js.correct_stratified``'s result.
* :func:`fit_pairwise` / :func:`build_pairwise_model` — the twin of ``js.pairwise(...,
  method="joint-mle")``: Davidson strengths (sum zero), ties and a Dirichlet judge confusion;
  returns a :class:`BayesianPairwiseLeaderboard` with posterior rank distributions.
* :func:`fit_raters` / :func:`build_raters_model` — the twin of
  ``js.raters.dawid_skene``: the latent-class model of several raters (the judge among them),
  Dirichlet confusion rows per rater (optionally pooled), the latent class summed out; returns a
  :class:`BayesianLatentClassFit`.
* :func:`fit_scores` / :func:`build_score_model` — the twin of ``js.scores.correct_scores``:
  a numeric judge score calibrated to the human label (logistic or beta link) under the
  random design, or score bins as judge letters (the J × K Dirichlet model) under the paper's;
  returns a :class:`BayesianScoreCorrection`.
* :class:`Beta`, :class:`Dirichlet`, :class:`Priors`, :class:`HyperPriors` — declarative
  priors, shared with the exact (quadrature) posterior behind ``js.correct(..., method="bayes")``.

Importing this package is light: PyMC and ArviZ are imported when a model is built or fitted.

Examples
--------
>>> import judgestats as js
>>> import judgestats.bayes
>>> test = js.JudgedCounts(positive=600, n=1000)
>>> cal = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
>>> res = js.bayes.fit(test, cal, random_seed=1)  # doctest: +SKIP
>>> exact = js.correct(test, cal, method="bayes")      # same model, no MCMC
"""

from .._validation import PriorError
from ..priors import Beta, Dirichlet, HyperPriors, Priors
from .fit import SAMPLERS, SAMPLING_DEFAULTS, TARGET_ACCEPT, SamplingOptions, fit, sample
from .hierarchical import POOLINGS, build_stratified_model, fit_stratified
from .models import build_model
from .pairwise import BayesianPairwiseLeaderboard, build_pairwise_model, fit_pairwise
from .raters import BayesianLatentClassFit, build_raters_model, fit_raters
from .results import (
    BayesianCorrection,
    BayesianDistributionCorrection,
    BayesianStratifiedCorrection,
    SamplingDiagnostics,
)
from .scores import BayesianScoreCorrection, build_score_model, fit_scores

__all__ = [
    "POOLINGS",
    "SAMPLERS",
    "SAMPLING_DEFAULTS",
    "TARGET_ACCEPT",
    "BayesianCorrection",
    "BayesianDistributionCorrection",
    "BayesianLatentClassFit",
    "BayesianPairwiseLeaderboard",
    "BayesianScoreCorrection",
    "BayesianStratifiedCorrection",
    "Beta",
    "Dirichlet",
    "HyperPriors",
    "PriorError",
    "Priors",
    "SamplingDiagnostics",
    "SamplingOptions",
    "build_model",
    "build_pairwise_model",
    "build_raters_model",
    "build_score_model",
    "build_stratified_model",
    "fit",
    "fit_pairwise",
    "fit_raters",
    "fit_scores",
    "fit_stratified",
    "sample",
]
