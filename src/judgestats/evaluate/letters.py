"""A judge alphabet per group: every group's letters corrected under one spec.

With several judge columns, ``judge_labels=``, ``bins=`` or ``invalid=``, the frame is counted
per group and letter (:func:`judgestats.alphabets.groups.letter_counts`) and each group's rate
is the joint fit over every letter (:func:`judgestats.alphabets.groups.correct_alphabet`). Two
or more 0/1 judge columns alone, under a design with a jury's row in the capability table (the
paper's), are a jury instead (:func:`judgestats.jury.correct_jury`, ``method="min-variance"``,
its row's default; issue 39); a method of the judge alphabet's row named keeps the joint fit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._validation import (
    ArgumentTypeError,
    ClusteredCountsError,
    JudgeStatsError,
    LabelError,
    check_choice,
    check_group_sizes,
    check_positive_int,
    check_rng,
)
from ..spec import EstimationSpec
from .evaluation import Evaluation
from .per_group import correct_each, corrected, group_key

if TYPE_CHECKING:  # pragma: no cover
    from ..alphabets.groups import AlphabetCorrection, LetterCounts
    from ..jury.correction import JuryCorrection

__all__ = [
    "COMBINE",
    "LETTER_OPTIONS",
    "check_letters_call",
    "evaluate_letters",
    "jury_wanted",
    "letter_options",
    "letters_wanted",
]

#: Options of a judge alphabet's correction beside its interval method's (``evaluate(**options)``).
LETTER_OPTIONS = ("min_count",)
#: How several judges' verdicts are combined (``evaluate(combine=)``): the product letters here;
#: ``"stack"`` and ``"mean"`` go to :mod:`judgestats.evaluate.juries`.
COMBINE = ("letters", "stack", "mean")


def letters_wanted(judge: Any, judge_labels: Any, bins: Any, invalid: Any) -> bool:
    """Tell a judge alphabet: several judge columns, or judge_labels=, bins= or invalid=."""
    return not isinstance(judge, str) or any(v is not None for v in (judge_labels, bins, invalid))


def jury_wanted(judge: Any, plain: bool, design: Any, method: Any, alphabet_methods: Any,
                repeated: bool = False) -> bool:  # fmt: skip
    """Tell a jury: two or more 0/1 judge columns alone, under a design with a jury's row.

    ``plain``: no ``judge_labels``, ``bins`` or ``invalid``; a method of the judge alphabet's
    row named (``alphabet_methods``) keeps the joint fit. ``repeated``: ``cluster=`` given
    (the jury's row for repeated items; the joint fit has none, so a method named there is
    the jury's row's to refuse).
    """
    from ..designs import as_design
    from ..designs.capabilities import rows

    if not plain or isinstance(judge, str) or not hasattr(judge, "__len__") or len(judge) < 2:
        return False  # a bad judge= is named by the letters' own checks
    found = any(r.matches("jury", "rate", as_design(design), repeated) for r in rows())
    return found and (repeated or method is None or method not in alphabet_methods)


def _binary_products(alphabet: tuple) -> bool:
    from ..jury.correction import verdicts_or_none

    return all(verdicts_or_none(letter) is not None for letter in alphabet)


def letter_options(design: Any, method: str) -> tuple[str, ...]:
    """Return the options an interval method of a judge alphabet takes."""
    return ("n_resamples",) if method == "bootstrap" else ()


def check_letters_call(*, strata: Any, rank: bool, options: dict, combine: Any = None) -> None:
    """Refuse what a judge alphabet cannot do, and check ``min_count``, before reading data.

    ``combine``: None or ``"letters"`` (the product letters); ``"stack"``/``"mean"`` here (a
    judge alphabet's ``judge_labels=``/``invalid=`` given) are refused by name.
    """
    if combine not in (None, "letters"):
        check_choice("combine", combine, COMBINE)
        raise ArgumentTypeError(
            f"combine={combine!r} takes the judge columns as they are: drop judge_labels= and "
            "invalid= (a judge alphabet's letters), or use combine='letters'"
        )
    if strata is not None:
        raise JudgeStatsError(
            "strata= is not available with a judge alphabet; evaluate each stratum as a group "
            "(by=[..., stratum column]) instead"
        )
    if rank:
        raise JudgeStatsError(
            "rank=True is not available with a judge alphabet; compare the groups' intervals"
        )
    if "min_count" in options:  # checked before the data are read, not once per group
        check_positive_int("min_count", options["min_count"], minimum=1)


def _letter_rows(counts: LetterCounts, key: tuple) -> tuple[dict, ...]:
    """Return the letter counts of a group not corrected (as ``counts_dataframe`` has them)."""
    t, c = counts.test[key], counts.calibration[key]
    return tuple(
        {"letter": letter, "n": int(t[i]), "human_0": int(c[i][0]), "human_1": int(c[i][1])}
        for i, letter in enumerate(counts.alphabet) if t[i] or c[i].any()
    )  # fmt: skip


def evaluate_letters(
    frame: Any, spec: EstimationSpec, *, columns: dict[str, Any], rng: Any, errors: str,
    progress: bool | None, stacklevel: int, options: dict,
    alphabet: EstimationSpec | None = None,
) -> Evaluation:  # fmt: skip
    """Correct the judge alphabet of every group of a frame under ``spec`` (see evaluate).

    ``columns``: ``judge``, ``human``, ``by``, ``split``, ``judge_labels``, ``bins`` and
    ``invalid`` of :func:`judgestats.alphabets.groups.letter_counts`. A jury's ``spec``
    (``spec.judge == "jury"``) whose judge columns turn out not to be 0/1 gives way to
    ``alphabet`` (the joint fit's default spec), or, where a jury's method was named, errs.
    """
    # loaded on first use: `import judgestats` stays light
    from ..alphabets.groups import correct_alphabet, letter_counts
    from ..jury.correction import correct_jury

    counts = letter_counts(frame, **columns)
    if spec.judge == "jury" and not _binary_products(counts.alphabet):
        if counts.clusters is not None:
            raise ClusteredCountsError(
                f"cluster= with a judge alphabet is not supported yet: the judge columns "
                f"{list(counts.judge)!r} hold values other than 0/1 (letters "
                f"{list(counts.alphabet)!r}); a jury with repeated items takes 0/1 judges"
            )
        if alphabet is None:
            raise LabelError(
                f"method {spec.method!r} combines 0/1 judges, but the judge columns "
                f"{list(counts.judge)!r} hold other values (letters {list(counts.alphabet)!r})"
            )
        spec = alphabet
    gen = check_rng(rng)
    k = len(counts.by)
    groups = [group_key(key, k) for key in counts.groups]
    if not groups:
        raise JudgeStatsError("the frame has no rows: nothing to evaluate")
    keys = dict(zip(groups, counts.groups, strict=True))

    def correct_group(g: Any, label: str) -> AlphabetCorrection | JuryCorrection:
        m0, m1 = counts.calibration[keys[g]].sum(axis=0).tolist()
        check_group_sizes(label, n=int(counts.test[keys[g]].sum()), m0=m0, m1=m1,
                          split=counts.split,
                          both_classes=spec.design.needs_both_classes)  # fmt: skip
        test, cal = counts.pair(keys[g])
        if spec.judge == "jury":
            jury = {k: v for k, v in options.items() if k != "min_count"}
            return correct_jury(test, cal, judges=counts.judge, method=spec.method,
                                confidence_level=spec.confidence_level, design=spec.design,
                                estimand=spec.estimand, **jury)  # fmt: skip
        return correct_alphabet(test, cal, method=spec.method,
                                confidence_level=spec.confidence_level, rng=gen,
                                design=spec.design, **options)  # fmt: skip

    corrections, issued, marked = correct_each(counts.by, groups, correct_group, errors=errors,
                                               stacklevel=stacklevel + 1,
                                               progress=progress)  # fmt: skip
    groups = corrected(counts.by, groups, corrections, marked)
    return Evaluation(
        groups=tuple(groups), corrections=corrections, by=counts.by, strata=None,
        method=spec.method, confidence_level=spec.confidence_level,
        judge=", ".join(counts.judge), human=counts.human, split=counts.split,
        engine=counts.engine, warnings=issued, design=spec.design, marked=marked,
        marked_counts={g: _letter_rows(counts, keys[g]) for g in marked},
    )  # fmt: skip
