"""Calibration designs: coverage and length of each design's interval, on its own design and others.

Part 1, simulation with known truth. Data are drawn under three designs:

* **random**: the calibration items are a simple random sample of the test population (every
  item's (human, judge) pair from the same multinomial);
* **by-judge-label**: k1 = k0 = m/2 items sampled within the judge's labels (human labels drawn
  given the judge label, from PPV and FOR);
* **by-human-label**: m0 = m1 = m/2 items per human class (the paper's design).

Every data set is analysed as each design declares it: ``js.correct(..., design=...)``'s
``"adjusted-wald"`` interval for the random and by-judge-label designs, the paper's adjusted-Wald
interval (by-human-label), the human labels alone (Wilson interval of m1/m, valid under the
random design only) and ppi_py's PPI++ ``ppi_mean_ci`` (when installed; fewer data sets per cell
and only cells with n <= 20,000: it runs on item arrays, one data set at a time). The random
design's ``"bayes"`` (exact posterior, Jeffreys' priors) runs on the n = 10^4 subgrid. The
asymptotic width 2z·√V of the random design's efficient estimator (V from the Fisher
information of the factorised likelihood, at the true values) is the floor.

Grid: θ in {0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 0.98}, judges (q0, q1) in {(.55, .55), (.6, .9),
(.9, .6), (.8, .8), (.95, .95)} (q0 + q1 from 1.1 to 1.9), m in {20, 50, 200, 1000},
n in {200, 10^4, 10^5} (420 cells), plus 150 cells drawn at random (θ ~ U(0.02, 0.98),
q0 + q1 ~ U(1.1, 1.9), m and n log-uniform on [20, 1000] and [200, 10^5]; seed 20261124).

Part 2, real data: random 10% calibration splits (100 per target) of the bundled Chatbot Arena
targets (GPT-4 and GPT-3.5 judges) and NQ-301 (GPT-4 judge): coverage and mean length per
target of design="random" against the paper's interval, the human labels alone and PPI++.

Part 3, speed: a 21 θ × 10,000-replicate coverage study per design against the adjusted-Wald one.

Writes benchmarks/results/designs.md and designs.png.
Run: python benchmarks/bench_designs.py [--quick]
"""

from __future__ import annotations

import importlib.util
import time
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from _common import best_of, markdown_table, publish, quick_parser, run_time, save_figure

import judgestats as js
from judgestats.intervals import compute_bounds
from judgestats.kernels import wilson_bounds, z_value

LEVEL = 0.95
Z = float(z_value(LEVEL))
THETAS = (0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 0.98)
JUDGES = ((0.55, 0.55), (0.6, 0.9), (0.9, 0.6), (0.8, 0.8), (0.95, 0.95))
MS = (20, 50, 200, 1000)
NS = (200, 10_000, 100_000)
TRUE_DESIGNS = ("random", "by-judge-label", "by-human-label")
ANALYSES = ("random", "by-judge-label", "paper", "human-only", "ppi++", "random bayes")
LABEL = {
    "random": 'design="random" adjusted-wald',
    "by-judge-label": 'design="by-judge-label" adjusted-wald',
    "paper": "paper's adjusted-Wald (by-human-label)",
    "human-only": "human labels alone (Wilson)",
    "ppi++": "ppi_py PPI++ (ppi_mean_ci)",
    "random bayes": 'design="random" bayes (mean, ETI, Jeffreys priors)',
}
HAVE_PPI = importlib.util.find_spec("ppi_py") is not None
PPI_MAX_N = 20_000  # PPI++ only where the test set has at most this many items (its run time)


# ----------------------------------------------------------------------------- data
def cells(quick: bool):
    grid = [(t, q0, q1, n, m) for t in THETAS for q0, q1 in JUDGES for m in MS for n in NS]
    gen = np.random.default_rng(20261124)
    rand = []
    for _ in range(150):
        s = gen.uniform(1.1, 1.9)
        q1 = gen.uniform(max(s - 1.0, 0.1), min(0.99, s - 0.1))
        q0 = min(s - q1, 0.99)
        m = int(np.exp(gen.uniform(np.log(20), np.log(1000))))
        n = int(np.exp(gen.uniform(np.log(200), np.log(100_000))))
        rand.append((round(float(gen.uniform(0.02, 0.98)), 3), round(q0, 3), round(q1, 3), n, m))
    if quick:
        grid = [(t, q0, q1, n, m) for t in (0.1, 0.5) for q0, q1 in JUDGES[1:3] for m in (50,)
                for n in (10_000,)]  # fmt: skip
        rand = rand[:2]
    return {"grid": grid, "random cells": rand}


def draw(design, theta, q0, q1, n, m, reps, gen):
    """(test, calibration) counts of ``reps`` data sets under ``design``."""
    pi = theta * q1 + (1 - theta) * (1 - q0)
    x = gen.binomial(n, pi, reps)
    if design == "random":
        tp, fn, fp, tn = gen.multinomial(
            m, [theta * q1, theta * (1 - q1), (1 - theta) * (1 - q0), (1 - theta) * q0], reps
        ).T
    elif design == "by-judge-label":
        k1 = m // 2
        k0 = m - k1
        tp = gen.binomial(k1, theta * q1 / pi, reps)
        fn = gen.binomial(k0, theta * (1 - q1) / (1 - pi), reps)
        fp, tn = k1 - tp, k0 - fn
    else:
        m1 = m // 2
        m0 = m - m1
        tp = gen.binomial(m1, q1, reps)
        tn = gen.binomial(m0, q0, reps)
        fn, fp = m1 - tp, m0 - tn
    return js.JudgedCounts(x, n), js.ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp)


def floor_width(theta, q0, q1, n, m):
    """2z√V, V the random design's asymptotic variance at the true values (Fisher information)."""
    pi = theta * q1 + (1 - theta) * (1 - q0)
    ppv, fo = theta * q1 / pi, theta * (1 - q1) / (1 - pi)
    var = (ppv - fo) ** 2 * pi * (1 - pi) / (n + m) + (
        pi * ppv * (1 - ppv) + (1 - pi) * fo * (1 - fo)
    ) / m
    return 2 * Z * np.sqrt(var)


# ----------------------------------------------------------------------------- analyses
def bounds(analysis, test, cal, gen):
    """(low, high, estimate) arrays; NaN where the analysis gives no answer."""
    if analysis in ("random", "by-judge-label"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if analysis == "by-judge-label":
                k1 = np.asarray(cal.tp + cal.fp)
                k0 = np.asarray(cal.fn + cal.tn)
                x = np.asarray(test.positive)
                bad = ((k1 == 0) & (x > 0)) | ((k0 == 0) & (x < test.n))
                if bad.any():  # the design's estimator does not exist there: undefined
                    b = _masked(test, cal, ~bad, analysis)
                    return b
            b = compute_bounds(test, cal, method="adjusted-wald", confidence_level=LEVEL,
                               design=analysis)  # fmt: skip
        return b.low, b.high, b.estimate
    if analysis == "random bayes":
        b = compute_bounds(test, cal, method="bayes", confidence_level=LEVEL, design="random")
        return b.low, b.high, b.estimate
    if analysis == "paper":
        ok = (np.asarray(cal.m0) > 0) & (np.asarray(cal.m1) > 0)
        return _paper(test, cal, ok)
    if analysis == "human-only":
        m1 = np.asarray(cal.m1, dtype=float)
        m = np.asarray(cal.m, dtype=float)
        lo, hi = wilson_bounds(m1, m, Z)
        return lo, hi, m1 / m
    return _ppi(test, cal)


def _subset(counts, ok, cls):
    fields = ("positive", "n") if cls is js.JudgedCounts else ("tp", "fn", "tn", "fp")
    return cls(*(np.broadcast_to(getattr(counts, f), ok.shape)[ok] for f in fields))


def _masked(test, cal, ok, design):
    low, high, est = (np.full(ok.shape, np.nan) for _ in range(3))
    if ok.any():
        t, c = _subset(test, ok, js.JudgedCounts), _subset(cal, ok, js.ConfusionCounts)
        b = compute_bounds(t, c, method="adjusted-wald", confidence_level=LEVEL, design=design)
        low[ok], high[ok], est[ok] = b.low, b.high, b.estimate
    return low, high, est


def _paper(test, cal, ok):
    low, high, est = (np.full(ok.shape, np.nan) for _ in range(3))
    if ok.any():
        t, c = _subset(test, ok, js.JudgedCounts), _subset(cal, ok, js.ConfusionCounts)
        b = compute_bounds(t, c, method="adjusted-wald", confidence_level=LEVEL)
        low[ok], high[ok] = b.low, b.high
        with np.errstate(divide="ignore", invalid="ignore"):
            est[ok] = np.clip(js.estimators.rogan_gladen_counts(t, c), 0, 1)
    return low, high, est


def _ppi(test, cal):
    from ppi_py import ppi_mean_ci, ppi_mean_pointestimate

    reps = np.shape(test.positive)[0]
    low, high, est = (np.full(reps, np.nan) for _ in range(3))
    for i in range(reps):
        tp, fn, tn, fp = (int(np.asarray(getattr(cal, f))[i]) for f in ("tp", "fn", "tn", "fp"))
        y = np.repeat([1.0, 1.0, 0.0, 0.0], [tp, fn, tn, fp])
        yhat = np.repeat([1.0, 0.0, 0.0, 1.0], [tp, fn, tn, fp])
        x, n = int(np.asarray(test.positive)[i]), int(np.asarray(test.n).reshape(-1)[0])
        unl = np.repeat([1.0, 0.0], [x, n - x])
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            lo, hi = ppi_mean_ci(y, yhat, unl, alpha=1 - LEVEL)
            est[i] = float(np.ravel(ppi_mean_pointestimate(y, yhat, unl))[0])
        low[i], high[i] = float(np.ravel(lo)[0]), float(np.ravel(hi)[0])
    return np.clip(low, 0, 1), np.clip(high, 0, 1), est


def summarise(theta, low, high, est):
    ok = ~np.isnan(low)
    cov = np.mean((low[ok] <= theta) & (theta <= high[ok])) if ok.any() else np.nan
    length = np.mean(high[ok] - low[ok]) if ok.any() else np.nan
    err = est[ok] - theta
    return {
        "coverage": cov, "length": length, "bias": err.mean() if ok.any() else np.nan,
        "rmse": np.sqrt(np.mean(err**2)) if ok.any() else np.nan, "undefined": 1 - ok.mean(),
    }  # fmt: skip


# ----------------------------------------------------------------------------- part 1
def simulate(quick: bool):
    reps = 300 if quick else 2000
    reps_slow = 60 if quick else 200
    gen = np.random.default_rng(17)
    out = []  # dicts: grid, design, analysis, cell, stats
    for grid, cs in cells(quick).items():
        for design in TRUE_DESIGNS:
            t0 = time.perf_counter()
            for cell in cs:
                theta, q0, q1, n, m = cell
                test, cal = draw(design, theta, q0, q1, n, m, reps, gen)
                for analysis in ANALYSES:
                    slow = analysis in ("ppi++", "random bayes")
                    if slow and (design != "random" or (analysis == "ppi++" and not HAVE_PPI)):
                        continue
                    if analysis == "random bayes" and not (quick or n == 10_000):
                        continue  # the exact posterior on the n = 10^4 subgrid
                    if analysis == "ppi++" and n > PPI_MAX_N:
                        continue  # ppi_py runs on item arrays, one data set at a time
                    t, c = (test, cal) if not slow else (
                        js.JudgedCounts(test.positive[:reps_slow], n),
                        js.ConfusionCounts(*(np.asarray(getattr(cal, f))[:reps_slow]
                                             for f in ("tp", "fn", "tn", "fp"))),
                    )  # fmt: skip
                    stats = summarise(theta, *bounds(analysis, t, c, gen))
                    out.append({"grid": grid, "design": design, "analysis": analysis,
                                "cell": cell, **stats})  # fmt: skip
            print(f"  {grid}, data by {design}: {time.perf_counter() - t0:.0f} s", flush=True)
    return out, reps, reps_slow


def _cell_text(cell):
    theta, q0, q1, n, m = cell
    return f"θ={theta:g}, q=({q0:g}, {q1:g}), m={m}, n={n}"


def headline(rows, grid):
    table = []
    for design in TRUE_DESIGNS:
        for analysis in ANALYSES:
            sel = [r for r in rows if r["grid"] == grid and r["design"] == design
                   and r["analysis"] == analysis]  # fmt: skip
            if not sel:
                continue
            cov = np.array([r["coverage"] for r in sel])
            i = int(np.nanargmin(cov))
            table.append([
                design, LABEL[analysis], len(sel),
                f"{cov[i]:.3f} ({_cell_text(sel[i]['cell'])})",
                int(np.sum(cov < 0.93)), f"{np.nanmean(cov):.3f}",
                f"{np.nanmean([r['length'] for r in sel]):.3f}",
                f"{np.nanmax(np.abs([r['bias'] for r in sel])):.3f}",
                f"{np.nanmean([r['rmse'] for r in sel]):.4f}",
                f"{np.max([r['undefined'] for r in sel]):.3f} / "
                f"{np.mean([r['undefined'] for r in sel]):.4f}",
            ])  # fmt: skip
    return markdown_table(
        ["data drawn by", "analysis", "cells", "min coverage (cell)", "cells < 0.93",
         "mean coverage", "mean length", "max abs bias", "mean RMSE",
         "undefined: max cell / overall"], table,
    )  # fmt: skip


def ratios(rows):
    """Width of design="random" against the others, per cell, on random-design data."""
    by = {}
    for r in rows:
        if r["design"] == "random":
            by.setdefault((r["grid"], r["cell"]), {})[r["analysis"]] = r
    table = []
    for m_sel, what in (((20, 50), "m < 200"), ((200, 1000), "m ≥ 200")):
        rat = {k: [] for k in ("paper", "human-only", "ppi++", "floor")}
        for (grid, cell), d in by.items():
            if grid != "grid" or cell[4] not in m_sel:
                continue
            own = d["random"]["length"]
            for k in ("paper", "human-only", "ppi++"):
                if k in d and np.isfinite(d[k]["length"]):
                    rat[k].append(own / d[k]["length"])
            rat["floor"].append(own / floor_width(*cell))
        table.append([what] + [
            f"{np.median(v):.3f} ({np.min(v):.3f}–{np.max(v):.3f})" if v else "–"
            for v in rat.values()
        ])  # fmt: skip
    return markdown_table(
        ["calibration size", "÷ paper's adjusted-Wald", "÷ human labels alone", "÷ PPI++",
         "÷ asymptotic floor 2z√V"], table,
    )  # fmt: skip


# ----------------------------------------------------------------------------- part 2
def real_data(quick: bool):
    frames = [
        ("Arena, GPT-4 judge", js.datasets.load_chatbot_arena(judge="gpt-4"),
         js.datasets.ARENA_TARGETS),
        ("Arena, GPT-3.5 judge", js.datasets.load_chatbot_arena(judge="gpt-3.5"),
         js.datasets.ARENA_TARGETS),
    ]  # fmt: skip
    nq = js.datasets.load_nq301()
    frames.append(("NQ-301, GPT-4 judge", nq, tuple(sorted(nq["target_model"].unique()))))
    splits = 10 if quick else 100
    rows = []
    for source, frame, targets in frames:
        for target in targets[: 2 if quick else None]:
            sub = frame[frame["target_model"] == target]
            human, judge = sub["human"].to_numpy(), sub["judge"].to_numpy()
            theta = float(human.mean())
            gen = np.random.default_rng([2026, len(rows)])
            k = round(0.1 * len(sub))
            cal_idx = np.array([gen.permutation(len(sub))[:k] for _ in range(splits)])
            is_cal = np.zeros((splits, len(sub)), dtype=bool)
            np.put_along_axis(is_cal, cal_idx, True, axis=1)
            h, j = human[None, :], judge[None, :]
            test = js.JudgedCounts(np.sum(j * ~is_cal, axis=1), len(sub) - k)
            cal = js.ConfusionCounts(
                tp=np.sum(is_cal & (h == 1) & (j == 1), axis=1),
                fn=np.sum(is_cal & (h == 1) & (j == 0), axis=1),
                tn=np.sum(is_cal & (h == 0) & (j == 0), axis=1),
                fp=np.sum(is_cal & (h == 0) & (j == 1), axis=1),
            )
            row = {"source": source, "target": target, "rows": len(sub), "m": k, "theta": theta}
            for analysis in ("random", "paper", "human-only", "ppi++"):
                if analysis == "ppi++" and not HAVE_PPI:
                    continue
                row[analysis] = summarise(theta, *bounds(analysis, test, cal, gen))
            rows.append(row)
    return rows, splits


def real_table(rows):
    cols = [a for a in ("random", "paper", "human-only", "ppi++") if a in rows[0]]
    table = []
    for r in rows:
        cells_ = []
        for a in cols:
            s = r[a]
            u = f", u {s['undefined']:.2f}" if s["undefined"] else ""
            cells_.append(f"{s['coverage']:.2f} / {s['length']:.3f}{u}")
        table.append([r["source"], r["target"], r["m"], f"{r['theta']:.3f}", *cells_])
    summary = []
    for a in cols:
        cov = [r[a]["coverage"] for r in rows]
        length = [r[a]["length"] for r in rows]
        summary.append([LABEL[a], f"{np.min(cov):.2f}", f"{np.mean(cov):.3f}",
                        f"{np.mean(length):.3f}",
                        f"{np.mean([r[a]['undefined'] for r in rows]):.3f}"])  # fmt: skip
    ratio = np.mean([r["random"]["length"] / r["paper"]["length"] for r in rows])
    head = markdown_table(
        ["analysis", "worst coverage over targets", "mean coverage", "mean length",
         "undefined share"], summary,
    )  # fmt: skip
    body = markdown_table(["data", "target", "m", "θ (all rows)", *(LABEL[a] for a in cols)],
                          table)  # fmt: skip
    return head, body, ratio


# ----------------------------------------------------------------------------- part 3
def speed(quick: bool):
    reps = 1000 if quick else 10_000
    thetas = np.linspace(0.02, 0.98, 21)
    gen = np.random.default_rng(3)
    parts = [draw("by-human-label", t, 0.8, 0.9, 5000, 200, reps, gen) for t in thetas]
    test = js.JudgedCounts(np.stack([p[0].positive for p in parts]), 5000)
    cal = js.ConfusionCounts(*(np.stack([getattr(p[1], f) for p in parts])
                               for f in ("tp", "fn", "tn", "fp")))  # fmt: skip
    rows = []
    base = best_of(lambda: compute_bounds(test, cal, method="adjusted-wald",
                                          confidence_level=LEVEL), 3)  # fmt: skip
    for design in ("random", "by-judge-label"):
        t = best_of(lambda d=design: compute_bounds(test, cal, method="adjusted-wald",
                                                    confidence_level=LEVEL, design=d), 3)
        rows.append([f'design="{design}" adjusted-wald', f"{t:.3f}", f"{t / base:.2f}"])
    rows.insert(0, ["paper's adjusted-Wald (by-human-label)", f"{base:.3f}", "1.00"])
    one = js.JudgedCounts(test.positive[:, :50], 5000)
    one_cal = js.ConfusionCounts(*(np.asarray(getattr(cal, f))[:, :50]
                                   for f in ("tp", "fn", "tn", "fp")))  # fmt: skip
    tb = best_of(lambda: compute_bounds(one, one_cal, method="bayes", confidence_level=LEVEL,
                                        design="random"), 1)  # fmt: skip
    note = f"{1e3 * tb / one.positive.size:.2f} ms per data set (batch of {one.positive.size})"
    table = markdown_table([f"21 θ × {reps:,} data sets", "seconds (best of 3)",
                            "÷ adjusted-Wald"], rows)  # fmt: skip
    return table, note


# ----------------------------------------------------------------------------- figure
def figure(rows):
    fig, axes = plt.subplots(1, 3, figsize=(13, 4), sharey=True)
    for ax, design in zip(axes, TRUE_DESIGNS, strict=True):
        for analysis, colour in (("random", "C0"), ("by-judge-label", "C1"), ("paper", "C2"),
                                 ("human-only", "C3")):  # fmt: skip
            sel = [r for r in rows if r["grid"] == "grid" and r["design"] == design
                   and r["analysis"] == analysis]  # fmt: skip
            ax.scatter([r["length"] for r in sel], [r["coverage"] for r in sel], s=8,
                       alpha=0.5, color=colour, label=LABEL[analysis])  # fmt: skip
        ax.axhline(0.95, color="k", lw=0.8)
        ax.axhline(0.93, color="k", lw=0.8, ls="--")
        ax.set_title(f"data drawn by {design}")
        ax.set_xlabel("mean interval length per cell")
        ax.set_xscale("log")
    axes[0].set_ylabel("coverage per cell")
    axes[0].set_ylim(0.5, 1.0)
    axes[0].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return save_figure(fig, "designs.png")


def main() -> None:
    args = quick_parser(__doc__.splitlines()[0], "small grid, few data sets").parse_args()
    start = time.perf_counter()
    rows, reps, reps_slow = simulate(args.quick)
    real, splits = real_data(args.quick)
    real_head, real_body, real_ratio = real_table(real)
    speed_table, bayes_note = speed(args.quick)
    figure(rows)
    ppi = "" if HAVE_PPI else " (ppi_py not installed: no PPI++ column)"
    body = f"""Run: `python benchmarks/bench_designs.py{' --quick' if args.quick else ''}`.

{__doc__.split(chr(10) + chr(10), 1)[1].rsplit("Writes", 1)[0].strip()}

{reps:,} data sets per cell (Monte Carlo s.e. of a coverage near 0.95: {np.sqrt(.95*.05/reps):.4f});
PPI++ and the exact posterior {reps_slow} per cell (s.e. {np.sqrt(.95*.05/reps_slow):.3f}){ppi}.
Coverage, length, bias and RMSE are over the data sets where an analysis answered; 'undefined'
is the share where it did not (the paper's interval: a calibration set with one human class or
q̂0 + q̂1 <= 1; by-judge-label: a judge label without calibration items).

## Part 1: simulation

### The grid

{headline(rows, "grid")}

### Cells drawn at random

{headline(rows, "random cells")}

### Width of design="random" on random-design data (median over cells, range)

{ratios(rows)}

![coverage against length](designs.png)

## Part 2: real data, random 10% calibration splits ({splits} per target)

{real_head}

Mean over targets of the per-target length ratio design="random" ÷ paper's adjusted-Wald:
{real_ratio:.3f}.

Per target: coverage / mean length (u = share of splits without an answer).

{real_body}

## Part 3: speed

{speed_table}

The random design's exact posterior (`method="bayes"`): {bayes_note}.

{run_time(time.perf_counter() - start, args.quick)}
"""
    publish("designs", "Calibration designs", body, time.perf_counter() - start)


if __name__ == "__main__":
    main()
