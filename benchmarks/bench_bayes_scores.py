"""The Bayesian twin of a judge score's correction: SBC and coverage (issue 39).

``js.bayes.fit_scores`` has two models: the calibrated-score model of the random design (the
human label ~ Bernoulli(g(score; β)), a logistic or beta link, θ over the rows' Bayesian
bootstrap) and the binned J × K model of the paper's design (score bins declared in advance
as judge letters, Dirichlet columns, a flat Beta on θ). Five parts, in the order run:

  C  frequentist coverage of the random design's 95% credible interval beside the frequentist
     twin's (``js.scores.correct_scores``, PPI++ with a cross-fitted logistic or isotonic
     calibration, Wald): cells of two kinds, each a fixed cell and a cell drawn at random
     (seed 3900). "logit" cells: the score s ~ N(0, 1) (a logit), y | s ~ Bernoulli(expit(a +
     b·s)) — the logistic link holds; θ = E expit(a + b·Z) by Gauss–Hermite. "beta" cells:
     y ~ Bernoulli(θ), s | y ~ Beta(k, 2) if y = 1 and Beta(2, k) if y = 0 — the beta link
     holds, the logistic link on the raw score is misspecified. Each data set: N rows, the
     first n (a random sample: rows are exchangeable) labelled; the truth is the population θ.
     80 data sets a cell (Monte Carlo s.e. 0.024 at 0.95). The credible interval is that of
     fit_scores's model computed exactly (the coefficients' posterior on a grid, no MCMC): on
     these machines a NUTS fit costs seconds, and part E shows NUTS gives the same interval.
  E  fit_scores (NUTS, 2 chains × 1,000 draws) against that exact posterior on 6 data sets of
     each link's fixed cell: the posterior mean and interval ends, in posterior sds.
  A  simulation-based calibration (Talts et al. 2018) of the calibrated-score model, each link:
     coefficients drawn from the prior (Normal(0, 2.5) on the standardised features), 600 rows
     with scores ~ Beta(2, 2), 120 of them labelled (a random sample), labels from the model;
     NUTS (2 chains × 300 draws) on the model compiled once (pymc.set_data swaps each data set
     in); the rank of the true rows' rate (the mean of g over the 600 rows) and of the first
     slope among 99 thinned draws, 50 replicates. Uniform ranks (χ² over 10 bins) say the
     posterior is calibrated. θ's Bayesian-bootstrap step has no proper prior to draw from;
     part C measures it.
  B  SBC of the binned J × K model: θ ~ Beta(1, 1), each human class's letter probabilities
     ~ Dirichlet(1, …, 1) (J = 5 bins), 400 test rows, 60 calibration rows per class; the rank
     of the true θ among 99 thinned draws, 30 replicates.
  D  frequentist coverage under the paper's design (by-human-label): N test rows from the
     "beta" cells' model, m calibration rows per human class, bins [0, .2, .4, .6, .8, 1];
     the binned model's 95% credible interval (NUTS, 2 × 300 draws) beside
     ``correct_alphabet``'s profile-t (the J × K maximum likelihood with the same letters);
     a fixed cell and one drawn (seed 3960), 20 data sets each (Monte Carlo s.e. 0.05).

The sizes of A, B and D are small: the machine is shared (2 cores), and one NUTS fit took 3–40 s
of wall time while this ran. Results are written after every part.

Run: python benchmarks/bench_bayes_scores.py [--quick] [--parts CEABD]
(on a busy machine the parts in several processes, e.g. ``--parts C``, ``--parts EB``,
``--parts A``, ``--parts D``, then ``--merge C EB A D`` joins their files into bayes_scores.md.)
(--quick: two coverage data sets, two SBC replicates of the logistic link; no NUTS-vs-exact and
no binned model: the Dirichlet model compiles for minutes on an empty cache.)
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import markdown_table, publish, quick_parser, run_time
from scipy.special import expit
from scipy.stats import chisquare

import judgestats as js
import judgestats.bayes as jb
import judgestats.scores as jsc
from judgestats.alphabets.groups import correct_alphabet
from judgestats.bayes.scores import coefficient_draws, rate_draws, score_features
from judgestats.errors import SamplingWarning

BINS = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
LEVEL = 0.95


def _sample(model, seed, draws, nuts=None):
    return jb.sample(model, draws=draws, tune=draws, chains=2, cores=1, random_seed=seed,
                     progress=False, sample_kwargs=nuts)  # fmt: skip


def _rank(draws: np.ndarray, truth: float, n_ranks: int = 99) -> int:
    flat = np.asarray(draws).ravel()
    thinned = flat[np.linspace(0, flat.size - 1, n_ranks).astype(int)]
    return int((thinned < truth).sum())


def _sbc_row(name: str, what: str, ranks: list[int], draws: int) -> list:
    hist = np.bincount(np.asarray(ranks) // 10, minlength=10)
    return [name, what, len(ranks), draws, " ".join(str(h) for h in hist),
            f"{chisquare(hist).pvalue:.3f}", f"{np.mean(ranks) / 99:.3f}"]  # fmt: skip


def part_a(links: tuple, reps: int, draws: int) -> str:
    import pymc as pm

    rows = []
    for k, link in enumerate(links):
        rng = np.random.default_rng(3910 + k)
        s = rng.beta(2, 2, 600)
        labelled = np.zeros(600, dtype=bool)
        labelled[:120] = True
        model = jb.build_score_model(s, np.where(labelled, s > 0.5, np.nan), link=link)
        rate_ranks, slope_ranks = [], []
        for i in range(reps):
            s = rng.beta(2, 2, 600)
            x = score_features(s, link)
            beta = rng.normal(0.0, jb.scores.PRIOR_SCALE, x.shape[1] + 1)
            g = expit(beta[0] + x @ beta[1:])
            y = (rng.random(120) < g[:120]).astype(float)
            with model:
                pm.set_data({"features": x[:120], "human_observed": y})
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SamplingWarning)
                warnings.filterwarnings("ignore", message="QuadPotentialFullAdapt")
                tree = _sample(model, 3920 + 100 * k + i, draws, jb.scores.LINK_NUTS)
            coef = coefficient_draws(tree)
            _, rows_rate = rate_draws(coef, x, np.random.default_rng(i))
            rate_ranks.append(_rank(rows_rate, float(g.mean())))
            slope_ranks.append(_rank(coef[:, 1], float(beta[1])))
        rows.append(_sbc_row(link, "rows' rate", rate_ranks, draws))
        rows.append(_sbc_row(link, "first slope", slope_ranks, draws))
        print("A", rows[-2:], flush=True)
    return markdown_table(["link", "quantity", "replicates", "draws per chain",
                           "rank bins (10, ranks 0-99)", "chi-square p", "mean rank / 99"],
                          rows)  # fmt: skip


def _letter_counts(rng, theta, columns, n, m):
    test = rng.multinomial(n, columns @ np.array([1 - theta, theta]))
    cal = np.column_stack([rng.multinomial(m, columns[:, 0]), rng.multinomial(m, columns[:, 1])])
    return test.astype(np.int32), cal.astype(np.int32)


def part_b(reps: int, draws: int) -> str:
    import pymc as pm

    j = len(BINS) - 1  # 5 letters: part D's model (one compile serves both)
    letters = [f"b{i}" for i in range(j)]
    rng = np.random.default_rng(3930)
    model = jb.build_model(js.CategoryCounts([100] * j, letters),
                           js.ConfusionMatrix(np.full((j, 2), 30), labels=[0, 1],
                                              judge_labels=letters))  # fmt: skip
    ranks = []
    for i in range(reps):
        theta = rng.beta(1, 1)
        columns = np.column_stack([rng.dirichlet(np.ones(j)), rng.dirichlet(np.ones(j))])
        test, cal = _letter_counts(rng, theta, columns, 400, 60)
        with model:
            pm.set_data({"test_counts_observed": test,
                         "calibration_counts_observed": np.ascontiguousarray(cal.T)})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SamplingWarning)
            tree = _sample(model, 3931 + i, draws)
        ranks.append(_rank(tree["posterior"]["theta"].values[..., 1], theta))
    print("B", ranks, flush=True)
    return markdown_table(["model", "quantity", "replicates", "draws per chain",
                           "rank bins (10, ranks 0-99)", "chi-square p", "mean rank / 99"],
                          [_sbc_row("binned J × K (J = 5)", "θ", ranks, draws)])  # fmt: skip


# ----------------------------------------------------------------------------- coverage
def _logit_cell(rng, cell, size):
    a, b = cell["a"], cell["b"]
    s = rng.standard_normal(size)
    return s, rng.random(size) < expit(a + b * s)


def _beta_cell(rng, cell, size):
    y = rng.random(size) < cell["theta"]
    k = cell["k"]
    return np.where(y, rng.beta(k, 2, size), rng.beta(2, k, size)), y


def _truth(cell) -> float:
    if cell["kind"] == "beta":
        return cell["theta"]
    z, w = np.polynomial.hermite_e.hermegauss(80)
    return float(np.sum(w * expit(cell["a"] + cell["b"] * z)) / np.sqrt(2 * np.pi))


def _cells_c(quick: bool) -> list[dict]:
    fixed = [{"kind": "logit", "a": -1.0, "b": 1.5, "N": 2000, "n": 200},
             {"kind": "beta", "theta": 0.3, "k": 5.0, "N": 2000, "n": 200}]  # fmt: skip
    if quick:
        return fixed[:1]
    rng = np.random.default_rng(3900)
    drawn = []
    for kind in ("logit", "beta"):
        n = int(rng.integers(100, 601))
        big_n = int(np.exp(rng.uniform(np.log(max(n * 2, 800)), np.log(8000))))
        cell = ({"a": round(rng.uniform(-2, 2), 2), "b": round(rng.uniform(0.5, 3), 2)}
                if kind == "logit" else
                {"theta": round(rng.uniform(0.1, 0.9), 2), "k": round(rng.uniform(2.5, 8), 2)})
        drawn.append({"kind": kind, **cell, "N": big_n, "n": n, "drawn": True})
    return fixed + drawn


def _describe(cell) -> str:
    what = (f"a={cell['a']}, b={cell['b']}" if cell["kind"] == "logit"
            else f"θ={cell['theta']}, k={cell['k']}")  # fmt: skip
    return (f"{cell['kind']}: {what}, N={cell['N']}, n={cell['n']}"
            + (" (drawn)" if cell.get("drawn") else ""))


def _map_and_cov(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The posterior mode of the coefficients (Newton) and the inverse Hessian there."""
    design = np.column_stack([np.ones(len(y)), x])
    beta = np.zeros(design.shape[1])
    prec = np.eye(design.shape[1]) / jb.scores.PRIOR_SCALE**2
    for _ in range(50):
        p = expit(design @ beta)
        grad = design.T @ (y - p) - prec @ beta
        hess = design.T @ (design * (p * (1 - p))[:, None]) + prec
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if np.abs(step).max() < 1e-10:
            break
    return beta, np.linalg.inv(hess)


def grid_draws(features: np.ndarray, labelled: np.ndarray, y: np.ndarray, rng, *,
               nodes: int, draws: int = 4000) -> np.ndarray:
    """θ's exact posterior (no MCMC), as draws: the coefficients on a grid, then the rows.

    The coefficients' posterior (Bernoulli-logit likelihood, Normal(0, 2.5) priors: the
    model of fit_scores written out here) on a grid of ``nodes`` points per axis over ±6 sd
    of its Laplace approximation (in the eigen-coordinates, so a correlated posterior is
    covered evenly); ``draws`` grid points drawn by their weights, pushed through the
    package's Bayesian-bootstrap step (rate_draws, checked on its own in
    tests/bayes/test_scores.py).
    """
    x, yl = features[labelled], y.astype(float)
    mode, cov = _map_and_cov(x, yl)
    chol = np.linalg.cholesky(cov)
    axis = np.linspace(-6, 6, nodes)
    z = np.stack(np.meshgrid(*[axis] * len(mode), indexing="ij"), -1).reshape(-1, len(mode))
    beta = mode + z @ chol.T
    eta = beta[:, :1] + beta[:, 1:] @ x.T
    logpost = (yl * -np.logaddexp(0, -eta) + (1 - yl) * -np.logaddexp(0, eta)).sum(1)
    logpost -= (beta**2).sum(1) / (2 * jb.scores.PRIOR_SCALE**2)
    w = np.exp(logpost - logpost.max())
    pick = rng.choice(len(w), size=draws, p=w / w.sum())
    theta, _ = rate_draws(beta[pick], features, rng)
    return theta


def _one_c(rng, cell, seed, links):
    make = _logit_cell if cell["kind"] == "logit" else _beta_cell
    s, y = make(rng, cell, cell["N"])
    labelled = np.arange(cell["N"]) < cell["n"]
    human = np.where(labelled, y, np.nan)
    out = {}
    for link in links:
        theta = grid_draws(score_features(s, link), labelled, y[labelled],
                           np.random.default_rng(seed), nodes=101 if link == "logistic" else 31)
        low, high = np.quantile(theta, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
        out[f"bayes ({link})"] = (float(theta.mean()), low, high, False)
    for cal in ("logistic", "isotonic"):
        res = jsc.correct_scores(s, human, calibrator=cal, rng=seed)
        out[f"PPI++ ({cal})"] = (res.estimate, res.ci.low, res.ci.high, False)
    return out


def _summarise(label, truth, results, mcmc=True):
    rows = []
    for method in results[0]:
        est = np.array([r[method][0] for r in results])
        low = np.array([r[method][1] for r in results])
        high = np.array([r[method][2] for r in results])
        warned = np.mean([r[method][3] for r in results])
        cover = np.mean((low <= truth) & (truth <= high))
        rows.append([label, method, len(results), f"{cover:.3f}", f"{np.mean(high - low):.4f}",
                     f"{np.mean(est) - truth:+.4f}",
                     "—" if not mcmc or method.startswith(("PPI", "profile"))
                     else f"{warned:.2f}"])  # fmt: skip
    return rows


def part_c(reps: int, quick: bool) -> str:
    rows = []
    for c, cell in enumerate(_cells_c(quick)):
        links = ("logistic",) if cell["kind"] == "logit" else ("logistic", "beta")
        rng = np.random.default_rng(3940 + c)
        truth = _truth(cell)
        results = [_one_c(rng, cell, 3950 + 1000 * c + i, links) for i in range(reps)]
        rows += _summarise(_describe(cell) + f"; θ = {truth:.3f}", truth, results, mcmc=False)
        print("C", rows[-1], flush=True)
    return markdown_table(["cell", "method", "data sets", "coverage", "mean width", "bias",
                           "SamplingWarning"], rows)  # fmt: skip


def part_e(reps: int, draws: int) -> str:
    """fit_scores (NUTS) against the exact grid posterior on the fixed cells' data sets."""
    rows = []
    for cell, link in ((_cells_c(True)[0], "logistic"),
                       ({"kind": "beta", "theta": 0.3, "k": 5.0, "N": 2000, "n": 200}, "beta")):
        rng = np.random.default_rng(3990)
        diffs, warned, seconds = [], 0, []
        for i in range(reps):
            s, y = (_logit_cell if cell["kind"] == "logit" else _beta_cell)(rng, cell, cell["N"])
            labelled = np.arange(cell["N"]) < cell["n"]
            start = time.perf_counter()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", SamplingWarning)
                res = jb.fit_scores(s, np.where(labelled, y, np.nan), link=link,
                                    random_seed=3991 + i, chains=2, draws=draws, tune=draws,
                                    cores=1, progress=False)  # fmt: skip
            seconds.append(time.perf_counter() - start)
            warned += any(issubclass(w.category, SamplingWarning) for w in caught)
            exact = grid_draws(score_features(s, link), labelled, y[labelled],
                               np.random.default_rng(i), nodes=101 if link == "logistic" else 31,
                               draws=20000)  # fmt: skip
            sd = exact.std()
            ends = np.quantile(exact, [0.025, 0.975])
            diffs.append([(res.estimate - exact.mean()) / sd,
                          (res.ci.low - ends[0]) / sd, (res.ci.high - ends[1]) / sd])
        d = np.abs(np.asarray(diffs))
        rows.append([f"{link}: {_describe(cell)}", reps, f"2 × {draws}",
                     f"{d[:, 0].mean():.3f} / {d[:, 0].max():.3f}",
                     f"{d[:, 1:].mean():.3f} / {d[:, 1:].max():.3f}", f"{warned / reps:.2f}",
                     f"{np.median(seconds):.1f}"])  # fmt: skip
        print("E", rows[-1], flush=True)
    return markdown_table(["link and cell", "data sets", "chains × draws",
                           "|mean − exact| / sd (mean / max)",
                           "|interval end − exact| / sd (mean / max)", "SamplingWarning",
                           "median seconds per fit"], rows)  # fmt: skip


def _one_d(rng, cell, seed, draws):
    s, _ = _beta_cell(rng, cell, cell["N"])
    k = cell["k"]
    cal_s = np.concatenate([rng.beta(2, k, cell["m"]), rng.beta(k, 2, cell["m"])])
    cal_y = np.repeat([0.0, 1.0], cell["m"])
    scores = np.concatenate([s, cal_s])
    human = np.concatenate([np.full(cell["N"], np.nan), cal_y])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SamplingWarning)
        res = jb.fit_scores(scores, human, bins=BINS, design="by-human-label", random_seed=seed,
                            chains=2, draws=draws, tune=draws, cores=1, progress=False)
    warned = any(issubclass(w.category, SamplingWarning) for w in caught)
    letters, table = js.alphabet_counts(
        {"judge": scores, "human": np.where(np.isnan(human), None, human)}, judge="judge",
        bins=BINS, labels=[0, 1], min_count=1,
    )  # fmt: skip
    freq = correct_alphabet(letters, table, design="by-human-label", min_count=1)
    return {"bayes (binned J × K)": (res.estimate, res.ci.low, res.ci.high, warned),
            "profile-t (J × K MLE)": (freq.estimate, freq.ci.low, freq.ci.high, False)}


def part_d(reps: int, draws: int) -> str:
    cells = [{"kind": "beta", "theta": 0.3, "k": 5.0, "N": 2000, "m": 100}]
    rng0 = np.random.default_rng(3960)
    cells.append({"kind": "beta", "theta": round(rng0.uniform(0.1, 0.9), 2),
                  "k": round(rng0.uniform(2.5, 8), 2), "N": int(rng0.integers(500, 4000)),
                  "m": int(rng0.integers(30, 200)), "drawn": True})  # fmt: skip
    rows = []
    for c, cell in enumerate(cells):
        rng = np.random.default_rng(3970 + c)
        results = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # sparse-letter notes of single data sets
            for i in range(reps):
                results.append(_one_d(rng, cell, 3980 + 1000 * c + i, draws))
        label = (f"θ={cell['theta']}, k={cell['k']}, N={cell['N']}, m={cell['m']} per class"
                 + (" (drawn)" if cell.get("drawn") else ""))  # fmt: skip
        rows += _summarise(label, cell["theta"], results)
        print("D", rows[-2:], flush=True)
    return markdown_table(["cell", "method", "data sets", "coverage", "mean width", "bias",
                           "SamplingWarning"], rows)  # fmt: skip


TITLE = "Bayesian twin of the score path (fit_scores)"
ORDER = "CEABD"


def _run_parts(parts: str, q: bool, start: float, name: str) -> None:
    draws = 100 if q else 300
    runs = {
        "C": ("C. Random design: coverage of the 95% credible interval beside PPI++ (cells fixed "
              "and drawn at random, seed 3900; the model's exact posterior by quadrature)",
              lambda: part_c(2 if q else 80, q)),
        "E": ("E. fit_scores (NUTS) against the exact posterior (seed 3990)",
              lambda: part_e(6, 1000)),
        "A": ("A. Calibrated-score model (random design): simulation-based calibration",
              lambda: part_a(("logistic",) if q else ("logistic", "beta"), 2 if q else 50,
                             draws)),
        "B": ("B. Binned J × K model (by-human-label): simulation-based calibration",
              lambda: part_b(30, draws)),
        "D": ("D. By-human-label: the binned model beside the J × K profile-t (cells fixed and "
              "one drawn, seed 3960)", lambda: part_d(20, draws)),
    }  # fmt: skip
    out: list[str] = []
    for key in ORDER:
        if key not in parts:
            continue
        title, run = runs[key]
        out.extend([f"## {title}", run()])  # published after every part (a long run)
        publish(name, TITLE, "\n\n".join([*out, run_time(time.perf_counter() - start, q)]),
                time.perf_counter() - start)  # fmt: skip


def _merge(pieces: list[str]) -> None:
    """Join the files of runs made part by part (``--parts``) into ``bayes_scores.md``."""
    from _common import RESULTS

    body = []
    for piece in pieces:
        text = (RESULTS / f"bayes_scores_{piece}.md").read_text()
        body.append(text.split("\n\n", 2)[2].strip())  # after the title and "Measured on"
    note = ("The parts were run in separate processes (``--parts``), joined by ``--merge``; each "
            "ends with its own run time. Wall times are of a shared 2-core machine under a load "
            "average of about 15: a fit's CPU time was a tenth of its wall time.")
    publish("bayes_scores", TITLE, "\n\n".join([note, *body]))


def main() -> None:
    ap = quick_parser(__doc__, "two coverage data sets, two SBC replicates; no NUTS-vs-exact "
                      "and no binned model")  # fmt: skip
    ap.add_argument("--parts", default=ORDER, help="the parts to run, e.g. CE (default: all); "
                    "a subset writes bayes_scores_<parts>.md")  # fmt: skip
    ap.add_argument("--merge", nargs="+", metavar="PARTS",
                    help="join bayes_scores_<PARTS>.md files into bayes_scores.md")
    args = ap.parse_args()
    if args.merge:
        _merge(args.merge)
        return
    q = args.quick
    parts = "CA" if q else args.parts.upper()
    name = "bayes_scores" if q or sorted(parts) == sorted(ORDER) else f"bayes_scores_{parts}"
    _run_parts(parts, q, time.perf_counter(), name)


if __name__ == "__main__":
    main()
