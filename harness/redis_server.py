"""Debian's `redis-server` on a free loopback port, with a password, in a folder of its own.

The class store's tests (tests/app/classroom/) start one, stop it and start it again on
the same port and folder (a Redis restart; with `aof=True`, every write is on disk before
it is answered: `--appendonly yes --appendfsync always`):

    server = RedisServer.start(Path("/tmp/redis-test"))
    print(server.url)   # redis://:PASSWORD@127.0.0.1:PORT/0
    server.stop(); server.restart(); server.stop()
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness.app_server import free_port

REDIS_SERVER = "redis-server"
MISSING = (
    "Debian's redis-server is not installed (apt-get install redis-server; "
    "scripts/test.sh installs it as root)"
)
START_SECONDS = 20


def installed() -> bool:
    return shutil.which(REDIS_SERVER) is not None


@dataclass
class RedisServer:
    """One redis-server process of ours (None while stopped)."""

    folder: Path
    port: int
    password: str
    aof: bool = False
    unix: bool = False  # a unix socket in the folder instead of a TCP port
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @classmethod
    def start(cls, folder: Path, *, aof: bool = False, unix: bool = False) -> RedisServer:
        """A new server on a free port (or a unix socket); RuntimeError (with its log) if
        it does not answer."""
        folder.mkdir(parents=True, exist_ok=True)
        port = 0 if unix else free_port()
        server = cls(folder, port, secrets.token_urlsafe(16), aof, unix)
        server.restart()
        return server

    @property
    def socket_path(self) -> Path:
        return self.folder / "redis.sock"

    @property
    def url(self) -> str:
        if self.unix:
            return f"unix://{self.socket_path}?password={self.password}&db=0"
        return f"redis://:{self.password}@127.0.0.1:{self.port}/0"

    def command(self) -> list[str]:
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "always", "--save", ""]
            if self.aof
            else ["--appendonly", "no", "--save", ""]
        )
        return [
            REDIS_SERVER,
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--requirepass",
            self.password,
            *(
                ["--unixsocket", str(self.socket_path), "--unixsocketperm", "700"]
                if self.unix
                else []
            ),
            "--dir",
            str(self.folder),
            "--logfile",
            str(self.folder / "redis.log"),
            "--daemonize",
            "no",
            *persistence,
        ]

    def restart(self) -> None:
        """Start the process (again, on the same port and folder) and wait until it answers."""
        if self.process is not None:
            raise RuntimeError("this redis-server is running already")
        self.process = subprocess.Popen(
            self.command(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            if self.answers():
                return
            time.sleep(0.05)
        log = (self.folder / "redis.log").read_text(errors="replace")[-2000:]
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port}:\n{log}")

    def answers(self) -> bool:
        """Whether it answers PING with PONG (with the password), and is done loading."""
        try:
            with self._connection() as sock:
                sock.sendall(_command("AUTH", self.password) + _command("PING"))
                reply = b""
                while reply.count(b"\r\n") < 2:
                    chunk = sock.recv(256)
                    if not chunk:
                        return False
                    reply += chunk
                return reply.endswith(b"+PONG\r\n")
        except OSError:
            return False

    def _connection(self) -> socket.socket:
        if not self.unix:
            return socket.create_connection(("127.0.0.1", self.port), timeout=1)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(1)
        try:
            sock.connect(str(self.socket_path))
        except OSError:
            sock.close()
            raise
        return sock

    def cpu_seconds(self) -> float:
        """The CPU time the server has used so far (user + system, from /proc)."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self, *, kill: bool = False) -> None:
        """Stop it (SIGTERM, as `redis-cli shutdown` would; `kill`: SIGKILL, a crash)."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL if kill else signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _command(*parts: str) -> bytes:
    """One command in Redis's protocol (RESP).

    >>> _command("PING")
    b'*1\\r\\n$4\\r\\nPING\\r\\n'
    """
    encoded = [part.encode() for part in parts]
    return f"*{len(encoded)}\r\n".encode() + b"".join(
        b"$%d\r\n%s\r\n" % (len(part), part) for part in encoded
    )
