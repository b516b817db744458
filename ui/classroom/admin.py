"""The operator's command line for a server's classes: list them, end one.

It reads the same `classes.json` the server writes beside its runs
(BPE_EXPLORER_RUNS_DIR, or `--runs-dir`), so it works with the server running or not:
`end` removes the class from the file and leaves a request the running server takes
within a second (ui/classroom/operator.py), so the class ends there too; its students
are told the class has ended and keep its tokenizer.

    python -m ui.classroom.admin list
    python -m ui.classroom.admin end K7MQ3

`list` says, per class, as of the last change the server wrote: its code, its students,
the address it was started from, when it last changed, and its tokenizer.

With BPE_EXPLORER_REDIS_URL set (several server processes share their classes in Redis,
ui/classroom/redis_store.py) and no `--runs-dir`, both act on that Redis instead: `end`
deletes the class's keys, and every process sees it ended at its next look.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ui.classroom import codes, operator, snapshot, stores
from ui.classroom.model import ClassRecord
from ui.classroom.rules import ClassesUnavailable
from ui.session import run_store


def classes_file(runs_dir: str | None) -> Path | None:
    """Where the server keeps its classes (None: the store is off, so nothing is kept)."""
    if runs_dir:
        return Path(runs_dir) / snapshot.FILE_NAME
    config = run_store.config_from_env()
    return config.folder / snapshot.FILE_NAME if config.enabled and config.folder else None


def read_classes(path: Path) -> dict[str, ClassRecord]:
    """The classes in the file ({} when there is none); ValueError for one that cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ValueError(f"{path} cannot be read: {exc.strerror or exc}") from None
    try:
        return snapshot.from_json(text)
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path} is not a classes file this app wrote ({exc})") from None


def ago(seconds: float) -> str:
    """
    >>> ago(4.2), ago(125), ago(7300)
    ('4 s ago', '2 min ago', '2.0 h ago')
    """
    if seconds < 60:
        return f"{seconds:.0f} s ago"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min ago"
    return f"{seconds / 3600:.1f} h ago"


def table(classes: dict[str, ClassRecord], now: float) -> list[str]:
    """One line per class, most recently changed first, under a header."""
    lines = [f"{'code':6} {'students':>8}  {'last change':12} {'started from':18} tokenizer"]
    for room in sorted(classes.values(), key=lambda room: -room.last_active):
        lines.append(
            f"{room.code:6} {len(room.students):>8,}  {ago(now - room.last_active):12} "
            f"{(room.client or 'not known')[:18]:18} {room.run_name[:60]}"
        )
    return lines


def end(path: Path, code: str) -> str:
    """End a class in the file and ask a running server to end it; what happened."""
    classes = read_classes(path)
    if code not in classes:
        return f"No class has the code {code} in {path}."
    del classes[code]
    snapshot.save(path, classes)
    operator.request_end(path.parent, code)
    return f"Class {code} ended (a running server ends it within a second)."


def in_redis(action: str, code: str, url: str) -> int:
    """`list` or `end` on the classes in Redis (the URL's password is never printed)."""
    from ui.classroom import redis_store

    store = redis_store.RedisClassStore(
        redis_store.connect(url),
        prefix=os.environ.get(stores.REDIS_PREFIX_VARIABLE, "").strip() or redis_store.PREFIX,
    )
    try:
        if action == "list":
            classes = store.records()
            print("\n".join(table(classes, time.time())) if classes else "No class in Redis.")
            return 0
        if store.close(code):
            print(f"Class {code} ended (every server process sees it at its next look).")
            return 0
    except ClassesUnavailable:
        print(
            f"Could not reach the classes' Redis at {redis_store.redacted(url)}.", file=sys.stderr
        )
        return 1
    print(f"No class has the code {code} in Redis.")
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ui.classroom.admin", description="List or end a server's classes."
    )
    parser.add_argument("--runs-dir", help="the server's runs folder (default as the app's)")
    actions = parser.add_subparsers(dest="action", required=True)
    actions.add_parser("list", help="every class, most recently changed first")
    ending = actions.add_parser("end", help="end one class")
    ending.add_argument("code", help="its join code")
    args = parser.parse_args(argv)
    code = codes.normalize_code(args.code) if args.action == "end" else ""
    if args.action == "end" and not codes.is_code(code):
        print(
            f"{args.code[:20]!r} is not a class code ({codes.CODE_LENGTH} letters).",
            file=sys.stderr,
        )
        return 2
    url = stores.redis_url(os.environ)
    if url is not None and not args.runs_dir:
        return in_redis(args.action, code, url)
    path = classes_file(args.runs_dir)
    if path is None:
        print(
            "The runs folder is off (BPE_EXPLORER_RUNS_DIR=off): the server keeps its "
            "classes in memory only.",
            file=sys.stderr,
        )
        return 1
    try:
        if args.action == "list":
            classes = read_classes(path)
            print("\n".join(table(classes, time.time())) if classes else f"No class in {path}.")
            return 0
        said = end(path, code)
    except (ValueError, OSError) as exc:
        print(f"Could not read the classes: {exc}", file=sys.stderr)
        return 1
    print(said)
    return 0 if said.startswith("Class") else 1


if __name__ == "__main__":
    raise SystemExit(main())
