"""js.bayes.fit_pairwise: the Bayesian twin of js.pairwise(method="joint-mle") (issue 29).

Provenance and tolerances. The data are simulated (seeded) from the model both fits assume:
Davidson's model for the human verdict and a judge confusion (tests/pairwise/test_leaderboard.BIASED: a
judge preferring the first answer) that depends on the pair only through the human verdict.
Both fits have the same likelihood; the posterior adds weak priors (strength sd 2, log ν sd 2,
flat Dirichlet columns). By the Bernstein–von Mises theorem the posterior mean differs from
the MLE by O(1/n) while both have spread O(1/sqrt(n)), and the posterior sd matches the
inverse observed information to first order. Checked, with 2 chains × 1000 draws (ESS ≥ 400,
so a Monte Carlo error of at most 0.05 sd on a mean and ~4% on an sd):

* strengths and log ν: |posterior mean − MLE| ≤ 0.25 × the MLE's standard error (observed
  information), i.e. the two agree to a quarter of the statistical uncertainty;
* posterior sd / observed-information SE within [0.85, 1.15];
* confusion entries: a flat Dirichlet moves a column's cell from n_jh/n_h to
  (n_jh + 1)/(n_h + J) at most, by ≤ J/(n_h + J); allowed that plus 0.01 (Monte Carlo).

One fit (compiled once, module scope) keeps the file under a minute.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pymc")
pytest.importorskip("arviz")

import judgestats as js
import judgestats.bayes as jb
from judgestats.pairwise.counting import count_pairs
from judgestats.pairwise.independence import independence_test
from tests.pairwise.test_leaderboard import BIASED, favouring, simulate

# Every test here compiles or samples a PyMC model, or needs a fixture that does: the slow tier
# (make test runs it, make test-fast leaves it out).
pytestmark = pytest.mark.slow

BETA = np.array([-0.8, -0.2, 0.3, 0.7])


@pytest.fixture(scope="module")
def data():
    return simulate(np.random.default_rng(2930), BETA, n=2000, labelled=0.25, confusion=BIASED)


@pytest.fixture(scope="module")
def fits(data):
    mle = js.pairwise(data, method="joint-mle", interval="observed-information", rng=0)
    post = jb.fit_pairwise(data, random_seed=11, chains=2, cores=1, draws=1000, tune=1000)
    return mle, post


def test_posterior_agrees_with_the_joint_mle(fits, data):
    mle, post = fits
    assert post.diagnostics.ok, post.diagnostics.describe()
    assert post.models == mle.models
    k = len(mle.models)
    se = np.sqrt(np.diag(mle.covariance))  # (β, log ν), observed information
    assert np.all(np.abs(post.strength - mle.strength) <= 0.25 * se[:k])
    log_tie = np.log(post.posterior["posterior"]["tie"]).mean().item()
    assert abs(log_tie - np.log(mle.tie)) <= 0.25 * se[k]
    ratio = post.strength_se / se[:k]
    assert np.all((ratio > 0.85) & (ratio < 1.15)), ratio
    n_h = data.human.value_counts().reindex(["a", "tie", "b"]).to_numpy()  # calibration
    tol = 3.0 / (n_h + 3.0) + 0.01
    assert np.all(np.abs(post.confusion - mle.confusion) <= tol[None, :])
    assert post.order == mle.order


def test_rank_distributions_and_the_leaderboard_faces(fits):
    _, post = fits
    np.testing.assert_allclose(post.rank_probabilities.sum(axis=1), 1.0)
    np.testing.assert_allclose(post.rank_probabilities.sum(axis=0), 1.0)
    assert np.all((post.rank_set[:, 0] <= post.rank) & (post.rank <= post.rank_set[:, 1]))
    # P(i beats j) from the posterior draws of the strengths and ν, by Davidson's formula
    draws = post.posterior["posterior"]
    b = draws["strength"].values.reshape(-1, len(post.models))
    nu = draws["tie"].values.ravel()
    d = b[:, 3] - b[:, 0]
    own = np.exp(d / 2) / (np.exp(d / 2) + nu + np.exp(-d / 2))
    assert post.win_probability[3, 0] == pytest.approx(own.mean(), rel=1e-9)
    low, high = post.win_probability_ci[3, 0]
    assert low < own.mean() < high and np.isnan(post.win_probability[0, 0])
    ds = post.to_xarray()
    assert ds.attrs["ci_kind"] == "eti" and ds.attrs["sampler"] == "pymc"
    assert "posterior mean" in post.report() and post.estimator in post.summary()


def test_named_errors_before_anything_is_compiled(data):
    with pytest.raises(js.errors.PriorError, match="strength_sd"):
        jb.fit_pairwise(data, strength_sd=0.0)
    with pytest.raises(ValueError, match="confusion"):
        jb.fit_pairwise(data, confusion="diagonal")
    with pytest.raises(js.errors.VerdictError, match="symmetric"):
        jb.fit_pairwise(
            data.assign(judge=data.judge.map({"a": "A", "tie": "T", "b": "B"})),
            judge_labels=["A", "T", "B"],
            confusion="symmetric",
        )


def test_its_keywords_are_the_frame_columns_the_model_and_the_sampler(data):
    """One bundle of keywords (PairColumns + the model's + SamplingOptions), checked early."""
    model = jb.build_pairwise_model(
        data.rename(columns={"judge": "verdict"}), judge="verdict", design="by-human-label"
    )
    assert "human_verdicts" not in model.named_vars  # by-human-label: confusion only
    assert "human_verdicts" in jb.build_pairwise_model(data).named_vars
    with pytest.raises(TypeError, match="unexpected keyword argument 'draws'"):
        jb.build_pairwise_model(data, draws=10)
    with pytest.raises(js.errors.ArgumentTypeError, match=r"unknown sampling option\(s\) \['judges'\]"):
        jb.fit_pairwise(data, judges="judge")
    with pytest.raises(js.errors.MethodError, match="design"):
        jb.fit_pairwise(data, design="stratified")
    assert set(jb.pairwise.MODEL_DEFAULTS) == set(jb.pairwise.PairwiseModelOptions.__annotations__)


def test_warns_where_the_calibration_pairs_reject_its_assumption(monkeypatch):
    """A judge favouring one model (tests/pairwise/test_leaderboard.favouring) breaks the assumption it
    shares with joint-mle; the warning comes before sampling (stubbed out here: no compile)."""
    import judgestats.bayes.pairwise as module

    class Stop(Exception):
        pass

    def stop(*args, **kwargs):
        raise Stop

    monkeypatch.setattr(module, "sample_checked", stop)
    frame = favouring(np.random.default_rng(3), BETA, n=4000, labelled=0.25)
    assert independence_test(count_pairs(frame)).pvalue < 0.01
    with pytest.warns(js.JudgeDependenceWarning, match="method='ppi'"), pytest.raises(Stop):
        jb.fit_pairwise(frame)
