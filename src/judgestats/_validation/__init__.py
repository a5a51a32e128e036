"""Argument checks, error classes and warning classes (the one validation package).

Every public function validates through this package and nowhere else; its modules are split
by what they check (:mod:`.arguments`, :mod:`.counts`, :mod:`.labels`, :mod:`.mappings`,
:mod:`.frames`), with every error and warning class in :mod:`.errors` and the optional
imports in :mod:`.extras`. The rules:

* validate *before* coercing (``np.asarray(labels, dtype=int)`` would silently turn 0.7 into 0);
* an error names the argument and echoes the bad value (scipy style);
* errors subclass :class:`JudgeStatsError` (a ``ValueError``); wrong types raise
  :class:`ArgumentTypeError`, which is both a ``JudgeStatsError`` and a ``TypeError``.
"""

from __future__ import annotations

from . import arguments, counts, errors, extras, frames, labels, mappings
from .arguments import *  # noqa: F403
from .counts import *  # noqa: F403
from .errors import *  # noqa: F403
from .extras import *  # noqa: F403
from .frames import *  # noqa: F403
from .labels import *  # noqa: F403
from .mappings import *  # noqa: F403

__all__ = [
    *arguments.__all__,
    *counts.__all__,
    *errors.__all__,
    *extras.__all__,
    *frames.__all__,
    *labels.__all__,
    *mappings.__all__,
]
