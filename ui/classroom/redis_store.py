"""Classes kept in Redis, so several server processes (or machines) share them.

The same operations and rules as the memory store (store.py, rules.py); what differs is
where a class lives and how a change stays whole when processes race:

- Every key starts with the prefix (`bpe:`). A class's keys carry its join code, and only
  a code that `codes.is_code` accepts (five letters of a fixed alphabet) ever reaches a
  key: any other text is "no such class". Seat tokens and nicknames are hash fields and
  values, never key names; no user text is ever part of a Lua script (the scripts are
  constants below).
- `bpe:class:CODE:version` (a number: one GET is a student's poll), `:room` (a hash of
  the class's fields), `:students` (seat -> JSON), `:answers` (seat -> option, for the
  open question) and `:seen` (seat -> when its page last checked); `bpe:classes`, the set
  of codes. A class's keys expire together IDLE_SECONDS after its last activity (every
  change sets their TTL again), so an idle class ends by key expiry; the set of codes is
  pruned of codes whose class expired.
- A change reads the class under WATCH, applies one rule of rules.py, and writes only
  what changed in MULTI/EXEC; a change by another process meanwhile makes it start again.
  The hot paths are single Lua scripts: a seat's poll, and an answer (HSETNX: one answer
  per seat however many processes race). Presence (`:seen`) is written outside the
  watched keys, so sixty polls a second do not make a teacher's step start again, and at
  most every SEEN_EVERY_SECONDS a seat: most polls write nothing (nothing to fsync).
- Redis out of reach: every operation raises `ClassesUnavailable` (one sentence for the
  page), after at most one short attempt; for RETRY_SECONDS after a failure operations
  fail at once without trying. The client reconnects by itself when Redis is back.

The keys, the scripts and a record's fields are redis_records.py's.
"""

from __future__ import annotations

import functools
import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from ui.classroom import codes, rules, seats
from ui.classroom.model import (
    ClassRecord,
    ClassView,
    Place,
    RosterRow,
    Seat,
    Tally,
)
from ui.classroom.redis_records import (
    ANSWER,
    READ,
    SEEN,
    SET_IF_LIVE,
    Fields,
    class_keys,
    fields_of,
    has_password,
    question_of,
    record_of,
    redacted,
)
from ui.classroom.rules import ClassError, ClassesUnavailable, Limits, Teacher
from ui.classroom.shown import view_of
from ui.session import run_store

__all__ = ["PREFIX", "RedisClassStore", "connect", "has_password", "redacted"]

PREFIX = "bpe:"
PINS_OWNER = "classes"
RETRY_SECONDS = 2.0  # after Redis did not answer, fail at once for this long
MAX_TRIES = 200  # a change that other processes' changes keep interrupting gives up
SOCKET_SECONDS = 2.0
# a seat's poll writes `seen` at most this often (who is here counts 30 s: PRESENT_SECONDS),
# so sixty students polling every 0.75 s are 12 writes a second, not 80
SEEN_EVERY_SECONDS = 5.0
PINS_CHECK_SECONDS = 5.0
# a class's view, read whole, serves this process's pages while its version stands, for
# this long: sixty students who see a new version within a second cost one read of the
# class, not sixty; what changes without a new version (how many joined or are here, a
# new nickname) is at most this late. A change through this store forgets it at once.
VIEW_FRESH_SECONDS = 1.0

log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")


def connect(url: str) -> redis.Redis:
    """A client for the URL: short timeouts and one try, so a page waits little on an
    outage (the store says so instead)."""
    return redis.Redis.from_url(
        url,
        decode_responses=True,
        socket_timeout=SOCKET_SECONDS,
        socket_connect_timeout=SOCKET_SECONDS,
        retry=Retry(NoBackoff(), 0),
        health_check_interval=15,
    )


def reaching(method: Callable[P, T]) -> Callable[P, T]:
    """A store operation: Redis errors become one `ClassesUnavailable` (and a log line
    that names the error, never the password); after one, fail fast for a while."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        store = args[0]
        assert isinstance(store, RedisClassStore)
        if time.monotonic() < store.down_until:
            raise ClassesUnavailable()
        try:
            return method(*args, **kwargs)
        except redis.RedisError as exc:
            store.down_until = time.monotonic() + RETRY_SECONDS
            log.warning("the classes' Redis does not answer: %s", type(exc).__name__)
            raise ClassesUnavailable() from None

    return wrapper


class RedisClassStore:
    """Every class of every process that shares this Redis (see the module docstring)."""

    def __init__(
        self,
        client: redis.Redis,
        *,
        prefix: str = PREFIX,
        runs_folder: Path | None = None,
        clock: Callable[[], float] = time.time,
        limits: Limits | None = None,
    ) -> None:
        self._redis = client
        self._prefix = prefix
        self._index = f"{prefix}classes"
        self._runs_folder = runs_folder
        self._clock = clock
        self.limits = limits or Limits()
        self.down_until = float("-inf")
        self._pins_checked = float("-inf")
        self._pins_lock = threading.Lock()
        self._views: dict[str, tuple[int, float, ClassView]] = {}  # code: version, when, view
        self._views_lock = threading.Lock()
        self._read = client.register_script(READ)
        self._seen = client.register_script(SEEN)
        self._answer = client.register_script(ANSWER)
        self._set_if_live = client.register_script(SET_IF_LIVE)

    @property
    def max_classes(self) -> int:
        return self.limits.max_classes

    @property
    def max_students(self) -> int:
        return self.limits.max_students

    # --- anyone ---------------------------------------------------------------------

    @reaching
    def version(self, code: str, seat: str | None = None) -> int | None:
        """The class's version, or None (no such class, or no such seat in it): one GET;
        with a seat, one script that also marks the seat as here."""
        if not codes.is_code(code):
            return None
        keys = class_keys(self._prefix, code)
        if seat is None:
            found = self._redis.get(keys[0])
        else:
            args: list[str | float] = [seat, repr(self._clock()), SEEN_EVERY_SECONDS]
            found = self._seen(keys=[keys[0], keys[2], keys[4]], args=args)
        return None if found is None else int(found)

    @reaching
    def view(self, code: str) -> ClassView | None:
        """What every member may see: one GET while this process read it lately at this
        version (VIEW_FRESH_SECONDS), else the whole class read once."""
        if not codes.is_code(code):
            return None
        version = self._redis.get(class_keys(self._prefix, code)[0])
        if version is None:
            return None
        now = time.monotonic()
        with self._views_lock:
            kept = self._views.get(code)
        if kept is not None and kept[0] == int(version) and now - kept[1] < VIEW_FRESH_SECONDS:
            return kept[2]
        room = self._load(code)
        if room is None:
            return None
        view = view_of(room, self._clock() - rules.PRESENT_SECONDS)
        with self._views_lock:
            if len(self._views) > 4 * self.limits.max_classes:  # classes that ended
                self._views.clear()
            self._views[code] = (view.version, now, view)
        return view

    def _forget_view(self, code: str) -> None:
        with self._views_lock:
            self._views.pop(code, None)

    @reaching
    def hidden_steps(self, teaches: str | None, seat: Seat | None) -> dict[str, int]:
        """As the memory store's: the runs' steps the open questions hide from a session."""
        codes_ = sorted(self._codes())
        with self._redis.pipeline(transaction=False) as pipe:
            for code in codes_:
                pipe.hmget(class_keys(self._prefix, code)[1], "run_key", "question", "revealed")
            if seat is not None and codes.is_code(seat.code):
                pipe.hexists(class_keys(self._prefix, seat.code)[3], seat.seat)
            replies = pipe.execute()
        answered = bool(replies.pop()) if seat is not None and codes.is_code(seat.code) else False
        questions = []
        gone = []
        for code, (run_key, question, revealed) in zip(codes_, replies, strict=True):
            if run_key is None:
                gone.append(code)
                continue
            record = question_of(question, revealed, {})
            if record is not None and seat is not None and seat.code == code and answered:
                record.answers[seat.seat] = 0
            questions.append((code, run_key, record))
        if gone:
            self._redis.srem(self._index, *gone)
        self._check_pins({run_key for _, run_key, _ in questions})
        return rules.hidden_steps(questions, teaches, seat)

    # --- the teacher ----------------------------------------------------------------

    @reaching
    def start(
        self, run_key: str, run_name: str, place: Place | None = None, *, client: str = ""
    ) -> Teacher:
        """A new class; ClassError as the memory store's (several processes starting at
        once count each other's classes: the set of codes is watched)."""
        secret = codes.new_secret()
        for _ in range(MAX_TRIES):
            with self._redis.pipeline() as pipe:
                try:
                    pipe.watch(self._index)  # type: ignore[no-untyped-call]
                    members = {str(code) for code in pipe.smembers(self._index)}
                    rooms = self._rooms(members)
                    now = self._clock()
                    gives_way = rules.make_room(rooms, client, self.limits, now)
                    code = codes.new_code(members)
                    room = rules.new_room(code, secret, run_key, run_name, place, client, now)
                    pipe.multi()
                    if gives_way is not None:
                        log.info("class %s ended: no teacher for 10 minutes", gives_way)
                        self._delete(pipe, gives_way)
                    expired = members - set(rooms)  # their keys' TTL ran out
                    if expired:
                        pipe.srem(self._index, *expired)
                    pipe.sadd(self._index, code)
                    self._write(pipe, None, room, None)
                    pipe.execute()
                except redis.WatchError:
                    _pause()
                    continue
            self._write_pins()
            return Teacher(code, secret)
        raise ClassError("the classes are too busy just now; try again in a moment")

    @reaching
    def is_teacher(self, code: str, secret: object) -> bool:
        if not codes.is_code(code):
            return False
        keys = class_keys(self._prefix, code)
        digest = self._redis.hget(keys[1], "digest")
        if digest is None or not codes.matches(secret, str(digest)):
            return False
        self._set_if_live(keys=keys[:2], args=["taught", repr(self._clock())])
        return True

    @reaching
    def move(self, code: str, secret: object, place: Place) -> bool:
        now = self._clock()
        return self._change(code, lambda room: rules.move(rules.teachers(room, secret), place, now))

    @reaching
    def ask(
        self,
        code: str,
        secret: object,
        step: int,
        labels: tuple[str, ...],
        *,
        winner: int,
        detail: dict[str, Any],
    ) -> None:
        rules.check_question(labels, winner)
        json.dumps(detail)  # subtle: what cannot be kept fails here, before any change
        now = self._clock()
        self._change(
            code,
            lambda room: rules.ask(rules.teachers(room, secret), step, labels, winner, detail, now),
        )

    @reaching
    def tally(self, code: str, secret: object) -> Tally | None:
        room = rules.teachers(self._load(code), secret)
        return seats.tally_of(room, self._clock() - rules.PRESENT_SECONDS)

    @reaching
    def roster(self, code: str, secret: object) -> tuple[RosterRow, ...]:
        room = rules.teachers(self._load(code), secret)
        return seats.roster_of(room, self._clock() - rules.PRESENT_SECONDS)

    @reaching
    def remove(self, code: str, secret: object, seat: str) -> bool:
        now = self._clock()
        return self._change(
            code, lambda room: rules.remove(rules.teachers(room, secret), seat, now)
        )

    @reaching
    def reveal(self, code: str, secret: object) -> None:
        now = self._clock()
        self._change(code, lambda room: rules.reveal(rules.teachers(room, secret), now))

    @reaching
    def show_scores(self, code: str, secret: object, shown: bool) -> None:
        now = self._clock()
        self._change(code, lambda room: rules.show_scores(rules.teachers(room, secret), shown, now))

    @reaching
    def end(self, code: str, secret: object) -> None:
        self._change(code, lambda room: rules.teachers(room, secret), ending=True)
        self._write_pins()

    # --- a student ------------------------------------------------------------------

    @reaching
    def join(
        self, code: str, nickname: str = "", seat: str | None = None, *, client: str = ""
    ) -> Seat:
        def take(room: ClassRecord | None) -> Seat:
            if room is None:
                raise ClassError(f"no class on this server has the code {code[:12]!r}")
            return rules.join(room, nickname, seat, client, self._clock(), self.limits)

        return self._change(code, take)

    def seated(self, code: str, seat: str) -> bool:
        return self.version(code, seat) is not None

    @reaching
    def leave(self, code: str, seat: str) -> None:
        if codes.is_code(code):
            keys = class_keys(self._prefix, code)
            self._seen(keys=[keys[0], keys[2], keys[4]], args=[seat, "0", 0])
            self._forget_view(code)

    @reaching
    def rename(self, code: str, seat: str, nickname: str) -> str | None:
        return self._change(
            code, lambda room: None if room is None else rules.rename(room, seat, nickname)
        )

    @reaching
    def answer(self, code: str, seat: str, option: int) -> bool:
        """One script: counted once per seat, whichever process asks first."""
        if not codes.is_code(code) or not isinstance(option, int):
            return False
        ttl = int(self.limits.idle_seconds * 1000)
        counted = self._answer(
            keys=list(class_keys(self._prefix, code)),
            args=[seat, option, repr(self._clock()), ttl],
        )
        self._forget_view(code)
        return bool(counted)

    @reaching
    def my_answer(self, code: str, seat: str) -> int | None:
        if not codes.is_code(code):
            return None
        found = self._redis.hget(class_keys(self._prefix, code)[3], seat)
        return None if found is None else int(found)

    # --- the operator ---------------------------------------------------------------

    @reaching
    def records(self) -> dict[str, ClassRecord]:
        """Every live class (for `python -m ui.classroom.admin list`)."""
        return self._rooms(self._codes())

    @reaching
    def close(self, code: str) -> bool:
        """End a class without its teacher's secret (the operator's `end`); False: none."""
        ended = self._change(code, lambda room: room is not None, ending=True)
        self._write_pins()
        return ended

    # --- inside -----------------------------------------------------------------------

    def _codes(self) -> set[str]:
        return {str(code) for code in self._redis.smembers(self._index) if codes.is_code(str(code))}

    def _load(self, code: str) -> ClassRecord | None:
        if not codes.is_code(code):
            return None
        raw = self._read(keys=list(class_keys(self._prefix, code)))
        return None if raw is None else record_of(code, raw)

    def _rooms(self, found: Iterable[str]) -> dict[str, ClassRecord]:
        """The live classes among these codes, read in one round trip."""
        wanted = sorted(code for code in found if codes.is_code(code))
        with self._redis.pipeline(transaction=False) as pipe:
            for code in wanted:
                self._read(keys=list(class_keys(self._prefix, code)), client=pipe)
            replies = pipe.execute()
        return {
            code: record_of(code, raw)
            for code, raw in zip(wanted, replies, strict=True)
            if raw is not None
        }

    def _change(
        self, code: str, rule: Callable[[ClassRecord | None], T], *, ending: bool = False
    ) -> T:
        """Apply a rule to the class in one transaction; again when another process
        changed the class meanwhile. `ending`: the class's keys go (if the rule returns)."""
        keys = class_keys(self._prefix, code) if codes.is_code(code) else None
        for _ in range(MAX_TRIES):
            with self._redis.pipeline() as pipe:
                try:
                    if keys is None:
                        return rule(None)
                    pipe.watch(*keys[:4])  # type: ignore[no-untyped-call]  # not :seen (polls)
                    raw = pipe.eval(READ, len(keys), *keys)
                    room = None if raw is None else record_of(code, raw)
                    before = None if room is None else fields_of(room)
                    result = rule(room)
                    pipe.multi()
                    if ending and room is not None:
                        self._delete(pipe, code)
                    elif room is not None:
                        self._write(pipe, before, room, int(raw[5]))
                    pipe.execute()
                    self._forget_view(code)  # this process's next view reads the change
                    return result
                except redis.WatchError:
                    _pause()
        raise ClassError("the class is too busy just now; try again in a moment")

    def _write(
        self, pipe: Any, before: Fields | None, room: ClassRecord, ttl_ms: int | None
    ) -> None:
        """Queue what changed between `before` and the room (all of it for a new class);
        a change others see, or a new class, sets every key's TTL again."""
        after = fields_of(room)
        keys = class_keys(self._prefix, room.code)
        old = before or Fields("", {}, {}, {}, {})
        if after.version != old.version:
            pipe.set(keys[0], after.version)
        for key, was, now in zip(keys[1:], old.hashes(), after.hashes(), strict=True):
            changed = {field: value for field, value in now.items() if was.get(field) != value}
            if changed:
                pipe.hset(key, mapping=changed)
            gone = [field for field in was if field not in now]
            if gone:
                pipe.hdel(key, *gone)
        active = before is None or after.room["last_active"] != old.room["last_active"]
        ttl = int(self.limits.idle_seconds * 1000) if active or ttl_ms is None else ttl_ms
        if ttl > 0:
            for key in keys:
                pipe.pexpire(key, ttl)

    def _delete(self, pipe: Any, code: str) -> None:
        pipe.delete(*class_keys(self._prefix, code))
        pipe.srem(self._index, code)

    def _write_pins(self) -> None:
        """Pin the live classes' runs in a run store this process shares (eviction leaves
        them); every process writes the same file from the same Redis."""
        if self._runs_folder is not None:
            keys = {room.run_key for room in self._rooms(self._codes()).values()}
            self._pin(keys)

    def _check_pins(self, keys: set[str]) -> None:
        """Now and then, the pins file set right (another process may have written an
        older set just after ours; a class expired by its keys' TTL)."""
        now = time.monotonic()
        if self._runs_folder is None or now - self._pins_checked < PINS_CHECK_SECONDS:
            return
        self._pins_checked = now
        self._pin(keys)

    def _pin(self, keys: set[str]) -> None:
        folder = self._runs_folder
        assert folder is not None
        keys = {key for key in keys if run_store.is_key(key)}
        with self._pins_lock:
            try:
                if run_store.pinned_keys_of(folder, PINS_OWNER) != keys:
                    run_store.write_pins(folder, PINS_OWNER, keys)
            except OSError as exc:
                log.warning("the classes' pins in %s could not be written: %s", folder, exc)


def _pause() -> None:
    time.sleep(random.uniform(0, 0.005))  # another process changed the class: try again
