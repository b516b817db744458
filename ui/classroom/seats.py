"""Who holds what in a class: pure rules over the store's records, so no one visitor holds
the server's classes or a class's seats (the store calls them under its lock).

A seat is *here* when its page checked the class at `here_since` or later; a class is
*taught* while its teacher's page shows it.

    >>> from ui.classroom.model import ClassRecord, StudentRecord
    >>> room = ClassRecord("ABCDE", "d" * 64, "k", "run", 0.0)
    >>> room.students = {"s1": StudentRecord("s1", "Ada", client="10.0.0.7", seen=5.0),
    ...                  "s2": StudentRecord("s2", "Bo", client="10.0.0.7", seen=50.0)}
    >>> seats_of(room, "10.0.0.7"), seat_to_give_back(room, "10.0.0.7", 40.0).name
    (2, 'Ada')
    >>> [row.name for row in roster_of(room, 40.0)]
    ['Bo', 'Ada']
"""

from __future__ import annotations

from collections.abc import Iterable

from ui.classroom.model import ClassRecord, RosterRow, StudentRecord, Tally
from ui.classroom.shown import answer_counts


def classes_of(classes: Iterable[ClassRecord], client: str) -> int:
    """How many classes a client (an address) teaches; 0 for a client not known ("")."""
    return sum(1 for room in classes if client and room.client == client)


def seats_of(room: ClassRecord, client: str) -> int:
    """How many seats a client holds in a class; 0 for a client not known ("")."""
    return sum(1 for s in room.students.values() if client and s.client == client)


def untaught_class(classes: Iterable[ClassRecord], since: float) -> ClassRecord | None:
    """The class to give way on a full server: its teacher's page has not shown it since
    `since` (one without students first, then the one untaught longest); None if none."""
    untaught = [room for room in classes if room.taught <= since]
    return min(untaught, key=lambda room: (bool(room.students), room.taught), default=None)


def seat_to_give_back(room: ClassRecord, client: str, here_since: float) -> StudentRecord | None:
    """The client's seat that no page holds now (the one seen last), if any."""
    if not client:
        return None
    gone = [s for s in room.students.values() if s.client == client and s.seen < here_since]
    return max(gone, key=lambda s: s.seen, default=None)


def longest_absent(room: ClassRecord, since: float) -> StudentRecord | None:
    """The seat gone longest, gone since `since` or before (a full class frees it)."""
    gone = [s for s in room.students.values() if s.seen <= since]
    return min(gone, key=lambda s: s.seen, default=None)


def tally_of(room: ClassRecord, here_since: float) -> Tally | None:
    """The open question's count: answers of seats still in the class, of the seats here
    or answered (a seat that left is not waited for)."""
    question = room.question
    if question is None:
        return None
    answered = {seat for seat in question.answers if seat in room.students}
    present = {seat for seat, s in room.students.items() if s.seen >= here_since}
    return Tally(len(answered), len(present | answered), answer_counts(question))


def roster_of(room: ClassRecord, here_since: float) -> tuple[RosterRow, ...]:
    """Every seat for the teacher, those here first, by name."""
    rows = [
        RosterRow(s.seat, s.name, s.seen >= here_since, s.right, s.answered)
        for s in room.students.values()
    ]
    return tuple(sorted(rows, key=lambda row: (not row.present, row.name)))
