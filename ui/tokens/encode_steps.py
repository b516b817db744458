"""Tokens, encode step by step: a word or short text encoded one merge at a time.

An expander on the Tokens page (it runs only while open). The user types a text or
picks a word of the page's text; the stage shows the current chunk's tokens, every
adjacent pair that has a merge with its number, the lowest marked, and the result, with
Back / Step / Play as on Animate (keys ← → P); its state and callbacks are in
ui/tokens/encode_playback.py. The text and step go into the page's URL (encode=,
encode_step=; see ui/session/links/urls.py).
"""

from __future__ import annotations

import streamlit as st

from explorer import Tokenizer, render_token
from explorer.encoding.encode_trace import MAX_TRACE_CHARS, EncodeTrace, trace_chunk, trace_encoding
from ui.classroom import following, step_follow, teaching
from ui.session import state as keys
from ui.session.encode_place import encode_place
from ui.session.links import urls
from ui.tokens import encode_story as story
from ui.tokens.encode_playback import (
    DEFAULT_SPEED,
    SPEEDS,
    follow_trace,
    mark_typed,
    pick_word,
    seed_from_link,
    step_by,
    tick,
    toggle_play,
    wanted_timer,
)
from ui.views.formatting import markdown_text, plural
from ui.views.present import presenting
from ui.views.section import guarded_function
from ui.views.token_text import paragraph_html

WORD_SOURCE_CHARS = 5_000  # the page text's words are offered from its first characters
MAX_WORDS = 400  # distinct chunks in the menu


@st.cache_resource(max_entries=64, ttl="1h", show_spinner=False)
def trace_cached(_tokenizer: Tokenizer, run_key: str, vocab_size: int, text: str) -> EncodeTrace:
    """The trace of a text at a vocab size, once; raises the engine's ValueErrors."""
    return trace_encoding(_tokenizer, text)


@st.cache_data(max_entries=32, ttl="1h", show_spinner=False)
def words_cached(
    _tokenizer: Tokenizer, run_key: str, vocab_size: int, text: str
) -> tuple[tuple[str, ...], str]:
    """The page text's distinct chunks (pre-tokens), in order, and the one that takes the
    most merges (the first such): the word the section opens on."""
    try:
        pieces = _tokenizer.pre_tokens(text[:WORD_SOURCE_CHARS], allowed_special="all")
    except ValueError:
        return (), ""
    words = tuple(dict.fromkeys(p for p, special in pieces if not special and p.strip()))
    words = words[:MAX_WORDS]
    steps = [len(trace_chunk(_tokenizer, word).steps) for word in words[:200]]
    best = words[steps.index(max(steps))] if steps else ""
    return words, best


# --- the section ----------------------------------------------------------------------


def section(tokenizer: Tokenizer, run_key: str, vocab_size: int, page_text: str) -> None:
    """The expander; its content runs only while it is open."""
    state = st.session_state
    seed_from_link(state, st.query_params)
    expander = st.expander(
        "Encode step by step: which pair fuses first, and why",
        icon=":material/timeline:",
        key=keys.TOKENS_ENCODE_OPEN,
        on_change="rerun",
    )
    if not expander.open:
        urls.update(st.query_params, {"encode": None, "encode_step": None})
        return
    with expander:
        text = text_input(tokenizer, run_key, vocab_size, page_text)
        if not tokenizer.merges:
            st.info(
                "This tokenizer has no merges at vocab size 256: every byte stays a token, "
                "so there is nothing to step through. Slide View at vocab size up in the "
                "sidebar."
            )
            return
        if not text:
            st.info("Type a word or a short text above, or pick a word of the text.")
            return
        try:
            trace = trace_cached(tokenizer, run_key, vocab_size, text)
        except ValueError as exc:
            st.error(f"This text cannot be encoded step by step: {markdown_text(str(exc))}")
            return
        last = len(trace.steps)
        follow_trace(state, f"{run_key}:{vocab_size}:{text}", last)
        interval = wanted_timer(state)
        stage = guarded_function("The step", stage_view)  # a fragment: reruns alone
        step_follow.offer(state, "tokens", keys.TOKENS_ENCODE_VIEW, last)  # a class's step
        st.fragment(stage, run_every=interval, key=keys.TOKENS_ENCODE_VIEW)(
            tokenizer, trace, interval
        )


def text_input(tokenizer: Tokenizer, run_key: str, vocab_size: int, page_text: str) -> str:
    """The text box (following the page text's most-merged word until typed) and a menu
    of the page text's words."""
    state = st.session_state
    words, best = words_cached(tokenizer, run_key, vocab_size, page_text)
    if not state.get(keys.TOKENS_ENCODE_EDITED) and best:
        state[keys.TOKENS_ENCODE_TEXT] = best
    row = st.container(horizontal=True, vertical_alignment="bottom")
    row.text_input(
        "Word or short text",
        key=keys.TOKENS_ENCODE_TEXT,
        on_change=mark_typed,
        persist_state="session",
        help=f"Up to {MAX_TRACE_CHARS} characters: each chunk is merged one step at a time.",
    )
    row.selectbox(
        "Or pick a word of the text",
        words,
        index=None,
        format_func=lambda word: render_token(word.encode("utf-8"), visible_whitespace=True),
        placeholder=f"{plural(len(words), 'word')} of the text above…",
        key=keys.TOKENS_ENCODE_PICK,
        on_change=pick_word,
        disabled=not words,
    )
    text = str(state.get(keys.TOKENS_ENCODE_TEXT) or "")
    urls.update(st.query_params, {"encode": urls.link_text(text)})
    return text


def stage_view(tokenizer: Tokenizer, trace: EncodeTrace, interval: float | None) -> None:
    """Controls and the step on screen, as a fragment: a step reruns this alone."""
    state = st.session_state
    last = len(trace.steps)
    if interval is not None:
        tick(state, last)
    if wanted_timer(state) != interval:
        st.rerun()  # the whole page: the fragment's new timer
    controls(last)
    number = encode_place(state).step
    following.stepped("tokens", number)
    teaching.publish(
        page="tokens", encode_text=str(state.get(keys.TOKENS_ENCODE_TEXT) or ""), encode_step=number
    )
    urls.update(st.query_params, {"encode_step": str(number) if number else None})
    with st.container(key=keys.TOKENS_ENCODE_STAGE):
        show_step(tokenizer, trace, number)
    if not presenting():
        st.caption(story.WHY_THIS_ORDER)


def controls(last: int) -> None:
    """Play / pause, back, step, back to the start, and the speed; keys ← → P."""
    state = st.session_state
    place = encode_place(state)
    playing, number = place.playing, place.step
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    row.button(
        "Pause" if playing else "Play",
        key=keys.TOKENS_ENCODE_PLAY,
        icon=":material/pause:" if playing else ":material/play_arrow:",
        type="primary",
        on_click=toggle_play,
        args=(state, last),
        disabled=last == 0,
        shortcut="P",
    )
    for delta, icon, shortcut, key, label in [
        (-1, "chevron_left", "Left", keys.TOKENS_ENCODE_BACK, "One step back"),
        (1, "chevron_right", "Right", keys.TOKENS_ENCODE_NEXT, "One step forward"),
    ]:
        row.button(
            f":material/{icon}:",
            key=key,
            help=label,
            on_click=step_by,
            args=(state, delta, last),
            disabled=not 0 <= number + delta <= last,
            shortcut=shortcut,
        )
    row.button(
        "Start",
        key=keys.TOKENS_ENCODE_RESTART,
        icon=":material/first_page:",
        help="Back to step 0: the bytes",
        on_click=step_by,
        args=(state, -last, last),
        disabled=number == 0,
    )
    row.markdown(f"**Step {number:,} of {last:,}**", width="content")
    row.select_slider(
        "Speed (steps per second)",
        options=SPEEDS,
        value=DEFAULT_SPEED,
        key=keys.TOKENS_ENCODE_SPEED,
        persist_state="session",
        width=220,
    )


def show_step(tokenizer: Tokenizer, trace: EncodeTrace, number: int) -> None:
    """The chunk before, its candidates (lowest marked), the chunk after, the narration."""
    large = presenting()
    st.html(paragraph_html(story.narration(tokenizer, trace, number)))
    if number == 0 or not trace.steps:
        st.markdown(f"**The text as bytes** · {plural(len(trace.ids_at(0)), 'chunk')}")
        st.html(story.text_html(tokenizer, trace, 0))
        return
    found = trace.steps[number - 1]
    step = found.step
    fusing, fused = story.step_positions(step)
    chunk = (
        f"Chunk {found.chunk + 1} of {len(trace.chunks)}" if len(trace.chunks) > 1 else "The text"
    )
    st.markdown(f"**{chunk}, before** · {plural(len(step.ids_before), 'token')}")
    st.html(story.chunk_html(tokenizer, step.ids_before, fusing))
    st.markdown("**Pairs that have a merge**, in reading order (the lowest number fuses)")
    st.html(story.candidates_html(tokenizer, step, large=large))
    st.markdown(f"**After merge {step.merge_number}** · {plural(len(step.ids_after), 'token')}")
    st.html(story.chunk_html(tokenizer, step.ids_after, fused))
    if not large and len(trace.chunks) > 1:
        now = sum(map(len, trace.ids_at(number)))
        st.markdown(
            f"**The whole text after step {number}** · {plural(now, 'token')}; "
            f"chunk {found.chunk + 1} outlined"
        )
        st.html(story.text_html(tokenizer, trace, number, found.chunk))
