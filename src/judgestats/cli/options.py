"""What the commands share on the command line: the argparse pieces and the CLI's own error."""

from __future__ import annotations

import argparse
import re
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..designs import DEFAULT_DESIGN, design_names
from ..designs.capabilities import rows

EXAMPLES = ("chatbot-arena", "nq301")


class CLIError(Exception):
    """A user-facing failure: printed as one line, exit status 2.

    ``kind`` names the underlying error class (for ``--json``), when there is one.
    """

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind


#: The API's keywords and the command-line flags that say the same: the one table by which
#: :func:`cli_words` turns a message written for the Python API into the command's words.
API_FLAGS = {
    "method": "--method", "design": "--design", "cluster": "--cluster", "estimand": "--estimand",
    "unmatched": "--unmatched", "runs": "--runs", "allocation": "--allocation",
    "max_m": "--max-m", "model_a": "--model-a", "model_b": "--model-b", "judge": "--judge",
    "human": "--human", "position": "--position", "by": "--by", "strata": "--strata",
    "split": "--split", "batch": "--batch", "batch_choice": "--batch-choice",
    "invalid": "--invalid", "scorer": "--scorer", "item_key": "--item",
    "confidence_level": "--confidence-level", "bins": "--bins", "threshold": "--threshold",
    "calibrator": "--calibrator", "combine": "--combine", "covariates": "--covariates",
    "folds": "--folds",
    "prediction": "--prediction", "control": "--control",
}  # fmt: skip
_NAMES = "|".join(sorted(API_FLAGS, key=len, reverse=True))

#: A keyword given a value (``method='profile-map'``, ``method='a', 'b' or 'c'``; HTML writes
#: the quote as ``&#x27;``; not a probability's condition, ``P(judge='a' | human='b')``) and an
#: argument named beside a column (``'x' (cluster=)``).
_KEYWORD = re.compile(
    rf"(?<!P\()(?<!\| )\b({_NAMES})=(?P<q>'|&#x27;)([\w.+-]+)(?P=q)"
    r"((?:, (?P=q)[\w.+-]+(?P=q))*(?:,? or (?P=q)[\w.+-]+(?P=q))?)"
)
_ARGUMENT = re.compile(rf"\(({_NAMES})=\)")
#: A keyword named bare, as in ``batch= is not available with strata= (...)``.
_BARE = re.compile(rf"(?<![-.])\b({_NAMES})=(?=[\s),;:]|$)")

#: What the API's advice says with arguments the commands do not have, in the commands' words.
_PHRASES = (
    (re.compile(r"\bmax_m(?: = (\d+))?\b"), lambda m: "--max-m" + (f" {m[1]}" if m[1] else "")),
    (re.compile(r"invalid=\[None(?:, \.\.\.)?\]"), "--invalid ''"),
    (re.compile(r" \(merge=\{stratum: other\} or merge='auto'\)"),
     " (give them a neighbour's value in the --strata column)"),
    (re.compile(r"with merge=\{stratum: other\}"),
     "by giving it another's value in the --strata column"),
    (re.compile(r" or lower min_per_class explicitly"), ""),
    # the readers' and the join's keywords (a verdict error's ``mapping={1: 0 or 1, ...}``
    # example becomes ``--map 1=0|1 ...``)
    (re.compile(r"mapping=\{([^}]*)\}"), lambda m: " ".join(
        f"--map {v.strip(chr(39))}=0|1"
        for v in re.findall(r"('[^']*'|[^,{}\s][^,{}]*?): 0 or 1", m[1]))),
    (re.compile(r"verdicts='letters'"), "--letters"),
    (re.compile(r"\bon=\(?((?:'[^']+'(?:, )?)+)\)?"),
     lambda m: "--join-on " + ",".join(re.findall(r"'([^']+)'", m[1]))),
    (re.compile(r"with scorer="), "with --scorer NAME"),
    (re.compile(r"item_key="), "--item KEY"),
    (re.compile(r"with human="), "with --human COLUMN"),
    (re.compile(r"mapping="), "--map VALUE=0|1"),
    # the plan's sizes and helpers (``plan --m``, ``plan --regime``)
    (re.compile(r"(?<![\w.-])m must be\b"), "--m must be"),
    (re.compile(r"\bplan\.interval_width\b"), "judgestats plan"),
    (re.compile(r"\bplan\.judge_vs_human\b"), "judgestats plan --regime"),
    (re.compile(r"\b(?:designs\.)?plan\.design_width\b"), "judgestats plan --compare"),
    (re.compile(r"\(?(?:cal|calibration)\.merge\([^)]*\)(?:,| and) test\.merge\([^)]*\)\)?"),
     "(recode the judge column so that they are one letter)"),
)


def cli_words(text: str) -> str:
    """Say the API's keywords in a message as the flags of the command line.

    ``use method='profile-map'`` becomes ``use --method profile-map``, ``method='a', 'b' or
    'c'`` becomes ``--method a, b or c``, ``'x' (cluster=)`` becomes ``'x' (--cluster)`` and
    ``max_m`` ``--max-m``, a bare ``batch=`` ``--batch`` and ``m must be`` ``--m must be``
    (:data:`API_FLAGS` and the phrases beside it): messages and notes are written for the Python
    API, and a command-line user needs the flag. The API's own messages keep its keywords.
    """

    def flag(m: re.Match) -> str:
        rest = m.group(4).replace(m.group("q"), "")
        return f"{API_FLAGS[m.group(1)]} {m.group(3)}{rest}"

    text = _KEYWORD.sub(flag, text)
    text = _ARGUMENT.sub(lambda m: f"({API_FLAGS[m.group(1)]})", text)
    for pattern, words in _PHRASES:
        text = pattern.sub(words, text)
    return _BARE.sub(lambda m: API_FLAGS[m.group(1)], text)


@contextmanager
def warnings_as_lines() -> Iterator[list]:
    """Print the warnings of the block on stderr, one line each (``warning: ...``), in CLI words.

    Python's default display adds the file and source line of the ``warnings.warn`` call, which
    a command-line user has no use for. The filter is local to the block (no global filter).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught
    for w in caught:
        sys.stderr.write(f"warning: {cli_words(str(w.message))}\n")


#: The release that drops a flag renamed in this one (each keeps working one minor release).
DROPPED_IN = "0.3"


def deprecated(args: Any, note: str) -> None:
    """Record a deprecation note on the parsed arguments: printed once, before the output."""
    notes = getattr(args, "notes", None) or []
    if note not in notes:
        notes.append(note)
    args.notes = notes


class _Renamed(argparse.Action):
    """An old flag that keeps working one minor release: it sets its value and says so."""

    def __init__(self, option_strings: Any, dest: str, *, use: str, **kwargs: Any) -> None:
        self.use = use
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None):
        setattr(namespace, self.dest, values)
        deprecated(namespace, f"{option_string} is deprecated: use {self.use} (the old flag "
                              f"works until judgestats {DROPPED_IN})")  # fmt: skip


def renamed(p: argparse.ArgumentParser, old: str, use: str, dest: str, **kwargs: Any) -> None:
    """Add a renamed flag ``old`` (hidden from ``--help``) that stores into ``dest``."""
    p.add_argument(old, dest=dest, action=_Renamed, use=use, help=argparse.SUPPRESS, **kwargs)


def column_list(values: Any) -> tuple[str, ...] | None:
    """Return column names given comma-separated (``--by model,task``), or None.

    ``values`` is one text or several (a flag taking ``nargs="+"``, where ``--by model task``
    is the old spelling: it still works, with a deprecation note given by the caller).
    """
    if values is None:
        return None
    texts = [values] if isinstance(values, str) else list(values)
    cols = tuple(c.strip() for text in texts for c in text.split(",") if c.strip())
    if not cols:
        raise CLIError(f"expected one or more column names, got {values!r}")
    return cols


def columns_option(p: argparse.ArgumentParser, flag: str, text: str) -> None:
    """Add a flag of column names, comma-separated (the spaced old spelling still read)."""
    p.add_argument(flag, nargs="+", default=None, metavar="COLUMN[,COLUMN]", help=text)


def spaced_columns(args: Any, *flags: str) -> None:
    """Note the old spelling of a columns flag (``--by a b``) and read it as ``--by a,b``."""
    for flag in flags:
        dest = flag.lstrip("-").replace("-", "_")
        values = getattr(args, dest, None)
        if values is not None and not isinstance(values, str) and len(values) > 1:
            deprecated(args, f"{flag} {' '.join(values)} is deprecated: write {flag} "
                             f"{','.join(values)} (the old form works until judgestats "
                             f"{DROPPED_IN})")  # fmt: skip
        if values is not None and not isinstance(values, str):
            setattr(args, dest, ",".join(values))


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one-line :class:`CLIError` (JSON with ``--json``)."""

    def error(self, message: str):  # argparse's hook: raise instead of printing usage
        raise CLIError(f"{message} (see {self.prog} --help)", "UsageError")


# ----------------------------------------------------------------------------- parser
def _level(text: str) -> float:
    try:
        v = float(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from exc
    if not 0 < v < 1:
        raise argparse.ArgumentTypeError(f"must be strictly between 0 and 1, got {text}")
    return v


#: The paths of the capability table ``correct`` and ``report`` reach: a 0/1 judge's rate,
#: pooled over strata (``--strata``), a judge alphabet's (``--letters``), a jury's (``--judge
#: a,b``) and a judge score's (``--calibrator``).
_PATHS = (("letter", "rate"), ("letter", "pooled-rate"), ("alphabet", "distribution"),
          ("jury", "rate"), ("score", "rate"))  # fmt: skip


def method_choices() -> tuple[str, ...]:
    """Return the interval methods of the capability table's rows on :data:`_PATHS`, in order.

    Which of them a command's design and data allow, and which is the default, the command's
    spec says (:func:`judgestats.spec.resolve_spec`, the API's errors).
    """
    return tuple(dict.fromkeys(m for r in rows() if (r.judge, r.target) in _PATHS
                               for m in r.methods))  # fmt: skip


def design_option(p: argparse.ArgumentParser, text: str, **kwargs: Any) -> None:
    """Add ``--design`` (help ``text``): one of :func:`judgestats.designs.design_names`."""
    kwargs.setdefault("default", DEFAULT_DESIGN)
    p.add_argument("--design", choices=design_names(), help=text, **kwargs)


def _shared_options(p: argparse.ArgumentParser, *, what: str) -> None:
    """Options ``correct`` and ``report`` share: columns, method, level, seed, examples."""
    p.add_argument("--judge", default=None, metavar="NAME",
                   help="the judge's column (default judge; several, comma-separated: a jury "
                   "or letter pairs); with --example chatbot-arena the judge of the bundled "
                   "votes, gpt-4 (default), gpt-3.5, or both (gpt-4,gpt-3.5: a jury)")  # fmt: skip
    p.add_argument("--human", default=None, metavar="COLUMN",
                   help="the human-label column (default human)")  # fmt: skip
    renamed(p, "--judge-column", "--judge", "judge_column")
    renamed(p, "--human-column", "--human", "human_column")
    p.add_argument(
        "--method",
        default=None,
        choices=method_choices(),
        help="interval method (default: auto under --design by-human-label: adjusted-wald, "
        "the paper's, or the hull of it and profile-map where it may miss; adjusted-wald "
        "under the other designs; in report with --strata (the rate pooled over strata), "
        "adjusted-wald under every design; for judge letters in "
        "report, profile-likelihood-t, or adjusted-delta with --design random or "
        "by-judge-label)",
    )
    design_option(
        p,
        "how the calibration items were chosen: by-human-label (the paper's; valid for "
        "any label mix, the default), random (a random sample of the test items) or "
        "by-judge-label (sampled within the judge's labels)",
    )
    p.add_argument("--confidence-level", type=_level, default=0.95, help="default 0.95")
    p.add_argument("--seed", type=int, default=0, help="seed for splits and resampling (default 0)")
    p.add_argument(
        "--calibration-fraction",
        type=_level,
        default=0.1,
        help=f"--example: share of {what} items used as the calibration set (default 0.1)",
    )


def label_columns(args: Any, *, example: bool) -> None:
    """Resolve the judge and human columns of ``correct``/``report`` (``args.judge_column``...).

    ``--judge`` names the judge's column, except with ``--example`` (the bundled votes'
    judge); the old ``--judge-column``/``--human-column`` win where given.
    """
    if example:
        args.judge = args.judge or "gpt-4"
    args.judge_column = args.judge_column or (None if example else args.judge) or "judge"
    args.human_column = args.human_column or args.human or "human"


_COUNT_HELP = {
    "positive": "count mode: test items the judge labelled 1",
    "n": "count mode: test items in all",
    "tp": "count mode: calibration items with human 1 and judge 1",
    "fn": "count mode: calibration items with human 1 and judge 0",
    "tn": "count mode: calibration items with human 0 and judge 0",
    "fp": "count mode: calibration items with human 0 and judge 1",
}


#: Source-specific flags and their defaults: given with another data source they are an error.
_SOURCE_FLAGS = {
    "by": None, "judge": None, "calibration_fraction": 0.1, "judge_column": None,
    "human": None, "human_column": None, "strata": None, "split": None, "engine": "pandas",
    "cluster": None, "batch": None,
}  # fmt: skip


def _check_flags(args, mode: str, allowed: tuple[str, ...]) -> None:
    """Refuse flags that do not apply to the chosen data source (never ignore them)."""
    stray = [
        "--" + k.replace("_", "-") for k, default in _SOURCE_FLAGS.items()
        if hasattr(args, k) and k not in allowed and getattr(args, k) != default
    ]  # fmt: skip
    if stray:
        verb = "does" if len(stray) == 1 else "do"
        raise CLIError(f"{', '.join(stray)} {verb} not apply to {mode}")


def _need(args, *names: str) -> None:
    missing = [f"--{k}" for k in names if getattr(args, k) is None]
    if missing:
        raise CLIError(f"this plan mode needs {' '.join(missing)}")
