"""Animate merges: watch training fuse one pair per step, on a passage of the corpus.

Step k shows the tokenizer of the first k merges. Everything that changes with the step
(the controls, the stage and the charts' marker) is one fragment: a click on a control
reruns that alone, not the page, and while the play flag is set it reruns itself on a
timer. Nothing here trains or loops over merges.
"""

from __future__ import annotations

import streamlit as st

from ui.animate import animation as anim
from ui.animate import playback
from ui.animate.lesson.download import lesson_download
from ui.animate.model_replay import show_model_replay
from ui.animate.pair_table.view import NO_CORPUS, beside_style
from ui.animate.passage import passage_input
from ui.animate.quiz.class_panel import class_question
from ui.animate.stage import cards_box_style, show_static, step_view
from ui.classroom import step_follow
from ui.session import state as keys
from ui.session.runs import (
    current_run_or_error,
    current_spec,
    load_model_run,
    origin,
    view_vocab_size,
)
from ui.shell import run_page
from ui.views.formatting import markdown_text, plural
from ui.views.present import presenter_passage, presenting
from ui.views.section import guarded, guarded_function

NO_HISTORY = (
    "This tokenizer was {origin}: it has its merges but not a training history (pair "
    "counts, ties, corpus lengths), so there are no steps to animate. Train on a corpus on "
    "the Train page to watch them; here is the passage at the sidebar's vocab size."
)

FIRST_VEILED = (
    "The class's question is about the first merge: the passage is shown in bytes until "
    "you answer it or the teacher reveals it."
)


def main() -> None:
    st.title("Animate merges")
    if current_spec().kind.is_model:  # no training text: its encoding, merge by merge
        try:
            model_run = load_model_run(current_spec())
        except ValueError as exc:
            st.error(f"This tokenizer could not be read: {markdown_text(str(exc))}")
            return
        show_model_replay(model_run)
        return
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
        with guarded("The lesson download"):
            lesson_download(run, passage)
    if run.history is None:
        st.info(NO_HISTORY.format(origin=markdown_text(origin(run.spec))))
        st.caption(NO_CORPUS.format(origin=markdown_text(origin(run.spec))))
        show_static(run, passage)
        return
    history = run.history
    last = view_vocab_size(run) - 256  # the sidebar's view size bounds the steps too
    if not last:  # a slider from 0 to 0 cannot be drawn
        if run.veiled_at is not None:  # a class's question on the first merge
            with guarded("The class's question"):
                class_question(run, history, last)
        st.info(FIRST_VEILED if run.veiled_at is not None else anim.no_steps_message(history))
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
    with guarded("The class's question"):
        class_question(run, history, last)
    if presenting():  # before and after, side by side, in large type on one screen
        passage = presenter_passage(passage)
    beside_style()
    cards_box_style()
    stage = guarded_function("The animation", step_view)  # a fragment: reruns alone
    step_follow.offer(st.session_state, "animate", keys.ANIMATE_STEP_VIEW, last)  # a class's step
    st.fragment(stage, run_every=interval, key=keys.ANIMATE_STEP_VIEW)(
        run, history, passage, interval, last
    )


run_page(main)  # main inside the app's shell, even as a fresh server's first request
