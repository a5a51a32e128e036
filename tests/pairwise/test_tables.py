"""PairwiseLeaderboard's outputs: to_xarray (ArviZ's interval layout) and report() in 3 formats.

Provenance: every number read back from the Dataset and the reports is the leaderboard's own
field (computed by js.pairwise, whose values tests/pairwise/test_leaderboard.py checks), so these tests
check the layout and the routing: the Dataset's variables against the fields one by one, the
reports' rows against to_dataframe() rounded to ``digits``.
"""

from __future__ import annotations

import html

import numpy as np
import pytest

import judgestats as js
from tests.pairwise.test_leaderboard import simulate

pytest.importorskip("xarray")


@pytest.fixture(scope="module")
def board():
    rng = np.random.default_rng(2929)
    frame = simulate(rng, np.array([-0.8, -0.3, 0.0, 0.4, 0.7]), n=3000, labelled=0.15)
    return js.pairwise(frame, rng=0)


def test_to_xarray_holds_every_field_in_arviz_layout(board):
    ds = board.to_xarray()
    assert list(ds["ci_bound"].values) == ["lower", "upper"]
    assert ds.attrs["ci_kind"] == board.interval == "sandwich"
    assert ds.attrs["ci_prob"] == board.confidence_level
    assert ds.attrs["estimator"] == board.estimator and ds.attrs["design"] == "random"
    assert list(ds["model"].values) == list(board.models)
    np.testing.assert_array_equal(ds["strength"].values, board.strength)
    np.testing.assert_array_equal(ds["strength_ci"].sel(ci_bound="lower"), board.strength_ci[:, 0])
    np.testing.assert_array_equal(ds["elo_ci"].sel(ci_bound="upper"), board.elo_ci[:, 1])
    np.testing.assert_array_equal(ds["rank_set"].sel(rank_bound="worst"), board.rank_set[:, 1])
    np.testing.assert_array_equal(
        ds["rank_probability"].sel(rank=1), board.rank_probabilities[:, 0]
    )
    pick = {"model": board.models[4], "opponent": board.models[0]}
    assert float(ds["win_probability"].sel(pick)) == board.prob_win(*pick.values())
    low = ds["win_probability_ci"].sel({**pick, "ci_bound": "lower"})
    assert float(low) == board.win_probability_ci[4, 0, 0]
    np.testing.assert_array_equal(ds["confusion"].values, board.confusion)
    np.testing.assert_array_equal(ds["naive_strength"].values, board.naive.strength)
    assert float(ds["tie"]) == board.tie
    # the Dataset's rank probabilities are distributions over ranks, as the field's
    np.testing.assert_allclose(ds["rank_probability"].sum("rank").values, 1.0)


@pytest.mark.parametrize("fmt", ["markdown", "latex", "html"])
def test_report_lists_every_model_by_rank_with_its_interval(board, fmt):
    text = board.report(fmt, digits=3, figure=False)
    assert js.report.report(board, fmt, digits=3, figure=False) == text  # the same renderer
    text = html.unescape(text) if fmt == "html" else text
    table = board.to_dataframe()
    positions = [text.index(f" {m} " if fmt != "html" else f"<td>{m}</td>") for m in table.model]
    assert positions == sorted(positions)  # rows in rank order
    for _, row in table.iterrows():
        assert f"[{row.strength_lower:.3f}, {row.strength_upper:.3f}]" in text
    assert board.estimator in text and "sandwich" in text and "'random'" in text
    assert f"{board.confusion[0, 0]:.3f}" in text


def test_html_report_embeds_the_figure_and_rate_options_are_refused(board):
    pytest.importorskip("matplotlib")
    assert "data:image/png;base64," in board.report("html")
    with pytest.raises(js.errors.ArgumentTypeError, match="metric, reference"):
        board.report(metric="win rate", reference={"m0": 0.1})
    with pytest.raises(ValueError, match="format"):
        board.report("pdf")


def test_to_xarray_marks_fits_not_made(board):
    """Under design="by-human-label" no human-only fit is made (NaN) and λ is not an attr."""
    rng = np.random.default_rng(2932)
    frame = simulate(rng, np.array([-0.5, 0.0, 0.5]), n=2000, labelled=0.2)
    chosen = js.pairwise(frame, design="by-human-label", rng=0)
    ds = chosen.to_xarray()
    assert chosen.human_only is None and np.isnan(ds["human_only_strength"]).all()
    assert "lam" not in ds.attrs and ds.attrs["method"] == "joint-mle"
    assert board.to_xarray().attrs["lam"] == board.lam


def test_summary_aligns_wide_model_names_by_terminal_columns():
    """Issue 38 tour: CJK and emoji model names misaligned the text table (padded by
    characters, where a wide character takes two terminal columns). Every row's strength
    column starts at the same terminal column, counted independently here with
    ``unicodedata.east_asian_width`` (W and F: two columns)."""
    import unicodedata

    def columns(text):
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)

    rng = np.random.default_rng(3838)
    frame = simulate(rng, np.array([-0.5, 0.0, 0.5]), n=1500, labelled=0.2)
    names = {"m0": "模型甲-通义千问-大号版", "m1": "🤖 robot", "m2": "plain-model"}
    for side in ("model_a", "model_b"):
        frame[side] = frame[side].map(names)
    text = js.pairwise(frame, rng=0).summary().splitlines()
    head = next(i for i, line in enumerate(text) if line.lstrip().startswith("rank"))
    header, rows = text[head], text[head + 1:head + 4]
    strength_ends = columns(header[:header.index("strength") + len("strength")])
    for line in rows:  # the strength value ends where the header's "strength" ends
        name = next(n for n in names.values() if n in line)
        cut = line.index(name) + len(name)
        value = line[cut:].split()[0]
        assert columns(line[:line.index(value, cut) + len(value)]) == strength_ends, line
