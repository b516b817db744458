"""What each change of a class does to its record: the one set of rules both class stores
follow (store.py keeps classes in this process's memory, redis_store.py in Redis).

A store finds the record, calls one rule, and keeps what the rule changed: under its lock
(memory), or in one transaction that a change by another process makes it try again
(Redis). No rule reads a clock or a store: `now` and the bounds (`Limits`) are given.

    >>> room = ClassRecord("ABCDE", codes.digest("s3cret"), "0123456789abcdef", "run", 0.0)
    >>> ada = join(room, "Ada", None, "10.0.0.7", 5.0, Limits())
    >>> teachers(room, "s3cret") is room, move(room, Place(step=2), 6.0), room.version
    (True, True, 2)
    >>> ask(room, 2, ("ab", "cd"), 1, {}, 7.0); answer(room, ada.seat, 1, 8.0)
    True
    >>> reveal(room, 9.0); room.students[ada.seat].right
    1
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ui.classroom import codes, seats
from ui.classroom.model import ClassRecord, Place, QuestionRecord, Seat, StudentRecord
from ui.classroom.shown import bounded_place, distinct_name
from ui.server.outages import Unavailable

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


class ClassError(ValueError):
    """Something a class cannot do, in words a user can act on."""


class NotTeacher(ClassError):
    def __init__(self) -> None:
        super().__init__("only the teacher who started this class can do that")


class ClassesUnavailable(Unavailable):
    """The store that holds the classes does not answer (Redis stopped, or out of reach):
    every class operation of a shared store raises this one error, and nothing else of
    the outage reaches a page."""

    def __init__(self) -> None:
        super().__init__(
            "The class is out of reach just now (its server does not answer): this page "
            "works on its own meanwhile, and the class comes back when that server does."
        )


@dataclass(frozen=True)
class Teacher:
    """What starting a class gives its teacher: the code, and the secret to keep."""

    code: str
    secret: str


@dataclass(frozen=True)
class Limits:
    """A store's bounds (0 for a per-client bound: none)."""

    max_classes: int = MAX_CLASSES
    max_students: int = MAX_STUDENTS
    idle_seconds: float = IDLE_SECONDS
    classes_per_client: int = CLASSES_PER_CLIENT
    seats_per_client: int = SEATS_PER_CLIENT


# --- a new class -------------------------------------------------------------------------


def make_room(
    rooms: Mapping[str, ClassRecord], client: str, limits: Limits, now: float
) -> str | None:
    """Whether one more class may start from `client` among `rooms` (the live ones): the
    code of the untaught class that gives way for it (None: none needs to), or ClassError."""
    mine = seats.classes_of(rooms.values(), client)
    if limits.classes_per_client and mine >= limits.classes_per_client:
        raise ClassError(
            f"your address already teaches {mine} classes on this server, as "
            "many as one may; end one first (the sidebar's End the class)"
        )
    gives_way = None
    if len(rooms) >= limits.max_classes:
        untaught = seats.untaught_class(rooms.values(), now - UNTAUGHT_SECONDS)
        gives_way = untaught.code if untaught is not None else None
    if len(rooms) - (gives_way is not None) >= limits.max_classes:
        raise ClassError(
            f"this server already runs {len(rooms)} classes, as many as it "
            "takes, each taught in the last 10 minutes; one must end first"
        )
    return gives_way


def new_room(
    code: str,
    secret: str,
    run_key: str,
    run_name: str,
    place: Place | None,
    client: str,
    now: float,
) -> ClassRecord:
    room = ClassRecord(code, codes.digest(secret), run_key, run_name[:200], now)
    room.place = bounded_place(place or Place())
    room.client, room.taught = client[:64], now
    return room


# --- the teacher -------------------------------------------------------------------------


def teachers(room: ClassRecord | None, secret: object) -> ClassRecord:
    """The class, for its teacher's secret; ClassError when it has ended, NotTeacher else."""
    if room is None:
        raise ClassError("this class has ended")
    if not codes.matches(secret, room.secret_digest):
        raise NotTeacher()
    return room


def touch(room: ClassRecord, now: float) -> None:
    """A change everyone should see: a new version."""
    room.version += 1
    room.last_active = now


def move(room: ClassRecord, place: Place, now: float) -> bool:
    place = bounded_place(place)
    if room.place == place:
        return False
    room.place = place
    touch(room, now)
    return True


def check_question(labels: tuple[str, ...], winner: int) -> None:
    if not 2 <= len(labels) <= MAX_OPTIONS or not 0 <= winner < len(labels):
        raise ClassError(f"a question needs 2 to {MAX_OPTIONS} options and one answer")


def ask(
    room: ClassRecord,
    step: int,
    labels: tuple[str, ...],
    winner: int,
    detail: dict[str, Any],
    now: float,
) -> None:
    check_question(labels, winner)
    room.asked += 1
    labels = tuple(str(label)[:MAX_LABEL] for label in labels)
    room.question = QuestionRecord(room.asked, int(step), labels, winner, dict(detail))
    touch(room, now)


def remove(room: ClassRecord, seat: str, now: float) -> bool:
    if room.students.pop(seat, None) is None:
        return False
    if room.question is not None:
        room.question.answers.pop(seat, None)
    touch(room, now)
    return True


def reveal(room: ClassRecord, now: float) -> None:
    """Show the answer; score each student's answer once (a second reveal does nothing)."""
    question = room.question
    if question is None or question.revealed:
        return
    question.revealed = True
    for seat, option in question.answers.items():
        student = room.students.get(seat)
        if student is not None:
            student.answered += 1
            student.right += option == question.winner
    touch(room, now)


def show_scores(room: ClassRecord, shown: bool, now: float) -> None:
    if room.scores_shown != shown:
        room.scores_shown = shown
        touch(room, now)


# --- a student ---------------------------------------------------------------------------


def join(
    room: ClassRecord, nickname: str, seat: str | None, client: str, now: float, limits: Limits
) -> Seat:
    """A seat: the same one again for a seat token it knows, the client's seat no page
    holds now when it comes without one, else a new one (ClassError: no room for it)."""
    if seat is not None and seat in room.students:
        room.students[seat].seen = now
        return Seat(room.code, seat, room.students[seat].name)
    back = seats.seat_to_give_back(room, client, now - PRESENT_SECONDS)
    if back is not None and seat is None:
        back.seen = now
        return Seat(room.code, back.seat, back.name)
    mine = seats.seats_of(room, client)
    if limits.seats_per_client and mine >= limits.seats_per_client:
        raise ClassError(
            f"your address already holds {mine} seats in this class, as many as one "
            "may; go back to one of your open pages of the class"
        )
    if len(room.students) >= limits.max_students:
        give_up_an_absent_seat(room, now)
    if len(room.students) >= limits.max_students:
        raise ClassError(f"this class is full ({limits.max_students} students)")
    name = codes.clean_nickname(nickname)
    if not name:
        room.anonymous += 1
        name = f"anonymous {room.anonymous}"
    name = distinct_name(name, {s.name for s in room.students.values()})
    seat = seat if seat is not None and codes.is_seat(seat) else codes.new_seat()
    room.students[seat] = StudentRecord(seat, name, client=client[:64], seen=now)
    room.last_active = now
    return Seat(room.code, seat, name)


def give_up_an_absent_seat(room: ClassRecord, now: float) -> None:
    """A full class: the seat gone ABSENT_SECONDS or more (the longest) is freed."""
    student = seats.longest_absent(room, now - ABSENT_SECONDS)
    if student is not None:
        del room.students[student.seat]
        if room.question is not None:
            room.question.answers.pop(student.seat, None)


def rename(room: ClassRecord, seat: str, nickname: str) -> str | None:
    """The seat's new name (None: no such seat); an empty one keeps the old name."""
    student = room.students.get(seat)
    if student is None:
        return None
    name = codes.clean_nickname(nickname)
    if name and name != student.name:
        others = {s.name for s in room.students.values() if s is not student}
        student.name = distinct_name(name, others)
    return student.name


def answer(room: ClassRecord, seat: str, option: int, now: float) -> bool:
    """Counted (True), or not: answered already, closed, not a seat or not an option."""
    question = room.question
    if seat not in room.students or question is None:
        return False
    if question.revealed or seat in question.answers:
        return False
    if not isinstance(option, int) or not 0 <= option < len(question.labels):
        return False
    question.answers[seat] = option
    room.last_active = now
    return True


# --- every class -------------------------------------------------------------------------


def hidden_steps(
    questions: Iterable[tuple[str, str, QuestionRecord | None]],
    teaches: str | None,
    seat: Seat | None,
) -> dict[str, int]:
    """For each run a class (code, run key, question) has an open question on, its step,
    unless this session teaches that class or its seat answered it; the smallest step where
    two classes ask about one run.

    >>> question = QuestionRecord(1, 4, ("a", "b"), 0, {}, answers={"s1": 0})
    >>> hidden_steps([("ABCDE", "k", question)], None, None)
    {'k': 4}
    >>> hidden_steps([("ABCDE", "k", question)], None, Seat("ABCDE", "s1", "Ada"))
    {}
    """
    hidden: dict[str, int] = {}
    for code, run_key, question in questions:
        if question is None or question.revealed or code == teaches:
            continue
        if seat is not None and seat.code == code and seat.seat in question.answers:
            continue
        hidden[run_key] = min(question.step, hidden.get(run_key, question.step))
    return hidden
