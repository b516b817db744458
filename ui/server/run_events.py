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
reach the browser as usual; then the request starts its new runner.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

_MARK = "_keeps_finished_runs"


def runner_stopped(runner: object) -> bool:
    """Whether a ScriptRunner takes no more requests (its run is over, its thread ending).

    >>> class Runner:  # no request state of Streamlit's: never counted as stopped
    ...     pass
    >>> runner_stopped(Runner()), runner_stopped(None)
    (False, False)
    """
    from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType

    requests = getattr(runner, "_requests", None)
    return getattr(requests, "_state", None) is ScriptRequestType.STOP


def request_in_turn(session: Any, client_state: Any, forward: Callable[[Any, Any], None]) -> None:
    """Pass a rerun request on (`forward`), one turn of the loop later when the session's
    runner has stopped, so the stopped runner's last events are handled first.

    >>> class Session:
    ...     _scriptrunner = None  # no runner: passed on at once
    >>> request_in_turn(Session(), "state", lambda session, state: print("run", state))
    run state
    """
    loop = getattr(session, "_event_loop", None)
    if not (_on(loop) and runner_stopped(getattr(session, "_scriptrunner", None))):
        forward(session, client_state)
        return
    # subtle: once only: the stopped runner handed over its events before it stopped
    loop.call_soon(forward, session, client_state)


def _on(loop: object) -> bool:
    """Whether this thread runs `loop` now (call_soon is for the loop's own thread)."""
    try:
        return loop is not None and asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def keep_finished_runs() -> None:
    """Make AppSession.request_rerun wait behind a stopped runner's events (once per
    process; a Streamlit without these internals is left as it is)."""
    from streamlit.runtime.app_session import AppSession

    original = getattr(AppSession, "request_rerun", None)
    if original is None or getattr(original, _MARK, False):
        return

    @functools.wraps(original)
    def request_rerun(self: Any, client_state: Any) -> None:
        request_in_turn(self, client_state, original)

    setattr(request_rerun, _MARK, True)
    AppSession.request_rerun = request_rerun  # type: ignore[method-assign]
