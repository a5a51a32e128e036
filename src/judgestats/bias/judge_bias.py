"""``judge_bias()`` and ``position_bias()``: whether the judge prefers long, or first, answers.

Both compare the judge's verdict with the human label (:mod:`judgestats.bias.effects` for the
effect, its interval and its test). :func:`judge_bias` takes rows with a covariate each (an
answer's length, the position it was shown in, both orders of a pair); :func:`position_bias`
takes pairwise verdicts shown in one order only (the judge's pick of the first or second answer
beside the humans'), where position bias is the asymmetry P(judge picks first | humans say
first) − P(judge picks second | humans say second).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import ArgumentTypeError, LabelError, check_confidence_level
from .._validation.labels import check_covariates, is_missing
from ..kernels import z_value
from ..results import ConfidenceInterval, Tabular
from .effects import Effect, standardised_difference

__all__ = ["BiasTest", "JudgeBias", "judge_bias", "position_bias"]


# ----------------------------------------------------------------------------- inputs
def _binary(name: str, values: Any, size: int | None, *, missing_ok: bool) -> np.ndarray:
    """0/1 floats (NaN where missing, when allowed), refusing anything else by name."""
    raw = np.asarray(values.to_numpy() if hasattr(values, "to_numpy") else values)
    if raw.ndim != 1 or (size is not None and raw.size != size):
        raise ArgumentTypeError(f"{name} must be 1-D with one value per row, got shape "
                                f"{raw.shape}")  # fmt: skip
    if raw.dtype.kind in "biuf":
        out = raw.astype(float)
    else:
        out = np.array([np.nan if is_missing(v) else v if isinstance(v, bool | int | float)
                        and not isinstance(v, str) else -1.0 for v in raw.tolist()],
                       dtype=float)  # fmt: skip
    missing = np.isnan(out)
    if missing.any() and not missing_ok:
        raise LabelError(f"{name} is missing at index {int(np.flatnonzero(missing)[0])}: "
                         "needed on every row")  # fmt: skip
    bad = np.flatnonzero(~missing & (out != 0) & (out != 1))
    if bad.size:
        raise LabelError(f"{name} must be 0/1 or booleans, got {raw[bad[0]]!r} at index "
                         f"{bad[0]}")  # fmt: skip
    return out


def _two_levels(name: str, col: np.ndarray, threshold: Any) -> tuple[np.ndarray, str]:
    """Code a covariate as 0/1 and say what 1 means."""
    values = np.unique(col)
    if threshold is not None or (col.dtype.kind in "iuf" and values.size > 2):
        if col.dtype.kind not in "iuf":
            raise ArgumentTypeError(f"thresholds[{name!r}]: covariate {name!r} is not numeric")
        cut = float(np.median(col)) if threshold is None else float(threshold)
        high = col > cut
        if high.all() or not high.any():
            raise LabelError(f"covariate {name!r}: every labelled row is on one side of {cut:g}")
        return high.astype(float), f"{name} > {cut:g}" + (" (median)" if threshold is None
                                                          else "")  # fmt: skip
    if values.size != 2:
        raise LabelError(
            f"covariate {name!r} has {values.size} level(s) {values.tolist()[:5]} among the "
            "labelled rows: the bias test compares two (first/second, long/short); give a "
            "numeric covariate (split at its median or thresholds=) or a two-level one"
        )
    low, high = values.tolist()
    return (col == high).astype(float), f"{name} = {high!r} (vs {low!r})"


def _frame_columns(frame: Any, names: list[str]) -> dict[str, np.ndarray]:
    from ..frames import _engine_warnings, _narwhals, open_frame

    nw = _narwhals()
    with _engine_warnings():
        nf = open_frame(nw, frame, ())
        missing = [c for c in names if c not in nf.collect_schema().names()]
        if missing:
            raise ArgumentTypeError(f"column(s) {missing} not in the frame")
        picked = nf.select(*dict.fromkeys(names))
        if isinstance(picked, nw.LazyFrame):
            picked = picked.collect()
        return {c: picked[c].to_numpy() for c in dict.fromkeys(names)}


# ----------------------------------------------------------------------------- entry
def judge_bias(
    frame: Any = None, *, judge: Any, human: Any, covariates: Any, cluster: Any = None,
    thresholds: Any = None, confidence_level: float = 0.95,
) -> JudgeBias:  # fmt: skip
    """Test whether the judge's verdict depends on each covariate at the same human label.

    For each covariate X (two levels, or a number split at ``thresholds`` or its median), over
    the rows with a human label: Δ = Σ_h w_h [P(J=1 | H=h, X=1) − P(J=1 | H=h, X=0)], the
    human-class-standardised difference in the judge's positive rate, with an Agresti–Caffo
    Wald interval and z-test, cluster-robust with ``cluster=``
    (:mod:`judgestats.bias.effects`). Δ > 0: at the same human verdict the judge says 1 more
    often when X = 1 (the long answer, the one shown first). Pairs judged in both orders are
    rows here: one per order, J = "picks answer A", X = "A shown first", ``cluster=`` the pair.

    Parameters
    ----------
    frame : data frame, optional
        Any engine :func:`judgestats.evaluate` reads; then ``judge``, ``human``, ``cluster``
        and ``covariates`` name its columns. Without a frame they are arrays.
    judge : str or 1-D array_like
        The judge's verdict, 0/1 or booleans, on every row.
    human : str or 1-D array_like
        The human label, 0/1 or booleans; None/NaN rows are left out.
    covariates : str, list of str, mapping name → column, or array
        With a frame: column name(s). Without: as :func:`judgestats.scores.correct_scores`'s
        ``covariates=`` (an array or a mapping of names to columns).
    cluster : str or 1-D array_like, optional
        The item each row judges when items repeat (both orders of one pair).
    thresholds : mapping name → float, optional
        Where a numeric covariate splits (X = 1 above it); default its labelled rows' median.
    confidence_level : float, default 0.95
        Two-sided level of each interval; a test rejects at 1 − ``confidence_level``.

    Returns
    -------
    JudgeBias
        One :class:`BiasTest` per covariate.

    Raises
    ------
    ArgumentTypeError, LabelError
        Labels not 0/1, a missing covariate or judge value, a covariate with other than two
        levels (a category) or all on one side of its split, a (human class, level) cell
        without a labelled row.

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> rng = np.random.default_rng(0)
    >>> human = rng.random(600) < 0.5
    >>> long = rng.random(600) < 0.5
    >>> judge = np.where(human, rng.random(600) < 0.9, rng.random(600) < 0.1 + 0.2 * long)
    >>> res = js.bias.judge_bias(judge=judge, human=human, covariates={"long": long})
    >>> t = res["long"]
    >>> round(t.effect, 2), t.pvalue < 0.05
    (0.07, True)
    """
    level = check_confidence_level(confidence_level)
    cov_names = None
    if frame is not None:
        cov_names = [covariates] if isinstance(covariates, str) else list(covariates)
        names = [judge, human, *cov_names, *([cluster] if cluster is not None else [])]
        data = _frame_columns(frame, names)
        judge, human = data[judge], data[human]
        cluster = None if cluster is None else data[cluster]
        covariates = {c: data[c] for c in cov_names}
    h = _binary("human", human, None, missing_ok=True)
    j = _binary("judge", judge, h.size, missing_ok=False)
    cols = check_covariates(covariates, h.size)
    assert cols is not None
    items = _item_codes(cluster, h.size)
    thresholds = dict(thresholds or {})
    lab = ~np.isnan(h)
    tests = []
    for name, col in cols.items():
        x, what = _two_levels(name, col[lab], thresholds.get(name))
        _check_cells(name, h[lab], x)
        eff = standardised_difference(j[lab], h[lab], x, None if items is None else items[lab])
        tests.append(BiasTest.from_effect(name, eff, level, estimated=(
            f"P(judge = 1 | human, {what}) − P(judge = 1 | human, otherwise), averaged over "
            "the human classes")))  # fmt: skip
    return JudgeBias(tests=tuple(tests), confidence_level=level)


def _item_codes(cluster: Any, size: int) -> np.ndarray | None:
    if cluster is None:
        return None
    from .._validation.labels import check_cluster_ids

    _, codes = check_cluster_ids("cluster", cluster, size)
    return np.asarray(codes)


def _check_cells(name: str, h: np.ndarray, x: np.ndarray) -> None:
    for hv in np.unique(h).tolist():
        for xv in (0, 1):
            if not np.any((h == hv) & (x == xv)):
                raise LabelError(
                    f"covariate {name!r}: no labelled row with human = {hv:g} and the covariate's "
                    f"{'upper' if xv else 'lower'} level; the test needs both levels in both "
                    "human classes"
                )


def position_bias(
    judge: Any, human: Any, *, cluster: Any = None, confidence_level: float = 0.95,
) -> BiasTest:  # fmt: skip
    """Position bias of pairwise verdicts shown in one order: the judge's asymmetry.

    ``judge`` and ``human`` say which answer is better, 1 (the one shown first) or 2 (second);
    rows with a tie (0) or no human verdict are left out. Without position bias the judge is as
    right when the first answer is better as when the second is:
    Δ = P(judge = 1 | human = 1) − P(judge = 2 | human = 2) = 0, estimated with the
    Agresti–Caffo interval and z-test of :mod:`judgestats.bias.effects` (one human class, the
    covariate "human says first"; cluster-robust with ``cluster=``). Δ > 0: the judge favours
    the first position. Holds only if which answer is shown first was not chosen by quality.

    Parameters
    ----------
    judge, human : 1-D array_like
        Verdicts 1 (first better), 2 (second better) or 0 (tie); ``human`` None/NaN where
        unlabelled.
    cluster : 1-D array_like, optional
        The prompt (or item) of each row when rows share one.
    confidence_level : float, default 0.95
        Two-sided level of the interval.

    Returns
    -------
    BiasTest

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> rng = np.random.default_rng(1)
    >>> human = rng.choice([1, 2], 800)
    >>> right = rng.random(800) < np.where(human == 1, 0.9, 0.75)  # first favoured
    >>> judge = np.where(right, human, 3 - human)
    >>> t = js.bias.position_bias(judge, human)
    >>> round(t.effect, 2), t.pvalue < 0.05
    (0.16, True)
    """
    level = check_confidence_level(confidence_level)
    jv = np.asarray(judge, dtype=object)
    hv = np.asarray(human, dtype=object)
    if jv.ndim != 1 or hv.shape != jv.shape:
        raise ArgumentTypeError(f"judge and human must be 1-D of one length, got shapes "
                                f"{jv.shape} and {hv.shape}")  # fmt: skip
    items = _item_codes(cluster, jv.size)
    keep, jj, hh = [], [], []
    for i, (a, b) in enumerate(zip(jv.tolist(), hv.tolist(), strict=True)):
        if b is None or (isinstance(b, float) and b != b) or b == 0:
            continue
        for name, v in (("judge", a), ("human", b)):
            if isinstance(v, bool) or v not in (0, 1, 2):
                raise LabelError(f"{name} must be 1 (first), 2 (second) or 0 (tie), got {v!r} "
                                 f"at index {i}")  # fmt: skip
        if a == 0:
            continue
        keep.append(i)
        jj.append(float(a == b))
        hh.append(float(b == 1))
    # the judge right (J = 1) against X = "humans say first", one class (w = 1):
    # P(right | first better) − P(right | second better), the asymmetry
    j, x = np.array(jj), np.array(hh)
    _check_cells("human says first", np.zeros_like(x), x)  # both verdicts needed
    eff = standardised_difference(j, np.zeros_like(x), x,
                                  None if items is None else items[np.array(keep, int)])
    return BiasTest.from_effect(
        "position", eff, level,
        estimated="P(judge picks first | humans say first) − P(judge picks second | humans say "
                  "second), ties left out")  # fmt: skip


# ----------------------------------------------------------------------------- results
@dataclass(frozen=True, slots=True)
class BiasTest(Tabular):
    """The judge's bias along one covariate, from :func:`judge_bias` or :func:`position_bias`.

    Attributes
    ----------
    covariate : str
        The covariate tested (``"position"`` for :func:`position_bias`).
    effect : float
        Δ̂, in probability points (``estimated`` says of what); 0 without bias.
    ci : ConfidenceInterval
        Its Agresti–Caffo Wald interval (``method`` ``"agresti-caffo"``), cluster-robust with
        ``cluster=``.
    pvalue : float
        Two-sided p-value of Δ = 0 (the z-test of the interval).
    n, n_high, n_low : int
        Labelled rows used, those with X = 1 and with X = 0.
    items : int or None
        Items with ``cluster=``.
    estimated : str
        What Δ is, in words.
    confidence_level : float
        Level of ``ci``.
    """

    covariate: str
    effect: float
    ci: ConfidenceInterval
    pvalue: float
    n: int
    n_high: int
    n_low: int
    items: int | None
    estimated: str
    confidence_level: float

    @classmethod
    def from_effect(cls, name: str, eff: Effect, level: float, *, estimated: str) -> BiasTest:
        """Build the interval and p-value of an :class:`~judgestats.bias.effects.Effect`."""
        from scipy.stats import norm

        se = float(np.sqrt(eff.variance))
        half = float(z_value(level)) * se
        ci = ConfidenceInterval(low=max(eff.adjusted - half, -1.0),
                                high=min(eff.adjusted + half, 1.0),
                                method="agresti-caffo", confidence_level=level)  # fmt: skip
        p = float(2 * norm.sf(abs(eff.adjusted) / se)) if se > 0 else float("nan")
        return cls(covariate=name, effect=float(eff.effect), ci=ci, pvalue=p, n=eff.n,
                   n_high=eff.n_high, n_low=eff.n_low, items=eff.items, estimated=estimated,
                   confidence_level=level)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dict of the tidy row."""
        return {"covariate": self.covariate, "effect": self.effect, "ci_low": self.ci.low,
                "ci_high": self.ci.high, "pvalue": self.pvalue, "n": self.n,
                "n_high": self.n_high, "n_low": self.n_low, "items": self.items,
                "method": self.ci.method, "confidence_level": self.confidence_level,
                "estimated": self.estimated}  # fmt: skip

    def _records(self) -> list[dict[str, Any]]:
        return [self.to_dict()]

    def line(self) -> str:
        """One line: the covariate, Δ̂, its interval, p and n."""
        return (f"  {self.covariate:<16} Δ = {self.effect:+.3f}  [{self.ci.low:+.3f}, "
                f"{self.ci.high:+.3f}]  p = {self.pvalue:.3g}  (n = {self.n})")  # fmt: skip

    def summary(self) -> str:
        """Return a short human-readable report."""
        return (f"Judge bias ({100 * self.confidence_level:g}% Agresti–Caffo interval)\n"
                f"{self.line()}\n  Δ: {self.estimated}")  # fmt: skip


@dataclass(frozen=True, slots=True)
class JudgeBias(Tabular):
    """Bias tests of one judge along several covariates, from :func:`judge_bias`.

    Attributes
    ----------
    tests : tuple of BiasTest
        One per covariate, in the order given; ``res["length"]`` picks one by name.
    confidence_level : float
        Level of every interval.
    """

    tests: tuple[BiasTest, ...]
    confidence_level: float

    def __getitem__(self, name: str) -> BiasTest:
        for t in self.tests:
            if t.covariate == name:
                return t
        raise KeyError(f"no covariate {name!r}; have {[t.covariate for t in self.tests]}")

    def _records(self) -> list[dict[str, Any]]:
        return [t.to_dict() for t in self.tests]

    def summary(self) -> str:
        """Return a short human-readable report."""
        lines = [f"Judge bias against the human label ({100 * self.confidence_level:g}% "
                 "Agresti–Caffo intervals; Δ > 0: the judge says 1 more often at X = 1)"]
        for t in self.tests:
            lines += [t.line(), f"    Δ: {t.estimated}"]
        return "\n".join(lines)
