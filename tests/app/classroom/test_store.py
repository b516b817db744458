"""The class store: bounded, one answer per student, answers hidden until the reveal, the
teacher's secret required, expiry after idle hours, and a snapshot a restart reads back.

A test taking `make_store` runs against both backends (conftest.py): this process's
memory, and a real redis-server; the snapshot's and the operator's file are the memory
store's own (tests/app/classroom/test_redis_store.py has Redis's own: expiry by key TTL,
races between processes, Redis stopped and restarted)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from tests.app.classroom.conftest import StoreMaker
from ui.classroom import codes
from ui.classroom.model import Place
from ui.classroom.store import (
    IDLE_SECONDS,
    UNTAUGHT_SECONDS,
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


def test_codes_avoid_letters_that_look_alike(make_store: StoreMaker) -> None:
    store = make_store()
    found = {store.start(RUN, "r").code for _ in range(store.max_classes)}
    assert len(found) == store.max_classes
    assert all(codes.is_code(code) for code in found)
    assert not set("".join(found)) & set("0O1IlL")


def test_the_store_is_bounded(make_store: StoreMaker) -> None:
    store = make_store(max_classes=2, max_students=3)
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


def test_a_full_server_lets_a_class_nobody_teaches_give_way(make_store: StoreMaker) -> None:
    """Whoever starts every class the server takes cannot keep a teacher out for long:
    a class whose teacher's page has not shown it for ten minutes gives way, with or
    without students (the one without first)."""
    clock = Clock()
    store = make_store(max_classes=3, clock=clock)
    taught = store.start(RUN, "taught")
    squatters = [store.start(RUN, "bot"), store.start(RUN, "bot")]
    store.join(squatters[1].code, "a bot")
    clock.now += UNTAUGHT_SECONDS - 1
    assert store.is_teacher(taught.code, taught.secret)  # the real teacher's page is open
    with pytest.raises(ClassError, match="as many as it takes"):
        store.start(RUN, "r")  # the others were taught lately
    clock.now += 1
    first = store.start(RUN, "r")
    assert store.view(squatters[0].code) is None  # no student: it went first
    assert store.view(squatters[1].code) is not None
    store.start(RUN, "r")  # then the one with a bot in it
    assert store.view(squatters[1].code) is None
    assert store.view(taught.code) is not None and store.view(first.code) is not None
    with pytest.raises(ClassError, match="as many as it takes"):
        store.start(RUN, "r")


def test_one_client_teaches_at_most_two_classes(make_store: StoreMaker) -> None:
    store = make_store(max_classes=20)
    started = [store.start(RUN, "r", client="10.0.0.9") for _ in range(2)]
    with pytest.raises(ClassError, match="your address already teaches 2 classes"):
        store.start(RUN, "r", client="10.0.0.9")
    store.start(RUN, "r", client="10.0.0.10")  # another device: a class of its own
    store.end(started[0].code, started[0].secret)
    store.start(RUN, "r", client="10.0.0.9")  # room again for the first


def test_anonymous_students_are_numbered(make_store: StoreMaker) -> None:
    store = make_store()
    teacher = store.start(RUN, "r")
    names = [store.join(teacher.code, nick).name for nick in ("", "  ", "Ada", "")]
    assert names == ["anonymous 1", "anonymous 2", "Ada", "anonymous 3"]


def test_one_answer_per_student_and_hidden_until_the_reveal(make_store: StoreMaker) -> None:
    store = make_store()
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


def test_a_forged_secret_moves_nothing(make_store: StoreMaker) -> None:
    store = make_store()
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


def test_versions_change_with_the_class_not_with_answers_or_joins(make_store: StoreMaker) -> None:
    store = make_store()
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


def test_answers_from_many_threads_are_each_counted_once(make_store: StoreMaker) -> None:
    store = make_store()
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


def test_a_rename_is_bounded_and_told_apart(make_store: StoreMaker) -> None:
    store = make_store()
    teacher = store.start(RUN, "r")
    ada, other = store.join(teacher.code, "Ada"), store.join(teacher.code, "")
    assert store.rename(teacher.code, other.seat, " Ada ") == "Ada (2)"
    assert store.rename(teacher.code, other.seat, "") == "Ada (2)"  # empty: kept
    assert store.rename(teacher.code, ada.seat, "y" * 40) == "y" * 20
    assert store.rename(teacher.code, "not-a-seat-of-this-class", "Eve") is None


# --- seats: per client, given back, present, removed (issue 35 §3) -------------------------


def test_one_client_holds_at_most_four_seats_and_gets_its_own_back(make_store: StoreMaker) -> None:
    clock = Clock()
    store = make_store(clock=clock)
    teacher = store.start(RUN, "r")
    phone = store.join(teacher.code, "Ada", client="10.0.0.7")
    more = [store.join(teacher.code, "", client="10.0.0.7") for _ in range(3)]
    assert len({phone.seat, *(seat.seat for seat in more)}) == 4  # open pages: new seats
    with pytest.raises(ClassError, match="already holds 4 seats"):
        store.join(teacher.code, "", client="10.0.0.7")
    store.join(teacher.code, "Bo", client="10.0.0.8")  # another device joins as ever
    store.leave(teacher.code, phone.seat)
    again = store.join(teacher.code, "", client="10.0.0.7")  # the QR code scanned again
    assert again == phone  # the seat it left, its name with it
    clock.now += 60  # every page of 10.0.0.7 closed a minute ago
    for seat in more[1:]:
        store.version(teacher.code, seat.seat)  # two of them still poll
    back = store.join(teacher.code, "", client="10.0.0.7")
    assert back.seat in {phone.seat, more[0].seat}


def test_a_flood_of_joins_from_one_address_stops_at_its_share(make_store: StoreMaker) -> None:
    store = make_store()
    teacher = store.start(RUN, "r")
    taken, refused = 0, 0
    for _ in range(120):
        try:
            store.join(teacher.code, "", client="10.0.0.66")
            taken += 1
        except ClassError:
            refused += 1
    assert (taken, refused) == (4, 116)
    assert store.view(teacher.code).students == 4


def test_the_live_count_counts_seats_that_are_here(make_store: StoreMaker) -> None:
    clock = Clock()
    store = make_store(clock=clock)
    teacher = store.start(RUN, "r")
    ada, bo, cy = (store.join(teacher.code, name) for name in ("Ada", "Bo", "Cy"))
    store.ask(teacher.code, teacher.secret, 2, ("ab", "cd"), winner=0, detail={})
    store.answer(teacher.code, ada.seat, 0)
    store.leave(teacher.code, cy.seat)  # Cy left: not counted
    tally = store.tally(teacher.code, teacher.secret)
    assert (tally.answered, tally.students) == (1, 2)
    clock.now += 31  # only Bo's page checks the class
    store.version(teacher.code, bo.seat)
    tally = store.tally(teacher.code, teacher.secret)
    assert (tally.answered, tally.students) == (1, 2)  # Ada answered, so Ada counts
    assert store.view(teacher.code).present == 1


def test_the_teacher_sees_every_seat_and_removes_one_with_its_score(make_store: StoreMaker) -> None:
    store = make_store()
    teacher = store.start(RUN, "r")
    ada, bo = store.join(teacher.code, "Ada"), store.join(teacher.code, "Bo")
    store.ask(teacher.code, teacher.secret, 2, ("ab", "cd"), winner=0, detail={})
    store.answer(teacher.code, ada.seat, 0)
    store.answer(teacher.code, bo.seat, 0)
    store.reveal(teacher.code, teacher.secret)
    store.ask(teacher.code, teacher.secret, 3, ("ab", "cd"), winner=0, detail={})
    store.answer(teacher.code, bo.seat, 1)
    rows = store.roster(teacher.code, teacher.secret)
    assert [(r.name, r.present, r.right, r.answered) for r in rows] == [
        ("Ada", True, 1, 1),
        ("Bo", True, 1, 1),
    ]
    with pytest.raises(NotTeacher):
        store.roster(teacher.code, bo.seat)
    with pytest.raises(NotTeacher):
        store.remove(teacher.code, bo.seat, bo.seat)
    version = store.version(teacher.code)
    assert store.remove(teacher.code, teacher.secret, bo.seat)
    assert store.version(teacher.code) == version + 1  # every page hears of it
    assert store.version(teacher.code, bo.seat) is None and not store.seated(teacher.code, bo.seat)
    assert store.tally(teacher.code, teacher.secret).counts == (0, 0)  # Bo's answer went
    assert [r.name for r in store.roster(teacher.code, teacher.secret)] == ["Ada"]
    assert not store.remove(teacher.code, teacher.secret, bo.seat)


def test_a_full_class_gives_a_long_gone_seat_to_a_newcomer(make_store: StoreMaker) -> None:
    clock = Clock()
    store = make_store(clock=clock, max_students=2)
    teacher = store.start(RUN, "r")
    gone, here = store.join(teacher.code, "Gone"), store.join(teacher.code, "Here")
    with pytest.raises(ClassError, match="full"):
        store.join(teacher.code, "New")
    clock.now += 11 * 60
    store.version(teacher.code, here.seat)
    assert store.join(teacher.code, "New").name == "New"
    assert not store.seated(teacher.code, gone.seat) and store.seated(teacher.code, here.seat)


def test_an_open_question_hides_its_merge_from_all_but_who_may_see_it(
    make_store: StoreMaker,
) -> None:
    store = make_store()
    teacher = store.start(RUN, "r")
    ada, bo = store.join(teacher.code, "Ada"), store.join(teacher.code, "Bo")
    assert store.hidden_steps(None, ada) == {}
    store.ask(teacher.code, teacher.secret, 4, ("ab", "cd"), winner=0, detail={})
    assert store.hidden_steps(None, ada) == {RUN: 4}
    assert store.hidden_steps(None, None) == {RUN: 4}  # another tab, a link: no seat
    assert store.hidden_steps(teacher.code, None) == {}  # the teacher sees on
    store.answer(teacher.code, ada.seat, 1)
    assert store.hidden_steps(None, ada) == {} and store.hidden_steps(None, bo) == {RUN: 4}
    other = store.start(RUN, "r")  # a second class on the same run, at an earlier step
    store.ask(other.code, other.secret, 2, ("ab", "cd"), winner=0, detail={})
    assert store.hidden_steps(None, bo) == {RUN: 2}
    store.reveal(teacher.code, teacher.secret)
    store.end(other.code, other.secret)
    assert store.hidden_steps(None, bo) == {}


# --- the operator, and the run a class uses ------------------------------------------------


def test_the_operator_ends_a_class_of_a_running_store(tmp_path: Path) -> None:
    from ui.classroom import operator

    clock = Clock()
    store = ClassStore(snapshot_path=tmp_path / "classes.json", clock=clock)
    ended, kept = store.start(RUN, "r"), store.start(RUN, "r")
    operator.request_end(tmp_path, ended.code)
    clock.now += 2
    assert store.version(ended.code) is None and store.version(kept.code) is not None
    assert (
        ended.code not in json.loads((tmp_path / "classes.json").read_text())["classes"][0]["code"]
    )


def test_a_live_class_pins_its_run_against_eviction(tmp_path: Path) -> None:
    from ui.session import run_store

    config = run_store.StoreConfig(tmp_path, cap_bytes=3_000, run_cap_bytes=1_500)
    stored = run_store.StoredRun({"k": 1}, ("x" * 900,))
    run_store.save(config, RUN, stored)
    store = ClassStore(snapshot_path=tmp_path / "classes.json")
    teacher = store.start(RUN, "r")
    for k in range(6):  # others come and go: the class's run is the least recently read
        run_store.save(config, f"{k:016x}", stored)
    assert run_store.has(config, RUN)
    assert len(list(tmp_path.glob("*.run"))) <= 3
    store.end(teacher.code, teacher.secret)
    for k in range(10, 14):
        run_store.save(config, f"{k:016x}", stored)
    assert not (tmp_path / f"{RUN}.run").exists()  # unpinned once the class ended


def test_after_a_restart_a_teacher_has_ten_minutes_to_take_the_class_back(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "classes.json"
    store = ClassStore(snapshot_path=path, clock=clock, max_classes=1)
    taught = store.start(RUN, "r")
    clock.now += 3600  # an hour on, the server restarts; the class is not idle 3 hours
    again = ClassStore(snapshot_path=path, clock=clock, max_classes=1)
    with pytest.raises(ClassError, match="as many as it takes"):
        again.start(RUN, "r")  # the teacher's page may still reconnect
    clock.now += UNTAUGHT_SECONDS + 1
    again.start(RUN, "r")  # nobody took it back: it gave way
    assert again.view(taught.code) is None
