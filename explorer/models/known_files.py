"""Rank files whose pattern and special tokens live in their model's code, known by SHA-256.

A tiktoken rank file lists token bytes and ranks, nothing else: the pre-tokenizer regex
and the special tokens are in the code that ships with it. For the files below we carry
them; a rank file nobody knows needs its pattern given (`--pattern` on the command line,
the same field in the app).

    >>> known = known_rank_file(LLAMA3_SHA256)
    >>> known.name, len(known.special_tokens), known.special_tokens["<|eot_id|>"]
    ("Meta's Llama 3 tokenizer.model", 256, 128009)
    >>> known_rank_file("0" * 64) is None
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from explorer.files.bundled import BUNDLED

# llama_models/llama3/tokenizer.py (PyPI llama-models 0.3.0): pat_str
LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
    r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
LLAMA3_SHA256 = "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55"
# the same file's special tokens: these twelve, then reserved ones up to 256, ids from 128,000
_LLAMA3_NAMED = (
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
)


def _llama3_specials() -> dict[str, int]:
    reserved = [f"<|reserved_special_token_{2 + k}|>" for k in range(256 - len(_LLAMA3_NAMED))]
    return {name: 128_000 + k for k, name in enumerate([*_LLAMA3_NAMED, *reserved])}


@dataclass(frozen=True)
class KnownRankFile:
    """What a known rank file's code says: its name, pattern, special tokens and BOS."""

    name: str
    pattern: str
    special_tokens: Mapping[str, int]
    bos: str | None = None  # the token `add_special_tokens=True` puts first


KNOWN_RANK_FILES: dict[str, KnownRankFile] = {
    LLAMA3_SHA256: KnownRankFile(
        "Meta's Llama 3 tokenizer.model", LLAMA3_PATTERN, _llama3_specials(), "<|begin_of_text|>"
    ),
    **{
        sha256: KnownRankFile(f"OpenAI's {spec.name}", spec.pattern, spec.special_tokens)
        for spec in BUNDLED.values()
        if len(spec.files) == 1
        for _, sha256 in spec.files
    },
}


def file_sha256(data: bytes) -> str:
    """The SHA-256 of a file's bytes, as hex: what the table is keyed on."""
    import hashlib  # here, not at the top: OpenSSL costs 3.6 MB to every import of explorer

    return hashlib.sha256(data).hexdigest()


def known_rank_file(sha256: str) -> KnownRankFile | None:
    """The known file with this SHA-256, or None."""
    return KNOWN_RANK_FILES.get(sha256)
