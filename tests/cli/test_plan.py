"""CLI: ``judgestats plan``: width, pilot and regime modes, and one-line errors with exit code 2."""

import json
import math

import pytest

import judgestats as js
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


def test_plan_regime_with_m_says_the_bound_fails_not_that_humans_win(capsys):
    """Issue 38 tour: ``plan --regime --q0 0.9 --q1 0.9 --m 20`` said "human-only labelling
    has the lower variance everywhere", where only the finite-m sufficient condition fails
    (ε = √(log(2/0.05)/40) = 0.304: at θ = 0.5 its right side, 2·0.25·0.09/(0.5 − ε)/0.64 =
    0.359, exceeds θ(1 − θ) = 0.25). The exact m → ∞ condition holds on
    1/2 ± √(1/2 − 1/(4(2q − 1)²)) (the plan module's closed form for q0 = q1 = q)."""
    eps = (math.log(2 / 0.05) / (2 * 20)) ** 0.5
    assert 2 * 0.25 * 0.09 / (0.5 - eps) / 0.8**2 > 0.25  # the bound fails at θ = 0.5
    code, out, _ = run(capsys, "plan", "--regime", "--q0", "0.9", "--q1", "0.9", "--m", "20")
    assert code == 0
    assert "lower variance everywhere" not in out
    assert "bound fails for every theta" in out and "m = 20, delta = 0.05" in out
    half = (0.5 - 1 / (4 * 0.8**2)) ** 0.5  # 0.3307: [0.1693, 0.8307]
    assert f"[{0.5 - half:.4f}, {0.5 + half:.4f}]" in out
    code, out, _ = run(capsys, "plan", "--regime", "--q0", "0.9", "--q1", "0.9", "--m", "20",
                       "--json")  # fmt: skip
    res = json.loads(out)
    assert res["low"] is None and res["exact_low"] == pytest.approx(0.5 - half, abs=1e-12)
    # a judge that loses everywhere (q0 = 0.7, q1 = 0.9: the exact range is empty) says so
    code, out, _ = run(capsys, "plan", "--regime", "--q0", "0.7", "--q1", "0.9", "--m", "20")
    assert "holds for no theta either" in out and "lower variance everywhere" in out


def test_plan_errors_name_the_flags_not_the_api_keywords(capsys):
    """Issue 38 tour: ``plan --width`` beyond reach said "raise max_m" (a keyword the command
    had no flag for), and ``--allocation optimal`` under ``--design random`` said "leave
    allocation='balanced'". The command names its flags (``--max-m`` is one now); the API keeps
    its keywords."""
    argv = ["plan", "--width", "0.001", "--p", "0.3", "--q0", "0.7", "--q1", "0.9"]
    code, out, err = run(capsys, *argv, "--max-m", "5000")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "m <= --max-m 5000" in err and "raise --max-m" in err and "max_m" not in err
    with pytest.raises(js.errors.JudgeStatsError, match=r"max_m = 5000.*raise max_m$"):
        js.plan.calibration_size(0.001, p=0.3, q0=0.7, q1=0.9, max_m=5000)
    # --max-m is the API's max_m: a larger search reaches a smaller width
    code, out, _ = run(capsys, "plan", "--width", "0.03", "--p", "0.3", "--q0", "0.7", "--q1",
                       "0.9", "--max-m", "5000", "--json")  # fmt: skip
    want = js.plan.calibration_size(0.03, p=0.3, q0=0.7, q1=0.9, max_m=5000).m
    assert code == 0 and json.loads(out)["m"] == want
    code, _, err = run(capsys, "plan", "--width", "0.1", "--p", "0.3", "--q0", "0.7", "--q1",
                       "0.9", "--design", "random", "--allocation", "optimal")  # fmt: skip
    assert code == 2 and "leave --allocation balanced" in err and "allocation=" not in err
