"""Rebuild ``llm_rubric_scores.csv.xz``: an LLM's probabilities beside 1-3 human ratings a dialogue.

Documentation of how the committed table was made; CI does not run it (the table is committed).
It reads a snapshot of ``microsoft/LLM-Rubric`` (MIT), commit
``70d56fc4e9a26e60642bc14b62b96d2d0a500edd``, a git directory (read with ``git show``) or a
checkout holding ``data/``::

    python benchmarks/data/build_llm_rubric_scores.py SNAPSHOT [--out CSV_XZ]

One row per dialogue that has both the LLM's evaluation and at least one human rating:

* ``real`` (223 dialogues, one human judge each; three dialogue systems 0, 1, 2) and
* ``synth`` (225 synthetic dialogues, three human judges each, five variants V1..V5).

For every rubric question Q0..Q8 the LLM (gpt-3.5-turbo-16k) gave a probability for each of the
four answers (``llm_Qc_p1..p4``, the released values); Q0 is the overall user-satisfaction question
(1 = worst, 4 = best) that the human judges also answered (``human_rater1..3``, with the
anonymised ``human_annotator_id1..3``; slots follow the annotation rounds, so one slot is not one
person). A human row flagged unusable by the annotator (synth ``DQQ0 == 2``, every answer 0) is a
missing rating. With the table the script checks the README's published baselines for the real
dialogues (mean of the argmax and of the expected LLM answer, and the Pearson correlation of the
expected answer with the human rating).
"""

from __future__ import annotations

import argparse
import csv
import io
import lzma
import math
import subprocess
from collections import defaultdict
from pathlib import Path

COMMIT = "70d56fc4e9a26e60642bc14b62b96d2d0a500edd"
CRITERIA = [f"Q{i}" for i in range(9)]
FILES = {
    "real": (
        "data/real_data/human_judges_real_convs_FIXED_ANON.tsv",
        "data/real_data/gpt-3.5-turbo-16k_real_evaluations_FIXED.tsv",
    ),
    "synth": (
        "data/synth_data/human_judges_synth_all_FIXED_ANON.tsv",
        "data/synth_data/gpt-3.5-turbo-16k_synth_evaluations_FIXED.tsv",
    ),
}
# README of the repository, real dialogues, criterion Q0, N = 223 (rounded to 6 decimals there).
# Its "sample_llm" row (mean 3.322870) is a fresh unseeded draw from the LLM's distribution in
# scripts/compute_machine_baseline.py, so it cannot be reproduced; the released sample_llm column
# (kept here as llm_Q0_sample) has mean 3.251121.
PUBLISHED = {
    "argmax_llm mean": 3.614350,
    "expected_llm mean": 3.282864,
    "expected_llm pearson": 0.177301,
}


def read_tsv(snapshot: Path, path: str) -> list[dict]:
    if (snapshot / path).exists():
        text = (snapshot / path).read_text(encoding="utf-8")
    else:
        text = subprocess.run(
            ["git", "-C", str(snapshot), "show", f"{COMMIT}:{path}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return list(csv.DictReader(io.StringIO(text), delimiter="\t"))


def human_ratings(rows: list[dict]) -> dict[str, list[tuple[int | None, str]]]:
    """text_id -> [(Q0 rating or None, annotator id)], in file (annotation-round) order."""
    out: dict[str, list[tuple[int | None, str]]] = defaultdict(list)
    for r in sorted(rows, key=lambda r: r.get("round", "")):
        unusable = r.get("DQQ0") == "2" or float(r["Q0"]) == 0
        out[r["text_id"]].append((None if unusable else int(float(r["Q0"])), r["annotator_id"]))
    return out


def pearson(x: list[float], y: list[float]) -> float:
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    sxx, syy = sum((a - mx) ** 2 for a in x), sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy)


def build(snapshot: Path) -> tuple[list[dict], dict]:
    table, checks = [], {}
    for split, (human_path, llm_path) in FILES.items():
        human_rows = read_tsv(snapshot, human_path)
        system = {r["text_id"]: r.get("dialogue_system") for r in human_rows}
        ratings = human_ratings(human_rows)
        llm: dict[str, dict] = defaultdict(dict)
        for r in read_tsv(snapshot, llm_path):
            llm[r["text_id"]].update(
                {
                    f"llm_{r['criterion']}_{k}": float(r[f"answer{k[1]}_prob"])
                    for k in ("p1", "p2", "p3", "p4")
                }
            )
            if r["criterion"] == "Q0":
                llm[r["text_id"]]["llm_Q0_sample"] = int(r["sample_llm"])
        both = sorted(set(ratings) & set(llm))
        checks[f"{split}: human items / llm items / both"] = (len(ratings), len(llm), len(both))
        for tid in both:
            row = {
                "split": split,
                "item_id": tid,
                "target": f"system{system[tid]}" if split == "real" else tid.split("_")[0],
            }
            for i in range(3):
                rating, annot = ratings[tid][i] if i < len(ratings[tid]) else (None, None)
                row[f"human_rater{i + 1}"], row[f"human_annotator_id{i + 1}"] = rating, annot
            row.update(llm[tid])
            table.append(row)
    real = [r for r in table if r["split"] == "real"]
    probs = [[r[f"llm_Q0_p{k}"] for k in range(1, 5)] for r in real]
    expected = [sum((k + 1) * p for k, p in enumerate(ps)) for ps in probs]
    argmax = [1 + max(range(4), key=ps.__getitem__) for ps in probs]
    mine = {
        "argmax_llm mean": sum(argmax) / len(real),
        "expected_llm mean": sum(expected) / len(real),
        "expected_llm pearson": pearson(expected, [r["human_rater1"] for r in real]),
    }
    for name, value in mine.items():
        checks[f"real {name} (published {PUBLISHED[name]})"] = round(value, 6)
        if abs(value - PUBLISHED[name]) > 5e-6:
            print(f"WARNING: {name} = {value:.6f}, published {PUBLISHED[name]}")
    return table, checks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("snapshot", type=Path, help="git dir or checkout of microsoft/LLM-Rubric")
    ap.add_argument(
        "--out", type=Path, default=Path(__file__).with_name("llm_rubric_scores.csv.xz")
    )
    args = ap.parse_args(argv)
    rows, checks = build(args.snapshot)
    for k, v in checks.items():
        print(f"{k}: {v}")
    columns = (
        ["split", "item_id", "target"]
        + [f"human_rater{i}" for i in (1, 2, 3)]
        + [f"human_annotator_id{i}" for i in (1, 2, 3)]
        + [f"llm_{c}_p{k}" for c in CRITERIA for k in range(1, 5)]
        + ["llm_Q0_sample"]
    )
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: "" if r.get(k) is None else r[k] for k in columns})
    args.out.write_bytes(lzma.compress(buf.getvalue().encode("utf-8"), preset=9))
    print(f"wrote {len(rows)} rows to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
