"""lm-evaluation-harness: the per-sample JSON Lines that ``lm_eval --log_samples`` writes.

``lm_eval --output_path OUT --log_samples`` writes, per model, ``OUT/<model>/results_<time>.json``
(the aggregate, with ``model_name``) and one ``samples_<task>_<time>.jsonl`` per task: one line
per (document, filter) with ``doc_id``, ``filter``, ``metrics`` (the metric names) and each
metric's value under its name. An LLM-judge / model-graded metric (a task's
``process_results`` that asks a grader) is one such metric: the judge is the metric that
``scorer=`` names (lm-eval's ``metric,filter`` notation picks one filter).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .._validation import ColumnError, ToolOutputError
from .files import field, find_files, load_json, load_jsonl
from .schema import judged_frame

__all__ = ["read_lm_eval"]

_SAMPLES = re.compile(r"^samples_(?P<task>.+)_(?P<time>\d{4}-\d{2}-\d{2}T[\d.\-]+)\.jsonl$")
_EXTRA = ("lm_eval_filter", "lm_eval_target", "lm_eval_doc_hash", "lm_eval_run")


def _results(path: Path, time: str | None) -> tuple[Path | None, dict]:
    """Return a samples file's results file (``results_<time>.json`` beside it) and its JSON."""
    results = path.with_name(f"results_{time}.json") if time else None
    if results is not None and results.is_file():
        return results, load_json(results, "lm-eval")
    return None, {}


def _check_complete(path: Path, results: Path | None, summary: dict, task: str,
                    rows: list[dict]) -> None:  # fmt: skip
    """Refuse a samples file with fewer samples than its results file's ``n-samples`` says."""
    expected = summary.get("n-samples", {}).get(task, {})
    expected = expected.get("effective") if isinstance(expected, dict) else None
    items = len({row["item"] for row in rows})
    if isinstance(expected, int) and items < expected:
        raise ToolOutputError(
            f"{path} holds {items} samples where {results.name if results else 'its results'}"
            f" says {expected} (n-samples of {task!r}): the samples file is cut short; re-run "
            f"lm_eval --log_samples or read the complete file"
        )


def _pick_metric(names: list[str], filters: list[str], scorer: str | None, path: Path) -> tuple:
    """Return (metric, filter or None) for a file's metric names and filters."""
    if not names:  # an empty file, or samples without a metric: nothing to name
        raise ColumnError(f"{path} holds no samples with metrics (no line names one): not the "
                          "samples_<task>_<time>.jsonl that lm_eval --log_samples writes, or "
                          "an empty one")  # fmt: skip
    if scorer is None:
        if len(names) != 1:
            raise ColumnError(f"{path} has metrics {names}: name the judge's with scorer= "
                              "(lm-eval's 'metric' or 'metric,filter')")  # fmt: skip
        metric, filt = names[0], None
    else:
        metric, _, filt = scorer.partition(",")
        filt = filt or None
        if metric not in names:
            raise ColumnError(f"{path} has no metric {metric!r}; its metrics are {names}")
    if filt is None and len(filters) > 1:
        raise ColumnError(f"{path} scores {metric!r} under filters {filters}: name one with "
                          f"scorer='{metric},{filters[0]}'")  # fmt: skip
    if filt is not None and filt not in filters:
        raise ColumnError(f"{path} has no filter {filt!r}; its filters are {filters}")
    return metric, filt


def read_lm_eval(paths: Any, *, scorer: str | None = None, mapping: dict | None = None,
                 verdicts: str = "0/1", runs: str = "refuse") -> Any:  # fmt: skip
    r"""Read lm-evaluation-harness ``--log_samples`` output into the readers' schema.

    Parameters
    ----------
    paths : str, Path or sequence of them
        ``samples_<task>_<time>.jsonl`` files, or directories (``--output_path``) searched
        for them.
    scorer : str, optional
        The metric that is the judge (``"judge_correct"``), or ``"metric,filter"`` when the
        task scores under several filters. Needed when a file has several metrics.
    mapping, verdicts, runs
        The rules every reader shares (:func:`judge_values`, :data:`RUNS`): a metric value
        other than 0 and 1 needs ``mapping=`` (a 1-5 rating: ``{1: 0, 2: 0, 3: 0, 4: 1, 5:
        1}``) or ``verdicts="letters"``; two runs of one model (two samples files of a task,
        each with its time) are refused unless ``runs="apart"``.

    Returns
    -------
    pandas.DataFrame
        :data:`judgestats.readers.COLUMNS`: ``model`` the results file's ``model_name`` (else
        the folder's name), ``task`` from the file name, ``item`` the ``doc_id``, ``epoch`` 1,
        ``scorer`` the metric, ``judge`` and ``score`` (the metric's value; ``"invalid"``
        where it has none); then ``lm_eval_filter``, ``lm_eval_target``,
        ``lm_eval_doc_hash`` and ``lm_eval_run`` (the file's time).

    Raises
    ------
    ToolOutputError
        A path missing, a directory without samples files, a line that is no sample; two runs
        of one model's task (``runs="refuse"``); a samples file with fewer samples than its
        results file's ``n-samples`` (a file cut short).
    ColumnError
        No ``scorer=`` with several metrics; a metric or filter the file lacks.
    VerdictError
        Metric values other than 0/1 that ``mapping=`` does not name (the message lists them).

    Warns
    -----
    InvalidVerdictWarning
        Samples without the metric's value: the letter ``"invalid"``.

    See Also
    --------
    readers.join_labels : Join the human labels to the judged rows.

    Examples
    --------
    One model's samples file, as ``lm_eval --log_samples`` writes it (only the fields read):

    >>> import json, os, tempfile
    >>> import judgestats as js
    >>> out = os.path.join(tempfile.mkdtemp(), "my-model")
    >>> os.makedirs(out)
    >>> lines = [{"doc_id": i, "filter": "none", "metrics": ["judge_correct"], "judge_correct": v}
    ...          for i, v in enumerate([1, 0, 1])]
    >>> with open(os.path.join(out, "samples_qa_2026-01-01T00-00-00.jsonl"), "w") as f:
    ...     f.writelines(json.dumps(line) + "\n" for line in lines)
    >>> frame = js.readers.read_lm_eval(out, scorer="judge_correct")
    >>> print(frame[["model", "task", "item", "epoch", "scorer", "judge"]])
          model task item  epoch         scorer  judge
    0  my-model   qa    0      1  judge_correct      1
    1  my-model   qa    1      1  judge_correct      0
    2  my-model   qa    2      1  judge_correct      1
    """
    rows = [row for path in find_files(paths, "samples_*.jsonl", "lm-eval")
            for row in _rows(Path(path), scorer)]  # fmt: skip
    return judged_frame(rows, extra=_EXTRA, mapping=mapping, verdicts=verdicts, runs=runs)


def _rows(path: Path, scorer: str | None) -> list[dict]:
    match = _SAMPLES.match(path.name)
    task = match["task"] if match else path.stem
    run = match["time"] if match else path.stem
    results, summary = _results(path, match["time"] if match else None)
    model = str(summary.get("model_name") or path.parent.name)
    records = load_jsonl(path, "lm-eval")
    names = sorted({m for r in records for m in field(r, "metrics", str(path), "lm-eval")})
    filters = sorted({str(r.get("filter", "none")) for r in records})
    metric, filt = _pick_metric(names, filters, scorer, path)
    rows = []
    for i, rec in enumerate(records, start=1):
        if filt is not None and str(rec.get("filter", "none")) != filt:
            continue
        where = f"{path} line {i}"
        rows.append({"model": model, "task": task,
                     "item": field(rec, "doc_id", where, "lm-eval"), "epoch": 1,
                     "scorer": metric, "score": rec.get(metric),
                     "_invalid": None if metric in rec else f"no {metric!r} value",
                     "lm_eval_filter": rec.get("filter"), "lm_eval_target": rec.get("target"),
                     "lm_eval_doc_hash": rec.get("doc_hash"), "lm_eval_run": run,
                     "_run": run})  # fmt: skip
    _check_complete(path, results, summary, task, rows)
    return rows
