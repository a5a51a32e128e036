"""promptfoo: the JSON that ``promptfoo eval -o results.json`` writes.

The file holds ``results.results``: one result per (prompt, provider, test), each with a
``gradingResult`` whose ``componentResults`` hold one ``pass`` / ``score`` / ``reason`` per
assertion (``llm-rubric``, ``model-graded-closedqa``, ``g-eval``, ``contains``, ...). The judge
is one assertion: the file's one model-graded assertion (picked by its type), else the one
``scorer=`` names (its ``metric`` name if the config gave one, else its type). A result without
it (the provider failed, the test lacks the assertion) is the letter ``"invalid"``.
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
    assertion = component.get("assertion") or component
    return str(assertion.get("metric") or assertion.get("type") or "assertion")


def _assertions(result: dict) -> tuple[list[dict], list[dict]]:
    """Return a result's (graded component results, assertions its test configured)."""
    grading = result.get("gradingResult") or {}
    components = [c for c in grading.get("componentResults") or [] if isinstance(c, dict)]
    configured = [a for a in (result.get("testCase") or {}).get("assert") or []
                  if isinstance(a, dict)]  # fmt: skip
    return components, configured


def _judge_name(results: list, scorer: str | None, path: Path) -> str:
    """Return the judge's assertion: ``scorer``, else the one model-graded assertion by type."""
    names: list[str] = []
    graded: list[str] = []
    for result in results:
        for c in (c for group in _assertions(result) for c in group):
            name = _name(c)
            names += [name] if name not in names else []
            kind = (c.get("assertion") or c).get("type")
            graded += [name] if kind in MODEL_GRADED and name not in graded else []
    if scorer is not None:
        if scorer not in names:
            raise ColumnError(f"{path} has no assertion {scorer!r}; its assertions are {names}")
        return scorer
    if len(graded) != 1:
        what = "no model-graded assertion" if not graded else f"model-graded assertions {graded}"
        raise ColumnError(f"{path} has {what} (types {', '.join(sorted(MODEL_GRADED))}); its "
                          f"assertions are {names}: name the judge's with scorer=")  # fmt: skip
    return graded[0]


def _verdict(result: dict, name: str, where: str) -> tuple[dict, str | None]:
    """Return the judge's component result of one result and why it has no verdict (or None).

    A provider that failed (``failureReason`` 2, promptfoo's error) left no answer to judge;
    a test without the assertion, or whose grading did not run, has no verdict either.
    """
    components, configured = _assertions(result)
    hits = [c for c in components if _name(c) == name]
    if len(hits) > 1:
        raise ColumnError(f"{where} has {len(hits)} assertions named {name!r}: give each a "
                          "distinct metric: name in the promptfoo config")  # fmt: skip
    error = result.get("error") or (result.get("response") or {}).get("error")
    if result.get("failureReason") == 2 or (result.get("response") or {}).get("error"):
        return {}, f"the provider failed ({str(error).splitlines()[0][:80]})"
    if not hits:
        had = any(_name(a) == name for a in configured)
        return {}, f"no {name} result" if had else f"the test has no {name} assertion"
    return hits[0], None


def read_promptfoo(paths: Any, *, scorer: str | None = None, mapping: dict | None = None,
                   verdicts: str = "0/1", runs: str = "refuse") -> Any:  # fmt: skip
    """Read ``promptfoo eval -o results.json`` output into the readers' schema.

    Parameters
    ----------
    paths : str, Path or sequence of them
        Result JSON files, or directories searched for ``*.json``.
    scorer : str, optional
        The assertion that is the judge: its ``metric`` name, else its type (``llm-rubric``).
        Without it, the file's one model-graded assertion, picked by its type
        (:data:`MODEL_GRADED`): an error when there is none or several (name one).
    mapping, verdicts, runs
        The rules every reader shares (:func:`judge_values`, :data:`RUNS`): promptfoo's
        ``pass`` is a boolean, so nothing needs mapping; ``verdicts="letters"`` keeps it as it
        is (``True`` / ``False``); two evals of one provider on the same tests (two files,
        each with its ``evalId``) are refused unless ``runs="apart"``.

    Returns
    -------
    pandas.DataFrame
        :data:`judgestats.readers.COLUMNS`: ``model`` the provider's label (else its id),
        ``task`` the prompt's label, ``item`` the test's index (``testIdx``; with
        ``--repeat N``, ``testIdx // N``), ``epoch`` its repeat (1 without ``--repeat``),
        ``scorer`` the assertion, ``judge`` its ``pass`` (``"invalid"`` where the provider
        failed or the test has no such result), ``score`` its ``score``; then
        ``promptfoo_reason`` (the grader's reason), ``promptfoo_description`` (the test's
        description), ``promptfoo_provider_id`` and ``promptfoo_eval_id``.

    Raises
    ------
    ToolOutputError
        A path missing, or a file that is not promptfoo output (no ``results.results``).
    ColumnError
        ``scorer=None`` and no model-graded assertion or several; a ``scorer=`` no test has.

    Warns
    -----
    InvalidVerdictWarning
        Results without the judge's verdict, counted by reason: the provider failed, the
        test has no such assertion, its grading did not run.

    See Also
    --------
    readers.read_deepeval : Another tool's output.
    """
    rows = [row for path in find_files(paths, "*.json", "promptfoo")
            for row in _rows(Path(path), scorer)]  # fmt: skip
    return judged_frame(rows, extra=_EXTRA, mapping=mapping, verdicts=verdicts, runs=runs,
                        verdict="_pass")  # fmt: skip


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
    name = _judge_name(results, scorer, path)
    run = doc.get("evalId") or str(path)
    rows = []
    for i, result in enumerate(results):
        where = f"{path}, result {i}"
        test_idx = field(result, "testIdx", where, "promptfoo")
        if not isinstance(test_idx, int):
            raise ToolOutputError(f"{where}: testIdx {test_idx!r} is not an integer")
        provider = result.get("provider") or {}
        prompt = result.get("prompt") or {}
        comp, invalid = _verdict(result, name, where)
        rows.append({
            "model": provider.get("label") or provider.get("id"),
            "task": prompt.get("label") or prompt.get("raw"), "item": test_idx // repeat,
            "epoch": test_idx % repeat + 1,
            "scorer": name, "score": comp.get("score"), "_pass": comp.get("pass"),
            "_invalid": invalid, "_run": run, "promptfoo_reason": comp.get("reason"),
            "promptfoo_description": (result.get("testCase") or {}).get("description"),
            "promptfoo_provider_id": provider.get("id"), "promptfoo_eval_id": doc.get("evalId"),
        })  # fmt: skip
    return rows
