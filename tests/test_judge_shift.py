"""js.judge_shift_test: the judge's confusion matrix across calibration batches (evaluate(batch=)
is tested in tests/evaluate/test_batches.py).

Reference values: Newcombe (1998), Statistics in Medicine 17, 873-890, Table II (method 10,
the hybrid score interval), printed to 4 decimals; exact p-values recomputed here by brute
force from scipy's hypergeometric law and scipy's G statistic (chi2_contingency with
lambda_="log-likelihood"), an implementation independent of the package's.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from scipy.stats import chi2_contingency, hypergeom

import judgestats as js
from judgestats.kernels import g_statistic, newcombe_bounds

C = js.ConfusionCounts


def _g(table) -> float:
    table = np.asarray(table, dtype=float)
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] < 2:
        return 0.0
    return float(chi2_contingency(table, correction=False, lambda_="log-likelihood")[0])


# ----------------------------------------------------------------------------- kernels
@pytest.mark.parametrize(
    ("k1", "m1", "k2", "m2", "low", "high"),
    [(56, 70, 48, 80, 0.0524, 0.3339), (9, 10, 3, 10, 0.1705, 0.8090),
     (5, 56, 0, 29, -0.0381, 0.1926)],
)  # fmt: skip
def test_newcombe_matches_newcombe_1998_table_ii(k1, m1, k2, m2, low, high):
    lo, hi = newcombe_bounds(k1, m1, k2, m2, 1.959964)
    assert lo == pytest.approx(low, abs=6e-5) and hi == pytest.approx(high, abs=6e-5)


def test_g_statistic_of_a_stack_is_each_tables():
    tables = np.array([[[3, 7, 1], [5, 2, 2]], [[10, 0, 0], [4, 6, 0]], [[1, 1, 1], [1, 1, 1]]])
    assert np.allclose(g_statistic(tables), [_g(t) for t in tables])
    assert isinstance(g_statistic(tables[0]), float)


# ----------------------------------------------------------------------------- the test
def _brute_force_pvalue(a: C, b: C) -> float:
    """P(G0 + G1 >= observed) over both classes' hypergeometric laws (enumerated)."""
    laws, observed = [], 0.0
    for right_a, wrong_a, right_b, wrong_b in ((a.tn, a.fp, b.tn, b.fp), (a.tp, a.fn, b.tp, b.fn)):
        na, nb, r = right_a + wrong_a, right_b + wrong_b, right_a + right_b
        observed += _g([[right_a, wrong_a], [right_b, wrong_b]])
        xs = range(max(0, r - nb), min(na, r) + 1)
        laws.append([(hypergeom.pmf(x, na + nb, r, na), _g([[x, na - x], [r - x, nb - r + x]]))
                     for x in xs])  # fmt: skip
    return sum(p0 * p1 for (p0, g0), (p1, g1) in itertools.product(*laws)
               if g0 + g1 >= observed - 1e-9)  # fmt: skip


@pytest.mark.parametrize(
    ("a", "b"),
    [(C(tp=9, fn=1, tn=8, fp=2), C(tp=5, fn=5, tn=9, fp=1)),
     (C(tp=180, fn=20, tn=170, fp=30), C(tp=150, fn=50, tn=172, fp=28)),
     (C(tp=30, fn=0, tn=12, fp=13), C(tp=28, fn=2, tn=20, fp=5))],
)  # fmt: skip
def test_exact_pvalue_matches_brute_force(a, b):
    shift = js.judge_shift_test(a, b)
    assert shift.test == "exact" and shift.n_resamples is None
    assert shift.pvalue == pytest.approx(_brute_force_pvalue(a, b), rel=1e-9, abs=1e-12)
    assert shift.statistic == pytest.approx(
        _g([[a.tn, a.fp], [b.tn, b.fp]]) + _g([[a.tp, a.fn], [b.tp, b.fn]]), rel=1e-9
    )
    # a 2 x 2 ConfusionMatrix (rows judge, columns human) is the same test
    ma = js.ConfusionMatrix([[a.tn, a.fn], [a.fp, a.tp]])
    mb = js.ConfusionMatrix([[b.tn, b.fn], [b.fp, b.tp]])
    assert js.judge_shift_test(ma, mb).pvalue == pytest.approx(shift.pvalue, rel=1e-12)


def test_changes_are_newcombe_intervals_of_each_rate():
    a, b = C(tp=180, fn=20, tn=170, fp=30), C(tp=150, fn=50, tn=172, fp=28)
    shift = js.judge_shift_test(a, b, confidence_level=0.9)
    spec, sens = shift.changes
    assert (spec.rate, sens.rate) == ("specificity", "sensitivity")
    assert sens.change == pytest.approx(0.75 - 0.9)
    lo, hi = newcombe_bounds(150, 200, 180, 200, 1.6448536269514722)
    assert (sens.ci.low, sens.ci.high) == pytest.approx((lo, hi))
    assert sens.moved and not spec.moved and shift.moved == (sens,)
    assert shift.recommendation == "latest" and shift.shifted
    frame = shift.to_dataframe()
    assert list(frame["rate"]) == ["specificity", "sensitivity"]


def _exact_multinomial_pvalue(a: np.ndarray, b: np.ndarray) -> float:
    """Exact conditional p of T for small J x K tables: every batch-a column enumerated."""
    total = a + b
    laws, observed = [], 0.0
    for k in range(total.shape[1]):
        col, na = total[:, k], int(a[:, k].sum())
        observed += _g([a[:, k], b[:, k]])
        law = []
        for x in itertools.product(*(range(c + 1) for c in col)):
            if sum(x) != na:
                continue
            x = np.array(x)
            # multivariate hypergeometric: prod C(col_j, x_j) / C(sum col, na)
            ways = np.prod([comb(int(c), int(v)) for c, v in zip(col, x, strict=True)])
            p = ways / comb(int(col.sum()), na)
            law.append((p, _g([x, col - x])))
        laws.append(law)
    total_p = 0.0
    for combo in itertools.product(*laws):
        if sum(g for _, g in combo) >= observed - 1e-9:
            total_p += np.prod([p for p, _ in combo])
    return float(total_p)


def test_permutation_pvalue_matches_exact_enumeration_3x3():
    a = np.array([[4, 1, 0], [1, 3, 1], [0, 1, 4]])
    b = np.array([[2, 1, 1], [3, 3, 0], [0, 1, 4]])
    exact = _exact_multinomial_pvalue(a, b)
    shift = js.judge_shift_test(js.ConfusionMatrix(a), js.ConfusionMatrix(b), n_resamples=20_000,
                                rng=1)  # fmt: skip
    assert shift.test == "permutation"
    se = np.sqrt(exact * (1 - exact) / 20_000)
    assert abs(shift.pvalue - exact) <= 4 * se + 1e-4


def test_cluster_permutation_of_singletons_is_the_exact_test():
    a, b = C(tp=14, fn=6, tn=16, fp=4), C(tp=9, fn=11, tn=15, fp=5)
    exact = js.judge_shift_test(a, b).pvalue

    def rows(c, start):
        h = np.repeat([1, 1, 0, 0], [c.tp, c.fn, c.tn, c.fp])
        j = np.repeat([1, 0, 0, 1], [c.tp, c.fn, c.tn, c.fp])
        return C.from_labels(human=h, judge=j, cluster=start + np.arange(h.size))

    shift = js.judge_shift_test(rows(a, 0), rows(b, 1000), n_resamples=20_000, rng=2)
    assert shift.test == "cluster permutation" and shift.clustered
    assert abs(shift.pvalue - exact) <= 4 * np.sqrt(exact * (1 - exact) / 20_000) + 1e-4


def test_size_fast_tier():
    # 400 data sets of small batches (15 per class): size <= 0.05 (exact), + 3 MC s.e. = 0.033
    gen = np.random.default_rng(11)
    rejections = 0
    for _ in range(400):
        tp = gen.binomial(15, 0.7, size=2)
        tn = gen.binomial(15, 0.9, size=2)
        a, b = (C(tp=int(tp[i]), fn=int(15 - tp[i]), tn=int(tn[i]), fp=int(15 - tn[i]))
                for i in (0, 1))  # fmt: skip
        rejections += js.judge_shift_test(a, b).pvalue <= 0.05
    assert rejections / 400 <= 0.05 + 0.033


def test_cluster_size_fast_tier():
    # repeated items (3 rows each, shared verdict with probability 0.6): 150 data sets, 99
    # permutations; size <= 0.05 + 3 MC s.e. (0.053)
    gen = np.random.default_rng(12)

    def batch(start):
        h = np.repeat(gen.integers(0, 2, 20), 3)
        q = np.where(h == 1, 0.8, 0.85)
        shared = np.repeat(gen.random(20), 3)
        u = np.where(np.repeat(gen.random(20) < 0.6, 3), shared, gen.random(60))
        j = np.where(h == 1, u < q, u > q)
        return C.from_labels(human=h, judge=j, cluster=np.repeat(start + np.arange(20), 3))

    p = []
    for _ in range(150):
        try:
            p.append(js.judge_shift_test(batch(0), batch(100), n_resamples=99, rng=gen).pvalue)
        except js.errors.CountError:  # a batch without one class (rare at 20 items)
            continue
    assert np.mean(np.array(p) <= 0.05) <= 0.05 + 0.053


def test_recommendations():
    same_big = C(tp=4500, fn=500, tn=4600, fp=400)
    assert js.judge_shift_test(same_big, same_big).recommendation == "pool"
    small = C(tp=18, fn=2, tn=17, fp=3)
    out = js.judge_shift_test(small, small)
    assert out.recommendation == "label more" and "too small" in out.reason
    assert out.pvalue == pytest.approx(1.0)
    assert set(js.judge_shift.JUDGE_SHIFT_RECOMMENDATIONS) == {"pool", "latest", "label more"}


def test_bad_input_named_errors():
    a = C(tp=9, fn=1, tn=8, fp=2)
    with pytest.raises(js.errors.ArgumentTypeError, match="calibration_b"):
        js.judge_shift_test(a, js.JudgedCounts(3, 10))
    with pytest.raises(js.errors.ArgumentTypeError, match="one kind"):
        js.judge_shift_test(a, js.ConfusionMatrix([[8, 1], [2, 9]]))
    with pytest.raises(js.errors.CountError, match="human class 1"):
        js.judge_shift_test(a, C(tp=0, fn=0, tn=8, fp=2))
    with pytest.raises(js.errors.CountError, match="batch of shape"):
        js.judge_shift_test(C(tp=[9, 8], fn=1, tn=8, fp=2), a)
    with pytest.raises(js.JudgeStatsError, match="design"):
        js.judge_shift_test(a, a, design="by-judge-label")
    with pytest.raises(js.errors.ProbabilityError, match="tolerance"):
        js.judge_shift_test(a, a, tolerance=1.5)
    both = C.from_labels(human=[1, 0, 1, 0], judge=[1, 0, 0, 1], cluster=[1, 2, 3, 4])
    with pytest.raises(js.errors.CountError, match="in both batches"):
        js.judge_shift_test(both, both, rng=0)
    with pytest.raises(js.errors.CountError, match="same categories"):
        js.judge_shift_test(js.ConfusionMatrix([[8, 1], [2, 9]], labels=["x", "y"]),
                            js.ConfusionMatrix([[8, 1], [2, 9]]))  # fmt: skip


def test_the_design_is_asked_whether_its_columns_are_sampled(monkeypatch):
    """Issue 37: the test takes a design by ``youden_estimable``, not by its name."""
    from judgestats.designs import as_design, base, register_design
    from tests.designs.test_new_design import StratifiedRandom

    a, b = C(tp=90, fn=10, tn=70, fp=30), C(tp=80, fn=20, tn=72, fp=28)
    with pytest.raises(js.errors.MethodError, match=r"design \('by-judge-label'\) must be one "
                                                    r"of 'by-human-label' or 'random'"):
        js.judge_shift_test(a, b, design="by-judge-label")
    with pytest.raises(js.errors.MethodError, match="must be one of"):
        js.judge_shift_test(a, b, design="stratified-random")  # not registered
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    toy = register_design(StratifiedRandom)
    shift = js.judge_shift_test(a, b, design="stratified-random")
    ref = js.judge_shift_test(a, b, design="random")
    assert shift.design is toy and ref.design is as_design("random")
    assert (shift.statistic, shift.pvalue, shift.recommendation) == (
        ref.statistic, ref.pvalue, ref.recommendation)


def test_a_monte_carlo_pvalue_says_its_error_and_whether_it_was_seeded():
    """Third tour of issue 38: ``js.evaluate(..., batch=)`` gave p = 0.1898, then 0.1942 on the
    same data without a word (rng=None draws afresh, as scipy's ``permutation_test``). The
    result keeps the choice (``seeded``), its Monte Carlo standard error (``mc_error`` =
    √(p(1 − p)/n_resamples), the binomial error of a proportion of n_resamples draws,
    recomputed here) and the summary says both; the exact test says it is exact."""
    a = js.ConfusionMatrix([[30, 5, 4], [6, 28, 5], [3, 4, 31]])
    b = js.ConfusionMatrix([[24, 9, 6], [7, 25, 8], [5, 6, 27]])
    drawn = [js.judge_shift_test(a, b, n_resamples=999) for _ in range(2)]
    for shift in drawn:
        assert shift.test == "permutation" and not shift.seeded
        assert shift.mc_error == pytest.approx(np.sqrt(shift.pvalue * (1 - shift.pvalue) / 999))
        line = shift.summary().splitlines()[0]
        assert f"Monte Carlo p-value of 999 permutations, standard error {shift.mc_error:.2g}" \
            in line and "drawn without a seed (rng=None)" in line
    seeded = [js.judge_shift_test(a, b, n_resamples=999, rng=7) for _ in range(2)]
    assert seeded[0].seeded and seeded[0].pvalue == seeded[1].pvalue
    assert "without a seed" not in seeded[0].summary()
    exact = js.judge_shift_test(C(tp=180, fn=20, tn=170, fp=30), C(tp=150, fn=50, tn=172, fp=28))
    assert exact.mc_error is None and "(exact conditional p-value)" in exact.summary()
