"""The tables of an :class:`~judgestats.Evaluation`: its rows, frames, xarray, summary and ranking.

The result class delegates here so that the module of :func:`judgestats.evaluate` holds the
corrections and the result, and this one how they are laid out.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .._validation import (
    JudgeStatsError,
    require_extra,
)
from ..compare import Ranking
from ..correct import Correction
from ..designs import DEFAULT_DESIGN, as_design
from ..gathered_notes import gather_notes, named_groups
from ..intervals import CONDITIONAL, PAPER
from ..results import display_width, group_label, pad, shorten, shown_label, shows_point
from ..strata import StratifiedCorrection

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    import xarray as xr

    from ..alphabets.groups import AlphabetCorrection


# ============================================================================ presentation
def evaluation_lookup(ev: Any, group: Any) -> Correction | StratifiedCorrection:
    """``ev[group]``: by group value (tuple for several columns) or by its text label.

    A one-column group is found by its value or by the tuple of it (``ev["b"]`` and
    ``ev[("b",)]``), as pandas' ``groupby`` keys are given either way.
    """
    if group in ev.corrections:
        return ev.corrections[group]
    if isinstance(group, tuple) and len(group) == 1 and group[0] in ev.corrections:
        return ev.corrections[group[0]]
    for g in ev.groups:
        if group_label(g) == group:
            return ev.corrections[g]
    shown = [group_label(g) for g in ev.groups[:10]]
    raise KeyError(f"no group {group!r}; groups are {shown}{' ...' if len(ev) > 10 else ''}")


def _alphabet(c: Any) -> bool:
    """Tell an :class:`~judgestats.AlphabetCorrection` (by its kind: no import needed)."""
    return getattr(type(c), "kind", None) == "alphabet"


def _is_alphabet(ev: Any) -> bool:
    return any(_alphabet(c) for c in ev.corrections.values())


def _rank(corrections, groups, *, method, size, level, rng, design=DEFAULT_DESIGN) -> Ranking:
    from ..compare import rank

    if any(_alphabet(corrections[g]) for g in groups):
        raise JudgeStatsError(
            "ranking is not available with a judge alphabet; compare the groups' intervals"
        )
    if any(isinstance(corrections[g], StratifiedCorrection) for g in groups):
        raise JudgeStatsError("ranking needs unstratified corrections (evaluate without strata=)")
    tests = {group_label(g): corrections[g].test for g in groups}
    cals = {group_label(g): corrections[g].calibration for g in groups}
    items = [corrections[g].clusters for g in groups if corrections[g].clusters is not None]
    return rank(
        tests, cals, method=method, n_resamples=size, draws=size, confidence_level=level, rng=rng,
        design=design, estimand=items[0].estimand if items else "rows",
    )  # fmt: skip


def evaluation_rank(ev: Any, *, method: str, size: int, rng: Any) -> Ranking:
    """Joint ranking of an :class:`Evaluation`'s groups (models named by their labels)."""
    return _rank(
        ev.corrections, ev.groups, method=method, size=size, level=ev.confidence_level, rng=rng,
        design=ev.design,
    )  # fmt: skip


def _stratified_row(r: StratifiedCorrection) -> dict[str, Any]:
    cs = [r.corrections[s] for s in r.strata]
    tot = {f: int(sum(getattr(c.calibration, f) for c in cs)) for f in ("tp", "fn", "tn", "fp")}
    return {
        "estimate": r.estimate,
        "ci_low": r.ci.low,
        "ci_high": r.ci.high,
        "method": r.method,
        "confidence_level": r.confidence_level,
        "naive": r.naive,
        "sensitivity": tot["tp"] / (tot["tp"] + tot["fn"]),
        "specificity": tot["tn"] / (tot["tn"] + tot["fp"]),
        "n": r.n,
        "positive": int(sum(c.test.positive for c in cs)),
        "m0": r.m0,
        "m1": r.m1,
        **tot,
        "clipped": r.clipped,
        "estimate_unclipped": r.estimate_unclipped,
        "strata": r.k,
        "weights_source": r.weights_source,
    }


def result_row(c: Correction | StratifiedCorrection | AlphabetCorrection) -> dict[str, Any]:
    """Tidy row of one group's result.

    For a stratified result: the pooled values, with the calibration sensitivity and
    specificity of the counts summed over strata.
    """
    return _stratified_row(c) if isinstance(c, StratifiedCorrection) else c.to_dict()


def _by_values(ev: Any, g: Any) -> dict[str, Any]:
    values = g if len(ev.by) > 1 else (g,)
    return dict(zip(ev.by, values, strict=True))


def evaluation_frame(ev: Any) -> pd.DataFrame:
    """One tidy row per group (pandas DataFrame)."""
    require_extra("pandas", "to_dataframe()")
    import pandas as pd

    rows = [{**_by_values(ev, g), **result_row(ev.corrections[g])} for g in ev.groups]
    rows += [{**_by_values(ev, g), **_marked_totals(ev.marked_counts.get(g, ())), "marked": why}
             for g, why in ev.marked.items()]  # fmt: skip
    return pd.DataFrame(rows)


def _marked_totals(rows: tuple) -> dict[str, int]:
    """Sum the counts of a group that was not corrected over its strata (or letters)."""
    if not rows:
        return {}
    if "letter" in rows[0]:  # a judge alphabet: test rows and calibration rows by human label
        n, m0, m1 = (sum(r[k] for r in rows) for k in ("n", "human_0", "human_1"))
        return {"n": n, "m0": m0, "m1": m1}
    tot = {k: sum(r[k] for r in rows) for k in ("n", "positive", "tp", "fn", "tn", "fp")}
    return {**tot, "m0": tot["tn"] + tot["fp"], "m1": tot["tp"] + tot["fn"]}


def rows_accounting(ev: Any) -> dict[str, int]:
    """Every row an :class:`Evaluation` counted: test, calibration, not corrected, set aside.

    Keys ``rows``, ``test``, ``calibration`` (the corrected groups'), ``not_corrected`` (rows
    of the groups ``errors="mark"`` left out), ``groups_not_corrected`` and ``set_aside`` (the
    calibration rows of earlier batches that ``batch_choice="latest"`` left out).
    """
    test = sum(int(ev.corrections[g].n) for g in ev.groups)
    cal = sum(int(getattr(ev.corrections[g], "n_ratings", None)  # several raters: ratings
                  or ev.corrections[g].m0 + ev.corrections[g].m1) for g in ev.groups)
    totals = [_marked_totals(ev.marked_counts.get(g, ())) for g in ev.marked]
    other = sum(t.get("n", 0) + t.get("m0", 0) + t.get("m1", 0) for t in totals)
    aside = sum(_set_aside_batches(ev).values())
    return {"rows": test + cal + other + aside, "test": test, "calibration": cal,
            "not_corrected": other, "groups_not_corrected": len(ev.marked),
            "set_aside": aside}  # fmt: skip


def _set_aside_batches(ev: Any) -> dict[Any, int]:
    """Earlier batch → its calibration rows that ``batch_choice="latest"`` set aside (summed)."""
    out: dict[Any, int] = {}
    for batches in getattr(ev, "set_aside", {}).values():
        for b, rows in batches.items():
            out[b] = out.get(b, 0) + rows
    return out


def rows_sentence(ev: Any) -> str:
    """One line saying where every counted row went (the ``correct`` command's input rows)."""
    a = rows_accounting(ev)
    text = (f"Rows: {a['rows']} counted: {a['test']} test and {a['calibration']} calibration "
            f"rows in the {len(ev)} corrected group{'s' if len(ev) != 1 else ''}")  # fmt: skip
    if a["groups_not_corrected"]:
        k = a["groups_not_corrected"]
        text += f"; {a['not_corrected']} rows in the {k} group{'s' if k != 1 else ''} not corrected"
    if a["set_aside"]:
        listed = ", ".join(f"{b!r}: {r}" for b, r in _set_aside_batches(ev).items())
        text += (f"; {a['set_aside']} calibration rows of earlier batches of {ev.batch!r} set "
                 f"aside ({listed}): with batch choice 'latest' each group is corrected with its "
                 "latest batch only")  # fmt: skip
    return text + "."


def evaluation_counts_frame(ev: Any) -> pd.DataFrame:
    """Count table behind every correction: one row per group (and stratum, after merging)."""
    require_extra("pandas", "counts_dataframe()")
    import pandas as pd

    rows = []
    for g in ev.groups:
        c = ev.corrections[g]
        if _alphabet(c):  # one row per letter: test, human 0, human 1
            d = c.distribution
            for i, letter in enumerate(c.letters):
                cal = d.calibration.counts[i]
                rows.append({**_by_values(ev, g), "letter": letter, "n": int(d.test.counts[i]),
                             "human_0": int(cal[0]), "human_1": int(cal[1])})  # fmt: skip
            continue
        parts = (
            [(s, c.corrections[s]) for s in c.strata]
            if isinstance(c, StratifiedCorrection)
            else [(None, c)]
        )
        for s, part in parts:
            row = _by_values(ev, g)
            if s is not None and ev.strata:
                values = s if isinstance(s, tuple) and len(ev.strata) > 1 else (s,)
                row.update(zip(ev.strata, values, strict=True))
            t, cal = part.test, part.calibration
            row.update(n=t.n, positive=t.positive, tp=cal.tp, fn=cal.fn, tn=cal.tn, fp=cal.fp)
            rows.append(row)
    for g, why in ev.marked.items():  # not corrected: its rows are counted all the same
        rows += [{**_by_values(ev, g), **r, "marked": why} for r in ev.marked_counts.get(g, ())]
    return pd.DataFrame(rows)


def evaluation_xarray(ev: Any) -> xr.Dataset:
    """Build the Dataset of :meth:`Evaluation.to_xarray` (dims ``ev.dim``, ``ci_bound``)."""
    require_extra("xarray", "to_xarray()")
    import xarray as xr

    dim = ev.dim
    rows = [result_row(ev.corrections[g]) for g in ev.groups]
    every = ("estimate", "estimate_unclipped", "naive", "sensitivity", "specificity")
    names = tuple(k for k in every if k in rows[0])  # a judge alphabet has no sensitivity
    data: dict[str, Any] = {k: (dim, [float(r[k]) for r in rows]) for k in names}
    data.update({k: (dim, [int(r[k]) for r in rows]) for k in ("n", "m0", "m1")})
    data["clipped"] = (dim, [bool(r["clipped"]) for r in rows])
    data["ci"] = ((dim, "ci_bound"), [[r["ci_low"], r["ci_high"]] for r in rows])
    coords: dict[str, Any] = {"ci_bound": ["lower", "upper"]}
    if len(ev.by) == 1:
        coords[dim] = list(ev.groups)
    else:
        coords[dim] = [group_label(g) for g in ev.groups]
        for i, col in enumerate(ev.by):
            coords[col] = (dim, [g[i] for g in ev.groups])
    ds = xr.Dataset(data, coords=coords)
    ds.attrs.update(
        ci_kind=ev.method,
        ci_prob=ev.confidence_level,
        by=", ".join(ev.by),
        strata=", ".join(ev.strata or ()),
        judge=ev.judge,
        human=ev.human,
        split=ev.split or "",
        engine=ev.engine,
    )
    return ds


def _point(c: Any) -> str:
    """Return a group's point estimate as the summary prints it ("–": none, :func:`shows_point`)."""
    shown = shows_point(getattr(c, "sensitivity", None), getattr(c, "specificity", None))
    return f"{c.estimate:.4f}" if shown else "–"


#: How a judge alphabet's rate is fitted, per estimator family (:attr:`Design.family`).
_ALPHABET_FIT = {
    PAPER: "joint maximum likelihood",
    CONDITIONAL: "judge-conditional, design {design}",
}


def evaluation_summary(ev: Any) -> str:
    """Short text leaderboard of an :class:`Evaluation` (best corrected rate first)."""
    lvl = f"{100 * ev.confidence_level:g}%"
    labels = {g: shorten(shown_label(group_label(g))) for g in ev.groups}
    width = max(8, *(display_width(v) for v in labels.values()))
    strata = f", stratified by {', '.join(ev.strata)}" if ev.strata else ""
    if _is_alphabet(ev):
        fit = _ALPHABET_FIT[as_design(ev.design).family].format(design=ev.design)
        strata += f"; judge alphabet of {ev.judge!r}, {fit} over every letter"
    lines = [
        f"Corrected rates of {len(ev)} groups by {', '.join(ev.by)}{strata} ({ev.engine} "
        f"counts), {lvl} intervals by {ev.method}, design {ev.design}"
        + (f", human reference {ev.reference!r}" if getattr(ev, "reference", None) else ""),
        f"  {ev.dim:<{width}}  corrected  [ lower,  upper]   naive        n     m0     m1",
    ]
    order = sorted(ev.groups, key=lambda g: -ev.corrections[g].estimate)
    for g in order:
        c = ev.corrections[g]
        lines.append(
            f"  {pad(labels[g], width)}  {_point(c):>9}  [{c.ci.low:.4f}, {c.ci.high:.4f}]  "
            f"{'     –' if math.isnan(c.naive) else f'{c.naive:.4f}'}  {c.n:>7}  {c.m0:>5}  "
            f"{c.m1:>5}"
        )
    noun = "models" if ev.dim == "model" else "groups"  # a note 3+ groups share: one line
    widened = [labels[g] for g in order
               if (getattr(ev.corrections[g], "chosen_by", None) or "").startswith("widened")]
    if widened:  # method="auto" answered with a wider interval than the paper's for these
        lines.append(f"  auto widened the intervals of {named_groups(widened, noun)} of "
                     f"{len(ev)}: ev[group].chosen_by says why, ev[group].paper_ci is the "
                     "paper's adjusted-Wald interval")  # fmt: skip
    notes = [(labels[g], msg) for g in ev.groups for _, msg in ev.warnings.get(g, ())]
    lines += [f"  note: {line}" for line in gather_notes(notes, noun=noun)]
    lines += [f"  not corrected: {shown_label(group_label(g))}: {why}"
              for g, why in ev.marked.items()]  # fmt: skip
    if ev.ranking_error:
        lines.append(f"  no ranking: {ev.ranking_error}")
    lines.append(f"  {rows_sentence(ev)}")
    return "\n".join(lines)
