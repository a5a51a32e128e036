"""Repeated items in comparisons (issue 27 §1): leaderboards and bootstrap differences.

K models are judged on N items each, every item k times; the judge's propensity on an item is
Beta with mean q1 (true label 1) or 1 − q0 and intra-item correlation ρ (its k verdicts share
it; every row of an item carries the item's label). Model j's rate is θ_j = θ + j·gap. Two
ways of choosing the items:

* **separate**: each model answers its own N items (ids of its own), drawn as in
  ``bench_repeated.py`` with the cell's kind of labels (constant, raters, epochs);
* **shared**: the K models answer the same N prompts (one id each); a prompt's latent u sets
  every model's truth, y_j = (u < θ_j), so the models' truths on a prompt are strongly
  correlated, and each (model, prompt) has its own judge propensity.

A random m of the items are human-labelled: with a calibration set per model, all the
labelled items' rows of every model are its calibration rows; with one **shared** calibration
set, model 0's rows on the labelled items are it (the other models' rows there are test rows).

Every data set is ranked by ``js.compare.rank`` on counts built with ``cluster=`` (the cluster
bootstrap over the models' joint items, 499 draws) and, for contrast, with the rows counted as
independent items (the joint parametric bootstrap: what the ranking did before). Reported:
the coverage of each model's interval (the ranking's per-model percentile intervals; the
minimum and mean over the K models), the share of data sets in which some pair is put in the
wrong order with P ≥ 0.975 (a confident wrong order), and the coverage of θ_0 − θ_1 by
``js.compare.difference``: the cluster bootstrap, the cluster-aware delta method
(``"adjusted-wald"``) and the rows-as-items bootstrap.

Grid: 12 cells (K in {2, 3, 5}; items separate or shared; calibration per model or shared;
k in {3, 5, 10}; ρ in {0.3, 0.6, 0.9}, varied together) and 12 cells drawn at random (seed
2712: K uniform on 2–5, k on 2–10, ρ on (0.1, 0.9), θ on (0.1, 0.6), gap on (0.02, 0.12),
q0 + q1 on (1.4, 1.9) split uniformly, N on 200–1200 items, m on 60–N/2, the kind of labels,
item sharing and calibration sharing at random; raters only with a calibration set per model:
under raters a row's error rates depend on θ, so one model's calibration set does not transport
to another, and a shared set is then the wrong model, not a sampling question): half the cells
drawn at random. 300 data sets
per cell (--quick: 4 cells, 100 data sets, 199 draws).

Writes benchmarks/results/repeated_compare.md.
Run: python benchmarks/bench_repeated_compare.py [--quick]
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time
from bench_repeated import _beta, draw

import judgestats as js

LEVEL = 0.95


def grid_cells() -> list[dict]:
    out = []
    plan = [(2, "separate", False), (2, "shared", False), (2, "separate", True),
            (2, "shared", True), (3, "separate", False), (3, "shared", False),
            (3, "separate", True), (3, "shared", True), (5, "separate", False),
            (5, "shared", False), (5, "separate", True), (5, "shared", True)]  # fmt: skip
    for i, (models, items, shared) in enumerate(plan):
        out.append({"K": models, "items": items, "shared": shared, "theta": 0.3,
                    "gap": 0.08, "q0": 0.85, "q1": 0.8, "N": 600, "m": 120,
                    "k": (3, 5, 10)[i % 3], "rho": (0.3, 0.6, 0.9)[(i // 3) % 3],
                    "labels": "constant"})  # fmt: skip
    return out


def random_cells(count: int, seed: int = 2712) -> list[dict]:
    gen = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        total = float(gen.uniform(1.4, 1.9))
        q0 = float(gen.uniform(max(total - 1.0, 0.4), min(1.0, total - 0.4)))
        n = int(gen.integers(200, 1201))
        items = str(gen.choice(["separate", "shared"]))
        shared = bool(gen.random() < 0.5)
        out.append({
            "K": int(gen.integers(2, 6)), "items": items, "shared": shared,
            "theta": round(float(gen.uniform(0.1, 0.6)), 3),
            "gap": round(float(gen.uniform(0.02, 0.12)), 3), "q0": round(q0, 3),
            "q1": round(total - q0, 3), "N": n, "m": int(gen.integers(60, n // 2 + 1)),
            "k": int(gen.integers(2, 11)), "rho": round(float(gen.uniform(0.1, 0.9)), 3),
            "labels": str(gen.choice(["constant", "raters", "epochs"]))
            if items == "separate" else "constant",
        })  # fmt: skip
        if shared and out[-1]["labels"] == "raters":  # its row error rates depend on θ
            out[-1]["labels"] = "epochs"
    return out


def _counts(judge, human, ids, test, cal):
    """Clustered test and calibration counts of one model's rows (masks ``test``, ``cal``)."""
    t = js.JudgedCounts.from_labels(judge[test], cluster=ids[test])
    if not cal.any():  # a model without calibration rows (one shared set serves it)
        return t, None
    c = js.ConfusionCounts.from_labels(human=human[cal], judge=judge[cal], cluster=ids[cal])
    return t, c


def leaderboard(gen, cell: dict) -> tuple[dict, dict, np.ndarray]:
    """Clustered tests and calibrations of the K models (and their θ)."""
    thetas = cell["theta"] + cell["gap"] * np.arange(cell["K"])
    n, k, rho = cell["N"], cell["k"], cell["rho"]
    tests, cals = {}, {}
    if cell["items"] == "shared":
        u = gen.random(n)
        labelled = np.zeros(n, bool)
        labelled[gen.choice(n, cell["m"], replace=False)] = True
        lab, ids = np.repeat(labelled, k), np.repeat(np.arange(n), k)
    for j, theta in enumerate(thetas):
        name = f"m{j}"
        if cell["items"] == "shared":
            y = u < theta
            prop = _beta(gen, np.where(y, cell["q1"], 1 - cell["q0"]), rho)
            judge = gen.random(n * k) < np.repeat(prop, k)
            human = np.repeat(y, k)
        else:
            human, judge, item, lab = draw(gen, theta, cell["q0"], cell["q1"], n, cell["m"], k,
                                           rho, cell["labels"])  # fmt: skip
            ids = np.array([f"{name}-{i}" for i in range(n)], dtype=object)[item]
        cal_rows = lab if (not cell["shared"] or j == 0) else np.zeros_like(lab)
        tests[name], cals[name] = _counts(judge, human, ids, ~cal_rows, cal_rows)
    return tests, cals, thetas


def _flat(counts):
    if isinstance(counts, js.JudgedCounts):
        return js.JudgedCounts(counts.positive, counts.n)
    return js.ConfusionCounts(tp=counts.tp, fn=counts.fn, tn=counts.tn, fp=counts.fp)


def _wrong_order(r, thetas) -> bool:
    """Some pair put in the wrong order with bootstrap probability >= 0.975."""
    names = list(r.models)
    return any(r.prob_greater(names[i], names[j]) >= 0.975
               for i in range(len(names)) for j in range(len(names))
               if i != j and thetas[i] < thetas[j])  # fmt: skip


def run_cell(cell: dict, reps: int, boot: int, seed: int) -> dict:
    gen = np.random.default_rng(seed)
    cover = {"aware": [], "rows": []}
    wrong = {"aware": 0, "rows": 0}
    diff = {"boot": 0, "wald": 0, "rows": 0}
    done = 0
    for _ in range(reps):
        tests, cals, thetas = leaderboard(gen, cell)
        cal = cals["m0"] if cell["shared"] else cals
        flat_cal = _flat(cals["m0"]) if cell["shared"] else {k: _flat(c) for k, c in cals.items()}
        flat_tests = {k: _flat(t) for k, t in tests.items()}
        delta = thetas[0] - thetas[1]
        c1 = None if cell["shared"] else cals["m1"]
        f1 = None if cell["shared"] else flat_cal["m1"]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ranks = {"aware": js.compare.rank(tests, cal, n_resamples=boot, rng=gen),
                         "rows": js.compare.rank(flat_tests, flat_cal, n_resamples=boot,
                                                 rng=gen)}  # fmt: skip
                opts = {"shared_calibration": cell["shared"]}
                diffs = {
                    "boot": js.compare.difference(tests["m0"], cals["m0"], tests["m1"], c1,
                                                  method="bootstrap", n_resamples=boot,
                                                  rng=gen, **opts),
                    "wald": js.compare.difference(tests["m0"], cals["m0"], tests["m1"], c1,
                                                  **opts),
                    "rows": js.compare.difference(flat_tests["m0"], _flat(cals["m0"]),
                                                  flat_tests["m1"], f1, method="bootstrap",
                                                  n_resamples=boot, rng=gen, **opts),
                }  # fmt: skip
        except js.JudgeStatsError:  # a calibration set without a class, or a chance judge
            continue
        done += 1
        for key, r in ranks.items():
            cover[key].append([r.ci[f"m{j}"].low <= t <= r.ci[f"m{j}"].high
                               for j, t in enumerate(thetas)])  # fmt: skip
            wrong[key] += _wrong_order(r, thetas)
        for key, d in diffs.items():
            diff[key] += d.ci.low <= delta <= d.ci.high
    per_model = {k: np.mean(v, axis=0) for k, v in cover.items()}
    return {
        "done": done,
        **{f"min_{k}": float(v.min()) for k, v in per_model.items()},
        **{f"mean_{k}": float(v.mean()) for k, v in per_model.items()},
        **{f"wrong_{k}": wrong[k] / max(done, 1) for k in wrong},
        **{f"diff_{k}": diff[k] / max(done, 1) for k in diff},
    }


def main() -> None:
    args = quick_parser(__doc__, "4 cells, 100 data sets, 199 bootstrap draws").parse_args()
    t0 = time.time()
    if args.quick:
        cells = [("grid", c) for c in grid_cells()[1:4]] + [("random", random_cells(1)[0])]
        reps, boot = 100, 199
    else:
        cells = [("grid", c) for c in grid_cells()] + [("random", c) for c in random_cells(12)]
        reps, boot = 300, 499
    rows, results = [], []
    for i, (source, cell) in enumerate(cells):
        r = run_cell(cell, reps, boot, seed=7000 + i)
        results.append((source, r))
        rows.append([
            source, cell["K"], cell["items"], "shared" if cell["shared"] else "per model",
            f"{cell['theta']:g}", f"{cell['gap']:g}", f"{cell['q0']:g}", f"{cell['q1']:g}",
            cell["N"], cell["m"], cell["k"], f"{cell['rho']:g}", cell["labels"], r["done"],
            f"{r['min_aware']:.3f}", f"{r['mean_aware']:.3f}", f"{r['min_rows']:.3f}",
            f"{r['wrong_aware']:.3f}", f"{r['wrong_rows']:.3f}", f"{r['diff_boot']:.3f}",
            f"{r['diff_wald']:.3f}", f"{r['diff_rows']:.3f}",
        ])  # fmt: skip
        print(rows[-1], flush=True)
    summary = []
    for source in ("grid", "random"):
        rs = [r for s, r in results if s == source]
        if rs:
            summary.append([
                source, len(rs), f"{min(r['min_aware'] for r in rs):.3f}",
                f"{np.mean([r['mean_aware'] for r in rs]):.3f}",
                f"{np.mean([r['mean_rows'] for r in rs]):.3f}",
                f"{max(r['wrong_aware'] for r in rs):.3f}",
                f"{min(r['diff_boot'] for r in rs):.3f}",
                f"{min(r['diff_wald'] for r in rs):.3f}",
                f"{min(r['diff_rows'] for r in rs):.3f}",
            ])  # fmt: skip
    body = __doc__.split("Writes")[0].strip() + "\n\n## Summary\n\n" + markdown_table(
        ["cells", "count", "min model coverage (cluster rank)",
         "mean model coverage (cluster rank)", "mean model coverage (rows as items)",
         "max confident wrong order (cluster rank)", "min Δ coverage cluster bootstrap",
         "min Δ coverage cluster delta", "min Δ coverage rows-as-items bootstrap"], summary,
    )  # fmt: skip
    body += "\n\n## Every cell\n\n" + markdown_table(
        ["cells", "K", "items", "calibration", "θ", "gap", "q0", "q1", "items N",
         "labelled m", "k", "ρ", "labels", "data sets", "min model coverage (cluster)",
         "mean model coverage (cluster)", "min model coverage (rows)",
         "confident wrong order (cluster)", "confident wrong order (rows)",
         "Δ coverage cluster bootstrap", "Δ coverage cluster delta",
         "Δ coverage rows bootstrap"], rows,
    )  # fmt: skip
    body += "\n\n" + run_time(time.time() - t0, args.quick)
    publish("repeated_compare", "Repeated items: leaderboards and bootstrap differences", body,
            time.time() - t0)  # fmt: skip


if __name__ == "__main__":
    main()
