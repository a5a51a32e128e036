"""An Inspect AI metric: the judge-corrected accuracy, computed inside an eval.

Inspect (the eval framework many teams run their LLM judges in) scores every sample with a
scorer, often an LLM judge, and summarises the scores with metrics such as ``accuracy()``.
When some samples carry a human label in their metadata (``Sample(..., metadata={"human":
1})``), :func:`corrected_accuracy` is a metric that treats those samples as the calibration
set and the others as the test set. It reports the corrected rate and its interval
(:func:`judgestats.correct`: Rogan–Gladen with the paper's adjusted-Wald interval by default)
beside the judge's own rate::

    from inspect_ai.scorer import accuracy, scorer
    from judgestats.inspect_metric import corrected_accuracy

    @scorer(metrics=[accuracy(), corrected_accuracy()])
    def judge(): ...

The scorer's verdicts are read as :func:`judgestats.readers.read_inspect` reads them:
Inspect's ``C``/``I``, booleans or 0/1, anything else through ``mapping=``. A metric sees each
value after Inspect's score reducer, which runs even with one epoch: the default (``"mean"``)
turns the letters ``C``, ``I``, ``P``, ``N`` into 1, 0, 0.5 and 0 (Inspect's
``value_to_float``), so a letter in ``mapping`` also maps its number (``{"P": 0}`` covers
0.5). With several epochs, give the scorer a reducer that keeps a verdict
(``epochs=Epochs(3, "mode")``): the mean of C and I is a fraction, which is refused (and the
mean of two epochs, 0.5, would read as ``P``). Needs ``judgestats[inspect]``; this module
imports Inspect, which ``import judgestats`` never does.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable
from typing import Any

from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    NOANSWER,
    PARTIAL,
    Metric,
    SampleScore,
    Value,
    metric,
    value_to_float,
)

from ._validation import (
    ArgumentTypeError,
    CountError,
    LabelError,
    MetricUndefinedWarning,
    NotInformativeError,
    binary_value,
    check_instance,
)
from .correct import correct_spec
from .counts import ConfusionCounts, JudgedCounts
from .designs import DEFAULT_DESIGN
from .intervals import rate_spec
from .readers.inspect import _verdict

__all__ = ["MetricUndefinedWarning", "corrected_accuracy"]


#: The entries of the metric's value.
_KEYS = ("corrected", "ci_low", "ci_high", "naive", "n", "m0", "m1")


def _human(value: Any, sample_id: Any, key: str) -> int | None:
    """Return a sample's human label from its metadata: 0/1, or None (a test sample)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if (label := binary_value(value)) is not None:
        return label
    raise LabelError(
        f"sample {sample_id!r}: metadata[{key!r}] must be 0/1 or a boolean (or absent on a test "
        f"sample), got {value!r}"
    )


def _counts(scores: list[SampleScore], human: str, mapping: dict) -> tuple:
    judged: list[int] = []
    cal_judge: list[int] = []
    cal_human: list[int] = []
    for s in scores:
        try:
            verdict = _verdict(s.score.value, mapping, f"sample {s.sample_id!r}")
        except TypeError as exc:  # a list or dict value cannot be looked up in mapping
            raise LabelError(
                f"sample {s.sample_id!r}: the score value {s.score.value!r} is not one verdict"
            ) from exc
        except LabelError as exc:
            if not isinstance(s.score.value, float):
                raise
            raise LabelError(
                f"{exc}: a metric sees the value after Inspect's score reducer, which turns "
                "C/I/P/N into 1/0/0.5/0 even with one epoch and takes the mean of several "
                "epochs; map the letter (e.g. mapping={'P': 0}), or with several epochs keep "
                "one verdict per sample (epochs=Epochs(n, 'mode'))"
            ) from exc
        label = _human((s.sample_metadata or {}).get(human), s.sample_id, human)
        if label is None:
            judged.append(verdict)
        else:
            cal_judge.append(verdict)
            cal_human.append(label)
    if not judged or not cal_human:
        raise CountError(
            f"corrected_accuracy needs samples with metadata[{human!r}] (calibration) and "
            f"samples without it (test); got {len(cal_human)} and {len(judged)}"
        )
    return (
        JudgedCounts.from_labels(judged),
        ConfusionCounts.from_labels(human=cal_human, judge=cal_judge),
    )


def _reduced_mapping(verdicts: dict) -> dict:
    """Return ``verdicts`` with each Inspect letter's reduced number mapped as the letter is.

    Inspect's score reducer hands a metric ``value_to_float(letter)`` (C 1, I 0, P 0.5, N 0),
    so ``{"P": 0}`` must also send 0.5 to 0. A letter sent where its number cannot follow (``N``
    to 1 while ``I``, also 0 once reduced, stays 0) is refused: the eval could not tell them apart.
    """
    to_float = value_to_float()
    out = dict(verdicts)
    for letter in (CORRECT, INCORRECT, PARTIAL, NOANSWER):
        if letter not in verdicts:
            continue
        number, label = to_float(letter), binary_value(verdicts[letter])
        # what the number counts as without this letter: the mapping's entry, else itself
        other = verdicts.get(number, binary_value(number))
        if other is not None and other != label:
            raise LabelError(
                f"mapping sends {letter!r} to {label}, but Inspect's score reducer turns "
                f"{letter!r} into {number}, which counts as {other}: inside an eval the two "
                f"cannot be told apart; give that verdict a score value of its own"
            )
        out[number] = label
    return out


def _keep_doc(func: Callable[..., Metric]) -> Callable[..., Metric]:
    """Register ``func`` as an Inspect metric and keep its docstring and signature for help()."""
    return functools.update_wrapper(metric(func), func)


@_keep_doc
def corrected_accuracy(
    human: str = "human",
    method: str | None = None,
    confidence_level: float = 0.95,
    design: str = DEFAULT_DESIGN,
    mapping: dict | None = None,
    random_seed: int | None = None,
) -> Metric:
    """Return an Inspect metric: the judge-corrected accuracy with its interval.

    Parameters
    ----------
    human : str, default "human"
        Sample metadata key of the human label (0/1 or boolean); samples without it (or with
        None) are test samples.
    method : str, optional
        Interval method of :func:`judgestats.correct`; by default its default for ``design``
        (``"auto"`` under ``"by-human-label"``: the paper's adjusted-Wald interval, widened
        where it may under-cover; ``method="adjusted-wald"`` gives the paper's interval exactly).
    confidence_level : float, default 0.95
        Two-sided level.
    design : str, default "by-human-label"
        How the human-labelled samples were chosen (:mod:`judgestats.designs`).
    mapping : dict, optional
        Verdict → 0/1 (or a boolean) for scorer values other than C/I, booleans and 0/1, e.g.
        ``{"P": 0}`` for partial credit counted as incorrect. An Inspect letter (``C``, ``I``,
        ``P``, ``N``) also maps the number Inspect's score reducer makes of it (1, 0, 0.5, 0),
        which is what the metric receives inside an eval, even with one epoch.
    random_seed : int, optional
        Seed of the resampling methods (``"bootstrap"``), so a rerun gives the same interval.

    Returns
    -------
    Metric
        Its value is a dict: ``corrected``, ``ci_low``, ``ci_high`` (the interval at
        ``confidence_level``), ``naive`` (the judge's rate on the test samples), ``n``, ``m0``,
        ``m1``; all NaN, with a :class:`MetricUndefinedWarning`, where the correction is
        undefined on the samples given. A human label other than 0/1, or a verdict neither
        C/I, boolean, 0/1 nor in ``mapping``, is a ``LabelError``, which ends the eval.

    Raises
    ------
    ArgumentTypeError
        ``mapping`` sends a verdict to something other than 0/1.
    MethodError
        An unknown design, or a method the capability table does not have for it
        (:mod:`judgestats.designs.capabilities`): checked once, when the metric is made.
    LabelError
        ``mapping`` sends a letter where its reduced number cannot follow (``{"N": 1}``: ``N``
        and ``I`` are both 0 once Inspect has reduced them).

    Examples
    --------
    Partial credit counted as incorrect::

        @scorer(metrics=[accuracy(), corrected_accuracy(mapping={"P": 0})])
        def judge(): ...
    """
    check_instance("human", human, str)
    spec = rate_spec(method=method, confidence_level=confidence_level, design=design,
                     method_optional=True)  # fmt: skip
    verdicts = dict(check_instance("mapping", mapping or {}, dict))
    bad = {k: v for k, v in verdicts.items() if binary_value(v) is None}
    if bad:
        raise ArgumentTypeError(f"mapping must send each verdict to 0 or 1, got {bad!r}")
    verdicts = _reduced_mapping(verdicts)
    if random_seed is not None:
        check_instance("random_seed", random_seed, int)

    def compute(scores: list[SampleScore]) -> Value:
        try:
            test, cal = _counts(scores, human, verdicts)
            res = correct_spec(spec, test, cal, rng=random_seed)
        except (CountError, NotInformativeError) as exc:
            # Inspect also computes metrics on the samples scored so far, where one human class
            # may not have appeared yet: an exception there would end the whole eval
            warnings.warn(f"corrected_accuracy is undefined on {len(scores)} samples: {exc}",
                          MetricUndefinedWarning, stacklevel=2)  # fmt: skip
            return dict.fromkeys(_KEYS, math.nan)
        return {
            "corrected": res.estimate,
            "ci_low": res.ci.low,
            "ci_high": res.ci.high,
            "naive": res.naive,
            "n": res.n,
            "m0": res.m0,
            "m1": res.m1,
        }

    return compute
