"""``method="auto"`` as the default under the paper's design (issue 38 §3): coverage and warnings.

The issue makes ``method="auto"`` (adjusted-Wald, or the hull of adjusted-Wald and profile-map
where adjusted-Wald may miss: :mod:`judgestats.auto`) the default of ``js.correct`` under
``design="by-human-label"``, and asks, on a random grid drawn and committed before any result
was looked at:

* (a) the default covers >= 0.93 in every cell, repeated-item cells included;
* (b) each warning (and each note of the summary and report) fires on <= 5% of the data sets
  of every cell where the default covers >= 0.945;
* the width the default pays: mean width of auto over mean width of adjusted-Wald.

The grid (seed 3801, new: seeds 2711-2713 were issue 27's; ``grid()`` below, written to
``benchmarks/results/auto_default_grid.csv`` and committed before the first run): issue 27
§2's ranges.

* 160 cells of independent rows: θ ~ U(0.02, 0.98); q0 + q1 = s with the split q1 ~ U(s − 1,
  1); the first 40 a near-chance judge (s ~ U(1.02, 1.2)) with 100–1,000 calibration items
  per human class, the rest s ~ U(1.02, 1.98) with 10–1,000 per class; m0, m1 and n
  (100–20,000) log-uniform. 1,000 data sets per cell, drawn by :func:`judgestats.simulate.draw`
  (the paper's design: m0 and m1 fixed).
* 40 cells of repeated items (``cluster=``), drawn as in ``bench_repeated.py`` (each item's
  judge propensity Beta with intra-item correlation ρ, k verdicts per item, a random m of the
  N items human-labelled; labels constant per item, from raters or from epochs): θ, s and the
  split as above (the first 10 near-chance); N ~ log-U(200, 3,000) items; m ~ log-U(40,
  N/2) labelled items (near-chance cells: N ~ log-U(400, 3,000), m ~ log-U(200, N/2));
  k ~ U{2, ..., 10}; ρ ~ U(0.05, 0.9); the kind of labels at random. 400 data sets per cell,
  each analysed by ``js.correct`` on counts built with ``cluster=`` (where auto applies its
  rule at the effective sizes: the hull of the cluster-robust adjusted-Wald interval and
  profile-map on the effective counts where a class has fewer than 100 effective items or
  profile-map reaches outside; ``--only items`` re-runs this tier alone).

A data set on which the paper's interval refuses (q̂0 + q̂1 <= 1 or q̃0 + q̃1 <= 1:
``NotInformativeError``, which auto keeps) or, with repeated items, whose calibration lacks a
human class, is left out of coverage and of the warning rates (its count is shown: it already
says loudly that there is no answer).

Independent rows are computed in batches (adjusted-Wald and profile-map bounds of all data
sets at once, auto's rule applied as :func:`judgestats.auto.choose` does); on the first 3
answerable data sets of every cell ``js.correct(method="auto")`` is run as a user would and
its interval, method and warnings compared with the batch (column "checked": agreements).

The warnings and notes counted (under the default; beside it, the old default's
``WeakCalibrationWarning``):

* ``WeakCalibrationWarning``: the answering method's weak rule (adjusted-Wald: a human class
  under 100 items, with repeated items under 100 *effective* items); auto answers with the
  hull there (with repeated items too), so it does not warn (the result says "widened");
* near chance: the Agresti–Caffo interval of q0 + q1 − 1 reaches 0 (``res.judge.near_chance``,
  a note of the summary and report; at the effective sizes with repeated items);
* ``ClippedEstimateWarning``: the Rogan–Gladen estimate outside [0, 1] (a statement of fact
  about the estimate, not of coverage: it fires wherever θ is near 0 or 1 or the judge weak).

Writes benchmarks/results/auto_default.md.
Run: python benchmarks/bench_auto_default.py [--quick] [--write-grid] [--only rows|items]
[--recheck I]
"""

from __future__ import annotations

import csv
import time
import warnings
from pathlib import Path

import numpy as np
from _common import RESULTS, machine, markdown_table, publish, quick_parser, run_time
from bench_repeated import counts as cluster_counts
from bench_repeated import draw as cluster_draw

import judgestats as js
from judgestats.auto import WIDENED, widens
from judgestats.chance import youden_interval
from judgestats.intervals import HULL, MIN_PER_CLASS, compute_bounds
from judgestats.simulate import draw

LEVEL = 0.95
SEED = 3801
GRID = Path(__file__).resolve().parent / "results" / "auto_default_grid.csv"  # committed
CELLS, WEAK_CELLS, CLUSTER_CELLS, CLUSTER_WEAK = 160, 40, 40, 10
CHECKED = 3  # data sets per cell run through js.correct as a user would
FIELDS = ("kind", "theta", "q0", "q1", "n", "m0", "m1", "items", "m", "k", "rho", "labels")


def grid(seed: int = SEED) -> list[dict]:
    """The random cells, independent rows first (the first WEAK_CELLS near chance)."""
    g = np.random.default_rng(seed)
    out = []

    def judge(weak: bool) -> tuple[float, float, float]:
        theta = g.uniform(0.02, 0.98)
        s = g.uniform(1.02, 1.2) if weak else g.uniform(1.02, 1.98)
        q1 = g.uniform(s - 1.0, 1.0)
        return round(theta, 4), round(s - q1, 4), round(q1, 4)

    def log_uniform(lo: float, hi: float) -> int:
        return int(np.exp(g.uniform(np.log(lo), np.log(hi))))

    for i in range(CELLS):
        weak = i < WEAK_CELLS
        theta, q0, q1 = judge(weak)
        m0, m1 = (log_uniform(100 if weak else 10, 1000) for _ in range(2))
        out.append({"kind": "rows", "theta": theta, "q0": q0, "q1": q1,
                    "n": log_uniform(100, 20000), "m0": m0, "m1": m1})  # fmt: skip
    for i in range(CLUSTER_CELLS):
        weak = i < CLUSTER_WEAK
        theta, q0, q1 = judge(weak)
        items = log_uniform(400 if weak else 200, 3000)
        m = log_uniform(200 if weak else 40, items // 2)
        out.append({"kind": "items", "theta": theta, "q0": q0, "q1": q1, "items": items,
                    "m": m, "k": int(g.integers(2, 11)), "rho": round(g.uniform(0.05, 0.9), 3),
                    "labels": str(g.choice(["constant", "raters", "epochs"]))})  # fmt: skip
    return out


def write_grid(cells: list[dict]) -> Path:
    with GRID.open("w", newline="") as fh:
        w = csv.DictWriter(fh, FIELDS)
        w.writeheader()
        w.writerows(cells)
    return GRID


def read_grid() -> list[dict]:
    """The committed grid (checked to be ``grid(SEED)``: drawn once, before any result)."""
    with GRID.open() as fh:
        rows = list(csv.DictReader(fh))
    drawn = grid()
    for row, cell in zip(rows, drawn, strict=True):
        for key, value in cell.items():
            if str(value) != row[key]:
                raise SystemExit(f"{GRID} differs from grid({SEED}) at {key}: {row[key]}")
    return drawn


def _rows_cell(cell: dict, reps: int, seed: int) -> dict:
    """Coverage, widths and note rates of one cell of independent rows."""
    gen = np.random.default_rng(seed)
    theta = cell["theta"]
    d = draw(theta=theta, q0=cell["q0"], q1=cell["q1"], n=cell["n"], m0=cell["m0"],
             m1=cell["m1"], reps=reps, rng=gen)  # fmt: skip
    t, c = d.test, d.calibration
    with warnings.catch_warnings():  # the batch's own warnings are not the user's
        warnings.simplefilter("ignore")
        aw = compute_bounds(t, c, method="adjusted-wald", confidence_level=LEVEL)
        pm = compute_bounds(t, c, method="profile-map", confidence_level=LEVEL)
    q0, q1 = c.tn / c.m0, c.tp / c.m1
    ok = d.valid & (q0 + q1 > 1) & np.isfinite(aw.low) & np.isfinite(aw.high)
    a_lo, a_hi = np.asarray(aw.low, float), np.asarray(aw.high, float)
    p_lo, p_hi = np.asarray(pm.low, float), np.asarray(pm.high, float)
    widened = widens(c, aw, pm)  # auto's rule (judgestats.auto.choose), on the batch
    lo = np.where(widened, np.minimum(a_lo, p_lo), a_lo)
    hi = np.where(widened, np.maximum(a_hi, p_hi), a_hi)
    raw = (t.positive / t.n + q0 - 1) / np.where(q0 + q1 > 1, q0 + q1 - 1, np.nan)
    _, y_lo, _ = youden_interval(c, LEVEL)
    notes = {
        "weak": np.zeros(reps, bool) | (~widened & (min(cell["m0"], cell["m1"]) < MIN_PER_CLASS)),
        "near": np.asarray(y_lo) <= 0.0,
        "clipped": (raw < 0) | (raw > 1),
        "weak_aw": np.full(reps, min(cell["m0"], cell["m1"]) < MIN_PER_CLASS),
    }
    agree = _check(t, c, ok, lo, hi, widened, notes)
    return _summary(theta, ok, (lo, hi), (a_lo, a_hi), widened, notes, agree)


def _check(t, c, ok, lo, hi, widened, notes) -> int:
    """How many of the first CHECKED answerable data sets ``js.correct`` answers as the batch."""
    agree = 0
    for i in np.flatnonzero(ok)[:CHECKED]:
        test = js.JudgedCounts(int(t.positive[i]), int(t.n))
        cal = js.ConfusionCounts(tp=int(c.tp[i]), fn=int(c.fn[i]), tn=int(c.tn[i]),
                                 fp=int(c.fp[i]))  # fmt: skip
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = js.correct(test, cal, method="auto", design="by-human-label")
        weak = any(issubclass(w.category, js.WeakCalibrationWarning) for w in caught)
        agree += bool(
            np.isclose(res.ci.low, lo[i], atol=1e-9) and np.isclose(res.ci.high, hi[i], atol=1e-9)
            and (res.method == HULL) == widened[i] and weak == notes["weak"][i]
            and res.judge.near_chance == notes["near"][i]
        )  # fmt: skip
    return agree


def _summary(theta, ok, auto, paper, widened, notes, agree) -> dict:
    done = int(ok.sum())
    cover = {k: float(((lo <= theta) & (theta <= hi))[ok].mean()) if done else np.nan
             for k, (lo, hi) in (("auto", auto), ("aw", paper))}  # fmt: skip
    width = {k: float((hi - lo)[ok].mean()) if done else np.nan
             for k, (lo, hi) in (("auto", auto), ("aw", paper))}  # fmt: skip
    out = {"done": done, "cov_auto": cover["auto"], "cov_aw": cover["aw"],
           "ratio": width["auto"] / width["aw"] if done else np.nan,
           "widened": float(np.asarray(widened)[ok].mean()) if done else np.nan,
           "agree": agree}  # fmt: skip
    for key, fired in notes.items():
        out[key] = float(np.asarray(fired)[ok].mean()) if done else np.nan
    # unwarned coverage (criterion (a) of issue 27: the data sets the default is silent on)
    silent = ok & ~notes["weak"] & ~notes["near"]
    out["silent"] = int(silent.sum())
    lo, hi = auto
    out["cov_silent"] = float(((lo <= theta) & (theta <= hi))[silent].mean()) if silent.any() \
        else np.nan  # fmt: skip
    return out


def _items_cell(cell: dict, reps: int, seed: int) -> dict:
    """The same figures for a cell of repeated items, one ``js.correct`` per data set.

    The paper's interval here is the cluster-robust adjusted-Wald one (``res.paper_ci`` where
    auto widened, else ``res.ci``); "weak under AW" is where its class-size rule on effective
    items fires (what ``WeakCalibrationWarning`` said while auto answered with it).
    """
    gen = np.random.default_rng(seed)
    theta = cell["theta"]
    args = (theta, cell["q0"], cell["q1"], cell["items"], cell["m"], cell["k"], cell["rho"],
            cell["labels"])  # fmt: skip
    hits = {"auto": [], "aw": [], "rows": []}
    widths: dict[str, list] = {"auto": [], "aw": []}
    notes: dict[str, list] = {"weak": [], "near": [], "clipped": [], "widened": [], "weak_aw": []}
    skipped = agree = 0
    for _ in range(reps):
        data = cluster_draw(gen, *args)
        ct, cc = cluster_counts(*data, clustered=True)
        ft, fc = cluster_counts(*data, clustered=False)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                res = js.correct(ct, cc, method="auto", design="by-human-label")
                flat = js.correct(ft, fc, method="adjusted-wald", design="by-human-label")
            except js.JudgeStatsError:  # refused (near chance) or a human class missing
                skipped += 1
                continue
        weak = any(issubclass(w.category, js.WeakCalibrationWarning)
                   and "effective" in str(w.message) for w in caught)  # fmt: skip
        paper = res.ci if res.paper_ci is None else res.paper_ci
        for key, ci in (("auto", res.ci), ("aw", paper), ("rows", flat.ci)):
            hits[key].append(ci.low <= theta <= ci.high)
        widths["auto"].append(res.ci.high - res.ci.low)
        widths["aw"].append(paper.high - paper.low)
        widened = res.paper_ci is not None
        notes["weak"].append(weak)
        notes["near"].append(bool(res.judge.near_chance))
        notes["clipped"].append(bool(res.clipped))
        notes["widened"].append(widened)
        notes["weak_aw"].append(min(res.clusters.class_sizes) < MIN_PER_CLASS)
        agree += (res.method == (HULL if widened else "adjusted-wald")
                  and res.chosen_by.startswith(WIDENED) == widened)  # fmt: skip
    done = len(hits["auto"])
    out: dict = {"done": done, "skipped": skipped, "agree": agree}
    for key, h in hits.items():
        out[f"cov_{key}"] = float(np.mean(h)) if done else np.nan
    out["ratio"] = float(np.mean(widths["auto"]) / np.mean(widths["aw"])) if done else np.nan
    for key, fired in notes.items():
        out[key] = float(np.mean(fired)) if done else np.nan
    silent = ~np.array(notes["weak"], bool) & ~np.array(notes["near"], bool)
    out["silent"] = int(silent.sum())
    out["cov_silent"] = float(np.array(hits["auto"])[silent].mean()) if silent.any() else np.nan
    return out


def _f(x: float, digits: int = 3) -> str:
    return "–" if x is None or not np.isfinite(x) else f"{x:.{digits}f}"


def _rate_table(results: list[tuple[dict, dict]], keys: list[tuple[str, str]]) -> str:
    """Per warning: cells where the default covers >= 0.945, the worst and mean firing rate
    there, and how many such cells exceed 5%."""
    good = [r for _, r in results if np.isfinite(r["cov_auto"]) and r["cov_auto"] >= 0.945]
    rows = []
    for key, name in keys:
        rates = np.array([r[key] for r in good])
        rows.append([name, len(good), _f(rates.max() if rates.size else np.nan),
                     _f(rates.mean() if rates.size else np.nan), int((rates > 0.05).sum()),
                     "yes" if rates.size and rates.max() <= 0.05 else "no"])  # fmt: skip
    return markdown_table(["warning or note", "cells covering >= 0.945", "max rate",
                           "mean rate", "cells > 5%", "meets (b)"], rows)  # fmt: skip


TITLE = "method='auto' as the default under the paper's design (issue 38 §3)"
#: Where the repeated-items part of the results file begins (``--only items`` rewrites it).
ITEMS = "## Repeated items (`cluster=`)"


def main() -> None:
    parser = quick_parser(__doc__, "24 + 6 cells, 150 and 60 data sets")
    parser.add_argument("--write-grid", action="store_true",
                        help="write the grid file and stop (done once, before any result)")
    parser.add_argument("--only", choices=("rows", "items"),
                        help="run one tier; 'items' rewrites only the repeated-items part of "
                        "the results file (from its heading on)")  # fmt: skip
    parser.add_argument("--recheck", type=int, metavar="I",
                        help="re-run repeated-items cell I (0-39) on 1,600 fresh data sets "
                        f"(seeds {SEED * 3000} + I) and print its figures: a cell's Monte "
                        "Carlo noise, not a new grid")  # fmt: skip
    args = parser.parse_args()
    if args.write_grid:
        print(f"wrote {write_grid(grid())}")
        return
    if args.recheck is not None:
        cell = [c for c in read_grid() if c["kind"] == "items"][args.recheck]
        print(cell, _items_cell(cell, 1600, seed=SEED * 3000 + args.recheck))
        return
    t0 = time.time()
    cells = read_grid()
    rows_cells = [c for c in cells if c["kind"] == "rows"] if args.only != "items" else []
    item_cells = [c for c in cells if c["kind"] == "items"] if args.only != "rows" else []
    if args.quick:  # near-chance and ordinary cells of both kinds
        rows_cells = rows_cells[:6] + rows_cells[WEAK_CELLS:WEAK_CELLS + 18]
        item_cells = item_cells[:2] + item_cells[CLUSTER_WEAK:CLUSTER_WEAK + 4]
    reps_rows, reps_items = (150, 60) if args.quick else (1000, 400)
    res_rows, res_items = [], []
    for i, cell in enumerate(rows_cells):
        res_rows.append((cell, _rows_cell(cell, reps_rows, seed=SEED * 1000 + i)))
        print(f"rows cell {i + 1}/{len(rows_cells)}", flush=True)
    t1 = time.time()
    for i, cell in enumerate(item_cells):
        res_items.append((cell, _items_cell(cell, reps_items, seed=SEED * 2000 + i)))
        print(f"items cell {i + 1}/{len(item_cells)}", flush=True)
    parts = []
    if res_rows:
        parts.append(report(res_rows, reps_rows, args.quick) + "\n\n"
                     + run_time(t1 - t0, args.quick).replace("Run time", "Run time (rows)"))
    if res_items:
        parts.append(report_items(res_items, reps_items)
                     + run_time(time.time() - t1, args.quick).replace("Run time", "Run time"
                                                                      " (repeated items)"))
    body = "\n\n".join(parts)
    print(body)
    path = RESULTS / "auto_default.md"
    if args.only == "items" and path.exists() and ITEMS in path.read_text():
        head = path.read_text().split(ITEMS)[0]
        path.write_text(head + body.rstrip() + "\n")
        print(f"rewrote the repeated-items part of {path} in {time.time() - t0:.1f} s")
        return
    publish("auto_default", TITLE, body, time.time() - t0)


def _coverage_table(results: list[tuple[dict, dict]], name: str, paper: str) -> str:
    """Worst coverage of auto (with its Monte Carlo s.e.) and of the paper's interval."""
    cov_a = np.array([r["cov_auto"] for _, r in results])
    cov_w = np.array([r["cov_aw"] for _, r in results])
    done = np.array([r["done"] for _, r in results])
    ratio = np.array([r["ratio"] for _, r in results])
    worst = int(np.nanargmin(cov_a))
    se = np.sqrt(cov_a[worst] * (1 - cov_a[worst]) / done[worst])
    return markdown_table(
        ["cells", "auto: min coverage", "its s.e.", "cells < 0.93", f"{paper}: min",
         "cells < 0.93", "width auto / AW: median", "max"],
        [[name, _f(cov_a[worst]), _f(se), int((cov_a < 0.93).sum()), _f(np.nanmin(cov_w)),
          int((cov_w < 0.93).sum()), _f(np.nanmedian(ratio), 2), _f(np.nanmax(ratio), 2)]],
    )  # fmt: skip


def report(res_rows, reps_rows, quick: bool) -> str:
    """The independent rows' tables: the criteria first, then every cell."""
    checked = sum(r["agree"] for _, r in res_rows)
    lines = [
        f"Grid: seed {SEED}, {len(res_rows)} cells of independent rows ({reps_rows} data sets "
        f"each) and {CLUSTER_CELLS} cells of repeated items (below); ranges in the script's "
        "docstring, cells in `auto_default_grid.csv` (committed before the first run).",
        "",
        "## Coverage of the default",
        "",
        _coverage_table(res_rows, "independent rows", "adjusted-Wald"),
        "",
        f"`js.correct(method='auto')` run as a user would on {CHECKED} data sets per cell of "
        f"independent rows agreed with the batch (interval, method, warning, near-chance note) "
        f"on {checked} of {CHECKED * len(res_rows)}.",
        "",
        "## Warning rates where the default covers >= 0.945 (criterion (b): <= 5%)",
        "",
        _rate_table(res_rows, [("weak", "WeakCalibrationWarning (default auto)"),
                               ("near", "near chance (note)"),
                               ("clipped", "ClippedEstimateWarning"),
                               ("weak_aw", "WeakCalibrationWarning under adjusted-Wald "
                                "(the old default)"), ("widened", "auto widened (information)")]),
        "",
        "## Every cell: independent rows",
        "",
        markdown_table(
            ["θ", "q0", "q1", "n", "m0", "m1", "answered", "auto", "AW", "width ratio",
             "widened", "weak", "near", "clipped", "weak under AW", "silent: coverage", "checked"],
            [[c["theta"], c["q0"], c["q1"], c["n"], c["m0"], c["m1"], r["done"],
              _f(r["cov_auto"]), _f(r["cov_aw"]), _f(r["ratio"], 2), _f(r["widened"], 2),
              _f(r["weak"], 2), _f(r["near"], 2), _f(r["clipped"], 2), _f(r["weak_aw"], 2),
              _f(r["cov_silent"]), f"{r['agree']}/{CHECKED}"] for c, r in res_rows],
        ),
    ]
    if quick:
        lines.insert(0, "**Quick tier** (a subset of the grid; the full tier is the claim).\n")
    return "\n".join(lines)


def report_items(res_items, reps_items) -> str:
    """The repeated items' part (from :data:`ITEMS` on): criteria, then every cell."""
    agree = sum(r["agree"] for _, r in res_items)
    done = sum(r["done"] for _, r in res_items)
    return "\n".join([
        ITEMS,
        "",
        f"Measured on: {machine()}",
        "",
        f"Grid: the {len(res_items)} cells of repeated items of seed {SEED} "
        f"(`auto_default_grid.csv`), {reps_items} data sets each, seeds {SEED * 2000} + cell. "
        "Auto applies its rule at the effective sizes: it answers with the hull of the "
        "cluster-robust adjusted-Wald interval and profile-map at the effective counts "
        "(`ClusterSummary.effective_counts`) where a human class has fewer than 100 effective "
        "items or profile-map reaches more than 0.1 of the adjusted-Wald width outside it; "
        "\"AW\" is the cluster-robust adjusted-Wald interval alone (what auto answered with "
        "before).",
        "",
        _coverage_table(res_items, "repeated items", "cluster-robust adjusted-Wald"),
        "",
        f"Method and `chosen_by` agree with `paper_ci` (widened or not) on {agree} of {done} "
        "answered data sets.",
        "",
        "Warning rates where the default covers >= 0.945 (criterion (b): <= 5%):",
        "",
        _rate_table(res_items, [("weak", "WeakCalibrationWarning (effective items)"),
                                ("near", "near chance (note, effective sizes)"),
                                ("clipped", "ClippedEstimateWarning"),
                                ("weak_aw", "WeakCalibrationWarning under cluster-robust "
                                 "adjusted-Wald (the old answer)"),
                                ("widened", "auto widened (information)")]),
        "",
        "### Every cell: repeated items",
        "",
        markdown_table(
            ["θ", "q0", "q1", "items", "labelled", "k", "ρ", "labels", "answered", "refused",
             "auto", "s.e.", "AW (cluster-robust)", "rows as items", "width ratio", "widened",
             "weak", "weak under AW", "near", "clipped", "silent: coverage"],
            [[c["theta"], c["q0"], c["q1"], c["items"], c["m"], c["k"], c["rho"], c["labels"],
              r["done"], r["skipped"], _f(r["cov_auto"]),
              _f(np.sqrt(r["cov_auto"] * (1 - r["cov_auto"]) / max(r["done"], 1))),
              _f(r["cov_aw"]), _f(r["cov_rows"]), _f(r["ratio"], 2), _f(r["widened"], 2),
              _f(r["weak"], 2), _f(r["weak_aw"], 2), _f(r["near"], 2), _f(r["clipped"], 2),
              _f(r["cov_silent"])] for c, r in res_items],
        ),
        "",
        "",
    ])  # fmt: skip


if __name__ == "__main__":
    main()
