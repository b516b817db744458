"""Latin-1 text split by `re` with a preset's Latin-1 form gives the real pattern's chunks.

Held against the `regex` module with the presets' own patterns, on texts of characters below
U+0100 drawn to hit every class boundary (letters of both cases and neither, as ª and ß,
digits and the Latin-1 numbers ²½, each of `regex`'s spaces (\\x85, \\xa0) and the separators
\\x1c-\\x1f that only `re`'s \\s takes, apostrophe suffixes in both cases, punctuation,
slashes, line ends), on any such text, and on the long-runs benchmark's Latin-1 texts.
"""

from __future__ import annotations

import pickle
import random
import re

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import Tokenizer
from explorer.encoding.digit_runs import SEARCH_FROM, whole_runs_pattern
from explorer.encoding.latin1_split import (
    Latin1Splitter,
    is_latin1,
    latin1_pattern,
    preset_splitter,
)
from explorer.encoding.pretokenize import PRESETS, covering_pieces, split_chunks

PATTERNS = {name: p for name, p in PRESETS.items() if p}
ALL_FORMS = [*PATTERNS.values(), *filter(None, map(whole_runs_pattern, PATTERNS.values()))]
TRICKY = "aZqQ09'sStTlLvVrReEmMdD \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f!./,-_\x00\x7f\x85\xa0ªµºßÀÿ×÷²½¹"
LATIN1_TEXT = st.text(alphabet=st.characters(max_codepoint=255), max_size=120)
TRICKY_TEXT = st.text(alphabet=TRICKY, max_size=120)
# the ASCII and Latin-1 texts of bench/engine/long_runs.py, and kin
BENCH_TEXTS = [
    "x" * 100_000,
    " " + "x" * 100_000 + "\n",
    " " + "^" * 10_000 + "\n",
    " " + "0" * 10_000 + "\n",
    " " + "'s" * 10_000 + "\n",
    " " * 10_000,
    "\n" * 10_000,
    "ab" * 20_000,
    " a" * 20_000,
    "7 " * 20_000,
    "".join(random.Random(1).choices("0123456789", k=20_000)),
    "".join(random.Random(1).choices("abcdefghijklmnopqrstuvwxyz", k=20_000)),
    "".join(map(chr, random.Random(1).choices(range(128), k=20_000))),
    random.Random(1).randbytes(20_000).decode("latin-1"),
    "\xe9" * 10_000 + " " + "\xb2" * 5_000,
]


def real_split(pattern: str, text: str) -> list[str]:
    return regex.compile(pattern).findall(text)


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(LATIN1_TEXT, TRICKY_TEXT))
def test_latin1_forms_match_where_the_real_patterns_do(text: str) -> None:
    """Every preset, and cl100k's and o200k's whole-digit-run forms."""
    for pattern in ALL_FORMS:
        latin1 = latin1_pattern(pattern)
        assert latin1 is not None and "\\p" not in latin1
        assert re.compile(latin1).findall(text) == real_split(pattern, text), pattern


@pytest.mark.parametrize("name", ["gpt2", "gpt4", "o200k"])
def test_benchmark_texts_split_as_the_real_patterns_do(name: str) -> None:
    pattern = PATTERNS[name]
    split = preset_splitter(pattern)
    assert isinstance(split, Latin1Splitter)
    for text in BENCH_TEXTS:
        assert split(text, regex.compile(pattern)) == real_split(pattern, text), text[:20]


@pytest.mark.parametrize("name", ["gpt2", "gpt4", "o200k", "words"])
@settings(max_examples=20, deadline=None)
@given(
    unit=st.one_of(TRICKY_TEXT, st.text(alphabet="0123456789 a'\n", max_size=40)),
    beyond=st.sampled_from(["", "é", "٣", "\u0301", "\u2028", "東", "\u0100"]),
)
def test_the_splitter_gives_the_plain_split_on_any_text(name: str, unit: str, beyond: str) -> None:
    """Long texts (digit runs sliced, from SEARCH_FROM on) and text beyond Latin-1 too."""
    pattern = PATTERNS[name]
    split = preset_splitter(pattern)
    for text in (unit, unit + beyond, (unit + "1" * 40) * (SEARCH_FROM // 40 + 1) + beyond):
        assert split(text, regex.compile(pattern)) == split_chunks(text, regex.compile(pattern))


def test_other_patterns_keep_the_real_split() -> None:
    near_gpt2 = PATTERNS["gpt2"].replace("'(?:", "'(?i:")
    assert latin1_pattern(near_gpt2) is None and latin1_pattern(r"\w+|\s") is None
    assert preset_splitter(r"\w+") is covering_pieces
    assert preset_splitter("") is split_chunks
    user = Tokenizer(pattern=r"[a-z]+")
    assert user.pre_tokens("ab CD") == [("ab", False), (" CD", False)]  # the gap is a piece


def test_latin1_is_every_character_below_u0100() -> None:
    assert is_latin1("") and is_latin1("ab") and is_latin1("\xff" * 3 + "a")
    assert not is_latin1("a\u0100") and not is_latin1("é東") and not is_latin1("\ud800")


def test_a_tokenizer_with_the_latin1_split_pickles() -> None:
    tokenizer = Tokenizer([(97, 98)], pattern=PATTERNS["o200k"])
    copy = pickle.loads(pickle.dumps(tokenizer))
    assert (
        copy.encode("ab 1234 ab")
        == tokenizer.encode("ab 1234 ab")
        == [256, 32, 49, 50, 51, 52, 32, 256]
    )
