"""CLI: ``judgestats next-batch`` and ``judgestats monitor`` (issue 28 §4)."""

from __future__ import annotations

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
