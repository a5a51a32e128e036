"""Judge alphabets: a judge that answers in letters other than the humans' categories.

A judge alphabet is the J letters a judge speaks (scores, binned scores, an invalid letter,
the pairs of two judges' letters) against the K human categories, J >= K. Their estimator is
the k-category one (:func:`judgestats.correct_distribution`, whose joint maximum likelihood of
θ and the J × K confusion matrix is :mod:`judgestats.multiclass.likelihood`). This package holds
what sits around it:

* :mod:`.letters` — building the letters from data and counting them (:func:`judge_letters`,
  :func:`alphabet_counts`, :class:`SparseLettersWarning`), re-exported here;
* :mod:`.plan` — what each letter buys: an alphabet's width against its merges
  (:func:`judgestats.plan.compare_alphabets`);
* :mod:`.groups` — a judge alphabet per group of a frame (``js.evaluate`` with letters).

The old module names ``judgestats.alphabet_likelihood``, ``judgestats.alphabet_plan`` and
``judgestats.alphabet_groups`` still import the same objects, with a ``DeprecationWarning``.
"""

from __future__ import annotations

from .letters import (
    INVALID,
    SparseLettersWarning,
    alphabet_counts,
    judge_letters,
)
from .letters import _sorted_alphabet as _sorted_alphabet

__all__ = [
    "INVALID",
    "SparseLettersWarning",
    "alphabet_counts",
    "judge_letters",
]
