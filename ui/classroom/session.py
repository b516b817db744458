"""A session's part in a class: the process's one store, teaching, joining, following.

How a student joins: the teacher's join link, `/<page>?class=CODE` (any page), or the
code typed in the sidebar's expander "Class: join with a code, or teach" (text input
`class_code`, optional `class_nickname`, button `class_join`). Their session gets the
teacher's run from the run store (never retrained), and their URL gets `seat=TOKEN`
beside `class=CODE`: a reload or a restarted server gives them the same seat, answer
and score back. The page then says "Following the teacher · class CODE as NAME".

What a student's page polls: `follow_poll`, a fragment without elements (run_every =
FOLLOW_SECONDS = 0.5 s; the server's `auto_rerun` message names it) that reads the
class's `version` (one dict look-up under a lock) and returns at once when it is the one
last drawn; when it moved, it reruns the app, and `follow_class` (top of every run, before
the page) sets the student's Animate step, passage and Tokens encode trace to the
teacher's, unless they stepped away. Buttons: `class_step_away`, `class_back` ("Back to
the class"), `class_leave`; a question: radio `class_answer` (an option's index), button
`class_send`. bench/class_poll.py measures what the polling costs.

The teacher (widget keys, ui/session/state.py): `class_start` ("Start a class on this
tokenizer", in the same expander) starts a class on the current run at Animate's step;
the card above the page (container `class_card`: `.class-code`, `img.class-qr`, the
link) and the sidebar's "Teaching class CODE · N joined". The step moves with Animate's
own controls (`animate_next`, `animate_back`, `animate_play`, slider `animate_step`) and
Tokens' encode controls (`tokens_encode_next`, ...). A question: `class_ask`, the live
count "Answered: k of n students", toggle `class_chart` (the distribution), button
`class_reveal`; toggle `class_scores` (everyone sees the scores); `class_end`; after a
restart, `class_take_back` (the teacher key `CODE-secret`) and `class_take_back_go`.
The secret lives in this session's state (keys.CLASS_TEACHER), never in a URL; every
change of the class goes through the store with it. Widgets: ui/classroom/panel.py.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import streamlit as st

from ui.classroom import codes, snapshot
from ui.classroom.model import ClassView, Place, Seat
from ui.classroom.store import ClassError, ClassStore
from ui.session import run_store
from ui.session import state as keys
from ui.session.lru import SharedLru
from ui.session.opening import stored_run
from ui.session.run_spec import RunSpec
from ui.session.runs import Run, add_run, current_spec, keep_for_class, texts_of

# a student's page checks the class this often: 0.5 s keeps a step's lag near 1 s at most
# (the check, then the page's rerun); bench/class_load.py measures what 60 of them cost
FOLLOW_SECONDS = 0.5
TEACHER_POLL_SECONDS = 1.0  # the teacher's live count of answers
CLASS_PARAM, SEAT_PARAM = "class", "seat"

log = logging.getLogger(__name__)


@st.cache_resource(show_spinner=False)
def class_store() -> ClassStore:
    """The one store of this server process, its snapshot beside the runs (when kept)."""
    config = run_store.config_from_env()
    path = config.folder / snapshot.FILE_NAME if config.enabled and config.folder else None
    return ClassStore(snapshot_path=path)


@st.cache_resource(show_spinner=False)
def _class_runs() -> SharedLru:
    """Each live class's run spec and texts by its key, for a store that keeps nothing on
    disk (BPE_EXPLORER_RUNS_DIR=off): students of this process open it from here."""
    return SharedLru(64)


# --- who this session is -------------------------------------------------------------------


def teacher() -> tuple[str, str] | None:
    """(code, secret) when this session teaches a live class."""
    held = st.session_state.get(keys.CLASS_TEACHER)
    if not isinstance(held, dict):
        return None
    if not class_store().is_teacher(held["code"], held["secret"]):
        st.session_state.pop(keys.CLASS_TEACHER, None)  # ended, or expired
        return None
    return held["code"], held["secret"]


def seat() -> Seat | None:
    held = st.session_state.get(keys.CLASS_SEAT)
    return held if isinstance(held, Seat) else None


def notice(text: str) -> None:
    st.session_state[keys.CLASS_NOTICE] = text


# --- the teacher ------------------------------------------------------------------------


def start_class(run: Run, step: int, passage: str) -> None:
    """The "Start a class" button: a class on the current run, at the step on screen."""
    spec = run.spec
    keep_for_class(spec)  # on disk for students and a restart (a toast when refused)
    _class_runs().put(spec.store_key, (spec, texts_of(spec)))
    try:
        started = class_store().start(spec.store_key, spec.name, Place(step=step, passage=passage))
    except ClassError as exc:
        notice(f"The class could not start: {exc}.")
        return
    st.session_state[keys.CLASS_TEACHER] = {
        "code": started.code,
        "secret": started.secret,
        "run_key": spec.store_key,
    }
    _leave_seat()


def take_back() -> None:
    """The teacher key typed after a restart (`CODE-secret`): this session teaches again."""
    typed = str(st.session_state.get(keys.CLASS_TAKE_BACK) or "").strip()
    code, _, secret = typed.partition("-")
    code = codes.normalize_code(code)
    st.session_state[keys.CLASS_TAKE_BACK] = ""
    view = class_store().view(code) if codes.is_code(code) else None
    if view is None or not class_store().is_teacher(code, secret):
        notice("That teacher key does not open a class on this server.")
        return
    state = st.session_state
    state[keys.CLASS_TEACHER] = {
        "code": code,
        "secret": secret,
        "run_key": view.run_key,
        "place": view.place,
    }
    _leave_seat()
    if _open_class_run(view):  # where the class was: the teacher goes on from there
        follow_place(state, view.place, state[keys.CLASS_RUN])


def teacher_key(code: str, secret: str) -> str:
    """What the teacher keeps to take the class back after a restart.

    >>> teacher_key("ABC23", "s3cret")
    'ABC23-s3cret'
    """
    return f"{code}-{secret}"


def end_class() -> None:
    held = teacher()
    if held is not None:
        try:
            class_store().end(*held)
        except ClassError as exc:
            log.info("ending class %s: %s", held[0], exc)
    st.session_state.pop(keys.CLASS_TEACHER, None)


def publish(**where: Any) -> None:
    """The teacher's page says where they are (Animate's step, Tokens' trace); students
    see it at their next check. Nothing for anyone else, or on another run."""
    held = st.session_state.get(keys.CLASS_TEACHER)
    if not isinstance(held, dict) or held.get("run_key") != current_spec().store_key:
        return
    place = held.get("place") or Place()
    place = replace(place, **where)
    if place == held.get("place"):
        return
    try:
        class_store().move(held["code"], held["secret"], place)
        held["place"] = place
    except ClassError as exc:
        st.session_state.pop(keys.CLASS_TEACHER, None)
        notice(f"Your class has ended ({exc}).")


# --- a student -----------------------------------------------------------------------


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
        _drop_class_params()
        return
    token = str(st.query_params.get(SEAT_PARAM, ""))
    join(wanted, str(state.get(keys.CLASS_NICKNAME) or ""), token if codes.is_seat(token) else None)


def join_typed() -> None:
    """The sidebar's Join button: the code and nickname typed."""
    code = codes.normalize_code(str(st.session_state.get(keys.CLASS_CODE) or ""))
    if not codes.is_code(code):
        notice(f"Type the {codes.CODE_LENGTH}-letter code the teacher shows.")
        return
    st.session_state[keys.CLASS_TEACHER] = None
    join(code, str(st.session_state.get(keys.CLASS_NICKNAME) or ""), None)


def join(code: str, nickname: str, token: str | None) -> None:
    """Take a seat in the class and open its run (from the run store, never trained)."""
    store = class_store()
    try:
        taken = store.join(code, nickname, token)
    except ClassError as exc:
        notice(f"Could not join the class: {exc}.")
        _drop_class_params()
        return
    view = store.view(code)
    if view is None or not _open_class_run(view):
        return
    state = st.session_state
    state[keys.CLASS_SEAT] = taken
    state[keys.CLASS_AWAY] = False
    state.pop(keys.CLASS_SEEN, None)
    st.query_params[CLASS_PARAM] = code
    st.query_params[SEAT_PARAM] = taken.seat


def _open_class_run(view: ClassView) -> bool:
    """Make the class's run this session's current one; False (and a notice) if gone."""
    found = _class_runs().get(view.run_key)
    if found is None:
        found, problem = stored_run(view.run_key)
        if found is None:
            notice(
                "The class's tokenizer is no longer on this server"
                + (f" ({problem})" if problem else "")
                + ": ask the teacher to start the class again."
            )
            _drop_class_params()
            return False
    spec: RunSpec = add_run(*found, keep_on_disk=False)  # kept already: not written again
    st.session_state.pop(keys.PENDING_RUN, None)
    st.session_state[keys.SIDEBAR_RUN] = spec.name  # the sidebar is not drawn yet
    st.session_state[keys.CLASS_RUN] = spec.name
    return True


def leave() -> None:
    _leave_seat()
    _drop_class_params()


def _leave_seat() -> None:
    for key in (keys.CLASS_SEAT, keys.CLASS_AWAY, keys.CLASS_SEEN, keys.CLASS_RUN):
        st.session_state.pop(key, None)


def _drop_class_params() -> None:
    for name in (CLASS_PARAM, SEAT_PARAM):
        if name in st.query_params:
            del st.query_params[name]


def rename() -> None:
    """The banner's nickname box: the student's name in the class (and their seat's)."""
    held = seat()
    typed = str(st.session_state.get(keys.CLASS_RENAME) or "")
    name = class_store().rename(held.code, held.seat, typed) if held else None
    if held is not None and name is not None:
        st.session_state[keys.CLASS_SEAT] = replace(held, name=name)


def step_away() -> None:
    st.session_state[keys.CLASS_AWAY] = True


def back_to_class() -> None:
    st.session_state[keys.CLASS_AWAY] = False
    st.session_state.pop(keys.CLASS_SEEN, None)


def follow_class() -> ClassView | None:
    """At the top of every run, for a student: the class as it is now, with their step,
    passage and encode trace set to the teacher's (unless they stepped away)."""
    held = seat()
    if held is None:
        return None
    view = class_store().view(held.code)
    if view is None:
        leave()
        notice("The class has ended: you are on your own now, with its tokenizer.")
        return None
    state = st.session_state
    # subtle: only a new version moves the student, so a step of their own (a full rerun
    # that is not the class's) stays on screen and makes them step away (`stepped`)
    changed = state.get(keys.CLASS_SEEN) != view.version
    state[keys.CLASS_SEEN] = view.version
    if state.get(keys.CLASS_AWAY):
        state[keys.CLASS_PLACE] = view.place  # where the teacher is, for the banner
    run_name = state.get(keys.CLASS_RUN)
    if not changed or state.get(keys.CLASS_AWAY) or run_name not in state[keys.RUNS]:
        return view
    state[keys.SIDEBAR_RUN] = run_name
    follow_place(state, view.place, run_name)
    return view


def follow_place(state: Any, place: Place, run_name: str) -> None:
    """Set a session's Animate and Tokens state to the teacher's place.

    >>> state = {}
    >>> follow_place(state, Place("tokens", 4, "hi", "lower", 2), "run")
    >>> state["animate_step"], state["animate_passage"], state["tokens_encode_step"]
    (4, 'hi', 2)
    """
    state[keys.ANIMATE_STEP] = state[keys.ANIMATE_POSITION] = place.step
    state[keys.ANIMATE_PLAYING] = False
    state[keys.ANIMATE_STEP_RUN] = run_name
    state[keys.CLASS_PLACE] = place
    if place.passage:
        state[keys.ANIMATE_PASSAGE] = place.passage
        state[keys.edited_key(keys.ANIMATE_PASSAGE)] = True
        state[keys.owner_key(keys.ANIMATE_PASSAGE)] = run_name
    if place.page == "tokens" and place.encode_text:
        state[keys.TOKENS_ENCODE_TEXT] = place.encode_text
        state[keys.TOKENS_ENCODE_EDITED] = True
        state[keys.TOKENS_ENCODE_OPEN] = True
        state[keys.TOKENS_ENCODE_STEP] = place.encode_step
        state[keys.TOKENS_ENCODE_PLAYING] = False
        state.pop(keys.TOKENS_ENCODE_OF, None)  # keep the step: not a new trace of the user's


def stepped(page: str, step: int) -> None:
    """A following student moved their own step (a step button, a key): they stepped away."""
    state = st.session_state
    place = state.get(keys.CLASS_PLACE)
    if seat() is None or state.get(keys.CLASS_AWAY) or not isinstance(place, Place):
        return
    at = place.step if page == "animate" else place.encode_step
    if step != at:
        state[keys.CLASS_AWAY] = True
        st.rerun()  # the whole page: its banner offers "Back to the class" now


def follow_poll() -> None:
    """The student's check (a fragment with run_every=FOLLOW_SECONDS, drawing nothing):
    the whole app reruns only when the class's version moved."""
    held = seat()
    if held is None:
        return
    if class_store().version(held.code) != st.session_state.get(keys.CLASS_SEEN):
        st.rerun()
