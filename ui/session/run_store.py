"""Runs kept on the server's disk, so a link or a reload finds its tokenizer again.

No Streamlit here: plain functions over a folder, tested directly. One file per run,
`<key>.run`, named by a content hash of the run's settings and documents (`RunSpec.store_key`):

    bpe-merge-explorer-run 1 <sha256 of the body> <body length in bytes>
    {"spec": {...}, "documents": [...], "model": "...", "history": "..."}

A file is written under a temporary name (`.<key>.<writer>.tmp`) and renamed when complete,
so a reader sees a whole run or none; a file whose header does not match its body (a
disk that filled up, a copy cut short) is reported as damaged and removed, and the other
runs stay. When the folder grows past its cap, the runs read least recently go first
(a read touches the file), except a run something pinned: `<owner>.pins` in the folder
lists keys that stay (a live class's run, ui/classroom/store.py), even past the cap.

Several server processes may share one folder (scripts/run.sh --processes: a link opened
on any process finds its run). Each writer has its own temporary name, so saves stay
atomic; and the steps that change which runs the folder holds (a run renamed into place
and the eviction after it, pins written) take the folder's lock first (`fcntl.flock` on
the folder itself, shared by every process on this machine), so two writers never evict
for each other: after every save the folder is under its cap, and no more was removed
than the cap asked. Reads take no lock: a run evicted meanwhile is a run not found.

The folder and its caps come from the environment (`config_from_env`):
BPE_EXPLORER_RUNS_DIR (default `<repo>/.runs`; `off` switches the store off),
BPE_EXPLORER_RUNS_MB (default 500; `0` switches it off too) and BPE_EXPLORER_RUN_MB, what
one run's file may take (default a tenth of the folder's cap). A run larger than that is
not kept (`RunTooLarge`): saving it evicts nobody, and the folder stays under its cap after
every save.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from explorer.base.numbers import whole_number_or_none

DEFAULT_FOLDER = Path(__file__).resolve().parents[2] / ".runs"
DEFAULT_CAP_MB = 500
DIR_VARIABLE = "BPE_EXPLORER_RUNS_DIR"
CAP_VARIABLE = "BPE_EXPLORER_RUNS_MB"
RUN_CAP_VARIABLE = "BPE_EXPLORER_RUN_MB"
RUN_SHARE = 10  # by default one run's file may take a tenth of the folder's cap
# a test hook: while the file this names exists, a save waits between writing its
# temporary file and renaming it (the browser suite kills the server there)
PAUSE_VARIABLE = "BPE_EXPLORER_RUNS_TEST_PAUSE_FILE"
PAUSE_LIMIT_SECONDS = 300
STALE_TEMP_SECONDS = 3600  # a temporary file this old was left by a writer that died

MAGIC = "bpe-merge-explorer-run"
VERSION = 1
SUFFIX = ".run"
PINS_SUFFIX = ".pins"
KEY = re.compile(r"[0-9a-f]{16}")

log = logging.getLogger(__name__)


class StoreError(ValueError):
    """A stored run that cannot be read back: the message says what is wrong with it."""


class TooLargeToRead(StoreError):
    """A stored file larger than one run may take (kept before there was a cap): removed."""


class RunTooLarge(Exception):
    """A run whose file would be larger than one run may take: not kept, nobody evicted."""

    def __init__(self, size_bytes: int, cap_bytes: int, *, at_least: bool = False) -> None:
        super().__init__(
            f"its file would take {'at least ' if at_least else ''}{size_bytes / 1e6:,.1f} "
            f"MB; one run may take {cap_bytes / 1e6:,.1f} MB on this server"
        )
        self.size_bytes = size_bytes
        self.cap_bytes = cap_bytes


@dataclass(frozen=True)
class StoreConfig:
    """Where runs are kept and how much room they may take; folder None: not kept.

    `run_cap_bytes` is what one run's file may take (None: a tenth of the cap); never more
    than the cap, so keeping one run can always stay under it.

    >>> StoreConfig(None, 500_000_000).largest_run, StoreConfig(None, 10, 99).largest_run
    (50000000, 10)
    """

    folder: Path | None
    cap_bytes: int
    run_cap_bytes: int | None = None

    @property
    def enabled(self) -> bool:
        return self.folder is not None and self.cap_bytes > 0

    @property
    def largest_run(self) -> int:
        """The most bytes one run's file may take."""
        share = self.cap_bytes // RUN_SHARE if self.run_cap_bytes is None else self.run_cap_bytes
        return max(0, min(self.cap_bytes, share))


@dataclass(frozen=True)
class StoredRun:
    """What a file holds: the spec's fields, the documents, and the trained results
    (the .model text and the history JSON) when the run was trained here."""

    spec: dict[str, object]
    documents: tuple[str, ...]
    model: str | None = None
    history: str | None = None


def config_from_env(environ: Mapping[str, str] = os.environ) -> StoreConfig:
    """The store's folder and cap from the environment.

    >>> config_from_env({"BPE_EXPLORER_RUNS_DIR": "off"}).enabled
    False
    >>> config_from_env({"BPE_EXPLORER_RUNS_DIR": "/tmp/r", "BPE_EXPLORER_RUNS_MB": "2"})
    StoreConfig(folder=PosixPath('/tmp/r'), cap_bytes=2000000, run_cap_bytes=None)
    >>> config_from_env({"BPE_EXPLORER_RUN_MB": "1"}).largest_run
    1000000
    """
    where = environ.get(DIR_VARIABLE, "").strip()
    folder = None if where.lower() in ("off", "none", "0") else Path(where or DEFAULT_FOLDER)
    cap_mb = _megabytes(environ, CAP_VARIABLE, DEFAULT_CAP_MB)
    run_cap_mb = _megabytes(environ, RUN_CAP_VARIABLE, None)
    run_cap = None if run_cap_mb is None else max(0, int(run_cap_mb * 1_000_000))
    return StoreConfig(folder, max(0, int((cap_mb or 0) * 1_000_000)), run_cap)


def _megabytes(environ: Mapping[str, str], name: str, default: float | None) -> float | None:
    """A size in MB from the environment (default when unset or not a finite number)."""
    text = environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")):  # NaN or infinite
        log.warning("%s is not a number; using %s MB", name, default)
        return default
    return value


def is_key(text: str) -> bool:
    """Whether text can be a run's key (so a URL can never name another path)."""
    return KEY.fullmatch(text) is not None


def path_of(folder: Path, key: str) -> Path:
    if not is_key(key):
        raise StoreError(f"{key!r} is not a run key (16 hexadecimal digits)")
    return folder / f"{key}{SUFFIX}"


def encode(run: StoredRun) -> bytes:
    """A run as the bytes of its file: the checked header line, then the JSON body."""
    body = json.dumps(
        {
            "spec": run.spec,
            "documents": list(run.documents),
            "model": run.model,
            "history": run.history,
        },
        ensure_ascii=False,
    ).encode("utf-8", "surrogatepass")
    header = f"{MAGIC} {VERSION} {hashlib.sha256(body).hexdigest()} {len(body)}\n"
    return header.encode("ascii") + body


def decode(data: bytes) -> StoredRun:
    """A file's bytes as a run; StoreError when the header and the body disagree."""
    header, newline, body = data.partition(b"\n")
    fields = header.decode("ascii", "replace").split()
    if not newline or len(fields) != 4 or fields[0] != MAGIC:
        raise StoreError("it does not start with the run header (written only in part?)")
    if fields[1] != str(VERSION):
        raise StoreError(f"it is version {fields[1]}; this app reads version {VERSION}")
    if whole_number_or_none(fields[3], 0, 10**18) != len(body):  # not "²": int() refuses it
        raise StoreError(f"it holds {len(body):,} of {fields[3][:20]} bytes (written only in part)")
    if hashlib.sha256(body).hexdigest() != fields[2]:
        raise StoreError("its contents do not match their checksum (damaged on disk)")
    try:
        data_ = json.loads(body.decode("utf-8", "surrogatepass"))
        documents = tuple(str(text) for text in data_["documents"])
        return StoredRun(dict(data_["spec"]), documents, data_["model"], data_["history"])
    except (ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"its contents cannot be read ({exc})") from None


def least_size(run: StoredRun) -> int:
    """Bytes a run's file takes at least: each text's characters (UTF-8 and JSON's escapes
    only add), counted without encoding anything.

    >>> least_size(StoredRun({"name": "x"}, ("abc",), "minbpe v1", None))
    12
    """
    texts = [*run.documents, run.model or "", run.history or ""]
    return sum(map(len, texts))


def save(config: StoreConfig, key: str, run: StoredRun) -> bool:
    """Keep a run (once: a run already there is only touched); False when the store is off.

    Raises RunTooLarge (nothing written, nothing evicted) when its file would be larger
    than one run may take, found before the file's bytes are built when its texts alone
    are, and OSError when the disk refuses (full, read-only); nothing half-written stays.
    After a save the folder is under its cap.
    """
    if not config.enabled or config.folder is None:
        return False
    path = path_of(config.folder, key)
    if has(config, key):
        return True
    least = least_size(run)
    if least > config.largest_run:  # subtle: encode() would hold the JSON and its bytes
        raise RunTooLarge(least, config.largest_run, at_least=True)
    data = encode(run)
    if len(data) > config.largest_run:
        raise RunTooLarge(len(data), config.largest_run)
    config.folder.mkdir(parents=True, exist_ok=True)
    # one name per writer: two sessions of one server may save the same run at once
    temporary = config.folder / f".{key}.{os.getpid()}-{threading.get_ident()}.tmp"
    try:
        with temporary.open("wb") as sink:
            sink.write(data)
            sink.flush()
            os.fsync(sink.fileno())
        _pause_for_tests()
        with folder_lock(config.folder):
            os.replace(temporary, path)
            evict(config.folder, config.cap_bytes, keep=path, locked=True)
    finally:
        temporary.unlink(missing_ok=True)
    return True


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """The folder's lock, shared by every process of this machine that keeps runs in it
    (an flock on the folder itself: no lock file to leave behind or to evict).

    >>> import tempfile
    >>> with folder_lock(Path(tempfile.mkdtemp())):
    ...     pass
    """
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def has(config: StoreConfig, key: str) -> bool:
    """Whether the run is kept (and, if so, mark it as just used): saving it again is moot."""
    if not config.enabled or config.folder is None or not is_key(key):
        return False
    path = path_of(config.folder, key)
    if not path.exists():
        return False
    _touch(path)
    return True


def load(config: StoreConfig, key: str) -> StoredRun | None:
    """The run kept under key, or None; StoreError (and the file removed) when damaged, or
    when larger than one run may take (a file kept before there was a cap: reading it
    would take that much memory for every link to it)."""
    if not config.enabled or config.folder is None or not is_key(key):
        return None
    path = path_of(config.folder, key)
    try:
        size = path.stat().st_size
        if size > config.largest_run:
            path.unlink(missing_ok=True)
            log.warning("removed the run file %s: %s", path, RunTooLarge(size, config.largest_run))
            raise TooLargeToRead(f"{RunTooLarge(size, config.largest_run)}, so it was removed")
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        run = decode(data)
    except StoreError as exc:
        log.warning("skipping the damaged run file %s: %s", path, exc)
        path.unlink(missing_ok=True)
        raise
    _touch(path)
    return run


def write_pins(folder: Path, owner: str, keys: set[str]) -> None:
    """Pin these runs (`<owner>.pins`, replacing that owner's earlier pins): eviction
    leaves them, whatever the cap. No keys removes the file.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_pins(folder, "classes", {"0123456789abcdef"}); pinned_keys(folder)
    {'0123456789abcdef'}
    >>> write_pins(folder, "classes", set()); pinned_keys(folder)
    set()
    """
    path = folder / f"{owner}{PINS_SUFFIX}"
    if not keys:
        path.unlink(missing_ok=True)
        return
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / f".{owner}.{os.getpid()}-{threading.get_ident()}.tmp"
    try:
        temporary.write_text("".join(f"{key}\n" for key in sorted(keys)), encoding="ascii")
        with folder_lock(folder):  # an eviction reads the pins whole, before or after
            os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def pinned_keys_of(folder: Path, owner: str) -> set[str]:
    """The keys one owner pinned (an empty set when it pinned none)."""
    try:
        text = (folder / f"{owner}{PINS_SUFFIX}").read_text("ascii")
    except (OSError, UnicodeDecodeError):
        return set()
    return {line for line in text.split() if is_key(line)}


def pinned_keys(folder: Path) -> set[str]:
    """Every key some owner pinned in the folder (lines that are not keys are ignored)."""
    keys: set[str] = set()
    for path in folder.glob(f"*{PINS_SUFFIX}"):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            keys.update(line for line in path.read_text("ascii").split() if is_key(line))
    return keys


def evict(
    folder: Path, cap_bytes: int, keep: Path | None = None, *, locked: bool = False
) -> list[str]:
    """Remove the runs read least recently until the folder is under the cap; their keys.

    `keep` (the run just written) goes last: only when it alone is larger than the cap
    (which `save` never writes), so the cap always holds. A pinned run (`write_pins`)
    never goes: pinned runs may hold the folder over its cap while they are pinned.
    Temporary files of writers that died are removed too. Under the folder's lock
    (`locked`: the caller holds it already), so two processes never evict at once.
    """
    if not locked:
        with folder_lock(folder):
            return evict(folder, cap_bytes, keep, locked=True)
    pinned = pinned_keys(folder)
    runs = []
    for path in folder.iterdir():
        try:
            stat = path.stat()
        except FileNotFoundError:  # another process removed it meanwhile
            continue
        if path.suffix == ".tmp" and time.time() - stat.st_mtime > STALE_TEMP_SECONDS:
            path.unlink(missing_ok=True)
        elif path.suffix == SUFFIX:
            runs.append((path != keep, stat.st_mtime, stat.st_size, path))
    total = sum(size for _, _, size, _ in runs)
    removed = []
    for _, _, size, path in sorted(runs, key=lambda run: (not run[0], run[1])):
        if total <= cap_bytes:
            break
        if path.stem in pinned:
            continue
        path.unlink(missing_ok=True)
        total -= size
        removed.append(path.stem)
    return removed


def _touch(path: Path) -> None:
    """Mark a run as just used (eviction goes by the time a file was last read)."""
    with contextlib.suppress(OSError):  # read-only or removed meanwhile: only an order
        os.utime(path)


def _pause_for_tests() -> None:
    flag = os.environ.get(PAUSE_VARIABLE)
    deadline = time.monotonic() + PAUSE_LIMIT_SECONDS
    while flag and Path(flag).exists() and time.monotonic() < deadline:
        time.sleep(0.1)
