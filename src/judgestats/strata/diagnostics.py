"""Whether the judge behaves alike in every stratum, and the diagnostics of a stratified result.

:func:`judge_homogeneity` tests equal error rates across strata (likelihood ratio, χ²);
:class:`StrataDiagnostics` gathers it with the label-shift check of each stratum.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import kernels
from .._validation import (
    NotInformativeError,
    check_strata_mapping,
)
from ..correct import Correction
from ..counts import ConfusionCounts, JudgedCounts
from ..kernels import z_value
from ..results import (
    ConfidenceInterval,
)

if TYPE_CHECKING:  # pragma: no cover
    pass
from .corrections import _corrections
from .merge import _apply_merge

__all__ = [
    "judge_homogeneity",
]


# ============================================================================ diagnostics
def _chi2_sf(statistic: float, df: int) -> float:
    from scipy.special import chdtrc  # lazy: keeps `import judgestats` light

    return float(chdtrc(df, statistic)) if df > 0 else math.nan


def judge_homogeneity(
    calibrations: Any,
) -> tuple[HomogeneityTest, HomogeneityTest, HomogeneityTest]:
    """Test whether the judge's specificity and sensitivity are equal across strata.

    Likelihood-ratio (G) tests on the calibration counts: for human class 0, the S × 2 table
    (stratum × judge right/wrong) of tn_s, fp_s; for class 1 that of tp_s, fn_s. Under equal
    rates G = 2 Σ O log(O/E) is approximately χ² with S − 1 df; the joint test adds both
    (2(S − 1) df).

    Parameters
    ----------
    calibrations : mapping stratum → ConfusionCounts
        Calibration counts per stratum.

    Returns
    -------
    (specificity, sensitivity, both) : tuple of HomogeneityTest
        A small p-value says the judge's error rates differ by stratum, so a single confusion
        matrix is wrong wherever the calibration mix differs from the test mix.
    """
    cals = check_strata_mapping("calibrations", calibrations, ConfusionCounts)
    c = list(cals.values())
    df = len(c) - 1
    g0 = kernels.g_statistic([[x.tn for x in c], [x.fp for x in c]])
    g1 = kernels.g_statistic([[x.tp for x in c], [x.fn for x in c]])
    return (
        HomogeneityTest("specificity", g0, df, _chi2_sf(g0, df)),
        HomogeneityTest("sensitivity", g1, df, _chi2_sf(g1, df)),
        HomogeneityTest("both", g0 + g1, 2 * df, _chi2_sf(g0 + g1, 2 * df)),
    )


def _diagnostics(tests, cals, strata, *, spec, gen) -> StrataDiagnostics:
    """Return the diagnostics of strata without repeated items (``spec``: the pooled spec)."""
    level = spec.confidence_level
    z = float(z_value(level))
    t0, t1, tj = judge_homogeneity({s: cals[s] for s in strata})
    cis = {}
    for name, k_f, m_f in (("specificity", "tn", "m0"), ("sensitivity", "tp", "m1")):
        lo, hi = kernels.wilson_bounds(
            [getattr(cals[s], k_f) for s in strata], [getattr(cals[s], m_f) for s in strata], z
        )
        cis[name] = {
            s: ConfidenceInterval(float(lo[i]), float(hi[i]), "wilson", level)
            for i, s in enumerate(strata)
        }
    all_tests = _apply_merge(dict.fromkeys(strata, 0), tests, JudgedCounts)
    all_cals = _apply_merge(dict.fromkeys(strata, 0), cals, ConfusionCounts)
    try:
        unstratified = _corrections(all_tests, all_cals, [0], spec=spec, gen=gen,
                                    warn_stacklevel=None)[0]  # fmt: skip
    except NotInformativeError:
        unstratified = None
    n, m = all_tests[0].n, all_cals[0].m
    return StrataDiagnostics(
        specificity_ci=cis["specificity"], sensitivity_ci=cis["sensitivity"],
        specificity_test=t0, sensitivity_test=t1, joint_test=tj, unstratified=unstratified,
        test_mix={s: tests[s].n / n for s in strata},
        calibration_mix={s: cals[s].m / m for s in strata},
    )  # fmt: skip


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True)
class HomogeneityTest:
    """Likelihood-ratio (G) test that one of the judge's error rates is equal in every stratum.

    For human class y (0: specificity q0, 1: sensitivity q1) the calibration items of that
    class form an S × 2 table (stratum × judge right/wrong). With O the observed and E the
    expected counts under one common rate, G = 2 Σ O log(O / E) is referred to χ² with S − 1
    degrees of freedom. ``rate="both"`` adds the two classes' statistics (2(S − 1) df; the
    classes hold disjoint items, so the two statistics are independent). The χ² reference is
    asymptotic: with few calibration items per stratum the p-value is rough.

    Attributes
    ----------
    rate : {"specificity", "sensitivity", "both"}
        Which rate is tested.
    statistic : float
        G (0 when every stratum has the same observed rate).
    df : int
        Degrees of freedom (0 with a single stratum, where ``pvalue`` is NaN).
    pvalue : float
        P(χ²_df >= G).
    """

    rate: str
    statistic: float
    df: int
    pvalue: float

    def __repr__(self) -> str:
        return (
            f"HomogeneityTest(rate={self.rate!r}, G={self.statistic:.4g}, df={self.df}, "
            f"pvalue={self.pvalue:.4g})"
        )


@dataclass(frozen=True, slots=True, eq=False)
class StrataDiagnostics:
    """Does stratifying matter? Per-stratum judge behaviour, tests and the unstratified answer.

    Attributes
    ----------
    specificity_ci, sensitivity_ci : dict of ConfidenceInterval
        Per stratum, Wilson score interval for q0 = P(judge 0 | human 0) and
        q1 = P(judge 1 | human 1) at the result's confidence level.
    specificity_test, sensitivity_test, joint_test : HomogeneityTest
        Likelihood-ratio tests of equal q0, equal q1, and both, across strata.
    unstratified : Correction or None
        One Rogan–Gladen correction with all strata pooled (one confusion matrix); None when
        the pooled judge is no better than chance. It is biased when the judge's error rates
        differ across strata *and* the calibration set's stratum mix within a human class
        differs from the test set's.
    test_mix, calibration_mix : dict
        Share of test items (n_s / n) and of calibration items (m_s / m) per stratum.
    """

    specificity_ci: dict
    sensitivity_ci: dict
    specificity_test: HomogeneityTest
    sensitivity_test: HomogeneityTest
    joint_test: HomogeneityTest
    unstratified: Correction | None
    test_mix: dict
    calibration_mix: dict
