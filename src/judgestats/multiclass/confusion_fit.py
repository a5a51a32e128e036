"""The k-category correction through the judge's confusion matrix, independent rows.

Under the by-human-label design (the Rogan–Gladen family: the judge's letter given the human
category transfers to the test set) θ̂ = Ĉ⁻¹p̂ (paper eqs. (23) and (24)), or for a judge
alphabet of its own (J ≠ K letters) the joint maximum-likelihood θ̂ of
:mod:`.likelihood`; an estimate outside the simplex is replaced by its constrained
maximum-likelihood fit (:class:`~judgestats.ProjectedEstimateWarning`). The interval is the
registered method's (:mod:`.methods`), refused where Ĉ is ill-conditioned or the judge does not
separate the categories (:mod:`.separation`). Judge letters on test items but on no calibration
item are set aside: the seen letters are corrected and each interval widened by the unseen
letters' test share.

:func:`fit` returns the fields of a :class:`~judgestats.multiclass.DistributionCorrection`;
:func:`intervals` recomputes its intervals.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._validation import (
    ProjectedEstimateWarning,
    SamplingWarning,
    check_conditioning,
)
from ..alphabets.letters import SparseLettersWarning
from ..counts.categories import CategoryCounts, ConfusionMatrix
from ..results import ConfidenceInterval
from ..spec import EstimationSpec
from .arrays import _simplex_ml
from .likelihood import alphabet_mle
from .methods import DistributionBounds, implementation, kept_letters
from .separation import SEPARATION_LEVEL, _check_pair

__all__ = ["fit", "intervals"]

#: Entries of Ĉ⁻¹p̂ below −SIMPLEX_TOL count as outside the simplex (smaller ones are rounding).
SIMPLEX_TOL = 1e-12


def fit(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any, max_condition: Any,
    separation_level: Any, stacklevel: int,
) -> dict[str, Any]:  # fmt: skip
    """Return the fields of a :class:`~judgestats.multiclass.DistributionCorrection` (module).

    ``stacklevel`` is the one a warning issued here takes to point at the user's call.
    """
    unseen = _unseen_letters(test, calibration, stacklevel + 1)
    if unseen is not None:
        seen = fit(spec, *unseen, rng=rng, max_condition=max_condition,
                   separation_level=separation_level, stacklevel=stacklevel + 1)  # fmt: skip
        return _with_unseen(seen, test, calibration)
    max_condition = _check_pair(test, calibration, max_condition, separation_level)
    cis, bounds = _interval_set(spec, test, calibration, rng=rng, max_condition=max_condition,
                                stacklevel=stacklevel + 1)  # fmt: skip
    raw, est, outside = _point(test, calibration, bounds, stacklevel + 1)
    cov = None if bounds.covariance is None else np.array(bounds.covariance, dtype=float)
    if cov is not None:
        cov.setflags(write=False)
    labels = calibration.labels
    return {
        "labels": labels,
        "estimate": {lab: float(v) for lab, v in zip(labels, est, strict=True)},
        "ci": cis,
        "estimate_unconstrained": {lab: float(v) for lab, v in zip(labels, raw, strict=True)},
        "projected": outside, "method": spec.method, "confidence_level": spec.confidence_level,
        "test": test, "calibration": calibration,
        "condition_number": calibration.condition_number, "max_condition": max_condition,
        "covariance": cov, "design": spec.design,
    }  # fmt: skip


def intervals(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any, max_condition: Any,
    stacklevel: int,
) -> dict[Any, ConfidenceInterval]:  # fmt: skip
    """Recompute the intervals of a fitted data set (its checks passed) under another spec.

    With judge letters no calibration item has, the whole fit again (the seen letters' interval
    widened).
    """
    if kept_letters(test, calibration) is not None:
        return fit(spec, test, calibration, rng=rng, max_condition=max_condition,
                   separation_level=SEPARATION_LEVEL, stacklevel=stacklevel + 1)["ci"]  # fmt: skip
    max_condition = _check_pair(test, calibration, max_condition)
    return _interval_set(spec, test, calibration, rng=rng, max_condition=max_condition,
                         stacklevel=stacklevel + 1)[0]  # fmt: skip


def _interval_set(
    spec: EstimationSpec, test: Any, calibration: Any, *, rng: Any, max_condition: float,
    stacklevel: int,
) -> tuple[dict[Any, ConfidenceInterval], DistributionBounds]:  # fmt: skip
    """Intervals for one validated data set; raises when undefined, warns on bad replicates."""
    method, level = spec.method, spec.confidence_level
    bounds = implementation(method).func(
        np.asarray(test.counts), np.asarray(calibration.counts), confidence_level=level,
        rng=rng, max_condition=max_condition, **spec.options,
    )  # fmt: skip
    if np.isnan(bounds.low).any() or np.isnan(bounds.high).any():
        kappa = np.inf if bounds.condition_number is None else float(bounds.condition_number)
        check_conditioning(
            kappa, max_condition, f"used by the {method!r} interval (after its adjustment)"
        )
        check_conditioning(np.inf, max_condition, f"in every {method!r} replicate")
    undefined = int(np.asarray(bounds.undefined))
    if bounds.n_resamples and undefined:
        warnings.warn(
            f"{undefined} of {bounds.n_resamples} bootstrap replicates were undefined (the "
            f"resampled confusion matrix had condition number above {max_condition:g}) and are "
            "excluded from the percentiles; the interval conditions on an invertible judge and "
            "may be too narrow",
            SamplingWarning,
            stacklevel=stacklevel,
        )
    cis = {
        label: ConfidenceInterval.from_bounds(bounds, method, level, i, undefined=undefined)
        for i, label in enumerate(calibration.labels)
    }
    return cis, bounds


def _point(
    test: Any, calibration: Any, bounds: DistributionBounds, stacklevel: int
) -> tuple[np.ndarray, np.ndarray, bool]:
    """(Ĉ⁻¹p̂ or the alphabet's fit, the estimate reported, whether it left the simplex)."""
    matrix, p = calibration.matrix, test.p_hat
    if calibration.square:
        raw = np.linalg.solve(matrix, p)
    else:  # no inverse: the joint maximum-likelihood estimate, on the simplex by construction
        raw = alphabet_mle(test.counts, calibration.counts)[0]
    outside = bool((raw < -SIMPLEX_TOL).any())
    if bounds.estimate is not None:  # the method's own point estimate (e.g. posterior mean)
        est = np.asarray(bounds.estimate, dtype=float)
    elif outside:
        est = _simplex_ml(p, matrix)
    else:
        est = np.clip(raw, 0.0, 1.0)
        est = est / est.sum()
    if outside:
        shown = ", ".join(
            f"{lab!r}: {v:.4g}" for lab, v in zip(calibration.labels, raw, strict=True)
        )
        warnings.warn(
            f"the corrected distribution Ĉ⁻¹p̂ = {{{shown}}} lies outside the probability "
            "simplex; the estimate reported is the constrained maximum-likelihood fit on the "
            "simplex (estimate_unconstrained keeps Ĉ⁻¹p̂)",
            ProjectedEstimateWarning,
            stacklevel=stacklevel,
        )
    return raw, est, outside


# ----------------------------------------------------------------------------- unseen letters
def _unseen_letters(test: CategoryCounts, calibration: ConfusionMatrix, stacklevel: int) -> Any:
    """Return the data without the judge letters on test items but on no calibration item.

    None when there are none (or the matrix is square: k categories, no alphabet). Such a
    letter says nothing about how it relates to the truth; :func:`_with_unseen` puts its
    items' rates anywhere in [0, 1]. A warning names the letters and their test share.
    """
    keep = kept_letters(test, calibration)
    if keep is None:
        return None
    counts = np.asarray(test.counts)
    unseen = (np.asarray(calibration.judge_counts) == 0) & (counts > 0)
    letters = [calibration.judge_labels[j] for j in np.flatnonzero(unseen)]
    share = counts[unseen].sum() / counts.sum()
    many = len(letters) > 1
    warnings.warn(
        f"judge letter{'s' if many else ''} {', '.join(map(repr, letters))} "
        f"{'are' if many else 'is'} on {int(counts[unseen].sum())} test items "
        f"({share:.1%}) but on no calibration item, so how the judge uses "
        f"{'them' if many else 'it'} for each human category is unknown: those items' "
        "rates are taken as anywhere in [0, 1], which widens each interval by up to "
        f"{share:.1%}; merge the letter into another (calibration.merge(...), test.merge(...)) "
        "or label items the judge gave it",
        SparseLettersWarning,
        stacklevel=stacklevel,
    )
    letters_kept = calibration.judge_labels_at(keep)
    sub_test = CategoryCounts(counts[keep], labels=letters_kept)
    sub_cal = ConfusionMatrix(np.asarray(calibration.counts)[keep], labels=calibration.labels,
                              judge_labels=letters_kept)  # fmt: skip
    return sub_test, sub_cal


def _with_unseen(seen: dict[str, Any], test: Any, calibration: Any) -> dict[str, Any]:
    """Widen the seen letters' correction by the unseen letters' test share s.

    θ_k = (1 − s)·θ_k(seen) + s·θ_k(unseen) with θ_k(unseen) anywhere in [0, 1], so each
    interval becomes [(1 − s)·low, (1 − s)·high + s]; the point estimate stays the seen letters'
    (their items taken as alike), which lies inside.
    """
    counts = np.asarray(test.counts)
    share = 1.0 - float(seen["test"].counts.sum()) / float(counts.sum())
    ci = {
        lab: ConfidenceInterval(
            (1 - share) * c.low, (1 - share) * c.high + share, c.method, c.confidence_level
        )
        for lab, c in seen["ci"].items()
    }
    return {**seen, "ci": ci, "test": test, "calibration": calibration, "unseen_share": share}
