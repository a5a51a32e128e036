"""The README as a new user meets it: at most 150 lines, code first, every Python snippet runs as
written, every link leads to a file; and the figures of the "Why correct?" page, where the
evidence lives (issue 38 §4), are what the bundled data give.

The figures are recomputed here with the splits of `benchmarks/bench_real_data.py` (the
paper's real-data study: per target, a random 10% or 40% of its rows is the calibration set,
100 splits, seeds ``[2026, i]``), once under the paper's design and once under
``design="random"``, which is what these splits are. Both estimates and the naive rate are
compared with the human rate on all of the target's rows.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import judgestats as js
from judgestats import experiments

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: the page that holds the evidence the README's first screen used to carry
EVIDENCE = (ROOT / "docs" / "guide" / "why-correct.md").read_text(encoding="utf-8")
SNIPPETS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)

#: (data set, calibration fraction, seed index of bench_real_data.py's study)
CONFIGS = (("arena", 0.1, 0), ("arena", 0.4, 1), ("nq", 0.1, 4), ("nq", 0.4, 5))


def test_the_readme_has_python_snippets():
    assert len(SNIPPETS) >= 1
    assert "js.correct(test, cal" in SNIPPETS[0]  # the quickstart comes first


def test_the_readme_is_short_and_code_first():
    # issue 38 §4: at most 150 lines; install, the two commands, a quickstart, your own data
    # (one line per tool), links; the evidence lives on the "Why correct?" page
    lines = README.splitlines()
    assert len(lines) <= 150, len(lines)
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[:3] == ["## Two commands", "## Quickstart", "## Your own data"], headings
    assert "pip install" in README.split("## Two commands")[0]
    assert "make demo" in README and "make test" in README
    own = README.split("## Your own data", 1)[1].split("\n## ", 1)[0]
    for tool in ("Inspect AI", "lm-evaluation-harness", "promptfoo", "DeepEval", "MLflow"):
        (line,) = [entry for entry in own.split("\n- ") if tool in entry]
        assert "js.readers." in line and "judgestats" in line.split("js.readers.", 1)[1], tool
    assert "RMSE" not in README and "RMSE 0.078" in EVIDENCE


def test_every_readme_link_leads_to_a_file():
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    local = [t for t in targets if not t.startswith(("http://", "https://"))]
    assert len(local) >= 20
    missing = [t for t in local if not (ROOT / t).is_file()]
    assert not missing, missing


@pytest.mark.parametrize("number", range(len(SNIPPETS)))
def test_readme_snippet_runs_as_written(number, capsys):
    # a fresh namespace, nothing defined beforehand: the snippet must bring its own data
    exec(compile(SNIPPETS[number], f"README.md python block {number + 1}", "exec"), {})
    capsys.readouterr()


@pytest.fixture(scope="module")
def studies():
    arena = js.datasets.load_chatbot_arena("gpt-4")
    frames = {
        "arena": arena[arena.target_model.isin(js.datasets.ARENA_TARGETS)],
        "nq": js.datasets.load_nq301(),
    }
    out = {}
    for name, frac, i in CONFIGS:
        for design in ("by-human-label", "random"):
            out[name, frac, design] = experiments.split_study(
                frames[name], calibration_fraction=frac, splits=100, design=design,
                methods=["adjusted-wald", "naive-wilson"], rng=np.random.default_rng([2026, i]),
                progress=False,
            )  # fmt: skip
    return out


def _quoted(pattern: str) -> tuple[str, ...]:
    found = re.search(pattern, " ".join(EVIDENCE.split()))
    assert found, pattern
    return found.groups()


def test_first_screen_figures_of_the_papers_design(studies):
    tables = [studies[name, frac, "by-human-label"].bias_table() for name, frac, _ in CONFIGS]
    arena10 = tables[0]
    rmse, naive, worse, total = _quoted(
        r"RMSE (0\.\d+) against (0\.\d+) for the naive rate, and a larger RMSE on (\d+) of (\d+)"
    )
    assert f"{arena10.corrected_rmse.mean():.3f}" == rmse
    assert f"{arena10.naive_rmse.mean():.3f}" == naive
    assert sum(int((t.corrected_rmse > t.naive_rmse).sum()) for t in tables) == int(worse)
    assert sum(len(t) for t in tables) == int(total) == 36
    cover = [studies[name, frac, "by-human-label"].coverage_table() for name, frac, _ in CONFIGS]
    aw = np.concatenate([c[c.method == "adjusted-wald"].coverage_full for c in cover])
    wilson = np.concatenate([c[c.method == "naive-wilson"].coverage_full for c in cover])
    low, high = _quoted(r"an interval that covers: (0\.\d+)–(\d\.\d+) per target")
    assert (f"{aw.min():.2f}", f"{aw.max():.2f}") == (low, high)
    (under,) = _quoted(r"Wilson interval covers under 50% on (\d+) of the 36")
    assert int((wilson < 0.5).sum()) == int(under)


def test_first_screen_figures_of_the_random_design(studies):
    tables = [studies[name, frac, "random"].bias_table() for name, frac, _ in CONFIGS]
    plain = [studies[name, frac, "by-human-label"].bias_table() for name, frac, _ in CONFIGS]
    for t, p in zip(tables, plain, strict=True):  # the same splits: the same naive rates
        np.testing.assert_allclose(t.naive_rmse, p.naive_rmse)
    rmse, naive, worse = _quoted(
        r"RMSE (0\.\d+) against (0\.\d+) on Arena at 10%, worse than the naive rate on (\d+) of 36"
    )
    assert f"{tables[0].corrected_rmse.mean():.3f}" == rmse
    assert f"{tables[0].naive_rmse.mean():.3f}" == naive
    assert sum(int((t.corrected_rmse > t.naive_rmse).sum()) for t in tables) == int(worse)
    nq_rmse, nq_naive = _quoted(r"NQ-301 at 10%.*? is still worse: (0\.\d+) against (0\.\d+)")
    assert f"{tables[2].corrected_rmse.mean():.3f}" == nq_rmse
    assert f"{tables[2].naive_rmse.mean():.3f}" == nq_naive
    ratios = []
    cover = []
    for name, frac, _ in CONFIGS:
        c0 = studies[name, frac, "by-human-label"].coverage_table()
        c1 = studies[name, frac, "random"].coverage_table()
        a0, a1 = c0[c0.method == "adjusted-wald"], c1[c1.method == "adjusted-wald"]
        ratios.append(a0.mean_length.mean() / a1.mean_length.mean())
        cover.extend(a1.coverage_full)
    short, long_, low, high = _quoted(
        r"intervals (\d\.\d)–(\d\.\d)× shorter that still cover \((0\.\d+)–(\d\.\d+)\)"
    )
    assert (f"{min(ratios):.1f}", f"{max(ratios):.1f}") == (short, long_)
    assert (f"{min(cover):.2f}", f"{max(cover):.2f}") == (low, high)
