"""``evaluate(..., rater=, reference=)``: several human raters, which human reference (issue 40).

Each reference is checked against an independent computation of the same numbers (the
clustered letter path of ``evaluate``, ``js.correct`` on a majority counted here with numpy,
``js.raters.dawid_skene`` on the code matrix), its errors by name, and its coverage on
simulated cells where its model holds (fast tier; the full table is
``benchmarks/bench_raters_reference.py``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats.errors import (
    ArgumentTypeError,
    DuplicateRatingError,
    LabelError,
    MethodError,
    RatingsError,
    UnidentifiableModelError,
)
from judgestats.evaluate.raters import _Panel, rater_spec


def _simulate(gen, *, n=400, m=150, theta=0.6, acc=(0.9, 0.85, 0.7), judge=(0.85, 0.8),
              present=1.0):  # fmt: skip
    """Truth, judge (sens, spec) and raters of symmetric accuracy; the first m items rated."""
    truth = gen.random(n) < theta
    sens, spec = judge
    said = np.where(truth, gen.random(n) < sens, gen.random(n) > spec).astype(int)
    right = gen.random((m, len(acc))) < np.asarray(acc)
    labels = np.where(right, truth[:m, None], ~truth[:m, None]).astype(int)
    shown = gen.random(labels.shape) < present
    shown[np.arange(m), gen.integers(0, len(acc), m)] = True  # every rated item: one rating
    codes = np.where(shown, labels, -1)
    full = np.full((n, len(acc)), -1)
    full[:m] = codes
    return truth, said, full


def _frame(said, codes, model="m"):
    rows = [(i, f"r{r}", int(codes[i, r]), int(said[i])) for i in range(codes.shape[0])
            for r in range(codes.shape[1]) if codes[i, r] >= 0]  # fmt: skip
    rows += [(i, None, None, int(said[i])) for i in range(codes.shape[0]) if (codes[i] < 0).all()]
    frame = pd.DataFrame(rows, columns=["item", "rater", "human", "judge"])
    frame["model"] = model
    return frame


@pytest.fixture(scope="module")
def data():
    gen = np.random.default_rng(20261129)
    _, said, codes = _simulate(gen, present=0.8)
    return said, codes, _frame(said, codes)


def test_rater_reference_is_the_clustered_letter_path(data):
    """reference='rater' = evaluate(cluster=item) on the same long frame (every rating a row)."""
    _, _, frame = data
    for design in ("random", "by-human-label"):
        ours = js.evaluate(frame, rater="rater", cluster="item", reference="rater", design=design)
        theirs = js.evaluate(frame, cluster="item", design=design)
        assert ours["m"].estimate == pytest.approx(theirs["m"].estimate, abs=1e-12)
        assert tuple(ours["m"].ci) == pytest.approx(tuple(theirs["m"].ci), abs=1e-12)
        assert ours["m"].reference == "rater" and ours.reference == "rater"
        assert ours["m"].n == theirs["m"].n and ours["m"].m1 == theirs["m"].m1


def test_majority_reference_is_correct_on_the_majority_counted_here(data):
    """reference='majority': js.correct on one row per item, the votes counted with numpy."""
    said, codes, frame = data
    ones, votes = (codes == 1).sum(axis=1), (codes >= 0).sum(axis=1)
    keep = (votes >= 2) & (2 * ones != votes)  # ties="none": a tie is left out
    human = 2 * ones[keep] > votes[keep]
    cal = js.ConfusionCounts.from_labels(human=human, judge=said[keep] == 1)
    test = js.JudgedCounts.from_labels(said[votes == 0] == 1)
    expected = js.correct(test, cal, design="random")
    ev = js.evaluate(frame, rater="rater", cluster="item", reference="majority",
                     design="random", ties="none")  # fmt: skip
    res = ev["m"]
    assert res.estimate == pytest.approx(expected.estimate, abs=1e-12)
    assert tuple(res.ci) == pytest.approx(tuple(expected.ci), abs=1e-12)
    assert res.ties == "none" and res.m0 + res.m1 == int(keep.sum())
    rated = int((votes > 0).sum())
    assert len(res.left_out) == rated - int(keep.sum()) > 0
    assert "left out of the majority" in res.notes[0]


def test_majority_ties_random_and_adjudicator(data):
    """ties='random' keeps every item with two raters or more; an adjudicator settles ties."""
    _, codes, frame = data
    votes = (codes >= 0).sum(axis=1)
    ev = js.evaluate(frame, rater="rater", cluster="item", reference="majority",
                     design="random", rng=3)  # fmt: skip
    assert ev["m"].ties == "random" and ev["m"].m0 + ev["m"].m1 == int((votes >= 2).sum())
    one = js.evaluate(frame, rater="rater", cluster="item", reference="majority",
                      design="random", ties="r2", min_raters=1)  # fmt: skip
    ones = (codes == 1).sum(axis=1)
    tied = (2 * ones == votes) & (votes > 0)
    unsettled = int((tied & (codes[:, 2] < 0)).sum())  # r2 did not label these ties
    assert len(one["m"].left_out) == unsettled


def test_latent_reference_is_dawid_skene_with_the_judge(data):
    """reference='latent' = dawid_skene on the code matrix, the judge one more rater."""
    said, codes, frame = data
    fit = js.raters.dawid_skene(np.column_stack([codes, said]),
                                raters=["r0", "r1", "r2", "judge"], judge="judge",
                                method="sandwich")  # fmt: skip
    ev = js.evaluate(frame, rater="rater", cluster="item", reference="latent",
                     design="random", method="sandwich")  # fmt: skip
    res = ev["m"]
    assert res.estimate == pytest.approx(fit.estimate, abs=1e-9)
    assert tuple(res.ci) == pytest.approx(tuple(fit.ci), abs=1e-9)
    assert res.sensitivity == pytest.approx(float(fit.sensitivity[-1]), abs=1e-9)
    assert res.reference == "latent" and "Dawid-Skene" in res.estimator
    row = ev.to_dataframe().iloc[0]
    assert row["reference"] == "latent" and row["method"] == "sandwich"
    assert "human reference 'latent'" in ev.summary()


def test_latent_refused_by_name():
    """The paper's design and too few raters are refused, saying why."""
    gen = np.random.default_rng(5)
    _, said, codes = _simulate(gen, n=200, m=80, acc=(0.9,))
    frame = _frame(said, codes)
    with pytest.raises(MethodError, match="class mix the design set"):
        js.evaluate(frame, rater="rater", cluster="item", reference="latent")
    with pytest.raises(UnidentifiableModelError, match=r"group model='m'.*at least 3"):
        js.evaluate(frame, rater="rater", cluster="item", reference="latent", design="random")
    _, said3, codes3 = _simulate(gen, n=200, m=80)
    both = pd.concat([frame, _frame(said3, codes3, model="n")], ignore_index=True)
    ev = js.evaluate(both, rater="rater", cluster="item", reference="latent",
                     design="random", method="sandwich", errors="mark")  # fmt: skip
    assert ev.groups == ("n",) and "UnidentifiableModelError" in ev.marked["m"]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"reference": "jury"}, Exception, "reference"),
        ({"cluster": None}, ArgumentTypeError, "cluster="),
        ({"strata": "model"}, ArgumentTypeError, "strata is not available with rater="),
        ({"reference": "latent", "design": "random", "method": "auto"}, MethodError,
         "available"),
        ({"reference": "majority", "min_raters": 0}, Exception, "min_raters"),
        ({"reference": "rater", "ties": "none"}, ArgumentTypeError, "ties applies to"),
    ],
)  # fmt: skip
def test_bad_arguments_named(data, kwargs, error, match):
    _, _, frame = data
    call = {"rater": "rater", "cluster": "item", **kwargs}
    with pytest.raises(error, match=match):
        js.evaluate(frame, **call)


def test_bad_frames_named(data):
    """Two judge labels on an item, a label outside 0/1, a rater rating twice differently."""
    _, _, frame = data
    two = frame.copy()
    two.loc[two.index[0], "judge"] = 1 - two.loc[two.index[1], "judge"]
    assert two.loc[two.index[0], "item"] == two.loc[two.index[1], "item"]
    with pytest.raises(RatingsError, match="two judge labels"):
        js.evaluate(two, rater="rater", cluster="item", reference="majority")
    bad = frame.copy()
    bad.loc[bad.index[0], "human"] = 2
    with pytest.raises(LabelError, match="0/1 or bool labels, got 2"):
        js.evaluate(bad, rater="rater", cluster="item")
    dup = pd.concat([frame.iloc[:1], frame], ignore_index=True)
    dup.loc[0, "human"] = 1 - frame.iloc[0]["human"]
    with pytest.raises(DuplicateRatingError, match="rated twice"):
        js.evaluate(dup, rater="rater", cluster="item")


def test_groups_and_engines(data):
    """Two models, polars beside pandas: the same numbers per group."""
    pl = pytest.importorskip("polars")
    said, codes, frame = data
    both = pd.concat([frame, _frame(said, codes, model="n")], ignore_index=True)
    a = js.evaluate(both, rater="rater", cluster="item", reference="majority", design="random",
                    rng=1)  # fmt: skip
    b = js.evaluate(pl.from_pandas(both), rater="rater", cluster="item", reference="majority",
                    design="random", rng=1)  # fmt: skip
    assert a.groups == b.groups == ("m", "n") and b.engine == "polars"
    assert a["m"].estimate == pytest.approx(b["m"].estimate, abs=1e-12)


# ============================================================================ coverage
def _truths(theta, acc, sens_spec=None):
    """Each reference's true rate (three raters, every item rated by all three)."""
    acc = np.asarray(acc)
    rater = float(theta * acc.mean() + (1 - theta) * (1 - acc).mean())
    # majority of three: P(at least two say 1 | class), by enumeration
    def at_least_two(p):
        p = np.asarray(p)
        return (p[0] * p[1] + p[0] * p[2] + p[1] * p[2] - 2 * p.prod())

    majority = float(theta * at_least_two(acc) + (1 - theta) * at_least_two(1 - acc))
    return {"rater": rater, "majority": majority, "latent": theta}


def _covered(reference, cells, reps, seed, method):
    from judgestats.evaluate.raters import _REFERENCE

    gen = np.random.default_rng(seed)
    hits = []
    for theta, acc, m in cells:
        truth = _truths(theta, acc)[reference]
        spec, own = rater_spec(reference, design="random", method=method,
                               confidence_level=0.95, estimand="rows", options={})  # fmt: skip
        for _ in range(reps):
            _, said, codes = _simulate(gen, n=3 * m, m=m, theta=theta, acc=acc)
            panel = _Panel(tuple(range(3 * m)), said, codes, ("r0", "r1", "r2"))
            res = _REFERENCE[reference](panel, spec, own, gen)
            hits.append(res.ci.low <= truth <= res.ci.high)
    return float(np.mean(hits)), len(hits)


@pytest.mark.filterwarnings("ignore::judgestats.errors.DesignWarning")  # its own rate: p < 0.01
@pytest.mark.parametrize(("reference", "method"),
                         [("rater", None), ("majority", None), ("latent", "sandwich")])
def test_coverage_on_random_cells(reference, method):
    """Coverage ≥ 0.93 within binomial error on cells drawn at random where the model holds.

    Cells: θ ~ U(0.2, 0.8), rater accuracies ~ U(0.7, 0.95), 150–300 rated items of 450–900,
    judge sensitivity 0.85 and specificity 0.8 conditionally independent of the raters (the
    latent model's assumption; the rater and majority references need only the random
    design). 4 cells × 60 data sets (latent: × 40; seed 40); the full table (6 grid and 8
    random cells, 400 data sets each) is ``benchmarks/results/raters_reference.md``. 160 data
    sets at true coverage 0.95 fall below 0.90 with probability < 0.3%.
    """
    gen = np.random.default_rng(40)
    cells = [(gen.uniform(0.2, 0.8), gen.uniform(0.7, 0.95, 3), int(gen.integers(150, 301)))
             for _ in range(4)]  # fmt: skip
    reps = 40 if reference == "latent" else 60  # the EM fit costs ~10x a correction
    cover, size = _covered(reference, cells, reps, 41, method)
    assert size == 4 * reps
    assert cover >= 0.90, cover
