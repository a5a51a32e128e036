"""θ_A − θ_B by the joint methods: the delta method, the joint bootstrap and the joint posterior.

The methods that treat the two models' data together — a calibration set shared by both, paired
test items, repeated items of both — for the estimator families whose kernels
:mod:`.arms` and :mod:`.draws` implement (:func:`.arms.joint_kernels`: Rogan–Gladen's, the
paper's design). :data:`JOINT_METHODS` is their implementation registry; which of them a path
allows is the capability table's (:mod:`judgestats.designs.capabilities`). Each implementation
takes the resolved spec, the two models' data and the randomness, and returns the fields of a
:class:`~judgestats.compare.Comparison`; :func:`difference_bounds_batch` runs the same kernels on
a batch of data sets (simulation studies). Formulas: :mod:`judgestats.compare.differences`.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    JudgeStatsError,
    MethodError,
    NotInformativeError,
    SamplingWarning,
    check_positive_int,
    check_rng,
)
from ..designs import DEFAULT_DESIGN
from ..estimators import clip_warned, rogan_gladen_counts
from ..kernels import z_value
from ..spec import EstimationSpec, resolve_spec
from .arms import (
    _CHUNK,
    _DEFAULT_DRAWS,
    _arrays,
    _bootstrap_thetas,
    _clipped_rg,
    _delta_kernel,
    _require_informative,
    difference_interval,
    weighted_quantile,
)
from .clustered import clustered_bootstrap_draws, clustered_difference
from .draws import _effective_draws, _posterior_draws, _warn_low_ess

__all__ = ["JOINT_METHODS", "JointMethod", "difference_bounds_batch"]


@dataclass(frozen=True, slots=True)
class JointMethod:
    """A joint implementation of θ_A − θ_B.

    ``func(spec, data, rng)`` returns the result fields of a
    :class:`~judgestats.compare.Comparison` (``data``: the two models' counts, as
    :func:`judgestats.compare.difference` gathers them); ``options`` are the keyword options
    the method takes (``spec.options``); ``repeated``: it handles counts with repeated items.
    """

    func: Callable[..., dict[str, Any]]
    options: tuple[str, ...] = ()
    repeated: bool = True


def _per_model_estimates(c: dict, stacklevel: int = 4) -> tuple[float, float]:
    raw = [rogan_gladen_counts(c[f"test_{s}"], c[f"calibration_{s}"]) for s in "ab"]
    est = clip_warned(raw, stacklevel=stacklevel)
    return float(est[0]), float(est[1])


def _require_informative_pair(c: dict, *, adjusted: bool) -> None:
    _require_informative(c["calibration_a"], "calibration_a", adjusted=adjusted)
    if not c["shared_calibration"]:
        _require_informative(c["calibration_b"], "calibration_b", adjusted=adjusted)


def _pvalue(centre: float, se: float, tail: Callable[[float], float]) -> float:
    """Two-sided p-value 2·tail(−|centre|/se) of H0: θ_A = θ_B (se = 0: 1 or 0)."""
    if se > 0:
        return float(2.0 * tail(-abs(centre) / se))
    return 1.0 if centre == 0 else 0.0


def _difference_delta(spec: EstimationSpec, c: dict, rng: Any, *, adjusted: bool) -> dict:
    """Delta method of eq. (8) (``adjusted``) or eq. (15) over both models; clustered too."""
    from scipy.special import ndtr

    if spec.repeated:
        k = clustered_difference(spec, c, adjusted=adjusted, stacklevel=6)
        half = k["z"] * k["se"]
        return dict(
            estimate=k["estimate_a"] - k["estimate_b"],
            ci=difference_interval(k["centre"] - half, k["centre"] + half, spec),
            estimate_a=k["estimate_a"], estimate_b=k["estimate_b"], pvalue=k["pvalue"],
            prob_a_greater=None, standard_error=k["se"], clusters=k["clusters"], t_df=k["df"],
        )  # fmt: skip
    _require_informative_pair(c, adjusted=adjusted)
    ea, eb = _per_model_estimates(c, stacklevel=6)
    z = float(z_value(spec.confidence_level))
    a = _arrays(c["test_a"], c["calibration_a"])
    b = _arrays(c["test_b"], c["calibration_b"])
    n11 = None if c["pair_counts"] is None else float(c["pair_counts"][0])
    centre, se = _delta_kernel(
        a, b, z=z, adjusted=adjusted, shared=c["shared_calibration"], pair_n11=n11
    )
    centre, se = float(centre), float(se)
    return dict(
        estimate=ea - eb,
        ci=difference_interval(centre - z * se, centre + z * se, spec),
        estimate_a=ea,
        estimate_b=eb,
        pvalue=_pvalue(centre, se, ndtr),
        prob_a_greater=None,
        standard_error=se,
    )


def _difference_bootstrap(spec: EstimationSpec, c: dict, rng: Any) -> dict:
    """Joint parametric bootstrap (independent rows) or item bootstrap (repeated items)."""
    reps = check_positive_int("n_resamples", spec.options.get("n_resamples", 9999), minimum=2)
    gen = check_rng(rng)
    if spec.repeated:
        k = clustered_bootstrap_draws(spec, c, reps, gen, stacklevel=6)
        return _bootstrap_fields(spec, k["delta"], k["estimate_a"], k["estimate_b"], reps,
                                 clusters=k["clusters"])  # fmt: skip
    _require_informative_pair(c, adjusted=False)
    ea, eb = _per_model_estimates(c, stacklevel=6)
    a = _arrays(c["test_a"], c["calibration_a"])
    b = _arrays(c["test_b"], c["calibration_b"])
    cals = [a] if c["shared_calibration"] else [a, b]
    groups = [0, 0] if c["shared_calibration"] else [0, 1]
    th = _bootstrap_thetas([a, b], groups, cals, reps, gen, pairs=c["pair_counts"])
    return _bootstrap_fields(spec, th[..., 0] - th[..., 1], ea, eb, reps)


def _bootstrap_fields(spec: EstimationSpec, delta: np.ndarray, ea: float, eb: float, reps: int,
                      **extra: Any) -> dict:  # fmt: skip
    """Percentile interval and bootstrap p-value of the replicates ``delta`` (NaN undefined)."""
    valid = ~np.isnan(delta)
    undefined = int(reps - valid.sum())
    if undefined:
        warnings.warn(
            f"{undefined} of {reps} bootstrap replicates were undefined (resampled q0* + q1* <= "
            "1, judge no better than chance) and are excluded; the interval conditions on an "
            "informative judge and may be too narrow",
            SamplingWarning,
            stacklevel=5,
        )
    d = delta[valid]
    if d.size == 0:
        raise NotInformativeError("every bootstrap replicate was undefined (q0* + q1* <= 1)")
    alpha = 1.0 - spec.confidence_level
    low, high = np.quantile(d, [alpha / 2.0, 1.0 - alpha / 2.0])
    below, above = np.count_nonzero(d <= 0), np.count_nonzero(d >= 0)
    return dict(
        estimate=ea - eb,
        ci=difference_interval(low, high, spec, undefined=undefined, n_resamples=reps),
        estimate_a=ea,
        estimate_b=eb,
        pvalue=min(1.0, 2.0 * (1.0 + min(below, above)) / (1.0 + d.size)),
        prob_a_greater=None,
        standard_error=float(np.std(d, ddof=1)) if d.size > 1 else None,
        **extra,
    )


def _difference_bayes(spec: EstimationSpec, c: dict, rng: Any) -> dict:
    """Posterior of θ_A − θ_B: exact per model, importance-sampled with a shared calibration."""
    if c["paired"]:
        raise JudgeStatsError(
            "method='bayes' does not model paired test items; use 'adjusted-wald' or "
            "'bootstrap' for paired labels, or paired=False to treat the tests as independent"
        )
    draws = check_positive_int("draws", spec.options.get("draws", _DEFAULT_DRAWS), minimum=100)
    gen = check_rng(rng)
    a = _arrays(c["test_a"], c["calibration_a"])
    b = _arrays(c["test_b"], c["calibration_b"])
    cals = [a] if c["shared_calibration"] else [a, b]
    groups = [0, 0] if c["shared_calibration"] else [0, 1]
    th, w = _posterior_draws([a, b], groups, cals, draws, gen, spec.options.get("priors"))
    _warn_low_ess(float(_effective_draws(w)), draws, stacklevel=5)
    delta = th[:, 0] - th[:, 1]
    alpha = 1.0 - spec.confidence_level
    low, high = weighted_quantile(delta, w, [alpha / 2.0, 1.0 - alpha / 2.0])
    ea, eb = float(np.sum(w * th[:, 0])), float(np.sum(w * th[:, 1]))
    return dict(
        estimate=ea - eb,
        ci=difference_interval(float(low), float(high), spec),
        estimate_a=ea,
        estimate_b=eb,
        pvalue=None,
        prob_a_greater=float(np.sum(w * ((delta > 0) + 0.5 * (delta == 0)))),
        standard_error=float(np.sqrt(np.sum(w * (delta - (ea - eb)) ** 2))),
    )


#: The joint implementations of θ_A − θ_B by method name (under the designs whose estimator
#: family :func:`.arms.joint_kernels` accepts); a method of the table without one combines the
#: two models' own intervals by MOVER (:func:`judgestats.compare.differences.difference`).
JOINT_METHODS: dict[str, JointMethod] = {
    "adjusted-wald": JointMethod(functools.partial(_difference_delta, adjusted=True)),
    "wald": JointMethod(functools.partial(_difference_delta, adjusted=False)),
    "bootstrap": JointMethod(_difference_bootstrap, ("n_resamples",)),
    "bayes": JointMethod(_difference_bayes, ("draws", "priors"), repeated=False),
}


# ============================================================================ batches
def difference_bounds_batch(
    a: dict[str, Any],
    b: dict[str, Any],
    *,
    shared: bool,
    method: str,
    confidence_level: float,
    pairs: tuple[Any, Any, Any, Any] | None = None,
    reps: int = 2000,
    rng: Any = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference intervals for a batch of data sets (no checks of the counts; for simulations).

    ``a`` and ``b`` map ``x, n, tp, fn, tn, fp`` to arrays of one batch shape (with ``shared``,
    ``b``'s calibration entries are ignored); ``pairs`` = (n11, n10, n01, n00) arrays for paired
    test items. ``method`` is one of the joint methods (:data:`JOINT_METHODS`) of the paper's
    design's row of the capability table; ``reps`` is the number of bootstrap replicates or
    posterior draws. Returns (low, high, estimate) arrays, NaN where the interval is undefined
    (a calibration set with q̂0 + q̂1 <= 1 for the frequentist methods). The same kernels as
    :func:`judgestats.compare.difference` (which adds validation, warnings and the result).

    Examples
    --------
    Two simulated data sets at once (model A judged 650 and 700 of 1,000 items, model B 600),
    one shared calibration set:

    >>> import numpy as np
    >>> import judgestats as js
    >>> cal = {"tp": np.array([180, 180]), "fn": np.array([20, 20]), "tn": np.array([140, 140]),
    ...        "fp": np.array([60, 60])}
    >>> a = {"x": np.array([650, 700]), "n": np.array([1000, 1000]), **cal}
    >>> b = {"x": np.array([600, 600]), "n": np.array([1000, 1000]), **cal}
    >>> low, high, estimate = js.compare.difference_bounds_batch(
    ...     a, b, shared=True, method="adjusted-wald", confidence_level=0.95)
    >>> estimate.round(4), low.round(4), high.round(4)
    (array([0.0833, 0.1667]), array([0.0128, 0.0965]), array([0.1568, 0.2427]))
    """
    spec = resolve_spec(judge="letter", target="difference", design=DEFAULT_DESIGN,
                        method=method, confidence_level=confidence_level)  # fmt: skip
    if spec.method not in JOINT_METHODS:
        joint = ", ".join(repr(m) for m in spec.methods if m in JOINT_METHODS)
        raise MethodError(
            f"method {method!r} has no batched implementation; batched differences take {joint}"
        )
    a = {k: np.asarray(v, dtype=float) for k, v in a.items()}
    b = {k: np.asarray(v, dtype=float) for k, v in b.items()}
    if shared:
        b = {**b, **{k: a[k] for k in ("tp", "fn", "tn", "fp")}}
    level = float(spec.confidence_level)
    n11 = None if pairs is None else np.asarray(pairs[0], dtype=float)

    def informative(c):
        with np.errstate(divide="ignore", invalid="ignore"):
            return c["tn"] / (c["tn"] + c["fp"]) + c["tp"] / (c["tp"] + c["fn"]) > 1.0

    ok = informative(a) & informative(b)
    est = _clipped_rg(a) - _clipped_rg(b)
    if method in ("adjusted-wald", "wald"):
        z = float(z_value(level))
        centre, se = _delta_kernel(
            a, b, z=z, adjusted=method == "adjusted-wald", shared=shared, pair_n11=n11
        )
        low, high = centre - z * se, centre + z * se
    else:
        low, high, est = _draws_batch(a, b, est, shared=shared, method=method, level=level,
                                      pairs=pairs, reps=reps, gen=check_rng(rng))  # fmt: skip
    if method != "bayes":
        low, high = np.where(ok, low, np.nan), np.where(ok, high, np.nan)
    return np.clip(low, -1.0, 1.0), np.clip(high, -1.0, 1.0), est


def _draws_batch(a, b, est, *, shared, method, level, pairs, reps, gen):
    """(low, high, estimate) of the bootstrap or posterior draws, in chunks of the batch."""
    alpha = 1.0 - level
    groups = [0, 0] if shared else [0, 1]
    shape = np.broadcast_shapes(*(np.shape(v) for v in (*a.values(), *b.values())))
    a = {k: np.broadcast_to(v, shape) for k, v in a.items()}
    b = {k: np.broadcast_to(v, shape) for k, v in b.items()}
    size = int(np.prod(shape))
    low, high = np.empty(size), np.empty(size)
    est = np.broadcast_to(est, shape).reshape(-1).copy()
    chunk = max(1, _CHUNK // (4 * reps))
    flat = [{k: v.reshape(-1) for k, v in d.items()} for d in (a, b)]
    pflat = None if pairs is None else [np.broadcast_to(p, shape).reshape(-1) for p in pairs]
    for s in range(0, size, chunk):
        sl = slice(s, min(s + chunk, size))
        ca, cb = ({k: v[sl] for k, v in d.items()} for d in flat)
        cals_s = [ca] if shared else [ca, cb]
        if method == "bootstrap":
            pp = None if pflat is None else tuple(p[sl] for p in pflat)
            with np.errstate(divide="ignore", invalid="ignore"):
                th = _bootstrap_thetas([ca, cb], groups, cals_s, reps, gen, pairs=pp)
            d = th[..., 0] - th[..., 1]
            q = np.full((2, d.shape[1]), np.nan)
            has = ~np.isnan(d).all(axis=0)
            if has.any():
                q[:, has] = np.nanquantile(d[:, has], [alpha / 2, 1 - alpha / 2], axis=0)
        else:
            th, w = _posterior_draws([ca, cb], groups, cals_s, reps, gen)
            d = th[..., 0] - th[..., 1]
            q = weighted_quantile(d, w, [alpha / 2, 1 - alpha / 2])
            est[sl] = np.sum(w * d, axis=0)
        low[sl], high[sl] = q[0], q[1]
    return tuple(v.reshape(shape) for v in (low, high, est))
