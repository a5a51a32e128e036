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


def test_cli_words_say_the_api_keywords_of_the_tour_as_flags():
    """Issue 38 tours: CLI errors named ``merge=``, ``max_m``, ``allocation=``,
    ``invalid=[None]``, ``cal.merge`` and ``(columns=)``. One table (``API_FLAGS``) and the
    phrases the commands have no flag for turn each into the command's words; text without an
    API keyword is left alone."""
    from judgestats.cli.options import cli_words

    cases = {
        "m <= max_m = 5000 (width there: 0.029); raise max_m":
            "m <= --max-m 5000 (width there: 0.029); raise --max-m",
        "leave allocation='balanced'": "leave --allocation balanced",
        "no column 'prompt' (cluster=); no column 'x' (model_a=)":
            "no column 'prompt' (--cluster); no column 'x' (--model-a)",
        "pass invalid=[None, ...] to keep missing verdicts": "pass --invalid '' to keep missing "
                                                             "verdicts",
        "merge them (cal.merge({...}), test.merge({...})) or label more":
            "merge them (recode the judge column so that they are one letter) or label more",
        "merge the sparse strata into neighbours (merge={stratum: other} or merge='auto') or "
        "lower min_per_class explicitly":
            "merge the sparse strata into neighbours (give them a neighbour's value in the "
            "--strata column)",
        "use method='profile-map'": "use --method profile-map",
        "a verdict 3 (mapping={3: 0 or 1})": "a verdict 3 (--map 3=0|1)",
        "the judge said 'merge' for judge=1": "the judge said 'merge' for judge=1",
    }  # fmt: skip
    for api, cli in cases.items():
        assert cli_words(api) == cli
        assert cli_words(cli) == cli  # said once: the command's words stay as they are


def test_cli_words_say_a_bare_keyword_and_the_plan_helpers_as_flags():
    """Third tour of issue 38: ``report --strata lang --cluster item --batch batch`` answered
    "batch= is not available with strata= ...", ``plan --m 0`` "m must be >= 2, got 0" and
    ``agreement`` named ``plan.interval_width`` and ``plan.judge_vs_human``: API words a
    command-line user cannot type. The one table (``API_FLAGS``) now says a bare keyword
    (``batch=`` followed by a space or a bracket) and ``m`` as flags; a keyword given a value,
    a word that merely ends in a keyword (``submethod=``) and ``m`` inside a word stay."""
    from judgestats.cli.options import cli_words

    cases = {
        "batch= is not available with strata= (evaluate each stratum as a group)":
            "--batch is not available with --strata (evaluate each stratum as a group)",
        "m must be >= 2, got 0": "--m must be >= 2, got 0",
        "m must be >= 4, got 3": "--m must be >= 4, got 3",
        "(adjusted-Wald, plan.interval_width, n → ∞)": "(adjusted-Wald, judgestats plan, n → ∞)",
        "(plan.judge_vs_human, m → ∞)": "(judgestats plan --regime, m → ∞)",
        "use method='ppi'": "use --method ppi",
        "submethod= stays; the sum must be 1": "submethod= stays; the sum must be 1",
        "(judge-conditional, designs.plan.design_width, n → ∞)":
            "(judge-conditional, judgestats plan --compare, n → ∞)",
        "P(judge='lose' | human='0')  0.312": "P(judge='lose' | human='0')  0.312",
    }  # fmt: skip
    for api, cli in cases.items():
        assert cli_words(api) == cli
