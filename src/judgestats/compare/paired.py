"""θ_A − θ_B of two systems on the same items: paired prediction-powered arms (PPI++).

Two systems answered the same prompts, one judge (a score) or one jury (a list of judges)
judged both answers, and humans labelled both answers on the same random prompts
(``design="random"``). Each arm is the PPI++ mean of its human label with its own cross-fitted
predictor (:func:`paired_score_difference`: the score's calibration,
:mod:`judgestats.scores.calibration`; :func:`paired_jury_difference`: the jury's stack,
:mod:`judgestats.jury.stack`), both arms cross-fitted on the same folds, each with its own power
tuning λ̂_A, λ̂_B (:mod:`judgestats.scores.prediction_powered`).

**The joint variance.** Linearised, θ̂_A − θ̂_B − (θ_A − θ_B) ≈ Σ_c (φ_A,c − φ_B,c) over items
c, with φ_c = u_c + λ̂ v_c each arm's influence term. Since u and v are linear in the label and
the prediction, φ_A − φ_B is the influence term of the label difference y_A − y_B with the
prediction λ̂_A f_A − λ̂_B f_B at λ = 1, so the joint variance is that one PPI variance (summed
over items; with ``cluster=`` the cluster-robust sandwich): the covariance of the paired items
enters without a separate formula. Where the two arms' errors are positively correlated (the
same prompts are hard for both systems) it is narrower than the independent arms' sum; the
result says which was used (``pairing``).

**Rare class.** Where an arm has fewer than
:data:`~judgestats.scores.prediction_powered.RARE_CLASS_LABELS` labelled items of a human class
(θ = 0.03–0.1 at 100–400 labels), that arm's PPI++ variance is too small
(:func:`~judgestats.scores.prediction_powered.pseudo_label_variance`, the one home of the
adjustment, used by ``correct_scores`` and the stack). The difference takes, for each such
arm, what its rare-class adjustment adds to its variance (``fit_ppi(..., rare_adjust=True)``
less PPI++'s, λ held at λ̂), and adds it to the joint variance: the pseudo-labels of one arm
are items of that arm alone, with no covariance with the other. Measured (part E of
``benchmarks/results/compare_scores.md``, θ_A, θ_B ∈ {0.03, 0.05, 0.1} × 100–400 labels and
random cells): in the 23 cells where some arm was rare, coverage 0.895–0.970 before and
0.945–0.998 after, at 1.00–1.45× the width; in the 9 where none was, the width unchanged
(1.000×).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._validation import ArgumentTypeError, LabelError, check_choice, check_rng
from .sources import PAIRED, ResultDifference, _check_names, _wald

__all__ = ["paired_jury_difference", "paired_score_difference"]


def _paired_labels(rows: int, human_a: Any, human_b: Any, cluster: Any) -> tuple:
    """Return (y_a, y_b, labelled, items) of two arms paired row by row, checked."""
    from ..scores.correction import _human, _items

    y_a, lab_a = _human(human_a, rows)
    y_b, lab_b = _human(human_b, rows)
    if not np.array_equal(lab_a, lab_b):
        first = int(np.flatnonzero(lab_a != lab_b)[0])
        raise LabelError(
            "paired arms need the same labelled rows in human_a and human_b (both systems' "
            f"answers labelled on the same prompts); they differ first at row {first}. With "
            "separate labelled sets, correct each arm and use compare.difference_of"
        )
    return y_a, y_b, lab_a, _items(cluster, rows)


def _paired_scores(scores_a: Any, scores_b: Any) -> tuple[np.ndarray, np.ndarray]:
    from ..scores.correction import _scores

    for name, value in (("scores_a", scores_a), ("scores_b", scores_b)):
        if np.ndim(value) == 2:
            raise ArgumentTypeError(
                f"{name} has shape {np.shape(value)}: one score per row; a jury's columns (a "
                "list of judges) take compare.paired_jury_difference"
            )
    s_a, s_b = _scores(scores_a), _scores(scores_b)
    if s_a.size != s_b.size:
        raise ArgumentTypeError(
            f"scores_a and scores_b must be paired row by row (the same prompts in the same "
            f"order), got {s_a.size} and {s_b.size} rows"
        )
    return s_a, s_b


def _labelled_items(y: np.ndarray, lab: np.ndarray, items: np.ndarray | None,
                    per_system: str) -> np.ndarray:  # fmt: skip
    """Return the item of each labelled row, refusing fewer than MIN_SCORE_LABELS items."""
    from ..scores.correction import MIN_SCORE_LABELS

    lab_items = np.arange(y.size) if items is None else items[lab]
    n_items = int(np.unique(lab_items).size)
    if n_items < MIN_SCORE_LABELS:
        raise ArgumentTypeError(
            f"only {n_items} labelled items (< {MIN_SCORE_LABELS}): the cross-fitted "
            f"predictor is not used below that; {per_system} and compare them with "
            "compare.difference_of"
        )
    return lab_items


def _item_args(items: np.ndarray | None, lab: np.ndarray) -> dict[str, Any]:
    if items is None:
        return {}
    return {"items_lab": items[lab], "items_unl": items[~lab]}


def _rare_note(name: str, y: np.ndarray) -> str:
    ones = int(np.sum(y == 1))
    cls, count = (1, ones) if ones <= y.size - ones else (0, y.size - ones)
    return (f"{name}: a rare human class ({count} labelled rows of class {cls}): its PPI++ "
            "variance with two pseudo-labels of each class added to the difference's")


def paired_arms(
    fits: tuple[Any, Any], y_a: np.ndarray, y_b: np.ndarray, lab: np.ndarray,
    items: np.ndarray | None, *, names: tuple[str, str], level: float,
    sources: tuple[str, str], rare_adjust: bool = True,
) -> ResultDifference:  # fmt: skip
    """Return θ̂_A − θ̂_B of two cross-fitted arms with its joint variance (module docstring).

    Parameters
    ----------
    fits : (CrossFit or StackFit, same)
        Each arm's out-of-fold predictions of its labelled rows (``labelled``) and its
        predictions of the unlabelled rows (``unlabelled``).
    y_a, y_b : ndarray
        Each arm's human labels on the labelled rows (the same rows).
    lab : ndarray of bool
        The labelled rows.
    items : ndarray of int or None
        The item of each row (``cluster=``), or None: every row its own item.
    names, level, sources
        Stored on the result.
    rare_adjust : bool, default True
        Whether each rare arm's rare-class variance is added (False: PPI++'s alone, for the
        benchmark's before/after from one fit).
    """
    from ..scores.prediction_powered import fit_ppi

    args = _item_args(items, lab)
    arms, extra, notes = [], 0.0, []
    for name, fit, y in zip(names, fits, (y_a, y_b), strict=True):
        plain = fit_ppi(y, fit.labelled, fit.unlabelled, **args)
        adjusted = fit_ppi(y, fit.labelled, fit.unlabelled, lam=plain.lam, **args,
                           rare_adjust=rare_adjust)  # fmt: skip
        arms.append(adjusted)
        if adjusted.variance > plain.variance:
            extra += adjusted.variance - plain.variance
            notes.append(_rare_note(name, y))
    lam_a, lam_b = arms[0].lam, arms[1].lam
    joint = fit_ppi(y_a - y_b, lam_a * fits[0].labelled - lam_b * fits[1].labelled,
                    lam_a * fits[0].unlabelled - lam_b * fits[1].unlabelled, lam=1.0,
                    **args)  # fmt: skip
    variance = joint.variance + extra
    cov = 0.5 * (arms[0].variance + arms[1].variance - variance)
    ci, se, pvalue = _wald(joint.estimate, variance, level)
    return ResultDifference(
        estimate=float(joint.estimate), ci=ci, standard_error=se, pvalue=pvalue,
        estimate_a=arms[0].estimate, estimate_b=arms[1].estimate,
        variance_a=arms[0].variance, variance_b=arms[1].variance, covariance=float(cov),
        pairing=PAIRED, names=names, confidence_level=level, sources=sources,
        lam=(lam_a, lam_b), notes=tuple(notes),
    )  # fmt: skip


def paired_score_difference(
    scores_a: Any, scores_b: Any, human_a: Any, human_b: Any, *, cluster: Any = None,
    calibrator: str = "isotonic", folds: int = 5, names: tuple[str, str] = ("A", "B"),
    confidence_level: float = 0.95, design: str = "random", rng: Any = None,
) -> ResultDifference:  # fmt: skip
    """θ_A − θ_B of two systems whose answers to the same prompts a judge scored (paired PPI++).

    Row i is one prompt: system A's answer has judge score ``scores_a[i]`` and human label
    ``human_a[i]``, system B's ``scores_b[i]`` and ``human_b[i]``; the same rows are labelled
    for both (a random sample of the prompts, ``design="random"``). Each arm is
    :func:`judgestats.scores.correct_scores`'s estimator (cross-fitted calibration with the
    same folds for both arms, PPI++ with its own λ̂); the difference's variance is the joint
    one over items (module docstring), so the prompts both systems share enter it, with each
    rare arm's rare-class adjustment added.

    Parameters
    ----------
    scores_a, scores_b : 1-D array_like of float
        The judge's score of each system's answer, one row per prompt.
    human_a, human_b : 1-D array_like
        Human labels (0/1) of each system's answer on the labelled rows, None or NaN on the
        others; the labelled rows must be the same in both.
    cluster : 1-D array_like, optional
        The item of each row when prompts repeat (the variance sums over items).
    calibrator : {"isotonic", "logistic"}, default "isotonic"
        As :func:`judgestats.scores.correct_scores` (``"binned"`` is not taken here: it needs
        bins declared per arm).
    folds : int, default 5
        Cross-fitting folds, the same items in each fold for both arms.
    names : (str, str), default ("A", "B")
        Labels of the two systems.
    confidence_level : float, default 0.95
        Two-sided level; stored on the result.
    design : str, default "random"
        Only ``"random"`` (the capability table's ``"score"``, ``"difference"`` row).
    rng : None, int, SeedSequence or Generator
        Draws the folds.

    Returns
    -------
    ResultDifference
        ``pairing`` = ``"paired arms (joint influence terms over items)"``, with the two
        arms' covariance; ``notes`` name an arm whose rare class widened the variance.

    Raises
    ------
    MethodError
        ``design`` other than ``"random"``.
    ArgumentTypeError, LabelError
        Bad scores or labels (a 2-D ``scores_a``: a jury's columns take
        :func:`paired_jury_difference`), rows that do not pair, different labelled rows, or
        fewer than :data:`judgestats.scores.MIN_SCORE_LABELS` labelled items (a score's
        calibration is not used below that: correct each arm with its fallback and use
        :func:`difference_of`).

    Examples
    --------
    >>> import numpy as np
    >>> import judgestats as js
    >>> rng = np.random.default_rng(3)
    >>> hard = rng.normal(0, 1, 3000)  # a prompt's difficulty, shared by both systems
    >>> y_a = rng.random(3000) < 1 / (1 + np.exp(-(0.6 - hard)))
    >>> y_b = rng.random(3000) < 1 / (1 + np.exp(-(0.2 - hard)))
    >>> s_a, s_b = (np.where(y, 0.7, 0.3) + rng.normal(0, 0.2, 3000) for y in (y_a, y_b))
    >>> lab = np.arange(3000) < 500
    >>> res = js.compare.paired_score_difference(s_a, s_b, np.where(lab, y_a, np.nan),
    ...                                          np.where(lab, y_b, np.nan), rng=0)
    >>> res.pairing, res.covariance > 0
    ('paired arms (joint influence terms over items)', True)
    """
    from ..scores.calibration import cross_fit
    from ..scores.correction import _check_folds
    from ..spec import resolve_spec

    spec = resolve_spec(judge="score", target="difference", design=design, method=None,
                        confidence_level=confidence_level, repeated=cluster is not None,
                        method_optional=True)  # fmt: skip
    names = _check_names(names)
    check_choice("calibrator", calibrator, ("isotonic", "logistic"))
    folds = _check_folds(folds)
    s_a, s_b = _paired_scores(scores_a, scores_b)
    y_a, y_b, lab, items = _paired_labels(s_a.size, human_a, human_b, cluster)
    lab_items = _labelled_items(y_a, lab, items, "correct each arm with "
                                "js.scores.correct_scores (its fallback declared, bins= or "
                                "threshold=)")  # fmt: skip
    seed = int(check_rng(rng).integers(2**63))
    fit_a, fit_b = (cross_fit(s[lab], y, s[~lab], lab_items, calibrator=calibrator,
                              folds=folds, bins=None, rng=np.random.default_rng(seed))
                    for s, y in ((s_a, y_a), (s_b, y_b)))  # the same folds  # fmt: skip
    return paired_arms((fit_a, fit_b), y_a, y_b, lab, items, names=names,
                       level=float(spec.confidence_level),
                       sources=("ScoreCorrection", "ScoreCorrection"))  # fmt: skip


def _jury_columns(name: str, judges: Any) -> tuple[np.ndarray, tuple[str, ...]]:
    """Return one system's jury as an (n, J) matrix (1 ≤ J ≤ 10) and the judges' names."""
    from ..jury.combined import judge_matrix
    from ..scores.correction import _scores

    keys = None
    if isinstance(judges, Mapping):
        keys, columns = tuple(str(k) for k in judges), list(judges.values())
    elif hasattr(judges, "columns") and hasattr(judges, "__getitem__"):  # a data frame
        keys = tuple(str(k) for k in judges.columns)
        columns = [judges[k] for k in judges.columns]
    elif isinstance(judges, np.ndarray) and judges.ndim == 2:
        columns = list(judges.T)
    elif np.ndim(judges) == 1 and not isinstance(judges, list | tuple):
        columns = [judges]  # one judge's column
    else:
        columns = list(judges)
    if len(columns) == 1:
        try:
            x = _scores(columns[0])[:, None]
        except (ArgumentTypeError, LabelError) as err:
            raise type(err)(f"{name}: {err}") from None
        return x, keys or ("judge 1",)
    try:
        x, found, _ = judge_matrix(columns, keys)
    except (ArgumentTypeError, LabelError) as err:
        raise type(err)(f"{name}: {err}") from None
    return x, found


def paired_jury_difference(
    judges_a: Any, judges_b: Any, human_a: Any, human_b: Any, *, cluster: Any = None,
    folds: int = 5, names: tuple[str, str] = ("A", "B"), confidence_level: float = 0.95,
    design: str = "random", rng: Any = None,
) -> ResultDifference:  # fmt: skip
    """θ_A − θ_B of two systems whose answers to the same items one jury judged (paired stack).

    Row i is one item: the jury's J judges gave system A's answer the verdicts (0/1 letters or
    scores) ``judges_a[:, i]`` and system B's ``judges_b[:, i]``; humans labelled both answers
    on the same random rows. Each system's rate is the jury's stack
    (:func:`judgestats.jury.correct_combined` with ``combine="stack"``: a cross-fitted logistic
    regression of the human label on every judge's column, then PPI++ with its own λ̂), both
    systems' stacks cross-fitted on the same folds; the difference's variance is the joint one
    over items (module docstring), as :func:`paired_score_difference`'s for one score. A jury
    of one judge is :func:`paired_score_difference` with ``calibrator="logistic"``.

    Parameters
    ----------
    judges_a, judges_b : mapping, sequence of columns, 2-D array or data frame
        The jury's verdicts on each system's answers: one column per judge (name → column, J
        columns, an (n, J) array or a frame's columns), 1 to 10 judges, the same jury (the
        same names, in the same order) for both systems, rows paired.
    human_a, human_b : 1-D array_like
        Human labels (0/1) of each system's answer on the labelled rows, None or NaN on the
        others; the labelled rows must be the same in both.
    cluster : 1-D array_like, optional
        The item of each row when items repeat (folds keep an item's rows together; the
        variance sums over items).
    folds : int, default 5
        Cross-fitting folds, the same items in each fold for both systems.
    names : (str, str), default ("A", "B")
        Labels of the two systems.
    confidence_level : float, default 0.95
        Two-sided level; stored on the result.
    design : str, default "random"
        Only ``"random"`` (the capability table's ``"stack"``, ``"difference"`` row: the other
        designs sample on a label, so P(human | judges) of the labelled rows is not the
        population's).
    rng : None, int, SeedSequence or Generator
        Draws the folds.

    Returns
    -------
    ResultDifference
        ``pairing`` = ``"paired arms (joint influence terms over items)"``, ``sources`` =
        ``("PredictionPoweredJury", "PredictionPoweredJury")``, the two λ̂ in ``lam``.

    Raises
    ------
    MethodError
        ``design`` other than ``"random"``.
    ArgumentTypeError, LabelError
        Bad columns or labels, two different juries, rows that do not pair, different
        labelled rows, or fewer than :data:`judgestats.scores.MIN_SCORE_LABELS` labelled items
        (the stack is not used below that: correct each system with
        :func:`judgestats.jury.correct_combined`, its fallback, and use
        :func:`difference_of`).

    Examples
    --------
    Two judges of unequal quality on both systems' answers to 2,000 shared prompts, 400
    labelled:

    >>> import numpy as np
    >>> import judgestats as js
    >>> gen = np.random.default_rng(1)
    >>> hard = gen.normal(0, 1, 2000)
    >>> y_a, y_b = (gen.random(2000) < 1 / (1 + np.exp(-(c - hard))) for c in (0.5, 0.1))
    >>> def jury(y):
    ...     return {name: np.where(gen.random(2000) < acc, y, ~y).astype(int)
    ...             for name, acc in (("large", 0.9), ("small", 0.75))}
    >>> lab = np.arange(2000) < 400
    >>> res = js.compare.paired_jury_difference(jury(y_a), jury(y_b), np.where(lab, y_a, np.nan),
    ...                                         np.where(lab, y_b, np.nan), rng=0)
    >>> res.sources, res.covariance > 0, bool(res.ci.low > 0)
    (('PredictionPoweredJury', 'PredictionPoweredJury'), True, True)
    """
    from ..jury.stack import cross_fit_stack
    from ..scores.correction import _check_folds
    from ..spec import resolve_spec

    spec = resolve_spec(judge="stack", target="difference", design=design, method=None,
                        confidence_level=confidence_level, repeated=cluster is not None,
                        method_optional=True)  # fmt: skip
    names = _check_names(names)
    folds = _check_folds(folds)
    (x_a, jury_a), (x_b, jury_b) = _jury_columns("judges_a", judges_a), \
        _jury_columns("judges_b", judges_b)  # fmt: skip
    if x_a.shape != x_b.shape or jury_a != jury_b:
        raise ArgumentTypeError(
            "judges_a and judges_b must be one jury's verdicts on the two systems' answers to "
            f"the same items (the same judges, rows paired): got {x_a.shape[1]} judges "
            f"{jury_a} on {x_a.shape[0]} rows and {x_b.shape[1]} judges {jury_b} on "
            f"{x_b.shape[0]} rows"
        )
    y_a, y_b, lab, items = _paired_labels(x_a.shape[0], human_a, human_b, cluster)
    lab_items = _labelled_items(y_a, lab, items, "correct each system with "
                                "js.jury.correct_combined (its fallback)")  # fmt: skip
    seed = int(check_rng(rng).integers(2**63))
    fit_a, fit_b = (cross_fit_stack(x[lab], y, x[~lab], lab_items, folds=folds,
                                    rng=np.random.default_rng(seed))
                    for x, y in ((x_a, y_a), (x_b, y_b)))  # the same folds  # fmt: skip
    return paired_arms((fit_a, fit_b), y_a, y_b, lab, items, names=names,
                       level=float(spec.confidence_level),
                       sources=("PredictionPoweredJury", "PredictionPoweredJury"))  # fmt: skip
