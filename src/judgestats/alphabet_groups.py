"""Old name of :mod:`judgestats.alphabets.groups`: importing it gives the same objects.

Kept so that ``judgestats.alphabet_groups`` imports and attribute paths written before the module
split keep working; new code imports :mod:`judgestats.alphabets.groups`.
"""

from .alphabets.groups import *  # noqa: F403
from .alphabets.groups import __all__ as __all__
