"""Animate's pair panel: the pair table, or the quiz "Predict the next merge" in its place.

The quiz hides the table (its counts would give the answer away): the learner picks one
of the top pairs, Reveal (or a step forward) judges it and moves to the merge, and the
answer stays on screen at that step with the counts of every option.
"""

from __future__ import annotations

import streamlit as st

from explorer import MergeHistory
from ui.animate import playback
from ui.animate.pair_table import tables as pair_tables
from ui.animate.pair_table.view import NO_CORPUS, current_table, show_table
from ui.animate.quiz import class_panel
from ui.animate.quiz import questions as quiz
from ui.session import state as keys
from ui.session.runs import Run, origin
from ui.session.state import State
from ui.views.formatting import markdown_text
from ui.views.present import presenting
from ui.views.token_text import pair_text

# the presenter view: options and answers as large as the narration beside them
_PRESENTER_QUIZ = (
    '[data-testid="stMain"] .st-key-animate_pairs [data-testid="stMarkdownContainer"] p'
    "{font-size:1.35rem;line-height:1.4}"
    '[data-testid="stMain"] .st-key-animate_quiz_pick [role="radiogroup"] label'
    "{font-size:1.35rem;margin-right:1rem}"
)


def pair_panel(run: Run, history: MergeHistory, step: int, last: int) -> None:
    """The toggle, then the quiz or the table (folded in the presenter view)."""
    state = st.session_state
    with st.container(key=keys.ANIMATE_PAIRS):
        if presenting():
            st.html(f"<style>{_PRESENTER_QUIZ}</style>")
        on = st.toggle(
            "Predict the next merge",
            key=keys.ANIMATE_QUIZ,
            persist_state="session",
            help="A quiz: pick the pair you think merges next, then reveal. The pair "
            "table is put away meanwhile, since its counts give the answer.",
        )
        if class_panel.question_open() or (run.veiled_at is not None and step >= run.veiled_at):
            # its counts would give the class's answer away
            st.caption("The pair table waits until the class's question is revealed.")
        elif _playing_fast(state):
            st.caption("The pair table and the quiz wait while playing over 5 steps a second.")
        elif on:
            show_quiz(run, history, step, last)
        elif presenting():  # the passage needs the screen: the table one click away
            fold = "Pair table: the most frequent pairs at this step"
            with st.expander(fold, key=keys.ANIMATE_PAIRS_FOLD):
                show_table(run, history, step)
        else:
            show_table(run, history, step)


def _playing_fast(state: State) -> bool:
    """Playing more than one step a tick: a table a tick would cost several merges each."""
    if not state.get(keys.ANIMATE_PLAYING):
        return False
    return playback.timer(state.get(keys.ANIMATE_SPEED, playback.DEFAULT_SPEED))[1] > 1


def show_quiz(run: Run, history: MergeHistory, step: int, last: int) -> None:
    """The answer that led to this step, then the question of the next merge."""
    state = st.session_state
    if not pair_tables.has_corpus(run.spec):
        st.caption(NO_CORPUS.format(origin=markdown_text(origin(run.spec))))
        return
    show_outcome(run.key, step)
    asking = False
    if state.get(keys.ANIMATE_PLAYING):
        st.caption("Pause to predict the next merge.")
    elif step >= len(history.steps):
        stopped = f"Training stopped after merge {len(history.steps):,}"
        st.info(f"{stopped}: no merge is left to predict.")
    elif step >= last:
        st.info("The sidebar's view stops at this step: slide View at vocab size up to go on.")
    else:
        ask(run, history, step)
        asking = True
    answer_row(asking, last)


def ask(run: Run, history: MergeHistory, step: int) -> None:
    """The options, without their counts (in a row on a projector)."""
    state = st.session_state
    table = current_table(run, history, step, quiz.CHOICES)
    question = quiz.make_question(table, lambda pair: pair_text(run.tokenizer, pair), run.key, step)
    asked = state.get(keys.ANIMATE_QUIZ_QUESTION)
    if not isinstance(asked, quiz.Question) or (asked.run_key, asked.step) != (run.key, step):
        state[keys.ANIMATE_QUIZ_PICK] = None  # a new question starts unanswered
    state[keys.ANIMATE_QUIZ_QUESTION] = question
    st.radio(
        f"Which pair does merge {question.merge:,} fuse into token {255 + question.merge}?",
        options=range(len(question.labels)),
        format_func=lambda i: markdown_text(question.labels[i]),
        key=keys.ANIMATE_QUIZ_PICK,
        horizontal=presenting(),
        help="The pairs with the highest counts at this step, in no telling order; their "
        "counts stay hidden until you reveal. Keys: Tab to the choices, arrows to pick, "
        "Tab to Reveal and Enter. Stepping forward without a pick counts as a skip.",
    )


def answer_row(asking: bool, last: int) -> None:
    """Reveal (while a question is asked), the session's score, and its reset."""
    state = st.session_state
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    if asking:
        row.button(
            "Reveal",
            key=keys.ANIMATE_QUIZ_REVEAL,
            type="primary",
            icon=":material/visibility:",
            on_click=quiz.reveal,
            args=(state, last),
            disabled=state.get(keys.ANIMATE_QUIZ_PICK) is None,
            help="Say whether the pick was right, and show the merge.",
        )
    score = state.get(keys.ANIMATE_QUIZ_SCORE) or quiz.Score()
    row.markdown(f"**Score:** {quiz.score_text(score)}")
    row.button(
        "Reset score",
        key=keys.ANIMATE_QUIZ_RESET,
        on_click=quiz.reset,
        args=(state,),
        disabled=score == quiz.Score(),
    )


def show_outcome(run_key: str, step: int) -> None:
    """The last answer, on the step it revealed: right or wrong, why, and the counts."""
    outcome = st.session_state.get(keys.ANIMATE_QUIZ_OUTCOME)
    if not isinstance(outcome, quiz.Outcome):
        return
    question = outcome.question
    if (question.run_key, question.step + 1) != (run_key, step):
        return
    text = f"{markdown_text(quiz.explanation(outcome))}  \n"
    text += f"Counts: {markdown_text(quiz.counts_text(question))}"
    if outcome.picked is None:
        st.info(text, icon=":material/skip_next:")
    elif outcome.right:
        st.success(text, icon=":material/check_circle:")
    else:
        st.warning(text, icon=":material/cancel:")
