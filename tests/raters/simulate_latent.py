"""Simulated ratings with a known latent class, shared by the tests and the benchmark.

Binary truth ``z ~ Bernoulli(prevalence)``; rater ``r`` reports ``z`` with probability
``sensitivity[r]`` (``z = 1``) or ``specificity[r]`` (``z = 0``), else the other label,
independently given ``z`` (the Dawid–Skene model). Missing ratings: every rater but the last
(the judge, who rates every item) skips an item with probability ``missing``.

Two ways to break conditional independence (``correlation=``):

* ``"difficulty"``: a share ``strength`` of the items is hard, and on a hard item the first two
  raters (humans) make the same error together with probability ½;
* ``"copy"``: the last rater (the judge) copies the first rater's label with probability
  ``strength``.
"""

from __future__ import annotations

import numpy as np

CORRELATIONS = (None, "difficulty", "copy")


def simulate_ratings(rng, n_items, prevalence, sensitivity, specificity, *, missing=0.0,
                     correlation=None, strength=0.3, n_sets=1):  # fmt: skip
    """Code matrices ``(n_sets, n_items, R)`` (−1 missing) and the true labels ``(n_sets, n)``."""
    sens = np.asarray(sensitivity, dtype=float)
    spec = np.asarray(specificity, dtype=float)
    r = sens.size
    truth = (rng.random((n_sets, n_items)) < prevalence).astype(np.int64)
    right = np.where(truth[..., None] == 1, sens, spec)
    correct = rng.random((n_sets, n_items, r)) < right
    codes = np.where(correct, truth[..., None], 1 - truth[..., None])
    if correlation == "difficulty":
        hard = rng.random((n_sets, n_items)) < strength
        shared = hard & (rng.random((n_sets, n_items)) < 0.5)
        codes[..., :2] = np.where(shared[..., None], (1 - truth)[..., None], codes[..., :2])
    elif correlation == "copy":
        copy = rng.random((n_sets, n_items)) < strength
        codes[..., -1] = np.where(copy, codes[..., 0], codes[..., -1])
    elif correlation is not None:
        raise ValueError(f"correlation must be one of {CORRELATIONS}, got {correlation!r}")
    skip = rng.random((n_sets, n_items, r)) < missing
    skip[..., -1] = False
    codes[skip] = -1
    return codes, truth


def draw_cell(rng):
    """One cell drawn at random from the issue's grid: 3-6 raters, one much worse than the
    others, prevalence 0.1-0.9, 50-2,000 items (log-uniform), missingness 0-50%."""
    r = int(rng.integers(3, 7))
    good = rng.uniform(0.75, 0.95, size=(2, r))
    bad = rng.uniform(0.55, 0.7, size=2)  # the much worse rater (J = 0.1-0.4)
    worst = int(rng.integers(r))
    good[:, worst] = bad
    return {
        "raters": r,
        "prevalence": float(rng.uniform(0.1, 0.9)),
        "n_items": int(np.exp(rng.uniform(np.log(50), np.log(2000)))),
        "missing": float(rng.uniform(0.0, 0.5)),
        "sensitivity": good[0],
        "specificity": good[1],
        "worst": worst,
    }


def all_patterns(r):
    """Every rating pattern of ``r`` binary raters with some rated (−1 missing), in the order
    :func:`judgestats.raters.latent_em.patterns` sorts them: a model built on these has a
    place for any data set's pattern counts."""
    grid = np.array(np.meshgrid(*[[-1, 0, 1]] * r, indexing="ij")).reshape(r, -1).T
    return np.unique(grid[(grid >= 0).any(axis=1)], axis=0)


def sbc_rank(rng, model, patterns, sample, *, n_items=150, missing=0.2, n_ranks=99):
    """One replicate of simulation-based calibration (Talts et al. 2018) of the prevalence.

    Draws the parameters from the prior of ``js.bayes.fit_raters``'s defaults (prevalence
    Dirichlet(1, 1), confusion rows Dirichlet(2 on the diagonal, 1 off it)), data from the
    model, sets the pattern counts of ``model`` (built on ``patterns``), samples it with
    ``sample(model)`` and returns the rank of the true prevalence among ``n_ranks`` thinned
    draws (uniform on 0..n_ranks when the posterior is calibrated).
    """
    import pymc as pm

    r = patterns.shape[1]
    prevalence = rng.dirichlet([1.0, 1.0])[1]
    rows = np.array([[rng.dirichlet([2.0, 1.0]) for _ in range(2)] for _ in range(r)])
    sens, spec = rows[:, 1, 0], rows[:, 0, 0]  # P(label 1 | class 1), P(label 0 | class 0)
    codes, _ = simulate_ratings(rng, n_items, prevalence, sens, spec, missing=missing)
    keys = {tuple(row): i for i, row in enumerate(patterns)}
    counts = np.zeros(len(patterns))
    for row in codes[0]:
        counts[keys[tuple(row)]] += 1
    with model:
        pm.set_data({"pattern_count": counts})
    tree = sample(model)
    draws = np.asarray(tree["posterior"]["prevalence"].values)[..., 1].ravel()
    thinned = draws[np.linspace(0, draws.size - 1, n_ranks).astype(int)]
    return int((thinned < prevalence).sum())


def simulate_categories(rng, n_items, prevalence, confusion, *, missing=0.0, n_sets=1):
    """Code matrices ``(n_sets, n_items, R)`` (−1 missing) from the k-class Dawid–Skene model.

    ``prevalence`` ``(k,)``; ``confusion[r, c, l]``: rater ``r`` labels an item of class ``c``
    with ``l``. Missing as :func:`simulate_ratings` (the last rater rates every item).
    """
    pi = np.asarray(confusion, dtype=float)
    r, k, _ = pi.shape
    truth = rng.choice(k, size=(n_sets, n_items), p=np.asarray(prevalence, dtype=float))
    cum = np.cumsum(pi, axis=2)  # (R, k, k)
    u = rng.random((n_sets, n_items, r))
    rows = cum[np.arange(r)[None, None, :], truth[..., None]]  # (n_sets, n, R, k)
    codes = np.minimum((u[..., None] > rows).sum(axis=3), k - 1)
    skip = rng.random((n_sets, n_items, r)) < missing
    skip[..., -1] = False
    codes[skip] = -1
    return codes, truth


def draw_category_cell(rng, k=3):
    """One k-class cell drawn at random: 3-6 raters, one much worse (right with probability
    0.45-0.6 per class against 0.75-0.95), errors spread over the other classes by a flat
    Dirichlet, prevalence Dirichlet(2, ..., 2), 100-2,000 items (log-uniform), 0-50% missing."""
    r = int(rng.integers(3, 7))
    right = rng.uniform(0.75, 0.95, size=(r, k))
    worst = int(rng.integers(r))
    right[worst] = rng.uniform(0.45, 0.6, size=k)
    confusion = np.empty((r, k, k))
    for j in range(r):
        for c in range(k):
            spread = rng.dirichlet(np.ones(k - 1)) * (1 - right[j, c])
            confusion[j, c] = np.insert(spread, c, right[j, c])
    return {
        "raters": r,
        "prevalence": rng.dirichlet(np.full(k, 2.0)),
        "n_items": int(np.exp(rng.uniform(np.log(100), np.log(2000)))),
        "missing": float(rng.uniform(0.0, 0.5)),
        "confusion": confusion,
        "worst": worst,
    }
