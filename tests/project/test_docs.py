"""The documentation site (mkdocs.yml): built in strict mode, complete, and readable in a browser.

`make test` runs `make docs` (`mkdocs build --strict` into site/) before pytest, so a docstring or
page that breaks the site already fails there. These tests check what the build produced:

- the site: every guide, notebook and benchmark page is there, notebooks with their figures;
- the API reference covers every public name (each `__all__` below) and renders its anchor;
- the guides' examples (`>>>` blocks) still print what the pages say;
- headless Chromium renders the home page and an API page (screenshots checked for content).

Which site is checked: site/ when it is newer than every file it is built from (as after
`make docs`, so `make test` builds the docs once); otherwise, e.g. a bare `pytest` after editing
a docstring, the tests build a fresh site into a temporary folder first (about 20 s), so they never
pass on a stale site and never overwrite site/ behind the developer's back.
"""

from __future__ import annotations

import doctest
import html
import importlib
import importlib.util
import inspect
import json
import os
import re
import subprocess
import sys
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pytest

import judgestats

from ..conftest import chromium_flags, needs_chromium

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
API = DOCS / "api"
SITE = ROOT / "site"

#: What the site is built from (a change to any of them makes site/ stale).
SOURCES = (
    "mkdocs.yml",
    "README.md",
    "CHANGELOG.md",
    "docs/**/*",
    "src/judgestats/**/*.py",
    "src/judgestats/datasets/*.md",
    "notebooks/*.ipynb",
    "notebooks/README.md",
    "benchmarks/results/*",
)

#: Public modules whose `__all__` the API reference must cover: the package, every submodule
#: the package exports by name, the optional Bayesian extra and the Inspect metric.
PUBLIC_MODULES = (
    "judgestats",
    *sorted(
        f"judgestats.{name}"
        for name in judgestats.__all__
        if inspect.ismodule(getattr(judgestats, name))
    ),
    "judgestats.bayes",
    "judgestats.inspect_metric",
)

_DIRECTIVE = re.compile(r"^::: +([\w.]+)", re.MULTILINE)
_MENTION = re.compile(r"`(judgestats(?:\.\w+)+)`")


def _newest_source() -> float:
    return max(
        path.stat().st_mtime
        for pattern in SOURCES
        for path in ROOT.glob(pattern)
        if path.is_file() and "__pycache__" not in path.parts
    )


def _mkdocs() -> list[str]:
    return [sys.executable, "-m", "mkdocs"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The built site: site/ if it is up to date, else a strict build into a temporary folder."""
    index = SITE / "index.html"
    if index.exists() and index.stat().st_mtime >= _newest_source():
        return SITE
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    build = subprocess.run(
        [*_mkdocs(), "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert build.returncode == 0, build.stderr[-5000:]
    return out


def _page(site: Path, uri: str) -> str:
    return (site / uri).read_text(encoding="utf-8")


class _Text(HTMLParser):
    """The visible text of a page (scripts and styles dropped)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def _text(page: str) -> str:
    parser = _Text()
    parser.feed(page)
    return " ".join(" ".join(parser.parts).split())


# --- (a) the built site ---------------------------------------------------------------------


def test_every_page_is_built(site):
    nav_sources = [
        *(f"guide/{p.stem}.html" for p in (DOCS / "guide").glob("*.md")),
        *(f"api/{p.stem}.html" for p in API.glob("*.md")),
        *(f"benchmarks/results/{p.stem}.html" for p in (ROOT / "benchmarks/results").glob("*.md")),
        *(f"notebooks/{p.stem}.html" for p in (ROOT / "notebooks").glob("*.ipynb")),
        *(f"warnings/{p.stem}.html" for p in (DOCS / "warnings").glob("*.md")),
        "index.html",
        "install.html",
        "getting-started.html",
        "theory.html",
        "citing.html",
        "scale-out.html",
        "glossary.html",
        "benchmarks.html",
        "notebooks/index.html",
    ]
    missing = [uri for uri in nav_sources if not (site / uri).is_file()]
    assert not missing, missing
    assert len(nav_sources) > 40


def test_notebooks_rendered_with_their_outputs(site):
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        outputs = [o for c in cells if c["cell_type"] == "code" for o in c.get("outputs", ())]
        figures = sum("image/png" in o.get("data", {}) for o in outputs)
        page = _page(site, f"notebooks/{path.stem}.html")
        # every figure of the executed notebook is embedded in its page, none re-run
        assert page.count("data:image/png;base64,") >= figures, path.name
        first_markdown = next(c for c in cells if c["cell_type"] == "markdown")
        title = "".join(first_markdown["source"]).splitlines()[0].lstrip("# ").strip()
        assert html.escape(title.split("`")[0][:30], quote=False) in page, path.name


def test_notebook_gallery_shows_each_notebooks_first_figure(site):
    # issue 31 §4: the notebooks page ends with a gallery, in the learning-path order, of each
    # notebook's first committed PNG figure (shrunk; the notebooks are not re-run)
    import base64
    import io

    from PIL import Image

    index = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    order = re.findall(r"^\| \d+ \| [^|]+ \| \[\w+\]\((\w+)\.ipynb\)", index, flags=re.MULTILINE)
    page = _page(site, "notebooks/index.html")
    gallery = page[page.index('id="gallery"') :]
    cards = re.findall(r"<td>(.*?)</td>", gallery, flags=re.DOTALL)
    cards = [card for card in cards if card.strip()]
    assert [re.findall(r'href="(\w+)\.html"', card)[-1] for card in cards] == order
    for stem, card in zip(order, cards, strict=True):
        cells = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
        pngs = [o["data"]["image/png"] for c in cells if c["cell_type"] == "code"
                for o in c.get("outputs", ()) if "image/png" in o.get("data", {})]  # fmt: skip
        shown = re.findall(r'src="data:image/png;base64,([^"]+)"', card)
        assert len(shown) == min(len(pngs), 1), stem
        if pngs:
            full = Image.open(io.BytesIO(base64.b64decode("".join(pngs[0]))))
            thumb_bytes = base64.b64decode(shown[0])
            thumb = Image.open(io.BytesIO(thumb_bytes))
            assert max(thumb.size) <= 240 and len(thumb_bytes) <= 30_000, stem
            # the same picture: the aspect ratio of the first figure, to the rounding of a pixel
            assert thumb.width / thumb.height == pytest.approx(full.width / full.height, rel=0.02)
        else:
            assert "(no figure)" in card, stem


def test_readme_sections_and_benchmarks_are_included_not_copied(site):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # the home page includes the README's quickstart and its own-data list, verbatim; the
    # README is their one home (issue 38 §4: the home page is the README, code first)
    home = _text(_page(site, "index.html"))
    squeeze = re.compile(r"\s+")  # the page puts spaces around code spans
    for heading in ("## Quickstart", "## Your own data"):
        body = re.sub(r"```\w*", "", readme.split(heading, 1)[1].split("\n## ", 1)[0])
        words = " ".join(re.sub(r"[`*\\]", "", body).split()[:12])
        assert words and squeeze.sub("", words) in squeeze.sub("", home), heading
        assert words not in (DOCS / "index.md").read_text(encoding="utf-8")
    # every other page is the one home of its text: only the home page includes the README
    for page in DOCS.rglob("*.md"):
        if page.name != "index.md" or page.parent != DOCS:
            assert "README.md\" start=" not in page.read_text(encoding="utf-8"), page
    # benchmark pages are the result files themselves, figures beside them
    table = (ROOT / "benchmarks/results/allocation.md").read_text(encoding="utf-8")
    first_row = next(line for line in table.splitlines() if line.startswith("| 0.7 | 0.9 | 200"))
    cells = [c.strip() for c in first_row.strip("|").split("|")]
    assert " ".join(cells) in _text(_page(site, "benchmarks/results/allocation.html"))
    assert (site / "benchmarks/results/allocation.png").is_file()


def test_cli_page_shows_the_commands_own_output(site):
    text = _text(_page(site, "guide/cli.html"))
    for command in ("correct", "plan", "report"):
        assert f"usage: judgestats {command}" in text
    assert "$ judgestats correct --positive 600" in text
    assert "0.5000 [0.3935, 0.6033]" in text  # js.correct's adjusted-Wald interval of those counts


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rendering_defects_are_caught():
    # what AlphabetCorrection's page looked like when prose followed its Attributes section
    # (issue 31): entries named by prose, raw double backticks, an unresolved cross-reference
    bad = (
        '<li class="doc-section-item field-body"> <b><code><span title="x.distribution">'
        "distribution</span></code></b> – ok</li>"
        '<li class="doc-section-item field-body"> <b><code><span title="x">The properties give '
        "what a [`Correction`][judgestats.correct.Correction] gives</span></code></b></li>"
        '<li class="doc-section-item field-body"> <b><code><span title="x">``estimate`` and '
        "``ci``</span></code></b></li>"
        '<li class="doc-section-item field-body"> <b><code><a href="#a">by, human, judge</a>'
        "</code></b></li><p>see :func:`judgestats.correct`</p>"
        "<pre><code>θ̂ = clip(Σ w θ̂_s)  (``weights='test'``), x[i][j]</code></pre>"
    )
    found = _hooks().defects(bad)
    assert sum("is not a name" in d for d in found) == 2, found
    assert sum("double backticks" in d for d in found) == 2  # ``estimate`` and ``ci``, not <pre>
    assert sum("unresolved cross-reference" in d for d in found) == 1
    assert sum("Sphinx role" in d for d in found) == 1
    assert len(found) == 6


def test_built_pages_have_no_rendering_defects(site):
    hooks = _hooks()
    pages = [p for p in site.rglob("*.html") if "notebooks" not in p.relative_to(site).parts]
    assert len(pages) > 40
    found = {p.relative_to(site).as_posix(): hooks.defects(p.read_text(encoding="utf-8"))
             for p in pages}  # fmt: skip
    assert not {k: v for k, v in found.items() if v}


def test_the_site_loads_nothing_from_the_network(site):
    # the site works offline (mkdocs.yml): no CDN script (mkdocs-jupyter's MathJax loader is
    # dropped by docs/hooks.py), no web font
    # (the canonical link names the page's own address, from site_url: nothing is loaded)
    remote = re.compile(
        r"""<(?:script|link)\b(?![^>]*rel="canonical")[^>]*(?:src|href)=["']https?://""",
        re.IGNORECASE,
    )
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not remote.search(text), page
        assert "mathjax" not in text.lower(), page


def _extras() -> dict[str, list[str]]:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return project["optional-dependencies"]


def _closure(extra: str, extras: dict[str, list[str]]) -> set[str]:
    """The distributions an extra installs, its nested judgestats[...] extras followed."""
    names: set[str] = set()
    for requirement in extras[extra]:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)[0].lower()
        if name == "judgestats":
            for nested in re.search(r"\[(.*)\]", requirement)[1].split(","):
                names |= _closure(nested.strip(), extras)
        else:
            names.add(name.replace("-", "_"))
    return names


# A module of another extra is absent, as in a fresh venv: importing it raises, and
# importlib.util.find_spec (how xarray and others ask whether dask is there) answers None.
_BLOCKER = """
import importlib.abc, importlib.util, sys
BLOCKED = {blocked!r}
class _Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked: not in .[docs])")
        return None
_find_spec = importlib.util.find_spec
def _absent(name, package=None):
    if name.split(".")[0] in BLOCKED:
        return None
    return _find_spec(name, package)
importlib.util.find_spec = _absent
sys.meta_path.insert(0, _Blocker())
"""


@pytest.mark.slow
def test_the_site_builds_from_the_docs_extra_alone(tmp_path):
    # issue 38 §4: two docstrings' pymc.set_data references failed the strict build without
    # PyMC. Every module of the other extras (PyMC, ArviZ, Inspect AI, the engines, ...) is made
    # unimportable, as in a fresh venv with only `.[docs]`, and the site still builds strictly
    extras = _extras()
    docs = _closure("docs", extras)
    others = set().union(*(_closure(e, extras) for e in extras if e != "dev")) - docs
    blocked = others | {"pytensor", "arviz_base", "arviz_stats", "arviz_plots"}  # PyMC's own
    assert {"pymc", "arviz", "inspect_ai", "polars"} <= blocked and "matplotlib" not in blocked
    (tmp_path / "sitecustomize.py").write_text(_BLOCKER.format(blocked=sorted(blocked)))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    check = subprocess.run([sys.executable, "-c", "import pymc"], env=env, capture_output=True)
    assert check.returncode != 0  # the blocker works
    build = subprocess.run(
        [*_mkdocs(), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env=env,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr[-5000:]


def test_roles_naming_another_package_are_code_installed_or_not():
    spec = importlib.util.spec_from_file_location("docs_griffe_rst", DOCS / "griffe_rst.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _external = module._external
    assert _external("pymc.set_data") and _external("numpy.ndarray")
    assert _external("a_package_nobody_installed.function")
    assert not _external("judgestats.correct") and not _external("correct")


def test_the_404_page_works_under_the_site_urls_sub_path(site, monkeypatch):
    # issue 38 §4: the 404 page answers for any missing URL, so its links are absolute, built
    # from site_url's path; mkdocs.yml reads the deployed address from JUDGESTATS_SITE_URL
    from urllib.parse import urlsplit

    from mkdocs.config import load_config

    built = load_config(str(ROOT / "mkdocs.yml"))
    base = urlsplit(built["site_url"]).path
    page = _page(site, "404.html")
    assets = re.findall(r'(?:src|href)="([^"]*assets/[^"]*)"', page)
    assert assets and all(a.startswith(f"{base}assets/") for a in assets), assets[:3]
    monkeypatch.setenv("JUDGESTATS_SITE_URL", "https://example.org/docs/judgestats/")
    assert load_config(str(ROOT / "mkdocs.yml"))["site_url"] == "https://example.org/docs/judgestats/"


def test_links_inside_notebooks_lead_to_pages_of_the_site(site):
    # issue 38 §4: a notebook's links are written for the repository (../benchmarks/results/x.md);
    # docs/hooks.py points them at the site's pages, and every relative link of a notebook page
    # names a file of the built site
    hooks = _hooks()
    pages = {"notebooks/x.ipynb": None}
    html_in = ('<a href="../benchmarks/results/a.md#part">a</a> <a href="../docs/guide/b.md">b</a>'
               '<a href="https://x.org/c.md">c</a> <img src="data:image/png;base64,AA"> '
               '<a href="../nothing.md">d</a> <a href="#top">e</a>')  # fmt: skip
    known = {"benchmarks/results/a.md": "../benchmarks/results/a.html", "guide/b.md": "../guide/b.html"}
    html_out, broken = hooks.notebook_links(html_in, "notebooks/x.ipynb", known.get)
    assert 'href="../benchmarks/results/a.html#part"' in html_out
    assert 'href="../guide/b.html"' in html_out and 'href="https://x.org/c.md"' in html_out
    assert broken == ["../nothing.md"] and pages
    checked = 0
    for path in sorted((site / "notebooks").glob("*.html")):
        page = path.read_text(encoding="utf-8")
        body = page[page.find('<div class="jupyter-wrapper"'):]
        for target in re.findall(r'href="([^"#:]+)(?:#[^"]*)?"', body):
            assert (path.parent / target).resolve().is_file(), (path.name, target)
            checked += 1
    assert checked >= 20


def test_every_warning_has_a_page_saying_what_to_do():
    classes = set()
    for module in PUBLIC_MODULES:
        for name in importlib.import_module(module).__all__:
            value = getattr(importlib.import_module(module), name)
            if isinstance(value, type) and issubclass(value, judgestats.JudgeStatsWarning):
                classes.add(value.__name__)
    classes.discard("JudgeStatsWarning")
    pages = {p.stem for p in (DOCS / "warnings").glob("*.md")} - {"index"}
    assert classes == pages
    index = (DOCS / "warnings" / "index.md").read_text(encoding="utf-8")
    for name in classes:
        text = (DOCS / "warnings" / f"{name}.md").read_text(encoding="utf-8")
        assert "## What it means" in text and "## What to do" in text, name
        assert f"]({name}.md)" in index, name


def _cells(name: str) -> list[dict]:
    return json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))["cells"]


def _output_text(cell: dict) -> str:
    parts = []
    for out in cell.get("outputs", ()):
        text = out.get("text") or out.get("data", {}).get("text/plain", "")
        parts.append("".join(text))
    return "".join(parts)


def test_notebook_claims_match_their_committed_outputs():
    # issue 31: two sentences contradicted the output printed above them
    cells = _cells("04_compare_interval_methods.ipynb")
    table = next(_output_text(c) for c in cells if "settings = {" in "".join(c["source"]))
    paper, block = [], None
    for line in table.splitlines():
        hit = re.match(r"(paper.*?|weak.*?)?\s+([a-z-]+)\s+(\d\.\d+)\s*\\?$", line)
        if hit:
            block = (hit[1] or block or "").strip() or block
            if block.startswith("paper") and hit[2] != "naive-wilson":
                paper.append(hit[3])
    assert len(paper) == 77  # 7 methods x 11 values of θ
    text = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    low, high = re.search(r"every method covers between (0\.\d+) and (0\.\d+) at every θ", text).groups()
    assert (low, high) == (min(paper, key=float), max(paper, key=float))

    cells = _cells("02_calibration_designs.ipynb")
    guard = next(i for i, c in enumerate(cells) if "the guard rail" in "".join(c["source"]))
    said = " ".join("".join(cells[guard]["source"]).split())
    shown = _output_text(cells[guard + 1])
    assert "WeakCalibrationWarning" in shown
    assert ("DesignWarning" in shown) == ("shows no `DesignWarning`" not in said)


def test_notebooks_have_one_learning_path_and_the_site_follows_it():
    # issue 31: the README asks "how did you sample your calibration set?" first, but that was
    # the eighth notebook; the index gives a reading order and the site's nav follows it; issue 38:
    # the file numbers follow that order too
    index = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    path = re.findall(r"^\| (\d+) \| [^|]+ \| \[\w+\]\((\w+)\.ipynb\)", index, flags=re.MULTILINE)
    assert [int(step) for step, _ in path] == list(range(1, len(path) + 1))
    order = [stem for _, stem in path]
    assert [int(stem[:2]) for stem in order] == list(range(1, len(order) + 1))
    assert sorted(order) == sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert order.index("02_calibration_designs") == 1  # right after the quickstart
    nav = re.findall(r"^\s+- notebooks/(\w+)\.ipynb$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"),
                     flags=re.MULTILINE)  # fmt: skip
    assert nav == order


def test_plots_page_shows_the_figures_its_functions_draw(site):
    page = _page(site, "api/plots.html")
    source = (API / "plots.md").read_text(encoding="utf-8")
    drawn = re.findall(r"<!-- figure: .*?ax = js\.plots\.(\w+)\(", source, flags=re.DOTALL)
    assert len(drawn) == 5 and page.count('src="data:image/png;base64,') == len(drawn)
    for name in drawn:  # each figure follows its function's entry
        assert page.index(f'id="judgestats.plots.{name}"') < page.index(f"ax = js.plots.{name}(")


# --- (b) the API reference covers every public name ------------------------------------------


def _resolve(dotted: str):
    """The object ``dotted`` names at run time (as ``import`` and attribute access give it)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            value = getattr(value, name)
        return value
    raise ImportError(dotted)


def _api_text() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(API.glob("*.md"))}


def test_every_public_name_is_in_the_api_reference():
    pages = _api_text()
    directives = [d for text in pages.values() for d in _DIRECTIVE.findall(text)]
    mentions = {m for text in pages.values() for m in _MENTION.findall(text)}
    assert len(directives) == len(set(directives)), "an object is rendered twice"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        rendered = {id(_resolve(d)) for d in directives}
    missing, unrendered = [], []
    public = [(m, n) for m in PUBLIC_MODULES for n in importlib.import_module(m).__all__]
    assert len(public) > 150
    for module, name in public:
        path = f"{module}.{name}"
        value = getattr(importlib.import_module(module), name)
        if path in directives:
            continue
        if path not in mentions:
            missing.append(path)  # neither rendered under this name nor named as an alias
        elif id(value) not in rendered:
            unrendered.append(path)  # named, but the object itself is rendered nowhere
    assert not missing, f"public names missing from docs/api/*.md: {missing}"
    assert not unrendered, f"aliases whose object no ::: directive renders: {unrendered}"


def test_every_directive_is_rendered_with_its_anchor(site):
    for name, text in _api_text().items():
        page = _page(site, f"api/{Path(name).stem}.html")
        for directive in _DIRECTIVE.findall(text):
            if "members: false" in text.split(f"::: {directive}\n", 1)[1].split(":::", 1)[0]:
                continue  # a module's docstring, rendered without a heading
            assert f'id="{directive}"' in page, (name, directive)


def test_docstring_roles_become_links(site):
    # correct()'s docstring says :func:`judgestats.interval_methods`: a link to its entry
    page = _page(site, "api/correct.html")
    assert re.search(r'href="intervals\.html#judgestats\.interval_methods"', page)
    assert ":func:" not in _text(page) and ":class:" not in _text(page)


def test_see_also_names_become_links(site):
    # issue 31 §4: correct()'s See Also lists "evaluate : ..." and "plan.calibration_size : ...";
    # js.evaluate is the function (not the module of that name) and each entry links to its entry
    page = _page(site, "api/correct.html")
    see_also = re.search(r'<details class="see-also".*?</details>', page, flags=re.DOTALL)
    assert see_also is not None
    for href in ("evaluate\\.html#judgestats\\.evaluate\\.evaluate",
                 "plan\\.html#judgestats\\.plan\\.calibration_size"):  # fmt: skip
        assert re.search(f'href="{href}"', see_also[0]), href
    items = re.findall(r"<li>(.*?)</li>", see_also[0], flags=re.DOTALL)
    assert len(items) == 5 and all(item.startswith("<a ") for item in items)  # each entry a link


# --- the guides' examples --------------------------------------------------------------------


def _examples(page: Path) -> str:
    """The ``>>>`` examples of a page's Python code blocks, in page order (one namespace)."""
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return "\n".join(b for b in blocks if ">>>" in b)


EXAMPLE_PAGES = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md") if _examples(p))


def test_the_guides_have_examples():
    assert {"guide/planning.md", "guide/strata.md", "guide/engines.md", "guide/why-correct.md",
            "guide/pairwise.md", "guide/bayes.md", "guide/data.md"} <= set(EXAMPLE_PAGES)


def _guide_order() -> list[str]:
    """The guide pages in the nav's order (mkdocs.yml's "User guide" section)."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("  - User guide:", 1)[1]
    nav = nav.split("\n  - ", 1)[0]
    return re.findall(r"(guide/[\w-]+\.md)", nav)


def test_every_guide_page_ends_with_next_in_the_reading_order():
    # issue 38 §4: each guide page ends with "Next:", which leads to the page after it in the nav
    # (the last one to the theory page)
    order = _guide_order()
    on_disk = sorted(p.relative_to(DOCS).as_posix() for p in (DOCS / "guide").glob("*.md"))
    assert sorted(order) == on_disk
    assert {"guide/why-correct.md", "guide/pairwise.md", "guide/bayes.md"} <= set(order)
    for page, following in zip(order, [*order[1:], "theory.md"], strict=True):
        last = (DOCS / page).read_text(encoding="utf-8").rstrip().rsplit("\n\n", 1)[-1]
        assert last.startswith("Next: ["), (page, last[:80])
        target = re.match(r"Next: \[[^\]]+\]\(([^)#]+)", last)[1]
        assert (DOCS / page).parent.joinpath(target).resolve() == (DOCS / following).resolve(), page


def test_benchmark_paths_in_the_text_are_links():
    # issue 38 §4: a benchmark result named in a page's text is a link to its page
    bare = re.compile(r"(?<![\[/(])`?benchmarks/results/[\w.]+\.md")
    for page in [*DOCS.rglob("*.md"), ROOT / "README.md"]:
        text = page.read_text(encoding="utf-8")
        text = re.sub(r"\[`?benchmarks/results/[\w.]+\.md`?\]", "", text)  # a link's own label
        assert not bare.findall(text), (page, bare.findall(text)[:3])


@pytest.mark.parametrize("page", EXAMPLE_PAGES)
def test_guide_examples_print_what_the_page_says(page):
    source = _examples(DOCS / page)
    test = doctest.DocTestParser().get_doctest(source, {}, page, str(DOCS / page), 0)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    runner.run(test, out=lambda s: pytest.fail(s, pytrace=False))
    assert runner.summarize(verbose=False).attempted > 0


# --- (c) headless Chromium --------------------------------------------------------------------


@needs_chromium
@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("index.html", r"Honest LLM-as-a-judge numbers"),
        # the signature as the browser shows it (its parts are separate spans in the HTML)
        ("api/correct.html", r"correct\s*\(\s*test\s*:\s*JudgedCounts\s*,\s*calibration\s*:"),
    ],
)
def test_page_renders_in_headless_chromium(site, tmp_path, uri, expected):
    from PIL import Image

    flags = chromium_flags(tmp_path / "profile")
    url = (site / uri).as_uri()
    dom = subprocess.run([*flags, "--dump-dom", url], capture_output=True, text=True, timeout=120)
    text = _text(dom.stdout)
    assert re.search(expected, text), dom.stderr[-2000:]
    assert "judgestats" in text and "API reference" in text  # header and navigation rendered

    shot = tmp_path / (uri.replace("/", "_") + ".png")
    subprocess.run(
        [*flags, "--window-size=1280,900", f"--screenshot={shot}", url],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert shot.stat().st_size > 10_000
    with Image.open(shot) as image:
        assert image.size == (1280, 900)
        rgb = image.convert("RGB")
        colours = rgb.getcolors(maxcolors=1_000_000)
        top = rgb.crop((0, 0, 1280, 40))  # Material's header bar (primary colour: indigo)
        band = top.getcolors(maxcolors=100_000)
    # a rendered page, not a blank or an error page: text antialiasing gives many colours, and
    # no single colour covers the whole window
    assert colours is not None and len(colours) > 200
    assert max(count for count, _ in colours) < 0.95 * 1280 * 900
    r, g, b = max(band)[1]
    assert b > r + 40 and b > g + 40, (r, g, b)  # the indigo header bar is painted
