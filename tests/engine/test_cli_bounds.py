"""The command line, bounded (issue 35 §4): what it reads, how many processes it starts, how much
memory `report --sizes all` holds, and children that end with their parent. Every case runs
`python -m explorer` as a user would, in a subprocess with a timeout."""

from __future__ import annotations

import io
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from explorer import cli_report
from explorer.base.forking import usable_cores
from explorer.cli import main
from explorer.training.parallel import MIN_PART_BYTES, part_bounds
from explorer.training.train import train_files

ROOT = Path(__file__).resolve().parents[2]
MEMORY_CAP = 3 << 30  # `ulimit -v` for the commands that could read without bound
WORDS = "the quick brown fox jumps over a lazy dog while seven wizards quietly box jugs\n"


def run(
    *args: str | Path, stdin: int | bytes = b"", cap: int | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    """`python -m explorer ARGS`, under an address-space cap of `cap` bytes when given."""

    def limit() -> None:
        if cap is not None:
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    command = [sys.executable, "-m", "explorer", *map(str, args)]
    if isinstance(stdin, bytes):
        return subprocess.run(
            command, cwd=ROOT, input=stdin, capture_output=True, timeout=timeout, preexec_fn=limit
        )
    return subprocess.run(
        command, cwd=ROOT, stdin=stdin, capture_output=True, timeout=timeout, preexec_fn=limit
    )


def one_error_line(done: subprocess.CompletedProcess[bytes], status: int = 1) -> str:
    """The command's one line on stderr, once it is known to have failed with `status`."""
    stderr = done.stderr.decode()
    assert done.returncode == status, stderr
    assert stderr.startswith("error: ") and stderr.count("\n") == 1, stderr
    assert "unexpected" not in stderr and "please report" not in stderr
    return stderr


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A named pipe that nobody ever writes to."""
    path = tmp_path / "pipe"
    os.mkfifo(path)
    yield path


@pytest.fixture(scope="module")
def text(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bounds") / "text.txt"
    path.write_text(WORDS * 20, encoding="utf-8")
    return path


def as_text(fifo: Path, text: Path) -> dict[str, tuple[list[str | Path], int]]:
    """Each command with `fifo` where it reads a text or a tokenizer, and its exit status."""
    return {
        "train text": (["train", fifo, "--vocab-size", "300", "--output", text.parent / "o"], 1),
        "encode text": (["encode", "gpt2", fifo], 1),
        "decode ids": (["decode", "gpt2", fifo], 1),
        "report text": (["report", "gpt2", fifo], 2),
        "encode tokenizer": (["encode", fifo, text], 1),
        "info tokenizer": (["info", fifo], 1),
        "check tokenizer": (["check", fifo], 1),
        "report tokenizer": (["report", fifo, text], 2),
    }


@pytest.mark.parametrize("case", list(as_text(Path("p"), Path("t"))))
def test_a_fifo_with_no_writer_is_refused_at_once(fifo: Path, text: Path, case: str) -> None:
    args, status = as_text(fifo, text)[case]
    stderr = one_error_line(run(*args, timeout=30), status)
    assert f"{fifo} is a named pipe (FIFO), not a file saved on disk" in stderr


@pytest.mark.parametrize("case", ["train text", "encode text", "decode ids", "encode tokenizer"])
def test_dev_zero_is_refused_as_a_device(text: Path, case: str) -> None:
    args, status = as_text(Path("/dev/zero"), text)[case]
    stderr = one_error_line(run(*args, cap=MEMORY_CAP, timeout=30), status)
    assert "/dev/zero is a device, not a file saved on disk" in stderr


@pytest.mark.parametrize("command", ["encode", "decode"])
def test_stdin_is_read_up_to_its_bound(command: str) -> None:
    with open("/dev/zero", "rb") as zeros:
        done = run(command, "gpt2", stdin=zeros.fileno(), cap=MEMORY_CAP, timeout=60)
    assert f"stdin holds more than {256 << 20:,} bytes" in one_error_line(done)


def test_report_stdin_is_bounded_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_report, "MAX_STDIN_BYTES", 4096)
    monkeypatch.setattr(cli_report, "BLOCK_BYTES", 1000)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(WORDS.encode() * 100)))
    assert main(["report", "gpt2", "-"]) == 2
    assert "stdin holds more than 4,096 bytes" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(WORDS.encode() * 10)))
    assert main(["report", "gpt2", "-"]) == 0


@pytest.mark.parametrize("command", [["info"], ["check"], ["encode"], ["report"]])
def test_a_folder_as_the_tokenizer_gets_a_sentence(
    tmp_path: Path, text: Path, command: list[str]
) -> None:
    args: list[str | Path] = [*command, tmp_path]
    args += [text] if command[0] in ("encode", "report") else []
    stderr = one_error_line(run(*args), 2 if command == ["report"] else 1)
    assert f"{tmp_path} is a folder; give a tokenizer file in it" in stderr
    assert "Errno" not in stderr


def test_a_folder_or_missing_file_to_train_on(tmp_path: Path) -> None:
    out = tmp_path / "o"
    stderr = one_error_line(run("train", tmp_path, "--vocab-size", "300", "--output", out))
    assert f"{tmp_path} is a folder; give the text files in it" in stderr
    missing = tmp_path / "missing.txt"
    stderr = one_error_line(run("train", missing, "--vocab-size", "300", "--output", out))
    assert f"cannot open {missing}: no such file" in stderr


UNREADABLE = Path("/proc/sys/vm/drop_caches")  # mode 0200: even root may not read it


@pytest.mark.skipif(
    not UNREADABLE.exists() or os.access(UNREADABLE, os.R_OK), reason="needs a file nobody reads"
)
@pytest.mark.parametrize(
    "args",
    [["info", UNREADABLE], ["encode", "gpt2", UNREADABLE], ["train", UNREADABLE], ["report"]],
)
def test_a_file_without_permission_gets_a_sentence(tmp_path: Path, args: list[str | Path]) -> None:
    if args[0] == "train":
        args += ["--vocab-size", "300", "--output", str(tmp_path / "o")]
    if args == ["report"]:
        args += ["gpt2", str(UNREADABLE)]
    stderr = one_error_line(run(*args), 2 if args[0] == "report" else 1)
    assert f"cannot open {UNREADABLE}: you have no permission to read it" in stderr


@pytest.mark.parametrize("workers", ["300", "1000000000"])
def test_workers_past_the_cores_are_capped_with_a_note(text: Path, workers: str) -> None:
    out = text.parent / f"w{workers}"
    done = run("train", text, "--vocab-size", "270", "--workers", workers, "--output", out)
    stderr = done.stderr.decode()
    assert done.returncode == 0, stderr
    cores = usable_cores()
    assert stderr.startswith(
        f"note: --workers {int(workers):,} is more than the {cores} cores this machine gives "
        f"this command; using {cores}\n"
    )
    assert Path(f"{out}.model").is_file()


def test_a_billion_workers_plan_parts_no_smaller_than_the_least() -> None:
    size = 100 * MIN_PART_BYTES
    bounds = part_bounds(size, 10**9)
    assert len(bounds) == 99 and bounds == sorted(set(bounds))
    assert min(b - a for a, b in zip([0, *bounds], [*bounds, size])) >= MIN_PART_BYTES


def test_the_engine_takes_a_billion_workers_as_the_cores(tmp_path: Path) -> None:
    path = tmp_path / "text.txt"
    path.write_text(WORDS * 20_000, encoding="utf-8")  # 1.6 MB: counted in parts
    many = train_files([path], 300, workers=10**9).tokenizer.merges
    assert many == train_files([path], 300, workers=1).tokenizer.merges


# --- children end with their parent -------------------------------------------------------


def children_of(pid: int) -> set[int]:
    """The processes whose parent is `pid`, from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and parent_and_state(int(entry.name))[0] == pid:
            found.add(int(entry.name))
    return found


def parent_and_state(pid: int) -> tuple[int, str]:
    """(parent pid, state letter) of a process; (0, "gone") once it has ended."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0, "gone"
    fields = stat[stat.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
    return int(fields[1]), fields[0]


def alive(pid: int) -> bool:
    """Running or asleep: not ended, and not a zombie waiting to be reaped."""
    return parent_and_state(pid)[1] not in ("gone", "Z", "X")


def kill_once_children_run(args: list[str | Path], seconds: float = 60) -> set[int]:
    """Start the command, wait (bounded) until it has a child, kill -9 it; the children."""
    command = subprocess.Popen(
        [sys.executable, "-m", "explorer", *map(str, args)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + seconds
        children: set[int] = set()
        while not children and command.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
            children = {c for c in children_of(command.pid) if alive(c)}
        assert children, "the command never started a second process"
        time.sleep(0.3)  # the children are at work
        command.send_signal(signal.SIGKILL)
        command.wait(timeout=10)
        return children
    finally:
        if command.poll() is None:
            command.kill()
            command.wait(timeout=10)


def still_alive_after(children: set[int], seconds: float = 5) -> set[int]:
    """Those of `children` still alive after up to `seconds` (polled every 50 ms)."""
    deadline = time.monotonic() + seconds
    left = {c for c in children if alive(c)}
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = {c for c in left if alive(c)}
    for pid in left:  # leave nothing behind, whatever the test says
        os.kill(pid, signal.SIGKILL)
    return left


@pytest.fixture(scope="module")
def big_text(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """16 MB of words: long enough that a second process is at work when the first is killed."""
    path = tmp_path_factory.mktemp("big") / "big.txt"
    numbered = "".join(f"{n} {WORDS}" for n in range(200_000))
    with path.open("w", encoding="utf-8") as handle:
        while handle.tell() < 16 << 20:
            handle.write(numbered)
    return path


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.skipif(usable_cores() < 2, reason="one core: train starts no worker")
def test_train_workers_end_when_train_is_killed(big_text: Path) -> None:
    args: list[str | Path] = ["train", big_text, "--vocab-size", "300", "--workers", "2"]
    children = kill_once_children_run([*args, "--output", big_text.parent / "t"])
    assert still_alive_after(children) == set()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_encodes_second_process_ends_when_encode_is_killed(big_text: Path) -> None:
    children = kill_once_children_run(["encode", "gpt2", big_text])
    assert still_alive_after(children) == set()


# --- report --sizes all holds one file's rows at most ----------------------------------


def peak_rss_kb(args: list[str | Path], out: Path, seconds: float = 300) -> int:
    """The command's peak resident memory in KB (from wait4), its stdout sent to `out`."""
    with out.open("wb") as sink:
        command = subprocess.Popen(
            [sys.executable, "-m", "explorer", *map(str, args)],
            cwd=ROOT,
            stdout=sink,
            stderr=subprocess.DEVNULL,
        )
    timer = threading.Timer(seconds, command.kill)
    timer.start()
    try:
        _, status, usage = os.wait4(command.pid, 0)
    finally:
        timer.cancel()
    command.returncode = os.waitstatus_to_exitcode(status)
    assert command.returncode == 0
    return usage.ru_maxrss


@pytest.mark.skipif(not hasattr(os, "wait4"), reason="needs wait4 for one process's peak memory")
def test_report_sizes_all_does_not_grow_with_the_files(tmp_path: Path) -> None:
    text = tmp_path / "text.txt"
    text.write_text(WORDS * 300, encoding="utf-8")
    report: list[str | Path] = ["report", "gpt2", "--sizes", "all", "--format", "json"]
    one = peak_rss_kb([*report, text], tmp_path / "one.json")
    four = peak_rss_kb([*report, text, text, text, text], tmp_path / "four.json")
    # before: each file's 50,001 rows held as dicts, about 120 MB a file for gpt2
    assert four - one < 40_000, (one, four)
    assert (tmp_path / "four.json").stat().st_size > 3.9 * (tmp_path / "one.json").stat().st_size


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_streamed_rows_start_below_the_progress_line(
    text: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["report", "gpt2", str(text), str(text), "--sizes", "300", "--format", "csv"]) == 0
    bars = terminal.getvalue()
    assert bars.startswith("\rencoding  [") and bars.count("\n") == 2  # ended before each file
    assert capsys.readouterr().out.count(str(text)) == 2
