"""Animate's step view: the controls, the merge and the passage before and after it (the
stage), the pair panel and the two charts, as one fragment the page runs; and the passage
alone, for a run with no steps to show.

The fragment is the page's: `st.fragment(step_view, run_every=...)`, so a click on a control
reruns this, not the page, and while playing it reruns itself on a timer.
"""

from __future__ import annotations

import streamlit as st

from explorer import MergeHistory, tokens_to_html
from ui.animate import animation as anim
from ui.animate import charts as anim_charts
from ui.animate import playback
from ui.animate.caches import cards_html, charts_cached, frame_cached, passage_html
from ui.animate.controls import controls_row, fill_controls
from ui.animate.pair_table.view import step_areas
from ui.animate.quiz.panel import pair_panel
from ui.classroom import following, teaching
from ui.session import state as keys
from ui.session.run_cache import tokenizer_at
from ui.session.runs import Run, view_tokenizer, view_vocab_size
from ui.views.formatting import RawHtml, markdown_text
from ui.views.token_text import paragraph_html


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
    # subtle: the row of controls is placed first but filled after the stage, so the
    # browser gets (and draws) the step's passage before the buttons and the popover;
    # their places in the row, and so the page, are the same (ui.animate.controls)
    row = controls_row(last)
    step = playback.shown_step(state, last)
    following.stepped("animate", step)  # a following student's own step: stepped away
    teaching.publish(page="animate", step=step, passage=passage)  # the teacher's: the class's
    stage_area, pair_area = step_areas()
    cards = ""
    try:
        with stage_area, st.container(key=keys.ANIMATE_STAGE):
            cards = stage(run, history, passage, step, last)
    finally:  # a step that fails still has its buttons, to step away from it
        fill_controls(row, last)
    with pair_area:  # the pair table, or the quiz: beside the stage
        pair_panel(run, history, step, last)
    charts(run, history, step)
    step_cards(cards)


def step_cards(cards: str) -> None:
    """The stage's token cards (what hovering or focusing a token shows, and what a screen
    reader reads for it), last of the step's elements, in a container that takes no room.

    subtle: they are a third of the stage's HTML and nothing shows them until a token is
    hovered, while the browser sanitises every element of an st.html (DOMPurify) before
    it draws it: apart, they no longer hold up the step's passage, only the hover cards
    (cards_box_style keeps their empty box, and the gap above it, off the page).
    """
    if cards:
        st.container(key=keys.ANIMATE_CARDS).html(RawHtml(cards))


def cards_box_style() -> None:
    """step_cards' stylesheet, drawn once by the page before the fragment (style only: it
    takes no room), so the cards' container is hidden from the moment it appears. A
    hidden element still describes the tokens that name it (aria-describedby)."""
    box = f".st-key-{keys.ANIMATE_CARDS}"
    # subtle: Streamlit wraps the container in a layout wrapper, and that is what the
    # column's gap spaces: hidden alone, the container still left 1rem under the charts
    wrapper = f'[data-testid="stLayoutWrapper"]:has(> {box})'
    st.html(RawHtml(f"<style>{wrapper},{box}{{display:none}}</style>"))


def stage(run: Run, history: MergeHistory, passage: str, step: int, last: int) -> str:
    """The merge, narration and passage of the step on screen (a progress bar if playing);
    returns the passages' token cards, for `step_cards` ('' if none)."""
    playing = bool(st.session_state.get(keys.ANIMATE_PLAYING))
    if playing:
        st.progress(step / last, text=f"Playing: step {step:,} of {last:,}")
    try:
        return show_step(run, history, passage, step, playing)
    except ValueError as exc:
        st.error(
            f"This passage could not be encoded: {markdown_text(str(exc))}. Edit the passage above."
        )
        return ""


_GAP = '<div style="height:1rem"></div>'  # the space Streamlit puts between two elements


def show_step(run: Run, history: MergeHistory, passage: str, step: int, playing: bool) -> str:
    """The merge, the narration, and the passage before and after it, as one element
    (each element is a message to the browser: a room of thirty sends thirty a step);
    returns the passages' token cards (`step_cards` draws them), '' while playing."""
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
        return ""
    # hover titles are most of the HTML; nobody hovers over a moving passage
    show = {"show_ids": bool(st.session_state.get(keys.ANIMATE_IDS)), "titles": not playing}
    # subtle: the passages share one block of cards (a token in both is described once):
    # the browser sanitises every element of st.html at every step (DOMPurify); the block
    # is drawn apart, after the step's other elements (step_cards)
    cards = cards_html(after, run.key, passage, frame) if show["titles"] else ""
    if step == 0:
        tokens = passage_html(after, run.key, passage, frame.after.ids, **show)
        pane = anim.pane_html("The passage as bytes", len(frame.after.ids), tokens)
        st.html(RawHtml(_GAP.join([*told, anim.stage_html([pane])])))
        return cards
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
    stage_html = anim.stage_html(panes, anim.passage_caption(frame))
    st.html(RawHtml(_GAP.join([*told, stage_html])))
    return cards


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


def show_static(run: Run, passage: str) -> None:
    """The passage at the sidebar's vocab size, for runs with nothing to animate."""
    tokenizer = view_tokenizer(run)
    try:
        ids = tokenizer.encode(passage, allowed_special="all")
    except ValueError as exc:
        st.error(
            f"This passage could not be encoded: {markdown_text(str(exc))}. Edit the passage above."
        )
        return
    st.markdown(f"**The passage at vocab size {view_vocab_size(run):,}** · {len(ids):,} tokens")
    st.html(RawHtml(tokens_to_html(tokenizer, ids, visible_whitespace=True)))
