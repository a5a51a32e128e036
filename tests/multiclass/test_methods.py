"""The k-category interval methods' registry (judgestats.multiclass.methods)."""

import numpy as np
import pytest

from judgestats.multiclass import DistributionBounds, correct_distribution
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

    from judgestats.designs import capabilities

    monkeypatch.setattr(mc, "_METHODS", dict(mc._METHODS))
    monkeypatch.setattr(capabilities, "_ROWS", list(capabilities._ROWS))
    mc.register_distribution_method("bayes", "test double")(fake)
    for judge in ("categories", "alphabet"):  # the method joins the table's rows
        assert "bayes" in capabilities.methods_for(judge, "distribution", "by-human-label")
    assert "bayes" not in capabilities.methods_for("categories", "distribution", "random")
    res = correct_distribution(TEST, CAL, method="bayes", draws=5)
    assert res.method == "bayes" and res.estimate["a"] == pytest.approx(1 / 3)
    assert res.estimate_unconstrained["a"] == pytest.approx(0.5)
