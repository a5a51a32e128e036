"""Does the judge help? Its distance from chance, and the humans-only interval beside.

A judge helps only if its verdicts carry information about the human label: Youden's
J = q0 + q1 − 1 = P(judge 1 | human 1) − P(judge 1 | human 0) must be above 0 (paper eq.
(7) divides by it). :func:`judge_value` says, for one data set:

* under ``design="by-human-label"`` (the paper's) and ``"random"``: Ĵ = q̂0 + q̂1 − 1 with the
  Agresti–Caffo interval for a difference of two independent proportions (add one success and
  one failure to each: J̃ = q̃0 + q̃1 − 1 ± z√(ṽ0 + ṽ1), q̃ = (k + 1)/(m + 2), ṽ = q̃(1 − q̃)/(m + 2),
  the adjusted rates of eq. (8)). Where that interval reaches 0 the calibration items cannot
  tell the judge from one that guesses: the judge is *too close to chance to help*, and every
  Rogan–Gladen interval rests on the assumption that it does better;
* under ``design="random"`` (the calibration items a simple random sample of the test items),
  the humans-only interval too: Wilson's interval for m1/m, the human rate of the labelled
  items, which needs no judge. The judge helps when it is not near chance and the corrected
  interval is shorter.
  Under the paper's design the human-label mix is fixed by design, so there is no humans-only
  estimate; under ``"by-judge-label"`` q̂0 and q̂1 are not estimable (the labelled items were
  drawn within judge labels), so neither part applies.

This is a statement about the data, not a coverage claim, so it is a flag and a sentence on the
result (``Correction.judge``), not a warning: on 250 random cells (issue 27 §2,
``benchmarks/results/warning_rules.md``, grid seed 2711, row "Fieller g > 1", which is the same
condition) the Youden interval reached 0 on 18.5% of data sets, and on more than 5% of them in
63 of the 209 cells where adjusted-Wald covered >= 0.945.

References
----------
Agresti, A. & Caffo, B. (2000). Simple and effective confidence intervals for proportions and
differences of proportions result from adding two successes and two failures. The American
Statistician 54, 280–288.
Youden, W. J. (1950). Index for rating diagnostic tests. Cancer 3, 32–35.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .counts import ConfusionCounts
from .designs import as_design
from .kernels import delta_parts, wilson_bounds, z_value
from .results import ConfidenceInterval

__all__ = ["JudgeValue", "judge_value", "youden_interval"]


@dataclass(frozen=True, slots=True)
class JudgeValue:
    """Whether the judge helps on one data set (:func:`judge_value`).

    Attributes
    ----------
    design : str
        The calibration design.
    confidence_level : float
        Level of both intervals.
    youden : float or None
        Ĵ = q̂0 + q̂1 − 1 (None under ``"by-judge-label"``).
    youden_ci : ConfidenceInterval or None
        Agresti–Caffo interval for J (method ``"agresti-caffo"``).
    humans_only : ConfidenceInterval or None
        Under ``"random"``: Wilson's interval for the labelled items' human rate m1/m.
    humans_only_estimate : float or None
        m1/m under ``"random"``.
    corrected_width : float
        Width of the corrected interval it is compared with.
    near_chance : bool
        True when the Youden interval reaches 0 (the data cannot tell the judge from guessing).
    helps : bool or None
        Under ``"by-human-label"``: False when ``near_chance`` (the estimator divides by J).
        Under ``"random"``: False also when the humans-only interval is no wider than the
        corrected one (the judge-conditional estimator needs no J > 0: a judge near chance does
        not distort it, it just does not shorten it). None under ``"by-judge-label"``.
    effective : bool
        True with repeated items: both intervals at the effective sizes.
    """

    design: str
    confidence_level: float
    youden: float | None
    youden_ci: ConfidenceInterval | None
    humans_only: ConfidenceInterval | None
    humans_only_estimate: float | None
    corrected_width: float
    near_chance: bool
    helps: bool | None
    effective: bool = False

    def sentence(self) -> str | None:
        """Return the plain statement for a summary or report when the judge does not help."""
        if self.helps is not False:
            return None
        lvl = f"{100 * self.confidence_level:g}%"
        youden = ""
        if self.youden_ci is not None:
            lo, hi = self.youden_ci
            youden = f"q̂0 + q̂1 − 1 = {self.youden:.3f}, {lvl} interval [{lo:.3f}, {hi:.3f}]"
        if self.humans_only is None:  # the paper's design: helps is False only near chance
            return (
                f"the judge is too close to chance to help: {youden} reaches 0, so these "
                "calibration items cannot tell its verdicts from guessing, and the corrected "
                "interval rests on its being better than chance"
            )
        lo, hi = self.humans_only
        why = (
            f"the judge is too close to chance to help ({youden} reaches 0)"
            if self.near_chance
            else "the judge does not shorten the interval"
        )
        return (
            f"{why}: the humans-only interval of the labelled items, "
            f"{self.humans_only_estimate:.4f} [{lo:.4f}, {hi:.4f}] (Wilson), is {hi - lo:.4f} "
            f"wide against {self.corrected_width:.4f} for the corrected one"
        )

    def lines(self) -> list[str]:
        """Summary lines: Youden's J and, under ``"random"``, the humans-only interval."""
        out = []
        sizes = " (effective sizes)" if self.effective else ""
        if self.youden_ci is not None:
            lo, hi = self.youden_ci
            out.append(f"  judge vs chance      q̂0 + q̂1 − 1 = {self.youden:.4f}  "
                       f"[{lo:.4f}, {hi:.4f}]{sizes}")  # fmt: skip
        if self.humans_only is not None:
            lo, hi = self.humans_only
            out.append(f"  humans only (Wilson) {self.humans_only_estimate:.4f}  "
                       f"[{lo:.4f}, {hi:.4f}]{sizes}")  # fmt: skip
        return out

    def record(self) -> dict[str, Any]:
        """Columns of the tidy row (None where a part does not apply)."""
        y, h = self.youden_ci, self.humans_only
        return {
            "judge_youden": self.youden,
            "judge_youden_low": None if y is None else y.low,
            "judge_youden_high": None if y is None else y.high,
            "judge_near_chance": self.near_chance,
            "judge_helps": self.helps,
            "humans_only": self.humans_only_estimate,
            "humans_only_low": None if h is None else h.low,
            "humans_only_high": None if h is None else h.high,
        }


def youden_interval(
    calibration: ConfusionCounts, confidence_level: Any, clusters: Any = None
) -> tuple[Any, Any, Any]:
    """(Ĵ, low, high): q̂0 + q̂1 − 1 and its Agresti–Caffo interval (batched counts allowed).

    The adjusted rates q̃ = (m q̂ + 1)/(m + 2) and ṽ = q̃(1 − q̃)/(m + 2) are eq. (8)'s
    (:func:`judgestats.kernels.delta_parts`; the test-set part is not used here). With
    repeated items (``clusters``, a :class:`~judgestats.repeated.ClusterSummary`) q̂0 and q̂1
    are the rates under its estimand and m0, m1 their effective sizes (rows over the design
    effect), as the clustered adjusted-Wald interval takes them (Dean & Pagano, 2015).
    """
    c = calibration
    z = z_value(confidence_level)
    if clusters is None:
        tn, tp, m0, m1 = (np.asarray(v, dtype=float) for v in (c.tn, c.tp, c.m0, c.m1))
        q0, q1 = tn / m0, tp / m1
    else:
        q0, q1 = clusters.values["q0"], clusters.values["q1"]
        m0, m1 = clusters.sizes["q0"], clusters.sizes["q1"]
    a = delta_parts(0.5, q0, q1, np.inf, m0, m1, z)
    half = z * np.sqrt(a["v0"] + a["v1"])
    centre = a["q0"] + a["q1"] - 1.0
    return q0 + q1 - 1.0, np.maximum(centre - half, -1.0), np.minimum(centre + half, 1.0)


def judge_value(
    calibration: ConfusionCounts,
    ci: ConfidenceInterval,
    *,
    design: str,
    confidence_level: float,
    clusters: Any = None,
) -> JudgeValue:
    """Whether the judge helps: Youden's J against 0 and, under ``"random"``, humans only.

    Parameters
    ----------
    calibration : ConfusionCounts
        One data set's calibration counts (one row per item).
    ci : ConfidenceInterval
        The corrected interval (its width is compared with the humans-only one).
    design : str
        The calibration design (:mod:`judgestats.designs`).
    confidence_level : float
        Level of the Youden and humans-only intervals (the corrected interval's).
    clusters : ClusterSummary, optional
        With repeated items (:mod:`judgestats.repeated`): both intervals at the effective
        sizes (rows over the design effect), with the rates under the estimand.

    Returns
    -------
    JudgeValue
    """
    youden = youden_ci = humans = None
    share: float | None = None
    near = False
    c = calibration
    design = as_design(design)
    if design.youden_estimable and c.m0 and c.m1:
        j, lo, hi = (float(v) for v in youden_interval(c, confidence_level, clusters))
        youden = j
        youden_ci = ConfidenceInterval(lo, hi, "agresti-caffo", confidence_level)
        near = lo <= 0.0
    if design.calibration_samples_test:
        m, share = c.m0 + c.m1, c.m1 / (c.m0 + c.m1)
        if clusters is not None:  # the items' human rate, at its effective size
            m, share = clusters.sizes["calibration_human"], clusters.values["calibration_human"]
        lo, hi = (float(v) for v in wilson_bounds(share * m, m, z_value(confidence_level)))
        humans = ConfidenceInterval(lo, hi, "wilson", confidence_level)
    width = ci.high - ci.low
    if humans is not None:  # "random": the judge helps when it is not near chance and shortens
        helps: bool | None = not near and width < humans.high - humans.low
    elif design.youden_estimable:  # the paper's design: the estimator divides by J
        helps = youden_ci is not None and not near
    else:
        helps = None
    return JudgeValue(
        design=design, confidence_level=confidence_level, youden=youden, youden_ci=youden_ci,
        humans_only=humans, humans_only_estimate=share, corrected_width=width, near_chance=near,
        helps=helps, effective=clusters is not None,
    )  # fmt: skip
