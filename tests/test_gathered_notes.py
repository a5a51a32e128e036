"""Gathering the notes many groups share (issue 38 §2: a report of 20 models, one line)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import judgestats as js
from judgestats.gathered_notes import GATHER_AT, gather_notes


def _twenty_models(rng: np.random.Generator, *, labelled: float = 0.08) -> pd.DataFrame:
    """20 models of 400 judged items each, a ``labelled`` share of them human-labelled."""
    parts = []
    for i in range(20):
        truth = rng.random(400) < 0.3 + 0.02 * i
        judge = np.where(truth, rng.random(400) < 0.85, rng.random(400) < 0.1).astype(int)
        human = np.where(rng.random(400) < labelled, truth.astype(float), np.nan)
        parts.append(pd.DataFrame({"model": f"model-{i:02d}", "judge": judge, "human": human}))
    return pd.concat(parts, ignore_index=True)


@pytest.fixture(scope="module")
def twenty():
    frame = _twenty_models(np.random.default_rng(38))
    with pytest.warns(js.errors.WeakCalibrationWarning):
        ev = js.evaluate(frame, method="adjusted-wald", design="by-human-label")
    return frame, ev


def test_a_report_of_20_models_states_their_weak_calibration_once(twenty):
    frame, ev = twenty
    notes = js.report.report_notes(ev)
    weak = [n for n in notes if "weak calibration" in n]
    assert len(weak) == 1, notes
    # independent counts from the frame: every model's labelled items per human class
    labelled = frame.dropna(subset=["human"])
    m1 = labelled.groupby("model")["human"].sum().astype(int)
    m0 = labelled.groupby("model")["human"].count() - m1
    assert m1.max() < 100 and m0.max() < 100  # every model is weakly calibrated
    assert weak[0] == (
        "models model-00, model-01, model-02, model-03, … (20): weak calibration: only "
        f"{m1.min()}–{m1.max()} positive and {m0.min()}–{m0.max()} negative human-labelled "
        "items (fewer than 100 per class); the interval may under-cover "
        "(method='profile-map' does not)"
    )
    text = ev.report()
    assert text.count("weak calibration: only") == 1
    assert not re.search(r"^- model-\d\d: weak calibration", text, flags=re.M)
    # each row still carries its own tag and its own counts in the table
    for g in ev.groups:
        c = ev.corrections[g]
        assert (c.m1, c.m0) == (m1[g], m0[g])


def test_notes_shared_by_fewer_than_three_groups_keep_their_own_lines_and_numbers():
    assert GATHER_AT == 3
    notes = [("a", "weak calibration: only 12 positive items"),
             ("b", "weak calibration: only 40 positive items"),
             ("c", "judge near chance")]  # fmt: skip
    assert gather_notes(notes, noun="models") == [
        "a: weak calibration: only 12 positive items",
        "b: weak calibration: only 40 positive items",
        "c: judge near chance",
    ]


def test_gathered_lines_keep_the_order_of_first_appearance_and_other_notes_stay():
    notes = [(m, "label-mix difference: rate (0.5) differs (z = -2.9)") for m in "ab"]
    notes += [(m, f"weak calibration: only {k} negative items") for m, k in zip("abc", (88, 9, 50), strict=True)]
    notes.insert(1, ("z", "the judge is too close to chance"))
    assert gather_notes(notes, noun="groups") == [
        "a: label-mix difference: rate (0.5) differs (z = -2.9)",
        "z: the judge is too close to chance",
        "b: label-mix difference: rate (0.5) differs (z = -2.9)",
        "groups a, b, c (3): weak calibration: only 9–88 negative items",
    ]


def test_negative_ranges_read_with_to_and_equal_numbers_stay_one_number():
    notes = [(m, f"shift (z = {z}) of 100 items") for m, z in zip("abc", ("-2.9", "-3.1", "2.5"), strict=True)]
    assert gather_notes(notes) == ["groups a, b, c (3): shift (z = -3.1 to 2.5) of 100 items"]


def test_numbers_inside_names_and_quotes_are_words_not_spanned():
    # 'model2' and the stratum '2024' are names: notes that differ there are different notes
    notes = [(m, f"strata '{s}' have few items; method='profile-map'")
             for m, s in zip("abcd", ("2024", "2024", "2025", "2024"), strict=True)]  # fmt: skip
    assert gather_notes(notes) == [
        "groups a, b, d (3): strata '2024' have few items; method='profile-map'",
        "c: strata '2025' have few items; method='profile-map'",
    ]


def test_up_to_six_groups_are_all_named_more_are_cut_after_four():
    six = [(f"m{i}", "same note") for i in range(6)]
    assert gather_notes(six, noun="models") == ["models m0, m1, m2, m3, m4, m5 (6): same note"]
    seven = [(f"m{i}", "same note") for i in range(7)]
    assert gather_notes(seven, noun="models") == ["models m0, m1, m2, m3, … (7): same note"]
    # labels are written as the caller prints them (report_notes: shown_label, so a label
    # that prints blank is quoted in a gathered line as in a per-group line)
    assert gather_notes([("' '", "x"), ("b", "x"), ("c", "x")]) == ["groups ' ', b, c (3): x"]


def test_the_summary_of_20_models_gathers_its_warnings_by_class(twenty):
    frame, ev = twenty
    notes = [line for line in ev.summary().splitlines() if line.startswith("  note:")]
    # each model's warning names its smaller class (class 1 on a tie, as correct() words it):
    # one line per class named, not one per model
    labelled = frame.dropna(subset=["human"])
    m1 = labelled.groupby("model")["human"].sum().astype(int)
    m0 = labelled.groupby("model")["human"].count() - m1
    small = {1: sorted(m1[m1 <= m0].index), 0: sorted(m0[m0 < m1].index)}
    assert len(notes) == 2, notes
    for line in notes:
        cls = int(line.split("human class ")[1][0])
        k = (m1 if cls == 1 else m0)[small[cls]]
        who = f"models {', '.join(small[cls][:4])}, … ({len(small[cls])})"
        assert line.startswith(f"  note: {who}: only {k.min()}–{k.max()} calibration items of "
                               f"human class {cls} ")  # fmt: skip


def test_named_numbers_are_not_spanned():
    """'human class 0' and 'human class 1' are two notes (a range '0–1' would mean nothing)."""
    notes = [(m, f"only {k} items of human class {c}")
             for m, k, c in (("a", 7, 1), ("b", 9, 0), ("c", 8, 1), ("d", 12, 1), ("e", 3, 0))]
    assert gather_notes(notes) == ["groups a, c, d (3): only 7–12 items of human class 1",
                                   "b: only 9 items of human class 0",
                                   "e: only 3 items of human class 0"]  # fmt: skip
    judge = [(m, f"no item has judge label {v}") for m, v in zip("abc", "101", strict=True)]
    assert gather_notes(judge) == [f"{m}: no item has judge label {v}" for m, v in zip(
        "abc", "101", strict=True)]  # fmt: skip


def test_an_interval_that_differs_is_given_per_group_not_as_two_ranges():
    """'0.28–0.60' and '0.30–0.88' are not '0.28–0.30–0.60–0.88' (auto's widened note)."""
    notes = [(m, f"widened ({k} items); the paper's interval is {ci}")
             for m, k, ci in (("a", 36, "0.28–0.60"), ("b", 24, "0.30–0.88"),
                              ("c", 30, "0.28–0.60"))]  # fmt: skip
    assert gather_notes(notes) == [
        "groups a, b, c (3): widened (24–36 items); the paper's interval is 0.28–0.60 (a), "
        "0.30–0.88 (b), 0.28–0.60 (c)"
    ]
    same = [(m, "the paper's interval is 0.1–0.2") for m in "abc"]
    assert gather_notes(same) == ["groups a, b, c (3): the paper's interval is 0.1–0.2"]
