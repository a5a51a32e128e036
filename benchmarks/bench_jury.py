"""A jury of 0/1 judges under the paper's design: no wider than its better member (issue 39).

Two to five binary judges verdict the same items; calibration by human label (m0, m1 fixed).
Each data set is analysed three ways, all at 95%:

* **jury**: ``method="min-variance"`` (:mod:`judgestats.jury.weights`): the members' eq. (8)
  estimates combined with minimum-variance weights at a common θ, with the fallback fixed in
  advance (the hull with the better member's adjusted-Wald interval where a human class has
  fewer than 50 items);
* **better member**: the adjusted-Wald interval (eq. (8)) of the member whose interval is the
  narrowest in that data set (the judge a user would keep after looking);
* **J × K profile-t**: the product letters' joint maximum likelihood with its profile-t interval
  (what ``js.evaluate(frame, judge=[...])`` gave before), batched by
  ``multiclass.distribution_bounds``; only in cells with J <= 3 (2^J letters; a J = 5 fit
  takes ~0.7 s a data set) and only on data sets where every letter has a calibration item.

Width ratio: mean width of the jury's interval ÷ mean width of the better member's (below 1:
the jury is narrower). Coverage: share of data sets whose interval holds the true θ.

Part A, simulation (seeded): the judges' verdicts are 1{√ρ·u + √(1 − ρ)·e_j < Φ⁻¹(acc)} for the
correct answer (acc = sensitivity for human 1, specificity for human 0), u shared by every
judge of an item (correlated errors), e_j its own; the letters' probabilities per human class by
Monte Carlo over 200,000 latent draws (then exact for the draws below). Random cells (seed 2039;
60 cells, --quick 4): J from 2 to 5; sensitivities and specificities U(0.55, 0.98); ρ U(0, 0.6);
θ U(0.05, 0.95); m0 and m1 each an integer U[20, 400]; n U[200, 5000]. Beside them a small grid
(seed 2040): J ∈ {2, 3} × m per class ∈ {20, 50, 100, 400} × θ ∈ {0.2, 0.8}, judges
(sensitivity, specificity) = (0.9, 0.85), (0.75, 0.8), (0.65, 0.7) (the first J), ρ = 0.3,
n = 2000. 1,000 data sets per cell (--quick: 100 in 4 random and 4 grid cells); the profile-t
on the first 200 (--quick 20).

Part B, real data: the bundled Chatbot Arena comparisons (``load_chatbot_arena("all")``: the
six targets of the paper, each item judged by GPT-4 and GPT-3.5; human 1 = the target won).
For each target and labelled share (20%, 30%, 60%), 100 random splits (seed 2041; --quick 5,
30% only): the labelled items are the calibration set, the others the test set. The reference θ
is the target's human win rate over all its items (every item has a human vote). GPT-3.5's
Rogan–Gladen estimate is undefined (q̂0 + q̂1 <= 1) in some splits: its ratios are over the
splits where it is defined, and there the jury is GPT-4 alone. The same on NQ-301
(``benchmarks/data/nq301_jury.csv``: 12 QA systems, about 300 answers each, judged correct or
not by humans and by GPT-4-eval, InstructGPT-eval and BEM; a jury of three), seed 2042; the
reference θ is the system's human accuracy over all its answers; a split without an item of a
human class is skipped (--quick: the first 3 systems). Coverage of the profile-t is over the
splits where it is defined (every letter on a calibration item).

Writes benchmarks/results/jury.md.
Run: python benchmarks/bench_jury.py [--quick]

Part C, repeated items (``cluster=``, :mod:`judgestats.jury.clustered`): items of 1 to 5 rows
(uniform), a shared item effect: row r of item g has human 1{a + σ·u_g + e_r > 0} (a set so that
P(human = 1) = θ) and judge j is right where √ρ(√½ v_r + √½ w_g) + √(1 − ρ) e_rj <
Φ⁻¹(accuracy), so errors are correlated across the judges of a row and across the rows of an
item; a share of the items is labelled (all their rows). θ is the rate over rows. Each data set
is analysed by the clustered jury and by each member's cluster-robust adjusted-Wald interval
(``js.correct`` on clustered counts, ``method="adjusted-wald"``: eq. (8) at the effective sizes,
Student's t); the ratio is to the narrowest of them in each data set. Random cells (seed 3940; 20,
--quick 3): J 2 to 4, sensitivities and specificities U(0.6, 0.95), ρ U(0, 0.6), σ U(0.3, 2),
θ U(0.1, 0.9), items U[150, 800], labelled share U(0.15, 0.5); beside them two grid cells
(seed 3941): J = 2 and 3 of the judges above, θ = 0.3, ρ = 0.3, σ = 1.5, 400 items, 30%
labelled. 1,000 data sets per cell (--quick 100). Real data: NQ-301 pooled over its 12 systems
(the same 301 questions answered by each: ``cluster="item_id"``), 100 random splits of the
questions (seed 3942; --quick 10) at 30% labelled; the reference is the pooled human rate over
every row. ``--part clustered`` reruns Part C alone and writes it into the results file.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time
from _jury_common import (
    ARENA_JUDGES,
    ARENA_NAMES,
    NQ_JUDGES,
    NQ_NAMES,
    arena_frame,
    letter_probs,
    nq_frame,
    profile_t,
)
from scipy.stats import norm

import judgestats as js
from judgestats.counts.clusters import ClusterTotals
from judgestats.errors import NotInformativeError
from judgestats.jury.clustered import clustered_jury_bounds
from judgestats.jury.weights import MIN_PER_CLASS, jury_bounds, letter_bits

LEVEL = 0.95
Z = float(norm.ppf(0.5 + LEVEL / 2))
GRID_JUDGES = [(0.9, 0.85), (0.75, 0.8), (0.65, 0.7)]


def draw(gen, p0, p1, theta, n, m0, m1, size):
    test = gen.multinomial(n, theta * p1 + (1 - theta) * p0, size=size)
    cal = np.stack([gen.multinomial(m0, p0, size=size), gen.multinomial(m1, p1, size=size)], -1)
    return test, cal


def analyse(test, cal, theta, profiles):
    """The cell's figures: coverage and widths of the jury, the better member, profile-t."""
    b = jury_bounds(test, cal, Z)
    rows = np.arange(len(test))
    m_low, m_high = b["member_low"][rows, b["better"]], b["member_high"][rows, b["better"]]
    width, better = b["high"] - b["low"], m_high - m_low
    out = {
        "coverage jury": np.mean((b["low"] <= theta) & (theta <= b["high"])),
        "coverage better": np.mean((m_low <= theta) & (theta <= m_high)),
        "jury ÷ better": width.mean() / better.mean(),
        "p95 jury ÷ better": np.quantile(width / np.maximum(better, 1e-12), 0.95),
        "fallback": b["fallback"].mean(),
        "top weight": np.mean(b["weights"].max(-1)),
    }
    if profiles:
        lo, hi = profile_t(test[:profiles], cal[:profiles])
        ok = np.isfinite(lo)
        out["coverage profile-t"] = np.mean((lo[ok] <= theta) & (theta <= hi[ok]))
        out["jury ÷ profile-t"] = width[:profiles][ok].mean() / (hi[ok] - lo[ok]).mean()
    return out


def random_cells(count, size, profiles):
    gen = np.random.default_rng(2039)
    out = []
    for i in range(count):
        judges = int(gen.integers(2, 6))
        sens, spec = gen.uniform(0.55, 0.98, judges), gen.uniform(0.55, 0.98, judges)
        rho, theta = gen.uniform(0, 0.6), gen.uniform(0.05, 0.95)
        m0, m1, n = int(gen.integers(20, 401)), int(gen.integers(20, 401)), int(
            gen.integers(200, 5001)
        )
        p0, p1 = letter_probs(sens, spec, rho, gen)
        test, cal = draw(gen, p0, p1, theta, n, m0, m1, size)
        fig = analyse(test, cal, theta, profiles if judges <= 3 else 0)
        out.append({"cell": f"R{i}", "J": judges, "rho": rho, "theta": theta, "m0": m0,
                    "m1": m1, "n": n, **fig})  # fmt: skip
    return out


def grid_cells(size, profiles, quick):
    gen = np.random.default_rng(2040)
    out = []
    sizes = (20, 50, 100, 400)
    for judges in (2, 3):
        for m in sizes[1::2] if quick else sizes:
            for theta in (0.2,) if quick else (0.2, 0.8):
                sens, spec = zip(*GRID_JUDGES[:judges], strict=True)
                p0, p1 = letter_probs(sens, spec, 0.3, gen)
                test, cal = draw(gen, p0, p1, theta, 2000, m, m, size)
                fig = analyse(test, cal, theta, profiles)
                out.append({"cell": f"G{judges}-{m}-{theta}", "J": judges, "rho": 0.3,
                            "theta": theta, "m0": m, "m1": m, "n": 2000, **fig})  # fmt: skip
    return out


def cell_table(cells):
    head = ["cell", "J", "θ", "ρ", "m0", "m1", "n", "coverage jury", "coverage better member",
            "jury ÷ better member", "p95 jury ÷ better", "fallback share", "top weight",
            "coverage profile-t", "jury ÷ profile-t"]  # fmt: skip
    rows = []
    for c in cells:
        rows.append([c["cell"], c["J"], f"{c['theta']:.2f}", f"{c['rho']:.2f}", c["m0"],
                     c["m1"], c["n"], f"{c['coverage jury']:.3f}", f"{c['coverage better']:.3f}",
                     f"{c['jury ÷ better']:.3f}", f"{c['p95 jury ÷ better']:.3f}",
                     f"{c['fallback']:.2f}", f"{c['top weight']:.2f}",
                     f"{c['coverage profile-t']:.3f}" if "coverage profile-t" in c else "–",
                     f"{c['jury ÷ profile-t']:.3f}" if "jury ÷ profile-t" in c
                     else "–"])  # fmt: skip
    return markdown_table(head, rows)


def band_table(cells):
    bands = [("fewer than 50 in a class (fallback)", lambda m: m < MIN_PER_CLASS),
             ("50 to 99", lambda m: MIN_PER_CLASS <= m < 100), ("100 or more", lambda m: m >= 100),
             ("all", lambda m: True)]  # fmt: skip
    rows = []
    for name, keep in bands:
        sel = [c for c in cells if keep(min(c["m0"], c["m1"]))]
        if not sel:
            continue
        ratio = [c["jury ÷ better"] for c in sel]
        prof = [c["jury ÷ profile-t"] for c in sel if "jury ÷ profile-t" in c]
        rows.append([name, len(sel), f"{min(c['coverage jury'] for c in sel):.3f}",
                     f"{min(c['coverage better'] for c in sel):.3f}",
                     f"{np.median(ratio):.3f}", f"{max(ratio):.3f}",
                     f"{np.median(prof):.3f}" if prof else "–",
                     f"{max(prof):.3f}" if prof else "–"])  # fmt: skip
    head = ["smallest class", "cells", "min coverage jury", "min coverage better member",
            "jury ÷ better: median", "jury ÷ better: max", "jury ÷ profile-t: median",
            "jury ÷ profile-t: max"]  # fmt: skip
    return markdown_table(head, rows)


# ----------------------------------------------------------------------------- real data
def real_rows(frame, judges, names, splits, shares, seed, targets=None):
    """Per target and labelled share: the jury against each member and the J × K profile-t."""
    gen = np.random.default_rng(seed)
    rows = []
    cells = 2 ** len(judges)
    for target, g in list(frame.groupby("target_model", sort=True))[:targets]:
        verdicts = g[list(judges)].to_numpy(int)
        human = g["human"].to_numpy(int)
        letter = verdicts @ (2 ** np.arange(len(judges) - 1, -1, -1))
        theta = human.mean()
        for share in shares:
            labelled = gen.random((splits, len(human))) < share
            test = np.stack([np.bincount(letter[~lab], minlength=cells) for lab in labelled])
            cal = np.stack([np.stack([np.bincount(letter[lab & (human == h)], minlength=cells)
                                      for h in (0, 1)], -1) for lab in labelled])  # fmt: skip
            if (cal.sum(1) == 0).any():  # a split with no item of a human class: skip it
                keep = (cal.sum(1) > 0).all(-1)
                test, cal = test[keep], cal[keep]
            b = jury_bounds(test, cal, Z)
            width = b["high"] - b["low"]
            mw = b["member_high"] - b["member_low"]
            better = np.nanmin(mw, axis=-1)  # a member may be uninformative in a split: NaN
            lo, hi = profile_t(test, cal)

            def cover(lo_, hi_, theta=theta):  # over the splits where the interval exists
                ok = np.isfinite(lo_) & np.isfinite(hi_)
                return np.mean((lo_[ok] <= theta) & (theta <= hi_[ok]))

            rows.append([
                target, f"{share:.0%}", f"{theta:.3f}",
                f"{int(np.median(cal[..., 0].sum(-1)))}/{int(np.median(cal[..., 1].sum(-1)))}",
                *(f"{np.nanmedian(width / mw[:, j]):.3f}" for j in range(len(judges))),
                f"{np.nanmedian(width / better):.3f}", f"{np.nanmax(width / better):.3f}",
                f"{np.nanmedian(width / (hi - lo)):.3f}", f"{cover(b['low'], b['high']):.2f}",
                f"{cover(b['member_low'][:, 0], b['member_high'][:, 0]):.2f}",
                f"{cover(lo, hi):.2f}", f"{np.mean(b['weights'][:, 0]):.2f}",
                f"{b['fallback'].mean():.2f}",
            ])  # fmt: skip
    head = ["target", "labelled", "θ (all items)", "median m0/m1",
            *(f"jury ÷ {n}" for n in names), "jury ÷ better: median", "jury ÷ better: max",
            "jury ÷ profile-t", "coverage jury", f"coverage {names[0]}", "coverage profile-t",
            f"weight {names[0]}", "fallback share"]  # fmt: skip
    return markdown_table(head, rows)


def arena_rows(splits, shares):
    return real_rows(arena_frame(), ARENA_JUDGES, ARENA_NAMES, splits, shares, 2041)


def nq_rows(splits, shares, targets=None):
    return real_rows(nq_frame(), NQ_JUDGES, NQ_NAMES, splits, shares, 2042, targets)


# ----------------------------------------------------------------------------- repeated items
def clustered_data(gen, *, sens, spec, theta, items, share, rho, item_sd, max_rows=5):
    """Per-item product-letter counts (test (G, 2^J), calibration (G, 2^J, 2)); see Part C."""
    judges = len(sens)
    size = gen.integers(1, max_rows + 1, items)
    g = np.repeat(np.arange(items), size)
    u, w = gen.standard_normal(items), gen.standard_normal(items)
    a = norm.ppf(theta) * np.sqrt(1 + item_sd**2)
    human = (a + item_sd * u[g] + gen.standard_normal(g.size) > 0).astype(int)
    shared = np.sqrt(0.5) * gen.standard_normal((g.size, 1)) + np.sqrt(0.5) * w[g][:, None]
    lat = np.sqrt(rho) * shared + np.sqrt(1 - rho) * gen.standard_normal((g.size, judges))
    acc = np.where(human[:, None] == 1, np.asarray(sens), np.asarray(spec))
    right = lat < norm.ppf(acc)
    letter = np.where(human[:, None] == 1, right, ~right).astype(int) @ (
        2 ** np.arange(judges - 1, -1, -1))
    labelled = (gen.random(items) < share)[g]
    t = np.zeros((items, 2**judges), dtype=np.int64)
    c = np.zeros((items, 2**judges, 2), dtype=np.int64)
    np.add.at(t, (g[~labelled], letter[~labelled]), 1)
    np.add.at(c, (g[labelled], letter[labelled], human[labelled]), 1)
    return t, c


def member_cluster_aw(t, c):
    """Each member's cluster-robust adjusted-Wald interval by ``js.correct`` (the single path)."""
    bits = letter_bits(int(np.log2(t.shape[1])))
    ids = np.arange(len(t))
    out = []
    for j in range(bits.shape[1]):
        says = bits[:, j] == 1
        pos, n = t[:, says].sum(1), t.sum(1)
        tp, fn = c[:, says, 1].sum(1), c[:, ~says, 1].sum(1)
        tn, fp = c[:, ~says, 0].sum(1), c[:, says, 0].sum(1)
        on_t, on_c = n > 0, (tp + fn + tn + fp) > 0
        test = js.JudgedCounts(int(pos.sum()), int(n.sum()), clusters=ClusterTotals(
            ids[on_t], np.stack([pos, n], 1)[on_t], ("positive", "n")))
        cal = js.ConfusionCounts(tp=int(tp.sum()), fn=int(fn.sum()), tn=int(tn.sum()),
                                 fp=int(fp.sum()), clusters=ClusterTotals(
            ids[on_c], np.stack([tp, fn, tn, fp], 1)[on_c], ("tp", "fn", "tn", "fp")))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                ci = js.correct(test, cal, method="adjusted-wald", confidence_level=LEVEL).ci
            except NotInformativeError:  # q̂0 + q̂1 <= 1 in this data set: no interval
                out.append((np.nan, np.nan))
                continue
        out.append((ci.low, ci.high))
    return np.array(out, dtype=float)


def clustered_cell(cell, size, gen):
    theta = cell["theta"]
    hit, hit_b, width, better, fallback, df = [], [], [], [], [], []
    for _ in range(size):
        t, c = clustered_data(gen, **cell)
        b = clustered_jury_bounds(t, c, LEVEL)
        m = member_cluster_aw(t, c)
        w = m[:, 1] - m[:, 0]
        k = int(np.nanargmin(np.where(np.isfinite(w), w, np.inf)))
        hit.append(b["low"] <= theta <= b["high"])
        hit_b.append(m[k, 0] <= theta <= m[k, 1])
        width.append(b["high"] - b["low"])
        better.append(w[k])
        fallback.append(b["fallback"])
        df.append(b["df"])
    width, better = np.array(width), np.array(better)
    return {"coverage jury": np.mean(hit), "coverage better": np.mean(hit_b),
            "jury ÷ better": width.mean() / better.mean(),
            "p95 jury ÷ better": np.quantile(width / np.maximum(better, 1e-12), 0.95),
            "fallback": np.mean(fallback), "df": np.median(df)}  # fmt: skip


def clustered_cells(count, size):
    gen = np.random.default_rng(3940)
    cells = []
    for i in range(count):
        judges = int(gen.integers(2, 5))
        cells.append((f"C{i}", dict(
            sens=tuple(gen.uniform(0.6, 0.95, judges)), spec=tuple(gen.uniform(0.6, 0.95, judges)),
            theta=float(gen.uniform(0.1, 0.9)), items=int(gen.integers(150, 801)),
            share=float(gen.uniform(0.15, 0.5)), rho=float(gen.uniform(0, 0.6)),
            item_sd=float(gen.uniform(0.3, 2.0)))))  # fmt: skip
    for judges in (2, 3):
        sens, spec = zip(*GRID_JUDGES[:judges], strict=True)
        cells.append((f"CG{judges}", dict(sens=sens, spec=spec, theta=0.3, items=400, share=0.3,
                                          rho=0.3, item_sd=1.5)))  # fmt: skip
    run = np.random.default_rng(3941)
    rows = []
    for name, cell in cells:
        fig = clustered_cell(cell, size, run)
        rows.append([name, len(cell["sens"]), f"{cell['theta']:.2f}", f"{cell['rho']:.2f}",
                     f"{cell['item_sd']:.2f}", cell["items"], f"{cell['share']:.2f}",
                     f"{fig['coverage jury']:.3f}", f"{fig['coverage better']:.3f}",
                     f"{fig['jury ÷ better']:.3f}", f"{fig['p95 jury ÷ better']:.3f}",
                     f"{fig['fallback']:.2f}", f"{fig['df']:.0f}"])  # fmt: skip
        print(rows[-1], flush=True)
    head = ["cell", "J", "θ", "ρ", "σ item", "items", "labelled", "coverage jury",
            "coverage better member", "jury ÷ better member", "p95 jury ÷ better",
            "fallback share", "median t df"]  # fmt: skip
    return rows, markdown_table(head, rows)


def nq_clustered(splits, share=0.3):
    """NQ-301 pooled over its systems, cluster=item_id: the jury's coverage of the pooled rate."""
    frame = nq_frame()
    judges = list(NQ_JUDGES)
    theta = frame["human"].mean()
    items = frame["item_id"].unique()
    gen = np.random.default_rng(3942)
    hit, width, better, hit_b, fallback = [], [], [], [], []
    for _ in range(splits):
        labelled = set(items[gen.random(items.size) < share])
        f = frame.assign(model="pooled", human=frame["human"].where(
            frame["item_id"].isin(labelled)))  # fmt: skip
        res = js.evaluate(f, judge=judges, cluster="item_id").corrections["pooled"]
        hit.append(res.ci.low <= theta <= res.ci.high)
        width.append(res.ci.high - res.ci.low)
        with warnings.catch_warnings():  # the members' weak-calibration warnings: measured here
            warnings.simplefilter("ignore")
            alone = [js.evaluate(f, judge=j, cluster="item_id", method="adjusted-wald")
                     .corrections["pooled"].ci for j in judges]  # fmt: skip
        k = int(np.argmin([ci.high - ci.low for ci in alone]))
        better.append(alone[k].high - alone[k].low)
        hit_b.append(alone[k].low <= theta <= alone[k].high)
        fallback.append(res.fallback is not None)
    head = ["data", "splits", "labelled", "θ (all rows)", "coverage jury",
            "coverage better member", "jury ÷ better member: mean", "jury ÷ better: max",
            "fallback share"]  # fmt: skip
    ratio = np.array(width) / np.array(better)
    return markdown_table(head, [[
        "NQ-301, 12 systems pooled, cluster=item_id", splits, f"{share:.0%}", f"{theta:.3f}",
        f"{np.mean(hit):.2f}", f"{np.mean(hit_b):.2f}", f"{np.mean(width) / np.mean(better):.3f}",
        f"{ratio.max():.3f}", f"{np.mean(fallback):.2f}"]])  # fmt: skip


def part_c(quick, describe=False):
    """Part C's tables; ``describe``: with its paragraph of the module docstring first."""
    start = time.perf_counter()
    _, table = clustered_cells(3 if quick else 20, 100 if quick else 1000)
    nq = nq_clustered(10 if quick else 100)
    elapsed = time.perf_counter() - start
    about = next(p for p in __doc__.split("\n\n") if p.startswith("Part C,"))
    return "\n\n".join([
        *([about.strip()] if describe else []),
        "## Part C: repeated items (cluster=), simulation", table,
        "## Part C: NQ-301 pooled over its systems (cluster=item_id)", nq,
        f"Part C run time: {elapsed:.1f} s" + (" (--quick)" if quick else ""),
    ])  # fmt: skip



def main() -> None:
    ap = quick_parser(__doc__.splitlines()[0], "4 + 4 cells, 100 data sets, 5 splits")
    ap.add_argument("--part", choices=("all", "clustered"), default="all",
                    help="'clustered': rerun Part C alone, into the results file")
    args = ap.parse_args()
    quick = args.quick
    if args.part == "clustered":
        path = Path(__file__).resolve().parent / "results" / "jury.md"
        text = path.read_text(encoding="utf-8")
        cut = "\nPart C, repeated" if "\nPart C, repeated" in text else "\n## Part C"
        text = text.split(cut, 1)[0].rstrip()  # Part C (its paragraph and tables) replaced
        path.write_text(text + "\n\n" + part_c(quick, describe=True) + "\n", encoding="utf-8")
        print(f"wrote {path}", flush=True)
        return
    start = time.perf_counter()
    size, profiles = (100, 20) if quick else (1000, 200)
    cells = random_cells(4 if quick else 60, size, profiles) + grid_cells(size, profiles, quick)
    arena = arena_rows(5 if quick else 100, (0.3,) if quick else (0.2, 0.3, 0.6))
    nq = nq_rows(5 if quick else 100, (0.3,) if quick else (0.2, 0.3, 0.6), 3 if quick else None)
    elapsed = time.perf_counter() - start
    body = "\n\n".join([
        __doc__.split("\n\n", 1)[1].rsplit("\nWrites", 1)[0].strip(),
        "## Part A: simulation, by the smallest human class",
        band_table(cells),
        "## Part A: every cell",
        cell_table(cells),
        "## Part B: Chatbot Arena, GPT-4 and GPT-3.5 as a jury (medians over the splits)",
        arena,
        "## Part B: NQ-301, GPT-4, InstructGPT and BEM as a jury (medians over the splits)",
        nq,
        run_time(elapsed, quick),
        part_c(quick),
    ])  # fmt: skip
    publish("jury", "A jury no worse than its better member (issue 39)", body, elapsed)


if __name__ == "__main__":
    main()
