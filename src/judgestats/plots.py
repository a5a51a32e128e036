"""Matplotlib figures (matplotlib is imported only when a function here is called).

Every function draws on ``ax`` when given (else on a new figure) and returns the Axes. So does
every plot of the package (issue 38): ``plot_leaderboard`` and the ``plot()`` methods of
``Evaluation``, ``Ranking``, ``Agreement``, ``Monitor`` and ``PairwiseLeaderboard`` (whose
figure has two panels: it takes a pair of Axes and returns the strengths panel's, the rank heat
map being ``ax.figure.axes[1]``). The figure is ``ax.figure``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ._validation import require_extra

__all__ = [
    "coverage_plot",
    "design_widths",
    "estimator_bias_plot",
    "interval_rows",
    "judge_regime_map",
    "width_vs_calibration_size",
]


def _axes(ax: Any):
    require_extra("matplotlib", "plotting")
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4), layout="constrained")
    return ax


def interval_rows(
    ax: Any, labels: Sequence[str], estimate: Any, low: Any, high: Any, *, level: str,
    naive: Any = None,
) -> Any:  # fmt: skip
    """Draw leaderboard rows, the first label at the top.

    Each estimate with its interval (filled) and the naive rate (hollow, when given), on a
    [0, 1] rate axis. Returns the Axes.
    """
    y = np.arange(len(labels))[::-1]
    est, low, high = (np.asarray(v, dtype=float) for v in (estimate, low, high))
    ax.errorbar(
        est, y, xerr=[est - low, high - est], fmt="o", color="tab:blue", capsize=3,
        label=f"corrected, {level} interval",
    )  # fmt: skip
    if naive is not None:
        ax.plot(naive, y, "o", mfc="none", color="tab:red", label="naive judged rate p̂")
    ax.set_yticks(y, list(labels))
    ax.set_xlim(-0.02, 1.02)
    ax.grid(axis="x", alpha=0.3)
    return ax


def width_vs_calibration_size(
    *,
    p_values: Sequence[float] = (0.3, 0.5, 0.7, 0.9),
    q0: float = 0.7,
    q1: float = 0.9,
    n: Any = None,
    m_max: int = 1000,
    confidence_level: float = 0.95,
    ax: Any = None,
):
    """Interval width vs calibration size (the paper's Figure 3).

    Dashed: balanced m0 = m1 = m/2. Solid: the split of Algorithm 1's rule computed with the
    planned q's, m1 = round(m / (1 + (1/p − 1)·√κ)), κ = (1 − q0)/(1 − q1) (no pilot noise).
    Widths are those of the truncated adjusted-Wald interval (eq. (8)), n → ∞ by default.
    """
    from .plan import interval_width

    ax = _axes(ax)
    m = np.arange(4, m_max + 1, 2)
    kappa = (1 - q0) / (1 - q1) if q1 < 1 else np.inf
    colors = ["tab:red", "tab:blue", "tab:green", "tab:purple", "tab:orange", "tab:brown"]
    for i, p in enumerate(p_values):
        c = colors[i % len(colors)]
        w_bal = interval_width(
            m // 2, m // 2, p=p, q0=q0, q1=q1, n=n, confidence_level=confidence_level
        )
        m1 = np.clip(np.rint(m / (1 + (1 / p - 1) * np.sqrt(kappa))), 1, m - 1)
        w_ada = interval_width(
            m - m1, m1, p=p, q0=q0, q1=q1, n=n, confidence_level=confidence_level
        )
        ax.plot(m, w_bal, ls="--", color=c, label=f"p̂ = {p:g}, balanced")
        ax.plot(m, w_ada, ls="-", color=c, label=f"p̂ = {p:g}, Algorithm 1's rule")
    ax.set_xlabel("calibration size m = m0 + m1")
    ax.set_ylabel(f"{100 * confidence_level:g}% interval width")
    ax.set_title(f"q̂0 = {q0:g}, q̂1 = {q1:g}, n = {'∞' if n is None else n}")
    ax.set_ylim(0, None)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    return ax


def judge_regime_map(
    *,
    m: int | None = None,
    delta: float = 0.05,
    judges: Mapping[str, tuple[float, float]] | None = None,
    resolution: int = 201,
    q_min: float = 0.5,
    ax: Any = None,
):
    """Where a calibrated judge beats human-only labels (the paper's Figure 6).

    Background: width of the θ range of :func:`judgestats.plan.judge_vs_human` at each
    (q0, q1), darker = wider. ``judges`` maps a name to its (q0, q1), drawn as labelled points;
    each label takes the first of eight positions around its point that overlaps no label
    placed before it, and the axes extend below ``q_min`` to show every judge.
    """
    from .plan import regime_width_map

    ax = _axes(ax)
    points = dict(judges or {})
    if points:
        q_min = min(q_min, min(min(a, b) for a, b in points.values()) - 0.03)
    q = np.linspace(q_min, 1.0, resolution)
    width = regime_width_map(q[None, :], q[:, None], m=m, delta=delta)  # rows: q1, cols: q0
    mesh = ax.pcolormesh(q, q, width, cmap="Greys", vmin=0, vmax=1, shading="auto")
    ax.figure.colorbar(mesh, ax=ax, label="width of favourable θ range")
    ax.set_xlabel("specificity q0")
    ax.set_ylabel("sensitivity q1")
    ax.set_title("calibrated judge vs human-only" + ("" if m is None else f" (m = {m})"))
    ax.set_xlim(q_min, 1)
    ax.set_ylim(q_min, 1)
    for a, b in points.values():
        ax.plot(a, b, "o", ms=4, color="tab:red")
    _place_labels(ax, points)
    return ax


#: label positions tried around a point (points): five rings of eight directions
_OFFSETS = [
    (r * dx, r * dy - 3)
    for r in (5, 14, 26, 40, 56)
    for dx, dy in ((1, 0.6), (1, -1), (-1, 0.6), (-1, -1), (0, 1.2), (0, -1.6), (1.2, 0), (-1.2, 0))
]


def _place_labels(ax: Any, points: Mapping[str, tuple[float, float]]) -> None:
    """Annotate each point at the first offset whose text overlaps no earlier label or point.

    Labels placed away from the nearest ring get a thin leader line to their point.
    """
    if not points:
        return
    from matplotlib.text import Text

    renderer = ax.figure.canvas.get_renderer()

    def extent(text: Any) -> Any:  # the text alone (an annotation's extent includes its leader)
        text.update_positions(renderer)
        return Text.get_window_extent(text, renderer)

    placed: list[Any] = []
    for name, xy in points.items():
        for i, (dx, dy) in enumerate(_OFFSETS):
            leader = {"arrowstyle": "-", "lw": 0.4, "color": "0.4"} if i >= 8 else None
            text = ax.annotate(name, xy, fontsize=6, xytext=(dx, dy), textcoords="offset points",
                               ha="left" if dx >= 0 else "right", arrowprops=leader)  # fmt: skip
            box = extent(text)
            if not any(box.overlaps(other) for other in placed):
                break
            text.remove()
        else:  # every position overlaps: keep the first
            text = ax.annotate(name, xy, fontsize=6, xytext=_OFFSETS[0],
                               textcoords="offset points")  # fmt: skip
            box = extent(text)
        placed.append(box)


def coverage_plot(
    ds: Any, *, variable: str = "coverage", x: str = "theta", reps: int | None = None,
    ax: Any = None,
):  # fmt: skip
    """Plot a variable of :func:`judgestats.simulate.coverage` vs ``x``, a line per method.

    For coverage, the nominal level is drawn with its Monte Carlo band ±2·√(level(1 −
    level)/reps) (``reps`` from the argument or ``ds.attrs["reps"]``): a coverage inside the
    band is consistent with the nominal level at that number of replications.
    """
    ax = _axes(ax)
    da = ds[variable]
    for mth in da["method"].values:
        sub = da.sel({"method": mth})
        extra = [d for d in sub.dims if d != x]
        if extra:
            sub = sub.isel({d: 0 for d in extra})
        ax.plot(sub[x].values, sub.values, marker="o", ms=3, label=str(mth))
    if variable == "coverage":
        level = float(ds.attrs.get("confidence_level", 0.95))
        ax.axhline(level, color="k", lw=0.8, ls=":")
        reps = reps if reps is not None else ds.attrs.get("reps")
        if reps:
            half = 2 * np.sqrt(level * (1 - level) / float(reps))
            ax.axhspan(level - half, level + half, color="k", alpha=0.08,
                       label=f"±2 Monte Carlo s.e. ({int(reps)} reps)")  # fmt: skip
    ax.set_xlabel(x)
    ax.set_ylabel(variable.replace("_", " "))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return ax


_ESTIMATOR_NAMES = {
    "naive": "naive judged rate p̂",
    "calibration_only": "human labels of the calibration set only",
    "prediction_powered": "prediction-powered (PPI)",
    "conditional_calibration": "conditional calibration",
    "misclassification_adjusted": "misclassification-adjusted (Rogan–Gladen)",
}


def estimator_bias_plot(ds: Any, *, ax: Any = None):
    """Bias of each estimator vs θ_Q / θ_P from :func:`judgestats.simulate.estimator_bias`.

    θ_P is the test set's true rate (``ds.attrs["theta"]``), θ_Q the calibration set's; the
    legend names the estimators in words (the paper's Figure 8).
    """
    ax = _axes(ax)
    theta_p = float(ds.attrs.get("theta", ds.attrs.get("theta_test", 0.5)))
    ratio = ds["theta_calibration"].values / theta_p
    for e in ds["estimator"].values:
        ax.plot(ratio, ds["bias"].sel(estimator=e).values, marker="o", ms=3,
                label=_ESTIMATOR_NAMES.get(str(e), str(e)))  # fmt: skip
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel(f"label shift θ_Q / θ_P (calibration-set rate / test-set rate θ_P = {theta_p:g})")
    ax.set_ylabel("bias: mean estimate − θ_P")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, title="estimator", title_fontsize=7)
    return ax


#: marker, dash and size of each design's line, in the registered designs' order
_DESIGN_STYLES = (("o", "-", 5), ("s", "--", 7), ("^", ":", 5))


def design_widths(
    *, p: float, q0: float, q1: float, n: Any = None, m_values: Sequence[int] = (20, 50, 100,
    200, 500, 1000), confidence_level: float = 0.95, ax: Any = None,
) -> Any:  # fmt: skip
    """Plot the expected interval width against the calibration size, one line per design.

    "How should I sample my next labels?": :func:`judgestats.plan.compare_designs` at each m
    (optimal splits where a design has one), with the human labels alone for reference.
    """
    from .designs.plan import compare_designs

    ax = _axes(ax)
    m_values = list(m_values)
    comps = [compare_designs(p=p, q0=q0, q1=q1, m=m, n=n, confidence_level=confidence_level)
             for m in m_values]  # fmt: skip
    designs = list(dict.fromkeys(r["design"] for r in comps[0].rows))  # registered order
    for i, design in enumerate(designs):
        # the optimal split where the design has one, else the one it allows
        allocation = "optimal" if "optimal" in design.allocations else design.allocations[0]
        widths = [next(r["width"] for r in c.rows
                       if r["design"] is design and r["allocation"] == allocation)
                  for c in comps]  # fmt: skip
        # distinct markers and dashes: the random and by-judge-label lines can coincide
        marker, dash, size = _DESIGN_STYLES[i % len(_DESIGN_STYLES)]
        ax.plot(m_values, widths, marker=marker, ls=dash, ms=size, mfc="none",
                label=f"design={str(design)!r}")  # fmt: skip
    ax.plot(m_values, [c.human_only for c in comps], "k--", label="human labels alone")
    ax.set_xscale("log")
    ax.set_xlabel("calibration items m")
    ax.set_ylabel(f"expected {100 * confidence_level:g}% interval width")
    ax.set_title(f"p = {p:.3g}, q0 = {q0:.3g}, q1 = {q1:.3g}, "
                 f"n = {'∞' if n is None else f'{n:g}'}", fontsize=9)  # fmt: skip
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return ax
