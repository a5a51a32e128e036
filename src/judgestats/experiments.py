"""Resampling studies on real labelled data: the paper's random test/calibration split experiment.

On a frame where every item has both a human and a judge label (e.g.
:func:`judgestats.datasets.load_chatbot_arena`), :func:`split_study` repeats, for each target
model, a random split of its rows into a calibration part (human + judge labels used) and a
test part (judge labels only), and measures what a user of the method would have reported
against the truth the data hold: the human rate of the target's rows.

The truth is the paper's: θ = the human rate on **all** rows of the target ("full-data human
rate"). The test part's own human rate is kept too (``theta_test``); coverage is reported
against both.

Everything is vectorised over splits: the counts of all splits and targets form one batch of
shape (splits, targets), and every interval method is called once on it through the registry
(:func:`judgestats.intervals.spec_bounds`, one resolved spec per method).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ._validation import (
    ArgumentTypeError,
    JudgeStatsError,
    ModelKeyError,
    check_choice,
    check_columns,
    check_confidence_level,
    check_labels,
    check_open_unit,
    check_positive_int,
    check_rng,
    pop_renamed,
)
from .counts import ConfusionCounts, JudgedCounts
from .designs import DEFAULT_DESIGN, Design, as_design
from .intervals import NAIVE, naive_bounds, spec_bounds
from .progress import progress as progress_bar
from .simulate import study_specs

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    import xarray as xr

__all__ = ["NAIVE", "SplitStudy", "split_study"]


#: Order of the last axis of :attr:`SplitStudy.counts`.
COUNT_FIELDS = ("positive", "n", "tp", "fn", "tn", "fp")


def _split_counts(
    human: np.ndarray, judge: np.ndarray, m: int, splits: int, gen: np.random.Generator
) -> np.ndarray:
    """Return the counts of ``splits`` random calibration subsets of size ``m``: shape (splits, 7).

    Columns: test positive, test n, tp, fn, tn, fp (calibration), test human positives.
    """
    n_rows = human.size
    code = 2 * human.astype(np.int64) + judge.astype(np.int64)  # 3 tp, 2 fn, 1 fp, 0 tn
    keys = gen.random((splits, n_rows))
    cal = np.argpartition(keys, m - 1, axis=1)[:, :m]  # a uniform random m-subset per split
    cal_codes = code[cal]
    tp, fn, fp, tn = ((cal_codes == c).sum(axis=1) for c in (3, 2, 1, 0))
    positive = int(judge.sum()) - (tp + fp)
    human_test = int(human.sum()) - (tp + fn)
    n = np.full(splits, n_rows - m)
    return np.stack([positive, n, tp, fn, tn, fp, human_test], axis=1)


def _resolve_targets(tgt: np.ndarray, targets: Any, target_column: str) -> tuple[str, ...]:
    available = sorted(set(tgt.tolist()))
    if targets is None:
        return tuple(available)
    targets = (targets,) if isinstance(targets, str) else tuple(str(t) for t in targets)
    missing = [t for t in targets if t not in available]
    if missing or not targets:
        raise ModelKeyError(
            f"targets {missing!r} are not in column {target_column!r}; available: {available}"
        )
    return targets


def _all_splits(human, judge, tgt, targets, frac, splits, gen):
    """Count every split of every target: (S, T, 7) counts, targets' sizes and truths."""
    per_target, rows, sizes, theta_full = [], [], [], []
    for t in targets:
        idx = np.flatnonzero(tgt == t)
        m = round(frac * idx.size)
        if m < 2 or m > idx.size - 1:
            raise JudgeStatsError(
                f"calibration_fraction {frac!r} gives target {t!r} ({idx.size} rows) a "
                f"calibration set of {m} items; at least 2 calibration items and 1 test item "
                "are needed"
            )
        per_target.append(_split_counts(human[idx], judge[idx], m, splits, gen))
        rows.append(idx.size)
        sizes.append(m)
        theta_full.append(float(human[idx].mean()))
    return np.stack(per_target, axis=1), rows, sizes, theta_full


def _estimates(counts: np.ndarray, design: Design) -> tuple:
    """Return the counts objects, both-classes and informative masks, and θ̂ of every split.

    The design's estimator (:meth:`judgestats.designs.Design.point`): under
    ``"by-human-label"`` Rogan–Gladen (paper eq. (7)), defined where both human classes are in
    the calibration part (:attr:`~judgestats.designs.Design.needs_both_classes`) and
    q̂0 + q̂1 > 1 (:attr:`~judgestats.designs.Design.divides_by_youden`); under ``"random"``
    the judge-conditional estimate, defined unless a judge class that π̂ weighs has no
    calibration item (an inexact estimate).
    """
    positive, n, tp, fn, tn, fp = (counts[..., i] for i in range(6))
    test = JudgedCounts(positive=positive, n=n)
    both = (tp + fn > 0) & (tn + fp > 0)
    if not design.needs_both_classes:
        both = np.ones(np.shape(tp), dtype=bool)
    # placeholder counts where a calibration class is empty (masked as undefined below)
    cal = ConfusionCounts(tp=np.where(both, tp, 1), fn=np.where(both, fn, 0),
                          tn=np.where(both, tn, 1), fp=np.where(both, fp, 0))  # fmt: skip
    raw, inexact = design.point(test, cal)
    informative = both & ~inexact
    if design.divides_by_youden:
        with np.errstate(divide="ignore", invalid="ignore"):
            informative &= tn / (tn + fp) + tp / (tp + fn) > 1.0
    return test, cal, both, informative, np.where(informative, np.clip(raw, 0.0, 1.0), np.nan)


def _intervals(specs, test, cal, both, corrected, *, level, gen, show=None):
    """(low, high, point) arrays (M, S, T) of every method and whether each has its own point."""
    shape = (len(specs), *np.shape(corrected))
    low, high, point = np.full(shape, np.nan), np.full(shape, np.nan), np.full(shape, np.nan)
    own_point = []
    for i, spec in progress_bar(enumerate(specs), total=len(specs), desc="methods",
                                enabled=show):  # fmt: skip
        if spec is None:  # the naive p̂ with its Wilson interval
            b = naive_bounds(test, level)
            low[i], high[i], point[i] = b.low, b.high, b.estimate
            own_point.append(True)
            continue
        b = spec_bounds(spec, test, cal, gen)
        low[i] = np.where(both, b.low, np.nan)
        high[i] = np.where(both, b.high, np.nan)
        own_point.append(b.estimate is not None)
        point[i] = corrected if b.estimate is None else np.where(both, b.estimate, np.nan)
    return low, high, point, tuple(own_point)


def split_study(
    frame: Any,
    *,
    by: str = "target_model",
    human: str = "human",
    judge: str = "judge",
    calibration_fraction: float = 0.1,
    splits: int = 100,
    methods: Any = None,
    confidence_level: float = 0.95,
    targets: Any = None,
    method_options: dict[str, dict[str, Any]] | None = None,
    label: str = "",
    rng: Any = None,
    progress: bool | None = None,
    design: str = DEFAULT_DESIGN,
    **renamed: Any,
) -> SplitStudy:
    """Repeat random test/calibration splits per target model (the paper's real-data study).

    For each target model and each of ``splits`` repetitions, a random
    ``round(calibration_fraction · rows)`` of the target's rows become its calibration set
    (human and judge labels) and the rest its test set (judge labels only). On every split the
    naive rate p̂, the clipped Rogan–Gladen estimate θ̂ (paper eq. (7)) and every
    requested interval method are computed; the result compares them with the full-data human
    rate and summarises bias, coverage, interval length, undefined splits and ranking recovery.

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per (target model, item) with 0/1 human and judge labels.
    by, human, judge : str
        Column names: the target (model) column and the two label columns (defaults: the
        bundled loaders' ``target_model``, ``human``, ``judge``); ``target_column``,
        ``human_column`` and ``judge_column`` are their deprecated names.
    calibration_fraction : float, default 0.1
        Share of each target's rows used for calibration, in (0, 1).
    splits : int, default 100
        Number of random splits (the same split index is used for all targets when ranking).
    methods : sequence of str, optional
        Interval methods: registered names (:func:`judgestats.interval_methods`) and/or
        ``"naive-wilson"`` (p̂ with a Wilson interval, for contrast). Default: every registered
        method plus ``"naive-wilson"``.
    confidence_level : float, default 0.95
        Two-sided level of every interval; stored on the result.
    targets : sequence of str, optional
        Target models to include (default: every value of ``by``, sorted).
    method_options : dict, optional
        Per-method options, e.g. ``{"bootstrap": {"n_resamples": 2000}}``.
    label : str, optional
        Free text naming the data (shown by ``summary()``).
    rng : None, int, SeedSequence or Generator
        Source of randomness; a seed reproduces the study exactly.
    progress : bool or None, default None
        Show a progress bar over the methods (None: when interactive and the study takes
        more than two seconds; see :mod:`judgestats.progress`).
    design : {"by-human-label", "random"}, default "by-human-label"
        What the estimates assume of the calibration part. The paper's study
        (``"by-human-label"``: Rogan–Gladen, valid whatever the label mix) or ``"random"``,
        which these splits are (a random share of the target's rows): the judge-conditional
        estimator θ̂ = π̂·PPV̂ + (1 − π̂)·FOR̂ and its intervals (:mod:`judgestats.designs`), which
        need neither both human classes nor q̂0 + q̂1 > 1. ``"by-judge-label"`` does not
        describe a random split and is refused.
    **renamed
        Deprecated keyword names (``target_column``, ``human_column``, ``judge_column``),
        accepted with a DeprecationWarning.

    Returns
    -------
    SplitStudy
        Per-split arrays (shape (splits, targets) or (methods, splits, targets)) and tables:
        ``bias_table()``, ``coverage_table()``, ``ranking_table()``, ``to_dataframe()``,
        ``to_xarray()``, ``summary()``.

    Raises
    ------
    ArgumentTypeError, LabelError
        If ``frame`` lacks a column or a label column is not 0/1.
    ModelKeyError
        If a requested target is not in the frame.
    MethodError
        On an unknown method.
    ProbabilityError, JudgeStatsError
        If ``calibration_fraction`` is not in (0, 1), or leaves a target with fewer than 2
        calibration items or no test item.

    Notes
    -----
    A split is **undefined** for the Rogan–Gladen estimate when its calibration part lacks one
    human class or has q̂0 + q̂1 <= 1 (the judge looks no better than chance there); such splits
    are counted (``informative`` is False) and excluded from the corrected estimate's bias and
    from the rankings by θ̂ — never silently. Interval methods report NaN bounds where they are
    undefined (counted per method); likelihood-based methods answer whenever both human classes
    are present.
    """
    new = pop_renamed(
        renamed,
        {"target_column": "by", "human_column": "human", "judge_column": "judge"},
        "split_study",
    )
    by, human, judge = new.get("by", by), new.get("human", human), new.get("judge", judge)
    check_columns(frame, {"by": by, "human": human, "judge": judge})
    human_labels = check_labels(f"human column {human!r}", frame[human])
    judge_labels = check_labels(f"judge column {judge!r}", frame[judge])
    tgt = np.asarray(frame[by]).astype(str)
    targets = _resolve_targets(tgt, targets, by)
    frac = check_open_unit("calibration_fraction", calibration_fraction)
    splits = check_positive_int("splits", splits)
    level = check_confidence_level(confidence_level)
    if np.ndim(level):
        raise ArgumentTypeError(
            f"confidence_level must be a scalar here, got an array of shape {np.shape(level)}"
        )
    level = float(level)
    design = as_design(design)
    if not design.emulated_by_random_split:
        raise JudgeStatsError(
            "split_study draws each calibration part as a random share of the target's rows; "
            f"design={str(design)!r} does not describe it (use 'random' or the default)"
        )
    where = "" if design.is_default else f" with design={str(design)!r}"
    methods, specs = study_specs(methods, design=design, confidence_level=level,
                                 method_options=method_options,
                                 capability=f"split studies{where}")  # fmt: skip
    gen = check_rng(rng)
    c, rows, sizes, theta_full = _all_splits(
        human_labels, judge_labels, tgt, targets, frac, splits, gen
    )
    counts = c[..., :6]
    test, cal, both, informative, corrected = _estimates(counts, design)
    naive, theta_test = counts[..., 0] / counts[..., 1], c[..., 6] / counts[..., 1]

    low, high, point, own_point = _intervals(specs, test, cal, both, corrected, level=level,
                                             gen=gen, show=progress)  # fmt: skip
    return SplitStudy(
        label=label, targets=tuple(targets), methods=tuple(methods), calibration_fraction=frac,
        confidence_level=level, splits=splits, rows=np.asarray(rows),
        calibration_size=np.asarray(sizes), theta_full=np.asarray(theta_full),
        theta_test=theta_test, naive=naive, corrected=corrected, informative=informative,
        low=low, high=high, point=point, own_point=own_point, counts=counts, design=design,
    )  # fmt: skip


# ============================================================================ tables
# (SplitStudy in results.py delegates here)
def defined(study: SplitStudy) -> np.ndarray:
    """Boolean (M, S, T): the method gave an interval on that split."""
    return ~(np.isnan(study.low) | np.isnan(study.high))


def covered(study: SplitStudy, reference: str = "full") -> np.ndarray:
    """Boolean (M, S, T): the interval contains the truth (undefined intervals count False).

    ``reference="full"``: the full-data human rate of the target (the paper's truth);
    ``"test"``: the human rate of that split's test part.
    """
    check_choice("reference", reference, ("full", "test"))
    truth = study.theta_full[None, None, :] if reference == "full" else study.theta_test[None]
    with np.errstate(invalid="ignore"):
        return (study.low <= truth) & (truth <= study.high)


def ranking_estimates(study: SplitStudy) -> dict[str, np.ndarray]:
    """Estimator name → (S, T) estimates that rank the targets in each split.

    The naive p̂, the clipped Rogan–Gladen θ̂, and each method's own point estimate where it
    has one (e.g. a posterior mean), which exists on splits where θ̂ does not.
    """
    out = {"naive p̂": study.naive, "corrected θ̂": study.corrected}
    for i, m in enumerate(study.methods):
        if study.own_point[i] and m != NAIVE:
            out[f"{m} point"] = study.point[i]
    return out


def exact_recovery(truth: Any, estimates: Any) -> np.ndarray:
    """Return, per row, whether every strictly ordered pair of ``truth`` is ordered the same.

    Pairs tied in ``truth`` may come in either order; a tie in the estimate for a strictly
    ordered pair counts as a miss. Rows with NaN give False.
    """
    t = np.asarray(truth, dtype=float)
    e = np.asarray(estimates, dtype=float)
    iu = np.triu_indices(t.shape[-1], k=1)
    st = np.sign(t[iu[0]] - t[iu[1]])
    strict = st != 0
    se = np.sign(e[..., iu[0]] - e[..., iu[1]])
    return np.all(se[..., strict] == st[strict], axis=-1)


def bias_table(study: SplitStudy):
    """Per target: mean bias and RMSE of p̂ and θ̂ against the full-data human rate.

    θ̂ statistics are over the informative splits only; ``not_informative`` counts the others
    (calibration part lacking a human class, or q̂0 + q̂1 <= 1).
    """
    import pandas as pd

    rows = []
    for t, name in enumerate(study.targets):
        ok = study.informative[:, t]
        c = study.corrected[ok, t] - study.theta_full[t]
        nv = study.naive[:, t] - study.theta_full[t]
        rows.append(
            {
                "target": name,
                "rows": int(study.rows[t]),
                "m": int(study.calibration_size[t]),
                "theta_full": float(study.theta_full[t]),
                "naive_bias": float(nv.mean()),
                "corrected_bias": float(c.mean()) if c.size else float("nan"),
                "naive_rmse": float(np.sqrt(np.mean(nv**2))),
                "corrected_rmse": float(np.sqrt(np.mean(c**2))) if c.size else float("nan"),
                "not_informative": int((~ok).sum()),
                "splits": study.splits,
            }
        )
    return pd.DataFrame(rows)


def coverage_table(study: SplitStudy):
    """Per (target, method): coverage against the full-data and the test-part human rate.

    Coverage and mean length are over the splits where the method gave an interval;
    ``undefined`` counts the others.
    """
    import pandas as pd

    ok = defined(study)
    cf, ct = covered(study, "full"), covered(study, "test")
    length = study.high - study.low
    rows = []
    for t, name in enumerate(study.targets):
        for i, m in enumerate(study.methods):
            d = ok[i, :, t]
            k = int(d.sum())
            nan = float("nan")
            rows.append(
                {
                    "target": name,
                    "method": m,
                    "coverage_full": float(cf[i, d, t].mean()) if k else nan,
                    "coverage_test": float(ct[i, d, t].mean()) if k else nan,
                    "mean_length": float(np.mean(length[i, d, t])) if k else nan,
                    "undefined": study.splits - k,
                    "confidence_level": study.confidence_level,
                }
            )
    return pd.DataFrame(rows)


def ranking_table(study: SplitStudy):
    """Ranking recovery against the human ranking (by ``theta_full``), per estimator.

    ``kendall_tau`` (τ-b) and ``exact_recovery`` (see :func:`exact_recovery`) are averaged over
    the splits where the estimator is defined for every target; ``undefined_splits`` counts the
    others.
    """
    import pandas as pd

    from .compare import kendall_tau

    rows = []
    for name, est in ranking_estimates(study).items():
        ok = ~np.isnan(est).any(axis=1)
        nan = float("nan")
        rows.append(
            {
                "estimator": name,
                "kendall_tau": float(np.mean(kendall_tau(study.theta_full, est[ok])))
                if ok.any()
                else nan,
                "exact_recovery": float(np.mean(exact_recovery(study.theta_full, est[ok])))
                if ok.any()
                else nan,
                "undefined_splits": int((~ok).sum()),
                "splits": study.splits,
            }
        )
    return pd.DataFrame(rows)


def study_to_xarray(study: SplitStudy):
    """Every per-split array of a :class:`SplitStudy` as an xarray Dataset.

    Variables ``ci`` (dims method, split, target, ``ci_bound = ["lower", "upper"]``), ``point``
    (method, split, target), ``naive``, ``corrected``, ``informative``, ``theta_test`` (split,
    target), ``theta_full``, ``calibration_size`` (target) and ``counts`` (split, target,
    ``count`` = positive, n, tp, fn, tn, fp); attrs ``ci_prob``, ``calibration_fraction``,
    ``splits``, ``label``.
    """
    import xarray as xr

    dims3 = ("method", "split", "target")
    return xr.Dataset(
        {
            "ci": ((*dims3, "ci_bound"), np.stack([study.low, study.high], axis=-1)),
            "point": (dims3, study.point),
            "naive": (("split", "target"), study.naive),
            "corrected": (("split", "target"), study.corrected),
            "informative": (("split", "target"), study.informative),
            "theta_test": (("split", "target"), study.theta_test),
            "theta_full": ("target", study.theta_full),
            "calibration_size": ("target", study.calibration_size),
            "counts": (("split", "target", "count"), study.counts),
        },
        coords={
            "method": list(study.methods),
            "split": np.arange(study.splits),
            "target": list(study.targets),
            "ci_bound": ["lower", "upper"],
            "count": list(COUNT_FIELDS),
        },
        attrs={
            "ci_kind": ",".join(study.methods),
            "ci_prob": study.confidence_level,
            "calibration_fraction": study.calibration_fraction,
            "splits": study.splits,
            "label": study.label,
            "design": study.design,
        },
    )


def study_summary(study: SplitStudy) -> str:
    """Short text report of a :class:`SplitStudy`."""
    b = bias_table(study)
    cov = coverage_table(study)
    r = ranking_table(study)
    cells = study.splits * len(study.targets)
    lines = [
        f"{study.label or 'split study'}: {len(study.targets)} targets, {study.splits} random "
        f"splits, {100 * study.calibration_fraction:g}% calibration, "
        f"{100 * study.confidence_level:g}% intervals, design {study.design!r} (θ̂ "
        f"{as_design(study.design).estimator}; truth: full-data human rate)",
        f"  mean |bias|  naive {b.naive_bias.abs().mean():.4f}   corrected "
        f"{b.corrected_bias.abs().mean():.4f}   (θ̂ undefined on "
        f"{int(b.not_informative.sum())} of {cells} target-splits)",
    ]
    for m in study.methods:
        s = cov[cov.method == m]
        lines.append(
            f"  {m:<20} coverage {s.coverage_full.min():.2f}–{s.coverage_full.max():.2f}  "
            f"mean length {s.mean_length.mean():.3f}  undefined {int(s.undefined.sum())}"
        )
    for row in r.itertuples():
        lines.append(
            f"  ranking by {row.estimator:<24} Kendall τ {row.kendall_tau:.3f}  exact "
            f"{100 * row.exact_recovery:.0f}%  (undefined splits {row.undefined_splits})"
        )
    return "\n".join(lines)


# ----------------------------------------------------------------------------- result
@dataclass(frozen=True, slots=True, eq=False)
class SplitStudy:
    """Repeated random test/calibration splits of real labelled data, per target model.

    Returned by :func:`judgestats.experiments.split_study`: a frozen record of every split's
    numbers (so any further summary can be computed) with table methods. The tables are pandas
    DataFrames and ``to_xarray()`` gives every per-split array; pandas and xarray are imported
    only by those methods.

    Attributes
    ----------
    label : str
        Free text naming the data.
    targets, methods : tuple of str
        Target models (axis ``target``) and interval methods (axis ``method``).
    calibration_fraction, confidence_level : float
        Share of each target's rows used for calibration; interval level.
    splits : int
        Number of random splits (axis ``split``).
    rows, calibration_size : ndarray, shape (T,)
        Rows per target and the calibration size m per target.
    theta_full : ndarray, shape (T,)
        Human rate on all rows of the target (the truth in the paper's study).
    theta_test : ndarray, shape (S, T)
        Human rate on the test part of each split.
    naive, corrected : ndarray, shape (S, T)
        p̂ on the test part, and the clipped Rogan–Gladen θ̂ (NaN where undefined).
    informative : ndarray of bool, shape (S, T)
        Both human classes in the calibration part and q̂0 + q̂1 > 1 (θ̂ defined).
    low, high, point : ndarray, shape (M, S, T)
        Each method's interval (NaN where undefined) and point estimate (θ̂, or the method's
        own, such as a posterior mean; p̂ for ``"naive-wilson"``).
    own_point : tuple of bool
        Per method: True when ``point`` is the method's own estimate rather than θ̂.
    counts : ndarray of int, shape (S, T, 6)
        Test positive, test n, tp, fn, tn, fp of every split.
    design : str
        What the estimates assumed of the calibration part: ``"by-human-label"`` (θ̂ is
        Rogan–Gladen) or ``"random"`` (θ̂ is the judge-conditional estimate).
    """

    kind: ClassVar[str] = "split-study"

    label: str
    targets: tuple
    methods: tuple
    calibration_fraction: float
    confidence_level: float
    splits: int
    rows: Any
    calibration_size: Any
    theta_full: Any
    theta_test: Any
    naive: Any
    corrected: Any
    informative: Any
    low: Any
    high: Any
    point: Any
    own_point: tuple
    counts: Any
    design: str = DEFAULT_DESIGN

    def bias_table(self) -> pd.DataFrame:
        """Per target: mean bias and RMSE of p̂ and θ̂ against the full-data human rate."""
        return bias_table(self)

    def coverage_table(self) -> pd.DataFrame:
        """Per (target, method): coverage (full-data and test-part truth), length, undefined."""
        return coverage_table(self)

    def ranking_table(self) -> pd.DataFrame:
        """Ranking recovery (Kendall τ, exact recovery) against the human ranking."""
        return ranking_table(self)

    def to_dataframe(self) -> pd.DataFrame:
        """Tidy table, one row per (target, method): coverage table joined with the bias table."""
        return self.coverage_table().merge(self.bias_table(), on="target", how="left")

    def to_xarray(self) -> xr.Dataset:
        """Every per-split array as an xarray Dataset (dims method, split, target, ci_bound)."""
        return study_to_xarray(self)

    def summary(self) -> str:
        """Return a short text report: bias, coverage per method, ranking recovery."""
        return study_summary(self)

    def __repr__(self) -> str:
        return (
            f"SplitStudy({self.label or 'data'}: targets={len(self.targets)}, "
            f"splits={self.splits}, calibration_fraction={self.calibration_fraction:g}, "
            f"methods={list(self.methods)}, design={self.design!r})"
        )

