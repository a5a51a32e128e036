"""promptfoo: the JSON that ``promptfoo eval -o results.json`` writes.

The file holds ``results.results``: one result per (prompt, provider, test), each with a
``gradingResult`` whose ``componentResults`` hold one ``pass`` / ``score`` / ``reason`` per
assertion (``llm-rubric``, ``model-graded-closedqa``, ``g-eval``, ``contains``, ...). The judge
is one assertion: the model-graded one when a test has exactly one, else the one ``scorer=``
names (its ``metric`` name if the config gave one, else its type).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._validation import ColumnError, ToolOutputError
from .files import field, find_files, load_json
from .schema import judged_frame

__all__ = ["MODEL_GRADED", "read_promptfoo"]

#: promptfoo's assertion types graded by a model (an LLM judge).
MODEL_GRADED = frozenset({
    "llm-rubric", "g-eval", "model-graded-closedqa", "model-graded-factuality", "factuality",
    "answer-relevance", "context-faithfulness", "context-recall", "context-relevance",
    "conversation-relevance", "search-rubric", "select-best", "pi", "classifier",
})  # fmt: skip

_EXTRA = ("promptfoo_reason", "promptfoo_description", "promptfoo_provider_id",
          "promptfoo_eval_id")  # fmt: skip


def _name(component: dict) -> str:
    assertion = component.get("assertion") or {}
    return str(assertion.get("metric") or assertion.get("type") or "assertion")


def _component(result: dict, scorer: str | None, where: str) -> tuple[str, dict | None]:
    """Return the judge's (name, component result) of one result; None when it has none."""
    grading = result.get("gradingResult") or {}
    components = [c for c in grading.get("componentResults") or [] if isinstance(c, dict)]
    names = [_name(c) for c in components]
    if scorer is not None:
        hits = [c for c, n in zip(components, names, strict=True) if n == scorer]
        if len(hits) > 1:
            raise ColumnError(f"{where} has {len(hits)} assertions named {scorer!r}: give "
                              "each a distinct metric: name in the promptfoo config")  # fmt: skip
        return scorer, hits[0] if hits else None
    graded = [n for n, c in zip(names, components, strict=True)
              if (c.get("assertion") or {}).get("type") in MODEL_GRADED]  # fmt: skip
    pick = graded if graded else names
    if len(pick) != 1:
        raise ColumnError(f"{where} has assertions {names}: name the judge's with scorer=")
    return pick[0], components[names.index(pick[0])]


def read_promptfoo(
    paths: Any, *, scorer: str | None = None, mapping: dict | None = None,
    verdicts: str = "0/1",
) -> Any:  # fmt: skip
    """Read ``promptfoo eval -o results.json`` output into the readers' schema.

    Parameters
    ----------
    paths : str, Path or sequence of them
        Result JSON files, or directories searched for ``*.json``.
    scorer : str, optional
        The assertion that is the judge: its ``metric`` name, else its type (``llm-rubric``).
        Without it, the one model-graded assertion of each test (an error when a test has
        none or several: name one).
    mapping : dict, optional
        Verdict → 0/1 (or → letter with ``verdicts="letters"``). promptfoo's ``pass`` is a
        boolean, so nothing needs mapping unless a result has no verdict (``None``: an
        errored test, or one without the assertion).
    verdicts : {"0/1", "letters"}, default "0/1"
        ``"letters"`` keeps ``pass`` as it is (``True`` / ``False``).

    Returns
    -------
    pandas.DataFrame
        :data:`judgestats.readers.COLUMNS`: ``model`` the provider's label (else its id),
        ``task`` the prompt's label, ``item`` the test's index (``testIdx``; with
        ``--repeat N``, ``testIdx // N``), ``epoch`` its repeat (1 without ``--repeat``),
        ``scorer`` the assertion, ``judge`` its ``pass``, ``score`` its ``score``; then
        ``promptfoo_reason`` (the grader's reason), ``promptfoo_description`` (the test's
        description), ``promptfoo_provider_id`` and ``promptfoo_eval_id``.

    Raises
    ------
    ToolOutputError
        A path missing, or a file that is not promptfoo output (no ``results.results``).
    ColumnError
        ``scorer=None`` and a test with no model-graded assertion or several.
    VerdictError
        A result without a verdict (``None``) and no ``mapping=`` for it.

    See Also
    --------
    io.read_table : Read a CSV, JSON Lines or Parquet file.
    readers.read_lm_eval : Another tool's output.
    evaluate : Correct every group of the table.

    Examples
    --------
    A results file with one model-graded assertion per test (only the fields read):

    >>> import json, os, tempfile
    >>> import judgestats as js
    >>> def result(test, passed):
    ...     grade = {"assertion": {"type": "llm-rubric"}, "pass": passed, "score": float(passed)}
    ...     return {"testIdx": test, "provider": {"id": "openai:gpt-a"}, "prompt": {"label": "qa"},
    ...             "gradingResult": {"componentResults": [grade]}}
    >>> path = os.path.join(tempfile.mkdtemp(), "results.json")
    >>> with open(path, "w") as f:
    ...     json.dump({"results": {"results": [result(0, True), result(1, False)]}}, f)
    >>> frame = js.readers.read_promptfoo(path)
    >>> print(frame[["model", "task", "item", "scorer", "judge"]])
              model task item      scorer  judge
    0  openai:gpt-a   qa    0  llm-rubric      1
    1  openai:gpt-a   qa    1  llm-rubric      0
    """
    rows = [row for path in find_files(paths, "*.json", "promptfoo")
            for row in _rows(Path(path), scorer)]  # fmt: skip
    return judged_frame(rows, extra=_EXTRA, mapping=mapping, verdicts=verdicts, verdict="_pass")


def _repeat(doc: dict, path: Path) -> int:
    """Return how often each test ran (``--repeat N``; ``evaluateOptions.repeat`` in a config).

    promptfoo runs the N repeats of test k as tests N·k ... N·k + N - 1 (``testIdx``).
    """
    runtime = doc.get("runtimeOptions") or {}
    options = (doc.get("config") or {}).get("evaluateOptions") or {}
    repeat = runtime.get("repeat") or options.get("repeat") or 1
    if not isinstance(repeat, int) or repeat < 1:
        raise ToolOutputError(f"{path}: repeat {repeat!r} is not a positive integer")
    return repeat


def _rows(path: Path, scorer: str | None) -> list[dict]:
    doc = load_json(path, "promptfoo")
    block = field(doc, "results", str(path), "promptfoo")
    results = field(block, "results", f"{path} 'results'", "promptfoo")
    if not isinstance(results, list):
        raise ToolOutputError(f"{path}: 'results.results' is not a list: not promptfoo output")
    repeat = _repeat(doc, path)
    rows = []
    for i, result in enumerate(results):
        where = f"{path}, result {i}"
        test_idx = field(result, "testIdx", where, "promptfoo")
        if not isinstance(test_idx, int):
            raise ToolOutputError(f"{where}: testIdx {test_idx!r} is not an integer")
        provider = result.get("provider") or {}
        prompt = result.get("prompt") or {}
        name, comp = _component(result, scorer, where)
        comp = comp or {}
        rows.append({
            "model": provider.get("label") or provider.get("id"),
            "task": prompt.get("label") or prompt.get("raw"), "item": test_idx // repeat,
            "epoch": test_idx % repeat + 1,
            "scorer": name, "score": comp.get("score"), "_pass": comp.get("pass"),
            "promptfoo_reason": comp.get("reason"),
            "promptfoo_description": (result.get("testCase") or {}).get("description"),
            "promptfoo_provider_id": provider.get("id"), "promptfoo_eval_id": doc.get("evalId"),
        })  # fmt: skip
    return rows
