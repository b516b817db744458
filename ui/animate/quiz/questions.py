"""Predict the next merge: a question from the pair table, the answer judged, a score.

At step k the learner picks, among the pairs with the highest counts (shown without
their counts, in an order that does not give the answer away), the one merge k + 1
fuses. Revealing says right or wrong and why, with the counts and, when the top count
was shared, the tie rule; then the step moves on. Stepping forward without a pick is a
skip: it shows the answer and is not scored.

Plain values in a session-state mapping, no Streamlit, so each student's session keeps
its own score:

    >>> from ui.animate.pair_table.view import pair_table_of_text
    >>> question = make_question(pair_table_of_text("aaabdaaabac"), str, "run", 0)
    >>> question.labels[question.winner], question.merge
    ('(97, 97)', 1)
    >>> state = {}
    >>> record(state, Outcome(question, question.winner))
    >>> score_text(state[keys.ANIMATE_QUIZ_SCORE])
    '1 of 1 right'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from explorer.analysis.pairs.pair_table import FIRST_OCCURRENCE, PairTable, describe_tie
from ui.animate import playback
from ui.session import state as keys
from ui.session.state import State

CHOICES = 5  # pairs to choose among (more when more are tied with the winner)


@dataclass(frozen=True)
class Question:
    """Which of these pairs does merge `step + 1` fuse? Options in shuffled order."""

    run_key: str
    step: int
    labels: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    counts: tuple[int, ...]
    firsts: tuple[int, ...]  # where each pair first occurs, from 1
    winner: int  # the index of the right option
    tie_rule: str
    tie: str  # describe_tie's sentence
    tied_with: int  # how many other pairs had the winner's count

    @property
    def merge(self) -> int:
        """The merge asked about, numbered from 1 (it makes token 255 + merge)."""
        return self.step + 1


@dataclass(frozen=True)
class Outcome:
    """An answer revealed: the option picked (None: skipped)."""

    question: Question
    picked: int | None

    @property
    def right(self) -> bool:
        return self.picked == self.question.winner


@dataclass(frozen=True)
class Score:
    right: int = 0
    answered: int = 0
    skipped: int = 0


def make_question(
    table: PairTable, name: Callable[[tuple[int, int]], str], run_key: str, step: int
) -> Question:
    """The top pairs of the table as options, in an order fixed per (run, step): every
    student of a class sees the same order, and it is not the table's.

    All pairs tied with the winner are options, so a tie is always in play.
    """
    tied = sum(row.tied for row in table.rows)
    rows = list(table.rows[: max(CHOICES, tied)])
    random.Random(f"{run_key}|{step}").shuffle(rows)
    return Question(
        run_key=run_key,
        step=step,
        labels=tuple(name(row.pair) for row in rows),
        pairs=tuple(row.pair for row in rows),
        counts=tuple(row.count for row in rows),
        firsts=tuple(row.first_position + 1 for row in rows),
        winner=next(i for i, row in enumerate(rows) if row.winner),
        tie_rule=table.tie_rule,
        tie=describe_tie(table),
        tied_with=table.tied_with,
    )


def record(state: State, outcome: Outcome) -> None:
    """Keep the outcome to show, and count it (a skip is counted apart)."""
    score = state.get(keys.ANIMATE_QUIZ_SCORE) or Score()
    if outcome.picked is None:
        score = Score(score.right, score.answered, score.skipped + 1)
    else:
        score = Score(score.right + outcome.right, score.answered + 1, score.skipped)
    state[keys.ANIMATE_QUIZ_SCORE] = score
    state[keys.ANIMATE_QUIZ_OUTCOME] = outcome


def current_question(state: State, last: int) -> Question | None:
    """The question asked at the step on screen, if the quiz is on and one was asked."""
    question = state.get(keys.ANIMATE_QUIZ_QUESTION)
    if not state.get(keys.ANIMATE_QUIZ) or not isinstance(question, Question):
        return None
    return question if question.step == playback.shown_step(state, last) else None


def reveal(state: State, last: int) -> None:
    """The Reveal button: judge the pick, then show the merge (the next step)."""
    question = current_question(state, last)
    pick = state.get(keys.ANIMATE_QUIZ_PICK)
    if question is not None and pick is not None:
        record(state, Outcome(question, int(pick)))
        playback.step_by(state, 1, last)


def step_by(state: State, delta: int, last: int) -> None:
    """Animate's step buttons (and their ← → keys): in the quiz, a step forward reveals
    the answer picked, or counts as a skip; then the step moves as always."""
    question = current_question(state, last)
    if delta > 0 and question is not None and question.step < last:
        pick = state.get(keys.ANIMATE_QUIZ_PICK)
        record(state, Outcome(question, None if pick is None else int(pick)))
    playback.step_by(state, delta, last)


def reset(state: State) -> None:
    """Start the score again."""
    state[keys.ANIMATE_QUIZ_SCORE] = Score()
    state.pop(keys.ANIMATE_QUIZ_OUTCOME, None)


def score_text(score: Score) -> str:
    """`4 of 6 right`, and the skips when there are any.

    >>> score_text(Score(4, 6, 1)), score_text(Score())
    ('4 of 6 right, 1 skipped', 'No answers yet')
    """
    if not score.answered and not score.skipped:
        return "No answers yet"
    text = f"{score.right:,} of {score.answered:,} right"
    return text + (f", {score.skipped:,} skipped" if score.skipped else "")


def explanation(outcome: Outcome) -> str:
    """Right or wrong, and why: the counts, and the tie rule when the top count was shared."""
    q = outcome.question
    win, count = q.labels[q.winner], q.counts[q.winner]
    if outcome.picked is None:
        verdict = f"Skipped. Merge {q.merge:,} fuses {win}, seen {_times(count)}."
    elif outcome.right:
        verdict = f"Right! Merge {q.merge:,} fuses {win}, seen {_times(count)}."
    else:
        mine, my_count = q.labels[outcome.picked], q.counts[outcome.picked]
        if my_count == count:
            verdict = (
                f"Not quite: {mine} was also seen {_times(count)}, as often as {win}, "
                f"but {_tie_reason(q, outcome.picked)}"
            )
        else:
            verdict = (
                f"Not this one: {mine} was seen {_times(my_count)}, but {win} was seen "
                f"{_times(count)}, so merge {q.merge:,} fuses {win}."
            )
    return " ".join(filter(None, [verdict, q.tie if q.tied_with else ""]))


def counts_text(question: Question) -> str:
    """`('a', 'a') 4 · ('a', 'b') 2`: each option with its count, in the options' order."""
    pairs = zip(question.labels, question.counts, strict=True)
    return " · ".join(f"{label} {count:,}" for label, count in pairs)


def _tie_reason(question: Question, picked: int) -> str:
    win = question.winner
    if question.tie_rule == FIRST_OCCURRENCE:
        return (
            f"{question.labels[win]} occurs first (at token {question.firsts[win]:,}; "
            f"{question.labels[picked]} at token {question.firsts[picked]:,}), and the "
            "tie goes to the pair that occurs first."
        )
    return (
        f"{question.labels[win]} has the lower ids ({question.pairs[win]} before "
        f"{question.pairs[picked]}), and the tie goes to the lowest ids."
    )


def _times(count: int) -> str:
    return f"{count:,} time" + ("" if count == 1 else "s")
