"""The real data under benchmarks/data/: every table is documented, counted and licensed.

Each committed data file must appear in the index table of benchmarks/data/README.md with its
exact row count, a licence the project may redistribute, and a build script that exists; every
column of the file must be named in the README; the licence text of each source must be in
benchmarks/data/LICENSES/. Cheap: three small tables read once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"
README = DATA / "README.md"
ALLOWED = {"MIT", "Apache-2.0", "CC BY 4.0", "CC BY-SA 4.0", "CC BY-SA 3.0"}
FILES = sorted(p.name for p in DATA.iterdir() if p.name.endswith((".csv", ".csv.xz")))


def _index() -> dict[str, dict[str, str]]:
    """The README's index table: file -> {rows, source, licence, build script}."""
    rows = {}
    for line in README.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"`[^`]+\.csv(\.xz)?`", cells[0]):
            rows[cells[0].strip("`")] = dict(
                zip(("rows", "source", "licence", "script"), cells[1:], strict=True)
            )
    return rows


def test_every_data_file_is_in_the_index_and_nothing_else():
    assert FILES, "no data files found under benchmarks/data"
    assert sorted(_index()) == FILES


@pytest.mark.parametrize("name", FILES)
def test_data_file_matches_its_readme_entry(name):
    entry = _index()[name]
    table = pd.read_csv(DATA / name)
    assert len(table) == int(entry["rows"].replace(",", "")), (name, len(table), entry["rows"])
    assert entry["licence"] in ALLOWED, entry
    script = entry["script"].strip("`")
    assert (DATA / script).is_file(), script
    # the source commit is pinned (40 hex digits) and the build script names the same commit
    commit = re.search(r"\b[0-9a-f]{40}\b", entry["source"])
    assert commit, entry["source"]
    assert commit.group(0) in (DATA / script).read_text()
    text = README.read_text()
    missing = [c for c in table.columns if f"`{c}`" not in text]
    undocumented = [c for c in missing if not _covered_by_range(c, text)]
    assert not undocumented, (name, undocumented)


def _covered_by_range(column: str, text: str) -> bool:
    """A column named by a documented family such as `human_annotator1..3` or `llm_Qc_p1..p4`."""
    for fam in re.findall(r"`([^`]*\.\.[^`]*)`", text):
        pattern = re.escape(fam)
        pattern = re.sub(r"(\d)\\\.\\\.(?:[a-z])?(\d)", r"\\d", pattern)  # 1..3, p1..p4
        pattern = pattern.replace("Qc", r"Q\d")
        if re.fullmatch(pattern, column):
            return True
    return False


def test_column_families_cover_only_their_members():
    text = "`human_rater1..3` and `llm_Qc_p1..p4`"
    assert _covered_by_range("human_rater2", text) and _covered_by_range("llm_Q7_p4", text)
    assert not _covered_by_range("human_rater", text)
    assert not _covered_by_range("llm_Q0_sample", text)
    assert not _covered_by_range("bogus_column", text)


def test_each_source_licence_text_is_kept():
    sources = {e["source"].split("]")[0].lstrip("[") for e in _index().values()}
    kept = {p.stem for p in (DATA / "LICENSES").glob("*.txt")}
    for repo in sources:
        assert repo.replace("/", "-") in kept, repo
