"""Running a golden entry and turning its result into JSON-able data (see ``cases.py``).

:func:`run` calls an entry's zero-argument function with every warning recorded (locally:
``warnings.catch_warnings(record=True)`` with ``simplefilter("always")``, never a global
filter) and returns ``{"value": ..., "error": ..., "warnings": [...]}``: the normalised value
(None when it raised), the error's class *name* (None when it returned) and the sorted class
names of the warnings it emitted (repeats kept). :func:`normalise` keeps floats, ints, bools,
None, strings, lists and dicts (string keys); it replaces what depends on the machine in
strings: the temporary folders the entries write to (``<TMP>``), the repository root
(``<REPO>``), the home folder (``<HOME>``), the package version (``<VERSION>``), dates and
times (``<DATE>``, ``<TIME>``), embedded images (``data:image/png;base64,<IMAGE>``: their
bytes depend on matplotlib's version); and it prints a zero that rounds from below (``-0.00``) as
``0.00``, so that rounding noise of 1e-15 in a formatted number does not move a line of text.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import re
import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

import judgestats as js

REPO = Path(__file__).resolve().parents[2]
_HOME = str(Path.home())

#: The paths of the temporary folders of the entry running now (they become ``<TMP>``);
#: emptied after each entry.
_TMP: list[str] = []

_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b"
)
_TIME = re.compile(r"\b\d{2}:\d{2}:\d{2}\b")
_NEG_ZERO = re.compile(r"(?<![\w.])-(0(?:\.0+)?)(?![\d.eE])")
_IMAGE = re.compile(r"(data:image/[a-z+]+;base64,)[A-Za-z0-9+/=\s]+")
_VERSION = re.compile(r"(?<![\w.])" + re.escape(js.__version__) + r"(?![\w])(?!\.\d)")


def normalise_text(text: str) -> str:
    """Replace what depends on the machine or the day in a string (module docstring)."""
    for tmp in _TMP:
        text = text.replace(tmp, "<TMP>")
    text = text.replace(str(REPO), "<REPO>").replace(_HOME, "<HOME>")
    text = _IMAGE.sub(r"\1<IMAGE>", text)
    text = _VERSION.sub("<VERSION>", text)
    text = _DATE.sub("<DATE>", text)
    text = _TIME.sub("<TIME>", text)
    return _NEG_ZERO.sub(r"\1", text)


def _key(key: Any) -> str:
    if isinstance(key, tuple):
        return " / ".join(_key(k) for k in key)
    if isinstance(key, float | np.floating):
        return repr(float(key))
    return normalise_text(str(key.item() if isinstance(key, np.generic) else key))


def normalise(value: Any) -> Any:
    """Turn a result into JSON-able data: floats, ints, bools, None, strings, lists, dicts."""
    if value is None or isinstance(value, bool | np.bool_):
        return None if value is None else bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return float(value)
    if isinstance(value, str):
        return normalise_text(value)
    if isinstance(value, bytes):
        return normalise_text(value.decode("utf-8", "replace"))
    if isinstance(value, Path):
        return normalise_text(str(value))
    if isinstance(value, Mapping):
        return {_key(k): normalise(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return normalise(value.tolist())
    if isinstance(value, list | tuple):
        return [normalise(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((normalise(v) for v in value), key=repr)
    return _normalise_other(value)


def _normalise_other(value: Any) -> Any:
    import pandas as pd

    if isinstance(value, pd.DataFrame):
        return frame(value)
    if isinstance(value, pd.Series):
        return {"name": normalise(value.name), "index": normalise(list(value.index)),
                "values": normalise(list(value))}  # fmt: skip
    if value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, pd.Timestamp | np.datetime64):
        return "<DATE>"
    if isinstance(value, np.generic):
        return normalise(value.item())
    if type(value).__name__ in ("Dataset", "DataArray"):  # xarray
        return normalise(value.to_dict())
    if isinstance(value, js.ConfidenceInterval):
        return interval(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return normalise({f.name: getattr(value, f.name) for f in dataclasses.fields(value)
                          if not f.name.startswith("_")})  # fmt: skip
    raise TypeError(f"no JSON form for {type(value).__name__}: return public data from the entry")


def frame(df: Any) -> dict[str, Any]:
    """A pandas frame as its columns, dtypes' kinds and rows (records); the index if not 0..n−1."""
    import pandas as pd

    out: dict[str, Any] = {
        "columns": [_key(c) for c in df.columns],
        "records": normalise(df.to_dict(orient="records")),
    }
    if not isinstance(df.index, pd.RangeIndex) or df.index.start != 0 or df.index.step != 1:
        out["index"] = normalise(list(df.index))
    return out


def interval(ci: Any) -> dict[str, Any]:
    """A ConfidenceInterval by its public fields."""
    return {
        "low": float(ci.low),
        "high": float(ci.high),
        "method": ci.method,
        "confidence_level": ci.confidence_level,
        "undefined": ci.undefined,
        "n_resamples": ci.n_resamples,
        "widened": ci.widened,
    }


@contextlib.contextmanager
def tmpdir() -> Iterator[Path]:
    """A temporary folder for an entry's files; its path reads ``<TMP>`` in the output."""
    path = tempfile.mkdtemp(prefix="golden-")
    _TMP.extend({path, str(Path(path).resolve())})
    _TMP.sort(key=len, reverse=True)
    try:
        yield Path(path)
    finally:
        shutil.rmtree(path, ignore_errors=True)


def run(function: Callable[[], Any]) -> dict[str, Any]:
    """Run one entry: its normalised value or error class name, and its warnings' names."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value, error = function(), None
        except Exception as exc:  # an entry records the class of what it raised
            value, error = None, type(exc).__name__
        else:
            value = normalise(value)
        finally:
            _TMP.clear()  # an entry's folders appear in its own output only
    names = sorted(w.category.__name__ for w in caught)
    return {"value": value, "error": error, "warnings": names}


def cli(argv: list[str]) -> dict[str, Any]:
    """Run ``judgestats ARGV`` in-process: exit code, stdout and stderr (paths normalised).

    ``COLUMNS`` is set to 100 for the call, so that argparse wraps its usage lines alike on
    every terminal.
    """
    from unittest import mock

    from judgestats.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            mock.patch.dict(os.environ, {"COLUMNS": "100"}):  # fmt: skip
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse's own errors
            code = exc.code if isinstance(exc.code, int) else 2
    return {"exit": code, "stdout": normalise_text(out.getvalue()),
            "stderr": normalise_text(err.getvalue())}  # fmt: skip


# ----------------------------------------------------------------------------- storage
DATA = Path(__file__).resolve().parent / "data"
#: The commit the golden outputs were first recorded from (main before the refactor).
FIRST_RECORDED_FROM = "e39e706"


def area(name: str) -> str:
    """The file an entry is stored in: the first part of its name (``correct/...`` -> correct)."""
    return name.split("/", 1)[0]


def load() -> dict[str, dict[str, Any]]:
    """Every recorded entry, name -> {"value", "error", "warnings"}."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(DATA.glob("*.json")):
        out.update(json.loads(path.read_text(encoding="utf-8"))["entries"])
    return out


def save(entries: dict[str, dict[str, Any]]) -> list[Path]:
    """Write the entries, one JSON file per area (entries sorted by name); returns the files."""
    DATA.mkdir(exist_ok=True)
    by_area: dict[str, dict[str, Any]] = {}
    for name in sorted(entries):
        by_area.setdefault(area(name), {})[name] = entries[name]
    written = []
    for old in DATA.glob("*.json"):
        if old.stem not in by_area:
            old.unlink()
    for key, part in by_area.items():
        path = DATA / f"{key}.json"
        doc = {"first_recorded_from": FIRST_RECORDED_FROM, "entries": part}
        path.write_text(dumps(doc) + "\n", encoding="utf-8")
        written.append(path)
    return written


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with one line per record: a list or dict holding only scalars is written on one line,
    the others one element per line (indented by one space a level), so a diff of a
    re-recording shows the records that changed."""
    flat = json.dumps(value, ensure_ascii=False, allow_nan=True)
    if not isinstance(value, dict | list) or not value or all(
        not isinstance(v, dict | list) for v in (value.values() if isinstance(value, dict)
                                                  else value)
    ):  # fmt: skip
        return flat
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 1)}"
                 for k, v in value.items()]  # fmt: skip
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{pad}{dumps(v, indent + 1)}" for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def _warm_up() -> None:
    """Import the lazily loaded dependencies once, outside any entry.

    A warning raised while a module is first imported would otherwise be recorded by whichever
    entry happens to run first (and an entry run alone would differ).
    """
    import importlib

    for module in ("matplotlib.figure", "pandas", "scipy.optimize", "scipy.stats", "xarray"):
        importlib.import_module(module)


_warm_up()
