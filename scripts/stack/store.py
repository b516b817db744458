"""The stack's own redis-server: a password, loopback, a data folder, AOF on.

Started unless BPE_EXPLORER_REDIS_URL already names a Redis. The password is random at
each start and reaches the app's processes only through their environment (the URL); the
configuration file that holds it is readable by this user alone, so it is never on a
command line for `ps` to show.

    >>> print(config_text(Path("/s/redis"), 6390, "pw"))  # doctest: +ELLIPSIS
    bind 127.0.0.1
    port 6390
    protected-mode yes
    requirepass pw
    dir /s/redis
    appendonly yes
    ...
    >>> redis_url(6390, "pw")
    'redis://:pw@127.0.0.1:6390/0'
"""

from __future__ import annotations

import os
import shutil
import socket
import time
from pathlib import Path

READY_SECONDS = 60  # a large append-only file takes a while to load


def config_text(folder: Path, port: int, password: str) -> str:
    """redis.conf: loopback only, a password, its data in `folder`, every write in the
    append-only file (fsynced each second), no RDB snapshots."""
    return "\n".join(
        [
            "bind 127.0.0.1",
            f"port {port}",
            "protected-mode yes",
            f"requirepass {password}",
            f"dir {folder}",
            "appendonly yes",
            "appendfsync everysec",
            'save ""',
            "daemonize no",
            'logfile ""',
            # what a visitor's page never needs, and an intruder would: off
            'rename-command CONFIG ""',
            'rename-command FLUSHALL ""',
            'rename-command FLUSHDB ""',
        ]
    )


def redis_url(port: int, password: str) -> str:
    """The URL the app's processes get as BPE_EXPLORER_REDIS_URL."""
    return f"redis://:{password}@127.0.0.1:{port}/0"


def write_config(folder: Path, port: int, password: str) -> Path:
    """The data folder and its redis.conf, readable by this user alone."""
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    config = folder / "redis.conf"
    config.touch(mode=0o600)
    os.chmod(config, 0o600)
    config.write_text(config_text(folder, port, password) + "\n")
    return config


def command(config: Path) -> list[str]:
    """Debian's redis-server on that configuration, or a ValueError saying it is missing."""
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )
    if found is None:
        raise ValueError("redis-server is not installed: apt-get install redis-server")
    return [found, str(config)]


def answers_ping(port: int, password: str, timeout: float = 2.0) -> bool:
    """Whether the Redis on this port takes the password and answers PING (not while it
    still loads its append-only file: that answers -LOADING)."""
    request = resp(["AUTH", password]) + resp(["PING"])
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
            conn.sendall(request)
            reply = b""
            deadline = time.monotonic() + timeout
            while b"PONG" not in reply and b"-" not in reply and time.monotonic() < deadline:
                chunk = conn.recv(256)
                if not chunk:
                    break
                reply += chunk
    except OSError:
        return False
    return reply == b"+OK\r\n+PONG\r\n"


def resp(words: list[str]) -> bytes:
    """A command in Redis's protocol (RESP): `resp(["PING"])` is b"*1\\r\\n$4\\r\\nPING\\r\\n".

    >>> resp(["AUTH", "pw"])
    b'*2\\r\\n$4\\r\\nAUTH\\r\\n$2\\r\\npw\\r\\n'
    """
    parts = [f"*{len(words)}\r\n".encode()]
    for word in words:
        data = word.encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)
