"""Repeating chunks encoded as one period's ids repeated, and the heap merge, held to minbpe.

A chunk with a short period is cut as one period is (explorer.encoding.periods); these
tests build periodic chunks with a prefix and a tail of any length, on tokenizers trained
on the chunk itself (so merges cross the period's edges and its cuts), and compare the
result with cutting the whole chunk and with minbpe's loop.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import Tokenizer, train
from explorer.encoding.merging import _merge_by_scan, _merge_with_heap
from explorer.encoding.periods import shortest_period
from tests.naive import naive_encode


def brute_period(data: bytes, most: int) -> int | None:
    periods = [p for p in range(1, min(most, len(data) // 2) + 1) if data[p:] == data[:-p]]
    return periods[0] if periods else None


@settings(max_examples=150, deadline=None)
@given(unit=st.binary(min_size=1, max_size=6), times=st.integers(0, 40), tail=st.binary(max_size=8))
def test_the_shortest_period_is_found(unit: bytes, times: int, tail: bytes) -> None:
    data = unit * times + tail
    assert shortest_period(data, most=12) == brute_period(data, 12)


def trained_on(text: str, merges: int) -> Tokenizer:
    """A tokenizer whose merges come from the text itself, one chunk (pattern none)."""
    return train(text, 256 + merges, pattern="none").tokenizer


@settings(max_examples=60, deadline=None)
@given(
    unit=st.text(alphabet="abก東 é0", min_size=1, max_size=7),
    times=st.integers(2, 120),
    ends=st.tuples(st.text(alphabet="abก0", max_size=4), st.text(alphabet="abก0", max_size=4)),
    merges=st.integers(1, 40),
)
def test_periodic_chunks_encode_as_minbpe(
    unit: str, times: int, ends: tuple[str, str], merges: int
) -> None:
    text = ends[0] + unit * times + ends[1]
    tokenizer = trained_on((unit * 3 + ends[0]) * 2, merges)
    data = text.encode("utf-8")
    chunks = tokenizer._chunks
    chunks.prepare()
    period = shortest_period(data)
    if period is not None:
        assert chunks._encode_periodic(data, period) == chunks._encode_cut(data)
    assert tokenizer.encode(text) == naive_encode([text], tokenizer.merges)


@settings(max_examples=60, deadline=None)
@given(
    picks=st.lists(st.integers(0, 255), min_size=21, max_size=300),
    alphabet=st.integers(2, 256),
    merges=st.integers(1, 80),
)
def test_the_heap_merges_as_the_scan_does(picks: list[int], alphabet: int, merges: int) -> None:
    data = bytes(p % alphabet for p in picks)
    tokenizer = trained_on(data.decode("latin-1"), merges)
    ids = list(data.decode("latin-1").encode("utf-8"))
    assert _merge_with_heap(list(ids), tokenizer.ranks) == _merge_by_scan(ids, tokenizer.ranks)
