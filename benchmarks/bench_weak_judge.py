"""Weak judges and small calibration sets: which interval method when, and the warning rule.

Part 1, simulation with known truth (js.simulate.draw counts), every method on the same data
sets, on four grids:

* **study**: q0 + q1 in {1.05, 1.1, 1.2, 1.4, 1.6}, split symmetrically (q0 = q1) and
  "lenient" (q1 = 0.9, q0 = sum − 0.9), m0 = m1 = m in {5, 10, 20, 50, 100}, θ in {0.05, 0.2,
  0.5, 0.8, 0.95}, n = 1000 (250 cells);
* **independent**: the cells of an outside study (issue 15), chosen away from our grids:
  θ in {.02, .1, .3, .6, .9, .98}, (q0, q1) in {(.95, .6), (.6, .95), (.75, .75), (.99, .99)},
  (m0, m1) in {(15, 60), (60, 15), (40, 40), (300, 300)}, n in {200, 5000} (192 cells);
* **weak**: a weak judge, true q0 + q1 = 1.25, split seven ways, eight (m0, m1) from (10, 40) to
  (200, 200), seven θ, n = 1000 (392 cells);
* **random**: 150 cells drawn at random (seeded): θ ~ U(0.02, 0.98), q0 + q1 ~ U(1.05, 1.95),
  m0, m1 and n log-uniform on [5, 500] and [200, 20000].

Coverage, mean length, bias, RMSE and the undefined rate per cell; the coverage among the data
sets where `correct()` issues no WeakCalibrationWarning (`js.correct.weak_calibration`, the
library's own rule); which point estimate has the lowest RMSE. Part 2, real data
(js.experiments.split_study): Chatbot Arena (GPT-4 and GPT-3.5 judges, the paper's six
targets) and NQ-301 (GPT-4 judge, 12 systems), 100 random splits per target at 10% and 5%
calibration.
Writes benchmarks/results/weak_judge.md, weak_judge_coverage.png, weak_judge_bias.png and
weak_judge_real.png.
Run: python benchmarks/bench_weak_judge.py [--quick] [--reps N]
"""

from __future__ import annotations

import argparse
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from _common import RESULTS, write_markdown

import judgestats as js
from judgestats import experiments
from judgestats.datasets import ARENA_TARGETS, load_chatbot_arena, load_nq301
from judgestats.estimators import rogan_gladen_raw
from judgestats.intervals import MIN_PER_CLASS, compute_bounds, weak_calibration, z_value
from judgestats.likelihood import profile_likelihood_bounds
from judgestats.posterior import theta_posterior
from judgestats.simulate import draw

LEVEL = 0.95
N_TEST = 1000
SUMS = (1.05, 1.1, 1.2, 1.4, 1.6)
MS = (5, 10, 20, 50, 100)
THETAS = (0.05, 0.2, 0.5, 0.8, 0.95)
#: how q0 + q1 is split into (specificity q0, sensitivity q1)
SPLITS = {
    "symmetric": lambda s: (s / 2.0, s / 2.0),
    "lenient": lambda s: (round(s - 0.9, 10), 0.9),
}
#: (display name, registered method, bayes point, bayes interval)
METHODS = (
    ("adjusted-wald", "adjusted-wald", None, None),
    ("wald", "wald", None, None),
    ("bootstrap", "bootstrap", None, None),
    ("profile-likelihood", "profile-likelihood", None, None),
    ("profile-likelihood-t", "profile-likelihood-t", None, None),
    ("profile-map", "profile-map", None, None),
    ("bayes mean+eti", "bayes", "mean", "eti"),
    ("bayes median+eti", "bayes", "median", "eti"),
    ("bayes median+hdi", "bayes", "median", "hdi"),
    ("bayes map+hdi", "bayes", "map", "hdi"),
    ("naive-wilson", "naive-wilson", None, None),
)
NAMES = tuple(m[0] for m in METHODS)
RG_BASED = ("adjusted-wald", "wald", "bootstrap")  # undefined where q̂0 + q̂1 <= 1
#: the bar of issue #10, part (b)
BAR_SUM, BAR_M, BAR_COVER = 1.2, 20, 0.93
#: bins of the observed q̂0 + q̂1 for the conditional-coverage table
QSUM_EDGES = (-np.inf, 1.0, 1.1, 1.2, 1.3, 1.4, 1.6, np.inf)
QSUM_LABELS = ("<= 1", "(1, 1.1]", "(1.1, 1.2]", "(1.2, 1.3]", "(1.3, 1.4]", "(1.4, 1.6]", "> 1.6")


# ----------------------------------------------------------------------------- evaluation
def _wilson(positive, n):
    z = float(z_value(LEVEL))
    p = positive / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1), p


def evaluate(test, cal, gen, n_resamples, timing=None):
    """Every method on a batch of data sets → {name: (low, high, point)}, NaN = undefined."""
    p = np.asarray(test.positive, float) / np.asarray(test.n, float)
    q0, q1 = np.asarray(cal.specificity, float), np.asarray(cal.sensitivity, float)
    informative = q0 + q1 > 1.0
    rg = np.where(informative, np.clip(rogan_gladen_raw(p, q0, q1), 0.0, 1.0), np.nan)
    out = {}
    for name in RG_BASED:
        kw = {"n_resamples": n_resamples} if name == "bootstrap" else {}
        b = compute_bounds(test, cal, method=name, confidence_level=LEVEL, rng=gen, **kw)
        low = np.where(informative, b.low, np.nan)
        high = np.where(informative, b.high, np.nan)
        out[name] = (low, high, np.where(np.isnan(low), np.nan, rg))
    t = time.perf_counter()
    low, high, mle = profile_likelihood_bounds(test, cal, LEVEL)
    if timing is not None:
        timing["profile-likelihood"] = timing.get("profile-likelihood", 0.0) + (
            time.perf_counter() - t
        )
    out["profile-likelihood"] = (low, high, mle)
    low_t, high_t, _ = profile_likelihood_bounds(test, cal, LEVEL, small_sample=True)
    out["profile-likelihood-t"] = (low_t, high_t, mle)
    t = time.perf_counter()
    post = theta_posterior(test, cal)
    intervals = {k: post.interval(LEVEL, k) for k in ("eti", "hdi")}
    points = {"mean": post.mean(), "median": post.median(), "map": post.mode()}
    if timing is not None:
        timing["bayes"] = timing.get("bayes", 0.0) + (time.perf_counter() - t)
    for name, _, point, interval in METHODS:
        if point is not None:
            out[name] = (*intervals[interval], points[point])
    mode = points["map"]  # "profile-map": the mode with the t-cut profile interval around it
    out["profile-map"] = (np.minimum(low_t, mode), np.maximum(high_t, mode), mode)
    out["naive-wilson"] = _wilson(np.asarray(test.positive, float), np.asarray(test.n, float))
    return out


def _stats(low, high, est, truth):
    """Per row (cell): coverage, mean length, bias, RMSE over defined reps; undefined share."""
    ok = ~(np.isnan(low) | np.isnan(high) | np.isnan(est))
    k = np.maximum(ok.sum(axis=-1), 1)
    with np.errstate(invalid="ignore"):
        cover = np.where(ok, (low <= truth) & (truth <= high), False).sum(axis=-1) / k
    length = np.where(ok, high - low, 0.0).sum(axis=-1) / k
    err = np.where(ok, est - truth, 0.0)
    bias = err.sum(axis=-1) / k
    rmse = np.sqrt((err**2).sum(axis=-1) / k)
    none = ~ok.any(axis=-1)
    nan = np.nan
    return (
        np.where(none, nan, cover),
        np.where(none, nan, length),
        np.where(none, nan, bias),
        np.where(none, nan, rmse),
        1.0 - ok.mean(axis=-1),
    )


def study_cells(sums=SUMS, ms=MS, thetas=THETAS):
    """The study grid as (key, (q0, q1, m0, m1, θ, n)) with key = (split, sum, m, θ)."""
    out = []
    for split in SPLITS:
        for s in sums:
            q0, q1 = SPLITS[split](s)
            for m in ms:
                for th in thetas:
                    out.append(((split, s, m, th), (q0, q1, m, m, th, N_TEST)))
    return out


def independent_cells(quick=False):
    thetas = (0.02, 0.3, 0.98) if quick else (0.02, 0.1, 0.3, 0.6, 0.9, 0.98)
    qs = ((0.95, 0.6), (0.6, 0.95), (0.75, 0.75), (0.99, 0.99))
    ms = ((15, 60), (40, 40)) if quick else ((15, 60), (60, 15), (40, 40), (300, 300))
    ns = (5000,) if quick else (200, 5000)
    return [(q0, q1, m0, m1, t, n) for q0, q1 in qs for m0, m1 in ms for t in thetas for n in ns]


def weak_cells(quick=False):
    qs = ((0.3, 0.95), (0.95, 0.3), (0.5, 0.75), (0.75, 0.5), (0.625, 0.625), (0.25, 1.0),
          (1.0, 0.25))
    ms = ((10, 40), (40, 10), (20, 20), (50, 50), (100, 100), (30, 120), (120, 30), (200, 200))
    thetas = (0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.95)
    if quick:
        qs, ms, thetas = qs[:2], ms[3:5], (0.1, 0.5)
    return [(q0, q1, m0, m1, t, N_TEST) for q0, q1 in qs for m0, m1 in ms for t in thetas]


def random_cells(count, seed):
    """Cells drawn at random (seeded): nobody chose them."""
    gen = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        s = gen.uniform(1.05, 1.95)
        q1 = gen.uniform(max(s - 1.0, 0.02), min(0.999, s - 0.02))
        q0 = min(s - q1, 0.999)
        m0, m1 = (int(v) for v in np.exp(gen.uniform(np.log(5), np.log(500), 2)))
        n = int(np.exp(gen.uniform(np.log(200), np.log(20000))))
        theta = round(float(gen.uniform(0.02, 0.98)), 3)
        out.append((round(q0, 3), round(q1, 3), m0, m1, theta, n))
    return out


#: methods whose warning rule (js.correct.weak_calibration) is evaluated, by display name
RULE_METHODS = ("adjusted-wald", "wald", "bootstrap", "profile-likelihood", "profile-likelihood-t",
                "profile-map")


def simulate_cells(cells, reps, n_resamples, gen, timing, cond=None, ms=MS):
    """Every method on ``reps`` data sets per cell (q0, q1, m0, m1, θ, n).

    Returns stats {var: (method, cell)} with var in cov, len, bias, rmse, undef, and for the
    methods in RULE_METHODS the share warned (``warned``), the coverage among the unwarned
    defined data sets (``ucov``), their number (``uok``) and P(no warning and a miss)
    (``umiss``). ``cond`` (study grid only) accumulates coverage by the observed min(m0, m1)
    and q̂0 + q̂1.
    """
    keys = ("cov", "len", "bias", "rmse", "undef", "warned", "ucov", "uok", "umiss")
    stats = {v: np.full((len(NAMES), len(cells)), np.nan) for v in keys}
    chunk = max(1, 20_000 // reps)
    for start in range(0, len(cells), chunk):
        sub = np.array(cells[start : start + chunk], dtype=float)
        q0, q1, m0, m1, th, n = sub.T
        data = draw(theta=th, q0=q0, q1=q1, n=n.astype(np.int64), m0=m0.astype(np.int64),
                    m1=m1.astype(np.int64), reps=reps, rng=gen)
        res = evaluate(data.test, data.calibration, gen, n_resamples, timing)
        truth = th[:, None]
        sl = slice(start, start + len(sub))
        for i, name in enumerate(NAMES):
            low, high, est = res[name]
            out = _stats(low, high, est, truth)
            for v, arr in zip(("cov", "len", "bias", "rmse", "undef"), out, strict=True):
                stats[v][i, sl] = arr
            ok = ~(np.isnan(low) | np.isnan(high))
            with np.errstate(invalid="ignore"):
                hit = ok & (low <= truth) & (truth <= high)
            if name in RULE_METHODS:
                warned = weak_calibration(data.calibration, name, data.test)
                quiet = ok & ~warned
                k = quiet.sum(axis=-1)
                stats["warned"][i, sl] = warned.mean(axis=-1)
                stats["uok"][i, sl] = k
                with np.errstate(invalid="ignore", divide="ignore"):
                    stats["ucov"][i, sl] = np.where(k > 0, (hit & quiet).sum(axis=-1) / k, np.nan)
                stats["umiss"][i, sl] = (quiet & ~hit).mean(axis=-1)
            if cond is not None:
                qsum = (np.asarray(data.calibration.specificity)
                        + np.asarray(data.calibration.sensitivity))
                qbin = np.digitize(qsum, QSUM_EDGES[1:-1], right=True)
                midx = np.searchsorted(ms, m0.astype(int))[:, None] * np.ones_like(qbin)
                for arr, j in ((hit, 0), (ok, 1), (np.ones_like(ok), 2)):
                    np.add.at(cond[j, i], (midx.ravel(), qbin.ravel()), arr.ravel())
    timing["data sets"] = timing.get("data sets", 0) + len(cells) * reps
    return stats


def simulation(reps, n_resamples, seed, sums=SUMS, ms=MS, thetas=THETAS):
    """The study grid; returns (keys, stats, conditional counts, timing)."""
    keyed = study_cells(sums, ms, thetas)
    cond = np.zeros((3, len(NAMES), len(ms), len(QSUM_LABELS)))
    timing: dict[str, float] = {}
    gen = np.random.default_rng(seed)
    stats = simulate_cells([c for _, c in keyed], reps, n_resamples, gen, timing, cond, ms)
    return [k for k, _ in keyed], stats, cond, timing


# ----------------------------------------------------------------------------- sim tables
def _cell_str(c):
    return f"{c[0]}, q0+q1={c[1]:g}, m={c[2]}, θ={c[3]:g}"


def headline_table(cells, stats) -> str:
    bar = np.array([c[1] >= BAR_SUM - 1e-9 and c[2] >= BAR_M for c in cells])
    weak = ~bar
    head = (
        f"| method | min coverage, q0+q1 ≥ {BAR_SUM:g} & m ≥ {BAR_M} ({bar.sum()} cells) "
        f"| cells < {BAR_COVER} there | min coverage, other {weak.sum()} cells | mean coverage, "
        "all | mean length, all | max abs bias | max RMSE | undefined: max cell / overall |\n"
        + "|---" * 9
        + "|"
    )
    rows = []
    for i, name in enumerate(NAMES):
        cov = stats["cov"][i]
        j = int(np.nanargmin(np.where(bar, cov, np.inf)))
        jw = int(np.nanargmin(np.where(weak, cov, np.inf)))
        under = int(np.sum(bar & (cov < BAR_COVER)))
        rows.append(
            f"| {name} | {cov[j]:.3f} ({_cell_str(cells[j])}) | {under} | {cov[jw]:.3f} "
            f"({_cell_str(cells[jw])}) | {np.nanmean(cov):.3f} | "
            f"{np.nanmean(stats['len'][i]):.3f} | {np.nanmax(np.abs(stats['bias'][i])):.3f} | "
            f"{np.nanmax(stats['rmse'][i]):.3f} | {np.max(stats['undef'][i]):.3f} / "
            f"{np.mean(stats['undef'][i]):.4f} |"
        )
    return head + "\n" + "\n".join(rows)


def _index(cells):
    return {c: k for k, c in enumerate(cells)}


def by_setting_table(cells, stats, var, names, reduce, fmt, sums=SUMS, ms=MS) -> str:
    """Rows (method, split, sum), columns m; cell = reduce over θ of stats[var]."""
    idx = _index(cells)
    thetas = sorted({c[3] for c in cells})
    head = "| method | split | q0 + q1 | " + " | ".join(f"m = {m}" for m in ms) + " |\n"
    head += "|---" * (3 + len(ms)) + "|"
    rows = []
    for name in names:
        i = NAMES.index(name)
        for split in SPLITS:
            for s in sums:
                vals = []
                for m in ms:
                    v = np.array([stats[var][i, idx[(split, s, m, t)]] for t in thetas])
                    vals.append(fmt(reduce(v)))
                rows.append(f"| {name} | {split} | {s:g} | " + " | ".join(vals) + " |")
    return head + "\n" + "\n".join(rows)


def theta_table(cells, stats, names, split, s, m) -> str:
    idx = _index(cells)
    thetas = sorted({c[3] for c in cells})
    head = (
        "| method | " + " | ".join(f"θ = {t:g}" for t in thetas) + " |\n"
        "|---" * (1 + len(thetas)) + "|"
    )
    rows = []
    for name in names:
        i = NAMES.index(name)
        vals = []
        for t in thetas:
            k = idx[(split, s, m, t)]
            vals.append(
                f"{stats['cov'][i, k]:.3f} / {stats['len'][i, k]:.2f} / "
                f"{stats['bias'][i, k]:+.3f}"
            )
        rows.append(f"| {name} | " + " | ".join(vals) + " |")
    return head + "\n" + "\n".join(rows)


def conditional_table(cond, names, ms=MS) -> str:
    head = (
        "| method | min(m0, m1) | "
        + " | ".join(f"q̂0+q̂1 {lab}" for lab in QSUM_LABELS)
        + " |\n"
        + "|---" * (2 + len(QSUM_LABELS))
        + "|"
    )
    rows = []
    for name in names:
        i = NAMES.index(name)
        for a, m in enumerate(ms):
            vals = []
            for b in range(len(QSUM_LABELS)):
                hit, ok, tot = cond[:, i, a, b]
                if tot == 0:
                    vals.append("–")
                elif ok == 0:
                    vals.append(f"undef. (n={int(tot)})")
                else:
                    u = f", u {1 - ok / tot:.2f}" if ok < tot else ""
                    vals.append(f"{hit / ok:.3f} (n={int(tot)}{u})")
            rows.append(f"| {name} | {m} | " + " | ".join(vals) + " |")
    return head + "\n" + "\n".join(rows)


def coverage_figure(cells, stats, path, names, sums=SUMS, ms=MS) -> None:
    idx = _index(cells)
    thetas = sorted({c[3] for c in cells})
    fig, axes = plt.subplots(2, len(sums), figsize=(3.2 * len(sums), 6.4), sharey=True)
    axes = np.atleast_2d(axes)
    for r, split in enumerate(SPLITS):
        for c, s in enumerate(sums):
            ax = axes[r, c]
            for name in names:
                i = NAMES.index(name)
                low = [
                    np.nanmin([stats["cov"][i, idx[(split, s, m, t)]] for t in thetas])
                    for m in ms
                ]
                ax.plot(ms, low, marker="o", ms=3, label=name)
            ax.axhline(LEVEL, color="k", lw=0.8)
            ax.axhline(BAR_COVER, color="k", lw=0.8, ls=":")
            ax.set_xscale("log")
            ax.set_xticks(ms, [str(m) for m in ms])
            ax.set_ylim(0.5, 1.005)
            ax.set_title(f"{split}, q0+q1 = {s:g}", fontsize=9)
            if r == 1:
                ax.set_xlabel("m per class")
            if c == 0:
                ax.set_ylabel("min coverage over θ")
    axes[0, 0].legend(fontsize=7, loc="lower right")
    fig.suptitle("Coverage (min over θ ∈ {.05,.2,.5,.8,.95}) of defined intervals; 95% level")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def bias_figure(cells, stats, path, names, sums=SUMS, ms=MS) -> None:
    idx = _index(cells)
    thetas = sorted({c[3] for c in cells})
    fig, axes = plt.subplots(2, 3, figsize=(12, 6.4))
    for r, split in enumerate(SPLITS):
        ax = axes[r, 0]
        for name in names:
            i = NAMES.index(name)
            worst = [
                np.nanmax([abs(stats["bias"][i, idx[(split, s, 20, t)]]) for t in thetas])
                for s in sums
            ]
            ax.plot(sums, worst, marker="o", ms=3, label=name)
        ax.set_title(f"{split}: max |bias| over θ, m = 20", fontsize=9)
        ax.set_xlabel("q0 + q1")
        ax = axes[r, 1]
        for name in names:
            i = NAMES.index(name)
            rm = [
                np.nanmean([stats["rmse"][i, idx[(split, s, 20, t)]] for t in thetas])
                for s in sums
            ]
            ax.plot(sums, rm, marker="o", ms=3, label=name)
        ax.set_title(f"{split}: mean RMSE over θ, m = 20", fontsize=9)
        ax.set_xlabel("q0 + q1")
        ax = axes[r, 2]
        i = NAMES.index("adjusted-wald")
        for s in sums:
            u = [np.nanmax([stats["undef"][i, idx[(split, s, m, t)]] for t in thetas]) for m in ms]
            ax.plot(ms, u, marker="o", ms=3, label=f"q0+q1 = {s:g}")
        ax.set_xscale("log")
        ax.set_xticks(ms, [str(m) for m in ms])
        ax.set_title(f"{split}: undefined share (q̂0+q̂1 <= 1), max over θ", fontsize=9)
        ax.set_xlabel("m per class")
    axes[0, 0].legend(fontsize=7)
    axes[0, 2].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ----------------------------------------------------------------------------- other grids
def _cell6(c) -> str:
    q0, q1, m0, m1, t, n = c
    return f"q0={q0:g}, q1={q1:g}, m=({int(m0)}, {int(m1)}), θ={t:g}, n={int(n)}"


def grid_headline(cells, stats, names) -> str:
    head = (
        "| method | min coverage (cell) | cells < 0.93 | mean coverage | mean length | "
        "max abs bias | max RMSE | undefined: max cell / overall |\n" + "|---" * 8 + "|"
    )
    rows = []
    for name in names:
        i = NAMES.index(name)
        cov = stats["cov"][i]
        j = int(np.nanargmin(cov))
        rows.append(
            f"| {name} | {cov[j]:.3f} ({_cell6(cells[j])}) | {int(np.sum(cov < 0.93))} | "
            f"{np.nanmean(cov):.3f} | {np.nanmean(stats['len'][i]):.3f} | "
            f"{np.nanmax(np.abs(stats['bias'][i])):.3f} | {np.nanmax(stats['rmse'][i]):.3f} | "
            f"{np.max(stats['undef'][i]):.3f} / {np.mean(stats['undef'][i]):.4f} |"
        )
    return head + "\n" + "\n".join(rows)


#: a cell enters the conditional-coverage count when at least this many data sets got no warning
MIN_QUIET = 20


def rule_table(grids) -> str:
    head = (
        "| grid | method | share warned | cells with ≥ 20 unwarned answers | of them with "
        "unwarned coverage < 0.92 | min unwarned coverage (cell; unwarned answers) | "
        "max P(no warning and a miss) |\n" + "|---" * 7 + "|"
    )
    rows = []
    for gname, (cells, stats) in grids.items():
        for name in RULE_METHODS:
            i = NAMES.index(name)
            uok, ucov = stats["uok"][i], stats["ucov"][i]
            enough = uok >= MIN_QUIET
            low = int(np.sum(enough & (ucov < 0.92)))
            if enough.any():
                j = int(np.nanargmin(np.where(enough, ucov, np.inf)))
                worst = f"{ucov[j]:.3f} ({_cell6(cells[j])}; {int(uok[j])})"
            else:
                worst = "–"
            rows.append(
                f"| {gname} | {name} | {np.mean(stats['warned'][i]):.3f} | "
                f"{int(enough.sum())} of {len(cells)} | {low} | {worst} | "
                f"{np.max(stats['umiss'][i]):.3f} |"
            )
    return head + "\n" + "\n".join(rows)


#: point estimates compared for the RMSE claim: (label, display name whose point it is)
POINTS = (
    ("MLE", "profile-likelihood"),
    ("posterior mean", "bayes mean+eti"),
    ("posterior median", "bayes median+eti"),
    ("posterior mode", "bayes map+hdi"),
)


def rmse_table(grids) -> str:
    """Per grid: in how many settings (cells grouped over θ) each point estimate wins on RMSE."""
    head = (
        "| grid | settings | " + " | ".join(f"{p} lowest" for p, _ in POINTS)
        + " | Rogan–Gladen (defined sets only) lowest |\n" + "|---" * (3 + len(POINTS)) + "|"
    )
    rows = []
    for gname, (cells, stats) in grids.items():
        settings: dict[tuple, list[int]] = {}
        for k, c in enumerate(cells):
            settings.setdefault((c[0], c[1], c[2], c[3], c[5]), []).append(k)
        wins = np.zeros(len(POINTS), dtype=int)
        rg_wins = 0
        for idx in settings.values():
            means = [np.nanmean(stats["rmse"][NAMES.index(n), idx]) for _, n in POINTS]
            wins[int(np.argmin(means))] += 1
            rg = np.nanmean(stats["rmse"][NAMES.index("adjusted-wald"), idx])
            rg_wins += int(rg < min(means))
        rows.append(
            f"| {gname} | {len(settings)} | " + " | ".join(str(w) for w in wins)
            + f" | {rg_wins} |"
        )
    return head + "\n" + "\n".join(rows)


#: the done-when cells of issue 15: (θ, q0, q1, m0, m1, n)
ISSUE_CELLS = (
    (0.6, 0.95, 0.6, 15, 60, 5000),
    (0.02, 0.99, 0.99, 40, 40, 5000),
    (0.3, 0.6, 0.95, 60, 15, 5000),
    (0.5, 0.3, 0.95, 40, 10, 1000),
    (0.5, 0.3, 0.95, 20, 20, 1000),
)


def issue_cells_table(grids, names) -> str:
    where = {}
    for cells, stats in grids.values():
        for k, c in enumerate(cells):
            where[(c[4], c[0], c[1], c[2], c[3], c[5])] = (stats, k)
    head = "| (θ, q0, q1, m0, m1, n) | " + " | ".join(names) + " |\n"
    head += "|---" * (1 + len(names)) + "|"
    rows = []
    for cell in ISSUE_CELLS:
        if cell not in where:
            continue
        stats, k = where[cell]
        vals = [f"{stats['cov'][NAMES.index(n), k]:.3f}" for n in names]
        rows.append(f"| {cell} | " + " | ".join(vals) + " |")
    return head + "\n" + "\n".join(rows)


# ----------------------------------------------------------------------------- real data
def real_configs(quick):
    arena4 = load_chatbot_arena("gpt-4")
    arena35 = load_chatbot_arena("gpt-3.5")
    nq = load_nq301()
    data = [
        ("Arena, GPT-4 judge", arena4[arena4.target_model.isin(ARENA_TARGETS)]),
        ("Arena, GPT-3.5 judge", arena35[arena35.target_model.isin(ARENA_TARGETS)]),
        ("NQ-301, GPT-4 judge", nq),
    ]
    fracs = (0.10,) if quick else (0.10, 0.05)
    return [(name, frame, f) for f in fracs for name, frame in data]


def real_study(splits, n_resamples, quick):
    """Per config: targets, theta_full, naive (S, T), {method: (low, high, point)}, both."""
    out = []
    for i, (name, frame, frac) in enumerate(real_configs(quick)):
        s = experiments.split_study(
            frame,
            calibration_fraction=frac,
            splits=splits,
            methods=(
                "adjusted-wald",
                "wald",
                "bootstrap",
                "profile-likelihood",
                "profile-likelihood-t",
                "naive-wilson",
            ),
            method_options={"bootstrap": {"n_resamples": n_resamples}},
            label=f"{name}, {100 * frac:.0f}%",
            rng=np.random.default_rng([1010, i]),
        )
        positive, n, tp, fn, tn, fp = (s.counts[..., k] for k in range(6))
        both = (tp + fn > 0) & (tn + fp > 0)
        test = js.JudgedCounts(positive=positive, n=n)
        cal = js.ConfusionCounts(
            tp=np.where(both, tp, 1),
            fn=np.where(both, fn, 0),
            tn=np.where(both, tn, 1),
            fp=np.where(both, fp, 0),
        )
        res = {}
        for k, mth in enumerate(s.methods):
            res[mth] = (s.low[k], s.high[k], s.point[k])
        post = theta_posterior(test, cal)
        intervals = {k: post.interval(LEVEL, k) for k in ("eti", "hdi")}
        points = {"mean": post.mean(), "median": post.median(), "map": post.mode()}
        for mname, _, point, interval in METHODS:
            if point is not None:
                lo, hi = intervals[interval]
                res[mname] = tuple(np.where(both, a, np.nan) for a in (lo, hi, points[point]))
        lo_t, hi_t, _ = res["profile-likelihood-t"]
        mode = np.where(both, points["map"], np.nan)
        res["profile-map"] = (np.minimum(lo_t, mode), np.maximum(hi_t, mode), mode)
        qsum = np.where(both, tn / np.maximum(tn + fp, 1) + tp / np.maximum(tp + fn, 1), np.nan)
        out.append(
            {
                "name": name,
                "frac": frac,
                "targets": s.targets,
                "rows": s.rows,
                "m": s.calibration_size,
                "theta": s.theta_full,
                "naive": s.naive,
                "res": res,
                "both": both,
                "qsum": qsum,
                "min_m": np.minimum(tp + fn, tn + fp),
                "splits": splits,
            }
        )
    return out


def _real_metrics(cfg, name):
    low, high, point = cfg["res"][name]
    truth = cfg["theta"][None, :]
    ok = ~(np.isnan(low) | np.isnan(high) | np.isnan(point))
    k = np.maximum(ok.sum(axis=0), 1)
    with np.errstate(invalid="ignore"):
        cov = np.where(ok, (low <= truth) & (truth <= high), False).sum(axis=0) / k
    bias = np.where(ok, point - truth, 0.0).sum(axis=0) / k
    length = np.where(ok, high - low, 0.0).sum(axis=0) / k
    rmse = np.sqrt(np.where(ok, (point - truth) ** 2, 0.0).sum(axis=0) / k)
    undef = cfg["splits"] - ok.sum(axis=0)
    return bias, cov, length, rmse, undef


def _passes(bias, naive_bias, cov):
    return ((np.abs(bias) < np.abs(naive_bias)) | (np.abs(naive_bias) <= 0.02)) & (cov >= 0.90)


def real_headline(configs) -> str:
    head = (
        "| method | calibration | targets passing (c) | worst coverage (target) | "
        "max abs bias (target; naive there) | targets with abs bias ≥ naive's (naive > 0.02) | "
        "mean length | undefined splits |\n" + "|---" * 8 + "|"
    )
    rows = []
    for frac in sorted({c["frac"] for c in configs}, reverse=True):
        group = [c for c in configs if c["frac"] == frac]
        for name in NAMES:
            if name == "naive-wilson":
                continue
            allb, allnb, allc, alll, allt, allu, tot = [], [], [], [], [], 0, 0
            for cfg in group:
                bias, cov, length, _, undef = _real_metrics(cfg, name)
                nb = (cfg["naive"] - cfg["theta"][None, :]).mean(axis=0)
                allb += list(bias)
                allnb += list(nb)
                allc += list(cov)
                alll += list(length)
                short = cfg["name"].split(",")[0] + (" 3.5" if "3.5" in cfg["name"] else "")
                allt += [f"{short}: {t}" for t in cfg["targets"]]
                allu += int(undef.sum())
                tot += cfg["splits"] * len(cfg["targets"])
            b, nb, c = np.array(allb), np.array(allnb), np.array(allc)
            ok = _passes(b, nb, c)
            jc, jb = int(np.argmin(c)), int(np.argmax(np.abs(b)))
            worse = int(np.sum((np.abs(b) >= np.abs(nb)) & (np.abs(nb) > 0.02)))
            rows.append(
                f"| {name} | {100 * frac:.0f}% | {int(ok.sum())} of {ok.size} | {c[jc]:.2f} "
                f"({allt[jc]}) | {abs(b[jb]):.3f} ({allt[jb]}; {nb[jb]:+.3f}) | {worse} | "
                f"{np.mean(alll):.3f} | {allu} of {tot} |"
            )
    return head + "\n" + "\n".join(rows)


def real_rule_table(configs) -> str:
    """Per configuration: splits warned for adjusted-Wald, and its coverage with and without."""
    head = (
        "| data | calibration | splits warned (min(m0, m1) < "
        f"{MIN_PER_CLASS}) | adjusted-wald coverage, unwarned splits | warned splits | "
        "profile-map coverage, warned splits |\n" + "|---" * 6 + "|"
    )
    rows = []
    for cfg in configs:
        warned = cfg["min_m"] < MIN_PER_CLASS
        truth = cfg["theta"][None, :]
        cells = []
        for name, mask in (("adjusted-wald", ~warned), ("adjusted-wald", warned),
                           ("profile-map", warned)):
            low, high, _ = cfg["res"][name]
            ok = mask & ~np.isnan(low)
            with np.errstate(invalid="ignore"):
                hit = ok & (low <= truth) & (truth <= high)
            cells.append(f"{hit.sum() / ok.sum():.3f} ({int(ok.sum())})" if ok.any() else "–")
        rows.append(
            f"| {cfg['name']} | {100 * cfg['frac']:.0f}% | {warned.mean():.2f} | "
            + " | ".join(cells) + " |"
        )
    return head + "\n" + "\n".join(rows)


def real_target_table(cfg, names) -> str:
    head = (
        "| target | rows | m | θ (all rows) | naive bias | "
        + " | ".join(names)
        + " |\n"
        + "|---" * (5 + len(names))
        + "|"
    )
    metrics = {n: _real_metrics(cfg, n) for n in names}
    nb = (cfg["naive"] - cfg["theta"][None, :]).mean(axis=0)
    rows = []
    for t, target in enumerate(cfg["targets"]):
        cells = []
        for n in names:
            bias, cov, length, _, undef = metrics[n]
            flag = "" if _passes(bias[t], nb[t], cov[t]) else " ✗"
            u = f", u {int(undef[t])}" if undef[t] else ""
            cells.append(f"{bias[t]:+.3f} / {cov[t]:.2f} / {length[t]:.2f}{u}{flag}")
        rows.append(
            f"| {target} | {int(cfg['rows'][t])} | {int(cfg['m'][t])} | {cfg['theta'][t]:.3f} | "
            f"{nb[t]:+.3f} | " + " | ".join(cells) + " |"
        )
    return head + "\n" + "\n".join(rows)


def real_figure(configs, path, names) -> None:
    fig, axes = plt.subplots(1, len(configs), figsize=(3.6 * len(configs), 4.2), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, cfg in zip(axes, configs, strict=True):
        nb = np.abs((cfg["naive"] - cfg["theta"][None, :]).mean(axis=0))
        x = np.arange(len(cfg["targets"]))
        ax.bar(x, nb, color="0.85", label="naive |bias|")
        for name in names:
            bias = _real_metrics(cfg, name)[0]
            ax.plot(x, np.abs(bias), marker="o", ms=3, lw=0.8, label=name)
        ax.set_xticks(x, cfg["targets"], rotation=90, fontsize=6)
        ax.set_title(f"{cfg['name']}, {100 * cfg['frac']:.0f}%", fontsize=8)
    axes[0].set_ylabel("|mean bias| vs full-data human rate")
    axes[0].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ----------------------------------------------------------------------------- timing
def speed_table(seed) -> str:
    rows = []
    gen = np.random.default_rng(seed)
    for split, s, m in (("symmetric", 1.05, 5), ("symmetric", 1.2, 20), ("lenient", 1.6, 100)):
        q0, q1 = SPLITS[split](s)
        d = draw(theta=0.2, q0=q0, q1=q1, n=N_TEST, m0=m, m1=m, reps=1000, rng=gen)
        t = time.perf_counter()
        profile_likelihood_bounds(d.test, d.calibration, LEVEL)
        batch = (time.perf_counter() - t) * 1000 / 1000
        one = js.JudgedCounts(int(d.test.positive[0]), N_TEST)
        cal1 = js.ConfusionCounts(
            tp=int(d.calibration.tp[0]),
            fn=int(d.calibration.fn[0]),
            tn=int(d.calibration.tn[0]),
            fp=int(d.calibration.fp[0]),
        )
        t = time.perf_counter()
        for _ in range(20):
            profile_likelihood_bounds(one, cal1, LEVEL)
        single = (time.perf_counter() - t) * 1000 / 20
        t = time.perf_counter()
        post = theta_posterior(d.test, d.calibration)
        post.interval(LEVEL, "hdi")
        post.mode()
        bay = (time.perf_counter() - t) * 1000 / 1000
        rows.append(
            f"| {split}, q0+q1 = {s:g}, m = {m}, θ = 0.2 | {batch:.2f} | {single:.2f} | "
            f"{bay:.2f} |"
        )
    head = (
        "| setting | profile-likelihood, batch of 1000 (ms per data set) | profile-likelihood, "
        "one data set (ms) | bayes map+hdi, batch of 1000 (ms per data set) |\n" + "|---" * 4 + "|"
    )
    return head + "\n" + "\n".join(rows)


# ----------------------------------------------------------------------------- main
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="tiny grid, few replications")
    ap.add_argument("--reps", type=int, default=None, help="replications per simulation cell")
    args = ap.parse_args()
    quick = args.quick
    t0 = time.perf_counter()
    if quick:
        grid = {"sums": (1.1, 1.4), "ms": (5, 20), "thetas": (0.2, 0.8)}
        reps, n_res, splits, n_res_real = args.reps or 40, 100, 5, 100
    else:
        grid = {"sums": SUMS, "ms": MS, "thetas": THETAS}
        reps, n_res, splits, n_res_real = args.reps or 1000, 1000, 100, 2000
    cells, stats, cond, timing = simulation(reps, n_res, seed=20261010, **grid)
    gen = np.random.default_rng(20261123)
    others = {
        "independent": independent_cells(quick),
        "weak (q0+q1 = 1.25)": weak_cells(quick),
        "random": random_cells(6 if quick else 150, seed=20261124),
    }
    grids = {"study": ([c for _, c in study_cells(**grid)], stats)}
    for gname, gcells in others.items():
        grids[gname] = (gcells, simulate_cells(gcells, reps, n_res, gen, timing))
    t_sim = time.perf_counter() - t0
    configs = real_study(splits, n_res_real, quick)
    t_real = time.perf_counter() - t0 - t_sim
    speed = speed_table(7)

    main_names = ("adjusted-wald", "bootstrap", "profile-likelihood", "profile-likelihood-t",
                  "profile-map", "bayes mean+eti",
                  "bayes median+eti", "bayes map+hdi")
    coverage_figure(cells, stats, RESULTS / "weak_judge_coverage.png", main_names,
                    sums=grid["sums"], ms=grid["ms"])
    bias_figure(cells, stats, RESULTS / "weak_judge_bias.png",
                ("adjusted-wald", "profile-likelihood", "bayes mean+eti", "bayes median+eti",
                 "bayes map+hdi", "naive-wilson"),
                sums=grid["sums"], ms=grid["ms"])
    real_figure(configs, RESULTS / "weak_judge_real.png",
                ("adjusted-wald", "profile-likelihood-t", "profile-map", "bayes mean+eti"))

    se = np.sqrt(LEVEL * (1 - LEVEL) / reps)
    sims = [
        "## Part 1: simulation",
        "",
        f"{reps:,} replications per cell (Monte Carlo s.e. of a coverage near 0.95: {se:.4f}); "
        f"grid q0 + q1 ∈ {grid['sums']}, m0 = m1 = m ∈ {grid['ms']}, θ ∈ {grid['thetas']}, "
        f"n = {N_TEST}, 95% level; {len(cells)} cells, {len(cells) * reps:,} data sets, every "
        "method on the same data sets (drawn by `js.simulate.draw`). **Splits of q0 + q1**: "
        "*symmetric* q0 = q1 = sum/2, and *lenient* q1 = 0.9, q0 = sum − 0.9 (a judge that "
        "accepts most answers; at sum 1.6 it is the paper's q0 = .7, q1 = .9). The mirrored "
        "split (q0 = 0.9) is the lenient one with the labels swapped (θ → 1 − θ, equal m per "
        "class) and the θ grid is symmetric, so it adds nothing. Bootstrap: "
        f"{n_res} resamples. Coverage, length, bias and RMSE are over the replications where "
        "the method gave an answer; 'undefined' is the share where it did not "
        "(adjusted-Wald, Wald and bootstrap: q̂0 + q̂1 <= 1, where `correct()` raises "
        "`NotInformativeError`), counted separately and never silently dropped. Point "
        "estimates: clipped Rogan–Gladen θ̂ for adjusted-wald/wald/bootstrap, the MLE for "
        "profile-likelihood and profile-likelihood-t (the χ²₁ and the t²(min(m0, m1) − 1) "
        "cut-off), the posterior mean/median/mode (flat priors) for bayes, p̂ for "
        "naive-wilson. **profile-map** (`js.correct(..., method=\"profile-map\")`) is the "
        "posterior mode with the profile-likelihood-t interval, widened to contain the mode.",
        "",
        "### Headline",
        "",
        headline_table(cells, stats),
        "",
        "### Minimum coverage over θ (per split, q0 + q1, m)",
        "",
        by_setting_table(cells, stats, "cov",
                         [n for n in NAMES if n != "naive-wilson"], np.nanmin,
                         lambda v: f"{v:.3f}", sums=grid["sums"], ms=grid["ms"]),
        "",
        "### Undefined share (q̂0 + q̂1 <= 1; adjusted-wald, wald and bootstrap), max over θ",
        "",
        "Profile likelihood and every bayes variant are never undefined (0 everywhere).",
        "",
        by_setting_table(cells, stats, "undef", ["adjusted-wald"], np.nanmax,
                         lambda v: f"{v:.3f}", sums=grid["sums"], ms=grid["ms"]),
        "",
        "### Mean interval length over θ",
        "",
        by_setting_table(cells, stats, "len",
                         [n for n in NAMES if n not in ("wald", "bayes median+eti")],
                         np.nanmean, lambda v: f"{v:.3f}", sums=grid["sums"], ms=grid["ms"]),
        "",
        "### Max |bias| over θ of the point estimates",
        "",
        by_setting_table(cells, stats, "bias",
                         ["adjusted-wald", "profile-likelihood", "profile-map", "bayes mean+eti",
                          "bayes median+eti", "bayes map+hdi", "naive-wilson"],
                         lambda v: np.nanmax(np.abs(v)), lambda v: f"{v:.3f}",
                         sums=grid["sums"], ms=grid["ms"]),
        "",
        "### Mean RMSE over θ of the point estimates",
        "",
        by_setting_table(cells, stats, "rmse",
                         ["adjusted-wald", "profile-likelihood", "profile-map", "bayes mean+eti",
                          "bayes median+eti", "bayes map+hdi", "naive-wilson"],
                         np.nanmean, lambda v: f"{v:.3f}", sums=grid["sums"], ms=grid["ms"]),
        "",
        "### Coverage given what the user sees (basis of the warning)",
        "",
        "All replications of the grid pooled by the observed min(m0, m1) and q̂0 + q̂1 "
        "(every θ, split and true q0 + q1 that produced them; n = replications in the bin, "
        "u = share undefined). This is the coverage a user can expect after looking at the "
        "calibration set.",
        "",
        conditional_table(cond, [n for n in NAMES if n != "naive-wilson"], ms=grid["ms"]),
        "",
    ]
    if not quick:
        sims += [
            "### Cells by θ: coverage / mean length / bias",
            "",
        ]
        for split, s, m in (("symmetric", 1.2, 20), ("lenient", 1.2, 20),
                            ("symmetric", 1.1, 10), ("lenient", 1.05, 5)):
            sims += [f"**{split}, q0 + q1 = {s:g}, m = {m}**", "",
                     theta_table(cells, stats, [n for n in NAMES if n != "wald"], split, s, m),
                     ""]
    sims += [
        "### The other grids",
        "",
        "Same methods, same replications per cell, drawn by the same code: the *independent* "
        "grid (cells an outside study chose away from ours), a *weak* judge (true q0 + q1 = "
        "1.25) and *random* cells nobody chose (θ ~ U(0.02, 0.98), q0 + q1 ~ U(1.05, 1.95), "
        "m0, m1 log-uniform on [5, 500], n log-uniform on [200, 20000]; seed 20261124).",
        "",
    ]
    for gname in others:
        gcells, gstats = grids[gname]
        sims += [f"**{gname}** ({len(gcells)} cells)", "",
                 grid_headline(gcells, gstats, [n for n in NAMES if n != "naive-wilson"]), ""]
    sims += [
        "### Issue 15's done-when cells",
        "",
        "Coverage per method (the cells are part of the independent and weak grids).",
        "",
        issue_cells_table(grids, [n for n in NAMES if n != "naive-wilson"]),
        "",
        "### The warning rule: coverage when `correct()` does not warn",
        "",
        "`js.intervals.weak_calibration(calibration, method, test)` is the mask of the data "
        "sets on which `correct()` issues `WeakCalibrationWarning`, each method's own rule: "
        f"min(m0, m1) < {MIN_PER_CLASS} for adjusted-wald, wald, bootstrap and "
        "profile-likelihood; for wald and bootstrap also a q̂ or p̂ equal to 0 or 1; never for "
        "profile-likelihood-t and profile-map. *Unwarned coverage* is the coverage among the "
        "data sets that got an interval and no warning, per cell; a cell enters the count when "
        f"at least {MIN_QUIET} of its data sets did (below that the figure is noise). "
        "P(no warning and a miss) is the chance, per cell, that a user gets a wrong interval "
        "and no warning.",
        "",
        rule_table(grids),
        "",
        "### Lowest RMSE",
        "",
        "Settings = cells grouped over θ; per setting the point estimate with the lowest RMSE "
        "averaged over θ. Rogan–Gladen's RMSE counts only the data sets where it is defined "
        "(q̂0 + q̂1 > 1), which flatters it, so it is shown apart.",
        "",
        rmse_table(grids),
        "",
    ]
    sims += ["### Speed", "", speed, ""]
    sims += ["![coverage](weak_judge_coverage.png)", "", "![bias](weak_judge_bias.png)", ""]

    real = [
        "## Part 2: real data",
        "",
        f"`js.experiments.split_study`, {splits} random splits per target (seed "
        "`np.random.default_rng([1010, i])` for configuration i), truth = the target's human "
        "rate on all its rows; adjusted-wald, wald, bootstrap "
        f"({n_res_real} resamples) and profile-likelihood through the registry, the bayes "
        "variants from `js.posterior.theta_posterior` on the same split counts. Bar (c) of the "
        "issue: |mean bias| below the naive rate's (or naive |bias| ≤ 0.02) *and* coverage ≥ "
        "0.90 on every target; '✗' marks a target where a method fails it. Bias and coverage "
        "are over the splits where the method answered; 'u' = splits without an answer (for "
        "bayes and profile likelihood only the splits whose calibration part lacks a human "
        "class, which are not a data set for any method).",
        "",
        "### Headline",
        "",
        real_headline(configs),
        "",
        "### The warning on real splits",
        "",
        "Coverage pooled over targets and splits (number of splits in brackets).",
        "",
        real_rule_table(configs),
        "",
        "### Per target: bias / coverage / mean length",
        "",
    ]
    names_t = [n for n in NAMES if n not in ("naive-wilson",)]
    for cfg in configs:
        real += [f"**{cfg['name']}, {100 * cfg['frac']:.0f}% calibration**", "",
                 real_target_table(cfg, names_t), ""]
    real += ["![real data](weak_judge_real.png)", ""]
    real += [
        "## Recommendation",
        "",
        "Drawn from these tables: the README's table 'Which interval method when' and the "
        "docstring of `js.correct`.",
        "",
    ]
    took = time.perf_counter() - t0
    body = "\n".join(
        [
            f"Run: `python benchmarks/bench_weak_judge.py{' --quick' if quick else ''}` "
            f"({took:.0f} s: simulation {t_sim:.0f} s, real data {t_real:.0f} s).",
            "",
            *sims,
            *real,
        ]
    )
    path = write_markdown("weak_judge", "Weak judges and small calibration sets", body)
    print(f"wrote {path} in {took:.1f} s")


if __name__ == "__main__":
    main()
