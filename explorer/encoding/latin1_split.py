"""Split Latin-1 text with the standard library's `re`: the same chunks, two to three times sooner.

A preset's pattern speaks of Unicode classes (`\\p{L}`, `\\p{N}`, `\\s`, o200k's cased
letters and marks). In a text whose characters are all below U+0100 (ASCII, and Western
European languages) each class is a set of those 256 characters, so the pattern written
with those sets matches exactly where the real one does. Python 3.11's `re` has the
possessive quantifiers the presets use and costs ~100 ns a match where the `regex` module
costs ~300: that bounded floods of short pre-tokens (`" a" * 100_000`) and was most of
encoding ordinary English. Any other text, and any pattern that is not a preset's (user
patterns too), is split by the real pattern as before.

The sets are read off `regex` itself, character by character, so they are its classes.
subtle: never `re`'s own `\\s` or `\\w`: its `\\s` also takes the separators \\x1c-\\x1f.

    >>> from explorer.encoding.pretokenize import GPT4_PATTERN
    >>> split = preset_splitter(GPT4_PATTERN)
    >>> split("Hi  you'll 12345!\\n", None), split("Où ½ café", None)
    (['Hi', ' ', ' you', "'ll", ' ', '123', '45', '!\\n'], ['Où', ' ', '½', ' café'])
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

# the Unicode classes the presets spell, longest first (a class before the atoms inside it)
PRESET_CLASSES = (
    r"[^\s\p{L}\p{N}]",
    r"[^\r\n\p{L}\p{N}]",
    r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]",
    r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]",
    r"\p{L}",
    r"\p{N}",
    r"\s",
    r"\S",
)
LATIN1 = 256  # characters below this are the ones the sets list


@lru_cache(maxsize=len(PRESET_CLASSES))
def latin1_set(unicode_class: str) -> str:
    """The characters below U+0100 that `regex` matches with `unicode_class`, as a set.

    >>> latin1_set(r"\\p{N}"), latin1_set(r"\\s")
    ('[0-9\\\\xb2\\\\xb3\\\\xb9\\\\xbc-\\\\xbe]', '[\\\\x09-\\\\x0d\\\\x20\\\\x85\\\\xa0]')
    """
    matches = regex.compile(unicode_class).fullmatch
    members = [code for code in range(LATIN1) if matches(chr(code))]
    ranges: list[list[int]] = []
    for code in members:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "[" + "".join(_span(low, high) for low, high in ranges) + "]"


def _span(low: int, high: int) -> str:
    def one(code: int) -> str:
        return chr(code) if chr(code).isalnum() and code < 128 else f"\\x{code:02x}"

    if high == low:
        return one(low)
    return f"{one(low)}-{one(high)}" if high > low + 1 else one(low) + one(high)


def latin1_pattern(pattern: str) -> str | None:
    """The pattern with its Unicode classes as Latin-1 sets, for the presets (and their
    whole-digit-run forms) only; None for any other pattern.

    >>> latin1_pattern(r"'s| ?\\p{L}++|\\s+(?!\\S)") is None  # not a preset
    True
    >>> latin1_pattern(PRESETS["words"]).split("|")[8]
    '[0-9\\\\xb2\\\\xb3\\\\xb9\\\\xbc-\\\\xbe]+'
    """
    if pattern not in _known_patterns():
        return None
    for unicode_class in PRESET_CLASSES:
        if unicode_class in pattern:
            pattern = pattern.replace(unicode_class, latin1_set(unicode_class))
    return None if "\\p" in pattern or "\\P" in pattern or "[]" in pattern else pattern


@lru_cache(maxsize=1)
def _known_patterns() -> frozenset[str]:
    presets = [p for p in PRESETS.values() if p]
    whole_runs = [w for p in presets if (w := whole_runs_pattern(p)) is not None]
    return frozenset(presets + whole_runs)


@lru_cache(maxsize=16)
def _compiled_latin1(pattern: str) -> re.Pattern[str] | None:
    latin1 = latin1_pattern(pattern)
    return None if latin1 is None else re.compile(latin1)


def preset_splitter(pattern: str) -> Splitter:
    """How encoding cuts a text into pieces with `pattern`: a preset's Latin-1 text by `re`,
    long digit runs sliced (explorer.encoding.digit_runs); a custom pattern's matches and
    the gaps between them (`covering_pieces`)."""
    if preset_name(pattern) is None:
        return covering_pieces
    slow = digit_run_splitter(pattern) or split_chunks
    if not pattern or _compiled_latin1(pattern) is None:
        return slow
    return Latin1Splitter(pattern, whole_runs_pattern(pattern), slow)


@dataclass(frozen=True)
class Latin1Splitter:
    """A preset's split: Latin-1 text by `re` with the Latin-1 form, any other by `slow`.

    A class, not a closure, so that a Tokenizer holding it can be pickled; it holds
    patterns' text only and finds their compiled forms in caches.
    """

    pattern: str
    whole_runs: str | None  # the pattern taking whole digit runs, for cl100k's and o200k's
    slow: Splitter  # the real pattern's split (digit runs sliced), for text beyond Latin-1

    def __call__(
        self, text: str, compiled: regex.Pattern[str] | None, *, budget: RegexBudget | None = None
    ) -> list[str]:
        if not is_latin1(text):
            return self.slow(text, compiled, budget=budget)
        whole_runs = self.whole_runs
        if whole_runs is not None and len(text) >= SEARCH_FROM and _long_digit_run(text):
            return in_threes(_latin1(whole_runs).findall(text))
        return _latin1(self.pattern).findall(text)


def is_latin1(text: str) -> bool:
    """Whether every character is below U+0100: `is_latin1("café") and not is_latin1("€")`.

    subtle: encoding stops at the first character beyond (~6 ms per million before it)
    """
    if text.isascii():
        return True
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


@lru_cache(maxsize=1)
def _digit_run() -> re.Pattern[str]:
    return re.compile(latin1_set(r"\p{N}") + "{32}")  # digit_runs.LONG_RUN for Latin-1 text


def _long_digit_run(text: str) -> bool:
    return _digit_run().search(text) is not None


def _latin1(pattern: str) -> re.Pattern[str]:
    compiled = _compiled_latin1(pattern)
    assert compiled is not None  # Latin1Splitter is made for patterns that have one
    return compiled
