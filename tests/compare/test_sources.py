"""θ_A − θ_B of score, jury and letter results (issue 39): independent arms, a shared jury.

The paired arms (compare/paired.py) are tested in tests/compare/test_paired.py."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

import judgestats as js
from judgestats.errors import ArgumentTypeError, JudgeStatsError

Z95 = norm.ppf(0.975)


def _jury():
    letters = ["0|0", "0|1", "1|0", "1|1"]
    test = js.CategoryCounts([380, 70, 90, 460], labels=letters)
    cal = js.ConfusionMatrix([[70, 4], [12, 6], [10, 8], [8, 82]], labels=[0, 1],
                             judge_labels=letters)  # fmt: skip
    return js.jury.correct_jury(test, cal, confidence_level=0.95)


def test_independent_arms_add_their_variances():
    """Δ = θ̂_A − θ̂_B; Var = each arm's own (a score's PPI++ variance; a correction's
    θ̂(1 − θ̂)/effective_labels; a jury's from its interval's width, ((high − low)/(2z))²)."""
    gen = np.random.default_rng(0)
    y = gen.random(2000) < 0.6
    s = np.where(y, 0.7, 0.3) + gen.normal(0, 0.2, 2000)
    score = js.scores.correct_scores(s, np.where(np.arange(2000) < 400, y, np.nan), rng=1)
    jury = _jury()
    letter = js.correct(js.JudgedCounts(positive=480, n=1000),
                        js.ConfusionCounts(tp=85, fn=15, tn=80, fp=20))  # fmt: skip
    for a, b in ((score, jury), (jury, letter), (score, letter)):
        d = js.compare.difference_of(a, b, names=("a", "b"))
        var = [x.variance if hasattr(x, "variance")
               else x.estimate * (1 - x.estimate) / x.effective_labels
               if isinstance(getattr(x, "effective_labels", None), float)
               else ((x.ci.high - x.ci.low) / (2 * Z95)) ** 2 for x in (a, b)]  # fmt: skip
        assert d.estimate == pytest.approx(a.estimate - b.estimate, abs=1e-12)
        assert d.standard_error == pytest.approx(np.sqrt(sum(var)), rel=1e-9)
        assert d.ci.low == pytest.approx(d.estimate - Z95 * d.standard_error, abs=1e-9)
        assert d.pvalue == pytest.approx(2 * norm.sf(abs(d.estimate) / d.standard_error))
        assert d.covariance == 0.0 and d.pairing.startswith("independent")
    assert d.sources == ("ScoreCorrection", "Correction")
    assert "independent arms" in d.summary() and d.to_dataframe().shape == (1, 15)


def test_independent_arms_named_errors():
    jury = _jury()
    other = js.jury.correct_jury(js.CategoryCounts([380, 70, 90, 460], labels=jury.calibration
                                                   .judge_labels), jury.calibration,
                                 confidence_level=0.9)  # fmt: skip
    with pytest.raises(JudgeStatsError, match=r"different confidence levels \(0.95 and 0.9\)"):
        js.compare.difference_of(jury, other)
    with pytest.raises(ArgumentTypeError, match=r"result_b must be a result .* got float"):
        js.compare.difference_of(jury, 0.4)
    with pytest.raises(ArgumentTypeError, match="names must be a tuple of two strings"):
        js.compare.difference_of(jury, jury, names=["a", "b"])


def test_rank_of_mixed_results_by_independent_normal_draws():
    """P(θ_a > θ_b) = Φ((θ̂_a − θ̂_b)/√(Var_a + Var_b)) for independent normal arms, computed
    here; 20,000 draws (Monte Carlo s.e. <= 0.0036)."""
    gen = np.random.default_rng(2)
    y = gen.random(2000) < 0.55
    s = np.where(y, 0.7, 0.3) + gen.normal(0, 0.2, 2000)
    results = {
        "score": js.scores.correct_scores(s, np.where(np.arange(2000) < 400, y, np.nan), rng=1),
        "jury": _jury(),
        "letter": js.correct(js.JudgedCounts(positive=480, n=1000),
                             js.ConfusionCounts(tp=85, fn=15, tn=80, fp=20)),
    }  # fmt: skip
    ranking = js.compare.rank_of(results, draws=20_000, rng=3)
    diff = js.compare.difference_of(results["score"], results["jury"])
    want = norm.cdf(diff.estimate / diff.standard_error)
    assert ranking.prob_greater("score", "jury") == pytest.approx(want, abs=0.011)
    assert ranking.order[0] == max(results, key=lambda k: results[k].estimate)
    assert np.allclose(ranking.rank_probabilities.sum(axis=1), 1.0)
    assert ranking.method == "normal draws (independent arms)" and ranking.design == "mixed designs"
    assert ranking.ci["jury"] == results["jury"].ci
    with pytest.raises(ArgumentTypeError, match="a mapping of two or more names to results"):
        js.compare.rank_of({"only": results["jury"]})


def _jury_counts(gen, theta, n, m0, m1, judges=((0.85, 0.8), (0.75, 0.9))):
    """Letter counts of two independent 0/1 judges: a test of n items at rate θ, and a
    calibration of m0 + m1 items by human class (the paper's design)."""
    letters = ["0|0", "0|1", "1|0", "1|1"]

    def probs(y):  # P(letter | human y): the judges independent given y
        say = [q1 if y else 1 - q0 for q0, q1 in judges]
        return np.array([(1 - say[0]) * (1 - say[1]), (1 - say[0]) * say[1],
                         say[0] * (1 - say[1]), say[0] * say[1]])  # fmt: skip

    test = gen.multinomial(n, theta * probs(1) + (1 - theta) * probs(0))
    if m0 + m1 == 0:
        return js.CategoryCounts(test, labels=letters), None
    cal = np.stack([gen.multinomial(m0, probs(0)), gen.multinomial(m1, probs(1))], axis=1)
    return (js.CategoryCounts(test, labels=letters),
            js.ConfusionMatrix(cal, labels=[0, 1], judge_labels=letters))


def test_shared_jury_difference_covers_and_is_narrower():
    """300 data sets (θ_A = 0.45, θ_B = 0.35, two judges (0.85, 0.8) and (0.75, 0.9), 2,000 test
    items each, one calibration of 100 + 100; seed 31): the 95% interval covers θ_A − θ_B at
    >= 0.92 (s.e. 0.013) and is narrower than the independent arms' in every data set (the
    shared q̃'s move both rates the same way)."""
    gen = np.random.default_rng(31)
    covered = narrower = 0
    for _ in range(300):
        test_a, cal = _jury_counts(gen, 0.45, 2000, 100, 100)
        test_b, _ = _jury_counts(gen, 0.35, 2000, 0, 0)
        d = js.compare.shared_jury_difference(test_a, test_b, cal)
        covered += d.ci.low <= 0.1 <= d.ci.high
        narrower += d.standard_error < np.sqrt(d.variance_a + d.variance_b)
    assert covered / 300 >= 0.92 and narrower == 300
    assert d.sources == ("JuryCorrection", "JuryCorrection")


def test_shared_jury_difference_fallback_and_errors():
    gen = np.random.default_rng(1)
    test_a, cal = _jury_counts(gen, 0.45, 2000, 30, 30)  # under 50 per class: the fallback
    test_b, _ = _jury_counts(gen, 0.35, 2000, 0, 0)
    d = js.compare.shared_jury_difference(test_a, test_b, cal)
    assert d.covariance == 0.0 and "fallback" in d.pairing
    a = js.jury.correct_jury(test_a, cal)
    assert d.variance_a == pytest.approx(((a.ci.high - a.ci.low) / (2 * Z95)) ** 2)
    clustered = js.CategoryCounts.from_labels(["1|1", "0|1", "1|1"], cluster=[1, 1, 2])
    with pytest.raises(js.errors.ClusteredCountsError, match="models independent rows"):
        js.compare.shared_jury_difference(clustered, test_b, cal)
