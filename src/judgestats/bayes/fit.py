"""``fit()``: sample the misclassification model with PyMC and summarise it in a result."""

from __future__ import annotations

import importlib.util
import numbers
import warnings
from collections.abc import Mapping
from typing import Any, TypedDict, Unpack

import numpy as np

from .._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    SamplingWarning,
    check_bool,
    check_choice,
    check_confidence_level,
    check_positive_int,
    check_rng,
)
from ..counts import ConfusionCounts, JudgedCounts
from ..designs import DEFAULT_DESIGN, Design, as_design
from ..label_shift import label_shift_test
from ..priors import Priors
from ..progress import shown
from ..results import ConfidenceInterval
from .models import categorical_data, check_model_data, design_model, is_binary
from .results import (
    INTERVALS,
    POINTS,
    BayesianCorrection,
    BayesianDistributionCorrection,
    diagnose,
    summarise,
)

__all__ = ["SAMPLERS", "SAMPLING_DEFAULTS", "TARGET_ACCEPT", "SamplingOptions", "fit", "sample"]

#: NUTS implementations PyMC can drive: its own, nutpie (Rust) and numpyro (JAX).
SAMPLERS = ("pymc", "nutpie", "numpyro")
BACKENDS = ("numba", "c")
METHOD = "bayes-mcmc"
_RESERVED = (
    "draws",
    "tune",
    "chains",
    "cores",
    "random_seed",
    "nuts_sampler",
    "progressbar",
    "quiet",
    "model",
    "return_inferencedata",
    "compute_convergence_checks",
    "backend",
)


def _seed(random_seed: Any) -> Any:
    """Validate a seed; ints and Generators go to PyMC as they are (same draws every run)."""
    if random_seed is None or isinstance(random_seed, np.random.Generator):
        return random_seed
    gen = check_rng(random_seed, "random_seed")  # type / sign checks
    return int(random_seed) if isinstance(random_seed, numbers.Integral) else gen


def _check_sampler(sampler: Any) -> str:
    sampler = check_choice("sampler", sampler, SAMPLERS)
    if sampler != "pymc" and importlib.util.find_spec(sampler) is None:
        raise ImportError(
            f"sampler={sampler!r} needs the {sampler} package, which is not installed "
            f"(pip install {sampler}); sampler='pymc' needs nothing more"
        )
    return sampler


class SamplingOptions(TypedDict, total=False):
    """How to run NUTS: keyword arguments of :func:`sample`, :func:`fit` and ``fit_stratified``.

    Defaults in :data:`SAMPLING_DEFAULTS`.

    ``draws``, ``tune``, ``chains`` (int): draws kept per chain, tuning steps per chain, chains.
    ``cores`` (int or None): processes to run the chains in (PyMC's default: up to 4).
    ``random_seed`` (None, int, SeedSequence or Generator): the same int gives the same draws.
    ``sampler`` ({"pymc", "nutpie", "numpyro"}): NUTS implementation.
    ``backend`` ({"numba", "c"} or None): PyTensor backend of the pymc sampler.
    ``progress`` (None or bool): show PyMC's progress bar and log messages; None (the
    default) shows them when interactive (a terminal or a notebook, not under pytest or CI),
    as every long call of the package does (:func:`judgestats.progress.shown`).
    ``progressbar`` (None or bool): PyMC's name for the same switch; when given it wins.
    ``sample_kwargs`` (mapping or None): further ``pymc.sample`` arguments.
    """

    draws: int
    tune: int
    chains: int
    cores: int | None
    random_seed: Any
    sampler: str
    backend: str | None
    progress: bool | None
    progressbar: bool | None
    sample_kwargs: Mapping[str, Any] | None


#: NUTS's target acceptance rate unless ``sample_kwargs`` sets one (PyMC's own default is 0.8).
#: With a zero calibration cell or a test count of 0 or n the posterior in PyMC's logit
#: coordinates has a steep wall (a Beta(m + 1, 1) rate piles up at 1, its logit's density
#: falls off like exp(−m e^−x)), where 0.8's step size diverges. On 100 seeded data sets with
#: zero cells (benchmarks/results/bayes.md, "Zero cells"; 4 chains × 1000 draws) 82 fits
#: diverged at 0.8, 1 at 0.99 and none at 0.995, at 2.2× the median fit time of 0.8 (4.4 s
#: against 2.0 s). The smaller steps change no prior or likelihood.
TARGET_ACCEPT = 0.995

#: The one home of the sampling defaults (see :class:`SamplingOptions`).
SAMPLING_DEFAULTS: SamplingOptions = {
    "draws": 1000,
    "tune": 1000,
    "chains": 4,
    "cores": None,
    "random_seed": None,
    "sampler": "pymc",
    "backend": None,
    "progress": None,
    "progressbar": None,
    "sample_kwargs": None,
}


def sampling_arguments(options: Mapping[str, Any]) -> dict[str, Any]:
    """Validate :class:`SamplingOptions` (defaults filled in) and return ``pymc.sample``'s kwargs.

    Raises
    ------
    ArgumentTypeError
        On an unknown option (named), a ``sample_kwargs`` that is not a mapping or that sets
        an argument this function owns.
    ImportError
        If the requested sampler is not installed.
    """
    unknown = sorted(set(options) - set(SAMPLING_DEFAULTS))
    if unknown:
        raise ArgumentTypeError(
            f"unknown sampling option(s) {unknown}; the options are {sorted(SAMPLING_DEFAULTS)}"
        )
    opts: dict[str, Any] = {**SAMPLING_DEFAULTS, **options}
    sampler = _check_sampler(opts["sampler"])
    backend = opts["backend"]
    if backend is not None:
        backend = check_choice("backend", backend, BACKENDS)
        if sampler != "pymc":
            raise JudgeStatsError(f"backend applies to sampler='pymc' only, got {sampler!r}")
    extra = opts["sample_kwargs"]
    if extra is not None and not isinstance(extra, Mapping):
        raise ArgumentTypeError(f"sample_kwargs must be a mapping, got {extra!r}")
    clash = sorted(set(extra or {}) & set(_RESERVED))
    if clash:
        raise ArgumentTypeError(
            f"sample_kwargs may not set {clash}: they are arguments of fit()/sample()"
        )
    progressbar = opts["progressbar"]  # PyMC's name wins when given; else progress=
    progressbar = shown(opts["progress"]) if progressbar is None else check_bool(
        "progressbar", progressbar)  # fmt: skip
    cores = opts["cores"]
    kwargs: dict[str, Any] = {
        "draws": check_positive_int("draws", opts["draws"]),
        "tune": check_positive_int("tune", opts["tune"], minimum=0),
        "chains": check_positive_int("chains", opts["chains"]),
        "cores": None if cores is None else check_positive_int("cores", cores),
        "random_seed": _seed(opts["random_seed"]),
        "nuts_sampler": sampler,
        "progressbar": progressbar,
        "quiet": not progressbar,
        "compute_convergence_checks": False,
        **(extra or {}),
    }
    nuts = kwargs.get("nuts")  # PyMC refuses target_accept set twice (here and in nuts=)
    if "target_accept" not in kwargs and "target_accept" not in (
        nuts if isinstance(nuts, Mapping) else ()
    ):
        kwargs["target_accept"] = TARGET_ACCEPT
    if backend is not None:
        kwargs["backend"] = backend
    return kwargs


def sample(model: Any, **sampling: Unpack[SamplingOptions]) -> Any:
    """Run NUTS on a (possibly user-extended) model; returns PyMC's xarray DataTree.

    Parameters
    ----------
    model : pymc.Model
        The model to sample (e.g. from :func:`judgestats.bayes.build_model`).
    **sampling
        :class:`SamplingOptions`: ``draws`` (1000), ``tune`` (1000), ``chains`` (4),
        ``cores`` (PyMC's default: up to 4; use 1 in tests), ``random_seed``, ``sampler``
        ("pymc", or "nutpie" / "numpyro" if installed), ``backend`` ("numba", PyMC's default,
        or "c", which avoids the numba dependency), ``progress`` (None: PyMC's bar when
        interactive; ``progressbar`` is PyMC's name for it) and
        ``sample_kwargs`` (further ``pymc.sample`` arguments, e.g. ``{"target_accept": 0.999}``;
        ``target_accept`` is :data:`TARGET_ACCEPT`, 0.995, unless set there).

    Returns
    -------
    xarray.DataTree
        PyMC's posterior draws. PyMC's own convergence report is switched off: use
        :func:`judgestats.bayes.results.diagnose` (``fit`` does, and warns).
    """
    return _run(model, sampling_arguments(sampling))


def _run(model: Any, kwargs: dict[str, Any]) -> Any:
    import pymc as pm

    if "backend" not in kwargs:
        return pm.sample(model=model, **kwargs)
    with warnings.catch_warnings():
        # the C backend probes for a BLAS library once and warns when it finds none; these
        # models have no matrix products large enough for BLAS to matter
        warnings.filterwarnings(
            "ignore", message="PyTensor could not link to a BLAS", category=UserWarning
        )
        return pm.sample(model=model, **kwargs)


def warn_if_unreliable(diagnostics: Any, divergence_hint: str, *, stacklevel: int) -> None:
    """Issue a :class:`SamplingWarning` naming the failed checks (r_hat, ESS, divergences)."""
    if diagnostics.ok:
        return
    warnings.warn(
        "the MCMC fit may be unreliable: "
        + "; ".join(diagnostics.problems())
        + f" ({diagnostics.describe()}); "
        + (
            f"divergences: {divergence_hint}"
            if diagnostics.divergences
            else "increase draws (and tune)"
        ),
        SamplingWarning,
        stacklevel=stacklevel,
    )


def summary_options(confidence_level: Any, point: Any, interval: Any) -> tuple[float, str, str]:
    """Validate the posterior summary's level (a scalar), point and interval kind."""
    level = check_confidence_level(confidence_level)
    if np.ndim(level):
        raise ArgumentTypeError(f"confidence_level must be a scalar, got {confidence_level!r}")
    point = check_choice("point", point, POINTS)
    return level, point, check_choice("interval", interval, INTERVALS)


def sample_checked(
    model: Any, free: list[str], divergence_hint: str, kwargs: dict[str, Any], *, stacklevel: int
) -> tuple[Any, Any]:
    """Sample, diagnose the free variables and warn if the fit is unreliable.

    ``kwargs`` are checked ``pymc.sample`` arguments (from :func:`sampling_arguments`).

    Returns the DataTree and its :class:`~judgestats.bayes.results.SamplingDiagnostics`.
    """
    tree = _run(model, kwargs)
    diagnostics = diagnose(tree, free)
    warn_if_unreliable(diagnostics, divergence_hint, stacklevel=stacklevel + 1)
    return tree, diagnostics


def fit(
    test: Any,
    calibration: Any,
    *,
    priors: Priors | None = None,
    labels: Any = None,
    confidence_level: float = 0.95,
    point: str = "mean",
    interval: str = "eti",
    design: str = DEFAULT_DESIGN,
    **sampling: Unpack[SamplingOptions],
) -> BayesianCorrection | BayesianDistributionCorrection:
    """Fit the Bayesian misclassification model by MCMC and summarise θ.

    Binary counts give the Beta model, k-category counts the Dirichlet model (see
    :func:`judgestats.bayes.build_model`); either way the test and calibration counts inform
    θ and the judge's error rates jointly.

    Parameters
    ----------
    test : JudgedCounts, CategoryCounts or array_like
        Judge labels on the test set (binary counts, or k-category counts / a length-k vector).
    calibration : ConfusionCounts, ConfusionMatrix or array_like
        Human-vs-judge counts (binary, or k×k with rows = judge label, columns = human label).
    priors : Priors, optional
        Flat Beta / Dirichlet priors by default.
    labels : sequence, optional
        k-category labels for plain arrays.
    confidence_level : float, default 0.95
        Mass of the credible interval; stored on the result.
    point : {"mean", "median", "map"}, default "mean"
        Posterior summary reported as ``estimate``; "map" is the mode of the marginal posterior
        of θ (per category), estimated from the draws (ArviZ's half-sample mode).
    interval : {"eti", "hdi"}, default "eti"
        Equal-tailed or highest-density credible interval (computed by ArviZ with
        ``prob=confidence_level``).
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How the calibration items were chosen (binary counts only for the other designs: the
        three-binomial model of :func:`judgestats.bayes.build_model`, the MCMC twin of
        ``js.correct(..., design=design, method="bayes")``).
    **sampling
        How to run NUTS (:class:`SamplingOptions`, as in :func:`sample`): ``draws=1000``,
        ``tune=1000``, ``chains=4``, ``cores``, ``random_seed`` (the same int gives the same
        draws), ``sampler`` ("pymc", "nutpie", "numpyro"), ``backend`` ("numba" or "c"; on
        these machines numba compiled the k-category model faster, see
        ``benchmarks/results/bayes.md``), ``progress`` (None: PyMC's bar when interactive; a
        fit takes 10–20 s, 4 chains on one core), ``sample_kwargs`` (e.g.
        ``{"target_accept": 0.999}``; NUTS's ``target_accept`` is :data:`TARGET_ACCEPT`, 0.995,
        unless set there: PyMC's 0.8 diverges on data sets with a zero cell).

    Returns
    -------
    BayesianCorrection or BayesianDistributionCorrection
        ``estimate``, ``ci`` and the rest of ``Correction`` / ``DistributionCorrection``,
        plus ``posterior`` (the DataTree) and ``diagnostics``.

    Raises
    ------
    ArgumentTypeError, CountError, LabelError, PriorError, MethodError, ConfidenceLevelError
        On invalid arguments (checked before anything is compiled or sampled).
    ImportError
        If the requested sampler is not installed.

    Warns
    -----
    SamplingWarning
        When the fit looks unreliable: max r_hat > 1.01, bulk or tail ESS < 400, or any
        divergent transition (the result is returned all the same; ``diagnostics`` says which).

    See Also
    --------
    correct : The frequentist correction.
    bayes.fit_stratified : The Bayesian stratified model.
    bayes.fit_pairwise : The Bayesian pairwise model.

    Examples
    --------
    MCMC takes a while, so this example is not run by the test suite (tests/bayes/test_fit.py
    checks the fits against the exact posterior):

    >>> import judgestats as js
    >>> res = js.bayes.fit(js.JudgedCounts(positive=600, n=1000),  # doctest: +SKIP
    ...                    js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30), random_seed=1)
    >>> res.estimate, res.ci  # posterior mean, 95% ETI  # doctest: +SKIP
    """
    level, point, interval = summary_options(confidence_level, point, interval)
    kwargs = sampling_arguments(sampling)
    binary = is_binary(test, calibration)
    design = as_design(design)
    check_model_data(test, calibration)
    # validates the counts, labels and priors (before anything is compiled)
    built = design_model(test, calibration, priors=priors, labels=labels, design=design)
    model, free, priors = built.model, built.free, built.priors
    tree, diagnostics = sample_checked(
        model,
        list(free),
        "try sample_kwargs={'target_accept': 0.999} or check the model",
        kwargs,
        stacklevel=3,
    )
    est, low, high = summarise(tree, "theta", point=point, interval=interval, level=level)
    common = {
        "method": METHOD,
        "confidence_level": level,
        "posterior": tree,
        "point": point,
        "interval": interval,
        "sampler": kwargs["nuts_sampler"],
        "diagnostics": diagnostics,
        "priors": priors,
    }
    if binary:
        return _binary_result(test, calibration, float(est), float(low), float(high), common,
                              design)  # fmt: skip
    counts, matrix, labels, letters = categorical_data(test, calibration, labels)
    return _categorical_result(counts, matrix, labels, letters, tree, est, low, high, common)


def _binary_result(
    test: JudgedCounts, cal: ConfusionCounts, est: float, low: float, high: float, common: dict,
    design: Design = DEFAULT_DESIGN,
) -> BayesianCorrection:  # fmt: skip
    ci = ConfidenceInterval(low, high, METHOD, common["confidence_level"])
    # NaN z when q̂0 + q̂1 <= 1 (no RG estimate); None with one human class
    shift = label_shift_test(test, cal) if cal.has_both_classes else None
    return BayesianCorrection(
        estimate=est,
        ci=ci,
        estimate_unclipped=est,
        clipped=False,
        test=test,
        calibration=cal,
        label_shift=shift,
        estimator=f"posterior {common['point']} (PyMC)",
        design=design,
        **common,
    )


def _categorical_result(
    counts: np.ndarray,
    matrix: np.ndarray,
    labels: tuple,
    letters: tuple,
    tree: Any,
    est: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    common: dict,
) -> BayesianDistributionCorrection:
    from ..counts.categories import CategoryCounts, ConfusionMatrix
    from ..multiclass.arrays import MAX_CONDITION

    test = CategoryCounts(counts, letters)
    square = tuple(letters) == tuple(labels)
    cal = ConfusionMatrix(matrix, labels, judge_labels=None if square else letters)
    level = common["confidence_level"]
    draws = np.asarray(tree["posterior"]["theta"].transpose("chain", "draw", "category"))
    cov = np.cov(draws.reshape(-1, len(labels)), rowvar=False)
    estimate = dict(zip(labels, est.tolist(), strict=True))
    ci = {
        lab: ConfidenceInterval(float(lo), float(hi), METHOD, level)
        for lab, lo, hi in zip(labels, low, high, strict=True)
    }
    return BayesianDistributionCorrection(
        labels=labels,
        estimate=estimate,
        ci=ci,
        estimate_unconstrained=dict(estimate),
        projected=False,
        test=test,
        calibration=cal,
        condition_number=cal.condition_number,
        max_condition=MAX_CONDITION,
        covariance=cov,
        **common,
    )
