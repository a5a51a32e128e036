"""js.bayes.fit_raters: the Bayesian twin of js.raters.dawid_skene (issue 40).

Provenance and tolerances. The data are simulated (seeded) from the Dawid–Skene model both
fits assume (tests/raters/simulate_latent.py). The posterior has the EM fit's likelihood with
weak priors (flat prevalence, Dirichlet(2, 1) confusion rows: one pseudo-count towards the
diagonal per row), so by Bernstein–von Mises its mean is within a fraction of a standard error
of the maximum likelihood estimate, and its sd close to the sandwich's standard error, on 800
items: checked to 0.5 SE (the prior's pseudo-counts move p̂ by O(1/n)) and sd / SE within
[0.75, 1.33], with 2 chains × 1000 draws (Monte Carlo error ≈ 0.03 SE).
Simulation-based calibration (Talts et al. 2018), fast tier: 6 replicates of 2 chains × 200
draws on a model compiled once (pattern counts swapped by pymc.set_data); the rank of the true
prevalence among 99 thinned draws is uniform on 0..99 when the posterior is calibrated, so at
most 2 of the 6 fall in the outer 10% on either side (binomial(6, 0.2) ≥ 3 has probability
0.10; a posterior too narrow or biased puts most there). The full check (60 replicates) is in
benchmarks/results/raters_latent.md.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pymc")
pytest.importorskip("arviz")

import judgestats.bayes as jb
import judgestats.raters as jr
from judgestats.errors import PriorError, UnidentifiableModelError
from tests.raters.simulate_latent import all_patterns, sbc_rank, simulate_ratings

# Every test here compiles or samples a PyMC model, or needs a fixture that does: the slow tier.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def codes():
    data, _ = simulate_ratings(np.random.default_rng(4050), 800, 0.3, [0.9, 0.85, 0.8, 0.65],
                               [0.88, 0.8, 0.85, 0.6], missing=0.2)  # fmt: skip
    return data[0]


@pytest.fixture(scope="module")
def fits(codes):
    names = ["ann", "bob", "cy", "gpt"]
    em = jr.dawid_skene(codes, raters=names, judge="gpt", method="sandwich")
    post = jb.fit_raters(codes, raters=names, judge="gpt", random_seed=5, chains=2, cores=1,
                         draws=1000, tune=1000)  # fmt: skip
    return em, post


def test_posterior_agrees_with_the_em_fit(fits):
    em, post = fits
    assert post.diagnostics.ok, post.diagnostics.describe()
    se = (em.ci.high - em.ci.low) / (2 * 1.96)  # ≈ the sandwich s.e. (logit scale, mapped)
    assert abs(post.estimate - em.estimate) <= 0.5 * se
    draws = np.asarray(post.posterior["posterior"]["prevalence"].values)[..., 1].ravel()
    assert 0.75 <= draws.std() / se <= 1.33
    assert np.abs(post.accuracy - em.accuracy).max() <= 0.03
    assert post.class_probabilities.shape == em.class_probabilities.shape
    # same fields as the EM result, named as the posterior
    assert post.reference == "latent" and post.judge == "gpt" and post.raters == em.raters
    assert post.ci.confidence_level == 0.95 and post.ci.method == "bayes-mcmc (eti)"


def test_the_model_has_its_coords_and_the_pooled_population(codes):
    model = jb.build_raters_model(codes, pooling="partial")
    names = {v.name for v in model.free_RVs}
    assert names == {"prevalence", "confusion", "confusion_mean", "confusion_concentration"}
    assert list(model.coords["rater"]) == ["rater0", "rater1", "rater2", "rater3"]
    assert len(model.coords["pattern"]) == len(np.unique(codes, axis=0))


def test_refusals_come_before_any_compilation(codes):
    with pytest.raises(UnidentifiableModelError, match="at least 3"):
        jb.fit_raters(codes[:, :2])
    with pytest.raises(PriorError, match="confusion_prior"):
        jb.fit_raters(codes, confusion_prior=(2.0,))
    with pytest.raises(TypeError, match="unexpected keyword"):
        jb.build_raters_model(codes, draws=10)


def test_simulation_based_calibration_fast_tier():
    patterns = all_patterns(4)
    model = jb.build_raters_model(patterns)
    rng = np.random.default_rng(4051)
    ranks = []
    for i in range(6):
        def sample(m, seed=4051 + i):
            return jb.sample(m, draws=200, tune=300, chains=2, cores=1, random_seed=seed,
                             progress=False)  # fmt: skip

        ranks.append(sbc_rank(rng, model, patterns, sample))
    ranks = np.asarray(ranks)
    assert ((ranks < 10) | (ranks > 89)).sum() <= 2, ranks
