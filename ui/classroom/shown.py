"""What a class shows to its members, and the bounds on what a teacher tells it: pure
functions over the store's records (the store calls them under its lock).

    >>> from ui.classroom.model import ClassRecord
    >>> room = ClassRecord("ABCDE", "d" * 64, "k", "run", 0.0)
    >>> view_of(room).question is None, view_of(room).scores is None
    (True, True)
"""

from __future__ import annotations

from dataclasses import replace

from ui.classroom.model import (
    ClassRecord,
    ClassView,
    Place,
    QuestionRecord,
    QuestionView,
    ScoreRow,
)

MAX_PASSAGE = 5_000  # characters of the teacher's passage a class carries


def view_of(room: ClassRecord, here_since: float = float("inf")) -> ClassView:
    """What the class shows its members; seats whose page checked it at `here_since` or
    later are counted as here."""
    question = room.question
    shown = None
    if question is not None:
        shown = QuestionView(question.number, question.step, question.labels, question.revealed)
        if question.revealed:
            shown = replace(
                shown,
                winner=question.winner,
                counts=answer_counts(question),
                detail=question.detail,
            )
    scores = None
    if room.scores_shown:
        rows = [ScoreRow(s.name, s.right, s.answered) for s in room.students.values()]
        scores = tuple(sorted(rows, key=lambda row: (-row.right, row.answered, row.name)))
    return ClassView(
        room.code,
        room.version,
        room.run_key,
        room.run_name,
        room.place,
        shown,
        len(room.students),
        scores,
        sum(1 for student in room.students.values() if student.seen >= here_since),
    )


def answer_counts(question: QuestionRecord) -> tuple[int, ...]:
    counts = [0] * len(question.labels)
    for option in question.answers.values():
        counts[option] += 1
    return tuple(counts)


def bounded_place(place: Place) -> Place:
    return replace(
        place,
        page=str(place.page)[:20],
        step=max(0, int(place.step)),
        passage=str(place.passage)[:MAX_PASSAGE],
        encode_text=str(place.encode_text)[:MAX_PASSAGE],
        encode_step=max(0, int(place.encode_step)),
    )


def distinct_name(name: str, taken: set[str]) -> str:
    """The name, or with a number when another student has it: `Ada (2)`.

    >>> distinct_name("Ada", {"Ada", "Ada (2)"}), distinct_name("Bo", set())
    ('Ada (3)', 'Bo')
    """
    if name not in taken:
        return name
    k = 2
    while f"{name} ({k})" in taken:
        k += 1
    return f"{name} ({k})"
