"""Every benchmark script runs in --quick mode, and its results tables say what they should.

Each script writes its Markdown results file to a temporary folder (JUDGESTATS_RESULTS_DIR);
the test parses the tables in it and checks, per script: the expected header columns, a
minimum number of rows, and figures within stated ranges (each range says where it comes
from). The ranges are those of the quick modes' few replications, wide enough for Monte Carlo
noise; the full-mode figures live in benchmarks/results/. No timing is asserted, only ratios
of two timings taken in the same process, with a tenth of the issue's target as the bound.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCH.glob("bench_*.py"))


# ----------------------------------------------------------------------------- Markdown tables
SEPARATOR = re.compile(r"\|(\s*:?-{3,}:?\s*\|)+")
NUMBER = re.compile(r"[-+]?(?:\d[\d,]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _cells(line: str) -> list[str]:
    """The cells of a table line; an escaped pipe (\\|) stays inside its cell."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


@dataclass
class Table:
    header: list[str]
    rows: list[list[str]]

    def col(self, name: str) -> list[str]:
        """The cells of the (first) column called ``name``."""
        i = self.header.index(name)
        return [r[i] for r in self.rows]

    def records(self) -> list[dict[str, str]]:
        """One dict per row, header -> cell (the first column of a repeated name wins)."""
        out = []
        for r in self.rows:
            rec: dict[str, str] = {}
            for h, c in zip(self.header, r, strict=False):
                rec.setdefault(h, c)
            out.append(rec)
        return out

    def row(self, column: str, value: str) -> dict[str, str]:
        """The first row whose ``column`` equals ``value``."""
        found = [r for r in self.records() if r[column] == value]
        assert found, f"no row with {column} = {value!r} in {self.col(column)}"
        return found[0]


def parse_tables(text: str) -> list[Table]:
    """Every pipe table of a Markdown text: a header line, a |---| line, then the rows."""
    tables, block = [], []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            block.append(line)
            continue
        if len(block) >= 2 and SEPARATOR.fullmatch(block[1].replace(" ", "")):
            tables.append(Table(_cells(block[0]), [_cells(b) for b in block[2:]]))
        block = []
    return tables


def numbers(cell: str) -> list[float]:
    """The numbers in a cell ('0.944–0.972' -> [0.944, 0.972]; '1,077' -> [1077.0])."""
    return [float(m.replace(",", "")) for m in NUMBER.findall(cell.replace("−", "-"))]


def num(cell: str) -> float:
    """The first number in a cell ('+0.0271', '1185x', '0.990 / 0.090', '< 1e-16')."""
    found = numbers(cell)
    assert found, f"no number in cell {cell!r}"
    return found[0]


def find(tables: list[Table], *columns: str, min_rows: int = 1) -> Table:
    """The first table whose header holds every one of ``columns``, with >= min_rows rows."""
    for t in tables:
        if all(c in t.header for c in columns):
            assert len(t.rows) >= min_rows, f"{columns}: {len(t.rows)} rows < {min_rows}"
            return t
    heads = "\n".join(" | ".join(t.header) for t in tables)
    raise AssertionError(f"no table with columns {columns}; the tables are:\n{heads}")


def find_all(tables: list[Table], *columns: str) -> list[Table]:
    return [t for t in tables if all(c in t.header for c in columns)]


def test_parser_reads_what_markdown_table_writes():
    sys.path.insert(0, str(BENCH))
    try:
        from _common import markdown_table
    finally:
        sys.path.remove(str(BENCH))
    header = ["a", "max |bias|", "c"]
    rows = [["x", "0.944–0.972", "1,077"], ["y \\| z", "-0.5", ""]]
    text = f"intro\n\n{markdown_table(header, rows)}\n\nmore | text\n"
    (t,) = parse_tables(text)
    assert t.header == ["a", "max \\|bias\\|", "c"]
    assert t.rows == [["x", "0.944–0.972", "1,077"], ["y \\| z", "-0.5", ""]]
    assert numbers(t.rows[0][1]) == [0.944, 0.972] and num(t.rows[0][2]) == 1077
    assert num("+0.0271") == 0.0271 and num("1185x") == 1185 and num("< 1e-16") == 1e-16


# ----------------------------------------------------------------------------- content checks
SCORES = ["Strong Reject", "Reject", "Weak Reject", "Weak Accept", "Accept", "Strong Accept"]


def check_allocation(tables):
    head = ["q0", "q1", "m", "mean length, balanced", "mean length, Algorithm 1",
            "mean length, optimal (oracle)", "Alg. 1 / balanced", "coverage range (all three)"]  # fmt: skip
    t = find(tables, *head, min_rows=8)  # 4 judges x 2 calibration sizes
    for r in t.records():
        # Algorithm 1 narrows or keeps the balanced interval (paper's appendix: a few % shorter)
        assert 0.8 <= num(r["Alg. 1 / balanced"]) <= 1.02, r
        # the oracle split minimises the width; 1% slack for Monte Carlo noise
        assert num(r["mean length, optimal (oracle)"]) <= 1.01 * num(r["mean length, balanced"])
        # adjusted-Wald 95% intervals, 1,000 replications per point (MC s.e. 0.007): >= 0.90
        lo, hi = numbers(r["coverage range (all three)"])
        assert 0.90 <= lo <= hi <= 1.0, r
    find(tables, "theta", "balanced", "Algorithm 1", "optimal (oracle)", min_rows=11)  # θ grid
    sizes = find(tables, "p̂", "balanced m (m0 = m1)", "optimal m (m0, m1)", min_rows=4)
    for r in sizes.records():  # the optimal split never needs more items than the balanced one
        assert num(r["optimal m (m0, m1)"]) <= num(r["balanced m (m0 = m1)"]), r
    regimes = find(tables, "judge : target", "q0", "q1", min_rows=12)  # 2 judges x 6 targets
    assert all(0 <= num(c) <= 1 for c in regimes.col("q0") + regimes.col("q1"))


def check_bayes(tables):
    ref = find(tables, "quantity", "issue #4", "ours", "difference", min_rows=3)
    # issue #4: the exact posterior's mean and interval ends within 1e-3 of the reference
    assert all(abs(num(c)) <= 1e-3 for c in ref.col("difference"))
    find(tables, "workload", "data sets", "total", "per data set", "data sets/s", min_rows=3)
    acc = find(tables, "data sets", "ETI ends max / p99", "HDI ends p99", min_rows=2)
    # issue #4: interval ends within 1e-3 of a high-resolution computation
    assert all(num(c) <= 1e-3 for c in acc.col("ETI ends max / p99"))
    fits = find(tables, "model", "sampler (backend)", "cold", "warm: first fit",
                "warm: set_data refit", min_rows=1)  # fmt: skip
    assert fits.rows[0][:2] == ["binary", "pymc (numba)"]
    zero = find(tables, "target_accept", "divergent fits", r"max \|z\| mean vs exact")
    r = next(r for r in zero.records() if "(default)" in r["target_accept"])
    # issue 31 §3: no divergent fit at the defaults on data sets with zero cells (quick: 3;
    # full mode: 0 of 100, against 82 of 100 at PyMC's target_accept 0.8), and each posterior
    # mean within 5 Monte Carlo standard errors of the exact posterior's
    assert num(r["data sets"]) >= 3 and num(r["divergent fits"]) == 0, r
    assert num(r[r"max \|z\| mean vs exact"]) <= 5, r
    mcmc = find(tables, "data set", "exact mean [95% ETI]", "MCMC mean [95% ETI]", "Δ mean")
    r = mcmc.row("data set", "reference")
    exact, mc = num(r["exact mean [95% ETI]"]), num(r["MCMC mean [95% ETI]"])
    assert abs(exact - 0.49965) < 1e-3  # issue #4's reference posterior mean
    # 2 chains x 300 draws, posterior sd 0.056, ESS >= 100: MC s.e. <= 0.006; allow 5 s.e.
    assert abs(mc - exact) <= 0.03, r
    assert abs(numbers(r["Δ mean"])[1]) <= 5  # the same difference in MC standard errors


def check_bayes_strata(tables):
    head = ["method", "runs", "undefined", "bias (± MC s.e.)", "RMSE", "coverage (± MC s.e.)",
            "mean length (± MC s.e.)"]  # fmt: skip
    pooled = find_all(tables, *head)
    assert len(pooled) == 4  # A1 and A2, each pooled θ and the sparse stratum's θ3
    a1, _, a2, _ = pooled
    assert a1.col("method") == ["partial", "none", "complete", "frequentist adj.-Wald"]
    assert a2.col("method") == ["partial", "none", "frequentist adj.-Wald"]
    for r in a1.records()[:3]:  # the Bayesian fits of the pooled θ (truth 0.5)
        assert int(r["runs"]) >= 1, r
        # n = 1,200 test items in 3 strata: a 95% interval for the pooled θ is 0.15-0.35 long,
        # so one data set's error stays within ±0.2
        assert abs(num(r["bias (± MC s.e.)"])) <= 0.2, r
        assert 0.05 <= num(r["mean length (± MC s.e.)"]) <= 0.6, r
        assert 0 <= num(r["coverage (± MC s.e.)"]) <= 1, r
    samp = find_all(tables, "pooling", "SamplingWarning", "not .ok", "median min ESS")
    assert [len(t.rows) for t in samp] == [3, 2]  # A1: three poolings; A2: partial and none
    real = find(tables, "target", "human (all rows)", "human (test rows)", "Bayes partial")
    for r in real.records():
        # the test rows are 90% of all rows, so |θ_test − θ_all| = 0.1 |θ_test − θ_cal| <= 0.1
        assert abs(num(r["human (test rows)"]) - num(r["human (all rows)"])) <= 0.1, r
        est, lo, hi = numbers(r["Bayes partial"])
        assert 0 <= lo <= est <= hi <= 1, r
    find(tables, "target", "strata (test n, calibration m0, m1)", "sparsest", min_rows=1)


def check_core(tables):
    t = find(tables, "measure", "value", "target", "met", min_rows=5)
    r = next(r for r in t.records() if r["measure"].startswith("speed-up"))
    # issue #2's target is >= 100x; a tenth of it keeps the test independent of machine load
    assert num(r["value"]) > 10, r
    assert set(t.col("met")) <= {"yes", "NO", ""}


def check_coverage(tables):
    head = ["q0", "q1", "m", "method", "coverage min", "coverage mean", "coverage max",
            "mean length", "max abs bias", "undefined (max)"]  # fmt: skip
    t = find(tables, *head)
    methods = set(t.col("method"))
    assert {"adjusted-wald", "wald", "naive-wilson", "bootstrap"} <= methods
    assert len(t.rows) == 8 * len(methods)  # 4 judges x 2 calibration sizes per method
    for r in t.records():
        assert num(r["coverage min"]) <= num(r["coverage mean"]) <= num(r["coverage max"]), r
        if r["method"] == "adjusted-wald":
            # the paper's interval covers at or above nominal; 500 replications per θ
            # (MC s.e. 0.01 per point, 0.004 for the mean of 6 points)
            assert 0.92 <= num(r["coverage mean"]) <= 1.0, r
        if r["method"] == "naive-wilson":  # covers θ only near the crossing point
            assert num(r["coverage mean"]) < 0.5, r
    find(tables, "theta", "adjusted-wald coverage", "naive-wilson coverage", min_rows=6)


def check_multiclass(tables):
    means = find(tables, "", *SCORES, min_rows=7)
    truth, naive, _, corrected = ([num(c) for c in r[1:]] for r in means.rows[:4])
    assert means.rows[1][0] == "Naive (judged) distribution"
    assert means.rows[3][0].startswith("Corrected, reported")
    assert means.rows[0][0] == "Ground truth" and truth == [50, 150, 300, 250, 200, 50]
    # mean of 300 replications, sd up to 61 papers: MC s.e. <= 3.6, so within 15 (4 s.e.)
    assert all(abs(c - t) <= 15 for c, t in zip(corrected, truth, strict=True))
    # the judge's central-tendency bias: the naive distribution is off by far more in total
    assert sum(abs(n - t) for n, t in zip(naive, truth, strict=True)) > 2 * sum(
        abs(c - t) for c, t in zip(corrected, truth, strict=True)
    )
    cover = find(tables, "95% interval", "replications", *SCORES, min_rows=4)
    # 95% delta intervals, 300 replications (MC s.e. 0.013): coverage at least 0.90
    assert all(0.90 <= num(c) <= 1.0 for c in cover.rows[0][2:])
    grid = find(tables, "judge accuracy", "θ", "m", "delta adj: min cov", min_rows=18)
    # the adjusted delta interval's worst category, 500 replications: >= 0.90 (the plain one
    # drops to about 0.65 at accuracy 0.95, m = 30, which is why it is adjusted)
    assert all(num(c) >= 0.90 for c in grid.col("delta adj: min cov"))
    proj = find(tables, "judge", "share outside simplex", "RMSE Euclidean", "RMSE ML fit")
    assert len(proj.rows) == 4
    for r in proj.records():  # why the ML fit is reported: its error is the lowest
        assert num(r["RMSE ML fit"]) <= num(r["RMSE unconstrained"]), r
    find(tables, "target", "n test / m cal", "category", min_rows=18)  # 6 targets x 3 categories
    assert [len(t.rows) for t in find_all(tables, "target", "refused (κ > 100)")] == [6, 6]
    fr = find(tables, "calibration share", "coverage (pooled)", min_rows=3)
    # pooled coverage of 95% intervals over 6 targets x 3 categories x >= 20 splits
    assert all(0.85 <= num(c) <= 1.0 for c in fr.col("coverage (pooled)"))
    find(tables, "operation (k = 6)", "time", min_rows=3)


def check_peers(tables):
    head = ["design", "method", "coverage min", "coverage mean", "coverage max", "mean length",
            "bias range", "RMSE mean", "undefined"]  # fmt: skip
    t = find(tables, *head)
    methods = {r["method"] for r in t.records()}
    assert len(t.rows) == 3 * len(methods) and len(methods) >= 3  # 3 designs per method
    paper = [r for r in t.records() if r["method"] == "judgestats adjusted-wald (paper)"]
    assert len(paper) == 3
    for r in paper:
        # 40 replications per θ (MC s.e. 0.034): the paper's interval covers at least 0.8
        assert 0.8 <= num(r["coverage mean"]) <= 1.0, r
    for r in t.records():
        if r["method"] == "naive Wilson (p̂)":  # ignores the judge's errors: rarely covers
            assert num(r["coverage mean"]) < 0.5, r
    find(tables, "method", "assumption (source)", "stratified", "random", "shift", min_rows=4)
    grids = [t for t in tables if t.header[0] in ("θ", "θ_Q") and "adj.-Wald" in t.header]
    assert len(grids) == 9  # 3 designs x (coverage, length, bias)


def check_real_data(tables):
    head = ["data", "calibration", "method", "coverage min", "coverage mean", "coverage max",
            "coverage vs test part (mean)", "mean length", "undefined splits"]  # fmt: skip
    t = find(tables, *head, min_rows=21)
    assert len({(r["data"], r["calibration"]) for r in t.records()}) == 7  # 7 configurations
    r = next(
        r for r in t.records()
        if (r["data"], r["calibration"], r["method"]) == ("Arena, GPT-4 judge", "10%", "adjusted-wald")
    )  # fmt: skip
    # 10 splits x 6 targets; the paper reports 95-99% for its GPT-4-class judge
    assert 0.8 <= num(r["coverage mean"]) <= 1.0, r
    per_target = find_all(tables, "target", "rows", "m", "θ (human, all rows)", "bias p̂")
    assert len(per_target) == 7
    rank = find(tables, "data", "calibration", "ranked by", "Kendall τ", min_rows=14)
    assert all(-1 <= num(c) <= 1 for c in rank.col("Kendall τ"))
    find(tables, "judge (paper)", "calibration", "naive τ", min_rows=4)
    comp = find(tables, "A − B", "design", "method", "estimate", "95% interval", min_rows=9)
    for r in comp.records():
        lo, hi = numbers(r["95% interval"])
        assert lo <= num(r["estimate"]) <= hi, r
    assert [len(t.rows) for t in find_all(tables, "rank", "model", "P(rank 1)")] == [6, 6]
    diff = find(tables, "design", "θA", "θB", "m per set", "adjusted-wald", min_rows=8)
    # 500 simulated data sets per row (MC s.e. 0.01) around a nominal 0.95
    assert all(0.9 <= num(c) <= 1.0 for c in diff.col("adjusted-wald"))


def check_scale(tables):
    t = find(tables, "engine", "rows", "count (s)", "rows/s", "vs fastest", min_rows=4)
    assert set(t.col("engine")) == {"pandas", "pandas-chunks", "polars", "duckdb"}
    ratios = [num(c) for c in t.col("vs fastest")]
    assert min(ratios) == 1.0 and all(x >= 1.0 for x in ratios)  # relative to the fastest
    board = find(tables, "model", "n", "naive", "corrected", min_rows=20)  # 20 models
    # 10^6 rows of which 1% are human-labelled: the test counts sum to about 990,000
    assert 0.98e6 <= sum(num(c) for c in board.col("n")) <= 1e6
    assert all(0 <= num(c) <= 1 for c in board.col("corrected"))
    # js.evaluate's count against the engine's own hand-written count (issue #19); the quick
    # mode runs no Spark
    vs = find(tables, "engine", "js.evaluate count (s)", "hand-written count (s)", "ratio",
              min_rows=4)  # fmt: skip
    assert set(vs.col("engine")) == {"pandas", "polars", "duckdb", "dask"}
    for r in vs.records():
        js_s, own_s = num(r["js.evaluate count (s)"]), num(r["hand-written count (s)"])
        ratio = num(r["ratio"])  # of the unrounded times; the times have 3 decimals
        assert abs(ratio - js_s / own_s) <= 0.005 + 0.0005 * (1 + ratio) / own_s, r
        # the target is <= 1.5 at 10^7 rows (benchmarks/results/scale.md); at the
        # quick mode's 10^6 rows the engines' fixed costs weigh more (dask about 1.7) and
        # other jobs on the 2 cores add noise, so the bound only catches a gross regression
        assert ratio <= 10, r


def check_shift(tables):
    t = find(tables, "theta_Q", "naive", "calibration_only", "misclassification_adjusted",
             min_rows=11)  # fmt: skip
    # the difference (prediction-powered) estimator, under its current or its former name
    (ppi,) = {"prediction_powered", "difference"} & set(t.header)
    for r in t.records():
        tq = num(r["theta_Q"])
        # theory (the script's text): naive bias +0.100, calibration-only θ_Q − 0.5, difference
        # (PPI) 0.4 (θ_Q − 0.5); 1,000 replications, MC s.e. < 0.005
        assert abs(num(r["naive"]) - 0.100) <= 0.02, r
        assert abs(num(r["calibration_only"]) - (tq - 0.5)) <= 0.02, r
        assert abs(num(r[ppi]) - 0.4 * (tq - 0.5)) <= 0.02, r
        assert abs(num(r["misclassification_adjusted"])) <= 0.02, r  # unbiased under shift


def check_judge_shift(tables):
    size = find(tables, "cell", "judge", "test", "size at 0.05", min_rows=19)
    assert {"grid", "random"} <= set(size.col("cell"))
    assert {"exact", "permutation", "cluster permutation"} <= set(size.col("test"))
    # exact and permutation tests have size <= 0.05; quick mode: 150 data sets per cell,
    # 3 Monte Carlo s.e. = 0.053 (the full run's bound is 0.06 with 4000 per cell)
    assert all(num(c) <= 0.05 + 0.053 for c in size.col("size at 0.05"))
    power = find(tables, "sensitivity before", "drop δ", "power at 0.05", min_rows=12)
    for r in power.records():
        d, pw = num(r["drop δ"]), num(r["power at 0.05"])
        if d == 0:
            assert pw <= 0.05 + 0.053, r
        if d == 0.2:  # oracle z test >= 0.99 at every base sensitivity
            assert pw >= 0.9, r
    cover = find(tables, "sensitivity drop δ", "coverage: pool", "coverage: latest",
                 "coverage: pre-test", min_rows=8)  # fmt: skip
    for r in cover.records():
        # the latest batch describes today's judge: the paper's interval, 95% (quick: 3 s.e.)
        assert num(r["coverage: latest"]) >= 0.95 - 0.054, r
        if num(r["sensitivity drop δ"]) == 0.2:  # pooled q1 is off by 0.1: bias ≈ 0.08 in θ
            assert num(r["coverage: pool"]) <= 0.3, r


def check_letters(tables):
    head = ["rows", "engine", "letter_counts (s)", "own binned count (s)",
            "letter_counts ÷ own count", "binned in Python ÷ on pandas", "rows to Python",
            "same counts"]  # fmt: skip
    t = find(tables, *head, min_rows=4)
    assert set(t.col("same counts")) == {"yes"}
    engines = [r for r in t.records() if r["engine"] in ("pandas", "polars", "duckdb")]
    slow = next(r for r in t.records() if r["engine"] == "pandas, binned in Python")
    # 20 models x (4 bins, 'invalid', missing) x (human 0, 1, none) rows at most
    assert all(int(r["rows to Python"]) <= 20 * 6 * 3 for r in engines)
    assert int(slow["rows to Python"]) > 100 * int(engines[0]["rows to Python"])
    # measured 87x at 2e5 rows; a tenth keeps the test independent of machine load
    assert num(slow["binned in Python ÷ on pandas"]) > 8


def check_speed(tables):
    t = find(tables, "measure", "value", "target", min_rows=8)
    values = {r["measure"]: r["value"] for r in t.records()}
    # issue #7's target is >= 100x; a tenth of it keeps the test independent of machine load
    assert num(values["loop / engine"]) > 10
    diff = next(v for k, v in values.items() if k.startswith("max \\|coverage difference"))
    assert num(diff) <= 0.05  # same distribution: MC noise, s.e. about 0.003 per θ


def check_profile_speed(tables):
    t = find(tables, "run", "time", "ratio to adjusted-Wald", "target", min_rows=6)
    ratio = {r["run"]: num(r["ratio to adjusted-Wald"]) for r in t.records()}
    # issue 31 §2: >= 20x faster than the old ratio of 151 (target <= 7.5); a tenth of the
    # speed-up (2x) keeps the test independent of machine load
    assert ratio["js.evaluate, profile-map"] <= 151 / 2
    assert ratio["js.evaluate, auto"] <= 151 / 2
    same = find(tables, "method", "max \\|batched − js.correct\\|", "warnings", min_rows=2)
    for r in same.records():  # the batched bounds are js.correct's, group by group
        assert num(r["max \\|batched − js.correct\\|"]) <= 1e-9, r
        assert r["warnings"] == "identical"


def check_profile_boundary(tables):
    head = ["grid", "method", "rule", "min coverage", "mean coverage", "cells < 0.93"]
    t = find(tables, *head, min_rows=21)  # 3 grids x (3 methods x 2 rules + adjusted-Wald)
    rows = {(r["grid"], r["method"], r["rule"]): r for r in t.records()}
    for method in ("profile-likelihood-t", "profile-map"):
        # the cells: Wilks at a zero count covered 0.88-0.90 (2,000 data sets; quick:
        # 200, s.e. 0.02); with ½ in its place >= 0.95 in every cell
        assert num(rows[("issue", method, "before")]["min coverage"]) < 0.93
        assert num(rows[("issue", method, "after")]["min coverage"]) >= 0.95
        for grid in ("random", "independent"):  # never lower on average than before
            before = num(rows[(grid, method, "before")]["mean coverage"])
            assert num(rows[(grid, method, "after")]["mean coverage"]) >= before - 0.005


def check_strata(tables):
    head = ["test mix", "m", "interval", "coverage", "mean width", "bias", "excluded"]
    t = find(tables, *head, min_rows=48)  # 2 test mixes x 4 calibration sizes x 6 intervals
    assert t.col("interval").count("stratified adjusted-Wald") == 8
    assert t.col("interval").count("unstratified adjusted-Wald") == 8
    for r in t.records():
        if r["interval"] == "stratified adjusted-Wald":
            # 1,000 replications (MC s.e. 0.007); the stratified intervals cover nominally
            assert num(r["coverage"]) >= 0.92, r
        if r["interval"] == "unstratified adjusted-Wald":
            # the scenario: a mostly-short calibration set under-states the judge's
            # leniency on long answers, so the unstratified bias is about +0.065 at every m
            assert 0.03 <= num(r["bias"]) <= 0.10, r
    grid = find(tables, "pooled interval", "cases", "mean coverage", min_rows=4)
    assert 0.92 <= num(grid.row("pooled interval", "adjusted-Wald")["mean coverage"]) <= 1.0
    find(tables, "scenario (multinomial test mix)", "adjusted-Wald", "Wald", min_rows=5)
    find(tables, "θ1", "m", "bias reported", "coverage", min_rows=4)
    find(tables, "judge", "target", "stratum", "q0 + q1 − 1", min_rows=24)  # 2 x 6 x 2 positions
    find(tables, "target", "stratum", "q0 + q1 − 1", min_rows=12)  # NQ-301: 12 systems
    find(tables, "data", "judge", "design", "targets", "width ratio", min_rows=9)
    reps = find_all(tables, "design", "runs", "truth θ (test rows)", "cover strat.")
    assert [len(t.rows) for t in reps] == [36, 36]  # (2 judges x 6 | 12 targets) x 3 designs


def check_weak_judge(tables):
    # tolerant: the script grows sections; its headline table of every method must be there
    heads = [
        t for t in tables
        if "method" in t.header and any(h.startswith("min coverage") for h in t.header)
    ]  # fmt: skip
    assert heads, "no table with a 'method' and a 'min coverage…' column"
    t = heads[0]
    assert len(t.rows) >= 10, t.header
    i = next(i for i, h in enumerate(t.header) if h.startswith("min coverage"))
    aw = next(r for r in t.rows if r[0] == "adjusted-wald")
    # 40 replications per cell (MC s.e. 0.035) of a conservative 95% interval: >= 0.80
    assert 0.80 <= num(aw[i]) <= 1.0, aw


def check_designs(tables):
    grid = find(tables, "data drawn by", "analysis", "min coverage (cell)", "mean coverage",
                min_rows=12)  # fmt: skip
    rows = grid.records()

    def row(design, analysis):
        return next(r for r in rows if r["data drawn by"] == design
                    and r["analysis"].startswith(analysis))  # fmt: skip

    # 300 data sets per cell in --quick (MC s.e. 0.013): each design's own interval covers
    for design in ("random", "by-judge-label"):
        own = row(design, f'design="{design}" adjusted-wald')
        assert num(own["min coverage (cell)"]) >= 0.88, own
    paper = row("by-human-label", "paper's adjusted-Wald")
    assert num(paper["min coverage (cell)"]) >= 0.88, paper
    # the wrong declaration: the judge-conditional estimator on a calibration set balanced by
    # human label is biased (the guard rail; full-mode table in results/designs.md)
    wrong = row("by-human-label", 'design="random" adjusted-wald')
    assert num(wrong["mean coverage"]) < 0.9, wrong
    ratio = find(tables, "calibration size", "÷ paper's adjusted-Wald", "÷ asymptotic floor 2z√V")
    small = ratio.row("calibration size", "m < 200")
    # the random design's interval is well under the paper's on random-design data (0.45 in
    # the quick grid) and close to the asymptotic floor (1.00)
    assert num(small["÷ paper's adjusted-Wald"]) < 0.7, small
    assert 0.9 <= num(small["÷ asymptotic floor 2z√V"]) <= 1.15, small
    real = find(tables, "analysis", "worst coverage over targets", "mean length", min_rows=3)
    lengths = {r["analysis"]: num(r["mean length"]) for r in real.records()}
    assert lengths['design="random" adjusted-wald'] < 0.5 * lengths[
        "paper's adjusted-Wald (by-human-label)"
    ]  # about 3x shorter (issue 17)
    speed = find(tables, "seconds (best of 3)", "÷ adjusted-Wald", min_rows=3)
    for r in speed.rows:  # the target is 2x (full mode); quick timings of ~1 ms are noisy
        assert num(r[2]) < 6.0, r


def check_alphabets(tables):
    sim = find(tables, "cells", "J", "method", "min coverage (cell)", "mean coverage", min_rows=6)
    prof = [r for r in sim.records() if r["method"] == "profile-likelihood-t"]  # the default
    assert {int(num(r["J"])) for r in prof} == {3, 5, 10}
    for r in prof:  # 100 data sets per cell in --quick (MC s.e. 0.022)
        assert num(r["min coverage (cell)"]) >= 0.85, r
    gains = [r for r in sim.records() if r["method"].startswith("width: best threshold")]
    assert gains and all(num(r["mean width"].split()[0]) > 1.0 for r in gains), gains
    inv = find(tables, "θ", "invalid verdicts", "bias", "coverage", min_rows=6).records()
    for r in inv:  # the judge fails more often on true-1 items: dropping biases θ down
        if r["invalid verdicts"].startswith("keep"):
            assert abs(num(r["bias"])) < 0.02, r
        else:
            assert num(r["bias"]) < -0.03, r
    real = find(tables, "analysis", "worst coverage over targets", "mean length", min_rows=4)
    assert {r["analysis"] for r in real.records()} >= {"GPT-4 + GPT-3.5 (6 letters)"}
    find(tables, "task", "seconds", min_rows=1)


def check_repeated(tables):
    summary = find(tables, "design", "min coverage cluster-aware", "max width ÷ cluster bootstrap",
                   min_rows=4)  # fmt: skip
    for r in summary.records():
        # 150 data sets per cell in --quick (MC s.e. 0.018): the cluster-aware default covers,
        # within 1.25x the cluster bootstrap's width; rows counted as items do not (issue 27)
        assert num(r["min coverage cluster-aware"]) >= 0.88, r
        assert num(r["max width ÷ cluster bootstrap"]) <= 1.25, r
        assert num(r["min coverage rows as items"]) < 0.8, r
    cells = find(tables, "labels", "coverage rows as items", min_rows=12)
    assert {r["labels"] for r in cells.records()} >= {"constant"}
    guard = find(tables, "warned (uncorrelated)", "warned (correlated)", min_rows=3)
    for r in guard.records():  # 30 frames per cell in --quick: silent where rows are independent
        assert num(r["warned (uncorrelated)"]) <= 0.1, r


def check_repeat_agreement(tables):
    cells = find(tables, "warned (independent rows)", "warned (calibration rows twice)",
                 min_rows=8)  # fmt: skip
    for r in cells.records():  # 30 data sets per cell in --quick: silent on independent rows
        assert num(r["warned (independent rows)"]) <= 0.1, r
    # duplicated calibration rows found in most data sets (quick run: 0.6-1.0; main's noise
    # bound alone found 0-0.13 of them, issue 38's second tour)
    assert max(num(r["warned (calibration rows twice)"]) for r in cells.records()) >= 0.9
    bundled = find(tables, "data set (20% split, item_id kept)", "warned", min_rows=2)
    assert all(num(r["warned"]) == 0 for r in bundled.records())


def check_repeated_compare(tables):
    summary = find(tables, "cells", "min model coverage (cluster rank)", min_rows=1)
    for r in summary.records():
        # 100 data sets per cell in --quick (MC s.e. 0.022): every model's interval from the
        # cluster bootstrap covers; counting rows as items does not (issue 27)
        assert num(r["min model coverage (cluster rank)"]) >= 0.86, r
        if r["cells"] == "grid":  # (the quick random cell has ρ = 0.125: barely clustered)
            assert num(r["mean model coverage (rows as items)"]) < 0.9, r
        assert num(r["min Δ coverage cluster bootstrap"]) >= 0.86, r
        assert num(r["max confident wrong order (cluster rank)"]) <= 0.1, r
    cells = find(tables, "K", "items", "Δ coverage cluster bootstrap", min_rows=4)
    assert {r["items"] for r in cells.records()} >= {"separate", "shared"}


def check_repeated_categories(tables):
    cats = find(tables, "C diagonal", "item bootstrap", "rows as items", min_rows=2)
    for r in cats.records():
        # 100 data sets per cell in --quick (MC s.e. 0.022), smallest over the categories:
        # the cluster-aware methods cover within ~3 s.e.; rows as items do not
        for key in ("adjusted-delta (clusters)", "item bootstrap",
                    "by-judge-label design (clusters)"):
            assert num(r[key]) >= 0.86, (key, r)
        assert num(r["random design (clusters)"]) >= 0.82, r
        assert num(r["rows as items"]) < 0.9, r
    strata = find(tables, "items per stratum N", "item bootstrap", min_rows=1)
    for r in strata.records():
        assert num(r["item bootstrap"]) >= 0.86, r
        assert num(r["bootstrap of rows as items"]) < 0.85, r
    letters = find(tables, "letters J", "item bootstrap (refit)", min_rows=1)
    for r in letters.records():
        # 40 data sets in --quick (MC s.e. 0.034): the cluster-aware methods within ~3 s.e.
        assert num(r["profile-likelihood-t (clusters)"]) >= 0.85, r
        assert num(r["item bootstrap (refit)"]) >= 0.82, r
        assert num(r["width / bootstrap's"]) <= 1.5, r


def check_warning_bound(tables):
    t = find(tables, "A: θ, (q0, q1)", "adjusted-Wald covers at B", "best unwarned coverage at A",
             min_rows=3)  # fmt: skip
    # --quick: cells A 1, 3 and 5 of the seed-2713 grid; exact, so their verdicts are fixed
    assert t.col("no rule meets both") == ["yes", "yes", "no"], t.rows
    first = t.records()[0]
    # the worst cell of the seed-2713 grid: 0.846 simulated there (1,000 data sets, about 740
    # defined: s.e. 0.013); the exact enumeration must agree within 3 s.e.
    assert abs(num(first["adjusted-Wald covers at A"]) - 0.846) < 0.04, first
    # exact (no noise): a B inside the ranges where adjusted-Wald covers, and no rule that
    # fires on <= 5% of B's data sets brings A's unwarned data sets to 0.93 (full run 0.884)
    assert num(first["adjusted-Wald covers at B"]) >= 0.945, first
    assert num(first["best unwarned coverage at A"]) < 0.93, first
    assert num(first["least unwarned share at A"]) >= 0.1, first
    assert first["no rule meets both"] == "yes", first
    for r in t.records():  # a bound is a coverage; "yes" only where it is below 0.93
        if r["no rule meets both"] in ("yes", "no"):
            assert 0 <= num(r["best unwarned coverage at A"]) <= 1, r
            assert (r["no rule meets both"] == "yes") == (
                num(r["best unwarned coverage at A"]) < 0.93
                and num(r["least unwarned share at A"]) >= 0.1), r


def check_auto_default(tables):
    rows = find(tables, "cells", "auto: min coverage", "adjusted-Wald: min").row(
        "cells", "independent rows")
    items = find(tables, "cells", "auto: min coverage", "cluster-robust adjusted-Wald: min").row(
        "cells", "repeated items")
    # quick tier: 24 + 6 cells of the committed grid, 150 and 60 data sets (s.e. about 0.018
    # and 0.028 at 0.95); the full run gives 0.934 and 0.925 (s.e. 0.013)
    assert num(rows["auto: min coverage"]) >= 0.93 - 3 * 0.018, rows
    assert num(items["auto: min coverage"]) >= 0.93 - 3 * 0.028, items
    assert 1.0 <= num(rows["width auto / AW: median"]) <= 1.3, rows  # full run 1.05
    assert 1.0 <= num(items["width auto / AW: median"]) <= 1.3, items  # full run 1.10
    assert num(items["auto: min coverage"]) >= num(items["cluster-robust adjusted-Wald: min"])
    for t in find_all(tables, "warning or note", "max rate", "meets (b)"):
        for r in t.records():
            assert 0 <= num(r["max rate"]) <= 1 and r["meets (b)"] in ("yes", "no"), r
    weak = find(tables, "warning or note", "max rate").row(
        "warning or note", "WeakCalibrationWarning (default auto)")
    assert num(weak["max rate"]) == 0, weak  # auto widens where adjusted-Wald would warn
    for t in find_all(tables, "warning or note", "max rate"):  # repeated items: the same
        for r in t.records():
            if r["warning or note"] == "WeakCalibrationWarning (effective items)":
                assert num(r["max rate"]) == 0, r
    cells = find(tables, "θ", "auto", "AW", "width ratio", "checked", min_rows=20)
    for r in cells.records():  # js.correct's default answers as the batch rule says
        done, of = r["checked"].split("/")
        assert done == of, r


def check_warning_rules(tables):
    rules = find(tables, "rule", "warns where", "fail (a)", "fail (b)", min_rows=9)
    today = rules.records()[0]
    assert (today["rule"], today["warns where"]) == ("class size", "< 100"), today
    for r in rules.records():
        # counts of cells, not rates: each fail count lies within its cell count
        assert 0 <= num(r["fail (a)"]) <= num(r["cells (a)"]), r
        assert 0 <= num(r["fail (b)"]) <= num(r["cells (b)"]), r
        assert 0.0 <= num(r["data sets warned"]) <= 1.0, r
    # today's rule fires on every data set of a cell with a class under 100 items: in --quick
    # (12 cells, 200 data sets) more than a third of all data sets (0.55 on the full grid)
    assert num(today["data sets warned"]) > 0.33, today
    methods = find(tables, "method", "min coverage", "cells < 0.93", min_rows=2)
    # profile-map, the method the warning names, covers on the random grid (200 data sets per
    # cell in --quick, s.e. 0.015: >= 0.95 - 3 s.e.); full grid 0.935 in its worst cell
    assert num(methods.row("method", "profile-map")["min coverage"]) >= 0.905
    auto = find(tables, "method", "median width ÷ adjusted-wald", min_rows=8).records()
    by = {r["method"]: r for r in auto}
    hull = by["hull of adjusted-wald and profile-map"]
    # exact, no noise: the hull misses θ only where both intervals miss it, on every data set
    for single in ("adjusted-wald", "profile-map"):
        assert num(hull["min coverage"]) >= num(by[single]["min coverage"]), (hull, single)
        assert num(hull["mean coverage"]) >= num(by[single]["mean coverage"]), (hull, single)
    mine = next(r for r in auto if r["method"].endswith("(judgestats.auto)"))
    # method="auto": >= 0.935 on both full grids; 200 data sets per cell in --quick (s.e. 0.015)
    assert num(mine["min coverage"]) >= 0.89, mine
    assert 1.0 <= num(mine["median width ÷ adjusted-wald"]) <= 1.1, mine


def check_jury(tables):
    bands = find(tables, "smallest class", "cells", "min coverage jury",
                 "jury ÷ better: median", "jury ÷ better: max", min_rows=2)  # fmt: skip
    for r in bands.records():
        # 100 data sets per cell in --quick (MC s.e. 0.022): the study's lowest cell is in
        # benchmarks/results/jury.md; >= 0.93 − 3.5 s.e.
        assert 0.85 <= num(r["min coverage jury"]) <= 1.0, r
        # never wider than the better member before truncation; truncation at 0 or 1 and the
        # ratio of mean widths leave a little room
        assert num(r["jury ÷ better: max"]) <= 1.05, r
    cells = find(tables, "cell", "coverage jury", "jury ÷ better member", min_rows=8)
    assert all(0.5 <= num(c) <= 1.05 for c in cells.col("jury ÷ better member"))
    arena = find(tables, "target", "labelled", "jury ÷ better: median", "coverage jury",
                 min_rows=6)  # fmt: skip
    for r in arena.records():  # the six targets; GPT-4 carries the jury (GPT-3.5: position bias)
        assert 0.9 <= num(r["jury ÷ better: median"]) <= 1.02, r
        assert num(r["weight GPT-4"]) >= 0.8, r


def check_scores(tables):
    cells = find(tables, "score", "labels (items)", "cover score", "width ÷ letter",
                 "fallback share", min_rows=8)  # fmt: skip
    for r in cells.records():
        # 30 data sets per cell in --quick (Monte Carlo s.e. 0.04 at 0.95): the study's claim
        # (>= 0.93 in all 40 cells, re-run below 0.93) is in benchmarks/results/scores.md;
        # 0.93 − 3.5 s.e. here
        assert 0.79 <= num(r["cover score"]) <= 1.0, r
        if num(r["labels (items)"]) >= 100 and num(r["fallback share"]) == 0:
            # the done-criterion: a score is never much wider than the letter estimator
            # (study: max 1.017 for a letter-only score); ratios of mean widths of 30 data sets
            assert num(r["width ÷ letter"]) <= 1.05, r
        else:  # the fallback is the letter estimator itself: the ratio is exactly 1
            assert num(r["width ÷ letter"]) == pytest.approx(1.0, abs=1e-3), r
    real = find(tables, "labelled", "cover score", "width ÷ letter", "width ÷ humans",
                min_rows=4)  # fmt: skip
    for r in real.records():  # NQ-301, BEM's probability: 0.986–0.992 in the study
        assert 0.95 <= num(r["width ÷ letter"]) <= 1.02, r
        assert num(r["width ÷ humans"]) < 1.0, r
    systems = find(tables, "system", "cover score", "width ÷ letter (mean)", min_rows=12)
    assert all(0.95 <= num(v) <= 1.05 for v in systems.col("width ÷ letter (mean)"))
    choice = find(tables, "cell", "cover average", "cover full", "width full ÷ average")
    # the same folds for both: the two predictions of the unlabelled rows give widths within 1%
    assert all(abs(num(v) - 1.0) <= 0.01 for v in choice.col("width full ÷ average"))


def check_scores_covariates(tables):
    cells = find(tables, "cell", "covariates", "judge", "cover with covariates",
                 "width ÷ judge alone", "width ÷ letter", min_rows=6)  # fmt: skip
    for r in cells.records():
        # 20 data sets per cell in --quick (Monte Carlo s.e. 0.05 at 0.95); the study's claim
        # (>= 0.93 in every cell, re-run below) is in benchmarks/results/scores_covariates.md
        assert 0.75 <= num(r["cover with covariates"]) <= 1.0, r
        if r["covariates"] == "useless":  # useless covariates cost little against the judge alone
            assert num(r["width ÷ judge alone"]) <= 1.06, r


def check_scores_rare(tables):
    cells = find(tables, "θ", "labels", "coverage before", "coverage after",
                 "width after ÷ before", min_rows=3)  # fmt: skip
    for r in cells.records():
        # 40 data sets per cell in --quick (Monte Carlo s.e. 0.035 at 0.95); the study's claim
        # (>= 0.93 wherever PPI++'s own read below) is in benchmarks/results/scores_rare.md
        assert 0.8 <= num(r["coverage after"]) <= 1.0, r
        # the adjustment only ever widens, and by at most 1.6x (study: at most 1.56x)
        assert 1.0 <= num(r["width after ÷ before"]) <= 1.6, r
    rule = find(tables, "width after ÷ letter", min_rows=1)
    for r in rule.records():  # the <= 2% rule; study max 1.021 (1.020 before); 40 data sets
        assert num(r["width after ÷ letter"]) <= 1.06, r


def check_scores_small(tables):
    cells = find(tables, "score", "labels (items)", "width ÷ letter, isotonic K=5",
                 "width ÷ letter, reduced K=5", "cover isotonic K=5", min_rows=3)  # fmt: skip
    for r in cells.records():
        # 12 data sets per cell in --quick (s.e. of a width ratio up to 0.03; of a coverage
        # near 0.95, 0.06): the study's figures are in benchmarks/results/scores_small.md
        for col in ("isotonic K=5", "reduced K=5", "isotonic K=10", "reduced K=10"):
            assert 0.85 <= num(r[f"width ÷ letter, {col}"]) <= 1.12, r
            assert 0.6 <= num(r[f"cover {col}"]) <= 1.0, r
        if r["score"] == "informative":  # merging steps discards information (study: +0.2
            # to +2.0%, paired on the same data sets and folds)
            assert num(r["width ÷ letter, reduced K=5"]) >= num(
                r["width ÷ letter, isotonic K=5"]) - 0.005, r
    part2 = find(tables, "SD score ÷ SD letter", "width ÷ letter", "score width ÷ 2z·SD",
                 min_rows=1)  # fmt: skip
    for r in part2.records():  # 60 data sets in --quick (s.e. of an SD ratio ~0.03; of a
        # width over 2z·SD ~0.09); study: SD ratios 1.00–1.03 at 100–250 labels
        assert 0.85 <= num(r["SD score ÷ SD letter"]) <= 1.2, r
        assert 0.6 <= num(r["score width ÷ 2z·SD"]) <= 1.5, r


def check_scores_speed(tables):
    speed = find(tables, "engine", "letter (s)", "score (s)", "score ÷ letter", min_rows=1)
    for r in speed.records():
        # the 3x is for 10^6 rows (benchmarks/results/scores_speed.md); on the quick
        # mode's 3·10^4 rows fixed costs dominate and a shared machine's timings are noisy
        assert 0 < num(r["score ÷ letter"]) <= 15, r


def check_judge_bias(tables):
    cells = find(tables, "cell", "n", "reject δ=0", "cover δ=0", min_rows=5)
    for r in cells.records():
        # 60 data sets per cell in --quick (s.e. 0.028 at 0.05): size within 0.05 + 5 s.e.
        assert num(r["reject δ=0"]) <= 0.19, r
        assert num(r["cover δ=0"]) >= 0.8, r
    real = find(tables, "data", "judge", "covariate", "Δ̂", "p", min_rows=14)
    rows = {(r["data"], r["judge"], r["covariate"][:6]): r for r in real.records()}
    # LLMBar: Falcon's and ChatGPT's position bias is the largest of the five (the source
    # paper's positional agreement is lowest for them); the test finds both at p < 0.001
    for judge in ("falcon", "chatgpt"):
        r = rows[("LLMBar", judge, "positi")]
        assert num(r["Δ̂"]) > 0.2 and num(r["p"]) < 1e-3, r


def check_alphabet_width(tables):
    cells = find(tables, "cell", "J", "fixed cut s", "post-hoc ÷ full", "fixed cut ÷ full",
                 "coverage full", "coverage post-hoc", "coverage fixed cut", min_rows=6)  # fmt: skip
    for r in cells.records():
        j, cut = int(num(r["J"])), int(num(r["fixed cut s"]))
        assert j in (3, 4, 5, 8) and 1 <= cut <= j - 1, r
        post, fixed = num(r["post-hoc ÷ full"]), num(r["fixed cut ÷ full"])
        # exact, no noise: the post-hoc cut is each data set's shortest of the J − 1 cuts, so
        # its mean width never exceeds the fixed cut's
        assert post <= fixed, r
        # the study's ratios (54 cells, 1,000 data sets each): 0.68–1.29 post hoc, 0.77–2.01
        # fixed; MC noise in a ratio of mean widths is a few %
        assert 0.6 <= post <= 1.5 and 0.65 <= fixed <= 2.3, r
        # coverage, 150 data sets per cell in --quick (MC s.e. 0.018): the full alphabet's
        # lowest cell is 0.925 in the study and the fixed cut's 0.934 (>= 0.95 − 3.5 s.e.);
        # the post-hoc cut's 0.864 (>= 0.864 − 3 s.e. of 0.028)
        assert 0.88 <= num(r["coverage full"]) <= 1.0, r
        assert 0.88 <= num(r["coverage fixed cut"]) <= 1.0, r
        assert 0.78 <= num(r["coverage post-hoc"]) <= 1.0, r
    summary = find(tables, "cells", "count", "fixed cut ÷ full: median",
                   "share full shorter (fixed cut)", "min coverage full", min_rows=4)  # fmt: skip
    every = summary.row("cells", "all")
    assert int(num(every["count"])) == len(cells.rows), every
    for r in summary.records():
        assert 0.0 <= num(r["share full shorter (fixed cut)"]) <= 1.0, r
        for key in ("full", "post-hoc", "fixed cut"):  # counts of cells, within the row's count
            assert 0 <= num(r[f"< 0.93 {key}"]) <= num(r["count"]), r
    # the study's finding: with < 10 calibration items per letter the best fixed cut is shorter
    # than the full alphabet (median 0.90, every cell 0.77–0.99; --quick: A1 and A11, 0.86 and
    # 0.93 at 1,000 data sets), with >= 30 the full alphabet is (median 1.09; --quick: A4 and
    # A27, 1.09 and 1.35)
    few = num(summary.row("cells", "min m/(J−1) < 10")["fixed cut ÷ full: median"])
    many = num(summary.row("cells", "min m/(J−1) ≥ 30")["fixed cut ÷ full: median"])
    assert few < 1.0 < many, (few, many)


def check_sequential_scores(tables):
    cov = find(tables, "strategy", "monitor", "cells", "min coverage", "width ÷ letter: median",
               min_rows=12)  # 2 strategies x 2 monitors x 3 (--quick: 10 bins only)  # fmt: skip
    for r in cov.records():
        # time-uniform coverage, 100 replays per cell in --quick (MC s.e. 0.022 at 0.95):
        # >= 0.95 − 3.5 s.e. (quick 0.96–1.00)
        assert num(r["min coverage"]) >= 0.87, r
    ratio = {(r["strategy"], r["monitor"], r["cells"]): num(r["width ÷ letter: median"])
             for r in cov.records()}  # fmt: skip
    # the study's finding: drawn uniformly, the score's 10 smoothed bins are narrower than the
    # letter's cells at the last label (quick: 0.93–0.95 at 500 labels)
    assert ratio["uniform", "score, 10 bins", "all"] < 0.99, ratio
    assert ratio["uniform", "letter", "all"] == 1.0


def check_compare_scores(tables):
    paired = find(tables, "coverage (95%)", "paired ÷ independent width: median", min_rows=2)
    for r in paired.records():
        # 40 data sets per cell in --quick (MC s.e. 0.034 at 0.95): >= 0.95 − 3.5 s.e.
        assert num(r["coverage (95%)"]) >= 0.83, r
        # the prompts' shared difficulty: the paired interval is narrower (quick 0.93–0.96)
        assert num(r["paired ÷ independent width: median"]) < 1.0, r
    shared = find(tables, "coverage (95%)", "shared ÷ independent width: median", min_rows=1)
    for r in shared.records():  # 40 data sets in --quick: >= 0.95 − 3.5 s.e.; the shared
        # calibration cancels in the difference (quick 0.45, study 0.40–0.65)
        assert num(r["coverage (95%)"]) >= 0.83, r
        assert num(r["shared ÷ independent width: median"]) < 0.9, r
    for t in find_all(tables, "coverage (first run)", "coverage (fresh data sets)"):
        for r in t.records():  # 50 fresh data sets in --quick (s.e. 0.031): >= 0.95 − 3.5 s.e.
            assert num(r["coverage (fresh data sets)"]) >= 0.84, r
    for t in find_all(tables, "share reaching target", "median width ÷ target"):
        for r in t.records():
            # plans hit their width in the median: within 6% (quick 0.96–1.00); the share
            # of studies reaching it, 40 per cell in --quick (s.e. 0.08): 0.50–0.60
            assert 0.94 <= num(r["median width ÷ target"]) <= 1.06, r
            assert 0.2 <= num(r["share reaching target"]) <= 0.95, r
    rare = find(tables, "coverage before", "coverage after (95%)", "share adjusted", min_rows=2)
    for r in rare.records():
        # part E, one cross-fit read twice: the rare-class variance only widens (so coverage
        # only rises), and leaves a cell where no arm was rare untouched; 40 data sets in
        # --quick (s.e. 0.034 at 0.95): after >= 0.95 − 3.5 s.e.
        assert num(r["coverage after (95%)"]) >= num(r["coverage before"]), r
        assert num(r["width after ÷ before: median"]) >= 1.0, r
        if num(r["share adjusted"]) == 0:
            assert num(r["width after ÷ before: median"]) == 1.0, r
        assert num(r["coverage after (95%)"]) >= 0.83, r
    jury = find(tables, "jury coverage (95%)", "jury ÷ best single judge width: median")
    for r in jury.records():
        # part F, 30 data sets in --quick (s.e. 0.04): >= 0.95 − 3.5 s.e.; the paired jury
        # narrower than its independent arms and than its best judge alone (quick 0.78 and
        # 0.83; study 0.78–1.00 and 0.79–0.99)
        assert num(r["jury coverage (95%)"]) >= 0.81, r
        assert num(r["jury ÷ independent arms width: median"]) <= 1.02, r
        assert num(r["jury ÷ best single judge width: median"]) <= 1.05, r
    real = {r["source"]: r for r in find(tables, "source", "width ÷ the jury's: median over "
                                         "pairs", min_rows=6).records()}  # fmt: skip
    # part G, NQ-301 (2 pairs × 10 splits in --quick): the jury covers and is within 5% of the
    # best single judge per pair (quick 1.013, study 1.002), narrower than independent arms
    assert num(real["jury"]["coverage of the pair's difference (95%)"]) >= 0.85
    best = real["best single judge per pair"]["width ÷ the jury's: median over pairs"]
    assert 0.95 <= num(best) <= 1.05
    assert num(real["jury, independent arms"]["width ÷ the jury's: median over pairs"]) > 1.0


def check_sequential_jury(tables):
    cov = find(tables, "strategy", "monitor", "pools", "min coverage", "÷ best member at 300",
               min_rows=8)  # --quick: 4 monitors x (grid, all)  # fmt: skip
    for r in cov.records():
        # time-uniform coverage, 60 replays in --quick (MC s.e. 0.028 at 0.95): >= 0.95 − 3.5
        # s.e. (quick 0.95–1.00)
        assert num(r["min coverage"]) >= 0.85, r
    stack = cov.row("monitor", "jury stack")
    # the study's finding: the stack, refit on the labels so far, is narrower than the members'
    # unsmoothed product letters and near the best member alone (quick: 0.91x and 1.02x)
    assert num(stack["÷ letters at 300"]) < 0.97, stack
    assert num(stack["÷ best member at 300"]) < 1.10, stack


def check_sequential_data(tables):
    summary = find(tables, "data", "target width", "min time-uniform coverage", min_rows=4)
    for r in summary.records():
        # 20 replays per pool in --quick: an interval valid at every look needs more labels
        # than an oracle fixed-n plan looked at once (1.6-2.0x measured), and covers
        ratio = float(r["monitor ÷ fixed-n labels (uniform)"].split()[0])
        assert 1.2 < ratio < 3.0, r
        assert num(r["min time-uniform coverage"]) >= 0.85, r
    speed = find(tables, "step", "÷ counting", min_rows=4)
    for r in speed.records():  # an update within 10x of counting the pool on the engine
        assert num(r["÷ counting"]) <= 10, r


def check_sequential(tables):
    cov = find(tables, "strategy", "schedule", "cells", "min coverage", "cells < 0.94",
               "fixed-sample peeked: range", min_rows=12)  # 2 strategies x 2 schedules x 3  # fmt: skip
    for r in cov.records():
        # time-uniform coverage of the 95% sequence, 100 replays per cell in --quick (MC s.e.
        # 0.022 at 0.95): >= 0.95 - 3.5 s.e.; the sequence is conservative (quick 0.92-0.99)
        assert num(r["min coverage"]) >= 0.87, r
        assert 0 <= num(r["cells < 0.94"]) <= num(r["count"]), r
        # the fixed-sample interval looked at after every round of 20 (50 looks in --quick)
        # misses at some look far more often than 5% (quick 0.56-0.72): the failure prevented
        lo, hi = numbers(r["fixed-sample peeked: range"])
        assert 0.0 <= lo <= hi <= 0.85, r
    price = find(tables, "strategy", "schedule", "labels", "width ÷ fixed-sample: median", "min",
                 min_rows=12)  # fmt: skip
    for r in price.records():
        # a 95% sequence is never narrower than one look's Wald interval: at best about
        # sqrt(2 log 40) / 1.96 = 1.39x near the labels it is tuned for (betting.py)
        assert num(r["min"]) >= 1.0, r
    tuned = [r for r in price.records()
             if (r["strategy"], r["schedule"], r["labels"]) == ("uniform", "tuned for 500", "500")]  # fmt: skip
    assert tuned and num(tuned[0]["width ÷ fixed-sample: median"]) <= 1.6, tuned  # quick: 1.42
    saved = find(tables, "target", "labels fixed-n plan", "labels monitor (uniform)", "saved",
                 "Neyman gain", "Neyman gain with floor", min_rows=8)  # 4 cells x 2 targets  # fmt: skip
    for r in saved.records():
        gain, floor = num(r["Neyman gain"]), num(r["Neyman gain with floor"])
        # exact, no noise: the floor keeps the allocation from the Neyman optimum
        assert 0.0 <= floor <= gain < 1.0, r
        # no saving beyond what the theory supports: 60 replays per cell in --quick, a ratio
        # of two medians of labels (noise a few %), so 0.1 of slack
        assert num(r["saved"]) <= floor + 0.1, r
        # validity costs labels: the sequence reaches a width later than a fixed-n plan
        assert num(r["labels monitor (uniform)"]) >= num(r["labels fixed-n plan"]), r
    capped = find(tables, "per-label s.d.", "strategy", "labels", "capped by c/(hi − lo)",
                  min_rows=12)  # 2 cells or more x 2 strategies x 3 windows  # fmt: skip
    mid = [r for r in capped.records() if (r["strategy"], r["labels"]) == ("uniform", "101–500")]
    low, high = mid[0], mid[-1]  # the cells with the smallest and the largest σ
    assert num(low["per-label s.d."]) < num(high["per-label s.d."]), (low, high)
    # the bet's cap c/(hi − lo) is set by the range, not σ: it binds more where σ is small
    # (quick: 1.00 against 0.00)
    assert num(low["capped by c/(hi − lo)"]) > num(high["capped by c/(hi − lo)"]), (low, high)


def check_agreement(tables):
    t = find(tables, "part", "interval", "min coverage", "cells in min", "cells", min_rows=18)
    for r in t.records():
        if r["part"].startswith("E (rows counted"):
            # rows counted as items under-cover (full run 0.70); the cluster-aware ones do not
            assert num(r["min coverage"]) < 0.93, r
            continue
        assert num(r["cells"]) >= 30, r
        # full run (2,000 data sets per cell): >= 0.935 in A-D; the quick run's 300 data sets
        # per cell (100 in E) have MC s.e. 0.013 (0.022 in E) at 0.95, so the floor is lower
        floor = 0.86 if r["part"].startswith("E") else 0.90
        assert num(r["min coverage"]) >= floor, r
    b = find(tables, "grid seed", "M", "min coverage", "share shown", min_rows=18)
    for seed in ("3003", "3004"):
        rows = [r for r in b.records() if r["grid seed"] == seed]
        shown = [num(r["share shown"]) for r in rows]
        assert shown == sorted(shown, reverse=True)  # a stricter rule shows fewer intervals
        # kappa's interval with no rule under-covers on small cells (full run 0.832 and 0.694)
        assert num(rows[0]["min coverage"]) < 0.93, rows[0]


def check_raters_agreement(tables):
    t = find(tables, "cells", "measure", "n cells", "min coverage", "mean coverage", min_rows=6)
    for r in t.records():
        # quick: 40 data sets per cell (MC s.e. 0.034 at 0.95); the full run's 300 per cell
        # (BCa mean 0.943-0.953, min 0.88) are in benchmarks/results/raters_agreement.md
        assert num(r["mean coverage"]) >= 0.85 and num(r["min coverage"]) >= 0.75, r
    assert any("(bca)" in r["measure"] for r in t.records())
    alt = find(tables, "raters", "judge", "items", "epsilon", "mean omega", "pass rate",
               min_rows=27)  # fmt: skip
    for r in alt.records():
        omega, eps = num(r["mean omega"]), num(r["epsilon"])
        if r["raters"] != "3 raters, one at 0.5":
            if r["judge"] == "worse" and eps <= 0.1:
                assert omega <= 0.05, r  # a judge at 0.6 against raters at 0.85 never wins
            if r["judge"] == "as good" and eps == 0:
                assert omega <= 0.1, r  # H0 at its boundary: the false pass rate stays small
            if r["judge"] == "better" and eps >= 0.1:
                assert omega >= 0.9, r
    nq = find(tables, "system", "items (both annotators)", "alpha", "kappa", min_rows=13)
    pooled = nq.row("system", "pooled (rows as items)")
    assert pooled["alpha"] == "0.732" and pooled["items (both annotators)"] == "3554", pooled
    judge = find(tables, "system", "majority = released verdict", min_rows=13)
    for r in judge.records():  # the adjudicated majority is the data set's released verdict
        done, total = r["majority = released verdict"].split("/")
        assert done == total, r
    panda = find(tables, "pair", "agreement [CI]; kappa [CI]", "published", min_rows=13)
    for r in panda.records():  # PandaLM's README: Cohen's kappa 0.85, 0.88, 0.86
        if r["published"] != "–":
            kappa = num(r["agreement [CI]; kappa [CI]"].split("κ")[1])
            assert abs(kappa - num(r["published"])) <= 0.005, r


def check_pairwise(tables):
    err = r"mean \|error\|"  # the pipes escaped in the Markdown cell
    real = find(tables, "judge", "method", "coverage min", err, "width / human-only",
                min_rows=8)  # 2 judges x 4 methods  # fmt: skip
    for judge in ("GPT-4", "GPT-3.5"):
        rows = {r["method"]: r for r in real.records() if r["judge"] == judge}
        ppi, naive = rows["prediction-powered (ppi, default)"], rows["naive judge BT"]
        # the naive judge BT is biased (issue 29: error 0.30 for GPT-4); PPI is not
        assert num(ppi[err]) < num(naive[err]), (judge, ppi, naive)
        assert num(ppi["coverage median"]) >= 0.8, ppi  # quick: 12 splits
        # power tuning never does worse than the human-only fit, up to noise
        assert num(ppi["width / human-only"]) <= 1.05, ppi
    sim = find(tables, "cells", "strength coverage", "worst model", "rank sets hold", min_rows=4)
    assert {r["cells"] for r in sim.records()} == {"grid", "random"}
    for r in sim.records():  # quick: 25 data sets a cell, pooled over 5-30 models
        assert num(r["strength coverage"]) >= 0.85, r
    speed = find(tables, "seconds", "ratio to plain BT", min_rows=2)
    assert num(speed.rows[0][2]) < 50  # ten times the bound of 5


def check_bayes_pairwise(tables):
    gap = r"max \|Δ\|/SE"  # the pipes escaped in the Markdown cell
    t = find(tables, "cell", "data sets", gap, "sd / SE", "ETI coverage", "Wald coverage")
    for r in t.records():
        # Bernstein-von Mises: where the joint model holds the posterior mean is within a
        # fraction of an SE of the MLE (full run: benchmarks/results/bayes_pairwise.md; the
        # unit test's bound on one data set is 0.25); twice that for the quick run's noise
        assert num(r[gap]) <= 0.5, r
        low, high = (num(x) for x in r["sd / SE"].split("–"))
        assert 0.8 <= low <= high <= 1.25, r  # quick: 500 draws a chain
        assert num(r["ETI coverage"]) >= 0.5, r  # quick: 2 data sets x 4 models


def check_pairwise_style(tables):
    t = find(tables, "cells", "strength coverage", "δ coverage", "width / human-only (controlled)",
             "coverage without control", min_rows=3)  # fmt: skip
    for r in t.records():
        # full run (benchmarks/results/pairwise_style.md): >= 0.93 in every cell; the quick run's
        # 6 data sets x 5-10 models only catch a broken interval
        assert num(r["strength coverage"]) >= 0.7, r
        assert all(v >= 0.5 for v in numbers(r["δ coverage"])), r
        # the jury is informative in every quick cell: narrower than the human votes alone
        assert 0.5 <= num(r["width / human-only (controlled)"]) <= 1.05, r
    real = find(tables, "prediction", "coverage median", "width / human-only", min_rows=3)
    for r in real.records():
        assert num(r["width / human-only"]) <= 1.05, r  # power tuning: never much wider


def check_pairwise_counting(tables):
    t = find(tables, "engine", "rows", "grouping columns", "count_pairs (s)",
             "hand-written group-by (s)", "ratio", min_rows=6)  # fmt: skip
    assert {r["engine"] for r in t.records()} == {"polars", "duckdb", "pandas"}
    for r in t.records():
        js_s, own_s = num(r["count_pairs (s)"]), num(r["hand-written group-by (s)"])
        assert abs(num(r["ratio"]) - js_s / own_s) <= 0.01 + 0.0005 * 3 / own_s, r
        # issue 29's target is 1.5 (benchmarks/results/pairwise_counting.md); the quick mode's
        # 2e5 rows take tens of milliseconds, where other jobs on the 2 cores add noise: the
        # bound (ten times the target) only catches a gross regression such as the row-by-row
        # Python decoding this replaced (3-4x at 2e5 rows)
        assert num(r["ratio"]) <= 15, r


def check_real_judges(tables):
    judges = find(tables, "target", "judge", "sensitivity", "specificity", "kappa", min_rows=39)
    ance = {r["judge"]: r for r in judges.records() if r["target"] == "ANCE+_FiD"}
    # the bundled NQ-301 README's table (judge gpt-4): q1 0.8579, q0 0.8447, agree 0.8533
    assert num(ance["GPT-4"]["sensitivity"]) == 0.858 and num(ance["GPT-4"]["specificity"]) == 0.845
    assert num(ance["GPT-4"]["agreement"]) == 0.853
    bem = find(tables, "target", "AUC of BEM score", "within BEM letters (pooled)", min_rows=13)
    pooled = bem.row("target", "all (pooled)")
    # the score ranks answers well, and still within each of its letters (it carries more than
    # its letter; full run 0.877 and 0.644)
    assert num(pooled["AUC of BEM score"]) > 0.8 and num(pooled["within BEM letters (pooled)"]) > 0.55
    raters = find(tables, "raters", "n", "agreement", "kappa (3 classes)", min_rows=11)
    # PandaLM README: Cohen's kappa between its annotators 0.85, 0.88, 0.86 (2 decimals)
    for pair, published in (("1 / annotator 2", 0.85), ("1 / annotator 3", 0.88),
                            ("2 / annotator 3", 0.86)):  # fmt: skip
        assert abs(num(raters.row("raters", f"annotator {pair}")["kappa (3 classes)"])
                   - published) <= 0.005, pair  # fmt: skip
    rubric = find(tables, "split", "target", "AUC of P(>= 3)", min_rows=10)
    assert {r["split"] for r in rubric.records()} == {"real", "synth"}
    bar = find(tables, "subset", "judge", "accuracy (output 1 first)", "accuracy (swapped)",
               min_rows=30)  # fmt: skip
    natural = {r["judge"]: r for r in bar.records() if r["subset"] == "Natural"}
    # LLMBar's statistics.json (Natural, GPT-4, Vanilla): correct_False 95/100, correct_True 96/100
    assert num(natural["GPT-4"]["accuracy (output 1 first)"]) == 0.95
    assert num(natural["GPT-4"]["accuracy (swapped)"]) == 0.96


def check_raters_reference(tables):
    a = find(tables, "cell", "rater coverage", "majority coverage", "latent sandwich coverage",
             min_rows=2)  # fmt: skip
    for r in a.records():
        # quick: 25 data sets a cell (Monte Carlo s.e. 0.044 at 0.95); the full run's 14 cells
        # x 400 data sets are in benchmarks/results/raters_reference.md
        for col in ("rater coverage", "majority coverage", "latent sandwich coverage"):
            assert num(r[col]) >= 0.8, (col, r)
        assert num(r["true latent"]) == pytest.approx(float(r["cell"].split("θ ")[1][:4]),
                                                      abs=0.006)  # fmt: skip
    b = find(tables, "system", "reference", "full-data value", "contains full-data value",
             min_rows=6)  # fmt: skip
    assert {r["reference"] for r in b.records()} == {"rater", "majority", "latent"}
    for r in b.records():
        assert num(r["contains full-data value"]) >= 0.5, r


def check_raters_latent(tables):
    a = find(tables, "cell", "bootstrap coverage", "sandwich coverage", "warned", min_rows=2)
    for r in a.records():
        # quick: 20 data sets a cell (10 with the bootstrap): Monte Carlo s.e. 0.05-0.07 at
        # 0.95; the full run's cells are in benchmarks/results/raters_latent.md
        assert num(r["sandwich coverage"]) >= 0.7, r
        assert num(r["warned"]) <= 0.3, r
    find(tables, "correlation", "latent bias", "majority bias", min_rows=2)
    nq = find(tables, "system", "latent prevalence (95% bootstrap)", "adjudicated", min_rows=3)
    pooled = nq.rows[0]
    # NQ-301 pooled: the latent prevalence (0.700) sits within 0.02 of the adjudicated 0.696
    assert abs(num(pooled[2]) - num(pooled[3])) <= 0.02, pooled
    sbc = find(tables, "replicates", "chi-square p")
    assert num(sbc.rows[0][0]) >= 2  # --quick: 2 replicates, each rank counted in a bin
    assert sum(numbers(sbc.rows[0][2])) == num(sbc.rows[0][0]), sbc.rows[0]
    find(tables, "raters", "latent bias", "sandwich coverage", min_rows=2)  # part E


def check_alphabet_random(tables):
    cells = find(tables, "cell", "letters", "coverage", "coverage before", "width ÷ before",
                 min_rows=3)  # fmt: skip
    for r in cells.records():
        # quick: 12 data sets a cell; the full study (18 cells, 1,000 data sets each: 0.931 to
        # 0.961) is in benchmarks/results/alphabet_random.md
        assert num(r["coverage"]) >= 0.6, r
        assert 0.5 <= num(r["width ÷ before"]) <= 1.2, r
    k = find(tables, "cell", "K", "coverage, worst category", "before", min_rows=1)
    for r in k.records():
        assert num(r["coverage, worst category"]) >= 0.6, r


def check_jury_combine(tables):
    short = find(tables, "design", "combine", "min coverage", "÷ better member: median",
                 min_rows=6)  # fmt: skip
    by = {(r["design"], r["combine"]): r for r in short.records()}
    # the paper's design samples on the human label: the stack is refused there, by name
    assert by[("by-human-label", "stack")]["min coverage"] == "refused"
    for key in (("random", "stack"), ("random", "mean"), ("by-human-label", "letters")):
        # quick: 10 (random) and 20 (by-human-label) data sets a cell, 3 cells: a coverage
        # near 0.95 is 0.8 or more with probability > 0.99; the full study is in
        # benchmarks/results/jury_combine.md
        assert num(by[key]["min coverage"]) >= 0.7, by[key]
        assert 0.5 <= num(by[key]["÷ better member: median"]) <= 1.5, by[key]
    cells = find(tables, "cell", "coverage stack", "stack ÷ better", "humans alone ÷ better",
                 min_rows=3)  # fmt: skip
    for r in cells.records():
        if r["repeated"] == "no" and r["humans alone ÷ better"] != "–":
            # the judges buy precision: the stack is narrower than the human labels alone
            assert num(r["stack ÷ better"]) < num(r["humans alone ÷ better"]) + 0.02, r
    real = find(tables, "data", "target", "design", "coverage stack", min_rows=6)
    assert {r["data"] for r in real.records()} == {"Arena", "NQ-301", "LLMBar"}
    # Part E: the jury against each judge alone under all three designs (quick: 3 splits of
    # one target; the full study's medians are 0.99-1.38 in jury_combine.md)
    designs = find(tables, "data", "design", "min coverage jury", "jury ÷ better: median",
                   min_rows=6)  # fmt: skip
    assert {r["design"] for r in designs.records()} == {"random", "by-human-label",
                                                        "by-judge-label"}  # fmt: skip
    assert all(0.5 <= num(r["jury ÷ better: median"]) <= 2.0 for r in designs.records())
    find(tables, "target", "design", "jury on GPT-4's draw ÷ GPT-4", min_rows=3)  # per target
    find(tables, "cell", "coverage jury", "jury on judge 1's draw ÷ judge 1", min_rows=1)  # F


def check_raters_intervals(tables):
    a = find(tables, "cell", "sandwich coverage", "profile coverage", "bootstrap coverage",
             min_rows=1)  # fmt: skip
    for r in a.records():
        # quick: 5 data sets of raters_latent.md's cell A2 (three raters, one weak, 58 items);
        # the full run (60 data sets a cell) is in benchmarks/results/raters_intervals.md
        assert num(r["profile coverage"]) >= 0.6, r
        assert num(r["profile width"]) > 0, r
    find(tables, "cell", "sandwich coverage", "profile coverage", min_rows=1)  # part B
    find(tables, "cell", "weak rater right", "profile coverage", min_rows=1)  # part C
    find(tables, "correlation", "latent coverage (profile)", "majority bias", min_rows=2)


def check_raters_real(tables):
    a = find(tables, "measure", "95% CI, answers resampled", "95% CI, questions resampled",
             min_rows=2)  # fmt: skip
    for r in a.records():
        # NQ-301 pooled: 3,554 answers to 301 questions; resampling questions whole is wider
        # (2.2-2.3 times in the full run)
        assert num(r["width ratio"]) >= 1.5, r
    b = find(tables, "system", "latent prevalence", "profile 95% CI", "adjudicated", min_rows=3)
    pooled = b.row("system", "pooled (all systems)")
    # the latent prevalence (0.700) sits within 0.02 of the adjudicated 0.696
    assert abs(num(pooled["latent prevalence"]) - num(pooled["adjudicated"])) <= 0.02, pooled
    c = find(tables, "system", "epsilon", "halves passing", min_rows=2)
    for r in c.records():
        if num(r["epsilon"]) == 0.2:
            assert num(r["halves passing"]) == 1.0, r  # GPT-4 passes on every half at 0.2


def check_bayes_scores(tables):
    cov = find(tables, "cell", "method", "coverage", "mean width", min_rows=3)
    width = {r["method"]: num(r["mean width"]) for r in cov.records()}
    # the logistic link holds in the quick cell: the model's exact posterior and PPI++ with a
    # logistic calibration are both efficient there, so their widths agree (full run: 0.983-
    # 0.996 of PPI++'s in 4 cells, benchmarks/results/bayes_scores.md); 10% for the quick
    # run's two data sets
    assert 0.9 <= width["bayes (logistic)"] / width["PPI++ (logistic)"] <= 1.1, width
    sbc = find(tables, "link", "quantity", "replicates", "rank bins (10, ranks 0-99)",
               "chi-square p", min_rows=2)  # fmt: skip
    for r in sbc.records():  # every replicate's rank lands in one of the ten bins
        assert sum(numbers(r["rank bins (10, ranks 0-99)"])) == num(r["replicates"]) >= 2, r


def check_scores_two(tables):
    cells = find_all(tables, "score", "labels (items)", "width ÷ letter, today",
                     "width ÷ letter, two-pred", "SD ÷ letter, two-pred", "cover two-pred")
    assert len(cells) == 2 and len(cells[-1].rows) == 3, cells  # the re-runs; every cell
    for r in [r for table in cells for r in table.records()]:
        # 12 data sets per cell in --quick (s.e. of a width ratio up to 0.03; of a coverage
        # near 0.95, 0.06; of an SD ratio ~0.1): the study is benchmarks/results/scores_two.md
        for col in ("today", "two-pred", "strat folds", "both", "two-pred λf≥0"):
            assert 0.85 <= num(r[f"width ÷ letter, {col}"]) <= 1.12, r
            assert 0.6 <= num(r[f"SD ÷ letter, {col}"]) <= 1.5, r
            assert 0.6 <= num(r[f"cover {col}"]) <= 1.0, r
    rule = find(tables, "candidate", "letter-only median", "meets the rule", min_rows=5)
    assert set(rule.col("candidate")) == {"today", "two-pred", "strat folds", "both",
                                          "two-pred λf≥0"}


CHECKS = {
    "bench_agreement.py": ("agreement", [], check_agreement),
    "bench_auto_default.py": ("auto_default", [], check_auto_default),
    "bench_alphabets.py": ("alphabets", ["alphabets.png"], check_alphabets),
    "bench_alphabet_width.py": ("alphabet_width", [], check_alphabet_width),
    "bench_alphabet_random.py": ("alphabet_random_quick", [], check_alphabet_random),
    "bench_jury.py": ("jury", [], check_jury),
    "bench_jury_combine.py": ("jury_combine_quick", [], check_jury_combine),
    "bench_scores.py": ("scores_quick", [], check_scores),
    "bench_scores_covariates.py": ("scores_covariates_quick", [], check_scores_covariates),
    "bench_scores_speed.py": ("scores_speed_quick", [], check_scores_speed),
    "bench_scores_rare.py": ("scores_rare_quick", [], check_scores_rare),
    "bench_scores_small.py": ("scores_small_quick", [], check_scores_small),
    "bench_scores_two.py": ("scores_two_quick", [], check_scores_two),
    "bench_judge_bias.py": ("judge_bias_quick", [], check_judge_bias),
    "bench_allocation.py": ("allocation", ["allocation.png", "allocation_size_and_regime.png"],
                            check_allocation),
    "bench_bayes.py": ("bayes", [], check_bayes),
    "bench_bayes_strata.py": ("bayes_strata", ["bayes_strata.png"], check_bayes_strata),
    "bench_core.py": ("core", [], check_core),
    "bench_designs.py": ("designs", ["designs.png"], check_designs),
    "bench_letters.py": ("letters", [], check_letters),
    "bench_judge_shift.py": ("judge_shift", ["judge_shift.png"], check_judge_shift),
    "bench_coverage.py": ("coverage", ["coverage.png"], check_coverage),
    "bench_multiclass.py": ("multiclass", ["multiclass.png"], check_multiclass),
    "bench_pairwise.py": ("pairwise", [], check_pairwise),
    "bench_pairwise_counting.py": ("pairwise_counting", [], check_pairwise_counting),
    "bench_pairwise_style.py": ("pairwise_style_quick", [], check_pairwise_style),
    "bench_bayes_pairwise.py": ("bayes_pairwise", [], check_bayes_pairwise),
    "bench_bayes_scores.py": ("bayes_scores", [], check_bayes_scores),
    "bench_raters_latent.py": ("raters_latent", [], check_raters_latent),
    "bench_raters_reference.py": ("raters_reference_quick", [], check_raters_reference),
    "bench_peers.py": ("peers", ["peers.png"], check_peers),
    "bench_repeated.py": ("repeated", [], check_repeated),
    "bench_repeat_agreement.py": ("repeat_agreement", [], check_repeat_agreement),
    "bench_repeated_compare.py": ("repeated_compare", [], check_repeated_compare),
    "bench_repeated_categories.py": ("repeated_categories", [], check_repeated_categories),
    "bench_real_judges.py": ("real_judges", [], check_real_judges),
    "bench_raters_agreement.py": ("raters_agreement", [], check_raters_agreement),
    "bench_raters_intervals.py": ("raters_intervals", [], check_raters_intervals),
    "bench_raters_real.py": ("raters_real", [], check_raters_real),
    "bench_real_data.py": ("real_data", ["real_data_bias.png", "real_data_leaderboard.png"],
                           check_real_data),
    "bench_scale.py": ("scale", [], check_scale),
    "bench_sequential_data.py": ("sequential_data", [], check_sequential_data),
    "bench_sequential.py": ("sequential", [], check_sequential),
    "bench_sequential_scores.py": ("sequential_scores", [], check_sequential_scores),
    "bench_sequential_jury.py": ("sequential_jury", [], check_sequential_jury),
    "bench_compare_scores.py": ("compare_scores", [], check_compare_scores),
    "bench_shift.py": ("shift", ["shift.png"], check_shift),
    "bench_speed.py": ("speed", [], check_speed),
    "bench_profile_boundary.py": ("profile_boundary", [], check_profile_boundary),
    "bench_profile_speed.py": ("profile_speed", [], check_profile_speed),
    "bench_strata.py": ("strata", ["strata.png"], check_strata),
    "bench_warning_bound.py": ("warning_bound", [], check_warning_bound),
    "bench_warning_rules.py": ("warning_rules", [], check_warning_rules),
    "bench_weak_judge.py": ("weak_judge", ["weak_judge_coverage.png"], check_weak_judge),
}  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS)
def test_benchmark_quick_mode(script, tmp_path):
    assert script in CHECKS, f"{script} has no content check in CHECKS"
    name, figures, check = CHECKS[script]
    env = {**os.environ, "JUDGESTATS_RESULTS_DIR": str(tmp_path), "MPLBACKEND": "Agg"}
    out = subprocess.run(
        [sys.executable, str(BENCH / script), "--quick"],
        cwd=BENCH,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    text = (tmp_path / f"{name}.md").read_text()
    assert "Measured on:" in text
    for fig in figures:
        assert (tmp_path / fig).stat().st_size > 0, fig
    tables = parse_tables(text)
    assert tables, "no Markdown table in the results file"
    for t in tables:  # well-formed: every row has the header's number of cells
        assert all(len(r) == len(t.header) for r in t.rows), t.header
    check(tables)
