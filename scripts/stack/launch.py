"""`bash scripts/run.sh --processes N`: one address, N Streamlit processes, Redis, nginx.

On one port (8501 unless --port): Debian's nginx (deploy/nginx.conf) in front of N
`streamlit run streamlit_app.py` processes on free loopback ports, which share the
classes through Redis (this stack's own redis-server, unless BPE_EXPLORER_REDIS_URL names
one) and the runs through one folder (BPE_EXPLORER_RUNS_DIR, `.runs/` by default). What
the stack keeps between starts lives in its state folder (`.stack/` unless --state):
Redis's append-only file, nginx's logs and temp files, each process's log, and
`stack.json` (the processes' ids and ports, for the tests and the bench; no password).

A Streamlit process that ends (killed, crashed) is started again on its port; meanwhile
nginx sends its browsers to the next process. Ctrl+C (SIGINT) or SIGTERM stops them all.

    python -m scripts.stack --processes 3 [--port 8501] [--address 127.0.0.1] [--state DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from scripts.stack import children, proxy, store
from scripts.stack.children import Child

ROOT = Path(__file__).resolve().parents[2]
MAX_PROCESSES = 16
APP_READY_SECONDS = 120  # N processes starting at once on two loaded cores
PROXY_READY_SECONDS = 30
RESTART_PAUSE_SECONDS = 1.0
PROXY_ADDRESS = "127.0.0.1"  # where nginx connects to the processes from


@dataclass
class Stack:
    """The stack's processes and where it keeps its state."""

    state: Path
    port: int
    address: str
    apps: list[Child] = field(default_factory=list)
    app_ports: list[int] = field(default_factory=list)
    redis: Child | None = None
    nginx: Child | None = None

    def children(self) -> list[Child]:
        """Every process, in the order they stop: the proxy first, Redis last."""
        return [c for c in (self.nginx, *self.apps, self.redis) if c is not None]


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        prog="bash scripts/run.sh --processes N", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--processes", type=int, required=True, help="Streamlit processes")
    parser.add_argument("--port", type=int, default=8501, help="the one port browsers open")
    parser.add_argument(
        "--address", default="127.0.0.1", help="where nginx listens (0.0.0.0: every network)"
    )
    parser.add_argument("--state", type=Path, default=ROOT / ".stack", help="the state folder")
    args, streamlit_options = parser.parse_known_args(argv)
    if not 1 <= args.processes <= MAX_PROCESSES:
        parser.error(f"--processes takes 1 to {MAX_PROCESSES}")
    if not 1 <= args.port <= 65535:
        parser.error("--port takes 1 to 65535")
    if any(o.startswith(("--server.port", "--server.address")) for o in streamlit_options):
        parser.error("the processes' ports are the stack's own: give --port and --address")
    return args, streamlit_options


def free_port() -> int:
    """A loopback port nobody listens on now (the kernel picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def healthy(url: str) -> bool:
    """Whether Streamlit's /_stcore/health at `url` answers "ok"."""
    try:
        with urllib.request.urlopen(f"{url}_stcore/health", timeout=2) as answer:
            return bool(answer.status == 200 and answer.read().strip() == b"ok")
    except OSError:
        return False


def start_redis(stack: Stack) -> str:
    """This stack's own redis-server, ready; its URL (with the password) for the app."""
    port, password = free_port(), secrets.token_urlsafe(24)
    config = store.write_config(stack.state / "redis", port, password)
    stack.redis = children.start(
        Child("redis", store.command(config), stack.state / "logs" / "redis.log", {**os.environ}),
        ROOT,
    )
    if not children.wait_until(
        lambda: store.answers_ping(port, password), [stack.redis], store.READY_SECONDS
    ):
        raise RuntimeError("redis-server did not answer", stack.redis.log)
    return store.redis_url(port, password)


def app_child(stack: Stack, index: int, env: dict[str, str], options: list[str]) -> Child:
    port = stack.app_ports[index]
    command = [sys.executable, "-m", "streamlit", "run", "streamlit_app.py"]
    command += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    # the code as it was at start: N processes polling the source files would cost CPU and
    # rerun pages mid-lesson when a file is saved (a later option on the line overrides)
    command += ["--server.fileWatcherType", "none", *options]
    return Child(f"app-{index + 1}", command, stack.state / "logs" / f"app-{index + 1}.log", env)


def start_apps(stack: Stack, count: int, redis_url: str, options: list[str]) -> None:
    """N Streamlit processes at once, each on its loopback port; back when all answer."""
    env = children.environment(
        BPE_EXPLORER_REDIS_URL=redis_url, BPE_EXPLORER_PROXY_ADDRESS=PROXY_ADDRESS
    )
    stack.app_ports = [free_port() for _ in range(count)]
    stack.apps = [children.start(app_child(stack, i, env, options), ROOT) for i in range(count)]
    for app, port in zip(stack.apps, stack.app_ports, strict=True):
        url = f"http://127.0.0.1:{port}/"
        if not children.wait_until(partial(healthy, url), [app], APP_READY_SECONDS):
            raise RuntimeError(f"{app.name} did not answer /_stcore/health", app.log)


def start_nginx(stack: Stack) -> None:
    prefix = stack.state / "nginx"
    listen = proxy.listen_on(stack.address, stack.port)
    servers = [f"127.0.0.1:{port}" for port in stack.app_ports]
    config = proxy.write_config(prefix, listen, servers)
    stack.nginx = children.start(
        Child("nginx", proxy.command(prefix, config), prefix / "error.log", {**os.environ}), ROOT
    )
    host = "127.0.0.1" if stack.address in ("0.0.0.0", "::", "") else stack.address
    url = f"http://{proxy.listen_on(host, stack.port)}/"
    if not children.wait_until(lambda: healthy(url), [stack.nginx], PROXY_READY_SECONDS):
        raise RuntimeError("nginx did not answer the app's /_stcore/health", stack.nginx.log)


def write_record(stack: Stack) -> None:
    """stack.json: who runs where (ids and ports; no password), written whole at once."""
    record = {
        "launcher": os.getpid(),
        "port": stack.port,
        "url": f"http://{proxy.listen_on(stack.address, stack.port)}/",
        "nginx": stack.nginx.pid if stack.nginx else None,
        "redis": stack.redis.pid if stack.redis else None,
        "apps": [{"pid": a.pid, "port": p} for a, p in zip(stack.apps, stack.app_ports)],
        "logs": str(stack.state / "logs"),
    }
    temporary = stack.state / "stack.json.tmp"
    temporary.write_text(json.dumps(record, indent=1))
    os.replace(temporary, stack.state / "stack.json")


def supervise(stack: Stack, redis_url: str, options: list[str]) -> int:
    """Until Ctrl+C: start a Streamlit process again when it ends; stop everything when
    nginx or the stack's Redis ends (the exit code then 1)."""
    env = children.environment(
        BPE_EXPLORER_REDIS_URL=redis_url, BPE_EXPLORER_PROXY_ADDRESS=PROXY_ADDRESS
    )
    started = [time.monotonic()] * len(stack.apps)
    quick_ends = [0] * len(stack.apps)  # ends in a row within a minute of a start
    while True:
        time.sleep(0.5)
        for vital in (stack.nginx, stack.redis):
            if vital is not None and not vital.running():
                print(f"{vital.name} ended; stopping the stack (its log: {vital.log})")
                return 1
        for index, app in enumerate(stack.apps):
            if app.running():
                continue
            code = app.process.returncode if app.process else None
            quick = time.monotonic() - started[index] < 60
            quick_ends[index] = quick_ends[index] + 1 if quick else 0
            pause = min(30.0, RESTART_PAUSE_SECONDS * 2 ** quick_ends[index])
            print(
                f"{app.name} ended (exit code {code}); starting it again in {pause:.0f} s "
                f"(its log: {app.log})",
                flush=True,
            )
            time.sleep(pause)  # a process that cannot start is not started 2 times a second
            stack.apps[index] = children.start(app_child(stack, index, env, options), ROOT)
            started[index] = time.monotonic()
            write_record(stack)


def raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace, options: list[str]) -> int:
    stack = Stack(args.state.resolve(), args.port, args.address)
    stack.state.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, raise_interrupt)  # as Ctrl+C: stop them all
    try:
        redis_url = os.environ.get("BPE_EXPLORER_REDIS_URL", "").strip()
        owned = "" if redis_url else " (this stack's own; its append-only file in "
        redis_url = redis_url or start_redis(stack)
        start_apps(stack, args.processes, redis_url, options)
        start_nginx(stack)
        write_record(stack)
        where = f"{owned}{stack.state / 'redis'})" if owned else " (BPE_EXPLORER_REDIS_URL)"
        print(
            f"The app: http://{proxy.listen_on(stack.address, stack.port)}/ — "
            f"{args.processes} Streamlit processes behind nginx, classes in Redis{where}.\n"
            f"Logs in {stack.state / 'logs'} and {stack.state / 'nginx'}. "
            "Press Ctrl+C to stop them all.",
            flush=True,
        )
        return supervise(stack, redis_url, options)
    except KeyboardInterrupt:
        return 0
    except (RuntimeError, ValueError) as exc:
        print(f"The stack did not start: {exc.args[0]}.", file=sys.stderr)
        if len(exc.args) > 1:
            print(f"The end of {exc.args[1]}:\n{children.tail(exc.args[1])}", file=sys.stderr)
        return 1
    finally:
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, signal.SIG_IGN)  # a second Ctrl+C waits for the stop
        children.stop_all(stack.children())
        (stack.state / "stack.json").unlink(missing_ok=True)
        print("Stopped every process of the stack.", flush=True)


def main(argv: list[str] | None = None) -> None:
    args, options = parse_args(argv)
    sys.exit(run(args, options))
