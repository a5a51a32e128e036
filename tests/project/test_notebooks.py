"""The executed notebooks as a reader meets them: what the text says is in the committed outputs.

nbmake runs every notebook (``make test``); these checks read the committed ``.ipynb`` files
without running them, so they are fast and catch what a run cannot: a figure the text describes
but the outputs lack (notebook 11 lost its only figure, issue 38), a number in the text that
its own outputs contradict, a link that leads nowhere, a notebook without the ``QUICK`` switch.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

#: a code cell that draws (comment lines aside)
_DRAWS = re.compile(r"\.plot\(|plt\.|js\.plots\.|subplots\(|\.imshow\(|\.errorbar\(|\bplot_\w+\(")
#: prose that points at a figure of the notebook (the paper's "Figure 6" and "these figures"
#: in the sense of numbers are not figures of the notebook)
_MENTIONS = re.compile(
    r"(?i)\bfigure\b(?!\s*\d)|\bplots?\b|\bheat ?maps?\b|\bpanels?\b|\baxis\b|\blegend\b"
    r"|\((?:red|blue|green|orange|dotted|dashed)\b"
)
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def _has_png(cell: dict) -> bool:
    return any("image/png" in out.get("data", {}) for out in cell.get("outputs", ()))


def _text(cell: dict) -> str:
    """What a code cell printed or showed as text (stdout and text/plain)."""
    parts = []
    for out in cell.get("outputs", ()):
        text = out.get("text") or out.get("data", {}).get("text/plain", "")
        parts.append("".join(text))
    return "\n".join(parts)


def _cell(path: Path, cell_id: str) -> dict:
    return next(c for c in _cells(path) if c.get("id") == cell_id)


def _notebook(stem: str) -> Path:
    (path,) = (ROOT / "notebooks").glob(f"{stem}.ipynb")
    return path


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_a_cell_draws_is_in_the_committed_outputs(path):
    missing = []
    for i, cell in enumerate(_cells(path)):
        if cell["cell_type"] != "code":
            continue
        code = "\n".join(x for x in _source(cell).splitlines() if not x.lstrip().startswith("#"))
        if _DRAWS.search(code) and not _has_png(cell):
            missing.append(i)
    assert not missing, f"{path.name}: cells that draw but have no PNG output: {missing}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_the_text_mentions_is_in_the_committed_outputs(path):
    # a markdown cell that speaks of a figure (its panels, axis, colours) reads the figure of the
    # code cell just above it or just below it: that cell has a PNG output
    cells = _cells(path)
    code = [i for i, c in enumerate(cells) if c["cell_type"] == "code"]
    missing = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        prose = re.sub(r"`[^`]*`", "", _source(cell))  # code spans name functions, not figures
        prose = re.sub(r"(?i)the paper's figure", "", prose)
        if not _MENTIONS.search(prose):
            continue
        before = [cells[j] for j in code if j < i][-1:]
        after = [cells[j] for j in code if j > i][:1]
        if not any(_has_png(c) for c in before + after):
            missing.append((i, _MENTIONS.search(prose)[0]))
    assert not missing, f"{path.name}: text about a figure with none beside it: {missing}"


def test_the_figure_check_catches_a_lost_figure():
    # notebook 11 as committed before issue 38: the plot cell had no outputs, the text below
    # described the figure's colours
    cells = _cells(_notebook("11_corrected_leaderboard"))
    plot = next(c for c in cells if c.get("id") == "c08")
    assert _DRAWS.search(_source(plot)) and _has_png(plot)
    stripped = {**plot, "outputs": []}
    assert not _has_png(stripped)
    assert _MENTIONS.search(_source(_cell(_notebook("11_corrected_leaderboard"), "c09")))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_has_the_quick_switch(path):
    # tests run every notebook as committed (QUICK = True); QUICK = False gives the full counts
    first = next(c for c in _cells(path) if c["cell_type"] == "code" and "QUICK" in _source(c))
    assert re.search(r"^QUICK = True\b", _source(first), flags=re.MULTILINE), path.name
    uses = sum(len(re.findall(r"\bQUICK\b", _source(c))) for c in _cells(path)
               if c["cell_type"] == "code")  # fmt: skip
    assert uses >= 2, f"{path.name}: QUICK is set but switches nothing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_links_inside_notebooks_lead_somewhere(path):
    # a relative link resolves from notebooks/ in the repository (the site rewrites .md and
    # .ipynb to their pages: tests/project/test_docs.py checks the built pages)
    broken = []
    for cell in _cells(path):
        if cell["cell_type"] != "markdown":
            continue
        for target in _LINK.findall(_source(cell)):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (path.parent / target.split("#", 1)[0]).exists():
                broken.append(target)
    assert not broken, f"{path.name}: links to nothing: {broken}"


def test_benchmark_results_named_in_notebooks_are_links():
    # issue 38 §4: "benchmarks/results/x.md" in a notebook's text is a link to that page
    bare = []
    for path in NOTEBOOKS:
        for cell in _cells(path):
            if cell["cell_type"] != "markdown":
                continue
            text = re.sub(r"\[`?benchmarks/results/\w+\.md`?\]\([^)]*\)", "", _source(cell))
            text = _LINK.sub("", text)  # what other links point at
            bare += [(path.stem, m) for m in re.findall(r"benchmarks/results/\w+\.md", text)]
    assert not bare, bare


# --- numbers in the text that the outputs must bear out (issue 38 §4) --------------------------


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"(?<![\w.])\d+\.\d+", text)]


def test_label_in_rounds_bands_are_labelled_at_their_bonferroni_level():
    # the monitor runs simultaneous=True over 20 models: each band is a 99.75% sequence
    path = _notebook("06_label_in_rounds")
    monitor = _source(_cell(path, "8e9b2685"))
    assert "simultaneous=True" in monitor
    figure = _source(_cell(path, "a6b988a4"))
    assert "95% confidence sequence" not in figure
    assert "1 - (1 - mon.confidence_level) / len(mon.intervals)" in figure
    assert "20 groups at once (Bonferroni)" in _text(_cell(path, "8e9b2685"))


def test_calibration_designs_coverage_sentence_matches_its_table():
    path = _notebook("02_calibration_designs")
    table = _text(_cell(path, "91c7a219"))
    rows = [line.split() for line in table.splitlines() if re.match(r"^\S+(\s+\d\.\d+){3}\s*$", line)]
    coverage = [float(v) for row in rows[:6] for v in row[1:]]  # the first block: coverage
    assert len(coverage) == 18
    said = " ".join(_source(_cell(path, "92e80309")).split())
    low, high = re.search(r"(0\.\d+)–(0\.\d+) over the six targets", said).groups()
    assert (float(low), float(high)) == (min(coverage), max(coverage))
    # the two over-covering cells the text names are more than 2 s.e. above 0.95 at 200 splits
    se = (0.95 * 0.05 / 200) ** 0.5
    for value in re.search(r"gpt-4 \((0\.\d+)\) and llama-13b \((0\.\d+)\)", said).groups():
        assert float(value) in coverage and float(value) > 0.95 + 2 * se
    # "never undefined": the table shows the undefined shares, and a data set shows it
    undefined = [float(v) for row in rows[12:18] for v in row[1:]]
    assert len(undefined) == 18 and max(undefined) == 0.0
    shown = _text(_cell(path, "never-undefined"))
    assert "NotInformativeError" in shown and 'design="random": 0.' in shown


def test_more_than_two_grades_diagnosis_quotes_printed_rates():
    path = _notebook("09_more_than_two_grades")
    printed = _text(_cell(path, "alpaca-miss"))
    said = _source(_cell(path, "s5-read"))
    quoted = re.search(r"lose\s+to (\d+\.\d)% of them against (\d+\.\d)% on all rows, and win to "
                       r"(\d+\.\d)% against (\d+\.\d)%", said)  # fmt: skip
    assert quoted
    lose = re.search(r"^lose\s+(\d+\.\d)\s+(\d+\.\d)\s*$", printed, flags=re.MULTILINE).groups()
    win = re.search(r"^win\s+(\d+\.\d)\s+(\d+\.\d)\s*$", printed, flags=re.MULTILINE).groups()
    assert quoted.groups() == (*lose, *win)


def test_more_than_two_grades_random_design_widths_match_the_table():
    path = _notebook("09_more_than_two_grades")
    table = _text(_cell(path, "design-random"))
    widths = [float(m) for m in re.findall(r"True\s+(0\.\d+)", table)]
    assert len(widths) == 18
    low, high = re.search(r"intervals are (0\.\d+) to (0\.\d+) wide",
                          " ".join(_source(_cell(path, "s6-random-read")).split())).groups()
    assert (low, high) == (f"{min(widths):.2f}", f"{max(widths):.2f}")


def test_scores_ties_second_judge_saving_follows_from_the_outputs():
    path = _notebook("10_scores_ties_two_judges")
    cutoffs = _text(_cell(path, "p3b-cutoff"))
    t3 = float(re.search(r"GPT-4's 3 letters\s+3\s+\S+\s+(\d\.\d+)", cutoffs)[1])
    t6 = float(re.search(r"6 letters\s+6\s+\S+\s+(\d\.\d+)", cutoffs)[1])
    ratio = float(re.search(r"judge 1 alone\s+3\s+\S+\s+\S+\s+(\d\.\d+)",
                            _text(_cell(path, "p3b-merge")))[1])  # fmt: skip
    saving = 1 - (1 / ratio) / (t6 / t3)  # standard error of 6 letters against 3, cut-offs aside
    said = " ".join(_source(_cell(path, "p3-conclusion")).split())
    quoted = float(re.search(r"saves about (\d+\.\d)% of the standard error", said)[1])
    assert quoted == pytest.approx(100 * saving, abs=0.05)


def test_corrected_leaderboard_text_reads_the_figures_elo_axis():
    path = _notebook("11_corrected_leaderboard")
    printed = _text(_cell(path, "c07"))
    elo = {name: int(v) for name, v in re.findall(r"^\s+(\w+).*?=\s+(\d+) Elo$", printed,
                                                  flags=re.MULTILINE)}  # fmt: skip
    said = " ".join(_source(_cell(path, "c09")).split())
    assert "Elo" in said and "log-odds" not in said
    assert re.search(rf"by {elo['naive']} Elo points per model", said)
    assert re.search(rf"are off by {elo['corrected']} points", said)
    assert "Elo (centred)" in _source(_cell(path, "c08")) or "Elo axis" in _source(_cell(path, "c08"))
