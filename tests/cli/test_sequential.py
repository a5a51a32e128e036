"""CLI: ``judgestats next-batch`` and ``judgestats monitor`` (issue 28 §4)."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from judgestats.cli import main


@pytest.fixture
def pool(tmp_path):
    g = np.random.default_rng(0)
    n = 2000
    y = (g.random(n) < 0.3).astype(int)
    judge = np.where(y == 1, g.random(n) < 0.8, g.random(n) > 0.85).astype(int)
    items = [f"q{i}" for i in range(n)]
    model = np.where(np.arange(n) % 2, "a", "b")
    pd.DataFrame({"item": items, "model": model, "judge": judge}).to_csv(
        tmp_path / "items.csv", index=False
    )
    return tmp_path, dict(zip(items, y, strict=True)), pd.Series(y).groupby(model).mean()


def _fill(path, truth):
    r = pd.read_csv(path)
    r["human"] = r["item"].map(truth)
    r.to_csv(path, index=False)


def test_label_in_rounds_from_files(pool, capsys):
    tmp, truth, rates = pool
    items = str(tmp / "items.csv")
    labels = []
    for k in (1, 2, 3):
        out = tmp / f"round{k}.csv"
        args = ["next-batch", items, "--budget", "80", "--strategy", "by-judge-label",
                "--by", "model", "--seed", str(k), "--out", str(out)]  # fmt: skip
        assert main([*args, *(["--labels", *labels] if labels else [])]) == 0
        assert f"wrote 160 items to label to {out}" in capsys.readouterr().out
        r = pd.read_csv(out)
        assert (r["round"] == k).all() and r["human"].isna().all()
        assert not set(r["item"]) & {i for f in labels for i in pd.read_csv(f)["item"]}
        _fill(out, truth)
        labels.append(str(out))
    assert main(["monitor", items, "--labels", *labels, "--design", "by-judge-label",
                 "--by", "model", "--json", "--target-width", "0.1"]) == 0  # fmt: skip
    got = json.loads(capsys.readouterr().out)
    assert got["should_stop"] is False and got["method"] == "betting confidence sequence"
    for row in got["groups"]:
        assert row["labels"] == 240
        assert row["low"] <= rates[row["group"]] <= row["high"]
        assert row["width"] < 0.3
    assert main(["monitor", items, "--labels", *labels, "--design", "by-judge-label",
                 "--by", "model"]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "after 240 labels of 1000 items" in text and "every look" in text


def test_monitor_refuses_what_cannot_be(pool, capsys):
    tmp, truth, _ = pool
    items = str(tmp / "items.csv")
    assert main(["monitor", items, "--design", "by-human-label"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert main(["next-batch", items, "--budget", "5", "--out", str(tmp / "r.csv")]) == 0
    _fill(tmp / "r.csv", truth)
    r = pd.read_csv(tmp / "r.csv")
    r.loc[0, "inclusion_probability"] = 0.5
    r.to_csv(tmp / "r.csv", index=False)
    capsys.readouterr()
    assert main(["monitor", items, "--labels", str(tmp / "r.csv"), "--design", "random"]) == 2
    assert "does not match" in capsys.readouterr().err


def _round_one(tmp, truth, design="random"):
    out = tmp / "r1.csv"
    drawn = [] if design == "random" else ["--design", design]  # the default: random
    assert main(["next-batch", str(tmp / "items.csv"), "--budget", "20", *drawn, "--seed", "1",
                 "--out", str(out)]) == 0  # fmt: skip
    _fill(out, truth)
    return out


def test_monitor_refuses_a_label_for_an_item_not_in_the_pool(pool, capsys):
    """Issue 38 #5: a label for an item the pool lacks was dropped (19 labels of 20 counted);
    the API's Monitor.update refuses it, and so does the command now, naming the item."""
    tmp, truth, _ = pool
    r1 = pd.read_csv(_round_one(tmp, truth))
    r1.loc[len(r1) - 1, "item"] = "q9999"  # the last label's item is no item of the pool
    r1.to_csv(tmp / "r1.csv", index=False)
    capsys.readouterr()
    assert main(["monitor", str(tmp / "items.csv"), "--labels", str(tmp / "r1.csv"),
                 "--design", "random"]) == 2  # fmt: skip
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    # third tour: the message names the --labels file (several may be given)
    assert (f"20 labels read from --labels {tmp / 'r1.csv'}, 19 matched, 1 match no judged row "
            "(item: q9999)") in err
    assert "every label must name an item of the pool" in err


def test_monitor_says_how_the_labels_joined_and_refuses_another_designs_rounds(pool, capsys):
    tmp, truth, _ = pool
    r1 = _round_one(tmp, truth, design="by-judge-label")
    capsys.readouterr()
    args = ["monitor", str(tmp / "items.csv"), "--labels", str(r1)]
    assert main([*args, "--design", "by-judge-label"]) == 0
    out = capsys.readouterr().out
    first, summary = out.split("\n", 1)
    assert first == ("labels: 20 labels read, 20 matched; 20 of 2000 judged rows labelled "
                     "(joined on item)")  # fmt: skip
    assert "after 20 labels of 2000 items" in summary
    assert main([*args, "--design", "random"]) == 2
    err = capsys.readouterr().err
    assert ("round(s) [1] were drawn under --design by-judge-label (next_batch's strategy "
            "'by-judge-label'), but this monitor's design is 'random'") in err


def test_next_batch_design_replaces_strategy_and_columns_take_commas(pool, capsys):
    tmp, _, _ = pool
    items = str(tmp / "items.csv")
    assert main(["next-batch", items, "--budget", "10", "--design", "by-judge-label", "--by",
                 "model", "--seed", "3"]) == 0  # fmt: skip
    new = capsys.readouterr()
    assert main(["next-batch", items, "--budget", "10", "--strategy", "by-judge-label", "--by",
                 "model", "--seed", "3"]) == 0  # fmt: skip
    old = capsys.readouterr()
    assert old.out == new.out and new.err == ""
    assert old.err == ("judgestats: note: --strategy by-judge-label is deprecated: use --design "
                       "by-judge-label (the old flag works until judgestats 0.3)\n")
    assert main(["next-batch", items, "--budget", "5", "--strategy", "uniform", "--design",
                 "by-judge-label"]) == 2  # fmt: skip
    assert "give --design alone" in capsys.readouterr().err
    # --by a,b and the old --by a b read the same columns (the old with a note)
    frame = pd.read_csv(items).assign(half=lambda f: f.index // 1000)
    frame.to_csv(tmp / "two.csv", index=False)
    assert main(["next-batch", str(tmp / "two.csv"), "--budget", "3", "--by", "model,half",
                 "--seed", "1"]) == 0  # fmt: skip
    comma = capsys.readouterr().out
    assert main(["next-batch", str(tmp / "two.csv"), "--budget", "3", "--by", "model", "half",
                 "--seed", "1"]) == 0  # fmt: skip
    spaced = capsys.readouterr()
    assert spaced.out == comma and len(pd.read_csv(tmp / "two.csv")) == 2000
    assert "--by model half is deprecated: write --by model,half" in spaced.err
    assert len(pd.read_csv(io.StringIO(comma))) == 4 * 3  # 2 models x 2 halves, 3 each


def test_monitor_names_the_labels_column_with_the_flag(pool, capsys):
    """A round whose human column is called 'label': the error names --human label (the
    round's own columns, written by next-batch, are not offered as the label column)."""
    tmp, truth, _ = pool
    r1 = pd.read_csv(_round_one(tmp, truth)).rename(columns={"human": "label"})
    r1.to_csv(tmp / "r1.csv", index=False)
    capsys.readouterr()
    args = ["monitor", str(tmp / "items.csv"), "--labels", str(tmp / "r1.csv"), "--design",
            "random"]  # fmt: skip
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no human-label column 'human'" in err
    assert err.rstrip().endswith("name it with --human label")
    assert main([*args, "--human", "label"]) == 0


@pytest.mark.parametrize("by", [[], ["--by", "model"]])
def test_a_pool_with_a_header_and_no_rows_is_one_line_exit_2(tmp_path, capsys, by):
    """Tour of issue 38: ``next-batch`` on a header-only pool wrote a header-only file and
    ``monitor`` printed "after 0 labels of 0 items", both exit 0; with ``--by model`` both
    said "the pool has no items" (the API's ``Monitor.set_pool``). Now both always do."""
    empty = tmp_path / "empty.csv"
    empty.write_text("model,item,judge\n")
    for argv in (["next-batch", str(empty), "--budget", "3", "--out", str(tmp_path / "r.csv")],
                 ["monitor", str(empty), "--design", "random"]):
        assert main([*argv, *by]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err
        assert "the pool has no items" in err
    assert not (tmp_path / "r.csv").exists()


def test_an_item_labelled_in_two_label_files_is_refused_as_the_api_does(pool, capsys):
    """Tour of issue 38: ``monitor --labels l1.csv l1_flip.csv`` (the second file relabels the
    same items oppositely) said "40 labels read, 40 matched" and averaged them, and the same
    file given twice was read twice. ``Monitor.update`` refuses an item labelled again ("is
    already labelled; an item enters once"); the commands now refuse it, naming at most five
    items and the count."""
    tmp, truth, _ = pool
    r1 = _round_one(tmp, truth)  # 20 items drawn with seed 1, labelled with the truth
    flip = pd.read_csv(r1).assign(human=lambda f: 1 - f["human"])
    flip.to_csv(tmp / "flip.csv", index=False)
    first = [str(i) for i in pd.read_csv(r1)["item"][:5]]
    capsys.readouterr()
    for second in (tmp / "flip.csv", r1):
        for argv in (["monitor", str(tmp / "items.csv"), "--design", "random"],
                     ["next-batch", str(tmp / "items.csv"), "--budget", "5",
                      "--out", str(tmp / "r2.csv")]):  # fmt: skip
            assert main([*argv, "--labels", str(r1), str(second)]) == 2
            out, err = capsys.readouterr()
            assert out == "" and err.count("\n") == 1
            assert (f"20 items are labelled in more than one --labels file: {', '.join(first)}, "
                    "... (20 in all); each item is labelled once (an item enters once: several "
                    "raters of one item belong in one round's file)") in err
    assert not (tmp / "r2.csv").exists()
    # several raters of one item in one round's file are still read as before
    two = pd.concat([pd.read_csv(r1), pd.read_csv(r1).iloc[:1]], ignore_index=True)
    two.to_csv(tmp / "raters.csv", index=False)
    assert main(["monitor", str(tmp / "items.csv"), "--design", "random", "--labels",
                 str(tmp / "raters.csv")]) == 0  # fmt: skip
    assert "21 labels read, 21 matched" in capsys.readouterr().out


def test_next_batch_of_no_items_says_the_target_width_is_met(pool, capsys):
    """Tour of issue 38: ``next-batch --target-width`` wrote 0 items without saying why. The
    monitor on the same 20 labels gives an interval narrower than 0.99 (its JSON ``width``),
    so nothing is drawn; stderr says so."""
    tmp, truth, _ = pool
    r1 = _round_one(tmp, truth)
    capsys.readouterr()
    assert main(["monitor", str(tmp / "items.csv"), "--labels", str(r1), "--design", "random",
                 "--json"]) == 0  # fmt: skip
    width = json.loads(capsys.readouterr().out)["groups"][0]["width"]
    assert 0.5 < width < 0.99
    assert main(["next-batch", str(tmp / "items.csv"), "--labels", str(r1), "--budget", "5",
                 "--target-width", "0.99", "--out", str(tmp / "r2.csv")]) == 0  # fmt: skip
    out, err = capsys.readouterr()
    assert f"wrote 0 items to label to {tmp / 'r2.csv'}" in out
    assert ("nothing to label: every group's interval is already at most 0.99 wide "
            "(--target-width) or all its items are labelled") in err
