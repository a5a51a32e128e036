"""The text table the ``correct`` command prints: one row per model, aligned in terminal columns."""

from __future__ import annotations

import math
from typing import Any

from ..auto import widened_note
from ..gathered_notes import gather_notes
from ..results import display_width, pad, shorten, shown_label, shows_point
from .options import cli_words


# ----------------------------------------------------------------------------- output
def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return "-" if math.isnan(v) else f"{v:.4f}"
    return str(v)


def _table(title: str, rows: list[dict], args) -> str:
    lvl = f"{100 * args.confidence_level:g}%"
    named = sorted({str(r["estimator"]) for r in rows if r.get("estimator")})
    cols = [
        ("group", "group"),
        ("naive", "naive p"),
        ("estimate", f"corrected ({named[0]})" if len(named) == 1 else "corrected"),
        ("estimator", "estimator"),  # named in its own column where the rows differ
        ("ci", f"{lvl} CI ({args.method}, {args.design})"),
        ("method", "method"),
        ("paper_ci", "paper's CI (adjusted-wald)"),
        ("random_estimate", "corrected (random)"),
        ("random_ci", f"{lvl} CI (random design)"),
        ("calibrator", "calibrator"),  # a judge score's (cli.judges)
        ("lam", "λ̂"),
        ("combine", "combine"),  # a jury's (js.jury.correct_combined)
        ("weights", "weights"),  # a jury's
        ("coefficients", "coefficients (log-odds)"),  # a stack's: which judge carries it
        ("effective_labels", "effective labels"),
        ("human_rate", "human rate"),
        ("covered", "covered"),
        ("random_covered", "covered (random)"),
        ("n", "n"),
        ("m0", "m0"),
        ("m1", "m1"),
    ]
    cols = [
        c for c in cols
        if c[0] == "ci" or (any(r.get("method", args.method) != args.method for r in rows)
                            if c[0] == "method"  # named where it is not the one asked for
                            else len(named) > 1 if c[0] == "estimator"
                            else any(c[0] in r or c[0].replace("_ci", "_ci_low") in r
                                     for r in rows))
    ]  # fmt: skip
    cells = []
    for r in rows:  # long group names shortened here; --json keeps them whole
        point = shows_point(r.get("sensitivity"), r.get("specificity"))
        cells.append([_ci_text(r, k[:-2]) if k.endswith("ci") else
                      shorten(shown_label(_fmt(r.get(k)))) if k == "group" else
                      "-" if k == "estimate" and not point else _judge_cell(k, r)
                      for k, _ in cols])  # fmt: skip
    widths = [max(display_width(h), *(display_width(c[i]) for c in cells))
              for i, (_, h) in enumerate(cols)]  # fmt: skip
    lines = [title, ""]
    lines.append("  ".join(pad(h, w) for (_, h), w in zip(cols, widths, strict=True)))
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(pad(c, w) for c, w in zip(cell, widths, strict=True)) for cell in cells]
    who = [shown_label(str(r.get("group", "result"))) for r in rows]
    notes = [f"{g}: {r['error']}" for g, r in zip(who, rows, strict=True) if r.get("error")]
    notes += [f"{g}: {w}" for g, r in zip(who, rows, strict=True) for w in r.get("warnings", ())]
    notes += [f"{g}: fallback: {r['fallback']}" for g, r in zip(who, rows, strict=True)
              if r.get("fallback")]  # fmt: skip
    notes += gather_notes([(g, widened_note(r["chosen_by"], f"{r['paper_ci_low']:.4f}–"
                                                          f"{r['paper_ci_high']:.4f}"))
                           for g, r in zip(who, rows, strict=True) if "paper_ci_low" in r])
    if notes:
        lines += ["", *("note: " + cli_words(n) for n in notes)]
    return "\n".join(lines)


def _judge_cell(key: str, row: dict) -> str:
    """Return a cell of a judge score's or a jury's column (else :func:`_fmt`'s)."""
    v = row.get(key)
    if key == "calibrator" and row.get("fallback"):  # the fallback answered, not the score
        return "-"
    if key == "effective_labels":
        return "-" if v is None or not math.isfinite(v) else f"{v:.0f}"
    if key == "lam":
        return "-" if v is None else f"{v:.3f}"
    if key == "weights":
        return "-" if not v else ", ".join(f"{k} {w:.3f}" for k, w in v.items())
    if key == "coefficients":
        return "-" if not v else ", ".join(f"{k} {w:+.3f}" for k, w in v.items())
    return _fmt(v)


def _accounting(accounting: dict, args) -> str:
    """Return ``correct``'s last line: every input row, and why any was not used."""
    text = "input rows: " + ", ".join(f"{k} {v}" for k, v in accounting.items())
    why = getattr(args, "not_used", None)
    return text + (f" ({'; '.join(why)})" if why and accounting.get("not used") else "")


def _ci_text(row: dict, prefix: str) -> str:
    low, high = row.get(f"{prefix}ci_low"), row.get(f"{prefix}ci_high")
    return "-" if low is None else f"[{low:.4f}, {high:.4f}]"


def rows_csv(rows: list[dict], args: Any) -> str:
    """Return ``correct``'s rows as CSV: every field a column, in the order first seen.

    A jury's ``weights`` become ``weight[NAME]`` columns (a stack's ``coefficients``
    ``coefficient[NAME]``), a row's warnings one cell joined by
    "; "; the level and, where every row has none, the method and design are added as columns.
    """
    import csv
    import io

    flat = []
    for r in rows:
        row = {k: v for k, v in r.items() if k not in ("weights", "coefficients", "warnings")}
        row.update({f"weight[{k}]": w for k, w in (r.get("weights") or {}).items()})
        row.update({f"coefficient[{k}]": w for k, w in (r.get("coefficients") or {}).items()})
        if r.get("warnings"):
            row["warnings"] = "; ".join(r["warnings"])
        if r.get("letters"):  # a mean's J + 1 letters, one cell
            row["letters"] = " ".join(r["letters"])
        for key, value in (("method", args.method), ("design", args.design),
                           ("confidence_level", args.confidence_level)):  # fmt: skip
            row.setdefault(key, str(value) if value is not None else None)
        flat.append(row)
    fields = list(dict.fromkeys(k for r in flat for k in r))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(flat)
    return out.getvalue()
