"""One regex budget per training, per encode, per page view: every match call of one
operation (each segment between special tokens, each block, each document) draws on it.

The sharing is tested on a fake clock (each match call "takes" a fixed time), so no test
depends on how fast this machine matches."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from explorer import Tokenizer, train
from explorer.encoding import pretokenize, regex_budget
from explorer.encoding.pretokenize import PatternError, match_budget
from explorer.encoding.regex_budget import UNLIMITED, RegexBudget
from explorer.training.corpus import count_chunks

CALL_SECONDS = 0.25  # what each match call costs on the fake clock
BUDGET_SECONDS = 1.0  # so the 5th call finds nothing left
ISSUE_PATTERN = r"(?:[\w\s]|\w\s)+\d"  # issue 21: 67 s of training, one 5 s budget per segment


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Each match call takes CALL_SECONDS; yields the list of calls charged so far."""
    ticks = iter(range(1_000_000))
    charged: list[int] = []

    def process_time() -> float:
        tick = next(ticks)
        if tick % 2:
            charged.append(tick)
        return tick * CALL_SECONDS  # a call's start and end are one tick apart

    monkeypatch.setattr(regex_budget, "time", SimpleNamespace(process_time=process_time))
    monkeypatch.setattr(pretokenize, "CUSTOM_TIMEOUT_SECONDS", BUDGET_SECONDS)
    monkeypatch.setattr(pretokenize, "CUSTOM_TIMEOUT_SECONDS_PER_MB", 0.0)
    yield charged


SEGMENTED = "<s>".join(f"word{n} and more words" for n in range(20))  # 20 quick segments


def test_an_encode_shares_one_budget_across_segments(fake_clock: list[int]) -> None:
    tokenizer = Tokenizer(pattern=r"\w+|\s+", special_tokens={"<s>": 256})
    with pytest.raises(PatternError, match="took longer than 1 s on this text"):
        tokenizer.encode(SEGMENTED, allowed_special="all")
    assert len(fake_clock) == BUDGET_SECONDS / CALL_SECONDS  # 4 segments matched, then none


def test_a_training_shares_one_budget_across_segments_and_documents(
    fake_clock: list[int],
) -> None:
    documents = [SEGMENTED[:200], SEGMENTED[200:]]
    with pytest.raises(PatternError, match="took longer than 1 s on this text"):
        count_chunks(documents, r"\w+|\s+", special_tokens=["<s>"])
    assert len(fake_clock) == BUDGET_SECONDS / CALL_SECONDS


def test_a_page_budget_caps_every_operation_inside_it(fake_clock: list[int]) -> None:
    tokenizer = Tokenizer(pattern=r"\w+|\s+")
    with regex_budget.regex_budget(0.5, "in all on this page"):
        tokenizer.encode("one two")  # a fresh encode budget of 1 s, but the page's 0.5 s
        tokenizer.encode("three")
        with pytest.raises(PatternError, match=r"took longer than 0\.5 s in all on this page"):
            tokenizer.encode("four")
    assert len(fake_clock) == 2  # the third found the page's budget spent
    assert tokenizer.encode("after the page") is not None  # the next page view starts afresh


def test_presets_are_never_timed_nor_charged(fake_clock: list[int]) -> None:
    assert match_budget("gpt2", 10**9) is UNLIMITED
    tokenizer = Tokenizer(pattern=pretokenize.PRESETS["gpt2"], special_tokens={"<s>": 256})
    with regex_budget.regex_budget(0.0, "in all on this page"):
        assert len(tokenizer.encode(SEGMENTED, allowed_special="all")) > 20
    assert fake_clock == []


def test_the_issues_slow_pattern_on_a_segmented_paste_stops_at_one_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's own case, on a real clock: 589 characters cut by `<s>` into 16 segments,
    each slow to fail (exponential backtracking); one small budget ends the whole training."""
    monkeypatch.setattr(pretokenize, "CUSTOM_TIMEOUT_SECONDS", 0.05)
    paste = "<s>".join(["a " * 16] * 17)[:589]
    assert len(paste) == 589 and paste.count("<s>") == 16
    with pytest.raises(PatternError, match="catastrophic backtracking"):
        train(paste, 300, pattern=ISSUE_PATTERN, special_tokens=["<s>"])
    tokenizer = Tokenizer(pattern=ISSUE_PATTERN, special_tokens={"<s>": 256})
    with pytest.raises(PatternError, match="catastrophic backtracking"):
        tokenizer.encode(paste, allowed_special="all")


def test_a_budget_charges_the_ones_around_it_and_names_the_one_that_ran_out() -> None:
    page = RegexBudget(3.0, "in all on this page")
    first = RegexBudget(5.0, "on this text", parent=page)
    first.charge(2.5)
    second = RegexBudget(1.0, "on this text", parent=page)
    assert second.remaining() == 0.5 and second.limiting() is page
    third = RegexBudget(0.25, "on this text", parent=page)
    assert third.limiting() is third
