"""``correct_combined()``: the true rate from two to ten judges' columns, combined three ways.

A jury's columns (0/1 letters or numeric scores, one per judge, on every row) and the human
label on the labelled rows; ``combine=`` says how the judges become one source (issue 39):

* ``"stack"`` — one predictor, the cross-fitted logistic regression of the human label on every
  judge's column (:mod:`judgestats.jury.stack`), entering the prediction-powered mean with
  power tuning (:func:`judgestats.scores.prediction_powered.fit_ppi`, the score path's
  estimator); its Wald variance is the larger of PPI++'s and PPI++'s with two pseudo-labels of
  each human class where a class has fewer than 20 labelled items (``fit_ppi(...,
  rare_adjust=True)``, the score path's too; part C of ``benchmarks/results/jury_combine.md``:
  from 0.902–0.920 coverage to 0.932–0.959 at 1.07–1.19× the width, 1.000× at θ = 0.3).
  The random design only (the capability table's ``"stack"`` row: the other designs sample on
  a label, so the labelled rows' P(human | judges) is not the population's).
  With fewer than :data:`~judgestats.scores.MIN_SCORE_LABELS` labelled items the fallback fixed
  in advance is ``"mean"``'s (recorded in ``fallback``).
* ``"mean"`` — the judges' mean: of 0/1 letters, J + 1 letters 0/J, 1/J, …, J/J instead of 2^J
  product letters; of scores, one score. Under ``design="random"`` the mean is a score
  (:func:`judgestats.scores.correct_scores`, isotonic calibration then PPI++; its small-sample
  fallback the J + 1 letters, or with ``cluster=`` the majority letter mean > 1/2). Under the
  other designs the J + 1 letters (a score jury's mean binned by ``bins=``, declared in
  advance) are a judge alphabet (:func:`judgestats.alphabets.groups.correct_alphabet`: the
  J × K model under the paper's design, which models letter | human as that design samples on
  the human label; the judge-conditional estimator under ``"by-judge-label"``, whose
  calibration items must then be drawn within the mean's letters).
* ``"letters"`` — the product letters: under the paper's design the jury of
  :func:`judgestats.jury.correct_jury` (minimum-variance weights; 0/1 judges); under the
  others the judge-conditional estimator over the 2^J letters (under ``"by-judge-label"`` the
  calibration items drawn at random within the product letters, or within any grouping of
  them such as one judge's letters: each product letter lies inside one group).

Which to use, measured (``benchmarks/results/jury_combine.md``; its summary is part D of
``benchmarks/results/jury.md``): :data:`DEFAULTS`. Under the random design the stack covers in
every cell (lowest 0.907 of 29 cells) at a median 0.98× the better judge's width, where the
product letters fell to 0.48 coverage with four or five judges and a rare rate (a defect of the
judge-alphabet interval since fixed: 0.938–0.961 in those cells,
``benchmarks/results/alphabet_random.md``); under the
paper's design the minimum-variance jury covers (lowest 0.936 of 20 cells) at a median 0.92×,
the mean's J + 1 letters up to 1.25× (2.67× on LLMBar's five judges, one much better). Under
``"by-judge-label"`` the product letters' judge-conditional estimator covers (lowest 0.935 of
29 cells, labels drawn within the product letters) at a median 1.025× the better judge (an
even split over 2^J letters starves the letters where the judges agree); drawn within one
judge's letters, the same estimator is 0.97× that judge (median, at most 1.045×; Part F).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    ClusteredCountsError,
    LabelError,
    MethodError,
    check_choice,
    check_confidence_level,
    check_rng,
)
from ..counts.binary import ConfusionCounts
from ..designs import as_design
from ..kernels import z_value
from ..results import ConfidenceInterval, Tabular, note_lines, rate_repr
from ..scores.counts import PredictionPoweredCounts
from .weights import MAX_JUDGES, letter_bits

__all__ = [
    "COMBINES",
    "DEFAULTS",
    "CombinedJuryCorrection",
    "PredictionPoweredJury",
    "correct_combined",
    "default_combine",
]

#: How a jury's judges are combined (``combine=``).
COMBINES = ("letters", "stack", "mean")


def default_combine(design: Any) -> str:
    """Return the measured default ``combine`` under ``design`` (:data:`DEFAULTS`).

    The stack wherever the capability table has a ``"stack"`` row for the design (the random
    design), else the product letters (the minimum-variance jury under the paper's design).
    """
    from ..designs.capabilities import rows

    found = any(r.matches("stack", "rate", as_design(design), False) for r in rows())
    return "stack" if found else "letters"


#: The default ``combine`` per design, chosen by measurement (benchmarks/results/jury_combine.md;
#: the rule :func:`default_combine`): under the paper's design the minimum-variance jury of the
#: product letters; under the random design the stack. Under ``"by-judge-label"`` the product
#: letters (the stack is refused, the mean needs its calibration drawn within the mean's
#: letters): measured in Parts E and F, they cover in every simulated cell (lowest 0.935) with
#: the labels drawn within the product letters, and are valid with the labels drawn within any
#: grouping of the verdicts, e.g. one judge's letters (then 0.97× that judge, median).
DEFAULTS = {name: default_combine(name) for name in ("by-human-label", "random", "by-judge-label")}


# ----------------------------------------------------------------------------- inputs
def judge_matrix(judges: Any, names: Any = None) -> tuple[np.ndarray, tuple[str, ...], bool]:
    """Return the judges' columns as an (n, J) matrix, their names, and whether all are 0/1.

    ``judges``: a mapping name → column, or a sequence of J columns, or an (n, J) array.
    """
    if isinstance(judges, dict):
        names = tuple(str(k) for k in judges) if names is None else names
        columns = list(judges.values())
    else:
        arr = np.asarray(judges, dtype=object)
        columns = list(arr.T) if arr.ndim == 2 and not isinstance(judges, list | tuple) \
            else list(judges)  # fmt: skip
    try:
        x = np.column_stack([np.asarray(c, dtype=float) for c in columns])
    except (TypeError, ValueError):
        raise ArgumentTypeError(
            "judges must be two to ten numeric columns of equal length (0/1 letters or scores)"
        ) from None
    if x.ndim != 2 or not 2 <= x.shape[1] <= MAX_JUDGES or x.shape[0] == 0:
        raise ArgumentTypeError(
            f"a jury has 2 to {MAX_JUDGES} judges' columns on at least one row, got shape "
            f"{x.shape}"
        )
    bad = np.argwhere(~np.isfinite(x))
    if bad.size:
        row, col = bad[0]
        raise LabelError(
            f"judge column {col} has a missing or infinite value at row {row}: every judge "
            "needs a verdict on every row"
        )
    count = x.shape[1]
    names = tuple(f"judge {j + 1}" for j in range(count)) if names is None else \
        tuple(str(n) for n in names)  # fmt: skip
    if len(names) != count or len(set(names)) != count:
        raise ArgumentTypeError(f"names must be {count} distinct names, got {names!r}")
    return x, names, bool(np.isin(x, (0.0, 1.0)).all())


def _member_tables(x: np.ndarray, y: np.ndarray) -> tuple[ConfusionCounts, ...]:
    """Each 0/1 judge's table against the human label on the labelled rows."""
    out = []
    for col in x.T:
        says = col == 1
        tp, fp = int((says & (y == 1)).sum()), int((says & (y == 0)).sum())
        out.append(ConfusionCounts(tp=tp, fn=int((y == 1).sum()) - tp,
                                   tn=int((y == 0).sum()) - fp, fp=fp))  # fmt: skip
    return tuple(out)


def stack_spec(*, design: Any, confidence_level: float, repeated: bool) -> Any:
    """Resolve the stack's spec (the capability table's ``"stack"`` row), refusing by name."""
    from ..spec import resolve_spec

    try:
        return resolve_spec(judge="stack", target="rate", design=design, method=None,
                            confidence_level=confidence_level, repeated=repeated,
                            method_optional=True)  # fmt: skip
    except MethodError as err:
        raise MethodError(
            f"{err}: design={str(design)!r} samples the calibration items on a label, so "
            "P(human | judges) fitted on them is not the population's and the stack's "
            "prediction-powered mean is biased; use combine='letters' (the jury's "
            "minimum-variance weights) or combine='mean' (the judges' J + 1 letters)"
        ) from None


# ----------------------------------------------------------------------------- the three
def _has_row(judge: str, design: Any, repeated: bool) -> bool:
    """Whether the capability table has a row for ``judge``'s rate under ``design``."""
    from ..designs.capabilities import rows

    return any(r.matches(judge, "rate", design, repeated) for r in rows())


def _stack(x, y, labelled, items, *, level, design, folds, rng) -> dict[str, Any]:
    from ..estimators import clip_warned
    from ..scores.prediction_powered import fit_ppi, humans_only_variance
    from .stack import cross_fit_stack

    lab_items = np.arange(y.size) if items is None else items[labelled]
    fit = cross_fit_stack(x[labelled], y, x[~labelled], lab_items, folds=folds, rng=rng)
    ppi = fit_ppi(y, fit.labelled, fit.unlabelled,
                  items_lab=None if items is None else items[labelled],
                  items_unl=None if items is None else items[~labelled],
                  rare_adjust=True)  # fmt: skip
    half = float(z_value(level)) * np.sqrt(ppi.variance)
    return {
        "estimate": float(clip_warned(ppi.estimate, stacklevel=5, estimator="PPI++")),
        "estimate_unclipped": ppi.estimate,
        "ci": ConfidenceInterval(max(ppi.estimate - half, 0.0), min(ppi.estimate + half, 1.0),
                                 "wald", level),
        "method": "wald", "variance": ppi.variance, "lam": ppi.lam, "folds": fit.folds,
        "estimator": "prediction-powered (PPI++, power-tuned), cross-fitted logistic stack",
        "naive": float(fit.unlabelled.mean()) if fit.unlabelled.size else float("nan"),
        "coefficients": fit.coefficients, "intercept": fit.intercept,
        "humans_only_variance": humans_only_variance(y, None if items is None
                                                     else items[labelled]),
    }  # fmt: skip


def mean_letters(x: np.ndarray, bins: Any, binary: bool) -> tuple[np.ndarray, tuple]:
    """Return the J + 1 letters ``"k/J"`` of 0/1 judges' mean (k say 1), or the mean's bins."""
    count = x.shape[1]
    if binary:
        k = x.sum(axis=1).astype(np.int64)
        letters = np.array([f"{v}/{count}" for v in range(count + 1)], dtype=object)[k]
        return letters, tuple(f"{v}/{count}" for v in range(count + 1) if (k == v).any())
    from ..alphabets import judge_letters

    letters = np.asarray(judge_letters(x.mean(axis=1), bins=bins), dtype=object)
    return letters, tuple(dict.fromkeys(letters.tolist()))


def _vote_words(fallback: str | None, binary: bool) -> str | None:
    """Return a 0/1 jury's score fallback in its own words (its J + 1 vote counts are letters)."""
    words = "score bins as letters"
    if binary and fallback is not None and fallback.startswith(words):
        return "the judges' vote counts (k/J) as letters" + fallback[len(words):]
    return fallback


def _mean(x, y, labelled, items, human, cluster, *, binary, level, design, method, folds,
          bins, threshold, rng) -> dict[str, Any]:  # fmt: skip
    if _has_row("score", design, cluster is not None):  # the random design: a score
        from ..scores import MIN_SCORE_LABELS, correct_scores

        count = x.shape[1]
        if binary and bins is None and threshold is None:
            bins, threshold = ((np.arange(count + 2) - 0.5) / count, None) if cluster is None \
                else (None, 0.5)  # fmt: skip
        if y.size < MIN_SCORE_LABELS and y.size and y.min() == y.max():
            raise LabelError(
                f"the {y.size} labelled rows all have human label {int(y[0])}: below "
                f"{MIN_SCORE_LABELS} labels the jury's fallback (its letters) needs both human "
                "classes among the labelled rows; label more rows"
            )
        res = correct_scores(x.mean(axis=1), human, cluster=cluster, folds=folds, bins=bins,
                             threshold=threshold, confidence_level=level, design=design,
                             rng=rng)  # fmt: skip
        return {"inner": res, "estimate": res.estimate, "ci": res.ci, "method": res.method,
                "estimate_unclipped": res.estimate_unclipped, "variance": res.variance,
                "lam": res.lam, "folds": res.folds, "naive": res.naive,
                "estimator": f"{res.estimator}, of the judges' mean",
                "humans_only_variance": res.humans_only_variance,
                "fallback": _vote_words(res.fallback, binary)}  # fmt: skip
    if cluster is not None:
        raise ClusteredCountsError(
            f"combine='mean' with cluster= is available under design='random' only (a judge "
            f"alphabet has no repeated items' row under design={str(design)!r})"
        )
    if not binary and bins is None:
        raise MethodError(
            f"combine='mean' of score judges under design={str(design)!r} needs bins= declared "
            "before labelling (the mean's letters, a judge alphabet), never bins chosen by "
            "looking at the labels"
        )
    letters, alphabet = mean_letters(x, bins, binary)
    lookup = {a: i for i, a in enumerate(alphabet)}
    codes = np.fromiter((lookup[v] for v in letters), dtype=np.int64, count=len(letters))
    return _alphabet(codes, alphabet, y, labelled, level=level, design=design, method=method,
                     rng=rng, what="the judges' mean as letters")  # fmt: skip


def _letter_tables(codes: np.ndarray, alphabet: tuple, y: np.ndarray,
                   labelled: np.ndarray) -> tuple[Any, Any]:  # fmt: skip
    """Test and calibration counts over ``alphabet`` from each row's letter (its index there)."""
    from ..counts.categories import CategoryCounts, ConfusionMatrix

    size = len(alphabet)
    test = CategoryCounts(np.bincount(codes[~labelled], minlength=size), labels=list(alphabet))
    lab, human = codes[labelled], y.astype(np.int64)
    cal = np.stack([np.bincount(lab[human == h], minlength=size) for h in (0, 1)], axis=-1)
    return test, ConfusionMatrix(cal, labels=[0, 1], judge_labels=list(alphabet))


def _alphabet(codes, alphabet, y, labelled, *, level, design, method, rng,
              what) -> dict[str, Any]:  # fmt: skip
    from ..alphabets.groups import correct_alphabet
    from ..results import width_variance

    test, cal = _letter_tables(codes, alphabet, y, labelled)
    res = correct_alphabet(test, cal, method=method, confidence_level=level, rng=rng,
                           design=design)  # fmt: skip
    return {"inner": res, "estimate": res.estimate, "ci": res.ci, "method": res.method,
            "estimate_unclipped": res.estimate, "variance": width_variance(res.ci),
            "naive": float("nan"), "estimator": f"{res.estimator}, {what}",
            "letters": tuple(alphabet)}  # fmt: skip


def _letters(x, y, labelled, items, cluster, *, binary, names, level, design, method,
             rng) -> dict[str, Any]:  # fmt: skip
    if not binary:
        raise LabelError(
            "combine='letters' takes 0/1 judges (their product letters); score judges take "
            "combine='stack' or 'mean'"
        )
    judges = x.shape[1]
    index = x.astype(np.int64) @ (2 ** np.arange(judges - 1, -1, -1))
    cells = np.array(["|".join(map(str, row)) for row in letter_bits(judges)], dtype=object)
    present = np.unique(index)  # the letters' numeric order is their sorted order
    alphabet = tuple(cells[present].tolist())
    codes = np.searchsorted(present, index)
    if _has_row("jury", design, cluster is not None):
        from ..counts.categories import CategoryCounts, ConfusionMatrix
        from .correction import correct_jury

        if cluster is None:
            test, cal = _letter_tables(codes, alphabet, y, labelled)
        else:
            product, where = cells[index], np.asarray(cluster)
            test = CategoryCounts.from_labels(list(product[~labelled]), labels=list(alphabet),
                                              cluster=list(where[~labelled]))  # fmt: skip
            cal = ConfusionMatrix.from_labels(
                human=y.astype(int).tolist(), judge=list(product[labelled]), labels=[0, 1],
                judge_labels=list(alphabet), cluster=list(where[labelled]),
            )  # fmt: skip
        res = correct_jury(test, cal, judges=names, method=method, confidence_level=level,
                           design=design, rng=rng)  # fmt: skip
        return {"inner": res, "estimate": res.estimate, "ci": res.ci, "method": res.method,
                "estimate_unclipped": res.estimate, "variance": res.variance,
                "naive": float("nan"), "estimator": res.estimator, "weights": res.weights,
                "fallback": res.fallback, "letters": alphabet}  # fmt: skip
    if cluster is not None:
        raise ClusteredCountsError(
            f"combine='letters' with cluster= is available under design='by-human-label' only "
            f"(got design={str(design)!r}); use combine='stack' or 'mean'"
        )
    return _alphabet(codes, alphabet, y, labelled, level=level, design=design, method=method,
                     rng=rng, what="the judges' product letters")  # fmt: skip


# ----------------------------------------------------------------------------- entry
def correct_combined(
    judges: Any,
    human: Any,
    *,
    combine: str | None = None,
    names: Any = None,
    cluster: Any = None,
    design: str = "random",
    method: str | None = None,
    folds: int = 5,
    bins: Any = None,
    threshold: float | None = None,
    confidence_level: float = 0.95,
    rng: Any = None,
) -> CombinedJuryCorrection:
    """Correct the rate θ = P(human = 1) from two to ten judges' columns, combined.

    Parameters
    ----------
    judges : mapping, sequence of columns or 2-D array
        One column per judge (name → column, J columns, or an (n, J) array), a verdict on
        every row: 0/1 letters (booleans) or numeric scores.
    human : 1-D array_like
        The human label, 0/1, on the labelled rows; None or NaN on the others.
    combine : {"stack", "mean", "letters"}, optional
        How the judges become one source (module docstring). Default: the measured one for the
        design (:data:`DEFAULTS`: ``"stack"`` under ``"random"``, ``"letters"`` under the
        paper's design and ``"by-judge-label"``; ``benchmarks/results/jury_combine.md``).
    names : sequence of str, optional
        The judges' names (default: a mapping's keys, else ``"judge 1"``, …).
    cluster : 1-D array_like, optional
        The item each row judges, when items repeat: folds keep an item's rows together and
        the variance sums over items (``"stack"``, ``"mean"`` under ``"random"``, and
        ``"letters"`` under the paper's design).
    design : {"random", "by-human-label", "by-judge-label"}, default "random"
        How the labelled rows were chosen. ``"stack"`` is refused by name except under
        ``"random"`` (:func:`stack_spec`).
    method : str, optional
        The interval method of a judge alphabet or a jury (``"letters"``, and ``"mean"`` under
        the designs that sample on a label); ``"stack"`` and a random ``"mean"`` are Wald.
    folds : int, default 5
        Cross-fitting folds (``"stack"``, ``"mean"`` under ``"random"``).
    bins : sequence of float, optional
        Edges, declared before labelling, binning a score jury's mean into letters.
    threshold : float, optional
        ``"mean"``'s small-sample letter, mean > threshold
        (:func:`~judgestats.scores.correct_scores`).
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    rng : None, int, SeedSequence or Generator
        Draws the folds.

    Returns
    -------
    CombinedJuryCorrection

    Raises
    ------
    MethodError
        ``combine="stack"`` under a design that samples on a label; a score jury's mean
        without ``bins=`` there.
    ArgumentTypeError, LabelError, ClusteredCountsError
        Bad columns, labels, names or options; ``combine="letters"`` of score judges.

    Examples
    --------
    Three judges of unequal quality, a random 20% of the rows labelled:

    >>> import numpy as np
    >>> import judgestats as js
    >>> gen = np.random.default_rng(0)
    >>> y = gen.random(2000) < 0.3
    >>> judges = {name: np.where(gen.random(2000) < acc, y, ~y).astype(int)
    ...           for name, acc in [("gpt4", 0.9), ("small", 0.75), ("coin", 0.5)]}
    >>> human = np.where(gen.random(2000) < 0.2, y, np.nan)
    >>> res = js.jury.correct_combined(judges, human, rng=1)
    >>> res.combine, res.method, res.fallback
    ('stack', 'wald', None)
    >>> max(res.coefficients, key=lambda k: abs(res.coefficients[k]))
    'gpt4'
    >>> bool(res.ci.low < y.mean() < res.ci.high)
    True
    """
    from ..scores.correction import MIN_SCORE_LABELS, _check_folds, _human, _items

    level = float(check_confidence_level(confidence_level))
    design = as_design(design)
    combine = default_combine(design) if combine is None else combine
    check_choice("combine", combine, COMBINES)
    x, names, binary = judge_matrix(judges, names)
    y, labelled = _human(human, x.shape[0])
    items = _items(cluster, x.shape[0])
    folds = _check_folds(folds)
    gen = check_rng(rng)
    common: dict[str, Any] = {
        "combine": combine, "judges": names, "confidence_level": level, "design": design,
        "n_labelled": int(labelled.sum()), "n_unlabelled": int((~labelled).sum()),
        "m1": int(y.sum()), "items": None if items is None else int(np.unique(items).size),
        "calibrations": _member_tables(x[labelled], y) if binary else None,
    }  # fmt: skip
    mean = {"binary": binary, "level": level, "design": design, "method": method,
            "folds": folds, "bins": bins, "threshold": threshold, "rng": gen}  # fmt: skip
    if combine == "stack":
        spec = stack_spec(design=design, confidence_level=level, repeated=items is not None)
        if method not in (None, "wald"):
            raise MethodError(f"method {method!r} is not available for combine='stack'; "
                              "available: 'wald'")  # fmt: skip
        n_items = int(labelled.sum()) if items is None else int(np.unique(items[labelled]).size)
        if n_items >= MIN_SCORE_LABELS:
            parts = _stack(x, y, labelled, items, level=level, design=spec.design, folds=folds,
                           rng=gen)  # fmt: skip
            parts["coefficients"] = dict(zip(names, parts["coefficients"].tolist(), strict=True))
        else:
            parts = _mean(x, y, labelled, items, human, cluster, **mean)
            parts["fallback"] = (f"{n_items} labelled items (< {MIN_SCORE_LABELS}): the judges' "
                                 f"mean (combine='mean')"
                                 + (f", {parts['fallback']}" if parts.get("fallback") else ""))
    elif combine == "mean":
        parts = _mean(x, y, labelled, items, human, cluster, **mean)
    else:
        parts = _letters(x, y, labelled, items, cluster, binary=binary, names=names, level=level,
                         design=design, method=method, rng=gen)  # fmt: skip
    wald = parts.get("humans_only_variance") is not None  # a prediction-powered mean
    return (PredictionPoweredJury if wald else CombinedJuryCorrection)(**common, **parts)


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True, eq=False)
class CombinedJuryCorrection(PredictionPoweredCounts, Tabular):
    """A rate corrected from a jury's columns combined (:func:`correct_combined`).

    Attributes
    ----------
    combine : str
        ``"stack"``, ``"mean"`` or ``"letters"``.
    judges : tuple of str
        The judges, in the columns' order.
    estimate, ci, estimate_unclipped, method, estimator, confidence_level, design
        As on :class:`~judgestats.scores.ScoreCorrection`.
    n_labelled, n_unlabelled, m1, items, naive
        The labelled and unlabelled rows, the labelled rows with human 1, the items with
        ``cluster=`` (else None), the predictor's mean over the unlabelled rows (NaN where
        there is none).
    variance : float
        Var(θ̂) the interval rests on (PPI++'s; a jury's min-variance one; else the variance
        the interval's width implies).
    coefficients : dict or None
        ``"stack"``: each judge's log-odds coefficient (per unit of its column) in the fit on
        every labelled row — which judge carries the weight; ``intercept`` beside it.
    weights : dict or None
        ``"letters"`` under the paper's design: each judge's minimum-variance weight.
    lam, folds, humans_only_variance
        The power tuning λ̂, the folds and Var(ȳ) of the labels alone (the Wald paths).
    letters : tuple
        The letters a judge alphabet was fitted on (``"mean"``'s J + 1, the product letters);
        empty for a prediction-powered mean.
    fallback : str or None
        What the fallback fixed in advance did, else None.
    calibrations : tuple of ConfusionCounts or None
        Each 0/1 judge's table against the human label (:meth:`agreement` reads them).
    inner : result or None
        The result the combination went through (a ScoreCorrection, AlphabetCorrection or
        JuryCorrection).

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> gen = np.random.default_rng(3)
    >>> y = gen.random(1500) < 0.5
    >>> judges = [np.where(gen.random(1500) < 0.85, y, ~y).astype(int) for _ in range(3)]
    >>> res = js.jury.correct_combined(judges, np.where(np.arange(1500) < 300, y, np.nan),
    ...                                combine="mean", rng=0)
    >>> res.combine, res.method, res.effective_labels > res.n_labelled
    ('mean', 'wald', True)
    """

    kind: ClassVar[str] = "combined-jury"
    combine: str
    judges: tuple
    estimate: float
    ci: ConfidenceInterval
    estimate_unclipped: float
    method: str
    estimator: str
    confidence_level: float
    design: Any
    n_labelled: int
    n_unlabelled: int
    m1: int
    items: int | None
    naive: float
    variance: float
    calibrations: tuple | None = None
    coefficients: dict | None = None
    intercept: float | None = None
    weights: dict | None = None
    lam: float | None = None
    folds: int | None = None
    humans_only_variance: float | None = None
    letters: tuple = ()
    fallback: str | None = field(default=None, kw_only=True)
    inner: Any = field(default=None, kw_only=True)

    @property
    def clipped(self) -> bool:
        """Whether θ̂ fell outside [0, 1] and was clipped."""
        return bool(self.estimate_unclipped < 0 or self.estimate_unclipped > 1)

    @property
    def calibrator(self) -> str:
        """What made the predictor, in the report's words: ``"logistic"`` for the stack.

        The stack is a logistic regression on every judge's column; ``"mean"`` gives its
        score's calibrator (``"isotonic"``).
        """
        if self.combine == "stack" and self.coefficients is not None:
            return "logistic"
        return str(getattr(self.inner, "calibrator", None) or f"combine={self.combine!r}")

    def agreement(self) -> dict:
        """Each 0/1 judge's agreement card against the human label (empty for score judges).

        Returns
        -------
        dict
            Judge name → :class:`~judgestats.Agreement` at the result's level and design.
        """
        if self.calibrations is None:
            return {}
        from ..agreement import agreement  # loaded on first use

        return {name: agreement(cal, design=self.design, confidence_level=self.confidence_level)
                for name, cal in zip(self.judges, self.calibrations, strict=True)}  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python row (JSON-serialisable), one column per judge's coefficient or weight."""
        row = {
            "estimate": self.estimate, "ci_low": self.ci.low, "ci_high": self.ci.high,
            "combine": self.combine, "method": self.method, "estimator": self.estimator,
            "design": str(self.design), "confidence_level": self.confidence_level,
            "n_labelled": self.n_labelled, "n_unlabelled": self.n_unlabelled, "n": self.n,
            "m0": self.m0, "m1": self.m1, "items": self.items, "naive": self.naive,
            "lam": self.lam, "effective_labels": self.effective_labels,
            "fallback": self.fallback, "clipped": self.clipped,
            "estimate_unclipped": self.estimate_unclipped, "judges": ", ".join(self.judges),
        }  # fmt: skip
        for name in self.judges:
            if self.coefficients is not None:
                row[f"coefficient[{name}]"] = self.coefficients[name]
            if self.weights is not None:
                row[f"weight[{name}]"] = self.weights[name]
        return row

    def _records(self) -> list[dict[str, Any]]:
        return [self.to_dict()]

    def summary(self) -> str:
        """Short text: the rate and interval, how the judges were combined and who weighs."""
        lines = [
            f"Jury of {len(self.judges)} judges, combine={self.combine!r} ({self.estimator}; "
            f"{self.method}, {self.confidence_level:.0%}, design {self.design}): "
            f"{self.estimate:.4f} [{self.ci.low:.4f}, {self.ci.high:.4f}]",
            f"  labelled {self.n_labelled}, unlabelled {self.n_unlabelled}"
            + ("" if self.items is None else f" ({self.items} items)"),
        ]
        for name in self.judges:
            if self.coefficients is not None:
                lines.append(f"  {name}: coefficient {self.coefficients[name]:+.3f} (log-odds)")
            elif self.weights is not None:
                lines.append(f"  {name}: weight {self.weights[name]:.3f}")
        if self.letters and self.combine == "mean":
            lines.append(f"  letters: {', '.join(map(str, self.letters))}")
        worth = self.effective_labels
        if worth is not None:
            lines.append(f"  effective labels {worth:.0f} (human labels alone as precise)")
        if self.calibrations is not None:
            from ..agreement.card import jury_lines  # loaded on first use

            lines += jury_lines(self.agreement())
        lines += note_lines(self.fallback and f"fallback: {self.fallback}",
                            self.clipped and f"the estimate {self.estimate_unclipped:.4f} "
                            "was clipped to [0, 1]")  # fmt: skip
        return "\n".join(lines)

    def __repr__(self) -> str:
        return rate_repr(
            "CombinedJuryCorrection", estimate=self.estimate, ci=self.ci, combine=self.combine,
            method=self.method, judges=list(self.judges), confidence_level=self.confidence_level,
            design=self.design, n_labelled=self.n_labelled,
        )  # fmt: skip


@dataclass(frozen=True, slots=True, eq=False)
class PredictionPoweredJury(CombinedJuryCorrection):
    """A :class:`CombinedJuryCorrection` whose rate is a prediction-powered mean (PPI++).

    The stack, and the mean under the random design: the report renders it as it renders a
    judge score (:class:`~judgestats.scores.ScoreCorrection`: its predictor, λ̂, folds and
    effective labels), which is what it is, with the jury's predictor.

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> gen = np.random.default_rng(3)
    >>> y = gen.random(1500) < 0.5
    >>> judges = [np.where(gen.random(1500) < 0.85, y, ~y).astype(int) for _ in range(2)]
    >>> res = js.jury.correct_combined(judges, np.where(np.arange(1500) < 300, y, np.nan), rng=0)
    >>> isinstance(res, js.jury.CombinedJuryCorrection), res.kind, res.calibrator
    (True, 'score-correction', 'logistic')
    """

    kind: ClassVar[str] = "score-correction"
