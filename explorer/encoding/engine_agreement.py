"""Where tiktoken's regex engine splits a preset's text as `regex` does, and where not.

The presets spell Unicode classes (`\\p{L}`, `\\p{N}`, `\\s`, o200k's cased letters). The
`regex` module knows Unicode 17; tiktoken's Rust regex an earlier version, so about 17,500
characters assigned since (and U+0295, a lowercase letter there, another letter here) are
in different classes, and text holding one may split into different pieces. Everywhere
else the two engines make the same pieces (tests/engine/encoding/test_tiktoken_path.py
checks every code point of this table against the installed pair).

`disagreeing_spans` finds the spans of a text that hold such a character, widened to
safe cuts (explorer.encoding.safe_cuts) whose neighbours both engines class alike and
that follow a character that is not whitespace: no match crosses such a cut or looks
past it in either engine, so the text outside the spans can be encoded by tiktoken
and the spans here, and the ids joined are the ids of the whole.

    >>> text = "Hello world. The \\u0295ayn sound.\\nNext line"
    >>> disagreeing_spans(text)
    [(16, 21)]
    >>> disagreeing_spans("plain text, and 東京"), text[16:21]
    ([], ' ʕayn')
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from explorer.encoding.safe_cuts import SAFE_CUT

# Code points that `regex` and tiktoken class differently among \p{L}, \p{N}, \s and
# o200k's cased-letter sets (PRESET_CLASSES), as `disagreeing_ranges()` measures them.
DISAGREEING = (
    (0x295, 0x295), (0x558, 0x558), (0x58B, 0x58C), (0x5C8, 0x5C9), (0x88F, 0x88F),
    (0xB53, 0xB54), (0xC5C, 0xC5C), (0xCDC, 0xCDC), (0x1ACF, 0x1AF0), (0x208F, 0x208F),
    (0x209D, 0x209F), (0xA7CE, 0xA7CF), (0xA7D2, 0xA7D2), (0xA7D4, 0xA7D4), (0xA7DD, 0xA7DD),
    (0xA7E2, 0xA7E2), (0xA7F1, 0xA7F1), (0xAB6C, 0xAB6D), (0x107BB, 0x107BF),
    (0x10940, 0x10959), (0x10EC5, 0x10EC7), (0x10ECB, 0x10ECF), (0x10ED9, 0x10EEE),
    (0x10EF0, 0x10EFB), (0x11B0A, 0x11B0A), (0x11B60, 0x11B67), (0x11DB0, 0x11DDB),
    (0x11DE0, 0x11DE9), (0x11DF0, 0x11DF1), (0x1246F, 0x1246F), (0x12475, 0x1247F),
    (0x12550, 0x12686), (0x16EA0, 0x16EB8), (0x16EBB, 0x16ED3), (0x16FF2, 0x16FF6),
    (0x187F8, 0x187FF), (0x18CD6, 0x18CDA), (0x18D09, 0x18D20), (0x18D80, 0x18DF2),
    (0x18E00, 0x19191), (0x191A0, 0x191D2), (0x1B123, 0x1B128), (0x1B168, 0x1B168),
    (0x1D127, 0x1D128), (0x1D250, 0x1D252), (0x1D25B, 0x1D25C), (0x1D25F, 0x1D25F),
    (0x1D280, 0x1D281), (0x1D6A6, 0x1D6A6), (0x1DF1F, 0x1DF24), (0x1DF2B, 0x1DF81),
    (0x1DF90, 0x1DF96), (0x1DFCD, 0x1DFFF), (0x1E6C0, 0x1E6DE), (0x1E6E0, 0x1E6F5),
    (0x1E6FE, 0x1E6FF), (0x2B73A, 0x2B73F), (0x2B81E, 0x2B81E), (0x2CEA2, 0x2CEAD),
    (0x323B0, 0x33479), (0x3D000, 0x3FC3F),
)  # fmt: skip
# the classes the presets spell, each compared code point by code point
PRESET_CLASSES = (
    r"\p{L}",
    r"\p{N}",
    r"\s",
    r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]",
    r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]",
)
CUT_WINDOW = 256  # characters searched at a time for a cut beside a span, window by window


def disagreeing_spans(text: str) -> list[tuple[int, int]]:
    """The spans (start, end) to encode with `regex`, in order and apart; [] for most text.

    Such characters are found by tiktoken's own engine, with a class of their code points
    (~3 ms for 5 MB; `re` took 0.5 s), then placed with str.find.
    """
    if text.isascii():
        return []
    found = set(bytes(_finder().encode_ordinary(text)).decode("utf-8"))
    positions = sorted(position for char in found for position in _occurrences(text, char))
    spans: list[tuple[int, int]] = []
    for position in positions:
        if spans and position < spans[-1][1]:
            continue
        start, end = _cut_before(text, position), _cut_after(text, position + 1)
        if spans and start <= spans[-1][1]:
            start = spans.pop()[0]
        spans.append((start, end))
    return spans


def _occurrences(text: str, char: str) -> list[int]:
    found, position = [], text.find(char)
    while position >= 0:
        found.append(position)
        position = text.find(char, position + 1)
    return found


def _cut_before(text: str, position: int) -> int:
    """The last usable cut at or before `position` (0 if none)."""
    while position > 0:
        low = max(0, position - CUT_WINDOW)
        cuts = [m.start() for m in SAFE_CUT.finditer(text, low, position + 1)]
        for cut in reversed(cuts):
            if cut <= position and _usable(text, cut):
                return cut
        position = low
    return 0


def _cut_after(text: str, position: int) -> int:
    """The first usable cut at or after `position` (the text's end if none)."""
    while position < len(text):
        high = min(len(text), position + CUT_WINDOW)
        for found in SAFE_CUT.finditer(text, max(1, position - 1), high):
            cut = found.start()
            if cut >= position and _usable(text, cut):
                return cut
        position = high
    return len(text)


def _usable(text: str, cut: int) -> bool:
    """A safe cut after a character that is not whitespace, between two characters both
    engines class alike (so it is a safe cut in tiktoken's engine too)."""
    if cut <= 0 or cut >= len(text):
        return True
    return not text[cut - 1].isspace() and _disagreeing().search(text, cut - 1, cut + 1) is None


@lru_cache(maxsize=1)
def _disagreeing() -> re.Pattern[str]:
    return re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in DISAGREEING) + "]")


@lru_cache(maxsize=1)
def _finder() -> Any:
    """tiktoken's engine matching DISAGREEING's code points (a class of code points, which
    it reads as `regex` does), with the single bytes as its tokens: ids are their bytes."""
    import tiktoken

    ranges = "".join(f"\\x{{{low:x}}}-\\x{{{high:x}}}" for low, high in DISAGREEING)
    single_bytes = {bytes([b]): b for b in range(256)}
    return tiktoken.Encoding(
        "disagreeing", pat_str=f"[{ranges}]", mergeable_ranks=single_bytes, special_tokens={}
    )


def disagreeing_ranges() -> list[tuple[int, int]]:
    """Measure DISAGREEING with the installed `regex` and tiktoken (~2 s).

    Each class is matched against every code point by both engines (tiktoken with the
    256 single bytes as its only tokens, so its ids are the matched characters' bytes).
    """
    import regex
    import tiktoken

    every = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    single_bytes = {bytes([b]): b for b in range(256)}
    differ: set[str] = set()
    for unicode_class in PRESET_CLASSES:
        probe = tiktoken.Encoding(
            "probe", pat_str=unicode_class, mergeable_ranks=single_bytes, special_tokens={}
        )
        theirs = set(bytes(probe.encode_ordinary(every)).decode("utf-8"))
        differ |= theirs ^ set(regex.findall(unicode_class, every))
    ranges: list[tuple[int, int]] = []
    for code in sorted(map(ord, differ)):
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return ranges
