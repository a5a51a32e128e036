"""Reference values for the core, each with its provenance.

ADJUSTED_WALD: issue #2 (inputs -> lower, upper), produced by the paper's eq. (8) with
z = Phi^-1(0.975); the test suite also recomputes them independently in plain Python (math +
statistics.NormalDist) in tests/test_intervals.py.
"""

# (p, q0, q1, n, m0, m1, confidence_level) -> (lower, upper); tolerance 1e-12 (issue #2).
ADJUSTED_WALD = [
    ((0.4, 0.7, 0.9, 1000, 200, 200, 0.95), (0.05635072484160894, 0.2627330257859588)),
    ((0.5, 0.8, 0.8, 500, 100, 100, 0.95), (0.3799746588561528, 0.6200253411438469)),
    ((0.6, 0.7, 0.9, 1000, 100, 100, 0.95), (0.3935389644723897, 0.6032632459388532)),
]
