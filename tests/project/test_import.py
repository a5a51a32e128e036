import subprocess
import sys

import pytest

import judgestats as js


def test_import_is_light():
    code = (
        "import sys, judgestats\n"
        "heavy = [m for m in ('pandas', 'xarray', 'matplotlib', 'pymc', 'arviz', 'scipy.stats')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_public_names():
    import judgestats as js

    for name in js.__all__:
        assert hasattr(js, name), name


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
    """Issue 16: evaluate, strata and the CLI count through js.frames.group_counts."""
    import importlib
    import inspect

    evaluate, cli, frames, strata = (
        importlib.import_module(f"judgestats.{m}") for m in ("evaluate", "cli", "frames", "strata")
    )
    assert evaluate.group_counts is frames.group_counts
    for func in (strata.stratified_counts, cli._rows_from_files):
        source = inspect.getsource(func)
        assert "group_counts(" in source and ".groupby(" not in source


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
