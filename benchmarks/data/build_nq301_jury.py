"""Rebuild ``nq301_jury.csv``: NQ-301 answers with the human verdicts and three automatic judges.

Documentation of how the committed table was made; CI does not run it (no network there, and the
CSV is committed). It reads a snapshot of ``ehsk/OpenQA-eval`` (MIT), commit
``8b9317d0f0c92b52e1c71c0168dff74b5f76a5f4``, either a git directory (read with ``git show``) or a
checkout holding ``data/``::

    python benchmarks/data/build_nq301_jury.py SNAPSHOT \
        [--bundled src/judgestats/datasets/nq301.csv.xz] [--out CSV]

One row per (QA system, question) of the package's bundled NQ-301 table (``nq301.csv.xz``):
each system's prediction is matched to its annotation row (exact string, else case-insensitive, else
SQuAD-normalised when every annotation row with that normalised key carries one human verdict), and
the four annotation files are row-aligned, so the row gives the human verdicts, GPT-4-eval,
InstructGPT-eval (text-davinci-003) and BEM (with its probability). With ``--bundled`` the script
checks that it rebuilds the bundled rows and their GPT-4 verdicts, and prints every mismatch.
"""

from __future__ import annotations

import argparse
import csv
import json
import lzma
import re
import string
import subprocess
import sys
from collections import Counter
from pathlib import Path

COMMIT = "8b9317d0f0c92b52e1c71c0168dff74b5f76a5f4"
SYSTEMS = {  # model_outputs file -> target_model name used in the bundled table
    "NQ_DPR.jsonl": "DPR",
    "NQ_FiD.jsonl": "FiD",
    "NQ_ANCE-plus_FiD.jsonl": "ANCE+_FiD",
    "NQ_Contriever_FiD.jsonl": "Contriever_FiD",
    "NQ_Rocketv2_FiD.jsonl": "RocketQAv2_FiD",
    "NQ_FiD-KD.jsonl": "FiD-KD",
    "NQ_GAR-plus_FiD.jsonl": "GAR+_FiD",
    "NQ_EviGen.jsonl": "EviGen",
    "NQ_EMDR2.jsonl": "EMDR2",
    "NQ_R2D2.jsonl": "R2-D2",
    "NQ301_text-davinci-003_zeroshot.jsonl": "InstructGPT_zeroshot",
    "NQ301_text-davinci-003_fewshot-n64.jsonl": "InstructGPT_fewshot",
}
COLUMNS = [
    "item_id",
    "target_model",
    "row_in_source",
    "prediction",
    "human",
    "human_annotator1",
    "human_annotator2",
    "human_annotator3",
    "judge_gpt4",
    "judge_instructgpt",
    "judge_bem",
    "bem_score",
]


def read_text(snapshot: Path, path: str) -> str:
    """Read ``path`` from a git directory (``git show COMMIT:path``) or from a checkout."""
    if (snapshot / path).exists():
        return (snapshot / path).read_text(encoding="utf-8")
    out = subprocess.run(
        ["git", "-C", str(snapshot), "show", f"{COMMIT}:{path}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout


def read_tsv(snapshot: Path, name: str) -> list[list[str]]:
    rows = list(csv.reader(read_text(snapshot, f"data/{name}").splitlines(), delimiter="\t"))
    return rows[1:]


def yes_no(text: str, strict: bool = True) -> int | None:
    """'Yes...' -> 1, 'No...' -> 0, blank -> None; other text is an error, or None if not strict."""
    t = text.strip()
    if not t:
        return None
    if t.lower().startswith("yes"):
        return 1
    if t.lower().startswith("no"):
        return 0
    if strict:
        raise ValueError(f"verdict neither yes nor no: {text[:60]!r}")
    return None


def normalize(s: str) -> str:
    """SQuAD-style answer normalisation: lower case, no punctuation, no articles, single spaces."""
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


def annotation_table(snapshot: Path) -> tuple[list[dict], Counter]:
    """One dict per annotation row (the four files aligned by position), and the check counts."""
    human = read_tsv(snapshot, "NQ301_human.tsv")
    gpt4 = read_tsv(snapshot, "NQ301_gpt-4.tsv")
    davinci = read_tsv(snapshot, "NQ301_text-davinci-003.tsv")
    bem = read_tsv(snapshot, "NQ301_BEM.tsv")
    if not len(human) == len(gpt4) == len(davinci) == len(bem):
        raise SystemExit(
            f"row counts differ: {len(human)}, {len(gpt4)}, {len(davinci)}, {len(bem)}"
        )
    checks: Counter = Counter()
    table = []
    for i, (h, g, d, b) in enumerate(zip(human, gpt4, davinci, bem, strict=True)):
        qid, question, answer = h[0], h[1], h[2]
        checks["gpt4 id+question+answer equal"] += (g[0], g[1], g[2]) == (qid, question, answer)
        # text-davinci-003 file: question and answer fused in one cell; parsed verdict under
        # "Model answer", the judge's raw text under "Acceptable?".
        checks["instructgpt id+question+answer equal"] += (d[0], d[1]) == (qid, question + answer)
        checks["bem question+answer equal"] += (b[1], b[3]) == (question, answer)
        # GPT-4 file: the authors' parsed verdict under "Acceptable?" (the bundled table's label;
        # they also parsed "partially correct" texts), the judge's raw text in the last column.
        gpt4_parsed, gpt4_text = yes_no(g[3]), yes_no(g[4], strict=False)
        checks["gpt4 parsed verdict blank"] += gpt4_parsed is None
        checks["gpt4 raw text neither yes nor no"] += gpt4_text is None
        checks["gpt4 parsed != raw text (both yes/no)"] += (
            None not in (gpt4_parsed, gpt4_text) and gpt4_parsed != gpt4_text
        )
        probs = json.loads(b[5])
        score = max(p[1] for p in probs)  # BEM: P(equivalent) against the best gold answer
        bem_verdict = yes_no(b[4])
        checks["bem verdict == (score > 0.5)"] += bem_verdict == int(score > 0.5)
        ig_parsed, ig_text = yes_no(d[2]), yes_no(d[3])
        checks["instructgpt parsed == raw text"] += ig_parsed == ig_text
        table.append(
            {
                "row_in_source": i + 1,
                "item_id": int(qid),
                "question": question,
                "answer": answer,
                "human": yes_no(h[3]),
                "human_annotator1": yes_no(h[4]),
                "human_annotator2": yes_no(h[5]),
                "human_annotator3": yes_no(h[6]) if len(h) > 6 else None,
                "judge_gpt4": gpt4_parsed,
                "judge_instructgpt": ig_parsed,
                "judge_bem": bem_verdict,
                "bem_score": score,
            }
        )
    checks["rows"] = len(table)
    return table, checks


def match(pred: str, rows: list[dict]) -> tuple[dict | None, str]:
    """The annotation row of ``pred`` among its question's rows, and how it was matched."""
    for how, key in (("exact", lambda s: s), ("lowercase", str.lower)):
        hits = [r for r in rows if key(r["answer"]) == key(pred)]
        if hits:
            return hits[0], how
    hits = [r for r in rows if normalize(r["answer"]) == normalize(pred)]
    if hits and len({r["human"] for r in hits}) == 1:
        return hits[0], "normalized"
    return None, "unmatched"


def build(snapshot: Path) -> tuple[list[dict], Counter, Counter]:
    table, checks = annotation_table(snapshot)
    by_question: dict[str, list[dict]] = {}
    for r in table:
        by_question.setdefault(r["question"], []).append(r)
    out, how_count = [], Counter()
    for fname, target in SYSTEMS.items():
        for line in read_text(snapshot, f"data/model_outputs/{fname}").splitlines():
            rec = json.loads(line)
            rows = by_question.get(rec["question"])
            if rows is None:
                continue
            pred = rec["prediction"]
            pred = pred[0] if isinstance(pred, list) else pred  # few-shot lists: first answer
            row, how = match(pred, rows)
            how_count[how] += 1
            if row is None:
                how_count[f"unmatched {target}"] += 1
                continue
            if row["judge_gpt4"] is None:  # the bundled table drops blank GPT-4 verdicts
                how_count["blank gpt4 verdict"] += 1
                continue
            out.append(
                {
                    **{k: row[k] for k in COLUMNS if k in row},
                    "target_model": target,
                    "prediction": pred,
                }
            )
    return out, checks, how_count


def compare_bundled(rows: list[dict], bundled: Path) -> Counter:
    """Row set and GPT-4 verdicts against the bundled per-target table (.csv or .csv.xz)."""
    opener = lzma.open if bundled.suffix == ".xz" else open
    with opener(bundled, "rt", encoding="utf-8") as f:
        ref = {(int(r["item_id"]), r["target_model"]): r for r in csv.DictReader(f)}
    mine = {(r["item_id"], r["target_model"]): r for r in rows}
    c: Counter = Counter(bundled_rows=len(ref), rebuilt_rows=len(mine))
    c["only in bundled"] = len(ref.keys() - mine.keys())
    c["only in rebuilt"] = len(mine.keys() - ref.keys())
    for col in (
        "judge_label",
        "human_label",
        "human_annotator1",
        "human_annotator2",
        "human_annotator3",
        "prediction text",
    ):
        c[f"mismatch {col}"] = 0
    for key in ref.keys() & mine.keys():
        a, b = ref[key], mine[key]
        for col, ours in (
            ("judge_label", "judge_gpt4"),
            ("human_label", "human"),
            ("human_annotator1", "human_annotator1"),
            ("human_annotator2", "human_annotator2"),
            ("human_annotator3", "human_annotator3"),
        ):
            theirs = None if a[col] == "" else int(a[col])
            if theirs != b[ours]:
                c[f"mismatch {col}"] += 1
                print("mismatch", col, key, theirs, b[ours], file=sys.stderr)
        if a["prediction"] != b["prediction"]:
            c["mismatch prediction text"] += 1
    return c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("snapshot", type=Path, help="git dir or checkout of ehsk/OpenQA-eval")
    ap.add_argument(
        "--bundled", type=Path, help="nq301_qa_correctness/per_target.csv to check against"
    )
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("nq301_jury.csv"))
    args = ap.parse_args(argv)
    rows, checks, how = build(args.snapshot)
    print("alignment checks:", dict(checks))
    print("matching:", dict(how))
    if args.bundled:
        print("against bundled:", dict(compare_bundled(rows, args.bundled)))
    order = {t: i for i, t in enumerate(SYSTEMS.values())}
    rows.sort(key=lambda r: (order[r["target_model"]], r["item_id"]))
    with args.out.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(
                {
                    k: ("" if r[k] is None else round(r[k], 6) if k == "bem_score" else r[k])
                    for k in COLUMNS
                }
            )
    print(f"wrote {len(rows)} rows to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
