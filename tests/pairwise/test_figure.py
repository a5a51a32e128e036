"""The pairwise leaderboard's figure: its return type, the heat map's ticks and colour bar."""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")  # no display in CI; set before pyplot is imported

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.axes import Axes

import judgestats as js
from judgestats.datasets import load_arena_pairs
from tests.pairwise.test_leaderboard import simulate


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def arena():
    """The bundled Arena pairs: 20 models, GPT-4's verdicts, 10% of the human votes kept."""
    pairs = load_arena_pairs()
    keep = np.random.default_rng(29).random(len(pairs)) < 0.10  # as notebook 11
    return js.pairwise(pairs.assign(human=pairs["human"].where(keep)), judge="judge_gpt-4", rng=0)


def _overlaps(labels) -> int:
    """How many neighbouring tick labels overlap once drawn (their window extents)."""
    boxes = sorted((t.get_window_extent() for t in labels if t.get_text()), key=lambda b: b.x0)
    return sum(a.x1 > b.x0 for a, b in itertools.pairwise(boxes))


def test_the_rank_heat_map_of_20_models_has_readable_ticks_and_a_labelled_colour_bar(arena):
    assert len(arena.models) == 20
    ax = arena.plot()
    assert isinstance(ax, Axes)
    fig = ax.figure
    heat, bar = fig.axes[1], fig.axes[2]
    np.testing.assert_allclose(heat.images[0].get_array(),
                               arena.rank_probabilities[np.argsort(arena.rank)])  # fmt: skip
    assert bar.get_ylabel() == "P(rank = r)"
    assert heat.get_xlabel() == "rank r (1 = best)"
    # ranks 1, 5, 10, 15, 20 labelled (the image's columns 0, 4, 9, ...), every rank a minor tick
    assert [t.get_text() for t in heat.get_xticklabels()] == ["1", "5", "10", "15", "20"]
    np.testing.assert_array_equal(heat.get_xticks(), [0, 4, 9, 14, 19])
    ticked = set(heat.get_xticks()) | set(heat.get_xticks(minor=True))  # minor: not under majors
    assert sorted(ticked) == list(range(20))
    fig.canvas.draw()
    assert _overlaps(heat.get_xticklabels()) == 0
    # the measure sees the old crowding: all 20 ranks labelled at this width overlap
    heat.set_xticks(np.arange(20), [str(r) for r in range(1, 21)])
    fig.canvas.draw()
    assert _overlaps(heat.get_xticklabels()) > 0


def test_a_few_models_label_every_rank_and_given_axes_are_drawn_on():
    rng = np.random.default_rng(2917)
    board = js.pairwise(simulate(rng, np.array([0.6, 0.0, -0.6]), n=1500, labelled=0.2), rng=0)
    fig, (left, right) = plt.subplots(1, 2)
    assert board.plot(ax=(left, right)) is left
    assert [t.get_text() for t in right.get_xticklabels()] == ["1", "2", "3"]
    assert len(fig.axes) == 3  # the two given and the colour bar
    with pytest.raises(js.errors.ArgumentTypeError, match="ax must be None or two matplotlib"):
        board.plot(ax=left)
