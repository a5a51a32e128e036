"""Stratified correction: one confusion matrix per stratum of a covariate ξ, pooled by a mix.

The paper's Rogan–Gladen correction assumes the judge behaves alike on calibration and test
items given the true label, P_P(Ẑ | Z) = P_Q(Ẑ | Z). When the judge's error rates depend on a
covariate ξ (answer length, display position, prompt category) and the stratum mix of the
calibration set differs from the test set's, that assumption fails for the pooled data. Its
section "Limitations and Future Work" (item 2) names the fix implemented here: estimate the
confusion matrix P_Q(Ẑ | Z, ξ = s) within each stratum s, correct within each, aggregate.

Estimator
---------
With test counts (positive_s, n_s) and calibration counts (tp_s, fn_s, tn_s, fp_s) per
stratum, p̂_s = positive_s / n_s, q̂0_s = tn_s / m0_s, q̂1_s = tp_s / m1_s, the per-stratum
Rogan–Gladen estimate (paper eq. (7)) is θ̂_s = (p̂_s + q̂0_s − 1)/(q̂0_s + q̂1_s − 1)
and the pooled estimate

    θ̂ = clip(Σ_s w_s θ̂_s, 0, 1),       w_s = n_s / n  (``weights="test"``) or given.

The pooled value uses the *unclipped* θ̂_s: clipping each stratum before averaging biases the
pooled estimate towards the interior whenever a stratum's true rate is near 0 or 1 (by up to
−0.01 in benchmarks/results/strata.md, section C, where the unclipped pool's bias is at Monte
Carlo noise; clipping first has the somewhat smaller RMSE there). Each stratum's own
``Correction`` is clipped as usual and a ``ClippedEstimateWarning`` names the strata.

The package: :mod:`.pooled` (the pooled interval methods, vectorised over batches),
:mod:`.stratified` (:func:`correct_stratified` and its :class:`StratifiedCorrection`),
:mod:`.corrections` (one correction per stratum), :mod:`.merge` (merging sparse strata),
:mod:`.diagnostics` (is the judge the same in every stratum?) and :mod:`.counts` (strata counted
from a frame).
"""

from __future__ import annotations

from typing import Any

from .counts import (
    stratified_counts,
)
from .counts import (
    stratum_pairs as stratum_pairs,
)
from .diagnostics import (
    HomogeneityTest as HomogeneityTest,
)
from .diagnostics import (
    StrataDiagnostics as StrataDiagnostics,
)
from .diagnostics import (
    _diagnostics as _diagnostics,
)
from .diagnostics import (
    judge_homogeneity,
)
from .pooled import (
    PooledBounds,
    deprecated_methods,
    pooled_bounds,
)
from .stratified import (
    DEFAULT_MIN_PER_CLASS,
    correct_stratified,
)
from .stratified import (
    StratifiedCorrection as StratifiedCorrection,
)

__all__ = [
    "DEFAULT_MIN_PER_CLASS",
    "PooledBounds",
    "correct_stratified",
    "judge_homogeneity",
    "pooled_bounds",
    "stratified_counts",
]


def __getattr__(name: str) -> Any:
    if name == "STRATIFIED_METHODS":  # removed: the capability table lists the methods
        return deprecated_methods()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
