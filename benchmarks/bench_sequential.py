"""Labelling as a process (issue 28): the confidence sequence's time-uniform coverage, its price
and the labels active selection saves.

Each cell is a realised finite pool of N judged items, drawn once per cell with a seeded
Generator: item i has a stratum (uniform over S strata whose human rates are
expit(logit θ + δ_s), δ evenly spaced on [−0.75, 0.75]; δ = 0 when S = 1), a human label
y_i ~ Bern(its stratum's rate) and a latent judge score s_i ~ N(d y_i, 1) with
d = Φ⁻¹(q0) + Φ⁻¹(q1). A judge with K letters cuts the score at the K − 1 thresholds
c + d (k/K − 1/2), k = 1, …, K − 1, around the binary cut c = Φ⁻¹(q0): with K = 2 this is the
binary judge with specificity q0 and sensitivity q1 exactly; with 3–5 letters the human-positive
rate rises from letter to letter. The cells of the pool are the letters within strata. The
estimand is the pool's realised human rate (the θ column is the rate the pool was drawn with).

A replay labels the pool one item at a time without replacement, 20 items per round, under the
strategy "uniform" (every unlabelled item equally likely) or "by-judge-label" (Neyman allocation
across the cells from the labels before the round, with the default uniform floor 0.1), up to
2,000 labels (at most N), 1,000 replays per cell and strategy
(:func:`judgestats.sequential.replays.replay_labelling`, 95%). Each cell is run under the
default betting schedule (tight at no size in particular) and tuned for 500 labels, on the same
draws. The comparator is the fixed-sample stratified Wald interval (letters' pool shares known,
finite-population correction) looked at after every round of 20: what a team computes when it
ignores that it looks repeatedly.

Grid: 24 cells on a grid (θ in {0.02, 0.1, 0.3, 0.5, 0.8, 0.98}, q0 + q1 in {1.1, 1.5, 1.95}
with q0 = q1 or one of them 0.1 higher within the cap 0.995, K in {2, 3, 5}, S in {1, 2, 3}, N
in {2,500, 10,000, 50,000}, varied together) and 24 cells drawn at random (seed 2811: θ ~
U(0.02, 0.98); q0 + q1 = s ~ U(1.1, 1.95) split uniformly, q0 ~ U(s − 1, 1) and q1 = s − q0,
both capped at 0.995; K = 2 with probability 1/2, else uniform on 3–5; S = 1 with probability
1/2, else 2 or 3; N log-uniform on 2,500–50,000): 48 cells, half drawn at random, each under
both strategies and both schedules. Labels to reach a target width are measured on 200 replays
per cell and strategy (default schedule) with a look every 50 labels (--quick: 4 cells, 100
replays, 1,000 labels, 60 replays with a look every 100 labels for the labels saved).

Writes benchmarks/results/sequential.md.
Run: python benchmarks/bench_sequential.py [--quick]
"""

from __future__ import annotations

import itertools
import time

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time
from scipy.special import expit, logit
from scipy.stats import norm

from judgestats.sequential.betting import TRUNCATION, bet, horizon
from judgestats.sequential.planning import neyman_gain
from judgestats.sequential.pool import FLOOR, PoolState, cell_probabilities
from judgestats.sequential.replays import replay_labelling

LEVEL = 0.95
SEED = 2811
BATCH = 20
STRATEGIES = ("uniform", "by-judge-label")
SCHEDULES = (("default", None), ("tuned for 500", 500))
WIDTH_AT = (100, 500, 2000)
TARGETS = (1.5, 1.2)  # × the sequence's mean width at the last label under "uniform"


def _split(total: float, offset: float) -> tuple[float, float]:
    """(q0, q1) summing to ``total``, q0 − q1 = 2 ``offset`` as far as the cap 0.995 allows."""
    room = 0.995 - total / 2
    off = float(np.clip(offset, -room, room))
    return round(total / 2 + off, 3), round(total / 2 - off, 3)


def grid_cells() -> list[tuple]:
    """24 cells (θ, q0, q1, K letters, S strata, N): the factors varied together."""
    out = []
    for i in range(24):
        theta = (0.02, 0.1, 0.3, 0.5, 0.8, 0.98)[i % 6]
        total = (1.1, 1.5, 1.95)[(i // 6 + i) % 3]
        q0, q1 = _split(total, (0.0, 0.05, -0.05)[(i // 3) % 3])
        letters = (2, 3, 5, 2)[i // 6]
        strata = (1, 2, 1, 3)[(i + i // 6) % 4]
        items = (2500, 10_000, 50_000)[(i + i // 3) % 3]
        out.append((theta, q0, q1, letters, strata, items))
    return out


def random_cells(count: int, seed: int = SEED) -> list[tuple]:
    gen = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        theta = float(gen.uniform(0.02, 0.98))
        total = float(gen.uniform(1.1, 1.95))
        q0 = float(np.clip(gen.uniform(total - 1.0, 1.0), total - 0.995, 0.995))
        letters = 2 if gen.random() < 0.5 else int(gen.integers(3, 6))
        strata = 1 if gen.random() < 0.5 else int(gen.integers(2, 4))
        items = int(np.exp(gen.uniform(np.log(2500), np.log(50_000))))
        out.append((round(theta, 3), round(q0, 3), round(total - q0, 3), letters, strata, items))
    return out


def build_pool(cell: tuple, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Items and human-positive items per cell (letter within stratum) of one realised pool."""
    theta, q0, q1, letters, strata, items = cell
    gen = np.random.default_rng(seed)
    stratum = gen.integers(strata, size=items)
    shift = np.linspace(-0.75, 0.75, strata) if strata > 1 else np.zeros(1)
    y = gen.random(items) < expit(logit(theta) + shift)[stratum]
    cut, d = norm.ppf(q0), norm.ppf(q0) + norm.ppf(q1)
    score = gen.normal(d * y, 1.0)
    letter = np.searchsorted(cut + d * (np.arange(1, letters) / letters - 0.5), score)
    cells = stratum * letters + letter
    size = np.bincount(cells, minlength=strata * letters)
    positive = np.bincount(cells, weights=y, minlength=strata * letters)
    keep = size > 0
    return size[keep], positive[keep].astype(int)


def neyman_gains(size: np.ndarray, positive: np.ndarray, floor: float = FLOOR) -> tuple:
    """1 − (Σ π_j σ_j)² / Σ π_j σ_j², and the same for the allocation mixed with the floor.

    σ_j² = r_j (1 − r_j) of cell j in the pool; with the floor the draws follow
    q_j = (1 − floor) π_j σ_j / Σ π σ + floor π_j and the variance is Σ π_j² σ_j² / q_j.
    """
    pi = size / size.sum()
    r = positive / size
    sd = np.sqrt(r * (1 - r))
    prop = float((pi * sd**2).sum())
    if prop == 0:
        return 0.0, 0.0
    q = (1 - floor) * pi * sd / (pi * sd).sum() + floor * pi
    mixed = float((pi**2 * sd**2 / q).sum())
    return neyman_gain(pi, r), 1 - mixed / prop


def first_reach(looks: np.ndarray, width: np.ndarray, target: float) -> np.ndarray:
    """Per replay, the labels at which the width first falls to ``target`` (linear between
    looks; inf where it never does)."""
    below = width <= target
    hit = below.any(axis=1)
    k = np.argmax(below, axis=1)
    out = np.full(width.shape[0], np.inf)
    for i in np.flatnonzero(hit):
        j = k[i]
        if j == 0:
            out[i] = looks[0]
            continue
        w0, w1 = width[i, j - 1], width[i, j]
        frac = (w0 - target) / (w0 - w1) if w0 > w1 else 1.0
        out[i] = looks[j - 1] + frac * (looks[j] - looks[j - 1])
    return out


def capped_share(size, positive, strategy, labels, reps, seed) -> list[list]:
    """How often the variance-tuned bet exceeds its caps, per window of labels.

    Runs the draws of replay_labelling (the same pool and selection functions, default
    schedule) and, per draw, the plug-in bet λ̃ of judgestats.sequential.betting before
    truncation; returns per window [0, 100), [100, 500), [500, labels) the share of draws with
    λ̃ > c / (hi − lo) (a cap by the range, for comparison: the package's first version),
    λ̃ > c / (θ − lo) and λ̃ > c / (hi − θ) (the package's caps at the truth: the distance to
    the bound each bettor can lose towards), and the median range hi − lo.
    """
    gen = np.random.default_rng(seed)
    sizes = np.tile(np.asarray(size, float), (reps, 1))
    state = PoolState(sizes, sizes.copy(), np.ones_like(sizes))
    left = np.tile(np.asarray(positive, float), (reps, 1))
    theta = float(np.sum(positive) / np.sum(size))
    rows = np.arange(reps)
    stats = np.zeros((labels, 4))
    for t in range(labels):
        if t % BATCH == 0:
            spread = state.spread()
        q = cell_probabilities(state.remaining, spread, strategy, FLOOR)
        u = gen.random(reps)[:, None]
        cell = np.minimum((np.cumsum(q, axis=-1) < u).sum(axis=-1), len(size) - 1)
        y = (gen.random(reps) * state.remaining[rows, cell] < left[rows, cell]).astype(float)
        inc = state.increment(cell, y, q)
        lam = bet(1 - LEVEL, inc.variance, horizon(t + 1, inc.variance, 1 - LEVEL))
        with np.errstate(divide="ignore"):
            stats[t] = [
                (lam * (inc.hi - inc.lo) > TRUNCATION).mean(),
                (lam * (theta - inc.lo) > TRUNCATION).mean(),
                (lam * (inc.hi - theta) > TRUNCATION).mean(),
                np.median(inc.hi - inc.lo),
            ]
        state.record(cell, y, 1.0)
        left[rows, cell] -= y
    out = []
    for a, b in itertools.pairwise([0, 100, 500, labels]):
        out.append([f"{a + 1}–{b}", *(f"{x:.2f}" for x in stats[a:b, :3].mean(axis=0)),
                    f"{np.median(stats[a:b, 3]):.2f}"])  # fmt: skip
    return out


def coverage_cell(size, positive, labels, reps, seed) -> dict:
    """Both strategies × both schedules on one pool; the two schedules share their draws."""
    out = {}
    for s, strategy in enumerate(STRATEGIES):
        for name, tuned in SCHEDULES:
            r = replay_labelling(
                size, positive, strategy=strategy, labels=labels, batch=BATCH,
                looks=[x for x in WIDTH_AT if x < labels] + [labels], reps=reps,
                confidence_level=LEVEL, tuned_for=tuned, fixed=tuned is None,
                rng=seed + s,
            )  # fmt: skip
            out[strategy, name] = r
        out[strategy, "fixed"] = out[strategy, "default"]
    return out


def saving_cell(size, positive, labels, reps, step, seed) -> dict:
    """Labels to reach two target widths: fixed-n plan, monitor (uniform), active."""
    looks = np.arange(step, labels + 1, step)
    runs = {}
    for s, strategy in enumerate(STRATEGIES):
        runs[strategy] = replay_labelling(
            size, positive, strategy=strategy, labels=labels, batch=BATCH, looks=looks,
            reps=reps, confidence_level=LEVEL, fixed=strategy == "uniform", rng=seed + s,
        )  # fmt: skip
    uni = runs["uniform"]
    end = float(uni.width[:, -1].mean())
    fixed_mean = uni.width_fixed.mean(axis=0)
    out = []
    for factor in TARGETS:
        target = factor * end
        need = {k: first_reach(r.looks, r.width, target) for k, r in runs.items()}
        plan = first_reach(uni.looks, fixed_mean[None, :], target)[0]
        if fixed_mean[0] <= target:  # before the first look: width ∝ 1/√labels
            plan = uni.looks[0] * (fixed_mean[0] / target) ** 2
        med = {k: float(np.median(v)) for k, v in need.items()}
        reached = {k: float(np.isfinite(v).mean()) for k, v in need.items()}
        out.append({"factor": factor, "target": target, "plan": plan, **med,
                    "reached": min(reached.values())})  # fmt: skip
    return {"end": end, "targets": out}


def price_ratio(run, ref) -> np.ndarray:
    """Mean width of the sequence ÷ mean width of the fixed-sample interval, per look (NaN where
    the fixed-sample interval has width 0 in every replay: every letter's labels alike or
    exhausted)."""
    fixed = ref.width_fixed.mean(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(fixed > 0, run.width.mean(axis=0) / fixed, np.nan)


def fmt_range(values) -> str:
    v = np.asarray(values, float)
    return f"{np.median(v):.2f} ({v.min():.2f}–{v.max():.2f})"


def main() -> None:
    args = quick_parser(__doc__, "4 cells, 100 replays, 1,000 labels").parse_args()
    t0 = time.time()
    if args.quick:
        cells = [("grid", c) for c in (grid_cells()[3], grid_cells()[7])]
        cells += [("random", c) for c in random_cells(2)]
        labels, reps, save_reps, step = 1000, 100, 60, 100
    else:
        cells = [("grid", c) for c in grid_cells()] + [("random", c) for c in random_cells(24)]
        labels, reps, save_reps, step = 2000, 1000, 200, 50
    rows, results, savings = [], [], []
    for i, (source, cell) in enumerate(cells):
        size, positive = build_pool(cell, seed=10_000 + i)
        n_lab = min(labels, int(size.sum()))
        rate = positive.sum() / size.sum()
        cov = coverage_cell(size, positive, n_lab, reps, seed=100 * i)
        gain, gain_floor = neyman_gains(size, positive)
        sav = saving_cell(size, positive, n_lab, save_reps, step, seed=100 * i + 50)
        pi, r = size / size.sum(), positive / size
        results.append((source, cell, rate, cov, float(np.sqrt((pi * r * (1 - r)).sum()))))
        savings.append((source, cell, rate, gain, gain_floor, sav))
        theta, q0, q1, letters, strata, items = cell
        for strategy in STRATEGIES:
            d, tu = cov[strategy, "default"], cov[strategy, "tuned for 500"]
            ratio, ratio_t = price_ratio(d, d), price_ratio(tu, d)
            k500 = list(d.looks).index(500)
            rows.append([
                source, f"{theta:g}", f"{rate:.4f}", f"{q0:g}", f"{q1:g}", letters, strata,
                items, strategy, f"{d.covered.mean():.3f}", f"{tu.covered.mean():.3f}",
                f"{d.covered_fixed.mean():.3f}", f"{ratio[k500]:.2f}", f"{ratio_t[k500]:.2f}",
                f"{d.width.mean(axis=0)[-1]:.4f}",
            ])  # fmt: skip
            print(rows[-1], f"{time.time() - t0:.0f} s", flush=True)

    # ---------------------------------------------------------------- coverage summary
    summary = []
    for strategy in STRATEGIES:
        for name, _ in SCHEDULES:
            for source in ("grid", "random", "all"):
                rs = [c for s, _, _, c, _ in results if source in (s, "all")]
                covs = np.array([c[strategy, name].covered.mean() for c in rs])
                fixed = np.array([c[strategy, "fixed"].covered_fixed.mean() for c in rs])
                summary.append([
                    strategy, name, source, len(rs), f"{covs.min():.3f}", f"{covs.mean():.3f}",
                    int((covs < 0.94).sum()), f"{fixed.min():.3f}–{fixed.max():.3f}",
                    f"{fixed.mean():.3f}",
                ])  # fmt: skip
    recheck, recheck_reps = [], 500 if args.quick else 5000
    for i, (source, cell, rate, cov, _) in enumerate(results):
        for s, strategy in enumerate(STRATEGIES):
            for name, tuned in SCHEDULES:
                first = cov[strategy, name].covered.mean()
                if first >= 0.94:
                    continue
                size, positive = build_pool(cell, seed=10_000 + i)
                again = replay_labelling(
                    size, positive, strategy=strategy, labels=min(labels, int(size.sum())),
                    batch=BATCH, looks=[], reps=recheck_reps, confidence_level=LEVEL,
                    tuned_for=tuned, fixed=False, rng=10**6 + 100 * i + s,
                ).covered.mean()  # fmt: skip
                se = np.sqrt(again * (1 - again) / recheck_reps)
                recheck.append([source, f"{cell[0]:g}", f"{rate:.4f}", f"{cell[1]:g}",
                                f"{cell[2]:g}", cell[3], cell[4], cell[5], strategy, name,
                                f"{first:.3f}", f"{again:.3f} ± {se:.3f}"])  # fmt: skip
                print("re-check", recheck[-1], flush=True)
    worst_rows = []
    for strategy in STRATEGIES:
        for name, _ in SCHEDULES:
            covs = [c[strategy, name].covered.mean() for _, _, _, c, _ in results]
            j = int(np.argmin(covs))
            s, cell, rate, _, _ = results[j]
            worst_rows.append([strategy, name, f"{covs[j]:.3f}", s, f"{cell[0]:g}",
                               f"{rate:.4f}", f"{cell[1]:g}", f"{cell[2]:g}", cell[3], cell[4],
                               cell[5]])  # fmt: skip

    # ---------------------------------------------------------------- price of validity
    price, by_sd = [], []
    sds = np.array([sd for *_, sd in results])
    bands = (("σ < 0.15", sds < 0.15), ("0.15 ≤ σ < 0.3", (sds >= 0.15) & (sds < 0.3)),
             ("σ ≥ 0.3", sds >= 0.3))  # fmt: skip
    for strategy in STRATEGIES:
        for name, _ in SCHEDULES:
            ratios = []
            for _, _, _, c, _ in results:
                run, ref = c[strategy, name], c[strategy, "fixed"]
                ratios.append(price_ratio(run, ref))
            ratios = np.array(ratios)  # (cells, looks)
            looks = results[0][3][strategy, name].looks.tolist()
            for k, look in enumerate(looks):
                v = ratios[np.isfinite(ratios[:, k]), k]
                price.append([strategy, name, look, len(v), f"{np.median(v):.2f}",
                              f"{v.min():.2f}", f"{v.max():.2f}",
                              int((v <= 1.5).sum())])  # fmt: skip
            for band, mask in bands:
                if mask.any():
                    by_sd.append([strategy, name, band, int(mask.sum()),
                                  *(f"{np.nanmedian(ratios[mask, k]):.2f}"
                                    for k in range(len(looks)))])  # fmt: skip

    # ---------------------------------------------------------------- why: capped bets
    capped_rows = []
    order = np.argsort(sds)
    for j in dict.fromkeys([order[0], order[len(order) // 2], order[-1]]):
        source, cell, rate, _, sd = results[j]
        size, positive = build_pool(cell, seed=10_000 + int(j))
        for s, strategy in enumerate(STRATEGIES):
            for window in capped_share(size, positive, strategy, min(labels, int(size.sum())),
                                       save_reps, seed=100 * int(j) + 80 + s):  # fmt: skip
                capped_rows.append([
                    source, f"{cell[0]:g}", f"{cell[1]:g}", f"{cell[2]:g}", cell[3], cell[4],
                    cell[5], f"{sd:.3f}", strategy, *window,
                ])  # fmt: skip

    # ---------------------------------------------------------------- labels saved
    save_rows, measured, theory, theory_floor, over_plan = [], [], [], [], []
    for source, cell, rate, gain, gain_floor, sav in savings:
        for t in sav["targets"]:
            saved = 1 - t["by-judge-label"] / t["uniform"]
            measured.append(saved)
            over_plan.append(t["uniform"] / t["plan"])
            theory.append(gain)
            theory_floor.append(gain_floor)
            save_rows.append([
                source, f"{cell[0]:g}", f"{rate:.4f}", f"{cell[1]:g}", f"{cell[2]:g}", cell[3],
                cell[4], cell[5], f"{t['factor']:g}×", f"{t['target']:.4f}",
                f"{t['plan']:.0f}", f"{t['uniform']:.0f}", f"{t['by-judge-label']:.0f}",
                f"{t['reached']:.2f}", f"{saved:+.3f}", f"{gain:.3f}", f"{gain_floor:.3f}",
            ])  # fmt: skip
    measured, theory, theory_floor, over_plan = map(
        np.array, (measured, theory, theory_floor, over_plan)
    )
    save_summary = []
    for label, mask in (("all", np.ones_like(theory, bool)),
                        ("Neyman gain < 0.05", theory < 0.05),
                        ("Neyman gain 0.05–0.2", (theory >= 0.05) & (theory < 0.2)),
                        ("Neyman gain ≥ 0.2", theory >= 0.2)):  # fmt: skip
        if not mask.any():
            continue
        m, g, gf = measured[mask], theory[mask], theory_floor[mask]
        save_summary.append([
            label, int(mask.sum()), f"{np.median(m):+.3f}", f"{m.min():+.3f}–{m.max():+.3f}",
            f"{np.median(g):.3f}", f"{np.median(gf):.3f}",
            f"{np.median(m - gf):+.3f}", int((m > gf + 0.05).sum()),
            fmt_range(over_plan[mask]),
        ])  # fmt: skip

    # ---------------------------------------------------------------- the page
    elapsed = time.time() - t0
    body = __doc__.split("Writes")[0].strip()
    body += (
        "\n\n## Time-uniform coverage\n\n"
        "Coverage of the sequence: the share of replays whose pool rate lies inside the "
        "sequence's interval after *every* label up to the last (stricter than looking after "
        "every round). Fixed-sample peeked: the share whose rate lies inside the stratified Wald "
        f"interval at every round of {BATCH} (the failure the monitor prevents; it does not "
        f"depend on the schedule). With {reps:,} replays the Monte Carlo s.e. of a coverage of "
        f"0.95 is {np.sqrt(0.95 * 0.05 / reps):.3f}.\n\n"
    )
    body += markdown_table(
        ["strategy", "schedule", "cells", "count", "min coverage", "mean coverage",
         "cells < 0.94", "fixed-sample peeked: range", "fixed-sample peeked: mean"], summary,
    )  # fmt: skip
    body += "\n\nThe worst cell of each strategy and schedule:\n\n" + markdown_table(
        ["strategy", "schedule", "coverage", "cells", "θ", "pool rate", "q0", "q1", "letters K",
         "strata S", "items N"], worst_rows,
    )  # fmt: skip
    body += (
        f"\n\nEvery cell, strategy and schedule below 0.94, re-run on {recheck_reps:,} fresh "
        "replays (± one s.e.): " + ("none.\n\n" if not recheck else "\n\n")
    )
    if recheck:
        body += markdown_table(
            ["cells", "θ", "pool rate", "q0", "q1", "letters K", "strata S", "items N",
             "strategy", "schedule", "coverage", f"coverage on {recheck_reps:,} fresh replays"],
            recheck,
        ) + "\n\n"  # fmt: skip
    body += (
        "## Price of validity\n\n"
        "Mean width of the sequence ÷ mean width of the fixed-sample stratified Wald interval at "
        "the same labels (on the same draws), over the cells: median, range, and the cells where "
        "it is at most 1.5× (the issue's aim at 500 labels). The fixed-sample width is that of "
        "one look; it does not cover when looked at repeatedly (above). Near θ = 0 or 1 with a "
        "strong judge it is too narrow even at one look (a letter whose labels so far are all "
        "alike gets variance 0), so the ratio there overstates the price against a valid "
        "fixed-sample interval; cells where its width is 0 in every replay are left out of that "
        "look's count.\n\n"
    )
    body += markdown_table(
        ["strategy", "schedule", "labels", "cells", "width ÷ fixed-sample: median", "min", "max",
         "cells ≤ 1.5×"], price,
    )  # fmt: skip
    body += (
        "\n\nThe same ratio's median by the pool's per-label standard deviation "
        "σ = √(Σ π_j σ_j²) (the uniform draw's, after the letters' control variate): the "
        f"sequence's bets are capped at {TRUNCATION:g} ÷ the distance from the candidate rate to "
        "the bound of one increment each bettor can lose towards (set by the unlabelled share of "
        "the pool, the draw probabilities and the letters' predictions, not by σ); where σ is "
        "small and a letter is drawn rarely, the cap of the bet on 'below' binds and the width "
        "follows that distance, not σ.\n\n"
    )
    body += markdown_table(
        ["strategy", "schedule", "per-label s.d.", "cells",
         *(f"median at {look}" for look in results[0][3]["uniform", "default"].looks.tolist())],
        by_sd,
    )  # fmt: skip
    body += (
        "\n\nHow often the cap binds, in the cells with the smallest, the median and the largest "
        f"σ ({save_reps} replays each, default schedule): per window of labels, the share of "
        "draws whose variance-tuned bet λ̃ exceeds the caps of judgestats.sequential.betting at "
        "the truth (c = 0.5), c ÷ (θ − lo) (bet on 'above') and c ÷ (hi − θ) (bet on 'below') — "
        "the bet placed is then the cap, set by the bounds and not by σ — and, for comparison, "
        "a cap by the whole range, c ÷ (hi − lo) (the package's first version, which starved "
        "the bets on rarely drawn letters), with the median range hi − lo of an increment.\n\n"
    )
    body += markdown_table(
        ["cells", "θ", "q0", "q1", "letters K", "strata S", "items N", "per-label s.d.",
         "strategy", "labels", "capped by c/(hi − lo)", "capped by c/(θ − lo)",
         "capped by c/(hi − θ)", "median range hi − lo"], capped_rows,
    )  # fmt: skip
    body += (
        "\n\n## Labels saved by active selection\n\n"
        f"Per cell, two targets: {TARGETS[0]:g}× and {TARGETS[1]:g}× the sequence's mean width "
        'at the last label under "uniform" (default schedule). Labels: the median over '
        f"{save_reps} replays of the labels at which the sequence's interval first falls to the "
        f"target (looks every {step} labels, linear between looks); *fixed-n plan*: the labels at "
        "which the fixed-sample interval's mean width reaches the target under uniform draws "
        "(a plan fixed in advance, looked at once; below the first look, extrapolated as "
        "width ∝ 1/√labels). Saved: 1 − active ÷ uniform. The Neyman gain "
        "1 − (Σ π_j σ_j)² / Σ π_j σ_j², with σ_j² = r_j(1 − r_j) of cell j in the pool, is the "
        "share of labels an oracle Neyman allocation saves against uniform draws at equal "
        "variance; *with floor*: the same for the allocation the strategy aims at, "
        f"(1 − {FLOOR:g}) Neyman + {FLOOR:g} uniform. The strategy estimates σ_j from the labels "
        "so far, so it can only approach the gain with floor. Reached: the smaller share of "
        "replays (of the two strategies) that reach the target within the labels. Where the "
        "sequence's bets are capped (small σ, above), its width follows the bounds of an "
        "increment rather than its variance, so an allocation that lowers the variance saves "
        "few labels: the measured saving falls short of the theory there.\n\n"
    )
    body += markdown_table(
        ["cells", "targets", "measured saving: median", "measured saving: range",
         "Neyman gain: median", "Neyman gain with floor: median",
         "measured − with floor: median", "targets saving > with floor + 0.05",
         "labels monitor ÷ fixed-n plan: median (range)"], save_summary,
    )  # fmt: skip
    body += "\n\n" + markdown_table(
        ["cells", "θ", "pool rate", "q0", "q1", "letters K", "strata S", "items N", "target",
         "width", "labels fixed-n plan", "labels monitor (uniform)", "labels active",
         "reached", "saved", "Neyman gain", "Neyman gain with floor"], save_rows,
    )  # fmt: skip
    body += "\n\n## Every cell\n\n" + markdown_table(
        ["cells", "θ", "pool rate", "q0", "q1", "letters K", "strata S", "items N", "strategy",
         "coverage default", "coverage tuned for 500", "fixed-sample peeked",
         "width ÷ fixed at 500, default", "width ÷ fixed at 500, tuned", "width at last label"],
        rows,
    )  # fmt: skip
    body += "\n\n" + run_time(elapsed, args.quick)
    publish("sequential", "Labelling as a process: the confidence sequence", body, elapsed)


if __name__ == "__main__":
    main()
