"""The random design's guard rail (judgestats.designs.check): does the calibration set's judge-label
mix look like a random sample of the test set's.
"""

import numpy as np
import pytest

import judgestats as js
from judgestats.designs import design_check
from tests.designs.test_estimator import CAL, TEST


# ----------------------------------------------------------------------------- guard rails
def test_random_design_warns_when_the_calibration_set_is_not_a_random_sample():
    # calibration balanced by human label (the paper's design) on a test set with θ ≈ 0.1:
    # its judge-positive rate (0.53) is far from the test set's (0.17)
    test = js.JudgedCounts(170, 1000)
    cal = js.ConfusionCounts(tp=90, fn=10, tn=85, fp=15)
    check = design_check(test, cal)
    assert check.calibration_rate == pytest.approx(105 / 200)
    assert not check.plausible
    with pytest.warns(js.DesignWarning, match=r"design='random' not credible.*0\.525"):
        res = js.correct(test, cal, design="random")
    assert res.design_check is check or res.design_check.pvalue == pytest.approx(check.pvalue)
    # a random-looking calibration set passes silently (filterwarnings = error)
    assert js.correct(TEST, CAL, design="random").design_check.plausible


def test_k_category_random_design_checks_the_judge_label_mix():
    from judgestats.designs import design_check_categories
    from judgestats.multiclass import CategoryCounts, ConfusionMatrix

    labels = ["win", "tie", "lose"]
    t = CategoryCounts([430, 380, 190], labels=labels)
    # calibration with a judge-label mix like the test set's: silent (filterwarnings = error)
    like = ConfusionMatrix([[40, 6, 2], [8, 30, 5], [2, 4, 13]], labels=labels)
    res = js.correct_distribution(t, like, design="random")
    assert res.design_check.plausible
    # chosen per human label, the judge's mix differs: DesignWarning
    skewed = ConfusionMatrix([[5, 2, 1], [3, 5, 2], [2, 3, 47]], labels=labels)
    check = design_check_categories(t.counts, skewed.counts)
    from scipy.stats import chi2_contingency

    table = np.array([t.counts, skewed.counts.sum(axis=1)])
    g, p, _, _ = chi2_contingency(table, lambda_="log-likelihood", correction=False)
    assert (check.z, check.pvalue) == pytest.approx((g, p), rel=1e-10)  # scipy's G test
    with pytest.warns(js.DesignWarning, match="judge-label mix differs"):
        js.correct_distribution(t, skewed, design="random")
