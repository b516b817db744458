"""The figures bench/classroom/class_load.py prints (harness/class_figures.py): no server here."""

from __future__ import annotations

import math
import re

from harness.class_figures import (
    answered_count,
    follow_lags,
    p95,
    question_steps,
    revealed_count,
    shown_step,
    summary_line,
)

# issue 22 §5's last line, word for word but the figures
LAST_LINE = re.compile(
    r"class of (\d+): joined (\d+)/\1, join p95 [\d.]+ s, follow lag p95 ([\d.]+|inf) s, "
    r"answers counted (\d+)/(\d+), server CPU idle [\d.]+ %, peak RSS \d+ MiB"
)


def test_the_last_line_has_the_issues_shape() -> None:
    line = summary_line(60, 58, 2.04, math.inf, (179, 180), 12.345, 1023.6)
    found = LAST_LINE.fullmatch(line)
    assert found is not None, line
    assert found.groups() == ("60", "58", "inf", "179", "180")
    assert "join p95 2.0 s" in line and "CPU idle 12.3 %" in line and "RSS 1024 MiB" in line


def test_p95_is_the_nearest_rank_and_a_missed_step_is_the_slowest() -> None:
    assert p95([float(k) for k in range(100, 0, -1)]) == 95.0
    assert p95([0.5] * 18 + [math.inf] * 2) == math.inf  # 10 % never shown: inf
    assert p95([0.5] * 19 + [math.inf]) == 0.5  # 5 %: within the p95
    assert math.isnan(p95([]))


def test_follow_lags_per_step() -> None:
    accepted = {1: 10.0, 2: 13.0, 3: 16.0, 4: 19.0}
    seen = {0: 2.0, 1: 10.8, 3: 16.4}  # step 2 came as step 3, step 4 never
    assert follow_lags(accepted, seen) == [0.8, 3.4, 0.4, math.inf]
    assert follow_lags({5: 7.0}, {5: 6.99}) == [0.0]  # the student's page came first


def test_counts_read_from_the_pages() -> None:
    assert shown_step("<b>Before step 11</b>…<b>After step 12</b>") == 12
    assert shown_step("The passage as bytes") is None
    assert revealed_count("**0 of 1 answer** picked the merge.") == 1
    assert revealed_count("Answered: 3 of 4 students") is None
    assert answered_count("**Answered: 1,059 of 1,060 students** · question 2") == (1059, 1060)


def test_questions_are_spread_over_the_lesson() -> None:
    assert sorted(question_steps(20, 3)) == [5, 10, 15]
    assert sorted(question_steps(3, 1)) == [2]
    assert question_steps(5, 0) == set()
    assert sorted(question_steps(4, 4)) == [1, 2, 3, 4]  # one after each step
