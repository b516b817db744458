"""Named blocks of a Markdown file that one script writes and another keeps; the commit measured.

bench/engine/benchmark.py rewrites BENCHMARKS.md whole; bench/load/load_test.py owns one block of
it. A block runs from `<!-- name -->` to `<!-- /name -->` (HTML comments: invisible on GitHub):

    >>> doc = replace_block("# Title\\n", "room", "figures")
    >>> block(doc, "room")
    '<!-- room -->\\nfigures\\n<!-- /room -->'
    >>> block(replace_block(doc, "room", "new"), "room").splitlines()[1]
    'new'
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _marks(name: str) -> tuple[str, str]:
    return f"<!-- {name} -->", f"<!-- /{name} -->"


def block(document: str, name: str) -> str | None:
    """The block called `name`, its marks included, or None when the document has none."""
    begin, end = _marks(name)
    start = document.find(begin)
    stop = document.find(end, start)
    if start < 0 or stop < 0:
        return None
    return document[start : stop + len(end)]


def replace_block(document: str, name: str, body: str) -> str:
    """The document with block `name` holding `body` (appended at the end if it is new)."""
    begin, end = _marks(name)
    new = f"{begin}\n{body.strip(chr(10))}\n{end}"
    old = block(document, name)
    if old is None:
        return f"{document.rstrip(chr(10))}\n\n{new}\n"
    return document.replace(old, new, 1)


# The blocks of BENCHMARKS.md that bench/engine/benchmark.py keeps when it rewrites the file.
ROOM_OF_THIRTY = "a-room-of-thirty"  # bench/load/load_test.py
NO_CUT_TEXT = "text-without-letters"  # bench/engine/no_cut_text.py, by hand
PERFORMANCE_NOTES = "performance-notes"  # what unmet targets need, by hand
HEAVY_NEIGHBOUR = "heavy-neighbour"  # bench/load/heavy_neighbour.py, by hand
LONG_RUNS = "long-runs"  # bench/engine/long_runs.py, through bench/engine/benchmark.py
KEPT_IN_BENCHMARKS = (PERFORMANCE_NOTES, NO_CUT_TEXT, ROOM_OF_THIRTY, HEAVY_NEIGHBOUR, LONG_RUNS)


def commit() -> str:
    """The checked-out commit, with "+changes" when the tree differs from it."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")
