"""The judge-alphabet likelihood can have a second local maximum in θ (issue: alphabet width).

Data sets from benchmarks/bench_alphabet_width.py (grids A, seed 2027, and B, seed 2028;
``grid(name)`` and ``simulate(default_rng(seeds[i]), cells[i], 1000)``, row r of the 1,000
data sets). References: the profile likelihood at fixed θ₁, which for K = 2 fixes θ and is
concave in C (one maximum, which EM reaches from any interior start), on a grid of θ₁.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2
from scipy.stats import t as t_dist

from judgestats.multiclass.likelihood import alphabet_mle, alphabet_profile_bounds

# grid A cell 9 (J = 3, Dirichlet, m = (38, 489), θ₁ = 0.939, n = 1,259), data set 806: EM from
# the uniform start stopped at θ̂₁ ≈ 0 (ℓ = −1675.23) while θ₁ = 1 gives ℓ = −1670.37 (9.73 on
# the likelihood-ratio scale, the worst of 144 such data sets in 51,715 of the benchmark)
A9_TEST = [157, 334, 768]
A9_CAL = [[12, 81], [14, 132], [12, 276]]
# grid B cell 20 (J = 5, latent, θ₁ = 0.785), data set 556: EM stopped at an interior local
# maximum θ̂₁ = 0.361, 5.74 below the global one at θ₁ = 1
B20_TEST = [250, 6, 80, 51, 20]
B20_CAL = [[33, 41], [4, 3], [3, 14], [1, 2], [0, 9]]
# grid B cell 0 (J = 4, latent, θ₁ = 0.137), data set 583: EM stopped at θ̂₁ = 0.665, the
# global maximum is at θ₁ = 0 (5.46 higher); the profile of θ₁ has two modes
B0_TEST = [1162, 161, 356, 1791]
B0_CAL = [[20, 13], [5, 1], [0, 2], [27, 53]]
LEVEL = 0.985
CASES = [(A9_TEST, A9_CAL), (B20_TEST, B20_CAL), (B0_TEST, B0_CAL)]


def _profile(test, cal, grid):
    """ℓ_p(θ₁) on a grid (K = 2: θ fixed, ℓ concave in C, so EM's maximum is the maximum)."""
    size = len(grid)
    t = np.broadcast_to(np.asarray(test, float), (size, len(test)))
    c = np.broadcast_to(np.asarray(cal, float), (size, *np.shape(cal)))
    return alphabet_mle(t, c, fixed=(1, np.asarray(grid, float)))[2]


@pytest.mark.parametrize("test,cal", CASES)
def test_mle_is_the_global_maximum(test, cal):
    """ℓ at alphabet_mle's maximum is at least the profile's on a grid of θ₁ (with 0 and 1)."""
    _, _, value = alphabet_mle(test, cal)
    assert value >= _profile(test, cal, np.linspace(0.0, 1.0, 101)).max() - 1e-7


def test_a9_mle_is_at_theta_one():
    theta, _, value = alphabet_mle(A9_TEST, A9_CAL)
    assert theta[1] == pytest.approx(1.0, abs=1e-6)
    assert value == pytest.approx(float(_profile(A9_TEST, A9_CAL, [1.0])[0]), abs=1e-7)


def test_batched_shape_contract_with_several_starts():
    """A batch of data sets (2 × 3) gives the same answers as one at a time."""
    test = np.array([A9_TEST, A9_TEST[::-1], [300, 300, 400]] * 2).reshape(2, 3, 3)
    cal = np.array([A9_CAL, A9_CAL[::-1], [[20, 5], [10, 10], [5, 20]]] * 2).reshape(2, 3, 3, 2)
    theta, matrix, value = alphabet_mle(test, cal)
    assert theta.shape == (2, 3, 2) and matrix.shape == (2, 3, 3, 2) and value.shape == (2, 3)
    for i in range(2):
        for r in range(3):
            th, _, v = alphabet_mle(test[i, r], cal[i, r])
            np.testing.assert_allclose(theta[i, r], th, atol=1e-9)
            assert value[i, r] == pytest.approx(float(v), abs=1e-9)


@pytest.mark.parametrize("test,cal", CASES)
def test_profile_interval_is_the_hull_of_a_possibly_bimodal_confidence_set(test, cal):
    """The bounds are the outermost θ₁ with 2(ℓ̂ − ℓ_p) <= χ²₁(0.985) = 5.92, to a grid step.

    The profile of these data sets has two modes. At this level the set of B20 and B0 is two
    pieces (the lower mode is 5.74 and 5.46 below the higher, the dip between them 6.3 and
    6.8), and the interval is the smallest one that holds both; a bisection between θ̂₁ and
    the far end (which assumes one mode) lands in the dip and stops at the inner piece.
    """
    low, high, est = alphabet_profile_bounds(test, cal, LEVEL)
    grid = np.linspace(0.0, 1.0, 2001)
    values = _profile(test, cal, grid)
    top = float(alphabet_mle(test, cal)[2])
    assert top >= values.max() - 1e-7
    inside = grid[2.0 * (top - values) <= chi2.ppf(LEVEL, 1)]
    assert low[1] == pytest.approx(inside.min(), abs=5.1e-4)
    assert high[1] == pytest.approx(inside.max(), abs=5.1e-4)
    assert low[1] <= est[1] <= high[1]
    assert low[0] == pytest.approx(1.0 - high[1]) and high[0] == pytest.approx(1.0 - low[1])


def test_warm_started_profile_fits_do_not_stop_early():
    """The bound sits at the cut-off by an independent fit (default starts, tolerance 1e-11).

    Grid B cell 20, data set 704 (θ̂₁ = 1, t cut-off with ν = 41/4 − 1): with a warm-start
    floor as small as the fits' tolerance EM stopped at once at θ₁ = 0.5 (2(ℓ̂ − ℓ_p) = 5.69
    for 5.01, so outside the cut-off 5.08) and the lower bound came out 0.500 for 0.493.
    """
    test, cal = [262, 10, 66, 35, 34], [[31, 45], [0, 4], [8, 11], [0, 3], [2, 6]]
    low, high, _ = alphabet_profile_bounds(test, cal, 0.95, small_sample=True)
    top = float(alphabet_mle(test, cal)[2])
    crit = t_dist.ppf(0.975, 41 / 4 - 1) ** 2
    assert high[1] == 1.0
    assert 2 * (top - float(alphabet_mle(test, cal, fixed=(1, low[1]))[2])) == pytest.approx(
        crit, abs=1e-6
    )
    assert low[1] == pytest.approx(0.4927232, abs=1e-6)
