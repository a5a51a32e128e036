"""Inspect AI: the eval logs (``.eval`` or ``.json``) that ``inspect eval`` writes.

Each log holds one eval (``log.eval.model``, ``log.eval.task``) and its samples, each scored by
one or more scorers (``sample.scores``: a name → a ``Score`` whose ``value`` is the verdict,
``C`` / ``I`` for model-graded scorers, ``P`` for partial credit); a sample repeated over
epochs is one item (``cluster="item"``). Reading them needs inspect-ai
(``pip install "judgestats[inspect]"``), imported only when a log is read. Up to 0.1 the
reader was ``judgestats.io.read_inspect_logs``; that name still works, with a
``DeprecationWarning``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._validation import ColumnError, LabelError, TableError
from .schema import as_verdict, judged_frame

__all__ = ["INSPECT_VERDICTS", "read_inspect"]

#: Inspect's verdict letters that need no mapping: correct and incorrect.
INSPECT_VERDICTS = {"C": 1, "I": 0}


def _log_paths(paths_or_dir: Any) -> list[str]:
    from inspect_ai.log import list_eval_logs

    items = [paths_or_dir] if isinstance(paths_or_dir, str | Path) else list(paths_or_dir)
    out: list[str] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            out += [info.name for info in list_eval_logs(str(p))]
        elif p.is_file():
            out.append(str(p))
        else:
            raise TableError(f"Inspect log path not found: {item}")
    if not out:
        raise TableError(f"no Inspect log (.eval or .json) in {paths_or_dir}")
    return out


def _verdict(value: Any, mapping: dict, where: str) -> int:
    """Return one Inspect verdict as 0/1 (the readers' rule), or a LabelError naming it."""
    hash(value)  # a list or dict is no verdict: TypeError, as a dict lookup would raise
    judged = as_verdict(value, dict(mapping or {}), INSPECT_VERDICTS)
    if judged is None:
        raise LabelError(f"{where}: unmapped verdict {value!r}")
    return judged


def read_inspect(paths_or_dir: Any, *, scorer: str | None = None, mapping: dict | None = None,
                 verdicts: str = "0/1", runs: str = "refuse") -> Any:  # fmt: skip
    """Read Inspect AI eval logs into one row per (log, sample, epoch) with a 0/1 judge label.

    Parameters
    ----------
    paths_or_dir : str, Path or sequence of them
        ``.eval`` / ``.json`` log files, or directories holding them (Inspect's
        ``list_eval_logs``).
    scorer : str, optional
        The scorer whose verdict is the judge label. Needed when a log has several scorers.
    mapping, verdicts, runs
        The rules every reader shares (:func:`judge_values`, :data:`RUNS`): ``C`` (1), ``I``
        (0), booleans and 0/1 need no mapping, any other value does (``{"P": 0}``: partial
        credit counted as incorrect); ``verdicts="letters"`` keeps every verdict as a judge
        letter (``C``, ``P``, ``I``, ...: a judge alphabet, ``js.evaluate(frame,
        judge="judge", judge_labels="observed")``); two logs of one model's task (a rerun)
        are refused unless ``runs="apart"``.

    Returns
    -------
    pandas.DataFrame
        The readers' schema (:data:`judgestats.readers.COLUMNS`): ``model``, ``task``,
        ``item`` (the sample id, as text), ``epoch``, ``scorer``, ``judge`` (0/1, or the
        letter; ``"invalid"`` for a sample that ended in error) and ``score`` (the raw
        verdict), then ``sample_id`` (the same as ``item``, kept for joins written before the
        common schema) and ``inspect_run_id``. Join human labels on ``item``
        (:func:`join_labels`) and pass the frame to :func:`judgestats.evaluate` with
        ``cluster="item"`` when there are several epochs.

    Raises
    ------
    ImportError
        Without inspect-ai (``pip install "judgestats[inspect]"``).
    VerdictError
        A verdict outside the mapping (a :class:`~judgestats.errors.LabelError`): the message lists
        the unmapped values seen and the ``mapping=`` to pass.
    LabelError
        A log whose eval did not finish (status ``error`` or ``cancelled``) with a sample that
        ended in error: the log may miss samples; retry the eval (``inspect eval-retry``).
    ColumnError
        A log without the scorer, or with several scorers and ``scorer=None``.

    Warns
    -----
    InvalidVerdictWarning
        Samples of a finished eval that ended in error, or have no score: the letter
        ``"invalid"``.

    See Also
    --------
    readers.read_lm_eval : Another tool's output.
    """
    try:
        from inspect_ai.log import read_eval_log
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            'reading Inspect logs needs inspect-ai: pip install "judgestats[inspect]"'
        ) from exc
    rows: list[dict] = []
    for path in _log_paths(paths_or_dir):
        log = read_eval_log(path)
        rows += _log_rows(log, scorer, path)
    return judged_frame(rows, extra=("sample_id", "inspect_run_id"), mapping=mapping,
                        verdicts=verdicts, runs=runs, known=INSPECT_VERDICTS,
                        unit="samples")  # fmt: skip


def _log_rows(log: Any, scorer: str | None, path: str) -> list[dict]:
    """One log's rows; a scorer the log's samples never name is refused, naming theirs."""
    part = [_row(log, sample, scorer, path) for sample in log.samples or []]
    scored = [r["_missing"] for r in part if "_missing" in r]  # samples with scores
    if scored and all(scored):  # not one names the scorer: a wrong name, not missing verdicts
        theirs = sorted({n for missing in scored for n in missing})
        raise ColumnError(f"{path} has no scorer {scorer!r}; its scorers are {theirs}")
    names = {r["scorer"] for r in part} - {None}
    for r in part:  # a sample without scores: the log's scorer, when it has one
        if r["scorer"] is None and len(names) == 1:
            r["scorer"] = next(iter(names))
        r.pop("_missing", None)
    return part


def _row(log: Any, sample: Any, scorer: str | None, path: str) -> dict:
    """One sample's row; a sample that ended in error is refused, or invalid in a finished eval."""
    scores = sample.scores or {}
    run = getattr(log.eval, "run_id", None) or path
    row = {"model": log.eval.model, "task": log.eval.task, "item": str(sample.id),
           "epoch": int(sample.epoch), "sample_id": str(sample.id), "_run": run,
           "inspect_run_id": run}  # fmt: skip
    if not scores:
        error = getattr(sample.error, "message", None)
        if error is not None and log.status != "success":
            raise LabelError(
                f"{path}, sample {sample.id!r} has no score: it ended in error ({error}); the "
                f"eval's status is {log.status!r}. Retry the eval (inspect eval-retry) and read "
                "the retried log"
            )
        reason = "no score" if error is None else f"the sample ended in error ({error[:80]})"
        return {**row, "scorer": scorer, "score": None, "_invalid": reason}
    if scorer is not None:  # named: a sample without its score is invalid, not an error
        missing = () if scorer in scores else tuple(scores)
        value = None if missing else scores[scorer].value
        return {**row, "scorer": scorer, "score": value, "_missing": missing,
                "_invalid": f"no {scorer} score" if missing else None}  # fmt: skip
    name = _scorer_name(scores, None, path)
    return {**row, "scorer": name, "score": scores[name].value}


def _scorer_name(scores: dict, scorer: None, path: str) -> str:
    """Return a sample's one scorer (``scorer=None``: several are an error naming them)."""
    if len(scores) != 1:
        raise ColumnError(
            f"{path} has {len(scores)} scorers {list(scores)}: name the judge's with scorer="
        )
    return next(iter(scores))
