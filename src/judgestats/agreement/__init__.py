"""How well the judge agrees with the humans: ``js.agreement`` and its card.

* :mod:`~judgestats.agreement.measures`: :func:`agreement` and its :class:`Agreement`: the
  calibration set's judge × human table, the per-class rates, PPV/NPV, κ and AC1 with the
  intervals each calibration design allows, and what the agreement buys;
* :mod:`~judgestats.agreement.card`: an :class:`Agreement` written out (text, Markdown, LaTeX,
  HTML through the report's table writers) and drawn as a heat map.

The old module names ``judgestats.judge_agreement`` and ``judgestats.agreement_card`` still
import these modules, with a ``DeprecationWarning``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import face

if TYPE_CHECKING:  # loaded on first use (``import judgestats`` imports this face only)
    from .measures import (
        COEFFICIENTS,
        MIN_KAPPA_MARGIN,
        PSEUDO_COUNT,
        Agreement,
        AgreementRate,
        agreement,
        coefficient,
        coefficient_bounds,
    )

__all__ = [
    "COEFFICIENTS", "MIN_KAPPA_MARGIN", "PSEUDO_COUNT", "Agreement", "AgreementRate", "agreement",
    "coefficient", "coefficient_bounds",
]  # fmt: skip

__getattr__, __dir__ = face(
    __name__,
    names={"agreement.measures": __all__},
    modules=("agreement.card", "agreement.measures"),
    shown=__all__,
)
