"""``fit_scores()``: the Bayesian twin of a numeric judge score's correction (issue 39).

Two models, chosen by the calibration design (asked by its attributes, never its name):

**The calibrated-score model** (``design="random"``: the labelled rows are a simple random
sample of all rows, so the human label's law given the score is the same on labelled and
unlabelled rows). On a labelled row ``y_i ~ Bernoulli(g(s_i; β))`` with the link

* ``link="logistic"``: ``logit g(s) = β0 + β1·x(s)``, ``x`` the score standardised over all rows;
* ``link="beta"``: ``logit g(s) = β0 + β1·x1(s) + β2·x2(s)``, ``x1 = ln s`` and
  ``x2 = −ln(1 − s)`` standardised over all rows: beta calibration (Kull, Silva Filho & Flach
  2017, "Beyond sigmoids"), the exact posterior log-odds when the score given each human class
  is Beta distributed; scores must lie strictly inside (0, 1);

with priors ``β_j ~ Normal(0, prior_scale)`` (default 2.5 on the standardised scale). The
estimand is the population rate θ = P(human = 1) = ∫ g(s; β) dF(s), F the score distribution
of the rows (the estimand of :func:`judgestats.scores.correct_scores`, the frequentist twin).
The posterior factorises: β is informed by the labelled rows, F by every row's score, a
priori independent. F's posterior is Rubin's (1981) Bayesian bootstrap: each draw gives the
rows Dirichlet(1, …, 1) weights w, and θ = Σ_i w_i g(s_i; β). So

    θ | data  =  Σ_i w_i g(s_i; β),   β ~ its NUTS posterior,  w ~ Dirichlet(1_N) independently.

The weights are drawn exactly on the distinct scores (Dirichlet over their counts) when there
are at most :data:`EXACT_ATOMS` of them; above, by the normal law with the same two moments
(mean ḡ, variance S²/(N + 1), S² the rows' variance of g: exact moments, and the
Dirichlet-weighted mean of so many atoms is normal to well within Monte Carlo error). The
posterior also holds ``rows_rate`` = the plain mean of g(s_i; β) over the rows: the rate
*given these rows' scores*, narrower than θ's because it leaves out the rows' sampling.
The labelled rows' own labels do not enter θ (θ is the population's rate, not the finite
rows' mean).

**The binned J × K model** (``design="by-human-label"``, the paper's: the labelled rows were
drawn within human classes, so P(human | score) is not estimable from them, but P(score | human)
is). Score bins declared in advance (``bins=``) become judge letters, and the existing
Dirichlet model of a judge alphabet answers (:func:`judgestats.bayes.fit` on the letters'
counts): test letters ~ Multinomial(n, Σ_b θ_b C[:, b]), each human class's calibration
letters ~ Multinomial(m_b, C[:, b]), every column C[:, b] ~ Dirichlet(1, …, 1) and
(θ_0, θ_1) ~ Dirichlet(1, 1) (a flat Beta on θ); the paper's appendix model with J letters
for K = 2 classes. The unlabelled rows are the test set, the labelled rows the calibration set.

Both posteriors hold ``rate``, the draws of θ; the result's ``estimate`` and ``ci`` summarise
it. Their calibration is checked by simulation-based calibration and their credible
intervals' frequentist coverage measured beside the frequentist twins'
(``benchmarks/results/bayes_scores.md``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, ClassVar, Unpack

import numpy as np

from .._validation import (
    LabelError,
    MethodError,
    PriorError,
    check_choice,
    check_concentration,
    check_rng,
)
from .._validation.labels import check_bins
from ..designs import Design, RoganGladenDesign, as_design
from ..results import ConfidenceInterval, effective_labels, note_lines
from .fit import SamplingOptions, sample_checked, sampling_arguments, summary_options
from .results import SAMPLE_DIMS, SamplingDiagnostics, _Draws

__all__ = [
    "EXACT_ATOMS",
    "LINKS",
    "PRIOR_SCALE",
    "BayesianScoreCorrection",
    "build_score_model",
    "fit_scores",
    "score_features",
]

#: The links of the calibrated-score model (``link=``).
LINKS = ("logistic", "beta")
#: Prior standard deviation of every coefficient on the standardised features.
PRIOR_SCALE = 2.5
#: Up to this many distinct scores the Bayesian bootstrap's weights are drawn exactly.
EXACT_ATOMS = 5000
METHOD = "bayes-mcmc"
_FEATURES = {"logistic": ("score",), "beta": ("log_score", "log_complement")}
_CHUNK = 2_000_000  # draws × distinct scores evaluated at once

#: NUTS settings of the calibrated-score model unless ``sample_kwargs`` sets them: the
#: intercept and slopes of a logistic regression are correlated (−0.8 to −0.96 on planted data
#: sets at a prevalence of 0.3), which a diagonal mass matrix samples slowly (ESS 135–260 of
#: 1,000 draws); a dense one adapted in tuning doubles the ESS (520–610). The model has no
#: boundary wall, so PyMC's usual target acceptance serves (the package's 0.995 is for the
#: Beta rates' walls).
LINK_NUTS = {"target_accept": 0.9, "init": "jitter+adapt_full"}


# ----------------------------------------------------------------------------- inputs
def _scores_and_labels(scores: Any, human: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the validated scores (every row), the labelled rows' 0/1 labels and their mask."""
    from ..scores.correction import _human, _scores

    s = _scores(scores)
    y, labelled = _human(human, s.size)
    return s, y, labelled


def score_features(scores: np.ndarray, link: str) -> np.ndarray:
    """Return the link's features of every row, standardised over the rows: (rows, features).

    ``"logistic"``: the score; ``"beta"``: ln s and −ln(1 − s). A constant feature is centred
    only (its coefficient then has no effect on g).

    Raises
    ------
    LabelError
        ``link="beta"`` with a score outside the open interval (0, 1).
    """
    s = np.asarray(scores, dtype=float)
    if link == "beta":
        bad = np.flatnonzero((s <= 0) | (s >= 1))
        if bad.size:
            raise LabelError(
                f"link='beta' needs scores strictly inside (0, 1) (probabilities): scores has "
                f"{bad.size} outside (first at index {bad[0]}: {s[bad[0]]!r}); rescale them, or "
                "use link='logistic', which takes any numeric score"
            )
        raw = np.column_stack([np.log(s), -np.log1p(-s)])
    else:
        raw = s[:, None]
    centre = raw.mean(axis=0)
    scale = raw.std(axis=0)
    return (raw - centre) / np.where(scale > 0, scale, 1.0)


def _check_scale(prior_scale: Any) -> float:
    if np.ndim(prior_scale):
        raise PriorError(f"prior_scale must be a scalar, got {prior_scale!r}")
    return float(check_concentration("prior_scale", prior_scale))


def _model(features: np.ndarray, y: np.ndarray, names: tuple, prior_scale: float) -> Any:
    """Build the logistic regression of the labelled rows' labels on their score features."""
    import pymc as pm
    import pytensor.tensor as pt

    coords = {"coefficient": list(names), "labelled_row": np.arange(y.size)}
    with pm.Model(coords=coords) as model:
        x = pm.Data("features", features, dims=("labelled_row", "coefficient"))
        observed = pm.Data("human_observed", y.astype(float), dims="labelled_row")
        intercept = pm.Normal("intercept", 0.0, prior_scale)
        slope = pm.Normal("slope", 0.0, prior_scale, dims="coefficient")
        pm.Bernoulli("human", logit_p=intercept + pt.dot(x, slope), observed=observed,
                     dims="labelled_row")  # fmt: skip
    return model


def build_score_model(
    scores: Any, human: Any, *, link: str = "logistic", prior_scale: float = PRIOR_SCALE
) -> Any:
    """Build the unsampled PyMC calibrated-score model of :func:`fit_scores` (random design).

    Parameters
    ----------
    scores, human, link, prior_scale
        As in :func:`fit_scores`.

    Returns
    -------
    pymc.Model
        Free variables ``intercept`` and ``slope`` (dim ``coefficient``: ``score``, or
        ``log_score`` and ``log_complement``); data ``features`` (``labelled_row`` ×
        ``coefficient``, standardised over all rows) and ``human_observed``, which
        :func:`pymc.set_data` can replace with another data set of the same size. θ is not in
        the graph: it is computed from the draws and the rows' scores (module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> import judgestats.bayes
    >>> s = np.linspace(0.05, 0.95, 40)
    >>> human = np.where(np.arange(40) % 2 == 0, s > 0.5, np.nan)
    >>> model = js.bayes.build_score_model(s, human, link="beta")  # doctest: +SKIP
    >>> list(model.coords["coefficient"])  # doctest: +SKIP
    ['log_score', 'log_complement']
    """
    link = check_choice("link", link, LINKS)
    scale = _check_scale(prior_scale)
    s, y, labelled = _scores_and_labels(scores, human)
    _check_labelled(y)
    return _model(score_features(s, link)[labelled], y, _FEATURES[link], scale)


def _check_labelled(y: np.ndarray) -> None:
    if y.size < 2:
        raise LabelError(
            f"the calibrated-score model needs labelled rows (a human label 0/1 on a random "
            f"sample of the rows), got {y.size}"
        )


# ----------------------------------------------------------------------------- θ's draws
def rate_draws(
    coefficients: np.ndarray, features: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Draws of θ (Bayesian bootstrap over the rows) and of the rows' mean of g.

    Parameters
    ----------
    coefficients : ndarray, shape (draws, 1 + features)
        Posterior draws of (intercept, slope…).
    features : ndarray, shape (rows, features)
        Every row's standardised features (:func:`score_features`).
    rng : numpy.random.Generator
        Draws the rows' weights.

    Returns
    -------
    theta, rows_rate : ndarray, shape (draws,)
    """
    from scipy.special import expit

    atoms, counts = np.unique(features, axis=0, return_counts=True)
    rows, size = float(counts.sum()), atoms.shape[0]
    exact = size <= EXACT_ATOMS
    theta = np.empty(coefficients.shape[0])
    rows_rate = np.empty_like(theta)
    step = max(1, _CHUNK // size)
    for start in range(0, coefficients.shape[0], step):
        c = coefficients[start:start + step]
        g = expit(c[:, :1] + c[:, 1:] @ atoms.T)  # (draws, atoms)
        mean = g @ counts / rows
        rows_rate[start:start + step] = mean
        if exact:  # Dirichlet(1_N) over rows = Dirichlet(counts) over the distinct scores
            w = rng.gamma(counts, size=g.shape)
            theta[start:start + step] = (w * g).sum(axis=1) / w.sum(axis=1)
        else:  # the same mean and variance, S²/(N + 1)
            var = np.clip((g * g) @ counts / rows - mean * mean, 0.0, None) / (rows + 1.0)
            theta[start:start + step] = mean + np.sqrt(var) * rng.standard_normal(c.shape[0])
    return theta, rows_rate


def _add_draws(tree: Any, name: str, values: np.ndarray) -> None:
    import xarray as xr

    post = tree["posterior"]
    shape = (post.sizes["chain"], post.sizes["draw"])
    tree["posterior"][name] = xr.DataArray(
        values.reshape(shape), dims=SAMPLE_DIMS,
        coords={"chain": post["chain"].values, "draw": post["draw"].values},
    )  # fmt: skip


def coefficient_draws(tree: Any) -> np.ndarray:
    """(draws, 1 + features): the intercept and slopes of every chain's draws, chain-major."""
    post = tree["posterior"]
    a = np.asarray(post["intercept"].transpose(*SAMPLE_DIMS).values).reshape(-1, 1)
    b = np.asarray(post["slope"].transpose(*SAMPLE_DIMS, "coefficient").values)
    return np.hstack([a, b.reshape(a.shape[0], -1)])


def _bootstrap_rng(random_seed: Any) -> np.random.Generator:
    """Return the rows' weights' generator: its own stream of the seed (None: fresh entropy)."""
    if isinstance(random_seed, np.random.Generator):
        return random_seed
    if random_seed is None:
        return check_rng(None)
    seed = check_rng(random_seed, "random_seed").integers(2**63)  # validated, then spawned
    return np.random.default_rng(np.random.SeedSequence(int(seed)).spawn(1)[0])


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True)
class BayesianScoreCorrection(_Draws):
    """θ = P(human = 1) from a numeric judge score's posterior (:func:`fit_scores`).

    Attributes
    ----------
    estimate : float
        The posterior ``point`` summary of θ.
    ci : ConfidenceInterval
        The ``interval`` credible interval at ``confidence_level`` (method ``"bayes-mcmc"``).
    method, estimator : str
        ``"bayes-mcmc"``, and the model (link or bins) with the posterior summary.
    design : Design
        ``"random"`` (calibrated-score model) or ``"by-human-label"`` (binned J × K model).
    confidence_level : float
    link : str or None
        ``"logistic"`` or ``"beta"``; None for the binned model.
    bins : tuple of float or None
        The declared score bins (the binned model's letters); None for a link.
    n_labelled, n_unlabelled, m1 : int
        Rows with and without a human label; labelled rows with label 1.
    variance : float
        Posterior variance of θ (for ``effective_labels``).
    posterior : xarray.DataTree
        PyMC's draws, with ``rate`` (θ) added; the link model also ``rows_rate`` (the rows'
        mean of g, given their scores), the binned model ``theta`` (both classes) and
        ``confusion``.
    point, interval, sampler, diagnostics
        As in :class:`judgestats.bayes.BayesianCorrection`.
    priors : dict
        The priors in force, in words.
    distribution : BayesianDistributionCorrection or None
        The binned model's whole fit (both classes, the letters' matrix); None for a link.

    Examples
    --------
    Made by :func:`judgestats.bayes.fit_scores`. Sampling compiles a model (seconds), so this
    example is not run by the test suite (``tests/bayes/test_scores.py`` fits both models):

    >>> import numpy as np
    >>> import judgestats as js
    >>> import judgestats.bayes
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.3
    >>> s = 1 / (1 + np.exp(-(2.5 * (2 * y - 1) + rng.normal(0, 1.5, 2000))))
    >>> human = np.where(np.arange(2000) < 400, y, np.nan)
    >>> res = js.bayes.fit_scores(s, human, link="beta", random_seed=1, cores=1)  # doctest: +SKIP
    >>> res.estimate, res.ci, res.effective_labels  # doctest: +SKIP
    """

    kind: ClassVar[str] = "bayes-score-correction"
    summary_variable = "rate"

    estimate: float
    ci: ConfidenceInterval
    method: str
    estimator: str
    design: Any
    confidence_level: float
    link: str | None
    bins: tuple[float, ...] | None
    n_labelled: int
    n_unlabelled: int
    m1: int
    variance: float
    posterior: Any
    point: str
    interval: str
    sampler: str
    diagnostics: SamplingDiagnostics
    priors: dict
    distribution: Any = None

    @property
    def effective_labels(self) -> float | None:
        """θ̂(1 − θ̂)/Var(θ | data): the human labels alone that would be as precise."""
        return effective_labels(self.estimate, self.variance)

    @property
    def m0(self) -> int:
        """Labelled rows with human label 0."""
        return self.n_labelled - self.m1

    @property
    def n(self) -> int:
        """Unlabelled rows (a ``Correction``'s test rows)."""
        return self.n_unlabelled

    def posterior_summary(self) -> Any:
        """ArviZ summary table (pandas) of the model's parameters and θ (``rate``)."""
        import arviz as az

        names = ["intercept", "slope"] if self.link is not None else ["theta", "confusion"]
        return az.summary(self.posterior, var_names=[*names, "rate"],
                          ci_prob=self.confidence_level, ci_kind=self.interval,
                          round_to="none", sample_dims=list(SAMPLE_DIMS))  # fmt: skip

    def credible_interval(
        self, confidence_level: float = 0.95, interval: str | None = None
    ) -> ConfidenceInterval:
        """Credible interval of θ from the draws at another level or kind."""
        level, low, high = self._credible_bounds(confidence_level, interval)
        return ConfidenceInterval(float(low), float(high), self.method, level)

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict of the tidy row (JSON-serialisable)."""
        return {
            "estimate": self.estimate, "ci_low": self.ci.low, "ci_high": self.ci.high,
            "estimator": self.estimator, "method": self.method, "design": str(self.design),
            "confidence_level": self.confidence_level, "link": self.link,
            "bins": None if self.bins is None else list(self.bins),
            "n_labelled": self.n_labelled, "n_unlabelled": self.n_unlabelled, "m0": self.m0,
            "m1": self.m1, "effective_labels": self.effective_labels, "point": self.point,
            "interval": self.interval, "sampler": self.sampler, **self.diagnostics.as_dict(),
        }  # fmt: skip

    def to_dataframe(self) -> Any:
        """One tidy row (pandas)."""
        import pandas as pd

        return pd.DataFrame([self.to_dict()])

    def summary(self) -> str:
        """Return a short human-readable report."""
        lvl = f"{100 * self.confidence_level:g}%"
        worth = self.effective_labels
        lines = [
            f"Corrected rate ({self.estimator}), {lvl} {self.interval.upper()} credible "
            f"interval, design {self.design}",
            f"  corrected estimate   {self.estimate:.4f}  [{self.ci.low:.4f}, {self.ci.high:.4f}]",
            f"  labelled rows        {self.n_labelled}  (human 1: {self.m1}; unlabelled "
            f"{self.n_unlabelled})",
            f"  priors               {'; '.join(f'{k} {v}' for k, v in self.priors.items())}",
            f"  sampling             {self.diagnostics.describe()}",
        ]
        if worth is not None:
            lines.insert(3, f"  effective labels     {worth:.0f}  (human labels alone as "
                            "precise)")  # fmt: skip
        lines += note_lines(not self.diagnostics.ok and "; ".join(self.diagnostics.problems()))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self._repr("BayesianScoreCorrection", self.diagnostics, design=self.design,
                          link=self.link, n_labelled=self.n_labelled)  # fmt: skip


# ----------------------------------------------------------------------------- entry
def fit_scores(
    scores: Any,
    human: Any,
    *,
    link: str = "logistic",
    bins: Any = None,
    design: str = "random",
    prior_scale: float = PRIOR_SCALE,
    confidence_level: float = 0.95,
    point: str = "mean",
    interval: str = "eti",
    **sampling: Unpack[SamplingOptions],
) -> BayesianScoreCorrection:
    """Fit the Bayesian twin of a numeric judge score's correction by NUTS (module docstring).

    ``design="random"``: the calibrated-score model, the human label ~ Bernoulli(g(score; β))
    with a logistic or beta link, and θ = ∫ g dF over the rows' score distribution (Bayesian
    bootstrap); the twin of :func:`judgestats.scores.correct_scores`.
    ``design="by-human-label"``: the score binned at the declared ``bins`` into judge letters
    and the J × K Dirichlet model of a judge alphabet; the twin of
    ``js.correct_alphabet(..., design="by-human-label")``.

    Parameters
    ----------
    scores : 1-D array_like of float
        The judge's score on every row (finite; strictly inside (0, 1) for ``link="beta"``).
    human : 1-D array_like
        The human label, 0/1 or booleans, on the labelled rows; None or NaN on the others.
    link : {"logistic", "beta"}, default "logistic"
        The calibrated-score model's link (``design="random"``).
    bins : sequence of float, optional
        Score bin edges declared before labelling: required under ``design="by-human-label"``
        (each bin a judge letter; every score inside the edges), refused under ``"random"``.
    design : {"random", "by-human-label"}, default "random"
        How the labelled rows were chosen; ``"by-judge-label"`` is refused (declare the bins
        as letters and use ``js.correct_alphabet``).
    prior_scale : float, default 2.5
        Normal prior sd of every coefficient on the standardised features (link model).
    confidence_level : float, default 0.95
        Mass of the credible interval; stored.
    point : {"mean", "median", "map"}, default "mean"
        Posterior summary reported as ``estimate``.
    interval : {"eti", "hdi"}, default "eti"
        Equal-tailed or highest-density credible interval.
    **sampling
        How to run NUTS (:class:`~judgestats.bayes.SamplingOptions`): ``draws``, ``tune``,
        ``chains``, ``cores``, ``random_seed`` (also seeds the rows' Bayesian-bootstrap
        weights), ``sampler``, ``backend``, ``progress``, ``sample_kwargs``.

    Returns
    -------
    BayesianScoreCorrection

    Raises
    ------
    MethodError
        ``design="by-judge-label"``; ``bins`` missing under by-human-label or given under
        random.
    ArgumentTypeError, LabelError, PriorError
        Bad scores, labels, link, bins or prior scale (before anything is compiled).

    Warns
    -----
    SamplingWarning
        r_hat > 1.01, ESS < 400 or divergences.

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> import judgestats.bayes
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.4
    >>> s = np.clip(np.where(y, 0.7, 0.3) + rng.normal(0, 0.15, 1000), 0.01, 0.99)
    >>> human = np.where(np.arange(1000) < 300, y, np.nan)
    >>> res = js.bayes.fit_scores(s, human, random_seed=1, cores=1)  # doctest: +SKIP
    >>> res.ci  # doctest: +SKIP
    """
    level, point, interval = summary_options(confidence_level, point, interval)
    design = as_design(design)
    kwargs = sampling_arguments(sampling)
    how = {"level": level, "point": point, "interval": interval, "design": design,
           "sampler": kwargs["nuts_sampler"]}  # fmt: skip
    if design.calibration_samples_test:
        if bins is not None:
            raise MethodError(
                "bins= declares the binned J × K model of design='by-human-label'; under "
                "design='random' the score enters whole through link='logistic' or 'beta'"
            )
        link = check_choice("link", link, LINKS)
        scale = _check_scale(prior_scale)
        s, y, labelled = _scores_and_labels(scores, human)
        _check_labelled(y)
        return _fit_link(s, y, labelled, link, scale, _link_nuts(kwargs, sampling), how)
    if design.family != RoganGladenDesign.family:
        raise MethodError(
            f"fit_scores models design='random' (the calibrated score) and "
            f"design='by-human-label' (score bins as judge letters), got design={str(design)!r}: "
            "declare the bins as letters and use js.correct_alphabet"
        )
    if bins is None:
        raise MethodError(
            f"design={str(design)!r} samples the labelled rows within human classes, so "
            "P(human | score) cannot be fitted from them: declare score bins before labelling "
            "(bins=[...]), which become the judge letters of the J × K model"
        )
    return _fit_binned(scores, human, check_bins(bins), design, dict(sampling), how)


def _link_nuts(kwargs: dict, sampling: Any) -> dict:
    """``pymc.sample``'s arguments with :data:`LINK_NUTS` where the user set none."""
    extra: dict = dict(sampling.get("sample_kwargs") or {})
    nuts: dict = extra["nuts"] if isinstance(extra.get("nuts"), dict) else {}
    out = dict(kwargs)
    if "target_accept" not in extra and "target_accept" not in nuts:
        out["target_accept"] = LINK_NUTS["target_accept"]
    out.setdefault("init", LINK_NUTS["init"])
    return out


def _fit_link(s: np.ndarray, y: np.ndarray, labelled: np.ndarray, link: str, scale: float,
              kwargs: dict, how: dict) -> BayesianScoreCorrection:  # fmt: skip
    from .results import summarise

    features = score_features(s, link)
    model = _model(features[labelled], y, _FEATURES[link], scale)
    with warnings.catch_warnings():
        # PyMC flags its dense mass-matrix adaptation (LINK_NUTS) as experimental at every run
        warnings.filterwarnings("ignore", message="QuadPotentialFullAdapt is an experimental",
                                category=UserWarning)  # fmt: skip
        tree, diagnostics = sample_checked(
            model, ["intercept", "slope"], "try sample_kwargs={'target_accept': 0.99}", kwargs,
            stacklevel=4,
        )  # fmt: skip
    theta, rows_rate = rate_draws(coefficient_draws(tree), features,
                                  _bootstrap_rng(kwargs["random_seed"]))  # fmt: skip
    _add_draws(tree, "rate", theta)
    _add_draws(tree, "rows_rate", rows_rate)
    est, low, high = summarise(tree, "rate", point=how["point"], interval=how["interval"],
                               level=how["level"])  # fmt: skip
    prior = f"Normal(0, {scale:g})"
    return BayesianScoreCorrection(
        estimate=float(est), ci=ConfidenceInterval(float(low), float(high), METHOD, how["level"]),
        method=METHOD, design=how["design"], confidence_level=how["level"],
        estimator=(f"calibrated-score model ({link} link; θ over the rows' Bayesian bootstrap), "
                   f"posterior {how['point']} (PyMC)"),
        link=link, bins=None, n_labelled=int(y.size), n_unlabelled=int((~labelled).sum()),
        m1=int(y.sum()), variance=float(np.var(theta)), posterior=tree, point=how["point"],
        interval=how["interval"], sampler=how["sampler"], diagnostics=diagnostics,
        priors={"intercept": prior, "slopes (standardised features)": prior,
                "score distribution": "Bayesian bootstrap (Dirichlet(1, …, 1) over rows)"},
    )  # fmt: skip


def _fit_binned(scores: Any, human: Any, edges: np.ndarray, design: Design, sampling: dict,
                how: dict) -> BayesianScoreCorrection:  # fmt: skip
    from ..alphabets import alphabet_counts
    from .fit import fit as fit_counts

    s, y, labelled = _scores_and_labels(scores, human)
    outside = np.flatnonzero((s < edges[0]) | (s > edges[-1]))
    if outside.size:
        raise LabelError(
            f"bins {edges.tolist()} leave {outside.size} score(s) outside (first at index "
            f"{outside[0]}: {s[outside[0]]!r}): the edges must span every score"
        )
    labels = np.full(s.size, None, dtype=object)
    labels[labelled] = y.astype(int)
    letters, table = alphabet_counts({"judge": s, "human": labels}, judge="judge", bins=edges,
                                     labels=[0, 1])  # fmt: skip
    res: Any = fit_counts(letters, table, confidence_level=how["level"], point=how["point"],
                          interval=how["interval"], design=design, **sampling)  # fmt: skip
    tree = res.posterior
    draws = np.asarray(tree["posterior"]["theta"].transpose(*SAMPLE_DIMS, "category").values)
    _add_draws(tree, "rate", draws[..., 1].ravel())
    return BayesianScoreCorrection(
        estimate=float(res.estimate[1]), ci=res.ci[1], method=METHOD, design=design,
        confidence_level=how["level"],
        estimator=(f"binned J × K model ({letters.counts.size} score bins as judge letters, "
                   f"Dirichlet columns), posterior {how['point']} (PyMC)"),
        link=None, bins=tuple(float(e) for e in edges), n_labelled=int(y.size),
        n_unlabelled=int((~labelled).sum()), m1=int(y.sum()),
        variance=float(np.var(draws[..., 1])), posterior=tree, point=how["point"],
        interval=how["interval"], sampler=how["sampler"], diagnostics=res.diagnostics,
        priors={"θ": "Beta(1, 1) (Dirichlet over the two classes)",
                "letters given each human class": "Dirichlet(1, …, 1)"},
        distribution=res,
    )  # fmt: skip
