"""The operator's hold on a running server's classes: a request to end one, left as a
line in `classes.end` beside the snapshot, which the server's store takes within a
second (ui/classroom/store.py), and which the command line writes
(`python -m ui.classroom.admin end CODE`).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> request_end(folder, "ABC23"); request_end(folder, "XYZ45")
    >>> sorted(take_end_requests(folder)), take_end_requests(folder)
    (['ABC23', 'XYZ45'], set())
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from ui.classroom import codes

END_FILE = "classes.end"


def request_end(folder: Path, code: str) -> None:
    """Ask the server that keeps its classes in `folder` to end the class `code`."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / END_FILE).open("a", encoding="ascii") as requests:
        requests.write(f"{code}\n")


def take_end_requests(folder: Path) -> set[str]:
    """The codes asked to end since the last look (the requests are taken: read once)."""
    path = folder / END_FILE
    if not path.exists():
        return set()
    # subtle: renamed first, so a request appended meanwhile lands in a new file, not lost
    taken = folder / f".{END_FILE}.{os.getpid()}-{threading.get_ident()}.tmp"
    try:
        os.replace(path, taken)
        text = taken.read_text(encoding="ascii", errors="replace")
    except OSError:
        return set()
    finally:
        with contextlib.suppress(OSError):
            taken.unlink(missing_ok=True)
    return {line for line in text.split() if codes.is_code(line)}
