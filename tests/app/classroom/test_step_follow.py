"""A follow that reruns the step's fragment alone: only when the teacher's step is all that
moved, on the page whose fragment shows it, for a student still following the class's run.
(The rerun itself, in a real server: bench/classroom/class_load.py counts the fragment follows.)"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import streamlit as st

from ui.classroom import step_follow
from ui.classroom.model import ClassView, Place, QuestionView, ScoreRow
from ui.session import state as keys

FOLLOWED = ClassView("K7MQ3", 4, "run-key", "run", Place(step=3, passage="hi"), None, 2, None)


def student(page: str = "animate", last: int = 40) -> dict[str, Any]:
    """A following student's state after a whole run of `page`, its fragment offered."""
    state: dict[str, Any] = {
        keys.CLASS_SEAT: "a seat",
        keys.CLASS_RUN: "run",
        keys.SIDEBAR_RUN: "run",
        keys.RUNS: {"run": object()},
        keys.CLASS_FOLLOWED: FOLLOWED,
    }
    step_follow.offer(state, page, f"{page}_view", last)
    return state


def moved(**place: Any) -> ClassView:
    return replace(FOLLOWED, version=5, place=replace(FOLLOWED.place, **place))


def test_a_step_alone_reruns_the_page_fragment() -> None:
    offered = step_follow.fragment_for(student(), moved(step=4), "animate")
    assert offered == step_follow.StepFragment("animate", "animate_view", 40)
    joined = replace(moved(step=9), students=30)  # a student joined meanwhile: not shown
    assert step_follow.fragment_for(student(), joined, "animate") == offered


@pytest.mark.parametrize(
    "view",
    [
        moved(step=4, passage="another passage"),
        moved(page="tokens"),
        moved(step=41),  # past what this student's view size shows
        replace(moved(step=4), question=QuestionView(1, 4, ("a", "b"), revealed=False)),
        replace(moved(step=4), scores=(ScoreRow("Ada", 1, 1),)),
        replace(moved(step=4), run_key="another run"),
    ],
    ids=["passage", "page", "past-last", "question", "scores", "run"],
)
def test_anything_else_reruns_the_whole_page(view: ClassView) -> None:
    assert step_follow.fragment_for(student(), view, "animate") is None


def test_only_a_following_student_on_that_page() -> None:
    state = student()
    assert step_follow.fragment_for(state, moved(step=4), "tokens") is None  # another page
    state[keys.CLASS_AWAY] = True  # stepped away: their own step
    assert step_follow.fragment_for(state, moved(step=4), "animate") is None
    state = student()
    state[keys.SIDEBAR_RUN] = "their own run"
    assert step_follow.fragment_for(state, moved(step=4), "animate") is None
    state = student()
    del state[keys.CLASS_FOLLOWED]  # no whole run followed the class yet
    assert step_follow.fragment_for(state, moved(step=4), "animate") is None
    state = student()
    del state[keys.CLASS_STEP_FRAGMENT]
    assert step_follow.fragment_for(state, moved(step=4), "animate") is None


def test_on_tokens_the_encode_step() -> None:
    on_tokens = replace(FOLLOWED, place=Place("tokens", 3, "hi", "lower", 2))
    state = student("tokens", last=5)
    state[keys.CLASS_FOLLOWED] = on_tokens
    step = replace(on_tokens, version=5, place=replace(on_tokens.place, encode_step=3))
    assert step_follow.fragment_for(state, step, "tokens") is not None
    past = replace(step, place=replace(step.place, encode_step=6))
    assert step_follow.fragment_for(state, past, "tokens") is None
    text = replace(step, place=replace(step.place, encode_text="other"))
    assert step_follow.fragment_for(state, text, "tokens") is None


def test_the_teacher_and_others_are_offered_nothing() -> None:
    state: dict[str, Any] = {}
    step_follow.offer(state, "animate", "animate_view", 40)
    assert keys.CLASS_STEP_FRAGMENT not in state


def test_a_step_shown_nowhere_reruns_nothing() -> None:
    away = student()
    away[keys.CLASS_AWAY] = True  # their own step is on screen
    assert step_follow.shown_nowhere(away, moved(step=4), "animate")
    elsewhere = student()  # on Train while the teacher steps on Animate
    assert step_follow.shown_nowhere(elsewhere, moved(step=4), "")
    assert not step_follow.shown_nowhere(student(), moved(step=4), "animate")  # the fragment
    asked = replace(moved(step=4), question=QuestionView(1, 4, ("a", "b"), revealed=False))
    assert not step_follow.shown_nowhere(away, asked, "animate")  # the question shows
    assert not step_follow.shown_nowhere(elsewhere, moved(page="tokens"), "")  # the banner


def test_a_light_follow_sets_what_a_whole_run_would() -> None:
    elsewhere = student()
    assert step_follow.followed_lightly(elsewhere, moved(step=4), "")
    assert elsewhere[keys.ANIMATE_STEP] == 4 and elsewhere[keys.CLASS_SEEN] == 5
    assert elsewhere[keys.CLASS_FOLLOWED] == moved(step=4)
    away = student()
    away[keys.CLASS_AWAY] = True
    away[keys.ANIMATE_STEP] = 12  # their own
    assert step_follow.followed_lightly(away, moved(step=4), "animate")
    assert away[keys.ANIMATE_STEP] == 12 and away[keys.CLASS_PLACE].step == 4
    assert not step_follow.followed_lightly(student(), moved(passage="new"), "animate")


class Ended(BaseException):
    """How the test sees st.rerun / st.stop end the run (each raises in Streamlit too)."""


@pytest.mark.parametrize(
    ("asked", "ends_with"),
    [(True, "empty"), (False, "stop"), (None, "rerun")],
)
def test_rerun_fragment_ends_the_run_as_the_door_allows(
    monkeypatch: pytest.MonkeyPatch, asked: bool | None, ends_with: str
) -> None:
    """Asked: a yield point ends the run (the runner takes the request there); a stopping
    session: st.stop(); not askable (another Streamlit, a renamed RerunData field, the
    fragment not drawn): the whole page reruns, as the docstring promises. Streamlit's
    side of it is canaried in tests/app/server/test_streamlit_internals.py."""
    monkeypatch.setattr(step_follow, "ask_fragment_rerun", lambda key: asked)
    for name in ("empty", "stop", "rerun"):

        def end(*args: object, name: str = name, **kwargs: object) -> None:
            raise Ended(name)

        monkeypatch.setattr(st, name, end)
    with pytest.raises(Ended) as ended:
        step_follow.rerun_fragment("animate_step_view")
    assert ended.value.args == (ends_with,)
