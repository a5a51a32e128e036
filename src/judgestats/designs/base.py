"""A calibration design as an object: what it estimates, how, and what it needs.

A :class:`Design` is the strategy every layer asks instead of comparing a design's name
(statsmodels' GLM families are the model: the fitting code never branches on the family's
name). It *is* its name (a ``str``), so results keep printing, comparing and serialising as
before (``res.design == "random"``), and it carries the behaviour:

* its estimator and the three rates it rests on (:attr:`Design.cells`), the point estimate
  from those rates (:meth:`Design.estimate_from_rates`) and their gradient (the delta method);
* what it needs of a calibration set (:attr:`Design.needs_both_classes`,
  :attr:`Design.divides_by_youden`) and what it can say beside (:attr:`Design.youden_estimable`,
  :attr:`Design.calibration_samples_test`);
* the interval *family* whose implementations it uses (:attr:`Design.family`); which interval
  methods it allows is the capability table's (:mod:`judgestats.designs.capabilities`).

The registry (:func:`register_design`, :func:`as_design`) holds one instance per design; a new
design is a subclass and one row of the capability table (``docs/guide/designs.md``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .._validation import ArgumentTypeError, CountError, check_choice
from ..kernels import (
    adjusted_wald_bounds,
    delta_parts,
    delta_se,
    judge_conditional_bounds,
    judge_conditional_parts,
    judge_conditional_raw,
    rogan_gladen_raw,
    wald_bounds,
)

__all__ = [
    "Design",
    "JudgeConditionalDesign",
    "RoganGladenDesign",
    "as_design",
    "count_arrays",
    "design_names",
    "register_design",
]


class Design(str):
    """A calibration design: its name (this ``str``) with what the estimators need to know.

    Subclasses set the class attributes and override the methods where their estimator
    differs. Instances are registered singletons (:func:`register_design`); compare them with
    ``is`` or by their attributes, never by name, inside the package.

    Attributes
    ----------
    name : str
        The design's name, the value of this ``str``.
    estimator : str
        What results and reports call its point estimator.
    reference : str
        What reports cite for it.
    family : str
        The interval implementations it uses: ``"rogan-gladen"`` (the paper's sensitivity and
        specificity) or ``"judge-conditional"`` (π, PPV and FOR).
    cells : tuple of str
        Its three rates, as :mod:`judgestats.repeated` names them.
    needs_both_classes : bool
        The calibration set must hold both human classes.
    divides_by_youden : bool
        The estimator divides by q̂0 + q̂1 − 1 (it needs a judge better than chance).
    youden_estimable : bool
        q̂0 and q̂1 are estimable (the human classes were not sampled within judge labels).
    calibration_samples_test : bool
        The calibration items are a random sample of the test population (a humans-only
        estimate exists, and the calibration's judge-positive rate must match the test's).
    robust_to_label_shift : bool
        Valid when the calibration set's human-label mix differs from the test set's.
    allocations : tuple of str
        How a plan may split its calibration budget (``"-"``: the design fixes no split).
    sampled_within : str or None
        Within which classes the calibration items were drawn: ``"human"``, ``"judge"``, or
        None (one sample); the item bootstrap resamples within them.
    is_default : bool
        The design assumed where none is stated.
    draw_strategy : str or None
        How a labelling process draws its unlabelled items under this design
        (:mod:`judgestats.sequential`): ``"uniform"`` (every unlabelled item equally likely),
        ``"by-judge-label"`` (Neyman allocation across judge letters), or None where no draw
        can follow the design (the human label is unknown until an item is labelled). The
        strategy names are spelled here once.
    emulated_by_random_split : bool
        A random share of fully labelled items is a calibration set of this design, so
        :func:`judgestats.experiments.split_study` can emulate it (False where the design's
        sampling is not what a random split does: items drawn within the judge's labels).
    strengths_from_labels : bool
        Pairwise leaderboards: the calibration pairs were not chosen by their human verdict,
        so their human verdicts may be fitted for the strengths (a human-only fit exists and
        the prediction-powered fit is unbiased); otherwise they inform the judge's confusion
        only.
    predictive_estimable : bool
        P(human | judge) (PPV, NPV, FOR) is estimable from the calibration set: its items were
        not drawn within human labels, so each judge letter's items are a sample of that
        letter's test items (the agreement card gives PPV/NPV with intervals; otherwise they
        are derived through the corrected rate, or not given).

    Examples
    --------
    A design is a ``str`` that knows its estimator: ask its attributes, never its name:

    >>> import judgestats as js
    >>> design = js.designs.as_design("random")
    >>> design, design == "random", design.estimator
    ('random', True, 'judge-conditional (π̂ from all judged items)')
    >>> design.is_default, js.designs.as_design("by-human-label").is_default
    (False, True)
    """

    __slots__ = ()

    name: ClassVar[str] = ""
    estimator: ClassVar[str] = ""
    reference: ClassVar[str] = ""
    family: ClassVar[str] = ""
    cells: ClassVar[tuple[str, str, str]] = ("", "", "")
    needs_both_classes: ClassVar[bool] = False
    divides_by_youden: ClassVar[bool] = False
    youden_estimable: ClassVar[bool] = False
    calibration_samples_test: ClassVar[bool] = False
    robust_to_label_shift: ClassVar[bool] = False
    allocations: ClassVar[tuple[str, ...]] = ("balanced", "optimal")
    sampled_within: ClassVar[str | None] = None
    is_default: ClassVar[bool] = False

    def __new__(cls, value: Any = None) -> Design:
        """Return the design's instance (its name as the ``str`` value); ``value`` is ignored."""
        if not cls.name:
            raise TypeError(f"{cls.__name__} is abstract: it sets no design name")
        return super().__new__(cls, cls.name)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (as_design, (str(self),))

    @property
    def words(self) -> str:
        """The design as reports name it: ``design 'by-human-label'``."""
        return f"design {str(self)!r}"

    # -- the estimator ------------------------------------------------------------------
    def check_counts(self, test: Any, calibration: Any) -> None:
        """Raise the design's named error when the counts cannot be corrected under it."""
        raise NotImplementedError

    def point(self, test: Any, calibration: Any) -> tuple[np.ndarray, np.ndarray]:
        """Return the unclipped estimate of (batched) counts, and where it is inexact (guessed)."""
        raise NotImplementedError

    def estimate_from_rates(self, rates: Any) -> np.ndarray:
        """Return the design's estimator at (batched) values of its three :attr:`cells`."""
        raise NotImplementedError

    def rate_gradient(self, rates: Any) -> np.ndarray:
        """Gradient of θ in the three rates at ``rates`` (the delta method's weights)."""
        raise NotImplementedError

    def informative(self, rates: Any) -> bool:
        """Whether the estimator exists at these rates (False: the interval is undefined)."""
        return True

    # -- its variance -------------------------------------------------------------------
    def variance_at(self, rates: Any, sizes: Any, corr: Any = None) -> Any:
        """Delta-method Var(θ̂) at plain rates with ``sizes`` behind them (``corr``: repeats)."""
        raise NotImplementedError

    def bounds_at(self, rates: Any, sizes: Any, z: Any, *, method: str, corr: Any = None,
                  boundary: str = "widen") -> tuple[Any, Any, Any]:  # fmt: skip
        """(low, high, widened) of the ``"adjusted-wald"`` or ``"wald"`` interval at rates.

        ``sizes`` are the (effective) sizes behind the three rates; ``z`` the critical value.
        """
        raise NotImplementedError

    # -- its sampling -------------------------------------------------------------------
    def calibration_classes(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Masks of items with calibration rows in class 1 and class 0 (:attr:`sampled_within`).

        ``rows``: per-item counts (x, n, tp, fn, tn, fp).
        """
        if self.sampled_within == "human":  # (tp, fn) vs (tn, fp)
            return rows[:, 2] + rows[:, 3] > 0, rows[:, 4] + rows[:, 5] > 0
        if self.sampled_within == "judge":  # (tp, fp) vs (fn, tn)
            return rows[:, 2] + rows[:, 5] > 0, rows[:, 3] + rows[:, 4] > 0
        none = np.zeros(len(rows), dtype=bool)
        return none, none

    # -- plan-sequential
    draw_strategy: ClassVar[str | None] = None

    def plan_width(
        self, m: int, *, p: float, q0: float, q1: float, n: float, z: float,
        allocation: str = "balanced", floor: int = 1,
    ) -> tuple[float, tuple[int | None, int | None]]:  # fmt: skip
        """Return the expected width with ``m`` calibration items, and the split the design fixes.

        The design's adjusted-Wald interval is evaluated as if p̂ = p, q̂0 = q0 and q̂1 = q1
        were observed (:mod:`judgestats.designs.plan`); ``n`` is the test-set size (``inf``:
        no test-set noise), ``z`` the critical value, ``allocation`` one of
        :attr:`allocations` and ``floor`` the least number of items of a class the design
        samples within. The split is (None, None) where the design fixes none.
        """
        raise NotImplementedError

    # -- compare
    emulated_by_random_split: ClassVar[bool] = True

    # -- pairwise
    strengths_from_labels: ClassVar[bool] = True

    # -- report-cli
    predictive_estimable: ClassVar[bool] = False


class RoganGladenDesign(Design):
    """Designs whose estimator is Rogan–Gladen on (p̂, q̂0, q̂1).

    Examples
    --------
    The paper's design, calibration items chosen per human label:

    >>> import judgestats as js
    >>> design = js.designs.as_design("by-human-label")
    >>> isinstance(design, js.designs.RoganGladenDesign), design.estimator
    (True, 'Rogan–Gladen')
    """

    __slots__ = ()

    family = "rogan-gladen"
    cells = ("p", "q0", "q1")
    divides_by_youden = True
    youden_estimable = True
    sampled_within = "human"

    def check_counts(self, test: Any, calibration: Any) -> None:
        """Both human classes in the calibration set (where :attr:`needs_both_classes`)."""
        if self.needs_both_classes:
            calibration.check_both_classes()

    def point(self, test: Any, calibration: Any) -> tuple[np.ndarray, np.ndarray]:
        """Rogan–Gladen θ̂ of (batched) counts (NaN where q̂0 + q̂1 = 1); never guessed."""
        shape = np.broadcast_shapes(test.shape, calibration.shape)
        rates = (test.p_hat, calibration.specificity, calibration.sensitivity)
        with np.errstate(divide="ignore", invalid="ignore"):
            raw = self.estimate_from_rates(np.broadcast_arrays(*map(np.asarray, rates)))
        return np.broadcast_to(raw, shape), np.zeros(shape, dtype=bool)

    def informative(self, rates: Any) -> bool:
        """q̂0 + q̂1 > 1."""
        return bool(rates[1] + rates[2] > 1.0)

    def variance_at(self, rates: Any, sizes: Any, corr: Any = None) -> Any:
        """Var(θ̂) of paper eq. (15) (with the correlations' terms where given)."""
        (p, q0, q1), (n, m0, m1) = rates, sizes
        return delta_se(delta_parts(p, q0, q1, n, m0, m1, 0.0, adjusted=False), corr=corr) ** 2

    def bounds_at(self, rates: Any, sizes: Any, z: Any, *, method: str, corr: Any = None,
                  boundary: str = "widen") -> tuple[Any, Any, Any]:  # fmt: skip
        """Eq. (8) (``"adjusted-wald"``) or θ̂ ± z·√Var (``"wald"``) at (effective) sizes."""
        (p, q0, q1), (n, m0, m1) = rates, sizes
        if method == "adjusted-wald":
            return adjusted_wald_bounds(p, q0, q1, n, m0, m1, z, boundary=boundary, corr=corr)
        low, high = wald_bounds(p, q0, q1, n, m0, m1, z, corr=corr)
        return low, high, np.zeros(np.shape(low), dtype=bool)

    def estimate_from_rates(self, rates: Any) -> np.ndarray:
        """Rogan–Gladen θ̂ = (p̂ + q̂0 − 1)/(q̂0 + q̂1 − 1) (paper eq. (7)), unclipped."""
        p, q0, q1 = (np.asarray(v, dtype=float) for v in rates)
        return rogan_gladen_raw(p, q0, q1)

    def rate_gradient(self, rates: Any) -> np.ndarray:
        """(1, 1 − θ, −θ)/(q0 + q1 − 1) at the clipped θ (0.5 and 1 where not informative)."""
        r = np.nan_to_num(np.asarray(rates, dtype=float), nan=0.5)
        den = r[1] + r[2] - 1.0
        theta = float(np.clip(rogan_gladen_raw(*r), 0.0, 1.0)) if den > 0 else 0.5
        return np.array([1.0, 1.0 - theta, -theta]) / (den if den > 0 else 1.0)

    # -- plan-sequential
    def plan_width(
        self, m: int, *, p: float, q0: float, q1: float, n: float, z: float,
        allocation: str = "balanced", floor: int = 1,
    ) -> tuple[float, tuple[int | None, int | None]]:  # fmt: skip
        """Paper eq. (8) at the split (m0, m1) by human label, each class at least ``floor``.

        ``"balanced"``: m0 = m1 = m/2; ``"optimal"``: the split of max(m, 2·floor) whose
        interval is narrowest (every m1 from ``floor`` to m − ``floor`` searched).
        """
        if allocation == "balanced":
            m0, m1 = max(m // 2, floor), max(m - m // 2, floor)
            low, high, _ = adjusted_wald_bounds(p, q0, q1, n, m0, m1, z)
            return float(high - low), (m0, m1)
        m = max(m, 2 * floor)
        ones = np.arange(floor, m - floor + 1)  # every split (m − m1, m1)
        low, high, _ = adjusted_wald_bounds(p, q0, q1, n, m - ones, ones, z)
        w = np.where(np.isnan(high - low), np.inf, high - low)
        i = int(np.argmin(w))
        return float(w[i]), (int(m - ones[i]), int(ones[i]))


class JudgeConditionalDesign(Design):
    """Designs whose estimator is θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂ (paper, estimator table row iv).

    Examples
    --------
    >>> import judgestats as js
    >>> [name for name in js.designs.design_names()
    ...  if isinstance(js.designs.as_design(name), js.designs.JudgeConditionalDesign)]
    ['random', 'by-judge-label']
    """

    __slots__ = ()

    family = "judge-conditional"
    #: an empty judge class of the calibration set is a missing cell of the design (refused)
    refuses_missing_judge_class: ClassVar[bool] = False

    def binomials(self, test: Any, calibration: Any) -> tuple[np.ndarray, ...]:
        """Return the three binomials (x, n_π, tp, k1, fn, k0) of π, PPV and FOR, batch-shaped.

        π from ``x`` of ``n_π`` judged items (:meth:`pi_counts`), PPV from ``tp`` of
        ``k1`` = tp + fp, FOR from ``fn`` of ``k0`` = fn + tn.
        """
        x, n, tp, fp, fn, tn = count_arrays(test, calibration)
        k1, k0 = tp + fp, fn + tn
        x, n = self.pi_counts(x, n, k1, k0)
        return x, n, tp, k1, fn, k0

    def missing_classes(self, test: Any, calibration: Any) -> tuple[np.ndarray, np.ndarray]:
        """Masks: no judge-1 (judge-0) calibration item although π̂ > 0 (π̂ < 1)."""
        x, n, _, k1, _, k0 = self.binomials(test, calibration)
        return (k1 == 0) & (x > 0), (k0 == 0) & (x < n)

    def check_counts(self, test: Any, calibration: Any) -> None:
        """Refuse an empty judge class the test set has, where the design chose them."""
        if not self.refuses_missing_judge_class:
            return
        no1, no0 = self.missing_classes(test, calibration)
        if no1.any() or no0.any():
            cell = "1 (tp + fp = 0)" if no1.any() else "0 (fn + tn = 0)"
            raise CountError(
                f"design={str(self)!r} needs calibration items of every judge label the test "
                f"set has, but no calibration item has judge label {cell}: P(human = 1 | "
                f"judge = {cell[0]}) cannot be estimated; label some, or declare "
                "design='random' if the calibration items were a random sample"
            )

    def point(self, test: Any, calibration: Any) -> tuple[np.ndarray, np.ndarray]:
        """θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂; an empty judge class with weight enters as 1/2 (inexact)."""
        self.check_counts(test, calibration)
        x, n, tp, k1, fn, k0 = self.binomials(test, calibration)
        no1, no0 = self.missing_classes(test, calibration)
        with np.errstate(divide="ignore", invalid="ignore"):
            ppv = np.where(k1 > 0, tp / k1, 0.5)
            for_ = np.where(k0 > 0, fn / k0, 0.5)
            pi = x / n
        return judge_conditional_raw(pi, ppv, for_), no1 | no0

    def variance_at(self, rates: Any, sizes: Any, corr: Any = None) -> Any:
        """Var(θ̂) of the three binomials at plain rates (``corr``: repeated items)."""
        x, n_pi, tp, k1, fn, k0 = _binomials_at(rates, sizes)
        return judge_conditional_parts(x, n_pi, tp, k1, fn, k0, 0.0, adjusted=False,
                                       corr=corr)["var"]  # fmt: skip

    def bounds_at(self, rates: Any, sizes: Any, z: Any, *, method: str, corr: Any = None,
                  boundary: str = "widen") -> tuple[Any, Any, Any]:  # fmt: skip
        """Return the pseudo-count (``"adjusted-wald"``) or plain (``"wald"``) interval.

        The add-one interval is widened to hold its own estimate (1/2 for an empty class).
        """
        adjusted = method == "adjusted-wald"
        x, n_pi, tp, k1, fn, k0 = _binomials_at(rates, sizes)
        low, high = judge_conditional_bounds(x, n_pi, tp, k1, fn, k0, z, adjusted=adjusted,
                                             corr=corr)  # fmt: skip
        if adjusted:
            est = self.estimate_from_rates(rates)
            low, high = np.minimum(low, est), np.maximum(high, est)
        return low, high, np.zeros(np.shape(low), dtype=bool)

    def estimate_from_rates(self, rates: Any) -> np.ndarray:
        """π̂·PPV̂ + (1 − π̂)·FOR̂; a rate of an empty judge class (NaN) enters as 1/2."""
        a, b, c = (np.asarray(v, dtype=float) for v in rates)
        b, c = np.where(np.isnan(b), 0.5, b), np.where(np.isnan(c), 0.5, c)
        return judge_conditional_raw(a, b, c)

    def rate_gradient(self, rates: Any) -> np.ndarray:
        """(PPV − FOR, π, 1 − π)."""
        r = np.nan_to_num(np.asarray(rates, dtype=float), nan=0.5)
        return np.array([r[1] - r[2], r[0], 1.0 - r[0]])

    def pi_counts(self, x: Any, n: Any, k1: Any, k0: Any) -> tuple[Any, Any]:
        """(judged 1, judged) behind π̂: the test set's, or with the calibration items too."""
        raise NotImplementedError

    # -- plan-sequential
    #: a test set of at least this many items counts as n → ∞ in a plan (the π term vanishes)
    plan_finite_n: ClassVar[float] = 1e15

    def plan_width(
        self, m: int, *, p: float, q0: float, q1: float, n: float, z: float,
        allocation: str = "balanced", floor: int = 1,
    ) -> tuple[float, tuple[int | None, int | None]]:  # fmt: skip
        """Return the judge-conditional adjusted-Wald width at the expected counts.

        The counts are :meth:`plan_counts`'s; θ = (p + q0 − 1)/(q0 + q1 − 1) (clipped),
        PPV = θ·q1/p and FOR = θ(1 − q1)/(1 − p); ``floor`` does not apply (the design
        samples no human class).
        """
        ppv, for_ = self.plan_rates(p, q0, q1)[1:]
        k0, k1, n_pi, split = self.plan_counts(m, p=p, ppv=ppv, for_=for_,
                                               n=min(n, self.plan_finite_n),
                                               allocation=allocation)  # fmt: skip
        low, high = judge_conditional_bounds(p * n_pi, n_pi, ppv * k1, k1, for_ * k0, k0, z)
        return float(high - low), split

    @staticmethod
    def plan_rates(p: float, q0: float, q1: float) -> tuple[float, float, float]:
        """(θ, PPV, FOR) implied by the judged rate p and the judge's (q0, q1)."""
        theta = float(np.clip(rogan_gladen_raw(p, q0, q1), 0.0, 1.0))
        ppv = theta * q1 / p if p > 0 else 0.5
        for_ = theta * (1.0 - q1) / (1.0 - p) if p < 1 else 0.5
        return theta, min(max(ppv, 0.0), 1.0), min(max(for_, 0.0), 1.0)

    def plan_counts(
        self, m: int, *, p: float, ppv: float, for_: float, n: float, allocation: str
    ) -> tuple[Any, Any, float, tuple[int | None, int | None]]:
        """(k0, k1, n_π, split): judge-0 and judge-1 calibration items, judged items behind π̂.

        The split is the (k0, k1) the design fixes, or (None, None).
        """
        raise NotImplementedError

    # -- report-cli
    predictive_estimable = True


def count_arrays(test: Any, calibration: Any) -> list[np.ndarray]:
    """(positive, n, tp, fp, fn, tn) as float arrays of the batch shape."""
    shape = np.broadcast_shapes(test.shape, calibration.shape)
    fields = (test.positive, test.n, calibration.tp, calibration.fp, calibration.fn,
              calibration.tn)  # fmt: skip
    return [np.broadcast_to(np.asarray(a, dtype=float), shape) for a in fields]


def _binomials_at(rates: Any, sizes: Any) -> tuple[Any, ...]:
    """(x, n_π, tp, k1, fn, k0) of the judge-conditional binomials at rates and sizes."""
    (pi, ppv, fo), (n_pi, k1, k0) = rates, sizes
    return (pi * n_pi, n_pi, np.nan_to_num(ppv) * k1, k1, np.nan_to_num(fo) * k0, k0)


_REGISTRY: dict[str, Design] = {}


def register_design(design: Design | type[Design]) -> Design:
    """Register a design (an instance or its class); returns the registered instance.

    A new design is a :class:`Design` subclass (usually of :class:`RoganGladenDesign` or
    :class:`JudgeConditionalDesign`) and one row of the capability table
    (:func:`judgestats.designs.capabilities.add_capability`).

    Examples
    --------
    Registering a design that is already registered returns the registered instance (a new design
    is a subclass of :class:`Design` with a row of the capability table):

    >>> import judgestats as js
    >>> random = js.designs.as_design("random")
    >>> js.designs.register_design(random) is random
    True
    """
    inst = design() if isinstance(design, type) else design
    if not isinstance(inst, Design):
        raise ArgumentTypeError(f"design must be a Design subclass, got {type(inst).__name__}")
    if str(inst) in _REGISTRY and type(_REGISTRY[str(inst)]) is not type(inst):
        raise ArgumentTypeError(f"a different design is registered as {str(inst)!r}")
    return _REGISTRY.setdefault(str(inst), inst)


def design_names() -> tuple[str, ...]:
    """Names of the registered designs, the paper's first.

    Examples
    --------
    >>> import judgestats as js
    >>> js.designs.design_names()
    ('by-human-label', 'random', 'by-judge-label')
    """
    return tuple(_REGISTRY)


def as_design(design: Any) -> Design:
    """Return the registered :class:`Design` of a name (or a Design); the error lists the names.

    Examples
    --------
    >>> import judgestats as js
    >>> js.designs.as_design("by-judge-label").estimator
    'judge-conditional (π̂ from the test set)'
    >>> try:
    ...     js.designs.as_design("stratified")
    ... except js.errors.MethodError as error:
    ...     print(type(error).__name__)
    MethodError
    """
    if isinstance(design, Design) and _REGISTRY.get(str(design)) is design:
        return design
    return _REGISTRY[check_choice("design", design, design_names())]
