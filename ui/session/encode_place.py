"""Where Tokens' encode step by step stands: the step on screen, the trace it belongs to,
and whether it plays, as one typed value in session state.

The three change together (a new trace starts at 0, paused; a class's follow sets the
step and stops the play), so they are one `EncodePlace` under keys.TOKENS_ENCODE_PLACE,
read and written only through the functions here. It is an input kept in session state,
not a widget, so a browser a tick behind cannot send a stale step back.
ui/tokens/encode_playback.py moves it; ui/classroom/ sets it to the teacher's.

    >>> state = {}
    >>> encode_place(state)  # nothing on screen yet
    EncodePlace(step=0, trace=None, playing=False)
    >>> set_encode_place(state, EncodePlace(step=3, playing=True)); encode_place(state).step
    3
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ui.session import state as keys
from ui.session.state import State, held_as


@dataclass(frozen=True)
class EncodePlace:
    """The step on screen; the trace it belongs to (None: none drawn since a link or a
    class set the step, which the first trace then keeps); whether it plays."""

    step: int = 0
    trace: str | None = None
    playing: bool = False


def encode_place(state: State) -> EncodePlace:
    """Where the encode trace stands (step 0, paused, when nothing is kept)."""
    return held_as(state, keys.TOKENS_ENCODE_PLACE, EncodePlace) or EncodePlace()


def set_encode_place(state: State, place: EncodePlace) -> None:
    state[keys.TOKENS_ENCODE_PLACE] = place


def move_kept_step(state: State, step: int) -> None:
    """Put a trace's step at `step`, when one is kept (nothing is set when none is).

    >>> state = {}
    >>> move_kept_step(state, 4); state
    {}
    >>> set_encode_place(state, EncodePlace(2, "run:300:hi")); move_kept_step(state, 4)
    >>> encode_place(state)
    EncodePlace(step=4, trace='run:300:hi', playing=False)
    """
    held = held_as(state, keys.TOKENS_ENCODE_PLACE, EncodePlace)
    if held is not None:
        set_encode_place(state, replace(held, step=step))
