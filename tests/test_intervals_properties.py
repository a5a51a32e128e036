"""Property tests (hypothesis) of the primitives and of correct()."""

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import judgestats as js
from judgestats.intervals import adjusted_wald_bounds, compute_bounds, z_value

prob = st.floats(0, 1, allow_nan=False)
good_q = st.floats(0.55, 1, allow_nan=False)
sizes = st.integers(1, 5000)
cal_sizes = st.integers(0, 500)
levels = st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99])


@st.composite
def datasets(draw):
    """Counts with an informative judge (q0 + q1 > 1 after the add-one adjustment)."""
    n = draw(st.integers(1, 5000))
    m0 = draw(st.integers(1, 400))
    m1 = draw(st.integers(1, 400))
    tn = draw(st.integers(0, m0))
    tp = draw(st.integers(0, m1))
    positive = draw(st.integers(0, n))
    return js.JudgedCounts(positive=positive, n=n), js.ConfusionCounts(
        tp=tp, fn=m1 - tp, tn=tn, fp=m0 - tn
    )


def informative(q0, q1, m0, m1):
    return q0 + q1 > 1 and (m0 * q0 + 1) / (m0 + 2) + (m1 * q1 + 1) / (m1 + 2) > 1


@settings(max_examples=300, deadline=None)
@given(p=prob, q0=good_q, q1=good_q, n=sizes, m0=cal_sizes, m1=cal_sizes, level=levels)
def test_interval_within_unit_interval_and_ordered(p, q0, q1, n, m0, m1, level):
    if not informative(q0, q1, m0, m1):
        return
    low, high = js.adjusted_wald_interval(p, q0, q1, n, m0, m1, confidence_level=level)
    assert 0.0 <= low <= high <= 1.0
    wlow, whigh = js.intervals.wald_interval(p, q0, q1, n, max(m0, 1), max(m1, 1), confidence_level=level)
    assert 0.0 <= wlow <= whigh <= 1.0


@settings(max_examples=300, deadline=None)
@given(p=prob, q0=good_q, q1=good_q, n=sizes, m0=cal_sizes, m1=cal_sizes, level=levels)
def test_swapping_labels_mirrors_estimate_and_interval(p, q0, q1, n, m0, m1, level):
    if not informative(q0, q1, m0, m1):
        return
    low, high = js.adjusted_wald_interval(p, q0, q1, n, m0, m1, confidence_level=level)
    # 0 <-> 1: p -> 1 - p, and specificity/sensitivity (with their class sizes) swap roles
    slow, shigh = js.adjusted_wald_interval(1 - p, q1, q0, n, m1, m0, confidence_level=level)
    assert slow == pytest.approx(1 - high, abs=1e-12)
    assert shigh == pytest.approx(1 - low, abs=1e-12)
    inside = 0 <= (p + q0 - 1) / (q0 + q1 - 1) <= 1 and 0 <= (q1 - p) / (q0 + q1 - 1) <= 1
    theta = js.rogan_gladen(p, q0, q1) if inside else None  # both sides unclipped (rounding)
    if theta is not None:
        assert js.rogan_gladen(1 - p, q1, q0) == pytest.approx(1 - theta, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(p=prob, n=sizes, m0=cal_sizes, m1=cal_sizes)
def test_perfect_judge_returns_p_hat(p, n, m0, m1):
    assert js.rogan_gladen(p, 1.0, 1.0) == pytest.approx(p, abs=1e-15)


@settings(max_examples=300, deadline=None)
@given(p=prob, q0=good_q, q1=good_q, n=st.integers(10, 5000), m0=cal_sizes, m1=cal_sizes)
def test_higher_level_never_narrows_untruncated_interval(p, q0, q1, n, m0, m1):
    """Width grows with the level wherever truncation to [0, 1] does not cut the interval.

    Where it does, the paper's centre shift d(theta~) (proportional to z^2) can move a
    truncated interval so that a higher level is narrower; that is a property of eq. (8).
    """
    if not informative(q0, q1, m0, m1):
        return
    lv = np.array([0.8, 0.9, 0.95, 0.99])
    import judgestats.intervals as iv

    raw = np.vectorize(lambda z: _unclipped(p, q0, q1, n, m0, m1, z), otypes=[float, float])
    lo, hi = raw(z_value(lv))
    if np.any(lo < 0) or np.any(hi > 1):
        return
    low, high = iv.adjusted_wald_interval(p, q0, q1, n, m0, m1, confidence_level=lv)
    np.testing.assert_allclose(low, lo, atol=1e-12)
    assert np.all(np.diff(high - low) >= -1e-12)


def _unclipped(p, q0, q1, n, m0, m1, z):
    z2 = z * z
    pt = (n * p + z2 / 2) / (n + z2)
    a0, a1 = (m0 * q0 + 1) / (m0 + 2), (m1 * q1 + 1) / (m1 + 2)
    th = (pt + a0 - 1) / (a0 + a1 - 1)
    v0, v1 = a0 * (1 - a0) / (m0 + 2), a1 * (1 - a1) / (m1 + 2)
    c = th + 2 * z2 * (-(1 - th) * v0 + th * v1)
    se = np.sqrt(pt * (1 - pt) / (n + z2) + (1 - th) ** 2 * v0 + th**2 * v1) / (a0 + a1 - 1)
    return c - z * se, c + z * se


@settings(max_examples=50, deadline=None)
@given(
    p=st.lists(prob, min_size=1, max_size=20),
    q0=good_q,
    q1=good_q,
    n=sizes,
    m0=cal_sizes,
    m1=cal_sizes,
    level=levels,
)
@example(p=[0.18165025693263684], q0=0.618, q1=0.5658235835894474, n=2267, m0=35, m1=339,
         level=0.9)  # numpy's SIMD loop and its scalar path differed in the last bit here
def test_vectorised_equals_scalar_loop(p, q0, q1, n, m0, m1, level):
    if not informative(q0, q1, m0, m1):
        return
    low, high = js.adjusted_wald_interval(np.array(p), q0, q1, n, m0, m1, confidence_level=level)
    for i, pi in enumerate(p):
        lo, hi = js.adjusted_wald_interval(pi, q0, q1, n, m0, m1, confidence_level=level)
        # the same formula on an array and on a scalar: numpy's vectorised (SIMD) elementary
        # functions may round differently from its scalar ones, by at most a few units in the
        # last place; a real vectorisation bug moves the bounds by far more
        np.testing.assert_array_max_ulp(low[i], lo, maxulp=4)
        np.testing.assert_array_max_ulp(high[i], hi, maxulp=4)
    blow, bhigh, _ = adjusted_wald_bounds(np.array(p), q0, q1, n, m0, m1, z_value(level))
    np.testing.assert_array_equal(blow, low)
    np.testing.assert_array_equal(bhigh, high)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=datasets(), level=levels)
def test_correct_intervals_are_ordered_for_every_method(data, level):
    test, cal = data
    if cal.specificity + cal.sensitivity <= 1:
        with pytest.raises(js.errors.NotInformativeError):
            js.correct(test, cal, confidence_level=level)
        return
    for method in ("adjusted-wald", "wald", "bootstrap"):
        b = compute_bounds(
            test,
            cal,
            method=method,
            confidence_level=level,
            rng=0,
            **({"n_resamples": 200} if method == "bootstrap" else {}),
        )
        if np.isnan(b.low):  # adjusted denominator <= 0 (tiny m with extreme q's)
            continue
        assert 0.0 <= b.low <= b.high <= 1.0
