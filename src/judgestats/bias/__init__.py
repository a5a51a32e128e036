"""The judge's bias against the human label: does it prefer long, or first, answers (issue 39).

Its face re-exports :func:`judge_bias` (a covariate's effect on the judge's verdict at the same
human label: length, position, both orders of a pair) and :func:`position_bias` (the asymmetry
of pairwise verdicts shown in one order), with their results :class:`JudgeBias` and
:class:`BiasTest` (:mod:`judgestats.bias.judge_bias`); the effect, its Agresti–Caffo interval
and its cluster-robust design effect are :mod:`judgestats.bias.effects`. Loaded on first use
(``js.bias``), not by ``import judgestats``.
"""

from __future__ import annotations

from .judge_bias import BiasTest, JudgeBias, judge_bias, position_bias

__all__ = ["BiasTest", "JudgeBias", "judge_bias", "position_bias"]
