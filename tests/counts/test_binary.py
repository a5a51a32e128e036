import numpy as np
import pandas as pd
import pytest

import judgestats as js


def test_from_labels_counts_and_rates():
    human = [1, 1, 1, 0, 0, 1, 0, 0, 0, 1]
    judge = [1, 0, 1, 0, 1, 1, 0, 0, 1, 1]
    cal = js.ConfusionCounts.from_labels(human=human, judge=judge)
    assert (cal.tp, cal.fn, cal.tn, cal.fp) == (4, 1, 3, 2)
    assert (cal.m0, cal.m1, cal.m) == (5, 5, 10)
    assert cal.sensitivity == 0.8 and cal.specificity == 0.6
    assert cal.human_positive_rate == 0.5 and cal.judge_positive_rate == 0.6
    test = js.JudgedCounts.from_labels(np.array(judge, dtype=bool))
    assert (test.positive, test.n, test.p_hat) == (6, 10, 0.6)


def test_from_labels_accepts_bool_int_and_float_zero_one():
    for labels in (
        [True, False, True],
        np.array([1, 0, 1], dtype=np.int8),
        np.array([1.0, 0.0, 1.0]),
        pd.Series([1, 0, 1]),
        pd.Series([True, False, True], dtype="boolean"),
    ):
        assert js.JudgedCounts.from_labels(labels) == js.JudgedCounts(positive=2, n=3)


def test_from_frame_default_and_custom_columns():
    df = pd.DataFrame({"human": [1, 0, 1, 0], "judge": [1, 1, 0, 0], "j2": [0, 0, 0, 1]})
    cal = js.ConfusionCounts.from_frame(df)
    assert cal == js.ConfusionCounts(tp=1, fn=1, tn=1, fp=1)
    assert js.JudgedCounts.from_frame(df, judge="j2") == js.JudgedCounts(positive=1, n=4)


def test_equality_hash_and_batches():
    a = js.JudgedCounts(positive=3, n=10)
    assert a == js.JudgedCounts(positive=3.0, n=10) and hash(a) == hash(js.JudgedCounts(3, 10))
    assert a != js.JudgedCounts(positive=4, n=10)
    batch = js.JudgedCounts(positive=np.array([1, 2, 3]), n=10)
    assert batch.shape == (3,)
    np.testing.assert_allclose(batch.p_hat, [0.1, 0.2, 0.3])
    with pytest.raises(TypeError):
        hash(batch)
    cal = js.ConfusionCounts(tp=np.array([[1], [2]]), fn=1, tn=np.array([3, 4, 5]), fp=1)
    assert cal.shape == (2, 3)
