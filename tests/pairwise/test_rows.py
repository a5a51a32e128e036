"""Reading a pairwise frame row by row: jury, probabilities, covariates, controls (pairwise.rows)."""

from __future__ import annotations

import numpy as np
import pytest

import judgestats as js
from judgestats.pairwise.counting import PAIR_COLUMNS
from judgestats.pairwise.rows import read_rows, row_request
from tests.pairwise._style_data import style_pairs

FRAME, _ = style_pairs(np.random.default_rng(11), n=400)


def test_shares_are_read_in_the_order_shown_and_a_missing_share_is_the_rest():
    frame = FRAME.head(3).assign(pa=[0.5, 0.2, 0.1], pt=[0.3, 0.3, 0.0], position=["a", "b", "a"])
    req = row_request({"a": "pa", "tie": "pt"}, None, "len_diff", lambda c: True)
    rows = read_rows(frame, {**PAIR_COLUMNS, "position": "position"}, req, None)
    # row 2 was shown b first: P(first) = P(b) = 1 - 0.2 - 0.3, and the control is negated
    np.testing.assert_allclose(rows.distributions[0], [[0.5, 0.3, 0.2], [0.5, 0.3, 0.2],
                                                       [0.1, 0.0, 0.9]])  # fmt: skip
    sign = np.array([1.0, -1.0, 1.0])
    np.testing.assert_allclose(rows.controls[:, 0], sign * frame["len_diff"].to_numpy())


def test_a_text_covariate_becomes_indicators_and_a_text_prediction_a_jury_member():
    req = row_request(["j2", "p_a"], ["cat", "noise"], None, lambda c: c == "p_a")
    assert req.members == ("j2",) and req.probabilities == ((("a", "p_a"),),)
    rows = read_rows(FRAME, {**PAIR_COLUMNS}, req, None)
    assert rows.covariates.shape == (400, 3)  # 3 categories -> 2 indicators, + noise
    assert set(np.unique(rows.members)) <= {0, 1, 2}


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"control": "nope"}, js.errors.ColumnError, "nope"),
        ({"covariates": "len_diff", "control": "len_diff"}, js.errors.ColumnError, "both"),
        ({"control": "cat"}, js.errors.ArgumentTypeError, "control column 'cat'"),
        ({"prediction": ["j2", "j2"]}, js.errors.ColumnError, "more than once"),
        ({"prediction": {"tie": "p_a"}}, js.errors.ArgumentTypeError, "P\\(a\\)"),
        ({"prediction": 3}, js.errors.ArgumentTypeError, "prediction"),
        ({"prediction": "judge-leter"}, js.errors.ColumnError, "neither one of"),
        ({"prediction": "bad_p"}, js.errors.ProbabilityError, "'bad_p' must be in \\[0, 1\\]; got"),
        ({"prediction": "bad_j"}, js.errors.VerdictError, "'maybe'"),
        ({"prediction": "confusion", "covariates": "noise"}, js.errors.MethodError, "confusion"),
        ({"control": "len_diff", "method": "joint-mle"}, js.errors.MethodError, "joint-mle"),
        ({"covariates": "noise", "bootstrap": 20}, js.errors.MethodError, "bootstrap"),
        ({"control": "gap"}, js.errors.ProbabilityError, "missing"),
    ],
)
def test_bad_row_inputs_get_a_named_error(kwargs, error, match):
    frame = FRAME.assign(bad_p=FRAME["p_a"] + 1.0, bad_j="maybe", gap=np.nan)
    with pytest.raises(error, match=match):
        js.pairwise(frame, rng=0, **kwargs)
