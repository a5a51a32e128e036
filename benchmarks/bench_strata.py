"""Stratified correction (issue #6): simulation study and real data.

Sections (all seeded):
  A. The issue's scenario: the judge is lenient on long answers, the test set is 70% long and
     the calibration set 30% long. Bias, coverage and width of the stratified intervals
     (adjusted-Wald, Wald, bootstrap), two ablations of the adjusted-Wald pooling (full
     per-stratum centre shifts instead of variance-share weighted ones; no test-mix term),
     and the unstratified adjusted-Wald interval, over calibration sizes, with a random
     (multinomial) and a fixed test mix.
  B. Random grid of 2-4 strata (random θ_s, q0_s, q1_s, mixes, sizes): coverage summary.
  C. Clipping: pooled estimate from unclipped vs clipped per-stratum estimates when a stratum's
     true rate is near 1.
  D. Real data, per-stratum judge behaviour on all labelled rows: Chatbot Arena by
     target_position (GPT-4 and GPT-3.5 judges), NQ-301 by long_form (GPT-4 judge).
  E. Real data, repeated calibration splits: stratified vs unstratified per target model,
     for random splits and for a deliberately shifted split (calibration over-samples one
     stratum); truth = the human rate of the split's test rows.
Writes benchmarks/results/strata.md and strata.png.
Run: python benchmarks/bench_strata.py [--quick]   (quick: < 30 s; full: a few minutes)
"""

from __future__ import annotations

import time
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from _common import markdown_table, publish, quick_parser, run_time, save_figure

import judgestats as js
from judgestats.datasets import ARENA_TARGETS, load_chatbot_arena, load_nq301
from judgestats.intervals import adjusted_wald_bounds, z_value
from judgestats.simulate import draw
from judgestats.strata import (
    DEFAULT_MIN_PER_CLASS,
    correct_stratified,
    pooled_bounds,
    stratified_counts,
)

SEED = 20260606
MIN = DEFAULT_MIN_PER_CLASS
Z = float(z_value(0.95))


# ============================================================================ simulation
def draw_strata(rng, theta, q0, q1, test_mix, n, cal_m, reps, random_mix, min_per_class=MIN):
    """Counts of shape (reps, S): test with a fixed or multinomial mix, calibration with
    m_s items per stratum whose classes are drawn with P(Z = 1) = θ_s."""
    theta, q0, q1 = (np.asarray(a, dtype=float) for a in (theta, q0, q1))
    n_fixed = np.round(np.asarray(test_mix) * n).astype(np.int64)
    sim = draw(
        theta=theta, q0=q0, q1=q1, n=n_fixed, m0=np.asarray(cal_m), m1=0, reps=reps,
        theta_calibration=theta, rng=rng,
    )  # fmt: skip
    c = sim.calibration
    cal = js.ConfusionCounts(tp=c.tp.T, fn=c.fn.T, tn=c.tn.T, fp=c.fp.T)
    if random_mix:
        n_s = rng.multinomial(n, test_mix, size=reps)
        positive = rng.binomial(n_s, q1 * theta + (1 - q0) * (1 - theta))
    else:
        n_s = np.broadcast_to(n_fixed, (reps, len(theta)))
        positive = sim.test.positive.T
    ok = (np.minimum(cal.m0, cal.m1) >= min_per_class).all(axis=-1) & (n_s > 0).all(axis=-1)
    # placeholder n where a stratum is empty (those replications are excluded anyway)
    test = js.JudgedCounts(positive=positive, n=np.maximum(n_s, 1))
    return test, cal, ok


def sum_of_shifts_bounds(test, cal):
    """Ablation: the adjusted-Wald pooling with the full per-stratum shifts Σ w_s dθ̃_s."""
    p, n = test.p_hat, test.n.astype(float)
    w = n / n.sum(-1, keepdims=True)
    m0, m1 = cal.m0.astype(float), cal.m1.astype(float)
    z2 = Z * Z
    nt = n + z2
    pt = (n * p + z2 / 2) / nt
    q0t, q1t = (cal.tn + 1) / (m0 + 2), (cal.tp + 1) / (m1 + 2)
    v0, v1 = q0t * (1 - q0t) / (m0 + 2), q1t * (1 - q1t) / (m1 + 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        den = np.where(q0t + q1t > 1, q0t + q1t - 1, np.nan)
        th = (pt + q0t - 1) / den
        var = (pt * (1 - pt) / nt + (1 - th) ** 2 * v0 + th**2 * v1) / den**2
        centre = (w * (th + 2 * z2 * (-(1 - th) * v0 + th * v1))).sum(-1)
        bar = (w * th).sum(-1)
        total = (w * w * var).sum(-1) + (w * (th - bar[:, None]) ** 2).sum(-1) / n.sum(-1)
    half = Z * np.sqrt(total)
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def unstratified_bounds(test, cal):
    t = js.JudgedCounts(positive=test.positive.sum(-1), n=test.n.sum(-1))
    c = js.ConfusionCounts(
        tp=cal.tp.sum(-1), fn=cal.fn.sum(-1), tn=cal.tn.sum(-1), fp=cal.fp.sum(-1)
    )
    q0, q1 = c.specificity, c.sensitivity
    low, high, _ = adjusted_wald_bounds(t.p_hat, q0, q1, t.n, c.m0, c.m1, Z)
    with np.errstate(divide="ignore", invalid="ignore"):
        est = np.where(q0 + q1 > 1, (t.p_hat + q0 - 1) / (q0 + q1 - 1), np.nan)
    return est, np.where(q0 + q1 > 1, low, np.nan), np.where(q0 + q1 > 1, high, np.nan)


def evaluate(low, high, truth, ok, est=None):
    good = ok & np.isfinite(low) & np.isfinite(high)
    cov = np.mean((low[good] <= truth) & (truth <= high[good]))
    width = np.mean(high[good] - low[good])
    bias = np.nan if est is None else np.mean(np.clip(est[good], 0, 1)) - truth
    return cov, width, bias, 1 - good.mean()


ISSUE = {
    "theta": (0.6, 0.7),  # short, long
    "q0": (0.85, 0.60),  # lenient on long answers
    "q1": (0.90, 0.95),
    "test_mix": (0.3, 0.7),
    "cal_mix": (0.7, 0.3),
    "n": 1000,
}


def section_issue(rng, reps, boot_reps, n_resamples, sizes):
    truth = float(np.dot(ISSUE["test_mix"], ISSUE["theta"]))
    rows, curves = [], {}
    for random_mix in (True, False):
        for m in sizes:
            cal_m = np.round(np.asarray(ISSUE["cal_mix"]) * m).astype(int)
            test, cal, ok = draw_strata(
                rng, ISSUE["theta"], ISSUE["q0"], ISSUE["q1"], ISSUE["test_mix"], ISSUE["n"],
                cal_m, reps, random_mix,
            )  # fmt: skip
            res = {}
            b = pooled_bounds(test, cal, method="adjusted-wald")
            res["stratified adjusted-Wald"] = evaluate(b.low, b.high, truth, ok, b.estimate)
            lo, hi = sum_of_shifts_bounds(test, cal)
            res["  ablation: full shifts (no π)"] = evaluate(lo, hi, truth, ok)
            w = test.n / test.n.sum(-1, keepdims=True)
            bf = pooled_bounds(test, cal, weights=w, method="adjusted-wald")
            res["  ablation: no test-mix term"] = evaluate(bf.low, bf.high, truth, ok)
            bw = pooled_bounds(test, cal, method="wald")
            res["stratified Wald"] = evaluate(bw.low, bw.high, truth, ok, bw.estimate)
            tb = js.JudgedCounts(positive=test.positive[:boot_reps], n=test.n[:boot_reps])
            cb = js.ConfusionCounts(
                **{f: getattr(cal, f)[:boot_reps] for f in ("tp", "fn", "tn", "fp")}
            )
            bb = pooled_bounds(tb, cb, method="bootstrap", rng=rng, n_resamples=n_resamples)
            res["stratified bootstrap"] = evaluate(
                bb.low, bb.high, truth, ok[:boot_reps], bb.estimate
            )
            est_u, lo_u, hi_u = unstratified_bounds(test, cal)
            res["unstratified adjusted-Wald"] = evaluate(lo_u, hi_u, truth, ok, est_u)
            for name, (cov, width, bias, excl) in res.items():
                rows.append(
                    [
                        "multinomial" if random_mix else "fixed",
                        m,
                        name,
                        f"{cov:.3f}",
                        f"{width:.3f}",
                        "(same)" if np.isnan(bias) else f"{bias:+.4f}",
                        f"{excl:.3f}",
                    ]
                )
                if random_mix:
                    curves.setdefault(name, []).append(cov)
    return truth, rows, curves


STRESS = {
    "θ near 0 and 1, mirrored judges": dict(
        theta=(0.05, 0.95), q0=(0.95, 0.70), q1=(0.70, 0.95), mix=(0.5, 0.5), cal=(0.5, 0.5),
        n=1000, m=600,
    ),
    "θ = 0.1 / 0.9": dict(
        theta=(0.1, 0.9), q0=(0.9, 0.8), q1=(0.8, 0.9), mix=(0.5, 0.5), cal=(0.5, 0.5),
        n=500, m=300,
    ),
    "4 strata, θ up to 0.95": dict(
        theta=(0.1, 0.5, 0.9, 0.95), q0=(0.9, 0.8, 0.7, 0.75), q1=(0.85, 0.9, 0.95, 0.9),
        mix=(0.25,) * 4, cal=(0.1, 0.2, 0.3, 0.4), n=4000, m=1600,
    ),
    "3 strata, skewed mixes": dict(
        theta=(0.2, 0.5, 0.8), q0=(0.9, 0.7, 0.6), q1=(0.7, 0.8, 0.95), mix=(0.6, 0.3, 0.1),
        cal=(0.2, 0.3, 0.5), n=2000, m=300,
    ),
    "near-perfect judge, m = 40, min_per_class = 3": dict(
        theta=(0.3, 0.6), q0=(0.98, 0.97), q1=(0.99, 0.98), mix=(0.5, 0.5), cal=(0.5, 0.5),
        n=2000, m=40, min_per_class=3,
    ),
}  # fmt: skip


def section_stress(rng, reps):
    rows = []
    for name, c in STRESS.items():
        cal_m = np.round(np.asarray(c["cal"]) * c["m"]).astype(int)
        test, cal, ok = draw_strata(
            rng, c["theta"], c["q0"], c["q1"], c["mix"], c["n"], cal_m, reps, True,
            c.get("min_per_class", MIN),
        )  # fmt: skip
        truth = float(np.dot(c["mix"], c["theta"]))
        w = test.n / test.n.sum(-1, keepdims=True)
        b = pooled_bounds(test, cal)
        pairs = [
            (b.low, b.high),
            sum_of_shifts_bounds(test, cal),
            pooled_bounds(test, cal, weights=w)[1:3],
            pooled_bounds(test, cal, method="wald")[1:3],
        ]
        cov = [evaluate(lo, hi, truth, ok)[0] for lo, hi in pairs]
        rows.append([name, f"{1 - ok.mean():.3f}", *(f"{x:.3f}" for x in cov)])
    return rows


def section_grid(rng, cases, reps):
    names = ("adjusted-Wald", "full shifts (no π)", "no test-mix term", "Wald")
    cover = {k: [] for k in names}
    excluded, skipped = [], 0
    for _ in range(cases):
        s = int(rng.integers(2, 5))
        theta = rng.uniform(0.05, 0.95, s)
        q0, q1 = rng.uniform(0.6, 0.98, s), rng.uniform(0.6, 0.98, s)
        test_mix, cal_mix = rng.dirichlet(np.full(s, 3.0)), rng.dirichlet(np.full(s, 3.0))
        n = int(rng.choice([500, 2000, 10000]))
        m = int(rng.choice([60, 150, 400])) * s
        cal_m = np.maximum(np.round(cal_mix * m).astype(int), 1)
        test, cal, ok = draw_strata(rng, theta, q0, q1, test_mix, n, cal_m, reps, True)
        if ok.mean() < 0.5:  # most replications would have a sparse stratum
            skipped += 1
            continue
        truth = float(np.dot(test_mix, theta))
        w = test.n / test.n.sum(-1, keepdims=True)
        b = pooled_bounds(test, cal)
        cover["adjusted-Wald"].append(evaluate(b.low, b.high, truth, ok)[0])
        lo, hi = sum_of_shifts_bounds(test, cal)
        cover["full shifts (no π)"].append(evaluate(lo, hi, truth, ok)[0])
        bf = pooled_bounds(test, cal, weights=w)
        cover["no test-mix term"].append(evaluate(bf.low, bf.high, truth, ok)[0])
        bw = pooled_bounds(test, cal, method="wald")
        cover["Wald"].append(evaluate(bw.low, bw.high, truth, ok)[0])
        excluded.append(1 - ok.mean())
    rows = []
    for k in names:
        c = np.array(cover[k])
        rows.append(
            [
                k,
                len(c),
                f"{c.mean():.4f}",
                f"{np.quantile(c, 0.05):.4f}",
                f"{c.min():.4f}",
                f"{np.mean(c < 0.93):.3f}",
            ]
        )
    return rows, skipped, float(np.mean(excluded)) if excluded else 0.0


CLIP_CASES = ((0.90, 100), (0.97, 100), (0.99, 50), (1.00, 100))


def section_clipping(rng, reps):
    """Two strata weighted 1/2, θ = (θ1, 0.40), q0 = 0.8, q1 = 0.9, n_s = 500, m0 = m1 = m."""
    rows = []
    for theta1, m in CLIP_CASES:
        theta = np.array([theta1, 0.40])
        sim = draw(theta=theta, q0=0.8, q1=0.9, n=500, m0=m, m1=m, reps=reps, rng=rng)
        t, c = sim.test, sim.calibration
        test = js.JudgedCounts(positive=t.positive.T, n=500)
        cal = js.ConfusionCounts(tp=c.tp.T, fn=c.fn.T, tn=c.tn.T, fp=c.fp.T)
        b = pooled_bounds(test, cal, weights=[0.5, 0.5])
        with np.errstate(divide="ignore", invalid="ignore"):
            raw = (test.p_hat + cal.specificity - 1) / (cal.specificity + cal.sensitivity - 1)
        truth = float(theta.mean())
        pooled = np.clip(b.estimate, 0, 1)  # what correct_stratified reports
        clipped_first = np.clip(raw, 0, 1).mean(-1)
        rows.append(
            [
                theta1,
                m,
                f"{np.mean(raw[:, 0] > 1):.2f}",
                f"{pooled.mean() - truth:+.4f}",
                f"{np.sqrt(np.mean((pooled - truth) ** 2)):.4f}",
                f"{clipped_first.mean() - truth:+.4f}",
                f"{np.sqrt(np.mean((clipped_first - truth) ** 2)):.4f}",
                f"{np.mean((b.low <= truth) & (truth <= b.high)):.3f}",
            ]
        )
    return rows


# ============================================================================ real data
def behaviour_rows(frame, by, groups):
    """Per-stratum judge behaviour on all labelled rows (no split)."""
    rows = []
    for key, d in frame.groupby(groups):
        tests, cals, skipped = {}, {}, []
        for s, ds in d.groupby(by):
            h = ds.human.to_numpy()
            if h.min() == h.max():  # one human class only: no confusion matrix
                skipped.append((s, len(ds), int(h.sum())))
                continue
            tests[s] = js.JudgedCounts.from_frame(ds)
            cals[s] = js.ConfusionCounts.from_frame(ds)
        res = correct_stratified(tests, cals, min_per_class=1) if tests else None
        key = key if isinstance(key, tuple) else (key,)
        for s in tests:
            c = res[s]
            lo1, hi1 = res.diagnostics.sensitivity_ci[s]
            lo0, hi0 = res.diagnostics.specificity_ci[s]
            rows.append(
                [
                    *key,
                    s,
                    c.n,
                    f"{c.calibration.human_positive_rate:.3f}",
                    f"{c.naive:.3f}",
                    f"{c.sensitivity:.3f} [{lo1:.2f}, {hi1:.2f}]",
                    f"{c.specificity:.3f} [{lo0:.2f}, {hi0:.2f}]",
                    f"{c.sensitivity + c.specificity - 1:.3f}",
                    fmt_p(res.diagnostics.joint_test.pvalue) if res.k > 1 else "–",
                ]
            )
        for s, n, pos in skipped:
            rows.append([*key, s, n, f"{pos / n:.3f}", "–", "–", "–", "–", "one class only"])
    return rows


def fmt_p(p):
    return "< 1e-16" if p < 1e-16 else f"{p:.2g}"


def make_split(rng, strata, design):
    """Boolean calibration mask: ``("random", f)`` puts a random fraction f of the rows in the
    calibration set; ``("rates", {stratum: r})`` a random fraction r of each stratum's rows."""
    kind, arg = design
    rates = {None: arg} if kind == "random" else arg
    mask = np.zeros(len(strata), dtype=bool)
    for level, rate in rates.items():
        rows = np.arange(len(strata)) if level is None else np.flatnonzero(strata == level)
        mask[rng.choice(rows, size=round(rate * len(rows)), replace=False)] = True
    return mask


def nq_merge(frame, cal):
    """NQ-301: merge the long-form stratum into the short one when either stratum's
    calibration rows have fewer than MIN items of a human class (always explicit)."""
    h = frame.human.to_numpy()[cal]
    s = frame.long_form.to_numpy()[cal]
    counts = [min(np.sum(h[s == v] == 1), np.sum(h[s == v] == 0)) for v in (0, 1)]
    return {1: 0} if min(counts) < MIN else None


def repeated(frame, by, designs, splits, rng, merge_rule=None):
    """Stratified vs unstratified over repeated splits, one frame (one target, one judge)."""
    strata = frame[by].to_numpy()
    human = frame.human.to_numpy()
    out = []
    for design, split_rule in designs:
        rec = {k: [] for k in ("truth", "est_s", "lo_s", "hi_s", "est_u", "lo_u", "hi_u", "p")}
        merged = failed = clipped = 0
        for _ in range(splits):
            cal = make_split(rng, strata, split_rule)
            df = frame.assign(split=np.where(cal, "calibration", "test"))
            merge = merge_rule(frame, cal) if merge_rule else None
            merged += merge is not None
            try:
                tests, cals = stratified_counts(df, by=by, split="split", merge=merge)
                with warnings.catch_warnings():  # counted below, not shown
                    warnings.simplefilter("ignore", js.ClippedEstimateWarning)
                    res = correct_stratified(tests, cals)
            except (js.errors.NotInformativeError, js.errors.CountError):
                failed += 1
                continue
            clipped += any(res[s].clipped for s in res.strata)
            u = res.unstratified
            if u is None:
                failed += 1
                continue
            rec["truth"].append(human[~cal].mean())
            rec["est_s"].append(res.estimate)
            rec["lo_s"].append(res.ci.low)
            rec["hi_s"].append(res.ci.high)
            rec["est_u"].append(u.estimate)
            rec["lo_u"].append(u.ci.low)
            rec["hi_u"].append(u.ci.high)
            rec["p"].append(res.diagnostics.joint_test.pvalue if res.k > 1 else np.nan)
        a = {k: np.asarray(v, dtype=float) for k, v in rec.items()}
        row = {"design": design, "runs": len(a["truth"]), "merged": merged, "failed": failed}
        row["clipped"] = clipped
        if len(a["truth"]):
            t = a["truth"]
            row.update(
                truth=t.mean(),
                bias_u=np.mean(a["est_u"] - t),
                bias_s=np.mean(a["est_s"] - t),
                cov_u=np.mean((a["lo_u"] <= t) & (t <= a["hi_u"])),
                cov_s=np.mean((a["lo_s"] <= t) & (t <= a["hi_s"])),
                w_u=np.mean(a["hi_u"] - a["lo_u"]),
                w_s=np.mean(a["hi_s"] - a["lo_s"]),
                reject=np.nanmean(a["p"] < 0.05) if np.isfinite(a["p"]).any() else np.nan,
            )
        out.append(row)
    return out


def fmt_rep(key, r):
    if not r["runs"]:
        return [*key, r["design"], 0, *["–"] * 8, r["merged"], r["failed"], r["clipped"]]
    rej = "–" if np.isnan(r["reject"]) else f"{r['reject']:.2f}"
    return [
        *key,
        r["design"],
        r["runs"],
        f"{r['truth']:.3f}",
        f"{r['bias_u']:+.3f}",
        f"{r['bias_s']:+.3f}",
        f"{r['cov_u']:.2f}",
        f"{r['cov_s']:.2f}",
        f"{r['w_u']:.3f}",
        f"{r['w_s']:.3f}",
        rej,
        r["merged"],
        r["failed"],
        r["clipped"],
    ]


REP_HEADER = [
    "design",
    "runs",
    "truth θ (test rows)",
    "bias unstrat.",
    "bias strat.",
    "cover unstrat.",
    "cover strat.",
    "width unstrat.",
    "width strat.",
    "LR test p<0.05",
    "merged",
    "failed",
    "stratum clipped",
]


def summary_rows(summary):
    """Per data set, judge and design: averages over the target models."""
    rows = []
    for (data, judge, design), rs in summary.items():
        ok = [r for r in rs if r["runs"]]

        def avg(key, rs=ok):
            return np.mean([r[key] for r in rs])

        rows.append(
            [
                data,
                judge,
                design,
                len(ok),
                f"{np.mean([abs(r['bias_u']) for r in ok]):.3f}",
                f"{np.mean([abs(r['bias_s']) for r in ok]):.3f}",
                f"{avg('cov_u'):.2f}",
                f"{avg('cov_s'):.2f}",
                f"{avg('w_s') / avg('w_u'):.2f}",
                f"{sum(r['failed'] for r in rs) / sum(r['runs'] + r['failed'] for r in rs):.2f}",
                f"{sum(r['merged'] for r in rs) / sum(r['runs'] + r['failed'] for r in rs):.2f}",
            ]
        )
    return rows


def figure(curves, sizes, arena_shift, filename):
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), layout="constrained")
    ax = axes[0]
    for name, cov in curves.items():
        style = "--" if name.startswith("  ") else "-"
        ax.plot(sizes, cov, style, marker="o", label=name.strip())
    ax.axhline(0.95, color="grey", lw=0.8)
    ax.set_xscale("log")
    ax.set_xticks(sizes, [str(m) for m in sizes])
    ax.minorticks_off()
    ax.set_xlabel("calibration size m (30% long)")
    ax.set_ylabel("coverage of the 95% interval")
    ax.set_title("A. judge lenient on long answers; test 70% long")
    ax.legend(fontsize=7)
    ax = axes[1]
    labels = [f"{t}\n{j}" for j, t, _ in arena_shift]
    x = np.arange(len(arena_shift))
    ax.bar(x - 0.2, [r["bias_u"] for _, _, r in arena_shift], 0.4, label="unstratified")
    ax.bar(x + 0.2, [r["bias_s"] for _, _, r in arena_shift], 0.4, label="stratified by position")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(x, labels, rotation=60, fontsize=7)
    ax.set_ylabel("mean estimate − test-set human rate")
    ax.set_title("E. Arena, shifted split (calibration 80% position a)")
    ax.legend(fontsize=8)
    save_figure(fig, filename)


ARENA_DESIGNS = [
    ("random 10%", ("random", 0.10)),
    ("random 30%", ("random", 0.30)),
    ("shifted: 32% of a, 8% of b", ("rates", {"a": 0.32, "b": 0.08})),
]
NQ_DESIGNS = [
    ("random 30%", ("random", 0.30)),
    ("random 50%", ("random", 0.50)),
    ("shifted: 60% of short, 20% of long", ("rates", {0: 0.60, 1: 0.20})),
]
ISSUE_HEADER = ["test mix", "m", "interval", "coverage", "mean width", "bias", "excluded"]
CLIP_HEADER = ["θ1", "m", "P(θ̂1 > 1)", "bias reported", "RMSE reported", "bias clip first",
               "RMSE clip first", "coverage"]  # fmt: skip
GRID_HEADER = ["pooled interval", "cases", "mean coverage", "5% quantile", "min", "share < 0.93"]
STRESS_HEADER = ["scenario (multinomial test mix)", "excluded", "adjusted-Wald",
                 "full shifts (no π)", "no test-mix term", "Wald"]  # fmt: skip
BEH_HEADER = ["stratum", "n", "θ (human)", "p̂ (judge)", "q1 [95% Wilson]", "q0 [95% Wilson]",
              "q0 + q1 − 1", "LR test p (equal q's)"]  # fmt: skip
SUMMARY_HEADER = ["data", "judge", "design", "targets", "abs. bias unstrat.", "abs. bias strat.",
                  "cover unstrat.", "cover strat.", "width ratio", "failed", "merged"]  # fmt: skip


def simulation_sections(rng, quick: bool) -> dict:
    """Sections A-C (simulation), in this order on one generator."""
    v = {"sizes": (150, 300, 600, 1200)}
    budget = (1000, 200, 400) if quick else (10_000, 2000, 1000)
    v["reps"], v["boot_reps"], v["n_resamples"] = budget
    v["grid_cases"], v["grid_reps"] = (12, 500) if quick else (120, 2000)
    v["truth"], v["issue_rows"], v["curves"] = section_issue(
        rng, v["reps"], v["boot_reps"], v["n_resamples"], v["sizes"]
    )
    v["grid_rows"], v["grid_skipped"], v["grid_excl"] = section_grid(
        rng, v["grid_cases"], v["grid_reps"]
    )
    v["stress_rows"] = section_stress(rng, v["reps"])
    v["clip_rows"] = section_clipping(rng, v["reps"])
    return v


def arena_frame():
    """Chatbot Arena rows of the paper's targets, judges named gpt-4 and gpt-3.5."""
    arena = load_chatbot_arena("all")
    arena = arena[arena.target_model.isin(ARENA_TARGETS)].reset_index(drop=True)
    arena["judge_name"] = arena.judge_name.map(
        {"gpt-4-0125-preview": "gpt-4", "gpt-3.5-turbo-0125": "gpt-3.5"}
    )
    return arena


def split_sections(rng, arena, nq, splits: int) -> dict:
    """Section E: repeated splits per target, Arena then NQ-301, on one generator."""
    arena_rows, arena_shift, summary = [], [], {}
    for (judge, target), d in arena.groupby(["judge_name", "target_model"]):
        d = d.reset_index(drop=True)
        for r in repeated(d, "target_position", ARENA_DESIGNS, splits, rng):
            arena_rows.append(fmt_rep((judge, target), r))
            summary.setdefault(("Arena", judge, r["design"]), []).append(r)
            if r["design"].startswith("shifted") and r["runs"]:
                arena_shift.append((judge, target, r))
    nq_rows = []
    for target, d in nq.groupby("target_model"):
        d = d.reset_index(drop=True)
        for r in repeated(d, "long_form", NQ_DESIGNS, splits, rng, merge_rule=nq_merge):
            nq_rows.append(fmt_rep((target,), r))
            summary.setdefault(("NQ-301", "gpt-4", r["design"]), []).append(r)
    return {"arena_rows": arena_rows, "arena_shift": arena_shift, "nq_rows": nq_rows,
            "summary": summary}  # fmt: skip


def issue_text(v: dict, issue_table: str) -> str:
    """Introduction and section A."""
    truth, reps, boot_reps, n_resamples = v["truth"], v["reps"], v["boot_reps"], v["n_resamples"]
    return f"""
Stratified Rogan–Gladen correction (`judgestats.strata.correct_stratified`): one confusion
matrix per stratum, θ̂ = Σ_s w_s θ̂_s with w_s = n_s / n. The pooled interval
(`"adjusted-wald"`) is the delta method over independent strata at the paper's adjusted
quantities (eq. (8)) of every stratum, Var = Σ w_s² Ṽ_s + Σ w_s (θ̃_s − θ̄)² / n, centred at
Σ w_s (θ̃_s + π_s dθ̃_s) with π_s = w_s² Ṽ_s / Σ w_t² Ṽ_t (formulas in the module docstring).
Replications in which a stratum has fewer than min_per_class = {MIN} calibration items of a
class are excluded (`correct_stratified` refuses them by default) and counted.

## A. The issue's scenario

θ = (0.6 short, 0.7 long); the judge's specificity is 0.85 on short and 0.60 on long answers
(sensitivity 0.90 / 0.95); test n = 1000 with 70% long (truth θ = {truth:.2f}); calibration m
items with 30% long, classes drawn at random within each stratum. {reps:,} replications per
row ({boot_reps:,} for the bootstrap, {n_resamples:,} resamples). "multinomial": the test
mix is itself random (n_s ~ Multinomial(n, 0.3/0.7)), the usual case when the test set is a
random sample; "fixed": n_s = 300/700.

{issue_table}

The unstratified correction uses one confusion matrix estimated on a calibration set that is
mostly short answers, so it under-states how lenient the judge is on the (mostly long) test
set: its bias stays near +0.065 whatever m, and its interval's coverage collapses as m grows.
The stratified estimator's bias is the finite-m Rogan–Gladen bias, shrinking with m. Every
stratified delta-method interval covers at least nominally here; the two ablations change
nothing in this scenario (section B shows where they do). The percentile bootstrap runs a
little low at small m.

"""


def pooling_text(v: dict, grid_table: str) -> str:
    """Section B."""
    reps, grid_reps, grid_cases = v["reps"], v["grid_reps"], v["grid_cases"]
    grid_skipped, grid_excl = v["grid_skipped"], v["grid_excl"]
    stress_table = markdown_table(STRESS_HEADER, v["stress_rows"])
    return f"""## B. Where the pooling choices matter

Random scenarios: {grid_reps:,} replications in each of {grid_cases} random scenarios with 2–4
strata (θ_s ∈ [0.05, 0.95], q_s ∈ [0.6, 0.98], Dirichlet(3) test and calibration mixes,
n ∈ {{500, 2000, 10000}}, m ∈ {{60, 150, 400}} per stratum, multinomial test mix);
{grid_skipped} scenarios were skipped because most replications had a stratum below
min_per_class, and {grid_excl:.1%} of the replications of the others were excluded for the
same reason.

{grid_table}

Stress scenarios ({reps:,} replications each; coverage of the 95% pooled interval):

{stress_table}

What the pooled adjusted-Wald interval carries over, and why: (i) the per-stratum pseudo-counts
of eq. (8); (ii) the centre shift dθ̃_s, weighted by the stratum's share π_s of the pooled
variance: adding the full shifts over-corrects when strata are many or their shifts share a
sign (coverage lower by up to about 0.01 above), and with one stratum the weighted version is
exactly eq. (8); (iii) the variance of the test mix, without which coverage falls to about
0.90 when the strata's rates differ a lot. The plain Wald pooling (eq. (15) per stratum) also
covers in these scenarios once every stratum has ≥ {MIN} items per class; the adjusted
version is the default because it is the paper's interval for one stratum and keeps a positive
width when a stratum's q̂ is 0 or 1. Like eq. (8) itself, it is conservative for a
near-perfect judge with few calibration items.

"""


def clipping_text(v: dict) -> str:
    """Section C."""
    reps, clip_table = v["reps"], markdown_table(CLIP_HEADER, v["clip_rows"])
    return f"""## C. Clipping: what the pooled estimate uses

Two strata weighted 1/2 each, θ = (θ1, 0.40), q0 = 0.8, q1 = 0.9, n = 500 per stratum,
m0 = m1 = m per stratum, {reps:,} replications per row. "reported": Σ w_s θ̂_s with the
unclipped θ̂_s, the sum clipped to [0, 1] (what `correct_stratified` returns); "clip first":
Σ w_s clip(θ̂_s).

{clip_table}

Clipping each stratum first biases the pooled estimate towards the interior by about the mean
overshoot of the boundary stratum (up to −0.01 here); it has a somewhat smaller RMSE, because
clipping also removes variance. `correct_stratified` reports the unclipped pool, whose bias
stays at Monte Carlo noise: the package's point is a corrected number without systematic
error, the pooled interval is built around the same linear combination Σ w_s θ̂_s, and an
overshoot in one stratum is sampling noise that averages out across strata rather than
something to cut off before averaging. Each stratum's own `Correction` is still clipped, with
one `ClippedEstimateWarning` naming the strata. The last column is the coverage of the pooled
adjusted-Wald interval.

"""


def behaviour_text(beh_arena: list, beh_nq: list) -> str:
    """Section D."""
    return f"""## D. Real data: judge behaviour per stratum (all labelled rows, no split)

Chatbot Arena (ties count as not-win), strata = the target's display position. The LR test
compares both q's across the two positions on all rows.

{markdown_table(["judge", "target", *BEH_HEADER], beh_arena)}

NQ-301 (GPT-4 judge), strata = `long_form` (answer longer than five words). Only the two
InstructGPT systems have more than a handful of long answers; for the others the long
stratum has 1–5 items, often of one human class only (no confusion matrix).

{markdown_table(["target", *BEH_HEADER], beh_nq)}

"""


def splits_text(splits: int, e: dict) -> str:
    """Section E."""
    return f"""## E. Real data: stratified vs unstratified over repeated splits

{splits} seeded splits per design and target. Each split puts a fraction of the target's rows
in the calibration set (human labels used) and the rest in the test set (human labels hidden;
their mean is the truth the interval is checked against). "shifted" samples the strata at
different rates, so the calibration set over-represents one stratum and the test set the other
(Arena: 80% of the calibration items were shown in position a, against 42% of the test items).
"failed": splits where a stratum was not informative (q̂0 + q̂1 <= 1) or too sparse even after
merging; "merged": splits where the sparse NQ long stratum was merged into the short one
(an explicit `merge={{1: 0}}`, decided from the calibration rows: either stratum with fewer
than {MIN} items of a class), so the stratified answer equals the unstratified one there.

Summary (averages over the target models; "abs. bias" is the absolute value of a target's
mean error over its splits, averaged over the targets; "width ratio" the stratified
intervals' mean width over the unstratified ones'; "failed"/"merged" shares of all splits):

{markdown_table(SUMMARY_HEADER, summary_rows(e["summary"]))}

### Chatbot Arena, strata = target_position

{markdown_table(["judge", "target", *REP_HEADER], e["arena_rows"])}

### NQ-301, strata = long_form

{markdown_table(["target", *REP_HEADER], e["nq_rows"])}
"""


def main() -> None:
    q = quick_parser(__doc__, "fewer replications and splits").parse_args().quick
    splits = 6 if q else 100
    rng = np.random.default_rng(SEED)
    t0 = time.perf_counter()
    v = simulation_sections(rng, q)
    arena, nq = arena_frame(), load_nq301()
    beh_arena = behaviour_rows(arena, "target_position", ["judge_name", "target_model"])
    beh_nq = behaviour_rows(nq, "long_form", ["target_model"])
    e = split_sections(rng, arena, nq, splits)
    elapsed = time.perf_counter() - t0
    figure(v["curves"], v["sizes"], e["arena_shift"], "strata.png")
    issue_table = markdown_table(ISSUE_HEADER, v["issue_rows"])
    grid_table = markdown_table(GRID_HEADER, v["grid_rows"])
    body = (
        issue_text(v, issue_table)
        + pooling_text(v, grid_table)
        + clipping_text(v)
        + behaviour_text(beh_arena, beh_nq)
        + splits_text(splits, e)
        + f"\n![strata](strata.png)\n\n{run_time(elapsed, q)}\n"
    )
    print(issue_table)
    print(grid_table)
    publish("strata", "Stratified correction (bench_strata.py)", body, elapsed)


if __name__ == "__main__":
    main()
