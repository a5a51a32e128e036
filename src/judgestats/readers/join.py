"""Joining human labels to judged rows, and saying how the join went before any statistics.

A label that matches no judged row is the quietest way to lose data: a typo in a model's name,
an item id written ``007`` where the tool wrote ``7``, labels of another run. :func:`join_labels`
counts every label (read, matched, unmatched), refuses unmatched labels unless told they may
be left out, and names a near miss (the same key but for case, spaces or how a number is
written) as such.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._validation import ArgumentTypeError, ColumnError, LabelError, check_choice, listed
from .schema import COLUMNS

__all__ = ["KEYS", "LabelJoin", "join_labels"]

#: The columns a label file may share with the readers' frame, in the order they are joined on.
KEYS = ("model", "task", "item", "epoch", "scorer")

#: The end of the error on unmatched labels: what to do (a caller may say it in its words).
UNMATCHED_ADVICE = "check the labels' keys, or leave those labels out with unmatched='drop'"

#: the temporary key columns of a join (text on both sides)
_TMP = "__judgestats_key_{}__"


@dataclass(frozen=True, slots=True)
class LabelJoin:
    """The judged rows with their human labels, and how the join went.

    Attributes
    ----------
    frame : pandas.DataFrame
        Every judged row, in its order, with the human column (NaN where no label matched:
        a test row) and any carried columns of the labels.
    keys : tuple of str
        The columns joined on.
    human : str
        The human-label column.
    read : int
        Label rows read.
    matched : int
        Label rows that matched at least one judged row.
    unmatched : tuple of str
        The key of each label that matched none (``"dummy-a/100"``: its key values joined
        by ``/``), in the labels' order.
    near_misses : tuple of str
        Key values of unmatched labels that a judged row holds but for case, spaces or how a
        number is written (``item '007' is '7' in the judged rows``).
    labelled_rows : int
        Judged rows that got a label (an item's epochs share its label).
    judged_rows : int
        Judged rows in all.
    across_models : int
        Labels applied to rows of several models (labels without a model column, joined with
        an explicit ``on=``).

    Examples
    --------
    Made by :func:`join_labels`: the join reports itself before any statistics.

    >>> import pandas as pd
    >>> import judgestats as js
    >>> items = pd.DataFrame({"model": ["a", "a", "b", "b"], "item": ["1", "7", "1", "7"],
    ...                       "judge": [1, 0, 1, 1]})
    >>> labels = pd.DataFrame({"model": ["a", "b"], "item": [7, 7], "human": [0, 1]})
    >>> joined = js.readers.join_labels(items, labels)
    >>> joined.read, joined.matched, joined.unmatched, joined.labelled_rows, joined.judged_rows
    (2, 2, (), 2, 4)
    >>> joined.keys
    ('model', 'item')
    """

    frame: Any
    keys: tuple[str, ...]
    human: str
    read: int
    matched: int
    unmatched: tuple[str, ...]
    near_misses: tuple[str, ...]
    labelled_rows: int
    judged_rows: int
    across_models: int = 0

    def summary(self) -> str:
        """Return the join in one sentence: labels read, matched, unmatched (first ones)."""
        text = f"{_labels(self.read)} read, {self.matched} matched"
        if self.unmatched:
            text += (f", {len(self.unmatched)} unmatched (first: "
                     f"{listed(self.unmatched, limit=3)}; left out)")  # fmt: skip
        shared = (f"; {_labels(self.across_models)} applied to several models' rows"
                  if self.across_models else "")  # fmt: skip
        return (f"{text}; {self.labelled_rows} of {self.judged_rows} judged rows labelled "
                f"(joined on {', '.join(self.keys)}{shared})")  # fmt: skip


def _text_keys(frame: Any, keys: tuple[str, ...], side: str) -> Any:
    """Return the key columns as text (integral numbers without '.0'), refusing empty keys."""
    import pandas as pd

    out = pd.DataFrame(index=frame.index)
    for k in keys:
        values = frame[k]
        if values.isna().any():
            first = int(values.isna().to_numpy().nonzero()[0][0])
            raise LabelError(f"the {side} have no {k!r} on {int(values.isna().sum())} row(s) "
                             f"(first: row {first + 1}): every row needs one")  # fmt: skip
        out[_TMP.format(k)] = [_text(v) for v in values]
    return out


def _text(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _near_miss(value: str, judged: set[str]) -> tuple[str, str] | None:
    """Return a near miss of a label's key value: (the judged value, how they differ), or None.

    A near miss is a value a judged row holds but for case, spaces or how a number is written.
    """
    folded = {j.strip().casefold(): j for j in judged}
    hit = folded.get(value.strip().casefold())
    if hit is not None:
        case = hit.strip() != value.strip()
        spaces = hit.casefold() != value.casefold()
        how = " and ".join(w for w, yes in (("case", case), ("spaces", spaces)) if yes)
        return hit, f"they differ in {how}"
    try:
        number = float(value)
    except ValueError:
        return None
    for j in judged:
        try:
            if float(j) == number:
                return j, ("the same number written another way: leading zeros, a decimal "
                           "point, another type")  # fmt: skip
        except ValueError:
            continue
    return None


def join_labels(
    items: Any, labels: Any, *, human: str = "human", on: Any = None,
    unmatched: str = "raise", duplicates: str = "raise", carry: Any = (),
) -> LabelJoin:  # fmt: skip
    """Join human labels to judged rows, counting every label and refusing silent losses.

    Parameters
    ----------
    items : pandas.DataFrame
        The judged rows: a reader's frame (:data:`judgestats.readers.COLUMNS`) or any frame
        holding the key columns.
    labels : pandas.DataFrame
        One row per label: the key columns (an ``item``, or ``sample_id``, column; ``model``,
        ``task``, ``epoch`` or ``scorer`` where the labels differ by them) and ``human``.
    human : str, default "human"
        The labels' human-label column.
    on : str or sequence of str, optional
        The key columns; default the columns of :data:`KEYS` the labels hold. Labels without
        a model column, joined by default on frames of several models, must not match rows of
        several models (a label judges one model's answer); an explicit ``on=`` (``"item"``)
        says that each label is the item's, applied to every model's row (counted in
        ``LabelJoin.across_models``).
    unmatched : {"raise", "drop"}, default "raise"
        A label that matches no judged row is an error naming it (``"raise"``), or is left
        out and counted (``"drop"``: ``LabelJoin.unmatched``).
    duplicates : {"raise", "keep"}, default "raise"
        Two labels with one key are an error, or are both kept (several raters: each judged
        row of the key is repeated once per label).
    carry : sequence of str, default ()
        Other columns of the labels to carry to the joined rows (where the labels have them).

    Returns
    -------
    LabelJoin
        The joined frame and the join's counts; ``summary()`` says them in one sentence
        ("40 labels read, 35 matched, 5 unmatched (first: dummy-a/100, ...)").

    Raises
    ------
    ColumnError
        A key or human column missing from either side (the message lists the columns).
    LabelError
        Unmatched labels (``unmatched="raise"``), naming at most five and the count, and
        each near miss (``'DUMMY-A'`` for ``'dummy-a'``, item ``'007'`` for ``'7'``); two
        labels with one key (``duplicates="raise"``); a label without a key value; labels
        without a model column that match rows of several models (without ``on=``); a label
        whose human cell is empty (NaN, None): drop it, the judged rows without a label are
        the test rows; a human label outside 0/1, true/false and booleans (``'yes'``, ``2``:
        the readers' rule, :func:`judgestats.io.parse_labels`). The joined labels are 0.0/1.0.

    See Also
    --------
    readers.read_lm_eval : A reader whose frame this joins.
    evaluate : Correct every group of the joined frame.

    Examples
    --------
    >>> import pandas as pd
    >>> import judgestats as js
    >>> items = pd.DataFrame({"model": ["a", "a", "b", "b"], "item": ["1", "7", "1", "7"],
    ...                       "judge": [1, 0, 1, 1]})
    >>> labels = pd.DataFrame({"model": ["a", "b"], "item": [7, 7], "human": [0, 1]})
    >>> joined = js.readers.join_labels(items, labels)
    >>> joined.summary()
    '2 labels read, 2 matched; 2 of 4 judged rows labelled (joined on model, item)'
    >>> joined.frame["human"].tolist()
    [nan, 0.0, nan, 1.0]
    >>> typo = pd.DataFrame({"model": ["A"], "item": ["007"], "human": [1]})
    >>> try:
    ...     js.readers.join_labels(items, typo)
    ... except js.errors.LabelError as error:
    ...     print(*str(error).split("; "), sep=chr(10))  # doctest: +NORMALIZE_WHITESPACE
    1 label read, 0 matched, 1 match no judged row (model, item: A/007)
    model 'A' is 'a' in the judged rows (they differ in case)
    item '007' is '7' in the judged rows (the same number written another way:
      leading zeros, a decimal point, another type)
    check the labels' keys, or leave those labels out with unmatched='drop'
    """
    check_choice("unmatched", unmatched, ("raise", "drop"))
    items, labels = _as_pandas(items, "items"), _as_pandas(labels, "labels")
    check_choice("duplicates", duplicates, ("raise", "keep"))
    if "item" not in labels.columns and "sample_id" in labels.columns and on is None:
        labels = labels.rename(columns={"sample_id": "item"})
    carry = [c for c in ([carry] if isinstance(carry, str) else carry) if c in labels.columns]
    keys = _keys(items, labels, human, on, carry)
    left = _text_keys(items, keys, "judged rows")
    right = _text_keys(labels, keys, "labels")
    tmp = list(right.columns)
    labels = labels.assign(**{human: _check_human(labels, human, right)})
    if duplicates == "raise":
        _check_duplicates(right, labels, keys)
    judged = set(map(tuple, left.to_numpy().tolist()))
    found = [tuple(r) in judged for r in right.to_numpy().tolist()]
    missing = [r for r, ok in zip(right.to_numpy().tolist(), found, strict=True) if not ok]
    shown = tuple("/".join(r) for r in missing)
    spanning = _across_models(items, left, right, keys, explicit=on is not None)
    near = _near_misses(missing[:5], keys, left)
    if missing and unmatched == "raise":
        raise LabelError(
            f"{_labels(len(labels))} read, {sum(found)} matched, {len(missing)} match no judged "
            f"row ({', '.join(keys)}: {listed(shown)})"
            + (f"; {'; '.join(near)}" if near else _judged_keys(left))
            + f"; {UNMATCHED_ADVICE}"
        )
    extra = right.assign(**{c: labels[c].to_numpy() for c in (human, *carry)})
    extra = extra[[*tmp, human, *carry]]
    keep = [c for c in items.columns if c not in (human, *carry)]
    validate = "many_to_one" if duplicates == "raise" else "many_to_many"
    joined = items[keep].assign(**{c: left[c].to_numpy() for c in tmp})
    joined = joined.merge(extra, on=tmp, how="left", sort=False, validate=validate)
    joined = joined.drop(columns=tmp)
    return LabelJoin(frame=joined, keys=keys, human=human, read=len(labels), matched=sum(found),
                     unmatched=shown, near_misses=tuple(near),
                     labelled_rows=int(joined[human].notna().sum()),
                     judged_rows=len(items), across_models=spanning)  # fmt: skip


def _labels(n: int) -> str:
    return f"{n} label{'' if n == 1 else 's'}"


def _as_pandas(frame: Any, name: str) -> Any:
    """Return a frame as pandas (polars and Arrow-backed frames convert), refusing the rest."""
    import pandas as pd

    if isinstance(frame, pd.DataFrame):
        return frame
    if hasattr(frame, "to_pandas"):
        return frame.to_pandas()
    raise ArgumentTypeError(f"{name} must be a data frame (pandas, polars), got "
                            f"{type(frame).__name__}")  # fmt: skip


def _judged_keys(left: Any) -> str:
    """Show the judged rows' first keys, so that a label's key can be compared with them."""
    first = list(dict.fromkeys("/".join(r) for r in left.head(1000).to_numpy().tolist()))
    return f"; the judged rows' keys are like {', '.join(first[:3])}"


def _keys(items: Any, labels: Any, human: str, on: Any, carry: Any = ()) -> tuple[str, ...]:
    """Return the key columns, refusing a key or the human column that a side lacks."""
    if on is None:
        keys = tuple(k for k in KEYS if k in labels.columns)
        if "item" not in keys:
            raise ColumnError(f"the labels need an item (or sample_id) column; their columns "
                              f"are {list(labels.columns)}")  # fmt: skip
    else:
        keys = (on,) if isinstance(on, str) else tuple(on)
    if human not in labels.columns:
        taken = {*KEYS, *COLUMNS, "sample_id", *([on] if isinstance(on, str) else on or ()),
                 *carry}  # a judged row's columns, the keys and the carried ones: not labels
        others = [c for c in labels.columns if c not in taken]
        name = f"human={others[0]!r}" if len(others) == 1 else "human= (one of its columns)"
        raise ColumnError(f"the labels have no human-label column {human!r}; their columns are "
                          f"{list(labels.columns)}: name it with {name}")  # fmt: skip
    for side, frame in (("labels", labels), ("judged rows", items)):
        lacking = [k for k in keys if k not in frame.columns]
        if lacking:
            raise ColumnError(f"the {side} have no column(s) {lacking} to join on; their "
                              f"columns are {list(frame.columns)}")  # fmt: skip
    return keys


def _across_models(items: Any, left: Any, right: Any, keys: tuple[str, ...], *,
                   explicit: bool) -> int:  # fmt: skip
    """Return how many labels match rows of several models (0 when the labels name the model).

    Labels without a model column, joined on the default keys, are one model's answers' labels:
    one that matches rows of several models is refused (add a model column), unless ``on=``
    says the keys, and so that a label is the item's, whatever the model.
    """
    if "model" in keys or "model" not in items.columns:
        return 0
    tmp = list(left.columns)
    models = left.assign(model=items["model"].astype(str).to_numpy()).groupby(tmp)["model"]
    several = models.unique()[models.nunique() > 1]
    shared = {k if isinstance(k, tuple) else (k,) for k in several.index}
    spans = [tuple(r) in shared for r in right[tmp].to_numpy().tolist()]
    if not any(spans) or explicit:
        return sum(spans)
    shown = ["/".join(r) for r, yes in zip(right.to_numpy().tolist(), spans, strict=True) if yes]
    names = sorted({m for ms in several for m in ms})
    on = repr(keys[0]) if len(keys) == 1 else repr(keys)
    raise LabelError(
        f"the labels have no model column and {sum(spans)} of {len(right)} match rows of several "
        f"models ({', '.join(keys)}: {listed(shown)}; models {listed(names)}): each would be "
        "every model's label, though a label judges one model's answer; add a model column to "
        f"the labels, or, if a label is the item's whatever the model, say so with on={on}"
    )


def _check_human(labels: Any, human: str, right: Any) -> Any:
    """Return the human labels as 0.0/1.0, refusing an empty cell and any other value.

    An empty cell would make a labelled row a test row; a value outside 0/1, true/false and
    booleans (``'yes'``, ``2``) is refused by the readers' one rule
    (:func:`judgestats.io.parse_labels`, which the command line reads its files with), so the
    join never hands ``evaluate`` a label it would refuse later. Rows are named by position.
    """
    from ..io import parse_labels

    empty = labels[human].isna().to_numpy()
    if empty.any():
        shown = ["/".join(r) for r in right[empty].to_numpy().tolist()]
        raise LabelError(
            f"{_labels(int(empty.sum()))} of {len(labels)} have an empty {human!r} cell "
            f"({listed(shown)}): the labels must list the labelled rows only, each with its "
            "label; drop those rows (the judged rows without a label are the test rows)"
        )
    return parse_labels(labels[human].to_numpy(dtype=object), human, missing_ok=False,
                        first_line=0, unit="row of the labels")  # fmt: skip


def _check_duplicates(right: Any, labels: Any, keys: tuple[str, ...]) -> None:
    twice = right.duplicated(keep=False)
    if twice.any():
        shown = ["/".join(r) for r in right[twice].drop_duplicates().to_numpy().tolist()]
        raise LabelError(f"the labels label some ({', '.join(keys)}) twice: {listed(shown)}; "
                         "keep one label per key")  # fmt: skip


def _near_misses(missing: list[list[str]], keys: tuple[str, ...], left: Any) -> list[str]:
    """Name the near misses among (at most five) unmatched labels' key values.

    One sentence per column and kind of miss: ``item '007' is '7' in the judged rows (...)``,
    or, for several, ``item '000' is '0', '001' is '1' in the judged rows (...)``.
    """
    found: dict[tuple[str, str], list[str]] = {}
    for row in missing:
        for k, value in zip(keys, row, strict=True):
            judged = set(left[_TMP.format(k)])
            if value in judged:
                continue
            near = _near_miss(value, judged)
            if near is None:
                continue
            pairs = found.setdefault((k, near[1]), [])
            if f"{value!r} is {near[0]!r}" not in pairs:
                pairs.append(f"{value!r} is {near[0]!r}")
    return [f"{k} {listed(pairs, limit=3)} in the judged rows ({how})"
            for (k, how), pairs in found.items() if pairs]  # fmt: skip
