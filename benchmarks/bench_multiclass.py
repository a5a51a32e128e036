"""k-category correction (issue #5): review-score study, coverage, projection, real data.

Sections (all seeded):
  A. The paper's appendix simulation (k = 6 review scores, truth 50/150/300/250/200/50 of
     n = 1000, m = 200 calibration items, a judge with central-tendency bias): naive vs
     corrected means, and per-category coverage of the "adjusted-delta" and plain ("wald") and
     "bootstrap" intervals over R replications.
  B. Three-class coverage grid (judge accuracy x calibration size x class mix): why the delta
     uses the Agresti-style adjustment.
  C. Estimates outside the simplex: error of the unconstrained solution, the Euclidean
     projection and the constrained ML fit (why the ML fit is reported).
  D. Chatbot Arena (bundled): win / tie / lose (ties merged) per target model, 10% calibration
     split: one seeded split in full, then coverage over repeated random splits.
  E. Speed of the vectorised kernels.
Writes benchmarks/results/multiclass.md and multiclass.png.
Run: python benchmarks/bench_multiclass.py [--quick]   (quick: < 30 s; full: a few minutes)
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import markdown_table, publish, quick_parser, save_figure

from judgestats._validation import IllConditionedError, ProjectedEstimateWarning
from judgestats.datasets import ARENA_TARGETS, load_chatbot_arena
from judgestats.multiclass import (
    MAX_CONDITION,
    CategoryCounts,
    ConfusionMatrix,
    _simplex_ml,
    correct_distribution,
    distribution_bounds,
    distribution_estimate,
)

SEED = 20260505
SCORES = ("Strong Reject", "Reject", "Weak Reject", "Weak Accept", "Accept", "Strong Accept")
TRUTH = np.array([50, 150, 300, 250, 200, 50])
# Judge with central-tendency bias (columns = true score, rows = judged score; each column sums
# to 1). Chosen so that E[naive] = C @ truth is close to the paper's naive row
# (39.8, 127.1, 321.6, 311.7, 156.5, 43.2): extremes are pulled one step inwards, the two
# middle scores swap 20% of their items, and 3% drift one step outwards.
C_REVIEW = np.array(
    [
        [0.70, 0.03, 0.00, 0.00, 0.00, 0.00],
        [0.30, 0.70, 0.03, 0.00, 0.00, 0.00],
        [0.00, 0.27, 0.77, 0.20, 0.00, 0.00],
        [0.00, 0.00, 0.20, 0.77, 0.28, 0.00],
        [0.00, 0.00, 0.00, 0.03, 0.69, 0.25],
        [0.00, 0.00, 0.00, 0.00, 0.03, 0.75],
    ]
)
PAPER_NAIVE = (39.8, 127.1, 321.6, 311.7, 156.5, 43.2)
PAPER_ADJUSTED = (53.7, 149.9, 279.9, 264.5, 195.0, 57.0)
ARENA = ("win", "tie", "lose")


# ----------------------------------------------------------------------------- simulation
def draw_calibration(rng, C, theta, m, reps):
    """m calibration items per replication, true classes ~ Mult(m, θ), judged through C."""
    k = len(theta)
    mb = rng.multinomial(m, theta, size=reps)
    return np.stack([rng.multinomial(mb[:, b], C[:, b]) for b in range(k)], axis=-1)


def draw_test_fixed(rng, C, truth, reps):
    """Test set with a fixed true composition (the paper's design): Σ_b Mult(truth_b, C[:, b])."""
    return sum(rng.multinomial(truth[b], C[:, b], size=reps) for b in range(len(truth)))


def draw_test_iid(rng, C, theta, n, reps):
    return rng.multinomial(n, C @ theta, size=reps)


def usable(test, cal):
    """Data sets correct_distribution accepts: every class calibrated and κ(Ĉ) <= 100."""
    return ~np.isnan(distribution_estimate(test, cal)).any(axis=-1)


def coverage(bounds, theta, accepted):
    """Per-category coverage and mean width over accepted data sets with defined bounds."""
    ok = accepted & ~np.isnan(bounds.low).any(axis=-1)
    hit = (bounds.low[ok] <= theta) & (theta <= bounds.high[ok])
    return hit.mean(axis=0), (bounds.high - bounds.low)[ok].mean(axis=0), int((~ok).sum())


def section_review(rng, reps, boot_reps, n_resamples):
    """A: the paper's k = 6 review-score study."""
    theta = TRUTH / TRUTH.sum()
    test = draw_test_fixed(rng, C_REVIEW, TRUTH, reps)
    cal = draw_calibration(rng, C_REVIEW, theta, 200, reps)
    raw = distribution_estimate(test, cal)
    defined = ~np.isnan(raw).any(axis=-1)
    outside = defined & (raw < -1e-12).any(axis=-1)
    reported = raw.copy()
    for i in np.flatnonzero(outside):
        reported[i] = _simplex_ml(test[i] / test[i].sum(), cal[i] / cal[i].sum(axis=0))
    naive = test / TRUTH.sum()

    def ms(x):
        x = x[defined] * 1000
        return [f"{a:.1f} ({s:.1f})" for a, s in zip(x.mean(0), x.std(0, ddof=1), strict=True)]

    means = markdown_table(
        ["", *SCORES],
        [
            ["Ground truth", *TRUTH.tolist()],
            ["Naive (judged) distribution", *ms(naive)],
            ["Corrected Ĉ⁻¹p̂ (unconstrained)", *ms(raw)],
            ["Corrected, reported (ML fit if outside the simplex)", *ms(reported)],
            [
                "E[naive] = C·truth for the matrix used here",
                *[f"{v:.1f}" for v in C_REVIEW @ TRUTH],
            ],
            ["Paper: naive (10 reps)", *PAPER_NAIVE],
            ["Paper: misclassification-adjusted (10 reps)", *PAPER_ADJUSTED],
        ],
    )
    rows = []
    cover_delta = None
    for label, kw, t in (
        ("adjusted-delta (default)", {}, test),
        ("wald (plain delta)", {"method": "wald"}, test),
    ):
        cov, width, undef = coverage(distribution_bounds(t, cal, **kw), theta, defined)
        if cover_delta is None:
            cover_delta = cov
        rows.append(
            [label, reps - undef, *[f"{c:.3f} / {w:.3f}" for c, w in zip(cov, width, strict=True)]]
        )
    bt = distribution_bounds(
        test[:boot_reps], cal[:boot_reps], method="bootstrap", rng=rng, n_resamples=n_resamples
    )
    cov, width, undef = coverage(bt, theta, defined[:boot_reps])
    rows.append(
        [
            f"bootstrap (B = {n_resamples})",
            boot_reps - undef,
            *[f"{c:.3f} / {w:.3f}" for c, w in zip(cov, width, strict=True)],
        ]
    )
    iid_test = draw_test_iid(rng, C_REVIEW, theta, 1000, reps)
    iid_cal = draw_calibration(rng, C_REVIEW, theta, 200, reps)
    cov, width, undef = coverage(
        distribution_bounds(iid_test, iid_cal), theta, usable(iid_test, iid_cal)
    )
    rows.append(
        [
            "delta (adjusted), i.i.d. test set",
            reps - undef,
            *[f"{c:.3f} / {w:.3f}" for c, w in zip(cov, width, strict=True)],
        ]
    )
    cover = markdown_table(["95% interval", "replications", *SCORES], rows)
    mc_se = np.sqrt(0.95 * 0.05 / reps)
    stats = {
        "outside": outside.mean(),
        "undefined": int((~defined).sum()),
        "mc_se": mc_se,
        "cover_delta": cover_delta,
        "naive_mean": naive.mean(0) * 1000,
        "est_mean": reported[defined].mean(0) * 1000,
        "est_sd": reported[defined].std(0, ddof=1) * 1000,
    }
    return means, cover, stats


def judge_matrix(acc, k=3):
    C = np.full((k, k), (1 - acc) / (k - 1))
    np.fill_diagonal(C, acc)
    return C


def section_grid(rng, reps, boot_reps, n_resamples):
    """B: three classes, delta adjusted vs plain vs bootstrap."""
    rows = []
    worst = {"adj": 1.0, "plain": 1.0, "boot": 1.0}
    for acc in (0.6, 0.8, 0.95):
        C = judge_matrix(acc)
        for mix in ((0.6, 0.3, 0.1), (0.05, 0.15, 0.8)):
            theta = np.array(mix)
            for m in (30, 100, 300):
                test = draw_test_iid(rng, C, theta, 1000, reps)
                cal = draw_calibration(rng, C, theta, m, reps)
                cells = [f"{acc:.2f}", str(mix), m]
                accepted = usable(test, cal)
                for key, kw in (("adj", {}), ("plain", {"method": "wald"})):
                    bounds = distribution_bounds(test, cal, **kw)
                    cov, width, _ = coverage(bounds, theta, accepted)
                    worst[key] = min(worst[key], cov.min())
                    cells += [f"{cov.min():.3f}", f"{width.mean():.3f}"]
                b = distribution_bounds(
                    test[:boot_reps],
                    cal[:boot_reps],
                    method="bootstrap",
                    rng=rng,
                    n_resamples=n_resamples,
                )
                cov, width, _ = coverage(b, theta, accepted[:boot_reps])
                worst["boot"] = min(worst["boot"], cov.min())
                cells += [f"{cov.min():.3f}", f"{width.mean():.3f}", f"{1 - accepted.mean():.3f}"]
                rows.append(cells)
    header = [
        "judge accuracy",
        "θ",
        "m",
        "delta adj: min cov",
        "width",
        "delta plain: min cov",
        "width",
        "bootstrap: min cov",
        "width",
        "refused",
    ]
    return markdown_table(header, rows), worst


def euclidean_projection(v):
    """Closest point of the simplex in Euclidean norm (sort-based, rows of v)."""
    k = v.shape[-1]
    u = -np.sort(-v, axis=-1)
    css = np.cumsum(u, axis=-1) - 1.0
    ind = np.arange(1, k + 1)
    rho = k - 1 - np.argmax(((u - css / ind) > 0)[..., ::-1], axis=-1)
    tau = np.take_along_axis(css, rho[..., None], -1) / (rho[..., None] + 1)
    return np.maximum(v - tau, 0.0)


def section_projection(rng, reps):
    """C: RMSE (Euclidean norm over categories) on the data sets outside the simplex."""
    rows = []
    settings = [
        ("symmetric, accuracy .6", judge_matrix(0.6), (0.05, 0.15, 0.8), 100),
        ("symmetric, accuracy .8", judge_matrix(0.8), (0.02, 0.5, 0.48), 100),
        ("symmetric, accuracy .8", judge_matrix(0.8), (0.05, 0.15, 0.8), 30),
        ("review scores (A), m = 200", C_REVIEW, tuple(TRUTH / TRUTH.sum()), 200),
    ]
    for name, C, mix, m in settings:
        theta = np.array(mix)
        test = draw_test_iid(rng, C, theta, 1000, reps)
        cal = draw_calibration(rng, C, theta, m, reps)
        raw = distribution_estimate(test, cal)
        out = ~np.isnan(raw).any(-1) & (raw < -1e-12).any(-1)
        idx = np.flatnonzero(out)
        ml = np.array([_simplex_ml(test[i] / test[i].sum(), cal[i] / cal[i].sum(0)) for i in idx])
        eu = euclidean_projection(raw[idx])

        def rmse(x, theta=theta):
            return np.sqrt(((x - theta) ** 2).sum(-1).mean()) if len(x) else float("nan")

        rows.append(
            [
                name,
                "(" + ", ".join(f"{x:g}" for x in mix) + ")",
                m,
                f"{out.mean():.3f}",
                f"{rmse(raw[idx]):.4f}",
                f"{rmse(eu):.4f}",
                f"{rmse(ml):.4f}",
            ]
        )
    return markdown_table(
        [
            "judge",
            "θ",
            "m",
            "share outside simplex",
            "RMSE unconstrained",
            "RMSE Euclidean",
            "RMSE ML fit",
        ],
        rows,
    )


# ----------------------------------------------------------------------------- real data
def arena_frame(judge):
    df = load_chatbot_arena(judge=judge)
    df = df[df.target_model.isin(ARENA_TARGETS)].copy()
    df["human3"] = df.human_label.replace({"tie_bothbad": "tie"})
    return df


def codes(values):
    lookup = {v: i for i, v in enumerate(ARENA)}
    return np.array([lookup[v] for v in values])


def one_split(df, rng):
    """One seeded 10% calibration split per target: human vs naive vs corrected."""
    rows = []
    for target in ARENA_TARGETS:
        d = df[df.target_model == target]
        perm = rng.permutation(len(d))
        m = round(0.1 * len(d))
        cal, tst = d.iloc[perm[:m]], d.iloc[perm[m:]]
        human = CategoryCounts.from_labels(tst.human3, labels=ARENA).p_hat
        test = CategoryCounts.from_labels(tst.judge_label, labels=ARENA)
        cm = ConfusionMatrix.from_labels(human=cal.human3, judge=cal.judge_label, labels=ARENA)
        try:
            with warnings.catch_warnings(record=True) as rec:
                warnings.simplefilter("always", ProjectedEstimateWarning)
                res = correct_distribution(test, cm, confidence_level=0.95, rng=rng)
            note = (
                "projected"
                if any(issubclass(w.category, ProjectedEstimateWarning) for w in rec)
                else ""
            )
        except IllConditionedError:
            res, note = None, f"refused: κ(Ĉ) = {cm.condition_number:.3g} > {MAX_CONDITION:g}"
        for i, lab in enumerate(ARENA):
            if res is None:
                corr, ci, cov = "—", "—", "—"
            else:
                lo, hi = res.ci[lab]
                corr = f"{res.estimate[lab]:.3f}"
                ci = f"[{lo:.3f}, {hi:.3f}]"
                cov = "yes" if lo <= human[i] <= hi else "**no**"
            rows.append(
                [
                    target if i == 0 else "",
                    f"{len(tst)} / {m}" if i == 0 else "",
                    lab,
                    f"{human[i]:.3f}",
                    f"{test.p_hat[i]:.3f}",
                    corr,
                    ci,
                    cov,
                    (f"{cm.condition_number:.1f}" if i == 0 else ""),
                    note if i == 0 else "",
                ]
            )
    return markdown_table(
        [
            "target",
            "n test / m cal",
            "category",
            "human (test part)",
            "naive (judge)",
            "corrected",
            "95% CI (delta)",
            "covers human",
            "κ(Ĉ)",
            "note",
        ],
        rows,
    )


def repeated_splits(df, rng, splits, frac=0.1):
    """Coverage of the 95% delta interval over random calibration splits (vectorised)."""
    rows = []
    pooled = {"hit": [], "width": [], "naive": [], "corrected": [], "naive_hit": [], "refused": []}
    lowest = 1.0
    z = 1.959963984540054
    for target in ARENA_TARGETS:
        d = df[df.target_model == target]
        h, j = codes(d.human3.to_numpy()), codes(d.judge_label.to_numpy())
        N, m = len(d), round(frac * len(d))
        test = np.empty((splits, 3), dtype=np.int64)
        cal = np.empty((splits, 3, 3), dtype=np.int64)
        truth = np.empty((splits, 3))
        for r in range(splits):
            perm = rng.permutation(N)
            c_idx, t_idx = perm[:m], perm[m:]
            cal[r] = np.bincount(j[c_idx] * 3 + h[c_idx], minlength=9).reshape(3, 3)
            test[r] = np.bincount(j[t_idx], minlength=3)
            truth[r] = np.bincount(h[t_idx], minlength=3) / len(t_idx)
        raw = distribution_estimate(test, cal)  # NaN where κ(Ĉ) > 100: correct_distribution refuses
        b = distribution_bounds(test, cal, method="adjusted-delta")
        ok = ~np.isnan(raw).any(-1) & ~np.isnan(b.low).any(-1)
        pooled["refused"].append(1 - ok.mean())
        if not ok.any():
            rows.append([target, "1.000", *["—"] * 8])
            continue
        naive = test / test.sum(-1, keepdims=True)
        outside = ok & (raw < -1e-12).any(-1)
        reported = raw.copy()
        for i in np.flatnonzero(outside):
            reported[i] = _simplex_ml(naive[i], cal[i] / cal[i].sum(0))
        hit = (b.low[ok] <= truth[ok]) & (truth[ok] <= b.high[ok])
        lowest = min(lowest, float(hit.mean(0).min()))
        width = (b.high - b.low)[ok]
        err_n = np.abs(naive[ok] - truth[ok])
        err_c = np.abs(reported[ok] - truth[ok])
        # the uncorrected report: a multinomial Wald interval around the judged share
        nv, nn = naive[ok], test[ok].sum(-1, keepdims=True)
        half = z * np.sqrt(nv * (1 - nv) / nn)
        naive_hit = (nv - half <= truth[ok]) & (truth[ok] <= nv + half)
        for key, val in (
            ("hit", hit),
            ("width", width),
            ("naive", err_n),
            ("corrected", err_c),
            ("naive_hit", naive_hit),
        ):
            pooled[key].append(val.ravel())
        rows.append(
            [
                target,
                f"{1 - ok.mean():.3f}",
                *[f"{c:.3f}" for c in hit.mean(0)],
                f"{width.mean():.3f}",
                f"{err_n.mean():.3f}",
                f"{err_c.mean():.3f}",
                f"{outside[ok].mean():.3f}",
                f"{naive_hit.mean():.3f}",
            ]
        )
    header = [
        "target",
        "refused (κ > 100)",
        "cover win",
        "cover tie",
        "cover lose",
        "mean width",
        "mean abs error naive",
        "mean abs error corrected",
        "outside simplex",
        "naive Wald CI coverage",
    ]
    summary = {
        k: (float(np.mean(np.concatenate(v))) if v and k != "refused" else float(np.mean(v)))
        if v
        else float("nan")
        for k, v in pooled.items()
    }
    summary["lowest"] = lowest
    return markdown_table(header, rows), summary


def fraction_table(df, rng, splits):
    """Pooled over targets and categories, for several calibration shares."""
    rows, pooled = [], {}
    for frac in (0.1, 0.25, 0.5):
        _, s = repeated_splits(df, rng, splits, frac)
        pooled[frac] = s
        rows.append(
            [
                f"{frac:.0%}",
                f"{s['refused']:.3f}",
                f"{s['hit']:.3f}",
                f"{s['width']:.3f}",
                f"{s['naive']:.3f}",
                f"{s['corrected']:.3f}",
            ]
        )
    header = [
        "calibration share",
        "refused",
        "coverage (pooled)",
        "mean width",
        "mean abs error naive",
        "mean abs error corrected",
    ]
    return markdown_table(header, rows), pooled


# ----------------------------------------------------------------------------- speed
def section_speed(rng):
    theta = TRUTH / TRUTH.sum()
    size = 100_000
    test = draw_test_iid(rng, C_REVIEW, theta, 1000, size)
    cal = draw_calibration(rng, C_REVIEW, theta, 200, size)
    distribution_bounds(test[:10], cal[:10])  # warm
    t0 = time.perf_counter()
    distribution_bounds(test, cal)
    t_delta = time.perf_counter() - t0
    t0 = time.perf_counter()
    distribution_bounds(test[:1], cal[:1], method="bootstrap", rng=rng, n_resamples=9999)
    t_boot = time.perf_counter() - t0
    one_t = CategoryCounts(test[0], labels=SCORES)
    one_c = ConfusionMatrix(cal[0], labels=SCORES)
    t0 = time.perf_counter()
    for _ in range(100):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ProjectedEstimateWarning)
            correct_distribution(one_t, one_c)
    t_one = (time.perf_counter() - t0) / 100
    return markdown_table(
        ["operation (k = 6)", "time"],
        [
            [f"vectorised delta intervals, {size:,} data sets", f"{t_delta:.2f} s"],
            ["bootstrap, one data set, B = 9999", f"{t_boot:.2f} s"],
            ["correct_distribution, one data set (delta)", f"{1000 * t_one:.2f} ms"],
        ],
    )


def figure(stats, filename):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover
        return None
    x = np.arange(len(SCORES))
    fig, ax = plt.subplots(figsize=(8, 3.6))
    ax.bar(x - 0.27, TRUTH, 0.27, label="ground truth", color="0.75")
    ax.bar(x, stats["naive_mean"], 0.27, label="naive (judge)", color="tab:red")
    ax.bar(
        x + 0.27,
        stats["est_mean"],
        0.27,
        yerr=stats["est_sd"],
        capsize=2,
        label="corrected, reported (mean ± sd)",
        color="tab:blue",
    )
    ax.set_xticks(x, SCORES, fontsize=8)
    ax.set_ylabel("papers (of n = 1000)")
    ax.set_title("Review-score study: central-tendency judge, m = 200 calibration items")
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return save_figure(fig, filename, dpi=120)


def budgets(quick: bool) -> dict:
    """Replications per section (quick: < 30 s)."""
    b = {}
    b["reps_a"], b["boot_a"], b["nres_a"] = (300, 100, 299) if quick else (2000, 1000, 999)
    b["reps_b"], b["boot_b"], b["nres_b"] = (500, 60, 199) if quick else (4000, 400, 999)
    b["reps_c"] = 300 if quick else 2000
    b["splits"] = 40 if quick else 500
    return b


def run_sections(b: dict) -> dict:
    """Every section's tables and figures of merit, each section on its own seeded stream."""
    streams = np.random.SeedSequence(SEED).spawn(6)
    ga, gb, gc, gd, ge, gf = (np.random.default_rng(s) for s in streams)
    r = {}
    r["means"], r["cover_a"], r["stats"] = section_review(ga, b["reps_a"], b["boot_a"], b["nres_a"])
    print(r["means"], "\n")
    print(r["cover_a"], "\n")
    r["grid"], r["worst"] = section_grid(gb, b["reps_b"], b["boot_b"], b["nres_b"])
    print(r["grid"], "\n")
    r["proj"] = section_projection(gc, b["reps_c"])
    print(r["proj"], "\n")
    gpt4 = arena_frame("gpt-4")
    gpt35 = arena_frame("gpt-3.5")
    r["split4"] = one_split(gpt4, gd)
    print(r["split4"], "\n")
    r["rep4"], r["summary4"] = repeated_splits(gpt4, ge, b["splits"])
    r["rep35"], _ = repeated_splits(gpt35, ge, b["splits"])
    r["fractions"], r["by_frac"] = fraction_table(gpt4, ge, max(20, b["splits"] // 2))
    print(r["rep4"], "\n")
    print(r["rep35"], "\n")
    r["speed"] = section_speed(gf)
    print(r["speed"])
    return r


def intro_text(quick: bool, elapsed: float) -> str:
    mode = "quick" if quick else "full"
    cmd = "python benchmarks/bench_multiclass.py" + (" --quick" if quick else "")
    return f"""Mode: {mode} (`{cmd}`), seed {SEED}, {elapsed:.0f} s.
Estimator: θ̂ = Ĉ⁻¹p̂ (paper appendix, eq. (23)); intervals
per category at 95%. `adjusted-delta` = delta-method covariance with the Agresti-style adjustment
(p̃ = (counts + z²/k)/(n + z²), each column c̃_b = (counts_b + 2/k)/(m_b + 2): for k = 2 exactly the
paper's p̃, q̃0, q̃1); `wald` = the same formula at the raw estimates; `bootstrap` =
parametric percentile bootstrap of the test and calibration multinomials.

"""


def review_text(r: dict, b: dict) -> str:
    stats = r["stats"]
    c_md = markdown_table(
        ["judged ↓ / true →", *SCORES],
        [[s, *[f"{v:.2f}" for v in row]] for s, row in zip(SCORES, C_REVIEW, strict=True)],
    )
    return f"""## A. The paper's review-score study (k = 6)

The paper does not publish its confusion matrix. The one used here has central-tendency bias
(columns = true score, each sums to 1; condition number {np.linalg.cond(C_REVIEW):.2f}):

{c_md}

Test set: the paper's fixed truth (50, 150, 300, 250, 200, 50 of n = 1000), each item judged through
C. Calibration: m = 200 items with true scores drawn from the same mix (so a Strong Reject column
holds about 10 items), judged through C. Mean (sd) over {b["reps_a"]} replications, in papers:

{r["means"]}

Same qualitative result as the paper's table: the judge over-counts the middle (Weak Reject,
Weak Accept) and under-counts the tails; the correction removes the bias in every category, at
the price of a larger spread. {100 * stats["outside"]:.1f}% of the replications had Ĉ⁻¹p̂
outside the simplex (reported estimate = constrained ML fit); {stats["undefined"]} were refused
(a score without calibration items, or κ(Ĉ) > 100) and are excluded. The paper's parentheses
are standard errors of the mean over 10 repetitions (sd/√10); ours are standard deviations over
replications.

Coverage / mean width of the 95% intervals over the data sets `correct_distribution` accepts
(Monte Carlo s.e. of a coverage near .95 with {b["reps_a"]} replications: {stats["mc_se"]:.4f}):

{r["cover_a"]}

"""


def grid_text(r: dict, b: dict) -> str:
    worst = r["worst"]
    reps_b, boot_b, nres_b, reps_c = b["reps_b"], b["boot_b"], b["nres_b"], b["reps_c"]
    return f"""## B. Why `delta` is adjusted: three-class grid

Symmetric judge (accuracy on the diagonal, errors spread evenly), n = 1000 i.i.d. test items,
m calibration items i.i.d. from θ. "min cov" = the lowest per-category coverage; width averaged
over categories; {reps_b} replications per row for delta, {boot_b} (B = {nres_b}) for the bootstrap;
"refused" = share of data sets `correct_distribution` refuses (a class without calibration
items, or κ(Ĉ) > 100); coverage and width are over the accepted ones.

{r["grid"]}

Lowest per-category coverage over the grid: delta adjusted {worst["adj"]:.3f}, delta
plain {worst["plain"]:.3f}, bootstrap {worst["boot"]:.3f}. The plain delta interval fails when
the judge is accurate and calibration classes are small: a column of Ĉ with all its items on
the diagonal has zero estimated variance. The bootstrap inherits the same degeneracy (it
resamples from Ĉ). The adjustment costs width mainly for m = 30 (about 10 items per class),
where it is conservative; at m = 300 it is 2–10% wider than the plain interval.

## C. Estimates outside the simplex: which projection

Data sets whose Ĉ⁻¹p̂ has a negative entry; error = Euclidean norm of (estimate − θ) over
categories, root-mean-square over those data sets ({reps_c} replications per row before selection).

{r["proj"]}

The constrained maximum-likelihood fit (θ on the simplex maximising Σ_a n_a log (Ĉθ)_a) is
reported: lower error than the Euclidean projection in every setting, equal to Ĉ⁻¹p̂ whenever
that is inside, and clipping for k = 2.

"""


def arena_text(r: dict, b: dict) -> str:
    overall4, summary4, by_frac = r["summary4"]["hit"], r["summary4"], r["by_frac"]
    return f"""## D. Real data: Chatbot Arena, win / tie / lose

Bundled Chatbot Arena labels (`load_chatbot_arena`), three-way labels from the target's side
with the two human tie kinds merged (human `tie` + `tie_bothbad` → tie). Per target model a
random 10% of its comparisons is the calibration set (human and judge labels); the other 90%
is the test set (judge labels only), whose human distribution is the truth to recover.

### One seeded split, GPT-4 judge (gpt-4-0125-preview)

{r["split4"]}

### Repeated random splits ({b["splits"]} per target): coverage of the 95% delta interval

GPT-4 judge (pooled coverage over targets and categories: {overall4:.3f}):

{r["rep4"]}

GPT-3.5 judge (gpt-3.5-turbo-0125; it almost never answers "tie", so the tie row of Ĉ is nearly
zero and Ĉ is close to singular):

{r["rep35"]}

How much calibration the three-way correction needs (GPT-4 judge, pooled over the six
targets and three categories, {max(20, b["splits"] // 2)} splits per target and share):

{r["fractions"]}

Reading: the intervals are honest on real data (coverage of the human distribution
{overall4:.3f} pooled; lowest per target and category {summary4["lowest"]:.3f}) but wide: the GPT-4
judge's three-way confusion matrix is poorly conditioned (κ = 9–31 even on all the data:
it confuses ties with both wins and losses), so Ĉ⁻¹ amplifies the noise of a 10% calibration
set. Its errors also nearly cancel in the marginal win/tie/lose distribution, so the naive
distribution is close to the human one here; with 10% calibration the corrected estimate's
mean absolute error ({by_frac[0.1]["corrected"]:.3f}) is larger than the naive one
({by_frac[0.1]["naive"]:.3f}), and it only narrows towards it as the calibration share grows
({by_frac[0.5]["corrected"]:.3f} at 50%). The correction buys validity (an interval that covers),
not precision, for this judge. The GPT-3.5 judge is refused in most splits: `IllConditionedError`
rather than a meaningless number. For contrast, the uncorrected report (judged share ± its
multinomial Wald half-width) covers the human share in only {summary4["naive_hit"]:.3f} of the
GPT-4 cases (last column): precise, but about the judge, not the humans.

"refused" = share of splits where κ(Ĉ) > 100 and `correct_distribution` raises
`IllConditionedError`; coverage and errors are over the other splits. Mean absolute error is
per category against the test part's human distribution; the corrected error is that of
the reported estimate (on the simplex); "outside simplex" = share of splits where Ĉ⁻¹p̂ was
projected.

"""


def main() -> None:
    q = quick_parser(__doc__, "fewer replications (< 30 s)").parse_args().quick
    b = budgets(q)
    t_start = time.perf_counter()
    r = run_sections(b)
    elapsed = time.perf_counter() - t_start
    png = figure(r["stats"], "multiclass.png")
    body = (
        intro_text(q, elapsed)
        + review_text(r, b)
        + grid_text(r, b)
        + arena_text(r, b)
        + f"## E. Speed\n\n{r['speed']}\n"
    )
    if png:
        body += "\n![review-score study](multiclass.png)\n"
    publish("multiclass", "k-category correction (bench_multiclass.py)", body, elapsed)


if __name__ == "__main__":
    main()
