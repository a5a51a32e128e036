"""Simulation with known truth: coverage, length and bias of interval methods and estimators.

Data are drawn as sufficient statistics (binomial counts), never item by item:

* test set: positive ~ Bin(n, p) with p = q1·θ + (1 − q0)(1 − θ) (paper eq. (13));
* calibration set, stratified by true class (the paper's design): tn ~ Bin(m0, q0),
  tp ~ Bin(m1, q1); or, with ``theta_calibration`` (label shift, θ_Q ≠ θ_P), a random class
  split m1 ~ Bin(m0 + m1, θ_Q) first;
* ``allocation="algorithm1"``: a pilot of ``pilot`` items per class, then the paper's Algorithm 1
  splits the rest of the budget m0 + m1 per replication from p̂ and the pilot;
  ``allocation="optimal"``: the oracle width-minimising split for the true p, q0, q1;
* k categories (:func:`draw_categories`, multinomial counts) and covariate strata with a
  stratum-dependent judge (:func:`draw_strata`).

Every function takes ``rng`` (seed or Generator) and is reproducible for a given seed. Results
are :class:`xarray.Dataset` objects (xarray is imported lazily).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import (
    JudgeStatsError,
    check_budget,
    check_choice,
    check_confidence_level,
    check_count,
    check_method,
    check_probability,
    check_rng,
    pop_renamed,
    require_extra,
    warn_deprecated,
)
from .counts import ConfusionCounts, JudgedCounts
from .designs import BY_HUMAN_LABEL, Design
from .designs.capabilities import methods_for
from .estimators import RAW_ESTIMATORS
from .intervals import METHODS, NAIVE, implementation, naive_bounds, rate_spec, spec_bounds
from .progress import counter
from .spec import AUTO, EstimationSpec

__all__ = [
    "SimulatedCategories",
    "SimulatedData",
    "SimulatedStrata",
    "coverage",
    "draw",
    "draw_categories",
    "draw_strata",
    "estimator_bias",
]

_CHUNK_ELEMENTS = 2_000_000  # replications held in memory at once (per array)
_STEP_ELEMENTS = 2_000  # data sets per step of the progress bar (whole cells, at least one)
#: The design :func:`draw` simulates: classes fixed (or split at random under label shift),
#: corrected by Rogan–Gladen.
_DESIGN = BY_HUMAN_LABEL


@dataclass(frozen=True, slots=True)
class SimulatedData:
    """Batched counts from :func:`draw`, with a mask of usable replications.

    ``valid`` is False where a random class split left a calibration class empty (only possible
    with ``theta_calibration``); such replications hold placeholder counts and are reported as
    undefined by :func:`coverage`.

    Examples
    --------
    Made by :func:`draw`; the counts are arrays over the replicates:

    >>> import judgestats as js
    >>> data = js.simulate.draw(theta=0.3, q0=0.8, q1=0.9, n=1000, m0=100, m1=100, reps=3, rng=0)
    >>> data.test.positive.shape, data.valid.all()
    ((3,), np.True_)
    """

    test: JudgedCounts
    calibration: ConfusionCounts
    valid: np.ndarray


def _judged_rate(theta, q0, q1):
    return q1 * theta + (1.0 - q0) * (1.0 - theta)


def _algorithm1_m1(m, pilot, p_hat, tn_pilot, tp_pilot):
    """Algorithm 1, vectorised over replications (limits at p̂ in {0, 1}, no warnings)."""
    q0_t = (tn_pilot + 1.0) / (pilot + 2.0)
    q1_t = (tp_pilot + 1.0) / (pilot + 2.0)
    root_kappa = np.sqrt((1.0 - q0_t) / (1.0 - q1_t))
    with np.errstate(divide="ignore"):
        ratio = np.where(p_hat > 0, 1.0 / np.where(p_hat > 0, p_hat, 1.0) - 1.0, np.inf)
    m1_star = np.where(np.isinf(ratio), 0.0, np.rint(m / (1.0 + ratio * root_kappa)))
    return np.clip(m1_star, pilot, m - pilot).astype(np.int64)  # np.rint: half to even


def _compact(a: np.ndarray) -> Any:
    """Return a Python scalar when every element is equal (numpy's fast scalar path)."""
    flat = a.reshape(-1)
    return flat[0].item() if flat.size and np.all(flat == flat[0]) else a


def _draw_arrays(theta, q0, q1, n, m0, m1, reps, theta_cal, allocation, pilot, gen):
    """Raw count arrays of shape (..., reps) for broadcast parameter arrays of shape (...).

    Counts that do not vary (n, and m0, m1 in the fixed design) are returned unbroadcast.
    """
    ex = (..., None)
    theta, q0, q1, n, m0, m1 = (np.asarray(a)[ex] for a in (theta, q0, q1, n, m0, m1))
    shapes = [a.shape for a in (theta, q0, q1, n, m0, m1)]
    if theta_cal is not None:
        shapes.append(np.asarray(theta_cal)[ex].shape)
    shape = (*np.broadcast_shapes(*shapes)[:-1], reps)
    p = _compact(_judged_rate(theta, q0, q1))
    q0c, q1c = _compact(q0), _compact(q1)
    n = _compact(n.astype(np.int64))
    positive = gen.binomial(n, p, size=shape)
    if theta_cal is not None:
        m_tot = _compact((m0 + m1).astype(np.int64))
        c1 = gen.binomial(m_tot, _compact(np.asarray(theta_cal)[ex]), size=shape)
        c0 = m_tot - c1
    elif allocation == "algorithm1":
        m_tot = _compact((m0 + m1).astype(np.int64))
        tn_pilot = gen.binomial(pilot, q0c, size=shape)
        tp_pilot = gen.binomial(pilot, q1c, size=shape)
        c1 = _algorithm1_m1(m_tot, pilot, positive / n, tn_pilot, tp_pilot)
        c0 = m_tot - c1
        tn = tn_pilot + gen.binomial(c0 - pilot, q0c)
        tp = tp_pilot + gen.binomial(c1 - pilot, q1c)
        return positive, n, tp, c1 - tp, tn, c0 - tn
    else:
        c0 = _compact(m0.astype(np.int64))
        c1 = _compact(m1.astype(np.int64))
    tn = gen.binomial(c0, q0c, size=shape)
    tp = gen.binomial(c1, q1c, size=shape)
    return positive, n, tp, c1 - tp, tn, c0 - tn


def _validated_params(theta, q0, q1, n, m0, m1, theta_calibration):
    theta = check_probability("theta", theta)
    q0 = check_probability("q0", q0)
    q1 = check_probability("q1", q1)
    n = check_count("n", n, minimum=1)
    m0 = check_count("m0", m0)
    m1 = check_count("m1", m1)
    if theta_calibration is not None:
        theta_calibration = check_probability("theta_calibration", theta_calibration)
    return theta, q0, q1, n, m0, m1, theta_calibration


def draw(
    *,
    theta: Any,
    q0: Any,
    q1: Any,
    n: Any,
    m0: Any,
    m1: Any,
    reps: int,
    theta_calibration: Any = None,
    allocation: str = "fixed",
    pilot: int = 10,
    rng: Any = None,
) -> SimulatedData:
    """Draw ``reps`` data sets (test counts and calibration counts) with known truth.

    Parameters
    ----------
    theta : float or array_like
        True rate θ_P on the test distribution.
    q0, q1 : float or array_like
        The judge's specificity and sensitivity (shared by test and calibration items).
    n : int or array_like
        Test-set size.
    m0, m1 : int or array_like
        Calibration items per true class (``allocation="fixed"``); with ``theta_calibration`` or
        ``allocation="algorithm1"`` only their sum m = m0 + m1 matters.
    reps : int
        Replications (last axis of every count array).
    theta_calibration : float or array_like, optional
        True rate θ_Q of the calibration distribution (label shift): the class split becomes
        random, m1 ~ Bin(m, θ_Q).
    allocation : {"fixed", "algorithm1"}
        ``"algorithm1"``: ``pilot`` items per class, the rest split by the paper's Algorithm 1.
    pilot : int, default 10
        Pilot size per class for ``"algorithm1"``.
    rng : None, int, SeedSequence or Generator
        Source of randomness (a seed makes the draw reproducible).

    Returns
    -------
    SimulatedData
        Batched counts of shape broadcast(parameters) + (reps,).

    Examples
    --------
    Three data sets from one cell (true rate 0.3, a judge with q0 = 0.8 and q1 = 0.9, 100
    calibration items per human class):

    >>> import judgestats as js
    >>> data = js.simulate.draw(theta=0.3, q0=0.8, q1=0.9, n=1000, m0=100, m1=100, reps=3, rng=0)
    >>> data.test.positive, data.calibration.tp
    (array([431, 411, 415]), array([97, 87, 95]))
    """
    reps = check_budget("reps", reps, minimum=1)
    check_choice("allocation", allocation, ("fixed", "algorithm1"))
    theta, q0, q1, n, m0, m1, theta_cal = _validated_params(
        theta, q0, q1, n, m0, m1, theta_calibration
    )
    pilot = check_budget("pilot", pilot, minimum=0)
    if allocation == "algorithm1":
        if theta_cal is not None:
            raise JudgeStatsError(
                "allocation='algorithm1' draws classes by design; drop theta_calibration"
            )
        if np.any(2 * pilot > np.asarray(m0) + np.asarray(m1)):
            raise JudgeStatsError(f"the budget m0 + m1 must be at least 2·pilot = {2 * pilot}")
    gen = check_rng(rng)
    arrays = _draw_arrays(theta, q0, q1, n, m0, m1, reps, theta_cal, allocation, pilot, gen)
    return _wrap(*arrays)


def _wrap(positive, n, tp, fn, tn, fp) -> SimulatedData:
    valid = ((tp + fn) > 0) & ((tn + fp) > 0)
    if not valid.all():  # placeholder counts where a class is empty; masked as undefined
        tp = np.where(valid, tp, 1)
        fn = np.where(valid, fn, 0)
        tn = np.where(valid, tn, 1)
        fp = np.where(valid, fp, 0)
    return SimulatedData(
        JudgedCounts(positive=positive, n=n), ConfusionCounts(tp=tp, fn=fn, tn=tn, fp=fp), valid
    )


# ----------------------------------------------------------------------------- coverage
def _method_arrays(spec: EstimationSpec | None, data: SimulatedData, level, gen):
    est: Any
    if spec is None:  # the naive p̂ with its Wilson interval
        b = naive_bounds(data.test, level)
        low, high, est = b.low, b.high, b.estimate
    else:
        b = spec_bounds(spec, data.test, data.calibration, gen)
        low, high = b.low, b.high
        if b.estimate is not None:
            est = b.estimate
        else:
            est = RAW_ESTIMATORS["misclassification_adjusted"](data.test, data.calibration)
    undefined = ~data.valid | np.isnan(low) | np.isnan(high)
    return (
        np.where(undefined, np.nan, low),
        np.where(undefined, np.nan, high),
        np.where(undefined, np.nan, est),
        undefined,
    )


def _as_axis(name: str, value: Any) -> np.ndarray | None:
    arr = np.asarray(value)
    if arr.ndim > 1:
        raise JudgeStatsError(
            f"{name} must be a scalar or a 1-D array to sweep, got shape {arr.shape}"
        )
    return arr if arr.ndim == 1 else None


def study_specs(
    methods: Any, *, design: Design, confidence_level: Any,
    method_options: Mapping[str, Any] | None, capability: str,
) -> tuple[tuple[str, ...], tuple[EstimationSpec | None, ...]]:  # fmt: skip
    """Resolve a study's interval methods into their specs, once (None: ``"naive-wilson"``).

    A study runs the methods of :func:`judgestats.correct` under ``design`` (its row of the
    capability table, :mod:`judgestats.designs.capabilities`, but ``"auto"``, which chooses
    per data set) and ``"naive-wilson"``; ``methods=None`` runs them all. Each method's
    options (``method_options[name]``) are checked against what it takes; ``capability``
    names the study in the error of a method it cannot run.
    """
    available = (*(m for m in methods_for("letter", "rate", design) if m != AUTO), NAIVE)
    if methods is None:
        methods = available
    methods = (methods,) if isinstance(methods, str) else tuple(methods)
    if not methods:
        raise JudgeStatsError("methods must name at least one method")
    options = method_options or {}
    specs: list[EstimationSpec | None] = []
    for mth in methods:
        check_method(mth, available, capability=capability)
        specs.append(None if mth == NAIVE else rate_spec(
            method=mth, confidence_level=confidence_level, design=design,
            options=options.get(mth)))  # fmt: skip
    return methods, tuple(specs)


def _rows(a: Any, cells: slice) -> Any:
    """Rows ``cells`` of a count array of shape (cells, reps); unbroadcast counts stay."""
    a = np.asarray(a)
    return a[cells] if a.ndim and a.shape[0] > 1 else a


def _draws_randomness(spec: EstimationSpec | None) -> bool:
    """Whether a method draws from the generator (resampling, or a user's method)."""
    if spec is None:
        return False
    impl = implementation(spec.design, spec.method)
    builtin = any(m is impl for m in METHODS)
    return not builtin or "n_resamples" in impl.options


def _simulate_chunk(out, cols, params, specs, *, reps, level, allocation, pilot, gen, done):
    """Draw ``reps`` data sets for each cell of ``params`` and accumulate every method's stats.

    The methods that draw from the generator run on the whole chunk (so a seed gives the same
    numbers whatever the progress display); the others in steps of whole cells of about
    :data:`_STEP_ELEMENTS` data sets, and ``done(k)`` counts the k cells of a step as their
    last replications are accumulated.
    """
    draw_alloc = "algorithm1" if allocation == "algorithm1" else "fixed"
    random = [i for i, spec in enumerate(specs) if _draws_randomness(spec)]
    for r0 in range(0, reps, _CHUNK_ELEMENTS):  # bound memory for huge reps
        nr = min(reps - r0, _CHUNK_ELEMENTS)
        arrays = _draw_arrays(
            params["theta"], params["q0"], params["q1"], params["n"], params["m0"],
            params["m1"], nr, params.get("theta_calibration"), draw_alloc, pilot, gen,
        )  # fmt: skip
        truth = params["theta"][:, None]
        data = _wrap(*arrays)
        for i in random:
            low, high, est, undef = _method_arrays(specs[i], data, level, gen)
            _accumulate(out, i, cols, r0, nr, reps, low, high, est, undef, truth)
        step = max(1, _STEP_ELEMENTS // nr)  # cells per step of the deterministic methods
        for j in range(0, truth.shape[0], step):
            some = slice(j, min(j + step, truth.shape[0]))
            cell = _wrap(*(_rows(a, some) for a in arrays))
            at = slice(cols.start + some.start, cols.start + some.stop)
            for i, spec in enumerate(specs):
                if i not in random:
                    low, high, est, undef = _method_arrays(spec, cell, level, gen)
                    _accumulate(out, i, at, r0, nr, reps, low, high, est, undef, truth[some])
            if r0 + nr == reps:
                done(some.stop - some.start)


def coverage(
    *,
    theta: Any,
    q0: Any,
    q1: Any,
    n: Any,
    m0: Any,
    m1: Any,
    reps: int,
    methods: Any = ("adjusted-wald",),
    confidence_level: float = 0.95,
    theta_calibration: Any = None,
    allocation: str = "fixed",
    pilot: int = 10,
    method_options: dict[str, dict[str, Any]] | None = None,
    rng: Any = None,
    progress: bool | None = None,
):
    """Coverage, mean length, bias and RMSE of interval methods against a known θ.

    Any of ``theta, q0, q1, n, m0, m1, theta_calibration`` given as a 1-D array is swept: it
    becomes a dimension of the result (the grid is their outer product). Each grid point gets
    ``reps`` replications drawn by :func:`draw`; all methods see the same data.

    Parameters
    ----------
    theta, q0, q1, n, m0, m1, theta_calibration, allocation, pilot
        As in :func:`draw`; ``allocation`` may also be ``"optimal"`` (oracle split of m0 + m1
        minimising the adjusted-Wald width at the true p, q0, q1).
    reps : int
        Replications per grid point.
    methods : sequence of str
        Registered interval methods (:func:`judgestats.interval_methods`) and/or
        ``"naive-wilson"`` (the uncorrected p̂ with a Wilson interval, for contrast).
    confidence_level : float, default 0.95
        Two-sided level of every interval.
    method_options : dict, optional
        Per-method options, e.g. ``{"bootstrap": {"n_resamples": 500}}``.
    rng : None, int, SeedSequence or Generator
        Source of randomness (a seed makes the study reproducible).
    progress : bool or None, default None
        Show a progress bar over the grid (None: when interactive and the study takes more
        than two seconds; see :mod:`judgestats.progress`).

    Returns
    -------
    xarray.Dataset
        Dims ``method`` plus every swept argument; variables ``coverage`` (share of defined
        replications whose interval contains θ), ``mean_length``, ``bias`` and ``rmse`` of the
        method's point estimate (clipped Rogan–Gladen unless the method has its own; p̂ for
        ``naive-wilson``), and ``undefined`` (share of replications where the method gave no
        interval, e.g. q̂0 + q̂1 <= 1; counted, never silently dropped). Attributes record
        ``reps``, ``confidence_level``, ``allocation`` and the fixed arguments.

    Notes
    -----
    ``method`` is also the name of an argument of ``xarray.Dataset.sel``, so select a method
    with a dict: ``ds.sel({"method": "wald"})`` (``ds.sel(method="wald")`` would not select).

    Examples
    --------
    The paper's interval in one cell, 2,000 simulated data sets (a fast check; the benchmarks run
    the full grids):

    >>> import judgestats as js
    >>> ds = js.simulate.coverage(theta=0.3, q0=0.8, q1=0.9, n=1000, m0=100, m1=100, reps=2000,
    ...                           methods=["adjusted-wald"], confidence_level=0.95, rng=0,
    ...                           progress=False)
    >>> table = ds[["coverage", "mean_length", "undefined"]].to_pandas().round(3)
    >>> print(table)  # doctest: +NORMALIZE_WHITESPACE
                   coverage  mean_length  undefined
    method
    adjusted-wald     0.954        0.192        0.0
    """
    require_extra("xarray", "simulate.coverage")
    import xarray as xr

    reps = check_budget("reps", reps, minimum=1)
    level = float(check_confidence_level(confidence_level))
    if np.ndim(level):
        raise JudgeStatsError("confidence_level must be a scalar here")
    check_choice("allocation", allocation, ("fixed", "algorithm1", "optimal"))
    methods, specs = study_specs(methods, design=_DESIGN, confidence_level=level,
                                 method_options=method_options, capability="simulations")
    gen = check_rng(rng)

    args = {"theta": theta, "q0": q0, "q1": q1, "n": n, "m0": m0, "m1": m1}
    if theta_calibration is not None:
        args["theta_calibration"] = theta_calibration
    _validated_params(theta, q0, q1, n, m0, m1, theta_calibration)
    swept = {k: ax for k, v in args.items() if (ax := _as_axis(k, v)) is not None}
    fixed = {k: np.asarray(v).item() for k, v in args.items() if k not in swept}
    names = list(swept)
    grid = list(itertools.product(*(range(len(swept[k])) for k in names)))
    shape = tuple(len(swept[k]) for k in names)
    out = {
        v: np.full((len(methods), len(grid)), np.nan)
        for v in ("coverage", "mean_length", "bias", "rmse", "undefined")
    }
    rows_per_chunk = max(1, _CHUNK_ELEMENTS // reps)
    bar = counter(total=len(grid), desc="cells", enabled=progress)  # advanced per cell
    for start in range(0, len(grid), rows_per_chunk):
        cells = grid[start : start + rows_per_chunk]
        params = {k: np.full(len(cells), v) for k, v in fixed.items()}
        params.update({k: np.array([swept[k][c[i]] for c in cells]) for i, k in enumerate(names)})
        if allocation == "optimal":
            params["m0"], params["m1"] = _oracle_splits(params, level)
        _simulate_chunk(
            out, slice(start, start + len(cells)), params, specs, reps=reps, level=level,
            allocation=allocation, pilot=pilot, gen=gen, done=bar.update,
        )  # fmt: skip
    bar.close()
    ds = xr.Dataset(
        {k: (("method", *names), v.reshape((len(methods), *shape))) for k, v in out.items()},
        coords={"method": list(methods), **{k: swept[k] for k in names}},
    )
    ds.attrs.update(
        reps=reps,
        confidence_level=level,
        allocation=allocation,
        pilot=pilot,
        **{k: v for k, v in fixed.items()},
    )
    return ds


def _accumulate(out, i, cols, r0, nr, reps, low, high, est, undef, truth) -> None:
    """Accumulate running means over replication chunks (exact for a single chunk)."""
    defined = ~undef
    k = np.maximum(defined.sum(axis=1), 1)
    with np.errstate(invalid="ignore"):
        cover = np.where(defined, (low <= truth) & (truth <= high), False).sum(axis=1) / k
        length = np.nansum(np.where(defined, high - low, 0.0), axis=1) / k
        bias = np.nansum(np.where(defined, est - truth, 0.0), axis=1) / k
        mse = np.nansum(np.where(defined, (est - truth) ** 2, 0.0), axis=1) / k
    has = defined.any(axis=1)
    stats = {"coverage": cover, "mean_length": length, "bias": bias, "rmse": mse}
    w_new = nr / reps
    for name, val in stats.items():
        val = np.where(has, val, np.nan)
        prev = out[name][i, cols]
        out[name][i, cols] = val * w_new if r0 == 0 else prev + val * w_new
    undef_frac = undef.mean(axis=1) * w_new
    out["undefined"][i, cols] = undef_frac if r0 == 0 else out["undefined"][i, cols] + undef_frac
    if r0 + nr == reps:
        out["rmse"][i, cols] = np.sqrt(out["rmse"][i, cols])


def _oracle_splits(params, level) -> tuple[np.ndarray, np.ndarray]:
    from .plan import optimal_allocation

    m0 = np.empty(len(params["theta"]), dtype=np.int64)
    m1 = np.empty_like(m0)
    for j in range(len(m0)):
        th, a, b = params["theta"][j], params["q0"][j], params["q1"][j]
        alloc = optimal_allocation(
            int(params["m0"][j] + params["m1"][j]),
            p=float(_judged_rate(th, a, b)),
            q0=float(a),
            q1=float(b),
            n=float(params["n"][j]),
            confidence_level=level,
        )
        m0[j], m1[j] = alloc.m0, alloc.m1
    return m0, m1


# ----------------------------------------------------------------------------- estimators
def estimator_bias(
    *,
    theta: float = 0.5,
    theta_calibration: Any = (0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75),
    q0: float = 0.7,
    q1: float = 0.9,
    n: int = 1000,
    m: int = 200,
    reps: int = 10_000,
    estimators: Any = None,
    rng: Any = None,
    **renamed: Any,
):
    """Bias of the five estimators of the paper's Table under label shift (the paper's Figure 8).

    The test set has true rate θ_P = ``theta`` (``theta_test`` is its deprecated name); the
    calibration set of size ``m`` has true rate θ_Q (swept over ``theta_calibration``), its
    classes drawn at random; the judge's error rates q0, q1 are shared. Defaults are the
    paper's setting (θ_P = 0.5, θ_Q in [0.25, 0.75], q0 = .7, q1 = .9, n = 1000, m = 200,
    10,000 replications).

    Returns
    -------
    xarray.Dataset
        Dims (``estimator``, ``theta_calibration``); variables ``bias``, ``sd``, ``rmse`` of the
        estimates against θ_P, and ``undefined`` (share of replications where an estimator was
        undefined — e.g. conditional calibration with no judged-1 item, or q̂0 + q̂1 <= 1 for
        Rogan–Gladen — excluded from the moments and counted here).

    Examples
    --------
    The five estimators' bias when the calibration set's human rate (0.3) differs from the test
    set's (0.5), and when it does not: only Rogan–Gladen (misclassification_adjusted) is unbiased
    under that label shift.

    >>> import judgestats as js
    >>> ds = js.simulate.estimator_bias(theta=0.5, theta_calibration=[0.3, 0.5], reps=2000, rng=0)
    >>> print(ds["bias"].to_pandas().round(2))  # doctest: +NORMALIZE_WHITESPACE
    theta_calibration            0.3  0.5
    estimator
    naive                       0.10  0.1
    calibration_only           -0.20  0.0
    prediction_powered         -0.08  0.0
    conditional_calibration    -0.14  0.0
    misclassification_adjusted -0.00 -0.0
    """
    require_extra("xarray", "simulate.estimator_bias")
    import xarray as xr

    theta = pop_renamed(renamed, {"theta_test": "theta"}, "estimator_bias").get("theta", theta)
    reps = check_budget("reps", reps, minimum=1)
    names = (
        tuple(RAW_ESTIMATORS)
        if estimators is None
        else ((estimators,) if isinstance(estimators, str) else tuple(estimators))
    )
    if "difference" in names:
        warn_deprecated("estimator 'difference'", "'prediction_powered'")
        names = tuple("prediction_powered" if e == "difference" else e for e in names)
    for e in names:
        check_choice("estimator", e, tuple(RAW_ESTIMATORS))
    tq = np.atleast_1d(check_probability("theta_calibration", theta_calibration))
    if tq.ndim != 1:
        raise JudgeStatsError("theta_calibration must be a scalar or 1-D array")
    m = check_budget("m", m, minimum=2)
    sim = draw(
        theta=theta,
        q0=q0,
        q1=q1,
        n=n,
        m0=m // 2,
        m1=m - m // 2,
        reps=reps,
        theta_calibration=tq,
        rng=rng,
    )
    theta_p = float(check_probability("theta", theta))
    res = {k: np.empty((len(names), tq.size)) for k in ("bias", "sd", "rmse", "undefined")}
    for i, e in enumerate(names):
        with np.errstate(invalid="ignore", divide="ignore"):
            est = np.asarray(RAW_ESTIMATORS[e](sim.test, sim.calibration), dtype=float)
        est = np.where(sim.valid, est, np.nan)
        undef = np.isnan(est)
        err = est - theta_p
        res["bias"][i] = np.nanmean(err, axis=-1)
        res["sd"][i] = np.nanstd(est, axis=-1)
        res["rmse"][i] = np.sqrt(np.nanmean(err**2, axis=-1))
        res["undefined"][i] = undef.mean(axis=-1)
    ds = xr.Dataset(
        {k: (("estimator", "theta_calibration"), v) for k, v in res.items()},
        coords={"estimator": list(names), "theta_calibration": tq},
    )
    ds.attrs.update(theta=theta_p, q0=q0, q1=q1, n=n, m=m, reps=reps)
    return ds


# ----------------------------------------------------------------------------- k categories
@dataclass(frozen=True, slots=True)
class SimulatedCategories:
    """Batched k-category data from :func:`draw_categories` (last axes: categories).

    ``test`` has shape (reps, k): judged counts per category. ``calibration`` has shape
    (reps, k, k): rows = judge label, columns = human label (the layout of
    :class:`judgestats.ConfusionMatrix`); feed both to
    :func:`judgestats.multiclass.distribution_bounds`.

    Examples
    --------
    Made by :func:`draw_categories`; every replicate's test counts add up to n:

    >>> import numpy as np
    >>> import judgestats as js
    >>> confusion = np.array([[0.9, 0.2], [0.1, 0.8]])
    >>> data = js.simulate.draw_categories(theta=[0.6, 0.4], confusion=confusion, n=500, m=[40, 40],
    ...                                    reps=3, rng=0)
    >>> data.test.sum(axis=-1).tolist()
    [500, 500, 500]
    """

    test: np.ndarray
    calibration: np.ndarray


def _check_confusion(confusion: Any) -> np.ndarray:
    c = np.asarray(check_probability("confusion", confusion), dtype=float)
    if c.ndim != 2 or c.shape[0] != c.shape[1] or c.shape[0] < 2:
        raise JudgeStatsError(f"confusion must be a k x k matrix with k >= 2, got shape {c.shape}")
    bad = np.abs(c.sum(axis=0) - 1.0) > 1e-9
    if bad.any():
        j = int(np.argmax(bad))
        raise JudgeStatsError(
            "confusion columns are P(judge = a | human = b) and must sum to 1; column "
            f"{j} sums to {c[:, j].sum():.6g}"
        )
    return c


def draw_categories(
    *,
    theta: Any,
    confusion: Any,
    n: int,
    m: Any,
    reps: int,
    theta_calibration: Any = None,
    rng: Any = None,
) -> SimulatedCategories:
    """Draw k-category test and calibration counts (paper appendix, multi-category model).

    Test judged counts ~ Multinomial(n, C θ). Calibration: with an int ``m``, true classes
    ~ Multinomial(m, θ_Q) (θ_Q = ``theta_calibration``, default θ), then column b of the
    confusion counts ~ Multinomial(m_b, C[:, b]); with a length-k ``m``, m_b items per true
    class (stratified, like m0, m1 in :func:`draw`).

    Parameters
    ----------
    theta : array_like, shape (k,)
        True category distribution on the test set (sums to 1).
    confusion : array_like, shape (k, k)
        C[a, b] = P(judge = a | human = b); columns sum to 1.
    n : int
        Test-set size.
    m : int or array_like of int, shape (k,)
        Calibration size (random class mix) or per-class sizes (stratified).
    reps : int
        Replications: the first axis of both count arrays.
    theta_calibration : array_like, shape (k,), optional
        True distribution of the calibration set (label shift).
    rng : None, int, SeedSequence or Generator
        Source of randomness.

    Returns
    -------
    SimulatedCategories
        Judged test counts of shape (reps, k) and confusion counts of shape (reps, k, k).

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> confusion = np.array([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]])
    >>> data = js.simulate.draw_categories(theta=[0.5, 0.3, 0.2], confusion=confusion, n=1000,
    ...                                    m=[50, 50, 50], reps=2, rng=0)
    >>> data.test.shape, data.calibration.shape
    ((2, 3), (2, 3, 3))
    """
    reps = check_budget("reps", reps, minimum=1)
    c = _check_confusion(confusion)
    k = c.shape[0]
    th = np.asarray(check_probability("theta", theta), dtype=float)
    if th.shape != (k,) or abs(th.sum() - 1.0) > 1e-9:
        raise JudgeStatsError(f"theta must be a distribution over the {k} categories, got {th!r}")
    tq = (
        th
        if theta_calibration is None
        else np.asarray(check_probability("theta_calibration", theta_calibration), dtype=float)
    )
    if tq.shape != (k,) or abs(tq.sum() - 1.0) > 1e-9:
        raise JudgeStatsError(f"theta_calibration must be a distribution over {k} categories")
    n = check_budget("n", n, minimum=1)
    gen = check_rng(rng)
    test = gen.multinomial(n, c @ th, size=reps)
    m_arr = np.asarray(check_count("m", m))
    if m_arr.ndim == 0:
        per_class = gen.multinomial(int(m_arr), tq, size=reps)  # (reps, k)
    elif m_arr.shape == (k,):
        per_class = np.broadcast_to(m_arr, (reps, k))
    else:
        raise JudgeStatsError(f"m must be an int or {k} per-class sizes, got shape {m_arr.shape}")
    cal = np.stack([gen.multinomial(per_class[:, b], c[:, b]) for b in range(k)], axis=-1)
    return SimulatedCategories(test=test, calibration=cal)


# ----------------------------------------------------------------------------- strata
@dataclass(frozen=True, slots=True)
class SimulatedStrata:
    """Batched stratified data from :func:`draw_strata`.

    ``tests`` and ``calibrations`` are counts objects of shape (reps, S) (one column per
    stratum); ``valid`` marks replications where every stratum has test items and both
    human classes in its calibration set; ``theta`` is the pooled truth Σ_s w_s θ_s under
    the test mix.

    Examples
    --------
    Made by :func:`draw_strata`; the counts have shape (replicates, strata):

    >>> import judgestats as js
    >>> data = js.simulate.draw_strata(theta=[0.2, 0.6], q0=[0.9, 0.7], q1=[0.8, 0.9],
    ...                                test_mix=[0.5, 0.5], calibration_mix=[0.8, 0.2],
    ...                                n=1000, m=200, reps=2, rng=0)
    >>> data.calibrations.tp.shape
    (2, 2)
    """

    tests: JudgedCounts
    calibrations: ConfusionCounts
    valid: np.ndarray
    theta: float


def draw_strata(
    *,
    theta: Any,
    q0: Any,
    q1: Any,
    test_mix: Any,
    calibration_mix: Any,
    n: int,
    m: int,
    reps: int,
    rng: Any = None,
) -> SimulatedStrata:
    """Draw test and calibration counts per stratum, with the judge differing by stratum.

    Stratum s has true rate θ_s and judge error rates (q0_s, q1_s). Test: stratum sizes
    ~ Multinomial(n, test_mix), judged positives ~ Bin(n_s, q1_s θ_s + (1 − q0_s)(1 − θ_s)).
    Calibration: stratum sizes ~ Multinomial(m, calibration_mix), classes ~ Bin(m_s, θ_s),
    then tn ~ Bin(m0_s, q0_s), tp ~ Bin(m1_s, q1_s). A calibration mix that differs from the
    test mix is the covariate shift that biases the unstratified correction when the judge's
    behaviour depends on the stratum (paper, Limitations).

    Parameters
    ----------
    theta, q0, q1 : array_like, shape (S,)
        Per-stratum true rate and judge specificity/sensitivity.
    test_mix, calibration_mix : array_like, shape (S,)
        Stratum shares of the test and calibration sets (each sums to 1).
    n, m : int
        Test and calibration sizes.
    reps : int
        Replications: the first axis of every count array, shape (reps, S).
    rng : None, int, SeedSequence or Generator
        Source of randomness.

    Returns
    -------
    SimulatedStrata
        Counts per replication and stratum, which replications are usable, the pooled truth.

    Examples
    --------
    Two strata whose judges differ, a calibration set drawn mostly from the first:

    >>> import judgestats as js
    >>> data = js.simulate.draw_strata(theta=[0.2, 0.6], q0=[0.9, 0.7], q1=[0.8, 0.9],
    ...                                test_mix=[0.5, 0.5], calibration_mix=[0.8, 0.2],
    ...                                n=1000, m=200, reps=2, rng=0)
    >>> round(float(data.theta), 3), data.tests.n.tolist()
    (0.4, [[521, 479], [501, 499]])
    """
    reps = check_budget("reps", reps, minimum=1)
    theta, q0, q1, tmix, cmix = (
        np.atleast_1d(np.asarray(check_probability(k, v), dtype=float))
        for k, v in (
            ("theta", theta),
            ("q0", q0),
            ("q1", q1),
            ("test_mix", test_mix),
            ("calibration_mix", calibration_mix),
        )
    )
    shapes = {a.shape for a in (theta, q0, q1, tmix, cmix)}
    if len(shapes) != 1 or theta.ndim != 1:
        raise JudgeStatsError(
            "theta, q0, q1, test_mix and calibration_mix must be 1-D and "
            f"of equal length, got shapes {[a.shape for a in (theta, q0, q1)]}"
        )
    for name, mix in (("test_mix", tmix), ("calibration_mix", cmix)):
        if abs(mix.sum() - 1.0) > 1e-9:
            raise JudgeStatsError(f"{name} must sum to 1, got {mix.sum():.6g}")
    n = check_budget("n", n, minimum=1)
    m = check_budget("m", m, minimum=2)
    gen = check_rng(rng)
    n_s = gen.multinomial(n, tmix, size=reps)
    positive = gen.binomial(n_s, _judged_rate(theta, q0, q1))
    m_s = gen.multinomial(m, cmix, size=reps)
    m1 = gen.binomial(m_s, theta)
    m0 = m_s - m1
    tp = gen.binomial(m1, q1)
    tn = gen.binomial(m0, q0)
    valid = ((n_s > 0) & (m1 > 0) & (m0 > 0)).all(axis=-1)
    # placeholders where a stratum is empty (those replications are marked invalid)
    tests = JudgedCounts(positive=positive, n=np.maximum(n_s, 1))
    fill = ~((m1 > 0) & (m0 > 0))
    cal = ConfusionCounts(
        tp=np.where(fill, 1, tp),
        fn=np.where(fill, 0, m1 - tp),
        tn=np.where(fill, 1, tn),
        fp=np.where(fill, 0, m0 - tn),
    )
    return SimulatedStrata(tests, cal, valid, float(np.dot(tmix, theta)))
