"""A follow that reruns the step's fragment alone, when the teacher's step is all that moved.

A student's page polls the class (`following.follow_poll`, a fragment on a timer). When
the class moved it used to rerun the whole page: the sidebar, the banner, the passage box,
the lesson download, the question and the step's fragment, ~14 ms of the server's CPU a
student, sixty of them wanted within one polling period. Most moves are a step, though, and
on Animate only the step's fragment shows the step (the controls, the stage, the pair panel
and the charts), on Tokens the encode trace's. So when nothing else a student sees moved
(the same run, page, passage or encoded text, question and scores), the poll sets the
student's step and reruns that fragment alone.
A step that shows nowhere on the student's page (they stepped away, or are on another page
than the teacher's) reruns nothing: their state is set for later. Anything else (a
question asked or revealed, a new passage, the teacher on another page) reruns the page
as before.

The page offers its step fragment for this (`offer`), with the steps it can show, on each
whole run; what the poll compares with is the class as the last whole run followed it
(keys.CLASS_FOLLOWED, set by `following.follow_class`).

subtle: Streamlit 1.67 names fragments (`st.fragment(key=...)`) and reruns a named one with
`st.rerun("key")`, but only from a widget callback: from a fragment's body it refuses,
since that would end the run in progress mid-way (their spec leaves data-driven reruns
out: streamlit/streamlit#15755). Ending the poll's run is all the poll wants: it draws
nothing. So `rerun_fragment` asks the script runner for what `st.rerun("key")` asks for
(a fragment-scoped RerunData naming the fragment) through the one door to Streamlit's
internals (ui/server/streamlit_internals.py), and reruns the whole page instead when any
of that is missing. Why not make the step fragment itself the poller
(`st.fragment(run_every=...)` + `st.rerun(scope="fragment")`, all public): a fragment
redraws everything it shows on each tick, so every idle poll would cost the step
fragment's 13 elements instead of none, ~3x the server's CPU a poll
(docs/streamlit-internals.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import streamlit as st

from ui.classroom.model import ClassView, Place
from ui.classroom.session import follow_place, mark_seen
from ui.server.streamlit_internals import ask_fragment_rerun
from ui.session import state as keys
from ui.session.state import State


@dataclass(frozen=True)
class StepFragment:
    """A page's step fragment, as its last whole run drew it: the page's url path, the
    fragment's key (`st.fragment(key=...)`) and the last step it can show."""

    page: str
    key: str
    last: int


def offer(state: State, page: str, key: str, last: int) -> None:
    """Called by a page as it draws its step fragment: a follow may rerun that alone.

    >>> state = {"class_seat": "a seat"}
    >>> offer(state, "animate", "animate_step_view", 40); state["class_step_fragment"].last
    40
    """
    if state.get(keys.CLASS_SEAT) is not None:
        state[keys.CLASS_STEP_FRAGMENT] = StepFragment(page, key, last)


def only_the_step_moved(before: ClassView | None, after: ClassView) -> bool:
    """Whether `after` differs from `before` in the teacher's step alone, Animate's or
    Tokens' encode step (the students' counts and the version aside: a student's page
    shows none of them).

    >>> seen = ClassView("K7MQ3", 4, "run", "name", Place(step=3), None, 2, None)
    >>> only_the_step_moved(seen, replace(seen, version=5, place=Place(step=4), students=3))
    True
    >>> only_the_step_moved(seen, replace(seen, version=5, place=Place(step=4), present=1))
    True
    >>> only_the_step_moved(seen, replace(seen, version=5, place=Place(step=4, passage="x")))
    False
    >>> only_the_step_moved(None, seen)
    False
    """
    if before is None:
        return False
    same_but_step = replace(
        before,
        version=after.version,
        students=after.students,
        present=after.present,
        place=replace(before.place, step=after.place.step, encode_step=after.place.encode_step),
    )
    return same_but_step == after


def fragment_for(state: State, view: ClassView, page: str) -> StepFragment | None:
    """The step fragment that can show the class's move alone on this student's page, or
    None when the whole page must rerun."""
    offered = state.get(keys.CLASS_STEP_FRAGMENT)
    if (
        not isinstance(offered, StepFragment)
        or offered.page != page
        or view.place.page != page
        or state.get(keys.CLASS_AWAY)
        or not on_class_run(state)
        or not 0 <= shown_step(view.place) <= offered.last
        or not only_the_step_moved(state.get(keys.CLASS_FOLLOWED), view)
    ):
        return None
    return offered


def shown_step(place: Place) -> int:
    """The step the teacher's page shows: Animate's, or on Tokens the encode step.

    >>> shown_step(Place(step=7)), shown_step(Place("tokens", step=7, encode_step=2))
    (7, 2)
    """
    return place.encode_step if place.page == "tokens" else place.step


def shown_nowhere(state: State, view: ClassView, page: str) -> bool:
    """Whether the class's move shows nowhere on this student's page: only the teacher's
    step moved, and the student stepped away (their own step is on screen) or is on
    another page than the teacher's, with the class's run (their steps are set for later).
    """
    if not only_the_step_moved(state.get(keys.CLASS_FOLLOWED), view):
        return False
    if state.get(keys.CLASS_AWAY):
        return True
    return page != view.place.page and on_class_run(state)


def on_class_run(state: State) -> bool:
    """Whether this student's session has the class's run and shows it (the sidebar's).

    >>> on_class_run({"class_run": "r", "runs": {"r": 1}, "sidebar_run": "r"})
    True
    >>> on_class_run({"class_run": "r", "runs": {}, "sidebar_run": "r"})
    False
    """
    run_name = state.get(keys.CLASS_RUN)
    return run_name in state.get(keys.RUNS, {}) and state.get(keys.SIDEBAR_RUN) == run_name


def followed_lightly(state: State, view: ClassView, page: str) -> bool:
    """Follow the class's move without rerunning the page, where it can be: nothing to
    draw (True), or the step's fragment alone (this run ends here); False when the whole
    page must rerun (following.follow_class then)."""
    nowhere = shown_nowhere(state, view, page)
    fragment = None if nowhere else fragment_for(state, view, page)
    if not nowhere and fragment is None:
        return False
    mark_seen(state, view)
    if not state.get(keys.CLASS_AWAY):
        follow_place(state, view.place, state[keys.CLASS_RUN])
    if fragment is not None:
        rerun_fragment(fragment.key)
    return True


def rerun_fragment(key: str) -> None:
    """End the fragment running now and rerun the fragment named `key` alone, as
    `st.rerun("key")` does from a callback; the whole app when Streamlit cannot."""
    asked = ask_fragment_rerun(key)
    if asked is None:  # another Streamlit, or the fragment is not drawn: the whole page
        st.rerun()
    if not asked:  # the session is stopping
        st.stop()
    st.empty()  # a yield point: the script runner takes the request here (as st.rerun)
