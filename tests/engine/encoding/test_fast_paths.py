"""The encoder's shortcut for tiny chunks gives the plain path's ids: two or three bytes
merged straight through give what the rank scan gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import load_bundled, train
from explorer.encoding.merging import _merge_by_scan, merge_tiny


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
