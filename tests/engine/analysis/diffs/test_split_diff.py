"""Where two tokenizations split a text differently: hand examples, properties, real
tokenizers, and the escaped HTML of the side-by-side view."""

from __future__ import annotations

import html

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from explorer import Tokenizer, load_bundled, train
from explorer.analysis.diffs.split_diff import (
    SplitDifference,
    SplitDiffError,
    char_byte_starts,
    differing_byte_spans,
    differing_spans,
    span_of_tokens,
    token_boundaries,
)
from explorer.html.split_html import split_html

# letters, spaces, two- three- and four-byte characters
texts = st.text(alphabet="ab é€😀ب", min_size=1, max_size=30)


@st.composite
def text_and_two_splits(draw: st.DrawFn) -> tuple[str, set[int], set[int]]:
    """A text and two sets of token boundaries anywhere in its bytes (mid-character too)."""
    text = draw(texts)
    inner = list(range(1, len(text.encode())))
    a = set(draw(st.lists(st.sampled_from(inner), unique=True))) if inner else set()
    b = set(draw(st.lists(st.sampled_from(inner), unique=True))) if inner else set()
    return text, a, b


def differing_boundaries(a: set[int], b: set[int], length: int) -> set[int]:
    return (a ^ b) - {0, length}


def test_worked_examples() -> None:
    assert differing_byte_spans([3, 4], [2, 3, 4, 5], 7) == [(0, 3), (4, 7)]
    assert [d.chars for d in differing_spans("the cat", [0, 3, 4, 7], [0, 2, 3, 4, 5, 7])] == [
        (0, 3),
        (4, 7),
    ]
    # "é" is bytes 1-2 of "né"; a boundary inside it makes the whole character differ
    assert differing_spans("né", [1], [1, 2]) == [SplitDifference((1, 2), (1, 3))]


def test_stretches_that_share_a_character_become_one() -> None:
    # "€" is bytes 1-3; both split it at byte 2, and differ on either side of that
    text = "a€b"
    assert differing_spans(text, [1, 2, 4], [2, 3, 4]) == [SplitDifference((0, 2), (0, 4))]


def test_boundaries_outside_the_text_are_refused() -> None:
    with pytest.raises(SplitDiffError, match="outside the text's 3 bytes"):
        differing_spans("abc", [0, 4], [0, 3])


@given(texts)
def test_identical_splits_differ_nowhere(text: str) -> None:
    every_byte = range(len(text.encode()) + 1)
    assert differing_spans(text, every_byte, every_byte) == []
    assert differing_spans(text, [], []) == []


@given(text_and_two_splits())
def test_spans_cover_exactly_the_differing_boundaries(case: tuple[str, set[int], set[int]]) -> None:
    text, a, b = case
    spans = differing_spans(text, a, b)
    length = len(text.encode())
    differing = differing_boundaries(a, b, length)
    for boundary in differing:  # each lies strictly inside one span
        assert sum(s.bytes[0] < boundary < s.bytes[1] for s in spans) == 1
    for span in spans:  # each span holds one at least
        assert any(span.bytes[0] < boundary < span.bytes[1] for boundary in differing)
    assert bool(spans) == bool(differing)


@given(text_and_two_splits())
def test_spans_never_split_a_character(case: tuple[str, set[int], set[int]]) -> None:
    text, a, b = case
    starts = char_byte_starts(text)
    spans = differing_spans(text, a, b)
    for span in spans:
        first, stop = span.chars
        assert 0 <= first < stop <= len(text)
        assert span.bytes == (starts[first], starts[stop])  # whole characters
    ends = [edge for span in spans for edge in span.chars]
    assert ends == sorted(ends)  # in order, never overlapping (they may touch)


@given(text_and_two_splits())
def test_swapping_the_tokenizations_changes_nothing(case: tuple[str, set[int], set[int]]) -> None:
    text, a, b = case
    assert differing_spans(text, a, b) == differing_spans(text, b, a)


@given(text_and_two_splits())
def test_every_place_gets_tokens_on_both_sides(case: tuple[str, set[int], set[int]]) -> None:
    text, a, b = case
    spans = differing_spans(text, a, b)
    length = len(text.encode())
    for boundaries in (a, b):
        edges = sorted(boundaries | {0, length})
        tokens = list(zip(edges, edges[1:]))
        owners = span_of_tokens(tokens, spans)
        assert sorted({o for o in owners if o is not None}) == list(range(len(spans)))
        for (start, end), owner in zip(tokens, owners):
            overlaps = [i for i, s in enumerate(spans) if s.bytes[0] < end and start < s.bytes[1]]
            assert owner == (overlaps[0] if overlaps else None)


def test_two_real_tokenizers() -> None:
    text = "The quick brown fox — naïve café 😀 مرحبا, jumped over 12345 dogs."
    none = train(text * 5, 320, pattern="none").tokenizer
    gpt4 = load_bundled("cl100k_base")
    encodings = [t.encode_with_spans(text) for t in (none, gpt4)]
    a, b = (token_boundaries(e.byte_spans) for e in encodings)
    spans = differing_spans(text, a, b)
    assert spans and token_boundaries([]) == [0]
    for span in spans:
        piece = text[span.chars[0] : span.chars[1]]
        assert piece.encode() == text.encode()[span.bytes[0] : span.bytes[1]]
    assert differing_spans(text, a, a) == []


def test_the_html_highlights_each_place_and_escapes_text() -> None:
    text = "<b>&amp; x"
    tokenizer = Tokenizer()
    spans = differing_spans(text, [1, 2, 3], [3])
    encoding = tokenizer.encode_with_spans(text)
    owners = span_of_tokens(encoding.byte_spans, spans)
    page = split_html(tokenizer, encoding.ids, encoding.byte_spans, owners)
    assert "<b>" not in page and "&amp;amp;" in page
    assert page.count('<mark class="sd-place"') == len(spans) == 1
    marked = regex.search(r"<mark[^>]*>(.*?)</mark>", page, regex.DOTALL).group(1)
    assert html.unescape(regex.sub(r"<[^>]+>", "", marked)) == "1<b>"  # its number, then text
