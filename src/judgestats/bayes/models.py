"""PyMC misclassification models: binary (Beta priors) and k categories (Dirichlet priors).

Both are full joint models: the test counts inform θ and the judge's error rates together with
the calibration counts.

Binary (:class:`~judgestats.JudgedCounts`, :class:`~judgestats.ConfusionCounts`)::

    theta ~ Beta(aθ, bθ)          specificity q0 ~ Beta(a0, b0)      sensitivity q1 ~ Beta(a1, b1)
    positive ~ Binomial(n, θ q1 + (1 − θ)(1 − q0))
    tn ~ Binomial(m0, q0)         tp ~ Binomial(m1, q1)

With ``Priors(better_than_chance=True)`` the prior of (q0, q1) is truncated to q0 + q1 > 1:
q1 is sampled from its Beta prior and q0 = (1 − q1) + q1·u with u in (0, 1) (a deterministic
``specificity`` from the free ``specificity_offset`` u), plus a potential holding the Beta(a0, b0)
density of q0 and the Jacobian — the product of the two Betas restricted to that region.

k categories (``judgestats.multiclass.CategoryCounts`` / ``ConfusionMatrix`` or plain arrays: a
length-k vector of test judge counts and a k×k calibration matrix, rows = judge label, columns
= human label)::

    theta ~ Dirichlet(α)                                  dims ("category",)
    confusion[b, :] = P(judge = · | human = b) ~ Dirichlet(β_b)
                                              dims ("category", "judge_category")
    test_counts ~ Multinomial(n, θ · confusion)           dims ("judge_category",)
    calibration_counts[b, :] ~ Multinomial(m_b, confusion[b, :])

``confusion`` is stored with the true (human) category first so that each row is one Dirichlet
draw: it is the transpose of the ConfusionMatrix counts layout (rows = judge, columns = human),
and so is the ``calibration_counts`` observed variable. The labels are the coords ``category``
(true classes) and ``judge_category`` (judge labels).

Random and by-judge-label designs (:mod:`judgestats.designs`, binary only): three independent
binomials, with Jeffreys' Beta(1/2, 1/2) priors by default (the exact posterior's,
:mod:`judgestats.designs.posterior`)::

    judge_rate π ~ Beta(a, b)     ppv ~ Beta(a, b)      for_rate ~ Beta(a, b)
    judged ~ Binomial(n_π, π)     tp ~ Binomial(k1, ppv)      fn ~ Binomial(k0, for_rate)
    theta = π·ppv + (1 − π)·for_rate            (deterministic)

with n_π = n + m judged items under ``"random"`` and n under ``"by-judge-label"``.

The counts enter through ``pm.Data`` containers (floats, so that ``pm.set_data`` takes plain
Python ints), so a built model can be refitted to other data of the same shape with
``pm.set_data``. Every data set of one shape gives the same graph, so its compiled code is found
in PyTensor's on-disk compile cache (``base_compiledir``), in a new process too: that cache,
not a graph kept in memory, is what makes a refit or a later fit fast (PyMC compiles the
model's functions again at every ``pm.sample``; ``benchmarks/results/bayes.md``). PyMC is
imported when a model is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    CountError,
    check_category_counts,
    check_category_labels,
    check_confusion_counts,
    check_instance,
    check_labels_match,
    check_single,
    check_unclustered,
)
from ..counts import ConfusionCounts, JudgedCounts
from ..counts.categories import CategoryCounts, ConfusionMatrix, as_confusion_matrix
from ..designs import (
    DEFAULT_DESIGN,
    Design,
    JudgeConditionalDesign,
    RoganGladenDesign,
    as_design,
    design_counts,
)
from ..designs.posterior import JEFFREYS
from ..priors import Priors

if TYPE_CHECKING:  # pragma: no cover
    import pymc as pm

__all__ = ["build_model"]

BINARY_FREE = ("theta", "specificity", "sensitivity")
DESIGN_FREE = ("judge_rate", "ppv", "for_rate")
CATEGORICAL_FREE = ("theta", "confusion")


def is_binary(test: Any, calibration: Any) -> bool:
    """Tell binary counts objects (True) from k-category inputs, objects or arrays (False)."""
    if isinstance(test, JudgedCounts) or isinstance(calibration, ConfusionCounts):
        hint = "a model is fitted to one data set (use js.correct(..., method='bayes') on batches)"
        check_single("test", test, JudgedCounts, batch_hint=hint)
        check_single("calibration", calibration, ConfusionCounts, batch_hint=hint)
        return True
    return False


def as_category_counts(test: Any, name: str = "test") -> tuple[np.ndarray, tuple | None]:
    """Per-category judge counts and their labels (``None`` for a plain array)."""
    if isinstance(test, ConfusionMatrix):
        raise ArgumentTypeError(
            f"{name} is a ConfusionMatrix; the test set takes CategoryCounts (judge labels only)"
        )
    if isinstance(test, CategoryCounts):
        counts = check_category_counts(f"{name} counts", test.counts)
        return counts, check_category_labels(f"{name} labels", test.labels, counts.size)
    return check_category_counts(name, test), None


def categorical_data(
    test: Any, calibration: Any, labels: Any = None
) -> tuple[np.ndarray, np.ndarray, tuple, tuple]:
    """Validate k-category data: test counts (J,), calibration (J, K), labels (K), letters (J).

    J = K unless the calibration is a ConfusionMatrix with a judge alphabet of its own (or a
    J×K array with J > K): then the test counts are over the J judge letters.
    """
    if isinstance(calibration, ConfusionMatrix) and not calibration.square:
        counts, test_labels = as_category_counts(test)
        if test_labels is not None:
            check_labels_match("test labels", test_labels, "calibration judge_labels",
                               calibration.judge_labels)  # fmt: skip
        if counts.size != calibration.j:
            raise CountError(f"test counts have {counts.size} judge labels, the calibration "
                             f"matrix {calibration.j}")  # fmt: skip
        if labels is not None:
            check_labels_match("labels", check_category_labels("labels", labels, calibration.k),
                               "the calibration labels", calibration.labels)  # fmt: skip
        matrix = np.asarray(calibration.counts)
        check_confusion_counts("calibration", matrix, calibration.k, calibration.labels,
                               letters=calibration.j)  # fmt: skip
        return counts, matrix, calibration.labels, calibration.judge_labels
    arr = None if isinstance(calibration, ConfusionMatrix) else np.asarray(calibration)
    if arr is not None and arr.ndim == 2 and arr.shape[0] > arr.shape[1] >= 2:
        counts, test_labels = as_category_counts(test)
        k = arr.shape[1]
        labels = tuple(range(k)) if labels is None else check_category_labels("labels", labels, k)
        letters = test_labels if test_labels is not None else tuple(range(counts.size))
        return (counts, check_confusion_counts("calibration", arr, k, labels,
                                               letters=counts.size), labels, letters)  # fmt: skip
    counts, test_labels = as_category_counts(test)
    k = counts.size
    if labels is not None:
        labels = check_category_labels("labels", labels, k)
    hint = labels if labels is not None else test_labels
    matrix, cal_labels = as_confusion_matrix(calibration, k=k, labels=hint)
    if test_labels is not None and cal_labels is not None:
        check_labels_match("test labels", test_labels, "calibration labels", cal_labels)
    known = test_labels if test_labels is not None else cal_labels
    if labels is not None:
        if known is not None:
            check_labels_match("labels", labels, "the counts' labels", known)
    else:
        labels = known if known is not None else tuple(range(k))
    return counts, matrix, labels, labels


def build_model(
    test: Any, calibration: Any, *, priors: Priors | None = None, labels: Any = None,
    design: str = DEFAULT_DESIGN,
) -> pm.Model:  # fmt: skip
    """Build the (unsampled) PyMC misclassification model for one data set.

    Parameters
    ----------
    test : JudgedCounts, CategoryCounts or array_like
        Judge labels on the test set: binary counts, or k-category counts (an object with
        ``counts`` and ``labels`` or a length-k vector, k >= 2).
    calibration : ConfusionCounts, ConfusionMatrix or array_like
        Human-vs-judge counts: binary, or a k×k matrix (rows = judge label, columns = human
        label; every column non-empty).
    priors : Priors, optional
        Beta priors (binary) or Dirichlet priors (k categories); flat by default.
    labels : sequence, optional
        k-category labels for plain arrays (default ``0, …, k − 1``); must match the objects'
        labels when they carry their own.
    design : {"by-human-label", "random", "by-judge-label"}, default "by-human-label"
        How the calibration items were chosen; the other designs take binary counts and give
        the three-binomial model above (``priors`` must be None: Jeffreys' priors).

    Returns
    -------
    pymc.Model
        Binary: free variables ``theta``, ``specificity`` (q0), ``sensitivity`` (q1); observed
        ``positive``, ``tn``, ``tp``. k categories: ``theta`` (dims ``category``) and
        ``confusion`` (dims ``category``, ``judge_category``); observed ``test_counts`` and
        ``calibration_counts``. Extend it inside ``with model:``.

    Raises
    ------
    ArgumentTypeError, CountError, LabelError, PriorError
        On invalid counts, labels that do not match, or priors that do not fit the model.

    Examples
    --------
    >>> import judgestats as js
    >>> model = js.bayes.build_model(js.JudgedCounts(positive=600, n=1000),
    ...                              js.ConfusionCounts(tp=90, fn=10, tn=70, fp=30))
    >>> sorted(model.named_vars)[:3]
    ['m0', 'm1', 'n']
    """
    check_model_data(test, calibration)
    return design_model(test, calibration, priors=priors, labels=labels,
                        design=as_design(design)).model  # fmt: skip


def check_model_data(test: Any, calibration: Any) -> None:
    """Refuse counts with repeated items (no item random effect is modelled yet)."""
    check_unclustered(
        "js.bayes.build_model", "an item random effect is not modelled yet: use js.correct "
        "(method 'adjusted-wald' or 'bootstrap'), or for k categories js.correct_distribution "
        "(method 'adjusted-delta' or 'wald'), which account for the repeats",
        test, calibration,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class DesignModel:
    """The unsampled model of a design (:func:`design_model`).

    Attributes
    ----------
    model : pymc.Model
    free : tuple of str
        Its free (sampled) variables, for the diagnostics.
    priors : Priors or None
        The priors in force (None: the three-binomial model's Jeffreys priors).
    """

    model: Any
    free: tuple[str, ...]
    priors: Priors | None


def design_model(
    test: Any, calibration: Any, *, priors: Any, labels: Any, design: Design
) -> DesignModel:
    """Build the model of a resolved design's estimator family (:attr:`Design.family`).

    :func:`build_model`'s work once the design is resolved and the data checked
    (:func:`check_model_data`); raises its errors.
    """
    return _MODELS[design.family](test, calibration, priors, labels, design)


def _paper_models(test: Any, calibration: Any, priors: Any, labels: Any, _: Design) -> DesignModel:
    """Build Rogan–Gladen's likelihood: the Beta (binary) or Dirichlet (k categories) model."""
    priors = Priors() if priors is None else check_instance("priors", priors, Priors)
    if is_binary(test, calibration):
        if labels is not None:
            raise ArgumentTypeError("labels apply to k-category data, not to binary counts")
        return DesignModel(_binary_model(test, calibration, priors), BINARY_FREE, priors)
    counts, matrix, labels, letters = categorical_data(test, calibration, labels)
    model = _categorical_model(counts, matrix, labels, letters, priors)
    return DesignModel(model, CATEGORICAL_FREE, priors)


def _conditional_models(
    test: Any, calibration: Any, priors: Any, labels: Any, design: Design
) -> DesignModel:
    """Build the judge-conditional likelihood: three binomials, Jeffreys priors (binary only)."""
    if priors is not None or labels is not None or not is_binary(test, calibration):
        raise ArgumentTypeError(
            f"design={str(design)!r} takes binary counts and no priors or labels (its model has "
            "Jeffreys' priors on the judge-positive rate, PPV and FOR)"
        )
    return DesignModel(_design_model(test, calibration, design), DESIGN_FREE, None)


#: The model of each estimator family (:attr:`judgestats.designs.Design.family`).
_MODELS = {
    RoganGladenDesign.family: _paper_models,
    JudgeConditionalDesign.family: _conditional_models,
}


def _count_data(*named: tuple[str, Any]) -> list[Any]:
    """Scalar counts as ``pm.Data`` containers that :func:`pymc.set_data` can refill.

    The containers hold floats: ``pm.set_data`` turns a plain Python number (no dtype) into a
    float array, which an integer container refuses ("Scalar(int32) cannot store a value of
    dtype float64"); a float container takes Python ints, NumPy ints and floats alike, and
    holds every count below 2**53 exactly (2**24 with ``floatX = float32``). Observed values
    are cast to the likelihood's integer type by PyMC; the trial counts are cast here, so
    prior and posterior predictive draws stay integer.
    """
    import pymc as pm
    import pytensor.tensor as pt

    out = []
    for name, value in named:
        data = pm.Data(name, np.asarray(value, dtype=np.float64))
        out.append(data if name.endswith("_observed") else pt.cast(data, "int64"))
    return out


def _binary_model(test: JudgedCounts, cal: ConfusionCounts, priors: Priors) -> pm.Model:
    import pymc as pm
    import pytensor.tensor as pt

    p = priors.binary()
    with pm.Model() as model:
        n, m0, m1, positive, tn, tp = _count_data(
            ("n", test.n), ("m0", cal.m0), ("m1", cal.m1), ("positive_observed", test.positive),
            ("tn_observed", cal.tn), ("tp_observed", cal.tp),
        )  # fmt: skip
        theta = pm.Beta("theta", alpha=p.theta.a, beta=p.theta.b)
        sensitivity = pm.Beta("sensitivity", alpha=p.sensitivity.a, beta=p.sensitivity.b)
        if p.better_than_chance:
            # q0 in (1 − q1, 1): q0 = 1 − q1 + q1·u; prior density Beta(q0 | a0, b0) · |dq0/du|
            offset = pm.Uniform("specificity_offset", 0.0, 1.0)
            specificity = pm.Deterministic("specificity", 1.0 - sensitivity + sensitivity * offset)
            pm.Potential(
                "specificity_prior",
                pm.logp(pm.Beta.dist(alpha=p.specificity.a, beta=p.specificity.b), specificity)
                + pt.log(sensitivity),
            )
        else:
            specificity = pm.Beta("specificity", alpha=p.specificity.a, beta=p.specificity.b)
        judged = theta * sensitivity + (1.0 - theta) * (1.0 - specificity)
        pm.Binomial("positive", n=n, p=judged, observed=positive)
        pm.Binomial("tn", n=m0, p=specificity, observed=tn)
        pm.Binomial("tp", n=m1, p=sensitivity, observed=tp)
    return model


def _design_model(test: JudgedCounts, cal: ConfusionCounts, design: Design) -> pm.Model:
    import pymc as pm

    x, n_pi, tp, k1, fn, k0 = design_counts(test, cal, design)
    a, b = JEFFREYS
    with pm.Model() as model:
        n_pi, x, k1, tp, k0, fn = _count_data(
            ("n_judged", n_pi), ("judged_observed", x), ("k1", k1), ("tp_observed", tp),
            ("k0", k0), ("fn_observed", fn),
        )  # fmt: skip
        judge_rate = pm.Beta("judge_rate", alpha=a, beta=b)
        ppv = pm.Beta("ppv", alpha=a, beta=b)
        for_rate = pm.Beta("for_rate", alpha=a, beta=b)
        pm.Binomial("judged", n=n_pi, p=judge_rate, observed=x)
        pm.Binomial("tp", n=k1, p=ppv, observed=tp)
        pm.Binomial("fn", n=k0, p=for_rate, observed=fn)
        pm.Deterministic("theta", judge_rate * ppv + (1.0 - judge_rate) * for_rate)
    return model


def _categorical_model(
    counts: np.ndarray, matrix: np.ndarray, labels: tuple, letters: tuple, priors: Priors
) -> pm.Model:
    import pymc as pm
    import pytensor.tensor as pt

    p = priors.categorical(len(labels), len(letters))
    coords = {"category": list(labels), "judge_category": list(letters)}
    with pm.Model(coords=coords) as model:
        test_obs = pm.Data("test_counts_observed", counts, dims="judge_category")
        cal_obs = pm.Data(
            "calibration_counts_observed", matrix.T.copy(), dims=("category", "judge_category")
        )
        theta = pm.Dirichlet("theta", a=p.theta, dims="category")
        confusion = pm.Dirichlet(
            "confusion", a=p.confusion.T.copy(), dims=("category", "judge_category")
        )
        judged = pt.dot(theta, confusion)
        pm.Multinomial(
            "test_counts", n=test_obs.sum(), p=judged, observed=test_obs, dims="judge_category"
        )
        pm.Multinomial(
            "calibration_counts",
            n=cal_obs.sum(axis=1),
            p=confusion,
            observed=cal_obs,
            dims=("category", "judge_category"),
        )
    return model
