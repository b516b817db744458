"""A class in AppTest: the teacher starts it, students join by link and by code, follow
the teacher's step (and step away and back), answer a question once, see it revealed;
nicknames are shown literally; a student cannot drive the class; a restart keeps it.
Every test runs twice: the classes in this process's memory, and in a real Redis."""

from __future__ import annotations

import html
import secrets

import pytest
from streamlit.testing.v1 import AppTest

from tests.app_support import open_app, texts_of
from ui.classroom import session as classroom
from ui.classroom import snapshot, stores, teaching
from ui.classroom.model import Place, Seat
from ui.classroom.store import ClassStore
from ui.session import run_store
from ui.session import state as keys
from ui.session.encode_place import encode_place
from ui.session.markdown import markdown_text
from ui.views.shared_charts import vega_lite_once


@pytest.fixture(autouse=True, params=["memory", "redis"])
def fresh_store(request, monkeypatch):
    """Each test has the server's store to itself (and no snapshot of another test's), in
    this process's memory, then in a real Redis (its own prefix of keys: a new server's)."""
    folder = run_store.config_from_env().folder
    (folder / snapshot.FILE_NAME).unlink(missing_ok=True)
    if request.param == "redis":
        server = request.getfixturevalue("redis_server")
        monkeypatch.setenv(stores.REDIS_URL_VARIABLE, server.url)
        monkeypatch.setenv(stores.REDIS_PREFIX_VARIABLE, f"app-{secrets.token_hex(4)}:")
    classroom.class_store.clear()
    yield
    classroom.class_store.clear()


def teach() -> tuple[AppTest, str]:
    teacher = open_app("animate")
    teacher.button(key=keys.CLASS_START).click().run()
    assert not teacher.exception, teacher.exception
    return teacher, teaching_of(teacher).code


def teaching_of(app: AppTest) -> classroom.Teaching:
    held = classroom.teaching(app.session_state)
    assert held is not None
    return held


def seat_of(app: AppTest) -> Seat:
    held = classroom.taken_seat(app.session_state)
    assert held is not None
    return held


def join_by_code(code: str, nickname: str = "") -> AppTest:
    student = open_app("animate")
    student.text_input(key=keys.CLASS_CODE).input(code.lower()).run()
    student.text_input(key=keys.CLASS_NICKNAME).input(nickname).run()
    student.button(key=keys.CLASS_JOIN).click().run()
    assert not student.exception, student.exception
    return student


def page_html(app: AppTest) -> str:
    return "".join(str(element.proto.body) for element in app.get("html"))


def winner_of(code: str) -> int:
    """The open question's answer, as the store keeps it (the test's own look inside)."""
    store = classroom.class_store()
    room = store._classes[code] if isinstance(store, ClassStore) else store._load(code)
    return room.question.winner


def class_step(code: str) -> int:
    return classroom.class_store().view(code).place.step


def test_start_and_join_by_link_and_by_code() -> None:
    teacher, code = teach()
    card = page_html(teacher)
    assert f"?class={code}" in card and 'alt="QR code of the join link"' in card
    assert "data:image/png;base64," in card and code in card
    assert any(f"**Teaching class {code}**" in text for text in texts_of(teacher.markdown))
    assert "secret" not in str(dict(teacher.query_params))  # the secret is in no URL
    by_link = open_app("animate", {"class": code})
    seat = seat_of(by_link)
    assert (seat.code, seat.name) == (code, "anonymous 1")
    assert by_link.query_params["seat"] == seat.seat  # a reload keeps the seat
    by_code = join_by_code(code, "Ada")
    assert seat_of(by_code).name == "Ada"
    assert any("Following the teacher" in text for text in texts_of(by_code.markdown))
    run_of = {app.session_state[keys.SIDEBAR_RUN] for app in (by_link, by_code)}
    assert len(run_of) == 1  # the teacher's run, from the run store
    teacher.run()
    assert any("Teaching class" in t and "2 joined" in t for t in texts_of(teacher.markdown))
    assert "**2 students joined** · 2 here now" in texts_of(teacher.markdown)


def test_a_wrong_code_says_so() -> None:
    student = open_app(None, {"class": "ZZZZZ"})  # the notice shows once, on this run
    assert any("no class on this server" in text for text in texts_of(student.warning))
    assert "class" not in student.query_params
    student = open_app(None, {"class": "<script>"})
    assert any("not a class code" in text for text in texts_of(student.warning))


def test_students_follow_step_away_and_come_back() -> None:
    teacher, code = teach()
    student = open_app("animate", {"class": code})
    for _ in range(3):
        teacher.button(key=keys.ANIMATE_NEXT).click().run()
    assert class_step(code) == 3
    student.run()  # what the follow fragment's rerun does
    assert student.session_state[keys.ANIMATE_STEP] == 3
    passage = teacher.session_state[keys.ANIMATE_PASSAGE]
    assert student.session_state[keys.ANIMATE_PASSAGE] == passage
    student.button(key=keys.CLASS_STEP_AWAY).click().run()
    teacher.button(key=keys.ANIMATE_NEXT).click().run()
    student.run()
    assert student.session_state[keys.ANIMATE_STEP] == 3  # their own step
    student.button(key=keys.CLASS_BACK).click().run()
    assert student.session_state[keys.ANIMATE_STEP] == 4
    student.button(key=keys.ANIMATE_BACK).click().run()  # a step of their own: away
    assert student.session_state[keys.CLASS_AWAY] and class_step(code) == 4
    assert any("stepped away" in text for text in texts_of(student.markdown))


def shows_the_class(student: AppTest, step: int) -> bool:
    """The student's page follows the class, at its step (as its next run draws it too)."""
    following = not student.session_state[keys.CLASS_AWAY]
    return following and student.session_state[keys.ANIMATE_STEP] == step


def test_a_page_behind_the_class_follows_it_into_a_question_and_out() -> None:
    """The class moves twice while a student's page does not look (a step and a question,
    then the reveal and its step): the page's address still says the step it showed last,
    and the question changes the step slider's range. The page follows the class and
    stays with it (it used to draw the address's step and say "You stepped away")."""
    teacher, code = teach()
    student = open_app("animate", {"class": code})
    teacher.button(key=keys.ANIMATE_NEXT).click().run()
    student.run()
    assert shows_the_class(student, 1)
    teacher.button(key=keys.ANIMATE_NEXT).click().run()
    teacher.button(key=keys.CLASS_ASK).click().run()
    student.query_params["animate_step"] = "1"  # as a browser's address lags its page
    for _ in range(2):  # the follow (the question's veil: a slider to step 2), the next run
        student.run()
        assert not student.exception, student.exception
        assert shows_the_class(student, 2), student.session_state[keys.ANIMATE_STEP]
    teacher.button(key=keys.CLASS_REVEAL).click().run()  # unanswered: the veil lifts
    assert class_step(code) == 3
    student.query_params["animate_step"] = "2"
    for _ in range(2):
        student.run()
        assert shows_the_class(student, 3), student.session_state[keys.ANIMATE_STEP]
    assert any("Following the teacher" in text for text in texts_of(student.markdown))


def test_a_link_with_a_step_joins_at_the_class_step() -> None:
    teacher, code = teach()
    teacher.button(key=keys.ANIMATE_NEXT).click().run()
    student = open_app("animate", {"class": code, "animate_step": "5"})
    student.run()
    assert shows_the_class(student, 1), student.session_state[keys.ANIMATE_STEP]
    student.button(key=keys.ANIMATE_NEXT).click().run()  # a step of their own: away, from 1
    assert student.session_state[keys.CLASS_AWAY]
    assert student.session_state[keys.ANIMATE_STEP] == 2
    assert student.query_params["animate_step"] == "2"  # bound again: their own step


def test_encode_step_by_step_follows_on_tokens() -> None:
    teacher, code = teach()
    teacher.switch_page("pages/tokens.py")
    teacher.session_state[keys.TOKENS_ENCODE_OPEN] = True
    teacher.run()
    teacher.button(key=keys.TOKENS_ENCODE_NEXT).click().run()
    teacher.button(key=keys.TOKENS_ENCODE_NEXT).click().run()
    place = classroom.class_store().view(code).place
    assert (place.page, place.encode_step) == ("tokens", 2) and place.encode_text
    student = open_app("tokens", {"class": code})
    student.run()
    assert encode_place(student.session_state).step == 2
    assert student.session_state[keys.TOKENS_ENCODE_TEXT] == place.encode_text


def test_a_question_answered_once_counted_and_revealed() -> None:
    teacher, code = teach()
    ada, bo = (join_by_code(code, name) for name in ("Ada", "Bo"))
    teacher.button(key=keys.CLASS_ASK).click().run()
    assert any("Answered: 0 of 2 students" in text for text in texts_of(teacher.markdown))
    ada.run()
    bo.run()
    shown = " ".join(texts_of(ada.markdown) + texts_of(ada.caption))
    assert "Answered:" not in shown and "picked the merge" not in shown  # no counts yet
    assert "Pair counts" not in shown
    winner = winner_of(code)
    ada.radio(key=keys.CLASS_ANSWER).set_value(winner).run()
    ada.button(key=keys.CLASS_SEND).click().run()
    assert any("Your answer is in" in text for text in texts_of(ada.info))
    assert keys.CLASS_ANSWER not in [r.key for r in ada.radio]  # no second pick offered
    wrong = (winner + 1) % len(bo.radio(key=keys.CLASS_ANSWER).options)
    bo.radio(key=keys.CLASS_ANSWER).set_value(wrong).run()
    bo.button(key=keys.CLASS_SEND).click().run()
    teacher.run()
    assert any("Answered: 2 of 2 students" in text for text in texts_of(teacher.markdown))
    assert not ada.success and not ada.warning  # nothing revealed yet
    teacher.button(key=keys.CLASS_REVEAL).click().run()
    assert teacher.session_state[keys.ANIMATE_STEP] == 1  # on to the merge
    ada.run()
    bo.run()
    assert any(text.startswith("Right!") for text in texts_of(ada.success))
    assert any(text.startswith("Not") for text in texts_of(bo.warning))
    assert any("1 of 2 answers" in text for text in texts_of(bo.markdown))
    # the room's chart: converted once for everyone (every follow redraws it), the same spec
    charts = [[c.proto for c in app.get("vega_lite_chart")] for app in (ada, bo, teacher)]
    answers = [[c for c in drawn if "The class's answers" in c.spec] for drawn in charts]
    assert [len(found) for found in answers] == [1, 1, 1], [len(drawn) for drawn in charts]
    assert answers[0][0].spec == answers[1][0].spec == answers[2][0].spec
    assert "Bar chart of the class's answers" in answers[0][0].alt
    shown = classroom.class_store().view(code).question
    kept = vega_lite_once(
        ("class answers", shown.labels, shown.counts, shown.winner),
        lambda: pytest.fail("the revealed chart was not kept for the next session"),
    )
    assert kept["title"] == "The class's answers"
    teacher.toggle(key=keys.CLASS_SCORES).set_value(True).run()
    bo.run()
    scores = bo.dataframe[0].value
    assert list(scores["Student"]) == ["Ada", "Bo"] and list(scores["Right"]) == [1, 0]


def test_a_student_cannot_drive_the_class() -> None:
    _teacher, code = teach()
    student = open_app("animate", {"class": code, "animate_step": "5"})
    assert class_step(code) == 0
    classroom.set_teaching(student.session_state, classroom.Teaching(code, "guess", ""))
    student.button(key=keys.ANIMATE_NEXT).click().run()
    assert class_step(code) == 0 and classroom.teaching(student.session_state) is None
    student.query_params["class"] = code
    student.query_params["secret"] = "guess"
    student.run()
    assert keys.CLASS_ASK not in [b.key for b in student.button]
    assert keys.CLASS_REVEAL not in [b.key for b in student.button]
    student.button(key=keys.CLASS_LEAVE).click().run()
    student.text_input(key=keys.CLASS_TAKE_BACK).input(f"{code}-guess").run()
    student.button(key=keys.CLASS_TAKE_BACK_GO).click().run()
    assert any("does not open a class" in text for text in texts_of(student.warning))
    assert class_step(code) == 0


@pytest.mark.parametrize("nickname", ["<b>x</b>", "[a](http://e)", ":red[x]"])
def test_a_nickname_is_shown_literally(nickname: str) -> None:
    teacher, code = teach()
    student = join_by_code(code, nickname)
    shown = [str(element.value) for element in student.markdown]
    assert any(markdown_text(nickname) in text for text in shown)
    assert not any(nickname in text for text in shown)  # never the raw Markdown
    assert nickname not in page_html(student)
    classroom.class_store().show_scores(code, teaching_of(teacher).secret, True)
    teacher.run()
    assert list(teacher.dataframe[0].value["Student"]) == [nickname]  # a cell: literal
    assert html.escape(nickname) not in "".join(str(e.value) for e in teacher.markdown)


def test_a_restart_keeps_the_class_and_the_seats() -> None:
    teacher, code = teach()
    secret = teaching_of(teacher).secret
    student = join_by_code(code, "Ada")
    token = seat_of(student).seat
    classroom.class_store().move(code, secret, Place(step=2))
    run_key = classroom.class_store().view(code).run_key
    assert run_store.has(run_store.config_from_env(), run_key)  # a sample's run, kept for it
    classroom.class_store.clear()  # a new process: the store is read back from the snapshot
    classroom.class_runs.clear()  # and the run from the run store
    again = open_app("animate", {"class": code, "seat": token})
    assert seat_of(again).name == "Ada"
    assert again.session_state[keys.ANIMATE_STEP] == 2
    back = open_app("animate")
    back.text_input(key=keys.CLASS_TAKE_BACK).input(teaching.teacher_key(code, secret)).run()
    back.button(key=keys.CLASS_TAKE_BACK_GO).click().run()
    assert teaching_of(back).code == code
    back.button(key=keys.ANIMATE_NEXT).click().run()
    assert class_step(code) == 3


def test_a_student_names_themselves_and_sees_where_the_teacher_is() -> None:
    teacher, code = teach()
    student = open_app("animate", {"class": code})
    student.text_input(key=keys.CLASS_RENAME).input("Grace").run()
    assert seat_of(student).name == "Grace"
    assert any("as Grace" in text for text in texts_of(student.markdown))
    teacher.switch_page("pages/tokens.py")
    teacher.session_state[keys.TOKENS_ENCODE_OPEN] = True
    teacher.run()
    student.run()
    links = [str(link.proto.label) for link in student.get("page_link")]
    assert "The teacher is on Tokens" in links


# --- issue 35 §3: the answer before the answer, the teacher's list --------------------------


def merges_shown(app: AppTest) -> int:
    """The most merges this session's pages may show of the current run: the sidebar's
    view size, less the 256 bytes."""
    return int(app.slider(key=keys.SIDEBAR_VIEW_SIZE).max) - 256


def test_an_open_question_keeps_its_merge_off_every_page_until_answered() -> None:
    teacher, code = teach()
    ada, bo = join_by_code(code, "Ada"), join_by_code(code, "Bo")
    for _ in range(2):
        teacher.button(key=keys.ANIMATE_NEXT).click().run()
    full = merges_shown(teacher)
    run_key = classroom.class_store().view(code).run_key
    teacher.button(key=keys.CLASS_ASK).click().run()
    assert classroom.class_store().view(code).question.step == 2
    ada.run()
    bo.run()
    assert merges_shown(ada) == 2 < full and merges_shown(teacher) == full
    assert any("merge 3 and those after it" in text for text in texts_of(ada.caption))
    ada.button(key=keys.CLASS_STEP_AWAY).click().run()  # Step away: → stops at the question
    assert ada.button(key=keys.ANIMATE_NEXT).disabled
    assert ada.slider(key=keys.ANIMATE_STEP).max == 2
    ada.slider(key=keys.ANIMATE_STEP).set_value(2).run()
    assert ada.session_state[keys.ANIMATE_STEP] == 2
    assert "Step 3" not in " ".join(texts_of(ada.markdown))
    assert ada.number_input(key=keys.ANIMATE_LESSON_STEPS).max == 2  # the lesson file
    ada.switch_page("pages/train.py").run()
    assert not ada.exception, ada.exception
    assert [len(frame.value) for frame in ada.dataframe if "token" in frame.value][:1] == [2]
    ada.switch_page("pages/vocabulary.py").run()
    assert not ada.exception, ada.exception
    assert any("258" in text for text in texts_of(ada.markdown) + texts_of(ada.caption))
    by_link = open_app("animate", {"run": run_key})  # another tab on the run's link
    assert merges_shown(by_link) == 2
    ada.switch_page("pages/animate.py").run()
    ada.button(key=keys.CLASS_BACK).click().run()
    ada.radio(key=keys.CLASS_ANSWER).set_value(0).run()
    ada.button(key=keys.CLASS_SEND).click().run()
    assert merges_shown(ada) == full  # answered: the rest is hers
    bo.run()
    assert merges_shown(bo) == 2
    teacher.button(key=keys.CLASS_REVEAL).click().run()
    bo.run()
    by_link.run()
    assert not bo.exception and not by_link.exception, (bo.exception, by_link.exception)
    assert merges_shown(bo) == full and merges_shown(by_link) == full
    for app in (bo, by_link):  # opened under the veil or not, the view is the whole run again
        assert app.session_state[keys.SIDEBAR_VIEW_SIZE] == 256 + full
        assert "view" not in app.query_params


def test_the_teacher_lists_the_seats_and_removes_one() -> None:
    teacher, code = teach()
    ada, bo = join_by_code(code, "Ada"), join_by_code(code, "Bo")
    teacher.run()
    listed = [frame.value for frame in teacher.dataframe if "Here" in frame.value]
    assert list(listed[0]["Student"]) == ["Ada", "Bo"] and list(listed[0]["Here"]) == ["here"] * 2
    teacher.selectbox(key=keys.CLASS_REMOVE_PICK).set_value(seat_of(bo).seat).run()
    teacher.button(key=keys.CLASS_REMOVE).click().run()
    assert not teacher.exception, teacher.exception
    assert [s.name for s in classroom.class_store().roster(code, teaching_of(teacher).secret)] == [
        "Ada"
    ]
    bo.run()
    assert classroom.taken_seat(bo.session_state) is None
    assert any("took your seat out" in text for text in texts_of(bo.warning))
    ada.run()
    assert seat_of(ada).name == "Ada"
