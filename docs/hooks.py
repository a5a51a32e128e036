"""MkDocs hooks of the judgestats site (mkdocs.yml ``hooks:``).

1. Pages that live elsewhere in the repository join the site at their repository path, so each
   text has one home: the benchmark results (``benchmarks/results/*.md`` and their figures), the
   executed notebooks, the notebooks' and the bundled data sets' READMEs, the changelog. A link
   written in the README (``notebooks/README.md``) then resolves on the site as in the repository.
2. ``<!-- cli-help: SUBCOMMAND -->`` in a page is replaced by that subcommand's ``--help`` text,
   taken from the CLI's own argparse parser at build time, and ``<!-- cli-run: ARGS -->`` by
   the command ``judgestats ARGS`` and what it prints (so the CLI examples cannot go stale; a
   command that fails fails the build).
3. Every built page is scanned for docstring text that did not render (:func:`defects`): raw
   reST double backticks, Sphinx roles, Markdown cross-references left as text (unresolved),
   and entries of a Parameters/Attributes list whose name is prose (a paragraph written after
   such a section, which numpydoc reads as more entries). Each is logged as a warning, which
   fails ``mkdocs build --strict``.
4. ``<!-- figure: CODE -->`` is replaced by CODE and the figure it draws (Python statements run
   with ``js`` and ``np`` imported, leaving the Axes in ``ax``), embedded as a PNG, so the
   figures on the API pages are drawn by the functions they document at build time.
5. mkdocs-jupyter's MathJax loader (a script that fetches MathJax from a CDN on every page) is
   taken out: no page or notebook writes TeX (formulas are Unicode text), and the site must
   work offline.
6. ``<!-- notebook-gallery -->`` (in ``notebooks/README.md``) is replaced by a gallery: for every
   notebook the page links to, in the page's order, a thumbnail of its first PNG figure (taken
   from the committed outputs, not re-executed) linking to the notebook.
7. ``<!-- capability-table -->`` is replaced by the capability table
   (:func:`judgestats.designs.capabilities.table_markdown`): which interval methods each path
   allows, rendered from the one table the package reads.
8. Links inside the notebooks are written for the repository (``../benchmarks/results/x.md``,
   ``../docs/guide/intervals.md``, ``03_why_correct.ipynb``); mkdocs-jupyter leaves them as they
   are, so on the site they would lead nowhere. Each relative link of a notebook page is
   rewritten to the page it names (:func:`notebook_links`); one that names no page of the site
   is logged as a warning, which fails ``mkdocs build --strict``.
"""

from __future__ import annotations

import contextlib
import html
import io
import logging
import os
import posixpath
import re
import shlex
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel

ROOT = Path(__file__).resolve().parent.parent

#: Repository files published on the site at their repository path.
EXTERNAL = (
    "benchmarks/results/*.md",
    "benchmarks/results/*.png",
    "notebooks/*.ipynb",
    "notebooks/README.md",
    "src/judgestats/datasets/README.md",
    "src/judgestats/datasets/LICENSES.md",
    "CHANGELOG.md",
)

logger = logging.getLogger("mkdocs.plugins.judgestats.hooks")

_CLI_HELP = re.compile(r"<!-- cli-help: ?([a-z]*) -->")
_CLI_RUN = re.compile(r"<!-- cli-run: (.+?) -->")
_FIGURE = re.compile(r"<!-- figure: (.+?) -->", re.DOTALL)
_GALLERY = "<!-- notebook-gallery -->"
_CAPABILITIES = "<!-- capability-table -->"
_NOTEBOOK_LINK = re.compile(r"\[\w+\]\((\w+)\.ipynb\)")
#: width of a gallery thumbnail in pixels, and gallery cards per row
THUMB_WIDTH, GALLERY_COLUMNS = 240, 3


@event_priority(100)  # before mkdocs-jupyter turns the added notebooks into pages
def on_files(files: Files, config) -> Files:
    """Add the repository files of ``EXTERNAL`` to the site."""
    for pattern in EXTERNAL:
        paths = sorted(ROOT.glob(pattern))
        if not paths:
            raise FileNotFoundError(f"docs/hooks.py: no file matches {pattern!r} in {ROOT}")
        for path in paths:
            uri = path.relative_to(ROOT).as_posix()
            if files.get_file_from_path(uri) is None:
                files.append(
                    File(
                        uri,
                        src_dir=str(ROOT),
                        dest_dir=config["site_dir"],
                        use_directory_urls=config["use_directory_urls"],
                        inclusion=InclusionLevel.INCLUDED,
                    )
                )
    return files


def _cli_help(command: str) -> str:
    from judgestats.cli import build_parser

    out = io.StringIO()
    width = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"  # argparse wraps to the terminal: fix it for the page
    try:
        # --help prints and exits; an unknown subcommand raises the CLI's own error
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            build_parser().parse_args([command, "--help"] if command else ["--help"])
    finally:
        if width is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = width
    return out.getvalue()


def _cli_run(arguments: str) -> str:
    from judgestats.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(shlex.split(arguments))
    if code != 0:
        raise RuntimeError(f"cli-run: 'judgestats {arguments}' exited with {code}")
    return f"$ judgestats {arguments}\n{out.getvalue()}"


def _figure(code: str) -> str:
    import base64

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    import judgestats as js

    namespace: dict = {"js": js, "np": np}
    exec(code, namespace)  # the page's own code, as a test would run it
    fig = namespace["ax"].figure
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(out.getvalue()).decode("ascii")
    shown = html.escape(" ".join(code.split()))
    return f'<img alt="figure drawn by: {shown}" src="data:image/png;base64,{data}">'


def _thumbnail(notebook: Path) -> str | None:
    """Shrink the first ``image/png`` output of ``notebook`` to a small PNG data URI."""
    import base64
    import json

    from PIL import Image

    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    for output in (o for c in cells if c["cell_type"] == "code" for o in c.get("outputs", [])):
        png = output.get("data", {}).get("image/png")
        if png is None:
            continue
        image = Image.open(io.BytesIO(base64.b64decode("".join(png)))).convert("RGB")
        image.thumbnail((THUMB_WIDTH, THUMB_WIDTH))  # keeps the aspect ratio
        out = io.BytesIO()
        image.quantize(colors=64).save(out, format="PNG", optimize=True)
        return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")
    return None


def _gallery(markdown: str, folder: Path) -> str:
    """Lay out a thumbnail per notebook linked from ``markdown`` (page order) as a table."""
    stems = list(dict.fromkeys(_NOTEBOOK_LINK.findall(markdown)))
    cards = []
    for step, stem in enumerate(stems, start=1):
        uri = _thumbnail(folder / f"{stem}.ipynb")
        picture = f"[![first figure of {stem}]({uri})]({stem}.ipynb)<br>" if uri else ""
        cards.append(f"{picture}{step}. [{stem}]({stem}.ipynb)" + ("" if uri else " (no figure)"))
    cards += [""] * (-len(cards) % GALLERY_COLUMNS)
    rows = [cards[i : i + GALLERY_COLUMNS] for i in range(0, len(cards), GALLERY_COLUMNS)]
    head = ["| " + " | ".join([" "] * GALLERY_COLUMNS) + " |", "|---" * GALLERY_COLUMNS + "|"]
    return "\n".join(head + ["| " + " | ".join(row) + " |" for row in rows])


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Replace the ``cli-help``, ``cli-run``, ``figure`` and gallery markers by what they make."""
    if _GALLERY in markdown:
        folder = ROOT / Path(page.file.src_uri).parent
        markdown = markdown.replace(_GALLERY, _gallery(markdown, folder))
    if _CAPABILITIES in markdown:  # the capability table, from the package that is documented
        from judgestats.designs.capabilities import table_markdown

        markdown = markdown.replace(_CAPABILITIES, table_markdown())
    markdown = _CLI_HELP.sub(lambda m: f"```text\n{_cli_help(m[1])}```", markdown)
    markdown = _CLI_RUN.sub(lambda m: f"```text\n{_cli_run(m[1])}```", markdown)
    return _FIGURE.sub(lambda m: f"```python\n{m[1].strip()}\n```\n\n{_figure(m[1])}", markdown)


# --------------------------------------------------------------------------- notebook links
_HREF = re.compile(r'(href|src)="([^"#:]*?)(#[^"]*)?"')


def notebook_links(page_html: str, src_uri: str, lookup) -> tuple[str, list[str]]:
    """Point the relative links of a notebook page at the site's pages.

    ``src_uri`` is the notebook's path in the repository (``notebooks/x.ipynb``); ``lookup``
    maps a repository path (``benchmarks/results/x.md``; a page under ``docs/`` by its path
    there) to the URL of its page relative to the notebook's page, or ``None``. Returns the
    rewritten HTML and the links that name no page.
    """
    broken: list[str] = []

    def rewrite(match: re.Match) -> str:
        attribute, target, anchor = match[1], match[2], match[3] or ""
        if not target or target.startswith(("/", "data")):
            return match[0]
        path = posixpath.normpath(posixpath.join(posixpath.dirname(src_uri), target))
        path = path.removeprefix("docs/")  # the guide pages live in docs/, the site's root
        url = lookup(path)
        if url is None:
            broken.append(target + anchor)
            return match[0]
        return f'{attribute}="{url}{anchor}"'

    return _HREF.sub(rewrite, page_html), broken


def on_page_content(html_text: str, page, config, files) -> str:
    """Rewrite the relative links of notebook pages (see :func:`notebook_links`)."""
    if not page.file.src_uri.endswith(".ipynb"):
        return html_text

    def lookup(path: str) -> str | None:
        found = files.get_file_from_path(path)
        return None if found is None else found.url_relative_to(page.file)

    html_text, broken = notebook_links(html_text, page.file.src_uri, lookup)
    for target in broken:
        logger.warning("%s: the link %r names no page of the site", page.file.src_uri, target)
    return html_text


# --------------------------------------------------------------------------- rendering defects
_BLOCKS = re.compile(r"<(pre|script|style)\b.*?</\1>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")
_ENTRY = re.compile(
    r'<li class="doc-section-item field-body">\s*<b><code>(?:<(?:span|a)\b[^>]*>)?([^<]*)<',
    re.DOTALL,
)
#: a documented name: ``x``, ``*args``, or numpydoc's ``by, human, judge``
_NAME = re.compile(r"\*{0,2}[A-Za-z_]\w*(?:, \*{0,2}[A-Za-z_]\w*)*")
_TEXT_DEFECTS = (
    (re.compile(r"``[^`]*``"), "raw reST double backticks"),
    (re.compile(r":(?:py:)?(?:func|class|meth|attr|data|mod|obj|exc|const):`"), "a Sphinx role"),
    (re.compile(r"\]\[[\w.]*\]"), "an unresolved cross-reference"),
)


def defects(page_html: str) -> list[str]:
    """Docstring text that did not render on a built page, each with a few words around it.

    Code blocks (``<pre>``), scripts and styles are skipped: a formula or an example may hold
    any characters.
    """
    found = [
        f"documented entry {html.unescape(name).strip()!r} is not a name (prose read as an entry)"
        for name in _ENTRY.findall(page_html)
        if not _NAME.fullmatch(html.unescape(name).strip())
    ]
    text = html.unescape(_TAG.sub(" ", _BLOCKS.sub(" ", page_html)))
    for pattern, what in _TEXT_DEFECTS:
        for hit in pattern.finditer(text):
            around = " ".join(text[max(0, hit.start() - 40) : hit.end() + 40].split())
            found.append(f"{what}: ...{around}...")
    return found


_MATHJAX = re.compile(r"<script data-mkdocs-jupyter-mathjax=.*?</script>\n?", re.DOTALL)


@event_priority(-100)  # after mkdocs-jupyter has added its loader
def on_post_page(output: str, page, config) -> str:
    """Drop the MathJax loader; warn (failing a strict build) on every rendering defect.

    Notebook pages are not scanned for defects: their code cells are Python, where
    ``x[i][j]`` is no link.
    """
    output = _MATHJAX.sub("", output)
    if not page.file.src_uri.endswith(".md"):
        return output
    for defect in defects(output):
        logger.warning("%s: %s", page.file.src_uri, defect)
    return output
