"""The class store: bounded, one answer per student, answers hidden until the reveal, the
teacher's secret required, expiry after idle hours, and a snapshot a restart reads back."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from ui.classroom import codes
from ui.classroom.model import Place
from ui.classroom.store import (
    EMPTY_SECONDS,
    IDLE_SECONDS,
    ClassError,
    ClassStore,
    NotTeacher,
)

RUN = "0123456789abcdef"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def test_codes_avoid_letters_that_look_alike() -> None:
    store = ClassStore()
    found = {store.start(RUN, "r").code for _ in range(store.max_classes)}
    assert len(found) == store.max_classes
    assert all(codes.is_code(code) for code in found)
    assert not set("".join(found)) & set("0O1IlL")


def test_the_store_is_bounded() -> None:
    store = ClassStore(max_classes=2, max_students=3)
    first = store.start(RUN, "r")
    store.start(RUN, "r")
    with pytest.raises(ClassError, match="as many as it takes"):
        store.start(RUN, "r")
    seats = [store.join(first.code, "x" * 50) for _ in range(3)]
    assert [seat.name for seat in seats] == ["x" * 20, f"{'x' * 20} (2)", f"{'x' * 20} (3)"]
    with pytest.raises(ClassError, match="full"):
        store.join(first.code, "late")
    assert store.join(first.code, "", seats[0].seat) == seats[0]  # a known seat comes back
    store.end(first.code, first.secret)
    store.start(RUN, "r")  # room again


def test_a_full_server_lets_a_class_nobody_joined_give_way() -> None:
    """Whoever starts every class the server takes cannot keep a teacher out for long."""
    clock = Clock()
    store = ClassStore(max_classes=3, clock=clock)
    taught = store.start(RUN, "taught")
    store.join(taught.code, "Ada")
    squatters = [store.start(RUN, "empty"), store.start(RUN, "empty")]
    clock.now += EMPTY_SECONDS - 1
    with pytest.raises(ClassError, match="as many as it takes"):
        store.start(RUN, "r")  # the empty ones are still new
    clock.now += 1
    store.start(RUN, "r")
    store.start(RUN, "r")
    assert store.view(taught.code) is not None  # a class with a student stays
    assert [store.view(s.code) for s in squatters] == [None, None]
    with pytest.raises(ClassError, match="as many as it takes"):
        store.start(RUN, "r")


def test_anonymous_students_are_numbered() -> None:
    store = ClassStore()
    teacher = store.start(RUN, "r")
    names = [store.join(teacher.code, nick).name for nick in ("", "  ", "Ada", "")]
    assert names == ["anonymous 1", "anonymous 2", "Ada", "anonymous 3"]


def test_one_answer_per_student_and_hidden_until_the_reveal() -> None:
    store = ClassStore()
    teacher = store.start(RUN, "r")
    ada, bo, cy = (store.join(teacher.code, n) for n in ("Ada", "Bo", "Cy"))
    assert not store.answer(teacher.code, ada.seat, 0)  # no question yet
    store.ask(teacher.code, teacher.secret, 2, ("a", "b", "c"), winner=2, detail={"k": 1})
    assert store.answer(teacher.code, ada.seat, 2)
    assert not store.answer(teacher.code, ada.seat, 0)  # the first answer stands
    assert store.answer(teacher.code, bo.seat, 0)
    assert not store.answer(teacher.code, cy.seat, 3)  # not an option
    assert not store.answer(teacher.code, "forged-seat-token-0000", 1)
    question = store.view(teacher.code).question
    assert (question.winner, question.counts, question.detail) == (None, None, None)
    assert store.tally(teacher.code, teacher.secret).counts == (1, 0, 1)
    assert store.my_answer(teacher.code, ada.seat) == 2
    store.reveal(teacher.code, teacher.secret)
    store.reveal(teacher.code, teacher.secret)  # twice scores once
    question = store.view(teacher.code).question
    assert (question.winner, question.counts, question.detail) == (2, (1, 0, 1), {"k": 1})
    assert not store.answer(teacher.code, cy.seat, 2)  # too late
    store.show_scores(teacher.code, teacher.secret, True)
    rows = [(row.name, row.right, row.answered) for row in store.view(teacher.code).scores]
    assert rows == [("Ada", 1, 1), ("Cy", 0, 0), ("Bo", 0, 1)]


def test_a_forged_secret_moves_nothing() -> None:
    store = ClassStore()
    teacher = store.start(RUN, "r")
    other = store.start(RUN, "r")
    student = store.join(teacher.code, "Eve")
    before = store.view(teacher.code)
    for forged in (None, "", student.seat, other.secret, codes.digest(teacher.secret)):
        with pytest.raises(NotTeacher):
            store.move(teacher.code, forged, Place(step=9))
        with pytest.raises(NotTeacher):
            store.tally(teacher.code, forged)
        with pytest.raises(NotTeacher):
            store.reveal(teacher.code, forged)
        with pytest.raises(NotTeacher):
            store.end(teacher.code, forged)
        assert not store.is_teacher(teacher.code, forged)
    assert store.view(teacher.code) == before
    assert store.is_teacher(teacher.code, teacher.secret)


def test_versions_change_with_the_class_not_with_answers_or_joins() -> None:
    store = ClassStore()
    teacher = store.start(RUN, "r")
    seen = [store.version(teacher.code)]
    assert not store.move(teacher.code, teacher.secret, Place())  # nothing changed
    store.move(teacher.code, teacher.secret, Place(step=1))
    seen.append(store.version(teacher.code))
    store.ask(teacher.code, teacher.secret, 1, ("a", "b"), winner=0, detail={})
    seen.append(store.version(teacher.code))
    ada = store.join(teacher.code, "Ada")
    store.answer(teacher.code, ada.seat, 0)
    seen.append(store.version(teacher.code))
    store.reveal(teacher.code, teacher.secret)
    seen.append(store.version(teacher.code))
    assert seen == [1, 2, 3, 3, 4]
    assert store.version("ZZZZZ") is None


def test_a_class_ends_after_idle_hours_or_when_ended() -> None:
    clock = Clock()
    store = ClassStore(clock=clock)
    teacher = store.start(RUN, "r")
    clock.now += IDLE_SECONDS - 10
    store.move(teacher.code, teacher.secret, Place(step=1))  # activity keeps it
    clock.now += IDLE_SECONDS - 10
    assert store.view(teacher.code) is not None
    clock.now += 20
    assert store.version(teacher.code) is None and store.view(teacher.code) is None
    with pytest.raises(ClassError, match="no class"):
        store.join(teacher.code, "late")
    again = store.start(RUN, "r")
    store.end(again.code, again.secret)
    assert store.view(again.code) is None


def test_a_restart_brings_the_class_back(tmp_path: Path) -> None:
    path = tmp_path / "classes.json"
    clock = Clock()
    store = ClassStore(snapshot_path=path, clock=clock)
    teacher = store.start(RUN, "Shakespeare", Place(step=2, passage="to be"))
    ada = store.join(teacher.code, "Ada")
    store.ask(teacher.code, teacher.secret, 2, ("a", "b"), winner=1, detail={"counts": [3, 4]})
    store.answer(teacher.code, ada.seat, 1)
    assert teacher.secret not in path.read_text()  # only its digest
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))
    restarted = ClassStore(snapshot_path=path, clock=clock)
    assert restarted.view(teacher.code) == store.view(teacher.code)
    assert restarted.is_teacher(teacher.code, teacher.secret)
    assert restarted.join(teacher.code, "", ada.seat).name == "Ada"
    assert not restarted.answer(teacher.code, ada.seat, 0)  # still answered
    restarted.reveal(teacher.code, teacher.secret)
    assert restarted.view(teacher.code).question.counts == (0, 1)
    clock.now += IDLE_SECONDS + 1
    assert ClassStore(snapshot_path=path, clock=clock).view(teacher.code) is None


def test_an_unreadable_snapshot_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "classes.json"
    path.write_text(json.dumps({"format": "something else"}))
    store = ClassStore(snapshot_path=path)
    assert store.view("ABCDE") is None
    assert (tmp_path / "classes.unreadable").exists()
    store.start(RUN, "r")
    assert path.exists()


def test_answers_from_many_threads_are_each_counted_once() -> None:
    store = ClassStore()
    teacher = store.start(RUN, "r")
    seats = [store.join(teacher.code, f"s{k}") for k in range(60)]
    store.ask(teacher.code, teacher.secret, 0, ("a", "b", "c"), winner=0, detail={})

    def answer_twice(k: int) -> None:
        for _ in range(2):
            store.answer(teacher.code, seats[k].seat, k % 3)

    threads = [threading.Thread(target=answer_twice, args=(k,)) for k in range(60)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert store.tally(teacher.code, teacher.secret).counts == (20, 20, 20)


def test_a_rename_is_bounded_and_told_apart() -> None:
    store = ClassStore()
    teacher = store.start(RUN, "r")
    ada, other = store.join(teacher.code, "Ada"), store.join(teacher.code, "")
    assert store.rename(teacher.code, other.seat, " Ada ") == "Ada (2)"
    assert store.rename(teacher.code, other.seat, "") == "Ada (2)"  # empty: kept
    assert store.rename(teacher.code, ada.seat, "y" * 40) == "y" * 20
    assert store.rename(teacher.code, "not-a-seat-of-this-class", "Eve") is None
