"""Where two tokenizations of one text split it differently.

A token boundary is a byte offset into the text's UTF-8. Two tokenizations agree at the
boundaries they share; between two neighbouring shared boundaries, any other boundary
(in either) means they split that stretch differently. Each such stretch is one place
where the splits differ. A token may end inside a character, so a stretch is widened to
whole characters, and stretches that then share a character become one.

    >>> [d.chars for d in differing_spans("the cat", [0, 3, 4, 7], [0, 2, 3, 4, 5, 7])]
    [(0, 3), (4, 7)]
    >>> differing_spans("the cat", [0, 3, 7], [0, 3, 7])
    []
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


class SplitDiffError(ValueError):
    """Boundaries that do not fit the text (outside its bytes)."""


@dataclass(frozen=True)
class SplitDifference:
    """One place where the splits differ: its character span and its byte span (both
    half-open; the byte span covers whole characters)."""

    chars: tuple[int, int]
    bytes: tuple[int, int]


def token_boundaries(byte_spans: Iterable[tuple[int, int]]) -> list[int]:
    """The boundaries of tokens given by their byte spans (an Encoding's byte_spans).

    >>> token_boundaries([(0, 3), (3, 4), (4, 7)])
    [0, 3, 4, 7]
    """
    offsets = {0}
    for start, end in byte_spans:
        offsets.update((start, end))
    return sorted(offsets)


def differing_byte_spans(a: Iterable[int], b: Iterable[int], length: int) -> list[tuple[int, int]]:
    """The maximal byte spans between shared boundaries inside which the boundaries differ.

    0 and `length` count as boundaries of both.

    >>> differing_byte_spans([2, 4], [4, 5], 6)
    [(0, 4), (4, 6)]
    """
    left, right = _checked(a, length), _checked(b, length)
    spans: list[tuple[int, int]] = []
    start, differs = 0, False
    for offset in sorted(left | right):
        if offset in left and offset in right:
            if differs:
                spans.append((start, offset))
            start, differs = offset, False
        else:
            differs = True
    return spans


def differing_spans(text: str, a: Iterable[int], b: Iterable[int]) -> list[SplitDifference]:
    """The places where two tokenizations of `text` split it differently, as characters.

    `a` and `b` are token boundaries in the UTF-8 bytes of `text` (pass a text UTF-8 can
    hold: `explorer.encoding.pretokenize.as_unicode`). A span never splits a character: "é" is two
    bytes, and a boundary between them makes the whole "é" differ.

    >>> [d.chars for d in differing_spans("né", [0, 1, 2, 3], [0, 1, 3])]
    [(1, 2)]
    """
    starts = char_byte_starts(text)
    merged: list[SplitDifference] = []
    for start, end in differing_byte_spans(a, b, starts[-1]):
        first = bisect_right(starts, start) - 1  # the character holding byte `start`
        stop = bisect_left(starts, end)  # the first character starting at or after `end`
        if merged and first < merged[-1].chars[1]:  # both stretches reach into one character
            first = merged.pop().chars[0]
        merged.append(SplitDifference((first, stop), (starts[first], starts[stop])))
    return merged


def differing_spans_among(
    text: str, tokenizations: Sequence[Iterable[int]]
) -> list[SplitDifference]:
    """The places where any of several tokenizations of `text` split it differently.

    A place lies between two boundaries every tokenization shares and holds a boundary at
    least one of them lacks: the two-way comparison of the boundaries all share against
    the boundaries any has. Numbered alike on every side, so place 3 is one stretch of text.

    >>> splits = ([0, 3, 4, 7], [0, 3, 4, 7], [0, 2, 3, 4, 7])
    >>> [d.chars for d in differing_spans_among("the cat", splits)]
    [(0, 3)]
    >>> differing_spans_among("ab", [[0, 2]])  # one tokenization differs from nothing
    []
    """
    sets = [set(boundaries) for boundaries in tokenizations]
    if not sets:
        return []
    return differing_spans(text, set.intersection(*sets), set.union(*sets))


def char_byte_starts(text: str) -> list[int]:
    """Where each character starts in the text's UTF-8, then the length in bytes.

    >>> char_byte_starts("aé€")
    [0, 1, 3, 6]
    """
    starts = [0]
    for char in text:
        starts.append(starts[-1] + len(char.encode("utf-8", "surrogatepass")))
    return starts


def _checked(offsets: Iterable[int], length: int) -> set[int]:
    """The boundaries with 0 and `length` added, refusing any outside the text."""
    found = set(offsets)
    outside = sorted(o for o in found if not 0 <= o <= length)
    if outside:
        raise SplitDiffError(
            f"token boundaries {outside[:5]} lie outside the text's {length} bytes; "
            "pass byte offsets from 0 to its length in UTF-8"
        )
    return found | {0, length}


def span_of_tokens(
    byte_spans: Sequence[tuple[int, int]], spans: Sequence[SplitDifference]
) -> list[int | None]:
    """For each token, the index of the difference it falls in (None: outside all).

    A token belongs to the first difference its bytes overlap.

    >>> spans = differing_spans("the cat", [0, 3, 4, 7], [0, 2, 3, 4, 5, 7])
    >>> span_of_tokens([(0, 3), (3, 4), (4, 7)], spans)
    [0, None, 1]
    """
    owners: list[int | None] = []
    index = 0
    for start, end in byte_spans:
        while index < len(spans) and spans[index].bytes[1] <= start:
            index += 1
        inside = index < len(spans) and spans[index].bytes[0] < end and start < end
        owners.append(index if inside else None)
    return owners
