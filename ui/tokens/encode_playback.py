"""Tokens, encode step by step: its state (the text; the step and playback, one
ui/session/encode_place.EncodePlace), and the callbacks that move it.

The step is an input kept in session state, not a widget, so a browser a tick behind cannot
send a stale one back. Pure functions over a state mapping, tested without a browser:

    >>> state = {}
    >>> set_encode_place(state, EncodePlace(step=2))
    >>> toggle_play(state, last=2); encode_place(state).step, wanted_timer(state)
    (0, 1.0)
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import replace

import streamlit as st

from explorer.base.numbers import whole_number_or_none
from ui.session import state as keys
from ui.session.encode_place import EncodePlace, encode_place, set_encode_place
from ui.session.state import State

SPEEDS = (0.5, 1, 2, 4)  # steps per second: slow enough to read each narration
DEFAULT_SPEED = 1
MAX_LINK_STEP = 10**6  # more steps than any trace of MAX_TRACE_CHARS has


def seed_from_link(state: State, params: MutableMapping[str, str]) -> None:
    """A session's first look at the section takes its text and step from the URL.

    >>> state = {}
    >>> seed_from_link(state, {"encode": "hello", "encode_step": "3"})
    >>> state["tokens_encode_text"], encode_place(state).step, state["tokens_encode_open"]
    ('hello', 3, True)

    A step that is not a whole number in digits 0-9 (`²`, `-1`, 5,000 digits) starts at 0.

    >>> state = {}
    >>> seed_from_link(state, {"encode": "hi", "encode_step": "²"}); encode_place(state).step
    0
    """
    if keys.TOKENS_ENCODE_TEXT in state or "encode" not in params:
        return
    state[keys.TOKENS_ENCODE_TEXT] = params["encode"][: keys.MAX_LINK_TEXT]
    state[keys.TOKENS_ENCODE_EDITED] = True
    state[keys.TOKENS_ENCODE_OPEN] = True
    step = whole_number_or_none(params.get("encode_step"), 0, MAX_LINK_STEP)
    # never past the trace's last (follow_trace)
    set_encode_place(state, replace(encode_place(state), step=step or 0))


def follow_trace(state: State, identity: str, last: int) -> int:
    """The step on screen for this trace: 0 for a new trace (a linked step is kept the
    first time), and never past its last step.

    >>> state = {}
    >>> set_encode_place(state, EncodePlace(step=4))
    >>> follow_trace(state, "a", 9), follow_trace(state, "b", 9)
    (4, 0)
    """
    place = encode_place(state)
    if place.trace is None:
        place = replace(place, trace=identity)
    elif place.trace != identity:
        place = EncodePlace(trace=identity)
    place = replace(place, step=max(0, min(last, place.step)))
    set_encode_place(state, place)
    return place.step


def step_by(state: State, delta: int, last: int) -> None:
    """Back or Step: pause and move, staying within 0..last."""
    place = encode_place(state)
    step = max(0, min(last, place.step + delta))
    set_encode_place(state, replace(place, step=step, playing=False))


def toggle_play(state: State, last: int) -> None:
    """Play from the step on screen (from 0 when at the end), or pause."""
    place = encode_place(state)
    if place.playing:
        set_encode_place(state, replace(place, playing=False))
        return
    step = 0 if place.step >= last else place.step
    set_encode_place(state, replace(place, step=step, playing=True))


def tick(state: State, last: int) -> None:
    """One tick of playback: the next step; at the last, stop there."""
    place = encode_place(state)
    if not place.playing:
        return
    step = min(last, place.step + 1)
    set_encode_place(state, replace(place, step=step, playing=step < last))


def wanted_timer(state: State) -> float | None:
    """Seconds between ticks while playing; None when paused."""
    if not encode_place(state).playing:
        return None
    return 1 / float(state.get(keys.TOKENS_ENCODE_SPEED, DEFAULT_SPEED))


def pick_word() -> None:
    """The word menu's callback: trace the picked word, then clear the menu."""
    state = st.session_state
    picked = state.get(keys.TOKENS_ENCODE_PICK)
    if picked is not None:
        state[keys.TOKENS_ENCODE_TEXT] = picked
        state[keys.TOKENS_ENCODE_EDITED] = True
        state[keys.TOKENS_ENCODE_PICK] = None


def mark_typed() -> None:
    st.session_state[keys.TOKENS_ENCODE_EDITED] = True
