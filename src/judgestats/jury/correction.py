"""``correct_jury()``: the true rate from two to ten 0/1 judges on the same items, and its result.

Under the paper's design (``"by-human-label"``) each judge alone gives a Rogan–Gladen estimate
(eq. (2)) from the same test and calibration items; ``method="min-variance"`` (the capability
table's default for a jury) combines them with the minimum-variance weights of their joint
covariance (:mod:`judgestats.jury.weights`), an interval never wider than the better member's
adjusted-Wald interval before truncation, with the fallback fixed in advance where a human class
has fewer than :data:`~judgestats.jury.weights.MIN_PER_CLASS` items. The product letters' J × K
maximum-likelihood fit (:func:`judgestats.alphabets.groups.correct_alphabet`, what
``js.evaluate(frame, judge=[...])`` gave before) stays available by name
(``"profile-likelihood-t"``, ``"profile-likelihood"``, ``"bootstrap"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .._validation import (
    ArgumentTypeError,
    LabelError,
    binary_value,
    check_confidence_level,
)
from ..counts.binary import ConfusionCounts
from ..counts.categories import CategoryCounts, ConfusionMatrix
from ..designs import DEFAULT_DESIGN
from ..kernels import z_value
from ..results import ConfidenceInterval, Reportable, effective_labels, rate_repr, width_variance
from ..spec import resolve_spec
from .weights import MAX_JUDGES, MIN_PER_CLASS, jury_bounds, letter_bits

__all__ = ["JuryCorrection", "correct_jury", "jury_cells", "jury_items", "verdicts_or_none"]

#: The capability table's path of a jury.
JURY, RATE = "jury", "rate"


def verdicts_or_none(letter: Any) -> tuple[int, ...] | None:
    """Return the 0/1 verdicts of a product letter ``"1|0"`` (``"True|False"`` too), or None."""
    out = []
    for part in str(letter).split("|"):
        if part in ("True", "False"):
            out.append(int(part == "True"))
            continue
        try:
            value = binary_value(float(part))
        except ValueError:
            return None
        if value is None:
            return None
        out.append(value)
    return tuple(out)


def _verdicts(letter: Any, judges: int | None) -> tuple[int, ...]:
    """Return the 0/1 verdicts of a product letter, or raise an error naming it."""
    out = verdicts_or_none(letter)
    if out is None:
        raise LabelError(
            f"judge letter {letter!r} is not a product of 0/1 verdicts ('1|0'): a jury "
            "combines 0/1 judges; with other letters use a judge alphabet "
            "(method='profile-likelihood-t')"
        )
    if judges is not None and len(out) != judges:
        raise LabelError(f"judge letter {letter!r} has {len(out)} verdicts, expected {judges}")
    return out


def jury_cells(test: CategoryCounts, calibration: ConfusionMatrix) -> tuple[np.ndarray, ...]:
    """Product-letter counts as arrays over every cell of {0, 1}^J: (test (2^J,), cal (2^J, 2)).

    The letters of ``calibration.judge_labels`` (and the test's, the same) are ``"v1|v2|…"``
    with each vᵢ a 0/1 verdict, judge 0 first (:func:`judgestats.alphabets.groups.letter_counts`
    with several judge columns); a letter no item has is a zero cell.

    Raises
    ------
    LabelError
        A letter that is not J 0/1 verdicts, or human categories other than (0, 1).

    Examples
    --------
    >>> import judgestats as js
    >>> from judgestats.jury import jury_cells
    >>> test = js.CategoryCounts([5, 7], labels=["1|1", "0|1"])
    >>> cal = js.ConfusionMatrix([[1, 4], [3, 2]], labels=[0, 1], judge_labels=["1|1", "0|1"])
    >>> [a.tolist() for a in jury_cells(test, cal)]
    [[0, 7, 0, 5], [[0, 0], [3, 2], [0, 0], [1, 4]]]
    """
    if tuple(calibration.labels) != (0, 1):
        raise LabelError(f"a jury's human categories must be (0, 1), got {calibration.labels!r}")
    letters = tuple(calibration.judge_labels)
    if tuple(test.labels) != letters:
        raise LabelError(
            f"the test letters {tuple(test.labels)!r} differ from the calibration's {letters!r}"
        )
    judges, index = _cell_index(letters)
    t = np.zeros(2**judges, dtype=np.int64)
    c = np.zeros((2**judges, 2), dtype=np.int64)
    np.add.at(t, index, np.asarray(test.counts, dtype=np.int64))
    np.add.at(c, index, np.asarray(calibration.counts, dtype=np.int64))
    return t, c


def _cell_index(letters: tuple) -> tuple[int, np.ndarray]:
    """Return the number of judges and each letter's cell in {0, 1}^J (judge 0 leading)."""
    judges = len(_verdicts(letters[0], None))
    if not 2 <= judges <= MAX_JUDGES:
        raise ArgumentTypeError(f"a jury has 2 to {MAX_JUDGES} judges, got {judges}")
    index = np.ravel_multi_index(np.array([_verdicts(v, judges) for v in letters]).T,
                                 (2,) * judges)  # fmt: skip
    return judges, index


def _per_item(counts: Any, width: int) -> tuple[list, np.ndarray]:
    """Return the item ids and per-item totals (G, width); without clusters one item a row."""
    if counts.clusters is not None:
        return list(counts.clusters.ids), counts.clusters.totals.reshape(-1, width)
    flat = np.asarray(counts.counts, dtype=np.int64).reshape(-1)
    rows = np.repeat(np.eye(flat.size, dtype=np.int64), flat, axis=0)
    return [object() for _ in range(rows.shape[0])], rows  # ids no other item shares


def jury_items(test: CategoryCounts,
               calibration: ConfusionMatrix) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Per-item product-letter counts: (test (G, 2^J), calibration (G, 2^J, 2)), items aligned.

    The items are the union of the test's and the calibration's cluster ids (an item may have
    rows in both); counts without clusters enter as one item per row.

    Examples
    --------
    >>> import judgestats as js
    >>> from judgestats.jury import jury_items
    >>> test = js.CategoryCounts.from_labels(["1|1", "0|1", "1|1"], cluster=[1, 1, 2])
    >>> cal = js.ConfusionMatrix.from_labels(human=[1, 0], judge=["1|1", "0|1"], labels=[0, 1],
    ...                                      judge_labels=["0|1", "1|1"], cluster=[2, 3])
    >>> t, c = jury_items(test, cal)
    >>> t.tolist(), c.sum(axis=1).tolist()
    ([[0, 1, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0]], [[0, 0], [0, 1], [1, 0]])
    """
    jury_cells(test, calibration)  # the letters' and categories' checks
    letters = tuple(calibration.judge_labels)
    judges, index = _cell_index(letters)
    t_ids, t_rows = _per_item(test, len(letters))
    c_ids, c_rows = _per_item(calibration, 2 * len(letters))
    order = {key: g for g, key in enumerate(dict.fromkeys([*t_ids, *c_ids]))}
    t = np.zeros((len(order), 2**judges), dtype=np.int64)
    c = np.zeros((len(order), 2**judges, 2), dtype=np.int64)
    t_at = np.array([order[k] for k in t_ids], dtype=np.int64)
    c_at = np.array([order[k] for k in c_ids], dtype=np.int64)
    for i, cell in enumerate(index):
        np.add.at(t[:, cell], t_at, t_rows[:, i])
        np.add.at(c[:, cell, :], c_at, c_rows[:, 2 * i : 2 * i + 2])
    return t, c


def _names(judges: Any, count: int) -> tuple[str, ...]:
    if judges is None:
        return tuple(f"judge {j + 1}" for j in range(count))
    names = tuple(str(j) for j in judges)
    if len(names) != count or len(set(names)) != count:
        raise ArgumentTypeError(
            f"judges must be {count} distinct names (one per verdict of a letter), got {judges!r}"
        )
    return names


def _member_counts(cal: np.ndarray, judges: int) -> list[ConfusionCounts]:
    bits = letter_bits(judges)
    out = []
    for j in range(judges):
        says = bits[:, j] == 1
        tp, fp = int(cal[says, 1].sum()), int(cal[says, 0].sum())
        out.append(ConfusionCounts(tp=tp, fn=int(cal[:, 1].sum()) - tp,
                                   tn=int(cal[:, 0].sum()) - fp, fp=fp))  # fmt: skip
    return out


def correct_jury(
    test: CategoryCounts,
    calibration: ConfusionMatrix,
    *,
    judges: Any = None,
    method: str | None = None,
    confidence_level: float = 0.95,
    design: str = DEFAULT_DESIGN,
    rng: Any = None,
    estimand: str = "rows",
    **options: Any,
) -> JuryCorrection:
    """Correct the rate θ = P(human = 1) from a jury of 0/1 judges on the same items.

    Parameters
    ----------
    test : CategoryCounts
        Test counts over the product letters ``"1|0"`` (one 0/1 verdict per judge, joined by
        ``"|"``, as :func:`judgestats.alphabets.groups.letter_counts` counts several judge
        columns).
    calibration : ConfusionMatrix
        Letters × human (0, 1) counts, ``judge_labels`` = the test's letters.
    judges : sequence of str, optional
        The judges' names, in the order of the letters' verdicts (default ``"judge 1"``, …).
    method : str, optional
        ``"min-variance"`` (the default; see :mod:`judgestats.jury.weights`) or the product
        letters' J × K fit: ``"profile-likelihood-t"``, ``"profile-likelihood"``,
        ``"bootstrap"`` (:func:`judgestats.alphabets.groups.correct_alphabet`).
    confidence_level : float, default 0.95
        Two-sided level, strictly inside (0, 1); stored on the result.
    design : str, default "by-human-label"
        The capability table has a jury's row for the paper's design only.
    rng : None, int, SeedSequence or Generator
        Randomness of ``"bootstrap"``.
    estimand : {"rows", "items"}, default "rows"
        With repeated items (counts with ``clusters``, ``cluster=`` of
        :meth:`~judgestats.CategoryCounts.from_labels`): the rate over rows (each row weight
        1) or over items (each item weight 1, shared by its rows, as
        ``js.correct(..., estimand="items")`` weighs them:
        :func:`judgestats.repeated.item_weights`).
        The members' covariance is then taken over items (:mod:`judgestats.jury.clustered`),
        with Student's t; one row per item gives the independent rows' numbers exactly, under
        either estimand. Only ``"min-variance"`` is available there (the J × K fit models
        independent rows). Without repeated items every row is an item and the two agree.
    **options
        Options of the J × K fit (``n_resamples``, ``min_count``).

    Returns
    -------
    JuryCorrection

    Raises
    ------
    MethodError
        A method outside the jury's row, or a design without one.
    LabelError
        Letters that are not 0/1 verdicts of every judge.

    Examples
    --------
    Two judges on 1000 test items and 100 + 100 calibration items; letter ``"1|0"``: the first
    judge says 1, the second 0:

    >>> import judgestats as js
    >>> from judgestats.jury import correct_jury
    >>> letters = ["0|0", "0|1", "1|0", "1|1"]
    >>> test = js.CategoryCounts([380, 70, 90, 460], labels=letters)
    >>> cal = js.ConfusionMatrix([[70, 4], [12, 6], [10, 8], [8, 82]], labels=[0, 1],
    ...                          judge_labels=letters)
    >>> res = correct_jury(test, cal, judges=["gpt4", "gpt35"], confidence_level=0.95)
    >>> res.method, res.better
    ('min-variance', 'gpt4')
    >>> {k: round(v, 2) for k, v in res.weights.items()}
    {'gpt4': 0.58, 'gpt35': 0.42}
    >>> res.ci.high - res.ci.low < min(c.high - c.low for c in res.member_ci.values())
    True
    """
    level = float(check_confidence_level(confidence_level))
    repeated = test.clusters is not None or calibration.clusters is not None
    spec = resolve_spec(judge=JURY, target=RATE, design=design, method=method,
                        confidence_level=level, method_optional=True, repeated=repeated,
                        estimand=estimand)  # fmt: skip
    t, c = jury_cells(test, calibration)
    count = int(np.log2(t.size))
    names = _names(judges, count)
    per_item = None
    if repeated:
        from .clustered import clustered_jury_bounds  # loaded on first use

        per_item = jury_items(test, calibration)
        b = clustered_jury_bounds(per_item[0], per_item[1], level, estimand=spec.estimand)
    else:
        b = jury_bounds(t, c, z_value(level))
    common: dict[str, Any] = {
        "judges": names, "confidence_level": level, "design": spec.design, "n": int(t.sum()),
        "m0": int(c[:, 0].sum()), "m1": int(c[:, 1].sum()),
        "member_estimate": dict(zip(names, np.clip(b["centre"], 0, 1).tolist(), strict=True)),
        "member_ci": {nm: ConfidenceInterval(float(lo), float(hi), "adjusted-wald", level)
                      for nm, lo, hi in zip(names, b["member_low"], b["member_high"],
                                            strict=True)},
        "better": names[int(b["better"])], "calibrations": tuple(_member_counts(c, count)),
        "calibration": calibration,
        "items": None if per_item is None else int(per_item[0].shape[0]),
        "t_df": float(b["df"]) if repeated else None,
        "estimand": spec.estimand if repeated else None,
    }  # fmt: skip
    if spec.method != "min-variance":
        from ..alphabets.groups import correct_alphabet  # the J × K fit, loaded on first use

        fit = correct_alphabet(test, calibration, method=spec.method, confidence_level=level,
                               rng=rng, design=spec.design, **options)  # fmt: skip
        return JuryCorrection(estimate=fit.estimate, ci=fit.ci, method=spec.method,
                              weights=None, fallback=None, fit=fit,
                              variance=width_variance(fit.ci), **common)  # fmt: skip
    if options:
        raise ArgumentTypeError(f"method 'min-variance' takes no options, got {sorted(options)}")
    fallback = (
        f"fewer than {MIN_PER_CLASS} calibration items in a human class: the hull with "
        f"{common['better']}'s adjusted-Wald interval"
        if b["fallback"] else None
    )  # fmt: skip
    ci = ConfidenceInterval(float(b["low"]), float(b["high"]), "min-variance", level)
    return JuryCorrection(
        estimate=float(b["estimate"]), ci=ci, method="min-variance",
        weights=dict(zip(names, b["weights"].tolist(), strict=True)), fallback=fallback,
        fit=None, variance=width_variance(ci) if fallback else float(b["se"]) ** 2, **common,
    )  # fmt: skip


@dataclass(frozen=True, slots=True, eq=False)
class JuryCorrection(Reportable):
    """The rate corrected from a jury of 0/1 judges (:func:`correct_jury`; per group of evaluate).

    Attributes
    ----------
    estimate : float
        θ̂: Σ_j w_j θ̃_j (``"min-variance"``, clipped to [0, 1]) or the J × K fit's.
    ci : ConfidenceInterval
        Interval for θ at ``confidence_level``.
    method : str
        ``"min-variance"`` or the J × K fit's method.
    judges : tuple of str
        The members, in the order of the letters' verdicts.
    weights : dict or None
        Each member's weight (sum 1; ``"min-variance"`` only): which judge carries the jury.
    better : str
        The member with the narrowest adjusted-Wald interval alone.
    fallback : str or None
        What the fallback fixed in advance did (a human class under 50 items), else None.
    member_estimate, member_ci : dict
        Each member alone: its eq. (8) centre and adjusted-Wald interval.
    calibrations : tuple of ConfusionCounts
        Each member's calibration table (:meth:`agreement` reads them).
    confidence_level, design, n, m0, m1
        As on :class:`~judgestats.Correction`.
    fit : AlphabetCorrection or None
        The J × K fit behind a profile or bootstrap method.
    calibration : ConfusionMatrix or None
        The product letters × human counts the jury was corrected from.
    items : int or None
        With repeated items: the items (clusters) the covariance was taken over; else None.
    t_df : float or None
        With repeated items: the degrees of freedom of the interval's Student's t (``inf``:
        no item repeats, the normal quantile); else None.
    estimand : str or None
        With repeated items: ``"rows"`` or ``"items"``, the mean the rate is over; else None.
    variance : float or None
        Var(θ̂) the interval rests on: ``"min-variance"``'s wᵀΣ̃w (over items with repeated
        items); under the fallback or a J × K fit the variance the interval's width implies
        (:func:`judgestats.results.width_variance`). ``effective_labels`` is made of it.

    Examples
    --------
    What :func:`judgestats.evaluate` gives a group judged by two 0/1 judges:

    >>> import numpy as np
    >>> import pandas as pd
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> human = rng.random(3000) < 0.6
    >>> a = np.where(human, rng.random(3000) < 0.9, rng.random(3000) < 0.2)
    >>> b = np.where(human, rng.random(3000) < 0.8, rng.random(3000) < 0.3)
    >>> frame = pd.DataFrame({"model": "m", "a": a.astype(int), "b": b.astype(int),
    ...                       "human": np.where(np.arange(3000) < 600, human, np.nan)})
    >>> res = js.evaluate(frame, judge=["a", "b"], confidence_level=0.95).corrections["m"]
    >>> res.method, res.better, res.fallback
    ('min-variance', 'a', None)
    >>> round(res.weights["a"], 2), round(res.agreement()["a"].sensitivity.estimate, 3)
    (0.67, 0.901)
    """

    kind: ClassVar[str] = "jury"
    estimate: float
    ci: ConfidenceInterval
    method: str
    judges: tuple
    weights: dict | None
    better: str
    fallback: str | None
    member_estimate: dict
    member_ci: dict
    calibrations: tuple
    confidence_level: float
    design: Any
    n: int
    m0: int
    m1: int
    fit: Any = None
    calibration: Any = None
    items: int | None = None
    t_df: float | None = None
    variance: float | None = None
    estimand: str | None = None

    sensitivity = None
    specificity = None
    clipped = False
    naive = float("nan")

    @property
    def estimator(self) -> str:
        """Name of the point estimate."""
        if self.fit is not None:
            return str(self.fit.estimator)
        return f"minimum-variance combination of {len(self.judges)} judges' Rogan–Gladen estimates"

    @property
    def estimate_unclipped(self) -> float:
        """The estimate (as ``estimate``)."""
        return self.estimate

    @property
    def effective_labels(self) -> float | None:
        """θ̂(1 − θ̂)/Var(θ̂): the human labels alone that would give the jury's precision.

        ``variance`` as the attribute says (with repeated items the figure counts independent
        items); None where θ̂ is 0 or 1.
        """
        var = width_variance(self.ci) if self.variance is None else self.variance
        return effective_labels(self.estimate, var)

    def agreement(self) -> dict:
        """Each member's agreement card (:func:`judgestats.agreement`): sensitivity, specificity.

        Returns
        -------
        dict
            Judge name → :class:`~judgestats.Agreement` at the result's level and design.
        """
        from ..agreement import agreement  # loaded on first use

        return {name: agreement(cal, design=self.design, confidence_level=self.confidence_level)
                for name, cal in zip(self.judges, self.calibrations, strict=True)}  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python row (JSON-serialisable), as :meth:`Correction.to_dict` for a rate."""
        row = {
            "estimate": self.estimate, "ci_low": self.ci.low, "ci_high": self.ci.high,
            "method": self.method, "estimator": self.estimator, "design": str(self.design),
            "confidence_level": self.confidence_level, "naive": self.naive, "n": self.n,
            "m0": self.m0, "m1": self.m1, "judges": ", ".join(self.judges),
            "better": self.better, "fallback": self.fallback, "clipped": False,
            "estimate_unclipped": self.estimate, "items": self.items, "t_df": self.t_df,
            "effective_labels": self.effective_labels,
        }  # fmt: skip
        if self.estimand is not None:  # repeated items: the mean over rows or over items
            row["estimand"] = self.estimand
        for name in self.judges:
            row[f"weight[{name}]"] = None if self.weights is None else self.weights[name]
        return row

    def summary(self) -> str:
        """Short text: the jury's rate and interval, the weights, each member alone."""
        lines = [f"Jury of {len(self.judges)} judges ({self.estimator}; {self.method}, "
                 f"{self.confidence_level:.0%}): {self.estimate:.4f} "
                 f"[{self.ci.low:.4f}, {self.ci.high:.4f}]"]  # fmt: skip
        for name in self.judges:
            ci = self.member_ci[name]
            weight = "" if self.weights is None else f"weight {self.weights[name]:.3f}, "
            lines.append(f"  {name}: {weight}alone {self.member_estimate[name]:.4f} "
                         f"[{ci.low:.4f}, {ci.high:.4f}] (adjusted-Wald)")  # fmt: skip
        if self.items is not None:
            lines.append(f"  repeated items: {self.items} items; covariance over items, "
                         f"critical value t({self.t_df:.0f})"
                         + ("; estimand: mean over items" if self.estimand == "items"
                            else ""))  # fmt: skip
        if self.fallback:
            lines.append(f"  fallback: {self.fallback}")
        from ..agreement.card import jury_lines  # each judge against the human label

        return "\n".join(lines + jury_lines(self.agreement()))

    def __repr__(self) -> str:
        return rate_repr(
            "JuryCorrection", estimate=self.estimate, ci=self.ci, method=self.method,
            judges=list(self.judges), better=self.better, confidence_level=self.confidence_level,
            design=self.design, n=self.n, m0=self.m0, m1=self.m1,
        )  # fmt: skip
