"""Classes, their students and answers, behind one small interface (no Streamlit here).

One `ClassStore` per server process, shared by every session (ui/classroom/session.py
makes it). It is thread-safe (one lock: every session's script thread calls it), bounded
(MAX_CLASSES classes, MAX_STUDENTS students a class, nicknames of MAX_NICKNAME characters)
and forgetful: a class ends when its teacher ends it or after IDLE_SECONDS without anyone
doing anything in it. With a snapshot path it writes every change to one small JSON file
(snapshot.py), and a new store on the same path (a restarted server) has the classes back.

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

from ui.classroom import codes, snapshot
from ui.classroom.model import (
    ClassRecord,
    ClassView,
    Place,
    QuestionRecord,
    Seat,
    StudentRecord,
    Tally,
)
from ui.classroom.shown import answer_counts, bounded_place, distinct_name, view_of

MAX_CLASSES = 20
MAX_STUDENTS = 120
MAX_OPTIONS = 20
MAX_LABEL = 200
IDLE_SECONDS = 3 * 3600
# a full server lets a new class take the place of one nobody has joined for this long:
# otherwise anyone could start every class the server takes and keep real teachers out
EMPTY_SECONDS = 10 * 60

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
    ) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self._path = snapshot_path
        self.max_classes = max_classes
        self.max_students = max_students
        self.idle_seconds = idle_seconds
        self._classes: dict[str, ClassRecord] = {}
        if snapshot_path is not None:
            self._classes = snapshot.load(snapshot_path)
            self._purge()

    # --- anyone ---------------------------------------------------------------------

    def version(self, code: str) -> int | None:
        """The class's version (it changes when the step, question or reveal does), or
        None when there is no such class: what a student's page polls, so it is cheap."""
        with self._lock:
            room = self._classes.get(code)
            if room is None or self._expired(room):
                return None
            return room.version

    def view(self, code: str) -> ClassView | None:
        """What every member may see, or None when the class has ended."""
        with self._lock:
            room = self._live(code)
            return None if room is None else view_of(room)

    # --- the teacher ----------------------------------------------------------------

    def start(self, run_key: str, run_name: str, place: Place | None = None) -> Teacher:
        """A new class on a run (by its run-store key); ClassError when the server has
        as many classes as it takes and each has students or was started lately (a class
        no student joined in EMPTY_SECONDS gives its place up)."""
        secret = codes.new_secret()
        with self._lock:
            self._purge()
            if len(self._classes) >= self.max_classes:
                self._give_up_an_empty_class()
            if len(self._classes) >= self.max_classes:
                raise ClassError(
                    f"this server already runs {len(self._classes)} classes, as many as it "
                    "takes; one must end first (a class ends after 3 hours without activity)"
                )
            code = codes.new_code(set(self._classes))
            room = ClassRecord(code, codes.digest(secret), run_key, run_name[:200], self._clock())
            room.place = bounded_place(place or Place())
            self._classes[code] = room
            self._save()
        return Teacher(code, secret)

    def is_teacher(self, code: str, secret: object) -> bool:
        with self._lock:
            room = self._live(code)
            return room is not None and codes.matches(secret, room.secret_digest)

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
            question = room.question
            if question is None:
                return None
            return Tally(len(question.answers), len(room.students), answer_counts(question))

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

    def join(self, code: str, nickname: str = "", seat: str | None = None) -> Seat:
        """A seat in the class (the same one again for a seat token it knows); ClassError
        when there is no such class or it is full."""
        with self._lock:
            room = self._live(code)
            if room is None:
                raise ClassError(f"no class on this server has the code {code[:12]!r}")
            if seat is not None and seat in room.students:
                return Seat(code, seat, room.students[seat].name)
            if len(room.students) >= self.max_students:
                raise ClassError(f"this class is full ({self.max_students} students)")
            name = codes.clean_nickname(nickname)
            if not name:
                room.anonymous += 1
                name = f"anonymous {room.anonymous}"
            name = distinct_name(name, {s.name for s in room.students.values()})
            seat = seat if seat is not None and codes.is_seat(seat) else codes.new_seat()
            room.students[seat] = StudentRecord(seat, name)
            room.last_active = self._clock()
            self._save()
            return Seat(code, seat, name)

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

    def _give_up_an_empty_class(self) -> None:
        """The longest idle class without students, idle EMPTY_SECONDS or more, ends."""
        empty = [
            room
            for room in self._classes.values()
            if not room.students and self._clock() - room.last_active >= EMPTY_SECONDS
        ]
        if empty:
            room = min(empty, key=lambda room: room.last_active)
            log.info("class %s ended: no student, and the server was full", room.code)
            del self._classes[room.code]

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
        except OSError as exc:  # the class goes on in memory; only a restart would lose it
            log.warning("the classes snapshot %s could not be written: %s", self._path, exc)
