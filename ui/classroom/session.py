"""A session's part in a class: the process's one store, teaching, joining, following.

How a student joins: the teacher's join link, `/<page>?class=CODE` (any page), or the
code typed in the sidebar's expander "Class: join with a code, or teach" (text input
`class_code`, optional `class_nickname`, button `class_join`). Their session gets the
teacher's run from the run store (never retrained), and their URL gets `seat=TOKEN`
beside `class=CODE`: a reload or a restarted server gives them the same seat, answer
and score back. The page then says "Following the teacher · class CODE as NAME".

What a student's page polls: `following.follow_poll`, a fragment without elements
(run_every = FOLLOW_SECONDS = 0.75 s; the server's `auto_rerun` message names it) that
reads the class's `version` (one dict look-up under a lock) and returns at once when it
is the one last drawn; when only the teacher's step moved, it sets the student's step and
reruns the page's step fragment alone (ui/classroom/step_follow.py); else it reruns the
app, and `following.follow_class` (top of every run, before the page) sets the student's
Animate step, passage and Tokens encode trace to the teacher's, unless they stepped away.
Buttons: `class_step_away`, `class_back` ("Back to the class"), `class_leave`, the
Nickname popover's `class_rename`; a question: radio `class_answer` (an option's index),
button `class_send`.
bench/classroom/class_poll.py measures what the polling costs. Each check names the seat,
so the store knows who is here (the teacher's live count and list; a seat gone 30 s is
given back to its address when it opens the link again).

The teacher (widget keys, ui/session/state.py): `class_start` ("Start a class on this
tokenizer", in the same expander) starts a class on the current run at Animate's step;
the card above the page (container `class_card`: `.class-code`, `img.class-qr`, the
link) and the sidebar's "Teaching class CODE · N joined". The step moves with Animate's
own controls (`animate_next`, `animate_back`, `animate_play`, slider `animate_step`) and
Tokens' encode controls (`tokens_encode_next`, ...). A question: `class_ask`, the live
count "Answered: k of n students", toggle `class_chart` (the distribution), button
`class_reveal`; toggle `class_scores` (everyone sees the scores); `class_end`; after a
restart, `class_take_back` (the teacher key `CODE-secret`) and `class_take_back_go`.
The secret lives in this session's state (a `Teaching`), never in a URL; every change
of the class goes through the store with it (ui/classroom/teaching.py).
Widgets: ui/classroom/panel.py and ui/animate/quiz/class_panel.py.

A session's part is typed, read and written through the accessors here: `teaching`
(the class it teaches) and `taken_seat` (its seat as a student).

    >>> state = {}
    >>> teaching(state), taken_seat(state)  # neither, at first
    (None, None)
    >>> set_teaching(state, Teaching("K7MQ3", "s3cret", "run key")); teaching(state).code
    'K7MQ3'
    >>> stop_teaching(state); teaching(state) is None
    True
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ParamSpec

import streamlit as st

from explorer.base.numbers import whole_number_or_none
from ui.classroom import snapshot, stores
from ui.classroom.model import ClassView, Place, Seat
from ui.classroom.rules import CLASSES_PER_CLIENT, SEATS_PER_CLIENT, ClassesUnavailable, Limits
from ui.classroom.stores import ClassStoreLike
from ui.server.clients import device_address
from ui.server.lru import SharedLru
from ui.session import run_store
from ui.session import state as keys
from ui.session.encode_place import EncodePlace, set_encode_place
from ui.session.opening import stored_run
from ui.session.run_spec import RunSpec
from ui.session.runs import add_run
from ui.session.state import State, held_as

# a student's page checks the class this often. Each check is ~2 ms of Streamlit's own work
# on the server, sixty students at 0.5 s a quarter of a core doing nothing; at 0.75 s a
# sixth. The lag it adds (0.75 s at most) fits in 1.5 s since a step's follow reruns only
# the step's fragment (step_follow.py): bench/classroom/class_poll.py and
# bench/classroom/class_load.py
FOLLOW_SECONDS = 0.75
ECHOES_KEPT = 8  # the steps a follow set lately: a browser's stale slider may send one back
TEACHER_POLL_SECONDS = 1.0  # the teacher's live count of answers
CLASS_PARAM, SEAT_PARAM = "class", "seat"

log = logging.getLogger(__name__)
P = ParamSpec("P")


CLASSES_PER_CLIENT_VARIABLE = "BPE_EXPLORER_CLASSES_PER_CLIENT"
SEATS_PER_CLIENT_VARIABLE = "BPE_EXPLORER_SEATS_PER_CLIENT"


@st.cache_resource(show_spinner=False)
def class_store() -> ClassStoreLike:
    """The one store of this server process: in memory, its snapshot beside the runs
    (when kept), or the Redis that BPE_EXPLORER_REDIS_URL names (ui/classroom/stores.py)."""
    config = run_store.config_from_env()
    folder = config.folder if config.enabled else None
    limits = Limits(
        classes_per_client=per_client(os.environ, CLASSES_PER_CLIENT_VARIABLE, CLASSES_PER_CLIENT),
        seats_per_client=per_client(os.environ, SEATS_PER_CLIENT_VARIABLE, SEATS_PER_CLIENT),
    )
    return stores.from_env(
        os.environ,
        limits=limits,
        snapshot_path=folder / snapshot.FILE_NAME if folder else None,
        runs_folder=folder,
    )


def per_client(environ: Mapping[str, str], name: str, default: int) -> int:
    """A per-client bound from the environment (0: none), the default when unset or not
    a whole number from 0 to 10,000.

    >>> per_client({"X": "0"}, "X", 4), per_client({"X": "-1"}, "X", 4), per_client({}, "X", 4)
    (0, 4, 4)
    """
    value = whole_number_or_none(environ.get(name, "").strip() or None, 0, 10_000)
    if value is None and environ.get(name, "").strip():
        log.warning("%s is not a whole number from 0 to 10,000; using %s", name, default)
    return default if value is None else value


def client_address() -> str:
    """The address this session's browser connects from: whom the per-client bounds
    count (ui/server/clients.py says what an address is)."""
    return device_address()


@st.cache_resource(show_spinner=False)
def class_runs() -> SharedLru:
    """Each live class's run spec and texts by its key, for a store that keeps nothing on
    disk (BPE_EXPLORER_RUNS_DIR=off): students of this process open it from here."""
    return SharedLru(64)


@dataclass(frozen=True)
class Teaching:
    """This session teaches a class: its code, the secret every change of it needs, the
    key of the run it teaches, and the place the teacher last published (None: none yet)."""

    code: str
    secret: str
    run_key: str
    place: Place | None = None


def teaching(state: State) -> Teaching | None:
    """The class this session teaches, as its state holds it (`teacher()` also asks the
    store whether the class is still live)."""
    return held_as(state, keys.CLASS_TEACHER, Teaching)


def set_teaching(state: State, held: Teaching) -> None:
    state[keys.CLASS_TEACHER] = held


def stop_teaching(state: State) -> None:
    state.pop(keys.CLASS_TEACHER, None)


def taken_seat(state: State) -> Seat | None:
    """The seat this session holds as a student of a class."""
    return held_as(state, keys.CLASS_SEAT, Seat)


def set_seat(state: State, taken: Seat) -> None:
    state[keys.CLASS_SEAT] = taken


def teacher() -> tuple[str, str] | None:
    """(code, secret) when this session teaches a live class."""
    held = teaching(st.session_state)
    if held is None:
        return None
    if not class_store().is_teacher(held.code, held.secret):
        stop_teaching(st.session_state)  # ended, or expired
        return None
    return held.code, held.secret


def seat() -> Seat | None:
    """This session's seat in a class, if it has one."""
    return taken_seat(st.session_state)


def notice(text: str) -> None:
    st.session_state[keys.CLASS_NOTICE] = text


def reachable(callback: Callable[P, None]) -> Callable[P, None]:
    """A button's callback that needs the class store: while a shared store is out of
    reach (ClassesUnavailable), the press does nothing and the page says so, in one
    sentence, instead of Streamlit's traceback."""

    @functools.wraps(callback)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            callback(*args, **kwargs)
        except ClassesUnavailable as exc:
            log.warning("%s: %s", callback.__name__, exc)
            notice(str(exc))

    return wrapper


def open_class_run(view: ClassView) -> bool:
    """Make the class's run this session's current one; False (and a notice) if gone."""
    found = class_runs().get(view.run_key)
    if found is None:
        found, problem = stored_run(view.run_key)
        if found is None:
            notice(
                "The class's tokenizer is no longer on this server"
                + (f" ({problem})" if problem else "")
                + ": ask the teacher to start the class again."
            )
            drop_class_params()
            return False
    spec: RunSpec = add_run(*found, keep_on_disk=False)  # kept already: not written again
    st.session_state.pop(keys.PENDING_RUN, None)
    st.session_state[keys.SIDEBAR_RUN] = spec.name  # the sidebar is not drawn yet
    st.session_state[keys.CLASS_RUN] = spec.name
    return True


def leave_seat() -> None:
    for key in (
        keys.CLASS_SEAT,
        keys.CLASS_AWAY,
        keys.CLASS_SEEN,
        keys.CLASS_RUN,
        keys.CLASS_FOLLOWED,
        keys.CLASS_STEP_FRAGMENT,
        keys.CLASS_ECHOES,
    ):
        st.session_state.pop(key, None)


def drop_class_params() -> None:
    for name in (CLASS_PARAM, SEAT_PARAM):
        if name in st.query_params:
            del st.query_params[name]


def mark_seen(state: State, view: ClassView) -> None:
    """The class as this student's page has now followed it: its version, the view a
    lighter follow compares with (step_follow), and, for a student who stepped away,
    where the teacher is (for the banner and Step away's return).

    >>> state = {"class_away": True}
    >>> view = ClassView("K7MQ3", 4, "run", "name", Place(step=3), None, 2, None)
    >>> mark_seen(state, view); state["class_seen"], state["class_place"].step
    (4, 3)
    """
    state[keys.CLASS_SEEN] = view.version
    state[keys.CLASS_FOLLOWED] = view
    if state.get(keys.CLASS_AWAY):
        state[keys.CLASS_PLACE] = view.place


def follow_place(state: State, place: Place, run_name: str) -> None:
    """Set a session's Animate and Tokens state to the teacher's place.

    >>> state = {}
    >>> follow_place(state, Place("tokens", 4, "hi", "lower", 2), "run")
    >>> state["animate_step"], state["animate_passage"], state["tokens_encode_place"].step
    (4, 'hi', 2)
    """
    state[keys.ANIMATE_STEP] = state[keys.ANIMATE_POSITION] = place.step
    state[keys.ANIMATE_PLAYING] = False
    state[keys.ANIMATE_STEP_RUN] = run_name
    state[keys.CLASS_PLACE] = place
    set_now = [("animate", place.step)]
    if place.page == "tokens":
        set_now.append(("tokens", place.encode_step))
    state[keys.CLASS_ECHOES] = (*state.get(keys.CLASS_ECHOES, ()), *set_now)[-ECHOES_KEPT:]
    if place.passage:
        state[keys.ANIMATE_PASSAGE] = place.passage
        state[keys.edited_key(keys.ANIMATE_PASSAGE)] = True
        state[keys.owner_key(keys.ANIMATE_PASSAGE)] = run_name
    if place.page == "tokens" and place.encode_text:
        state[keys.TOKENS_ENCODE_TEXT] = place.encode_text
        state[keys.TOKENS_ENCODE_EDITED] = True
        state[keys.TOKENS_ENCODE_OPEN] = True
        # no trace: the next one drawn keeps this step (not a new trace of the user's)
        set_encode_place(state, EncodePlace(step=place.encode_step))
