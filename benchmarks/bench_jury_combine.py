"""A jury's three combines (issue 39): letters, stack and mean, under each design.

Two to five judges verdict the same items. Each data set is analysed, all at 95%:

* under ``design="random"`` (a simple random sample of the rows labelled): ``combine="stack"``
  (cross-fitted logistic regression on every judge's column, then PPI++), ``combine="mean"``
  (the judges' mean as a score: isotonic calibration, PPI++), ``combine="letters"`` (the 2^J
  product letters, the judge-conditional estimator of a judge alphabet; 0/1 judges, no repeated
  items), each judge alone (``js.correct``, random design, adjusted-Wald; for score judges
  ``correct_scores``), and the human labels alone (Wald, cluster-robust with repeated items);
* under ``design="by-human-label"`` (m0, m1 fixed): ``combine="letters"`` (the minimum-variance
  jury, :mod:`judgestats.jury.weights`), ``combine="mean"`` (the J + 1 letters' J × K
  profile-t, batched by ``multiclass.distribution_bounds``; defined where every letter has a
  calibration item) and the better member alone (adjusted-Wald, eq. (8)). ``"stack"`` is
  refused there by name (the design samples on the human label).

Width ratio: mean width ÷ the mean width of the better member's interval in each data set (the
narrowest member, the judge a user would keep after looking). Coverage: share of data sets whose
interval holds the true θ.

Part A, simulation (seeded). Judge j is right where √ρ·u + √(1 − ρ)·e_j < Φ⁻¹(accuracy_j), u
shared by the judges of a row (correlated errors). Score judges: judge j's score is the logistic
of 1.5·(2y − 1)·d_j + the same correlated noise, d_j = Φ⁻¹(accuracy_j)·√2 (a score that
carries more than its letter). Repeated items: items of 1 to 5 rows (uniform), a row's human
label 1{a + u_g + e_r > 0} (a such that P(human = 1) = θ; u_g ~ N(0, 1) shared by the item),
a random share of the items labelled (all their rows). Random cells (seed 4039; 20, --quick 2):
J U{2, …, 5}; accuracies U(0.6, 0.95); ρ U(0, 0.6); θ U(0.05, 0.95); rows U[300, 3000];
labelled share U(0.05, 0.5); a quarter with score judges, a quarter with repeated items.
Beside them a grid (seed 4040): J ∈ {2, 3, 5} × labelled share ∈ {5%, 20%, 50%}, accuracies
(0.9, 0.8, 0.75, 0.7, 0.65) (the first J), ρ = 0.3, θ = 0.3, 2,000 rows, 0/1 judges. Random
design: 150 data sets a cell (--quick 10); by-human-label (0/1 judges without repeats, m0 = m1 =
max(10, share·rows/2), n = rows − m0 − m1): 1,000 (profile-t on the first 200; --quick 20).

Part B, real data, 100 random splits per target (seed 4041; --quick 3 splits of the first
target), each split analysed under the random and the paper's design: Chatbot Arena (the six
targets of the paper, GPT-4 and GPT-3.5 on the same answers; 30% of about 3,500 items per target
labelled); NQ-301 (12 QA systems of about 300 answers, GPT-4-eval, InstructGPT-eval and BEM; 50%
labelled, so that the stack has its 100 labels); LLMBar (its 419 pairs pooled over the five
subsets, five LLM judges asked with output 1 first, human 1 = output 1 is better; 50%). The
reference θ is the target's human rate over all its items. A split without an item of a human
class is skipped.

Part C, the stack's variance with few labels of one class (``fit_ppi(..., rare_adjust=True)``):
PPI++'s own variance against the larger of it and PPI++'s with two pseudo-labels of each human
class (where a class has fewer than 20 labelled items), on five planted cells of 0/1 judges
(ρ = 0.3; seed 4042; 300 data sets each, --quick 8; data sets with fewer than 100 labels or no
labelled positive skipped). ``--part pseudo`` reruns
Part C alone and writes it into the results file.

Part E, the jury against each of its judges alone under all three designs, on real data
(:mod:`_jury_designs`: each design's calibration items drawn as the design prescribes, the same
number of labels m for the jury and each judge alone; under by-judge-label the jury's within
its product letters, each judge's within its own letters, and the jury also on the first
judge's draw): Chatbot Arena's six targets (GPT-4, GPT-3.5; seed 4043) and NQ-301's twelve
systems (GPT-4, InstructGPT, BEM; seed 4044), 20%, 30% and 60% of the items labelled, 100
splits each (--quick: the first target, 30%, 3 splits). Part F, by-judge-label on simulated
juries (the rows of Part A, 0/1 judges without repeats): 20 random cells (seed 4045; J
U{2, …, 5}, accuracies U(0.6, 0.95), ρ U(0, 0.6), θ U(0.05, 0.95), rows U[300, 3000], labelled
share U(0.05, 0.5)) and the grid J ∈ {2, 3, 5} × labelled ∈ {5%, 20%, 50%} (accuracies (0.9,
0.8, 0.75, 0.7, 0.65), ρ = 0.3, θ = 0.3, 2,000 rows); 200 data sets a cell (seed 4046;
--quick 1 + 1 cells, 10). ``--part designs`` reruns Parts E and F alone into the results file.

Writes benchmarks/results/jury_combine.md and its summary into benchmarks/results/jury.md
(part D). Run: python benchmarks/bench_jury_combine.py [--quick]
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
from _common import RESULTS, markdown_table, publish, quick_parser, run_time
from _jury_common import (
    ARENA_JUDGES,
    ARENA_NAMES,
    DATA,
    NQ_JUDGES,
    NQ_NAMES,
    arena_frame,
    letter_probs,
    nq_frame,
    profile_t,
)
from scipy.stats import norm

import judgestats as js
from judgestats.jury import correct_combined
from judgestats.jury.weights import jury_bounds, letter_bits

LEVEL = 0.95
Z = float(norm.ppf(0.5 + LEVEL / 2))
GRID_ACC = (0.9, 0.8, 0.75, 0.7, 0.65)


# ----------------------------------------------------------------------------- simulation
def cells(count, quick):
    gen = np.random.default_rng(4039)
    out = []
    for i in range(count):
        judges = int(gen.integers(2, 6))
        kind = gen.random()
        out.append({
            "cell": f"R{i}", "J": judges, "acc": gen.uniform(0.6, 0.95, judges),
            "rho": gen.uniform(0, 0.6), "theta": gen.uniform(0.05, 0.95),
            "rows": int(gen.integers(300, 3001)), "share": gen.uniform(0.05, 0.5),
            "scores": kind < 0.25, "clustered": 0.25 <= kind < 0.5,
        })  # fmt: skip
    grid = [(j, s) for j in (2, 3, 5) for s in (0.05, 0.2, 0.5)]
    for j, s in grid[4:5] if quick else grid:
        out.append({"cell": f"G{j}-{s:.0%}", "J": j, "acc": np.array(GRID_ACC[:j]), "rho": 0.3,
                    "theta": 0.3, "rows": 2000, "share": s, "scores": False,
                    "clustered": False})  # fmt: skip
    return out


def draw_rows(gen, c):
    """One random-design data set: judges (rows, J), human (NaN unlabelled), cluster or None."""
    rows, judges = c["rows"], c["J"]
    if c["clustered"]:
        item = np.repeat(np.arange(rows), gen.integers(1, 6, rows))[:rows]
        a = norm.ppf(c["theta"]) * np.sqrt(2.0)
        y = a + gen.standard_normal(item.max() + 1)[item] + gen.standard_normal(rows) > 0
        labelled = (gen.random(item.max() + 1) < c["share"])[item]
    else:
        item = None
        y = gen.random(rows) < c["theta"]
        labelled = gen.random(rows) < c["share"]
    noise = np.sqrt(c["rho"]) * gen.standard_normal((rows, 1)) + np.sqrt(
        1 - c["rho"]) * gen.standard_normal((rows, judges))  # fmt: skip
    if c["scores"]:
        d = norm.ppf(c["acc"]) * np.sqrt(2.0)
        x = 1 / (1 + np.exp(-(1.5 * (2 * y[:, None] - 1) * d + 1.5 * noise)))
    else:
        right = noise < norm.ppf(c["acc"])
        x = np.where(right, y[:, None], ~y[:, None]).astype(float)
    return x, np.where(labelled, y.astype(float), np.nan), item, y


def true_theta(c, gen):
    if not c["clustered"]:
        return c["theta"]
    # the rate over rows: items' sizes do not depend on their label, so θ is P(a + u + e > 0)
    return c["theta"]


def member_alone(x, human, item, scores, gen):
    """Each judge alone under the random design: (low, high) per judge."""
    lab = ~np.isnan(human)
    out = []
    for j in range(x.shape[1]):
        if scores:
            r = js.scores.correct_scores(x[:, j], human, cluster=item, rng=gen, threshold=0.5)
        else:
            cl_t = None if item is None else item[~lab]
            cl_c = None if item is None else item[lab]
            t = js.JudgedCounts.from_labels(x[~lab, j].astype(int), cluster=cl_t)
            k = js.ConfusionCounts.from_labels(human=human[lab].astype(int),
                                               judge=x[lab, j].astype(int), cluster=cl_c)
            r = js.correct(t, k, design="random", method="adjusted-wald", confidence_level=LEVEL)
        out.append((r.ci.low, r.ci.high))
    return np.array(out)


def random_cell(c, reps, gen):
    theta = true_theta(c, gen)
    acc: dict[str, list] = {k: [] for k in ("stack", "mean", "letters", "better", "humans")}
    for _ in range(reps):
        x, human, item, _ = draw_rows(gen, c)
        lab = ~np.isnan(human)
        if lab.sum() < 4 or human[lab].min() == human[lab].max():
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for comb in ("stack", "mean", "letters"):
                if comb == "letters" and (c["scores"] or item is not None):
                    continue
                try:
                    r = correct_combined(x, human, combine=comb, cluster=item, rng=gen,
                                         threshold=None if not c["scores"] else 0.5)  # fmt: skip
                except js.JudgeStatsError:
                    acc[comb].append((np.nan, np.nan))
                    continue
                acc[comb].append((r.ci.low, r.ci.high))
                if comb == "stack" and r.humans_only_variance:
                    h = Z * np.sqrt(r.humans_only_variance)
                    acc["humans"].append((r.estimate - h, r.estimate + h))
            try:
                m = member_alone(x, human, item, c["scores"], gen)
            except js.JudgeStatsError:
                continue
        w = m[:, 1] - m[:, 0]
        acc["better"].append(tuple(m[int(np.nanargmin(w))]))
    return summarise(acc, theta)


def summarise(acc, theta):
    out = {}
    base = np.array(acc["better"])
    base_w = np.nanmean(base[:, 1] - base[:, 0]) if base.size else np.nan
    for k, v in acc.items():
        a = np.array(v, dtype=float).reshape(-1, 2)
        ok = np.isfinite(a).all(axis=1)
        if not ok.any():
            out[k] = (np.nan, np.nan)
            continue
        cov = np.mean((a[ok, 0] <= theta) & (theta <= a[ok, 1]))
        out[k] = (cov, np.mean(a[ok, 1] - a[ok, 0]) / base_w)
    return out


def mean_counts(t, c, judges):
    """Product-letter counts → the J + 1 mean letters' counts (k judges say 1)."""
    k = letter_bits(judges).sum(axis=1)
    onehot = (k[:, None] == np.arange(judges + 1)[None, :]).astype(np.int64)
    return t @ onehot, np.einsum("...lh,lk->...kh", c, onehot)


def human_cell(c, reps, profiles, gen):
    m = max(10, round(c["share"] * c["rows"] / 2))
    n = c["rows"] - 2 * m
    p0, p1 = letter_probs(c["acc"], c["acc"], c["rho"], gen)
    theta = c["theta"]
    t = gen.multinomial(n, theta * p1 + (1 - theta) * p0, size=reps)
    cal = np.stack([gen.multinomial(m, p0, size=reps), gen.multinomial(m, p1, size=reps)], -1)
    b = jury_bounds(t, cal, Z)
    rows = np.arange(reps)
    better = np.stack([b["member_low"][rows, b["better"]], b["member_high"][rows, b["better"]]], 1)
    low, high = profile_t(*mean_counts(t[:profiles], cal[:profiles], c["J"]))
    acc = {"letters": list(zip(b["low"], b["high"], strict=True)),
           "mean": list(zip(low, high, strict=True)), "better": [tuple(r) for r in better]}
    out = summarise(acc, theta)
    # the mean's ratio over the data sets where it is defined, against the same data sets' member
    ok = np.isfinite(low)
    out["mean"] = (out["mean"][0], np.mean(high[ok] - low[ok]) /
                   np.mean(better[:profiles][ok, 1] - better[:profiles][ok, 0]))  # fmt: skip
    out["mean defined"] = ok.mean()
    out["m"] = m
    return out


def f3(v):
    return "–" if v is None or not np.isfinite(v) else f"{v:.3f}"


def part_a(quick):
    gen = np.random.default_rng(4039)
    reps, h_reps, profiles = (10, 20, 20) if quick else (150, 1000, 200)
    table_r, table_h = [], []
    for c in cells(2 if quick else 20, quick):
        r = random_cell(c, reps, gen)
        kind = "scores" if c["scores"] else "0/1"
        table_r.append([c["cell"], c["J"], kind, "yes" if c["clustered"] else "no",
                        f"{c['theta']:.2f}", f"{c['rho']:.2f}", c["rows"], f"{c['share']:.0%}",
                        *(f3(r[k][0]) for k in ("stack", "mean", "letters", "better")),
                        *(f3(r[k][1]) for k in ("stack", "mean", "letters", "humans")),
                        ])  # fmt: skip
        if not c["scores"] and not c["clustered"]:
            h = human_cell(c, h_reps, profiles, gen)
            table_h.append([c["cell"], c["J"], f"{c['theta']:.2f}", f"{c['rho']:.2f}", h["m"],
                            *(f3(h[k][0]) for k in ("letters", "mean", "better")),
                            f3(h["letters"][1]), f3(h["mean"][1]),
                            f"{h['mean defined']:.2f}"])  # fmt: skip
    head_r = ["cell", "J", "judges", "repeated", "θ", "ρ", "rows", "labelled",
              "coverage stack", "coverage mean", "coverage letters", "coverage better member",
              "stack ÷ better", "mean ÷ better", "letters ÷ better", "humans alone ÷ better"]
    head_h = ["cell", "J", "θ", "ρ", "m per class", "coverage letters (jury)", "coverage mean",
              "coverage better member", "letters ÷ better", "mean ÷ better",
              "mean defined share"]  # fmt: skip
    return table_r, head_r, table_h, head_h


def summary(table_r, table_h):
    def col(rows, i):
        return np.array([float(r[i]) if r[i] != "–" else np.nan for r in rows])

    rows = []
    for name, i_cov, i_w in (("stack", 8, 12), ("mean", 9, 13), ("letters", 10, 14)):
        cov, w = col(table_r, i_cov), col(table_r, i_w)
        stack_w = col(table_r, 12)
        ok = np.isfinite(w)
        rows.append(["random", name, int(ok.sum()), f3(np.nanmin(cov)), f3(np.nanmedian(w)),
                     f3(np.nanmax(w)),
                     f3(np.mean(w[ok] <= np.fmin(stack_w[ok], np.inf) + 1e-12))])  # fmt: skip
    # share of cells where each is the narrowest of the three (where all three answered)
    w3 = np.stack([col(table_r, i) for i in (12, 13, 14)], 1)
    both = np.isfinite(w3).all(1)
    win = np.argmin(w3[both], 1)
    for j, r in enumerate(rows):
        r[-1] = f"{np.mean(win == j):.2f} of {int(both.sum())}"
    for name, i_cov, i_w in (("letters", 5, 8), ("mean", 6, 9)):
        cov, w = col(table_h, i_cov), col(table_h, i_w)
        w2 = np.stack([col(table_h, 8), col(table_h, 9)], 1)
        ok = np.isfinite(w2).all(1)
        win = np.argmin(w2[ok], 1) == (0 if name == "letters" else 1)
        rows.append(["by-human-label", name, int(np.isfinite(w).sum()), f3(np.nanmin(cov)),
                     f3(np.nanmedian(w)), f3(np.nanmax(w)),
                     f"{np.mean(win):.2f} of {int(ok.sum())}"])  # fmt: skip
    rows.append(["by-human-label", "stack", 0, "refused", "–", "–", "–"])
    head = ["design", "combine", "cells", "min coverage", "÷ better member: median",
            "÷ better member: max", "narrowest in"]
    return markdown_table(head, rows)


# ----------------------------------------------------------------------------- real data
def arena():
    return arena_frame(), list(ARENA_JUDGES), list(ARENA_NAMES)


def nq():
    return nq_frame(), list(NQ_JUDGES), list(NQ_NAMES)


def llmbar():
    bar = pd.read_csv(DATA / "llmbar_jury.csv.xz")
    names = ["gpt4", "chatgpt", "llama2", "palm2", "falcon"]
    frame = pd.DataFrame({"target_model": "all 5 subsets", "human": (bar["label"] == 1).astype(int),
                          **{n: (bar[f"judge_{n}_first"] == 1).astype(int) for n in names}})
    return frame, names, ["GPT-4", "ChatGPT", "LLaMA-2", "PaLM-2", "Falcon"]


def real_split(x, y, lab, gen, theta):
    """One split under both designs: {name: (covered, width)}."""
    human = np.where(lab, y.astype(float), np.nan)
    out = {}
    for design, combines in (("random", ("stack", "mean", "letters")),
                             ("by-human-label", ("letters", "mean"))):  # fmt: skip
        for comb in combines:
            try:
                r = correct_combined(x, human, combine=comb, design=design, rng=gen)
            except js.JudgeStatsError:
                continue
            out[f"{design}:{comb}"] = (r.ci.low <= theta <= r.ci.high, r.ci.high - r.ci.low)
        widths = []
        for j in range(x.shape[1]):
            t = js.JudgedCounts.from_labels(x[~lab, j].astype(int))
            k = js.ConfusionCounts.from_labels(human=y[lab], judge=x[lab, j].astype(int))
            try:
                r = js.correct(t, k, design=design, method="adjusted-wald",
                               confidence_level=LEVEL)  # fmt: skip
            except js.JudgeStatsError:
                continue
            widths.append((r.ci.high - r.ci.low, r.ci.low <= theta <= r.ci.high))
        if widths:
            w, cov = min(widths)
            out[f"{design}:better"] = (cov, w)
    return out


def part_b(quick):
    gen = np.random.default_rng(4041)
    splits = 3 if quick else 100
    rows = []
    for data, load, share in (("Arena", arena, 0.3), ("NQ-301", nq, 0.5), ("LLMBar", llmbar, 0.5)):
        frame, cols, _ = load()
        for target, g in list(frame.groupby("target_model", sort=True))[: 1 if quick else None]:
            x = g[cols].to_numpy(float)
            y = g["human"].to_numpy(int)
            theta = y.mean()
            res: dict[str, list] = {}
            for _ in range(splits):
                lab = gen.random(len(y)) < share
                if len(set(y[lab])) < 2:
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    for k, v in real_split(x, y, lab, gen, theta).items():
                        res.setdefault(k, []).append(v)
            for design in ("random", "by-human-label"):
                base = np.mean([w for _, w in res.get(f"{design}:better", [(0, np.nan)])])
                combs = ("stack", "mean", "letters") if design == "random" else ("letters", "mean")
                cells_ = []
                for comb in ("stack", "mean", "letters"):
                    v = res.get(f"{design}:{comb}") if comb in combs else None
                    cells_ += (["–", "–"] if not v else
                               [f"{np.mean([c for c, _ in v]):.2f}",
                                f"{np.mean([w for _, w in v]) / base:.3f}"])  # fmt: skip
                better = res.get(f"{design}:better", [])
                rows.append([data, target, len(cols), f"{share:.0%}", design, f"{theta:.3f}",
                             *cells_,
                             f"{np.mean([c for c, _ in better]):.2f}" if better else "–"])
    head = ["data", "target", "J", "labelled", "design", "θ (all items)", "coverage stack",
            "stack ÷ better", "coverage mean", "mean ÷ better", "coverage letters",
            "letters ÷ better", "coverage better member"]  # fmt: skip
    return markdown_table(head, rows)


PSEUDO_CELLS = [  # (θ, accuracies, rows, labelled share)
    (0.05, (0.9, 0.85, 0.8, 0.75, 0.7), 1000, 0.12), (0.1, (0.9, 0.6), 3000, 0.04),
    (0.05, (0.9, 0.8, 0.7), 2000, 0.15), (0.3, (0.9, 0.8, 0.7), 2000, 0.2),
    (0.5, (0.7, 0.65, 0.6), 600, 0.2),
]  # fmt: skip


def part_c(quick):
    from judgestats.jury.stack import cross_fit_stack
    from judgestats.scores.prediction_powered import fit_ppi

    gen = np.random.default_rng(4042)
    rows_out = []
    for theta, acc, rows, share in PSEUDO_CELLS:
        c = {"rows": rows, "J": len(acc), "acc": np.array(acc), "rho": 0.3, "theta": theta,
             "share": share, "scores": False, "clustered": False}  # fmt: skip
        got: dict[str, list] = {"PPI++": [], "with pseudo-labels": []}
        for _ in range(8 if quick else 300):
            x, human, _, _ = draw_rows(gen, c)
            lab = ~np.isnan(human)
            y = human[lab]
            if lab.sum() < 100 or y.sum() < 1:
                continue
            fit = cross_fit_stack(x[lab], y, x[~lab], np.arange(lab.sum()), folds=5, rng=gen)
            p = fit_ppi(y, fit.labelled, fit.unlabelled)
            var = fit_ppi(y, fit.labelled, fit.unlabelled, rare_adjust=True).variance
            for k, v in (("PPI++", p.variance), ("with pseudo-labels", var)):
                h = Z * np.sqrt(v)
                got[k].append((p.estimate - h <= theta <= p.estimate + h, 2 * h))
        cov = {k: np.mean([a for a, _ in v]) for k, v in got.items()}
        wid = {k: np.mean([b for _, b in v]) for k, v in got.items()}
        rows_out.append([f"{theta:.2f}", len(acc), rows, f"{share:.0%}",
                         len(got["PPI++"]), f"{cov['PPI++']:.3f}",
                         f"{cov['with pseudo-labels']:.3f}",
                         f"{wid['with pseudo-labels'] / wid['PPI++']:.3f}"])  # fmt: skip
    head = ["θ", "J", "rows", "labelled", "data sets", "coverage PPI++ variance",
            "coverage with pseudo-labels", "width ratio"]
    return "## Part C: the stack's variance with few labels of one class\n\n" + markdown_table(
        head, rows_out)


def main() -> None:
    ap = quick_parser(__doc__, "2 random cells and 1 grid cell, 10 data sets; 3 splits")
    ap.add_argument("--part", choices=("all", "pseudo", "designs"), default="all",
                    help="pseudo: rerun Part C alone and write it into the results file; "
                         "designs: Parts E and F (all three designs)")
    args = ap.parse_args()
    quick = args.quick
    start = time.perf_counter()
    if args.part == "pseudo":
        path = RESULTS / ("jury_combine_quick.md" if quick else "jury_combine.md")
        text = path.read_text(encoding="utf-8")
        body, _, run = text.rpartition("\nRun time")
        body = body.partition("## Part C:")[0].rstrip()
        path.write_text(f"{body}\n\n{part_c(quick)}\n\nRun time{run}", encoding="utf-8")
        print(f"wrote Part C into {path} in {time.perf_counter() - start:.1f} s")
        return
    if args.part == "designs":
        path = RESULTS / ("jury_combine_quick.md" if quick else "jury_combine.md")
        text = path.read_text(encoding="utf-8")
        body, _, run = text.rpartition("\nRun time")
        body = body.partition(PART_E)[0].rstrip()
        path.write_text(f"{body}\n\n{parts_e_f(quick)}\n\nRun time{run}", encoding="utf-8")
        print(f"wrote Parts E and F into {path} in {time.perf_counter() - start:.1f} s")
        return
    table_r, head_r, table_h, head_h = part_a(quick)
    short = summary(table_r, table_h)
    real = part_b(quick)
    text = "\n\n".join([
        __doc__.split("\n\n", 1)[1].rsplit("Writes", 1)[0].strip(),
        "## Summary: which combine, per design", short,
        "## Part A: random design, every cell", markdown_table(head_r, table_r),
        "## Part A: by-human-label, every cell (0/1 judges, no repeated items)",
        markdown_table(head_h, table_h),
        "## Part B: real data, 100 random splits (means over the splits)", real,
        part_c(quick),
        parts_e_f(quick),
        run_time(time.perf_counter() - start, quick),
    ])  # fmt: skip
    name = "jury_combine_quick" if quick else "jury_combine"
    publish(name, "A jury's combines: letters, stack and mean (issue 39)", text,
            time.perf_counter() - start)  # fmt: skip
    if not quick:
        write_part_d(short)


PART_E = "## Part E:"


def parts_e_f(quick):
    """Parts E and F (:mod:`_jury_designs`): a jury under all three designs."""
    from _jury_designs import part_e, part_f

    start = time.perf_counter()
    short, arena_t, nq_t = part_e(quick)
    bands, cells_t = part_f(quick)
    return "\n\n".join([
        f"{PART_E} the jury ÷ each judge alone, per design (real data; means over the splits)",
        _jury_designs_about(), short,
        "## Part E: Chatbot Arena, GPT-4 and GPT-3.5, per target and design", arena_t,
        "## Part E: NQ-301, GPT-4, InstructGPT and BEM, per system and design", nq_t,
        "## Part F: by-judge-label, simulated juries, by the smallest letter's labels", bands,
        "## Part F: by-judge-label, every cell", cells_t,
        f"Parts E and F run time: {time.perf_counter() - start:.1f} s"
        + (" (--quick)" if quick else ""),
    ])  # fmt: skip


def _jury_designs_about():
    import _jury_designs

    return str(_jury_designs.__doc__).split("\n\n", 1)[1].strip()


def write_part_d(short):
    path = RESULTS / "jury.md"
    text = path.read_text(encoding="utf-8")
    mark = "## Part D: combine="
    text = text.split(mark)[0].rstrip()
    text += ("\n\n" + mark + "'letters', 'stack' or 'mean' (benchmarks/bench_jury_combine.py; "
             "every cell in benchmarks/results/jury_combine.md)\n\n" + short + "\n")
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
