"""The app on a free loopback port, and Debian's chromium, for whatever drives a browser.

The browser tests (tests/browser/conftest.py), the screenshots (scripts/screenshots/pages.py)
and the app timings (bench/browser/app_timing.py) all start `streamlit run streamlit_app.py`
this way and stop it afterwards:

    with running_server(Path("/tmp/server.log")) as server:
        print(server.url, server.healthy())
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")  # Playwright's own download does not work here
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
]
STARTUP_SECONDS = 60
ColorScheme = Literal["light", "dark"]  # the system setting a page reports (playwright's)


@dataclass(frozen=True)
class Server:
    """A running `streamlit run streamlit_app.py`, its address and its log."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def healthy(self, timeout: float = 5) -> bool:
        """Whether /_stcore/health answers "ok" now."""
        try:
            with urllib.request.urlopen(f"{self.url}_stcore/health", timeout=timeout) as answer:
                status: int = answer.status  # an HTTPResponse (urlopen is typed as Any)
                body: bytes = answer.read()
                return status == 200 and body.strip() == b"ok"
        except OSError:
            return False

    def peak_rss_bytes(self) -> int:
        """The server's peak resident memory (VmHWM in /proc/<pid>/status)."""
        return proc_status_kib(self.process.pid, "VmHWM") * 1024

    def cpu_seconds(self) -> float:
        """The CPU time the server process has used so far (user + system, from /proc)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        user, system = int(fields[11]), int(fields[12])  # utime and stime, in clock ticks
        return (user + system) / os.sysconf("SC_CLK_TCK")

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-chars:]


def proc_status_kib(pid: int, field: str) -> int:
    """A `kB` field of /proc/<pid>/status: `proc_status_kib(pid, "VmRSS")`."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name == field:
            return int(value.split()[0])
    raise ValueError(f"/proc/{pid}/status has no {field} line; is this Linux?")


def free_port() -> int:
    """A loopback port nobody listens on now (the kernel picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]  # an AF_INET address: (host, port)
        return port


def start_server(
    log: Path, env: dict[str, str] | None = None, *, run_sh: bool = False, port: int | None = None
) -> Server:
    """Start the app on a free port and wait for /_stcore/health; if it never answers,
    RuntimeError with the server's log. `env` adds to (or overrides) the environment.

    `run_sh`: start it as scripts/run.sh does (its .venv, its environment) instead of
    `python -m streamlit run streamlit_app.py` with this Python, as hosting platforms do.
    `port`: this one instead of a free one (a restart where open pages reconnect).
    """
    port = port or free_port()
    if run_sh:  # run.sh ends in `exec`: the process is the server's, to time and to stop
        command = ["bash", str(ROOT / "scripts" / "run.sh")]
    else:
        command = [sys.executable, "-m", "streamlit", "run", "streamlit_app.py"]
    command += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    command += ["--server.headless", "true", "--browser.gatherUsageStats", "false"]
    # the code as it was at start: a source file saved mid-run (an editor, a checkout)
    # would otherwise make Streamlit reload modules under the running sessions
    command += ["--server.fileWatcherType", "none"]
    with log.open("wb") as sink:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    server = Server(process, port, log)
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        if server.healthy(timeout=2):
            return server
        time.sleep(0.3)
    stop_server(server)
    raise RuntimeError(
        f"the Streamlit server did not answer /_stcore/health within {STARTUP_SECONDS} s "
        f"(exit code {process.returncode}); its log:\n{server.log_tail()}"
    )


def stop_server(server: Server) -> None:
    """Terminate, wait, and kill if it will not stop."""
    if server.process.poll() is not None:
        return
    server.process.terminate()
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait(timeout=10)


@contextmanager
def running_server(
    log: Path, env: dict[str, str] | None = None, *, run_sh: bool = False
) -> Iterator[Server]:
    server = start_server(log, env, run_sh=run_sh)
    try:
        yield server
    finally:
        stop_server(server)


# --- when a page has settled ---------------------------------------------------------------

BUSY = '[data-testid="stStatusWidget"], [data-stale="true"]'  # signs that a script runs


class IdleWatch:
    """Decides when a Streamlit page has settled, from repeated looks at its busy signs.

    While a script runs, elements it has not redrawn yet are marked stale, and after
    500 ms Streamlit shows its status widget; a rerun may start a moment after the click
    that asked for it, hence a quiet period rather than one look. Each caller polls:

        watch = IdleWatch(quiet_seconds=1.0, timeout_seconds=60)
        while not watch.settled(busy=page.locator(BUSY).count() > 0):
            page.wait_for_timeout(100)
    """

    def __init__(self, *, quiet_seconds: float, timeout_seconds: float) -> None:
        self.quiet_seconds = quiet_seconds
        self.timeout_seconds = timeout_seconds
        self._deadline = time.monotonic() + timeout_seconds
        self._quiet_since: float | None = None

    def settled(self, *, busy: bool) -> bool:
        """Whether nothing has been busy for quiet_seconds; TimeoutError past the timeout."""
        now = time.monotonic()
        if now > self._deadline:
            raise TimeoutError(
                f"Streamlit was still running a script after {self.timeout_seconds:.0f} s"
            )
        if busy:
            self._quiet_since = None
        elif self._quiet_since is None:
            self._quiet_since = now
        return self._quiet_since is not None and now - self._quiet_since >= self.quiet_seconds


@contextmanager
def app_in_chromium(
    width: int,
    height: int,
    env: dict[str, str] | None = None,
    *,
    color_scheme: ColorScheme = "light",
) -> Iterator[Any]:
    """A fresh server and a headless Chromium page of that size, for the scripts that take
    pictures or times: `with app_in_chromium(1440, 900) as (server, page): ...`

    color_scheme ("light" or "dark") is the system setting the page reports
    (prefers-color-scheme), which the app's theme follows."""
    import tempfile

    from playwright.sync_api import sync_playwright  # the tests' and scripts' need, not the app's

    with (
        tempfile.TemporaryDirectory() as folder,
        running_server(Path(folder) / "server.log", env) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(
                viewport={"width": width, "height": height}, color_scheme=color_scheme
            )
            yield server, page
        finally:
            browser.close()
