"""Several raters per item, the judge as one more rater: ``js.raters``.

* :mod:`~judgestats.raters.ratings`: the :class:`Ratings` container (long or wide frames of
  any engine, or an array; each rater's labels possibly missing; an optional judge kept apart by
  name) and the raters' :class:`Majority` with its tie rules;
* :mod:`~judgestats.raters.agreement`: inter-rater agreement, Krippendorff's α (nominal,
  ordinal) and Fleiss' κ for a varying number of raters, with cluster-bootstrap intervals;
* :mod:`~judgestats.raters.judge`: the judge's percent agreement and Cohen's κ with each rater
  and with the raters' majority, the raters' own beside them;
* :mod:`~judgestats.raters.alternative`: the alternative annotator test (Calderon et al. 2025);
* :mod:`~judgestats.raters.latent_class`: the latent-class (Dawid–Skene) model by EM,
  :func:`dawid_skene` and its :class:`LatentClassFit` (``reference="latent"``).

Every function of ``js.raters`` takes the judge by name (``judge=``) or the ratings' own.
The face loads nothing: each name is imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import face

if TYPE_CHECKING:  # loaded on first use (``import judgestats`` does not import this package)
    from .agreement import METRICS, RaterAgreement, fleiss_kappa, krippendorff_alpha
    from .alternative import AltTestResult, alt_test
    from .judge import JudgeAgreement, PairAgreement, judge_agreement
    from .latent_class import LatentClassFit, dawid_skene
    from .ratings import TIES, Majority, Ratings

_HELD = {
    "raters.agreement": ("METRICS", "RaterAgreement", "fleiss_kappa", "krippendorff_alpha"),
    "raters.alternative": ("AltTestResult", "alt_test"),
    "raters.judge": ("JudgeAgreement", "PairAgreement", "judge_agreement"),
    "raters.latent_class": ("LatentClassFit", "dawid_skene"),
    "raters.ratings": ("TIES", "Majority", "Ratings"),
}
__all__ = [
    "METRICS",
    "TIES",
    "AltTestResult",
    "JudgeAgreement",
    "LatentClassFit",
    "Majority",
    "PairAgreement",
    "RaterAgreement",
    "Ratings",
    "alt_test",
    "dawid_skene",
    "fleiss_kappa",
    "judge_agreement",
    "krippendorff_alpha",
]  # fmt: skip

__getattr__, __dir__ = face(
    __name__,
    names=_HELD,
    modules=tuple(_HELD),
    shown=__all__,
)
