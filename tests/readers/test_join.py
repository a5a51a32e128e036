"""readers.join: human labels joined to judged rows, every label counted (issue 38 §2)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import judgestats as js
from judgestats.readers import join_labels

LM_EVAL = Path(__file__).parents[1] / "data" / "readers" / "lm_eval"


def _items() -> pd.DataFrame:
    """Two models x 6 items x 2 epochs, the readers' key columns (items as text)."""
    rows = [{"model": m, "task": "t", "item": str(i), "epoch": e, "scorer": "s", "judge": i % 2}
            for m in ("a", "b") for i in range(6) for e in (1, 2)]  # fmt: skip
    return pd.DataFrame(rows)


def test_the_join_counts_every_label_and_keeps_every_judged_row():
    labels = pd.DataFrame({"model": ["a", "a", "b"], "item": [0, 3, 5], "human": [1, 0, 1]})
    joined = join_labels(_items(), labels)
    assert (joined.read, joined.matched, joined.unmatched) == (3, 3, ())
    assert joined.keys == ("model", "item")
    # an item's two epochs share its label: 3 labels, 6 labelled rows, 24 judged rows in all
    assert (joined.labelled_rows, joined.judged_rows) == (6, 24)
    frame = joined.frame
    assert len(frame) == 24 and list(frame["item"]) == list(_items()["item"])  # order kept
    got = frame.dropna(subset=["human"]).groupby(["model", "item"])["human"].first().to_dict()
    assert got == {("a", "0"): 1, ("a", "3"): 0, ("b", "5"): 1}
    assert joined.summary() == ("3 labels read, 3 matched; 6 of 24 judged rows labelled "
                                "(joined on model, item)")  # fmt: skip


def test_unmatched_labels_are_an_error_or_counted_when_allowed():
    labels = pd.DataFrame({"model": ["a"] * 8, "item": [str(i) for i in range(8)],
                           "human": [1] * 8})  # fmt: skip
    with pytest.raises(js.errors.LabelError, match=r"^8 labels read, 6 matched, 2 match no judged "
                                                   r"row \(model, item: a/6, a/7\)"):
        join_labels(_items(), labels)
    joined = join_labels(_items(), labels, unmatched="drop")
    assert (joined.read, joined.matched, joined.unmatched) == (8, 6, ("a/6", "a/7"))
    assert joined.summary().startswith("8 labels read, 6 matched, 2 unmatched (first: a/6, a/7; "
                                       "left out)")
    many = pd.DataFrame({"model": "a", "item": [str(100 + i) for i in range(9)], "human": 0})
    with pytest.raises(js.errors.LabelError, match=r"a/104, \.\.\. \(9 in all\)\)"):
        join_labels(_items(), many)


def test_numbers_match_across_types_and_near_misses_are_named():
    # 3 (int), 3.0 (float) and "3" are one item; "003" and "A" are near misses, named
    for item in (3, 3.0, "3"):
        joined = join_labels(_items(), pd.DataFrame({"model": ["a"], "item": [item],
                                                     "human": [1]}))  # fmt: skip
        assert joined.matched == 1 and joined.labelled_rows == 2
    with pytest.raises(js.errors.LabelError) as caught:
        join_labels(_items(), pd.DataFrame({"model": ["A", "a"], "item": ["1", "003"],
                                            "human": [1, 0]}))  # fmt: skip
    text = str(caught.value)
    assert "model 'A' is 'a' in the judged rows (they differ in case)" in text
    assert "item '003' is '3' in the judged rows (the same number written another way" in text


def test_two_labels_of_one_key_and_missing_columns_are_refused():
    twice = pd.DataFrame({"model": ["a", "a"], "item": ["1", "1"], "human": [1, 0]})
    with pytest.raises(js.errors.LabelError, match=r"label some \(model, item\) twice: a/1"):
        join_labels(_items(), twice)
    assert len(join_labels(_items(), twice, duplicates="keep").frame) == 26  # a/1's 2 rows twice
    with pytest.raises(js.errors.ColumnError, match=r"no human-label column 'human'.*"
                                                    r"name it with human='label'"):
        join_labels(_items(), twice.rename(columns={"human": "label"}))
    with pytest.raises(js.errors.ColumnError, match=r"need an item \(or sample_id\) column"):
        join_labels(_items(), twice.drop(columns="item"))
    blank = pd.DataFrame({"model": ["a", None], "item": ["1", "2"], "human": [1, 0]})
    with pytest.raises(js.errors.LabelError, match=r"the labels have no 'model' on 1 row"):
        join_labels(_items(), blank)


def test_polars_frames_join_as_pandas_and_other_types_are_refused():
    pl = pytest.importorskip("polars")
    labels = pd.DataFrame({"model": ["a", "b"], "item": ["0", "5"], "human": [1, 0]})
    want = join_labels(_items(), labels)
    got = join_labels(pl.from_pandas(_items()), pl.from_pandas(labels))
    assert (got.read, got.matched, got.labelled_rows) == (want.read, want.matched, 4)
    pd.testing.assert_frame_equal(got.frame, want.frame, check_dtype=False)
    with pytest.raises(js.errors.ArgumentTypeError, match=r"labels must be a data frame"):
        join_labels(_items(), {"item": ["0"], "human": [1]})


def test_a_label_with_an_empty_human_cell_is_refused_not_made_a_test_row():
    """Tour finding 2: 5 empty human cells of 40 labels were counted as matched ("40 matched;
    35 of 60 judged rows labelled") and js.evaluate used those 5 rows as test rows."""
    from judgestats.readers import read_lm_eval

    items = read_lm_eval(LM_EVAL, scorer="judge_correct")
    labels = items[items["item"].astype(int) < 20][["model", "item", "judge"]]
    labels = labels.rename(columns={"judge": "human"}).astype({"human": float})
    labels.iloc[[0, 3, 7, 21, 30], labels.columns.get_loc("human")] = float("nan")
    assert len(labels) == 40 and int(labels["human"].isna().sum()) == 5
    with pytest.raises(js.errors.LabelError) as info:
        join_labels(items, labels)
    assert str(info.value) == (
        "5 labels of 40 have an empty 'human' cell (dummy-a/0, dummy-a/3, dummy-a/7, "
        "dummy-b/1, dummy-b/10): the labels must list the labelled rows only, each with its "
        "label; drop those rows (the judged rows without a label are the test rows)")  # fmt: skip
    # the 35 labelled rows joined: 35 of 60 judged rows labelled
    joined = join_labels(items, labels.dropna(subset=["human"]))
    assert (joined.read, joined.matched, joined.labelled_rows) == (35, 35, 35)


def _dummy_a_labels_without_model() -> pd.DataFrame:
    """The tour's lm_labels_nomodel.csv: dummy-a's verdicts on items 0-19 as its labels, no
    model column."""
    from judgestats.readers import read_lm_eval

    items = read_lm_eval(LM_EVAL, scorer="judge_correct")
    mine = items[(items["model"] == "dummy-a") & (items["item"].astype(int) < 20)]
    return mine[["item", "judge"]].rename(columns={"judge": "human"})


def test_labels_without_a_model_column_are_not_applied_to_every_model():
    """Tour finding 3: 20 labels made for dummy-a's answers, no model column, were joined on
    item to both models: "20 labels read, 20 matched; 40 of 60 judged rows labelled"."""
    from judgestats.readers import read_lm_eval

    items = read_lm_eval(LM_EVAL, scorer="judge_correct")
    assert sorted(items["model"].unique()) == ["dummy-a", "dummy-b"] and len(items) == 60
    labels = _dummy_a_labels_without_model()
    with pytest.raises(js.errors.LabelError) as info:
        join_labels(items, labels)
    assert str(info.value) == (
        "the labels have no model column and 20 of 20 match rows of several models (item: 0, 1, "
        "2, 3, 4, ... (20 in all); models dummy-a, dummy-b): each would be every model's label, "
        "though a label judges one model's answer; add a model column to the labels, or, if a "
        "label is the item's whatever the model, say so with on='item'")  # fmt: skip
    # said explicitly: each label is the item's, on both models' rows, and the join says so
    joined = join_labels(items, labels, on="item")
    assert (joined.matched, joined.labelled_rows, joined.across_models) == (20, 40, 20)
    assert joined.summary() == ("20 labels read, 20 matched; 40 of 60 judged rows labelled "
                                "(joined on item; 20 labels applied to several models' rows)")
    # with a model column: dummy-a's 20 rows only
    with_model = join_labels(items, labels.assign(model="dummy-a"))
    assert (with_model.labelled_rows, with_model.across_models) == (20, 0)
    # one model in the frame: no model column is needed
    one = join_labels(items[items["model"] == "dummy-a"], labels)
    assert (one.labelled_rows, one.across_models) == (20, 0)


def test_a_label_value_outside_0_1_is_refused_by_the_readers_rule():
    """Third tour of issue 38: ``join_labels`` took 'yes'/'no', 2 and 'True'/'False' strings,
    which ``evaluate`` refuses later (the command line refuses or reads them when reading its
    files). The join applies the readers' one rule (``io.parse_labels``): a value outside 0/1,
    true/false and booleans is a LabelError naming the column, the value and its row; texts the
    rule reads ('True', ' 0 ') become 0.0/1.0, and ``evaluate`` takes the joined frame."""
    items = pd.DataFrame({"model": "a", "item": [str(i) for i in range(80)],
                          "judge": [int(i % 3 != 0) for i in range(80)]})  # fmt: skip
    for bad, shown in (("yes", "'yes'"), (2, "2"), ("no", "'no'")):
        labels = pd.DataFrame({"model": "a", "item": ["1", "2", "4"], "human": [1, bad, 0]})
        with pytest.raises(js.errors.LabelError,
                           match=rf"column 'human' must hold 0/1, true/false or booleans on "
                                 rf"every row; got {shown} on row of the labels 1"):  # fmt: skip
            join_labels(items, labels)
    texts = [("True", " 1 ")[i % 2] if i % 3 else ("False", "0")[i % 2] for i in range(40)]
    labels = pd.DataFrame({"model": "a", "item": [str(i) for i in range(40)], "human": texts})
    joined = join_labels(items, labels)
    got = joined.frame["human"].iloc[:40].tolist()
    assert got == [float(i % 3 != 0) for i in range(40)]
    ev = js.evaluate(joined.frame, by="model")
    assert ev["a"].calibration.m == 40
