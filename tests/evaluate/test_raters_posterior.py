"""``evaluate(rater=, reference="latent", method="bayes")``: the PyMC twin through evaluate, the
CLI and the report (issue 40).

Provenance and tolerances. The data are the bundled NQ-301 set (two systems, DPR and FiD, in
long form: the two annotators on the items whose id ends in 0-2, the GPT-4 judge on all 300
answers of each system; ``tests.golden.cases._raters_frame``). The reference is the same
model fitted by EM, ``evaluate(..., method="profile")`` (:func:`judgestats.raters.dawid_skene`),
computed independently of PyMC. The posterior has the EM fit's likelihood with weak priors
(flat prevalence, Dirichlet(2, 1) confusion rows), so by Bernstein-von Mises its mean is
within a fraction of a posterior sd of the maximum likelihood estimate: the prior's
pseudo-counts move it by O(1/n) (measured 0.04 sd on both systems with 2 chains x 500 draws)
and the Monte Carlo error of a mean over >= 400 effective draws is <= 0.05 sd; the tolerance
is 0.25 posterior sd. The credible interval's width is within [0.8, 1.25] of the profile
likelihood interval's (measured 0.99 and 1.14).

Sampling: 2 chains x 1000 draws (500 tuning), ``cores=1`` (STACK.md), one module-scoped fit
reused by every test; the compiled model is cached by PyTensor, so the CLI's fits reuse it.
No golden entry: MCMC draws are bitwise reproducible only with a warm cache and
``numba__fastmath=False`` (STACK.md), not across machines.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import judgestats as js
from judgestats.cli import main
from judgestats.errors import ArgumentTypeError, JudgeStatsError, MethodError
from tests.golden.cases import _raters_frame

SAMPLING = {"draws": 1000, "tune": 500, "chains": 2, "cores": 1}
SEED = 7
_CLI = ["--draws", "1000", "--tune", "500", "--chains", "2", "--cores", "1", "--seed", str(SEED)]


def _evaluate(frame, **kw):
    return js.evaluate(frame, rater="rater", cluster="item", by="model", reference="latent",
                       design="random", **kw)  # fmt: skip


@pytest.fixture(scope="module")
def frame():
    return _raters_frame()


@pytest.fixture(scope="module")
def posterior(frame):
    pytest.importorskip("pymc")
    return _evaluate(frame, method="bayes", rng=SEED, **SAMPLING)


@pytest.mark.slow
def test_posterior_mean_agrees_with_the_em_fit(frame, posterior):
    em = _evaluate(frame, method="profile", rng=SEED)
    assert posterior.groups == em.groups == ("DPR", "FiD")
    for g in posterior.groups:
        res = posterior[g]
        assert (res.reference, res.method, res.result.interval) == ("latent", "bayes", "eti")
        d = res.diagnostics
        assert d.max_rhat <= 1.01 and min(d.min_ess_bulk, d.min_ess_tail) >= 400
        assert (d.chains, d.draws, d.divergences) == (2, 1000, 0)
        draws = np.asarray(res.result.posterior["posterior"]["prevalence"].values)[..., 1]
        sd = float(draws.std())
        assert abs(res.estimate - em[g].estimate) <= 0.25 * sd
        width = (res.ci.high - res.ci.low) / (em[g].ci.high - em[g].ci.low)
        assert 0.8 <= width <= 1.25
        # the same items and ratings as the EM path, the judge's errors from the same model
        assert (res.n, res.n_items, res.n_ratings) == (em[g].n, em[g].n_items, em[g].n_ratings)
        assert abs(res.sensitivity - em[g].sensitivity) <= 0.05
        row = res.to_dict()
        assert row["method"] == "bayes" and row["max_rhat"] == d.max_rhat
        assert "sampler: 2 chains × 1000 draws" in res.summary()


@pytest.mark.slow
def test_cli_correct_prints_the_api_numbers(tmp_path, frame, posterior, capsys):
    """``raters correct --reference latent --method bayes --json`` = evaluate, same seed.

    One system (DPR, the first group, so its seed is the first drawn from ``rng``): one fit.
    """
    path = tmp_path / "ratings.csv"
    frame[frame["model"] == "DPR"].to_csv(path, index=False)
    code = main(["raters", "correct", str(path), "--by", "model", "--reference", "latent",
                 "--design", "random", "--method", "bayes", *_CLI, "--json"])  # fmt: skip
    assert code == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert list(rows) == ["DPR"]
    for g in rows:
        res = posterior[g]
        assert rows[g]["estimate"] == pytest.approx(res.estimate, abs=1e-12)
        assert rows[g]["ci_low"] == pytest.approx(res.ci.low, abs=1e-12)
        assert rows[g]["ci_high"] == pytest.approx(res.ci.high, abs=1e-12)
        assert rows[g]["max_rhat"] == pytest.approx(res.diagnostics.max_rhat, abs=1e-12)
        assert rows[g]["method"] == "bayes" and rows[g]["interval"] == "eti"


@pytest.mark.slow
def test_cli_latent_bayes_is_fit_raters(tmp_path, frame, capsys):
    """``raters latent --method bayes --json``: fit_raters on the ratings, R-hat and ESS."""
    path = tmp_path / "ratings.csv"
    frame.to_csv(path, index=False)
    assert main(["raters", "latent", str(path), "--method", "bayes", *_CLI, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ratings = js.raters.Ratings.from_long(frame[frame["human"].notna()], item="item",
                                          rater="rater", label="human", judge="judge")
    em = js.raters.dawid_skene(ratings, method="sandwich")
    se = (em.ci.high - em.ci.low) / (2 * 1.959964)
    assert abs(out["estimate"] - em.estimate) <= 0.25 * se  # as above: BvM, prior O(1/n)
    assert out["method"] == "bayes-mcmc" and out["raters"][-1] == "judge"
    assert out["interval"] == "eti"
    assert out["diagnostics"]["max_rhat"] <= 1.01 and out["diagnostics"]["chains"] == 2


@pytest.mark.slow
def test_report_renders_the_sampler_line(posterior):
    from judgestats.report.raters import rater_report

    text = rater_report(posterior, "markdown", n_boot=100)
    assert "Bayesian credible intervals (posterior eti" in text
    for g in posterior.groups:
        assert f"- {g}: sampler: {posterior[g].diagnostics.describe()}" in text


# ---------------------------------------------------------------- refusals (no sampling)
@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"random_seed": 1}, ArgumentTypeError, "rng= seeds the sampler"),
        ({"n_resamples": 100}, ArgumentTypeError, "unexpected option(s) ['n_resamples']"),
        ({"draws": 0}, JudgeStatsError, "draws must be >= 1"),
        ({"interval": "hpd"}, MethodError, "interval"),
        ({"pooling": "full"}, MethodError, "pooling"),
        ({"confusion_prior": (2.0, -1.0)}, ValueError, "confusion_prior"),
    ],
)  # fmt: skip
def test_bad_posterior_options_are_refused_by_name(frame, options, error, words):
    with pytest.raises(error) as info:
        _evaluate(frame, method="bayes", **options)
    assert words in str(info.value)


def test_sampler_options_need_method_bayes(frame):
    with pytest.raises(ArgumentTypeError, match=r"method='profile' got unexpected .*'draws'"):
        _evaluate(frame, draws=500)


def test_bayes_under_the_papers_design_is_refused(frame):
    with pytest.raises(MethodError, match="reference='latent'"):
        js.evaluate(frame, rater="rater", cluster="item", by="model", reference="latent",
                    design="by-human-label", method="bayes")  # fmt: skip


def test_bayes_is_in_the_raters_row_not_its_default():
    from judgestats.designs import as_design
    from judgestats.designs.capabilities import capability

    row = capability("raters", "rate", as_design("random"), False)
    assert "bayes" in row.methods and row.default == "profile"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["latent", "--draws", "500"], "--draws applies to --method bayes"),
        (["correct", "--reference", "latent", "--design", "random", "--interval", "hdi"],
         "--interval applies to --method bayes"),
        (["correct", "--reference", "latent", "--design", "random", "--method", "bayes",
          "--draws", "0"], "draws must be >= 1"),
    ],
)  # fmt: skip
def test_cli_bad_sampler_input_one_line_exit_2(tmp_path, frame, capsys, argv, words):
    path = tmp_path / "ratings.csv"
    frame.to_csv(path, index=False)
    assert main(["raters", argv[0], str(path), "--by", "model", *argv[1:]]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
