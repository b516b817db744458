"""Predict together: the teacher asks the class "which pair fuses next?" at the step on
screen, students answer on their own devices, and the teacher reveals.

The options are the quiz's (questions.make_question: the same order for everyone). The
teacher sees, live and without the answer, how many have answered, and on demand the
distribution; after the reveal everyone sees the right answer, why (the pair counts) and
the class's answers. A student answers once (the store refuses a second answer, another
seat, or an option that is not one); nothing of the answer reaches their session before
the reveal. The store holds the question: questions.Question's fields, kept as `detail`.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import streamlit as st

from explorer import MergeHistory
from ui.animate import playback
from ui.animate.pair_table import tables as pair_tables
from ui.animate.pair_table.view import current_table
from ui.animate.quiz import questions as quiz
from ui.animate.quiz.class_chart import answers_chart
from ui.classroom import session as classroom
from ui.classroom.model import ClassView, QuestionView
from ui.classroom.rules import ClassError, ClassesUnavailable
from ui.session import state as keys
from ui.session.runs import Run
from ui.views.formatting import markdown_text, plural
from ui.views.shared_charts import show_chart
from ui.views.token_text import pair_text


def question_open() -> bool:
    """Whether this session's class has a question not yet revealed (the pair table,
    whose counts give the answer away, waits meanwhile, on the projector too)."""
    try:
        code = _code()
        view = classroom.class_store().view(code) if code else None
    except ClassesUnavailable:  # not known: the run's veil (kept from the last look) holds
        return False
    return bool(view and view.question and not view.question.revealed)


def class_question(run: Run, history: MergeHistory, last: int) -> None:
    """The teacher's question controls, or a student's question; the scores when shown."""
    code = _code()
    if code is None:
        return
    view = classroom.class_store().view(code)
    if view is None:
        return
    if classroom.teacher() is not None:
        teacher_view(run, history, view, last)
    else:
        student_view(view)
    if view.scores is not None:
        show_scores(view)


def _code() -> str | None:
    held, taken = classroom.teacher(), classroom.seat()
    return held[0] if held else taken.code if taken else None


# --- the teacher ------------------------------------------------------------------------


def teacher_view(run: Run, history: MergeHistory, view: ClassView, last: int) -> None:
    question = view.question
    st.button(
        "Ask the class: which pair fuses next?",
        key=keys.CLASS_ASK,
        on_click=ask,
        args=(run, history, last),
        icon=":material/quiz:",
        disabled=not pair_tables.has_corpus(run.spec) or bool(question and not question.revealed),
        help="At the step on screen: everyone gets the same options on their device, and "
        "you reveal when ready.",
    )
    if question is None:
        return
    if not question.revealed:
        st.toggle("Show the answers so far", key=keys.CLASS_CHART)
        live = st.fragment(live_count, run_every=classroom.TEACHER_POLL_SECONDS)
        live(question)
        st.button(
            "Reveal the answer",
            key=keys.CLASS_REVEAL,
            on_click=reveal,
            args=(question.step, last),
            type="primary",
            icon=":material/visibility:",
        )
        return
    revealed(question, None)


@classroom.reachable
def ask(run: Run, history: MergeHistory, last: int) -> None:
    """The Ask button: the quiz's question at the step on screen, for the whole class."""
    held = classroom.teacher()
    step = playback.shown_step(st.session_state, last)
    if held is None:
        return
    if step >= min(last, len(history.steps)):
        classroom.notice("No merge is left to ask about at this step: step back first.")
        return
    table = current_table(run, history, step, quiz.CHOICES)
    made = quiz.make_question(table, lambda pair: pair_text(run.tokenizer, pair), run.key, step)
    try:
        classroom.class_store().ask(
            *held, step, made.labels, winner=made.winner, detail=asdict(made)
        )
    except ClassError as exc:
        classroom.notice(f"The question could not be asked: {exc}.")
    st.session_state[keys.CLASS_CHART] = False


def live_count(question: QuestionView) -> None:
    """How many have answered (a fragment on a timer); the distribution when chosen."""
    try:
        held = classroom.teacher()
        tally = classroom.class_store().tally(*held) if held else None
    except ClassesUnavailable:
        return  # the page's last run said so
    if tally is None:
        return
    st.markdown(
        f"**Answered: {tally.answered:,} of {plural(tally.students, 'student')}** · "
        f"question {question.number:,} (merge {question.step + 1:,})"
    )
    if st.session_state.get(keys.CLASS_CHART):
        st.altair_chart(
            answers_chart(question.labels, tally.counts, None),
            width="stretch",
            height=320,
            alt=f"The class's answers so far: {_counts_alt(question.labels, tally.counts)}",
        )


@classroom.reachable
def reveal(step: int, last: int) -> None:
    """The Reveal button: the answer to everyone, and the teacher's step to the merge."""
    held = classroom.teacher()
    if held is None:
        return
    classroom.class_store().reveal(*held)
    playback.pause(st.session_state)
    st.session_state[keys.ANIMATE_STEP] = min(last, step + 1)


def show_scores(view: ClassView) -> None:
    rows = view.scores or ()
    st.dataframe(
        {
            "Student": [row.name for row in rows],
            "Right": [row.right for row in rows],
            "Answered": [row.answered for row in rows],
        },
        hide_index=True,
        width="content",
    )


# --- a student --------------------------------------------------------------------------


def student_view(view: ClassView) -> None:
    """The open question and the student's answer; after the reveal, right or wrong."""
    taken = classroom.seat()
    question = view.question
    if taken is None or question is None:
        return
    mine = classroom.class_store().my_answer(taken.code, taken.seat)
    if question.revealed:
        revealed(question, _last_answer(question, mine))
        return
    state = st.session_state
    if state.get(keys.CLASS_ANSWER_OF) != question.number:  # a new question: no pick yet
        state[keys.CLASS_ANSWER_OF] = question.number
        state[keys.CLASS_ANSWER] = None
        state.pop(keys.CLASS_ANSWERED, None)
    if mine is not None:
        state[keys.CLASS_ANSWERED] = (question.number, mine)
        label = markdown_text(question.labels[mine])
        st.info(f"Your answer is in: {label}. The teacher reveals it soon.", icon=":material/done:")
        return
    pick = state.get(keys.CLASS_ANSWER)
    if pick is not None and pick not in range(len(question.labels)):  # forged: no pick
        state[keys.CLASS_ANSWER] = None
    st.radio(
        f"The class's question: which pair does merge {question.step + 1:,} fuse?",
        options=range(len(question.labels)),
        format_func=lambda k: markdown_text(question.labels[k]),
        key=keys.CLASS_ANSWER,
    )
    st.button(
        "Send my answer",
        key=keys.CLASS_SEND,
        on_click=send,
        type="primary",
        disabled=state.get(keys.CLASS_ANSWER) is None,
    )


@classroom.reachable
def send() -> None:
    taken = classroom.seat()
    pick = st.session_state.get(keys.CLASS_ANSWER)
    if taken is None or not isinstance(pick, int):
        return
    if not classroom.class_store().answer(taken.code, taken.seat, pick):
        classroom.notice("That answer was not taken: the question has closed or was answered.")


def _last_answer(question: QuestionView, mine: int | None) -> int | None:
    """A student's answer to a revealed question (the store forgets it at the next one)."""
    if mine is not None:
        return mine
    answered = st.session_state.get(keys.CLASS_ANSWERED)
    return answered[1] if answered and answered[0] == question.number else None


def revealed(question: QuestionView, mine: int | None) -> None:
    """The answer, why (the pair counts), and the class's answers, the merge marked."""
    made = question_of(question.detail or {})
    if made is not None and classroom.seat() is not None:
        text = markdown_text(quiz.explanation(quiz.Outcome(made, mine)))
        if mine is None:
            st.info(f"You did not answer. {text}", icon=":material/skip_next:")
        elif mine == made.winner:
            st.success(text, icon=":material/check_circle:")
        else:
            st.warning(text, icon=":material/cancel:")
    if made is not None:
        st.caption(f"Pair counts: {markdown_text(quiz.counts_text(made))}")
    counts = question.counts or ()
    right = counts[question.winner] if question.winner is not None and counts else 0
    st.markdown(f"**{right:,} of {plural(sum(counts), 'answer')}** picked the merge.")
    # subtle: converted once for the class, not per session: after a reveal every
    # student's page draws it again at each step the class follows (bench/classroom/class_load.py)
    show_chart(
        ("class answers", question.labels, counts, question.winner),
        lambda: answers_chart(question.labels, counts, question.winner),
        height=320,
        alt=f"Bar chart of the class's answers: {_counts_alt(question.labels, counts)}",
    )


def _counts_alt(labels: tuple[str, ...], counts: tuple[int, ...]) -> str:
    """The chart's numbers in words, for a screen reader.

    >>> _counts_alt(("ab", "cd"), (1, 0))
    'ab 1, cd 0'
    """
    return ", ".join(f"{label} {count:,}" for label, count in zip(labels, counts, strict=False))


def question_of(detail: dict[str, Any]) -> quiz.Question | None:
    """The quiz's question back from the store's JSON (lists where it had tuples)."""
    try:
        fields = dict(detail)
        for name in ("labels", "counts", "firsts"):
            fields[name] = tuple(fields[name])
        fields["pairs"] = tuple(tuple(pair) for pair in fields["pairs"])
        return quiz.Question(**fields)
    except (KeyError, TypeError, ValueError):
        return None
