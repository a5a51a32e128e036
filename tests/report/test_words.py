"""The methods sentence and the summary name the estimator a judge alphabet used (report.words)."""

import judgestats as js
from tests.alphabets.test_groups import _score_frame


def test_reports_name_the_estimator_and_the_letters():
    ev = js.evaluate(_score_frame(seed=4).drop(columns="truth"), judge="score", bins=[1, 3, 5])
    assert ev["a"].letters == ("[1, 3)", "[3, 5]")
    text = ev.summary()
    assert "judge alphabet of 'score', joint maximum likelihood over every letter" in text
    assert "profile-likelihood-t" in text and "     –" in text  # no naive rate for bins
    sentence = js.report.methods_sentence(ev)
    assert "joint maximum likelihood over every letter" in sentence
    assert "(2 letters: [1, 3), [3, 5])" in sentence
    md = ev.report(format="markdown")
    assert "joint maximum likelihood over 2 judge letters" in md
    frame = ev.to_dataframe()
    assert frame.loc[0, "estimator"] == "joint maximum likelihood over 2 judge letters"
    assert "sensitivity" not in ev.to_xarray()


def test_one_group_result_reports_itself():
    ev = js.evaluate(_score_frame(seed=11).drop(columns="truth"), judge="score",
                     judge_labels="observed")  # fmt: skip
    text = ev["a"].report("markdown")
    c = ev["a"]
    assert f"| {c.n} | {c.estimate:.3f} | {c.ci.low:.3f}–{c.ci.high:.3f} |" in text
    assert "corrected by joint maximum likelihood over every letter" in text
    assert "(5 letters: 1.0, 2.0, 3.0, 4.0, 5.0)" in text


def test_random_design_reports_name_the_judge_conditional_estimator():
    ev = js.evaluate(_score_frame(seed=16).drop(columns="truth"), judge="score",
                     judge_labels="observed", design="random")  # fmt: skip
    sentence = js.report.methods_sentence(ev)
    assert "judge-conditional (π̂ from all judged items) estimator (design 'random')" in sentence
    assert "joint maximum likelihood" not in sentence
    assert "judge-conditional, design random over every letter" in ev.summary()
