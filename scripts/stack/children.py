"""The stack's child processes: started so that they end with the launcher, stopped in
turn, each one's output in its own log.

Each child stays in the launcher's process group, so Ctrl+C in the terminal reaches every
one of them at once, as it reaches a single `streamlit run`; the launcher then stops the
ones still running (SIGTERM, then SIGKILL after STOP_SECONDS). If the launcher itself is
killed (`kill -9`), Linux ends each child too (PR_SET_PDEATHSIG): no process is left behind.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
STOP_SECONDS = 10.0  # a child's time to stop on SIGTERM before it is killed


@dataclass
class Child:
    """One process of the stack: what it is, how it was started, where it writes."""

    name: str
    command: list[str]
    log: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


def _end_with_launcher() -> None:  # subtle: runs in the child between fork and exec
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)


def start(child: Child, cwd: Path) -> Child:
    """Start the child, its output appended to its log (a restart adds to the same log)."""
    child.log.parent.mkdir(parents=True, exist_ok=True)
    with child.log.open("ab") as sink:  # the child keeps its own copy of the descriptor
        child.process = subprocess.Popen(
            child.command,
            cwd=cwd,
            env=child.env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            preexec_fn=_end_with_launcher,  # one thread here: safe before exec
        )
    return child


def wait_until(ready: Callable[[], bool], children: list[Child], seconds: float) -> bool:
    """Poll `ready` (every 0.3 s, for at most `seconds`) while every child runs: whether
    it came true."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return True
        if not all(child.running() for child in children):
            return False
        time.sleep(0.3)
    return False


def stop_all(children: list[Child]) -> None:
    """SIGTERM to every child still running, then wait for each; SIGKILL to a child still
    there after STOP_SECONDS."""
    for child in children:
        if child.running() and child.process is not None:
            child.process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for child in children:
        if child.process is None:
            continue
        try:
            child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait(timeout=STOP_SECONDS)


def tail(path: Path, chars: int = 2000) -> str:
    """The end of a log, for the sentence that says why the stack did not start."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-chars:]
    except OSError:
        return ""


def environment(**added: str) -> dict[str, str]:
    """This process's environment with `added` on top."""
    return {**os.environ, **added}
