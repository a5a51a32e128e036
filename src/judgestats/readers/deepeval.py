"""DeepEval: the test-run JSON that ``evaluate()`` (or ``deepeval test run``) saves locally.

With ``DEEPEVAL_RESULTS_FOLDER`` set, DeepEval writes each test run to
``test_run_<YYYYMMDD_HHMMSS>.json``: ``testCases`` (and ``conversationalTestCases``), each with
a ``name`` and ``metricsData``: one entry per metric (``Correctness [GEval]``, ``Answer
Relevancy``, ...) with ``score``, ``threshold``, ``success`` (score against threshold),
``reason`` and ``evaluationModel``; ``hyperparameters`` as given to ``evaluate()``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._validation import ColumnError, ToolOutputError
from .files import field, find_files, load_json
from .schema import judged_frame

__all__ = ["read_deepeval"]

_EXTRA = ("deepeval_threshold", "deepeval_reason", "deepeval_evaluation_model",
          "deepeval_error", "deepeval_run")  # fmt: skip


def read_deepeval(
    paths: Any, *, scorer: str | None = None, model_key: str = "model",
    mapping: dict | None = None, verdicts: str = "0/1", runs: str = "refuse",
) -> Any:  # fmt: skip
    """Read DeepEval test-run JSON into the readers' schema.

    Parameters
    ----------
    paths : str, Path or sequence of them
        ``test_run_*.json`` files (``DEEPEVAL_RESULTS_FOLDER``), ``.deepeval/`` snapshots of
        the same schema, or directories searched for ``test_run_*.json``.
    scorer : str, optional
        The metric that is the judge, by its DeepEval name (``"Correctness [GEval]"``).
        Needed when the test cases have several metrics.
    model_key : str, default "model"
        The hyperparameter naming the model (``evaluate(..., hyperparameters={"model": ...})``);
        without it the model is the file's name.
    mapping, verdicts, runs
        The rules every reader shares (:func:`judge_values`, :data:`RUNS`): the verdict is
        the metric's ``success`` (a boolean), which needs no mapping; a metric that errored
        (``error`` set, no score: a rate limit, a timeout) has none and is the letter
        ``"invalid"``, never a fail; two test runs of one model (two files, each with its
        time) are refused unless ``runs="apart"``.

    Returns
    -------
    pandas.DataFrame
        :data:`judgestats.readers.COLUMNS`: ``model``, ``task`` (the run's ``identifier``,
        else ``"deepeval"``), ``item`` (the test case's ``name``), ``epoch`` 1, ``scorer``
        the metric, ``judge`` its ``success`` (``"invalid"`` where it errored), ``score`` its
        score; then ``deepeval_threshold``, ``deepeval_reason``,
        ``deepeval_evaluation_model``, ``deepeval_error`` and ``deepeval_run`` (the file's
        time, or its name).

    Raises
    ------
    ToolOutputError
        A path missing, a file without ``testCases``, a test case without ``metricsData``.
    ColumnError
        Several metrics and no ``scorer=``, or a ``scorer=`` no test case has.

    Warns
    -----
    InvalidVerdictWarning
        Metrics that errored, or test cases without the metric: the letter ``"invalid"``.

    See Also
    --------
    readers.read_mlflow : Another tool's output.

    Examples
    --------
    A test run with one metric per test case (only the fields read); the judge is the metric's
    ``success``, its score is kept beside:

    >>> import json, os, tempfile
    >>> import judgestats as js
    >>> cases = [{"name": f"case-{i}", "metricsData": [{"name": "Correctness [GEval]", "score": s,
    ...                                                 "threshold": 0.5, "success": s >= 0.5}]}
    ...          for i, s in enumerate([0.9, 0.2, 0.7])]
    >>> path = os.path.join(tempfile.mkdtemp(), "test_run_20260101_120000.json")
    >>> with open(path, "w") as f:
    ...     json.dump({"hyperparameters": {"model": "gpt-a"}, "testCases": cases}, f)
    >>> frame = js.readers.read_deepeval(path, scorer="Correctness [GEval]")
    >>> print(frame[["model", "task", "item", "scorer", "judge", "score"]])
       model      task    item               scorer  judge  score
    0  gpt-a  deepeval  case-0  Correctness [GEval]      1    0.9
    1  gpt-a  deepeval  case-1  Correctness [GEval]      0    0.2
    2  gpt-a  deepeval  case-2  Correctness [GEval]      1    0.7
    """
    rows = [row for path in find_files(paths, "test_run_*.json", "DeepEval")
            for row in _rows(Path(path), scorer, model_key)]  # fmt: skip
    return judged_frame(rows, extra=_EXTRA, mapping=mapping, verdicts=verdicts, runs=runs,
                        verdict="_success")  # fmt: skip


def _metric(cases: list[dict], scorer: str | None, path: Path) -> str:
    names: list[str] = []
    for i, case in enumerate(cases):
        for m in field(case, "metricsData", f"{path}, test case {i}", "DeepEval") or []:
            if m.get("name") not in names:
                names.append(m.get("name"))
    if not names:  # no test case, or none with a metric: nothing to name
        raise ColumnError(f"{path} holds no test cases with metrics (no metricsData names one)")
    if scorer is None:
        if len(names) != 1:
            raise ColumnError(f"{path} has metrics {names}: name the judge's with scorer=")
        return names[0]
    if scorer not in names:
        raise ColumnError(f"{path} has no metric {scorer!r}; its metrics are {names}")
    return scorer


def _invalid(data: dict, metric: str) -> str | None:
    """Say why a metric's result holds no verdict (it errored, or is missing), else None."""
    if not data:
        return f"no {metric} result"
    if data.get("error"):
        return f"the metric errored ({str(data['error']).splitlines()[0][:80]})"
    if data.get("score") is None or data.get("success") is None:
        return "no verdict"
    return None


def _rows(path: Path, scorer: str | None, model_key: str) -> list[dict]:
    doc = load_json(path, "DeepEval")
    cases = field(doc, "testCases", str(path), "DeepEval")
    cases = [*cases, *(doc.get("conversationalTestCases") or [])]
    if not isinstance(cases, list) or not cases:
        raise ToolOutputError(f"{path} holds no DeepEval test cases")
    metric = _metric(cases, scorer, path)
    model = (doc.get("hyperparameters") or {}).get(model_key) or path.stem
    run = path.stem.removeprefix("test_run_")
    rows = []
    for i, case in enumerate(cases):
        data: dict = next((m for m in case.get("metricsData") or [] if m.get("name") == metric), {})
        rows.append({"model": str(model), "task": doc.get("identifier") or "deepeval",
                     "item": case.get("name", f"test_case_{i}"), "epoch": 1, "scorer": metric,
                     "score": data.get("score"), "_success": data.get("success"),
                     "_invalid": _invalid(data, metric), "_run": run,
                     "deepeval_threshold": data.get("threshold"),
                     "deepeval_reason": data.get("reason"),
                     "deepeval_evaluation_model": data.get("evaluationModel"),
                     "deepeval_error": data.get("error"), "deepeval_run": run})  # fmt: skip
    return rows
