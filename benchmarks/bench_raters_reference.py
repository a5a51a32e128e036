"""Which human reference: coverage of evaluate(rater=, reference=) per reference (issue 40).

``js.evaluate(frame, rater=, cluster=item, reference=...)`` estimates the rate of a single
random rater's label (``"rater"``), of the raters' majority (``"majority"``, ties drawn at
random, items with fewer than two raters left out) or of the latent true class
(``"latent"``, Dawid–Skene with the judge as one more rater). Two parts:

  A  simulation where each reference's model holds: items of true class c ~ Bernoulli(θ); R
     human raters with sensitivity and specificity of their own, one of them weak; each rater
     misses an item with probability ``miss``; the judge labels every item, conditionally
     independent of the raters given c (the latent model's assumption; the rater and majority
     references need only a random calibration sample). A random share of the items
     (``frac``) is the calibration sample (design ``"random"``), the rest test items. The true
     rate of each reference, computed exactly: rater — θ·mean(sens) + (1 − θ)·mean(1 − spec);
     majority — θ·P(majority = 1 | c = 1, ≥ 2 ratings) + (1 − θ)·P(majority = 1 | c = 0,
     ≥ 2 ratings) by enumerating every rating pattern (a tie counts ½, as ties="random");
     latent — θ. A grid of 6 cells and 8 cells drawn at random (seed 4141): θ ~ U(0.1, 0.9),
     3–5 raters at 0.75–0.95 with one at 0.6–0.7, the judge at 0.7–0.9, miss 0–40%, 300–3,000
     items, frac 0.1–0.5. Per cell 400 data sets (seed 4142 + cell): coverage at 95% by the
     default interval of each reference (rater: the cluster-robust adjusted-Wald; majority:
     adjusted-Wald; latent: sandwich, and the bootstrap default with 200 resamples on the first
     40 data sets, whose Monte Carlo s.e. is 0.034 at 0.95). The functions are those
     ``evaluate`` calls per group (``judgestats.evaluate.raters``), on arrays.
  B  NQ-301 (js.datasets.load_nq301): human_annotator1 and human_annotator2 as the raters (the
     third annotator adjudicates the majority's ties), the GPT-4 judge on every answer. Per
     system, 100 random splits of the items (seed 4143): 30% keep their human labels, the rest
     are test items; each reference estimated under design="random". Its full-data value:
     rater — the two annotators' mean label; majority — the adjudicated verdict (``human``);
     latent — the Dawid–Skene prevalence of all items (two annotators and the judge). The
     table gives each reference's full-data value, the splits' mean estimate, mean width and
     the share of intervals containing the full-data value (a finite population: the test
     items' rate varies less than a new sample's, so this share runs above 95%).

Run: python benchmarks/bench_raters_reference.py [--quick]
"""

from __future__ import annotations

import itertools
import time
import warnings

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time

import judgestats as js
from judgestats.errors import DesignWarning, JudgeStatsError, LatentBoundaryWarning
from judgestats.evaluate.raters import _REFERENCE, _Panel, rater_spec

REFERENCES = ("rater", "majority", "latent")


def draw_cell(rng: np.random.Generator) -> dict:
    """A cell drawn at random from the grid of the module docstring."""
    r = int(rng.integers(3, 6))
    good = rng.uniform(0.75, 0.95, size=(2, r))
    good[:, int(rng.integers(r))] = rng.uniform(0.6, 0.7, size=2)
    return {"theta": rng.uniform(0.1, 0.9), "sens": good[0], "spec": good[1],
            "judge": tuple(rng.uniform(0.7, 0.9, size=2)), "miss": rng.uniform(0, 0.4),
            "n": int(np.exp(rng.uniform(np.log(300), np.log(3000)))),
            "frac": rng.uniform(0.1, 0.5)}  # fmt: skip


GRID = [
    {"theta": t, "sens": np.array(s), "spec": np.array(s), "judge": (0.85, 0.8), "miss": m,
     "n": n, "frac": f}
    for t, s, m, n, f in [
        (0.3, (0.9, 0.85, 0.65), 0.0, 600, 0.3), (0.7, (0.9, 0.85, 0.65), 0.2, 600, 0.3),
        (0.5, (0.9, 0.9, 0.8, 0.65), 0.3, 1000, 0.2), (0.2, (0.85, 0.8, 0.75), 0.0, 2000, 0.1),
        (0.8, (0.95, 0.9, 0.9, 0.85, 0.6), 0.4, 400, 0.5), (0.5, (0.8, 0.8, 0.8), 0.1, 300, 0.4),
    ]
]  # fmt: skip


def truths(cell: dict) -> dict[str, float]:
    """Each reference's true rate (module docstring), the majority by enumeration."""
    theta, sens, spec, miss = cell["theta"], cell["sens"], cell["spec"], cell["miss"]
    rater = theta * sens.mean() + (1 - theta) * (1 - spec).mean()
    states = np.array(list(itertools.product((-1, 0, 1), repeat=sens.size)))  # -1: missing

    def majority_given(p_one: np.ndarray) -> tuple[float, float]:
        prob = np.prod(np.where(states < 0, miss, np.where(states == 1, (1 - miss) * p_one,
                                                           (1 - miss) * (1 - p_one))), axis=1)
        ones, votes = (states == 1).sum(axis=1), (states >= 0).sum(axis=1)
        share = np.where(2 * ones > votes, 1.0, np.where(2 * ones == votes, 0.5, 0.0))
        keep = votes >= 2
        return float((prob * share)[keep].sum()), float(prob[keep].sum())

    (a1, k1), (a0, k0) = majority_given(sens), majority_given(1 - spec)
    majority = (theta * a1 + (1 - theta) * a0) / (theta * k1 + (1 - theta) * k0)
    return {"rater": float(rater), "majority": float(majority), "latent": float(theta)}


def simulate(rng: np.random.Generator, cell: dict) -> _Panel:
    """One data set: the items' judge labels and the calibration items' ratings."""
    n, sens, spec = cell["n"], cell["sens"], cell["spec"]
    c = rng.random(n) < cell["theta"]
    js_, jp = cell["judge"]
    judge = np.where(c, rng.random(n) < js_, rng.random(n) > jp).astype(np.int64)
    says = np.where(c[:, None], rng.random((n, sens.size)) < sens,
                    rng.random((n, sens.size)) > spec).astype(np.int64)  # fmt: skip
    shown = (rng.random((n, sens.size)) >= cell["miss"]) & (rng.random(n) < cell["frac"])[:, None]
    codes = np.where(shown, says, -1)
    return _Panel(tuple(range(n)), judge, codes, tuple(f"r{i}" for i in range(sens.size)))


def coverage(cell: dict, n_sets: int, seed: int, n_boot: int) -> dict:
    """Coverage per reference (and the latent bootstrap on the first ``n_boot`` data sets)."""
    rng = np.random.default_rng(seed)
    truth = truths(cell)
    specs = {
        ("rater", None): rater_spec("rater", design="random", method=None,
                                    confidence_level=0.95, estimand="rows", options={}),
        ("majority", None): rater_spec("majority", design="random", method=None,
                                       confidence_level=0.95, estimand="rows", options={}),
        ("latent", "sandwich"): rater_spec("latent", design="random", method="sandwich",
                                           confidence_level=0.95, estimand="rows", options={}),
        ("latent", "bootstrap"): rater_spec("latent", design="random", method="bootstrap",
                                            confidence_level=0.95, estimand="rows",
                                            options={"n_resamples": 200}),
    }  # fmt: skip
    hits: dict = {k: [] for k in specs}
    widths: dict = {k: [] for k in specs}
    refused = 0
    for i in range(n_sets):
        panel = simulate(rng, cell)
        for (ref, method), (spec, own) in specs.items():
            if method == "bootstrap" and i >= n_boot:
                continue
            try:
                with warnings.catch_warnings():  # local: counted as data sets, not shown
                    warnings.simplefilter("ignore", DesignWarning)
                    warnings.simplefilter("ignore", LatentBoundaryWarning)
                    res = _REFERENCE[ref](panel, spec, own, rng)
            except JudgeStatsError:
                refused += 1
                continue
            hits[(ref, method)].append(res.ci.low <= truth[ref] <= res.ci.high)
            widths[(ref, method)].append(res.ci.high - res.ci.low)
    return {"truth": truth, "refused": refused,
            "coverage": {k: float(np.mean(v)) if v else float("nan") for k, v in hits.items()},
            "width": {k: float(np.mean(v)) if v else float("nan") for k, v in widths.items()},
            "sets": {k: len(v) for k, v in hits.items()}}  # fmt: skip


def _describe(cell: dict) -> str:
    acc = "/".join(f"{s:.2f}" for s in (cell["sens"] + cell["spec"]) / 2)
    return (f"θ {cell['theta']:.2f}, raters {acc}, judge {cell['judge'][0]:.2f}/"
            f"{cell['judge'][1]:.2f}, miss {cell['miss']:.2f}, {cell['n']} items, "
            f"{cell['frac']:.0%} rated")  # fmt: skip


def part_a(quick: bool) -> str:
    gen = np.random.default_rng(4141)
    cells = [("grid", c) for c in GRID] + [("random", draw_cell(gen)) for _ in range(8)]
    if quick:
        cells = [cells[0], cells[len(GRID)]]
    n_sets, n_boot = (25, 3) if quick else (400, 40)
    rows = []
    for k, (kind, cell) in enumerate(cells):
        out = coverage(cell, n_sets, 4142 + k, n_boot)
        cov, wid = out["coverage"], out["width"]
        rows.append([f"{kind} {k + 1}: {_describe(cell)}",
                     *(f"{out['truth'][r]:.3f}" for r in REFERENCES),
                     f"{cov[('rater', None)]:.3f}", f"{cov[('majority', None)]:.3f}",
                     f"{cov[('latent', 'sandwich')]:.3f}", f"{cov[('latent', 'bootstrap')]:.3f}",
                     f"{wid[('rater', None)]:.3f}", f"{wid[('majority', None)]:.3f}",
                     f"{wid[('latent', 'sandwich')]:.3f}", str(out["refused"])])  # fmt: skip
        print(rows[-1], flush=True)
    summary = _summary(rows, len([c for c in cells if c[0] == "grid"]))
    header = ["cell", "true rater", "true majority", "true latent", "rater coverage",
              "majority coverage", "latent sandwich coverage", "latent bootstrap coverage",
              "rater width", "majority width", "latent width", "refused"]  # fmt: skip
    return markdown_table(header, rows) + "\n\n" + summary


def _span(values: np.ndarray) -> str:
    return f"{values.min():.3f}-{values.max():.3f}" if values.size else "-"


def _summary(rows: list, n_grid: int) -> str:
    """Coverage per reference: its range on the grid, on the random cells, and the mean."""
    out = []
    for j, name in ((4, "rater"), (5, "majority"), (6, "latent (sandwich)"),
                    (7, "latent (bootstrap, on the first data sets)")):  # fmt: skip
        v = np.array([float(r[j]) for r in rows])
        grid, drawn = v[:n_grid], v[n_grid:]
        out.append([name, _span(grid), _span(drawn), f"{v.mean():.3f}"])
    return markdown_table(["reference", "grid cells", "random cells", "mean coverage"], out)


def _nq_panel(fid, rows: np.ndarray) -> tuple[_Panel, _Panel]:
    """Two panels of one system's split: annotators 1, 2 (and 3, the adjudicator)."""
    import pandas as pd

    n = len(fid)
    codes = np.full((n, 3), -1, dtype=np.int64)
    for j, a in enumerate(("human_annotator1", "human_annotator2", "human_annotator3")):
        values = fid[a].to_numpy()
        present = ~pd.isna(values) & rows
        codes[present, j] = values[present].astype(int)
    judge = fid["judge"].to_numpy().astype(np.int64)
    names = ("human_annotator1", "human_annotator2", "human_annotator3")
    two = _Panel(tuple(range(n)), judge, codes[:, :2].copy(), names[:2])
    return two, _Panel(tuple(range(n)), judge, codes, names)


def part_b(quick: bool) -> str:
    nq = js.datasets.load_nq301()
    systems = sorted(nq["target_model"].unique())
    if quick:
        systems = systems[:2]
    splits = 6 if quick else 100
    gen = np.random.default_rng(4143)
    specs = {ref: rater_spec(ref, design="random", method="sandwich" if ref == "latent" else
                             None, confidence_level=0.95, estimand="rows",
                             options={"ties": "human_annotator3"} if ref == "majority" else {})
             for ref in REFERENCES}  # fmt: skip
    rows = []
    for system in systems:
        fid = nq[nq["target_model"] == system].reset_index(drop=True)
        everything = np.ones(len(fid), dtype=bool)
        two, _ = _nq_panel(fid, everything)
        full = {"rater": float(two.codes[two.codes >= 0].mean()),
                "majority": float(fid["human"].mean()),
                "latent": js.raters.dawid_skene(np.column_stack([two.codes, two.judge]),
                                                method="sandwich").estimate}  # fmt: skip
        found: dict = {r: [] for r in REFERENCES}
        for _ in range(splits):
            rated = gen.random(len(fid)) < 0.3
            two, three = _nq_panel(fid, rated)
            for ref in REFERENCES:
                spec, own = specs[ref]
                panel = three if ref == "majority" else two
                with warnings.catch_warnings():  # local: the table counts what it needs
                    warnings.simplefilter("ignore")
                    try:
                        res = _REFERENCE[ref](panel, spec, own, gen)
                    except JudgeStatsError:
                        continue
                found[ref].append((res.estimate, res.ci.low, res.ci.high))
        for ref in REFERENCES:
            a = np.array(found[ref])
            cover = np.mean((a[:, 1] <= full[ref]) & (full[ref] <= a[:, 2]))
            rows.append([system, ref, f"{full[ref]:.3f}", f"{a[:, 0].mean():.3f}",
                         f"{(a[:, 2] - a[:, 1]).mean():.3f}", f"{cover:.2f}",
                         str(len(a))])  # fmt: skip
    header = ["system", "reference", "full-data value", "mean estimate", "mean width",
              "contains full-data value", "splits"]  # fmt: skip
    return markdown_table(header, rows)


def main() -> None:
    args = quick_parser(__doc__.split("\n\n")[0], "2 cells x 25 data sets, 2 systems x 6 "
                        "splits").parse_args()  # fmt: skip
    start = time.perf_counter()
    a = part_a(args.quick)
    b = part_b(args.quick)
    elapsed = time.perf_counter() - start
    body = "\n\n".join([
        __doc__.split("\n\n", 1)[1].rsplit("Run:", 1)[0].strip(),
        "## A. Coverage per reference where its model holds (95% intervals)", a,
        "## B. NQ-301: the three references per system, random 30% splits", b,
        run_time(elapsed, args.quick),
    ])  # fmt: skip
    name = "raters_reference_quick" if args.quick else "raters_reference"
    publish(name, "Which human reference: evaluate(rater=, reference=)", body, elapsed)


if __name__ == "__main__":
    main()
