"""Training progress for a progress bar: throttled, and shown in the caller's context."""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable

from ui.server.heavy_work import WAITING
from ui.views.formatting import plural


def progress_reporter(
    show: Callable[[float, str], object], *, per_second: float = 20.0
) -> Callable[[str, int, int], None]:
    """A training progress callback that calls show(fraction, text) at most per_second times.

    The last merge is always shown, so the bar ends full.
    """
    last = [0.0]
    # subtle: training runs inside a cached function, and Streamlit records every element
    # call made there to replay it on a cache hit, where a bar made outside the function
    # no longer exists (CacheReplayClosureError). Showing progress in the caller's context
    # keeps these updates out of the recording.
    caller = contextvars.copy_context()

    def report(phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < 1 / per_second and (done < total or phase == WAITING):
            return
        last[0] = now
        fraction = min(1.0, done / total) if total else float(phase != WAITING)
        if phase == WAITING:  # done is the number of jobs ahead in the server's queue
            text = f"Waiting for the server: {plural(done, 'job')} ahead of this one…"
        elif phase == "merging":
            text = f"Merging: {done:,} of {plural(total, 'merge')}"
        else:
            text = f"Counting chunks: {done:,} of {total:,} bytes"
        caller.run(show, fraction, text)

    return report
