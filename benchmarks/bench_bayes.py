"""Bayesian twin: exact posterior speed/accuracy, PyMC fit times, MCMC-vs-exact agreement.

Targets (issue #4): exact interval ends within 1e-3 of a high-resolution computation;
<= 10 ms per data set and >= 1,000 data sets/s batched; the reference data set (Beta(1,1)
priors, 600/1000, tp 90 fn 10 tn 70 fp 30) gives mean 0.49965 and 95% ETI (0.38423, 0.60508).
PyMC fit times are measured cold (new process, empty compile cache), new process with a warm
cache, a second fit (other data) in the same process and a refit of one built model through
``pm.set_data``, per sampler that is installed: what makes the warm fits fast is PyTensor's
on-disk compile cache, not a compiled graph kept in memory (PyMC compiles the model's
functions again at every ``pm.sample``). Divergences at the defaults are counted on data sets
with a zero calibration cell (and half of them a test count of 0 or n), at PyMC's
``target_accept`` 0.8 and at the package's default (issue 31 §3).

Run: python benchmarks/bench_bayes.py [--quick]   (--quick: no cold compiles, fewer draws and
data sets)
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from _common import best_of, markdown_table, publish, quick_parser

import judgestats as js
import judgestats.bayes as jb
from judgestats.posterior import theta_posterior

ROOT = Path(__file__).resolve().parents[1]
REF = (js.JudgedCounts(positive=600, n=1000), js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30))


def batch(rng: np.random.Generator, size: int, *, zeros: bool):
    """Random data sets; ``zeros`` allows zero error counts (q up to 1) and small m."""
    n = rng.choice([50, 300, 1000, 5000, 100_000, 1_000_000], size)
    m1 = rng.choice([20, 50, 100, 400, 3000], size)
    m0 = rng.choice([20, 50, 100, 400, 3000], size)
    q1 = rng.choice([1.0, 0.95, 0.8, 0.65, 0.55] if zeros else [0.95, 0.8, 0.65, 0.55], size)
    q0 = rng.choice([1.0, 0.9, 0.7, 0.55] if zeros else [0.9, 0.7, 0.55], size)
    th = rng.choice([0.0, 0.02, 0.3, 0.7, 0.99], size)
    tp, tn = rng.binomial(m1, q1), rng.binomial(m0, q0)
    pos = rng.binomial(n, th * q1 + (1 - th) * (1 - q0))
    if not zeros:  # keep every count >= 2 (smooth Beta densities)
        tp, tn = np.clip(tp, 2, m1 - 2), np.clip(tn, 2, m0 - 2)
        pos = np.clip(pos, 2, n - 2)
    return js.JudgedCounts(positive=pos, n=n), js.ConfusionCounts(
        tp=tp, fn=m1 - tp, tn=tn, fp=m0 - tn
    )


def reference_table() -> str:
    """The issue's reference data set: our posterior mean and 95% ETI against the issue's."""
    post = theta_posterior(*REF)
    lo, hi = post.interval(0.95)
    rows = [
        [name, f"{want:.5f}", f"{got:.5f}", f"{got - want:+.1e}"]
        for name, want, got in (
            ("posterior mean", 0.49965, post.mean()),
            ("95% ETI lower", 0.38423, lo),
            ("95% ETI upper", 0.60508, hi),
        )
    ]
    return markdown_table(["quantity", "issue #4", "ours", "difference"], rows)


def speed_table(rng: np.random.Generator, quick: bool) -> str:
    single = best_of(lambda: theta_posterior(*REF).interval(0.95), repeat=5 if quick else 20)
    timings = [("one data set (reference)", 1, single)]
    sizes = ((200, False), (200, True)) if quick else ((1000, False), (5000, False), (1000, True))
    for size, zeros in sizes:
        t, c = batch(rng, size, zeros=zeros)
        dt = best_of(lambda t=t, c=c: theta_posterior(t, c).interval(0.95), repeat=2)
        timings.append((f"batch, {'with zero counts' if zeros else 'all counts >= 2'}", size, dt))
    rows = [
        [name, size, f"{dt:.3f} s", f"{1e3 * dt / size:.2f} ms", f"{size / dt:,.0f}"]
        for name, size, dt in timings
    ]
    header = ["workload", "data sets", "total", "per data set", "data sets/s"]
    return markdown_table(header, rows)


def accuracy_table(rng: np.random.Generator, n_acc: int, ref_nodes: int, ref_grid: int) -> str:
    rows = []
    for zeros in (False, True):
        t, c = batch(rng, n_acc, zeros=zeros)
        fast = theta_posterior(t, c)
        ref = theta_posterior(t, c, nodes=ref_nodes, grid_size=ref_grid)
        eti = np.abs(np.array(fast.interval(0.95)) - np.array(ref.interval(0.95))).max(0)
        hdi = np.abs(
            np.array(fast.interval(0.95, "hdi")) - np.array(ref.interval(0.95, "hdi"))
        ).max(0)
        mean = np.abs(fast.mean() - ref.mean()).max()
        med = np.abs(fast.median() - ref.median()).max()
        rows.append(
            [
                "with zero/one error counts" if zeros else "all counts >= 2",
                f"{eti.max():.1e} / {np.quantile(eti, 0.99):.1e}",
                f"{np.quantile(hdi, 0.99):.1e}",
                f"{mean:.1e}",
                f"{med:.1e}",
            ]
        )
    header = ["data sets", "ETI ends max / p99", "HDI ends p99", "mean max", "median max"]
    return markdown_table(header, rows)


def exact_section(rng: np.random.Generator, quick: bool) -> str:
    n_acc, ref_nodes, ref_grid = (30, 24, 600) if quick else (200, 40, 1500)
    reference = reference_table()
    speed = speed_table(rng, quick)
    lines = [
        "## Exact posterior (quadrature, no MCMC)",
        "",
        "Reference data set (Beta(1,1) priors; 600/1000, tp 90 fn 10 tn 70 fp 30):",
        "",
        reference,
        "",
        "Speed (posterior + 95% ETI; best of several runs):",
        "",
        speed,
        "",
        f"Accuracy against a high-resolution run ({ref_nodes} Gauss–Jacobi nodes, {ref_grid} θ "
        f"cells), {n_acc} data",
        "sets each (n from 50 to 10^6, m per class from 20 to 3000, θ from 0 to 0.99, judges",
        "from q = 0.55 to 1):",
        "",
        accuracy_table(rng, n_acc, ref_nodes, ref_grid),
        "",
        "(HDI maxima are not shown: for nearly flat or U-shaped posteriors, e.g. q̂0 = q̂1 = 0.5,",
        "several intervals are equally short and the HDI is not well defined.)",
        "",
    ]
    return "\n".join(lines)


FIT_SCRIPT = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np, judgestats as js, judgestats.bayes as jb
from judgestats.multiclass import CategoryCounts, ConfusionMatrix
cfg = json.loads(sys.argv[1])
t_import = time.perf_counter() - t0
kw = dict(draws=cfg["draws"], tune=cfg["draws"], chains=2, cores=1, random_seed=1,
          sampler=cfg["sampler"], backend=cfg["backend"])
if cfg["k"] == 2:
    data = [(js.JudgedCounts(positive=600, n=1000), js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)),
            (js.JudgedCounts(positive=300, n=900), js.ConfusionCounts(tp=80, fn=20, tn=60, fp=40))]
else:
    L = ("win", "tie", "lose")
    C1 = [[40, 6, 2], [8, 30, 5], [2, 4, 33]]
    C2 = [[30, 6, 2], [8, 40, 5], [2, 4, 23]]
    data = [(CategoryCounts([430, 380, 190], L), ConfusionMatrix(C1, L)),
            (CategoryCounts([300, 500, 200], L), ConfusionMatrix(C2, L))]
import warnings
import pymc as pm
times = []
for test, cal in data:
    t = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", js.SamplingWarning)  # short --quick runs
        jb.fit(test, cal, **kw)
    times.append(time.perf_counter() - t)
# the first model, built once and refitted to the second data set through pm.set_data
model = jb.build_model(*data[0])
test, cal = data[1]
if cfg["k"] == 2:
    new = {"n": test.n, "m0": cal.m0, "m1": cal.m1, "positive_observed": test.positive,
           "tn_observed": cal.tn, "tp_observed": cal.tp}
else:
    new = {"test_counts_observed": test.counts, "calibration_counts_observed": cal.counts.T}
t = time.perf_counter()
with model:
    pm.set_data(new)
kw.pop("sampler")
kw.pop("backend")
with warnings.catch_warnings():
    warnings.simplefilter("ignore", js.SamplingWarning)
    jb.sample(model, sampler=cfg["sampler"], backend=cfg["backend"], **kw)
refit = time.perf_counter() - t
print(json.dumps({"import": t_import, "first": times[0], "second": times[1], "refit": refit}))
"""


def timed_fits(cfg: dict, compiledir: str) -> dict:
    env = dict(os.environ)
    env["PYTENSOR_FLAGS"] = f"base_compiledir={compiledir},generated_src_dir={compiledir}/src"
    out = subprocess.run(
        [sys.executable, "-c", FIT_SCRIPT, json.dumps(cfg)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def pymc_section(quick: bool) -> str:
    draws = 200 if quick else 1000
    lines = [
        f"## PyMC fit time (2 chains × {draws} draws + as many tuning, cores=1)",
        "",
        "Each column is one `js.bayes.fit` (or refit), compiling included, timed in a new",
        "Python process whose PyTensor compile cache (`base_compiledir`) is set by",
        "`PYTENSOR_FLAGS`: cold = empty cache; warm = the cache the cold run filled, the first",
        "fit of the process (nothing in memory: what the warm fit saves is the on-disk compile",
        "cache); second = another fit, other data, in the same process (`fit` builds a new model",
        "and PyMC compiles its functions again, finding them in the cache); set_data refit = the",
        "first fit's built model refitted to the second data set through `pm.set_data` and",
        "`js.bayes.sample`, which compiles again just the same (PyMC compiles at every",
        "`pm.sample`; no compiled graph is kept with the model). The counts enter as `pm.Data`,",
        "so every data set of one shape gives the same graph and finds the same cached code.",
        "`make` and the notebooks keep the cache in the checkout's `.pytensor/` (elsewhere",
        "PyTensor's default is `~/.pytensor`).",
        "",
    ]
    rows = []
    configs = (
        [(2, "pymc", None)]
        if quick
        else [
            (2, "pymc", None),
            (2, "pymc", "c"),
            (3, "pymc", None),
            (3, "pymc", "c"),
            (2, "nutpie", None),
            (2, "numpyro", None),
        ]
    )
    for k, sampler, backend in configs:
        name = "binary" if k == 2 else "k = 3"
        label = sampler + (f" ({backend})" if backend else " (numba)" if sampler == "pymc" else "")
        if sampler != "pymc" and importlib.util.find_spec(sampler) is None:
            rows.append([name, label, "not installed", "", "", ""])
            continue
        cfg = {"k": k, "sampler": sampler, "backend": backend, "draws": draws}
        with tempfile.TemporaryDirectory(prefix="pytensor-bench-") as tmp:
            cold = "skipped (--quick)" if quick else f"{timed_fits(cfg, tmp)['first']:.1f} s"
            warm = timed_fits(cfg, tmp if not quick else str(ROOT / ".pytensor"))
        rows.append([name, label, cold, f"{warm['first']:.1f} s", f"{warm['second']:.1f} s",
                     f"{warm['refit']:.1f} s"])  # fmt: skip
    header = ["model", "sampler (backend)", "cold", "warm: first fit", "warm: second fit",
              "warm: set_data refit"]  # fmt: skip
    return "\n".join([*lines, markdown_table(header, rows)]) + "\n"


def zero_cell_data(i: int) -> tuple[js.JudgedCounts, js.ConfusionCounts]:
    """Data set ``i`` (seeded by ``[31, i]``): one or two zero calibration error cells (fn, fp).

    m0, m1 from 10 to 300, n from 50 to 2000, judges q from 0.6 to 1, θ from 0 to 1; the test
    count is set to 0 for a quarter of the data sets and to n for another quarter.
    tests/bayes/test_fit.py fits the first of them.
    """
    rng = np.random.default_rng([31, i])
    m0, m1 = (int(m) for m in rng.choice([10, 20, 60, 100, 300], 2))
    n = int(rng.choice([50, 200, 500, 2000]))
    q0, q1 = rng.uniform(0.6, 1.0, 2)
    th = rng.choice([0.0, 0.05, 0.2, 0.5, 0.8, 0.95, 1.0])
    tp, tn = int(rng.binomial(m1, q1)), int(rng.binomial(m0, q0))
    pos = int(rng.binomial(n, th * q1 + (1 - th) * (1 - q0)))
    kind = rng.integers(3)
    tp = m1 if kind in (0, 2) else tp  # fn = 0
    tn = m0 if kind in (1, 2) else tn  # fp = 0
    pos = {0: 0, 1: n}.get(int(rng.integers(4)), pos)
    return js.JudgedCounts(positive=pos, n=n), js.ConfusionCounts(
        tp=tp, fn=m1 - tp, tn=tn, fp=m0 - tn
    )


#: The fit of data set i is seeded with ZERO_CELL_SEED + i.
ZERO_CELL_SEED = 10_000


def zero_cell_section(quick: bool) -> str:
    size = 3 if quick else 100
    targets = (jb.TARGET_ACCEPT,) if quick else (0.8, jb.TARGET_ACCEPT)
    # --quick (the test suite's run): 2 chains, half the steps (16 -> 11 s of CPU), with ESS
    # still >= 400 (no fit warned); tests/bayes/test_fit.py fits 10 such data sets as well
    chains, draws = (2, 1000) if quick else (4, 1000)
    data = [zero_cell_data(i) for i in range(size)]
    zero_test = sum(t.positive in (0, t.n) for t, _ in data)
    lines = [
        f"## Zero cells: divergences at the defaults ({size} data sets, {chains} chains × "
        f"{draws} draws)",
        "",
        f"Data sets `zero_cell_data(0)` … `zero_cell_data({size - 1})` of this script (every one",
        f"with fn = 0 or fp = 0 or both; {zero_test} with the test count 0 or n), each fitted by",
        "`js.bayes.fit` at its defaults (cores=1, random_seed = 10000 + i) with NUTS's",
        "`target_accept` at PyMC's 0.8 (the package's default before issue 31; not in --quick)",
        f"and at the package's default {jb.TARGET_ACCEPT}. |z| = |MCMC − exact posterior mean|",
        "/ its Monte Carlo s.e. (posterior s.d. / √ESS), the exact posterior from",
        "`judgestats.posterior.theta_posterior` (quadrature).",
        "",
    ]
    rows = []
    for target in targets:
        divergences, times, z, unreliable = [], [], [], 0
        for i, (test, cal) in enumerate(data):
            t = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", js.SamplingWarning)  # counted below
                res = jb.fit(test, cal, cores=1, random_seed=ZERO_CELL_SEED + i,
                             sample_kwargs={"target_accept": target},
                             **({"chains": chains, "draws": draws} if quick else {}))  # fmt: skip
            times.append(time.perf_counter() - t)
            d = res.diagnostics
            divergences.append(d.divergences)
            unreliable += not d.ok
            th = np.asarray(res.posterior["posterior"]["theta"]).ravel()
            se = th.std() / np.sqrt(min(d.min_ess_bulk, d.min_ess_tail))
            z.append(abs(res.estimate - float(theta_posterior(test, cal).mean())) / se)
        div = np.array(divergences)
        rows.append([
            f"{target}" + (" (default)" if target == jb.TARGET_ACCEPT else " (PyMC's)"),
            size, int((div > 0).sum()), int(div.sum()), int(div.max()), unreliable,
            f"{np.max(z):.1f}", f"{np.median(times):.1f} s",
        ])  # fmt: skip
    header = ["target_accept", "data sets", "divergent fits", "divergences", "max per fit",
              "fits warned", "max |z| mean vs exact", "median fit time"]  # fmt: skip
    return "\n".join([*lines, markdown_table(header, rows)]) + "\n"


def agreement_section(quick: bool) -> str:
    draws = 300 if quick else 2500
    cases = [
        ("reference", *REF, None),
        (
            "weak judge (q̂0 + q̂1 = 1.1)",
            js.JudgedCounts(positive=275, n=500),
            js.ConfusionCounts(tp=60, fn=40, tn=50, fp=50),
            None,
        ),
        (
            "boundary (θ near 0)",
            js.JudgedCounts(positive=30, n=1000),
            js.ConfusionCounts(tp=90, fn=10, tn=97, fp=3),
            None,
        ),
        (
            "restricted q0 + q1 > 1, m = 20",
            js.JudgedCounts(positive=80, n=100),
            js.ConfusionCounts(tp=6, fn=4, tn=5, fp=5),
            jb.Priors(better_than_chance=True),
        ),
    ]
    lines = [
        f"## MCMC (pymc NUTS, {2 if quick else 4} chains × {draws} draws, default target_accept "
        f"{jb.TARGET_ACCEPT}) vs exact posterior",
        "",
        "Differences in units of their Monte Carlo standard error (se from the tail ESS).",
        "",
    ]
    rows = []
    for name, test, cal, priors in cases[:1] if quick else cases:
        post = theta_posterior(test, cal, priors=priors)
        res = jb.fit(
            test,
            cal,
            priors=priors,
            draws=draws,
            tune=1000,
            chains=2 if quick else 4,
            cores=1,
            random_seed=20,
        )
        ess = min(res.diagnostics.min_ess_bulk, res.diagnostics.min_ess_tail)
        th = np.asarray(res.posterior["posterior"]["theta"]).ravel()
        lo, hi = post.interval(0.95)
        se_mean = th.std() / np.sqrt(ess)
        cells = [
            f"{res.estimate - post.mean():+.4f} ({(res.estimate - post.mean()) / se_mean:+.1f} se)"
        ]
        for q, got, exact in ((0.025, res.ci.low, lo), (0.975, res.ci.high, hi)):
            dens = np.interp(exact, post.midpoints, post.density)
            se = np.sqrt(q * (1 - q) / ess) / max(dens, 1e-3)
            cells.append(f"{got - exact:+.4f} ({(got - exact) / se:+.1f} se)")
        rows.append(
            [
                name,
                f"{post.mean():.4f} [{lo:.4f}, {hi:.4f}]",
                f"{res.estimate:.4f} [{res.ci.low:.4f}, {res.ci.high:.4f}]",
                *cells,
                f"{ess:.0f}",
            ]
        )
    header = ["data set", "exact mean [95% ETI]", "MCMC mean [95% ETI]", "Δ mean", "Δ lower",
              "Δ upper", "min ESS"]  # fmt: skip
    return "\n".join([*lines, markdown_table(header, rows)]) + "\n"


def main() -> None:
    args = quick_parser(__doc__, "no cold compiles, fewer draws").parse_args()
    rng = np.random.default_rng(0)
    t0 = time.perf_counter()
    parts = [
        exact_section(rng, args.quick),
        pymc_section(args.quick),
        zero_cell_section(args.quick),
        agreement_section(args.quick),
    ]
    body = "\n".join(parts) + f"\nTotal benchmark time: {time.perf_counter() - t0:.0f} s.\n"
    print(body)
    publish("bayes", "Bayesian twin: exact posterior and PyMC models", body)


if __name__ == "__main__":
    main()
