"""CLI: the argparse pieces the commands share (``judgestats.cli.options``)."""

from __future__ import annotations

from judgestats.cli import build_parser
from judgestats.designs.capabilities import rows


def test_method_help_says_the_default_with_strata_as_the_capability_table():
    """Tour of issue 38: ``report --strata`` answers with adjusted-Wald (the capability table's
    default for the pooled rate, every design) while ``--help`` said auto under the paper's
    design and nothing of strata. The help names the table's default with ``--strata``."""
    pooled = {r.default for r in rows() if (r.judge, r.target) == ("letter", "pooled-rate")}
    assert pooled == {"adjusted-wald"}
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for command in ("correct", "report"):
        method = next(a for a in sub.choices[command]._actions if a.dest == "method")
        text = " ".join(method.help.split())
        assert "in report with --strata (the rate pooled over strata), adjusted-wald" in text
