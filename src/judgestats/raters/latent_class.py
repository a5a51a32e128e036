"""``dawid_skene()``: the latent true class seen through several raters, the judge among them.

Every rater, human or judge, is a noisy view of one latent true class (Dawid & Skene 1979):
rater ``r`` labels an item of true class ``c`` with ``l`` with probability ``π_r[c, l]``,
independently of the other raters given the class; the classes have prevalence ``p``. The
estimate of interest is ``p̂``, "the rate of the latent true class" (``reference="latent"``),
fitted with every rater's confusion matrix by EM (:mod:`judgestats.raters.latent_em`).

**Identifiability.** The model needs at least three conditionally independent raters (the
judge counts as one) whose ratings overlap on enough items; :func:`dawid_skene` refuses fewer
with :class:`~judgestats.errors.UnidentifiableModelError`. With exactly three raters none may
be at chance (Kruskal's condition, Allman, Matias & Rhodes 2009): a fit where fewer than three
raters tell the classes apart, or a class has almost no items, warns
:class:`~judgestats.errors.LatentBoundaryWarning`. Three raters are the bare minimum, and with
one of them weak the model is identified only weakly: the prevalence is read off ratios of the
raters' covariances whose denominators are near zero, so ``p̂`` is skewed and far from normal
at a few hundred items (biased by −0.10 to +0.09 below 500 items). There the sandwich
covered 0.60–0.92 and the item bootstrap 0.63–0.88, the profile-likelihood interval (the
default) 0.92–1.00 (``benchmarks/results/raters_intervals.md``, part A: 6 three-rater cells,
one rater's Youden's J 0.14–0.31, 58–1,491 items, 60 data sets each); such a fit says in its
``notes`` that ``p̂`` may be biased. With four to six raters, one weak, the profile and the
sandwich agree (0.85–1.00 and 0.82–1.00, part B). Each rater's accuracy and per-class rates
get the sandwich interval, which is short with three raters, one weak (accuracy 0.62–0.93,
sensitivity and specificity down to 0.22, part A), and for a per-class rate estimated on few
items of its class even with more raters (down to 0.58, part B): read them as descriptions.

**Misspecification.** Raters that share errors (two humans who stumble on the same hard items,
a judge that copies one of them) break conditional independence; the model then counts their
agreement as evidence and ``p̂`` is biased. ``benchmarks/results/raters_latent.md`` measures
that bias beside the majority vote's.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    ArgumentTypeError,
    LabelError,
    LatentBoundaryWarning,
    UnidentifiableModelError,
    check_choice,
    check_confidence_level,
    check_positive_int,
    check_rng,
)
from ..results import ConfidenceInterval
from .latent_em import EMFit, em_fit, one_hot, orient, patterns, vote_shares
from .latent_intervals import (
    Quantities,
    bootstrap_bounds,
    covariance,
    profile_bounds,
    wald_bounds,
)

__all__ = [
    "LATENT_METHODS",
    "MIN_RATERS",
    "MIN_SHARED_ITEMS",
    "SEPARATION_MIN",
    "WEAK_SEPARATION",
    "LatentClassFit",
    "dawid_skene",
]

#: Interval methods of the latent prevalence and the raters' accuracies (module
#: :mod:`judgestats.raters.latent_intervals`); the first is the default. ``"profile"``: the
#: prevalences by profile likelihood, the raters' accuracies and per-class rates by the sandwich.
LATENT_METHODS = ("profile", "bootstrap", "sandwich", "observed-information")
#: Raters the model needs (the judge counts as one).
MIN_RATERS = 3
#: Items rated by at least :data:`MIN_RATERS` raters that the model needs.
MIN_SHARED_ITEMS = 10
#: A rater tells two classes apart when its rows differ by at least this much (total
#: variation; for two classes, Youden's J = sensitivity + specificity − 1).
SEPARATION_MIN = 0.05
#: With exactly three raters, a rater separating the classes by less than this is weak:
#: the fit's notes say the estimate may be biased (``benchmarks/results/raters_latent.md``).
WEAK_SEPARATION = 0.4
#: k > 2 classes: a latent class whose items the raters give its own label less often than
#: this on average is not the class they name (``benchmarks/results/raters_intervals.md``,
#: part C: a category at 1% of 451 items); the fit warns.
SEEN_MIN = 0.5
#: EM iterations from every start of :func:`starts`; the best start then runs to convergence.
START_ITER = 200
_ESTIMATOR = "Dawid-Skene latent class model (EM)"


@dataclass(frozen=True, slots=True)
class LatentClassFit:
    """The Dawid–Skene fit: the latent prevalence, each rater's confusion, item posteriors.

    Attributes
    ----------
    estimate : float
        ``p̂`` of the class ``positive``: the rate of the latent true class.
    ci : ConfidenceInterval
        Its interval (``method`` at ``confidence_level``).
    prevalence, prevalence_ci : ndarray, shapes (k,) and (k, 2)
        Every latent class's prevalence and interval, in the order of ``categories``.
    confusion : ndarray, shape (R, k, k)
        ``π̂_r[c, l]``: rater ``r`` labels an item of latent class ``c`` with ``l``.
    accuracy, accuracy_ci : ndarray, shapes (R,) and (R, 2)
        Each rater's accuracy against the latent class, ``Σ_c p̂_c π̂_r[c, c]``, and interval.
    diagonal_ci : ndarray, shape (R, k, 2), or None
        The interval of each ``π̂_r[c, c]``: rater ``r`` labels an item of class ``c``
        rightly (two classes: specificity, sensitivity; :attr:`sensitivity_ci`,
        :attr:`specificity_ci`). By ``method`` (the sandwich where ``method="profile"``).
    class_probabilities : ndarray, shape (n, k)
        Each item's posterior class probabilities (the items with a rating, in order).
    raters, categories : tuple
        The raters (columns of the code matrix) and the classes (codes 0..k−1).
    positive : object
        The class whose prevalence is ``estimate``.
    judge : str or None
        The rater that is the judge (one more rater to the model).
    method, confidence_level, reference, estimator : str, float, str, str
        What was computed: ``reference`` is ``"latent"``.
    n_items, n_ratings, iterations : int
        Items with a rating, ratings, EM iterations.
    loglik : float
        Maximised marginal log-likelihood.
    converged : bool
        EM met its tolerance within ``max_iter`` iterations.
    notes : tuple of str
        Boundary notes (also warned) and refits that failed.

    Examples
    --------
    Made by :func:`dawid_skene`; here on simulated ratings of 400 items by three humans and a
    weaker judge (accuracies 0.9, 0.85, 0.8 and 0.65; 105 items truly positive):

    >>> import numpy as np
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.random(400) < 0.3
    >>> right = rng.random((400, 4)) < [0.9, 0.85, 0.8, 0.65]
    >>> codes = np.where(right, truth[:, None], ~truth[:, None]).astype(int)
    >>> fit = js.raters.dawid_skene(codes, raters=["ann", "bob", "cy", "gpt"], judge="gpt",
    ...                             method="sandwich")
    >>> round(fit.estimate, 3), round(fit.ci.low, 3), round(fit.ci.high, 3)
    (0.242, 0.19, 0.303)
    >>> fit.to_dataframe()[["rater", "judge", "accuracy"]].round(3)
      rater  judge  accuracy
    0   ann  False     0.923
    1   bob  False     0.840
    2    cy  False     0.811
    3   gpt   True     0.656
    """

    estimate: float
    ci: ConfidenceInterval
    prevalence: np.ndarray
    prevalence_ci: np.ndarray
    confusion: np.ndarray
    accuracy: np.ndarray
    accuracy_ci: np.ndarray
    class_probabilities: np.ndarray
    raters: tuple
    categories: tuple
    positive: Any
    judge: str | None
    method: str
    confidence_level: float
    n_items: int
    n_ratings: int
    loglik: float
    iterations: int
    converged: bool
    notes: tuple[str, ...] = ()
    diagonal_ci: np.ndarray | None = None
    reference: str = "latent"
    estimator: str = _ESTIMATOR

    @property
    def sensitivity(self) -> np.ndarray:
        """Each rater's ``π̂_r[1, 1]`` (two classes: the second is the positive one)."""
        return self._binary()[:, 1, 1]

    @property
    def specificity(self) -> np.ndarray:
        """Each rater's ``π̂_r[0, 0]`` (two classes)."""
        return self._binary()[:, 0, 0]

    @property
    def sensitivity_ci(self) -> np.ndarray:
        """Each rater's sensitivity interval ``(R, 2)`` (two classes)."""
        self._binary()
        return self._diagonal()[:, 1]

    @property
    def specificity_ci(self) -> np.ndarray:
        """Each rater's specificity interval ``(R, 2)`` (two classes)."""
        self._binary()
        return self._diagonal()[:, 0]

    def _diagonal(self) -> np.ndarray:
        if self.diagonal_ci is None:
            return np.full((len(self.raters), len(self.categories), 2), np.nan)
        return self.diagonal_ci

    def _binary(self) -> np.ndarray:
        if len(self.categories) != 2:
            raise ArgumentTypeError(
                f"sensitivity and specificity need two classes, got {len(self.categories)}: "
                "read confusion instead"
            )
        return self.confusion

    def to_dataframe(self) -> Any:
        """One row per rater: accuracy with its interval, and the confusion's diagonal."""
        import pandas as pd

        frame = pd.DataFrame({
            "rater": list(self.raters),
            "judge": [r == self.judge for r in self.raters],
            "accuracy": self.accuracy,
            "accuracy_low": self.accuracy_ci[:, 0],
            "accuracy_high": self.accuracy_ci[:, 1],
        })  # fmt: skip
        diagonal = self._diagonal()
        for c, name in enumerate(self.categories):
            frame[f"p_correct_{name}"] = self.confusion[:, c, c]
            frame[f"p_correct_{name}_low"] = diagonal[:, c, 0]
            frame[f"p_correct_{name}_high"] = diagonal[:, c, 1]
        return frame

    def summary(self) -> str:
        """Return the latent prevalence and each rater's accuracy, as text."""
        low, high = self.ci
        lines = [
            f"latent prevalence of {self.positive!r}: {self.estimate:.3f} "
            f"[{low:.3f}, {high:.3f}] ({self.method}, {self.confidence_level:.0%}; "
            f"{self.n_items} items, {len(self.raters)} raters, {self.estimator})"
        ]
        how = " (sandwich)" if self.method == "profile" else ""
        for r, name in enumerate(self.raters):
            tag = " (judge)" if name == self.judge else ""
            a_low, a_high = self.accuracy_ci[r]
            lines.append(f"  {name}{tag}: accuracy {self.accuracy[r]:.3f} "
                         f"[{a_low:.3f}, {a_high:.3f}]{how}")  # fmt: skip
        lines.extend(f"note: {note}" for note in self.notes)
        return "\n".join(lines)

    def __repr__(self) -> str:
        low, high = self.ci
        return (
            f"LatentClassFit(estimate={self.estimate:.6g}, ci=[{low:.6g}, {high:.6g}], "
            f"reference='latent', method={self.method!r}, "
            f"confidence_level={self.confidence_level}, {self.n_items} items, "
            f"raters={list(self.raters)!r}, judge={self.judge!r})"
        )


def _check_codes(codes: Any, categories: Any) -> tuple[np.ndarray, tuple]:
    """Return a 2-D integer code matrix (−1 missing) and its categories (codes 0..k−1)."""
    arr = np.asarray(codes)
    if arr.ndim != 2 or arr.dtype.kind not in "iu":
        raise ArgumentTypeError(
            "codes must be a 2-D integer array (items × raters, −1 where missing), got "
            f"{arr.ndim}-D array of dtype {arr.dtype}"
        )
    arr = arr.astype(np.int64)
    if categories is None:
        categories = tuple(range(max(int(arr.max(initial=-1)) + 1, 2)))
    categories = tuple(categories)
    k = len(categories)
    bad = (arr < -1) | (arr >= k)
    if bad.any():
        value = int(arr[bad][0])
        raise LabelError(
            f"codes must be −1 (missing) or a class code 0..{k - 1} (categories "
            f"{list(categories)!r}), got {value}"
        )
    if k < 2:
        raise LabelError(f"the latent-class model needs at least 2 categories, got {k}")
    return arr, categories


def _check_identified(codes: np.ndarray, raters: tuple) -> np.ndarray:
    """Refuse fewer than 3 raters or shared items (named error); return the rated items."""
    rated = codes >= 0
    active = [name for name, any_ in zip(raters, rated.any(axis=0), strict=True) if any_]
    if len(active) < MIN_RATERS:
        raise UnidentifiableModelError(
            f"the latent-class model needs at least {MIN_RATERS} conditionally independent "
            f"raters (the judge counts as one; Dawid & Skene 1979), got {len(active)}: "
            f"{active!r}; add a rater, or estimate reference='rater' or 'majority'"
        )
    shared = int((rated.sum(axis=1) >= MIN_RATERS).sum())
    if shared < MIN_SHARED_ITEMS:
        raise UnidentifiableModelError(
            f"the latent-class model needs at least {MIN_SHARED_ITEMS} items rated by "
            f"{MIN_RATERS} or more raters, got {shared} of {codes.shape[0]} items"
        )
    return rated.any(axis=1)


def starts(onehot: np.ndarray) -> np.ndarray:
    """EM's starting posteriors ``(1 + R, n, k)``: the vote shares, then each rater leaning.

    Start ``1 + r`` averages the vote shares with rater ``r``'s own label (its vote shares
    where ``r`` did not rate). With three raters, one weak, EM from the vote shares alone
    stopped at a lower local maximum in 4% of simulated data sets (``benchmarks/results/
    raters_weak.md``); the best of these starts is kept.
    """
    shares = vote_shares(onehot)
    rated = onehot.sum(axis=2, keepdims=True) > 0  # (n, R, 1)
    leaning = np.where(rated, (shares[:, None, :] + onehot) / 2, shares[:, None, :])
    return np.concatenate([shares[None], leaning.transpose(1, 0, 2)])


def fit_codes(codes: np.ndarray, k: int, *, tol: float, max_iter: int) -> EMFit:
    """Return the oriented maximum-likelihood fit of one code matrix, posteriors per pattern.

    EM runs from every start of :func:`starts` and the highest likelihood is kept.
    ``posterior`` is over the distinct rating patterns of :func:`~.latent_em.patterns`.
    """
    unique, _, counts = patterns(codes)
    onehot = one_hot(unique, k)
    first = starts(onehot)
    weights = np.broadcast_to(counts, (first.shape[0], counts.size))
    fit = em_fit(onehot, weights, first, tol=tol, max_iter=min(max_iter, START_ITER))
    b = int(np.argmax(fit.loglik))  # ties: the first (the vote shares)
    if not fit.converged[b] and max_iter > START_ITER:  # the best start goes on alone
        fit = em_fit(onehot, counts[None], (fit.prevalence[b : b + 1], fit.confusion[b : b + 1]),
                     tol=tol, max_iter=max_iter - START_ITER)  # fmt: skip
        b = 0
    best = EMFit(fit.prevalence[b : b + 1], fit.confusion[b : b + 1], fit.posterior[b : b + 1],
                 fit.loglik[b : b + 1], fit.iterations, fit.converged[b : b + 1])  # fmt: skip
    return orient(best)


def separation(confusion: np.ndarray) -> np.ndarray:
    """Each rater's smallest total-variation distance between two rows ``(R,)``.

    Two classes: ``|sensitivity + specificity − 1|`` (Youden's J); 0 for a rater at chance.
    """
    k = confusion.shape[-1]
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    dist = [0.5 * np.abs(confusion[..., a, :] - confusion[..., b, :]).sum(axis=-1)
            for a, b in pairs]  # fmt: skip
    return np.min(dist, axis=0)


def boundary_notes(prevalence, confusion, n_items: int, raters: tuple) -> list[str]:
    """Return what puts a fit on the boundary of identifiability (empty when nothing does)."""
    notes = []
    sep = separation(confusion)
    informative = int((sep >= SEPARATION_MIN).sum())
    if informative < MIN_RATERS:
        weak = [name for name, s in zip(raters, sep, strict=True) if s < SEPARATION_MIN]
        notes.append(
            f"only {informative} raters tell the latent classes apart (rows differing by "
            f"≥ {SEPARATION_MIN}); {weak!r} are near chance: the model is barely identified"
        )
    small = prevalence * n_items < 1
    if small.any():
        notes.append(
            f"latent class(es) {np.flatnonzero(small).tolist()!r} have an expected count under "
            "one item: the fit sits on the boundary p̂ = 0"
        )
    seen = np.diagonal(confusion, axis1=1, axis2=2).mean(axis=0)  # (k,)
    unseen = np.flatnonzero(seen < SEEN_MIN)
    if confusion.shape[-1] > 2 and unseen.size:
        notes.append(
            f"the raters label the items of latent class(es) {unseen.tolist()!r} with that "
            f"class only {seen[unseen].round(2).tolist()!r} of the time on average (< "
            f"{SEEN_MIN}): the class the model found is not the one the raters name, as when "
            "a category is nearly absent and the model splits another; merge rare categories"
        )
    return notes


def minimum_notes(confusion: np.ndarray, raters: tuple) -> list[str]:
    """Return the note of a fit on exactly three raters, one of them weak (no warning).

    Measured (module docstring): the estimate can be biased there, and only the profile
    interval of the prevalence holds.
    """
    sep = separation(confusion)
    if int((sep >= SEPARATION_MIN).sum()) != MIN_RATERS or sep.min() >= WEAK_SEPARATION:
        return []
    weakest = raters[int(np.argmin(sep))]
    return [
        f"three raters, the minimum the model needs, and {weakest!r} is weak (separation "
        f"{sep.min():.2f}): in simulation such estimates were biased by up to 0.1 below about "
        "1,000 items and only the profile interval of the prevalence held (the raters' own "
        "intervals fell short); a fourth rater makes the estimate hold"
    ]


def _bounds(method, codes, k, fit, level, options):
    """Bounds ``(k + R, 2)`` of the quantities by ``method``, and notes."""
    p, pi, post = fit.prevalence[0], fit.confusion[0], fit.posterior[0]
    unique, inverse, counts = patterns(codes)
    onehot = one_hot(unique, k)
    if method == "bootstrap":
        bounds, failed = bootstrap_bounds(onehot, inverse, p, pi, level=level, **options)
        notes = [f"{failed} bootstrap refits did not converge"] if failed else []
        return bounds, notes
    cov = covariance(onehot, counts, p, pi, post, sandwich=method != "observed-information")
    notes = [] if cov is not None else ["the information matrix is singular: no interval"]
    bounds = wald_bounds(Quantities.of(p, pi), cov, level)
    if method == "profile":  # the prevalences by profile likelihood, the accuracies sandwich
        for c in range(1 if k == 2 else k):  # two classes: p_0 = 1 − p_1
            bounds[c], _ = profile_bounds(onehot, counts, p, pi, fit.loglik[0], c, level=level,
                                          tol=options["tol"], max_iter=options["max_iter"])
        if k == 2:
            bounds[1] = 1.0 - bounds[0, ::-1]
    return bounds, notes


def _rater_names(raters: Any, n_raters: int, judge: Any) -> tuple[tuple, str | None]:
    names = tuple(f"rater{r}" for r in range(n_raters)) if raters is None else tuple(raters)
    if len(names) != n_raters or len(set(names)) != n_raters:
        raise ArgumentTypeError(
            f"raters must name each of the {n_raters} columns once, got {list(names)!r}"
        )
    if judge is not None and judge not in names:
        raise ArgumentTypeError(f"judge must be one of the raters {list(names)!r}, got {judge!r}")
    return names, judge


def _from_ratings(ratings: Any, raters: Any, categories: Any, judge: Any):
    """Return a :class:`~judgestats.raters.Ratings`' code matrix, the judge as its last column."""
    if raters is not None or categories is not None:
        raise ArgumentTypeError(
            "raters= and categories= name the columns and codes of an array; Ratings carry "
            "their own"
        )
    if judge is not None:
        ratings = ratings.with_judge(judge)
    names = ratings.raters if ratings.judge is None else (*ratings.raters, ratings.judge)
    return ratings.all_codes(include_judge=True), names, ratings.categories, ratings.judge


def check_ratings(data: Any, raters: Any, categories: Any, judge: Any):
    """Validate ratings for the latent-class model; keep the items with a rating.

    ``data`` is a :class:`~judgestats.raters.Ratings` (its judge, or the rater ``judge``
    names, becomes one more rater) or a code matrix. Returns the code matrix, the raters'
    names, the categories and the judge; raises :class:`UnidentifiableModelError` where the
    model is not identified.
    """
    from .ratings import Ratings

    if isinstance(data, Ratings):
        arr, names, categories, judge = _from_ratings(data, raters, categories, judge)
    else:
        arr, categories = _check_codes(data, categories)
        names, judge = _rater_names(raters, arr.shape[1], judge)
    return arr[_check_identified(arr, names)], names, categories, judge


def dawid_skene(
    ratings: Any,
    *,
    raters: Any = None,
    categories: Any = None,
    judge: str | None = None,
    positive: Any = None,
    method: str = LATENT_METHODS[0],
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    rng: Any = None,
    tol: float = 1e-7,
    max_iter: int = 5000,
) -> LatentClassFit:
    """Fit the Dawid–Skene latent-class model: the latent prevalence and each rater's errors.

    Every rater, the judge included, is a noisy view of one latent true class (module
    docstring); EM starts from the raters' vote shares per item (a soft majority vote) and the
    latent classes are named after the labels the raters agree with most (two classes: the
    raters' mean Youden's J is positive).

    Parameters
    ----------
    ratings : Ratings or array_like of int, shape (n_items, n_raters)
        The ratings (:class:`~judgestats.raters.Ratings`, from a long or wide frame of any
        engine; its judge, if any, is one more rater), or a code matrix: each rater's class
        code (0..k−1) per item, −1 where the rater did not rate the item. Items no rater rated
        are left out.
    raters : sequence of str, optional
        A code matrix's column names (default ``rater0``, ``rater1``, …).
    categories : sequence, optional
        The classes a code matrix's codes stand for (default ``0..max code``, at least two).
    judge : str, optional
        The rater that is the judge: one more rater to the model, named in the result (for
        ``Ratings``, :meth:`~judgestats.raters.Ratings.with_judge`; by default its own judge).
    positive : optional
        The class whose prevalence is ``estimate`` and ``ci`` (default: the last category).
    method : {"profile", "bootstrap", "sandwich", "observed-information"}, default "profile"
        Interval of the prevalences, the accuracies and the per-class rates
        (:mod:`~.latent_intervals`). ``"profile"``: each prevalence by its profile likelihood
        (the values whose likelihood, maximised over the rest, stays within χ²₁(level)/2 of
        the maximum), the raters' figures by the sandwich; ``"bootstrap"``: items resampled
        (percentile); ``"sandwich"``, ``"observed-information"``: Wald on the logit scale.
        The profile is the default because it alone held where the model is weakest (module
        docstring): with three raters, one weak, it covered 0.92–1.00 where the sandwich
        covered 0.60–0.92 and the bootstrap 0.63–0.88; with four to six raters it matched
        the sandwich. It costs some 100 constrained EM fits (a tenth of a second; the
        bootstrap 1,000 refits, a second or two).
    confidence_level : float, default 0.95
        Level of every interval; stored on the result.
    n_resamples : int, default 1000
        Bootstrap replicates.
    rng : numpy.random.Generator, int or None
        Randomness of the bootstrap.
    tol : float, default 1e-7
        EM stops when no parameter moves by more than ``tol`` in an iteration.
    max_iter : int, default 5000
        EM's iteration cap (``converged`` says whether ``tol`` was met).

    Returns
    -------
    LatentClassFit

    Raises
    ------
    UnidentifiableModelError
        Fewer than three raters, or fewer than ten items rated by three or more.
    LabelError
        A code outside −1..k−1.
    ArgumentTypeError
        ``codes`` not a 2-D integer array, ``raters`` of the wrong length, ``judge`` not a rater.

    Warns
    -----
    LatentBoundaryWarning
        Fewer than three raters tell the classes apart, or a class has almost no items.

    Examples
    --------
    Two annotators and GPT-4 on the NQ-301 answers of one QA system (the judge's column is
    one more rater):

    >>> import judgestats as js
    >>> nq = js.datasets.load_nq301()
    >>> fid = nq[nq["target_model"] == "FiD"]
    >>> ratings = js.raters.Ratings.from_wide(
    ...     fid, raters=["human_annotator1", "human_annotator2"], item="item_id", judge="judge")
    >>> fit = js.raters.dawid_skene(ratings, method="sandwich")
    >>> fit  # doctest: +NORMALIZE_WHITESPACE
    LatentClassFit(estimate=0.643112, ci=[0.583645, 0.698472], reference='latent',
    method='sandwich', confidence_level=0.95, 300 items, raters=['human_annotator1',
    'human_annotator2', 'judge'], judge='judge')
    >>> round(float(fid["human"].mean()), 3)  # the adjudicated rate
    0.647
    """
    level = check_confidence_level(confidence_level)
    method = check_choice("method", method, LATENT_METHODS)
    n_resamples = check_positive_int("n_resamples", n_resamples)
    max_iter = check_positive_int("max_iter", max_iter)
    if not (isinstance(tol, float | int) and 0 < tol < 1):
        raise ArgumentTypeError(f"tol must be a number in (0, 1), got {tol!r}")
    arr, names, categories, judge = check_ratings(ratings, raters, categories, judge)
    positive = categories[-1] if positive is None else positive
    if positive not in categories:
        raise LabelError(f"positive must be one of the categories {list(categories)!r}, "
                         f"got {positive!r}")  # fmt: skip
    fit = fit_codes(arr, len(categories), tol=tol, max_iter=max_iter)
    notes = boundary_notes(fit.prevalence[0], fit.confusion[0], arr.shape[0], names)
    for note in notes:
        warnings.warn(note, LatentBoundaryWarning, stacklevel=2)
    notes += minimum_notes(fit.confusion[0], names)
    options = {"n_resamples": n_resamples, "rng": check_rng(rng), "tol": tol,
               "max_iter": max_iter}  # fmt: skip
    bounds, more = _bounds(method, arr, len(categories), fit, level, options)
    k = len(categories)
    c = categories.index(positive)
    values = Quantities.of(fit.prevalence[0], fit.confusion[0])
    return LatentClassFit(
        estimate=float(values[c]),
        ci=ConfidenceInterval(low=float(bounds[c, 0]), high=float(bounds[c, 1]), method=method,
                              confidence_level=level,
                              n_resamples=n_resamples if method == "bootstrap" else None),
        prevalence=values[:k], prevalence_ci=bounds[:k], confusion=fit.confusion[0],
        accuracy=values[k:k + len(names)], accuracy_ci=bounds[k:k + len(names)],
        diagonal_ci=bounds[k + len(names):].reshape(len(names), k, 2),
        class_probabilities=fit.posterior[0][patterns(arr)[1]],
        raters=names, categories=categories, positive=positive, judge=judge, method=method,
        confidence_level=level, n_items=arr.shape[0], n_ratings=int((arr >= 0).sum()),
        loglik=float(fit.loglik[0]), iterations=fit.iterations,
        converged=bool(fit.converged[0]), notes=tuple(notes + more),
    )  # fmt: skip
