"""Keep what a finished run drew when the page's next request overtakes it (a race in
Streamlit 1.67's AppSession).

A session's script runs on a ScriptRunner thread, and what a run draws reaches the
browser through the session's event loop (each delta, then "finished", is handed over
with call_soon_threadsafe). A run that ends with nothing queued stops its runner. A
request that the loop handles before that runner's last events (a timed fragment's tick:
every 0.5-2 s on a class's pages; or a press) finds the runner stopped, so AppSession
starts a new one, and from then on ignores every event of the old runner ("Ignoring
event from non-current ScriptRunner"): the run's deltas and its "finished" never reach
the browser. The press's callback ran on the server; the page never shows it (a title
gone, a slider not back after Pause, buttons left faded). On a loaded machine the loop
lags the script thread, and this happened several times a minute on a class's pages.

`keep_finished_runs()` makes such a request wait one turn of the loop (loop.call_soon):
the stopped runner's events were handed over before it stopped, so they go first and
reach the browser as usual; then the request starts its new runner. What it reads of
AppSession (its loop, its runner's request state, the method it wraps) goes through the
door, ui/server/streamlit_internals.py; docs/streamlit-internals.md has a minimal
reproduction of the race, for a report to Streamlit.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

from ui.server.streamlit_internals import (
    RequestRerun,
    session_event_loop,
    session_runner_stopped,
    wrap_request_rerun,
)


def request_in_turn(
    loop: asyncio.AbstractEventLoop | None, runner_stopped: bool, forward: Callable[[], None]
) -> None:
    """Pass a rerun request on (`forward()`), one turn of `loop` later when the session's
    runner has stopped, so the stopped runner's last events are handled first.

    >>> request_in_turn(None, True, lambda: print("run"))  # no loop known: at once
    run
    """
    if not (_on(loop) and runner_stopped):
        forward()
        return
    assert loop is not None  # _on says so
    # subtle: once only: the stopped runner handed over its events before it stopped
    loop.call_soon(forward)


def _on(loop: asyncio.AbstractEventLoop | None) -> bool:
    """Whether this thread runs `loop` now (call_soon is for the loop's own thread)."""
    try:
        return loop is not None and asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def in_turn(original: RequestRerun) -> RequestRerun:
    """AppSession.request_rerun, waiting behind a stopped runner's events."""

    def request_rerun(session: Any, client_state: Any) -> None:
        forward = functools.partial(original, session, client_state)
        request_in_turn(session_event_loop(session), session_runner_stopped(session), forward)

    return request_rerun


def keep_finished_runs() -> None:
    """Make AppSession.request_rerun wait behind a stopped runner's events (once per
    process; a Streamlit without these internals is left as it is)."""
    wrap_request_rerun(in_turn)
