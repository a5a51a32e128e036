"""The cross-fitted stacking prediction of the human verdict (pairwise.predictor)."""

from __future__ import annotations

import numpy as np

from judgestats.pairwise.counting import PAIR_COLUMNS
from judgestats.pairwise.predictor import cross_fitted_prediction, features
from judgestats.pairwise.rows import read_rows, row_request
from tests.pairwise._style_data import style_pairs


def _rows(frame):
    req = row_request(["judge", "j2", "p_a"], ["noise"], None, lambda c: c == "p_a")
    return read_rows(frame, dict(PAIR_COLUMNS), req, None)


def test_a_labelled_rows_prediction_never_sees_its_own_human_verdict():
    frame, _ = style_pairs(np.random.default_rng(4), n=800)
    rows = _rows(frame)
    first = np.flatnonzero(rows.labelled)[0]
    changed = frame.copy()
    verdicts = np.array(["a", "tie", "b"])
    changed.loc[first, "human"] = verdicts[(rows.human[first] + 1) % 3]
    f1, folds = cross_fitted_prediction(rows, False, np.random.default_rng(0))
    f2, _ = cross_fitted_prediction(_rows(changed), False, np.random.default_rng(0))
    assert folds == 5
    np.testing.assert_allclose(f2[first], f1[first], atol=1e-12)  # out of fold
    assert np.abs(f2 - f1).max() > 1e-6  # the other folds' fits did see it
    np.testing.assert_allclose(f1.sum(axis=1), 1.0)


def test_a_jury_predicts_the_human_verdict_better_than_the_base_rate():
    frame, _ = style_pairs(np.random.default_rng(8), n=3000, rate=0.3)
    rows = _rows(frame)
    f, _ = cross_fitted_prediction(rows, False, np.random.default_rng(0))
    lab = rows.labelled
    loss = -np.log(f[lab, rows.human[lab]]).mean()
    base = np.bincount(rows.human[lab], minlength=3) / lab.sum()
    assert loss < -np.log(base[rows.human[lab]]).mean() - 0.2  # out-of-fold log loss
    assert features(rows, False).shape[1] == 1 + 2 + 2 + 1  # noise, two members, p_a (no tie)
