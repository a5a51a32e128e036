"""js.bayes.fit_scores: the Bayesian twin of a numeric judge score's correction (issue 39).

Provenance and tolerances.

* The Bayesian bootstrap step (``rate_draws``) against the exact moments of a
  Dirichlet(1, …, 1)-weighted mean of N values g_i: mean ḡ and variance S²/(N + 1), S² the
  values' variance with divisor N (the Dirichlet's covariance, summed); 20,000 draws give the
  sample variance within ±2.5% (3 s.e.), 2,000 draws (the normal path) within ±10%.
* The calibrated-score model against an independent computation: the exact posterior of the
  logistic regression's two coefficients on an 81 × 81 grid (the Bernoulli log-likelihood
  and the Normal(0, 2.5) priors written out here), pushed through the rows' mean of g. The
  MCMC posterior mean and 2.5%/97.5% quantiles of the rows' rate agree within Monte Carlo error
  (2 chains × 1,000 draws, ESS > 1,000: 0.1 posterior sd for the mean, 0.25 sd for the ends).
* The same data set (N = 10,000 rows, a random 1,000 labelled, planted logistic link) against
  the frequentist twin, ``js.scores.correct_scores(calibrator="logistic")`` (PPI++): both
  are efficient where the link holds and differ by O(1/n) plus the cross-fitting's noise, so
  the posterior mean is within 0.5 of PPI++'s standard error and the posterior sd within
  [0.8, 1.25] of it.
* Simulation-based calibration (Talts et al. 2018), fast tier: 6 replicates from the prior on
  a model compiled once; the rank of the true rows' rate among 99 thinned draws is uniform on
  0..99 when the posterior is calibrated, so at most 2 of the 6 fall in the outer 10% on
  either side (P(Binomial(6, 0.2) ≥ 3) = 0.10). The full check (100 replicates per link, the
  binned model too) is in benchmarks/results/bayes_scores.md.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.special import expit, log_expit

import judgestats.scores as jsc
from judgestats.bayes.scores import (
    EXACT_ATOMS,
    LINK_NUTS,
    PRIOR_SCALE,
    build_score_model,
    coefficient_draws,
    fit_scores,
    rate_draws,
    score_features,
)
from judgestats.errors import LabelError, MethodError, PriorError


def _planted(seed: int, size: int, labelled: int, a: float = -1.0, b: float = 1.5):
    rng = np.random.default_rng(seed)
    s = rng.standard_normal(size)
    y = rng.random(size) < expit(a + b * s)
    return s, np.where(np.arange(size) < labelled, y, np.nan)


# ----------------------------------------------------------------------------- no sampling
def test_refusals_come_before_any_compilation():
    s, human = _planted(1, 200, 50)
    with pytest.raises(MethodError, match="by-judge-label"):
        fit_scores(s, human, design="by-judge-label")
    with pytest.raises(MethodError, match="bins= declares"):
        fit_scores(s, human, bins=[-5, 0, 5])
    with pytest.raises(MethodError, match="declare score bins"):
        fit_scores(s, human, design="by-human-label")
    with pytest.raises(LabelError, match=r"strictly inside \(0, 1\).*index 0"):
        fit_scores(np.r_[1.0, expit(s[1:])], human, link="beta")
    with pytest.raises(MethodError, match=r"link \(.probit.\) must be one of"):
        fit_scores(s, human, link="probit")
    with pytest.raises(LabelError, match="0/1"):
        fit_scores(s, np.where(np.arange(200) < 50, 2, np.nan))
    with pytest.raises(PriorError, match="prior_scale"):
        fit_scores(s, human, prior_scale=-1.0)
    with pytest.raises(LabelError, match="outside"):
        fit_scores(s, human, bins=[0, 1, 2], design="by-human-label")
    with pytest.raises(LabelError, match="labelled rows"):
        fit_scores(s, np.full(200, np.nan))


def test_features_are_the_links_standardised():
    s = np.array([0.1, 0.2, 0.5, 0.9])
    x = score_features(s, "beta")
    raw = np.column_stack([np.log(s), -np.log1p(-s)])
    np.testing.assert_allclose(x, (raw - raw.mean(0)) / raw.std(0))
    np.testing.assert_allclose(score_features(np.full(3, 7.0), "logistic"), 0.0)


@pytest.mark.parametrize(("distinct", "draws", "tol"), [(50, 20000, 0.025),
                                                       (EXACT_ATOMS + 100, 2000, 0.1)])
def test_bayesian_bootstrap_has_the_dirichlet_moments(distinct, draws, tol):
    # exact Dirichlet weights up to EXACT_ATOMS distinct scores, the two-moment normal above:
    # 20,000 draws put the sample variance within 2.5% (3 s.e.), 2,000 within 10% (3 s.e.)
    rng = np.random.default_rng(39)
    x = np.repeat(rng.standard_normal(distinct), rng.integers(1, 4, distinct))[:, None]
    coef = np.tile([0.3, 1.2], (draws, 1))  # one β: only the rows' weights vary
    theta, rows_rate = rate_draws(coef, x, np.random.default_rng(40))
    g = expit(0.3 + 1.2 * x[:, 0])
    np.testing.assert_allclose(rows_rate, g.mean())
    sd = np.sqrt(g.var() / (g.size + 1))
    assert abs(theta.mean() - g.mean()) <= 4 * sd / np.sqrt(draws)
    assert abs(theta.var() / sd**2 - 1) <= tol


# ----------------------------------------------------------------------------- sampling
@pytest.fixture(scope="module")
def planted():
    pytest.importorskip("pymc")
    s, human = _planted(2039, 10000, 1000)
    res = fit_scores(s, human, random_seed=7, chains=2, cores=1)
    return s, human, res


def _grid_posterior(x: np.ndarray, y: np.ndarray, centre: np.ndarray, cov: np.ndarray):
    """Exact posterior weights of (β0, β1) on a grid: Bernoulli-logit likelihood, N(0, 2.5).

    81 × 81 nodes over ±6 sd of ``cov`` in its Cholesky coordinates (a correlated posterior
    covered evenly; the mass beyond 6 sd is below 1e-8).
    """
    axis = np.linspace(-6, 6, 81)
    z = np.stack(np.meshgrid(axis, axis, indexing="ij"), -1).reshape(-1, 2)
    beta = centre + z @ np.linalg.cholesky(cov).T
    eta = beta[:, :1] + beta[:, 1:] * x[None, :]
    loglik = (y * log_expit(eta) + (1 - y) * log_expit(-eta)).sum(axis=1)
    logw = loglik - (beta**2).sum(axis=1) / (2 * PRIOR_SCALE**2)
    w = np.exp(logw - logw.max())
    return beta, w / w.sum()


@pytest.mark.slow
def test_the_posterior_matches_an_exact_grid(planted):
    s, human, res = planted
    assert res.diagnostics.ok, res.diagnostics.describe()
    x = score_features(s, "logistic")[:, 0]
    labelled = ~np.isnan(human)
    coef = coefficient_draws(res.posterior)
    beta, w = _grid_posterior(x[labelled], human[labelled], coef.mean(0), np.cov(coef.T))
    keep = w > 1e-12  # the rows' mean of g where the posterior has mass
    beta, w = beta[keep], w[keep] / w[keep].sum()
    exact_rate = np.concatenate([expit(b[:, :1] + b[:, 1:] * x[None, :]).mean(axis=1)
                                 for b in np.array_split(beta, 1 + len(beta) // 500)])
    order = np.argsort(exact_rate)
    cdf = np.cumsum(w[order])
    mean = float(np.dot(w, exact_rate))
    sd = float(np.sqrt(np.dot(w, (exact_rate - mean) ** 2)))
    ends = [exact_rate[order][np.searchsorted(cdf, q)] for q in (0.025, 0.975)]
    draws = np.asarray(res.posterior["posterior"]["rows_rate"].values).ravel()
    assert abs(draws.mean() - mean) <= 0.1 * sd
    np.testing.assert_allclose(np.quantile(draws, [0.025, 0.975]), ends, atol=0.25 * sd)
    # θ adds the rows' sampling (Bayesian bootstrap): Var(θ) = Var(rows' rate) + E[S²/(N + 1)]
    g = expit(coef[::20, :1] + coef[::20, 1:] * x[None, :])
    extra = float(np.mean(g.var(axis=1)) / (x.size + 1))
    assert res.variance == pytest.approx(draws.var() + extra, rel=0.1)


@pytest.mark.slow
def test_the_posterior_agrees_with_ppi(planted):
    s, human, res = planted
    ppi = jsc.correct_scores(s, human, calibrator="logistic", rng=3)
    se = np.sqrt(ppi.variance)
    assert abs(res.estimate - ppi.estimate) <= 0.5 * se
    assert 0.8 <= np.sqrt(res.variance) / se <= 1.25
    # named, stored, and shaped like the other results
    assert res.method == "bayes-mcmc" and res.design == "random" and res.link == "logistic"
    assert "calibrated-score model (logistic link" in res.estimator
    assert res.ci.confidence_level == 0.95 and res.ci.low < res.estimate < res.ci.high
    assert (res.n_labelled, res.n_unlabelled) == (1000, 9000)
    assert res.effective_labels > res.n_labelled  # the score is worth more than its labels
    narrow = res.credible_interval(0.5)
    assert res.ci.low < narrow.low < narrow.high < res.ci.high
    assert res.to_dataframe().loc[0, "link"] == "logistic"
    table = res.posterior_summary()
    assert {"intercept", "slope[score]", "rate"} <= set(table.index), table.index
    assert "effective labels" in res.summary()


@pytest.mark.slow
def test_simulation_based_calibration_fast_tier():
    import pymc as pm

    import judgestats.bayes as jb

    rng = np.random.default_rng(3901)
    s = rng.beta(2, 2, 300)
    model = build_score_model(s, np.where(np.arange(300) < 80, s > 0.5, np.nan))
    ranks = []
    for i in range(6):
        s = rng.beta(2, 2, 300)
        x = score_features(s, "logistic")
        beta = rng.normal(0.0, PRIOR_SCALE, 2)
        g = expit(beta[0] + x @ beta[1:])
        with model:
            pm.set_data({"features": x[:80], "human_observed": (rng.random(80) < g[:80]) * 1.0})
        with warnings.catch_warnings():  # PyMC: the dense adaptation is "experimental"
            warnings.filterwarnings("ignore", message="QuadPotentialFullAdapt")
            tree = jb.sample(model, draws=200, tune=300, chains=2, cores=1,
                             random_seed=3902 + i, progress=False, sample_kwargs=LINK_NUTS)
        _, rows_rate = rate_draws(coefficient_draws(tree), x, np.random.default_rng(i))
        thinned = rows_rate[np.linspace(0, rows_rate.size - 1, 99).astype(int)]
        ranks.append(int((thinned < g.mean()).sum()))
    ranks = np.asarray(ranks)
    assert ((ranks < 10) | (ranks > 89)).sum() <= 2, ranks


@pytest.mark.slow
def test_binned_model_under_the_papers_design_agrees_with_the_profile_likelihood():
    """Score bins as J = 4 judge letters over K = 2 human classes (by-human-label).

    The J × K Dirichlet model with flat priors, as in tests/bayes/test_fit.py's judge-alphabet
    test (the same graph, J = 4, K = 2, so its compiled code is reused): with n = 1,000 test
    rows, m = 150 + 150 calibration rows drawn within human classes and no empty calibration
    cell (the maximum inside the parameter space) the posterior and the likelihood agree to
    first order: the posterior mean within 0.01 of the maximum-likelihood θ̂ and the ETI ends
    within 0.02 of the profile-likelihood interval's (θ's posterior sd is 0.043). With an
    empty cell the flat Dirichlet's pseudo-counts pull the column off the boundary and the
    two part by more (a lower end 0.6 sd apart on such a data set); part D of
    benchmarks/bench_bayes_scores.py measures both intervals' coverage.
    """
    from judgestats.alphabets import alphabet_counts
    from judgestats.alphabets.groups import correct_alphabet

    rng = np.random.default_rng(3903)
    y = rng.random(1000) < 0.35
    test = np.where(y, rng.beta(4, 2, 1000), rng.beta(2, 4, 1000))
    cal = np.concatenate([rng.beta(2, 4, 150), rng.beta(4, 2, 150)])
    scores = np.concatenate([test, cal])
    human = np.concatenate([np.full(1000, np.nan), np.repeat([0.0, 1.0], 150)])
    bins = [0.0, 0.25, 0.5, 0.75, 1.0]
    res = fit_scores(scores, human, bins=bins, design="by-human-label", random_seed=3,
                     draws=1000, chains=2, cores=1)  # fmt: skip
    letters, table = alphabet_counts(
        {"judge": scores, "human": np.where(np.isnan(human), None, human)}, judge="judge",
        bins=bins, labels=[0, 1],
    )  # fmt: skip
    assert np.all(np.asarray(table.counts) > 0)  # the claim's condition
    ref = correct_alphabet(letters, table, design="by-human-label", method="profile-likelihood")
    assert res.estimate == pytest.approx(ref.estimate, abs=0.01)
    assert res.ci.low == pytest.approx(ref.ci.low, abs=0.02)
    assert res.ci.high == pytest.approx(ref.ci.high, abs=0.02)
    # θ's draws are the class-1 share of the Dirichlet model's; named and stored
    post = res.posterior["posterior"]
    np.testing.assert_array_equal(post["rate"].values, post["theta"].values[..., 1])
    assert res.design == "by-human-label" and res.link is None and res.bins == tuple(bins)
    assert "binned J × K model (4 score bins" in res.estimator
    assert (res.n_labelled, res.m1, res.n_unlabelled) == (300, 150, 1000)
    assert res.distribution.calibration.judge_labels == tuple(letters.labels)
