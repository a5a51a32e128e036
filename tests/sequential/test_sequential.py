"""js.sequential: the betting confidence sequence, the monitor and next_batch (issue 28)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats.sequential.betting import BettingSequence, log_capital
from judgestats.sequential.pool import PoolState, cell_probabilities
from judgestats.sequential.replays import replay_labelling


def _pool(n: int, theta: float, q0: float, q1: float, seed: int, letters: int = 2):
    """A realised pool: truths, verdicts (binary, or letters from an ordered latent score)."""
    g = np.random.default_rng(seed)
    y = (g.random(n) < theta).astype(int)
    if letters == 2:
        judge = np.where(y == 1, g.random(n) < q1, g.random(n) > q0).astype(int)
    else:
        score = y + g.normal(0, 0.6, n)
        judge = np.digitize(score, np.quantile(score, np.linspace(0, 1, letters + 1)[1:-1]))
        judge = np.array(list("abcdefgh"))[judge]
    return pd.DataFrame({"item": np.arange(n), "judge": judge}), y


# ------------------------------------------------------------------ the formulas
def test_sequence_ends_are_the_crossings_of_the_capital():
    """Independent check: a fine grid of log K± (direct log1p sums) brackets each end."""
    g = np.random.default_rng(3)
    seq = BettingSequence(0.9)
    for _ in range(200):
        seq.add(g.random() * 0.6 + 0.1, 0.0, 1.0, 0.4)
    low, high = seq.interval()
    z, lam = np.array(seq.z), np.array(seq.lam)
    level = np.log(2 / 0.1)
    grid = np.linspace(0, 1, 200_001)[1:-1]
    # the bets truncated at c/(m − lo) and c/(hi − m), lo = 0, hi = 1, written out here
    up = np.array([np.log1p(np.minimum(lam, 0.5 / m) * (z - m)).sum() for m in grid[::100]])
    down = np.array([np.log1p(-np.minimum(lam, 0.5 / (1 - m)) * (z - m)).sum()
                     for m in grid[::100]])  # fmt: skip
    kept = grid[::100][(up < level) & (down < level)]
    assert low <= kept.min() and high >= kept.max()
    assert kept.min() - low < 1e-3 and high - kept.max() < 1e-3  # grid step 1e-3
    lo, hi = np.zeros_like(z), np.ones_like(z)
    assert log_capital(z, lam, lo, hi, np.array(low - 1e-9))[0] >= level - 1e-9
    assert 0.35 < low < 0.4 < high < 0.45  # z has mean 0.4


@pytest.mark.parametrize("strategy", ["uniform", "by-judge-label"])
def test_increment_has_conditional_mean_theta_exactly(strategy):
    """E[Z_t | past] = θ: the sum over every unlabelled item of p_i Z(i), to 1e-12."""
    g = np.random.default_rng(5)
    cells = np.array([0] * 30 + [1] * 50 + [2] * 20)
    y = (g.random(100) < np.array([0.2, 0.7, 0.5])[cells]).astype(float)
    state = PoolState(np.bincount(cells), np.bincount(cells).astype(float), np.ones(3))
    labelled = np.zeros(100, bool)
    for i in g.choice(100, 25, replace=False):  # some labels already in
        state.record(cells[i], y[i], 1.0)
        labelled[i] = True
    q = cell_probabilities(state.remaining, state.spread(), strategy)
    mean = sum(
        q[cells[i]] / state.remaining[cells[i]] * state.increment(cells[i], y[i], q).z
        for i in np.flatnonzero(~labelled)
    )
    assert mean == pytest.approx(y.mean(), abs=1e-12)
    inc = state.increment(0, 1.0, q)
    zs = [state.increment(cells[i], y[i], q).z for i in np.flatnonzero(~labelled)]
    assert inc.lo <= min(zs) and max(zs) <= inc.hi


# ------------------------------------------------------------------ validity (fast tier)
@pytest.mark.parametrize("strategy", ["uniform", "by-judge-label"])
@pytest.mark.parametrize("cell", [(0.3, 0.85, 0.8, 5000, 2), (0.08, 0.6, 0.9, 3000, 2),
                                  (0.6, 0.0, 0.0, 4000, 4)])  # fmt: skip
def test_time_uniform_coverage(strategy, cell):
    """Truth inside every interval up to 600 labels, 300 replays (s.e. 0.013 at 0.95).

    Grid: three pools (binary judges at θ = 0.3 and a rare θ = 0.08 with an insensitive judge;
    four letters from an ordered latent score), both strategies, batch 20. The fixed-sample
    stratified Wald interval peeked after every batch covers far less: the failure prevented.
    """
    theta, q0, q1, n, letters = cell
    frame, y = _pool(n, theta, q0, q1, seed=11, letters=letters)
    codes = pd.factorize(frame["judge"], sort=True)[0]
    size = np.bincount(codes)
    positive = np.bincount(codes, weights=y)
    res = replay_labelling(size, positive, strategy=strategy, labels=600, reps=300,
                           looks=(100, 600), rng=2024)  # fmt: skip
    assert res.covered.mean() >= 0.92
    assert res.covered_fixed.mean() <= 0.85
    ratio = np.nanmean(res.width[:, 1]) / np.nanmean(res.width_fixed[:, 1])
    assert 1.2 < ratio < 2.0  # the price of validity at 600 labels


@pytest.mark.slow
def test_monitor_covers_at_every_look():
    """The Monitor itself (frames, next_batch, update), 150 processes of 300 labels."""
    misses = 0
    for rep in range(150):
        frame, y = _pool(1500, 0.4, 0.8, 0.75, seed=rep)
        mon = js.sequential.Monitor(design="by-judge-label", rng=rep).set_pool(frame, item="item")
        for _ in range(10):
            b = mon.next_batch(30)
            mon.update(b.assign(human=y[b["item"].to_numpy()]),
                       inclusion_probability="inclusion_probability")  # fmt: skip
        hist = mon.history
        misses += not ((hist["low"] <= y.mean()) & (y.mean() <= hist["high"])).all()
    assert misses / 150 <= 0.1  # nominal <= 0.05; s.e. 0.018


# ------------------------------------------------------------------ the monitor
def test_every_item_labelled_gives_the_pool_rate_exactly():
    frame, y = _pool(400, 0.35, 0.8, 0.8, seed=1)
    mon = js.sequential.Monitor(design="random", rng=0).set_pool(frame, item="item")
    mon.update(frame.assign(human=y))
    assert mon.history["estimate"].iloc[-1] == pytest.approx(y.mean(), abs=1e-12)
    assert y.mean() in mon.interval
    assert mon.labels == {(): 400}


def test_rows_estimand_weights_each_judged_row():
    """Items judged 1 or 3 times: the rows estimand is Σ k_i y_i / Σ k_i (exact when all labelled)."""
    g = np.random.default_rng(2)
    k = g.choice([1, 3], 300)
    y = (g.random(300) < 0.5).astype(int)
    items = np.repeat(np.arange(300), k)
    frame = pd.DataFrame({"item": items, "judge": (g.random(items.size) < 0.5).astype(int)})
    for estimand, truth in (("items", y.mean()), ("rows", (k * y).sum() / k.sum())):
        mon = js.sequential.Monitor(design="random", estimand=estimand, rng=1)
        mon.set_pool(frame, item="item")
        mon.update(pd.DataFrame({"item": np.arange(300), "human": y}))
        assert mon.history["estimate"].iloc[-1] == pytest.approx(truth, abs=1e-12)
        assert truth in mon.interval


def test_raters_of_one_item_are_averaged():
    frame = pd.DataFrame({"item": [1, 2, 3, 4], "judge": [0, 1, 1, 0]})
    mon = js.sequential.Monitor(design="random", rng=0).set_pool(frame, item="item")
    mon.update(pd.DataFrame({"item": [1, 1, 2, 3, 4], "human": [0, 1, 1, 1, 0]}))
    assert mon.history["estimate"].iloc[-1] == pytest.approx((0.5 + 1 + 1 + 0) / 4)


def test_groups_and_strata_and_summary():
    frame, y = _pool(2000, 0.4, 0.85, 0.8, seed=4)
    frame = frame.assign(model=np.where(frame["item"] % 2 == 0, "a", "b"),
                         length=np.where(frame["item"] % 3 == 0, "long", "short"))  # fmt: skip
    mon = js.sequential.Monitor(design="by-judge-label", target_width=0.2, simultaneous=True,
                                rng=3)  # fmt: skip
    mon.set_pool(frame, item="item", by="model", strata="length")
    assert len(mon._groups["a"].pool.cells) == 4  # (stratum, letter)
    for _ in range(8):
        b = mon.next_batch(40)
        if b.empty:
            break
        mon.update(b.assign(human=y[b["item"].to_numpy()]),
                   inclusion_probability="inclusion_probability")  # fmt: skip
    assert set(mon.intervals) == {"a", "b"}
    for g, ci in mon.intervals.items():
        truth = y[frame["model"] == g].mean()
        assert ci.low <= truth <= ci.high
    text = mon.summary()
    assert "for all 2 groups at once (Bonferroni)" in text and "by-judge-label" in text
    with pytest.raises(js.errors.SequentialError, match="2 groups"):
        mon.interval  # noqa: B018


def test_counts_pool_and_batch():
    mon = js.sequential.Monitor(design="random", rng=0).set_pool(js.JudgedCounts(300, 1000))
    mon.update(js.ConfusionCounts(tp=20, fn=5, tn=60, fp=15))
    assert mon.labels == {(): 100}
    ci = mon.interval
    assert 0 < ci.low < ci.high < 1 and ci.method == "betting confidence sequence"
    with pytest.raises(js.errors.SequentialError, match="more judge-1 items"):
        mon.update(js.ConfusionCounts(tp=300, fn=0, tn=0, fp=0))


def test_next_batch_probabilities_and_replay():
    frame, y = _pool(600, 0.3, 0.9, 0.7, seed=8)
    first = js.plan.next_batch(frame, budget=50, strategy="by-judge-label", rng=7)
    assert list(first.columns) == ["item", "round", "draw", "inclusion_probability",
                                   "strategy", "seed"]  # fmt: skip
    assert first["item"].is_unique and (first["round"] == 1).all() and (first["seed"] == 7).all()
    assert first["inclusion_probability"].between(0, 1).all()
    again = js.plan.next_batch(frame, budget=50, strategy="by-judge-label", rng=7)
    pd.testing.assert_frame_equal(first, again)
    labelled = frame.merge(first, on="item", how="left")
    labelled["human"] = np.where(labelled["round"].notna(), y, np.nan)
    second = js.plan.next_batch(labelled, budget=20, strategy="by-judge-label", rng=8)
    assert (second["round"] == 2).all() and not set(second["item"]) & set(first["item"])
    mon = js.sequential.replay(labelled, design="by-judge-label")
    assert mon.labels == {(): 50}
    uni = js.plan.next_batch(frame, budget=3, strategy="uniform", rng=1)
    assert uni["inclusion_probability"].tolist() == pytest.approx([1 / 600, 1 / 599, 1 / 598])


# ------------------------------------------------------------------ bad input
def test_named_errors():
    frame, _ = _pool(100, 0.5, 0.8, 0.8, seed=0)
    with pytest.raises(js.errors.SequentialError, match=r"by-human-label.*within human labels"):
        js.sequential.Monitor(design="by-human-label")
    with pytest.raises(js.errors.MethodError, match=r"must be one of 'random' or 'by-judge-label'$"):
        js.sequential.Monitor(design="stratified")
    with pytest.raises(TypeError):
        js.sequential.Monitor()  # the design is not inherited from the package default
    mon = js.sequential.Monitor(design="random", rng=0)
    with pytest.raises(js.errors.SequentialError, match="set the judged pool first"):
        mon.update(pd.DataFrame({"item": [1], "human": [1]}))
    mon.set_pool(frame, item="item")
    with pytest.raises(js.errors.SequentialError, match="item 999"):
        mon.update(pd.DataFrame({"item": [999], "human": [1]}))
    mon.update(pd.DataFrame({"item": [1], "human": [1]}))
    with pytest.raises(js.errors.SequentialError, match="item 1 is already labelled"):
        mon.update(pd.DataFrame({"item": [1], "human": [0]}))
    with pytest.raises(js.errors.LabelError, match="0/1"):
        mon.update(pd.DataFrame({"item": [2], "human": [2]}))
    active = js.sequential.Monitor(design="by-judge-label", rng=0).set_pool(frame, item="item")
    with pytest.raises(js.errors.SequentialError, match="inclusion probability"):
        active.update(pd.DataFrame({"item": [1], "human": [1]}))
    b = active.next_batch(5).assign(human=1)
    b.loc[0, "inclusion_probability"] *= 2
    with pytest.raises(js.errors.SequentialError, match="does not match"):
        active.update(b, inclusion_probability="inclusion_probability")
    with pytest.raises(js.errors.MethodError, match="strategy"):
        js.plan.next_batch(frame, budget=5, strategy="greedy")


def test_the_monitor_resolves_its_spec_in_the_capability_table():
    """The table's rate-sequence rows say which designs a labelling process may have."""
    from judgestats.designs import as_design
    from judgestats.designs.capabilities import rows
    from judgestats.sequential.monitor import SEQUENCES
    from judgestats.sequential.pool import STRATEGY_NAMES

    table = [r for r in rows() if (r.judge, r.target) == ("letter", "rate-sequence")]
    designs = [d for r in table for d in r.designs]
    assert tuple(designs) == js.sequential.DESIGNS
    for row in table:  # every method of the rows has an implementation
        assert set(row.methods) <= set(SEQUENCES) and row.default in row.methods
    for name in designs:  # and every design a strategy that draws its labels
        assert as_design(name).draw_strategy in STRATEGY_NAMES
        assert js.sequential.STRATEGIES[name] == as_design(name).draw_strategy
    mon = js.sequential.Monitor(design="by-judge-label", confidence_level=0.9, estimand="rows")
    assert (mon.spec.method, mon.spec.target, mon.spec.estimand) == ("betting", "rate-sequence",
                                                                     "rows")  # fmt: skip
    assert mon.design is as_design("by-judge-label") and mon.strategy == "by-judge-label"
    with pytest.raises(js.errors.MethodError, match="estimand"):
        js.sequential.Monitor(design="random", estimand="groups")


# ------------------------------------------------------------------ planning
def test_labelling_plan_fixed_n_and_neyman_gain():
    """Fixed-n labels from Cochran's formulas written out here; the monitor needs more."""
    pi, r = np.array([0.5, 0.3, 0.2]), np.array([0.02, 0.5, 0.97])
    plan = js.plan.labelling_plan(pi, r, target_width=0.06, reps=60, rng=3)
    sd = np.sqrt(r * (1 - r))
    z = 1.959963984540054
    for got, var in ((plan.fixed_uniform, (pi * sd**2).sum()), (plan.fixed_neyman,
                                                                 (pi * sd).sum() ** 2)):  # fmt: skip
        n0 = (2 * z) ** 2 * var / 0.06**2
        assert got == int(np.ceil(n0 / (1 + n0 / 20_000)))
    assert plan.neyman_gain == pytest.approx(1 - (pi * sd).sum() ** 2 / (pi * sd**2).sum())
    assert plan.neyman_gain == pytest.approx(0.287, abs=0.001)
    assert plan.monitor_uniform > plan.fixed_uniform  # validity at every look costs labels
    # skewed letters: active draws save (18% at 200 replays, seed 1)
    assert plan.monitor_neyman < 0.9 * plan.monitor_uniform
    assert "theory 28.7%" in plan.summary()
    assert js.plan.neyman_gain([0.5, 0.5], [0.3, 0.3]) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_every_engine_gives_the_same_sequence(engine):
    frame, y = _pool(500, 0.3, 0.8, 0.8, seed=9)
    frame["model"] = np.where(frame["item"] % 2, "a", "b")
    convert = {"polars": lambda f: pytest.importorskip("polars").from_pandas(f),
               "duckdb": lambda f: pytest.importorskip("duckdb").from_df(f)}[engine]  # fmt: skip
    out = {}
    for name, conv in (("pandas", lambda f: f), (engine, convert)):
        mon = js.sequential.Monitor(design="by-judge-label", rng=0)
        mon.set_pool(conv(frame), item="item", by="model")
        b = mon.next_batch(30)
        b["human"] = y[b["item"].to_numpy()]
        mon.update(conv(b), inclusion_probability="inclusion_probability")
        out[name] = {k: (ci.low, ci.high) for k, ci in mon.intervals.items()}
    assert out[engine] == out["pandas"]


def test_history_as_xarray():
    frame, y = _pool(300, 0.3, 0.8, 0.8, seed=2)
    mon = js.sequential.Monitor(design="random", rng=0).set_pool(frame, item="item")
    for part in np.array_split(np.arange(300), 3):
        mon.update(pd.DataFrame({"item": part, "human": y[part]}))
    ds = mon.to_xarray()
    assert ds["ci"].dims == ("look", "group", "ci_bound") and ds.attrs["ci_prob"] == 0.95
    assert ds["labels"].sel(group="all").values.tolist() == [100, 200, 300]
    assert float(ds["ci"].sel(look=3, ci_bound="lower")[0]) == mon.interval.low


def test_guide_arena_replay_runs_as_written(capsys):
    """The guide's Chatbot Arena replay (docs/guide/sequential.md), executed verbatim."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs/guide/sequential.md").read_text(encoding="utf-8")
    section = text.split("## A replay on Chatbot Arena", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/guide/sequential.md", "exec"), {})
    out = capsys.readouterr().out
    assert "target width 0.12: stop" in out and out.count("after ") == 20
