"""A :class:`~judgestats.pairwise.PairwiseLeaderboard` as a figure: strengths and rank heat map."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import require_extra
from .likelihood import ELO_PER_LOGIT

__all__ = ["plot_pairwise"]

#: Up to this many models every rank is a labelled tick of the heat map; beyond it ranks 1,
#: 5, 10, … are labelled and every rank keeps a minor tick (20 labels ran together at 11 in).
ALL_RANK_TICKS = 12


def _axes_pair(ax: Any, k: int) -> tuple[Any, Any]:
    """Return the two Axes to draw on: ``ax`` (a pair) or a new figure's, sized for ``k`` models."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, (left, right) = plt.subplots(
            1, 2, figsize=(11, 1.5 + 0.35 * k), layout="constrained", width_ratios=[1.1, 1]
        )
        return left, right
    from .._validation import ArgumentTypeError

    pair = tuple(ax) if isinstance(ax, (list, tuple, np.ndarray)) else ()
    if len(pair) != 2 or not all(hasattr(a, "imshow") for a in pair):
        raise ArgumentTypeError(
            f"ax must be None or two matplotlib Axes (strengths, rank heat map), got {ax!r}"
        )
    return pair[0], pair[1]


def plot_pairwise(
    board: Any, *, ax: Any = None, scale: str = "elo", show_fits: bool = True
) -> Any:
    """Draw the leaderboard: strengths with intervals (left), ``P(rank = r)`` (right).

    Parameters
    ----------
    board : PairwiseLeaderboard
        The leaderboard to draw.
    ax : None or pair of matplotlib Axes, default None
        Where to draw the strengths and the rank heat map (default: a new figure of two panels
        side by side, sized for the number of models).
    scale : {"elo", "log-odds"}, default "elo"
        The strength axis: Elo points (``400/ln 10`` per unit) or log strengths.
    show_fits : bool, default True
        Mark the naive (judge taken as human) and human-only strengths beside the corrected.

    Returns
    -------
    matplotlib.axes.Axes
        The strengths panel, as every plot of the package returns its Axes; the heat map and
        its colour bar (labelled ``P(rank = r)``) are ``ax.figure.axes[1]`` and ``[2]`` of a
        new figure. matplotlib is imported here.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> import judgestats as js
    >>> from judgestats.datasets import load_arena_pairs
    >>> pairs = load_arena_pairs()  # 20 models; keep the human vote of 10% of the pairs
    >>> keep = np.random.default_rng(29).random(len(pairs)) < 0.10
    >>> board = js.pairwise(pairs.assign(human=pairs["human"].where(keep)),
    ...                     judge="judge_gpt-4", rng=0)
    >>> ax = board.plot()
    >>> ax.get_xlabel(), ax.figure.axes[2].get_ylabel()
    ('Elo (centred)', 'P(rank = r)')
    >>> plt.close(ax.figure)
    """
    from .._validation import check_choice

    check_choice("scale", scale, ("elo", "log-odds"))
    require_extra("matplotlib", "PairwiseLeaderboard.plot()")
    k = len(board.models)
    left, right = _axes_pair(ax, k)
    unit = ELO_PER_LOGIT if scale == "elo" else 1.0
    order = np.argsort(board.rank, kind="stable")
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
    _rank_heat_map(right, board, order)
    return left


def _rank_heat_map(ax: Any, board: Any, order: np.ndarray) -> None:
    """``P(rank = r)`` by model (rows, best first) and rank, with a labelled colour bar."""
    k = len(order)
    image = ax.imshow(board.rank_probabilities[order], cmap="Blues", vmin=0, vmax=1,
                      aspect="auto")  # fmt: skip
    ax.set_yticks(np.arange(k), [board.models[i] for i in order])
    ranks = np.arange(1, k + 1)
    shown = ranks if k <= ALL_RANK_TICKS else ranks[(ranks == 1) | (ranks % 5 == 0)]
    ax.set_xticks(shown - 1, [str(r) for r in shown])
    ax.set_xticks(ranks - 1, minor=True)
    ax.set_xlabel("rank r (1 = best)")
    ax.set_title(f"P(rank = r) ({board.rank_method} draws)")
    bar = ax.figure.colorbar(image, ax=ax, shrink=0.8)
    bar.set_label("P(rank = r)")
