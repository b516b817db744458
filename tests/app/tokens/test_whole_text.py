"""count_whole, a block at a time, against one plain encode of the whole text."""

from __future__ import annotations

import pytest

from explorer import train
from explorer.encoding.tokenizer import Tokenizer
from ui.session.samples import sample_text
from ui.tokens.whole_text import count_whole, drawn_part

EOT = "<|endoftext|>"
TEXTS = {
    "prose": sample_text("shakespeare")[:20_000],
    "specials": (f"def f():{EOT}  pass\n\n\t{EOT}{EOT} x" * 200),
    "spaced special": "one <| sp |> two   three\n" * 300,
    "no spaces": "é" * 5_000 + "ab" * 3_000,
}


@pytest.fixture(scope="module", params=["gpt2", "gpt4", "none"])
def tokenizer(request: pytest.FixtureRequest) -> Tokenizer:
    trained = train(sample_text("python")[:30_000], 400, pattern=request.param)
    tok = trained.tokenizer
    return Tokenizer(tok.merges, pattern=tok.pattern, special_tokens=[EOT, "<| sp |>"])


@pytest.mark.parametrize("name", sorted(TEXTS))
@pytest.mark.parametrize("block_chars", [1, 7, 100, 1 << 20])
def test_blocks_count_what_one_encode_counts(
    tokenizer: Tokenizer, name: str, block_chars: int
) -> None:
    text = TEXTS[name]
    ids = tokenizer.encode(text, allowed_special="all")
    counted = count_whole(tokenizer, text, block_chars=block_chars)
    specials = tokenizer.special_by_id
    assert counted.tokens == len(ids)
    assert counted.specials == tuple(sorted({specials[i] for i in ids if i in specials}))


def test_the_drawn_part_is_the_start_of_the_text() -> None:
    text = "x" * 600_000  # no word's end: cut at the limit
    part = drawn_part(text)
    assert part.cut and text.startswith(part.text) and len(part.text) == 100_000
