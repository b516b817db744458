"""Animate's passage: the text area (kept across pages) the steps are shown on, which starts
as the start of the run's corpus, and a button back to it."""

from __future__ import annotations

import streamlit as st

from ui.animate import animation as anim
from ui.session import state as keys
from ui.session.run_spec import RunKind
from ui.session.runs import Run, texts_of, training_text_note
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES, sample_text
from ui.views.formatting import excerpt
from ui.views.present import presenting
from ui.views.token_view import follow_text, mark_edited


def corpus_passage(run: Run) -> str:
    """The start of the run's corpus (a word table's words); a .model has none: a sample."""
    texts = texts_of(run.spec)
    if run.spec.kind is RunKind.MODEL or not texts:
        return excerpt(sample_text(DEFAULT_SAMPLE), anim.PASSAGE_CHARS)
    if run.spec.kind is RunKind.WORD_COUNTS:
        return anim.words_passage(texts[0])
    return excerpt(texts[0], anim.PASSAGE_CHARS)


def reset_passage(passage: str) -> None:
    st.session_state[keys.ANIMATE_PASSAGE] = passage
    st.session_state[keys.ANIMATE_PASSAGE_EDITED] = False


def passage_input(run: Run) -> str:
    """The text area (kept across pages) and a button back to the corpus's start; none
    in the presenter view.

    A run whose training text is not in the app starts from a bundled sample, and a
    caption says so.
    """
    follow_text(keys.ANIMATE_PASSAGE, corpus_passage(run), run.spec.name)  # unless typed
    if presenting():  # the passage is edited outside the presenter view
        return str(st.session_state[keys.ANIMATE_PASSAGE])
    sample = SAMPLES[DEFAULT_SAMPLE].title.split(" (")[0]
    where = "the start of the corpus" if texts_of(run.spec) else f"the start of {sample}"
    note = training_text_note(run.spec)
    if note:
        st.caption(f"{note} The passage is a bundled sample ({sample}) until you type your own.")
    with st.expander(f"Passage: {where}, or a text of your own"):
        st.text_area(
            "Text to animate",
            key=keys.ANIMATE_PASSAGE,
            height=140,
            max_chars=anim.MAX_PASSAGE_CHARS,
            on_change=mark_edited,
            args=(keys.ANIMATE_PASSAGE,),
            persist_state="session",
            help="Any text: the steps are the ones training found on the corpus.",
        )
        st.button(
            f"Use {where}",
            key=keys.ANIMATE_RESET,
            on_click=reset_passage,
            args=(corpus_passage(run),),
        )
    return str(st.session_state[keys.ANIMATE_PASSAGE])
