"""The k-category interval methods' registry (judgestats.multiclass.methods)."""

import numpy as np
import pytest

from judgestats.multiclass import DistributionBounds, correct_distribution, distribution_methods
from tests.multiclass.test_distribution import CAL, TEST


def test_a_registered_method_plugs_in(monkeypatch):
    """How the Dirichlet model's "bayes" method will plug in: register, then call by name."""
    from judgestats.multiclass import methods as mc

    def fake(
        test_counts,
        calibration_counts,
        *,
        confidence_level,
        rng=None,
        max_condition=100.0,
        draws=10,
    ):
        k = test_counts.shape[-1]
        est = np.full(test_counts.shape, 1.0 / k)
        return DistributionBounds(
            est - 0.1, est + 0.1, np.zeros(test_counts.shape[:-1], int), estimate=est
        )

    monkeypatch.setattr(mc, "_METHODS", dict(mc._METHODS))
    mc.register_distribution_method("bayes", "test double")(fake)
    assert "bayes" in distribution_methods()
    res = correct_distribution(TEST, CAL, method="bayes", draws=5)
    assert res.method == "bayes" and res.estimate["a"] == pytest.approx(1 / 3)
    assert res.estimate_unconstrained["a"] == pytest.approx(0.5)
