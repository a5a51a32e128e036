"""Readers of eval tools' output: one schema for every tool (guide: Reading eval tools' output).

Each reader returns a pandas DataFrame whose first columns are :data:`COLUMNS` (``model``,
``task``, ``item``, ``epoch``, ``scorer``, ``judge``, ``score``; :mod:`.schema` says what each
holds), then the tool's own columns prefixed by its name. Join human labels with
:func:`join_labels` (on ``item``, and ``model`` / ``task`` where they differ: it counts every
label and refuses the ones that match no judged row) and pass the frame to
:func:`judgestats.evaluate` (``cluster="item"`` when an item repeats). One helper,
:func:`.schema.judged_frame`, turns every reader's rows into that frame; a row without a
verdict is the letter ``"invalid"``, never a fail.
"""

from __future__ import annotations

from .deepeval import read_deepeval
from .inspect import INSPECT_VERDICTS, read_inspect
from .join import LabelJoin, join_labels
from .lm_eval import read_lm_eval
from .mlflow import MLFLOW_VERDICTS, read_mlflow
from .promptfoo import MODEL_GRADED, read_promptfoo
from .schema import COLUMNS, RUNS, judge_values

__all__ = [
    "COLUMNS",
    "INSPECT_VERDICTS",
    "MLFLOW_VERDICTS",
    "MODEL_GRADED",
    "RUNS",
    "LabelJoin",
    "join_labels",
    "judge_values",
    "read_deepeval",
    "read_inspect",
    "read_lm_eval",
    "read_mlflow",
    "read_promptfoo",
]
