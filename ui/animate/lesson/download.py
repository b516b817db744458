"""Animate's "Lesson file" expander: the run's first N merges on the passage, as one HTML
file that plays offline (ui/animate/lesson/page.py), built when the button is clicked."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from explorer import MergeHistory
from ui.animate.animation import no_steps_message
from ui.animate.lesson.page import lesson_html
from ui.animate.lesson.steps import DEFAULT_LESSON_STEPS, MAX_LESSON_STEPS
from ui.animate.pair_table import tables as pair_tables
from ui.server.lru import SharedLru
from ui.session import state as keys
from ui.session.run_spec import file_stem
from ui.session.runs import Run, texts_of
from ui.views.formatting import markdown_text

ABOUT = (
    "One HTML file with the passage before and after each merge, the narration, the pair "
    "table and the two charts, with Step, Back and Play buttons and the arrow keys. It "
    "needs no server and no network: open it from disk in any browser, or send it to "
    "your class."
)


def lesson_file_name(run: Run, steps: int) -> str:
    """`shakespeare-gpt4-2k-lesson-30.html`: the run's name in safe characters."""
    return f"{file_stem(run.spec)}-lesson-{steps}.html"


# what the passage check found, per run and passage: a class's followers rerun this page
# at every step of the teacher's, and the check (an encode) was ~5 % of each such rerun
_passage_checks = SharedLru(64, 16 * 2**20)


def passage_problem(run: Run, passage: str) -> str:
    """Why the passage cannot be encoded by this run's tokenizer, or "" when it can; one
    encode per run and passage, shared by the sessions that show it."""

    def check() -> str:
        try:
            run.tokenizer.at_vocab_size(256).encode(passage, allowed_special="all")
        except ValueError as exc:
            return str(exc) or type(exc).__name__
        return ""

    return _passage_checks.get_or_make((run.key, passage), check, lambda _: len(passage))


def lesson_builder(run: Run, history: MergeHistory, passage: str, steps: int) -> Callable[[], str]:
    """The lesson's HTML, made only when someone downloads it (it reads no session state)."""
    texts = texts_of(run.spec)  # read here, in the script: the download runs outside it

    def build() -> str:
        corpus = (  # the Animate page's pair tables count it too: counted once per run
            pair_tables.corpus_cached(run.key, run.spec, texts, history)
            if pair_tables.has_corpus(run.spec) and texts
            else None
        )
        return lesson_html(
            history,
            run.tokenizer,
            passage,
            steps=steps,
            chunk_counts=corpus.counts if corpus is not None else None,
            title=run.spec.name,
        )

    return build


def lesson_download(run: Run, passage: str) -> None:
    """The expander with the number of merges and the download button, or why there is none."""
    with st.expander("Lesson file: these steps as one page that plays offline"):
        st.caption(ABOUT)
        history = run.history
        if history is None:
            st.info("This tokenizer has no training history, so there are no steps to export.")
            return
        if not history.steps:
            st.info(no_steps_message(history))
            return
        if not passage:
            st.info("The passage is empty: type a text in the Passage box above.")
            return
        problem = passage_problem(run, passage)
        if problem:
            st.error(
                f"This passage could not be encoded: {markdown_text(problem)}. Edit the passage "
                "above."
            )
            return
        most = min(len(history.steps), MAX_LESSON_STEPS)
        state = st.session_state
        if int(state.get(keys.ANIMATE_LESSON_STEPS, 0)) > most:
            state[keys.ANIMATE_LESSON_STEPS] = most  # a run with fewer merges than asked
        steps = st.number_input(
            "Merges in the lesson",
            min_value=1,
            max_value=most,
            value=min(DEFAULT_LESSON_STEPS, most),
            key=keys.ANIMATE_LESSON_STEPS,
            help=f"The first merges of this run, up to {most:,}.",
        )
        st.download_button(
            "Download the lesson (.html)",
            lesson_builder(run, history, passage, int(steps)),
            lesson_file_name(run, int(steps)),
            "text/html",
            key=keys.ANIMATE_LESSON_DOWNLOAD,
            on_click="ignore",
            icon=":material/download:",
        )
