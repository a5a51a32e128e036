"""The leaderboard's row path: read the rows, cross-fit the prediction, solve with controls.

:func:`judgestats.pairwise.pairwise` takes this path when ``prediction=`` names columns (a
jury, a judge's probabilities), or ``covariates=`` or ``control=`` is given: the frame is read
row by row (:mod:`~judgestats.pairwise.rows`), the human verdict predicted by the cross-fitted
stacking regression (:mod:`~judgestats.pairwise.predictor`), and the strengths (net of the
controls) solve the prediction-powered equation of :mod:`~judgestats.pairwise.row_powered`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._validation import ColumnError, CountError, MethodError, check_choice
from .counting import PairCounts
from .intervals import normal_quantile
from .prediction_powered import PREDICTIONS, label_probabilities
from .predictor import cross_fitted_prediction
from .row_powered import RowPoweredFit, fit_row_powered
from .rows import RowRequest, read_rows, row_request

__all__ = ["control_fields", "frame_columns", "row_path_fit", "row_request_of"]


def frame_columns(frame: Any) -> tuple[tuple[str, ...], frozenset[str]]:
    """Return the frame's columns and its numeric ones (by its engine's schema)."""
    from ..frames import _engine_warnings, _narwhals, open_frame

    nw = _narwhals()
    with _engine_warnings():
        schema = open_frame(nw, frame, ()).collect_schema()
    return tuple(schema), frozenset(c for c, dtype in schema.items() if dtype.is_numeric())


def row_request_of(
    frame: Any, prediction: Any, covariates: Any, control: Any, method: str, reps: int, *,
    prediction_powered: bool,
) -> RowRequest | None:  # fmt: skip
    """Return the row path's request, or None when the counts suffice.

    The counts suffice when ``prediction`` is a name of
    :data:`~judgestats.pairwise.prediction_powered.PREDICTIONS` and neither covariates nor
    controls are given.

    Raises
    ------
    MethodError
        The row path with ``method="joint-mle"`` or ``bootstrap``; ``prediction="confusion"``
        with covariates or controls; a ``prediction`` of no known kind.
    """
    named = isinstance(prediction, str) and prediction in PREDICTIONS
    if named and covariates is None and control is None:
        return None
    if not isinstance(prediction, str | list | tuple | Mapping):
        check_choice("prediction", prediction, PREDICTIONS)  # a type error naming the choices
    if not prediction_powered or reps:
        raise MethodError(
            "prediction= columns, covariates= and control= need method='ppi' without bootstrap; "
            f"got method={method!r}, bootstrap={reps!r}"
        )
    if prediction == "confusion":
        raise MethodError(
            "prediction='confusion' is the joint model's posterior given the judge letter; it "
            "takes no covariates= or control= (use the default prediction or judge columns)"
        )
    columns, numeric = frame_columns(frame)
    if isinstance(prediction, str) and not named and prediction not in columns:
        raise ColumnError(
            f"prediction={prediction!r} is neither one of {PREDICTIONS!r} nor a column of the "
            f"frame (its columns: {list(columns)[:30]!r})"
        )
    return row_request(None if named else prediction, covariates, control, numeric.__contains__)


def control_fields(fit: Any, level: float, notes: list, request: Any) -> dict[str, Any]:
    """Return the leaderboard's fields of the row path: predictors, covariates, controls (Wald)."""
    if request is None:
        return {}
    fields: dict[str, Any] = {"predictors": request.predictors, "covariates": request.covariates}
    if request.controls:
        coef, cov = fit.control_coefficient, fit.control_covariance
        se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
        z = normal_quantile(level)
        fields.update(controls=request.controls, control_coefficient=coef, control_se=se,
                      control_ci=np.column_stack([coef - z * se, coef + z * se]))  # fmt: skip
        notes.append(
            f"style control: strengths net of {list(request.controls)} (win probabilities at "
            "equal controls); the naive and human-only fits beside have no controls"
        )
    return fields


def _describe(request: RowRequest, judge: str, folds: int) -> str:
    used = list(request.predictors) or [f"{judge} letters"]
    covs = f"; covariates {list(request.covariates)}" if request.covariates else ""
    return f"cross-fitted stacking of {', '.join(used)}{covs} ({folds} folds)"


def row_path_fit(
    frame: Any,
    names: Mapping[str, Any],
    counts: PairCounts,
    request: RowRequest,
    *,
    design: Any,
    cluster: str | None,
    rng: np.random.Generator,
) -> RowPoweredFit:
    """Fit the leaderboard's strengths (net of ``request``'s controls) from ``frame``'s rows.

    Raises
    ------
    CountError
        Fewer than two labelled rows (or clusters) to cross-fit the prediction on.
    """
    rows = read_rows(frame, names, request, cluster)
    lab = rows.labelled
    units = np.unique(rows.cluster[lab]).size if rows.cluster is not None else int(lab.sum())
    if units < 2:
        raise CountError(
            f"the cross-fitted prediction needs human verdicts on at least two pairs (or "
            f"clusters); got {units}"
        )
    f, folds = cross_fitted_prediction(rows, request.letters, rng)
    inverse_pi = 1.0 / label_probabilities(counts, design)[rows.judge]
    table = counts.confusion_table().astype(float)
    confusion = table / np.maximum(table.sum(axis=0, keepdims=True), 1.0)
    return fit_row_powered(
        rows.first, rows.second, rows.human, f, inverse_pi, models=rows.models,
        controls=rows.controls, control_names=request.controls, units=rows.cluster,
        prediction=_describe(request, str(names["judge"]), folds), confusion=confusion,
    )  # fmt: skip
