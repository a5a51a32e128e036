"""``evaluate(..., rater=, reference=)``: several human raters per item, and which human reference.

When several human raters label an item their labels disagree, and "the true rate" needs a
definition. ``reference=`` names it (issue 40); ``estimand=`` keeps meaning rows against items:

* ``"rater"`` — the rate of **a single random rater's label**: every (item, rater) rating is a
  calibration row, the item's judge label beside it, and the items are clusters (the
  cluster-robust correction of :mod:`judgestats.repeated`, as ``evaluate(cluster=item)``);
  with ``estimand="items"`` each item weighs 1 however many raters it has;
* ``"majority"`` — the rate of **the raters' majority label**: one calibration row per item
  (:meth:`judgestats.raters.Ratings.majority`). Ties: ``ties="random"`` (default: a tied item
  draws one of its tied labels with ``rng``, so the reference is defined on every item),
  ``"none"`` (tied items left out, and named) or the name of an adjudicating rater (its label
  settles a tie; a tie it did not label is left out). Items rated by fewer than
  ``min_raters`` raters (default 2) are left out and named;
* ``"latent"`` — the prevalence of **a latent true class** under the Dawid–Skene model, the
  judge one more rater on every item (:func:`judgestats.raters.dawid_skene`; the unlabelled
  items enter through the judge's fitted confusion). Interval ``"profile"`` (the profile
  likelihood, the default: it covered 0.92–1.00 with one weak rater of three, where the item
  bootstrap covered 0.63–0.88; ``benchmarks/results/raters_intervals.md``), ``"bootstrap"``
  (items resampled), ``"sandwich"``, ``"observed-information"``, or ``"bayes"``: the
  posterior of the model's PyMC twin (:func:`judgestats.bayes.fit_raters`; its credible
  interval, ``interval="eti"`` or ``"hdi"``, and its R-hat and ESS on the result; the sampler's
  options ``draws``, ``tune``, ``chains``, ``cores``, ``sampler``, ``backend``, ``progress``,
  ``sample_kwargs`` and the model's ``pooling``, ``prevalence_concentration``,
  ``confusion_prior``, ``point``, ``interval`` through ``**options``; each group's
  ``random_seed`` is drawn from ``rng``, so the same ``rng`` gives the same draws). Refused
  by name
  where the model is not identified (fewer than three raters, the judge included, or fewer
  than ten items rated by three) and under ``design="by-human-label"``: calibration items
  chosen by their human label carry a class mix set by the design, which the model would read
  as prevalence; a random sample of items (``"random"``), or one chosen by the judge's label
  (``"by-judge-label"``, an observed label: ignorable), keeps the likelihood valid.

The frame is **long**: one row per (item, rater) rating, columns ``cluster`` (the item),
``rater``, ``human`` (the rater's 0/1 label) and ``judge`` (the judge's 0/1 label of the item:
on every row of the item, the same value, or on some of them); an item none of whose rows has
a human label is a **test item** (its rater may be missing), one row is enough. Each group's
result is a :class:`RaterCorrection` naming its reference (and the tie rule or the model).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    DuplicateRatingError,
    JudgeStatsError,
    LabelError,
    MethodError,
    RatingsError,
    binary_value,
    check_choice,
    check_frame_columns,
    check_positive_int,
    check_rng,
    is_missing,
    listed,
)
from ..results import ConfidenceInterval
from ..spec import EstimationSpec, resolve_spec
from .evaluation import Evaluation
from .per_group import correct_each, corrected

__all__ = [
    "REFERENCES",
    "RaterCorrection",
    "evaluate_raters",
    "rater_spec",
]

#: The human references ``evaluate(reference=)`` estimates (module docstring).
REFERENCES = ("rater", "majority", "latent")
#: The options only the rater path takes (beside the interval method's).
RATER_OPTIONS = ("ties", "min_raters")
_WHAT = {
    "rater": "the rate of a single random rater's label (items as clusters)",
    "majority": "the rate of the raters' majority label",
    "latent": "the prevalence of the latent true class (Dawid-Skene, the judge one more rater)",
}


@dataclass(frozen=True, slots=True, eq=False)
class RaterCorrection:
    """One group's corrected rate against a human reference of several raters.

    Attributes
    ----------
    reference : {"rater", "majority", "latent"}
        Which human reference ``estimate`` is the rate of (module docstring).
    estimate : float
        The corrected rate.
    ci : ConfidenceInterval
        Its interval (``method`` at ``confidence_level``).
    method, confidence_level, design
        How it was computed.
    naive : float
        The judge's raw positive rate on the test items (NaN without test items).
    n : int
        Test items (no human label).
    m0, m1 : int
        Calibration rows of human label 0 and 1: every rating under ``"rater"`` and
        ``"latent"``, one majority label per item under ``"majority"``.
    n_items, n_ratings : int
        Calibration items (rated by a human) and their human ratings.
    raters : tuple
        The human raters of the group.
    result : Correction or LatentClassFit
        The correction behind the figures (:func:`judgestats.correct`, or
        :func:`judgestats.raters.dawid_skene` for ``"latent"``; with ``method="bayes"`` a
        :class:`~judgestats.bayes.BayesianLatentClassFit` of
        :func:`judgestats.bayes.fit_raters`, its draws on ``result.posterior``).
    ties : str or None
        The majority's tie rule (``"majority"`` only).
    min_raters : int or None
        Items with fewer raters were left out (``"majority"`` only).
    left_out : tuple of (item, reason)
        Calibration items the reference could not use (a tie left unresolved, too few raters).
    notes : tuple of str
        What the figures rest on beyond the method (the model's notes, items left out).
    estimator : str
        What computed ``estimate``.
    ratings : Ratings
        The calibration items' ratings, the judge kept apart
        (:class:`judgestats.raters.Ratings`): the raters' agreement and the judge's beside it
        (:func:`judgestats.raters.krippendorff_alpha`, :func:`~judgestats.raters.alt_test`, the
        report's raters section).

    Examples
    --------
    Made by :func:`judgestats.evaluate` with ``rater=``: two annotators of 90 NQ-301 answers of
    one system, the GPT-4 judge on all 300; the third annotator settles their ties:

    >>> import pandas as pd
    >>> import judgestats as js
    >>> nq = js.datasets.load_nq301()
    >>> fid = nq[nq["target_model"] == "FiD"]
    >>> rated = fid["item_id"] % 10 < 3
    >>> raters = ["human_annotator1", "human_annotator2", "human_annotator3"]
    >>> long = fid.loc[rated, ["item_id", "judge", *raters]].melt(
    ...     id_vars=["item_id", "judge"], var_name="rater", value_name="label"
    ... ).dropna(subset=["label"])
    >>> test = fid.loc[~rated, ["item_id", "judge"]]
    >>> frame = pd.concat([long, test]).assign(model="FiD")
    >>> ev = js.evaluate(frame, rater="rater", cluster="item_id", human="label",
    ...                  reference="majority", design="random", method="adjusted-wald",
    ...                  ties="human_annotator3")
    >>> res = ev["FiD"]
    >>> res.reference, res.ties, res.n, res.n_items
    ('majority', 'human_annotator3', 209, 91)
    >>> print(f"{res.estimate:.3f} [{res.ci.low:.3f}, {res.ci.high:.3f}]")
    0.616 [0.534, 0.697]
    """

    kind: ClassVar[str] = "rater-reference"

    reference: str
    estimate: float
    ci: ConfidenceInterval
    method: str
    confidence_level: float
    design: Any
    naive: float
    n: int
    m0: int
    m1: int
    n_items: int
    n_ratings: int
    raters: tuple
    result: Any
    estimator: str
    ties: str | None = None
    min_raters: int | None = None
    left_out: tuple = ()
    notes: tuple = ()
    ratings: Any = None

    @property
    def sensitivity(self) -> float:
        """The judge's sensitivity against the reference (the latent model's for ``"latent"``)."""
        if self.reference == "latent":
            return float(self.result.sensitivity[-1])
        return float(self.result.sensitivity)

    @property
    def specificity(self) -> float:
        """The judge's specificity against the reference."""
        if self.reference == "latent":
            return float(self.result.specificity[-1])
        return float(self.result.specificity)

    @property
    def diagnostics(self) -> Any:
        """The sampler's R-hat, ESS and divergences (``method="bayes"``), else None."""
        return getattr(self.result, "diagnostics", None)

    @property
    def clipped(self) -> bool:
        """Whether the estimate was clipped to [0, 1] (never for ``"latent"``)."""
        return bool(getattr(self.result, "clipped", False))

    @property
    def estimate_unclipped(self) -> float:
        """The estimate before clipping (the estimate itself for ``"latent"``)."""
        return float(getattr(self.result, "estimate_unclipped", self.estimate))

    def to_dict(self) -> dict[str, Any]:
        """One tidy row: the figures, the reference, its tie rule and what it left out."""
        return {
            "estimate": self.estimate, "ci_low": self.ci.low, "ci_high": self.ci.high,
            "method": self.method, "confidence_level": self.confidence_level,
            "naive": self.naive, "sensitivity": self.sensitivity,
            "specificity": self.specificity, "n": self.n, "m0": self.m0, "m1": self.m1,
            "clipped": self.clipped, "estimate_unclipped": self.estimate_unclipped,
            "reference": self.reference, "ties": self.ties, "raters": len(self.raters),
            "calibration_items": self.n_items, "ratings": self.n_ratings,
            "left_out": len(self.left_out), "estimator": self.estimator,
            "design": str(self.design), **self._sampling(),
        }  # fmt: skip

    def _sampling(self) -> dict[str, Any]:
        """Return the posterior's interval kind and diagnostics (``method="bayes"`` only)."""
        d = self.diagnostics
        if d is None:
            return {}
        return {"interval": self.result.interval, "point": self.result.point,
                "max_rhat": d.max_rhat, "min_ess": min(d.min_ess_bulk, d.min_ess_tail),
                "divergences": d.divergences, "chains": d.chains, "draws": d.draws}  # fmt: skip

    def summary(self) -> str:
        """Return the estimate, its interval and the reference it is the rate of, as text."""
        low, high = self.ci
        ties = f", ties {self.ties!r}" if self.ties is not None else ""
        lines = [
            f"reference {self.reference!r} ({_WHAT[self.reference]}{ties}): {self.estimate:.4f} "
            f"[{low:.4f}, {high:.4f}] ({self.method}, {self.confidence_level:.0%}, design "
            f"{self.design}); {self.n_items} calibration items, {self.n_ratings} ratings by "
            f"{len(self.raters)} raters, {self.n} test items; {self.estimator}"
        ]
        if self.diagnostics is not None:
            lines.append(f"posterior {self.result.interval} interval; sampler: "
                         f"{self.diagnostics.describe()}")  # fmt: skip
        return "\n".join([*lines, *(f"note: {n}" for n in self.notes)])

    def __repr__(self) -> str:
        low, high = self.ci
        return (f"RaterCorrection(reference={self.reference!r}, estimate={self.estimate:.6g}, "
                f"ci=[{low:.6g}, {high:.6g}], method={self.method!r}, "
                f"confidence_level={self.confidence_level}, design={str(self.design)!r})")


# ============================================================================ the spec
def _latent_design(design: Any) -> None:
    """Refuse, saying why, a design the capability table's ``"raters"`` row does not hold."""
    from ..designs import as_design
    from ..designs.capabilities import capability

    try:
        capability("raters", "rate", as_design(design), False)
    except MethodError as exc:
        raise MethodError(
            f"reference='latent': {exc}. Calibration items chosen by their human label carry "
            "a class mix the design set, which the latent-class model would read as "
            "prevalence; use design='random' (or 'by-judge-label': chosen by an observed "
            "label), or reference='rater' or 'majority'"
        ) from exc


def rater_spec(
    reference: Any, *, design: Any, method: Any, confidence_level: Any, estimand: Any,
    options: dict,
) -> tuple[EstimationSpec, dict]:  # fmt: skip
    """Resolve the spec of ``reference`` once; return it and the rater path's own options.

    ``"rater"`` is the letter path with repeated items, ``"majority"`` the letter path of
    independent items, ``"latent"`` the capability table's ``"raters"`` row (by name refused
    under the paper's design: module docstring).
    """
    from .binary import rate_options

    reference = check_choice("reference", reference, REFERENCES)
    own = {k: v for k, v in options.items() if k in RATER_OPTIONS}
    rest = {k: v for k, v in options.items() if k not in own}
    if own and reference != "majority":
        raise ArgumentTypeError(f"{', '.join(sorted(own))} applies to reference='majority', "
                                f"got reference={reference!r}")  # fmt: skip
    if "min_raters" in own:
        check_positive_int("min_raters", own["min_raters"])
    if reference == "latent":
        _latent_design(design)
        spec = resolve_spec(judge="raters", target="rate", design=design, method=method,
                            confidence_level=confidence_level, estimand=estimand,
                            options=rest, method_optional=True)  # fmt: skip
        takes = _latent_options(spec.method)
        extra = sorted(set(rest) - set(takes))
        if extra:
            raise ArgumentTypeError(
                f"reference='latent' with method={spec.method!r} got unexpected option(s) "
                f"{extra}; it takes {', '.join(takes)}"
                + (" (rng= seeds the sampler)" if "random_seed" in extra else "")
            )
        if spec.method == "bayes":
            _check_posterior_options(spec)
        return spec, own
    spec = resolve_spec(judge="letter", target="rate", design=design, method=method,
                        confidence_level=confidence_level, repeated=reference == "rater",
                        estimand=estimand, options=rest, options_of=rate_options,
                        method_optional=True)  # fmt: skip
    return spec, own


def _latent_options(method: str) -> tuple[str, ...]:
    """Return the options ``reference="latent"`` takes under ``method`` (module docstring)."""
    if method != "bayes":
        return ("n_resamples",)
    from ..bayes.fit import SAMPLING_DEFAULTS
    from ..bayes.raters import MODEL_DEFAULTS

    sampling = [k for k in SAMPLING_DEFAULTS if k != "random_seed"]  # drawn from rng=
    return (*MODEL_DEFAULTS, "point", "interval", *sampling)


def _check_posterior_options(spec: EstimationSpec) -> None:
    """Refuse a bad sampler or model option by name before any group is fitted."""
    from ..bayes.fit import sampling_arguments, summary_options
    from ..bayes.raters import MODEL_DEFAULTS, _model_options

    opts = dict(spec.options)
    summary_options(spec.confidence_level, opts.pop("point", "mean"),
                    opts.pop("interval", "eti"))  # fmt: skip
    _model_options({k: opts.pop(k) for k in list(opts) if k in MODEL_DEFAULTS})
    sampling_arguments(opts)


# ============================================================================ the frame
@dataclass(frozen=True, slots=True)
class _Panel:
    """One group's items: each one's judge label and its raters' labels (codes 0/1, −1)."""

    items: tuple
    judge: np.ndarray
    codes: np.ndarray
    raters: tuple

    @property
    def rated(self) -> np.ndarray:
        """True for a calibration item (some rater labelled it)."""
        return (self.codes >= 0).any(axis=1)


def _binary(values: list, column: str, what: str) -> np.ndarray:
    """0/1 codes of a column's values (−1 where missing); another value is a named error."""
    out = np.full(len(values), -1, dtype=np.int64)
    for i, v in enumerate(values):
        if is_missing(v):
            continue
        b = binary_value(v)
        if b is None:
            raise LabelError(f"{what} column {column!r} must hold 0/1 or bool labels, got {v!r}")
        out[i] = b
    return out


def _panel(rows: dict[str, list], columns: dict[str, str]) -> _Panel:
    """Build one group's panel from its rows (module docstring: the long frame)."""
    item, rater = rows[columns["cluster"]], rows[columns["rater"]]
    human = _binary(rows[columns["human"]], columns["human"], "the human label")
    judge = _binary(rows[columns["judge"]], columns["judge"], "the judge")
    ids = {v: i for i, v in enumerate(dict.fromkeys(item))}
    rated = [i for i, h in enumerate(human) if h >= 0]
    unnamed = [item[i] for i in rated if is_missing(rater[i])]
    if unnamed:
        raise RatingsError(f"a human label without a rater (column {columns['rater']!r} "
                           f"missing) on item(s) {listed([repr(v) for v in unnamed])}")  # fmt: skip
    names = {v: j for j, v in enumerate(dict.fromkeys(rater[i] for i in rated))}
    codes = np.full((len(ids), len(names)), -1, dtype=np.int64)
    for i in rated:
        r, c = ids[item[i]], names[rater[i]]
        if codes[r, c] not in (-1, human[i]):
            raise DuplicateRatingError(
                f"item {item[i]!r} is rated twice by rater {rater[i]!r}, with different labels; "
                "keep one rating per (item, rater)"
            )
        codes[r, c] = human[i]
    said = np.full(len(ids), -1, dtype=np.int64)
    for i, j in enumerate(judge):
        r = ids[item[i]]
        if j >= 0 and said[r] not in (-1, j):
            raise RatingsError(f"item {item[i]!r} has two judge labels (column "
                               f"{columns['judge']!r}): one item, one verdict")  # fmt: skip
        said[r] = j if j >= 0 else said[r]
    missing = [v for v, r in ids.items() if said[r] < 0]
    if missing:
        raise LabelError(f"the judge (column {columns['judge']!r}) has no label on item(s) "
                         f"{listed([repr(v) for v in missing])}")  # fmt: skip
    return _Panel(tuple(ids), said, codes, tuple(names))


def _collect_rows(frame: Any, names: list[str]) -> tuple[dict[str, list], str]:
    """Return the named columns as lists (a lazy frame collected once), and the engine."""
    from ..frames import _collect, _engine_name, _engine_warnings, _narwhals, open_frame

    nw = _narwhals()
    with _engine_warnings():
        nf = open_frame(nw, frame, ())
        check_frame_columns(list(nf.collect_schema().names()), {"columns": tuple(names)})
        engine = _engine_name(nw, nf)
        df = _collect(nw, nf.select(names))
        return {c: df.get_column(c).to_list() for c in names}, engine


def _split_groups(data: dict[str, list], by: tuple) -> dict[Any, dict[str, list]]:
    """Group key → that group's rows (keys sorted; one column: its value, else a tuple)."""
    keys = list(zip(*(data[c] for c in by), strict=True))
    if any(is_missing(v) for k in keys for v in k):
        raise LabelError(f"the group column(s) {list(by)!r} have missing values")
    index: dict[Any, list[int]] = {}
    for i, k in enumerate(keys):
        index.setdefault(k[0] if len(by) == 1 else k, []).append(i)
    try:
        order = sorted(index)
    except TypeError:
        order = sorted(index, key=repr)
    return {g: {c: [v[i] for i in index[g]] for c, v in data.items()} for g in order}


# ============================================================================ the references
def _test_counts(panel: _Panel, *, cluster: bool) -> Any:
    """Count the judge's labels of the test items (each its own cluster where ``cluster``)."""
    from ..counts import JudgedCounts

    test = np.flatnonzero(~panel.rated)
    if test.size == 0:
        raise JudgeStatsError(
            "no test items: every item has a human label; the reference's rate is then "
            "observed, not corrected (hide some labels, or estimate on the labelled items)"
        )
    labels = panel.judge[test] == 1
    return JudgedCounts.from_labels(labels, cluster=test if cluster else None)


def _by_rater(panel: _Panel, spec: EstimationSpec, own: dict, rng: Any) -> RaterCorrection:
    """``reference="rater"``: every rating a calibration row, the items as clusters."""
    from ..correct import correct
    from ..counts import ConfusionCounts

    item, who = np.nonzero(panel.codes >= 0)
    cal = ConfusionCounts.from_labels(human=panel.codes[item, who] == 1,
                                      judge=panel.judge[item] == 1, cluster=item)  # fmt: skip
    res = correct(_test_counts(panel, cluster=True), cal, method=spec.method,
                  confidence_level=spec.confidence_level, design=spec.design,
                  estimand=spec.estimand, rng=rng, **spec.options)  # fmt: skip
    return _made("rater", res, panel, spec, estimator=f"{res.estimator}, items as clusters")


def _by_majority(panel: _Panel, spec: EstimationSpec, own: dict, rng: Any) -> RaterCorrection:
    """``reference="majority"``: one calibration row per item, its raters' majority label."""
    from ..correct import correct
    from ..counts import ConfusionCounts
    from ..raters import Ratings

    ties, least = own.get("ties", "random"), int(own.get("min_raters", 2))
    rated = np.flatnonzero(panel.rated)
    ratings = Ratings(panel.codes[rated].copy(), tuple(panel.items[i] for i in rated),
                      panel.raters, (0, 1))  # fmt: skip
    majority = ratings.majority(ties, rng=rng)
    enough = (ratings.codes >= 0).sum(axis=1) >= least
    use = enough & majority.resolved
    left = tuple((ratings.items[i], f"rated by fewer than {least} raters" if not enough[i]
                  else f"a tie the rule {ties!r} leaves unresolved")
                 for i in np.flatnonzero(~use))  # fmt: skip
    if not use.any():
        raise JudgeStatsError(f"no calibration item has a majority label ({len(left)} left "
                              f"out: {left[0][1]}, ...); lower min_raters or set "
                              "ties=")  # fmt: skip
    cal = ConfusionCounts.from_labels(human=majority.codes[use] == 1,
                                      judge=panel.judge[rated][use] == 1)  # fmt: skip
    res = correct(_test_counts(panel, cluster=False), cal, method=spec.method,
                  confidence_level=spec.confidence_level, design=spec.design, rng=rng,
                  **spec.options)  # fmt: skip
    notes = []
    if left:
        shown = listed([f"{v!r}" for v, _ in left[:5]]) + (", ..." if len(left) > 5 else "")
        notes.append(f"{len(left)} calibration items left out of the majority ({shown}): "
                     + "; ".join(sorted({why for _, why in left})))  # fmt: skip
    return _made("majority", res, panel, spec, estimator=f"{res.estimator} against the "
                 "raters' majority", ties=str(ties), min_raters=least, left_out=left,
                 notes=tuple(notes))  # fmt: skip


def _by_latent(panel: _Panel, spec: EstimationSpec, own: dict, rng: Any) -> RaterCorrection:
    """``reference="latent"``: Dawid–Skene on every item, the judge one more rater."""
    from ..raters import dawid_skene

    name = _judge_name(panel)
    codes = np.column_stack([panel.codes, panel.judge])
    common: dict[str, Any] = {"raters": [*panel.raters, name], "categories": (0, 1),
                              "judge": name, "positive": 1,
                              "confidence_level": spec.confidence_level}  # fmt: skip
    fit: Any
    if spec.method == "bayes":  # the PyMC twin, seeded from rng (on first use: pymc)
        from ..bayes.raters import fit_raters

        seed = int(rng.integers(2**31 - 1))
        fit = fit_raters(codes, random_seed=seed, **common, **spec.options)
    else:
        fit = dawid_skene(codes, method=spec.method, rng=rng, **common, **spec.options)
    test = ~panel.rated
    naive = float(panel.judge[test].mean()) if test.any() else float("nan")
    ratings = panel.codes[panel.codes >= 0]
    return RaterCorrection(
        reference="latent", estimate=fit.estimate, ci=fit.ci, method=spec.method,
        confidence_level=spec.confidence_level, design=spec.design, naive=naive,
        n=int(test.sum()), m0=int((ratings == 0).sum()), m1=int((ratings == 1).sum()),
        n_items=int(panel.rated.sum()), n_ratings=int(ratings.size), raters=panel.raters,
        result=fit, estimator=fit.estimator, notes=fit.notes, ratings=_ratings(panel),
    )  # fmt: skip


def _judge_name(panel: _Panel) -> str:
    """Return the judge's name among the raters: ``"judge"``, unless a rater has it."""
    return "judge" if "judge" not in panel.raters else "judge (LLM)"


def _ratings(panel: _Panel) -> Any:
    """Return the calibration items' ratings, the judge apart (a ``Ratings``)."""
    from ..raters import Ratings

    rated = np.flatnonzero(panel.rated)
    return Ratings(panel.codes[rated].copy(), tuple(panel.items[i] for i in rated),
                   panel.raters, (0, 1), judge=_judge_name(panel),
                   judge_codes=panel.judge[rated].copy())  # fmt: skip


def _made(reference: str, res: Any, panel: _Panel, spec: EstimationSpec, *, estimator: str,
          **more: Any) -> RaterCorrection:  # fmt: skip
    """Wrap a :class:`~judgestats.Correction` into a :class:`RaterCorrection`."""
    return RaterCorrection(
        reference=reference, estimate=res.estimate, ci=res.ci, method=res.method,
        confidence_level=res.confidence_level, design=res.design, naive=res.naive, n=res.n,
        m0=res.m0, m1=res.m1, n_items=int(panel.rated.sum()),
        n_ratings=int((panel.codes >= 0).sum()), raters=panel.raters, result=res,
        estimator=estimator, ratings=_ratings(panel), **more,
    )  # fmt: skip


_REFERENCE = {"rater": _by_rater, "majority": _by_majority, "latent": _by_latent}


def evaluate_raters(
    frame: Any, spec: EstimationSpec, *, reference: str, columns: dict, own: dict, rng: Any,
    errors: str, progress: bool | None, stacklevel: int,
) -> Evaluation:  # fmt: skip
    """Correct every group against the human ``reference`` of its raters (module docstring).

    ``columns``: ``judge``, ``human``, ``rater``, ``cluster`` (the item) and ``by`` (a tuple);
    ``own``: ``ties`` and ``min_raters`` (``"majority"``). ``spec`` from :func:`rater_spec`.

    Examples
    --------
    Three raters (one weak) label 120 of 400 answers; the judge labels every answer:

    >>> import numpy as np
    >>> import pandas as pd
    >>> import judgestats as js
    >>> gen = np.random.default_rng(1)
    >>> truth = gen.random(400) < 0.6
    >>> judge = np.where(truth, gen.random(400) < 0.85, gen.random(400) < 0.2).astype(int)
    >>> rows = [(i, f"r{r}", int(truth[i] ^ (gen.random() > acc)), judge[i])
    ...         for i in range(120) for r, acc in enumerate([0.9, 0.9, 0.7])]
    >>> rows += [(i, None, None, judge[i]) for i in range(120, 400)]
    >>> frame = pd.DataFrame(rows, columns=["item", "rater", "human", "judge"])
    >>> frame["model"] = "m"
    >>> ev = js.evaluate(frame, rater="rater", cluster="item", reference="majority",
    ...                  design="random", rng=0)
    >>> res = ev["m"]
    >>> res.reference, res.ties, res.n, res.m0 + res.m1
    ('majority', 'random', 280, 120)
    >>> print(f"{res.estimate:.3f} [{res.ci.low:.3f}, {res.ci.high:.3f}]")
    0.569 [0.488, 0.647]
    """
    by, cluster = tuple(columns["by"]), columns["cluster"]
    names = list(dict.fromkeys([*by, cluster, columns["rater"], columns["human"],
                                columns["judge"]]))  # fmt: skip
    data, engine = _collect_rows(frame, names)
    groups = _split_groups(data, by)
    if not groups:
        raise JudgeStatsError("the frame has no rows: nothing to evaluate")
    gen = check_rng(rng)
    fit = _REFERENCE[reference]

    def correct_group(g: Any, label: str) -> Any:
        return fit(_panel(groups[g], columns), spec, own, gen)

    corrections, issued, marked = correct_each(by, list(groups), correct_group, errors=errors,
                                               stacklevel=stacklevel + 1,
                                               progress=progress)  # fmt: skip
    for g, c in corrections.items():  # the reference's notes beside the warnings: summaries
        issued[g] = (*issued.get(g, ()), *(("note", n) for n in c.notes))  # list them
    kept = corrected(by, list(groups), corrections, marked)
    return Evaluation(
        groups=tuple(kept), corrections=corrections, by=by, strata=None, method=spec.method,
        confidence_level=spec.confidence_level, judge=columns["judge"], human=columns["human"],
        split=None, engine=engine, warnings=issued, design=spec.design, marked=marked,
        reference=reference,
    )  # fmt: skip
