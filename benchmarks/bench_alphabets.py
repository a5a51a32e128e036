"""Judge alphabets: coverage and width when the judge does not speak the humans' language.

Part 1, simulation with known truth (binary human label, by-human-label calibration): a
judge whose score on an item of true class b is a latent N(μ_b, 1) cut into J letters
(J = 3, 5, 10; μ_0 = 0, μ_1 = d with separation d in {1, 2}; cuts equally spaced on
[−1, d + 1]). θ in {0.1, 0.3, 0.5, 0.7, 0.9}, m = m0 = m1 in {50, 150}, n in {1000, 5000}
(120 cells), plus 30 cells drawn at random (J in {3, 5, 10}, C's columns Dirichlet(1, ..., 1),
θ ~ U(0.05, 0.95), m per class log-uniform on [40, 300], n on [300, 10^4]; seed 20261124).
Each data set is analysed with the full alphabet (``"profile-likelihood"`` and
``"profile-likelihood-t"``, the default, whose cut-off t²(ν) has ν = min_b m_b/(J − 1) − 1)
and with the best threshold — the cut "letter >= s" whose expected adjusted-Wald width at the
true C is smallest (an oracle choice, which favours the threshold) — by the paper's
adjusted-Wald interval.

Part 2, invalid verdicts that depend on the truth: the judge fails to answer on 30% of
true-1 items and 5% of true-0 items. "Drop" corrects the valid verdicts only (the paper's
interval); "keep" adds the letter ``"invalid"`` (3 letters, profile likelihood).

Part 3, real data: random 10% calibration splits of the bundled Chatbot Arena targets; the
human label is "target wins". GPT-4's win/tie/lose verdict as 3 letters, GPT-4 and GPT-3.5
combined as the product alphabet (GPT-3.5's rare tie, 0.2% of verdicts, merged into its
"lose" a priori), and each judge alone as win/not-win (the paper's interval). Coverage of
the target's human win rate and mean length per target.

Part 4, speed: one 1,000-replicate coverage cell of a 5-letter alphabet.

Writes benchmarks/results/alphabets.md and alphabets.png.
Run: python benchmarks/bench_alphabets.py [--quick]   (--quick: 5 cells of 100 data sets, 3 of
the grid and 2 random; 200 data sets per θ in part 2; 10 splits per target in part 3)
"""

from __future__ import annotations

import time
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from _common import markdown_table, publish, quick_parser, run_time, save_figure
from scipy.stats import norm

import judgestats as js
from judgestats.intervals import compute_bounds
from judgestats.multiclass.likelihood import alphabet_profile_bounds

LEVEL = 0.95
SEED = 20261124


def score_matrix(j: int, d: float) -> np.ndarray:
    """C[a, b] = P(letter a | human b) of a latent N(μ_b, 1) cut into j letters."""
    cuts = np.linspace(-1.0, d + 1.0, j - 1)
    edges = np.concatenate([[-np.inf], cuts, [np.inf]])
    cdf = norm.cdf(edges[:, None] - np.array([0.0, d])[None, :])
    return np.diff(cdf, axis=0)


def threshold_width(c: np.ndarray, theta: float, n: float, m: float, cut: int) -> float:
    """Expected adjusted-Wald width of the threshold "letter >= cut" at the true C."""
    q1 = c[cut:, 1].sum()
    q0 = c[:cut, 0].sum()
    if q0 + q1 <= 1:
        return np.inf
    p = theta * q1 + (1 - theta) * (1 - q0)
    var = (p * (1 - p) / n + theta**2 * q1 * (1 - q1) / m + (1 - theta) ** 2 * q0 * (1 - q0) / m)
    return 2 * 1.96 * np.sqrt(var) / (q0 + q1 - 1)


def simulate_cell(rng, c, theta, n, m, reps):
    j = c.shape[0]
    test = rng.multinomial(n, c @ [1 - theta, theta], size=reps)
    cal = np.stack([rng.multinomial(m, c[:, b], size=reps) for b in range(2)], -1)
    out = {}
    for name, small in (("profile-likelihood", False), ("profile-likelihood-t", True)):
        low, high, _ = alphabet_profile_bounds(test, cal, LEVEL, small_sample=small)
        out[name] = (low[:, 1], high[:, 1])
    cut = min(range(1, j), key=lambda s: threshold_width(c, theta, n, m, s))
    x = test[:, cut:].sum(1)
    tp, fn = cal[:, cut:, 1].sum(1), cal[:, :cut, 1].sum(1)
    tn, fp = cal[:, :cut, 0].sum(1), cal[:, cut:, 0].sum(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = compute_bounds(js.JudgedCounts(x, np.full(reps, n)),
                           js.ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp),
                           method="adjusted-wald", confidence_level=LEVEL)  # fmt: skip
    out["best threshold, adjusted-Wald"] = (np.asarray(b.low), np.asarray(b.high))
    stats = {}
    for name, (lo, hi) in out.items():
        ok = np.isfinite(lo) & np.isfinite(hi)
        cover = np.mean(np.where(ok, (lo <= theta) & (theta <= hi), False))
        stats[name] = (cover, float(np.nanmean(hi - lo)), 1 - ok.mean())
    return stats


def part_simulation(quick: bool):
    rng = np.random.default_rng(SEED)
    reps = 100 if quick else 1000
    cells = []
    js_ = (3, 5, 10)
    grid = [(j, d, t, m, n) for j in js_ for d in (1.0, 2.0) for t in (0.1, 0.3, 0.5, 0.7, 0.9)
            for m in (50, 150) for n in (1000, 5000)]  # fmt: skip
    if quick:  # one cell per J (θ 0.3, 0.7, 0.3) and two random cells: the test suite's run
        grid = [(j, 2.0, t, 150, 1000) for j, t in zip(js_, (0.3, 0.7, 0.3), strict=True)]
    for j, d, t, m, n in grid:
        cells.append(("grid", j, score_matrix(j, d), t, m, n))
    for _ in range(2 if quick else 30):
        j = int(rng.choice(js_))
        c = rng.dirichlet(np.ones(j), size=2).T
        t = float(rng.uniform(0.05, 0.95))
        m = int(np.exp(rng.uniform(np.log(40), np.log(300))))
        n = int(np.exp(rng.uniform(np.log(300), np.log(1e4))))
        cells.append(("random", j, c, t, m, n))
    rows = []
    for kind, j, c, t, m, n in cells:
        s = simulate_cell(rng, c, t, n, m, reps)
        rows.append((kind, j, t, m, n, s))
        shown = {k: tuple(round(float(x), 3) for x in v) for k, v in s.items()}
        print(kind, j, round(t, 3), m, n, shown, flush=True)
    return rows, reps


def summarise_simulation(rows):
    methods = list(rows[0][5])
    table = []
    for kind in ("grid", "random"):
        for j in (3, 5, 10):
            sub = [r for r in rows if r[0] == kind and r[1] == j]
            if not sub:
                continue
            full = np.array([r[5]["profile-likelihood-t"][1] for r in sub])
            thr = np.array([r[5]["best threshold, adjusted-Wald"][1] for r in sub])
            for meth in methods:
                cov = np.array([r[5][meth][0] for r in sub])
                table.append([kind, j, len(sub), meth, f"{cov.min():.3f}", f"{cov.mean():.3f}",
                              int((cov < 0.93).sum()),
                              f"{np.mean([r[5][meth][1] for r in sub]):.4f}",
                              f"{np.mean([r[5][meth][2] for r in sub]):.3f}"])  # fmt: skip
            table.append([kind, j, len(sub), "width: best threshold ÷ full alphabet", "", "",
                          "", f"{np.nanmedian(thr / full):.3f} (median)", ""])  # fmt: skip
    return table


def part_invalid(quick: bool):
    rng = np.random.default_rng(SEED + 1)
    reps = 200 if quick else 2000
    rows = []
    for theta in (0.2, 0.4, 0.6):
        c = np.array([[0.85, 0.14], [0.10, 0.56], [0.05, 0.30]])  # fail, pass, invalid
        test = rng.multinomial(2000, c @ [1 - theta, theta], size=reps)
        cal = np.stack([rng.multinomial(150, c[:, b], size=reps) for b in range(2)], -1)
        low, high, est = alphabet_profile_bounds(test, cal, LEVEL)
        keep = (est[:, 1], low[:, 1], high[:, 1])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            b = compute_bounds(js.JudgedCounts(test[:, 1], test[:, :2].sum(1)),
                               js.ConfusionCounts(tp=cal[:, 1, 1], fn=cal[:, 0, 1],
                                                  tn=cal[:, 0, 0], fp=cal[:, 1, 0]),
                               method="adjusted-wald", confidence_level=LEVEL)  # fmt: skip
        point = js.rogan_gladen(test[:, 1] / test[:, :2].sum(1),
                                cal[:, 0, 0] / cal[:, :2, 0].sum(1),
                                cal[:, 1, 1] / cal[:, :2, 1].sum(1))  # fmt: skip
        drop = (point, np.asarray(b.low), np.asarray(b.high))
        for name, (e, lo, hi) in (("keep 'invalid' as a letter", keep),
                                  ("drop invalid verdicts", drop)):  # fmt: skip
            cover = np.mean((lo <= theta) & (theta <= hi))
            rows.append([f"{theta:.1f}", name, f"{np.mean(e) - theta:+.4f}", f"{cover:.3f}",
                         f"{np.mean(hi - lo):.4f}"])  # fmt: skip
    return rows, reps


def _arena_wide():
    d = js.datasets.load_chatbot_arena("all")
    wide = d.pivot_table(index=["item_id", "target_model"], columns="judge_name",
                         values="judge_label", aggfunc="first").reset_index()  # fmt: skip
    human = d[d.judge_name == "gpt-4-0125-preview"][["item_id", "target_model", "human"]]
    return wide.merge(human, on=["item_id", "target_model"])


def part_real(quick: bool):
    wide = _arena_wide()
    g4, g35 = "gpt-4-0125-preview", "gpt-3.5-turbo-0125"
    splits = 10 if quick else 100
    rng = np.random.default_rng(SEED + 2)
    rows, per_target = [], []
    analyses = ["GPT-4 win/tie/lose (3 letters)", "GPT-4 + GPT-3.5 (6 letters)",
                "GPT-4 win/not-win", "GPT-3.5 win/not-win"]  # fmt: skip
    for target in js.datasets.ARENA_TARGETS:
        sub = wide[wide.target_model == target]
        truth = float(sub["human"].mean())
        a35 = sub[g35].replace({"tie": "lose"}).to_numpy()
        letters = {
            analyses[0]: sub[g4].to_numpy(),
            analyses[1]: np.array([f"{a}|{b}" for a, b in zip(sub[g4], a35, strict=True)]),
            analyses[2]: (sub[g4] == "win").astype(int).to_numpy(),
            analyses[3]: (a35 == "win").astype(int),
        }
        human = sub["human"].to_numpy()
        is_cal = rng.random((splits, len(sub))) < 0.1  # one row per split
        res = {}
        for a in analyses:
            lab = letters[a]
            alphabet = sorted(set(lab.tolist()))
            code = np.searchsorted(alphabet, lab)
            j = len(alphabet)
            onehot = np.eye(j, dtype=np.int64)[code]  # (items, J)
            test = (~is_cal).astype(np.int64) @ onehot  # (splits, J)
            cal = np.stack([is_cal.astype(np.int64) @ (onehot * (human == b)[:, None])
                            for b in (0, 1)], -1)  # (splits, J, 2)  # fmt: skip
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if j == 2:
                    b = compute_bounds(js.JudgedCounts(test[:, 1], test.sum(1)),
                                       js.ConfusionCounts(tp=cal[:, 1, 1], fn=cal[:, 0, 1],
                                                          tn=cal[:, 0, 0], fp=cal[:, 1, 0]),
                                       method="adjusted-wald", confidence_level=LEVEL)
                    lo, hi = np.asarray(b.low), np.asarray(b.high)  # fmt: skip
                else:  # the API's default for a judge alphabet: profile-likelihood-t
                    low, high, _ = alphabet_profile_bounds(test, cal, LEVEL, small_sample=True)
                    unseen = ((cal.sum(2) == 0) & (test > 0)).any(1)  # refused by the API
                    lo = np.where(unseen, np.nan, low[:, 1])
                    hi = np.where(unseen, np.nan, high[:, 1])
            res[a] = np.stack([lo, hi], 1)
        for a in analyses:
            arr = res[a]
            ok = np.isfinite(arr).all(1)
            cover = np.mean(np.where(ok, (arr[:, 0] <= truth) & (truth <= arr[:, 1]), False))
            per_target.append([target, a, f"{truth:.3f}", f"{cover:.2f}",
                               f"{np.nanmean(arr[:, 1] - arr[:, 0]):.4f}",
                               f"{1 - ok.mean():.2f}"])  # fmt: skip
    for a in analyses:
        sel = [r for r in per_target if r[1] == a]
        rows.append([a, f"{min(float(r[3]) for r in sel):.2f}",
                     f"{np.mean([float(r[4]) for r in sel]):.4f}",
                     f"{max(float(r[5]) for r in sel):.2f}"])  # fmt: skip
    return rows, per_target, splits


def part_speed():
    rng = np.random.default_rng(SEED + 3)
    c = score_matrix(5, 1.0)
    test = rng.multinomial(3000, c @ [0.7, 0.3], size=1000)
    cal = np.stack([rng.multinomial(150, c[:, b], size=1000) for b in range(2)], -1)
    t0 = time.perf_counter()
    alphabet_profile_bounds(test, cal, LEVEL)
    return time.perf_counter() - t0


def figure(rows):
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    for meth, mk in (("profile-likelihood-t", "o"), ("best threshold, adjusted-Wald", "s")):
        for j, col in zip((3, 5, 10), ("C0", "C1", "C2"), strict=True):
            sub = [r for r in rows if r[1] == j]
            ax[0].scatter([r[2] for r in sub], [r[5][meth][0] for r in sub], marker=mk, s=14,
                          color=col, label=f"J = {j}, {meth}", alpha=0.7)  # fmt: skip
    ax[0].axhline(0.95, color="k", lw=0.8)
    ax[0].axhline(0.93, color="k", lw=0.8, ls=":")
    ax[0].set_xlabel("θ")
    ax[0].set_ylabel("coverage")
    ax[0].set_title("Coverage per cell")
    for j, col in zip((3, 5, 10), ("C0", "C1", "C2"), strict=True):
        sub = [r for r in rows if r[1] == j]
        ratio = [r[5]["best threshold, adjusted-Wald"][1] / r[5]["profile-likelihood-t"][1]
                 for r in sub]  # fmt: skip
        ax[1].scatter([r[2] for r in sub], ratio, color=col, s=14, label=f"J = {j}")
    ax[1].axhline(1.0, color="k", lw=0.8)
    ax[1].set_xlabel("θ")
    ax[1].set_ylabel("mean width: best threshold ÷ full alphabet")
    ax[1].set_title("What the extra letters buy")
    ax[1].legend(fontsize=7)
    fig.legend(*ax[0].get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=7)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    return fig


def main() -> None:
    args = quick_parser(__doc__.splitlines()[0], "a few cells and splits (the test suite)")
    quick = args.parse_args().quick
    start = time.perf_counter()
    rows, reps = part_simulation(quick)
    table = summarise_simulation(rows)
    inv, inv_reps = part_invalid(quick)
    real, per_target, splits = part_real(quick)
    speed = part_speed()
    save_figure(figure(rows), "alphabets.png")
    body = "\n\n".join([
        __doc__.split("\n\n", 1)[1].rsplit("Writes", 1)[0].strip(),
        f"## Simulation ({reps} data sets per cell)",
        markdown_table(["cells", "J", "count", "method", "min coverage (cell)", "mean coverage",
                        "cells < 0.93", "mean width", "undefined"], table),
        "![coverage and width](alphabets.png)",
        f"## Invalid verdicts that depend on the truth ({inv_reps} data sets each)",
        markdown_table(["θ", "invalid verdicts", "bias", "coverage", "mean width"], inv),
        f"## Chatbot Arena, random 10% calibration splits ({splits} per target)",
        markdown_table(["analysis", "worst coverage over targets", "mean length",
                        "worst undefined share"], real),
        markdown_table(["target", "analysis", "human win rate", "coverage", "mean length",
                        "undefined"], per_target),
        "## Speed",
        markdown_table(["task", "seconds"],
                       [["profile-likelihood bounds of 1,000 data sets (J = 5, K = 2)",
                         f"{speed:.2f}"]]),
        run_time(time.perf_counter() - start, quick),
    ])  # fmt: skip
    publish("alphabets", "Judge alphabets: scores, ties, invalid verdicts, two judges", body,
            time.perf_counter() - start)


if __name__ == "__main__":
    main()
