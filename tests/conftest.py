import numpy as np
import pytest


@pytest.fixture
def rng():
    """A seeded Generator per test (no global RNG)."""
    return np.random.default_rng(20261122)
