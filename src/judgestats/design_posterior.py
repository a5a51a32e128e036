"""Old name of :mod:`judgestats.designs.posterior`: importing it gives the same objects.

Kept so that ``judgestats.design_posterior`` imports and attribute paths written before the module
split keep working; new code imports :mod:`judgestats.designs.posterior`.
"""

from .designs.posterior import *  # noqa: F403
from .designs.posterior import __all__ as __all__
