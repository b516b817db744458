"""A class in AppTest with its classes in a real redis-server (BPE_EXPLORER_REDIS_URL):
the teacher and a student go on as with the memory store; Redis stopped, their pages
go on working alone with one sentence about the class and no traceback, and the class
resumes, step and seat and answer, when Redis returns."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from harness.redis_server import RedisServer
from tests.app_support import open_app, texts_of
from ui.classroom import redis_store
from ui.classroom import session as classroom
from ui.classroom.stores import REDIS_URL_VARIABLE
from ui.session import state as keys

OUT_OF_REACH = "The class is out of reach just now"


@pytest.fixture
def shared_classes(
    own_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[RedisServer]:
    """The app's class store is the Redis of this test."""
    monkeypatch.setenv(REDIS_URL_VARIABLE, own_redis.url)
    classroom.class_store.clear()
    yield own_redis
    classroom.class_store.clear()


def warnings_of(app: AppTest) -> list[str]:
    return [str(warning.value) for warning in app.warning]


def drawn_parts(app: AppTest) -> int:
    """The HTML the page draws apart from the class's own parts (the teacher's card, which
    needs the store): the step's cards, the passage, the pair table."""
    card = ("class-qr", "Open this link or scan the code")
    html = [str(element.proto.body) for element in app.main.get("html")]
    return sum(1 for body in html if not any(mark in body for mark in card))


def rerun_until_back(app: AppTest) -> None:
    """Rerun the page until the store tries Redis again (RETRY_SECONDS after it failed)."""
    deadline = time.monotonic() + redis_store.RETRY_SECONDS + 10
    while True:
        app.run()
        assert not app.exception, app.exception
        if not any(OUT_OF_REACH in text for text in warnings_of(app)):
            return
        assert time.monotonic() < deadline, warnings_of(app)
        time.sleep(0.3)


def test_a_class_in_redis_survives_redis_stopping(shared_classes: RedisServer) -> None:
    teacher = open_app("animate")
    teacher.button(key=keys.CLASS_START).click().run()
    assert not teacher.exception, teacher.exception
    held = classroom.teaching(teacher.session_state)
    assert held is not None
    student = open_app("animate", {"class": held.code})
    assert classroom.taken_seat(student.session_state) is not None
    teacher.button(key=keys.ANIMATE_NEXT).click().run()
    student.run()
    assert student.session_state[keys.ANIMATE_STEP] == 1
    drawn = {id(app): drawn_parts(app) for app in (student, teacher)}

    shared_classes.stop()
    for app in (student, teacher):
        app.run()
        assert drawn_parts(app) == drawn[id(app)]  # the step's own parts are all there
        assert not app.exception, app.exception
        said = [text for text in warnings_of(app) if OUT_OF_REACH in text]
        assert len(said) == 1, warnings_of(app)  # one sentence, however many parts met it
        assert app.button(key=keys.ANIMATE_NEXT)  # the page itself works on
        assert not app.error, [str(error.value) for error in app.error]
    teacher.button(key=keys.ANIMATE_NEXT).click().run()  # the step is the teacher's own
    assert not teacher.exception and teacher.session_state[keys.ANIMATE_STEP] == 2
    assert classroom.teaching(teacher.session_state) is not None  # still teaching
    student.button(key=keys.CLASS_LEAVE).click().run()  # a press needs the store: said
    assert not student.exception and classroom.taken_seat(student.session_state) is not None

    shared_classes.restart()
    rerun_until_back(teacher)
    teacher.button(key=keys.ANIMATE_NEXT).click().run()  # published again: the class moves
    rerun_until_back(student)
    assert student.session_state[keys.ANIMATE_STEP] == 3
    assert any("Following the teacher" in text for text in texts_of(student.markdown))
