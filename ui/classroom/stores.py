"""What a class store offers every page, and the one function that picks the store.

Two stores keep classes: `ClassStore` in this process's memory (the default: one server
process, its snapshot beside the runs), and `RedisClassStore` in Redis, which several
server processes share (scripts/run.sh --processes). Both follow ui/classroom/rules.py;
the pages see only `ClassStoreLike`. `BPE_EXPLORER_REDIS_URL`
(`redis://:PASSWORD@127.0.0.1:PORT/0`, or `unix:///path/redis.sock?password=...`) picks
Redis; unset or empty, memory, exactly as before it existed.

    >>> from_env({}, limits=Limits()).__class__.__name__
    'ClassStore'
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from ui.classroom.model import ClassView, Place, RosterRow, Seat, Tally
from ui.classroom.rules import Limits, Teacher
from ui.classroom.store import ClassStore

REDIS_URL_VARIABLE = "BPE_EXPLORER_REDIS_URL"
REDIS_PREFIX_VARIABLE = "BPE_EXPLORER_REDIS_PREFIX"

log = logging.getLogger(__name__)


class ClassStoreLike(Protocol):
    """A class store: ClassError (or NotTeacher) for what a class cannot do; a shared
    store also ClassesUnavailable while it is out of reach."""

    limits: Limits

    def version(self, code: str, seat: str | None = None) -> int | None: ...
    def view(self, code: str) -> ClassView | None: ...
    def hidden_steps(self, teaches: str | None, seat: Seat | None) -> dict[str, int]: ...
    def start(
        self, run_key: str, run_name: str, place: Place | None = None, *, client: str = ""
    ) -> Teacher: ...
    def is_teacher(self, code: str, secret: object) -> bool: ...
    def move(self, code: str, secret: object, place: Place) -> bool: ...
    def ask(
        self,
        code: str,
        secret: object,
        step: int,
        labels: tuple[str, ...],
        *,
        winner: int,
        detail: dict[str, Any],
    ) -> None: ...
    def tally(self, code: str, secret: object) -> Tally | None: ...
    def roster(self, code: str, secret: object) -> tuple[RosterRow, ...]: ...
    def remove(self, code: str, secret: object, seat: str) -> bool: ...
    def reveal(self, code: str, secret: object) -> None: ...
    def show_scores(self, code: str, secret: object, shown: bool) -> None: ...
    def end(self, code: str, secret: object) -> None: ...
    def join(
        self, code: str, nickname: str = "", seat: str | None = None, *, client: str = ""
    ) -> Seat: ...
    def seated(self, code: str, seat: str) -> bool: ...
    def leave(self, code: str, seat: str) -> None: ...
    def rename(self, code: str, seat: str, nickname: str) -> str | None: ...
    def answer(self, code: str, seat: str, option: int) -> bool: ...
    def my_answer(self, code: str, seat: str) -> int | None: ...


def redis_url(environ: Mapping[str, str]) -> str | None:
    """The Redis the classes live in (None: this process's memory)."""
    return environ.get(REDIS_URL_VARIABLE, "").strip() or None


def from_env(
    environ: Mapping[str, str],
    *,
    limits: Limits,
    snapshot_path: Path | None = None,
    runs_folder: Path | None = None,
) -> ClassStoreLike:
    """The store the environment asks for: Redis when BPE_EXPLORER_REDIS_URL names one
    (the runs it pins in `runs_folder`), else memory (its snapshot at `snapshot_path`)."""
    url = redis_url(environ)
    if url is None:
        return ClassStore(
            snapshot_path=snapshot_path,
            max_classes=limits.max_classes,
            max_students=limits.max_students,
            idle_seconds=limits.idle_seconds,
            classes_per_client=limits.classes_per_client,
            seats_per_client=limits.seats_per_client,
        )
    from ui.classroom import redis_store  # subtle: only a shared store needs the client

    if not redis_store.has_password(url):
        log.warning("%s names a Redis without a password: give it one", REDIS_URL_VARIABLE)
    prefix = environ.get(REDIS_PREFIX_VARIABLE, "").strip() or redis_store.PREFIX
    return redis_store.RedisClassStore(
        redis_store.connect(url), prefix=prefix, runs_folder=runs_folder, limits=limits
    )
