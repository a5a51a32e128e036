"""Does the judge tell every pair of human categories apart (judgestats.multiclass.separation, issue
15 §3).
"""

import numpy as np
import pytest

from judgestats._validation import (
    ConfusedCategoriesError,
    IllConditionedError,
    ProjectedEstimateWarning,
)
from judgestats.multiclass import (
    MAX_CONDITION,
    CategoryCounts,
    ConfusionMatrix,
    correct_distribution,
)
from tests.multiclass.test_distribution import C3, LABELS


# ----------------------------------------------------------------------------- identifiability
def test_a_judge_that_confuses_two_categories_is_refused_despite_a_small_condition_number():
    """Issue 15 §3: a singular C (columns b and c equal); noise makes κ(Ĉ) < 100 most times."""
    C = np.array([[0.8, 0.1, 0.1], [0.1, 0.45, 0.45], [0.1, 0.45, 0.45]])
    gen = np.random.default_rng(15)
    refused = confused = small_kappa = 0
    for _ in range(200):
        cal = ConfusionMatrix(
            np.array([gen.multinomial(50, C[:, b]) for b in range(3)]).T, labels=LABELS
        )
        small_kappa += cal.condition_number < MAX_CONDITION
        try:
            correct_distribution(CategoryCounts([40, 30, 30], labels=LABELS), cal)
        except ConfusedCategoriesError as exc:
            refused += 1
            confused += 1
            assert "'b' and 'c'" in str(exc) and "separation_level" in str(exc)
        except IllConditionedError:  # κ(Ĉ) > 100: refused by the condition number first
            refused += 1
        except ProjectedEstimateWarning:
            pass
    assert small_kappa > 150  # the condition number alone would let most through
    assert confused > 150
    assert refused >= 180  # the separation test refuses at its level (95% expected)


def test_confused_pairs_is_a_g_test_of_equal_columns():
    from scipy.stats import chi2_contingency

    from judgestats.multiclass import confused_pairs

    counts = np.array([[30, 5, 4], [6, 20, 17], [4, 15, 19]])
    cal = ConfusionMatrix(counts, labels=LABELS)
    # independent: scipy's likelihood-ratio test of the 3 × 2 table of columns 'b' and 'c'
    _, p, dof, _ = chi2_contingency(counts[:, [1, 2]], correction=False,
                                    lambda_="log-likelihood")
    assert dof == 2
    pairs = confused_pairs(cal)
    assert [(a, b) for a, b, _ in pairs] == [("b", "c")]
    assert pairs[0][2] == pytest.approx(p, rel=1e-10)
    assert confused_pairs(cal, level=p * 0.99)  # returned when p >= level
    assert not confused_pairs(cal, level=p * 1.01)
    # a well-separated judge with 50 items per class is never refused
    gen = np.random.default_rng(3)
    for _ in range(100):
        c = np.array([gen.multinomial(50, C3[:, b]) for b in range(3)]).T
        assert not confused_pairs(ConfusionMatrix(c, labels=LABELS))
