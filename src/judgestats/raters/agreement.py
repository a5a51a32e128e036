r"""Inter-rater agreement with intervals, and the judge's agreement with each rater.

**Krippendorff's α** (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", the
coincidence-matrix form; any number of raters, missing values). For an item u with
m_u ≥ 2 ratings (a *pairable* item) and n_uc ratings of category c, its coincidences are
o_uck = (n_uc n_uk − [c = k] n_uc)/(m_u − 1); o_ck = Σ_u o_uck, n_c = Σ_k o_ck,
n = Σ_c n_c. Then

    α = 1 − (n − 1) Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck

with the nominal metric δ²_ck = [c ≠ k] or the ordinal metric
δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k)/2)² (categories in their declared order). Items with a
single rating are not pairable and do not count.

**Fleiss' κ for a varying number of raters per item**, in the form of Gwet (2014, Handbook of
Inter-Rater Reliability, 4th ed., Fleiss' generalised κ with missing ratings): with r_i ratings
of item i, r_ik of category k,

    p_a = (1/n₂) Σ_{i: r_i ≥ 2} Σ_k r_ik (r_ik − 1) / (r_i (r_i − 1)),
    π_k = (1/n₁) Σ_{i: r_i ≥ 1} r_ik / r_i,     p_e = Σ_k π_k²,
    κ = (p_a − p_e) / (1 − p_e),

n₂ (n₁) the number of items with at least two (one) ratings. With the same number of raters on
every item it is Fleiss' (1971) κ (his P̄ and p_j).

**Intervals**: a cluster bootstrap over items (items drawn with replacement, every rating of a
drawn item kept; seeded ``rng``), **BCa** by default (Efron 1987: the percentiles corrected for
the bootstrap's median bias and for the acceleration estimated by the item jackknife) or the
**percentile** interval (``interval="percentile"``), at ``confidence_level``; resamples where
the coefficient is undefined (a single category left) are left out and counted
(``ci.undefined``). Each item's contribution is precomputed, so a resample is one weighted sum.
Measured coverage of the 95% interval (``benchmarks/results/raters_agreement.md``; 24 grid
cells: items 30–300, 2 or 4 raters, k 2 or 4, 0 or 30% missing; 24 random cells with one much
worse rater in half; 300 data sets per cell): BCa mean 0.943–0.953 by measure and grid,
minimum 0.92 except at 30 items with 2 raters and 30% missing (about 15 pairable items: 0.91
nominal, 0.88 ordinal α); the percentile interval runs shorter (mean 0.937–0.942, minimum
0.857), hence BCa by default.

**The judge against the raters** (:func:`judge_agreement`): on the items both labelled, the
percent agreement with its Clopper–Pearson interval and Cohen's κ with the delta-method
interval on the atanh scale of :func:`judgestats.agreement.coefficient_bounds` (shown when every
category has at least :data:`~judgestats.agreement.MIN_KAPPA_MARGIN` items on both sides, the
rule measured there), against each rater, against the raters' majority, and the same figures
for every pair of human raters beside them.

References
----------
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
Communication, University of Pennsylvania, Departmental Papers 43.
Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological
Bulletin 76(5), 378–382.
Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics.
Cohen, J. (1960). A coefficient of agreement for nominal scales. Educ. Psychol. Meas. 20, 37–46.
Efron, B. (1987). Better bootstrap confidence intervals. JASA 82(397), 171–185.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    LabelError,
    RatingsError,
    check_bool,
    check_choice,
    check_cluster_ids,
    check_confidence_level,
    check_instance,
    check_positive_int,
    check_rng,
)
from ..results import ConfidenceInterval
from .ratings import Ratings

__all__ = [
    "BCA",
    "BOOTSTRAP",
    "INTERVALS",
    "METRICS",
    "RaterAgreement",
    "alpha_of_coincidences",
    "fleiss_kappa",
    "item_coincidences",
    "krippendorff_alpha",
]

#: Krippendorff's α metrics.
METRICS = ("nominal", "ordinal")
#: The percentile interval's name.
BOOTSTRAP = "cluster-bootstrap-percentile"
#: The BCa interval's name (the default).
BCA = "cluster-bootstrap-bca"
#: ``interval=`` choices of :func:`krippendorff_alpha` and :func:`fleiss_kappa`.
INTERVALS = ("bca", "percentile")
_CHUNK = 250  # resamples per weighted sum (bounded memory)


# ============================================================================ the coefficients
def _delta2(nc: np.ndarray, metric: str) -> np.ndarray:
    """δ²_ck of every (c, k) for marginals ``nc`` (..., K): nominal or ordinal."""
    k = nc.shape[-1]
    if metric == "nominal":
        return np.broadcast_to(1.0 - np.eye(k), (*nc.shape[:-1], k, k))
    cum = np.cumsum(nc, axis=-1)
    lo = np.minimum.outer(np.arange(k), np.arange(k))
    hi = np.maximum.outer(np.arange(k), np.arange(k))
    span = cum[..., hi] - cum[..., lo] + nc[..., lo]  # Σ_{g=lo..hi} n_g
    return (span - (nc[..., :, None] + nc[..., None, :]) / 2.0) ** 2


def alpha_of_coincidences(o: np.ndarray, metric: str) -> np.ndarray:
    """Krippendorff's α of coincidence matrices ``o`` (..., K, K); NaN where undefined."""
    o = np.asarray(o, dtype=float)
    nc = o.sum(axis=-1)
    n = nc.sum(axis=-1)
    d2 = _delta2(nc, metric)
    observed = (o * d2).sum(axis=(-2, -1))
    expected = (nc[..., :, None] * nc[..., None, :] * d2).sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(expected > 0, 1.0 - (n - 1.0) * observed / expected, np.nan)


def item_coincidences(counts: np.ndarray) -> np.ndarray:
    """Each item's coincidence matrix (items, K, K) from its category counts (items, K)."""
    c = np.asarray(counts, dtype=float)
    m = c.sum(axis=1)
    pairs = c[:, :, None] * c[:, None, :] - c[:, :, None] * np.eye(c.shape[1])
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where((m >= 2)[:, None, None], pairs / (m - 1.0)[:, None, None], 0.0)


def _fleiss_parts(counts: np.ndarray) -> np.ndarray:
    """Return each item's parts of κ ``(items, 3 + K)``.

    The parts: pair agreement (0 below 2 ratings), whether it has two ratings, whether it has
    one, its category shares (0 unrated). Each column enters κ through a sum over items, so
    a cluster's row is its items' sum.
    """
    c = np.asarray(counts, dtype=float)
    r = c.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        pair = np.where(r >= 2, (c * (c - 1.0)).sum(axis=1) / (r * (r - 1.0)), 0.0)
        share = np.where((r >= 1)[:, None], c / r[:, None], 0.0)
    return np.column_stack([pair, r >= 2, r >= 1, share])


def _fleiss_of_sums(sums: np.ndarray) -> np.ndarray:
    """Fleiss–Gwet κ of summed parts ``(..., 3 + K)`` (:func:`_fleiss_parts`)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        pa = sums[..., 0] / sums[..., 1]
        pi = sums[..., 3:] / sums[..., 2:3]
        pe = (pi * pi).sum(axis=-1)
        return np.where(pe < 1.0, (pa - pe) / (1.0 - pe), np.nan)


# ============================================================================ the bootstrap
def _weights(gen: np.random.Generator, n: int, size: int) -> np.ndarray:
    """(size, n) counts of each item in ``size`` resamples of n items drawn with replacement."""
    draws = gen.integers(0, n, size=(size, n)) + (np.arange(size) * n)[:, None]
    return np.bincount(draws.ravel(), minlength=size * n).reshape(size, n).astype(float)


def _by_cluster(per_item: np.ndarray, cluster: np.ndarray | None) -> np.ndarray:
    """Sum the rows of ``per_item`` within each cluster present; unchanged without clusters."""
    if cluster is None:
        return per_item
    present, code = np.unique(cluster, return_inverse=True)  # clusters left with an item
    out = np.zeros((present.size, per_item.shape[1]))
    np.add.at(out, code.reshape(-1), per_item)
    return out


def _cluster_codes(ratings: Ratings, cluster: Any) -> np.ndarray | None:
    """Each item's cluster code (0..C−1, items in the ratings' order), or None.

    ``cluster`` holds one id per item (in ``ratings.items``' order) or maps each item to its
    cluster (a dict, or a pandas Series indexed by item).
    """
    if cluster is None:
        return None
    if hasattr(cluster, "get") and not isinstance(cluster, str | bytes):
        missing = [item for item in ratings.items if item not in cluster]
        if missing:
            raise LabelError(
                f"cluster has no cluster for {len(missing)} of the {ratings.n_items} items "
                f"(first: {missing[:5]!r}); map every item of the ratings to its cluster"
            )
        cluster = [cluster[item] for item in ratings.items]
    _, codes = check_cluster_ids("cluster", cluster, ratings.n_items)
    return codes


def _interval(
    boot: np.ndarray, est: float, jack: np.ndarray, level: float, interval: str
) -> ConfidenceInterval | None:
    """Percentile or BCa (Efron 1987) interval of bootstrap values ``boot``.

    BCa: bias correction z0 = Φ⁻¹(share of resamples below the estimate, ties counted half),
    acceleration a = Σ d³ / (6 (Σ d²)^{3/2}) from the jackknife values (d = mean − value), and
    the percentiles Φ(z0 + (z0 + z)/(1 − a (z0 + z))) at z = Φ⁻¹((1 ∓ level)/2).
    """
    from scipy.special import ndtr, ndtri

    ok = boot[~np.isnan(boot)]
    if ok.size < max(2, boot.size // 2) or np.isnan(est):
        return None
    probs = np.array([(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    name = BOOTSTRAP
    if interval == "bca":
        below = (np.sum(ok < est) + 0.5 * np.sum(ok == est)) / ok.size
        z0 = float(ndtri(np.clip(below, 1.0 / ok.size, 1.0 - 1.0 / ok.size)))
        d = np.nanmean(jack) - jack[~np.isnan(jack)]
        ss = float(np.sum(d * d))
        a = float(np.sum(d**3)) / (6.0 * ss**1.5) if ss > 0 else 0.0
        z = ndtri(probs)
        probs = ndtr(z0 + (z0 + z) / (1.0 - a * (z0 + z)))
        name = BCA
    low, high = np.quantile(ok, probs)
    return ConfidenceInterval(float(low), float(high), name, level,
                              undefined=int(boot.size - ok.size),
                              n_resamples=int(boot.size))  # fmt: skip


def _bootstrap(stat, n: int, n_boot: int, gen: np.random.Generator) -> np.ndarray:
    """``stat(weights)`` of ``n_boot`` resamples of n units (items or clusters), in chunks."""
    out = [stat(_weights(gen, n, min(_CHUNK, n_boot - s))) for s in range(0, n_boot, _CHUNK)]
    return np.concatenate(out) if out else np.empty(0)


# ============================================================================ results
@dataclass(frozen=True, slots=True)
class RaterAgreement:
    """Inter-rater agreement (Krippendorff's α or Fleiss' κ) with its bootstrap interval.

    Attributes
    ----------
    measure : str
        ``"krippendorff-alpha"`` or ``"fleiss-kappa"``.
    metric : str
        ``"nominal"`` or ``"ordinal"`` (κ: nominal).
    estimate : float
        The coefficient (NaN where undefined: a single category used).
    ci : ConfidenceInterval or None
        The cluster-bootstrap interval (None when too few resamples defined it).
    confidence_level : float
        The interval's level.
    interval_method : str
        :data:`BCA` or :data:`BOOTSTRAP` (percentile).
    n_items : int
        Items with at least two ratings (pairable).
    n_ratings : int
        Ratings on those items.
    raters : tuple
        The raters counted (the judge among them when ``judge_included``).
    judge_included : bool
        Whether the judge counted as one more rater.
    n_clusters : int or None
        Clusters of items resampled together (``cluster=``); None: items resampled alone.

    Examples
    --------
    Krippendorff's (2011) binary example (section A): two observers, ten units, α = 0.095.

    >>> from judgestats.raters import Ratings, krippendorff_alpha
    >>> r = Ratings.from_matrix([[0, 1], [1, 1], [0, 1], [0, 0], [0, 0], [0, 1], [0, 0],
    ...                          [0, 0], [1, 0], [0, 0]], raters=["A", "B"])
    >>> res = krippendorff_alpha(r, rng=0)
    >>> round(res.estimate, 3), res.n_items, res.n_raters, res.interval_method
    (0.095, 10, 2, 'cluster-bootstrap-bca')
    """

    measure: str
    metric: str
    estimate: float
    ci: ConfidenceInterval | None
    confidence_level: float
    interval_method: str
    n_items: int
    n_ratings: int
    raters: tuple
    judge_included: bool
    n_clusters: int | None = None

    @property
    def n_raters(self) -> int:
        """Number of raters counted."""
        return len(self.raters)

    def summary(self) -> str:
        """One line: the measure, its estimate and interval, and what it was computed on."""
        units = "" if self.n_clusters is None else f" of {self.n_clusters} clusters"
        ci = "no interval" if self.ci is None else (
            f"{self.confidence_level:.0%} CI [{self.ci.low:.3f}, {self.ci.high:.3f}] "
            f"({self.interval_method}, {self.ci.n_resamples} resamples{units})")  # fmt: skip
        judge = ", judge included" if self.judge_included else ""
        return (f"{self.measure} ({self.metric}) = {self.estimate:.3f}, {ci}; "
                f"{self.n_items} items, {self.n_raters} raters{judge}")  # fmt: skip


def _codes(ratings: Any, judge: Any, include_judge: bool) -> tuple[Ratings, np.ndarray, tuple]:
    check_instance("ratings", ratings, Ratings)
    if judge is not None and judge != ratings.judge:
        ratings = ratings.with_judge(judge)
    codes = ratings.all_codes(check_bool("include_judge", include_judge))
    raters = ratings.raters + ((ratings.judge,) if codes.shape[1] > ratings.n_raters else ())
    return ratings, codes, raters


def _counts(codes: np.ndarray, k: int) -> np.ndarray:
    return (codes[:, :, None] == np.arange(k)).sum(axis=1)


def krippendorff_alpha(
    ratings: Ratings, *, metric: str = "nominal", judge: Any = None,
    include_judge: bool = False, confidence_level: float = 0.95, n_boot: int = 2000,
    interval: str = "bca", rng: Any = None, cluster: Any = None,
) -> RaterAgreement:  # fmt: skip
    """Krippendorff's α of the raters, with a cluster-bootstrap interval over items.

    Parameters
    ----------
    ratings : Ratings
        The ratings (:class:`~judgestats.raters.Ratings`).
    metric : {"nominal", "ordinal"}
        The difference function δ² (module docstring); ``"ordinal"`` needs ratings built
        with ``ordinal=True``.
    judge : str, optional
        A rater to treat as the judge (by default the ratings' own judge).
    include_judge : bool
        Count the judge as one more rater (default: the human raters only).
    confidence_level : float
        Level of the interval.
    n_boot : int
        Bootstrap resamples.
    interval : {"bca", "percentile"}
        The bootstrap interval (module docstring): BCa (default) or percentile.
    rng : None, int or numpy.random.Generator
        Seed of the resampling.
    cluster : sequence or mapping, optional
        Items that are not independent (several answers to one question, turns of one
        conversation): one cluster id per item in ``ratings.items``' order, or a mapping
        (dict, pandas Series) from item to cluster. The bootstrap then resamples whole
        clusters (and the BCa jackknife leaves one cluster out), so the interval accounts for
        items of a cluster that agree alike; without it, such items make it too short
        (:mod:`module docstring <judgestats.raters.agreement>`).

    Returns
    -------
    RaterAgreement

    Examples
    --------
    Krippendorff's (2011) reliability data with four observers and missing values (his
    section C): α = 0.743 nominal, 0.815 ordinal.

    >>> import numpy as np
    >>> from judgestats.raters import Ratings, krippendorff_alpha
    >>> nan = np.nan
    >>> data = np.array([[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...                  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...                  [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...                  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]).T
    >>> r = Ratings.from_matrix(data, raters=list("ABCD"), ordinal=True)
    >>> round(krippendorff_alpha(r, rng=1).estimate, 3)
    0.743
    >>> round(krippendorff_alpha(r, metric="ordinal", rng=1).estimate, 3)
    0.815
    """
    check_choice("metric", metric, METRICS)
    check_choice("interval", interval, INTERVALS)
    level = float(check_confidence_level(confidence_level))
    n_boot = check_positive_int("n_boot", n_boot, minimum=100)
    ratings, codes, raters = _codes(ratings, judge, include_judge)
    if metric == "ordinal" and not ratings.ordinal:
        raise RatingsError(
            "metric='ordinal' needs ordered categories: build the ratings with ordinal=True "
            f"(categories, lowest first: {list(ratings.categories)!r})"
        )
    clusters = _cluster_codes(ratings, cluster)
    counts = _counts(codes, len(ratings.categories))
    pairable = counts.sum(axis=1) >= 2
    per_item = item_coincidences(counts[pairable]).reshape(int(pairable.sum()), -1)
    k = len(ratings.categories)
    est = float(alpha_of_coincidences(per_item.sum(axis=0).reshape(k, k), metric))
    units = _by_cluster(per_item, None if clusters is None else clusters[pairable])
    gen = check_rng(rng)
    boot = _bootstrap(lambda w: alpha_of_coincidences((w @ units).reshape(-1, k, k), metric),
                      units.shape[0], n_boot, gen)  # fmt: skip
    jack = alpha_of_coincidences((units.sum(axis=0) - units).reshape(-1, k, k), metric)
    ci = _interval(boot, est, jack, level, interval)
    return RaterAgreement("krippendorff-alpha", metric, est, ci, level,
                          BCA if interval == "bca" else BOOTSTRAP, int(pairable.sum()),
                          int(counts[pairable].sum()), raters,
                          codes.shape[1] > ratings.n_raters,
                          None if clusters is None else units.shape[0])  # fmt: skip


def fleiss_kappa(
    ratings: Ratings, *, judge: Any = None, include_judge: bool = False,
    confidence_level: float = 0.95, n_boot: int = 2000, interval: str = "bca",
    rng: Any = None, cluster: Any = None,
) -> RaterAgreement:  # fmt: skip
    """Fleiss' κ for a varying number of raters per item (Gwet's form), with an interval.

    Parameters
    ----------
    ratings : Ratings
        The ratings.
    judge : str, optional
        A rater to treat as the judge (by default the ratings' own judge).
    include_judge : bool
        Count the judge as one more rater.
    confidence_level : float
        Level of the interval (cluster bootstrap over items).
    n_boot : int
        Bootstrap resamples.
    interval : {"bca", "percentile"}
        The bootstrap interval (module docstring): BCa (default) or percentile.
    rng : None, int or numpy.random.Generator
        Seed of the resampling.
    cluster : sequence or mapping, optional
        Items that are not independent (several answers to one question, turns of one
        conversation): one cluster id per item in ``ratings.items``' order, or a mapping
        (dict, pandas Series) from item to cluster. The bootstrap then resamples whole
        clusters (and the BCa jackknife leaves one cluster out), so the interval accounts for
        items of a cluster that agree alike; without it, such items make it too short
        (:mod:`module docstring <judgestats.raters.agreement>`).

    Returns
    -------
    RaterAgreement

    Examples
    --------
    Fleiss' (1971) 30 patients, each diagnosed by 6 psychiatrists into 5 categories
    (κ = 0.430 in his paper), here as counts: the first patient has 6 votes for category 4.

    >>> import numpy as np
    >>> from judgestats.raters import Ratings, fleiss_kappa
    >>> r = Ratings.from_matrix([[4] * 6, [2, 2, 2, 5, 5, 5], [1, 1, 3, 3, 3, 3]])
    >>> round(fleiss_kappa(r, rng=0).estimate, 3)
    0.51
    """
    check_choice("interval", interval, INTERVALS)
    level = float(check_confidence_level(confidence_level))
    n_boot = check_positive_int("n_boot", n_boot, minimum=100)
    ratings, codes, raters = _codes(ratings, judge, include_judge)
    clusters = _cluster_codes(ratings, cluster)
    counts = _counts(codes, len(ratings.categories))
    rated = counts.sum(axis=1) >= 1
    counts = counts[rated]
    parts = _fleiss_parts(counts)
    est = float(_fleiss_of_sums(parts.sum(axis=0)))
    units = _by_cluster(parts, None if clusters is None else clusters[rated])
    gen = check_rng(rng)
    boot = _bootstrap(lambda w: _fleiss_of_sums(w @ units), units.shape[0], n_boot, gen)
    ci = _interval(boot, est, _fleiss_of_sums(units.sum(axis=0) - units), level, interval)
    two = counts.sum(axis=1) >= 2
    return RaterAgreement("fleiss-kappa", "nominal", est, ci, level,
                          BCA if interval == "bca" else BOOTSTRAP, int(two.sum()),
                          int(counts[two].sum()), raters, codes.shape[1] > ratings.n_raters,
                          None if clusters is None else units.shape[0])  # fmt: skip
