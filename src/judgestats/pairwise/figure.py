"""A :class:`~judgestats.pairwise.PairwiseLeaderboard` as a figure: strengths and rank heat map."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import require_extra
from .likelihood import ELO_PER_LOGIT

__all__ = ["plot_pairwise"]


def plot_pairwise(board: Any, *, scale: str = "elo", show_fits: bool = True) -> Any:
    """Draw the leaderboard: strengths with intervals (left), ``P(rank = r)`` (right).

    Parameters
    ----------
    board : PairwiseLeaderboard
        The leaderboard to draw.
    scale : {"elo", "log-odds"}, default "elo"
        The strength axis: Elo points (``400/ln 10`` per unit) or log strengths.
    show_fits : bool, default True
        Mark the naive (judge taken as human) and human-only strengths beside the corrected.

    Returns
    -------
    matplotlib.figure.Figure
        matplotlib is imported here.
    """
    from .._validation import check_choice

    check_choice("scale", scale, ("elo", "log-odds"))
    require_extra("matplotlib", "PairwiseLeaderboard.plot()")
    import matplotlib.pyplot as plt

    k = len(board.models)
    unit = ELO_PER_LOGIT if scale == "elo" else 1.0
    order = np.argsort(board.rank, kind="stable")
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(11, 1.5 + 0.35 * k), layout="constrained", width_ratios=[1.1, 1]
    )
    y = np.arange(k)[::-1]
    est = unit * board.strength[order]
    low, high = unit * board.strength_ci[order, 0], unit * board.strength_ci[order, 1]
    level = f"{100 * board.confidence_level:g}%"
    left.errorbar(est, y, xerr=[est - low, high - est], fmt="o", color="tab:blue", capsize=3,
                  label=f"{board.method}, {level} interval")  # fmt: skip
    fits = ((board.naive, "tab:red", "naive (judge as human)"),
            (board.human_only, "tab:green", "human-only"))  # fmt: skip
    for fit, colour, name in fits if show_fits else ():
        if fit is not None:
            left.plot(unit * fit.strength[order], y, "o", mfc="none", color=colour, label=name)
    labels = [f"{board.models[i]}  [{board.rank_set[i, 0]}–{board.rank_set[i, 1]}]" for i in order]
    left.set_yticks(y, labels)
    left.set_xlabel("Elo (centred)" if scale == "elo" else "log strength (centred)")
    left.grid(axis="x", alpha=0.3)
    left.legend(loc="lower right", fontsize="small")
    left.set_title(f"Strengths; rank sets simultaneous at {level}")
    image = right.imshow(board.rank_probabilities[order], cmap="Blues", vmin=0, vmax=1,
                         aspect="auto")  # fmt: skip
    right.set_yticks(np.arange(k), [board.models[i] for i in order])
    right.set_xticks(np.arange(k), [str(r) for r in range(1, k + 1)])
    right.set_xlabel("rank")
    right.set_title(f"P(rank = r) ({board.rank_method} draws)")
    fig.colorbar(image, ax=right, shrink=0.8)
    return fig
