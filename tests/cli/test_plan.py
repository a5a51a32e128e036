"""CLI: ``judgestats plan``: width, pilot and regime modes, and one-line errors with exit code 2."""

import json

import pytest

from tests.cli.test_correct import run


def test_plan_width_mode(capsys):
    code, out, _ = run(
        capsys,
        "plan",
        "--width",
        "0.1",
        "--p",
        "0.3",
        "--q0",
        "0.7",
        "--q1",
        "0.9",
        "--allocation",
        "optimal",
        "--json",
    )
    assert code == 0
    res = json.loads(out)
    assert (res["m"], res["m0"], res["m1"]) == (226, 202, 24)


def test_plan_pilot_and_regime_modes(capsys):
    code, out, _ = run(capsys, "plan", "--pilot", "9,1,7,3", "--m", "200", "--p", "0.4")
    assert code == 0 and "m0 = 136" in out and "m1 = 64" in out
    code, out, _ = run(capsys, "plan", "--regime", "--q0", "0.7", "--q1", "0.9")
    assert code == 0 and "no theta qualifies" in out
    code, out, _ = run(capsys, "plan", "--regime", "--q0", "0.9", "--q1", "0.9", "--json")
    half = (0.5 - 1 / (4 * 0.8**2)) ** 0.5
    assert json.loads(out)["low"] == pytest.approx(0.5 - half, abs=1e-12)


@pytest.mark.parametrize(
    "argv",
    [
        ["plan", "--width", "0.1", "--p", "0.3"],
        ["plan", "--pilot", "9,1,7", "--m", "200", "--p", "0.4"],
        ["plan", "--pilot", "9,1,7,4", "--m", "200", "--p", "0.4"],
        ["plan", "--width", "1.5", "--p", "0.3", "--q0", "0.7", "--q1", "0.9"],
    ],
)
def test_plan_errors_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.startswith("judgestats: error: ")


def test_plan_pilot_judge_at_chance_is_said(capsys):
    """Issue 38 tour: ``plan --pilot 10,0,0,10`` (the judge says 1 for all 20 pilot items:
    sensitivity 10/10 = 1, specificity 0/10 = 0, their sum 1) gave an allocation, m0 = 154,
    m1 = 46 of 200 (κ̂ = (1 − 1/12)/(1 − 11/12) = 11), without a word that the judge carries
    no information about the rate."""
    code, out, _ = run(capsys, "plan", "--pilot", "10,0,0,10", "--m", "200", "--p", "0.5")
    assert code == 0 and "m0 = 154" in out and "m1 = 46" in out
    assert "note: the pilot's judge is no better than chance (specificity 0 + sensitivity 1 = 1" \
        in out
    code, out, _ = run(capsys, "plan", "--pilot", "10,0,0,10", "--m", "200", "--p", "0.5",
                       "--json")  # fmt: skip
    assert any("no better than chance" in w for w in json.loads(out)["warnings"])
    code, out, _ = run(capsys, "plan", "--pilot", "9,1,7,3", "--m", "200", "--p", "0.4",
                       "--json")  # fmt: skip
    assert "warnings" not in json.loads(out)  # 0.7 + 0.9 > 1: nothing to say
