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


def test_series_with_different_indexes_are_refused_not_paired_by_position():
    """Tour finding 4: human [1, 1, 0, 0] on index 0-3 and judge [1, 1, 0, 0] on index
    [2, 3, 0, 1] were paired by position (tp=2, tn=2); by index the judge is always wrong."""
    import pandas as pd

    human = pd.Series([1, 1, 0, 0], index=[0, 1, 2, 3])
    judge = pd.Series([1, 1, 0, 0], index=[2, 3, 0, 1])
    with pytest.raises(js.errors.LabelError) as info:
        js.ConfusionCounts.from_labels(human=human, judge=judge)
    assert str(info.value) == (
        "human and judge are pandas Series with different indexes (human: [0, 1, 2, 3]; judge: "
        "[2, 3, 0, 1]): their rows would be paired by position, not by index; align them first "
        "(judge.loc[human.index], or .reset_index(drop=True) on both when position is meant)")
    # aligned by .loc: each human 1 has the judge's 0 (index 0, 1) and each 0 a 1: fn=2, fp=2
    counts = js.ConfusionCounts.from_labels(human=human, judge=judge.loc[human.index])
    assert (counts.tp, counts.fn, counts.tn, counts.fp) == (0, 2, 0, 2)
    # equal indexes and a Series beside an array pair as they are
    same = js.ConfusionCounts.from_labels(human=human, judge=human.copy())
    assert (same.tp, same.tn) == (2, 2)
    assert js.ConfusionCounts.from_labels(human=human, judge=[1, 0, 1, 0]).tp == 1
    with pytest.raises(js.errors.LabelError, match=r"^human and item are pandas Series"):
        js.ConfusionCounts.from_ratings(human=human, judge=human, item=judge, rule="majority")
    # the same index in another order, with many rows: five shown and the count
    long = pd.Series([1, 0] * 4)
    backwards = pd.Series(list("aabbccdd"), index=range(7, -1, -1))
    with pytest.raises(js.errors.LabelError, match=r"cluster: \[7, 6, 5, 4, 3, \.\.\. \(8 in "
                                                   r"all\)\]"):  # fmt: skip
        js.JudgedCounts.from_labels(long, cluster=backwards)
    clustered = js.JudgedCounts.from_labels(long, cluster=pd.Series(list("aabbccdd")))
    assert (clustered.positive, clustered.n) == (4, 8)
