"""A fresh server's first minute: once its first page is drawn, import what every page needs.

A page's modules (altair, pandas, its folder of ui/) are imported the first time any
session opens that page. In a class the first to open Compare or Vocabulary are thirty
students at once: they waited on the import lock while the imports shared the one
interpreter with all their scripts (py-spy: 16 % of the server's time in the room's first
seconds went to imports). So when a server's first run has finished, a thread imports
what the page files import; the first visitor's own page is not slowed by it. Off with
BPE_EXPLORER_PRELOAD=0, as the vocabularies' preload (tests turn both off).

    >>> "ui.compare.sections" in page_imports() and "ui.shell" in page_imports()
    True
"""

from __future__ import annotations

import ast
import importlib
import logging
import threading
from pathlib import Path

from ui.session.run_cache import preload_wanted

PAGES_DIR = Path(__file__).resolve().parents[2] / "pages"
log = logging.getLogger(__name__)
_starting = threading.Lock()
_started = False


def page_imports(pages_dir: Path = PAGES_DIR) -> list[str]:
    """The modules the page files import at their top level, each once, in file order."""
    names: list[str] = []
    for path in sorted(pages_dir.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.append(node.module)
            elif isinstance(node, ast.Import):
                names.extend(alias.name for alias in node.names)
    return list(dict.fromkeys(names))


def warm_up_once() -> None:
    """Import every page's modules in a thread, the first time this is called (the shell
    calls it after each run; only the first starts anything)."""
    global _started
    if _started or not preload_wanted():
        return
    with _starting:
        if _started:
            return
        _started = True
    threading.Thread(target=_import_pages, name="warm-up-imports", daemon=True).start()


def _import_pages() -> None:
    # subtle: by name, read from the page files: this layer never imports a page's folder
    # in code (the import contracts), it only has Python load what the pages will load
    for name in page_imports():
        try:
            importlib.import_module(name)
        except Exception:  # the page that needs it will say so, in its own section
            log.exception("warming up: %s could not be imported", name)
