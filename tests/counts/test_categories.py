"""CategoryCounts and ConfusionMatrix (k categories): constructors, labels and bad counts (issue #5).
"""

import numpy as np
import pandas as pd
import pytest

from judgestats._validation import ArgumentTypeError, CountError, LabelError
from judgestats.multiclass import CategoryCounts, ConfusionMatrix
from tests.multiclass.test_distribution import LABELS, TEST


@pytest.mark.parametrize(
    "make",
    [
        lambda: CategoryCounts([5]),
        lambda: ConfusionMatrix([[5]]),
        lambda: CategoryCounts.from_labels(["x", "x", "x"]),
    ],
)
def test_fewer_than_two_categories(make):
    with pytest.raises(CountError, match=r"k >= 2"):
        make()


@pytest.mark.parametrize(
    ("counts", "match"),
    [
        ([[1, 2, 3], [4, 5, 6]], "square"),
        ([1, 2, 3], "square"),
        ([[1, -2], [3, 4]], "non-negative"),
        ([[1, 2.5], [3, 4]], "whole number"),
        ([[1, float("nan")], [3, 4]], "finite"),
    ],
)
def test_bad_confusion_counts(counts, match):
    with pytest.raises(CountError, match=match):
        ConfusionMatrix(counts)


@pytest.mark.parametrize(
    ("counts", "exc", "match"),
    [
        ([3, -1, 2], CountError, "non-negative"),
        ([[1, 2], [3, 4]], CountError, "1-D"),
        ([0, 0, 0], CountError, ">= 1"),
        ("abc", ArgumentTypeError, "counts"),
    ],
)
def test_bad_category_counts(counts, exc, match):
    with pytest.raises(exc, match=match):
        CategoryCounts(counts)


def test_labels_outside_the_declared_set():
    with pytest.raises(LabelError, match=r"contains 'maybe' at index 2.*declared labels"):
        CategoryCounts.from_labels(["win", "lose", "maybe"], labels=["win", "tie", "lose"])
    with pytest.raises(LabelError, match="human labels contains 'd'"):
        ConfusionMatrix.from_labels(human=["a", "d"], judge=["a", "b"], labels=LABELS)
    with pytest.raises(LabelError, match=r"labels contains 'z'"):
        TEST.reorder(["a", "b", "z"])


@pytest.mark.parametrize(
    ("labels", "exc", "match"),
    [
        (["a", "b"], LabelError, "k = 3"),
        (["a", "a", "b"], LabelError, "distinct"),
        ("abc", ArgumentTypeError, "sequence"),
    ],
)
def test_bad_declared_labels(labels, exc, match):
    with pytest.raises(exc, match=match):
        CategoryCounts([1, 2, 3], labels=labels)


@pytest.mark.parametrize(
    ("values", "match"),
    [
        (["a", None, "b"], "missing value"),
        ([1.0, float("nan")], "missing value"),
        ([], "empty"),
        ([["a"], ["b"]], "not a finite scalar"),
        (np.array([["a"], ["b"]]), "1-D"),
    ],
)
def test_bad_observed_labels(values, match):
    with pytest.raises(LabelError, match=match):
        CategoryCounts.from_labels(values)


def test_paired_labels_must_have_equal_length():
    with pytest.raises(LabelError, match="pair up"):
        ConfusionMatrix.from_labels(human=["a", "b", "c"], judge=["a", "b"])


# ----------------------------------------------------------------------------- constructors
def test_from_labels_and_from_frame_count_correctly():
    human = ["win", "tie", "lose", "win", "win", "lose", "tie"]
    judge = ["win", "win", "lose", "tie", "win", "lose", "lose"]
    cal = ConfusionMatrix.from_labels(human=human, judge=judge, labels=["win", "tie", "lose"])
    expected = np.zeros((3, 3), int)
    for h, j in zip(human, judge, strict=True):
        expected[["win", "tie", "lose"].index(j), ["win", "tie", "lose"].index(h)] += 1
    assert cal.counts.tolist() == expected.tolist()
    assert cal.human_counts.tolist() == [3, 2, 2] and cal.m == 7
    inferred = ConfusionMatrix.from_labels(human=human, judge=judge)
    assert inferred.labels == ("lose", "tie", "win")  # sorted when not declared
    assert inferred == cal.reorder(["lose", "tie", "win"])
    frame = pd.DataFrame({"h": human, "j": judge})
    assert (
        ConfusionMatrix.from_frame(frame, human="h", judge="j", labels=["win", "tie", "lose"])
        == cal
    )
    test = CategoryCounts.from_frame(frame, judge="j", labels=["win", "tie", "lose"])
    assert test.counts.tolist() == [3, 1, 3] and test.n == 7
    assert CategoryCounts.from_labels(pd.Series(judge)) == test.reorder(["lose", "tie", "win"])
    with pytest.raises(LabelError, match="column 'x'"):
        CategoryCounts.from_frame(frame, judge="x")


def test_integer_review_scores_and_hashing():
    test = CategoryCounts.from_labels(np.array([1, 2, 2, 3, 3, 3]), labels=[1, 2, 3])
    assert test.counts.tolist() == [1, 2, 3]
    assert hash(test) == hash(CategoryCounts([1, 2, 3], labels=[1, 2, 3]))
    with pytest.raises(ValueError, match="read-only"):
        test.counts[0] = 5


def test_from_sklearn_transposes_and_the_repr_says_the_orientation():
    human = ["a", "a", "b", "b", "b", "c", "c", "a", "c", "b"]
    judge = ["a", "b", "b", "b", "c", "c", "c", "a", "a", "b"]
    labels = ["a", "b", "c"]
    # scikit-learn's confusion_matrix(y_true, y_pred, labels=...): rows = true class, written
    # out here with collections.Counter so the test needs no scikit-learn
    from collections import Counter

    pairs = Counter(zip(human, judge, strict=True))
    sk = [[pairs[(t, p)] for p in labels] for t in labels]
    cm = ConfusionMatrix.from_sklearn(sk, labels=labels)
    assert cm == ConfusionMatrix.from_labels(human=human, judge=judge, labels=labels)
    assert "rows = judge label, columns = human label" in repr(cm)


def test_category_series_with_different_indexes_are_refused():
    """Tour finding 4, k categories: Series are paired by position only when their indexes
    agree; human a, b, c on index 0-2 against judge a, b, c on index 2, 0, 1 is refused."""
    human = pd.Series(["a", "b", "c"])
    judge = pd.Series(["a", "b", "c"], index=[2, 0, 1])
    with pytest.raises(LabelError, match=r"^human and judge are pandas Series with "
                                                   r"different indexes \(human: \[0, 1, 2\]; "
                                                   r"judge: \[2, 0, 1\]\)"):  # fmt: skip
        ConfusionMatrix.from_labels(human=human, judge=judge)
    # aligned: judge.loc[human.index] is c, a, b against a, b, c: no diagonal cell
    cm = ConfusionMatrix.from_labels(human=human, judge=judge.loc[human.index])
    assert int(np.trace(np.asarray(cm.counts))) == 0
    with pytest.raises(LabelError, match=r"^judge and cluster are pandas Series"):
        CategoryCounts.from_labels(judge, cluster=pd.Series([1, 1, 2]))
