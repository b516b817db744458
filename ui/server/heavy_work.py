"""Heavy work in a child Python, for every session: trainings above a size, large files.

One interpreter renders every visitor's pages; a training of megabytes or the import of
a 20 MB vocabulary held it for minutes and everyone's pages waited (issue 21). Work above
the sizes below goes to `ui.server.child_jobs` (one runner for the whole server: its
slots and wait queue are shared by all sessions); small work stays here, where it is
quicker than starting a child (measured in BENCHMARKS.md, "One visitor's heavy work").

The child ends when the session no longer wants it: a rerun (the Train page's Cancel
button) or a closed browser raises Streamlit's stop signal at the next poll, and a
session the runtime no longer knows is given up after GONE_GRACE_S. Streamlit has no
public API for either check: both go through ui/server/streamlit_internals.py.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from explorer.encoding.pretokenize import PRESETS, preset_name
from explorer.encoding.regex_budget import current_budget, within_budget
from explorer.training.learner import ProgressCallback
from ui.server.child_jobs import JobRunner, runner_from_env
from ui.server.clients import current_client
from ui.server.streamlit_internals import run_session_id, run_yield_check, session_connected

T = TypeVar("T")

# Measured on the 2-core server (bench/load/heavy_neighbour.py): a child costs 0.1-0.35 s to
# start and return; Shakespeare (100 KB) trains to 2,000 in 0.07-0.11 s here, the UDHR
# sample (141 KB) to 10,000 in 0.25 s, so smaller trainings stay in this process.
TRAIN_HERE_MAX_BYTES = 256 * 1024
TRAIN_HERE_MAX_VOCAB = 4096
# A .tiktoken of 64 KB is read in 0.09 s, one of 676 KB in 0.97 s (the 20 MB one in 133 s)
READ_HERE_MAX_BYTES = 128 * 1024
WAITING = "waiting"  # the progress phase while the job waits for a slot: done = jobs ahead
GONE_GRACE_S = 2.0  # a session missing this long (not a reconnect) has closed its browser

_runner: JobRunner | None = None
_making = threading.Lock()


def runner() -> JobRunner:
    """The server's one runner (slots and queue from the environment, see child_jobs)."""
    global _runner
    with _making:
        if _runner is None:
            _runner = runner_from_env()
        return _runner


def trains_here(texts: Sequence[str], vocab_size: int, pattern: str = "none") -> bool:
    """Whether a training is small enough to do in this process: a preset pattern (or
    word counts), at most TRAIN_HERE_MAX_BYTES of text and TRAIN_HERE_MAX_VOCAB.

    >>> trains_here(["aaabdaaabac"], 259), trains_here(["x" * 300_000], 500)
    (True, False)
    >>> trains_here(["aaabdaaabac"], 259, pattern="(?:a{100}){100}")
    False
    """
    # subtle: a regex of the visitor's own can cost seconds or gigabytes to compile and
    # run; in a child, its memory is capped and freed, and Cancel or leaving ends it
    if vocab_size > TRAIN_HERE_MAX_VOCAB or not is_preset(pattern):
        return False
    size = 0
    for text in texts:
        size += len(text)  # characters: at most the bytes, and no copy to count them
        if size > TRAIN_HERE_MAX_BYTES:
            return False
    return True


def is_preset(pattern: str) -> bool:
    """Whether a run's pattern is a preset, by name or by its regex.

    >>> is_preset("gpt4"), is_preset(PRESETS["gpt2"]), is_preset("a+")
    (True, True, False)
    """
    return pattern in PRESETS or preset_name(pattern) is not None


def reads_here(*texts: str | bytes) -> bool:
    """Whether files this small are parsed in this process.

    >>> reads_here("[]", b"x"), reads_here("x" * 200_000)
    (True, False)
    """
    return sum(len(text) for text in texts) <= READ_HERE_MAX_BYTES


def in_a_child(
    function: Callable[..., T],
    *args: Any,
    progress: ProgressCallback | None = None,
    **kwargs: Any,
) -> T:
    """function(*args, **kwargs) done by a child Python, for as long as the session wants it.

    With `progress`, the function is given one, and `progress` also hears
    (WAITING, jobs ahead, 0) while the job waits for a slot. Raises ServerBusy (a
    ValueError) when the queue is full, or when this session or address holds places
    others need (ui/server/job_queue.py); JobCancelled when the session has gone; Streamlit's
    own stop or rerun signal when the session stops or reruns (the child is ended first).
    """
    waiting = None if progress is None else (lambda ahead: progress(WAITING, ahead, 0))
    page = current_budget()  # the child keeps what the page view has left of its regex time
    seconds = None if page is None else page.remaining()
    purpose = "" if page is None else page.limiting().purpose
    result: T = runner().run(
        within_budget,
        seconds,
        purpose,
        function,
        *args,
        progress=progress,
        still_wanted=session_still_wanted(),
        waiting=waiting,
        client=current_client(),  # the queue's fair share is per session and address
        **kwargs,
    )
    return result


def parse_sized(function: Callable[..., T], *texts: str, **kwargs: Any) -> T:
    """function(*texts, **kwargs): here when the texts are small (`reads_here`), else in a
    child Python, as `in_a_child` does it.

    >>> parse_sized(len, "small")
    5
    """
    if reads_here(*texts):
        return function(*texts, **kwargs)
    return in_a_child(function, *texts, **kwargs)


def session_still_wanted() -> Callable[[], bool] | None:
    """A check for the polling loop: raises Streamlit's stop/rerun signal when this script
    run should end (Cancel clicked, browser closed), and says False once the runtime has
    not known the session for GONE_GRACE_S. None outside a script run (nothing to ask)."""
    session_id = run_session_id()
    if session_id is None:
        return None
    # subtle: the stop/rerun request is only acted on at a yield point; a cached function
    # sends no element while it waits on a child, so the loop asks for it itself
    yield_check = run_yield_check()
    gone_since: list[float | None] = [None]

    def still_wanted() -> bool:
        if yield_check is not None:
            yield_check()
        if session_known(session_id):
            gone_since[0] = None
            return True
        now = time.monotonic()
        since = gone_since[0]
        if since is None:
            since = gone_since[0] = now
        return now - since < GONE_GRACE_S

    return still_wanted


def session_known(session_id: str) -> bool:
    """Whether the server's runtime still has this session connected (True without a
    runtime, as under AppTest, or when Streamlit cannot say)."""
    return session_connected(session_id)
