"""Counts of repeated items (issue 27 §1): each item's totals (ClusterTotals), named errors for bad
ids, and several raters per item (from_ratings).
"""

import numpy as np
import pytest

import judgestats as js


# ----------------------------------------------------------------------------- counts
def test_counts_keep_each_items_totals():
    t = js.JudgedCounts.from_labels([1, 0, 1, 1, 0], cluster=["a", "a", "b", "c", "c"])
    assert (t.positive, t.n) == (3, 5) and t.clustered
    assert list(t.clusters.ids) == ["a", "b", "c"]
    assert t.clusters.totals.tolist() == [[1, 2], [1, 1], [1, 2]]
    assert t.clusters.cross_products.tolist() == [[3.0, 5.0], [5.0, 9.0]]
    c = js.ConfusionCounts.from_labels(human=[1, 0, 1], judge=[1, 1, 0], cluster=[7, 7, 8])
    assert (c.tp, c.fn, c.tn, c.fp) == (1, 1, 0, 1)
    assert c.clusters.totals.tolist() == [[1, 0, 0, 1], [0, 1, 0, 0]]
    assert repr(t) == "JudgedCounts(positive=3, n=5, clusters=3 items)"
    assert t != js.JudgedCounts(3, 5) and js.JudgedCounts(3, 5) == js.JudgedCounts(3, 5)


@pytest.mark.parametrize(
    ("ids", "match"),
    [
        (["a", None, "b"], "missing ids, got None"),
        ([1.0, float("nan"), 2.0], "missing ids"),
        (["a", "b"], "2 ids for 3 rows"),
        ([[1], [2], [3]], "hashable ids, got \\[1\\]"),
    ],
)
def test_bad_item_ids_are_named_errors(ids, match):
    with pytest.raises(js.errors.LabelError, match=match):
        js.JudgedCounts.from_labels([1, 0, 1], cluster=ids)


def test_cluster_totals_must_add_up_to_the_counts():
    from judgestats.counts.clusters import ClusterTotals

    good = ClusterTotals(["a", "b"], [[1, 2], [0, 1]], ("positive", "n"))
    assert js.JudgedCounts(1, 3, clusters=good).clusters.size == 2
    with pytest.raises(js.errors.CountError, match="sum to"):
        js.JudgedCounts(2, 3, clusters=good)
    with pytest.raises(js.errors.CountError, match="batch"):
        js.JudgedCounts(np.array([1, 1]), np.array([3, 3]), clusters=good)
    with pytest.raises(js.errors.CountError, match="must count"):
        js.ConfusionCounts(tp=1, fn=2, tn=0, fp=0, clusters=good)


# ----------------------------------------------------------------------------- raters
def test_several_raters_each_rating_a_row_or_one_majority_label_per_item():
    human = [1, 1, 0, 0, 0, 1, 1, 0, 1, 1]
    judge = [1, 1, 1, 0, 0, 0, 1, 1, 0, 0]
    item = ["a", "a", "a", "b", "b", "b", "c", "c", "d", "d"]
    each = js.ConfusionCounts.from_ratings(human=human, judge=judge, item=item)
    assert each == js.ConfusionCounts.from_labels(human=human, judge=judge, cluster=item)
    major = js.ConfusionCounts.from_ratings(human=human, judge=judge, item=item, rule="majority")
    # a: 2 of 3 say 1, judge 1 (tp); b: 1 of 3, judge 0 (tn); c: 1 of 2, a tie, left out;
    # d: 2 of 2, judge 0 (fn)
    assert (major.tp, major.fn, major.tn, major.fp) == (1, 1, 1, 0) and not major.clustered
    with pytest.raises(js.errors.LabelError, match="item 'a' has both"):
        js.ConfusionCounts.from_ratings(human=human, judge=[0, *judge[1:]], item=item,
                                        rule="majority")  # fmt: skip
    with pytest.raises(js.JudgeStatsError, match="rule"):
        js.ConfusionCounts.from_ratings(human=human, judge=judge, item=item, rule="vote")
