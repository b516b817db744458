"""Counting a text block by block gives exactly the counts of the whole text."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.analysis.compression import metric_stream
from explorer.analysis.compression.metric_counts import MetricCounts, count_text
from explorer.analysis.compression.metric_stream import count_blocks, last_word_end
from explorer.encoding.tokenizer import Tokenizer
from explorer.training.train import train
from ui.session.samples import udhr_texts

# letters, numbers, marks, punctuation, apostrophes, every kind of space and line end
ALPHABET = "ab Z1 2.'s\n\r\t\u00a0\u3000\x1c\u0301é日,"
ENGLISH = udhr_texts()["English"]


@cache
def trained(pattern: str) -> Tokenizer:
    return train((ALPHABET * 3) + ENGLISH[:2000], 330, pattern=pattern).tokenizer


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet=ALPHABET, max_size=80),
    cuts=st.lists(st.integers(0, 80), max_size=6),
    pattern=st.sampled_from(["gpt2", "gpt4", "o200k", "none", r"\w+|\W"]),
)
def test_blocks_count_as_the_whole(text: str, cuts: list[int], pattern: str) -> None:
    bounds = [0, *sorted(min(c, len(text)) for c in cuts), len(text)]
    blocks = [text[a:b] for a, b in zip(bounds, bounds[1:])]
    tok = trained(pattern)
    assert count_blocks(tok, blocks) == count_text(tok, text)


def test_a_long_text_is_counted_a_block_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    tok = trained("gpt4")
    blocks = [ENGLISH[i : i + 500] for i in range(0, len(ENGLISH), 500)]
    counted: list[int] = []

    def recording(tokenizer: Tokenizer, text: str) -> MetricCounts:
        counted.append(len(text))
        return count_text(tokenizer, text)

    monkeypatch.setattr(metric_stream, "count_text", recording)
    heard: list[str] = []
    assert count_blocks(tok, blocks, heard.append) == count_text(tok, ENGLISH)
    assert heard == blocks
    assert len(counted) == len(blocks) + 1 and max(counted) < 1000  # never the whole text
    assert sum(counted) == len(ENGLISH)


def test_a_pattern_that_cannot_be_cut_waits_for_the_whole_text() -> None:
    tok = trained("none")
    blocks = ["hi you ", "and me"]
    assert count_blocks(tok, blocks) == count_text(tok, "hi you and me")
    assert last_word_end("hi you and me") == 10


def test_a_cut_is_a_word_end_before_a_space() -> None:
    assert last_word_end("ab cd") == 2
    assert last_word_end("ab\ncd") == 0  # a newline goes with what is before it
    assert last_word_end("ab.cd") == 0  # no space after: the word goes on
    assert last_word_end("ab  ") == 2
