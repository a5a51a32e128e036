"""The k-category interval methods, in one registry, and the spec of a k-category correction.

:func:`register_distribution_method` adds a method by name; the built-in ones are the
delta-method intervals (``"adjusted-delta"``, ``"wald"``), the parametric bootstrap and the
profile-likelihood intervals (``"profile-likelihood"``, ``"profile-likelihood-t"``). The
registry holds the implementations (name → function); which methods a path allows is the
capability table's (:mod:`judgestats.designs.capabilities`), which
:func:`distribution_spec` resolves an entry point's arguments against, once.
:func:`distribution_bounds` runs a method on a batch of data sets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from .._validation import (
    ArgumentTypeError,
    ClusteredCountsError,
    JudgeStatsError,
    MethodError,
    check_batched_category_counts,
    check_bool,
    check_max_condition,
    check_positive_int,
    check_rng,
    warn_deprecated,
)
from ..designs import DEFAULT_DESIGN, Design, RoganGladenDesign, as_design
from ..designs.capabilities import add_method, check_method, methods_for, rows
from ..kernels import percentile_nan_last, z_value
from ..repeated import is_clustered
from ..spec import EstimationSpec, resolve_spec
from .arrays import MAX_CONDITION, _broadcast_batch, _multinomial_cov, _rates, _solve, _usable
from .likelihood import (
    alphabet_bootstrap_bounds,
    alphabet_profile_bounds,
)

__all__ = [
    "DistributionBounds",
    "distribution_bounds",
    "distribution_spec",
    "kept_letters",
    "register_distribution_method",
    "resolve_distribution_spec",
]

#: The capability table's target of a k-category correction (the K category rates).
DISTRIBUTION = "distribution"


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
    ``confidence_level``, ``rng``, ``max_condition``) become the method's options. The method
    joins the capability table's rows of k-category corrections and judge alphabets under the
    paper's design, independent rows (:func:`judgestats.designs.capabilities.add_method`).
    """

    def deco(func: Callable[..., DistributionBounds]) -> Callable[..., DistributionBounds]:
        _register(name, func, description)
        for judge in (CATEGORIES, ALPHABET):
            add_method(name, judge=judge, target=DISTRIBUTION, design=DEFAULT_DESIGN,
                       repeated=False)  # fmt: skip
        return func

    return deco


def _register(name: str, func: Callable[..., DistributionBounds], description: str) -> None:
    """Add an implementation to the registry (its options: its keywords beyond the standard)."""
    import inspect

    standard = ("test_counts", "calibration_counts", "confidence_level", "rng", "max_condition")
    params = inspect.signature(func).parameters
    options = tuple(p for p in params if p not in standard)
    _METHODS[name] = DistributionMethod(name, func, description, options)


def implementation(method: str) -> DistributionMethod:
    """Return a registered method's implementation (the method validated by the spec)."""
    try:
        return _METHODS[method]
    except KeyError:
        raise MethodError(f"method {method!r} has no k-category implementation") from None


# ----------------------------------------------------------------------------- the spec
#: The capability table's judge inputs of a k-category correction: one judge letter per human
#: category (a square confusion matrix), or J letters of the judge's own for K categories.
CATEGORIES, ALPHABET = "categories", "alphabet"

#: The error of an option a method does not take, per path (estimator family, repeated
#: items): the registry's methods on independent rows check their options as names (a
#: MethodError, as before the spec); the other paths' methods take fixed keywords.
_OPTION_ERRORS: dict[tuple[str, bool], type[JudgeStatsError]] = {
    (RoganGladenDesign.family, False): MethodError,
}


def distribution_spec(
    test: Any, calibration: Any, *, method: Any, confidence_level: Any,
    design: Any = DEFAULT_DESIGN, estimand: Any = "rows", options: Mapping[str, Any] | None = None,
) -> EstimationSpec:  # fmt: skip
    """Resolve a k-category correction's spec from its validated counts.

    The path's judge input is ``"categories"`` where the judge's letters are the human
    categories (a square confusion matrix) and ``"alphabet"`` otherwise; its counts carry
    repeated items where either side was built with ``cluster=``; the rest as
    :func:`resolve_distribution_spec`.
    """
    repeated = is_clustered(test, calibration)
    square = calibration.square
    if not repeated and not square:  # the fit drops letters unseen in calibration first
        keep = kept_letters(test, calibration)
        square = keep is not None and calibration.judge_labels_at(keep) == calibration.labels
    return resolve_distribution_spec(
        judge=CATEGORIES if square else ALPHABET, design=design, method=method,
        confidence_level=confidence_level, repeated=repeated, estimand=estimand,
        options=options,
    )  # fmt: skip


def kept_letters(test: Any, calibration: Any) -> np.ndarray | None:
    """Mask of the judge letters a fit keeps when some test letter has no calibration item.

    None when every letter on test items is on a calibration item (or the matrix is square),
    or when too few letters would be left to identify θ (the fit then refuses, naming one).
    Dropped: the unseen letters, and letters on no item at all.
    """
    if calibration.square:
        return None
    seen = np.asarray(calibration.judge_counts) > 0
    counts = np.asarray(test.counts)
    unseen = ~seen & (counts > 0)
    if not unseen.any():
        return None
    keep = ~unseen & (seen | (counts > 0))
    return keep if keep.sum() >= calibration.k else None


def resolve_distribution_spec(
    *, judge: str, method: Any, confidence_level: Any, design: Any = DEFAULT_DESIGN,
    repeated: bool = False, estimand: Any = "rows", options: Mapping[str, Any] | None = None,
) -> EstimationSpec:  # fmt: skip
    """Validate a k-category path's arguments into its spec, once.

    ``method=None`` is the capability row's default; the deprecated ``method="delta"`` and
    ``adjust=`` are read as ``"adjusted-delta"``/``"wald"`` (``DeprecationWarning``).

    Raises
    ------
    MethodError
        An unknown design, a method the path does not have (the message lists those it has),
        or an option a registered method does not take on independent rows.
    ClusteredCountsError
        Counts with repeated items and a method or design that does not account for them.
    ConfidenceLevelError, ArgumentTypeError
        A bad level; a method that is not a string, or an option the method does not take.
    """
    design = as_design(design)
    method, opts = _renamed(method, dict(options or {}))
    if repeated:
        _check_accounts_for_repeats(method, judge, design)
    spec = resolve_spec(
        judge=judge, target=DISTRIBUTION, design=design, method=method,
        confidence_level=confidence_level, repeated=repeated, estimand=estimand,
        method_optional=True,
    )  # fmt: skip
    takes = _METHODS[spec.method].options if spec.method in _METHODS else ()
    unknown = sorted(set(opts) - set(takes))
    if unknown:
        error = _OPTION_ERRORS.get((design.family, spec.repeated), ArgumentTypeError)
        raise error(f"method {spec.method!r} got unexpected option(s) {unknown}; it takes "
                    f"{', '.join(takes) if takes else 'no options'}")  # fmt: skip
    return spec.with_method(spec.method, **opts)


def _renamed(method: Any, options: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Today's name of the deprecated ``method="delta"`` (and ``adjust=``), with a warning."""
    if method != "delta" and not ("adjust" in options and method in (None, "adjusted-delta")):
        return method, options
    adjust = options.pop("adjust", True)
    method = "wald" if adjust is False else "adjusted-delta"
    warn_deprecated(
        "correct_distribution(method='delta', adjust=...)",
        f"method={method!r} ('delta' is now 'adjusted-delta'; 'delta' with adjust=False "
        "is 'wald', the interval js.correct calls 'wald')", stacklevel=6,
    )  # fmt: skip
    check_bool("adjust", adjust)
    return method, options


def _check_accounts_for_repeats(method: Any, judge: str, design: Design) -> None:
    """With repeated items, a method the path refuses does not account for them (named so).

    The message names the designs under which the method (any method, when none is named)
    accounts for repeated items, where there are some.
    """
    try:
        check_method(method, judge=judge, target=DISTRIBUTION, design=design, repeated=True)
    except MethodError as err:
        where = sorted({d for r in rows() if (r.judge, r.target) == (judge, DISTRIBUTION)
                        and r.repeated is not False and (method is None or method in r.methods)
                        for d in r.designs})  # fmt: skip
        message = str(err) if isinstance(err, ClusteredCountsError) else (
            f"{err} (these counts were built with cluster=, repeated items: the other methods "
            "treat every row as an independent item)"
        )  # fmt: skip
        if where:
            message += (f"; {' or '.join(f'design={d!r}' for d in where)} "
                        f"account{'s' if len(where) == 1 else ''} for repeated items"
                        + (f" with method {method!r}" if method is not None else ""))  # fmt: skip
        raise ClusteredCountsError(message) from None


def table_lists(
    module: str, lists: Mapping[str, tuple[str, Design, bool]], **functions: Callable
) -> Callable[[str], Any]:
    """Return a module ``__getattr__`` that gives the method lists a module used to hold.

    ``lists`` maps each old name to its capability-table row (judge input, design, repeated
    items): the value is the row's methods, with a ``DeprecationWarning`` naming
    :func:`judgestats.designs.capabilities.methods_for`. ``functions`` are old functions,
    given as they are (they warn when called).
    """

    def __getattr__(name: str) -> Any:
        if name in functions:
            return functions[name]
        if name not in lists:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        judge, design, repeated = lists[name]
        call = f"{judge!r}, {DISTRIBUTION!r}, design" + (", repeated=True" if repeated else "")
        warn_deprecated(f"{module}.{name}", "judgestats.designs.capabilities.methods_for("
                        f"{call}) (the capability table)", stacklevel=3)  # fmt: skip
        return methods_for(judge, DISTRIBUTION, design, repeated)

    return __getattr__


def _distribution_methods() -> tuple[str, ...]:
    """Interval methods of k-category corrections under the paper's design (deprecated)."""
    warn_deprecated(
        "judgestats.multiclass.distribution_methods()",
        "judgestats.designs.capabilities.methods_for('categories', 'distribution', design) "
        "(the capability table; 'alphabet' for a judge alphabet of its own)", stacklevel=3,
    )  # fmt: skip
    return methods_for(CATEGORIES, DISTRIBUTION, DEFAULT_DESIGN)


#: The old function, out of ``__all__``: it warns when called.
__getattr__ = table_lists(__name__, {}, distribution_methods=_distribution_methods)


def _variant(bounds: Callable[..., DistributionBounds], flag: bool) -> Callable:
    """Return a method without options that calls ``bounds(..., max_condition, flag)``."""

    def method(
        test_counts, calibration_counts, *, confidence_level, rng=None, max_condition=MAX_CONDITION
    ) -> DistributionBounds:
        return bounds(test_counts, calibration_counts, confidence_level, max_condition, flag)

    return method


def _delta_bounds(
    test_counts, calibration_counts, confidence_level, max_condition, adjust: bool
) -> DistributionBounds:
    """θ̂ ± z·se per category with the delta-method covariance (see correct_distribution)."""
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


# The built-in k-category implementations (the capability table says where each is available).
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
    _register(_name, _method, _description)


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
    ``rng`` and the method's options (see :func:`correct_distribution`), under the paper's
    design with independent rows (the capability table's row of square matrices, or of a
    judge alphabet where J ≠ K). A data set is undefined when a true class has no calibration
    items or the matrix the method inverts is not usable (condition number above
    ``max_condition``; for k = 2, q0 + q1 <= 1).
    """
    t, c = check_batched_category_counts(test_counts, calibration_counts)
    j, k = c.shape[-2:]
    spec = resolve_distribution_spec(
        judge=CATEGORIES if j == k else ALPHABET, method=method,
        confidence_level=confidence_level, options=options,
    )  # fmt: skip
    max_condition = check_max_condition(max_condition)
    return implementation(spec.method).func(
        t, c, confidence_level=spec.confidence_level, rng=rng, max_condition=max_condition,
        **spec.options,
    )  # fmt: skip
