"""A teacher's part in a class: start it on the current run, say where they are, take it
back after a restart, end it. Every call goes through the store with the secret this
session holds (a `Teaching`); see ui/classroom/session.py for the whole picture."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import streamlit as st

from ui.classroom import codes
from ui.classroom.model import Place
from ui.classroom.rules import ClassError, ClassesUnavailable
from ui.classroom.session import (
    Teaching,
    class_runs,
    class_store,
    client_address,
    follow_place,
    leave_seat,
    notice,
    open_class_run,
    reachable,
    set_teaching,
    stop_teaching,
    teacher,
    teaching,
)
from ui.session import state as keys
from ui.session.runs import Run, current_spec, keep_for_class, texts_of

log = logging.getLogger(__name__)


def start_class(run: Run, step: int, passage: str) -> None:
    """The "Start a class" button: a class on the current run, at the step on screen."""
    spec = run.spec
    keep_for_class(spec)  # on disk for students and a restart (a toast when refused)
    class_runs().put(spec.store_key, (spec, texts_of(spec)))
    try:
        started = class_store().start(
            spec.store_key, spec.name, Place(step=step, passage=passage), client=client_address()
        )
    except ClassError as exc:
        notice(f"The class could not start: {exc}.")
        return
    set_teaching(st.session_state, Teaching(started.code, started.secret, spec.store_key))
    leave_seat()


@reachable
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
    set_teaching(state, Teaching(code, secret, view.run_key, view.place))
    leave_seat()
    if open_class_run(view):  # where the class was: the teacher goes on from there
        follow_place(state, view.place, state[keys.CLASS_RUN])


def teacher_key(code: str, secret: str) -> str:
    """What the teacher keeps to take the class back after a restart.

    >>> teacher_key("ABC23", "s3cret")
    'ABC23-s3cret'
    """
    return f"{code}-{secret}"


@reachable
def end_class() -> None:
    held = teacher()
    if held is not None:
        try:
            class_store().end(*held)
        except ClassError as exc:
            log.info("ending class %s: %s", held[0], exc)
    stop_teaching(st.session_state)


@reachable
def remove_seat() -> None:
    """The class list's Remove button: the picked seat leaves the class, its answers and
    score with it (that student's page says so at its next check)."""
    held = teacher()
    picked = st.session_state.pop(keys.CLASS_REMOVE_PICK, None)
    if held is None or not isinstance(picked, str):
        return
    try:
        if not class_store().remove(*held, picked):
            notice("That seat is no longer in the class.")
    except ClassError as exc:
        notice(f"The seat could not be removed: {exc}.")


def publish(**where: Any) -> None:
    """The teacher's page says where they are (Animate's step, Tokens' trace); students
    see it at their next check. Nothing for anyone else, or on another run."""
    state = st.session_state
    held = teaching(state)
    if held is None or held.run_key != current_spec().store_key:
        return
    place = replace(held.place or Place(), **where)
    if place == held.place:
        return
    try:
        class_store().move(held.code, held.secret, place)
        set_teaching(state, replace(held, place=place))
    except ClassesUnavailable:  # still teaching: the next step tells the class again
        log.info("class %s: the step was not published (the store is out of reach)", held.code)
    except ClassError as exc:
        stop_teaching(state)
        notice(f"Your class has ended ({exc}).")
