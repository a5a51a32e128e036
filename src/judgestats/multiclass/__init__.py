"""k-category correction: the inverse of the judge's confusion matrix, with intervals.

Paper appendix "Extension to Evaluations with More Than Two Categories" (eqs.
(23) and (24)). Each item has a true (human) category
Z ∈ {1..k} and a judge category Ẑ. On the calibration set, estimate the judge's confusion
matrix

    Ĉ[a, b] = #(judge = a, human = b) / #(human = b)        (rows = judge, columns = human)

and correct the judged category distribution p̂ of the test set:

    θ̂ = Ĉ⁻¹ p̂.

Like Rogan–Gladen (its k = 2 case) this assumes only that the judge behaves the same given the
true category on both sets, P_P(Ẑ | Z) = P_Q(Ẑ | Z); the calibration set's category mix may
differ from the test set's. The paper gives no interval; this module adds three pieces:

* **intervals** registered by name (:mod:`.methods`; which are available on each path is the
  capability table's, :mod:`judgestats.designs.capabilities`): ``"adjusted-delta"`` —
  delta-method covariance of Ĉ⁻¹p̂ from the multinomial covariances of p̂ and of each column of
  Ĉ, at Agresti-style adjusted estimates that reduce exactly to the paper's adjusted p̃, q̃ for
  k = 2 (see :func:`correct_distribution`); ``"wald"`` — the same at the plain estimates (for
  k = 2 the interval :func:`judgestats.correct` calls ``"wald"``); ``"bootstrap"`` —
  parametric percentile bootstrap. ``"delta"`` (with ``adjust=``) is the deprecated name of the
  first two. A user's method can be added with :func:`register_distribution_method`; the
  Bayesian k-category model is :func:`judgestats.bayes.fit` (PyMC).
* **the simplex**: Ĉ⁻¹p̂ always sums to one but can have negative entries. The reported
  estimate is then the constrained maximum-likelihood fit (see :func:`correct_distribution`),
  the unconstrained solution is kept, the result is flagged and a
  :class:`~judgestats._validation.ProjectedEstimateWarning` is issued.
* **conditioning**: a singular or ill-conditioned Ĉ (2-norm condition number above
  :data:`MAX_CONDITION` = 100) raises :class:`~judgestats._validation.IllConditionedError`.

Layers: :class:`CategoryCounts` and :class:`ConfusionMatrix` hold one validated data set with
its labels; :func:`correct_distribution` returns a
:class:`~judgestats.multiclass.DistributionCorrection`; :func:`distribution_bounds` and
:func:`distribution_estimate` are the vectorised array-level kernels (leading batch axes), used
by simulations.

The package, from the ground up: :mod:`.arrays` (the batched Ĉ⁻¹p̂ kernels),
:mod:`.likelihood` (the joint maximum likelihood of θ and a J × K confusion matrix, for any
judge alphabet J >= K), :mod:`.methods` (the interval methods, one registry, and the spec of a
k-category path), :mod:`.separation` (does the judge tell the categories apart?),
:mod:`.clustered` and :mod:`.alphabet_clusters` (repeated items: counts built with
``cluster=`` get the sandwich covariance over item totals), the fits of each path
(:mod:`.confusion_fit`, :mod:`.confusion_clusters`, :mod:`.conditional_fit`) and
:mod:`.distribution` (:func:`correct_distribution` and its :class:`DistributionCorrection`).
The count classes live
with the other counts, in :mod:`judgestats.counts.categories`, and are re-exported here.
"""

from __future__ import annotations

from ..counts.categories import (
    CategoryCounts,
    ConfusionMatrix,
    as_confusion_matrix,
)
from ..counts.categories import (
    merged_alphabet as merged_alphabet,
)
from ..designs import RANDOM as _RANDOM
from .arrays import (
    MAX_CONDITION,
    distribution_estimate,
)
from .arrays import (
    _simplex_ml as _simplex_ml,
)
from .distribution import (
    DistributionCorrection,
    correct_distribution,
)
from .methods import (
    _METHODS as _METHODS,
)
from .methods import (
    DistributionBounds,
    _distribution_methods,
    distribution_bounds,
    register_distribution_method,
)
from .methods import table_lists as _table_lists
from .separation import (
    SEPARATION_LEVEL,
)
from .separation import (
    confused_pairs as confused_pairs,
)

__all__ = [
    "MAX_CONDITION",
    "SEPARATION_LEVEL",
    "CategoryCounts",
    "ConfusionMatrix",
    "DistributionBounds",
    "DistributionCorrection",
    "as_confusion_matrix",
    "correct_distribution",
    "distribution_bounds",
    "distribution_estimate",
    "register_distribution_method",
]

#: Names that left this package's face: each warns ``DeprecationWarning`` naming the capability
#: table (the function when called).
__getattr__ = _table_lists(
    __name__, {"DESIGN_DISTRIBUTION_METHODS": ("categories", _RANDOM, False)},
    distribution_methods=_distribution_methods,
)  # fmt: skip
