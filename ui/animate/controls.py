"""Animate's step controls: play / pause, a step back or forward, the step slider (bound to
the URL) and the Options popover (speed, token ids), in one row that wraps on a phone
(never one control a row).

The row is drawn in two parts, so the step's passage reaches the browser before most of
its controls (`step_view`): `controls_row` places the row and, when the step is not yet
known (a first run from a link), the slider; `fill_controls` adds the rest. A container
keeps its children in the order they were created, not the order they were filled, so
the row looks the same either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ui.animate import playback
from ui.animate.quiz import questions as quiz
from ui.classroom import following
from ui.session import state as keys
from ui.session.state import State
from ui.views.formatting import plural


@dataclass(frozen=True)
class ControlsRow:
    """The row of controls, its buttons' box, and whether the slider is drawn already."""

    row: DeltaGenerator
    buttons: DeltaGenerator
    slider_drawn: bool


def controls_row(last: int) -> ControlsRow:
    """The row and its buttons' box (empty), and the slider if the step needs it to be known.

    subtle: a step opened from the URL is known only once the slider bound to it is drawn,
    and the buttons decide from the step whether they are disabled: then the slider is
    drawn here, before anything reads the step. Otherwise (a click, playing) the step is
    in the session already and `fill_controls` draws the slider after the stage.
    """
    row = st.container(
        horizontal=True, vertical_alignment="bottom", gap="small", key=keys.ANIMATE_CONTROLS
    )
    buttons = row.container(horizontal=True, width="content", gap="xsmall")
    known = step_known(st.session_state)
    if not known:
        _slider(row, last)
    return ControlsRow(row, buttons, slider_drawn=not known)


def step_known(state: State) -> bool:
    """Whether the step on screen can be read before the slider is drawn in this run.

    >>> step_known({}), step_known({"animate_step": 4}), step_known({"animate_playing": True})
    (False, True, True)
    """
    return bool(state.get(keys.ANIMATE_PLAYING)) or keys.ANIMATE_STEP in state


def fill_controls(place: ControlsRow, last: int) -> None:
    """The slider (unless `controls_row` drew it, or playing), the buttons and the popover."""
    state = st.session_state
    playing = bool(state.get(keys.ANIMATE_PLAYING))
    row, buttons = place.row, place.buttons
    if not playing and not place.slider_drawn:
        _slider(row, last)
    step = playback.shown_step(state, last)
    buttons.button(
        "Pause" if playing else "Play",
        key=keys.ANIMATE_PLAY,
        icon=":material/pause:" if playing else ":material/play_arrow:",
        type="primary",
        on_click=playback.toggle_play,
        args=(state, last),
        shortcut="P",
    )
    for delta, icon, shortcut in [(-1, "chevron_left", "Left"), (1, "chevron_right", "Right")]:
        buttons.button(
            f":material/{icon}:",
            key=keys.ANIMATE_BACK if delta < 0 else keys.ANIMATE_NEXT,
            help="One step back" if delta < 0 else "One step forward",
            on_click=quiz.step_by,  # in the quiz, a step forward reveals or skips
            args=(state, delta, last),
            disabled=not 0 <= step + delta <= last,
            shortcut=shortcut,
        )
    options = row.popover("Options", icon=":material/tune:", key=keys.ANIMATE_OPTIONS)
    options.toggle("Show token ids", key=keys.ANIMATE_IDS)
    options.select_slider(
        "Speed (steps per second)",
        options=playback.SPEEDS,
        value=playback.DEFAULT_SPEED,
        key=keys.ANIMATE_SPEED,
        persist_state="session",
    )


def url_binding(state: State) -> Literal["query-params"] | None:
    """The step slider's binding to the page's address (`animate_step=`): none while a
    student follows a class, whose step is the class's, not the address's.

    subtle: Streamlit seeds a bound widget from the address of the request whenever it
    registers the widget under an identity it has not seen in the last run, over a value
    the script set in this run: on a page's first run, and whenever the slider's range
    changes, as it does when a class's question hides its merge from the student (its
    last step is the question's) and when the reveal or their answer shows it again. A
    following student's address lags the class's step (their browser moves it only once
    the class's step has reached its slider), so its slider took the older step over the
    class's, the next run drew it, and `following.stepped` took it for a step of the
    student's own: they "stepped away" (the class's load bench, after a question).
    Unbound, the address's step is not read while they follow (Streamlit takes a bound
    one out of the address), the step is the one `following.follow_class` sets, and a
    step of their own binds it again.

    >>> from ui.classroom.model import Seat
    >>> url_binding({}), url_binding({"class_seat": Seat("K7MQ3", "s1", "Ada")})
    ('query-params', None)
    """
    return None if following.follows_class(state) else "query-params"


def _slider(row: DeltaGenerator, last: int) -> None:
    bind = url_binding(st.session_state)
    row.slider(
        f"Step (of {plural(last, 'merge')})",
        min_value=0,
        max_value=last,
        key=keys.ANIMATE_STEP,
        bind=bind,
        on_change=following.slid,
        args=("animate",),
        help="Step k uses the first k merges. "
        + (
            "The step is in the page's address, so a link opens at this step."
            if bind
            else "You follow the class: its step is yours until you step on your own."
        ),
    )
