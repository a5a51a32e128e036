"""judge_bias and position_bias: hand-computed effects, the Agresti–Caffo variance, the size of
the test under no bias (fast tier), the cluster design effect, the refusals.

The full study (size and power over a grid and cells drawn at random, real data) is
benchmarks/bench_judge_bias.py (benchmarks/results/judge_bias.md).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

import judgestats as js
from judgestats.bias.effects import standardised_difference
from judgestats.errors import ArgumentTypeError, LabelError


def _table():
    """A small table whose cells are counted by hand below."""
    # (human, long, judge, count)
    cells = [(1, 1, 1, 18), (1, 1, 0, 2), (1, 0, 1, 12), (1, 0, 0, 8),
             (0, 1, 1, 6), (0, 1, 0, 24), (0, 0, 1, 3), (0, 0, 0, 27)]
    rows = [(h, x, j) for h, x, j, c in cells for _ in range(c)]
    h, x, j = (np.array(c, dtype=float) for c in zip(*rows, strict=True))
    return h, x, j


def test_effect_and_interval_by_hand():
    """Δ̂ = 0.4·(18/20 − 12/20) + 0.6·(6/30 − 3/30) = 0.18; the Agresti–Caffo rates
    (x + 1)/(n + 2) give Δ̃ and the variance, the interval and p-value computed here."""
    h, x, j = _table()
    res = js.bias.judge_bias(judge=j, human=h, covariates={"long": x})["long"]
    assert res.effect == pytest.approx(0.4 * (18 / 20 - 12 / 20) + 0.6 * (6 / 30 - 3 / 30))
    a11, a10, a01, a00 = 19 / 22, 13 / 22, 7 / 32, 4 / 32
    adjusted = 0.4 * (a11 - a10) + 0.6 * (a01 - a00)
    var = 0.16 * (a11 * (1 - a11) / 22 + a10 * (1 - a10) / 22) \
        + 0.36 * (a01 * (1 - a01) / 32 + a00 * (1 - a00) / 32)
    z = norm.ppf(0.975)
    assert (res.ci.low, res.ci.high) == pytest.approx((adjusted - z * var**0.5,
                                                       adjusted + z * var**0.5))
    assert res.pvalue == pytest.approx(2 * norm.sf(adjusted / var**0.5))
    assert (res.n, res.n_high, res.n_low) == (100, 50, 50) and res.ci.method == "agresti-caffo"


def test_a_frame_gives_the_arrays_answer_and_a_number_splits_at_its_median():
    h, x, j = _table()
    length = np.where(x == 1, 500.0, 100.0) + np.arange(100) % 7
    df = pd.DataFrame({"j": j, "h": np.where(np.arange(100) % 10 == 0, np.nan, h),
                       "length": length})
    a = js.bias.judge_bias(df, judge="j", human="h", covariates="length")["length"]
    lab = ~df.h.isna().to_numpy()
    b = js.bias.judge_bias(judge=j[lab], human=h[lab],
                           covariates={"length": length[lab] > np.median(length[lab])})
    assert a.effect == pytest.approx(b["length"].effect) and a.n == 90
    assert "(median)" in a.estimated


def test_size_under_no_bias_fast_tier():
    """400 data sets without bias (n 200–800, judge accuracy 0.7–0.97, covariate share 0.2–0.8,
    prevalence 0.1–0.6, drawn at random): the 5% test rejects in <= 0.075 of them (0.05 + 2.3
    s.e. at 400). Seed 3907."""
    rng = np.random.default_rng(3907)
    rejects = 0
    for _ in range(400):
        n = int(rng.integers(200, 801))
        h = rng.random(n) < rng.uniform(0.1, 0.6)
        x = rng.random(n) < rng.uniform(0.2, 0.8)
        sens, spec = rng.uniform(0.7, 0.97, 2)
        j = np.where(h, rng.random(n) < sens, rng.random(n) > spec)
        rejects += js.bias.judge_bias(judge=j, human=h, covariates={"x": x})["x"].pvalue < 0.05
    assert rejects / 400 <= 0.075


def test_both_orders_of_a_pair_widen_by_the_design_effect():
    """Each pair judged in both orders, the judge's pick the same in both most of the time:
    the cluster-robust variance is at least the independent rows' (design effect floored at
    1), and equals it exactly with one row per item."""
    rng = np.random.default_rng(5)
    n = 300
    h = np.repeat(rng.random(n) < 0.5, 2)
    x = np.tile([1.0, 0.0], n)
    j = np.repeat(rng.random(n) < 0.5, 2) ^ (rng.random(2 * n) < 0.1)
    plain = standardised_difference(j.astype(float), h.astype(float), x)
    paired = standardised_difference(j.astype(float), h.astype(float), x,
                                     np.repeat(np.arange(n), 2))
    alone = standardised_difference(j.astype(float), h.astype(float), x, np.arange(2 * n))
    assert paired.variance >= plain.variance and paired.items == n
    assert alone.variance == pytest.approx(plain.variance)


def test_position_bias_by_hand():
    """Humans say first on 40 rows (judge agrees on 36) and second on 60 (judge agrees on
    42); ties left out: Δ̂ = 36/40 − 42/60 = 0.2."""
    human = np.array([1] * 40 + [2] * 60 + [0] * 5 + [None] * 3, dtype=object)
    judge = np.array([1] * 36 + [2] * 4 + [2] * 42 + [1] * 18 + [1] * 8)
    res = js.bias.position_bias(judge, human)
    assert res.effect == pytest.approx(36 / 40 - 42 / 60) and res.n == 100
    assert res.pvalue < 0.05 and res.covariate == "position"


def test_refusals_name_the_argument():
    h, x, j = _table()
    with pytest.raises(LabelError, match="judge must be 0/1"):
        js.bias.judge_bias(judge=j + 2, human=h, covariates={"x": x})
    with pytest.raises(LabelError, match="covariate 'kind' has 3 level"):
        js.bias.judge_bias(judge=j, human=h, covariates={"kind": np.array([*"abc" * 33, "a"])})
    with pytest.raises(LabelError, match="no labelled row with human = 1"):
        js.bias.judge_bias(judge=j, human=h, covariates={"x": np.where(h == 1, 1.0, x)})
    with pytest.raises(ArgumentTypeError, match=r"column\(s\) \['nope'\]"):
        js.bias.judge_bias(pd.DataFrame({"j": j, "h": h}), judge="j", human="h",
                           covariates="nope")
    with pytest.raises(LabelError, match="judge must be 1 \\(first\\)"):
        js.bias.position_bias([3, 1], [1, 2])


def test_summary_and_table_name_what_was_estimated():
    h, x, j = _table()
    res = js.bias.judge_bias(judge=j, human=h, covariates={"long": x})
    assert "Δ: P(judge = 1 | human, long = 1.0 (vs 0.0))" in res.summary()
    row = res.to_dataframe().iloc[0]
    assert row.covariate == "long" and row.method == "agresti-caffo" and row.n == 100
