"""The stack of `bash scripts/run.sh --processes N` (scripts/stack/), for tests and benches:
started in its own session as a terminal starts it, read from its `stack.json`, signalled
as Ctrl+C signals it, and the processes it leaves behind (none, it should be) found.

    with running_stack(Path("/tmp/s"), processes=3) as stack:
        print(stack.url, stack.app_ports(), stack.established(stack.app_ports()))
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from harness.app_server import free_port

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]
START_SECONDS = 240  # Redis, N Streamlit processes and nginx on two loaded cores
STOP_SECONDS = 30
ESTABLISHED = "01"  # a socket's state in /proc/net/tcp


@dataclass(frozen=True)
class Stack:
    """A running launcher (the leader of its own session), its port and its state folder."""

    process: subprocess.Popen[bytes]
    port: int
    state: Path
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def record(self) -> dict[str, Any]:
        """stack.json as the launcher wrote it last ({} before it has)."""
        try:
            loaded: dict[str, Any] = json.loads((self.state / "stack.json").read_text())
        except (OSError, ValueError):
            return {}
        return loaded

    def app_ports(self) -> list[int]:
        return [int(app["port"]) for app in self.record().get("apps", [])]

    def app_pid(self, port: int) -> int:
        """The Streamlit process on that port now."""
        return next(int(a["pid"]) for a in self.record()["apps"] if int(a["port"]) == port)

    def healthy(self, port: int | None = None) -> bool:
        """Whether /_stcore/health answers "ok" through the proxy (or on one process)."""
        return health_ok(port or self.port)

    def established(self, ports: list[int]) -> dict[int, int]:
        """Per listening port, the connections open to it now (each proxied websocket is
        one): which process holds how many pages."""
        counts = dict.fromkeys(ports, 0)
        for table in (Path("/proc/net/tcp"), Path("/proc/net/tcp6")):
            for line in table.read_text().splitlines()[1:] if table.exists() else []:
                fields = line.split()
                port = int(fields[1].rsplit(":", 1)[1], 16)
                if port in counts and fields[3] == ESTABLISHED:
                    counts[port] += 1
        return counts

    def family(self) -> set[int]:
        """The launcher and every process under it now (its children's helpers included)."""
        return descendants(self.process.pid) | {self.process.pid}

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-chars:]


def health_ok(port: int) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=5) as r:
            return bool(r.status == 200 and r.read().strip() == b"ok")
    except OSError:
        return False


def children_of() -> dict[int, list[int]]:
    """Every process's children, from /proc (parent pid -> child pids)."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        tree.setdefault(int(stat[1]), []).append(int(entry.name))
    return tree


def descendants(pid: int) -> set[int]:
    tree, found, todo = children_of(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of `pids` still running (a zombie, ended but not yet reaped, is not)."""
    running = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            running.add(pid)
    return running


def start_stack(
    state: Path, processes: int, env: dict[str, str] | None = None, *, run_sh: bool = False
) -> Stack:
    """The stack on a free port, in its own session (as a terminal's foreground job), back
    when the app answers through the proxy; RuntimeError with its log if it never does.
    `run_sh`: by `bash scripts/run.sh --processes N` (its .venv) instead of this Python."""
    port = free_port()
    options = ["--processes", str(processes), "--port", str(port), "--state", str(state)]
    if run_sh:
        command = ["bash", str(ROOT / "scripts" / "run.sh"), *options]
    else:
        command = [sys.executable, "-m", "scripts.stack", *options]
    state.mkdir(parents=True, exist_ok=True)
    log = state / "launcher.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    stack = Stack(process, port, state, log)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        if stack.record() and stack.healthy():
            return stack
        time.sleep(0.5)
    stop_stack(stack)
    raise RuntimeError(f"the stack did not start (exit {process.returncode}):\n{stack.log_tail()}")


def interrupt(stack: Stack) -> None:
    """Ctrl+C as a terminal sends it: SIGINT to the launcher's whole process group."""
    with suppress(ProcessLookupError):
        os.killpg(stack.process.pid, signal.SIGINT)


def stop_stack(stack: Stack) -> None:
    """Ctrl+C, wait; SIGKILL to whatever of the family is left after STOP_SECONDS."""
    family = stack.family()
    interrupt(stack)
    with suppress(subprocess.TimeoutExpired):
        stack.process.wait(timeout=STOP_SECONDS)
    for pid in alive(family | stack.family()):
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    if stack.process.poll() is None:
        stack.process.wait(timeout=STOP_SECONDS)


@contextmanager
def running_stack(
    state: Path, processes: int, env: dict[str, str] | None = None, *, run_sh: bool = False
) -> Iterator[Stack]:
    stack = start_stack(state, processes, env, run_sh=run_sh)
    try:
        yield stack
    finally:
        stop_stack(stack)


async def landing_port(stack: Stack, cookie_value: str) -> int | None:
    """The process a browser holding `bpe_process=cookie_value` lands on now: a session
    opened through the proxy with that cookie, and the one process with a page open then
    (None when another page was open meanwhile)."""
    from harness.ws_client import StreamlitClient, connected  # websockets: for who asks

    ports = stack.app_ports()
    cookie = f"bpe_process={cookie_value}"
    async with connected(stack.port, StreamlitClient, cookie=cookie) as client:
        await client.rerun()
        held = [port for port, count in stack.established(ports).items() if count]
    return held[0] if len(held) == 1 else None


def cookies_for_each_process(stack: Stack, tries: int = 40) -> dict[int, str]:
    """A `bpe_process` cookie value per process (port -> value), found by trying values
    one by one while no other page is open (at most `tries`). Each try's event loop runs
    in a thread of its own: a caller's thread may have one running (Playwright's)."""
    found: dict[int, str] = {}
    for index in range(tries):
        value = f"browser-{index}"
        port = in_own_loop(landing_port(stack, value))
        if port is not None:
            found.setdefault(port, value)
        if len(found) == len(stack.app_ports()):
            break
    return found


def in_own_loop(work: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(work)` in a thread of its own: the caller's thread may have an event
    loop running already (Playwright's sync API keeps one in a pytest worker that ran a
    browser test), where asyncio.run refuses.

    >>> import asyncio
    >>> in_own_loop(asyncio.sleep(0, result=7))
    7
    """
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()
