"""Tokens, encode step by step: its state (the text, the step, playback), kept in session
state as plain values, and the callbacks that move it.

The step is an input kept in session state, not a widget, so a browser a tick behind cannot
send a stale one back. Pure functions over a state mapping, tested without a browser:

    >>> state = {"tokens_encode_step": 2}
    >>> toggle_play(state, last=2); state["tokens_encode_step"], wanted_timer(state)
    (0, 1.0)
"""

from __future__ import annotations

from collections.abc import MutableMapping

import streamlit as st

from explorer.base.numbers import whole_number_or_none
from ui.session import state as keys
from ui.session.state import State

SPEEDS = (0.5, 1, 2, 4)  # steps per second: slow enough to read each narration
DEFAULT_SPEED = 1
MAX_LINK_STEP = 10**6  # more steps than any trace of MAX_TRACE_CHARS has


def seed_from_link(state: State, params: MutableMapping[str, str]) -> None:
    """A session's first look at the section takes its text and step from the URL.

    >>> state = {}
    >>> seed_from_link(state, {"encode": "hello", "encode_step": "3"})
    >>> state["tokens_encode_text"], state["tokens_encode_step"], state["tokens_encode_open"]
    ('hello', 3, True)

    A step that is not a whole number in digits 0-9 (`²`, `-1`, 5,000 digits) starts at 0.

    >>> state = {}
    >>> seed_from_link(state, {"encode": "hi", "encode_step": "²"}); state["tokens_encode_step"]
    0
    """
    if keys.TOKENS_ENCODE_TEXT in state or "encode" not in params:
        return
    state[keys.TOKENS_ENCODE_TEXT] = params["encode"][: keys.MAX_LINK_TEXT]
    state[keys.TOKENS_ENCODE_EDITED] = True
    state[keys.TOKENS_ENCODE_OPEN] = True
    step = whole_number_or_none(params.get("encode_step"), 0, MAX_LINK_STEP)
    state[keys.TOKENS_ENCODE_STEP] = step or 0  # never past the trace's last (follow_trace)


def follow_trace(state: State, identity: str, last: int) -> int:
    """The step on screen for this trace: 0 for a new trace (a linked step is kept the
    first time), and never past its last step.

    >>> state = {"tokens_encode_step": 4}
    >>> follow_trace(state, "a", 9), follow_trace(state, "b", 9)
    (4, 0)
    """
    had_trace = keys.TOKENS_ENCODE_OF in state
    if state.get(keys.TOKENS_ENCODE_OF) != identity:
        state[keys.TOKENS_ENCODE_OF] = identity
        if had_trace:
            state[keys.TOKENS_ENCODE_STEP] = 0
            state[keys.TOKENS_ENCODE_PLAYING] = False
    step = max(0, min(last, int(state.get(keys.TOKENS_ENCODE_STEP, 0))))
    state[keys.TOKENS_ENCODE_STEP] = step
    return step


def step_by(state: State, delta: int, last: int) -> None:
    """Back or Step: pause and move, staying within 0..last."""
    state[keys.TOKENS_ENCODE_PLAYING] = False
    step = int(state.get(keys.TOKENS_ENCODE_STEP, 0)) + delta
    state[keys.TOKENS_ENCODE_STEP] = max(0, min(last, step))


def toggle_play(state: State, last: int) -> None:
    """Play from the step on screen (from 0 when at the end), or pause."""
    if state.get(keys.TOKENS_ENCODE_PLAYING):
        state[keys.TOKENS_ENCODE_PLAYING] = False
        return
    if int(state.get(keys.TOKENS_ENCODE_STEP, 0)) >= last:
        state[keys.TOKENS_ENCODE_STEP] = 0
    state[keys.TOKENS_ENCODE_PLAYING] = True


def tick(state: State, last: int) -> None:
    """One tick of playback: the next step; at the last, stop there."""
    if not state.get(keys.TOKENS_ENCODE_PLAYING):
        return
    state[keys.TOKENS_ENCODE_STEP] = min(last, int(state.get(keys.TOKENS_ENCODE_STEP, 0)) + 1)
    if state[keys.TOKENS_ENCODE_STEP] >= last:
        state[keys.TOKENS_ENCODE_PLAYING] = False


def wanted_timer(state: State) -> float | None:
    """Seconds between ticks while playing; None when paused."""
    if not state.get(keys.TOKENS_ENCODE_PLAYING):
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
