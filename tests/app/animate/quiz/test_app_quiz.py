"""Predict the next merge: pick a pair, reveal, read why, keep a score (per session)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app_support import open_app, pair_tables, texts_of
from ui.animate.quiz import questions as quiz
from ui.session import state as keys

CLASSIC = {"sample": "aaabdaaabac", "vocab": "259", "pattern": "none"}


def quiz_on(query: dict[str, str] | None = None) -> AppTest:
    app = open_app("animate", {**CLASSIC, **(query or {})})
    app.toggle(key=keys.ANIMATE_QUIZ).set_value(True).run()
    assert not app.exception
    return app


def question(app: AppTest) -> quiz.Question:
    asked = app.session_state[keys.ANIMATE_QUIZ_QUESTION]
    assert asked.step == app.slider(key=keys.ANIMATE_STEP).value
    return asked


def pick(app: AppTest, label: str) -> None:
    """Choose the option that shows this pair, as a learner clicks it."""
    index = question(app).labels.index(label)
    app.radio(key=keys.ANIMATE_QUIZ_PICK).set_value(index).run()


def reveal(app: AppTest) -> None:
    app.button(key=keys.ANIMATE_QUIZ_REVEAL).click().run()
    assert not app.exception


def said(app: AppTest) -> str:
    return " ".join(texts_of(app.success) + texts_of(app.warning) + texts_of(app.info))


def score(app: AppTest) -> str:
    return next(t for t in texts_of(app.markdown) if t.startswith("**Score:**"))


def test_the_question_hides_the_counts_and_the_table() -> None:
    app = quiz_on()
    asked = question(app)
    assert asked.merge == 1 and sorted(asked.labels) == sorted(
        ["('a', 'a')", "('a', 'b')", "('b', 'd')", "('d', 'a')", "('b', 'a')"]
    )
    assert not pair_tables(app)  # the table's counts would give it away
    options = app.radio(key=keys.ANIMATE_QUIZ_PICK)
    assert options.value is None and "merge 1" in options.label
    assert not any(char.isdigit() for char in " ".join(map(str, options.options)))
    assert app.button(key=keys.ANIMATE_QUIZ_REVEAL).disabled  # nothing picked yet
    assert score(app) == "**Score:** No answers yet"


def test_a_right_answer_is_told_why_and_scored() -> None:
    app = quiz_on()
    pick(app, "('a', 'a')")
    reveal(app)
    assert app.slider(key=keys.ANIMATE_STEP).value == 1  # the merge is shown
    assert texts_of(app.success)
    assert "Right! Merge 1 fuses" in said(app) and "seen 4 times" in said(app)
    assert "('a', 'b') 2" in said(app)  # every option's count, now revealed
    assert score(app) == "**Score:** 1 of 1 right"
    assert question(app).merge == 2  # the next question is asked
    assert app.radio(key=keys.ANIMATE_QUIZ_PICK).value is None


def test_a_wrong_answer_in_a_tie_names_the_rule() -> None:
    app = quiz_on({"animate_step": "1"})
    pick(app, "('a', 'b')")  # seen as often as ('aa', 'a'), but later
    reveal(app)
    told = said(app)
    assert texts_of(app.warning) and not texts_of(app.success)
    assert "Not quite: ('a', 'b') was also seen 2 times" in told
    assert "occurs first" in told and "at token 1" in told and "at token 2" in told
    assert score(app) == "**Score:** 0 of 1 right"


def test_a_plain_wrong_answer_gives_both_counts() -> None:
    app = quiz_on()
    pick(app, "('b', 'd')")
    reveal(app)
    assert "Not this one: ('b', 'd') was seen 1 time, but ('a', 'a') was seen 4" in said(app)


def test_stepping_forward_without_a_pick_is_a_skip() -> None:
    app = quiz_on()
    app.button(key=keys.ANIMATE_NEXT).click().run()
    assert app.slider(key=keys.ANIMATE_STEP).value == 1
    assert "Skipped. Merge 1 fuses ('a', 'a'), seen 4 times" in said(app)
    assert score(app) == "**Score:** 0 of 0 right, 1 skipped"
    pick(app, "('aa', 'a')")
    app.button(key=keys.ANIMATE_NEXT).click().run()  # a step forward with a pick reveals
    assert "Right!" in said(app)
    assert score(app) == "**Score:** 1 of 1 right, 1 skipped"
    app.button(key=keys.ANIMATE_BACK).click().run()  # back never scores
    assert score(app) == "**Score:** 1 of 1 right, 1 skipped"


def test_the_score_adds_up_and_resets() -> None:
    app = quiz_on()
    pick(app, "('a', 'a')")
    reveal(app)
    pick(app, "('a', 'b')")
    reveal(app)
    pick(app, question(app).labels[question(app).winner])
    reveal(app)
    assert score(app) == "**Score:** 2 of 3 right"
    assert any("no merge is left to predict" in text for text in texts_of(app.info))
    app.button(key=keys.ANIMATE_QUIZ_RESET).click().run()
    assert score(app) == "**Score:** No answers yet"
    assert app.button(key=keys.ANIMATE_QUIZ_RESET).disabled


def test_each_session_keeps_its_own_score() -> None:
    first, second = quiz_on(), quiz_on()
    assert question(first).labels == question(second).labels  # one order for the class
    pick(first, "('a', 'a')")
    reveal(first)
    assert score(first) == "**Score:** 1 of 1 right"
    assert score(second) == "**Score:** No answers yet"
    assert question(second).step == 0


def test_the_presenter_view_asks_in_a_row() -> None:
    app = quiz_on({"present": "1", "animate_step": "2"})
    options = app.radio(key=keys.ANIMATE_QUIZ_PICK)
    assert options.proto.horizontal  # one row on a projector, above the passage
    pick(app, question(app).labels[question(app).winner])
    reveal(app)
    assert "Right!" in said(app) and app.slider(key=keys.ANIMATE_STEP).value == 3


def test_under_the_lowest_ids_rule_the_reason_names_the_ids() -> None:
    app = quiz_on({"tie_rule": "lowest-ids", "animate_step": "1"})
    pick(app, "('aa', 'a')")  # first in the text, but this run takes the lowest ids
    reveal(app)
    told = said(app)
    assert "Not quite: ('aa', 'a') was also seen 2 times, as often as ('a', 'b')" in told
    assert "('a', 'b') has the lower ids ((97, 98) before (256, 97))" in told
