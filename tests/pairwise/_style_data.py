"""Simulated pairwise frames with a jury, a judge probability, covariates and a style effect."""

from __future__ import annotations

import numpy as np
import pandas as pd

VERDICTS = np.array(["a", "tie", "b"])


def style_pairs(
    rng: np.random.Generator,
    *,
    n: int = 3000,
    k: int = 5,
    delta: float = 0.5,
    tie: float = 0.7,
    rate: float = 0.2,
    accuracy: tuple = (0.7, 0.6),
) -> tuple[pd.DataFrame, np.ndarray]:
    """A frame of ``n`` pairs of ``k`` models and the true strengths (sum zero).

    The human verdict follows Davidson's model with the strength difference shifted by
    ``delta`` × ``len_diff`` (a standard normal "length difference", ``model_a`` minus
    ``model_b``); each jury member (``judge``, ``j2``) copies the human verdict with its
    accuracy, else says a letter at random; ``p_a`` is a noisy P(a wins); ``noise`` and
    ``cat`` carry nothing. A random ``rate`` of the rows keep their human verdict.
    """
    names = np.array([f"m{i}" for i in range(k)])
    a = rng.integers(0, k, n)
    b = (a + rng.integers(1, k, n)) % k
    beta = np.linspace(-1.0, 1.0, k)
    length = rng.normal(0.0, 1.0, n)
    d = beta[a] - beta[b] + delta * length
    p = np.stack([np.exp(d / 2), np.full(n, tie), np.exp(-d / 2)], axis=1)
    p /= p.sum(axis=1, keepdims=True)
    human = (rng.random(n)[:, None] > p.cumsum(axis=1)).sum(axis=1)
    jury = [np.where(rng.random(n) < acc, human, rng.integers(0, 3, n)) for acc in accuracy]
    frame = pd.DataFrame(
        {
            "model_a": names[a],
            "model_b": names[b],
            "judge": VERDICTS[jury[0]],
            "j2": VERDICTS[jury[1]],
            "p_a": np.clip(p[:, 0] + rng.normal(0.0, 0.1, n), 0.01, 0.99),
            "len_diff": length,
            "noise": rng.normal(size=n),
            "cat": rng.choice(["x", "y", "z"], n),
            "human": np.where(rng.random(n) < rate, VERDICTS[human], None),
        }
    )
    return frame, beta - beta.mean()
