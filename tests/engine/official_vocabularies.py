"""tiktoken's own GPT-2, cl100k_base and o200k_base, built from the bundled files.

Shared by the tests that hold the explorer to tiktoken (tests/engine/files/test_bundled.py,
tests/engine/analysis/vocabulary/test_checkup.py). tiktoken cannot download here, so its
constructors in `tiktoken_ext/openai_public.py` read the bundled files instead.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from tiktoken.load import data_gym_to_mergeable_bpe_ranks, load_tiktoken_bpe
from tiktoken_ext import openai_public

from explorer.files import bundled


@cache
def official_spec(name: str) -> dict[str, Any]:
    """tiktoken's constructor for a name: its name, pattern, ranks and special tokens, plus
    the sha256 it expects of each file (`hashes`). Built once per name and test run."""
    folder, hashes = bundled.VOCABULARY_DIR, {}

    def tiktoken_file(url: str, expected_hash: str) -> dict[bytes, int]:
        relative = url.rsplit("/", 1)[1]
        hashes[relative] = expected_hash
        return load_tiktoken_bpe(str(folder / relative), expected_hash)

    def gpt2_files(
        vocab_bpe_file: str, encoder_json_file: str, vocab_bpe_hash: str, encoder_json_hash: str
    ) -> dict[bytes, int]:
        hashes.update({"gpt2/vocab.bpe": vocab_bpe_hash, "gpt2/encoder.json": encoder_json_hash})
        return data_gym_to_mergeable_bpe_ranks(
            str(folder / "gpt2/vocab.bpe"),
            str(folder / "gpt2/encoder.json"),
            vocab_bpe_hash,
            encoder_json_hash,
        )

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TIKTOKEN_CACHE_DIR", "")  # no copies written to a cache folder
        patch.setattr(openai_public, "load_tiktoken_bpe", tiktoken_file)
        patch.setattr(openai_public, "data_gym_to_mergeable_bpe_ranks", gpt2_files)
        spec = openai_public.ENCODING_CONSTRUCTORS[name]()
    return {**spec, "hashes": hashes}
