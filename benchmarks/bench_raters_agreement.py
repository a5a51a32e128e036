"""Several raters (js.raters, issue 40): agreement intervals, the alternative annotator test.

A. Coverage of the cluster-bootstrap BCa and percentile intervals (95%) of Krippendorff's alpha
   (nominal; ordinal where k > 2) and Fleiss' kappa (Gwet's form). Each item's true class is
   drawn from a prevalence vector, each rater labels it correctly with its own accuracy (else a
   uniformly drawn other class), each rating is missing with probability `missing` (an item
   left without any rating keeps rater 0's). The target is the coefficient on 200,000 items
   of the same cell. Grid (seed 4001): items {30, 100, 300} x raters {2, 4} x k {2, 4} x
   missing {0, 0.3}, raters' accuracies 0.9, 0.8, 0.85, 0.75 (the first R), prevalence
   uniform; and 24 cells drawn at random (seed 4002): items U{20..400}, raters U{2..6}, k
   U{2..5}, accuracies U(0.55, 0.95) with one rater at U(0.3, 0.5) in half of them, missing
   U(0, 0.4), prevalence Dirichlet(2, ..., 2). 300 data sets per cell, 500 resamples each
   (--quick: 4 + 4 cells, 40 data sets, 200 resamples).
B. The alternative annotator test (Calderon et al. 2025), binary labels, human raters of
   accuracy 0.85 (or 0.85, 0.85, 0.5: one much worse), 1,000 data sets per cell (100 with
   --quick), seed 4003: the winning rate omega and the pass rate by judge accuracy (as good:
   0.85, worse: 0.6, better: 0.95), number of raters, items and epsilon.
C. NQ-301 (js.datasets.load_nq301: two annotators on every answer, a third where they
   disagreed, GPT-4 as the judge): per QA system and pooled, alpha and kappa between the two
   annotators, the judge's agreement with each and with the adjudicated majority, and the
   alternative annotator test with the two annotators (the paper allows two; it recommends
   three). Seed 4004.
D. PandaLM (benchmarks/data/pandalm_raters.csv.xz: three annotators on 999 response pairs,
   labels 1 / 2 / tie, and the verdicts of gpt-3.5-turbo and PandaLM-7B): the annotators'
   agreement against the published figures (Cohen's kappa 0.85, 0.88, 0.86 for the pairs),
   each judge's agreement, and the alternative annotator test with three
   raters (as the paper recommends). Seed 4005.
Run: python benchmarks/bench_raters_agreement.py [--quick]
"""

from __future__ import annotations

import os
import time
from pathlib import Path

# one BLAS thread: the bootstrap's small products run 4x slower when threads fight over 2 cores
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time

from judgestats.raters import Ratings, alt_test, fleiss_kappa, judge_agreement, krippendorff_alpha
from judgestats.raters.agreement import (
    _fleiss_of_sums,
    _fleiss_parts,
    alpha_of_coincidences,
    item_coincidences,
)

LEVEL = 0.95


# ----------------------------------------------------------------------------- simulation
def draw_codes(gen, n, acc, prevalence, missing):
    """(n x raters) codes of raters with accuracies ``acc`` (-1 missing) and the true classes."""
    k = len(prevalence)
    truth = gen.choice(k, size=n, p=prevalence)
    wrong = (truth[:, None] + gen.integers(1, k, (n, len(acc)))) % k
    codes = np.where(gen.random((n, len(acc))) < np.asarray(acc), truth[:, None], wrong)
    codes[gen.random(codes.shape) < missing] = -1
    empty = (codes < 0).all(axis=1)
    codes[empty, 0] = truth[empty]
    return codes, truth


def as_ratings(codes, k, judge=None):
    n, r = codes.shape
    return Ratings(codes, tuple(range(n)), tuple(range(r)), tuple(range(k)), ordinal=True,
                   judge=None if judge is None else "judge", judge_codes=judge)  # fmt: skip


def measures(ratings, n_boot, gen):
    """Each measure's BCa and percentile intervals, from the same resamples (one seed)."""
    k = len(ratings.categories)
    calls = {"alpha nominal": (krippendorff_alpha, {}), "fleiss kappa": (fleiss_kappa, {})}
    if k > 2:
        calls["alpha ordinal"] = (krippendorff_alpha, {"metric": "ordinal"})
    out = {}
    for name, (fn, kw) in calls.items():
        seed = int(gen.integers(2**32))
        for interval in ("bca", "percentile"):
            out[f"{name} ({interval})"] = fn(ratings, n_boot=n_boot, interval=interval,
                                             rng=seed, **kw)  # fmt: skip
    return out


def targets(codes, k):
    """The coefficients of a (large) sample, without an interval."""
    counts = (codes[:, :, None] == np.arange(k)).sum(axis=1)
    o = item_coincidences(counts).sum(axis=0)
    out = {"alpha nominal": float(alpha_of_coincidences(o, "nominal"))}
    if k > 2:
        out["alpha ordinal"] = float(alpha_of_coincidences(o, "ordinal"))
    out["fleiss kappa"] = float(_fleiss_of_sums(_fleiss_parts(counts).sum(axis=0)))
    return out


def coverage_cell(gen, cell, reps, n_boot):
    n, acc, prev, missing = cell
    big, _ = draw_codes(gen, 200_000, acc, prev, missing)
    truth = targets(big, len(prev))
    hits = {m: [] for m in truth}
    widths = {m: [] for m in truth}
    hits = {f"{m} ({i})": [] for m in truth for i in ("bca", "percentile")}
    widths = {m: [] for m in hits}
    for _ in range(reps):
        codes, _ = draw_codes(gen, n, acc, prev, missing)
        for m, res in measures(as_ratings(codes, len(prev)), n_boot, gen).items():
            if res.ci is not None:
                hits[m].append(res.ci.low <= truth[m.rsplit(" (", 1)[0]] <= res.ci.high)
                widths[m].append(res.ci.high - res.ci.low)
    return {m: (truth[m.rsplit(" (", 1)[0]], np.mean(hits[m]) if hits[m] else np.nan,
                len(hits[m]), np.mean(widths[m]) if widths[m] else np.nan)
            for m in hits}  # fmt: skip


def grid_cells(quick):
    accs = [0.9, 0.8, 0.85, 0.75]
    cells = [(n, accs[:r], np.full(k, 1 / k), miss)
             for n in (30, 100, 300) for r in (2, 4) for k in (2, 4)
             for miss in (0.0, 0.3)]  # fmt: skip
    return [cells[i] for i in (0, 9, 14, 23)] if quick else cells


def random_cells(gen, count):
    out = []
    for i in range(count):
        r, k = int(gen.integers(2, 7)), int(gen.integers(2, 6))
        acc = list(gen.uniform(0.55, 0.95, r))
        if i % 2:
            acc[-1] = float(gen.uniform(0.3, 0.5))  # one rater much worse
        out.append((int(gen.integers(20, 401)), acc, gen.dirichlet(np.full(k, 2.0)),
                    float(gen.uniform(0, 0.4))))  # fmt: skip
    return out


def part_a(quick):
    reps, n_boot = (40, 200) if quick else (300, 500)
    rows, mins = [], {}
    for name, cells, seed in (("grid", grid_cells(quick), 4001),
                              ("random", None, 4002)):  # fmt: skip
        gen = np.random.default_rng(seed)
        cells = cells if cells is not None else random_cells(gen, 4 if quick else 24)
        for n, acc, prev, miss in cells:
            res = coverage_cell(gen, (n, acc, prev, miss), reps, n_boot)
            for m, (target, cov, shown, width) in res.items():
                mins.setdefault((name, m), []).append(cov)
                rows.append([name, n, len(acc), len(prev), f"{miss:.2f}",
                             " ".join(f"{a:.2f}" for a in acc), m, f"{target:.3f}",
                             f"{cov:.3f}", shown, f"{width:.3f}"])  # fmt: skip
    summary = [[g, m, len(v), f"{np.nanmin(v):.3f}", f"{np.nanmean(v):.3f}"]
               for (g, m), v in mins.items()]  # fmt: skip
    head = ["cells", "measure", "n cells", "min coverage", "mean coverage"]
    detail = ["cells", "items", "raters", "k", "missing", "accuracies", "measure", "target",
              "coverage", "shown", "mean width"]  # fmt: skip
    return markdown_table(head, summary), markdown_table(detail, rows)


def part_b(quick):
    reps = 100 if quick else 1000
    gen = np.random.default_rng(4003)
    rows = []
    panels = [("3 raters 0.85", [0.85] * 3), ("5 raters 0.85", [0.85] * 5),
              ("3 raters, one at 0.5", [0.85, 0.85, 0.5])]  # fmt: skip
    sizes = (100,) if quick else (50, 100, 300)
    for label, acc in panels:
        for judge_name, judge_acc in (("as good", 0.85), ("worse", 0.6), ("better", 0.95)):
            for n in sizes:
                for eps in (0.0, 0.1, 0.2):
                    omega = []
                    for _ in range(reps):
                        codes, truth = draw_codes(gen, n, acc, [0.5, 0.5], 0.0)
                        judge = np.where(gen.random(n) < judge_acc, truth, 1 - truth)
                        omega.append(alt_test(as_ratings(codes, 2, judge), epsilon=eps)
                                     .winning_rate)  # fmt: skip
                    w = np.array(omega)
                    rows.append([label, judge_name, n, eps, f"{w.mean():.3f}",
                                 f"{(w >= 0.5).mean():.3f}", reps])  # fmt: skip
    head = ["raters", "judge", "items", "epsilon", "mean omega", "pass rate", "data sets"]
    return markdown_table(head, rows)


# ----------------------------------------------------------------------------- NQ-301
def nq_tables(n_boot):
    import judgestats as js

    df = js.datasets.load_nq301()
    gen = np.random.default_rng(4004)
    agree, judge_rows, alt_rows = [], [], []
    groups = [(m, df[df["target_model"] == m]) for m in sorted(df["target_model"].unique())]
    for name, part in [*groups, ("pooled (rows as items)", df)]:
        frame = part.reset_index(drop=True)
        two = Ratings.from_wide(frame, raters=["human_annotator1", "human_annotator2"],
                                judge="judge", categories=[0, 1])  # fmt: skip
        three = Ratings.from_wide(frame, raters=["human_annotator1", "human_annotator2",
                                                 "human_annotator3"], judge="judge",
                                  categories=[0, 1])  # fmt: skip
        a = krippendorff_alpha(two, n_boot=n_boot, rng=gen)
        f = fleiss_kappa(two, n_boot=n_boot, rng=gen)
        agree.append([name, a.n_items, f"{a.estimate:.3f}", _ci(a.ci), f"{f.estimate:.3f}",
                      _ci(f.ci)])  # fmt: skip
        ja = judge_agreement(three, ties="human_annotator3")
        maj = three.majority("human_annotator3")
        same = int((np.array(maj.codes) == frame["human"].to_numpy()).sum())
        rows = {r.second: r for r in ja.with_raters}
        judge_rows.append([name, *(_pair(rows[c]) for c in ("human_annotator1",
                                                             "human_annotator2")),
                           _pair(ja.with_majority), _pair(ja.between_raters[0]),
                           f"{same}/{three.n_items}"])  # fmt: skip
        for eps in (0.1, 0.2):
            t = alt_test(two, epsilon=eps)
            alt_rows.append([name, eps, *(int(v) for v in t.n_items),
                             *(f"{v:.3f}" for v in t.judge_advantage),
                             *(f"{v:.3f}" for v in t.rater_advantage),
                             *(f"{p:.2g}" for p in t.pvalues), f"{t.winning_rate:.2f}",
                             "yes" if t.passed else "no"])  # fmt: skip
    return agree, judge_rows, alt_rows


def _ci(ci):
    return "–" if ci is None else f"[{ci.low:.3f}, {ci.high:.3f}]"


def _pair(row):
    kappa = f"{row.kappa:.3f}" + ("" if row.kappa_ci is None else f" {_ci(row.kappa_ci)}")
    return f"{row.percent:.3f} {_ci(row.percent_ci)}; κ {kappa}"


def part_d(quick):
    import pandas as pd

    data = pd.read_csv(Path(__file__).resolve().parent / "data" / "pandalm_raters.csv.xz")
    humans = ["human_annotator1", "human_annotator2", "human_annotator3"]
    gen = np.random.default_rng(4005)
    n_boot = 200 if quick else 2000
    rows, alt_rows, first = [], [], True
    for judge in ("judge_gpt35", "judge_pandalm7b"):
        r = Ratings.from_wide(data, raters=humans, judge=judge, categories=[0, 1, 2])
        ja = judge_agreement(r)
        if first:
            a = krippendorff_alpha(r, n_boot=n_boot, rng=gen)
            f = fleiss_kappa(r, n_boot=n_boot, rng=gen)
            rows.append(["annotators: Krippendorff alpha", f"{a.estimate:.3f} {_ci(a.ci)}", "–"])
            rows.append(["annotators: Fleiss kappa", f"{f.estimate:.3f} {_ci(f.ci)}", "–"])
            for pair, published in zip(ja.between_raters, ("0.85", "0.88", "0.86"), strict=True):
                rows.append([f"{pair.first} vs {pair.second}", _pair(pair), published])
            first = False
        for row in (*ja.with_raters, ja.with_majority):
            rows.append([f"{row.first} vs {row.second}", _pair(row), "–"])
        for eps in (0.1, 0.2):
            t = alt_test(r, epsilon=eps)
            alt_rows.append([judge, eps, int(t.n_items.min()),
                             " ".join(f"{v:.3f}" for v in t.judge_advantage),
                             " ".join(f"{v:.3f}" for v in t.rater_advantage),
                             " ".join(f"{p:.2g}" for p in t.pvalues),
                             f"{t.advantage_probability:.3f}", f"{t.winning_rate:.2f}",
                             "yes" if t.passed else "no"])  # fmt: skip
    t1 = markdown_table(["pair", "agreement [CI]; kappa [CI]", "published"], rows)
    t2 = markdown_table(["judge", "epsilon", "items (min)", "judge adv. (a1 a2 a3)",
                         "rater adv. (a1 a2 a3)", "p (a1 a2 a3)", "rho", "omega", "passes"],
                        alt_rows)  # fmt: skip
    return t1, t2


def part_c(quick):
    agree, judge_rows, alt_rows = nq_tables(200 if quick else 2000)
    t1 = markdown_table(["system", "items (both annotators)", "alpha", "alpha 95% CI", "kappa",
                         "kappa 95% CI"], agree)  # fmt: skip
    t2 = markdown_table(["system", "judge vs annotator 1", "judge vs annotator 2",
                         "judge vs majority (adjudicated)", "annotator 1 vs 2",
                         "majority = released verdict"], judge_rows)  # fmt: skip
    t3 = markdown_table(["system", "epsilon", "items a1", "items a2", "judge adv. a1",
                         "judge adv. a2", "rater adv. a1", "rater adv. a2", "p a1", "p a2",
                         "omega", "passes"], alt_rows)  # fmt: skip
    return t1, t2, t3


TEXT = """\
## A. Coverage of the agreement intervals

Cluster bootstrap over items, BCa (the default) and percentile intervals from the same
resamples, 95%. Target: the coefficient on 200,000 items of the cell. Coverage over the data
sets where the interval is defined ("shown").

{summary}

{detail}

## B. The alternative annotator test on simulated raters

Binary labels, prevalence 0.5, every rater labels every item; the judge's accuracy is "as good"
(0.85, exchangeable with the raters), "worse" (0.6) or "better" (0.95). omega is the winning
rate (share of raters whose H0 "judge advantage <= -epsilon" is rejected at FDR 0.05,
Benjamini–Yekutieli), "pass rate" the share of data sets with omega >= 0.5. With epsilon = 0 and
an exchangeable judge H0 holds at its boundary: omega estimates the (FDR-controlled) false
pass rate.

{alt}

## C. NQ-301: two annotators, an adjudicator and GPT-4

Per QA system (each question once) and pooled over the 3,561 rows (rows as items: an
annotation row is shared by the systems that gave the same answer, so the pooled intervals
treat dependent rows as independent and are too narrow). alpha: Krippendorff's nominal alpha,
kappa: Fleiss' kappa (Gwet's form), both between annotators 1 and 2, cluster-bootstrap
percentile intervals. The majority is that of annotators 1-3 with annotator 3 as adjudicator
(ties="human_annotator3"); the last column checks it against the data set's released verdict
`human`.

{nq1}

Judge agreement: percent agreement [Clopper–Pearson] and Cohen's κ [delta-atanh], 95%.

{nq2}

The alternative annotator test with the two annotators (annotator 3 labelled almost only the
answers 1 and 2 disagreed on: a rater chosen by disagreement is no random rater, and its 462
items are too few per system, so it is left out). With two raters each is compared with the
other alone: omega is 0, 0.5 or 1 and the paper (which recommends three or more raters) reads
it with care. epsilon = 0.1 (the default, crowd workers) and 0.2 (experts).

{nq3}

## D. PandaLM: three annotators and two judges

999 response pairs (labels: response 1 better, response 2 better, tie), three annotators each;
gpt-3.5-turbo has no verdict on 25 (unparsable). Published figures: the PandaLM repository's
README (Cohen's kappa between annotators 0.85, 0.88, 0.86). The authors kept 999 of about 2,500
pairs, dropping those with big divergences, so the annotators' agreement is selected high; a
prompt appears in up to 10 pairs and the intervals treat pairs as independent.

{pd1}

The alternative annotator test with three raters (epsilon 0.1 and 0.2; rho is the average
advantage probability).

{pd2}
"""


def main():
    args = quick_parser(__doc__, "4 + 4 cells, 40 data sets (A); 100 data sets (B)").parse_args()
    t0 = time.perf_counter()
    summary, detail = part_a(args.quick)
    alt = part_b(args.quick)
    nq1, nq2, nq3 = part_c(args.quick)
    pd1, pd2 = part_d(args.quick)
    body = TEXT.format(summary=summary, detail=detail, alt=alt, nq1=nq1, nq2=nq2, nq3=nq3,
                       pd1=pd1, pd2=pd2)
    elapsed = time.perf_counter() - t0
    publish("raters_agreement", "Several raters: agreement, the alternative annotator test",
            body + "\n" + run_time(elapsed, args.quick), elapsed)  # fmt: skip


if __name__ == "__main__":
    main()
