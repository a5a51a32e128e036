"""Reading judged items: one reader for CSV, Parquet and JSON (Inspect AI logs: js.readers).

:func:`read_table` is the reader every file path of the package goes through (the CLI's
``correct`` and ``report``). It detects the format from the file's content (Parquet's ``PAR1``
magic, a JSON object on the first line (JSON Lines) or a JSON array of objects, else CSV
text), not from its suffix, and reads gzip-compressed text files (``.csv.gz``,
``.jsonl.gz``) as they are. It reads without type inference where inference loses data:

* CSV cells are read as text exactly as written: a group called ``NA`` stays ``"NA"``, ``007``
  and ``7`` stay two groups; only an empty cell is missing;
* label columns (``labels=``) are converted by :func:`parse_labels`: 0/1, true/false (any case)
  and booleans, nothing else; an empty cell is missing (a test row's human label); anything
  else is a :class:`~judgestats.errors.LabelError` naming the column, the value and its line;
* duplicate column names are an error (pandas would rename one and use the other silently);
* a CSV line with more or fewer fields than the header has columns is an error naming the line
  (pandas and polars would fill a short line with empty cells: a silent unlabelled row), and
  so is a blank line between rows; blank lines after the last row are not rows;
* a directory, a missing file, or a file that is no table get their own messages.
"""

from __future__ import annotations

import csv
import gzip
import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from ._lazy import face
from ._validation import (
    ColumnError,
    LabelError,
    TableError,
    check_one_key_type,
    check_unique_columns,
    listed,
)

__all__ = [
    "FORMATS",
    "TableError",
    "parse_labels",
    "read_table",
    "sniff_format",
]

#: The table formats :func:`read_table` reads: CSV, Parquet, JSON Lines, a JSON array of objects.
FORMATS = ("csv", "parquet", "jsonl", "json")
_GZIP_MAGIC = b"\x1f\x8b"
_JSON_ARRAY = re.compile(r"\[\s*(\{|\]|$)")
_TRUE = {"1", "true", "1.0"}
_FALSE = {"0", "false", "0.0"}


def is_gzip(path: str | Path) -> bool:
    """Tell a gzip-compressed file by its magic bytes (whatever its suffix)."""
    with Path(path).open("rb") as fh:
        return fh.read(2) == _GZIP_MAGIC


def _open_text(p: Path) -> Any:
    """Open a text table for reading (``newline=""`` for the csv module), gunzipping gzip."""
    if is_gzip(p):
        return gzip.open(p, "rt", newline="", encoding="utf-8-sig")
    return p.open(newline="", encoding="utf-8-sig")


def _head(p: Path) -> bytes:
    """Return the first 4096 bytes of a file's content, decompressed when it is gzip."""
    if not is_gzip(p):
        with p.open("rb") as fh:
            return fh.read(4096)
    try:
        with gzip.open(p, "rb") as fh:
            head = fh.read(4096)
    except (OSError, EOFError) as exc:
        raise TableError(f"{p} is gzip-compressed but cannot be decompressed: {exc}") from None
    if head.startswith(b"PAR1"):
        raise TableError(f"{p} is gzip-compressed Parquet: decompress it first (gunzip); "
                         "Parquet compresses its own columns")  # fmt: skip
    return head


def sniff_format(path: str | Path) -> str:
    r"""Tell the format of a table file from its first bytes.

    ``"parquet"``, ``"jsonl"`` (a JSON object on the first line), ``"json"`` (a JSON array of
    objects) or ``"csv"``; gzip-compressed text is told by its decompressed content.

    Raises :class:`TableError` for a missing path, a directory, an empty file, or content that
    is none of them (binary data that is not Parquet).

    Examples
    --------
    >>> import os, tempfile
    >>> import judgestats as js
    >>> path = os.path.join(tempfile.mkdtemp(), "items.txt")  # the suffix says nothing
    >>> with open(path, "w") as f:
    ...     _ = f.write('{"model": "a", "judge": 1}\n{"model": "b", "judge": 0}\n')
    >>> js.io.sniff_format(path)
    'jsonl'
    """
    p = Path(path)
    if p.is_dir():
        raise TableError(f"{path} is a directory, not a table file (CSV, Parquet or JSON)")
    if not p.is_file():
        raise TableError(f"file not found: {path}")
    head = _head(p)
    if not head.strip():
        raise TableError(f"{path} is empty")
    if head.startswith(b"PAR1"):
        return "parquet"
    text: str | None
    try:
        text = head.decode("utf-8-sig")
    except UnicodeDecodeError as exc:  # a multi-byte character cut at the end of the head
        cut = exc.reason == "unexpected end of data" and len(head) == 4096
        text = head[: exc.start].decode("utf-8-sig") if cut else None
    if text is None or "\x00" in text:
        raise TableError(f"{path} is not a table file: neither Parquet nor UTF-8 text (CSV, "
                         "JSON Lines, JSON), plain or gzip-compressed")  # fmt: skip
    text = text.lstrip()
    if _JSON_ARRAY.match(text):
        return "json"
    return "jsonl" if text.startswith("{") else "csv"


def _check_unique(columns: list[str], path: Any) -> None:
    check_unique_columns(columns, str(path))


def check_header(path: str | Path, kind: str | None = None) -> list[str]:
    """Return the column names of a CSV or Parquet file (no data read), refusing duplicates."""
    p = Path(path)
    kind = sniff_format(p) if kind is None else kind
    if kind == "parquet":
        import pyarrow.parquet as pq

        names = list(pq.read_schema(p).names)
    else:
        with _open_text(p) as fh:
            names = next(csv.reader(fh), [])
        _check_separator(names, p)
    _check_unique(names, p)
    return names


#: Separators a spreadsheet writes in place of the comma, and their names in a message.
_SEPARATORS = {";": "semicolons", "\t": "tabs", "|": "vertical bars"}


def _check_separator(names: list[str], p: Path) -> None:
    """Refuse a CSV whose header is one column holding another separator (``a;b;c``)."""
    if len(names) != 1:
        return
    for sep, what in _SEPARATORS.items():
        if sep in names[0]:
            raise TableError(
                f"{p} is separated by {what}, not commas: its header {names[0]!r} reads as one "
                f"column. Save it as comma-separated CSV (a spreadsheet's 'CSV UTF-8 (comma "
                f"delimited)'), or convert it: pandas.read_csv(path, sep={sep!r}, dtype=str)"
                ".to_csv(new_path, index=False)"
            )


def check_rows(path: str | Path) -> int:
    """Check that every line of a CSV file has one field per column; return the trailing blanks.

    A line with fewer fields than the header has columns would be read by pandas and polars as
    a row with empty cells (a silent test row without a label), one with more fields is
    ambiguous: both are a :class:`TableError` naming the line. So is a blank line (or a line
    of empty cells) between rows of a file with several columns. Blank lines and lines of
    empty cells after the last row are not rows: their number is returned (every engine
    drops them).
    """
    p = Path(path)
    with _open_text(p) as fh:
        reader = csv.reader(fh)
        width = len(next(reader, []))
        blank_since = 0  # line of the first blank line in a run (0: none)
        trailing = 0
        for record in reader:
            empty = not any(record) and (width > 1 or not record)
            if record and len(record) != width:
                shown = ",".join(record)
                shown = shown if len(shown) <= 60 else shown[:57] + "..."
                raise TableError(
                    f"{p} line {reader.line_num} has {len(record)} field(s) where the header "
                    f"has {width} column(s): {shown!r}; every line needs one value per column "
                    "(write an empty cell as nothing between two commas)"
                )
            if empty:
                blank_since, trailing = blank_since or reader.line_num, trailing + 1
                continue
            if blank_since and width > 1:
                raise TableError(
                    f"{p} line {blank_since} is blank (or only empty cells) between rows: "
                    "delete it, or fill its cells"
                )
            blank_since, trailing = 0, 0
    return trailing


def _read_csv(p: Path) -> Any:
    import pandas as pd

    check_header(p, "csv")
    check_rows(p)
    frame = pd.read_csv(p, dtype=str, keep_default_na=False, na_values=[""],
                        encoding="utf-8-sig", skip_blank_lines=False,
                        compression="gzip" if is_gzip(p) else None)  # fmt: skip
    # a blank line inside the file is a row (its empty cells are then refused or reported);
    # blank lines after the last row are not rows
    filled = frame.notna().any(axis=1).to_numpy()
    last = int(np.flatnonzero(filled)[-1]) + 1 if filled.any() else 0
    return frame.iloc[:last]


def _read_jsonl(p: Path) -> Any:
    """Read JSON Lines: one object per line that is not blank (named by its line)."""
    with _open_text(p) as fh:
        records = [(i, _json_value(p, line, i)) for i, line in enumerate(fh, start=1)
                   if line.strip()]  # fmt: skip
    return _object_frame(p, records, "line {i} is not a JSON object")


def _read_json(p: Path) -> Any:
    """Read a JSON array of objects (one per row), as JSON Lines holds one object per line."""
    with _open_text(p) as fh:
        doc = _json_value(p, fh.read(), None)
    if not isinstance(doc, list):
        raise TableError(f"{p} holds a JSON {type(doc).__name__}, not an array of objects")
    return _object_frame(p, list(enumerate(doc, start=1)),
                         "item {i} of the JSON array is not a JSON object: {rec!r}")  # fmt: skip


def _json_value(p: Path, text: str, line: int | None) -> Any:
    """Parse one JSON document (a file, or one line of JSON Lines), refusing duplicate keys."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys(p, line))
    except json.JSONDecodeError as exc:
        if line is None:
            raise TableError(f"{p} is not valid JSON (line {exc.lineno}): {exc.msg}") from None
        raise TableError(f"{p} line {line} is not a JSON object: {exc.msg}") from None


def _object_frame(p: Path, numbered: list[tuple[int, Any]], message: str) -> Any:
    """Return the frame of numbered JSON records, refusing one that is no object (``message``)."""
    import pandas as pd

    for i, rec in numbered:
        if not isinstance(rec, dict):
            raise TableError(f"{p} " + message.format(i=i, rec=rec))
    return pd.DataFrame.from_records([rec for _, rec in numbered])


def _no_duplicate_keys(path: Path, line: int | None):
    where = f"{path} (line {line})" if line is not None else f"{path} (an object)"

    def hook(pairs: list[tuple[str, Any]]) -> dict:
        _check_unique([k for k, _ in pairs], where)
        return dict(pairs)

    return hook


def _read_parquet(p: Path) -> Any:
    import pyarrow.parquet as pq

    table = pq.read_table(p)
    _check_unique(table.column_names, p)
    return table.to_pandas()


def _missing(v: Any) -> bool:
    """None, NaN, pandas' NA or NaT: an empty cell."""
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return True
    try:
        import pandas as pd

        return bool(pd.isna(v)) if np.ndim(v) == 0 else False
    except (ImportError, TypeError, ValueError):
        return False


#: Words for a missing value in R, pandas or a spreadsheet: text in a file, not a missing label.
MISSING_WORDS = frozenset({"na", "nan", "n/a", "#n/a", "null", "none", "<na>"})
_EMPTY_CELL = "an empty cell"


def _label_value(v: Any) -> float | None:
    """Return a label value as 0.0/1.0, or None when it is no label."""
    if isinstance(v, bool | np.bool_):
        return float(v)
    if isinstance(v, int | float | np.integer | np.floating) and v in (0, 1):
        return float(v)
    if isinstance(v, str) and v.strip().lower() in _TRUE | _FALSE:
        return 1.0 if v.strip().lower() in _TRUE else 0.0
    return None


def parse_labels(
    values: Any, column: str, *, missing_ok: bool, first_line: int = 2, groups: Any = None,
    group_column: str | None = None, unit: str = "line",
) -> Any:  # fmt: skip
    """Convert a label column to floats 0.0/1.0 (NaN where missing), refusing anything else.

    Accepted: booleans, the numbers 0 and 1, and the texts ``0``, ``1``, ``true``, ``false``
    (any case, surrounding spaces ignored). Missing values (an empty CSV cell, null) are NaN
    when ``missing_ok``, else an error. ``first_line`` is the file line of the first value (2
    for a CSV with a header): errors name the line of each bad value shown (at most five, and
    how many there are; ``unit="item"``: its item of a JSON array) and, given ``groups`` (the
    values of ``group_column`` row by row), its group. A missing value written as a word
    (``NA``, ``NaN``, ``null``) or as an empty JSON string is named as such, with what to do.

    Examples
    --------
    >>> import judgestats as js
    >>> js.io.parse_labels(["1", " 0 ", "TRUE", None], "human", missing_ok=True)
    array([ 1.,  0.,  1., nan])
    >>> try:
    ...     js.io.parse_labels(["1", "yes"], "judge", missing_ok=False)
    ... except js.errors.LabelError as error:
    ...     print(error)
    column 'judge' must hold 0/1, true/false or booleans on every row; got 'yes' on line 3
    """
    arr = np.asarray(values, dtype=object)
    out = np.full(arr.shape, np.nan)
    bad: list[tuple[int, Any]] = []
    count = 0
    for i, v in enumerate(arr):
        label = None if _missing(v) else _label_value(v)
        if label is not None:
            out[i] = label
        elif not _missing(v) or not missing_ok:
            count += 1
            if len(bad) < 5:
                bad.append((i, _EMPTY_CELL if _missing(v) else v))
    if bad:
        where = (lambda i: "") if groups is None else (
            lambda i: f" ({group_column}={np.asarray(groups, dtype=object)[i]!r})"
        )
        shown = listed([f"{v if v is _EMPTY_CELL else repr(v)} on {unit} {i + first_line}"
                        f"{where(i)}" for i, v in bad], total=count)  # fmt: skip
        raise LabelError(
            f"column {column!r} must hold 0/1, true/false or booleans"
            + ("" if missing_ok else " on every row")
            + f"; got {shown}{_missing_hint([v for _, v in bad], missing_ok)}"
        )
    return out


def _missing_hint(values: list[Any], missing_ok: bool) -> str:
    """Say what a bad label that stands for a missing one is, and what to do (else '')."""
    word = next((v for v in values if isinstance(v, str) and v.strip().lower() in MISSING_WORDS),
                None)  # fmt: skip
    if word is not None:
        what = f"; {word!r} is a missing value in R's or pandas' words"
        if missing_ok:
            return (f"{what}, but only an empty cell (JSON: null) is read as missing, so that a "
                    "group called NA stays a group: empty those cells to mark unlabelled rows")
        return (f"{what}, and this column needs a value on every row: drop those rows (if "
                f"they are a judge's missing verdicts, keep them as its letter 'invalid': "
                f"report --invalid {word})")
    if any(isinstance(v, str) and not v.strip() for v in values):
        what = "; '' is an empty string, not a missing value"
        if missing_ok:
            return f"{what}: write null (or leave the key out) for an unlabelled row"
        return (f"{what}, and this column needs a value on every row: drop those rows (if "
                "they are a judge's missing verdicts, keep them as its letter 'invalid': "
                "report --invalid '')")
    return ""


def read_table(
    path: str | Path, *, labels: dict[str, bool] | None = None, format: str | None = None,
    group: str | None = None,
) -> Any:  # fmt: skip
    r"""Read a table of judged items into a pandas DataFrame, losing nothing.

    Parameters
    ----------
    path : str or Path
        A CSV, Parquet, JSON Lines or JSON-array file (format detected from the content,
        not the suffix); CSV and JSON may be gzip-compressed (``items.csv.gz``).
    labels : dict, optional
        Label columns to convert with :func:`parse_labels`, column → whether a missing value is
        allowed (True for a human-label column whose empty cells mark test rows). Columns the
        file lacks are left to the caller's column check (which names all of them).
    format : {"csv", "parquet", "jsonl", "json"}, optional
        Skip the detection.
    group : str, optional
        A group column: a label error names the group of the bad row beside its line.

    Returns
    -------
    pandas.DataFrame
        CSV columns other than the label columns hold text (empty cells NaN); Parquet and JSON
        keep their own types.

    Raises
    ------
    TableError
        A missing file, a directory, an empty or non-table file, a malformed JSON line, a CSV
        line with more or fewer fields than the header (its line is named).
    ColumnError
        Duplicate column names.
    LabelError
        A label value outside 0/1, true/false and booleans (its file and line are named).

    See Also
    --------
    readers.read_inspect : Read Inspect AI evaluation logs.
    readers.read_lm_eval : Read lm-evaluation-harness samples.
    evaluate : Correct every group of the table.

    Examples
    --------
    A CSV whose item ids keep their leading zeros and whose empty ``human`` cells mark test rows:

    >>> import os, tempfile
    >>> import judgestats as js
    >>> path = os.path.join(tempfile.mkdtemp(), "items.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("model,item,judge,human\na,007,1,1\na,008,0,\nb,007,true,0\n")
    >>> js.io.read_table(path, labels={"judge": False, "human": True})
      model item  judge  human
    0     a  007    1.0    1.0
    1     a  008    0.0    NaN
    2     b  007    1.0    0.0
    """
    p = Path(path)
    kind = sniff_format(p) if format is None else format
    try:
        readers = {"csv": _read_csv, "parquet": _read_parquet, "jsonl": _read_jsonl,
                   "json": _read_json}  # fmt: skip
        frame = readers[kind](p)
    except (TableError, ColumnError):
        raise
    except KeyError:
        raise TableError(f"format must be one of {FORMATS}, got {format!r}") from None
    except Exception as exc:  # a parser's own message, on one line
        raise TableError(f"cannot read {path} as {kind}: {exc}".splitlines()[0]) from exc
    if kind in ("jsonl", "json"):  # JSON values of mixed types (1 and true, 7 and "7"), a key
        for c in frame.columns:
            if c not in (labels or {}) and frame[c].dtype == object:
                check_one_key_type(c, list({(type(v), v): v for v in frame[c]}.values()))
    for column, missing_ok in (labels or {}).items():
        if column not in frame.columns:
            continue  # the caller's column check names every missing column and its role
        groups = frame[group].to_numpy(dtype=object) if group in frame.columns else None
        try:
            frame[column] = parse_labels(
                frame[column].to_numpy(dtype=object), column, missing_ok=missing_ok,
                first_line=2 if kind == "csv" else 1, groups=groups, group_column=group,
                unit="item" if kind == "json" else "line",
            )  # fmt: skip
        except LabelError as exc:  # its line, and the file that holds it (of several read)
            raise LabelError(f"{path}: {exc}") from None
    return frame


#: Up to 0.1 the Inspect AI reader lived here: its names still work, with a DeprecationWarning.
_MOVED = {
    "read_inspect_logs": "readers:read_inspect",
    "INSPECT_VERDICTS": "readers:INSPECT_VERDICTS",
}
__getattr__ = face(__name__, names={}, moved=_MOVED)[0]
