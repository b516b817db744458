"""What opening a link has to tell its visitor, as typed values in session state.

Three things, each under one key of ui/session/state.py and read and written only here:
the link's values left out or lowered (`LinkNotes`, shown while the run it opened is on
screen), the run it named that this server does not have (`RunNotFound`), and its
pattern that was not used (`PatternNotUsed`, shown once). ui/session/opening.py writes
them; ui/shell.py shows them.

    >>> state = {}
    >>> link_notes(state)  # nothing yet: no run, no notes
    LinkNotes(run=None, notes=(), cut=False)
    >>> add_link_note(state, "The link's view=² was left out.")
    >>> add_link_note(state, "The link's view=² was left out.")  # said once
    >>> keep_link_notes(state, "Shakespeare, 300 tokens"); link_notes(state)
    LinkNotes(run='Shakespeare, 300 tokens', notes=("The link's view=² was left out.",), cut=False)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ui.session import state as keys
from ui.session.state import State, held_as


@dataclass(frozen=True)
class LinkNotes:
    """A link's values left out or lowered, for the run it opened (None until it has).

    `cut`: the link asked for a larger vocab size than a link may train, so no run can
    have its key, and the run trained within the budget stands in for it.
    """

    run: str | None = None
    notes: tuple[str, ...] = ()
    cut: bool = False


@dataclass(frozen=True)
class RunNotFound:
    """The run a link named (`run=KEY`) that this server does not have, and its stand-in.

    `problem` says why its saved copy could not be read ("" when there is none);
    `retrain` holds the link's sample settings when it can be trained again from them.
    """

    key: str
    problem: str
    shown_instead: str
    retrain: dict[str, str] | None = None


@dataclass(frozen=True)
class PatternNotUsed:
    """A link's pre-tokenizer pattern that was refused, why, and the sample's own instead."""

    pattern: str
    problem: str
    instead: str


def link_notes(state: State) -> LinkNotes:
    """The link's notes (empty when there are none)."""
    return held_as(state, keys.LINK_NOTES, LinkNotes) or LinkNotes()


def set_link_notes(state: State, notes: LinkNotes) -> None:
    state[keys.LINK_NOTES] = notes


def add_link_note(state: State, note: str) -> None:
    """One more note (a note already there is not repeated)."""
    held = link_notes(state)
    if note not in held.notes:
        set_link_notes(state, replace(held, notes=(*held.notes, note)))


def keep_link_notes(state: State, run_name: str) -> None:
    """The notes belong to the run the link opened: shown while that run is on screen."""
    set_link_notes(state, replace(link_notes(state), run=run_name))


def drop_link_notes(state: State) -> None:
    state.pop(keys.LINK_NOTES, None)


def run_not_found(state: State) -> RunNotFound | None:
    return held_as(state, keys.LINK_NOTICE, RunNotFound)


def set_run_not_found(state: State, notice: RunNotFound) -> None:
    state[keys.LINK_NOTICE] = notice


def drop_run_not_found(state: State) -> None:
    state.pop(keys.LINK_NOTICE, None)


def set_pattern_not_used(state: State, notice: PatternNotUsed) -> None:
    state[keys.LINK_PATTERN_NOTICE] = notice


def pop_pattern_not_used(state: State) -> PatternNotUsed | None:
    """The pattern notice, taken out of the state: it is shown once.

    >>> state = {}
    >>> set_pattern_not_used(state, PatternNotUsed("(a+)+$", "too slow.", "gpt4"))
    >>> pop_pattern_not_used(state).instead, pop_pattern_not_used(state)
    ('gpt4', None)
    """
    held = held_as(state, keys.LINK_PATTERN_NOTICE, PatternNotUsed)
    state.pop(keys.LINK_PATTERN_NOTICE, None)
    return held
