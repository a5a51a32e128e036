"""The ``judgestats`` dispatcher: one table of sub-commands builds the parser (cli.main)."""

import argparse

import pytest

from judgestats.cli import build_parser, main
from judgestats.cli.main import COMMANDS
from judgestats.cli.options import method_choices
from judgestats.designs import design_names
from judgestats.designs.capabilities import rows


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def test_the_table_of_commands_is_the_parser():
    sub = _subparsers(build_parser())
    assert list(sub.choices) == [c.name for c in COMMANDS]
    helps = {a.dest: a.help for a in sub._choices_actions}
    for c in COMMANDS:
        assert helps[c.name] == c.help and sub.choices[c.name].description == c.description


def test_design_and_method_choices_come_from_the_registry_and_the_table():
    sub = _subparsers(build_parser())
    for name in ("correct", "report", "plan", "agreement"):
        design = next(a for a in sub.choices[name]._actions if a.dest == "design")
        assert tuple(design.choices) == design_names()
    paths = {("letter", "rate"), ("letter", "pooled-rate"), ("alphabet", "distribution"),
             ("jury", "rate"), ("score", "rate")}  # a jury (--judge a,b), a score (issue 39)
    table = {m for r in rows() if (r.judge, r.target) in paths for m in r.methods}
    for name in ("correct", "report"):
        method = next(a for a in sub.choices[name]._actions if a.dest == "method")
        assert tuple(method.choices) == method_choices() and set(method.choices) == table


@pytest.mark.parametrize("name", [c.name for c in COMMANDS])
def test_every_command_has_its_help(name, capsys):
    with pytest.raises(SystemExit) as stop:
        main([name, "--help"])
    assert stop.value.code == 0 and f"usage: judgestats {name}" in capsys.readouterr().out


# ------------------------------------------------------------ issue 38 §2: one vocabulary
def _files(tmp_path):
    """A test file and a calibration file with two group columns (model, task)."""
    import numpy as np
    import pandas as pd

    g = np.random.default_rng(38)
    n = 800
    human = g.integers(0, 2, n)
    frame = pd.DataFrame({"model": np.where(np.arange(n) % 2, "a", "b"),
                          "task": np.where(np.arange(n) % 4 < 2, "x", "y"),
                          "verdict": np.where(g.random(n) < 0.85, human, 1 - human),
                          "gold": human})  # fmt: skip
    frame.iloc[:600].drop(columns="gold").to_csv(tmp_path / "test.csv", index=False)
    frame.iloc[600:].to_csv(tmp_path / "cal.csv", index=False)
    return str(tmp_path / "test.csv"), str(tmp_path / "cal.csv"), frame


def test_judge_human_and_by_with_commas_are_one_vocabulary(tmp_path, capsys):
    """``--judge``/``--human`` name the columns in every command (the old ``--judge-column``
    and ``--human-column`` still work, with a note on stderr), and ``--by a,b`` groups by
    several columns in ``correct`` and ``agreement`` as in ``report``."""
    test, cal, frame = _files(tmp_path)
    new = ["correct", "--test", test, "--calibration", cal, "--judge", "verdict", "--human",
           "gold", "--by", "model,task", "--json"]  # fmt: skip
    old = ["correct", "--test", test, "--calibration", cal, "--judge-column", "verdict",
           "--human-column", "gold", "--by", "model,task", "--json"]  # fmt: skip
    assert main(new) == 0
    got = capsys.readouterr()
    assert main(old) == 0
    was = capsys.readouterr()
    assert got.out == was.out and got.err == ""
    assert was.err.splitlines() == [
        "judgestats: note: --judge-column is deprecated: use --judge (the old flag works until "
        "judgestats 0.3)",
        "judgestats: note: --human-column is deprecated: use --human (the old flag works until "
        "judgestats 0.3)",
    ]
    import json

    rows = json.loads(got.out)["rows"]
    assert [r["group"] for r in rows] == ["a / x", "a / y", "b / x", "b / y"]
    cal_rows = frame.iloc[600:]
    counted = cal_rows.groupby(["model", "task"]).size().to_dict()  # an independent count
    assert [r["m0"] + r["m1"] for r in rows] == [counted[k] for k in sorted(counted)]
    assert main(["agreement", cal, "--judge", "verdict", "--human", "gold", "--by",
                 "model,task", "--json"]) == 0  # fmt: skip
    card = json.loads(capsys.readouterr().out)
    assert sorted(card["strata"]) == ["a / x", "a / y", "b / x", "b / y"]


@pytest.mark.parametrize("name", [c.name for c in COMMANDS])
def test_every_command_writes_its_output_with_out(name):
    """``--out PATH`` is every command's (it was report's, agreement's and next-batch's)."""
    sub = _subparsers(build_parser())
    assert any("--out" in a.option_strings for a in sub.choices[name]._actions)


def test_out_writes_what_the_command_would_print(tmp_path, capsys):
    counts = ["correct", "--positive", "300", "--n", "600", "--tp", "40", "--fn", "10",
              "--tn", "35", "--fp", "15"]  # fmt: skip
    assert main(counts) == 0
    printed = capsys.readouterr().out
    out = tmp_path / "table.txt"
    assert main([*counts, "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    assert out.read_text(encoding="utf-8") == printed
    assert main([*counts, "--out", str(tmp_path / "no" / "such" / "dir.txt")]) == 2
    assert "cannot write" in capsys.readouterr().err
