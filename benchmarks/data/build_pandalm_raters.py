"""Rebuild ``pandalm_raters.csv.xz``: PandaLM's human-labelled test set, 3 raters and 2 judges.

Documentation of how the committed table was made; CI does not run it (the table is committed).
It reads a snapshot of ``WeOpenML/PandaLM`` (Apache-2.0), commit
``3871806e72b4832f815ecafd24d3503c73403f48``, a git directory (read with ``git show``) or a
checkout holding ``data/``::

    python benchmarks/data/build_pandalm_raters.py SNAPSHOT [--out CSV_XZ]

One row per pair (999): which of two responses to one instruction is better, labelled
independently by three human annotators and by two LLM judges (gpt-3.5-turbo and PandaLM-7B, the
verdicts the PandaLM authors released). Labels: ``1`` response 1 better, ``2`` response 2 better,
``0`` tie. The response texts are not copied; their word counts are (a length covariate).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import lzma
import re
import subprocess
from collections import Counter
from pathlib import Path

COMMIT = "3871806e72b4832f815ecafd24d3503c73403f48"
COLUMNS = [
    "item_id",
    "prompt_id",
    "motivation_app",
    "model1",
    "model2",
    "response1_words",
    "response2_words",
    "human_annotator1",
    "human_annotator2",
    "human_annotator3",
    "judge_gpt35",
    "judge_pandalm7b",
]
# Label distribution of the test data as the README publishes it (the raters' majority).
PUBLISHED_LABELS = {0: 105, 1: 422, 2: 472}
# Cohen's kappa between the annotators, as the PandaLM README publishes it (2 decimals).
PUBLISHED_KAPPA = {(1, 2): 0.85, (1, 3): 0.88, (2, 3): 0.86}


def read_json(snapshot: Path, path: str) -> list[dict]:
    if (snapshot / path).exists():
        return json.loads((snapshot / path).read_text(encoding="utf-8"))
    out = subprocess.run(
        ["git", "-C", str(snapshot), "show", f"{COMMIT}:{path}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def n_words(response: object) -> int:
    """Word count of a response (six responses are JSON booleans, e.g. ``true`` for "True")."""
    return len(re.findall(r"\S+", str(response)))


def gpt_verdict(v: str) -> int | None:
    """gpt-3.5-turbo's released result: '1', '2', 'Tie' (-> 0); 'garbage' (unparsable) -> None."""
    return {"1": 1, "2": 2, "Tie": 0}.get(str(v).strip())


def cohen_kappa(a: list[int], b: list[int]) -> float:
    """Unweighted Cohen's kappa of two label lists (independent check of the published table)."""
    n = len(a)
    po = sum(x == y for x, y in zip(a, b, strict=True)) / n
    ca, cb = Counter(a), Counter(b)
    pe = sum(ca[k] * cb[k] for k in set(ca) | set(cb)) / n**2
    return (po - pe) / (1 - pe)


def build(snapshot: Path) -> tuple[list[dict], dict]:
    test = read_json(snapshot, "data/testset-v1.json")
    gpt = read_json(snapshot, "data/gpt-3.5-turbo-testset-v1.json")
    panda = read_json(snapshot, "data/pandalm-7b-testset-v1.json")
    if not (len(test) == len(gpt) == len(panda)):
        raise SystemExit(f"lengths differ: {len(test)}, {len(gpt)}, {len(panda)}")
    checks: dict = {"rows": len(test)}
    checks["idx aligned"] = sum(
        t["idx"] == g["idx"] == p["idx"] for t, g, p in zip(test, gpt, panda, strict=True)
    )
    prompts: dict[tuple[str, str], int] = {}
    rows = []
    for t, g, p in zip(test, gpt, panda, strict=True):
        key = (t["instruction"], t["input"])
        prompts.setdefault(key, len(prompts) + 1)
        m1, m2 = t["cmp_key"].split("_")  # README: response 1 from the first model, 2 the second
        rows.append(
            {
                "item_id": t["idx"],
                "prompt_id": prompts[key],
                "motivation_app": t["motivation_app"],
                "model1": m1,
                "model2": m2,
                "response1_words": n_words(t["response1"]),
                "response2_words": n_words(t["response2"]),
                "human_annotator1": int(t["annotator1"]),
                "human_annotator2": int(t["annotator2"]),
                "human_annotator3": int(t["annotator3"]),
                "judge_gpt35": gpt_verdict(g["gpt_result"]),
                "judge_pandalm7b": int(p["pandalm_result"]),
            }
        )
    checks["gpt35 unparsable ('garbage')"] = sum(r["judge_gpt35"] is None for r in rows)
    checks["distinct prompts"] = len(prompts)
    majority = Counter()
    for r in rows:
        ((label, votes),) = Counter(r[f"human_annotator{i}"] for i in (1, 2, 3)).most_common(1)
        majority[label if votes >= 2 else "no majority"] += 1
    checks["majority labels (published 0:105, 1:422, 2:472)"] = dict(
        sorted(majority.items(), key=str)
    )
    if dict(majority) != PUBLISHED_LABELS:
        print("WARNING: majority label counts differ from the published ones")
    for (i, j), published in PUBLISHED_KAPPA.items():
        k = cohen_kappa(
            [r[f"human_annotator{i}"] for r in rows], [r[f"human_annotator{j}"] for r in rows]
        )
        checks[f"kappa annotators {i},{j} (published {published})"] = round(k, 4)
        if abs(k - published) > 0.005 + 0.01:  # 2-decimal rounding plus a small slack
            print(f"WARNING: kappa {i},{j} = {k:.4f}, published {published}")
    return rows, checks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("snapshot", type=Path, help="git dir or checkout of WeOpenML/PandaLM")
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("pandalm_raters.csv.xz"))
    args = ap.parse_args(argv)
    rows, checks = build(args.snapshot)
    print("checks:", checks)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: "" if r[k] is None else r[k] for k in COLUMNS})
    args.out.write_bytes(lzma.compress(buf.getvalue().encode("utf-8"), preset=9))
    print(f"wrote {len(rows)} rows to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
