"""Animate for a real model's run: its encoding of the passage replayed merge by merge.

A loaded model has no training text, so there is no training to animate; what it does
with a text is the same move, one merge at a time, lowest rank first in each pre-token.
Step k is the k-th merge applied to this passage (a **step**); each merge keeps its
**rank** in the model's file and each token its **id**. Play advances the step in a
fragment on a timer, as the other pages' players do.
"""

from __future__ import annotations

import streamlit as st

from ui.animate import animation as anim
from ui.session import state as keys
from ui.session.runs import ModelRun
from ui.views.formatting import markdown_text, plural
from ui.views.model_step_view import show_model_step, traced
from ui.views.token_view import default_sample_excerpt, follow_text, mark_edited

PLAY_INTERVAL_S = 1.0  # a step a second: time to read the narration


def show_model_replay(run: ModelRun) -> None:
    """The page for a real model: the passage box, the step slider and Play, the step."""
    st.caption(
        f"**{markdown_text(run.spec.name)}** is a real model's tokenizer: it has no training "
        "text here, so this replays how it encodes the passage, one merge at a time. A "
        "**step** is the n-th merge applied to this passage; each merge keeps its **rank** in "
        "the model's file, and each token its own **id**."
    )
    follow_text(keys.ANIMATE_PASSAGE, default_sample_excerpt(anim.PASSAGE_CHARS), run.spec.name)
    with st.expander("Passage: a bundled sample, or a text of your own"):
        st.text_area(
            "Text to animate",
            key=keys.ANIMATE_PASSAGE,
            height=140,
            max_chars=anim.MAX_PASSAGE_CHARS,
            on_change=mark_edited,
            args=(keys.ANIMATE_PASSAGE,),
            help="Any text: the steps are the model's merges on it, in its own order.",
        )
    passage = str(st.session_state.get(keys.ANIMATE_PASSAGE) or "")
    if not passage:
        st.info("The passage is empty: type a text in the Passage box above.")
        return
    try:
        trace, steps = traced(run, passage)
    except ValueError as exc:
        st.error(f"This passage could not be encoded: {markdown_text(str(exc))}")
        return
    if not steps:
        show_model_step(run.model, trace, steps, 0)
        return
    playing = st.toggle("Play", key=keys.ANIMATE_MODEL_PLAY, help="One merge a second")
    st.fragment(_step_view, run_every=PLAY_INTERVAL_S if playing else None)(run, passage)


def _step_view(run: ModelRun, passage: str) -> None:
    """The slider and the step on screen; while playing, each run moves one step on."""
    trace, steps = traced(run, passage)
    state, last = st.session_state, len(steps)
    value = state.get(keys.ANIMATE_MODEL_STEP)
    if not isinstance(value, int) or value > last:
        state[keys.ANIMATE_MODEL_STEP] = 0
    elif state.get(keys.ANIMATE_MODEL_PLAY):
        state[keys.ANIMATE_MODEL_STEP] = value + 1 if value < last else 0
    number = st.slider(
        f"Step (of {plural(last, 'merge')} applied to this passage)",
        0,
        last,
        key=keys.ANIMATE_MODEL_STEP,
    )
    show_model_step(run.model, trace, steps, number)
    if number == last:
        encoded = run.model.encode(passage)
        same = "the model's own ids" if encoded == trace.ids else "other ids than its encode"
        st.caption(f"After the last step: {plural(len(trace.ids), 'token')}, {same}.")
