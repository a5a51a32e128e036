"""``judgestats raters``: the same numbers as the API, bad input in one line with exit 2."""

from __future__ import annotations

import json

import pytest

import judgestats as js
from judgestats.cli import main
from tests.golden.cases import _raters_frame


@pytest.fixture(scope="module")
def ratings_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("raters") / "ratings.csv"
    _raters_frame().to_csv(path, index=False)
    return str(path)


def test_correct_prints_the_api_numbers(ratings_file, capsys):
    """``raters correct --json`` rows = js.evaluate(rater=, reference=) on the same frame."""
    code = main(["raters", "correct", ratings_file, "--by", "model", "--reference", "majority",
                 "--design", "random", "--method", "adjusted-wald", "--ties", "none", "--json"])
    assert code == 0
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    ev = js.evaluate(_raters_frame(), rater="rater", cluster="item", reference="majority",
                     design="random", method="adjusted-wald", ties="none")  # fmt: skip
    for g in ev.groups:
        assert rows[g]["estimate"] == pytest.approx(ev[g].estimate, abs=1e-12)
        assert rows[g]["ci_high"] == pytest.approx(ev[g].ci.high, abs=1e-12)
        assert rows[g]["reference"] == "majority" and rows[g]["left_out"] > 0


def test_latent_prints_the_fit(ratings_file, capsys):
    """``raters latent --json``: Dawid-Skene on the ratings with the judge, as the API fits it."""
    assert main(["raters", "latent", ratings_file, "--method", "sandwich", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    frame = _raters_frame()
    ratings = js.raters.Ratings.from_long(frame[frame["human"].notna()], item="item",
                                          rater="rater", label="human", judge="judge")
    fit = js.raters.dawid_skene(ratings, method="sandwich")
    assert out["estimate"] == pytest.approx(fit.estimate, abs=1e-12)
    assert out["reference"] == "latent" and out["raters"][-1] == "judge"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["correct", "--reference", "latent", "--design", "by-human-label"], "reference='latent'"),
        (["correct", "--rater", "who"], "no column(s) ['who']"),
        (["correct", "--reference", "majority", "--ties", "nobody", "--design", "random"],
         "ties must be one of"),
    ],
)  # fmt: skip
def test_bad_input_one_line_exit_2(ratings_file, capsys, argv, words):
    assert main(["raters", argv[0], ratings_file, *argv[1:]]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
