"""The figures of bench/classroom/class_load.py, as pure functions: percentiles, follow lags, the
steps and counts read from a page's text, and the summary line.

    >>> p95([0.2, 0.4, 0.3])
    0.4
    >>> follow_lags({1: 10.0, 2: 13.0}, {1: 10.5, 3: 16.1})  # step 2 seen first as step 3
    [0.5, 3.1]
    >>> line = summary_line(60, 60, 1.234, 0.91, (180, 180), 14.2, 812.4)
    >>> line.startswith("class of 60: joined 60/60, join p95 1.2 s, follow lag p95 0.9 s, ")
    True
    >>> line.endswith("answers counted 180/180, server CPU idle 14.2 %, peak RSS 812 MiB")
    True
"""

from __future__ import annotations

import math
import re

STEP_SHOWN = re.compile(r"After step ([\d,]+)")  # the stage's "after" pane, Animate's step
REVEALED = re.compile(r"([\d,]+) of ([\d,]+) answers?\*\* picked the merge")
ANSWERED = re.compile(r"Answered: ([\d,]+) of ([\d,]+) student")


def p95(values: list[float]) -> float:
    """The 95th percentile by nearest rank (so an `inf`, a step never seen, counts as
    the slowest), or `nan` for no values.

    >>> p95(list(range(1, 21))), p95([1.0] * 19 + [math.inf]), p95([])
    (19, 1.0, nan)
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def shown_step(text: str) -> int | None:
    """The step a page's stage shows, from its "After step N" label.

    >>> shown_step("<strong>Before step 2</strong> … <strong>After step 1,203</strong>")
    1203
    >>> shown_step("The passage as bytes") is None
    True
    """
    found = STEP_SHOWN.search(text)
    return int(found.group(1).replace(",", "")) if found else None


def revealed_count(text: str) -> int | None:
    """How many answers the store counted, from the reveal's "R of N answers" line.

    >>> revealed_count("**12 of 1,060 answers** picked the merge.")
    1060
    """
    found = REVEALED.search(text)
    return int(found.group(2).replace(",", "")) if found else None


def answered_count(text: str) -> tuple[int, int] | None:
    """The teacher's live count, "Answered: k of n students", as (k, n).

    >>> answered_count("**Answered: 59 of 60 students** · question 1 (merge 6)")
    (59, 60)
    """
    found = ANSWERED.search(text)
    return (
        (int(found.group(1).replace(",", "")), int(found.group(2).replace(",", "")))
        if found
        else None
    )


def follow_lags(accepted: dict[int, float], seen: dict[int, float]) -> list[float]:
    """Per step the teacher took (step -> when the server accepted it), how long until a
    student's page showed it (step -> when first shown). A step the student only saw as a
    later one counts until that later one; a step never reached counts as `inf`. The
    teacher's client notes a step when its own page shows it, after the server took it, so
    a quick student may show it a moment sooner: a lag of 0, not less.

    >>> follow_lags({4: 7.0}, {4: 6.9}), follow_lags({4: 7.0}, {3: 6.0})
    ([0.0], [inf])
    """
    lags = []
    for step, at in sorted(accepted.items()):
        reached = [when for shown, when in seen.items() if shown >= step]
        lags.append(round(max(0.0, min(reached) - at), 3) if reached else math.inf)
    return lags


def question_steps(steps: int, questions: int) -> set[int]:
    """After which of the teacher's steps a question is asked: spread over the lesson.

    >>> sorted(question_steps(20, 3)), sorted(question_steps(3, 1)), sorted(question_steps(3, 3))
    ([5, 10, 15], [2], [1, 2, 3])
    """
    chosen: list[int] = []
    for k in range(1, questions + 1):  # each after its own step, even when as many as steps
        earliest = chosen[-1] + 1 if chosen else 1
        chosen.append(min(steps, max(earliest, round(steps * k / (questions + 1)))))
    return set(chosen)


def summary_line(
    students: int,
    joined: int,
    join_p95: float,
    lag_p95: float,
    answers: tuple[int, int],
    cpu_percent: float,
    rss_mib: float,
) -> str:
    """The bench's last line, in the shape issue 22 §5 asks for (answers: counted, sent)."""
    return (
        f"class of {students}: joined {joined}/{students}, join p95 {join_p95:.1f} s, "
        f"follow lag p95 {lag_p95:.1f} s, answers counted {answers[0]}/{answers[1]}, "
        f"server CPU idle {cpu_percent:.1f} %, peak RSS {rss_mib:.0f} MiB"
    )
