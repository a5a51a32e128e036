"""Faces that load on first use: a package's names, its old names and old module paths.

A package's ``__init__`` is its face (docs/code-layout.md). :func:`face` gives it the
module-level ``__getattr__`` and ``__dir__`` of PEP 562: a name's module is imported the first
time the name is asked for (so that ``import judgestats`` stays light), and an old name keeps
working for one minor release with a ``DeprecationWarning`` that names its new home.
:class:`MovedModules` does the same for old module paths (``import judgestats.shift``).

A path names what judgestats holds, relative to the package: ``"plan"`` is the module
``judgestats.plan``, ``"errors:CountError"`` the class ``CountError`` of ``judgestats.errors``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from ._validation import warn_deprecated

if TYPE_CHECKING:  # pragma: no cover
    from importlib.abc import Loader

__all__ = ["MovedModules", "face", "load"]

ROOT = "judgestats"


def load(path: str) -> Any:
    """Return what a path names: a module of judgestats, or (``"module:name"``) one of its names."""
    module, _, name = path.partition(":")
    found = importlib.import_module(f"{ROOT}.{module}" if module else ROOT)
    return getattr(found, name) if name else found


def _shown(path: str) -> str:
    """Return a path as users write it: ``"errors:CountError"`` → ``"js.errors.CountError"``."""
    return "js." + path.replace(":", ".").lstrip(".")


def face(
    package: str,
    *,
    names: Mapping[str, Iterable[str]],
    modules: Iterable[str] = (),
    moved: Mapping[str, str] | None = None,
    shown: Iterable[str] = (),
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return the ``__getattr__`` and ``__dir__`` of a package's face.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    names : mapping
        Module path → the names it holds that the package shows: each is imported on first use
        and kept in the package.
    modules : iterable of str
        Module paths the package shows under their last name (``"plan"`` as ``js.plan``).
    moved : mapping, optional
        Old name → path of its new home: every use warns (``DeprecationWarning``) and gives it.
    shown : iterable of str
        What ``dir()`` lists (the old names are not listed).

    Returns
    -------
    tuple
        ``(__getattr__, __dir__)``.
    """
    namespace = sys.modules[package].__dict__
    paths = {name: f"{module}:{name}" for module, held in names.items() for name in held}
    paths |= {path.rpartition(".")[2]: path for path in modules}
    old = dict(moved or {})
    listed = sorted(set(shown))
    public = package.replace(ROOT, "js", 1)

    def __getattr__(name: str) -> Any:
        if name in paths:
            value = namespace[name] = load(paths[name])
            return value
        if name in old:
            warn_deprecated(f"{public}.{name}", _shown(old[name]), stacklevel=3)
            return load(old[name])
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return listed

    return __getattr__, __dir__


class MovedModules:
    """Old module paths of judgestats: importing one warns and gives the module's new home.

    A finder on ``sys.meta_path`` (after Python's own, so it is asked only for a module that
    has no file): ``import judgestats.shift`` warns ``DeprecationWarning`` naming
    ``judgestats.label_shift`` and binds the same module object.

    Parameters
    ----------
    moved : mapping
        Old module path → new module path, both relative to the package.
    """

    def __init__(self, moved: Mapping[str, str]) -> None:
        self.moved = dict(moved)
        self._specs: dict[str, Any] = {}

    @classmethod
    def install(cls, moved: Mapping[str, str]) -> None:
        """Put a finder for ``moved`` on ``sys.meta_path`` (once, whatever the reloads)."""
        sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != cls.__name__]
        sys.meta_path.append(cls(moved))

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        """Return a spec for an old module path (this finder loads it), else None."""
        old = fullname.removeprefix(f"{ROOT}.") if fullname.startswith(f"{ROOT}.") else None
        return ModuleSpec(fullname, cast("Loader", self)) if old in self.moved else None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        """Warn, and return the module at its new path (imported if need be)."""
        new = f"{ROOT}.{self.moved[spec.name.removeprefix(f'{ROOT}.')]}"
        warn_deprecated(spec.name, new, stacklevel=3)
        module = importlib.import_module(new)
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Give the module back its own spec (the import system set the old path's)."""
        alias = module.__spec__.name if module.__spec__ is not None else ""
        module.__spec__ = self._specs.pop(alias, module.__spec__)
