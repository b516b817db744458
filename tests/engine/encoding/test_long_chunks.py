"""Long chunks merged in windows give exactly the ids of merging them whole.

The windows are stitched only where a two-token check says nothing merges across the
seam; these tests hold that against the heap merge and minbpe's loop, with windows far
smaller than real ones so that seams, failed seams and widened windows happen often.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import Tokenizer, train
from explorer.encoding.long_chunks import LONG_CHUNK, LongChunkMerger
from explorer.encoding.merging import merge_ids
from tests.naive import naive_encode

FEW_BYTES = st.sampled_from([b"ab", b"abc", b"a b\n", b"xy\xc3\xa9 0", bytes(range(97, 107))])


def trained_on(data: bytes, merges: int) -> Tokenizer:
    """A tokenizer whose merges come from `data` itself (one chunk: pattern none)."""
    return train(data.decode("latin-1"), 256 + merges, pattern="none").tokenizer


def check(tokenizer: Tokenizer, data: bytes, window: int) -> None:
    merger = LongChunkMerger(tokenizer.ranks, tokenizer.vocab, window=window)
    whole = merge_ids(list(data), tokenizer.ranks)
    assert merger.merge(data) == whole
    assert merger.merge(data) == whole  # again, from the remembered windows and seams
    assert whole == naive_encode([data.decode("utf-8")], tokenizer.merges)


@settings(max_examples=60, deadline=None)
@given(
    alphabet=FEW_BYTES,
    picks=st.lists(st.integers(0, 9), min_size=1, max_size=400),
    merges=st.integers(1, 80),
    window=st.integers(1, 12),
)
def test_random_text_in_windows_is_merged_whole(
    alphabet: bytes, picks: list[int], merges: int, window: int
) -> None:
    text = "".join(alphabet.decode("latin-1")[i % len(alphabet)] for i in picks)
    data = text.encode("utf-8")
    check(trained_on(data, merges), data, window)


@settings(max_examples=60, deadline=None)
@given(
    unit=st.text(alphabet="ab0 é\n", min_size=1, max_size=5),
    times=st.integers(1, 200),
    ends=st.tuples(st.text(alphabet="abc", max_size=3), st.text(alphabet="abc", max_size=3)),
    merges=st.integers(1, 60),
    window=st.integers(1, 12),
)
def test_repeating_units_in_windows_are_merged_whole(
    unit: str, times: int, ends: tuple[str, str], merges: int, window: int
) -> None:
    data = (ends[0] + unit * times + ends[1]).encode("utf-8")
    check(trained_on(data, merges), data, window)


def test_windows_that_are_one_token_are_widened() -> None:
    tokenizer = trained_on(b"a" * 64, 6)  # tokens of up to 64 a's
    assert tokenizer.vocab[261] == b"a" * 64
    check(tokenizer, b"a" * 1000 + b"b", window=4)


def test_a_seam_that_never_holds_ends_in_a_whole_merge() -> None:
    class NeverJoins(LongChunkMerger):
        def _joins(self, left: int, right: int, data: bytes, seam: int) -> bool:
            return False

    tokenizer = trained_on(b"abcab" * 40, 20)
    data = b"abcab" * 40
    assert NeverJoins(tokenizer.ranks, tokenizer.vocab, window=8).merge(data) == merge_ids(
        list(data), tokenizer.ranks
    )


@pytest.mark.parametrize(
    "text",
    ["x" * 5000, " " + "ab" * 2000 + "\n", "0" * 3001, "東京" * 700, "ab c" * 900, "\n" * 999],
)
def test_long_chunks_through_encode_are_minbpes(text: str) -> None:
    tokenizer = train("xx ab abab 00 000 東京 ab c " * 30, 300, pattern="none").tokenizer
    assert len(text.encode("utf-8")) > LONG_CHUNK
    assert tokenizer.encode(text) == naive_encode([text], tokenizer.merges)
