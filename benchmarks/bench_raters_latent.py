"""The latent-class (Dawid–Skene) correction: coverage, misspecification, NQ-301, SBC (issue 40).

``js.raters.dawid_skene`` treats every rater, the judge included, as a noisy view of one latent
true class. Four parts:

  A  where the model holds: cells drawn at random (seed 4040) from the issue's grid — 3–6
     raters, one much worse than the others (sensitivity and specificity 0.55–0.70 against
     0.75–0.95), prevalence 0.1–0.9, 50–2,000 items (log-uniform), each human rater missing an
     item with probability 0–50% (the last rater, the judge, rates every item). Per cell,
     200 data sets (seed 4041 + cell): coverage of the true prevalence by the three interval
     methods at 95% (the bootstrap, 200 item resamples, on the first 100 data sets: Monte Carlo
     s.e. 0.022 at 0.95, 0.015 for the Wald intervals), the rate of LatentBoundaryWarning and
     of refusals (fewer than 10 items rated by three raters).
  B  where it does not: the same kind of cells (seed 4042) with the raters' errors correlated —
     "difficulty" (30% of items are hard; on a hard item the first two humans make the same
     error together with probability ½) or "copy" (the judge copies the first human's label on
     30% of items). Bias and coverage of the latent prevalence (sandwich) beside the raters'
     majority (the majority of the available votes per item, a tie counted ½; its Wald
     interval over items), both against the true prevalence. Part A's cells show the majority
     too: it is biased towards ½ even where the raters are independent.
  C  NQ-301 (js.datasets.load_nq301): human_annotator1, human_annotator2 and the GPT-4 judge as
     the three raters, per system and pooled: the latent prevalence (bootstrap 95%) beside the
     adjudicated rate (``human``, the released verdict) and the three raters' majority; then
     random halves of the items (seed 4043): the mean of latent − adjudicated over the halves
     and the share of the latent intervals that contain the half's adjudicated rate.
  D  js.bayes.fit_raters by simulation-based calibration (Talts et al. 2018): parameters drawn
     from the prior (Dirichlet(1, 1) prevalence, Dirichlet(2, 1) confusion rows; 4 raters, 150
     items, humans missing 20%), data from the model, NUTS (2 chains × 300 draws) on the model
     compiled once; the rank of the true prevalence among 99 thinned draws. Uniform ranks
     (χ² over 10 bins) say the posterior is calibrated.
  E  exactly three raters (the minimum), one of them much worse: cells drawn like A's but kept
     only with three raters (seed 4060), each at 150, 400, 1,000 and 2,000 items, 100 data
     sets: bias and coverage of the sandwich interval as the items grow.

Run: python benchmarks/bench_raters_latent.py [--quick]   (full: about 40 min on 2 shared cores)
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time
from scipy.stats import chisquare, norm

import judgestats as js
import judgestats.raters as jr
from judgestats.errors import LatentBoundaryWarning, UnidentifiableModelError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.raters.simulate_latent import all_patterns, draw_cell, sbc_rank, simulate_ratings

METHODS = ("bootstrap", "sandwich", "observed-information")
Z = norm.ppf(0.975)


def majority_rate(codes: np.ndarray) -> tuple[float, float, float]:
    """The raters' majority rate (ties ½ per item) and its 95% Wald interval over items."""
    ones, votes = (codes == 1).sum(axis=1), (codes >= 0).sum(axis=1)
    share = np.where(2 * ones > votes, 1.0, np.where(2 * ones == votes, 0.5, 0.0))
    m, se = share.mean(), share.std(ddof=1) / np.sqrt(share.size)
    return m, m - Z * se, m + Z * se


def _fit(data, method, rng):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LatentBoundaryWarning)
        fit = jr.dawid_skene(data, method=method, rng=rng, n_resamples=200)
    return fit, any(issubclass(w.category, LatentBoundaryWarning) for w in caught)


def run_cell(cell, n_sets, seed, methods=METHODS, correlation=None, n_boot=None):
    """Coverage per method, warnings, refusals, bias (latent and majority) for one cell.

    The bootstrap runs on the first ``n_boot`` data sets only (its cost: 200 EM refits each).
    """
    rng = np.random.default_rng(seed)
    codes, _ = simulate_ratings(rng, cell["n_items"], cell["prevalence"], cell["sensitivity"],
                                cell["specificity"], missing=cell["missing"],
                                correlation=correlation, n_sets=n_sets)  # fmt: skip
    p = cell["prevalence"]
    hits = {m: [] for m in methods}
    est, maj, maj_hit, warned, refused = [], [], [], 0, 0
    for i, data in enumerate(codes):
        try:
            for m in methods:
                if m == "bootstrap" and n_boot is not None and i >= n_boot:
                    continue
                fit, w = _fit(data, m, rng)
                hits[m].append(fit.ci.low <= p <= fit.ci.high)
        except UnidentifiableModelError:
            refused += 1
            continue
        warned += w
        est.append(fit.estimate)
        m_rate, low, high = majority_rate(data)
        maj.append(m_rate)
        maj_hit.append(low <= p <= high)
    return {"coverage": {m: np.mean(v) for m, v in hits.items()}, "warned": warned,
            "refused": refused, "fitted": len(est), "bias": np.mean(est) - p,
            "majority_bias": np.mean(maj) - p, "majority_coverage": np.mean(maj_hit)}  # fmt: skip


def _describe(cell) -> list[str]:
    worst = cell["worst"]
    j = cell["sensitivity"][worst] + cell["specificity"][worst] - 1
    others = np.delete(cell["sensitivity"] + cell["specificity"] - 1, worst)
    return [str(cell["raters"]), f"{cell['prevalence']:.2f}", str(cell["n_items"]),
            f"{cell['missing']:.0%}", f"{j:.2f}", f"{others.min():.2f}–{others.max():.2f}"]


def part_a(n_cells: int, n_sets: int) -> tuple[str, list]:
    rng = np.random.default_rng(4040)
    rows, results = [], []
    for c in range(n_cells):
        cell = draw_cell(rng)
        res = run_cell(cell, n_sets, 4041 + c, n_boot=n_sets // 2)
        results.append(res)
        cov = res["coverage"]
        rows.append([c + 1, *_describe(cell), *(f"{cov[m]:.3f}" for m in METHODS),
                     f"{res['warned'] / max(res['fitted'], 1):.3f}", res["refused"],
                     f"{res['bias']:+.4f}", f"{res['majority_bias']:+.4f}",
                     f"{res['majority_coverage']:.3f}"])  # fmt: skip
        print("A", rows[-1], flush=True)
    header = ["cell", "raters", "prevalence", "items", "missing", "worst J", "others' J",
              *(f"{m} coverage" for m in METHODS), "warned", "refused", "latent bias",
              "majority bias", "majority coverage"]  # fmt: skip
    summary = markdown_table(
        ["interval", "min coverage", "mean coverage", "cells"],
        [[m, f"{min(r['coverage'][m] for r in results):.3f}",
          f"{np.mean([r['coverage'][m] for r in results]):.3f}", len(results)]
         for m in METHODS],
    )  # fmt: skip
    return markdown_table(header, rows) + "\n\n" + summary, results


def part_b(n_cells: int, n_sets: int) -> str:
    rng = np.random.default_rng(4042)
    rows = []
    for c in range(n_cells):
        cell = draw_cell(rng)
        for kind in ("difficulty", "copy"):
            res = run_cell(cell, n_sets, 5000 + 2 * c + (kind == "copy"),
                           methods=("sandwich",), correlation=kind)  # fmt: skip
            rows.append([c + 1, kind, *_describe(cell), f"{res['bias']:+.4f}",
                         f"{res['coverage']['sandwich']:.3f}", f"{res['majority_bias']:+.4f}",
                         f"{res['majority_coverage']:.3f}"])  # fmt: skip
            print("B", rows[-1], flush=True)
    header = ["cell", "correlation", "raters", "prevalence", "items", "missing", "worst J",
              "others' J", "latent bias", "latent coverage", "majority bias",
              "majority coverage"]  # fmt: skip
    return markdown_table(header, rows)


def part_e(n_cells: int, sizes: tuple[int, ...], n_sets: int) -> str:
    """Exactly three raters, one weak: coverage of the sandwich interval as the items grow."""
    rng = np.random.default_rng(4060)
    rows = []
    while len(rows) < n_cells * len(sizes):
        cell = draw_cell(rng)
        if cell["raters"] != 3:
            continue
        for n in sizes:
            res = run_cell({**cell, "n_items": n}, n_sets, int(rng.integers(2**31)),
                           methods=("sandwich",))  # fmt: skip
            rows.append([*_describe({**cell, "n_items": n}), f"{res['bias']:+.4f}",
                         f"{res['coverage']['sandwich']:.3f}",
                         f"{res['warned'] / max(res['fitted'], 1):.3f}"])  # fmt: skip
            print("E", rows[-1], flush=True)
    header = ["raters", "prevalence", "items", "missing", "worst J", "others' J",
              "latent bias", "sandwich coverage", "warned"]  # fmt: skip
    return markdown_table(header, rows)


def _nq_codes(frame) -> np.ndarray:
    cols = ["human_annotator1", "human_annotator2", "judge"]
    return np.column_stack([frame[c].fillna(-1).astype(int).to_numpy() for c in cols])


def _nq_row(name, frame, rng, n_halves, n_resamples):
    codes = _nq_codes(frame)
    fit = jr.dawid_skene(codes, raters=["annotator1", "annotator2", "gpt-4"], judge="gpt-4",
                         method="bootstrap", n_resamples=n_resamples, rng=rng)  # fmt: skip
    adjudicated = frame["human"].to_numpy()
    diffs, hits = [], []
    for _ in range(n_halves):
        half = rng.permutation(len(frame))[: len(frame) // 2]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", LatentBoundaryWarning)
                part = jr.dawid_skene(codes[half], method="sandwich")
        except UnidentifiableModelError:
            continue
        truth = adjudicated[half].mean()
        diffs.append(part.estimate - truth)
        hits.append(part.ci.low <= truth <= part.ci.high)
    return [name, len(frame), f"{fit.estimate:.3f} [{fit.ci.low:.3f}, {fit.ci.high:.3f}]",
            f"{adjudicated.mean():.3f}", f"{majority_rate(codes)[0]:.3f}",
            f"{fit.accuracy[2]:.3f}", f"{np.mean(diffs):+.3f}", f"{np.mean(hits):.2f}",
            len(diffs), "; ".join(fit.notes) or "—"]  # fmt: skip


def part_c(n_halves: int, n_resamples: int, systems: int | None) -> str:
    data = js.datasets.load_nq301()
    rng = np.random.default_rng(4043)
    rows = [_nq_row("pooled (all systems)", data, rng, n_halves, n_resamples)]
    names = sorted(data["target_model"].unique())[:systems]
    for name in names:
        rows.append(_nq_row(name, data[data["target_model"] == name], rng, n_halves,
                            n_resamples))  # fmt: skip
        print("C", rows[-1], flush=True)
    header = ["system", "answers", "latent prevalence (95% bootstrap)", "adjudicated",
              "majority of 3", "GPT-4 accuracy (latent)", "halves: latent − adjudicated",
              "halves: CI holds adjudicated", "halves", "notes"]  # fmt: skip
    return markdown_table(header, rows)


def part_d(n_reps: int, draws: int) -> str:
    """SBC of the prevalence: ``n_reps`` replicates of 2 chains × ``draws`` (and as many tuning)."""
    patterns = all_patterns(4)
    model = js.bayes.build_raters_model(patterns)
    rng = np.random.default_rng(4044)
    ranks = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # diagnostics of single replicates: the ranks judge
        for i in range(n_reps):
            def sample(m, seed=4044 + i):
                return js.bayes.sample(m, draws=draws, tune=draws, chains=2, cores=1,
                                       random_seed=seed, progress=False)  # fmt: skip

            ranks.append(sbc_rank(rng, model, patterns, sample))
    hist = np.bincount(np.asarray(ranks) // 10, minlength=10)
    p = chisquare(hist).pvalue
    return markdown_table(
        ["replicates", "draws per chain", "rank bins (10, ranks 0-99)", "chi-square p",
         "mean rank / 99"],
        [[n_reps, draws, " ".join(str(h) for h in hist), f"{p:.3f}",
          f"{np.mean(ranks) / 99:.3f}"]],
    )  # fmt: skip


def main() -> None:
    quick_help = "a few cells and data sets, SBC of 2 short replicates"
    args = quick_parser(__doc__, quick_help).parse_args()
    q = args.quick
    start = time.perf_counter()
    table_a, _ = part_a(2 if q else 8, 20 if q else 200)
    table_b = part_b(1 if q else 3, 20 if q else 200)
    table_c = part_c(3 if q else 20, 100 if q else 500, 2 if q else None)
    # --quick: SBC only runs (2 replicates of 2 x 100 draws, >= the 99 ranks); its fast tier
    # (6 replicates) is tests/bayes/test_raters.py's, on the same model
    table_d = part_d(2 if q else 40, 100 if q else 300)
    table_e = part_e(1 if q else 4, (150, 400) if q else (150, 400, 1000, 2000), 20 if q else 100)
    body = "\n\n".join([
        "## A. Coverage where the model holds (cells drawn at random, seed 4040)",
        table_a,
        "## B. Correlated raters: latent bias beside the majority's (seed 4042)",
        table_b,
        "## C. NQ-301: two annotators and GPT-4 as three raters",
        table_c,
        "## D. fit_raters: simulation-based calibration of the prevalence",
        table_d,
        "## E. Exactly three raters, one weak: the minimum the model needs (seed 4060)",
        table_e,
        run_time(time.perf_counter() - start, q),
    ])  # fmt: skip
    publish("raters_latent", "Latent-class correction (Dawid–Skene)", body,
            time.perf_counter() - start)


if __name__ == "__main__":
    main()
