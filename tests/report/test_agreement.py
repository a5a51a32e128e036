"""The judge-agreement section of reports (issue 30 §2: the card "in reports beside the corrected
rates"): each group's judge × human table and sensitivity/specificity with Clopper–Pearson
intervals, computed here independently from the counts (scipy's beta quantiles)."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import judgestats as js
from judgestats.evaluate import GroupCounts


def _clopper_pearson(x, n, level=0.95):
    a = 1 - level
    low = 0.0 if x == 0 else stats.beta.ppf(a / 2, x, n - x + 1)
    high = 1.0 if x == n else stats.beta.ppf(1 - a / 2, x + 1, n - x)
    return low, high


def _frame(seed=3, models=("a", "b", "c"), rows=300, labelled=120):
    gen = np.random.default_rng(seed)
    out = []
    for m, q in zip(models, (0.9, 0.8, 0.7), strict=False):
        h = gen.integers(0, 2, rows)
        j = np.where(gen.random(rows) < q, h, 1 - h)
        out.append(pd.DataFrame({"model": m, "judge": j, "stratum": np.arange(rows) % 2,
                                 "human": np.where(np.arange(rows) < labelled, h, np.nan)}))
    return pd.concat(out, ignore_index=True)


def _evaluate(frame, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", js.WeakCalibrationWarning)
        return js.evaluate(frame, **kw)


def _section(md):
    """Header and rows of the Markdown report's agreement table."""
    lines = md.split("### Judge agreement", 1)[1].splitlines()
    table = [ln for ln in lines if ln.startswith("|")]
    table = table[: next((i for i, ln in enumerate(table[1:], 1) if not ln), len(table))]
    cells = [[c.strip() for c in ln.strip("|").split("|")] for ln in table]
    return cells[0], cells[2:]


def test_markdown_agreement_rows_match_the_counts_and_exact_intervals():
    frame = _frame()
    ev = _evaluate(frame)
    head, rows = _section(ev.report())
    assert head == ["model", "m", "TP", "FN", "FP", "TN", "sensitivity (95% CI)",
                    "specificity (95% CI)"]  # fmt: skip
    assert [r[0] for r in rows] == sorted(ev.groups, key=lambda g: -ev[g].estimate)  # report order
    for r in rows:
        cal = frame[(frame.model == r[0]) & frame.human.notna()]
        h, j = cal.human.astype(int).to_numpy(), cal.judge.to_numpy()
        tp, fn = int(((h == 1) & (j == 1)).sum()), int(((h == 1) & (j == 0)).sum())
        fp, tn = int(((h == 0) & (j == 1)).sum()), int(((h == 0) & (j == 0)).sum())
        assert r[1:6] == [str(len(cal)), str(tp), str(fn), str(fp), str(tn)]
        for cell, x, n in ((r[6], tp, tp + fn), (r[7], tn, tn + fp)):
            est, low, high = (float(v) for v in re.findall(r"\d\.\d+", cell))
            lo, hi = _clopper_pearson(x, n)
            assert est == pytest.approx(x / n, abs=5e-4)
            assert (low, high) == pytest.approx((lo, hi), abs=5e-4)


def test_latex_and_html_carry_the_same_rows():
    ev = _evaluate(_frame())
    _, rows = _section(ev.report())
    tex = ev.report("latex")
    assert r"\caption{Judge agreement}" in tex and tex.count(r"\begin{tabular}") == 2
    for r in rows:
        assert " & ".join(r) + r" \\" in tex
    page = ev.report("html", figure=False)
    assert '<h2 id="agreement">Judge agreement</h2>' in page
    for r in rows:
        assert "".join(f"<td>{v}</td>" for v in r[1:]) in page


def test_a_shared_calibration_table_is_one_row_and_strata_are_added():
    cells = {(f"g{i}",): np.array([30, 30, 125, 5, 5, 125, 0, 0, 0]) for i in range(5)}
    ev = _evaluate(GroupCounts(("model",), (), cells, "judge", "human", None, "numpy"))
    md = ev.report()
    _, rows = _section(md)
    # cells: test judged 1 / 0, then tp, fn, fp, tn (GroupCounts' binary layout)
    assert rows == [["all 5 groups", "260", "125", "5", "5", "125",
                     "0.962 [0.913, 0.987]", "0.962 [0.913, 0.987]"]]  # fmt: skip
    assert "All 5 groups have the same calibration table" in md
    lo, hi = _clopper_pearson(125, 130)
    assert (round(lo, 3), round(hi, 3)) == (0.913, 0.987)
    frame = _frame()
    strat = _evaluate(frame, strata="stratum", method="wald")
    _, srows = _section(strat.report())
    _, plain = _section(_evaluate(frame).report())
    assert sorted(srows) == sorted(plain)  # the strata's tables added: the group's table
    assert "Each row adds the tables of the group's strata." in strat.report()


def test_a_stratified_correction_lists_each_stratum_and_the_pooled_card():
    frame = _frame()
    part = frame[frame.model == "a"]
    ev = _evaluate(part, strata="stratum", method="wald")
    _, rows = _section(ev["a"].report(strata_name="stratum"))
    assert [r[0] for r in rows] == ["0", "1", "pooled"]
    assert int(rows[0][1]) + int(rows[1][1]) == int(rows[2][1]) == 120
    assert [int(rows[0][k]) + int(rows[1][k]) for k in range(2, 6)] == [int(v) for v in
                                                                        rows[2][2:6]]


def test_repeated_items_give_effective_size_intervals():
    gen = np.random.default_rng(5)
    items, k = 150, 3
    y = np.repeat(gen.random(items) < 0.5, k)
    judge = np.repeat(np.where(y[::k], gen.random(items) < 0.85, gen.random(items) < 0.2), k)
    lab = np.repeat(gen.random(items) < 0.5, k)
    frame = pd.DataFrame({"model": "m", "item": np.repeat(np.arange(items), k),
                          "judge": judge.astype(int),
                          "human": np.where(lab, y.astype(float), np.nan)})  # fmt: skip
    ev = _evaluate(frame, cluster="item")
    md = ev.report()
    head, rows = _section(md)
    assert head[:4] == ["model", "m", "items", "TP"] and rows[0][2] == str(int(lab[::k].sum()))
    assert "Items repeat: the intervals are taken at the effective sizes" in md
    card = js.agreement(ev["m"].calibration)
    assert rows[0][-2] == card.sensitivity.text(3, short=True)
    # every item repeats its verdict 3 times: the interval is wider than the rows' one
    naive = js.agreement(js.ConfusionCounts(tp=ev["m"].calibration.tp, fn=ev["m"].calibration.fn,
                                            tn=ev["m"].calibration.tn, fp=ev["m"].calibration.fp))
    assert card.sensitivity.ci.high - card.sensitivity.ci.low > 1.3 * (
        naive.sensitivity.ci.high - naive.sensitivity.ci.low)
    once = _evaluate(frame.drop_duplicates("item"), cluster="item").report()  # one row per item
    assert "Items repeat" not in once and _section(once)[0][2] == "TP"


def test_2000_distinct_groups_keep_the_html_small():
    gen = np.random.default_rng(11)
    cells = {(f"g{i:04d}",): np.array([30, 30, 125, *gen.integers(2, 9, 2), 125, 0, 0, 0])
             for i in range(2000)}  # fmt: skip
    for v in cells.values():
        v[5] = 130 - v[4]
        v[2] = 35 - v[3] + 95
    ev = _evaluate(GroupCounts(("model",), (), cells, "judge", "human", None, "numpy"))
    page = ev.report("html")
    assert "all 2000 groups" not in page and page.count("<tr>") >= 2000 + 2000
    assert len(page) < 1_500_000


def test_a_judge_that_does_not_shorten_the_interval_is_tagged_so():
    """The random design's notes (``chance.py``) had no tag and showed as 'undefined draws'."""
    from pathlib import Path

    frame = js.readers.read_lm_eval(Path(__file__).parents[1] / "data" / "readers" / "lm_eval",
                                    scorer="judge_correct")  # fmt: skip
    labelled = frame["item"].astype(int) < 20
    tags = {"the judge does not shorten the interval": "judge does not help",
            "the judge is too close to chance": "judge near chance"}
    seen = set()
    for seed in range(40):  # humans disagreeing with the judge on a random 15% of rows
        flip = np.random.default_rng(seed).random(len(frame)) < 0.15
        human = np.where(flip, 1 - frame["judge"], frame["judge"])
        md = _evaluate(frame.assign(human=np.where(labelled, human, np.nan)),
                       design="random", errors="mark").report()  # fmt: skip
        assert "undefined draws" not in md
        for line in md.splitlines():
            for start, tag in tags.items():
                if line.startswith("- ") and start in line:
                    model = line[2:9]  # dummy-a / dummy-b
                    row = next(r for r in md.splitlines() if r.startswith(f"| {model} |"))
                    assert tag in row.split("|")[-2]
                    seen.add(tag)
    assert seen == set(tags.values())


def test_a_judge_alphabet_shows_each_letters_counts_per_human_class():
    gen = np.random.default_rng(2)
    h = gen.integers(0, 2, 400)
    score = np.clip(np.round(1 + 3 * h + gen.normal(0, 1, 400)), 1, 5).astype(int)
    frame = pd.DataFrame({"model": "a", "judge": score,
                          "human": np.where(np.arange(400) < 200, h, np.nan)})  # fmt: skip
    ev = _evaluate(frame, judge_labels="observed")
    head, rows = _section(ev.report())
    assert head == ["model", "m", "judge letter: human 0 / human 1"]
    table = pd.crosstab(score[:200], h[:200])  # letters × human class, counted here
    assert rows == [["a", "200", "; ".join(f"{a}: {table.loc[a, 0]} / {table.loc[a, 1]}"
                                           for a in table.index)]]  # fmt: skip
