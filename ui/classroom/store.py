"""Classes, their students and answers, behind one small interface (no Streamlit here).

One `ClassStore` per server process, shared by every session (ui/classroom/session.py
makes it). It is thread-safe (one lock: every session's script thread calls it), bounded
(MAX_CLASSES classes, MAX_STUDENTS students a class, nicknames of MAX_NICKNAME characters)
and forgetful: a class ends when its teacher ends it or after IDLE_SECONDS without anyone
doing anything in it. With a snapshot path it writes every change to one small JSON file
(snapshot.py), and a new store on the same path (a restarted server) has the classes back;
it pins its classes' runs in the run store (no eviction while a class lives), and ends a
class the operator asked to end (operator.py, `python -m ui.classroom.admin end CODE`).

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ui.classroom import codes, operator, seats, snapshot
from ui.classroom.model import (
    ClassRecord,
    ClassView,
    Place,
    QuestionRecord,
    RosterRow,
    Seat,
    StudentRecord,
    Tally,
)
from ui.classroom.shown import bounded_place, distinct_name, view_of
from ui.session import run_store

MAX_CLASSES = 20
MAX_STUDENTS = 120
MAX_OPTIONS = 20
MAX_LABEL = 200
IDLE_SECONDS = 3 * 3600
# a full server lets a new class take the place of one whose teacher's page has not shown
# it for this long: otherwise anyone could start every class and keep real teachers out
UNTAUGHT_SECONDS = 10 * 60
CLASSES_PER_CLIENT = 2  # classes one address teaches at once (a teacher, two rooms)
SEATS_PER_CLIENT = 4  # seats one address holds in a class (a phone, a laptop, ...)
PRESENT_SECONDS = 30  # a seat whose page checked the class this lately is here
ABSENT_SECONDS = 10 * 60  # a full class gives the seat gone this long to a newcomer
END_CHECK_SECONDS = 1.0  # how often the store looks for the operator's end requests
PINS_OWNER = "classes"

log = logging.getLogger(__name__)


class ClassError(ValueError):
    """Something a class cannot do, in words a user can act on."""


class NotTeacher(ClassError):
    def __init__(self) -> None:
        super().__init__("only the teacher who started this class can do that")


@dataclass(frozen=True)
class Teacher:
    """What starting a class gives its teacher: the code, and the secret to keep."""

    code: str
    secret: str


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
        self.max_classes = max_classes
        self.max_students = max_students
        self.idle_seconds = idle_seconds
        self.classes_per_client = classes_per_client  # 0: no bound
        self.seats_per_client = seats_per_client  # 0: no bound
        self._classes: dict[str, ClassRecord] = {}
        self._ends_checked = float("-inf")
        if snapshot_path is not None:
            self._classes = snapshot.load(snapshot_path)
            for room in self._classes.values():  # a teacher's page reconnects: 10 minutes
                room.taught = max(room.taught, clock())  # to take the class back
            self._purge()
            self._take_end_requests()

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
            hidden: dict[str, int] = {}
            for room in self._classes.values():
                question = room.question
                if question is None or question.revealed or self._expired(room):
                    continue
                if room.code == teaches:
                    continue
                if seat is not None and seat.code == room.code and seat.seat in question.answers:
                    continue
                step = min(question.step, hidden.get(room.run_key, question.step))
                hidden[room.run_key] = step
            return hidden

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
            mine = seats.classes_of(self._classes.values(), client)
            if self.classes_per_client and mine >= self.classes_per_client:
                raise ClassError(
                    f"your address already teaches {mine} classes on this server, as "
                    "many as one may; end one first (the sidebar's End the class)"
                )
            if len(self._classes) >= self.max_classes:
                self._give_up_an_untaught_class()
            if len(self._classes) >= self.max_classes:
                raise ClassError(
                    f"this server already runs {len(self._classes)} classes, as many as it "
                    "takes, each taught in the last 10 minutes; one must end first"
                )
            code = codes.new_code(set(self._classes))
            now = self._clock()
            room = ClassRecord(code, codes.digest(secret), run_key, run_name[:200], now)
            room.place = bounded_place(place or Place())
            room.client, room.taught = client[:64], now
            self._classes[code] = room
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
            room = self._teachers(code, secret)
            place = bounded_place(place)
            if room.place == place:
                return False
            room.place = place
            self._touch(room)
            return True

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
        if not 2 <= len(labels) <= MAX_OPTIONS or not 0 <= winner < len(labels):
            raise ClassError(f"a question needs 2 to {MAX_OPTIONS} options and one answer")
        with self._lock:
            room = self._teachers(code, secret)
            room.asked += 1
            labels = tuple(str(label)[:MAX_LABEL] for label in labels)
            room.question = QuestionRecord(room.asked, int(step), labels, winner, dict(detail))
            self._touch(room)

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
            room = self._teachers(code, secret)
            if room.students.pop(seat, None) is None:
                return False
            if room.question is not None:
                room.question.answers.pop(seat, None)
            self._touch(room)
            return True

    def reveal(self, code: str, secret: object) -> None:
        """Show the answer and the counts to everyone; score each student's answer once."""
        with self._lock:
            room = self._teachers(code, secret)
            question = room.question
            if question is None or question.revealed:
                return
            question.revealed = True
            for seat, option in question.answers.items():
                student = room.students.get(seat)
                if student is not None:
                    student.answered += 1
                    student.right += option == question.winner
            self._touch(room)

    def show_scores(self, code: str, secret: object, shown: bool) -> None:
        with self._lock:
            room = self._teachers(code, secret)
            if room.scores_shown != shown:
                room.scores_shown = shown
                self._touch(room)

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
            now = self._clock()
            if seat is not None and seat in room.students:
                room.students[seat].seen = now
                return Seat(code, seat, room.students[seat].name)
            back = seats.seat_to_give_back(room, client, now - PRESENT_SECONDS)
            if back is not None and seat is None:
                back.seen = now
                return Seat(code, back.seat, back.name)
            mine = seats.seats_of(room, client)
            if self.seats_per_client and mine >= self.seats_per_client:
                raise ClassError(
                    f"your address already holds {mine} seats in this class, as many as one "
                    "may; go back to one of your open pages of the class"
                )
            if len(room.students) >= self.max_students:
                self._give_up_an_absent_seat(room)
            if len(room.students) >= self.max_students:
                raise ClassError(f"this class is full ({self.max_students} students)")
            name = codes.clean_nickname(nickname)
            if not name:
                room.anonymous += 1
                name = f"anonymous {room.anonymous}"
            name = distinct_name(name, {s.name for s in room.students.values()})
            seat = seat if seat is not None and codes.is_seat(seat) else codes.new_seat()
            room.students[seat] = StudentRecord(seat, name, client=client[:64], seen=now)
            room.last_active = now
            self._save()
            return Seat(code, seat, name)

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
            student = room.students.get(seat) if room is not None else None
            if room is None or student is None:
                return None
            name = codes.clean_nickname(nickname)
            if name and name != student.name:
                others = {s.name for s in room.students.values() if s is not student}
                student.name = distinct_name(name, others)
                self._save()
            return student.name

    def answer(self, code: str, seat: str, option: int) -> bool:
        """A student's answer to the open question: True when counted, False when they
        had answered already, or the question is closed, or the option is not one."""
        with self._lock:
            room = self._live(code)
            if room is None or seat not in room.students or room.question is None:
                return False
            question = room.question
            if question.revealed or seat in question.answers:
                return False
            if not isinstance(option, int) or not 0 <= option < len(question.labels):
                return False
            question.answers[seat] = option
            room.last_active = self._clock()
            self._save()
            return True

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
        room = self._live(code)
        if room is None:
            raise ClassError("this class has ended")
        if not codes.matches(secret, room.secret_digest):
            raise NotTeacher()
        return room

    def _expired(self, room: ClassRecord) -> bool:
        return self._clock() - room.last_active > self.idle_seconds

    def _purge(self) -> None:
        ended = [code for code, room in self._classes.items() if self._expired(room)]
        for code in ended:
            del self._classes[code]
        if ended:
            self._save()

    def _give_up_an_untaught_class(self) -> None:
        """A full server: the class untaught for UNTAUGHT_SECONDS or more ends."""
        room = seats.untaught_class(self._classes.values(), self._clock() - UNTAUGHT_SECONDS)
        if room is not None:
            log.info("class %s ended: no teacher for 10 minutes on a full server", room.code)
            del self._classes[room.code]

    def _give_up_an_absent_seat(self, room: ClassRecord) -> None:
        """A full class: the seat gone ABSENT_SECONDS or more (the longest) is freed."""
        student = seats.longest_absent(room, self._clock() - ABSENT_SECONDS)
        if student is not None:
            del room.students[student.seat]
            if room.question is not None:
                room.question.answers.pop(student.seat, None)

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

    def _touch(self, room: ClassRecord) -> None:
        """A change everyone should see: a new version, and the snapshot written."""
        room.version += 1
        room.last_active = self._clock()
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
