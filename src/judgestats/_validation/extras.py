"""Optional dependencies: import one, or say which extra of judgestats installs it."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["EXTRAS", "require_extra"]

#: The extra of judgestats (``pyproject.toml``) that installs each optional top-level module.
EXTRAS = {
    "pandas": "frames",
    "pyarrow": "frames",
    "narwhals": "frames",
    "xarray": "xarray",
    "matplotlib": "plot",
    "pymc": "bayes",
    "arviz": "bayes",
    "inspect_ai": "inspect",
}


def require_extra(module: str, what: str) -> ModuleType:
    """Import ``module`` (``"xarray"``, ``"matplotlib.pyplot"``), or name the extra to install.

    Raises :class:`ModuleNotFoundError` (an ``ImportError``) whose message names ``what``
    needs the module and the ``pip install "judgestats[EXTRA]"`` that installs it, instead of
    the bare ``No module named 'xarray'``.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = (exc.name or module).split(".")[0]
        extra = EXTRAS.get(top)
        if extra is None:  # a dependency of the module, not the module itself
            raise
        raise ModuleNotFoundError(
            f'{what} needs {top}, which is not installed: pip install "judgestats[{extra}]"',
            name=top,
        ) from exc
