"""A rerun request that meets a stopped ScriptRunner waits behind that runner's events
(ui/server/run_events.py), so what the finished run drew still reaches the browser."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequests, ScriptRequestType

from ui.server.run_events import keep_finished_runs, request_in_turn, runner_stopped


@dataclass
class Runner:
    _requests: ScriptRequests = field(default_factory=ScriptRequests)


@dataclass
class Session:
    _scriptrunner: Runner | None
    _event_loop: asyncio.AbstractEventLoop | None = None


def order_of(runner: Runner | None) -> list[str]:
    """What the loop handles first: the old runner's last event, scheduled before the
    request arrives (as its thread hands it over), or the request."""
    loop = asyncio.new_event_loop()
    handled: list[str] = []
    session = Session(runner, loop)

    def arrive() -> None:
        request_in_turn(session, "client state", lambda _s, _c: handled.append("request"))

    loop.call_soon(arrive)
    loop.call_soon(handled.append, "old runner's finish")
    # subtle: in a thread of its own, as the server's loop is: a browser test run before
    # this one on the same worker leaves Playwright's loop running in this thread
    turns = threading.Thread(target=loop.run_until_complete, args=(asyncio.sleep(0.05),))
    turns.start()
    turns.join(timeout=10)
    loop.close()
    return handled


def stopped_runner() -> Runner:
    runner = Runner()
    assert runner._requests.on_scriptrunner_ready().type is ScriptRequestType.STOP
    return runner


def test_a_request_to_a_stopped_runner_waits_for_its_events() -> None:
    assert runner_stopped(stopped_runner())
    assert order_of(stopped_runner()) == ["old runner's finish", "request"]


def test_a_request_to_a_running_runner_or_none_goes_at_once() -> None:
    running = Runner()
    assert not runner_stopped(running)
    assert order_of(running) == ["request", "old runner's finish"]
    assert order_of(None) == ["request", "old runner's finish"]


def test_off_the_loop_a_request_goes_at_once() -> None:
    handled: list[Any] = []
    session = Session(stopped_runner(), asyncio.new_event_loop())  # not running here
    request_in_turn(session, "state", lambda s, c: handled.append(c))
    assert handled == ["state"]


def test_installed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def plain(self: Any, client_state: Any) -> None:  # Streamlit's own, as before the app ran
        return None

    monkeypatch.setattr(AppSession, "request_rerun", plain)  # put back after the test
    keep_finished_runs()
    wrapped = AppSession.request_rerun
    keep_finished_runs()
    assert AppSession.request_rerun is wrapped is not plain
    assert wrapped.__wrapped__ is plain  # type: ignore[attr-defined]
