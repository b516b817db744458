"""ASCII text split by `re` with a preset's ASCII form gives the real pattern's chunks.

Held against the `regex` module with the presets' own patterns, on ASCII texts drawn to hit
every class boundary (letters of both cases, digits, each of `regex`'s spaces and the
separators \\x1c-\\x1f that only `re`'s \\s takes, apostrophe suffixes in both cases,
punctuation, slashes, line ends) and on the long-runs benchmark's ASCII texts.
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
from explorer.encoding.ascii_split import AsciiSplitter, ascii_pattern, preset_splitter
from explorer.encoding.digit_runs import SEARCH_FROM, whole_runs_pattern
from explorer.encoding.pretokenize import PRESETS, covering_pieces, split_chunks

PATTERNS = {name: p for name, p in PRESETS.items() if p}
ALL_FORMS = [*PATTERNS.values(), *filter(None, map(whole_runs_pattern, PATTERNS.values()))]
TRICKY = "aZqQ09'sStTlLvVrReEmMdD \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f!./,-_\x00\x7f"
ASCII_TEXT = st.text(alphabet=st.characters(max_codepoint=127), max_size=120)
TRICKY_TEXT = st.text(alphabet=TRICKY, max_size=120)
# the ASCII texts of bench/long_runs.py, and kin
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
]


def real_split(pattern: str, text: str) -> list[str]:
    return regex.compile(pattern).findall(text)


@pytest.mark.parametrize("pattern", ALL_FORMS)
@settings(max_examples=150, deadline=None)
@given(text=st.one_of(ASCII_TEXT, TRICKY_TEXT))
def test_ascii_forms_match_where_the_real_patterns_do(pattern: str, text: str) -> None:
    ascii = ascii_pattern(pattern)
    assert ascii is not None and "\\p" not in ascii
    assert re.compile(ascii).findall(text) == real_split(pattern, text)


@pytest.mark.parametrize("name", ["gpt2", "gpt4", "o200k"])
def test_benchmark_texts_split_as_the_real_patterns_do(name: str) -> None:
    pattern = PATTERNS[name]
    split = preset_splitter(pattern)
    assert isinstance(split, AsciiSplitter)
    for text in BENCH_TEXTS:
        assert split(text, regex.compile(pattern)) == real_split(pattern, text), text[:20]


@pytest.mark.parametrize("name", ["gpt2", "gpt4", "o200k", "words"])
@settings(max_examples=25, deadline=None)
@given(
    unit=st.one_of(TRICKY_TEXT, st.text(alphabet="0123456789 a'\n", max_size=40)),
    beyond=st.sampled_from(["", "é", "٣", "\u0301", "\u2028", "東"]),
)
def test_the_splitter_gives_the_plain_split_on_any_text(name: str, unit: str, beyond: str) -> None:
    """Long texts (digit runs sliced, from SEARCH_FROM on) and text beyond ASCII too."""
    pattern = PATTERNS[name]
    split = preset_splitter(pattern)
    for text in (unit, unit + beyond, (unit + "1" * 40) * (SEARCH_FROM // 40 + 1) + beyond):
        assert split(text, regex.compile(pattern)) == split_chunks(text, regex.compile(pattern))


def test_other_patterns_keep_the_real_split() -> None:
    near_gpt2 = PATTERNS["gpt2"].replace("'(?:", "'(?i:")
    assert ascii_pattern(near_gpt2) is None and ascii_pattern(r"\w+|\s") is None
    assert preset_splitter(r"\w+") is covering_pieces
    assert preset_splitter("") is split_chunks
    user = Tokenizer(pattern=r"[a-z]+")
    assert user.pre_tokens("ab CD") == [("ab", False), (" CD", False)]  # the gap is a piece


def test_a_tokenizer_with_the_ascii_split_pickles() -> None:
    tokenizer = Tokenizer([(97, 98)], pattern=PATTERNS["o200k"])
    copy = pickle.loads(pickle.dumps(tokenizer))
    assert (
        copy.encode("ab 1234 ab")
        == tokenizer.encode("ab 1234 ab")
        == [256, 32, 49, 50, 51, 52, 32, 256]
    )
