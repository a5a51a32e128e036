import subprocess
import sys

import pytest

import judgestats as js


def _printed(code: str) -> list[str]:
    """What a fresh interpreter prints running ``code`` (words)."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_import_is_light():
    heavy = ("pandas", "xarray", "matplotlib", "pymc", "arviz", "scipy.stats")
    assert _printed(f"import sys, judgestats; print(*[m for m in {heavy} if m in sys.modules])") == []


def test_import_loads_a_small_face():
    """Issue 37: import judgestats loads at most 40 of its modules (issue 37), never the report."""
    code = (
        "import sys, judgestats\n"
        "mods = [m for m in sys.modules if m.startswith('judgestats')]\n"
        "print(len(mods), 'judgestats.report' in sys.modules)\n"
    )
    count, report = _printed(code)
    assert int(count) <= 40 and report == "False", (count, report)


def test_public_names():
    import judgestats as js

    for name in js.__all__:
        assert hasattr(js, name), name
    public = [name for name in dir(js) if not name.startswith("_")]
    assert len(js.__all__) <= 60 and len(public) <= 80, (len(js.__all__), len(public))
    assert set(js.__all__) - {"__version__"} <= set(public)


FACES = ("judgestats", "judgestats.agreement", "judgestats.evaluate", "judgestats.pairwise")


@pytest.mark.parametrize("face", FACES)
def test_a_face_loads_the_names_its_type_checking_imports_name(face):
    """A face's lazy names (loaded on first use) are the objects its TYPE_CHECKING block names."""
    import ast
    import importlib
    import inspect

    module = importlib.import_module(face)
    tree = ast.parse(inspect.getsource(module))
    block = next(n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))
    pairs = [(n, a.asname or a.name) for n in block.body for a in n.names]
    assert pairs
    for node, name in pairs:
        home = importlib.import_module("." * node.level + node.module, face)
        assert getattr(module, name) is getattr(home, name), (face, name)
        assert name in module.__all__, (face, name)


def test_agreement_evaluate_and_pairwise_stay_functions_after_their_modules_load():
    code = (
        "import judgestats as js, judgestats.pairwise.counting, judgestats.evaluate.tables\n"
        "import judgestats.evaluate.batches, judgestats.agreement.card\n"
        "print(*(f.__module__ for f in (js.agreement, js.evaluate, js.pairwise)))\n"
    )
    assert _printed(code) == [
        "judgestats.agreement.measures", "judgestats.evaluate.groups",
        "judgestats.pairwise.leaderboard",
    ]  # fmt: skip


@pytest.mark.parametrize("name", sorted(js._MOVED))
def test_an_old_top_level_name_warns_naming_its_new_home(name):
    from judgestats._lazy import load

    home = js._MOVED[name]
    shown = "js." + home.replace(":", ".")
    with pytest.warns(DeprecationWarning, match=f"js.{name} is deprecated; use {shown}$"):
        value = getattr(js, name)
    assert value is load(home)
    assert name not in js.__all__ and name not in dir(js)


def _package_import_graph():
    """Module -> modules of the package it imports, counting imports inside functions too."""
    import ast
    from pathlib import Path

    root = Path(js.__file__).resolve().parent
    names = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    graph = {}
    for mod, path in names.items():
        is_pkg = path.name == "__init__.py"
        base = mod.split(".") if is_pkg else mod.split(".")[:-1]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    stem = base[: len(base) - (node.level - 1)]
                    target = ".".join(stem + ([node.module] if node.module else []))
                elif (node.module or "").startswith("judgestats"):
                    target = node.module
                else:
                    continue
                for cand in [target, *(f"{target}.{a.name}" for a in node.names)]:
                    if cand in names and cand != mod:
                        deps.add(cand)
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name in names and a.name != mod}
        if is_pkg:  # a package's __init__ re-exporting its own submodules is not a cycle
            deps = {d for d in deps if not d.startswith(mod + ".")}
        graph[mod] = deps
    return graph


def test_no_import_cycle_even_through_imports_inside_functions():
    graph = _package_import_graph()
    assert "judgestats.kernels" in graph and len(graph) > 25
    state = {}

    def visit(node, path):
        state[node] = "open"
        for dep in graph[node]:
            if state.get(dep) == "open":
                cycle = [*path[path.index(dep) :], dep]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if dep not in state:
                visit(dep, [*path, dep])
        state[node] = "done"

    for mod in sorted(graph):
        if mod not in state:
            visit(mod, [mod])


def test_moved_result_classes_still_import_from_results_with_a_deprecation():
    import judgestats.results as results

    with pytest.warns(DeprecationWarning, match="judgestats.results.Correction moved"):
        cls = results.Correction
    assert cls is js.Correction
    with pytest.warns(DeprecationWarning):
        assert results.Evaluation is js.Evaluation


def test_one_path_from_frames_to_counts():
    """Issue 16: evaluate, strata and the CLI count through js.frames.group_counts.

    The CLI's files by group count as ``evaluate`` does (``evaluate.counting.count_groups``,
    its guard rail of repeated items around ``group_counts``).
    """
    import importlib
    import inspect

    evaluate, cli, frames, strata, counting = (
        importlib.import_module(f"judgestats.{m}")
        for m in ("evaluate", "cli", "frames", "strata", "evaluate.counting")
    )
    assert evaluate.group_counts is frames.group_counts
    for func, call in ((strata.stratified_counts, "group_counts("),
                       (counting.count_groups, "group_counts("),
                       (cli._rows_from_files, "count_groups(")):
        source = inspect.getsource(func)
        assert call in source and ".groupby(" not in source


def test_no_function_over_80_code_lines():
    """Issue 16: code lines from the first statement after the docstring to the end."""
    import ast
    from pathlib import Path

    root = Path(js.__file__).resolve().parent
    long = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                body = node.body
                has_doc = (
                    isinstance(body[0], ast.Expr)
                    and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)
                )
                start = (body[1] if has_doc and len(body) > 1 else body[0]).lineno
                if node.end_lineno - start + 1 > 80:
                    long.append(f"{path.name}:{node.lineno} {node.name}")
    assert not long, long


def test_code_layout_page_lists_every_module():
    """docs/code-layout.md: one row per module of the package, no row for a module that is gone."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "code-layout.md").read_text()
    listed = set(re.findall(r"^\| [\w/ -]+ \| `([\w.]+)` \|", page, flags=re.M))
    modules = {m.removeprefix("judgestats.") for m in _package_import_graph()} - {"judgestats"}
    modules -= {"datasets._build"}  # a build script, named in the datasets row
    assert listed == modules, (sorted(modules - listed), sorted(listed - modules))


@pytest.fixture
def old_module_paths():
    """Forget the old module paths before and after a test (importing one binds it)."""

    def forget():
        for old in js._MOVED_MODULES:
            sys.modules.pop(f"judgestats.{old}", None)
            js.__dict__.pop(old, None)

    forget()
    yield
    forget()


@pytest.mark.parametrize("old", sorted(js._MOVED_MODULES))
def test_an_old_module_path_imports_its_new_home_with_a_warning(old, old_module_paths):
    import importlib

    new = f"judgestats.{js._MOVED_MODULES[old]}"
    with pytest.warns(DeprecationWarning, match=f"judgestats.{old} is deprecated; use {new}$"):
        module = importlib.import_module(f"judgestats.{old}")
    assert module is importlib.import_module(new)
    assert module.__spec__.name == new  # the module keeps its own spec
    assert f"judgestats.{old}" not in js.__all__ and old not in dir(js)


def test_from_an_old_module_path_imports_its_names(old_module_paths):
    with pytest.warns(DeprecationWarning, match="judgestats.alphabet_groups is deprecated"):
        from judgestats.alphabet_groups import AlphabetCorrection
    assert AlphabetCorrection is js.AlphabetCorrection
    with pytest.warns(DeprecationWarning, match="use judgestats.label_shift$"):
        from judgestats.shift import label_shift_test
    assert label_shift_test is js.label_shift_test
