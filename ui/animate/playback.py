"""Animate's playback: which step is on screen, and how play, pause and stepping move it.

subtle: while playing, the step lives in keys.ANIMATE_POSITION, not in the slider's key. A
browser that is a tick behind sends its slider value with every rerun request, and
Streamlit would take that stale value as the user's; so the slider is put away while
playing and gets the position back on pause.

    >>> state = {"animate_step": 0, "animate_position": 2, "animate_playing": True}
    >>> tick(state, last=3); state["animate_step"], state["animate_playing"]
    (3, False)
"""

from __future__ import annotations

from ui.session import state as keys
from ui.session.state import State

SPEEDS = (0.5, 1, 2, 5, 10, 25, 50, 100)


DEFAULT_SPEED = 1


MAX_TICKS_PER_SECOND = 5  # faster speeds take several steps per tick


def timer(speed: float) -> tuple[float, int]:
    """Seconds between ticks and steps per tick, for `speed` steps per second.

    Up to MAX_TICKS_PER_SECOND one step a tick; faster speeds take several steps a tick.

    >>> timer(2), timer(50)
    ((0.5, 1), (0.2, 10))
    """
    if speed <= MAX_TICKS_PER_SECOND:
        return 1 / speed, 1
    return 1 / MAX_TICKS_PER_SECOND, max(1, round(speed / MAX_TICKS_PER_SECOND))


def wanted_timer(state: State) -> float | None:
    """The interval the stage's fragment should rerun at: None when paused."""
    return (
        timer(state.get(keys.ANIMATE_SPEED, DEFAULT_SPEED))[0]
        if state.get(keys.ANIMATE_PLAYING)
        else None
    )


def shown_step(state: State, last: int) -> int:
    """The step on screen: the playback position while playing, else the slider's."""
    key = keys.ANIMATE_POSITION if state.get(keys.ANIMATE_PLAYING) else keys.ANIMATE_STEP
    return max(0, min(last, int(state.get(key, 0))))


def tick(state: State, last: int) -> None:
    """One tick of playback: advance the position; at the last step, stop there.

    >>> state = {"animate_step": 0, "animate_position": 2, "animate_playing": True}
    >>> tick(state, last=3); state["animate_step"], state["animate_playing"]
    (3, False)
    """
    if not state.get(keys.ANIMATE_PLAYING):
        return
    stride = timer(state.get(keys.ANIMATE_SPEED, DEFAULT_SPEED))[1]
    state[keys.ANIMATE_POSITION] = min(last, int(state.get(keys.ANIMATE_POSITION, 0)) + stride)
    if state[keys.ANIMATE_POSITION] >= last:
        pause(state)


def toggle_play(state: State, last: int) -> None:
    """Play from the slider's step (from step 0 when at the end), or pause."""
    if state.get(keys.ANIMATE_PLAYING):
        pause(state)
        return
    start = int(state.get(keys.ANIMATE_STEP, 0))
    state[keys.ANIMATE_POSITION] = 0 if start >= last else start
    state[keys.ANIMATE_PLAYING] = True


def pause(state: State) -> None:
    """Stop playing; the slider takes the step that was on screen."""
    if state.get(keys.ANIMATE_PLAYING):
        state[keys.ANIMATE_STEP] = int(state.get(keys.ANIMATE_POSITION, 0))
    state[keys.ANIMATE_PLAYING] = False


def step_by(state: State, delta: int, last: int) -> None:
    """Pause and move the step by delta, staying within 0..last."""
    pause(state)
    state[keys.ANIMATE_STEP] = max(0, min(last, int(state.get(keys.ANIMATE_STEP, 0)) + delta))


def follow_step(state: State, run_name: str) -> None:
    """A new run starts at step 0; a step opened from a link (no run before) is kept.

    >>> state = {"animate_step": 3}
    >>> follow_step(state, "A"); state["animate_step"]
    3
    >>> follow_step(state, "B"); state["animate_step"], state["animate_playing"]
    (0, False)
    """
    had_run = keys.ANIMATE_STEP_RUN in state
    if keys.follow_run(state, keys.ANIMATE_STEP_RUN, run_name) and had_run:
        state[keys.ANIMATE_PLAYING] = False
        state[keys.ANIMATE_STEP] = state[keys.ANIMATE_POSITION] = 0


def clamp_step(state: State, last: int) -> None:
    """Keep a remembered step inside this run's range (another run may have fewer steps)."""
    if keys.ANIMATE_STEP in state and not 0 <= int(state[keys.ANIMATE_STEP]) <= last:
        state[keys.ANIMATE_STEP] = max(0, min(last, int(state[keys.ANIMATE_STEP])))
