"""Tokens, encode step by step, for a real model's run: a word or short text, merge by merge.

The steps are the model's own trace (`LoadedModel.trace`, replayed from the library's
order): within each pre-token the pair of lowest merge rank fuses first, and the last
step's ids are the model's encode, which the section checks and says. The box follows
the page text's word that takes the most merges until the user types their own.
"""

from __future__ import annotations

import regex
import streamlit as st

from explorer.models.model import ModelTrace
from explorer.models.trace_steps import MAX_MODEL_TRACE_CHARS
from ui.server.lru import SharedLru
from ui.session import state as keys
from ui.session.runs import ModelRun
from ui.views.formatting import markdown_text, plural
from ui.views.model_step_view import show_model_step, traced
from ui.views.token_view import mark_edited

WORD_SOURCE_CHARS = 2_000  # the page text's words are looked for in its start
MAX_WORDS = 200  # distinct words tried
WORD = regex.compile(r"\S+")
_words = SharedLru(64)  # (run, page text's start) -> its most merged word


def most_merged_word(run: ModelRun, page_text: str) -> str:
    """The page text's word (as typed: a model's pre-tokens may be normalised) that takes
    the most merges when encoded alone, the first such; once per run and text."""

    def find() -> str:
        found: list[str] = WORD.findall(page_text[:WORD_SOURCE_CHARS])
        words = list(dict.fromkeys(found))[:MAX_WORDS]
        counts = [sum(len(c.steps) for c in run.model.trace(word).chunks) for word in words]
        if not counts or max(counts) == 0:
            return page_text[:40]
        return words[counts.index(max(counts))]

    return _words.get_or_make((run.key, page_text[:WORD_SOURCE_CHARS]), find, lambda _: 1)


def section(run: ModelRun, page_text: str) -> None:
    """The expander; its content runs only while it is open."""
    expander = st.expander(
        "Encode step by step: each merge in rank order, to the model's ids",
        icon=":material/timeline:",
        key=keys.TOKENS_MODEL_STEPS_OPEN,
        on_change="rerun",
    )
    if not expander.open:
        return
    state = st.session_state
    with expander:
        if not state.get(keys.TOKENS_MODEL_STEPS_EDITED):
            state[keys.TOKENS_MODEL_STEPS_TEXT] = most_merged_word(run, page_text)
        st.text_input(
            "Word or short text",
            key=keys.TOKENS_MODEL_STEPS_TEXT,
            max_chars=MAX_MODEL_TRACE_CHARS,
            on_change=mark_edited,
            args=(keys.TOKENS_MODEL_STEPS_TEXT,),
            help="The box starts with the word of your text that takes the most merges.",
        )
        text = str(state.get(keys.TOKENS_MODEL_STEPS_TEXT) or "")
        if not text:
            st.info("Type a word or a short text above.")
            return
        try:
            trace, steps = traced(run, text)
        except ValueError as exc:
            st.error(f"This text cannot be encoded step by step: {markdown_text(str(exc))}")
            return
        number = 0
        if steps:
            clamp_step(state, keys.TOKENS_MODEL_STEP, len(steps))
            number = st.slider(
                "Step (the n-th merge applied to this text)",
                0,
                len(steps),
                key=keys.TOKENS_MODEL_STEP,
            )
        number = min(number, len(steps))
        show_model_step(run.model, trace, steps, number)
        final_ids_note(run, text, trace)


def clamp_step(state: keys.State, key: str, last: int) -> None:
    """Keep a step slider's value within a (new, shorter) trace before it is drawn.

    >>> state = {"s": 9}; clamp_step(state, "s", 4); state
    {'s': 4}
    """
    value = state.get(key)
    if isinstance(value, int) and value > last:
        state[key] = last


def final_ids_note(run: ModelRun, text: str, trace: ModelTrace) -> None:
    """Say that the last step's ids are the model's own encode (or, never expected, not)."""
    encoded = run.model.encode(text)
    if trace.ids == encoded:
        st.caption(
            f"After the last step: {plural(len(encoded), 'token')}, the ids the model's own "
            "library gives this text."
        )
    else:
        st.warning("These steps end in other ids than the model's encode: please report it.")
