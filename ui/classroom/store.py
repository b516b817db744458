"""Classes, their students and answers, in this process's memory (no Streamlit here).

The rules of every change are ui/classroom/rules.py's, which the Redis store
(redis_store.py, for several server processes) follows too; ui/classroom/stores.py says
what both offer and picks one. One `ClassStore` per server process, shared by every
session (ui/classroom/session.py makes it). It is thread-safe (one lock: every session's
script thread calls it), bounded (MAX_CLASSES classes, MAX_STUDENTS students a class,
nicknames of MAX_NICKNAME characters) and forgetful: a class ends when its teacher ends it
or after IDLE_SECONDS without anyone doing anything in it. With a snapshot path it writes
every change to one small JSON file (snapshot.py), and a new store on the same path (a
restarted server) has the classes back; it pins its classes' runs in the run store (no
eviction while a class lives), and ends a class the operator asked to end (operator.py,
`python -m ui.classroom.admin end CODE`).

So that no one visitor holds the server's classes or a class's seats, each start and join
names its client (the address it came from): one client teaches at most
CLASSES_PER_CLIENT classes and holds at most SEATS_PER_CLIENT seats in a class; when the
server is full, a class whose teacher's page has not shown it for UNTAUGHT_SECONDS gives
its place to a new one; a client that comes back without its seat token (the QR code
scanned again) gets back its seat that no page holds now; the teacher sees every seat
(`roster`) and can remove one, its answers and score with it.

Only the teacher's secret moves a class, opens or reveals a question, or sees the live
count; a student's seat token gives one answer per question, their own. What anyone else
gets is a `ClassView`, which has no answer in it before the reveal.

    >>> now = [0.0]
    >>> store = ClassStore(clock=lambda: now[0])
    >>> teacher = store.start("0123456789abcdef", "Shakespeare")
    >>> ada = store.join(teacher.code, "Ada")
    >>> store.move(teacher.code, teacher.secret, Place(step=3))
    True
    >>> store.view(teacher.code).place.step, store.version(teacher.code)
    (3, 2)
    >>> store.ask(teacher.code, teacher.secret, 3, ("ab", "cd"), winner=1, detail={})
    >>> store.answer(teacher.code, ada.seat, 1), store.answer(teacher.code, ada.seat, 0)
    (True, False)
    >>> store.view(teacher.code).question.counts is None  # hidden until the reveal
    True
    >>> store.reveal(teacher.code, teacher.secret); store.view(teacher.code).question.counts
    (0, 1)
    >>> now[0] += IDLE_SECONDS + 1; store.version(teacher.code) is None
    True
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ui.classroom import codes, operator, rules, seats, snapshot
from ui.classroom.model import ClassRecord, ClassView, Place, RosterRow, Seat, Tally
from ui.classroom.rules import (
    ABSENT_SECONDS,
    CLASSES_PER_CLIENT,
    IDLE_SECONDS,
    MAX_CLASSES,
    MAX_LABEL,
    MAX_OPTIONS,
    MAX_STUDENTS,
    PRESENT_SECONDS,
    SEATS_PER_CLIENT,
    UNTAUGHT_SECONDS,
    ClassError,
    ClassesUnavailable,
    Limits,
    NotTeacher,
    Teacher,
)
from ui.classroom.shown import view_of
from ui.session import run_store

__all__ = [  # the names callers import from here, which rules.py defines
    "ABSENT_SECONDS",
    "CLASSES_PER_CLIENT",
    "IDLE_SECONDS",
    "MAX_CLASSES",
    "MAX_LABEL",
    "MAX_OPTIONS",
    "MAX_STUDENTS",
    "PRESENT_SECONDS",
    "SEATS_PER_CLIENT",
    "UNTAUGHT_SECONDS",
    "ClassError",
    "ClassStore",
    "ClassesUnavailable",
    "Limits",
    "NotTeacher",
    "Teacher",
]

END_CHECK_SECONDS = 1.0  # how often the store looks for the operator's end requests
PINS_OWNER = "classes"

log = logging.getLogger(__name__)


class ClassStore:
    """Every class of this server process (see the module docstring)."""

    def __init__(
        self,
        *,
        snapshot_path: Path | None = None,
        clock: Callable[[], float] = time.time,
        max_classes: int = MAX_CLASSES,
        max_students: int = MAX_STUDENTS,
        idle_seconds: float = IDLE_SECONDS,
        classes_per_client: int = CLASSES_PER_CLIENT,
        seats_per_client: int = SEATS_PER_CLIENT,
    ) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self._path = snapshot_path
        self.limits = Limits(
            max_classes, max_students, idle_seconds, classes_per_client, seats_per_client
        )
        self._classes: dict[str, ClassRecord] = {}
        self._ends_checked = float("-inf")
        if snapshot_path is not None:
            self._classes = snapshot.load(snapshot_path)
            for room in self._classes.values():  # a teacher's page reconnects: 10 minutes
                room.taught = max(room.taught, clock())  # to take the class back
            self._purge()
            self._take_end_requests()

    @property
    def max_classes(self) -> int:
        return self.limits.max_classes

    @property
    def max_students(self) -> int:
        return self.limits.max_students

    # --- anyone ---------------------------------------------------------------------

    def version(self, code: str, seat: str | None = None) -> int | None:
        """The class's version (it changes when the step, question or reveal does), or
        None when there is no such class, or no such seat in it: what a student's page
        polls, so it is cheap. A seat's poll marks it as here."""
        with self._lock:
            self._take_end_requests()
            room = self._classes.get(code)
            if room is None or self._expired(room):
                return None
            if seat is not None:
                student = room.students.get(seat)
                if student is None:
                    return None
                student.seen = self._clock()
            return room.version

    def view(self, code: str) -> ClassView | None:
        """What every member may see, or None when the class has ended."""
        with self._lock:
            room = self._live(code)
            return None if room is None else view_of(room, self._clock() - PRESENT_SECONDS)

    def hidden_steps(self, teaches: str | None, seat: Seat | None) -> dict[str, int]:
        """What one session may not see yet: for each run a live class has an open
        question on, the question's step (the session sees that run's first `step`
        merges only). The teacher of that class, and its students who answered, are not
        kept from it. Every other session is, in the class or not: another tab, a link.

        The run keys of the classes, the smallest step where two ask about one run.
        """
        with self._lock:
            live = [room for room in self._classes.values() if not self._expired(room)]
            return rules.hidden_steps(
                ((room.code, room.run_key, room.question) for room in live), teaches, seat
            )

    # --- the teacher ----------------------------------------------------------------

    def start(
        self, run_key: str, run_name: str, place: Place | None = None, *, client: str = ""
    ) -> Teacher:
        """A new class on a run (by its run-store key), started from `client` (an address;
        "" when not known); ClassError when that client teaches as many classes as one
        may, or when the server has as many as it takes and each has been taught lately
        (a class whose teacher's page has not shown it in UNTAUGHT_SECONDS gives way)."""
        secret = codes.new_secret()
        with self._lock:
            self._purge()
            self._take_end_requests()
            now = self._clock()
            gives_way = rules.make_room(self._classes, client, self.limits, now)
            if gives_way is not None:
                log.info("class %s ended: no teacher for 10 minutes on a full server", gives_way)
                del self._classes[gives_way]
            code = codes.new_code(set(self._classes))
            self._classes[code] = rules.new_room(
                code, secret, run_key, run_name, place, client, now
            )
            self._save()
        return Teacher(code, secret)

    def is_teacher(self, code: str, secret: object) -> bool:
        """Whether the secret is this class's teacher's (and so the teacher is here now)."""
        with self._lock:
            room = self._live(code)
            if room is None or not codes.matches(secret, room.secret_digest):
                return False
            room.taught = self._clock()
            return True

    def move(self, code: str, secret: object, place: Place) -> bool:
        """The teacher is somewhere else now; True when that changed the class."""
        with self._lock:
            moved = rules.move(self._teachers(code, secret), place, self._clock())
            if moved:
                self._save()
            return moved

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
        """Open a question (the one before it, revealed or not, is closed)."""
        rules.check_question(labels, winner)
        with self._lock:
            room = self._teachers(code, secret)
            rules.ask(room, step, labels, winner, detail, self._clock())
            self._save()

    def tally(self, code: str, secret: object) -> Tally | None:
        """The open question's live count and distribution (None: no question open)."""
        with self._lock:
            room = self._teachers(code, secret)
            return seats.tally_of(room, self._clock() - PRESENT_SECONDS)

    def roster(self, code: str, secret: object) -> tuple[RosterRow, ...]:
        """Every seat of the class, for its teacher: here now or not, and the score."""
        with self._lock:
            room = self._teachers(code, secret)
            return seats.roster_of(room, self._clock() - PRESENT_SECONDS)

    def remove(self, code: str, secret: object, seat: str) -> bool:
        """The teacher takes a seat out of the class, its answers and score with it;
        False when there is no such seat."""
        with self._lock:
            removed = rules.remove(self._teachers(code, secret), seat, self._clock())
            if removed:
                self._save()
            return removed

    def reveal(self, code: str, secret: object) -> None:
        """Show the answer and the counts to everyone; score each student's answer once."""
        with self._lock:
            room = self._teachers(code, secret)
            before = room.version
            rules.reveal(room, self._clock())
            if room.version != before:  # a second reveal changes nothing
                self._save()

    def show_scores(self, code: str, secret: object, shown: bool) -> None:
        with self._lock:
            room = self._teachers(code, secret)
            before = room.version
            rules.show_scores(room, shown, self._clock())
            if room.version != before:
                self._save()

    def end(self, code: str, secret: object) -> None:
        with self._lock:
            self._teachers(code, secret)
            del self._classes[code]
            self._save()

    # --- a student ------------------------------------------------------------------

    def join(
        self, code: str, nickname: str = "", seat: str | None = None, *, client: str = ""
    ) -> Seat:
        """A seat in the class: the same one again for a seat token it knows, or for a
        client (an address; "" when not known) coming back without one, its seat that no
        page holds now; else a new one. ClassError when there is no such class, the client
        holds as many seats in it as one may, or it is full."""
        with self._lock:
            room = self._live(code)
            if room is None:
                raise ClassError(f"no class on this server has the code {code[:12]!r}")
            before = set(room.students)
            taken = rules.join(room, nickname, seat, client, self._clock(), self.limits)
            if taken.seat not in before:
                self._save()
            return taken

    def seated(self, code: str, seat: str) -> bool:
        """Whether the seat is (still) in the class; the seat is here now, if so."""
        return self.version(code, seat) is not None

    def leave(self, code: str, seat: str) -> None:
        """A student's Leave: the seat stays (the same device gets it back, score and
        all), but is not here any more, so the live count stops counting it."""
        with self._lock:
            room = self._live(code)
            student = room.students.get(seat) if room is not None else None
            if student is not None:
                student.seen = 0.0

    def rename(self, code: str, seat: str, nickname: str) -> str | None:
        """A student's new nickname (bounded, told apart from others'); None when the
        seat is not in the class. An empty one keeps the old name."""
        with self._lock:
            room = self._live(code)
            if room is None:
                return None
            before = room.students[seat].name if seat in room.students else None
            name = rules.rename(room, seat, nickname)
            if name != before:
                self._save()
            return name

    def answer(self, code: str, seat: str, option: int) -> bool:
        """A student's answer to the open question: True when counted, False when they
        had answered already, or the question is closed, or the option is not one."""
        with self._lock:
            room = self._live(code)
            counted = room is not None and rules.answer(room, seat, option, self._clock())
            if counted:
                self._save()
            return counted

    def my_answer(self, code: str, seat: str) -> int | None:
        """The option this student picked for the open question (None: not yet)."""
        with self._lock:
            room = self._live(code)
            if room is None or room.question is None:
                return None
            return room.question.answers.get(seat)

    # --- inside the lock ------------------------------------------------------------

    def _live(self, code: str) -> ClassRecord | None:
        room = self._classes.get(code)
        if room is not None and self._expired(room):
            self._purge()
            return None
        return room

    def _teachers(self, code: str, secret: object) -> ClassRecord:
        return rules.teachers(self._live(code), secret)

    def _expired(self, room: ClassRecord) -> bool:
        return self._clock() - room.last_active > self.limits.idle_seconds

    def _purge(self) -> None:
        ended = [code for code, room in self._classes.items() if self._expired(room)]
        for code in ended:
            del self._classes[code]
        if ended:
            self._save()

    def _take_end_requests(self) -> None:
        """End the classes the operator asked to end (at most once in END_CHECK_SECONDS)."""
        now = self._clock()
        if self._path is None or now - self._ends_checked < END_CHECK_SECONDS:
            return
        self._ends_checked = now
        ended = [c for c in operator.take_end_requests(self._path.parent) if c in self._classes]
        for code in ended:
            log.info("class %s ended by the operator", code)
            del self._classes[code]
        if ended:
            self._save()

    def _save(self) -> None:
        if self._path is None:
            return
        try:
            snapshot.save(self._path, self._classes)
            keys = {
                room.run_key for room in self._classes.values() if run_store.is_key(room.run_key)
            }
            run_store.write_pins(self._path.parent, PINS_OWNER, keys)
        except OSError as exc:  # the class goes on in memory; only a restart would lose it
            log.warning("the classes snapshot %s could not be written: %s", self._path, exc)
