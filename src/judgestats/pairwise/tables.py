"""A :class:`~judgestats.pairwise.PairwiseLeaderboard` as a table and as text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..results import display_width, pad, shorten, shown_label
from .counting import HUMAN_VERDICTS
from .likelihood import ELO_PER_LOGIT

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    import xarray as xr

__all__ = ["leaderboard_frame", "leaderboard_rows", "leaderboard_summary", "leaderboard_xarray"]


def leaderboard_rows(board: Any) -> list[dict]:
    """One dict per model, strongest first (the columns of :func:`leaderboard_frame`)."""
    rows = []
    for i in np.argsort(board.rank, kind="stable"):
        row = {
            "model": board.models[i],
            "rank": int(board.rank[i]),
            "rank_best": int(board.rank_set[i, 0]),
            "rank_worst": int(board.rank_set[i, 1]),
            "p_rank_1": float(board.rank_probabilities[i, 0]),
            "strength": float(board.strength[i]),
            "strength_lower": float(board.strength_ci[i, 0]),
            "strength_upper": float(board.strength_ci[i, 1]),
            "elo": float(board.elo[i]),
            "elo_lower": float(board.elo_ci[i, 0]),
            "elo_upper": float(board.elo_ci[i, 1]),
        }
        for name, fit in (("naive", board.naive), ("human_only", board.human_only)):
            row[f"{name}_strength"] = np.nan if fit is None else float(fit.strength[i])
        rows.append(row)
    return rows


def leaderboard_frame(board: Any) -> pd.DataFrame:
    """Return the leaderboard as a pandas DataFrame, one row per model, strongest first."""
    import pandas as pd

    frame = pd.DataFrame(leaderboard_rows(board))
    frame.attrs.update(interval=board.interval, **_attrs(board))
    return frame


def _attrs(board: Any) -> dict[str, Any]:
    """Return what a frame and a Dataset of the leaderboard both say of how it was computed."""
    return {"estimator": board.estimator, "design": board.design,
            "confidence_level": board.confidence_level, "rank_method": board.rank_method}


def _fit_strength(fit: Any, k: int) -> np.ndarray:
    return np.full(k, np.nan) if fit is None else np.asarray(fit.strength, dtype=float)


def leaderboard_xarray(board: Any) -> xr.Dataset:
    """Return the leaderboard as an xarray Dataset in ArviZ's interval layout.

    Dims ``model`` (the sorted names), ``opponent`` (the same names), ``rank`` (1..K),
    ``ci_bound = ["lower", "upper"]``, ``rank_bound = ["best", "worst"]``, ``judge_label``
    and ``human_verdict`` (a/tie/b). Attrs ``ci_kind`` (the interval), ``ci_prob`` (the
    level) and what was fitted (estimator, method, design, rank method, counts).
    """
    from .._validation import require_extra

    require_extra("xarray", "to_xarray()")
    import xarray as xr

    k = len(board.models)
    model = ("model",)
    data: dict[str, Any] = {
        "strength": (model, board.strength),
        "strength_se": (model, board.strength_se),
        "strength_ci": (("model", "ci_bound"), board.strength_ci),
        "elo": (model, board.elo),
        "elo_ci": (("model", "ci_bound"), board.elo_ci),
        "rank_point": (model, np.asarray(board.rank, dtype=np.int64)),
        "rank_set": (("model", "rank_bound"), np.asarray(board.rank_set, dtype=np.int64)),
        "rank_probability": (("model", "rank"), board.rank_probabilities),
        "win_probability": (("model", "opponent"), board.win_probability),
        "win_probability_ci": (("model", "opponent", "ci_bound"), board.win_probability_ci),
        "tie": board.tie,
        "tie_ci": (("ci_bound",), np.asarray(board.tie_ci, dtype=float)),
        "confusion": (("judge_label", "human_verdict"), board.confusion),
        "naive_strength": (model, _fit_strength(board.naive, k)),
        "human_only_strength": (model, _fit_strength(board.human_only, k)),
    }
    coords = {
        "model": list(board.models),
        "opponent": list(board.models),
        "rank": np.arange(1, k + 1),
        "ci_bound": ["lower", "upper"],
        "rank_bound": ["best", "worst"],
        "judge_label": [str(v) for v in board.judge_labels],
        "human_verdict": list(HUMAN_VERDICTS),
    }
    if board.controls:  # style control: each control's coefficient and interval
        data["control_coefficient"] = (("control",), board.control_coefficient)
        data["control_ci"] = (("control", "ci_bound"), board.control_ci)
        coords["control"] = list(board.controls)
    ds = xr.Dataset(data, coords=coords)
    attrs = _attrs(board)
    ds.attrs.update(
        ci_kind=board.interval,
        ci_prob=attrs.pop("confidence_level"),
        method=board.method,
        confusion_kind=board.confusion_kind,
        n_judged=board.n_judged,
        n_labelled=board.n_labelled,
        **attrs,
        **({} if board.lam is None else {"lam": board.lam}),
    )
    return ds


def leaderboard_summary(board: Any) -> str:
    """Return the leaderboard as text: the fit, a line per model, the confusion, the notes."""
    pct = f"{100 * board.confidence_level:g}%"
    lines = [
        f"Pairwise leaderboard: {board.estimator}",
        f"{len(board.models)} models; {board.n_judged} judged-only pairs, {board.n_labelled} "
        f"calibration pairs (design {board.design!r}); confusion {board.confusion_kind!r}",
        f"{pct} {board.interval} intervals; rank sets simultaneous at {pct} "
        f"({board.rank_method}); Davidson tie ν = {board.tie:.3f}",
    ]
    rows = leaderboard_rows(board)
    names = [shorten(shown_label(str(row["model"]))) for row in rows]  # --json keeps them whole
    width = max(24, *(display_width(name) for name in names))  # terminal columns (CJK: two)
    lines += [
        "",
        f"{'rank':>4} {'set':>7}  {pad('model', width)} {'strength':>8} {pct + ' interval':>19} "
        f"{'Elo':>6} {'naive':>7} {'human':>7}",
    ]
    for row, name in zip(rows, names, strict=True):
        rank_set = f"{row['rank_best']}-{row['rank_worst']}"
        interval = f"[{row['strength_lower']:.3f}, {row['strength_upper']:.3f}]"
        lines.append(
            f"{row['rank']:>4} {rank_set:>7}  {pad(name, width)} {row['strength']:>8.3f} "
            f"{interval:>19} {row['elo']:>6.0f} {row['naive_strength']:>7.3f} "
            f"{row['human_only_strength']:>7.3f}"
        )
    if board.controls:
        lines += ["", f"Style controls (log-odds per unit of model_a minus b; {pct} interval):"]
        for name, coef, (lo, hi) in zip(
            board.controls, board.control_coefficient, board.control_ci, strict=True
        ):
            lines.append(f"  {shorten(str(name)):<24} {coef:>8.3f} [{lo:.3f}, {hi:.3f}]")
    lines += ["", "Judge confusion P(judge letter | human a / tie / b):"]
    for letter, values in zip(board.judge_labels, board.confusion, strict=True):
        lines.append(f"  {letter!s:<8}" + " ".join(f"{v:6.3f}" for v in values))
    lines += [f"Note: {note}" for note in board.notes]
    lines.append(f"(Elo = {ELO_PER_LOGIT:.2f} x strength; naive = judge taken as human.)")
    return "\n".join(lines)
