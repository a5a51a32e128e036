"""Finding and loading an eval tool's output files, with errors that name the tool."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .._validation import ToolOutputError

__all__ = ["field", "find_files", "load_json", "load_jsonl"]


def find_files(paths: Any, pattern: str, tool: str) -> list[Path]:
    """Return the files a reader reads, refusing a missing path or a directory without any.

    The files given, and those matching ``pattern`` below each directory given (sorted).
    """
    items = [paths] if isinstance(paths, str | Path) else list(paths)
    out: list[Path] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            found = sorted(p.rglob(pattern))
            if not found:
                raise ToolOutputError(f"no {tool} output ({pattern}) under the directory {p}")
            out += found
        elif p.is_file():
            out.append(p)
        else:
            raise ToolOutputError(f"{tool} output not found: {item}")
    if not out:
        raise ToolOutputError(f"no {tool} output given (an empty list of paths)")
    return out


def load_json(path: Path, tool: str) -> Any:
    """Load one JSON document, naming the tool and the line of a syntax error."""
    try:
        with path.open(encoding="utf-8-sig") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise ToolOutputError(
            f"{path} is not {tool} output: invalid JSON at line {exc.lineno} ({exc.msg})"
        ) from None


def load_jsonl(path: Path, tool: str) -> list[dict]:
    """Load a JSON Lines file of objects, naming the tool and the first bad line."""
    records = []
    with path.open(encoding="utf-8-sig") as fh:
        for i, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ToolOutputError(
                    f"{path} line {i} is not a JSON object ({exc.msg}): not {tool} output"
                ) from None
            if not isinstance(rec, dict):
                raise ToolOutputError(f"{path} line {i} is not a JSON object: not {tool} output")
            records.append(rec)
    return records


def field(record: dict, key: str, where: str, tool: str) -> Any:
    """Return ``record[key]``, or a :class:`ToolOutputError` naming the missing field."""
    if not isinstance(record, dict) or key not in record:
        keys = sorted(record) if isinstance(record, dict) else type(record).__name__
        raise ToolOutputError(f"{where} has no field {key!r} ({tool} output has it); "
                              f"its fields are {keys}")  # fmt: skip
    return record[key]
