"""Coverage of peer libraries' intervals on the paper's simulated data (issue #7, part 3).

Methods, all run on the SAME simulated data sets per replication:
judgestats "adjusted-wald" (the paper) and "bootstrap"; judgy's ``estimate_success_rate``;
ppi_py's ``ppi_mean_ci`` (point estimate from ``ppi_mean_pointestimate``); the naive Wilson
interval around p̂. The data are the paper's Monte Carlo (n = 1000, m = 200, judge
(q0, q1) = (0.7, 0.9)) in three calibration designs: stratified by true class (m0 = m1 = 100,
the paper), a random calibration sample from the test distribution (θ_Q = θ_P), and label shift
(θ_P = 0.5, θ_Q in {0.25, 0.75}). Counts come from ``judgestats.simulate.draw``; the peers get
item-level 0/1 arrays built from those counts.

The peers are optional: ``pip install -r benchmarks/requirements-peers.txt``. Without them the
script reports the judgestats and Wilson columns only, prints which peer is missing and exits 0.
Writes benchmarks/results/peers.md and peers.png.
Run: python benchmarks/bench_peers.py [--quick] [--jobs N]
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import multiprocessing
import os
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from _common import markdown_table, publish, quick_parser, save_figure

from judgestats.estimators import rogan_gladen_raw
from judgestats.intervals import compute_bounds, z_value
from judgestats.simulate import draw

N, M, Q0, Q1, LEVEL = 1000, 200, 0.7, 0.9, 0.95
THETA_P_SHIFT, THETA_Q_SHIFT = 0.5, (0.25, 0.75)
METHODS = ["adjusted-wald", "bootstrap", "judgy", "ppi", "wilson"]
LABEL = {
    "adjusted-wald": "judgestats adjusted-wald (paper)",
    "bootstrap": "judgestats bootstrap",
    "judgy": "judgy estimate_success_rate",
    "ppi": "ppi_py ppi_mean_ci",
    "wilson": "naive Wilson (p̂)",
}
SHORT = {
    "adjusted-wald": "adj.-Wald",
    "bootstrap": "js bootstrap",
    "judgy": "judgy",
    "ppi": "ppi_py",
    "wilson": "Wilson",
}
PEERS = {"judgy": ("judgy", "judgy"), "ppi": ("ppi_py", "ppi-python")}  # key: (module, dist)
INSTALL = "pip install -r benchmarks/requirements-peers.txt"


@dataclass
class Design:
    key: str
    title: str
    x_name: str  # what the rows vary
    x: np.ndarray  # θ_P (stratified, random) or θ_Q (label shift)
    theta_p: np.ndarray
    theta_q: np.ndarray | None  # None: stratified by class (m0 = m1 = M/2)


def _import_peer(module: str):
    # ppi_py calls warnings.simplefilter("ignore") at import; keep that inside this block so the
    # benchmark process keeps its own warning filters.
    with warnings.catch_warnings():
        return importlib.import_module(module)


def available_peers() -> tuple[dict[str, str], list[str]]:
    """Versions of the importable peers, and the names of the missing ones."""
    found, missing = {}, []
    for key, (module, dist) in PEERS.items():
        try:
            _import_peer(module)
            found[key] = importlib.metadata.version(dist)
        except ImportError:
            missing.append(dist)
    return found, missing


# ----------------------------------------------------------------------------- peer worker
def _items(positive, n, tp, fn, tn, fp):
    """Item-level arrays from counts (the peers are exchangeable in items, so order is free)."""
    labels = np.repeat([1.0, 1.0, 0.0, 0.0], [tp, fn, tn, fp])  # human labels, calibration
    preds = np.repeat([1.0, 0.0, 0.0, 1.0], [tp, fn, tn, fp])  # judge labels, calibration
    unlabeled = np.repeat([1.0, 0.0], [positive, n - positive])  # judge labels, test set
    return labels, preds, unlabeled


def run_peers(task: dict) -> dict:
    """Call the installed peers once per replication of one chunk; NaN where a call raised."""
    counts = task["counts"]  # (reps, 6): positive, n, tp, fn, tn, fp
    reps = counts.shape[0]
    out = {}
    if "judgy" in task["peers"]:
        judgy = _import_peer("judgy")
        # judgy draws its bootstrap from NumPy's legacy global RNG (np.random.choice) and takes
        # no generator: seed that global state (in this worker process) from the benchmark's seed.
        np.random.seed(task["judgy_seed"])  # noqa: NPY002 (the only way to make judgy repeatable)
        res = np.full((reps, 3), np.nan)
        errors: dict[str, int] = {}
        t = time.perf_counter()
        for r in range(reps):
            if not task["valid"][r]:
                continue
            labels, preds, unlabeled = _items(*counts[r])
            try:
                res[r] = judgy.estimate_success_rate(
                    test_labels=labels,
                    test_preds=preds,
                    unlabeled_preds=unlabeled,
                    bootstrap_iterations=task["judgy_iterations"],
                    confidence_level=LEVEL,
                )
            except (ValueError, RuntimeError) as exc:
                errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
        out["judgy"] = (res, time.perf_counter() - t, errors)
    if "ppi" in task["peers"]:
        ppi_py = _import_peer("ppi_py")
        point = getattr(ppi_py, "ppi_mean_pointestimate", None)
        res = np.full((reps, 3), np.nan)
        errors = {}
        t = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the library runs this way after its own import
            for r in range(reps):
                if not task["valid"][r]:
                    continue
                labels, preds, unlabeled = _items(*counts[r])
                try:
                    low, high = ppi_py.ppi_mean_ci(labels, preds, unlabeled, alpha=1 - LEVEL)
                    est = point(labels, preds, unlabeled) if point else np.nan
                    res[r] = [np.squeeze(est), np.squeeze(low), np.squeeze(high)]
                except (ValueError, FloatingPointError, ZeroDivisionError) as exc:
                    errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
        out["ppi"] = (res, time.perf_counter() - t, errors)
    return out


# ----------------------------------------------------------------------------- judgestats side
def wilson(positive, n, level):
    z = float(z_value(level))
    n = np.asarray(n, dtype=float)
    p = np.asarray(positive, dtype=float) / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return p, np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def judgestats_results(data, gen, n_resamples):
    """(estimate, low, high) arrays of shape (points, reps) per judgestats method + Wilson."""
    test, cal = data.test, data.calibration
    raw = rogan_gladen_raw(test.p_hat, cal.specificity, cal.sensitivity)
    rg = np.clip(raw, 0.0, 1.0)  # the clipped Rogan–Gladen estimate (NaN if q0 + q1 <= 1)
    out = {}
    for method, opts in (("adjusted-wald", {}), ("bootstrap", {"n_resamples": n_resamples})):
        b = compute_bounds(test, cal, method=method, confidence_level=LEVEL, rng=gen, **opts)
        out[method] = (rg, b.low, b.high)
    out["wilson"] = wilson(test.positive, test.n, LEVEL)
    return out


def summarise(est, low, high, truth, valid):
    """coverage, mean length, bias, RMSE and undefined share per point (axis 1 = reps)."""
    defined = valid & np.isfinite(low) & np.isfinite(high)
    has_est = defined & np.isfinite(est)
    k = np.maximum(defined.sum(axis=1), 1)
    k_est = np.maximum(has_est.sum(axis=1), 1)
    t = truth[:, None]
    with np.errstate(invalid="ignore"):
        cover = np.where(defined, (low <= t) & (t <= high), False).sum(axis=1) / k
        length = np.where(defined, high - low, 0.0).sum(axis=1) / k
        err = np.where(has_est, est - t, 0.0)
    stats = {
        "coverage": np.where(defined.any(axis=1), cover, np.nan),
        "length": np.where(defined.any(axis=1), length, np.nan),
        "bias": np.where(has_est.any(axis=1), err.sum(axis=1) / k_est, np.nan),
        "rmse": np.where(has_est.any(axis=1), np.sqrt((err**2).sum(axis=1) / k_est), np.nan),
    }
    stats["undefined"] = 1.0 - defined.mean(axis=1)
    return stats


# ----------------------------------------------------------------------------- main
def designs(quick: bool) -> list[Design]:
    grid = np.round(np.linspace(0, 1, 3 if quick else 11), 10)
    inner = np.array([0.1, 0.5, 0.9]) if quick else grid[1:-1]
    q_shift = np.array(THETA_Q_SHIFT)
    return [
        Design(
            "stratified",
            "Stratified calibration (m0 = m1 = 100; the paper's design)",
            "θ",
            grid,
            grid,
            None,
        ),
        Design(
            "random",
            "Random calibration sample from the test distribution (θ_Q = θ_P)",
            "θ",
            inner,
            inner,
            inner,
        ),
        Design(
            "shift",
            f"Label shift (θ_P = {THETA_P_SHIFT}, random calibration sample with θ_Q ≠ θ_P)",
            "θ_Q",
            q_shift,
            np.full(q_shift.size, THETA_P_SHIFT),
            q_shift,
        ),
    ]


def _fmt(v, spec=".3f"):
    return "–" if not np.isfinite(v) else format(v, spec)


@dataclass(frozen=True)
class Budget:
    reps: int
    chunk: int  # replications per peer task (load balance over workers)
    judgy_iterations: int
    js_resamples: int


def parse_args() -> argparse.Namespace:
    ap = quick_parser(__doc__, "40 replications, 3 θ values, judgy with 500 bootstrap iterations")
    ap.add_argument(
        "--jobs",
        type=int,
        default=min(2, os.cpu_count() or 1),
        help="worker processes for the peer calls (default: min(2, CPUs))",
    )
    return ap.parse_args()


def make_tasks(ds_list: list[Design], b: Budget, versions: dict) -> tuple[list, dict]:
    """Draw every design's replications once; cut them into peer tasks."""
    root = np.random.SeedSequence([2026, 7, 3])
    tasks, data_by_design = [], {}
    for d, seq in zip(ds_list, root.spawn(len(ds_list)), strict=True):
        gen = np.random.default_rng(seq)
        data = draw(
            theta=d.theta_p,
            q0=Q0,
            q1=Q1,
            n=N,
            m0=M // 2,
            m1=M - M // 2,
            reps=b.reps,
            theta_calibration=d.theta_q,
            rng=gen,
        )
        data_by_design[d.key] = (data, gen)
        c = data.calibration
        counts = np.stack(
            [
                np.broadcast_to(np.asarray(a, dtype=np.int64), data.valid.shape)
                for a in (data.test.positive, data.test.n, c.tp, c.fn, c.tn, c.fp)
            ],
            axis=-1,
        )  # (points, reps, 6)
        for i in range(d.x.size):
            for r0 in range(0, b.reps, b.chunk):
                tasks.append(
                    {
                        "design": d.key,
                        "point": i,
                        "r0": r0,
                        "counts": counts[i, r0 : r0 + b.chunk],
                        "valid": data.valid[i, r0 : r0 + b.chunk],
                        "peers": list(versions),
                        "judgy_iterations": b.judgy_iterations,
                        "judgy_seed": int(gen.integers(2**32)),
                    }
                )
    return tasks, data_by_design


def run_tasks(tasks, ds_list, versions, reps, jobs) -> dict:
    """Run the peer tasks (in ``jobs`` processes); (estimate, low, high) per design and peer."""
    out = {"results": {}, "time": dict.fromkeys(versions, 0.0), "calls": dict.fromkeys(versions, 0)}
    out["errors"] = errors_by = {}
    if not versions:
        return out
    for d in ds_list:
        for k in versions:
            out["results"][(d.key, k)] = np.full((d.x.size, reps, 3), np.nan)
    if jobs > 1:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            done = list(pool.map(run_peers, tasks))
    else:
        done = [run_peers(t) for t in tasks]
    for task, res in zip(tasks, done, strict=True):
        n_valid = int(np.count_nonzero(task["valid"]))
        for k, (arr, secs, errors) in res.items():
            sl = slice(task["r0"], task["r0"] + arr.shape[0])
            out["results"][(task["design"], k)][task["point"], sl] = arr
            out["time"][k] += secs
            out["calls"][k] += n_valid
            bucket = errors_by.setdefault((task["design"], k), {})
            for name, cnt in errors.items():
                bucket[name] = bucket.get(name, 0) + cnt
    return out


def evaluate_all(ds_list, data_by_design, peer_out, versions, methods, js_resamples):
    """Summaries per design and method; judgy's vs judgestats' point estimate per design."""
    results, same_estimate = {}, {}
    for d in ds_list:
        data, gen = data_by_design[d.key]
        per = judgestats_results(data, gen, js_resamples)
        for k in versions:
            arr = peer_out[(d.key, k)]
            per[k] = (arr[..., 0], arr[..., 1], arr[..., 2])
        if "judgy" in versions:  # judgy's point estimate is Rogan–Gladen too: check it agrees
            a, b = per["judgy"][0], per["adjusted-wald"][0]
            both = np.isfinite(a) & np.isfinite(b)
            same_estimate[d.key] = float(np.max(np.abs(a[both] - b[both]), initial=0.0))
        results[d.key] = {m: summarise(*per[m], d.theta_p, data.valid) for m in methods}
    return results, same_estimate


def summary_table(ds_list, results, methods) -> str:
    rows = []
    for d in ds_list:
        for m in methods:
            s = results[d.key][m]
            rows.append(
                [
                    d.key,
                    LABEL[m],
                    _fmt(np.nanmin(s["coverage"])),
                    _fmt(np.nanmean(s["coverage"])),
                    _fmt(np.nanmax(s["coverage"])),
                    _fmt(np.nanmean(s["length"]), ".4f"),
                    f"{_fmt(np.nanmin(s['bias']), '+.4f')} to {_fmt(np.nanmax(s['bias']), '+.4f')}",
                    _fmt(np.nanmean(s["rmse"]), ".4f"),
                    _fmt(np.mean(s["undefined"]), ".4f"),
                ]
            )
    header = ["design", "method", "coverage min", "coverage mean", "coverage max",
              "mean length", "bias range", "RMSE mean", "undefined"]  # fmt: skip
    return markdown_table(header, rows)


def grid_sections(ds_list, results, methods) -> list[str]:
    """Per design: coverage, length and bias by grid point."""
    sections = []
    for d in ds_list:
        blocks = []
        for var, title, spec in (
            ("coverage", "coverage", ".3f"),
            ("length", "mean length", ".4f"),
            ("bias", "bias of the point estimate", "+.4f"),
        ):
            rows = [
                [f"{x:.2f}", *(_fmt(results[d.key][m][var][i], spec) for m in methods)]
                for i, x in enumerate(d.x)
            ]
            table = markdown_table([d.x_name, *(SHORT[m] for m in methods)], rows)
            blocks.append(f"**{title.capitalize()}**\n\n" + table)
        sections.append(f"### {d.title}\n\n" + "\n\n".join(blocks))
    return sections


def figure(ds_list, results, methods) -> None:
    fig, axes = plt.subplots(2, 3, figsize=(14, 7), layout="constrained")
    markers = dict(zip(METHODS, ["o", "s", "^", "D", "v"], strict=True))
    titles = {
        "stratified": "stratified, m0 = m1 = 100",
        "random": "random sample, θ_Q = θ_P",
        "shift": f"label shift, θ_P = {THETA_P_SHIFT}",
    }
    for j, d in enumerate(ds_list):
        for m in methods:
            s = results[d.key][m]
            axes[0, j].plot(d.x, s["coverage"], marker=markers[m], ms=4, label=LABEL[m])
            axes[1, j].plot(d.x, s["length"], marker=markers[m], ms=4, label=LABEL[m])
        axes[0, j].axhline(LEVEL, color="k", lw=0.8, ls=":")
        axes[0, j].set_ylim(-0.02, 1.02)
        axes[0, j].set_title(titles[d.key], fontsize=10)
        axes[0, j].set_ylabel("coverage of nominal 95% interval")
        axes[1, j].set_ylabel("mean interval length")
        for ax in axes[:, j]:
            ax.set_xlabel("θ_Q (calibration rate)" if d.key == "shift" else "θ")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=len(methods), fontsize=8)
    save_figure(fig, "peers.png", dpi=100)


def timing_text(versions: dict, peers: dict, judgy_iterations: int) -> tuple[str, str]:
    """(peer versions, peer call counts and cost per call)."""
    if not versions:
        return "none installed", "–"
    vers = ", ".join(f"{PEERS[k][1]} {v}" for k, v in versions.items())
    per_call = {k: 1e3 * peers["time"][k] / max(peers["calls"][k], 1) for k in versions}
    timing = "; ".join(
        f"{k}: {peers['calls'][k]:,} calls, {per_call[k]:.1f} ms per call"
        + (
            f" ({per_call[k] / judgy_iterations:.3f} ms per bootstrap iteration)"
            if k == "judgy"
            else ""
        )
        for k in versions
    )
    return vers, timing


def setup_text(b: Budget, ds_list: list[Design], mode: str) -> str:
    """The data, the designs and the item-level arrays (the first set-up bullets)."""
    reps = b.reps
    return f"""\
* Data: the paper's Monte Carlo. Test set n = {N} items judged only by the LLM; calibration
  set m = {M} items with human and judge labels; judge specificity q0 = {Q0}, sensitivity
  q1 = {Q1} (shared by test and calibration items); nominal level {LEVEL:.0%}.
  {reps:,} replications per grid point{mode}, drawn once by `judgestats.simulate.draw`
  (seeded `numpy.random.SeedSequence([2026, 7, 3])`, one child per design); **every method is
  run on the same replications**.
* Designs:
  1. *stratified*: m0 = m1 = {M // 2} by true class (the paper's design), θ in
     {{{", ".join(f"{x:g}" for x in ds_list[0].x)}}};
  2. *random*: the m = {M} calibration items are a random sample from the test distribution
     (class split m1 ~ Bin({M}, θ)), θ in {{{", ".join(f"{x:g}" for x in ds_list[1].x)}}}
     (θ = 0 and 1 are left out: the calibration sample then has one class only, so q̂0 or q̂1
     does not exist and judgy raises `ValueError` by design);
  3. *shift*: θ_P = {THETA_P_SHIFT} on the test set, calibration items a random sample with
     θ_Q in {{{", ".join(f"{x:g}" for x in ds_list[2].x)}}} (the paper's label shift,
     P(judge | truth) unchanged).
* Item-level arrays for the peers, built from each replication's counts (both peers treat items
  as exchangeable): human labels `[1]*tp + [1]*fn + [0]*tn + [0]*fp`, judge labels
  `[1]*tp + [0]*fn + [0]*tn + [1]*fp`, unlabelled judge labels
  `[1]*positive + [0]*(n − positive)` (float64 0/1 numpy arrays).
"""


def calls_text(b: Budget) -> str:
    """How each method is called (set-up bullet)."""
    judgy_iterations, chunk, js_resamples = b.judgy_iterations, b.chunk, b.js_resamples
    return f"""\
* Calls (as each package's README / docstring documents them):
  * `judgy.estimate_success_rate(test_labels=labels, test_preds=preds,
    unlabeled_preds=unlabeled, bootstrap_iterations={judgy_iterations:,},
    confidence_level=0.95)` → `(theta_hat, lower, upper)`. judgy's "test set" is the labelled
    calibration set here, its "unlabeled" data the test set. Docstring default
    `bootstrap_iterations=20000`, reduced to {judgy_iterations:,} for run time (its bootstrap
    is a Python loop; measured cost below). judgy draws from NumPy's legacy global RNG
    (`np.random.choice`) and takes no generator: the benchmark calls `np.random.seed` (inside
    its worker process) once per chunk of {chunk} replications with a seed drawn from its own
    Generator.
  * `ppi_py.ppi_mean_ci(Y=labels, Yhat=preds, Yhat_unlabeled=unlabeled, alpha=0.05)` →
    `(lower, upper)` (README usage; the default `alpha` is 0.1, so it is set to 0.05; default
    `lam=None`, i.e. the power-tuned PPI++ interval) and
    `ppi_py.ppi_mean_pointestimate(labels, preds, unlabeled)` (same default `lam=None`) for
    the point estimate. The interval is used as returned (not truncated to [0, 1]).
    `import ppi_py` runs `warnings.simplefilter("ignore")`; the benchmark imports it inside
    `warnings.catch_warnings()` so its own filters stay as they were.
  * judgestats: `compute_bounds(test, cal, method="adjusted-wald" | "bootstrap",
    confidence_level=0.95)` on the batched counts (bootstrap with `n_resamples={js_resamples:,}`,
    parametric percentile bootstrap of the three binomials); point estimate: the clipped
    Rogan–Gladen θ̂.
  * naive Wilson: the Wilson score interval around p̂ = positive / n (judge labels taken as
    human labels), point estimate p̂.
"""


def counting_text(reps: int, peers: dict, same_estimate: dict) -> str:
    """Undefined replications, peer errors and the point-estimate check (set-up bullets)."""
    errs = [
        f"{k} in the {dk} design: " + ", ".join(f"{c} × {n}" for n, c in e.items())
        for (dk, k), e in peers["errors"].items()
        if e
    ]
    agree = "; ".join(f"{k}: {v:.1e}" for k, v in same_estimate.items()) if same_estimate else "–"
    return f"""\
* A replication where a method returns no interval (judgestats: q̂0 + q̂1 <= 1 or an empty
  calibration class; a peer: an exception) counts as *undefined* and is left out of that
  method's coverage, length and bias; the share is in the column `undefined`. Coverage is the
  share of defined replications with lower <= θ_P <= upper; bias and RMSE are those of each
  method's point estimate against θ_P. Monte Carlo standard error of a coverage near 0.95 with
  {reps:,} replications: {np.sqrt(LEVEL * (1 - LEVEL) / reps):.3f}.
* Peer errors: {"; ".join(errs) if errs else "none"}.
* judgy's θ̂ and judgestats' clipped Rogan–Gladen θ̂ on the same data, largest absolute
  difference per design: {agree}.

"""


def assumptions_table() -> str:
    """Documented assumption of each method and whether each design meets it."""
    holds3 = ["holds", "holds", "holds"]
    not3 = ["does not hold", "does not hold", "does not hold"]
    rows = [
        [
            f"{LABEL['adjusted-wald']}, {LABEL['bootstrap']}",
            "the judge's P(judge label \\| human label) is the same on test and calibration "
            "items; calibration classes may be fixed or random (paper, Sec. on distribution "
            "shift, eq. (19))",
            *holds3,
        ],
        [
            LABEL["judgy"],
            'TPR/TNR measured on the labelled set apply to the unlabelled data (README "How it '
            'works"); no sampling design is stated — its bootstrap resamples the labelled items '
            "with replacement and keeps the unlabelled pass rate fixed (core.py)",
            *holds3,
        ],
        [
            LABEL["ppi"],
            "labelled and unlabelled data are i.i.d. draws from the same distribution (README: "
            '"The methods work both in the i.i.d. setting and for certain classes of '
            'distribution shifts"; `ppi_mean_ci` has no shift option)',
            "does not hold (class mix 1/2 : 1/2 fixed; equals the test mix only at θ = 0.5)",
            "holds",
            "does not hold (θ_Q ≠ θ_P)",
        ],
        [LABEL["wilson"], "judge labels equal human labels (q0 = q1 = 1)", *not3],
    ]
    header = ["method", "assumption (source)", "stratified", "random", "shift"]
    return markdown_table(header, rows)


def main() -> None:
    args = parse_args()
    b = Budget(40, 40, 500, 2_000) if args.quick else Budget(500, 125, 2_000, 9_999)
    versions, missing = available_peers()
    methods = [m for m in METHODS if m not in PEERS or m in versions]
    t0 = time.perf_counter()
    ds_list = designs(args.quick)
    tasks, data_by_design = make_tasks(ds_list, b, versions)
    t_peers = time.perf_counter()
    peers = run_tasks(tasks, ds_list, versions, b.reps, args.jobs)
    t_peers = time.perf_counter() - t_peers
    t_js = time.perf_counter()
    results, same_estimate = evaluate_all(
        ds_list, data_by_design, peers["results"], versions, methods, b.js_resamples
    )
    t_js = time.perf_counter() - t_js
    elapsed = time.perf_counter() - t0
    summary = summary_table(ds_list, results, methods)
    sections = grid_sections(ds_list, results, methods)
    print(summary)
    figure(ds_list, results, methods)
    mode = " (--quick)" if args.quick else ""
    flag = " --quick" if args.quick else ""
    vers, timing = timing_text(versions, peers, b.judgy_iterations)
    missing_note = (
        f"\n\n**Not run (not installed): {', '.join(missing)}** — `{INSTALL}`." if missing else ""
    )
    setup = (
        setup_text(b, ds_list, mode) + calls_text(b) + counting_text(b.reps, peers, same_estimate)
    )
    body = f"""\
Peer versions: {vers}.{missing_note}

## Set-up

{setup}## Documented assumption of each method, per design

{assumptions_table()}

## Summary (coverage range and means over each design's grid)

{summary}

## By grid point

{chr(10).join(s + chr(10) for s in sections)}
![peers](peers.png)

Peer calls: {timing}.

Run time: {elapsed:.1f} s{mode} in all (`python benchmarks/bench_peers.py{flag}`):
peer calls {t_peers:.1f} s wall time on {args.jobs} worker process(es); judgestats methods and
Wilson on all replications {t_js:.1f} s (one process).
"""
    title = "Peer libraries on the same simulated data (bench_peers.py)"
    publish("peers", title, body, elapsed)
    if missing:
        print(f"note: {' and '.join(missing)} not installed, so not run; to include: {INSTALL}")


if __name__ == "__main__":
    main()
