"""covariates= on correct_scores: the random design's predictor, the other designs' strata.

The full study (coverage and width, informative and useless covariates, a grid of cells drawn
at random) is benchmarks/bench_scores.py, part 4 (benchmarks/results/scores.md).
"""

from __future__ import annotations

import numpy as np
import pytest

import judgestats as js
from judgestats.errors import ArgumentTypeError, LabelError, MethodError
from judgestats.scores import correct_scores
from judgestats.scores.covariates import MAX_LEVELS, covariate_matrix, covariate_strata


def _letter_data(rng, n, n_lab, *, informative=True):
    """A 0/1 judge whose error depends on a category (and a useless length)."""
    y = rng.random(n) < 0.4
    kind = rng.choice(np.array(["chat", "code", "math"]), n)
    # the judge says 1 far too often on "code" and too rarely on "math"
    p1 = np.where(y, 0.85, 0.1)
    if informative:
        p1 = np.where(kind == "code", np.where(y, 0.95, 0.6), p1)
        p1 = np.where(kind == "math", np.where(y, 0.4, 0.02), p1)
    letter = (rng.random(n) < p1).astype(float)
    length = rng.integers(20, 900, n)
    human = np.full(n, np.nan)
    lab = rng.choice(n, n_lab, replace=False)
    human[lab] = y[lab]
    return letter, human, kind, length, float(y.mean())


def test_covariate_matrix_codes_numbers_and_categories():
    cols = {"length": np.array([10, 20, 30]), "kind": np.array(["b", "a", "c"])}
    matrix, names = covariate_matrix(cols)
    assert names == ["length", "kind=b", "kind=c"]
    np.testing.assert_array_equal(matrix, [[10, 1, 0], [20, 0, 0], [30, 0, 1]])


def test_a_constant_covariate_changes_nothing():
    """A covariate with one value carries nothing: the fit equals calibrator='logistic' alone
    (same folds, same seed) to rounding: the constant column is dropped."""
    rng = np.random.default_rng(11)
    letter, human, _, _, _ = _letter_data(rng, 3000, 400)
    s = letter + rng.normal(0, 0.3, letter.size)
    alone = correct_scores(s, human, calibrator="logistic", rng=5)
    same = correct_scores(s, human, covariates={"k": np.full(s.size, 3.0)}, rng=5)
    assert same.covariates_used_as == "predictor" and same.calibrator == "logistic"
    assert same.estimate == pytest.approx(alone.estimate, abs=1e-9)
    assert same.variance == pytest.approx(alone.variance, rel=1e-7)


def test_an_informative_category_narrows_a_letters_interval():
    """The letter's error depends on the category (seeded cell, 40 data sets, 500 of 4,000
    labelled): the letter plus the category gives a mean width <= 0.975× the letter alone's
    (measured 0.957; a covariate carrying nothing gives 1.00 ± 0.01, part 4 of
    benchmarks/results/scores.md)."""
    rng = np.random.default_rng(3904)
    ratios = []
    for _ in range(40):
        letter, human, kind, _, _ = _letter_data(rng, 4000, 500)
        with_kind = correct_scores(letter, human, covariates={"kind": kind}, rng=rng)
        alone = correct_scores(letter, human, calibrator="logistic", rng=rng)
        ratios.append(with_kind.ci.width / alone.ci.width)
    assert np.mean(ratios) <= 0.975


def test_coverage_with_covariates_fast_tier():
    """200 data sets, cells drawn at random (n 1,000–4,000, 150–500 labels, informative or
    useless covariates): the interval holds θ in >= 0.92 of them (0.95 − 2 s.e. at 200).
    Seed 3905."""
    rng = np.random.default_rng(3905)
    hits = 0
    for r in range(200):
        n = int(rng.integers(1000, 4001))
        letter, human, kind, length, truth = _letter_data(
            rng, n, int(rng.integers(150, 501)), informative=bool(r % 2))
        res = correct_scores(letter, human, covariates={"kind": kind, "length": length},
                             rng=rng)
        hits += res.ci.low <= truth <= res.ci.high
    assert hits / 200 >= 0.92


def test_strata_under_by_human_label_equal_correct_stratified():
    """Under by-human-label the covariate is strata: the answer is correct_stratified's on
    counts built independently here."""
    rng = np.random.default_rng(3906)
    n = 3000
    y = rng.random(n) < 0.35
    kind = rng.choice(np.array(["a", "b"]), n)
    letter = np.where(rng.random(n) < np.where(kind == "a", 0.9, 0.75), y, ~y).astype(int)
    human = np.full(n, np.nan)
    for cls in (0, 1):  # by-human-label: 150 of each class
        human[rng.choice(np.flatnonzero(y == cls), 150, replace=False)] = cls
    res = correct_scores(letter, human, covariates={"kind": kind}, design="by-human-label")
    lab = ~np.isnan(human)
    tests = {k: js.JudgedCounts(n=int(((kind == k) & ~lab).sum()),
                                positive=int(letter[(kind == k) & ~lab].sum()))
             for k in ("a", "b")}
    cals = {}
    for k in ("a", "b"):
        m = (kind == k) & lab
        h, j = human[m].astype(int), letter[m]
        cals[k] = js.ConfusionCounts(tp=int(((h == 1) & (j == 1)).sum()),
                                     fn=int(((h == 1) & (j == 0)).sum()),
                                     tn=int(((h == 0) & (j == 0)).sum()),
                                     fp=int(((h == 0) & (j == 1)).sum()))
    ref = js.correct_stratified(tests, cals, design="by-human-label")
    assert res.covariates_used_as == "strata" and res.covariates == ("kind",)
    assert res.estimate == pytest.approx(ref.estimate, abs=1e-12)
    assert (res.ci.low, res.ci.high) == pytest.approx((ref.ci.low, ref.ci.high), abs=1e-12)
    assert "strata" in res.summary()


def test_a_continuous_covariate_as_strata_needs_declared_bins():
    rng = np.random.default_rng(1)
    length = rng.integers(0, 1000, 500)
    with pytest.raises(ArgumentTypeError, match=r"covariate 'length' has \d+ distinct"):
        covariate_strata({"length": length})
    strata = covariate_strata({"length": length}, {"length": [0, 300, 1000]})
    assert set(strata.tolist()) == {"[0, 300)", "[300, 1000]"}
    assert np.unique(rng.integers(0, MAX_LEVELS, 100)).size <= MAX_LEVELS
    with pytest.raises(LabelError, match="outside its declared bins"):
        covariate_strata({"length": length}, {"length": [0, 10]})


def test_refusals_name_the_argument():
    rng = np.random.default_rng(2)
    letter, human, kind, length, _ = _letter_data(rng, 1000, 200)
    with pytest.raises(ArgumentTypeError, match="calibrator='isotonic' calibrates the score"):
        correct_scores(letter, human, covariates={"kind": kind}, calibrator="isotonic")
    with pytest.raises(ArgumentTypeError, match="covariate 'kind' must be 1-D"):
        correct_scores(letter, human, covariates={"kind": kind[:10]})
    with pytest.raises(LabelError, match="covariate 'x' has 1 missing"):
        correct_scores(letter, human, covariates={"x": np.r_[np.nan, np.ones(999)]})
    with pytest.raises(ArgumentTypeError, match="covariate_bins= bins covariates used as strata"):
        correct_scores(letter, human, covariates={"length": length},
                       covariate_bins={"length": [0, 1000]})
    with pytest.raises(MethodError, match="covariates= are strata of a 0/1 judge letter"):
        correct_scores(letter + 0.5, human, covariates={"kind": kind}, design="by-judge-label")
    with pytest.raises(ArgumentTypeError, match="covariates must be"):
        correct_scores(letter, human, covariates="kind")


def test_fallback_says_covariates_were_not_used():
    rng = np.random.default_rng(3)
    letter, human, kind, _, _ = _letter_data(rng, 1000, 60)
    res = correct_scores(letter, human, covariates={"kind": kind}, threshold=0.5)
    assert res.fallback.endswith("covariates not used") and res.covariates_used_as is None


def test_each_fold_keeps_the_nested_model_with_the_lowest_bic():
    """A covariate of pure noise: every fold keeps the score alone (a useless column gains a
    χ²₁ deviance, above BIC's log(n) ≈ 5.8 with probability 0.016), so the answer is
    calibrator='logistic' alone (to rounding). A covariate the label depends on is kept, with its
    product, by a fit on all rows."""
    from judgestats.scores.calibration import CALIBRATORS

    rng = np.random.default_rng(3908)
    letter, human, _, _, _ = _letter_data(rng, 3000, 400, informative=False)
    noise = rng.normal(size=letter.size)
    alone = correct_scores(letter, human, calibrator="logistic", rng=8)
    res = correct_scores(letter, human, covariates={"noise": noise}, rng=8)
    # the same fits and predictions; the covariate's zero coefficients ride along in the
    # averaged prediction's sums, so equal to rounding (1e-12), not bit for bit
    assert res.estimate == pytest.approx(alone.estimate, rel=1e-12, abs=0)
    assert res.variance == pytest.approx(alone.variance, rel=1e-12, abs=0)
    s = rng.normal(size=2000)
    x = rng.normal(size=2000)
    y = (rng.random(2000) < 1 / (1 + np.exp(-(s + x + s * x)))).astype(float)
    beta, _, _ = CALIBRATORS["logistic"].fit(np.column_stack([s, x, s * x]), y, None)
    assert np.all(np.abs(beta[1:]) > 0.3)
    junk = rng.normal(size=2000)
    beta, _, _ = CALIBRATORS["logistic"].fit(np.column_stack([s, junk, s * junk]), y, None)
    assert beta[2] == beta[3] == 0.0


# ----------------------------------------------------------------------------- the fast path
def _speed_data():
    """6,000 rows, 20% labelled, three groups (group "c" holds one category level), seed 5."""
    rng = np.random.default_rng(5)
    n = 6000
    y = rng.random(n) < 0.35
    kind = np.array(["chat", "code", "math", "zeta"])[rng.integers(0, 4, n)]
    length = rng.integers(20, 1001, n)
    s = 1 / (1 + np.exp(-(1.5 * (2 * y - 1) + 0.8 * (length - 510) / 280
                          + (kind == "code") * 0.7 + rng.normal(0, 1.2, n))))  # fmt: skip
    human = np.where(rng.random(n) < 0.2, y.astype(float), np.nan)
    model = np.array(["a", "b", "c"])[rng.integers(0, 3, n)]
    return s, human, kind, length, model


#: (estimate, ci.low, ci.high) computed by the code before the covariate path was sped up
#: (commit 8b9ba21: categories factorised per group in Python objects, one Newton fit and one
#: prediction of the unlabelled rows per fold): the faster arithmetic must give them to 1e-12.
BEFORE = {
    "correct_scores": (0.35157889211569304, 0.3330530406481008, 0.37010474358328527),
    "a": (0.35021918830385446, 0.31388561071712906, 0.38655276589057985),
    "b": (0.3409239591537656, 0.3106828277286028, 0.37116509057892844),
    "c": (0.35887060288448575, 0.32889656203402906, 0.38884464373494243),
}


def test_the_covariate_path_gives_the_numbers_it_gave_before():
    s, human, kind, length, _ = _speed_data()
    res = correct_scores(s, human, covariates={"kind": kind, "length": length}, rng=3)
    got = (res.estimate, res.ci.low, res.ci.high)
    assert got == pytest.approx(BEFORE["correct_scores"], abs=1e-12, rel=0)
    assert res.covariates == ("kind=code", "kind=math", "kind=zeta", "length")


@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb"])
def test_categories_coded_by_the_engine_give_the_numbers_of_before(engine, monkeypatch):
    """js.evaluate codes a string covariate on the engine (CodedCategory): each group's result
    is the pre-change one to 1e-12, and the per-group route with the strings themselves
    (correct_scores on that group's arrays) agrees; group "c" has one level, so no kind column."""
    from judgestats.scores.covariates import CodedCategory

    pd = pytest.importorskip("pandas")
    used = []
    present = CodedCategory.present
    monkeypatch.setattr(CodedCategory, "present", lambda self: used.append(1) or present(self))
    s, human, kind, length, model = _speed_data()
    kind = np.where(model == "c", "chat", kind)
    df = pd.DataFrame({"model": model, "score": s, "human": human, "kind": kind,
                       "length": length})  # fmt: skip
    frame = df
    if engine == "polars":
        frame = pytest.importorskip("polars").from_pandas(df)
    elif engine == "duckdb":
        frame = pytest.importorskip("duckdb").connect().from_df(df)
    ev = js.evaluate(frame, judge="score", by="model", design="random",
                     covariates=["kind", "length"], rng=0)  # fmt: skip
    gen = np.random.default_rng(0)  # evaluate draws each group's folds in sorted group order
    for g in ("a", "b", "c"):
        got = (ev[g].estimate, ev[g].ci.low, ev[g].ci.high)
        assert got == pytest.approx(BEFORE[g], abs=1e-12, rel=0), g
        rows = model == g
        own = correct_scores(s[rows], human[rows], rng=gen,
                             covariates={"kind": kind[rows].astype(object),
                                         "length": length[rows]})  # fmt: skip
        assert (own.estimate, own.ci.low, own.ci.high) == pytest.approx(got, abs=1e-12, rel=0)
        assert ev[g].covariates == own.covariates
    assert ev["c"].covariates == ("length",)
    assert len(used) == 3  # every group's kind column came coded by the engine


def test_a_coded_category_encodes_as_its_strings():
    from judgestats.scores.covariates import CodedCategory

    strings = np.array(["b", "d", "b", "a", "d"])
    levels = np.array(["a", "b", "c", "d"])  # "c" absent from these rows
    coded = CodedCategory(np.searchsorted(levels, strings), levels)
    m_coded, names_coded = covariate_matrix({"k": coded, "x": np.arange(5.0)})
    m_raw, names_raw = covariate_matrix({"k": strings, "x": np.arange(5.0)})
    assert names_coded == names_raw == ["k=b", "k=d", "x"]
    np.testing.assert_array_equal(m_coded, m_raw)
    assert list(coded.take(np.array([0, 2])).strings()) == ["b", "b"]
