"""Rebuild ``llmbar_jury.csv.xz``: LLMBar's 419 pairs, a gold label and 5 LLM judges, both orders.

Documentation of how the committed table was made; CI does not run it (the table is committed).
It reads a snapshot of ``princeton-nlp/LLMBar`` (MIT), commit
``900616bff90b6c6c8e1681f7d079250637c55992``, a git directory (read with ``git show``) or a
checkout holding ``Dataset/``::

    python benchmarks/data/build_llmbar_jury.py SNAPSHOT [--out CSV_XZ]

One row per pair of the five LLMBar subsets (Natural 100; Adversarial GPTInst 92, GPTOut 47,
Manual 46, Neighbor 134): which of two outputs follows the instruction (``label``, the curated
gold, 1 or 2), and the released verdicts of five base LLMs as evaluators under the "Vanilla"
prompt, each asked twice: output 1 shown first (``_first``) and the two swapped (``_second``, the
source already maps it back to the original numbering). GPT-4 under the "Rating" prompt also gave
each output a score (``gpt4_rating_score1``, ``gpt4_rating_score2``). Output texts are not copied,
their word counts are. The script checks every judge's accuracy in each order against the
source's ``statistics.json``.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import lzma
import re
import subprocess
from pathlib import Path

COMMIT = "900616bff90b6c6c8e1681f7d079250637c55992"
SUBSETS = ["Natural", "Adversarial/GPTInst", "Adversarial/GPTOut", "Adversarial/Manual",
           "Adversarial/Neighbor"]  # fmt: skip
JUDGES = {"GPT-4": "gpt4", "ChatGPT": "chatgpt", "LLaMA2": "llama2", "PaLM2": "palm2",
          "Falcon": "falcon"}  # fmt: skip
COLUMNS = (
    ["subset", "item_id", "label", "output1_words", "output2_words"]
    + [f"judge_{j}_{order}" for j in JUDGES.values() for order in ("first", "second")]
    + ["gpt4_rating_score1", "gpt4_rating_score2"]
)


def read_json(snapshot: Path, path: str) -> object:
    if (snapshot / path).exists():
        return json.loads((snapshot / path).read_text(encoding="utf-8"))
    out = subprocess.run(["git", "-C", str(snapshot), "show", f"{COMMIT}:{path}"],
                         capture_output=True, text=True, check=True)  # fmt: skip
    return json.loads(out.stdout)


def verdict(x: object) -> int | None:
    """'1' / '2' -> 1 / 2; no verdict (None, unparsable) -> None."""
    return int(x) if str(x) in ("1", "2") else None


def score(cell: list) -> int | None:
    """A rating cell ['7', 'stop'] -> 7; blank -> None."""
    text = str(cell[0]).strip()
    return int(text) if text.isdigit() else None


def build_subset(snapshot: Path, subset: str, checks: dict) -> list[dict]:
    base = f"Dataset/LLMBar/{subset}"
    data = read_json(snapshot, f"{base}/dataset.json")
    rows = [{"subset": subset.split("/")[-1], "item_id": i + 1, "label": int(d["label"]),
             "output1_words": len(re.findall(r"\S+", d["output_1"])),
             "output2_words": len(re.findall(r"\S+", d["output_2"]))}
            for i, d in enumerate(data)]  # fmt: skip
    for name, short in JUDGES.items():
        result = read_json(snapshot, f"{base}/evaluators/{name}/Vanilla/result.json")
        stats = read_json(snapshot, f"{base}/evaluators/{name}/Vanilla/statistics.json")
        assert len(result) == len(data)
        for row, res, d in zip(rows, result, data, strict=True):
            assert res["input"] == d["input"] and res["label"] == d["label"], (subset, name)
            row[f"judge_{short}_first"] = verdict(res["results"][0]["swap = False"]["winner"])
            row[f"judge_{short}_second"] = verdict(res["results"][0]["swap = True"]["winner"])
        for order, key in (("first", "correct_False"), ("second", "correct_True")):
            right = sum(r[f"judge_{short}_{order}"] == r["label"] for r in rows)
            published = int(stats[key].split("/")[0])
            checks[f"{subset} {name} {order}: correct {right} (published {published})"] = (
                right == published
            )
    rating = read_json(snapshot, f"{base}/evaluators/GPT-4/Rating/result.json")
    for row, res in zip(rows, rating, strict=True):
        row["gpt4_rating_score1"] = score(res["results"][0]["score_1"])
        row["gpt4_rating_score2"] = score(res["results"][0]["score_2"])
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("snapshot", type=Path, help="git dir or checkout of princeton-nlp/LLMBar")
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("llmbar_jury.csv.xz"))
    args = ap.parse_args(argv)
    checks: dict = {}
    rows = [r for s in SUBSETS for r in build_subset(args.snapshot, s, checks)]
    failed = [k for k, ok in checks.items() if not ok]
    print(f"accuracy checks against statistics.json: {len(checks) - len(failed)} of "
          f"{len(checks)} equal")  # fmt: skip
    for k in failed:
        print("MISMATCH", k)
    blanks = {c: sum(r[c] is None for r in rows) for c in COLUMNS[5:]}
    print("no verdict or score, per column:", {c: n for c, n in blanks.items() if n})
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: "" if r[k] is None else r[k] for k in COLUMNS})
    args.out.write_bytes(lzma.compress(buf.getvalue().encode("utf-8"), preset=9))
    print(f"wrote {len(rows)} rows to {args.out}")
    return 0 if not failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
