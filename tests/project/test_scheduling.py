"""The two-worker scheduling of tests/conftest.py (`make test`: -n 2 --dist loadfile).

Every file is one group, as with plain --dist loadfile, except the files of ``SPLIT``; a file
may be split only if no module-scoped fixture would then be built once per group.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests import conftest

ROOT = Path(__file__).resolve().parents[2]


def test_a_file_is_one_group_unless_it_is_split():
    assert conftest._group("tests/test_plan.py::test_a[x-1]") == "tests/test_plan.py"
    assert conftest._group("notebooks/01_quickstart.ipynb::") == "notebooks/01_quickstart.ipynb"
    bench = "tests/project/test_benchmarks.py::test_benchmark_quick_mode[bench_core.py]"
    assert conftest._group(bench) == bench  # one group per benchmark script
    golden = {
        conftest._group(f"tests/golden/test_golden.py::test_golden[e{i}]") for i in range(200)
    }
    assert golden == {f"tests/golden/test_golden.py:{i}" for i in range(4)}


@pytest.mark.parametrize("where", sorted(conftest.SPLIT))
def test_split_files_have_no_module_scoped_fixture(where):
    tree = ast.parse((ROOT / where).read_text(encoding="utf-8"))
    scoped = [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        for deco in node.decorator_list
        if isinstance(deco, ast.Call) and any(k.arg == "scope" for k in deco.keywords)
    ]
    assert not scoped, f"{where} builds {scoped} once per group: take it out of SPLIT"


def test_slow_groups_go_first_and_each_group_keeps_its_order():
    class Item:
        def __init__(self, nodeid, slow):
            self.nodeid, self.slow = nodeid, slow

        def get_closest_marker(self, name):
            return self.slow if name == "slow" else None

    items = [Item("tests/a.py::t1", False), Item("tests/b.py::t1", False),
             Item("tests/b.py::t2", True), Item("tests/c.py::t1", False)]  # fmt: skip
    conftest._slow_groups_first(items)
    assert [i.nodeid for i in items] == ["tests/b.py::t1", "tests/b.py::t2", "tests/a.py::t1",
                                         "tests/c.py::t1"]  # fmt: skip


def test_the_scheduler_is_xdists_for_loadfile_only():
    class Config:
        def __init__(self, dist):
            self.dist = dist

        def getvalue(self, name):
            return self.dist

    assert conftest.pytest_xdist_make_scheduler(Config("load"), None) is None
