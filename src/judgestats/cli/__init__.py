"""The ``judgestats`` command.

``judgestats correct`` corrects a judged rate from files (CSV or Parquet), from counts, or on a
bundled example data set, and prints a table (or JSON with ``--json``). ``judgestats plan``
sizes and splits the calibration set. ``judgestats report`` corrects every model (group) of
one file of judged items and writes a Markdown, LaTeX or HTML report. Errors print one line
and exit with status 2.

One module per command (:mod:`.correct`, :mod:`.plan`, :mod:`.report`, :mod:`.agreement`,
:mod:`.sequential`, :mod:`.pairwise`), each with the function that adds its options and the one
that runs it; the dispatcher :mod:`.main` (one table of sub-commands, ``build_parser``,
``main``); and what the commands share: :mod:`.options` (argparse pieces and the CLI's error),
:mod:`.inputs` (counts, label files and the bundled examples read into rows) and :mod:`.table`
(the text table). A command resolves ``--design`` and ``--method`` once, into the estimation
spec of the API it calls (:mod:`judgestats.spec`), whose named errors it prints.
"""

from __future__ import annotations

from .inputs import (
    _rows_from_files as _rows_from_files,
)
from .main import (
    build_parser,
    main,
)
from .options import (
    EXAMPLES,
    CLIError,
)

__all__ = [
    "EXAMPLES",
    "CLIError",
    "build_parser",
    "main",
]
