"""``judgestats agreement`` (cli/agreement.py)."""

from __future__ import annotations

import re

import pytest

from judgestats.cli import main

pytest.importorskip("pandas")

#: Per model: calibration cells (human, judge, count) and the test set's judged 1s of 100.
_CELLS = {"a": ([(1, 1, 36), (1, 0, 4), (0, 0, 16), (0, 1, 4)], 62),
          "b": ([(1, 1, 27), (1, 0, 3), (0, 0, 24), (0, 1, 6)], 41)}  # fmt: skip


def _files(tmp_path):
    cal, test = ["model,human,judge"], ["model,judge"]
    for model, (cells, ones) in _CELLS.items():
        cal += [f"{model},{h},{j}" for h, j, count in cells for _ in range(count)]
        test += [f"{model},{int(i < ones)}" for i in range(100)]
    (tmp_path / "cal.csv").write_text("\n".join(cal) + "\n")
    (tmp_path / "test.csv").write_text("\n".join(test) + "\n")
    return str(tmp_path / "cal.csv"), str(tmp_path / "test.csv")


def _derived(model: str) -> dict[str, float]:
    """PPV, NPV and Cohen's κ of the population table θ Ĉ (paper eq. (7) for θ, clipped)."""
    cells, ones = _CELLS[model]
    n = {(h, j): c for h, j, c in cells}
    q0 = n[0, 0] / (n[0, 0] + n[0, 1])
    q1 = n[1, 1] / (n[1, 1] + n[1, 0])
    theta = min(max((ones / 100 + q0 - 1) / (q0 + q1 - 1), 0.0), 1.0)
    tp, fn, tn, fp = theta * q1, theta * (1 - q1), (1 - theta) * q0, (1 - theta) * (1 - q0)
    pa, pe = tp + tn, (tp + fp) * theta + (tn + fn) * (1 - theta)
    return {"PPV": tp / (tp + fp), "NPV": tn / (tn + fn), "kappa": (pa - pe) / (1 - pe)}


def test_by_with_test_shows_each_strata_derived_figures(tmp_path, capsys):
    """Issue 38 tour: ``agreement --by model --test FILE`` printed no PPV, NPV, κ or AC1 for
    any model (``--json`` had them) and advised "pass test=" although --test was given."""
    cal, test = _files(tmp_path)
    assert main(["agreement", cal, "--by", "model", "--test", test]) == 0
    text = capsys.readouterr().out
    for model in _CELLS:
        line = next(x for x in text.splitlines() if x.strip().startswith(f"stratum {model}:"))
        for name, value in _derived(model).items():
            shown = re.search(rf"\b{name} (\d\.\d{{3}})", line)
            assert shown, (name, line)
            assert float(shown.group(1)) == pytest.approx(value, abs=5e-4)
        assert "AC1" in line and "derived through θ̂" in line
    assert "test=" not in text and "--test" not in text


def test_advice_names_the_flag_only_without_test(tmp_path, capsys):
    cal, _ = _files(tmp_path)
    assert main(["agreement", cal, "--by", "model"]) == 0
    text = capsys.readouterr().out
    assert "pass --test FILE to derive them" in text and "test=" not in text
    assert main(["agreement", cal, "--json"]) == 0
    assert "pass --test FILE" in capsys.readouterr().out


def test_errors_name_the_file_that_holds_the_bad_cell(tmp_path, capsys):
    """Issue 38 tour: an empty human cell said "column 'human' must hold 0/1 ... on line 2"
    without the file, and a header-only --test file "human labels is empty". Each error names
    the file (one line, exit 2)."""
    cal = tmp_path / "cal.csv"
    cal.write_text("item,judge,human\n1,1,\n2,0,0\n3,1,1\n")
    good = tmp_path / "good.csv"
    good.write_text("item,judge,human\n1,1,1\n2,0,0\n3,1,1\n4,0,1\n")
    header = tmp_path / "header.csv"
    header.write_text("item,judge,human\n")
    for argv, said in (([str(cal)], f"{cal}: column 'human' must hold 0/1"),
                       ([str(header)], f"{header} has a header but no rows"),
                       ([str(good), "--test", str(header)], f"{header} has a header but no rows"),
                       ([str(good), "--cluster", "prompt"], f"{good} has no column(s) ['prompt']")):  # fmt: skip
        assert main(["agreement", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"judgestats: error: {said}") and len(err.splitlines()) == 1


def _epochs(gen, items: int, k: int, *, copies: bool):
    """Calibration rows of ``items`` items × ``k`` epochs (sensitivity 0.9, specificity 0.85):
    each item's first row copied to its epochs (``copies``), or every row drawn on its own."""
    import numpy as np
    import pandas as pd

    draws = items if copies else items * k
    human = (gen.random(draws) < 0.5).astype(int)
    judge = np.where(human == 1, gen.random(draws) < 0.9, gen.random(draws) < 0.15).astype(int)
    if copies:
        human, judge = np.repeat(human, k), np.repeat(judge, k)
    return pd.DataFrame({"item": np.repeat(np.arange(items), k), "judge": judge,
                         "human": human})  # fmt: skip


def test_agreement_warns_of_repeated_items_as_report_does(capsys, tmp_path):
    """Issue 38, third tour §2: 60 items × 3 identical epochs, ``agreement`` said '180
    calibration items' and nothing on stderr, while ``report`` warned RepeatedItemsWarning on
    the same rows. Now it warns through the one rule (``repeated.repeats_matter``: the design
    effect on θ̂'s calibration part, about 3 for 3 identical epochs (Kish's 1 + (k − 1)ρ with
    ρ = 1), and rows that agree beyond chance), naming the column; with --cluster it is silent
    and the card counts 60 items."""
    import numpy as np

    path = tmp_path / "cal.csv"
    _epochs(np.random.default_rng(38), 60, 3, copies=True).to_csv(path, index=False)
    assert main(["agreement", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "column 'item' identifies items that repeat" in err
    assert "pass --cluster item" in err
    assert float(re.search(r"up to (\d\.\d\d)", err).group(1)) > 2.5  # 3 identical epochs
    assert main(["agreement", str(path), "--cluster", "item"]) == 0
    out = capsys.readouterr()
    assert out.err == "" and "60 calibration items" in out.out


def test_agreement_repeated_items_false_alarms_on_independent_rows_at_most_5_percent(capsys):
    """Ids that repeat over independent rows: the warning in <= 5% of 100 data sets per cell,
    2 grid cells and 2 drawn at random (seed 3840; measured 0 of 100 in each)."""
    import argparse

    import numpy as np

    from judgestats.cli.agreement import _warn_repeated_items

    gen = np.random.default_rng(3840)
    args = argparse.Namespace(cluster=None, categories=False, judge_column="judge",
                              human_column="human", design="by-human-label")  # fmt: skip
    cells = [(40, 2), (150, 4)] + [(int(gen.integers(20, 200)), int(gen.integers(2, 6)))
                                   for _ in range(2)]  # fmt: skip
    for items, k in cells:
        warned = 0
        for _ in range(100):
            _warn_repeated_items(_epochs(gen, items, k, copies=False), args, None)
            warned += bool(capsys.readouterr().err)
        assert warned <= 5, (items, k, warned)
def test_the_card_names_the_plan_command_not_the_api_helpers(tmp_path, capsys):
    """Third tour of issue 38: the text card said "(adjusted-Wald, plan.interval_width, n → ∞)"
    and "(plan.judge_vs_human, m → ∞)", Python names a command-line user cannot call. The
    command's card says ``judgestats plan`` and ``judgestats plan --regime`` (one table of API
    words, ``cli.options.cli_words``); the API's card keeps its names."""
    import judgestats as js

    cal, _ = _files(tmp_path)
    for fmt in ("text", "markdown"):
        assert main(["agreement", cal, "--format", fmt]) == 0
        text = capsys.readouterr().out
        assert "plan.interval_width" not in text and "plan.judge_vs_human" not in text
        assert "adjusted-Wald, judgestats plan, n → ∞" in text
        assert "judgestats plan --regime, m → ∞" in text
    card = js.agreement(js.ConfusionCounts(tp=63, fn=7, tn=40, fp=10))
    assert "plan.interval_width" in card.summary()
