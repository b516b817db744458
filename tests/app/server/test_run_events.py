"""A rerun request that meets a stopped ScriptRunner waits behind that runner's events
(ui/server/run_events.py), so what the finished run drew still reaches the browser.
What it reads of Streamlit's AppSession is canaried in test_streamlit_internals.py."""

from __future__ import annotations

import asyncio
import threading

import pytest

from ui.server import run_events


def order_of(stopped: bool, *, with_loop: bool = True) -> list[str]:
    """What the loop handles first: the old runner's last event, scheduled before the
    request arrives (as its thread hands it over), or the request."""
    loop = asyncio.new_event_loop()
    handled: list[str] = []

    def arrive() -> None:
        known = loop if with_loop else None
        run_events.request_in_turn(known, stopped, lambda: handled.append("request"))

    loop.call_soon(arrive)
    loop.call_soon(handled.append, "old runner's finish")
    # subtle: in a thread of its own, as the server's loop is: a browser test run before
    # this one on the same worker leaves Playwright's loop running in this thread
    turns = threading.Thread(target=loop.run_until_complete, args=(asyncio.sleep(0.05),))
    turns.start()
    turns.join(timeout=10)
    loop.close()
    return handled


def test_a_request_to_a_stopped_runner_waits_for_its_events() -> None:
    assert order_of(stopped=True) == ["old runner's finish", "request"]


def test_a_request_to_a_running_runner_or_an_unknown_loop_goes_at_once() -> None:
    assert order_of(stopped=False) == ["request", "old runner's finish"]
    assert order_of(stopped=True, with_loop=False) == ["request", "old runner's finish"]


def test_off_the_loop_a_request_goes_at_once() -> None:
    handled: list[str] = []
    loop = asyncio.new_event_loop()  # not running here
    run_events.request_in_turn(loop, True, lambda: handled.append("state"))
    loop.close()
    assert handled == ["state"]


def test_the_wrapper_reads_the_session_through_the_door(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's loop and its runner's state are asked of the door, and the original
    request_rerun gets the session and its client state."""
    seen: list[tuple[object, object]] = []
    monkeypatch.setattr(run_events, "session_event_loop", lambda session: None)
    monkeypatch.setattr(run_events, "session_runner_stopped", lambda session: True)
    request_rerun = run_events.in_turn(lambda session, state: seen.append((session, state)))
    request_rerun("session", "client state")
    assert seen == [("session", "client state")]


def test_installed_through_the_door(monkeypatch: pytest.MonkeyPatch) -> None:
    installed: list[object] = []
    monkeypatch.setattr(run_events, "wrap_request_rerun", installed.append)
    run_events.keep_finished_runs()
    assert installed == [run_events.in_turn]
