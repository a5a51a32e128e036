"""Calibration designs: how the calibration items were chosen, and the estimator each allows.

=====================  ======================================================  =====================
design                 the calibration items were ...                          estimator of θ
=====================  ======================================================  =====================
``"by-human-label"``   chosen within the human-label classes (m0, m1 fixed,    Rogan–Gladen (paper
                       e.g. the paper's Algorithm 1), or any set whose label   eq. (7))
                       mix may differ from the test set's (the default)
``"random"``           a simple random sample of the test population ("we      judge-conditional,
                       had humans label 200 random items of our eval set")     π̂ from all judged
                                                                               items (maximum
                                                                               likelihood)
``"by-judge-label"``   sampled within the judge-label strata of the test       judge-conditional,
                       pool (e.g. 100 items the judge passed, 100 it failed)   π̂ from the test pool
=====================  ======================================================  =====================

The judge-conditional estimator is θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂ with π = P(judge = 1),
PPV = P(human = 1 | judge = 1) = tp/(tp + fp) and FOR = P(human = 1 | judge = 0) = fn/(fn + tn)
(the paper's conditional-calibration estimator, estimator table row iv,
:func:`judgestats.kernels.judge_conditional_raw`). Under the random design the judge's label of
every item, test or calibration, is a draw of Bin(1, π), so π̂ = (positive + tp + fp)/(n + m);
the likelihood then factorises into Bin(n + m, π) × Bin(k1, PPV) × Bin(k0, FOR) (k1 = tp + fp,
k0 = fn + tn), whose maximum is this θ̂. Under the by-judge-label design the calibration's judge
labels were fixed by the design and say nothing about π, so π̂ = positive/n. Neither needs
q̂0 + q̂1 > 1, nor both human classes in the calibration set. Both assume that P(human | judge)
is the same on the calibration and the test items; the by-human-label design assumes only that
P(judge | human) is, which is why it survives label shift (paper, "Robust estimation under
distribution shift") and stays the default where the design is unknown.

:func:`design_check` is the guard rail of the random design: a random sample of the test
population has, up to sampling noise, the test set's judge-positive rate; a two-sample test
says when it does not (:class:`~judgestats.DesignWarning`).

The package, from the ground up: :mod:`.estimator` (the names, the judge-conditional estimator),
:mod:`.check` (the random design's guard rail), :mod:`.bounds` (its interval bounds),
:mod:`.posterior` (the exact posterior under these designs) and :mod:`.plan` (planning per
design). The old module names ``judgestats.design_posterior`` and ``judgestats.design_plan``
still import the same objects, with a ``DeprecationWarning``.
"""

from __future__ import annotations

from .base import (
    Design,
    JudgeConditionalDesign,
    RoganGladenDesign,
    as_design,
    design_names,
    register_design,
)
from .bounds import (
    adjusted_wald_bounds as adjusted_wald_bounds,
)
from .bounds import (
    bootstrap_bounds as bootstrap_bounds,
)
from .bounds import (
    bootstrap_draws as bootstrap_draws,
)
from .bounds import (
    stratified_bounds as stratified_bounds,
)
from .bounds import (
    wald_bounds as wald_bounds,
)
from .check import (
    DESIGN_ALPHA,
    DesignCheck,
    design_check,
    design_check_categories,
)
from .check import (
    warn_if_implausible as warn_if_implausible,
)
from .estimator import (
    BY_HUMAN_LABEL,
    BY_JUDGE_LABEL,
    DEFAULT_DESIGN,
    DESIGNS,
    RANDOM,
    check_design,
    design_counts,
    judge_conditional,
)
from .estimator import (
    ESTIMATOR as ESTIMATOR,
)
from .estimator import (
    REFERENCE as REFERENCE,
)
from .estimator import (
    judge_conditional_distribution as judge_conditional_distribution,
)

__all__ = [
    "BY_HUMAN_LABEL",
    "BY_JUDGE_LABEL",
    "DEFAULT_DESIGN",
    "DESIGNS",
    "DESIGN_ALPHA",
    "RANDOM",
    "Design",
    "DesignCheck",
    "JudgeConditionalDesign",
    "RoganGladenDesign",
    "as_design",
    "check_design",
    "design_check",
    "design_check_categories",
    "design_counts",
    "design_names",
    "judge_conditional",
    "register_design",
]
