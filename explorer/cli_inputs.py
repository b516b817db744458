"""What the command line reads, checked before it is read: regular files, stdin within a bound,
and a number of processes the machine has cores for.

A name is looked at with stat, which never opens it, so a FIFO with no writer cannot hold
the command and /dev/zero cannot feed it forever: only a regular file is read. A file's
size is known before it is read; stdin's is not, so stdin is read up to MAX_STDIN_BYTES.

    >>> text_file("/dev/null", "a text")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.cli_inputs.InputError: /dev/null is a device, not a file saved on disk; ...
    >>> workers_argument("1")
    1
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from explorer.base.forking import usable_cores
from explorer.files.limits import MAX_FILE_BYTES

MAX_STDIN_BYTES = 256 << 20  # encode holds ~22 bytes of memory per byte of text: ~6 GB here
_KINDS = (  # (stat test, what to call a name that is not a regular file)
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class InputError(ValueError):
    """A name on the command line that is not a file the command can read."""


def text_file(name: str, what: str, *, stdin_too: bool = False) -> Path:
    """`name` as a regular file to read `what` from, or an InputError that says what it is.

    `stdin_too`: the command also reads stdin, and the message says so.
    """
    try:
        status = os.stat(name)  # subtle: stat, not open, so a FIFO with no writer cannot block
    except FileNotFoundError:
        raise InputError(f"cannot open {name}: no such file") from None
    except PermissionError:
        raise InputError(no_permission(name)) from None
    except OSError as exc:
        raise InputError(f"cannot open {name}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(status.st_mode):
        raise InputError(f"{name} is a folder; give {what} in it")
    if not stat.S_ISREG(status.st_mode):
        kind = next((k for test, k in _KINDS if test(status.st_mode)), "not a regular file")
        pipe = ", or pipe it to this command's stdin" if stdin_too else ""
        raise InputError(
            f"{name} is {kind}, not a file saved on disk; ...se size is known "
            f"before it is read{pipe}"
        )
    if not os.access(name, os.R_OK):
        raise InputError(no_permission(name))
    return Path(name)


def tokenizer_file(name: str) -> Path:
    """`name` as a tokenizer file within MAX_FILE_BYTES, checked before it is read."""
    path = text_file(name, "a tokenizer file")
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise InputError(
            f"{name} is {size:,} bytes; a tokenizer file here is at most {MAX_FILE_BYTES:,} "
            "bytes (Gemma 3's tokenizer.json is 33 MB)"
        )
    return path


def read_input(name: str | None, what: str) -> tuple[bytes, str]:
    """The bytes of file `name`, or of stdin when it is None or "-", and a name for messages.

    >>> import io
    >>> read_stdin(io.BytesIO(b"12 13"), 5)
    b'12 13'
    """
    if name is None or name == "-":
        return read_stdin(sys.stdin.buffer), "stdin"
    try:
        return text_file(name, what, stdin_too=True).read_bytes(), name
    except PermissionError:
        raise InputError(no_permission(name)) from None


def no_permission(name: str) -> str:
    """The sentence for a file this user may not read."""
    return f"cannot open {name}: you have no permission to read it"


def read_stdin(stream: BinaryIO, limit: int = MAX_STDIN_BYTES) -> bytes:
    """All of `stream`, or an InputError once it holds more than `limit` bytes."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputError(stdin_too_long(limit))
    return data


def stdin_too_long(limit: int = MAX_STDIN_BYTES) -> str:
    """The sentence for stdin past its bound."""
    return (
        f"stdin holds more than {limit:,} bytes, the most read from stdin (whose size is "
        "not known before reading); save the text as a file and give its name"
    )


def workers_argument(text: str) -> int:
    """argparse type for --workers: a whole number of at least 1, capped at the cores.

    More processes than cores count no faster, and each costs memory; the cap is said in
    one line on stderr.
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes; give 1 or more")
    cores = usable_cores()
    if value > cores:
        sys.stderr.write(
            f"note: --workers {value:,} is more than the {cores} cores this machine gives "
            f"this command; using {cores}\n"
        )
        return cores
    return value
