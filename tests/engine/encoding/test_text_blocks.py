"""A text encoded block by block gives exactly the ids of one encode, for every preset that
can be cut, and no block splits a word."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import train
from explorer.encoding.text_blocks import text_blocks
from ui.session.samples import sample_text

PIECES = ["the", " ", "  ", "\n", "\n\n", " \n", "\t", "'s", "42", "1,000", ",", "."]
PIECES += ["é", "猫", "--"]
TRAINING = sample_text("shakespeare")[:20_000] + " 42 1,000 猫é\t 's\n\n"
TOKENIZERS = {p: train(TRAINING, 400, pattern=p).tokenizer for p in ("gpt2", "gpt4", "o200k")}


@pytest.mark.parametrize("pattern", sorted(TOKENIZERS))
@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=80), st.integers(1, 12))
def test_blocks_encode_as_the_whole_text(pattern: str, pieces: list[str], size: int) -> None:
    tokenizer, text = TOKENIZERS[pattern], "".join(pieces)
    blocks = text_blocks(text, tokenizer.pattern, block_chars=size)
    assert "".join(blocks) == text
    assert [i for b in blocks for i in tokenizer.encode_ordinary(b)] == tokenizer.encode_ordinary(
        text
    )
    assert [w for b in blocks for w in b.split()] == text.split()  # no word is cut


def test_a_long_text_is_cut_near_the_block_size_and_none_is_not_cut() -> None:
    text = sample_text("shakespeare")
    blocks = text_blocks(text, "gpt4", block_chars=10_000)
    assert len(blocks) == len(text) // 10_000 + 1
    assert all(10_000 <= len(b) < 10_100 for b in blocks[:-1])
    assert text_blocks(text, "none", block_chars=10_000) == [text]
    assert text_blocks(text, r"\w+|\W", block_chars=10_000) == [text]  # a regex of the user's
