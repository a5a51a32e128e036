"""Every public function and class shows an Examples section that runs as pasted.

Issue 38 §4: an example must work when a user pastes it into a fresh session, so each runs
here in an empty namespace (``--doctest-modules`` runs them with the module's own globals,
where ``agreement(ConfusionCounts(...))`` passes and fails when pasted). The public objects
are those of each public module's ``__all__`` (as the API reference lists them); error and
warning classes are documented on their own pages instead.
"""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

import judgestats

#: Public modules: the package, every submodule it exports by name, the Bayesian extra.
MODULES = (
    "judgestats",
    *sorted(
        f"judgestats.{name}"
        for name in judgestats.__all__
        if inspect.ismodule(getattr(judgestats, name))
    ),
    "judgestats.bayes",
)


def _public() -> dict[str, object]:
    found: dict[str, object] = {}
    for name in MODULES:
        module = importlib.import_module(name)
        for attribute in getattr(module, "__all__", ()):
            obj = getattr(module, attribute)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if inspect.isclass(obj) and issubclass(obj, (Warning, Exception)):
                continue
            found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


PUBLIC = _public()


def _examples(obj: object) -> str | None:
    doc = inspect.getdoc(obj) or ""
    if "\nExamples\n--------\n" not in doc:
        return None
    return doc.split("\nExamples\n--------\n", 1)[1]


def test_every_public_object_has_an_examples_section():
    missing = sorted(key for key, obj in PUBLIC.items() if _examples(obj) is None)
    assert len(PUBLIC) >= 140
    assert not missing, missing


@pytest.mark.parametrize("key", sorted(k for k, o in PUBLIC.items() if _examples(o) is not None))
def test_examples_run_as_pasted(key):
    obj = PUBLIC[key]
    (test,) = [t for t in doctest.DocTestFinder(recurse=False).find(obj, key, globs={})]
    assert test.examples, key  # an Examples section with no >>> line shows nothing
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)  # a warning is an error here, as in the suite
    assert not runner.failures, "".join(report)
