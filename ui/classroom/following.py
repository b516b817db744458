"""A student's part in a class: join (by link or code), follow the teacher's place, step
away and back, rename, leave, and the poll that notices the class moved. See
ui/classroom/session.py for the whole picture."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import streamlit as st

from ui.classroom import codes, step_follow
from ui.classroom.model import ClassView, Place
from ui.classroom.rules import ClassError, ClassesUnavailable
from ui.classroom.session import (
    CLASS_PARAM,
    SEAT_PARAM,
    class_store,
    client_address,
    drop_class_params,
    follow_place,
    leave_seat,
    mark_seen,
    notice,
    open_class_run,
    reachable,
    seat,
    set_seat,
    stop_teaching,
    taken_seat,
    teacher,
    teaching,
)
from ui.session import state as keys
from ui.session.encode_place import move_kept_step
from ui.session.state import State


def arrive() -> None:
    """At the top of every run: join the class the URL names (`?class=CODE`), or the one
    typed in the sidebar, unless this session is in it already."""
    state = st.session_state
    wanted = codes.normalize_code(str(st.query_params.get(CLASS_PARAM, "")))
    held = teacher()
    if not wanted or (held is not None and held[0] == wanted):
        return
    current = seat()
    if current is not None and current.code == wanted:
        return
    if not codes.is_code(wanted):
        notice(f"{wanted[:12]!r} is not a class code: codes are {codes.CODE_LENGTH} letters.")
        drop_class_params()
        return
    token = str(st.query_params.get(SEAT_PARAM, ""))
    join(wanted, str(state.get(keys.CLASS_NICKNAME) or ""), token if codes.is_seat(token) else None)


@reachable
def join_typed() -> None:
    """The sidebar's Join button: the code and nickname typed."""
    code = codes.normalize_code(str(st.session_state.get(keys.CLASS_CODE) or ""))
    if not codes.is_code(code):
        notice(f"Type the {codes.CODE_LENGTH}-letter code the teacher shows.")
        return
    stop_teaching(st.session_state)
    join(code, str(st.session_state.get(keys.CLASS_NICKNAME) or ""), None)


def join(code: str, nickname: str, token: str | None) -> None:
    """Take a seat in the class and open its run (from the run store, never trained)."""
    store = class_store()
    try:
        taken = store.join(code, nickname, token, client=client_address())
    except ClassError as exc:
        notice(f"Could not join the class: {exc}.")
        drop_class_params()
        return
    view = store.view(code)
    if view is None or not open_class_run(view):
        return
    state = st.session_state
    set_seat(state, taken)
    state[keys.CLASS_AWAY] = False
    state.pop(keys.CLASS_SEEN, None)
    st.query_params[CLASS_PARAM] = code
    st.query_params[SEAT_PARAM] = taken.seat


@reachable
def leave() -> None:
    """The Leave button: the seat stays the student's (this device gets it back, score and
    all, by the link or the code), but is no longer counted as here."""
    held = seat()
    if held is not None:
        class_store().leave(held.code, held.seat)
    leave_seat()
    drop_class_params()


@reachable
def rename() -> None:
    """The banner's nickname box: the student's name in the class (and their seat's)."""
    held = seat()
    typed = str(st.session_state.get(keys.CLASS_RENAME) or "")
    name = class_store().rename(held.code, held.seat, typed) if held else None
    if held is not None and name is not None:
        set_seat(st.session_state, replace(held, name=name))


def step_away() -> None:
    """The "Step away" button: the student explores alone, from the class's step on screen.

    subtle: the press carries the page's widget values as the browser last knew them; a
    step the class had just moved to may not have reached the slider yet (a loaded server,
    a rerun cut short), and the student would step away one step back. So the steps are
    set to the class's place here, after those values.
    """
    state = st.session_state
    state[keys.CLASS_AWAY] = True
    place = state.get(keys.CLASS_PLACE)
    if isinstance(place, Place):
        state[keys.ANIMATE_STEP] = state[keys.ANIMATE_POSITION] = place.step
        if place.page == "tokens":
            move_kept_step(state, place.encode_step)


def back_to_class() -> None:
    st.session_state[keys.CLASS_AWAY] = False
    st.session_state.pop(keys.CLASS_SEEN, None)


def follow_class() -> ClassView | None:
    """At the top of every run, for a student: the class as it is now, with their step,
    passage and encode trace set to the teacher's (unless they stepped away)."""
    held = seat()
    if held is None:
        return None
    store = class_store()
    view = store.view(held.code)
    if view is None:
        leave()
        notice("The class has ended: you are on your own now, with its tokenizer.")
        return None
    if not store.seated(held.code, held.seat):
        leave_seat()
        drop_class_params()
        notice("The teacher took your seat out of the class: you are on your own now.")
        return None
    state = st.session_state
    # subtle: only a new version moves the student, so a step of their own (a full rerun
    # that is not the class's) stays on screen and makes them step away (`stepped`)
    changed = state.get(keys.CLASS_SEEN) != view.version
    mark_seen(state, view)
    run_name: str | None = state.get(keys.CLASS_RUN)
    if (
        not changed
        or state.get(keys.CLASS_AWAY)
        or run_name is None  # no class run yet: as for a run this session does not have
        or run_name not in state[keys.RUNS]
    ):
        return view
    state[keys.SIDEBAR_RUN] = run_name
    follow_place(state, view.place, run_name)
    return view


def follows_class(state: State) -> bool:
    """Whether this session's steps are its class's now: a student who has not stepped away.

    >>> from ui.classroom.model import Seat
    >>> follows_class({}), follows_class({"class_seat": Seat("K7MQ3", "s1", "Ada")})
    (False, True)
    >>> follows_class({"class_seat": Seat("K7MQ3", "s1", "Ada"), "class_away": True})
    False
    """
    return taken_seat(state) is not None and not state.get(keys.CLASS_AWAY)


def slid(page: str) -> None:
    """The step slider's on_change: the browser moved it (a drag, or its stale value)."""
    st.session_state[keys.CLASS_SLID] = page


def stepped(page: str, step: int) -> None:
    """A following student moved their own step (a step button, a key): they stepped away.

    subtle: a follow sets the step on the server while the browser's slider still shows
    the one before; a rerun the browser sends before the new value reaches it (a poll's
    tick, under load) carries that old value, and Streamlit takes it as the slider moved.
    A slider "moved" to a step the class itself set lately is that echo, not the
    student's step: the page follows the class again. (A student who drags it to such a
    step is brought back; the step buttons and Step away always leave.)
    """
    state = st.session_state
    place = state.get(keys.CLASS_PLACE)
    by_slider = state.pop(keys.CLASS_SLID, None) == page
    if seat() is None or state.get(keys.CLASS_AWAY) or not isinstance(place, Place):
        return
    at = place.step if page == "animate" else place.encode_step
    if step == at:
        return
    if by_slider and is_echo(state.get(keys.CLASS_ECHOES, ()), page, step):
        state.pop(keys.CLASS_SEEN, None)  # the whole run follows the class's place again
        st.rerun()
    state[keys.CLASS_AWAY] = True
    st.rerun()  # the whole page: its banner offers "Back to the class" now


def is_echo(echoes: tuple[tuple[str, int], ...], page: str, step: int) -> bool:
    """Whether `step` on `page` is one the class set on this student's page lately.

    >>> is_echo((("animate", 2), ("animate", 3)), "animate", 2), is_echo((), "animate", 2)
    (True, False)
    """
    return (page, step) in echoes


def veil_runs() -> None:
    """At the top of every run: the runs this session sees only in part while a class's
    question on them is open (ui/session/runs.py `veiled`; the store's `hidden_steps`)."""
    held = teaching(st.session_state)
    code = held.code if held is not None else None
    # out of reach: the veils stay as they were; a class member's page says why, where the
    # class is shown (a visitor in no class is not bothered)
    with contextlib.suppress(ClassesUnavailable):
        st.session_state[keys.RUN_VEILS] = class_store().hidden_steps(code, seat())


def follow_poll(page: str) -> None:
    """The student's check (a fragment with run_every=FOLLOW_SECONDS, drawing nothing) on
    `page` (its url path): nothing when the class's version has not moved; when only the
    teacher's step did, the page's step fragment alone, or nothing where the step is not
    shown (ui/classroom/step_follow.py); else the whole app."""
    held = seat()
    if held is None:
        return
    store = class_store()
    try:
        if store.version(held.code, held.seat) == st.session_state.get(keys.CLASS_SEEN):
            return
        view = store.view(held.code)
    except ClassesUnavailable:
        return  # the page said so at its last run; the next check tries again
    if view is not None and step_follow.followed_lightly(st.session_state, view, page):
        return
    st.rerun()
