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


def test_every_method_of_the_commands_has_words_and_every_word_a_method():
    """Issue 37: what reports call a method lives beside the capability table, and stays in step.

    Every method the ``correct`` and ``report`` commands offer (the table's rows of their
    paths) is named in words (``adjusted-delta``, the k-category delta method, by its name);
    every method with words is one of the table's; every ranking method says what its draws are.
    """
    from judgestats.cli.options import method_choices
    from judgestats.designs import capabilities

    offered = set(method_choices()) - {"adjusted-delta"}
    assert offered <= set(capabilities._METHOD_WORDS)
    assert set(capabilities._METHOD_WORDS) <= {m for r in capabilities.rows() for m in r.methods}
    ranking = {m for r in capabilities.rows() if r.target == "ranking" for m in r.methods}
    assert all(capabilities.ranking_draws(m) != m for m in ranking)
    assert capabilities.method_words("a-users-method") == "a-users-method"


def test_a_new_design_is_described_by_its_attributes(monkeypatch):
    """Issue 37: the methods sentence and notes ask the design (its family's voice, its words).

    The toy random-sample design of tests/designs/test_new_design.py is described as a random
    sample of the evaluated items (``calibration_samples_test``), with its own name and
    reference, in the judge-conditional family's words.
    """
    from judgestats.designs import base, capabilities, register_design
    from judgestats.designs.capabilities import Capability, add_capability
    from tests.designs.test_new_design import CAL, TEST, StratifiedRandom

    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.setattr(capabilities, "_ROWS", list(capabilities._ROWS))
    register_design(StratifiedRandom)
    add_capability(Capability("letter", "rate", ("stratified-random",), False,
                              ("adjusted-wald", "wald"), "adjusted-wald"))  # fmt: skip
    res = js.correct(TEST, CAL, design="stratified-random", method="wald")
    sentence = js.report.methods_sentence(res)
    assert "a random sample of the evaluated items, so the judge's labels of all 1200" in sentence
    assert ("(judge-conditional estimator, design 'stratified-random': the test suite's toy "
            "design;") in sentence
    ref = js.report.methods_sentence(js.correct(TEST, CAL, design="random", method="wald"))
    assert sentence.replace("stratified-random", "random").replace(
        "the test suite's toy design", js.designs.as_design("random").reference) == ref
    assert js.report.report_notes(res) == js.report.report_notes(
        js.correct(TEST, CAL, design="random", method="wald"))


# ------------------------------------------- design effects in the methods sentence (issue 38)
def _undefined_and_repeated_frame():
    """Model a: a perfect judge that judges every test row 1 (every rate 0 or 1: the design
    effect on θ̂ is 0/0, undefined); model b: 60 items of 3 rows sharing the item's truth."""
    import numpy as np
    import pandas as pd

    rows = []
    for i in range(40):
        lab = i < 16
        y = i % 2 if lab else 1
        rows += [("a", f"a{i}", y, float(y) if lab else np.nan)] * 2
    g = np.random.default_rng(5)
    for i in range(60):
        y, lab = int(g.integers(0, 2)), i < 25
        for _ in range(3):
            rows.append(("b", f"b{i}", y if g.random() < 0.8 else 1 - y,
                         float(y) if lab else np.nan))  # fmt: skip
    return pd.DataFrame(rows, columns=["model", "item", "judge", "human"])


def _methods(ev):
    return next(s for s in ev.report("markdown").splitlines() if "counting repeated" in s)


def test_an_undefined_design_effect_is_not_printed_as_a_number():
    """Second tour of issue 38: the methods sentence said "design effect nan" (one group) and
    "design effect –" (a NaN beside a defined one). Now the defined ones are spanned, "where
    defined", and a sentence of undefined ones says so."""
    import math
    import warnings

    frame = _undefined_and_repeated_frame()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = js.evaluate(frame, by="model", cluster="item", method="adjusted-wald")
        one = js.evaluate(frame[frame["model"] == "a"], by="model", cluster="item",
                          method="adjusted-wald")  # fmt: skip
    assert math.isnan(ev["a"].clusters.theta_design_effect)
    b = ev["b"].clusters.theta_design_effect  # 1.46: the delta method, repeated.py
    text = _methods(ev)
    assert f"design effect {b:.2f} on the estimate's variance where defined" in text
    assert "nan" not in text and "design effect –" not in text
    text = _methods(one)
    assert "the design effect on the estimate's variance is undefined here" in text
    assert "nan" not in text


def test_a_design_effect_below_1_is_said_to_be_one():
    """Second tour of issue 38: items with a test row and a calibration row (NQ-301, 20% of
    each model's items labelled and also left among the test rows) give design effects
    below 1 (0.68-0.79 on the tour's file), which the sentence printed bare."""
    import warnings

    import numpy as np
    import pandas as pd

    nq = js.datasets.load_nq301().rename(columns={"target_model": "model"})
    nq = nq[nq["model"].isin(["DPR", "FiD", "EviGen"])][["model", "item_id", "judge", "human"]]
    g = np.random.default_rng(38)
    cal = nq[g.random(len(nq)) < 0.2]
    frame = pd.concat([nq.assign(human=np.nan), cal], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = js.evaluate(frame, by="model", cluster="item_id", method="adjusted-wald")
    effects = [ev[m].clusters.theta_design_effect for m in ev.groups]
    assert max(effects) < 1  # the repeats span test and calibration
    text = _methods(ev)
    lo, hi = f"{min(effects):.2f}", f"{max(effects):.2f}"
    assert f"design effect {lo}–{hi} on the estimate's variance; below 1: counted by item " \
           "the estimate varies less than over as many independent rows" in text
