"""Shared pieces of the jury benchmarks (bench_jury.py, bench_jury_combine.py; issue 39).

The real juries (Chatbot Arena's six targets judged by GPT-4 and GPT-3.5; NQ-301's twelve QA
systems judged by GPT-4-eval, InstructGPT-eval and BEM), the product letters' probabilities of
correlated binary judges, and the product letters' J × K profile-t interval.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
from scipy.stats import norm

import judgestats.multiclass as mc

DATA = Path(__file__).resolve().parent / "data"
LEVEL = 0.95

#: Arena's two judges (columns of :func:`arena_frame`) and their short names.
ARENA_JUDGES, ARENA_NAMES = ("gpt-4-0125-preview", "gpt-3.5-turbo-0125"), ("GPT-4", "GPT-3.5")
#: NQ-301's three judges (columns of :func:`nq_frame`) and their short names.
NQ_JUDGES, NQ_NAMES = ("judge_gpt4", "judge_instructgpt", "judge_bem"), ("GPT-4", "InstructGPT",
                                                                         "BEM")  # fmt: skip


def arena_frame():
    """Chatbot Arena's six targets, one row per (target, item): each judge's verdict, human."""
    from judgestats.datasets import ARENA_TARGETS, load_chatbot_arena

    a = load_chatbot_arena("all")
    a = a[a["target_model"].isin(ARENA_TARGETS)]
    wide = a.pivot_table(index=["target_model", "item_id"], columns="judge_name",
                         values="judge").reset_index()  # fmt: skip
    human = a.drop_duplicates(["target_model", "item_id"])[["target_model", "item_id", "human"]]
    return wide.merge(human, on=["target_model", "item_id"])


def nq_frame():
    """NQ-301 with its three judges (benchmarks/data/nq301_jury.csv, built by data-scout)."""
    import pandas as pd

    return pd.read_csv(DATA / "nq301_jury.csv")


def letter_probs(sens, spec, rho, gen, draws=200_000):
    """P(letter | human 0), P(letter | human 1) over the 2^J letters (judge 0 leading).

    Judge j is right where √ρ·u + √(1 − ρ)·e_j < Φ⁻¹(accuracy) (specificity for human 0,
    sensitivity for human 1), u shared by the judges of an item; by Monte Carlo over ``draws``
    latent draws.
    """
    judges = len(sens)
    lat = np.sqrt(rho) * gen.standard_normal((draws, 1)) + np.sqrt(1 - rho) * gen.standard_normal(
        (draws, judges)
    )
    out = []
    for acc, human in ((np.asarray(spec), 0), (np.asarray(sens), 1)):
        right = lat < norm.ppf(acc)
        verdict = right if human == 1 else ~right
        index = verdict.astype(int) @ (2 ** np.arange(judges - 1, -1, -1))
        out.append(np.bincount(index, minlength=2**judges) / draws)
    return out


def profile_t(test, cal):
    """The J × K profile-t interval of θ (NaN where a letter has no calibration item)."""
    low, high = np.full(len(test), np.nan), np.full(len(test), np.nan)
    seen = (cal.sum(-1) > 0).all(-1)
    if seen.any():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            b = mc.distribution_bounds(test[seen], cal[seen], method="profile-likelihood-t",
                                       confidence_level=LEVEL)  # fmt: skip
        low[seen], high[seen] = b.low[:, 1], b.high[:, 1]
    return low, high
