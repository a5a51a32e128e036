"""A new design plugs in by one class and one row of the capability table (issue 37).

The toy ``"stratified-random"`` design (calibration items drawn at random within strata of the
test set, pooled here as one random sample) is a subclass of the random design with its own name
and estimator label, registered with one call, and one capability row. Nothing else in the
package knows it, yet it works through ``js.correct``, ``js.evaluate`` and the report, and gives
the random design's numbers (the estimator is the same; only the name differs).
"""

import numpy as np
import pytest

import judgestats as js
from judgestats.designs import as_design, base, capabilities, register_design
from judgestats.designs.capabilities import Capability, add_capability
from judgestats.designs.random_sample import RandomSample

TEST = js.JudgedCounts(positive=600, n=1000)
CAL = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)


class StratifiedRandom(RandomSample):
    """A toy design: a random calibration sample drawn within strata (pooled)."""

    __slots__ = ()

    name = "stratified-random"
    estimator = "judge-conditional (toy: stratified random sample)"
    reference = "the test suite's toy design"


@pytest.fixture
def toy(monkeypatch):
    """Register the toy design and its row for one test; the registry and table are restored."""
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.setattr(capabilities, "_ROWS", list(capabilities._ROWS))
    design = register_design(StratifiedRandom)  # one class ...
    add_capability(Capability(  # ... and one row
        "letter", "rate", ("stratified-random",), None, ("adjusted-wald", "wald", "auto"),
        "adjusted-wald", "a toy design of the test suite",
    ))  # fmt: skip
    return design


def test_the_toy_design_corrects_like_the_random_design(toy):
    res = js.correct(TEST, CAL, design="stratified-random", method="adjusted-wald")
    ref = js.correct(TEST, CAL, design="random", method="adjusted-wald")
    assert res.design == "stratified-random" and res.design is toy
    assert res.estimator == "judge-conditional (toy: stratified random sample)"
    assert (res.estimate, res.ci.low, res.ci.high) == (ref.estimate, ref.ci.low, ref.ci.high)
    assert "design stratified-random" in res.summary()
    # the table is the one list: a method outside the toy's row is refused by name
    with pytest.raises(js.errors.MethodError, match="available: 'adjusted-wald', 'wald' or 'auto'"):
        js.correct(TEST, CAL, design="stratified-random", method="bayes")
    assert as_design("stratified-random") is toy


def test_the_toy_design_with_repeated_items(toy):
    gen = np.random.default_rng(3)
    items = np.repeat(np.arange(200), 3)
    human = np.repeat(gen.integers(0, 2, 200), 3)
    judge = np.where(gen.random(600) < 0.85, human, 1 - human)
    cal = js.ConfusionCounts.from_labels(human=human[:300], judge=judge[:300], cluster=items[:300])
    test = js.JudgedCounts.from_labels(judge[300:], cluster=items[300:])
    res = js.correct(test, cal, design="stratified-random", method="wald")
    ref = js.correct(test, cal, design="random", method="wald")
    assert res.clusters is not None
    assert (res.ci.low, res.ci.high) == (ref.ci.low, ref.ci.high)


def test_the_toy_design_through_evaluate_and_the_report(toy):
    pd = pytest.importorskip("pandas")
    gen = np.random.default_rng(5)
    rows = []
    for model, rate in (("a", 0.7), ("b", 0.5)):
        human = (gen.random(400) < rate).astype(int)
        judge = np.where(gen.random(400) < 0.85, human, 1 - human)
        label = np.where(np.arange(400) < 120, human.astype(float), np.nan)
        rows.append(pd.DataFrame({"model": model, "judge": judge, "human": label}))
    frame = pd.concat(rows, ignore_index=True)
    ev = js.evaluate(frame, design="stratified-random", method="adjusted-wald")
    ref = js.evaluate(frame, design="random", method="adjusted-wald")
    for g in ev.groups:
        assert ev[g].design == "stratified-random"
        assert (ev[g].ci.low, ev[g].ci.high) == (ref[g].ci.low, ref[g].ci.high)
    text = ev.report("markdown")
    assert "stratified-random" in text
    assert "toy: stratified random sample" in text
