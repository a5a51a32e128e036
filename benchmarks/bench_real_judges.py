"""Baseline figures of the real judge data in benchmarks/data/ (issues #39 and #40).

Everything is computed on all rows of each committed table (no splits): what the judges,
juries, scores and human raters look like before any new estimator touches them.

A. NQ-301 jury (benchmarks/data/nq301_jury.csv; 12 QA systems, 3,561 answers): per system and
   pooled, n, the human rate, each judge's (GPT-4-eval, InstructGPT-eval, BEM) sensitivity,
   specificity, agreement and Cohen's kappa with the final human verdict (js.agreement,
   design "random": every item labelled); the judges' agreement with each other and the
   correlation of their errors within each human class (conditional dependence, which juries
   and latent-class models care about); the BEM probability's AUC against the human verdict,
   within each BEM letter and within each GPT-4 letter; the two annotators against each other,
   against the final verdict and against GPT-4.
B. LLM-Rubric (benchmarks/data/llm_rubric_scores.csv.xz): gpt-3.5-turbo-16k's probability of each
   answer to "overall satisfaction, 1-4" beside human ratings (real dialogues: one judge each, 3
   systems; synthetic: three judges each, 5 variants). Binary reference: rating >= 3; the judge's
   score: P(answer >= 3) = p3 + p4, its letter: score > 0.5. Per system: n, human rate,
   sensitivity, specificity, kappa, AUC, AUC within each letter, Spearman of the expected answer
   with the rating; for the three-rater set, each rater slot's agreement and Fleiss' kappa.
C. PandaLM test set (benchmarks/data/pandalm_raters.csv.xz; 999 pairs, labels 1 / 2 / tie): the
   three annotators against each other (Cohen's kappa, Fleiss' kappa), each judge (gpt-3.5-turbo,
   PandaLM-7B) against the annotators' majority and against each annotator, per model pair and
   pooled; the share of "response 1" verdicts (position) and of "the longer response" among
   decisive verdicts (length), humans beside judges.
D. LLMBar (benchmarks/data/llmbar_jury.csv.xz; 419 pairs, a curated gold label, five subsets):
   five LLM judges (GPT-4, ChatGPT, LLaMA-2, PaLM-2, Falcon; plain prompt), each asked with
   output 1 first and with the outputs swapped: accuracy in each order, how often the verdict
   survives the swap, kappa; the majority of the five against GPT-4 alone; GPT-4's 0-9 rating
   of each output as a score (the difference), its AUC overall and within GPT-4's verdict.

Intervals are 95%: js.agreement's (Clopper-Pearson for rates, delta-atanh for kappa); AUC by a
percentile bootstrap over items (2,000 resamples, seed 3901; 200 with --quick).
Run: python benchmarks/bench_real_judges.py [--quick]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from _common import markdown_table, publish, quick_parser, run_time
from scipy.stats import rankdata, spearmanr

import judgestats as js

DATA = Path(__file__).resolve().parent / "data"
LEVEL = 0.95
SEED = 3901
NQ_JUDGES = {"GPT-4": "judge_gpt4", "InstructGPT": "judge_instructgpt", "BEM": "judge_bem"}


# ----------------------------------------------------------------------------- small helpers
def _f(x: float, d: int = 3) -> str:
    return "–" if x is None or not np.isfinite(x) else f"{x:.{d}f}"


def _ci(rate) -> str:
    """'0.857 (0.81–0.90)' from an AgreementRate (estimate and its interval)."""
    if rate is None:
        return "–"
    if rate.ci is None:
        return _f(rate.estimate)
    return f"{_f(rate.estimate)} ({rate.ci.low:.2f}–{rate.ci.high:.2f})"


def card(human: np.ndarray, judge: np.ndarray):
    """js.agreement on binary 0/1 arrays, design "random" (every item labelled)."""
    h, j = np.asarray(human, bool), np.asarray(judge, bool)
    counts = js.ConfusionCounts(
        tp=int((h & j).sum()),
        fn=int((h & ~j).sum()),
        tn=int((~h & ~j).sum()),
        fp=int((~h & j).sum()),
    )
    return js.agreement(counts, design="random", confidence_level=LEVEL)


def kappa_k(a: Sequence, b: Sequence, labels: Sequence) -> object:
    """js.agreement's kappa of two K-category label arrays (b plays the human, a the judge)."""
    idx = {v: i for i, v in enumerate(labels)}
    counts = np.zeros((len(labels), len(labels)), int)
    for x, y in zip(a, b, strict=True):
        counts[idx[x], idx[y]] += 1
    mat = js.ConfusionMatrix(counts, labels=list(labels))
    return js.agreement(mat, design="random", confidence_level=LEVEL).kappa


def auc(score: np.ndarray, y: np.ndarray) -> float:
    """Mann-Whitney AUC (ties count one half): P(score of a positive > score of a negative)."""
    y = np.asarray(y, bool)
    n1, n0 = int(y.sum()), int((~y).sum())
    if n1 == 0 or n0 == 0:
        return float("nan")
    r = rankdata(score)
    return float((r[y].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def auc_ci(score: np.ndarray, y: np.ndarray, reps: int, rng: np.random.Generator) -> str:
    """AUC with a percentile bootstrap interval over items; '–' where a class is empty."""
    est = auc(score, y)
    if not np.isfinite(est):
        return "–"
    n = len(y)
    boot = [auc(score[i], y[i]) for i in (rng.integers(0, n, n) for _ in range(reps))]
    lo, hi = np.nanquantile(boot, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
    return f"{est:.3f} ({lo:.2f}–{hi:.2f})"


def auc_within(score: np.ndarray, y: np.ndarray, letter: np.ndarray) -> tuple[float, float, float]:
    """AUC within letter 0, within letter 1, and pooled within letters (weighted by pairs)."""
    out, num, den = [], 0.0, 0.0
    for v in (0, 1):
        m = letter == v
        a = auc(score[m], y[m])
        out.append(a)
        pairs = float(y[m].sum() * (~y[m].astype(bool)).sum())
        if pairs:
            num, den = num + a * pairs, den + pairs
    return out[0], out[1], (num / den if den else float("nan"))


def error_corr(h: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Phi correlation of two judges' errors within human class 1 and within class 0."""
    out = []
    for v in (1, 0):
        m = h == v
        ea, eb = (a[m] != v).astype(float), (b[m] != v).astype(float)
        out.append(float(np.corrcoef(ea, eb)[0, 1]) if ea.std() and eb.std() else float("nan"))
    return out[0], out[1]


def fleiss_kappa(labels: np.ndarray, categories: Sequence) -> float:
    """Fleiss' kappa for items x raters (every item with the same number of raters)."""
    n = labels.shape[1]
    counts = np.stack([(labels == c).sum(1) for c in categories], axis=1).astype(float)
    p_item = ((counts * (counts - 1)).sum(1)) / (n * (n - 1))
    p_cat = counts.sum(0) / counts.sum()
    pe = float((p_cat**2).sum())
    return float((p_item.mean() - pe) / (1 - pe))


# ----------------------------------------------------------------------------- A. NQ-301 jury
def load_nq() -> pd.DataFrame:
    return pd.read_csv(DATA / "nq301_jury.csv")


def _groups(df: pd.DataFrame, col: str) -> list[tuple[str, pd.DataFrame]]:
    return [*((str(k), g) for k, g in df.groupby(col, sort=True)), ("all (pooled)", df)]


def nq_judges(df: pd.DataFrame) -> str:
    rows = []
    for target, g in _groups(df, "target_model"):
        h = g["human"].to_numpy()
        for name, col in NQ_JUDGES.items():
            c = card(h, g[col].to_numpy())
            rows.append(
                [
                    target,
                    len(g),
                    _f(h.mean()),
                    name,
                    _f(g[col].mean()),
                    _ci(c.sensitivity),
                    _ci(c.specificity),
                    _f((g[col] == g["human"]).mean()),
                    _ci(c.kappa),
                ]
            )
    header = [
        "target",
        "n",
        "human rate",
        "judge",
        "judge rate",
        "sensitivity",
        "specificity",
        "agreement",
        "kappa",
    ]
    return markdown_table(header, rows)


def nq_pairs(df: pd.DataFrame) -> str:
    names = list(NQ_JUDGES)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            x, y, h = (
                df[NQ_JUDGES[a]].to_numpy(),
                df[NQ_JUDGES[b]].to_numpy(),
                df["human"].to_numpy(),
            )
            per = [
                float((g[NQ_JUDGES[a]] == g[NQ_JUDGES[b]]).mean())
                for _, g in df.groupby("target_model")
            ]
            r1, r0 = error_corr(h, x, y)
            both = float(((x != h) & (y != h)).mean())
            rows.append(
                [
                    f"{a} / {b}",
                    _f((x == y).mean()),
                    f"{min(per):.3f}–{max(per):.3f}",
                    _ci(card(y, x).kappa),
                    _f(r1),
                    _f(r0),
                    _f(both),
                ]
            )
    jury = (df[list(NQ_JUDGES.values())].sum(axis=1) >= 2).astype(int).to_numpy()
    c = card(df["human"].to_numpy(), jury)
    header = [
        "judges",
        "agreement (pooled)",
        "agreement range over 12 systems",
        "kappa",
        "error corr. (human = 1)",
        "error corr. (human = 0)",
        "both wrong",
    ]
    note = (
        f"\n\nMajority of the three judges against the human verdict (pooled): "
        f"agreement {(jury == df['human']).mean():.3f}, sensitivity {_ci(c.sensitivity)}, "
        f"specificity {_ci(c.specificity)}, kappa {_ci(c.kappa)}."
    )
    return markdown_table(header, rows) + note


def nq_bem_score(df: pd.DataFrame, reps: int, rng: np.random.Generator) -> str:
    rows = []
    for target, g in _groups(df, "target_model"):
        s, y = g["bem_score"].to_numpy(), g["human"].to_numpy()
        b0, b1, bp = auc_within(s, y, g["judge_bem"].to_numpy())
        g0, g1, gp = auc_within(s, y, g["judge_gpt4"].to_numpy())
        rows.append(
            [
                target,
                len(g),
                auc_ci(s, y, reps, rng),
                _f(b0),
                _f(b1),
                _f(bp),
                _f(g0),
                _f(g1),
                _f(gp),
            ]
        )
    header = [
        "target",
        "n",
        "AUC of BEM score",
        "within BEM = 0",
        "within BEM = 1",
        "within BEM letters (pooled)",
        "within GPT-4 = 0",
        "within GPT-4 = 1",
        "within GPT-4 letters (pooled)",
    ]
    return markdown_table(header, rows)


def nq_annotators(df: pd.DataFrame) -> str:
    a1, a2 = df["human_annotator1"].to_numpy(), df["human_annotator2"].to_numpy()
    final, g4 = df["human"].to_numpy(), df["judge_gpt4"].to_numpy()
    third = df["human_annotator3"].notna()
    rows = []
    for name, x, ref in (("annotator 1 / annotator 2", a1, a2),
                         ("annotator 1 / final verdict", a1, final),
                         ("annotator 2 / final verdict", a2, final),
                         ("GPT-4 / annotator 1", g4, a1), ("GPT-4 / annotator 2", g4, a2),
                         ("GPT-4 / final verdict", g4, final)):  # fmt: skip
        rows.append([name, len(x), _f((x == ref).mean()), _ci(card(ref, x).kappa)])
    votes = df[["human_annotator1", "human_annotator2", "human_annotator3"]]
    majority = (votes.sum(axis=1) > votes.notna().sum(axis=1) / 2).astype(int)
    split = int((a1 != a2).sum())
    note = (
        f"\n\nThe two annotators disagreed on {split} of {len(df)} answers; the third "
        f"voted on {int(third.sum())} (those {split} and {int(third.sum()) - split} where the "
        f"two agreed). The final verdict equals the majority of the votes cast on "
        f"{int((majority == final).sum())} of {len(df)} answers. Rows are answers (one "
        f"question is answered by up to 12 systems); the intervals treat rows as independent."
    )
    return markdown_table(["raters", "n", "agreement", "kappa"], rows) + note


# ----------------------------------------------------------------------------- B. LLM-Rubric
def load_rubric() -> pd.DataFrame:
    df = pd.read_csv(DATA / "llm_rubric_scores.csv.xz")
    df["score"] = df["llm_Q0_p3"] + df["llm_Q0_p4"]  # P(answer >= 3)
    df["letter"] = (df["score"] > 0.5).astype(int)
    df["expected"] = sum(k * df[f"llm_Q0_p{k}"] for k in range(1, 5))
    return df


def rubric_rows(df: pd.DataFrame, reps: int, rng: np.random.Generator) -> str:
    """Per split and system, against the first rater slot (the only one in 'real')."""
    rows = []
    for split, part in df.groupby("split", sort=False):
        for target, g in _groups(part, "target"):
            g = g[g["human_rater1"].notna()]
            y = (g["human_rater1"] >= 3).astype(int).to_numpy()
            s, letter = g["score"].to_numpy(), g["letter"].to_numpy()
            c = card(y, letter)
            w0, w1, wp = auc_within(s, y, letter)
            rho = spearmanr(g["expected"], g["human_rater1"]).statistic
            rows.append(
                [
                    split,
                    target,
                    len(g),
                    _f(y.mean()),
                    _f(letter.mean()),
                    _ci(c.sensitivity),
                    _ci(c.specificity),
                    _ci(c.kappa),
                    auc_ci(s, y, reps, rng),
                    _f(w0),
                    _f(w1),
                    _f(wp),
                    _f(rho),
                ]
            )
    header = [
        "split",
        "target",
        "n",
        "human rate (rating >= 3)",
        "judge rate",
        "sensitivity",
        "specificity",
        "kappa",
        "AUC of P(>= 3)",
        "within letter 0",
        "within letter 1",
        "within letters (pooled)",
        "Spearman (expected answer, rating)",
    ]
    return markdown_table(header, rows)


def rubric_raters(df: pd.DataFrame) -> str:
    """The synthetic set's three rater slots: each other, the majority and the judge."""
    g = df[(df["split"] == "synth")]
    r = g[["human_rater1", "human_rater2", "human_rater3"]]
    full = g[r.notna().all(axis=1)]
    y = (full[["human_rater1", "human_rater2", "human_rater3"]].to_numpy() >= 3).astype(int)
    majority = (y.sum(1) >= 2).astype(int)
    letter = full["letter"].to_numpy()
    rows = []
    for i, j in ((0, 1), (0, 2), (1, 2)):
        rows.append(
            [
                f"rater {i + 1} / rater {j + 1}",
                len(full),
                _f((y[:, i] == y[:, j]).mean()),
                _ci(card(y[:, j], y[:, i]).kappa),
            ]
        )
    for i in range(3):
        rows.append(
            [
                f"judge / rater {i + 1}",
                len(full),
                _f((letter == y[:, i]).mean()),
                _ci(card(y[:, i], letter).kappa),
            ]
        )
    rows.append(
        [
            "judge / majority of 3",
            len(full),
            _f((letter == majority).mean()),
            _ci(card(majority, letter).kappa),
        ]
    )
    fk = fleiss_kappa(y, (0, 1))
    fk4 = fleiss_kappa(
        full[["human_rater1", "human_rater2", "human_rater3"]].to_numpy(), (1, 2, 3, 4)
    )
    note = (
        f"\n\nFleiss' kappa of the three raters ({len(full)} dialogues with three usable "
        f"ratings): {fk:.3f} on rating >= 3, {fk4:.3f} on the four grades. AUC of the "
        f"judge's P(>= 3) against the raters' majority: "
        f"{auc(full['score'].to_numpy(), majority):.3f}."
        f" Rater slots follow annotation rounds, not persons (24 annotators in all)."
    )
    return markdown_table(["raters", "n", "agreement", "kappa"], rows) + note


# ----------------------------------------------------------------------------- C. PandaLM
PANDA_JUDGES = {"gpt-3.5-turbo": "judge_gpt35", "PandaLM-7B": "judge_pandalm7b"}
ANNOTATORS = ["human_annotator1", "human_annotator2", "human_annotator3"]
LABELS = (1, 2, 0)  # response 1 better, response 2 better, tie


def load_panda() -> pd.DataFrame:
    df = pd.read_csv(DATA / "pandalm_raters.csv.xz")
    votes = df[ANNOTATORS].to_numpy()
    counts = np.stack([(votes == v).sum(1) for v in LABELS], axis=1)
    df["majority"] = np.where(counts.max(1) >= 2, np.array(LABELS)[counts.argmax(1)], -1)
    df["pair"] = df["model1"] + " / " + df["model2"]
    return df


def panda_raters(df: pd.DataFrame) -> str:
    rows = []
    for i, a in enumerate(ANNOTATORS):
        for b in ANNOTATORS[i + 1 :]:
            rows.append(
                [
                    f"annotator {a[-1]} / annotator {b[-1]}",
                    len(df),
                    _f((df[a] == df[b]).mean()),
                    _ci(kappa_k(df[a], df[b], LABELS)),
                ]
            )
    for name, col in PANDA_JUDGES.items():
        g = df[df[col].notna()]
        for a in [*ANNOTATORS, "majority"]:
            who = "majority of 3" if a == "majority" else f"annotator {a[-1]}"
            rows.append(
                [
                    f"{name} / {who}",
                    len(g),
                    _f((g[col] == g[a]).mean()),
                    _ci(kappa_k(g[col].astype(int), g[a], LABELS)),
                ]
            )
    fk = fleiss_kappa(df[ANNOTATORS].to_numpy(), LABELS)
    unanimous = float((df[ANNOTATORS].nunique(axis=1) == 1).mean())
    note = (
        f"\n\nFleiss' kappa of the three annotators: {fk:.3f}; unanimous on {unanimous:.3f} of "
        f"pairs; no pair without a majority. gpt-3.5-turbo's verdict is unparsable on "
        f"{int(df['judge_gpt35'].isna().sum())} pairs (left out of its rows). The authors kept "
        f"999 of about 2,500 annotated pairs, dropping those with large disagreement, so the "
        f"raters' agreement here is selected high."
    )
    return markdown_table(["raters", "n", "agreement", "kappa (3 classes)"], rows) + note


def panda_pairs(df: pd.DataFrame) -> str:
    rows = []
    for pair, g in _groups(df, "pair"):
        maj = g["majority"]
        cells = [pair, len(g), _f((maj == 1).mean()), _f((maj == 2).mean()), _f((maj == 0).mean())]
        for col in PANDA_JUDGES.values():
            h = g[g[col].notna()]
            cells.append(_f((h[col] == h["majority"]).mean()))
        rows.append(cells)
    header = [
        "model pair (response 1 / 2)",
        "n",
        "majority: 1 better",
        "majority: 2 better",
        "majority: tie",
        "gpt-3.5-turbo = majority",
        "PandaLM-7B = majority",
    ]
    return markdown_table(header, rows)


def panda_bias(df: pd.DataFrame) -> str:
    """Share of 'response 1' and of 'the longer response' among each rater's decisive verdicts."""
    rows = []
    longer = np.sign(df["response2_words"] - df["response1_words"])  # +1: response 2 longer
    for name, col in [
        *((f"annotator {a[-1]}", a) for a in ANNOTATORS),
        ("majority of 3", "majority"),
        *PANDA_JUDGES.items(),
    ]:
        v = df[col]
        decisive = v.isin([1, 2])
        unequal = decisive & (longer != 0)
        chose_longer = ((v == 2) & (longer > 0)) | ((v == 1) & (longer < 0))
        rows.append(
            [
                name,
                int(decisive.sum()),
                _f((v[decisive] == 1).mean()),
                _f(float((v == 0).mean())),
                int(unequal.sum()),
                _f(chose_longer[unequal].mean()),
            ]
        )
    header = [
        "rater",
        "decisive verdicts",
        "share 'response 1'",
        "share tie",
        "decisive, lengths differ",
        "share 'the longer response'",
    ]
    return markdown_table(header, rows)


# ----------------------------------------------------------------------------- D. LLMBar
LLMBAR_JUDGES = {"GPT-4": "gpt4", "ChatGPT": "chatgpt", "LLaMA-2": "llama2", "PaLM-2": "palm2",
                 "Falcon": "falcon"}  # fmt: skip


def load_llmbar() -> pd.DataFrame:
    return pd.read_csv(DATA / "llmbar_jury.csv.xz")


def llmbar_judges(df: pd.DataFrame) -> str:
    rows = []
    for subset, g in _groups(df, "subset"):
        gold = (g["label"] == 1).to_numpy()
        for name, short in LLMBAR_JUDGES.items():
            first, second = g[f"judge_{short}_first"], g[f"judge_{short}_second"]
            both = first.notna() & second.notna()
            kappa = card(gold[first.notna()], (first[first.notna()] == 1).to_numpy()).kappa
            rows.append(
                [
                    subset,
                    len(g),
                    name,
                    _f((first == g["label"]).mean()),
                    _f((second == g["label"]).mean()),
                    _f((first[both] == second[both]).mean()),
                    _f(((first == g["label"]) & (second == g["label"])).mean()),
                    _ci(kappa),
                ]
            )
    header = [
        "subset",
        "n",
        "judge",
        "accuracy (output 1 first)",
        "accuracy (swapped)",
        "same verdict both orders",
        "right in both orders",
        "kappa (output 1 first)",
    ]
    return markdown_table(header, rows)


def llmbar_jury(df: pd.DataFrame, reps: int, rng: np.random.Generator) -> str:
    """Majority of the five judges (first order) and GPT-4's 0-9 score difference."""
    rows = []
    cols = [f"judge_{s}_first" for s in LLMBAR_JUDGES.values()]
    for subset, g in _groups(df, "subset"):
        y = (g["label"] == 1).to_numpy()
        votes1 = (g[cols] == 1).sum(axis=1).to_numpy()
        votes2 = (g[cols] == 2).sum(axis=1).to_numpy()
        majority = np.where(votes1 > votes2, 1, 2)
        ok = g[["gpt4_rating_score1", "gpt4_rating_score2"]].notna().all(axis=1).to_numpy()
        diff = (g["gpt4_rating_score1"] - g["gpt4_rating_score2"]).to_numpy()[ok]
        letter = (g["judge_gpt4_first"] == 1).to_numpy()[ok]
        _, _, within = auc_within(diff, y[ok], letter.astype(int))
        rows.append(
            [
                subset,
                len(g),
                _f((majority == g["label"]).mean()),
                _f((g["judge_gpt4_first"] == g["label"]).mean()),
                _f(float(np.mean(diff == 0))),
                auc_ci(diff, y[ok], reps, rng),
                _f(within),
            ]
        )
    header = [
        "subset",
        "n",
        "majority of 5 judges: accuracy",
        "GPT-4 alone: accuracy",
        "GPT-4 rating: share of equal scores",
        "AUC of GPT-4 score difference",
        "within GPT-4's verdict (pooled)",
    ]
    note = (
        "\n\nThe majority counts each judge's verdict with output 1 shown first (a judge "
        "without a verdict abstains; a tie of votes goes to output 2). The score difference "
        'is GPT-4\'s 0-9 rating of output 1 minus that of output 2 ("Rating" prompt, each '
        "output scored alone)."
    )
    return markdown_table(header, rows) + note


# ----------------------------------------------------------------------------- main
def main() -> None:
    args = quick_parser(
        __doc__.splitlines()[0], "200 bootstrap resamples instead of 2,000"
    ).parse_args()
    reps = 200 if args.quick else 2000
    rng = np.random.default_rng(SEED)
    t0 = time.perf_counter()
    nq, rubric, panda, bar = load_nq(), load_rubric(), load_panda(), load_llmbar()
    body = "\n\n".join(
        [
            __doc__.split("Run:")[0].strip(),
            "## A. NQ-301: three judges against the final human verdict",
            nq_judges(nq),
            "### The judges against each other",
            nq_pairs(nq),
            "### BEM's probability: what it says beyond its letter",
            nq_bem_score(nq, reps, rng),
            "### Two annotators, an adjudicator and GPT-4",
            nq_annotators(nq),
            "## B. LLM-Rubric: an LLM's probability beside human ratings",
            rubric_rows(rubric, reps, rng),
            "### Three raters per dialogue (synthetic set)",
            rubric_raters(rubric),
            "## C. PandaLM test set: three annotators and two judges",
            panda_raters(panda),
            "### Per model pair",
            panda_pairs(panda),
            "### Position and length",
            panda_bias(panda),
            "## D. LLMBar: a gold label and five judges, each in both orders",
            llmbar_judges(bar),
            "### A jury of five, and GPT-4's score",
            llmbar_jury(bar, reps, rng),
            run_time(time.perf_counter() - t0, args.quick),
        ]
    )
    publish(
        "real_judges",
        "Real judge data: juries, scores and several raters",
        body,
        time.perf_counter() - t0,
    )


if __name__ == "__main__":
    main()
