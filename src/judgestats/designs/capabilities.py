"""The capability table: which interval methods each path of the package allows.

One row per (judge input, target, designs, repeated items): the interval methods available
there, the one used when ``method`` is not given, and a note. Every entry point resolves its
method against this table (:func:`capability`, :func:`check_method`), errors quote it, and the
documentation renders it (:func:`table_markdown`); no other list of methods exists.

=================  =====================================================================
axis               values
=================  =====================================================================
``judge``          ``"letter"`` (a pass/fail verdict), ``"categories"`` (one judge letter
                   per human category), ``"alphabet"`` (J judge letters for K human
                   categories), ``"pairs"`` (a verdict on a pair of answers),
                   ``"jury"`` (two to ten judges' 0/1 verdicts on the same items),
                   ``"score"`` (a numeric judge score: :mod:`judgestats.scores`),
                   ``"raters"`` (the judge one more rater beside several human raters:
                   ``evaluate(rater=, reference="latent")``),
                   ``"stack"`` (a jury stacked into one predictor: :mod:`judgestats.jury.stack`)
``target``         ``"rate"`` (θ), ``"pooled-rate"`` (θ over strata),
                   ``"distribution"`` (the K category rates), ``"difference"``
                   (θ_A − θ_B), ``"ranking"`` (ranks of several models),
                   ``"strengths"`` (a pairwise leaderboard's Davidson strengths),
                   ``"rate-sequence"`` (θ of a pool while it is labelled in rounds:
                   :class:`judgestats.sequential.Monitor`)
``designs``        the calibration designs the row holds for
``repeated``       counts with repeated items (``cluster=``): True, False, or None (either)
=================  =====================================================================

A path with a row for independent rows but none for repeated items refuses clustered counts
with :class:`~judgestats.errors.ClusteredCountsError`; a method of the independent-rows row that the
repeated row lacks is refused the same way (it models every row as an item).
:func:`add_capability` adds a row (a new design, or a user's interval method).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._validation import (
    ArgumentTypeError,
    ClusteredCountsError,
    MethodError,
    check_choice,
)

__all__ = [
    "JUDGES",
    "TARGETS",
    "Capability",
    "add_capability",
    "add_method",
    "capability",
    "check_method",
    "describe",
    "method_words",
    "methods_for",
    "ranking_draws",
    "rows",
    "table_markdown",
]

#: What the judge says about an item.
JUDGES = ("letter", "categories", "alphabet", "pairs", "jury", "score",
          "raters", "stack")  # fmt: skip
#: What is estimated.
TARGETS = (
    "rate", "pooled-rate", "distribution", "difference", "ranking", "strengths", "rate-sequence",
)  # fmt: skip

_HUMAN = "by-human-label"
_CONDITIONAL = ("random", "by-judge-label")
_ALL = (_HUMAN, *_CONDITIONAL)


@dataclass(frozen=True, slots=True)
class Capability:
    """One row of the capability table.

    Attributes
    ----------
    judge, target : str
        What the judge says (:data:`JUDGES`) and what is estimated (:data:`TARGETS`).
    designs : tuple of str
        The calibration designs the row holds for.
    repeated : bool or None
        Counts with repeated items (True), independent rows (False), either (None).
    methods : tuple of str
        The interval methods available, in the order the docs list them.
    default : str
        The method used when none is named.
    note : str
        What the docs say beside the row.
    """

    judge: str
    target: str
    designs: tuple[str, ...]
    repeated: bool | None
    methods: tuple[str, ...]
    default: str
    note: str = ""

    def matches(self, judge: str, target: str, design: str, repeated: bool) -> bool:
        """Return True when the row holds for this path."""
        return (
            self.judge == judge
            and self.target == target
            and str(design) in self.designs
            and (self.repeated is None or self.repeated == repeated)
        )


_RATE_METHODS = (
    "adjusted-wald", "wald", "bootstrap", "profile-likelihood", "profile-likelihood-t",
    "profile-map", "adjusted-wald+profile-map", "bayes",
)  # fmt: skip
_CLUSTER = ("adjusted-wald", "wald", "bootstrap")
_PROFILES = ("profile-likelihood-t", "profile-likelihood", "bootstrap")

_ROWS: list[Capability] = [
    # the paper's design defaults to "auto" (issue 38 §3: adjusted-Wald, widened where it may
    # miss; benchmarks/results/auto_default.md); "adjusted-wald" is the paper's, by name
    Capability("letter", "rate", (_HUMAN,), False, (*_RATE_METHODS, "auto"), "auto",
               "the paper's design: every interval method"),
    Capability("letter", "rate", (_HUMAN,), True,
               (*_CLUSTER, "adjusted-wald+profile-map", "auto"), "auto",
               "repeated items: design effects, effective sizes; the bootstrap resamples items; "
               "the hull with profile-map at the effective counts"),
    Capability("letter", "rate", _CONDITIONAL, False, (*_CLUSTER, "bayes", "auto"),
               "adjusted-wald", "the judge-conditional estimator"),
    Capability("letter", "rate", _CONDITIONAL, True, (*_CLUSTER, "auto"), "adjusted-wald",
               "the judge-conditional estimator over items"),
    Capability("letter", "pooled-rate", (_HUMAN,), None, _CLUSTER, "adjusted-wald",
               "Σ w_s θ̂_s over strata"),
    Capability("letter", "pooled-rate", _CONDITIONAL, False, ("adjusted-wald", "wald"),
               "adjusted-wald", "the judge-conditional estimator per stratum"),
    Capability("categories", "distribution", (_HUMAN,), False,
               ("adjusted-delta", "wald", "bootstrap", "profile-likelihood",
                "profile-likelihood-t"), "adjusted-delta", "Ĉ⁻¹p̂ and the joint likelihood"),
    Capability("categories", "distribution", (_HUMAN,), True,
               ("adjusted-delta", "wald", "bootstrap"), "adjusted-delta",
               "the sandwich covariance over items; the bootstrap resamples items"),
    Capability("categories", "distribution", _CONDITIONAL, None, ("adjusted-delta", "wald"),
               "adjusted-delta", "the judge-conditional distribution"),
    Capability("alphabet", "distribution", (_HUMAN,), None, _PROFILES, "profile-likelihood-t",
               "J judge letters over K categories by maximum likelihood"),
    Capability("alphabet", "distribution", _CONDITIONAL, False, ("adjusted-delta", "wald"),
               "adjusted-delta", "the judge-conditional distribution over the letters"),
    Capability("letter", "difference", (_HUMAN,), False,
               ("adjusted-wald", "wald", "bootstrap", "bayes", "profile-likelihood",
                "profile-likelihood-t", "profile-map", "adjusted-wald+profile-map"),
               "adjusted-wald", "joint delta method, bootstrap or posterior; MOVER otherwise"),
    Capability("letter", "difference", (_HUMAN,), True, _CLUSTER, "adjusted-wald",
               "cluster-robust delta method; the bootstrap resamples items of both models"),
    Capability("letter", "difference", _CONDITIONAL, False, (*_CLUSTER, "bayes"),
               "adjusted-wald", "MOVER of the two models' intervals"),
    Capability("letter", "difference", _CONDITIONAL, True, _CLUSTER, "adjusted-wald",
               "MOVER; the models must share no item"),
    Capability("letter", "ranking", _ALL, False, ("bootstrap", "bayes"), "bootstrap",
               "ranks over resampled or posterior draws"),
    Capability("letter", "ranking", _ALL, True, ("bootstrap",), "bootstrap",
               "ranks over items resampled"),
    Capability("pairs", "strengths", _CONDITIONAL, False, ("ppi", "joint-mle"), "ppi",
               "Davidson strengths: prediction-powered or joint likelihood"),
    Capability("pairs", "strengths", (_HUMAN,), False, ("joint-mle",), "joint-mle",
               "pairs chosen by their human verdict inform the judge's confusion only "
               "(prediction-powered would be biased)"),
    Capability("pairs", "strengths", _CONDITIONAL, True, ("ppi",), "ppi",
               "cluster-robust prediction-powered sandwich"),
    # two to ten 0/1 judges under the paper's design (issue 39): the minimum-variance combination
    # of the members' adjusted-Wald estimates (benchmarks/results/jury.md); the J × K fit by name
    Capability("jury", "rate", (_HUMAN,), False,
               ("min-variance", *_PROFILES), "min-variance",
               "the members' Rogan–Gladen estimates combined with minimum-variance weights; "
               "the product letters' J × K fit by name"),
    # repeated items (issue 39): the members' covariance over items (jury/clustered.py)
    Capability("jury", "rate", (_HUMAN,), True, ("min-variance",), "min-variance",
               "repeated items: the members' joint covariance over items (cluster-robust), "
               "Student's t; the J × K fit models independent rows"),
    Capability("letter", "rate-sequence", _CONDITIONAL, None, ("betting",), "betting",
               "the betting confidence sequence while labelling in rounds; no labelling "
               "process draws within human labels, unknown until an item is labelled"),
    Capability("score", "rate", ("random",), None, ("wald",), "wald",
               "a numeric judge score: cross-fitted calibration to the human label, then the "
               "prediction-powered (PPI++) mean; cluster-robust over items; under the other "
               "designs declare bins= (the score's letters)"),
    Capability("score", "difference", ("random",), None, ("wald",), "wald",
               "two systems' scored answers to the same prompts: each arm's PPI++ mean, the "
               "difference's variance from their joint influence terms over items"),
    Capability("score", "rate-sequence", _CONDITIONAL, None, ("betting",), "betting",
               "the betting confidence sequence with a judge score: the pool's score bins as "
               "cells, each bin's prediction smoothed over its neighbours"),
    Capability("jury", "rate-sequence", _CONDITIONAL, None, ("betting",), "betting",
               "the betting confidence sequence with a jury: bins of the members' mean pool "
               "rank as cells (or their letters within the bins), smoothed as a score's"),
    # several human raters, reference="latent" (issue 40): Dawid-Skene with the judge as one
    # more rater (raters.latent_class.LATENT_METHODS); calibration items a random sample of
    # the items or chosen by the judge's (observed) label, so the likelihood stays valid
    Capability("raters", "rate", _CONDITIONAL, False,
               ("profile", "bootstrap", "sandwich", "observed-information", "bayes"), "profile",
               "several human raters, reference='latent': the latent class's prevalence "
               "(Dawid-Skene by EM, the judge one more rater); the profile likelihood (the "
               "measured default, benchmarks/results/raters_intervals.md), items resampled, "
               "or Wald; 'bayes': the PyMC twin's credible interval (js.bayes.fit_raters)"),
    # a jury stacked by cross-fitted logistic regression (issue 39, combine="stack"): the random
    # design only, as the other designs sample on a label and P(human | judges) of their
    # labelled rows is not the population's (jury/stack.py); there combine="letters" or "mean"
    Capability("stack", "rate", ("random",), None, ("wald",), "wald",
               "a jury stacked into one predictor (combine='stack': cross-fitted logistic "
               "regression on every judge's column), then the prediction-powered (PPI++) mean; "
               "the designs that sample on a label take combine='letters' or 'mean'"),
    Capability("stack", "difference", ("random",), None, ("wald",), "wald",
               "two systems judged by one jury on the same items: each system's stacked "
               "PPI++ mean, the difference's variance from their joint influence terms over "
               "items (compare.paired_jury_difference)"),
]  # fmt: skip


def add_capability(row: Capability) -> Capability:
    """Add a row to the table (a new design, a new judge input); returns it.

    A row may not overlap an existing one (the same judge, target, a shared design and
    repeated value): each path has one row.
    """
    if not isinstance(row, Capability):
        raise ArgumentTypeError(f"row must be a Capability, got {type(row).__name__}")
    check_choice("judge", row.judge, JUDGES)
    check_choice("target", row.target, TARGETS)
    if row.default not in row.methods:
        raise ArgumentTypeError(f"default {row.default!r} is not among methods {row.methods}")
    for old in _ROWS:
        shared = set(old.designs) & set(row.designs)
        both = old.repeated is None or row.repeated is None or old.repeated == row.repeated
        if old.judge == row.judge and old.target == row.target and shared and both:
            raise ArgumentTypeError(
                f"the table already has a row for judge={row.judge!r}, target={row.target!r}, "
                f"design {sorted(shared)[0]!r}, repeated={row.repeated}"
            )
    _ROWS.append(row)
    return row


def add_method(name: str, *, judge: str, target: str, design: str, repeated: bool) -> None:
    """Add an interval method to the row of one path (a user's registered method)."""
    i = next(i for i, r in enumerate(_ROWS) if r.matches(judge, target, design, repeated))
    row = _ROWS[i]
    if name not in row.methods:
        _ROWS[i] = Capability(row.judge, row.target, row.designs, row.repeated,
                              (*row.methods, name), row.default, row.note)  # fmt: skip


def _find(judge: str, target: str, design: Any, repeated: bool) -> Capability | None:
    return next((r for r in _ROWS if r.matches(judge, target, design, repeated)), None)


_WHAT = {
    ("letter", "rate"): "corrections",
    ("letter", "pooled-rate"): "stratified corrections",
    ("categories", "distribution"): "k-category corrections",
    ("alphabet", "distribution"): "corrections with a judge alphabet",
    ("letter", "difference"): "differences",
    ("letter", "ranking"): "rankings",
    ("pairs", "strengths"): "pairwise leaderboards",
    ("letter", "rate-sequence"): "labelling processes",
    ("jury", "rate"): "juries of judges",
    ("score", "rate"): "corrections of a numeric judge score",
    ("score", "difference"): "differences of two judge scores",
    ("score", "rate-sequence"): "labelling processes with a judge score",
    ("jury", "rate-sequence"): "labelling processes with a jury",
    ("raters", "rate"): "latent-class corrections of several raters",
    ("stack", "rate"): "stacked juries (combine='stack')",
    ("stack", "difference"): "differences of two stacked juries",
}


def describe(judge: str, target: str, design: Any, repeated: bool) -> str:
    """Return the words errors use for a path: ``"corrections with design='random'"``."""
    what = _WHAT.get((judge, target), f"{judge} {target}")
    where = [f"design={str(design)!r}"]
    if repeated:
        where.append("repeated items")
    return f"{what} with " + " and ".join(where)


def capability(judge: str, target: str, design: Any, repeated: bool) -> Capability:
    """Return the row of a path, or raise a named error saying the path is not available.

    Raises
    ------
    ClusteredCountsError
        The path exists for independent rows only.
    MethodError
        No row holds for this judge input, target and design.
    """
    row = _find(judge, target, design, bool(repeated))
    if row is not None:
        return row
    if repeated and _find(judge, target, design, False) is not None:
        raise ClusteredCountsError(
            f"{describe(judge, target, design, False)} treat every row as an independent item, "
            "but these counts were built with cluster= (repeated items); no interval method "
            "there accounts for the repeats"
        )
    designs = sorted({d for r in _ROWS if (r.judge, r.target) == (judge, target)
                      for d in r.designs})  # fmt: skip
    raise MethodError(
        f"{_WHAT.get((judge, target), f'{judge} {target}')} are not available with "
        f"design={str(design)!r}; the designs there are {_listed(designs)}"
    )


def methods_for(judge: str, target: str, design: Any, repeated: bool = False) -> tuple[str, ...]:
    """Return the interval methods available on a path (its row's)."""
    return capability(judge, target, design, repeated).methods


def check_method(
    method: Any, *, judge: str, target: str, design: Any, repeated: bool = False
) -> str:
    """Validate ``method`` for a path; ``None`` gives the row's default.

    Raises
    ------
    ArgumentTypeError
        ``method`` is not a string.
    ClusteredCountsError
        The method is available for independent rows but not for repeated items.
    MethodError
        The method is not available on the path; the message lists those that are.
    """
    row = capability(judge, target, design, repeated)
    if method is None:
        return row.default
    if not isinstance(method, str):
        raise ArgumentTypeError(f"method must be a string, got {type(method).__name__}")
    if method in row.methods:
        return method
    if repeated and (free := _find(judge, target, design, False)) and method in free.methods:
        raise ClusteredCountsError(
            f"method {method!r} models every row as an independent item, but these counts were "
            f"built with cluster= (repeated items); available for "
            f"{describe(judge, target, design, True)}: {_listed(row.methods)}, which account "
            "for the repeats"
        )
    raise MethodError(
        f"method {method!r} is not available for {describe(judge, target, design, repeated)}; "
        f"available: {_listed(row.methods)}"
    )


def _listed(names: Sequence[str]) -> str:
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def rows() -> tuple[Capability, ...]:
    """Return the rows of the table as they stand (built-ins first, then added rows)."""
    return tuple(_ROWS)


def table_markdown() -> str:
    """Return the capability table as a Markdown table (the docs page renders it)."""
    head = "| judge | target | designs | repeated items | methods (default first) | note |"
    lines = [head, "|---|---|---|---|---|---|"]
    for r in _ROWS:
        rep = {None: "either", True: "yes", False: "no"}[r.repeated]
        methods = [r.default, *(m for m in r.methods if m != r.default)]
        lines.append(
            f"| {r.judge} | {r.target} | {', '.join(r.designs)} | {rep} | "
            f"{', '.join(f'`{m}`' for m in methods)} | {r.note} |"
        )
    return "\n".join(lines)


# -- report-cli: what reports call the methods of the table
#: What reports call an interval method of the table (one without words here is called by
#: its name).
_METHOD_WORDS = {
    "adjusted-wald": "adjusted-Wald",
    "wald": "Wald (delta-method)",
    "bootstrap": "parametric-bootstrap percentile",
    "bayes": "Bayesian credible",
    "profile-likelihood": "profile-likelihood",
    "profile-likelihood-t": "small-calibration (t cut-off) profile-likelihood",
    "profile-map": "profile-likelihood (t cut-off, widened to hold the posterior mode)",
    "adjusted-wald+profile-map": "adjusted-Wald and profile-likelihood (t cut-off) hull",
    "auto": "adjusted-Wald or wider (auto)",
    "min-variance": "minimum-variance combination of the judges' adjusted-Wald estimates",
}
#: What a ranking's draws are, by the method of a ``"ranking"`` row.
_RANKING_DRAWS = {
    "bootstrap": "a joint parametric bootstrap of the Rogan–Gladen estimates",
    "bayes": "draws from the exact joint posterior",
}


def method_words(method: str) -> str:
    """Return what reports call an interval method (``"adjusted-Wald"``), else its name."""
    return _METHOD_WORDS.get(method, method)


def ranking_draws(method: str) -> str:
    """Return what a ranking's draws are under its method, else the method's name."""
    return _RANKING_DRAWS.get(method, method)
