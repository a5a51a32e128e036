"""Counts of repeated items: the per-item (cluster) totals a cluster-robust variance needs.

An evaluation often judges one item several times: Inspect AI epochs, several sampled answers
to one prompt, the turns of one conversation, several human raters of one item. Its rows are
then not independent items, and every interval that counts rows as items is too short. A
counts object built with ``cluster=`` (:meth:`judgestats.JudgedCounts.from_labels`,
:meth:`judgestats.ConfusionCounts.from_labels`) keeps, beside its sums, each item's own counts
(:class:`ClusterTotals`); their sums of squares and cross-products are what the
cluster-robust (sandwich) variance of :mod:`judgestats.repeated` is made of.

:func:`joint_clusters` lays the test and calibration clusters side by side: one row per item
with its six counts (x, n, tp, fn, tn, fp), test and calibration rows of one item in the same
row, identical rows merged with a multiplicity. Counts given without clusters enter as one item
per row (singletons), so a data set with one row per item is the independent case exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import ArgumentTypeError, CountError, check_cluster_ids

__all__ = ["JOINT_FIELDS", "ClusterTotals", "JointClusters", "joint_arms", "joint_clusters",
           "merged_totals"]

#: The six counts of an item in the joint layout: test rows judged 1 (x) of the item's test
#: rows (n), and its calibration rows by (human, judge): (1, 1), (1, 0), (0, 0), (0, 1).
JOINT_FIELDS = ("x", "n", "tp", "fn", "tn", "fp")


@dataclass(frozen=True, slots=True, eq=False)
class ClusterTotals:
    """Each item's (cluster's) counts of the fields of a counts object.

    Parameters
    ----------
    ids : array_like, shape (G,)
        The item ids, each once.
    totals : array_like of int, shape (G, F)
        ``totals[g, f]``: item g's count of field ``fields[f]``; every item has a row.
    fields : tuple of str
        The counts object's fields, e.g. ``("positive", "n")``.
    """

    ids: Any
    totals: Any
    fields: tuple[str, ...]

    def __post_init__(self) -> None:
        totals = np.asarray(self.totals)
        if totals.ndim != 2 or totals.shape[1] != len(self.fields):
            raise CountError(
                f"cluster totals must have shape (items, {len(self.fields)}) for the fields "
                f"{self.fields}, got {totals.shape}"
            )
        if totals.dtype.kind not in "iu" or (totals < 0).any():
            raise CountError("cluster totals must be non-negative integers")
        ids = np.empty(len(self.ids), dtype=object)
        ids[:] = list(self.ids)
        if ids.size != totals.shape[0]:
            raise CountError(f"{ids.size} item ids for {totals.shape[0]} rows of cluster totals")
        totals = totals.astype(np.int64)
        for a in (ids, totals):
            a.setflags(write=False)
        object.__setattr__(self, "ids", ids)
        object.__setattr__(self, "totals", totals)

    @classmethod
    def from_rows(cls, name: str, ids: Any, columns: dict[str, np.ndarray]) -> ClusterTotals:
        """Sum per-row 0/1 indicator ``columns`` within each item (``ids``, one per row)."""
        size = len(next(iter(columns.values())))
        unique, code = check_cluster_ids(name, ids, size)
        totals = np.zeros((unique.size, len(columns)), dtype=np.int64)
        for f, values in enumerate(columns.values()):
            np.add.at(totals[:, f], code, np.asarray(values, dtype=np.int64))
        return cls(unique, totals, tuple(columns))

    @property
    def size(self) -> int:
        """Number of items (clusters) G."""
        return int(self.totals.shape[0])

    @property
    def sums(self) -> dict[str, int]:
        """Field totals over the items (the counts object's own fields)."""
        return dict(zip(self.fields, self.totals.sum(axis=0).tolist(), strict=True))

    @property
    def cross_products(self) -> np.ndarray:
        """Σ_g t_g t_gᵀ over the items' count vectors t_g: shape (F, F)."""
        t = self.totals.astype(float)
        return t.T @ t

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClusterTotals):
            return NotImplemented
        return (
            self.fields == other.fields
            and list(self.ids) == list(other.ids)
            and np.array_equal(self.totals, other.totals)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ClusterTotals({self.size} items, fields={self.fields})"


def check_totals(owner: str, clusters: Any, fields: tuple[str, ...], sums: dict, shape) -> Any:
    """Validate the ``clusters`` of a counts object: its fields, one data set, equal sums."""
    if clusters is None:
        return None
    if not isinstance(clusters, ClusterTotals):
        raise ArgumentTypeError(
            f"{owner} clusters must be a ClusterTotals, got {type(clusters).__name__}"
        )
    if clusters.fields != fields:
        raise CountError(f"{owner} clusters must count {fields}, got {clusters.fields}")
    if shape:
        raise CountError(f"{owner} with clusters holds one data set, got a batch of shape {shape}")
    got = clusters.sums
    if any(got[k] != int(v) for k, v in sums.items()):
        raise CountError(f"{owner} cluster totals sum to {got}, not to the counts {sums}")
    return clusters


# ----------------------------------------------------------------------------- joint layout
@dataclass(frozen=True, slots=True)
class JointClusters:
    """Test and calibration items side by side (see :func:`joint_clusters`).

    ``rows`` (U, 6): distinct item count vectors over :data:`JOINT_FIELDS`; ``weight`` (U,):
    how many items have that vector; ``items``: the number of items G = Σ weight.
    """

    rows: np.ndarray
    weight: np.ndarray
    items: int


def _singletons(counts: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """One item per row: the unit vector of each cell, with the cell's count as weight."""
    rows, weight = [], []
    unit = {
        "x": (1, 1, 0, 0, 0, 0), "n": (0, 1, 0, 0, 0, 0), "tp": (0, 0, 1, 0, 0, 0),
        "fn": (0, 0, 0, 1, 0, 0), "tn": (0, 0, 0, 0, 1, 0), "fp": (0, 0, 0, 0, 0, 1),
    }  # fmt: skip
    for cell, k in counts.items():
        if k:
            rows.append(unit[cell])
            weight.append(int(k))
    return np.array(rows, dtype=np.int64).reshape(-1, 6), np.array(weight, dtype=np.int64)


def joint_clusters(test: Any, calibration: Any) -> JointClusters:
    """One row per item with its test and calibration counts; identical rows merged.

    ``test`` is a :class:`~judgestats.JudgedCounts` and ``calibration`` a
    :class:`~judgestats.ConfusionCounts`; a side without ``clusters`` enters as one item per
    row. An id on both sides is one item with test and calibration rows (e.g. some epochs of a
    sample human-labelled, the others not). The one-arm case of :func:`joint_arms`.
    """
    return joint_arms([(test, calibration)])


def joint_arms(arms: Any) -> JointClusters:
    """Several (test, calibration) arms side by side: six columns per arm, one row per item.

    Arm k's counts fill columns 6k … 6k + 5 (:data:`JOINT_FIELDS`); an item id in several
    arms (the same prompt judged for two models, an item with rows in two strata) is one row,
    so the arms' rates computed from the table share its sampling. A counts object without
    ``clusters`` enters as one item per row; the *same* object in several arms (one shared
    calibration set) is the same items in each. Identical rows are merged with a multiplicity.
    """
    arms = list(arms)
    width = 6 * len(arms)
    index: dict[Any, int] = {}
    blocks = []
    for k, (test, calibration) in enumerate(arms):
        for counts, cols in ((test, [0, 1]), (calibration, [2, 3, 4, 5])):
            clusters = getattr(counts, "clusters", None)
            if clusters is not None:
                rows = np.array([index.setdefault(i, len(index)) for i in clusters.ids.tolist()])
                blocks.append((rows, [6 * k + c for c in cols], clusters.totals))
    parts, weights = [], []
    if blocks:
        table = np.zeros((len(index), width), dtype=np.int64)
        for rows, cols, totals in blocks:
            table[np.ix_(rows, cols)] += totals
        parts.append(table)
        weights.append(np.ones(len(index), dtype=np.int64))
    for obj, side, where in _unclustered(arms):
        if side == 0:
            r, w = _singletons({"x": obj.positive, "n": obj.n - obj.positive})
        else:
            r, w = _singletons({"tp": obj.tp, "fn": obj.fn, "tn": obj.tn, "fp": obj.fp})
        wide = np.zeros((len(r), width), dtype=np.int64)
        for k in where:
            wide[:, 6 * k : 6 * k + 6] += r
        parts.append(wide)
        weights.append(w)
    rows = np.concatenate(parts) if parts else np.zeros((0, width), dtype=np.int64)
    weight = np.concatenate(weights) if weights else np.zeros(0, dtype=np.int64)
    unique, inverse = np.unique(rows, axis=0, return_inverse=True)
    merged = np.bincount(inverse.reshape(-1), weights=weight, minlength=len(unique))
    return JointClusters(unique, merged.astype(np.int64), int(weight.sum()))


def _unclustered(arms: list) -> list[tuple[Any, int, list[int]]]:
    """List counts objects without clusters, each once: (object, side 0/1 test/cal, arms)."""
    found: list[tuple[Any, int, list[int]]] = []
    for k, pair in enumerate(arms):
        for side, obj in enumerate(pair):
            if getattr(obj, "clusters", None) is not None:
                continue
            for known, known_side, where in found:
                if known is obj and known_side == side:
                    where.append(k)
                    break
            else:
                found.append((obj, side, [k]))
    return found


def merged_totals(objs: Any, fields: tuple[str, ...]) -> ClusterTotals | None:
    """Per-item totals of several counts objects added together (strata merged into one).

    Items with the same id add; an object without clusters enters as one item per row, with
    ids of its own (``(tag, object index, row)``, ``tag`` new on every call, so they never meet
    a caller's id). None when no object carries clusters.
    """
    objs = list(objs)
    if all(getattr(o, "clusters", None) is None for o in objs):
        return None
    tag = object()
    ids: list[Any] = []
    rows = []
    for j, o in enumerate(objs):
        if o.clusters is not None:
            ids += o.clusters.ids.tolist()
            rows.append(o.clusters.totals)
            continue
        cells: list[list[int]]
        if fields == ("positive", "n"):
            cells, counts = [[1, 1], [0, 1]], [int(o.positive), int(o.n - o.positive)]
        else:
            cells = [[int(i == f) for i in range(len(fields))] for f in range(len(fields))]
            counts = [int(getattr(o, f)) for f in fields]
        unit = np.repeat(np.array(cells, dtype=np.int64), counts, axis=0)
        ids += [(tag, j, i) for i in range(len(unit))]
        rows.append(unit)
    index: dict[Any, int] = {}
    code = np.array([index.setdefault(i, len(index)) for i in ids], dtype=np.int64)
    totals = np.zeros((len(index), len(fields)), dtype=np.int64)
    np.add.at(totals, code, np.concatenate(rows))
    return ClusterTotals(list(index), totals, fields)
