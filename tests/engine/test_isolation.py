"""The engine stands alone: importing it pulls in no UI or data-frame library."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_import_explorer_leaves_ui_libraries_unimported() -> None:
    code = (
        "import sys, explorer, explorer.cli, explorer.files.formats, explorer.analysis.lineage, "
        "explorer.html.render, explorer.analysis.stats, explorer.files.bundled, "
        "explorer.files.imports, explorer.files.exports, "
        "explorer.files.loading, explorer.files.file_kinds, explorer.base.byte_map\n"
        "loaded = [m for m in ('streamlit', 'pandas', 'altair', 'numpy') if m in sys.modules]\n"
        "print(','.join(loaded))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
