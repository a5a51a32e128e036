"""The monitor with a jury (judge=[...]) and with covariates beside a score (issue 39)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize

import judgestats as js
from judgestats.errors import ArgumentTypeError, ColumnError, LabelError
from judgestats.sequential.inputs import frame_pool, jury_rank
from judgestats.sequential.pool import SMOOTHING, PoolState, cell_probabilities
from judgestats.sequential.replays import replay_labelling
from judgestats.sequential.stacking import REFIT, RIDGE, Stack


def _jury_pool(n: int, seed: int, d=(1.0, 2.5), letters=(), theta=0.3):
    """(pool frame: item, m0.., length, category; human labels y): judges N(d_j y + bias, 1)
    correlated through a shared term, biased by the length and category (they predict where
    the judges err)."""
    g = np.random.default_rng(seed)
    y = (g.random(n) < theta).astype(float)
    x, cat, shared = g.normal(size=n), g.choice(np.array(["a", "b"]), n), g.normal(size=n)
    frame = {"item": np.arange(n), "length": x, "category": cat}
    for j, dj in enumerate(d):
        s = dj * y + 0.8 * (x + (cat == "a")) + 0.5 * shared + 0.8 * g.normal(size=n)
        frame[f"m{j}"] = (s > dj / 2).astype(int) if j in letters else s
    return pd.DataFrame(frame), y


def _run(frame, y, rounds=3, budget=100, seed=0, design="random", **kw):
    """A monitor labelling ``rounds`` rounds of ``budget`` items, and its intervals per look."""
    mon = js.sequential.Monitor(design=design, rng=seed).set_pool(frame, item="item", **kw)
    looks = []
    for _ in range(rounds):
        b = mon.next_batch(budget)
        b["human"] = y[b["item"].to_numpy()]
        mon.update(b, inclusion_probability="inclusion_probability")
        looks.append((mon.interval.low, mon.interval.high))
    return mon, looks


@pytest.mark.parametrize("combine", ["mean", "letters"])
def test_a_jury_of_one_score_repeated_is_the_plain_score_monitor(combine):
    """Exact identity: a jury whose members are one score (twice) makes the same cells and the
    same predictions as that score alone, so every interval is the same to the last bit."""
    frame, y = _jury_pool(1500, seed=1)
    plain, looks = _run(frame, y, judge="m0")
    jury, jury_looks = _run(frame.assign(copy=frame["m0"]), y, judge=["m0", "copy"],
                            combine=combine)  # fmt: skip
    assert jury_looks == looks
    assert jury._groups[()].pool.parent is None and len(jury._groups[()].pool.cells) == 10
    assert plain.predictor.startswith("the labelled rate within the judge score's bin")
    assert "jury" in jury.predictor


def test_the_prediction_at_a_draw_does_not_see_later_labels():
    """Predictability: two runs share the first 190 labels and differ after; every increment
    up to draw 190 (its prediction, bounds and bet) is identical, and they differ later."""
    frame, y = _jury_pool(2000, seed=2)
    other = y.copy()
    seqs = []
    for labels in (y, other):
        mon = js.sequential.Monitor(design="random", rng=5)
        mon.set_pool(frame, item="item", judge=["m0", "m1"], covariates=["length", "category"])
        for r in range(2):
            b = mon.next_batch(100)
            human = labels[b["item"].to_numpy()].copy()
            if r == 1 and labels is other:
                human[90:] = 1.0 - human[90:]  # the round's last 10 labels change
            mon.update(b.assign(human=human), inclusion_probability="inclusion_probability")
        seq = mon._groups[()].sequence
        seqs.append(np.array([seq.z, seq.lo, seq.hi, seq.lam]))
    assert np.array_equal(seqs[0][:, :190], seqs[1][:, :190])
    assert not np.array_equal(seqs[0][0, 190:], seqs[1][0, 190:])


def test_stack_is_the_penalised_logistic_fit_and_refits_every_block():
    """The stack's rates against an independent fit (scipy's BFGS on the same penalised
    binomial log-likelihood, to 1e-6), refit only when REFIT more labels arrived."""
    g = np.random.default_rng(3)
    x = np.column_stack([np.ones(30), g.normal(size=(30, 2))])
    n = g.integers(0, 4, 30).astype(float)
    n[0] += REFIT - n.sum() % REFIT  # a whole block of labels
    s = np.minimum(n, np.round(n / (1 + np.exp(-(x @ [0.3, 1.5, -1.0]))) + g.random(30) - 0.5))

    def loss(b):
        eta = x @ b
        return -(s * eta - n * np.logaddexp(0.0, eta)).sum() + 0.5 * RIDGE * b @ b

    want = minimize(loss, np.zeros(3), method="BFGS", options={"gtol": 1e-10}).x
    stack = Stack(x)
    got = stack.rates(s, n)
    assert got == pytest.approx(1 / (1 + np.exp(-(x @ want))), abs=1e-6)
    more = n.copy()
    more[1] += 1  # one more label: the same block, the same fit
    assert np.array_equal(stack.rates(s, more), got)


@pytest.mark.parametrize("kind", ["stack", "parent"])
def test_conditional_mean_is_the_pool_rate_exactly(kind):
    """E[Z_t | past] = θ to 1e-12 with the stack's and the bin-shrunk predictions."""
    g = np.random.default_rng(4)
    cells = np.repeat(np.arange(6), 20)
    y = (g.random(120) < np.array([0.05, 0.2, 0.3, 0.6, 0.7, 0.9])[cells]).astype(float)
    size = np.bincount(cells)
    extra = {"features": np.column_stack([np.ones(6), np.arange(6.0) - 2.5])} if kind == "stack" \
        else {"parent": np.array([0, 0, 1, 1, 2, 2])}  # fmt: skip
    state = PoolState(size, size.astype(float), np.ones(6), True, **extra)
    labelled = np.zeros(120, bool)
    for i in g.choice(120, 45, replace=False):
        state.record(cells[i], y[i], 1.0)
        labelled[i] = True
    if kind == "parent":  # the bin-shrunk prediction written out for cell 3 (bin 1)
        v, m = state.labelled_sum, state.labelled_n
        bv, bn = np.bincount(extra["parent"], v), np.bincount(extra["parent"], m)
        near = (bv.sum() + 0.5) / (bn.sum() + 1.0)  # bin 1's neighbours are bins 0-2
        rate = (bv[1] + SMOOTHING * near) / (bn[1] + SMOOTHING)
        assert state.prediction()[3] == pytest.approx((v[3] + SMOOTHING * rate)
                                                      / (m[3] + SMOOTHING), abs=1e-12)
    for strategy in ("uniform", "by-judge-label"):
        q = cell_probabilities(state.remaining, state.spread(), strategy)
        mean = sum(q[cells[i]] / state.remaining[cells[i]] * state.increment(cells[i], y[i], q).z
                   for i in np.flatnonzero(~labelled))  # fmt: skip
        assert mean == pytest.approx(y.mean(), abs=1e-12)


def test_stacked_jury_covers_time_uniformly_and_beats_the_mean():
    """150 replays of 300 uniform draws (MC s.e. 0.018 at 0.95): coverage >= 0.89 for the
    stack and the mean-rank bins on one pool of a weak and a strong judge (d = 1 and 2.5,
    correlated, biased by length and category; sequential_jury.md's first grid pool). The
    stack learns to weigh the strong judge: narrower than the members' equal-weight mean
    rank at 300 labels (the study: 1.13x the best member for the mean, 1.01x for the stack)."""
    frame, y = _jury_pool(4000, seed=5)
    out = {}
    for combine in ("stack", "mean"):
        pool = frame_pool(frame, item="item", judge=["m0", "m1"], by=(), strata=(),
                          combine=combine)[()]  # fmt: skip
        size = np.bincount(pool.cell).astype(float)
        pos = np.bincount(pool.cell, weights=y[pool.items.astype(int)])
        out[combine] = replay_labelling(size, pos, labels=300, looks=(300,), reps=150,
                                        fixed=False, rng=7, smooth=True, parent=pool.parent,
                                        features=pool.features)  # fmt: skip
        assert out[combine].covered.mean() >= 0.89, combine
    assert out["stack"].width.mean() < 0.97 * out["mean"].width.mean()


def test_jury_rank_orders_0_1_votes_whatever_each_judge_rate():
    """For 0/1 judges the mean rank is the number of yes votes, shifted (each judge's two
    letters' mean ranks differ by exactly 1/2)."""
    g = np.random.default_rng(6)
    votes = (g.random((500, 3)) < [0.1, 0.5, 0.8]).astype(float)
    r = jury_rank(votes)
    by_votes = [np.unique(r[votes.sum(axis=1) == k].round(12)) for k in range(4)]
    assert all(v.size <= 3 for v in by_votes)  # which judges said yes still moves the rank...
    order = np.argsort(r, kind="stable")
    assert np.all(np.diff(votes.sum(axis=1)[order]) >= 0)  # ...but never past a whole vote


def test_covariates_are_strata_within_the_score_bins():
    frame, y = _jury_pool(2000, seed=8)
    mon, looks = _run(frame, y, judge="m0", covariates=["length", "category"])
    pool = mon._groups[()].pool
    # 10 score bins × 4 length bins × 2 categories, every cell shrunk towards its bin
    assert 70 <= len(pool.cells) <= 80 and pool.parent is not None and pool.parent.max() == 9
    assert f"bin and stratum ({len(pool.cells)} cells)" in mon.summary()
    assert y.mean() in mon.interval and looks[-1][1] - looks[-1][0] < looks[0][1] - looks[0][0]
    stacked, _ = _run(frame, y, judge=["m0", "m1"], covariates=["length", "category"])
    x = stacked._groups[()].pool.features
    assert x.shape[1] == 5  # 1, the two members' normal scores, the length's, category b
    assert "logistic stack" in stacked.predictor


def test_a_jury_of_letters_under_by_judge_label():
    frame, y = _jury_pool(3000, seed=9, d=(1.5, 2.0, 2.5), letters=(0, 1, 2))
    mon, _ = _run(frame, y, design="by-judge-label", judge=["m0", "m1", "m2"])
    assert len(mon._groups[()].pool.cells) == 8  # the product letters: the stack's cells
    assert y.mean() in mon.interval and mon.labels == {(): 300}


def test_bad_jury_and_covariate_input_is_named():
    frame, _ = _jury_pool(200, seed=10)
    mon = js.sequential.Monitor(design="random")

    def set_pool(**kw):
        return js.sequential.Monitor(design="random").set_pool(frame, item="item", **kw)

    with pytest.raises(ColumnError, match="no column 'nope'"):
        set_pool(judge=["m0", "nope"])
    with pytest.raises(ArgumentTypeError, match=r"a jury needs two or more judge columns"):
        set_pool(judge=["m0"])
    with pytest.raises(ArgumentTypeError, match=r"jury member column 'category' must be numeric"):
        set_pool(judge=["m0", "category"])
    with pytest.raises(ArgumentTypeError, match=r"combine='stack' combines several judges"):
        set_pool(judge="m0", combine="stack")
    with pytest.raises(ArgumentTypeError, match=r"combine must be one of \['stack', 'mean'"):
        set_pool(judge=["m0", "m1"], combine="vote")
    gap = frame.assign(length=frame["length"].where(frame.index != 3))
    with pytest.raises(LabelError, match=r"covariate 'length' is empty at row 3"):
        js.sequential.Monitor(design="random").set_pool(gap, item="item", judge=["m0", "m1"],
                                                        covariates="length")  # fmt: skip
    with pytest.raises(ColumnError, match="no column 'size'"):
        set_pool(judge="m0", covariates=["size"])
    with pytest.raises(ArgumentTypeError, match="covariates="):
        mon.set_pool(js.JudgedCounts(40, 100), covariates="length")


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_a_jury_with_covariates_on_every_engine_gives_the_same_sequence(engine):
    frame, y = _jury_pool(800, seed=11, letters=(1,))
    convert = {"polars": lambda f: pytest.importorskip("polars").from_pandas(f),
               "duckdb": lambda f: pytest.importorskip("duckdb").from_df(f)}[engine]  # fmt: skip
    out = {}
    for name, conv in (("pandas", lambda f: f), (engine, convert)):
        mon = js.sequential.Monitor(design="by-judge-label", rng=0)
        mon.set_pool(conv(frame), item="item", judge=["m0", "m1"], covariates=["category"])
        b = mon.next_batch(60)
        b["human"] = y[b["item"].to_numpy()]
        mon.update(conv(b), inclusion_probability="inclusion_probability")
        out[name] = (mon.interval.low, mon.interval.high)
    assert out[engine] == out["pandas"]


def test_replay_and_next_batch_take_a_jury():
    frame, y = _jury_pool(1000, seed=12)
    labelled = frame.assign(human=np.where(np.arange(1000) < 200, y, np.nan))
    mon = js.sequential.replay(labelled, design="random", judge=["m0", "m1"], rng=0,
                               covariates="category")  # fmt: skip
    assert mon.labels == {(): 200} and y.mean() in mon.interval and mon.scored
    batch = js.sequential.next_batch(labelled, budget=20, judge=["m0", "m1"], combine="mean",
                                     rng=1)  # fmt: skip
    assert len(batch) == 20 and not set(batch["item"]) & set(range(200))
