"""Animate's step controls: play / pause, a step back or forward, the step slider (bound to
the URL) and the Options popover (speed, token ids), in one row."""

from __future__ import annotations

import streamlit as st

from ui.animate import playback
from ui.animate.quiz import questions as quiz
from ui.session import state as keys
from ui.views.formatting import plural


def controls(last: int) -> None:
    """One row: play / pause, step back / forward, the step slider (unless playing), and
    a popover with the speed and token ids. It wraps on a phone, never one control a row."""
    state = st.session_state
    playing = bool(state.get(keys.ANIMATE_PLAYING))
    row = st.container(
        horizontal=True, vertical_alignment="bottom", gap="small", key=keys.ANIMATE_CONTROLS
    )
    buttons = row.container(horizontal=True, width="content", gap="xsmall")
    if not playing:
        # subtle: drawn before the buttons fill their container beside it, so a step opened
        # from the URL is known when they decide whether they are disabled
        row.slider(
            f"Step (of {plural(last, 'merge')})",
            min_value=0,
            max_value=last,
            key=keys.ANIMATE_STEP,
            bind="query-params",
            help="Step k uses the first k merges. The step is in the page's address, so a "
            "link opens at this step.",
        )
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
