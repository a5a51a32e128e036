"""MLflow: ``mlflow.genai.evaluate`` results with judge scorers.

``mlflow.genai.evaluate(data, scorers=[...])`` returns an ``EvaluationResult`` whose
``result_df`` has one row per evaluated trace: ``trace_id``, ``request``, ``response``, one
``<scorer>/value`` and ``<scorer>/rationale`` column per scorer, and ``assessments`` (the
trace's feedback, each with ``assessment_name``, ``feedback.value``, ``rationale`` and a
``source`` such as ``LLM_JUDGE``). ``mlflow.search_traces()`` returns the same rows without
the ``/value`` columns; both are read, as frames or saved with ``to_json(orient="records")``
(or JSON Lines, or Parquet). MLflow's built-in judges answer ``"yes"`` / ``"no"``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .._validation import ColumnError, ToolOutputError
from .files import find_files, load_json, load_jsonl
from .schema import judged_frame

__all__ = ["MLFLOW_VERDICTS", "read_mlflow"]

#: The verdicts of MLflow's built-in judges (``CategoricalRating``) that need no mapping.
MLFLOW_VERDICTS = {"yes": 1, "no": 0}
_EXTRA = ("mlflow_rationale", "mlflow_source", "mlflow_trace_id", "mlflow_run_id")


def _records(source: Any) -> list[dict]:
    """Return the rows of a result frame, or of a file it was saved to, as dicts."""
    if hasattr(source, "to_dict") and hasattr(source, "columns"):
        return list(source.to_dict(orient="records"))
    records: list[dict] = []
    for path in find_files(source, "*.json*", "MLflow"):
        if path.suffix == ".parquet":
            import pandas as pd

            records += pd.read_parquet(path).to_dict(orient="records")
            continue
        try:
            doc = load_json(path, "MLflow")
        except ToolOutputError:  # JSON Lines (to_json(orient="records", lines=True))
            doc = load_jsonl(path, "MLflow")
        if not isinstance(doc, list) or not all(isinstance(r, dict) for r in doc):
            raise ToolOutputError(f"{path} is not an MLflow result table saved with "
                                  "to_json(orient='records')")  # fmt: skip
        records += doc
    return records


def _assessments(record: dict) -> list[dict]:
    found = record.get("assessments")
    if isinstance(found, str):
        found = json.loads(found)
    return [a for a in found if isinstance(a, dict)] if isinstance(found, list) else []


def _scorers(records: list[dict]) -> list[str]:
    """Return the judges' names: feedback assessments, else the ``/value`` columns."""
    names: list[str] = []
    for rec in records:
        for a in _assessments(rec):
            if "feedback" in a and a.get("assessment_name") not in names:
                names.append(a["assessment_name"])
    if not names and records:
        names = [c.removesuffix("/value") for c in records[0] if c.endswith("/value")]
    return names


def read_mlflow(
    results: Any, *, scorer: str | None = None, item_key: str = "trace_id",
    task: str = "mlflow", mapping: dict | None = None, verdicts: str = "0/1",
    runs: str = "refuse",
) -> Any:  # fmt: skip
    """Read ``mlflow.genai.evaluate`` results (or ``mlflow.search_traces()``) into the schema.

    Parameters
    ----------
    results : DataFrame, str, Path, sequence of paths, or dict
        ``result.result_df`` (or ``search_traces()``'s frame), a file it was saved to
        (JSON records, JSON Lines or Parquet), or a directory of such files; or a dict
        model → any of these, one evaluation per model (the key is the ``model``).
    scorer : str, optional
        The judge scorer's name (``"correctness"``). Needed when the rows have several.
    item_key : str, default "trace_id"
        The item's id: a column of the results, else a key of each row's ``request`` (the
        ``inputs`` given to ``evaluate``, e.g. ``"item_id"``). Trace ids differ between
        runs: to join human labels across models, put an item id in the inputs.
    task : str, default "mlflow"
        The ``task`` of every row.
    mapping, verdicts, runs
        The rules every reader shares (:func:`judge_values`, :data:`RUNS`): feedback values
        other than ``yes`` (1), ``no`` (0), booleans and 0/1 need ``mapping=`` or
        ``verdicts="letters"``; a judge that errored (feedback with an ``error``, no value)
        is the letter ``"invalid"``; two runs given as one model are refused unless
        ``runs="apart"``.

    Returns
    -------
    pandas.DataFrame
        :data:`judgestats.readers.COLUMNS`: ``model`` (the dict key, else the MLflow run id),
        ``task``, ``item``, ``epoch`` 1, ``scorer``, ``judge`` and ``score`` (the feedback
        value); then ``mlflow_rationale``, ``mlflow_source`` (the judge's source id),
        ``mlflow_trace_id`` and ``mlflow_run_id``.

    Raises
    ------
    ToolOutputError
        A missing path, a file that is no saved result table, a row without the item key.
    ColumnError
        Several scorers and no ``scorer=``, or a ``scorer=`` the results lack.
    VerdictError
        A feedback value outside ``yes``/``no``, booleans, 0/1 and ``mapping``.

    Warns
    -----
    InvalidVerdictWarning
        Rows whose judge errored or gave no value: the letter ``"invalid"``.

    See Also
    --------
    readers.read_promptfoo : Another tool's output.
    """
    sources = results.items() if isinstance(results, Mapping) else [(None, results)]
    rows: list[dict] = []
    for model, source in sources:
        records = _records(source)
        rows += _rows(records, model, _pick(records, scorer), item_key, task)
    return judged_frame(rows, extra=_EXTRA, mapping=mapping, verdicts=verdicts, runs=runs,
                        known=MLFLOW_VERDICTS)  # fmt: skip


def _pick(records: list[dict], scorer: str | None) -> str:
    names = _scorers(records)
    if scorer is None:
        if len(names) != 1:
            raise ColumnError(f"the MLflow results have scorers {names}: name the judge's "
                              "with scorer=")  # fmt: skip
        return names[0]
    if scorer not in names:
        raise ColumnError(f"the MLflow results have no scorer {scorer!r}; they have {names}")
    return scorer


def _feedback(record: dict, scorer: str) -> dict:
    """Return the row's verdict, rationale and source for one scorer."""
    found = next((a for a in _assessments(record)
                  if a.get("assessment_name") == scorer and "feedback" in a), {})  # fmt: skip
    feedback = found.get("feedback") or {}
    value = record.get(f"{scorer}/value", feedback.get("value"))
    rationale = record.get(f"{scorer}/rationale", found.get("rationale"))
    error = feedback.get("error") or found.get("error") or record.get(f"{scorer}/error")
    if isinstance(error, dict):
        error = error.get("error_message") or error.get("error_code")
    return {"score": value, "mlflow_rationale": rationale,
            "mlflow_source": (found.get("source") or {}).get("source_id"),
            "_invalid": f"the judge errored ({str(error).splitlines()[0][:80]})" if error
            and value is None else None}  # fmt: skip


def _rows(records: list[dict], model: Any, scorer: str, item_key: str, task: str) -> list:
    rows = []
    for i, rec in enumerate(records):
        request = rec.get("request")
        if isinstance(request, str) and request[:1] == "{":  # a frame saved as text
            request = json.loads(request)
        item = rec.get(item_key, (request or {}).get(item_key) if isinstance(request, dict)
                       else None)  # fmt: skip
        if item is None:
            raise ToolOutputError(f"MLflow result row {i} has no {item_key!r}, neither a column "
                                  "nor a key of its request: pass item_key=")  # fmt: skip
        meta = rec.get("trace_metadata") or {}
        run = meta.get("mlflow.sourceRun") if isinstance(meta, dict) else None
        rows.append({"model": model if model is not None else run, "task": task, "item": item,
                     "epoch": 1, "scorer": scorer, **_feedback(rec, scorer), "_run": run,
                     "mlflow_trace_id": rec.get("trace_id"), "mlflow_run_id": run})  # fmt: skip
    return rows
