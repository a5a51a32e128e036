"""The capability table's pairwise rows: which designs and methods a leaderboard allows.

:func:`designs` and :func:`methods` read :mod:`judgestats.designs.capabilities`; the lists
``DESIGNS`` and ``METHODS`` the pairwise modules once had are deprecated (:func:`deprecated`).
"""

from __future__ import annotations

import warnings

from ..designs.capabilities import Capability, rows

__all__ = ["JUDGE", "TARGET", "deprecated", "designs", "methods"]

#: The path of the capability table (:mod:`judgestats.designs.capabilities`) a pairwise
#: leaderboard resolves against: a verdict on a pair of answers, Davidson strengths.
JUDGE, TARGET = "pairs", "strengths"


def designs() -> tuple[str, ...]:
    """Return the designs the capability table has a pairwise row for, in its order."""
    return tuple(dict.fromkeys(d for r in _rows() for d in r.designs))


def methods() -> tuple[str, ...]:
    """Return the estimators (``method=``) of the capability table's pairwise rows."""
    return tuple(dict.fromkeys(m for r in _rows() for m in r.methods))


def _rows() -> list[Capability]:
    return [r for r in rows() if (r.judge, r.target) == (JUDGE, TARGET)]


_DEPRECATED = {"DESIGNS": designs, "METHODS": methods}
_REPLACEMENTS = {
    "DESIGNS": "the designs of judgestats.designs.capabilities.rows() whose judge is 'pairs'",
    "METHODS": "judgestats.designs.capabilities.methods_for('pairs', 'strengths', design)",
}


def deprecated(module: str, name: str) -> tuple[str, ...]:
    """Return a deprecated list of the pairwise path (``DESIGNS``, ``METHODS``), warning.

    Raises
    ------
    AttributeError
        ``name`` is no deprecated name of ``module``.
    """
    if name not in _DEPRECATED:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(
        f"{module}.{name} is deprecated: the capability table says what each design allows; "
        f"use {_REPLACEMENTS[name]}",
        DeprecationWarning,
        stacklevel=3,
    )
    return _DEPRECATED[name]()
