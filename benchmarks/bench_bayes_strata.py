"""Bayesian stratified correction (issue #6): does partial pooling help a sparse stratum?

Claim under test: "on data where one stratum has few calibration items, partial pooling
narrows its interval without biasing the pooled θ".

Sections (all seeded):
  A. Simulation with known truth: 3 strata, n_s = 400 each, θ_s = (0.3, 0.5, 0.7),
     calibration m_s items per class = (60, 60, 5) (the third stratum sparse). Scenario A1:
     the judge's rates differ modestly by stratum; A2: the sparse stratum's judge really
     differs (what pooling costs there). The same data sets go to
     `judgestats.bayes.fit_stratified` with pooling "partial", "none" and "complete"
     (draws = tune = 500, 2 chains, 1 core) and to the frequentist
     `correct_stratified(method="adjusted-wald", min_per_class=5)`.
  B. Real data: NQ-301 (GPT-4 judge) by long_form and Chatbot Arena (GPT-4 judge) by
     target_position, one seeded 10% calibration split per target; frequentist vs the three
     poolings against the human rate.
Writes benchmarks/results/bayes_strata.md and bayes_strata.png.
--quick (what the test suite runs, < 40 s): one data set per scenario, one chain with
draws = tune = 300, one real case with partial pooling only.
Run: python benchmarks/bench_bayes_strata.py [--quick]   (quick: < 40 s; full: ~25 min)
"""

from __future__ import annotations

import sys
import time
import warnings
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from _common import markdown_table, publish, quick_parser, save_figure

import judgestats as js
from judgestats.bayes import fit_stratified
from judgestats.datasets import ARENA_TARGETS, load_chatbot_arena, load_nq301
from judgestats.strata import DEFAULT_MIN_PER_CLASS, correct_stratified, stratified_counts

SEED = 20260607
STRATA = ("s1", "s2", "s3")
N_S = (400, 400, 400)
THETA = np.array([0.3, 0.5, 0.7])
M_S = np.array([60, 60, 5])  # calibration items per class and stratum
TRUTH = float(THETA.mean())  # population weights 1/3 each
SCENARIOS = {
    "A1": {
        "label": "judge alike across strata",
        "q0": np.array([0.80, 0.75, 0.85]),
        "q1": np.array([0.90, 0.85, 0.88]),
    },
    "A2": {
        "label": "sparse stratum's judge differs",
        "q0": np.array([0.80, 0.75, 0.65]),
        "q1": np.array([0.90, 0.85, 0.75]),
    },
}
POOLINGS = ("partial", "none", "complete")
FREQ = "frequentist adj.-Wald"
FREQ_MIN = 5
NQ_TARGETS = ("InstructGPT_fewshot", "InstructGPT_zeroshot")
ARENA_PICK = ("vicuna-13b", "claude-v1")


def log(msg):
    print(msg, flush=True)
    sys.stdout.flush()


# ============================================================================ fits
def _estimates(res, focus):
    """Pooled θ and the focus stratum's θ_s, with their 95% intervals."""
    return {
        "est": res.estimate,
        "lo": res.ci.low,
        "hi": res.ci.high,
        "est3": res[focus].estimate,
        "lo3": res[focus].ci.low,
        "hi3": res[focus].ci.high,
    }


def fit_bayes(tests, cals, pooling, seed, mcmc, focus="s3"):
    """One fit_stratified call (mcmc = (draws = tune, chains)); SamplingWarnings are recorded
    locally, never filtered."""
    draws, chains = mcmc
    t = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # local to this block: count every warning
        res = fit_stratified(
            tests, cals, pooling=pooling, weights="test", draws=draws, tune=draws, chains=chains,
            cores=1, random_seed=seed,
        )  # fmt: skip
    s = res.sampling
    return {
        **_estimates(res, focus),
        "warned": any(issubclass(w.category, js.SamplingWarning) for w in caught),
        "ok": s.ok,
        "div": s.divergences,
        "rhat": s.max_rhat,
        "ess": min(s.min_ess_bulk, s.min_ess_tail),
        "secs": time.perf_counter() - t,
    }


def fit_freq(tests, cals, min_per_class, focus="s3"):
    """Frequentist stratified adjusted-Wald; None when a stratum is not informative."""
    try:
        with warnings.catch_warnings(record=True):  # ClippedEstimateWarning: counted below
            warnings.simplefilter("always")
            res = correct_stratified(
                tests, cals, method="adjusted-wald", min_per_class=min_per_class
            )
    except js.errors.NotInformativeError:
        return None
    return {**_estimates(res, focus), "clipped": res[focus].clipped}


# ============================================================================ A. simulation
def draw_counts(rng, q0, q1):
    """One data set: test positives per stratum and m_s calibration items per class."""
    p = THETA * q1 + (1 - THETA) * (1 - q0)
    pos = rng.binomial(N_S, p)
    tn, tp = rng.binomial(M_S, q0), rng.binomial(M_S, q1)
    tests = {s: js.JudgedCounts(positive=int(pos[i]), n=N_S[i]) for i, s in enumerate(STRATA)}
    cals = {
        s: js.ConfusionCounts(
            tp=int(tp[i]), fn=int(M_S[i] - tp[i]), tn=int(tn[i]), fp=int(M_S[i] - tn[i])
        )
        for i, s in enumerate(STRATA)
    }
    return tests, cals


def run_scenario(name, sc, reps, poolings, rng, mcmc):
    rec = {k: [] for k in (*poolings, FREQ)}
    for r in range(reps):
        tests, cals = draw_counts(rng, sc["q0"], sc["q1"])
        seed = SEED + 1000 * (name == "A2") + r
        for pooling in poolings:
            rec[pooling].append(fit_bayes(tests, cals, pooling, seed, mcmc))
        rec[FREQ].append(fit_freq(tests, cals, FREQ_MIN))
        last = {p: rec[p][-1] for p in poolings}
        log(
            f"{name} rep {r + 1}/{reps}: "
            + ", ".join(f"{p} {v['est']:.3f} ({v['secs']:.0f} s)" for p, v in last.items())
        )
    return rec


def summarise(fits, truth, truth3):
    """Metrics over the fits (None = undefined, excluded and counted)."""
    good = [f for f in fits if f is not None]
    out = {"runs": len(good), "undefined": len(fits) - len(good)}
    if not good:
        return out
    a = {k: np.array([f[k] for f in good], dtype=float) for k in good[0]}
    r = len(good)
    for suffix, t in (("", truth), ("3", truth3)):
        err = a["est" + suffix] - t
        cov = (a["lo" + suffix] <= t) & (t <= a["hi" + suffix])
        length = a["hi" + suffix] - a["lo" + suffix]
        out["bias" + suffix] = err.mean()
        out["bias_se" + suffix] = err.std(ddof=1) / np.sqrt(r) if r > 1 else np.nan
        out["rmse" + suffix] = np.sqrt(np.mean(err**2))
        out["cov" + suffix] = cov.mean()
        out["cov_se" + suffix] = np.sqrt(cov.mean() * (1 - cov.mean()) / r)
        out["len" + suffix] = length.mean()
        out["len_se" + suffix] = length.std(ddof=1) / np.sqrt(r) if r > 1 else np.nan
    if "warned" in a:
        out["warned"] = a["warned"].mean()
        out["not_ok"] = 1 - a["ok"].mean()
        out["div"] = (a["div"] > 0).mean()
        out["rhat"] = np.nanmax(a["rhat"]) if np.isfinite(a["rhat"]).any() else np.nan
        out["ess"] = np.median(a["ess"])
        out["secs"] = a["secs"].mean()
    else:
        out["clipped"] = a["clipped"].mean()
    return out


def pm(x, se, digits=3, sign=False):
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    return f"{f.format(x)} ± {se:.{digits}f}"


def _rows(summ, suffix):
    """Table rows of bias / RMSE / coverage / length; suffix "" = pooled θ, "3" = stratum 3."""
    rows = []
    for method, s in summ.items():
        if not s["runs"]:
            rows.append([method, 0, s["undefined"], *["–"] * 4])
            continue
        rows.append(
            [
                method,
                s["runs"],
                s["undefined"],
                pm(s["bias" + suffix], s["bias_se" + suffix], sign=True),
                f"{s['rmse' + suffix]:.3f}",
                pm(s["cov" + suffix], s["cov_se" + suffix], 2),
                pm(s["len" + suffix], s["len_se" + suffix]),
            ]
        )
    return rows


def pooled_rows(summ):
    return _rows(summ, "")


def sparse_rows(summ):
    return _rows(summ, "3")


#: columns of the sampling-diagnostics table: summary key and format
SAMPLING_COLUMNS = (("warned", ".2f"), ("not_ok", ".2f"), ("div", ".2f"), ("rhat", ".3f"),
                    ("ess", ".0f"), ("secs", ".1f"))  # fmt: skip


def sampling_rows(summ):
    return [
        [method, *(format(s[key], spec) for key, spec in SAMPLING_COLUMNS)]
        for method, s in summ.items()
        if "warned" in s
    ]


def paired_ratio(rec, a, b, key):
    """Mean per-replication ratio of interval lengths a/b and its MC s.e."""
    ra = np.array([f["hi" + key] - f["lo" + key] for f in rec[a]])
    rb = np.array([f["hi" + key] - f["lo" + key] for f in rec[b]])
    ratio = ra / rb
    se = ratio.std(ddof=1) / np.sqrt(len(ratio)) if len(ratio) > 1 else np.nan
    return ratio.mean(), se


def paired_diff(rec, a, b):
    """Mean per-replication difference of pooled estimates a − b (where both exist), MC s.e."""
    d = np.array([x["est"] - y["est"] for x, y in zip(rec[a], rec[b], strict=True)
                  if x is not None and y is not None])  # fmt: skip
    se = d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else np.nan
    return d.mean(), se


# ============================================================================ B. real data
def split_with_both_classes(frame, by, rng, frac=0.10, tries=200):
    """First seeded random calibration split in which every stratum's calibration rows hold
    both human classes (else its confusion matrix does not exist); returns (mask, rejected)."""
    strata = frame[by].to_numpy()
    human = frame.human.to_numpy()
    size = round(frac * len(frame))
    for k in range(tries):
        mask = np.zeros(len(frame), dtype=bool)
        mask[rng.choice(len(frame), size=size, replace=False)] = True
        if all(np.unique(human[mask & (strata == s)]).size == 2 for s in np.unique(strata)):
            return mask, k
    raise RuntimeError("no split with both classes in every stratum")


def real_case(label, frame, by, rng, poolings, seed, mcmc):
    frame = frame.reset_index(drop=True)
    mask, rejected = split_with_both_classes(frame, by, rng)
    df = frame.assign(split=np.where(mask, "calibration", "test"))
    tests, cals = stratified_counts(df, by=by, split="split")
    row = {
        "label": label,
        "human_all": frame.human.mean(),
        "human_test": frame.human[~mask].mean(),
        "rejected": rejected,
        "strata": {s: (tests[s].n, cals[s].m0, cals[s].m1) for s in tests},
    }
    sparse = min(tests, key=lambda s: min(cals[s].m0, cals[s].m1))
    row["sparse"] = sparse
    try:
        correct_stratified(tests, cals, method="adjusted-wald")
        row["default_ok"] = "yes"
    except js.errors.SparseStratumError:
        row["default_ok"] = "refused"
    except js.errors.NotInformativeError:
        row["default_ok"] = "undefined"
    row[FREQ] = fit_freq(tests, cals, 1, focus=sparse)
    for pooling in poolings:
        row[pooling] = fit_bayes(tests, cals, pooling, seed, mcmc, focus=sparse)
        log(f"B {label} {pooling}: {row[pooling]['est']:.3f} ({row[pooling]['secs']:.0f} s)")
    return row


def fmt_ci(f):
    if f is None:
        return "undefined"
    return f"{f['est']:.3f} [{f['lo']:.3f}, {f['hi']:.3f}]"


def fmt_ci3(f):
    if f is None:
        return "undefined"
    return f"{f['est3']:.3f} [{f['lo3']:.3f}, {f['hi3']:.3f}]"


# ============================================================================ figure
def figure(summaries, real, poolings, filename):
    methods = [*poolings, FREQ]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.4), layout="constrained")
    x = np.arange(len(methods))
    ax = axes[0]
    s1 = summaries["A1"]
    for off, key, lab in ((-0.2, "len3", "sparse stratum θ3"), (0.2, "len", "pooled θ")):
        vals = [s1[m].get(key, np.nan) for m in methods]
        bars = ax.bar(x + off, vals, 0.4, label=lab)
        for b, m in zip(bars, methods, strict=True):
            c = s1[m].get("cov3" if key == "len3" else "cov", np.nan)
            ax.annotate(f"{c:.2f}", (b.get_x() + b.get_width() / 2, b.get_height()),
                        ha="center", va="bottom", fontsize=7)  # fmt: skip
    ax.set_xticks(x, [m.replace("frequentist ", "freq. ") for m in methods], fontsize=8)
    ax.set_ylabel("mean 95% interval length")
    ax.set_title("A1: interval length (numbers: coverage)")
    ax.legend(fontsize=8)
    ax = axes[1]
    for j, (name, summ) in enumerate(summaries.items()):
        for k, (key, mk) in enumerate((("bias", "o"), ("bias3", "s"))):
            ms = [m for m in methods if m in summ and summ[m]["runs"]]
            xs = np.array([methods.index(m) for m in ms]) + (j * 2 + k - 1.5) * 0.12
            ax.errorbar(
                xs, [summ[m][key] for m in ms], yerr=[2 * summ[m][key[:4] + "_se" +
                                                            key[4:]] for m in ms],
                fmt=mk, ms=4, capsize=2,
                label=f"{name} {'pooled θ' if key == 'bias' else 'θ3'}",
            )  # fmt: skip
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(x, [m.replace("frequentist ", "freq. ") for m in methods], fontsize=8)
    ax.set_ylabel("bias (± 2 MC s.e.)")
    ax.set_title("A: bias of the pooled θ and of θ3")
    ax.legend(fontsize=7)
    ax = axes[2]
    for i, row in enumerate(real):
        ax.plot([row["human_test"]], [i], "k|", ms=14)
        for k, m in enumerate(methods):
            f = row.get(m)
            if f is None:
                continue
            y = i + (k - 1.5) * 0.15
            ax.errorbar(
                [f["est"]],
                [y],
                xerr=[[f["est"] - f["lo"]], [f["hi"] - f["est"]]],
                fmt="o",
                ms=3,
                color=f"C{k}",
                capsize=2,
                label=m.replace("frequentist ", "freq. ") if i == 0 else None,
            )
    ax.set_yticks(range(len(real)), [r["label"] for r in real], fontsize=7)
    ax.set_xlabel("pooled θ (| = human rate of the test rows)")
    ax.set_title("B: real data, 10% calibration split")
    ax.legend(fontsize=7)
    save_figure(fig, filename)


# ============================================================================ main
@dataclass(frozen=True)
class Budget:
    """How much a run computes: replications per scenario, MCMC draws, real-data cases."""

    reps: dict[str, int]
    mcmc: tuple[int, int]  # (draws = tune per chain, chains)
    real_cases: tuple[int, ...] | None  # indices into the real-data cases; None = all
    real_poolings: tuple[str, ...]


FULL = Budget({"A1": 40, "A2": 20}, (500, 2), None, POOLINGS)
#: quick (the test suite's run, < 40 s): one data set per scenario, one short chain, one real case
#: (the run time is mostly compiling each model, so fewer fits is what saves time)
QUICK = Budget({"A1": 1, "A2": 1}, (300, 1), (0,), ("partial",))
HEAD_POOLED = ["method", "runs", "undefined", "bias (± MC s.e.)", "RMSE", "coverage (± MC s.e.)",
               "mean length (± MC s.e.)"]  # fmt: skip
HEAD_SAMP = ["pooling", "SamplingWarning", "not .ok", "any divergence", "max r_hat",
             "median min ESS", "s per fit"]  # fmt: skip
HEAD_REAL = ["target", "human (all rows)", "human (test rows)", "default min_per_class", FREQ,
             *(f"Bayes {p}" for p in POOLINGS)]  # fmt: skip
HEAD_STRATA = ["target", "strata (test n, calibration m0, m1)", "sparsest", "redraws", FREQ,
               *(f"Bayes {p}" for p in POOLINGS)]  # fmt: skip


def simulation_part(budget: Budget, rng) -> tuple[dict, dict]:
    """Section A: the fits of every replication, and their summaries, per scenario."""
    recs, summaries = {}, {}
    for name, sc in SCENARIOS.items():
        poolings = POOLINGS if name == "A1" else ("partial", "none")
        rec = run_scenario(name, sc, budget.reps[name], poolings, rng, budget.mcmc)
        recs[name] = rec
        summaries[name] = {m: summarise(f, TRUTH, THETA[-1]) for m, f in rec.items()}
    return recs, summaries


def real_part(budget: Budget, rng) -> list[dict]:
    """Section B: one seeded calibration split per real target, every method on it."""
    nq = load_nq301()
    arena = load_chatbot_arena("gpt-4")
    cases = [(f"NQ-301 {t}", nq[nq.target_model == t], "long_form") for t in NQ_TARGETS]
    cases += [
        (f"Arena {t}", arena[arena.target_model == t], "target_position")
        for t in ARENA_PICK
        if t in ARENA_TARGETS
    ]
    if budget.real_cases is not None:
        cases = [cases[i] for i in budget.real_cases]
    return [
        real_case(label, d, by, rng, budget.real_poolings, SEED + 5000 + i, budget.mcmc)
        for i, (label, d, by) in enumerate(cases)
    ]


def real_tables(real: list[dict]) -> tuple[str, str]:
    """Section B's tables: pooled θ per target, and the sparsest stratum's θ_s."""
    rows, strata = [], []
    for row in real:
        fits = [fmt_ci(row[p]) if p in row else "–" for p in POOLINGS]
        rows.append([row["label"], f"{row['human_all']:.3f}", f"{row['human_test']:.3f}",
                     row["default_ok"], fmt_ci(row[FREQ]), *fits])  # fmt: skip
        sizes = "; ".join(
            f"{s}: n {n}, m0 {m0}, m1 {m1}" for s, (n, m0, m1) in row["strata"].items()
        )
        fits3 = [fmt_ci3(row[p]) if p in row else "–" for p in POOLINGS]
        strata.append([row["label"], sizes, row["sparse"], row["rejected"], fmt_ci3(row[FREQ]),
                       *fits3])  # fmt: skip
    return markdown_table(HEAD_REAL, rows), markdown_table(HEAD_STRATA, strata)


def conclusion_text(summaries: dict, recs: dict, reps: dict, mcmc: tuple[int, int]) -> str:
    draws, chains = mcmc
    s1, s2 = summaries["A1"], summaries["A2"]
    d_pn, d_pn_se = paired_diff(recs["A1"], "partial", "none")
    d_pf, d_pf_se = paired_diff(recs["A1"], "partial", FREQ)
    r_pn3, r_pn3_se = paired_ratio(recs["A1"], "partial", "none", "3")
    r_pn, r_pn_se = paired_ratio(recs["A1"], "partial", "none", "")
    r2_pn3, r2_pn3_se = paired_ratio(recs["A2"], "partial", "none", "3")
    pa, no, co, fr = (s1[m] for m in (*POOLINGS, FREQ))
    p2, n2 = s2["partial"], s2["none"]
    return f"""
- **Sparse stratum, A1.** Partial pooling's 95% interval for θ3 is {pa["len3"]:.3f} long on
  average against {no["len3"]:.3f} without pooling (per-replication ratio
  {r_pn3:.2f} ± {r_pn3_se:.2f}); its coverage of θ3 is {pa["cov3"]:.2f} ± {pa["cov_se3"]:.2f}
  (no pooling {no["cov3"]:.2f} ± {no["cov_se3"]:.2f}) and its bias for θ3
  {pa["bias3"]:+.3f} ± {pa["bias_se3"]:.3f} (no pooling {no["bias3"]:+.3f} ±
  {no["bias_se3"]:.3f}). The frequentist per-stratum interval is {fr["len3"]:.3f} long
  ({fr["undefined"]} of {reps["A1"]} data sets undefined).
- **Pooled θ, A1.** Bias (± MC s.e.): partial {pa["bias"]:+.4f} ± {pa["bias_se"]:.4f}, none
  {no["bias"]:+.4f} ± {no["bias_se"]:.4f}, complete {co["bias"]:+.4f} ± {co["bias_se"]:.4f},
  frequentist {fr["bias"]:+.4f} ± {fr["bias_se"]:.4f}; coverage {pa["cov"]:.2f} /
  {no["cov"]:.2f} / {co["cov"]:.2f} / {fr["cov"]:.2f} (binomial MC s.e. at most
  0.5/√R = {0.5 / np.sqrt(reps["A1"]):.2f}); mean length {pa["len"]:.3f} / {no["len"]:.3f} /
  {co["len"]:.3f} / {fr["len"]:.3f} (partial/none ratio {r_pn:.2f} ± {r_pn_se:.2f}). Paired
  difference of the pooled estimates on the same data: partial − none {d_pn:+.4f} ±
  {d_pn_se:.4f}, partial − frequentist {d_pf:+.4f} ± {d_pf_se:.4f}.
- **Cost when the sparse stratum's judge differs (A2, {reps["A2"]} replications).** θ3 bias
  under partial pooling {p2["bias3"]:+.3f} ± {p2["bias_se3"]:.3f} (no pooling
  {n2["bias3"]:+.3f} ± {n2["bias_se3"]:.3f}); coverage of θ3 {p2["cov3"]:.2f} ±
  {p2["cov_se3"]:.2f} vs {n2["cov3"]:.2f} ± {n2["cov_se3"]:.2f}; θ3 length ratio
  partial/none {r2_pn3:.2f} ± {r2_pn3_se:.2f}. Pooled θ bias {p2["bias"]:+.4f} ±
  {p2["bias_se"]:.4f} (partial) vs {n2["bias"]:+.4f} ± {n2["bias_se"]:.4f} (none). The
  frequentist interval was undefined on {s2[FREQ]["undefined"]} of {reps["A2"]} data sets.
- **Sampling.** {pa["warned"]:.0%} of the partial-pooling fits in A1 raised a
  SamplingWarning (none: {no["warned"]:.0%}, complete: {co["warned"]:.0%}) at {chains} × {draws}
  draws (median of the smallest ESS per fit: {pa["ess"]:.0f} / {no["ess"]:.0f} /
  {co["ess"]:.0f}; the warning fires at ESS < 400, r_hat > 1.01 or any divergence).
"""


def method_text(mcmc: tuple[int, int]) -> str:
    """What every fit does (the opening paragraph)."""
    draws, chains = mcmc
    return f"""
`judgestats.bayes.fit_stratified` (per-stratum θ_s; judge rates partially pooled on the logit
scale, not pooled, or shared; pooled θ = Σ w_s θ_s with a Dirichlet mix informed by the test
stratum sizes, `weights="test"`) against the frequentist
`judgestats.strata.correct_stratified(method="adjusted-wald")`. Every Bayesian fit:
draws = tune = {draws}, chains = {chains}, cores = 1, flat priors, default hyperpriors,
`target_accept` 0.995 for every pooling (`js.bayes.TARGET_ACCEPT`, the default), 95%
equal-tailed intervals, posterior mean as the estimate. Fit times ("s per fit") depend on
what else runs on the machine: the 2026-11-26 run shared its 2 CPUs with other jobs.

"""


def simulation_text(summaries: dict, recs: dict, reps: dict, t_sim: float) -> str:
    """Section A: set-up, then the A1 and A2 tables."""
    s1, s2 = summaries["A1"], summaries["A2"]
    fr = s1[FREQ]
    r_pn3, r_pn3_se = paired_ratio(recs["A1"], "partial", "none", "3")
    r_pn, r_pn_se = paired_ratio(recs["A1"], "partial", "none", "")
    r2_pn3, r2_pn3_se = paired_ratio(recs["A2"], "partial", "none", "3")
    n_fits = sum(len(f) for rec in recs.values() for m, f in rec.items() if m != FREQ)
    fit_secs = np.mean(
        [x["secs"] for rec in recs.values() for m, f in rec.items() if m != FREQ for x in f]
    )
    return f"""## A. Simulation with known truth

3 strata, test n_s = {N_S} (fixed), θ_s = {tuple(THETA.tolist())}; calibration m0 = m1 =
{tuple(M_S.tolist())} items per class (stratum 3 sparse). Truth: pooled θ = Σ θ_s / 3 =
{TRUTH:.3f} (the population mix is 1/3 each, which the equal test sizes estimate), θ3 =
{THETA[-1]:.1f}. Each replication draws one data set (seeded `numpy` generator) and fits
every method to it; the Bayesian random seed is fixed per replication. The frequentist
interval uses `min_per_class={FREQ_MIN}`; a data set on which it raises
`NotInformativeError` (some stratum with q̂0 + q̂1 <= 1) is counted as "undefined" and
left out of its row only. "± " is one Monte Carlo standard error: binomial for coverage,
s.d./√R for bias and length. R = {reps["A1"]} replications in A1 and {reps["A2"]} in A2 (A2
fits only partial and no pooling), sized so the whole run fits in about 25 minutes on one
core: a fit took {fit_secs:.1f} s on average here ({n_fits} Bayesian fits in
{t_sim:.0f} s); with R = {reps["A1"]} the MC s.e. of a coverage near 0.95 is
{np.sqrt(0.95 * 0.05 / reps["A1"]):.3f}.

### A1: {SCENARIOS["A1"]["label"]}

q0_s = {tuple(SCENARIOS["A1"]["q0"].tolist())}, q1_s = {tuple(SCENARIOS["A1"]["q1"].tolist())}.

Pooled θ (truth {TRUTH:.3f}):

{markdown_table(HEAD_POOLED, pooled_rows(s1))}

Sparse stratum θ3 (truth {THETA[-1]:.1f}; frequentist: the stratum's own adjusted-Wald
interval, estimate clipped to [0, 1] in {fr.get("clipped", 0):.0%} of the data sets):

{markdown_table(HEAD_POOLED, sparse_rows(s1))}

Per-replication ratio of interval lengths, partial / none: θ3 {r_pn3:.3f} ± {r_pn3_se:.3f},
pooled θ {r_pn:.3f} ± {r_pn_se:.3f}.

Sampling diagnostics (share of fits):

{markdown_table(HEAD_SAMP, sampling_rows(s1))}

### A2: {SCENARIOS["A2"]["label"]}

q0_s = {tuple(SCENARIOS["A2"]["q0"].tolist())}, q1_s = {tuple(SCENARIOS["A2"]["q1"].tolist())}:
the sparse stratum's judge is worse than the others', which partial pooling does not know.

Pooled θ (truth {TRUTH:.3f}):

{markdown_table(HEAD_POOLED, pooled_rows(s2))}

Sparse stratum θ3 (truth {THETA[-1]:.1f}):

{markdown_table(HEAD_POOLED, sparse_rows(s2))}

Per-replication ratio of θ3 interval lengths, partial / none: {r2_pn3:.3f} ± {r2_pn3_se:.3f}.

{markdown_table(HEAD_SAMP, sampling_rows(s2))}

"""


def real_text(real: list[dict]) -> str:
    """Section B: set-up and tables."""
    real_table, strata_table = real_tables(real)
    warn_real = sum(row[p]["warned"] for row in real for p in POOLINGS if p in row)
    n_real = sum(1 for row in real for p in POOLINGS if p in row)
    return f"""## B. Real data, one 10% calibration split per target

GPT-4 judges. NQ-301 strata: `long_form` (0 = answer of at most 5 words, 1 = longer); the
two InstructGPT systems are the only ones with more than 5 long answers. Chatbot Arena
(ties count as not-win) strata: `target_position` (a/b). Each target gets one seeded random
10% calibration split (human labels used), the rest is the test set; splits in which some
stratum's calibration rows hold only one human class (no confusion matrix, for any method)
were redrawn, and the number of redraws is listed. Truth: the human rate of the test rows
(also shown: of all rows). "default min_per_class" says whether `correct_stratified` accepts
the split at its default min_per_class = {DEFAULT_MIN_PER_CLASS}; the frequentist column is
run with min_per_class = 1 so that it returns an interval whenever one exists. Estimates
with 95% intervals.

{real_table}

Sparsest stratum (fewest calibration items of a class) and its θ_s:

{strata_table}

{warn_real} of the {n_real} Bayesian fits of part B raised a SamplingWarning.

"""


def main() -> None:
    q = quick_parser(__doc__, "fewer replications and real cases").parse_args().quick
    budget = QUICK if q else FULL
    rng = np.random.default_rng(SEED)
    t0 = time.perf_counter()
    recs, summaries = simulation_part(budget, rng)
    t_sim = time.perf_counter() - t0
    real = real_part(budget, rng)
    elapsed = time.perf_counter() - t0
    figure(summaries, real, POOLINGS, "bayes_strata.png")
    run_cmd = "python benchmarks/bench_bayes_strata.py" + (" --quick" if q else "")
    conclusion = conclusion_text(summaries, recs, budget.reps, budget.mcmc)
    body = (
        method_text(budget.mcmc)
        + simulation_text(summaries, recs, budget.reps, t_sim)
        + real_text(real)
        + f"""## Conclusion

{conclusion.strip()}

![bayes_strata](bayes_strata.png)

Left: mean interval length in A1 with coverage on top; middle: bias with ±2 MC s.e.; right:
part B pooled estimates and intervals.

Run: {run_cmd} ({elapsed:.0f} s)
"""
    )
    title = "Bayesian stratified correction (bench_bayes_strata.py)"
    publish("bayes_strata", title, body, elapsed)


if __name__ == "__main__":
    main()
