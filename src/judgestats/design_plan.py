"""Old name of :mod:`judgestats.designs.plan`: importing it gives the same objects.

Kept so that ``judgestats.design_plan`` imports and attribute paths written before the module
split keep working; new code imports :mod:`judgestats.designs.plan`.
"""

from .designs.plan import *  # noqa: F403
from .designs.plan import __all__ as __all__
