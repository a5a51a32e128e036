"""Several raters per item, the judge as one more rater: ``js.raters``.

* :mod:`~judgestats.raters.ratings`: the :class:`Ratings` container (long or wide frames of
  any engine, or an array; each rater's labels possibly missing; an optional judge kept apart by
  name) and the raters' :class:`Majority` with its tie rules.

Every function of ``js.raters`` takes the judge by name (``judge=``) or the ratings' own.
The face loads nothing: each name is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import face

if TYPE_CHECKING:  # loaded on first use (``import judgestats`` does not import this package)
    from .ratings import TIES, Majority, Ratings

__all__ = ["TIES", "Majority", "Ratings"]

__getattr__, __dir__ = face(
    __name__,
    names={"raters.ratings": ("TIES", "Majority", "Ratings")},
    modules=("raters.ratings",),
    shown=__all__,
)
