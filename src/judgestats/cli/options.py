"""What the commands share on the command line: the argparse pieces and the CLI's own error."""

from __future__ import annotations

import argparse
import re
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


#: A keyword of the API in a message (``method='profile-map'``, ``method='a', 'b' or 'c'``;
#: HTML writes the quote as ``&#x27;``) and the command-line flag that says the same.
_KEYWORD = re.compile(
    r"\b(method|design|cluster|estimand)=(?P<q>'|&#x27;)([\w.+-]+)(?P=q)"
    r"((?:, (?P=q)[\w.+-]+(?P=q))*(?:,? or (?P=q)[\w.+-]+(?P=q))?)"
)


def cli_words(text: str) -> str:
    """Say an API keyword in a message as the flag of the command line.

    ``use method='profile-map'`` becomes ``use --method profile-map``, ``method='a', 'b' or
    'c'`` becomes ``--method a, b or c``: messages and notes are written for the Python API,
    and a command-line user needs the flag.
    """

    def flag(m: re.Match) -> str:
        rest = m.group(4).replace(m.group("q"), "")
        return f"--{m.group(1)} {m.group(3)}{rest}"

    return _KEYWORD.sub(flag, text)


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
#: pooled over strata (``--strata``), and a judge alphabet's (``--letters``).
_PATHS = (("letter", "rate"), ("letter", "pooled-rate"), ("alphabet", "distribution"))


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
    p.add_argument("--judge-column", default="judge", help="judge label column (default: judge)")
    p.add_argument("--human-column", default="human", help="human label column (default: human)")
    p.add_argument(
        "--method",
        default=None,
        choices=method_choices(),
        help="interval method (default: auto under --design by-human-label: adjusted-wald, "
        "the paper's, or the hull of it and profile-map where it may miss; adjusted-wald "
        "under the other designs; for judge letters in "
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
    p.add_argument("--judge", default="gpt-4", help="--example chatbot-arena: gpt-4 or gpt-3.5")
    p.add_argument(
        "--calibration-fraction",
        type=_level,
        default=0.1,
        help=f"--example: share of {what} items used as the calibration set (default 0.1)",
    )


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
    "by": None, "judge": "gpt-4", "calibration_fraction": 0.1, "judge_column": "judge",
    "human_column": "human", "strata": None, "split": None, "engine": "pandas", "cluster": None,
    "batch": None,
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
