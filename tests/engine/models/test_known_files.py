"""The table of known rank files: its SHA-256 keys are the files' own, and what it says of each
is what the model's code says (SOURCES.md for Llama 3, tiktoken_ext for OpenAI's)."""

from __future__ import annotations

import pytest
import tiktoken
from tiktoken.load import load_tiktoken_bpe

from explorer.files.bundled import BUNDLED, VOCABULARY_DIR
from explorer.models.known_files import (
    KNOWN_RANK_FILES,
    LLAMA3_SHA256,
    file_sha256,
    known_rank_file,
)
from explorer.models.reading import read_model
from tests.conftest import shared_path


def test_llama3_tokenizer_model_is_known_by_its_bytes() -> None:
    path = shared_path("reference", "open-weight", "llama3", "tokenizer.model")
    assert file_sha256(path.read_bytes()) == LLAMA3_SHA256


def test_llama3_specials_are_the_256_of_its_code() -> None:
    known = KNOWN_RANK_FILES[LLAMA3_SHA256]
    names = sorted(known.special_tokens, key=known.special_tokens.__getitem__)
    assert list(known.special_tokens.values()) == list(range(128_000, 128_256))
    assert names[:12] == [
        "<|begin_of_text|>",
        "<|end_of_text|>",
        "<|reserved_special_token_0|>",
        "<|reserved_special_token_1|>",
        "<|finetune_right_pad_id|>",
        "<|step_id|>",
        "<|start_header_id|>",
        "<|end_header_id|>",
        "<|eom_id|>",
        "<|eot_id|>",
        "<|python_tag|>",
        "<|image|>",
    ]
    assert names[12] == "<|reserved_special_token_2|>"
    assert names[-1] == "<|reserved_special_token_245|>"
    assert known.bos == "<|begin_of_text|>"


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_openai_rank_files_are_known_as_the_bundled_ones(name: str) -> None:
    spec = BUNDLED[name]
    [(relative, _)] = spec.files
    path = VOCABULARY_DIR / relative
    known = known_rank_file(file_sha256(path.read_bytes()))
    assert known is not None and known.pattern == spec.pattern
    assert dict(known.special_tokens) == spec.special_tokens
    model = read_model(f"renamed-{name}.model", path.read_bytes())  # by content, not by name
    reference = tiktoken.Encoding(  # as tiktoken_ext/openai_public.py builds it
        name,
        pat_str=spec.pattern,
        mergeable_ranks=load_tiktoken_bpe(str(path)),
        special_tokens=spec.special_tokens,
    )
    text = "Hello world <|endoftext|> 12345  naïve 🙂\n\n\tx"
    ids = model.encode(text)
    assert ids == reference.encode(text, allowed_special="all")
    assert model.decode(ids) == text and model.trace(text).ids == ids
