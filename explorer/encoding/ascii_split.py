"""Split ASCII text with the standard library's `re`: the same chunks, two to three times sooner.

A preset's pattern speaks of Unicode classes (`\\p{L}`, `\\p{N}`, `\\s`, o200k's cased
letters and marks). In a text that is all ASCII each class is a small ASCII set, so the
pattern written with those sets matches exactly where the real one does; Python 3.11's `re`
has the possessive quantifiers the presets use and costs ~100 ns a match where the `regex`
module costs ~300, which bounded floods of short pre-tokens (`" a" * 100_000`) and makes up
most of encoding ordinary English. Any other text, and any pattern that is not a preset's
(user patterns too), is split by the real pattern as before.

subtle: `regex`'s `\\s` is not `re`'s: `re` also takes the separators \\x1c-\\x1f, so `\\s`
is spelled out as the six characters `regex` takes.

    >>> from explorer.encoding.pretokenize import GPT4_PATTERN
    >>> split = preset_splitter(GPT4_PATTERN)
    >>> split("Hi  you'll 12345!\\n", None)
    ['Hi', ' ', ' you', "'ll", ' ', '123', '45', '!\\n']
    >>> import pickle; pickle.loads(pickle.dumps(split)) == split  # a Tokenizer is pickled
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import regex

from explorer.encoding.digit_runs import (
    SEARCH_FROM,
    Splitter,
    digit_run_splitter,
    in_threes,
    whole_runs_pattern,
)
from explorer.encoding.pretokenize import PRESETS, covering_pieces, preset_name, split_chunks
from explorer.encoding.regex_budget import RegexBudget

_SPACE = r"\t\n\x0b\x0c\r "  # what `regex`'s \s takes below U+0080
# Unicode spellings in the presets -> their ASCII sets, longest first (classes before atoms)
ASCII_CLASSES = (
    (r"[^\s\p{L}\p{N}]", rf"[^{_SPACE}A-Za-z0-9]"),
    (r"[^\r\n\p{L}\p{N}]", r"[^\r\nA-Za-z0-9]"),
    (r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]", r"[A-Z]"),  # no titlecase, modifier, other or mark
    (r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]", r"[a-z]"),
    (r"\p{L}", r"[A-Za-z]"),
    (r"\p{N}", r"[0-9]"),
    (r"\s", rf"[{_SPACE}]"),
    (r"\S", rf"[^{_SPACE}]"),
)
_ASCII_DIGIT_RUN = re.compile(r"[0-9]{32}")  # digit_runs.LONG_RUN for ASCII text


def ascii_pattern(pattern: str) -> str | None:
    """The pattern with its Unicode classes as ASCII sets, for the presets (and their
    whole-digit-run forms) only; None for any other pattern.

    >>> ascii_pattern(r"'s| ?\\p{L}++|\\s+(?!\\S)") is None  # not a preset
    True
    >>> ascii_pattern(PRESETS["words"]).split("|")[7:9]
    ['[A-Za-z]+', '[0-9]+']
    """
    if pattern not in _known_patterns():
        return None
    for unicode, ascii in ASCII_CLASSES:
        pattern = pattern.replace(unicode, ascii)
    return None if "\\p" in pattern or "\\P" in pattern else pattern


@lru_cache(maxsize=1)
def _known_patterns() -> frozenset[str]:
    presets = [p for p in PRESETS.values() if p]
    whole_runs = [w for p in presets if (w := whole_runs_pattern(p)) is not None]
    return frozenset(presets + whole_runs)


@lru_cache(maxsize=16)
def _compiled_ascii(pattern: str) -> re.Pattern[str] | None:
    ascii = ascii_pattern(pattern)
    return None if ascii is None else re.compile(ascii)


def preset_splitter(pattern: str) -> Splitter:
    """How encoding cuts a text into pieces with `pattern`: a preset's ASCII text by `re`,
    long digit runs sliced (explorer.encoding.digit_runs); a custom pattern's matches and
    the gaps between them (`covering_pieces`)."""
    if preset_name(pattern) is None:
        return covering_pieces
    slow = digit_run_splitter(pattern) or split_chunks
    if not pattern or _compiled_ascii(pattern) is None:
        return slow
    return AsciiSplitter(pattern, whole_runs_pattern(pattern), slow)


@dataclass(frozen=True)
class AsciiSplitter:
    """A preset's split: ASCII text by `re` with the ASCII form, any other by `slow`.

    A class, not a closure, so that a Tokenizer holding it can be pickled; it holds
    patterns' text only and finds their compiled forms in caches.
    """

    pattern: str
    whole_runs: str | None  # the pattern taking whole digit runs, for cl100k's and o200k's
    slow: Splitter  # the real pattern's split (digit runs sliced), for text beyond ASCII

    def __call__(
        self, text: str, compiled: regex.Pattern[str] | None, *, budget: RegexBudget | None = None
    ) -> list[str]:
        if not text.isascii():
            return self.slow(text, compiled, budget=budget)
        whole_runs = self.whole_runs
        if whole_runs is not None and len(text) >= SEARCH_FROM and _ASCII_DIGIT_RUN.search(text):
            return in_threes(_ascii(whole_runs).findall(text))
        return _ascii(self.pattern).findall(text)


def _ascii(pattern: str) -> re.Pattern[str]:
    compiled = _compiled_ascii(pattern)
    assert compiled is not None  # AsciiSplitter is made for patterns that have one
    return compiled
