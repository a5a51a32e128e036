"""Every error and warning class of judgestats (``js.errors``).

Errors subclass :class:`JudgeStatsError` (a ``ValueError``), so ``except js.JudgeStatsError``
catches every one; wrong types raise :class:`ArgumentTypeError`, both a ``JudgeStatsError``
and a ``TypeError``. Warnings subclass :class:`JudgeStatsWarning`; each has a page saying what
it means and what to do (docs/warnings). The package's top level keeps the two base classes and
the warnings users filter (``js.WeakCalibrationWarning``, ...); the other classes live here.
The classes are defined in :mod:`judgestats._validation.errors`, which the package's modules
import; this module is their public face.
"""

from __future__ import annotations

from ._validation.errors import *  # noqa: F403
from ._validation.errors import __all__ as __all__
