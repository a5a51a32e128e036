"""Weak judges and small calibration sets (issue #10): which interval method when.

Part 1, simulation with known truth (js.simulate.draw counts): q0 + q1 in {1.05, 1.1, 1.2, 1.4,
1.6}, split symmetrically (q0 = q1) and "lenient" (q1 = 0.9, q0 = sum − 0.9), m0 = m1 = m in
{5, 10, 20, 50, 100}, theta in {0.05, 0.2, 0.5, 0.8, 0.95}, n = 1000. Every method sees the same
data sets; coverage, mean length, bias, RMSE and the undefined rate per cell, plus coverage
conditional on what a user sees (min(m0, m1) and q̂0 + q̂1), which sets the warning's rule.
Part 2, real data (js.experiments.split_study): Chatbot Arena (GPT-4 and GPT-3.5 judges, the
paper's six targets) and NQ-301 (GPT-4 judge, 12 systems), 100 random splits per target at 10%
and 5% calibration.
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
from judgestats.intervals import compute_bounds, z_value
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


def simulation(reps, n_resamples, seed, sums=SUMS, ms=MS, thetas=THETAS):
    """Run the grid; returns (cells, stats {var: (method, cell)}, conditional, timing)."""
    cells = [
        (split, s, m, th) for split in SPLITS for s in sums for m in ms for th in thetas
    ]  # one data-generating setting per cell
    stats = {v: np.full((len(NAMES), len(cells)), np.nan) for v in ("cov", "len", "bias", "rmse")}
    stats["undef"] = np.full((len(NAMES), len(cells)), np.nan)
    # conditional coverage: (method, min m index, q̂-sum bin) counts of covered / defined / all
    cond = np.zeros((3, len(NAMES), len(ms), len(QSUM_LABELS)))
    gen = np.random.default_rng(seed)
    timing: dict[str, float] = {}
    chunk = max(1, 20_000 // reps)
    for start in range(0, len(cells), chunk):
        sub = cells[start : start + chunk]
        qs = np.array([SPLITS[c[0]](c[1]) for c in sub])
        m = np.array([c[2] for c in sub])
        th = np.array([c[3] for c in sub])
        data = draw(
            theta=th, q0=qs[:, 0], q1=qs[:, 1], n=N_TEST, m0=m, m1=m, reps=reps, rng=gen
        )
        res = evaluate(data.test, data.calibration, gen, n_resamples, timing)
        qsum = np.asarray(data.calibration.specificity) + np.asarray(data.calibration.sensitivity)
        qbin = np.digitize(qsum, QSUM_EDGES[1:-1], right=True)
        midx = np.searchsorted(ms, m)[:, None] * np.ones_like(qbin)
        truth = th[:, None]
        for i, name in enumerate(NAMES):
            low, high, est = res[name]
            out = _stats(low, high, est, truth)
            for v, arr in zip(("cov", "len", "bias", "rmse", "undef"), out, strict=True):
                stats[v][i, start : start + len(sub)] = arr
            ok = ~(np.isnan(low) | np.isnan(high))
            with np.errstate(invalid="ignore"):
                hit = ok & (low <= truth) & (truth <= high)
            for arr, j in ((hit, 0), (ok, 1), (np.ones_like(ok), 2)):
                np.add.at(cond[j, i], (midx.ravel(), qbin.ravel()), arr.ravel())
    timing["data sets"] = len(cells) * reps
    return cells, stats, cond, timing


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
        f"n = {N_TEST}, 95% level; {len(cells)} cells, {timing['data sets']:,} data sets, every "
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
        "docstring of `js.correct` (adjusted-Wald by default; `profile-map` where "
        "`WeakCalibrationWarning` fires, i.e. fewer than 10 calibration items of a class or "
        "q̂0 + q̂1 < 1.2, and where q̂0 + q̂1 <= 1; a Bayesian posterior mean or median for the "
        "smallest RMSE).",
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
