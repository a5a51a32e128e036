"""The counts of a prediction-powered result (src/judgestats/scores/counts.py): one home."""

from __future__ import annotations

import numpy as np
import pytest

import judgestats as js
from judgestats.scores.counts import PredictionPoweredCounts


def test_a_score_and_a_jury_derive_their_counts_in_one_place():
    from judgestats.jury import CombinedJuryCorrection
    from judgestats.scores import ScoreCorrection

    for name in ("n", "m0", "effective_labels", "width_ratio"):
        home = PredictionPoweredCounts.__dict__[name]
        assert ScoreCorrection.__dict__.get(name) is None, name  # not redefined
        assert CombinedJuryCorrection.__dict__.get(name) is None, name
        assert getattr(ScoreCorrection, name) is home
        assert getattr(CombinedJuryCorrection, name) is home


def test_the_counts_are_what_they_say():
    """n, m0, effective labels θ̂(1 − θ̂)/Var(θ̂) and √(Var/Var(ȳ)), recomputed here from the
    stored fields, on a score's and a stacked jury's results (seed 3932)."""
    gen = np.random.default_rng(3932)
    y = gen.random(1200) < 0.4
    human = np.where(np.arange(1200) < 300, y, np.nan)
    s = 1 / (1 + np.exp(-(2 * (2 * y - 1) + gen.normal(0, 1.5, 1200))))
    judges = [np.where(gen.random(1200) < 0.85, y, ~y).astype(int) for _ in range(2)]
    for res in (js.scores.correct_scores(s, human, rng=0),
                js.jury.correct_combined(judges, human, combine="stack", rng=0)):  # fmt: skip
        assert (res.n, res.m0) == (900, 300 - int(np.sum(y[:300])))
        theta = res.estimate
        assert res.effective_labels == pytest.approx(theta * (1 - theta) / res.variance,
                                                     rel=1e-12)  # fmt: skip
        assert res.width_ratio == pytest.approx(np.sqrt(res.variance / res.humans_only_variance),
                                                rel=1e-12)  # fmt: skip
        assert 0 < res.width_ratio < 1  # an informative predictor: narrower than the labels
