"""Declarative priors for the Bayesian misclassification models.

A prior is a small frozen object, not a PyMC variable, so the same :class:`Priors` drives the
PyMC models (:func:`judgestats.bayes.build_model`) and the exact quadrature posterior
(``js.correct(..., method="bayes", priors=...)``), and can be stored, compared and printed.

* Binary model: ``Priors(theta=Beta(...), sensitivity=Beta(...), specificity=Beta(...))``,
  optionally ``better_than_chance=True`` (restrict q0 + q1 > 1).
* k categories: ``Priors(theta=Dirichlet(α), confusion=Dirichlet(β))`` with α of length k and
  β a k×k matrix in the :class:`~judgestats.multiclass.ConfusionMatrix` layout (rows = judge
  label, columns = human label), so that column b holds the Dirichlet parameters β_b of
  P(judge = · | human = b).

Unset fields mean flat priors: Beta(1, 1) for θ, q0, q1 and Dirichlet(1, …, 1) for θ and each
column of the confusion matrix. :meth:`Priors.from_calibration` turns a past calibration set
into an informative prior (its counts added to the base prior's parameters).

This module imports numpy only (it is part of the core; ``judgestats.bayes`` re-exports it).
PyMC is imported when a model is built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._validation import (
    ArgumentTypeError,
    PriorError,
    check_bool,
    check_concentration,
    check_concentration_shape,
    check_instance,
)
from .counts import ConfusionCounts
from .counts.categories import as_confusion_matrix

__all__ = ["Beta", "Dirichlet", "HyperPriors", "Priors"]


@dataclass(frozen=True, slots=True)
class Beta:
    """Beta(a, b) prior on a probability (θ, sensitivity q1 or specificity q0).

    Parameters
    ----------
    a, b : float, default 1
        Shape parameters, both finite and > 0. ``Beta(1, 1)`` is uniform; a past calibration
        with ``s`` successes and ``f`` failures becomes ``Beta(1 + s, 1 + f)``.

    Raises
    ------
    PriorError
        If ``a`` or ``b`` is <= 0, NaN or infinite.

    Examples
    --------
    >>> import judgestats as js
    >>> js.bayes.Beta(91, 11).mean
    0.8921568627450981
    """

    a: float = 1.0
    b: float = 1.0

    def __post_init__(self) -> None:
        for name in ("a", "b"):
            value = check_concentration(f"Beta prior parameter {name}", getattr(self, name))
            if np.ndim(value):
                raise PriorError(
                    f"Beta prior parameter {name} must be a scalar, got shape {np.shape(value)}"
                )
            object.__setattr__(self, name, float(value))

    @property
    def mean(self) -> float:
        """Prior mean a / (a + b)."""
        return self.a / (self.a + self.b)

    def __repr__(self) -> str:
        return f"Beta({self.a:g}, {self.b:g})"


@dataclass(frozen=True, slots=True)
class Dirichlet:
    """Dirichlet prior with concentration ``alpha``.

    Parameters
    ----------
    alpha : float or array_like, default 1
        A scalar means the symmetric prior Dirichlet(alpha, …, alpha) of whatever size the model
        needs. For θ an array must have length k; for the confusion matrix it must be k×k in the
        ConfusionMatrix layout (rows = judge label, columns = human label: column b is the
        concentration of P(judge = · | human = b)). All entries finite and > 0.

    Raises
    ------
    PriorError
        If an entry is <= 0, NaN or infinite, or (when the model is built) the shape does not
        match the number of categories.

    Examples
    --------
    >>> import judgestats as js
    >>> prior = js.bayes.Dirichlet([2, 1, 1])
    >>> prior
    Dirichlet((2.0, 1.0, 1.0))
    >>> js.bayes.Priors(theta=prior).categorical(3).theta
    array([2., 1., 1.])
    """

    alpha: Any = 1.0

    def __post_init__(self) -> None:
        value = check_concentration("Dirichlet prior alpha", self.alpha)
        if np.ndim(value) > 2:
            raise PriorError(
                "Dirichlet prior alpha must be a scalar, a vector or a k×k matrix, got shape "
                f"{np.shape(value)}"
            )
        if np.ndim(value):  # store as nested tuples: hashable, immutable
            value = tuple(map(tuple, value)) if np.ndim(value) == 2 else tuple(value.tolist())
        object.__setattr__(self, "alpha", value)

    def vector(self, k: int, name: str = "theta") -> np.ndarray:
        """Concentration as a length-``k`` vector (a scalar is broadcast)."""
        arr = np.asarray(self.alpha, dtype=float)
        if arr.ndim == 0:
            return np.full(k, float(arr))
        check_concentration_shape(f"{name} prior alpha", arr, (k,), f"k = {k} categories")
        return arr.copy()

    def matrix(self, k: int, name: str = "confusion", letters: int | None = None) -> np.ndarray:
        """Concentration as a J×k matrix (rows = judge label, columns = human label).

        J = k unless ``letters`` gives the judge alphabet's size.
        """
        j = k if letters is None else letters
        arr = np.asarray(self.alpha, dtype=float)
        if arr.ndim == 0:
            return np.full((j, k), float(arr))
        check_concentration_shape(
            f"{name} prior alpha",
            arr,
            (j, k),
            f"J = {j} judge labels × k = {k} categories; rows = judge label, columns = human "
            "label",
        )
        return arr.copy()

    def __repr__(self) -> str:
        return f"Dirichlet({self.alpha!r})"


@dataclass(frozen=True, slots=True)
class BinaryPriors:
    """Resolved binary priors (all parameters as floats); see :meth:`Priors.binary`."""

    theta: Beta
    specificity: Beta
    sensitivity: Beta
    better_than_chance: bool


@dataclass(frozen=True, slots=True)
class CategoricalPriors:
    """Resolved k-category priors; see :meth:`Priors.categorical`."""

    theta: np.ndarray = field(repr=False)  # (k,)
    confusion: np.ndarray = field(repr=False)  # (k, k), rows = judge, columns = human


@dataclass(frozen=True, slots=True)
class Priors:
    """Priors of the misclassification models (declarative; defaults are flat).

    Parameters
    ----------
    theta : Beta or Dirichlet, optional
        Prior of the true rate θ: a :class:`Beta` for the binary model (default Beta(1, 1)), a
        :class:`Dirichlet` over the k true categories otherwise (default Dirichlet(1)).
    sensitivity : Beta, optional
        Binary model: prior of q1 = P(judge = 1 | human = 1) (default Beta(1, 1)).
    specificity : Beta, optional
        Binary model: prior of q0 = P(judge = 0 | human = 0) (default Beta(1, 1)).
    confusion : Dirichlet, optional
        k categories: prior of the judge's confusion matrix, column b = P(judge = · | human = b)
        ~ Dirichlet(β_b); a scalar or a k×k matrix in the ConfusionMatrix layout (default 1).
    better_than_chance : bool, default False
        Binary model only: restrict the prior to q0 + q1 > 1, a judge better than chance. The
        prior of (q0, q1) becomes the product of the two Betas truncated to that region (and
        renormalised). This removes the mirror-image explanation of the data (a judge that is
        worse than chance, θ ↦ 1 − θ), which matters only when the calibration set leaves
        q0 + q1 <= 1 plausible: with a weak judge or a small calibration set it narrows the
        posterior of θ and moves it away from the mirrored values; with a clearly informative
        judge it changes nothing measurable. Without it the model needs no assumption beyond
        the priors, and a judge with q0 + q1 near 1 simply gives a wide posterior.

    Raises
    ------
    ArgumentTypeError
        If a field has the wrong type.
    PriorError
        If the priors do not fit the model (e.g. a Dirichlet θ for the binary model, or a
        concentration of the wrong length for k categories).

    Examples
    --------
    >>> import judgestats as js
    >>> js.bayes.Priors(sensitivity=js.bayes.Beta(9, 1)).binary().sensitivity
    Beta(9, 1)
    """

    theta: Beta | Dirichlet | None = None
    sensitivity: Beta | None = None
    specificity: Beta | None = None
    confusion: Dirichlet | None = None
    better_than_chance: bool = False

    def __post_init__(self) -> None:
        if self.theta is not None:
            check_instance("theta prior", self.theta, (Beta, Dirichlet))
        for name in ("sensitivity", "specificity"):
            value = getattr(self, name)
            if value is not None:
                check_instance(f"{name} prior", value, Beta)
        if self.confusion is not None:
            check_instance("confusion prior", self.confusion, Dirichlet)
        object.__setattr__(
            self, "better_than_chance", check_bool("better_than_chance", self.better_than_chance)
        )

    # -- resolution for a model ----------------------------------------------------------
    def binary(self) -> BinaryPriors:
        """Resolve for the binary model (flat defaults filled in).

        Raises
        ------
        PriorError
            If ``theta`` is a Dirichlet or ``confusion`` is set (k-category priors).
        """
        if isinstance(self.theta, Dirichlet):
            raise PriorError(
                "theta prior is a Dirichlet, which is for k categories; the binary model takes "
                "Beta(a, b)"
            )
        if self.confusion is not None:
            raise PriorError(
                "confusion prior is for the k-category model; the binary model takes "
                "sensitivity= and specificity= Beta priors"
            )
        return BinaryPriors(
            theta=self.theta or Beta(),
            specificity=self.specificity or Beta(),
            sensitivity=self.sensitivity or Beta(),
            better_than_chance=self.better_than_chance,
        )

    def categorical(self, k: int, letters: int | None = None) -> CategoricalPriors:
        """Resolve for the k-category model: θ concentration (k,), confusion (J, k).

        ``letters`` is the judge alphabet's size J (default k).

        Raises
        ------
        PriorError
            If binary-only priors are set (a Beta θ, sensitivity, specificity,
            ``better_than_chance``) or a concentration has the wrong shape.
        """
        if isinstance(self.theta, Beta):
            raise PriorError(
                "theta prior is a Beta, which is for the binary model; k categories take "
                f"Dirichlet(alpha) with alpha of length k = {k} (or a scalar)"
            )
        if self.sensitivity is not None or self.specificity is not None:
            raise PriorError(
                "sensitivity/specificity priors are for the binary model; k categories take "
                "confusion=Dirichlet(beta) with beta a k×k matrix (columns = human label)"
            )
        if self.better_than_chance:
            raise PriorError("better_than_chance applies to the binary model only")
        theta = (self.theta or Dirichlet()).vector(k, "theta")
        confusion = (self.confusion or Dirichlet()).matrix(k, "confusion", letters)
        return CategoricalPriors(theta=theta, confusion=confusion)

    # -- informative priors from past data ---------------------------------------------
    @classmethod
    def from_calibration(
        cls,
        calibration: Any,
        *,
        weight: float = 1.0,
        theta: Beta | Dirichlet | None = None,
        better_than_chance: bool = False,
    ) -> Priors:
        """Carry a past calibration set in as an informative prior on the judge's error rates.

        The posterior of a flat prior after the past counts becomes the new prior: with a
        :class:`~judgestats.ConfusionCounts`, sensitivity ~ Beta(1 + w·tp, 1 + w·fn) and
        specificity ~ Beta(1 + w·tn, 1 + w·fp); with a k×k confusion matrix (a
        ``ConfusionMatrix`` or an array, rows = judge label, columns = human label),
        confusion ~ Dirichlet(1 + w·counts).

        Parameters
        ----------
        calibration : ConfusionCounts, ConfusionMatrix or array_like
            The past calibration counts (one data set).
        weight : float, default 1
            Power-prior weight w > 0: 1 counts each past item as one new item, 0.5 as half an
            item (a discount for judge or data drift since the past calibration).
        theta : Beta or Dirichlet, optional
            Prior of θ (flat by default: θ is a property of the new test set).
        better_than_chance : bool, default False
            See :class:`Priors` (binary only).

        Examples
        --------
        >>> import judgestats as js
        >>> past = js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30)
        >>> js.bayes.Priors.from_calibration(past, weight=0.5).sensitivity
        Beta(46, 6)
        """
        w = check_concentration("weight", weight)
        if np.ndim(w):
            raise ArgumentTypeError(f"weight must be a scalar, got shape {np.shape(w)}")
        if isinstance(calibration, ConfusionCounts):
            if calibration.shape:
                raise PriorError(
                    f"calibration holds a batch of shape {calibration.shape}; a prior is built "
                    "from one data set"
                )
            return cls(
                theta=theta,
                sensitivity=Beta(1 + w * calibration.tp, 1 + w * calibration.fn),
                specificity=Beta(1 + w * calibration.tn, 1 + w * calibration.fp),
                better_than_chance=better_than_chance,
            )
        matrix, _ = as_confusion_matrix(calibration, name="calibration")
        return cls(theta=theta, confusion=Dirichlet(1 + w * matrix))

    def __repr__(self) -> str:
        parts = [
            f"{k}={getattr(self, k)!r}"
            for k in ("theta", "sensitivity", "specificity", "confusion")
            if getattr(self, k) is not None
        ]
        if self.better_than_chance:
            parts.append("better_than_chance=True")
        return f"Priors({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class HyperPriors:
    """Hyperpriors of the partially pooled judge error rates (``fit_stratified``).

    With ``pooling="partial"`` the stratum-level specificities and sensitivities are
    logit(q0_s) = μ0 + σ0 z0_s and logit(q1_s) = μ1 + σ1 z1_s with z ~ Normal(0, 1) per
    stratum (the non-centred form of Gelman & Carpenter's hierarchical
    sensitivity/specificity model), and

        μ0, μ1 ~ Normal(location_mean, location_sd),      σ0, σ1 ~ HalfNormal(scale_sd).

    Parameters
    ----------
    location_mean : float, default 0
        Prior mean of μ on the logit scale (0: a judge right half of the time).
    location_sd : float, default 1.5
        Prior sd of μ; 1.5 makes invlogit(μ) close to uniform on (0, 1).
    scale_sd : float, default 1
        Scale of the half-normal prior of σ, the spread of the strata's logits. Small values
        pool harder; σ = 1 lets, e.g., q = 0.88 and 0.98 (logits 2 and 3.9) sit in one family.

    Raises
    ------
    PriorError
        If a value is not finite or a standard deviation is <= 0.

    Examples
    --------
    >>> import judgestats as js
    >>> js.bayes.HyperPriors(scale_sd=0.5)
    HyperPriors(location_mean=0.0, location_sd=1.5, scale_sd=0.5)
    """

    location_mean: float = 0.0
    location_sd: float = 1.5
    scale_sd: float = 1.0

    def __post_init__(self) -> None:
        for name in ("location_mean", "location_sd", "scale_sd"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float | np.floating):
                raise ArgumentTypeError(
                    f"HyperPriors.{name} must be a real number, got {value!r}"
                )
            value = float(value)
            if not np.isfinite(value) or (name != "location_mean" and value <= 0):
                what = "finite" if name == "location_mean" else "finite and > 0"
                raise PriorError(f"HyperPriors.{name} must be {what}, got {value!r}")
            object.__setattr__(self, name, value)
