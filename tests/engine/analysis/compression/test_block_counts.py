"""The counts of a text taken a block at a time are the counts of one encode, so every metric
the overlay draws from them is the one-encode figure."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import train
from explorer.analysis.compression.block_counts import counts_in_blocks
from explorer.analysis.compression.metrics import count_text, metrics_at
from ui.session.samples import sample_text

WORDS = ["the", " ", "  ", "\n", "\n\n", "\t", "'s", "42", ",", ".", "é", "猫", "low", "er"]
TRAINING = sample_text("shakespeare")[:20_000] + " 42 猫é\t 's\n\n lower"
TOKENIZERS = {p: train(TRAINING, 400, pattern=p).tokenizer for p in ("gpt2", "gpt4", "o200k")}


@pytest.mark.parametrize("pattern", sorted(TOKENIZERS))
@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=60), st.integers(1, 10))
def test_block_counts_equal_one_encode(pattern: str, pieces: list[str], block: int) -> None:
    tokenizer, text = TOKENIZERS[pattern], "".join(pieces)
    counts = counts_in_blocks(tokenizer, text, block_chars=block)
    whole = count_text(tokenizer, text)
    assert counts == whole
    sizes = [256, 300, 400]
    assert metrics_at(tokenizer, counts, sizes) == metrics_at(tokenizer, whole, sizes)
