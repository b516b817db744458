"""The engine stands alone: importing it pulls in no UI or data-frame library."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_import_explorer_leaves_ui_libraries_unimported() -> None:
    code = (  # every module of the engine, so a new one is covered without a list to update
        "import importlib, pkgutil, sys, explorer\n"
        "for module in pkgutil.walk_packages(explorer.__path__, 'explorer.'):\n"
        "    importlib.import_module(module.name)\n"
        "loaded = [m for m in ('streamlit', 'pandas', 'altair', 'numpy') if m in sys.modules]\n"
        "print(','.join(loaded))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
