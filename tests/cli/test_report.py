"""CLI: ``judgestats report`` on a file with repeated items (``--cluster``) or a judge alphabet
(``--judge-column`` of scores, ``--letters``, ``--invalid``): the text gives the API's numbers.

The other ``report`` options are tested beside their subject: strata with items in
tests/strata/test_counts.py, calibration batches in tests/evaluate/test_batches.py, the
report's formats in tests/report/test_report.py.
"""


import pytest

import judgestats as js
from tests.alphabets.test_groups import _score_frame
from tests.test_frames import _direct, _frame


def test_cli_report_cluster_column(tmp_path, capsys):
    from judgestats.cli import main

    frame = _frame(2)
    path = tmp_path / "judged.csv"
    frame.to_csv(path, index=False)
    assert main(["report", str(path), "--cluster", "item"]) == 0
    out = capsys.readouterr().out
    ref = _direct(frame, "m1")
    assert f"{ref.ci.low:.3f}–{ref.ci.high:.3f}" in out
    assert "counting repeated items once each" in out
    assert main(["report", "--example", "nq301", "--cluster", "item"]) == 2
    assert "--cluster does not apply" in capsys.readouterr().err


def test_cli_report_with_letters_invalid_and_two_judges(tmp_path, capsys):
    from judgestats.cli import main

    df = _score_frame(seed=8).drop(columns="truth")
    df["score"] = df["score"].astype(int).astype(object)
    df.loc[df.index[::50], "score"] = "refused"  # on test and calibration rows alike
    df["second"] = (df["score"].astype(str) >= "4").astype(int)
    path = tmp_path / "scores.csv"
    df.to_csv(path, index=False)
    # without --letters the judge column must be 0/1; the error says what to add
    assert main(["report", str(path), "--judge-column", "score"]) == 2
    assert "add --letters" in capsys.readouterr().err
    assert main(["report", str(path), "--judge-column", "score", "--invalid", "refused"]) == 0
    out = capsys.readouterr().out
    with pytest.warns(js.SparseLettersWarning):  # 2 and 4 refusals among the labelled items
        ev = js.evaluate(df, judge="score", invalid=["refused"])  # the same numbers, by the API
    for g in ("a", "b"):
        c = ev[g]
        assert f"| {g} | {c.n} | {c.estimate:.3f} | {c.ci.low:.3f}–{c.ci.high:.3f} |" in out
    assert "sensitivity" not in out.split("**Notes**")[0]  # no such column for letters
    assert "6 letters: 1, 2, 3, 4, 5, invalid" in out
    assert main(["report", str(path), "--judge-column", "score,second", "--invalid", "refused",
                 "--method", "profile-likelihood"]) == 0  # fmt: skip
    assert "profile-likelihood intervals" in capsys.readouterr().out
    assert main(["report", "--example", "nq301", "--letters"]) == 2
    assert "--letters and --invalid apply to a FILE" in capsys.readouterr().err


def test_cli_reads_numeric_letters_and_invalid_numbers_on_every_engine(tmp_path, capsys):
    from judgestats.cli import main

    df = _score_frame(seed=17).drop(columns="truth")
    df["verdict"] = (df["score"] >= 4).astype(int)
    df.loc[df.index[::40], "verdict"] = -1  # a refusal code
    path = tmp_path / "v.csv"
    df.to_csv(path, index=False)
    tables = {}
    for engine in ("pandas", "polars", "duckdb"):
        assert main(["report", str(path), "--judge-column", "verdict", "--invalid", "-1",
                     "--engine", engine]) == 0  # fmt: skip
        out = capsys.readouterr().out
        assert "3 letters: 0, 1, invalid" in out, engine
        assert "| naive |" in out  # letters 0 and 1 are the judge's own verdicts
        tables[engine] = out.split("**Notes**")[0]
    assert tables["pandas"] == tables["polars"] == tables["duckdb"]
    assert main(["report", str(path), "--judge-column", "score", "--engine", "polars"]) == 2
    assert "add --letters" in capsys.readouterr().err
    assert main(["report", str(path), "--judge-column", "score", "--letters", "--design",
                 "random", "--method", "adjusted-delta"]) == 0  # fmt: skip


def test_no_group_corrected_lists_at_most_five_groups_per_reason(tmp_path, capsys):
    """Issue 38 §2: an error lists at most five examples and the count. Eight models whose judge
    is no better than chance (specificity 0, sensitivity 0 on 20 labels each) were eight copies
    of one NotInformativeError; now one reason, five groups and the count."""
    import pandas as pd

    from judgestats.cli import main

    rows = [{"model": f"m{g}", "judge": 1 - i % 2 if i < 30 else i % 2,
             "human": i % 2 if i < 20 else ""} for g in range(8) for i in range(40)]  # fmt: skip
    path = tmp_path / "chance.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    assert main(["report", str(path), "--method", "adjusted-wald", "--design",
                 "by-human-label"]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.count("NotInformativeError") == 1
    assert ("no group could be corrected: model='m0', model='m1', model='m2', model='m3', "
            "model='m4', ... (8 in all): NotInformativeError: q̂0 + q̂1 must exceed 1") in err
