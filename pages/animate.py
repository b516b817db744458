"""Animate merges: watch training fuse one pair per step, on a passage of the corpus.

Step k shows the tokenizer of the first k merges. Everything that changes with the step
(the controls, the stage and the charts' marker) is one fragment: a click on a control
reruns that alone, not the page, and while the play flag is set it reruns itself on a
timer. Nothing here trains or loops over merges.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from explorer import Encoding, MergeHistory, Tokenizer, tokens_to_html
from ui.animate import animation as anim
from ui.animate import charts as anim_charts
from ui.animate import playback
from ui.animate.lesson.download import lesson_download
from ui.animate.pair_table.view import NO_CORPUS, beside_style, step_areas
from ui.animate.quiz import questions as quiz
from ui.animate.quiz.panel import pair_panel
from ui.session import state as keys
from ui.session.lru import SharedLru
from ui.session.run_spec import RunKind
from ui.session.runs import (
    Run,
    current_run_or_error,
    origin,
    texts_of,
    tokenizer_at,
    training_text_note,
    view_tokenizer,
    view_vocab_size,
)
from ui.session.samples import DEFAULT_SAMPLE, SAMPLES, sample_text
from ui.shell import run_page
from ui.views.formatting import RawHtml, excerpt, plural
from ui.views.present import presenter_passage, presenting
from ui.views.token_text import paragraph_html
from ui.views.token_view import follow_text, mark_edited

NO_HISTORY = (
    "This tokenizer was {origin}: it has its merges but not a training history (pair "
    "counts, ties, corpus lengths), so there are no steps to animate. Train on a corpus on "
    "the Train page to watch them; here is the passage at the sidebar's vocab size."
)


_encodings = SharedLru(max_entries=256, max_weight=50_000_000)  # bytes, ~200 a token


def encoding_cached(tokenizer: Tokenizer, run_key: str, vocab_size: int, passage: str) -> Encoding:
    """The passage encoded at one size of a run, shared read-only: a step forward finds
    its "before" here, the last step's "after" (half of a step's encoding)."""
    return _encodings.get_or_make(
        (run_key, vocab_size, passage),
        lambda: tokenizer.encode_with_spans(passage, allowed_special="all"),
        lambda encoding: 200 * len(encoding.ids),
    )


def frame_cached(
    before: Tokenizer, after: Tokenizer, run_key: str, step: int, passage: str
) -> anim.Frame:
    """The passage just before and after merge `step` (step 0: bytes, twice)."""
    end = encoding_cached(after, run_key, 256 + step, passage)
    start = encoding_cached(before, run_key, 255 + step, passage) if step else end
    return anim.frame_of(start, end, 255 + step if step else None)


_passages = SharedLru(max_entries=256, max_weight=64_000_000)  # ~170 KB a default passage
_charts = SharedLru(max_entries=64)  # one per run on screen in any session


def charts_cached(
    history: MergeHistory, tokenizer: Tokenizer, run_key: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The run's two charts as Vega-Lite (thinned for long histories), built once; shared
    read-only (`anim_charts.marked` copies what it changes)."""

    return _charts.get_or_make(
        run_key, lambda: anim_charts.run_charts(history, tokenizer), lambda _: 0
    )


# --- the passage -------------------------------------------------------------------


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


# --- the step: controls, stage and charts, one fragment that ticks while playing ------


def step_view(
    run: Run, history: MergeHistory, passage: str, interval: float | None, last: int
) -> None:
    """The step on screen and its controls, as a fragment: a step costs this, not the page.

    Play, pause and a new speed change the fragment's timer, which only the page sets.
    """
    state = st.session_state
    if interval is not None:
        playback.tick(state, last)
    if playback.wanted_timer(state) != interval:
        st.rerun()  # the whole page: the new timer, and the slider back after playing
    controls(last)
    step = playback.shown_step(state, last)
    stage_area, pair_area = step_areas()
    with stage_area, st.container(key=keys.ANIMATE_STAGE):
        stage(run, history, passage, step, last)
    with pair_area:  # the pair table, or the quiz: beside the stage
        pair_panel(run, history, step, last)
    charts(run, history, step)


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


def stage(run: Run, history: MergeHistory, passage: str, step: int, last: int) -> None:
    """The merge, narration and passage of the step on screen (a progress bar if playing)."""
    playing = bool(st.session_state.get(keys.ANIMATE_PLAYING))
    if playing:
        st.progress(step / last, text=f"Playing: step {step:,} of {last:,}")
    try:
        show_step(run, history, passage, step, playing)
    except ValueError as exc:
        st.error(f"This passage could not be encoded: {exc}. Edit the passage above.")


_GAP = '<div style="height:1rem"></div>'  # the space Streamlit puts between two elements


def show_step(run: Run, history: MergeHistory, passage: str, step: int, playing: bool) -> None:
    """The merge, the narration, and the passage before and after it, as one element
    (each element is a message to the browser: a room of thirty sends thirty a step)."""
    after = tokenizer_at(run.tokenizer, run.key, 256 + step)
    before = tokenizer_at(run.tokenizer, run.key, 255 + step) if step else after
    frame = frame_cached(before, after, run.key, step, passage)
    told = []
    if step:
        told.append(anim.merge_card_html(run.tokenizer, history.steps[step - 1]))
    told.append(paragraph_html(anim.narration(history, step, run.tokenizer)))
    if not passage:
        st.html(RawHtml(_GAP.join(told)))
        st.info("The passage is empty: type a text in the Passage box above.")
        return
    # hover titles are most of the HTML; nobody hovers over a moving passage
    show = {"show_ids": bool(st.session_state.get(keys.ANIMATE_IDS)), "titles": not playing}
    if step == 0:
        tokens = passage_html(after, run.key, passage, frame.after.ids, **show)
        pane = anim.pane_html("The passage as bytes", len(frame.after.ids), tokens)
        st.html(RawHtml(_GAP.join([*told, anim.stage_html([pane])])))
        return
    # the outlines are a stylesheet beside each passage, so a passage's HTML is the same at
    # every step that shows it: step k's "before" is step k - 1's "after", from the cache
    panes = [
        anim.pane_html(
            f"Before step {step:,}",
            len(frame.before.ids),
            passage_html(before, run.key, passage, frame.before.ids, **show),
            frame.pair_positions,
        ),
        anim.pane_html(
            f"After step {step:,}",
            len(frame.after.ids),
            passage_html(after, run.key, passage, frame.after.ids, **show),
            frame.fused_positions,
        ),
    ]
    st.html(RawHtml(_GAP.join([*told, anim.stage_html(panes, anim.passage_caption(frame))])))


def passage_html(
    tokenizer: Tokenizer,
    run_key: str,
    passage: str,
    ids: list[int],
    *,
    show_ids: bool,
    titles: bool,
) -> str:
    """The passage's tokens at the tokenizer's size, built once and shared (read only)."""
    return _passages.get_or_make(
        (run_key, tokenizer.vocab_size, passage, show_ids, titles),
        lambda: tokens_to_html(
            tokenizer, ids, visible_whitespace=True, show_ids=show_ids, titles=titles
        ),
        len,  # bytes, near enough: the HTML is mostly ASCII
    )


def charts(run: Run, history: MergeHistory, step: int) -> None:
    """Pair count and corpus length along training, the step on screen marked.

    The lines are built and converted once per run; a step sends them as they are, with
    a new one-row marker.
    """
    count_spec, length_spec = charts_cached(history, run.tokenizer, run.key)
    row = anim_charts.step_row(history, step, run.tokenizer)
    # one horizontal container, not columns (three blocks): side by side, wrapping on a phone
    both = st.container(horizontal=True, gap="medium")
    both.vega_lite_chart(anim_charts.marked(count_spec, row, "count"), width="stretch")
    both.vega_lite_chart(anim_charts.marked(length_spec, row, "tokens"), width="stretch")


# --- without a history -------------------------------------------------------------


def show_static(run: Run, passage: str) -> None:
    """The passage at the sidebar's vocab size, for runs with nothing to animate."""
    tokenizer = view_tokenizer(run)
    try:
        ids = tokenizer.encode(passage, allowed_special="all")
    except ValueError as exc:
        st.error(f"This passage could not be encoded: {exc}. Edit the passage above.")
        return
    st.markdown(f"**The passage at vocab size {view_vocab_size(run):,}** · {len(ids):,} tokens")
    st.html(RawHtml(tokens_to_html(tokenizer, ids, visible_whitespace=True)))


def main() -> None:
    st.title("Animate merges")
    if not presenting():  # the presenter says it
        st.caption(
            "Training repeats one move: find the most frequent pair of neighbouring tokens "
            "and fuse it into a new token. Step through the merges or press Play (keys: ← → P)."
        )
    run = current_run_or_error()
    if run is None:
        return
    passage = passage_input(run)
    if not presenting():
        lesson_download(run, passage)
    if run.history is None:
        st.info(NO_HISTORY.format(origin=origin(run.spec)))
        st.caption(NO_CORPUS.format(origin=origin(run.spec)))
        show_static(run, passage)
        return
    history = run.history
    last = view_vocab_size(run) - 256  # the sidebar's view size bounds the steps too
    if not last:  # a slider from 0 to 0 cannot be drawn
        st.info(anim.no_steps_message(history))
        show_static(run, passage)
        return
    if last < len(history.steps):
        st.caption(
            f"Showing the first {last:,} of {plural(len(history.steps), 'merge')}, as the "
            "sidebar's view size asks."
        )
    playback.follow_step(st.session_state, run.spec.name)
    playback.clamp_step(st.session_state, last)
    interval = playback.wanted_timer(st.session_state)
    if presenting():  # before and after, side by side, in large type on one screen
        passage = presenter_passage(passage)
    beside_style()
    st.fragment(step_view, run_every=interval)(run, history, passage, interval, last)


run_page(main)  # main inside the app's shell, even as a fresh server's first request
