"""The bundled data sets reproduce the published per-target summaries of their sources."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")

import judgestats  # noqa: E402
from judgestats.datasets import (  # noqa: E402
    ARENA_TARGETS,
    citation,
    load_chatbot_arena,
    load_nq301,
)

REFERENCE = Path(__file__).parents[1] / "reference"
CONVENTION = "A_ties_are_not_wins"
ARENA_JUDGES = ("gpt-4-0125-preview", "gpt-3.5-turbo-0125")
RATE_TOL = 5e-5  # the summaries round rates to 4 decimals


def _summary(filename: str) -> dict[tuple[str, str], dict[str, str]]:
    """(judge_name, target_model) -> summary row, convention A only."""
    with open(REFERENCE / filename, newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["convention"] == CONVENTION]
    return {(r["judge_name"], r["target_model"]): r for r in rows}


ARENA_SUMMARY = _summary("arena_summary_by_target.csv")
NQ301_SUMMARY = _summary("nq301_summary_by_target.csv")


@pytest.fixture(scope="module")
def arena_all():
    return load_chatbot_arena("all")


@pytest.fixture(scope="module")
def nq301():
    return load_nq301()


def _per_target(df, judge_name: str, target: str):
    sub = df[(df["judge_name"] == judge_name) & (df["target_model"] == target)]
    return sub["human"].to_numpy(), sub["judge"].to_numpy()


def _check_against_summary(human, judge, row) -> None:
    n = len(human)
    assert n == int(row["n"])
    assert int(human.sum()) == int(row["n_human_pos"])
    assert int(n - human.sum()) == int(row["n_human_neg"])
    assert abs(human.mean() - float(row["true_rate_theta"])) <= RATE_TOL
    assert abs(judge.mean() - float(row["naive_judge_rate_p"])) <= RATE_TOL


def _rogan_gladen_in_sample(human, judge) -> float:
    """(p + q0 - 1)/(q0 + q1 - 1) with q0, q1 from the same rows (by hand)."""
    pos = human == 1
    neg = ~pos
    p = judge.mean()
    q1 = (judge[pos] == 1).mean()  # sensitivity
    q0 = (judge[neg] == 0).mean()  # specificity
    return (p + q0 - 1.0) / (q0 + q1 - 1.0)


# ------------------------------------------------------------------- (a) Arena vs summary
def test_arena_summary_covers_both_judges_and_20_targets():
    assert {j for j, _ in ARENA_SUMMARY} == set(ARENA_JUDGES)
    assert len(ARENA_SUMMARY) == 2 * 20
    assert set(ARENA_TARGETS) <= {t for _, t in ARENA_SUMMARY}


@pytest.mark.parametrize(("judge_name", "target"), sorted(ARENA_SUMMARY))
def test_arena_matches_summary(arena_all, judge_name, target):
    human, judge = _per_target(arena_all, judge_name, target)
    _check_against_summary(human, judge, ARENA_SUMMARY[judge_name, target])


@pytest.mark.parametrize(
    ("alias", "judge_name"),
    [
        ("gpt-4", "gpt-4-0125-preview"),
        ("gpt-4-0125-preview", "gpt-4-0125-preview"),
        ("gpt-3.5", "gpt-3.5-turbo-0125"),
        ("gpt-3.5-turbo", "gpt-3.5-turbo-0125"),
        ("gpt-3.5-turbo-0125", "gpt-3.5-turbo-0125"),
    ],
)
def test_arena_judge_aliases(arena_all, alias, judge_name):
    df = load_chatbot_arena(alias)
    assert set(df["judge_name"]) == {judge_name}
    expected = arena_all[arena_all["judge_name"] == judge_name].reset_index(drop=True)
    pd.testing.assert_frame_equal(df, expected)
    for target in ARENA_TARGETS:
        human, judge = _per_target(df, judge_name, target)
        _check_against_summary(human, judge, ARENA_SUMMARY[judge_name, target])


def test_arena_default_judge_is_gpt4():
    assert set(load_chatbot_arena()["judge_name"]) == {"gpt-4-0125-preview"}


# ---------------------------------------------------------- (b) in-sample Rogan-Gladen identity
@pytest.mark.parametrize(("judge_name", "target"), sorted(ARENA_SUMMARY))
def test_arena_in_sample_rogan_gladen_identity(arena_all, judge_name, target):
    human, judge = _per_target(arena_all, judge_name, target)
    assert abs(_rogan_gladen_in_sample(human, judge) - human.mean()) <= 1e-12


@pytest.mark.parametrize(("judge_name", "target"), sorted(NQ301_SUMMARY))
def test_nq301_in_sample_rogan_gladen_identity(nq301, judge_name, target):
    human, judge = _per_target(nq301, judge_name, target)
    assert abs(_rogan_gladen_in_sample(human, judge) - human.mean()) <= 1e-12


# ------------------------------------------------------------------- (c) NQ-301 vs summary
def test_nq301_summary_covers_12_systems():
    assert len(NQ301_SUMMARY) == 12
    assert {j for j, _ in NQ301_SUMMARY} == {"gpt-4"}


@pytest.mark.parametrize(("judge_name", "target"), sorted(NQ301_SUMMARY))
def test_nq301_matches_summary(nq301, judge_name, target):
    human, judge = _per_target(nq301, judge_name, target)
    _check_against_summary(human, judge, NQ301_SUMMARY[judge_name, target])


# ------------------------------------------------------------------- (d) bad judge name
@pytest.mark.parametrize("bad", ["gpt4", "GPT-4", "claude-3-opus-20240229", ""])
def test_bad_judge_raises_method_error(bad):
    with pytest.raises(judgestats.errors.MethodError) as info:
        load_chatbot_arena(bad)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    for valid in ("gpt-4", "gpt-4-0125-preview", "gpt-3.5", "gpt-3.5-turbo-0125", "all"):
        assert repr(valid) in message


def test_bad_citation_name_raises_method_error():
    with pytest.raises(judgestats.errors.MethodError, match="'chatbot-arena'"):
        citation("arena")


@pytest.mark.parametrize(
    ("name", "needles"),
    [
        (
            "chatbot-arena",
            [
                "Networks-Learning/prediction-powered-ranking",
                "af64521891fda0057d3b8766b830142a9fa54414",
                "MIT",
                "CC-BY-4.0",
                "2402.17826",
            ],
        ),
        (
            "nq301",
            [
                "ehsk/OpenQA-eval",
                "8b9317d0f0c92b52e1c71c0168dff74b5f76a5f4",
                "MIT",
                "CC BY-SA 3.0",
                "2305.06984",
            ],
        ),
    ],
)
def test_citation_names_source_commit_paper_and_licences(name, needles):
    text = citation(name)
    for needle in needles:
        assert needle in text


# -------------------------------------------------------------- (e) no pandas on import
def test_import_does_not_import_pandas():
    code = "import sys, judgestats.datasets; assert 'pandas' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# ------------------------------------------------------------- (f) label columns are 0/1
@pytest.mark.parametrize("loader", ["arena", "nq301"])
def test_label_columns_are_int_0_1_without_missing(arena_all, nq301, loader):
    df = arena_all if loader == "arena" else nq301
    for column in ("human", "judge"):
        values = df[column]
        assert values.dtype.kind == "i"
        assert not values.isna().any()
        assert set(values.unique().tolist()) <= {0, 1}


def test_arena_binary_columns_follow_convention_a(arena_all):
    assert set(arena_all["human_label"]) == {"win", "lose", "tie", "tie_bothbad"}
    assert set(arena_all["judge_label"]) == {"win", "lose", "tie"}
    for kind in ("human", "judge"):
        expected = (arena_all[f"{kind}_label"] == "win").astype("int64")
        assert arena_all[kind].equals(expected)


# ----------------------------------------------------------------------- (g) row counts
def test_arena_row_counts(arena_all):
    assert arena_all.shape[0] == 2 * 53_838
    for judge_name in ARENA_JUDGES:
        sub = arena_all[arena_all["judge_name"] == judge_name]
        assert len(sub) == 53_838
        assert sub["item_id"].nunique() == 26_919
        # each comparison appears once per side, hence once per target model
        assert (sub.groupby("item_id").size() == 2).all()
        assert not sub.duplicated(["item_id", "target_model"]).any()
        assert (sub["target_position"].value_counts() == 26_919).all()


def test_arena_columns(arena_all):
    assert list(arena_all.columns) == [
        "item_id",
        "target_model",
        "opponent_model",
        "target_position",
        "human_label",
        "judge_name",
        "judge_label",
        "human",
        "judge",
    ]
    assert (arena_all["target_model"] != arena_all["opponent_model"]).all()
    # the human vote does not depend on the judge
    gpt4 = arena_all[arena_all["judge_name"] == "gpt-4-0125-preview"].reset_index(drop=True)
    gpt35 = arena_all[arena_all["judge_name"] == "gpt-3.5-turbo-0125"].reset_index(drop=True)
    cols = ["item_id", "target_model", "opponent_model", "target_position", "human_label"]
    pd.testing.assert_frame_equal(gpt4[cols], gpt35[cols])


def test_nq301_rows_and_columns(nq301):
    assert nq301.shape == (3_561, 13)
    assert list(nq301.columns) == [
        "item_id",
        "target_model",
        "question",
        "prediction",
        "prediction_len_chars",
        "prediction_len_words",
        "long_form",
        "human_annotator1",
        "human_annotator2",
        "human_annotator3",
        "judge_name",
        "human",
        "judge",
    ]
    assert not nq301.duplicated(["item_id", "target_model"]).any()
    assert nq301["item_id"].between(1, 301).all()
    assert nq301["human_annotator3"].isna().any()
    assert not nq301["human_annotator1"].isna().any()
    assert not nq301[["question", "prediction"]].isna().any().any()
    assert (nq301["prediction"].str.len() == nq301["prediction_len_chars"]).all()
    assert (nq301["long_form"] == (nq301["prediction_len_words"] > 5).astype("int64")).all()


def test_nq301_human_is_majority_of_annotators(nq301):
    votes = nq301[["human_annotator1", "human_annotator2", "human_annotator3"]]
    n_votes = votes.notna().sum(axis=1)
    n_correct = votes.sum(axis=1)  # skips <NA>
    assert (n_votes >= 2).all()
    majority = (2 * n_correct > n_votes).astype("int64")
    assert (2 * n_correct != n_votes).all()  # no ties
    assert nq301["human"].equals(majority)


def test_loaders_return_fresh_frames():
    first = load_nq301()
    first.loc[0, "human"] = 1 - first.loc[0, "human"]
    assert not load_nq301().equals(first)


def test_judge_rates_match_the_shared_summary(arena_all):
    from judgestats.datasets import judge_rates

    rates = judge_rates(arena_all)
    summary = _summary("arena_summary_by_target.csv")
    assert len(rates) == 40
    for row in rates.itertuples():
        ref = summary[(row.judge_name, row.target_model)]
        assert row.n == int(ref["n"])
        assert row.q0 == pytest.approx(float(ref["specificity_q0"]), abs=5e-5)
        assert row.q1 == pytest.approx(float(ref["sensitivity_q1"]), abs=5e-5)
        # in-sample identity: Rogan-Gladen with full-data q's returns theta exactly
        assert (row.p + row.q0 - 1) / (row.q0 + row.q1 - 1) == pytest.approx(row.theta, abs=1e-12)
