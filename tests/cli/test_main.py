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
    paths = {("letter", "rate"), ("letter", "pooled-rate"), ("alphabet", "distribution")}
    table = {m for r in rows() if (r.judge, r.target) in paths for m in r.methods}
    for name in ("correct", "report"):
        method = next(a for a in sub.choices[name]._actions if a.dest == "method")
        assert tuple(method.choices) == method_choices() and set(method.choices) == table


@pytest.mark.parametrize("name", [c.name for c in COMMANDS])
def test_every_command_has_its_help(name, capsys):
    with pytest.raises(SystemExit) as stop:
        main([name, "--help"])
    assert stop.value.code == 0 and f"usage: judgestats {name}" in capsys.readouterr().out
