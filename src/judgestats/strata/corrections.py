"""The strata of a stratified correction as arrays, and one correction per stratum.

Each stratum's own :class:`~judgestats.Correction` (paper eq. (7), with the
single-stratum interval of the chosen method), the pieces the pooled estimate, the diagnostics
and the reports read.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._validation import (
    ClippedEstimateWarning,
    NotInformativeError,
    check_informative,
)
from ..chance import judge_value
from ..correct import Correction
from ..counts import ConfusionCounts, JudgedCounts
from ..intervals import spec_bounds, warn_undefined_replicates
from ..kernels import rogan_gladen_raw
from ..label_shift import label_shift_test
from ..results import (
    ConfidenceInterval,
)
from ..spec import EstimationSpec
from .pooled import stratum_spec


# ============================================================================ per stratum
def _stack(tests: dict, cals: dict, strata: list) -> tuple[JudgedCounts, ConfusionCounts]:
    t = JudgedCounts(
        positive=np.array([tests[s].positive for s in strata]),
        n=np.array([tests[s].n for s in strata]),
    )
    cells = {f: np.array([getattr(cals[s], f) for s in strata]) for f in ("tp", "fn", "tn", "fp")}
    c = ConfusionCounts(tp=cells["tp"], fn=cells["fn"], tn=cells["tn"], fp=cells["fp"])
    return t, c


def _corrections(
    tests: dict,
    cals: dict,
    strata: list,
    *,
    spec: EstimationSpec,
    gen: np.random.Generator,
    warn_stacklevel: int | None,
) -> dict[Any, Correction]:
    """Per-stratum ``Correction`` objects, computed as one batch (same numbers as ``correct``).

    ``spec``: the pooled spec of the Rogan–Gladen family without repeated items.
    """
    for s in strata:
        c = cals[s]
        check_informative(c.specificity, c.sensitivity, what=f"in stratum {s!r}, q̂0 + q̂1")
    test_b, cal_b = _stack(tests, cals, strata)
    method, level = spec.method, spec.confidence_level
    bounds = spec_bounds(stratum_spec(spec), test_b, cal_b, gen)
    bad = np.isnan(bounds.low) | np.isnan(bounds.high)
    if bad.any():
        s = strata[int(np.argmax(bad))]
        raise NotInformativeError(
            f"the {method!r} interval is undefined in stratum {s!r}: the judge is no better than "
            "chance there after the method's adjustment; merge the stratum into another"
        )
    raw = rogan_gladen_raw(test_b.p_hat, cal_b.specificity, cal_b.sensitivity)
    if warn_stacklevel is not None:
        warn_undefined_replicates(bounds, stacklevel=warn_stacklevel + 1)
        out = (raw < 0) | (raw > 1)
        if out.any():
            vals = ", ".join(f"{strata[i]!r}: {raw[i]:.4g}" for i in np.flatnonzero(out))
            warnings.warn(
                f"the Rogan–Gladen estimates of {int(out.sum())} of {len(strata)} strata lie "
                f"outside [0, 1] ({vals}) and were clipped in their stratum's Correction; the "
                "pooled estimate uses the unclipped values",
                ClippedEstimateWarning,
                stacklevel=warn_stacklevel + 1,
            )
    result = {}
    for i, s in enumerate(strata):
        r = float(raw[i])
        ci = ConfidenceInterval.from_bounds(bounds, method, level, i)
        result[s] = Correction(
            estimate=float(np.clip(r, 0.0, 1.0)),
            ci=ci,
            estimate_unclipped=r,
            clipped=bool(r < 0 or r > 1),
            method=method,
            confidence_level=level,
            test=tests[s],
            calibration=cals[s],
            estimator=spec.design.estimator,
            label_shift=label_shift_test(tests[s], cals[s]),
            judge=judge_value(cals[s], ci, design=spec.design, confidence_level=level),
            design=spec.design,
        )
    return result
