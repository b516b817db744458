"""The child-process job runner: progress, cancel, the bounded queue, errors, results."""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from explorer import train
from explorer.files.formats import FormatError
from explorer.files.loading import load_uploads
from explorer.training.train import TrainingError
from ui.server import child_jobs, job_child
from ui.server.child_jobs import JobCancelled, JobError, JobRunner, ServerBusy

WAIT_LIMIT_S = 30  # a bound on every wait below, so a broken runner fails, not hangs


class NeedsTwoArguments(ValueError):
    """An exception that does not unpickle as it is (its __init__ takes two arguments)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what} failed: {why}")


def raise_two_argument_error() -> None:
    raise NeedsTwoArguments("the job", "it had to")


def pid_alive(pid: int) -> bool:
    """Whether a process (or an unreaped zombie) with this pid still exists."""
    return Path(f"/proc/{pid}").exists()


def running(pid: int) -> bool:
    """Whether a process with this pid runs (a zombie has ended; its reaper is not ours)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def until(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + WAIT_LIMIT_S
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


class Background:
    """runner.run in a thread; `outcome` is its result or the exception it raised."""

    def __init__(self, runner: JobRunner, *args: Any, **kwargs: Any) -> None:
        self.outcome: object = None
        self.thread = threading.Thread(target=self._run, args=(runner, args, kwargs))
        self.thread.start()

    def _run(self, runner: JobRunner, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        try:
            self.outcome = runner.run(*args, **kwargs)
        except BaseException as exc:  # kept for the test to look at
            self.outcome = exc

    def join(self) -> object:
        self.thread.join(WAIT_LIMIT_S)
        assert not self.thread.is_alive()
        return self.outcome


def test_progress_arrives_in_order_and_ends_full() -> None:
    seen: list[tuple[str, int, int]] = []
    assert JobRunner().run(job_child.count_to, 5, progress=lambda *step: seen.append(step)) == 5
    assert seen[-1] == ("counting", 5, 5)
    assert [done for _, done, _ in seen] == sorted(done for _, done, _ in seen)


def test_a_training_in_a_child_equals_one_here() -> None:
    text = "the cat sat on the mat; the dog sat on the log. " * 40
    here = train([text], 400, pattern="gpt4")
    steps: list[tuple[str, int, int]] = []
    there = JobRunner().run(
        train, [text], 400, pattern="gpt4", progress=lambda *step: steps.append(step)
    )
    assert there.tokenizer.merges == here.tokenizer.merges
    assert replace(there.history, seconds=here.history.seconds) == here.history
    assert pickle.loads(pickle.dumps(here.tokenizer)).merges == here.tokenizer.merges
    assert {phase for phase, _, _ in steps} <= {"counting", "merging"} and steps


def test_cancel_ends_and_reaps_the_child() -> None:
    runner, wanted = JobRunner(), threading.Event()
    wanted.set()
    job = Background(runner, job_child.sleep_then, 60, still_wanted=wanted.is_set)
    assert until(lambda: bool(runner.children))
    (pid,) = runner.children
    assert pid_alive(pid)
    wanted.clear()
    assert isinstance(job.join(), JobCancelled)
    assert not pid_alive(pid)  # terminated and reaped: not even a zombie is left
    assert runner.busy() == (0, 0)


def test_a_stop_signal_raised_by_still_wanted_ends_the_child_too() -> None:
    """Streamlit stops a script by raising a BaseException at its next yield point."""

    class StopScript(BaseException):
        pass

    runner, stop = JobRunner(), threading.Event()

    def still_wanted() -> bool:
        if stop.is_set():
            raise StopScript
        return True

    job = Background(runner, job_child.sleep_then, 60, still_wanted=still_wanted)
    assert until(lambda: bool(runner.children))
    (pid,) = runner.children
    stop.set()
    assert isinstance(job.join(), StopScript)
    assert not pid_alive(pid)


def test_a_full_queue_says_the_server_is_busy_and_a_queued_job_hears_its_place() -> None:
    runner, wanted = JobRunner(slots=1, queue_limit=1), threading.Event()
    wanted.set()
    places: list[int] = []
    first = Background(runner, job_child.sleep_then, 60, "first", still_wanted=wanted.is_set)
    assert until(lambda: runner.busy() == (1, 0))
    second = Background(runner, pow, 2, 5, still_wanted=wanted.is_set, waiting=places.append)
    assert until(lambda: runner.busy() == (1, 1) and bool(places))
    with pytest.raises(ServerBusy, match=r"the server is busy: 2 jobs ahead"):
        runner.run(pow, 2, 3)
    assert places[0] == 1  # one job (running) ahead of it
    wanted.clear()
    assert isinstance(first.join(), JobCancelled)
    assert isinstance(second.join(), JobCancelled)
    assert runner.busy() == (0, 0)
    assert runner.run(pow, 2, 3) == 8  # the queue is free again


def test_a_queued_job_runs_when_the_slot_frees() -> None:
    runner = JobRunner(slots=1, queue_limit=1)
    first = Background(runner, job_child.sleep_then, 0.5, "first")
    assert until(lambda: runner.busy()[0] == 1)
    second = Background(runner, job_child.sleep_then, 0, "second")
    assert first.join() == "first"
    assert second.join() == "second"


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        ((train, ["abc"], 100), TrainingError, "vocab_size"),
        ((load_uploads, [("a.tiktoken", b"YQ== 256\n")]), FormatError, "a.tiktoken, line 1"),
        ((raise_two_argument_error,), NeedsTwoArguments, "the job failed: it had to"),
        ((os._exit, 3), JobError, "stopped unexpectedly (exit code 3)"),
    ],
)
def test_errors_come_back_with_their_class_and_message(
    call: tuple[Any, ...], kind: type[Exception], message: str
) -> None:
    with pytest.raises(kind, match=re.escape(message)) as raised:
        JobRunner().run(*call)
    assert type(raised.value) is kind


def test_the_memory_cap_is_a_clear_error() -> None:
    with pytest.raises(JobError, match="needed more than 300 MB"):
        JobRunner(memory_mb=300).run(bytearray, 1 << 30)


def test_the_time_cap_ends_the_child() -> None:
    runner = JobRunner(time_limit_s=0.3)
    with pytest.raises(JobError, match=r"limit of 0\.3 s"):
        runner.run(job_child.sleep_then, 60)
    assert not runner.children


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(child_jobs.SLOTS_VARIABLE, "2")
    monkeypatch.setenv(child_jobs.QUEUE_VARIABLE, "0")
    monkeypatch.setenv(child_jobs.MEMORY_VARIABLE, "²")  # unreadable: the default
    runner = child_jobs.runner_from_env()
    assert (runner.slots, runner.queue_limit) == (2, 0)
    assert runner.memory_mb == child_jobs.DEFAULT_MEMORY_MB


def start_a_helper_then_sleep(progress: Callable[[str, int, int], None]) -> None:
    """A job that starts a process of its own (as a pool of counters would), then waits."""
    helper = subprocess.Popen(["sleep", "60"])
    progress("helper", helper.pid, 0)
    time.sleep(60)


def test_cancel_ends_the_jobs_own_helpers_too() -> None:
    runner, wanted, helpers = JobRunner(), threading.Event(), []
    wanted.set()
    job = Background(
        runner,
        start_a_helper_then_sleep,
        progress=lambda _phase, pid, _total: helpers.append(pid),
        still_wanted=wanted.is_set,
    )
    assert until(lambda: bool(helpers))
    wanted.clear()
    assert isinstance(job.join(), JobCancelled)
    assert until(lambda: not running(helpers[0]))  # its process group was ended


def test_a_child_ends_when_its_parent_is_killed() -> None:
    """A server killed outright runs no `finally`: the child notices and exits."""
    middle_code = (
        "import threading, time\n"
        "from ui.server.child_jobs import JobRunner\n"
        "from ui.server.job_child import sleep_then\n"
        "runner = JobRunner()\n"
        "def tell():\n"
        "    while not runner.children: time.sleep(0.02)\n"
        "    print(next(iter(runner.children)), flush=True)\n"
        "threading.Thread(target=tell, daemon=True).start()\n"
        "runner.run(sleep_then, 60)\n"
    )
    root = Path(child_jobs.__file__).resolve().parents[2]
    middle = subprocess.Popen(
        [sys.executable, "-c", middle_code],
        stdout=subprocess.PIPE,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    try:
        assert middle.stdout is not None
        pid = int(middle.stdout.readline())
        assert running(pid)
    finally:
        middle.kill()
        middle.wait()
        middle.stdout.close()
    assert until(lambda: not running(pid))
