"""The score path's Wald interval at a rare θ, before and after the rare-class adjustment.

``js.scores.correct_scores`` answers with the PPI++ mean and its Wald interval
(:func:`judgestats.scores.prediction_powered.fit_ppi`). With few labelled items of one human
class PPI++'s variance is too small; the adjustment (``fit_ppi(..., rare_adjust=True)``, one
home for the score path and the jury's stack) takes, where a human class has fewer than 20
labelled items, the larger of PPI++'s variance and PPI++'s with two pseudo-labels of each human
class at the labelled rows' mean prediction (λ held). (Without that gate, measured first on
this grid, the pseudo-labels cost 1.02–1.04× the width at θ = 0.3–0.5 with 200–400 labels,
where the interval already covered; at the classes' own mean predictions instead they cost
nothing there but left the rare cells at 0.90–0.92.)
Each data set is cross-fitted once (the score path's own ``cross_fit``) and both intervals
are read from that one fit, so "before" and "after" differ only in the variance.

* Part A, the planned grid: θ ∈ {0.03, 0.05, 0.1, 0.3, 0.5} × labels ∈ {100, 200, 400};
  an informative score s = logistic(a·(2y − 1) + ε), a = 2, ε ~ N(0, 1); 20% of the rows
  labelled; the isotonic calibrator (the default) and the logistic one; and clustered
  (isotonic, 3 rows per item, y constant within an item, the labelled items' rows all
  labelled).
* Part B, 8 cells drawn at random (seed [4101, 1]): θ ~ U(0.02, 0.5), labels ~ log-U(100,
  500), a ~ U(1, 3), σ ~ U(0.3, 1.5), share ~ U(0.05, 0.5), half clustered (k ~ U{2, …, 4}),
  the calibrator alternating.
* Part C, the ≤ 2% rule: a score that carries nothing beyond its letter (the letter right with
  probability c ~ U(0.7, 0.95) for both classes, s = letter + N(0, σ²), σ ~ U(0.05, 1)),
  labels ≥ 100: the adjusted interval's width ÷ the letter estimator's
  (``js.correct(design="random")`` on s > 0.5), 6 cells drawn at random (seed [4101, 2]),
  θ ~ U(0.03, 0.5), labels ~ log-U(100, 500), share ~ U(0.05, 0.5).

* Part D, the ≤ 2% rule on ``bench_scores.py``'s own grid (seed 3902): its "letter only"
  cells with ≥ 100 labels (17), 100 data sets each, the adjusted width ÷ the letter
  estimator's (``benchmarks/results/scores.md`` read max 1.017 before the adjustment).

300 data sets per cell in parts A and B (s.e. of a 0.95 coverage 0.013; a cell of A or B read
below 0.93 after is re-run on 1,000 fresh data sets, seed [4101, 10, i]), 150 in part C;
seed [4101, part, cell]. Quick mode: 3 cells of A, 2 of B, 1 of C, 1 of D, 40 data sets each.

Writes benchmarks/results/scores_rare.md.
Run: python benchmarks/bench_scores_rare.py [--quick]
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import markdown_table, publish, quick_parser
from _scores_data import draw_scores, letter_correction

import judgestats as js
from judgestats.kernels import z_value
from judgestats.scores.calibration import cross_fit
from judgestats.scores.prediction_powered import fit_ppi

SEED = 4101
Z = float(z_value(0.95))


def grid_a(quick: bool) -> list[dict]:
    """The planned cells."""
    cells = []
    for theta in (0.03, 0.05, 0.1, 0.3, 0.5):
        for n_lab in (100, 200, 400):
            for cal, k in (("isotonic", 1), ("logistic", 1), ("isotonic", 3)):
                cells.append({"theta": theta, "n_lab": n_lab, "share": 0.2, "a": 2.0,
                              "sigma": 1.0, "k": k, "calibrator": cal, "kind": "informative"})
    if quick:
        return [c for c in cells if c["n_lab"] == 200 and c["theta"] == 0.05]
    return cells


def grid_random(part: int, count: int, letter_only: bool) -> list[dict]:
    """Cells drawn from [SEED, part]."""
    rng = np.random.default_rng([SEED, part])
    cells = []
    for i in range(count):
        cells.append({
            "theta": float(rng.uniform(0.03, 0.5) if letter_only else rng.uniform(0.02, 0.5)),
            "n_lab": int(np.exp(rng.uniform(np.log(100), np.log(500)))),
            "share": float(rng.uniform(0.05, 0.5)),
            "a": float(rng.uniform(1, 3)),
            "sigma": float(rng.uniform(0.05, 1) if letter_only else rng.uniform(0.3, 1.5)),
            "acc": float(rng.uniform(0.7, 0.95)),
            "k": 1 if letter_only or i % 2 == 0 else int(rng.integers(2, 5)),
            "calibrator": "isotonic" if letter_only or i % 4 < 2 else "logistic",
            "kind": "letter only" if letter_only else "informative",
        })  # fmt: skip
    return cells


def draw(cell: dict, rng: np.random.Generator) -> tuple:
    """One data set: scores, 0/1 truth per row, labelled mask, item ids (_scores_data)."""
    s, y, labelled, items = draw_scores(cell, rng)
    return s, y.astype(float), labelled, items


def intervals(cell: dict, s, y, labelled, items, seed: int) -> tuple:
    """(before, after) intervals from one cross-fit, as ``correct_scores`` builds them."""
    clustered = cell["k"] > 1
    yl = y[labelled]
    lab_items = items[labelled] if clustered else np.arange(yl.size)
    fit = cross_fit(s[labelled], yl, s[~labelled], lab_items, calibrator=cell["calibrator"],
                    folds=5, bins=None, rng=np.random.default_rng(seed))  # fmt: skip
    args = {"items_lab": items[labelled], "items_unl": items[~labelled]} if clustered else {}
    out = []
    for adjust in (False, True):
        ppi = fit_ppi(yl, fit.labelled, fit.unlabelled, rare_adjust=adjust, **args)
        half = Z * np.sqrt(ppi.variance)
        out.append((max(ppi.estimate - half, 0.0), min(ppi.estimate + half, 1.0)))
    return tuple(out)


def run_cell(cell: dict, reps: int, seed: list, letter: bool = False) -> dict:
    """Coverage and mean width before/after (and the letter estimator's width)."""
    rng = np.random.default_rng(seed)
    hit, width = np.zeros(2), np.zeros(2)
    letter_width = 0.0
    for r in range(reps):
        s, y, lab, items = draw(cell, rng)
        for j, (lo, hi) in enumerate(intervals(cell, s, y, lab, items, r)):
            hit[j] += lo <= cell["theta"] <= hi
            width[j] += hi - lo
        if letter:
            let = (s > 0.5).astype(int)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # measured, not shown
                res = letter_correction(let, y[lab], lab, items if cell["k"] > 1 else None)
            letter_width += min(res.ci.high, 1) - max(res.ci.low, 0)
    return {"before": hit[0] / reps, "after": hit[1] / reps, "w_before": width[0] / reps,
            "w_after": width[1] / reps, "w_letter": letter_width / reps}  # fmt: skip


def scores_grid(quick: bool) -> list[dict]:
    """``bench_scores.py``'s letter-only cells with at least 100 labels."""
    import bench_scores

    cells = [dict(c, calibrator="isotonic", a=float("nan"))
             for c in bench_scores.grid(False)
             if c["kind"] == "letter only" and c["n_lab"] >= 100]  # fmt: skip
    return cells[:1] if quick else cells


def check_public(cell: dict, seed: int) -> None:
    """The benchmark's "after" is what ``correct_scores`` answers (one data set)."""
    s, y, lab, items = draw(cell, np.random.default_rng([SEED, 99, seed]))
    human = np.where(lab, y, np.nan)
    res = js.scores.correct_scores(s, human, cluster=items if cell["k"] > 1 else None,
                                   calibrator=cell["calibrator"], rng=7)  # fmt: skip
    after = intervals(cell, s, y, lab, items, 7)[1]
    assert np.allclose((res.ci.low, res.ci.high), after, rtol=1e-12), (res.ci, after)


def rerun(cells: list, results: list) -> list:
    """Cells read below 0.93 after, re-run on 1,000 fresh data sets (s.e. 0.007)."""
    rows = []
    for i, (cell, res) in enumerate(zip(cells, results, strict=True)):
        if res["after"] < 0.93:
            rows += _rows([cell], [run_cell(cell, 1000, [SEED, 10, i])])
    return rows


def _rows(cells: list, results: list) -> list:
    return [[f"{c['theta']:.3f}", c["n_lab"], f"{c['share']:.2f}", c["k"], c["calibrator"],
             f"{c['a']:.2f}", f"{c['sigma']:.2f}", f"{r['before']:.3f}", f"{r['after']:.3f}",
             f"{r['w_after'] / r['w_before']:.3f}"]
            for c, r in zip(cells, results, strict=True)]  # fmt: skip


HEADER = ["θ", "labels", "share", "rows/item", "calibrator", "a", "σ", "coverage before",
          "coverage after", "width after ÷ before"]


def claims(cells: list, results: list) -> str:
    """The before/after statements over the cells they are about."""
    below = [(c, r) for c, r in zip(cells, results, strict=True) if r["before"] < 0.93]
    fine = [(c, r) for c, r in zip(cells, results, strict=True)
            if c["theta"] >= 0.3 and c["n_lab"] >= 200]  # fmt: skip
    lines = [f"- {len(cells)} cells; coverage before: min "
             f"{min(r['before'] for r in results):.3f}, after: min "
             f"{min(r['after'] for r in results):.3f}"]  # fmt: skip
    if below:
        lines.append(f"- the {len(below)} cells below 0.93 before: after "
                     f"{min(r['after'] for _, r in below):.3f}–"
                     f"{max(r['after'] for _, r in below):.3f}, width "
                     f"{min(r['w_after'] / r['w_before'] for _, r in below):.3f}–"
                     f"{max(r['w_after'] / r['w_before'] for _, r in below):.3f}× before")
    if fine:
        ratio = [r["w_after"] / r["w_before"] for _, r in fine]
        lines.append(f"- θ ≥ 0.3 with ≥ 200 labels ({len(fine)} cells): width after ÷ before "
                     f"max {max(ratio):.4f}")
    return "\n".join(lines)


def main() -> None:
    args = quick_parser(__doc__, "3 + 2 + 1 cells, 40 data sets each").parse_args()
    start = time.perf_counter()
    reps = 40 if args.quick else 300
    a = grid_a(args.quick)
    b = grid_random(1, 2 if args.quick else 8, letter_only=False)
    c = grid_random(2, 1 if args.quick else 6, letter_only=True)
    check_public(a[0], 0)
    res_a = [run_cell(cell, reps, [SEED, 0, i]) for i, cell in enumerate(a)]
    res_b = [run_cell(cell, reps, [SEED, 1, i]) for i, cell in enumerate(b)]
    res_c = [run_cell(cell, reps // 2, [SEED, 2, i], letter=True) for i, cell in enumerate(c)]
    again = [] if args.quick else rerun(a + b, res_a + res_b)
    d = scores_grid(args.quick)
    res_d = [run_cell(cell, reps // 3, [SEED, 3, i], letter=True) for i, cell in enumerate(d)]
    rule = [r["w_after"] / r["w_letter"] for r in res_c]
    rule_d = [r["w_after"] / r["w_letter"] for r in res_d]
    before_d = [r["w_before"] / r["w_letter"] for r in res_d]
    body = "\n\n".join([
        __doc__.split("\n\n", 1)[1].rsplit("Writes", 1)[0].strip(),
        "## A. The planned grid", markdown_table(HEADER, _rows(a, res_a)), claims(a, res_a),
        "## B. Cells drawn at random", markdown_table(HEADER, _rows(b, res_b)),
        claims(b, res_b), "## C. The ≤ 2% rule (a score carrying nothing beyond its letter)",
        markdown_table([*HEADER, "width after ÷ letter"],
                       [[*row, f"{x:.3f}"] for row, x in zip(_rows(c, res_c), rule,
                                                            strict=True)]),
        f"- width after ÷ the letter estimator's: max {max(rule):.3f} (rule: ≤ 1.02); "
        f"coverage after min {min(r['after'] for r in res_c):.3f}",
        "## Cells of A and B read below 0.93 after, re-run on 1,000 fresh data sets",
        markdown_table(HEADER, again) if again else "none",
        "## D. The ≤ 2% rule on bench_scores.py's letter-only cells (≥ 100 labels)",
        markdown_table([*HEADER, "width before ÷ letter", "width after ÷ letter"],
                       [[*row, f"{x:.3f}", f"{z:.3f}"] for row, x, z in
                        zip(_rows(d, res_d), before_d, rule_d, strict=True)]),
        f"- {len(d)} cells: width ÷ the letter estimator's, before: median "
        f"{np.median(before_d):.3f}, max {max(before_d):.3f}; after: median "
        f"{np.median(rule_d):.3f}, max {max(rule_d):.3f}, cells above 1.02: "
        f"{sum(x > 1.02 for x in rule_d)}",
    ])  # fmt: skip
    print(body)
    publish("scores_rare" + ("_quick" if args.quick else ""),
            "The score path at a rare θ: PPI++'s Wald variance, rare-class adjusted",
            body, time.perf_counter() - start)  # fmt: skip


if __name__ == "__main__":
    main()
