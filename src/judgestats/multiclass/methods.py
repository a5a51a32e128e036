"""The k-category interval methods, in one registry.

:func:`register_distribution_method` adds a method by name; the built-in ones are the
delta-method intervals (``"adjusted-delta"``, ``"wald"``), the parametric bootstrap and the
profile-likelihood intervals (``"profile-likelihood"``, ``"profile-likelihood-t"``), listed in
one table in the order :func:`distribution_methods` gives. :func:`distribution_bounds` runs a
method on a batch of data sets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .._validation import (
    MethodError,
    check_batched_category_counts,
    check_bool,
    check_choice,
    check_confidence_level,
    check_max_condition,
    check_method,
    check_positive_int,
    check_rng,
    warn_deprecated,
)
from ..kernels import percentile_nan_last, z_value
from .arrays import MAX_CONDITION, _broadcast_batch, _multinomial_cov, _rates, _solve, _usable
from .likelihood import (
    alphabet_bootstrap_bounds,
    alphabet_profile_bounds,
)

if TYPE_CHECKING:  # pragma: no cover
    pass

__all__ = [
    "DistributionBounds",
    "distribution_bounds",
    "distribution_methods",
    "register_distribution_method",
]


# ----------------------------------------------------------------------------- registry
class DistributionBounds(NamedTuple):
    """Batch output of a k-category interval method (arrays with leading batch axes)."""

    low: np.ndarray  # (..., k), NaN where undefined
    high: np.ndarray  # (..., k)
    undefined: np.ndarray  # (...): resampling replicates with no estimate (0 otherwise)
    n_resamples: int | None = None
    #: A method with its own point estimate (e.g. a posterior mean) sets it; ``None`` means
    #: the point estimate is Ĉ⁻¹p̂ (projected onto the simplex when needed).
    estimate: np.ndarray | None = None
    #: Covariance of the estimate used by the method, (..., k, k), or None.
    covariance: np.ndarray | None = None
    #: Condition number of the matrix the method inverted (e.g. the adjusted C̃), or None.
    condition_number: np.ndarray | None = None


@dataclass(frozen=True, slots=True)
class DistributionMethod:
    """A registered k-category interval method.

    ``func(test_counts, calibration_counts, *, confidence_level, rng, max_condition, **options)``
    takes validated ``int64`` arrays of shapes (..., k) and (..., k, k) (rows = judge, columns
    = human) and returns :class:`DistributionBounds`, NaN where the method is undefined.
    """

    name: str
    func: Callable[..., DistributionBounds]
    description: str
    options: tuple[str, ...]


_METHODS: dict[str, DistributionMethod] = {}


def register_distribution_method(name: str, description: str) -> Callable:
    """Register a k-category interval method under ``name`` (decorator).

    For example, a user's method with one option::

        @register_distribution_method("my-method", "what it computes")
        def _mine(test_counts, calibration_counts, *, confidence_level, rng=None,
                  max_condition=MAX_CONDITION, draws=2000):
            ...
            return DistributionBounds(low, high, undefined, estimate=point)

    Keyword parameters other than the five standard ones (the two count arrays,
    ``confidence_level``, ``rng``, ``max_condition``) become the method's options.
    """
    import inspect

    def deco(func: Callable[..., DistributionBounds]) -> Callable[..., DistributionBounds]:
        standard = ("test_counts", "calibration_counts", "confidence_level", "rng", "max_condition")
        params = inspect.signature(func).parameters
        opts = tuple(p for p in params if p not in standard)
        _METHODS[name] = DistributionMethod(name, func, description, opts)
        return func

    return deco


def distribution_methods() -> tuple[str, ...]:
    """Names of the registered k-category interval methods."""
    return tuple(_METHODS)


def _get_method(method: str, options: dict[str, Any]) -> tuple[DistributionMethod, dict]:
    """Return the method's spec and options (the deprecated ``"delta"`` resolved to its name)."""
    if method == "delta" or (method == "adjusted-delta" and "adjust" in options):
        adjust = options.pop("adjust", True)
        method = "wald" if adjust is False else "adjusted-delta"
        warn_deprecated(
            "correct_distribution(method='delta', adjust=...)",
            f"method={method!r} ('delta' is now 'adjusted-delta'; 'delta' with adjust=False "
            "is 'wald', the interval js.correct calls 'wald')",
        )
        check_bool("adjust", adjust)
    check_method(method, tuple(_METHODS), capability="k-category corrections")
    spec = _METHODS[method]
    for name in options:
        check_choice(f"option of method {method!r}", name, spec.options or ("(no options)",))
    return spec, options


def _variant(bounds: Callable[..., DistributionBounds], flag: bool) -> Callable:
    """Return a method without options that calls ``bounds(..., max_condition, flag)``."""

    def method(
        test_counts, calibration_counts, *, confidence_level, rng=None, max_condition=MAX_CONDITION
    ) -> DistributionBounds:
        return bounds(test_counts, calibration_counts, confidence_level, max_condition, flag)

    return method


def _square_only(calibration_counts: np.ndarray, method: str) -> None:
    j, k = calibration_counts.shape[-2:]
    if j != k:
        raise MethodError(
            f"method {method!r} inverts a square confusion matrix, but the judge speaks "
            f"{j} letters for {k} human categories; use 'profile-likelihood', "
            "'profile-likelihood-t' or 'bootstrap' (every letter enters the likelihood)"
        )


def _delta_bounds(
    test_counts, calibration_counts, confidence_level, max_condition, adjust: bool
) -> DistributionBounds:
    """θ̂ ± z·se per category with the delta-method covariance (see correct_distribution)."""
    _square_only(calibration_counts, "adjusted-delta" if adjust else "wald")
    z = float(z_value(confidence_level))
    t, c = _broadcast_batch(test_counts.astype(float), calibration_counts.astype(float))
    k = t.shape[-1]
    n = t.sum(axis=-1)
    mb = c.sum(axis=-2)
    empty = (mb == 0).any(axis=-1)  # a true class without calibration items: undefined
    if adjust:  # Agresti–Coull for p̂ (z² pseudo-items), "add two" for each column of Ĉ
        t = t + z * z / k
        n = n + z * z
        c = c + 2.0 / k
        mb = mb + 2.0
    p = t / n[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        matrix = c / mb[..., None, :]
    ok, kappa = _usable(matrix, max_condition)
    ok &= ~empty
    safe = np.where(ok[..., None, None], matrix, np.eye(k))
    inv = np.linalg.inv(safe)
    theta = np.einsum("...ab,...b->...a", inv, p)
    # Cov(Ĉ⁻¹p̂) ≈ A [Σ_p + Σ_b θ_b² Σ_{c_b}] Aᵀ,  A = Ĉ⁻¹,  Σ_{c_b} = (diag c_b − c_b c_bᵀ)/m_b
    w = theta**2 / np.where(mb > 0, mb, 1.0)
    cw = safe * w[..., None, :]
    cols = np.einsum("...ab->...a", cw)[..., :, None] * np.eye(k) - cw @ np.swapaxes(safe, -1, -2)
    middle = _multinomial_cov(p, n) + cols
    cov = inv @ middle @ np.swapaxes(inv, -1, -2)
    se = np.sqrt(np.clip(np.einsum("...aa->...a", cov), 0.0, None))
    low = np.where(ok[..., None], np.clip(theta - z * se, 0.0, 1.0), np.nan)
    high = np.where(ok[..., None], np.clip(theta + z * se, 0.0, 1.0), np.nan)
    cov = np.where(ok[..., None, None], cov, np.nan)
    return DistributionBounds(
        low, high, np.zeros(ok.shape, dtype=np.int64), covariance=cov, condition_number=kappa
    )


def _profile_bounds(test_counts, calibration_counts, level, max_condition, small_sample):
    """Profile-likelihood bounds (``max_condition`` unused: the likelihood inverts nothing)."""
    low, high, est = alphabet_profile_bounds(
        test_counts, calibration_counts, level, small_sample=small_sample
    )
    empty = (calibration_counts.sum(axis=-2) == 0).any(axis=-1)  # a class without items
    low, high, est = (np.where(empty[..., None], np.nan, a) for a in (low, high, est))
    return DistributionBounds(low, high, np.zeros(low.shape[:-1], dtype=np.int64), estimate=est)


def _bootstrap_method(
    test_counts,
    calibration_counts,
    *,
    confidence_level,
    rng=None,
    max_condition=MAX_CONDITION,
    n_resamples: int = 9999,
) -> DistributionBounds:
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    gen = check_rng(rng)
    if calibration_counts.shape[-2] != calibration_counts.shape[-1]:
        return _alphabet_bootstrap(test_counts, calibration_counts, confidence_level,
                                   n_resamples, gen)  # fmt: skip
    t, c = _broadcast_batch(test_counts, calibration_counts)
    shape, k = t.shape[:-1], t.shape[-1]
    t = t.reshape(-1, k)
    c = c.reshape(-1, k, k)
    p, matrix, mb = _rates(t, c)
    ok, _ = _usable(matrix, max_condition)
    # resample from a harmless matrix where the data set itself is undefined (output is NaN)
    matrix = np.where(ok[:, None, None], matrix, np.eye(k))
    mb = np.where(ok[:, None], mb, 1)
    n = t.sum(axis=-1)
    alpha = 1.0 - float(confidence_level)
    size = t.shape[0]
    low = np.full((size, k), np.nan)
    high = np.full((size, k), np.nan)
    cov = np.full((size, k, k), np.nan)
    undefined = np.zeros(size, dtype=np.int64)
    chunk = max(1, 2_000_000 // (n_resamples * k * k))  # bound memory (~16 MB per array)
    for start in range(0, size, chunk):
        sl = slice(start, min(start + chunk, size))
        ln = sl.stop - sl.start
        p_star = gen.multinomial(n[sl], p[sl], size=(n_resamples, ln)) / n[sl][:, None]
        columns = np.swapaxes(matrix[sl], -1, -2)  # (L, b, a): column b's distribution
        c_star = gen.multinomial(mb[sl], columns, size=(n_resamples, ln, k))
        c_star = np.swapaxes(c_star / mb[sl][..., None], -1, -2)  # back to (B, L, a, b)
        good, _ = _usable(c_star, max_condition)
        theta = _solve(c_star, p_star, good)  # (B, L, k)
        valid = good.sum(axis=0)  # (L,)
        filled = np.where(good[..., None], theta, 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = filled.sum(axis=0) / valid[:, None]
        centred = np.where(good[..., None], theta - mean, 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            cov[sl] = np.einsum("bla,blc->lac", centred, centred) / (valid - 1)[:, None, None]
        theta.sort(axis=0)  # NaN (undefined replicates) last
        v = np.broadcast_to(valid[:, None], (ln, k))
        low[sl] = np.clip(percentile_nan_last(theta, v, alpha / 2.0), 0.0, 1.0)
        high[sl] = np.clip(percentile_nan_last(theta, v, 1.0 - alpha / 2.0), 0.0, 1.0)
        undefined[sl] = n_resamples - valid
    low[~ok] = high[~ok] = np.nan
    cov[~ok] = np.nan
    return DistributionBounds(
        low.reshape(*shape, k),
        high.reshape(*shape, k),
        undefined.reshape(shape),
        n_resamples,
        covariance=cov.reshape(*shape, k, k),
    )


# The k-category interval methods, in the order distribution_methods() lists them.
for _name, _method, _description in (
    ("adjusted-delta", _variant(_delta_bounds, True), "delta-method covariance of Ĉ⁻¹p̂ "
     "(multinomial p̂ and columns of Ĉ) at the adjusted (add z²/k to p̂, add 2 to each column) "
     "estimates"),
    ("wald", _variant(_delta_bounds, False), "delta-method covariance of Ĉ⁻¹p̂ at the plain "
     "estimates (for k = 2 the interval of js.correct(method='wald'))"),
    ("bootstrap", _bootstrap_method, "parametric percentile bootstrap of the test and "
     "calibration multinomials; under-covers with about 20 calibration items per class (use "
     "'adjusted-delta' there)"),
    ("profile-likelihood", _variant(_profile_bounds, False), "inverted likelihood-ratio test per "
     "category in the joint multinomial model of test and calibration counts (θ and the J × K "
     "confusion matrix; any judge alphabet J >= K)"),
    ("profile-likelihood-t", _variant(_profile_bounds, True), "the profile-likelihood interval "
     "with the small-calibration cut-off t²(ν) instead of χ²₁, ν = min_b m_b/(J − 1) − 1 "
     "(calibration items per free parameter of a column, minus one)"),
):  # fmt: skip
    register_distribution_method(_name, _description)(_method)


def _alphabet_bootstrap(test_counts, calibration_counts, level, n_resamples, gen):
    """Bootstrap a judge alphabet (J > K): refit by maximum likelihood per replicate."""
    j, k = calibration_counts.shape[-2:]
    shape = np.broadcast_shapes(test_counts.shape[:-1], calibration_counts.shape[:-2])
    t = np.broadcast_to(test_counts, (*shape, j)).reshape(-1, j)
    c = np.broadcast_to(calibration_counts, (*shape, j, k)).reshape(-1, j, k)
    out = [alphabet_bootstrap_bounds(ti, ci, level, n_resamples=n_resamples, rng=gen)
           for ti, ci in zip(t, c, strict=True)]  # fmt: skip
    low, high, est = (np.stack([o[i] for o in out]).reshape(*shape, k) for i in range(3))
    return DistributionBounds(
        low, high, np.zeros(shape, dtype=np.int64), n_resamples, estimate=est
    )


def distribution_bounds(
    test_counts: Any,
    calibration_counts: Any,
    *,
    method: str = "adjusted-delta",
    confidence_level: float = 0.95,
    rng: Any = None,
    max_condition: float = MAX_CONDITION,
    **options: Any,
) -> DistributionBounds:
    """Per-category intervals for a batch of data sets (vectorised; NaN where undefined).

    Arguments as in :func:`distribution_estimate` plus ``method``, ``confidence_level``,
    ``rng`` and the method's options (see :func:`correct_distribution`). A data set is
    undefined when a true class has no calibration items or the matrix the method inverts is
    not usable (condition number above ``max_condition``; for k = 2, q0 + q1 <= 1).
    """
    t, c = check_batched_category_counts(test_counts, calibration_counts)
    level = check_confidence_level(confidence_level)
    max_condition = check_max_condition(max_condition)
    spec, options = _get_method(method, dict(options))
    return spec.func(t, c, confidence_level=level, rng=rng, max_condition=max_condition, **options)
