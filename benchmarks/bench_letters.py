"""A continuous judge score binned per group: on the engine or in Python (issue #20).

An evaluation table of N rows (20 models, 5% human-labelled) whose judge gives a continuous
score in [1, 5] (G-Eval style probability-weighted scores), with 1% refusals coded -1 and 1%
missing. ``js.evaluate(frame, judge="score", bins=[1, 2, 3, 4, 5], invalid=[None, -1])``
bins a numeric column on the frame's engine, so only a few bin codes per model reach Python.
Three timings per engine, best of 3, in one process:

  letter_counts      js.evaluate's counting step (``js.alphabets.groups.letter_counts``): the
                     binned grouped count on the engine and the letters of its rows;
  own binned count   the engine's own hand-written count of the same bins (pandas ``pd.cut``
                     then ``groupby(...).size()``, polars ``cut`` then ``group_by(...).len()``,
                     DuckDB a ``CASE`` expression and ``GROUP BY ALL``);
  binned in Python   letter_counts on the same pandas frame with the score as an object column,
                     which takes the path for text or mixed columns: every distinct score is
                     collected and binned in Python (the behaviour before the engine binning).

"rows to Python" is the number of distinct (model, judge value, human) rows the grouped count
returns. The counts of every path are checked to be identical. The corrections that follow
(20 joint maximum-likelihood fits) take the same time on every path and are not timed here.
Another process may share the two cores: compare within one run.

Run: python benchmarks/bench_letters.py [--quick]   (quick: 2·10^5 rows; full: 10^6 and 10^7)
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from _common import best_of, markdown_table, publish, quick_parser, run_time

import judgestats as js
from judgestats.alphabets.groups import letter_counts

SEED = 20261124
N_MODELS = 20
EDGES = [1, 2, 3, 4, 5]
INVALID = [None, -1]
REPEAT = 3


def make_frame(n: int, seed: int = SEED):
    """The evaluation table (pandas): model, score (continuous, -1 refusals, NaN), human."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    truth = rng.random(n) < rng.uniform(0.2, 0.8, N_MODELS)[rng.integers(0, N_MODELS, n)]
    score = np.clip(np.where(truth, rng.normal(3.8, 0.8, n), rng.normal(2.4, 0.8, n)), 1, 5)
    score[rng.random(n) < 0.01] = -1.0
    score[rng.random(n) < 0.01] = np.nan
    human = np.where(rng.random(n) < 0.05, truth.astype(float), np.nan)
    model = np.char.add("m", rng.integers(0, N_MODELS, n).astype(str))
    return pd.DataFrame({"model": model, "score": score, "human": human})


def own_count(engine: str, frame):
    """The engine's own hand-written count of the same bins (as its users would write it)."""
    if engine == "pandas":
        import pandas as pd

        s = frame["score"]
        code = pd.cut(s, EDGES, right=False, include_lowest=True, labels=False)
        code = code.where(s != 5, len(EDGES) - 2).where(s != -1, -2)
        return frame.assign(code=code).groupby(
            ["model", "code", "human"], dropna=False, observed=True
        ).size()
    if engine == "polars":
        import polars as pl

        code = (pl.when(pl.col("score") == -1).then(-2)
                .when(pl.col("score") < 2).then(0).when(pl.col("score") < 3).then(1)
                .when(pl.col("score") < 4).then(2).otherwise(3))  # fmt: skip
        return frame.with_columns(code=code).group_by("model", "code", "human").len()
    return frame.aggregate(
        "model, human, CASE WHEN score = -1 THEN -2 WHEN score < 2 THEN 0 WHEN score < 3 THEN 1 "
        "WHEN score < 4 THEN 2 WHEN score <= 5 THEN 3 END AS code, count(*) AS n"
    ).fetchall()


def frames(df) -> dict:
    import duckdb
    import polars as pl

    return {
        "pandas": df,
        "polars": pl.from_pandas(df, nan_to_null=True),
        "duckdb": duckdb.from_df(df),
    }


def count(frame):
    """The counting half of js.evaluate with a judge alphabet (no corrections)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return letter_counts(frame, judge="score", bins=EDGES, invalid=INVALID)


def tally(lc) -> dict:
    return {g: (lc.test[g].tolist(), lc.calibration[g].tolist()) for g in lc.groups}


def run(n: int) -> list[list[str]]:
    df = make_frame(n)
    to_python = {  # distinct (model, judge value, human) rows the grouped count returns
        "bins": len(own_count("pandas", df)),
        "scores": df.groupby(["model", "score", "human"], dropna=False).ngroups,
    }
    rows, reference, t_pandas = [], None, None
    for engine, frame in frames(df).items():
        counts = tally(count(frame))
        reference = counts if reference is None else reference
        t_js = best_of(lambda f=frame: count(f), REPEAT)
        t_own = best_of(lambda e=engine, f=frame: own_count(e, f), REPEAT)
        t_pandas = t_js if t_pandas is None else t_pandas
        rows.append([f"{n:.0e}", engine, f"{t_js:.3f}", f"{t_own:.3f}", f"{t_js / t_own:.2f}",
                     "–", to_python["bins"], "yes" if counts == reference else "NO"])  # fmt: skip
    slow = df.assign(score=df["score"].astype(object))  # text/mixed path: binned in Python
    same = tally(count(slow)) == reference
    t_py = best_of(lambda: count(slow), 1 if n > 10**6 else REPEAT)
    rows.append([f"{n:.0e}", "pandas, binned in Python", f"{t_py:.3f}", "–", "–",
                 f"{t_py / t_pandas:.1f}", to_python["scores"],
                 "yes" if same else "NO"])  # fmt: skip
    ev_time = best_of(lambda: js.evaluate(df, judge="score", bins=EDGES, invalid=INVALID,
                                          min_count=1, progress=False), 1)  # fmt: skip
    print(f"n = {n:.0e}: the whole js.evaluate call on pandas (count + {N_MODELS} joint-MLE "
          f"corrections) {ev_time:.2f} s", flush=True)
    return rows


def main() -> None:
    args = quick_parser(__doc__, "2·10^5 rows only (about 15 s)").parse_args()
    start = time.perf_counter()
    sizes = [200_000] if args.quick else [1_000_000, 10_000_000]
    rows = []
    for n in sizes:
        rows += run(n)
        print(f"n = {n:.0e} done", flush=True)
    header = ["rows", "engine", "letter_counts (s)", "own binned count (s)",
              "letter_counts ÷ own count", "binned in Python ÷ on pandas", "rows to Python",
              "same counts"]  # fmt: skip
    table = markdown_table(header, rows)
    print(table)
    elapsed = time.perf_counter() - start
    publish(
        "letters",
        "A continuous score binned per group: on the engine or in Python (bench_letters.py)",
        table
        + "\n\n"
        + __doc__.split("\n\n", 1)[1].split("\nRun:")[0].strip()
        + "\n\n"
        + run_time(elapsed, args.quick),
        elapsed,
    )


if __name__ == "__main__":
    main()
