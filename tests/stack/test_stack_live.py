"""The stack as `bash scripts/run.sh --processes N` starts it, with real processes on
127.0.0.1: the app answers through nginx, its websocket is upgraded, a browser stays on
one process, a process killed with `kill -9` hands its browsers to a live one (and is
started again), and Ctrl+C leaves no process behind. Every wait is bounded."""

from __future__ import annotations

import os
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.stack import (
    Stack,
    alive,
    in_own_loop,
    interrupt,
    running_stack,
    start_stack,
    stop_stack,
)
from harness.ws_client import connected
from tests.stack.conftest import require_stack_programs

ROOT = Path(__file__).resolve().parents[2]
# no GPT vocabularies loaded in each process; the stack's own Redis, whatever this
# environment names (an empty BPE_EXPLORER_REDIS_URL is none)
QUIET = {"BPE_EXPLORER_PRELOAD": "0", "BPE_EXPLORER_REDIS_URL": ""}
WAIT_SECONDS = 60


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Two processes, started from the command itself (scripts/run.sh, its .venv)."""
    require_stack_programs()
    if not (ROOT / ".venv" / "bin" / "python").exists():
        pytest.skip("scripts/run.sh needs the project's .venv (bash scripts/test.sh makes it)")
    folder = tmp_path_factory.mktemp("stack")
    env = {**QUIET, "BPE_EXPLORER_RUNS_DIR": str(folder / "runs")}
    with running_stack(folder / "state", 2, env, run_sh=True) as running:
        yield running


async def page_on(stack: Stack, cookie: str) -> int:
    """Open the app's page as a browser holding `cookie`; the process port it landed on."""
    ports = stack.app_ports()
    async with connected(stack.port, cookie=cookie) as client:
        run = await client.rerun()
        assert run.texts, "the page drew nothing through the proxy"
        counts = stack.established(ports)
    landed = [port for port, count in counts.items() if count]
    assert len(landed) == 1, counts
    return landed[0]


def test_the_app_answers_through_the_proxy_and_sets_its_process_cookie(stack: Stack) -> None:
    assert stack.healthy()
    with urllib.request.urlopen(stack.url, timeout=30) as answer:
        assert answer.status == 200
        assert "bpe_process=" in answer.headers.get("Set-Cookie", "")
        assert b"<title>" in answer.read()
    assert len(stack.app_ports()) == 2 and all(stack.healthy(p) for p in stack.app_ports())


def body_of(url: str) -> bytes:
    """What the proxy answers, an error's page included."""
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return bytes(answer.read())
    except urllib.error.HTTPError as error:
        return bytes(error.read())


def test_the_proxy_forwards_only_the_app(stack: Stack) -> None:
    for path in ("nginx.conf", "../nginx.conf", "error.log", "nginx.pid"):
        body = body_of(stack.url + path)
        assert b"upstream" not in body and b"worker_processes" not in body
    with urllib.request.urlopen(stack.url, timeout=30) as answer:
        assert answer.headers.get("Server") == "nginx"  # no version said


def test_a_websocket_upgrades_through_the_proxy_and_keeps_its_process(stack: Stack) -> None:
    first = in_own_loop(page_on(stack, "bpe_process=one-browser"))
    for _ in range(2):
        assert in_own_loop(page_on(stack, "bpe_process=one-browser")) == first
    others = {in_own_loop(page_on(stack, f"bpe_process=browser-{k}")) for k in range(8)}
    assert others == set(stack.app_ports()), "eight browsers, all on one process"


def test_a_killed_process_hands_its_browsers_to_a_live_one(stack: Stack) -> None:
    cookie = "bpe_process=killed-browser"
    home = in_own_loop(page_on(stack, cookie))
    old_pid = stack.app_pid(home)
    os.kill(old_pid, signal.SIGKILL)
    moved = in_own_loop(page_on(stack, cookie))  # the browser's reconnect
    assert moved != home
    assert stack.healthy()
    deadline = time.monotonic() + WAIT_SECONDS  # the launcher starts it again
    while time.monotonic() < deadline and not (
        stack.app_pid(home) != old_pid and stack.healthy(home)
    ):
        time.sleep(0.5)
    assert stack.app_pid(home) != old_pid and stack.healthy(home), stack.log_tail()


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "launcher killed"])
def test_stopping_leaves_no_process_behind(tmp_path: Path, how: str) -> None:
    require_stack_programs()
    env = {**QUIET, "BPE_EXPLORER_RUNS_DIR": str(tmp_path / "runs")}
    stack = start_stack(tmp_path / "state", 1, env)
    try:
        family = stack.family()
        assert len(family) >= 4  # launcher, redis, a Streamlit process, nginx and its worker
        if how == "ctrl-c":
            interrupt(stack)
        elif how == "sigterm":
            stack.process.send_signal(signal.SIGTERM)
        else:
            stack.process.kill()
        code = stack.process.wait(timeout=WAIT_SECONDS)
        deadline = time.monotonic() + WAIT_SECONDS
        while alive(family) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not alive(family), f"left running: {sorted(alive(family))}\n{stack.log_tail()}"
        if how != "launcher killed":
            assert code == 0 and "Stopped every process" in stack.log_tail()
            assert not (stack.state / "stack.json").exists()
    finally:
        stop_stack(stack)
