"""Old name of :mod:`judgestats.alphabets.plan`: importing it gives the same objects.

Kept so that ``judgestats.alphabet_plan`` imports and attribute paths written before the module
split keep working; new code imports :mod:`judgestats.alphabets.plan`.
"""

from .alphabets.plan import *  # noqa: F403
from .alphabets.plan import __all__ as __all__
