"""The letter as a second predictor in PPI++, and folds dealt within letters (issue 39).

EXPERIMENT (no change to ``src/``). Issue 39's done-criterion: "with >= 100 labels a judge
whose score carries nothing beyond its letter gives an interval no more than 2% wider than
the letter alone". ``benchmarks/results/scores_small.md`` measured today's cross-fitted
isotonic PPI++ at up to 1.040× the letter estimator's width at 100 labels, and its estimate
itself noisier (SD ratio 1.016–1.032): the cross-fit's noise in the labelled rows'
predictions. When the judge's letter L = 1{s > threshold} is declared, this benchmark tests:

* ``today``: ``js.scores.correct_scores``'s path with the score alone (before ``threshold=``
  put the letter beside the score, which ``two-pred λf≥0`` now is; design="random": the
  package's ``cross_fit`` of the isotonic calibrator, K = 5, then ``fit_ppi`` with its
  rare-class adjustment and the Wald interval clipped to [0, 1]; checked equal to
  ``correct_scores`` on each cell's first data set);
* ``two-pred``: PPI++ with two control variates, the raw letter L (no fitting: it has no
  cross-fit noise) and today's cross-fitted f, and a vector λ̂ (:func:`fit_vector_ppi`);
* ``strat folds``: today's estimator with the labelled items dealt to the folds evenly within
  each letter (:func:`stratified_fold_ids`), not at random;
* ``both``: two-pred on the stratified folds' f;
* ``two-pred λf≥0``: two-pred with f's λ held at 0 where λ̂ puts it below 0 (then the letter's
  λ alone is tuned): a negative λ̂_f feeds on the cross-fit's own anticorrelation (a held-out
  row's label is not in its fold's fit, the other folds' labels are), not on the score.

The cells and data sets are ``bench_scores_small.py``'s (imported: the same 28 cells, seed
3960, the same data sets and the same fold seeds, so ``today`` reproduces its
"isotonic K=5" column), 200 data sets per cell (quick: 3 cells, 12 data sets). "width ÷
letter" is the mean over data sets of the per-data-set ratio to the letter estimator's
(``js.correct(design="random")`` on the letter, its default interval), with its Monte Carlo
s.e.; "SD ÷ letter" the SD of the candidate's estimates over the letter's on the same data
sets; λ̂ the median over data sets; "width ÷ 2z·SD" an interval's mean width over 2z × the SD
of its own estimates (below 1: a variance estimate smaller than the estimator's spread). A
coverage below 0.93 is re-run on 1,000 fresh data sets, and the letter-only cells where today
is widest are re-run on 1,000 fresh data sets.

Writes benchmarks/results/scores_two.md.
Run: python benchmarks/bench_scores_two.py [--quick]
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from _common import markdown_table, publish, quick_parser
from bench_scores_small import SEED, Z, _label, draw, grid, letter_result, score_alone

import judgestats as js
from judgestats._validation import check_rng
from judgestats._validation.scores import check_items
from judgestats.scores import calibration
from judgestats.scores.prediction_powered import PSEUDO_LABELS, fit_ppi, rare_class

CANDIDATES = ("today", "two-pred", "strat folds", "both", "two-pred λf≥0")
FOLDS = 5  # today's default (calibration.DEFAULT_FOLDS)
RANDOM_FOLDS = calibration.fold_ids  # today's dealing, as imported


# ----------------------------------------------------------------------------- the candidates
def stratified_fold_ids(items: np.ndarray, folds: int, rng: np.random.Generator,
                        strata: np.ndarray) -> tuple[np.ndarray, int]:  # fmt: skip
    """:func:`judgestats.scores.calibration.fold_ids` with the items dealt within strata.

    Each item's stratum is its rows' mean stratum, rounded (``strata``: one per row, here the
    letter). The items are permuted within each stratum, the strata laid end to end and the
    items dealt 0, 1, …, K − 1, 0, … along them, so every fold holds each letter's items in
    proportion (±1) and the folds' sizes differ by at most one. Returns (fold per row, K).
    """
    unique, inverse = np.unique(items, return_inverse=True)
    k = int(min(folds, unique.size))
    item_stratum = np.rint(np.bincount(inverse, weights=strata) / np.bincount(inverse))
    order = np.concatenate([rng.permutation(np.flatnonzero(item_stratum == g))
                            for g in np.unique(item_stratum)])  # fmt: skip
    item_fold = np.empty(unique.size, dtype=np.int64)
    item_fold[order] = np.arange(unique.size) % k
    return item_fold[inverse], k


@contextmanager
def folds_within(strata: np.ndarray | None) -> Iterator[None]:
    """Inside the block the package's cross-fit deals its folds by :func:`stratified_fold_ids`.

    ``strata``: one per labelled row (None: today's random dealing).
    """
    if strata is not None:
        calibration.fold_ids = lambda items, folds, rng: stratified_fold_ids(
            items, folds, rng, strata)
    try:
        yield
    finally:
        calibration.fold_ids = RANDOM_FOLDS


def _influence(y: np.ndarray, g_lab: np.ndarray, g_unl: np.ndarray, items_lab: np.ndarray,
               items_unl: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Per item c: u_c and the row V_c of :func:`fit_vector_ppi` (items present only)."""
    n, big_n = y.size, g_unl.shape[0]
    size = int(max(items_lab.max(initial=-1), items_unl.max(initial=-1))) + 1
    u = np.bincount(items_lab, weights=(y - y.mean()) / n, minlength=size)
    v = np.empty((size, g_lab.shape[1]))
    for j in range(g_lab.shape[1]):
        v[:, j] = -np.bincount(items_lab, weights=(g_lab[:, j] - g_lab[:, j].mean()) / n,
                               minlength=size)  # fmt: skip
        if big_n:
            v[:, j] += np.bincount(items_unl, weights=(g_unl[:, j] - g_unl[:, j].mean()) / big_n,
                                   minlength=size)  # fmt: skip
    present = np.zeros(size, dtype=bool)
    present[items_lab] = True
    present[items_unl] = True
    return u[present], v[present]


def fit_vector_ppi(
    y: np.ndarray, g_lab: np.ndarray, g_unl: np.ndarray, *,
    items_lab: np.ndarray | None = None, items_unl: np.ndarray | None = None,
    lam: np.ndarray | None = None, rare_adjust: bool = True, last_nonneg: bool = False,
) -> tuple[float, float, np.ndarray]:  # fmt: skip
    """PPI++ with p control variates and a vector λ: (θ̂, Var θ̂, λ̂).

    With p predictors g_1 … g_p fixed before the labels (here the raw letter L and the
    cross-fitted f), the labelled rows a random sample of the rows,

        θ̂(λ) = ȳ_n + Σ_j λ_j (mean_N g̃_j − mean_n g_j)

    is unbiased for θ at every λ ∈ R^p (the multiple control-variate form of PPI++,
    Angelopoulos, Duchi & Zrnic 2023, whose scalar case is
    :func:`judgestats.scores.prediction_powered.fit_ppi`; g̃ the unlabelled rows' value).
    Linearised, θ̂ − θ ≈ Σ_c (u_c + V_c λ) over items c, with u_c = Σ_{labelled i ∈ c}
    (y_i − ȳ)/n and V_cj = Σ_{unlabelled i ∈ c} (g̃_ij − mean g̃_j)/N − Σ_{labelled i ∈ c}
    (g_ij − mean g_j)/n, so Var θ̂ = C/(C − 1) · ‖u + Vλ‖² (cluster-robust sandwich; every
    row its own item without items). λ̂ = argmin ‖u + Vλ‖² = −(VᵀV)⁺ Vᵀu (least squares, a
    p × p solve; not clipped), plugged in. With a binary L alone the regression of y on L is
    saturated, so θ̂ is (to the N/(n + N) weighting of the two means) the letter's
    post-stratified estimator.

    ``last_nonneg``: the last predictor's λ̂ held at 0 where the unconstrained one is below 0
    (the others re-tuned without it).
    ``rare_adjust``: as ``fit_ppi``'s (:data:`PSEUDO_LABELS` pseudo-labels of each class at the
    labelled rows' mean predictors, each its own item, λ held at λ̂; the larger variance).
    """
    n, big_n = y.size, g_unl.shape[0]
    clustered = items_lab is not None and items_unl is not None
    il = items_lab if clustered else np.arange(n)
    iu = items_unl if clustered else n + np.arange(big_n)
    u, v = _influence(y, g_lab, g_unl, il, iu)
    if lam is None:
        lam = -np.linalg.lstsq(v, u, rcond=1e-10)[0] if big_n else np.zeros(g_lab.shape[1])
        if last_nonneg and lam[-1] < 0:
            lam = np.r_[-np.linalg.lstsq(v[:, :-1], u, rcond=1e-10)[0], 0.0]
    mean_unl = g_unl.mean(axis=0) if big_n else np.zeros(g_lab.shape[1])
    estimate = float(y.mean() + (mean_unl - g_lab.mean(axis=0)) @ lam)
    resid = u + v @ lam
    c = u.size
    variance = float(np.sum(resid * resid)) * c / max(c - 1, 1)
    if rare_adjust and rare_class(y, items_lab if clustered else None):
        k = PSEUDO_LABELS
        size = max(1, round(n / np.unique(il).size)) if clustered else 1
        y_aug = np.r_[y, np.repeat([1.0, 0.0], k * size)]
        g_aug = np.r_[g_lab, np.tile(g_lab.mean(axis=0), (2 * k * size, 1))]
        top = int(max(il.max(initial=-1), iu.max(initial=-1))) + 1
        il_aug = np.r_[il, np.repeat(np.arange(top, top + 2 * k), size)]
        pseudo = fit_vector_ppi(y_aug, g_aug, g_unl, items_lab=il_aug, items_unl=iu, lam=lam,
                                rare_adjust=False)[1]  # fmt: skip
        variance = max(variance, pseudo)
    return estimate, variance, np.asarray(lam, dtype=float)


def self_check() -> None:
    """The vector form against the package's scalar PPI++ (an independent computation).

    One predictor with λ fixed, and with λ tuned where the scalar λ̂ falls inside (0, 1)
    (unclipped there), on rows and on items, must give fit_ppi's estimate and variance.
    """
    rng = np.random.default_rng(0)
    y = (rng.random(120) < 0.3).astype(float)
    f_lab, f_unl = 0.15 * y + 0.85 * rng.random(120), 0.05 + 0.85 * rng.random(600)
    for items in (None, (rng.integers(0, 200, 120), rng.integers(150, 400, 600))):
        kw = {} if items is None else {"items_lab": items[0], "items_unl": items[1]}
        for lam in (0.3, None):
            ref = fit_ppi(y, f_lab, f_unl, lam=lam, rare_adjust=False, **kw)
            assert 0 < ref.lam < 1, ref
            est, var, lam_v = fit_vector_ppi(y, f_lab[:, None], f_unl[:, None], rare_adjust=False,
                                             lam=None if lam is None else np.array([lam]), **kw)
            assert np.allclose([est, var, lam_v[0]], [ref.estimate, ref.variance, ref.lam]), (
                est, var, lam_v, ref)
    strata = np.repeat([0, 1], [37, 83])
    fold, k = stratified_fold_ids(np.arange(120), 5, rng, strata)
    per = np.array([[np.sum((fold == j) & (strata == g)) for g in (0, 1)] for j in range(k)])
    assert per[:, 0].max() - per[:, 0].min() <= 1 and per[:, 1].max() - per[:, 1].min() <= 1
    assert np.ptp(per.sum(axis=1)) <= 1, per


# ----------------------------------------------------------------------------- the study
def _wald(estimate: float, variance: float) -> tuple[float, float]:
    half = Z * np.sqrt(variance)
    return max(estimate - half, 0.0), min(estimate + half, 1.0)


def one_data_set(s: np.ndarray, human: np.ndarray, lab: np.ndarray, letter: np.ndarray,
                 items: np.ndarray | None, seed: int) -> tuple[list, np.ndarray]:  # fmt: skip
    """Per candidate (estimate, low, high), and the two λ̂ of two-pred."""
    y = human[lab]
    lab_items = np.arange(y.size) if items is None else items[lab]
    kw = {} if items is None else {"items_lab": items[lab], "items_unl": items[~lab]}
    g_lab, g_unl = letter[lab].astype(float), letter[~lab].astype(float)
    out, lams = [], np.full(2, np.nan)
    for strata in (None, letter[lab]):
        with folds_within(strata):
            fit = calibration.cross_fit(s[lab], y, s[~lab], lab_items, calibrator="isotonic",
                                        folds=FOLDS, bins=None, rng=check_rng(seed))  # fmt: skip
        ppi = fit_ppi(y, fit.labelled, fit.unlabelled, rare_adjust=True, **kw)
        est, var, lam = fit_vector_ppi(y, np.c_[g_lab, fit.labelled], np.c_[g_unl, fit.unlabelled],
                                       **kw)  # fmt: skip
        out += [(ppi.estimate, *_wald(ppi.estimate, ppi.variance)), (est, *_wald(est, var))]
        if strata is None:
            lams = lam
            est, var, _ = fit_vector_ppi(y, np.c_[g_lab, fit.labelled],
                                         np.c_[g_unl, fit.unlabelled], last_nonneg=True, **kw)
            nonneg = (est, *_wald(est, var))
    return [out[0], out[1], out[2], out[3], nonneg], lams


def run_cell(cell: dict, reps: int, seed: int, check: bool = True) -> dict:
    """Coverage, width ÷ letter (mean, s.e.), SD ÷ letter and median λ̂ per candidate."""
    rng = np.random.default_rng([SEED, seed])
    est = np.empty((reps, len(CANDIDATES) + 1))
    width = np.empty((reps, len(CANDIDATES) + 1))
    hit = np.zeros(len(CANDIDATES) + 1)
    lams = np.empty((reps, 2))
    for r in range(reps):
        s, human, raw, lab, letter = draw(cell, rng)
        items = check_items(raw, s.size) if cell["k"] > 1 else None  # the package's codes
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # measured, not shown: coverage is the statement
            let = letter_result(letter, human, lab, *((None, None) if items is None
                                                       else (items[~lab], items[lab])))
            cis, lams[r] = one_data_set(s, human, lab, letter, items, r)
            if check and r == 0:  # "today" is the package's own path, number for number
                cl = raw if cell["k"] > 1 else None
                ref = js.scores.correct_scores(s, human, cluster=cl, rng=r,
                                               **score_alone(human, cl))
                assert np.isclose(ref.ci.low, cis[0][1]) and np.isclose(ref.ci.high, cis[0][2])
                # adopted: correct_scores(threshold=) is "two-pred λf≥0", number for number
                if lab.sum() >= js.scores.MIN_SCORE_LABELS:
                    now = js.scores.correct_scores(s, human, cluster=cl, rng=r, threshold=0.5)
                    assert np.allclose([now.estimate_unclipped, now.ci.low, now.ci.high],
                                       [cis[4][0], max(cis[4][1], 0), min(cis[4][2], 1)],
                                       rtol=1e-9, atol=1e-12)  # fmt: skip
        for j, (e, lo, hi) in enumerate([*cis, (let.estimate, let.ci.low, let.ci.high)]):
            est[r, j], width[r, j] = e, min(hi, 1) - max(lo, 0)
            hit[j] += lo <= cell["theta"] <= hi
    ratio = width[:, :-1] / width[:, -1:]
    sd = est.std(axis=0, ddof=1)
    return {"cover": hit / reps, "ratio": ratio.mean(axis=0),
            "se": ratio.std(axis=0, ddof=1) / np.sqrt(reps), "sd": sd[:-1] / sd[-1],
            "lam": np.median(lams, axis=0),
            "calib": width[:, [0, 1, -1]].mean(axis=0) / (2 * Z * sd[[0, 1, -1]])}  # fmt: skip


def verdict(cells: list, results: list, cover: list) -> str:
    """The adoption rule per candidate (coverage after the re-runs), against ``today``."""
    letter = [i for i, c in enumerate(cells) if c["kind"] != "informative"]
    inform = [i for i, c in enumerate(cells) if c["kind"] == "informative"]
    rows = []
    for j, name in enumerate(CANDIDATES):
        ratio = np.array([results[i]["ratio"][j] for i in letter])
        worst = letter[int(np.argmax(ratio))]
        loss = np.array([results[i]["ratio"][j] / results[i]["ratio"][0] - 1 for i in inform])
        low = min(cover[i][j] for i in range(len(cells)))
        ok = ratio.max() <= 1.02 and np.median(loss) <= 0.005 and loss.max() <= 0.01 \
            and low >= 0.93
        sd = np.array([results[i]["sd"][j] for i in letter])
        rows.append([name, f"{ratio.max():.3f} (cell {worst}, s.e. "
                     f"{results[worst]['se'][j]:.3f})", f"{np.median(ratio):.3f}",
                     int(np.sum(ratio > 1.02)), f"{np.median(sd):.3f}", f"{sd.max():.3f}",
                     f"{np.median(loss):+.2%}", f"{loss.max():+.2%}", f"{low:.3f}",
                     "yes" if ok else "no"])  # fmt: skip
    head = ["candidate", f"letter-only max width ÷ letter ({len(letter)} cells)",
            "letter-only median", "letter-only cells above 1.02", "letter-only SD ÷ letter, median",
            "letter-only SD ÷ letter, max",
            f"informative width vs today, median ({len(inform)} cells)", "informative, largest",
            "min coverage (all cells)", "meets the rule"]  # fmt: skip
    return markdown_table(head, rows)


def _fmt(res: dict) -> list:
    return ([f"{res['ratio'][j]:.3f} ± {res['se'][j]:.3f}" for j in range(len(CANDIDATES))]
            + [f"{x:.3f}" for x in res["sd"]] + [f"{c:.3f}" for c in res["cover"]]
            + [f"{res['lam'][0]:.2f}", f"{res['lam'][1]:.2f}"]
            + [f"{x:.3f}" for x in res["calib"]])  # fmt: skip


def main() -> None:
    args = quick_parser(__doc__.splitlines()[0], "3 cells, 12 data sets").parse_args()
    start = time.perf_counter()
    self_check()
    reps, big = (12, 40) if args.quick else (200, 1000)
    cells = grid(args.quick)
    results, rows = [], []
    for i, cell in enumerate(cells):
        results.append(run_cell(cell, reps, i))
        rows.append([i, *_label(cell), *_fmt(results[-1])])
        print(rows[-1], flush=True)
    cover = [list(r["cover"]) for r in results]
    letter_only = [i for i, c in enumerate(cells) if c["kind"] != "informative"]
    widest = sorted(letter_only, key=lambda i: -results[i]["ratio"][0])[:1 if args.quick else 5]
    again_rows = []
    for i in sorted(set(widest) | {i for i in range(len(cells)) if min(cover[i]) < 0.93}):
        again = run_cell(cells[i], big, 1000 + i, check=False)
        for j in range(len(CANDIDATES)):
            if cover[i][j] < 0.93:
                cover[i][j] = float(again["cover"][j])
        if i in widest:
            results[i] = again  # the worst letter-only cells: read on the larger run
        again_rows.append([i, *_label(cells[i]), *_fmt(again)])
        print("re-run", again_rows[-1], flush=True)
    head = ["cell", "score", "θ", "labels (items)", "labelled share", "rows/item",
            *[f"width ÷ letter, {n}" for n in CANDIDATES],
            *[f"SD ÷ letter, {n}" for n in CANDIDATES],
            *[f"cover {n}" for n in CANDIDATES], "cover letter", "λ̂ letter (two-pred)",
            "λ̂ f (two-pred)", "width ÷ 2z·SD, today", "width ÷ 2z·SD, two-pred",
            "width ÷ 2z·SD, letter"]  # fmt: skip
    rerun_title = (f"Re-runs on {big} fresh data sets (seed [{SEED}, 1000 + cell]): the "
                   f"{len(widest)} letter-only cells where today is widest, and every cell with "
                   "a coverage below 0.93")
    body = f"""Run: `python benchmarks/bench_scores_two.py{' --quick' if args.quick else ''}`.

{__doc__.split(chr(10) + chr(10), 1)[1].rsplit("Writes", 1)[0].strip()}

## The adoption rule (coverage after the re-runs; the widest letter-only cells at {big})

Adopted in a later session only if every letter-only cell is at most 1.02× the letter, the
informative cells lose at most 0.5% width in median and 1% in any cell against today's (paired:
the same data sets and folds), and every cell covers at least 0.93.

{verdict(cells, results, cover)}

## {rerun_title}

{markdown_table(head, again_rows)}

## Every cell (seed {SEED}; {reps} data sets each; the same data sets and fold seeds for all)

{markdown_table(head, rows)}
"""
    publish("scores_two" if not args.quick else "scores_two_quick",
            "Judge scores: the letter as a second predictor in PPI++ (issue 39)", body,
            time.perf_counter() - start)  # fmt: skip


if __name__ == "__main__":
    main()
