"""Real human-vs-LLM-judge data sets bundled with judgestats.

Two small public data sets, each with one human label and one judge label per item, in the
long "one row per (target model, item)" layout that the rest of the package consumes (columns
``human`` and ``judge`` hold the 0/1 labels):

* :func:`load_chatbot_arena` -- LMSYS Chatbot Arena battles (April-June 2023): the
  crowd-sourced human vote and the verdict of an LLM judge (GPT-4-0125-preview or
  GPT-3.5-turbo-0125) on the same pair of responses, from Chatzi et al., "Prediction-Powered
  Ranking of Large Language Models" (NeurIPS 2024). MIT; human votes CC-BY-4.0.
* :func:`load_nq301` -- correctness of the answers of 12 open-domain QA systems to 301
  NQ-open questions, judged by humans and by GPT-4, from Kamalloo et al., "Evaluating
  Open-Domain Question Answering in the Era of Large Language Models" (ACL 2023). MIT;
  questions CC BY-SA 3.0.

The files are stored compressed next to this module (``chatbot_arena.csv.xz``,
``nq301.csv.xz``; see ``README.md`` and ``LICENSES.md`` in this directory, and
:func:`citation`). pandas is imported only when a loader is called.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from .._validation import check_choice

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "ARENA_JUDGES",
    "ARENA_TARGETS",
    "citation",
    "judge_rates",
    "load_arena_pairs",
    "load_chatbot_arena",
    "load_nq301",
]

#: The six target models of "How to Correctly Report LLM-as-a-Judge Evaluations" (Chatbot Arena).
ARENA_TARGETS: tuple[str, ...] = (
    "alpaca-13b",
    "claude-v1",
    "fastchat-t5-3b",
    "gpt-4",
    "llama-13b",
    "vicuna-13b",
)

#: Full names of the two LLM judges in the Chatbot Arena data (sorted, as in the long frame).
ARENA_JUDGES: tuple[str, ...] = ("gpt-3.5-turbo-0125", "gpt-4-0125-preview")

# accepted ``judge=`` values -> full judge names (``"all"`` -> both)
_JUDGE_ALIASES: dict[str, tuple[str, ...]] = {
    "gpt-4": ("gpt-4-0125-preview",),
    "gpt-4-0125-preview": ("gpt-4-0125-preview",),
    "gpt-3.5": ("gpt-3.5-turbo-0125",),
    "gpt-3.5-turbo": ("gpt-3.5-turbo-0125",),
    "gpt-3.5-turbo-0125": ("gpt-3.5-turbo-0125",),
    "all": ARENA_JUDGES,
}

_ARENA_FILE = "chatbot_arena.csv.xz"
_NQ301_FILE = "nq301.csv.xz"

# columns returned by the loaders, in order
_ARENA_COLUMNS = (
    "item_id",
    "target_model",
    "opponent_model",
    "target_position",
    "human_label",
    "judge_name",
    "judge_label",
    "human",
    "judge",
)
_NQ301_COLUMNS = (
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
)


def _judge_column(judge_name: str) -> str:
    return f"judge_{judge_name}_winner"


# winner (as stored) -> label from the point of view of the model shown on that side
_SIDE_LABEL: dict[str, dict[str, str]] = {
    "a": {"model_a": "win", "model_b": "lose", "tie": "tie", "tie (bothbad)": "tie_bothbad"},
    "b": {"model_a": "lose", "model_b": "win", "tie": "tie", "tie (bothbad)": "tie_bothbad"},
}

_CITATIONS: dict[str, str] = {
    "chatbot-arena": (
        "Chatbot Arena human votes vs LLM judges (judgestats.datasets.load_chatbot_arena).\n"
        "Source: GitHub Networks-Learning/prediction-powered-ranking, commit "
        "af64521891fda0057d3b8766b830142a9fa54414 (data files last changed in "
        "156cbcccd6dc17f4b055c162ff51074df6503500), files data/human.json, "
        "data/gpt-4-0125-preview.json, data/gpt-3.5-turbo.json.\n"
        'Paper: I. Chatzi, E. Straitouri, S. Thejaswi, M. Gomez-Rodriguez, "Prediction-Powered '
        'Ranking of Large Language Models", NeurIPS 2024, arXiv:2402.17826.\n'
        "Human votes: LMSYS Chatbot Arena (lmsys/chatbot_arena_conversations; L. Zheng et al., "
        '"Judging LLM-as-a-Judge with MT-Bench and Chatbot Arena", NeurIPS 2023 Datasets and '
        "Benchmarks, arXiv:2306.05685).\n"
        "Licences: repository MIT (code and LLM-judge verdicts); human votes CC-BY-4.0. No "
        "prompts or model responses are included.\n"
        "Changes: re-shaped (one row per comparison) and xz-compressed; labels unmodified."
    ),
    "nq301": (
        "NQ-open 301: human vs GPT-4 correctness judgements of open-domain QA answers "
        "(judgestats.datasets.load_nq301).\n"
        "Source: GitHub ehsk/OpenQA-eval, commit 8b9317d0f0c92b52e1c71c0168dff74b5f76a5f4, "
        "files data/NQ301_human.tsv, data/NQ301_gpt-4.tsv, data/model_outputs/*.jsonl.\n"
        'Paper: E. Kamalloo, N. Dziri, C. L. A. Clarke, D. Rafiei, "Evaluating Open-Domain '
        'Question Answering in the Era of Large Language Models", ACL 2023, arXiv:2305.06984.\n'
        "Questions: NQ-open (Natural Questions; T. Kwiatkowski et al., TACL 2019; K. Lee et al., "
        "ACL 2019).\n"
        "Licences: repository MIT; NQ-open questions CC BY-SA 3.0.\n"
        "Changes: predictions matched to their annotation rows, one row per (system, question), "
        "xz-compressed; labels unmodified."
    ),
}


def _pandas():
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "the judgestats.datasets loaders need pandas: pip install 'judgestats[frames]'"
        ) from exc
    return pd


def _read_arena_store(source, compression: str | None = "xz") -> pd.DataFrame:
    """Read the stored (one row per comparison) Arena file; ``source`` is a path or binary file."""
    pd = _pandas()
    dtypes = {"item_id": "int64"}
    return pd.read_csv(source, compression=compression, dtype=dtypes, keep_default_na=False)


def _expand_arena(comparisons: pd.DataFrame, judges: tuple[str, ...]) -> pd.DataFrame:
    """Turn one row per comparison into one row per (judge, target side, comparison).

    The result is sorted by ``judge_name``, ``target_model``, ``item_id`` (the order of the
    source's ``per_target.csv``) and carries the 0/1 columns ``human`` and ``judge``
    (1 iff the label is ``"win"``; every tie counts as 0).
    """
    pd = _pandas()
    parts = []
    for name in judges:
        for side, other in (("a", "b"), ("b", "a")):
            to_label = _SIDE_LABEL[side]
            parts.append(
                pd.DataFrame(
                    {
                        "item_id": comparisons["item_id"],
                        "target_model": comparisons[f"model_{side}"],
                        "opponent_model": comparisons[f"model_{other}"],
                        "target_position": side,
                        "human_label": comparisons["human_winner"].map(to_label),
                        "judge_name": name,
                        "judge_label": comparisons[_judge_column(name)].map(to_label),
                    }
                )
            )
    out = pd.concat(parts, ignore_index=True)
    out = out.sort_values(["judge_name", "target_model", "item_id"], kind="stable")
    out = out.reset_index(drop=True)
    out["human"] = (out["human_label"] == "win").astype("int64")
    out["judge"] = (out["judge_label"] == "win").astype("int64")
    return out[list(_ARENA_COLUMNS)]


def load_chatbot_arena(judge: str = "gpt-4") -> pd.DataFrame:
    """Chatbot Arena comparisons: crowd human vote vs an LLM judge, one row per target side.

    26,919 pairwise comparisons among 20 chat models from LMSYS Chatbot Arena (April-June
    2023 battles; toxic and multi-turn conversations removed), each with the crowd-sourced
    human vote and the verdict of an LLM judge shown the same two responses. Every comparison
    appears twice per judge, once with each of its two models as the *target*; within one
    target model each comparison appears once. Select a target with
    ``df[df.target_model == "vicuna-13b"]``; the six targets of the paper are
    :data:`ARENA_TARGETS`.

    Parameters
    ----------
    judge : str, default "gpt-4"
        Which LLM judge's verdicts to return: ``"gpt-4"`` or ``"gpt-4-0125-preview"`` (GPT-4
        Turbo, January 2024); ``"gpt-3.5"``, ``"gpt-3.5-turbo"`` or ``"gpt-3.5-turbo-0125"``;
        or ``"all"`` for both judges stacked (long, 107,676 rows). The aliases name the
        *judge*: ``"gpt-4"`` and ``"gpt-3.5-turbo"`` are also (older) target models in
        ``target_model``.

    Returns
    -------
    pandas.DataFrame
        53,838 rows per judge (26,919 comparisons x 2 sides), sorted by ``judge_name``,
        ``target_model``, ``item_id``, with columns

        ``item_id`` (int)
            Comparison id (``num`` in the source files).
        ``target_model``, ``opponent_model`` (str)
            The model being rated and the model it was compared with.
        ``target_position`` (str)
            ``"a"`` if the target was shown as model A, ``"b"`` if as model B.
        ``human_label`` (str)
            The human vote from the target's side: ``"win"``, ``"lose"``, ``"tie"`` or
            ``"tie_bothbad"`` (a tie where the voter marked both answers as bad).
        ``judge_name`` (str)
            ``"gpt-4-0125-preview"`` or ``"gpt-3.5-turbo-0125"``.
        ``judge_label`` (str)
            The judge's verdict from the target's side: ``"win"``, ``"lose"`` or ``"tie"``.
        ``human``, ``judge`` (int64, 0/1)
            Binary labels, **ties count as not-win** ("convention A" of the data README):
            1 iff ``human_label`` (``judge_label``) is ``"win"``; any tie is 0. No rows are
            dropped. Other conventions (drop ties, half a win) can be built from the
            ``*_label`` columns.

    Raises
    ------
    judgestats.errors.MethodError
        If ``judge`` is not one of the names above (the message lists them).

    See Also
    --------
    citation : Attribution text (``citation("chatbot-arena")``).

    Notes
    -----
    Source: GitHub ``Networks-Learning/prediction-powered-ranking`` at commit
    ``af64521891fda0057d3b8766b830142a9fa54414`` (Chatzi, Straitouri, Thejaswi,
    Gomez-Rodriguez, "Prediction-Powered Ranking of Large Language Models", NeurIPS 2024),
    repository licence MIT; the human votes come from ``lmsys/chatbot_arena_conversations``
    and are CC-BY-4.0. No prompts or responses are included. Labels are unmodified; the data
    were only re-shaped and compressed.

    The GPT-3.5-turbo-0125 judge is strongly position-biased (it picks model A in 86% of the
    comparisons), so for many targets its sensitivity plus specificity is close to 1 and a
    Rogan-Gladen correction is unstable: a useful "bad judge" case.

    Examples
    --------
    >>> from judgestats.datasets import load_chatbot_arena
    >>> df = load_chatbot_arena()
    >>> vicuna = df[df.target_model == "vicuna-13b"]
    >>> len(vicuna), int(vicuna.human.sum())
    (4767, 2117)
    """
    key = check_choice("judge", judge, list(_JUDGE_ALIASES))
    with resources.files(__name__).joinpath(_ARENA_FILE).open("rb") as fh:
        comparisons = _read_arena_store(fh)
    return _expand_arena(comparisons, _JUDGE_ALIASES[key])


def load_arena_pairs() -> pd.DataFrame:
    """Chatbot Arena comparisons as pairs: one row per comparison, both judges' verdicts.

    The 26,919 comparisons of :func:`load_chatbot_arena` in the layout of
    :func:`judgestats.pairwise` (``model_a`` was shown first, to the voter and to the
    judges): the stored file, unchanged, with its verdict columns renamed.

    Returns
    -------
    pandas.DataFrame
        26,919 rows in ``item_id`` order, with columns

        ``item_id`` (int)
            Comparison id (``num`` in the source files).
        ``model_a``, ``model_b`` (str)
            The two models (20 in all), ``model_a`` shown first.
        ``human`` (str)
            The crowd vote: ``"model_a"``, ``"model_b"``, ``"tie"`` or ``"tie (bothbad)"``.
        ``judge_gpt-4``, ``judge_gpt-3.5`` (str)
            The verdicts of GPT-4-0125-preview and GPT-3.5-turbo-0125: ``"model_a"``,
            ``"model_b"`` or ``"tie"``.

    Notes
    -----
    Every comparison carries the human vote; to play the calibration setting, blank it
    (``None``) outside a random subset. Source, licences and changes: :func:`citation`
    (``citation("chatbot-arena")``) and the data README.

    Examples
    --------
    >>> from judgestats.datasets import load_arena_pairs
    >>> pairs = load_arena_pairs()
    >>> len(pairs), pairs["model_a"].nunique(), int((pairs["human"] == "tie (bothbad)").sum())
    (26919, 20, 5132)
    """
    with resources.files(__name__).joinpath(_ARENA_FILE).open("rb") as fh:
        comparisons = _read_arena_store(fh)
    renamed = comparisons.rename(
        columns={
            "human_winner": "human",
            _judge_column("gpt-4-0125-preview"): "judge_gpt-4",
            _judge_column("gpt-3.5-turbo-0125"): "judge_gpt-3.5",
        }
    )
    columns = ["item_id", "model_a", "model_b", "human", "judge_gpt-4", "judge_gpt-3.5"]
    return renamed[columns].sort_values("item_id", kind="stable").reset_index(drop=True)


def _read_nq301_store(source, compression: str | None = "xz") -> pd.DataFrame:
    """Read the stored NQ-301 file (``source`` is a path or binary file), source column names."""
    pd = _pandas()
    dtypes = {
        "item_id": "int64",
        "target_model": "str",
        "question": "str",
        "prediction": "str",
        "prediction_len_chars": "int64",
        "prediction_len_words": "int64",
        "long_form": "int64",
        "human_label": "int64",
        "human_annotator1": "Int64",
        "human_annotator2": "Int64",
        "human_annotator3": "Int64",
        "judge_name": "str",
        "judge_label": "int64",
    }
    # only the annotator columns may be missing; keep strings such as "None" or "NA" as text
    missing = {c: [""] for c in ("human_annotator1", "human_annotator2", "human_annotator3")}
    return pd.read_csv(
        source, compression=compression, dtype=dtypes, keep_default_na=False, na_values=missing
    )


def load_nq301() -> pd.DataFrame:
    """NQ-open answers of 12 QA systems judged correct/incorrect by humans and by GPT-4.

    301 randomly sampled Natural Questions-open test questions; for each of 12 open-domain QA
    systems (retriever-reader models and InstructGPT zero-/few-shot) the system's answer is
    labelled correct or incorrect by human annotators and by GPT-4 ("GPT4-eval"). The target
    model is the QA system; its human-judged accuracy is the true rate.

    Returns
    -------
    pandas.DataFrame
        3,561 rows, one per (system, question); 51 of the 12 x 301 pairs are absent (the
        prediction had no annotation row, or a blank GPT-4 verdict). Columns:

        ``item_id`` (int)
            Question id, 1-301.
        ``target_model`` (str)
            The QA system, e.g. ``"FiD"``, ``"InstructGPT_zeroshot"``.
        ``question``, ``prediction`` (str)
            The question and the system's answer.
        ``prediction_len_chars``, ``prediction_len_words`` (int)
            Length of the answer in characters and in whitespace-separated words.
        ``long_form`` (int, 0/1)
            1 if the answer has more than 5 words (almost only the InstructGPT systems).
        ``human_annotator1``, ``human_annotator2``, ``human_annotator3`` (Int64, nullable)
            Individual annotator votes (1 correct, 0 incorrect); ``<NA>`` where absent. The
            third annotator mostly appears on disagreement; ``human_annotator2`` is missing
            on 7 rows. ``human`` is the majority of the available votes.
        ``judge_name`` (str)
            ``"gpt-4"``.
        ``human``, ``judge`` (int64, 0/1)
            The released final human verdict and GPT-4's verdict: 1 correct, 0 incorrect.
            There are no ties.

    See Also
    --------
    citation : Attribution text (``citation("nq301")``).

    Notes
    -----
    Source: GitHub ``ehsk/OpenQA-eval`` at commit
    ``8b9317d0f0c92b52e1c71c0168dff74b5f76a5f4`` (Kamalloo, Dziri, Clarke, Rafiei,
    "Evaluating Open-Domain Question Answering in the Era of Large Language Models", ACL 2023),
    repository licence MIT; the questions are from NQ-open, CC BY-SA 3.0. Each system's
    prediction was matched to its row in the annotation files (exact, case-insensitive or
    SQuAD-normalised string match); labels are unmodified.

    Examples
    --------
    >>> from judgestats.datasets import load_nq301
    >>> df = load_nq301()
    >>> fid = df[df.target_model == "FiD"]
    >>> len(fid), int(fid.human.sum()), int(fid.judge.sum())
    (300, 194, 182)
    """
    with resources.files(__name__).joinpath(_NQ301_FILE).open("rb") as fh:
        df = _read_nq301_store(fh)
    df = df.rename(columns={"human_label": "human", "judge_label": "judge"})
    return df[list(_NQ301_COLUMNS)]


def citation(name: str) -> str:
    """Attribution text of a bundled data set: source repository, commit, paper and licences.

    Parameters
    ----------
    name : {"chatbot-arena", "nq301"}
        The data set.

    Returns
    -------
    str
        Several lines of plain text, suitable for a report or a paper's data statement.

    Raises
    ------
    judgestats.errors.MethodError
        If ``name`` is not one of the data sets.

    Examples
    --------
    >>> import judgestats as js
    >>> print(js.datasets.citation("nq301"))  # doctest: +ELLIPSIS
    NQ-open 301: human vs GPT-4 correctness judgements of open-domain QA answers...
    """
    key = check_choice("name", name, list(_CITATIONS))
    return _CITATIONS[key]


def judge_rates(
    frame: pd.DataFrame,
    *,
    by: str | tuple[str, ...] = ("judge_name", "target_model"),
    human: str = "human",
    judge: str = "judge",
) -> pd.DataFrame:
    """Per-group judge quality on fully labelled data: n, θ, p, specificity q0, sensitivity q1.

    Computed on all rows of each group (no split), so the Rogan–Gladen identity
    (p + q0 − 1)/(q0 + q1 − 1) = θ holds exactly within each group. Used to place real judges on
    the judge-vs-human regime map (:func:`judgestats.plots.judge_regime_map`).

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows with 0/1 ``human`` and ``judge`` columns (e.g. from :func:`load_chatbot_arena`).
    by : str or tuple of str
        Grouping columns.
    human, judge : str
        Label column names.

    Returns
    -------
    pandas.DataFrame
        One row per group with columns n, theta, p, q0, q1 (groups lacking a class get NaN q's).

    Examples
    --------
    The true rate, the judged rate and the judge's error rates of the first Chatbot Arena models:

    >>> import judgestats as js
    >>> arena = js.datasets.load_chatbot_arena(judge="gpt-4")
    >>> print(js.datasets.judge_rates(arena).head(3).round(3))
               judge_name      target_model     n  theta      p     q0     q1
    0  gpt-4-0125-preview  RWKV-4-Raven-14B  2985  0.230  0.210  0.851  0.415
    1  gpt-4-0125-preview        alpaca-13b  3598  0.245  0.269  0.823  0.553
    2  gpt-4-0125-preview        chatglm-6b  2775  0.191  0.219  0.834  0.443
    """
    from .._validation import check_columns

    keys = [by] if isinstance(by, str) else list(by)
    check_columns(
        frame, {"human": human, "judge": judge, **{f"by[{i}]": k for i, k in enumerate(keys)}}
    )
    h = frame[human].astype(int)
    j = frame[judge].astype(int)
    tmp = frame[keys].assign(_h=h, _j=j, _tp=h & j, _tn=(1 - h) & (1 - j))
    g = tmp.groupby(keys, sort=True)
    out = g.agg(
        n=("_h", "size"),
        pos=("_h", "sum"),
        theta=("_h", "mean"),
        p=("_j", "mean"),
        tp=("_tp", "sum"),
        tn=("_tn", "sum"),
    )
    out["q1"] = out["tp"] / out["pos"].where(out["pos"] > 0)
    out["q0"] = out["tn"] / (out["n"] - out["pos"]).where(out["n"] > out["pos"])
    return out[["n", "theta", "p", "q0", "q1"]].reset_index()
