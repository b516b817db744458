"""The child's side of ui.server.child_jobs: one job read from stdin, done, answered.

`python -m ui.server.job_child PARENT_PID` reads a pickled (function, args, kwargs,
wants_progress, memory_mb) framed by HEADER (its length), and writes framed messages:
("progress", (phase, done, total)) at most PROGRESS_PER_SECOND times a second, then
("result", value), ("error", (module, class name, pickled exception or None, message))
or ("memory", memory_mb). It exits by itself when PARENT_PID is no longer its parent.

    >>> HEADER.unpack(HEADER.pack(7))
    (7,)
    >>> count_to(2)
    2
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

Progress = Callable[[str, int, int], None]
HEADER = struct.Struct(">Q")  # a message's length, before its pickle
PROGRESS_PER_SECOND = 20  # the child sends at most this many progress messages a second


def count_to(n: int, progress: Progress | None = None) -> int:
    """A tiny job for examples and tests: counts to n, reporting each step."""
    for done in range(1, n + 1):
        if progress is not None:
            progress("counting", done, n)
    return n


def sleep_then(seconds: float, value: Any = None, progress: Progress | None = None) -> Any:
    """A job for the tests: reports, sleeps, and returns `value`."""
    if progress is not None:
        progress("sleeping", 0, 1)
    time.sleep(seconds)
    return value


def child_main(parent: int) -> None:
    """Read one job from stdin, do it, write its progress and its result to stdout."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # subtle: a print() in the job must not corrupt the frames
    _end_with_parent(parent)
    (size,) = HEADER.unpack(stdin.read(HEADER.size))
    function, args, kwargs, wants_progress, memory_mb = pickle.loads(stdin.read(size))
    if memory_mb:
        _cap_memory(memory_mb)

    def send(message: tuple[str, Any]) -> None:
        body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        stdout.write(HEADER.pack(len(body)) + body)
        stdout.flush()

    if wants_progress:
        kwargs = {**kwargs, "progress": _throttled(send)}
    try:
        result = function(*args, **kwargs)
    except MemoryError:
        send(("memory", memory_mb))
        return
    except Exception as exc:  # every error goes back to the caller
        send(("error", _error_shape(exc)))
        return
    send(("result", result))


def _end_with_parent(parent: int) -> None:
    """Exit when the parent has gone (a server stopped by a signal runs no `finally`):
    no job outlives the server that wanted it. `parent` comes from the command line:
    # subtle: the parent may be gone before this Python has even started"""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _throttled(send: Callable[[tuple[str, Any]], None]) -> Progress:
    last = [0.0]

    def progress(phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < 1 / PROGRESS_PER_SECOND and done < total:
            return
        last[0] = now
        send(("progress", (phase, done, total)))

    return progress


def _error_shape(exc: Exception) -> tuple[str, str, bytes | None, str]:
    pickled: bytes | None
    try:
        pickled = pickle.dumps(exc)
        pickle.loads(pickled)  # it must round-trip, or the parent rebuilds it
    except Exception:  # rebuilt from class and message instead
        pickled = None
    kind = type(exc)
    return kind.__module__, kind.__qualname__, pickled, str(exc)


def _cap_memory(memory_mb: int) -> None:
    try:
        import resource

        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # not on this system: uncapped
        pass


if __name__ == "__main__":
    child_main(int(sys.argv[1]))
