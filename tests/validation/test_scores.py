"""The checks of a judge score's inputs (src/judgestats/_validation/scores.py)."""

from __future__ import annotations

import numpy as np
import pytest

from judgestats.errors import ArgumentTypeError, LabelError


def test_the_checks_return_what_the_score_path_computes_on():
    from judgestats._validation.scores import check_folds, check_human, check_items, check_scores

    np.testing.assert_array_equal(check_scores([0.2, 1, 3.5]), [0.2, 1.0, 3.5])
    y, labelled = check_human([1, None, 0.0, np.nan, True], 5)
    np.testing.assert_array_equal(y, [1.0, 0.0, 1.0])
    np.testing.assert_array_equal(labelled, [True, False, True, False, True])
    np.testing.assert_array_equal(check_items(["b", "a", "b", 10], 4), [2, 1, 2, 0])  # "10" < "a"
    assert check_items(None, 3) is None
    assert check_folds(np.int64(3)) == 3


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda c: c.check_scores([0.1, np.inf]), LabelError, "index 1"),
        (lambda c: c.check_scores([[0.1]]), ArgumentTypeError, "1-D"),
        (lambda c: c.check_scores(["x"]), ArgumentTypeError, "numbers"),
        (lambda c: c.check_human([1, 2], 2), LabelError, r"2\.0\)? at index 1"),
        (lambda c: c.check_human([1, "yes"], 2), LabelError, "'yes'"),
        (lambda c: c.check_human([1], 2), ArgumentTypeError, r"one entry per score \(2\)"),
        (lambda c: c.check_items(["a", None], 2), LabelError, "missing item ids"),
        (lambda c: c.check_folds(True), ArgumentTypeError, "True"),
        (lambda c: c.check_folds(1), ArgumentTypeError, ">= 2"),
    ],
)
def test_bad_input_is_refused_by_name(call, error, match):
    from judgestats._validation import scores as checks

    with pytest.raises(error, match=match):
        call(checks)


def test_the_old_private_names_are_the_same_checks():
    """compare/, jury/ and bayes/ import them from scores.correction: one home, two names."""
    from judgestats._validation import scores as checks
    from judgestats.scores import correction

    assert correction._scores is checks.check_scores
    assert correction._human is checks.check_human
    assert correction._items is checks.check_items
    assert correction._check_folds is checks.check_folds
