"""Results of :func:`judgestats.bayes.fit`: the core result shapes plus the posterior.

:class:`BayesianCorrection` is a :class:`~judgestats.Correction` (binary) and
:class:`BayesianDistributionCorrection` a :class:`~judgestats.multiclass.DistributionCorrection`
(k categories): same fields and methods (``estimate``, ``ci``, ``summary()``,
``to_dataframe()``, ``to_xarray()`` with ``ci_bound`` and attrs ``ci_kind``/``ci_prob``,
``confidence_interval(method=...)`` to recompute by a frequentist method), with the point
estimate and interval taken from the posterior, plus ``posterior`` (the xarray DataTree from
PyMC/ArviZ) and sampling ``diagnostics``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import check_choice, check_confidence_level
from ..correct import Correction
from ..multiclass.distribution import DistributionCorrection
from ..results import ConfidenceInterval, note_lines, rate_repr
from ..strata import StratifiedCorrection

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    import xarray as xr

__all__ = ["BayesianCorrection", "BayesianDistributionCorrection", "SamplingDiagnostics"]

#: A fit warns (SamplingWarning) when any r_hat exceeds RHAT_MAX, any bulk or tail effective
#: sample size is below ESS_MIN, or there is any divergent transition.
RHAT_MAX = 1.01
ESS_MIN = 400
SAMPLE_DIMS = ("chain", "draw")
INTERVALS = ("eti", "hdi")
POINTS = ("mean", "median", "map")


@dataclass(frozen=True, slots=True)
class SamplingDiagnostics:
    """Convergence diagnostics of an MCMC fit (over every free parameter).

    Attributes
    ----------
    max_rhat : float
        Largest rank-normalised split r_hat (NaN with a single chain: it needs several).
    min_ess_bulk, min_ess_tail : float
        Smallest bulk and tail effective sample sizes.
    divergences : int
        Divergent transitions after tuning.
    chains, draws : int
        Chains and draws per chain.

    Examples
    --------
    What :func:`judgestats.bayes.fit` stores on ``diagnostics`` (here built by hand): a fit that
    passes, and one that would warn ``SamplingWarning``:

    >>> import judgestats as js
    >>> good = js.bayes.SamplingDiagnostics(max_rhat=1.002, min_ess_bulk=1302.4,
    ...                                     min_ess_tail=1391.4, divergences=0, chains=4,
    ...                                     draws=1000)
    >>> good.ok, good.describe()
    (True, '4 chains × 1000 draws; max r_hat 1.002, min ESS 1302, 0 divergences')
    >>> bad = js.bayes.SamplingDiagnostics(max_rhat=1.04, min_ess_bulk=210.0, min_ess_tail=380.0,
    ...                                    divergences=3, chains=4, draws=1000)
    >>> bad.ok, bad.problems  # doctest: +NORMALIZE_WHITESPACE
    (False, <bound method SamplingDiagnostics.problems of SamplingDiagnostics(max_rhat=1.04,
    min_ess_bulk=210.0, min_ess_tail=380.0, divergences=3, chains=4, draws=1000)>)
    """

    max_rhat: float
    min_ess_bulk: float
    min_ess_tail: float
    divergences: int
    chains: int
    draws: int

    def problems(self) -> tuple[str, ...]:
        """Human-readable list of the checks that failed (empty when all pass)."""
        out = []
        if not math.isnan(self.max_rhat) and self.max_rhat > RHAT_MAX:
            out.append(f"max r_hat {self.max_rhat:.3f} > {RHAT_MAX}")
        ess = min(self.min_ess_bulk, self.min_ess_tail)
        if not math.isnan(ess) and ess < ESS_MIN:
            out.append(f"min ESS {ess:.0f} < {ESS_MIN}")
        if self.divergences:
            out.append(f"{self.divergences} divergent transitions")
        return tuple(out)

    @property
    def ok(self) -> bool:
        """True when r_hat <= 1.01, ESS >= 400 and there are no divergences."""
        return not self.problems()

    def as_dict(self) -> dict[str, Any]:
        """Plain dict of the diagnostics."""
        return {
            "max_rhat": self.max_rhat,
            "min_ess_bulk": self.min_ess_bulk,
            "min_ess_tail": self.min_ess_tail,
            "divergences": self.divergences,
            "chains": self.chains,
            "draws": self.draws,
        }

    def describe(self) -> str:
        """One line: chains × draws, r_hat, ESS, divergences."""
        rhat = "n/a (1 chain)" if math.isnan(self.max_rhat) else f"{self.max_rhat:.3f}"
        return (
            f"{self.chains} chains × {self.draws} draws; max r_hat {rhat}, min ESS "
            f"{min(self.min_ess_bulk, self.min_ess_tail):.0f}, {self.divergences} divergences"
        )


def _unwrap(tree: Any) -> Any:
    """ArviZ 1 returns DataTrees for DataTree input: the posterior group as a Dataset."""
    return tree.to_dataset() if hasattr(tree, "to_dataset") else tree


def _ds_extreme(ds: Any, reduce: Any) -> float:
    values = [np.asarray(v, dtype=float).ravel() for v in _unwrap(ds).data_vars.values()]
    flat = np.concatenate(values) if values else np.array([np.nan])
    flat = flat[~np.isnan(flat)]
    return float(reduce(flat)) if flat.size else math.nan


def diagnose(tree: Any, var_names: list[str]) -> SamplingDiagnostics:
    """r_hat, ESS and divergences of ``var_names`` in a PyMC posterior DataTree."""
    import arviz as az

    post = tree["posterior"]
    chains, draws = int(post.sizes["chain"]), int(post.sizes["draw"])
    dims = list(SAMPLE_DIMS)
    rhat = (
        _ds_extreme(az.rhat(tree, var_names=var_names, sample_dims=dims), np.max)
        if chains > 1
        else math.nan
    )
    bulk = _ds_extreme(az.ess(tree, var_names=var_names, method="bulk", sample_dims=dims), np.min)
    tail = _ds_extreme(az.ess(tree, var_names=var_names, method="tail", sample_dims=dims), np.min)
    stats = tree["sample_stats"] if "sample_stats" in tree.children else None
    diverging = 0
    if stats is not None and "diverging" in stats.data_vars:
        diverging = int(np.asarray(stats["diverging"]).sum())
    return SamplingDiagnostics(rhat, bulk, tail, diverging, chains, draws)


def summarise(tree: Any, var: str, *, point: str, interval: str, level: float) -> tuple:
    """Point summary and (low, high) credible bounds of ``var`` (arrays over its own dims)."""
    import arviz as az

    post = tree["posterior"][var]
    dims = list(SAMPLE_DIMS)
    if point == "mean":
        est = post.mean(dim=dims)
    elif point == "median":
        est = post.median(dim=dims)
    else:  # the mode of the marginal posterior (ArviZ's half-sample estimator)
        est = _unwrap(az.mode(tree, var_names=[var], dim=dims))[var]
    kind = az.eti if interval == "eti" else az.hdi
    ci = _unwrap(kind(tree, prob=level, var_names=[var], dim=dims))[var]
    low = ci.sel(ci_bound="lower").values
    high = ci.sel(ci_bound="upper").values
    return np.asarray(est.values, dtype=float), np.asarray(low, dtype=float), np.asarray(high)


def _mcmc_attrs(self: Any) -> dict[str, Any]:
    """Attrs of a Bayesian result's Dataset: interval kind, method, point, sampler, diagnostics."""
    return {
        "ci_kind": self.interval,
        "method": self.method,
        "point": self.point,
        "sampler": self.sampler,
        **self.diagnostics.as_dict(),
    }


class _Draws:
    """What every MCMC result does with its draws: ArviZ's summary table and credible bounds."""

    __slots__ = ()
    #: the variables the summary table shows and the one the credible interval is of
    free_variables: tuple[str, ...] = ("theta",)
    summary_variable = "theta"

    def posterior_summary(self) -> pd.DataFrame:
        """ArviZ summary table of ``free_variables`` at this result's level and interval kind."""
        import arviz as az

        me: Any = self  # a result dataclass: posterior, confidence_level, interval
        return az.summary(
            me.posterior,
            var_names=list(self.free_variables),
            ci_prob=me.confidence_level,
            ci_kind=me.interval,
            round_to="none",
            sample_dims=list(SAMPLE_DIMS),
        )

    def _credible_bounds(self, confidence_level: Any, interval: Any) -> tuple[float, Any, Any]:
        """Return the checked level and the credible bounds of ``summary_variable``."""
        me: Any = self
        level = check_confidence_level(confidence_level)
        kind = check_choice("interval", interval or me.interval, INTERVALS)
        _, low, high = summarise(
            me.posterior, self.summary_variable, point="mean", interval=kind, level=level
        )
        return level, low, high

    def _repr(self, name: str, diagnostics: Any, **fields: Any) -> str:
        """Return the repr of a one-rate result: estimate, interval, summary and sampling."""
        me: Any = self
        return rate_repr(
            name, estimate=me.estimate, ci=me.ci, **fields, point=me.point,
            interval=me.interval, confidence_level=me.confidence_level, sampler=me.sampler,
            max_rhat=float(diagnostics.max_rhat), divergences=diagnostics.divergences,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class BayesianCorrection(_Draws, Correction):
    """A :class:`~judgestats.Correction` from the binary PyMC model (``js.bayes.fit``).

    ``estimate`` is the posterior ``point`` summary of θ and ``ci`` the ``interval`` credible
    interval at ``confidence_level``; ``naive``, ``sensitivity``, ``specificity``, ``n``,
    ``m0``, ``m1`` and ``label_shift`` describe the data as in ``Correction``.

    Attributes
    ----------
    posterior : xarray.DataTree
        Everything PyMC returned (groups ``posterior``, ``sample_stats``, ``observed_data``…).
    point : {"mean", "median", "map"}
        Posterior summary reported as ``estimate`` ("map": mode of θ's marginal posterior).
    interval : {"eti", "hdi"}
        Equal-tailed or highest-density credible interval.
    sampler : str
        NUTS implementation used ("pymc", "nutpie" or "numpyro").
    diagnostics : SamplingDiagnostics
        r_hat, ESS and divergences (a ``SamplingWarning`` was issued if they failed).
    priors : Priors
        The priors of the fit.

    Examples
    --------
    Made by :func:`judgestats.bayes.fit`. Sampling takes seconds, so this example is not run by
    the test suite (``tests/bayes/`` checks the fits against the exact posterior); the output is
    from one run:

    >>> import judgestats as js
    >>> res = js.bayes.fit(js.JudgedCounts(positive=600, n=1000),  # doctest: +SKIP
    ...                    js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30), confidence_level=0.95,
    ...                    random_seed=1, cores=1)
    >>> res  # doctest: +SKIP, +NORMALIZE_WHITESPACE
    BayesianCorrection(estimate=0.4980, ci=[0.3821, 0.6030], point='mean', interval='eti',
    confidence_level=0.95, sampler='pymc', max_rhat=1.0020, divergences=0)

    The exact posterior of the same model, by quadrature, is one call away (and runs here):

    >>> js.correct(js.JudgedCounts(positive=600, n=1000),
    ...            js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30), method="bayes").ci
    ConfidenceInterval(low=0.384255, high=0.605044, method='bayes', confidence_level=0.95)
    """

    posterior: Any
    point: str
    interval: str
    sampler: str
    diagnostics: SamplingDiagnostics
    priors: Any

    free_variables = ("theta", "sensitivity", "specificity")

    def credible_interval(
        self, confidence_level: float = 0.95, interval: str | None = None
    ) -> ConfidenceInterval:
        """Credible interval of θ from the draws at another level or kind."""
        level, low, high = self._credible_bounds(confidence_level, interval)
        return ConfidenceInterval(float(low), float(high), self.method, level)

    def _row(self) -> dict[str, Any]:
        row = Correction._row(self)
        row.update(point=self.point, interval=self.interval, sampler=self.sampler)
        row.update(self.diagnostics.as_dict())
        return row

    def to_xarray(self) -> xr.Dataset:
        """As :meth:`Correction.to_xarray`, with ``ci_kind`` the credible-interval kind.

        Attrs also give ``method``, ``point``, ``sampler`` and the diagnostics.
        """
        ds = Correction.to_xarray(self)
        ds.attrs.update(_mcmc_attrs(self))
        return ds

    def summary(self) -> str:
        """Return a short human-readable report."""
        lvl = f"{100 * self.confidence_level:g}%"
        t, c = self.test, self.calibration
        post = self.posterior["posterior"]
        lines = [
            f"Corrected rate (Bayesian misclassification model, {self.sampler} NUTS, design "
            f"{self.design}), posterior {self.point} with {lvl} {self.interval.upper()} credible "
            "interval",
            f"  corrected estimate   {self.estimate:.4f}  [{self.ci.low:.4f}, {self.ci.high:.4f}]",
            f"  naive judged rate    {self.naive:.4f}  ({t.positive} of {t.n} test items judged 1)",
        ]
        if "sensitivity" in post:
            q1, q0 = float(post["sensitivity"].mean()), float(post["specificity"].mean())
            lines += [
                f"  judge sensitivity    posterior mean {q1:.4f}  (calibration {c.tp} of "
                f"m1 = {c.m1})",
                f"  judge specificity    posterior mean {q0:.4f}  (calibration {c.tn} of "
                f"m0 = {c.m0})",
                f"  priors               {self.priors!r}",
            ]
        else:  # the random / by-judge-label design: P(human = 1 | judge)
            ppv, fo = float(post["ppv"].mean()), float(post["for_rate"].mean())
            lines += [
                f"  P(human 1 | judge 1) posterior mean {ppv:.4f}  ({c.tp} of {c.tp + c.fp})",
                f"  P(human 1 | judge 0) posterior mean {fo:.4f}  ({c.fn} of {c.fn + c.tn})",
                "  priors               Jeffreys' Beta(1/2, 1/2) on π, PPV, FOR",
            ]
        lines.append(f"  sampling             {self.diagnostics.describe()}")
        lines += note_lines(not self.diagnostics.ok and "; ".join(self.diagnostics.problems()))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self._repr("BayesianCorrection", self.diagnostics)


@dataclass(frozen=True, slots=True, eq=False)
class BayesianDistributionCorrection(_Draws, DistributionCorrection):
    """A :class:`~judgestats.multiclass.DistributionCorrection` from the k-category PyMC model.

    ``estimate`` holds the posterior ``point`` summary of each category's probability and
    ``ci`` per-category (marginal) credible intervals; ``covariance`` is the posterior
    covariance of θ (k × k), usable for contrasts. The posterior summaries lie on the simplex,
    so ``estimate_unconstrained`` equals ``estimate`` and ``projected`` is False.

    Attributes
    ----------
    posterior : xarray.DataTree
        PyMC's output; ``theta`` has dim ``category``, ``confusion`` dims ``category``
        (human) × ``judge_category``.
    point, interval, sampler, diagnostics, priors
        As in :class:`BayesianCorrection`.

    Examples
    --------
    Made by :func:`judgestats.bayes.fit` with k-category counts. Compiling the Dirichlet model
    takes a minute the first time, so this example is not run by the test suite
    (``tests/bayes/`` fits it); the output is from one run:

    >>> import judgestats as js
    >>> labels = ["win", "tie", "lose"]
    >>> cal = js.ConfusionMatrix([[80, 10, 5], [15, 70, 10], [5, 20, 85]], labels=labels)
    >>> res = js.bayes.fit(js.CategoryCounts([430, 380, 190], labels=labels), cal,  # doctest: +SKIP
    ...                    confidence_level=0.95, random_seed=1, cores=1)
    >>> print(res.summary())  # doctest: +SKIP, +NORMALIZE_WHITESPACE
    Corrected distribution over k = 3 categories (Bayesian Dirichlet model, pymc NUTS),
    posterior mean with 95% ETI credible intervals
      category  corrected  [ lower,  upper]   naive  judge recall (m_b)
      win          0.4836  [0.4012, 0.5703]  0.4300  0.783 (100)
      tie          0.4275  [0.3229, 0.5377]  0.3800  0.688 (100)
      lose         0.0889  [0.0178, 0.1534]  0.1900  0.832 (100)
      test items n = 1000; calibration items m = 300
      sampling: 4 chains × 1000 draws; max r_hat 1.003, min ESS 1351, 0 divergences
    """

    posterior: Any = None
    point: str = "mean"
    interval: str = "eti"
    sampler: str = "pymc"
    diagnostics: SamplingDiagnostics | None = None
    priors: Any = None

    free_variables = ("theta", "confusion")

    def credible_interval(
        self, confidence_level: float = 0.95, interval: str | None = None
    ) -> dict:
        """Per-category credible intervals from the draws at another level or kind."""
        level, low, high = self._credible_bounds(confidence_level, interval)
        return {
            lab: ConfidenceInterval(float(lo), float(hi), self.method, level)
            for lab, lo, hi in zip(self.labels, low, high, strict=True)
        }

    def _rows(self) -> list[dict[str, Any]]:
        rows = DistributionCorrection._rows(self)
        extra = {"point": self.point, "interval": self.interval, "sampler": self.sampler}
        if self.diagnostics is not None:
            extra.update(self.diagnostics.as_dict())
        return [{**row, **extra} for row in rows]

    def to_xarray(self) -> xr.Dataset:
        """As :meth:`DistributionCorrection.to_xarray`, with ``ci_kind`` the interval kind."""
        ds = DistributionCorrection.to_xarray(self)
        ds.attrs.update(_mcmc_attrs(self))
        return ds

    def summary(self) -> str:
        """Return a short human-readable report (one line per category)."""
        lvl = f"{100 * self.confidence_level:g}%"
        width = max(8, *(len(str(v)) for v in self.labels))
        naive, m_b = self.naive, self.human_counts
        # posterior mean of P(judge = the category's own label | human = category); rows of
        # ``confusion`` are human categories, columns the judge's labels (its alphabet)
        conf = self.posterior["posterior"]["confusion"].mean(dim=list(SAMPLE_DIMS))
        letters = list(conf["judge_category"].values)
        alphabet = "" if self.calibration.square else f", judge alphabet of J = {len(letters)}"
        lines = [
            f"Corrected distribution over k = {self.k} categories (Bayesian Dirichlet model"
            f"{alphabet}, {self.sampler} NUTS), posterior {self.point} with {lvl} "
            f"{self.interval.upper()} credible intervals",
            f"  {'category':<{width}}  corrected  [ lower,  upper]   naive  judge recall (m_b)",
        ]
        for i, v in enumerate(self.labels):
            ci = self.ci[v]
            own = letters.index(v) if v in letters else None
            nv = "     –" if np.isnan(naive[v]) else f"{naive[v]:.4f}"
            rc = "    –" if own is None else f"{float(conf.values[i, own]):.3f}"
            lines.append(
                f"  {v!s:<{width}}  {self.estimate[v]:9.4f}  [{ci.low:.4f}, {ci.high:.4f}]"
                f"  {nv}  {rc} ({m_b[v]})"
            )
        lines.append(f"  test items n = {self.n}; calibration items m = {self.m}")
        d = self.diagnostics
        if d is not None:
            lines.append(f"  sampling: {d.describe()}")
            lines += note_lines(not d.ok and "; ".join(d.problems()))
        return "\n".join(lines)

    def __repr__(self) -> str:
        est = self._estimates_text()
        return (
            f"BayesianDistributionCorrection({{{est}}}, point={self.point!r}, "
            f"interval={self.interval!r}, confidence_level={self.confidence_level:g}, "
            f"sampler={self.sampler!r}, n={self.n}, m={self.m})"
        )


@dataclass(frozen=True, slots=True, eq=False, kw_only=True)
class BayesianStratifiedCorrection(_Draws, StratifiedCorrection):
    """A :class:`~judgestats.strata.StratifiedCorrection` from ``js.bayes.fit_stratified``.

    Per-stratum ``corrections`` hold the posterior ``point`` summary and ``interval`` credible
    interval of θ_s; ``estimate`` and ``ci`` summarise ``theta_pooled`` = Σ w_s θ_s;
    ``diagnostics`` are the frequentist per-stratum q̂ intervals and homogeneity tests of the
    same calibration counts. ``confidence_interval(method=...)`` recomputes a frequentist
    pooled interval for the same data.

    Attributes
    ----------
    posterior : xarray.DataTree
        Everything PyMC returned.
    pooling : {"partial", "none", "complete"}
        How the strata shared the judge's error rates.
    point, interval, sampler
        As in :class:`BayesianCorrection`.
    sampling : SamplingDiagnostics
        r_hat, ESS and divergences over the free variables.
    priors : Priors
        θ_s prior (and the rate priors for "none"/"complete").
    hyperpriors : HyperPriors
        Hyperpriors of the partially pooled logits (unused for other poolings).

    Examples
    --------
    Made by :func:`judgestats.bayes.fit_stratified`: the judge's rates pooled partially across two
    strata. Sampling takes a while, so this example is not run by the test suite
    (``tests/bayes/test_hierarchical.py`` fits the model); the output is from one run:

    >>> import judgestats as js
    >>> tests = {"short": js.JudgedCounts(positive=600, n=1000),
    ...          "long": js.JudgedCounts(positive=800, n=1000)}
    >>> cals = {"short": js.ConfusionCounts(tp=180, fn=20, tn=160, fp=40),
    ...         "long": js.ConfusionCounts(tp=190, fn=10, tn=120, fp=80)}
    >>> res = js.bayes.fit_stratified(tests, cals, confidence_level=0.95,  # doctest: +SKIP
    ...                               random_seed=1, cores=1)
    >>> res  # doctest: +SKIP, +NORMALIZE_WHITESPACE
    BayesianStratifiedCorrection(estimate=0.6512, ci=[0.6022, 0.7035], strata=['short', 'long'],
    pooling='partial', point='mean', interval='eti', confidence_level=0.95, sampler='pymc',
    max_rhat=1.0068, divergences=0)
    >>> {stratum: round(c.estimate, 4) for stratum, c in res.corrections.items()}  # doctest: +SKIP
    {'short': 0.5627, 'long': 0.7396}

    The frequentist stratified correction of the same counts (runs here):

    >>> res = js.correct_stratified(tests, cals, method="adjusted-wald", confidence_level=0.95)
    >>> round(res.estimate, 4), {s: round(c.estimate, 4) for s, c in res.corrections.items()}
    (0.6494, {'short': 0.5714, 'long': 0.7273})
    """

    posterior: Any
    pooling: str
    point: str
    interval: str
    sampler: str
    sampling: SamplingDiagnostics
    priors: Any
    hyperpriors: Any

    free_variables = ("theta", "specificity", "sensitivity", "theta_pooled")
    summary_variable = "theta_pooled"

    def credible_interval(
        self, confidence_level: float = 0.95, interval: str | None = None
    ) -> ConfidenceInterval:
        """Credible interval of the pooled θ from the draws at another level or kind."""
        level, low, high = self._credible_bounds(confidence_level, interval)
        return ConfidenceInterval(float(low), float(high), self.method, level)

    def rates(self) -> pd.DataFrame:
        """Posterior means and credible intervals of q0_s, q1_s beside the raw q̂ per stratum."""
        import pandas as pd

        rows = []
        post = {}
        for var in ("specificity", "sensitivity"):
            post[var] = summarise(
                self.posterior, var, point=self.point, interval=self.interval,
                level=self.confidence_level,
            )
        for i, s in enumerate(self.strata):
            c = self.corrections[s]
            row = {"stratum": s, "m0": c.m0, "m1": c.m1}
            for var, raw in (("specificity", c.specificity), ("sensitivity", c.sensitivity)):
                est, low, high = post[var]
                row.update({f"{var}_raw": raw, var: float(est[i]),
                            f"{var}_low": float(low[i]), f"{var}_high": float(high[i])})
            rows.append(row)
        return pd.DataFrame(rows)

    def _rows(self) -> list[dict[str, Any]]:
        rows = StratifiedCorrection._rows(self)
        extra = {"pooling": self.pooling, "point": self.point, "interval": self.interval,
                 "sampler": self.sampler, **self.sampling.as_dict()}
        rows[-1].update(extra)
        return rows

    def summary(self) -> str:
        """As :meth:`StratifiedCorrection.summary`, headed by the model and its diagnostics."""
        head = (
            f"Bayesian stratified correction ({self.pooling} pooling of the judge's rates, "
            f"{self.sampler} NUTS): posterior {self.point}, "
            f"{100 * self.confidence_level:g}% {self.interval.upper()} credible intervals; "
            f"sampling {self.sampling.describe()}"
        )
        body = StratifiedCorrection.summary(self).split("\n", 1)[1]
        lines = [head, body]
        lines += note_lines(not self.sampling.ok and "; ".join(self.sampling.problems()))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self._repr(
            "BayesianStratifiedCorrection", self.sampling, strata=list(self.strata),
            pooling=self.pooling,
        )  # fmt: skip


__all__ += ["BayesianStratifiedCorrection"]
