"""replay_labelling's progress bar (issue 38 §2: the defaults take about 3 s)."""

from __future__ import annotations

import numpy as np

from judgestats import progress as prog
from judgestats.plan import labelling_plan
from judgestats.sequential import replay_labelling


def _recording(monkeypatch) -> list:
    events: list = []

    class Bar:
        def __init__(self, total, desc, **kwargs):
            events.append((desc, total))

        def update(self, k):
            events.append(k)

        def close(self):
            events.append("closed")

    monkeypatch.setattr(prog, "_tqdm", lambda: Bar)
    monkeypatch.setattr(prog, "wanted", lambda enabled: bool(enabled))
    return events


def test_the_bar_counts_every_label_and_leaves_the_numbers_alone(monkeypatch):
    events = _recording(monkeypatch)
    kw = dict(labels=120, batch=20, looks=(40, 120), reps=50, target_width=0.3)
    shown = replay_labelling([300, 200], [60, 150], rng=5, progress=True, **kw)
    assert events == [("labels", 120)] + [1] * 120 + ["closed"]
    events.clear()
    quiet = replay_labelling([300, 200], [60, 150], rng=5, progress=False, **kw)
    assert events == []
    for name in ("covered", "width", "covered_fixed", "width_fixed", "labels_needed"):
        np.testing.assert_array_equal(getattr(shown, name), getattr(quiet, name))


def test_a_labelling_plan_shows_one_bar_per_strategy(monkeypatch):
    events = _recording(monkeypatch)
    labelling_plan([0.6, 0.4], [0.2, 0.8], target_width=0.3, pool_size=400, reps=20, rng=0,
                   progress=True)  # fmt: skip
    bars = [e for e in events if isinstance(e, tuple)]
    assert bars == [("labels", 400), ("labels", 400)]
    assert events.count("closed") == 2
