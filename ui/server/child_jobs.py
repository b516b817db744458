"""Heavy work in a child Python: progress back, cancel, few at once, a bounded wait queue.

A server renders every visitor's page on one interpreter; a training of megabytes or the
import of a 20 MB vocabulary held it for minutes. `JobRunner.run` does such work in a
fresh child Python (`python -m ui.server.job_child`: never a fork of the threaded
server) and waits for it, while the caller's thread can still draw a progress bar:

- the child's progress(phase, done, total) calls come back to `progress` in the caller;
- `still_wanted()` is asked on every poll: False (or an exception it raises, such as a
  web framework's stop-this-script signal) ends the child at once (terminated, reaped);
- at most `slots` jobs run at once; up to `queue_limit` more wait, each told its place
  (`waiting(ahead)`), and one more is refused with ServerBusy, not piled up; the places
  are shared fairly between clients (`client`, by session and address: job_queue.py);
- the result comes back pickled; an exception in the child comes back as the same class
  with the same message (ValueError subclasses stay what callers catch);
- each child may be capped in memory (`memory_mb`) and time (`time_limit_s`).

    >>> runner = JobRunner(slots=1, queue_limit=2)
    >>> runner.run(pow, 2, 10)
    1024
    >>> from ui.server.job_child import count_to  # reports each step
    >>> seen = []
    >>> runner.run(count_to, 3, progress=lambda *step: seen.append(step))
    3
    >>> seen[-1]
    ('counting', 3, 3)
    >>> runner.run(int, "seven")
    Traceback (most recent call last):
    ...
    ValueError: invalid literal for int() with base 10: 'seven'

The function and its arguments must pickle (a module-level function: the child imports
it by name). A function that takes a `progress` keyword gets one (see `run`).
"""

from __future__ import annotations

import importlib
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from queue import Empty, Queue
from typing import IO, Any, TypeVar, cast

from ui.server.job_child import HEADER, Progress
from ui.server.job_queue import Client, FairQueue, JobError, ServerBusy, Ticket

__all__ = ["Client", "JobCancelled", "JobError", "JobRunner", "ServerBusy", "runner_from_env"]

T = TypeVar("T")

SLOTS_VARIABLE = "BPE_EXPLORER_JOB_SLOTS"  # jobs running at once (default 1)
QUEUE_VARIABLE = "BPE_EXPLORER_JOB_QUEUE"  # jobs waiting for a slot (default 4)
MEMORY_VARIABLE = "BPE_EXPLORER_JOB_MEMORY_MB"  # a child's address-space cap (default 6000)
SECONDS_VARIABLE = "BPE_EXPLORER_JOB_SECONDS"  # a child's time cap (default 600)
DEFAULT_SLOTS, DEFAULT_QUEUE, DEFAULT_MEMORY_MB, DEFAULT_SECONDS = 1, 4, 6000, 600
POLL_SECONDS = 0.1  # how often a waiting caller is asked still_wanted() and shown its place
_ROOT = Path(__file__).resolve().parents[2]  # the folder that holds `explorer`


class JobCancelled(Exception):
    """The caller no longer wanted the result (its still_wanted() said False)."""


class JobRunner:
    """Runs picklable functions in child Pythons, `slots` at once, `queue_limit` waiting."""

    def __init__(
        self,
        slots: int = DEFAULT_SLOTS,
        queue_limit: int = DEFAULT_QUEUE,
        *,
        memory_mb: int | None = None,
        time_limit_s: float | None = None,
    ) -> None:
        self.queue = FairQueue(slots, queue_limit)
        self.slots, self.queue_limit = slots, queue_limit
        self.memory_mb, self.time_limit_s = memory_mb, time_limit_s
        self.children: set[int] = set()  # pids of the children running now (for tests)

    def run(
        self,
        function: Callable[..., T],
        *args: Any,
        progress: Progress | None = None,
        still_wanted: Callable[[], bool] | None = None,
        waiting: Callable[[int], None] | None = None,
        client: Client | None = None,
        **kwargs: Any,
    ) -> T:
        """function(*args, **kwargs) done by a child; with `progress`, the child's call
        gets a progress=... keyword whose calls reach `progress` here.

        `client` says whose job it is, for the queue's fair shares (job_queue.py).
        Raises ServerBusy when the queue is full, JobCancelled when still_wanted() turns
        False, the child's own exception (same class and message), or JobError.
        """
        ticket = self.queue.enter(client or Client())
        try:
            self._wait_for_slot(ticket, still_wanted, waiting)
        except BaseException:
            self.queue.leave(ticket)
            raise
        try:
            return self._run_in_child(function, args, kwargs, progress, still_wanted)
        finally:
            self.queue.leave(ticket)

    def busy(self) -> tuple[int, int]:
        """(jobs running, jobs waiting) now."""
        return self.queue.busy()

    def _wait_for_slot(
        self,
        ticket: Ticket,
        still_wanted: Callable[[], bool] | None,
        waiting: Callable[[int], None] | None,
    ) -> None:
        while not self.queue.take_slot(ticket):  # raises ServerBusy if it had to give way
            with self.queue.changed:
                self.queue.changed.wait(POLL_SECONDS)
            if waiting is not None:
                waiting(self.queue.ahead_of(ticket))
            _check_wanted(still_wanted)

    # --- the child -----------------------------------------------------------------------

    def _run_in_child(
        self,
        function: Callable[..., T],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        progress: Progress | None,
        still_wanted: Callable[[], bool] | None,
    ) -> T:
        job = pickle.dumps((function, args, kwargs, progress is not None, self.memory_mb))
        child = subprocess.Popen(
            [sys.executable, "-m", "ui.server.job_child", str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=_ROOT,
            env=_child_environment(),
            start_new_session=True,  # its own process group: ending it ends any helpers too
        )
        self.children.add(child.pid)
        messages: Queue[tuple[str, Any]] = Queue()
        reader = threading.Thread(target=_read_messages, args=(child.stdout, messages), daemon=True)
        try:
            reader.start()
            _send_job(child, job)
            # the child ran the job's function, whose result is a T, and pickled it back
            return cast(T, self._follow(child, messages, progress, still_wanted))
        finally:
            _end(child)
            reader.join(timeout=5)
            if not reader.is_alive():  # subtle: closing a pipe a thread reads would block
                _close(child)
            self.children.discard(child.pid)

    def _follow(
        self,
        child: subprocess.Popen[bytes],
        messages: Queue[tuple[str, Any]],
        progress: Progress | None,
        still_wanted: Callable[[], bool] | None,
    ) -> Any:
        started = time.monotonic()
        while True:
            try:
                kind, body = messages.get(timeout=POLL_SECONDS)
            except Empty:
                kind, body = "", None
            if kind == "progress" and progress is not None:
                progress(*body)
            elif kind == "result":
                return body
            elif kind == "error":
                raise _rebuilt(body)
            elif kind == "memory":
                raise JobError(f"the work needed more than {body:,} MB")
            elif kind == "closed":
                code = child.wait()
                raise JobError(f"the worker process stopped unexpectedly (exit code {code})")
            _check_wanted(still_wanted)
            if self.time_limit_s is not None and time.monotonic() - started > self.time_limit_s:
                raise JobError(
                    f"the work took more than the server's limit of {self.time_limit_s:g} s"
                )


def runner_from_env() -> JobRunner:
    """A runner with the slots, queue, memory and time caps the environment sets.

    >>> runner_from_env().slots >= 1
    True
    """
    from explorer.base.numbers import whole_number_or_none

    def setting(name: str, default: int, low: int) -> int:
        value = whole_number_or_none(os.environ.get(name), low, 1_000_000)
        return default if value is None else value

    return JobRunner(
        setting(SLOTS_VARIABLE, DEFAULT_SLOTS, 1),
        setting(QUEUE_VARIABLE, DEFAULT_QUEUE, 0),
        memory_mb=setting(MEMORY_VARIABLE, DEFAULT_MEMORY_MB, 0) or None,  # 0: uncapped
        time_limit_s=setting(SECONDS_VARIABLE, DEFAULT_SECONDS, 0) or None,
    )


def _check_wanted(still_wanted: Callable[[], bool] | None) -> None:
    if still_wanted is not None and not still_wanted():
        raise JobCancelled("cancelled: the work was no longer wanted")


def _child_environment() -> dict[str, str]:
    environment = dict(os.environ)
    path = environment.get("PYTHONPATH", "")
    environment["PYTHONPATH"] = str(_ROOT) + (os.pathsep + path if path else "")
    return environment


def _send_job(child: subprocess.Popen[bytes], job: bytes) -> None:
    assert child.stdin is not None
    try:
        child.stdin.write(HEADER.pack(len(job)) + job)
        child.stdin.close()
    except BrokenPipeError:  # the child died at once; its reader reports "closed"
        pass


def _end(child: subprocess.Popen[bytes]) -> None:
    """Terminate the child (and its process group) if it still runs, and reap it: no
    zombie, no orphan."""
    if child.poll() is None:
        _signal_group(child, signal.SIGTERM)
        try:
            child.wait(timeout=2)
        except subprocess.TimeoutExpired:
            _signal_group(child, signal.SIGKILL)
            child.wait()


def _signal_group(child: subprocess.Popen[bytes], which: int) -> None:
    # subtle: only while the child is unreaped: its pid, the group's id, cannot be reused
    try:
        os.killpg(child.pid, which)
    except (ProcessLookupError, PermissionError):
        child.send_signal(which)


def _close(child: subprocess.Popen[bytes]) -> None:
    for stream in (child.stdin, child.stdout):
        if stream is not None and not stream.closed:
            stream.close()


def _read_messages(stream: IO[bytes] | None, messages: Queue[tuple[str, Any]]) -> None:
    """The child's framed messages, in order, then ("closed", None) at the end."""
    assert stream is not None
    try:
        while True:
            header = stream.read(HEADER.size)
            if len(header) < HEADER.size:
                break
            (size,) = HEADER.unpack(header)
            body = stream.read(size)
            if len(body) < size:
                break
            messages.put(pickle.loads(body))  # our own child's output, not outside data
    except (OSError, ValueError):  # the stream was closed under us: the job has ended
        pass
    messages.put(("closed", None))


def _rebuilt(error: tuple[str, str, bytes | None, str]) -> BaseException:
    """The child's exception: unpickled, or (when it does not unpickle) rebuilt from its
    class and message."""
    module, name, pickled, message = error
    if pickled is not None:
        try:
            unpickled = pickle.loads(pickled)
        except Exception:  # an exception class that does not round-trip
            unpickled = None
        if isinstance(unpickled, BaseException):
            return unpickled
    try:
        kind = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        kind = JobError
    if not (isinstance(kind, type) and issubclass(kind, Exception)):
        kind = JobError
    rebuilt: BaseException = kind.__new__(kind)
    Exception.__init__(rebuilt, message)
    return rebuilt
