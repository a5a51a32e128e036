"""The judge sections of a report: a judge score (PPI++) and a jury (issue 39)."""

import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats.report import report
from judgestats.report.judges import judge_sections


def _frame(n: int = 3000, labelled: float = 0.2, seed: int = 0) -> pd.DataFrame:
    """Two models, a probability-like score and two 0/1 judges of one hidden human label."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    score = 1 / (1 + np.exp(-(2 * (2 * y - 1) + rng.normal(0, 1.5, n))))
    a = np.where(y, rng.random(n) < 0.9, rng.random(n) < 0.2).astype(int)
    b = np.where(y, rng.random(n) < 0.8, rng.random(n) < 0.3).astype(int)
    lab = rng.random(n) < labelled
    return pd.DataFrame({"model": np.where(np.arange(n) % 2 == 0, "x", "y"), "score": score,
                         "a": a, "b": b, "human": np.where(lab, y, np.nan)})  # fmt: skip


@pytest.fixture(scope="module")
def score_ev():
    return js.evaluate(_frame(), judge="score", design="random", rng=0)


def _section(text: str, title: str) -> list[str]:
    """The Markdown table rows of a section (after its heading)."""
    part = text.split(f"### {title}\n", 1)[1].split("\n### ", 1)[0]
    return [line for line in part.splitlines() if line.startswith("| ")]


def test_score_section_states_effective_labels_from_the_variance(score_ev):
    text = report(score_ev, "markdown")
    rows = {r.split(" | ")[0][2:]: r.split(" | ") for r in _section(text, "Judge score")[1:]}
    for g in ("x", "y"):
        c = score_ev.corrections[g]
        # effective labels = θ̂(1 − θ̂)/Var(θ̂), computed here from the result's own fields
        worth = c.estimate * (1 - c.estimate) / c.variance
        ratio = np.sqrt(c.variance / c.humans_only_variance)
        cells = rows[g]
        assert cells[1] == str(c.n_labelled) and cells[2] == "isotonic" and cells[3] == "5"
        assert cells[4] == f"{c.lam:.2f}" and cells[5] == "–"
        assert cells[6] == f"{worth:.0f}" and cells[7].rstrip(" |") == f"{ratio:.2f}"
        assert worth > c.n_labelled  # an informative score: the labels are worth more
    sentence = text.split("## ", 2)[1]
    assert "prediction-powered mean of the judge's score 'score'" in sentence
    assert "Angelopoulos, Duchi & Zrnic, 2023" in sentence and "Lee et al." not in sentence
    assert "### Judge agreement" not in text  # a score has no judge × human table


def test_score_report_of_one_result_says_what_the_labels_are_worth(score_ev):
    c = score_ev.corrections["x"]
    text = report(c, "markdown")
    assert (f"these {c.n_labelled} labels are worth {c.effective_labels:.0f} human labels alone"
            in text)  # fmt: skip
    assert "| labelled | calibrator |" in text  # no label column for one result


def test_score_fallback_is_named_in_the_section_and_the_notes():
    frame = _frame(n=1500, labelled=0.04, seed=1)  # about 30 labelled rows per model
    ev = js.evaluate(frame, judge="score", design="random", rng=0, threshold=0.5)
    text = report(ev, "markdown")
    for cells in (r.split(" | ") for r in _section(text, "Judge score")[1:]):
        assert cells[2] == "–" and cells[4] == "–"  # no calibrator, no λ̂: the letter answered
        assert cells[5].startswith("the letter score > 0.5")
    assert "| fallback |" in text.split("### Judge score")[0]  # the row's tag
    assert "fallback: the letter score > 0.5" in text.split("**Notes**")[1]


def test_score_section_in_latex_and_html(score_ev):
    latex = report(score_ev, "latex")
    assert r"\caption{Judge score}" in latex and r"$\hat{\lambda}$" in latex
    assert "λ" not in latex
    page = report(score_ev, "html")
    assert '<h2 id="judge-score">Judge score</h2>' in page


def test_jury_section_weights_and_each_judges_agreement():
    frame = _frame()
    ev = js.evaluate(frame, judge=["a", "b"], design="by-human-label",
                     confidence_level=0.9)  # fmt: skip
    text = report(ev, "markdown")
    rows = [r.split(" | ") for r in _section(text, "Jury")[1:]]
    assert [r[0][2:] + "/" + r[1].split(" ")[0] for r in rows] == ["y/a", "y/b", "x/a", "x/b"]
    for g in ("x", "y"):
        c = ev.corrections[g]
        mine = [r for r in rows if r[0][2:] == g]
        assert sum(float(r[2]) for r in mine) == pytest.approx(1.0, abs=2e-3)
        cal = frame[(frame["model"] == g) & frame["human"].notna()]
        for r in mine:
            judge = r[1].split(" ")[0]
            assert r[2] == f"{c.weights[judge]:.3f}"
            # sensitivity counted here from the frame's calibration rows
            pos = cal[cal["human"] == 1]
            assert r[5].startswith(f"{(pos[judge] == 1).mean():.3f} [")
            assert ("(better)" in r[1]) == (judge == c.better)
    assert "90% adjusted-Wald interval" in text and "90% CI alone" in text


def test_no_judge_section_for_a_plain_correction():
    res = js.correct(js.JudgedCounts(positive=600, n=1000),
                     js.ConfusionCounts(tp=180, fn=20, tn=140, fp=60),
                     method="adjusted-wald", confidence_level=0.95)  # fmt: skip
    assert judge_sections(res, [""], None) == []
    assert "### Judge score" not in report(res, "markdown")


def test_html_judge_sections_align_text_left():
    ev = js.evaluate(_frame(), judge=["a", "b"], design="by-human-label")
    page = report(ev, "html")
    jury = page.split('<h2 id="jury">Jury</h2>', 1)[1].split("</table>", 1)[0]
    assert '<th scope="col" style="text-align: left">judge</th>' in jury
    assert '<th scope="col">weight</th>' in jury  # numbers keep the page's right alignment


# ----------------------------------------------------------------------------- combined juries
@pytest.fixture(scope="module")
def mean_ev():
    """A 'mean' jury under the paper's design: the J + 1 letters through the J × K model."""
    return js.evaluate(_frame(), judge=["a", "b"], by="model", combine="mean",
                       design="by-human-label", rng=0)  # fmt: skip


def test_report_renders_a_mean_jury_under_the_paper_design(mean_ev):
    """It was refused (ArgumentTypeError: kind 'combined-jury'); now its letters and fit show."""
    c = mean_ev.corrections["x"]
    assert type(c).kind == "combined-jury" and c.letters == ("0/2", "1/2", "2/2")
    text = report(mean_ev, "markdown")
    assert "every letter of the 2 judges' mean (a, b; combine='mean') (3 letters: 0/2, 1/2, " \
           "2/2)" in text  # fmt: skip
    head = text.split("\n### ")[0].split("\n")  # the rates' table, before the sections
    table = {r.split(" | ")[0][2:]: r.split(" | ") for r in head
             if r.startswith(("| x |", "| y |")) and r.count("|") == 7}  # fmt: skip
    for g in ("x", "y"):  # the main table's cells are the API result's, at 3 decimals
        c = mean_ev.corrections[g]
        assert table[g][2] == f"{c.estimate:.3f}"
        assert table[g][3] == f"{c.ci.low:.3f}–{c.ci.high:.3f}"
    # the agreement table is the alphabet's fit's: each letter's count per human class
    cal = mean_ev.corrections["x"].inner.distribution.calibration
    cells = {lab: (int(cal.counts[j, 0]), int(cal.counts[j, 1]))  # judge letter × human
             for j, lab in enumerate(cal.judge_labels)}  # fmt: skip
    agreement = next(r for r in _section(text, "Judge agreement") if r.startswith("| x |"))
    assert all(f"{lab}: {h0} / {h1}" in agreement for lab, (h0, h1) in cells.items())
    rows = _section(text, "Jury")
    assert rows[0].split(" | ")[1:4] == ["judge", "combine", "weight"]
    for row in rows[1:]:
        g, name, combine, weight, sens, spec = row[2:-2].split(" | ")
        card = mean_ev.corrections[g].agreement()[name]
        assert (combine, weight) == ("mean", "0.500")  # the mean: each judge counts 1/J
        assert sens == card.sensitivity.text(3, short=True)
        assert spec == card.specificity.text(3, short=True)
    assert len(rows) == 1 + 2 * 2


def test_report_shows_the_stack_coefficients_and_who_carries_the_weight():
    """The random design's default jury is the stack: its coefficients in the Jury section."""
    ev = js.evaluate(_frame(), judge=["a", "b"], by="model", design="random", rng=0)
    c = ev.corrections["x"]
    assert c.combine == "stack" and c.calibrator == "logistic"
    text = report(ev, "markdown")
    assert "the jury's predictor (combine='stack' of a, b)" in text
    assert [r.split(" | ")[2] for r in _section(text, "Judge score")[1:]] == ["logistic"] * 2
    rows = {tuple(r[2:].split(" | ")[:2]): r.split(" | ") for r in _section(text, "Jury")[1:]}
    for g in ("x", "y"):
        c = ev.corrections[g]
        lead = max(c.coefficients, key=c.coefficients.get)
        for name, beta in c.coefficients.items():
            shown = name + (" (carries the weight)" if name == lead else "")
            assert rows[(g, shown)][3] == f"{beta:+.3f}"
        assert rows[(g, "(intercept)")][3] == f"{c.intercept:+.3f}"
    for fmt in ("html", "latex"):  # every format writes the section and its numbers
        out = report(ev, fmt)
        assert f"{ev.corrections['x'].coefficients['a']:+.3f}" in out


def test_report_of_one_combined_jury_names_its_combine():
    """A single CombinedJuryCorrection (correct_combined) under the paper's design."""
    f = _frame()
    res = js.jury.correct_combined({"a": f["a"], "b": f["b"]}, f["human"], combine="mean",
                                   design="by-human-label", rng=0)  # fmt: skip
    text = report(res, "markdown")
    assert f"is {res.estimate:.2f} (95% CI {res.ci.low:.2f}–{res.ci.high:.2f})" in text
    assert "### Jury" in text and "combine='mean'" in text
