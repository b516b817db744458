"""The encoder's shortcuts for floods of digits and tiny chunks give the plain path's ids.

Digit runs: cl100k's and o200k's patterns with whole digit runs, then sliced in threes,
split any text as the patterns themselves do (with digits of every \\p{N} kind: Arabic-Indic,
superscripts, Roman numerals, fractions). Tiny chunks: two or three bytes merged straight
through give what the rank scan gives.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import load_bundled, train
from explorer.encoding.digit_runs import SEARCH_FROM, in_threes, whole_runs_pattern
from explorer.encoding.merging import _merge_by_scan, merge_tiny
from explorer.encoding.pretokenize import (
    GPT4_PATTERN,
    O200K_PATTERN,
    compile_pattern,
    split_chunks,
)

# digits of several \p{N} kinds beside letters, marks, spaces, apostrophes and punctuation
MIXED = "0123456789٣²Ⅻ½ aZß'sé\u0301\n\r\t/.,!"
DIGITS = "0123456789٣²Ⅻ"


@pytest.mark.parametrize("pattern", [GPT4_PATTERN, O200K_PATTERN])
@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=MIXED, max_size=200))
def test_whole_runs_sliced_in_threes_split_like_the_pattern(pattern: str, text: str) -> None:
    whole_runs = whole_runs_pattern(pattern)
    assert whole_runs is not None
    plain = split_chunks(text, compile_pattern(pattern))
    assert in_threes(split_chunks(text, compile_pattern(whole_runs))) == plain


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@settings(max_examples=5, deadline=None)
@given(
    before=st.text(alphabet=MIXED, max_size=40),
    run=st.text(alphabet=DIGITS, min_size=32, max_size=400),
    after=st.text(alphabet=MIXED, max_size=40),
)
def test_long_texts_with_digit_runs_encode_as_the_plain_split(
    name: str, before: str, run: str, after: str
) -> None:
    tokenizer = load_bundled(name)
    text = ((before + run + after) * (SEARCH_FROM // 32))[: SEARCH_FROM + 500]
    plain = split_chunks(text, compile_pattern(tokenizer.pattern))
    assert tokenizer.pre_tokens(text, disallowed_special=()) == [(p, False) for p in plain]
    expected = tokenizer._chunks.encode_chunks(plain)  # the chunks as the plain split cuts them
    assert tokenizer.encode(text, disallowed_special=()) == expected


@settings(max_examples=200, deadline=None)
@given(
    data=st.binary(max_size=3),
    corpus=st.text(alphabet="aab\x00\xff", min_size=2, max_size=60),
    merges=st.integers(1, 30),
)
def test_tiny_chunks_merge_as_the_scan_does(data: bytes, corpus: str, merges: int) -> None:
    ranks = train(corpus, 256 + merges, pattern="none").tokenizer.ranks
    picked = bytes(b"ab\x00"[b % 3] for b in data)  # bytes the merges know, runs included
    for raw in (data, picked):
        assert merge_tiny(raw, ranks) == _merge_by_scan(list(raw), ranks)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(min_size=2, max_size=3))
def test_tiny_chunks_merge_as_the_scan_does_with_gpt2(data: bytes) -> None:
    gpt2 = load_bundled("gpt2")
    raw = data.translate(bytes(gpt2.byte_ids))
    assert merge_tiny(raw, gpt2.ranks) == _merge_by_scan(list(raw), gpt2.ranks)
