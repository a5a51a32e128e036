"""The CLI's reading of label files into counts (``judgestats.cli.inputs``)."""

import numpy as np
import pandas as pd

from judgestats.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _spanning(tmp_path, write_ids):
    """Thirty items, each with one test row and one calibration row (epochs 1 and 0)."""
    gen = np.random.default_rng(38)
    item = np.arange(30)
    truth = gen.random(30) < 0.5
    test = pd.DataFrame({"item": item, "judge": (gen.random(30) < 0.5).astype(int)})
    cal = pd.DataFrame({"item": [write_ids(i) for i in item],
                        "judge": (truth ^ (gen.random(30) < 0.1)).astype(int),
                        "human": truth.astype(int)})  # fmt: skip
    test.to_csv(tmp_path / "t.csv", index=False)
    cal.to_csv(tmp_path / "c.csv", index=False)
    return ["correct", "--test", str(tmp_path / "t.csv"), "--calibration",
            str(tmp_path / "c.csv"), "--cluster", "item", "--method", "adjusted-wald"]  # fmt: skip


def test_cluster_ids_written_another_way_in_the_two_files_are_refused_by_name(capsys, tmp_path):
    """Issue 38, third tour §1: calibration items written 0.0, 1.0, … beside test items 0, 1, …
    were counted as different items, without a word (the interval moved). The join's rule
    (``readers.join_labels``: the same number written another way) now refuses them, naming
    the first id and its twin; ids written alike still run."""
    code, out, err = run(capsys, *_spanning(tmp_path, float))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "--cluster item" in err and "'0.0'" in err and "'0'" in err
    assert "the same number written another way" in err
    code, out, err = run(capsys, *_spanning(tmp_path, int))
    assert code == 0, err
