"""Old name of :mod:`judgestats.multiclass.likelihood`: importing it gives the same objects.

Kept so that ``judgestats.alphabet_likelihood`` imports and attribute paths written before the
module split keep working; new code imports :mod:`judgestats.multiclass.likelihood`.
"""

from .multiclass.likelihood import *  # noqa: F403
from .multiclass.likelihood import __all__ as __all__
