"""The report of an evaluation against several human raters: the reference, the raters, the judge.

``evaluate(frame, rater=, cluster=, reference=)`` gives one
:class:`~judgestats.evaluate.raters.RaterCorrection` per group; its report
(``ev.report()`` or :func:`judgestats.report.report`, which hands such an evaluation here)
has four parts:

1. the corrected rates, one row per group, with the calibration items, the ratings and the
   items the reference left out, and a sentence naming the **reference** (and the tie rule or
   the model) and the interval;
2. **the human raters beside the judge**, one row per group: the raters' Krippendorff's α and
   Fleiss' κ with their cluster-bootstrap intervals over items
   (:func:`judgestats.raters.krippendorff_alpha`, :func:`~judgestats.raters.fleiss_kappa`),
   the raters' mean percent agreement with each other, the judge's with each rater and with the
   majority (:func:`~judgestats.raters.judge_agreement`);
3. each group's pairs (up to :data:`PAIR_TABLES` groups): the agreement card's rater section
   (:func:`judgestats.agreement.card.rater_pairs`), the judge against each rater and the
   majority with intervals, the raters' own pairs beside them;
4. **the alternative annotator test** per group (:func:`judgestats.raters.alt_test`, margin
   ``epsilon``, Benjamini–Yekutieli at ``alpha``): passes or fails, the winning rate, or why
   it could not run (fewer than two raters, too few shared items).

With ``reference="latent", method="bayes"`` (the PyMC twin, :func:`judgestats.bayes.fit_raters`)
the sentence names the credible interval and each group's sampler line follows the tables:
chains × draws, the largest R-hat, the smallest ESS and the divergences.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import JudgeStatsError, check_choice, check_positive_int
from ..results import group_label
from .tables import html_table, latex_tabular, markdown_table

__all__ = ["PAIR_TABLES", "RATER_FORMATS", "rater_report", "raters_rows"]

#: The formats of :func:`rater_report`.
RATER_FORMATS = ("markdown", "latex", "html")
#: Up to this many groups, the report shows each group's pairs (the judge against each rater
#: and the majority, the raters' pairs: :func:`judgestats.agreement.card.rater_pairs`).
PAIR_TABLES = 12
_REFERENCE_WORDS = {
    "rater": "a single random rater's label (every rating a calibration row, items as clusters)",
    "majority": "the raters' majority label (one calibration row per item)",
    "latent": "the latent true class of a Dawid–Skene model with the judge as one more rater",
}


@dataclass(frozen=True, slots=True)
class RatersRow:
    """One group's raters beside its judge (module docstring, parts 2 and 3)."""

    label: str
    alpha: tuple  # (estimate, low, high); low and high None without an interval
    kappa: tuple
    between: float  # the raters' mean percent agreement over their pairs
    judge_raters: float  # the judge's mean percent agreement with each rater
    judge_majority: float
    alt_test: str  # the verdict, or why there is none
    pairs: Any = None  # the JudgeAgreement: the judge and the raters, pair by pair


def _coefficient(res: Any) -> tuple:
    low, high = (None, None) if res.ci is None else (res.ci.low, res.ci.high)
    return res.estimate, low, high


def _alt(ratings: Any, epsilon: float, alpha: float) -> str:
    from ..raters import alt_test

    try:
        res = alt_test(ratings, epsilon=epsilon, alpha=alpha)
    except JudgeStatsError as exc:
        return f"not run: {exc}"
    verdict = "passes" if res.passed else "fails"
    return f"{verdict} (winning rate {res.winning_rate:.2f} over {len(res.raters)} raters)"


def raters_rows(ev: Any, *, epsilon: float = 0.1, alpha: float = 0.05, n_boot: int = 500,
                rng: Any = 0) -> list[RatersRow]:  # fmt: skip
    """Return each group's raters beside its judge (module docstring, parts 2 and 3).

    Parameters
    ----------
    ev : Evaluation
        From ``evaluate(..., rater=)``.
    epsilon, alpha : float
        The alternative annotator test's margin and false discovery rate level.
    n_boot : int
        Bootstrap resamples of α and κ.
    rng : None, int or numpy.random.Generator
        Randomness of the bootstraps and the majority's random ties.
    """
    from ..raters import fleiss_kappa, judge_agreement, krippendorff_alpha

    level = ev.confidence_level
    gen = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    rows = []
    for g in ev.groups:
        r = ev.corrections[g].ratings
        a = krippendorff_alpha(r, confidence_level=level, n_boot=n_boot, rng=gen)
        k = fleiss_kappa(r, confidence_level=level, n_boot=n_boot, rng=gen)
        j = judge_agreement(r, ties="random", rng=gen, confidence_level=level)
        between = [p.percent for p in j.between_raters if p.n_items]
        rows.append(RatersRow(
            group_label(g), _coefficient(a), _coefficient(k),
            float(np.mean(between)) if between else float("nan"),
            float(np.mean([p.percent for p in j.with_raters if p.n_items])),
            float(j.with_majority.percent), _alt(r, epsilon, alpha), j,
        ))  # fmt: skip
    return rows


def _num(x: Any, d: int) -> str:
    return "–" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:.{d}f}"


def _ci(t: tuple, d: int) -> str:
    est, low, high = t
    return _num(est, d) + ("" if low is None else f" [{_num(low, d)}, {_num(high, d)}]")


def _tables(ev: Any, rows: list[RatersRow], d: int) -> list[tuple[str, list[str], list]]:
    """Return the report's two tables: (caption, header, rows) each."""
    rates = []
    for g in sorted(ev.groups, key=lambda g: -ev.corrections[g].estimate):
        c = ev.corrections[g]
        rates.append([group_label(g), _num(c.estimate, d), _num(c.ci.low, d), _num(c.ci.high, d),
                      _num(c.naive, d), str(c.n), str(c.n_items), str(c.n_ratings),
                      str(len(c.left_out))])  # fmt: skip
    head = [ev.dim, "corrected", "lower", "upper", "naive", "test items", "calibration items",
            "ratings", "left out"]  # fmt: skip
    lvl = f"{100 * ev.confidence_level:g}%"
    side = [[r.label, _ci(r.alpha, d), _ci(r.kappa, d), _num(r.between, d),
             _num(r.judge_raters, d), _num(r.judge_majority, d), r.alt_test] for r in rows]
    side_head = [ev.dim, f"raters' alpha [{lvl}]", f"raters' kappa [{lvl}]", "raters agree",
                 "judge agrees with a rater", "judge agrees with the majority",
                 "alternative annotator test"]  # fmt: skip
    tables = [("Corrected rates", head, rates),
              ("The human raters beside the judge", side_head, side)]
    if len(rows) <= PAIR_TABLES:  # the agreement card's rater section, per group
        from ..agreement.card import rater_pairs

        for r in rows:
            pair_head, pair_rows = rater_pairs(r.pairs, d)
            tables.append((f"{r.label}: the judge and the raters, pair by pair", pair_head,
                           pair_rows))  # fmt: skip
    return tables


def _sentence(ev: Any, epsilon: float, alpha: float) -> str:
    c = next(iter(ev.corrections.values()))
    ties = f" (ties: {c.ties!r}, items with fewer than {c.min_raters} raters left out)" \
        if ev.reference == "majority" else ""
    how = f"{ev.method} intervals" if c.diagnostics is None else (
        f"Bayesian credible intervals (posterior {c.result.interval}; NUTS, diagnostics below)")
    return (
        f"Each rate is that of {_REFERENCE_WORDS[ev.reference]}{ties}: human reference "
        f"{ev.reference!r}, estimated by {c.estimator} with {100 * ev.confidence_level:g}% "
        f"{how} (design {ev.design!r}). Beside it, the raters' agreement "
        "(Krippendorff's alpha and Fleiss' kappa, cluster-bootstrap intervals over items; percent "
        "agreement averaged over pairs) and the judge's, and the alternative annotator test "
        f"(Calderon et al. 2025; epsilon {epsilon}, Benjamini–Yekutieli at {alpha}): can the "
        "judge replace one of the raters."
    )


def rater_report(ev: Any, format: str = "markdown", *, digits: int = 3, epsilon: float = 0.1,
                 alpha: float = 0.05, n_boot: int = 500, rng: Any = 0,
                 title: str | None = None) -> str:  # fmt: skip
    """Write the report of an evaluation against several raters (module docstring).

    Parameters
    ----------
    ev : Evaluation
        From ``evaluate(..., rater=, reference=)``.
    format : {"markdown", "latex", "html"}
        The document's format (HTML: a fragment of headings and tables).
    digits : int
        Decimals in the tables.
    epsilon, alpha, n_boot, rng
        As :func:`raters_rows`.
    title : str, optional
        Default "Corrected rates against the raters' <reference>".

    Returns
    -------
    str

    Examples
    --------
    Three raters (one weak) label 150 of 500 answers; the judge labels every answer:

    >>> import numpy as np
    >>> import pandas as pd
    >>> import judgestats as js
    >>> from judgestats.report.raters import rater_report
    >>> gen = np.random.default_rng(2)
    >>> truth = gen.random(500) < 0.4
    >>> judge = np.where(truth, gen.random(500) < 0.85, gen.random(500) < 0.15).astype(int)
    >>> rows = [(i, f"r{r}", int(truth[i] ^ (gen.random() > acc)), judge[i])
    ...         for i in range(150) for r, acc in enumerate([0.9, 0.9, 0.7])]
    >>> rows += [(i, None, None, judge[i]) for i in range(150, 500)]
    >>> frame = pd.DataFrame(rows, columns=["item", "rater", "human", "judge"]).assign(model="m")
    >>> ev = js.evaluate(frame, rater="rater", cluster="item", reference="rater",
    ...                  design="random", method="adjusted-wald")
    >>> text = rater_report(ev, "markdown", n_boot=200)
    >>> print(text.splitlines()[0])
    ## Corrected rates against the human reference 'rater'
    >>> "alternative annotator test" in text
    True
    """
    check_choice("format", format, RATER_FORMATS)
    d = check_positive_int("digits", digits)
    rows = raters_rows(ev, epsilon=epsilon, alpha=alpha, n_boot=n_boot, rng=rng)
    title = title or f"Corrected rates against the human reference {ev.reference!r}"
    tables = _tables(ev, rows, d)
    notes = [f"{group_label(g)}: sampler: {ev.corrections[g].diagnostics.describe()}"
             for g in ev.groups if ev.corrections[g].diagnostics is not None]  # fmt: skip
    notes += [f"{group_label(g)}: {n}" for g in ev.groups for n in ev.corrections[g].notes]
    notes += [f"not corrected: {group_label(g)}: {why}" for g, why in ev.marked.items()]
    sentence = _sentence(ev, epsilon, alpha)
    if format == "markdown":
        out = [f"## {title}", "", sentence, ""]
        for caption, head, body in tables:
            out += [f"### {caption}", "", *markdown_table(head, body), ""]
        out += [f"- {n}" for n in notes]
        return "\n".join(out).rstrip() + "\n"
    if format == "latex":
        from .tables import tex

        out = [f"\\section*{{{tex(title)}}}", tex(sentence), ""]
        for caption, head, body in tables:
            out += [f"\\subsection*{{{tex(caption)}}}",
                    *latex_tabular(head, body, "l" + "r" * (len(head) - 1)), ""]  # fmt: skip
        out += [f"{tex(n)}\\par" for n in notes]
        return "\n".join(out).rstrip() + "\n"
    import html

    out = [f"<h2>{html.escape(title)}</h2>", f"<p>{html.escape(sentence)}</p>"]
    for caption, head, body in tables:
        out += [f"<h3>{html.escape(caption)}</h3>", *html_table(head, body)]
    out += [f"<p>{html.escape(n)}</p>" for n in notes]
    return "\n".join(out) + "\n"
