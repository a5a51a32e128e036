"""``Evaluation``: a whole leaderboard corrected, one correction per group.

What :func:`judgestats.evaluate` returns in each of its modes (0/1 labels, with strata, a judge
alphabet, calibration batches); its tables, frames, summary and ranking are laid out by
:mod:`.tables`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from .._validation import ArgumentTypeError, warn_deprecated
from ..compare import Ranking
from ..correct import Correction
from ..designs import DEFAULT_DESIGN
from ..results import Reportable, group_label
from ..strata import StratifiedCorrection
from .tables import (
    evaluation_counts_frame,
    evaluation_frame,
    evaluation_lookup,
    evaluation_rank,
    evaluation_summary,
    evaluation_xarray,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    import xarray as xr

__all__ = ["Evaluation"]


@dataclass(frozen=True, slots=True, eq=False)
class Evaluation(Reportable):
    """Corrected rates of every group of a frame, from :func:`judgestats.evaluate`.

    One :class:`Correction` per group (or one :class:`StratifiedCorrection` per group when
    ``strata`` were given), all computed from grouped counts that the frame's own engine
    produced. The presentation helpers live in :mod:`judgestats.evaluate` and
    :mod:`judgestats.report`; this class delegates to them.

    Attributes
    ----------
    groups : tuple
        Group labels in sorted order: the value of the ``by`` column, or a tuple of values
        when ``by`` names several columns. Every dict below is keyed by them.
    corrections : dict
        Group → :class:`Correction` (or :class:`StratifiedCorrection`, or with a judge
        alphabet :class:`~judgestats.AlphabetCorrection`).
    by : tuple of str
        The group column(s).
    strata : tuple of str or None
        The stratum column(s) within each group, or None.
    method, confidence_level
        How every interval was computed.
    judge, human, split : str, str, str or None
        The label columns and the split column (None: a missing human label marks a test
        row).
    engine : str
        The engine that computed the grouped counts (``"polars"``, ``"duckdb"``, ...).
    warnings : dict
        Group → tuple of ``(warning class name, message)`` issued while correcting that group
        (they were also re-issued, naming the group). Reports list them.
    ranking : Ranking or None
        Joint ranking of the groups (``evaluate(..., rank=True)``), else None.
    design : str
        How the calibration rows were chosen (:mod:`judgestats.designs`).
    marked : dict
        With ``errors="mark"``: group → why it was not corrected (the error's class and
        message). Marked groups are not in ``groups``; tables, summaries and reports list them.
    marked_counts : dict
        With ``errors="mark"``: group → the counts of a group that was not corrected, as rows
        of :meth:`counts_dataframe` (per stratum, or per letter of a judge alphabet); with them
        the counts of every group add up to the rows counted.
    ranking_error : str or None
        With ``rank=True`` and ``errors="mark"``: why no ranking could be made (the error's
        class and message, naming the groups at fault), else None.
    batch, batch_choice : str or None
        With ``evaluate(batch=)``: the batch column and which batches the corrections used.
    judge_shift : dict
        With ``batch=``: group → :class:`~judgestats.JudgeShiftDiagnostic` (latest batch
        against the earlier ones), or a str saying why there is none (one batch, a batch
        without some human class).
    set_aside : dict
        With ``batch_choice="latest"``: group → {earlier batch: its calibration rows}, the rows
        counted but left out of the corrections (the summary's and the report's rows line
        says how many, of which batches).
    reference : str or None
        With ``evaluate(rater=)``: the human reference every group's rate is of
        (``"rater"``, ``"majority"`` or ``"latent"``; :mod:`judgestats.evaluate.raters`).

    Examples
    --------
    Made by :func:`evaluate`; two models, 400 human-labelled rows each:

    >>> import numpy as np
    >>> import pandas as pd
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> human = rng.random(1200) < np.repeat([0.7, 0.5], 600)
    >>> judge = np.where(human, rng.random(1200) < 0.9, rng.random(1200) < 0.25).astype(int)
    >>> frame = pd.DataFrame({"model": np.repeat(["a", "b"], 600), "judge": judge,
    ...                       "human": np.where(np.tile(np.arange(600), 2) < 400, human, np.nan)})
    >>> ev = js.evaluate(frame, by="model", method="adjusted-wald", confidence_level=0.95)
    >>> ev  # doctest: +NORMALIZE_WHITESPACE
    Evaluation(a=0.719, b=0.497; by=['model'], method='adjusted-wald', confidence_level=0.95,
    engine='pandas')
    >>> print(ev.summary())  # doctest: +NORMALIZE_WHITESPACE
    Corrected rates of 2 groups by model (pandas counts), 95% intervals by adjusted-wald, design
    by-human-label
      model     corrected  [ lower,  upper]   naive        n     m0     m1
      a            0.7187  [0.5966, 0.8311]  0.7000      200    143    257
      b            0.4975  [0.3760, 0.6124]  0.5850      200    201    199
      Rows: 1200 counted: 400 test and 800 calibration rows in the 2 corrected groups.
    """

    kind: ClassVar[str] = "evaluation"

    groups: tuple
    corrections: dict
    by: tuple
    strata: tuple | None
    method: str
    confidence_level: float
    judge: str
    human: str
    split: str | None
    engine: str
    warnings: dict
    ranking: Ranking | None = None
    design: str = DEFAULT_DESIGN
    marked: dict = field(default_factory=dict)
    marked_counts: dict = field(default_factory=dict)
    ranking_error: str | None = None
    batch: str | None = None
    batch_choice: str | None = None
    judge_shift: dict = field(default_factory=dict)
    set_aside: dict = field(default_factory=dict)
    reference: str | None = None

    # -- access --------------------------------------------------------------------------
    def __getitem__(self, group: Any) -> Correction | StratifiedCorrection:
        return evaluation_lookup(self, group)

    def __len__(self) -> int:
        return len(self.groups)

    def __iter__(self):
        return iter(self.groups)

    @property
    def dim(self) -> str:
        """Name of the group dimension: the ``by`` column, or ``"group"`` for several."""
        return self.by[0] if len(self.by) == 1 else "group"

    @property
    def estimate(self) -> dict:
        """Group → corrected estimate."""
        return {g: self.corrections[g].estimate for g in self.groups}

    def label(self, group: Any) -> str:
        """Text label of a group (``"a / x"`` for several ``by`` columns)."""
        return group_label(group)

    # -- recomputation ------------------------------------------------------------------
    def rank(
        self,
        *,
        method: str = "bootstrap",
        n_resamples: int = 10_000,
        draws: int = 10_000,
        rng: Any = None,
        reps: int | None = None,
    ) -> Ranking:
        """Rank the groups jointly (:func:`judgestats.compare.rank` on their counts).

        Needs unstratified corrections and at least two groups; the level is the
        evaluation's ``confidence_level``. Models are named by :meth:`label`. ``n_resamples``
        (bootstrap) and ``draws`` (bayes) as in :func:`~judgestats.compare.rank`; ``reps`` is
        their deprecated name.
        """
        if reps is not None:
            warn_deprecated("Evaluation.rank(reps=...)", "n_resamples= or draws=")
            n_resamples = draws = reps
        self._not_for_scores("rank()")
        size = n_resamples if method == "bootstrap" else draws
        return evaluation_rank(self, method=method, size=size, rng=rng)

    def report(self, format: str = "markdown", **kwargs: Any) -> str:
        """Table plus methods sentence (see :func:`judgestats.report.report`)."""
        self._not_for_scores("report()")
        return Reportable.report(self, format, **kwargs)

    def _not_for_scores(self, what: str) -> None:
        """Refuse, by name, what a judge score's evaluation does not have yet (issue 39)."""
        if any(getattr(c, "kind", None) == "score-correction" for c in self.corrections.values()):
            raise ArgumentTypeError(
                f"{what} is not available yet for an evaluation of a judge score (no counts "
                "behind it): use summary(), to_dataframe() or each group's result"
            )

    # -- presentation --------------------------------------------------------------------
    def to_dataframe(self) -> pd.DataFrame:
        """One tidy row per group: the ``by`` columns, then the correction's columns."""
        return evaluation_frame(self)

    def counts_dataframe(self) -> pd.DataFrame:
        """Return the counts the corrections used.

        One row per group, or group × stratum; with a judge alphabet one row per group and
        letter (``n`` test items, ``human_0``/``human_1`` calibration items). With
        ``errors="mark"`` the groups that were not corrected keep their rows, with the reason
        in a ``marked`` column, so the counts add up to every row counted.
        """
        self._not_for_scores("counts_dataframe()")
        return evaluation_counts_frame(self)

    def to_xarray(self) -> xr.Dataset:
        """Return an xarray Dataset with dims (``dim``, ``ci_bound``) in ArviZ's layout.

        Variables ``estimate``, ``estimate_unclipped``, ``naive``, ``sensitivity``,
        ``specificity``, ``n``, ``m0``, ``m1``, ``clipped`` (dim ``dim``) and ``ci`` (dims
        ``dim``, ``ci_bound = ["lower", "upper"]``); attrs ``ci_kind``, ``ci_prob`` and the
        columns used. A judge alphabet has no ``sensitivity``/``specificity``.
        """
        self._not_for_scores("to_xarray()")
        return evaluation_xarray(self)

    def plot(self, *, ax: Any = None, show_naive: bool = True):
        """Leaderboard of the groups: corrected rates, their intervals, the naive rates (Axes)."""
        from ..report import plot_leaderboard

        self._not_for_scores("plot()")
        return plot_leaderboard(self, ax=ax, show_naive=show_naive)

    def summary(self) -> str:
        """Return every group's corrected rate and interval as a text table, with warnings."""
        return evaluation_summary(self)

    def __repr__(self) -> str:
        top = ", ".join(
            f"{self.label(g)}={self.corrections[g].estimate:.3f}" for g in self.groups[:6]
        )
        more = f", ... ({len(self.groups)} groups)" if len(self.groups) > 6 else ""
        return (
            f"Evaluation({top}{more}; by={list(self.by)!r}, method={self.method!r}, "
            f"confidence_level={self.confidence_level:g}, engine={self.engine!r})"
        )
