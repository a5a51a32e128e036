"""Griffe extension of the judgestats site: the numpydoc docstrings' reST bits become Markdown.

mkdocstrings renders docstring text as Markdown; the docstrings are numpydoc, written to read well
in ``help()``, and use two reStructuredText constructs that Markdown lacks. Before mkdocstrings
renders a docstring, this extension rewrites them:

1. Simple tables (columns under ``=====  =====`` borders; a row whose first cell is empty
   continues the row above) become Markdown tables.
2. Sphinx roles, ``:func:`correct```, ``:class:`~x.Y```, become links or code:

   - a target that names an object the API pages render (a ``::: path`` directive under
     ``docs/api/``, or a documented member of a rendered class) becomes a cross-reference
     ``[`correct`][judgestats.correct.correct]``, so the link follows the object to its page;
   - a target that names a judgestats object the site does not render (a private helper, an
     internal module) becomes plain code;
   - a target in another package (``numpy.ndarray``, ``pymc.set_data``), installed or not,
     becomes plain code;
   - a judgestats target that names nothing, in a docstring the site renders, is a broken
     reference: logged as a warning, which fails ``mkdocs build --strict``. (Docstrings of internal
     objects the site does not show are left to the code review.)
3. A numpydoc ``See Also`` section, whose entries are plain ``name : description`` lines (as
   ``help()`` shows them), becomes a Markdown list of links. A name is read as the attribute
   path after ``judgestats.`` (``evaluate``, ``compare.rank``, as ``js.`` spells them), else
   resolved like a role of 2:
   ``- [`evaluate`][judgestats.evaluate.evaluate]: description``.

Names are looked up the way Sphinx does for the Python domain: in the scope of the documented
object (its class, then its module and the modules above it), then from the package root.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import re
import unicodedata
from pathlib import Path

import griffe

ROOT = Path(__file__).resolve().parent.parent
API_DOCS = ROOT / "docs" / "api"
PACKAGE = "judgestats"

_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|data|mod|obj|exc|const):`([^`]+)`")
_DIRECTIVE = re.compile(r"^::: +([\w.]+)", re.MULTILINE)

#: a See Also section: its entries run from the underline to the first blank line
_SEE_ALSO = re.compile(r"^See Also\n-{8,}\n((?:[^\n]+\n?)+)", re.MULTILINE)
_SEE_ENTRY = re.compile(r"^(\S[^:]*?)(?: +: +(.*))?$")

_BORDER = re.compile(r"^( *)=+(?: +=+)+ *$")

logger = logging.getLogger("mkdocs.plugins.judgestats.griffe_rst")


def _lookup(scope: griffe.Object, dotted: str) -> griffe.Object | griffe.Alias | None:
    try:
        return scope[dotted]
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def _final(obj: griffe.Object | griffe.Alias) -> griffe.Object | None:
    """Follow aliases to the object itself (``None`` for an alias to another package)."""
    try:
        return obj.final_target if obj.is_alias else obj  # type: ignore[union-attr]
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def _runtime(dotted: str) -> object:
    """Import ``dotted`` (a module or an attribute path) as Python would; ``None`` if it fails."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            value = getattr(value, name, None)
            if value is None:
                return None
        return value
    return None


def _external(target: str) -> bool:
    """Whether ``target`` names another package's object (``numpy.ndarray``, ``pymc.set_data``).

    Whether that package is installed does not matter: the site builds from the ``docs`` extra
    alone, without the optional dependencies (PyMC, ArviZ, ...) some docstrings refer to.
    """
    return "." in target and target.split(".", 1)[0] != PACKAGE


class TableError(ValueError):
    """A reST simple table whose text runs into the gap between two columns."""


def _cells(line: str, starts: list[int]) -> list[str]:
    """Cut ``line`` at display columns ``starts`` (a combining accent, as in π̂, takes none)."""
    cells = [""] * len(starts)
    column = 0
    for char in line:
        if unicodedata.combining(char):
            column -= 1
        elif column + 1 in starts[1:] and char != " ":
            # docutils refuses this too ("Text in column margin")
            raise TableError(f"text in the column margin at column {column}: {line.strip()!r}")
        cells[max(k for k, start in enumerate(starts) if start <= column or k == 0)] += char
        column += 1
    return [cell.strip() for cell in cells]


def tables_to_markdown(text: str) -> str:
    """Rewrite every reST simple table of ``text`` as a Markdown table (same indentation)."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        border = _BORDER.match(lines[i])
        # a table: border, header, border, rows, border
        if not (border and i + 2 < len(lines) and _BORDER.match(lines[i + 2])):
            out.append(lines[i])
            i += 1
            continue
        indent = border[1]
        starts = [m.start() for m in re.finditer(r"=+", lines[i])]
        header = _cells(lines[i + 1], starts)
        rows: list[list[str]] = []
        j = i + 3
        while j < len(lines) and not _BORDER.match(lines[j]):
            cells = _cells(lines[j], starts)
            if cells[0] or not rows:
                rows.append(cells)
            else:
                rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
            j += 1
        for row in [header, ["---"] * len(starts), *rows]:
            out.append(indent + "| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
        i = j + 1
    return "\n".join(out)


class RstToMarkdown(griffe.Extension):
    """Rewrite the reST tables and roles of every docstring (see the module docstring)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        """Rewrite the docstrings once the package is loaded (role targets can be anywhere)."""
        if pkg.name != PACKAGE:
            return
        self.pkg = pkg
        self.rendered = self._rendered_paths()
        for obj in self._walk(pkg):
            if obj.docstring is not None:
                try:
                    text = tables_to_markdown(obj.docstring.value)
                except TableError as error:
                    logger.warning("%s: docstring table: %s (%s)", obj.path, error, obj.filepath)
                    continue
                text = _SEE_ALSO.sub(lambda m, o=obj: self._see_also(o, m[1]), text)
                obj.docstring.value = _ROLE.sub(lambda m, o=obj: self._rewrite(o, m[1]), text)

    def _walk(self, obj: griffe.Object):
        yield obj
        for member in obj.members.values():
            if not member.is_alias:
                yield from self._walk(member)  # type: ignore[arg-type]

    def _rendered_paths(self) -> set[str]:
        """Canonical paths of every object the API pages render."""
        paths: set[str] = set()
        for page in sorted(API_DOCS.glob("*.md")):
            for identifier in _DIRECTIVE.findall(page.read_text(encoding="utf-8")):
                found = self._resolve_absolute(identifier)
                if found is None:
                    continue  # mkdocstrings itself reports a directive that names nothing
                paths.add(found.path)
                if found.is_class:
                    paths.update(
                        m.path
                        for name, m in found.all_members.items()
                        if not name.startswith("_")
                        and (t := _final(m)) is not None
                        and t.docstring is not None
                    )
        return paths

    def _resolve_absolute(self, dotted: str) -> griffe.Object | None:
        """Find the object ``dotted`` names when the code runs.

        ``judgestats.correct`` is the function that ``__init__`` imports over the module of that
        name, and the package's lazy attributes count too.
        """
        if dotted != PACKAGE and not dotted.startswith(PACKAGE + "."):
            return None
        value = _runtime(dotted)
        canonical = None
        if inspect.ismodule(value):
            canonical = value.__name__
        elif (inspect.isclass(value) or inspect.isfunction(value)) and value.__module__.startswith(
            PACKAGE
        ):
            canonical = f"{value.__module__}.{value.__qualname__}"
        for path in (canonical, dotted):
            if path == PACKAGE:
                return self.pkg
            if path is not None:
                found = _lookup(self.pkg, path[len(PACKAGE) + 1 :])
                if found is not None and (resolved := _final(found)) is not None:
                    return resolved
        return None

    def _resolve(self, obj: griffe.Object, target: str) -> griffe.Object | None:
        target = target.lstrip(".")
        found = self._resolve_absolute(target)
        if found is not None:
            return found
        scope: griffe.Object | None = obj if (obj.is_class or obj.is_module) else obj.parent
        while scope is not None:
            hit = _lookup(scope, target)
            if hit is not None and (resolved := _final(hit)) is not None:
                return resolved
            scope = scope.parent
        # a bare error or warning class (numpydoc's Raises sections) is one of js.errors
        errors = self._resolve_absolute(f"{PACKAGE}.errors.{target}") if "." not in target else None
        return errors or self._resolve_absolute(f"{PACKAGE}.{target}")

    def _see_also(self, obj: griffe.Object, block: str) -> str:
        """Rewrite the entries of a See Also section as a Markdown list of cross-references."""
        items: list[str] = []
        for line in block.rstrip("\n").split("\n"):
            entry = _SEE_ENTRY.match(line)
            if line.startswith(" ") and items:
                items[-1] += " " + line.strip()  # a description's continuation line
            elif entry is None:
                items.append(line)  # not an entry: keep it as written
            else:
                names = ", ".join(self._see(obj, n.strip()) for n in entry[1].split(","))
                items.append(f"- {names}" + (f": {entry[2]}" if entry[2] else ""))
        return "See Also\n--------\n" + "\n".join(items) + "\n"

    def _see(self, obj: griffe.Object, name: str) -> str:
        """One See Also name: as ``js.NAME`` would name it, else resolved like a role."""
        value: object = importlib.import_module(PACKAGE)
        for part in name.split("."):  # attributes first: js.correct is the function, not the module
            value = getattr(value, part, None)
        path = f"{PACKAGE}.{name}"
        if inspect.isclass(value) or inspect.isfunction(value):
            path = f"{value.__module__}.{value.__qualname__}"
        found = self._resolve_absolute(path)
        if found is not None and found.path in self.rendered:
            return f"[`{name}`][{found.path}]"
        return self._rewrite(obj, name)

    def _rewrite(self, obj: griffe.Object, text: str) -> str:
        title, _, explicit = text.partition(" <")
        target = explicit.rstrip(">") if explicit else text
        short = target.startswith("~")
        target = target.lstrip("~")
        label = title if explicit else (target.rsplit(".", 1)[-1] if short else target)
        found = self._resolve(obj, target)
        if found is not None and found.path in self.rendered:
            return f"[`{label}`][{found.path}]"
        if found is None and obj.path in self.rendered and not _external(target):
            logger.warning(
                "%s: docstring reference %r names no object (Sphinx role in %s)",
                obj.path, target, obj.filepath,
            )
        return f"`{label}`"
