"""The ratings container (raters/ratings.py): long and wide frames on every engine, the judge
kept apart, the majority's tie rules, and the named refusals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from judgestats.errors import (
    DuplicateRatingError,
    RatingsError,
    UnknownCategoryError,
    UnratedItemError,
)
from judgestats.raters import Majority, Ratings
from tests.evaluate.test_groups import to_engine

# Three raters and a judge on five items; rater "c" skips items 2 and 4, "b" skips item 5.
WIDE = pd.DataFrame(
    {
        "id": ["q1", "q2", "q3", "q4", "q5"],
        "a": [1, 0, 1, 1, 0],
        "b": [1, 0, 0, 1, None],
        "c": [1, None, 1, None, 1],
        "gpt": [1, 1, 0, 1, 0],
    }
)
CODES = np.array([[1, 1, 1], [0, 0, -1], [1, 0, 1], [1, 1, -1], [0, -1, 1]])


def _long(wide: pd.DataFrame) -> pd.DataFrame:
    long = wide.melt(id_vars="id", var_name="who", value_name="y").dropna()
    return long.astype({"y": int}).sample(frac=1.0, random_state=3)  # any row order


@pytest.mark.parametrize("engine", ["pandas", "pyarrow", "polars", "polars-lazy", "duckdb"])
def test_long_and_wide_agree_on_every_engine(engine):
    pytest.importorskip({"polars-lazy": "polars"}.get(engine, engine))
    wide = Ratings.from_wide(to_engine(WIDE, engine), item="id", judge="gpt")
    long = Ratings.from_long(to_engine(_long(WIDE), engine), item="id", rater="who",
                             label="y", judge="gpt")  # fmt: skip
    assert wide.raters == ("a", "b", "c") and wide.judge == "gpt"
    assert wide.items == ("q1", "q2", "q3", "q4", "q5")
    np.testing.assert_array_equal(wide.matrix, CODES)
    np.testing.assert_array_equal(wide.judge_codes, [1, 1, 0, 1, 0])
    order = [long.items.index(i) for i in wide.items]  # long keeps first-appearance order
    cols = [long.raters.index(r) for r in wide.raters]
    np.testing.assert_array_equal(long.matrix[order][:, cols], CODES)
    np.testing.assert_array_equal(long.judge_codes[order], wide.judge_codes)


def test_judge_as_a_column_of_a_long_frame():
    long = _long(WIDE.drop(columns="gpt")).merge(WIDE[["id", "gpt"]], on="id")
    r = Ratings.from_long(long, item="id", rater="who", label="y", judge="gpt")
    np.testing.assert_array_equal(r.judge_codes[[r.items.index(i) for i in WIDE["id"]]],
                                  [1, 1, 0, 1, 0])  # fmt: skip


def test_counts_and_the_judge_in_or_out():
    r = Ratings.from_wide(WIDE, item="id", judge="gpt")
    np.testing.assert_array_equal(r.counts(), [[0, 3], [2, 0], [1, 2], [0, 2], [1, 1]])
    np.testing.assert_array_equal(r.counts(include_judge=True)[1], [2, 1])
    as_rater = r.with_judge(None)
    assert as_rater.judge is None and as_rater.raters == ("a", "b", "c", "gpt")
    swapped = r.with_judge("a")
    assert swapped.judge == "a" and swapped.raters == ("b", "c", "gpt")
    np.testing.assert_array_equal(swapped.judge_codes, [1, 0, 1, 1, 0])


def test_majority_tie_rules():
    r = Ratings.from_wide(WIDE, item="id", judge="gpt")
    none = r.majority()
    assert isinstance(none, Majority)
    assert none.labels == [1, 0, 1, 1, None]  # item 5: a says 0, c says 1
    np.testing.assert_array_equal(none.tied, [False, False, False, False, True])
    assert r.majority("c").labels == [1, 0, 1, 1, 1]  # the adjudicator settles the tie
    # with the judge's vote: item 3 becomes a 2-2 tie, item 5 a 2-1 majority for 0
    assert r.majority("none", include_judge=True).labels == [1, 0, None, 1, 0]
    draws = [r.majority("random", rng=s).labels[4] for s in range(200)]
    assert 0.35 < np.mean(draws) < 0.65  # a fair coin between the tied 0 and 1
    assert r.majority("random", rng=7).labels == r.majority("random", rng=7).labels


def test_from_matrix_ordinal_and_declared_categories():
    r = Ratings.from_matrix([["lo", "hi"], ["mid", None]], categories=["lo", "mid", "hi"],
                            ordinal=True, judge=["lo", "mid"])  # fmt: skip
    np.testing.assert_array_equal(r.matrix, [[0, 2], [1, -1]])
    assert r.ordinal and r.categories == ("lo", "mid", "hi") and r.judge == "judge"
    np.testing.assert_array_equal(r.counts()[0], [1, 0, 1])


def test_select_drops_items_left_unrated():
    r = Ratings.from_wide(WIDE, item="id", judge="gpt").select([0, 2])
    assert r.items == ("q1", "q3") and r.judge == "gpt"
    np.testing.assert_array_equal(r.matrix, CODES[[0, 2]])


def test_identical_repeats_count_once_different_ones_are_refused():
    long = pd.DataFrame({"item": [1, 1, 2], "rater": ["x", "x", "x"], "label": [0, 0, 1]})
    assert Ratings.from_long(long).matrix.tolist() == [[0], [1]]
    long.loc[1, "label"] = 1
    with pytest.raises(DuplicateRatingError, match=r"item 1 is rated twice by rater 'x'.*0.*1"):
        Ratings.from_long(long)


def test_named_refusals():
    with pytest.raises(UnratedItemError, match=r"1 item\(s\) have no rating.*'q2'"):
        Ratings.from_wide(WIDE.assign(a=[1, None, 1, 1, 0], b=[1, None, 0, 1, 1]).drop(
            columns=["c", "gpt"]), item="id")  # fmt: skip
    with pytest.raises(UnknownCategoryError, match=r"'maybe'.*declared categories \['no', 'yes'\]"):
        Ratings.from_matrix([["yes", "maybe"]], categories=["no", "yes"])
    with pytest.raises(RatingsError, match="empty"):
        Ratings.from_long(pd.DataFrame({"item": [], "rater": [], "label": []}))
    with pytest.raises(RatingsError, match="ordinal=True with text labels"):
        Ratings.from_matrix([["lo", "hi"]], ordinal=True)
    with pytest.raises(RatingsError, match="judge='z' is not one of the raters"):
        Ratings.from_wide(WIDE, item="id").with_judge("z")
    with pytest.raises(RatingsError, match="ties must be one of"):
        Ratings.from_wide(WIDE, item="id").majority("nobody")
    with pytest.raises(RatingsError, match=r"judge_name='a' is also a rater's name"):
        Ratings.from_matrix([[1, 0]], raters=["a", "b"], judge=[1], judge_name="a")
    with pytest.raises(RatingsError, match=r"labels must be 2-D"):
        Ratings.from_matrix([1, 0])


def test_missing_column_is_named():
    from judgestats.errors import ColumnError

    with pytest.raises(ColumnError, match="rater"):
        Ratings.from_long(pd.DataFrame({"item": [1], "label": [1]}))
